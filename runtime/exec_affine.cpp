// SPDX-License-Identifier: Apache-2.0
// Affine lane values: a value that is base + x × stride + y × rowStride in
// every lane of a warp, lane l being at x = l % rowLanes in the warp's row
// y = l / rowLanes (ExecutionState::rowLanes), is held as those three
// elements in one uniform register instead of one element per lane. When
// the warp lies in one row of its work-group, rowLanes is the width and the
// value is base + lane × stride; when it holds whole rows (a 16 x 16
// work-group in 128-lane warps), the row stride carries the y ids. The
// arithmetic that keeps a value affine works on the three elements alone,
// once per warp; a load or store through an affine pointer is a block copy
// per row (one for the warp when the rows are contiguous), a broadcast
// when the row stride is all there is, or a strided loop, with no address
// per lane. Integers are unsigned and wrap: affinity modulo 2^n is kept by
// addition, subtraction, multiplication, left shifts and truncation, so the
// elements' arithmetic is the lanes' arithmetic.
#include "runtime/binary_ops.h"
#include "runtime/handlers.h"
#include "runtime/interleave.h"
#include "runtime/shapes.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

namespace lanewise::runtime {

namespace {

template <typename T> struct Pair {
  T base, stride, rowStride;
  // Lane x of the row this pair is of (row()).
  T at(std::uint32_t x) const { return T(base + T(x) * stride); }
  // The values of row y: the same strides from that row's first lane.
  Pair row(std::uint32_t y) const { return {T(base + T(y) * rowStride), stride, rowStride}; }
};

// An operand: a pair, or a uniform value (strides 0). When each row of the
// warp is one lane (work-groups of one work-item sharing a warp), x is
// always 0 and the stride is never read: it is made the row stride, so
// that the warp is one row (forRows).
template <typename T, bool Affine> Pair<T> pairAt(const ExecutionState &s, std::uint32_t offset) {
  const T *p = s.reg<const T>(offset);
  if constexpr (Affine)
    return {p[0], s.rowLanes == 1 ? p[2] : p[1], p[2]};
  else
    return {p[0], T(0), T(0)};
}

template <typename T> void setPair(const ExecutionState &s, std::uint32_t offset, Pair<T> pair) {
  T *p = s.reg<T>(offset);
  p[0] = pair.base;
  p[1] = pair.stride;
  p[2] = pair.rowStride;
}

// Calls f(first, end, y) for each row y of the lanes below n: lanes
// [first, end), at x = l - first.
template <typename F> void forRows(const ExecutionState &s, std::uint32_t n, F &&f) {
  // Rows of one lane continue each other (pairAt).
  const std::uint32_t perRow = s.rowLanes == 1 ? n : s.rowLanes;
  std::uint32_t y = 0;
  for (std::uint32_t first = 0; first < n; first += perRow, ++y)
    f(first, std::min(n, first + perRow), y);
}

// Whether each row of the pair starts where the row before it would have
// gone on: the warp's lanes are then one sequence, base + lane × stride
// (the global id of several work-groups sharing a warp). Uniform values
// (strides 0) continue too.
template <typename T> bool rowsContinue(const ExecutionState &s, Pair<T> p) {
  return s.rowLanes == 1 || p.rowStride == T(p.stride * T(s.rowLanes));
}

template <typename T, AffineOp Op> struct Arithmetic {
  template <bool AA, bool BA> static void run(const Instruction &in, ExecutionState &s) {
    const Pair<T> a = pairAt<T, AA>(s, in.operand[0]), b = pairAt<T, BA>(s, in.operand[1]);
    constexpr T bits = sizeof(T) * 8;
    if constexpr (Op == AffineOp::Add)
      setPair<T>(s, in.result,
                 {T(a.base + b.base), T(a.stride + b.stride), T(a.rowStride + b.rowStride)});
    else if constexpr (Op == AffineOp::Sub)
      setPair<T>(s, in.result,
                 {T(a.base - b.base), T(a.stride - b.stride), T(a.rowStride - b.rowStride)});
    else if constexpr (Op == AffineOp::Mul) // one of the two is uniform
      setPair<T>(s, in.result,
                 {T(a.base * b.base), T(a.stride * b.base + b.stride * a.base),
                  T(a.rowStride * b.base + b.rowStride * a.base)});
    else { // ShiftLeft by a uniform count, taken modulo the width as the lanes' is
      const T count = b.base & (bits - 1);
      setPair<T>(s, in.result, {T(a.base << count), T(a.stride << count), T(a.rowStride << count)});
    }
  }
};

template <typename T, AffineOp Op> Handler arithmeticFor(bool aAffine, bool bAffine) {
  using H = Arithmetic<T, Op>;
  if (aAffine)
    return bAffine ? &H::template run<true, true> : &H::template run<true, false>;
  return bAffine ? &H::template run<false, true> : nullptr;
}

// Truncation: the low bytes of each element.
template <typename From, typename To> void truncate(const Instruction &in, ExecutionState &s) {
  const Pair<From> a = pairAt<From, true>(s, in.operand[0]);
  setPair<To>(s, in.result, {To(a.base), To(a.stride), To(a.rowStride)});
}

// Widening of a pair whose lanes do not wrap (the lowering proves it): the
// first lane extended, and each stride as the exact difference of the
// first lane and its neighbour in x (in y). A stride no lane pair spans
// (one lane per row, one row) is never read, whatever it holds.
template <typename From, typename To, bool Signed>
void widenPair(const Instruction &in, ExecutionState &s) {
  const Pair<From> a = pairAt<From, true>(s, in.operand[0]);
  auto extend = [](From v) {
    if constexpr (Signed)
      return To(std::make_signed_t<To>(std::make_signed_t<From>(v)));
    else
      return To(v);
  };
  setPair<To>(s, in.result,
              {extend(a.base), To(extend(From(a.base + a.stride)) - extend(a.base)),
               To(extend(From(a.base + a.rowStride)) - extend(a.base))});
}

// result = operand[0] + operand[1] * immediate: one index step of an access
// chain. The index is signed: a
// uniform index narrower than the pointer is sign-extended once; an affine
// index is as wide as the pointer (the lowering sees to it).
template <typename Index, bool BaseAffine, bool IndexAffine>
void offset(const Instruction &in, ExecutionState &s) {
  const Pair<std::uint64_t> base = pairAt<std::uint64_t, BaseAffine>(s, in.operand[0]);
  const Index *index = s.reg<const Index>(in.operand[1]);
  const std::uint64_t stride = in.immediate;
  const auto wide = [](Index i) {
    return std::uint64_t(std::int64_t(std::make_signed_t<Index>(i)));
  };
  Pair<std::uint64_t> r = base;
  r.base += wide(index[0]) * stride;
  if constexpr (IndexAffine) {
    r.stride += index[1] * stride;
    r.rowStride += index[2] * stride;
  }
  setPair(s, in.result, r);
}

template <typename Index> Handler offsetFor(bool baseAffine, bool indexAffine) {
  if (baseAffine)
    return indexAffine ? &offset<Index, true, true> : &offset<Index, true, false>;
  // Both uniform: a pair of stride 0, the start of a chain.
  return indexAffine ? &offset<Index, false, true> : &offset<Index, false, false>;
}

void displace(const Instruction &in, ExecutionState &s) {
  Pair<std::uint64_t> r = pairAt<std::uint64_t, true>(s, in.operand[0]);
  r.base += in.immediate;
  setPair(s, in.result, r);
}

// The pair's lane form in a varying register, for the uses that read a
// value lane by lane. Inactive lanes keep theirs.
template <typename T> void materialise(const Instruction &in, ExecutionState &s) {
  const Pair<T> a = pairAt<T, true>(s, in.operand[0]);
  forRows(s, s.span, [&](std::uint32_t first, std::uint32_t end, std::uint32_t y) {
    const Pair<T> row = a.row(y);
    T *r = s.reg<T>(in.result) + first;
    const std::uint32_t n = end - first;
    if (s.dense) {
      for (std::uint32_t x = 0; x < n; ++x)
        r[x] = row.at(x);
    } else {
      const std::uint8_t *m = s.active + first;
      for (std::uint32_t x = 0; x < n; ++x)
        r[x] = blend(m[x], row.at(x), r[x]);
    }
  });
}

// Calls f(x) for each lane x < n of a row where base + x × stride equals v
// modulo 2^bits, stride not 0. With stride = odd × 2^t, those are the lanes
// x0 + k × 2^(bits - t), x0 = ((v - base) / 2^t) × odd^-1 modulo
// 2^(bits - t), when 2^t divides v - base, and none otherwise: at most one
// lane when the row is shorter than the period.
template <typename T, typename F>
void forEqualLanes(T base, T stride, T v, std::uint32_t n, F &&f) {
  const T difference = T(v - base);
  const unsigned t = unsigned(std::countr_zero(stride));
  if (std::uint64_t(difference) & ((std::uint64_t(1) << t) - 1))
    return;
  const std::uint64_t odd = std::uint64_t(stride >> t);
  std::uint64_t inverse = odd; // right in 3 bits; each step doubles them
  for (int step = 0; step < 5; ++step)
    inverse *= 2 - odd * inverse;
  const unsigned period = sizeof(T) * 8 - t; // its logarithm
  const std::uint64_t x = std::uint64_t(difference >> t) * inverse &
                          (period >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << period) - 1);
  if (period >= 32) {
    if (x < n)
      f(std::uint32_t(x));
    return;
  }
  for (std::uint64_t lane = x; lane < n; lane += std::uint64_t(1) << period)
    f(std::uint32_t(lane));
}

// An integer comparison of a pair with a uniform value (either side): the
// Bool of each active lane, without its lane form. An equality is solved
// for the lanes where it holds (a lane picked by `if (y == id)`, at most
// one in a warp), an ordering over an interval of lanes judged at its ends.
template <typename T, BinaryOp Op, bool AA, bool BA>
void compare(const Instruction &in, ExecutionState &s) {
  const Pair<T> a = pairAt<T, AA>(s, in.operand[0]), b = pairAt<T, BA>(s, in.operand[1]);
  using S = std::make_signed_t<T>;
  auto test = [](Pair<T> ra, Pair<T> rb, std::uint32_t x) -> std::uint8_t {
    const T u = ra.at(x), v = rb.at(x);
    using enum BinaryOp;
    if constexpr (Op == IEqual)
      return u == v;
    else if constexpr (Op == INotEqual)
      return u != v;
    else if constexpr (Op == ULessThan)
      return u < v;
    else if constexpr (Op == ULessThanEqual)
      return u <= v;
    else if constexpr (Op == UGreaterThan)
      return u > v;
    else if constexpr (Op == UGreaterThanEqual)
      return u >= v;
    else if constexpr (Op == SLessThan)
      return S(u) < S(v);
    else if constexpr (Op == SLessThanEqual)
      return S(u) <= S(v);
    else if constexpr (Op == SGreaterThan)
      return S(u) > S(v);
    else
      return S(u) >= S(v);
  };
  // The value all n lanes of the row hold, or -1 when they differ or that
  // is not known at once. An ordering of a sequence that does not wrap
  // within the row against a constant holds on an interval of lanes that
  // contains the first or the last: when both agree, so do all (a bounds
  // test `i < n`).
  constexpr bool equality = Op == BinaryOp::IEqual || Op == BinaryOp::INotEqual;
  // The lanes of a row at which an equality holds (f(x) for each).
  auto forEqual = [](Pair<T> ra, Pair<T> rb, std::uint32_t n, auto &&f) {
    const Pair<T> p = AA ? ra : rb;
    forEqualLanes<T>(p.base, p.stride, AA ? rb.base : ra.base, n, f);
  };
  auto same = [&](Pair<T> ra, Pair<T> rb, std::uint32_t n) -> int {
    constexpr bool isSigned = Op == BinaryOp::SLessThan || Op == BinaryOp::SLessThanEqual ||
                              Op == BinaryOp::SGreaterThan || Op == BinaryOp::SGreaterThanEqual;
    const Pair<T> p = AA ? ra : rb;
    if constexpr (equality) {
      if (p.stride == T(0))
        return test(ra, rb, 0);
      bool holds = false;
      forEqual(ra, rb, n, [&](std::uint32_t) { holds = true; });
      return holds ? -1 : Op == BinaryOp::INotEqual;
    }
    const __int128 start = isSigned ? __int128(S(p.base)) : __int128(p.base);
    const __int128 last = start + __int128(S(p.stride)) * (n - 1);
    const __int128 low = isSigned ? __int128(std::numeric_limits<S>::min()) : 0;
    const __int128 high = isSigned ? __int128(std::numeric_limits<S>::max())
                                   : __int128(std::numeric_limits<T>::max());
    if (last < low || last > high || test(ra, rb, 0) != test(ra, rb, n - 1))
      return -1;
    return test(ra, rb, 0);
  };
  const std::uint32_t span = s.span;
  // The warp's lanes below the span as one sequence: one test for all.
  if (s.dense && span && rowsContinue(s, a) && rowsContinue(s, b)) {
    if (const int value = same(a, b, span); value >= 0) {
      if (in.aux != affineCompareBranchOnly)
        std::memset(s.reg<std::uint8_t>(in.result), value, span);
      s.uniformCondition = in.result;
      s.uniformConditionValue = value != 0;
      return;
    }
  }
  // Whether every row so far held one value on all its lanes, and which.
  bool uniform = s.dense;
  int value = -1;
  forRows(s, span, [&](std::uint32_t first, std::uint32_t end, std::uint32_t y) {
    const Pair<T> ra = a.row(y), rb = b.row(y);
    std::uint8_t *r = s.reg<std::uint8_t>(in.result) + first;
    const std::uint32_t n = end - first;
    if (s.dense) {
      if (const int row = same(ra, rb, n); row >= 0) {
        std::memset(r, row, n);
        uniform &= value < 0 || value == row;
        value = row;
        return;
      }
      uniform = false;
      if constexpr (equality) {
        std::memset(r, Op == BinaryOp::INotEqual, n);
        forEqual(ra, rb, n, [&](std::uint32_t x) { r[x] = Op == BinaryOp::IEqual; });
      } else {
        for (std::uint32_t x = 0; x < n; ++x)
          r[x] = test(ra, rb, x);
      }
    } else {
      const std::uint8_t *m = s.active + first;
      for (std::uint32_t x = 0; x < n; ++x)
        r[x] = blend(m[x], test(ra, rb, x), r[x]);
    }
  });
  if (uniform && value >= 0) {
    s.uniformCondition = in.result;
    s.uniformConditionValue = value != 0;
  }
}

template <typename T, BinaryOp Op> Handler compareFor(bool aAffine, bool bAffine) {
  if (aAffine == bAffine)
    return nullptr; // one pair and one uniform value
  return aAffine ? forIsa<&compare<T, Op, true, false>>() : forIsa<&compare<T, Op, false, true>>();
}

template <typename T> Handler compareOf(BinaryOp op, bool aAffine, bool bAffine) {
  switch (op) {
  case BinaryOp::IEqual: return compareFor<T, BinaryOp::IEqual>(aAffine, bAffine);
  case BinaryOp::INotEqual: return compareFor<T, BinaryOp::INotEqual>(aAffine, bAffine);
  case BinaryOp::ULessThan: return compareFor<T, BinaryOp::ULessThan>(aAffine, bAffine);
  case BinaryOp::ULessThanEqual: return compareFor<T, BinaryOp::ULessThanEqual>(aAffine, bAffine);
  case BinaryOp::UGreaterThan: return compareFor<T, BinaryOp::UGreaterThan>(aAffine, bAffine);
  case BinaryOp::UGreaterThanEqual:
    return compareFor<T, BinaryOp::UGreaterThanEqual>(aAffine, bAffine);
  case BinaryOp::SLessThan: return compareFor<T, BinaryOp::SLessThan>(aAffine, bAffine);
  case BinaryOp::SLessThanEqual: return compareFor<T, BinaryOp::SLessThanEqual>(aAffine, bAffine);
  case BinaryOp::SGreaterThan: return compareFor<T, BinaryOp::SGreaterThan>(aAffine, bAffine);
  case BinaryOp::SGreaterThanEqual:
    return compareFor<T, BinaryOp::SGreaterThanEqual>(aAffine, bAffine);
  default:
    return nullptr;
  }
}

// The active lanes of [first, end) lie in [from, to) (from == to: none).
inline std::pair<std::uint32_t, std::uint32_t> activeSpan(const ExecutionState &s,
                                                          std::uint32_t first, std::uint32_t end) {
  while (first < end && !s.active[first])
    ++first;
  while (end > first && !s.active[end - 1])
    --end;
  return {first, end};
}

// A block of `bytes` that a warp's lanes read together is followed in
// memory by the blocks of the warps after it, which this thread most
// likely runs next (work-groups are handed out in runs): their lines are
// asked for now, two warps ahead, so that the next loads find them on
// their way rather than wait for them. A prefetch never faults, even past
// the end of the buffer.
inline void prefetchFollowing(const std::byte *block, std::size_t bytes) {
  for (std::size_t ahead = bytes; ahead < 3 * bytes; ahead += 64)
    __builtin_prefetch(block + ahead);
}

// Between memory, where lane l's `components` elements are at the pair's
// address, and a varying register, component-major; row by row, or the
// warp at once when its rows follow each other in memory.
template <std::uint32_t Bytes> struct Memory {
  using T = BitsT<Bytes>;

  // Calls f(row's pair, first, end) for each row, or once for the warp.
  template <typename F> static void rows(const ExecutionState &s, Pair<std::uint64_t> p, F &&f) {
    const std::uint32_t n = s.span, perRow = s.rowLanes;
    if (n <= perRow || p.rowStride == p.stride * perRow)
      return f(p, 0u, n);
    forRows(s, n, [&](std::uint32_t first, std::uint32_t end, std::uint32_t y) {
      f(p.row(y), first, end);
    });
  }

  template <bool MemoryOrder> static void load(const Instruction &in, ExecutionState &s) {
    const Pair<std::uint64_t> p = pairAt<std::uint64_t, true>(s, in.operand[0]);
    if constexpr (MemoryOrder) {
      if (inMemoryOrder(s)) {
        T *r = s.reg<T>(in.result);
        const std::size_t size = std::size_t(in.components) * Bytes;
        rows(s, p, [&](Pair<std::uint64_t> p, std::uint32_t first, std::uint32_t end) {
          auto *row = reinterpret_cast<std::byte *>(r) + first * size;
          const auto *base = reinterpret_cast<const std::byte *>(p.base);
          if (p.stride == size) {
            // The next warps' lines follow a warp's block, not a row's
            // (a tile's rows are in cache already).
            if (end - first == s.span)
              prefetchFollowing(base, (end - first) * size);
            std::memcpy(row, base, (end - first) * size);
          } else
            for (std::uint32_t x = 0; x < end - first; ++x)
              std::memcpy(row + x * size, base + std::int64_t(x) * std::int64_t(p.stride), size);
        });
        return;
      }
    }
    const std::uint32_t n = s.span, perRow = s.rowLanes;
    if (s.dense && in.components == 1 && n > perRow &&
        (p.stride == 0 || (p.stride == Bytes && p.rowStride != std::uint64_t(Bytes) * perRow))) {
      // Rows of whole work-group rows from a tile: each row one element
      // (A[y][k]), or each row a block (B[k][x]; again and again when the
      // row stride is 0).
      T *r = s.reg<T>(in.result);
      auto copyRows = [&](auto rowLanes) {
        for (std::uint32_t first = 0, y = 0; first < n; first += rowLanes, ++y) {
          const auto *row = reinterpret_cast<const T *>(p.base + y * p.rowStride);
          if (first + rowLanes > n) { // the last, partial row
            for (std::uint32_t l = first; l < n; ++l)
              std::memcpy(&r[l], row + (p.stride ? l - first : 0), Bytes);
            return;
          }
          if (p.stride == 0) {
            T value;
            std::memcpy(&value, row, Bytes);
            std::fill_n(r + first, rowLanes, value);
          } else {
            std::memcpy(r + first, row, rowLanes * Bytes);
          }
        }
      };
      // Tiles of 16 and 8 columns: the row's size known to the compiler.
      if (perRow == 16)
        copyRows(std::integral_constant<std::uint32_t, 16>());
      else if (perRow == 8)
        copyRows(std::integral_constant<std::uint32_t, 8>());
      else
        copyRows(perRow);
      return;
    }
    rows(s, p,
         [&](Pair<std::uint64_t> p, std::uint32_t first, std::uint32_t end) {
           loadRow(in, s, p, first, end);
         });
  }

  // Lanes [first, end), lane l at p.at(l - first).
  static void loadRow(const Instruction &in, ExecutionState &s, Pair<std::uint64_t> p,
                      std::uint32_t first, std::uint32_t end) {
    T *r = s.reg<T>(in.result) + first;
    const std::uint32_t w = s.width, n = end - first, components = in.components;
    const auto *base = reinterpret_cast<const std::byte *>(p.base);
    if (p.stride == 0) {
      // Every lane of the row reads the same element (As[y][k] in a tile),
      // when one is active.
      if (!s.dense && activeSpan(s, first, end).first == end)
        return;
      for (std::uint32_t c = 0; c < components; ++c) {
        T value;
        std::memcpy(&value, base + std::size_t(c) * Bytes, Bytes);
        T *rc = r + c * w;
        if (s.dense)
          std::fill(rc, rc + n, value);
        else
          for (std::uint32_t x = 0; x < n; ++x)
            rc[x] = s.active[first + x] ? value : rc[x];
      }
      return;
    }
    if (s.dense && p.stride == std::uint64_t(components) * Bytes) {
      prefetchFollowing(base, std::size_t(n) * components * Bytes);
      if (components == 1)
        std::memcpy(r, base, std::size_t(n) * Bytes);
      else
        deinterleave<Bytes>(r, base, components, n, w);
      return;
    }
    std::uint32_t done = 0;
#if defined(__SSE2__)
    // Vectors at a stride other than their size (vload4(4 * i + k, p)).
    // When the lanes' vectors share lines, the load that starts each line
    // (k = 0) asks for the next warps' lines, as a contiguous load does.
    const std::uint64_t size = std::uint64_t(components) * Bytes;
    if (s.dense && components > 1 && p.stride > size && p.stride <= 64 &&
        reinterpret_cast<std::uintptr_t>(base) % 64 < size)
      prefetchFollowing(base, std::size_t(n) * p.stride);
    if (s.dense && components > 1)
      done = transposeBlocks<Bytes, false>(r, const_cast<std::byte *>(base), components, n, w,
                                           std::int64_t(p.stride));
#endif
    if (done) {
      for (std::uint32_t c = 0; c < components; ++c)
        for (std::uint32_t x = done; x < n; ++x)
          std::memcpy(&r[c * w + x], base + std::int64_t(x) * std::int64_t(p.stride) + c * Bytes,
                      Bytes);
      return;
    }
    if (components == 1 && p.stride == Bytes) {
      // Some lanes: the elements between the first and the last active
      // lane's lie in the object both point into, so they are read as one
      // block and blended in.
      const auto [from, to] = activeSpan(s, first, end);
      const T *source = reinterpret_cast<const T *>(base);
      for (std::uint32_t l = from; l < to; ++l) {
        T value;
        std::memcpy(&value, source + (l - first), Bytes);
        r[l - first] = s.active[l] ? value : r[l - first];
      }
      return;
    }
    for (std::uint32_t c = 0; c < components; ++c) {
      T *rc = r + c * w;
      const std::byte *column = base + std::size_t(c) * Bytes;
      if (s.dense)
        for (std::uint32_t x = 0; x < n; ++x)
          std::memcpy(&rc[x], column + x * p.stride, Bytes);
      else
        for (std::uint32_t x = 0; x < n; ++x)
          if (s.active[first + x])
            std::memcpy(&rc[x], column + x * p.stride, Bytes);
    }
  }

  // Global: the pointer is to global memory (affineStoreHandler).
  template <bool ValueVarying, bool Global, bool MemoryOrder = false>
  static void store(const Instruction &in, ExecutionState &s) {
    if constexpr (MemoryOrder) {
      if (inMemoryOrder(s)) {
        const auto *value = s.reg<const std::byte>(in.operand[1]);
        const std::size_t size = std::size_t(in.components) * Bytes;
        rows(s, pairAt<std::uint64_t, true>(s, in.operand[0]),
             [&](Pair<std::uint64_t> p, std::uint32_t first, std::uint32_t end) {
               const std::byte *row = value + first * size;
               auto *base = reinterpret_cast<std::byte *>(p.base);
               if (p.stride != size) { // lane by lane, in lane order
                 for (std::uint32_t x = 0; x < end - first; ++x)
                   std::memcpy(base + std::int64_t(x) * std::int64_t(p.stride), row + x * size,
                               size);
               } else if (Global && s.streamingStores) {
                 streamCopy(base, row, (end - first) * size);
#if defined(__SSE2__)
                 _mm_sfence();
#endif
               } else {
                 std::memcpy(base, row, (end - first) * size);
               }
             });
        return;
      }
    }
    rows(s, pairAt<std::uint64_t, true>(s, in.operand[0]),
         [&](Pair<std::uint64_t> p, std::uint32_t first, std::uint32_t end) {
           storeRow<ValueVarying, Global>(in, s, p, first, end);
         });
  }

  template <bool ValueVarying, bool Global>
  static void storeRow(const Instruction &in, ExecutionState &s, Pair<std::uint64_t> p,
                       std::uint32_t first, std::uint32_t end) {
    const T *value = s.reg<const T>(in.operand[1]) + (ValueVarying ? first : 0);
    const std::uint32_t w = s.width, n = end - first, components = in.components;
    auto *base = reinterpret_cast<std::byte *>(p.base);
    if constexpr (ValueVarying) {
      const std::int64_t stride = std::int64_t(p.stride);
      const std::int64_t size = std::int64_t(components) * Bytes;
      if (s.dense && stride == size) {
        if (Global && s.streamingStores) {
          if (components == 1)
            streamCopy(base, reinterpret_cast<const std::byte *>(value), std::size_t(n) * Bytes);
          else
            interleave<Bytes, true>(base, value, components, n, w);
#if defined(__SSE2__)
          _mm_sfence();
#endif
        } else if (components == 1) {
          std::memcpy(base, value, std::size_t(n) * Bytes);
        } else {
          interleave<Bytes>(base, value, components, n, w);
        }
        return;
      }
      if (components == 1 && stride == Bytes) {
        // Some lanes: a run of active lanes is one block; no inactive lane's
        // element is written, not even with what it held.
        const auto [from, to] = activeSpan(s, first, end);
        for (std::uint32_t l = from; l < to;) {
          std::uint32_t runEnd = l;
          while (runEnd < to && s.active[runEnd])
            ++runEnd;
          std::memcpy(base + std::size_t(l - first) * Bytes, value + (l - first),
                      std::size_t(runEnd - l) * Bytes);
          for (l = runEnd; l < to && !s.active[l];)
            ++l;
        }
        return;
      }
#if defined(__SSE2__)
      // Vectors at a stride other than their size that do not overlap: the
      // order of the writes cannot show.
      if (s.dense && components > 1 && (stride < 0 ? -stride : stride) >= size) {
        const std::uint32_t done = transposeBlocks<Bytes, true>(
            const_cast<T *>(value), base, components, n, w, stride);
        for (std::uint32_t x = done; x < n; ++x)
          for (std::uint32_t c = 0; c < components; ++c)
            std::memcpy(base + std::int64_t(x) * stride + std::int64_t(c) * Bytes,
                        &value[c * w + x], Bytes);
        return;
      }
#endif
    } else if (s.dense && p.stride == std::uint64_t(components) * Bytes) {
      // Every lane stores the same vector, and the lanes' vectors are
      // consecutive: the run is that vector repeated.
      if (components == 1) {
        auto *out = reinterpret_cast<T *>(base);
        std::fill(out, out + n, value[0]);
      } else {
        const std::size_t size = std::size_t(components) * Bytes;
        for (std::uint32_t x = 0; x < n; ++x)
          std::memcpy(base + x * size, value, size);
      }
      return;
    }
    // Lane by lane, in lane order, as the gather form stores.
    if (s.dense && components == 1) {
      // A strided run (f[16 * i + k]): no test of the mask per lane.
      for (std::uint32_t x = 0; x < n; ++x)
        std::memcpy(base + x * p.stride, &value[ValueVarying ? x : 0], Bytes);
      return;
    }
    for (std::uint32_t x = 0; x < n; ++x)
      if (s.isActive(first + x))
        for (std::uint32_t c = 0; c < components; ++c)
          std::memcpy(base + x * p.stride + std::size_t(c) * Bytes,
                      &value[ValueVarying ? c * w + x : c], Bytes);
  }
};

#if defined(__x86_64__)
[[gnu::target("avx2,f16c")]] void widenHalvesF16c(float *out, const std::uint16_t *in,
                                                  std::size_t count) {
  std::size_t e = 0;
  for (; e + 8 <= count; e += 8)
    _mm256_storeu_ps(out + e,
                     _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i *>(in + e))));
  for (; e < count; ++e)
    out[e] = widenBits(in[e]);
}
#endif

