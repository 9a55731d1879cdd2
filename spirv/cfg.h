// SPDX-License-Identifier: Apache-2.0
// The control-flow graph of a function: successors, predecessors, reverse
// post-order, post-dominators and loops. Blocks are referred to by their
// reverse post-order number; unreachable blocks have none.
//
// The numbering decides where lanes reconverge (the warp runs the
// lowest-numbered block first), and not every reverse post-order will do:
// a loop's blocks must come before the blocks it exits to, or lanes that
// leave the loop early run ahead of the others. The loops are found from a
// first order; a second depth-first search then visits, from each block,
// the successors that leave more of its loops first. Post-dominators are
// computed on the reverse graph with a virtual exit; a block from which no
// return is reachable also gets an edge to it, as in LLVM, so that the
// fixed point is reached on every graph.
#pragma once

#include "spirv/module.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace lanewise::spirv {

class ControlFlowGraph {
public:
  explicit ControlFlowGraph(const Function &function);

  // Blocks in reverse post-order from the entry; unreachable blocks omitted.
  const std::vector<const Block *> &order() const { return order_; }
  uint32_t size() const { return static_cast<uint32_t>(order_.size()); }
  // Reverse post-order number of a block label, or -1 if unreachable.
  int number(uint32_t label) const;
  const std::vector<uint32_t> &successors(uint32_t block) const { return successors_[block]; }
  const std::vector<uint32_t> &predecessors(uint32_t block) const { return predecessors_[block]; }
  // An edge u -> v with v not after u in reverse post-order closes a loop.
  bool isBackEdge(uint32_t from, uint32_t to) const { return to <= from; }
  // Immediate post-dominator, or size() for the virtual exit (blocks that
  // return, and blocks from which no return can be reached).
  uint32_t immediatePostDominator(uint32_t block) const { return postDominator_[block]; }
  // The blocks of the natural loop of each back edge's header, by header.
  const std::unordered_map<uint32_t, std::vector<uint32_t>> &loops() const { return loops_; }
  // The blocks a path from `block`'s successors reaches before it reaches
  // `stop` (which is not among them; size() for none), by number.
  std::vector<bool> reachedBefore(uint32_t block, uint32_t stop) const;

private:
  std::vector<const Block *> order_;
  std::unordered_map<uint32_t, uint32_t> numberOf_;
  std::vector<std::vector<uint32_t>> successors_, predecessors_;
  std::vector<uint32_t> postDominator_;
  std::unordered_map<uint32_t, std::vector<uint32_t>> loops_;
};

// Labels a block's terminator may branch to, in operand order.
std::vector<uint32_t> successorLabels(const Block &block);

} // namespace lanewise::spirv
