// SPDX-License-Identifier: Apache-2.0
// Validation of a normalised module: SPIRV-Tools, then the rules of the
// OpenCL SPIR-V environment that matter to Lanewise.
//
// SPIRV-Tools' OpenCL environments (SPV_ENV_OPENCL_1_2 ... 2_2) stop at
// SPIR-V 1.2, so a module is validated in the universal environment of its
// own version (SPV_ENV_UNIVERSAL_1_0 ... 1_4) and the OpenCL rules are
// checked here: addressing model Physical64 (Lanewise devices are 64-bit),
// memory model OpenCL, the Kernel capability, and, for an executable (not a
// library), no import left unresolved but built-in variables.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "spirv/module.h"
#include "spirv/writer.h"

namespace lanewise::spirv {

struct ValidationOptions {
  // A library (clCompileProgram output) may import functions and variables
  // that a later link provides.
  bool library = false;
};

// Validates module.words, which writeModule() produced along with `written`.
// Returns one message per problem, empty when the module is valid. Messages
// name the instruction (opcode, result id, word offset) and its source
// location when known.
std::vector<std::string> validateModule(const Module &module,
                                        std::span<const WrittenInstruction> written,
                                        const ValidationOptions &options = {});

} // namespace lanewise::spirv
