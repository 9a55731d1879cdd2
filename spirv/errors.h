// SPDX-License-Identifier: Apache-2.0
// Errors of the SPIR-V front end. Internally the reader, normaliser and
// validator throw LoadError; the public entry point (loader.h) turns it into
// a LoadResult.
#pragma once

#include <stdexcept>
#include <string>

namespace lanewise::spirv {

enum class LoadErrorKind {
  // Not a SPIR-V binary at all, or a stream cut short or garbled at the word
  // level: the OpenCL layer answers CL_INVALID_VALUE at clCreateProgramWithIL.
  Malformed,
  // A well-formed binary that is invalid SPIR-V or uses what Lanewise does not
  // support: CL_BUILD_PROGRAM_FAILURE, with the message in the build log.
  Invalid,
};

class LoadError : public std::runtime_error {
public:
  LoadError(LoadErrorKind kind, const std::string &message)
      : std::runtime_error(message), kind_(kind) {}
  LoadErrorKind kind() const { return kind_; }

private:
  LoadErrorKind kind_;
};

} // namespace lanewise::spirv
