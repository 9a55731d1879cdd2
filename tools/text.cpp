// SPDX-License-Identifier: Apache-2.0
#include "text.h"

#include "errors.h"

#include <cctype>
#include <fstream>
#include <iterator>

namespace lanewise::cli {

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  return text;
}

std::vector<std::string> splitList(std::string_view list) {
  std::vector<std::string> items;
  size_t start = 0;
  while (true) {
    const size_t comma = list.find(',', start);
    items.emplace_back(trimmed(list.substr(start, comma - start)));
    if (comma == std::string_view::npos)
      return items;
    start = comma + 1;
  }
}

std::string readWholeFile(const std::filesystem::path &path, const std::string &what) {
  std::ifstream stream(path, std::ios::binary);
  if (!stream)
    throw UsageError("cannot read " + what + "'" + path.string() + "'");
  return {std::istreambuf_iterator<char>(stream), {}};
}

} // namespace lanewise::cli
