// Streamed stores: `c[i] = a[i] + b[i]` as one pass over memory
// (runtime/exec_affine.cpp, streamedStoreHandler).
#include "spirv/lowering.h"

#include <algorithm>

namespace lanewise::spirv::lowering {

namespace {

// The lane-wise operations a streamed store applies: those whose result
// is of the operands' type and that cannot trap.
bool streamable(spv::Op opcode) {
  switch (opcode) {
  case spv::OpIAdd:
  case spv::OpISub:
  case spv::OpIMul:
  case spv::OpBitwiseAnd:
  case spv::OpBitwiseOr:
  case spv::OpBitwiseXor:
  case spv::OpFAdd:
  case spv::OpFSub:
  case spv::OpFMul:
  case spv::OpFDiv:
    return true;
  default:
    return false;
  }
}

// Instructions a store may be moved down past: they read no memory, write
// none, and cannot trap or stop the work-item.
bool effectFree(spv::Op opcode) {
  if (isConversion(opcode))
    return true;
  switch (opcode) {
  case spv::OpVectorShuffle:
  case spv::OpCompositeConstruct:
  case spv::OpCompositeExtract:
  case spv::OpCompositeInsert:
  case spv::OpCopyObject:
  case spv::OpSelect:
  case spv::OpIAdd:
  case spv::OpISub:
  case spv::OpIMul:
  case spv::OpSNegate:
  case spv::OpFAdd:
  case spv::OpFSub:
  case spv::OpFMul:
  case spv::OpFNegate:
  case spv::OpBitwiseAnd:
  case spv::OpBitwiseOr:
  case spv::OpBitwiseXor:
  case spv::OpNot:
  case spv::OpShiftLeftLogical:
  case spv::OpShiftRightLogical:
  case spv::OpShiftRightArithmetic:
  case spv::OpPtrCastToGeneric:
  case spv::OpAccessChain:
  case spv::OpInBoundsAccessChain:
  case spv::OpPtrAccessChain:
  case spv::OpInBoundsPtrAccessChain:
    return true;
  default:
    return false;
  }
}

} // namespace

// An OpStore through an affine pointer of a scalar V = op(x, y), where op
// is streamable, V has no other use, and each of x and y is either a
// uniform value or an OpLoad through an affine pointer that nothing else
// reads (at least one is). All of it in one block, and between the first
// load and the store only instructions that compute affine pairs: nothing
// that writes memory, so the loads may move down to the store, and
// nothing that takes registers from the pool, so the registers of the
// loads and of V stay theirs until the store. Not under checks, which
// follow each instruction.
void KernelLowering::findStreamedStores() {
  if (checks_ || affinePairs_.empty())
    return;
  std::unordered_map<uint32_t, uint32_t> uses = liveUses();
  auto pairOnly = [&](uint32_t id) { return affinePairs_.count(id) && !laneForms_.count(id); };
  for (uint32_t b = 0; b < cfg_->size(); ++b) {
    const std::vector<Instruction> &instructions = cfg_->order()[b]->instructions;
    std::unordered_map<uint32_t, size_t> position; // results of the block
    for (size_t i = 0; i < instructions.size(); ++i)
      if (instructions[i].result)
        position[instructions[i].result] = i;
    // The instruction of this block that defines `id`, when one use alone
    // reads it; else null.
    auto soleLocal = [&](uint32_t id) -> const Instruction * {
      const auto it = position.find(id);
      if (it == position.end() || uses[id] != 1 || memoryOrder_.count(id) || dead_.count(id) ||
          sunk_.count(&instructions[it->second]) || sinkAfter_.count(&instructions[it->second]))
        return nullptr;
      return &instructions[it->second];
    };
    for (size_t s = 0; s < instructions.size(); ++s) {
      const Instruction &store = instructions[s];
      if (store.opcode != spv::OpStore || isDead(store) || !pairAddressed(store) ||
          sunk_.count(&store) || sinkAfter_.count(&store))
        continue;
      const Instruction *operation = soleLocal(store.idOperand(1));
      if (!operation || !streamable(operation->opcode) || !uniformity_.isVarying(operation->result))
        continue;
      Scalar scalar;
      uint32_t components = 0;
      if (!scalarForm(operation->resultType, scalar, components) || components != 1 ||
          runtime::scalarSize(scalar) < 4 || runtime::scalarSize(scalar) > 8)
        continue;
      StreamedStore group{{}, operation->result, operation->opcode, operation->resultType};
      bool fits = true;
      for (uint32_t k = 0; k < 2 && fits; ++k) {
        const uint32_t id = operation->idOperand(k);
        const Instruction *load = soleLocal(id);
        if (load && load->opcode == spv::OpLoad && pairAddressed(*load) &&
            load->resultType == operation->resultType)
          group.loads.push_back(id);
        else
          fits = !uniformity_.isVarying(id) && !affinePairs_.count(id);
      }
      if (!fits || group.loads.empty())
        continue;
      std::sort(group.loads.begin(), group.loads.end(),
                [&](uint32_t x, uint32_t y) { return position.at(x) < position.at(y); });
      const size_t first = position.at(group.loads.front());
      for (size_t i = first + 1; i < s && fits; ++i) {
        const Instruction &between = instructions[i];
        const bool member = between.result == operation->result ||
                            std::count(group.loads.begin(), group.loads.end(), between.result);
        fits = member || isDead(between) ||
               (between.result && pairOnly(between.result) && !sunk_.count(&between) &&
                !sinkAfter_.count(&between));
      }
      if (!fits)
        continue;
      for (uint32_t id : group.loads)
        streamedEmitted_[id] = {};
      streamedEmitted_[operation->result] = {};
      streamedStores_.emplace(&store, std::move(group));
    }
  }
}

// After `original` is lowered (its instructions from `emittedFrom` on):
// notes where a member of a streamed store went, and at the store,
// replaces the members' instructions with the streamed store. A member
// that took other than one instruction leaves the store as it is.
void KernelLowering::fuseStreamedStore(const Instruction &original, size_t emittedFrom) {
  const size_t emittedEnd = code_.instructions.size();
  if (auto member = streamedEmitted_.find(original.result); member != streamedEmitted_.end()) {
    member->second = {emittedFrom, emittedEnd};
    return;
  }
  const auto group = streamedStores_.find(&original);
  if (group == streamedStores_.end() || emittedEnd != emittedFrom + 1)
    return;
  std::vector<size_t> at; // the loads, the operation, the store
  std::vector<uint32_t> members = group->second.loads;
  members.push_back(group->second.operation);
  for (uint32_t id : members) {
    const auto [first, end] = streamedEmitted_[id];
    if (end != first + 1)
      return;
    at.push_back(first);
  }
  at.push_back(emittedFrom);
  auto table = std::make_shared<runtime::StreamedSteps>();
  for (size_t i : at)
    table->step[table->count++] = code_.instructions[i];
  const runtime::Instruction &operation = table->step[table->count - 2];
  const runtime::Instruction &store = table->step[table->count - 1];
  if (store.operand[1] != operation.result)
    return;
  // Each operand of the operation: the pointer pair of its load, or its
  // uniform register.
  bool loaded[2] = {};
  uint32_t operand[2] = {operation.operand[0], operation.operand[1]};
  for (size_t k = 0; k < group->second.loads.size(); ++k) {
    const runtime::Instruction &load = table->step[k];
    for (uint32_t j = 0; j < 2; ++j)
      if (!loaded[j] && operation.operand[j] == load.result) {
        loaded[j] = true;
        operand[j] = load.operand[0];
        break;
      }
  }
  if (std::count(loaded, loaded + 2, true) !=
      static_cast<std::ptrdiff_t>(group->second.loads.size()))
    return;
  const runtime::Handler handler = runtime::streamedStoreHandler(
      *binaryOp(group->second.opcode), makeScalar(group->second.type), loaded[0], loaded[1],
      pointsToGlobal(original.idOperand(0), original));
  if (!handler)
    return;
  runtime::Instruction streamed = store;
  streamed.handler = handler;
  streamed.operand[0] = operand[0];
  streamed.operand[1] = operand[1];
  streamed.operand[2] = store.operand[0];
  streamed.data = table.get();
  code_.tables.push_back(table);
  for (auto i = at.rbegin(); i != at.rend(); ++i)
    code_.instructions.erase(code_.instructions.begin() + static_cast<std::ptrdiff_t>(*i));
  code_.instructions.push_back(streamed);
}

// Runs of stores through affine pointers to global memory of varying
// 32-bit scalars or vectors (OpStore, vstoren), up to a record of
// runtime::maxRecordElements elements in whole 16-byte parts, with nothing
// between one and the next but instructions that are effect-free (above)
// or shuffles: the earlier ones may then move down to the last, and the
// run may store each work-item's record in one pass (runtime::
// recordStoreHandler), which the pointers' values decide at run time. Not
// under checks, and not where another rearrangement has a member.
void KernelLowering::findRecordStores() {
  if (checks_ || affinePairs_.empty())
    return;
  // The stored value of a member, or 0.
  auto memberValue = [&](const Instruction &instruction) -> uint32_t {
    if (isDead(instruction) || !pairAddressed(instruction) || sunk_.count(&instruction) ||
        sinkAfter_.count(&instruction) || streamedStores_.count(&instruction))
      return 0;
    uint32_t value = 0, pointer = 0;
    if (instruction.opcode == spv::OpStore) {
      value = instruction.idOperand(1);
      pointer = instruction.idOperand(0);
    } else if (openclStdNumber(instruction) == OpenCLLIB::Vstoren) {
      value = instruction.idOperand(2);
      pointer = instruction.idOperand(4);
    } else {
      return 0;
    }
    Scalar scalar;
    uint32_t components = 0;
    if (!uniformity_.isVarying(value) || memoryOrder_.count(value) || !resultTypes_.count(value) ||
        !scalarForm(resultTypes_.at(value), scalar, components) ||
        runtime::scalarSize(scalar) != 4 || !pointsToGlobal(pointer, instruction))
      return 0;
    return value;
  };
  auto movable = [&](const Instruction &instruction) {
    if (isDead(instruction))
      return true;
    if (sunk_.count(&instruction) || sinkAfter_.count(&instruction))
      return false;
    if (instruction.opcode == spv::OpExtInst) {
      const auto number = openclStdNumber(instruction);
      return number == OpenCLLIB::Shuffle || number == OpenCLLIB::Shuffle2;
    }
    return instruction.result && effectFree(instruction.opcode);
  };
  for (uint32_t b = 0; b < cfg_->size(); ++b) {
    const std::vector<Instruction> &instructions = cfg_->order()[b]->instructions;
    std::vector<const Instruction *> run;
    uint32_t runElements = 0;
    auto close = [&] {
      if (run.size() >= 2 && runElements % 4 == 0) {
        const Instruction *last = run.back();
        run.pop_back();
        for (const Instruction *member : run)
          sunk_.insert(member);
        recordStores_.emplace(last, std::move(run));
      }
      run.clear();
      runElements = 0;
    };
    for (const Instruction &instruction : instructions) {
      if (const uint32_t value = memberValue(instruction)) {
        Scalar scalar;
        uint32_t components = 0;
        scalarForm(resultTypes_.at(value), scalar, components);
        if (runElements + components > runtime::maxRecordElements)
          close();
        run.push_back(&instruction);
        runElements += components;
      } else if (!movable(instruction)) {
        close();
      }
    }
    close();
  }
}

// After the members of a record store are lowered (member k's
// instructions end at memberEnds[k], the first starts at emittedFrom):
// replaces them with the record store when each member is its store,
// perhaps after the computation of its pointer pair.
void KernelLowering::fuseRecordStore(size_t emittedFrom, const std::vector<size_t> &memberEnds) {
  auto record = std::make_shared<runtime::RecordSteps>();
  size_t from = emittedFrom;
  for (size_t end : memberEnds) {
    if (end == from || end > from + 2)
      return;
    const runtime::Instruction &store = code_.instructions[end - 1];
    if (store.handler != runtime::affineStoreHandler(4, true, true))
      return;
    if (end == from + 2) {
      const runtime::Instruction &address = code_.instructions[from];
      if (address.result != store.operand[0])
        return;
      record->addresses.push_back(address);
    }
    record->stores.push_back(store);
    from = end;
  }
  runtime::Instruction fused;
  fused.handler = runtime::recordStoreHandler();
  fused.data = record.get();
  fused.family = record->stores.back().family;
  code_.tables.push_back(record);
  code_.instructions.erase(code_.instructions.begin() + static_cast<std::ptrdiff_t>(emittedFrom),
                           code_.instructions.end());
  code_.instructions.push_back(fused);
}

} // namespace lanewise::spirv::lowering
