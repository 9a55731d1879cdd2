// SPDX-License-Identifier: Apache-2.0
#include "spirv/cfg.h"

#include <algorithm>
#include <utility>

namespace lanewise::spirv {

std::vector<bool> ControlFlowGraph::reachedBefore(uint32_t block, uint32_t stop) const {
  std::vector<bool> reached(size(), false);
  std::vector<uint32_t> work(successors(block).begin(), successors(block).end());
  while (!work.empty()) {
    const uint32_t x = work.back();
    work.pop_back();
    if (x == stop || reached[x])
      continue;
    reached[x] = true;
    for (uint32_t y : successors(x))
      work.push_back(y);
  }
  return reached;
}

std::vector<uint32_t> successorLabels(const Block &block) {
  const Instruction &t = block.terminator();
  switch (t.opcode) {
  case spv::OpBranch:
    return {t.idOperand(0)};
  case spv::OpBranchConditional:
    return {t.idOperand(1), t.idOperand(2)};
  case spv::OpSwitch: {
    std::vector<uint32_t> labels;
    for (const Operand &operand : t.operandLayout)
      if (operand.kind == OperandKind::Id && operand.offset > 0)
        labels.push_back(t.operands[operand.offset]);
    return labels;
  }
  default:
    return {};
  }
}

namespace {

// Post-order of the blocks reachable from the entry, by an iterative
// depth-first search that visits a block's successors in the order
// `successorsOf` gives.
template <typename Successors>
std::vector<const Block *>
postOrderFrom(const Block *entry, const std::unordered_map<uint32_t, const Block *> &byLabel,
              Successors &&successorsOf) {
  std::vector<const Block *> postOrder;
  std::unordered_map<uint32_t, bool> visited;
  struct Frame {
    const Block *block;
    std::vector<uint32_t> next;
    size_t index;
  };
  std::vector<Frame> stack;
  visited[entry->label] = true;
  stack.push_back({entry, successorsOf(*entry), 0});
  while (!stack.empty()) {
    Frame &top = stack.back();
    if (top.index < top.next.size()) {
      const uint32_t label = top.next[top.index++];
      auto it = byLabel.find(label);
      if (it != byLabel.end() && !visited[label]) {
        visited[label] = true;
        stack.push_back({it->second, successorsOf(*it->second), 0});
      }
    } else {
      postOrder.push_back(top.block);
      stack.pop_back();
    }
  }
  return postOrder;
}

} // namespace

ControlFlowGraph::ControlFlowGraph(const Function &function) {
  std::unordered_map<uint32_t, const Block *> byLabel;
  for (const Block &block : function.blocks)
    byLabel[block.label] = &block;
  const Block *entry = &function.blocks.front();

  // The warp runs the lowest-numbered block first, so the numbering decides
  // where lanes reconverge: every block of a loop must come before the
  // blocks the loop exits to, or lanes that leave early would run ahead of
  // the others. A first order finds the loops (back edges of a reverse
  // post-order; OpenCL C gives reducible graphs); the second search then
  // visits, from each block, the successors that leave more of its loops
  // first, which numbers them after the loop.
  std::unordered_map<uint32_t, std::vector<uint32_t>> loopsOf; // label -> loop headers
  {
    std::vector<const Block *> first = postOrderFrom(entry, byLabel, successorLabels);
    std::unordered_map<uint32_t, size_t> rank;
    for (size_t i = 0; i < first.size(); ++i)
      rank[first[i]->label] = first.size() - 1 - i;
    std::unordered_map<uint32_t, std::vector<uint32_t>> predecessorsOf;
    for (const Block *block : first)
      for (uint32_t next : successorLabels(*block))
        if (rank.count(next))
          predecessorsOf[next].push_back(block->label);
    for (const Block *latch : first)
      for (uint32_t header : successorLabels(*latch)) {
        if (!rank.count(header) || rank[header] > rank[latch->label])
          continue;
        // The natural loop: the header and what reaches the latch without it.
        std::unordered_map<uint32_t, bool> inLoop{{header, true}};
        std::vector<uint32_t> work{latch->label};
        while (!work.empty()) {
          const uint32_t label = work.back();
          work.pop_back();
          if (inLoop[label])
            continue;
          inLoop[label] = true;
          for (uint32_t p : predecessorsOf[label])
            work.push_back(p);
        }
        for (const auto &[label, member] : inLoop)
          if (member && std::find(loopsOf[label].begin(), loopsOf[label].end(), header) ==
                            loopsOf[label].end())
            loopsOf[label].push_back(header);
      }
  }
  auto leaves = [&](uint32_t from, uint32_t to) {
    size_t count = 0;
    const std::vector<uint32_t> &inner = loopsOf[to];
    for (uint32_t header : loopsOf[from])
      count += std::find(inner.begin(), inner.end(), header) == inner.end();
    return count;
  };
  const std::vector<const Block *> postOrder =
      postOrderFrom(entry, byLabel, [&](const Block &block) {
        std::vector<uint32_t> next = successorLabels(block);
        std::stable_sort(next.begin(), next.end(), [&](uint32_t a, uint32_t b) {
          return leaves(block.label, a) > leaves(block.label, b);
        });
        return next;
      });
  order_.assign(postOrder.rbegin(), postOrder.rend());
  for (uint32_t i = 0; i < order_.size(); ++i)
    numberOf_[order_[i]->label] = i;

  const uint32_t n = size();
  successors_.resize(n);
  predecessors_.resize(n);
  for (uint32_t i = 0; i < n; ++i)
    for (uint32_t label : successorLabels(*order_[i])) {
      const uint32_t j = numberOf_.at(label);
      successors_[i].push_back(j);
      predecessors_[j].push_back(i);
    }

  // Post-dominators (Cooper, Harvey and Kennedy's iterative algorithm on the
  // reverse graph), with a virtual exit n after every block without
  // successors. A block from which no exit can be reached (a loop without
  // an exit, a block branching to itself) gets a virtual edge to the exit
  // too, as LLVM's post-dominator tree does: otherwise its own loop would be
  // its only way out, and the intersection below would never meet the exit.
  const uint32_t exit = n, undefined = n + 1;
  postDominator_.assign(n, undefined);
  std::vector<bool> toExit(n, false); // has the virtual exit as a successor
  std::vector<uint32_t> reverseOrder; // post-order of the reverse graph, from exit
  {
    std::vector<bool> seen(n, false);
    // Iterative: a function of thousands of blocks must not exhaust the stack.
    auto visit = [&](uint32_t root) {
      std::vector<std::pair<uint32_t, size_t>> stack{{root, 0}};
      seen[root] = true;
      while (!stack.empty()) {
        auto &[b, next] = stack.back();
        if (next < predecessors_[b].size()) {
          const uint32_t p = predecessors_[b][next++];
          if (!seen[p]) {
            seen[p] = true;
            stack.push_back({p, 0});
          }
        } else {
          reverseOrder.push_back(b);
          stack.pop_back();
        }
      }
    };
    for (uint32_t b = 0; b < n; ++b)
      if (successors_[b].empty() && !seen[b]) {
        toExit[b] = true;
        visit(b);
      }
    for (uint32_t b = n; b-- > 0;)
      if (!seen[b]) {
        toExit[b] = true;
        visit(b);
      }
  }
  std::vector<uint32_t> rank(n + 1, 0);
  for (uint32_t i = 0; i < reverseOrder.size(); ++i)
    rank[reverseOrder[i]] = i;
  rank[exit] = n;
  std::vector<uint32_t> idom(n + 1, undefined);
  idom[exit] = exit;
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (rank[a] < rank[b])
        a = idom[a];
      while (rank[b] < rank[a])
        b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = reverseOrder.rbegin(); it != reverseOrder.rend(); ++it) {
      const uint32_t b = *it;
      uint32_t candidate = toExit[b] ? exit : undefined;
      for (uint32_t s : successors_[b])
        if (idom[s] != undefined)
          candidate = candidate == undefined ? s : intersect(candidate, s);
      if (idom[b] != candidate) {
        idom[b] = candidate;
        changed = true;
      }
    }
  }
  for (uint32_t b = 0; b < n; ++b)
    postDominator_[b] = idom[b];

  // Natural loops: for each back edge latch -> header, the blocks that reach
  // the latch without passing the header.
  for (uint32_t latch = 0; latch < n; ++latch)
    for (uint32_t header : successors_[latch]) {
      if (!isBackEdge(latch, header))
        continue;
      std::vector<uint32_t> &body = loops_[header];
      std::vector<bool> in(n, false);
      for (uint32_t b : body)
        in[b] = true;
      in[header] = true;
      std::vector<uint32_t> work{latch};
      while (!work.empty()) {
        const uint32_t b = work.back();
        work.pop_back();
        if (in[b])
          continue;
        in[b] = true;
        for (uint32_t p : predecessors_[b])
          work.push_back(p);
      }
      body.clear();
      for (uint32_t b = 0; b < n; ++b)
        if (in[b])
          body.push_back(b);
    }
}

int ControlFlowGraph::number(uint32_t label) const {
  auto it = numberOf_.find(label);
  return it == numberOf_.end() ? -1 : static_cast<int>(it->second);
}

} // namespace lanewise::spirv
