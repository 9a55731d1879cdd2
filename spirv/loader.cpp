// SPDX-License-Identifier: Apache-2.0
#include "spirv/loader.h"

#include "spirv/reader.h"
#include "spirv/support.h"
#include "spirv/validate.h"

#include <map>
#include <unordered_map>
#include "spirv/writer.h"

namespace lanewise::spirv {
namespace {

std::string joinLines(const std::vector<std::string> &lines) {
  std::string text;
  for (const std::string &line : lines)
    text += "error: " + line + "\n";
  return text;
}

LoadResult failure(LoadErrorKind kind, std::string log) {
  LoadResult result;
  result.error = kind;
  result.log = std::move(log);
  return result;
}

// SPIRV-Tools (2023.1) rejects integer widths other than 8, 16, 32 and 64,
// which SPV_INTEL_arbitrary_precision_integers allows and clang uses for
// narrowed switch selectors. The validator checks a copy whose such integers
// are widened to the width Lanewise keeps them in; the module itself keeps
// its types.
Module widenedForValidation(const Module &module) {
  Module copy = module;
  std::unordered_map<uint32_t, uint32_t> rename;
  auto mapped = [&](uint32_t id) {
    auto it = rename.find(id);
    return it == rename.end() ? id : it->second;
  };
  for (Instruction &instruction : copy.globals)
    if (instruction.opcode == spv::OpTypeInt && instruction.operands[0] != 8 &&
        instruction.operands[0] != 16 && instruction.operands[0] != 32 &&
        instruction.operands[0] != 64)
      instruction.operands[0] = instruction.operands[0] < 8    ? 8
                                : instruction.operands[0] < 16 ? 16
                                : instruction.operands[0] < 32 ? 32
                                                               : 64;
  // Constants of integers wider than 64 bits keep their low 64 bits.
  for (Instruction &instruction : copy.globals)
    if ((instruction.opcode == spv::OpConstant || instruction.opcode == spv::OpSpecConstant) &&
        instruction.operands.size() > 2) {
      instruction.operands.resize(2);
      instruction.operandLayout.back().wordCount = 2;
    }
  // Types must be unique: fold every type that now repeats an earlier one.
  for (bool changed = true; changed;) {
    changed = false;
    std::map<std::pair<spv::Op, std::vector<uint32_t>>, uint32_t> seen;
    std::vector<Instruction> kept;
    for (Instruction instruction : copy.globals) {
      instruction.resultType = mapped(instruction.resultType);
      instruction.forEachIdOperand([&](uint32_t &id) { id = mapped(id); });
      const bool isType = instruction.opcode >= spv::OpTypeVoid &&
                          instruction.opcode <= spv::OpTypeForwardPointer &&
                          instruction.opcode != spv::OpTypeStruct &&
                          instruction.opcode != spv::OpTypeOpaque;
      if (isType && instruction.result) {
        auto [it, inserted] = seen.try_emplace({instruction.opcode, instruction.operands},
                                               instruction.result);
        if (!inserted) {
          rename[instruction.result] = it->second;
          changed = true;
          continue;
        }
      }
      if (instruction.opcode == spv::OpCapability &&
          instruction.operands[0] == spv::CapabilityArbitraryPrecisionIntegersINTEL) {
        // The widened integers are 8-, 16- and 64-bit ones.
        instruction.operands[0] = spv::CapabilityInt8;
        kept.push_back(instruction);
        instruction.operands[0] = spv::CapabilityInt16;
        kept.push_back(instruction);
        instruction.operands[0] = spv::CapabilityInt64;
      }
      if (instruction.opcode == spv::OpExtension &&
          instruction.stringOperand(0) == "SPV_INTEL_arbitrary_precision_integers")
        continue;
      kept.push_back(std::move(instruction));
    }
    copy.globals = std::move(kept);
  }
  for (Function &function : copy.functions) {
    function.resultType = mapped(function.resultType);
    function.functionType = mapped(function.functionType);
    for (auto &[id, type] : function.parameters)
      type = mapped(type);
    for (Block &block : function.blocks)
      for (Instruction &instruction : block.instructions) {
        instruction.resultType = mapped(instruction.resultType);
        instruction.forEachIdOperand([&](uint32_t &id) { id = mapped(id); });
      }
  }
  copy.rebuildTables();
  // A conversion between integers wider than 64 bits and 64-bit ones now
  // converts between equal widths, which is not a conversion: a copy.
  std::unordered_map<uint32_t, uint32_t> typeOf;
  for (const Instruction &instruction : copy.globals)
    if (instruction.result && instruction.resultType)
      typeOf[instruction.result] = instruction.resultType;
  for (Function &function : copy.functions) {
    for (const auto &[id, type] : function.parameters)
      typeOf[id] = type;
    for (const Block &block : function.blocks)
      for (const Instruction &instruction : block.instructions)
        if (instruction.result && instruction.resultType)
          typeOf[instruction.result] = instruction.resultType;
  }
  auto width = [&](uint32_t typeId) -> uint32_t {
    const Type *type = copy.type(typeId);
    if (type && type->kind == Type::Kind::Vector)
      type = copy.type(type->element);
    return type && type->kind == Type::Kind::Int ? type->width : 0;
  };
  for (Function &function : copy.functions)
    for (Block &block : function.blocks)
      for (Instruction &instruction : block.instructions)
        if ((instruction.opcode == spv::OpUConvert || instruction.opcode == spv::OpSConvert) &&
            width(instruction.resultType) == width(typeOf[instruction.idOperand(0)]))
          instruction.opcode = spv::OpCopyObject;
  return copy;
}

// Integers wider than 64 bits (clang's closed forms of loop sums use i65)
// have no register form yet.
std::vector<std::string> tooWideIntegers(const Module &module) {
  std::vector<std::string> problems;
  for (const Instruction &instruction : module.globals)
    if (instruction.opcode == spv::OpTypeInt && instruction.operands.at(0) > 128)
      problems.push_back(describe(instruction) + ": " +
                         std::to_string(instruction.operands[0]) +
                         "-bit integers are not supported (at most 128 bits)");
  return problems;
}

bool usesArbitraryIntegers(const Module &module) {
  for (spv::Capability capability : module.capabilities)
    if (capability == spv::CapabilityArbitraryPrecisionIntegersINTEL)
      return true;
  return false;
}

} // namespace

LoadResult loadModule(std::span<const uint32_t> words, const LoadOptions &options) {
  try {
    Module module = readModule(words);
    if (auto problems = unsupportedFeatures(module); !problems.empty())
      return failure(LoadErrorKind::Invalid, joinLines(problems));
    if (auto problems = tooWideIntegers(module); !problems.empty())
      return failure(LoadErrorKind::Invalid, joinLines(problems));
    LoadResult result;
    result.notes = normaliseModule(module);
    const std::vector<WrittenInstruction> written = writeModule(module);
    if (usesArbitraryIntegers(module)) {
      Module widened = widenedForValidation(module);
      const std::vector<WrittenInstruction> widenedWritten = writeModule(widened);
      if (auto problems = validateModule(widened, widenedWritten, {.library = options.library});
          !problems.empty())
        return failure(LoadErrorKind::Invalid, joinLines(problems));
    } else if (auto problems = validateModule(module, written, {.library = options.library});
               !problems.empty()) {
      return failure(LoadErrorKind::Invalid, joinLines(problems));
    }
    result.module = std::move(module);
    return result;
  } catch (const LoadError &error) {
    return failure(error.kind(), "error: " + std::string(error.what()) + "\n");
  }
}

LoadResult loadModule(std::span<const std::byte> il, const LoadOptions &options) {
  try {
    const std::vector<uint32_t> words = wordsFromBytes(il);
    return loadModule(std::span<const uint32_t>(words), options);
  } catch (const LoadError &error) {
    return failure(error.kind(), "error: " + std::string(error.what()) + "\n");
  }
}

} // namespace lanewise::spirv
