// SPDX-License-Identifier: Apache-2.0
// Element functions of the OpenCL.std extended instruction set (OpenCL C 3.0,
// 6.15.2 to 6.15.4), as pure templates over one element. The engine applies
// them to every active lane of a register.
//
// Accuracy: each function is computed by the C library in the element's
// own precision or wider, with the specification's special values handled
// explicitly (powr, rootn, fract, remquo's 7-bit quotient, fmin and fmax
// with signalling NaNs, lgamma_r's sign). Double sin and cos use long
// double: glibc's double cos is 8 ulp off for some arguments. Half is
// computed in float (Compute) and rounded once to half, denormals
// included: for + - * / and sqrt that is the correctly rounded result
// (float's 24 bits are at least 2 x 11 + 2). fma and mad on half must
// not round twice: fmaHalf adds the exact double product to c and rounds
// the sum to odd before rounding it to half. The native_ and half_ forms
// and -cl-fast-relaxed-math use the full-precision functions, which meet
// their bounds. The tests compare with MPFR (tests/kernels/math_*_test.cpp).
//
// Adding a function: its enumerator in Math, in the group of its arity
// (operandCount depends on the order), its case in apply1, apply2 or
// apply3, its mapping in spirv/lower_extended.cpp (openclStdFunction) and
// its LANEWISE_MATH line in runtime/exec_math.cpp (docs/contributing.md).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace lanewise::builtins {

using half = _Float16;

template <typename T> constexpr bool isFloat = std::is_floating_point_v<T> || std::is_same_v<T, half>;

// fclamp is fmin(fmax(x, minval), maxval) (OpenCL C 3.0, 6.15.4).
// Half precision is computed in single precision and rounded once, which is
// exact for the correctly rounded operations and within the spec's bounds
// for the others.
template <typename T> using Compute = std::conditional_t<std::is_same_v<T, half>, float, T>;

enum class Math : std::uint8_t {
  // One floating-point operand.
  Fabs, Sqrt, Rsqrt, Floor, Ceil, Trunc, Round, Rint, Exp, Exp2, Exp10, Expm1, Log, Log2, Log10,
  Log1p, Logb, Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Tanh, Asinh, Acosh, Atanh, Sinpi,
  Cospi, Tanpi, Asinpi, Acospi, Atanpi, Cbrt, Erf, Erfc, Tgamma, Lgamma, Recip, Degrees, Radians,
  FrexpMantissa, ModfFraction, Fract, Sign,
  // Two floating-point operands.
  Fmin, Fmax, Pow, Fmod, Copysign, Hypot, Atan2, Atan2pi, Fdim, Maxmag, Minmag, Remainder,
  Nextafter, Divide, Step, Powr,
  // Three floating-point operands.
  Fma, Mad, Mix, FClamp, Smoothstep,
  // Integers, one operand.
  SAbs, UAbs, Popcount, Clz, Ctz,
  // Integers, two operands.
  SMin, SMax, UMin, UMax, MulHiS, MulHiU, SAbsDiff, UAbsDiff, SAddSat, UAddSat, SSubSat, USubSat,
  SHadd, UHadd, SRhadd, URhadd, SMul24, UMul24, Rotate,
  // Integers, three operands.
  SClamp, UClamp, SMadHi, UMadHi, SMadSat, UMadSat, SMad24, UMad24,
};

constexpr int operandCount(Math f) {
  if (f <= Math::Sign || (f >= Math::SAbs && f <= Math::Ctz))
    return 1;
  if ((f >= Math::Fma && f <= Math::Smoothstep) || f >= Math::SClamp)
    return 3;
  return 2;
}

constexpr bool isIntegerFunction(Math f) { return f >= Math::SAbs; }
// Functions defined only for 32-bit integers (mad24, mul24).
constexpr bool only32Bit(Math f) {
  return f == Math::SMul24 || f == Math::UMul24 || f == Math::SMad24 || f == Math::UMad24;
}

// A wider type to compute in where T's own precision or range would not do:
// double for half and float, long double (64-bit significand) for double.
template <typename T> using Wide = std::conditional_t<sizeof(T) == 8, long double, double>;

