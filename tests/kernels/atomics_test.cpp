// SPDX-License-Identifier: Apache-2.0
// Atomics (cl/atomics.cl): final values computed from the inputs, and the old
// values each work-item got checked for consistency with some serial order.
#include "harness.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <numeric>
#include <random>

namespace lanewise::test {
namespace {

using Atomic = KernelTest;
const char *const variants[] = {"", "-O0"};
// The variant in messages: "" is the -O2 build.
std::string label(const char *variant) { return *variant ? variant : "-O2"; }

// The olds of atomic adds of deltas of one sign to one location (init ->
// final) are consistent with a serial order: sorted by old value (descending
// for negative deltas), each old is the previous old plus the previous delta.
template <typename T>
::testing::AssertionResult addChain(const std::vector<T> &olds, const std::vector<T> &deltas,
                                    T init, T final) {
  std::vector<size_t> order(olds.size());
  std::iota(order.begin(), order.end(), 0);
  const bool down = !deltas.empty() && deltas[0] < T(0);
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return down ? olds[a] > olds[b] : olds[a] < olds[b]; });
  T expected = init;
  for (size_t i : order) {
    if (olds[i] != expected)
      return ::testing::AssertionFailure()
             << "work-item " << i << " saw " << olds[i] << ", expected " << expected;
    expected = T(expected + deltas[i]);
  }
  if (expected != final)
    return ::testing::AssertionFailure() << "final " << final << ", expected " << expected;
  return ::testing::AssertionSuccess();
}

// The olds of a sequence of increments by `step` from init are a permutation
// of init, init + step, ...
template <typename T>::testing::AssertionResult permutation(std::vector<T> olds, T init, T step) {
  std::sort(olds.begin(), olds.end());
  if (step < T(0))
    std::reverse(olds.begin(), olds.end());
  for (size_t i = 0; i < olds.size(); ++i)
    if (olds[i] != T(init + T(i) * step))
      return ::testing::AssertionFailure()
             << "sorted old #" << i << " is " << olds[i] << ", expected " << T(init + T(i) * step);
  return ::testing::AssertionSuccess();
}

// The olds of exchanges of distinct values are a chain: together with the
// final value they are the initial value and every value written, once each.
template <typename T>
::testing::AssertionResult exchangeChain(std::vector<T> olds, std::vector<T> written, T init,
                                         T final) {
  olds.push_back(final);
  written.push_back(init);
  std::sort(olds.begin(), olds.end());
  std::sort(written.begin(), written.end());
  if (olds != written)
    return ::testing::AssertionFailure() << "olds and final are not the values written";
  return ::testing::AssertionSuccess();
}

template <typename T> std::vector<T> column(const std::vector<T> &rows, size_t width, size_t c) {
  std::vector<T> v;
  for (size_t r = 0; r * width < rows.size(); ++r)
    v.push_back(rows[r * width + c]);
  return v;
}

