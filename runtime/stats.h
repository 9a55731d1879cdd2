// SPDX-License-Identifier: Apache-2.0
// Statistics of kernels (LANEWISE_STATS=1), printed when the process ends:
// per kernel, its launches, work-items and time; its lane utilisation (the
// active lanes of each block run over the lanes of the warps that ran it),
// overall and for its worst blocks, with source lines; and where the
// interpreter's time went, by instruction family.
#pragma once

#include "runtime/bytecode.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace lanewise::runtime {

struct KernelStats {
  explicit KernelStats(const KernelCode &code);

  std::string name;
  std::vector<std::string> blockSources; // copies: the code may go first
  std::vector<std::uint32_t> blockLabels;
  std::atomic<std::uint64_t> launches{0}, workItems{0}, nanoseconds{0};
  struct BlockCounts {
    std::atomic<std::uint64_t> runs{0}, activeLanes{0}, presentLanes{0};
  };
  std::unique_ptr<BlockCounts[]> blocks;
  // Processor ticks spent in each instruction family, and in whole warps
  // (the rest is control flow: masks, branches, phi copies).
  std::atomic<std::uint64_t> familyTicks[familyCount] = {};
  std::atomic<std::uint64_t> warpTicks{0};
  std::shared_ptr<TierState> tier; // the code's (runtime/tier.h), kept with the statistics
};

// Whether LANEWISE_STATS is on.
bool statsEnabled();

// The statistics of the kernel's code (made at its first launch), or null
// when they are off.
KernelStats *statsFor(const KernelCode &code);

// A cheap, monotonic tick count (the time-stamp counter where there is one).
std::uint64_t ticks();

} // namespace lanewise::runtime