// `count` halves widened to floats: eight at a time with F16C where the
// handlers use AVX2 (every processor with AVX2 has F16C).
inline void widenHalves(float *out, const std::uint16_t *in, std::size_t count) {
#if defined(__x86_64__)
  if (handlerIsa() == Isa::Avx2)
    return widenHalvesF16c(out, in, count);
#endif
  for (std::size_t e = 0; e < count; ++e)
    out[e] = widenBits(in[e]);
}

// A streamed store's operation on `count` elements: out = op(a, b), with
// 16-byte non-temporal stores (Stream: `out` 16-byte aligned, `count` a
// multiple of 16 bytes).
template <typename T, BinaryOp Op, bool Stream>
void applyElements(T *out, const T *a, const T *b, std::size_t count) {
#if defined(__SSE2__)
  if constexpr (Stream) {
    // The operations apply to vectors of elements as to elements.
    typedef T Vector __attribute__((vector_size(16), aligned(alignof(T))));
    for (std::size_t x = 0; x < count; x += 16 / sizeof(T)) {
      const Vector r = binary_ops::apply<Vector, Op>(*reinterpret_cast<const Vector *>(a + x),
                                                     *reinterpret_cast<const Vector *>(b + x));
      _mm_stream_si128(reinterpret_cast<__m128i *>(out + x), (__m128i)r);
    }
    return;
  }
#endif
  for (std::size_t x = 0; x < count; ++x)
    out[x] = binary_ops::apply<T, Op>(a[x], b[x]);
}

