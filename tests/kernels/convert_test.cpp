// SPDX-License-Identifier: Apache-2.0
// Conversions (kernels in cl/convert.cl), against the OpenCL C 3.0 rules
// (6.4 "Conversions and Type Casting") computed here in C++:
//  - conversions to integer types round toward zero by default; _rte, _rtz,
//    _rtp and _rtn round as named; without _sat an out-of-range result (and
//    NaN) is undefined, so such inputs are not checked; with _sat it clamps
//    to the range of the type and NaN gives 0; integer to integer
//    conversions wrap (two's complement) unless _sat;
//  - conversions to floating-point types round to nearest even by default
//    (the device's default rounding mode); the rounding modifiers follow
//    IEEE 754, including overflow (to infinity or the largest finite value
//    depending on the mode) and denormals. Expected values are computed by
//    an exact software rounding, not by the host's conversions.
//  - as_<type> keeps the bits; implicit conversions and casts of scalars are
//    the default conversions; comparisons give int 1/0 on scalars and -1/0
//    on vectors, which then convert as integers.
#include "harness.h"
#include "mismatches.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <tuple>

namespace lanewise::test {
namespace {

using half = _Float16;

// ---- a fixture that builds each program once per process --------------------
class ConvertTest : public SharedContextTest {
protected:
  cl_kernel cachedKernel(const std::string &name, const std::string &variant) {
    return SharedContextTest::cachedKernel("convert", name, variant);
  }
  void setBuffers(cl_kernel k, const std::vector<cl_mem> &buffers) {
    for (cl_uint i = 0; i < buffers.size(); ++i)
      ASSERT_EQ(clSetKernelArg(k, i, sizeof(cl_mem), &buffers[i]), CL_SUCCESS) << "argument " << i;
  }

};

// ---- types ------------------------------------------------------------------------
template <typename T>
constexpr bool isFloat = std::is_floating_point_v<T> || std::is_same_v<T, half>;

template <typename T> struct Traits;
#define LANEWISE_TRAITS(T, N)                                                                      \
  template <> struct Traits<T> { static constexpr const char *name = N; };
LANEWISE_TRAITS(std::int8_t, "char")
LANEWISE_TRAITS(std::uint8_t, "uchar")
LANEWISE_TRAITS(std::int16_t, "short")
LANEWISE_TRAITS(std::uint16_t, "ushort")
LANEWISE_TRAITS(std::int32_t, "int")
LANEWISE_TRAITS(std::uint32_t, "uint")
LANEWISE_TRAITS(std::int64_t, "long")
LANEWISE_TRAITS(std::uint64_t, "ulong")
LANEWISE_TRAITS(half, "half")
LANEWISE_TRAITS(float, "float")
LANEWISE_TRAITS(double, "double")
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

// Calls f.template operator()<D>() for every destination type, in the
// order of the kernels' output arguments.
template <typename F> void forEachType(F &&f) {
  f.template operator()<std::int8_t>();
  f.template operator()<std::uint8_t>();
  f.template operator()<std::int16_t>();
  f.template operator()<std::uint16_t>();
  f.template operator()<std::int32_t>();
  f.template operator()<std::uint32_t>();
  f.template operator()<std::int64_t>();
  f.template operator()<std::uint64_t>();
  f.template operator()<half>();
  f.template operator()<float>();
  f.template operator()<double>();
}

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
// Any NaN matches any NaN; everything else bit for bit.
template <typename T> bool same(T got, T want) {
  if (isNan(want))
    return isNan(got);
  return bitsOf(got) == bitsOf(want);
}
template <typename T> std::string show(T v) {
  std::ostringstream s;
  s.precision(17);
  if constexpr (isFloat<T>)
    s << double(v) << " (0x" << std::hex << std::uint64_t(bitsOf(v)) << ")";
  else if constexpr (sizeof(T) == 1)
    s << int(v);
  else
    s << v;
  return s.str();
}

const std::vector<int> allWidths = {1, 2, 3, 4, 8, 16};
const char *const variants[] = {"", "-O0"};
std::string typeName(const char *base, int width) {
  return width == 1 ? base : base + std::to_string(width);
}
size_t strideOf(int width) { return width == 3 ? 4 : size_t(width); }

// ---- the rules ------------------------------------------------------------------
enum class Mode { Default, RTE, RTZ, RTP, RTN };

struct Format {
  int precision, minExponent, maxExponent; // significand bits, of the smallest normal, largest
};
template <typename D> constexpr Format formatOf() {
  if constexpr (std::is_same_v<D, half>)
    return {11, -14, 15};
  else if constexpr (std::is_same_v<D, float>)
    return {24, -126, 127};
  else
    return {53, -1022, 1023};
}

// (-1)^negative * m * 2^e rounded to the format in `mode` (IEEE 754: the
// exact value rounded to `precision` significant bits, denormals below
// 2^minExponent; overflow to infinity or to the largest finite value). The
// result is exactly representable in double.
double roundTo(bool negative, std::uint64_t m, int e, Format f, Mode mode) {
  const double sign = negative ? -1.0 : 1.0;
  if (m == 0)
    return sign * 0.0;
  const int top = e + 63 - std::countl_zero(m);                   // the exponent of the leading bit
  const int q = std::max(top, f.minExponent) - (f.precision - 1); // of the last bit kept
  std::uint64_t keep = m;
  int exponent = e;
  if (q > e) {
    const int shift = q - e;
    unsigned __int128 rest, halfway;
    if (shift >= 100) {
      keep = 0;
      rest = m;
      halfway = (unsigned __int128)1 << 99; // more than m
    } else {
      keep = std::uint64_t((unsigned __int128)m >> shift);
      rest = (unsigned __int128)m & ((((unsigned __int128)1) << shift) - 1);
      halfway = (unsigned __int128)1 << (shift - 1);
    }
    bool up = false;
    switch (mode) {
    case Mode::Default:
    case Mode::RTE:
      up = rest > halfway || (rest == halfway && (keep & 1));
      break;
    case Mode::RTZ:
      break;
    case Mode::RTP:
      up = !negative && rest != 0;
      break;
    case Mode::RTN:
      up = negative && rest != 0;
      break;
    }
    keep += up;
    exponent = q;
  }
  const double magnitude = std::ldexp(double(keep), exponent);
  if (magnitude >= std::ldexp(1.0, f.maxExponent + 1)) {
    const double largest = std::ldexp(2.0 - std::ldexp(1.0, 1 - f.precision), f.maxExponent);
    const bool toInfinity = mode == Mode::Default || mode == Mode::RTE ||
                            (mode == Mode::RTP && !negative) || (mode == Mode::RTN && negative);
    return sign * (toInfinity ? INFINITY : largest);
  }
  return sign * magnitude;
}

// Rounds a floating-point value to an integer (as a double) in `mode`.
double roundToInteger(double v, Mode mode) {
  const double down = std::floor(v);
  switch (mode) {
  case Mode::RTP:
    return std::ceil(v);
  case Mode::RTN:
    return down;
  case Mode::RTE: {
    const double fraction = v - down; // exact
    if (fraction > 0.5 || (fraction == 0.5 && std::fmod(down, 2.0) != 0.0))
      return down + 1.0;
    return down;
  }
  default:
    return std::trunc(v);
  }
}

// The result of convert_D[_sat][_mode](v); nullopt where it is undefined.
template <typename S, typename D> std::optional<D> convertExpected(S v, Mode mode, bool saturate) {
  if constexpr (isFloat<D>) {
    if constexpr (isFloat<S>) {
      const double x = double(v); // exact
      if (std::isnan(x))
        return D(NAN);
      if (std::isinf(x))
        return D(x);
      int exponent = 0;
      const double fraction = std::frexp(std::fabs(x), &exponent);
      const std::uint64_t m = std::uint64_t(std::ldexp(fraction, 53));
      return D(roundTo(std::signbit(x), m, exponent - 53, formatOf<D>(), mode));
    } else {
      const bool negative = std::is_signed_v<S> && v < 0;
      const std::uint64_t m = negative ? std::uint64_t(0) - std::uint64_t(v) : std::uint64_t(v);
      return D(roundTo(negative, m, 0, formatOf<D>(), mode));
    }
  } else {
    using L = std::numeric_limits<D>;
    if constexpr (isFloat<S>) {
      const double x = double(v);
      if (std::isnan(x))
        return saturate ? std::optional<D>(D(0)) : std::nullopt;
      const double r = roundToInteger(x, mode == Mode::Default ? Mode::RTZ : mode);
      const double low = double(L::min());            // exact
      const double high = std::ldexp(1.0, L::digits); // max + 1, exact
      if (r < low)
        return saturate ? std::optional<D>(L::min()) : std::nullopt;
      if (r >= high)
        return saturate ? std::optional<D>(L::max()) : std::nullopt;
      return D(r);
    } else {
      if (saturate) {
        const __int128 x = __int128(v);
        if (x < __int128(L::min()))
          return L::min();
        if (x > __int128(L::max()))
          return L::max();
      }
      return D(v); // modulo 2^N (C++20)
    }
  }
}

struct Modifier {
  const char *suffix;
  Mode mode;
  bool saturate;
};
const Modifier modifiers[] = {
    {"", Mode::Default, false},    {"_rte", Mode::RTE, false},    {"_rtz", Mode::RTZ, false},
    {"_rtp", Mode::RTP, false},    {"_rtn", Mode::RTN, false},    {"_sat", Mode::Default, true},
    {"_sat_rte", Mode::RTE, true}, {"_sat_rtz", Mode::RTZ, true}, {"_sat_rtp", Mode::RTP, true},
    {"_sat_rtn", Mode::RTN, true},
};
template <typename D> constexpr size_t modifierCount() { return isFloat<D> ? 5 : 10; }

// ---- inputs ---------------------------------------------------------------------
template <typename S> std::vector<S> edgeValues() {
  std::vector<S> out;
  if constexpr (isFloat<S>) {
    const double inf = INFINITY, nan = NAN;
    const double values[] = {
        0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.5, -3.5, 0.49999997f, 1.0000001f, -0.7, 0.3,
        127.5, 127.49, 128.0, -128.5, -129.0, -128.49, 255.5, 256.0, -0.99, 32767.5, 32768.0,
        -32768.5, -32769.0, 65535.5, 65536.0, 2147483520.0, 2147483647.5, 2147483648.0,
        -2147483648.0, -2147483648.5, -2147483904.0, 4294967040.0, 4294967295.5, 4294967296.0,
        9223371487098961920.0, 9223372036854775808.0, -9223372036854775808.0,
        -9223373136366403584.0, 18446742974197923840.0, 18446744073709551616.0, 1e30, -1e30, inf,
        -inf, nan, -nan,
        // Ties and near-ties for double -> float and float/double -> half.
        1.0 + 0x1p-24, 1.0 + 0x3p-24, 1.0 + 0x1p-24 + 0x1p-40, -1.0 - 0x1p-24, 1.0 + 0x1p-11,
        1.0 + 0x3p-11, 1.0 + 0x1p-11 + 0x1p-30, -1.0 - 0x3p-11, 2049.0, 2051.0, 65504.0, 65519.99,
        65520.0, -65520.0, 0x1.fffffep127, 0x1.fffffep127 + 0x1p103, 0x1.ffffffp127,
        -0x1.ffffffp127, 1e300, -1e300,
        // Denormals of each type and ties between them.
        0x1p-149, -0x1p-149, 0x1p-150, 0x3p-150, 0x1p-150 + 0x1p-170, 0x1p-126, 0x1.fffffcp-127,
        0x1p-24, 0x1p-25, 0x3p-25, -0x3p-25, 0x1p-14, 0x1.ff8p-15, 0x1p-1074, 0x1p-1022, -0x1p-1074,
        6e-8, 3e-8, 1e-300};
    for (double d : values)
      out.push_back(S(d)); // values S cannot hold become what S makes of them
  } else {
    const std::int64_t values[] = {
        0, 1, -1, 2, -2, 3, 127, 128, -128, -129, 255, 256, 32767, 32768, -32768, -32769, 65535,
        65536, 2147483647, 2147483648, -2147483647 - 1, -2147483649, 4294967295, 4294967296,
        INT64_MAX, INT64_MIN, INT64_MIN + 1, INT64_MAX - 1,
        // Values that round when converted to half, float or double.
        2049, 2050, 2051, 2053, -2049, -2051, 4097, 4098, 4099, 4100, 65504, 65519, 65520, -65520,
        -65519, 16777217, 16777218, 16777219, -16777217, -16777219, 33554435, (1ll << 53) + 1,
        (1ll << 53) + 3, -(1ll << 53) - 1, (1ll << 62) + (1ll << 38), (1ll << 62) + (3ll << 38),
        (1ll << 62) + (1ll << 38) + 1, -(1ll << 62) - (1ll << 38), INT64_MAX - 1023,
        INT64_MAX - 1024, 0x7fffffbfffffffffll, 0x7ffffc0000000000ll};
    for (std::int64_t v : values)
      out.push_back(S(v)); // modulo 2^N
    out.push_back(std::numeric_limits<S>::min());
    out.push_back(std::numeric_limits<S>::max());
    out.push_back(S(std::numeric_limits<S>::min() + 1));
    out.push_back(S(std::numeric_limits<S>::max() - 1));
  }
  return out;
}

template <typename S> std::vector<S> inputs(size_t count, std::uint64_t seed) {
  std::vector<S> out = edgeValues<S>();
  std::mt19937_64 random(seed);
  while (out.size() < count) {
    const std::uint64_t bits = random();
    if constexpr (isFloat<S>) {
      switch (bits % 4) {
      case 0: { // any bit pattern
        S v;
        const std::uint64_t b = bits >> 2;
        std::memcpy(&v, &b, sizeof v);
        out.push_back(v);
        break;
      }
      case 1: // halfway between integers
        out.push_back(S(double(std::int64_t(bits >> 2) % 2000) + 0.5));
        break;
      default: { // fractions of every size
        const double m = double(bits >> 11) * 0x1p-53;
        const int e = int((bits >> 2) % 80) - 20;
        out.push_back(S(((bits >> 8) & 1 ? -1.0 : 1.0) * std::ldexp(1.0 + m, e)));
        break;
      }
      }
    } else {
      const int shift = int((bits >> 2) % 64);
      out.push_back(S(bits & 1 ? std::int64_t(bits) >> shift : std::int64_t(bits)));
    }
  }
  out.resize(count);
  return out;
}

// ---- convert_D[_sat][_mode] -----------------------------------------------------
template <typename T> class ConvertFrom : public ConvertTest {};
TYPED_TEST_SUITE(ConvertFrom, AllTypes, TypeNames);

TYPED_TEST(ConvertFrom, ToEveryTypeWithEveryModifier) {
  using S = Value<TypeParam>;
  const std::vector<S> values = inputs<S>(480, 0xc0de);
  for (const char *variant : variants)
    for (int width : allWidths) {
      const std::string name = "from_" + typeName(Traits<S>::name, width);
      const size_t stride = strideOf(width), items = values.size() / width;
      std::vector<S> in(items * stride);
      for (size_t e = 0; e < items; ++e)
        for (int j = 0; j < width; ++j)
          in[e * stride + j] = values[e * width + j];
      std::vector<cl_mem> buffers = {this->buffer(in)};
      forEachType([&]<typename D>() {
        buffers.push_back(this->template buffer<D>(items * modifierCount<D>() * stride));
      });
      cl_kernel k = this->cachedKernel(name, variant);
      ASSERT_NE(k, nullptr) << name << variant;
      this->setBuffers(k, buffers);
      this->run(k, {items});
      size_t output = 1;
      forEachType([&]<typename D>() {
        constexpr size_t M = modifierCount<D>();
        const std::vector<D> out = this->template read<D>(buffers[output++], items * M * stride);
        for (size_t mod = 0; mod < M; ++mod) {
          const Modifier &modifier = modifiers[mod];
          const std::string call = "convert_" + typeName(Traits<D>::name, width) + modifier.suffix;
          Mismatches m{name + variant + ": " + call};
          for (size_t e = 0; e < items; ++e)
            for (int j = 0; j < width; ++j) {
              const S v = in[e * stride + j];
              const std::optional<D> want =
                  convertExpected<S, D>(v, modifier.mode, modifier.saturate);
              const D got = out[(e * M + mod) * stride + j];
              if (want && !same(got, *want))
                m.add([&] {
                  return call + "((" + Traits<S>::name + ")" + show(v) + "): want " + show(*want) +
                         ", got " + show(got);
                });
            }
        }
      });
    }
}

// ---- implicit conversions and casts ------------------------------------------------
template <typename T> class ConvertImplicit : public ConvertTest {};
TYPED_TEST_SUITE(ConvertImplicit, AllTypes, TypeNames);

TYPED_TEST(ConvertImplicit, AssignmentsAndCastsAreDefaultConversions) {
  using S = Value<TypeParam>;
  const std::vector<S> in = inputs<S>(400, 0x1a1);
  const size_t items = in.size();
  for (const char *variant : variants) {
    const std::string name = std::string("implicit_") + Traits<S>::name;
    std::vector<cl_mem> buffers = {this->buffer(in)};
    forEachType([&]<typename D>() { buffers.push_back(this->template buffer<D>(items * 2)); });
    cl_kernel k = this->cachedKernel(name, variant);
    ASSERT_NE(k, nullptr) << name << variant;
    this->setBuffers(k, buffers);
    this->run(k, {items});
    size_t output = 1;
    forEachType([&]<typename D>() {
      const std::vector<D> out = this->template read<D>(buffers[output++], items * 2);
      for (int form = 0; form < 2; ++form) {
        Mismatches m{name + variant + (form ? ": (" : ": implicit ") + Traits<D>::name +
                     (form ? ")x" : "")};
        for (size_t e = 0; e < items; ++e) {
          const std::optional<D> want = convertExpected<S, D>(in[e], Mode::Default, false);
          const D got = out[2 * e + form];
          if (want && !same(got, *want))
            m.add([&] { return show(in[e]) + ": want " + show(*want) + ", got " + show(got); });
        }
      }
    });
  }
}

// ---- as_type --------------------------------------------------------------------
struct Reinterpretation {
  const char *kernel;
  size_t sourceBytes, resultBytes; // sizeof the types (3 components take 4)
  size_t keptBytes;                // the bytes of the result's components
};

using ConvertAs = ConvertTest;

TEST_F(ConvertAs, ReinterpretationsKeepTheBits) {
  const Reinterpretation cases[] = {
      {"as_char4_int", 4, 4, 4},
      {"as_uchar4_uint", 4, 4, 4},
      {"as_int_char4", 4, 4, 4},
      {"as_int_float", 4, 4, 4},
      {"as_uint_float", 4, 4, 4},
      {"as_float_int", 4, 4, 4},
      {"as_float_uint", 4, 4, 4},
      {"as_uint2_ulong", 8, 8, 8},
      {"as_ulong_uint2", 8, 8, 8},
      {"as_long_double", 8, 8, 8},
      {"as_double_long", 8, 8, 8},
      {"as_double_ulong", 8, 8, 8},
      {"as_short_half", 2, 2, 2},
      {"as_half_ushort", 2, 2, 2},
      {"as_half_short", 2, 2, 2},
      {"as_char2_half", 2, 2, 2},
      {"as_half2_int", 4, 4, 4},
      {"as_int_half2", 4, 4, 4},
      {"as_half2_float", 4, 4, 4},
      {"as_float2_double", 8, 8, 8},
      {"as_double_float2", 8, 8, 8},
      {"as_uchar8_double", 8, 8, 8},
      {"as_double_uchar8", 8, 8, 8},
      {"as_int4_float4", 16, 16, 16},
      {"as_float4_int4", 16, 16, 16},
      {"as_char16_float4", 16, 16, 16},
      {"as_double2_int4", 16, 16, 16},
      {"as_ushort8_double2", 16, 16, 16},
      {"as_half8_float4", 16, 16, 16},
      {"as_uchar16_ulong2", 16, 16, 16},
      {"as_long4_float8", 32, 32, 32},
      {"as_int16_double8", 64, 64, 64},
      {"as_half16_double4", 32, 32, 32},
      {"as_float3_int3", 16, 16, 12},
      {"as_uint3_float3", 16, 16, 12},
      {"as_short3_half3", 8, 8, 6},
      // A 4-component operand as a 3-component result keeps its bits (6.4.4.2).
      {"as_float3_int4", 16, 16, 12},
      {"as_char3_uchar4", 4, 4, 3},
  };
  const size_t items = 96;
  std::mt19937_64 random(0xa5);
  for (const Reinterpretation &c : cases) {
    // Random bytes, with NaNs of every size (signalling ones too) among them.
    std::vector<std::uint8_t> in(items * c.sourceBytes);
    for (auto &byte : in)
      byte = std::uint8_t(random());
    for (size_t i = 0; i + 8 <= in.size(); i += 24) {
      const std::uint64_t nans[] = {0x7ff0000000000001ull, 0xfff8000000000123ull,
                                    0x7f800001ffc00001ull, 0x7c01fe017d007e00ull};
      std::memcpy(&in[i], &nans[(i / 24) % 4], 8);
    }
    for (const char *variant : variants) {
      cl_mem I = buffer(in), O = buffer<std::uint8_t>(items * c.resultBytes);
      cl_kernel k = cachedKernel(c.kernel, variant);
      ASSERT_NE(k, nullptr) << c.kernel << variant;
      setArgs(k, I, O);
      run(k, {items});
      const std::vector<std::uint8_t> out = read<std::uint8_t>(O, items * c.resultBytes);
      Mismatches m{std::string(c.kernel) + variant};
      for (size_t e = 0; e < items; ++e)
        if (std::memcmp(&out[e * c.resultBytes], &in[e * c.sourceBytes], c.keptBytes) != 0)
          m.add([&] {
            std::ostringstream s;
            s << "item " << e << ": bytes";
            for (size_t b = 0; b < c.keptBytes; ++b)
              s << " " << std::hex << int(in[e * c.sourceBytes + b]) << "->"
                << int(out[e * c.resultBytes + b]);
            return s.str();
          });
    }
  }
}

// ---- comparison results as numbers ----------------------------------------------
using ConvertBools = ConvertTest;

TEST_F(ConvertBools, ComparisonResultsConvertAsIntegers) {
  const std::vector<float> edges = {0.0f,     -0.0f,     1.0f, -1.0f, 2.5f,
                                    INFINITY, -INFINITY, NAN,  -NAN,  0x1p-149f};
  const size_t n = edges.size() * edges.size(); // every pair, in scalars and in vectors
  std::vector<float> a(n), b(n), a4(4 * n), b4(4 * n);
  std::vector<double> a2(2 * n), b2(2 * n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = edges[i / edges.size()];
    b[i] = edges[i % edges.size()];
  }
  for (size_t i = 0; i < 4 * n; ++i) {
    a4[i] = a[(i * 7) % n];
    b4[i] = b[(i * 7) % n];
  }
  for (size_t i = 0; i < 2 * n; ++i) {
    a2[i] = a[(i * 3) % n];
    b2[i] = b[(i * 3) % n];
  }
  for (const char *variant : variants) {
    cl_mem A = buffer(a), B = buffer(b), A4 = buffer(a4), B4 = buffer(b4), A2 = buffer(a2),
           B2 = buffer(b2);
    cl_mem oi = buffer<std::int32_t>(2 * n), of = buffer<float>(n), ol = buffer<std::int64_t>(n),
           od = buffer<double>(n), oi4 = buffer<std::int32_t>(4 * n), of4 = buffer<float>(4 * n),
           ou4 = buffer<std::uint8_t>(4 * n), os4 = buffer<std::uint8_t>(4 * n),
           oh4 = buffer<std::int16_t>(4 * n), oc2 = buffer<std::int8_t>(2 * n),
           of2 = buffer<float>(2 * n);
    cl_kernel k = cachedKernel("bools", variant);
    ASSERT_NE(k, nullptr) << variant;
    setArgs(k, A, B, A4, B4, A2, B2, oi, of, ol, od, oi4, of4, ou4, os4, oh4, oc2, of2);
    run(k, {n});
    const auto I = read<std::int32_t>(oi, 2 * n);
    const auto F = read<float>(of, n);
    const auto L = read<std::int64_t>(ol, n);
    const auto D = read<double>(od, n);
    const auto I4 = read<std::int32_t>(oi4, 4 * n);
    const auto F4 = read<float>(of4, 4 * n);
    const auto U4 = read<std::uint8_t>(ou4, 4 * n);
    const auto S4 = read<std::uint8_t>(os4, 4 * n);
    const auto H4 = read<std::int16_t>(oh4, 4 * n);
    const auto C2 = read<std::int8_t>(oc2, 2 * n);
    const auto F2 = read<float>(of2, 2 * n);
    Mismatches m{std::string("bools") + variant};
    auto check = [&](const char *what, size_t i, double want, double got) {
      if (want != got)
        m.add([&] {
          std::ostringstream s;
          s << what << " [" << i << "]: want " << want << ", got " << got;
          return s.str();
        });
    };
    for (size_t i = 0; i < n; ++i) {
      const float x = a[i], y = b[i];
      const bool nan = std::isnan(x) || std::isnan(y);
      check("(int)(x < y)", i, x < y, I[2 * i]);
      check("(x < y) + (x == y) + isless(x, y) + !x", i, (x < y) + (x == y) + (x < y) + (x == 0.0f),
            I[2 * i + 1]);
      check("(float)(x < y)", i, x < y ? 1.0 : 0.0, F[i]);
      check("(long)(x != y)", i, x != y, L[i]);
      check("(double)(x >= y) - isunordered(x, y)", i, double(x >= y) - double(nan), D[i]);
    }
    for (size_t i = 0; i < 4 * n; ++i) {
      const float x = a4[i], y = b4[i];
      check("(x4 < y4) + (x4 == y4)", i, -double(x < y) - double(x == y), I4[i]);
      check("convert_float4(x4 < y4)", i, x < y ? -1.0 : 0.0, F4[i]);
      check("convert_uchar4(x4 <= y4)", i, x <= y ? 255 : 0, U4[i]);
      check("convert_uchar4_sat(x4 <= y4)", i, 0, S4[i]);
      check("convert_short4(isnan(x4)) - convert_short4(signbit(x4))", i,
            (std::isnan(x) ? -1 : 0) - (std::signbit(x) ? -1 : 0), H4[i]);
    }
    for (size_t i = 0; i < 2 * n; ++i) {
      const double x = a2[i], y = b2[i];
      check("convert_char2(x2 > y2)", i, x > y ? -1 : 0, C2[i]);
      check("convert_float2(isnotequal(x2, y2))", i, x != y ? -1.0 : 0.0, F2[i]);
    }
  }
}

} // namespace
} // namespace lanewise::test