// sin(pi x) and cos(pi x) in Wide<C>, exact at integers and half-integers.
// x is reduced exactly to a in [0, 1/4] (remainder, reflections about 1/2
// and 1/4) before the multiplication by pi, so the result has the wide
// type's relative accuracy even next to the zeros: sin(pi x) for x a few ulp
// from an integer is not computed as the sine of a rounded pi x.
template <typename C> Wide<C> sinpiWide(C x) {
  using W = Wide<C>;
  if (std::isinf(x))
    return W(NAN);
  const C r = std::remainder(x, C(2)); // in [-1, 1]
  if (r == 0 || std::fabs(r) == 1)
    return std::copysign(W(0), W(x));
  C a = std::fabs(r);
  if (a > C(0.5))
    a = C(1) - a; // sin(pi a) = sin(pi (1 - a)); exact
  const W pi = W(3.14159265358979323846264338327950288L);
  const W s = a <= C(0.25) ? std::sin(W(a) * pi) : std::cos(W(C(0.5) - a) * pi);
  return std::copysign(s, W(r));
}
template <typename C> Wide<C> cospiWide(C x) {
  using W = Wide<C>;
  if (std::isinf(x))
    return W(NAN);
  C a = std::fabs(std::remainder(x, C(2))); // in [0, 1]
  if (a == C(0.5))
    return W(0);
  if (a == 0)
    return W(1);
  if (a == 1)
    return W(-1);
  W sign = 1;
  if (a > C(0.5)) { // cos(pi a) = -cos(pi (1 - a)); exact
    a = C(1) - a;
    sign = -1;
  }
  const W pi = W(3.14159265358979323846264338327950288L);
  const W c = a <= C(0.25) ? std::cos(W(a) * pi) : std::sin(W(C(0.5) - a) * pi);
  return sign * c;
}

// sin(pi x), exact at integers and half-integers.
template <typename C> C sinpi(C x) { return C(sinpiWide(x)); }

// cos(pi x), exact at integers and half-integers.
template <typename C> C cospi(C x) { return C(cospiWide(x)); }

// tan(pi x) = sin(pi x) / cos(pi x), rounded once: ±0 at integers (the sign
// of x for even, the opposite for odd ones), ±inf at half-integers.
template <typename C> C tanpi(C x) { return C(sinpiWide(x) / cospiWide(x)); }

// fmax / fmin (OpenCL C 3.0, 6.15.2): if one argument is a NaN, the other
// argument, whether the NaN is quiet or signalling (the C library's fmax and
// fmin return a NaN for a signalling one); a quiet NaN if both are NaNs.
template <typename C> C fmaxNumber(C x, C y) {
  if (x != x)
    return y != y ? x + y : y;
  return y != y ? x : std::fmax(x, y);
}
template <typename C> C fminNumber(C x, C y) {
  if (x != x)
    return y != y ? x + y : y;
  return y != y ? x : std::fmin(x, y);
}

template <typename T> T nextAfter(T a, T b) {
  if constexpr (std::is_same_v<T, half>) {
    std::uint16_t bits, target;
    std::memcpy(&bits, &a, 2);
    std::memcpy(&target, &b, 2);
    if (a != a || b != b)
      return T(a + b);
    if (a == b)
      return b;
    if (a == 0) {
      std::uint16_t tiny = (target & 0x8000) | 1;
      T r;
      std::memcpy(&r, &tiny, 2);
      return r;
    }
    bits = ((a < b) == (a > 0)) ? bits + 1 : bits - 1;
    T r;
    std::memcpy(&r, &bits, 2);
    return r;
  } else {
    return std::nextafter(a, b);
  }
}

// The functions whose operands or result differ in type from T, the
// floating-point (or, for upsample, integer) type they are instantiated for.
// Each computes one output: a function with a pointer output (frexp,
// lgamma_r, remquo) is two functions, the result and the stored value.
enum class MixedMath : std::uint8_t {
  Ilogb,          // T -> int
  FrexpExponent,  // T -> int: the exponent frexp stores
  LgammaSign,     // T -> int: the sign of gamma(x) lgamma_r stores
  RemquoQuotient, // (T, T) -> int: the quotient bits remquo stores
  Ldexp,          // (T, int) -> T
  Pown,           // (T, int) -> T
  Rootn,          // (T, int) -> T
  Nan,            // the unsigned integer of T's width -> T
  Upsample,       // (T, T) -> the integer of twice T's width
};

