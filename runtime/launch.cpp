// SPDX-License-Identifier: Apache-2.0
#include "runtime/launch.h"

#include "runtime/aperture.h"
#include "runtime/crash.h"
#include "runtime/interpreter.h"
#include "runtime/json.h"
#include "runtime/printf.h"
#include "runtime/problems.h"
#include "runtime/stats.h"
#include "runtime/thread_sanitizer.h"
#include "runtime/tier.h"
#include "runtime/trace.h"
#include "runtime/watchdog.h"

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <tbb/task_scheduler_observer.h>

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <utility>

namespace lanewise::runtime {

namespace {

// Registers: aligned for the largest OpenCL C type (long16, double16: 128
// bytes). Private memory and the __local arena are in their apertures
// (runtime/aperture.h), page-aligned.
constexpr std::size_t registerAlignment = 128;

struct AlignedFree {
  void operator()(void *p) const { std::free(p); }
};
using Buffer = std::unique_ptr<std::byte, AlignedFree>;

Buffer allocate(std::size_t bytes) {
  bytes = std::max<std::size_t>(registerAlignment, (bytes + registerAlignment - 1) /
                                                       registerAlignment * registerAlignment);
  auto *p = static_cast<std::byte *>(std::aligned_alloc(registerAlignment, bytes));
  if (!p)
    throw std::bad_alloc();
  return Buffer(p);
}

// The local ids of a warp's lanes, by dimension (computed without a
// division per lane).
struct LocalIds {
  std::vector<std::uint32_t> id[3];
  std::vector<std::uint32_t> linear;
  // In a warp of several work-groups: each lane's global x id less the
  // first group's lane 0's (the lane number), and its group's number in
  // the warp.
  std::vector<std::uint32_t> packedX, packedGroup;
  // What the ids were computed for: they depend on nothing else, so the
  // next work-group of the same size reuses them.
  std::uint64_t size[3] = {}, first = ~std::uint64_t(0), lanes = 0, groupLanes = 0;