// applyElements for whichever of Ops `op` is, if it applies to T; an
// operation that does not was not fused (runtime::streamedOperation).
template <typename T, bool Stream, BinaryOp... Ops>
void applyOneOf(BinaryOp op, T *out, const T *a, const T *b, std::size_t count) {
  auto apply = [&]<BinaryOp Op>() {
    if constexpr (binary_ops::validBinary<T, Op>())
      applyElements<T, Op, Stream>(out, a, b, count);
  };
  (void)((op == Ops && (apply.template operator()<Ops>(), true)) || ...);
}

template <typename T, bool Stream>
void applyElements(BinaryOp op, T *out, const T *a, const T *b, std::size_t count) {
  using enum BinaryOp;
  applyOneOf<T, Stream, IAdd, ISub, IMul, BitwiseAnd, BitwiseOr, BitwiseXor, FAdd, FSub, FMul,
             FDiv>(op, out, a, b, count);
}

// A streamed store (StreamedExpression): result = expression(leaves) over
// the warp's elements in one pass, chunk by chunk: each operation of the
// chunk reads its operands where they are (memory for loaded leaves, a
// chunk of copies for uniform ones, the chunk of an earlier operation)
// and writes a chunk of its own, the last writes the result. The chunks
// stay in the first-level cache; no register is read or written but the
// pairs and the uniform values, so the registers' layout (memory order or
// component-major) does not matter. Lanes that are not one run from lane
// 0, a pointer that does not step by one work-item's elements or is not
// aligned to an element (a
// packed struct's member), or a result that overlaps a loaded operand
// other than exactly (c[i] = c[i] + b[i]) run the steps instead: the
// loads of all lanes before any store, as the lanes run in lockstep.
template <typename T, bool Global> void streamedStore(const Instruction &in, ExecutionState &s) {
  using Expression = StreamedExpression;
  const auto &e = *static_cast<const Expression *>(in.data);
  const std::uint32_t n = s.span;
  const std::size_t count = std::size_t(n) * e.components, bytes = count * sizeof(T);
  auto elements = [&](std::uint32_t operand, std::uint32_t size, std::uintptr_t &at) {
    const Pair<std::uint64_t> p = pairAt<std::uint64_t, true>(s, operand);
    at = p.base;
    return p.stride == e.components * size && p.base % size == 0 &&
           (n <= s.rowLanes || rowsContinue(s, p));
  };
  std::uintptr_t to = 0;
  bool streams = s.dense && n && elements(e.store, sizeof(T), to);
  T *const c = reinterpret_cast<T *>(to);
  std::array<std::uintptr_t, Expression::maxLeaves> loaded{};
  for (std::uint32_t k = 0; k < e.leaves && streams; ++k) {
    if (!e.leaf[k].loaded)
      continue;
    const std::uint32_t size = e.leaf[k].halves ? 2 : sizeof(T);
    std::uintptr_t &from = loaded[k];
    const std::size_t extent = count * size;
    streams = elements(e.leaf[k].reg, size, from) &&
              ((from == to && size == sizeof(T)) || from + extent <= to || to + bytes <= from);
  }
  if (!streams) {
    for (const Instruction &step : e.steps)
      step.handler(step, s);
    return;
  }
  const bool stream = Global && s.streamingStores;
  if (e.nodes == 0 && !e.leaf[0].halves) { // a copy
    const auto *from = reinterpret_cast<const std::byte *>(loaded[0]);
#if defined(__SSE2__)
    if (stream) {
      streamCopy(reinterpret_cast<std::byte *>(c), from, bytes);
      _mm_sfence();
      return;
    }
#endif
    std::memmove(c, from, bytes);
    return;
  }
  // 2 KiB chunks: one for each uniform leaf (its value repeated), each
  // leaf of halves (widened chunk by chunk) and each operation but the
  // last.
  constexpr std::size_t chunk = 2048 / sizeof(T);
  alignas(64) T scratch[Expression::maxLeaves + Expression::maxNodes][chunk];
  for (std::uint32_t k = 0; k < e.leaves; ++k)
    if (!e.leaf[k].loaded)
      std::fill_n(scratch[k], chunk, *s.reg<const T>(e.leaf[k].reg));
  // Elements [x, x + m) of every operation; the last streams its results
  // when `Stream` (c + x 16-byte aligned, m a multiple of 16 bytes).
  auto compute = [&]<bool Stream>(std::size_t x, std::size_t m) {
    if constexpr (std::is_same_v<T, float>)
      for (std::uint32_t k = 0; k < e.leaves; ++k)
        if (e.leaf[k].halves)
          widenHalves(scratch[k], reinterpret_cast<const std::uint16_t *>(loaded[k]) + x, m);
    auto operand = [&](std::uint8_t k) -> const T * {
      if (k >= Expression::maxLeaves || !e.leaf[k].loaded || e.leaf[k].halves)
        return scratch[k];
      return reinterpret_cast<const T *>(loaded[k]) + x;
    };
    if (e.nodes == 0) { // widened halves
#if defined(__SSE2__)
      if constexpr (Stream) {
        for (std::size_t q = 0; q < m; q += 16 / sizeof(T))
          _mm_stream_si128(reinterpret_cast<__m128i *>(c + x + q),
                           _mm_load_si128(reinterpret_cast<const __m128i *>(scratch[0] + q)));
        return;
      }
#endif
      std::memcpy(c + x, scratch[0], m * sizeof(T));
      return;
    }
    for (std::uint32_t j = 0; j < e.nodes; ++j) {
      const Expression::Node &node = e.node[j];
      const T *a = operand(node.operand[0]), *b = operand(node.operand[1]);
      if (j + 1 < e.nodes)
        applyElements<T, false>(node.op, scratch[Expression::maxLeaves + j], a, b, m);
      else
        applyElements<T, Stream>(node.op, c + x, a, b, m);
    }
  };
  // No prefetches: each operation reads its operands in order, and the
  // processor's own prefetchers follow such streams. Asking for the next
  // warps' lines as a block copy does made vector_add 15% slower on one
  // thread (9.6-10.6 ms against 7.9-9.1, 2^24 floats).
  std::size_t x = 0;
#if defined(__SSE2__)
  if (stream) {
    // Whole lines of the result past the caches (ExecutionState::
    // streamingStores): up to the first line boundary as usual, then
    // whole 16-byte parts, then the rest as usual.
    const std::size_t head =
        std::min(count, (64 - reinterpret_cast<std::uintptr_t>(c) % 64) % 64 / sizeof(T));
    compute.template operator()<false>(0, head);
    constexpr std::size_t part = 16 / sizeof(T);
    for (x = head; x + part <= count; x += chunk) {
      const std::size_t m = std::min(chunk, (count - x) / part * part);
      compute.template operator()<true>(x, m);
      if (m < chunk) {
        x += m;
        break;
      }
    }
    if (x < count)
      compute.template operator()<false>(x, count - x);
    _mm_sfence();
    return;
  }
#endif
  for (; x < count; x += chunk)
    compute.template operator()<false>(x, std::min(chunk, count - x));
}

