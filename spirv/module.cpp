// SPDX-License-Identifier: Apache-2.0
#include "spirv/module.h"

#include <algorithm>
#include <unordered_set>

#include "spirv/errors.h"
#include "spirv/names.h"
#include "runtime/image.h"

namespace lanewise::spirv {

std::string SourceLocation::text() const {
  if (!known())
    return {};
  std::string result = file.empty() ? std::string("<unknown>") : file;
  result += ":" + std::to_string(line);
  if (column != 0)
    result += ":" + std::to_string(column);
  return result;
}

Instruction Instruction::withIds(spv::Op opcode, uint32_t resultType, uint32_t result,
                                 std::span<const uint32_t> ids) {
  Instruction instruction;
  instruction.opcode = opcode;
  instruction.resultType = resultType;
  instruction.result = result;
  for (uint32_t id : ids)
    instruction.appendId(id);
  return instruction;
}

std::string Instruction::stringOperand(size_t index) const {
  if (index >= operands.size())
    return {};
  return decodeLiteralString(std::span(operands).subspan(index));
}

bool Instruction::isIdOperand(size_t wordIndex) const {
  for (const Operand &operand : operandLayout)
    if (wordIndex >= operand.offset && wordIndex < size_t(operand.offset) + operand.wordCount)
      return operand.kind == OperandKind::Id;
  return false;
}

void Instruction::appendId(uint32_t id) {
  operandLayout.push_back({OperandKind::Id, static_cast<uint16_t>(operands.size()), 1});
  operands.push_back(id);
}

std::string decodeLiteralString(std::span<const uint32_t> words, size_t *wordCount) {
  std::string text;
  size_t used = 0;
  for (uint32_t word : words) {
    ++used;
    for (int byte = 0; byte < 4; ++byte) {
      const char character = static_cast<char>((word >> (8 * byte)) & 0xff);
      if (character == '\0') {
        if (wordCount)
          *wordCount = used;
        return text;
      }
      text.push_back(character);
    }
  }
  if (wordCount)
    *wordCount = used;
  return text;
}

std::vector<uint32_t> encodeLiteralString(std::string_view text) {
  std::vector<uint32_t> words(text.size() / 4 + 1, 0);
  for (size_t i = 0; i < text.size(); ++i)
    words[i / 4] |= uint32_t(static_cast<unsigned char>(text[i])) << (8 * (i % 4));
  return words;
}

bool isBlockTerminator(spv::Op opcode) {
  // SPIR-V 2.2.5, "Termination Instruction" and "Branch Instruction".
  switch (opcode) {
  case spv::OpBranch:
  case spv::OpBranchConditional:
  case spv::OpSwitch:
  case spv::OpReturn:
  case spv::OpReturnValue:
  case spv::OpKill:
  case spv::OpUnreachable:
  case spv::OpTerminateInvocation:
  case spv::OpIgnoreIntersectionKHR:
  case spv::OpTerminateRayKHR:
  case spv::OpEmitMeshTasksEXT:
    return true;
  default:
    return false;
  }
}

const Block *Function::block(uint32_t label) const {
  for (const Block &candidate : blocks)
    if (candidate.label == label)
      return &candidate;
  return nullptr;
}

std::string describe(const Instruction &instruction) {
  std::string text = opcodeName(instruction.opcode);
  if (instruction.result != 0)
    text += " %" + std::to_string(instruction.result);
  return text;
}

namespace {

[[noreturn]] void fail(const Instruction &instruction, const std::string &problem) {
  throw LoadError(LoadErrorKind::Invalid, describe(instruction) + " (word " +
                                              std::to_string(instruction.wordOffset) +
                                              "): " + problem);
}

uint32_t word(const Instruction &instruction, size_t index) {
  if (index >= instruction.operands.size())
    fail(instruction, "expected at least " + std::to_string(index + 1) + " operand words, found " +
                          std::to_string(instruction.operands.size()));
  return instruction.operands[index];
}

std::vector<uint32_t> wordsFrom(const Instruction &instruction, size_t first) {
  if (first >= instruction.operands.size())
    return {};
  return {instruction.operands.begin() + first, instruction.operands.end()};
}

uint64_t maskToWidth(uint64_t bits, uint32_t width) {
  return width >= 64 ? bits : bits & ((uint64_t(1) << width) - 1);
}

} // namespace

void Module::rebuildTables() {
  capabilities.clear();
  extensions.clear();
  extInstImports.clear();
  addressingModel = spv::AddressingModelMax;
  memoryModel = spv::MemoryModelMax;
  entryPoints.clear();
  sources.clear();
  strings.clear();
  names.clear();
  memberNames.clear();
  decorations.clear();
  memberDecorations.clear();
  types.clear();
  constants.clear();
  globalVariables.clear();
  functionIndex_.clear();
  globalVariableIndex_.clear();
  globalDefinitionIndex_.clear();

  std::unordered_map<uint32_t, std::vector<ExecutionModeInfo>> modesByFunction;
  std::unordered_set<uint32_t> decorationGroups;

  for (size_t index = 0; index < globals.size(); ++index) {
    const Instruction &instruction = globals[index];
    if (instruction.result != 0)
      globalDefinitionIndex_[instruction.result] = index;
    switch (instruction.opcode) {
    case spv::OpCapability:
      capabilities.push_back(static_cast<spv::Capability>(word(instruction, 0)));
      break;
    case spv::OpExtension:
      extensions.push_back(instruction.stringOperand(0));
      break;
    case spv::OpExtInstImport:
      extInstImports[instruction.result] = instruction.stringOperand(0);
      break;
    case spv::OpMemoryModel:
      addressingModel = static_cast<spv::AddressingModel>(word(instruction, 0));
      memoryModel = static_cast<spv::MemoryModel>(word(instruction, 1));
      break;
    case spv::OpEntryPoint: {
      EntryPoint entryPoint;
      entryPoint.model = static_cast<spv::ExecutionModel>(word(instruction, 0));
      entryPoint.function = word(instruction, 1);
      size_t nameWords = 0;
      entryPoint.name = decodeLiteralString(std::span(instruction.operands).subspan(2), &nameWords);
      entryPoint.interface = wordsFrom(instruction, 2 + nameWords);
      entryPoints.push_back(std::move(entryPoint));
      break;
    }
    case spv::OpExecutionMode:
    case spv::OpExecutionModeId: {
      ExecutionModeInfo mode;
      mode.mode = static_cast<spv::ExecutionMode>(word(instruction, 1));
      mode.operands = wordsFrom(instruction, 2);
      mode.operandsAreIds = instruction.opcode == spv::OpExecutionModeId;
      modesByFunction[word(instruction, 0)].push_back(std::move(mode));
      break;
    }
    case spv::OpString:
      strings[instruction.result] = instruction.stringOperand(0);
      break;
    case spv::OpSource: {
      SourceInfo source;
      source.language = static_cast<spv::SourceLanguage>(word(instruction, 0));
      source.version = word(instruction, 1);
      if (instruction.operands.size() > 2)
        source.file = instruction.operands[2];
      if (instruction.operands.size() > 3)
        source.text = instruction.stringOperand(3);
      sources.push_back(std::move(source));
      break;
    }
    case spv::OpName:
      names[word(instruction, 0)] = instruction.stringOperand(1);
      break;
    case spv::OpMemberName:
      memberNames[{word(instruction, 0), word(instruction, 1)}] = instruction.stringOperand(2);
      break;
    case spv::OpDecorate:
    case spv::OpDecorateId:
    case spv::OpDecorateString:
      decorations[word(instruction, 0)].push_back(
          {static_cast<spv::Decoration>(word(instruction, 1)), wordsFrom(instruction, 2)});
      break;
    case spv::OpMemberDecorate:
    case spv::OpMemberDecorateString:
      memberDecorations[word(instruction, 0)].push_back(
          {word(instruction, 1), static_cast<spv::Decoration>(word(instruction, 2)),
           wordsFrom(instruction, 3)});
      break;
    case spv::OpDecorationGroup:
      decorationGroups.insert(instruction.result);
      break;
    case spv::OpGroupDecorate: {
      // The group's decorations all precede the OpDecorationGroup (SPIR-V
      // 2.4, logical layout), hence this instruction too.
      const std::vector<Decoration> groupDecorations = decorations[word(instruction, 0)];
      for (size_t i = 1; i < instruction.operands.size(); ++i) {
        auto &target = decorations[instruction.operands[i]];
        target.insert(target.end(), groupDecorations.begin(), groupDecorations.end());
      }
      break;
    }
    case spv::OpGroupMemberDecorate: {
      const std::vector<Decoration> groupDecorations = decorations[word(instruction, 0)];
      for (size_t i = 1; i + 1 < instruction.operands.size(); i += 2)
        for (const Decoration &decoration : groupDecorations)
          memberDecorations[instruction.operands[i]].push_back(
              {instruction.operands[i + 1], decoration.kind, decoration.operands});
      break;
    }
    case spv::OpVariable: {
      GlobalVariable variable;
      variable.id = instruction.result;
      variable.pointerType = instruction.resultType;
      variable.storageClass = static_cast<spv::StorageClass>(word(instruction, 0));
      if (instruction.operands.size() > 1)
        variable.initializer = instruction.operands[1];
      // Decorations, group ones included, precede the types and variables
      // (SPIR-V 2.4, logical layout).
      if (auto it = decorations.find(variable.id); it != decorations.end())
        for (const Decoration &decoration : it->second)
          if (decoration.kind == spv::DecorationBuiltIn)
            variable.builtin = static_cast<spv::BuiltIn>(decoration.operands.at(0));
      globalVariableIndex_[variable.id] = globalVariables.size();
      globalVariables.push_back(variable);
      break;
    }
    default:
      break;
    }

    // Types (SPIR-V 3.32.6).
    Type type;
    type.id = instruction.result;
    type.opcode = instruction.opcode;
    bool isType = true;
    switch (instruction.opcode) {
    case spv::OpTypeVoid:
      type.kind = Type::Kind::Void;
      break;
    case spv::OpTypeBool:
      type.kind = Type::Kind::Bool;
      break;
    case spv::OpTypeInt:
      type.kind = Type::Kind::Int;
      type.width = word(instruction, 0);
      type.isSigned = word(instruction, 1) != 0;
      break;
    case spv::OpTypeFloat:
      type.kind = Type::Kind::Float;
      type.width = word(instruction, 0);
      break;
    case spv::OpTypeVector:
      type.kind = Type::Kind::Vector;
      type.element = word(instruction, 0);
      type.count = word(instruction, 1);
      break;
    case spv::OpTypeArray: {
      type.kind = Type::Kind::Array;
      type.element = word(instruction, 0);
      type.lengthId = word(instruction, 1);
      auto length = constants.find(type.lengthId);
      if (length == constants.end() || length->second.kind != Constant::Kind::Scalar)
        fail(instruction, "the array length %" + std::to_string(type.lengthId) +
                              " is not an integer constant defined before the array type");
      // Type::count is 32 bits: a longer array (2^32 elements and more,
      // beyond any private or local memory and most allocations) is
      // refused, never truncated.
      if (length->second.bits > UINT32_MAX)
        fail(instruction, "an array of " + std::to_string(length->second.bits) +
                              " elements: Lanewise's arrays have at most 4294967295");
      type.count = static_cast<uint32_t>(length->second.bits);
      type.lengthIsSpecConstant = length->second.isSpec;
      break;
    }
    case spv::OpTypeRuntimeArray:
      type.kind = Type::Kind::RuntimeArray;
      type.element = word(instruction, 0);
      break;
    case spv::OpTypeStruct:
      type.kind = Type::Kind::Struct;
      type.members = instruction.operands;
      break;
    case spv::OpTypeOpaque:
      type.kind = Type::Kind::Opaque;
      type.name = instruction.stringOperand(0);
      break;
    case spv::OpTypePointer:
      type.kind = Type::Kind::Pointer;
      type.storageClass = static_cast<spv::StorageClass>(word(instruction, 0));
      type.element = word(instruction, 1);
      break;
    case spv::OpTypeForwardPointer:
      // Declares the pointer id ahead of its OpTypePointer, which replaces
      // this entry when it comes.
      type.kind = Type::Kind::ForwardPointer;
      type.id = word(instruction, 0);
      type.storageClass = static_cast<spv::StorageClass>(word(instruction, 1));
      break;
    case spv::OpTypeFunction:
      type.kind = Type::Kind::Function;
      type.returnType = word(instruction, 0);
      type.members = wordsFrom(instruction, 1);
      break;
    case spv::OpTypeEvent:
      type.kind = Type::Kind::Event;
      break;
    case spv::OpTypeDeviceEvent:
      type.kind = Type::Kind::DeviceEvent;
      break;
    case spv::OpTypeReserveId:
      type.kind = Type::Kind::ReserveId;
      break;
    case spv::OpTypeQueue:
      type.kind = Type::Kind::Queue;
      break;
    case spv::OpTypePipe:
      type.kind = Type::Kind::Pipe;
      type.access = static_cast<spv::AccessQualifier>(word(instruction, 0));
      break;
    case spv::OpTypePipeStorage:
      type.kind = Type::Kind::PipeStorage;
      break;
    case spv::OpTypeSampler:
      type.kind = Type::Kind::Sampler;
      break;
    case spv::OpTypeImage:
      type.kind = Type::Kind::Image;
      type.element = word(instruction, 0);
      type.dim = static_cast<spv::Dim>(word(instruction, 1));
      type.depth = word(instruction, 2);
      type.arrayed = word(instruction, 3);
      type.multisampled = word(instruction, 4);
      type.sampled = word(instruction, 5);
      type.format = static_cast<spv::ImageFormat>(word(instruction, 6));
      if (instruction.operands.size() > 7)
        type.access = static_cast<spv::AccessQualifier>(instruction.operands[7]);
      break;
    case spv::OpTypeSampledImage:
      type.kind = Type::Kind::SampledImage;
      type.element = word(instruction, 0);
      break;
    default:
      // A type Lanewise has no use for (OpTypeMatrix, ray tracing types, ...).
      isType = instruction.result != 0 && opcodeName(instruction.opcode).starts_with("OpType");
      type.kind = Type::Kind::Other;
      break;
    }
    if (isType && type.id != 0)
      types[type.id] = std::move(type);

    // Constants (SPIR-V 3.32.7).
    Constant constant;
    constant.id = instruction.result;
    constant.type = instruction.resultType;
    constant.opcode = instruction.opcode;
    bool isConstant = true;
    switch (instruction.opcode) {
    case spv::OpConstantTrue:
    case spv::OpConstantFalse:
    case spv::OpSpecConstantTrue:
    case spv::OpSpecConstantFalse:
      constant.kind = Constant::Kind::Bool;
      constant.bits = instruction.opcode == spv::OpConstantTrue ||
                      instruction.opcode == spv::OpSpecConstantTrue;
      constant.isSpec = instruction.opcode == spv::OpSpecConstantTrue ||
                        instruction.opcode == spv::OpSpecConstantFalse;
      break;
    case spv::OpConstant:
    case spv::OpSpecConstant: {
      constant.kind = Constant::Kind::Scalar;
      constant.isSpec = instruction.opcode == spv::OpSpecConstant;
      uint64_t bits = word(instruction, 0);
      if (instruction.operands.size() > 1)
        bits |= uint64_t(instruction.operands[1]) << 32;
      const Type *scalar = this->type(constant.type);
      constant.bits = scalar ? maskToWidth(bits, scalar->width) : bits;
      if (scalar && scalar->width > 64 && instruction.operands.size() > 2) {
        uint64_t high = word(instruction, 2);
        if (instruction.operands.size() > 3)
          high |= uint64_t(instruction.operands[3]) << 32;
        constant.highBits = maskToWidth(high, scalar->width - 64);
      }
      break;
    }
    case spv::OpConstantComposite:
    case spv::OpSpecConstantComposite:
      constant.kind = Constant::Kind::Composite;
      constant.constituents = instruction.operands;
      constant.isSpec = instruction.opcode == spv::OpSpecConstantComposite;
      break;
    case spv::OpConstantNull:
      constant.kind = Constant::Kind::Null;
      break;
    case spv::OpConstantSampler:
      // Held as the OpenCL C sampler bit field a sampler argument also has
      // (runtime/image.h).
      constant.kind = Constant::Kind::Scalar;
      constant.bits = runtime::sampler::bits(word(instruction, 0), word(instruction, 1) != 0,
                                             word(instruction, 2) == spv::SamplerFilterModeLinear);
      break;
    case spv::OpUndef:
      constant.kind = Constant::Kind::Undef;
      break;
    case spv::OpSpecConstantOp:
      constant.kind = Constant::Kind::SpecConstantOp;
      constant.isSpec = true;
      constant.specOpcode = static_cast<spv::Op>(word(instruction, 0));
      constant.specOperands = wordsFrom(instruction, 1);
      break;
    default:
      isConstant = false;
      break;
    }
    if (isConstant)
      constants[constant.id] = std::move(constant);
  }

  for (uint32_t group : decorationGroups)
    decorations.erase(group);

  for (auto &[id, constant] : constants) {
    if (!constant.isSpec)
      continue;
    if (const Decoration *specId = decoration(id, spv::DecorationSpecId);
        specId && !specId->operands.empty())
      constant.specId = specId->operands[0];
  }

  for (size_t index = 0; index < functions.size(); ++index)
    functionIndex_[functions[index].id] = index;

  for (EntryPoint &entryPoint : entryPoints) {
    auto modes = modesByFunction.find(entryPoint.function);
    if (modes == modesByFunction.end())
      continue;
    entryPoint.modes = modes->second;
    for (const ExecutionModeInfo &mode : entryPoint.modes) {
      std::vector<uint32_t> values = mode.operands;
      if (mode.operandsAreIds) {
        // LocalSizeId and friends (SPIR-V 1.2): only constant operands can be
        // decoded here; spec constants keep their default.
        bool allConstant = true;
        for (uint32_t &value : values) {
          auto constantValue = this->constantValue(value);
          allConstant = allConstant && constantValue.has_value();
          value = constantValue.value_or(0);
        }
        if (!allConstant)
          continue;
      }
      switch (mode.mode) {
      case spv::ExecutionModeLocalSize:
      case spv::ExecutionModeLocalSizeId:
        if (values.size() == 3)
          entryPoint.localSize = std::array<uint32_t, 3>{values[0], values[1], values[2]};
        break;
      case spv::ExecutionModeLocalSizeHint:
      case spv::ExecutionModeLocalSizeHintId:
        if (values.size() == 3)
          entryPoint.localSizeHint = std::array<uint32_t, 3>{values[0], values[1], values[2]};
        break;
      case spv::ExecutionModeVecTypeHint:
        if (!values.empty())
          entryPoint.vecTypeHint = values[0];
        break;
      case spv::ExecutionModeSubgroupSize:
        if (!values.empty())
          entryPoint.subgroupSize = values[0];
        break;
      case spv::ExecutionModeContractionOff:
        entryPoint.contractionOff = true;
        break;
      default:
        break;
      }
    }
  }
}

const Type *Module::type(uint32_t id) const {
  auto found = types.find(id);
  return found == types.end() ? nullptr : &found->second;
}

const Constant *Module::constant(uint32_t id) const {
  auto found = constants.find(id);
  return found == constants.end() ? nullptr : &found->second;
}

const GlobalVariable *Module::globalVariable(uint32_t id) const {
  auto found = globalVariableIndex_.find(id);
  return found == globalVariableIndex_.end() ? nullptr : &globalVariables[found->second];
}

const Function *Module::function(uint32_t id) const {
  auto found = functionIndex_.find(id);
  return found == functionIndex_.end() ? nullptr : &functions[found->second];
}

Function *Module::function(uint32_t id) {
  auto found = functionIndex_.find(id);
  return found == functionIndex_.end() ? nullptr : &functions[found->second];
}

const EntryPoint *Module::entryPoint(std::string_view name) const {
  for (const EntryPoint &entryPoint : entryPoints)
    if (entryPoint.name == name)
      return &entryPoint;
  return nullptr;
}

const std::string *Module::name(uint32_t id) const {
  auto found = names.find(id);
  return found == names.end() ? nullptr : &found->second;
}

bool Module::hasDecoration(uint32_t id, spv::Decoration kind) const {
  return decoration(id, kind) != nullptr;
}

const Decoration *Module::decoration(uint32_t id, spv::Decoration kind) const {
  auto found = decorations.find(id);
  if (found == decorations.end())
    return nullptr;
  for (const Decoration &decoration : found->second)
    if (decoration.kind == kind)
      return &decoration;
  return nullptr;
}

const SourceLocation *Module::location(const Instruction &instruction) const {
  if (instruction.location == 0 || instruction.location >= locations.size())
    return nullptr;
  return &locations[instruction.location];
}

uint32_t Module::addLocation(const SourceLocation &location) {
  if (!location.known())
    return 0;
  // Interned: a kernel has many instructions on few lines.
  const auto key = std::make_tuple(location.fileId, location.line, location.column);
  if (location.fileId != 0) {
    if (auto found = locationIndex_.find(key); found != locationIndex_.end())
      return found->second;
  } else {
    // Without an OpString (a location built by hand): search.
    for (uint32_t index = 1; index < locations.size(); ++index)
      if (locations[index] == location)
        return index;
  }
  locations.push_back(location);
  const auto index = static_cast<uint32_t>(locations.size() - 1);
  if (location.fileId != 0)
    locationIndex_[key] = index;
  return index;
}

const Instruction *Module::globalDefinition(uint32_t id) const {
  auto found = globalDefinitionIndex_.find(id);
  return found == globalDefinitionIndex_.end() ? nullptr : &globals[found->second];
}

std::optional<uint64_t> Module::constantValue(uint32_t id) const {
  const Constant *value = constant(id);
  if (!value || value->kind != Constant::Kind::Scalar)
    return std::nullopt;
  return value->bits;
}

} // namespace lanewise::spirv
