// SPDX-License-Identifier: Apache-2.0
// Checking floating-point results against the OpenCL C 3.0 accuracy
// requirements (section 7.4): errors in ulps of the result type, measured
// against a reference held in long double (x87, 64-bit significand), and
// exact comparisons where a result is prescribed (section 7.5).
#pragma once

#include "mismatches.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>

namespace lanewise::test {

template <typename T> struct Fp;
template <> struct Fp<float> {
  using Bits = std::uint32_t;
  static constexpr int mantissa = 24; // significand bits, the implicit one included
  static constexpr int minExponent = -126, maxExponent = 127;
  static constexpr const char *name = "float";
};
template <> struct Fp<double> {
  using Bits = std::uint64_t;
  static constexpr int mantissa = 53;
  static constexpr int minExponent = -1022, maxExponent = 1023;
  static constexpr const char *name = "double";
};

template <typename T> typename Fp<T>::Bits bitsOf(T value) {
  typename Fp<T>::Bits bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}
template <typename T> T fromBits(typename Fp<T>::Bits bits) {
  T value;
  std::memcpy(&value, &bits, sizeof bits);
  return value;
}

template <typename T> std::string show(T value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*g (%a)", std::numeric_limits<T>::max_digits10, double(value),
                double(value));
  return text;
}
inline std::string showLong(long double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.21Lg", value);
  return text;
}

// The same value: bit for bit (zeros by sign), any NaN matching any NaN.
template <typename T> bool same(T got, T want) {
  if (std::isnan(want))
    return std::isnan(got);
  return bitsOf(got) == bitsOf(want);
}

// ulp(x) of T as the spec defines it (7.4), for the exponent of x: the gap
// between the floating-point numbers around x, that of the denormals below
// the smallest normal, and beyond the largest finite T as if T had the range.
template <typename T> long double ulpOf(long double x) {
  int exponent = x == 0 ? Fp<T>::minExponent : std::ilogb(x);
  if (exponent < Fp<T>::minExponent)
    exponent = Fp<T>::minExponent;
  return std::ldexp(1.0L, exponent - (Fp<T>::mantissa - 1));
}

// The error of `got` in ulps of T from the reference `ref`. An infinite
// result counts as 2^(maxExponent + 1), the next number past the largest
// finite one (7.4: overflow within the allowed error is permitted), and is
// exact where ref itself rounds to that infinity. An infinite or NaN
// reference must be matched exactly.
template <typename T> double ulpError(T got, long double ref) {
  constexpr double never = std::numeric_limits<double>::infinity();
  if (std::isnan(ref))
    return std::isnan(got) ? 0 : never;
  if (std::isnan(got))
    return never;
  if (std::isinf(ref))
    return got == ref ? 0 : never;
  long double value = got;
  if (std::isinf(got)) {
    if (std::isinf(T(ref)) && std::signbit(got) == std::signbit(ref))
      return 0;
    value = std::copysign(std::ldexp(1.0L, Fp<T>::maxExponent + 1), (long double)got);
  }
  return double(std::fabs(value - ref) / ulpOf<T>(ref));
}

} // namespace lanewise::test
