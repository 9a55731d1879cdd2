// SPDX-License-Identifier: Apache-2.0
// Constants in memory layout, and pointers whose value is known when the
// kernel is built.
#include "spirv/lowering.h"

#include "spirv/names.h"

#include <cstring>
#include <span>

namespace lanewise::spirv::lowering {

// ---------------------------------------------------------------------------
// Constants in memory layout (OpenCL C 3.0, 6.3.5).

const Type &typeOf(const Module &module, uint32_t id) {
  const Type *type = module.type(id);
  if (!type)
    throw LoadError(LoadErrorKind::Invalid, "%" + std::to_string(id) + " is not a type");
  return *type;
}

uint64_t byteSize(const Module &module, uint32_t typeId) {
  auto size = sizeOf(module, typeId);
  if (!size)
    throw LoadError(LoadErrorKind::Invalid,
                    "type %" + std::to_string(typeId) + " has no size in memory");
  return *size;
}

namespace {


// Byte offset of an access chain's indices (all constants) into `pointee`.
uint64_t constantChainOffset(const ConstantContext &context, uint32_t pointee,
                             std::span<const uint32_t> indices, bool pointerChain) {
  const Module &module = context.module;
  uint64_t offset = 0;
  size_t i = 0;
  auto indexValue = [&](uint32_t id) -> int64_t {
    auto value = module.constantValue(id);
    if (!value)
      throw LoadError(LoadErrorKind::Invalid,
                      "a constant access chain index (%" + std::to_string(id) + ") is not constant");
    const Constant *constant = module.constant(id);
    const Type &type = typeOf(module, constant->type);
    return type.width == 32 ? int64_t(int32_t(*value)) : int64_t(*value);
  };
  if (pointerChain && !indices.empty())
    offset += uint64_t(indexValue(indices[i++])) * byteSize(module, pointee);
  uint32_t current = pointee;
  for (; i < indices.size(); ++i) {
    const Type &type = typeOf(module, current);
    if (type.kind == Type::Kind::Struct) {
      const int64_t member = indexValue(indices[i]);
      offset += memberOffsets(module, current).at(static_cast<size_t>(member));
      current = type.members.at(static_cast<size_t>(member));
    } else {
      offset += uint64_t(indexValue(indices[i])) * byteSize(module, type.element);
      current = type.element;
    }
  }
  return offset;
}

// The value of a constant pointer: a module-scope variable, null, or
// pointer arithmetic and casts on those (OpSpecConstantOp).
uint64_t constantAddress(const ConstantContext &context, uint32_t id) {
  const Module &module = context.module;
  if (module.globalVariable(id)) {
    if (context.addresses)
      if (auto it = context.addresses->find(id); it != context.addresses->end())
        return it->second;
    throw LoadError(LoadErrorKind::Invalid,
                    "the address of %" + std::to_string(id) + " is not known in a constant");
  }
  const Constant *constant = module.constant(id);
  if (!constant)
    throw LoadError(LoadErrorKind::Invalid, "%" + std::to_string(id) + " is not a constant");
  if (constant->kind == Constant::Kind::Null || constant->kind == Constant::Kind::Undef)
    return 0;
  if (constant->kind == Constant::Kind::Scalar)
    return constant->bits;
  if (constant->kind != Constant::Kind::SpecConstantOp)
    throw LoadError(LoadErrorKind::Invalid, "%" + std::to_string(id) + " is not a pointer");
  const std::vector<uint32_t> &operands = constant->specOperands;
  switch (constant->specOpcode) {
  case spv::OpAccessChain:
  case spv::OpInBoundsAccessChain:
  case spv::OpPtrAccessChain:
  case spv::OpInBoundsPtrAccessChain: {
    const uint32_t base = operands.at(0);
    uint32_t baseType = 0;
    if (const GlobalVariable *variable = module.globalVariable(base))
      baseType = variable->pointerType;
    else if (const Constant *baseConstant = module.constant(base))
      baseType = baseConstant->type;
    const bool pointerChain = constant->specOpcode == spv::OpPtrAccessChain ||
                              constant->specOpcode == spv::OpInBoundsPtrAccessChain;
    return constantAddress(context, base) +
           constantChainOffset(context, typeOf(module, baseType).element,
                               std::span<const uint32_t>(operands).subspan(1), pointerChain);
  }
  case spv::OpBitcast:
  case spv::OpPtrCastToGeneric:
  case spv::OpGenericCastToPtr:
  case spv::OpConvertPtrToU:
  case spv::OpConvertUToPtr:
    return constantAddress(context, operands.at(0));
  default:
    throw LoadError(LoadErrorKind::Invalid, "OpSpecConstantOp %" + std::to_string(id) + " (" +
                                                opcodeName(constant->specOpcode) +
                                                ") is not supported");
  }
}


uint32_t typeOfConstant(const Module &module, uint32_t id) {
  const Constant *constant = module.constant(id);
  if (!constant)
    throw LoadError(LoadErrorKind::Invalid, "%" + std::to_string(id) + " is not a constant");
  return constant->type;
}

// The bits of a scalar integer or Bool constant, zero-extended.
uint64_t scalarBits(const ConstantContext &context, uint32_t id) {
  std::vector<std::byte> bytes(
      std::max<uint64_t>(8, byteSize(context.module, typeOfConstant(context.module, id))));
  writeConstant(context, id, bytes.data());
  uint64_t bits = 0;
  std::memcpy(&bits, bytes.data(), 8);
  return bits;
}

// OpSpecConstantOp of an integer or Bool scalar (SPIR-V 3.32.7: the
// operations allowed for Kernel), its operands already specialised.
std::optional<uint64_t> specConstantScalar(const ConstantContext &context, const Constant &c) {
  const Module &module = context.module;
  const Type &type = typeOf(module, c.type);
  if (type.kind != Type::Kind::Int && type.kind != Type::Kind::Bool)
    return std::nullopt;
  const std::vector<uint32_t> &ops = c.specOperands;
  const uint32_t width = type.kind == Type::Kind::Bool ? 1 : type.width;
  auto operandWidth = [&](size_t k) {
    const Type &t = typeOf(module, typeOfConstant(module, ops.at(k)));
    return t.kind == Type::Kind::Bool ? 1u : t.width;
  };
  auto value = [&](size_t k) { return scalarBits(context, ops.at(k)); };
  auto signedValue = [&](size_t k) {
    const uint32_t w = operandWidth(k);
    const uint64_t v = value(k);
    return w >= 64 ? int64_t(v) : int64_t(v << (64 - w)) >> (64 - w);
  };
  const uint64_t mask = width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  uint64_t r = 0;
  switch (c.specOpcode) {
  case spv::OpUConvert: r = value(0); break;
  case spv::OpSConvert: r = uint64_t(signedValue(0)); break;
  case spv::OpSNegate: r = 0 - value(0); break;
  case spv::OpNot: r = ~value(0); break;
  case spv::OpIAdd: r = value(0) + value(1); break;
  case spv::OpISub: r = value(0) - value(1); break;
  case spv::OpIMul: r = value(0) * value(1); break;
  // Division by zero is undefined; it gives 0 here, as in the handlers.
  case spv::OpUDiv: r = value(1) ? value(0) / value(1) : 0; break;
  case spv::OpUMod: r = value(1) ? value(0) % value(1) : 0; break;
  case spv::OpSDiv: r = signedValue(1) ? uint64_t(signedValue(0) / signedValue(1)) : 0; break;
  case spv::OpSRem: r = signedValue(1) ? uint64_t(signedValue(0) % signedValue(1)) : 0; break;
  case spv::OpSMod: {
    const int64_t a = signedValue(0), b = signedValue(1);
    int64_t m = b ? a % b : 0;
    if (m != 0 && (m < 0) != (b < 0))
      m += b;
    r = uint64_t(m);
    break;
  }
  case spv::OpShiftLeftLogical: r = value(0) << (value(1) % operandWidth(0)); break;
  case spv::OpShiftRightLogical: r = value(0) >> (value(1) % operandWidth(0)); break;
  case spv::OpShiftRightArithmetic:
    r = uint64_t(signedValue(0) >> (value(1) % operandWidth(0)));
    break;
  case spv::OpBitwiseOr: r = value(0) | value(1); break;
  case spv::OpBitwiseXor: r = value(0) ^ value(1); break;
  case spv::OpBitwiseAnd: r = value(0) & value(1); break;
  case spv::OpLogicalOr: r = value(0) || value(1); break;
  case spv::OpLogicalAnd: r = value(0) && value(1); break;
  case spv::OpLogicalNot: r = !value(0); break;
  case spv::OpLogicalEqual: r = value(0) == value(1); break;
  case spv::OpLogicalNotEqual: r = value(0) != value(1); break;
  case spv::OpSelect: r = value(0) ? value(1) : value(2); break;
  case spv::OpIEqual: r = value(0) == value(1); break;
  case spv::OpINotEqual: r = value(0) != value(1); break;
  case spv::OpULessThan: r = value(0) < value(1); break;
  case spv::OpSLessThan: r = signedValue(0) < signedValue(1); break;
  case spv::OpUGreaterThan: r = value(0) > value(1); break;
  case spv::OpSGreaterThan: r = signedValue(0) > signedValue(1); break;
  case spv::OpULessThanEqual: r = value(0) <= value(1); break;
  case spv::OpSLessThanEqual: r = signedValue(0) <= signedValue(1); break;
  case spv::OpUGreaterThanEqual: r = value(0) >= value(1); break;
  case spv::OpSGreaterThanEqual: r = signedValue(0) >= signedValue(1); break;
  default:
    return std::nullopt;
  }
  return r & mask;
}


} // namespace

// Writes constant `id` as it lies in memory at `out` (byteSize bytes).
void writeConstant(const ConstantContext &context, uint32_t id, std::byte *out) {
  const Module &module = context.module;
  const Constant *constant = module.constant(id);
  if (!constant && module.globalVariable(id)) {
    // A pointer to a module-scope variable, inside a composite.
    const uint64_t address = constantAddress(context, id);
    std::memcpy(out, &address, 8);
    return;
  }
  if (!constant)
    throw LoadError(LoadErrorKind::Invalid, "%" + std::to_string(id) + " is not a constant");
  const Type &type = typeOf(module, constant->type);
  const uint64_t size = byteSize(module, constant->type);
  switch (constant->kind) {
  case Constant::Kind::Null:
  case Constant::Kind::Undef:
    std::memset(out, 0, size);
    return;
  case Constant::Kind::Scalar:
  case Constant::Kind::Bool: {
    uint64_t bits = constant->bits;
    if (constant->isSpec && constant->specId && context.specializations) {
      auto it = context.specializations->find(*constant->specId);
      if (it != context.specializations->end()) {
        bits = 0;
        std::memcpy(&bits, it->second.data(), std::min<size_t>(8, it->second.size()));
      }
    }
    std::memcpy(out, &bits, std::min<uint64_t>(size, 8));
    if (size > 8)
      std::memcpy(out + 8, &constant->highBits, size - 8);
    return;
  }
  case Constant::Kind::Composite: {
    std::vector<uint64_t> offsets;
    if (type.kind == Type::Kind::Struct) {
      offsets = memberOffsets(module, constant->type);
    } else {
      const uint64_t stride = byteSize(module, type.element);
      for (size_t i = 0; i < constant->constituents.size(); ++i)
        offsets.push_back(i * stride);
    }
    std::memset(out, 0, size);
    for (size_t i = 0; i < constant->constituents.size(); ++i)
      writeConstant(context, constant->constituents[i], out + offsets[i]);
    return;
  }
  case Constant::Kind::SpecConstantOp: {
    if (type.kind != Type::Kind::Pointer) {
      const std::optional<uint64_t> bits = specConstantScalar(context, *constant);
      if (!bits)
        throw LoadError(LoadErrorKind::Invalid,
                        "OpSpecConstantOp %" + std::to_string(id) + " (" +
                            opcodeName(constant->specOpcode) + ") is not supported");
      std::memcpy(out, &*bits, std::min<uint64_t>(size, 8));
      return;
    }
    const uint64_t address = constantAddress(context, id);
    std::memcpy(out, &address, 8);
    return;
  }
  }
}


std::optional<std::pair<uint32_t, uint64_t>> KernelLowering::constantPointer(uint32_t id,
                                                                             int depth) {
  if (module_.globalVariable(id))
    return std::pair<uint32_t, uint64_t>{id, 0};
  if (depth > 64)
    return std::nullopt; // e.g. a variable that stores what it loads
  spv::Op opcode = spv::OpNop;
  std::vector<uint32_t> operands;
  if (const Constant *constant = module_.constant(id)) {
    if (constant->kind != Constant::Kind::SpecConstantOp)
      return std::nullopt;
    opcode = constant->specOpcode;
    operands = constant->specOperands;
  } else if (const Instruction *defining = definition(id)) {
    opcode = defining->opcode;
    operands = defining->operands;
  } else {
    return std::nullopt;
  }
  switch (opcode) {
  case spv::OpAccessChain:
  case spv::OpInBoundsAccessChain:
  case spv::OpPtrAccessChain:
  case spv::OpInBoundsPtrAccessChain: {
    if (operands.empty())
      return std::nullopt;
    auto base = constantPointer(operands[0], depth + 1);
    auto baseType = resultTypes_.find(operands[0]);
    if (!base || baseType == resultTypes_.end())
      return std::nullopt;
    const std::span<const uint32_t> indices = std::span<const uint32_t>(operands).subspan(1);
    for (uint32_t index : indices)
      if (!module_.constantValue(index))
        return std::nullopt;
    const bool pointerChain =
        opcode == spv::OpPtrAccessChain || opcode == spv::OpInBoundsPtrAccessChain;
    try {
      base->second +=
          constantChainOffset(ConstantContext{module_, options_.specializations, &globals_},
                              typeOf(module_, baseType->second).element, indices, pointerChain);
    } catch (const LoadError &) {
      return std::nullopt;
    }
    return base;
  }
  case spv::OpBitcast:
  case spv::OpCopyObject:
  case spv::OpPtrCastToGeneric:
  case spv::OpGenericCastToPtr:
    return operands.empty() ? std::nullopt : constantPointer(operands[0], depth + 1);
  case spv::OpLoad: {
    // Unoptimised code keeps `constant char *format = "..."` in a private
    // variable: one whose address does not escape and that only ever holds
    // one value holds that value at every load.
    const uint32_t variable = operands.at(0);
    if (!promotable_.count(variable))
      return std::nullopt;
    std::optional<uint32_t> stored;
    bool single = true;
    auto store = [&](uint32_t value) {
      if (stored && *stored != value)
        single = false;
      stored = value;
    };
    for (const Block &block : flat_.blocks)
      for (const Instruction &instruction : block.instructions) {
        if (instruction.opcode == spv::OpStore && instruction.idOperand(0) == variable)
          store(instruction.idOperand(1));
        if (instruction.result == variable && instruction.operands.size() > 1)
          store(instruction.idOperand(1)); // the variable's initializer
      }
    return single && stored ? constantPointer(*stored, depth + 1) : std::nullopt;
  }
  default:
    return std::nullopt;
  }
}

std::optional<std::string> KernelLowering::constantString(uint32_t id) {
  const auto pointer = constantPointer(id);
  if (!pointer)
    return std::nullopt;
  const GlobalVariable *variable = module_.globalVariable(pointer->first);
  if (!variable || variable->storageClass != spv::StorageClassUniformConstant ||
      !variable->initializer)
    return std::nullopt;
  std::vector<std::byte> bytes;
  try {
    bytes.resize(byteSize(module_, typeOf(module_, variable->pointerType).element));
    writeConstant(ConstantContext{module_, options_.specializations, &globals_},
                  variable->initializer, bytes.data());
  } catch (const LoadError &) {
    return std::nullopt;
  }
  if (pointer->second >= bytes.size())
    return std::nullopt;
  const char *begin = reinterpret_cast<const char *>(bytes.data()) + pointer->second;
  const char *end = reinterpret_cast<const char *>(bytes.data()) + bytes.size();
  return std::string(begin, std::find(begin, end, '\0'));
}

// ---------------------------------------------------------------------------
// Constants in registers.

Value KernelLowering::constantValue(uint32_t id) {
  const Constant *constant = module_.constant(id);
  Value value = makeValue(constant->type, false);
  fillConstant(value, constant->type, id);
  return value;
}

void KernelLowering::fillConstant(const Value &value, uint32_t typeId, uint32_t constantId) {
  std::vector<std::byte> memory(byteSize(module_, typeId));
  writeConstant(ConstantContext{module_, options_.specializations, &globals_}, constantId,
                memory.data());
  fillFromMemory(value, typeId, memory.data());
}

void KernelLowering::fillFromMemory(const Value &value, uint32_t typeId, const std::byte *memory) {
  const Type &type = typeOf(module_, typeId);
  if (value.kind == Value::Kind::Aggregate) {
    if (type.kind == Type::Kind::Struct) {
      const std::vector<uint64_t> offsets = memberOffsets(module_, typeId);
      for (size_t i = 0; i < value.members.size(); ++i)
        fillFromMemory(value.members[i], type.members[i], memory + offsets[i]);
    } else {
      const uint64_t stride = byteSize(module_, type.element);
      for (size_t i = 0; i < value.members.size(); ++i)
        fillFromMemory(value.members[i], type.element, memory + i * stride);
    }
    return;
  }
  // A component's register may be wider than its memory image: integers
  // of arbitrary width (i33 takes 5 bytes) are kept zero-extended in the
  // next wider register type.
  const uint32_t componentType = type.kind == Type::Kind::Vector ? type.element : typeId;
  const uint64_t stored = byteSize(module_, componentType);
  const uint32_t registerBytes = value.elementBytes();
  runtime::ConstantRegister reg;
  reg.offset = value.offset;
  reg.bytes.assign(size_t(value.components) * registerBytes, std::byte{0});
  for (uint32_t c = 0; c < value.components; ++c)
    std::memcpy(reg.bytes.data() + size_t(c) * registerBytes, memory + c * stored,
                std::min<uint64_t>(stored, registerBytes));
  code_.constants.push_back(std::move(reg));
}

uint32_t KernelLowering::splatConstant(const Value &like, unsigned __int128 value) {
  Value constant = like;
  constant.varying = false;
  constant.offset = allocate(like.components * like.elementBytes(), false);
  runtime::ConstantRegister reg;
  reg.offset = constant.offset;
  for (uint32_t c = 0; c < like.components; ++c) {
    const auto *bytes = reinterpret_cast<const std::byte *>(&value);
    reg.bytes.insert(reg.bytes.end(), bytes, bytes + like.elementBytes());
  }
  code_.constants.push_back(std::move(reg));
  return constant.offset;
}

} // namespace lanewise::spirv::lowering
