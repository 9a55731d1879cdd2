// SPDX-License-Identifier: Apache-2.0
// Memory instructions (SPIR-V 1.4, 3.37.8) and vloadn/vstoren (OpenCL.std),
// bound to runtime/exec_memory.cpp.
//
// Vectors in memory order (findMemoryOrderValues): a vector loaded through
// an affine address (vloadn, vload_halfn, OpLoad of a vector), computed on
// only by lane-wise instructions of the same block (arithmetic,
// conversions, the element functions of OpenCL.std) whose other operands
// are the same in every component (a uniform scalar, or a splat), and
// stored through an affine address, skips the transpositions between
// component-major registers and work-item-major memory when every lane of
// the warp runs the block (runtime::inMemoryOrder): its loads copy the
// lanes' vectors as memory holds them, the instructions between compute
// every element wherever it lies, its stores copy back. When a lane is
// missing the same loads and stores transpose; the decision is the
// block's, taken by each load and store from the same mask, which is why
// the values must not leave the block. A computed vector that anything
// else reads too (a permutation, a component extract, an instruction of a
// later block, a store whose address is not affine), after its users in
// memory order, is transposed to the usual layout in place before the
// first such reader, or at the end of its block for later blocks
// (convertToComponents): the transposition its loads would have made,
// paid once for a chain of them. A loaded vector read so, a vector a phi
// reads, and one whose operand is a uniform with differing components keep
// the usual layout. A vload_halfn of floats in memory
// order is one instruction (runtime::widenedHalfLoadHandler) that widens
// the halves from memory, eight at a time with F16C, when the lanes'
// halves are one run. Not under checks.
#include "spirv/lowering.h"

#include "spirv/names.h"

#include <spirv/unified1/OpenCL.std.h>

#include <cstring>

namespace lanewise::spirv::lowering {

uint32_t KernelLowering::displaced(const Value &pointer, uint64_t displacement) {
  if (displacement == 0)
    return pointer.offset;
  const uint32_t reg = allocate(8, pointer.varying);
  emit(runtime::pointerOffsetHandler(0, Shape{pointer.varying, {pointer.varying}}), reg,
       {pointer.offset}, 1, 0, displacement);
  return reg;
}

namespace {

// The byte offsets and types of a struct's members or an array's elements.
std::pair<std::vector<uint64_t>, std::vector<uint32_t>> aggregateLayout(const Module &module,
                                                                        uint32_t typeId) {
  const Type &type = typeOf(module, typeId);
  if (type.kind == Type::Kind::Struct)
    return {memberOffsets(module, typeId), type.members};
  std::vector<uint64_t> offsets;
  for (uint32_t i = 0; i < type.count; ++i)
    offsets.push_back(i * byteSize(module, type.element));
  return {offsets, std::vector<uint32_t>(type.count, type.element)};
}

} // namespace

void KernelLowering::loadInto(const Value &pointer, uint64_t displacement, uint32_t typeId,
                              const Value &result) {
  if (result.kind == Value::Kind::Aggregate) {
    const auto [offsets, memberTypes] = aggregateLayout(module_, typeId);
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
  if (value.kind == Value::Kind::Aggregate) {
    const auto [offsets, memberTypes] = aggregateLayout(module_, typeId);
    for (size_t i = 0; i < value.members.size(); ++i)
      storeFrom(pointer, displacement + offsets[i], memberTypes[i], value.members[i]);
    return;
  }
  const size_t sites = checks_ ? checks_->sites.size() : 0;
  const uint32_t address =
      checkedAddress(pointer, displaced(pointer, displacement), accessBytes(value),
                     requiredAlignment(value), true);
  if (checks_ && checks_->sites.size() > sites && value.components == 1) {
    runtime::CheckSite &site = checks_->sites.back();
    site.storedOffset = value.offset;
    site.storedBytes = static_cast<uint8_t>(value.elementBytes());
    site.storedVarying = value.varying;
  }
  emit(runtime::storeHandler(value.elementBytes(), Shape{false, {pointer.varying, value.varying}}),
       0, {address, value.offset}, value.components);
}

// The pointer arithmetic of OpAccessChain and OpPtrAccessChain: constant
// indices fold into one displacement; each other index adds index * stride,
// in order.
KernelLowering::ChainSteps KernelLowering::chainSteps(const Instruction &instruction) {
  const bool ptrChain = instruction.opcode == spv::OpPtrAccessChain ||
                        instruction.opcode == spv::OpInBoundsPtrAccessChain;
  // The base's pointer type: from its defining instruction, a parameter or
  // a global variable.
  const uint32_t pointeeType =
      typeOf(module_, typeOfId(instruction.idOperand(0), instruction)).element;
  ChainSteps chain;
  auto addIndex = [&](uint32_t indexId, uint64_t stride) {
    if (auto constant = module_.constantValue(indexId)) {
      const Type &indexType = typeOf(module_, module_.constant(indexId)->type);
      int64_t index = static_cast<int64_t>(*constant);
      if (indexType.width == 32)
        index = static_cast<int32_t>(*constant);
      chain.displacement += static_cast<uint64_t>(index) * stride;
      return;
    }
    chain.steps.push_back({indexId, stride});
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
      chain.displacement += memberOffsets(module_, current).at(*member);
      current = type.members.at(*member);
      break;
    }
    case Type::Kind::Array:
    case Type::Kind::RuntimeArray:
    case Type::Kind::Vector:
      addIndex(indexId, byteSize(module_, type.element));
      current = type.element;
      break;
    default:
      fail(instruction, "cannot index into a value of this type");
    }
  }
  return chain;
}

