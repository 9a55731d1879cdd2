// SPDX-License-Identifier: Apache-2.0
// Reading a SPIR-V binary into the IR (module.h), without normalising or
// validating it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "spirv/module.h"

namespace lanewise::spirv {

// The SPIR-V versions Lanewise reads: those it reports as CL_DEVICE_IL_VERSION.
inline constexpr uint32_t kMinimumVersion = 0x00010000; // 1.0
inline constexpr uint32_t kMaximumVersion = 0x00010600; // 1.6

// The bytes of a binary as words in native byte order. Throws
// LoadError(Malformed) when the byte count is not a multiple of 4 or the
// first word is not the SPIR-V magic number in either byte order (a
// byte-swapped binary is swapped back).
std::vector<uint32_t> wordsFromBytes(std::span<const std::byte> bytes);

// Parses a binary in either byte order into a Module whose tables are built,
// with OpLine and OpenCL.DebugInfo.100 scopes turned into instruction
// locations, and the OpExtInsts of debug and NonSemantic.* sets (with their
// names and decorations) left out. Throws LoadError: Malformed for a stream that is not a
// well-formed SPIR-V binary (bad magic or header, truncated, a word count of
// 0 or one running past the end, an unknown opcode or operand, an <id> of 0
// or not below the header's bound); Invalid for a version outside
// kMinimumVersion..kMaximumVersion or instructions out of the logical layout
// (SPIR-V 2.4) in a way that leaves no module structure to read.
Module readModule(std::span<const uint32_t> words);

} // namespace lanewise::spirv
