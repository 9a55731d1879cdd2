// SPDX-License-Identifier: Apache-2.0
// The geometric functions of OpenCL C 3.0, 6.15.5 (OpenCL.std cross,
// distance, length, normalize and their fast_ forms) and SPIR-V's OpDot,
// over vectors of 1 to 4 components. They compute in a wider type (double
// for half and float, long double for double) and round once: the squares
// neither overflow nor underflow there, and the results are well within the
// spec's bounds, also the fast_ forms' 8192 ulps.
#pragma once

#include "builtins/math.h"

#include <cmath>
#include <cstdint>

namespace lanewise::builtins {

enum class Geometric : std::uint8_t { Dot, Length, Distance, Normalize, Cross };

template <typename T> using GeometricWide = Wide<Compute<T>>;

template <typename T> T dot(const T *p, const T *q, std::uint32_t n) {
  GeometricWide<T> sum = 0;
  for (std::uint32_t i = 0; i < n; ++i)
    sum += GeometricWide<T>(p[i]) * GeometricWide<T>(q[i]);
  return T(sum);
}

template <typename T> T length(const T *p, std::uint32_t n) {
  GeometricWide<T> sum = 0;
  for (std::uint32_t i = 0; i < n; ++i)
    sum += GeometricWide<T>(p[i]) * GeometricWide<T>(p[i]);
  return T(std::sqrt(sum));
}

// distance(p0, p1) = length(p0 - p1), the difference taken exactly.
template <typename T> T distance(const T *p, const T *q, std::uint32_t n) {
  GeometricWide<T> sum = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    const GeometricWide<T> d = GeometricWide<T>(p[i]) - GeometricWide<T>(q[i]);
    sum += d * d;
  }
  return T(std::sqrt(sum));
}

// normalize(p) = p / length(p). A zero vector is returned as it is, a
// vector with a NaN gives NaNs, and infinite elements count as ±1 and the
// finite ones as 0 (OpenCL C 3.0, 6.15.5).
template <typename T> void normalize(T *r, const T *p, std::uint32_t n) {
  using W = GeometricWide<T>;
  W v[4];
  bool anyNaN = false, anyInfinite = false, allZero = true;
  for (std::uint32_t i = 0; i < n; ++i) {
    v[i] = W(p[i]);
    anyNaN |= std::isnan(v[i]);
    anyInfinite |= std::isinf(v[i]);
    allZero &= v[i] == 0;
  }
  if (allZero) {
    for (std::uint32_t i = 0; i < n; ++i)
      r[i] = p[i];
    return;
  }
  if (anyNaN) {
    for (std::uint32_t i = 0; i < n; ++i)
      r[i] = T(NAN);
    return;
  }
  if (anyInfinite)
    for (std::uint32_t i = 0; i < n; ++i)
      v[i] = std::isinf(v[i]) ? std::copysign(W(1), v[i]) : W(0) * v[i];
  W sum = 0;
  for (std::uint32_t i = 0; i < n; ++i)
    sum += v[i] * v[i];
  const W norm = std::sqrt(sum);
  for (std::uint32_t i = 0; i < n; ++i)
    r[i] = T(v[i] / norm);
}

// cross(p0, p1) of 3- and 4-component vectors; the fourth is 0.
template <typename T> void cross(T *r, const T *p, const T *q, std::uint32_t n) {
  using W = GeometricWide<T>;
  auto term = [&](int i, int j) { return W(p[i]) * W(q[j]) - W(p[j]) * W(q[i]); };
  r[0] = T(term(1, 2));
  r[1] = T(term(2, 0));
  r[2] = T(term(0, 1));
  if (n == 4)
    r[3] = T(0);
}

} // namespace lanewise::builtins
