// SPDX-License-Identifier: Apache-2.0
// Which values of a kernel are the same in every lane of a warp (uniform)
// and which differ (varying). Uniform values live in one register element;
// varying ones in one element per lane.
#pragma once

#include "spirv/cfg.h"

#include <functional>
#include <unordered_set>

namespace lanewise::spirv {

struct UniformityInfo {
  std::unordered_set<uint32_t> varying;
  // Branches (by block number) whose condition or selector is varying.
  std::unordered_set<uint32_t> divergentBranches;

  bool isVarying(uint32_t id) const { return varying.count(id) != 0; }
};

// The loops (by header) that may wait for other work-items: one of their
// exits depends on a value `readsMemory` says another work-item may change
// (a load, an atomic) read in the loop. Only in those may lanes need
// another sub-group to move first (runtime/interpreter.cpp).
std::unordered_set<uint32_t>
findWaitingLoops(const Function &function, const ControlFlowGraph &cfg,
                 const std::function<bool(const Instruction &)> &readsMemory);

// A divergence analysis in the manner of LLVM's: a value is varying when it
// is a source of divergence (`isSource`), depends on a varying value, is a
// phi at a join of paths from a divergent branch, or is defined in a loop
// that lanes leave at different iterations and used after it.
UniformityInfo analyseUniformity(const Function &function, const ControlFlowGraph &cfg,
                                 const std::function<bool(const Instruction &)> &isSource);

} // namespace lanewise::spirv
