// SPDX-License-Identifier: Apache-2.0
// What 'lanewise run' runs: the program, the kernel, the NDRange, the
// arguments and the buffers to print, from the command line and from a run
// description file (--args-file).
//
// A run description file has one directive a line; '#' starts a comment
// (at the start of a line or after a blank). Relative paths in it are taken
// from the file's folder.
//
//   program PATH                the kernel file (.cl or .spv)
//   kernel NAME
//   global X[,Y[,Z]]
//   local X[,Y[,Z]]
//   build-options TEXT          the rest of the line
//   arg SPEC                    one kernel argument (argument_spec.h)
//   SPEC                        the same, without the keyword
//   print NAME|INDEX ...        buffers to print after the run
//   seed N                      for random=
//   check [LIST] | check-file PATH | check-json PATH | check-abort | deterministic
//   expect ... | expect-exit N | expect-stderr TEXT | expect-finding KIND LINE
//                               read by the test driver; 'lanewise run' skips them
#pragma once

#include "argument_spec.h"
#include "checks.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lanewise::cli {

struct RunDescription {
  std::optional<std::filesystem::path> program;
  std::optional<std::string> kernel;
  std::optional<std::vector<size_t>> global;
  std::optional<std::vector<size_t>> local;
  std::optional<std::string> buildOptions;
  std::vector<ArgumentSpec> arguments;
  std::vector<std::string> prints; // argument names or indices
  std::optional<uint64_t> seed;
  CheckSettings checks;
};

// "X[,Y[,Z]]": one to three positive sizes. Throws UsageError naming `what`.
std::vector<size_t> parseSizes(std::string_view text, std::string_view what);
uint64_t parseSeed(std::string_view text);

// Throws UsageError prefixed with "FILE:LINE: ".
RunDescription readRunDescription(const std::filesystem::path &file);
// The same from the file's text; `name` prefixes messages and relative paths
// are taken from `folder`.
RunDescription parseRunDescription(std::string_view text, const std::string &name,
                                   const std::filesystem::path &folder);

// What `later` sets replaces what `earlier` sets; arguments and prints of
// `later` come after those of `earlier`.
RunDescription mergeRunDescriptions(RunDescription earlier, RunDescription later);

} // namespace lanewise::cli
