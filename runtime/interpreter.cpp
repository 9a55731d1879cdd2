// SPDX-License-Identifier: Apache-2.0
#include "runtime/interpreter.h"

#include "runtime/isa.h"
#include "runtime/native.h"
#include "runtime/stats.h"
#include "runtime/watchdog.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <limits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace lanewise::runtime {

namespace {

constexpr std::uint32_t noBlock = std::numeric_limits<std::uint32_t>::max();

template <typename T>
void copyElements(const RegisterCopy &copy, const ExecutionState &s, const std::uint8_t *mask) {
  const T *from = s.reg<T>(copy.from);
  T *to = s.reg<T>(copy.to);
  // Under a mask, the lanes it names are among the block's active lanes,
  // all in [begin, span).
  const std::uint32_t w = s.width, n = mask ? s.span : s.laneCount, first = mask ? s.begin : 0;
  for (std::uint32_t c = 0; c < copy.components; ++c) {
    if (!copy.toVarying) {
      // A uniform destination: the value is the same in every lane that
      // takes this edge.
      std::uint32_t lane = first;
      if (copy.fromVarying && mask)
        while (lane < n && !mask[lane])
          ++lane;
      if (lane < n)
        to[c] = copy.fromVarying ? from[c * w + lane] : from[c];
      continue;
    }
    T *tc = to + c * w;
    if (copy.fromVarying) {
      const T *fc = from + c * w;
      if (mask)
        for (std::uint32_t l = first; l < n; ++l)
          tc[l] = blend(mask[l], fc[l], tc[l]);
      else
        std::copy(fc, fc + n, tc);
    } else {
      const T value = from[c];
      if (mask)
        for (std::uint32_t l = first; l < n; ++l)
          tc[l] = blend(mask[l], value, tc[l]);
      else
        std::fill(tc, tc + n, value);
    }
  }
}

std::uint64_t loadSelector(const std::byte *p, std::uint32_t bytes) {
  switch (bytes) {
  case 1:
    return *reinterpret_cast<const std::uint8_t *>(p);
  case 2:
    return *reinterpret_cast<const std::uint16_t *>(p);
  case 4:
    return *reinterpret_cast<const std::uint32_t *>(p);
  default:
    return *reinterpret_cast<const std::uint64_t *>(p);
  }
}

} // namespace

namespace {

void copyOnBaseline(const RegisterCopy &copy, const ExecutionState &state,
                    const std::uint8_t *mask) {
  switch (copy.bytesPerElement) {
  case 1:
    return copyElements<std::uint8_t>(copy, state, mask);
  case 2:
    return copyElements<std::uint16_t>(copy, state, mask);
  case 4:
    return copyElements<std::uint32_t>(copy, state, mask);
  case 16:
    return copyElements<unsigned __int128>(copy, state, mask);
  default:
    return copyElements<std::uint64_t>(copy, state, mask);
  }
}

// The copies of a divergent loop's phis blend every lane under a mask: built
// again for AVX2, as the handlers are (isa.h).
[[gnu::target("avx2"), gnu::flatten]] void
copyOnAvx2(const RegisterCopy &copy, const ExecutionState &state, const std::uint8_t *mask) {
  copyOnBaseline(copy, state, mask);
}

} // namespace

void copyRegister(const RegisterCopy &copy, const ExecutionState &state, const std::uint8_t *mask) {
  static const auto copyOn = handlerIsa() == Isa::Avx2 ? &copyOnAvx2 : &copyOnBaseline;
  copyOn(copy, state, mask);
}