// ilogb; OpenCL C defines FP_ILOGB0 as INT_MIN and FP_ILOGBNAN as INT_MAX.
template <typename T> std::int32_t ilogb(T value) {
  const Compute<T> x = value;
  if (x != x || std::isinf(x))
    return std::numeric_limits<std::int32_t>::max();
  if (x == 0)
    return std::numeric_limits<std::int32_t>::min();
  return std::ilogb(x); // a half denormal is a normal float: its true exponent
}

// frexp: x = mantissa * 2^exponent, |mantissa| in [0.5, 1); ±0, ±inf and NaN
// return themselves with exponent 0 (OpenCL C 3.0, 7.5.1).
template <typename T> T frexpMantissa(T value) {
  const Compute<T> x = value;
  if (x == 0 || !std::isfinite(x))
    return value;
  int exponent;
  return T(std::frexp(x, &exponent));
}
template <typename T> std::int32_t frexpExponent(T value) {
  const Compute<T> x = value;
  if (x == 0 || !std::isfinite(x))
    return 0;
  int exponent;
  std::frexp(x, &exponent);
  return exponent;
}

// modf: the fractional part, with x's sign; modf(±inf) = ±0 (the integral
// part, stored, is trunc(x)).
template <typename T> T modfFraction(T value) {
  Compute<T> integral;
  return T(std::modf(Compute<T>(value), &integral));
}

// fract: fmin(x - floor(x), the largest T below 1); fract(±0) = ±0,
// fract(±inf) = ±0, fract(NaN) = NaN (the value stored is floor(x)).
template <typename T> T fract(T value) {
  using C = Compute<T>;
  const C x = value;
  if (x == 0 || x != x)
    return value;
  if (std::isinf(x))
    return T(std::copysign(C(0), x));
  const T difference = T(x - std::floor(x)); // exact in C; rounded once to T
  const T belowOne = nextAfter(T(1), T(0));
  return difference < belowOne ? difference : belowOne;
}

// lgamma_r's sign of gamma(x); 0 where x is zero or a negative integer, the
// poles of gamma (OpenCL C 3.0, 7.5.1).
template <typename T> std::int32_t lgammaSign(T value) {
  const Compute<T> x = value;
  if (x == 0 || (x < 0 && std::isfinite(x) && x == std::floor(x)))
    return 0;
  int sign = 1;
  if constexpr (sizeof(Compute<T>) == 8)
    ::lgamma_r(double(value), &sign);
  else
    ::lgammaf_r(float(value), &sign);
  return sign;
}

// remquo's quotient: the sign of x / y and the 7 low bits of the magnitude
// of the integral quotient (rounded to nearest even, as remainder's); 0
// where the remainder is NaN (OpenCL C 3.0, 6.15.2 and 7.5.1).
template <typename T> std::int32_t remquoQuotient(T a, T b) {
  using C = Compute<T>;
  const C x = a, y = b;
  if (x != x || y != y || std::isinf(x) || y == 0)
    return 0;
  // |x| = m * 128|y| + r with r in [0, 128|y|) leaves the quotient's 7 low
  // bits unchanged (128m is even). 128|y| may overflow: then r = |x|.
  const C magnitude = std::fabs(y);
  const C r = std::fmod(std::fabs(x), magnitude * C(128));
  const C remainder = std::remainder(r, magnitude);
  // r - remainder = k|y| exactly with k <= 128: exact in the wider type.
  const auto k = static_cast<std::int32_t>(
                     std::llround((Wide<C>(r) - Wide<C>(remainder)) / Wide<C>(magnitude))) &
                 127;
  return std::signbit(x) != std::signbit(y) ? -k : k;
}

// pown: x^n for an integer n, with pow's special values (pown(x, 0) = 1).
template <typename T> T pown(T value, std::int32_t n) {
  return T(std::pow(Wide<Compute<T>>(value), Wide<Compute<T>>(n)));
}

// rootn: x^(1/n) (OpenCL C 3.0, 7.5.1): NaN for n = 0 and for x < 0 with n
// even; rootn(±0, n) is ±inf (n < 0 odd), +inf (n < 0 even), ±0 (n > 0
// odd), +0 (n > 0 even).
template <typename T> T rootn(T value, std::int32_t n) {
  using C = Compute<T>;
  const C x = value;
  const bool odd = n % 2 != 0;
  if (n == 0 || x != x || (x < 0 && !odd))
    return T(NAN);
  if (x == 0) {
    if (n < 0)
      return T(odd ? std::copysign(C(INFINITY), x) : C(INFINITY));
    return T(odd ? x : C(0));
  }
  const auto magnitude = std::pow(Wide<C>(std::fabs(x)), Wide<C>(1) / Wide<C>(n));
  return T(std::copysign(C(magnitude), x));
}

