// SPDX-License-Identifier: Apache-2.0
// Runs one warp through a kernel's blocks in lockstep.
//
// The warp runs the lowest-numbered block that has ready lanes, with
// exactly those lanes active. Which lanes wait at which block is kept as
// bit masks (a block's lanes, a bit per block that has any), so choosing
// the next block and splitting lanes at a branch are word operations; the
// byte mask handlers read is expanded from the bits only when not full.
// Lanes that all take one branch to a block where no lane waits, and
// before which none waits, go on without mask work; lanes that split run
// the lower target at once when nothing waits before it; lanes going on to
// a block where others wait take those with them. runWarp is compiled for
// warps of one, two and sixteen mask words and for any width. A phi is
// written on its incoming edges, through staging registers only when a phi
// of the same block reads another. After 4,096 backward branches in a loop
// that may wait (Block::waits), sub-groups take turns alone (independent
// forward progress; see runWarp).
#pragma once

#include "runtime/execution.h"

#include <cstdint>

namespace lanewise::runtime {

// Bit masks of lanes, 64 lanes a word.
constexpr std::uint32_t maskWords(std::uint32_t lanes) { return (lanes + 63) / 64; }

// Where the lanes of a warp are. For each block, the lanes waiting to run it;
// lanes that reached a work-group barrier wait at the block after it but are
// held until the barrier is released; lanes that returned are in no block.
struct LaneControl {
  std::uint64_t *waiting = nullptr;     // blocks x maskWords(width)
  std::uint64_t *occupied = nullptr;    // one bit per block: some lane waits there
  std::uint64_t *atBarrier = nullptr;   // maskWords(width)
  std::uint8_t *scratchMask = nullptr;  // width bytes for the interpreter's own use
};

// Lanes 0 .. laneCount-1 ready at the entry block.
void resetLanes(const KernelCode &code, const ExecutionState &state, LaneControl &control);
// Releases the lanes held at a barrier.
void releaseBarrier(const ExecutionState &state, LaneControl &control);

// Yielded: the warp gave way to the other warps of its work-group and has
// lanes ready to run. Stopped: the launch's watchdog expired; the lanes are
// where they were, at a block or a barrier.
enum class WarpStop { Finished, AtBarrier, Yielded, Stopped };

// Runs the warp's ready lanes until each has returned or reached a
// work-group barrier. The warp always runs the lowest-numbered block (in
// reverse post-order) that has ready lanes, with exactly those lanes active:
// lanes reconverge at the earliest block where their paths meet. For the
// sub-groups' independent forward progress, a warp that keeps branching
// backwards runs its sub-groups in turn, and then, when `mayYield` (the
// work-group has other warps), yields.
WarpStop runWarp(const KernelCode &code, ExecutionState &state, LaneControl &control,
                 bool mayYield);

// Copies a register into another for the lanes of `mask` (all lanes of the
// warp when mask is null).
void copyRegister(const RegisterCopy &copy, const ExecutionState &state,
                  const std::uint8_t *mask);

} // namespace lanewise::runtime