namespace {

constexpr std::uint32_t maxMaskWords = 16; // warps of up to 1024 lanes
using Mask = std::array<std::uint64_t, maxMaskWords>;

struct MaskOps {
  std::uint32_t words;
  bool empty(const std::uint64_t *m) const {
    for (std::uint32_t k = 0; k < words; ++k)
      if (m[k])
        return false;
    return true;
  }
  // The lowest lane of a non-empty mask.
  std::uint32_t firstSet(const std::uint64_t *m) const {
    for (std::uint32_t k = 0; k < words; ++k)
      if (m[k])
        return k * 64 + static_cast<std::uint32_t>(std::countr_zero(m[k]));
    return 0;
  }
  bool equal(const std::uint64_t *a, const std::uint64_t *b) const {
    for (std::uint32_t k = 0; k < words; ++k)
      if (a[k] != b[k])
        return false;
    return true;
  }
};

// One byte per lane from a bit mask (what handlers and copies read), eight
// lanes at a time: the byte of each bit is selected, then made 0 or 1.
void expand(const std::uint64_t *mask, std::uint32_t lanes, std::uint8_t *bytes) {
  auto spread = [&](std::uint32_t l) {
    const std::uint64_t bits = (mask[l / 64] >> (l % 64)) & 0xff;
    std::uint64_t x = bits * 0x0101010101010101ull;
    x &= 0x8040201008040201ull;
    return ((x + 0x7F7F7F7F7F7F7F7Full) >> 7) & 0x0101010101010101ull;
  };
  std::uint32_t l = 0;
  for (; l + 8 <= lanes; l += 8) {
    const std::uint64_t x = spread(l);
    std::memcpy(bytes + l, &x, 8);
  }
  if (l < lanes) {
    const std::uint64_t x = spread(l);
    std::memcpy(bytes + l, &x, lanes - l);
  }
}

// The lanes of `within` whose Bool (0 or 1) is set: sixteen lanes at a
// time in SSE2 (each byte's low bit shifted to its sign bit, then gathered),
// eight at a time otherwise (the multiplication gathers the low bit of each
// byte into the top byte).
void bitsOf(const std::uint8_t *values, std::uint32_t lanes, const std::uint64_t *within,
            std::uint64_t *out, std::uint32_t words) {
  for (std::uint32_t k = 0; k < words; ++k) {
    std::uint64_t word = 0;
    const std::uint32_t first = k * 64, last = std::min(lanes, first + 64);
    std::uint32_t l = first;
#if defined(__SSE2__)
    for (; l + 16 <= last; l += 16) {
      const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i *>(values + l));
      const auto bits = static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_slli_epi64(bytes, 7)));
      word |= std::uint64_t(bits) << (l - first);
    }
#endif
    for (; l < last; l += 8) {
      std::uint64_t x = 0;
      std::memcpy(&x, values + l, std::min<std::uint32_t>(8, last - l));
      x &= 0x0101010101010101ull;
      word |= ((x * 0x0102040810204080ull) >> 56) << (l - first);
    }
    out[k] = word & within[k];
  }
}

} // namespace

namespace {
// Sets the bits of lanes [0, n) in a cleared mask, a word at a time.
void setLowLanes(std::uint64_t *mask, std::uint32_t n) {
  for (std::uint32_t k = 0; k < n / 64; ++k)
    mask[k] = ~std::uint64_t(0);
  if (n % 64)
    mask[n / 64] |= (std::uint64_t(1) << (n % 64)) - 1;
}
} // namespace

void resetLanes(const KernelCode &code, const ExecutionState &s, LaneControl &control) {
  const std::uint32_t words = maskWords(s.width);
  const std::uint32_t blocks = static_cast<std::uint32_t>(code.blocks.size());
  std::fill_n(control.waiting, std::size_t(blocks) * words, 0);
  std::fill_n(control.occupied, maskWords(blocks), 0);
  std::fill_n(control.atBarrier, words, 0);
  setLowLanes(control.waiting, s.laneCount);
  if (s.laneCount)
    control.occupied[0] = 1;
}

void releaseBarrier(const ExecutionState &s, LaneControl &control) {
  std::fill_n(control.atBarrier, maskWords(s.width), 0);
}

