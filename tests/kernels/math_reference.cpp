// SPDX-License-Identifier: Apache-2.0
// The table of math functions with their MPFR references, bounds, operand
// domains and prescribed values; the float operand sets and their
// references; the verdict on a float result; and the math tests' fixture
// (math_reference.h says how results are judged).
#include "math_reference.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace lanewise::test::math {

mpfr_prec_t precision = 256;

// ---- floats ------------------------------------------------------------------------
std::uint32_t bitsOf(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float fromBits(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
bool isSignaling(float f) { return std::isnan(f) && !(bitsOf(f) & 0x400000u); }

std::string describe(float f) {
  char text[64];
  std::snprintf(text, sizeof text, "%a (0x%08x)", double(f), unsigned(bitsOf(f)));
  return text;
}

namespace {

bool isDenormal(float f) { return f != 0 && std::fabs(f) < FLT_MIN; }

constexpr float inf = std::numeric_limits<float>::infinity();
const float qnan = fromBits(0x7fc00000u);
const float snan = fromBits(0x7fa00000u); // signalling, with a payload
const float minDenormal = fromBits(1);
const float maxDenormal = fromBits(0x7fffffu);

// ---- references ----------------------------------------------------------------
#define MPFR1(fn)                                                                                  \
  [](mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr, mpfr_srcptr) { return fn(r, x, nearest); }
#define MPFR2(fn)                                                                                  \
  [](mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_srcptr) { return fn(r, x, y, nearest); }

float toFloat(mpfr_srcptr x) { return mpfr_get_flt(x, nearest); }
int setFloat(mpfr_ptr r, float f) { return mpfr_set_flt(r, f, nearest); }

// r / pi, exact when r is zero, infinite or NaN.
int overPi(mpfr_ptr r, int inexact) {
  if (mpfr_zero_p(r) || !mpfr_number_p(r))
    return inexact;
  Big pi;
  mpfr_const_pi(pi, nearest);
  mpfr_div(r, r, pi, nearest);
  return 1;
}

// sin(pi x) on the exact reduction of x modulo 2; 7.5.1 prescribes the zeros.
int sinpiReference(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr, mpfr_srcptr) {
  if (!mpfr_number_p(x)) {
    mpfr_set_nan(r);
    return 0;
  }
  if (mpfr_integer_p(x)) { // sinpi(+n) = +0, sinpi(-n) = -0
    mpfr_set_zero(r, mpfr_signbit(x) ? -1 : 1);
    return 0;
  }
  Big two, t, pi;
  mpfr_set_ui(two, 2, nearest);
  mpfr_remainder(t, x, two, nearest); // exact, in (-1, 1)
  mpfr_const_pi(pi, nearest);
  mpfr_mul(t, t, pi, nearest);
  mpfr_sin(r, t, nearest);
  return 1;
}

int cospiReference(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr, mpfr_srcptr) {
  if (!mpfr_number_p(x)) {
    mpfr_set_nan(r);
    return 0;
  }
  Big two, t, pi;
  mpfr_set_ui(two, 2, nearest);
  mpfr_remainder(t, x, two, nearest);
  mpfr_abs(t, t, nearest);       // in [0, 1]
  if (mpfr_cmp_d(t, 0.5) == 0) { // cospi(n + 0.5) = +0
    mpfr_set_zero(r, 1);
    return 0;
  }
  if (mpfr_integer_p(t)) {
    mpfr_set_si(r, mpfr_zero_p(t) ? 1 : -1, nearest);
    return 0;
  }
  mpfr_const_pi(pi, nearest);
  mpfr_mul(t, t, pi, nearest);
  mpfr_cos(r, t, nearest);
  return 1;
}

// Whether the integer x is odd.
bool isOdd(mpfr_srcptr x) {
  Big two, t;
  mpfr_set_ui(two, 2, nearest);
  mpfr_fmod(t, x, two, nearest);
  return !mpfr_zero_p(t);
}

int tanpiReference(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr, mpfr_srcptr) {
  if (!mpfr_number_p(x)) {
    mpfr_set_nan(r);
    return 0;
  }
  if (mpfr_integer_p(x)) { // copysign(0, n) for even n, copysign(0, -n) for odd n
    const bool negative = mpfr_signbit(x) != isOdd(x);
    mpfr_set_zero(r, negative ? -1 : 1);
    return 0;
  }
  Big t;
  mpfr_mul_2si(t, x, 1, nearest);
  if (mpfr_integer_p(t)) { // n + 0.5: +inf for even n, -inf for odd n
    mpfr_floor(t, x);
    mpfr_set_inf(r, isOdd(t) ? -1 : 1);
    return 0;
  }
  Big one, pi;
  mpfr_set_ui(one, 1, nearest);
  mpfr_remainder(t, x, one, nearest); // tan has period pi
  mpfr_const_pi(pi, nearest);
  mpfr_mul(t, t, pi, nearest);
  mpfr_tan(r, t, nearest);
  return 1;
}

// rsqrt(x) = 1 / sqrt(x), so rsqrt(-0) = -inf as in the conformance tests'
// reference.
int rsqrtReference(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr, mpfr_srcptr) {
  if (mpfr_zero_p(x)) {
    mpfr_set_inf(r, mpfr_signbit(x) ? -1 : 1);
    return 0;
  }
  return mpfr_rec_sqrt(r, x, nearest);
}

// logb: the exponent of x, floor(log2 |x|), for denormals too.
int logbReference(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr, mpfr_srcptr) {
  if (mpfr_nan_p(x))
    mpfr_set_nan(r);
  else if (mpfr_inf_p(x))
    mpfr_set_inf(r, 1);
  else if (mpfr_zero_p(x))
    mpfr_set_inf(r, -1);
  else
    mpfr_set_si(r, mpfr_get_exp(x) - 1, nearest);
  return 0;
}

int lgammaReference(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr, mpfr_srcptr) {
  int sign = 0;
  return mpfr_lgamma(r, &sign, x, nearest);
}

int scaledByConstant(mpfr_ptr r, mpfr_srcptr x, bool toDegrees) {
  if (mpfr_zero_p(x) || !mpfr_number_p(x))
    return mpfr_set(r, x, nearest);
  Big c;
  mpfr_const_pi(c, nearest);
  if (toDegrees)
    mpfr_ui_div(c, 180, c, nearest);
  else
    mpfr_div_ui(c, c, 180, nearest);
  mpfr_mul(r, x, c, nearest);
  return 1;
}

// sign: 1.0 for x > 0, -0.0 for -0.0, +0.0 for +0.0, -1.0 for x < 0, 0.0 for NaN.
int signReference(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr, mpfr_srcptr) {
  if (mpfr_nan_p(x))
    mpfr_set_zero(r, 1);
  else if (mpfr_zero_p(x))
    mpfr_set(r, x, nearest);
  else
    mpfr_set_si(r, mpfr_sgn(x) > 0 ? 1 : -1, nearest);
  return 0;
}

// nextafter: the next float after x in the direction of y; y if x == y.
int nextafterReference(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_srcptr) {
  const float a = toFloat(x), b = toFloat(y);
  if (std::isnan(a) || std::isnan(b)) {
    mpfr_set_nan(r);
    return 0;
  }
  if (a == b)
    return setFloat(r, b);
  if (a == 0) // the smallest denormal, with y's sign
    return setFloat(r, std::copysign(minDenormal, b));
  const std::uint32_t bits = bitsOf(a);
  return setFloat(r, fromBits((b > a) == (a > 0) ? bits + 1 : bits - 1));
}

// maxmag: x if |x| > |y|, y if |y| > |x|, otherwise fmax(x, y); minmag alike.
int maxmagReference(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_srcptr) {
  if (!mpfr_nan_p(x) && !mpfr_nan_p(y)) {
    const int c = mpfr_cmpabs(x, y);
    if (c != 0)
      return mpfr_set(r, c > 0 ? x : y, nearest);
  }
  return mpfr_max(r, x, y, nearest);
}
int minmagReference(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_srcptr) {
  if (!mpfr_nan_p(x) && !mpfr_nan_p(y)) {
    const int c = mpfr_cmpabs(x, y);
    if (c != 0)
      return mpfr_set(r, c < 0 ? x : y, nearest);
  }
  return mpfr_min(r, x, y, nearest);
}

// step(edge, x): 0.0 if x < edge, else 1.0.
int stepReference(mpfr_ptr r, mpfr_srcptr edge, mpfr_srcptr x, mpfr_srcptr) {
  mpfr_set_ui(r, mpfr_less_p(x, edge) ? 0 : 1, nearest);
  return 0;
}
// max(x, y): y if x < y, else x; min(x, y): y if y < x, else x.
int maxReference(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_srcptr) {
  return mpfr_set(r, mpfr_less_p(x, y) ? y : x, nearest);
}
int minReference(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_srcptr) {
  return mpfr_set(r, mpfr_less_p(y, x) ? y : x, nearest);
}
// clamp(x, lo, hi) = fmin(fmax(x, lo), hi).
int clampReference(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr lo, mpfr_srcptr hi) {
  Big t;
  mpfr_max(t, x, lo, nearest);
  return mpfr_min(r, t, hi, nearest);
}
// mix(x, y, a) = x + (y - x) * a.
int mixReference(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_srcptr a) {
  Big t;
  int inexact = mpfr_sub(t, y, x, nearest) != 0;
  inexact |= mpfr_mul(t, t, a, nearest) != 0;
  inexact |= mpfr_add(r, x, t, nearest) != 0;
  return inexact;
}
// smoothstep(e0, e1, x): t = clamp((x - e0) / (e1 - e0), 0, 1), t * t * (3 - 2t).
int smoothstepReference(mpfr_ptr r, mpfr_srcptr e0, mpfr_srcptr e1, mpfr_srcptr x) {
  Big t, d;
  mpfr_sub(t, x, e0, nearest);
  mpfr_sub(d, e1, e0, nearest);
  mpfr_div(t, t, d, nearest);
  if (mpfr_cmp_ui(t, 0) < 0)
    mpfr_set_ui(t, 0, nearest);
  if (mpfr_cmp_ui(t, 1) > 0)
    mpfr_set_ui(t, 1, nearest);
  mpfr_mul_si(d, t, -2, nearest);
  mpfr_add_ui(d, d, 3, nearest);
  mpfr_mul(r, t, t, nearest);
  mpfr_mul(r, r, d, nearest);
  return 1;
}
// mad as a multiply and an add, each rounded to float: the alternative to a
// correctly rounded fma that the spec allows.
float madTwoRoundings(float a, float b, float c) {
  Big x(a), y(b), z(c), t;
  mpfr_mul(t, x, y, nearest); // exact at 256 bits
  const float product = toFloat(t);
  Big p(product);
  mpfr_add(t, p, z, nearest);
  return toFloat(t);
}

} // namespace

// ---- input generation ----------------------------------------------------------
double unit(Random &random) { return double(random() >> 11) * 0x1p-53; }

Piece bits(double weight) { return {Kind::Bits, 0, 0, false, weight}; }
Piece denormals(double weight) { return {Kind::Denormal, 0, 0, true, weight}; }
Piece uniform(double lo, double hi, double weight) {
  return {Kind::Uniform, lo, hi, false, weight};
}
Piece logUniform(double lo, double hi, bool signs, double weight) {
  return {Kind::LogUniform, lo, hi, signs, weight};
}
Piece integers(double lo, double hi, double weight) {
  return {Kind::Integer, lo, hi, false, weight};
}
Piece halfIntegers(double lo, double hi, double weight) {
  return {Kind::HalfInteger, lo, hi, false, weight};
}
Piece nearIntegers(double lo, double hi, double weight) {
  return {Kind::NearInteger, lo, hi, false, weight};
}
Piece nearOne(bool signs, double weight) { return {Kind::NearOne, 0, 0, signs, weight}; }

float draw(const Domain &domain, Random &random) {
  double total = 0;
  for (const Piece &p : domain)
    total += p.weight;
  double pick = unit(random) * total;
  const Piece *piece = &domain.back();
  for (const Piece &p : domain) {
    if (pick < p.weight) {
      piece = &p;
      break;
    }
    pick -= p.weight;
  }
  const Piece &p = *piece;
  const bool negative = p.signs && (random() & 1);
  double v = 0;
  switch (p.kind) {
  case Kind::Bits:
    return fromBits(std::uint32_t(random()));
  case Kind::Denormal:
    return fromBits(std::uint32_t(random() & 0x807fffffu) | 1u);
  case Kind::Uniform:
    v = p.lo + (p.hi - p.lo) * unit(random);
    break;
  case Kind::LogUniform:
    v = std::exp2(std::log2(p.lo) + (std::log2(p.hi) - std::log2(p.lo)) * unit(random));
    break;
  case Kind::Integer:
  case Kind::HalfInteger:
  case Kind::NearInteger: {
    v = std::floor(p.lo + (p.hi - p.lo + 1) * unit(random));
    if (p.kind == Kind::HalfInteger)
      v += 0.5;
    if (p.kind == Kind::NearInteger) {
      float f = float(v);
      const float toward = random() & 1 ? inf : -inf;
      for (int k = 1 + int(random() % 3); k > 0; --k)
        f = std::nextafter(f, toward);
      v = f;
    }
    break;
  }
  case Kind::NearOne: {
    const double step = std::exp2(-1.0 - 23.0 * unit(random)) * (0.5 + unit(random));
    v = random() & 1 ? 1 - step : 1 + step;
    break;
  }
  }
  const float f = float(std::min(v, double(FLT_MAX)));
  return negative ? -f : f;
}

namespace {

// Special operands: for one operand ...
std::vector<float> specialValues1() {
  std::vector<float> v = {qnan, -qnan, snan};
  // clang-format off
  const float magnitudes[] = {
      0.0f, inf, minDenormal, maxDenormal, fromBits(0x00400001u), FLT_MIN, FLT_MAX,
      1.0f, 0.5f, 2.0f, 1.5f, 2.5f, 3.0f, 0.25f, 0.75f,
      std::nextafter(1.0f, 0.0f), std::nextafter(1.0f, 2.0f),
      0x1p23f, 0x1p23f + 1, 0x1p23f - 0.5f, 0x1p24f, 0x1p24f + 2, 0x1p-24f,
      3.14159265f, 1.57079633f, 10.0f, 100.0f, 1e-30f, 1e30f,
      // thresholds of exp, exp2, exp10 and tgamma
      88.7228394f, 89.0f, 103.972076f, 126.0f, 128.0f, 150.0f, 38.5318413f, 45.0f};
  // clang-format on
  for (float m : magnitudes) {
    v.push_back(m);
    v.push_back(-m);
  }
  return v;
}
// ... for each of two operands ...
std::vector<float> specialValues2() {
  std::vector<float> v = {qnan, snan};
  for (float m : {0.0f, inf, minDenormal, maxDenormal, FLT_MIN, FLT_MAX, 1.0f, 0.5f, 2.0f, 3.0f,
                  2.5f, 0x1p23f + 1}) {
    v.push_back(m);
    v.push_back(-m);
  }
  return v;
}
// ... and for each of three.
std::vector<float> specialValues3() {
  return {0.0f, -0.0f, inf, -inf, qnan, 1.0f, -1.0f, FLT_MAX, minDenormal, -0.5f, 3.0f};
}

Prescribed p1(float a, float want) { return {a, 0, 0, want}; }
Prescribed p2(float a, float b, float want) { return {a, b, 0, want}; }
Prescribed p3(float a, float b, float c, float want) { return {a, b, c, want}; }

// ---- domains and correlations ----------------------------------------------------
const Domain anything = {bits(3), denormals(0.3), logUniform(0x1p-20, 0x1p20, true)};
const Domain unitInterval = {bits(1), uniform(-1, 1, 2), logUniform(0x1p-30, 1, true),
                             nearOne(true), denormals(0.1)};
const Domain moderate = {bits(2), logUniform(0x1p-30, 0x1p7, true, 2), denormals(0.2)};
const Domain positive = {bits(1), logUniform(0x1p-149, 0x1p127, false, 3), nearOne(false),
                         denormals(0.3)};
const Domain trigonometric = {bits(1), uniform(-10, 10, 2), logUniform(0x1p-20, 0x1p20, true),
                              logUniform(0x1p20, 0x1p120, true, 0.5), denormals(0.1)};
// clang-format off
const Domain periodic = {bits(1), uniform(-4, 4, 2), halfIntegers(-100, 100, 0.5),
                         integers(-1000, 1000, 0.3), nearIntegers(-100, 100, 0.5),
                         logUniform(0x1p-20, 0x1p25, true), denormals(0.1)};
const Domain rounding = {bits(1), uniform(-4, 4), halfIntegers(-1000, 1000),
                         nearIntegers(-1000, 1000), logUniform(0x1p20, 0x1p25, true),
                         logUniform(0x1p-30, 1, true, 0.5), denormals(0.1)};
// clang-format on

// b near a: the same magnitude, either sign, or one ulp away.
void nearby(Random &random, float &a, float &b, float &) {
  switch (random() % 4) {
  case 0:
    b = a;
    break;
  case 1:
    b = -a;
    break;
  default:
    b = std::nextafter(a, random() & 1 ? inf : -inf);
    break;
  }
}
// fmod and remainder: x an odd multiple of y / 2 (a tie for remainder), far
// larger than y, near y, or a multiple of y plus a fraction of it.
void dividend(Random &random, float &a, float &b, float &c) {
  switch (random() % 4) {
  case 0: { // (2k + 1) b / 2, exact: b has at most 16 significant bits
    b = fromBits(bitsOf(b) & 0xffffff00u);
    if (!std::isfinite(b) || b == 0 || std::fabs(b) > 0x1p100f || std::fabs(b) < 0x1p-100f)
      b = 1.5f;
    a = float((2 * double(random() % 128) + 1) * double(b) / 2);
    break;
  }
  case 1:
    a = float(double(b) * std::ldexp(1 + unit(random), int(random() % 40)));
    break;
  case 2:
    nearby(random, a, b, c);
    break;
  default:
    a = float(double(b) * double(random() % 64) + double(b) * unit(random));
    break;
  }
}
// fma and mad: c cancelling a * b, or tiny products.
void cancelling(Random &random, float &a, float &b, float &c) {
  switch (random() % 3) {
  case 0:
    c = -float(double(a) * double(b));
    break;
  case 1:
    c = -std::nextafter(float(double(a) * double(b)), random() & 1 ? inf : -inf);
    break;
  default:
    a = float(std::ldexp(1 + unit(random), -60 - int(random() % 30)));
    b = float(std::ldexp(1 + unit(random), -60 - int(random() % 30)));
    c = float(std::ldexp(1 + unit(random), -140 - int(random() % 10))) * (random() & 1 ? 1 : -1);
    break;
  }
}
// clamp: lo <= hi (results are undefined otherwise).
void ordered(Random &, float &, float &b, float &c) {
  if (b > c)
    std::swap(b, c);
}

bool finiteOperands(float a, float b, float c) {
  return std::isfinite(a) && std::isfinite(b) && std::isfinite(c);
}
bool noDenormals(float a, float b, float c) {
  return !isDenormal(a) && !isDenormal(b) && !isDenormal(c);
}

// The prescribed values of each function (C99 F.9 and OpenCL C 3.0, 7.5.1).
const float nan = qnan;
std::vector<Prescribed> zeroesKept() { return {p1(0.0f, 0.0f), p1(-0.0f, -0.0f)}; }
std::vector<Prescribed> join(std::vector<Prescribed> a, const std::vector<Prescribed> &b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}
const std::vector<Prescribed> expPrescribed = {p1(0.0f, 1.0f), p1(-0.0f, 1.0f), p1(-inf, 0.0f),
                                               p1(inf, inf)};
const std::vector<Prescribed> logPrescribed = {p1(0.0f, -inf), p1(-0.0f, -inf), p1(1.0f, 0.0f),
                                               p1(-1.0f, nan), p1(-inf, nan),   p1(inf, inf)};
const std::vector<Prescribed> cosPrescribed = {p1(0.0f, 1.0f), p1(-0.0f, 1.0f), p1(inf, nan),
                                               p1(-inf, nan)};
const std::vector<Prescribed> sinPrescribed = join(zeroesKept(), {p1(inf, nan), p1(-inf, nan)});
const std::vector<Prescribed> sqrtPrescribed =
    join(zeroesKept(), {p1(-1.0f, nan), p1(-minDenormal, nan), p1(-inf, nan), p1(inf, inf)});
const std::vector<Prescribed> roundingInfinities = {p1(0.0f, 0.0f), p1(-0.0f, -0.0f), p1(inf, inf),
                                                    p1(-inf, -inf)};

std::vector<MathFunction> mathFunctions() {
  const float almostOne = std::nextafter(1.0f, 0.0f);
  // One entry a function: name, operands, reference, mode, bound, operand
  // domains, prescribed values[, accepted operands, flags, correlation].
  // clang-format off
  std::vector<MathFunction> f = {
      // ---- one operand ----
      {"acos", 1, MPFR1(mpfr_acos), Mode::Ulps, 4, {unitInterval},
       {p1(1.0f, 0.0f), p1(1.5f, nan), p1(-1.5f, nan), p1(inf, nan), p1(-inf, nan)}},
      {"acosh", 1, MPFR1(mpfr_acosh), Mode::Ulps, 4,
       {{bits(1), nearOne(false, 2), logUniform(1, 0x1p127, false), uniform(1, 10)}},
       {p1(1.0f, 0.0f), p1(0.5f, nan), p1(-1.0f, nan), p1(-inf, nan), p1(inf, inf)}},
      {"acospi", 1,
       [](mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr, mpfr_srcptr) {
         return overPi(r, mpfr_acos(r, x, nearest));
       },
       Mode::Ulps, 5, {unitInterval}, {p1(1.0f, 0.0f), p1(1.5f, nan), p1(-2.0f, nan)}},
      {"asin", 1, MPFR1(mpfr_asin), Mode::Ulps, 4, {unitInterval},
       join(zeroesKept(), {p1(2.0f, nan), p1(-2.0f, nan)})},
      {"asinh", 1, MPFR1(mpfr_asinh), Mode::Ulps, 4, {moderate},
       join(zeroesKept(), {p1(inf, inf), p1(-inf, -inf)})},
      {"asinpi", 1,
       [](mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr, mpfr_srcptr) {
         return overPi(r, mpfr_asin(r, x, nearest));
       },
       Mode::Ulps, 5, {unitInterval},
       join(zeroesKept(), {p1(std::nextafter(1.0f, 2.0f), nan), p1(-2.0f, nan)})},
      {"atan", 1, MPFR1(mpfr_atan), Mode::Ulps, 5, {moderate}, zeroesKept()},
      {"atanh", 1, MPFR1(mpfr_atanh), Mode::Ulps, 5, {unitInterval},
       join(zeroesKept(), {p1(1.0f, inf), p1(-1.0f, -inf), p1(2.0f, nan), p1(-2.0f, nan)})},
      {"atanpi", 1,
       [](mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr, mpfr_srcptr) {
         return overPi(r, mpfr_atan(r, x, nearest));
       },
       Mode::Ulps, 5, {moderate}, join(zeroesKept(), {p1(inf, 0.5f), p1(-inf, -0.5f)})},
      {"cbrt", 1, MPFR1(mpfr_cbrt), Mode::Ulps, 2, {anything},
       join(zeroesKept(), {p1(inf, inf), p1(-inf, -inf)})},
      {"ceil", 1,
       [](mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr, mpfr_srcptr) { return mpfr_ceil(r, x); },
       Mode::Exact, 0, {rounding},
       join(roundingInfinities,
            {p1(-0.5f, -0.0f), p1(-almostOne, -0.0f), p1(-minDenormal, -0.0f)})},
      {"cos", 1, MPFR1(mpfr_cos), Mode::Ulps, 4, {trigonometric}, cosPrescribed},
      {"cosh", 1, MPFR1(mpfr_cosh), Mode::Ulps, 4,
       {{bits(1), uniform(-90, 90, 2), logUniform(0x1p-30, 1, true)}},
       {p1(0.0f, 1.0f), p1(-0.0f, 1.0f), p1(inf, inf), p1(-inf, inf)}},
      {"cospi", 1, cospiReference, Mode::Ulps, 4, {periodic},
       {p1(0.0f, 1.0f), p1(-0.0f, 1.0f), p1(0.5f, 0.0f), p1(-0.5f, 0.0f), p1(1.5f, 0.0f),
        p1(-7.5f, 0.0f), p1(0x1p22f + 0.5f, 0.0f), p1(inf, nan), p1(-inf, nan)}},
      {"erfc", 1, MPFR1(mpfr_erfc), Mode::Ulps, 16,
       {{bits(1), uniform(-10, 11, 3), logUniform(0x1p-30, 1, true)}},
       {p1(-inf, 2.0f), p1(inf, 0.0f)}},
      {"erf", 1, MPFR1(mpfr_erf), Mode::Ulps, 16,
       {{bits(1), uniform(-5, 5, 2), logUniform(0x1p-30, 1, true), denormals()}},
       join(zeroesKept(), {p1(inf, 1.0f), p1(-inf, -1.0f)})},
      {"exp", 1, MPFR1(mpfr_exp), Mode::Ulps, 3,
       {{bits(1), uniform(-104, 89, 3), logUniform(0x1p-30, 1, true)}}, expPrescribed},
      {"exp2", 1, MPFR1(mpfr_exp2), Mode::Ulps, 3,
       {{bits(1), uniform(-151, 129, 3), logUniform(0x1p-30, 1, true)}}, expPrescribed},
      {"exp10", 1, MPFR1(mpfr_exp10), Mode::Ulps, 3,
       {{bits(1), uniform(-46, 39, 3), logUniform(0x1p-30, 1, true)}},
       {p1(-inf, 0.0f), p1(inf, inf)}},
      {"expm1", 1, MPFR1(mpfr_expm1), Mode::Ulps, 3,
       {{bits(1), uniform(-20, 89, 2), logUniform(0x1p-30, 1, true, 2), denormals()}},
       join(zeroesKept(), {p1(-inf, -1.0f), p1(inf, inf)})},
      {"fabs", 1, [](mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr, mpfr_srcptr) {
         return mpfr_abs(r, x, nearest);
       },
       Mode::Exact, 0, {anything},
       {p1(0.0f, 0.0f), p1(-0.0f, 0.0f), p1(inf, inf), p1(-inf, inf)}},
      {"floor", 1,
       [](mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr, mpfr_srcptr) { return mpfr_floor(r, x); },
       Mode::Exact, 0, {rounding}, roundingInfinities},
      {"lgamma", 1, lgammaReference, Mode::Ulps, 16,
       {{bits(1), uniform(-40, 40, 2), logUniform(1, 0x1p120, false), nearIntegers(-40, 3),
         logUniform(0x1p-30, 1, true, 0.5)}},
       {p1(1.0f, 0.0f), p1(2.0f, 0.0f), p1(0.0f, inf), p1(-0.0f, inf), p1(-1.0f, inf),
        p1(-2.0f, inf), p1(-0x1p23f, inf), p1(inf, inf), p1(-inf, inf)},
       nullptr, Sanity},
      {"log", 1, MPFR1(mpfr_log), Mode::Ulps, 3, {positive}, logPrescribed},
      {"log2", 1, MPFR1(mpfr_log2), Mode::Ulps, 3, {positive}, logPrescribed},
      {"log10", 1, MPFR1(mpfr_log10), Mode::Ulps, 3, {positive}, logPrescribed},
      {"log1p", 1, MPFR1(mpfr_log1p), Mode::Ulps, 2,
       {{bits(1), logUniform(0x1p-30, 0x1p20, true, 2), uniform(-1, 1), nearOne(false, 0.3),
         denormals()}},
       join(zeroesKept(), {p1(-1.0f, -inf), p1(-2.0f, nan), p1(-inf, nan), p1(inf, inf)})},
      {"logb", 1, logbReference, Mode::Exact, 0, {anything},
       {p1(0.0f, -inf), p1(-0.0f, -inf), p1(inf, inf), p1(-inf, inf)}},
      {"rint", 1, MPFR1(mpfr_rint), Mode::Exact, 0, {rounding},
       join(roundingInfinities,
            {p1(-0.5f, -0.0f), p1(-0.25f, -0.0f), p1(-minDenormal, -0.0f), p1(0.5f, 0.0f),
             p1(1.5f, 2.0f), p1(2.5f, 2.0f), p1(-2.5f, -2.0f)})},
      {"round", 1,
       [](mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr, mpfr_srcptr) { return mpfr_round(r, x); },
       Mode::Exact, 0, {rounding},
       join(roundingInfinities,
            {p1(-0.25f, -0.0f), p1(std::nextafter(-0.5f, 0.0f), -0.0f), p1(0.5f, 1.0f),
             p1(-0.5f, -1.0f), p1(2.5f, 3.0f), p1(-2.5f, -3.0f)})},
      {"rsqrt", 1, rsqrtReference, Mode::Ulps, 2, {anything}},
      {"sin", 1, MPFR1(mpfr_sin), Mode::Ulps, 4, {trigonometric}, sinPrescribed},
      {"sinh", 1, MPFR1(mpfr_sinh), Mode::Ulps, 4,
       {{bits(1), uniform(-90, 90, 2), logUniform(0x1p-30, 1, true), denormals()}},
       join(zeroesKept(), {p1(inf, inf), p1(-inf, -inf)})},
      {"sinpi", 1, sinpiReference, Mode::Ulps, 4, {periodic},
       join(zeroesKept(),
            {p1(1.0f, 0.0f), p1(2.0f, 0.0f), p1(3.0f, 0.0f), p1(0x1p23f, 0.0f),
             p1(0x1p30f, 0.0f), p1(-1.0f, -0.0f), p1(-2.0f, -0.0f), p1(-0x1p30f, -0.0f),
             p1(inf, nan), p1(-inf, nan)})},
      {"sqrt", 1, MPFR1(mpfr_sqrt), Mode::Ulps, 3, {anything}, sqrtPrescribed},
      {"tan", 1, MPFR1(mpfr_tan), Mode::Ulps, 5, {trigonometric}, sinPrescribed},
      {"tanh", 1, MPFR1(mpfr_tanh), Mode::Ulps, 5, {moderate},
       join(zeroesKept(), {p1(inf, 1.0f), p1(-inf, -1.0f)})},
      {"tanpi", 1, tanpiReference, Mode::Ulps, 6, {periodic},
       join(zeroesKept(),
            {p1(inf, nan), p1(-inf, nan), p1(2.0f, 0.0f), p1(-2.0f, -0.0f), p1(0x1p24f, 0.0f),
             p1(1.0f, -0.0f), p1(-1.0f, 0.0f), p1(3.0f, -0.0f), p1(-5.0f, 0.0f), p1(0.5f, inf),
             p1(2.5f, inf), p1(-1.5f, inf), p1(1.5f, -inf), p1(-0.5f, -inf), p1(-2.5f, -inf)})},
      {"tgamma", 1, MPFR1(mpfr_gamma), Mode::Ulps, 16,
       {{bits(1), uniform(-40, 36, 3), nearIntegers(-40, 0), logUniform(0x1p-30, 1, true)}},
       {p1(0.0f, inf), p1(-0.0f, -inf), p1(-1.0f, nan), p1(-2.0f, nan), p1(-inf, nan),
        p1(inf, inf)}},
      {"trunc", 1,
       [](mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr, mpfr_srcptr) { return mpfr_trunc(r, x); },
       Mode::Exact, 0, {rounding},
       join(roundingInfinities, {p1(-0.5f, -0.0f), p1(-almostOne, -0.0f)})},
      {"degrees", 1,
       [](mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr, mpfr_srcptr) {
         return scaledByConstant(r, x, true);
       },
       Mode::Ulps, 2, {anything}},
      {"radians", 1,
       [](mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr, mpfr_srcptr) {
         return scaledByConstant(r, x, false);
       },
       Mode::Ulps, 2, {anything}},
      {"sign", 1, signReference, Mode::Exact, 0, {anything},
       {p1(1.5f, 1.0f), p1(minDenormal, 1.0f), p1(-minDenormal, -1.0f), p1(0.0f, 0.0f),
        p1(-0.0f, -0.0f), p1(-3.0f, -1.0f), p1(nan, 0.0f), p1(inf, 1.0f), p1(-inf, -1.0f)}},

      // ---- two operands ----
      {"atan2", 2, MPFR2(mpfr_atan2), Mode::Ulps, 6, {moderate, moderate},
       {p2(0.0f, 0.0f, 0.0f), p2(-0.0f, 0.0f, -0.0f), p2(0.0f, 2.0f, 0.0f),
        p2(-0.0f, 2.0f, -0.0f), p2(5.0f, inf, 0.0f), p2(-5.0f, inf, -0.0f)},
       nullptr, 0, nearby},
      {"atan2pi", 2,
       [](mpfr_ptr r, mpfr_srcptr y, mpfr_srcptr x, mpfr_srcptr) {
         return overPi(r, mpfr_atan2(r, y, x, nearest));
       },
       Mode::Ulps, 6, {moderate, moderate},
       {p2(0.0f, -0.0f, 1.0f),    p2(-0.0f, -0.0f, -1.0f), p2(0.0f, 0.0f, 0.0f),
        p2(-0.0f, 0.0f, -0.0f),   p2(0.0f, -3.0f, 1.0f),   p2(-0.0f, -3.0f, -1.0f),
        p2(0.0f, 3.0f, 0.0f),     p2(-0.0f, 3.0f, -0.0f),  p2(-2.0f, 0.0f, -0.5f),
        p2(-2.0f, -0.0f, -0.5f),  p2(2.0f, 0.0f, 0.5f),    p2(2.0f, -0.0f, 0.5f),
        p2(5.0f, -inf, 1.0f),     p2(-5.0f, -inf, -1.0f),  p2(5.0f, inf, 0.0f),
        p2(-5.0f, inf, -0.0f),    p2(inf, 7.0f, 0.5f),     p2(-inf, 7.0f, -0.5f),
        p2(inf, -inf, 0.75f),     p2(-inf, -inf, -0.75f),  p2(inf, inf, 0.25f),
        p2(-inf, inf, -0.25f)},
       nullptr, 0, nearby},
      {"copysign", 2, MPFR2(mpfr_copysign), Mode::Exact, 0, {anything, anything},
       {p2(1.0f, -0.0f, -1.0f), p2(-inf, 0.0f, inf), p2(0.0f, -2.0f, -0.0f)}, nullptr, 0, nearby},
      {"fdim", 2, MPFR2(mpfr_dim), Mode::Exact, 0, {anything, anything},
       {p2(1.0f, nan, nan), p2(nan, 1.0f, nan), p2(inf, inf, 0.0f), p2(-inf, -inf, 0.0f),
        p2(3.0f, 5.0f, 0.0f), p2(-0.0f, 0.0f, 0.0f)},
       nullptr, 0, nearby},
      {"fmax", 2, MPFR2(mpfr_max), Mode::Exact, 0, {anything, anything},
       {p2(nan, 3.0f, 3.0f), p2(3.0f, nan, 3.0f), p2(snan, 3.0f, 3.0f), p2(-inf, snan, -inf),
        p2(nan, nan, nan)},
       nullptr, ZeroSignFree | NaNIgnored, nearby},
      {"fmin", 2, MPFR2(mpfr_min), Mode::Exact, 0, {anything, anything},
       {p2(nan, 3.0f, 3.0f), p2(3.0f, nan, 3.0f), p2(snan, 3.0f, 3.0f), p2(inf, snan, inf),
        p2(nan, nan, nan)},
       nullptr, ZeroSignFree | NaNIgnored, nearby},
      {"fmod", 2, MPFR2(mpfr_fmod), Mode::Exact, 0,
       {{bits(2), logUniform(0x1p-10, 0x1p10, true), denormals()}, anything},
       {p2(0.0f, 3.0f, 0.0f), p2(-0.0f, 3.0f, -0.0f), p2(inf, 3.0f, nan), p2(-inf, 3.0f, nan),
        p2(3.0f, 0.0f, nan), p2(3.0f, -0.0f, nan), p2(3.0f, inf, 3.0f), p2(-3.0f, -inf, -3.0f),
        p2(minDenormal, inf, minDenormal), p2(0.0f, nan, nan), p2(-0.0f, nan, nan)},
       nullptr, 0, dividend},
      {"hypot", 2, MPFR2(mpfr_hypot), Mode::Ulps, 4, {anything, anything},
       {p2(inf, nan, inf), p2(nan, -inf, inf), p2(-inf, 2.0f, inf), p2(3.0f, 0.0f, 3.0f),
        p2(-3.0f, -0.0f, 3.0f), p2(0.0f, -0.0f, 0.0f)},
       nullptr, 0, nearby},
      {"maxmag", 2, maxmagReference, Mode::Exact, 0, {anything, anything},
       {p2(3.0f, -5.0f, -5.0f), p2(-5.0f, 5.0f, 5.0f), p2(nan, 2.0f, 2.0f), p2(2.0f, nan, 2.0f)},
       nullptr, ZeroSignFree | NaNIgnored, nearby},
      {"minmag", 2, minmagReference, Mode::Exact, 0, {anything, anything},
       {p2(3.0f, -5.0f, 3.0f), p2(-5.0f, 5.0f, -5.0f), p2(nan, 2.0f, 2.0f), p2(2.0f, nan, 2.0f)},
       nullptr, ZeroSignFree | NaNIgnored, nearby},
      {"nextafter", 2, nextafterReference, Mode::Exact, 0, {anything, anything},
       {p2(-0.0f, 1.0f, minDenormal), p2(0.0f, -1.0f, -minDenormal), p2(0.0f, -0.0f, -0.0f),
        p2(-0.0f, 0.0f, 0.0f), p2(1.0f, 2.0f, std::nextafter(1.0f, 2.0f)),
        p2(1.0f, 0.0f, almostOne), p2(minDenormal, 0.0f, 0.0f), p2(FLT_MAX, inf, inf),
        p2(inf, 0.0f, FLT_MAX), p2(nan, 1.0f, nan), p2(1.0f, nan, nan)},
       nullptr, 0, nearby},
      {"pow", 2, MPFR2(mpfr_pow), Mode::Ulps, 16,
       {{bits(1), logUniform(0x1p-20, 0x1p20, true, 2), uniform(-2, 2), integers(-10, 10, 0.5),
         nearOne(true, 0.5)},
        {bits(1), uniform(-30, 30, 2), integers(-40, 40), halfIntegers(-10, 10, 0.5),
         logUniform(0x1p-20, 0x1p20, true)}},
       {p2(0.0f, -3.0f, inf),    p2(-0.0f, -3.0f, -inf), p2(0.0f, -2.0f, inf),
        p2(-0.0f, -2.0f, inf),   p2(-0.0f, -0.5f, inf),  p2(0.0f, -inf, inf),
        p2(-0.0f, -inf, inf),    p2(0.0f, 3.0f, 0.0f),   p2(-0.0f, 3.0f, -0.0f),
        p2(0.0f, 2.0f, 0.0f),    p2(-0.0f, 2.0f, 0.0f),  p2(-0.0f, 0.5f, 0.0f),
        p2(-1.0f, inf, 1.0f),    p2(-1.0f, -inf, 1.0f),  p2(1.0f, nan, 1.0f),
        p2(1.0f, inf, 1.0f),     p2(1.0f, -2.5f, 1.0f),  p2(nan, 0.0f, 1.0f),
        p2(nan, -0.0f, 1.0f),    p2(inf, 0.0f, 1.0f),    p2(-2.0f, 0.5f, nan),
        p2(-2.0f, -1.5f, nan),   p2(0.5f, -inf, inf),    p2(-0.5f, -inf, inf),
        p2(2.0f, -inf, 0.0f),    p2(-2.0f, -inf, 0.0f),  p2(0.5f, inf, 0.0f),
        p2(-0.5f, inf, 0.0f),    p2(2.0f, inf, inf),     p2(-2.0f, inf, inf),
        p2(-inf, -3.0f, -0.0f),  p2(-inf, -2.0f, 0.0f),  p2(-inf, -0.5f, 0.0f),
        p2(-inf, 3.0f, -inf),    p2(-inf, 2.0f, inf),    p2(-inf, 0.5f, inf),
        p2(inf, -2.0f, 0.0f),    p2(inf, 0.5f, inf)}},
      {"remainder", 2, MPFR2(mpfr_remainder), Mode::Exact, 0,
       {{bits(2), logUniform(0x1p-10, 0x1p10, true), denormals()}, anything},
       {p2(inf, 3.0f, nan), p2(-inf, 3.0f, nan), p2(3.0f, 0.0f, nan), p2(3.0f, -0.0f, nan),
        p2(3.0f, inf, 3.0f), p2(-3.0f, inf, -3.0f), p2(0.0f, 3.0f, 0.0f),
        p2(-0.0f, 3.0f, -0.0f), p2(nan, 1.0f, nan), p2(5.0f, 2.0f, 1.0f), p2(7.0f, 2.0f, -1.0f)},
       nullptr, 0, dividend},
      {"step", 2, stepReference, Mode::Exact, 0, {anything, anything},
       {p2(1.0f, 1.0f, 1.0f), p2(1.0f, 0.5f, 0.0f), p2(-0.0f, 0.0f, 1.0f), p2(0.0f, -0.0f, 1.0f),
        p2(2.0f, nan, 1.0f)},
       nullptr, 0, nearby},
      {"max", 2, maxReference, Mode::Exact, 0, {anything, anything}, {}, finiteOperands,
       ZeroSignFree, nearby},
      {"min", 2, minReference, Mode::Exact, 0, {anything, anything}, {}, finiteOperands,
       ZeroSignFree, nearby},

      // ---- three operands ----
      {"fma", 3,
       [](mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_srcptr z) {
         return mpfr_fma(r, x, y, z, nearest);
       },
       Mode::Exact, 0, {anything, anything, anything},
       {p3(inf, 0.0f, 1.0f, nan), p3(0.0f, -inf, nan, nan), p3(inf, 2.0f, -inf, nan),
        p3(2.0f, 3.0f, nan, nan), p3(1.0f, 1.0f, -1.0f, 0.0f), p3(-1.0f, 1.0f, 1.0f, 0.0f)},
       nullptr, 0, cancelling},
      {"mad", 3,
       [](mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_srcptr z) {
         return mpfr_fma(r, x, y, z, nearest);
       },
       Mode::Mad, 0, {anything, anything, anything},
       {p3(inf, 0.0f, 1.0f, nan), p3(2.0f, 3.0f, nan, nan), p3(2.0f, 3.0f, 1.0f, 7.0f)}, nullptr,
       0, cancelling},
      {"clamp", 3, clampReference, Mode::Exact, 0, {anything, anything, anything},
       {p3(5.0f, 1.0f, 3.0f, 3.0f), p3(-5.0f, 1.0f, 3.0f, 1.0f), p3(nan, 1.0f, 3.0f, 1.0f)},
       [](float, float lo, float hi) { return !(lo > hi); }, ZeroSignFree | NaNIgnored, ordered},
      {"mix", 3, mixReference, Mode::Absolute, 1e-3,
       {{uniform(-1000, 1000), logUniform(0x1p-20, 0x1p10, true), integers(-4, 4, 0.2)},
        {uniform(-1000, 1000), logUniform(0x1p-20, 0x1p10, true), integers(-4, 4, 0.2)},
        {uniform(0, 1, 3), logUniform(0x1p-30, 1, false), integers(0, 1, 0.2)}},
       {},
       [](float x, float y, float a) {
         return std::fabs(x) <= 1024 && std::fabs(y) <= 1024 && a >= 0 && a <= 1;
       }},
      {"smoothstep", 3, smoothstepReference, Mode::Absolute, 1e-5,
       {{uniform(-100, 100), logUniform(0x1p-20, 0x1p20, true)},
        {uniform(-100, 100), logUniform(0x1p-20, 0x1p20, true)},
        {uniform(-100, 100, 2), logUniform(0x1p-20, 0x1p20, true)}},
       {p3(0.0f, 1.0f, -1.0f, 0.0f), p3(0.0f, 1.0f, 2.0f, 1.0f), p3(0.0f, 1.0f, 0.0f, 0.0f),
        p3(0.0f, 1.0f, 1.0f, 1.0f)},
       [](float e0, float e1, float x) {
         return finiteOperands(e0, e1, x) && e0 < e1 && std::isfinite(e1 - e0);
       },
       0,
       [](Random &random, float &e0, float &e1, float &x) {
         if (e0 > e1)
           std::swap(e0, e1);
         x = e0 + (e1 - e0) * float(unit(random));
       }},
  };

  // ---- half_: 8192 ulp and the edge cases of the full function; the trigonometric
  // ones on [-2^16, 2^16]; no denormal operands, results may be flushed.
  auto base = [&](const std::string &name) -> const MathFunction & {
    for (const MathFunction &m : f)
      if (m.name == name)
        return m;
    std::abort();
  };
  const Accept halfTrigonometric = [](float x, float, float) {
    return std::fabs(x) <= 0x1p16f && !isDenormal(x);
  };
  const Domain halfAngles = {uniform(-65536, 65536), uniform(-10, 10, 2),
                             logUniform(0x1p-20, 0x1p16, true)};
  std::vector<MathFunction> reduced;
  for (const char *name :
       {"cos", "exp", "exp2", "exp10", "log", "log2", "log10", "rsqrt", "sin", "sqrt", "tan"}) {
    MathFunction h = base(name);
    h.name = std::string("half_") + name;
    h.mode = Mode::Ulps;
    h.bound = 8192;
    h.flags = Flush;
    const bool angle = h.name == "half_cos" || h.name == "half_sin" || h.name == "half_tan";
    h.accept = angle ? halfTrigonometric : noDenormals;
    if (angle)
      h.domains = {halfAngles};
    reduced.push_back(h);
  }
  reduced.push_back({"half_recip", 1,
                     [](mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr, mpfr_srcptr) {
                       return mpfr_ui_div(r, 1, x, nearest);
                     },
                     Mode::Ulps, 8192, {anything}, {}, noDenormals, Flush});
  reduced.push_back({"half_divide", 2, MPFR2(mpfr_div), Mode::Ulps, 8192, {anything, anything},
                     {}, noDenormals, Flush, nearby});
  // half_powr on x >= 0, where it is pow; powr's own edge cases (powr(0, 0) =
  // NaN, ...) are left to the powr tests.
  reduced.push_back({"half_powr", 2, MPFR2(mpfr_pow), Mode::Ulps, 8192,
                     {{logUniform(0x1p-126, 0x1p20, false, 2), bits(1)},
                      {uniform(-30, 30), logUniform(0x1p-20, 0x1p7, true), bits(0.5)}},
                     {},
                     [](float x, float y, float) {
                       return x > 0 && std::isfinite(x) && std::isfinite(y) && !isDenormal(x) &&
                              !isDenormal(y);
                     },
                     Flush});

  // ---- native_: implementation-defined accuracy and range; checked within
  // 8192 ulp on moderate domains, where every input and result is normal.
  auto native = [&](const char *name, int arity, Reference reference, std::vector<Domain> domains) {
    reduced.push_back({std::string("native_") + name, arity, reference, Mode::Ulps, 8192,
                       std::move(domains), {}, finiteOperands, Flush | Native});
  };
  native("cos", 1, MPFR1(mpfr_cos), {{uniform(-100, 100)}});
  native("sin", 1, MPFR1(mpfr_sin), {{uniform(-100, 100)}});
  native("tan", 1, MPFR1(mpfr_tan), {{uniform(-100, 100)}});
  native("exp", 1, MPFR1(mpfr_exp), {{uniform(-80, 80)}});
  native("exp2", 1, MPFR1(mpfr_exp2), {{uniform(-120, 120)}});
  native("exp10", 1, MPFR1(mpfr_exp10), {{uniform(-35, 35)}});
  native("log", 1, MPFR1(mpfr_log), {{logUniform(0x1p-100, 0x1p100, false)}});
  native("log2", 1, MPFR1(mpfr_log2), {{logUniform(0x1p-100, 0x1p100, false)}});
  native("log10", 1, MPFR1(mpfr_log10), {{logUniform(0x1p-100, 0x1p100, false)}});
  native("recip", 1,
         [](mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr, mpfr_srcptr) {
           return mpfr_ui_div(r, 1, x, nearest);
         },
         {{logUniform(0x1p-100, 0x1p100, true)}});
  native("rsqrt", 1, rsqrtReference, {{logUniform(0x1p-100, 0x1p100, false)}});
  native("sqrt", 1, MPFR1(mpfr_sqrt), {{logUniform(0x1p-100, 0x1p100, false)}});
  native("divide", 2, MPFR2(mpfr_div),
         {{logUniform(0x1p-60, 0x1p60, true)}, {logUniform(0x1p-60, 0x1p60, true)}});
  native("powr", 2, MPFR2(mpfr_pow), {{logUniform(0x1p-10, 0x1p10, false)}, {uniform(-8, 8)}});

  // clang-format on
  f.insert(f.end(), reduced.begin(), reduced.end());
  return f;
}

} // namespace

const std::vector<MathFunction> &allFunctions() {
  static const std::vector<MathFunction> functions = mathFunctions();
  return functions;
}
const MathFunction &functionNamed(const std::string &name) {
  for (const MathFunction &f : allFunctions())
    if (f.name == name)
      return f;
  std::abort();
}

// ---- operand sets and their references ------------------------------------------
Expected reference(const MathFunction &f, float a, float b, float c) {
  Big x(a), y(b), z(c), r;
  const int inexact = f.reference(r, x, y, z);
  Expected e{};
  e.nan = mpfr_nan_p(r);
  e.infinite = mpfr_inf_p(r);
  e.exactZero = mpfr_zero_p(r) && inexact == 0;
  e.value = mpfr_get_d(r, nearest);
  e.rounded = toFloat(r);
  if (f.mode == Mode::Mad)
    e.twoStep = madTwoRoundings(a, b, c);
  return e;
}

std::uint64_t seedOf(const std::string &name) {
  std::uint64_t h = 0xcbf29ce484222325ull; // FNV-1a
  for (char ch : name)
    h = (h ^ std::uint8_t(ch)) * 0x100000001b3ull;
  return h;
}

namespace {

Table buildTable(const MathFunction &f) {
  Table t;
  auto accepted = [&](float a, float b, float c) { return !f.accept || f.accept(a, b, c); };
  auto add = [&](float a, float b, float c) {
    t.operand[0].push_back(a);
    t.operand[1].push_back(b);
    t.operand[2].push_back(c);
  };
  // native_ functions: no prescribed or special values, only their domains.
  const bool special = !(f.flags & Native);
  if (special)
    for (const Prescribed &p : f.prescribed)
      if (accepted(p.a, p.b, p.c))
        add(p.a, p.b, p.c);
  t.prescribed = t.operand[0].size();
  if (special && f.arity == 1) {
    for (float a : specialValues1())
      if (accepted(a, 0, 0))
        add(a, 0, 0);
  } else if (special && f.arity == 2) {
    for (float a : specialValues2())
      for (float b : specialValues2())
        if (accepted(a, b, 0))
          add(a, b, 0);
  } else if (special) {
    for (float a : specialValues3())
      for (float b : specialValues3())
        for (float c : specialValues3())
          if (accepted(a, b, c))
            add(a, b, c);
  }
  Random random(seedOf(f.name));
  while (t.operand[0].size() < count) {
    float v[3] = {0, 0, 0};
    for (int k = 0; k < f.arity; ++k)
      v[k] = draw(f.domains[size_t(k)], random);
    if (f.correlate && random() % 4 == 0)
      f.correlate(random, v[0], v[1], v[2]);
    if (accepted(v[0], v[1], v[2]))
      add(v[0], v[1], v[2]);
  }
  for (auto &o : t.operand)
    o.resize(count);
  t.prescribed = std::min(t.prescribed, count);
  t.expected.resize(count);
  for (size_t k = 0; k < count; ++k)
    t.expected[k] = reference(f, t.operand[0][k], t.operand[1][k], t.operand[2][k]);
  return t;
}

} // namespace

const Table &tableOf(const MathFunction &f) {
  static std::map<std::string, std::unique_ptr<Table>> tables;
  std::unique_ptr<Table> &t = tables[f.name];
  if (!t)
    t = std::make_unique<Table>(buildTable(f));
  return *t;
}

// ---- comparing -------------------------------------------------------------------
namespace {

// The error of `got` in ulp of the exact value `exact` (the conformance
// tests' Ulp_Error for float): the ulp of the exact value's binade, of the
// binade below for a power of two, and 2^-149 below the smallest normal; an
// infinite result counts as 2^128.
double ulpError(float got, double exact) {
  double g = got;
  if (std::isinf(g))
    g = std::copysign(0x1p128, g);
  int exponent = exact == 0 ? -126 : std::ilogb(exact);
  const bool powerOfTwo = exact != 0 && std::fabs(exact) == std::ldexp(1.0, exponent);
  if (powerOfTwo)
    exponent -= 1;
  exponent = std::max(exponent, -126);
  return std::ldexp(g - exact, 23 - exponent);
}

bool sameFloat(float got, float want) {
  if (std::isnan(want))
    return std::isnan(got);
  return got == want && std::signbit(got) == std::signbit(want);
}

} // namespace

// zeroOperands: two or more operands are zeros (fmax(-0, +0) may be either).
Verdict judge(const MathFunction &f, const Expected &e, float got, bool zeroOperands,
              bool signalingOperand) {
  const bool zeroSignFree = (f.flags & ZeroSignFree) && zeroOperands;
  auto equal = [&](float want) {
    if (zeroSignFree && want == 0)
      return got == 0;
    return sameFloat(got, want);
  };
  // A signalling NaN operand (whose behaviour C99 F.9 leaves open): any NaN
  // will do as well as the quiet NaN's result, except for the functions whose
  // NaN behaviour OpenCL defines itself (fmax, fmin and those built on them).
  if (signalingOperand && !(f.flags & NaNIgnored) && std::isnan(got))
    return {true, 0, ""};
  if (f.mode == Mode::Mad) // (either may be a NaN where the other is not)
    return {equal(e.rounded) || equal(e.twoStep), 0,
            "neither fma nor a multiply and an add, correctly rounded"};
  if (e.nan)
    return {std::isnan(got), 0, "a NaN expected"};
  if (std::isnan(got))
    return {false, 0, "NaN where the result is not"};
  if (f.mode == Mode::Exact)
    return {equal(e.rounded), 0, "not the correctly rounded result"};
  if (f.mode == Mode::Absolute) {
    const double error = std::fabs(double(got) - e.value);
    return {error <= f.bound, error, "beyond the absolute error bound"};
  }
  const bool flushable = (f.flags & Flush) && std::fabs(e.value) < FLT_MIN && got == 0;
  if (e.exactZero)
    return {equal(e.rounded) || flushable, 0, "not the exact zero, sign included"};
  if (e.infinite)
    return {got == e.rounded, 0, "not the infinity"};
  if (got == e.rounded || flushable) // (an overflow to infinity counts as no error)
    return {true, got == e.rounded && !std::isinf(got) ? ulpError(got, e.value) : 0, ""};
  double error = ulpError(got, e.value);
  if (f.flags & Sanity) // lgamma: near its zeros, an absolute error of 2^-20 will do
    if (std::fabs(double(got) - e.value) <= 0x1p-20)
      error = std::min(std::fabs(error), f.bound);
  return {std::fabs(error) <= f.bound, error, "beyond the ulp bound"};
}

bool reportRequested() {
  static const bool requested = std::getenv("LANEWISE_MATH_REPORT") != nullptr;
  return requested;
}

// ---- the fixture -------------------------------------------------------------------
void MathFixture::SetUp() {
  SharedContextTest::SetUp();
  if (HasFatalFailure())
    return;
  const auto config = deviceInfo<cl_device_fp_config>(device, CL_DEVICE_SINGLE_FP_CONFIG);
  // The full profile requires round to nearest and infinities and NaNs.
  ASSERT_TRUE(config & CL_FP_INF_NAN);
  ASSERT_TRUE(config & CL_FP_ROUND_TO_NEAREST);
  denormals_ = (config & CL_FP_DENORM) != 0;
  config_ = config;
}

std::vector<float> MathFixture::compute(const std::string &kernelName, int arity,
                                        const std::vector<float> *operands, int width,
                                        const std::string &variant) {
  cl_kernel k = cachedKernel("math", kernelName, variant);
  if (!k)
    return {};
  return compute(k, arity, operands, width);
}
std::vector<float> MathFixture::compute(cl_kernel k, int arity, const std::vector<float> *operands,
                                        int width) {
  const std::vector<float> sentinel(count, fromBits(0x7f8ddeadu));
  cl_mem a = buffer(operands[0]), r = buffer(sentinel);
  if (arity == 1) {
    setArgs(k, a, r, cl_int(width));
  } else if (arity == 2) {
    cl_mem b = buffer(operands[1]);
    setArgs(k, a, b, r, cl_int(width));
  } else {
    cl_mem b = buffer(operands[1]), c = buffer(operands[2]);
    setArgs(k, a, b, c, r, cl_int(width));
  }
  run(k, {count / size_t(width)});
  return read<float>(r, count);
}

double MathFixture::check(const MathFunction &f, const Table &t, const std::vector<float> &got,
                          const std::string &what, bool withPrescribed) {
  Failures failures{what};
  double worst = 0;
  for (size_t k = 0; k < count; ++k) {
    const float a = t.operand[0][k], b = t.operand[1][k], c = t.operand[2][k];
    const float operands[3] = {a, b, c};
    int zeros = 0;
    bool signaling = false;
    for (int i = 0; i < f.arity; ++i) {
      zeros += operands[i] == 0;
      signaling = signaling || isSignaling(operands[i]);
    }
    Verdict v = judge(f, t.expected[k], got[k], zeros >= 2, signaling);
    // Without denormal support results could be flushed ("Edge Case Behavior
    // in Flush to Zero Mode").
    if (!v.ok && !denormals_ && std::fabs(t.expected[k].value) < FLT_MIN && got[k] == 0)
      v.ok = true;
    if (v.ok && withPrescribed && k < t.prescribed) {
      const Prescribed &p = prescribedAt(f, k);
      if (!sameFloat(got[k], p.want))
        v = {false, 0, "not the prescribed " + describe(p.want)};
    }
    if (v.ok && std::isnan(got[k]) && !signaling && isSignaling(got[k]))
      v = {false, 0, "a signalling NaN"};
    if (v.ok) {
      worst = std::max(worst, std::fabs(v.error));
      continue;
    }
    failures.add([&] {
      std::ostringstream s;
      s << "element " << k << " " << f.name << "(";
      for (int i = 0; i < f.arity; ++i)
        s << (i ? ", " : "") << describe(operands[i]);
      char exact[64];
      std::snprintf(exact, sizeof exact, "%.17g", t.expected[k].value);
      s << ") = " << describe(got[k]) << ": " << v.why << "; exact " << exact
        << ", correctly rounded " << describe(t.expected[k].rounded);
      if (f.mode == Mode::Ulps || f.mode == Mode::Absolute)
        s << ", error " << v.error << " (bound " << f.bound << ")";
      return s.str();
    });
  }
  return worst;
}

const Prescribed &MathFixture::prescribedAt(const MathFunction &f, size_t k) {
  size_t index = 0;
  for (const Prescribed &p : f.prescribed)
    if (!f.accept || f.accept(p.a, p.b, p.c)) {
      if (index == k)
        return p;
      ++index;
    }
  std::abort();
}

std::string variantName(const std::string &variant) { return variant.empty() ? "O2" : "O0"; }

std::string paramName(const ::testing::TestParamInfo<Param> &info) {
  return info.param.function + "_" + variantName(info.param.variant);
}
void PrintTo(const Param &p, std::ostream *os) {
  *os << p.function << " " << variantName(p.variant);
}

} // namespace lanewise::test::math
