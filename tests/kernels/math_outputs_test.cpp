// SPDX-License-Identifier: Apache-2.0
// OpenCL.std functions with pointer outputs (frexp, modf, fract, sincos,
// remquo, lgamma_r), with operands or results of other types (ilogb, ldexp,
// pown, rootn, nan) and powr with native_powr and half_powr (OpenCL C 3.0,
// 6.15.2; kernels in cl/math_outputs.cl), for float and double of every
// vector width, the stored values in global, local, private and generic
// memory, and once under divergent control flow.
//
// Expected values are computed here: exactly where a function is exact
// (frexp, modf, fract, ilogb, ldexp, remquo and the lgamma_r sign), with
// MPFR where it is not (sincos, pown, rootn, powr, lgamma_r), against the
// bounds of 7.4 (sincos 4 ulp; pown, rootn, powr 16 ulp; half_powr 8192
// ulp), and with the values 7.5 prescribes for special operands matched
// exactly. lgamma_r's accuracy is undefined in 7.4; its values are checked
// against a bound stated below as a quality requirement of Lanewise. The
// double kernels run whether or not the device reports cl_khr_fp64.
#include "fp_check.h"
#include "harness.h"

#include <mpfr.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace lanewise::test {
namespace {

// ---- MPFR ---------------------------------------------------------------------------
// An MPFR number with the widest exponent range, so that no reference
// overflows or underflows before it is rounded to long double.
struct Big {
  mpfr_t v;
  explicit Big(mpfr_prec_t precision = 192) {
    static const bool range = [] {
      mpfr_set_emin(mpfr_get_emin_min());
      mpfr_set_emax(mpfr_get_emax_max());
      return true;
    }();
    (void)range;
    mpfr_init2(v, precision);
  }
  ~Big() { mpfr_clear(v); }
  Big(const Big &) = delete;
  Big &operator=(const Big &) = delete;
  long double value() const { return mpfr_get_ld(v, MPFR_RNDN); }
};
template <typename T> void setValue(Big &b, T x) { mpfr_set_d(b.v, double(x), MPFR_RNDN); }

// ---- expected values ----------------------------------------------------------------
// A result's expectation: a value matched exactly (any NaN matches any NaN),
// a reference within `tolerance` ulps, a reference within a relative error,
// a quiet NaN, or anything.
template <typename T> struct Want {
  enum class Kind : std::uint8_t { Exact, Ulps, Relative, QuietNaN, Any };
  Kind kind = Kind::Any;
  T value = 0;
  long double ref = 0;
  double tolerance = 0;

  static Want exact(T v) { return {Kind::Exact, v, 0, 0}; }
  static Want ulps(long double r, double t) { return {Kind::Ulps, 0, r, t}; }
  static Want relative(long double r, double t) { return {Kind::Relative, 0, r, t}; }
  static Want quietNaN() { return {Kind::QuietNaN, 0, 0, 0}; }
  static Want any() { return {}; }

  // Whether got meets the expectation; *error is its error in ulps (or
  // relative) where the check measures one.
  bool met(T got, double *error) const {
    *error = 0;
    switch (kind) {
    case Kind::Exact:
      return same(got, value);
    case Kind::Ulps:
      *error = ulpError(got, ref);
      return *error <= tolerance;
    case Kind::Relative:
      *error = double(std::fabs((long double)got - ref) / std::fabs(ref));
      return *error <= tolerance;
    case Kind::QuietNaN: {
      const auto quiet = typename Fp<T>::Bits(1) << (Fp<T>::mantissa - 2);
      return std::isnan(got) && (bitsOf(got) & quiet) != 0;
    }
    case Kind::Any:
      return true;
    }
    return false;
  }
  std::string describe() const {
    switch (kind) {
    case Kind::Exact:
      return show(value);
    case Kind::Ulps:
      return showLong(ref) + " within " + std::to_string(tolerance) + " ulp";
    case Kind::Relative:
      return showLong(ref) + " within relative " + std::to_string(tolerance);
    case Kind::QuietNaN:
      return "a quiet NaN";
    case Kind::Any:
      return "anything";
    }
    return "";
  }
};

// An expected int: a value, or anything (wanted = false).
struct WantInt {
  bool wanted = false;
  int value = 0;
};

// floor(log2 |x|) of a finite non-zero x, from its bits.
template <typename T> int exponentOf(T x) {
  using Bits = typename Fp<T>::Bits;
  constexpr int fraction = Fp<T>::mantissa - 1;
  const Bits bits = bitsOf(x);
  const int biased = int((bits >> fraction) & ((Bits(1) << (8 * sizeof(T) - 1 - fraction)) - 1));
  if (biased != 0)
    return biased - Fp<T>::maxExponent;
  const Bits significand = bits & ((Bits(1) << fraction) - 1); // a denormal
  int top = 0;
  while (significand >> (top + 1))
    ++top;
  return Fp<T>::minExponent - fraction + top;
}

// frexp: x = mantissa * 2^exponent with |mantissa| in [0.5, 1); ±0, ±inf and
// NaN are returned as they are with exponent 0 (7.5).
template <typename T> T frexpOf(T x, int *exponent) {
  if (x == 0 || !std::isfinite(x)) {
    *exponent = 0;
    return x;
  }
  *exponent = exponentOf(x) + 1;
  return T(std::ldexp((long double)x, -*exponent)); // exact
}

// ilogb: FP_ILOGB0 = INT_MIN and FP_ILOGBNAN = INT_MAX in OpenCL C (clang's
// opencl-c-base.h); ilogb(±inf) = INT_MAX (C99 7.12.6.5).
template <typename T> int ilogbOf(T x) {
  if (std::isnan(x) || std::isinf(x))
    return INT_MAX;
  if (x == 0)
    return INT_MIN;
  return exponentOf(x);
}

// ldexp, correctly rounded: x 2^k is exact in long double (for |k| up to
// 30000, beyond which every result is 0 or infinite anyway) and rounded
// once to T.
template <typename T> T ldexpOf(T x, int k) {
  if (x == 0 || !std::isfinite(x))
    return x;
  return T(std::ldexp((long double)x, std::clamp(k, -30000, 30000)));
}

// ---- inputs ---------------------------------------------------------------------------
using Random = std::mt19937_64;

// Random finite values over the whole exponent range, denormals included.
template <typename T> T anyFinite(Random &random) {
  using Bits = typename Fp<T>::Bits;
  constexpr int fraction = Fp<T>::mantissa - 1;
  const Bits biased = Bits(random() % (2 * Fp<T>::maxExponent + 1)); // 0 .. 2 emax: not inf/NaN
  const Bits bits = (Bits(random() & 1) << (8 * sizeof(T) - 1)) | (biased << fraction) |
                    (Bits(random()) & ((Bits(1) << fraction) - 1));
  return fromBits<T>(bits);
}
// Random values with exponents in [low, high], random significands.
template <typename T> T inBinades(Random &random, int low, int high, bool negative = true) {
  const int e = low + int(random() % unsigned(high - low + 1));
  constexpr int fraction = Fp<T>::mantissa - 1;
  const T m = T(1) + T(std::ldexp(double(random() >> (64 - fraction)), -fraction)); // [1, 2)
  const T x = T(std::ldexp(m, e));
  return negative && (random() & 1) ? -x : x;
}
template <typename T> T uniform(Random &random, double low, double high) {
  return T(low + (high - low) * std::ldexp(double(random() >> 11), -53));
}
int anyInt(Random &random) { return int(std::uint32_t(random())); }
int intIn(Random &random, int low, int high) {
  return low + int(random() % std::uint64_t(std::int64_t(high) - low + 1));
}

template <typename T> struct Special {
  static constexpr T inf = std::numeric_limits<T>::infinity();
  static T nan() { return std::numeric_limits<T>::quiet_NaN(); }
  static constexpr T max = std::numeric_limits<T>::max();
  static constexpr T minNormal = std::numeric_limits<T>::min();
  static constexpr T minDenormal = std::numeric_limits<T>::denorm_min();
  static constexpr T epsilon = std::numeric_limits<T>::epsilon();
};

// The values every function sees first: zeros, infinities, NaNs, the
// extremes of each range and a few ordinary numbers.
template <typename T> std::vector<T> specials() {
  using S = Special<T>;
  std::vector<T> v = {T(0), T(-0.0), S::inf, -S::inf, S::nan(), -S::nan()};
  for (T x : {S::minDenormal, S::minNormal, S::minNormal - S::minDenormal, S::max, T(1), T(0.5),
              T(2), T(1.5), T(2.5), T(3), T(7.75), T(1) - S::epsilon / 2, T(1) + S::epsilon,
              T(1e-30), T(100.25)}) {
    v.push_back(x);
    v.push_back(-x);
  }
  return v;
}

constexpr size_t E = 12288; // elements per slot (a multiple of 3 * 16 * 16)

template <typename T> struct MathCase {
  using Code = typename Fp<T>::Bits;
  // a: 10 slots of E (see cl/math_outputs.cl), k: 3 slots of E, codes: E.
  std::vector<T> a = std::vector<T>(10 * E);
  std::vector<int> k = std::vector<int>(3 * E);
  std::vector<Code> codes = std::vector<Code>(E);
  T ux = T(-12345.678);
  int uk = -(Fp<T>::maxExponent + 4); // ldexp into the denormals

  // Expectations, by slot of cl/math_outputs.cl (value slot 7 depends on
  // the width and is computed by the check).
  std::vector<Want<T>> value[17];
  std::vector<Want<T>> stored[4];
  std::vector<WantInt> storedInt[4];
  std::vector<int> ilogb;

  T *in(int slot) { return a.data() + slot * E; }
  const T *in(int slot) const { return a.data() + slot * E; }
  int *ints(int slot) { return k.data() + slot * E; }
};

// Slot 0: frexp, modf, fract, ilogb. Integers, halves, values just off
// integers, tiny negatives (fract rounds 1 + x up to 1 and must clamp), and
// random values of every magnitude.
template <typename T> void makeSplitInputs(MathCase<T> &c, Random &random) {
  using S = Special<T>;
  std::vector<T> v = specials<T>();
  for (T x :
       {-S::minDenormal, T(-S::epsilon / 4), T(-S::epsilon / 2), T(-S::epsilon),
        T(-std::ldexp(1.0, -Fp<T>::mantissa - 1)), T(std::ldexp(1.0, Fp<T>::mantissa - 1) + 0.5),
        T(-std::ldexp(1.0, Fp<T>::mantissa - 1) - 0.5), T(std::ldexp(1.0, Fp<T>::mantissa)),
        T(-std::ldexp(1.0, Fp<T>::mantissa) - 2), T(-3), T(4.5), T(-4.5)})
    v.push_back(x);
  T *x = c.in(0);
  for (size_t j = 0; j < E; ++j) {
    if (j < v.size()) {
      x[j] = v[j];
      continue;
    }
    switch (random() % 6) {
    case 0:
    case 1:
      x[j] = anyFinite<T>(random);
      break;
    case 2:
      x[j] = inBinades<T>(random, -30, 30);
      break;
    case 3: // around the binades where the fraction bits run out
      x[j] = inBinades<T>(random, Fp<T>::mantissa - 4, Fp<T>::mantissa + 1);
      break;
    case 4: // small negatives: 1 + x near 1
      x[j] = -inBinades<T>(random, -Fp<T>::mantissa - 8, -1, false);
      break;
    default: { // integers and integers plus or minus a little
      const T n = T(intIn(random, -100000, 100000));
      const int d = int(random() % 3);
      x[j] = d == 0 ? n : std::nextafter(n, d == 1 ? S::inf : -S::inf);
    }
    }
  }
}

template <typename T> void makeInputs(MathCase<T> &c, std::uint64_t seed) {
  using S = Special<T>;
  Random random(seed);
  const T nan = S::nan(), inf = S::inf;
  constexpr int maxE = Fp<T>::maxExponent, minE = Fp<T>::minExponent - Fp<T>::mantissa + 1;
  makeSplitInputs(c, random);

  // Slot 1: sincos. Specials, multiples of pi/2 (rounded), small, moderate and
  // huge arguments.
  {
    std::vector<T> v = specials<T>();
    for (int m = -8; m <= 8; ++m)
      v.push_back(T(m * M_PI / 2));
    for (T x : {T(1e22), T(-1e22), T(6381956970095103.0 * 0x1p797)})
      if (std::isfinite(x))
        v.push_back(x);
    T *x = c.in(1);
    for (size_t j = 0; j < E; ++j)
      x[j] = j < v.size()        ? v[j]
             : random() % 3 == 0 ? anyFinite<T>(random)
             : random() % 2 == 0 ? inBinades<T>(random, -24, 10)
                                 : uniform<T>(random, -1000, 1000);
  }

  // Slots 2, 3: remquo. Specials, random pairs, quotients of a few hundred
  // (the 7 low bits wrap at 128), and exact halfway quotients (k + 0.5) y,
  // where the even k must be chosen.
  {
    const std::vector<std::pair<T, T>> pairs = {{inf, 1},
                                                {-inf, 2},
                                                {1, 0},
                                                {-3, T(-0.0)},
                                                {nan, 1},
                                                {1, nan},
                                                {0, 0},
                                                {inf, 0},
                                                {nan, 0},
                                                {inf, inf},
                                                {3, inf},
                                                {-3, -inf},
                                                {0, 5},
                                                {T(-0.0), 5},
                                                {5, 5},
                                                {-5, 5},
                                                {5, -5},
                                                {T(-0.0), -inf},
                                                {S::max, S::minDenormal},
                                                {S::minDenormal * 5, S::minDenormal * 2},
                                                {S::max, T(1.5)},
                                                {T(-S::max), T(-3)},
                                                {T(7), T(2)},
                                                {T(-7), T(2)},
                                                {T(5), T(2)},
                                                {T(385), T(2)},
                                                {T(-255), T(2)},
                                                {T(256), T(1)},
                                                {T(-128), T(1)},
                                                {T(127.5), T(1)},
                                                {T(128.5), T(1)},
                                                {T(-128.5), T(-1)},
                                                {S::max, T(S::max / 100)},
                                                {-S::max, T(S::max / 3)},
                                                {T(S::max / 2), -S::max}};
    T *x = c.in(2), *y = c.in(3);
    for (size_t j = 0; j < E; ++j) {
      if (j < pairs.size()) {
        x[j] = pairs[j].first;
        y[j] = pairs[j].second;
        continue;
      }
      switch (random() % 4) {
      case 0:
        x[j] = anyFinite<T>(random);
        y[j] = anyFinite<T>(random);
        break;
      case 1: { // exact halfway quotient: y has few significant bits
        const T m = T(intIn(random, 1, 1023)) * ((random() & 1) ? 1 : -1);
        y[j] = T(std::ldexp(m, intIn(random, -40, 40)));
        const int q = intIn(random, 0, 600);
        x[j] = T((q + 0.5) * (long double)y[j]) * ((random() & 1) ? 1 : -1);
        break;
      }
      default:
        y[j] = inBinades<T>(random, minE, maxE - 12);
        x[j] = T((long double)y[j] * uniform<T>(random, -1000, 1000));
      }
    }
  }

  // Slot 4: lgamma_r. Zero, 1, 2, negative integers, the region around the
  // poles and zeros of lgamma, and every magnitude.
  {
    std::vector<T> v = specials<T>();
    for (T x : {T(-1), T(-2), T(-3), T(-100), T(-std::ldexp(1.0, Fp<T>::mantissa)),
                T(-std::ldexp(1.0, Fp<T>::mantissa - 2) + 0.5), T(2.5), T(-3.5),
                std::nextafter(T(1), T(0)), std::nextafter(T(1), T(2)), std::nextafter(T(2), T(0)),
                std::nextafter(T(2), T(3)), T(-2.4570247382208), T(-2.7476826467), T(-0.99999),
                T(-1.00001), T(1e-10), T(-1e-10)})
      v.push_back(x);
    T *x = c.in(4);
    for (size_t j = 0; j < E; ++j)
      x[j] = j < v.size()        ? v[j]
             : random() % 5 == 0 ? anyFinite<T>(random)
             : random() % 4 == 0 ? uniform<T>(random, -200, 0)
             : random() % 3 == 0 ? inBinades<T>(random, -30, maxE, false)
                                 : uniform<T>(random, -40, 40);
  }

  // Slot 5 and ints 0: ldexp. Any x with exponents that may overflow or
  // round into the denormals, and the extreme ints.
  {
    T *x = c.in(5);
    int *k = c.ints(0);
    const std::vector<std::pair<T, int>> pairs = {{1, INT_MAX},
                                                  {1, INT_MIN},
                                                  {-1, INT_MAX},
                                                  {S::minDenormal, INT_MAX},
                                                  {S::max, INT_MIN},
                                                  {T(-0.0), 100},
                                                  {inf, -100},
                                                  {-inf, INT_MIN},
                                                  {nan, 3},
                                                  {T(1.5), minE - 1},
                                                  {T(1.5), minE - 2},
                                                  {T(1.75), minE - 2},
                                                  {T(-1.25), minE - 2},
                                                  {T(1), maxE + 1},
                                                  {S::max, 0},
                                                  {S::minDenormal, Fp<T>::mantissa - 1}};
    const int span = maxE - minE + 8;
    for (size_t j = 0; j < E; ++j) {
      if (j < pairs.size()) {
        x[j] = pairs[j].first;
        k[j] = pairs[j].second;
        continue;
      }
      x[j] =
          random() % 8 == 0 ? specials<T>()[random() % specials<T>().size()] : anyFinite<T>(random);
      const int r = int(random() % 10);
      k[j] = r == 0 ? anyInt(random) : r < 4 ? intIn(random, -40, 40) : intIn(random, -span, span);
    }
  }

  // Slot 6 and ints 1: pown. Exponents kept where x^n is mostly in range,
  // n large with x within a few ulps of 1, and the special operands of 7.5.
  {
    T *x = c.in(6);
    int *n = c.ints(1);
    size_t j = 0;
    for (T v : {T(0), T(-0.0), inf, -inf, nan, T(1), T(-1), S::minDenormal, T(-2)})
      for (int m : {0, 1, -1, 2, -2, 3, -3, INT_MAX, INT_MIN}) {
        x[j] = v;
        n[j++] = m;
      }
    for (; j < E; ++j) {
      switch (random() % 6) {
      case 0:
      case 1: {
        n[j] = intIn(random, -40, 40);
        const int limit = maxE / std::max(1, std::abs(n[j]));
        x[j] = inBinades<T>(random, -limit, limit);
        break;
      }
      case 2: { // near 1, large n
        n[j] = random() % 8 == 0 ? anyInt(random) : intIn(random, -(1 << 22), 1 << 22);
        T v = T(1);
        const int steps = intIn(random, -40, 40);
        for (int s = 0; s < std::abs(steps); ++s)
          v = std::nextafter(v, steps > 0 ? T(2) : T(0));
        x[j] = (random() & 1) ? -v : v;
        break;
      }
      case 3: // near overflow and underflow
        n[j] = intIn(random, 2, 12) * ((random() & 1) ? 1 : -1);
        x[j] = inBinades<T>(random, maxE / std::abs(n[j]) - 1, maxE / std::abs(n[j]) + 1);
        if (random() & 1)
          x[j] = 1 / x[j];
        break;
      case 4:
        n[j] = intIn(random, -3, 3);
        x[j] = anyFinite<T>(random);
        break;
      default:
        n[j] = anyInt(random);
        x[j] = anyFinite<T>(random);
      }
    }
  }

  // Slot 7 and ints 2: rootn. Both signs, every magnitude, n small and
  // large, n = 0, and the special operands of 7.5.
  {
    T *x = c.in(7);
    int *n = c.ints(2);
    size_t j = 0;
    for (T v : {T(0), T(-0.0), inf, -inf, nan, T(1), T(-1), T(-8), T(27), S::minDenormal,
                -S::minDenormal})
      for (int m : {0, 1, -1, 2, -2, 3, -3, INT_MAX, INT_MIN}) {
        x[j] = v;
        n[j++] = m;
      }
    for (; j < E; ++j) {
      x[j] = random() % 3 == 0 ? inBinades<T>(random, -10, 10) : anyFinite<T>(random);
      const int r = int(random() % 8);
      n[j] = r == 0 ? anyInt(random) : r == 1 ? intIn(random, -3, 3) : intIn(random, -30, 30);
    }
  }

  // Slots 8, 9: powr. x >= 0 of every magnitude with y keeping x^y mostly in
  // range, x near 1 with large y, negative x, and the special operands.
  {
    T *x = c.in(8), *y = c.in(9);
    size_t j = 0;
    for (T v : {T(0), T(-0.0), inf, T(1), T(2), T(0.5), T(-1), -inf, nan, S::minDenormal})
      for (T w : {T(0), T(-0.0), inf, -inf, nan, T(1), T(-1), T(2.5), T(-2.5), T(3)}) {
        x[j] = v;
        y[j++] = w;
      }
    for (; j < E; ++j) {
      switch (random() % 7) {
      case 0:
      case 1:
      case 2: {
        x[j] = std::fabs(anyFinite<T>(random));
        const double log2x = std::max(1.0, std::fabs(std::log2(double(x[j]))));
        y[j] = uniform<T>(random, -1, 1) * T(150 / log2x);
        break;
      }
      case 3:
        x[j] = uniform<T>(random, 0.5, 2);
        y[j] = anyFinite<T>(random);
        break;
      case 4:
        x[j] = -std::fabs(anyFinite<T>(random));
        y[j] = uniform<T>(random, -10, 10);
        break;
      case 5:
        x[j] = std::fabs(anyFinite<T>(random));
        y[j] = anyFinite<T>(random);
        break;
      default:
        x[j] = std::fabs(anyFinite<T>(random));
        y[j] = T(intIn(random, -8, 8)) / 2;
      }
    }
  }

  // nan's codes: random bits, 0 and all ones.
  for (size_t j = 0; j < E; ++j)
    c.codes[j] = j == 0   ? 0
                 : j == 1 ? ~typename MathCase<T>::Code(0)
                          : typename MathCase<T>::Code(random());
}

// ---- references ---------------------------------------------------------------------
template <typename T> void sincosWant(T x, Want<T> *sine, Want<T> *cosine) {
  if (x == 0) { // sin(±0) = ±0, cos(±0) = 1 (C99 F.9.1.6, F.9.1.5)
    *sine = Want<T>::exact(x);
    *cosine = Want<T>::exact(1);
    return;
  }
  if (!std::isfinite(x)) {
    *sine = *cosine = Want<T>::exact(Special<T>::nan());
    return;
  }
  Big in, s, c;
  setValue(in, x);
  mpfr_sin_cos(s.v, c.v, in.v, MPFR_RNDN);
  *sine = Want<T>::ulps(s.value(), 4);
  *cosine = Want<T>::ulps(c.value(), 4);
}

// remquo: the remainder as remainder() gives it (exact) and the 7 low bits
// of the quotient rounded to nearest even, with the sign of x / y; a NaN
// and 0 for x = ±inf, y = 0 or a NaN operand (7.5).
template <typename T> void remquoWant(T x, T y, Want<T> *remainder, WantInt *quotient) {
  if (std::isnan(x) || std::isnan(y) || std::isinf(x) || y == 0) {
    *remainder = Want<T>::exact(Special<T>::nan());
    *quotient = {true, 0};
    return;
  }
  Big r(Fp<T>::mantissa), in(Fp<T>::mantissa), by(Fp<T>::mantissa);
  setValue(in, x);
  setValue(by, y);
  long q = 0;
  mpfr_remquo(r.v, &q, in.v, by.v, MPFR_RNDN);
  *remainder = Want<T>::exact(T(mpfr_get_d(r.v, MPFR_RNDN)));
  const long magnitude = (q < 0 ? -q : q) & 127;
  *quotient = {true, int(q < 0 ? -magnitude : magnitude)};
}

// lgamma_r's accuracy is undefined in 7.4; Lanewise holds it to the bound
// the table sets for tgamma, 16 ulp (it stays within 2.5 ulp here, near
// the zeros of lgamma at 1 and 2 too).
constexpr double lgammaUlps = 16;

template <typename T> void lgammaWant(T x, Want<T> *value, WantInt *sign) {
  using S = Special<T>;
  if (std::isnan(x)) {
    *value = Want<T>::exact(S::nan());
    *sign = {};
    return;
  }
  if (std::isinf(x)) { // lgamma(±inf) = +inf (C99 F.9.5.4)
    *value = Want<T>::exact(S::inf);
    *sign = x > 0 ? WantInt{true, 1} : WantInt{};
    return;
  }
  if (x == 0 || (x < 0 && x == std::floor(x))) {
    // lgamma = +inf at the poles (C99 F.9.5.4); the sign is 0 (7.5).
    *value = Want<T>::exact(S::inf);
    *sign = {true, 0};
    return;
  }
  if (x == 1 || x == 2) { // lgamma(1) = lgamma(2) = +0
    *value = Want<T>::exact(0);
    *sign = {true, 1};
    return;
  }
  // The sign of gamma(x): positive for x > 0; for x < 0, negative in
  // (-1, 0), (-3, -2), ..., where floor(x) is odd.
  *sign = {true, x > 0 || std::fmod(std::floor((long double)x), 2.0L) == 0 ? 1 : -1};
  Big in, r;
  setValue(in, x);
  int mpfrSign = 0;
  mpfr_lgamma(r.v, &mpfrSign, in.v, MPFR_RNDN);
  if (mpfrSign != sign->value)
    ADD_FAILURE() << "the references disagree on the sign of gamma(" << show(x) << ")";
  *value = Want<T>::ulps(r.value(), lgammaUlps);
}

// pown (7.5): pown(x, 0) = 1 for any x; the signs of pown(±0, n); the
// infinities as pow (C99 F.9.4.4); otherwise within 16 ulp.
template <typename T> Want<T> pownWant(T x, int n) {
  using S = Special<T>;
  const bool odd = n % 2 != 0;
  if (n == 0)
    return Want<T>::exact(1);
  if (std::isnan(x))
    return Want<T>::exact(S::nan());
  if (x == 0)
    return Want<T>::exact(n < 0 ? (odd ? std::copysign(S::inf, x) : S::inf) : (odd ? x : T(0)));
  if (std::isinf(x))
    return Want<T>::exact(n > 0 ? (odd ? x : S::inf) : (odd ? std::copysign(T(0), x) : T(0)));
  Big in, r;
  setValue(in, x);
  mpfr_pow_si(r.v, in.v, n, MPFR_RNDN);
  return Want<T>::ulps(r.value(), 16);
}

// rootn (7.5): NaN for n = 0 and for x < 0 with n even; the signs of
// rootn(±0, n); rootn(±inf, n) is the limit; otherwise within 16 ulp.
template <typename T> Want<T> rootnWant(T x, int n) {
  using S = Special<T>;
  const bool odd = n % 2 != 0;
  if (n == 0 || std::isnan(x) || (x < 0 && !odd))
    return Want<T>::exact(S::nan());
  if (x == 0)
    return Want<T>::exact(n < 0 ? (odd ? std::copysign(S::inf, x) : S::inf) : (odd ? x : T(0)));
  if (std::isinf(x))
    return Want<T>::exact(n > 0 ? x : std::copysign(T(0), x));
  Big in, r;
  setValue(in, x);
  mpfr_rootn_si(r.v, in.v, n, MPFR_RNDN);
  return Want<T>::ulps(r.value(), 16);
}

// powr (7.5): NaN for x < 0, (±0, ±0), (+inf, ±0), (+1, ±inf) and NaN
// operands; powr(±0, y < 0) = +inf, powr(±0, y > 0) = +0, powr(+1, finite
// y) = 1, powr(x > 0, ±0) = 1; limits at infinities; otherwise within
// `tolerance` ulp (or, for native_powr, `relative`).
template <typename T> Want<T> powrWant(T x, T y, double tolerance, bool relative = false) {
  using S = Special<T>;
  const T nan = S::nan();
  if (relative && !(x > 0 && x != 1 && std::isfinite(x) && std::isfinite(y) && y != 0))
    return Want<T>::any(); // native_powr: special operands implementation-defined
  if (std::isnan(x) || std::isnan(y) || (x < 0))
    return Want<T>::exact(nan);
  if (x == 0)
    return Want<T>::exact(y == 0 ? nan : y < 0 ? S::inf : T(0));
  if (std::isinf(x))
    return Want<T>::exact(y == 0 ? nan : y > 0 ? S::inf : T(0));
  if (x == 1)
    return Want<T>::exact(std::isinf(y) ? nan : T(1));
  if (y == 0)
    return Want<T>::exact(1);
  if (std::isinf(y))
    return Want<T>::exact((x < 1) == (y > 0) ? T(0) : S::inf);
  Big in, by, r;
  setValue(in, x);
  setValue(by, y);
  mpfr_pow(r.v, in.v, by.v, MPFR_RNDN);
  const long double ref = r.value();
  if (!relative)
    return Want<T>::ulps(ref, tolerance);
  if (!(std::fabs(ref) >= S::minNormal && std::fabs(ref) <= S::max))
    return Want<T>::any(); // outside the range native_powr is held to here
  return Want<T>::relative(ref, tolerance);
}

// modf as 7.5 defines it (changes to C99 TC2 behaviour): *iptr = trunc(x), the result
// copysign(isinf(x) ? 0 : x - *iptr, x).
template <typename T> void modfWant(T x, Want<T> *fraction, Want<T> *integral) {
  const T whole = std::trunc(x);
  *integral = Want<T>::exact(whole);
  *fraction = Want<T>::exact(std::copysign(std::isinf(x) ? T(0) : T(x - whole), x));
}

// fract: fmin(x - floor(x), the largest T below 1), floor(x) stored; fract(±0)
// = ±0, fract(±inf) = ±0, fract(NaN) = NaN (7.5). x - floor(x) is exact
// except for x in (-1, 0), where it is the single rounding of 1 + x.
template <typename T> void fractWant(T x, Want<T> *fraction, Want<T> *whole) {
  const T below = std::nextafter(T(1), T(0));
  *whole = Want<T>::exact(std::floor(x));
  if (x == 0 || std::isnan(x))
    *fraction = Want<T>::exact(x);
  else if (std::isinf(x))
    *fraction = Want<T>::exact(std::copysign(T(0), x));
  else
    *fraction = Want<T>::exact(std::min(T(x - std::floor(x)), below));
}

template <typename T> std::unique_ptr<MathCase<T>> buildCase() {
  auto c = std::make_unique<MathCase<T>>();
  makeInputs(*c, 0x6d617468ull + sizeof(T));
  for (auto &v : c->value)
    v.resize(E);
  for (auto &v : c->stored)
    v.resize(E);
  for (auto &v : c->storedInt)
    v.resize(E);
  c->ilogb.resize(E);
  Want<T> uSine, uCosine;
  sincosWant(c->ux, &uSine, &uCosine);
  int uExponent;
  const T uMantissa = frexpOf(c->ux, &uExponent);
  for (size_t j = 0; j < E; ++j) {
    const T x0 = c->in(0)[j];
    int e;
    c->value[0][j] = Want<T>::exact(frexpOf(x0, &e));
    c->storedInt[0][j] = {true, e};
    modfWant(x0, &c->value[1][j], &c->stored[0][j]);
    fractWant(x0, &c->value[2][j], &c->stored[1][j]);
    sincosWant(c->in(1)[j], &c->value[3][j], &c->stored[2][j]);
    remquoWant(c->in(2)[j], c->in(3)[j], &c->value[4][j], &c->storedInt[1][j]);
    lgammaWant(c->in(4)[j], &c->value[5][j], &c->storedInt[2][j]);
    c->value[6][j] = Want<T>::exact(ldexpOf(c->in(5)[j], c->ints(0)[j]));
    c->value[8][j] = Want<T>::exact(ldexpOf(c->in(5)[j], c->uk));
    c->value[9][j] = pownWant(c->in(6)[j], c->ints(1)[j]);
    c->value[10][j] = rootnWant(c->in(7)[j], c->ints(2)[j]);
    const T x = c->in(8)[j], y = c->in(9)[j];
    c->value[11][j] = powrWant(x, y, 16);
    if constexpr (sizeof(T) == 4) {
      // native_powr: range and accuracy implementation-defined; Lanewise is
      // held to a relative error of 2^-11 where the result is a normal
      // float, and to powr's special values.
      const Want<T> w = powrWant(x, y, 0x1p-11, true);
      c->value[12][j] = w;
      c->value[13][j] = powrWant(x, y, 8192); // half_powr: 8192 ulp
    }
    c->value[14][j] = Want<T>::quietNaN();
    c->value[15][j] = uSine;
    c->value[16][j] = Want<T>::exact(uMantissa);
    c->stored[3][j] = uCosine;
    c->storedInt[3][j] = {true, uExponent};
    c->ilogb[j] = ilogbOf(x0);
  }
  return c;
}

template <typename T> const MathCase<T> &mathCase() {
  static const std::unique_ptr<MathCase<T>> c = buildCase<T>();
  return *c;
}

// ---- fixture and parameters ---------------------------------------------------------
class MathOutputsFixture : public SharedContextTest {
protected:
  cl_kernel cachedKernel(const std::string &name, const std::string &variant) {
    return SharedContextTest::cachedKernel("math_outputs", name, variant);
  }
  template <typename T> cl_mem sentinelBuffer(size_t count, T fill) {
    return buffer(std::vector<T>(count, fill));
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
std::vector<Param> params(const std::vector<int> &floatWidths,
                          const std::vector<int> &doubleWidths) {
  std::vector<Param> out;
  for (const char *variant : {"", "-O0"}) {
    for (int w : floatWidths)
      out.push_back({false, w, variant});
    for (int w : doubleWidths)
      out.push_back({true, w, variant});
  }
  return out;
}
std::string kernelName(const char *base, bool isDouble, int width) {
  return std::string(base) + (isDouble ? "double" : "float") + std::to_string(width);
}
size_t strideOf(int width) { return width == 3 ? 4 : size_t(width); }

// Bit patterns no result has: a signalling NaN and an arbitrary int.
template <typename T> T sentinel() {
  if constexpr (sizeof(T) == 4)
    return fromBits<float>(0x7fa5a5a5u);
  else
    return fromBits<double>(0x7ff5a5a5a5a5a5a5ull);
}
constexpr int intSentinel = 0x5a5a5a5a;

// Largest error seen per check, reported as a test property.
struct MaxError {
  double value = 0;
  void note(double error) {
    if (std::isfinite(error))
      value = std::max(value, error);
  }
};

// Compares `count` packed results against their expectations.
template <typename T>
void checkValues(const std::string &what, const T *got, const std::vector<Want<T>> &want,
                 const T *input0, const std::type_identity_t<T> *input1,
                 MaxError *maxError = nullptr) {
  Mismatches bad(what);
  for (size_t j = 0; j < want.size(); ++j) {
    double error;
    if (want[j].met(got[j], &error)) {
      if (maxError && want[j].kind == Want<T>::Kind::Ulps)
        maxError->note(error);
      continue;
    }
    bad.add([&] {
      std::ostringstream s;
      s << "element " << j << " x " << show(input0[j]);
      if (input1)
        s << " y " << show(input1[j]);
      s << ": got " << show(got[j]) << ", want " << want[j].describe();
      if (want[j].kind == Want<T>::Kind::Ulps || want[j].kind == Want<T>::Kind::Relative)
        s << " (error " << error << ")";
      return s.str();
    });
  }
}
void checkInts(const std::string &what, const int *got, const std::vector<WantInt> &want,
               const std::function<std::string(size_t)> &input) {
  Mismatches bad(what);
  for (size_t j = 0; j < want.size(); ++j)
    if (want[j].wanted && got[j] != want[j].value)
      bad.add([&] {
        return "element " + std::to_string(j) + " " + input(j) + ": got " + std::to_string(got[j]) +
               ", want " + std::to_string(want[j].value);
      });
}

// Values stored through pointers to the vector type (slot areas of S
// elements, 3-vectors 4 apart) as packed arrays; the fourth element of each
// 3-vector must still hold the sentinel.
template <typename S>
std::vector<S> unpack(const std::string &what, const S *area, int width, S fill) {
  const size_t stride = strideOf(width), vectors = E / width;
  std::vector<S> out(E);
  Mismatches bad(what + " (past a 3-component vector)");
  for (size_t i = 0; i < vectors; ++i) {
    for (int c = 0; c < width; ++c)
      out[i * width + c] = area[i * stride + c];
    if (width == 3 && std::memcmp(&area[i * stride + 3], &fill, sizeof(S)) != 0)
      bad.add([&] { return "vector " + std::to_string(i) + " element 3 was written"; });
  }
  return out;
}

// ---- global pointers, every width ---------------------------------------------------
class MathOutputsGlobal : public MathOutputsFixture, public ::testing::WithParamInterface<Param> {
protected:
  template <typename T> void check();
};

template <typename T> void MathOutputsGlobal::check() {
  const Param p = GetParam();
  const MathCase<T> &c = mathCase<T>();
  const int n = p.width;
  const size_t S = E / n * strideOf(n);
  const std::string label = kernelName("outputs_", p.isDouble, n) + p.variant;
  cl_kernel k = cachedKernel(kernelName("outputs_", p.isDouble, n), p.variant);
  ASSERT_NE(k, nullptr);
  cl_mem A = buffer(c.a), K = buffer(c.k), C = buffer(c.codes);
  cl_mem R = sentinelBuffer(17 * E, sentinel<T>()), St = sentinelBuffer(4 * S, sentinel<T>());
  cl_mem Q = sentinelBuffer(4 * S, intSentinel), V = sentinelBuffer(E, intSentinel);
  const cl_uint e = cl_uint(E), s = cl_uint(S);
  setArgs(k, A, K, C, R, St, Q, V, e, s, c.uk, c.ux);
  run(k, {E / n});
  const std::vector<T> r = read<T>(R, 17 * E), st = read<T>(St, 4 * S);
  const std::vector<int> q = read<int>(Q, 4 * S), v = read<int>(V, E);

  const char *names[17] = {"frexp",
                           "modf",
                           "fract",
                           "sincos (sine)",
                           "remquo",
                           "lgamma_r",
                           "ldexp(x, k)",
                           "ldexp(x, int k)",
                           "ldexp(x, uniform k)",
                           "pown",
                           "rootn",
                           "powr",
                           "native_powr",
                           "half_powr",
                           "nan",
                           "sincos (uniform x)",
                           "frexp (uniform x)"};
  const int inputOf[17] = {0, 0, 0, 1, 2, 4, 5, 5, 5, 6, 7, 8, 8, 8, 0, 1, 1};
  for (int slot = 0; slot < 17; ++slot) {
    if (sizeof(T) == 8 && (slot == 12 || slot == 13))
      continue;
    const std::string what = label + " " + names[slot];
    const T *x = c.in(inputOf[slot]);
    const T *y = slot == 4 ? c.in(3) : slot >= 11 && slot <= 13 ? c.in(9) : nullptr;
    MaxError maxError;
    if (slot == 7) { // ldexp(x, k) with the first component's k for all components
      std::vector<Want<T>> want(E);
      for (size_t j = 0; j < E; ++j)
        want[j] = Want<T>::exact(ldexpOf(x[j], c.k[(j / n) * n]));
      checkValues(what, &r[slot * E], want, x, nullptr);
    } else if (slot == 14) {
      Mismatches bad(what);
      for (size_t j = 0; j < E; ++j) {
        double error;
        if (!c.value[14][j].met(r[14 * E + j], &error))
          bad.add([&] {
            return "code " + std::to_string(std::uint64_t(c.codes[j])) + ": got " +
                   show(r[14 * E + j]) + ", want a quiet NaN";
          });
      }
    } else if (slot == 15 || slot == 16) {
      checkValues(what, &r[slot * E], c.value[slot], std::vector<T>(E, c.ux).data(), nullptr,
                  &maxError);
    } else {
      checkValues(what, &r[slot * E], c.value[slot], x, y, &maxError);
    }
    if (maxError.value > 0)
      RecordProperty(std::string("max_ulp_") + names[slot], std::to_string(maxError.value));
  }

  const char *storedNames[4] = {"modf (integral part)", "fract (floor)", "sincos (cosine)",
                                "sincos (uniform x, cosine)"};
  const int storedInput[4] = {0, 0, 1, 1};
  for (int slot = 0; slot < 4; ++slot) {
    const std::string what = label + " " + storedNames[slot];
    const std::vector<T> got = unpack(what, &st[slot * S], n, sentinel<T>());
    const std::vector<T> ux(E, c.ux);
    MaxError maxError;
    checkValues(what, got.data(), c.stored[slot], slot == 3 ? ux.data() : c.in(storedInput[slot]),
                nullptr, &maxError);
    if (maxError.value > 0)
      RecordProperty(std::string("max_ulp_") + storedNames[slot], std::to_string(maxError.value));
  }
  const char *intNames[4] = {"frexp (exponent)", "remquo (quotient)", "lgamma_r (sign)",
                             "frexp (uniform x, exponent)"};
  const int intInput[4] = {0, 2, 4, -1};
  for (int slot = 0; slot < 4; ++slot) {
    const std::string what = label + " " + intNames[slot];
    const std::vector<int> got = unpack(what, &q[slot * S], n, intSentinel);
    checkInts(what, got.data(), c.storedInt[slot], [&](size_t j) {
      if (intInput[slot] < 0)
        return "x " + show(c.ux);
      std::string s = "x " + show(c.in(intInput[slot])[j]);
      if (slot == 1)
        s += " y " + show(c.in(3)[j]);
      return s;
    });
  }
  std::vector<WantInt> ilogbWant(E);
  for (size_t j = 0; j < E; ++j)
    ilogbWant[j] = {true, c.ilogb[j]};
  checkInts(label + " ilogb", v.data(), ilogbWant,
            [&](size_t j) { return "x " + show(c.in(0)[j]); });
}

TEST_P(MathOutputsGlobal, EveryFunction) {
  if (GetParam().isDouble)
    check<double>();
  else
    check<float>();
}

INSTANTIATE_TEST_SUITE_P(MathOutputs, MathOutputsGlobal,
                         ::testing::ValuesIn(params({1, 2, 3, 4, 8, 16}, {1, 2, 3, 4, 8, 16})),
                         paramName);

// ---- local, private and generic pointers ------------------------------------------
class MathOutputsSpaces : public MathOutputsFixture, public ::testing::WithParamInterface<Param> {
protected:
  template <typename T> void check();
};

template <typename T> void MathOutputsSpaces::check() {
  cl_bool generic = CL_FALSE;
  clGetDeviceInfo(device, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, sizeof generic, &generic,
                  nullptr);
  if (!generic)
    GTEST_SKIP() << "the device does not support the generic address space";
  const Param p = GetParam();
  const MathCase<T> &c = mathCase<T>();
  const int n = p.width;
  const size_t S = E / n * strideOf(n);
  const std::string label = kernelName("spaces_", p.isDouble, n) + p.variant;
  cl_kernel k = cachedKernel(kernelName("spaces_", p.isDouble, n), p.variant);
  ASSERT_NE(k, nullptr);
  cl_mem A = buffer(c.a);
  cl_mem R = sentinelBuffer(18 * E, sentinel<T>()), St = sentinelBuffer(9 * E, sentinel<T>());
  cl_mem Sq = sentinelBuffer(9 * E, intSentinel);
  cl_mem Gv = sentinelBuffer(S, sentinel<T>()), Gi = sentinelBuffer(S, intSentinel);
  const cl_uint e = cl_uint(E);
  setArgs(k, A, R, St, Sq, Gv, Gi, e);
  run(k, {E / n}, {16});
  const std::vector<T> r = read<T>(R, 18 * E), st = read<T>(St, 9 * E);
  const std::vector<int> sq = read<int>(Sq, 9 * E);

  const char *spaces[3] = {"local", "private", "generic"};
  const char *functions[6] = {"frexp", "modf", "fract", "sincos", "remquo", "lgamma_r"};
  const int inputOf[6] = {0, 0, 0, 1, 2, 4};
  for (int f = 0; f < 6; ++f)
    for (int sp = 0; sp < 3; ++sp) {
      const std::string what = label + " " + functions[f] + " (" + spaces[sp] + ")";
      checkValues(what, &r[(3 * f + sp) * E], c.value[f], c.in(inputOf[f]),
                  f == 4 ? c.in(3) : nullptr);
      if (f >= 1 && f <= 3)
        checkValues(what + " stored", &st[(3 * (f - 1) + sp) * E], c.stored[f - 1],
                    c.in(inputOf[f]), nullptr);
      else {
        const int g = f == 0 ? 0 : f == 4 ? 1 : 2;
        checkInts(what + " stored", &sq[(3 * g + sp) * E], c.storedInt[g],
                  [&](size_t j) { return "x " + show(c.in(inputOf[f])[j]); });
      }
    }
}

TEST_P(MathOutputsSpaces, LocalPrivateGeneric) {
  if (GetParam().isDouble)
    check<double>();
  else
    check<float>();
}

INSTANTIATE_TEST_SUITE_P(MathOutputs, MathOutputsSpaces,
                         ::testing::ValuesIn(params({1, 2, 3, 4, 8, 16}, {1, 2, 3, 4, 8, 16})),
                         paramName);

// ---- divergent control flow -----------------------------------------------------------
// Only work-items with sel[i] set call sincos and frexp; the others'
// results, and the memory their pointers would have stored to, stay as they
// were.
class MathOutputsDivergent : public MathOutputsFixture,
                             public ::testing::WithParamInterface<Param> {
protected:
  template <typename T> void check();
};

template <typename T> void MathOutputsDivergent::check() {
  const Param p = GetParam();
  const MathCase<T> &c = mathCase<T>();
  const int n = p.width;
  const size_t vectors = E / n, S = vectors * strideOf(n);
  const std::string label = kernelName("divergent_", p.isDouble, n) + p.variant;
  cl_kernel k = cachedKernel(kernelName("divergent_", p.isDouble, n), p.variant);
  ASSERT_NE(k, nullptr);
  Random random(0xd17e + n);
  std::vector<int> sel(vectors);
  for (int &s : sel)
    s = random() % 3 == 0 ? 0 : int(random() % 5) + 1;
  cl_mem A = buffer(c.a), Sel = buffer(sel);
  cl_mem R = sentinelBuffer(2 * E, sentinel<T>()), St = sentinelBuffer(S, sentinel<T>());
  cl_mem Q = sentinelBuffer(S, intSentinel);
  const cl_uint e = cl_uint(E);
  setArgs(k, A, Sel, R, St, Q, e);
  run(k, {vectors});
  const std::vector<T> r = read<T>(R, 2 * E), st = read<T>(St, S);
  const std::vector<int> q = read<int>(Q, S);

  const T *x = c.in(1);
  std::vector<Want<T>> sine(E), cosine(E), mantissa(E);
  std::vector<WantInt> exponent(E);
  for (size_t j = 0; j < E; ++j) {
    if (sel[j / n]) {
      sincosWant(x[j], &sine[j], &cosine[j]);
      int ex;
      mantissa[j] = Want<T>::exact(frexpOf(x[j], &ex));
      exponent[j] = {true, ex};
    } else {
      sine[j] = cosine[j] = mantissa[j] = Want<T>::exact(sentinel<T>());
      exponent[j] = {true, intSentinel};
    }
  }
  // The sentinel is a NaN: compare untouched elements bit for bit.
  auto checkUntouched = [&](const std::string &what, const T *got) {
    Mismatches bad(what + " (not called)");
    for (size_t j = 0; j < E; ++j)
      if (!sel[j / n] && bitsOf(got[j]) != bitsOf(sentinel<T>()))
        bad.add([&] { return "element " + std::to_string(j) + " was written"; });
  };
  checkValues(label + " sine", r.data(), sine, x, nullptr);
  checkUntouched(label + " sine", r.data());
  checkValues(label + " frexp", &r[E], mantissa, x, nullptr);
  checkUntouched(label + " frexp", &r[E]);
  const std::vector<T> cosines = unpack(label + " cosine", st.data(), n, sentinel<T>());
  checkValues(label + " cosine", cosines.data(), cosine, x, nullptr);
  checkUntouched(label + " cosine", cosines.data());
  const std::vector<int> exponents = unpack(label + " exponent", q.data(), n, intSentinel);
  checkInts(label + " exponent", exponents.data(), exponent,
            [&](size_t j) { return "x " + show(x[j]); });
}

TEST_P(MathOutputsDivergent, SomeWorkItemsCall) {
  if (GetParam().isDouble)
    check<double>();
  else
    check<float>();
}

INSTANTIATE_TEST_SUITE_P(MathOutputs, MathOutputsDivergent,
                         ::testing::Values(Param{false, 3, ""}, Param{false, 3, "-O0"},
                                           Param{true, 2, ""}, Param{true, 2, "-O0"}),
                         paramName);

} // namespace
} // namespace lanewise::test
