// SPDX-License-Identifier: Apache-2.0
// Spelling of SPIR-V enumerants and opcodes as the specification spells
// them, for diagnostics. The tables are generated at build time from
// SPIRV-Headers' spirv.json (GenerateEnumNames.cmake).
#pragma once

#include <cstdint>
#include <string>

#include <spirv/unified1/spirv.hpp>

namespace lanewise::spirv {

// "OpIAdd"; "Op<n>" for an opcode the grammar does not know.
std::string opcodeName(spv::Op opcode);
std::string capabilityName(spv::Capability capability);
// "s_mad24": the OpenCL.std extended instruction's name in its grammar.
std::string openclStdName(uint32_t instruction);
std::string addressingModelName(spv::AddressingModel model);
std::string memoryModelName(spv::MemoryModel model);
std::string executionModelName(spv::ExecutionModel model);
std::string executionModeName(spv::ExecutionMode mode);
std::string storageClassName(spv::StorageClass storageClass);
std::string decorationName(spv::Decoration decoration);
std::string builtInName(spv::BuiltIn builtIn);
std::string sourceLanguageName(spv::SourceLanguage language);

} // namespace lanewise::spirv