TEST_F(Atomic, LegacyFunctionsOnOneGlobalCounterAcrossWorkGroups) {
  for (const char *variant : variants) {
    const size_t n = 4096;
    std::mt19937 rng(21);
    std::vector<int> in(n);
    for (int &v : in)
      v = 1 + int(rng() % 1000);
    const std::vector<int> c0 = {10, 5000000, -7, 100, 0, 0, 0};
    const std::vector<cl_uint> u0 = {0xffffffffu, 0, 0x12345678u, 0xfffffff0u, 3};
    cl_mem C = buffer(c0), U = buffer(u0), O = buffer<int>(n * 12), I = buffer(in);
    cl_kernel k = kernel("atomics", "legacy_global", variant);
    setArgs(k, C, U, O, I);
    run(k, {n}, {64});
    const std::vector<int> c = read<int>(C, 7), olds = read<int>(O, n * 12);
    const std::vector<cl_uint> u = read<cl_uint>(U, 5);
    std::vector<int> ids(n), negated(n);
    std::iota(ids.begin(), ids.end(), 0);
    int minV = INT_MAX, maxV = INT_MIN;
    cl_uint orBits = 0, xorBits = u0[2], uMin = u0[3], uMax = u0[4];
    for (size_t i = 0; i < n; ++i) {
      negated[i] = -in[i];
      minV = std::min(minV, in[i] - 500);
      maxV = std::max(maxV, in[i] - 500);
      orBits |= 1u << (in[i] % 32);
      xorBits ^= cl_uint(in[i]) * 2654435761u;
      uMin = std::min(uMin, cl_uint(in[i]) * 7u);
      uMax = std::max(uMax, cl_uint(in[i]) * 7u);
    }
    EXPECT_TRUE(addChain(column(olds, 12, 0), in, c0[0], c[0])) << label(variant) << " atomic_add";
    EXPECT_TRUE(addChain(column(olds, 12, 1), negated, c0[1], c[1]))
        << label(variant) << " atomic_sub";
    EXPECT_TRUE(exchangeChain(column(olds, 12, 2), ids, c0[2], c[2]))
        << label(variant) << " atomic_xchg";
    EXPECT_TRUE(permutation(column(olds, 12, 3), c0[3], 1)) << label(variant) << " atomic_inc";
    EXPECT_EQ(c[3], c0[3] + int(n)) << label(variant) << " atomic_inc";
    EXPECT_TRUE(permutation(column(olds, 12, 4), c0[4], -1)) << label(variant) << " atomic_dec";
    EXPECT_EQ(c[4], c0[4] - int(n)) << label(variant) << " atomic_dec";
    EXPECT_EQ(c[5], std::min(c0[5], minV)) << label(variant) << " atomic_min";
    EXPECT_EQ(c[6], std::max(c0[6], maxV)) << label(variant) << " atomic_max";
    EXPECT_EQ(u[0], 0u) << label(variant) << " atomic_and";
    EXPECT_EQ(u[1], orBits) << label(variant) << " atomic_or";
    EXPECT_EQ(u[2], xorBits) << label(variant) << " atomic_xor";
    EXPECT_EQ(u[3], uMin) << label(variant) << " atomic_min (uint)";
    EXPECT_EQ(u[4], uMax) << label(variant) << " atomic_max (uint)";
    // Every old of min/max/and/or lies between the initial and the final value.
    for (size_t i = 0; i < n; ++i) {
      const int *o = &olds[i * 12];
      ASSERT_TRUE(o[5] >= c[5] && o[5] <= c0[5]) << label(variant) << " atomic_min old " << o[5];
      ASSERT_TRUE(o[6] <= c[6] && o[6] >= c0[6]) << label(variant) << " atomic_max old " << o[6];
      ASSERT_EQ(cl_uint(o[7]) & ~(1u << (i % 32)) & u[0], u[0])
          << label(variant) << " atomic_and old";
      ASSERT_EQ(cl_uint(o[8]) | orBits, orBits) << label(variant) << " atomic_or old";
      ASSERT_TRUE(cl_uint(o[10]) >= uMin && cl_uint(o[10]) <= u0[3]) << label(variant);
      ASSERT_TRUE(cl_uint(o[11]) <= uMax && cl_uint(o[11]) >= u0[4]) << label(variant);
    }
  }
}

