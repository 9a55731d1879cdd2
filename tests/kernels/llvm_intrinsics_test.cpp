// SPDX-License-Identifier: Apache-2.0
// Idioms and builtins that clang compiles to LLVM intrinsics
// (cl/llvm_intrinsics.cl), which the translator expands or llvm-spirv-14
// lowers. The expected values are the idioms' definitions computed here:
// the bit loops, the folds of the reductions, and GCC's
// __builtin_*_overflow for the checked arithmetic.
#include "harness.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace lanewise::test {
namespace {

// Edge values of T (zero, one, both ends and their neighbours, single
// bits), then random ones, `count` in all.
template <typename T> std::vector<T> values(size_t count, uint32_t seed) {
  using limits = std::numeric_limits<T>;
  std::vector<T> v = {T(0),
                      T(1),
                      T(2),
                      T(-1),
                      limits::max(),
                      limits::min(),
                      T(limits::max() - 1),
                      T(limits::min() + 1),
                      T(limits::max() / 2),
                      T(limits::max() / 2 + 1)};
  for (unsigned bit = 0; bit < 8 * sizeof(T); bit += 3)
    v.push_back(T(uint64_t(1) << bit));
  std::mt19937_64 random(seed);
  while (v.size() < count)
    v.push_back(T(random()));
  v.resize(count);
  return v;
}

// Every pair of 16 edge values, then random pairs.
template <typename T> void pairs(std::vector<T> &a, std::vector<T> &b) {
  const std::vector<T> edge = values<T>(16, 1);
  for (T x : edge)
    for (T y : edge) {
      a.push_back(x);
      b.push_back(y);
    }
  const std::vector<T> x = values<T>(256, 2), y = values<T>(256, 3);
  a.insert(a.end(), x.begin(), x.end());
  b.insert(b.end(), y.rbegin(), y.rend());
}

template <typename T> T reversed(T x) {
  T y = 0;
  for (unsigned bit = 0; bit < 8 * sizeof(T); ++bit)
    if (x >> bit & 1)
      y |= T(T(1) << (8 * sizeof(T) - 1 - bit));
  return y;
}

template <typename T> T swapped(T x) {
  T y = 0;
  for (unsigned byte = 0; byte < sizeof(T); ++byte)
    y |= T(T(x >> 8 * byte & 0xff) << 8 * (sizeof(T) - 1 - byte));
  return y;
}

template <typename T> T rotatedLeft(T x, unsigned s) {
  constexpr unsigned bits = 8 * sizeof(T);
  s %= bits;
  return s == 0 ? x : T(x << s | x >> (bits - s));
}

template <typename T> T saturatedAdd(T a, T b) {
  T r;
  if (!__builtin_add_overflow(a, b, &r))
    return r;
  return std::is_signed_v<T> && a < 0 ? std::numeric_limits<T>::min()
                                      : std::numeric_limits<T>::max();
}

template <typename T> T saturatedSub(T a, T b) {
  T r;
  if (!__builtin_sub_overflow(a, b, &r))
    return r;
  return std::is_signed_v<T> && a >= 0 ? std::numeric_limits<T>::max()
                                       : std::numeric_limits<T>::min();
}

// The reduced CLsmith function of cl/llvm_intrinsics.cl's reverse_bool, as C.
struct S2 {
  int g_15, g_126, g_449, g_498, g_949, g_1495;
};
int reverseBoolFunction(S2 &p) {
  unsigned char l_1401 = 0;
  for (p.g_949 = 0; p.g_949 <= 1; p.g_949 += 1) {
    p.g_15 = ((l_1401 |= ((0 < p.g_15) | p.g_15)) <= p.g_498);
    for (p.g_126 = 0; p.g_126 <= 0; p.g_126 += 1)
      p.g_449 = p.g_1495;
  }
  return l_1401;
}

class LlvmIntrinsics : public SharedContextTest {
protected:
  // Runs kernel `name` (-O2 and -O0) over a (and b, when given) and
  // expects r[i] == expected[i].
  template <typename T>
  void expectResults(const std::string &name, const std::vector<T> &a, const std::vector<T> &b,
                     const std::vector<T> &expected) {
    for (const char *variant : {"", "-O0"}) {
      cl_kernel k = cachedKernel("llvm_intrinsics", name, variant);
      ASSERT_NE(k, nullptr);
      cl_mem in = buffer(a), out = buffer<T>(expected.size());
      if (b.empty()) {
        setArgs(k, out, in);
      } else {
        cl_mem second = buffer(b);
        setArgs(k, out, in, second);
      }
      run(k, {a.size()});
      const std::vector<T> got = read<T>(out, expected.size());
      for (size_t i = 0; i < expected.size(); ++i)
        ASSERT_EQ(+got[i], +expected[i])
            << name << variant << " at " << i << ": a = " << +a[i / (expected.size() / a.size())];
    }
  }

  template <typename T> void expectReversed(const std::string &name) {
    const std::vector<T> a = values<T>(300, 4);
    std::vector<T> expected;
    for (T x : a)
      expected.push_back(reversed(x));
    expectResults<T>(name, a, {}, expected);
  }

