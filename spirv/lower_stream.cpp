// SPDX-License-Identifier: Apache-2.0
// Streamed stores: `c[i] = a[i] + b[i]` as one pass over memory
// (runtime/exec_affine.cpp, streamedStoreHandler).
//
// A streamed store: a store (OpStore, vstoren) through an affine pointer
// of a value of 4- or 8-byte elements computed by at most six lane-wise
// binary operations (integer + - * and the bitwise ones, float + - * /;
// a float mad counts as its product and its sum, each rounded, as the
// interpreter computes it: clang writes `a * x + y` so when it builds from
// source), each of whose operands is another, a load through an affine pointer
// (OpLoad, vloadn; a vload_halfn of floats widened a chunk at a time) or a
// uniform value, each read by that one use, vectors in memory order, with
// nothing between the first member and the store but affine pairs and
// uniform values without effects. It is lowered as usual, then replaced
// by one instruction that holds the loads, operations and store
// (runtime::StreamedExpression). When the warp's lanes are one run from
// lane 0, each pointer steps by one work-item's elements, the rows
// continue each other and the result overlaps no operand but exactly, it
// computes a 2 KiB chunk at a time, each operation reading its operands
// where they lie and writing a chunk in the first-level cache, the last
// writing the result (non-temporal when the launch streams its stores).
// It issues no prefetches: the processor's prefetchers follow a loop that
// reads in order. Otherwise it runs the instructions it holds. The
// uniform operands keep their registers to the kernel's end.
//
// Record stores (findRecordStores; runtime/exec_affine.cpp,
// recordStoreHandler): a run of stores through affine pointers to global
// memory (or generic pointers cast from them) of varying 32-bit scalars
// or vectors, whole 16-byte parts and at most 64 elements, with nothing
// between them that reads or writes memory or can trap, is lowered at its
// last store as one instruction (runtime::RecordSteps). When the launch
// streams its stores, the warp is one run from lane 0, the pointers step
// by the record's size and the parts lie one after another from a 16-byte
// boundary, it writes eight lanes' records at a time, transposed into
// 16-byte non-temporal stores; otherwise the stores run in program order.
// Not where the launch does not stream: one pass of cached stores is
// slower than the four separate passes.
//
// Neither is used under checks, whose shadows follow values instruction by
// instruction.
#include "spirv/lowering.h"

#include <spirv/unified1/OpenCL.std.h>

#include <algorithm>
#include <functional>
#include <optional>