// powr: x^y for x >= 0 (OpenCL C 3.0, 7.5.1): NaN for x < 0, for
// powr(±0, ±0), powr(+inf, ±0), powr(+1, ±inf) and NaN operands;
// powr(±0, y < 0) = +inf, powr(±0, y > 0) = +0; powr(+1, finite y) = 1.
template <typename T> T powr(T a, T b) {
  using C = Compute<T>;
  const C x = a, y = b;
  if (x != x || y != y || x < 0)
    return T(NAN);
  if (x == 0)
    return y == 0 ? T(NAN) : y < 0 ? T(INFINITY) : T(0);
  if (std::isinf(x) && y == 0)
    return T(NAN);
  if (x == 1)
    return std::isinf(y) ? T(NAN) : T(1);
  return T(std::pow(x, y));
}

// nan(nancode): a quiet NaN carrying nancode in its significand.
template <typename T, typename U> T nanWithCode(U code) {
  constexpr int mantissaBits = sizeof(T) == 2 ? 10 : sizeof(T) == 4 ? 23 : 52;
  constexpr int exponentBits = int(sizeof(T)) * 8 - 1 - mantissaBits;
  const U quiet = U(1) << (mantissaBits - 1);
  const U exponent = U((U(1) << exponentBits) - 1) << mantissaBits;
  const U bits = U(exponent | quiet | (code & (quiet - 1)));
  T result;
  std::memcpy(&result, &bits, sizeof result);
  return result;
}

template <typename T> T mulHigh(T a, T b, bool isSigned);

template <typename T> T madSat(T a, T b, T c, bool isSigned) {
  using S = std::make_signed_t<T>;
  if constexpr (sizeof(T) < 8) {
    const __int128 r = isSigned ? __int128(S(a)) * S(b) + S(c) : __int128(a) * b + c;
    const __int128 low = isSigned ? std::numeric_limits<S>::min() : 0;
    const __int128 high = isSigned ? __int128(std::numeric_limits<S>::max())
                                   : __int128(std::numeric_limits<T>::max());
    return T(std::clamp(r, low, high));
  } else {
    if (!isSigned) {
      const unsigned __int128 p = static_cast<unsigned __int128>(a) * b;
      const unsigned __int128 r = p + c;
      return (p >> 64) || (r >> 64) || r < p ? std::numeric_limits<T>::max() : T(r);
    }
    const __int128 p = __int128(S(a)) * __int128(S(b)); // fits: |p| < 2^126
    const __int128 r = p + S(c);
    const __int128 low = std::numeric_limits<S>::min(), high = std::numeric_limits<S>::max();
    return T(S(std::clamp(r, low, high)));
  }
}

// The high half of the full product of a and b. The signed one is derived
// from the unsigned one, mulhs(a, b) = mulhu(a, b) - (a < 0 ? b : 0) -
// (b < 0 ? a : 0) modulo 2^n, not computed as (wide)(S)a * (wide)(S)b >> n:
// GCC 12 vectorises that form of unsigned registers as an unsigned high
// multiply (pmulhuw for 16-bit lanes), which gave the unsigned result.
template <typename T> T mulHigh(T a, T b, bool isSigned) {
  constexpr int bits = sizeof(T) * 8;
  using W = std::conditional_t<sizeof(T) == 8, unsigned __int128, std::uint64_t>;
  const T high = T((W(a) * W(b)) >> bits);
  if (!isSigned)
    return high;
  using S = std::make_signed_t<T>;
  return T(high - (S(a) < 0 ? b : T(0)) - (S(b) < 0 ? a : T(0)));
}

// fma on half, correctly rounded (OpenCL C 3.0, 7.4). The product of two
// halves is exact in double, but the sum with c may not be, and rounding that
// sum to double and then to half could round twice. The sum is rounded to
// odd instead (toward zero, the last bit set when inexact): a double rounded
// to odd rounds to half as the exact sum does, having 53 >= 11 + 2 bits.
inline half fmaHalf(half a, half b, half c) {
  const double p = double(a) * double(b), z = double(c);
  const double s = p + z;
  if (!std::isfinite(s))
    return half(s);
  // TwoSum: s + error = p + z exactly.
  const double zPart = s - p;
  const double error = (p - (s - zPart)) + (z - zPart);
  if (error == 0)
    return half(s);
  const double truncated = (error > 0) == (s > 0) ? s : std::nextafter(s, 0.0);
  std::uint64_t bits;
  std::memcpy(&bits, &truncated, 8);
  bits |= 1;
  double odd;
  std::memcpy(&odd, &bits, 8);
  return half(odd);
}

