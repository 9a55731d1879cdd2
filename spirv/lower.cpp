#include "spirv/lower.h"

#include "builtins/geometric.h"
#include "builtins/math.h"
#include "builtins/subgroup.h"
#include "runtime/handlers.h"
#include "runtime/printf.h"
#include "spirv/cfg.h"
#include "spirv/errors.h"
#include "spirv/inline.h"
#include "spirv/names.h"
#include "spirv/uniformity.h"

#include <spirv/unified1/OpenCL.std.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <unordered_set>

namespace lanewise::spirv {

using runtime::Handler;
using runtime::Scalar;
using runtime::Shape;

namespace {

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

// What constant evaluation needs besides the module: the values of
// specialization constants and the addresses of module-scope variables.
struct ConstantContext {
  const Module &module;
  const SpecializationValues *specializations = nullptr;
  const std::unordered_map<uint32_t, uint64_t> *addresses = nullptr;
};

uint64_t constantAddress(const ConstantContext &context, uint32_t id);

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

void writeConstant(const ConstantContext &context, uint32_t id, std::byte *out);

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

// ---------------------------------------------------------------------------
// Values in registers.

struct Value {
  enum class Kind { Register, Aggregate, Builtin };
  Kind kind = Kind::Register;
  uint32_t offset = 0; // register
  bool varying = false;
  Scalar scalar = Scalar::I32;
  uint32_t components = 1;
  std::vector<Value> members;             // Aggregate: struct members or array elements
  spv::BuiltIn builtin = spv::BuiltInMax; // Builtin: a pointer to a built-in variable
  bool isPointer = false;
  spv::StorageClass storage = spv::StorageClassMax; // of a pointer
  uint32_t narrowBits = 0; // an integer narrower than its register element

  uint32_t elementBytes() const { return runtime::scalarSize(scalar); }
};

constexpr uint32_t varyingAlignment = 64;
// The sub-group size of kernels that do not require one.
constexpr uint32_t defaultSubgroupSize = 16;
// A Builtin value's `offset` is the component it points to, or this for the
// whole built-in variable.
constexpr uint32_t wholeBuiltin = 0xFFFFFFFFu;

bool isConversion(spv::Op op);
runtime::Family familyOf(const Instruction &instruction);

class KernelLowering {
public:
  KernelLowering(const Module &module, const EntryPoint &entryPoint,
                 const std::unordered_map<uint32_t, uint64_t> &globals, const LowerOptions &options)
      : module_(module), entryPoint_(entryPoint), globals_(globals), options_(options) {}

  runtime::KernelCode run();

private:
  [[noreturn]] void fail(const Instruction &instruction, const std::string &message) const {
    std::string where = describe(instruction);
    if (const SourceLocation *location = module_.location(instruction);
        location && location->known())
      where += " (" + location->text() + ")";
    throw LoadError(LoadErrorKind::Invalid,
                    "kernel '" + entryPoint_.name + "', " + where + ": " + message);
  }

  // ---- registers ----
  uint32_t allocate(uint32_t bytes, bool varying) {
    if (pooling_) {
      auto &free = pool_[{bytes, varying}];
      if (!free.empty()) {
        const uint32_t offset = free.back();
        free.pop_back();
        return offset;
      }
    }
    const uint32_t alignment = varying ? varyingAlignment : 16;
    code_.registerBytes = (code_.registerBytes + alignment - 1) / alignment * alignment;
    const uint32_t offset = code_.registerBytes;
    code_.registerBytes += varying ? bytes * code_.width : bytes;
    return offset;
  }

  // The register form of a scalar or vector type.
  bool scalarForm(uint32_t typeId, Scalar &scalar, uint32_t &components) const {
    const Type &type = typeOf(module_, typeId);
    components = 1;
    const Type *element = &type;
    if (type.kind == Type::Kind::Vector) {
      components = type.count;
      element = &typeOf(module_, type.element);
    }
    switch (element->kind) {
    case Type::Kind::Bool:
      scalar = Scalar::Bool;
      return true;
    case Type::Kind::Int:
      switch (element->width) {
      case 8:
        scalar = Scalar::I8;
        return true;
      case 16:
        scalar = Scalar::I16;
        return true;
      case 32:
        scalar = Scalar::I32;
        return true;
      case 64:
        scalar = Scalar::I64;
        return true;
      default:
        // Arbitrary-width integers (clang narrows switch selectors to them)
        // live in the next standard width, kept zero-extended.
        if (element->width == 0 || element->width > 128)
          return false;
        scalar = element->width < 8    ? Scalar::I8
                 : element->width < 16 ? Scalar::I16
                 : element->width < 32 ? Scalar::I32
                 : element->width < 64 ? Scalar::I64
                                       : Scalar::I128;
        return true;
      }
    case Type::Kind::Float:
      switch (element->width) {
      case 16:
        scalar = Scalar::F16;
        return true;
      case 32:
        scalar = Scalar::F32;
        return true;
      case 64:
        scalar = Scalar::F64;
        return true;
      default:
        return false;
      }
    case Type::Kind::Pointer:
    case Type::Kind::Event:
    case Type::Kind::DeviceEvent:
    case Type::Kind::ReserveId:
    case Type::Kind::Queue:
      scalar = Scalar::I64;
      return type.kind != Type::Kind::Vector;
    default:
      return false;
    }
  }

  Value makeValue(uint32_t typeId, bool varying) {
    const Type &type = typeOf(module_, typeId);
    Value value;
    value.varying = varying;
    if (type.kind == Type::Kind::Struct) {
      value.kind = Value::Kind::Aggregate;
      for (uint32_t member : type.members)
        value.members.push_back(makeValue(member, varying));
      return value;
    }
    if (type.kind == Type::Kind::Array) {
      value.kind = Value::Kind::Aggregate;
      for (uint32_t i = 0; i < type.count; ++i)
        value.members.push_back(makeValue(type.element, varying));
      return value;
    }
    if (!scalarForm(typeId, value.scalar, value.components))
      throw LoadError(LoadErrorKind::Invalid, "kernel '" + entryPoint_.name +
                                                  "': values of type %" + std::to_string(typeId) +
                                                  " are not supported");
    value.isPointer = type.kind == Type::Kind::Pointer;
    if (value.isPointer)
      value.storage = type.storageClass;
    {
      const Type &element = type.kind == Type::Kind::Vector ? typeOf(module_, type.element) : type;
      // 128-bit integers (clang -O2 reads a 16-byte union as an i128) fill
      // their register: they are not narrow.
      if (element.kind == Type::Kind::Int && element.width != 8 && element.width != 16 &&
          element.width != 32 && element.width != 64 && element.width != 128)
        value.narrowBits = element.width;
    }
    value.offset = allocate(value.components * value.elementBytes(), varying);
    return value;
  }

  // A uniform register holding a constant (any scalar, vector or aggregate).
  Value constantValue(uint32_t id) {
    const Constant *constant = module_.constant(id);
    Value value = makeValue(constant->type, false);
    fillConstant(value, constant->type, id);
    return value;
  }

  void fillConstant(const Value &value, uint32_t typeId, uint32_t constantId) {
    std::vector<std::byte> memory(byteSize(module_, typeId));
    writeConstant(ConstantContext{module_, options_.specializations, &globals_}, constantId,
                  memory.data());
    fillFromMemory(value, typeId, memory.data());
  }