void KernelLowering::lowerAccessChain(const Instruction &instruction, const Value &result) {
  const Value base = use(instruction.idOperand(0), instruction);
  const ChainSteps chain = chainSteps(instruction);
  const uint64_t displacement = chain.displacement;
  uint32_t reg = base.offset;
  bool varying = base.varying;
  for (const auto &[indexId, stride] : chain.steps) {
    const Value &index = use(indexId, instruction);
    const bool resultVarying = varying || index.varying;
    const uint32_t next = allocate(8, resultVarying);
    emit(runtime::pointerOffsetHandler(index.elementBytes(),
                                       Shape{resultVarying, {varying, index.varying}}),
         next, {reg, index.offset}, 1, index.elementBytes(), stride);
    reg = next;
    varying = resultVarying;
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

namespace {

// RaceSyncRelease and RaceSyncAcquire for memory semantics `semantics`.
uint32_t orderingOf(uint64_t semantics, bool release, bool acquire) {
  const bool both = semantics & (spv::MemorySemanticsAcquireReleaseMask |
                                 spv::MemorySemanticsSequentiallyConsistentMask);
  return (release && (both || (semantics & spv::MemorySemanticsReleaseMask))
              ? uint32_t(runtime::RaceSyncRelease)
              : 0u) |
         (acquire && (both || (semantics & spv::MemorySemanticsAcquireMask))
              ? uint32_t(runtime::RaceSyncAcquire)
              : 0u);
}

} // namespace

// The work-items of a work-group run on one thread, in turn, so a fence of
// work-group scope or narrower has nothing to order: every access of the
// group is already in program order for the others. A fence of device or
// all-devices scope orders this thread's accesses against other threads':
// other work-groups, and the host on fine-grain SVM. The atomics are
// sequentially consistent host atomics, so one sequentially consistent
// fence serves every ordering the semantics may ask for.
void KernelLowering::emitFence(const Instruction &instruction, size_t scopeOperand,
                               size_t semanticsOperand) {
  const auto scope = module_.constantValue(instruction.idOperand(scopeOperand));
  const auto semantics = module_.constantValue(instruction.idOperand(semanticsOperand));
  if (!scope)
    fail(instruction, "the memory scope must be a constant");
  if (!semantics)
    fail(instruction, "the memory semantics must be a constant");
  constexpr uint64_t ordering =
      uint64_t(spv::MemorySemanticsAcquireMask) | uint64_t(spv::MemorySemanticsReleaseMask) |
      uint64_t(spv::MemorySemanticsAcquireReleaseMask) |
      uint64_t(spv::MemorySemanticsSequentiallyConsistentMask);
  if ((*scope == spv::ScopeDevice || *scope == spv::ScopeCrossDevice) && (*semantics & ordering)) {
    emit(runtime::deviceFenceHandler(), 0, {}, 1);
    if (checking(runtime::Check::Races))
      emit(runtime::raceSyncHandler(), 0, {}, 1,
           runtime::RaceSyncFence | orderingOf(*semantics, true, true));
  }
}

// Under the race check, an atomic of device scope on global memory orders
// work-groups (RaceSync flags, with RaceSyncVarying; none: it does not): its
// semantics say whether it releases and acquires, and a relaxed one still
// takes part in fence synchronisation. A compare-exchange releases by its
// semantics when it writes and acquires by either.
std::optional<uint32_t> KernelLowering::raceSyncOf(const Instruction &instruction,
                                                   const Value &pointer) {
  if (!checking(runtime::Check::Races) || pointer.storage == spv::StorageClassWorkgroup ||
      pointer.storage == spv::StorageClassFunction)
    return std::nullopt;
  const auto scope = module_.constantValue(instruction.idOperand(1));
  if (!scope || (*scope != spv::ScopeDevice && *scope != spv::ScopeCrossDevice))
    return std::nullopt;
  const spv::Op op = instruction.opcode;
  const bool exchange =
      op == spv::OpAtomicCompareExchange || op == spv::OpAtomicCompareExchangeWeak;
  const auto equal = module_.constantValue(instruction.idOperand(2));
  const auto unequal = exchange ? module_.constantValue(instruction.idOperand(3)) : equal;
  if (!equal || !unequal)
    fail(instruction, "the memory semantics must be a constant");
  return (pointer.varying ? uint32_t(runtime::RaceSyncVarying) : 0u) |
         orderingOf(*equal, true, true) | orderingOf(*unequal, false, true);
}

// Variables, loads, stores, pointer casts and arithmetic, copies, atomics and
// asynchronous work-group copies.
bool KernelLowering::lowerMemory(const Instruction &instruction) {
  const spv::Op op = instruction.opcode;
  auto result = [&]() -> const Value & { return values_.at(instruction.result); };
  auto operand = [&](size_t i) -> const Value & {
    return use(instruction.idOperand(i), instruction);
  };
  if (op == spv::OpMemoryBarrier) {
    emitFence(instruction, 0, 1);
    return true;
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
    const uint32_t address = checkedAddress(pointer, pointer.offset, bytes, bytes, writes);
    const std::optional<uint32_t> sync = raceSyncOf(instruction, pointer);
    if (sync && writes)
      emit(runtime::raceSyncHandler(), 0, {address}, 1, *sync & ~runtime::RaceSyncAcquire);
    const bool workgroup =
        typeOf(module_, typeOfId(instruction.idOperand(0), instruction)).storageClass ==
        spv::StorageClassWorkgroup;
    emit(runtime::atomicHandler(*atomic, type, workgroup), resultRegister,
         {address, value ? value->offset : 0u, comparator ? comparator->offset : 0u}, 1, aux);
    if (sync && op != spv::OpAtomicStore && op != spv::OpAtomicFlagClear)
      emit(runtime::raceSyncHandler(), 0, {address}, 1,
           (*sync & ~runtime::RaceSyncRelease) | runtime::RaceSyncAfter);
    return true;
  }
  switch (op) {
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
    return true;
  }
  case spv::OpGenericPtrMemSemantics: {
    const Value &a = operand(0);
    const Value &r = result();
    emit(runtime::genericSpaceHandler(0, Shape{r.varying, {a.varying}}), r.offset, {a.offset}, 1);
    return true;
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
    return true;
  }
  case spv::OpVariable: {
    if (promoted_.count(instruction.result)) {
      if (instruction.operands.size() > 1)
        copyValue(operand(1), result());
      return true;
    }
    const auto storage = static_cast<spv::StorageClass>(instruction.operands.at(0));
    if (storage != spv::StorageClassFunction)
      fail(instruction, "a function-scope variable in storage class " + storageClassName(storage) +
                            " is not supported");
    const uint32_t pointee = typeOf(module_, instruction.resultType).element;
    const Value &pointer = result();
    allocatePrivate(pointer, pointee, instruction.result);
    if (instruction.operands.size() > 1)
      storeFrom(pointer, 0, pointee, operand(1));
    return true;
  }
  case spv::OpLoad: {
    if (promoted_.count(instruction.idOperand(0))) {
      copyValue(operand(0), result());
      return true;
    }
    const Value &pointer = operand(0);
    if (pointer.kind == Value::Kind::Builtin) {
      const Value &builtin = builtinRegister(pointer.builtin, instruction);
      if (pointer.offset == wholeBuiltin) {
        values_[instruction.result] = builtin;
        return true;
      }
      // A component of the built-in vector (an access chain into it).
      Value component =
          makeValue(instruction.resultType, uniformity_.isVarying(instruction.result));
      emit(runtime::copyComponentsHandler(component.elementBytes(),
                                          Shape{component.varying, {builtin.varying}}),
           component.offset, {componentOffset(builtin, pointer.offset)}, 1);
      values_[instruction.result] = component;
      return true;
    }
    checkDefined(instruction.idOperand(0), instruction, runtime::UndefinedUse::Address);
    if (shadowedLoads_.count(instruction.result)) {
      // The value and its shadow from the memory shadow; what it holds of
      // memory never written is an error only where it is used.
      const Value &r = result();
      const uint32_t address = checkedAddress(pointer, pointer.offset, accessBytes(r),
                                              requiredAlignment(r), false);
      checks_->sites.back().skipsUninit = true;
      emit(runtime::loadHandler(r.elementBytes(), Shape{r.varying, {pointer.varying}}), r.offset,
           {address}, r.components);
      emit(runtime::undefLoadHandler(), undefShadow_.at(instruction.result), {address},
           r.components, 0, uint64_t(pointer.varying) | uint64_t(r.elementBytes()) << 8);
      return true;
    }
    loadInto(pointer, 0, instruction.resultType, result());
    return true;
  }
  case spv::OpStore: {
    if (promoted_.count(instruction.idOperand(0))) {
      // Each active lane's value replaces its own.
      copyValue(operand(1), operand(0));
      return true;
    }
    const Value &pointer = operand(0);
    if (pointer.kind == Value::Kind::Builtin)
      fail(instruction, "stores to built-in variables are not allowed");
    checkDefined(instruction.idOperand(0), instruction, runtime::UndefinedUse::Address);
    const spv::StorageClass storage = pointer.storage;
    const bool intoShadowedMemory = checking(runtime::Check::Uninit) &&
                                    (storage == spv::StorageClassFunction ||
                                     storage == spv::StorageClassWorkgroup ||
                                     storage == spv::StorageClassGeneric);
    const Value &value = operand(1);
    if (maybeUndefined_.count(instruction.idOperand(1)) && value.kind == Value::Kind::Register &&
        intoShadowedMemory) {
      // The value's shadow goes into the memory shadow: storing a partly
      // undefined value (a vector built a component at a time) is no use
      // of it. Through a generic pointer to global memory it is.
      const Shadow shadow = *shadowOf(instruction.idOperand(1));
      const uint32_t address = checkedAddress(pointer, pointer.offset, accessBytes(value),
                                              requiredAlignment(value), true);
      const uint32_t site = static_cast<uint32_t>(checks_->sites.size() - 1);
      checks_->sites[site].origin = originOf(instruction.idOperand(1));
      emit(runtime::storeHandler(value.elementBytes(),
                                 Shape{false, {pointer.varying, value.varying}}),
           0, {address, value.offset}, value.components);
      emit(runtime::undefStoreHandler(), 0, {address, shadow.offset}, value.components, site,
           uint64_t(pointer.varying) | uint64_t(shadow.varying) << 1 |
               uint64_t(value.elementBytes()) << 8);
      return true;
    }
    // Without the uninit check (no memory shadow), a bad shuffle's result
    // stored into a private variable is not yet used (an unoptimised build
    // stores every shuffle's result in one).
    if (!intoShadowedMemory && storage != spv::StorageClassFunction)
      checkDefined(instruction.idOperand(1), instruction, runtime::UndefinedUse::StoredValue);
    storeFrom(pointer, 0, typeOfId(instruction.idOperand(1), instruction), value);
    return true;
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
      return true;
    }
    instruction.forEachIdOperand(
        [&](uint32_t id) { checkDefined(id, instruction, runtime::UndefinedUse::Address); });
    lowerAccessChain(instruction, result());
    return true;
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
    return true;
  }
  case spv::OpSizeOf: {
    // SPIR-V 1.1: the size in memory of the type the pointer points to, a
    // constant of the module.
    const Value &r = result();
    const uint64_t size =
        byteSize(module_, typeOf(module_, typeOfId(instruction.idOperand(0), instruction)).element);
    emit(runtime::copyComponentsHandler(r.elementBytes(), Shape{r.varying, {false}}), r.offset,
         {splatConstant(r, size)}, r.components);
    return true;
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
    return true;
  }
  case spv::OpGroupAsyncCopy: {
    // Operands: execution scope, destination, source, element count, stride, event.
    const Value &destination = operand(1), &source = operand(2), &count = operand(3),
                &stride = operand(4);
    const uint32_t pointerType = typeOfId(instruction.idOperand(1), instruction);
    const Type &type = typeOf(module_, pointerType);
    const bool toLocal = type.storageClass == spv::StorageClassWorkgroup;
    const uint64_t elementBytes = byteSize(module_, type.element);
    if (options_.singleItemGroups) {
      // The work-group's one work-item copies (checks_ is null here).
      emit(runtime::laneAsyncCopyHandler(), result().offset,
           {destination.offset, source.offset, count.offset, stride.offset},
           (destination.varying ? 1 : 0) | (source.varying ? 2 : 0) | (count.varying ? 4 : 0) |
               (stride.varying ? 8 : 0),
           toLocal ? 1 : 0, elementBytes);
      return true;
    }
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
    return true;
  }
  default:
    return false;
  }
}

