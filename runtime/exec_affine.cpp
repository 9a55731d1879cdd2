// Affine lane values: a value that is base + lane × stride in every lane of a
// warp is held as that pair, one uniform register of two elements (base,
// then stride), instead of one element per lane. The arithmetic that keeps
// a value affine works on the pair alone, once per warp; a load or store
// through an affine pointer is a block copy (or a strided loop), with no
// address per lane. Integers are unsigned and wrap: affinity modulo 2^n is
// kept by addition, subtraction, multiplication, left shifts and
// truncation, so the pair's arithmetic is the lanes' arithmetic.
#include "runtime/handlers.h"
#include "runtime/interleave.h"
#include "runtime/shapes.h"

#include <cstring>
#include <limits>
#include <utility>

namespace lanewise::runtime {

namespace {

template <typename T> struct Pair {
  T base, stride;
  T at(std::uint32_t lane) const { return T(base + T(lane) * stride); }
};

// An operand: a pair, or a uniform value (stride 0).
template <typename T, bool Affine> Pair<T> pairAt(const ExecutionState &s, std::uint32_t offset) {
  const T *p = s.reg<const T>(offset);
  if constexpr (Affine)
    return {p[0], p[1]};
  else
    return {p[0], T(0)};
}

template <typename T> void setPair(const ExecutionState &s, std::uint32_t offset, Pair<T> pair) {
  T *p = s.reg<T>(offset);
  p[0] = pair.base;
  p[1] = pair.stride;
}

template <typename T, AffineOp Op> struct Arithmetic {
  template <bool AA, bool BA> static void run(const Instruction &in, ExecutionState &s) {
    const Pair<T> a = pairAt<T, AA>(s, in.operand[0]), b = pairAt<T, BA>(s, in.operand[1]);
    constexpr T bits = sizeof(T) * 8;
    if constexpr (Op == AffineOp::Add)
      setPair<T>(s, in.result, {T(a.base + b.base), T(a.stride + b.stride)});
    else if constexpr (Op == AffineOp::Sub)
      setPair<T>(s, in.result, {T(a.base - b.base), T(a.stride - b.stride)});
    else if constexpr (Op == AffineOp::Mul) // one of the two is uniform
      setPair<T>(s, in.result,
                 {T(a.base * b.base), T(a.stride * b.base + b.stride * a.base)});
    else // ShiftLeft by a uniform count, taken modulo the width as the lanes' is
      setPair<T>(s, in.result,
                 {T(a.base << (b.base & (bits - 1))), T(a.stride << (b.base & (bits - 1)))});
  }
};

template <typename T, AffineOp Op> Handler arithmeticFor(bool aAffine, bool bAffine) {
  using H = Arithmetic<T, Op>;
  if (aAffine)
    return bAffine ? &H::template run<true, true> : &H::template run<true, false>;
  return bAffine ? &H::template run<false, true> : nullptr;
}

// Truncation: the low bytes of base and stride.
template <typename From, typename To> void truncate(const Instruction &in, ExecutionState &s) {
  const Pair<From> a = pairAt<From, true>(s, in.operand[0]);
  setPair<To>(s, in.result, {To(a.base), To(a.stride)});
}

// Widening of a pair whose lanes do not wrap (the lowering proves it): the
// first lane extended, and the stride as the exact difference of the first
// two lanes.
template <typename From, typename To, bool Signed>
void widenPair(const Instruction &in, ExecutionState &s) {
  const Pair<From> a = pairAt<From, true>(s, in.operand[0]);
  auto extend = [](From v) {
    if constexpr (Signed)
      return To(std::make_signed_t<To>(std::make_signed_t<From>(v)));
    else
      return To(v);
  };
  setPair<To>(s, in.result, {extend(a.base), To(extend(From(a.base + a.stride)) - extend(a.base))});
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
  if constexpr (IndexAffine)
    r.stride += index[1] * stride;
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
  T *r = s.reg<T>(in.result);
  const std::uint32_t n = s.span;
  if (s.dense) {
    for (std::uint32_t l = 0; l < n; ++l)
      r[l] = a.at(l);
  } else {
    const std::uint8_t *m = s.active;
    for (std::uint32_t l = 0; l < n; ++l)
      r[l] = blend(m[l], a.at(l), r[l]);
  }
}

// An integer comparison of a pair with a uniform value (either side): the
// Bool of each active lane, without its lane form.
template <typename T, BinaryOp Op, bool AA, bool BA>
void compare(const Instruction &in, ExecutionState &s) {
  const Pair<T> a = pairAt<T, AA>(s, in.operand[0]), b = pairAt<T, BA>(s, in.operand[1]);
  using S = std::make_signed_t<T>;
  auto test = [&](std::uint32_t l) -> std::uint8_t {
    const T x = a.at(l), y = b.at(l);
    using enum BinaryOp;
    if constexpr (Op == IEqual) return x == y;
    else if constexpr (Op == INotEqual) return x != y;
    else if constexpr (Op == ULessThan) return x < y;
    else if constexpr (Op == ULessThanEqual) return x <= y;
    else if constexpr (Op == UGreaterThan) return x > y;
    else if constexpr (Op == UGreaterThanEqual) return x >= y;
    else if constexpr (Op == SLessThan) return S(x) < S(y);
    else if constexpr (Op == SLessThanEqual) return S(x) <= S(y);
    else if constexpr (Op == SGreaterThan) return S(x) > S(y);
    else return S(x) >= S(y);
  };
  std::uint8_t *r = s.reg<std::uint8_t>(in.result);
  const std::uint32_t n = s.span;
  if (s.dense) {
    // An ordering of a sequence that does not wrap within the warp against
    // a constant holds on an interval of lanes that contains the first or
    // the last: when both agree, so do all (a bounds test `i < n`).
    constexpr bool ordering = Op != BinaryOp::IEqual && Op != BinaryOp::INotEqual;
    constexpr bool isSigned = Op == BinaryOp::SLessThan || Op == BinaryOp::SLessThanEqual ||
                              Op == BinaryOp::SGreaterThan || Op == BinaryOp::SGreaterThanEqual;
    if (ordering && n > 0) {
      const Pair<T> p = AA ? a : b;
      const __int128 first = isSigned ? __int128(S(p.base)) : __int128(p.base);
      const __int128 last = first + __int128(S(p.stride)) * (n - 1);
      const __int128 low = isSigned ? __int128(std::numeric_limits<S>::min()) : 0;
      const __int128 high = isSigned ? __int128(std::numeric_limits<S>::max())
                                     : __int128(std::numeric_limits<T>::max());
      if (last >= low && last <= high && test(0) == test(n - 1)) {
        std::memset(r, test(0), n);
        return;
      }
    }
    for (std::uint32_t l = 0; l < n; ++l)
      r[l] = test(l);
  } else {
    const std::uint8_t *m = s.active;
    for (std::uint32_t l = 0; l < n; ++l)
      r[l] = blend(m[l], test(l), r[l]);
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

// The active lanes lie in [first, last) (first == last: none), under a
// partial mask.
inline std::pair<std::uint32_t, std::uint32_t> activeSpan(const ExecutionState &s) {
  std::uint32_t first = 0, last = s.span;
  while (first < last && !s.active[first])
    ++first;
  while (last > first && !s.active[last - 1])
    --last;
  return {first, last};
}

// Between memory, where lane l's `components` elements are at base + l *
// stride, and a varying register, component-major.
template <std::uint32_t Bytes> struct Memory {
  using T = BitsT<Bytes>;

  static void load(const Instruction &in, ExecutionState &s) {
    const Pair<std::uint64_t> p = pairAt<std::uint64_t, true>(s, in.operand[0]);
    T *r = s.reg<T>(in.result);
    const std::uint32_t w = s.width, n = s.span, components = in.components;
    const auto *base = reinterpret_cast<const std::byte *>(p.base);
    if (s.dense && p.stride == std::uint64_t(components) * Bytes) {
      if (components == 1)
        std::memcpy(r, base, std::size_t(n) * Bytes);
      else
        deinterleave<Bytes>(r, base, components, n, w);
      return;
    }
    std::uint32_t done = 0;
#if defined(__SSE2__)
    // Vectors at a stride other than their size (vload4(4 * i + k, p)).
    if (s.dense && components > 1)
      done = transposeBlocks<Bytes, false>(r, const_cast<std::byte *>(base), components, n, w,
                                           std::int64_t(p.stride));
#endif
    if (done) {
      for (std::uint32_t c = 0; c < components; ++c)
        for (std::uint32_t l = done; l < n; ++l)
          std::memcpy(&r[c * w + l], base + std::int64_t(l) * std::int64_t(p.stride) + c * Bytes,
                      Bytes);
      return;
    }
    if (components == 1 && p.stride == Bytes) {
      // Some lanes: the elements between the first and the last active
      // lane's lie in the object both point into, so they are read as one
      // block and blended in.
      const auto [first, last] = activeSpan(s);
      const T *source = reinterpret_cast<const T *>(base);
      for (std::uint32_t l = first; l < last; ++l) {
        T value;
        std::memcpy(&value, source + l, Bytes);
        r[l] = s.active[l] ? value : r[l];
      }
      return;
    }
    for (std::uint32_t c = 0; c < components; ++c) {
      T *rc = r + c * w;
      const std::byte *column = base + std::size_t(c) * Bytes;
      for (std::uint32_t l = 0; l < n; ++l)
        if (s.isActive(l))
          std::memcpy(&rc[l], column + l * p.stride, Bytes);
    }
  }

  template <bool ValueVarying> static void store(const Instruction &in, ExecutionState &s) {
    const Pair<std::uint64_t> p = pairAt<std::uint64_t, true>(s, in.operand[0]);
    const T *value = s.reg<const T>(in.operand[1]);
    const std::uint32_t w = s.width, n = s.span, components = in.components;
    auto *base = reinterpret_cast<std::byte *>(p.base);
    if constexpr (ValueVarying) {
      const std::int64_t stride = std::int64_t(p.stride);
      const std::int64_t size = std::int64_t(components) * Bytes;
      if (s.dense && stride == size) {
        if (components == 1)
          std::memcpy(base, value, std::size_t(n) * Bytes);
        else
          interleave<Bytes>(base, value, components, n, w);
        return;
      }
      if (components == 1 && stride == Bytes) {
        // Some lanes: a run of active lanes is one block; no inactive lane's
        // element is written, not even with what it held.
        const auto [first, last] = activeSpan(s);
        for (std::uint32_t l = first; l < last;) {
          std::uint32_t end = l;
          while (end < last && s.active[end])
            ++end;
          std::memcpy(base + std::size_t(l) * Bytes, value + l, std::size_t(end - l) * Bytes);
          for (l = end; l < last && !s.active[l];)
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
        for (std::uint32_t l = done; l < n; ++l)
          for (std::uint32_t c = 0; c < components; ++c)
            std::memcpy(base + std::int64_t(l) * stride + std::int64_t(c) * Bytes,
                        &value[c * w + l], Bytes);
        return;
      }
#endif
    }
    // Lane by lane, in lane order, as the gather form stores.
    for (std::uint32_t l = 0; l < n; ++l)
      if (s.isActive(l))
        for (std::uint32_t c = 0; c < components; ++c)
          std::memcpy(base + l * p.stride + std::size_t(c) * Bytes,
                      &value[ValueVarying ? c * w + l : c], Bytes);
  }
};

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

Handler affineLoadHandler(std::uint32_t elementBytes) {
  if (elementBytes != 1 && elementBytes != 2 && elementBytes != 4 && elementBytes != 8)
    return nullptr;
  return withElementBytes(elementBytes, [&]<std::uint32_t B>() -> Handler {
    if constexpr (B == 16)
      return nullptr;
    else
      return forIsa<&Memory<B>::load>();
  });
}

Handler affineStoreHandler(std::uint32_t elementBytes, bool valueVarying) {
  if (elementBytes != 1 && elementBytes != 2 && elementBytes != 4 && elementBytes != 8)
    return nullptr;
  return withElementBytes(elementBytes, [&]<std::uint32_t B>() -> Handler {
    if constexpr (B == 16)
      return nullptr;
    else
      return valueVarying ? forIsa<&Memory<B>::template store<true>>()
                          : forIsa<&Memory<B>::template store<false>>();
  });
}

} // namespace lanewise::runtime