  // Registers of `value` from the memory image of a value of `typeId`.
  void fillFromMemory(const Value &value, uint32_t typeId, const std::byte *memory) {
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

  // The value of an id used as an operand.
  const Value &use(uint32_t id, const Instruction &user) {
    auto it = values_.find(id);
    if (it != values_.end())
      return it->second;
    if (module_.constant(id))
      return values_.emplace(id, constantValue(id)).first->second;
    if (const GlobalVariable *variable = module_.globalVariable(id))
      return values_.emplace(id, globalVariableValue(*variable, user)).first->second;
    fail(user, "operand %" + std::to_string(id) + " has no value here");
  }

  Value globalVariableValue(const GlobalVariable &variable, const Instruction &user) {
    Value value;
    value.scalar = Scalar::I64;
    value.isPointer = true;
    if (variable.builtin) {
      value.kind = Value::Kind::Builtin;
      value.builtin = *variable.builtin;
      value.offset = wholeBuiltin;
      return value;
    }
    if (variable.storageClass == spv::StorageClassInput)
      fail(user, "Input variable %" + std::to_string(variable.id) + " is not a built-in");
    value.offset = allocate(8, false);
    if (variable.storageClass == spv::StorageClassWorkgroup) {
      const uint32_t pointee = typeOf(module_, variable.pointerType).element;
      const uint64_t alignment = alignmentOf(module_, pointee).value_or(16);
      uint32_t &bytes = code_.memory.workgroupBytes;
      bytes = static_cast<uint32_t>((bytes + alignment - 1) / alignment * alignment);
      code_.memory.workgroupAlignment =
          std::max(code_.memory.workgroupAlignment, static_cast<uint32_t>(alignment));
      code_.addresses.push_back(
          {runtime::AddressRegister::Space::Workgroup, value.offset, bytes, false});
      const uint64_t size = byteSize(module_, pointee);
      if (checks_)
        checks_->localVariables.push_back({bytes, size, nameOf(variable.id)});
      bytes += static_cast<uint32_t>(size);
      if (checking(runtime::Check::Bounds))
        bytes += redZone;
      return value;
    }
    auto it = globals_.find(variable.id);
    if (it == globals_.end())
      fail(user, "module-scope variable %" + std::to_string(variable.id) + " in storage class " +
                     storageClassName(variable.storageClass) + " is not supported");
    code_.addresses.push_back(
        {runtime::AddressRegister::Space::Global, value.offset, it->second, false});
    return value;
  }

  // ---- the checked mode (runtime/check.h) ----
  std::shared_ptr<runtime::KernelChecks> checks_; // null when built without checks
  static constexpr uint32_t redZone = 64; // bytes between variables under the bounds check

  bool checking(runtime::Check check) const { return checks_ && checks_->checks.has(check); }
  static uint64_t accessBytes(const Value &value) {
    return uint64_t(value.components) * value.elementBytes();
  }
  // OpenCL C 3.0, 6.3.5: data of type T is aligned to sizeof(T), 3-vectors
  // to 4 components; an access that declares less (the Aligned memory
  // operand, e.g. in a packed struct) needs only that.
  uint32_t requiredAlignment(const Value &value) const {
    uint32_t alignment = value.elementBytes() * (value.components == 3 ? 4 : value.components);
    if (current_ && (current_->opcode == spv::OpLoad || current_->opcode == spv::OpStore)) {
      const size_t maskIndex = current_->opcode == spv::OpLoad ? 1 : 2;
      if (current_->operands.size() > maskIndex + 1 &&
          (current_->operands[maskIndex] & spv::MemoryAccessAlignedMask))
        alignment = std::min(alignment, current_->operands[maskIndex + 1]);
    }
    return alignment;
  }
  static runtime::CheckSite::Space spaceOf(spv::StorageClass storage) {
    using Space = runtime::CheckSite::Space;
    switch (storage) {
    case spv::StorageClassCrossWorkgroup:
      return Space::Global;
    case spv::StorageClassUniformConstant:
      return Space::Constant;
    case spv::StorageClassWorkgroup:
      return Space::Local;
    case spv::StorageClassFunction:
      return Space::Private;
    default:
      return Space::Generic;
    }
  }
  std::string nameOf(uint32_t id) const {
    auto name = module_.names.find(decorated(id));
    return name != module_.names.end() && !name->second.empty() ? name->second
                                                                 : "%" + std::to_string(id);
  }
  uint32_t addSite(const Instruction &instruction, uint32_t alignment,
                   runtime::CheckSite::Space space, bool write) {
    runtime::CheckSite site;
    site.opcode = opcodeName(instruction.opcode);
    if (instruction.opcode == spv::OpExtInst && instruction.operands.size() > 1)
      site.opcode += " " + openclStdName(instruction.operands[1]);
    site.resultId = instruction.result;
    if (const SourceLocation *location = module_.location(instruction);
        location && location->known()) {
      site.file = location->file.starts_with("./") ? location->file.substr(2) : location->file;
      site.line = location->line;
      site.column = location->column;
    }
    site.alignment = alignment;
    site.space = space;
    site.write = write;
    checks_->sites.push_back(std::move(site));
    return static_cast<uint32_t>(checks_->sites.size() - 1);
  }
  // The address register an access of `bytes` bytes through `pointer` uses:
  // under the bounds or alignment check, a checked copy of `address`.
  uint32_t checkedAddress(const Value &pointer, uint32_t address, uint64_t bytes,
                          uint32_t alignment, bool write) {
    // The uninitialised-read check watches __local and private memory; the
    // race check __local and global memory.
    const spv::StorageClass storage = pointer.storage;
    const bool generic = storage == spv::StorageClassGeneric || storage == spv::StorageClassMax;
    const bool uninit = checking(runtime::Check::Uninit) &&
                        (generic || storage == spv::StorageClassWorkgroup ||
                         storage == spv::StorageClassFunction);
    const bool races = checking(runtime::Check::Races) &&
                       (generic || storage == spv::StorageClassWorkgroup ||
                        storage == spv::StorageClassCrossWorkgroup);
    if (!checking(runtime::Check::Bounds) && !checking(runtime::Check::Alignment) && !uninit &&
        !races)
      return address;
    const uint32_t site = addSite(*current_, alignment, spaceOf(pointer.storage), write);
    // A copy carries uninitialised bytes (struct padding) along: its source
    // is not checked for them.
    checks_->sites[site].skipsUninit = !write && (current_->opcode == spv::OpCopyMemory ||
                                                  current_->opcode == spv::OpCopyMemorySized);
    checks_->sites[site].writesPadding = write && bytes % 3 == 0 && alignment == bytes / 3 * 4;
    const spv::Op op = current_->opcode;
    checks_->sites[site].skipsRaces =
        (op >= spv::OpAtomicLoad && op <= spv::OpAtomicXor) || op == spv::OpAtomicFlagTestAndSet ||
        op == spv::OpAtomicFlagClear || op == spv::OpAtomicFAddEXT ||
        op == spv::OpAtomicFMinEXT || op == spv::OpAtomicFMaxEXT;
    const uint32_t checked = allocate(8, pointer.varying);
    emit(runtime::checkAccessHandler(pointer.varying), checked, {address}, 1, site, bytes);
    return checked;
  }

  // The address register of a sub-group block read or write
  // (cl_intel_subgroups): the sub-group reads or writes S elements per
  // component from the pointer, the same for all its lanes, so each lane's
  // check covers the block of a whole sub-group. Each lane reaching the whole
  // block is no race among them: the block is checked for bounds and
  // alignment only.
  uint32_t checkedBlockAddress(const Value &pointer, const Value &data, bool write) {
    const uint64_t bytes = uint64_t(code_.subgroupSize) * accessBytes(data);
    const size_t firstSite = checks_ ? checks_->sites.size() : 0;
    const uint32_t address =
        checkedAddress(pointer, pointer.offset, bytes, data.elementBytes(), write);
    for (size_t site = firstSite; checks_ && site < checks_->sites.size(); ++site) {
      checks_->sites[site].skipsRaces = true;
      checks_->sites[site].skipsUninit = !write;
    }
    return address;
  }

  // ---- the register shadow of undefined values ----
  // At -O2 an uninitialised variable is an OpUndef, usually an incoming
  // value of a phi (the uninit check); a relative shuffle's result is
  // undefined on the lanes that read outside the sub-group (the subgroups
  // check). Each SSA value that may carry one (an OpUndef or such a
  // shuffle, a phi with such an incoming value, an element-wise operation
  // or an OpSelect on such a value) gets a varying byte per lane, with the
  // bits of runtime::shadowUninitialised and shadowBadShuffle where the
  // value is undefined on the lane's path, computed and copied along with
  // the value; it is checked where an undefined value has an effect. Composites
  // (OpCompositeInsert/Extract/Construct, OpVectorShuffle) do not propagate
  // it: clang builds vectors by inserting into OpUndef in correct code.
  struct Shadow {
    uint32_t offset = 0;
    bool varying = false;
  };
  std::unordered_set<uint32_t> undefinedIds_;                 // the OpUndef values themselves
  std::unordered_set<uint32_t> maybeUndefined_;               // those and what they reach
  std::unordered_map<uint32_t, uint32_t> undefShadow_;        // value -> varying shadow
  std::unordered_map<uint32_t, uint32_t> undefShadowStaging_; // phi -> staging shadow
  std::optional<uint32_t> shadowConstants_[2];                // uniform 0 and 1
  uint32_t shadowConstant(bool undefined) {
    std::optional<uint32_t> &reg = shadowConstants_[undefined ? 1 : 0];
    if (!reg) {
      reg = allocate(1, false);
      code_.constants.push_back({*reg, {std::byte(undefined ? 1 : 0)}});
    }
    return *reg;
  }
  // The shadow of a value that may be undefined; nullopt for a defined one.
  std::optional<Shadow> shadowOf(uint32_t id) {
    if (undefinedIds_.count(id))
      return Shadow{shadowConstant(true), false};
    auto it = undefShadow_.find(id);
    if (it == undefShadow_.end())
      return std::nullopt;
    return Shadow{it->second, true};
  }
  void findMaybeUndefined();
  // Under the subgroups check, sub_group_shuffle_up and _down are checked
  // where their result is used, not where they run: their result is only
  // undefined on the lanes that read outside the sub-group, which scans and
  // reductions then ignore.
  bool deferredShuffle(const Instruction &instruction) const {
    return checking(runtime::Check::Subgroups) &&
           (instruction.opcode == spv::OpGroupNonUniformShuffleUp ||
            instruction.opcode == spv::OpGroupNonUniformShuffleDown);
  }
  void emitShadow(const Instruction &instruction, uint32_t shadow);
  // Reports the active lanes for which `id`, used by `user` as `use`, is
  // undefined.
  // A value stored in a private variable (`intoVariable`) is not yet used:
  // an unoptimised build stores every shuffle's result in one, so there
  // only an uninitialised value is reported.
  void checkDefined(uint32_t id, const Instruction &user, runtime::UndefinedUse use,
                    bool intoVariable = false) {
    if (!maybeUndefined_.count(id))
      return;
    const Shadow shadow = *shadowOf(id);
    emit(runtime::checkUndefinedHandler(), 0, {shadow.offset}, 1,
         addSite(user, 0, runtime::CheckSite::Space::Generic, false),
         (shadow.varying ? 1u : 0u) | (intoVariable ? 2u : 0u) | uint64_t(use) << 8);
  }

  // ---- emission ----
  const Instruction *current_ = nullptr; // the SPIR-V instruction being lowered
  std::unordered_map<uint32_t, uint32_t> sourceIndices_; // Module::locations -> code_.sources

  void emit(Handler handler, uint32_t result, std::initializer_list<uint32_t> operands,
            uint32_t components, uint32_t aux = 0, uint64_t immediate = 0,
            const void *data = nullptr) {
    if (!handler)
      fail(*current_, "no handler for this operation on these operand types");
    runtime::Instruction instruction;
    instruction.handler = handler;
    instruction.result = result;
    size_t i = 0;
    for (uint32_t operand : operands)
      instruction.operand[i++] = operand;
    instruction.components = components;
    instruction.aux = aux;
    instruction.immediate = immediate;
    instruction.data = data;
    instruction.sourceId = current_ ? current_->result : 0;
    instruction.source = sourceIndex();
    instruction.family = current_ ? familyOf(*current_) : runtime::Family::Other;
    code_.instructions.push_back(instruction);
  }

  // The index in code_.sources of the current instruction's position.
  uint32_t sourceIndex() {
    if (!current_)
      return 0;
    const SourceLocation *location = module_.location(*current_);
    if (!location || !location->known())
      return 0;
    auto [entry, added] =
        sourceIndices_.try_emplace(current_->location, static_cast<uint32_t>(code_.sources.size()));
    if (added) {
      std::string text = location->text();
      code_.sources.push_back(text.starts_with("./") ? text.substr(2) : text);
    }
    return entry->second;
  }

  // Copies every register of `from` into `to` (same type).
  void copyValue(const Value &from, const Value &to) {
    if (to.kind == Value::Kind::Aggregate) {
      for (size_t i = 0; i < to.members.size(); ++i)
        copyValue(from.members[i], to.members[i]);
      return;
    }
    Shape shape{to.varying, {from.varying}};
    emit(runtime::copyComponentsHandler(to.elementBytes(), shape), to.offset, {from.offset},
         to.components);
  }

  // A register view of component `c` of a scalar/vector register.
  uint32_t componentOffset(const Value &value, uint32_t c) const {
    return value.offset + c * value.elementBytes() * (value.varying ? code_.width : 1);
  }

  void lowerInstruction(const Instruction &instruction);

  // A uniform register holding `value` in every component of `like`'s form.
  uint32_t splatConstant(const Value &like, unsigned __int128 value) {
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

  // Keeps an arbitrary-width integer result zero-extended in its register.
  void truncateNarrow(const Value &value) {
    if (!value.narrowBits || value.kind != Value::Kind::Register || value.scalar == Scalar::Bool)
      return;
    const uint32_t mask =
        splatConstant(value, (static_cast<unsigned __int128>(1) << value.narrowBits) - 1);
    emit(runtime::binaryHandler(runtime::BinaryOp::BitwiseAnd, value.scalar,
                                Shape{value.varying, {value.varying, false}}),
         value.offset, {value.offset, mask}, value.components);
  }

  // Operations that read the sign of an arbitrary-width integer are not
  // implemented: they would need it sign-extended.
  void checkNarrowOperation(const Value &operand, const Instruction &instruction) {
    if (!operand.narrowBits)
      return;
    switch (instruction.opcode) {
    case spv::OpSDiv: case spv::OpSRem: case spv::OpSMod: case spv::OpShiftRightArithmetic:
    case spv::OpSGreaterThan: case spv::OpSGreaterThanEqual: case spv::OpSLessThan:
    case spv::OpSLessThanEqual:
      fail(instruction, "signed operations on " + std::to_string(operand.narrowBits) +
                            "-bit integers are not supported");
    default:
      break;
    }
  }
  void lowerExtInst(const Instruction &instruction);
  void lowerPrintf(const Instruction &instruction);
  // A pointer whose value is known when the kernel is built: a module-scope
  // variable and a byte offset into it.
  std::optional<std::pair<uint32_t, uint64_t>> constantPointer(uint32_t id, int depth = 0);
  // The string a constant pointer points to in an initialised UniformConstant
  // variable: up to its null character, or to the end of the variable.
  std::optional<std::string> constantString(uint32_t id);
  std::unordered_map<uint32_t, const Instruction *> definitions_;
  const Instruction *definition(uint32_t id) {
    if (definitions_.empty())
      for (const Block &block : flat_.blocks)
        for (const Instruction &instruction : block.instructions)
          if (instruction.result)
            definitions_.emplace(instruction.result, &instruction);
    auto it = definitions_.find(id);
    return it == definitions_.end() ? nullptr : it->second;
  }
  void lowerSubgroup(const Instruction &instruction);
  bool lowerVectorMemory(const Instruction &instruction, uint32_t number);
  bool lowerPermutation(const Instruction &instruction, uint32_t number);
  bool lowerMixedMath(const Instruction &instruction, uint32_t number);
  bool lowerGeometric(const Instruction &instruction, uint32_t number);
  void emitGeometric(builtins::Geometric function, const Instruction &instruction,
                     size_t firstOperand);
  uint32_t broadcast(const Value &operand, uint32_t components);
  void emitMath(builtins::Math function, const Value &result,
                const std::vector<const Value *> &operands);
  void emitMixedMath(builtins::MixedMath function, Scalar type, const Value &result,
                     const std::vector<const Value *> &operands);
  // The address `pointer + offset * elementsPerOffset * elementBytes`.
  Value offsetAddress(const Value &pointer, const Value &offset, uint64_t stride);
  // A temporary register of the given form.
  Value temporary(Scalar scalar, uint32_t components, bool varying) {
    Value value;
    value.scalar = scalar;
    value.components = components;
    value.varying = varying;
    value.offset = allocate(components * runtime::scalarSize(scalar), varying);
    return value;
  }
  void lowerAccessChain(const Instruction &instruction, const Value &result);
  void loadInto(const Value &pointer, uint64_t displacement, uint32_t typeId, const Value &result);
  void storeFrom(const Value &pointer, uint64_t displacement, uint32_t typeId, const Value &value);
  uint32_t displaced(const Value &pointer, uint64_t displacement);
  void bindArguments(const Function &function);
  runtime::Terminator lowerTerminator(const Block &block, uint32_t number);
  std::vector<runtime::RegisterCopy> edgeCopies(uint32_t from, uint32_t to);

  bool isVaryingSource(const Instruction &instruction) const;

  // Register reuse. A value defined and used in one block only (no phi uses
  // it) is dead when the block ends, and after its last use in the block:
  // its registers return to a pool that later block-local values draw from.
  // Values that other blocks read keep their registers for the whole kernel.
  bool pooling_ = false;
  std::map<std::pair<uint32_t, bool>, std::vector<uint32_t>> pool_;
  std::unordered_map<uint32_t, uint32_t> localUses_; // block-local value -> uses left
  void findBlockLocalValues() {
    std::unordered_map<uint32_t, uint32_t> definedIn, uses;
    std::unordered_set<uint32_t> nonLocal;
    for (uint32_t b = 0; b < cfg_->size(); ++b)
      for (const Instruction &instruction : cfg_->order()[b]->instructions)
        if (instruction.result)
          definedIn[instruction.result] = b;
    for (uint32_t b = 0; b < cfg_->size(); ++b)
      for (const Instruction &instruction : cfg_->order()[b]->instructions)
        instruction.forEachIdOperand([&](uint32_t id) {
          auto it = definedIn.find(id);
          if (it == definedIn.end())
            return;
          if (it->second != b || instruction.opcode == spv::OpPhi ||
              isBlockTerminator(instruction.opcode))
            nonLocal.insert(id); // terminator uses: the block's end frees them
          ++uses[id];
        });
    for (uint32_t b = 0; b < cfg_->size(); ++b)
      for (const Instruction &instruction : cfg_->order()[b]->instructions) {
        const uint32_t id = instruction.result;
        if (!id || nonLocal.count(id) || !uses.count(id) || promoted_.count(id) ||
            instruction.opcode == spv::OpPhi || instruction.opcode == spv::OpVariable ||
            boundWhenLowered(instruction))
          continue;
        localUses_[id] = uses[id];
      }
  }
  // Whether a result is bound when lowered rather than given registers.
  bool boundWhenLowered(const Instruction &instruction) const {
    if (instruction.opcode == spv::OpLoad || instruction.opcode == spv::OpAccessChain ||
        instruction.opcode == spv::OpInBoundsAccessChain) {
      const GlobalVariable *variable = module_.globalVariable(instruction.idOperand(0));
      return variable && variable->builtin;
    }
    return false;
  }
  void release(const Value &value) {
    if (value.kind == Value::Kind::Aggregate) {
      for (const Value &member : value.members)
        release(member);
    } else if (value.kind == Value::Kind::Register) {
      pool_[{value.components * value.elementBytes(), value.varying}].push_back(value.offset);
    }
  }

  // Private variables whose address never escapes (only loaded from and
  // stored to) live in registers: a varying register holds each lane's
  // value, and a store is a copy into it for the active lanes.
  std::unordered_set<uint32_t> promotable_; // only loaded and stored whole
  std::unordered_set<uint32_t> promoted_;   // those that live in registers
  void findPromotableVariables() {
    std::unordered_set<uint32_t> candidates, escaped;
    for (const Block &block : flat_.blocks)
      for (const Instruction &instruction : block.instructions)
        if (instruction.opcode == spv::OpVariable &&
            static_cast<spv::StorageClass>(instruction.operands.at(0)) == spv::StorageClassFunction)
          candidates.insert(instruction.result);
    for (const Block &block : flat_.blocks)
      for (const Instruction &instruction : block.instructions) {
        size_t index = 0;
        instruction.forEachIdOperand([&](uint32_t id) {
          const bool pointerOperand =
              index++ == 0 && (instruction.opcode == spv::OpLoad ||
                               instruction.opcode == spv::OpStore ||
                               instruction.opcode == spv::OpLifetimeStart ||
                               instruction.opcode == spv::OpLifetimeStop);
          if (candidates.count(id) && !pointerOperand)
            escaped.insert(id);
        });
      }
    for (uint32_t id : candidates)
      if (!escaped.count(id)) {
        Scalar scalar;
        uint32_t components;
        const uint32_t pointee = typeOf(module_, resultTypes_.at(id)).element;
        const Type &type = typeOf(module_, pointee);
        if (type.kind == Type::Kind::Struct || type.kind == Type::Kind::Array ||
            scalarForm(pointee, scalar, components))
          promotable_.insert(id);
      }
    // Under the uninitialised-read check, private variables stay in memory,
    // where the check sees them.
    if (!options_.checks.has(runtime::Check::Uninit))
      promoted_ = promotable_;
  }

  // Phi copies are parallel: an edge must read every source before it writes
  // any phi. When no phi of the block reads another phi of the block, the
  // edges write the phis directly; otherwise they write staging registers,
  // copied into the phis when the block starts.
  bool needsStaging(const Block &block) const {
    std::unordered_set<uint32_t> phis;
    for (const Instruction &phi : block.instructions)
      if (phi.opcode == spv::OpPhi)
        phis.insert(phi.result);
    for (const Instruction &phi : block.instructions) {
      if (phi.opcode != spv::OpPhi)
        break;
      for (size_t k = 0; k < phi.operands.size(); k += 2)
        if (phis.count(phi.operands[k]))
          return true;
    }
    return false;
  }

  const Module &module_;
  const EntryPoint &entryPoint_;
  const std::unordered_map<uint32_t, uint64_t> &globals_;
  const LowerOptions &options_;
  runtime::KernelCode code_;
  Function flat_;
  std::unique_ptr<ControlFlowGraph> cfg_;
  UniformityInfo uniformity_;
  std::unordered_map<uint32_t, Value> values_;
  std::unordered_map<uint32_t, Value> phiStaging_;
  std::vector<uint32_t> firstPiece_; // bytecode block of each SPIR-V block
  std::unordered_map<spv::BuiltIn, Value> builtinRegisters_;
  std::unordered_map<uint32_t, uint32_t> resultTypes_;
  std::unordered_map<uint32_t, uint32_t> origins_; // inlined copy -> original id
  // The id whose decorations apply to `id` (the original of an inlined copy).
  uint32_t decorated(uint32_t id) const {
    auto it = origins_.find(id);
    return it == origins_.end() ? id : it->second;
  }
  const Value &builtinRegister(spv::BuiltIn builtin, const Instruction &user);
  // The SPIR-V type of any id a function body can use.
  uint32_t typeOfId(uint32_t id, const Instruction &user) const {
    auto it = resultTypes_.find(id);
    if (it == resultTypes_.end())
      fail(user, "operand %" + std::to_string(id) + " has no type");
    return it->second;
  }
};

bool isSubgroupOperation(spv::Op opcode) {
  return (opcode >= spv::OpGroupAll && opcode <= spv::OpGroupSMax) ||
         (opcode >= spv::OpGroupNonUniformElect && opcode <= spv::OpGroupNonUniformQuadSwap) ||
         (opcode >= spv::OpSubgroupShuffleINTEL && opcode <= spv::OpSubgroupImageBlockWriteINTEL);
}

bool isVaryingBuiltin(spv::BuiltIn builtin) {
  switch (builtin) {
  case spv::BuiltInGlobalInvocationId:
  case spv::BuiltInLocalInvocationId:
  case spv::BuiltInGlobalLinearId:
  case spv::BuiltInLocalInvocationIndex:
  case spv::BuiltInSubgroupLocalInvocationId:
  case spv::BuiltInSubgroupId:
  case spv::BuiltInSubgroupSize:
  case spv::BuiltInSubgroupEqMask:
  case spv::BuiltInSubgroupGeMask:
  case spv::BuiltInSubgroupGtMask:
  case spv::BuiltInSubgroupLeMask:
  case spv::BuiltInSubgroupLtMask:
    return true;
  default:
    return false;
  }
}

bool KernelLowering::isVaryingSource(const Instruction &instruction) const {
  if (isSubgroupOperation(instruction.opcode))
    return true; // per-lane results (and a lane's sub-group is per lane)
  switch (instruction.opcode) {
  case spv::OpExtInst: {
    // printf's result says whether each work-item's output was kept.
    auto set = module_.extInstImports.find(instruction.idOperand(0));
    return set != module_.extInstImports.end() && set->second == "OpenCL.std" &&
           instruction.operands.at(1) == OpenCLLIB::Printf;
  }
  case spv::OpVariable: // per-lane private memory
    return true;
  case spv::OpLoad: {
    const uint32_t pointer = instruction.idOperand(0);
    if (const GlobalVariable *variable = module_.globalVariable(pointer))
      if (variable->builtin)
        return isVaryingBuiltin(*variable->builtin);
    return false;
  }
  case spv::OpAtomicLoad:
  case spv::OpAtomicExchange:
  case spv::OpAtomicCompareExchange:
  case spv::OpAtomicCompareExchangeWeak:
  case spv::OpAtomicIIncrement:
  case spv::OpAtomicIDecrement:
  case spv::OpAtomicIAdd:
  case spv::OpAtomicISub:
  case spv::OpAtomicSMin:
  case spv::OpAtomicUMin:
  case spv::OpAtomicSMax:
  case spv::OpAtomicUMax:
  case spv::OpAtomicAnd:
  case spv::OpAtomicOr:
  case spv::OpAtomicXor:
  case spv::OpAtomicFlagTestAndSet:
  case spv::OpAtomicFAddEXT:
  case spv::OpAtomicFMinEXT:
  case spv::OpAtomicFMaxEXT:
    return true;
  case spv::OpAccessChain:
  case spv::OpInBoundsAccessChain:
  case spv::OpPtrAccessChain:
  case spv::OpInBoundsPtrAccessChain: {
    // A component of a varying built-in vector.
    const uint32_t base = instruction.idOperand(0);
    if (const GlobalVariable *variable = module_.globalVariable(base))
      if (variable->builtin)
        return isVaryingBuiltin(*variable->builtin);
    return false;
  }
  default:
    return false;
  }
}

std::optional<runtime::BinaryOp> binaryOp(spv::Op opcode);
std::optional<runtime::UnaryOp> unaryOp(spv::Op opcode);

// The conversions between numbers (and pointers and integers), which one
// handler family lowers.
bool isConversion(spv::Op op) {
  switch (op) {
  case spv::OpConvertFToU:
  case spv::OpConvertFToS:
  case spv::OpConvertSToF:
  case spv::OpConvertUToF:
  case spv::OpUConvert:
  case spv::OpSConvert:
  case spv::OpFConvert:
  case spv::OpSatConvertSToU:
  case spv::OpSatConvertUToS:
  case spv::OpConvertPtrToU:
  case spv::OpConvertUToPtr:
    return true;
  default:
    return false;
  }
}

// The statistics' family of a SPIR-V instruction (runtime::Family).
runtime::Family familyOf(const Instruction &instruction) {
  using runtime::Family;
  const spv::Op op = instruction.opcode;
  auto within = [&](spv::Op first, spv::Op last) { return op >= first && op <= last; };
  if (op == spv::OpExtInst) {
    const uint32_t number = instruction.operands.at(1);
    if (number >= 171 && number <= 181) // vloadn .. vstorea_halfn_r
      return Family::Memory;
    if (number == 182 || number == 183) // shuffle, shuffle2
      return Family::Composite;
    return number == 184 ? Family::Other : Family::Math; // printf
  }
  if (within(spv::OpAtomicLoad, spv::OpAtomicXor) ||
      within(spv::OpAtomicFlagTestAndSet, spv::OpAtomicFlagClear) || op == spv::OpAtomicFAddEXT ||
      op == spv::OpAtomicFMinEXT || op == spv::OpAtomicFMaxEXT)
    return Family::Atomic;
  if (within(spv::OpGroupAll, spv::OpGroupSMax) ||
      within(spv::OpGroupNonUniformElect, spv::OpGroupNonUniformQuadSwap) ||
      within(spv::OpSubgroupShuffleINTEL, spv::OpSubgroupImageBlockWriteINTEL))
    return Family::Group;
  switch (op) {
  case spv::OpLoad:
  case spv::OpStore:
  case spv::OpCopyMemory:
  case spv::OpCopyMemorySized:
  case spv::OpGroupAsyncCopy:
  case spv::OpGroupWaitEvents:
    return Family::Memory;
  case spv::OpVariable:
  case spv::OpAccessChain:
  case spv::OpInBoundsAccessChain:
  case spv::OpPtrAccessChain:
  case spv::OpInBoundsPtrAccessChain:
  case spv::OpConvertPtrToU:
  case spv::OpConvertUToPtr:
  case spv::OpPtrCastToGeneric:
  case spv::OpGenericCastToPtr:
  case spv::OpGenericCastToPtrExplicit:
  case spv::OpPtrDiff:
  case spv::OpPtrEqual:
  case spv::OpPtrNotEqual:
    return Family::Address;
  case spv::OpQuantizeToF16:
  case spv::OpBitcast:
    return Family::Conversion;
  case spv::OpVectorExtractDynamic:
  case spv::OpVectorInsertDynamic:
  case spv::OpVectorShuffle:
  case spv::OpCompositeConstruct:
  case spv::OpCompositeExtract:
  case spv::OpCompositeInsert:
  case spv::OpCopyObject:
  case spv::OpCopyLogical:
    return Family::Composite;
  case spv::OpFNegate:
  case spv::OpFAdd:
  case spv::OpFSub:
  case spv::OpFMul:
  case spv::OpFDiv:
  case spv::OpFRem:
  case spv::OpFMod:
  case spv::OpVectorTimesScalar:
  case spv::OpDot:
  case spv::OpIsNan:
  case spv::OpIsInf:
  case spv::OpIsFinite:
  case spv::OpIsNormal:
  case spv::OpSignBitSet:
  case spv::OpLessOrGreater:
  case spv::OpOrdered:
  case spv::OpUnordered:
    return Family::Float;
  default:
    break;
  }
  if (isConversion(op))
    return Family::Conversion;
  if (within(spv::OpFOrdEqual, spv::OpFUnordGreaterThanEqual))
    return Family::Float;
  if (within(spv::OpSNegate, spv::OpSMulExtended) || within(spv::OpAny, spv::OpBitCount))
    return Family::Integer;
  return Family::Other;
}


// Operations whose result is undefined where an operand is: element-wise
// arithmetic, bitwise, comparison and conversion instructions, copies, and
// the element-wise functions of OpenCL.std (not the vector loads and stores,
// shuffles, printf and prefetch).
bool propagatesUndefined(const Module &module, const Instruction &instruction) {
  const spv::Op op = instruction.opcode;
  if (binaryOp(op) || unaryOp(op) || isConversion(op))
    return true;
  switch (op) {
  case spv::OpPhi:
  case spv::OpSelect:
  case spv::OpBitcast:
  case spv::OpPtrCastToGeneric:
  case spv::OpGenericCastToPtr:
  case spv::OpGenericCastToPtrExplicit:
  case spv::OpCopyObject:
  case spv::OpCopyLogical:
  case spv::OpVectorTimesScalar:
  case spv::OpExpectKHR:
  case spv::OpAny:
  case spv::OpAll:
  case spv::OpDot:
  case spv::OpPtrDiff:
    return true;
  case spv::OpExtInst: {
    auto set = module.extInstImports.find(instruction.idOperand(0));
    if (set == module.extInstImports.end() || set->second != "OpenCL.std")
      return false;
    const uint32_t number = instruction.operands.at(1);
    return number < OpenCLLIB::Vloadn || number == OpenCLLIB::Bitselect ||
           number == OpenCLLIB::Select;
  }
  default:
    return false;
  }
}

void KernelLowering::findMaybeUndefined() {
  // Scalars, vectors and pointers: the values that live in one register.
  auto shadowed = [&](uint32_t typeId) {
    if (!typeId)
      return false;
    const Type::Kind kind = typeOf(module_, typeId).kind;
    return kind == Type::Kind::Bool || kind == Type::Kind::Int || kind == Type::Kind::Float ||
           kind == Type::Kind::Vector || kind == Type::Kind::Pointer;
  };
  if (checking(runtime::Check::Uninit)) {
    for (const auto &[id, constant] : module_.constants)
      if (constant.kind == Constant::Kind::Undef && shadowed(constant.type))
        undefinedIds_.insert(id);
    for (const Block *block : cfg_->order())
      for (const Instruction &instruction : block->instructions)
        if (instruction.opcode == spv::OpUndef && shadowed(instruction.resultType))
          undefinedIds_.insert(instruction.result);
  }
  maybeUndefined_ = undefinedIds_;
  for (const Block *block : cfg_->order())
    for (const Instruction &instruction : block->instructions)
      if (deferredShuffle(instruction) && shadowed(instruction.resultType))
        maybeUndefined_.insert(instruction.result);
  if (maybeUndefined_.empty())
    return;
  for (bool changed = true; changed;) {
    changed = false;
    for (const Block *block : cfg_->order())
      for (const Instruction &instruction : block->instructions) {
        if (!instruction.result || maybeUndefined_.count(instruction.result) ||
            !shadowed(instruction.resultType) || !propagatesUndefined(module_, instruction))
          continue;
        bool undefinedOperand = false;
        if (instruction.opcode == spv::OpPhi) {
          for (size_t k = 0; k + 1 < instruction.operands.size(); k += 2)
            undefinedOperand |= maybeUndefined_.count(instruction.operands[k]) != 0;
        } else {
          instruction.forEachIdOperand(
              [&](uint32_t id) { undefinedOperand |= maybeUndefined_.count(id) != 0; });
        }
        if (undefinedOperand) {
          maybeUndefined_.insert(instruction.result);
          changed = true;
        }
      }
  }
}

// The shadow of a maybe-undefined result (not a phi: its edges copy it).
// OpSelect: the condition's shadow, and the shadows of the operands the
// lane's condition picks; a Bool AND (OR): undefined unless an operand is a
// defined false (true); otherwise the OR of the operands' shadows.
void KernelLowering::emitShadow(const Instruction &instruction, uint32_t shadow) {
  const Shadow defined{shadowConstant(false), false};
  if (deferredShuffle(instruction)) {
    // The shadow of the lane read, or shadowBadShuffle where that lane is
    // outside the sub-group or inactive (exec_check.cpp).
    const Value &index = use(instruction.idOperand(2), instruction);
    const Shadow input = shadowOf(instruction.idOperand(1)).value_or(defined);
    const auto kind = instruction.opcode == spv::OpGroupNonUniformShuffleUp
                          ? builtins::LaneSource::Up
                          : builtins::LaneSource::Down;
    emit(runtime::checkSubgroupHandler(), shadow, {index.offset, input.offset}, 1, 0,
         2 | (uint64_t(kind) << 8) | (uint64_t(index.elementBytes()) << 16) |
             (uint64_t(index.varying) << 24) | (uint64_t(input.varying) << 25));
    return;
  }
  if (instruction.opcode == spv::OpSelect) {
    const Value &condition = use(instruction.idOperand(0), instruction);
    Shadow parts[3];
    uint64_t varying = condition.varying ? 1 : 0;
    for (size_t k = 0; k < 3; ++k) {
      parts[k] = shadowOf(instruction.idOperand(k)).value_or(defined);
      varying |= uint64_t(parts[k].varying) << (k + 1);
    }
    emit(runtime::undefSelectHandler(), shadow,
         {condition.offset, parts[0].offset, parts[1].offset, parts[2].offset},
         condition.components, 0, varying);
    return;
  }
  const spv::Op op = instruction.opcode;
  if (op == spv::OpLogicalAnd || op == spv::OpLogicalOr ||
      ((op == spv::OpBitwiseAnd || op == spv::OpBitwiseOr) &&
       use(instruction.idOperand(0), instruction).scalar == Scalar::Bool)) {
    const Value &a = use(instruction.idOperand(0), instruction);
    const Value &b = use(instruction.idOperand(1), instruction);
    const Shadow sa = shadowOf(instruction.idOperand(0)).value_or(defined);
    const Shadow sb = shadowOf(instruction.idOperand(1)).value_or(defined);
    const bool isOr = op == spv::OpLogicalOr || op == spv::OpBitwiseOr;
    emit(runtime::undefLogicalHandler(), shadow, {a.offset, b.offset, sa.offset, sb.offset},
         a.components, 0,
         uint64_t(a.varying) | uint64_t(b.varying) << 1 | uint64_t(sa.varying) << 2 |
             uint64_t(sb.varying) << 3 | uint64_t(isOr) << 4);
    return;
  }
  std::vector<Shadow> parts;
  instruction.forEachIdOperand([&](uint32_t id) {
    if (auto part = shadowOf(id))
      parts.push_back(*part);
  });
  if (parts.empty())
    parts.push_back(defined);
  if (parts.size() == 1)
    parts.push_back(defined);
  emit(runtime::undefJoinHandler(parts[0].varying, parts[1].varying), shadow,
       {parts[0].offset, parts[1].offset}, 1);
  for (size_t i = 2; i < parts.size(); ++i)
    emit(runtime::undefJoinHandler(true, parts[i].varying), shadow, {shadow, parts[i].offset}, 1);
}

// ---------------------------------------------------------------------------

runtime::KernelCode KernelLowering::run() {
  code_.name = entryPoint_.name;
  // Sub-groups are slices of S lanes that never span warps: the warp width
  // is a multiple of S.
  code_.subgroupSize = defaultSubgroupSize;
  if (entryPoint_.subgroupSize) {
    const uint32_t required = *entryPoint_.subgroupSize;
    if (required != 8 && required != 16 && required != 32 && required != 64)
      throw LoadError(LoadErrorKind::Invalid,
                      "kernel '" + entryPoint_.name + "': required sub-group size " +
                          std::to_string(required) + " is not one of 8, 16, 32, 64");
    code_.requiredSubgroupSize = required;
    code_.subgroupSize = required;
  }
  code_.width = std::max(code_.subgroupSize,
                         (options_.width + code_.subgroupSize - 1) / code_.subgroupSize *
                             code_.subgroupSize);
  const Function *kernel = module_.function(entryPoint_.function);
  if (options_.checks.any()) {
    checks_ = std::make_shared<runtime::KernelChecks>();
    checks_->programLabel = options_.programLabel;
    checks_->checks = options_.checks;
    for (const auto &parameter : kernel->parameters)
      checks_->argumentNames.push_back(nameOf(parameter.first));
    code_.checks = checks_;
  }
  uint32_t nextId = module_.bound;
  flat_ = inlineCalls(module_, *kernel, nextId, origins_);
  cfg_ = std::make_unique<ControlFlowGraph>(flat_);
  uniformity_ = analyseUniformity(flat_, *cfg_, [this](const Instruction &instruction) {
    return isVaryingSource(instruction);
  });
  if (const char *all = std::getenv("LANEWISE_ALL_VARYING"); all && *all == '1')
    for (const Block *block : cfg_->order())
      for (const Instruction &instruction : block->instructions)
        if (instruction.result)
          uniformity_.varying.insert(instruction.result);

  for (const Block &block : flat_.blocks)
    for (const Instruction &instruction : block.instructions)
      if (instruction.result)
        resultTypes_[instruction.result] = instruction.resultType;
  for (const auto &[id, type] : flat_.parameters)
    resultTypes_[id] = type;
  for (const GlobalVariable &variable : module_.globalVariables)
    resultTypes_[variable.id] = variable.pointerType;
  for (const auto &[id, constant] : module_.constants)
    resultTypes_[id] = constant.type;
  bindArguments(flat_);
  findPromotableVariables();

  findBlockLocalValues();
  // Registers for every result, so that phis can name values of later blocks.
  for (const Block *block : cfg_->order())
    for (const Instruction &instruction : block->instructions) {
      if (!instruction.result || !instruction.resultType)
        continue;
      const Type &type = typeOf(module_, instruction.resultType);
      if (type.kind == Type::Kind::Void)
        continue;
      const bool varying = uniformity_.isVarying(instruction.result);
      if (instruction.opcode == spv::OpLoad || instruction.opcode == spv::OpAccessChain ||
          instruction.opcode == spv::OpInBoundsAccessChain) {
        // Loads and component pointers of built-in variables are bound when
        // lowered.
        const GlobalVariable *variable = module_.globalVariable(instruction.idOperand(0));
        if (variable && variable->builtin)
          continue;
      }
      if (localUses_.count(instruction.result))
        continue; // registers from the pool when the instruction is lowered
      if (promoted_.count(instruction.result)) {
        // The variable's value itself, one element per lane.
        values_.emplace(instruction.result,
                        makeValue(typeOf(module_, instruction.resultType).element, true));
        continue;
      }
      values_.emplace(instruction.result, makeValue(instruction.resultType, varying));
      if (instruction.opcode == spv::OpPhi && needsStaging(*block))
        phiStaging_.emplace(instruction.result, makeValue(instruction.resultType, varying));
    }

  if (checking(runtime::Check::Uninit) || checking(runtime::Check::Subgroups)) {
    findMaybeUndefined();
    for (const Block *block : cfg_->order())
      for (const Instruction &instruction : block->instructions) {
        if (!maybeUndefined_.count(instruction.result) || undefinedIds_.count(instruction.result))
          continue;
        undefShadow_.emplace(instruction.result, allocate(1, true));
        if (phiStaging_.count(instruction.result))
          undefShadowStaging_.emplace(instruction.result, allocate(1, true));
      }
  }

  // Bytecode blocks: each SPIR-V block, split after each work-group barrier.
  const uint32_t n = cfg_->size();
  firstPiece_.assign(n + 1, 0);
  for (uint32_t b = 0; b < n; ++b) {
    uint32_t pieces = 1;
    for (const Instruction &instruction : cfg_->order()[b]->instructions)
      if (instruction.opcode == spv::OpControlBarrier)
        ++pieces;
    firstPiece_[b + 1] = firstPiece_[b] + pieces;
  }
  code_.blocks.resize(firstPiece_[n]);

  for (uint32_t b = 0; b < n; ++b) {
    const Block &block = *cfg_->order()[b];
    uint32_t piece = firstPiece_[b];
    code_.blocks[piece].firstInstruction = static_cast<uint32_t>(code_.instructions.size());
    code_.blocks[piece].sourceLabel = block.label;
    for (const Instruction &phi : block.instructions) {
      if (phi.opcode != spv::OpPhi)
        break;
      if (!phiStaging_.count(phi.result))
        break; // the edges write the phis themselves
      const Value &target = values_.at(phi.result);
      const Value &staging = phiStaging_.at(phi.result);
      std::function<void(const Value &, const Value &)> addCopies = [&](const Value &from,
                                                                        const Value &to) {
        if (to.kind == Value::Kind::Aggregate) {
          for (size_t i = 0; i < to.members.size(); ++i)
            addCopies(from.members[i], to.members[i]);
          return;
        }
        code_.blocks[piece].phiCopies.push_back(
            {from.offset, to.offset, to.elementBytes(), to.components, from.varying, to.varying});
      };
      addCopies(staging, target);
      if (auto shadow = undefShadowStaging_.find(phi.result); shadow != undefShadowStaging_.end())
        code_.blocks[piece].phiCopies.push_back(
            {shadow->second, undefShadow_.at(phi.result), 1, 1, true, true});
    }
    for (const Instruction &original : block.instructions) {
      Instruction instruction = original;
      current_ = &instruction;
      if (instruction.opcode == spv::OpPhi || isBlockTerminator(instruction.opcode))
        continue;
      if (instruction.opcode == spv::OpControlBarrier) {
        const auto scope = module_.constantValue(instruction.idOperand(0));
        if (!scope)
          fail(instruction, "the execution scope must be a constant");
        if (*scope == spv::ScopeSubgroup)
          continue; // a sub-group never spans warps: its lanes run in lockstep
        runtime::Block &ending = code_.blocks[piece];
        ending.instructionCount =
            static_cast<uint32_t>(code_.instructions.size()) - ending.firstInstruction;
        ending.terminator.kind = runtime::Terminator::Kind::Barrier;
        ending.terminator.target = {piece + 1};
        const auto semantics = module_.constantValue(instruction.idOperand(2));
        if (!semantics)
          fail(instruction, "the memory semantics must be a constant");
        ending.terminator.barrierFences =
            (*semantics & spv::MemorySemanticsWorkgroupMemoryMask ? uint32_t(runtime::FenceLocal)
                                                                  : 0u) |
            (*semantics & spv::MemorySemanticsCrossWorkgroupMemoryMask
                 ? uint32_t(runtime::FenceGlobal)
                 : 0u);
        if (checking(runtime::Check::Barriers))
          ending.terminator.checkSite =
              addSite(instruction, 0, runtime::CheckSite::Space::Generic, false);
        ending.terminator.edgeCopies.resize(1);
        code_.hasBarrier = true;
        ++piece;
        code_.blocks[piece].firstInstruction = static_cast<uint32_t>(code_.instructions.size());
        code_.blocks[piece].sourceLabel = block.label;
        continue;
      }
      const bool local = localUses_.count(instruction.result) != 0;
      if (local && !boundWhenLowered(instruction)) {
        pooling_ = true;
        values_.emplace(instruction.result,
                        makeValue(instruction.resultType, uniformity_.isVarying(instruction.result)));
        pooling_ = false;
      }
      lowerInstruction(instruction);
      // Operands whose last use this was give their registers back.
      instruction.forEachIdOperand([&](uint32_t id) {
        auto it = localUses_.find(id);
        if (it != localUses_.end() && --it->second == 0) {
          auto value = values_.find(id);
          if (value != values_.end() && value->second.kind != Value::Kind::Builtin)
            release(value->second);
        }
      });
    }
    current_ = &block.terminator();
    if (const Instruction &t = block.terminator();
        t.opcode == spv::OpBranchConditional && t.idOperand(1) != t.idOperand(2))
      checkDefined(t.idOperand(0), t, runtime::UndefinedUse::BranchCondition);
    else if (t.opcode == spv::OpSwitch)
      checkDefined(t.idOperand(0), t, runtime::UndefinedUse::SwitchSelector);
    runtime::Block &last = code_.blocks[piece];
    last.instructionCount =
        static_cast<uint32_t>(code_.instructions.size()) - last.firstInstruction;
    last.terminator = lowerTerminator(block, b);
  }
  runtime::MemoryLayout &memory = code_.memory;
  memory.privateBytesPerLane = (memory.privateBytesPerLane + memory.privateAlignment - 1) /
                               memory.privateAlignment * memory.privateAlignment;
  // The warps of a work-group keep their registers one after another: a
  // whole number of varying alignments each, so that every warp's registers
  // are as aligned as the first warp's (a file ending with a 4-byte uniform
  // put the second warp's 8-byte registers at addresses 4 mod 8).
  code_.registerBytes =
      (code_.registerBytes + varyingAlignment - 1) / varyingAlignment * varyingAlignment;
  return std::move(code_);
}

void KernelLowering::bindArguments(const Function &function) {
  for (const auto &[id, typeId] : function.parameters) {
    const Type &type = typeOf(module_, typeId);
    runtime::ArgumentBinding binding;
    Value value;
    value.scalar = Scalar::I64;
    if (type.kind == Type::Kind::Pointer) {
      value.isPointer = true;
      value.offset = allocate(8, false);
      binding.offset = value.offset;
      binding.registerSize = 8;
      binding.size = 8;
      switch (type.storageClass) {
      case spv::StorageClassWorkgroup:
        binding.kind = runtime::ArgumentBinding::Kind::LocalBuffer;
        break;
      case spv::StorageClassFunction: {
        // A struct passed by value (FuncParamAttr ByVal): the register holds
        // the address of the argument's bytes.
        binding.kind = runtime::ArgumentBinding::Kind::ByValue;
        binding.size = static_cast<uint32_t>(byteSize(module_, type.element));
        break;
      }
      default:
        binding.kind = runtime::ArgumentBinding::Kind::GlobalBuffer;
        break;
      }
    } else {
      value = makeValue(typeId, false);
      if (value.kind == Value::Kind::Aggregate)
        throw LoadError(LoadErrorKind::Invalid, "kernel '" + entryPoint_.name +
                                                    "': aggregate argument %" + std::to_string(id) +
                                                    " passed without ByVal is not supported");
      binding.kind = runtime::ArgumentBinding::Kind::Value;
      binding.offset = value.offset;
      binding.registerSize = value.components * value.elementBytes();
      binding.size = static_cast<uint32_t>(byteSize(module_, typeId));
    }
    code_.arguments.push_back(binding);
    values_.emplace(id, value);
  }
}

uint32_t KernelLowering::displaced(const Value &pointer, uint64_t displacement) {
  if (displacement == 0)
    return pointer.offset;
  const uint32_t reg = allocate(8, pointer.varying);
  emit(runtime::pointerOffsetHandler(0, Shape{pointer.varying, {pointer.varying}}), reg,
       {pointer.offset}, 1, 0, displacement);
  return reg;
}

void KernelLowering::loadInto(const Value &pointer, uint64_t displacement, uint32_t typeId,
                              const Value &result) {
  const Type &type = typeOf(module_, typeId);
  if (result.kind == Value::Kind::Aggregate) {
    std::vector<uint64_t> offsets;
    std::vector<uint32_t> memberTypes;
    if (type.kind == Type::Kind::Struct) {
      offsets = memberOffsets(module_, typeId);
      memberTypes = type.members;
    } else {
      for (uint32_t i = 0; i < type.count; ++i) {
        offsets.push_back(i * byteSize(module_, type.element));
        memberTypes.push_back(type.element);
      }
    }
    for (size_t i = 0; i < result.members.size(); ++i)
      loadInto(pointer, displacement + offsets[i], memberTypes[i], result.members[i]);
    return;
  }
  const uint32_t address =
      checkedAddress(pointer, displaced(pointer, displacement), accessBytes(result),
                     requiredAlignment(result), false);
  emit(runtime::loadHandler(result.elementBytes(), Shape{result.varying, {pointer.varying}}),
       result.offset, {address}, result.components);
}

void KernelLowering::storeFrom(const Value &pointer, uint64_t displacement, uint32_t typeId,
                               const Value &value) {
  const Type &type = typeOf(module_, typeId);
  if (value.kind == Value::Kind::Aggregate) {
    std::vector<uint64_t> offsets;
    std::vector<uint32_t> memberTypes;
    if (type.kind == Type::Kind::Struct) {
      offsets = memberOffsets(module_, typeId);
      memberTypes = type.members;
    } else {
      for (uint32_t i = 0; i < type.count; ++i) {
        offsets.push_back(i * byteSize(module_, type.element));
        memberTypes.push_back(type.element);
      }
    }
    for (size_t i = 0; i < value.members.size(); ++i)
      storeFrom(pointer, displacement + offsets[i], memberTypes[i], value.members[i]);
    return;
  }
  const uint32_t address =
      checkedAddress(pointer, displaced(pointer, displacement), accessBytes(value),
                     requiredAlignment(value), true);
  emit(runtime::storeHandler(value.elementBytes(), Shape{false, {pointer.varying, value.varying}}),
       0, {address, value.offset}, value.components);
}

// Pointer arithmetic of OpAccessChain and OpPtrAccessChain: constant indices
// fold into one displacement; each other index adds index * stride.
void KernelLowering::lowerAccessChain(const Instruction &instruction, const Value &result) {
  const Value base = use(instruction.idOperand(0), instruction);
  const bool ptrChain = instruction.opcode == spv::OpPtrAccessChain ||
                        instruction.opcode == spv::OpInBoundsPtrAccessChain;
  uint32_t pointeeType = 0;
  {
    // The base's pointer type: from its defining instruction, a parameter or
    // a global variable.
    const uint32_t baseTypeId = typeOfId(instruction.idOperand(0), instruction);
    pointeeType = typeOf(module_, baseTypeId).element;
  }

  uint32_t reg = base.offset;
  bool varying = base.varying;
  uint64_t displacement = 0;
  auto addIndex = [&](uint32_t indexId, uint64_t stride) {
    if (auto constant = module_.constantValue(indexId)) {
      const Type &indexType = typeOf(module_, module_.constant(indexId)->type);
      int64_t index = static_cast<int64_t>(*constant);
      if (indexType.width == 32)
        index = static_cast<int32_t>(*constant);
      displacement += static_cast<uint64_t>(index) * stride;
      return;
    }
    const Value &index = use(indexId, instruction);
    const bool resultVarying = varying || index.varying;
    const uint32_t next = allocate(8, resultVarying);
    emit(runtime::pointerOffsetHandler(index.elementBytes(),
                                       Shape{resultVarying, {varying, index.varying}}),
         next, {reg, index.offset}, 1, index.elementBytes(), stride);
    reg = next;
    varying = resultVarying;
  };

  size_t first = 1;
  if (ptrChain) {
    addIndex(instruction.idOperand(1), byteSize(module_, pointeeType));
    first = 2;
  }
  uint32_t current = pointeeType;
  for (size_t i = first; i < instruction.operands.size(); ++i) {
    const Type &type = typeOf(module_, current);
    const uint32_t indexId = instruction.idOperand(i);
    switch (type.kind) {
    case Type::Kind::Struct: {
      const auto member = module_.constantValue(indexId);
      if (!member)
        fail(instruction, "a struct member index must be a constant");
      displacement += memberOffsets(module_, current).at(*member);
      current = type.members.at(*member);
      break;
    }
    case Type::Kind::Array:
    case Type::Kind::RuntimeArray:
      addIndex(indexId, byteSize(module_, type.element));
      current = type.element;
      break;
    case Type::Kind::Vector:
      addIndex(indexId, byteSize(module_, type.element));
      current = type.element;
      break;
    default:
      fail(instruction, "cannot index into a value of this type");
    }
  }
  Value chained = base;
  chained.offset = reg;
  chained.varying = varying;
  // The last step can write the result itself.
  if (displacement == 0 && reg != base.offset && varying == result.varying &&
      code_.instructions.back().result == reg) {
    code_.instructions.back().result = result.offset;
    return;
  }
  const uint32_t final = displaced(chained, displacement);
  if (final != reg && varying == result.varying) {
    code_.instructions.back().result = result.offset;
    return;
  }
  emit(runtime::copyComponentsHandler(8, Shape{result.varying, {varying}}), result.offset, {final},
       1);
}

std::optional<runtime::BuiltinValue> builtinValue(spv::BuiltIn builtin) {
  using runtime::BuiltinValue;
  switch (builtin) {
  case spv::BuiltInGlobalInvocationId:
    return BuiltinValue::GlobalInvocationId;
  case spv::BuiltInLocalInvocationId:
    return BuiltinValue::LocalInvocationId;
  case spv::BuiltInWorkgroupId:
    return BuiltinValue::WorkgroupId;
  case spv::BuiltInNumWorkgroups:
    return BuiltinValue::NumWorkgroups;
  case spv::BuiltInGlobalSize:
    return BuiltinValue::GlobalSize;
  case spv::BuiltInWorkgroupSize:
    return BuiltinValue::WorkgroupSize;
  case spv::BuiltInEnqueuedWorkgroupSize:
    return BuiltinValue::EnqueuedWorkgroupSize;
  case spv::BuiltInGlobalOffset:
    return BuiltinValue::GlobalOffset;
  case spv::BuiltInGlobalLinearId:
    return BuiltinValue::GlobalLinearId;
  case spv::BuiltInLocalInvocationIndex:
    return BuiltinValue::LocalInvocationIndex;
  case spv::BuiltInWorkDim:
    return BuiltinValue::WorkDim;
  case spv::BuiltInSubgroupSize:
    return BuiltinValue::SubgroupSize;
  case spv::BuiltInSubgroupMaxSize:
    return BuiltinValue::SubgroupMaxSize;
  case spv::BuiltInNumSubgroups:
    return BuiltinValue::NumSubgroups;
  case spv::BuiltInNumEnqueuedSubgroups:
    return BuiltinValue::NumEnqueuedSubgroups;
  case spv::BuiltInSubgroupId:
    return BuiltinValue::SubgroupId;
  case spv::BuiltInSubgroupLocalInvocationId:
    return BuiltinValue::SubgroupLocalInvocationId;
  case spv::BuiltInSubgroupEqMask:
    return BuiltinValue::SubgroupEqMask;
  case spv::BuiltInSubgroupGeMask:
    return BuiltinValue::SubgroupGeMask;
  case spv::BuiltInSubgroupGtMask:
    return BuiltinValue::SubgroupGtMask;
  case spv::BuiltInSubgroupLeMask:
    return BuiltinValue::SubgroupLeMask;
  case spv::BuiltInSubgroupLtMask:
    return BuiltinValue::SubgroupLtMask;
  default:
    return std::nullopt;
  }
}

std::optional<runtime::BinaryOp> binaryOp(spv::Op opcode) {
  using runtime::BinaryOp;
  switch (opcode) {
  case spv::OpIAdd:
    return BinaryOp::IAdd;
  case spv::OpISub:
    return BinaryOp::ISub;
  case spv::OpIMul:
    return BinaryOp::IMul;
  case spv::OpUDiv:
    return BinaryOp::UDiv;
  case spv::OpSDiv:
    return BinaryOp::SDiv;
  case spv::OpUMod:
    return BinaryOp::UMod;
  case spv::OpSRem:
    return BinaryOp::SRem;
  case spv::OpSMod:
    return BinaryOp::SMod;
  case spv::OpShiftLeftLogical:
    return BinaryOp::ShiftLeftLogical;
  case spv::OpShiftRightLogical:
    return BinaryOp::ShiftRightLogical;
  case spv::OpShiftRightArithmetic:
    return BinaryOp::ShiftRightArithmetic;
  case spv::OpBitwiseAnd:
    return BinaryOp::BitwiseAnd;
  case spv::OpBitwiseOr:
    return BinaryOp::BitwiseOr;
  case spv::OpBitwiseXor:
    return BinaryOp::BitwiseXor;
  case spv::OpFAdd:
    return BinaryOp::FAdd;
  case spv::OpFSub:
    return BinaryOp::FSub;
  case spv::OpFMul:
    return BinaryOp::FMul;
  case spv::OpFDiv:
    return BinaryOp::FDiv;
  case spv::OpFRem:
    return BinaryOp::FRem;
  case spv::OpFMod:
    return BinaryOp::FMod;
  case spv::OpIEqual:
    return BinaryOp::IEqual;
  case spv::OpINotEqual:
    return BinaryOp::INotEqual;
  case spv::OpUGreaterThan:
    return BinaryOp::UGreaterThan;
  case spv::OpSGreaterThan:
    return BinaryOp::SGreaterThan;
  case spv::OpUGreaterThanEqual:
    return BinaryOp::UGreaterThanEqual;
  case spv::OpSGreaterThanEqual:
    return BinaryOp::SGreaterThanEqual;
  case spv::OpULessThan:
    return BinaryOp::ULessThan;
  case spv::OpSLessThan:
    return BinaryOp::SLessThan;
  case spv::OpULessThanEqual:
    return BinaryOp::ULessThanEqual;
  case spv::OpSLessThanEqual:
    return BinaryOp::SLessThanEqual;
  case spv::OpFOrdEqual:
    return BinaryOp::FOrdEqual;
  case spv::OpFUnordEqual:
    return BinaryOp::FUnordEqual;
  case spv::OpFOrdNotEqual:
    return BinaryOp::FOrdNotEqual;
  case spv::OpFUnordNotEqual:
    return BinaryOp::FUnordNotEqual;
  case spv::OpFOrdLessThan:
    return BinaryOp::FOrdLessThan;
  case spv::OpFUnordLessThan:
    return BinaryOp::FUnordLessThan;
  case spv::OpFOrdGreaterThan:
    return BinaryOp::FOrdGreaterThan;
  case spv::OpFUnordGreaterThan:
    return BinaryOp::FUnordGreaterThan;
  case spv::OpFOrdLessThanEqual:
    return BinaryOp::FOrdLessThanEqual;
  case spv::OpFUnordLessThanEqual:
    return BinaryOp::FUnordLessThanEqual;
  case spv::OpFOrdGreaterThanEqual:
    return BinaryOp::FOrdGreaterThanEqual;
  case spv::OpFUnordGreaterThanEqual:
    return BinaryOp::FUnordGreaterThanEqual;
  case spv::OpLessOrGreater:
    return BinaryOp::LessOrGreater;
  case spv::OpOrdered:
    return BinaryOp::Ordered;
  case spv::OpUnordered:
    return BinaryOp::Unordered;
  case spv::OpLogicalEqual:
    return BinaryOp::LogicalEqual;
  case spv::OpLogicalNotEqual:
    return BinaryOp::LogicalNotEqual;
  case spv::OpLogicalAnd:
    return BinaryOp::LogicalAnd;
  case spv::OpLogicalOr:
    return BinaryOp::LogicalOr;
  case spv::OpPtrEqual:
    return BinaryOp::IEqual;
  case spv::OpPtrNotEqual:
    return BinaryOp::INotEqual;
  default:
    return std::nullopt;
  }
}

std::optional<runtime::UnaryOp> unaryOp(spv::Op opcode) {
  using runtime::UnaryOp;
  switch (opcode) {
  case spv::OpSNegate:
    return UnaryOp::SNegate;
  case spv::OpNot:
    return UnaryOp::Not;
  case spv::OpBitCount:
    return UnaryOp::BitCount;
  case spv::OpBitReverse:
    return UnaryOp::BitReverse;
  case spv::OpFNegate:
    return UnaryOp::FNegate;
  case spv::OpQuantizeToF16:
    return UnaryOp::QuantizeToF16;
  case spv::OpIsNan:
    return UnaryOp::IsNan;
  case spv::OpIsInf:
    return UnaryOp::IsInf;
  case spv::OpIsFinite:
    return UnaryOp::IsFinite;
  case spv::OpIsNormal:
    return UnaryOp::IsNormal;
  case spv::OpSignBitSet:
    return UnaryOp::SignBitSet;
  case spv::OpLogicalNot:
    return UnaryOp::LogicalNot;
  default:
    return std::nullopt;
  }
}

std::optional<runtime::AtomicOp> atomicOp(spv::Op opcode) {
  using runtime::AtomicOp;
  switch (opcode) {
  case spv::OpAtomicLoad:
    return AtomicOp::Load;
  case spv::OpAtomicStore:
    return AtomicOp::Store;
  case spv::OpAtomicExchange:
    return AtomicOp::Exchange;
  case spv::OpAtomicCompareExchange:
  case spv::OpAtomicCompareExchangeWeak:
    return AtomicOp::CompareExchange;
  case spv::OpAtomicIIncrement:
    return AtomicOp::IIncrement;
  case spv::OpAtomicIDecrement:
    return AtomicOp::IDecrement;
  case spv::OpAtomicIAdd:
    return AtomicOp::IAdd;
  case spv::OpAtomicISub:
    return AtomicOp::ISub;
  case spv::OpAtomicSMin:
    return AtomicOp::SMin;
  case spv::OpAtomicUMin:
    return AtomicOp::UMin;
  case spv::OpAtomicSMax:
    return AtomicOp::SMax;
  case spv::OpAtomicUMax:
    return AtomicOp::UMax;
  case spv::OpAtomicAnd:
    return AtomicOp::And;
  case spv::OpAtomicOr:
    return AtomicOp::Or;
  case spv::OpAtomicXor:
    return AtomicOp::Xor;
  case spv::OpAtomicFlagTestAndSet:
    return AtomicOp::FlagTestAndSet;
  case spv::OpAtomicFlagClear:
    return AtomicOp::FlagClear;
  case spv::OpAtomicFAddEXT:
    return AtomicOp::FAdd;
  case spv::OpAtomicFMinEXT:
    return AtomicOp::FMin;
  case spv::OpAtomicFMaxEXT:
    return AtomicOp::FMax;
  default:
    return std::nullopt;
  }
}

std::optional<builtins::Math> openclStdFunction(uint32_t instruction) {
  using builtins::Math;
  using namespace OpenCLLIB;
  switch (instruction) {
  case Fabs: return Math::Fabs;
  case Sqrt: case Native_sqrt: case Half_sqrt: return Math::Sqrt;
  case Rsqrt: case Native_rsqrt: case Half_rsqrt: return Math::Rsqrt;
  case Floor: return Math::Floor;
  case Ceil: return Math::Ceil;
  case Trunc: return Math::Trunc;
  case Round: return Math::Round;
  case Rint: return Math::Rint;
  case Exp: case Native_exp: case Half_exp: return Math::Exp;
  case Exp2: case Native_exp2: case Half_exp2: return Math::Exp2;
  case Exp10: case Native_exp10: case Half_exp10: return Math::Exp10;
  case Expm1: return Math::Expm1;
  case Log: case Native_log: case Half_log: return Math::Log;
  case Log2: case Native_log2: case Half_log2: return Math::Log2;
  case Log10: case Native_log10: case Half_log10: return Math::Log10;
  case Log1p: return Math::Log1p;
  case Logb: return Math::Logb;
  case Sin: case Native_sin: case Half_sin: return Math::Sin;
  case Cos: case Native_cos: case Half_cos: return Math::Cos;
  case Tan: case Native_tan: case Half_tan: return Math::Tan;
  case Asin: return Math::Asin;
  case Acos: return Math::Acos;
  case Atan: return Math::Atan;
  case Sinh: return Math::Sinh;
  case Cosh: return Math::Cosh;
  case Tanh: return Math::Tanh;
  case Asinh: return Math::Asinh;
  case Acosh: return Math::Acosh;
  case Atanh: return Math::Atanh;
  case Sinpi: return Math::Sinpi;
  case Cospi: return Math::Cospi;
  case Tanpi: return Math::Tanpi;
  case Asinpi: return Math::Asinpi;
  case Acospi: return Math::Acospi;
  case Atanpi: return Math::Atanpi;
  case Cbrt: return Math::Cbrt;
  case Erf: return Math::Erf;
  case Erfc: return Math::Erfc;
  case Tgamma: return Math::Tgamma;
  case Lgamma: return Math::Lgamma;
  case Native_recip: case Half_recip: return Math::Recip;
  case Degrees: return Math::Degrees;
  case Radians: return Math::Radians;
  case Sign: return Math::Sign;
  case Fmin: case FMin_common: return Math::Fmin;
  case Fmax: case FMax_common: return Math::Fmax;
  case Pow: return Math::Pow;
  case Powr: case Native_powr: case Half_powr: return Math::Powr;
  case Fmod: return Math::Fmod;
  case Copysign: return Math::Copysign;
  case Hypot: return Math::Hypot;
  case Atan2: return Math::Atan2;
  case Atan2pi: return Math::Atan2pi;
  case Fdim: return Math::Fdim;
  case Maxmag: return Math::Maxmag;
  case Minmag: return Math::Minmag;
  case Remainder: return Math::Remainder;
  case Nextafter: return Math::Nextafter;
  case Native_divide: case Half_divide: return Math::Divide;
  case Step: return Math::Step;
  case Fma: return Math::Fma;
  case Mad: return Math::Mad;
  case Mix: return Math::Mix;
  case FClamp: return Math::FClamp;
  case Smoothstep: return Math::Smoothstep;
  case SAbs: return Math::SAbs;
  case UAbs: return Math::UAbs;
  case Popcount: return Math::Popcount;
  case Clz: return Math::Clz;
  case Ctz: return Math::Ctz;
  case SMin: return Math::SMin;
  case SMax: return Math::SMax;
  case UMin: return Math::UMin;
  case UMax: return Math::UMax;
  case SMul_hi: return Math::MulHiS;
  case UMul_hi: return Math::MulHiU;
  case SAbs_diff: return Math::SAbsDiff;
  case UAbs_diff: return Math::UAbsDiff;
  case SAdd_sat: return Math::SAddSat;
  case UAdd_sat: return Math::UAddSat;
  case SSub_sat: return Math::SSubSat;
  case USub_sat: return Math::USubSat;
  case SHadd: return Math::SHadd;
  case UHadd: return Math::UHadd;
  case SRhadd: return Math::SRhadd;
  case URhadd: return Math::URhadd;
  case SMul24: return Math::SMul24;
  case UMul24: return Math::UMul24;
  case Rotate: return Math::Rotate;
  case SClamp: return Math::SClamp;
  case UClamp: return Math::UClamp;
  case SMad_hi: return Math::SMadHi;
  case UMad_hi: return Math::UMadHi;
  case SMad_sat: return Math::SMadSat;
  case UMad_sat: return Math::UMadSat;
  case SMad24: return Math::SMad24;
  case UMad24: return Math::UMad24;
  default: return std::nullopt;
  }
}

runtime::Rounding roundingOf(const Module &module, uint32_t id) {
  if (const Decoration *d = module.decoration(id, spv::DecorationFPRoundingMode)) {
    switch (d->operands.at(0)) {
    case spv::FPRoundingModeRTE:
      return runtime::Rounding::RTE;
    case spv::FPRoundingModeRTZ:
      return runtime::Rounding::RTZ;
    case spv::FPRoundingModeRTP:
      return runtime::Rounding::RTP;
    case spv::FPRoundingModeRTN:
      return runtime::Rounding::RTN;
    default:
      break;
    }
  }
  return runtime::Rounding::Default;
}

} // namespace

const Value &KernelLowering::builtinRegister(spv::BuiltIn builtin, const Instruction &user) {
  auto it = builtinRegisters_.find(builtin);
  if (it != builtinRegisters_.end())
    return it->second;
  const auto which = builtinValue(builtin);
  if (!which)
    fail(user, "built-in " + builtInName(builtin) + " is not supported");
  // The variable's type: a 3-vector of size_t, or a scalar.
  uint32_t pointee = 0;
  for (const GlobalVariable &variable : module_.globalVariables)
    if (variable.builtin == builtin)
      pointee = typeOf(module_, variable.pointerType).element;
  Value value = makeValue(pointee, isVaryingBuiltin(builtin));
  code_.builtins.push_back(
      {*which, value.offset, value.components, value.varying, value.elementBytes() == 8});
  return builtinRegisters_.emplace(builtin, value).first->second;
}

void KernelLowering::lowerInstruction(const Instruction &instruction) {
  const spv::Op op = instruction.opcode;
  auto result = [&]() -> const Value & { return values_.at(instruction.result); };
  auto operand = [&](size_t i) -> const Value & {
    return use(instruction.idOperand(i), instruction);
  };
  if (!undefShadow_.empty())
    if (auto shadow = undefShadow_.find(instruction.result); shadow != undefShadow_.end())
      emitShadow(instruction, shadow->second);

  if (auto binary = binaryOp(op)) {
    const Value &a = operand(0), &b = operand(1);
    checkNarrowOperation(a, instruction);
    const bool isSigned = op == spv::OpSDiv || op == spv::OpSRem || op == spv::OpSMod;
    if ((isSigned || op == spv::OpUDiv || op == spv::OpUMod) &&
        checking(runtime::Check::Division) && a.elementBytes() <= 8 && !a.narrowBits)
      emit(runtime::checkDivisionHandler(a.scalar, Shape{a.varying || b.varying,
                                                          {a.varying, b.varying}}),
           0, {a.offset, b.offset}, a.components,
           addSite(instruction, 0, runtime::CheckSite::Space::Generic, false), isSigned ? 1 : 0);
    emit(runtime::binaryHandler(*binary, a.scalar, Shape{result().varying, {a.varying, b.varying}}),
         result().offset, {a.offset, b.offset}, result().components);
    truncateNarrow(result());
    return;
  }
  if (auto unary = unaryOp(op)) {
    const Value &a = operand(0);
    checkNarrowOperation(a, instruction);
    emit(runtime::unaryHandler(*unary, a.scalar, Shape{result().varying, {a.varying}}),
         result().offset, {a.offset}, result().components);
    truncateNarrow(result());
    return;
  }
  if (auto atomic = atomicOp(op)) {
    const Value &pointer = operand(0);
    const Value *value = nullptr, *comparator = nullptr;
    Scalar type = Scalar::I32;
    uint32_t resultRegister = 0;
    bool resultVarying = false;
    switch (op) {
    case spv::OpAtomicStore:
      value = &operand(3);
      type = value->scalar;
      break;
    case spv::OpAtomicFlagClear:
      break;
    case spv::OpAtomicCompareExchange:
    case spv::OpAtomicCompareExchangeWeak:
      value = &operand(4);
      comparator = &operand(5);
      break;
    case spv::OpAtomicLoad:
    case spv::OpAtomicIIncrement:
    case spv::OpAtomicIDecrement:
    case spv::OpAtomicFlagTestAndSet:
      break;
    default:
      value = &operand(3);
      break;
    }
    if (instruction.result) {
      resultRegister = result().offset;
      resultVarying = result().varying;
      if (op != spv::OpAtomicFlagTestAndSet)
        type = result().scalar;
    }
    const uint32_t aux = (pointer.varying ? 1 : 0) | (value && value->varying ? 2 : 0) |
                         (comparator && comparator->varying ? 4 : 0) | (resultVarying ? 8 : 0);
    const uint32_t bytes = op == spv::OpAtomicFlagTestAndSet || op == spv::OpAtomicFlagClear
                               ? 4
                               : runtime::scalarSize(type);
    const bool writes = op != spv::OpAtomicLoad;
    if (!maybeUndefined_.empty()) {
      checkDefined(instruction.idOperand(0), instruction, runtime::UndefinedUse::Address);
      for (size_t i : {size_t(3), size_t(4), size_t(5)})
        if (value && instruction.operands.size() > i)
          checkDefined(instruction.idOperand(i), instruction, runtime::UndefinedUse::AtomicOperand);
    }
    emit(runtime::atomicHandler(*atomic, type, Shape{}), resultRegister,
         {checkedAddress(pointer, pointer.offset, bytes, bytes, writes),
          value ? value->offset : 0u, comparator ? comparator->offset : 0u},
         1, aux);
    return;
  }

  if (isConversion(op)) {
    const Value &a = operand(0);
    const Value &r = result();
    const bool fromSigned =
        op == spv::OpConvertSToF || op == spv::OpSConvert || op == spv::OpSatConvertSToU;
    const bool toSigned =
        op == spv::OpConvertFToS || op == spv::OpSConvert || op == spv::OpSatConvertUToS;
    const bool saturate =
        op == spv::OpSatConvertSToU || op == spv::OpSatConvertUToS ||
        module_.hasDecoration(decorated(instruction.result), spv::DecorationSaturatedConversion);
    const runtime::Rounding rounding = roundingOf(module_, decorated(instruction.result));
    if (a.narrowBits && fromSigned)
      fail(instruction, "sign extension of " + std::to_string(a.narrowBits) +
                            "-bit integers is not supported");
    emit(runtime::convertHandler({a.scalar, fromSigned}, {r.scalar, toSigned}, rounding, saturate,
                                 Shape{r.varying, {a.varying}}),
         r.offset, {a.offset}, r.components,
         static_cast<uint32_t>(rounding) | (saturate ? 0x100u : 0u));
    truncateNarrow(r);
    return;
  }
  switch (op) {
  case spv::OpNop:
  case spv::OpLifetimeStart:
  case spv::OpLifetimeStop:
  case spv::OpMemoryBarrier:   // host memory is coherent; warps of a group run in turn
  case spv::OpUndef:           // any value will do
  case spv::OpGroupWaitEvents: // copies complete when issued
  case spv::OpLine:
  case spv::OpNoLine:
  case spv::OpName:
    return;

  case spv::OpSelect: {
    const Value &condition = operand(0);
    std::function<void(const Value &, const Value &, const Value &)> select =
        [&](const Value &a, const Value &b, const Value &r) {
          if (r.kind == Value::Kind::Aggregate) {
            for (size_t i = 0; i < r.members.size(); ++i)
              select(a.members[i], b.members[i], r.members[i]);
            return;
          }
          emit(runtime::selectHandler(r.elementBytes(),
                                      Shape{r.varying, {condition.varying, a.varying, b.varying}}),
               r.offset, {condition.offset, a.offset, b.offset}, r.components,
               condition.components == 1 && r.components > 1 ? 1 : 0);
        };
    select(operand(1), operand(2), result());
    return;
  }
  case spv::OpAny:
  case spv::OpAll: {
    const Value &v = operand(0);
    emit(runtime::anyAllHandler(op == spv::OpAll, Shape{result().varying, {v.varying}}),
         result().offset, {v.offset}, 1, v.components);
    return;
  }
  case spv::OpIAddCarry:
  case spv::OpISubBorrow:
  case spv::OpUMulExtended:
  case spv::OpSMulExtended: {
    const Value &a = operand(0), &b = operand(1);
    const Value &r = result();
    const runtime::ExtendedOp kind = op == spv::OpIAddCarry    ? runtime::ExtendedOp::IAddCarry
                                     : op == spv::OpISubBorrow ? runtime::ExtendedOp::ISubBorrow
                                     : op == spv::OpUMulExtended
                                         ? runtime::ExtendedOp::UMulExtended
                                         : runtime::ExtendedOp::SMulExtended;
    emit(runtime::extendedHandler(kind, a.scalar, Shape{r.varying, {a.varying, b.varying}}),
         r.members.at(0).offset, {a.offset, b.offset}, r.members[0].components, 0,
         r.members.at(1).offset);
    return;
  }

  case spv::OpGenericCastToPtrExplicit: {
    // to_global, to_local, to_private: null unless the pointer points there.
    const Value &a = operand(0);
    const Value &r = result();
    const auto storage = static_cast<spv::StorageClass>(instruction.operands.at(1));
    const uint32_t space = storage == spv::StorageClassFunction    ? 1
                           : storage == spv::StorageClassWorkgroup ? 2
                                                                   : 3;
    emit(runtime::genericSpaceHandler(space, Shape{r.varying, {a.varying}}), r.offset,
         {a.offset}, 1);
    return;
  }
  case spv::OpGenericPtrMemSemantics: {
    const Value &a = operand(0);
    const Value &r = result();
    emit(runtime::genericSpaceHandler(0, Shape{r.varying, {a.varying}}), r.offset, {a.offset}, 1);
    return;
  }
  case spv::OpBitcast:
  case spv::OpPtrCastToGeneric:
  case spv::OpGenericCastToPtr: {
    const Value &a = operand(0);
    const Value &r = result();
    if (a.elementBytes() == r.elementBytes() && a.components == r.components)
      copyValue(a, r);
    else
      emit(runtime::bitcastHandler(r.elementBytes(), Shape{r.varying, {a.varying}}), r.offset,
           {a.offset}, r.components, a.components, a.elementBytes());
    return;
  }
  case spv::OpCopyObject:
  // SPIR-V 1.4: between logically matching types, which differ only in
  // decorations; their registers are alike.
  case spv::OpCopyLogical:
  case spv::OpExpectKHR: // __builtin_expect: the value itself
    copyValue(operand(0), result());
    return;
  case spv::OpVectorTimesScalar: {
    // One FMul per component, the scalar operand read for each.
    const Value &vector = operand(0), &scalar = operand(1);
    const Value &r = result();
    for (uint32_t c = 0; c < r.components; ++c)
      emit(runtime::binaryHandler(runtime::BinaryOp::FMul, r.scalar,
                                  Shape{r.varying, {vector.varying, scalar.varying}}),
           componentOffset(r, c), {componentOffset(vector, c), scalar.offset}, 1);
    return;
  }
  case spv::OpAssumeTrueKHR: // __builtin_assume: a hint
    return;

  case spv::OpCompositeConstruct: {
    const Value &r = result();
    if (r.kind == Value::Kind::Aggregate) {
      for (size_t i = 0; i < r.members.size(); ++i)
        copyValue(operand(i), r.members[i]);
      return;
    }
    uint32_t component = 0;
    for (size_t i = 0; i < instruction.operands.size(); ++i) {
      const Value &part = operand(i);
      emit(runtime::copyComponentsHandler(r.elementBytes(), Shape{r.varying, {part.varying}}),
           componentOffset(r, component), {part.offset}, part.components);
      component += part.components;
    }
    return;
  }
  case spv::OpCompositeExtract: {
    const Value *source = &operand(0);
    const Value &r = result();
    for (size_t i = 1; i < instruction.operands.size(); ++i) {
      const uint32_t index = instruction.operands[i];
      if (source->kind == Value::Kind::Aggregate) {
        source = &source->members.at(index);
        continue;
      }
      emit(runtime::copyComponentsHandler(r.elementBytes(), Shape{r.varying, {source->varying}}),
           r.offset, {componentOffset(*source, index)}, 1);
      return;
    }
    copyValue(*source, r);
    return;
  }
  case spv::OpCompositeInsert: {
    const Value &object = operand(0);
    const Value &r = result();
    copyValue(operand(1), r);
    const Value *target = &r;
    for (size_t i = 2; i < instruction.operands.size(); ++i) {
      const uint32_t index = instruction.operands[i];
      if (target->kind == Value::Kind::Aggregate) {
        target = &target->members.at(index);
        continue;
      }
      emit(runtime::copyComponentsHandler(r.elementBytes(), Shape{r.varying, {object.varying}}),
           componentOffset(*target, index), {object.offset}, 1);
      return;
    }
    copyValue(object, *target);
    return;
  }
  case spv::OpDot:
    emitGeometric(builtins::Geometric::Dot, instruction, 0);
    return;
  case spv::OpVectorShuffle: {
    const Value &a = operand(0), &b = operand(1);
    const Value &r = result();
    auto selection = std::make_shared<std::vector<uint32_t>>(instruction.operands.begin() + 2,
                                                             instruction.operands.end());
    code_.tables.push_back(selection);
    emit(runtime::vectorShuffleHandler(r.elementBytes(), Shape{r.varying, {a.varying, b.varying}}),
         r.offset, {a.offset, b.offset}, r.components, a.components, 0, selection.get());
    return;
  }
  case spv::OpVectorExtractDynamic: {
    const Value &v = operand(0), &index = operand(1);
    const Value &r = result();
    emit(runtime::extractDynamicHandler(r.elementBytes(),
                                        Shape{r.varying, {v.varying, index.varying}}),
         r.offset, {v.offset, index.offset}, 1, index.elementBytes(), v.components);
    return;
  }
  case spv::OpVectorInsertDynamic: {
    const Value &v = operand(0), &component = operand(1), &index = operand(2);
    const Value &r = result();
    emit(runtime::insertDynamicHandler(
             r.elementBytes(), Shape{r.varying, {v.varying, component.varying, index.varying}}),
         r.offset, {v.offset, component.offset, index.offset}, r.components, index.elementBytes());
    return;
  }

  case spv::OpVariable: {
    if (promoted_.count(instruction.result)) {
      if (instruction.operands.size() > 1)
        copyValue(operand(1), result());
      return;
    }
    const auto storage = static_cast<spv::StorageClass>(instruction.operands.at(0));
    if (storage != spv::StorageClassFunction)
      fail(instruction, "a function-scope variable in storage class " + storageClassName(storage) +
                            " is not supported");
    const uint32_t pointee = typeOf(module_, instruction.resultType).element;
    const uint64_t alignment = std::max<uint64_t>(alignmentOf(module_, pointee).value_or(16), 1);
    uint32_t &bytes = code_.memory.privateBytesPerLane;
    bytes = static_cast<uint32_t>((bytes + alignment - 1) / alignment * alignment);
    // Each lane's region starts at a multiple of the largest alignment.
    code_.memory.privateAlignment =
        std::max(code_.memory.privateAlignment, static_cast<uint32_t>(alignment));
    const Value &pointer = result();
    code_.addresses.push_back(
        {runtime::AddressRegister::Space::Private, pointer.offset, bytes, pointer.varying});
    const uint64_t size = byteSize(module_, pointee);
    if (checks_)
      checks_->privateVariables.push_back({bytes, size, nameOf(instruction.result)});
    bytes += static_cast<uint32_t>(size);
    if (checking(runtime::Check::Bounds))
      bytes += redZone;
    bytes = (bytes + 15) / 16 * 16;
    if (instruction.operands.size() > 1)
      storeFrom(pointer, 0, pointee, operand(1));
    return;
  }
  case spv::OpLoad: {
    if (promoted_.count(instruction.idOperand(0))) {
      copyValue(operand(0), result());
      return;
    }
    const Value &pointer = operand(0);
    if (pointer.kind == Value::Kind::Builtin) {
      const Value &builtin = builtinRegister(pointer.builtin, instruction);
      if (pointer.offset == wholeBuiltin) {
        values_[instruction.result] = builtin;
        return;
      }
      // A component of the built-in vector (an access chain into it).
      Value component =
          makeValue(instruction.resultType, uniformity_.isVarying(instruction.result));
      emit(runtime::copyComponentsHandler(component.elementBytes(),
                                          Shape{component.varying, {builtin.varying}}),
           component.offset, {componentOffset(builtin, pointer.offset)}, 1);
      values_[instruction.result] = component;
      return;
    }
    checkDefined(instruction.idOperand(0), instruction, runtime::UndefinedUse::Address);
    loadInto(pointer, 0, instruction.resultType, result());
    return;
  }
  case spv::OpStore: {
    if (promoted_.count(instruction.idOperand(0))) {
      // Each active lane's value replaces its own.
      copyValue(operand(1), operand(0));
      return;
    }
    const Value &pointer = operand(0);
    if (pointer.kind == Value::Kind::Builtin)
      fail(instruction, "stores to built-in variables are not allowed");
    checkDefined(instruction.idOperand(1), instruction, runtime::UndefinedUse::StoredValue,
                 pointer.storage == spv::StorageClassFunction);
    checkDefined(instruction.idOperand(0), instruction, runtime::UndefinedUse::Address);
    storeFrom(pointer, 0, typeOfId(instruction.idOperand(1), instruction), operand(1));
    return;
  }
  case spv::OpAccessChain:
  case spv::OpInBoundsAccessChain:
  case spv::OpPtrAccessChain:
  case spv::OpInBoundsPtrAccessChain: {
    const Value &base = operand(0);
    if (base.kind == Value::Kind::Builtin) {
      const size_t indexOperand =
          op == spv::OpAccessChain || op == spv::OpInBoundsAccessChain ? 1 : 2;
      const auto index = instruction.operands.size() > indexOperand
                             ? module_.constantValue(instruction.idOperand(indexOperand))
                             : std::optional<uint64_t>(0);
      if (!index)
        fail(instruction, "built-in vectors must be indexed by constants");
      Value component = base;
      component.offset = static_cast<uint32_t>(*index); // the component, for OpLoad
      component.components = 1;
      values_[instruction.result] = component;
      return;
    }
    instruction.forEachIdOperand(
        [&](uint32_t id) { checkDefined(id, instruction, runtime::UndefinedUse::Address); });
    lowerAccessChain(instruction, result());
    return;
  }
  case spv::OpCopyMemory:
  case spv::OpCopyMemorySized: {
    const Value &target = operand(0), &source = operand(1);
    uint32_t aux = (target.varying ? 1 : 0) | (source.varying ? 2 : 0);
    uint64_t size = 0;
    uint32_t sizeRegister = 0;
    if (op == spv::OpCopyMemory) {
      size = byteSize(module_,
                      typeOf(module_, typeOfId(instruction.idOperand(0), instruction)).element);
    } else if (auto constant = module_.constantValue(instruction.idOperand(2))) {
      size = *constant;
    } else {
      const Value &bytes = operand(2);
      sizeRegister = bytes.offset;
      aux |= 4 | (bytes.varying ? 8 : 0) | (bytes.elementBytes() << 8);
    }
    // A size in a register is checked for its first byte only.
    const uint64_t checkedBytes = sizeRegister ? 1 : size;
    emit(runtime::copyMemoryHandler(false, 0, Shape{}), 0,
         {checkedAddress(target, target.offset, checkedBytes, 1, true),
          checkedAddress(source, source.offset, checkedBytes, 1, false), sizeRegister},
         1, aux, size);
    return;
  }
  case spv::OpSizeOf: {
    // SPIR-V 1.1: the size in memory of the type the pointer points to, a
    // constant of the module.
    const Value &r = result();
    const uint64_t size =
        byteSize(module_, typeOf(module_, typeOfId(instruction.idOperand(0), instruction)).element);
    emit(runtime::copyComponentsHandler(r.elementBytes(), Shape{r.varying, {false}}), r.offset,
         {splatConstant(r, size)}, r.components);
    return;
  }
  case spv::OpPtrDiff: {
    const Value &a = operand(0), &b = operand(1);
    const Value &r = result();
    const uint64_t elementSize =
        byteSize(module_, typeOf(module_, typeOfId(instruction.idOperand(0), instruction)).element);
    const bool varying = a.varying || b.varying;
    const uint32_t difference = allocate(8, varying);
    emit(runtime::binaryHandler(runtime::BinaryOp::ISub, Scalar::I64,
                                Shape{varying, {a.varying, b.varying}}),
         difference, {a.offset, b.offset}, 1);
    Value divisor = makeValue(resultTypes_.at(instruction.result), false);
    std::vector<std::byte> bytes(8);
    std::memcpy(bytes.data(), &elementSize, 8);
    bytes.resize(divisor.elementBytes());
    code_.constants.push_back({divisor.offset, bytes});
    emit(runtime::binaryHandler(runtime::BinaryOp::SDiv, r.scalar,
                                Shape{r.varying, {varying, false}}),
         r.offset, {difference, divisor.offset}, 1);
    return;
  }
  case spv::OpGroupAsyncCopy: {
    // Operands: execution scope, destination, source, element count, stride, event.
    const Value &destination = operand(1), &source = operand(2), &count = operand(3),
                &stride = operand(4);
    const uint32_t pointerType = typeOfId(instruction.idOperand(1), instruction);
    const Type &type = typeOf(module_, pointerType);
    const bool toLocal = type.storageClass == spv::StorageClassWorkgroup;
    const uint64_t elementBytes = byteSize(module_, type.element);
    uint32_t elements = count.offset;
    if (checking(runtime::Check::Bounds)) {
      // The copy's elements are checked first (bounds only); a copy with
      // an element outside memory copies nothing (its checked count is 0).
      const uint32_t writeSite =
          addSite(instruction, 0, spaceOf(toLocal ? spv::StorageClassWorkgroup
                                                          : spv::StorageClassCrossWorkgroup),
                  true);
      const uint32_t readSite =
          addSite(instruction, 0, spaceOf(toLocal ? spv::StorageClassCrossWorkgroup
                                                          : spv::StorageClassWorkgroup),
                  false);
      checks_->sites[writeSite].skipsRaces = checks_->sites[readSite].skipsRaces = true;
      checks_->sites[readSite].skipsUninit = true;
      elements = allocate(8, false);
      emit(runtime::checkAsyncCopyHandler(), elements,
           {destination.offset, source.offset, count.offset, stride.offset}, code_.asyncCopySites,
           writeSite, elementBytes | (toLocal ? uint64_t(1) << 32 : 0));
    }
    emit(runtime::asyncCopyHandler(0), result().offset,
         {destination.offset, source.offset, elements, stride.offset}, code_.asyncCopySites++,
         toLocal ? 1 : 0, elementBytes);
    return;
  }
  case spv::OpExtInst:
    lowerExtInst(instruction);
    return;
  default:
    if (isSubgroupOperation(op))
      return lowerSubgroup(instruction);
    fail(instruction, "unsupported instruction " + opcodeName(op));
  }
}

// Sub-group operations (OpenCL C 3.0, 6.15.16, and the cl_khr_subgroup_* and
// cl_intel_subgroups extensions), bound to the handlers of exec_group.cpp.
void KernelLowering::lowerSubgroup(const Instruction &instruction) {
  const spv::Op op = instruction.opcode;
  auto operand = [&](size_t i) -> const Value & {
    return use(instruction.idOperand(i), instruction);
  };
  auto requireSubgroupScope = [&](size_t i) {
    const auto scope = module_.constantValue(instruction.idOperand(i));
    if (!scope)
      fail(instruction, "the execution scope must be a constant");
    if (*scope != spv::ScopeSubgroup)
      fail(instruction, "work-group collective functions (scope " + std::to_string(*scope) +
                            ") are not supported");
  };
  using builtins::LaneSource;
  if (checking(runtime::Check::Subgroups)) {
    switch (op) {
    case spv::OpGroupAll:
    case spv::OpGroupAny:
    case spv::OpGroupBroadcast:
    case spv::OpGroupIAdd:
    case spv::OpGroupFAdd:
    case spv::OpGroupSMin:
    case spv::OpGroupUMin:
    case spv::OpGroupFMin:
    case spv::OpGroupSMax:
    case spv::OpGroupUMax:
    case spv::OpGroupFMax:
      // Not the non-uniform forms: these must be reached by the whole sub-group.
      emit(runtime::checkSubgroupHandler(), 0, {}, 1,
           addSite(instruction, 0, runtime::CheckSite::Space::Generic, false), 0);
      break;
    default:
      break;
    }
  }
  auto shuffle = [&](LaneSource kind, const Value &input, const Value *index,
                     const Value *second) {
    const Value &r = values_.at(instruction.result);
    if (index && checking(runtime::Check::Subgroups) && !deferredShuffle(instruction))
      emit(runtime::checkSubgroupHandler(), 0, {index->offset}, 1,
           addSite(instruction, 0, runtime::CheckSite::Space::Generic, false),
           1 | (uint64_t(kind) << 8) | (uint64_t(index->elementBytes()) << 16) |
               (uint64_t(index->varying) << 24));
    const uint64_t flags = (input.varying ? 1 : 0) | (index && index->varying ? 2 : 0) |
                           (second && second->varying ? 4 : 0);
    emit(runtime::subgroupShuffleHandler(r.elementBytes()), r.offset,
         {input.offset, index ? index->offset : 0u, second ? second->offset : input.offset},
         r.components,
         static_cast<uint32_t>(kind) | ((index ? index->elementBytes() : 0u) << 8), flags);
  };
  using builtins::GroupArithmetic;
  auto arithmetic = [&](GroupArithmetic kind) {
    requireSubgroupScope(0);
    const uint32_t scan = instruction.operands.at(1);
    const Value &input = operand(2);
    const Value &r = values_.at(instruction.result);
    if (r.components != 1)
      fail(instruction, "sub-group reductions of vectors are not supported");
    uint64_t flags = input.varying ? 1 : 0;
    uint32_t clusterRegister = 0;
    if (scan == spv::GroupOperationClusteredReduce) {
      // A constant is an immediate; a spec constant, or a value (clang -O2
      // merges the constants of a switch's cases into a phi), a register.
      const uint32_t id = instruction.idOperand(3);
      const Constant *constant = module_.constant(id);
      if (constant && constant->kind == Constant::Kind::Scalar && !constant->isSpec) {
        flags |= std::min<uint64_t>(constant->bits, 1u << 20) << 24;
      } else {
        const Value &size = operand(3);
        clusterRegister = size.offset;
        flags |= 2 | (size.varying ? 4 : 0) | (uint64_t(size.elementBytes()) << 8);
      }
    } else if (scan > spv::GroupOperationExclusiveScan) {
      fail(instruction, "group operation " + std::to_string(scan) + " is not supported");
    }
    emit(runtime::subgroupArithmeticHandler(kind, input.scalar, scan), r.offset,
         {input.offset, clusterRegister}, 1, 0, flags);
  };
  auto vote = [&](uint32_t kind, const Value *input) {
    const Value &r = values_.at(instruction.result);
    const bool floating = input && (input->scalar == Scalar::F16 || input->scalar == Scalar::F32 ||
                                    input->scalar == Scalar::F64);
    if (input && input->components != 1)
      fail(instruction, "votes on vectors are not supported");
    emit(runtime::subgroupVoteHandler(), r.offset, {input ? input->offset : 0u}, 1,
         kind | ((input ? input->elementBytes() : 1u) << 8) | (floating ? 1u << 16 : 0u),
         input && input->varying ? 1 : 0);
  };
  auto ballot = [&](uint32_t kind, const Value &input, const Value *index) {
    const Value &r = values_.at(instruction.result);
    emit(runtime::subgroupBallotHandler(), r.offset, {input.offset, index ? index->offset : 0u},
         r.components, kind, (input.varying ? 1 : 0) | (index && index->varying ? 2 : 0));
  };
  switch (op) {
  case spv::OpGroupNonUniformShuffle:
    requireSubgroupScope(0);
    return shuffle(LaneSource::Index, operand(1), &operand(2), nullptr);
  case spv::OpGroupNonUniformShuffleXor:
    requireSubgroupScope(0);
    return shuffle(LaneSource::Xor, operand(1), &operand(2), nullptr);
  case spv::OpGroupNonUniformShuffleUp:
    requireSubgroupScope(0);
    return shuffle(LaneSource::Up, operand(1), &operand(2), nullptr);
  case spv::OpGroupNonUniformShuffleDown:
    requireSubgroupScope(0);
    return shuffle(LaneSource::Down, operand(1), &operand(2), nullptr);
  case spv::OpSubgroupShuffleINTEL:
    return shuffle(LaneSource::Index, operand(0), &operand(1), nullptr);
  case spv::OpSubgroupShuffleXorINTEL:
    return shuffle(LaneSource::Xor, operand(0), &operand(1), nullptr);
  case spv::OpSubgroupShuffleDownINTEL: // (current, next, delta)
    return shuffle(LaneSource::IntelDown, operand(0), &operand(2), &operand(1));
  case spv::OpSubgroupShuffleUpINTEL: // (previous, current, delta)
    return shuffle(LaneSource::IntelUp, operand(1), &operand(2), &operand(0));
  case spv::OpGroupBroadcast:
  case spv::OpGroupNonUniformBroadcast:
    requireSubgroupScope(0);
    return shuffle(LaneSource::Index, operand(1), &operand(2), nullptr);
  case spv::OpGroupNonUniformBroadcastFirst:
    requireSubgroupScope(0);
    return shuffle(LaneSource::First, operand(1), nullptr, nullptr);
  case spv::OpGroupAll:
  case spv::OpGroupNonUniformAll:
    requireSubgroupScope(0);
    return vote(0, &operand(1));
  case spv::OpGroupAny:
  case spv::OpGroupNonUniformAny:
    requireSubgroupScope(0);
    return vote(1, &operand(1));
  case spv::OpGroupNonUniformAllEqual:
    requireSubgroupScope(0);
    return vote(2, &operand(1));
  case spv::OpGroupNonUniformElect:
    requireSubgroupScope(0);
    return vote(3, nullptr);
  case spv::OpGroupIAdd:
  case spv::OpGroupNonUniformIAdd:
  case spv::OpGroupFAdd:
  case spv::OpGroupNonUniformFAdd:
    return arithmetic(GroupArithmetic::Add);
  case spv::OpGroupNonUniformIMul:
  case spv::OpGroupNonUniformFMul:
    return arithmetic(GroupArithmetic::Mul);
  case spv::OpGroupSMin:
  case spv::OpGroupNonUniformSMin:
    return arithmetic(GroupArithmetic::SMin);
  case spv::OpGroupUMin:
  case spv::OpGroupNonUniformUMin:
    return arithmetic(GroupArithmetic::UMin);
  case spv::OpGroupFMin:
  case spv::OpGroupNonUniformFMin:
    return arithmetic(GroupArithmetic::FMin);
  case spv::OpGroupSMax:
  case spv::OpGroupNonUniformSMax:
    return arithmetic(GroupArithmetic::SMax);
  case spv::OpGroupUMax:
  case spv::OpGroupNonUniformUMax:
    return arithmetic(GroupArithmetic::UMax);
  case spv::OpGroupFMax:
  case spv::OpGroupNonUniformFMax:
    return arithmetic(GroupArithmetic::FMax);
  case spv::OpGroupNonUniformBitwiseAnd:
    return arithmetic(GroupArithmetic::And);
  case spv::OpGroupNonUniformBitwiseOr:
    return arithmetic(GroupArithmetic::Or);
  case spv::OpGroupNonUniformBitwiseXor:
    return arithmetic(GroupArithmetic::Xor);
  case spv::OpGroupNonUniformLogicalAnd:
    return arithmetic(GroupArithmetic::LogicalAnd);
  case spv::OpGroupNonUniformLogicalOr:
    return arithmetic(GroupArithmetic::LogicalOr);
  case spv::OpGroupNonUniformLogicalXor:
    return arithmetic(GroupArithmetic::LogicalXor);
  case spv::OpGroupNonUniformBallot:
    requireSubgroupScope(0);
    return ballot(0, operand(1), nullptr);
  case spv::OpGroupNonUniformInverseBallot:
    requireSubgroupScope(0);
    return ballot(1, operand(1), nullptr);
  case spv::OpGroupNonUniformBallotBitExtract:
    requireSubgroupScope(0);
    return ballot(2, operand(1), &operand(2));
  case spv::OpGroupNonUniformBallotBitCount: {
    requireSubgroupScope(0);
    const uint32_t scan = instruction.operands.at(1);
    if (scan > spv::GroupOperationExclusiveScan)
      fail(instruction, "group operation " + std::to_string(scan) + " is not supported");
    return ballot(3 + scan, operand(2), nullptr);
  }
  case spv::OpGroupNonUniformBallotFindLSB:
    requireSubgroupScope(0);
    return ballot(6, operand(1), nullptr);
  case spv::OpGroupNonUniformBallotFindMSB:
    requireSubgroupScope(0);
    return ballot(7, operand(1), nullptr);
  case spv::OpSubgroupBlockReadINTEL: {
    const Value &pointer = operand(0);
    const Value &r = values_.at(instruction.result);
    emit(runtime::subgroupBlockHandler(r.elementBytes()), r.offset,
         {checkedBlockAddress(pointer, r, false), 0u}, r.components, 0, pointer.varying ? 1 : 0);
    return;
  }
  case spv::OpSubgroupBlockWriteINTEL: {
    const Value &pointer = operand(0), &data = operand(1);
    emit(runtime::subgroupBlockHandler(data.elementBytes()), 0,
         {checkedBlockAddress(pointer, data, true), data.offset}, data.components, 1,
         (pointer.varying ? 1 : 0) | (data.varying ? 2 : 0));
    return;
  }
  default:
    fail(instruction, "unsupported instruction " + opcodeName(op));
  }
}

Value KernelLowering::offsetAddress(const Value &pointer, const Value &offset, uint64_t stride) {
  const bool varying = pointer.varying || offset.varying;
  Value address = temporary(Scalar::I64, 1, varying);
  address.isPointer = true;
  address.storage = pointer.storage;
  emit(runtime::pointerOffsetHandler(offset.elementBytes(),
                                     Shape{varying, {pointer.varying, offset.varying}}),
       address.offset, {pointer.offset, offset.offset}, 1, offset.elementBytes(), stride);
  return address;
}

// vloadn, vstoren and the half forms (OpenCL C 3.0, 6.15.7): the address is
// p + offset * n elements (vloada_half3 and vstorea_half3: n = 4), computed
// here once for every form.
bool KernelLowering::lowerVectorMemory(const Instruction &instruction, uint32_t number) {
  using namespace OpenCLLIB;
  auto argument = [&](size_t i) -> const Value & { return use(instruction.idOperand(2 + i), instruction); };
  auto literal = [&](size_t i) { return instruction.operands.at(2 + i); };
  switch (number) {
  case Vloadn:
  case Vload_half:
  case Vload_halfn:
  case Vloada_halfn: {
    const Value &r = values_.at(instruction.result);
    const Value &offset = argument(0), &pointer = argument(1);
    const uint32_t n = number == Vload_half ? 1 : literal(2);
    const uint32_t stride = number == Vloada_halfn && n == 3 ? 4 : n;
    if (number == Vloadn) {
      const Value address = offsetAddress(pointer, offset, uint64_t(stride) * r.elementBytes());
      emit(runtime::loadHandler(r.elementBytes(), Shape{r.varying, {address.varying}}), r.offset,
           {checkedAddress(address, address.offset, accessBytes(r), r.elementBytes(), false)},
           r.components);
      return true;
    }
    // Halves, converted exactly to the result type.
    const Value address = offsetAddress(pointer, offset, uint64_t(stride) * 2);
    const Value halves = temporary(Scalar::F16, r.components, r.varying);
    emit(runtime::loadHandler(2, Shape{r.varying, {address.varying}}), halves.offset,
         {checkedAddress(address, address.offset, 2 * r.components, 2, false)}, r.components);
    emit(runtime::convertHandler({Scalar::F16}, {r.scalar}, runtime::Rounding::Default, false,
                                 Shape{r.varying, {r.varying}}),
         r.offset, {halves.offset}, r.components);
    return true;
  }
  case Vstoren:
  case Vstore_half:
  case Vstore_half_r:
  case Vstore_halfn:
  case Vstore_halfn_r:
  case Vstorea_halfn:
  case Vstorea_halfn_r: {
    const Value &data = argument(0), &offset = argument(1), &pointer = argument(2);
    const uint32_t n = data.components;
    const uint32_t stride =
        (number == Vstorea_halfn || number == Vstorea_halfn_r) && n == 3 ? 4 : n;
    if (number == Vstoren) {
      const Value address = offsetAddress(pointer, offset, uint64_t(stride) * data.elementBytes());
      emit(runtime::storeHandler(data.elementBytes(), Shape{false, {address.varying, data.varying}}),
           0, {checkedAddress(address, address.offset, accessBytes(data), data.elementBytes(), true),
               data.offset},
           n);
      return true;
    }
    // The default mode of vstore_half is round to nearest even; the _r
    // forms name theirs.
    runtime::Rounding rounding = runtime::Rounding::RTE;
    if (number == Vstore_half_r || number == Vstore_halfn_r || number == Vstorea_halfn_r) {
      switch (literal(3)) {
      case spv::FPRoundingModeRTZ: rounding = runtime::Rounding::RTZ; break;
      case spv::FPRoundingModeRTP: rounding = runtime::Rounding::RTP; break;
      case spv::FPRoundingModeRTN: rounding = runtime::Rounding::RTN; break;
      default: break;
      }
    }
    const Value halves = temporary(Scalar::F16, n, data.varying);
    emit(runtime::convertHandler({data.scalar}, {Scalar::F16}, rounding, false,
                                 Shape{data.varying, {data.varying}}),
         halves.offset, {data.offset}, n, static_cast<uint32_t>(rounding));
    const Value address = offsetAddress(pointer, offset, uint64_t(stride) * 2);
    emit(runtime::storeHandler(2, Shape{false, {address.varying, halves.varying}}), 0,
         {checkedAddress(address, address.offset, 2 * n, 2, true), halves.offset}, n);
    return true;
  }
  default:
    return false;
  }
}

// shuffle, shuffle2, select and bitselect.
bool KernelLowering::lowerPermutation(const Instruction &instruction, uint32_t number) {
  using namespace OpenCLLIB;
  auto argument = [&](size_t i) -> const Value & { return use(instruction.idOperand(2 + i), instruction); };
  switch (number) {
  case Shuffle:
  case Shuffle2: {
    const Value &r = values_.at(instruction.result);
    const bool two = number == Shuffle2;
    const Value &x = argument(0);
    const Value &y = two ? argument(1) : x;
    const Value &mask = argument(two ? 2 : 1);
    emit(runtime::shuffleHandler(r.elementBytes(),
                                 Shape{r.varying, {x.varying, y.varying, mask.varying}}, two),
         r.offset, {x.offset, y.offset, mask.offset}, r.components, x.components);
    return true;
  }
  case Select: {
    // select(a, b, c): c's most significant bit for vectors, c != 0 for
    // scalars, chooses b (OpenCL C 3.0, 6.15.6).
    const Value &r = values_.at(instruction.result);
    const Value &a = argument(0), &b = argument(1), &c = argument(2);
    const Value condition = temporary(Scalar::Bool, c.components, c.varying);
    Value integer = c;
    integer.scalar = c.elementBytes() == 1 ? Scalar::I8
                     : c.elementBytes() == 2 ? Scalar::I16
                     : c.elementBytes() == 4 ? Scalar::I32
                                             : Scalar::I64;
    const uint32_t zero = splatConstant(integer, 0);
    emit(runtime::binaryHandler(c.components > 1 ? runtime::BinaryOp::SLessThan
                                                 : runtime::BinaryOp::INotEqual,
                                integer.scalar, Shape{c.varying, {c.varying, false}}),
         condition.offset, {c.offset, zero}, c.components);
    emit(runtime::selectHandler(r.elementBytes(),
                                Shape{r.varying, {condition.varying, b.varying, a.varying}}),
         r.offset, {condition.offset, b.offset, a.offset}, r.components);
    return true;
  }
  case Bitselect: {
    // bitselect(a, b, c): each bit from b where c's is 1, else from a.
    const Value &r = values_.at(instruction.result);
    const Value &a = argument(0), &b = argument(1), &c = argument(2);
    const Scalar integer = r.elementBytes() == 1 ? Scalar::I8
                           : r.elementBytes() == 2 ? Scalar::I16
                           : r.elementBytes() == 4 ? Scalar::I32
                                                   : Scalar::I64;
    const bool varying = r.varying;
    const Value notC = temporary(integer, r.components, c.varying);
    const Value fromA = temporary(integer, r.components, varying);
    const Value fromB = temporary(integer, r.components, varying);
    using runtime::BinaryOp;
    emit(runtime::unaryHandler(runtime::UnaryOp::Not, integer, Shape{c.varying, {c.varying}}),
         notC.offset, {c.offset}, r.components);
    emit(runtime::binaryHandler(BinaryOp::BitwiseAnd, integer, Shape{varying, {a.varying, c.varying}}),
         fromA.offset, {a.offset, notC.offset}, r.components);
    emit(runtime::binaryHandler(BinaryOp::BitwiseAnd, integer, Shape{varying, {b.varying, c.varying}}),
         fromB.offset, {b.offset, c.offset}, r.components);
    emit(runtime::binaryHandler(BinaryOp::BitwiseOr, integer, Shape{varying, {varying, varying}}),
         r.offset, {fromA.offset, fromB.offset}, r.components);
    return true;
  }
  default:
    return false;
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

namespace {

// The operand types of OpenCL SPIR-V Environment 3.0, 2.9 "Printf Operands"
// (there, an argument of another type is undefined behaviour; here it makes
// the printf fail). Scalar integer conversions take an integer of any width
// and convert it as the length modifier says; scalar floating-point ones a
// float of any width.
bool printfOperandMatches(const Module &module, const runtime::PrintfConversion &c,
                          const Type &type) {
  const bool vector = type.kind == Type::Kind::Vector;
  if (c.vectorSize) {
    // "The vector data type described by the vector specifier and length
    // modifier must match the data type of the argument".
    if (!vector || type.count != c.vectorSize)
      return false;
    const Type &element = typeOf(module, type.element);
    return element.kind == (c.isFloat() ? Type::Kind::Float : Type::Kind::Int) &&
           element.width == c.lengthBytes() * 8;
  }
  if (vector)
    return false;
  if (c.isInteger() || c.specifier == 'c')
    return type.kind == Type::Kind::Int && type.width <= 64;
  if (c.isFloat())
    return type.kind == Type::Kind::Float;
  return type.kind == Type::Kind::Pointer; // s, p
}

} // namespace

// printf (OpenCL C 3.0, 6.15.14). "The format is in the constant address
// space and must be resolvable at compile time": it is read from its
// variable's initializer and parsed here, once. An invalid format, a missing
// argument or an argument of the wrong type makes every execution return -1.
void KernelLowering::lowerPrintf(const Instruction &instruction) {
  const Value &r = values_.at(instruction.result);
  const std::optional<std::string> format = constantString(instruction.idOperand(2));
  if (!format)
    fail(instruction, "the format of printf must be a constant string known when the kernel is "
                      "built (OpenCL C 3.0, 6.15.14.2)");
  runtime::ParsedFormat parsed = runtime::parsePrintfFormat(*format);
  auto call = std::make_shared<runtime::PrintfCall>();
  call->valid = parsed.error.empty();
  size_t next = 3; // the first argument after the format
  for (runtime::PrintfPiece &piece : parsed.pieces) {
    if (!piece.isConversion) {
      call->pieces.push_back(std::move(piece));
      continue;
    }
    // "If there are insufficient arguments for the format, the behavior is
    // undefined."
    if (next >= instruction.operands.size()) {
      call->valid = false;
      break;
    }
    const uint32_t argument = instruction.idOperand(next++);
    const runtime::PrintfConversion &c = piece.conversion;
    if (c.specifier == 's')
      if (const auto text = constantString(argument)) {
        std::string literal;
        if (!runtime::appendPrintfString(literal, c, text->c_str())) {
          call->valid = false;
          break;
        }
        call->pieces.push_back({false, std::move(literal), {}});
        continue;
      }
    if (!printfOperandMatches(module_, c, typeOf(module_, typeOfId(argument, instruction)))) {
      call->valid = false;
      break;
    }
    const Value &value = use(argument, instruction);
    if (value.kind != Value::Kind::Register) {
      call->valid = false;
      break;
    }
    call->arguments.push_back({value.offset, value.varying, value.scalar, value.components});
    call->pieces.push_back(std::move(piece));
  }
  if (!call->valid) {
    call->pieces.clear();
    call->arguments.clear();
  }
  code_.tables.push_back(call);
  code_.usesPrintf = true;
  emit(runtime::printfHandler(), r.offset, {}, 1, r.varying ? 1 : 0, 0, call.get());
}

void KernelLowering::lowerExtInst(const Instruction &instruction) {
  const uint32_t set = instruction.idOperand(0);
  auto name = module_.extInstImports.find(set);
  if (name == module_.extInstImports.end() || name->second != "OpenCL.std")
    fail(instruction, "extended instruction set '" +
                          (name == module_.extInstImports.end() ? std::string("?") : name->second) +
                          "' is not supported");
  const uint32_t number = instruction.operands.at(1);
  if (number == OpenCLLIB::Prefetch)
    return; // a hint (OpenCL C 3.0, 6.15.11)
  if (number == OpenCLLIB::Printf)
    return lowerPrintf(instruction);
  if (lowerVectorMemory(instruction, number) || lowerPermutation(instruction, number))
    return;
  if (lowerMixedMath(instruction, number) || lowerGeometric(instruction, number))
    return;
  const auto function = openclStdFunction(number);
  if (!function)
    fail(instruction, "OpenCL.std instruction " + openclStdName(number) + " (" +
                          std::to_string(number) + ") is not supported yet");
  std::vector<const Value *> arguments;
  for (size_t i = 2; i < instruction.operands.size(); ++i)
    arguments.push_back(&use(instruction.idOperand(i), instruction));
  if (static_cast<int>(arguments.size()) != builtins::operandCount(*function))
    fail(instruction, "wrong number of operands for this OpenCL.std instruction");
  emitMath(*function, values_.at(instruction.result), arguments);
}

// A scalar operand of a vector function (e.g. fmax(float4, float),
// ldexp(float4, int)) is broadcast to every component.
uint32_t KernelLowering::broadcast(const Value &operand, uint32_t components) {
  if (operand.components == components || operand.components != 1)
    return operand.offset;
  Value splat = temporary(operand.scalar, components, operand.varying);
  for (uint32_t c = 0; c < components; ++c)
    emit(runtime::copyComponentsHandler(operand.elementBytes(),
                                        Shape{operand.varying, {operand.varying}}),
         componentOffset(splat, c), {operand.offset}, 1);
  return splat.offset;
}

void KernelLowering::emitMath(builtins::Math function, const Value &result,
                              const std::vector<const Value *> &operands) {
  uint32_t registers[3] = {};
  Shape shape{result.varying, {}};
  for (size_t i = 0; i < operands.size(); ++i) {
    registers[i] = broadcast(*operands[i], result.components);
    shape.operand[i] = operands[i]->varying;
  }
  emit(runtime::mathHandler(function, result.scalar, shape), result.offset,
       {registers[0], registers[1], registers[2]}, result.components);
}

void KernelLowering::emitMixedMath(builtins::MixedMath function, Scalar type, const Value &result,
                                   const std::vector<const Value *> &operands) {
  uint32_t registers[2] = {};
  Shape shape{result.varying, {}};
  for (size_t i = 0; i < operands.size(); ++i) {
    registers[i] = broadcast(*operands[i], result.components);
    shape.operand[i] = operands[i]->varying;
  }
  emit(runtime::mixedMathHandler(function, type, shape), result.offset, {registers[0], registers[1]}, result.components);
}

// The OpenCL.std functions whose operands or result differ in type, and
// those with a pointer output: the value to store is computed into a
// register, then stored through the pointer (any address space) as OpStore
// would.
bool KernelLowering::lowerMixedMath(const Instruction &instruction, uint32_t number) {
  using namespace OpenCLLIB;
  using builtins::Math;
  using builtins::MixedMath;
  auto argument = [&](size_t i) -> const Value & {
    return use(instruction.idOperand(2 + i), instruction);
  };
  const auto operandCount = instruction.operands.size() - 2;
  auto expect = [&](size_t count) {
    if (operandCount != count)
      fail(instruction, "wrong number of operands for OpenCL.std instruction " +
                            openclStdName(number));
  };
  const Value &r = values_.at(instruction.result);
  // The element function `value` of x (and y) into r, and `stored` (of
  // the given element type) into *pointer.
  auto withOutput = [&](Math value, const std::vector<const Value *> &operands,
                        const Value &pointer, Scalar storedType, auto computeStored) {
    emitMath(value, r, operands);
    const Value stored = temporary(storedType, r.components, r.varying);
    computeStored(stored);
    emit(runtime::storeHandler(stored.elementBytes(),
                               Shape{false, {pointer.varying, stored.varying}}),
         0,
         {checkedAddress(pointer, pointer.offset, accessBytes(stored), requiredAlignment(stored),
                         true),
          stored.offset},
         stored.components);
  };
  switch (number) {
  case Ilogb:
    expect(1);
    emitMixedMath(MixedMath::Ilogb, argument(0).scalar, r, {&argument(0)});
    return true;
  case Ldexp:
  case Pown:
  case Rootn:
    expect(2);
    emitMixedMath(number == Ldexp ? MixedMath::Ldexp
                  : number == Pown ? MixedMath::Pown
                                   : MixedMath::Rootn,
                  r.scalar, r, {&argument(0), &argument(1)});
    return true;
  case Nan:
    expect(1);
    emitMixedMath(MixedMath::Nan, r.scalar, r, {&argument(0)});
    return true;
  case S_Upsample:
  case U_Upsample:
    expect(2);
    emitMixedMath(MixedMath::Upsample, argument(0).scalar, r, {&argument(0), &argument(1)});
    return true;
  case Frexp:
    expect(2);
    withOutput(Math::FrexpMantissa, {&argument(0)}, argument(1), Scalar::I32, [&](const Value &e) {
      emitMixedMath(MixedMath::FrexpExponent, r.scalar, e, {&argument(0)});
    });
    return true;
  case Lgamma_r:
    expect(2);
    withOutput(Math::Lgamma, {&argument(0)}, argument(1), Scalar::I32, [&](const Value &sign) {
      emitMixedMath(MixedMath::LgammaSign, r.scalar, sign, {&argument(0)});
    });
    return true;
  case Remquo:
    expect(3);
    withOutput(Math::Remainder, {&argument(0), &argument(1)}, argument(2), Scalar::I32,
               [&](const Value &quotient) {
                 emitMixedMath(MixedMath::RemquoQuotient, r.scalar, quotient,
                               {&argument(0), &argument(1)});
               });
    return true;
  case Modf:
  case Fract:
  case Sincos: {
    expect(2);
    const Math value = number == Modf ? Math::ModfFraction : number == Fract ? Math::Fract : Math::Sin;
    const Math stored = number == Modf ? Math::Trunc : number == Fract ? Math::Floor : Math::Cos;
    withOutput(value, {&argument(0)}, argument(1), r.scalar,
               [&](const Value &output) { emitMath(stored, output, {&argument(0)}); });
    return true;
  }
  default:
    return false;
  }
}

// length, distance, normalize, cross and the fast_ forms, which the exact
// ones satisfy.
bool KernelLowering::lowerGeometric(const Instruction &instruction, uint32_t number) {
  using namespace OpenCLLIB;
  using builtins::Geometric;
  Geometric function;
  size_t operands = 1;
  switch (number) {
  case Length:
  case Fast_length:
    function = Geometric::Length;
    break;
  case Distance:
  case Fast_distance:
    function = Geometric::Distance;
    operands = 2;
    break;
  case Normalize:
  case Fast_normalize:
    function = Geometric::Normalize;
    break;
  case Cross:
    function = Geometric::Cross;
    operands = 2;
    break;
  default:
    return false;
  }
  if (instruction.operands.size() != 2 + operands)
    fail(instruction, "wrong number of operands for OpenCL.std instruction " + openclStdName(number));
  emitGeometric(function, instruction, 2);
  return true;
}

void KernelLowering::emitGeometric(builtins::Geometric function, const Instruction &instruction,
                                   size_t firstOperand) {
  const Value &r = values_.at(instruction.result);
  const Value &a = use(instruction.idOperand(firstOperand), instruction);
  const Value &b = instruction.operands.size() > firstOperand + 1
                       ? use(instruction.idOperand(firstOperand + 1), instruction)
                       : a;
  if (function == builtins::Geometric::Cross && a.components != 3 && a.components != 4)
    fail(instruction, "cross takes 3- or 4-component vectors");
  emit(runtime::geometricHandler(function, a.scalar, Shape{r.varying, {a.varying, b.varying}}),
       r.offset, {a.offset, b.offset}, r.components, a.components);
}

std::vector<runtime::RegisterCopy> KernelLowering::edgeCopies(uint32_t from, uint32_t to) {
  std::vector<runtime::RegisterCopy> copies;
  const uint32_t fromLabel = cfg_->order()[from]->label;
  for (const Instruction &phi : cfg_->order()[to]->instructions) {
    if (phi.opcode != spv::OpPhi)
      break;
    for (size_t k = 0; k + 1 < phi.operands.size(); k += 2) {
      if (phi.operands[k + 1] != fromLabel)
        continue;
      const Value &source = use(phi.operands[k], phi);
      auto staged = phiStaging_.find(phi.result);
      const Value &staging = staged != phiStaging_.end() ? staged->second : values_.at(phi.result);
      std::function<void(const Value &, const Value &)> add = [&](const Value &a, const Value &b) {
        if (b.kind == Value::Kind::Aggregate) {
          for (size_t i = 0; i < b.members.size(); ++i)
            add(a.members[i], b.members[i]);
          return;
        }
        copies.push_back(
            {a.offset, b.offset, b.elementBytes(), b.components, a.varying, b.varying});
      };
      add(source, staging);
      if (auto shadow = undefShadow_.find(phi.result); shadow != undefShadow_.end()) {
        auto stagedShadow = undefShadowStaging_.find(phi.result);
        const uint32_t to =
            stagedShadow != undefShadowStaging_.end() ? stagedShadow->second : shadow->second;
        const Shadow from =
            shadowOf(phi.operands[k]).value_or(Shadow{shadowConstant(false), false});
        copies.push_back({from.offset, to, 1, 1, from.varying, true});
      }
      break;
    }
  }
  return copies;
}

runtime::Terminator KernelLowering::lowerTerminator(const Block &block, uint32_t number) {
  using Kind = runtime::Terminator::Kind;
  const Instruction &t = block.terminator();
  runtime::Terminator terminator;
  auto target = [&](uint32_t label) {
    const int n = cfg_->number(label);
    return firstPiece_[static_cast<uint32_t>(n)];
  };
  auto edge = [&](uint32_t label) {
    terminator.target.push_back(target(label));
    terminator.edgeCopies.push_back(edgeCopies(number, static_cast<uint32_t>(cfg_->number(label))));
  };
  switch (t.opcode) {
  case spv::OpBranch:
    terminator.kind = Kind::Branch;
    edge(t.idOperand(0));
    break;
  case spv::OpBranchConditional: {
    const uint32_t condition = t.idOperand(0);
    if (auto constant = module_.constantValue(condition);
        constant || t.idOperand(1) == t.idOperand(2)) {
      terminator.kind = Kind::Branch;
      edge(constant && *constant == 0 ? t.idOperand(2) : t.idOperand(1));
      break;
    }
    const Value &c = use(condition, t);
    terminator.kind = Kind::Conditional;
    terminator.condition = c.offset;
    terminator.conditionVarying = c.varying;
    edge(t.idOperand(1));
    edge(t.idOperand(2));
    break;
  }
  case spv::OpSwitch: {
    const Value &selector = use(t.idOperand(0), t);
    terminator.kind = Kind::Switch;
    terminator.condition = selector.offset;
    terminator.conditionVarying = selector.varying;
    terminator.selectorBytes = selector.elementBytes();
    edge(t.idOperand(1));
    const uint32_t literalWords = selector.elementBytes() == 8 ? 2 : 1;
    for (size_t i = 2; i + literalWords < t.operands.size() + 1; i += literalWords + 1) {
      uint64_t value = t.operands[i];
      if (literalWords == 2)
        value |= uint64_t(t.operands[i + 1]) << 32;
      terminator.caseValue.push_back(value);
      edge(t.operands[i + literalWords]);
    }
    break;
  }
  case spv::OpReturn:
  case spv::OpReturnValue:
    terminator.kind = Kind::Return;
    break;
  case spv::OpUnreachable:
    terminator.kind = Kind::Unreachable;
    break;
  default:
    fail(t, "unsupported terminator " + opcodeName(t.opcode));
  }
  return terminator;
}


std::vector<ProgramGlobal> programGlobals(const Module &module) {
  std::vector<ProgramGlobal> globals;
  for (const GlobalVariable &variable : module.globalVariables) {
    if (variable.builtin || (variable.storageClass != spv::StorageClassCrossWorkgroup &&
                             variable.storageClass != spv::StorageClassUniformConstant))
      continue;
    const uint32_t pointee = typeOf(module, variable.pointerType).element;
    ProgramGlobal global;
    global.id = variable.id;
    global.storageClass = variable.storageClass;
    global.size = byteSize(module, pointee);
    global.alignment = std::max<uint64_t>(alignmentOf(module, pointee).value_or(16), 16);
    globals.push_back(global);
  }
  return globals;
}

void initialiseGlobal(const Module &module, const ProgramGlobal &global,
                      const std::unordered_map<uint32_t, uint64_t> &addresses,
                      const SpecializationValues &specializations, std::byte *memory) {
  std::memset(memory, 0, global.size);
  const GlobalVariable *variable = module.globalVariable(global.id);
  if (variable && variable->initializer)
    writeConstant(ConstantContext{module, &specializations, &addresses}, variable->initializer,
                  memory);
}

runtime::KernelCode lowerKernel(const Module &module, const EntryPoint &entryPoint,
                                const std::unordered_map<uint32_t, uint64_t> &globalAddresses,
                                const LowerOptions &options) {
  return KernelLowering(module, entryPoint, globalAddresses, options).run();
}

} // namespace lanewise::spirv
