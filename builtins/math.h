// Element functions of the OpenCL.std extended instruction set (OpenCL C 3.0,
// 6.15.2 to 6.15.4), as pure templates over one element. The engine applies
// them to every active lane of a register.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
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
  // One operand.
  Fabs, Sqrt, Rsqrt, Floor, Ceil, Trunc, Round, Rint, Exp, Exp2, Log, Log2, Log10, Sin, Cos, Tan,
  Tanh,
  // Two operands.
  Fmin, Fmax, Pow, Fmod, Copysign, Hypot, Atan2,
  // Three operands.
  Fma, Mad, Mix, FClamp,
  // Integers.
  SMin, SMax, UMin, UMax, SAbs, SClamp, UClamp, Popcount, Clz, Ctz, MulHiS, MulHiU,
};

constexpr int operandCount(Math f) {
  if (f <= Math::Tanh || f == Math::SAbs || f == Math::Popcount || f == Math::Clz ||
      f == Math::Ctz)
    return 1;
  if (f >= Math::Fma && f <= Math::FClamp)
    return 3;
  if (f == Math::SClamp || f == Math::UClamp)
    return 3;
  return 2;
}

constexpr bool isIntegerFunction(Math f) { return f >= Math::SMin; }

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
    else if constexpr (F == Math::Sin)
      return T(std::sin(x));
    else if constexpr (F == Math::Cos)
      return T(std::cos(x));
    else if constexpr (F == Math::Tan)
      return T(std::tan(x));
    else if constexpr (F == Math::Tanh)
      return T(std::tanh(x));
    else
      return value;
  } else {
    using S = std::make_signed_t<T>;
    constexpr int bits = sizeof(T) * 8;
    if constexpr (F == Math::SAbs)
      return T(S(value) < 0 ? T(0) - value : value);
    else if constexpr (F == Math::Popcount)
      return T(__builtin_popcountll(value));
    else if constexpr (F == Math::Clz)
      return T(value == 0 ? bits : __builtin_clzll(value) - (64 - bits));
    else if constexpr (F == Math::Ctz)
      return T(value == 0 ? bits : __builtin_ctzll(value));
    else
      return value;
  }
}

template <typename T> T mulHigh(T a, T b, bool isSigned) {
  constexpr int bits = sizeof(T) * 8;
  if constexpr (sizeof(T) == 8) {
    if (isSigned)
      return T((__int128(std::int64_t(a)) * __int128(std::int64_t(b))) >> 64);
    return T((static_cast<unsigned __int128>(a) * b) >> 64);
  } else {
    using S = std::make_signed_t<T>;
    if (isSigned)
      return T((std::int64_t(S(a)) * std::int64_t(S(b))) >> bits);
    return T((std::uint64_t(a) * std::uint64_t(b)) >> bits);
  }
}

template <Math F, typename T> T apply2(T a, T b) {
  if constexpr (isFloat<T>) {
    using C = Compute<T>;
    const C x = C(a), y = C(b);
    if constexpr (F == Math::Fmin)
      return T(std::fmin(x, y));
    else if constexpr (F == Math::Fmax)
      return T(std::fmax(x, y));
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
    else if constexpr (F == Math::MulHiU)
      return mulHigh(a, b, false);
    else
      return a;
  }
}

template <Math F, typename T> T apply3(T a, T b, T c) {
  if constexpr (isFloat<T>) {
    using C = Compute<T>;
    const C x = C(a), y = C(b), z = C(c);
    if constexpr (F == Math::Fma)
      return T(std::fma(x, y, z));
    else if constexpr (F == Math::Mad)
      return T(x * y + z);
    else if constexpr (F == Math::Mix)
      return T(x + (y - x) * z);
    else if constexpr (F == Math::FClamp)
      return T(std::fmin(std::fmax(x, y), z));
    else
      return a;
  } else {
    using S = std::make_signed_t<T>;
    if constexpr (F == Math::SClamp)
      return T(std::min(std::max(S(a), S(b)), S(c)));
    else if constexpr (F == Math::UClamp)
      return std::min(std::max(a, b), c);
    else
      return a;
  }
}

} // namespace lanewise::builtins
