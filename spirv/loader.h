// SPDX-License-Identifier: Apache-2.0
// The SPIR-V front end in one call: bytes in, a normalised, validated,
// parsed module out (or an error and a build log). The OpenCL layer (icd/)
// calls this for clCreateProgramWithIL / clBuildProgram.
//
//   read (reader.h) -> check what is supported (support.h) -> normalise
//   (normalise.h) -> write back (writer.h) -> validate (validate.h)
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "spirv/errors.h"
#include "spirv/module.h"
#include "spirv/normalise.h"

namespace lanewise::spirv {

struct LoadOptions {
  // Accept unresolved imports (a library for a later link).
  bool library = false;
};

struct LoadResult {
  std::optional<Module> module;       // set on success
  std::optional<LoadErrorKind> error; // set on failure
  // The build log: on failure one line (or indented block) per problem.
  std::string log;
  // What normalisation changed, on success.
  std::vector<NormalisationNote> notes;

  bool ok() const { return module.has_value(); }
};

// Malformed input (not SPIR-V, truncated: CL_INVALID_VALUE) and invalid or
// unsupported modules (CL_BUILD_PROGRAM_FAILURE) come back as `error` with
// the reason in `log`; nothing is thrown.
LoadResult loadModule(std::span<const std::byte> il, const LoadOptions &options = {});
LoadResult loadModule(std::span<const uint32_t> words, const LoadOptions &options = {});

} // namespace lanewise::spirv
