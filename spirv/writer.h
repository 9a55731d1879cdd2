// SPDX-License-Identifier: Apache-2.0
// Writing the IR back as a SPIR-V binary: the normalised words that are
// validated and kept in Module::words.
#pragma once

#include <cstdint>
#include <vector>

#include "spirv/module.h"

namespace lanewise::spirv {

// What one written instruction was, for mapping a validator's instruction
// number back to the IR.
struct WrittenInstruction {
  spv::Op opcode = spv::OpNop;
  uint32_t result = 0;
  uint32_t wordOffset = 0;
  uint32_t location = 0; // index into Module::locations
};

// Writes header, module-scope instructions and functions into module.words,
// re-creating OpLine / OpNoLine from the locations inside function bodies,
// and sets every instruction's wordOffset to its place in those words.
// Returns one entry per written instruction, in order: SPIRV-Tools'
// diagnostics number instructions from 1 in that order.
std::vector<WrittenInstruction> writeModule(Module &module);

} // namespace lanewise::spirv
