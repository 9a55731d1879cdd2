// SPDX-License-Identifier: Apache-2.0
// The NDRange scheduler: work-groups on oneTBB workers, warps within them.
//
// Work-groups run under tbb::parallel_for (in a sub-device's
// WorkerArena); a work-group runs to its end on one thread, its warps one
// after another until each has returned, reached a barrier or yielded.
// Each worker keeps its registers, private memory and __local arena from
// group to group and launch to launch. A launch chooses among a kernel's
// codes at enqueue: the affine one when affineIdsHold, the code for warps
// of several work-groups when groupsPerPackedWarp says the groups are one
// work-item high and deep and at most half the packed width (each warp one
// row of groups along x; in two and three dimensions only when every group
// is full), the code for groups of one work-item, and otherwise the usual
// one. In a packed warp the engine writes the affine ids' strides with
// lane 0's id and the group id per lane, and restarts the sub-group ids at
// each group.
#pragma once

#include "runtime/bytecode.h"
#include "runtime/check.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <utility>
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
// (one z) or of a work-group one row deep (y size 1: its rows step in z),
// and every global id is below 2^31. A warp holds consecutive local linear
// ids.
bool affineIdsHold(std::uint32_t width, const NDRange &range);

// How many work-groups of `range` each warp of `packed` holds, or 0 when
// they cannot share warps. A warp may hold several when the code is
// KernelCode::groupIndependent, or KernelCode::singleItemGroups and the
// work-groups are one work-item each, and the work-groups are rows along x
// (local sizes 1 in y and z) of at most half the warp's width, all full
// when the launch has more than one row, with global ids below 2^31 if the
// code has affine ids. The warp's lanes are then the work-items of
// consecutive groups of one row, each group a row of the warp
// (ExecutionState::rowLanes is the local size).
std::uint32_t groupsPerPackedWarp(const KernelCode &packed, const NDRange &range);
// The same for warps of `width` lanes of the kernel whose code `code` is
// at another width (whether lowering it for them is worth it).
std::uint32_t groupsPerPackedWarp(const KernelCode &code, const NDRange &range,
                                  std::uint32_t width);

// An argument's bytes: in the object up to 16 (every scalar, pointers,
// vectors of up to 16 bytes), on the heap beyond, so that a launch's copy
// of its arguments (icd/kernel.cpp) allocates nothing for the usual kinds
// and stays small: a command's arguments are written by the enqueuing
// thread and read by another. The bytes are 16-byte aligned either way: a
// ByValue argument is read in place.
class ArgumentBytes {
public:
  ArgumentBytes() = default;
  ArgumentBytes(const ArgumentBytes &other) { assign(other.data(), other.data() + other.size_); }
  ArgumentBytes &operator=(const ArgumentBytes &other) {
    if (this != &other)
      assign(other.data(), other.data() + other.size_);
    return *this;
  }
  ArgumentBytes(ArgumentBytes &&other) noexcept { *this = std::move(other); }
  ArgumentBytes &operator=(ArgumentBytes &&other) noexcept {
    if (this != &other) {
      std::memcpy(inline_, other.inline_, inlineBytes);
      heap_ = std::move(other.heap_);
      size_ = std::exchange(other.size_, 0);
      capacity_ = std::exchange(other.capacity_, 0);
    }
    return *this;
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::byte *data() { return heap_ ? heap_.get() : inline_; }
  const std::byte *data() const { return heap_ ? heap_.get() : inline_; }

  // The first min(n, size()) bytes kept, the rest zero.
  void resize(std::size_t n) {
    if (n > inlineBytes && !heap_) {
      auto heap = std::make_unique<std::byte[]>(n);
      std::memcpy(heap.get(), inline_, size_);
      heap_ = std::move(heap);
      capacity_ = static_cast<std::uint32_t>(n);
    } else if (heap_ && n > capacity_) {
      auto heap = std::make_unique<std::byte[]>(n);
      std::memcpy(heap.get(), heap_.get(), size_);
      heap_ = std::move(heap);
      capacity_ = static_cast<std::uint32_t>(n);
    }
    if (n > size_)
      std::memset(data() + size_, 0, n - size_);
    size_ = static_cast<std::uint32_t>(n);
  }
  void assign(const std::byte *first, const std::byte *last) {
    size_ = 0;
    resize(static_cast<std::size_t>(last - first));
    if (size_)
      std::memcpy(data(), first, size_);
  }
  void assign(std::size_t n, std::byte value) {
    size_ = 0;
    resize(n);
    std::memset(data(), static_cast<int>(value), n);
  }

private:
  static constexpr std::size_t inlineBytes = 16;
  alignas(16) std::byte inline_[inlineBytes]{};
  std::unique_ptr<std::byte[]> heap_; // when more than inlineBytes
  // An argument is at most CL_DEVICE_MAX_PARAMETER_SIZE bytes.
  std::uint32_t size_ = 0, capacity_ = 0;
};

// The value of one kernel argument, in the order of KernelCode::arguments.
struct ArgumentValue {
  ArgumentBytes bytes;          // Value and ByValue: the bytes; GlobalBuffer: the address
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

// A share of the processor that launches run in: a oneTBB arena of a fixed
// number of threads (a sub-device's compute units), the thread that
// launches counted among them. Given `processors`, the arena's threads run
// on those processors only while they work in it (the launching thread's
// own affinity comes back when it leaves).
class WorkerArena {
public:
  explicit WorkerArena(unsigned threads, std::span<const unsigned> processors = {});
  ~WorkerArena();
  WorkerArena(const WorkerArena &) = delete;
  WorkerArena &operator=(const WorkerArena &) = delete;

  // Runs `work` in the arena: the parallel loops it starts use the arena's
  // threads and no others.
  void run(const std::function<void()> &work);

private:
  struct Arena;
  std::unique_ptr<Arena> arena_;
};

// Runs every work-group of `range`; returns when all have finished. Work-groups
// run concurrently on the TBB workers (LANEWISE_THREADS caps their number;
// `workers`, when given, confines them to its threads),
// or in order on the calling thread with LANEWISE_DETERMINISTIC=1. A kernel
// built with checks validates its accesses against `memory`: the global
// memory the launch may access (buffers, SVM, program-scope variables,
// arguments passed by value) and released memory. `packed`, the same kernel
// lowered for wider warps, runs the launch's full work-groups several to a
// warp where groupsPerPackedWarp allows (not with LANEWISE_PACK=0); `code`
// runs the rest.
LaunchResult launch(const KernelCode &code, const NDRange &range,
                    std::span<const ArgumentValue> arguments, std::vector<MemoryRange> memory = {},
                    const KernelCode *packed = nullptr, WorkerArena *workers = nullptr);

// Whether LANEWISE_DETERMINISTIC=1 asks for one worker and a fixed order.
bool deterministic();

// Worker threads the scheduler uses.
unsigned workerCount();

} // namespace lanewise::runtime
