// SPDX-License-Identifier: Apache-2.0
#include "run_description.h"

#include "errors.h"
#include "text.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <fstream>
#include <iterator>

namespace lanewise::cli {

namespace {

namespace fs = std::filesystem;

// A '#' at the start of the line or after a blank starts a comment.
std::string_view withoutComment(std::string_view line) {
  for (size_t index = 0; index < line.size(); ++index)
    if (line[index] == '#' &&
        (index == 0 || std::isspace(static_cast<unsigned char>(line[index - 1]))))
      return line.substr(0, index);
  return line;
}

std::vector<std::string> words(std::string_view text) {
  std::vector<std::string> result;
  size_t index = 0;
  while (index < text.size()) {
    while (index < text.size() &&
           (std::isspace(static_cast<unsigned char>(text[index])) || text[index] == ','))
      ++index;
    const size_t start = index;
    while (index < text.size() && !std::isspace(static_cast<unsigned char>(text[index])) &&
           text[index] != ',')
      ++index;
    if (index > start)
      result.emplace_back(text.substr(start, index - start));
  }
  return result;
}

// Directives of the test driver, which 'lanewise run' accepts and skips.
constexpr std::array<std::string_view, 4> testDirectives{"expect", "expect-exit", "expect-stderr",
                                                         "expect-finding"};

bool isTestDirective(std::string_view keyword) {
  return std::ranges::find(testDirectives, keyword) != testDirectives.end();
}

// A line that is not a directive is an argument spec; those start with a
// type, "buffer:", "local:", a name and '=', or a number.
bool looksLikeArgumentSpec(std::string_view keyword) {
  return keyword.find_first_of(":=") != std::string_view::npos ||
         std::isdigit(static_cast<unsigned char>(keyword[0])) || keyword[0] == '-' ||
         keyword[0] == '+' || keyword[0] == '.';
}

void requireValue(std::string_view keyword, std::string_view value) {
  if (value.empty())
    throw UsageError("'" + std::string(keyword) + "' needs a value");
}

void requireNoValue(std::string_view keyword, std::string_view value) {
  if (!value.empty())
    throw UsageError("'" + std::string(keyword) + "' takes no value");
}

void applyDirective(RunDescription &description, std::string_view keyword, std::string_view value,
                    const fs::path &folder) {
  if (keyword == "program") {
    requireValue(keyword, value);
    description.program = folder / fs::path(std::string(value));
  } else if (keyword == "kernel") {
    requireValue(keyword, value);
    description.kernel = std::string(value);
  } else if (keyword == "global") {
    description.global = parseSizes(value, "global");
  } else if (keyword == "local") {
    description.local = parseSizes(value, "local");
  } else if (keyword == "build-options") {
    description.buildOptions = std::string(value);
  } else if (keyword == "arg") {
    requireValue(keyword, value);
    description.arguments.push_back(parseArgumentSpec(value, folder));
  } else if (keyword == "print") {
    requireValue(keyword, value);
    for (std::string &word : words(value))
      description.prints.push_back(std::move(word));
  } else if (keyword == "seed") {
    description.seed = parseSeed(value);
  } else if (keyword == "check") {
    description.checks.checks = validateCheckList(value.empty() ? "all" : value);
  } else if (keyword == "check-file") {
    requireValue(keyword, value);
    description.checks.reportFile = (folder / fs::path(std::string(value))).string();
  } else if (keyword == "check-json") {
    requireValue(keyword, value);
    description.checks.jsonFile = (folder / fs::path(std::string(value))).string();
  } else if (keyword == "check-abort") {
    requireNoValue(keyword, value);
    description.checks.abortOnFinding = true;
  } else if (keyword == "deterministic") {
    requireNoValue(keyword, value);
    description.checks.deterministic = true;
  } else if (keyword == "timeout") {
    requireValue(keyword, value);
    description.checks.timeout = parseSeconds(std::string(value));
  } else if (!isTestDirective(keyword)) {
    throw UsageError("unknown directive '" + std::string(keyword) + "'");
  }
}

void applyLine(RunDescription &description, std::string_view line, const fs::path &folder) {
  const size_t blank = line.find_first_of(" \t");
  const std::string_view keyword = line.substr(0, blank);
  const std::string_view value =
      blank == std::string_view::npos ? std::string_view() : trimmed(line.substr(blank));
  if (looksLikeArgumentSpec(keyword))
    description.arguments.push_back(parseArgumentSpec(line, folder));
  else
    applyDirective(description, keyword, value, folder);
}

} // namespace

std::vector<size_t> parseSizes(std::string_view text, std::string_view what) {
  const std::vector<std::string> items = splitList(text);
  if (items.size() > 3)
    throw UsageError(std::string(what) + " size '" + std::string(text) +
                     "' has more than three dimensions");
  std::vector<size_t> sizes;
  for (const std::string &item : items) {
    size_t value = 0;
    const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (item.empty() || error != std::errc() || end != item.data() + item.size() || value == 0)
      throw UsageError(std::string(what) + " size '" + std::string(text) +
                       "' is not one to three positive whole numbers (X[,Y[,Z]])");
    sizes.push_back(value);
  }
  return sizes;
}

uint64_t parseSeed(std::string_view text) {
  text = trimmed(text);
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size())
    throw UsageError("seed '" + std::string(text) + "' is not a whole number");
  return value;
}

RunDescription readRunDescription(const fs::path &file) {
  std::ifstream stream(file);
  if (!stream)
    throw UsageError("cannot read the run description '" + file.string() + "'");
  const std::string text{std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
  return parseRunDescription(text, file.string(), file.parent_path());
}

RunDescription parseRunDescription(std::string_view text, const std::string &name,
                                   const fs::path &folder) {
  RunDescription description;
  size_t number = 1;
  for (size_t start = 0; start < text.size(); ++number) {
    const size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view content = trimmed(withoutComment(text.substr(start, end - start)));
    start = end + 1;
    if (content.empty())
      continue;
    try {
      applyLine(description, content, folder);
    } catch (const UsageError &error) {
      throw UsageError(name + ":" + std::to_string(number) + ": " + error.what());
    }
  }
  return description;
}

RunDescription mergeRunDescriptions(RunDescription earlier, RunDescription later) {
  RunDescription merged = std::move(earlier);
  auto replace = [](auto &target, auto &source) {
    if (source)
      target = std::move(source);
  };
  replace(merged.program, later.program);
  replace(merged.kernel, later.kernel);
  replace(merged.global, later.global);
  replace(merged.local, later.local);
  replace(merged.buildOptions, later.buildOptions);
  replace(merged.seed, later.seed);
  replace(merged.checks.checks, later.checks.checks);
  replace(merged.checks.reportFile, later.checks.reportFile);
  replace(merged.checks.jsonFile, later.checks.jsonFile);
  merged.checks.abortOnFinding = merged.checks.abortOnFinding || later.checks.abortOnFinding;
  merged.checks.deterministic = merged.checks.deterministic || later.checks.deterministic;
  merged.checks.keepOptimisation =
      merged.checks.keepOptimisation || later.checks.keepOptimisation;
  replace(merged.checks.exitCode, later.checks.exitCode);
  replace(merged.checks.timeout, later.checks.timeout);
  merged.checks.stats = merged.checks.stats || later.checks.stats;
  replace(merged.checks.traceFile, later.checks.traceFile);
  for (ArgumentSpec &argument : later.arguments)
    merged.arguments.push_back(std::move(argument));
  for (std::string &print : later.prints)
    merged.prints.push_back(std::move(print));
  return merged;
}

} // namespace lanewise::cli
