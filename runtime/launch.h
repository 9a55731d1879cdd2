// The NDRange scheduler: work-groups on oneTBB workers, warps within them.
#pragma once

#include "runtime/bytecode.h"
#include "runtime/check.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace lanewise::runtime {

struct NDRange {
  std::uint32_t dimensions = 1;
  std::uint64_t offset[3] = {};
  std::uint64_t global[3] = {1, 1, 1};
  std::uint64_t local[3] = {1, 1, 1};
};

// What code lowered with affine ids (KernelCode::rowWarps) needs of a
// launch: every warp of `width` lanes of every work-group of `range` lies in
// one row (one y and z) of its work-group, or holds whole rows of one plane
// (one z), and every global id is below 2^31. A warp holds consecutive
// local linear ids.
bool affineIdsHold(std::uint32_t width, const NDRange &range);

// How many work-groups of `range` each warp of `packed` holds, or 0 when
// they cannot share warps. A warp may hold several when the code is
// KernelCode::groupIndependent, or KernelCode::singleItemGroups and the
// work-groups are one work-item each, and the launch is one row of work-groups
// (global and local sizes 1 in y and z) of at most half the warp's width,
// with global ids below 2^31 if the code has affine ids. The warp's lanes
// are then the work-items of consecutive groups, each group a row of the
// warp (ExecutionState::rowLanes is the local size).
std::uint32_t groupsPerPackedWarp(const KernelCode &packed, const NDRange &range);
// The same for warps of `width` lanes of the kernel whose code `code` is
// at another width (whether lowering it for them is worth it).
std::uint32_t groupsPerPackedWarp(const KernelCode &code, const NDRange &range,
                                  std::uint32_t width);

// The value of one kernel argument, in the order of KernelCode::arguments.
struct ArgumentValue {
  std::vector<std::byte> bytes; // Value and ByValue: the bytes; GlobalBuffer: the address
  std::uint64_t localSize = 0;  // LocalBuffer
  // GlobalBuffer: the bytes of the memory object from the address on (0:
  // unknown). A launch with a buffer larger than the last-level cache
  // stores contiguous runs past the caches (ExecutionState::streamingStores).
  std::uint64_t bufferBytes = 0;
};

enum class LaunchResult : std::uint8_t {
  Completed,
  Aborted,  // the checked mode stopped it at its first finding (LANEWISE_CHECK_ABORT)
  TimedOut, // the watchdog stopped it (LANEWISE_TIMEOUT); the report is out
};

// Runs every work-group of `range`; returns when all have finished. Work-groups
// run concurrently on the TBB workers (LANEWISE_THREADS caps their number),
// or in order on the calling thread with LANEWISE_DETERMINISTIC=1. A kernel
// built with checks validates its accesses against `memory`: the global
// memory the launch may access (buffers, SVM, program-scope variables,
// arguments passed by value) and released memory. `packed`, the same kernel
// lowered for wider warps, runs the launch's full work-groups several to a
// warp where groupsPerPackedWarp allows (not with LANEWISE_PACK=0); `code`
// runs the rest.
LaunchResult launch(const KernelCode &code, const NDRange &range,
                    std::span<const ArgumentValue> arguments,
                    std::vector<MemoryRange> memory = {}, const KernelCode *packed = nullptr);

// Whether LANEWISE_DETERMINISTIC=1 asks for one worker and a fixed order.
bool deterministic();

// Worker threads the scheduler uses.
unsigned workerCount();

} // namespace lanewise::runtime