// Vectors kept in memory order. In memory each work-item's vector lies
// whole; in a register, a vector is component-major (component c of every
// lane, then c + 1), so a vload4 and a vstore4 each transpose the warp's
// vectors. A vector that is loaded through an affine address (vloadn,
// vload_halfn, or OpLoad through an affine pointer), computed on by
// lane-wise instructions of the same block only, and stored through an
// affine address (vstoren, vstore_halfn, OpStore) needs neither: when every
// lane of the warp runs the block (runtime::inMemoryOrder), its loads copy
// the lanes' vectors into the register as they lie in memory and its stores
// copy them back, and each lane-wise instruction computes every element of
// the register wherever the element lies, as long as its other operands are
// the same for every element (a uniform scalar, or a uniform vector whose
// components are equal: a splat). With a lane missing, the same loads and
// stores transpose, and the block computes component-major as any other.
// A computed vector read out of memory order too is converted once
// (convertToComponents). Not under checks, which read registers lane by
// lane.
void KernelLowering::findMemoryOrderValues() {
  if (checks_ || affinePairs_.empty())
    return;
  std::unordered_map<uint32_t, const Instruction *> defs;
  std::unordered_map<uint32_t, uint32_t> blockOf;
  std::unordered_map<uint32_t, std::vector<std::pair<const Instruction *, uint32_t>>> users;
  std::unordered_map<const Instruction *, uint32_t> position; // in its block
  for (uint32_t b = 0; b < cfg_->size(); ++b) {
    uint32_t at = 0;
    for (const Instruction &instruction : cfg_->order()[b]->instructions) {
      if (instruction.result) {
        defs[instruction.result] = &instruction;
        blockOf[instruction.result] = b;
      }
      position[&instruction] = at++;
      instruction.forEachIdOperand([&](uint32_t id) { users[id].push_back({&instruction, b}); });
    }
  }
  auto vectorOf = [&](uint32_t typeId) -> uint32_t {
    Scalar scalar;
    uint32_t components = 0;
    if (!typeId || !scalarForm(typeId, scalar, components) || scalar == Scalar::Bool ||
        scalar == Scalar::I128)
      return 0;
    return components;
  };
  auto laneWise = [&](const Instruction &instruction) {
    switch (instruction.opcode) {
    case spv::OpFAdd:
    case spv::OpFSub:
    case spv::OpFMul:
    case spv::OpFDiv:
    case spv::OpFRem:
    case spv::OpFMod:
    case spv::OpFNegate:
    case spv::OpIAdd:
    case spv::OpISub:
    case spv::OpIMul:
    case spv::OpSNegate:
    case spv::OpUDiv:
    case spv::OpSDiv:
    case spv::OpUMod:
    case spv::OpSRem:
    case spv::OpSMod:
    case spv::OpBitwiseAnd:
    case spv::OpBitwiseOr:
    case spv::OpBitwiseXor:
    case spv::OpNot:
    case spv::OpShiftLeftLogical:
    case spv::OpShiftRightLogical:
    case spv::OpShiftRightArithmetic:
    case spv::OpVectorTimesScalar:
    case spv::OpFConvert:
    case spv::OpConvertSToF:
    case spv::OpConvertUToF:
    case spv::OpConvertFToS:
    case spv::OpConvertFToU:
    case spv::OpSConvert:
    case spv::OpUConvert:
      return true;
    case spv::OpExtInst:
      // The element functions (emitMath); not the mixed, geometric,
      // permutation and memory ones.
      return openclStdNumber(instruction) && openclStdFunction(*openclStdNumber(instruction));
    default:
      return false;
    }
  };
  auto isLoad = [&](const Instruction &instruction) {
    using namespace OpenCLLIB;
    const auto number = openclStdNumber(instruction);
    return (instruction.opcode == spv::OpLoad ||
            (number && (*number == Vloadn || *number == Vload_halfn || *number == Vloada_halfn))) &&
           pairAddressed(instruction);
  };
  // Whether `user` stores `id` (and only it) through an affine address.
  auto storesThrough = [&](const Instruction &user, uint32_t id) {
    using namespace OpenCLLIB;
    if (user.opcode == spv::OpStore)
      return user.idOperand(1) == id && user.idOperand(0) != id && pairAddressed(user);
    switch (openclStdNumber(user).value_or(~uint32_t(0))) {
    case Vstoren:
    case Vstore_halfn:
    case Vstore_halfn_r:
    case Vstorea_halfn:
    case Vstorea_halfn_r:
      return user.idOperand(2) == id && user.idOperand(3) != id && user.idOperand(4) != id &&
             pairAddressed(user);
    default:
      return false;
    }
  };

  std::unordered_set<uint32_t> candidates, loads;
  // The candidates that instructions not in memory order read too: their
  // block and those instructions.
  std::unordered_map<uint32_t, std::pair<uint32_t, std::unordered_set<const Instruction *>>>
      converted;
  for (const auto &[id, instruction] : defs) {
    if (vectorOf(instruction->resultType) <= 1 || !uniformity_.isVarying(id) || dead_.count(id) ||
        promoted_.count(id))
      continue;
    if (isLoad(*instruction))
      loads.insert(id);
    if (loads.count(id) || laneWise(*instruction))
      candidates.insert(id);
  }
  // Whether every operand of candidate `id` is a candidate of its width or
  // the same in every component.
  auto operandsFit = [&](uint32_t id) {
    if (loads.count(id))
      return true;
    const Instruction &definition = *defs.at(id);
    const uint32_t components = vectorOf(definition.resultType);
    bool fit = true, first = true;
    definition.forEachIdOperand([&](uint32_t operand) {
      if (std::exchange(first, false) && definition.opcode == spv::OpExtInst)
        return; // the instruction set
      if (candidates.count(operand))
        fit &= vectorOf(resultTypes_.at(operand)) == components;
      else
        fit &= !uniformity_.isVarying(operand) && !affinePairs_.count(operand) &&
               (vectorOf(resultTypes_.count(operand) ? resultTypes_.at(operand) : 0) == 1 ||
                equalComponents(operand, defs));
    });
    return fit;
  };
  // Whether the users of candidate `id` allow it: those in memory order
  // (candidates and stores of its block) come before the others, which
  // read the value converted to the usual layout, and a load has none
  // (its load transposes once either way). Notes the others in
  // `converted`.
  auto usersFit = [&](uint32_t id) {
    const uint32_t b = blockOf.at(id);
    uint32_t lastInOrder = 0, firstOther = UINT32_MAX;
    std::unordered_set<const Instruction *> others;
    for (const auto &[user, block] : users[id]) {
      if (isDead(*user) || user->opcode == spv::OpPhi)
        return false;
      if (block == b && (candidates.count(user->result) || storesThrough(*user, id))) {
        lastInOrder = std::max(lastInOrder, position.at(user));
      } else {
        others.insert(user);
        if (block == b)
          firstOther = std::min(firstOther, position.at(user));
      }
    }
    if (others.empty()) {
      converted.erase(id);
      return true;
    }
    if (loads.count(id) || lastInOrder > firstOther)
      return false;
    converted[id] = {b, std::move(others)};
    return true;
  };
  // Out go the values whose operands or users do not fit, until none goes;
  // the operands' drops first, so that a value does not go for a user in
  // memory order that goes anyway.
  for (bool changed = true; changed;) {
    changed = false;
    for (bool dropped = true; dropped;) {
      dropped = false;
      for (auto it = candidates.begin(); it != candidates.end();)
        if (operandsFit(*it)) {
          ++it;
        } else {
          it = candidates.erase(it);
          dropped = changed = true;
        }
    }
    for (auto it = candidates.begin(); it != candidates.end();)
      if (usersFit(*it)) {
        ++it;
      } else {
        converted.erase(*it);
        it = candidates.erase(it);
        changed = true;
      }
  }
  for (auto it = converted.begin(); it != converted.end();)
    it = candidates.count(it->first) ? std::next(it) : converted.erase(it);
  memoryOrder_ = std::move(candidates);
  toComponents_.clear();
  for (auto &[id, readers] : converted)
    toComponents_[readers.first].push_back({id, std::move(readers.second)});
}