template <Math F, typename T> T apply1(T value) {
  if constexpr (isFloat<T>) {
    using C = Compute<T>;
    const C x = C(value);
    if constexpr (F == Math::Fabs)
      return T(std::fabs(x));
    else if constexpr (F == Math::Sqrt)
      return T(std::sqrt(x));
    else if constexpr (F == Math::Rsqrt)
      return T(C(1) / std::sqrt(x));
    else if constexpr (F == Math::Floor)
      return T(std::floor(x));
    else if constexpr (F == Math::Ceil)
      return T(std::ceil(x));
    else if constexpr (F == Math::Trunc)
      return T(std::trunc(x));
    else if constexpr (F == Math::Round)
      return T(std::round(x));
    else if constexpr (F == Math::Rint)
      return T(std::rint(x));
    else if constexpr (F == Math::Exp)
      return T(std::exp(x));
    else if constexpr (F == Math::Exp2)
      return T(std::exp2(x));
    else if constexpr (F == Math::Log)
      return T(std::log(x));
    else if constexpr (F == Math::Log2)
      return T(std::log2(x));
    else if constexpr (F == Math::Log10)
      return T(std::log10(x));
    // Double sine, cosine and tangent go through long double: glibc's sin
    // and cos err by up to 8 ulp where x is within 2^-61 of a multiple of
    // pi / 2, and OpenCL C 3.0 (7.4) allows 4; its tan errs by 14 ulp at
    // 0x1.6ac5b262ca1ffp+849, where 5 are allowed.
    else if constexpr (F == Math::Sin)
      return T(sizeof(C) == 8 ? C(std::sin((long double)x)) : std::sin(x));
    else if constexpr (F == Math::Cos)
      return T(sizeof(C) == 8 ? C(std::cos((long double)x)) : std::cos(x));
    else if constexpr (F == Math::Tan)
      return T(sizeof(C) == 8 ? C(std::tan((long double)x)) : std::tan(x));
    else if constexpr (F == Math::Tanh)
      return T(std::tanh(x));
    else if constexpr (F == Math::Exp10)
      return T(std::pow(C(10), x));
    else if constexpr (F == Math::Expm1)
      return T(std::expm1(x));
    else if constexpr (F == Math::Log1p)
      return T(std::log1p(x));
    else if constexpr (F == Math::Logb)
      return T(std::logb(x));
    else if constexpr (F == Math::Asin)
      return T(std::asin(x));
    else if constexpr (F == Math::Acos)
      return T(std::acos(x));
    else if constexpr (F == Math::Atan)
      return T(std::atan(x));
    else if constexpr (F == Math::Sinh)
      return T(std::sinh(x));
    else if constexpr (F == Math::Cosh)
      return T(std::cosh(x));
    else if constexpr (F == Math::Asinh)
      return T(std::asinh(x));
    else if constexpr (F == Math::Acosh)
      return T(std::acosh(x));
    else if constexpr (F == Math::Atanh)
      return T(std::atanh(x));
    else if constexpr (F == Math::Sinpi)
      return T(sinpi(x));
    else if constexpr (F == Math::Cospi)
      return T(cospi(x));
    else if constexpr (F == Math::Tanpi)
      return T(tanpi(x));
    else if constexpr (F == Math::Asinpi)
      return T(std::asin(x) / C(M_PI));
    else if constexpr (F == Math::Acospi)
      return T(std::acos(x) / C(M_PI));
    else if constexpr (F == Math::Atanpi)
      return T(std::atan(x) / C(M_PI));
    else if constexpr (F == Math::Cbrt)
      // glibc's double cbrt errs by up to 3 ulp (2 allowed): long double.
      return T(sizeof(C) == 8 ? C(std::cbrt((long double)x)) : std::cbrt(x));
    else if constexpr (F == Math::Erf)
      return T(std::erf(x));
    else if constexpr (F == Math::Erfc)
      return T(std::erfc(x));
    else if constexpr (F == Math::Tgamma)
      return T(std::tgamma(x));
    else if constexpr (F == Math::Lgamma) {
      // The reentrant forms: lgamma itself stores the sign in the global
      // signgam, a data race between the threads that run work-groups.
      int sign = 0;
      if constexpr (sizeof(C) == 8)
        return T(::lgamma_r(double(x), &sign));
      else
        return T(::lgammaf_r(float(x), &sign));
    }
    else if constexpr (F == Math::Recip)
      return T(C(1) / x);
    else if constexpr (F == Math::Degrees)
      return T(x * C(180.0 / M_PI));
    else if constexpr (F == Math::Radians)
      return T(x * C(M_PI / 180.0));
    else if constexpr (F == Math::FrexpMantissa)
      return frexpMantissa(value);
    else if constexpr (F == Math::ModfFraction)
      return modfFraction(value);
    else if constexpr (F == Math::Fract)
      return fract(value);
    // sign: 1.0 for x > 0, -0.0 / +0.0 for ±0, -1.0 for x < 0, 0.0 for NaN.
    else if constexpr (F == Math::Sign)
      return T(x > 0 ? C(1) : x < 0 ? C(-1) : x == 0 ? x : C(0));
    else
      return value;
  } else {
    using S = std::make_signed_t<T>;
    constexpr int bits = sizeof(T) * 8;
    if constexpr (F == Math::SAbs)
      return T(S(value) < 0 ? T(0) - value : value);
    else if constexpr (F == Math::Popcount)
      return T(__builtin_popcountll(value));
    else if constexpr (F == Math::UAbs)
      return value;
    else if constexpr (F == Math::Clz)
      return T(value == 0 ? bits : __builtin_clzll(value) - (64 - bits));
    else if constexpr (F == Math::Ctz)
      return T(value == 0 ? bits : __builtin_ctzll(value));
    else
      return value;
  }
}