TEST_F(Atomic, AtomicsInDivergentCode) {
  for (const char *variant : variants)
    for (size_t local : {64, 37}) {
      const size_t n = local * 20;
      std::mt19937 rng(27);
      std::vector<int> in(n);
      for (int &v : in)
        v = 1 + int(rng() % 1000);
      cl_mem C = buffer<int>(4), O = buffer<int>(n), I = buffer(in);
      cl_kernel k = kernel("atomics", "divergent_atomics", variant);
      setArgs(k, C, O, I);
      run(k, {n}, {local});
      const std::vector<int> c = read<int>(C, 4), olds = read<int>(O, n);
      int count3 = 0, loops[2] = {0, 0};
      std::vector<int> addOlds, addDeltas;
      for (size_t i = 0; i < n; ++i) {
        count3 += i % 3 == 0;
        loops[i & 1] += in[i] % 4;
        if (in[i] & 1) {
          addOlds.push_back(olds[i]);
          addDeltas.push_back(in[i]);
        } else {
          ASSERT_EQ(olds[i], -1) << label(variant) << " item " << i;
        }
      }
      const std::string what = label(variant) + " local " + std::to_string(local);
      EXPECT_EQ(c[0], count3) << what << " atomic_inc under if";
      EXPECT_TRUE(addChain(addOlds, addDeltas, 0, c[1])) << what << " atomic_add under if";
      EXPECT_EQ(c[2], loops[0]) << what << " atomic_inc in a divergent loop (even items)";
      EXPECT_EQ(c[3], loops[1]) << what << " atomic_inc in a divergent loop (odd items)";
    }
}

TEST_F(Atomic, FloatExchange) {
  for (const char *variant : variants) {
    const size_t n = 1000;
    cl_mem F = buffer(std::vector<float>{-3.25f}), O = buffer<float>(n);
    cl_kernel k = kernel("atomics", "float_xchg", variant);
    setArgs(k, F, O);
    run(k, {n}, {100});
    std::vector<float> written(n);
    for (size_t i = 0; i < n; ++i)
      written[i] = float(i) * 0.5f;
    EXPECT_TRUE(exchangeChain(read<float>(O, n), written, -3.25f, read<float>(F, 1)[0]))
        << label(variant);
  }
}

TEST_F(Atomic, CmpxchgLoopCounterGivesAPermutation) {
  for (const char *variant : variants) {
    const size_t n = 2000;
    cl_mem C = buffer<int>(1), O = buffer<int>(n);
    cl_kernel k = kernel("atomics", "cmpxchg_counter", variant);
    setArgs(k, C, O);
    run(k, {n}, {100});
    EXPECT_EQ(read<int>(C, 1)[0], int(n)) << label(variant);
    EXPECT_TRUE(permutation(read<int>(O, n), 0, 1)) << label(variant);
  }
}

TEST_F(Atomic, ContendedCountersLoseNoIncrement) {
  for (const char *variant : variants)
    for (size_t local : {128, 40}) {
      const size_t n = 40 * 128;
      const int rounds = 24;
      cl_mem C = buffer<int>(2), O = buffer<int>(2 * n * rounds);
      cl_kernel k = kernel("atomics", "contended_counters", variant);
      setArgs(k, C, O, cl_int{rounds});
      run(k, {n}, {local});
      const std::vector<int> c = read<int>(C, 2), olds = read<int>(O, 2 * n * rounds);
      const std::string what = label(variant) + " local " + std::to_string(local);
      EXPECT_EQ(c[0], int(n) * rounds) << what << " atomic_inc";
      EXPECT_EQ(c[1], int(n) * rounds) << what << " atomic_cmpxchg loop";
      EXPECT_TRUE(permutation(column(olds, 2, 0), 0, 1)) << what << " atomic_inc";
      EXPECT_TRUE(permutation(column(olds, 2, 1), 0, 1)) << what << " atomic_cmpxchg loop";
    }
}

TEST_F(Atomic, HistogramInGlobalAndLocalMemory) {
  const size_t n = 100000;
  std::mt19937 rng(22);
  std::vector<int> in(n);
  for (int &v : in)
    v = int(rng() % (rng() % 4 ? 64 : 3)); // a few very full bins
  std::vector<cl_uint> expected(64);
  for (int v : in)
    expected[v & 63]++;
  for (const char *variant : variants)
    for (const char *name : {"global_histogram", "local_histogram"})
      for (size_t local : {256, 50, 1024}) {
        cl_mem I = buffer(in), B = buffer<cl_uint>(64);
        cl_kernel k = kernel("atomics", name, variant);
        setArgs(k, I, B);
        run(k, {n}, {local});
        EXPECT_EQ(read<cl_uint>(B, 64), expected) << name << label(variant) << " local " << local;
      }
}

