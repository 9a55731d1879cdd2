// SPDX-License-Identifier: Apache-2.0
// lanewise: the command line of the Lanewise OpenCL platform.
#include "commands.h"
#include "errors.h"
#include "help.h"

#include <cstdio>
#include <exception>
#include <span>
#include <string>
#include <string_view>

namespace lanewise::cli {

namespace {

struct Command {
  std::string_view name;
  int (*run)(std::span<char *const>);
};

constexpr Command commands[] = {
    {"info", infoCommand},
    {"exec", execCommand},
    {"run", runCommand},
    {"compile", compileCommand},
};

// help [--man] [COMMAND]: the page as text, or as man(7) source.
int help(std::span<char *const> arguments) {
  const bool man = !arguments.empty() && std::string_view(arguments[0]) == "--man";
  if (man)
    arguments = arguments.subspan(1);
  const std::string_view command = arguments.empty() ? "" : arguments[0];
  if (arguments.size() > 1 || !helpPage(command))
    throw UsageError("no manual page for '" + std::string(command) +
                     "' (the commands: info, exec, run, compile)");
  return man ? printManPage(command) : printHelp(command);
}

int dispatch(std::span<char *const> arguments, std::string &commandName) {
  if (arguments.empty())
    throw UsageError("no command (the commands: info, exec, run, compile, help)");
  const std::string_view first = arguments[0];
  if (first == "--help" || first == "-h" || first == "help")
    return help(arguments.subspan(1));
  if (first == "--version") {
    std::printf("lanewise %s\n", LANEWISE_VERSION);
    return exitSuccess;
  }
  for (const Command &command : commands)
    if (first == command.name) {
      commandName = command.name;
      return command.run(arguments.subspan(1));
    }
  throw UsageError("unknown command '" + std::string(first) +
                   "' (the commands: info, exec, run, compile, help)");
}

} // namespace

} // namespace lanewise::cli

int main(int argc, char **argv) {
  using namespace lanewise::cli;
  std::string commandName;
  const std::string program = "lanewise";
  try {
    return dispatch(std::span<char *const>(argv + 1, argc - 1), commandName);
  } catch (const UsageError &error) {
    const std::string prefix = commandName.empty() ? program : program + " " + commandName;
    std::fprintf(stderr, "%s: %s\nTry '%s --help'.\n", prefix.c_str(), error.what(),
                 prefix.c_str());
    return exitUsage;
  } catch (const Failure &error) {
    const std::string prefix = commandName.empty() ? program : program + " " + commandName;
    std::fprintf(stderr, "%s: %s\n", prefix.c_str(), error.what());
    return exitFailure;
  } catch (const std::exception &error) {
    std::fprintf(stderr, "%s: %s\n", program.c_str(), error.what());
    return exitFailure;
  }
}
