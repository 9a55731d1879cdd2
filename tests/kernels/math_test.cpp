// SPDX-License-Identifier: Apache-2.0
// Accuracy and special values of the single- and double-precision math
// functions (OpenCL C 3.0, 6.15.2), the floating-point common functions
// (6.15.4) and the half_ and native_ functions on float and floatn; kernels
// in cl/math.cl.
//
// References come from MPFR at 256 bits, computed from the exact float
// operands, or from the spec's text where a function is defined by it
// (nextafter, maxmag, step, sign, ...). Errors are measured as the spec
// (7.4) and the conformance tests define them: (result - exact) / ulp, the
// ulp being the spacing of floats in the exact value's binade (the lower
// binade's for a power of two, 2^-149 below the smallest normal), with an
// infinite result counted as 2^128 ("result overflow within the specified
// ULP error is permitted"). A result equal to the correctly rounded exact
// value always passes. Bounds are the full-profile table "ULP values for
// single precision built-in math functions"; functions given as 0 ulp or
// correctly rounded must return the correctly rounded value, signed zeros
// included (either zero for fmax(-0, +0) and the functions built on it).
// mad may be a correctly rounded fma or a multiply and an add, each
// correctly rounded; mix and smoothstep have absolute tolerances (1e-3,
// 1e-5) and are run where they are defined (a in [0, 1], edge0 < edge1) on
// operands of moderate magnitude. lgamma's accuracy is undefined: it is held
// to a sanity bound of 16 ulp or 2^-20 absolute.
//
// Special values (7.5): where the exact result is NaN the result must be a
// NaN, and only there; where it is an exact infinity or zero, as the values
// C99 F.9 and the additional requirements prescribe (sinpi(-n) = -0, log(1)
// = +0, ...), it must be returned exactly, sign included. Each function also
// runs its list of prescribed values from 7.5 and C99 F.9, compared bit for
// bit (any NaN for a NaN). A NaN result must be quiet unless an operand was
// a signalling NaN; with a signalling NaN operand, whose behaviour C99
// leaves open, any NaN passes too, except for fmax, fmin and the functions
// defined through them, which return the other operand. rsqrt(-0) is
// 1 / sqrt(-0) = -inf, as in the conformance tests' reference.
//
// Denormals: the device reports CL_FP_DENORM in CL_DEVICE_SINGLE_FP_CONFIG
// (were it not to, results below the smallest normal could be flushed), so
// denormal operands and results must be right, except for half_ functions,
// whose denormal support is optional: their results below the smallest
// normal may be flushed to zero, and their operands here are never denormal.
// half_ functions have the full functions' edge cases and 8192 ulp; the
// trigonometric ones run on [-2^16, 2^16]. native_ accuracy and ranges are
// implementation-defined: they are checked loosely (8192 ulp, the half_
// bound) over moderate domains where operands and results are normal.
//
// Inputs: per function a few hundred special operand sets (each operand from
// a list of zeros, infinities, quiet and signalling NaNs, denormals, extreme
// normals, integers, half-integers and thresholds, in every combination for
// two and three operands) and random operands drawn over the whole exponent
// range (random bit patterns) and over the function's interesting ranges,
// from a fixed seed: 16128 operand sets in all. Each function runs at widths
// 1, 2, 3, 4, 8 and 16, built at -O2 and -O0, on the same operands. Also
// tested: the forms with scalar operands (fmax(floatn, float), clamp(floatn,
// float, float), ...), divergent control flow (only some work-items calling
// sin, pow and fma), and sqrt built with -cl-fp32-correctly-rounded-divide-sqrt.
//
// Double (the MathDouble tests, at the end of this file): the same functions
// but half_ and native_ on double and doublen, every width, -O2 and -O0,
// against the table "ULP values for double precision built-in math
// functions" (sqrt correctly rounded, the others as for float), with the
// float tests' prescribed values (nextafter's its own), double special
// operands (denormals, extremes, 2^52 and 2^53, the thresholds of exp, exp2,
// exp10, sinh, cosh and tgamma, the hardest argument reduction) and random
// operands over the whole double exponent range and the functions' ranges:
// 9600 operand sets per function. Errors are measured as for float, in ulp
// of double (2^-1074 below the smallest normal), from references rounded
// once to double. Denormals must be right (double arithmetic on the device
// is the host's).
// LANEWISE_MATH_REPORT=1 in the environment prints each function's largest
// error.
#include "harness.h"

