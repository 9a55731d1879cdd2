// SPDX-License-Identifier: Apache-2.0
// Integer functions (OpenCL C 3.0, 6.15.3; kernels in cl/integer.cl and
// cl/upsample.cl) on char, uchar, short, ushort, int, uint, long and ulong,
// scalars and vectors of 2, 3, 4, 8 and 16 components, built at -O2 and -O0.
//
// Expected values follow the definitions of the spec, computed here in wider
// arithmetic (__int128): add_sat, sub_sat and mad_sat saturate the exact
// result; hadd is (x + y) >> 1 and rhadd (x + y + 1) >> 1 of the exact sum;
// mul_hi is the high half of the full product and mad_hi adds z to it
// (modulo 2^n); abs and abs_diff return the exact magnitude in the unsigned
// type; clz and ctz of 0 are the bit width; rotate takes its count modulo the
// bit width; clamp is min(max(x, minval), maxval) with minval <= maxval (the
// result is undefined otherwise); mul24 and mad24 get operands in the 24-bit
// range only (others give implementation-defined results), and their
// product and sum are taken modulo 2^32; upsample(hi, lo) is
// hi * 2^n + lo, n the bit width of lo.
//
// Operands: 8-bit types every pair (x, y); 16-bit types every x against 64
// values of y (0 to 17, -1 to -17, the extremes and their neighbours, 2^k
// and 2^k - 1 for k from 5 to 15, pseudo-random values to make up 64), so
// every single-operand input too; 32- and 64-bit types the
// edge values (0, +-1, the extremes and their neighbours, powers of two,
// their neighbours and negations) crossed with each other, then seeded
// pseudo-random pairs. Third operands are edge values and pseudo-random
// ones. Each check also verifies that outputs a kernel must not write
// (the odd-work-item outputs of even work-items, the forms a width lacks)
// keep their previous contents.
#include "harness.h"
#include "mismatches.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace lanewise::test {
namespace {

using i128 = __int128;
using u128 = unsigned __int128;

template <typename T> struct Traits;
#define LANEWISE_TRAITS(T, N, WIDE)                                                                \
  template <> struct Traits<T> {                                                                   \
    static constexpr const char *name = N;                                                         \
    using Wide = WIDE; /* the result of upsample(T, unsigned T) */                                 \
  };
LANEWISE_TRAITS(std::int8_t, "char", std::int16_t)
LANEWISE_TRAITS(std::uint8_t, "uchar", std::uint16_t)
LANEWISE_TRAITS(std::int16_t, "short", std::int32_t)
LANEWISE_TRAITS(std::uint16_t, "ushort", std::uint32_t)
LANEWISE_TRAITS(std::int32_t, "int", std::int64_t)
LANEWISE_TRAITS(std::uint32_t, "uint", std::uint64_t)
LANEWISE_TRAITS(std::int64_t, "long", void)
LANEWISE_TRAITS(std::uint64_t, "ulong", void)
#undef LANEWISE_TRAITS

struct TypeNames {
  template <typename T> static std::string GetName(int) { return Traits<T>::name; }
};

template <typename T> constexpr int bitWidth = int(8 * sizeof(T));
template <typename T> using Unsigned = std::make_unsigned_t<T>;

const int widths[] = {1, 2, 3, 4, 8, 16};

template <typename T> std::string typeName(int width) {
  return width == 1 ? std::string(Traits<T>::name) : Traits<T>::name + std::to_string(width);
}

template <typename T> std::string show(T v) {
  std::ostringstream s;
  if constexpr (sizeof(T) == 1)
    s << int(v);
  else
    s << +v;
  return s.str();
}

void write(cl_command_queue queue, cl_mem mem, const void *data, size_t bytes) {
  ASSERT_EQ(clEnqueueWriteBuffer(queue, mem, CL_TRUE, 0, bytes, data, 0, nullptr, nullptr),
            CL_SUCCESS);
}

// ---- reference functions, from the definitions ------------------------------
template <typename T> T saturate(i128 r) {
  const i128 low = std::numeric_limits<T>::min(), high = std::numeric_limits<T>::max();
  return T(std::clamp(r, low, high));
}
template <typename T> Unsigned<T> magnitude(i128 r) { return Unsigned<T>(r < 0 ? -r : r); }

template <typename T> T refAbs(T x) { return T(magnitude<T>(i128(x))); }
template <typename T> T refAbsDiff(T x, T y) { return T(magnitude<T>(i128(x) - i128(y))); }
template <typename T> T refAddSat(T x, T y) { return saturate<T>(i128(x) + i128(y)); }
template <typename T> T refSubSat(T x, T y) { return saturate<T>(i128(x) - i128(y)); }
// The exact sum, halved and rounded toward minus infinity (>> on a negative
// __int128 is an arithmetic shift in GCC and Clang).
template <typename T> T refHadd(T x, T y) { return T((i128(x) + i128(y)) >> 1); }
template <typename T> T refRhadd(T x, T y) { return T((i128(x) + i128(y) + 1) >> 1); }
template <typename T> T refMax(T x, T y) { return x < y ? y : x; }
template <typename T> T refMin(T x, T y) { return y < x ? y : x; }
template <typename T> T refClamp(T x, T low, T high) { return refMin(refMax(x, low), high); }

template <typename T> T refMulHi(T x, T y) {
  if constexpr (std::is_unsigned_v<T>)
    return T((u128(x) * u128(y)) >> bitWidth<T>);
  else
    return T((i128(x) * i128(y)) >> bitWidth<T>); // |product| <= 2^126
}
template <typename T> T refMadHi(T x, T y, T z) {
  return T(Unsigned<T>(Unsigned<T>(refMulHi(x, y)) + Unsigned<T>(z)));
}
template <typename T> T refMadSat(T x, T y, T z) {
  if constexpr (std::is_unsigned_v<T>) {
    const u128 r = u128(x) * u128(y) + u128(z); // < 2^128
    return r > u128(std::numeric_limits<T>::max()) ? std::numeric_limits<T>::max() : T(r);
  } else {
    return saturate<T>(i128(x) * i128(y) + i128(z)); // |x y + z| < 2^127
  }
}

template <typename T> bool bit(T v, int k) { return (Unsigned<T>(v) >> k) & 1; }
template <typename T> T refClz(T x) {
  int n = 0;
  while (n < bitWidth<T> && !bit(x, bitWidth<T> - 1 - n))
    ++n;
  return T(n);
}
template <typename T> T refCtz(T x) {
  int n = 0;
  while (n < bitWidth<T> && !bit(x, n))
    ++n;
  return T(n);
}
template <typename T> T refPopcount(T x) {
  int n = 0;
  for (int k = 0; k < bitWidth<T>; ++k)
    n += bit(x, k);
  return T(n);
}
// Bit k of v moves to bit (k + i) mod n, i taken modulo n as a
// non-negative count.
template <typename T> T refRotate(T v, T i) {
  const int n = bitWidth<T>;
  const int count = int(((i128(i) % n) + n) % n);
  Unsigned<T> r = 0;
  for (int k = 0; k < n; ++k)
    if (bit(v, k))
      r = Unsigned<T>(r | Unsigned<T>(Unsigned<T>(1) << ((k + count) % n)));
  return T(r);
}
// Operands within the 24-bit range; the 32-bit product and sum wrap.
template <typename T> T refMul24(T x, T y) { return T(std::uint32_t(i128(x) * i128(y))); }
template <typename T> T refMad24(T x, T y, T z) {
  return T(std::uint32_t(i128(x) * i128(y) + i128(z)));
}
template <typename T, typename R> R refUpsample(T hi, Unsigned<T> lo) {
  const i128 scale = i128(1) << bitWidth<T>;
  return R(i128(hi) * scale + i128(lo));
}

// ---- operands -----------------------------------------------------------------
template <typename T> void addUnique(std::vector<T> &values, T v) {
  if (std::find(values.begin(), values.end(), v) == values.end())
    values.push_back(v);
}

// 0, 1, -1, the extremes and their neighbours, and every power of two with
// its neighbours and its negation.
template <typename T> std::vector<T> edgeValues() {
  using L = std::numeric_limits<T>;
  using U = Unsigned<T>;
  std::vector<T> out;
  for (T v : {T(0), T(1), T(-1), L::min(), L::max(), T(L::min() + 1), T(L::max() - 1)})
    addUnique(out, v);
  for (int k = 1; k < bitWidth<T>; ++k) {
    const U p = U(U(1) << k);
    for (U v : {p, U(p - 1), U(p + 1), U(U(0) - p)})
      addUnique(out, T(v));
  }
  return out;
}

// Pseudo-random values of varied shapes: any bits, small magnitudes (shift
// and rotate counts among them), and values with many leading or trailing
// zeros.
template <typename T> T randomValue(std::mt19937_64 &random) {
  using U = Unsigned<T>;
  const int n = bitWidth<T>;
  const std::uint64_t bits = random(), shape = random();
  switch (shape % 4) {
  case 0:
    return T(U(bits));
  case 1:
    return T(U(std::int64_t(bits % std::uint64_t(4 * n + 1)) - 2 * n));
  case 2:
    return T(U(U(bits) >> ((shape >> 2) % n)));
  default:
    return T(U(U(bits) << ((shape >> 2) % n)));
  }
}

template <typename T> T edgeOrRandom(std::mt19937_64 &random, const std::vector<T> &edges) {
  if (random() % 4 == 0)
    return edges[random() % edges.size()];
  return randomValue<T>(random);
}

// The (x, y) pairs of two-operand functions, a multiple of 48 of them (so
// divisible by every width).
template <typename T>
void operandPairs(std::mt19937_64 &random, std::vector<T> &a, std::vector<T> &b) {
  a.clear();
  b.clear();
  if constexpr (sizeof(T) == 1) {
    for (int x = 0; x < 256; ++x)
      for (int y = 0; y < 256; ++y) {
        a.push_back(T(std::uint8_t(x)));
        b.push_back(T(std::uint8_t(y)));
      }
  } else if constexpr (sizeof(T) == 2) {
    using L = std::numeric_limits<T>;
    std::vector<T> ys;
    for (int k = 0; k <= 17; ++k) {
      addUnique(ys, T(k));
      addUnique(ys, T(-k));
    }
    for (T v : {L::min(), T(L::min() + 1), L::max(), T(L::max() - 1)})
      addUnique(ys, v);
    for (int k = 5; k <= 15; ++k) {
      addUnique(ys, T(std::uint16_t(1u << k)));
      addUnique(ys, T(std::uint16_t((1u << k) - 1)));
    }
    while (ys.size() < 64)
      addUnique(ys, randomValue<T>(random));
    for (T y : ys)
      for (int x = 0; x < 65536; ++x) {
        a.push_back(T(std::uint16_t(x)));
        b.push_back(y);
      }
  } else {
    const std::vector<T> edges = edgeValues<T>();
    for (T x : edges)
      for (T y : edges) {
        a.push_back(x);
        b.push_back(y);
      }
    for (int k = 0; k < 16384; ++k) {
      a.push_back(randomValue<T>(random));
      b.push_back(randomValue<T>(random));
    }
  }
  while (a.size() % 48) {
    a.push_back(randomValue<T>(random));
    b.push_back(randomValue<T>(random));
  }
}

// Values in the 24-bit range of mul24 and mad24: [-2^23, 2^23 - 1] for int,
// [0, 2^24 - 1] for uint.
template <typename T> std::vector<T> edges24() {
  std::vector<T> out;
  const bool isSigned = std::is_signed_v<T>;
  const std::int64_t low = isSigned ? -(std::int64_t(1) << 23) : 0;
  const std::int64_t high = isSigned ? (std::int64_t(1) << 23) - 1 : (std::int64_t(1) << 24) - 1;
  std::vector<std::int64_t> v = {0, 1, -1, low, low + 1, high, high - 1};
  for (int k = 1; k < (isSigned ? 23 : 24); ++k)
    for (std::int64_t p : {std::int64_t(1) << k, (std::int64_t(1) << k) - 1,
                           (std::int64_t(1) << k) + 1, -(std::int64_t(1) << k)})
      v.push_back(p);
  for (std::int64_t x : v)
    if (x >= low && x <= high)
      addUnique(out, T(x));
  return out;
}
template <typename T> T random24(std::mt19937_64 &random) {
  const std::uint32_t bits = std::uint32_t(random()) >> (random() % 24);
  if constexpr (std::is_signed_v<T>)
    return T(std::int32_t(bits << 8) >> 8); // sign-extended from bit 23
  else
    return T(bits & 0xFFFFFF);
}

// ---- the functions of cl/integer.cl -----------------------------------------------
constexpr int functionCount = 25;
const char *const functionNames[functionCount] = {
    "abs(a)",
    "abs_diff(a, b)",
    "add_sat(a, b)",
    "sub_sat(a, b)",
    "hadd(a, b)",
    "rhadd(a, b)",
    "max(a, b)",
    "min(a, b)",
    "mul_hi(a, b)",
    "rotate(a, b)",
    "clz(a)",
    "ctz(a)",
    "popcount(a)",
    "mad_hi(a, b, c)",
    "mad_sat(a, b, c)",
    "clamp(a, lo, hi)",
    "max(a, scalar)",
    "min(a, scalar)",
    "clamp(a, scalar, scalar)",
    "mul24(d, e)",
    "mad24(d, e, c)",
    "odd items: sub_sat(b, a)",
    "odd items: mad_sat(b, c, a)",
    "odd items: clz(b)",
    "odd items: rotate(b, a)",
};
enum Function {
  ScalarMax = 16,
  ScalarMin = 17,
  ScalarClamp = 18,
  Mul24 = 19,
  Mad24 = 20,
  OddSubSat = 21,
  OddMadSat = 22,
  OddClz = 23,
  OddRotate = 24,
};

template <typename T> class Integer : public SharedContextTest {
protected:
  void check(const std::string &variant);
};
using IntegerTypes = ::testing::Types<std::int8_t, std::uint8_t, std::int16_t, std::uint16_t,
                                      std::int32_t, std::uint32_t, std::int64_t, std::uint64_t>;
TYPED_TEST_SUITE(Integer, IntegerTypes, TypeNames);

template <typename T> void Integer<T>::check(const std::string &variant) {
  constexpr bool has24 = sizeof(T) == 4;
  std::mt19937_64 random(0x1e7e6e + sizeof(T) * 2 + std::is_signed_v<T>);
  const std::vector<T> edges = edgeValues<T>();

  // Operands of the whole run.
  std::vector<T> a, b;
  operandPairs(random, a, b);
  const size_t total = a.size();
  std::vector<T> c(total), lo(total), hi(total), d(has24 ? total : 0), e(has24 ? total : 0);
  for (size_t k = 0; k < total; ++k) {
    c[k] = edgeOrRandom(random, edges);
    T p = edgeOrRandom(random, edges), q = edgeOrRandom(random, edges);
    lo[k] = std::min(p, q);
    hi[k] = std::max(p, q);
  }
  if constexpr (has24) {
    const std::vector<T> e24 = edges24<T>();
    for (size_t k = 0; k < total; ++k) {
      if (k < e24.size() * e24.size()) {
        d[k] = e24[k / e24.size()];
        e[k] = e24[k % e24.size()];
      } else {
        d[k] = random24<T>(random);
        e[k] = random24<T>(random);
      }
    }
  }

  // The run goes in chunks of at most `chunk` elements.
  const size_t chunk = std::min<size_t>(total, 48 * 4096);
  cl_mem A = buffer<T>(chunk), B = buffer<T>(chunk), C = buffer<T>(chunk), LO = buffer<T>(chunk),
         HI = buffer<T>(chunk), D = buffer<T>(chunk), E = buffer<T>(chunk),
         S = buffer<T>(3 * chunk), OUT = buffer<T>(functionCount * chunk);
  std::vector<T> before(functionCount * chunk), s(3 * chunk), out;
  for (T &v : before)
    v = T(random());
  std::vector<std::vector<T>> want(functionCount, std::vector<T>(chunk));
  std::vector<Mismatches> bad;
  bad.reserve(6 * functionCount);
  for (int w : widths)
    for (int f = 0; f < functionCount; ++f)
      bad.push_back({typeName<T>(w) + variant + " " + functionNames[f]});

  for (size_t base = 0; base < total; base += chunk) {
    const size_t n = std::min(chunk, total - base);
    const T *x = &a[base], *y = &b[base], *z = &c[base], *l = &lo[base], *h = &hi[base];
    write(queue, A, x, n * sizeof(T));
    write(queue, B, y, n * sizeof(T));
    write(queue, C, z, n * sizeof(T));
    write(queue, LO, l, n * sizeof(T));
    write(queue, HI, h, n * sizeof(T));
    if constexpr (has24) {
      write(queue, D, &d[base], n * sizeof(T));
      write(queue, E, &e[base], n * sizeof(T));
    }
    // Scalar operands of work-item i: s[3 i] for max and min, s[3 i + 1] <=
    // s[3 i + 2] for clamp.
    for (size_t i = 0; i < n; ++i) {
      s[3 * i] = edgeOrRandom(random, edges);
      T p = edgeOrRandom(random, edges), q = edgeOrRandom(random, edges);
      s[3 * i + 1] = std::min(p, q);
      s[3 * i + 2] = std::max(p, q);
    }
    write(queue, S, s.data(), 3 * n * sizeof(T));

    // Results that do not depend on the width.
    for (size_t k = 0; k < n; ++k) {
      want[0][k] = refAbs(x[k]);
      want[1][k] = refAbsDiff(x[k], y[k]);
      want[2][k] = refAddSat(x[k], y[k]);
      want[3][k] = refSubSat(x[k], y[k]);
      want[4][k] = refHadd(x[k], y[k]);
      want[5][k] = refRhadd(x[k], y[k]);
      want[6][k] = refMax(x[k], y[k]);
      want[7][k] = refMin(x[k], y[k]);
      want[8][k] = refMulHi(x[k], y[k]);
      want[9][k] = refRotate(x[k], y[k]);
      want[10][k] = refClz(x[k]);
      want[11][k] = refCtz(x[k]);
      want[12][k] = refPopcount(x[k]);
      want[13][k] = refMadHi(x[k], y[k], z[k]);
      want[14][k] = refMadSat(x[k], y[k], z[k]);
      want[15][k] = refClamp(x[k], l[k], h[k]);
      if constexpr (has24) {
        want[Mul24][k] = refMul24(d[base + k], e[base + k]);
        want[Mad24][k] = refMad24(d[base + k], e[base + k], z[k]);
      }
      want[OddSubSat][k] = refSubSat(y[k], x[k]);
      want[OddMadSat][k] = refMadSat(y[k], z[k], x[k]);
      want[OddClz][k] = refClz(y[k]);
      want[OddRotate][k] = refRotate(y[k], x[k]);
    }

    for (int wk = 0; wk < 6; ++wk) {
      const int w = widths[wk];
      cl_kernel kernel = cachedKernel("integer", "integer_" + typeName<T>(w), variant);
      ASSERT_NE(kernel, nullptr);
      write(queue, OUT, before.data(), functionCount * n * sizeof(T));
      setArgs(kernel, A, B, C, LO, HI, has24 ? D : A, has24 ? E : B, S, OUT, cl_uint(n));
      run(kernel, {n / w});
      out = read<T>(OUT, functionCount * n);
      if (HasFatalFailure())
        return;
      for (int f = 0; f < functionCount; ++f) {
        const bool scalarForm = f >= ScalarMax && f <= ScalarClamp;
        const bool written = !(scalarForm && w == 1) && !((f == Mul24 || f == Mad24) && !has24);
        for (size_t k = 0; k < n; ++k) {
          const size_t item = k / w;
          T expected = before[f * n + k];
          if (!written)
            ;
          else if (f >= OddSubSat && !(item & 1))
            ;
          else if (f == ScalarMax)
            expected = refMax(x[k], s[3 * item]);
          else if (f == ScalarMin)
            expected = refMin(x[k], s[3 * item]);
          else if (f == ScalarClamp)
            expected = refClamp(x[k], s[3 * item + 1], s[3 * item + 2]);
          else
            expected = want[f][k];
          const T got = out[f * n + k];
          if (got != expected)
            bad[wk * functionCount + f].add([&] {
              std::ostringstream m;
              m << "element " << base + k << " (work-item " << item << ") a " << show(x[k]) << " b "
                << show(y[k]) << " c " << show(z[k]);
              if (f == 15)
                m << " lo " << show(l[k]) << " hi " << show(h[k]);
              if (scalarForm)
                m << " scalars " << show(s[3 * item]) << " " << show(s[3 * item + 1]) << " "
                  << show(s[3 * item + 2]);
              if (has24 && (f == Mul24 || f == Mad24))
                m << " d " << show(d[base + k]) << " e " << show(e[base + k]);
              if (!written || (f >= OddSubSat && !(item & 1)))
                m << " (must not be written)";
              m << ": got " << show(got) << ", want " << show(expected);
              return m.str();
            });
        }
      }
    }
  }
}

TYPED_TEST(Integer, EveryFunctionEveryWidthO2) { this->check(""); }
TYPED_TEST(Integer, EveryFunctionEveryWidthO0) { this->check("-O0"); }

// ---- upsample (cl/upsample.cl) --------------------------------------------------
template <typename T> class IntegerUpsample : public SharedContextTest {
protected:
  void check(const std::string &variant);
};
using UpsampleTypes = ::testing::Types<std::int8_t, std::uint8_t, std::int16_t, std::uint16_t,
                                       std::int32_t, std::uint32_t>;
TYPED_TEST_SUITE(IntegerUpsample, UpsampleTypes, TypeNames);

template <typename T> void IntegerUpsample<T>::check(const std::string &variant) {
  using U = Unsigned<T>;
  using R = typename Traits<T>::Wide;
  std::mt19937_64 random(0x5a3b1e + sizeof(T) * 2 + std::is_signed_v<T>);
  std::vector<T> hi, b;
  operandPairs(random, hi, b);
  const size_t n = hi.size();
  std::vector<U> lo(n);
  for (size_t k = 0; k < n; ++k)
    lo[k] = U(b[k]);
  cl_mem H = buffer(hi), L = buffer(lo), O = buffer<R>(n);
  for (int w : widths) {
    cl_kernel kernel = cachedKernel("upsample", "upsample_" + typeName<T>(w), variant);
    ASSERT_NE(kernel, nullptr);
    setArgs(kernel, H, L, O);
    run(kernel, {n / w});
    const std::vector<R> out = read<R>(O, n);
    Mismatches bad{"upsample " + typeName<T>(w) + variant};
    for (size_t k = 0; k < n; ++k) {
      const R expected = refUpsample<T, R>(hi[k], lo[k]);
      if (out[k] != expected)
        bad.add([&] {
          std::ostringstream m;
          m << "element " << k << " hi " << show(hi[k]) << " lo " << show(lo[k]) << ": got "
            << show(out[k]) << ", want " << show(expected);
          return m.str();
        });
    }
  }
}

TYPED_TEST(IntegerUpsample, EveryWidthO2) { this->check(""); }
TYPED_TEST(IntegerUpsample, EveryWidthO0) { this->check("-O0"); }

} // namespace
} // namespace lanewise::test