// Before `instruction` reads a vector in memory order that it does not
// compute on in that order, the vector's register is transposed to the
// usual layout, once; at the end of its block (instruction null), the
// vectors that only later blocks read.
void KernelLowering::convertToComponents(const Instruction *instruction, uint32_t block) {
  auto pending = toComponents_.find(block);
  if (pending == toComponents_.end())
    return;
  auto &vectors = pending->second;
  for (auto it = vectors.begin(); it != vectors.end();) {
    if (instruction && !it->readers.count(instruction)) {
      ++it;
      continue;
    }
    const Value &value = values_.at(it->id);
    emit(runtime::memoryOrderToComponentsHandler(value.elementBytes()), value.offset, {},
         value.components);
    it = vectors.erase(it);
  }
}

// Whether every component of the uniform vector `id` is provably the same:
// a null or splat constant, a construct of one scalar repeated, or a
// shuffle that repeats one component inserted into (or equal in) a vector.
bool KernelLowering::equalComponents(uint32_t id,
                                     const std::unordered_map<uint32_t, const Instruction *> &defs,
                                     int depth) const {
  if (depth > 4)
    return false;
  if (auto constant = module_.constants.find(id); constant != module_.constants.end()) {
    const Constant &c = constant->second;
    if (c.kind == Constant::Kind::Null)
      return true;
    if (c.kind != Constant::Kind::Composite || c.constituents.empty())
      return false;
    for (uint32_t constituent : c.constituents)
      if (constituent != c.constituents.front())
        return false;
    return true;
  }
  auto def = defs.find(id);
  if (def == defs.end())
    return false;
  const Instruction &instruction = *def->second;
  if (instruction.opcode == spv::OpCompositeConstruct) {
    for (size_t i = 0; i < instruction.operands.size(); ++i)
      if (instruction.operands[i] != instruction.operands[0] ||
          typeOf(module_, resultTypes_.at(instruction.operands[i])).kind == Type::Kind::Vector)
        return false;
    return !instruction.operands.empty();
  }
  if (instruction.opcode != spv::OpVectorShuffle || instruction.operands.size() < 3)
    return false;
  const uint32_t k = instruction.operands[2];
  for (size_t i = 3; i < instruction.operands.size(); ++i)
    if (instruction.operands[i] != k)
      return false;
  if (k == 0xFFFFFFFF)
    return false;
  const uint32_t first = instruction.operands[0];
  const uint32_t firstSize = typeOf(module_, resultTypes_.at(first)).count;
  const uint32_t source = k < firstSize ? first : instruction.operands[1];
  const uint32_t index = k < firstSize ? k : k - firstSize;
  auto inserted = defs.find(source);
  if (inserted != defs.end() && inserted->second->opcode == spv::OpCompositeInsert &&
      inserted->second->operands.size() == 3 && inserted->second->operands[2] == index)
    return true; // the one component the shuffle repeats
  return equalComponents(source, defs, depth + 1);
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
    const uint32_t n = number == Vload_half ? 1 : literal(2);
    const uint32_t stride = number == Vloada_halfn && n == 3 ? 4 : n;
    if (pairAddressed(instruction)) {
      // An affine address: a block copy (or a strided loop).
      const uint32_t bytes = number == Vloadn ? r.elementBytes() : 2;
      const uint32_t address = affineVectorAddress(instruction.idOperand(3),
                                                   instruction.idOperand(2), stride * bytes,
                                                   instruction);
      const bool memoryOrder = memoryOrder_.count(instruction.result) != 0;
      if (number == Vloadn) {
        emit(runtime::affineLoadHandler(bytes, memoryOrder), r.offset, {address}, r.components);
        return true;
      }
      const Value halves = temporary(Scalar::F16, r.components, r.varying);
      emit(runtime::affineLoadHandler(2, memoryOrder), halves.offset, {address}, r.components);
      emit(runtime::convertHandler({Scalar::F16}, {r.scalar}, runtime::Rounding::Default, false,
                                   Shape{r.varying, {r.varying}}),
           r.offset, {halves.offset}, r.components);
      // Floats in memory order: widened straight from memory when the
      // warp allows (runtime::widenedHalfLoadHandler).
      if (const runtime::Handler widened = runtime::widenedHalfLoadHandler();
          widened && memoryOrder && r.scalar == Scalar::F32) {
        auto steps = std::make_shared<runtime::HalfLoadSteps>();
        std::copy(code_.instructions.end() - 2, code_.instructions.end(), steps->step.begin());
        code_.instructions.resize(code_.instructions.size() - 2);
        runtime::Instruction fused = steps->step[1];
        fused.handler = widened;
        fused.operand[0] = address;
        fused.data = steps.get();
        code_.tables.push_back(steps);
        code_.instructions.push_back(fused);
      }
      return true;
    }
    const Value &offset = argument(0), &pointer = argument(1);
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
    const Value &data = argument(0);
    const uint32_t n = data.components;
    const uint32_t stride =
        (number == Vstorea_halfn || number == Vstorea_halfn_r) && n == 3 ? 4 : n;
    const bool affine = pairAddressed(instruction);
    auto store = [&](const Value &value) {
      // An affine address: a block copy (or a strided loop).
      const uint32_t address =
          affineVectorAddress(instruction.idOperand(4), instruction.idOperand(3),
                              uint64_t(stride) * value.elementBytes(), instruction);
      const bool global = pointsToGlobal(instruction.idOperand(4), instruction);
      emit(runtime::affineStoreHandler(value.elementBytes(), value.varying, global,
                                       memoryOrder_.count(instruction.idOperand(2)) != 0),
           0, {address, value.offset}, n);
    };
    if (number == Vstoren && affine) {
      store(data);
      return true;
    }
    if (number == Vstoren) {
      const Value &offset = argument(1), &pointer = argument(2);
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
    if (affine) {
      store(halves);
      return true;
    }
    const Value &offset = argument(1), &pointer = argument(2);
    const Value address = offsetAddress(pointer, offset, uint64_t(stride) * 2);
    emit(runtime::storeHandler(2, Shape{false, {address.varying, halves.varying}}), 0,
         {checkedAddress(address, address.offset, 2 * n, 2, true), halves.offset}, n);
    return true;
  }
  default:
    return false;
  }
}

