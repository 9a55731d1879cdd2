// Runs one warp through a kernel's blocks in lockstep.
#pragma once

#include "runtime/execution.h"

namespace lanewise::runtime {

enum class LaneStatus : std::uint8_t { Ready, AtBarrier, Done };

// Where each lane of a warp is: the block it waits at and whether it may run.
struct LaneControl {
  std::uint32_t *nextBlock = nullptr;
  LaneStatus *status = nullptr;
  std::uint8_t *scratchMask = nullptr; // width bytes for the interpreter's own use
};

enum class WarpStop { Finished, AtBarrier };

// Runs the warp's ready lanes until each has returned or reached a
// work-group barrier. The warp always runs the lowest-numbered block (in
// reverse post-order) that has ready lanes, with exactly those lanes active:
// lanes reconverge at the earliest block where their paths meet.
WarpStop runWarp(const KernelCode &code, ExecutionState &state, LaneControl &control);

// Copies a register into another for the lanes of `mask` (all lanes of the
// warp when mask is null).
void copyRegister(const RegisterCopy &copy, const ExecutionState &state,
                  const std::uint8_t *mask);

} // namespace lanewise::runtime
