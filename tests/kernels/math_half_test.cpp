// SPDX-License-Identifier: Apache-2.0
// Accuracy and special values of the half-precision math functions and
// common functions (OpenCL C 3.0, 6.15.2, 6.15.4) on half and halfn, every
// width, -O2 and -O0 (kernels h_NAME of cl/math_half.cl), their forms with
// scalar operands, and the half functions with pointer outputs and mixed
// types (cl/math_half_outputs.cl). The functions and their float references
// are those of math_reference.h.
#include "math_reference.h"

#include <mpfr.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace lanewise::test::math {
namespace {

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
      {"acos", 2},   {"acosh", 2},  {"acospi", 2}, {"asin", 2},    {"asinh", 2},   {"asinpi", 2},
      {"atan", 2},   {"atanh", 2},  {"atanpi", 2}, {"atan2", 2},   {"atan2pi", 2}, {"cbrt", 2},
      {"cos", 2},    {"cosh", 2},   {"cospi", 2},  {"degrees", 2}, {"erfc", 4},    {"erf", 4},
      {"exp", 2},    {"exp2", 2},   {"exp10", 2},  {"expm1", 2},   {"hypot", 2},   {"log", 2},
      {"log2", 2},   {"log10", 2},  {"log1p", 2},  {"pow", 4},     {"radians", 2}, {"rsqrt", 1},
      {"sin", 2},    {"sinh", 2},   {"sinpi", 2},  {"tan", 2.5},   {"tanh", 2},    {"tanpi", 2},
      {"tgamma", 4}, {"lgamma", 16}};
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
      if (representable(p.a) && representable(p.b) && representable(p.c) && representable(p.want))
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
      f.accept = [](half a, half b, half) {
        return !isNan(a) && !isNan(b) && !std::isinf(float(a)) && !std::isinf(float(b));
      };
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
    return {half(0),  -half(0), inf,         -inf,        qnan,   half(1),
            -half(1), largest,  minDenormal, -half(0.5f), half(3)};
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
               : std::isnan(w[k])                             ? qnan
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
  std::vector<half> one;        // every half, padded
  std::vector<Want> oneWant[9]; // frexp, modf, modf whole, fract, fract floor, sin, cos,
                                // lgamma_r, nan
  std::vector<int> frexpExponent, ilogb;
  std::vector<int> lgammaSign; // 2: not checked
  std::vector<half> x, y;      // ho_two operands
  std::vector<int> k;
  std::vector<Want> twoWant[5]; // remquo, powr, ldexp, pown, rootn
  std::vector<long> quotient;   // remquo's, LONG_MIN: not checked
};

const OutputCase &outputCase() {
  static const OutputCase c = [] {
    const PrecisionScope scope;
    OutputCase c;
    for (std::uint32_t u = 0; u < 0x10000; ++u)
      c.one.push_back(fromBits(std::uint16_t(u)));
    for (half h : {half(0.5f),       -half(2.5f),   inf,         -inf,          qnan,
                   minDenormal,      -maxDenormal,  largest,     half(1),       -half(0),
                   half(3),          half(-4),      half(0.25f), half(7.5f),    smallestNormal,
                   fromBits(0xbbff), half(100),     -half(100),  half(1e-3f),   half(-3.5f),
                   half(12),         half(-12.25f), half(0.75f), half(2),       half(-1),
                   half(5),          half(-6),      half(1.5f),  half(-0.125f), half(30),
                   half(-30),        half(1024)})
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
      const double part = std::isnan(x)   ? x
                          : std::isinf(x) ? std::copysign(0.0, x)
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
                        : x == 0                       ? INT_MIN
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
      c.twoWant[2].push_back(
          exactly(std::isfinite(x) && x != 0 ? roundedHalf(std::ldexp(x, k)) : hx));
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
    const char *names[9] = {"frexp",           "modf",          "modf (integral part)",
                            "fract",           "fract (floor)", "sincos (sine)",
                            "sincos (cosine)", "lgamma_r",      "nan"};
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
} // namespace lanewise::test::math