TEST_F(Atomic, LegacyFunctionsOnLocalCounters) {
  for (const char *variant : variants)
    for (size_t local : {64, 100, 1, 300}) {
      const size_t groups = 6, n = local * groups;
      std::mt19937 rng(23);
      std::vector<int> in(n);
      for (int &v : in)
        v = 1 + int(rng() % 100000);
      cl_mem I = buffer(in), O = buffer<int>(n * 8), G = buffer<int>(groups * 8);
      cl_kernel k = kernel("atomics", "legacy_local", variant);
      setArgs(k, I, O, G);
      run(k, {n}, {local});
      const std::vector<int> olds = read<int>(O, n * 8), got = read<int>(G, groups * 8);
      for (size_t g = 0; g < groups; ++g) {
        const std::string what =
            label(variant) + " local " + std::to_string(local) + " group " + std::to_string(g);
        std::vector<int> o[8], v(in.begin() + g * local, in.begin() + (g + 1) * local), ids(local);
        std::iota(ids.begin(), ids.end(), 0);
        for (int f = 0; f < 8; ++f)
          for (size_t l = 0; l < local; ++l)
            o[f].push_back(olds[(g * local + l) * 8 + f]);
        int minV = INT_MAX, maxV = INT_MIN, orBits = 0, andBits = -1, sum = 0;
        for (size_t l = 0; l < local; ++l) {
          minV = std::min(minV, v[l]);
          maxV = std::max(maxV, v[l]);
          orBits |= 1 << (l % 31);
          andBits &= ~(1 << (v[l] % 31));
          sum += v[l];
        }
        const int *c = &got[g * 8];
        EXPECT_EQ(c[0], int(local)) << what;
        EXPECT_TRUE(permutation(o[0], 0, 1)) << what << " atomic_inc";
        EXPECT_EQ(c[1], 1000 - int(local)) << what;
        EXPECT_TRUE(permutation(o[1], 1000, -1)) << what << " atomic_dec";
        EXPECT_TRUE(exchangeChain(o[2], ids, -1, c[2])) << what << " atomic_xchg";
        EXPECT_EQ(c[3], minV) << what << " atomic_min";
        EXPECT_EQ(c[4], maxV) << what << " atomic_max";
        EXPECT_EQ(c[5], orBits) << what << " atomic_or";
        EXPECT_EQ(c[6], andBits) << what << " atomic_and";
        EXPECT_TRUE(addChain(o[7], v, 0, c[7])) << what << " atomic_add";
        EXPECT_EQ(c[7], sum) << what;
      }
    }
}

