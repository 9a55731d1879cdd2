// SPDX-License-Identifier: Apache-2.0
// Accuracy and special values of the double-precision math functions and
// common functions (OpenCL C 3.0, 6.15.2, 6.15.4), kernels d_NAME of
// cl/math.cl: the same functions as the float tests (math_float_test.cpp)
// but half_ and native_, on double and doublen, every width, -O2 and -O0,
// against the table "ULP values for double precision built-in math
// functions" (sqrt correctly rounded, the others as for float), with the
// float tests' prescribed values (nextafter's its own), double special
// operands (denormals, extremes, 2^52 and 2^53, the thresholds of exp, exp2,
// exp10, sinh, cosh and tgamma, the hardest argument reduction) and random
// operands over the whole double exponent range and the functions' ranges:
// 9600 operand sets per function. Errors are measured as for float
// (math_reference.h), in ulp of double (2^-1074 below the smallest normal),
// from references rounded once to double. Denormals must be right (double
// arithmetic on the device is the host's). Also the forms with scalar
// operands (fmax(doublen, double), ...).
#include "math_reference.h"

#include <mpfr.h>

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
#include <utility>
#include <vector>

namespace lanewise::test::math {
namespace {

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
  const Domain periodic = {bits(1),
                           uniform(-4, 4, 2),
                           halfIntegers(-100, 100, 0.5),
                           integers(-1000, 1000, 0.3),
                           nearIntegers(-100, 100, 0.5),
                           logUniform(0x1p-30, 0x1p54, true),
                           denormals(0.1)};
  const Domain rounding = {bits(1),
                           uniform(-4, 4),
                           halfIntegers(-1000, 1000),
                           nearIntegers(-1000, 1000),
                           logUniform(0x1p50, 0x1p54, true),
                           logUniform(0x1p-60, 1, true, 0.5),
                           denormals(0.1)};
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
    return {{bits(1), uniform(-180, 180, 2), logUniform(1, 0x1p1000, false), nearIntegers(-40, 3),
             logUniform(0x1p-60, 1, true, 0.5)}};
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

} // namespace
} // namespace lanewise::test::math