  void compute(const WorkGroupInfo &g, std::uint32_t first, std::uint32_t lanes) {
    if (first == this->first && lanes == this->lanes && g.localSize[0] == size[0] &&
        g.localSize[1] == size[1] && g.localSize[2] == size[2] && g.groupLanes == groupLanes)
      return;
    this->first = first;
    this->lanes = lanes;
    groupLanes = g.groupLanes;
    std::copy(g.localSize, g.localSize + 3, size);
    for (auto &v : id)
      v.resize(lanes);
    linear.resize(lanes);
    if (g.groupLanes) {
      packedX.resize(lanes);
      packedGroup.resize(lanes);
      for (std::uint32_t l = 0, x = 0, group = 0; l < lanes; ++l) {
        id[0][l] = linear[l] = x;
        packedX[l] = l;
        packedGroup[l] = group;
        if (++x == g.groupLanes) {
          x = 0;
          ++group;
        }
      }
      std::fill(id[1].begin(), id[1].end(), 0u);
      std::fill(id[2].begin(), id[2].end(), 0u);
      return;
    }
    std::uint64_t x = first % g.localSize[0];
    std::uint64_t y = (first / g.localSize[0]) % g.localSize[1];
    std::uint64_t z = first / (g.localSize[0] * g.localSize[1]);
    if (x + lanes <= g.localSize[0]) {
      // The warp lies in one row of the work-group (always so in one
      // dimension): loops without a branch per lane.
      for (std::uint32_t l = 0; l < lanes; ++l) {
        id[0][l] = static_cast<std::uint32_t>(x + l);
        linear[l] = first + l;
      }
      std::fill(id[1].begin(), id[1].end(), static_cast<std::uint32_t>(y));
      std::fill(id[2].begin(), id[2].end(), static_cast<std::uint32_t>(z));
      return;
    }
    for (std::uint32_t l = 0; l < lanes; ++l) {
      id[0][l] = static_cast<std::uint32_t>(x);
      id[1][l] = static_cast<std::uint32_t>(y);
      id[2][l] = static_cast<std::uint32_t>(z);
      linear[l] = first + l;
      if (++x == g.localSize[0]) {
        x = 0;
        if (++y == g.localSize[1]) {
          y = 0;
          ++z;
        }
      }
    }
  }
};

// What one worker reuses from work-group to work-group: registers of every
// warp, lane control, private memory and the __local arena.
struct WorkerContext {
  std::uint64_t launchSerial = 0; // the launch whose constants the registers hold
  std::size_t registerCapacity = 0, maskCapacity = 0;
  Buffer registers, masks;
  ApertureMemory privateMemory, localArena;
  std::size_t privateBytes = 0, localBytes = 0;
  // Lane control of each warp (interpreter.h).
  std::vector<std::uint64_t> waiting, occupied, atBarrier;
  std::vector<std::uint8_t> scratch;
  std::vector<ExecutionState> states;
  std::vector<std::uint32_t> asyncReached, asyncPerformed;
  std::vector<std::uint8_t> localShadow, privateShadow; // the uninitialised-read check's
  std::vector<std::uint32_t> localWriter, localReader;  // the race check's
  std::vector<std::uint32_t> localWriterSite, localReaderSite;
  RaceEpochs raceEpochs;
  std::vector<LocalIds> localIds; // of each warp
  RunningWarp *running = nullptr; // this thread's runningWarp (crash.h), looked up once
};

unsigned threadsFromEnvironment() {
  if (const char *text = std::getenv("LANEWISE_THREADS")) {
    const long value = std::strtol(text, nullptr, 10);
    if (value > 0)
      return static_cast<unsigned>(value);
  }
  return 0;
}

template <typename T> void store(std::byte *p, T value) { std::memcpy(p, &value, sizeof value); }

// Component c of a built-in whose per-lane value is more than a scaled id:
// the global linear id, and the sub-group built-ins. Each is a loop of its
// own over the lanes, without a division per lane.
void writeDerivedBuiltin(const BuiltinRegister &b, const ExecutionState &s, const LocalIds &ids,
                         std::uint32_t c) {
  const WorkGroupInfo &g = *s.group;
  const std::uint32_t lanes = b.varying ? s.laneCount : 1;
  const std::uint32_t stride = b.varying ? s.width : 1;
  const std::size_t elementBytes = b.wide ? 8 : 4;
  std::byte *component = s.registers + b.offset + std::size_t(c) * stride * elementBytes;
  auto put = [&](std::uint32_t lane, std::uint64_t value) {
    std::byte *p = component + std::size_t(lane) * elementBytes;
    if (b.wide)
      store<std::uint64_t>(p, value);
    else
      store<std::uint32_t>(p, static_cast<std::uint32_t>(value));
  };
  const std::uint64_t groupLanes = g.localSize[0] * g.localSize[1] * g.localSize[2];
  const std::uint64_t sg = g.subgroupSize;
  // The sub-group and the sub-group lane of the warp's lane 0, then stepped.
  const std::uint64_t first = lanes ? ids.linear[0] : 0;
  std::uint64_t subgroup = first / sg, self = first % sg;
  // To lane l + 1: the next lane of the sub-group, or the first of the
  // next sub-group, or, in a warp of several work-groups, of the next group.
  auto step = [&](std::uint32_t l) {
    if (++self == sg) {
      self = 0;
      ++subgroup;
    }
    if (g.groupLanes && l + 1 < lanes && ids.linear[l + 1] == 0)
      subgroup = 0;
  };
  switch (b.value) {
  case BuiltinValue::GlobalLinearId:
    for (std::uint32_t l = 0; l < lanes; ++l) {
      std::uint64_t id[3];
      for (int d = 0; d < 3; ++d)
        id[d] = g.groupId[d] * g.enqueuedLocalSize[d] +
                (d == 0 && g.groupLanes ? ids.packedX[l] : ids.id[d][l]);
      put(l, (id[2] * g.globalSize[1] + id[1]) * g.globalSize[0] + id[0]);
    }
    break;
  case BuiltinValue::SubgroupSize:
    for (std::uint32_t l = 0; l < lanes; step(l), ++l)
      put(l, std::min<std::uint64_t>(sg, groupLanes - subgroup * sg));
    break;
  case BuiltinValue::SubgroupId:
    for (std::uint32_t l = 0; l < lanes; step(l), ++l)
      put(l, subgroup);
    break;
  case BuiltinValue::SubgroupLocalInvocationId:
    for (std::uint32_t l = 0; l < lanes; step(l), ++l)
      put(l, self);
    break;
  case BuiltinValue::SubgroupEqMask:
  case BuiltinValue::SubgroupGeMask:
  case BuiltinValue::SubgroupGtMask:
  case BuiltinValue::SubgroupLeMask:
  case BuiltinValue::SubgroupLtMask:
    // Bit b of the uint4 stands for sub-group lane b (component b / 32);
    // only lanes of the sub-group are set. Bits at and above the maximum
    // sub-group size are clear.
    for (std::uint32_t l = 0; l < lanes; step(l), ++l) {
      std::uint64_t word = 0;
      for (std::uint64_t bit = c * 32; bit < c * 32 + 32 && bit < sg; ++bit) {
        bool set = false;
        switch (b.value) {
        case BuiltinValue::SubgroupEqMask: set = bit == self; break;
        case BuiltinValue::SubgroupGeMask: set = bit >= self; break;
        case BuiltinValue::SubgroupGtMask: set = bit > self; break;
        case BuiltinValue::SubgroupLeMask: set = bit <= self; break;
        default: set = bit < self; break;
        }
        word |= std::uint64_t(set) << (bit - c * 32);
      }
      put(l, word);
    }
    break;
  default:
    for (std::uint32_t l = 0; l < lanes; ++l)
      put(l, 0);
    break;
  }
}

// The three elements of an affine id (runtime/exec_affine.cpp): lane 0's
// id, its stride in x (1 for the x component) and its row stride (1 for y;
// in a warp of several work-groups, L for the global x, each row being a
// group).
void writeAffineId(const BuiltinRegister &b, const ExecutionState &s, const LocalIds &ids) {
  const WorkGroupInfo &g = *s.group;
  const std::uint32_t c = b.firstComponent;
  const bool global = b.value == BuiltinValue::GlobalInvocationId;
  // Lane 0's id, its stride along a row and its stride from row to row: a
  // warp's rows step in y, or in z where the work-group is one row deep in
  // y (affineIdsHold).
  const bool rowsStepInZ = g.localSize[1] == 1;
  std::uint64_t element[3] = {ids.id[c][0], c == 0, rowsStepInZ ? c == 2 : c == 1};
  if (global)
    element[0] += g.groupId[c] * g.enqueuedLocalSize[c] + g.globalOffset[c];
  if (g.groupLanes)
    element[2] = global && c == 0 ? g.groupLanes : 0;
  std::byte *p = s.registers + b.offset;
  for (int k = 0; k < 3; ++k)
    if (b.wide)
      store<std::uint64_t>(p + 8 * k, element[k]);
    else
      store<std::uint32_t>(p + 4 * k, static_cast<std::uint32_t>(element[k]));
}

// Writes the value of `builtin` for the lanes of one warp.
void writeBuiltin(const BuiltinRegister &b, const ExecutionState &s, const LocalIds &ids) {
  if (b.affine)
    return writeAffineId(b, s, ids);
  const WorkGroupInfo &g = *s.group;
  const std::uint32_t lanes = b.varying ? s.laneCount : 1;
  const std::uint32_t stride = b.varying ? s.width : 1;
  const std::size_t elementBytes = b.wide ? 8 : 4;
  // Fills component c with base + perLane[lane] (perLane null: base).
  auto fill = [&](std::uint32_t k, std::uint64_t base, const std::uint32_t *perLane) {
    std::byte *p = s.registers + b.offset + std::size_t(k) * stride * elementBytes;
    if (b.wide) {
      auto *out = reinterpret_cast<std::uint64_t *>(p);
      if (perLane)
        for (std::uint32_t l = 0; l < lanes; ++l)
          out[l] = base + perLane[l];
      else
        std::fill(out, out + lanes, base);
    } else {
      auto *out = reinterpret_cast<std::uint32_t *>(p);
      if (perLane)
        for (std::uint32_t l = 0; l < lanes; ++l)
          out[l] = static_cast<std::uint32_t>(base + perLane[l]);
      else
        std::fill(out, out + lanes, static_cast<std::uint32_t>(base));
    }
  };
  const std::uint64_t groupLanes = g.localSize[0] * g.localSize[1] * g.localSize[2];
  const std::uint64_t sg = g.subgroupSize;
  for (std::uint32_t k = 0; k < b.components; ++k) {
    // Component c of the built-in, into the register's component k.
    const std::uint32_t c = b.firstComponent + k;
    switch (b.value) {
    case BuiltinValue::GlobalInvocationId:
      fill(k, g.groupId[c] * g.enqueuedLocalSize[c] + g.globalOffset[c],
           c == 0 && g.groupLanes ? ids.packedX.data() : ids.id[c].data());
      break;
    case BuiltinValue::LocalInvocationId:
      fill(k, 0, ids.id[c].data());
      break;
    case BuiltinValue::WorkgroupId:
      // Per lane in code lowered for warps of several groups.
      fill(k, g.groupId[c], c == 0 && g.groupLanes && b.varying ? ids.packedGroup.data() : nullptr);
      break;
    case BuiltinValue::NumWorkgroups:
      fill(k, g.numGroups[c], nullptr);
      break;
    case BuiltinValue::GlobalSize:
      fill(k, g.globalSize[c], nullptr);
      break;
    case BuiltinValue::WorkgroupSize:
      fill(k, g.localSize[c], nullptr);
      break;
    case BuiltinValue::EnqueuedWorkgroupSize:
      fill(k, g.enqueuedLocalSize[c], nullptr);
      break;
    case BuiltinValue::GlobalOffset:
      fill(k, g.globalOffset[c], nullptr);
      break;
    case BuiltinValue::WorkDim:
      fill(k, g.workDim, nullptr);
      break;
    case BuiltinValue::SubgroupMaxSize:
      fill(k, sg, nullptr);
      break;
    case BuiltinValue::NumSubgroups:
      fill(k, (groupLanes + sg - 1) / sg, nullptr);
      break;
    case BuiltinValue::NumEnqueuedSubgroups: {
      const std::uint64_t enqueued =
          g.enqueuedLocalSize[0] * g.enqueuedLocalSize[1] * g.enqueuedLocalSize[2];
      fill(k, (enqueued + sg - 1) / sg, nullptr);
      break;
    }
    case BuiltinValue::LocalInvocationIndex:
      fill(k, 0, ids.linear.data());
      break;
    default:
      writeDerivedBuiltin(b, s, ids, c);
      break;
    }
  }
}

struct LaunchPlan {
  const KernelCode &code;
  const NDRange &range;
  std::span<const ArgumentValue> arguments;
  std::uint64_t groups[3];
  std::uint64_t maxGroupLanes; // of a work-group, or of a warp of several
  std::uint32_t warpsPerGroup;
  // Work-groups each warp holds (groupsPerPackedWarp), of the first
  // `fullGroups` of each row of work-groups (along x); 1: a work-group is
  // one or more warps.
  std::uint32_t groupsPerWarp = 1;
  std::uint64_t fullGroups = 0;
  // Warps of several work-groups in one row (of `fullGroups`).
  std::uint64_t warpsPerRow() const { return (fullGroups + groupsPerWarp - 1) / groupsPerWarp; }
  // The work-groups that warps before `unit` hold.
  std::uint64_t groupsBefore(std::uint64_t unit) const {
    const std::uint64_t row = unit / warpsPerRow(), warp = unit % warpsPerRow();
    return row * fullGroups + std::min(fullGroups, warp * groupsPerWarp);
  }
  std::vector<std::uint64_t> localArgumentOffset; // per argument, in the arena
  std::uint64_t localBytes;
  std::uint64_t serial;
  PrintfLog *printfLog = nullptr;
  CheckSession *check = nullptr;
  Watchdog *watchdog = nullptr;
  KernelStats *stats = nullptr;
  WorkerArena *arena = nullptr; // or the default arena
  bool streamingStores = false;
  // The kernel's native code (runtime/tier.h), or null: interpreted.
  const NativeCode *native = nullptr;
};

std::atomic<std::uint64_t> launchCounter{0};

void prepareContext(WorkerContext &context, const LaunchPlan &plan) {
  const KernelCode &code = plan.code;
  const std::size_t warps = plan.warpsPerGroup;
  const std::size_t registerBytes = std::size_t(code.registerBytes) * warps;
  if (context.registerCapacity < registerBytes || !context.registers) {
    context.registers = allocate(registerBytes);
    context.registerCapacity = registerBytes;
    context.launchSerial = 0;
  }
  const std::size_t maskBytes = std::size_t(code.width) * warps;
  if (context.maskCapacity < maskBytes || !context.masks) {
    context.masks = allocate(maskBytes);
    context.maskCapacity = maskBytes;
  }
  const std::size_t privateBytes = std::size_t(code.memory.privateBytesPerLane) * plan.maxGroupLanes;
  if (privateBytes && context.privateBytes < privateBytes) {
    context.privateMemory = ApertureMemory(Aperture::Private, privateBytes);
    context.privateBytes = privateBytes;
  }
  if (plan.localBytes && context.localBytes < plan.localBytes) {
    context.localArena = ApertureMemory(Aperture::Local, plan.localBytes);
    context.localBytes = plan.localBytes;
  }
  const std::size_t words = maskWords(code.width);
  const std::size_t blocks = code.blocks.size();
  context.waiting.resize(blocks * words * warps);
  context.occupied.resize(maskWords(static_cast<std::uint32_t>(blocks)) * warps);
  context.atBarrier.resize(words * warps);
  context.scratch.resize(code.width);
  context.states.resize(warps);
  context.localIds.resize(warps);
  context.asyncReached.resize(std::size_t(code.asyncCopySites) * warps + 1);
  context.asyncPerformed.resize(code.asyncCopySites + 1);

  if (context.launchSerial == plan.serial)
    return;
  context.launchSerial = plan.serial;
  // Registers that hold the same value for the whole launch.
  for (std::size_t warp = 0; warp < warps; ++warp) {
    std::byte *registers = context.registers.get() + warp * code.registerBytes;
    for (const ConstantRegister &constant : code.constants)
      std::memcpy(registers + constant.offset, constant.bytes.data(), constant.bytes.size());
    for (std::size_t i = 0; i < code.arguments.size(); ++i) {
      const ArgumentBinding &binding = code.arguments[i];
      const ArgumentValue &value = plan.arguments[i];
      if (binding.kind == ArgumentBinding::Kind::Value ||
          binding.kind == ArgumentBinding::Kind::GlobalBuffer ||
          binding.kind == ArgumentBinding::Kind::Image ||
          binding.kind == ArgumentBinding::Kind::Sampler) {
        if (value.bytes.empty()) // an argument given no bytes is zero
          std::memset(registers + binding.offset, 0, binding.registerSize);
        else
          std::memcpy(registers + binding.offset, value.bytes.data(), value.bytes.size());
      } else if (binding.kind == ArgumentBinding::Kind::ByValue)
        store<std::uint64_t>(registers + binding.offset,
                             reinterpret_cast<std::uint64_t>(value.bytes.data()));
    }
  }
}

// Under the barrier check, when every warp of a work-group has stopped and
// some wait at a barrier: every work-item must wait at the same barrier
// (OpenCL C 3.0, 6.15.8: a barrier must be reached by all work-items of the
// work-group, in the same control flow). A work-item that returned, or that
// waits at another barrier, is reported.
template <typename ControlOf>
void checkBarrier(const KernelCode &code, const std::vector<ExecutionState> &states,
                  std::uint32_t warps, ControlOf &&controlOf, CheckSession &session) {
  const std::size_t words = maskWords(code.width);
  const auto blocks = static_cast<std::uint32_t>(code.blocks.size());
  constexpr std::uint32_t none = UINT32_MAX;
  struct Lane {
    std::uint32_t warp = none, lane = 0, block = none;
  } missing, elsewhere;
  // The lanes of a warp's mask word w that exist, and the first block a
  // lane waits at (`blocks`: none). The masks are read a word at a time.
  auto valid = [&](const ExecutionState &s, std::size_t w) {
    const std::uint32_t first = static_cast<std::uint32_t>(w * 64);
    return s.laneCount >= first + 64 ? ~std::uint64_t(0)
                                     : (std::uint64_t(1) << (s.laneCount - first)) - 1;
  };
  auto blockOf = [&](const LaneControl &control, std::uint32_t lane) {
    std::uint32_t block = 0;
    while (block < blocks && !((control.waiting[block * words + lane / 64] >> (lane % 64)) & 1))
      ++block;
    return block;
  };
  // The block of the first waiting lane is the barrier all must wait at.
  std::uint32_t barrierBlock = none;
  std::uint64_t waiting = 0, total = 0;
  for (std::uint32_t warp = 0; warp < warps; ++warp) {
    const LaneControl control = controlOf(warp);
    const ExecutionState &s = states[warp];
    total += s.laneCount;
    for (std::size_t w = 0; w * 64 < s.laneCount; ++w) {
      const std::uint64_t lanes = valid(s, w), held = control.atBarrier[w] & lanes;
      waiting += std::popcount(held);
      const auto base = static_cast<std::uint32_t>(w * 64);
      if (missing.warp == none && held != lanes)
        missing = {warp, base + static_cast<std::uint32_t>(std::countr_zero(~held & lanes)), none};
      if (barrierBlock == none && held)
        barrierBlock = blockOf(control, base + static_cast<std::uint32_t>(std::countr_zero(held)));
    }
  }
  // The first lane waiting elsewhere: its first block is not barrierBlock.
  for (std::uint32_t warp = 0; barrierBlock != none && warp < warps && elsewhere.warp == none;
       ++warp) {
    const LaneControl control = controlOf(warp);
    const ExecutionState &s = states[warp];
    for (std::size_t w = 0; w * 64 < s.laneCount; ++w) {
      std::uint64_t earlier = 0;
      for (std::uint32_t block = 0; block < barrierBlock && block < blocks; ++block)
        earlier |= control.waiting[block * words + w];
      const std::uint64_t there =
          (barrierBlock < blocks ? control.waiting[barrierBlock * words + w] : ~std::uint64_t(0)) &
          ~earlier;
      const std::uint64_t other = control.atBarrier[w] & valid(s, w) & ~there;
      if (other) {
        const auto lane = static_cast<std::uint32_t>(w * 64 + std::countr_zero(other));
        elsewhere = {warp, lane, blockOf(control, lane)};
        break;
      }
    }
  }
  if (barrierBlock == none || barrierBlock == 0)
    return;
  const std::uint32_t site = code.blocks[barrierBlock - 1].terminator.checkSite;
  if (elsewhere.warp != none && elsewhere.block > 0) {
    session.report(states[elsewhere.warp], elsewhere.lane,
                   code.blocks[elsewhere.block - 1].terminator.checkSite,
                   FindingKind::BarrierDivergence,
                   "work-items of one work-group wait at different barriers: this work-item "
                   "waits here while others wait at another barrier");
  }
  if (missing.warp != none) {
    char detail[256];
    std::snprintf(detail, sizeof detail,
                  "barrier reached by %llu of the %llu work-items of the work-group; the "
                  "work-item named returned without reaching it",
                  static_cast<unsigned long long>(waiting),
                  static_cast<unsigned long long>(total));
    session.report(states[missing.warp], missing.lane, site, FindingKind::BarrierDivergence,
                   detail);
  }
}

// The work-group id of the linear work-group number, dimension 0 fastest.
void groupCoordinates(const LaunchPlan &plan, std::uint64_t linearGroup, std::uint64_t id[3]) {
  if (plan.groups[1] == 1 && plan.groups[2] == 1) { // one dimension: no division
    id[0] = linearGroup;
    id[1] = id[2] = 0;
    return;
  }
  for (int d = 0; d < 3; ++d) {
    id[d] = linearGroup % plan.groups[d];
    linearGroup /= plan.groups[d];
  }
}

// Where the lanes of a stopped work-group stand: for each warp, the lanes
// waiting at each block, apart from those held at a barrier.
template <typename ControlOf>
void recordPositions(const KernelCode &code, const std::vector<ExecutionState> &states,
                     std::uint32_t warps, ControlOf controlOf, const WorkGroupInfo &group,
                     Watchdog &watchdog) {
  const std::uint32_t words = maskWords(code.width);
  for (std::uint32_t warp = 0; warp < warps; ++warp) {
    const ExecutionState &s = states[warp];
    const LaneControl control = controlOf(warp);
    for (std::uint32_t block = 0; block < code.blocks.size(); ++block) {
      if (!((control.occupied[block / 64] >> (block % 64)) & 1))
        continue;
      const std::uint64_t *waiting = control.waiting + std::size_t(block) * words;
      // A warp of several work-groups has a position for each group.
      const std::uint32_t groupLanes = group.groupLanes ? group.groupLanes : s.laneCount;
      for (std::uint32_t first = 0; first < s.laneCount; first += groupLanes)
        for (bool held : {false, true}) {
          Watchdog::Position position;
          std::copy(std::begin(group.groupId), std::end(group.groupId), position.group);
          position.block = block;
          position.atBarrier = held;
          position.backwardBranches = s.backwardBranches;
          for (std::uint32_t lane = first; lane < first + groupLanes; ++lane) {
            const bool waits = (waiting[lane / 64] >> (lane % 64)) & 1;
            const bool atBarrier = (control.atBarrier[lane / 64] >> (lane % 64)) & 1;
            if (!waits || atBarrier != held)
              continue;
            const WorkItemIds ids = workItemIds(s, lane);
            std::copy(std::begin(ids.group), std::end(ids.group), position.group);
            position.localIds.push_back(group.groupLanes ? static_cast<std::uint32_t>(ids.local[0])
                                                         : s.firstLocalIndex + lane);
          }
          if (!position.localIds.empty())
            watchdog.record(std::move(position));
        }
    }
  }
}

// Runs one unit of the plan: a work-group, or the warp of several. Not
// cloned for its one caller, whose context is a thread_local: the clone
// would look the context up (__tls_get_addr) at every use.
[[gnu::noclone]] void runWorkGroup(WorkerContext &context, const LaunchPlan &plan,
                                   std::uint64_t linearGroup) {
  const KernelCode &code = plan.code;
  const NDRange &range = plan.range;
  WorkGroupInfo group;
  group.workDim = range.dimensions;
  std::uint64_t packedGroups = 0;
  if (plan.groupsPerWarp > 1) {
    // Unit `linearGroup` is warp w of row (y, z) of the work-groups.
    const std::uint64_t row = linearGroup / plan.warpsPerRow();
    group.groupId[0] = linearGroup % plan.warpsPerRow() * plan.groupsPerWarp;
    group.groupId[1] = row % plan.groups[1];
    group.groupId[2] = row / plan.groups[1];
    packedGroups = std::min<std::uint64_t>(plan.groupsPerWarp, plan.fullGroups - group.groupId[0]);
    group.groupLanes = static_cast<std::uint32_t>(range.local[0]);
  } else {
    groupCoordinates(plan, linearGroup, group.groupId);
  }
  for (int d = 0; d < 3; ++d) {
    group.numGroups[d] = plan.groups[d];
    group.enqueuedLocalSize[d] = range.local[d];
    group.globalSize[d] = range.global[d];
    group.globalOffset[d] = range.offset[d];
    // The last work-group of a dimension may be smaller (OpenCL 2.0+).
    group.localSize[d] =
        std::min(range.local[d], range.global[d] - group.groupId[d] * range.local[d]);
  }
  group.localArena = context.localArena.get();
  group.localBytes = plan.localBytes;
  if (plan.check && code.checks->checks.has(Check::Uninit)) {
    // Nothing of this work-group's __local or private memory is written yet.
    const std::size_t privateBytes =
        std::size_t(code.memory.privateBytesPerLane) * plan.maxGroupLanes;
    context.localShadow.assign(plan.localBytes, 0);
    context.privateShadow.assign(privateBytes, 0);
    group.localShadow = context.localShadow.data();
    group.privateShadow = context.privateShadow.data();
    group.privateMemory = context.privateMemory.get();
    group.privateBytes = privateBytes;
  }
  const bool raceCheck = plan.check && code.checks->checks.has(Check::Races);
  if (raceCheck) {
    context.localWriter.assign(plan.localBytes, 0);
    context.localReader.assign(plan.localBytes, 0);
    group.localWriter = context.localWriter.data();
    group.localReader = context.localReader.data();
    context.localWriterSite.assign(plan.localBytes, 0);
    context.localReaderSite.assign(plan.localBytes, 0);
    group.localWriterSite = context.localWriterSite.data();
    group.localReaderSite = context.localReaderSite.data();
  }
  const std::uint64_t lanes = packedGroups
                                  ? packedGroups * group.groupLanes
                                  : group.localSize[0] * group.localSize[1] * group.localSize[2];
  if (raceCheck) {
    context.raceEpochs.reset();
    context.raceEpochs.lanes = static_cast<std::uint32_t>(lanes);
    context.raceEpochs.subgroupSize = code.subgroupSize;
    context.raceEpochs.group = linearGroup;
    plan.check->beginEpoch(context.raceEpochs);
    group.raceEpochs = &context.raceEpochs;
  }
  std::fill(context.asyncPerformed.begin(), context.asyncPerformed.end(), 0u);
  std::fill(context.asyncReached.begin(), context.asyncReached.end(), 0u);
  group.asyncPerformed = context.asyncPerformed.data();
  group.subgroupSize = code.subgroupSize;
  group.printfLog = plan.printfLog;
  const std::uint32_t warps = static_cast<std::uint32_t>((lanes + code.width - 1) / code.width);

  std::vector<ExecutionState> &states = context.states;
  const std::size_t words = maskWords(code.width);
  const std::size_t blockWords = maskWords(static_cast<std::uint32_t>(code.blocks.size()));
  auto controlOf = [&](std::uint32_t warp) {
    return LaneControl{context.waiting.data() + warp * code.blocks.size() * words,
                       context.occupied.data() + warp * blockWords,
                       context.atBarrier.data() + warp * words, context.scratch.data()};
  };
  for (std::uint32_t warp = 0; warp < warps; ++warp) {
    ExecutionState &s = states[warp];
    s.registers = context.registers.get() + std::size_t(warp) * code.registerBytes;
    s.active = reinterpret_cast<std::uint8_t *>(context.masks.get()) + std::size_t(warp) * code.width;
    s.width = code.width;
    s.firstLocalIndex = warp * code.width;
    s.laneCount = static_cast<std::uint32_t>(std::min<std::uint64_t>(code.width, lanes - s.firstLocalIndex));
    s.rowLanes = group.groupLanes ||
                         (group.localSize[0] < code.width && group.localSize[1] * group.localSize[2] > 1)
                     ? static_cast<std::uint32_t>(group.localSize[0])
                     : code.width;
    // At most the launch's private budget (enqueue refuses more): fits.
    s.privateStride = static_cast<std::uint32_t>(code.memory.privateBytesPerLane);
    s.privateBase = context.privateMemory.get() + std::size_t(s.firstLocalIndex) * s.privateStride;
    s.group = &group;
    s.asyncReached = context.asyncReached.data() + std::size_t(warp) * code.asyncCopySites;
    s.check = plan.check;
    s.barrierFences = 0;
    s.watchdog = plan.watchdog;
    s.backwardBranches = 0;
    s.stats = plan.stats;
    s.streamingStores = plan.streamingStores;
    s.native = plan.native;
    LocalIds &ids = context.localIds[warp];
    ids.compute(group, s.firstLocalIndex, s.laneCount);
    for (const BuiltinRegister &builtin : code.builtins)
      writeBuiltin(builtin, s, ids);
    for (std::size_t i = 0; i < code.arguments.size(); ++i)
      if (code.arguments[i].kind == ArgumentBinding::Kind::LocalBuffer)
        store<std::uint64_t>(s.registers + code.arguments[i].offset,
                             reinterpret_cast<std::uint64_t>(group.localArena +
                                                             plan.localArgumentOffset[i]));
    for (const AddressRegister &address : code.addresses) {
      std::byte *p = s.registers + address.offset;
      switch (address.space) {
      case AddressRegister::Space::Workgroup:
        store<std::uint64_t>(p, reinterpret_cast<std::uint64_t>(group.localArena) +
                                    address.displacement);
        break;
      case AddressRegister::Space::Global:
        store<std::uint64_t>(p, address.displacement);
        break;
      case AddressRegister::Space::Private: {
        // A loop the compiler vectorises: it runs for every warp of every group.
        auto *lane = reinterpret_cast<std::uint64_t *>(p);
        std::uint64_t value = reinterpret_cast<std::uint64_t>(s.privateBase) + address.displacement;
        const std::uint64_t stride = s.privateStride;
        const std::uint32_t n = address.varying ? s.laneCount : 1;
        for (std::uint32_t l = 0; l < n; ++l, value += stride)
          lane[l] = value;
        break;
      }
      }
    }
    LaneControl control = controlOf(warp);
    resetLanes(code, s, control);
  }

  // Run every warp to its next barrier; when all are there, release them. A
  // warp that yielded (it spins, waiting for another) runs again after the
  // others had their turn.
  // The watchdog stops the work-group where its lanes stand: at a backward
  // branch (runWarp), or at a barrier.
  auto stopped = [&] {
    if (!plan.watchdog || !plan.watchdog->expired())
      return false;
    recordPositions(code, states, warps, controlOf, group, *plan.watchdog);
    return true;
  };
  for (;;) {
    bool anyAtBarrier = false, anyYielded = false;
    for (std::uint32_t warp = 0; warp < warps; ++warp) {
      LaneControl control = controlOf(warp);
      *context.running = {&code, &states[warp]};
      const WarpStop stop = runWarp(code, states[warp], control, warps > 1);
      *context.running = {};
      switch (stop) {
      case WarpStop::AtBarrier:
        anyAtBarrier = true;
        break;
      case WarpStop::Yielded:
        anyYielded = true;
        break;
      case WarpStop::Finished:
        break;
      case WarpStop::Stopped:
        stopped();
        return;
      }
      if (plan.check && plan.check->aborted())
        return;
    }
    if ((anyYielded || anyAtBarrier) && stopped())
      return;
    if (anyYielded)
      continue;
    if (!anyAtBarrier)
      return;
    if (plan.check && code.checks->checks.has(Check::Barriers))
      checkBarrier(code, states, warps, controlOf, *plan.check);
    if (raceCheck) {
      // A barrier orders the accesses before it against those after it, in
      // the memory its fence names (OpenCL C 3.0, 6.15.8).
      std::uint32_t fences = 0;
      for (std::uint32_t warp = 0; warp < warps; ++warp)
        fences |= std::exchange(states[warp].barrierFences, 0);
      if (fences & FenceLocal) {
        std::fill(context.localWriter.begin(), context.localWriter.end(), 0u);
        std::fill(context.localReader.begin(), context.localReader.end(), 0u);
      }
      if (fences & FenceGlobal)
        plan.check->beginEpoch(context.raceEpochs);
    }
    for (std::uint32_t warp = 0; warp < warps; ++warp) {
      LaneControl control = controlOf(warp);
      releaseBarrier(states[warp], control);
    }
  }
}

} // namespace

namespace {
// Whether every global id of the launch is below 2^31, as code with affine
// ids needs ("small" ids, whose truncation to int widens back exactly).
bool globalIdsBelow2To31(const NDRange &range) {
  for (int d = 0; d < 3; ++d)
    if (range.offset[d] + range.global[d] > (std::uint64_t(1) << 31))
      return false;
  return true;
}

// Whether the warps of a work-group of x × y × z lanes each lie in one row,
// or hold whole rows of one plane or of a group one row deep (warps start
// at multiples of the width).
bool shapeFitsRows(std::uint64_t width, std::uint64_t x, std::uint64_t y, std::uint64_t z) {
  if (y * z == 1 || x % width == 0)
    return true;
  // Whole rows: of one plane, or of a work-group one row deep (rows then
  // step in z).
  return width % x == 0 && (z == 1 || y == 1 || (x * y) % width == 0);
}
} // namespace

bool affineIdsHold(std::uint32_t width, const NDRange &range) {
  // Every shape of work-group the launch has: the local size, and in each
  // dimension the smaller last work-group.
  if (!globalIdsBelow2To31(range))
    return false;
  std::uint64_t sizes[3][2];
  for (int d = 0; d < 3; ++d) {
    sizes[d][0] = range.local[d];
    const std::uint64_t last = range.global[d] % range.local[d];
    sizes[d][1] = last ? last : range.local[d];
  }
  for (int i = 0; i < 8; ++i)
    if (!shapeFitsRows(width, sizes[0][i & 1], sizes[1][(i >> 1) & 1], sizes[2][(i >> 2) & 1]))
      return false;
  return true;
}

bool deterministic() {
  static const bool on = [] {
    const char *text = std::getenv("LANEWISE_DETERMINISTIC");
    return text && *text && *text != '0';
  }();
  return on;
}

unsigned workerCount() {
  if (deterministic())
    return 1;
  const unsigned fromEnvironment = threadsFromEnvironment();
  return fromEnvironment ? fromEnvironment : std::max(1u, std::thread::hardware_concurrency());
}

namespace {

// Runs units [first, end) of the plan (work-groups, or warps of several)
// on the TBB workers, or in order on this thread (LANEWISE_DETERMINISTIC).
void runUnits(const LaunchPlan &plan, std::uint64_t first, std::uint64_t end) {
  const KernelCode &code = plan.code;
  // Each worker keeps its context from launch to launch.
  const bool tracing = trace::enabled();
  // Two edges through TBB (runtime/thread_sanitizer.h): the set-up before
  // every work-group, every work-group before the end of the launch. Not one
  // edge for both, which would also order work-groups among themselves and
  // hide their races. The first is an object of no launch's, received before
  // a thread reads anything of the launch (Body below).
  static const char launchStarts = 0;
  const char launchEnds = 0;
  auto runGroups = [&](std::uint64_t first, std::uint64_t end) {
    struct Finished {
      const char *edge;
      ~Finished() { threadSanitizer::publish(edge); }
    } finished{&launchEnds};
    static thread_local WorkerContext context;
    context.running = &runningWarp;
    prepareContext(context, plan);
    if (tracing)
      trace::nameThread("worker");
    for (std::uint64_t g = first; g != end; ++g) {
      if (plan.check && plan.check->aborted())
        return;
      if (plan.watchdog && plan.watchdog->stopped()) {
        plan.watchdog->countUnstarted(
            plan.groupsPerWarp > 1 ? plan.groupsBefore(end) - plan.groupsBefore(g) : end - g);
        return;
      }
      const double begin = tracing ? trace::now() : 0;
      runWorkGroup(context, plan, g);
      if (tracing) {
        std::string name;
        if (plan.groupsPerWarp > 1) {
          const std::uint64_t row = g / plan.warpsPerRow();
          const std::uint64_t firstGroup = g % plan.warpsPerRow() * plan.groupsPerWarp;
          const std::string rest = "," + std::to_string(row % plan.groups[1]) + "," +
                                   std::to_string(row / plan.groups[1]) + ")";
          name = "groups (" + std::to_string(firstGroup) + rest + " to (" +
                 std::to_string(std::min(firstGroup + plan.groupsPerWarp, plan.fullGroups) - 1) +
                 rest;
        } else {
          std::uint64_t id[3];
          groupCoordinates(plan, g, id);
          name = "group (" + std::to_string(id[0]) + "," + std::to_string(id[1]) + "," +
                 std::to_string(id[2]) + ")";
        }
        trace::slice("work-group", name, begin, trace::now(),
                     "\"kernel\":" + jsonString(code.name) +
                         ",\"launch\":" + std::to_string(plan.serial));
      }
    }
  };
  if (deterministic() || (end - first == 1 && !plan.arena)) {
    // One unit runs on this thread; a sub-device's still runs in its arena,
    // whose threads may be bound to its processors.
    runGroups(first, end);
    return;
  }
  // TBB copies the body into its tasks, on the thread that makes a task
  // (this one, or a worker that splits the range), and runs it on another,
  // handing the task over inside libtbb. The copy writes and reads its one
  // pointer with atomic accesses (and no plain initialisation), so that
  // ThreadSanitizer sees no race on it without an edge from each copy:
  // such an edge would carry the work-groups the copying worker ran
  // before, and hide their races.
  using RunGroups = decltype(runGroups);
  struct Body {
    const RunGroups *run; // only through std::atomic_ref
    explicit Body(const RunGroups *groups) {
      std::atomic_ref(run).store(groups, std::memory_order_relaxed);
    }
    Body(const Body &other) {
      std::atomic_ref(run).store(std::atomic_ref(other.run).load(std::memory_order_relaxed),
                                 std::memory_order_relaxed);
    }
    void operator()(const tbb::blocked_range<std::uint64_t> &groups) const {
      threadSanitizer::receive(&launchStarts);
      (*std::atomic_ref(run).load(std::memory_order_relaxed))(groups.begin(), groups.end());
    }
  };
  threadSanitizer::publish(&launchStarts);
  auto loop = [&] {
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(first, end), Body(&runGroups));
  };
  if (plan.arena)
    plan.arena->run(loop);
  else
    loop();
  threadSanitizer::receive(&launchEnds);
}

// The size of the largest cache the processor has (its last level), from
// sysfs; 32 MiB where that cannot be read.
std::uint64_t lastLevelCacheBytes() {
  std::uint64_t largest = 0;
  for (int index = 0; index < 8; ++index) {
    std::ifstream file("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) +
                       "/size");
    std::uint64_t size = 0;
    std::string unit;
    if (!(file >> size))
      continue;
    file >> unit;
    const std::uint64_t scale = unit == "K" ? 1024 : unit == "M" ? 1024 * 1024 : 1;
    largest = std::max(largest, size * scale);
  }
  return largest ? largest : std::uint64_t(32) << 20;
}

// Whether a launch with these arguments stores past the caches: when one of
// its buffers is at least the size of the last-level cache, or as
// LANEWISE_STREAMING_STORES=1 (always) or =0 (never) says.
bool streamingStoresFor(std::span<const ArgumentValue> arguments) {
  static const int forced = [] {
    const char *text = std::getenv("LANEWISE_STREAMING_STORES");
    return text && (std::strcmp(text, "0") == 0 || std::strcmp(text, "1") == 0) ? text[0] - '0'
                                                                                : -1;
  }();
  if (forced >= 0)
    return forced == 1;
  static const std::uint64_t threshold = lastLevelCacheBytes();
  return std::any_of(arguments.begin(), arguments.end(),
                     [](const ArgumentValue &a) { return a.bufferBytes >= threshold; });
}

bool packingAllowed() {
  static const bool allowed = [] {
    const char *text = std::getenv("LANEWISE_PACK");
    return !(text && std::strcmp(text, "0") == 0);
  }();
  return allowed;
}

} // namespace