TEST_F(Atomic, GenericAtomicsInGlobalMemory) {
  for (const char *variant : variants) {
    const size_t n = 3000;
    std::mt19937 rng(24);
    std::vector<int> in(n);
    for (int &v : in)
      v = 1 + int(rng() % 1000);
    std::vector<int> c0(6 + n, 0);
    c0[0] = 3;
    c0[1] = 1 << 24;
    c0[2] = -5;
    c0[3] = 1000;
    c0[4] = -1000;
    c0[5] = 7;
    const std::vector<cl_uint> u0 = {0x100u, 0xffffffffu, 0xabcdefu};
    cl_mem C = buffer(c0), U = buffer(u0), O = buffer<int>(n * 10), I = buffer(in);
    cl_kernel k = kernel("atomics", "generic_global", variant);
    setArgs(k, C, U, O, I);
    run(k, {n}, {128});
    const std::vector<int> c = read<int>(C, 6 + n), olds = read<int>(O, n * 10);
    const std::vector<cl_uint> u = read<cl_uint>(U, 3);
    std::vector<int> ids(n), negated(n);
    std::iota(ids.begin(), ids.end(), 0);
    int minV = c0[3], maxV = c0[4];
    cl_uint orBits = u0[0], xorBits = u0[2];
    for (size_t i = 0; i < n; ++i) {
      negated[i] = -in[i];
      minV = std::min(minV, in[i] - 500);
      maxV = std::max(maxV, in[i] - 500);
      orBits |= 1u << (in[i] % 32);
      xorBits ^= cl_uint(in[i]) * 40503u;
    }
    EXPECT_TRUE(addChain(column(olds, 10, 0), in, c0[0], c[0])) << label(variant) << " fetch_add";
    EXPECT_TRUE(addChain(column(olds, 10, 1), negated, c0[1], c[1]))
        << label(variant) << " fetch_sub";
    EXPECT_TRUE(exchangeChain(column(olds, 10, 2), ids, c0[2], c[2]))
        << label(variant) << " exchange";
    EXPECT_EQ(c[3], minV) << label(variant) << " fetch_min";
    EXPECT_EQ(c[4], maxV) << label(variant) << " fetch_max";
    EXPECT_EQ(u[0], orBits) << label(variant) << " fetch_or";
    EXPECT_EQ(u[1], 0u) << label(variant) << " fetch_and";
    EXPECT_EQ(u[2], xorBits) << label(variant) << " fetch_xor";
    EXPECT_EQ(c[5], c0[5] + int(n)) << label(variant) << " compare_exchange_strong";
    EXPECT_TRUE(permutation(column(olds, 10, 8), c0[5], 1))
        << label(variant) << " compare_exchange";
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(c[6 + i], in[i] * 3) << label(variant) << " atomic_store " << i;
      ASSERT_EQ(olds[i * 10 + 9], in[i] * 3) << label(variant) << " atomic_load " << i;
      ASSERT_TRUE(olds[i * 10 + 3] >= minV && olds[i * 10 + 3] <= c0[3]) << label(variant);
      ASSERT_TRUE(olds[i * 10 + 4] <= maxV && olds[i * 10 + 4] >= c0[4]) << label(variant);
    }
  }
}

TEST_F(Atomic, GenericAtomicsInLocalMemoryWorkGroupScope) {
  for (const char *variant : variants)
    for (size_t local : {128, 37, 260}) {
      const size_t groups = 5, n = local * groups;
      std::mt19937 rng(25);
      std::vector<int> in(n);
      for (int &v : in)
        v = 1 + int(rng() % 100000);
      cl_mem I = buffer(in), O = buffer<int>(n * 3), G = buffer<int>(groups * 4);
      cl_kernel k = kernel("atomics", "generic_local", variant);
      setArgs(k, I, O, G);
      run(k, {n}, {local});
      const std::vector<int> olds = read<int>(O, n * 3), got = read<int>(G, groups * 4);
      for (size_t g = 0; g < groups; ++g) {
        const std::string what =
            label(variant) + " local " + std::to_string(local) + " group " + std::to_string(g);
        std::vector<int> v(in.begin() + g * local, in.begin() + (g + 1) * local);
        std::vector<int> o0, o1, o2;
        for (size_t l = 0; l < local; ++l) {
          o0.push_back(olds[(g * local + l) * 3]);
          o1.push_back(olds[(g * local + l) * 3 + 1]);
          o2.push_back(olds[(g * local + l) * 3 + 2]);
        }
        EXPECT_EQ(got[g * 4], int(local)) << what;
        EXPECT_TRUE(permutation(o0, 0, 1)) << what << " fetch_add 1";
        EXPECT_TRUE(addChain(o1, v, 0, got[g * 4 + 1])) << what << " fetch_add";
        EXPECT_EQ(got[g * 4 + 1], std::accumulate(v.begin(), v.end(), 0)) << what;
        EXPECT_EQ(got[g * 4 + 2], std::min(1 << 30, *std::min_element(v.begin(), v.end())))
            << what << " fetch_min";
        EXPECT_EQ(got[g * 4 + 3], 2 * int(local)) << what << " compare_exchange";
        EXPECT_TRUE(permutation(o2, 0, 2)) << what << " compare_exchange";
      }
    }
}