#if defined(__x86_64__)
// widenedHalfLoadHandler: the halves of the warp's lanes, n x components of
// them from the pair's base, widened eight at a time.
[[gnu::target("avx2,f16c")]] void widenedHalfLoad(const Instruction &in, ExecutionState &s) {
  const auto &steps = *static_cast<const HalfLoadSteps *>(in.data);
  const Pair<std::uint64_t> p = pairAt<std::uint64_t, true>(s, in.operand[0]);
  const std::uint32_t n = s.span;
  if (!inMemoryOrder(s) || p.stride != std::uint64_t(in.components) * 2 ||
      !(n <= s.rowLanes || rowsContinue(s, p))) {
    for (const Instruction &step : steps.step)
      step.handler(step, s);
    return;
  }
  const auto *halves = reinterpret_cast<const std::uint16_t *>(p.base);
  float *r = s.reg<float>(in.result);
  const std::size_t count = std::size_t(n) * in.components;
  prefetchFollowing(reinterpret_cast<const std::byte *>(halves), count * 2);
  widenHalvesF16c(r, halves, count);
}
#endif

// A register in memory order (Memory<Bytes>::load<true>) to the usual
// component-major layout, in place, when the warp's loads left it in
// memory order; otherwise it is in that layout already.
template <std::uint32_t Bytes>
void memoryOrderToComponents(const Instruction &in, ExecutionState &s) {
  if (!inMemoryOrder(s))
    return;
  const std::size_t bytes = std::size_t(in.components) * Bytes * s.width;
  thread_local std::vector<std::byte> copy;
  if (copy.size() < bytes)
    copy.resize(bytes);
  auto *r = s.reg<BitsT<Bytes>>(in.result);
  std::memcpy(copy.data(), r, bytes);
  deinterleave<Bytes>(r, copy.data(), in.components, s.width, s.width);
}

