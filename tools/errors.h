// SPDX-License-Identifier: Apache-2.0
// The two ways a command fails: the command line (or a run description) is
// wrong, or OpenCL, the program or the system refused what it asked for.
#pragma once

#include <stdexcept>
#include <string>

namespace lanewise::cli {

// Exit status 2: what the user wrote is wrong; the message says what and where.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Exit status 1: a correct request that failed (a build error, an OpenCL error,
// a missing library).
struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

constexpr int exitSuccess = 0;
constexpr int exitFailure = 1;
constexpr int exitUsage = 2;

} // namespace lanewise::cli
