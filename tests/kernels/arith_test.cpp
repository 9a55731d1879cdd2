// SPDX-License-Identifier: Apache-2.0
// Operators of OpenCL C on every built-in scalar type and vector width
// (kernels in cl/arith.cl). Expected values follow the OpenCL C 3.0 rules,
// computed here in C++: integer arithmetic wraps, shift counts are taken
// modulo the width of the (promoted) left operand (6.15.8), comparisons and
// logical operators give 1/0 on scalars and -1/0 on vectors (6.15.6, 6.15.7,
// 6.15.9), the ternary operator on vectors selects per component on the most
// significant bit of the condition (6.15.13, select), and floating-point
// operations are correctly rounded IEEE 754 operations (the device reports
// CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT); half results are the correctly
// rounded _Float16 result.
#include "harness.h"
#include "mismatches.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <string>

namespace lanewise::test {
namespace {

using half = _Float16;

// ---- a fixture that builds each program once per process --------------------
class ArithTest : public SharedContextTest {
protected:
  cl_kernel cachedKernel(const std::string &name, const std::string &variant) {
    return SharedContextTest::cachedKernel("arith", name, variant);
  }

};

// ---- types ----------------------------------------------------------------------
template <typename T>
constexpr bool isFloat = std::is_floating_point_v<T> || std::is_same_v<T, half>;

template <typename T> struct Traits;
#define LANEWISE_TRAITS(T, N, RT)                                                                  \
  template <> struct Traits<T> {                                                                   \
    static constexpr const char *name = N;                                                         \
    using R = RT; /* the element of a vector comparison's result */                                \
  };
LANEWISE_TRAITS(std::int8_t, "char", std::int8_t)
LANEWISE_TRAITS(std::uint8_t, "uchar", std::int8_t)
LANEWISE_TRAITS(std::int16_t, "short", std::int16_t)
LANEWISE_TRAITS(std::uint16_t, "ushort", std::int16_t)
LANEWISE_TRAITS(std::int32_t, "int", std::int32_t)
LANEWISE_TRAITS(std::uint32_t, "uint", std::int32_t)
LANEWISE_TRAITS(std::int64_t, "long", std::int64_t)
LANEWISE_TRAITS(std::uint64_t, "ulong", std::int64_t)
LANEWISE_TRAITS(half, "half", std::int16_t)
LANEWISE_TRAITS(float, "float", std::int32_t)
LANEWISE_TRAITS(double, "double", std::int64_t)
#undef LANEWISE_TRAITS

// gtest needs the typeid of its type parameters, which libstdc++ 12 lacks
// for _Float16: half tests are parameterised by HalfTag.
struct HalfTag {};
template <typename P> struct ValueType { using type = P; };
template <> struct ValueType<HalfTag> { using type = half; };
template <typename P> using Value = typename ValueType<P>::type;
using AllTypes =
    ::testing::Types<std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t,
                     std::uint32_t, std::int64_t, std::uint64_t, HalfTag, float, double>;
struct TypeNames {
  template <typename P> static std::string GetName(int) { return Traits<Value<P>>::name; }
};

template <typename T> auto bitsOf(T v) {
  using U = std::conditional_t<
      sizeof(T) == 1, std::uint8_t,
      std::conditional_t<sizeof(T) == 2, std::uint16_t,
                         std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;
  U u;
  std::memcpy(&u, &v, sizeof v);
  return u;
}
template <typename T> bool isNan(T v) {
  if constexpr (isFloat<T>)
    return std::isnan(double(v));
  else
    return false;
}
// Floating-point results must match bit for bit, except that any NaN matches
// any NaN (OpenCL does not specify NaN payloads or their signs).
template <typename T> bool same(T got, T want) {
  if (isNan(want))
    return isNan(got);
  return bitsOf(got) == bitsOf(want);
}
template <typename T> std::string show(T v) {
  std::ostringstream s;
  if constexpr (isFloat<T>)
    s << double(v) << " (0x" << std::hex << std::uint64_t(bitsOf(v)) << ")";
  else if constexpr (sizeof(T) == 1)
    s << int(v);
  else
    s << v;
  return s.str();
}

const std::vector<int> allWidths = {1, 2, 3, 4, 8, 16};
const std::vector<int> narrowWidths = {1, 3, 4};
const char *const variants[] = {"", "-O0"};

std::string typeName(const char *base, int width) {
  return width == 1 ? base : base + std::to_string(width);
}
// Elements of a 3-component vector are 4 components apart in memory.
size_t strideOf(int width) { return width == 3 ? 4 : size_t(width); }

// Vectors of `width` components spread over memory with the stride of the
// type; `at(e, j)` is component j of element e.
template <typename T> struct Lanes {
  int width;
  std::vector<T> data;
  Lanes(int w, size_t elements, T fill = T()) : width(w), data(elements * strideOf(w), fill) {}
  T &at(size_t e, int j) { return data[e * strideOf(width) + j]; }
  T at(size_t e, int j) const { return data[e * strideOf(width) + j]; }
  size_t elements() const { return data.size() / strideOf(width); }
};

// ---- inputs ---------------------------------------------------------------------
template <typename T> std::vector<T> edgeValues() {
  if constexpr (isFloat<T>) {
    double max, minNormal, minDenormal;
    if constexpr (std::is_same_v<T, half>) {
      max = 65504.0, minNormal = 0x1p-14, minDenormal = 0x1p-24;
    } else {
      max = double(std::numeric_limits<T>::max());
      minNormal = double(std::numeric_limits<T>::min());
      minDenormal = double(std::numeric_limits<T>::denorm_min());
    }
    const double inf = INFINITY, nan = NAN;
    std::vector<double> v = {
        0.0,       -0.0,       1.0,         -1.0,         0.5,
        3.0,       -2.5,       1.0 / 3.0,   max,          -max,
        minNormal, -minNormal, minDenormal, -minDenormal, minNormal - minDenormal,
        inf,       -inf,       nan,         -nan,         1e4};
    std::vector<T> out;
    for (double d : v)
      out.push_back(T(d));
    return out;
  } else {
    using L = std::numeric_limits<T>;
    std::vector<T> out = {T(0),           T(1),
                          T(2),           T(3),
                          T(7),           T(8),
                          T(9),           T(15),
                          T(16),          T(17),
                          T(31),          T(32),
                          T(33),          T(63),
                          T(64),          T(65),
                          T(-1),          T(-2),
                          T(-3),          L::min(),
                          L::max(),       T(L::min() + 1),
                          T(L::max() - 1)};
    T pattern = 0;
    for (size_t i = 0; i < sizeof(T); ++i)
      pattern = T((pattern << 8) | 0x55);
    out.push_back(pattern);
    out.push_back(T(~pattern));
    return out;
  }
}

template <typename T> T randomValue(std::mt19937_64 &random) {
  const std::uint64_t bits = random();
  if constexpr (isFloat<T>) {
    if (bits & 1) { // any bit pattern
      T v;
      std::memcpy(&v, &bits, sizeof v);
      return v;
    }
    // A value of moderate size, whose sums and products round.
    const double m = double(bits >> 11) * 0x1p-53;
    const int e = int((bits >> 1) % 21) - 10;
    return T(((bits >> 6) & 1 ? -1.0 : 1.0) * std::ldexp(1.0 + m, e));
  } else {
    if (bits & 1) // small magnitudes
      return T(std::int64_t(bits >> 2) % 301 - 150);
    return T(bits >> 1 ^ bits << 40);
  }
}

// `count` pairs: every pair of edge values, then pseudo-random ones.
template <typename T>
void pairs(size_t count, std::uint64_t seed, std::vector<T> &a, std::vector<T> &b) {
  const std::vector<T> edges = edgeValues<T>();
  std::mt19937_64 random(seed);
  a.resize(count);
  b.resize(count);
  for (size_t k = 0; k < count; ++k) {
    if (k < edges.size() * edges.size()) {
      a[k] = edges[k / edges.size()];
      b[k] = edges[k % edges.size()];
    } else {
      a[k] = randomValue<T>(random);
      b[k] = randomValue<T>(random);
    }
  }
}

// A divisor that is neither 0 nor -1 (avoiding the undefined INT_MIN / -1).
template <typename T> T safeDivisor(T v) {
  if constexpr (!isFloat<T>) {
    if (v == T(0))
      return T(1);
    if (std::is_signed_v<T> && v == T(-1))
      return T(-7);
  }
  return v;
}

// ---- the operations -------------------------------------------------------------
// Integer operations are computed on 64 bits and wrapped to T.
template <typename T> T wrap(std::uint64_t v) { return T(std::make_unsigned_t<T>(v)); }
template <typename T>
using Wide = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;

// The number of bits whose log2 masks a shift count: those of the left
// operand after integer promotion for scalars, of the element for vectors.
template <typename T> unsigned shiftBits(bool scalar) {
  return scalar ? std::max<unsigned>(32, sizeof(T) * 8) : sizeof(T) * 8;
}
template <typename T> T shl(T a, T b, bool scalar) {
  const unsigned n = unsigned(std::uint64_t(b) & (shiftBits<T>(scalar) - 1));
  return wrap<T>(std::uint64_t(a) << n);
}
template <typename T> T shr(T a, T b, bool scalar) {
  const unsigned n = unsigned(std::uint64_t(b) & (shiftBits<T>(scalar) - 1));
  return T(Wide<T>(a) >> n); // arithmetic for signed types, on the promoted value
}

// Floating-point operations; half ones in float, then rounded once to half
// (float has more than 2p+2 bits, so this is the correctly rounded result).
template <typename T, typename F> T fop(T a, T b, F f) {
  if constexpr (std::is_same_v<T, half>)
    return half(f(float(a), float(b)));
  else
    return f(a, b);
}

template <typename T> T add(T a, T b) {
  if constexpr (isFloat<T>)
    return fop(a, b, [](auto x, auto y) { return x + y; });
  else
    return wrap<T>(std::uint64_t(a) + std::uint64_t(b));
}
template <typename T> T sub(T a, T b) {
  if constexpr (isFloat<T>)
    return fop(a, b, [](auto x, auto y) { return x - y; });
  else
    return wrap<T>(std::uint64_t(a) - std::uint64_t(b));
}
template <typename T> T mul(T a, T b) {
  if constexpr (isFloat<T>)
    return fop(a, b, [](auto x, auto y) { return x * y; });
  else
    return wrap<T>(std::uint64_t(a) * std::uint64_t(b));
}
template <typename T> T div(T a, T b) {
  if constexpr (isFloat<T>)
    return fop(a, b, [](auto x, auto y) { return x / y; });
  else
    return T(Wide<T>(a) / Wide<T>(b)); // truncates toward zero
}
template <typename T> T rem(T a, T b) { return T(Wide<T>(a) % Wide<T>(b)); }
template <typename T> T neg(T a) {
  if constexpr (isFloat<T>)
    return T(-a);
  else
    return wrap<T>(0 - std::uint64_t(a));
}
template <typename T> bool nonzero(T a) { return a != T(0); } // NaN is nonzero

template <typename T> double asDouble(T v) { return double(v); }

// A comparison's result: 1/0 on scalars, -1/0 on vectors.
std::int64_t truth(bool v, bool scalar) { return v ? (scalar ? 1 : -1) : 0; }

// T-valued operations of ops_T, in the kernel's slot order.
template <typename T> struct ValueOp {
  const char *name;
  // (x, y, divisor, condition, scalar)
  T (*f)(T, T, T, std::int64_t, bool);
};
template <typename T> std::vector<ValueOp<T>> valueOps() {
  std::vector<ValueOp<T>> ops = {
      {"x + y", [](T x, T y, T, std::int64_t, bool) { return add(x, y); }},
      {"x - y", [](T x, T y, T, std::int64_t, bool) { return sub(x, y); }},
      {"x * y", [](T x, T y, T, std::int64_t, bool) { return mul(x, y); }},
      {"x / y", [](T x, T y, T d, std::int64_t, bool) { return div(x, isFloat<T> ? y : d); }},
      {"-x", [](T x, T, T, std::int64_t, bool) { return neg(x); }},
      // Scalar conditions select when nonzero, vector ones on their most
      // significant bit.
      {"c ? x : y",
       [](T x, T y, T, std::int64_t c, bool scalar) { return (scalar ? c != 0 : c < 0) ? x : y; }},
  };
  if constexpr (!isFloat<T>) {
    ops.push_back({"y % d", [](T, T y, T d, std::int64_t, bool) { return rem(y, d); }});
    ops.push_back({"~x", [](T x, T, T, std::int64_t, bool) { return T(~x); }});
    ops.push_back({"x & y", [](T x, T y, T, std::int64_t, bool) { return T(x & y); }});
    ops.push_back({"x | y", [](T x, T y, T, std::int64_t, bool) { return T(x | y); }});
    ops.push_back({"x ^ y", [](T x, T y, T, std::int64_t, bool) { return T(x ^ y); }});
    ops.push_back({"x << y", [](T x, T y, T, std::int64_t, bool s) { return shl(x, y, s); }});
    ops.push_back({"x >> y", [](T x, T y, T, std::int64_t, bool s) { return shr(x, y, s); }});
  }
  return ops;
}

// Comparison-valued operations of ops_T (cmp), in slot order.
template <typename T> struct TruthOp {
  const char *name;
  bool (*f)(T, T);
};
template <typename T> std::vector<TruthOp<T>> truthOps() {
  // Ordered comparisons are false on NaN; != is true (6.15.6).
  std::vector<TruthOp<T>> ops = {
      {"x == y", [](T x, T y) { return asDouble(x) == asDouble(y); }},
      {"x != y", [](T x, T y) { return asDouble(x) != asDouble(y); }},
      {"x < y", [](T x, T y) { return asDouble(x) < asDouble(y); }},
      {"x <= y", [](T x, T y) { return asDouble(x) <= asDouble(y); }},
      {"x > y", [](T x, T y) { return asDouble(x) > asDouble(y); }},
      {"x >= y", [](T x, T y) { return asDouble(x) >= asDouble(y); }},
      {"!x", [](T x, T) { return !nonzero(x); }},
      {"x && y", [](T x, T y) { return nonzero(x) && nonzero(y); }},
      {"x || y", [](T x, T y) { return nonzero(x) || nonzero(y); }},
  };
  if constexpr (!isFloat<T>) {
    // asDouble is not exact for 64-bit integers: compare them as they are.
    ops[0].f = [](T x, T y) { return x == y; };
    ops[1].f = [](T x, T y) { return x != y; };
    ops[2].f = [](T x, T y) { return x < y; };
    ops[3].f = [](T x, T y) { return x <= y; };
    ops[4].f = [](T x, T y) { return x > y; };
    ops[5].f = [](T x, T y) { return x >= y; };
  } else {
    // Relational built-ins (6.15.18).
    ops.insert(ops.end(),
               {
                   {"isnan(x)", [](T x, T) { return std::isnan(double(x)); }},
                   {"isinf(x)", [](T x, T) { return std::isinf(double(x)); }},
                   {"isfinite(x)", [](T x, T) { return std::isfinite(double(x)); }},
                   {"isnormal(x)",
                    [](T x, T) {
                      if constexpr (std::is_same_v<T, half>)
                        return std::isfinite(double(x)) && std::fabs(double(x)) >= 0x1p-14;
                      else
                        return std::isnormal(x);
                    }},
                   {"signbit(x)", [](T x, T) { return std::signbit(double(x)); }},
                   {"isordered(x, y)",
                    [](T x, T y) { return !std::isnan(double(x)) && !std::isnan(double(y)); }},
                   {"isunordered(x, y)",
                    [](T x, T y) { return std::isnan(double(x)) || std::isnan(double(y)); }},
                   {"islessgreater(x, y)",
                    [](T x, T y) { return double(x) < double(y) || double(x) > double(y); }},
                   {"isequal(x, y)", [](T x, T y) { return double(x) == double(y); }},
                   {"isnotequal(x, y)", [](T x, T y) { return double(x) != double(y); }},
                   {"isgreater(x, y)", [](T x, T y) { return double(x) > double(y); }},
                   {"isgreaterequal(x, y)", [](T x, T y) { return double(x) >= double(y); }},
                   {"isless(x, y)", [](T x, T y) { return double(x) < double(y); }},
                   {"islessequal(x, y)", [](T x, T y) { return double(x) <= double(y); }},
               });
  }
  return ops;
}

// ---- reading results ------------------------------------------------------------
// Comparison results are int for scalars and Traits<T>::R for vectors.
template <typename T> size_t truthBytes(int width) {
  return width == 1 ? sizeof(std::int32_t) : sizeof(typename Traits<T>::R);
}
std::int64_t signedAt(const std::vector<std::uint8_t> &bytes, size_t index, size_t size) {
  switch (size) {
  case 1:
    return std::int8_t(bytes[index]);
  case 2: {
    std::int16_t v;
    std::memcpy(&v, &bytes[index * 2], 2);
    return v;
  }
  case 4: {
    std::int32_t v;
    std::memcpy(&v, &bytes[index * 4], 4);
    return v;
  }
  default: {
    std::int64_t v;
    std::memcpy(&v, &bytes[index * 8], 8);
    return v;
  }
  }
}
void putSigned(std::vector<std::uint8_t> &bytes, size_t index, size_t size, std::int64_t v) {
  std::memcpy(&bytes[index * size], &v, size); // little-endian
}

// ---- ops_T --------------------------------------------------------------------
template <typename T> class ArithOps : public ArithTest {};
TYPED_TEST_SUITE(ArithOps, AllTypes, TypeNames);

TYPED_TEST(ArithOps, EveryOperatorEveryWidth) {
  using T = Value<TypeParam>;
  const auto values = valueOps<T>();
  const auto truths = truthOps<T>();
  const size_t NT = values.size(), NR = truths.size();
  for (const char *variant : variants)
    for (int width : allWidths) {
      const std::string name = "ops_" + typeName(Traits<T>::name, width);
      const bool scalar = width == 1;
      const size_t rb = truthBytes<T>(width);
      const size_t components = 960, items = components / width;
      std::vector<T> av, bv;
      pairs<T>(components, 0x5eed + width, av, bv);
      Lanes<T> a(width, items), b(width, items), d(width, items);
      const size_t stride = strideOf(width);
      std::vector<std::uint8_t> c(items * stride * rb);
      std::mt19937_64 random(99 + width);
      const std::int64_t conditions[] = {0,
                                         1,
                                         -1,
                                         2,
                                         0x40,
                                         -0x80,
                                         std::int64_t(-1) << (rb * 8 - 1),
                                         std::int64_t((std::uint64_t(1) << (rb * 8 - 1)) - 1)};
      for (size_t e = 0; e < items; ++e)
        for (int j = 0; j < width; ++j) {
          const size_t k = e * width + j;
          a.at(e, j) = av[k];
          b.at(e, j) = bv[k];
          d.at(e, j) = safeDivisor(bv[k]);
          putSigned(c, e * stride + j, rb, conditions[random() % 8]);
        }
      cl_mem A = this->buffer(a.data), B = this->buffer(b.data), D = this->buffer(d.data),
             C = this->buffer(c), O = this->template buffer<T>(items * NT * stride),
             P = this->template buffer<std::uint8_t>(items * NR * stride * rb);
      cl_kernel k = this->cachedKernel(name, variant);
      ASSERT_NE(k, nullptr) << name << variant;
      this->setArgs(k, A, B, D, C, O, P);
      this->run(k, {items});
      Lanes<T> out(width, items * NT);
      out.data = this->template read<T>(O, items * NT * stride);
      const std::vector<std::uint8_t> cmp =
          this->template read<std::uint8_t>(P, items * NR * stride * rb);
      for (size_t op = 0; op < NT; ++op) {
        Mismatches m{name + variant + " " + values[op].name};
        for (size_t e = 0; e < items; ++e)
          for (int j = 0; j < width; ++j) {
            const T x = a.at(e, j), y = b.at(e, j), z = d.at(e, j);
            const std::int64_t cond = signedAt(c, e * stride + j, rb);
            const T want = values[op].f(x, y, z, cond, scalar), got = out.at(e * NT + op, j);
            if (!same(got, want))
              m.add([&] {
                return "x=" + show(x) + " y=" + show(y) + " d=" + show(z) +
                       " c=" + std::to_string(cond) + " [item " + std::to_string(e) + "." +
                       std::to_string(j) + "]: want " + show(want) + ", got " + show(got);
              });
          }
      }
      for (size_t op = 0; op < NR; ++op) {
        Mismatches m{name + variant + " " + truths[op].name};
        for (size_t e = 0; e < items; ++e)
          for (int j = 0; j < width; ++j) {
            const T x = a.at(e, j), y = b.at(e, j);
            const std::int64_t want = truth(truths[op].f(x, y), scalar),
                               got = signedAt(cmp, (e * NR + op) * stride + j, rb);
            if (got != want)
              m.add([&] {
                return "x=" + show(x) + " y=" + show(y) + " [item " + std::to_string(e) + "." +
                       std::to_string(j) + "]: want " + std::to_string(want) + ", got " +
                       std::to_string(got);
              });
          }
      }
    }
}

// ---- forms_T --------------------------------------------------------------------
template <typename T> class ArithForms : public ArithTest {};
TYPED_TEST_SUITE(ArithForms, AllTypes, TypeNames);

TYPED_TEST(ArithForms, UniformVaryingAndConstantOperands) {
  using T = Value<TypeParam>;
  const T three = T(3);
  for (const char *variant : variants)
    for (int width : narrowWidths) {
      const std::string name = "forms_" + typeName(Traits<T>::name, width);
      const bool scalar = width == 1;
      const size_t rb = truthBytes<T>(width), stride = strideOf(width);
      const size_t components = 480, items = components / width;
      std::vector<T> av, bv;
      pairs<T>(components, 0xf0 + width, av, bv);
      std::vector<T> edges = edgeValues<T>();
      Lanes<T> a(width, items), b(width, items);
      std::vector<T> w(items);
      std::mt19937_64 random(7 + width);
      for (size_t e = 0; e < items; ++e) {
        for (int j = 0; j < width; ++j) {
          a.at(e, j) = av[e * width + j];
          b.at(e, j) = safeDivisor(bv[e * width + j]);
        }
        w[e] = edges[random() % edges.size()];
      }
      // Several sets of uniform arguments; ua and ub differ per component.
      for (int round = 0; round < 3; ++round) {
        std::array<T, 16> ua{}, ub{};
        for (int j = 0; j < width; ++j) {
          ua[j] = edges[(round * 7 + j * 3) % edges.size()];
          ub[j] = safeDivisor(edges[(round * 5 + j * 11 + 4) % edges.size()]);
        }
        const T us = safeDivisor(edges[(round * 13 + 9) % edges.size()]);
        const int c = round == 1 ? 0 : -7 + round;
        cl_mem A = this->buffer(a.data), B = this->buffer(b.data), W = this->buffer(w),
               O = this->template buffer<T>(items * 26 * stride),
               P = this->template buffer<std::uint8_t>(items * 8 * stride * rb);
        cl_kernel k = this->cachedKernel(name, variant);
        ASSERT_NE(k, nullptr) << name << variant;
        // A uniform argument has the size of its type (16 bytes for 3 or 4
        // components of 4 bytes...).
        const size_t argBytes = stride * sizeof(T);
        ASSERT_EQ(clSetKernelArg(k, 0, sizeof A, &A), CL_SUCCESS);
        ASSERT_EQ(clSetKernelArg(k, 1, sizeof B, &B), CL_SUCCESS);
        ASSERT_EQ(clSetKernelArg(k, 2, sizeof W, &W), CL_SUCCESS);
        ASSERT_EQ(clSetKernelArg(k, 3, argBytes, ua.data()), CL_SUCCESS);
        ASSERT_EQ(clSetKernelArg(k, 4, argBytes, ub.data()), CL_SUCCESS);
        ASSERT_EQ(clSetKernelArg(k, 5, sizeof us, &us), CL_SUCCESS);
        ASSERT_EQ(clSetKernelArg(k, 6, sizeof c, &c), CL_SUCCESS);
        ASSERT_EQ(clSetKernelArg(k, 7, sizeof O, &O), CL_SUCCESS);
        ASSERT_EQ(clSetKernelArg(k, 8, sizeof P, &P), CL_SUCCESS);
        this->run(k, {items});
        Lanes<T> out(width, items * 26);
        out.data = this->template read<T>(O, items * 26 * stride);
        const auto cmp = this->template read<std::uint8_t>(P, items * 8 * stride * rb);

        // The operands of each form, for element e, component j.
        const char *forms[] = {"x OP ub", "ua OP y", "ua OP ub", "x OP 3",
                               "3 OP y",  "ua OP 3", "x OP us",  "w OP y"};
        auto operands = [&](int form, size_t e, int j) -> std::pair<T, T> {
          const T x = a.at(e, j), y = b.at(e, j);
          switch (form) {
          case 0:
            return {x, ub[j]};
          case 1:
            return {ua[j], y};
          case 2:
            return {ua[j], ub[j]};
          case 3:
            return {x, three};
          case 4:
            return {three, y};
          case 5:
            return {ua[j], three};
          case 6:
            return {x, us};
          default:
            return {w[e], y};
          }
        };
        auto check = [&](const std::string &op, size_t firstSlot, int count, auto f) {
          for (int form = 0; form < count; ++form) {
            Mismatches m{name + variant + " " + op + " " + forms[form] + " (round " +
                         std::to_string(round) + ")"};
            for (size_t e = 0; e < items; ++e)
              for (int j = 0; j < width; ++j) {
                const auto [x, y] = operands(form, e, j);
                const T want = f(x, y), got = out.at(e * 26 + firstSlot + form, j);
                if (!same(got, want))
                  m.add([&] {
                    return "x=" + show(x) + " y=" + show(y) + ": want " + show(want) + ", got " +
                           show(got);
                  });
              }
          }
        };
        check("-", 0, 8, [](T x, T y) { return sub(x, y); });
        check("/", 8, 8, [](T x, T y) { return div(x, y); });
        if constexpr (!isFloat<T>)
          check("<<", 19, 7, [&](T x, T y) { return shl(x, y, scalar); });
        // A scalar condition selects whole vectors.
        {
          Mismatches m{name + variant + " c ? ... (c=" + std::to_string(c) + ")"};
          for (size_t e = 0; e < items; ++e)
            for (int j = 0; j < width; ++j) {
              const T x = a.at(e, j), y = b.at(e, j);
              const T want[] = {c ? x : y, c ? x : ub[j], c ? ua[j] : ub[j]};
              for (int s = 0; s < 3; ++s) {
                const T got = out.at(e * 26 + 16 + s, j);
                if (!same(got, want[s]))
                  m.add([&] {
                    return "slot " + std::to_string(s) + " x=" + show(x) + " y=" + show(y) +
                           ": want " + show(want[s]) + ", got " + show(got);
                  });
              }
            }
        }
        for (int form = 0; form < 8; ++form) {
          Mismatches m{name + variant + " < " + forms[form] + " (round " + std::to_string(round) +
                       ")"};
          for (size_t e = 0; e < items; ++e)
            for (int j = 0; j < width; ++j) {
              const auto [x, y] = operands(form, e, j);
              bool less;
              if constexpr (isFloat<T>)
                less = double(x) < double(y);
              else
                less = x < y;
              const std::int64_t want = truth(less, scalar),
                                 got = signedAt(cmp, (e * 8 + form) * stride + j, rb);
              if (got != want)
                m.add([&] {
                  return "x=" + show(x) + " y=" + show(y) + ": want " + std::to_string(want) +
                         ", got " + std::to_string(got);
                });
            }
        }
      }
    }
}

// ---- odd_T --------------------------------------------------------------------
template <typename T> class ArithDivergent : public ArithTest {};
TYPED_TEST_SUITE(ArithDivergent, AllTypes, TypeNames);

TYPED_TEST(ArithDivergent, OnlyOddWorkItemsCompute) {
  using T = Value<TypeParam>;
  for (const char *variant : variants)
    for (int width : allWidths) {
      const std::string name = "odd_" + typeName(Traits<T>::name, width);
      const bool scalar = width == 1;
      const size_t rb = truthBytes<T>(width), stride = strideOf(width);
      const size_t components = 480, items = components / width;
      std::vector<T> av, bv;
      pairs<T>(components, 0x0dd + width, av, bv);
      Lanes<T> a(width, items), b(width, items);
      for (size_t e = 0; e < items; ++e)
        for (int j = 0; j < width; ++j) {
          a.at(e, j) = av[e * width + j];
          b.at(e, j) = bv[e * width + j];
        }
      // Recognisable original contents.
      Lanes<T> original(width, items * 4);
      for (size_t i = 0; i < original.data.size(); ++i) {
        const std::uint64_t bits = 0x5a5a5a5a5a5a5a5aull + i * 0x0101;
        std::memcpy(&original.data[i], &bits, sizeof(T));
      }
      std::vector<std::uint8_t> originalCmp(items * 2 * stride * rb);
      for (size_t i = 0; i < originalCmp.size(); ++i)
        originalCmp[i] = std::uint8_t(0x33 + i);
      cl_mem A = this->buffer(a.data), B = this->buffer(b.data), O = this->buffer(original.data),
             P = this->buffer(originalCmp);
      cl_kernel k = this->cachedKernel(name, variant);
      ASSERT_NE(k, nullptr) << name << variant;
      this->setArgs(k, A, B, O, P);
      this->run(k, {items});
      Lanes<T> out(width, items * 4);
      out.data = this->template read<T>(O, items * 4 * stride);
      const auto cmp = this->template read<std::uint8_t>(P, items * 2 * stride * rb);
      Mismatches m{name + variant};
      for (size_t e = 0; e < items; ++e)
        for (int j = 0; j < width; ++j) {
          const T x = a.at(e, j), y = b.at(e, j);
          bool less;
          if constexpr (isFloat<T>)
            less = double(x) < double(y);
          else
            less = x < y;
          const bool odd = e & 1;
          const T diff = sub(x, y), min = less ? x : y;
          for (int s = 0; s < 4; ++s) {
            const T want = odd ? (s % 2 ? min : diff) : original.at(e * 4 + s, j);
            const T got = out.at(e * 4 + s, j);
            if (!(odd ? same(got, want) : bitsOf(got) == bitsOf(want)))
              m.add([&] {
                return "item " + std::to_string(e) + "." + std::to_string(j) + " slot " +
                       std::to_string(s) + " x=" + show(x) + " y=" + show(y) + ": want " +
                       show(want) + ", got " + show(got);
              });
          }
          for (int s = 0; s < 2; ++s) {
            const size_t index = (e * 2 + s) * stride + j;
            const std::int64_t want = odd ? truth(less, scalar) : signedAt(originalCmp, index, rb);
            const std::int64_t got = signedAt(cmp, index, rb);
            if (got != want)
              m.add([&] {
                return "item " + std::to_string(e) + "." + std::to_string(j) + " x < y, slot " +
                       std::to_string(s) + ": want " + std::to_string(want) + ", got " +
                       std::to_string(got);
              });
          }
        }
    }
}

} // namespace
} // namespace lanewise::test