  template <typename T> void expectSaturating(const std::string &type) {
    std::vector<T> a, b, sums, differences;
    pairs(a, b);
    for (size_t i = 0; i < a.size(); ++i) {
      sums.push_back(saturatedAdd(a[i], b[i]));
      differences.push_back(saturatedSub(a[i], b[i]));
    }
    expectResults<T>("add_sat_" + type, a, b, sums);
    expectResults<T>("sub_sat_" + type, a, b, differences);
  }

  // r[5i .. 5i + 4]: max, min, and, or, xor of the N components of a[i].
  template <typename T, size_t N> void expectReductions(const std::string &name) {
    const std::vector<T> a = values<T>(N * 40, 9);
    std::vector<T> expected;
    for (size_t i = 0; i < a.size(); i += N) {
      T max = a[i], min = a[i], all = a[i], any = a[i], odd = a[i];
      for (size_t j = i + 1; j < i + N; ++j) {
        max = std::max(max, a[j]);
        min = std::min(min, a[j]);
        all &= a[j];
        any |= a[j];
        odd ^= a[j];
      }
      expected.insert(expected.end(), {max, min, all, any, odd});
    }
    for (const char *variant : {"", "-O0"}) {
      cl_kernel k = cachedKernel("llvm_intrinsics", name, variant);
      cl_mem in = buffer(a), out = buffer<T>(expected.size());
      setArgs(k, out, in);
      run(k, {a.size() / N});
      EXPECT_EQ(read<T>(out, expected.size()), expected) << name << variant;
    }
  }