namespace lanewise::spirv::lowering {

namespace {

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

// An OpStore or vstoren through an affine pointer of a varying value V of
// 4- or 8-byte elements that an expression computes: binary operations
// the streamed store applies (runtime::streamedOperation), each of whose
// operands is another such operation, a load through an affine pointer
// (OpLoad, vloadn, or vload_halfn of floats, widened as one instruction:
// lowerVectorMemory) or a uniform value, and each operation and load read
// by one use alone (at least one load; V may be a load). Vectors must be
// in memory order (findMemoryOrderValues), which makes their uniform
// operands splats. All of it in one block, and between the first member
// and the store only instructions that compute affine pairs or uniform
// values without effects (a cast of a uniform pointer): nothing that
// writes memory, so the loads may move down to the store, and nothing
// that takes varying registers from the pool, so the members' registers
// stay theirs until the store; the uniform operands keep their registers
// to the kernel's end. Not under checks, which follow each instruction.
void KernelLowering::findStreamedStores() {
  if (checks_ || affinePairs_.empty())
    return;
  using Expression = runtime::StreamedExpression;
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
      if (it == position.end() || uses[id] != 1 || dead_.count(id) ||
          sunk_.count(&instructions[it->second]) || sinkAfter_.count(&instructions[it->second]))
        return nullptr;
      return &instructions[it->second];
    };
    for (size_t s = 0; s < instructions.size(); ++s) {
      const Instruction &store = instructions[s];
      uint32_t value = 0;
      if (store.opcode == spv::OpStore)
        value = store.idOperand(1);
      else if (openclStdNumber(store) == OpenCLLIB::Vstoren)
        value = store.idOperand(2);
      if (!value || isDead(store) || !pairAddressed(store) || sunk_.count(&store) ||
          sinkAfter_.count(&store) || !resultTypes_.count(value) || !uniformity_.isVarying(value))
        continue;
      const uint32_t type = resultTypes_.at(value);
      StreamedStore group;
      if (!scalarForm(type, group.scalar, group.components) ||
          (group.scalar != Scalar::I32 && group.scalar != Scalar::I64 &&
           group.scalar != Scalar::F32 && group.scalar != Scalar::F64) ||
          (group.components > 1) != (memoryOrder_.count(value) != 0))
        continue;
      std::vector<uint32_t> members; // the loaded leaves and the operations
      // Adds `id` to the expression; false when it does not fit.
      std::function<bool(uint32_t)> add = [&](uint32_t id) {
        const Instruction *def = soleLocal(id);
        if (def && def->resultType == type && uniformity_.isVarying(id) &&
            (group.components > 1) == (memoryOrder_.count(id) != 0)) {
          const auto op = binaryOp(def->opcode);
          if (op && runtime::streamedOperation(*op, group.scalar)) {
            if (!add(def->idOperand(0)) || !add(def->idOperand(1)) ||
                group.operations == Expression::maxNodes)
              return false;
            group.nodes.push_back(def);
            group.operations += 1;
            members.push_back(id);
            return true;
          }
          const auto number = openclStdNumber(*def);
          // mad(a, b, c) of floats: a product and a sum, each rounded, as
          // the interpreter computes it (builtins::apply3), and as clang
          // writes `a * x + y` (llvm.fmuladd) in OpenCL C.
          if (number == OpenCLLIB::Mad &&
              (group.scalar == Scalar::F32 || group.scalar == Scalar::F64)) {
            if (!add(def->idOperand(2)) || !add(def->idOperand(3)) || !add(def->idOperand(4)) ||
                group.operations + 2 > Expression::maxNodes)
              return false;
            group.nodes.push_back(def);
            group.operations += 2;
            members.push_back(id);
            return true;
          }
          const bool halves = number == OpenCLLIB::Vload_halfn && group.scalar == Scalar::F32;
          const bool load = def->opcode == spv::OpLoad || number == OpenCLLIB::Vloadn || halves;
          if (!load || !pairAddressed(*def) || group.leaves.size() == Expression::maxLeaves)
            return false;
          group.leaves.push_back({id, true, halves});
          members.push_back(id);
          return true;
        }
        if (uniformity_.isVarying(id) || affinePairs_.count(id))
          return false;
        for (const StreamedStore::Leaf &leaf : group.leaves)
          if (leaf.id == id)
            return true;
        if (group.leaves.size() == Expression::maxLeaves)
          return false;
        group.leaves.push_back({id, false});
        return true;
      };
      if (!add(value) || std::none_of(group.leaves.begin(), group.leaves.end(),
                                      [](const StreamedStore::Leaf &leaf) { return leaf.loaded; }))
        continue;
      size_t first = s;
      for (uint32_t id : members)
        first = std::min(first, position.at(id));
      bool fits = true;
      for (size_t i = first + 1; i < s && fits; ++i) {
        const Instruction &between = instructions[i];
        const bool member =
            between.result && std::count(members.begin(), members.end(), between.result);
        fits = member || isDead(between) ||
               (between.result && !sunk_.count(&between) && !sinkAfter_.count(&between) &&
                (pairOnly(between.result) ||
                 (!uniformity_.isVarying(between.result) && effectFree(between.opcode))));
      }
      if (!fits)
        continue;
      for (uint32_t id : members)
        streamedEmitted_[id] = {};
      // The uniform operands are read at the store: their registers must
      // not go back to the pool at their operations, where an instruction
      // between (a pointer's cast) could take them.
      for (const StreamedStore::Leaf &leaf : group.leaves)
        if (!leaf.loaded)
          localUses_.erase(leaf.id);
      streamedStores_.emplace(&store, std::move(group));
    }
  }
}

