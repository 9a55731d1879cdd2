// SPDX-License-Identifier: Apache-2.0
// The geometric functions (OpenCL C 3.0, 6.15.5; kernels in cl/geometric.cl):
// length, distance, dot (SPIR-V OpDot), normalize and cross for float and
// double, and fast_length, fast_distance and fast_normalize for float, of 1
// to 4 components. References are computed in long double (where the
// squares of float and double components and their sums are off by a few
// parts in 2^64 at most, and neither overflow nor underflow) and results
// held to the bounds of 7.4: length 2.75 + 0.5n ulp (double 5.5 + n),
// distance 2.5 + 2n (5.5 + 2n), normalize 2 + n (4.5 + n) per component,
// dot max * max * (2n - 1) * FLT_EPSILON and cross max * max * 3 *
// FLT_EPSILON absolutely (max the largest operand magnitude; the table
// gives FLT_EPSILON for double too), fast_length 8191.5 + n, fast_distance
// 8191.5 + 2n, fast_normalize 8192 + n. length, distance and normalize must
// neither overflow nor lose precision to underflow (7.5), so their operands
// span the whole exponent range; normalize's zero, NaN and infinite
// operands follow 7.5. The fast_ forms, undefined where the sum of squares
// leaves [FLT_MIN, FLT_MAX], and dot and cross get operands of moderate
// magnitude.
#include "fp_check.h"
#include "harness.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace lanewise::test {
namespace {

using Random = std::mt19937_64;
constexpr size_t M = 8192; // vectors per slot

class GeometricFixture : public SharedContextTest {
protected:
  cl_kernel cachedKernel(const std::string &name, const std::string &variant) {
    return SharedContextTest::cachedKernel("geometric", name, variant);
  }
};

struct Param {
  bool isDouble;
  int width;
  const char *variant;
};
void PrintTo(const Param &p, std::ostream *os) {
  *os << (p.isDouble ? "double" : "float") << p.width << (*p.variant ? " -O0" : " -O2");
}
std::string paramName(const ::testing::TestParamInfo<Param> &info) {
  return std::string(info.param.isDouble ? "double" : "float") +
         (info.param.width > 1 ? std::to_string(info.param.width) : "") +
         (*info.param.variant ? "_O0" : "_O2");
}
std::vector<Param> params() {
  std::vector<Param> out;
  for (const char *variant : {"", "-O0"})
    for (bool isDouble : {false, true})
      for (int w = 1; w <= 4; ++w)
        out.push_back({isDouble, w, variant});
  return out;
}

template <typename T> T inBinades(Random &random, int low, int high) {
  const int e = low + int(random() % unsigned(high - low + 1));
  constexpr int fraction = Fp<T>::mantissa - 1;
  const T m = T(1) + T(std::ldexp(double(random() >> (64 - fraction)), -fraction)); // [1, 2)
  const T x = T(std::ldexp(m, e));
  return (random() & 1) ? -x : x;
}
template <typename T> T anyFinite(Random &random) {
  using Bits = typename Fp<T>::Bits;
  constexpr int fraction = Fp<T>::mantissa - 1;
  const Bits biased = Bits(random() % (2 * Fp<T>::maxExponent + 1));
  return fromBits<T>((Bits(random() & 1) << (8 * sizeof(T) - 1)) | (biased << fraction) |
                     (Bits(random()) & ((Bits(1) << fraction) - 1)));
}

// Operands: four slots of M vectors of n components, packed.
template <typename T> struct Operands {
  int n;
  std::vector<T> data;
  explicit Operands(int width) : n(width), data(4 * M * width) {}
  T *vec(int slot, size_t i) { return &data[(slot * M + i) * n]; }
  const T *vec(int slot, size_t i) const { return &data[(slot * M + i) * n]; }
};

template <typename T> Operands<T> makeOperands(int n, std::uint64_t seed) {
  using L = std::numeric_limits<T>;
  Random random(seed);
  Operands<T> o(n);
  const T inf = L::infinity(), nan = L::quiet_NaN(), max = L::max(), tiny = L::denorm_min(),
          minNormal = L::min();
  // p0 vectors with special components (the first n of each row), each with
  // a q0 (empty: random).
  struct Row {
    std::vector<T> p, q;
  };
  const std::vector<Row> rows = {
      {{0, 0, 0, 0}, {}},
      {{T(-0.0), 0, T(-0.0), T(-0.0)}, {}},
      {{T(-0.0), T(-0.0), T(-0.0), T(-0.0)}, {T(-0.0), 0, 0, 0}},
      {{nan, 1, 2, 3}, {}},
      {{1, nan, T(-0.0), 0}, {}},
      {{0, 0, 0, nan}, {}},
      {{inf, 2, -3, T(0.5)}, {}},
      {{-inf, T(-0.0), 1, 0}, {}},
      {{inf, -inf, 0, -5}, {}},
      {{1, 2, -inf, T(-0.0)}, {}},
      {{T(-7), -inf, inf, -inf}, {}},
      {{max, max, max, max}, {}},
      {{max, max, max, max}, {-max, -max, -max, -max}},
      {{max, -max, max / 2, 1}, {}},
      {{tiny, tiny, tiny, tiny}, {0, 0, 0, 0}},
      {{tiny, 0, -3 * tiny, 0}, {-tiny, 0, 0, tiny}},
      {{minNormal, -minNormal, minNormal, minNormal}, {}},
      {{max, tiny, 1, -1}, {}},
      {{3, 4, 0, 0}, {0, 0, 0, 0}},
      {{3, -4, 12, 0}, {3, -4, 12, 0}},
      {{1, 1, 1, 1}, {}},
      {{T(1e-30), T(-1e-30), T(2e-30), 0}, {}},
  };
  for (size_t i = 0; i < M; ++i) {
    T *p = o.vec(0, i), *q = o.vec(1, i), *p1 = o.vec(2, i), *q1 = o.vec(3, i);
    const bool nearBase = random() & 1;
    const int base = int(random() % (2 * Fp<T>::maxExponent + Fp<T>::mantissa)) -
                     (Fp<T>::maxExponent + Fp<T>::mantissa - 3);
    for (int c = 0; c < n; ++c) {
      auto full = [&] {
        if (random() % 16 == 0)
          return T(0);
        if (!nearBase)
          return anyFinite<T>(random);
        const int low = std::clamp(base - 10, Fp<T>::minExponent - 20, Fp<T>::maxExponent);
        return inBinades<T>(random, low, std::clamp(base + 10, low, Fp<T>::maxExponent));
      };
      p[c] = i < rows.size() ? rows[i].p[c] : full();
      q[c] = i < rows.size() && !rows[i].q.empty() ? rows[i].q[c] : full();
      // Moderate operands: exponents in [-40, 40], some zeros and small
      // integers; the first vectors zero, then equal.
      auto moderate = [&] {
        const int r = int(random() % 10);
        return r == 0 ? T(0) : r == 1 ? T(int(random() % 17) - 8) : inBinades<T>(random, -40, 40);
      };
      p1[c] = i == 0 ? T(0) : moderate();
      q1[c] = i == 0 ? T(0) : i == 1 ? p1[c] : moderate();
    }
  }
  return o;
}

template <typename T> T sentinel() {
  if constexpr (sizeof(T) == 4)
    return fromBits<float>(0x7fa5a5a5u);
  else
    return fromBits<double>(0x7ff5a5a5a5a5a5a5ull);
}

template <typename T> std::string showVector(const T *v, int n) {
  std::string s = "(";
  for (int c = 0; c < n; ++c)
    s += (c ? ", " : "") + show(v[c]);
  return s + ")";
}

struct Classes {
  bool nan = false, inf = false, zero = true;
};
template <typename T> Classes classify(const long double *v, int n) {
  Classes k;
  for (int c = 0; c < n; ++c) {
    k.nan |= std::isnan(v[c]);
    k.inf |= std::isinf(v[c]);
    k.zero &= v[c] == 0;
  }
  return k;
}
long double sumOfSquares(const long double *v, int n) {
  long double sum = 0;
  for (int c = 0; c < n; ++c)
    sum += v[c] * v[c];
  return sum;
}

// A scalar result held to an ulp bound; NaN and infinite references exact.
// `anything` for operands the spec leaves open.
template <typename T>
void checkUlps(Mismatches &bad, T got, long double ref, double tolerance, bool anything,
               double *maxError, const std::function<std::string()> &operands) {
  if (anything)
    return;
  const double error = ulpError(got, ref);
  if (error <= tolerance) {
    if (std::isfinite(error))
      *maxError = std::max(*maxError, error);
    return;
  }
  bad.add([&] {
    std::ostringstream s;
    s << operands() << ": got " << show(got) << ", want " << showLong(ref) << " within "
      << tolerance << " ulp (error " << error << ")";
    return s.str();
  });
}

class GeometricFunctions : public GeometricFixture, public ::testing::WithParamInterface<Param> {
protected:
  template <typename T> void check();
};

template <typename T> void GeometricFunctions::check() {
  const Param p = GetParam();
  const int n = p.width;
  const bool isFloat = sizeof(T) == 4;
  const std::string name = std::string("geometric_") + Fp<T>::name + std::to_string(n);
  const std::string label = name + p.variant;
  cl_kernel k = cachedKernel(name, p.variant);
  ASSERT_NE(k, nullptr);
  const Operands<T> o = makeOperands<T>(n, 0x9e0 + 16 * n + sizeof(T));
  cl_mem A = buffer(o.data);
  cl_mem R = buffer(std::vector<T>(5 * M, sentinel<T>()));
  cl_mem W = buffer(std::vector<T>(3 * n * M, sentinel<T>()));
  const cl_uint m = cl_uint(M);
  setArgs(k, A, R, W, m);
  run(k, {M});
  const std::vector<T> r = read<T>(R, 5 * M), w = read<T>(W, 3 * n * M);

  const double lengthUlps = isFloat ? 2.75 + 0.5 * n : 5.5 + n;
  const double distanceUlps = isFloat ? 2.5 + 2 * n : 5.5 + 2 * n;
  const double normalizeUlps = isFloat ? 2.0 + n : 4.5 + n;
  Mismatches badLength(label + " length"), badDistance(label + " distance"), badDot(label + " dot"),
      badNormalize(label + " normalize"), badFastLength(label + " fast_length"),
      badFastDistance(label + " fast_distance"), badFastNormalize(label + " fast_normalize"),
      badCross(label + " cross");
  double maxLength = 0, maxDistance = 0, maxNormalize = 0, maxFastLength = 0, maxFastDistance = 0,
         maxFastNormalize = 0;

  for (size_t i = 0; i < M; ++i) {
    const T *p0 = o.vec(0, i), *q0 = o.vec(1, i), *p1 = o.vec(2, i), *q1 = o.vec(3, i);
    long double a[4], d[4], b[4], e[4], f[4];
    for (int c = 0; c < n; ++c) {
      a[c] = p0[c];
      d[c] = (long double)p0[c] - q0[c];
      b[c] = p1[c];
      e[c] = q1[c];
      f[c] = (long double)p1[c] - q1[c];
    }
    auto operands1 = [&] { return "vector " + std::to_string(i) + " p " + showVector(p0, n); };
    auto operands2 = [&] { return operands1() + " q " + showVector(q0, n); };
    auto moderate1 = [&] { return "vector " + std::to_string(i) + " p " + showVector(p1, n); };
    auto moderate2 = [&] { return moderate1() + " q " + showVector(q1, n); };

    // length and distance: sqrt of the sum of squares; NaN for a NaN
    // component, +inf for an infinite one (both at once: not checked).
    auto norm = [&](const long double *v) {
      const Classes k = classify<T>(v, n);
      if (k.nan && k.inf)
        return std::pair<long double, bool>{0, true};
      if (k.nan)
        return std::pair<long double, bool>{NAN, false};
      if (k.inf)
        return std::pair<long double, bool>{INFINITY, false};
      return std::pair<long double, bool>{std::sqrt(sumOfSquares(v, n)), false};
    };
    const auto [lengthRef, lengthOpen] = norm(a);
    checkUlps(badLength, r[i], lengthRef, lengthUlps, lengthOpen, &maxLength, operands1);
    const auto [distanceRef, distanceOpen] = norm(d);
    checkUlps(badDistance, r[M + i], distanceRef, distanceUlps, distanceOpen, &maxDistance,
              operands2);

    // dot and cross: absolute bounds in max * max * FLT_EPSILON.
    long double largest = 0;
    for (int c = 0; c < n; ++c)
      largest = std::max({largest, std::fabs(b[c]), std::fabs(e[c])});
    {
      long double ref = 0;
      for (int c = 0; c < n; ++c)
        ref += b[c] * e[c];
      const long double bound = largest * largest * (2 * n - 1) * FLT_EPSILON;
      if (!(std::fabs((long double)r[2 * M + i] - ref) <= bound))
        badDot.add([&] {
          std::ostringstream s;
          s << moderate2() << ": got " << show(r[2 * M + i]) << ", want " << showLong(ref)
            << " within " << showLong(bound);
          return s.str();
        });
    }
    if (n >= 3) {
      long double crossLargest = 0;
      for (int c = 0; c < 3; ++c)
        crossLargest = std::max({crossLargest, std::fabs(b[c]), std::fabs(e[c])});
      const long double want[4] = {b[1] * e[2] - b[2] * e[1], b[2] * e[0] - b[0] * e[2],
                                   b[0] * e[1] - b[1] * e[0], 0};
      const long double bound = crossLargest * crossLargest * 3 * FLT_EPSILON;
      for (int c = 0; c < n; ++c) {
        const T got = w[2 * n * M + i * n + c];
        // The fourth component of a 4-component cross product is 0.
        const bool ok = c == 3 ? got == 0 : std::fabs((long double)got - want[c]) <= bound;
        if (!ok)
          badCross.add([&] {
            std::ostringstream s;
            s << moderate2() << " component " << c << ": got " << show(got) << ", want "
              << showLong(want[c]) << " within " << showLong(c == 3 ? 0 : bound);
            return s.str();
          });
      }
    }

    // normalize (7.5): a zero vector is returned as it is, a NaN component
    // makes every component NaN, infinite components count as ±1 and the
    // others as 0 * v (zeros keeping their signs).
    {
      const Classes k = classify<T>(a, n);
      long double v[4];
      for (int c = 0; c < n; ++c)
        v[c] =
            k.inf && !k.nan ? (std::isinf(a[c]) ? std::copysign(1.0L, a[c]) : 0.0L * a[c]) : a[c];
      const long double length = std::sqrt(sumOfSquares(v, n));
      for (int c = 0; c < n; ++c) {
        const T got = w[i * n + c];
        auto operands = [&] { return operands1() + " component " + std::to_string(c); };
        if (k.zero || k.nan || v[c] == 0) {
          const T want = k.zero ? p0[c] : k.nan ? T(NAN) : T(v[c]);
          if (!same(got, want))
            badNormalize.add(
                [&] { return operands() + ": got " + show(got) + ", want " + show(want); });
          continue;
        }
        checkUlps(badNormalize, got, v[c] / length, normalizeUlps, false, &maxNormalize, operands);
      }
    }

    if (isFloat) {
      const Classes k = classify<T>(b, n);
      checkUlps(badFastLength, r[3 * M + i], std::sqrt(sumOfSquares(b, n)), 8191.5 + n, false,
                &maxFastLength, moderate1);
      checkUlps(badFastDistance, r[4 * M + i], std::sqrt(sumOfSquares(f, n)), 8191.5 + 2 * n, false,
                &maxFastDistance, moderate2);
      const long double length = std::sqrt(sumOfSquares(b, n));
      for (int c = 0; c < n; ++c) {
        const T got = w[n * M + i * n + c];
        auto operands = [&] { return moderate1() + " component " + std::to_string(c); };
        if (k.zero) { // all(p == 0): p itself
          if (!same(got, p1[c]))
            badFastNormalize.add(
                [&] { return operands() + ": got " + show(got) + ", want " + show(p1[c]); });
          continue;
        }
        checkUlps(badFastNormalize, got, b[c] / length, 8192.0 + n, false, &maxFastNormalize,
                  operands);
      }
    }
  }
  RecordProperty("max_ulp_length", std::to_string(maxLength));
  RecordProperty("max_ulp_distance", std::to_string(maxDistance));
  RecordProperty("max_ulp_normalize", std::to_string(maxNormalize));
  if (isFloat) {
    RecordProperty("max_ulp_fast_length", std::to_string(maxFastLength));
    RecordProperty("max_ulp_fast_distance", std::to_string(maxFastDistance));
    RecordProperty("max_ulp_fast_normalize", std::to_string(maxFastNormalize));
  }
}

TEST_P(GeometricFunctions, AgainstLongDouble) {
  if (GetParam().isDouble)
    check<double>();
  else
    check<float>();
}

INSTANTIATE_TEST_SUITE_P(Geometric, GeometricFunctions, ::testing::ValuesIn(params()), paramName);

} // namespace
} // namespace lanewise::test