// Each read-modify-write on __local objects of each integer type
// (plain reads and writes in lane order, runtime/exec_memory.cpp), against
// the work-group's values folded here.
class LocalAtomic : public KernelTest {
protected:
  template <typename T> void everyOp(const char *name);
};

template <typename T> void LocalAtomic::everyOp(const char *name) {
  for (const char *variant : variants)
    for (size_t local : {128, 37, 1}) {
      const size_t groups = 4, n = local * groups;
      std::mt19937 rng(31);
      std::vector<T> in(n);
      for (size_t i = 0; i < n; ++i)
        in[i] = T(1 + rng() % 100000) + T(i); // distinct, for the exchange
      cl_mem I = buffer(in), F = buffer<T>(groups * 9), O = buffer<T>(n * 2);
      cl_kernel k = kernel("atomics", std::string("every_local_op_") + name, variant);
      ASSERT_NE(k, nullptr);
      setArgs(k, I, F, O);
      run(k, {n}, {local});
      const std::vector<T> finals = read<T>(F, groups * 9), olds = read<T>(O, n * 2);
      constexpr T bits = T(sizeof(T) * 8);
      for (size_t g = 0; g < groups; ++g) {
        const std::string what = std::string(name) + " " + label(variant) + " local " +
                                 std::to_string(local) + " group " + std::to_string(g);
        T want[9] = {T(5), T(1000), T(-1), T(0), T(0x5a5a), T(T(1) << (bits - 2)),
                     T(0), T(0),    T(-77)};
        std::vector<T> seen, exchanged, written;
        for (size_t l = 0; l < local; ++l) {
          const T v = in[g * local + l];
          want[0] = T(want[0] + v);
          want[1] = T(want[1] - v);
          want[2] &= T(~(T(1) << (v % bits)));
          want[3] |= T(T(1) << ((v / 3) % bits));
          want[4] ^= T(v * T(40503));
          want[5] = std::min(want[5], T(v - T(500)));
          want[6] = std::max(want[6], T(v - T(500)));
          seen.push_back(olds[(g * local + l) * 2]);
          exchanged.push_back(olds[(g * local + l) * 2 + 1]);
          written.push_back(v);
        }
        want[7] = T(local);
        for (size_t j = 0; j < 8; ++j)
          EXPECT_EQ(finals[g * 9 + j], want[j]) << what << " object " << j;
        EXPECT_TRUE(permutation(seen, T(0), T(1))) << what << " compare-exchange";
        EXPECT_TRUE(exchangeChain(exchanged, written, T(-77), finals[g * 9 + 8]))
            << what << " exchange";
      }
    }
}

TEST_F(LocalAtomic, EveryOperationOnObjectsOfEachIntegerType) {
  everyOp<cl_int>("int");
  everyOp<cl_uint>("uint");
  everyOp<cl_long>("long");
  everyOp<cl_ulong>("ulong");
}

