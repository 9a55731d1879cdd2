// SPDX-License-Identifier: Apache-2.0
// The subcommands. Each takes the arguments after its name and returns the
// exit status; UsageError and Failure escape to main, which reports them.
#pragma once

#include <span>

namespace lanewise::cli {

int infoCommand(std::span<char *const> arguments);
int execCommand(std::span<char *const> arguments);
int runCommand(std::span<char *const> arguments);
int compileCommand(std::span<char *const> arguments);

} // namespace lanewise::cli
