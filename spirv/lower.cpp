// SPDX-License-Identifier: Apache-2.0
// Lowering a kernel to bytecode: the uniformity of its values, its
// arguments, its blocks in order, and the dispatch of each instruction to
// its family (spirv/lowering.h lists the files).
#include "spirv/lowering.h"

#include "builtins/subgroup.h"
#include "spirv/cfg.h"
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
  findPhiWebs();
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
        if (!endsPiece(instruction)) {
          // The lanes the barrier waits for run in lockstep; the race check
          // learns that it orders their __local accesses.
          const auto semantics = module_.constantValue(instruction.idOperand(2));
          if (checking(runtime::Check::Races) && semantics &&
              (*semantics & spv::MemorySemanticsWorkgroupMemoryMask))
            emit(runtime::subgroupBarrierRacesHandler(), 0, {}, 1);
          if (checking(runtime::Check::Races) && semantics &&
              (*semantics & spv::MemorySemanticsCrossWorkgroupMemoryMask))
            emit(runtime::subgroupBarrierGlobalRacesHandler(), 0, {}, 1);
          return;
        }
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
      convertToComponents(&original, b);
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
    convertToComponents(nullptr, b);
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
