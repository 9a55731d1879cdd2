// SPDX-License-Identifier: Apache-2.0
// References for binary16 (IEEE 754 half precision), written from its
// definition: 1 sign bit, 5 exponent bits (bias 15), 10 fraction bits.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace lanewise::test {

// The float a half's bits stand for (exactly).
inline float halfToFloat(std::uint16_t h) {
  const int exponent = (h >> 10) & 31, fraction = h & 1023;
  double v;
  if (exponent == 0)
    v = std::ldexp(double(fraction), -24); // zero or denormal
  else if (exponent == 31)
    v = fraction ? NAN : INFINITY;
  else
    v = std::ldexp(double(1024 + fraction), exponent - 25);
  return float((h & 0x8000) ? -v : v);
}
inline bool halfIsNan(std::uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }

enum Rounding { RTE, RTZ, RTP, RTN };
// x (a float or double, exactly as a double) rounded to binary16.
inline std::uint16_t toHalf(double x, Rounding mode) {
  if (std::isnan(x))
    return 0x7e00;
  const bool negative = std::signbit(x);
  const std::uint16_t sign = negative ? 0x8000 : 0;
  const double a = std::fabs(x);
  if (std::isinf(a))
    return sign | 0x7c00;
  if (a == 0)
    return sign;
  // Past the largest half: infinity when rounding away from zero (to
  // nearest, or towards the sign's infinity), else the largest half.
  const bool awayOnOverflow =
      mode == RTE || (mode == RTP && !negative) || (mode == RTN && negative);
  const std::uint16_t overflow = sign | (awayOnOverflow ? 0x7c00 : 0x7bff);
  int e2;
  std::frexp(a, &e2);
  int e = e2 - 1; // 2^e <= a < 2^(e + 1)
  if (e > 15)
    return overflow;
  const int quantumExponent = std::max(e, -14) - 10;     // the spacing of halves near a
  const double scaled = std::ldexp(a, -quantumExponent); // exact
  const double whole = std::floor(scaled), fraction = scaled - whole;
  bool up = false;
  switch (mode) {
  case RTE:
    up = fraction > 0.5 || (fraction == 0.5 && std::fmod(whole, 2.0) == 1.0);
    break;
  case RTZ:
    break;
  case RTP:
    up = fraction > 0 && !negative;
    break;
  case RTN:
    up = fraction > 0 && negative;
    break;
  }
  std::uint32_t m = std::uint32_t(whole) + up; // a rounds to m 2^quantumExponent
  if (e < -14)
    return sign | std::uint16_t(m); // denormal (m = 1024: the smallest normal)
  if (m == 2048)
    m = 1024, ++e;
  if (e > 15)
    return overflow;
  return sign | std::uint16_t((e + 15) << 10) | std::uint16_t(m - 1024);
}

} // namespace lanewise::test
