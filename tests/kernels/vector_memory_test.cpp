// SPDX-License-Identifier: Apache-2.0
// Vector data loads and stores (OpenCL C 3.0, 6.15.7; kernels in
// cl/vector_memory.cl).
//
// VectorMemory: vloadn(offset, p) reads the n elements at p + offset n, and
// vstoren(data, offset, p) writes them (n = 3 included: vload3 reads three
// elements at p + 3 offset); p need only be aligned to the element (p + 1 is
// tested). Every element type, n in {2, 3, 4, 8, 16}, the global, constant
// (loads), local, private and generic address spaces. Loads and stores copy
// bit patterns, so results are compared bit for bit (NaN payloads included),
// and stores must not touch any other element.
//
// HalfMemory: vload_half(n) and vloada_halfn convert halves to float exactly
// (vloada_half3 reads with a stride of four halves); vstore_half(n) and
// vstorea_halfn round a float or double to half in the current rounding mode
// (round to nearest even) or the mode of their _rte/_rtz/_rtp/_rtn suffix,
// directly from the source type (a double is not first rounded to float).
// Half denormals are produced and read, never flushed; overflow gives
// infinity or the largest half as the rounding direction says. The
// references are written here from the IEEE 754 binary16 definition; any NaN
// matches any NaN.
#include "half_reference.h"
#include "harness.h"
#include "mismatches.h"

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <random>
#include <sstream>
#include <string>