TEST_F(Atomic, SixtyFourBitAtomics) {
  for (const char *variant : variants) {
    const size_t n = 1000;
    std::mt19937_64 rng(26);
    std::vector<cl_long> in(n);
    for (cl_long &v : in)
      v = cl_long(rng() >> 24) - (cl_long(1) << 39); // 40-bit signed
    std::vector<cl_long> positive(n);
    for (size_t i = 0; i < n; ++i)
      positive[i] = (in[i] & 0xffffffffffll) + 1; // the deltas of the add chains must be > 0
    const std::vector<cl_long> c0 = {cl_long(1) << 45, cl_long(1) << 50,   -3, cl_long(1) << 40, 0,
                                     LLONG_MAX,        -(cl_long(1) << 50)};
    const std::vector<cl_ulong> u0 = {5, 0, 0x0123456789abcdefull};
    cl_mem C = buffer(c0), U = buffer(u0), O = buffer<cl_long>(n * 9), I = buffer(positive);
    cl_kernel k = kernel("atomics", "atomics64", variant);
    setArgs(k, C, U, O, I);
    run(k, {n}, {50});
    const std::vector<cl_long> c = read<cl_long>(C, 7), olds = read<cl_long>(O, n * 9);
    const std::vector<cl_ulong> u = read<cl_ulong>(U, 3);
    std::vector<cl_long> negated(n), written(n);
    cl_long minV = c0[5];
    cl_ulong maxU = u0[0], orBits = 0, xorBits = u0[2];
    for (size_t i = 0; i < n; ++i) {
      const cl_long v = positive[i];
      negated[i] = -v;
      written[i] = cl_long(i) << 33;
      minV = std::min(minV, v);
      maxU = std::max(maxU, cl_ulong(v));
      orBits |= cl_ulong(1) << (i % 64);
      xorBits ^= cl_ulong(v) * 0x9e3779b97f4a7c15ull;
    }
    EXPECT_TRUE(addChain(column(olds, 9, 0), positive, c0[0], c[0]))
        << label(variant) << " atom_add";
    EXPECT_TRUE(addChain(column(olds, 9, 1), negated, c0[1], c[1]))
        << label(variant) << " atom_sub";
    EXPECT_TRUE(exchangeChain(column(olds, 9, 2), written, c0[2], c[2]))
        << label(variant) << " atom_xchg";
    EXPECT_TRUE(permutation(column(olds, 9, 3), c0[3], cl_long(1)))
        << label(variant) << " atom_inc";
    EXPECT_EQ(c[3], c0[3] + cl_long(n)) << label(variant);
    // atom_cmpxchg(c[4], i, i + 1) succeeds for work-items 0..K-1 in order.
    const cl_long K = c[4];
    EXPECT_GE(K, 1) << label(variant) << " atom_cmpxchg";
    for (size_t i = 0; i < n; ++i) {
      const cl_long old = olds[i * 9 + 4];
      ASSERT_TRUE(cl_long(i) < K ? old == cl_long(i) : old != cl_long(i) && old <= K)
          << label(variant) << " atom_cmpxchg: work-item " << i << " saw " << old << ", final "
          << K;
    }
    EXPECT_EQ(c[5], minV) << label(variant) << " atom_min";
    EXPECT_EQ(u[0], maxU) << label(variant) << " atom_max";
    EXPECT_EQ(u[1], orBits) << label(variant) << " atom_or";
    EXPECT_TRUE(addChain(column(olds, 9, 8), positive, c0[6], c[6]))
        << label(variant) << " atomic_fetch_add_explicit (atomic_long)";
    EXPECT_EQ(u[2], xorBits) << label(variant) << " atomic_fetch_xor_explicit (atomic_ulong)";
  }
}

TEST_F(Atomic, FlagTestAndSetAndClear) {
  for (const char *variant : variants) {
    const size_t n = 400;
    cl_mem F = buffer<cl_int>(8), O = buffer<cl_int>(n);
    cl_kernel k = kernel("atomics", "flags", variant);
    for (int round = 0; round < 2; ++round) {
      setArgs(k, F, O, 0);
      run(k, {n}, {40});
      const std::vector<cl_int> olds = read<cl_int>(O, n);
      int clearSeen[8] = {};
      for (size_t i = 0; i < n; ++i) {
        ASSERT_TRUE(olds[i] == 0 || olds[i] == 1) << label(variant) << " item " << i;
        clearSeen[i % 8] += olds[i] == 0;
      }
      for (int f = 0; f < 8; ++f)
        EXPECT_EQ(clearSeen[f], 1) << label(variant) << " round " << round << " flag " << f;
      setArgs(k, F, O, 1); // clear every flag
      run(k, {n}, {40});
    }
  }
}

} // namespace
} // namespace lanewise::test