// A record store's records written whole in one pass past the caches
// (recordStoreHandler), or false when the warp, the launch or the members'
// pointers do not allow it.
bool writeRecords(const RecordSteps &record, ExecutionState &s) {
#if defined(__SSE2__)
  const std::uint32_t n = s.span;
  if (!s.streamingStores || !s.dense || n == 0 || handlerIsa() != Isa::Avx2)
    return false;
  const std::uint64_t recordBytes = record.recordBytes;
  // The members by address: each must start where the one before it ends.
  std::array<std::pair<std::uint64_t, const Instruction *>, maxRecordElements> parts;
  std::uint32_t members = 0;
  for (const Instruction &store : record.stores) {
    const Pair<std::uint64_t> p = pairAt<std::uint64_t, true>(s, store.operand[0]);
    if (p.stride != recordBytes || !(n <= s.rowLanes || rowsContinue(s, p)))
      return false;
    parts[members++] = {p.base, &store};
  }
  std::sort(parts.begin(), parts.begin() + members,
            [](const auto &x, const auto &y) { return x.first < y.first; });
  std::array<const std::uint32_t *, maxRecordElements> rows{};
  std::uint32_t elements = 0;
  for (std::uint32_t k = 0; k < members; ++k) {
    const Instruction &store = *parts[k].second;
    if (parts[k].first != parts[0].first + std::uint64_t(elements) * 4)
      return false;
    const auto *value = s.reg<const std::uint32_t>(store.operand[1]);
    for (std::uint32_t c = 0; c < store.components; ++c)
      rows[elements++] = value + std::size_t(c) * s.width;
  }
  auto *base = reinterpret_cast<std::byte *>(parts[0].first);
  if (reinterpret_cast<std::uintptr_t>(base) % 16 != 0)
    return false;
  const std::uint32_t done =
      storeRecords8<true>(base, rows.data(), elements / 4, n, std::int64_t(recordBytes));
  for (std::uint32_t l = done; l < n; ++l)
    for (std::uint32_t e = 0; e < elements; ++e)
      std::memcpy(base + l * recordBytes + e * 4, rows[e] + l, 4);
  _mm_sfence();
  return true;
#else
  (void)record;
  (void)s;
  return false;
#endif
}

