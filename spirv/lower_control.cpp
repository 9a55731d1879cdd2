// SPDX-License-Identifier: Apache-2.0
// Block terminators and the phi copies of control-flow edges.
#include "spirv/lowering.h"

#include "spirv/names.h"

#include <algorithm>
#include <tuple>

#include <spirv/unified1/OpenCL.std.h>

namespace lanewise::spirv::lowering {

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
        if (a.offset == b.offset && a.varying == b.varying)
          return; // the value took the phi's register (findCoalescedPhis)
        copies.push_back(
            {a.offset, b.offset, b.elementBytes(), b.components, a.varying, b.varying});
      };
      add(source, staging);
      if (auto shadow = undefShadow_.find(phi.result); shadow != undefShadow_.end()) {
        auto stagedShadow = undefShadowStaging_.find(phi.result);
        const uint32_t to =
            stagedShadow != undefShadowStaging_.end() ? stagedShadow->second : shadow->second;
        const uint32_t components = shadowComponents(phi.result);
        const Shadow from = shadowOrDefined(phi.operands[k], components);
        copies.push_back({from.offset, to, 1, components, from.varying, true});
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

namespace {

// Lane-wise arithmetic: each element read before it is written, so that
// the result may take an operand's register.
bool laneWiseArithmetic(spv::Op op) {
  switch (op) {
  case spv::OpIAdd:
  case spv::OpISub:
  case spv::OpIMul:
  case spv::OpFAdd:
  case spv::OpFSub:
  case spv::OpFMul:
  case spv::OpBitwiseAnd:
  case spv::OpBitwiseOr:
  case spv::OpBitwiseXor:
    return true;
  default:
    return false;
  }
}

} // namespace

void KernelLowering::findCoalescedPhis() {
  if (checks_)
    return;
  const uint32_t n = cfg_->size();
  // Where each id is read and defined: (block, position), instruction i of
  // the block at position 2i and a value sunk after it at 2i + 1; a phi's
  // operand is read at the end of the edge's source block.
  constexpr uint32_t atEnd = ~uint32_t(0);
  std::unordered_map<uint32_t, std::vector<std::pair<uint32_t, uint32_t>>> reads;
  std::unordered_map<uint32_t, std::pair<uint32_t, uint32_t>> definedAt;
  for (uint32_t b = 0; b < n; ++b) {
    const auto &instructions = cfg_->order()[b]->instructions;
    for (uint32_t i = 0; i < instructions.size(); ++i) {
      const Instruction &instruction = instructions[i];
      if (instruction.result)
        definedAt[instruction.result] = {b, 2 * i};
      if (instruction.opcode == spv::OpPhi) {
        for (size_t k = 0; k + 1 < instruction.operands.size(); k += 2) {
          const int from = cfg_->number(instruction.operands[k + 1]);
          if (from >= 0)
            reads[instruction.operands[k]].push_back({uint32_t(from), atEnd});
        }
        continue;
      }
      instruction.forEachIdOperand([&](uint32_t id) { reads[id].push_back({b, 2 * i}); });
    }
  }
  // Arithmetic whose handler reads each element before it writes it.
  auto laneWise = [&](const Instruction &instruction) {
    if (laneWiseArithmetic(instruction.opcode))
      return true;
    const auto number = openclStdNumber(instruction);
    return number && (*number == OpenCLLIB::Mad || *number == OpenCLLIB::Fma);
  };
  // Pure arithmetic, which may be lowered later in its block.
  auto movable = [&](const Instruction &instruction) {
    return laneWise(instruction) || instruction.opcode == spv::OpFDiv ||
           instruction.opcode == spv::OpFNegate || instruction.opcode == spv::OpSNegate;
  };
  std::unordered_map<uint32_t, uint32_t> phiValue; // coalesced_ reversed
  std::vector<bool> hasSunk(n, false);             // one sunk value a block
  for (uint32_t h = 0; h < n; ++h) {
    const Block &header = *cfg_->order()[h];
    if (needsStaging(header))
      continue;
    std::unordered_map<uint32_t, uint32_t> incoming; // value -> phis it feeds
    for (const Instruction &phi : header.instructions) {
      if (phi.opcode != spv::OpPhi)
        break;
      for (size_t k = 0; k < phi.operands.size(); k += 2)
        ++incoming[phi.operands[k]];
    }
    for (const Instruction &phi : header.instructions) {
      if (phi.opcode != spv::OpPhi)
        break;
      const uint32_t p = phi.result;
      if (!uniformity_.isVarying(p) || affinePairs_.count(p))
        continue;
      for (size_t k = 0; k + 1 < phi.operands.size(); k += 2) {
        const uint32_t v = phi.operands[k];
        const int edge = cfg_->number(phi.operands[k + 1]);
        auto defined = definedAt.find(v);
        // Back edges only (a loop of one block too): the phi's register
        // exists before the value's.
        if (edge < 0 || uint32_t(edge) < h || defined == definedAt.end() ||
            defined->second.first != uint32_t(edge) || incoming[v] != 1 || coalesced_.count(v) ||
            !uniformity_.isVarying(v) || affinePairs_.count(v) || promoted_.count(v) ||
            localUses_.count(v) || dead_.count(v))
          continue;
        const uint32_t b = uint32_t(edge), at = defined->second.second;
        const auto &instructions = cfg_->order()[b]->instructions;
        const Instruction &definition = instructions[at / 2];
        if (definition.opcode == spv::OpPhi || definition.opcode == spv::OpVariable ||
            boundWhenLowered(definition) || definition.resultType != phi.resultType)
          continue;
        Scalar scalar;
        uint32_t components;
        if (!scalarForm(phi.resultType, scalar, components))
          continue;
        bool readsP = false;
        definition.forEachIdOperand([&](uint32_t id) { readsP |= id == p; });
        if (readsP && !laneWise(definition))
          continue;
        // The blocks a work-item reaches from B before it is back at H.
        const std::vector<bool> after = cfg_->reachedBefore(b, h);
        // Reads of P after V: elsewhere, or in B up to `lastInB`.
        bool readElsewhere = false;
        uint32_t lastInB = 0;
        for (const auto &[block, position] : reads[p]) {
          if (after[block] || (block == b && position == atEnd))
            readElsewhere = true;
          else if (block == b && position > at)
            lastInB = std::max(lastInB, position);
        }
        if (readElsewhere)
          continue;
        if (!lastInB) {
          coalesced_.emplace(v, p);
          phiValue.emplace(p, v);
          continue;
        }
        // Lowered after the last read of P, then: when it is pure
        // arithmetic, nothing reads it before, and the reads it makes
        // cross no other coalesced value's definition.
        if (hasSunk[b] || lastInB % 2 || !movable(definition) ||
            isBlockTerminator(instructions[lastInB / 2].opcode) ||
            instructions[lastInB / 2].opcode == spv::OpLoopMerge ||
            instructions[lastInB / 2].opcode == spv::OpSelectionMerge)
          continue;
        const uint32_t to = lastInB + 1;
        bool blocked = false;
        for (const auto &[block, position] : reads[v])
          blocked |= block == b && position > at && position < to;
        definition.forEachIdOperand([&](uint32_t id) {
          auto other = phiValue.find(id);
          if (other == phiValue.end())
            return;
          const auto [block, position] = definedAt.at(other->second);
          blocked |= block == b && position > at && position < to;
        });
        if (blocked)
          continue;
        definition.forEachIdOperand([&](uint32_t id) {
          for (auto &[block, position] : reads[id])
            if (block == b && position == at)
              position = to;
        });
        defined->second.second = to;
        hasSunk[b] = true;
        sunk_.insert(&definition);
        sinkAfter_.emplace(&instructions[lastInB / 2], &definition);
        coalesced_.emplace(v, p);
        phiValue.emplace(p, v);
      }
    }
  }
}

void KernelLowering::findPhiWebs() {
  if (checks_)
    return;
  const uint32_t n = cfg_->size();
  struct Place {
    uint32_t block, index; // a phi's own block's phis are at index 0
  };
  std::unordered_map<uint32_t, Place> definedAt;
  std::unordered_map<uint32_t, const Instruction *> definition;
  // Reads by instructions other than phis, and the blocks at whose end a
  // phi of a successor reads each id.
  std::unordered_map<uint32_t, std::vector<Place>> reads;
  std::unordered_map<uint32_t, std::vector<uint32_t>> readAtEnd;
  for (uint32_t b = 0; b < n; ++b) {
    const auto &instructions = cfg_->order()[b]->instructions;
    for (uint32_t i = 0; i < instructions.size(); ++i) {
      const Instruction &instruction = instructions[i];
      if (instruction.result) {
        definedAt[instruction.result] = {b, instruction.opcode == spv::OpPhi ? 0 : i};
        definition[instruction.result] = &instruction;
      }
      if (instruction.opcode == spv::OpPhi) {
        for (size_t k = 0; k + 1 < instruction.operands.size(); k += 2)
          if (const int from = cfg_->number(instruction.operands[k + 1]); from >= 0)
            readAtEnd[instruction.operands[k]].push_back(uint32_t(from));
        continue;
      }
      instruction.forEachIdOperand([&](uint32_t id) { reads[id].push_back({b, i}); });
    }
  }
  // The blocks each value is live into and out of, from its reads up to
  // its definition.
  struct Liveness {
    std::vector<bool> in, out;
  };
  std::unordered_map<uint32_t, Liveness> liveness;
  auto live = [&](uint32_t id) -> const Liveness & {
    auto [it, added] = liveness.try_emplace(id);
    if (!added)
      return it->second;
    Liveness &l = it->second;
    l.in.assign(n, false);
    l.out.assign(n, false);
    const uint32_t home = definedAt.at(id).block;
    std::vector<uint32_t> work;
    auto liveIn = [&](uint32_t b) {
      if (b != home && !l.in[b]) {
        l.in[b] = true;
        work.push_back(b);
      }
    };
    for (const Place &read : reads[id])
      liveIn(read.block);
    for (uint32_t b : readAtEnd[id]) {
      l.out[b] = true;
      liveIn(b);
    }
    while (!work.empty()) {
      const uint32_t b = work.back();
      work.pop_back();
      for (uint32_t p : cfg_->predecessors(b)) {
        l.out[p] = true;
        liveIn(p);
      }
    }
    return l;
  };
  // Whether `a` is still to be read where `b` is written.
  auto meets = [&](uint32_t a, uint32_t b) {
    const Liveness &la = live(a);
    const Place at = definedAt.at(b);
    const Instruction &written = *definition.at(b);
    if (written.opcode == spv::OpPhi) {
      // Phis of one block are written together, on the same edges.
      if (la.in[at.block] ||
          (definition.at(a)->opcode == spv::OpPhi && definedAt.at(a).block == at.block))
        return true;
      for (size_t k = 0; k + 1 < written.operands.size(); k += 2) {
        const int from = cfg_->number(written.operands[k + 1]);
        if (from >= 0 && la.out[uint32_t(from)] && written.operands[k] != a)
          return true;
      }
      return false;
    }
    const Place home = definedAt.at(a);
    if (!la.in[at.block] && !(home.block == at.block && home.index < at.index))
      return false;
    if (la.out[at.block])
      return true;
    for (const Place &read : reads[a])
      if (read.block == at.block && read.index >= at.index)
        return true;
    return false;
  };
  auto eligible = [&](uint32_t id) {
    auto found = definition.find(id);
    if (found == definition.end())
      return false;
    const Instruction &instruction = *found->second;
    return uniformity_.isVarying(id) && !affinePairs_.count(id) && !laneForms_.count(id) &&
           !localUses_.count(id) && !promoted_.count(id) && !dead_.count(id) &&
           !sunk_.count(&instruction) && !boundWhenLowered(instruction) &&
           (instruction.opcode != spv::OpPhi ||
            !needsStaging(*cfg_->order()[definedAt.at(id).block]));
  };
  // The classes: the values the back edges already give their phis, then
  // phis joined to the phis they are given.
  std::unordered_map<uint32_t, uint32_t> classOf;
  std::unordered_map<uint32_t, std::vector<uint32_t>> members;
  auto find = [&](uint32_t id) {
    auto it = classOf.find(id);
    if (it != classOf.end())
      return it->second;
    classOf.emplace(id, id);
    members[id] = {id};
    return id;
  };
  for (const auto &[value, phi] : coalesced_) {
    const uint32_t c = find(phi);
    classOf[value] = c;
    members[c].push_back(value);
  }
  bool joined = false;
  for (uint32_t b = 0; b < n; ++b)
    for (const Instruction &phi : cfg_->order()[b]->instructions) {
      if (phi.opcode != spv::OpPhi)
        break;
      if (!eligible(phi.result))
        continue;
      for (size_t k = 0; k + 1 < phi.operands.size(); k += 2) {
        const uint32_t given = phi.operands[k];
        auto source = definition.find(given);
        if (source == definition.end() || source->second->opcode != spv::OpPhi ||
            source->second->resultType != phi.resultType || !eligible(given))
          continue;
        const uint32_t x = find(phi.result), y = find(given);
        if (x == y)
          continue;
        bool apart = true;
        for (uint32_t a : members[x])
          for (uint32_t c : members[y])
            apart = apart && eligible(a) && eligible(c) && !meets(a, c) && !meets(c, a);
        if (!apart)
          continue;
        for (uint32_t c : members[y]) {
          classOf[c] = x;
          members[x].push_back(c);
        }
        members.erase(y);
        joined = true;
      }
    }
  if (!joined)
    return;
  // Each class in the register of its first member, which values_ makes
  // before the others (lower.cpp).
  auto before = [&](uint32_t a, uint32_t b) {
    const Place pa = definedAt.at(a), pb = definedAt.at(b);
    return std::tuple(pa.block, pa.index, a) < std::tuple(pb.block, pb.index, b);
  };
  for (auto &[c, ids] : members) {
    if (ids.size() < 2)
      continue;
    const uint32_t first = *std::min_element(ids.begin(), ids.end(), before);
    coalesced_.erase(first);
    for (uint32_t id : ids)
      if (id != first)
        coalesced_[id] = first;
  }
}

bool KernelLowering::needsStaging(const Block &block) const {
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

} // namespace lanewise::spirv::lowering
