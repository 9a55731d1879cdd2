// SPDX-License-Identifier: Apache-2.0
// What the math function tests share (math_float_test.cpp, math_double_test.cpp,
// math_half_test.cpp): the table of functions with their MPFR references,
// bounds, operand domains and prescribed values; the float operand sets and
// their references; the verdict on a result; and the fixture that runs the
// kernels of cl/math.cl.
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
// from a fixed seed: 16128 operand sets in all.
// LANEWISE_MATH_REPORT=1 in the environment prints each function's largest
// error.
#pragma once

#include "harness.h"

#include <mpfr.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <random>
#include <string>
#include <vector>

namespace lanewise::test::math {

// The half tests lower it to 64 bits, ample for half results and four
// times faster (see fp16::PrecisionScope).
extern mpfr_prec_t precision;
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
std::uint32_t bitsOf(float f);
float fromBits(std::uint32_t u);
bool isSignaling(float f);
std::string describe(float f);

// ---- references ----------------------------------------------------------------
// r = f(x, y, z) at `precision` bits; the result is the MPFR ternary value:
// 0 when r is exact.
using Reference = int (*)(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_srcptr z);

// ---- input generation ----------------------------------------------------------
using Random = std::mt19937_64;
double unit(Random &random);

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

Piece bits(double weight = 1);
Piece denormals(double weight = 0.2);
Piece uniform(double lo, double hi, double weight = 1);
Piece logUniform(double lo, double hi, bool signs, double weight = 1);
Piece integers(double lo, double hi, double weight = 1);
Piece halfIntegers(double lo, double hi, double weight = 1);
Piece nearIntegers(double lo, double hi, double weight = 1);
Piece nearOne(bool signs, double weight = 1);

// A float drawn from one of the domain's pieces, chosen by weight.
float draw(const Domain &domain, Random &random);

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

// Every function of the float tests, in the order of their tests.
const std::vector<MathFunction> &allFunctions();
const MathFunction &functionNamed(const std::string &name);

// ---- operand sets and their references ------------------------------------------
constexpr size_t count = 16128; // a multiple of every width
inline constexpr int widths[] = {1, 2, 3, 4, 8, 16};

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

Expected reference(const MathFunction &f, float a, float b, float c);
// The seed of a function's random operands (FNV-1a of its name).
std::uint64_t seedOf(const std::string &name);
// The function's operand sets and their references, built once.
const Table &tableOf(const MathFunction &f);

// ---- comparing -------------------------------------------------------------------
struct Verdict {
  bool ok;
  double error; // ulp for Ulps, absolute for Absolute, else 0
  std::string why;
};

// zeroOperands: two or more operands are zeros (fmax(-0, +0) may be either).
Verdict judge(const MathFunction &f, const Expected &e, float got, bool zeroOperands,
              bool signalingOperand);

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

bool reportRequested();

// ---- the fixture -------------------------------------------------------------------
class MathFixture : public SharedContextTest {
protected:
  void SetUp() override;

  // Runs kernel `kernelName` of math.cl at `width` over `operands` and
  // returns the results.
  std::vector<float> compute(const std::string &kernelName, int arity,
                             const std::vector<float> *operands, int width,
                             const std::string &variant);
  std::vector<float> compute(cl_kernel k, int arity, const std::vector<float> *operands, int width);

  // Checks `got` against the table; returns the largest error seen.
  double check(const MathFunction &f, const Table &t, const std::vector<float> &got,
               const std::string &what, bool withPrescribed);

  // The prescribed value behind operand set k < table.prescribed.
  static const Prescribed &prescribedAt(const MathFunction &f, size_t k);

  bool denormals_ = true;
  cl_device_fp_config config_ = 0;
};

// "O2" for the variant "", "O0" for "-O0".
std::string variantName(const std::string &variant);

// The parameter of the suites that run a function at every width: its name
// and the build variant.
struct Param {
  std::string function;
  const char *variant;
};
std::string paramName(const ::testing::TestParamInfo<Param> &info);
void PrintTo(const Param &p, std::ostream *os);

// fmax(floatn, float) and the like: the scalar operand applies to every
// component.
struct ScalarForm {
  const char *function;
  bool scalar[3]; // which operands are scalars
};
inline constexpr ScalarForm scalarForms[] = {
    {"fmax", {false, true, false}}, {"fmin", {false, true, false}},
    {"max", {false, true, false}},  {"min", {false, true, false}},
    {"step", {true, false, false}}, {"clamp", {false, true, true}},
    {"mix", {false, false, true}},  {"smoothstep", {true, true, false}},
};

} // namespace lanewise::test::math
