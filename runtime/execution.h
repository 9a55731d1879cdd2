// SPDX-License-Identifier: Apache-2.0
// The state a handler sees: one warp's registers and active lanes, and the
// loops over lanes that handlers are written with.
#pragma once

#include "runtime/aperture.h"
#include "runtime/bytecode.h"

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace lanewise::runtime {

class PrintfLog;
struct RaceEpochs;

// The work-group a warp belongs to.
struct WorkGroupInfo {
  std::uint32_t workDim = 1;
  std::uint64_t groupId[3] = {};
  std::uint64_t numGroups[3] = {1, 1, 1};
  std::uint64_t localSize[3] = {1, 1, 1};         // of this group (the last may be smaller)
  std::uint64_t enqueuedLocalSize[3] = {1, 1, 1}; // as enqueued
  std::uint64_t globalSize[3] = {1, 1, 1};
  std::uint64_t globalOffset[3] = {};
  std::byte *localArena = nullptr;
  std::uint64_t localBytes = 0; // the arena's size: __local addresses are inside
  std::uint32_t subgroupSize = 1;
  // When the warp holds several work-groups of a one-dimensional launch
  // (launch.h, groupsPerPackedWarp): their size L, lane l being work-item
  // l % L of group groupId[0] + l / L. Else 0.
  std::uint32_t groupLanes = 0;
  // For each async copy site, how many of its executions the work-group has
  // performed (a copy is done once per work-group, by the first warp).
  std::uint32_t *asyncPerformed = nullptr;
  // Where printf keeps the launch's output (null if the kernel has none).
  PrintfLog *printfLog = nullptr;
  // The checked mode's uninitialised-read shadows (runtime/check.h), or null:
  // one byte per byte of the arena and of the group's private memory.
  std::uint8_t *localShadow = nullptr, *privateShadow = nullptr;
  std::byte *privateMemory = nullptr; // the group's, lane 0 first
  std::uint64_t privateBytes = 0;
  // The race check's: per byte of the arena, the work-item (local linear id
  // + 1) that wrote it and that read it since the last barrier; and the
  // group's epochs for global memory.
  std::uint32_t *localWriter = nullptr, *localReader = nullptr;
  std::uint32_t *localWriterSite = nullptr, *localReaderSite = nullptr; // their sites + 1
  RaceEpochs *raceEpochs = nullptr;
};

class CheckSession;
class NativeCode;
class Watchdog;
struct KernelStats;

struct ExecutionState {
  std::byte *registers = nullptr;
  std::uint8_t *active = nullptr; // 1 for each lane that runs the current block
  bool fullMask = false;          // every lane of the warp is active
  // The lanes the elementwise loops run over: every active lane is below
  // `span` (laneCount under a full mask), and when `dense`, every lane below
  // it is active, so that the loop needs no mask. A tree reduction's
  // `if (lid < k)` runs k lanes, not the warp.
  std::uint32_t span = 0;
  bool dense = false;
  // Every active lane is at or above `begin` (0 when dense): the loops
  // start there. When `contiguous`, the active lanes are exactly [begin,
  // span) and the loops need no mask; else `begin` is a multiple of 16. The
  // lanes still in a divergent loop are often a run in the middle of the
  // warp.
  std::uint32_t begin = 0;
  bool contiguous = false;
  std::uint32_t width = 0;        // lanes a varying register holds
  std::uint32_t laneCount = 0;    // lanes present in this warp (<= width)
  // Lanes per row of the work-group in this warp, for affine values
  // (runtime/exec_affine.cpp): lane l is at x = l % rowLanes, in the
  // warp's row l / rowLanes. The width when the warp lies in one row; set
  // for every warp by the launch.
  std::uint32_t rowLanes = 0;
  std::uint32_t firstLocalIndex = 0;
  std::byte *privateBase = nullptr; // lane l's private memory: privateBase + l * privateStride
  std::uint32_t privateStride = 0;
  const WorkGroupInfo *group = nullptr;
  // For each async copy site, how many times this warp has reached it.
  std::uint32_t *asyncReached = nullptr;
  CheckSession *check = nullptr; // the launch's checks, when the kernel has any
  // The memory the barriers the warp's lanes wait at order (BarrierFence).
  std::uint32_t barrierFences = 0;
  // The launch's watchdog (LANEWISE_TIMEOUT), or null; and the backward
  // branches the warp took, which it is consulted on.
  const Watchdog *watchdog = nullptr;
  std::uint64_t backwardBranches = 0;
  // The instruction the warp runs, for the crash report (runtime/crash.h).
  const Instruction *current = nullptr;
  // The kernel's statistics when LANEWISE_STATS is on (runtime/stats.h).
  KernelStats *stats = nullptr;
  // The kernel's native code, whose block bodies run in place of their
  // instructions (runtime/native.h); null: interpreted.
  const NativeCode *native = nullptr;
  // Contiguous stores of the warp's lanes go past the caches (non-temporal
  // stores, ordered before the handler returns): the launch writes a
  // buffer larger than the last-level cache, whose lines would only evict
  // others before they are read again (runtime/launch.cpp).
  bool streamingStores = false;
  // A Bool register the block computed as the same value on every lane
  // below `span` (a bounds test `i < n` of an affine i, exec_affine.cpp),
  // and that value: the block's conditional branch on it needs no look at
  // its lanes. Cleared when a block starts (runtime/interpreter.cpp).
  static constexpr std::uint32_t noCondition = ~std::uint32_t(0);
  std::uint32_t uniformCondition = noCondition;
  bool uniformConditionValue = false;

  template <typename T> T *reg(std::uint32_t offset) const {
    return reinterpret_cast<T *>(registers + offset);
  }
  bool isActive(std::uint32_t lane) const { return fullMask || active[lane]; }
};

// Whether a vector kept in memory order (spirv/lower_memory.cpp,
// findMemoryOrderValues) is in that order in this block: when every lane
// of the warp runs it. Lane-wise instructions then compute each element
// wherever it lies; with a lane missing they would not cover the vector's
// elements, and the vector is component-major as any other.
inline bool inMemoryOrder(const ExecutionState &s) { return s.dense && s.span == s.width; }

// The ids of the work-item a lane of the warp runs, and of its work-group.
struct WorkItemIds {
  std::uint64_t local[3], global[3], group[3];
};
inline WorkItemIds workItemIds(const ExecutionState &s, std::uint32_t lane) {
  const WorkGroupInfo &g = *s.group;
  WorkItemIds ids{{}, {}, {g.groupId[0], g.groupId[1], g.groupId[2]}};
  if (g.groupLanes) {
    ids.local[0] = lane % g.groupLanes;
    ids.group[0] += lane / g.groupLanes;
  } else {
    const std::uint64_t linear = s.firstLocalIndex + lane;
    ids.local[0] = linear % g.localSize[0];
    ids.local[1] = (linear / g.localSize[0]) % g.localSize[1];
    ids.local[2] = linear / (g.localSize[0] * g.localSize[1]);
  }
  for (int d = 0; d < 3; ++d)
    ids.global[d] = ids.group[d] * g.enqueuedLocalSize[d] + ids.local[d] + g.globalOffset[d];
  return ids;
}

// The memory a generic address points to: __local memory, private memory
// (of any work-item, wherever it came from: runtime/aperture.h), or else
// global memory.
enum class MemoryOf : std::uint8_t { Global, Local, Private };
inline MemoryOf memoryOf(std::uint64_t address) {
  if (inAperture(Aperture::Local, address))
    return MemoryOf::Local;
  if (inAperture(Aperture::Private, address))
    return MemoryOf::Private;
  return MemoryOf::Global;
}

// The lowest active lane, or laneCount when none is active.
inline std::uint32_t firstActiveLane(const ExecutionState &s) {
  std::uint32_t lane = 0;
  while (lane < s.laneCount && !s.isActive(lane))
    ++lane;
  return lane;
}

// Calls f(lane) for every active lane, in lane order.
template <typename F> inline void forActiveLanes(const ExecutionState &s, F &&f) {
  if (s.contiguous) {
    for (std::uint32_t lane = s.begin; lane < s.span; ++lane)
      f(lane);
  } else {
    for (std::uint32_t lane = s.begin; lane < s.span; ++lane)
      if (s.active[lane])
        f(lane);
  }
}

// The element of component c that lane l sees in a register of either kind.
template <bool Varying, typename T>
inline T element(const T *base, std::uint32_t width, std::uint32_t c, std::uint32_t lane) {
  if constexpr (Varying)
    return base[c * width + lane];
  else
    return base[c];
}

// `value` where the lane is active (mask byte 1), else `old`, as a bit
// blend: the compiler turns a ?: whose other side is the destination into
// a branch and a conditional store, which does not vectorise.
template <typename T> inline T blend(std::uint8_t active, T value, T old) {
  if constexpr (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 ||
                sizeof(T) == 16) {
    using U = std::conditional_t<
        sizeof(T) == 1, std::uint8_t,
        std::conditional_t<sizeof(T) == 2, std::uint16_t,
                           std::conditional_t<sizeof(T) == 4, std::uint32_t,
                                              std::conditional_t<sizeof(T) == 8, std::uint64_t,
                                                                 unsigned __int128>>>>;
    const U mask = U(0) - U(active & 1);
    U v, o;
    std::memcpy(&v, &value, sizeof v);
    std::memcpy(&o, &old, sizeof o);
    const U r = (v & mask) | (o & ~mask);
    T result;
    std::memcpy(&result, &r, sizeof result);
    return result;
  } else {
    return active ? value : old;
  }
}

// Elementwise operations: result = f(operands...) for each component and
// each active lane. A uniform result (RV false) needs uniform operands and
// is computed once. For a varying result, inactive lanes keep their value
// (a lane that skipped this block may still need what it computed earlier),
// written as a blend so that the loop vectorises.
template <bool RV, bool AV, typename R, typename A, typename F>
inline void elementwise(const ExecutionState &s, R *r, const A *a, std::uint32_t components,
                        F &&f) {
  if constexpr (!RV) {
    for (std::uint32_t c = 0; c < components; ++c)
      r[c] = f(a[c]);
  } else {
    const std::uint32_t w = s.width, n = s.span;
    for (std::uint32_t c = 0; c < components; ++c) {
      R *rc = r + c * w;
      const A *ac = a + (AV ? c * w : c);
      if (s.contiguous) {
        for (std::uint32_t l = s.begin; l < n; ++l)
          rc[l] = f(ac[AV ? l : 0]);
      } else {
        const std::uint8_t *m = s.active;
        for (std::uint32_t l = s.begin; l < n; ++l)
          rc[l] = blend(m[l], R(f(ac[AV ? l : 0])), rc[l]);
      }
    }
  }
}

template <bool RV, bool AV, bool BV, typename R, typename A, typename B, typename F>
inline void elementwise(const ExecutionState &s, R *r, const A *a, const B *b,
                        std::uint32_t components, F &&f) {
  if constexpr (!RV) {
    for (std::uint32_t c = 0; c < components; ++c)
      r[c] = f(a[c], b[c]);
  } else {
    const std::uint32_t w = s.width, n = s.span;
    for (std::uint32_t c = 0; c < components; ++c) {
      R *rc = r + c * w;
      const A *ac = a + (AV ? c * w : c);
      const B *bc = b + (BV ? c * w : c);
      if (s.contiguous) {
        for (std::uint32_t l = s.begin; l < n; ++l)
          rc[l] = f(ac[AV ? l : 0], bc[BV ? l : 0]);
      } else {
        const std::uint8_t *m = s.active;
        for (std::uint32_t l = s.begin; l < n; ++l)
          rc[l] = blend(m[l], R(f(ac[AV ? l : 0], bc[BV ? l : 0])), rc[l]);
      }
    }
  }
}

template <bool RV, bool AV, bool BV, bool CV, typename R, typename A, typename B, typename C,
          typename F>
inline void elementwise(const ExecutionState &s, R *r, const A *a, const B *b, const C *c3,
                        std::uint32_t components, F &&f) {
  if constexpr (!RV) {
    for (std::uint32_t c = 0; c < components; ++c)
      r[c] = f(a[c], b[c], c3[c]);
  } else {
    const std::uint32_t w = s.width, n = s.span;
    for (std::uint32_t c = 0; c < components; ++c) {
      R *rc = r + c * w;
      const A *ac = a + (AV ? c * w : c);
      const B *bc = b + (BV ? c * w : c);
      const C *cc = c3 + (CV ? c * w : c);
      if (s.contiguous) {
        for (std::uint32_t l = s.begin; l < n; ++l)
          rc[l] = f(ac[AV ? l : 0], bc[BV ? l : 0], cc[CV ? l : 0]);
      } else {
        const std::uint8_t *m = s.active;
        for (std::uint32_t l = s.begin; l < n; ++l)
          rc[l] = blend(m[l], R(f(ac[AV ? l : 0], bc[BV ? l : 0], cc[CV ? l : 0])), rc[l]);
      }
    }
  }
}

} // namespace lanewise::runtime
