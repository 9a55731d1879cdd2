// SPDX-License-Identifier: Apache-2.0
#include "spirv/uniformity.h"

#include <algorithm>

#include <unordered_map>

namespace lanewise::spirv {

std::unordered_set<uint32_t>
findWaitingLoops(const Function &function, const ControlFlowGraph &cfg,
                 const std::function<bool(const Instruction &)> &readsMemory) {
  (void)function;
  const uint32_t n = cfg.size();
  std::unordered_map<uint32_t, std::pair<const Instruction *, uint32_t>> definition;
  for (uint32_t b = 0; b < n; ++b)
    for (const Instruction &instruction : cfg.order()[b]->instructions)
      if (instruction.result)
        definition[instruction.result] = {&instruction, b};
  std::unordered_set<uint32_t> waiting;
  for (const auto &[header, body] : cfg.loops()) {
    std::vector<bool> inLoop(n, false);
    for (uint32_t x : body)
      inLoop[x] = true;
    // The conditions of the loop's exits, and what they depend on in it.
    std::vector<uint32_t> work;
    for (uint32_t x : body) {
      const Instruction &t = cfg.order()[x]->terminator();
      if (t.opcode != spv::OpBranchConditional && t.opcode != spv::OpSwitch)
        continue;
      for (uint32_t successor : cfg.successors(x))
        if (!inLoop[successor]) {
          work.push_back(t.idOperand(0));
          break;
        }
    }
    std::unordered_set<uint32_t> seen;
    bool waits = false;
    while (!work.empty() && !waits) {
      const uint32_t id = work.back();
      work.pop_back();
      if (!seen.insert(id).second)
        continue;
      const auto it = definition.find(id);
      if (it == definition.end() || !inLoop[it->second.second])
        continue; // the same on every iteration
      const Instruction &instruction = *it->second.first;
      waits = readsMemory(instruction);
      instruction.forEachIdOperand([&](uint32_t operand) { work.push_back(operand); });
    }
    if (waits)
      waiting.insert(header);
  }
  return waiting;
}

UniformityInfo analyseUniformity(const Function &function, const ControlFlowGraph &cfg,
                                 const std::function<bool(const Instruction &)> &isSource) {
  UniformityInfo info;
  const uint32_t n = cfg.size();
  std::unordered_map<uint32_t, uint32_t> definedIn; // value -> block number
  for (uint32_t b = 0; b < n; ++b)
    for (const Instruction &instruction : cfg.order()[b]->instructions)
      if (instruction.result)
        definedIn[instruction.result] = b;

  std::vector<bool> joinIsDivergent(n, false);
  std::unordered_set<uint32_t> divergentLoops; // headers
  auto markVarying = [&](uint32_t id) { return info.varying.insert(id).second; };

  for (bool changed = true; changed;) {
    changed = false;
    // Values, in reverse post-order (one pass is exact without loops).
    for (uint32_t b = 0; b < n; ++b)
      for (const Instruction &instruction : cfg.order()[b]->instructions) {
        if (!instruction.result || info.isVarying(instruction.result))
          continue;
        bool varying = isSource(instruction);
        if (!varying && instruction.opcode == spv::OpPhi && joinIsDivergent[b])
          varying = true;
        if (!varying)
          instruction.forEachIdOperand([&](uint32_t id) { varying |= info.isVarying(id); });
        if (varying)
          changed |= markVarying(instruction.result);
      }

    // Divergent branches make the phis at the joins of their paths varying:
    // the blocks before the branch's post-dominator that paths from two of
    // its targets reach, and the post-dominator. A block that paths from
    // only one target reach (a loop in one arm of an `if`) joins only
    // lanes that took that target together.
    for (uint32_t b = 0; b < n; ++b) {
      if (info.divergentBranches.count(b))
        continue;
      const Instruction &t = cfg.order()[b]->terminator();
      const bool conditional =
          (t.opcode == spv::OpBranchConditional || t.opcode == spv::OpSwitch) &&
          cfg.successors(b).size() > 1;
      if (!conditional || !info.isVarying(t.idOperand(0)))
        continue;
      info.divergentBranches.insert(b);
      changed = true;
      const uint32_t stop = cfg.immediatePostDominator(b);
      std::vector<uint32_t> targets(cfg.successors(b));
      std::sort(targets.begin(), targets.end());
      targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
      std::vector<uint32_t> reachedFrom(n, 0);
      for (uint32_t target : targets) {
        std::vector<bool> seen(n, false);
        std::vector<uint32_t> work;
        if (target != stop && target != b)
          work.push_back(target);
        while (!work.empty()) {
          const uint32_t x = work.back();
          work.pop_back();
          if (seen[x])
            continue;
          seen[x] = true;
          ++reachedFrom[x];
          for (uint32_t next : cfg.successors(x))
            if (next != stop && next != b && !seen[next])
              work.push_back(next);
        }
      }
      for (uint32_t x = 0; x < n; ++x)
        if ((reachedFrom[x] > 1 || x == stop) && cfg.predecessors(x).size() > 1)
          joinIsDivergent[x] = true;
    }

    // Loops that lanes leave at different iterations: what the loop defines
    // and the code after it uses differs between lanes.
    for (const auto &[header, body] : cfg.loops()) {
      if (divergentLoops.count(header))
        continue;
      std::vector<bool> inLoop(n, false);
      for (uint32_t x : body)
        inLoop[x] = true;
      bool divergentExit = false;
      for (uint32_t x : body)
        if (info.divergentBranches.count(x))
          for (uint32_t s : cfg.successors(x))
            divergentExit |= !inLoop[s];
      if (!divergentExit)
        continue;
      divergentLoops.insert(header);
      changed = true;
      for (uint32_t b = 0; b < n; ++b) {
        if (inLoop[b])
          continue;
        for (const Instruction &instruction : cfg.order()[b]->instructions)
          instruction.forEachIdOperand([&](uint32_t id) {
            auto it = definedIn.find(id);
            if (it != definedIn.end() && inLoop[it->second])
              markVarying(id);
          });
      }
    }
  }
  (void)function;
  return info;
}

} // namespace lanewise::spirv
