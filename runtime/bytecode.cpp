// SPDX-License-Identifier: Apache-2.0
#include "runtime/bytecode.h"

namespace lanewise::runtime {

static_assert(sizeof(Instruction) == 64, "an instruction is one cache line");

const char *familyName(Family family) {
  switch (family) {
  case Family::Memory:
    return "memory";
  case Family::Atomic:
    return "atomics";
  case Family::Address:
    return "addresses";
  case Family::Integer:
    return "integer";
  case Family::Float:
    return "float";
  case Family::Math:
    return "math";
  case Family::Conversion:
    return "conversions";
  case Family::Composite:
    return "composites";
  case Family::Group:
    return "group operations";
  case Family::Other:
    break;
  }
  return "other";
}

const std::string &KernelCode::blockSource(std::uint32_t block) const {
  const Block &b = blocks.at(block);
  for (std::uint32_t i = 0; i < b.instructionCount; ++i)
    if (const std::uint32_t source = instructions[b.firstInstruction + i].source)
      return sources[source];
  return sources.front();
}

} // namespace lanewise::runtime