// The members' addresses, then their records whole or their stores one
// after another. The addresses write only their own pair registers, which
// only their own stores read, so computing all of them first changes
// nothing.
void recordStore(const Instruction &in, ExecutionState &s) {
  const auto &record = *static_cast<const RecordSteps *>(in.data);
  for (const Instruction &step : record.addresses)
    step.handler(step, s);
  if (!writeRecords(record, s))
    for (const Instruction &store : record.stores)
      store.handler(store, s);
}

} // namespace

Handler affineArithmeticHandler(AffineOp op, std::uint32_t elementBytes, bool aAffine,
                                bool bAffine) {
  auto pick = [&]<typename T>() -> Handler {
    switch (op) {
    case AffineOp::Add:
      return arithmeticFor<T, AffineOp::Add>(aAffine, bAffine);
    case AffineOp::Sub:
      return arithmeticFor<T, AffineOp::Sub>(aAffine, bAffine);
    case AffineOp::Mul:
      return aAffine && bAffine ? nullptr : arithmeticFor<T, AffineOp::Mul>(aAffine, bAffine);
    case AffineOp::ShiftLeft:
      return aAffine && !bAffine ? arithmeticFor<T, AffineOp::ShiftLeft>(true, false) : nullptr;
    }
    return nullptr;
  };
  switch (elementBytes) {
  case 4:
    return pick.template operator()<std::uint32_t>();
  case 8:
    return pick.template operator()<std::uint64_t>();
  default:
    return nullptr;
  }
}

