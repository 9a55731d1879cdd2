// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the SPIR-V front-end tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "spirv/loader.h"
#include "spirv/module.h"

namespace lanewise::spirv::test {

// The bytes of a compiled test kernel (tests/spirv/CMakeLists.txt), by file
// name: "nbody-O2.spv".
std::vector<std::byte> kernelBytes(const std::string &name);
std::vector<uint32_t> kernelWords(const std::string &name);

// The line of tests/spirv/kernels/<source> holding "MARKER:<marker>".
uint32_t markerLine(const std::string &source, const std::string &marker);

// SPIRV-Tools' verdict on words as they are, in the universal environment of
// their version: "" when valid, else the first error message.
std::string spirvValError(const std::vector<uint32_t> &words);

LoadResult loadKernel(const std::string &name, const LoadOptions &options = {});

// The instructions of a function, in block order, with opcodes.
std::vector<const Instruction *> instructionsOf(const Function &function);

// Whether every <id> used in a function (but by OpPhi) is defined at module
// scope, as a parameter, or earlier in the function's block order.
bool definitionsPrecedeUses(const Module &module, const Function &function);

} // namespace lanewise::spirv::test
