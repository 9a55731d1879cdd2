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

} // namespace

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