Handler affineCompareHandler(BinaryOp op, std::uint32_t elementBytes, bool aAffine, bool bAffine) {
  switch (elementBytes) {
  case 4:
    return compareOf<std::uint32_t>(op, aAffine, bAffine);
  case 8:
    return compareOf<std::uint64_t>(op, aAffine, bAffine);
  default:
    return nullptr;
  }
}

Handler affineTruncateHandler(std::uint32_t fromBytes, std::uint32_t toBytes) {
  if (fromBytes == 8 && toBytes == 4)
    return &truncate<std::uint64_t, std::uint32_t>;
  return nullptr;
}

Handler affineWidenHandler(std::uint32_t fromBytes, std::uint32_t toBytes, bool isSigned) {
  if (fromBytes == 4 && toBytes == 8)
    return isSigned ? &widenPair<std::uint32_t, std::uint64_t, true>
                    : &widenPair<std::uint32_t, std::uint64_t, false>;
  return nullptr;
}

Handler affineOffsetHandler(std::uint32_t indexBytes, bool baseAffine, bool indexAffine) {
  if (indexBytes == 0)
    return baseAffine ? &displace : nullptr;
  // A uniform 32-bit index only: an affine one would be sign-extended lane by lane.
  switch (indexBytes) {
  case 4:
    return indexAffine ? nullptr : offsetFor<std::uint32_t>(baseAffine, false);
  case 8:
    return offsetFor<std::uint64_t>(baseAffine, indexAffine);
  default:
    return nullptr;
  }
}