std::uint32_t groupsPerPackedWarp(const KernelCode &packed, const NDRange &range) {
  return groupsPerPackedWarp(packed, range, packed.width);
}

std::uint32_t groupsPerPackedWarp(const KernelCode &code, const NDRange &range,
                                  std::uint32_t width) {
  const bool singleItems = range.local[0] == 1 && range.local[1] == 1 && range.local[2] == 1;
  if (!(code.groupIndependent || (code.singleItemGroups && singleItems)) || !packingAllowed())
    return 0;
  // Rows of work-groups along x: one work-item high and deep, and in more
  // than one dimension all full (the smaller last group of a row would
  // break the run of packed units).
  if (range.local[1] != 1 || range.local[2] != 1)
    return 0;
  if ((range.global[1] != 1 || range.global[2] != 1) && range.global[0] % range.local[0] != 0)
    return 0;
  const std::uint64_t perWarp = width / range.local[0];
  if (perWarp < 2 || range.global[0] / range.local[0] < 2)
    return 0;
  // Sub-groups are slices of the warp: each must lie in one work-group.
  if (code.usesSubgroups && range.local[0] % code.subgroupSize != 0)
    return 0;
  if (code.rowWarps && !globalIdsBelow2To31(range))
    return 0;
  return static_cast<std::uint32_t>(perWarp);
}