#include <mpfr.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace lanewise::test {
namespace {

// The half tests lower it to 64 bits, ample for half results and four
// times faster (see fp16::PrecisionScope).
mpfr_prec_t precision = 256;
constexpr mpfr_rnd_t nearest = MPFR_RNDN;

// ---- MPFR numbers ---------------------------------------------------------------
class Big {
public:
  Big() { mpfr_init2(value_, precision); }
  // Exact; a NaN keeps its sign bit (copysign(x, -NaN) is negative).
  explicit Big(float f) : Big() {
    mpfr_set_flt(value_, f, nearest);
    mpfr_setsign(value_, value_, std::signbit(f), nearest);
  }
  explicit Big(double d) : Big() {
    mpfr_set_d(value_, d, nearest);
    mpfr_setsign(value_, value_, std::signbit(d), nearest);
  }
  ~Big() { mpfr_clear(value_); }
  Big(const Big &) = delete;
  Big &operator=(const Big &) = delete;
  operator mpfr_ptr() { return value_; }
  operator mpfr_srcptr() const { return value_; }

private:
  mpfr_t value_;
};

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
bool isDenormal(float f) { return f != 0 && std::fabs(f) < FLT_MIN; }

constexpr float inf = std::numeric_limits<float>::infinity();
const float qnan = fromBits(0x7fc00000u);
const float snan = fromBits(0x7fa00000u); // signalling, with a payload
const float minDenormal = fromBits(1);
const float maxDenormal = fromBits(0x7fffffu);

std::string describe(float f) {
  char text[64];
  std::snprintf(text, sizeof text, "%a (0x%08x)", double(f), unsigned(bitsOf(f)));
  return text;
}

// ---- references ----------------------------------------------------------------
// r = f(x, y, z) at `precision` bits; the result is the MPFR ternary value:
// 0 when r is exact.
using Reference = int (*)(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_srcptr z);

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

// ---- input generation ----------------------------------------------------------
using Random = std::mt19937_64;
double unit(Random &random) { return double(random() >> 11) * 0x1p-53; }

enum class Kind {
  Bits,        // a random bit pattern: every exponent, NaNs, infinities, denormals
  Denormal,    // a random denormal of either sign
  Uniform,     // uniform in [lo, hi]
  LogUniform,  // magnitude log-uniform in [lo, hi], with random sign if `signs`
  Integer,     // an integer in [lo, hi]
  HalfInteger, // an integer in [lo, hi] plus 0.5
  NearInteger, // an integer in [lo, hi] moved by 1 to 3 ulp
  NearOne,     // 1 - 2^-k or 1 + 2^-k (times a random factor), k in [1, 24]
};
struct Piece {
  Kind kind;
  double lo = 0, hi = 0;
  bool signs = false;
  double weight = 1;
};
using Domain = std::vector<Piece>;

Piece bits(double weight = 1) { return {Kind::Bits, 0, 0, false, weight}; }
Piece denormals(double weight = 0.2) { return {Kind::Denormal, 0, 0, true, weight}; }
Piece uniform(double lo, double hi, double weight = 1) {
  return {Kind::Uniform, lo, hi, false, weight};
}
Piece logUniform(double lo, double hi, bool signs, double weight = 1) {
  return {Kind::LogUniform, lo, hi, signs, weight};
}
Piece integers(double lo, double hi, double weight = 1) {
  return {Kind::Integer, lo, hi, false, weight};
}
Piece halfIntegers(double lo, double hi, double weight = 1) {
  return {Kind::HalfInteger, lo, hi, false, weight};
}
Piece nearIntegers(double lo, double hi, double weight = 1) {
  return {Kind::NearInteger, lo, hi, false, weight};
}
Piece nearOne(bool signs, double weight = 1) { return {Kind::NearOne, 0, 0, signs, weight}; }

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

// ---- functions ---------------------------------------------------------------------
enum class Mode {
  Exact,    // 0 ulp or correctly rounded: the correctly rounded value, bit for bit
  Ulps,     // within `bound` ulp
  Absolute, // within `bound` of the exact value
  Mad,      // a correctly rounded fma, or a multiply and an add both correctly rounded
};
enum Flags : unsigned {
  ZeroSignFree = 1, // fmax, fmin and friends: either zero when both operands are zeros
  Flush = 2,        // results below the smallest normal may be flushed to zero
  Native = 4,       // a native_ function: the prescribed values do not apply
  Sanity = 8,       // accuracy undefined by the spec (lgamma): a sanity bound
  NaNIgnored = 16,  // fmax, fmin and those built on them: a NaN operand, signalling or
                    // quiet, yields the other operand
};

// A value C99 F.9 or 7.5 prescribes: f(a, b, c) = want (any NaN for a NaN).
struct Prescribed {
  float a, b = 0, c = 0;
  float want;
};
Prescribed p1(float a, float want) { return {a, 0, 0, want}; }
Prescribed p2(float a, float b, float want) { return {a, b, 0, want}; }
Prescribed p3(float a, float b, float c, float want) { return {a, b, c, want}; }

using Accept = bool (*)(float a, float b, float c);
// Derives operands from one another for some random operand sets (e.g. c =
// -a * b for fma, to cancel).
using Correlate = void (*)(Random &random, float &a, float &b, float &c);

struct MathFunction {
  std::string name;
  int arity;
  Reference reference;
  Mode mode;
  double bound;
  std::vector<Domain> domains; // one per operand
  std::vector<Prescribed> prescribed = {};
  Accept accept = nullptr; // the operands the spec defines the function for
  unsigned flags = 0;
  Correlate correlate = nullptr;
};

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
constexpr size_t count = 16128; // a multiple of every width
const int widths[] = {1, 2, 3, 4, 8, 16};

struct Expected {
  double value;   // the exact result rounded to double (+-inf beyond its range)
  float rounded;  // the exact result correctly rounded to float
  float twoStep;  // mad: the multiply and the add rounded separately
  bool exactZero; // an exact zero, whose sign is prescribed
  bool infinite;  // an infinity, exact or beyond MPFR's range
  bool nan;
};

struct Table {
  std::vector<float> operand[3];
  std::vector<Expected> expected;
  size_t prescribed = 0; // operand sets [0, prescribed) are the function's prescribed values
};

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

const Table &tableOf(const MathFunction &f) {
  static std::map<std::string, std::unique_ptr<Table>> tables;
  std::unique_ptr<Table> &t = tables[f.name];
  if (!t)
    t = std::make_unique<Table>(buildTable(f));
  return *t;
}

// ---- comparing -------------------------------------------------------------------
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

struct Verdict {
  bool ok;
  double error; // ulp for Ulps, absolute for Absolute, else 0
  std::string why;
};

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

// Reports the first few failures of a run, and how many there were.
struct Failures {
  std::string what;
  int count = 0;
  ~Failures() {
    if (count > 8)
      ADD_FAILURE() << what << ": " << count << " failures in all";
  }
  template <typename F> void add(F describe) {
    if (++count <= 8)
      ADD_FAILURE() << what << ": " << describe();
  }
};

bool reportRequested() {
  static const bool requested = std::getenv("LANEWISE_MATH_REPORT") != nullptr;
  return requested;
}

// ---- the fixture -------------------------------------------------------------------
class MathFixture : public SharedContextTest {
protected:
  void SetUp() override {
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

  // Runs kernel `kernelName` of math.cl at `width` over `operands` and
  // returns the results.
  std::vector<float> compute(const std::string &kernelName, int arity,
                             const std::vector<float> *operands, int width,
                             const std::string &variant) {
    cl_kernel k = cachedKernel("math", kernelName, variant);
    if (!k)
      return {};
    return compute(k, arity, operands, width);
  }
  std::vector<float> compute(cl_kernel k, int arity, const std::vector<float> *operands,
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

  // Checks `got` against the table; returns the largest error seen.
  double check(const MathFunction &f, const Table &t, const std::vector<float> &got,
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

  // The prescribed value behind operand set k < table.prescribed.
  static const Prescribed &prescribedAt(const MathFunction &f, size_t k) {
    size_t index = 0;
    for (const Prescribed &p : f.prescribed)
      if (!f.accept || f.accept(p.a, p.b, p.c)) {
        if (index == k)
          return p;
        ++index;
      }
    std::abort();
  }

  bool denormals_ = true;
  cl_device_fp_config config_ = 0;
};

std::string variantName(const std::string &variant) { return variant.empty() ? "O2" : "O0"; }

// ---- every function, every width -----------------------------------------------
struct Param {
  std::string function;
  const char *variant;
};
std::vector<Param> functionParams() {
  std::vector<Param> out;
  for (const MathFunction &f : allFunctions())
    for (const char *v : {"", "-O0"})
      out.push_back({f.name, v});
  return out;
}
std::string paramName(const ::testing::TestParamInfo<Param> &info) {
  return info.param.function + "_" + variantName(info.param.variant);
}
void PrintTo(const Param &p, std::ostream *os) {
  *os << p.function << " " << variantName(p.variant);
}

class MathAccuracy : public MathFixture, public ::testing::WithParamInterface<Param> {};

TEST_P(MathAccuracy, EveryWidth) {
  const MathFunction &f = functionNamed(GetParam().function);
  const std::string variant = GetParam().variant;
  const Table &t = tableOf(f);
  double worst = 0;
  for (int width : widths) {
    const std::vector<float> got = compute("m_" + f.name, f.arity, t.operand, width, variant);
    ASSERT_EQ(got.size(), count);
    const std::string what =
        f.name + " width " + std::to_string(width) + " " + variantName(variant);
    worst = std::max(worst, check(f, t, got, what, true));
  }
  if (reportRequested())
    std::printf("[ math     ] %-14s %s max error %g (bound %g)\n", f.name.c_str(),
                variantName(variant).c_str(), worst, f.bound);
}

INSTANTIATE_TEST_SUITE_P(Math, MathAccuracy, ::testing::ValuesIn(functionParams()), paramName);

// ---- scalar operands of vector functions ---------------------------------------
// fmax(floatn, float) and the like: the scalar operand applies to every
// component.
struct ScalarForm {
  const char *function;
  bool scalar[3]; // which operands are scalars
};
const ScalarForm scalarForms[] = {
    {"fmax", {false, true, false}}, {"fmin", {false, true, false}},
    {"max", {false, true, false}},  {"min", {false, true, false}},
    {"step", {true, false, false}}, {"clamp", {false, true, true}},
    {"mix", {false, false, true}},  {"smoothstep", {true, true, false}},
};
struct ScalarParam {
  ScalarForm form;
  const char *variant;
};
std::vector<ScalarParam> scalarParams() {
  std::vector<ScalarParam> out;
  for (const ScalarForm &form : scalarForms)
    for (const char *v : {"", "-O0"})
      out.push_back({form, v});
  return out;
}
std::string scalarParamName(const ::testing::TestParamInfo<ScalarParam> &info) {
  return std::string(info.param.form.function) + "_" + variantName(info.param.variant);
}
void PrintTo(const ScalarParam &p, std::ostream *os) {
  *os << p.form.function << " " << variantName(p.variant);
}

// The operands of a scalar form at `width`: the function's table with the
// scalar operands of work-item i replaced by those of its first element.
const Table &scalarFormTable(const ScalarForm &form, int width) {
  static std::map<std::pair<std::string, int>, std::unique_ptr<Table>> tables;
  std::unique_ptr<Table> &t = tables[{form.function, width}];
  if (t)
    return *t;
  const MathFunction &f = functionNamed(form.function);
  const Table &base = tableOf(f);
  t = std::make_unique<Table>();
  for (int i = 0; i < 3; ++i) {
    t->operand[i] = base.operand[i];
    if (form.scalar[i])
      for (size_t k = 0; k < count; ++k)
        t->operand[i][k] = base.operand[i][k - k % size_t(width)];
  }
  t->expected.resize(count);
  for (size_t k = 0; k < count; ++k)
    t->expected[k] = reference(f, t->operand[0][k], t->operand[1][k], t->operand[2][k]);
  return *t;
}

class MathScalarOperands : public MathFixture, public ::testing::WithParamInterface<ScalarParam> {};

TEST_P(MathScalarOperands, EveryWidth) {
  const ScalarForm form = GetParam().form;
  const std::string variant = GetParam().variant;
  const MathFunction &f = functionNamed(form.function);
  for (int width : widths) {
    if (width == 1)
      continue;
    const Table &t = scalarFormTable(form, width);
    const std::vector<float> got =
        compute("m_" + f.name + "_s", f.arity, t.operand, width, variant);
    ASSERT_EQ(got.size(), count);
    check(f, t, got,
          f.name + " scalar form width " + std::to_string(width) + " " + variantName(variant),
          false);
  }
}

INSTANTIATE_TEST_SUITE_P(Math, MathScalarOperands, ::testing::ValuesIn(scalarParams()),
                         scalarParamName);

// ---- correctly rounded sqrt ---------------------------------------------------
// A device reporting CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT builds programs with
// -cl-fp32-correctly-rounded-divide-sqrt, and sqrt is then correctly rounded
// (OpenCL 3.0 API, "Math Intrinsics Options").
class MathCorrectlyRoundedSqrt : public MathFixture,
                                 public ::testing::WithParamInterface<const char *> {};

TEST_P(MathCorrectlyRoundedSqrt, WithBuildOption) {
  if (!(config_ & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT))
    GTEST_SKIP() << "the device does not report CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT";
  const std::string variant = GetParam();
  const std::string path = std::string(LANEWISE_KERNEL_DIR) + "/math" + variant + ".spv";
  std::FILE *file = std::fopen(path.c_str(), "rb");
  ASSERT_NE(file, nullptr) << path;
  std::vector<char> il;
  char chunk[65536];
  for (size_t n; (n = std::fread(chunk, 1, sizeof chunk, file)) > 0;)
    il.insert(il.end(), chunk, chunk + n);
  std::fclose(file);
  cl_int error = CL_SUCCESS;
  std::unique_ptr<_cl_program, decltype(&clReleaseProgram)> program(
      clCreateProgramWithIL(context, il.data(), il.size(), &error), clReleaseProgram);
  ASSERT_EQ(error, CL_SUCCESS);
  ASSERT_EQ(clBuildProgram(program.get(), 1, &device, "-cl-fp32-correctly-rounded-divide-sqrt",
                           nullptr, nullptr),
            CL_SUCCESS);
  std::unique_ptr<_cl_kernel, decltype(&clReleaseKernel)> kernel(
      clCreateKernel(program.get(), "m_sqrt", &error), clReleaseKernel);
  ASSERT_EQ(error, CL_SUCCESS);

  MathFunction sqrtF = functionNamed("sqrt");
  sqrtF.mode = Mode::Exact;
  const Table &t = tableOf(functionNamed("sqrt"));
  for (int width : widths) {
    const std::vector<float> got = compute(kernel.get(), 1, t.operand, width);
    ASSERT_EQ(got.size(), count);
    check(sqrtF, t, got,
          "correctly rounded sqrt width " + std::to_string(width) + " " + variantName(variant),
          true);
  }
}

INSTANTIATE_TEST_SUITE_P(Math, MathCorrectlyRoundedSqrt, ::testing::Values("", "-O0"),
                         [](const ::testing::TestParamInfo<const char *> &info) {
                           return variantName(info.param);
                         });

// ---- divergent control flow ------------------------------------------------------
// Only some work-items call sin, pow or fma (cl/math.cl, m_divergent); the
// others must keep what their outputs held.
class MathDivergent : public MathFixture, public ::testing::WithParamInterface<const char *> {};

TEST_P(MathDivergent, OnlyActiveWorkItemsCompute) {
  const std::string variant = GetParam();
  const MathFunction &sinF = functionNamed("sin"), &powF = functionNamed("pow"),
                     &fmaF = functionNamed("fma");
  constexpr size_t items = 1024;
  Random random(0xd17e26e7);
  const Domain values = {bits(1), logUniform(0x1p-10, 0x1p10, true, 3), uniform(-4, 4)};
  std::vector<float> a(4 * items), b(4 * items), c(4 * items), r(items), r4(4 * items);
  std::vector<cl_int> path(items);
  for (size_t k = 0; k < 4 * items; ++k) {
    a[k] = draw(values, random);
    b[k] = draw(values, random);
    c[k] = draw(values, random);
    r4[k] = float(k) + 0.25f;
  }
  for (size_t i = 0; i < items; ++i) {
    path[i] = cl_int(random() % 8);
    r[i] = -float(i) - 0.5f;
  }
  cl_kernel k = cachedKernel("math", "m_divergent", variant);
  ASSERT_NE(k, nullptr);
  cl_mem A = buffer(a), B = buffer(b), C = buffer(c), P = buffer(path), R = buffer(r),
         R4 = buffer(r4);
  setArgs(k, A, B, C, P, R, R4);
  run(k, {items});
  const std::vector<float> got = read<float>(R, items), got4 = read<float>(R4, 4 * items);

  Failures failures{"divergent " + variantName(variant)};
  auto expect = [&](const MathFunction &f, float x, float y, float z, float result,
                    const std::string &where) {
    const Verdict v = judge(f, reference(f, x, y, z), result, false,
                            isSignaling(x) || isSignaling(y) || isSignaling(z));
    if (!v.ok)
      failures.add(
          [&] { return where + ": " + f.name + " gave " + describe(result) + ", " + v.why; });
  };
  for (size_t i = 0; i < items; ++i) {
    const std::string where = "work-item " + std::to_string(i);
    if (path[i] & 1)
      expect(sinF, a[i], 0, 0, got[i], where);
    else if (path[i] & 2)
      expect(powF, a[i], b[i], 0, got[i], where);
    else if (bitsOf(got[i]) != bitsOf(r[i]))
      failures.add([&] { return where + " (inactive) wrote " + describe(got[i]); });
    for (size_t j = 0; j < 4; ++j) {
      const size_t e = 4 * i + j;
      if (path[i] & 4)
        expect(fmaF, a[e], b[e], c[e], got4[e], where + " component " + std::to_string(j));
      else if (bitsOf(got4[e]) != bitsOf(r4[e]))
        failures.add([&] { return where + " (inactive) wrote " + describe(got4[e]); });
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Math, MathDivergent, ::testing::Values("", "-O0"),
                         [](const ::testing::TestParamInfo<const char *> &info) {
                           return variantName(info.param);
                         });

// ---- double ------------------------------------------------------------------------
// The same functions (but half_ and native_) on double and doublen, kernels
// d_NAME of cl/math.cl: the bounds of the table "ULP values for double
// precision built-in math functions" (sqrt correctly rounded), the prescribed
// values of the float tests (which are doubles too; nextafter has its own),
// double special operands and random operands over the whole double exponent
// range and over each function's interesting ranges.
namespace fp64 {

std::uint64_t bitsOf(double d) {
  std::uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}
double fromBits(std::uint64_t u) {
  double d;
  std::memcpy(&d, &u, 8);
  return d;
}
bool isSignaling(double d) { return std::isnan(d) && !(bitsOf(d) & 0x0008000000000000ull); }

constexpr double inf = std::numeric_limits<double>::infinity();
const double qnan = fromBits(0x7ff8000000000000ull);
const double snan = fromBits(0x7ff4000000000000ull); // signalling, with a payload
const double minDenormal = fromBits(1);
const double maxDenormal = fromBits(0x000fffffffffffffull);

std::string describe(double d) {
  char text[80];
  std::snprintf(text, sizeof text, "%a (0x%016llx)", d, (unsigned long long)bitsOf(d));
  return text;
}

// r rounded to double. r is the exact value rounded to `precision` bits; when
// it is inexact (inexact != 0, its sign the direction of the error if known),
// r is moved by one of its own ulp towards the exact value first, so that an r
// that fell on a midpoint of two doubles does not round the wrong way (a
// moved r rounds as the exact value: no midpoint lies between the two).
double toDouble(mpfr_srcptr r, int inexact) {
  if (inexact == 0 || !mpfr_regular_p(r))
    return mpfr_get_d(r, nearest);
  Big t;
  mpfr_set(t, r, nearest);
  if (inexact > 0)
    mpfr_nextbelow(t);
  else
    mpfr_nextabove(t);
  return mpfr_get_d(t, nearest);
}

int nextafterReference(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_srcptr) {
  const double a = mpfr_get_d(x, nearest), b = mpfr_get_d(y, nearest);
  if (std::isnan(a) || std::isnan(b)) {
    mpfr_set_nan(r);
    return 0;
  }
  double want;
  if (a == b)
    want = b;
  else if (a == 0)
    want = std::copysign(minDenormal, b);
  else
    want = fromBits((b > a) == (a > 0) ? bitsOf(a) + 1 : bitsOf(a) - 1);
  mpfr_set_d(r, want, nearest);
  mpfr_setsign(r, r, std::signbit(want), nearest);
  return 0;
}

double madTwoRoundings(double a, double b, double c) {
  Big x(a), y(b), z(c), t;
  mpfr_mul(t, x, y, nearest); // exact at 256 bits
  const double product = mpfr_get_d(t, nearest);
  Big p(product);
  return toDouble(t, mpfr_add(t, p, z, nearest));
}

double drawDouble(const Domain &domain, Random &random) {
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
    return fromBits(random());
  case Kind::Denormal:
    return fromBits((random() & 0x800fffffffffffffull) | 1u);
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
      const double toward = random() & 1 ? inf : -inf;
      for (int k = 1 + int(random() % 3); k > 0; --k)
        v = std::nextafter(v, toward);
    }
    break;
  }
  case Kind::NearOne: {
    const double step = std::exp2(-1.0 - 52.0 * unit(random)) * (0.5 + unit(random));
    v = random() & 1 ? 1 - step : 1 + step;
    break;
  }
  }
  v = std::min(v, DBL_MAX);
  return negative ? -v : v;
}

std::vector<double> specialValues1() {
  std::vector<double> v = {qnan, -qnan, snan};
  // clang-format off
  const double magnitudes[] = {
      0.0, inf, minDenormal, maxDenormal, fromBits(0x0008000000000001ull), DBL_MIN, DBL_MAX,
      1.0, 0.5, 2.0, 1.5, 2.5, 3.0, 0.25, 0.75, std::nextafter(1.0, 0.0), std::nextafter(1.0, 2.0),
      0x1p52, 0x1p52 + 1, 0x1p52 - 0.5, 0x1p53, 0x1p53 + 2, 0x1p-53, 0x1p23 + 0.5,
      M_PI, M_PI_2, M_PI_4, 10.0, 100.0, 1e-300, 1e300,
      0x1.6ac5b262ca1ffp+849, // the hardest argument reduction of a double (Muller)
      0x1.921fb54442d18p+1023, 22.0, 1e22, 0x1p1000,
      // thresholds of exp, exp2, exp10, expm1, sinh, cosh and tgamma
      709.782712893384, 710.0, 708.4, 745.1332191019411, 746.0, 1022.0, 1024.0, 1074.0, 1075.0,
      308.25471555991675, 323.3, 324.0, 171.6243769563027, 172.0, 178.0, 184.0};
  // clang-format on
  for (double m : magnitudes) {
    v.push_back(m);
    v.push_back(-m);
  }
  return v;
}
std::vector<double> specialValues2() {
  std::vector<double> v = {qnan, snan};
  for (double m : {0.0, inf, minDenormal, maxDenormal, DBL_MIN, DBL_MAX, 1.0, 0.5, 2.0, 3.0, 2.5,
                   0x1p52 + 1}) {
    v.push_back(m);
    v.push_back(-m);
  }
  return v;
}
std::vector<double> specialValues3() {
  return {0.0, -0.0, inf, -inf, qnan, 1.0, -1.0, DBL_MAX, minDenormal, -0.5, 3.0};
}

struct Prescribed {
  double a, b = 0, c = 0;
  double want;
};
using Accept = bool (*)(double a, double b, double c);
using Correlate = void (*)(Random &random, double &a, double &b, double &c);

struct Function {
  std::string name;
  int arity;
  Reference reference;
  Mode mode;
  double bound;
  std::vector<Domain> domains;
  std::vector<Prescribed> prescribed;
  Accept accept = nullptr;
  unsigned flags = 0;
  Correlate correlate = nullptr;
};

void nearby(Random &random, double &a, double &b, double &) {
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
void dividend(Random &random, double &a, double &b, double &c) {
  switch (random() % 4) {
  case 0: { // (2k + 1) b / 2, exact: b has at most 45 significant bits
    b = fromBits(bitsOf(b) & 0xffffffffffffff00ull);
    if (!std::isfinite(b) || b == 0 || std::fabs(b) > 0x1p900 || std::fabs(b) < 0x1p-900)
      b = 1.5;
    a = (2 * double(random() % 128) + 1) * b / 2;
    break;
  }
  case 1:
    a = b * std::ldexp(1 + unit(random), int(random() % 300));
    break;
  case 2:
    nearby(random, a, b, c);
    break;
  default:
    a = b * double(random() % 64) + b * unit(random);
    break;
  }
}
void cancelling(Random &random, double &a, double &b, double &c) {
  switch (random() % 3) {
  case 0:
    c = -(a * b);
    break;
  case 1:
    c = -std::nextafter(a * b, random() & 1 ? inf : -inf);
    break;
  default:
    a = std::ldexp(1 + unit(random), -500 - int(random() % 30));
    b = std::ldexp(1 + unit(random), -500 - int(random() % 30));
    c = std::ldexp(1 + unit(random), -1030 - int(random() % 40)) * (random() & 1 ? 1 : -1);
    break;
  }
}
bool finiteOperands(double a, double b, double c) {
  return std::isfinite(a) && std::isfinite(b) && std::isfinite(c);
}

// Bounds of the double table where they differ from the float table's.
double boundOf(const std::string &name, double floatBound) {
  if (name == "sqrt")
    return 0;
  return floatBound;
}

// Domains over the double ranges where the float ones are the float ranges.
std::vector<Domain> domainsOf(const MathFunction &m) {
  const Domain anything = {bits(3), denormals(0.3), logUniform(0x1p-60, 0x1p60, true)};
  const Domain unitInterval = {bits(1), uniform(-1, 1, 2), logUniform(0x1p-60, 1, true),
                               nearOne(true), denormals(0.1)};
  const Domain moderate = {bits(2), logUniform(0x1p-60, 0x1p10, true, 2), denormals(0.2)};
  const Domain positive = {bits(1), logUniform(0x1p-1074, 0x1p1023, false, 3), nearOne(false),
                           denormals(0.3)};
  const Domain trigonometric = {bits(1), uniform(-10, 10, 2), logUniform(0x1p-30, 0x1p30, true),
                                logUniform(0x1p30, 0x1p1000, true, 0.5), denormals(0.1)};
  const Domain periodic = {bits(1), uniform(-4, 4, 2), halfIntegers(-100, 100, 0.5),
                           integers(-1000, 1000, 0.3), nearIntegers(-100, 100, 0.5),
                           logUniform(0x1p-30, 0x1p54, true), denormals(0.1)};
  const Domain rounding = {bits(1), uniform(-4, 4), halfIntegers(-1000, 1000),
                           nearIntegers(-1000, 1000), logUniform(0x1p50, 0x1p54, true),
                           logUniform(0x1p-60, 1, true, 0.5), denormals(0.1)};
  const Piece tiny = logUniform(0x1p-60, 1, true);
  const std::string &n = m.name;
  if (n == "acos" || n == "acospi" || n == "asin" || n == "asinpi" || n == "atanh")
    return {unitInterval};
  if (n == "asinh" || n == "atan" || n == "atanpi" || n == "tanh")
    return {moderate};
  if (n == "acosh")
    return {{bits(1), nearOne(false, 2), logUniform(1, 0x1p1023, false), uniform(1, 10)}};
  if (n == "cos" || n == "sin" || n == "tan")
    return {trigonometric};
  if (n == "cospi" || n == "sinpi" || n == "tanpi")
    return {periodic};
  if (n == "ceil" || n == "floor" || n == "rint" || n == "round" || n == "trunc")
    return {rounding};
  if (n == "cosh" || n == "sinh")
    return {{bits(1), uniform(-711, 711, 2), tiny, denormals()}};
  if (n == "erfc")
    return {{bits(1), uniform(-6, 27, 3), tiny}};
  if (n == "erf")
    return {{bits(1), uniform(-6, 6, 2), tiny, denormals()}};
  if (n == "exp")
    return {{bits(1), uniform(-746, 710, 3), tiny}};
  if (n == "exp2")
    return {{bits(1), uniform(-1076, 1025, 3), tiny}};
  if (n == "exp10")
    return {{bits(1), uniform(-324, 309, 3), tiny}};
  if (n == "expm1")
    return {{bits(1), uniform(-40, 710, 2), logUniform(0x1p-60, 1, true, 2), denormals()}};
  if (n == "lgamma")
    return {{bits(1), uniform(-180, 180, 2), logUniform(1, 0x1p1000, false),
             nearIntegers(-40, 3), logUniform(0x1p-60, 1, true, 0.5)}};
  if (n == "log" || n == "log2" || n == "log10")
    return {positive};
  if (n == "log1p")
    return {{bits(1), logUniform(0x1p-60, 0x1p60, true, 2), uniform(-1, 1), nearOne(false, 0.3),
             denormals()}};
  if (n == "tgamma")
    return {{bits(1), uniform(-185, 172, 3), nearIntegers(-40, 0), tiny}};
  if (n == "atan2" || n == "atan2pi")
    return {moderate, moderate};
  if (n == "fmod" || n == "remainder")
    return {{bits(2), logUniform(0x1p-30, 0x1p30, true), denormals()}, anything};
  if (n == "pow")
    return {{bits(1), logUniform(0x1p-40, 0x1p40, true, 2), uniform(-2, 2), integers(-10, 10, 0.5),
             nearOne(true, 0.5)},
            {bits(1), uniform(-200, 200, 2), integers(-60, 60), halfIntegers(-10, 10, 0.5),
             logUniform(0x1p-40, 0x1p40, true)}};
  if (n == "mix" || n == "smoothstep")
    return m.domains;
  return std::vector<Domain>(size_t(m.arity), anything);
}

std::vector<Function> functions() {
  std::vector<Function> out;
  for (const MathFunction &m : allFunctions()) {
    if (m.name.rfind("half_", 0) == 0 || m.name.rfind("native_", 0) == 0)
      continue;
    Function f{m.name, m.arity, m.reference, m.mode, boundOf(m.name, m.bound), domainsOf(m), {}};
    if (f.name == "sqrt")
      f.mode = Mode::Exact;
    f.flags = m.flags;
    for (const auto &p : m.prescribed)
      f.prescribed.push_back({p.a, p.b, p.c, p.want});
    const std::string &n = f.name;
    if (n == "nextafter") {
      const double almostOne = std::nextafter(1.0, 0.0);
      f.reference = nextafterReference;
      f.prescribed = {{-0.0, 1.0, 0, minDenormal},
                      {0.0, -1.0, 0, -minDenormal},
                      {0.0, -0.0, 0, -0.0},
                      {-0.0, 0.0, 0, 0.0},
                      {1.0, 2.0, 0, std::nextafter(1.0, 2.0)},
                      {1.0, 0.0, 0, almostOne},
                      {minDenormal, 0.0, 0, 0.0},
                      {DBL_MAX, inf, 0, inf},
                      {inf, 0.0, 0, DBL_MAX},
                      {qnan, 1.0, 0, qnan},
                      {1.0, qnan, 0, qnan}};
    }
    if (n == "max" || n == "min")
      f.accept = finiteOperands;
    if (n == "clamp")
      f.accept = [](double, double lo, double hi) { return !(lo > hi); };
    if (n == "mix")
      f.accept = [](double x, double y, double a) {
        return std::fabs(x) <= 1024 && std::fabs(y) <= 1024 && a >= 0 && a <= 1;
      };
    if (n == "smoothstep")
      f.accept = [](double e0, double e1, double x) {
        return finiteOperands(e0, e1, x) && e0 < e1 && std::isfinite(e1 - e0);
      };
    if (m.correlate) {
      if (n == "fmod" || n == "remainder")
        f.correlate = dividend;
      else if (n == "fma" || n == "mad")
        f.correlate = cancelling;
      else if (n == "clamp")
        f.correlate = [](Random &, double &, double &b, double &c) {
          if (b > c)
            std::swap(b, c);
        };
      else if (n == "smoothstep")
        f.correlate = [](Random &random, double &e0, double &e1, double &x) {
          if (e0 > e1)
            std::swap(e0, e1);
          x = e0 + (e1 - e0) * unit(random);
        };
      else
        f.correlate = nearby;
    }
    out.push_back(std::move(f));
  }
  return out;
}

const std::vector<Function> &allDoubleFunctions() {
  static const std::vector<Function> all = functions();
  return all;
}
const Function &doubleFunctionNamed(const std::string &name) {
  for (const Function &f : allDoubleFunctions())
    if (f.name == name)
      return f;
  std::abort();
}

constexpr size_t doubleCount = 9600; // a multiple of every width

struct Expected {
  long double value; // the exact result to 64 bits (+-inf beyond long double's range)
  double rounded;    // the exact result correctly rounded to double
  double twoStep;    // mad: the multiply and the add rounded separately
  bool exactZero, infinite, nan;
};

struct Table {
  std::vector<double> operand[3];
  std::vector<Expected> expected;
  size_t prescribed = 0;
};

Expected reference(const Function &f, double a, double b, double c) {
  Big x(a), y(b), z(c), r;
  const int inexact = f.reference(r, x, y, z);
  Expected e{};
  e.nan = mpfr_nan_p(r);
  e.infinite = mpfr_inf_p(r);
  e.exactZero = mpfr_zero_p(r) && inexact == 0;
  e.value = mpfr_get_ld(r, nearest);
  e.rounded = toDouble(r, inexact);
  if (f.mode == Mode::Mad)
    e.twoStep = madTwoRoundings(a, b, c);
  return e;
}

Table buildTable(const Function &f) {
  Table t;
  auto accepted = [&](double a, double b, double c) { return !f.accept || f.accept(a, b, c); };
  auto add = [&](double a, double b, double c) {
    t.operand[0].push_back(a);
    t.operand[1].push_back(b);
    t.operand[2].push_back(c);
  };
  for (const Prescribed &p : f.prescribed)
    if (accepted(p.a, p.b, p.c))
      add(p.a, p.b, p.c);
  t.prescribed = t.operand[0].size();
  if (f.arity == 1) {
    for (double a : specialValues1())
      if (accepted(a, 0, 0))
        add(a, 0, 0);
  } else if (f.arity == 2) {
    for (double a : specialValues2())
      for (double b : specialValues2())
        if (accepted(a, b, 0))
          add(a, b, 0);
  } else {
    for (double a : specialValues3())
      for (double b : specialValues3())
        for (double c : specialValues3())
          if (accepted(a, b, c))
            add(a, b, c);
  }
  Random random(seedOf("double " + f.name));
  while (t.operand[0].size() < doubleCount) {
    double v[3] = {0, 0, 0};
    for (int k = 0; k < f.arity; ++k)
      v[k] = drawDouble(f.domains[size_t(k)], random);
    if (f.correlate && random() % 4 == 0)
      f.correlate(random, v[0], v[1], v[2]);
    if (accepted(v[0], v[1], v[2]))
      add(v[0], v[1], v[2]);
  }
  for (auto &o : t.operand)
    o.resize(doubleCount);
  t.prescribed = std::min(t.prescribed, doubleCount);
  t.expected.resize(doubleCount);
  for (size_t k = 0; k < doubleCount; ++k)
    t.expected[k] = reference(f, t.operand[0][k], t.operand[1][k], t.operand[2][k]);
  return t;
}

const Table &tableOf(const Function &f) {
  static std::map<std::string, std::unique_ptr<Table>> tables;
  std::unique_ptr<Table> &t = tables[f.name];
  if (!t)
    t = std::make_unique<Table>(buildTable(f));
  return *t;
}

// The error of `got` in ulp of `exact` (the conformance tests' Ulp_Error for
// double): 2^-1074 below the smallest normal, an infinite result counted as
// 2^1024.
double ulpError(double got, long double exact) {
  long double g = got;
  if (std::isinf(got))
    g = std::copysign(0x1p1024L, (long double)got);
  int exponent = exact == 0 ? -1022 : std::ilogb(exact);
  const bool powerOfTwo = exact != 0 && std::fabs(exact) == std::ldexp(1.0L, exponent);
  if (powerOfTwo)
    exponent -= 1;
  exponent = std::max(exponent, -1022);
  return double(std::ldexp(g - exact, 52 - exponent));
}

bool sameDouble(double got, double want) {
  if (std::isnan(want))
    return std::isnan(got);
  return got == want && std::signbit(got) == std::signbit(want);
}

Verdict judge(const Function &f, const Expected &e, double got, bool zeroOperands,
              bool signalingOperand) {
  const bool zeroSignFree = (f.flags & ZeroSignFree) && zeroOperands;
  auto equal = [&](double want) {
    if (zeroSignFree && want == 0)
      return got == 0;
    return sameDouble(got, want);
  };
  if (signalingOperand && !(f.flags & NaNIgnored) && std::isnan(got))
    return {true, 0, ""};
  if (f.mode == Mode::Mad)
    return {equal(e.rounded) || equal(e.twoStep), 0,
            "neither fma nor a multiply and an add, correctly rounded"};
  if (e.nan)
    return {std::isnan(got), 0, "a NaN expected"};
  if (std::isnan(got))
    return {false, 0, "NaN where the result is not"};
  if (f.mode == Mode::Exact)
    return {equal(e.rounded), 0, "not the correctly rounded result"};
  if (f.mode == Mode::Absolute) {
    const double error = double(std::fabs((long double)got - e.value));
    return {error <= f.bound, error, "beyond the absolute error bound"};
  }
  if (e.exactZero)
    return {equal(e.rounded), 0, "not the exact zero, sign included"};
  if (e.infinite)
    return {got == e.rounded, 0, "not the infinity"};
  if (got == e.rounded) // (an overflow to infinity counts as no error)
    return {true, std::isinf(got) ? 0 : ulpError(got, e.value), ""};
  double error = ulpError(got, e.value);
  if (f.flags & Sanity) // lgamma: near its zeros, an absolute error of 2^-20 will do
    if (std::fabs((long double)got - e.value) <= 0x1p-20L)
      error = std::min(std::fabs(error), f.bound);
  return {std::fabs(error) <= f.bound, error, "beyond the ulp bound"};
}

// Double kernels run on every device here: the test kernels are built with
// cl_khr_fp64, and the device computes double whether or not it reports the
// extension.
class MathDouble : public MathFixture, public ::testing::WithParamInterface<Param> {
protected:
  std::vector<double> compute(const std::string &kernelName, int arity,
                              const std::vector<double> *operands, int width,
                              const std::string &variant) {
    cl_kernel k = cachedKernel("math", kernelName, variant);
    if (!k)
      return {};
    const std::vector<double> sentinel(doubleCount, fromBits(0x7ff0dead0000deadull));
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
    run(k, {doubleCount / size_t(width)});
    return read<double>(r, doubleCount);
  }

  double check(const Function &f, const Table &t, const std::vector<double> &got,
               const std::string &what) {
    Failures failures{what};
    double worst = 0;
    for (size_t k = 0; k < doubleCount; ++k) {
      const double operands[3] = {t.operand[0][k], t.operand[1][k], t.operand[2][k]};
      int zeros = 0;
      bool signaling = false;
      for (int i = 0; i < f.arity; ++i) {
        zeros += operands[i] == 0;
        signaling = signaling || isSignaling(operands[i]);
      }
      Verdict v = judge(f, t.expected[k], got[k], zeros >= 2, signaling);
      if (v.ok && k < t.prescribed) {
        const Prescribed &p = prescribedAt(f, k);
        if (!sameDouble(got[k], p.want))
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
        std::snprintf(exact, sizeof exact, "%.21Lg", t.expected[k].value);
        s << ") = " << describe(got[k]) << ": " << v.why << "; exact " << exact
          << ", correctly rounded " << describe(t.expected[k].rounded);
        if (f.mode == Mode::Ulps || f.mode == Mode::Absolute)
          s << ", error " << v.error << " (bound " << f.bound << ")";
        return s.str();
      });
    }
    return worst;
  }

  static const Prescribed &prescribedAt(const Function &f, size_t k) {
    size_t index = 0;
    for (const Prescribed &p : f.prescribed)
      if (!f.accept || f.accept(p.a, p.b, p.c)) {
        if (index == k)
          return p;
        ++index;
      }
    std::abort();
  }
};

std::vector<Param> doubleParams() {
  std::vector<Param> out;
  for (const Function &f : allDoubleFunctions())
    for (const char *v : {"", "-O0"})
      out.push_back({f.name, v});
  return out;
}

TEST_P(MathDouble, EveryWidth) {
  const Function &f = doubleFunctionNamed(GetParam().function);
  const std::string variant = GetParam().variant;
  const Table &t = tableOf(f);
  double worst = 0;
  for (int width : widths) {
    const std::vector<double> got = compute("d_" + f.name, f.arity, t.operand, width, variant);
    ASSERT_EQ(got.size(), doubleCount);
    const std::string what =
        "double " + f.name + " width " + std::to_string(width) + " " + variantName(variant);
    worst = std::max(worst, check(f, t, got, what));
  }
  if (reportRequested())
    std::printf("[ math     ] double %-14s %s max error %g (bound %g)\n", f.name.c_str(),
                variantName(variant).c_str(), worst, f.bound);
}

INSTANTIATE_TEST_SUITE_P(Math, MathDouble, ::testing::ValuesIn(doubleParams()), paramName);

// fmax(doublen, double) and the other forms with scalar operands.
const Table &doubleScalarFormTable(const ScalarForm &form, int width) {
  static std::map<std::pair<std::string, int>, std::unique_ptr<Table>> tables;
  std::unique_ptr<Table> &t = tables[{form.function, width}];
  if (t)
    return *t;
  const Function &f = doubleFunctionNamed(form.function);
  const Table &base = tableOf(f);
  t = std::make_unique<Table>(); // (prescribed values not checked: operands replaced)
  for (int i = 0; i < 3; ++i) {
    t->operand[i] = base.operand[i];
    if (form.scalar[i])
      for (size_t k = 0; k < doubleCount; ++k)
        t->operand[i][k] = base.operand[i][k - k % size_t(width)];
  }
  t->expected.resize(doubleCount);
  for (size_t k = 0; k < doubleCount; ++k)
    t->expected[k] = reference(f, t->operand[0][k], t->operand[1][k], t->operand[2][k]);
  return *t;
}

class MathDoubleScalarOperands : public MathDouble {};

TEST_P(MathDoubleScalarOperands, EveryWidth) {
  const ScalarForm *form = nullptr;
  for (const ScalarForm &s : scalarForms)
    if (GetParam().function == s.function)
      form = &s;
  ASSERT_NE(form, nullptr);
  const std::string variant = GetParam().variant;
  const Function &f = doubleFunctionNamed(form->function);
  for (int width : widths) {
    if (width == 1)
      continue;
    const Table &t = doubleScalarFormTable(*form, width);
    const std::vector<double> got =
        compute("d_" + f.name + "_s", f.arity, t.operand, width, variant);
    ASSERT_EQ(got.size(), doubleCount);
    check(f, t, got,
          "double " + f.name + " scalar form width " + std::to_string(width) + " " +
              variantName(variant));
  }
}

std::vector<Param> doubleScalarParams() {
  std::vector<Param> out;
  for (const ScalarForm &form : scalarForms)
    for (const char *v : {"", "-O0"})
      out.push_back({form.function, v});
  return out;
}

INSTANTIATE_TEST_SUITE_P(Math, MathDoubleScalarOperands, ::testing::ValuesIn(doubleScalarParams()),
                         paramName);

} // namespace fp64

// ---- half --------------------------------------------------------------------------
// The same functions (but half_ and native_, which are float functions) on
// half and halfn, kernels h_NAME of cl/math_half.cl, against the full-profile
// table "ULP Values for Half-Precision Floating-Point Arithmetic Operations"
// (OpenCL C 3.0, 7.4). Lanewise computes half functions in float (or
// double) and rounds once to half, and holds itself to more than the table
// where that makes the result correctly rounded: sqrt (1.5 ulp in the table)
// must be correctly rounded, as the arithmetic tests require of x / y; mad
// (implementation-defined) must be a correctly rounded fma or a multiply
// and an add each correctly rounded; mix and smoothstep (implementation-
// defined) are held to 1e-3 absolute on operands in [-1, 1] and [-16, 16].
// lgamma, absent from the table, gets the float tests' sanity bound.
//
// Operands: every one of the 65536 halves for the functions of one operand
// (exhaustive), and for two and three operands the special combinations
// (zeros, infinities, NaNs, denormals, extremes, integers) and random
// operands, half of them random bit patterns and half drawn from the float
// tests' domains and rounded to half. References are MPFR's at 64 bits,
// rounded once to half. Denormals must be right: the device reports
// CL_FP_DENORM in CL_DEVICE_HALF_FP_CONFIG. Errors are measured in ulp of
// half (2^-24 below the smallest normal, an infinite result counted as
// 2^16).
namespace fp16 {

using half = _Float16;

std::uint16_t bitsOf(half h) {
  std::uint16_t u;
  std::memcpy(&u, &h, 2);
  return u;
}
half fromBits(std::uint16_t u) {
  half h;
  std::memcpy(&h, &u, 2);
  return h;
}
bool isNan(half h) { return (bitsOf(h) & 0x7fff) > 0x7c00; }
bool isSignaling(half h) { return isNan(h) && !(bitsOf(h) & 0x0200); }

const half inf = fromBits(0x7c00);
const half qnan = fromBits(0x7e00);
const half snan = fromBits(0x7d00); // signalling, with a payload
const half minDenormal = fromBits(0x0001);
const half maxDenormal = fromBits(0x03ff);
const half smallestNormal = fromBits(0x0400);
const half largest = fromBits(0x7bff); // 65504

std::string describe(half h) {
  char text[64];
  std::snprintf(text, sizeof text, "%a (0x%04x)", double(h), unsigned(bitsOf(h)));
  return text;
}

// MPFR at 64 bits for the half references, restored afterwards.
struct PrecisionScope {
  mpfr_prec_t saved = precision;
  PrecisionScope() { precision = 64; }
  ~PrecisionScope() { precision = saved; }
};

// r correctly rounded to half (round to nearest even, 2^-24 the spacing
// below the smallest normal, infinity from 65520 up). As for double, an
// inexact r is first moved by one of its own ulp towards the exact value, so
// that an r on a midpoint of two halves rounds as the exact value does.
half toHalf(mpfr_srcptr r, int inexact) {
  if (mpfr_nan_p(r))
    return mpfr_signbit(r) ? -qnan : qnan;
  if (mpfr_inf_p(r))
    return mpfr_signbit(r) ? -inf : inf;
  if (mpfr_zero_p(r))
    return mpfr_signbit(r) ? -half(0) : half(0);
  Big t;
  mpfr_set(t, r, nearest);
  if (inexact > 0)
    mpfr_nextbelow(t);
  else if (inexact < 0)
    mpfr_nextabove(t);
  // t = m 2^e with m in [0.5, 1): the ulp of half there is 2^(e - 11).
  const long quantum = std::max<long>(mpfr_get_exp(t) - 11, -24);
  mpfr_mul_2si(t, t, -quantum, nearest);
  mpfr_rint(t, t, nearest); // ties to even
  mpfr_mul_2si(t, t, quantum, nearest);
  const double d = mpfr_get_d(t, nearest);
  if (std::fabs(d) >= 65536) // (65520 and up round to 65536)
    return d < 0 ? -inf : inf;
  return half(d); // exact
}

// The error of `got` in ulp of half of `exact`: the ulp of the exact value's
// binade, the binade below for a power of two, 2^-24 below the smallest
// normal; an infinite result counts as 2^16.
double ulpError(half got, double exact) {
  double g = double(got);
  if (std::isinf(g))
    g = std::copysign(0x1p16, g);
  int exponent = exact == 0 ? -14 : std::ilogb(exact);
  const bool powerOfTwo = exact != 0 && std::fabs(exact) == std::ldexp(1.0, exponent);
  if (powerOfTwo)
    exponent -= 1;
  exponent = std::max(exponent, -14);
  return std::ldexp(g - exact, 10 - exponent);
}

bool sameHalf(half got, half want) {
  if (isNan(want))
    return isNan(got);
  return bitsOf(got) == bitsOf(want);
}

half madTwoRoundings(half a, half b, half c) {
  Big x{float(a)}, y{float(b)}, z{float(c)}, t;
  const int productInexact = mpfr_mul(t, x, y, nearest);
  const half product = toHalf(t, productInexact);
  Big p{float(product)};
  const int sumInexact = mpfr_add(t, p, z, nearest);
  return toHalf(t, sumInexact);
}

struct Prescribed {
  half a, b, c, want;
};
using Accept = bool (*)(half a, half b, half c);

struct Function {
  std::string name;
  int arity;
  Reference reference;
  Mode mode;
  double bound;
  std::vector<Domain> domains; // the float ones, rounded to half
  std::vector<Prescribed> prescribed;
  Accept accept = nullptr;
  unsigned flags = 0;
  Correlate correlate = nullptr; // on floats, rounded to half
};

// The full-profile half table where it says "<= n ulp"; the functions it
// gives as 0 ulp or correctly rounded keep the float tests' Exact mode.
double boundOf(const std::string &name) {
  static const std::map<std::string, double> bounds = {
      {"acos", 2},   {"acosh", 2},   {"acospi", 2}, {"asin", 2},    {"asinh", 2},
      {"asinpi", 2}, {"atan", 2},    {"atanh", 2},  {"atanpi", 2},  {"atan2", 2},
      {"atan2pi", 2}, {"cbrt", 2},   {"cos", 2},    {"cosh", 2},    {"cospi", 2},
      {"degrees", 2}, {"erfc", 4},   {"erf", 4},    {"exp", 2},     {"exp2", 2},
      {"exp10", 2},  {"expm1", 2},   {"hypot", 2},  {"log", 2},     {"log2", 2},
      {"log10", 2},  {"log1p", 2},   {"pow", 4},    {"radians", 2}, {"rsqrt", 1},
      {"sin", 2},    {"sinh", 2},    {"sinpi", 2},  {"tan", 2.5},   {"tanh", 2},
      {"tanpi", 2},  {"tgamma", 4},  {"lgamma", 16}};
  const auto it = bounds.find(name);
  return it == bounds.end() ? 0 : it->second;
}

// nextafter on halves: the next half after x towards y (7.5.1: the
// smallest denormal from a zero, y itself where x == y).
int nextafterReference(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_srcptr) {
  const half a = half(mpfr_get_d(x, nearest)), b = half(mpfr_get_d(y, nearest)); // exact
  if (mpfr_nan_p(x) || mpfr_nan_p(y)) {
    mpfr_set_nan(r);
    return 0;
  }
  half want;
  if (a == b)
    want = b;
  else if (a == 0)
    want = std::signbit(float(b)) ? -minDenormal : minDenormal;
  else
    want = fromBits(std::uint16_t((b > a) == (a > 0) ? bitsOf(a) + 1 : bitsOf(a) - 1));
  mpfr_set_d(r, double(want), nearest);
  mpfr_setsign(r, r, std::signbit(float(want)), nearest);
  return 0;
}

bool representable(float f) { return std::isnan(f) || float(half(f)) == f; }

half finiteHalf(float f) { return half(std::clamp(f, -65504.0f, 65504.0f)); }

std::vector<Function> functions() {
  std::vector<Function> out;
  for (const MathFunction &m : allFunctions()) {
    if (m.name.rfind("half_", 0) == 0 || m.name.rfind("native_", 0) == 0)
      continue;
    Function f{m.name, m.arity, m.reference, m.mode, m.bound, m.domains, {}};
    f.flags = m.flags;
    f.correlate = m.correlate;
    if (f.mode == Mode::Ulps)
      f.bound = boundOf(f.name);
    const std::string &n = f.name;
    if (n == "sqrt")
      f.mode = Mode::Exact;
    // The float tests' prescribed values that are halves.
    for (const auto &p : m.prescribed)
      if (representable(p.a) && representable(p.b) && representable(p.c) &&
          representable(p.want))
        f.prescribed.push_back({half(p.a), half(p.b), half(p.c), half(p.want)});
    // fma(3, 683 2^-11, 2^-24): the product is the midpoint 1 + 2^-11 of
    // two halves, and the sum, just above it, is a tie in float (rounded
    // to float first, it would round down to 1).
    if (n == "fma")
      f.prescribed.push_back({half(3), half(0x1.558p-2f), minDenormal, fromBits(0x3c01)});
    if (n == "nextafter")
      f.reference = nextafterReference;
    if (n == "nextafter")
      f.prescribed = {{-half(0), half(1), 0, minDenormal},
                      {half(0), -half(1), 0, -minDenormal},
                      {half(0), -half(0), 0, -half(0)},
                      {-half(0), half(0), 0, half(0)},
                      {half(1), half(2), 0, fromBits(0x3c01)},
                      {half(1), half(0), 0, fromBits(0x3bff)},
                      {minDenormal, half(0), 0, half(0)},
                      {largest, inf, 0, inf},
                      {inf, half(0), 0, largest},
                      {maxDenormal, inf, 0, smallestNormal},
                      {qnan, half(1), 0, qnan},
                      {half(1), qnan, 0, qnan}};
    if (n == "max" || n == "min")
      f.accept = [](half a, half b, half) { return !isNan(a) && !isNan(b) && !std::isinf(float(a)) && !std::isinf(float(b)); };
    if (n == "clamp")
      f.accept = [](half, half lo, half hi) { return !(lo > hi); };
    if (n == "mix") {
      f.mode = Mode::Absolute;
      f.bound = 1e-3;
      f.domains = {{uniform(-1, 1)}, {uniform(-1, 1)}, {uniform(0, 1, 3), integers(0, 1, 0.2)}};
      f.accept = [](half x, half y, half a) {
        return std::fabs(float(x)) <= 1 && std::fabs(float(y)) <= 1 && a >= 0 && a <= 1;
      };
    }
    if (n == "smoothstep") {
      f.mode = Mode::Absolute;
      f.bound = 1e-3;
      f.domains = {{uniform(-16, 16)}, {uniform(-16, 16)}, {uniform(-16, 16)}};
      f.accept = [](half e0, half e1, half x) {
        return std::fabs(float(e0)) <= 16 && std::fabs(float(e1)) <= 16 &&
               std::fabs(float(x)) <= 16 && e0 < e1;
      };
    }
    out.push_back(std::move(f));
  }
  return out;
}

const std::vector<Function> &allHalfFunctions() {
  static const std::vector<Function> all = functions();
  return all;
}
const Function &halfFunctionNamed(const std::string &name) {
  for (const Function &f : allHalfFunctions())
    if (f.name == name)
      return f;
  std::abort();
}

// Every half for one operand, padded to a multiple of 48 (every width);
// 16128 operand sets for two and three.
constexpr size_t unaryCount = 65568, manyCount = 16128;
size_t countOf(const Function &f) { return f.arity == 1 ? unaryCount : manyCount; }

struct Expected {
  double value; // the exact result rounded to double
  half rounded; // the exact result correctly rounded to half
  half twoStep; // mad: the multiply and the add rounded separately
  bool exactZero, infinite, nan;
};

struct Table {
  std::vector<half> operand[3];
  std::vector<Expected> expected;
  size_t prescribed = 0;
};

Expected reference(const Function &f, half a, half b, half c) {
  Big x{float(a)}, y{float(b)}, z{float(c)}, r;
  const int inexact = f.reference(r, x, y, z);
  Expected e{};
  e.nan = mpfr_nan_p(r);
  e.infinite = mpfr_inf_p(r);
  e.exactZero = mpfr_zero_p(r) && inexact == 0;
  e.value = mpfr_get_d(r, nearest);
  e.rounded = toHalf(r, inexact);
  if (f.mode == Mode::Mad)
    e.twoStep = madTwoRoundings(a, b, c);
  return e;
}

std::vector<half> specialValues(int arity) {
  std::vector<half> v = {qnan, snan};
  if (arity == 3)
    return {half(0), -half(0), inf, -inf, qnan, half(1), -half(1), largest, minDenormal,
            -half(0.5f), half(3)};
  for (half m : {half(0), inf, minDenormal, maxDenormal, smallestNormal, largest, half(1),
                 half(0.5f), half(2), half(3), half(2.5f), half(1025)}) {
    v.push_back(m);
    v.push_back(-m);
  }
  return v;
}

Table buildTable(const Function &f) {
  const PrecisionScope scope;
  const size_t n = countOf(f);
  Table t;
  auto accepted = [&](half a, half b, half c) { return !f.accept || f.accept(a, b, c); };
  auto add = [&](half a, half b, half c) {
    t.operand[0].push_back(a);
    t.operand[1].push_back(b);
    t.operand[2].push_back(c);
  };
  for (const Prescribed &p : f.prescribed)
    if (accepted(p.a, p.b, p.c))
      add(p.a, p.b, p.c);
  t.prescribed = t.operand[0].size();
  Random random(seedOf("half " + f.name));
  if (f.arity == 1) {
    for (std::uint32_t u = 0; u < 0x10000; ++u)
      if (accepted(fromBits(std::uint16_t(u)), 0, 0))
        add(fromBits(std::uint16_t(u)), 0, 0);
  } else {
    const std::vector<half> special = specialValues(f.arity);
    for (half a : special)
      for (half b : special)
        for (half c : f.arity == 3 ? special : std::vector<half>{half(0)})
          if (accepted(a, b, c))
            add(a, b, c);
  }
  while (t.operand[0].size() < n) {
    half v[3] = {0, 0, 0};
    if (random() % 2 == 0) {
      for (int k = 0; k < f.arity; ++k)
        v[k] = fromBits(std::uint16_t(random()));
    } else {
      float w[3] = {0, 0, 0};
      for (int k = 0; k < f.arity; ++k)
        w[k] = draw(f.domains[size_t(k)], random);
      if (f.correlate && random() % 4 == 0)
        f.correlate(random, w[0], w[1], w[2]);
      for (int k = 0; k < 3; ++k)
        v[k] = std::isfinite(w[k]) && std::fabs(w[k]) < 65520 ? half(w[k])
               : std::isnan(w[k])                               ? qnan
                                                                : finiteHalf(w[k]);
    }
    if (accepted(v[0], v[1], v[2]))
      add(v[0], v[1], v[2]);
  }
  for (auto &o : t.operand)
    o.resize(n);
  t.prescribed = std::min(t.prescribed, n);
  t.expected.resize(n);
  for (size_t k = 0; k < n; ++k)
    t.expected[k] = reference(f, t.operand[0][k], t.operand[1][k], t.operand[2][k]);
  return t;
}

const Table &tableOf(const Function &f) {
  static std::map<std::string, std::unique_ptr<Table>> tables;
  std::unique_ptr<Table> &t = tables[f.name];
  if (!t)
    t = std::make_unique<Table>(buildTable(f));
  return *t;
}

Verdict judge(const Function &f, const Expected &e, half got, bool zeroOperands,
              bool signalingOperand) {
  const bool zeroSignFree = (f.flags & ZeroSignFree) && zeroOperands;
  auto equal = [&](half want) {
    if (zeroSignFree && want == 0)
      return got == 0;
    return sameHalf(got, want);
  };
  if (signalingOperand && !(f.flags & NaNIgnored) && isNan(got))
    return {true, 0, ""};
  if (f.mode == Mode::Mad)
    return {equal(e.rounded) || equal(e.twoStep), 0,
            "neither fma nor a multiply and an add, correctly rounded"};
  if (e.nan)
    return {isNan(got), 0, "a NaN expected"};
  if (isNan(got))
    return {false, 0, "NaN where the result is not"};
  if (f.mode == Mode::Exact)
    return {equal(e.rounded), 0, "not the correctly rounded result"};
  if (f.mode == Mode::Absolute) {
    const double error = std::fabs(double(got) - e.value);
    return {error <= f.bound, error, "beyond the absolute error bound"};
  }
  if (e.exactZero)
    return {equal(e.rounded), 0, "not the exact zero, sign included"};
  if (e.infinite)
    return {sameHalf(got, e.rounded), 0, "not the infinity"};
  if (sameHalf(got, e.rounded)) // (an overflow to infinity counts as no error)
    return {true, std::isinf(float(got)) ? 0 : ulpError(got, e.value), ""};
  double error = ulpError(got, e.value);
  if (f.flags & Sanity) // lgamma: near its zeros, an absolute error of 2^-10 will do
    if (std::fabs(double(got) - e.value) <= 0x1p-10)
      error = std::min(std::fabs(error), f.bound);
  return {std::fabs(error) <= f.bound, error, "beyond the ulp bound"};
}

class MathHalf : public MathFixture, public ::testing::WithParamInterface<Param> {
protected:
  void SetUp() override {
    MathFixture::SetUp();
    if (HasFatalFailure())
      return;
    // Full-profile half: round to nearest, infinities and NaNs; denormals
    // are checked as results, so the device must not claim less.
    const auto config = deviceInfo<cl_device_fp_config>(device, CL_DEVICE_HALF_FP_CONFIG);
    ASSERT_TRUE(config & CL_FP_INF_NAN);
    ASSERT_TRUE(config & CL_FP_ROUND_TO_NEAREST);
    ASSERT_TRUE(config & CL_FP_DENORM);
  }

  std::vector<half> compute(const std::string &kernelName, int arity,
                            const std::vector<half> *operands, size_t n, int width,
                            const std::string &variant) {
    cl_kernel k = cachedKernel("math_half", kernelName, variant);
    if (!k)
      return {};
    const std::vector<half> sentinel(n, fromBits(0x7d5a));
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
    run(k, {n / size_t(width)});
    return read<half>(r, n);
  }

  double check(const Function &f, const Table &t, const std::vector<half> &got,
               const std::string &what, bool withPrescribed) {
    Failures failures{what};
    double worst = 0;
    for (size_t k = 0; k < got.size(); ++k) {
      const half operands[3] = {t.operand[0][k], t.operand[1][k], t.operand[2][k]};
      int zeros = 0;
      bool signaling = false;
      for (int i = 0; i < f.arity; ++i) {
        zeros += operands[i] == 0;
        signaling = signaling || isSignaling(operands[i]);
      }
      Verdict v = judge(f, t.expected[k], got[k], zeros >= 2, signaling);
      if (v.ok && withPrescribed && k < t.prescribed) {
        const Prescribed &p = prescribedAt(f, k);
        if (!sameHalf(got[k], p.want))
          v = {false, 0, "not the prescribed " + describe(p.want)};
      }
      if (v.ok && isNan(got[k]) && !signaling && isSignaling(got[k]))
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

  static const Prescribed &prescribedAt(const Function &f, size_t k) {
    size_t index = 0;
    for (const Prescribed &p : f.prescribed)
      if (!f.accept || f.accept(p.a, p.b, p.c)) {
        if (index == k)
          return p;
        ++index;
      }
    std::abort();
  }
};

std::vector<Param> halfParams() {
  std::vector<Param> out;
  for (const Function &f : allHalfFunctions())
    for (const char *v : {"", "-O0"})
      out.push_back({f.name, v});
  return out;
}

TEST_P(MathHalf, EveryWidth) {
  const Function &f = halfFunctionNamed(GetParam().function);
  const std::string variant = GetParam().variant;
  const Table &t = tableOf(f);
  const size_t n = countOf(f);
  double worst = 0;
  for (int width : widths) {
    const std::vector<half> got = compute("h_" + f.name, f.arity, t.operand, n, width, variant);
    ASSERT_EQ(got.size(), n);
    const std::string what =
        "half " + f.name + " width " + std::to_string(width) + " " + variantName(variant);
    worst = std::max(worst, check(f, t, got, what, true));
  }
  if (reportRequested())
    std::printf("[ math     ] half %-14s %s max error %g (bound %g)\n", f.name.c_str(),
                variantName(variant).c_str(), worst, f.bound);
}

INSTANTIATE_TEST_SUITE_P(Math, MathHalf, ::testing::ValuesIn(halfParams()), paramName);

// fmax(halfn, half) and the other forms with scalar operands.
const Table &halfScalarFormTable(const ScalarForm &form, int width) {
  static std::map<std::pair<std::string, int>, std::unique_ptr<Table>> tables;
  std::unique_ptr<Table> &t = tables[{form.function, width}];
  if (t)
    return *t;
  const PrecisionScope scope;
  const Function &f = halfFunctionNamed(form.function);
  const Table &base = tableOf(f);
  const size_t n = countOf(f);
  t = std::make_unique<Table>(); // (prescribed values not checked: operands replaced)
  for (int i = 0; i < 3; ++i) {
    t->operand[i] = base.operand[i];
    if (form.scalar[i])
      for (size_t k = 0; k < n; ++k)
        t->operand[i][k] = base.operand[i][k - k % size_t(width)];
  }
  t->expected.resize(n);
  for (size_t k = 0; k < n; ++k) {
    const half a = t->operand[0][k], b = t->operand[1][k], c = t->operand[2][k];
    t->expected[k] = reference(f, a, b, c);
  }
  return *t;
}

class MathHalfScalarOperands : public MathHalf {};

TEST_P(MathHalfScalarOperands, EveryWidth) {
  const ScalarForm *form = nullptr;
  for (const ScalarForm &s : scalarForms)
    if (GetParam().function == s.function)
      form = &s;
  ASSERT_NE(form, nullptr);
  const std::string variant = GetParam().variant;
  const Function &f = halfFunctionNamed(form->function);
  const size_t n = countOf(f);
  for (int width : widths) {
    if (width == 1)
      continue;
    const Table &t = halfScalarFormTable(*form, width);
    // Operand sets whose scalar replacement the function does not accept
    // (clamp with lo > hi, ...) are skipped.
    std::vector<half> got = compute("h_" + f.name + "_s", f.arity, t.operand, n, width, variant);
    ASSERT_EQ(got.size(), n);
    Table kept;
    std::vector<half> keptGot;
    for (size_t k = 0; k < n; ++k)
      if (!f.accept || f.accept(t.operand[0][k], t.operand[1][k], t.operand[2][k])) {
        for (int i = 0; i < 3; ++i)
          kept.operand[i].push_back(t.operand[i][k]);
        kept.expected.push_back(t.expected[k]);
        keptGot.push_back(got[k]);
      }
    check(f, kept, keptGot,
          "half " + f.name + " scalar form width " + std::to_string(width) + " " +
              variantName(variant),
          false);
  }
}

std::vector<Param> halfScalarParams() {
  std::vector<Param> out;
  for (const ScalarForm &form : scalarForms)
    for (const char *v : {"", "-O0"})
      out.push_back({form.function, v});
  return out;
}

INSTANTIATE_TEST_SUITE_P(Math, MathHalfScalarOperands, ::testing::ValuesIn(halfScalarParams()),
                         paramName);

// ---- half: pointer outputs and mixed types -------------------------------------------
// frexp, modf, fract, sincos, lgamma_r, ilogb and nan on every half
// (kernel ho_one of cl/math_half_outputs.cl), remquo, powr, ldexp, pown and
// rootn on random operands (ho_two), every width, -O2 and -O0. Exact where
// the half table says 0 ulp or correctly rounded (frexp, modf, fract, ilogb,
// ldexp, remquo's remainder and the 7 low bits and sign of its quotient),
// else within its bound (sincos 2 ulp; pown, rootn, powr 4 ulp); the values
// of 7.5.1 (fract(-inf) = -0, rootn(-0, -3) = -inf, ...) follow from the
// references. lgamma_r gets lgamma's sanity bound; its sign is checked
// where gamma has no pole.
struct Want {
  Expected e;
  double bound = 0; // 0: exact
  bool any = false; // not checked
};

Want exactly(half h) {
  Want w;
  w.e.rounded = h;
  w.e.value = double(h);
  w.e.nan = isNan(h);
  w.e.exactZero = h == 0;
  w.e.infinite = std::isinf(float(h));
  return w;
}
// An MPFR reference r (ternary `inexact`) held to `bound` ulp.
Want approximately(mpfr_srcptr r, int inexact, double bound) {
  Want w;
  w.e.nan = mpfr_nan_p(r);
  w.e.infinite = mpfr_inf_p(r);
  w.e.exactZero = mpfr_zero_p(r) && inexact == 0;
  w.e.value = mpfr_get_d(r, nearest);
  w.e.rounded = toHalf(r, inexact);
  w.bound = bound;
  return w;
}

// Whether got meets w, with its error in ulp.
bool meets(half got, const Want &w, double *error) {
  *error = 0;
  const Expected &e = w.e;
  if (w.any)
    return true;
  if (e.nan)
    return isNan(got);
  if (isNan(got))
    return false;
  if (sameHalf(got, e.rounded))
    return true;
  if (w.bound == 0 || e.exactZero || e.infinite)
    return false;
  *error = ulpError(got, e.value);
  return std::fabs(*error) <= w.bound;
}

half roundedHalf(double d) {
  Big b(d);
  return toHalf(b, 0);
}

constexpr size_t twoCount = 16128;

struct OutputCase {
  std::vector<half> one;            // every half, padded
  std::vector<Want> oneWant[9];     // frexp, modf, modf whole, fract, fract floor, sin, cos,
                                    // lgamma_r, nan
  std::vector<int> frexpExponent, ilogb;
  std::vector<int> lgammaSign;      // 2: not checked
  std::vector<half> x, y;           // ho_two operands
  std::vector<int> k;
  std::vector<Want> twoWant[5];     // remquo, powr, ldexp, pown, rootn
  std::vector<long> quotient;       // remquo's, LONG_MIN: not checked
};

const OutputCase &outputCase() {
  static const OutputCase c = [] {
    const PrecisionScope scope;
    OutputCase c;
    for (std::uint32_t u = 0; u < 0x10000; ++u)
      c.one.push_back(fromBits(std::uint16_t(u)));
    for (half h : {half(0.5f), -half(2.5f), inf, -inf, qnan, minDenormal, -maxDenormal,
                   largest, half(1), -half(0), half(3), half(-4), half(0.25f), half(7.5f),
                   smallestNormal, fromBits(0xbbff), half(100), -half(100), half(1e-3f),
                   half(-3.5f), half(12), half(-12.25f), half(0.75f), half(2), half(-1),
                   half(5), half(-6), half(1.5f), half(-0.125f), half(30), half(-30),
                   half(1024)})
      c.one.push_back(h);
    const half belowOne = fromBits(0x3bff);
    for (half h : c.one) {
      const double x = double(h);
      const bool finite = std::isfinite(x);
      // frexp
      int exponent = 0;
      double mantissa = x;
      if (finite && x != 0)
        mantissa = std::frexp(x, &exponent);
      c.oneWant[0].push_back(exactly(half(mantissa))); // exact
      c.frexpExponent.push_back(exponent);
      // modf
      const double whole = std::isnan(x) ? x : std::trunc(x);
      const double part = std::isnan(x) ? x : std::isinf(x) ? std::copysign(0.0, x)
                                                             : std::copysign(x - whole, x);
      c.oneWant[1].push_back(exactly(half(part)));
      c.oneWant[2].push_back(exactly(half(whole)));
      // fract (7.5.1 for zeros, infinities and NaN)
      const double floor = std::floor(x);
      half fraction;
      if (std::isnan(x) || x == 0)
        fraction = h;
      else if (std::isinf(x))
        fraction = std::signbit(x) ? -half(0) : half(0);
      else
        fraction = std::min(roundedHalf(x - floor), belowOne);
      c.oneWant[3].push_back(exactly(fraction));
      c.oneWant[4].push_back(exactly(half(floor)));
      // sincos
      Big a{float(h)}, r;
      int inexact = mpfr_sin(r, a, nearest);
      c.oneWant[5].push_back(approximately(r, inexact, 2));
      inexact = mpfr_cos(r, a, nearest);
      c.oneWant[6].push_back(approximately(r, inexact, 2));
      // lgamma_r: lgamma's sanity bound, the sign away from the poles
      int sign = 0;
      inexact = mpfr_lgamma(r, &sign, a, nearest);
      Want lg = approximately(r, inexact, 16);
      c.oneWant[7].push_back(lg);
      const bool pole = x == 0 || (x < 0 && finite && x == std::floor(x));
      c.lgammaSign.push_back(finite && !pole ? sign : 2);
      // ilogb
      c.ilogb.push_back(std::isnan(x) || std::isinf(x) ? INT_MAX
                        : x == 0                          ? INT_MIN
                                                          : std::ilogb(x));
      // nan(code): a quiet NaN
      c.oneWant[8].push_back(exactly(qnan));
    }
    Random random(seedOf("half outputs"));
    while (c.x.size() < twoCount) {
      half x = fromBits(std::uint16_t(random())), y = fromBits(std::uint16_t(random()));
      switch (random() % 4) {
      case 0: // y near x's magnitude, small quotients
        y = half(float(x) / float(1 + random() % 9) * (random() & 1 ? 1 : -1));
        break;
      case 1: // moderate powers
        x = half(std::ldexp(1 + unit(random), int(random() % 12) - 6));
        y = half(float(int(random() % 41) - 20) / (random() & 1 ? 1 : 4));
        break;
      default:
        break;
      }
      if (random() % 16 == 0)
        x = std::array<half, 6>{half(0), -half(0), inf, -inf, qnan, half(1)}[random() % 6];
      c.x.push_back(x);
      c.y.push_back(y);
      c.k.push_back(int(random() % 81) - 40);
    }
    for (size_t j = 0; j < twoCount; ++j) {
      const half hx = c.x[j], hy = c.y[j];
      const int k = c.k[j];
      Big a{float(hx)}, b{float(hy)}, r;
      long q = 0;
      const int inexact = mpfr_remquo(r, &q, a, b, nearest);
      c.twoWant[0].push_back(approximately(r, inexact, 0));
      c.quotient.push_back(mpfr_nan_p(r) ? LONG_MIN : q);
      // powr (7.5.1): NaN for x < 0, powr(±0, ±0), powr(+inf, ±0), powr(+1,
      // ±inf); powr(±0, y < 0) = +inf, powr(±0, y > 0) = +0, powr(+1, y) = 1.
      const double x = double(hx), y = double(hy);
      Want p;
      if (std::isnan(x) || std::isnan(y) || x < 0 || (x == 0 && y == 0) ||
          (std::isinf(x) && y == 0) || (x == 1 && std::isinf(y)))
        p = exactly(qnan);
      else if (x == 0)
        p = exactly(y < 0 ? inf : half(0));
      else {
        Big t;
        p = approximately(t, mpfr_pow(t, a, b, nearest), 4);
      }
      c.twoWant[1].push_back(p);
      c.twoWant[2].push_back(exactly(std::isfinite(x) && x != 0 ? roundedHalf(std::ldexp(x, k))
                                                                : hx));
      Big t;
      c.twoWant[3].push_back(approximately(t, mpfr_pow_si(t, a, k, nearest), 4));
      c.twoWant[4].push_back(approximately(t, mpfr_rootn_si(t, a, k, nearest), 4));
    }
    return c;
  }();
  return c;
}

class MathHalfOutputs : public MathHalf {};

// gtest's parameter is a Param: the function field holds the width.
TEST_P(MathHalfOutputs, EveryFunction) {
  const OutputCase &c = outputCase();
  const int width = std::stoi(GetParam().function);
  const std::string variant = GetParam().variant;
  const std::string label = "half width " + std::to_string(width) + " " + variantName(variant);
  auto checkHalves = [&](const std::string &what, const half *got, const std::vector<Want> &want,
                         const std::vector<half> &x, const std::vector<half> *y) {
    Failures failures{label + " " + what};
    for (size_t j = 0; j < want.size(); ++j) {
      double error;
      if (meets(got[j], want[j], &error))
        continue;
      failures.add([&] {
        std::ostringstream s;
        s << "element " << j << " x " << describe(x[j]);
        if (y)
          s << " y " << describe((*y)[j]);
        s << ": got " << describe(got[j]) << ", want " << describe(want[j].e.rounded);
        if (want[j].bound)
          s << " within " << want[j].bound << " ulp (error " << error << ")";
        return s.str();
      });
    }
  };
  auto checkInts = [&](const std::string &what, const int *got, const std::vector<int> &want,
                       const std::vector<half> &x, int skip) {
    Failures failures{label + " " + what};
    for (size_t j = 0; j < want.size(); ++j)
      if (want[j] != skip && got[j] != want[j])
        failures.add([&] {
          return "element " + std::to_string(j) + " x " + describe(x[j]) + ": got " +
                 std::to_string(got[j]) + ", want " + std::to_string(want[j]);
        });
  };
  {
    const size_t n = c.one.size();
    cl_kernel k = cachedKernel("math_half_outputs", "ho_one", variant);
    ASSERT_NE(k, nullptr);
    cl_mem a = buffer(c.one), r = buffer(std::vector<half>(9 * n, fromBits(0x7d5a)));
    cl_mem e = buffer(std::vector<cl_int>(3 * n, 0x5a5a5a5a));
    setArgs(k, a, r, e, cl_uint(n), cl_int(width));
    run(k, {n / size_t(width)});
    const std::vector<half> got = read<half>(r, 9 * n);
    const std::vector<cl_int> ints = read<cl_int>(e, 3 * n);
    const char *names[9] = {"frexp", "modf", "modf (integral part)", "fract", "fract (floor)",
                            "sincos (sine)", "sincos (cosine)", "lgamma_r", "nan"};
    for (int slot = 0; slot < 9; ++slot)
      checkHalves(names[slot], &got[slot * n], c.oneWant[slot], c.one, nullptr);
    Failures quiet{label + " nan (quiet)"};
    for (size_t j = 0; j < n; ++j)
      if (isSignaling(got[8 * n + j]))
        quiet.add([&] { return "code " + describe(c.one[j]) + ": a signalling NaN"; });
    checkInts("frexp (exponent)", &ints[0], c.frexpExponent, c.one, INT_MIN + 1);
    checkInts("lgamma_r (sign)", &ints[n], c.lgammaSign, c.one, 2);
    checkInts("ilogb", &ints[2 * n], c.ilogb, c.one, INT_MIN + 1);
  }
  {
    const size_t n = twoCount;
    cl_kernel k = cachedKernel("math_half_outputs", "ho_two", variant);
    ASSERT_NE(k, nullptr);
    cl_mem a = buffer(c.x), b = buffer(c.y), kk = buffer(c.k);
    cl_mem r = buffer(std::vector<half>(5 * n, fromBits(0x7d5a)));
    cl_mem q = buffer(std::vector<cl_int>(n, 0x5a5a5a5a));
    setArgs(k, a, b, kk, r, q, cl_uint(n), cl_int(width));
    run(k, {n / size_t(width)});
    const std::vector<half> got = read<half>(r, 5 * n);
    const std::vector<cl_int> quotient = read<cl_int>(q, n);
    const char *names[5] = {"remquo", "powr", "ldexp", "pown", "rootn"};
    for (int slot = 0; slot < 5; ++slot)
      checkHalves(names[slot], &got[slot * n], c.twoWant[slot], c.x, &c.y);
    // remquo's quotient: the sign of x / y and its 7 low bits.
    Failures failures{label + " remquo (quotient)"};
    for (size_t j = 0; j < n; ++j) {
      const long want = c.quotient[j];
      if (want == LONG_MIN)
        continue;
      const long low = std::labs(want) & 127;
      const bool ok = (std::labs(long(quotient[j])) & 127) == low &&
                      (low == 0 || (quotient[j] < 0) == (want < 0));
      if (!ok)
        failures.add([&] {
          return "element " + std::to_string(j) + " x " + describe(c.x[j]) + " y " +
                 describe(c.y[j]) + ": got " + std::to_string(quotient[j]) + ", want " +
                 std::to_string(want) + " (7 low bits and sign)";
        });
    }
  }
}

std::vector<Param> outputParams() {
  std::vector<Param> out;
  for (const char *v : {"", "-O0"})
    for (int width : widths)
      out.push_back({std::to_string(width), v});
  return out;
}

INSTANTIATE_TEST_SUITE_P(Math, MathHalfOutputs, ::testing::ValuesIn(outputParams()),
                         [](const ::testing::TestParamInfo<Param> &info) {
                           return "half" + info.param.function + "_" +
                                  variantName(info.param.variant);
                         });

} // namespace fp16

} // namespace
} // namespace lanewise::test
