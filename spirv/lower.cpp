// SPDX-License-Identifier: Apache-2.0
// Lowering a kernel to bytecode: the uniformity of its values, its
// arguments, its blocks in order, and the dispatch of each instruction to
// its family (spirv/lowering.h lists the files).
#include "spirv/lowering.h"

#include "spirv/cfg.h"
#include "spirv/inline.h"
#include "spirv/names.h"
#include "spirv/uniformity.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <unordered_set>

namespace lanewise::spirv {

namespace lowering {

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

bool KernelLowering::isVaryingBuiltin(spv::BuiltIn builtin) const {
  return lowering::isVaryingBuiltin(builtin) ||
         (builtin == spv::BuiltInWorkgroupId && options_.groupsShareWarps);
}

bool KernelLowering::readsSharedMemory(const Instruction &instruction) const {
  const spv::Op op = instruction.opcode;
  if (op == spv::OpLoad) {
    // Private memory is the lane's own; constant memory and the built-in
    // variables do not change.
    const Type &pointer = typeOf(module_, typeOfId(instruction.idOperand(0), instruction));
    const spv::StorageClass storage = pointer.storageClass;
    return storage != spv::StorageClassFunction && storage != spv::StorageClassUniformConstant &&
           storage != spv::StorageClassInput;
  }
  if (op == spv::OpExtInst) {
    const uint32_t number = instruction.operands.at(1);
    return number >= 171 && number <= 181; // vloadn .. vstorea_halfn_r
  }
  if (instruction.result && familyOf(instruction) == runtime::Family::Atomic)
    return true;
  return op == spv::OpImageRead || op == spv::OpImageFetch || op == spv::OpImageSampleExplicitLod;
}

bool KernelLowering::isVaryingSource(const Instruction &instruction) const {
  if (isSubgroupOperation(instruction.opcode))
    return true; // per-lane results (and a lane's sub-group is per lane)
  if (options_.singleItemGroups) {
    // Each lane's __local variables are its own.
    bool local = false;
    instruction.forEachIdOperand([&](uint32_t id) {
      if (const GlobalVariable *variable = module_.globalVariable(id))
        local |= variable->storageClass == spv::StorageClassWorkgroup;
    });
    if (local)
      return true;
  }
  switch (instruction.opcode) {
  case spv::OpExtInst: {
    // printf's result says whether each work-item's output was kept.
    return openclStdNumber(instruction) == OpenCLLIB::Printf;
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
  case spv::OpImageRead:
  case spv::OpImageWrite:
  case spv::OpImageSampleExplicitLod:
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
// arithmetic, bitwise, comparison and conversion instructions, copies,
// vector composites and shuffles (component by component), and the
// element-wise functions and shuffles of OpenCL.std (not the vector loads
// and stores, printf and prefetch).
bool propagatesUndefined(const Module &module, const Instruction &instruction) {
  const spv::Op op = instruction.opcode;
  if (binaryOp(op) || unaryOp(op) || isConversion(op))
    return true;
  switch (op) {
  case spv::OpCompositeExtract:
  case spv::OpCompositeInsert:
  case spv::OpCompositeConstruct:
  case spv::OpVectorShuffle:
  case spv::OpVectorExtractDynamic:
  case spv::OpVectorInsertDynamic:
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
           number == OpenCLLIB::Select || number == OpenCLLIB::Shuffle ||
           number == OpenCLLIB::Shuffle2;
  }
  default:
    return false;
  }
}

bool KernelLowering::readsMemoryShadow(const Instruction &instruction) {
  if (instruction.opcode != spv::OpLoad || !checking(runtime::Check::Uninit) ||
      promoted_.count(instruction.idOperand(0)))
    return false;
  const Type &result = typeOf(module_, instruction.resultType);
  if (result.kind != Type::Kind::Bool && result.kind != Type::Kind::Int &&
      result.kind != Type::Kind::Float && result.kind != Type::Kind::Vector &&
      result.kind != Type::Kind::Pointer)
    return false;
  const Type &pointer = typeOf(module_, typeOfId(instruction.idOperand(0), instruction));
  if (pointer.kind != Type::Kind::Pointer)
    return false;
  const spv::StorageClass storage = pointer.storageClass;
  return storage == spv::StorageClassFunction || storage == spv::StorageClassWorkgroup ||
         storage == spv::StorageClassGeneric;
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
  for (const Block *block : cfg_->order())
    for (const Instruction &instruction : block->instructions)
      if (instruction.result && shadowed(instruction.resultType)) {
        const Type &type = typeOf(module_, instruction.resultType);
        componentCounts_[instruction.result] = type.kind == Type::Kind::Vector ? type.count : 1;
      }
  if (checking(runtime::Check::Uninit)) {
    for (const auto &[id, constant] : module_.constants)
      if (constant.kind == Constant::Kind::Undef && shadowed(constant.type))
        undefinedIds_.insert(id);
    for (const Block *block : cfg_->order())
      for (const Instruction &instruction : block->instructions) {
        if (instruction.opcode == spv::OpUndef && shadowed(instruction.resultType))
          undefinedIds_.insert(instruction.result);
        if (readsMemoryShadow(instruction))
          shadowedLoads_.insert(instruction.result);
      }
  }
  maybeUndefined_ = undefinedIds_;
  maybeUndefined_.insert(shadowedLoads_.begin(), shadowedLoads_.end());
  for (uint32_t id : maybeUndefined_)
    undefinedOrigins_[id] = {id};
  for (const Block *block : cfg_->order())
    for (const Instruction &instruction : block->instructions)
      if (deferredShuffle(instruction) && shadowed(instruction.resultType))
        maybeUndefined_.insert(instruction.result);
  if (maybeUndefined_.empty())
    return;
  constexpr size_t originsKept = 4; // more are reported as "several"
  for (bool changed = true; changed;) {
    changed = false;
    for (const Block *block : cfg_->order())
      for (const Instruction &instruction : block->instructions) {
        if (!instruction.result || !shadowed(instruction.resultType) ||
            !propagatesUndefined(module_, instruction))
          continue;
        std::vector<uint32_t> sources;
        auto consider = [&](uint32_t id) {
          if (!maybeUndefined_.count(id))
            return;
          sources.push_back(id);
        };
        if (instruction.opcode == spv::OpPhi) {
          for (size_t k = 0; k + 1 < instruction.operands.size(); k += 2)
            consider(instruction.operands[k]);
        } else {
          instruction.forEachIdOperand(consider);
        }
        if (sources.empty())
          continue;
        if (maybeUndefined_.insert(instruction.result).second)
          changed = true;
        std::vector<uint32_t> &origins = undefinedOrigins_[instruction.result];
        for (uint32_t source : sources)
          for (uint32_t origin : undefinedOrigins_[source])
            if (origins.size() <= originsKept &&
                std::find(origins.begin(), origins.end(), origin) == origins.end()) {
              origins.push_back(origin);
              changed = true;
            }
      }
  }
}

std::string KernelLowering::originOf(uint32_t id) {
  auto it = undefinedOrigins_.find(id);
  if (it == undefinedOrigins_.end() || it->second.empty())
    return "";
  std::vector<std::string> parts;
  for (uint32_t origin : it->second) {
    if (parts.size() == 4)
      return "; the value comes from one of several reads of memory never written or variables "
             "never assigned";
    const Instruction *load = nullptr;
    for (const Block *block : cfg_->order())
      for (const Instruction &instruction : block->instructions)
        if (instruction.result == origin && instruction.opcode == spv::OpLoad)
          load = &instruction;
    if (!load) {
      parts.push_back("a variable never assigned on the work-item's path");
      continue;
    }
    // The variable the load reads: the base of its access chains.
    uint32_t base = load->idOperand(0);
    for (bool found = true; found;) {
      found = false;
      for (const Block *block : cfg_->order())
        for (const Instruction &instruction : block->instructions)
          if (instruction.result == base &&
              (instruction.opcode == spv::OpAccessChain ||
               instruction.opcode == spv::OpInBoundsAccessChain ||
               instruction.opcode == spv::OpPtrAccessChain ||
               instruction.opcode == spv::OpInBoundsPtrAccessChain ||
               instruction.opcode == spv::OpBitcast ||
               instruction.opcode == spv::OpPtrCastToGeneric)) {
            base = instruction.idOperand(0);
            found = true;
          }
    }
    const Type &pointer = typeOf(module_, typeOfId(load->idOperand(0), *load));
    std::string what = pointer.storageClass == spv::StorageClassWorkgroup ? "__local memory"
                       : pointer.storageClass == spv::StorageClassFunction
                           ? "private memory"
                           : "memory";
    // clang names a kernel's __local variable "kernel.variable".
    std::string name = nameOf(base);
    if (name.starts_with(entryPoint_.name + "."))
      name = name.substr(entryPoint_.name.size() + 1);
    if (!name.empty() && name[0] != '%')
      what += " ('" + name + "')";
    std::string text = "the read of " + what;
    if (const SourceLocation *location = module_.location(*load); location && location->known())
      text += " at " + (location->file.starts_with("./") ? location->file.substr(2) : location->file) +
              ":" + std::to_string(location->line);
    parts.push_back(text + ", where no work-item had written it");
  }
  // Reads named once each; an OpUndef (the base clang inserts a vector's
  // components into, most often) only when no read is known.
  std::vector<std::string> unique;
  for (const std::string &part : parts)
    if (std::find(unique.begin(), unique.end(), part) == unique.end() &&
        (part.starts_with("the read") || parts.size() == 1 ||
         std::none_of(parts.begin(), parts.end(),
                      [](const std::string &p) { return p.starts_with("the read"); })))
      unique.push_back(part);
  parts = std::move(unique);
  std::string result = "; the value comes from ";
  for (size_t i = 0; i < parts.size(); ++i)
    result += (i ? i + 1 == parts.size() ? " or " : ", " : "") + parts[i];
  return result;
}

KernelLowering::Shadow KernelLowering::reshapeShadow(const Shadow &from, uint32_t components,
                                                     uint32_t fromBytes, uint32_t toBytes) {
  if (from.components == components && (toBytes == 0 || toBytes == fromBytes))
    return from;
  Shadow result{allocate(components, true), true, components};
  if (toBytes == 0 && from.components == 1) {
    // One component given to all.
    const uint32_t defined = shadowConstant(false, components);
    emit(runtime::undefJoinHandler(from.varying, false), result.offset, {from.offset, defined},
         components, 0, 4);
    return result;
  }
  if (toBytes == 0) { // reduced over all, then given to all
    fromBytes = 1;
    toBytes = from.components;
    if (components != 1) {
      const Shadow reduced = reshapeShadow(from, 1);
      return reshapeShadow(reduced, components);
    }
  }
  emit(runtime::undefRegroupHandler(), result.offset, {from.offset}, components, from.components,
       uint64_t(from.varying) | uint64_t(fromBytes) << 8 | uint64_t(toBytes) << 16);
  return result;
}

// The shadow of a maybe-undefined result (not a phi: its edges copy it; not
// a load of memory with a shadow: lowerMemory reads it).
void KernelLowering::emitShadow(const Instruction &instruction, uint32_t shadow) {
  const spv::Op op = instruction.opcode;
  if (op == spv::OpLoad)
    return;
  const uint32_t components = shadowComponents(instruction.result);
  const Shadow target{shadow, true, components};
  auto operandShadow = [&](uint32_t id) {
    return shadowOrDefined(id, shadowComponents(id));
  };
  // The shadow `from` into the result's shadow (component counts alike).
  auto copyTo = [&](const Shadow &from, const Shadow &to) {
    emit(runtime::copyComponentsHandler(1, runtime::Shape{to.varying, {from.varying}}), to.offset,
         {from.offset}, to.components);
  };
  auto join = [&](const Shadow &a, const Shadow &b, const Shadow &to) {
    emit(runtime::undefJoinHandler(a.varying, b.varying), to.offset, {a.offset, b.offset},
         to.components, 0,
         (a.components == 1 && to.components > 1 ? 4u : 0u) |
             (b.components == 1 && to.components > 1 ? 8u : 0u));
  };
  if (deferredShuffle(instruction)) {
    // The shadow of the lane read, or shadowBadShuffle where that lane is
    // outside the sub-group or inactive (exec_check.cpp), for the whole
    // value.
    const Value &index = use(instruction.idOperand(2), instruction);
    const Shadow input = reshapeShadow(operandShadow(instruction.idOperand(1)), 1);
    const auto kind = op == spv::OpGroupNonUniformShuffleUp ? builtins::LaneSource::Up
                                                            : builtins::LaneSource::Down;
    const uint32_t one = components == 1 ? shadow : allocate(1, true);
    emit(runtime::checkSubgroupHandler(), one, {index.offset, input.offset}, 1, 0,
         2 | (uint64_t(kind) << 8) | (uint64_t(index.elementBytes()) << 16) |
             (uint64_t(index.varying) << 24) | (uint64_t(input.varying) << 25));
    if (components > 1)
      copyTo(reshapeShadow(Shadow{one, true, 1}, components), target);
    return;
  }
  if (op == spv::OpSelect) {
    const Value &condition = use(instruction.idOperand(0), instruction);
    Shadow parts[3];
    for (size_t k = 0; k < 3; ++k)
      parts[k] = operandShadow(instruction.idOperand(k));
    const bool one = condition.components == 1 && components > 1;
    emit(runtime::undefSelectHandler(), shadow,
         {condition.offset, parts[0].offset, parts[1].offset, parts[2].offset}, components, 0,
         uint64_t(condition.varying) | uint64_t(parts[0].varying) << 1 |
             uint64_t(parts[1].varying) << 2 | uint64_t(parts[2].varying) << 3 |
             uint64_t(one) << 4);
    return;
  }
  if (op == spv::OpLogicalAnd || op == spv::OpLogicalOr || op == spv::OpBitwiseAnd ||
      op == spv::OpBitwiseOr) {
    // A defined false (0) decides an AND, a defined true (all ones) an OR.
    const Value &a = use(instruction.idOperand(0), instruction);
    const Value &b = use(instruction.idOperand(1), instruction);
    const Shadow sa = operandShadow(instruction.idOperand(0));
    const Shadow sb = operandShadow(instruction.idOperand(1));
    const bool isOr = op == spv::OpLogicalOr || op == spv::OpBitwiseOr;
    const bool isBool = a.scalar == Scalar::Bool;
    emit(runtime::undefLogicalHandler(), shadow, {a.offset, b.offset, sa.offset, sb.offset},
         components, 0,
         uint64_t(a.varying) | uint64_t(b.varying) << 1 | uint64_t(sa.varying) << 2 |
             uint64_t(sb.varying) << 3 | uint64_t(isOr) << 4 | uint64_t(isBool) << 5 |
             uint64_t(isBool ? 1 : a.elementBytes()) << 8);
    return;
  }
  switch (op) {
  case spv::OpCompositeExtract: {
    // Of a vector (aggregates have no shadow, so are never the source).
    const Shadow source = operandShadow(instruction.idOperand(0));
    const uint32_t index = instruction.operands.at(1);
    emit(runtime::copyComponentsHandler(1, runtime::Shape{true, {source.varying}}), shadow,
         {source.offset + (source.varying ? index * code_.width : index)}, 1);
    return;
  }
  case spv::OpCompositeInsert: {
    const Shadow object = operandShadow(instruction.idOperand(0));
    copyTo(operandShadow(instruction.idOperand(1)), target);
    const uint32_t index = instruction.operands.at(2);
    emit(runtime::copyComponentsHandler(1, runtime::Shape{true, {object.varying}}),
         shadow + index * code_.width, {object.offset}, 1);
    return;
  }
  case spv::OpCompositeConstruct: {
    uint32_t component = 0;
    for (size_t i = 0; i < instruction.operands.size(); ++i) {
      const Shadow part = operandShadow(instruction.idOperand(i));
      emit(runtime::copyComponentsHandler(1, runtime::Shape{true, {part.varying}}),
           shadow + component * code_.width, {part.offset}, part.components);
      component += part.components;
    }
    return;
  }
  case spv::OpVectorShuffle: {
    // A component selected as 0xFFFFFFFF (a don't-care, as clang writes the
    // fourth of a 3-vector) is left defined.
    const Shadow a = operandShadow(instruction.idOperand(0));
    const Shadow b = operandShadow(instruction.idOperand(1));
    auto selection = std::make_shared<std::vector<uint32_t>>(instruction.operands.begin() + 2,
                                                             instruction.operands.end());
    if (std::find(selection->begin(), selection->end(), 0xFFFFFFFFu) != selection->end())
      copyTo(Shadow{shadowConstant(false, components), false, components}, target);
    code_.tables.push_back(selection);
    emit(runtime::vectorShuffleHandler(1, runtime::Shape{true, {a.varying, b.varying}}), shadow,
         {a.offset, b.offset}, components, a.components, 0, selection.get());
    return;
  }
  case spv::OpVectorExtractDynamic: {
    const Value &index = use(instruction.idOperand(1), instruction);
    const Shadow vector = operandShadow(instruction.idOperand(0));
    const Shadow picked{allocate(1, true), true, 1};
    emit(runtime::extractDynamicHandler(1, runtime::Shape{true, {vector.varying, index.varying}}),
         picked.offset, {vector.offset, index.offset}, 1, index.elementBytes(), vector.components);
    join(picked, operandShadow(instruction.idOperand(1)), target);
    return;
  }
  case spv::OpVectorInsertDynamic: {
    const Value &index = use(instruction.idOperand(2), instruction);
    const Shadow vector = operandShadow(instruction.idOperand(0));
    const Shadow component = operandShadow(instruction.idOperand(1));
    const Shadow inserted{allocate(components, true), true, components};
    emit(runtime::insertDynamicHandler(
             1, runtime::Shape{true, {vector.varying, component.varying, index.varying}}),
         inserted.offset, {vector.offset, component.offset, index.offset}, components,
         index.elementBytes());
    join(inserted, operandShadow(instruction.idOperand(2)), target);
    return;
  }
  case spv::OpBitcast: {
    const Value &from = use(instruction.idOperand(0), instruction);
    const Value &to = values_.at(instruction.result);
    copyTo(reshapeShadow(operandShadow(instruction.idOperand(0)), components, from.elementBytes(),
                         to.elementBytes()),
           target);
    return;
  }
  default:
    break;
  }
  if (op == spv::OpExtInst) {
    const uint32_t number = instruction.operands.at(1);
    if (number == OpenCLLIB::Shuffle || number == OpenCLLIB::Shuffle2) {
      // The components the mask selects, and all where the mask is undefined.
      const bool two = number == OpenCLLIB::Shuffle2;
      const Value &mask = use(instruction.idOperand(two ? 4 : 3), instruction);
      const Value &x = use(instruction.idOperand(2), instruction);
      const Shadow sx = operandShadow(instruction.idOperand(2));
      const Shadow sy = two ? operandShadow(instruction.idOperand(3)) : sx;
      const Shadow picked{allocate(components, true), true, components};
      emit(runtime::shuffleHandler(1, runtime::Shape{true, {sx.varying, sy.varying, mask.varying}},
                                   two),
           picked.offset, {sx.offset, sy.offset, mask.offset}, components, x.components);
      join(picked, reshapeShadow(operandShadow(instruction.idOperand(two ? 4 : 3)), 1), target);
      return;
    }
  }
  // Element-wise: the join of the operands' shadows, component by
  // component; an operand of one component applies to all, one of another
  // count (a vector reduced to a scalar, OpDot, OpAny) is reduced first.
  std::vector<Shadow> parts;
  instruction.forEachIdOperand([&](uint32_t id) {
    if (auto part = shadowOf(id))
      parts.push_back(part->components == components || part->components == 1
                          ? *part
                          : reshapeShadow(*part, components));
  });
  const Shadow defined{shadowConstant(false, components), false, components};
  if (parts.empty())
    parts.push_back(defined);
  if (parts.size() == 1)
    parts.push_back(defined);
  join(parts[0], parts[1], target);
  for (size_t i = 2; i < parts.size(); ++i)
    join(target, parts[i], target);
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
  // In a loop that waits for other work-items, a sub-group may run ahead of
  // the others of its warp (independent forward progress,
  // runtime/interpreter.cpp). A value is then the same in every lane only
  // if it is the same whenever it is computed: phis (a loop counter the
  // sub-group ahead has stepped) and reads of memory that others write are
  // then per lane.
  waitingLoops_ = findWaitingLoops(flat_, *cfg_, [this](const Instruction &instruction) {
    return readsSharedMemory(instruction);
  });
  uniformity_ = analyseUniformity(flat_, *cfg_, [this](const Instruction &instruction) {
    if (isVaryingSource(instruction))
      return true;
    return !waitingLoops_.empty() &&
           (instruction.opcode == spv::OpPhi || readsSharedMemory(instruction));
  });
  if (options_.singleItemGroups)
    for (const GlobalVariable &variable : module_.globalVariables)
      if (variable.storageClass == spv::StorageClassWorkgroup)
        uniformity_.varying.insert(variable.id); // each lane's own, as isVaryingSource says
  const char *all = std::getenv("LANEWISE_ALL_VARYING");
  const bool allVarying = all && *all == '1';
  if (allVarying)
    for (const Block *block : cfg_->order())
      for (const Instruction &instruction : block->instructions)
        if (instruction.result)
          uniformity_.varying.insert(instruction.result);

  bindArguments(flat_);
  findDeadValues();
  findPromotableVariables();
  if (!allVarying)
    findAffineValues();
  findMemoryOrderValues();

  findBlockLocalValues();
  findCoalescedPhis();
  findComposedSelections();
  findStreamedStores();
  findRecordStores();
  // Registers for every result, so that phis can name values of later blocks.
  for (const Block *block : cfg_->order())
    for (const Instruction &instruction : block->instructions) {
      if (!instruction.result || !instruction.resultType)
        continue;
      const Type &type = typeOf(module_, instruction.resultType);
      if (type.kind == Type::Kind::Void || dead_.count(instruction.result))
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
      if (affinePairs_.count(instruction.result) && !laneForms_.count(instruction.result))
        continue; // only the pair
      if (promoted_.count(instruction.result)) {
        // The variable's value itself, one element per lane.
        values_.emplace(instruction.result,
                        makeValue(typeOf(module_, instruction.resultType).element, true));
        continue;
      }
      if (auto phi = coalesced_.find(instruction.result); phi != coalesced_.end()) {
        values_.emplace(instruction.result, values_.at(phi->second));
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
        const uint32_t components = shadowComponents(instruction.result);
        undefShadow_.emplace(instruction.result, allocate(components, true));
        if (phiStaging_.count(instruction.result))
          undefShadowStaging_.emplace(instruction.result, allocate(components, true));
      }
  }

  // Bytecode blocks: each SPIR-V block, split after each work-group barrier.
  const uint32_t n = cfg_->size();
  firstPiece_.assign(n + 1, 0);
  for (uint32_t b = 0; b < n; ++b) {
    uint32_t pieces = 1;
    for (const Instruction &instruction : cfg_->order()[b]->instructions)
      pieces += piecesEnded(instruction);
    firstPiece_[b + 1] = firstPiece_[b] + pieces;
  }
  code_.blocks.resize(firstPiece_[n]);
  for (const auto &[header, body] : cfg_->loops())
    if (waitingLoops_.count(header))
      for (uint32_t b : body)
        for (uint32_t piece = firstPiece_[b]; piece < firstPiece_[b + 1]; ++piece)
          code_.blocks[piece].waits = true;

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
        code_.blocks[piece].phiCopies.push_back({shadow->second, undefShadow_.at(phi.result), 1,
                                                 shadowComponents(phi.result), true, true});
    }
    // Ends the current piece at a work-group barrier of `instruction`,
    // whose fences are `fences`: the warps wait there for each other.
    auto endPieceAtBarrier = [&](const Instruction &instruction, uint32_t fences) {
      runtime::Block &ending = code_.blocks[piece];
      ending.instructionCount =
          static_cast<uint32_t>(code_.instructions.size()) - ending.firstInstruction;
      ending.terminator.kind = runtime::Terminator::Kind::Barrier;
      ending.terminator.target = {piece + 1};
      ending.terminator.barrierFences = fences;
      if (checking(runtime::Check::Barriers))
        ending.terminator.checkSite =
            addSite(instruction, 0, runtime::CheckSite::Space::Generic, false);
      ending.terminator.edgeCopies.resize(1);
      code_.hasBarrier = true;
      ++piece;
      code_.blocks[piece].firstInstruction = static_cast<uint32_t>(code_.instructions.size());
      code_.blocks[piece].sourceLabel = block.label;
    };
    auto lowerInBlock = [&](const Instruction &original) {
      Instruction instruction = original;
      current_ = &instruction;
      if (instruction.opcode == spv::OpPhi || isBlockTerminator(instruction.opcode) ||
          isDead(original))
        return;
      if (instruction.opcode == spv::OpControlBarrier) {
        const auto scope = module_.constantValue(instruction.idOperand(0));
        if (!scope)
          fail(instruction, "the execution scope must be a constant");
        emitFence(instruction, 1, 2);
        if (!endsPiece(instruction))
          return; // the lanes the barrier waits for run in lockstep
        const auto semantics = module_.constantValue(instruction.idOperand(2));
        if (!semantics)
          fail(instruction, "the memory semantics must be a constant");
        endPieceAtBarrier(
            instruction,
            (*semantics & spv::MemorySemanticsWorkgroupMemoryMask ? uint32_t(runtime::FenceLocal)
                                                                  : 0u) |
                (*semantics & spv::MemorySemanticsCrossWorkgroupMemoryMask
                     ? uint32_t(runtime::FenceGlobal)
                     : 0u));
        return;
      }
      const bool local = localUses_.count(instruction.result) != 0;
      const bool pairOnly =
          affinePairs_.count(instruction.result) && !laneForms_.count(instruction.result);
      if (local && !boundWhenLowered(instruction) && !pairOnly) {
        pooling_ = true;
        values_.emplace(instruction.result,
                        makeValue(instruction.resultType, uniformity_.isVarying(instruction.result)));
        pooling_ = false;
      }
      if (isWorkGroupCollective(instruction))
        lowerWorkGroupCollective(instruction, [&] {
          if (!options_.singleItemGroups)
            endPieceAtBarrier(instruction, runtime::FenceLocal);
        });
      else
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
    };
    for (const Instruction &instruction : block.instructions) {
      if (sunk_.count(&instruction))
        continue;
      const size_t emitted = code_.instructions.size();
      if (auto record = recordStores_.find(&instruction); record != recordStores_.end()) {
        std::vector<size_t> memberEnds;
        for (const Instruction *member : record->second) {
          lowerInBlock(*member);
          memberEnds.push_back(code_.instructions.size());
        }
        lowerInBlock(instruction);
        memberEnds.push_back(code_.instructions.size());
        fuseRecordStore(emitted, memberEnds);
        continue;
      }
      lowerInBlock(instruction);
      if (!streamedStores_.empty())
        fuseStreamedStore(instruction, emitted);
      if (auto sunk = sinkAfter_.find(&instruction); sunk != sinkAfter_.end())
        lowerInBlock(*sunk->second); // findCoalescedPhis
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
  code_.groupIndependent = groupIndependent();
  code_.singleItemGroups = singleItemGroups();
  for (const runtime::BuiltinRegister &builtin : code_.builtins)
    code_.usesSubgroups |= runtime::isSubgroupBuiltin(builtin.value);
  return std::move(code_);
}

// Every built-in is the same in every full work-group of a launch, or
// written by the engine for each lane of a warp of several groups (the
// group id, in code lowered for such warps).
bool KernelLowering::groupIndependent() const {
  if (checks_ || options_.singleItemGroups || code_.hasBarrier || code_.memory.workgroupBytes ||
      code_.asyncCopySites)
    return false;
  for (const runtime::ArgumentBinding &argument : code_.arguments)
    if (argument.kind == runtime::ArgumentBinding::Kind::LocalBuffer)
      return false;
  return true;
}

bool KernelLowering::singleItemGroups() const {
  if (checks_ || code_.usesSubgroups)
    return false;
  // A __local argument's size is the launch's: it cannot be laid out in
  // private memory when the kernel is lowered.
  for (const runtime::ArgumentBinding &argument : code_.arguments)
    if (argument.kind == runtime::ArgumentBinding::Kind::LocalBuffer)
      return false;
  // to_local, to_private and get_fence would see __local variables in
  // private memory; a work-group collective would combine the lanes of a
  // warp, each its own group.
  for (const Block &block : flat_.blocks)
    for (const Instruction &instruction : block.instructions)
      if (instruction.opcode == spv::OpGenericCastToPtrExplicit ||
          instruction.opcode == spv::OpGenericPtrMemSemantics ||
          isWorkGroupCollective(instruction))
        return false;
  return true;
}

// The OpenCL C image type of an OpTypeImage (the OpenCL SPIR-V environment,
// 2.9: 1D, 2D and 3D, Buffer, Arrayed 1D and 2D); depth and multi-sampled
// images are not supported.
runtime::ImageType KernelLowering::imageTypeOf(const Type &type, uint32_t parameter) const {
  using runtime::ImageType;
  if (type.depth == 1 || type.multisampled)
    throw LoadError(LoadErrorKind::Invalid,
                    "kernel '" + entryPoint_.name + "': parameter %" + std::to_string(parameter) +
                        ": depth and multi-sampled images are not supported");
  switch (type.dim) {
  case spv::Dim1D:
    return type.arrayed ? ImageType::Image1DArray : ImageType::Image1D;
  case spv::DimBuffer:
    return ImageType::Image1DBuffer;
  case spv::Dim2D:
    return type.arrayed ? ImageType::Image2DArray : ImageType::Image2D;
  case spv::Dim3D:
    if (!type.arrayed)
      return ImageType::Image3D;
    [[fallthrough]];
  default:
    throw LoadError(LoadErrorKind::Invalid,
                    "kernel '" + entryPoint_.name + "': parameter %" + std::to_string(parameter) +
                        ": an image of this dimensionality is not an OpenCL image type");
  }
}

void KernelLowering::bindArguments(const Function &function) {
  for (const auto &[id, typeId] : function.parameters) {
    const Type &type = typeOf(module_, typeId);
    runtime::ArgumentBinding binding;
    Value value;
    value.scalar = Scalar::I64;
    if (type.kind == Type::Kind::Image || type.kind == Type::Kind::Sampler) {
      value = makeValue(typeId, false);
      binding.offset = value.offset;
      binding.registerSize = 8;
      binding.size = 8;
      if (type.kind == Type::Kind::Sampler) {
        binding.kind = runtime::ArgumentBinding::Kind::Sampler;
      } else {
        binding.kind = runtime::ArgumentBinding::Kind::Image;
        binding.imageType = imageTypeOf(type, id);
        binding.imageAccess = type.access == spv::AccessQualifierWriteOnly
                                  ? runtime::ImageAccess::WriteOnly
                              : type.access == spv::AccessQualifierReadWrite
                                  ? runtime::ImageAccess::ReadWrite
                                  : runtime::ImageAccess::ReadOnly;
      }
    } else if (type.kind == Type::Kind::Pointer) {
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
  if (!undefShadow_.empty())
    if (auto shadow = undefShadow_.find(instruction.result); shadow != undefShadow_.end())
      emitShadow(instruction, shadow->second);

  if (lowerAffine(instruction) || lowerArithmetic(instruction) || lowerMemory(instruction) ||
      lowerComposite(instruction) || lowerImage(instruction))
    return;
  switch (op) {
  case spv::OpNop:
  case spv::OpLifetimeStart:
  case spv::OpLifetimeStop:
  case spv::OpUndef:           // any value will do
  case spv::OpGroupWaitEvents: // copies complete when issued
  case spv::OpLine:
  case spv::OpNoLine:
  case spv::OpName:
    return;
  case spv::OpAssumeTrueKHR: // __builtin_assume: a hint
    return;
  case spv::OpExtInst:
    lowerExtInst(instruction);
    return;
  default:
    if (isSubgroupOperation(op))
      return lowerSubgroup(instruction);
    fail(instruction, "unsupported instruction " + opcodeName(op));
  }
}

} // namespace lowering

using lowering::byteSize;
using lowering::typeOf;

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
    lowering::writeConstant(lowering::ConstantContext{module, &specializations, &addresses},
                            variable->initializer, memory);
}

runtime::KernelCode lowerKernel(const Module &module, const EntryPoint &entryPoint,
                                const std::unordered_map<uint32_t, uint64_t> &globalAddresses,
                                const LowerOptions &options) {
  return lowering::KernelLowering(module, entryPoint, globalAddresses, options).run();
}

} // namespace lanewise::spirv