namespace {

// Binds the threads of an arena to processors while they work in it.
class ProcessorBinding : public tbb::task_scheduler_observer {
public:
  ProcessorBinding(tbb::task_arena &arena, std::span<const unsigned> processors)
      : tbb::task_scheduler_observer(arena) {
    CPU_ZERO(&processors_);
    for (unsigned processor : processors)
      if (processor < CPU_SETSIZE)
        CPU_SET(processor, &processors_);
    observe(true);
  }
  ~ProcessorBinding() override { observe(false); }

  void on_scheduler_entry(bool) override {
    Saved &saved = savedAffinity();
    saved.valid = pthread_getaffinity_np(pthread_self(), sizeof saved.set, &saved.set) == 0;
    pthread_setaffinity_np(pthread_self(), sizeof processors_, &processors_);
  }
  void on_scheduler_exit(bool) override {
    if (Saved &saved = savedAffinity(); saved.valid)
      pthread_setaffinity_np(pthread_self(), sizeof saved.set, &saved.set);
  }

private:
  struct Saved {
    cpu_set_t set;
    bool valid = false;
  };
  static Saved &savedAffinity() {
    thread_local Saved saved;
    return saved;
  }
  cpu_set_t processors_;
};

} // namespace

struct WorkerArena::Arena {
  explicit Arena(unsigned threads) : arena(int(threads)) {}
  tbb::task_arena arena;
  std::unique_ptr<ProcessorBinding> binding;
};