// After `original` is lowered (its instructions from `emittedFrom` on):
// notes where a member of a streamed store went, and at the store,
// replaces the loads, the operations and the store with the streamed
// store. A load or a store may come after the computation of its pointer
// pair (vloadn, vstoren), which stays where it is; a member lowered
// otherwise leaves the store as it is.
void KernelLowering::fuseStreamedStore(const Instruction &original, size_t emittedFrom) {
  using Expression = runtime::StreamedExpression;
  const size_t emittedEnd = code_.instructions.size();
  if (auto member = streamedEmitted_.find(original.result); member != streamedEmitted_.end()) {
    member->second = {emittedFrom, emittedEnd};
    return;
  }
  const auto found = streamedStores_.find(&original);
  if (found == streamedStores_.end())
    return;
  const StreamedStore &group = found->second;
  // The instruction a member (or the store) ends with, when it is either
  // alone or after the computation of the pair it reads as operand 0.
  auto last = [&](std::pair<size_t, size_t> range) -> std::optional<size_t> {
    const auto [from, end] = range;
    if (end == from + 1 || (end == from + 2 && code_.instructions[from].result ==
                                                   code_.instructions[end - 1].operand[0]))
      return end - 1;
    return std::nullopt;
  };
  const auto storeAt = last({emittedFrom, emittedEnd});
  const uint32_t pointer =
      original.opcode == spv::OpStore ? original.idOperand(0) : original.idOperand(4);
  const runtime::Handler handler =
      runtime::streamedStoreHandler(group.scalar, pointsToGlobal(pointer, original));
  if (!storeAt || !handler)
    return;
  auto expression = std::make_shared<Expression>();
  Expression &e = *expression;
  std::vector<size_t> held;                             // in code_.instructions
  std::vector<uint32_t> registers(group.leaves.size()); // each leaf's value
  std::vector<bool> known(group.leaves.size());
  const runtime::Handler loadHandler =
      runtime::affineLoadHandler(runtime::scalarSize(group.scalar), group.components > 1);
  for (size_t k = 0; k < group.leaves.size(); ++k) {
    if (!group.leaves[k].loaded)
      continue;
    const auto at = last(streamedEmitted_[group.leaves[k].id]);
    const bool halves = group.leaves[k].halves;
    if (!at || code_.instructions[*at].handler !=
                   (halves ? runtime::widenedHalfLoadHandler() : loadHandler))
      return;
    e.leaf[k] = {code_.instructions[*at].operand[0], true, halves};
    registers[k] = code_.instructions[*at].result;
    known[k] = true;
    held.push_back(*at);
  }
  // Each node's result register, and the operation of the expression that
  // computes it (a mad's sum).
  std::vector<uint32_t> nodeRegisters;
  std::vector<uint8_t> nodeOperation;
  uint32_t operations = 0;
  // The expression's operand for SPIR-V operand `id`, which the lowered
  // instruction reads from register `lowered`; none when they disagree.
  auto operandFor = [&](uint32_t id, uint32_t lowered) -> std::optional<uint8_t> {
    uint32_t want = 0;
    uint8_t operand = 0;
    if (const auto leaf = std::find_if(group.leaves.begin(), group.leaves.end(),
                                       [&](const StreamedStore::Leaf &l) { return l.id == id; });
        leaf != group.leaves.end()) {
      const size_t k = static_cast<size_t>(leaf - group.leaves.begin());
      operand = static_cast<uint8_t>(k);
      if (!known[k]) { // a uniform's register
        registers[k] = lowered;
        known[k] = true;
        e.leaf[k] = {lowered, false};
      }
      want = registers[k];
    } else {
      const auto earlier = std::find_if(group.nodes.begin(), group.nodes.end(),
                                        [&](const Instruction *x) { return x->result == id; });
      const size_t j = static_cast<size_t>(earlier - group.nodes.begin());
      if (j >= nodeRegisters.size())
        return std::nullopt;
      operand = static_cast<uint8_t>(Expression::maxLeaves + nodeOperation[j]);
      want = nodeRegisters[j];
    }
    if (lowered != want)
      return std::nullopt;
    return operand;
  };
  for (const Instruction *node : group.nodes) {
    const auto [from, end] = streamedEmitted_[node->result];
    if (end != from + 1)
      return;
    const runtime::Instruction &lowered = code_.instructions[from];
    if (const auto op = binaryOp(node->opcode)) {
      const auto a = operandFor(node->idOperand(0), lowered.operand[0]);
      const auto b = operandFor(node->idOperand(1), lowered.operand[1]);
      if (!a || !b)
        return;
      e.node[operations] = {*op, {*a, *b}};
    } else { // mad: the product, then the sum
      const auto a = operandFor(node->idOperand(2), lowered.operand[0]);
      const auto b = operandFor(node->idOperand(3), lowered.operand[1]);
      const auto c = operandFor(node->idOperand(4), lowered.operand[2]);
      if (!a || !b || !c)
        return;
      e.node[operations] = {runtime::BinaryOp::FMul, {*a, *b}};
      ++operations;
      e.node[operations] = {runtime::BinaryOp::FAdd,
                            {static_cast<uint8_t>(Expression::maxLeaves + operations - 1), *c}};
    }
    nodeOperation.push_back(static_cast<uint8_t>(operations++));
    nodeRegisters.push_back(lowered.result);
    held.push_back(from);
  }
  const runtime::Instruction &store = code_.instructions[*storeAt];
  if (store.operand[1] != (nodeRegisters.empty() ? registers[0] : nodeRegisters.back()))
    return;
  held.push_back(*storeAt);
  std::sort(held.begin(), held.end());
  e.leaves = static_cast<uint32_t>(group.leaves.size());
  e.nodes = operations;
  e.store = store.operand[0];
  e.components = group.components;
  runtime::Instruction streamed = store;
  for (size_t i : held)
    e.steps.push_back(code_.instructions[i]);
  streamed.handler = handler;
  streamed.data = expression.get();
  code_.tables.push_back(expression);
  for (auto i = held.rbegin(); i != held.rend(); ++i)
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
    record->recordBytes += store.components * 4;
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