  // r[2i] the wrapped result, r[2i + 1] whether it overflowed.
  template <typename T> void expectChecked(const std::string &type) {
    std::vector<T> a, b;
    pairs(a, b);
    std::vector<T> sums, differences, products;
    for (size_t i = 0; i < a.size(); ++i) {
      T r;
      const bool addOverflows = __builtin_add_overflow(a[i], b[i], &r);
      sums.insert(sums.end(), {r, T(addOverflows)});
      const bool subOverflows = __builtin_sub_overflow(a[i], b[i], &r);
      differences.insert(differences.end(), {r, T(subOverflows)});
      const bool mulOverflows = __builtin_mul_overflow(a[i], b[i], &r);
      products.insert(products.end(), {r, T(mulOverflows)});
    }
    expectResults<T>("add_overflow_" + type, a, b, sums);
    expectResults<T>("sub_overflow_" + type, a, b, differences);
    expectResults<T>("mul_overflow_" + type, a, b, products);
  }
};

// llvm.bitreverse of 8, 16, 32 and 64 bits, and of a uint4, which
// llvm-spirv-14 writes as OpBitReverse (a Shader instruction).
TEST_F(LlvmIntrinsics, BitReversalLaddersReverseEveryWidth) {
  expectReversed<cl_uchar>("reverse_uchar");
  expectReversed<cl_ushort>("reverse_ushort");
  expectReversed<cl_uint>("reverse_uint");
  expectReversed<cl_ulong>("reverse_ulong");
  // uint4: four consecutive uints per work-item.
  const std::vector<cl_uint> a = values<cl_uint>(4 * 64, 5);
  std::vector<cl_uint> expected;
  for (cl_uint x : a)
    expected.push_back(reversed(x));
  for (const char *variant : {"", "-O0"}) {
    cl_kernel k = cachedKernel("llvm_intrinsics", "reverse_uint4", variant);
    cl_mem in = buffer(a), out = buffer<cl_uint>(a.size());
    setArgs(k, out, in);
    run(k, {a.size() / 4});
    EXPECT_EQ(read<cl_uint>(out, a.size()), expected) << "reverse_uint4" << variant;
  }
}

// llvm.bitreverse.i1, which InstCombine makes of two zero-extended copies
// of one bool or-ed together (a CLsmith program).
TEST_F(LlvmIntrinsics, BoolReversalIsTheBool) {
  std::vector<cl_int> a, b, expected;
  for (cl_int first : {-3, -2, -1, 0, 1, 2, 3, 4, 1000, -1000})
    for (cl_int limit : {0, 300, -1, 1}) {
      a.push_back(first);
      b.push_back(limit);
      S2 s = {first, 0, 0, limit, 0, 7};
      const int returned = reverseBoolFunction(s);
      expected.push_back(returned * 10 + s.g_15);
    }
  expectResults<cl_int>("reverse_bool", a, b, expected);
}

// llvm.bswap and llvm.fshl/fshr, which llvm-spirv-14 lowers itself.
TEST_F(LlvmIntrinsics, ByteSwapsAndRotates) {
  {
    const std::vector<cl_ushort> a = values<cl_ushort>(200, 6);
    std::vector<cl_ushort> expected;
    for (cl_ushort x : a)
      expected.push_back(swapped(x));
    expectResults<cl_ushort>("swap_ushort", a, {}, expected);
  }
  {
    const std::vector<cl_uint> a = values<cl_uint>(200, 7);
    std::vector<cl_uint> expected;
    for (cl_uint x : a)
      expected.push_back(swapped(x));
    expectResults<cl_uint>("swap_uint", a, {}, expected);
  }
  {
    const std::vector<cl_ulong> a = values<cl_ulong>(200, 8);
    std::vector<cl_ulong> swaps, rotates;
    for (cl_ulong x : a) {
      swaps.push_back(swapped(x));
      rotates.push_back(rotatedLeft(x, 13));
    }
    expectResults<cl_ulong>("swap_ulong", a, {}, swaps);
    expectResults<cl_ulong>("rotate_ulong", a, {}, rotates);
  }
  std::vector<cl_uint> a, b, left, right, funnel;
  pairs(a, b);
  for (size_t i = 0; i < a.size(); ++i) {
    left.push_back(rotatedLeft(a[i], b[i]));
    right.push_back(rotatedLeft(a[i], 32 - b[i] % 32));
    funnel.push_back(a[i] >> 5 | b[i] << 27);
  }
  expectResults<cl_uint>("rotate_uint", a, b, left);
  expectResults<cl_uint>("rotate_right_uint", a, b, right);
  expectResults<cl_uint>("funnel_uint", a, b, funnel);
}

// llvm.uadd.sat, llvm.sadd.sat and llvm.ssub.sat (expanded), llvm.usub.sat
// (llvm-spirv-14's own).
TEST_F(LlvmIntrinsics, SaturatingIdiomsClampAtBothEnds) {
  expectSaturating<cl_uint>("uint");
  expectSaturating<cl_ulong>("ulong");
  expectSaturating<cl_char>("char");
  expectSaturating<cl_short>("short");
  expectSaturating<cl_int>("int");
}

// llvm.{u,s}{add,sub,mul}.with.overflow for every integer type.
TEST_F(LlvmIntrinsics, CheckedArithmeticReportsOverflowForEveryType) {
  expectChecked<cl_uchar>("uchar");
  expectChecked<cl_char>("char");
  expectChecked<cl_ushort>("ushort");
  expectChecked<cl_short>("short");
  expectChecked<cl_uint>("uint");
  expectChecked<cl_int>("int");
  expectChecked<cl_ulong>("ulong");
  expectChecked<cl_long>("long");
}

// llvm.vector.reduce.* (clang's __builtin_reduce_*), signed and unsigned,
// of 2 to 16 components.
TEST_F(LlvmIntrinsics, IntegerReductionsFoldEveryComponent) {
  expectReductions<cl_int, 4>("reduce_int4");
  expectReductions<cl_uint, 8>("reduce_uint8");
  expectReductions<cl_char, 16>("reduce_char16");
  expectReductions<cl_ulong, 2>("reduce_ulong2");
}

// llvm.vector.reduce.fmax and fmin: fmax and fmin of the components, which
// return the other operand of a NaN (OpenCL C 3.0, 6.15.2).
TEST_F(LlvmIntrinsics, FloatReductionsSkipNaNs) {
  const float nan = std::numeric_limits<float>::quiet_NaN(),
              inf = std::numeric_limits<float>::infinity();
  const std::vector<float> a = {1.0f, -2.0f, 3.5f, 0.25f,  nan,    5.0f,  -7.0f, nan,
                                -inf, inf,   0.0f, -0.0f,  nan,    nan,   nan,   -1.0f,
                                2.0f, 2.0f,  2.0f, 1e-40f, -3e38f, 3e38f, 1.0f,  0.5f};
  std::vector<float> expected;
  for (size_t i = 0; i < a.size(); i += 4) {
    float max = a[i], min = a[i];
    for (size_t j = i + 1; j < i + 4; ++j) {
      max = std::fmax(max, a[j]);
      min = std::fmin(min, a[j]);
    }
    expected.insert(expected.end(), {max, min});
  }
  for (const char *variant : {"", "-O0"}) {
    cl_kernel k = cachedKernel("llvm_intrinsics", "reduce_float4", variant);
    cl_mem in = buffer(a), out = buffer<float>(expected.size());
    setArgs(k, out, in);
    run(k, {a.size() / 4});
    const std::vector<float> got = read<float>(out, expected.size());
    for (size_t i = 0; i < expected.size(); ++i)
      if (expected[i] != 0.0f) // fmax and fmin may return either zero of +0 and -0
        EXPECT_EQ(got[i], expected[i]) << variant << " at " << i;
      else
        EXPECT_EQ(got[i], 0.0f) << variant << " at " << i;
  }
}

// llvm.prefetch (__builtin_prefetch) is a hint: the kernel runs, its
// prefetch past the buffer's end included, and computes what it would
// without it.
TEST_F(LlvmIntrinsics, PrefetchIsAHint) {
  const std::vector<cl_int> a = values<cl_int>(100, 10);
  expectResults<cl_int>("prefetched_copy", a, {}, a);
}

} // namespace
} // namespace lanewise::test
