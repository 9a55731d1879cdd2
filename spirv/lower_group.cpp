// SPDX-License-Identifier: Apache-2.0
// Sub-group operations, bound to runtime/exec_group.cpp.
#include "spirv/lowering.h"

#include "builtins/subgroup.h"
#include "spirv/names.h"

namespace lanewise::spirv::lowering {

// Sub-group operations (OpenCL C 3.0, 6.15.16, and the cl_khr_subgroup_* and
// cl_intel_subgroups extensions), bound to the handlers of exec_group.cpp.
void KernelLowering::lowerSubgroup(const Instruction &instruction) {
  const spv::Op op = instruction.opcode;
  code_.usesSubgroups = true;
  auto operand = [&](size_t i) -> const Value & {
    return use(instruction.idOperand(i), instruction);
  };
  // An operand whose value decides the operation for other work-items too
  // (a shuffle's or broadcast's index, a vote's or ballot's predicate, a
  // reduction's or scan's input; not the values shuffles move, which carry
  // their definedness along): a use, under the uninitialised-value check.
  auto deciding = [&](size_t i) -> const Value & {
    if (!maybeUndefined_.empty())
      checkDefined(instruction.idOperand(i), instruction, runtime::UndefinedUse::GroupOperand);
    return operand(i);
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
    const Value &input = deciding(2);
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
    return shuffle(LaneSource::Index, operand(1), &deciding(2), nullptr);
  case spv::OpGroupNonUniformShuffleXor:
    requireSubgroupScope(0);
    return shuffle(LaneSource::Xor, operand(1), &deciding(2), nullptr);
  case spv::OpGroupNonUniformShuffleUp:
    requireSubgroupScope(0);
    return shuffle(LaneSource::Up, operand(1), &deciding(2), nullptr);
  case spv::OpGroupNonUniformShuffleDown:
    requireSubgroupScope(0);
    return shuffle(LaneSource::Down, operand(1), &deciding(2), nullptr);
  case spv::OpSubgroupShuffleINTEL:
    return shuffle(LaneSource::Index, operand(0), &deciding(1), nullptr);
  case spv::OpSubgroupShuffleXorINTEL:
    return shuffle(LaneSource::Xor, operand(0), &deciding(1), nullptr);
  case spv::OpSubgroupShuffleDownINTEL: // (current, next, delta)
    return shuffle(LaneSource::IntelDown, operand(0), &deciding(2), &operand(1));
  case spv::OpSubgroupShuffleUpINTEL: // (previous, current, delta)
    return shuffle(LaneSource::IntelUp, operand(1), &deciding(2), &operand(0));
  case spv::OpGroupBroadcast:
  case spv::OpGroupNonUniformBroadcast:
    requireSubgroupScope(0);
    return shuffle(LaneSource::Index, operand(1), &deciding(2), nullptr);
  case spv::OpGroupNonUniformBroadcastFirst:
    requireSubgroupScope(0);
    return shuffle(LaneSource::First, operand(1), nullptr, nullptr);
  case spv::OpGroupAll:
  case spv::OpGroupNonUniformAll:
    requireSubgroupScope(0);
    return vote(0, &deciding(1));
  case spv::OpGroupAny:
  case spv::OpGroupNonUniformAny:
    requireSubgroupScope(0);
    return vote(1, &deciding(1));
  case spv::OpGroupNonUniformAllEqual:
    requireSubgroupScope(0);
    return vote(2, &deciding(1));
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
    return ballot(0, deciding(1), nullptr);
  case spv::OpGroupNonUniformInverseBallot:
    requireSubgroupScope(0);
    return ballot(1, deciding(1), nullptr);
  case spv::OpGroupNonUniformBallotBitExtract:
    requireSubgroupScope(0);
    return ballot(2, deciding(1), &deciding(2));
  case spv::OpGroupNonUniformBallotBitCount: {
    requireSubgroupScope(0);
    const uint32_t scan = instruction.operands.at(1);
    if (scan > spv::GroupOperationExclusiveScan)
      fail(instruction, "group operation " + std::to_string(scan) + " is not supported");
    return ballot(3 + scan, deciding(2), nullptr);
  }
  case spv::OpGroupNonUniformBallotFindLSB:
    requireSubgroupScope(0);
    return ballot(6, deciding(1), nullptr);
  case spv::OpGroupNonUniformBallotFindMSB:
    requireSubgroupScope(0);
    return ballot(7, deciding(1), nullptr);
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

// Work-group collective functions (OpenCL C 3.0, 6.15.17), bound to the
// handlers of exec_workgroup.cpp: a publish step, a work-group barrier, a
// collect step and another barrier, through a scratch of one slot per warp
// in the group's __local memory.
void KernelLowering::lowerWorkGroupCollective(const Instruction &instruction,
                                              const std::function<void()> &barrier) {
  if (!collectiveScratch_) {
    uint64_t &bytes = code_.memory.workgroupBytes;
    bytes = (bytes + 15) / 16 * 16;
    code_.memory.workgroupAlignment = std::max(code_.memory.workgroupAlignment, 16u);
    collectiveScratch_ = bytes;
    bytes += uint64_t(8) * ((runtime::maxWorkGroupSize + code_.width - 1) / code_.width);
  }
  if (*collectiveScratch_ > UINT32_MAX)
    fail(instruction, "the work-group collective's scratch lies past 4 GiB of __local memory");
  const auto scratch = static_cast<uint32_t>(*collectiveScratch_);
  const Value &r = values_.at(instruction.result);
  if (r.components != 1)
    fail(instruction, "work-group collective functions of vectors do not exist in OpenCL C");
  auto twoSteps = [&](runtime::Handler publish, runtime::Handler collect, uint32_t input,
                      uint32_t id, uint64_t immediate) {
    if (!publish || !collect)
      fail(instruction, "work-group collective function of an unsupported type");
    emit(publish, r.offset, {input, id}, 1, scratch, immediate);
    barrier();
    emit(collect, r.offset, {input, id}, 1, scratch, immediate);
    barrier();
  };
  using builtins::GroupArithmetic;
  auto arithmetic = [&](GroupArithmetic kind, uint32_t scan, const Value &input) {
    if (scan > spv::GroupOperationExclusiveScan)
      fail(instruction, "group operation " + std::to_string(scan) +
                            " is not one of the work-group collective functions");
    twoSteps(runtime::workGroupArithmeticHandler(kind, input.scalar, scan, false),
             runtime::workGroupArithmeticHandler(kind, input.scalar, scan, true),
             input.offset, 0, input.varying ? 1 : 0);
  };
  const auto scan = [&] { return static_cast<uint32_t>(instruction.operands.at(1)); };
  // Every operand read here decides the result for the whole work-group
  // but a broadcast's value, which is moved: a use, under the
  // uninitialised-value check.
  const auto input = [&](size_t i) -> const Value & {
    return use(instruction.idOperand(i), instruction);
  };
  const auto deciding = [&](size_t i) -> const Value & {
    if (!maybeUndefined_.empty())
      checkDefined(instruction.idOperand(i), instruction, runtime::UndefinedUse::GroupOperand);
    return input(i);
  };
  switch (instruction.opcode) {
  case spv::OpGroupAll:
    return arithmetic(GroupArithmetic::LogicalAnd, spv::GroupOperationReduce, deciding(1));
  case spv::OpGroupAny:
    return arithmetic(GroupArithmetic::LogicalOr, spv::GroupOperationReduce, deciding(1));
  case spv::OpGroupBroadcast: {
    const Value &value = input(1), &id = deciding(2);
    twoSteps(runtime::workGroupBroadcastHandler(value.elementBytes(), false),
             runtime::workGroupBroadcastHandler(value.elementBytes(), true),
             value.offset, id.offset,
             (value.varying ? 1 : 0) | (id.varying ? 2 : 0) | uint64_t(id.elementBytes()) << 8 |
                 uint64_t(id.components) << 16);
    return;
  }
  case spv::OpGroupIAdd:
  case spv::OpGroupFAdd:
    return arithmetic(GroupArithmetic::Add, scan(), deciding(2));
  case spv::OpGroupSMin:
    return arithmetic(GroupArithmetic::SMin, scan(), deciding(2));
  case spv::OpGroupUMin:
    return arithmetic(GroupArithmetic::UMin, scan(), deciding(2));
  case spv::OpGroupFMin:
    return arithmetic(GroupArithmetic::FMin, scan(), deciding(2));
  case spv::OpGroupSMax:
    return arithmetic(GroupArithmetic::SMax, scan(), deciding(2));
  case spv::OpGroupUMax:
    return arithmetic(GroupArithmetic::UMax, scan(), deciding(2));
  case spv::OpGroupFMax:
    return arithmetic(GroupArithmetic::FMax, scan(), deciding(2));
  default:
    fail(instruction, "unsupported work-group instruction " + opcodeName(instruction.opcode));
  }
}

} // namespace lanewise::spirv::lowering
