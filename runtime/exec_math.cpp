// SPDX-License-Identifier: Apache-2.0
// OpenCL.std element functions: the builtins/ functions applied to every
// active lane, one instance per function, type and shape.
#include "builtins/math.h"
#include "runtime/handlers.h"
#include "runtime/shapes.h"

namespace lanewise::runtime {

namespace {

using builtins::Math;

template <Math F, typename T> struct Element1 {
  template <bool RV, bool AV> static void run(const Instruction &in, ExecutionState &s) {
    elementwise<RV, AV>(s, s.reg<T>(in.result), s.reg<const T>(in.operand[0]), in.components,
                        [](T a) { return builtins::apply1<F>(a); });
  }
};

template <Math F, typename T> struct Element2 {
  template <bool RV, bool AV, bool BV> static void run(const Instruction &in, ExecutionState &s) {
    elementwise<RV, AV, BV>(s, s.reg<T>(in.result), s.reg<const T>(in.operand[0]),
                            s.reg<const T>(in.operand[1]), in.components,
                            [](T a, T b) { return builtins::apply2<F>(a, b); });
  }
};

template <Math F, typename T> struct Element3 {
  template <bool RV, bool AV, bool BV, bool CV>
  static void run(const Instruction &in, ExecutionState &s) {
    elementwise<RV, AV, BV, CV>(s, s.reg<T>(in.result), s.reg<const T>(in.operand[0]),
                                s.reg<const T>(in.operand[1]), s.reg<const T>(in.operand[2]),
                                in.components,
                                [](T a, T b, T c) { return builtins::apply3<F>(a, b, c); });
  }
};

template <Math F> Handler forFunction(Scalar type, const Shape &shape) {
  return withScalar(type, [&]<Scalar S>() -> Handler {
    using T = ScalarT<S>;
    constexpr bool integer = builtins::isIntegerFunction(F);
    if constexpr (S == Scalar::Bool || S == Scalar::I128 || integer != std::is_integral_v<T> ||
                  (builtins::only32Bit(F) && S != Scalar::I32)) {
      return nullptr;
    } else {
      constexpr int arity = builtins::operandCount(F);
      if constexpr (arity == 1)
        return shaped1<Element1<F, T>>(shape);
      else if constexpr (arity == 2)
        return shaped2<Element2<F, T>>(shape);
      else
        return shaped3<Element3<F, T>>(shape);
    }
  });
}

// The element types of a MixedMath function instantiated for T.
template <builtins::MixedMath F, typename T> struct MixedTypes {
  using R = T;
  using A = T;
  using B = std::uint32_t; // ldexp, pown, rootn: an int
};
template <typename T> struct MixedTypes<builtins::MixedMath::Ilogb, T> {
  using R = std::uint32_t;
  using A = T;
};
template <typename T> struct MixedTypes<builtins::MixedMath::FrexpExponent, T>
    : MixedTypes<builtins::MixedMath::Ilogb, T> {};
template <typename T> struct MixedTypes<builtins::MixedMath::LgammaSign, T>
    : MixedTypes<builtins::MixedMath::Ilogb, T> {};
template <typename T> struct MixedTypes<builtins::MixedMath::RemquoQuotient, T> {
  using R = std::uint32_t;
  using A = T;
  using B = T;
};
template <typename T> struct MixedTypes<builtins::MixedMath::Nan, T> {
  using R = T;
  using A = BitsT<sizeof(T)>;
};
template <typename T> struct MixedTypes<builtins::MixedMath::Upsample, T> {
  using R = BitsT<2 * sizeof(T)>;
  using A = T;
  using B = T;
};

template <builtins::MixedMath F, typename T> struct Mixed1 {
  using Types = MixedTypes<F, T>;
  using R = typename Types::R;
  using A = typename Types::A;
  static R apply(A a) {
    using builtins::MixedMath;
    if constexpr (F == MixedMath::Ilogb)
      return R(builtins::ilogb(a));
    else if constexpr (F == MixedMath::FrexpExponent)
      return R(builtins::frexpExponent(a));
    else if constexpr (F == MixedMath::LgammaSign)
      return R(builtins::lgammaSign(a));
    else
      return builtins::nanWithCode<T>(a);
  }
  template <bool RV, bool AV> static void run(const Instruction &in, ExecutionState &s) {
    elementwise<RV, AV>(s, s.reg<R>(in.result), s.reg<const A>(in.operand[0]), in.components,
                        apply);
  }
};

template <builtins::MixedMath F, typename T> struct Mixed2 {
  using Types = MixedTypes<F, T>;
  using R = typename Types::R;
  using A = typename Types::A;
  using B = typename Types::B;
  static R apply(A a, B b) {
    using builtins::MixedMath;
    if constexpr (F == MixedMath::RemquoQuotient)
      return R(builtins::remquoQuotient(a, b));
    else if constexpr (F == MixedMath::Ldexp)
      return T(std::ldexp(builtins::Compute<T>(a), std::int32_t(b)));
    else if constexpr (F == MixedMath::Pown)
      return builtins::pown(a, std::int32_t(b));
    else if constexpr (F == MixedMath::Rootn)
      return builtins::rootn(a, std::int32_t(b));
    else // upsample(hi, lo) = hi << bits | lo, the same bits for either signedness
      return R(R(a) << (8 * sizeof(T)) | R(b));
  }
  template <bool RV, bool AV, bool BV> static void run(const Instruction &in, ExecutionState &s) {
    elementwise<RV, AV, BV>(s, s.reg<R>(in.result), s.reg<const A>(in.operand[0]),
                            s.reg<const B>(in.operand[1]), in.components, apply);
  }
};

} // namespace

Handler mixedMathHandler(builtins::MixedMath function, Scalar type, const Shape &shape) {
  using builtins::MixedMath;
  return withScalar(type, [&]<Scalar S>() -> Handler {
    using T = ScalarT<S>;
    if constexpr (S == Scalar::Bool || S == Scalar::I128 || S == Scalar::I64) {
      return nullptr;
    } else if constexpr (!isFloat<T>) {
      return function == MixedMath::Upsample ? shaped2<Mixed2<MixedMath::Upsample, T>>(shape)
                                             : nullptr;
    } else {
      switch (function) {
      case MixedMath::Ilogb:
        return shaped1<Mixed1<MixedMath::Ilogb, T>>(shape);
      case MixedMath::FrexpExponent:
        return shaped1<Mixed1<MixedMath::FrexpExponent, T>>(shape);
      case MixedMath::LgammaSign:
        return shaped1<Mixed1<MixedMath::LgammaSign, T>>(shape);
      case MixedMath::Nan:
        return shaped1<Mixed1<MixedMath::Nan, T>>(shape);
      case MixedMath::RemquoQuotient:
        return shaped2<Mixed2<MixedMath::RemquoQuotient, T>>(shape);
      case MixedMath::Ldexp:
        return shaped2<Mixed2<MixedMath::Ldexp, T>>(shape);
      case MixedMath::Pown:
        return shaped2<Mixed2<MixedMath::Pown, T>>(shape);
      case MixedMath::Rootn:
        return shaped2<Mixed2<MixedMath::Rootn, T>>(shape);
      case MixedMath::Upsample:
        return nullptr;
      }
      return nullptr;
    }
  });
}

Handler mathHandler(Math function, Scalar type, const Shape &shape) {
  switch (function) {
#define LANEWISE_MATH(name)                                                                        \
  case Math::name:                                                                                 \
    return forFunction<Math::name>(type, shape);
    LANEWISE_MATH(Fabs)
    LANEWISE_MATH(Sqrt)
    LANEWISE_MATH(Rsqrt)
    LANEWISE_MATH(Floor)
    LANEWISE_MATH(Ceil)
    LANEWISE_MATH(Trunc)
    LANEWISE_MATH(Round)
    LANEWISE_MATH(Rint)
    LANEWISE_MATH(Exp)
    LANEWISE_MATH(Exp2)
    LANEWISE_MATH(Exp10)
    LANEWISE_MATH(Expm1)
    LANEWISE_MATH(Log)
    LANEWISE_MATH(Log2)
    LANEWISE_MATH(Log10)
    LANEWISE_MATH(Log1p)
    LANEWISE_MATH(Logb)
    LANEWISE_MATH(Sin)
    LANEWISE_MATH(Cos)
    LANEWISE_MATH(Tan)
    LANEWISE_MATH(Asin)
    LANEWISE_MATH(Acos)
    LANEWISE_MATH(Atan)
    LANEWISE_MATH(Sinh)
    LANEWISE_MATH(Cosh)
    LANEWISE_MATH(Tanh)
    LANEWISE_MATH(Asinh)
    LANEWISE_MATH(Acosh)
    LANEWISE_MATH(Atanh)
    LANEWISE_MATH(Sinpi)
    LANEWISE_MATH(Cospi)
    LANEWISE_MATH(Tanpi)
    LANEWISE_MATH(Asinpi)
    LANEWISE_MATH(Acospi)
    LANEWISE_MATH(Atanpi)
    LANEWISE_MATH(Cbrt)
    LANEWISE_MATH(Erf)
    LANEWISE_MATH(Erfc)
    LANEWISE_MATH(Tgamma)
    LANEWISE_MATH(Lgamma)
    LANEWISE_MATH(Recip)
    LANEWISE_MATH(Degrees)
    LANEWISE_MATH(Radians)
    LANEWISE_MATH(FrexpMantissa)
    LANEWISE_MATH(ModfFraction)
    LANEWISE_MATH(Fract)
    LANEWISE_MATH(Sign)
    LANEWISE_MATH(Fmin)
    LANEWISE_MATH(Fmax)
    LANEWISE_MATH(Pow)
    LANEWISE_MATH(Fmod)
    LANEWISE_MATH(Copysign)
    LANEWISE_MATH(Hypot)
    LANEWISE_MATH(Atan2)
    LANEWISE_MATH(Atan2pi)
    LANEWISE_MATH(Fdim)
    LANEWISE_MATH(Maxmag)
    LANEWISE_MATH(Minmag)
    LANEWISE_MATH(Remainder)
    LANEWISE_MATH(Nextafter)
    LANEWISE_MATH(Divide)
    LANEWISE_MATH(Step)
    LANEWISE_MATH(Powr)
    LANEWISE_MATH(Fma)
    LANEWISE_MATH(Mad)
    LANEWISE_MATH(Mix)
    LANEWISE_MATH(FClamp)
    LANEWISE_MATH(Smoothstep)
    LANEWISE_MATH(SAbs)
    LANEWISE_MATH(UAbs)
    LANEWISE_MATH(Popcount)
    LANEWISE_MATH(Clz)
    LANEWISE_MATH(Ctz)
    LANEWISE_MATH(SMin)
    LANEWISE_MATH(SMax)
    LANEWISE_MATH(UMin)
    LANEWISE_MATH(UMax)
    LANEWISE_MATH(MulHiS)
    LANEWISE_MATH(MulHiU)
    LANEWISE_MATH(SAbsDiff)
    LANEWISE_MATH(UAbsDiff)
    LANEWISE_MATH(SAddSat)
    LANEWISE_MATH(UAddSat)
    LANEWISE_MATH(SSubSat)
    LANEWISE_MATH(USubSat)
    LANEWISE_MATH(SHadd)
    LANEWISE_MATH(UHadd)
    LANEWISE_MATH(SRhadd)
    LANEWISE_MATH(URhadd)
    LANEWISE_MATH(SMul24)
    LANEWISE_MATH(UMul24)
    LANEWISE_MATH(Rotate)
    LANEWISE_MATH(SClamp)
    LANEWISE_MATH(UClamp)
    LANEWISE_MATH(SMadHi)
    LANEWISE_MATH(UMadHi)
    LANEWISE_MATH(SMadSat)
    LANEWISE_MATH(UMadSat)
    LANEWISE_MATH(SMad24)
    LANEWISE_MATH(UMad24)
#undef LANEWISE_MATH
  }
  return nullptr;
}

} // namespace lanewise::runtime
