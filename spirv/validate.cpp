// SPDX-License-Identifier: Apache-2.0
#include "spirv/validate.h"

#include <algorithm>

#include <spirv-tools/libspirv.hpp>

#include "spirv/names.h"

namespace lanewise::spirv {
namespace {

spv_target_env environmentFor(uint32_t version) {
  switch (version) {
  case 0x00010000:
    return SPV_ENV_UNIVERSAL_1_0;
  case 0x00010100:
    return SPV_ENV_UNIVERSAL_1_1;
  case 0x00010200:
    return SPV_ENV_UNIVERSAL_1_2;
  case 0x00010300:
    return SPV_ENV_UNIVERSAL_1_3;
  case 0x00010400:
    return SPV_ENV_UNIVERSAL_1_4;
  case 0x00010500:
    return SPV_ENV_UNIVERSAL_1_5;
  default:
    return SPV_ENV_UNIVERSAL_1_6;
  }
}

// "(word 42, k.cl:17:9)" for an instruction.
std::string origin(const Module &module, uint32_t wordOffset, uint32_t location) {
  std::string text = "word " + std::to_string(wordOffset);
  if (location != 0 && location < module.locations.size())
    text += ", " + module.locations[location].text();
  return text;
}

std::string where(const Module &module, const Instruction &instruction) {
  return describe(instruction) + " (" +
         origin(module, instruction.wordOffset, instruction.location) + ")";
}

std::vector<std::string> spirvToolsProblems(const Module &module,
                                            std::span<const WrittenInstruction> written) {
  std::vector<std::string> problems;
  spvtools::SpirvTools tools(environmentFor(module.version));
  tools.SetMessageConsumer([&](spv_message_level_t level, const char *,
                               const spv_position_t &position, const char *message) {
    if (level > SPV_MSG_ERROR)
      return;
    std::string text = message;
    while (!text.empty() && text.back() == '\n')
      text.pop_back();
    // The validator numbers instructions from 1, in binary order.
    if (position.index >= 1 && position.index <= written.size()) {
      const WrittenInstruction &instruction = written[position.index - 1];
      std::string name = opcodeName(instruction.opcode);
      if (instruction.result != 0)
        name += " %" + std::to_string(instruction.result);
      text += "\n  at " + name + " (" +
              origin(module, instruction.wordOffset, instruction.location) + ")";
    }
    problems.push_back("SPIR-V validation failed: " + text);
  });
  spvtools::ValidatorOptions options;
  // Friendly names cost time quadratic in repeated names (every kernel has
  // an "a" and a "call"); diagnostics name ids and Lanewise adds the rest.
  options.SetFriendlyNames(false);
  // SPIR-V's 255 function parameters is a minimum limit ("Universal Limits"),
  // which a kernel of CL_DEVICE_MAX_PARAMETER_SIZE (4096) bytes of char
  // arguments exceeds: Lanewise takes as many as an instruction can name.
  options.SetUniversalLimit(spv_validator_limit_max_function_args, 65535);
  if (!tools.Validate(module.words.data(), module.words.size(), options) && problems.empty())
    problems.push_back("SPIR-V validation failed");
  return problems;
}

std::vector<std::string> openclProblems(const Module &module, const ValidationOptions &options) {
  std::vector<std::string> problems;
  bool kernelCapability = false;
  for (spv::Capability capability : module.capabilities)
    kernelCapability = kernelCapability || capability == spv::CapabilityKernel;
  if (!kernelCapability)
    problems.push_back("the module does not declare OpCapability Kernel, which an OpenCL module "
                       "must declare");

  for (const Instruction &instruction : module.globals) {
    if (instruction.opcode != spv::OpMemoryModel)
      continue;
    if (module.addressingModel != spv::AddressingModelPhysical64)
      problems.push_back(where(module, instruction) +
                         ": expected addressing model Physical64 (Lanewise devices are 64-bit), "
                         "found " +
                         addressingModelName(module.addressingModel));
    if (module.memoryModel != spv::MemoryModelOpenCL)
      problems.push_back(where(module, instruction) + ": expected memory model OpenCL, found " +
                         memoryModelName(module.memoryModel));
  }

  if (!options.library) {
    // An executable has nothing left to link; llvm-spirv imports built-in
    // variables by name, which the device provides.
    std::vector<uint32_t> decorated;
    for (const auto &[id, decorations] : module.decorations)
      decorated.push_back(id);
    std::sort(decorated.begin(), decorated.end());
    for (uint32_t id : decorated)
      for (const Decoration &decoration : module.decorations.at(id)) {
        if (decoration.kind != spv::DecorationLinkageAttributes || decoration.operands.empty() ||
            decoration.operands.back() != spv::LinkageTypeImport)
          continue;
        if (module.hasDecoration(id, spv::DecorationBuiltIn))
          continue;
        const std::string name = decodeLiteralString(decoration.operands);
        const Instruction *definition = module.globalDefinition(id);
        std::string what =
            definition ? where(module, *definition) : "function %" + std::to_string(id);
        if (const Function *function = module.function(id))
          what = "OpFunction %" + std::to_string(id) + " (word " +
                 std::to_string(function->wordOffset) + ")";
        problems.push_back(what + ": '" + name +
                           "' is imported (LinkageAttributes Import) and not defined; link the "
                           "module with the one that exports it before building");
      }
  }
  return problems;
}

} // namespace

std::vector<std::string> validateModule(const Module &module,
                                        std::span<const WrittenInstruction> written,
                                        const ValidationOptions &options) {
  std::vector<std::string> problems = openclProblems(module, options);
  std::vector<std::string> tools = spirvToolsProblems(module, written);
  problems.insert(problems.end(), tools.begin(), tools.end());
  return problems;
}

} // namespace lanewise::spirv
