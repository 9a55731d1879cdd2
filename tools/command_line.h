// SPDX-License-Identifier: Apache-2.0
// A small parser for the GNU style of long options: "--name", "--name=value",
// "--name value" for options that need a value, one-letter aliases ("-h" for
// "--help", "-o FILE"), and "--" to end the options.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lanewise::cli {

enum class OptionValue {
  None,     // --deterministic
  Required, // --kernel NAME or --kernel=NAME
  Optional, // --check or --check=LIST (the value only after '=')
};

struct OptionSpec {
  std::string_view name; // without the leading "--"
  OptionValue value;
  char shortName = 0; // "-o" for "--output"; "-h" is always "--help"
};

struct ParsedOption {
  std::string name;
  std::optional<std::string> value;
};

struct CommandLine {
  std::vector<ParsedOption> options; // in the order given
  std::vector<std::string> operands;
};

// Throws UsageError for an unknown option or a missing or unexpected value.
// With stopAtFirstOperand, the first operand and everything after it are
// operands (the command line of another program).
CommandLine parseCommandLine(std::span<char *const> arguments, std::span<const OptionSpec> options,
                             bool stopAtFirstOperand = false);

bool hasOption(const CommandLine &commandLine, std::string_view name);

} // namespace lanewise::cli