Handler affineMaterialiseHandler(std::uint32_t elementBytes) {
  switch (elementBytes) {
  case 4:
    return forIsa<&materialise<std::uint32_t>>();
  case 8:
    return forIsa<&materialise<std::uint64_t>>();
  default:
    return nullptr;
  }
}

Handler affineLoadHandler(std::uint32_t elementBytes, bool memoryOrder) {
  if (elementBytes != 1 && elementBytes != 2 && elementBytes != 4 && elementBytes != 8)
    return nullptr;
  return withElementBytes(elementBytes, [&]<std::uint32_t B>() -> Handler {
    if constexpr (B == 16)
      return nullptr;
    else
      return memoryOrder ? forIsa<&Memory<B>::template load<true>>()
                         : forIsa<&Memory<B>::template load<false>>();
  });
}

Handler memoryOrderToComponentsHandler(std::uint32_t elementBytes) {
  switch (elementBytes) {
  case 1:
    return &memoryOrderToComponents<1>;
  case 2:
    return forIsa<&memoryOrderToComponents<2>>();
  case 4:
    return forIsa<&memoryOrderToComponents<4>>();
  case 8:
    return forIsa<&memoryOrderToComponents<8>>();
  default:
    return nullptr;
  }
}

Handler affineStoreHandler(std::uint32_t elementBytes, bool valueVarying, bool global,
                           bool memoryOrder) {
  if (elementBytes != 1 && elementBytes != 2 && elementBytes != 4 && elementBytes != 8)
    return nullptr;
  return withElementBytes(elementBytes, [&]<std::uint32_t B>() -> Handler {
    if constexpr (B == 16)
      return nullptr;
    else if (memoryOrder && valueVarying)
      return global ? forIsa<&Memory<B>::template store<true, true, true>>()
                    : forIsa<&Memory<B>::template store<true, false, true>>();
    else if (!valueVarying)
      return forIsa<&Memory<B>::template store<false, false>>();
    else
      return global ? forIsa<&Memory<B>::template store<true, true>>()
                    : forIsa<&Memory<B>::template store<true, false>>();
  });
}

Handler streamedStoreHandler(Scalar type, bool global) {
  auto forType = [&]<typename T>() -> Handler {
    return global ? forIsa<&streamedStore<T, true>>() : forIsa<&streamedStore<T, false>>();
  };
  switch (type) {
  case Scalar::I32:
    return forType.template operator()<std::uint32_t>();
  case Scalar::I64:
    return forType.template operator()<std::uint64_t>();
  case Scalar::F32:
    return forType.template operator()<float>();
  case Scalar::F64:
    return forType.template operator()<double>();
  default:
    return nullptr;
  }
}

bool streamedOperation(BinaryOp op, Scalar type) {
  using enum BinaryOp;
  switch (op) {
  case FAdd:
  case FSub:
  case FMul:
  case FDiv:
    return type == Scalar::F32 || type == Scalar::F64;
  case IAdd:
  case ISub:
  case IMul:
  case BitwiseAnd:
  case BitwiseOr:
  case BitwiseXor:
    return type == Scalar::I32 || type == Scalar::I64;
  default:
    return false;
  }
}

Handler recordStoreHandler() { return forIsa<&recordStore>(); }

Handler widenedHalfLoadHandler() {
#if defined(__x86_64__)
  if (handlerIsa() == Isa::Avx2)
    return &widenedHalfLoad;
#endif
  return nullptr;
}

} // namespace lanewise::runtime