namespace lanewise::test {
namespace {

// ---- a fixture that builds each program once per process --------------------
class VectorMemoryFixture : public SharedContextTest {
protected:
  cl_kernel vmKernel(const std::string &name, const std::string &variant) {
    return cachedKernel("vector_memory", name, variant);
  }
  // Whether the kernels were compiled with __opencl_c_generic_address_space
  // (otherwise the generic cases are left out of the kernels and checked to
  // have written nothing).
  bool hasGeneric() {
    static int generic = -1; // per process, like the programs
    if (generic < 0) {
      cl_kernel k = vmKernel("vector_memory_features", "");
      if (!k)
        return false;
      cl_mem out = buffer<int>(1);
      setArgs(k, out);
      run(k, {1});
      generic = read<int>(out, 1)[0];
      if (!generic)
        std::printf("note: __opencl_c_generic_address_space is not defined; generic "
                    "address space cases skipped\n");
    }
    return generic == 1;
  }
};

template <typename S> std::string hex(S v) {
  std::ostringstream s;
  s << "0x" << std::hex << std::uint64_t(v);
  return s.str();
}

// ---- vloadn / vstoren ---------------------------------------------------------
struct ElementType {
  const char *name;
  int size;
  bool isFloat;
};
const ElementType elementTypes[] = {
    {"char", 1, false}, {"uchar", 1, false}, {"short", 2, false}, {"ushort", 2, false},
    {"int", 4, false},  {"uint", 4, false},  {"long", 8, false},  {"ulong", 8, false},
    {"half", 2, true},  {"float", 4, true},  {"double", 8, true},
};
struct Param {
  ElementType type;
  const char *variant;
};
std::vector<Param> params() {
  std::vector<Param> out;
  for (const ElementType &t : elementTypes)
    for (const char *v : {"", "-O0"})
      out.push_back({t, v});
  return out;
}
std::string paramName(const ::testing::TestParamInfo<Param> &info) {
  return std::string(info.param.type.name) + (*info.param.variant ? "_O0" : "_O2");
}

const int lengths[] = {2, 3, 4, 8, 16};
constexpr size_t items = 64;

// Per work-item parameters, as the kernels read them.
struct ItemParams {
  std::uint32_t goff, shift, off, pstart;
};
std::vector<ItemParams> itemParams(std::mt19937_64 &random) {
  std::vector<ItemParams> out(items);
  for (size_t i = 0; i < items; ++i)
    out[i] = {std::uint32_t(random() % 51), std::uint32_t(i / 4 % 4), std::uint32_t(i % 4),
              std::uint32_t(random() % 901)};
  return out;
}

// Random elements; for floating-point types every fourth a NaN with a payload.
template <typename S>
std::vector<S> randomElements(size_t count, std::mt19937_64 &random, bool isFloat) {
  std::vector<S> out(count);
  for (size_t k = 0; k < count; ++k) {
    out[k] = S(random());
    if (isFloat && k % 4 == 1) {
      const std::uint64_t nan = sizeof(S) == 2   ? 0x7c01
                                : sizeof(S) == 4 ? 0x7f800001u
                                                 : 0x7ff0000000000001ull;
      out[k] = S(nan | (random() & (nan - 1) & ~std::uint64_t(0xf)));
    }
  }
  return out;
}

class VectorMemoryAll : public VectorMemoryFixture, public ::testing::WithParamInterface<Param> {
protected:
  template <typename S> void loads();
  template <typename S> void stores();
  template <typename F> void dispatch(F f) {
    switch (GetParam().type.size) {
    case 1:
      f(std::uint8_t());
      break;
    case 2:
      f(std::uint16_t());
      break;
    case 4:
      f(std::uint32_t());
      break;
    default:
      f(std::uint64_t());
      break;
    }
  }
};

// vload_T: result (slot s, n index k) at out + 480 i + 16 (5 s + k).
template <typename S> void VectorMemoryAll::loads() {
  const Param p = GetParam();
  const bool generic = hasGeneric();
  std::mt19937_64 random(0x10ad + p.type.size * 5 + p.type.isFloat);
  const std::vector<S> src = randomElements<S>(1024, random, p.type.isFloat);
  const std::vector<ItemParams> ip = itemParams(random);
  const std::string name = std::string("vload_") + p.type.name;
  const char *slots[] = {"global",  "global, uniform offset and pointer", "constant", "local",
                         "private", "generic (odd: local, even: global)"};
  // Two launches with different uniform offsets and pointers.
  const std::uint32_t uniform[2][2] = {{13, 3}, {0, 1}};
  for (const auto &u : uniform) {
    const std::uint32_t uoff = u[0], ushift = u[1];
    const std::vector<S> before = randomElements<S>(480 * items, random, p.type.isFloat);
    cl_kernel k = vmKernel(name, p.variant);
    ASSERT_NE(k, nullptr);
    cl_mem Src = buffer(src), CSrc = buffer(src), P = buffer(ip), O = buffer(before);
    setArgs(k, Src, CSrc, P, O, uoff, ushift);
    run(k, {items}, {16});
    const std::vector<S> out = read<S>(O, 480 * items);
    for (int s = 0; s < 6; ++s)
      for (int kn = 0; kn < 5; ++kn) {
        const int n = lengths[kn];
        Mismatches bad{name + p.variant + " vload" + std::to_string(n) + " " + slots[s] +
                       " (uoff " + std::to_string(uoff) + ", ushift " + std::to_string(ushift) +
                       ")"};
        for (size_t i = 0; i < items; ++i) {
          const ItemParams &q = ip[i];
          size_t first = 0; // the index in src of component 0
          bool reversed = false;
          switch (s) {
          case 0:
          case 2:
            first = q.shift + size_t(q.goff) * n;
            break;
          case 1:
            first = ushift + size_t(uoff) * n;
            break;
          case 3:
            first = 1023 - (q.shift + size_t(q.off) * n), reversed = true;
            break;
          case 4:
            first = q.pstart + q.shift + size_t(q.off) * n;
            break;
          default:
            if (i & 1)
              first = 1023 - (q.shift + size_t(q.off) * n), reversed = true;
            else
              first = q.pstart + q.shift + size_t(q.off) * n;
            break;
          }
          const bool written = s != 5 || generic;
          for (int j = 0; j < 16; ++j) {
            const size_t at = 480 * i + 16 * (5 * s + kn) + j;
            const S want = written && j < n ? src[reversed ? first - j : first + j] : before[at];
            if (out[at] != want)
              bad.add([&] {
                std::ostringstream o;
                o << "work-item " << i << " (goff " << q.goff << ", shift " << q.shift << ", off "
                  << q.off << ", pstart " << q.pstart << ") component " << j
                  << (j >= n ? " (past the result)" : "") << ": got " << hex(out[at]) << ", want "
                  << hex(want);
                return o.str();
              });
          }
        }
      }
  }
}

// vstore_T: region (s, k) of 72 elements at out + 1800 i + 72 (5 s + k).
template <typename S> void VectorMemoryAll::stores() {
  const Param p = GetParam();
  const bool generic = hasGeneric();
  std::mt19937_64 random(0x5707e + p.type.size * 5 + p.type.isFloat);
  const std::vector<S> data = randomElements<S>(16 * items, random, p.type.isFloat);
  const std::vector<S> fill = randomElements<S>(1800 * items, random, p.type.isFloat);
  const std::vector<ItemParams> ip = itemParams(random);
  const std::string name = std::string("vstore_") + p.type.name;
  const char *slots[] = {"global", "global, uniform offset", "local", "private",
                         "generic (odd: local, even: global)"};
  for (const std::uint32_t uoff : {2u, 0u}) {
    cl_kernel k = vmKernel(name, p.variant);
    ASSERT_NE(k, nullptr);
    cl_mem D = buffer(data), F = buffer(fill), P = buffer(ip), O = buffer(fill);
    setArgs(k, D, F, P, O, uoff);
    run(k, {items}, {16});
    const std::vector<S> out = read<S>(O, 1800 * items);
    for (int s = 0; s < 5; ++s)
      for (int kn = 0; kn < 5; ++kn) {
        const int n = lengths[kn];
        Mismatches bad{name + p.variant + " vstore" + std::to_string(n) + " " + slots[s] +
                       " (uoff " + std::to_string(uoff) + ")"};
        for (size_t i = 0; i < items; ++i) {
          const ItemParams &q = ip[i];
          const size_t region = 1800 * i + 72 * (5 * s + kn);
          const size_t first = q.shift + size_t(s == 1 ? uoff : q.off) * n;
          const bool written = s != 4 || generic;
          for (size_t e = 0; e < 72; ++e) {
            const bool stored = written && e >= first && e < first + n;
            const S want = stored ? data[16 * i + (e - first)] : fill[region + e];
            if (out[region + e] != want)
              bad.add([&] {
                std::ostringstream o;
                o << "work-item " << i << " (shift " << q.shift << ", off " << q.off << ") element "
                  << e << " of the region" << (stored ? "" : " (not to be written)") << ": got "
                  << hex(out[region + e]) << ", want " << hex(want);
                return o.str();
              });
          }
        }
      }
  }
}

TEST_P(VectorMemoryAll, VloadnEveryAddressSpace) {
  dispatch([&](auto s) { loads<decltype(s)>(); });
}
TEST_P(VectorMemoryAll, VstorenEveryAddressSpace) {
  dispatch([&](auto s) { stores<decltype(s)>(); });
}

INSTANTIATE_TEST_SUITE_P(VectorMemory, VectorMemoryAll, ::testing::ValuesIn(params()), paramName);

// ---- half references ------------------------------------------------------------
std::uint32_t bitsOf32(float v) {
  std::uint32_t u;
  std::memcpy(&u, &v, 4);
  return u;
}

const char *const modeNames[] = {"default", "_rte", "_rtz", "_rtp", "_rtn"};
Rounding roundingOf(int mode) { return mode <= 1 ? RTE : Rounding(mode - 1); }

// The test values for half stores: zeros, ties between two halves (normal
// and denormal) and their neighbours, half denormals, overflow, infinities,
// NaNs, then random values (half values, ties, values in and past the range).
std::vector<double> storeValues(bool isDouble, bool floatDenormals, size_t count) {
  const double tie1 = 1 + 0x1p-11, tie2 = 1 + 3 * 0x1p-11;
  std::vector<double> v = {0.0,
                           -0.0,
                           1.0,
                           -1.0,
                           0.5,
                           0.1,
                           -0.1,
                           1.0 / 3,
                           -2.0 / 3,
                           tie1,
                           -tie1,
                           tie2,
                           -tie2,
                           2049.0, // tie: 2048 or 2050
                           2051.0,
                           -2051.0,
                           4097.0,
                           4098.0,
                           65504.0, // the largest half
                           -65504.0,
                           65519.0,
                           65520.0, // tie between 65504 and 65536 (infinity)
                           -65520.0,
                           65536.0,
                           -65536.0,
                           1e6,
                           -1e6,
                           double(FLT_MAX),
                           -double(FLT_MAX),
                           INFINITY,
                           -INFINITY,
                           NAN,
                           -NAN,
                           0x1p-14, // the smallest normal half
                           -0x1p-14,
                           0x1p-14 - 0x1p-25, // tie: largest denormal or smallest normal
                           0x1p-14 - 0x1p-24, // the largest denormal
                           0x1p-24,           // the smallest denormal
                           -0x1p-24,
                           0x1p-25, // tie between 0 and the smallest denormal
                           -0x1p-25,
                           3 * 0x1p-25, // tie: 1 or 2 times 2^-24
                           5 * 0x1p-25, // tie: 2 or 3 times 2^-24
                           -5 * 0x1p-25,
                           0x1p-26,
                           -0x1p-26,
                           1e-10,
                           -1e-10,
                           0x1p-126, // the smallest normal float
                           -0x1p-126,
                           0x1.8p-20,
                           100 * 0x1p-24 + 0x1p-25}; // a tie among denormals
  // Neighbours of ties, one float ulp away (exact in float).
  for (double t : {tie1, tie2, 65520.0, 0x1p-25, 3 * 0x1p-25, 0x1p-14 - 0x1p-25}) {
    v.push_back(std::nextafter(float(t), 0.0f));
    v.push_back(std::nextafter(float(t), INFINITY));
    v.push_back(-double(std::nextafter(float(t), INFINITY)));
  }
  if (floatDenormals || isDouble) {
    v.push_back(double(FLT_TRUE_MIN));
    v.push_back(-double(FLT_TRUE_MIN));
    v.push_back(0x1p-127);
  }
  if (isDouble) {
    // Double rounding traps: rounded to float first, these become ties.
    v.insert(v.end(), {tie1 + 0x1p-40, tie1 - 0x1p-40, -(tie1 + 0x1p-40), tie2 - 0x1p-45,
                       65520.0 - 0x1p-30, 65520.0 + 0x1p-30, -(65520.0 - 0x1p-30),
                       0x1p-25 + 0x1p-70, 0x1p-25 - 0x1p-70, 3 * 0x1p-25 - 0x1p-60, DBL_MAX,
                       -DBL_MAX, DBL_TRUE_MIN, -DBL_TRUE_MIN, DBL_MIN, 1e300, -1e-300});
  }
  std::mt19937_64 random(isDouble ? 0xd0b1e : 0xf10a7);
  while (v.size() < count) {
    const std::uint64_t bits = random();
    const double sign = bits & 1 ? -1.0 : 1.0;
    double x;
    switch ((bits >> 1) % 4) {
    case 0: { // a half value, or the tie above it
      std::uint16_t h = std::uint16_t(bits >> 8) & 0x7bff;
      x = halfToFloat(h);
      if (bits & 2)
        x += std::ldexp(1.0, std::max(std::ilogb(x == 0 ? 0x1p-14 : x), -14) - 11);
      break;
    }
    case 1: // moderate exponents, random fraction
      x = std::ldexp(1.0 + double(bits >> 12) * 0x1p-52, int((bits >> 3) % 48) - 30);
      break;
    default: // any bit pattern of the source type
      if (isDouble)
        std::memcpy(&x, &bits, 8);
      else {
        const std::uint32_t b32 = std::uint32_t(bits >> 16);
        float f;
        std::memcpy(&f, &b32, 4);
        x = f;
      }
      if (!floatDenormals && !isDouble && std::fpclassify(float(x)) == FP_SUBNORMAL)
        x = 0.25;
      break;
    }
    v.push_back(isDouble ? sign * x : double(float(sign * x)));
  }
  v.resize(count);
  return v;
}

using HalfMemory = VectorMemoryFixture;

// The references, checked against the compiler's _Float16 conversions
// (round to nearest even), so that the Lanewise checks rest on them.
TEST_F(HalfMemory, ReferenceConvertersAgreeWithFloat16) {
  for (std::uint32_t h = 0; h < 65536; ++h) {
    _Float16 v;
    const std::uint16_t b = std::uint16_t(h);
    std::memcpy(&v, &b, 2);
    const float want = float(v), got = halfToFloat(b);
    if (std::isnan(want))
      ASSERT_TRUE(std::isnan(got)) << hex(b);
    else
      ASSERT_EQ(std::memcmp(&want, &got, 4), 0) << hex(b);
  }
  for (bool isDouble : {false, true})
    for (double x : storeValues(isDouble, true, 4096)) {
      const _Float16 v = isDouble ? _Float16(x) : _Float16(float(x));
      std::uint16_t want;
      std::memcpy(&want, &v, 2);
      const std::uint16_t got = toHalf(x, RTE);
      if (halfIsNan(want))
        ASSERT_TRUE(halfIsNan(got)) << x;
      else
        ASSERT_EQ(got, want) << std::hexfloat << x;
    }
  // Directed roundings, by hand.
  EXPECT_EQ(toHalf(65520.0, RTZ), 0x7bff);
  EXPECT_EQ(toHalf(1e6, RTN), 0x7bff);
  EXPECT_EQ(toHalf(1e6, RTP), 0x7c00);
  EXPECT_EQ(toHalf(-1e6, RTP), 0xfbff);
  EXPECT_EQ(toHalf(-1e6, RTN), 0xfc00);
  EXPECT_EQ(toHalf(1e-10, RTP), 0x0001);
  EXPECT_EQ(toHalf(1e-10, RTZ), 0x0000);
  EXPECT_EQ(toHalf(-1e-10, RTN), 0x8001);
  EXPECT_EQ(toHalf(1 + 0x1p-11, RTP), 0x3c01);
  EXPECT_EQ(toHalf(-(1 + 0x1p-11), RTN), 0xbc01);
  EXPECT_EQ(toHalf(-(1 + 0x1p-11), RTZ), 0xbc00);
}

// vload_half(i, in) over all 65536 half bit patterns.
TEST_F(HalfMemory, VloadHalfAllPatternsExact) {
  std::vector<std::uint16_t> in(65536);
  for (std::uint32_t h = 0; h < 65536; ++h)
    in[h] = std::uint16_t(h);
  for (const char *variant : {"", "-O0"}) {
    cl_kernel k = vmKernel("load_half_all", variant);
    ASSERT_NE(k, nullptr);
    cl_mem I = buffer(in), O = buffer<std::uint32_t>(65536);
    setArgs(k, I, O);
    run(k, {65536});
    const std::vector<float> out = read<float>(O, 65536);
    Mismatches bad{std::string("vload_half") + variant};
    for (std::uint32_t h = 0; h < 65536; ++h) {
      const float want = halfToFloat(std::uint16_t(h));
      const bool ok = std::isnan(want) ? std::isnan(out[h]) : bitsOf32(out[h]) == bitsOf32(want);
      if (!ok)
        bad.add([&] {
          std::ostringstream s;
          s << "half " << hex(h) << ": got " << out[h] << " (" << hex(bitsOf32(out[h]))
            << "), want " << want << " (" << hex(bitsOf32(want)) << ")";
          return s.str();
        });
    }
  }
}

// load_halfn: region k (n index) at out + R k + o n holds vload_halfn(o, in +
// shift); region 5 + k at out + R (5 + k) + o a holds vloada_halfn(o, in), a
// = n or 4 for n = 3; work-item i reads offsets q i .. q i + q - 1.
// vstore_half in every rounding mode over floats from every binade (a bit
// pattern every 65,521, so that every exponent and many fractions occur),
// the halves' rounding boundaries (each half's midpoint to the next and
// its neighbours), and random doubles: what the OpenCL-CTS's full mode
// checks over all 2^32 floats, sampled.
TEST_F(HalfMemory, VstoreHalfSampledOverTheWholeRangeInEveryMode) {
  std::vector<float> floats;
  for (std::uint64_t b = 0; b < (std::uint64_t(1) << 32); b += 65521)
    floats.push_back(std::bit_cast<float>(std::uint32_t(b)));
  for (std::uint32_t h = 0; h < 0x7c00; ++h) {
    const double mid = (double(halfToFloat(std::uint16_t(h))) +
                        double(halfToFloat(std::uint16_t(h + 1)))) / 2;
    for (const float x : {float(mid), std::nextafter(float(mid), 0.0f),
                          std::nextafter(float(mid), 1e30f)}) {
      floats.push_back(x);
      floats.push_back(-x);
    }
  }
  std::mt19937_64 random(0x5eed);
  std::vector<double> doubles;
  for (int k = 0; k < 200000; ++k) {
    // Exponents around the half range, and any.
    const std::uint64_t bits = random();
    const std::uint64_t exponent = k % 2 ? 1023 - 30 + bits % 50 : (bits >> 52) & 0x7ff;
    doubles.push_back(std::bit_cast<double>((bits & 0x800fffffffffffffull) | exponent << 52));
  }
  for (const float x : floats)
    doubles.push_back(double(x));
  auto check = [&](const char *kernel, cl_mem in, const std::vector<double> &values) {
    const std::uint32_t n = static_cast<std::uint32_t>(values.size());
    for (const char *variant : {"", "-O0"}) {
      cl_kernel k = vmKernel(kernel, variant);
      ASSERT_NE(k, nullptr);
      cl_mem O = buffer<std::uint16_t>(4 * size_t(n));
      setArgs(k, in, O, n);
      run(k, {n});
      const std::vector<std::uint16_t> out = read<std::uint16_t>(O, 4 * size_t(n));
      for (int mode = 0; mode < 4; ++mode) {
        Mismatches bad{std::string(kernel) + " " + (mode ? modeNames[mode + 1] : "default") +
                       variant};
        for (std::uint32_t i = 0; i < n; ++i) {
          const std::uint16_t want = toHalf(values[i], static_cast<Rounding>(mode));
          const std::uint16_t got = out[size_t(mode) * n + i];
          if (halfIsNan(want) ? !halfIsNan(got) : got != want)
            bad.add([&] {
              std::ostringstream s;
              s << "value " << std::hexfloat << values[i] << std::defaultfloat << ": got "
                << hex(got) << ", want " << hex(want);
              return s.str();
            });
        }
      }
    }
  };
  check("store_half_modes_float", buffer(floats),
        std::vector<double>(floats.begin(), floats.end()));
  check("store_half_modes_double", buffer(doubles), doubles);
}

TEST_F(HalfMemory, VloadHalfnAndVloadaHalfn) {
  const std::uint32_t W = 64, R = 20 * W;
  std::mt19937_64 random(0x4a1f);
  std::vector<std::uint16_t> in(R + 16);
  for (size_t k = 0; k < in.size(); ++k) // random patterns, some special
    in[k] = k % 7 == 0   ? std::uint16_t(0x7c00 | (k & 0x8000) | (random() % 3)) // inf, NaNs
            : k % 7 == 1 ? std::uint16_t(random() & 0x83ff)                      // denormals, zeros
                         : std::uint16_t(random());
  const float sentinel = -1234.5f;
  for (const char *variant : {"", "-O0"})
    for (const std::uint32_t shift : {0u, 1u}) {
      cl_kernel k = vmKernel("load_halfn", variant);
      ASSERT_NE(k, nullptr);
      cl_mem I = buffer(in), O = buffer(std::vector<float>(10 * R, sentinel));
      setArgs(k, I, O, shift, R);
      run(k, {W}, {16});
      const std::vector<float> out = read<float>(O, 10 * R);
      for (int aligned = 0; aligned < 2; ++aligned)
        for (int kn = 0; kn < 5; ++kn) {
          const int n = lengths[kn], q = n == 3 ? 5 : 16 / n;
          const int stride = aligned && n == 3 ? 4 : n;
          const size_t base = R * (5 * aligned + kn), from = aligned ? 0 : shift;
          std::vector<float> want(R, sentinel);
          std::vector<std::uint16_t> source(R, 0);
          for (size_t o = 0; o < size_t(q) * W; ++o)
            for (int j = 0; j < n; ++j) {
              source[o * stride + j] = in[from + o * stride + j];
              want[o * stride + j] = halfToFloat(source[o * stride + j]);
            }
          Mismatches bad{std::string(aligned ? "vloada_half" : "vload_half") + std::to_string(n) +
                         variant + " (p = in + " + std::to_string(aligned ? 0 : shift) + ")"};
          for (size_t e = 0; e < R; ++e) {
            const float got = out[base + e];
            const bool ok =
                std::isnan(want[e]) ? std::isnan(got) : bitsOf32(got) == bitsOf32(want[e]);
            if (!ok)
              bad.add([&] {
                std::ostringstream s;
                s << "offset " << e / stride << " component " << e % stride << " (half "
                  << hex(source[e]) << "): got " << got << " (" << hex(bitsOf32(got)) << "), want "
                  << want[e] << " (" << hex(bitsOf32(want[e])) << ")";
                return s.str();
              });
          }
        }
    }
}

struct HalfStoreCase {
  const char *kernel;
  bool isDouble;
};

// store_half_S: mode r at b = out + 11 R r; scalar stores at b, vstore_halfn at
// b + R (1 + k), vstorea_halfn at b + R (6 + k).
class HalfMemoryStores : public VectorMemoryFixture,
                         public ::testing::WithParamInterface<HalfStoreCase> {};

TEST_P(HalfMemoryStores, VstoreHalfEveryFormAndRoundingMode) {
  const HalfStoreCase c = GetParam();
  const bool floatDenormals =
      deviceInfo<cl_device_fp_config>(device, CL_DEVICE_SINGLE_FP_CONFIG) & CL_FP_DENORM;
  if (!c.isDouble && !floatDenormals)
    std::printf("note: no CL_FP_DENORM for float: float denormal inputs left out\n");
  const std::uint32_t W = 64, R = 20 * W;
  const std::vector<double> values = storeValues(c.isDouble, floatDenormals, 16 * W);
  const std::uint16_t sentinel = 0x5a5a;
  for (const char *variant : {"", "-O0"}) {
    cl_kernel k = vmKernel(c.kernel, variant);
    ASSERT_NE(k, nullptr);
    cl_mem I;
    if (c.isDouble)
      I = buffer(values);
    else {
      std::vector<float> f(values.begin(), values.end());
      I = buffer(f);
    }
    cl_mem O = buffer(std::vector<std::uint16_t>(55 * R, sentinel));
    setArgs(k, I, O, R);
    run(k, {W}, {16});
    const std::vector<std::uint16_t> out = read<std::uint16_t>(O, 55 * R);
    for (int mode = 0; mode < 5; ++mode) {
      const Rounding rounding = roundingOf(mode);
      for (int form = 0; form < 11; ++form) {
        // form 0: vstore_half; 1 + k: vstore_halfn; 6 + k: vstorea_halfn.
        const int kn = (form - 1) % 5, n = form == 0 ? 1 : lengths[kn];
        const bool aligned = form >= 6;
        const int q = n == 1 ? 16 : n == 3 ? 5 : 16 / n;
        const int stride = aligned && n == 3 ? 4 : n;
        std::vector<std::uint16_t> want(R, sentinel);
        std::vector<double> source(R, 0.0);
        for (std::uint32_t i = 0; i < W; ++i)
          for (int v = 0; v < q; ++v)
            for (int j = 0; j < n; ++j) {
              const size_t o = size_t(q) * i + v;
              const double x = values[16 * i + v * n + j];
              source[o * stride + j] = x;
              want[o * stride + j] = toHalf(x, rounding);
            }
        std::string what =
            form == 0 ? "vstore_half"
                      : std::string(aligned ? "vstorea_half" : "vstore_half") + std::to_string(n);
        what += std::string(mode ? modeNames[mode] : "") + " from " +
                (c.isDouble ? "double" : "float") + variant;
        Mismatches bad{what};
        const size_t base = size_t(11 * mode + form) * R;
        for (size_t e = 0; e < R; ++e) {
          const std::uint16_t got = out[base + e];
          const bool ok = halfIsNan(want[e]) ? halfIsNan(got) : got == want[e];
          if (!ok)
            bad.add([&] {
              std::ostringstream s;
              s << "element " << e << " (value " << std::hexfloat << source[e] << std::defaultfloat
                << " = " << source[e] << "): got " << hex(got) << " (" << halfToFloat(got)
                << "), want " << hex(want[e]) << " (" << halfToFloat(want[e]) << ")";
              return s.str();
            });
        }
      }
    }
  }
}

// half_uniform: the value to store and the load offset are kernel arguments.
TEST_F(HalfMemory, UniformOperands) {
  const std::vector<double> doubles = {1 + 0x1p-11,
                                       -(1 + 0x1p-11),
                                       1 + 0x1p-11 + 0x1p-40,
                                       65520.0,
                                       -65520.0,
                                       1e6,
                                       -1e6,
                                       0x1p-25,
                                       -0x1p-25,
                                       3 * 0x1p-25,
                                       1e-10,
                                       -1e-10,
                                       0x1p-24,
                                       0.0,
                                       -0.0,
                                       INFINITY,
                                       -INFINITY,
                                       NAN,
                                       0.1,
                                       -2049.0};
  std::vector<std::uint16_t> patterns = {0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0xfbff,
                                         0x7c00, 0xfc00, 0x7e01, 0x3c00, 0x8000, 0x3555};
  constexpr size_t n = 8;
  for (const char *variant : {"", "-O0"})
    for (size_t v = 0; v < doubles.size(); ++v) {
      const double d = doubles[v];
      const float x = float(d);
      const std::uint32_t k = std::uint32_t(v % patterns.size());
      cl_kernel kern = vmKernel("half_uniform", variant);
      ASSERT_NE(kern, nullptr);
      cl_mem I = buffer(patterns), O = buffer<std::uint16_t>(10 * n), L = buffer<float>(n);
      setArgs(kern, x, d, k, I, O, L);
      run(kern, {n});
      const std::vector<std::uint16_t> out = read<std::uint16_t>(O, 10 * n);
      const std::vector<float> loaded = read<float>(L, n);
      const float wantLoad = halfToFloat(patterns[k]);
      for (size_t i = 0; i < n; ++i) {
        for (int r = 0; r < 10; ++r) {
          const double source = r < 5 ? double(x) : d;
          const std::uint16_t want = toHalf(source, roundingOf(r % 5)), got = out[10 * i + r];
          EXPECT_TRUE(halfIsNan(want) ? halfIsNan(got) : got == want)
              << "vstore_half" << (r % 5 ? modeNames[r % 5] : "") << " from "
              << (r < 5 ? "float " : "double ") << std::hexfloat << source << variant
              << ", work-item " << i << ": got " << hex(got) << ", want " << hex(want);
        }
        EXPECT_TRUE(std::isnan(wantLoad) ? std::isnan(loaded[i])
                                         : bitsOf32(loaded[i]) == bitsOf32(wantLoad))
            << "vload_half(" << k << ") of " << hex(patterns[k]) << variant << ", work-item " << i
            << ": got " << loaded[i];
      }
    }
}

INSTANTIATE_TEST_SUITE_P(HalfMemory, HalfMemoryStores,
                         ::testing::Values(HalfStoreCase{"store_half_float", false},
                                           HalfStoreCase{"store_half_double", true}),
                         [](const ::testing::TestParamInfo<HalfStoreCase> &info) {
                           return std::string(info.param.isDouble ? "FromDouble" : "FromFloat");
                         });

} // namespace
} // namespace lanewise::test