template <Math F, typename T> T apply2(T a, T b) {
  if constexpr (isFloat<T>) {
    using C = Compute<T>;
    const C x = C(a), y = C(b);
    if constexpr (F == Math::Fmin)
      return T(fminNumber(x, y));
    else if constexpr (F == Math::Fmax)
      return T(fmaxNumber(x, y));
    else if constexpr (F == Math::Pow)
      return T(std::pow(x, y));
    else if constexpr (F == Math::Fmod)
      return T(std::fmod(x, y));
    else if constexpr (F == Math::Copysign)
      return T(std::copysign(x, y));
    else if constexpr (F == Math::Hypot)
      return T(std::hypot(x, y));
    else if constexpr (F == Math::Atan2)
      return T(std::atan2(x, y));
    else if constexpr (F == Math::Atan2pi)
      return T(std::atan2(x, y) / C(M_PI));
    else if constexpr (F == Math::Fdim)
      return T(x != x || y != y ? x + y : x > y ? x - y : C(0));
    // maxmag / minmag: the argument of larger / smaller magnitude, else fmax / fmin.
    else if constexpr (F == Math::Maxmag)
      return T(std::fabs(x) > std::fabs(y) ? x : std::fabs(y) > std::fabs(x) ? y : fmaxNumber(x, y));
    else if constexpr (F == Math::Minmag)
      return T(std::fabs(x) < std::fabs(y) ? x : std::fabs(y) < std::fabs(x) ? y : fminNumber(x, y));
    else if constexpr (F == Math::Remainder)
      return T(std::remainder(x, y));
    else if constexpr (F == Math::Nextafter)
      return nextAfter(a, b);
    else if constexpr (F == Math::Divide)
      return T(x / y);
    // step(edge, x): 0.0 if x < edge, else 1.0.
    else if constexpr (F == Math::Step)
      return T(y < x ? C(0) : C(1));
    else if constexpr (F == Math::Powr)
      return powr(a, b);
    else
      return a;
  } else {
    using S = std::make_signed_t<T>;
    if constexpr (F == Math::SMin)
      return S(a) < S(b) ? a : b;
    else if constexpr (F == Math::SMax)
      return S(a) > S(b) ? a : b;
    else if constexpr (F == Math::UMin)
      return a < b ? a : b;
    else if constexpr (F == Math::UMax)
      return a > b ? a : b;
    else if constexpr (F == Math::MulHiS)
      return mulHigh(a, b, true);
    else if constexpr (F == Math::SAbsDiff)
      return S(a) > S(b) ? T(a - b) : T(b - a);
    else if constexpr (F == Math::UAbsDiff)
      return a > b ? T(a - b) : T(b - a);
    else if constexpr (F == Math::SAddSat || F == Math::SSubSat) {
      using W = __int128;
      const W r = F == Math::SAddSat ? W(S(a)) + W(S(b)) : W(S(a)) - W(S(b));
      return T(S(std::clamp<W>(r, std::numeric_limits<S>::min(), std::numeric_limits<S>::max())));
    } else if constexpr (F == Math::UAddSat)
      return T(a + b) < a ? std::numeric_limits<T>::max() : T(a + b);
    else if constexpr (F == Math::USubSat)
      return a < b ? T(0) : T(a - b);
    // hadd / rhadd: (x + y) >> 1 and (x + y + 1) >> 1 without overflow.
    else if constexpr (F == Math::SHadd)
      return T(S(S(a) >> 1) + S(S(b) >> 1) + S(a & b & 1));
    else if constexpr (F == Math::UHadd)
      return T((a >> 1) + (b >> 1) + (a & b & 1));
    else if constexpr (F == Math::SRhadd)
      return T(S(S(a) >> 1) + S(S(b) >> 1) + S((a | b) & 1));
    else if constexpr (F == Math::URhadd)
      return T((a >> 1) + (b >> 1) + ((a | b) & 1));
    // mul24: the low 24 bits of each operand (sign-extended for the signed form).
    else if constexpr (F == Math::SMul24)
      return T(std::int32_t(a << 8) >> 8) * T(std::int32_t(b << 8) >> 8);
    else if constexpr (F == Math::UMul24)
      return T((a & 0xFFFFFF) * (b & 0xFFFFFF));
    else if constexpr (F == Math::Rotate) {
      constexpr unsigned bits = sizeof(T) * 8;
      const unsigned n = unsigned(b) & (bits - 1);
      return n == 0 ? a : T((a << n) | (a >> (bits - n)));
    } else if constexpr (F == Math::MulHiU)
      return mulHigh(a, b, false);
    else
      return a;
  }
}

