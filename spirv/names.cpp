// SPDX-License-Identifier: Apache-2.0
#include "spirv/names.h"

#include <span>
#include <string_view>

#include <spirv-tools/libspirv.h>

namespace lanewise::spirv {
namespace {

struct EnumerantName {
  uint32_t value;
  std::string_view name;
};

#include "opencl_std_names.inc"
#include "spirv_enum_names.inc"

std::string lookup(std::span<const EnumerantName> table, uint32_t value, std::string_view kind) {
  for (const EnumerantName &entry : table)
    if (entry.value == value)
      return std::string(entry.name);
  return std::string(kind) + "(" + std::to_string(value) + ")";
}

} // namespace

std::string opcodeName(spv::Op opcode) {
  // spvOpcodeString answers "unknown" for what the grammar does not know.
  const std::string name = spvOpcodeString(static_cast<uint32_t>(opcode));
  if (name.empty() || name == "unknown")
    return "Op<" + std::to_string(static_cast<uint32_t>(opcode)) + ">";
  return "Op" + name;
}

std::string openclStdName(uint32_t instruction) {
  return lookup(kOpenCLStdNames, instruction, "OpenCL.std instruction ");
}

std::string capabilityName(spv::Capability capability) {
  return lookup(kCapabilityNames, capability, "Capability");
}
std::string addressingModelName(spv::AddressingModel model) {
  return lookup(kAddressingModelNames, model, "AddressingModel");
}
std::string memoryModelName(spv::MemoryModel model) {
  return lookup(kMemoryModelNames, model, "MemoryModel");
}
std::string executionModelName(spv::ExecutionModel model) {
  return lookup(kExecutionModelNames, model, "ExecutionModel");
}
std::string executionModeName(spv::ExecutionMode mode) {
  return lookup(kExecutionModeNames, mode, "ExecutionMode");
}
std::string storageClassName(spv::StorageClass storageClass) {
  return lookup(kStorageClassNames, storageClass, "StorageClass");
}
std::string decorationName(spv::Decoration decoration) {
  return lookup(kDecorationNames, decoration, "Decoration");
}
std::string builtInName(spv::BuiltIn builtIn) { return lookup(kBuiltInNames, builtIn, "BuiltIn"); }
std::string sourceLanguageName(spv::SourceLanguage language) {
  return lookup(kSourceLanguageNames, language, "SourceLanguage");
}

} // namespace lanewise::spirv
