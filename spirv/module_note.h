// SPDX-License-Identifier: Apache-2.0
// Notes that Lanewise keeps inside a SPIR-V binary (OpSourceExtension, a
// debug instruction of every SPIR-V version, with no effect on the module):
// what a program binary is (a compiled object, a library), so that
// clCreateProgramWithBinary can restore CL_PROGRAM_BINARY_TYPE, and the
// source and options an executable was built from.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lanewise::spirv {

// `words` with an OpSourceExtension `note` in the debug section.
std::vector<uint32_t> withModuleNote(std::span<const uint32_t> words, std::string_view note);
// `words` without the notes whose text begins with `prefix`.
std::vector<uint32_t> withoutModuleNotes(std::span<const uint32_t> words,
                                         std::string_view prefix);
// Whether `words` carry the `note`.
bool hasModuleNote(std::span<const uint32_t> words, std::string_view note);
// The notes whose text begins with `prefix`, without it, in order.
std::vector<std::string> moduleNotes(std::span<const uint32_t> words, std::string_view prefix);

} // namespace lanewise::spirv