template <Math F, typename T> T apply3(T a, T b, T c) {
  if constexpr (isFloat<T>) {
    using C = Compute<T>;
    const C x = C(a), y = C(b), z = C(c);
    // mad on half is fma: one rounding (a product and a sum in float would
    // round the sum to float and then to half).
    if constexpr ((F == Math::Fma || F == Math::Mad) && std::is_same_v<T, half>)
      return fmaHalf(a, b, c);
    else if constexpr (F == Math::Fma)
      return T(std::fma(x, y, z));
    else if constexpr (F == Math::Mad)
      return T(x * y + z);
    else if constexpr (F == Math::Mix)
      return T(x + (y - x) * z);
    else if constexpr (F == Math::FClamp)
      return T(fminNumber(fmaxNumber(x, y), z));
    // smoothstep(edge0, edge1, x): t * t * (3 - 2t), t = clamp((x - e0) / (e1 - e0), 0, 1).
    else if constexpr (F == Math::Smoothstep) {
      const C t = std::fmin(std::fmax((z - x) / (y - x), C(0)), C(1));
      return T(t * t * (C(3) - C(2) * t));
    }
    else
      return a;
  } else {
    using S = std::make_signed_t<T>;
    if constexpr (F == Math::SClamp)
      return T(std::min(std::max(S(a), S(b)), S(c)));
    else if constexpr (F == Math::SMadHi)
      return T(mulHigh(a, b, true) + c);
    else if constexpr (F == Math::UMadHi)
      return T(mulHigh(a, b, false) + c);
    else if constexpr (F == Math::SMadSat || F == Math::UMadSat) {
      // The exact a * b + c, saturated (64-bit products need 128 bits and more:
      // compute the product's sign and magnitude separately).
      return madSat<T>(a, b, c, F == Math::SMadSat);
    } else if constexpr (F == Math::SMad24)
      return T(apply2<Math::SMul24>(a, b) + c);
    else if constexpr (F == Math::UMad24)
      return T(apply2<Math::UMul24>(a, b) + c);
    else if constexpr (F == Math::UClamp)
      return std::min(std::max(a, b), c);
    else
      return a;
  }
}

} // namespace lanewise::builtins