namespace {

// runWarp for warps of `FixedWords` mask words (0: any number, read from
// the state): with the number known, the compiler unrolls the loops over
// the words of the masks, which the control flow runs at every block.
template <std::uint32_t FixedWords>
WarpStop runWarpOf(const KernelCode &code, ExecutionState &s, LaneControl &control, bool mayYield) {
  const std::uint32_t n = s.laneCount;
  const std::uint32_t words = FixedWords ? FixedWords : maskWords(s.width);
  const std::uint32_t blockWords = maskWords(static_cast<std::uint32_t>(code.blocks.size()));
  const MaskOps ops{words};
  // Masks are read and written `words` words at a time: only those are set.
  Mask all;
  std::fill_n(all.data(), words, 0);
  setLowLanes(all.data(), n);
  std::uint8_t *edgeMask = control.scratchMask;

  auto waitingAt = [&](std::uint32_t block) {
    return control.waiting + std::size_t(block) * words;
  };
  auto arrive = [&](std::uint32_t block, const std::uint64_t *lanes) {
    std::uint64_t *w = waitingAt(block);
    for (std::uint32_t k = 0; k < words; ++k)
      w[k] |= lanes[k];
    control.occupied[block / 64] |= std::uint64_t(1) << (block % 64);
  };
  // Independent forward progress (OpenCL 3.0, 3.2.2.1: the sub-groups of a
  // work-group progress independently; and work-items of a kernel that does
  // not use sub-groups, as other implementations let them). Lockstep lanes
  // reconverge at the
  // lowest-numbered block, so a sub-group that spins waiting for another one
  // of the warp, parked at a later block, would spin for ever. After
  // `spinBudget` backward branches, the next sub-group with lanes that may
  // run and none in the loop takes a turn alone (`focus`) until it stops
  // (returns or reaches a barrier) or spends a budget of its own; when every
  // sub-group has had a turn, or none other can run, the warp yields to the
  // other warps of the work-group. A sub-group runs as one, so its lanes
  // still reconverge; only whole sub-groups move ahead of the others.
  // Turns of single work-items (below) come sooner: a lock passed from
  // work-item to work-item of one warp changes hands once per turn.
  const std::uint32_t spinBudget = code.usesSubgroups ? 1u << 12 : 1u << 8;
  constexpr std::uint32_t noFocus = ~0u;
  // Read when a turn is taken, off the path of a warp that does not spin.
  // A turn is a sub-group's. In a kernel without sub-group operations,
  // whose work-items never see their sub-group, it is a work-item's: a
  // work-item that spins on a lock another work-item of its sub-group holds
  // lets that one run to its release.
  auto subgroupSize = [&]() -> std::uint32_t {
    if (!code.usesSubgroups)
      return 1;
    const WorkGroupInfo &g = *s.group;
    return g.groupLanes && g.groupLanes < g.subgroupSize ? g.groupLanes : g.subgroupSize;
  };
  auto subgroupCount = [&] { return (n + subgroupSize() - 1) / subgroupSize(); };
  std::uint32_t focus = noFocus, backEdges = 0, turns = 0;
  Mask focusLanes;
  std::copy_n(all.data(), words, focusLanes.data());
  auto setFocus = [&](std::uint32_t subgroup) {
    focus = subgroup;
    if (subgroup == noFocus) {
      std::copy_n(all.data(), words, focusLanes.data());
      return;
    }
    std::fill_n(focusLanes.data(), words, 0);
    const std::uint32_t size = subgroupSize();
    for (std::uint32_t l = subgroup * size; l < std::min(n, (subgroup + 1) * size); ++l)
      focusLanes[l / 64] |= std::uint64_t(1) << (l % 64);
  };

  // The lowest-numbered block with lanes that may run (of the focus
  // sub-group, if any), and those lanes.
  auto lowest = [&](Mask &lanes) -> std::uint32_t {
    for (std::uint32_t k = 0; k < blockWords; ++k) {
      std::uint64_t bits = control.occupied[k];
      while (bits) {
        const std::uint32_t block = k * 64 + std::countr_zero(bits);
        bits &= bits - 1;
        const std::uint64_t *w = waitingAt(block);
        bool any = false;
        for (std::uint32_t j = 0; j < words; ++j) {
          lanes[j] = w[j] & ~control.atBarrier[j] & focusLanes[j];
          any |= lanes[j] != 0;
        }
        if (any)
          return block;
      }
    }
    return noBlock;
  };
  // The next sub-group after `from` (cyclically) with lanes that may run and
  // none among `busy` (the lanes that keep looping), or noFocus; leaves the
  // focus as it found it.
  auto nextSubgroup = [&](std::uint32_t from, const Mask &busy) -> std::uint32_t {
    const std::uint32_t saved = focus;
    std::uint32_t found = noFocus;
    const std::uint32_t subgroups = subgroupCount();
    for (std::uint32_t step = 1; step < subgroups && found == noFocus; ++step) {
      const std::uint32_t candidate = (from + step) % subgroups;
      setFocus(candidate);
      bool looping = false;
      for (std::uint32_t k = 0; k < words; ++k)
        looping |= (focusLanes[k] & busy[k]) != 0;
      Mask ignored;
      if (!looping && lowest(ignored) != noBlock)
        found = candidate;
    }
    setFocus(saved);
    return found;
  };
  auto leave = [&](std::uint32_t block, const Mask &lanes) {
    std::uint64_t *w = waitingAt(block);
    bool empty = true;
    for (std::uint32_t k = 0; k < words; ++k) {
      w[k] &= ~lanes[k];
      empty &= w[k] == 0;
    }
    if (empty)
      control.occupied[block / 64] &= ~(std::uint64_t(1) << (block % 64));
  };
  // The block to run next and its lanes, which leave it.
  auto next = [&](Mask &lanes) -> std::uint32_t {
    std::uint32_t block = lowest(lanes);
    if (block == noBlock && focus != noFocus) { // the turn ends: all lanes again
      setFocus(noFocus);
      block = lowest(lanes);
    }
    if (block != noBlock)
      leave(block, lanes);
    return block;
  };
  auto occupied = [&](std::uint32_t block) {
    return ((control.occupied[block / 64] >> (block % 64)) & 1) != 0;
  };
  // Whether lanes wait at a block numbered below `block`.
  auto occupiedBelow = [&](std::uint32_t block) {
    for (std::uint32_t k = 0; k < block / 64; ++k)
      if (control.occupied[k])
        return true;
    const std::uint64_t below = (std::uint64_t(1) << (block % 64)) - 1;
    return (control.occupied[block / 64] & below) != 0;
  };
  // Lanes that run on to an occupied `block` when no lane waits before it:
  // those that may run among the lanes waiting there join them (what next()
  // would choose, without its search).
  auto join = [&](std::uint32_t block, Mask &lanes) {
    std::uint64_t *w = waitingAt(block);
    bool empty = true;
    for (std::uint32_t k = 0; k < words; ++k) {
      const std::uint64_t joining = w[k] & ~control.atBarrier[k] & focusLanes[k];
      lanes[k] |= joining;
      w[k] &= ~joining;
      empty &= w[k] == 0;
    }
    if (empty)
      control.occupied[block / 64] &= ~(std::uint64_t(1) << (block % 64));
  };

  // With statistics on, the warp's time, its blocks' lanes and its
  // instructions' time by family are counted.
  struct WarpTimer {
    KernelStats *stats;
    std::uint64_t start;
    ~WarpTimer() {
      if (stats)
        stats->warpTicks.fetch_add(ticks() - start, std::memory_order_relaxed);
    }
  } timer{s.stats, s.stats ? ticks() : 0};
  // Read once: the loop below tests them at every block and backward branch.
  KernelStats *const stats = s.stats;
  const Watchdog *const watchdog = s.watchdog;

  Mask lanes, taken, notTaken;
  std::uint32_t current = next(lanes);
  // A new set of lanes (from next(), a join or a divergent branch) sets the
  // mask; lanes that go on together to their one target (below) keep it:
  // the fast path of code without divergence, and of the lanes still in a
  // divergent loop.
  bool newLanes = true, full = false;
  while (current != noBlock) {
    if (newLanes) {
      full = ops.equal(lanes.data(), all.data());
      s.fullMask = full;
      s.span = n;
      s.dense = full;
      s.begin = 0;
      s.contiguous = full;
      if (!full) {
        expand(lanes.data(), n, s.active);
        // One pass over the words: the first and last active lanes and
        // how many there are. The lanes are one run when they fill the
        // lanes between those two, and dense when that run starts at 0.
        std::uint32_t first = n, last = 0, count = 0;
        for (std::uint32_t k = 0; k < words; ++k) {
          if (!lanes[k])
            continue;
          if (first == n)
            first = k * 64 + static_cast<std::uint32_t>(std::countr_zero(lanes[k]));
          last = k;
          count += static_cast<std::uint32_t>(std::popcount(lanes[k]));
        }
        s.span = last * 64 + 64 - static_cast<std::uint32_t>(std::countl_zero(lanes[last]));
        s.contiguous = first < n && count == s.span - first;
        s.dense = s.contiguous && first == 0;
        s.begin = s.contiguous ? first : first / 16 * 16;
      }
    }
    const std::uint8_t *activeMask = full ? nullptr : s.active;

    const Block &block = code.blocks[current];
    for (const RegisterCopy &copy : block.phiCopies)
      copyRegister(copy, s, activeMask);
    const Instruction *instruction = code.instructions.data() + block.firstInstruction;
    const Instruction *end = instruction + block.instructionCount;
    s.uniformCondition = ExecutionState::noCondition;
    const NativeBody native = s.native ? s.native->bodies[current] : nullptr;
    if (stats) [[unlikely]] {
      KernelStats::BlockCounts &counts = stats->blocks[current];
      std::uint64_t active = 0;
      for (std::uint32_t k = 0; k < words; ++k)
        active += std::popcount(lanes[k]);
      counts.runs.fetch_add(1, std::memory_order_relaxed);
      counts.activeLanes.fetch_add(active, std::memory_order_relaxed);
      counts.presentLanes.fetch_add(n, std::memory_order_relaxed);
      if (native)
        native(s, code.instructions.data());
      else
        for (; instruction != end; ++instruction) {
          s.current = instruction;
          const std::uint64_t start = ticks();
          instruction->handler(*instruction, s);
          stats->familyTicks[static_cast<std::size_t>(instruction->family)].fetch_add(
              ticks() - start, std::memory_order_relaxed);
        }
    } else if (native) {
      native(s, code.instructions.data());
    } else {
      for (; instruction != end; ++instruction) {
        s.current = instruction;
        instruction->handler(*instruction, s);
      }
    }

    // Where the active lanes go. A single target reached by every active
    // lane is followed at once when the mask was full: no other lane waits.
    const Terminator &t = block.terminator;
    std::uint32_t single = noBlock, split = noBlock;
    switch (t.kind) {
    case Terminator::Kind::Branch:
      for (const RegisterCopy &copy : t.edgeCopies[0])
        copyRegister(copy, s, activeMask);
      single = t.target[0];
      break;
    case Terminator::Kind::Conditional: {
      const std::uint8_t *condition = s.reg<std::uint8_t>(t.condition);
      std::uint32_t edge = 2;
      if (!t.conditionVarying) {
        edge = condition[0] ? 0 : 1;
      } else if (s.uniformCondition == t.condition) {
        // Every active lane (the lanes below the span) holds the same value.
        edge = s.uniformConditionValue ? 0 : 1;
      } else {
        bitsOf(condition, n, lanes.data(), taken.data(), words);
        if (ops.empty(taken.data()))
          edge = 1;
        else if (ops.equal(taken.data(), lanes.data()))
          edge = 0;
      }
      if (edge < 2) {
        for (const RegisterCopy &copy : t.edgeCopies[edge])
          copyRegister(copy, s, activeMask);
        single = t.target[edge];
        break;
      }
      for (std::uint32_t k = 0; k < words; ++k)
        notTaken[k] = lanes[k] & ~taken[k];
      if (!t.edgeCopies[0].empty()) {
        expand(taken.data(), n, edgeMask);
        for (const RegisterCopy &copy : t.edgeCopies[0])
          copyRegister(copy, s, edgeMask);
      }
      if (!t.edgeCopies[1].empty()) {
        expand(notTaken.data(), n, edgeMask);
        for (const RegisterCopy &copy : t.edgeCopies[1])
          copyRegister(copy, s, edgeMask);
      }
      // Nothing waits before the lower target: its lanes run it next,
      // without next()'s search, and the others wait at the other one.
      const bool takenFirst = t.target[0] < t.target[1];
      const std::uint32_t first = takenFirst ? t.target[0] : t.target[1];
      if (t.target[0] != t.target[1] && !occupiedBelow(first)) {
        arrive(takenFirst ? t.target[1] : t.target[0], takenFirst ? notTaken.data() : taken.data());
        lanes = takenFirst ? taken : notTaken;
        if (occupied(first))
          join(first, lanes);
        split = first;
        break;
      }
      arrive(t.target[0], taken.data());
      arrive(t.target[1], notTaken.data());
      break;
    }
    case Terminator::Kind::Switch: {
      const std::byte *selector = s.registers + t.condition;
      auto targetIndex = [&](std::uint32_t lane) -> std::uint32_t {
        const std::uint64_t value = loadSelector(
            selector + (t.conditionVarying ? lane * t.selectorBytes : 0), t.selectorBytes);
        for (std::size_t i = 0; i < t.caseValue.size(); ++i)
          if (t.caseValue[i] == value)
            return static_cast<std::uint32_t>(i + 1);
        return 0;
      };
      for (std::uint32_t edge = 0; edge < t.target.size(); ++edge) {
        Mask going{};
        bool any = false;
        for (std::uint32_t l = 0; l < n; ++l) {
          const bool goes = ((lanes[l / 64] >> (l % 64)) & 1) && targetIndex(l) == edge;
          edgeMask[l] = goes;
          going[l / 64] |= std::uint64_t(goes) << (l % 64);
          any |= goes;
        }
        if (!any)
          continue;
        for (const RegisterCopy &copy : t.edgeCopies[edge])
          copyRegister(copy, s, edgeMask);
        arrive(t.target[edge], going.data());
      }
      break;
    }
    case Terminator::Kind::Barrier:
      s.barrierFences |= t.barrierFences;
      for (const RegisterCopy &copy : t.edgeCopies[0])
        copyRegister(copy, s, activeMask);
      arrive(t.target[0], lanes.data());
      for (std::uint32_t k = 0; k < words; ++k)
        control.atBarrier[k] |= lanes[k];
      break;
    case Terminator::Kind::Return:
    case Terminator::Kind::Unreachable:
      break;
    }

    // The lanes go on together, their mask as it is, when they all go to
    // one target where no lane waits and no lane waits before it: the
    // target is then where next() would take them (a divergent loop's
    // active lanes, with the others waiting at its exit). When lanes wait
    // at the target but none before it, those that may run join them.
    std::uint32_t target;
    if (single != noBlock && (full || !occupiedBelow(single))) {
      target = single;
      newLanes = !full && occupied(single);
      if (newLanes)
        join(single, lanes);
    } else if (split != noBlock) {
      target = split;
      newLanes = true;
    } else {
      if (single != noBlock)
        arrive(single, lanes.data());
      target = next(lanes);
      newLanes = true;
    }
    if (target != noBlock && target <= current && ++backEdges == spinBudget) {
      backEdges = 0;
      // The watchdog (LANEWISE_TIMEOUT) looks at the clock here, every
      // spinBudget backward branches, off the loop's fast path. The lanes
      // about to run wait at their target again first.
      s.backwardBranches += spinBudget;
      if (watchdog && watchdog->expired()) {
        arrive(target, lanes.data());
        return WarpStop::Stopped;
      }
      if (!block.waits) {
        // A loop that waits for nothing ends (or runs until the watchdog)
        // on its own lanes' work: no other sub-group needs a turn, and one
        // would step a uniform value (a loop counter around the loop) for
        // lanes that have not reached it.
        current = target;
        continue;
      }
      arrive(target, lanes.data());
      const std::uint32_t looping =
          focus != noFocus ? focus : ops.firstSet(lanes.data()) / subgroupSize();
      const std::uint32_t other = turns < subgroupCount() ? nextSubgroup(looping, lanes) : noFocus;
      if (other != noFocus) {
        ++turns;
        setFocus(other);
      } else if (mayYield) {
        return WarpStop::Yielded;
      } else {
        turns = 0;
        setFocus(noFocus);
      }
      target = next(lanes);
      newLanes = true;
    }
    current = target;
  }
  return ops.empty(control.atBarrier) ? WarpStop::Finished : WarpStop::AtBarrier;
}

} // namespace

WarpStop runWarp(const KernelCode &code, ExecutionState &s, LaneControl &control, bool mayYield) {
  switch (maskWords(s.width)) {
  case 1:
    return runWarpOf<1>(code, s, control, mayYield);
  case 2: // the default width, 128
    return runWarpOf<2>(code, s, control, mayYield);
  case 16: // warps of several work-groups, 1,024
    return runWarpOf<16>(code, s, control, mayYield);
  default:
    return runWarpOf<0>(code, s, control, mayYield);
  }
}

} // namespace lanewise::runtime
