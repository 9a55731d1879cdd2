// SPDX-License-Identifier: Apache-2.0
// lanewise exec: runs another program with Lanewise as its only OpenCL
// platform, the checked mode set up from the options.
#include "checks.h"
#include "command_line.h"
#include "commands.h"
#include "errors.h"
#include "help.h"
#include "library.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lanewise::cli {

namespace {

std::vector<OptionSpec> execOptions() {
  std::vector<OptionSpec> options{{"help", OptionValue::None},
                                  {"device-type", OptionValue::Required}};
  options.insert(options.end(), checkOptions().begin(), checkOptions().end());
  return options;
}

// Shells answer 127 for a program that is not found and 126 for one that
// cannot run; so does exec.
constexpr int exitNotFound = 127;
constexpr int exitNotExecutable = 126;

// The device types LANEWISE_DEVICE_TYPE accepts (icd/platform.cpp).
std::string validateDeviceType(const std::string &type) {
  for (std::string_view known : {"cpu", "gpu", "accelerator", "default"})
    if (type == known)
      return type;
  throw UsageError("--device-type takes cpu, gpu, accelerator or default, not '" + type + "'");
}

} // namespace

int execCommand(std::span<char *const> arguments) {
  const CommandLine commandLine =
      parseCommandLine(arguments, execOptions(), /*stopAtFirstOperand=*/true);
  CheckSettings settings;
  std::optional<std::string> deviceType;
  for (const ParsedOption &option : commandLine.options) {
    if (option.name == "help")
      return printHelp("exec");
    if (option.name == "device-type")
      deviceType = validateDeviceType(*option.value);
    else
      applyCheckOption(option, settings);
  }
  if (commandLine.operands.empty())
    throw UsageError("no program to run");

  settings.applyToEnvironment();
  if (deviceType)
    ::setenv("LANEWISE_DEVICE_TYPE", deviceType->c_str(), 1);
  selectLanewiseOnly();

  std::vector<char *> programArguments;
  for (const std::string &operand : commandLine.operands)
    programArguments.push_back(const_cast<char *>(operand.c_str()));
  programArguments.push_back(nullptr);
  std::fflush(nullptr);
  ::execvp(programArguments[0], programArguments.data());

  // execvp returns only when it failed.
  const int error = errno;
  std::fprintf(stderr, "lanewise exec: cannot run '%s': %s\n", programArguments[0],
               std::strerror(error));
  return error == ENOENT ? exitNotFound : exitNotExecutable;
}

} // namespace lanewise::cli
