// SPDX-License-Identifier: Apache-2.0
#include "command_line.h"

#include "errors.h"

#include <algorithm>

namespace lanewise::cli {

namespace {

const OptionSpec *findOption(std::span<const OptionSpec> options, std::string_view name) {
  const auto found = std::ranges::find(options, name, &OptionSpec::name);
  return found == options.end() ? nullptr : &*found;
}

bool isOption(std::string_view argument) { return argument.size() > 1 && argument[0] == '-'; }

} // namespace

CommandLine parseCommandLine(std::span<char *const> arguments, std::span<const OptionSpec> options,
                             bool stopAtFirstOperand) {
  CommandLine result;
  bool optionsEnded = false;
  for (size_t index = 0; index < arguments.size(); ++index) {
    std::string_view argument = arguments[index];
    if (optionsEnded || !isOption(argument)) {
      result.operands.emplace_back(argument);
      optionsEnded = optionsEnded || stopAtFirstOperand;
      continue;
    }
    if (argument == "--") {
      optionsEnded = true;
      continue;
    }
    std::string alias;
    if (argument == "-h") {
      argument = "--help";
    } else if (argument.size() == 2 && argument[1] != '-') {
      const auto found = std::ranges::find(options, argument[1], &OptionSpec::shortName);
      if (found != options.end()) {
        alias = "--" + std::string(found->name);
        argument = alias;
      }
    }
    if (!argument.starts_with("--"))
      throw UsageError("unknown option '" + std::string(argument) + "'");

    const std::string_view body = argument.substr(2);
    const size_t equals = body.find('=');
    const std::string_view name = body.substr(0, equals);
    const OptionSpec *option = findOption(options, name);
    if (!option)
      throw UsageError("unknown option '--" + std::string(name) + "'");

    ParsedOption parsed{std::string(name), std::nullopt};
    if (equals != std::string_view::npos) {
      if (option->value == OptionValue::None)
        throw UsageError("option '--" + parsed.name + "' takes no value");
      parsed.value = std::string(body.substr(equals + 1));
    } else if (option->value == OptionValue::Required) {
      if (index + 1 == arguments.size())
        throw UsageError("option '--" + parsed.name + "' needs a value");
      parsed.value = arguments[++index];
    }
    result.options.push_back(std::move(parsed));
  }
  return result;
}

bool hasOption(const CommandLine &commandLine, std::string_view name) {
  return std::ranges::any_of(commandLine.options,
                             [&](const ParsedOption &option) { return option.name == name; });
}

} // namespace lanewise::cli
