// SPDX-License-Identifier: Apache-2.0
// Sub-group operations over the S-lane slices of a warp (DESIGN.md,
// "Barriers and sub-groups"): shuffles are permutations within each slice,
// reductions and scans loops over its active lanes; the element rules are in
// builtins/subgroup.h.
#include "builtins/subgroup.h"
#include "runtime/handlers.h"
#include "runtime/shapes.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>

namespace lanewise::runtime {

namespace {

using builtins::GroupArithmetic;
using builtins::LaneSource;

// Calls f(base, size) for each sub-group of the warp: lanes [base, base + size).
template <typename F> void forEachSubgroup(const ExecutionState &s, F &&f) {
  const std::uint32_t S = s.group->subgroupSize;
  for (std::uint32_t base = 0; base < s.laneCount; base += S)
    f(base, std::min(S, s.laneCount - base));
}

std::uint64_t readUnsigned(const std::byte *p, std::uint32_t bytes) {
  std::uint64_t value = 0;
  std::memcpy(&value, p, bytes); // little-endian: the low bytes
  return value;
}

// A shuffle_xor by a uniform mask m below a power-of-two S, of one
// component: lane i's source is in the block of eight at i ^ (m & ~7), its
// lane (i & 7) ^ P where P = m & 7. With P a constant, a block is a
// permutation of one vector.
template <typename T, std::uint32_t P>
void xorBlocks(const T *from, T *to, std::uint32_t m, std::uint32_t S, std::uint32_t n) {
  for (std::uint32_t base = 0; base < n; base += S)
    for (std::uint32_t i = 0; i < S; i += 8) {
      const T *block = from + base + (i ^ (m & ~7u));
#pragma GCC unroll 8
      for (std::uint32_t j = 0; j < 8; ++j)
        to[base + i + j] = block[j ^ P];
    }
}

template <typename T>
using XorBlocks = void (*)(const T *, T *, std::uint32_t, std::uint32_t, std::uint32_t);

template <typename T> XorBlocks<T> xorBlocksFor(std::uint32_t m) {
  static constexpr XorBlocks<T> forms[] = {&xorBlocks<T, 0>, &xorBlocks<T, 1>, &xorBlocks<T, 2>,
                                           &xorBlocks<T, 3>, &xorBlocks<T, 4>, &xorBlocks<T, 5>,
                                           &xorBlocks<T, 6>, &xorBlocks<T, 7>};
  return forms[m & 7];
}

// shuffleWhole with a uniform index, whose sources are the same in every
// sub-group: copies of runs of lanes instead of a lane at a time. Returns
// false where the sources are not such runs (the caller's loop then).
template <typename T, LaneSource Kind>
bool shuffleUniform(const T *input, T *out, std::uint64_t operand, std::uint32_t components,
                    std::uint32_t w, std::uint32_t S, std::uint32_t n) {
  // As builtins::sourceLane computes it, modulo 2^32.
  const std::uint32_t v = static_cast<std::uint32_t>(operand);
  if constexpr (Kind == LaneSource::Xor) {
    if (!std::has_single_bit(S) || S % 8 != 0)
      return false;
  } else if constexpr (Kind == LaneSource::Up || Kind == LaneSource::Down) {
    // A source that wraps back into the sub-group.
    if (v >= S && v > std::numeric_limits<std::uint32_t>::max() - S)
      return false;
  } else if constexpr (Kind != LaneSource::Index) {
    return false;
  }
  // Every source outside the sub-group: each lane keeps its own input.
  // (Xor: with S a power of two, i ^ v < S exactly when v < S.)
  const bool outside = v >= S;
  for (std::uint32_t c = 0; c < components; ++c) {
    const T *from = input + c * w;
    T *to = out + c * w;
    if (outside) {
      std::memcpy(to, from, n * sizeof(T));
      continue;
    }
    if constexpr (Kind == LaneSource::Index) {
      for (std::uint32_t base = 0; base < n; base += S)
        std::fill_n(to + base, S, from[base + v]);
    } else if constexpr (Kind == LaneSource::Xor) {
      xorBlocksFor<T>(v)(from, to, v, S, n);
    } else {
      // Up: lane i takes i - v, and the lanes below v keep their own;
      // Down: lane i takes i + v, and the lanes from S - v on keep theirs.
      for (std::uint32_t base = 0; base < n; base += S) {
        const T *f = from + base;
        T *t = to + base;
        if constexpr (Kind == LaneSource::Up) {
          std::memcpy(t, f, v * sizeof(T));
          std::memcpy(t + v, f, (S - v) * sizeof(T));
        } else {
          std::memcpy(t, f + v, (S - v) * sizeof(T));
          std::memcpy(t + (S - v), f + (S - v), v * sizeof(T));
        }
      }
    }
  }
  return true;
}

// Shuffles and broadcasts: out[l] = input[source lane of l]. operand[0] the
// (first) input, operand[1] the index, delta or mask, operand[2] the second
// input of the two-input Intel shuffles. aux: source kind | index bytes << 8.
// immediate: 1 input varying, 2 index varying, 4 second input varying.
// The common case of a one-input shuffle, made a loop the compiler can keep
// tight: every lane active, every sub-group whole, a varying input. Lane l
// of a sub-group reads lane source(l, index); a source outside the
// sub-group is undefined, and the lane keeps its own input, as below.
template <std::uint32_t Bytes, LaneSource Kind, typename Index, bool IndexVarying>
void shuffleWhole(const Instruction &in, ExecutionState &s) {
  using T = BitsT<Bytes>;
  if constexpr (!IndexVarying)
    if (shuffleUniform<T, Kind>(s.reg<const T>(in.operand[0]), s.reg<T>(in.result),
                                *s.reg<const Index>(in.operand[1]), in.components, s.width,
                                s.group->subgroupSize, s.laneCount))
      return;
  const T *input = s.reg<const T>(in.operand[0]);
  const Index *index = s.reg<const Index>(in.operand[1]);
  T *out = s.reg<T>(in.result);
  const std::uint32_t w = s.width, S = s.group->subgroupSize, n = s.laneCount;
  for (std::uint32_t c = 0; c < in.components; ++c) {
    const T *from = input + c * w;
    T *to = out + c * w;
    for (std::uint32_t base = 0; base < n; base += S)
      for (std::uint32_t i = 0; i < S; ++i) {
        // As builtins::sourceLane computes it, modulo 2^32.
        const std::uint64_t operand = index[IndexVarying ? base + i : 0];
        std::uint32_t source;
        if constexpr (Kind == LaneSource::Index)
          source = static_cast<std::uint32_t>(operand);
        else if constexpr (Kind == LaneSource::Xor)
          source = static_cast<std::uint32_t>(i ^ operand);
        else if constexpr (Kind == LaneSource::Up)
          source = static_cast<std::uint32_t>(i - operand);
        else
          source = static_cast<std::uint32_t>(i + operand);
        to[base + i] = from[base + (source < S ? source : i)];
      }
  }
}

template <std::uint32_t Bytes, LaneSource Kind, typename Index>
Handler shuffleWholeFor(bool indexVarying) {
  return indexVarying ? forIsa<&shuffleWhole<Bytes, Kind, Index, true>>()
                      : forIsa<&shuffleWhole<Bytes, Kind, Index, false>>();
}

template <std::uint32_t Bytes, LaneSource Kind>
Handler shuffleWholeFor(std::uint32_t indexBytes, bool indexVarying) {
  switch (indexBytes) {
  case 1: return shuffleWholeFor<Bytes, Kind, std::uint8_t>(indexVarying);
  case 2: return shuffleWholeFor<Bytes, Kind, std::uint16_t>(indexVarying);
  case 4: return shuffleWholeFor<Bytes, Kind, std::uint32_t>(indexVarying);
  case 8: return shuffleWholeFor<Bytes, Kind, std::uint64_t>(indexVarying);
  default: return nullptr;
  }
}

// shuffleWhole's instance for an instruction's kind and index, or null.
template <std::uint32_t Bytes>
Handler shuffleWholeFor(LaneSource kind, std::uint32_t indexBytes, bool indexVarying) {
  switch (kind) {
  case LaneSource::Index: return shuffleWholeFor<Bytes, LaneSource::Index>(indexBytes, indexVarying);
  case LaneSource::Xor: return shuffleWholeFor<Bytes, LaneSource::Xor>(indexBytes, indexVarying);
  case LaneSource::Up: return shuffleWholeFor<Bytes, LaneSource::Up>(indexBytes, indexVarying);
  case LaneSource::Down: return shuffleWholeFor<Bytes, LaneSource::Down>(indexBytes, indexVarying);
  default: return nullptr;
  }
}

template <std::uint32_t Bytes> void shuffle(const Instruction &in, ExecutionState &s) {
  using T = BitsT<Bytes>;
  const auto kind = static_cast<LaneSource>(in.aux & 0xff);
  const std::uint32_t indexBytes = in.aux >> 8;
  const bool inputVarying = in.immediate & 1, indexVarying = in.immediate & 2,
             secondVarying = in.immediate & 4;
  const std::uint32_t w = s.width, S = s.group->subgroupSize;
  if (s.fullMask && inputVarying && s.laneCount % S == 0)
    if (const Handler whole = shuffleWholeFor<Bytes>(kind, indexBytes, indexVarying))
      return whole(in, s);
  const T *input = s.reg<const T>(in.operand[0]);
  const T *second = s.reg<const T>(in.operand[2]);
  const std::byte *index = s.registers + in.operand[1];
  T *out = s.reg<T>(in.result);
  forEachSubgroup(s, [&](std::uint32_t base, std::uint32_t size) {
    std::uint32_t firstActive = 0;
    while (firstActive < size && !s.isActive(base + firstActive))
      ++firstActive;
    for (std::uint32_t i = 0; i < size; ++i) {
      const std::uint32_t lane = base + i;
      if (!s.isActive(lane))
        continue;
      const std::uint64_t operand =
          indexBytes ? readUnsigned(index + (indexVarying ? lane : 0) * indexBytes, indexBytes) : 0;
      const builtins::SourceLane from = builtins::sourceLane(kind, i, operand, S, firstActive);
      // A source outside the sub-group is undefined (the checked mode will
      // report it); the lane keeps its own input then.
      const bool inside = from.lane < size;
      const std::uint32_t source = base + (inside ? from.lane : i);
      const T *values = from.second ? second : input;
      const bool varying = from.second ? secondVarying : inputVarying;
      for (std::uint32_t c = 0; c < in.components; ++c)
        out[c * w + lane] = values[c * (varying ? w : 1) + (varying ? source : 0)];
    }
  });
}

enum class Scan : std::uint8_t { Reduce, Inclusive, Exclusive, Clustered };

// The cluster size of a clustered reduction in the sub-group at `base`: the
// immediate's, or (flag 2) the register operand[1]'s, read at the sub-group's
// first active lane (flag 4: varying), `bytes` wide. SPIR-V makes it a
// constant power of two; clang -O2 turns the constants of a switch's cases
// into a phi, so it may arrive in a register. Other values are rounded down
// to a power of two, at least 1.
std::uint32_t clusterSize(const Instruction &in, const ExecutionState &s, std::uint32_t base,
                          std::uint32_t size) {
  std::uint64_t cluster = in.immediate >> 24;
  if (in.immediate & 2) {
    const std::uint32_t bytes = (in.immediate >> 8) & 0xff;
    std::uint32_t lane = base;
    while (lane < base + size && !s.isActive(lane))
      ++lane;
    const std::byte *values = s.reg<const std::byte>(in.operand[1]);
    cluster = readUnsigned(values + ((in.immediate & 4) ? lane * bytes : 0), bytes);
  }
  return static_cast<std::uint32_t>(std::bit_floor(std::clamp<std::uint64_t>(cluster, 1, 1u << 31)));
}

// Reductions and scans over the active lanes of each sub-group, in lane
// order. immediate: 1 input varying | 2 cluster size in operand[1] | 4 that
// register varying | its bytes << 8 | a constant cluster size << 24.
template <typename T, GroupArithmetic Op, Scan Kind>
void arithmetic(const Instruction &in, ExecutionState &s) {
  const T *input = s.reg<const T>(in.operand[0]);
  T *out = s.reg<T>(in.result);
  const bool varying = in.immediate & 1;
  forEachSubgroup(s, [&](std::uint32_t base, std::uint32_t size) {
    const std::uint32_t step = Kind == Scan::Clustered ? clusterSize(in, s, base, size) : size;
    for (std::uint32_t first = 0; first < size; first += step) {
      const std::uint32_t last = std::min(size, first + step);
      T total = builtins::identity<Op, T>();
      for (std::uint32_t i = first; i < last; ++i) {
        const std::uint32_t lane = base + i;
        if (!s.isActive(lane))
          continue;
        const T value = input[varying ? lane : 0];
        if constexpr (Kind == Scan::Exclusive)
          out[lane] = total;
        total = builtins::combine<Op, T>(total, value);
        if constexpr (Kind == Scan::Inclusive)
          out[lane] = total;
      }
      if constexpr (Kind == Scan::Reduce || Kind == Scan::Clustered)
        for (std::uint32_t i = first; i < last; ++i)
          if (s.isActive(base + i))
            out[base + i] = total;
    }
  });
}

enum class Vote : std::uint8_t { All, Any, AllEqual, Elect };

// Whether two elements are equal: floating-point elements (float flag) by
// an ordered comparison (-0.0 equals +0.0, NaN equals nothing).
bool elementsEqual(std::uint64_t a, std::uint64_t b, std::uint32_t bytes, bool floating) {
  if (!floating)
    return a == b;
  if (bytes == 2) {
    _Float16 x, y;
    std::memcpy(&x, &a, 2);
    std::memcpy(&y, &b, 2);
    return x == y;
  }
  if (bytes == 4) {
    float x, y;
    std::memcpy(&x, &a, 4);
    std::memcpy(&y, &b, 4);
    return x == y;
  }
  double x, y;
  std::memcpy(&x, &a, 8);
  std::memcpy(&y, &b, 8);
  return x == y;
}

// aux: vote kind | element bytes << 8 | 1 << 16 for floating point;
// immediate: 1 input varying.
void vote(const Instruction &in, ExecutionState &s) {
  const auto kind = static_cast<Vote>(in.aux & 0xff);
  const std::uint32_t bytes = (in.aux >> 8) & 0xff;
  const bool floating = (in.aux >> 16) & 1;
  const bool varying = in.immediate & 1;
  const std::byte *input = s.registers + in.operand[0];
  std::uint8_t *out = s.reg<std::uint8_t>(in.result);
  forEachSubgroup(s, [&](std::uint32_t base, std::uint32_t size) {
    bool all = true, any = false, equal = true, first = true;
    std::uint32_t firstActive = size;
    std::uint64_t reference = 0;
    for (std::uint32_t i = 0; i < size; ++i) {
      const std::uint32_t lane = base + i;
      if (!s.isActive(lane))
        continue;
      firstActive = std::min(firstActive, i);
      if (kind == Vote::Elect)
        continue;
      const std::uint64_t value =
          readUnsigned(input + (varying ? lane : 0) * bytes, bytes);
      all &= value != 0;
      any |= value != 0;
      if (first)
        reference = value;
      equal &= elementsEqual(value, reference, bytes, floating);
      first = false;
    }
    for (std::uint32_t i = 0; i < size; ++i) {
      const std::uint32_t lane = base + i;
      if (!s.isActive(lane))
        continue;
      switch (kind) {
      case Vote::All: out[lane] = all; break;
      case Vote::Any: out[lane] = any; break;
      case Vote::AllEqual: out[lane] = equal; break;
      case Vote::Elect: out[lane] = i == firstActive; break;
      }
    }
  });
}

// Ballots: a uint4 with one bit per lane of the sub-group.
enum class BallotKind : std::uint8_t {
  Ballot, Inverse, BitExtract, CountReduce, CountInclusive, CountExclusive, FindLsb, FindMsb,
};

struct Bits128 {
  std::uint32_t word[4] = {};
  bool test(std::uint32_t bit) const { return bit < 128 && (word[bit / 32] >> (bit % 32)) & 1; }
  void set(std::uint32_t bit) { word[bit / 32] |= 1u << (bit % 32); }
};

// operand[0] the predicate (Ballot, Bool) or the uint4; operand[1] the index
// (BitExtract, 4 bytes). aux: kind; immediate: 1 input varying, 2 index varying.
void ballot(const Instruction &in, ExecutionState &s) {
  const auto kind = static_cast<BallotKind>(in.aux);
  const bool varying = in.immediate & 1, indexVarying = in.immediate & 2;
  const std::uint32_t w = s.width, S = s.group->subgroupSize;
  // Only the bits of lanes below the maximum sub-group size count
  // (cl_khr_subgroup_ballot); the others are ignored.
  auto bitsOf = [&](std::uint32_t lane) {
    Bits128 bits;
    const std::uint32_t *v = s.reg<const std::uint32_t>(in.operand[0]);
    for (std::uint32_t c = 0; c < 4; ++c) {
      bits.word[c] = v[c * (varying ? w : 1) + (varying ? lane : 0)];
      if (S < (c + 1) * 32)
        bits.word[c] &= S <= c * 32 ? 0u : (1u << (S - c * 32)) - 1;
    }
    return bits;
  };
  forEachSubgroup(s, [&](std::uint32_t base, std::uint32_t size) {
    if (kind == BallotKind::Ballot) {
      const std::uint8_t *predicate = s.reg<const std::uint8_t>(in.operand[0]);
      Bits128 bits;
      for (std::uint32_t i = 0; i < size; ++i)
        if (s.isActive(base + i) && predicate[varying ? base + i : 0])
          bits.set(i);
      std::uint32_t *out = s.reg<std::uint32_t>(in.result);
      for (std::uint32_t i = 0; i < size; ++i)
        if (s.isActive(base + i))
          for (std::uint32_t c = 0; c < 4; ++c)
            out[c * w + base + i] = bits.word[c];
      return;
    }
    for (std::uint32_t i = 0; i < size; ++i) {
      const std::uint32_t lane = base + i;
      if (!s.isActive(lane))
        continue;
      const Bits128 bits = bitsOf(lane);
      auto count = [&](std::uint32_t upTo) { // bits [0, upTo)
        std::uint32_t n = 0;
        for (std::uint32_t b = 0; b < upTo && b < 128; ++b)
          n += bits.test(b);
        return n;
      };
      switch (kind) {
      case BallotKind::Inverse:
        s.reg<std::uint8_t>(in.result)[lane] = bits.test(i);
        break;
      case BallotKind::BitExtract: {
        const std::uint32_t index =
            s.reg<const std::uint32_t>(in.operand[1])[indexVarying ? lane : 0];
        s.reg<std::uint8_t>(in.result)[lane] = bits.test(index);
        break;
      }
      case BallotKind::CountReduce:
        s.reg<std::uint32_t>(in.result)[lane] = count(S);
        break;
      case BallotKind::CountInclusive:
        s.reg<std::uint32_t>(in.result)[lane] = count(i + 1);
        break;
      case BallotKind::CountExclusive:
        s.reg<std::uint32_t>(in.result)[lane] = count(i);
        break;
      case BallotKind::FindLsb:
      case BallotKind::FindMsb: {
        std::uint32_t found = 0xFFFFFFFFu;
        for (std::uint32_t b = 0; b < 128; ++b)
          if (bits.test(b) && (kind == BallotKind::FindMsb || found == 0xFFFFFFFFu))
            found = b;
        s.reg<std::uint32_t>(in.result)[lane] = found;
        break;
      }
      default:
        break;
      }
    }
  });
}

// intel_sub_group_block_read / write: lane k of a sub-group reads or writes
// element j * S + k of the block at the (sub-group uniform) address, S the
// maximum sub-group size. operand[0] the pointer, operand[1] the data.
// aux: 1 for a write; immediate: 1 pointer varying, 2 data varying.
template <std::uint32_t Bytes> void blockAccess(const Instruction &in, ExecutionState &s) {
  using T = BitsT<Bytes>;
  const bool write = in.aux & 1;
  const bool pointerVarying = in.immediate & 1, dataVarying = in.immediate & 2;
  const std::uint64_t *pointer = s.reg<const std::uint64_t>(in.operand[0]);
  const std::uint32_t w = s.width, S = s.group->subgroupSize;
  forEachSubgroup(s, [&](std::uint32_t base, std::uint32_t size) {
    std::uint32_t first = 0;
    while (first < size && !s.isActive(base + first))
      ++first;
    if (first == size)
      return;
    auto *block = reinterpret_cast<T *>(pointer[pointerVarying ? base + first : 0]);
    for (std::uint32_t i = 0; i < size; ++i) {
      const std::uint32_t lane = base + i;
      if (!s.isActive(lane))
        continue;
      for (std::uint32_t c = 0; c < in.components; ++c) {
        if (write) {
          const T *data = s.reg<const T>(in.operand[1]);
          std::memcpy(&block[c * S + i], &data[c * (dataVarying ? w : 1) + (dataVarying ? lane : 0)],
                      Bytes);
        } else {
          std::memcpy(&s.reg<T>(in.result)[c * w + lane], &block[c * S + i], Bytes);
        }
      }
    }
  });
}

template <GroupArithmetic Op, Scan Kind> Handler arithmeticFor(Scalar type) {
  return withScalar(type, [&]<Scalar S>() -> Handler {
    using T = ScalarT<S>;
    constexpr bool floatOp =
        Op == GroupArithmetic::FMin || Op == GroupArithmetic::FMax ||
        ((Op == GroupArithmetic::Add || Op == GroupArithmetic::Mul) && !std::is_integral_v<T>);
    constexpr bool logical = Op == GroupArithmetic::LogicalAnd ||
                             Op == GroupArithmetic::LogicalOr || Op == GroupArithmetic::LogicalXor;
    if constexpr (S == Scalar::I128)
      return nullptr;
    else if constexpr (logical)
      return S == Scalar::Bool ? forIsa<&arithmetic<T, Op, Kind>>() : nullptr;
    else if constexpr (floatOp)
      return std::is_integral_v<T> ? nullptr : forIsa<&arithmetic<T, Op, Kind>>();
    else if constexpr (std::is_integral_v<T> && S != Scalar::Bool)
      return forIsa<&arithmetic<T, Op, Kind>>();
    else
      return nullptr;
  });
}

template <GroupArithmetic Op> Handler arithmeticFor(Scalar type, std::uint32_t scan) {
  switch (static_cast<Scan>(scan)) {
  case Scan::Reduce: return arithmeticFor<Op, Scan::Reduce>(type);
  case Scan::Inclusive: return arithmeticFor<Op, Scan::Inclusive>(type);
  case Scan::Exclusive: return arithmeticFor<Op, Scan::Exclusive>(type);
  case Scan::Clustered: return arithmeticFor<Op, Scan::Clustered>(type);
  }
  return nullptr;
}

} // namespace

Handler subgroupShuffleHandler(std::uint32_t elementBytes) {
  return withElementBytes(elementBytes, [&]<std::uint32_t B>() -> Handler {
    if constexpr (B == 16)
      return nullptr;
    else
      return forIsa<&shuffle<B>>();
  });
}

Handler subgroupArithmeticHandler(builtins::GroupArithmetic op, Scalar type, std::uint32_t scan) {
  switch (op) {
#define LANEWISE_GROUP(name)                                                                       \
  case GroupArithmetic::name:                                                                      \
    return arithmeticFor<GroupArithmetic::name>(type, scan);
    LANEWISE_GROUP_ARITHMETIC(LANEWISE_GROUP)
#undef LANEWISE_GROUP
  }
  return nullptr;
}

Handler subgroupVoteHandler() { return &vote; }
Handler subgroupBallotHandler() { return &ballot; }

Handler subgroupBlockHandler(std::uint32_t elementBytes) {
  return withElementBytes(elementBytes, [&]<std::uint32_t B>() -> Handler {
    if constexpr (B == 16)
      return nullptr;
    else
      return &blockAccess<B>;
  });
}

} // namespace lanewise::runtime