WorkerArena::WorkerArena(unsigned threads, std::span<const unsigned> processors)
    : arena_(std::make_unique<Arena>(threads)) {
  if (!processors.empty()) {
    arena_->arena.initialize();
    arena_->binding = std::make_unique<ProcessorBinding>(arena_->arena, processors);
  }
}

// The binding, declared after the arena, stops observing before the arena ends.
WorkerArena::~WorkerArena() = default;

void WorkerArena::run(const std::function<void()> &work) { arena_->arena.execute(work); }

LaunchResult launch(const KernelCode &code, const NDRange &range,
                    std::span<const ArgumentValue> arguments, std::vector<MemoryRange> memory,
                    const KernelCode *packed, WorkerArena *workers) {
  static tbb::global_control *limit = [] {
    const unsigned threads = threadsFromEnvironment();
    return threads ? new tbb::global_control(tbb::global_control::max_allowed_parallelism, threads)
                   : nullptr;
  }();
  (void)limit;

  LaunchPlan plan{code, range, arguments, {1, 1, 1}, 1, 1, 1, 0, {}, 0, ++launchCounter};
  plan.arena = workers;
  std::uint64_t totalGroups = 1;
  for (int d = 0; d < 3; ++d) {
    plan.groups[d] = (range.global[d] + range.local[d] - 1) / range.local[d];
    totalGroups *= plan.groups[d];
  }
  plan.maxGroupLanes = range.local[0] * range.local[1] * range.local[2];
  plan.warpsPerGroup = static_cast<std::uint32_t>((plan.maxGroupLanes + code.width - 1) / code.width);
  // The __local arena: the kernel's own variables, then each __local
  // argument (under the bounds check, with a red zone after each).
  std::unique_ptr<CheckSession> session;
  if (code.checks)
    session = std::make_unique<CheckSession>(code, std::move(memory),
                                             CheckSession::optionsFromEnvironment());
  const std::uint64_t redZone = code.checks && code.checks->checks.has(Check::Bounds) ? 128 : 0;
  std::uint64_t arena = code.memory.workgroupBytes;
  plan.localArgumentOffset.assign(arguments.size(), 0);
  std::vector<MemoryRange> localRanges;
  if (code.checks)
    for (const KernelChecks::Variable &variable : code.checks->localVariables)
      localRanges.push_back({variable.offset, variable.size, CheckSite::Space::Local,
                             "__local variable '" + variable.name + "'"});
  for (std::size_t i = 0; i < code.arguments.size(); ++i)
    if (code.arguments[i].kind == ArgumentBinding::Kind::LocalBuffer) {
      arena = (arena + redZone + 127) / 128 * 128;
      plan.localArgumentOffset[i] = arena;
      arena += arguments[i].localSize;
      if (code.checks)
        localRanges.push_back({plan.localArgumentOffset[i], arguments[i].localSize,
                               CheckSite::Space::Local,
                               "__local argument " + std::to_string(i) + " '" +
                                   (i < code.checks->argumentNames.size()
                                        ? code.checks->argumentNames[i]
                                        : std::string("?")) +
                                   "'"});
    }
  plan.localBytes = arena + (arena ? redZone : 0);
  if (session) {
    session->setLocalLayout(std::move(localRanges));
    plan.check = session.get();
  }
  if (totalGroups == 0)
    return LaunchResult::Completed;
  installCrashReporter();
  plan.stats = statsFor(code);
  plan.streamingStores = streamingStoresFor(arguments);
  static const double timeout = timeoutFromEnvironment();
  std::unique_ptr<Watchdog> watchdog;
  if (timeout > 0) {
    watchdog = std::make_unique<Watchdog>(timeout);
    plan.watchdog = watchdog.get();
  }
  std::unique_ptr<PrintfLog> printfLog;
  if (code.usesPrintf) {
    printfLog = std::make_unique<PrintfLog>();
    plan.printfLog = printfLog.get();
  }

  const auto started = std::chrono::steady_clock::now();
  // Warps of several work-groups for the full groups, when the kernel and
  // the launch allow it; the smaller last group, if any, as usual.
  const std::uint32_t perWarp = packed && !session ? groupsPerPackedWarp(*packed, range) : 0;
  plan.native = nativeForLaunch(code);
  KernelStats *launchStats = plan.stats;
  if (perWarp) {
    LaunchPlan packedPlan{*packed, range, arguments, {1, 1, 1}, 0, 1, perWarp,
                          range.global[0] / range.local[0], {}, 0, ++launchCounter};
    std::copy(std::begin(plan.groups), std::end(plan.groups), packedPlan.groups);
    packedPlan.maxGroupLanes = perWarp * range.local[0];
    packedPlan.localArgumentOffset.assign(arguments.size(), 0);
    packedPlan.printfLog = plan.printfLog;
    packedPlan.watchdog = plan.watchdog;
    packedPlan.stats = launchStats = statsFor(*packed);
    packedPlan.streamingStores = plan.streamingStores;
    packedPlan.native = nativeForLaunch(*packed);
    packedPlan.arena = workers;
    runUnits(packedPlan, 0, packedPlan.warpsPerRow() * plan.groups[1] * plan.groups[2]);
    // In one dimension, the smaller last group (groupsPerPackedWarp).
    if (packedPlan.fullGroups < plan.groups[0])
      runUnits(plan, packedPlan.fullGroups, totalGroups);
  } else {
    runUnits(plan, 0, totalGroups);
  }
  // The command completes when launch() returns: its output is out by then
  // (OpenCL C 3.0, 6.15.14.1).
  if (printfLog)
    printfLog->write();
  if (!plan.native)
    recordInterpretedLaunch(code, std::chrono::duration_cast<std::chrono::nanoseconds>(
                                      std::chrono::steady_clock::now() - started)
                                      .count());
  if (launchStats) {
    launchStats->launches.fetch_add(1, std::memory_order_relaxed);
    launchStats->workItems.fetch_add(range.global[0] * range.global[1] * range.global[2],
                                     std::memory_order_relaxed);
    launchStats->nanoseconds.fetch_add(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                             started)
            .count(),
        std::memory_order_relaxed);
  }
  if (session) {
    session->finish();
    if (session->aborted())
      return LaunchResult::Aborted;
  }
  if (watchdog && watchdog->stopped()) {
    countProblem();
    const std::string report = watchdog->report(code);
    std::fputs(report.c_str(), stderr);
    std::fflush(stderr);
    return LaunchResult::TimedOut;
  }
  return LaunchResult::Completed;
}

} // namespace lanewise::runtime
