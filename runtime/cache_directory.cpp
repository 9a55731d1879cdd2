// SPDX-License-Identifier: Apache-2.0
#include "runtime/cache_directory.h"

#include <cstdlib>
#include <string_view>

namespace lanewise::runtime {

std::optional<std::filesystem::path> cacheDirectory() {
  namespace fs = std::filesystem;
  if (const char *off = std::getenv("LANEWISE_CACHE"); off && std::string_view(off) == "0")
    return std::nullopt;
  if (const char *dir = std::getenv("LANEWISE_CACHE_DIR"); dir && *dir)
    return fs::path(dir);
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return fs::path(xdg) / "lanewise";
  if (const char *home = std::getenv("HOME"); home && *home)
    return fs::path(home) / ".cache" / "lanewise";
  return std::nullopt;
}

} // namespace lanewise::runtime
