// SPDX-License-Identifier: Apache-2.0
// Integer, floating-point, bitwise, logical and comparison instructions
// (SPIR-V 1.4, 3.37.13 to 3.37.15).
#include "runtime/binary_ops.h"
#include "runtime/handlers.h"
#include "runtime/shapes.h"

#include <bit>
#include <cmath>
#include <limits>

namespace lanewise::runtime {

bool producesBool(BinaryOp op) { return op >= BinaryOp::IEqual; }
bool producesBool(UnaryOp op) { return op >= UnaryOp::IsNan; }

namespace {

using namespace binary_ops;

template <typename T, BinaryOp Op> struct Binary {
  using R = decltype(apply<T, Op>(T{}, T{}));
  template <bool RV, bool AV, bool BV> static void run(const Instruction &in, ExecutionState &s) {
    elementwise<RV, AV, BV>(s, s.reg<R>(in.result), s.reg<const T>(in.operand[0]),
                            s.reg<const T>(in.operand[1]), in.components,
                            [](T a, T b) { return apply<T, Op>(a, b); });
  }
};

template <typename T, UnaryOp Op> constexpr bool validUnary() {
  using enum UnaryOp;
  if constexpr (Op == LogicalNot)
    return std::is_same_v<T, std::uint8_t>;
  else if constexpr (Op >= FNegate)
    return isFloat<T>;
  else
    return std::is_integral_v<T>;
}

template <typename T> T reverseBits(T value) {
  T result = 0;
  for (unsigned i = 0; i < sizeof(T) * 8; ++i)
    result = T(result | (((value >> i) & 1) << (sizeof(T) * 8 - 1 - i)));
  return result;
}

template <typename T> bool isNormal(T a) {
  if constexpr (std::is_same_v<T, half>)
    return std::isnormal(float(a)) && std::fabs(float(a)) >= 6.103515625e-05f;
  else
    return std::isnormal(a);
}

template <typename T, UnaryOp Op> inline auto applyUnary(T a) {
  using enum UnaryOp;
  if constexpr (Op == SNegate)
    return T(T(0) - a);
  else if constexpr (Op == Not)
    return T(~a);
  else if constexpr (Op == BitCount) {
    if constexpr (sizeof(T) == 16)
      return T(std::popcount(std::uint64_t(a)) + std::popcount(std::uint64_t(a >> 64)));
    else
      return T(std::popcount(a));
  }
  else if constexpr (Op == BitReverse)
    return reverseBits(a);
  else if constexpr (Op == FNegate)
    return T(-a);
  else if constexpr (Op == QuantizeToF16) {
    // SPIR-V 1.0, OpQuantizeToF16: to the nearest half (RTE); too large
    // becomes an infinity of the same sign, too small for a normal half
    // +0 or -0 (here: the sign kept), NaN stays NaN.
    const half h = half(a);
    return isNormal(h) || isNan(h) || isNan(h - h) ? T(h) : std::signbit(double(a)) ? T(-0.0) : T(0);
  }
  else if constexpr (Op == IsNan)
    return std::uint8_t(isNan(a));
  else if constexpr (Op == IsInf)
    return std::uint8_t(!isNan(a) && isNan(a - a));
  else if constexpr (Op == IsFinite)
    return std::uint8_t(!isNan(a - a));
  else if constexpr (Op == IsNormal)
    return std::uint8_t(isNormal(a));
  else if constexpr (Op == SignBitSet)
    return std::uint8_t(std::signbit(double(a)));
  else
    return std::uint8_t(!a);
}

template <typename T, UnaryOp Op> struct Unary {
  using R = decltype(applyUnary<T, Op>(T{}));
  template <bool RV, bool AV> static void run(const Instruction &in, ExecutionState &s) {
    elementwise<RV, AV>(s, s.reg<R>(in.result), s.reg<const T>(in.operand[0]), in.components,
                        [](T a) { return applyUnary<T, Op>(a); });
  }
};

template <BinaryOp Op> Handler binaryFor(Scalar type, const Shape &shape) {
  return withScalar(type, [&]<Scalar S>() -> Handler {
    using T = ScalarT<S>;
    if constexpr (validBinary<T, Op>() && (S != Scalar::Bool || Op >= BinaryOp::LogicalEqual))
      return shaped2<Binary<T, Op>>(shape);
    else
      return nullptr;
  });
}

template <UnaryOp Op> Handler unaryFor(Scalar type, const Shape &shape) {
  return withScalar(type, [&]<Scalar S>() -> Handler {
    using T = ScalarT<S>;
    if constexpr (validUnary<T, Op>() && (S != Scalar::Bool || Op == UnaryOp::LogicalNot))
      return shaped1<Unary<T, Op>>(shape);
    else
      return nullptr;
  });
}

template <std::uint32_t Bytes> struct Select {
  using T = BitsT<Bytes>;
  template <bool RV, bool CV, bool AV, bool BV>
  static void run(const Instruction &in, ExecutionState &s) {
    const std::uint8_t *condition = s.reg<const std::uint8_t>(in.operand[0]);
    const T *a = s.reg<const T>(in.operand[1]);
    const T *b = s.reg<const T>(in.operand[2]);
    T *r = s.reg<T>(in.result);
    const bool scalarCondition = in.aux != 0;
    const std::uint32_t w = s.width, n = s.span;
    for (std::uint32_t c = 0; c < in.components; ++c) {
      const std::uint8_t *cc = condition + (scalarCondition ? 0 : (CV ? c * w : c));
      const T *ac = a + (AV ? c * w : c);
      const T *bc = b + (BV ? c * w : c);
      if constexpr (!RV) {
        r[c] = cc[0] ? ac[0] : bc[0];
      } else {
        T *rc = r + c * w;
        // Two loops, so that each is a blend the compiler vectorises: both
        // operands are read on every lane (a read under the condition is
        // not one the compiler may make unconditional).
        if (s.contiguous) {
          for (std::uint32_t l = s.begin; l < n; ++l) {
            const T x = ac[AV ? l : 0], y = bc[BV ? l : 0];
            rc[l] = cc[CV ? l : 0] ? x : y;
          }
        } else {
          const std::uint8_t *m = s.active;
          for (std::uint32_t l = s.begin; l < n; ++l) {
            const T x = ac[AV ? l : 0], y = bc[BV ? l : 0];
            rc[l] = blend(m[l], cc[CV ? l : 0] ? x : y, rc[l]);
          }
        }
      }
    }
  }
};

template <bool All> struct AnyAll {
  template <bool RV, bool AV> static void run(const Instruction &in, ExecutionState &s) {
    const std::uint8_t *v = s.reg<const std::uint8_t>(in.operand[0]);
    std::uint8_t *r = s.reg<std::uint8_t>(in.result);
    const std::uint32_t w = s.width;
    auto reduce = [&](std::uint32_t lane) {
      bool value = All;
      for (std::uint32_t c = 0; c < in.aux; ++c) {
        const bool element = v[AV ? c * w + lane : c] != 0;
        value = All ? value && element : value || element;
      }
      return std::uint8_t(value);
    };
    if constexpr (!RV)
      r[0] = reduce(0);
    else
      forActiveLanes(s, [&](std::uint32_t l) { r[l] = reduce(l); });
  }
};

template <typename T> struct Wide;
template <> struct Wide<std::uint8_t> {
  using type = std::uint16_t;
  using signedType = std::int16_t;
};
template <> struct Wide<std::uint16_t> {
  using type = std::uint32_t;
  using signedType = std::int32_t;
};
template <> struct Wide<std::uint32_t> {
  using type = std::uint64_t;
  using signedType = std::int64_t;
};
template <> struct Wide<std::uint64_t> {
  using type = unsigned __int128;
  using signedType = __int128;
};

template <typename T, ExtendedOp Op> struct Extended {
  template <bool RV, bool AV, bool BV> static void run(const Instruction &in, ExecutionState &s) {
    using W = typename Wide<T>::type;
    using SW = typename Wide<T>::signedType;
    constexpr unsigned bits = sizeof(T) * 8;
    const T *a = s.reg<const T>(in.operand[0]);
    const T *b = s.reg<const T>(in.operand[1]);
    T *low = s.reg<T>(in.result);
    T *high = s.reg<T>(static_cast<std::uint32_t>(in.immediate));
    const std::uint32_t w = s.width;
    auto compute = [&](std::uint32_t i, std::uint32_t ia, std::uint32_t ib) {
      const T x = a[ia], y = b[ib];
      if constexpr (Op == ExtendedOp::IAddCarry) {
        low[i] = T(x + y);
        high[i] = T(low[i] < x);
      } else if constexpr (Op == ExtendedOp::ISubBorrow) {
        low[i] = T(x - y);
        high[i] = T(x < y);
      } else if constexpr (Op == ExtendedOp::UMulExtended) {
        const W product = W(x) * W(y);
        low[i] = T(product);
        high[i] = T(product >> bits);
      } else {
        const SW product = SW(std::make_signed_t<T>(x)) * SW(std::make_signed_t<T>(y));
        low[i] = T(product);
        high[i] = T(W(product) >> bits);
      }
    };
    for (std::uint32_t c = 0; c < in.components; ++c) {
      if constexpr (!RV)
        compute(c, c, c);
      else
        forActiveLanes(s, [&](std::uint32_t l) {
          compute(c * w + l, AV ? c * w + l : c, BV ? c * w + l : c);
        });
    }
  }
};

} // namespace

Handler binaryHandler(BinaryOp op, Scalar type, const Shape &shape) {
  switch (op) {
#define LANEWISE_BINARY(name)                                                                      \
  case BinaryOp::name:                                                                             \
    return binaryFor<BinaryOp::name>(type, shape);
    LANEWISE_BINARY(IAdd)
    LANEWISE_BINARY(ISub)
    LANEWISE_BINARY(IMul)
    LANEWISE_BINARY(UDiv)
    LANEWISE_BINARY(SDiv)
    LANEWISE_BINARY(UMod)
    LANEWISE_BINARY(SRem)
    LANEWISE_BINARY(SMod)
    LANEWISE_BINARY(ShiftLeftLogical)
    LANEWISE_BINARY(ShiftRightLogical)
    LANEWISE_BINARY(ShiftRightArithmetic)
    LANEWISE_BINARY(BitwiseAnd)
    LANEWISE_BINARY(BitwiseOr)
    LANEWISE_BINARY(BitwiseXor)
    LANEWISE_BINARY(FAdd)
    LANEWISE_BINARY(FSub)
    LANEWISE_BINARY(FMul)
    LANEWISE_BINARY(FDiv)
    LANEWISE_BINARY(FRem)
    LANEWISE_BINARY(FMod)
    LANEWISE_BINARY(IEqual)
    LANEWISE_BINARY(INotEqual)
    LANEWISE_BINARY(UGreaterThan)
    LANEWISE_BINARY(SGreaterThan)
    LANEWISE_BINARY(UGreaterThanEqual)
    LANEWISE_BINARY(SGreaterThanEqual)
    LANEWISE_BINARY(ULessThan)
    LANEWISE_BINARY(SLessThan)
    LANEWISE_BINARY(ULessThanEqual)
    LANEWISE_BINARY(SLessThanEqual)
    LANEWISE_BINARY(FOrdEqual)
    LANEWISE_BINARY(FUnordEqual)
    LANEWISE_BINARY(FOrdNotEqual)
    LANEWISE_BINARY(FUnordNotEqual)
    LANEWISE_BINARY(FOrdLessThan)
    LANEWISE_BINARY(FUnordLessThan)
    LANEWISE_BINARY(FOrdGreaterThan)
    LANEWISE_BINARY(FUnordGreaterThan)
    LANEWISE_BINARY(FOrdLessThanEqual)
    LANEWISE_BINARY(FUnordLessThanEqual)
    LANEWISE_BINARY(FOrdGreaterThanEqual)
    LANEWISE_BINARY(FUnordGreaterThanEqual)
    LANEWISE_BINARY(LessOrGreater)
    LANEWISE_BINARY(Ordered)
    LANEWISE_BINARY(Unordered)
    LANEWISE_BINARY(LogicalEqual)
    LANEWISE_BINARY(LogicalNotEqual)
    LANEWISE_BINARY(LogicalAnd)
    LANEWISE_BINARY(LogicalOr)
#undef LANEWISE_BINARY
  }
  return nullptr;
}

Handler unaryHandler(UnaryOp op, Scalar type, const Shape &shape) {
  switch (op) {
#define LANEWISE_UNARY(name)                                                                       \
  case UnaryOp::name:                                                                              \
    return unaryFor<UnaryOp::name>(type, shape);
    LANEWISE_UNARY(SNegate)
    LANEWISE_UNARY(Not)
    LANEWISE_UNARY(BitCount)
    LANEWISE_UNARY(BitReverse)
    LANEWISE_UNARY(FNegate)
    LANEWISE_UNARY(QuantizeToF16)
    LANEWISE_UNARY(IsNan)
    LANEWISE_UNARY(IsInf)
    LANEWISE_UNARY(IsFinite)
    LANEWISE_UNARY(IsNormal)
    LANEWISE_UNARY(SignBitSet)
    LANEWISE_UNARY(LogicalNot)
#undef LANEWISE_UNARY
  }
  return nullptr;
}

Handler selectHandler(std::uint32_t elementBytes, const Shape &shape) {
  return withElementBytes(elementBytes,
                          [&]<std::uint32_t B>() { return shaped3<Select<B>>(shape); });
}

Handler anyAllHandler(bool all, const Shape &shape) {
  return all ? shaped1<AnyAll<true>>(shape) : shaped1<AnyAll<false>>(shape);
}

Handler extendedHandler(ExtendedOp op, Scalar type, const Shape &shape) {
  return withScalar(type, [&]<Scalar S>() -> Handler {
    using T = ScalarT<S>;
    if constexpr (std::is_integral_v<T> && S != Scalar::Bool && S != Scalar::I128) {
      switch (op) {
      case ExtendedOp::IAddCarry:
        return shaped2<Extended<T, ExtendedOp::IAddCarry>>(shape);
      case ExtendedOp::ISubBorrow:
        return shaped2<Extended<T, ExtendedOp::ISubBorrow>>(shape);
      case ExtendedOp::UMulExtended:
        return shaped2<Extended<T, ExtendedOp::UMulExtended>>(shape);
      case ExtendedOp::SMulExtended:
        return shaped2<Extended<T, ExtendedOp::SMulExtended>>(shape);
      }
    }
    return nullptr;
  });
}

} // namespace lanewise::runtime
