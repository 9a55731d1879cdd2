// SPDX-License-Identifier: Apache-2.0
#include "library.h"

#include "errors.h"

#include <cstdlib>
#include <string>
#include <system_error>
#include <vector>

namespace lanewise::cli {

namespace {

namespace fs = std::filesystem;

constexpr const char *libraryName = "liblanewise.so";

bool isFile(const fs::path &path) {
  std::error_code error;
  return fs::is_regular_file(path, error);
}

// Where an installed library would be, from the folder of the installed
// executable: the library folder of this build's install layout, then the
// usual ones.
std::vector<fs::path> installedCandidates() {
  std::error_code error;
  const fs::path executable = fs::read_symlink("/proc/self/exe", error);
  if (error)
    return {};
  const fs::path folder = executable.parent_path();
  std::vector<fs::path> candidates{folder / LANEWISE_RELATIVE_LIBDIR / libraryName};
  if (std::string_view(LANEWISE_LIBRARY_ARCHITECTURE).size())
    candidates.push_back(folder / "../lib" / LANEWISE_LIBRARY_ARCHITECTURE / libraryName);
  candidates.push_back(folder / "../lib" / libraryName);
  for (fs::path &candidate : candidates)
    candidate = candidate.lexically_normal();
  return candidates;
}

} // namespace

fs::path findLanewiseLibrary() {
  if (const char *variable = std::getenv("LANEWISE_LIBRARY"); variable && *variable) {
    if (!isFile(variable))
      throw Failure(std::string("LANEWISE_LIBRARY names '") + variable + "', which is not a file");
    return fs::absolute(variable);
  }
  std::vector<fs::path> candidates = installedCandidates();
  candidates.emplace_back(LANEWISE_BUILD_LIBRARY);
  for (const fs::path &candidate : candidates)
    if (isFile(candidate))
      return candidate;

  std::string message = "cannot find liblanewise.so; looked at";
  for (const fs::path &candidate : candidates)
    message += "\n  " + candidate.string();
  message += "\nset LANEWISE_LIBRARY to the library's path";
  throw Failure(message);
}

fs::path selectLanewiseOnly() {
  const fs::path library = findLanewiseLibrary();
  ::setenv("OCL_ICD_VENDORS", library.c_str(), 1);
  return library;
}

} // namespace lanewise::cli