// Module-scope and private variables, and where pointers point.

Value KernelLowering::globalVariableValue(const GlobalVariable &variable, const Instruction &user) {
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
  if (variable.storageClass == spv::StorageClassWorkgroup && options_.singleItemGroups) {
    // The work-item's own: in its private memory.
    value.varying = true;
    value.offset = allocate(8, true);
    allocatePrivate(value, typeOf(module_, variable.pointerType).element, variable.id);
    return value;
  }
  value.offset = allocate(8, false);
  if (variable.storageClass == spv::StorageClassWorkgroup) {
    const uint32_t pointee = typeOf(module_, variable.pointerType).element;
    const uint64_t alignment = alignmentOf(module_, pointee).value_or(16);
    uint64_t &bytes = code_.memory.workgroupBytes;
    bytes = (bytes + alignment - 1) / alignment * alignment;
    code_.memory.workgroupAlignment =
        std::max(code_.memory.workgroupAlignment, static_cast<uint32_t>(alignment));
    code_.addresses.push_back(
        {runtime::AddressRegister::Space::Workgroup, value.offset, bytes, false});
    const uint64_t size = byteSize(module_, pointee);
    if (checks_)
      checks_->localVariables.push_back({bytes, size, nameOf(variable.id)});
    bytes += size;
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

void KernelLowering::allocatePrivate(const Value &pointer, uint32_t pointee, uint32_t id) {
  const uint64_t alignment = std::max<uint64_t>(alignmentOf(module_, pointee).value_or(16), 1);
  uint64_t &bytes = code_.memory.privateBytesPerLane;
  bytes = (bytes + alignment - 1) / alignment * alignment;
  // Each lane's region starts at a multiple of the largest alignment.
  code_.memory.privateAlignment =
      std::max(code_.memory.privateAlignment, static_cast<uint32_t>(alignment));
  code_.addresses.push_back(
      {runtime::AddressRegister::Space::Private, pointer.offset, bytes, pointer.varying});
  const uint64_t size = byteSize(module_, pointee);
  if (checks_)
    checks_->privateVariables.push_back({bytes, size, nameOf(id)});
  bytes += size;
  if (checking(runtime::Check::Bounds))
    bytes += redZone;
  bytes = (bytes + 15) / 16 * 16;
}

bool KernelLowering::pointsToGlobal(uint32_t id, const Instruction &user) {
  for (int depth = 0; depth < 16; ++depth) {
    const Type &type = typeOf(module_, typeOfId(id, user));
    if (type.kind != Type::Kind::Pointer)
      return false;
    if (type.storageClass == spv::StorageClassCrossWorkgroup)
      return true;
    const Instruction *defined = definition(id);
    if (type.storageClass != spv::StorageClassGeneric || !defined)
      return false;
    switch (defined->opcode) {
    case spv::OpPtrCastToGeneric:
    case spv::OpBitcast:
    case spv::OpCopyObject:
    case spv::OpAccessChain:
    case spv::OpInBoundsAccessChain:
    case spv::OpPtrAccessChain:
    case spv::OpInBoundsPtrAccessChain:
      id = defined->idOperand(0);
      break;
    default:
      return false;
    }
  }
  return false;
}

} // namespace lanewise::spirv::lowering
