// SPDX-License-Identifier: Apache-2.0
// Memory (cl/memory.cl): __local memory and barriers, private arrays and
// structs, the OpenCL C struct layout, program-scope data, pointer casts,
// async copies, and loads/stores of every scalar and vector type.
#include "harness.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <map>
#include <random>

namespace lanewise::test {
namespace {

const char *const variants[] = {"", "-O0"};
// The variant in messages: "" is the -O2 build.
std::string label(const char *variant) { return *variant ? variant : "-O2"; }

// Builds memory.cl once per variant in a test (it has many kernels).
class Memory : public KernelTest {
protected:
  cl_kernel kernel(const char *file, const std::string &name, const char *variant) {
    cl_program &p = programs_[variant];
    if (!p)
      p = program(file, variant);
    if (!p)
      return nullptr;
    cl_int error = CL_SUCCESS;
    cl_kernel k = clCreateKernel(p, name.c_str(), &error);
    EXPECT_EQ(error, CL_SUCCESS) << name;
    if (k)
      kernels_.push_back(k);
    return k;
  }
  void TearDown() override {
    if (queue)
      clFinish(queue);
    for (cl_kernel k : kernels_)
      clReleaseKernel(k);
    KernelTest::TearDown();
  }

private:
  std::map<std::string, cl_program> programs_;
  std::vector<cl_kernel> kernels_;
};

std::vector<int> randomInts(size_t n, int lo, int hi, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<int> v(n);
  for (int &x : v)
    x = lo + int(rng() % unsigned(hi - lo));
  return v;
}

// ---------------------------------------------------------------------------
// __local memory and barriers

TEST_F(Memory, LocalArrayReversesEachWorkGroup) {
  for (const char *variant : variants)
    for (size_t local : {256, 100, 1}) {
      const size_t n = local * 5;
      std::vector<int> in = randomInts(n, -1000, 1000, 1);
      cl_mem I = buffer(in), O = buffer<int>(n);
      cl_kernel k = kernel("memory", "local_reverse", variant);
      setArgs(k, I, O);
      run(k, {n}, {local});
      std::vector<int> out = read<int>(O, n);
      for (size_t i = 0; i < n; ++i) {
        const size_t g = i / local, l = i % local;
        ASSERT_EQ(out[i], in[g * local + local - 1 - l])
            << label(variant) << " local " << local << " at " << i;
      }
    }
}

TEST_F(Memory, PrefixSumWithLocalArgumentsAndBarriersInALoop) {
  for (const char *variant : variants)
    for (size_t local : {256, 100, 37, 1024}) {
      const size_t n = local * 3;
      std::vector<int> in = randomInts(n, -50, 50, 2);
      cl_mem I = buffer(in), O = buffer<int>(n);
      cl_kernel k = kernel("memory", "local_scan", variant);
      setArgs(k, I, O, Local{local * sizeof(int)}, Local{local * sizeof(int)});
      run(k, {n}, {local});
      std::vector<int> out = read<int>(O, n);
      int sum = 0;
      for (size_t i = 0; i < n; ++i) {
        sum = (i % local == 0 ? 0 : sum) + in[i];
        ASSERT_EQ(out[i], sum) << label(variant) << " local " << local << " at " << i;
      }
    }
}

TEST_F(Memory, TransposeThroughALocalTileIn2DWorkGroups) {
  for (const char *variant : variants) {
    const int w = 50, h = 37;
    std::vector<float> in(w * h);
    for (int i = 0; i < w * h; ++i)
      in[i] = float(i) * 0.5f - 7.0f;
    cl_mem I = buffer(in), O = buffer(std::vector<float>(w * h, -1.0f));
    cl_kernel k = kernel("memory", "transpose", variant);
    setArgs(k, I, O, w, h);
    run(k, {64, 48}, {16, 16});
    std::vector<float> out = read<float>(O, w * h);
    for (int r = 0; r < h; ++r)
      for (int c = 0; c < w; ++c)
        ASSERT_EQ(out[c * h + r], in[r * w + c])
            << label(variant) << " row " << r << " column " << c;
  }
}

TEST_F(Memory, BarrierAfterDivergentCodeThatReconverges) {
  for (const char *variant : variants)
    for (size_t local : {96, 100, 512, 3}) {
      const size_t n = local * 4;
      std::vector<int> in = randomInts(n, 0, 1000, 3);
      cl_mem I = buffer(in), O = buffer<int>(n);
      cl_kernel k = kernel("memory", "barrier_after_divergence", variant);
      setArgs(k, I, O, Local{local * sizeof(int)});
      run(k, {n}, {local});
      std::vector<int> out = read<int>(O, n);
      for (size_t g = 0; g < n / local; ++g) {
        std::vector<int> t(local), r(local);
        for (size_t l = 0; l < local; ++l) {
          const int v = in[g * local + l];
          if (l % 3 == 0) {
            int s = 0;
            for (int kk = 0; kk < v % 11; ++kk)
              s += kk ^ v;
            t[l] = s;
          } else {
            t[l] = l % 3 == 1 ? -v : v * 2;
          }
        }
        for (size_t l = 0; l < local; ++l)
          r[l] = t[(l + 1) % local] + t[(l + local - 1) % local];
        for (size_t l = 0; l < local; ++l)
          ASSERT_EQ(out[g * local + l], r[local - 1 - l] - r[l])
              << label(variant) << " local " << local << " group " << g << " item " << l;
      }
    }
}

TEST_F(Memory, LocalScalarBroadcastInAUniformLoop) {
  for (const char *variant : variants)
    for (size_t local : {64, 70, 1, 300}) {
      const size_t n = local * 3;
      const int rounds = 5;
      std::vector<int> in = randomInts(n, -100, 100, 4);
      cl_mem I = buffer(in), O = buffer<int>(n);
      cl_kernel k = kernel("memory", "local_broadcast", variant);
      setArgs(k, I, O, rounds);
      run(k, {n}, {local});
      std::vector<int> out = read<int>(O, n);
      for (size_t i = 0; i < n; ++i) {
        const size_t g = i / local, l = i % local;
        int acc = 0;
        for (int r = 0; r < rounds; ++r)
          acc += (in[g * local + r % local] + r) * int(l + 1);
        ASSERT_EQ(out[i], acc) << label(variant) << " local " << local << " at " << i;
      }
    }
}

TEST_F(Memory, LocalArraysAndLocalArgumentsDoNotOverlap) {
  for (const char *variant : variants)
    for (size_t local : {64, 100, 7, 260}) {
      const size_t n = local * 3;
      cl_mem O = buffer<int>(n * 5);
      cl_kernel k = kernel("memory", "local_layout", variant);
      setArgs(k, O, Local{local * sizeof(int)}, Local{local * sizeof(short)});
      run(k, {n}, {local});
      std::vector<int> out = read<int>(O, n * 5);
      for (size_t i = 0; i < n; ++i) {
        const int l = int(i % local), last = int(local) - 1;
        const int expected[5] = {1000 + last - l, 2000 + last - l, 3000 + l % 33, 40 + l % 5,
                                 l % 3};
        for (int f = 0; f < 5; ++f)
          ASSERT_EQ(out[i * 5 + f], expected[f])
              << label(variant) << " local " << local << " item " << i << " field " << f;
      }
    }
}

TEST_F(Memory, BarrierInALoopWithAPerGroupTripCountFromMemory) {
  for (const char *variant : variants)
    for (size_t local : {64, 100, 300}) {
      const size_t groups = 6, n = local * groups;
      std::vector<int> trips = randomInts(groups, 0, 10, 14);
      trips[1] = 0;
      cl_mem T = buffer(trips), O = buffer<int>(n);
      cl_kernel k = kernel("memory", "barrier_loop_group_trip_count", variant);
      setArgs(k, T, O, Local{local * sizeof(int)});
      run(k, {n}, {local});
      std::vector<int> out = read<int>(O, n);
      for (size_t g = 0; g < groups; ++g) {
        std::vector<int> acc(local);
        for (size_t l = 0; l < local; ++l)
          acc[l] = int(l);
        for (int t = 0; t < trips[g]; ++t) {
          for (size_t l = 0; l < local; ++l)
            if ((l + t) % 3 == 0)
              for (int kk = 0; kk < int(l % 5); ++kk)
                acc[l] += kk;
          std::vector<int> next(local);
          for (size_t l = 0; l < local; ++l)
            next[l] = acc[(l + 1) % local] + t;
          acc = next;
        }
        for (size_t l = 0; l < local; ++l)
          ASSERT_EQ(out[g * local + l], acc[l]) << label(variant) << " local " << local << " group "
                                                << g << " (" << trips[g] << " trips) item " << l;
      }
    }
}

TEST_F(Memory, BarrierInACalledFunction) {
  for (const char *variant : variants)
    for (size_t local : {64, 33, 200}) {
      const size_t n = local * 4;
      std::vector<int> in = randomInts(n, -1000, 1000, 15);
      cl_mem I = buffer(in), O = buffer<int>(n);
      cl_kernel k = kernel("memory", "barrier_in_function", variant);
      setArgs(k, I, O, Local{local * sizeof(int)});
      run(k, {n}, {local});
      std::vector<int> out = read<int>(O, n);
      for (size_t i = 0; i < n; ++i) {
        const size_t g = i / local, l = i % local;
        ASSERT_EQ(out[i], in[g * local + (l + 2 * local - 2) % local] * 4)
            << label(variant) << " local " << local << " item " << i;
      }
    }
}

TEST_F(Memory, GenericPointersToGlobalLocalAndPrivateMemory) {
  for (const char *variant : variants) {
    const size_t n = 200;
    std::vector<int> in = randomInts(n + 2, 0, 1000, 16);
    cl_mem I = buffer(in), O = buffer<int>(n * 3);
    cl_kernel k = kernel("memory", "generic_pointers", variant);
    setArgs(k, I, O);
    run(k, {n}, {50});
    std::vector<int> out = read<int>(O, n * 3);
    auto sum3 = [](const int *p) { return p[0] + p[1] * 10 + p[2] * 100; };
    for (size_t i = 0; i < n; ++i) {
      const int priv[3] = {in[i] % 10, (in[i] >> 4) & 7, 7};
      const int tmp[3] = {in[i] % 2, in[i] % 3, in[i] % 4};
      const int r = sum3(&in[i]) + sum3(tmp) * 1000 + sum3(priv) * 7;
      ASSERT_EQ(out[i * 3], r + sum3((i & 1) ? priv : tmp)) << label(variant) << " item " << i;
      ASSERT_EQ(out[i * 3 + 1], r) << label(variant) << " item " << i;
      ASSERT_EQ(out[i * 3 + 2], -r) << label(variant) << " item " << i;
    }
  }
}

TEST_F(Memory, PointerSelectBetweenTwoBuffers) {
  for (const char *variant : variants) {
    const size_t n = 256;
    std::vector<int> in = randomInts(n, 0, 1000, 17);
    cl_mem A = buffer(std::vector<int>(n, -1)), B = buffer(std::vector<int>(n, -1)), I = buffer(in);
    cl_kernel k = kernel("memory", "pointer_select", variant);
    setArgs(k, A, B, I);
    run(k, {n}, {64});
    std::vector<int> a = read<int>(A, n), b = read<int>(B, n);
    for (size_t i = 0; i < n; ++i) {
      const bool toA = ((in[i] & 1) != 0) != ((in[i] % 3) % 2 != 0);
      ASSERT_EQ(a[i], toA ? in[i] : -1) << label(variant) << " item " << i;
      ASSERT_EQ(b[i], toA ? -1 : in[i]) << label(variant) << " item " << i;
    }
  }
}

TEST_F(Memory, DynamicVectorComponentsAndArraysOfVectors) {
  for (const char *variant : variants) {
    const size_t n = 200;
    std::vector<int> in = randomInts(n, 0, 1000, 18);
    cl_mem I = buffer(in), O = buffer<int>(n * 4);
    cl_kernel k = kernel("memory", "vector_components", variant);
    setArgs(k, I, O);
    run(k, {n}, {40});
    std::vector<int> out = read<int>(O, n * 4);
    for (size_t i = 0; i < n; ++i) {
      const int x = in[i], m = int(i) + 1;
      int v[8] = {x * m, m, 2 * m, 3 * m, 4 * m, 5 * m, 6 * m, 7 * m};
      int arr[3][4];
      for (int kk = 0; kk < 3; ++kk) {
        arr[kk][0] = kk;
        arr[kk][1] = kk * 2;
        arr[kk][2] = kk * 3;
        arr[kk][3] = x;
      }
      const int j = x & 7;
      v[j] = -1;
      arr[x % 3][j & 3] += 100;
      const int expected[4] = {v[(j + 1) & 7] + v[j],
                               arr[0][3] + arr[1][j & 3] + arr[2][(j + 2) & 3], v[7] + v[0],
                               arr[x % 3][j & 3]};
      for (int f = 0; f < 4; ++f)
        ASSERT_EQ(out[i * 4 + f], expected[f]) << label(variant) << " item " << i << " field " << f;
    }
  }
}

TEST_F(Memory, ConstantPointerArgumentAndLocalBytes) {
  for (const char *variant : variants) {
    const size_t n = 256, local = 64;
    const int size = 37;
    std::vector<int> table = randomInts(size, -100000, 100000, 19);
    std::vector<int> in = randomInts(n, 0, 1000, 20);
    cl_mem T = buffer(table), I = buffer(in), O = buffer<int>(n * 2);
    cl_kernel k = kernel("memory", "constant_arg", variant);
    setArgs(k, T, size, I, O);
    run(k, {n}, {local});
    std::vector<int> out = read<int>(O, n * 2);
    for (size_t i = 0; i < n; ++i) {
      const size_t g = i / local, l = i % local;
      const size_t byte = (4 * l + 5) % 256, word = g * local + byte / 4;
      const uint8_t expectedByte = uint8_t(uint32_t(table[in[word] % size]) >> (8 * (byte % 4)));
      ASSERT_EQ(out[i * 2], table[in[i] % size]) << label(variant) << " item " << i;
      ASSERT_EQ(out[i * 2 + 1], int(expectedByte)) << label(variant) << " item " << i;
    }
  }
}

// ---------------------------------------------------------------------------
// Private memory

TEST_F(Memory, PrivateHistogramIndexedByData) {
  for (const char *variant : variants) {
    const size_t n = 200;
    std::vector<uint8_t> in(n * 32);
    std::mt19937 rng(5);
    for (uint8_t &b : in)
      b = uint8_t(rng() % (rng() % 2 ? 256 : 5)); // some bins much fuller than others
    cl_mem I = buffer(in), O = buffer<int>(n * 16);
    cl_kernel k = kernel("memory", "private_histogram", variant);
    setArgs(k, I, O);
    run(k, {n}, {64});
    std::vector<int> out = read<int>(O, n * 16);
    for (size_t i = 0; i < n; ++i) {
      int h[16] = {};
      for (int kk = 0; kk < 32; ++kk)
        h[in[i * 32 + kk] & 15]++;
      for (int b = 0; b < 16; ++b)
        ASSERT_EQ(out[i * 16 + b], h[b]) << label(variant) << " item " << i << " bin " << b;
    }
  }
}

TEST_F(Memory, PrivateInsertionSort) {
  for (const char *variant : variants) {
    const size_t n = 150;
    std::vector<int> in = randomInts(n * 12, -20, 20, 6);
    cl_mem I = buffer(in), O = buffer<int>(n * 12);
    cl_kernel k = kernel("memory", "private_sort", variant);
    setArgs(k, I, O);
    run(k, {n}, {50});
    std::vector<int> out = read<int>(O, n * 12);
    for (size_t i = 0; i < n; ++i) {
      std::vector<int> expected(in.begin() + i * 12, in.begin() + i * 12 + 12);
      std::sort(expected.begin(), expected.end());
      for (int kk = 0; kk < 12; ++kk)
        ASSERT_EQ(out[i * 12 + kk], expected[kk])
            << label(variant) << " item " << i << " index " << kk;
    }
  }
}

TEST_F(Memory, PrivateArrayOfStructs) {
  for (const char *variant : variants) {
    const size_t n = 130;
    std::vector<int> in = randomInts(n * 6, 0, 100, 7);
    cl_mem I = buffer(in), O = buffer<int>(n * 4);
    cl_kernel k = kernel("memory", "private_structs", variant);
    setArgs(k, I, O);
    run(k, {n}, {65});
    std::vector<int> out = read<int>(O, n * 4);
    for (size_t i = 0; i < n; ++i) {
      const int *key = &in[i * 6];
      int best = 0;
      for (int kk = 1; kk < 6; ++kk)
        if (key[kk] > key[best])
          best = kk;
      int order[6] = {0, 1, 2, 3, 4, 5}; // original index of the item now at each slot
      std::swap(order[0], order[best]);
      const int j = key[0] % 6;
      const int expected[4] = {key[best], best, (order[j] - 3) * 100 + order[j] * 3 + 2, key[0]};
      for (int f = 0; f < 4; ++f)
        ASSERT_EQ(out[i * 4 + f], expected[f]) << label(variant) << " item " << i << " field " << f;
    }
  }
}

// ---------------------------------------------------------------------------
// Struct layout

// The OpenCL C layout of `Layout` in memory.cl: 3-component vectors have the
// size and alignment of 4 components.
struct alignas(16) Layout {
  cl_char c;
  cl_int i;
  cl_float3 v;
  cl_short s;
  cl_double d;
  cl_long l;
  cl_uchar3 u;
  cl_float2 f2;
};
static_assert(offsetof(Layout, i) == 4 && offsetof(Layout, v) == 16 && offsetof(Layout, s) == 32 &&
              offsetof(Layout, d) == 40 && offsetof(Layout, l) == 48 && offsetof(Layout, u) == 56 &&
              offsetof(Layout, f2) == 64 && sizeof(Layout) == 80);

Layout makeLayout(int seed) {
  Layout x;
  std::memset(&x, 0, sizeof x);
  x.c = cl_char(seed % 100 - 50);
  x.i = seed * 1000 - 7;
  x.v.s[0] = 0.5f * seed;
  x.v.s[1] = -1.25f;
  x.v.s[2] = 3.0f + seed;
  x.s = cl_short(-300 + seed);
  x.d = 1e10 + seed * 0.125;
  x.l = (cl_long(seed) << 40) + 12345;
  x.u.s[0] = cl_uchar(seed);
  x.u.s[1] = 200;
  x.u.s[2] = cl_uchar(seed * 7);
  x.f2.s[0] = -0.75f;
  x.f2.s[1] = 64.0f + seed;
  return x;
}

TEST_F(Memory, StructByValueArgumentAndStructArrayLayout) {
  for (const char *variant : variants) {
    const size_t n = 40;
    const Layout s = makeLayout(3);
    std::vector<Layout> arr;
    for (size_t i = 0; i < n; ++i)
      arr.push_back(makeLayout(int(i) + 10));
    cl_mem A = buffer(arr), O = buffer<double>(n * 12);
    cl_kernel k = kernel("memory", "struct_arg", variant);
    setArgs(k, s, A, O);
    run(k, {n}, {8});
    std::vector<double> out = read<double>(O, n * 12);
    std::vector<Layout> got = read<Layout>(A, n);
    for (size_t i = 0; i < n; ++i) {
      const double expected[12] = {
          double(s.c), double(s.i), s.v.s[0],
          s.v.s[1],    s.v.s[2],    double(s.s),
          s.d,         double(s.l), double(s.u.s[0] + s.u.s[1] * 256 + s.u.s[2] * 65536),
          s.f2.s[1],   80.0,        double(arr[i].i)};
      for (int f = 0; f < 12; ++f)
        ASSERT_EQ(out[i * 12 + f], expected[f])
            << label(variant) << " item " << i << " field " << f;
      const Layout &a = arr[i], &g = got[i];
      EXPECT_EQ(g.c, cl_char(a.c + 1)) << label(variant) << " item " << i;
      EXPECT_EQ(g.i, a.i * 2 + int(i)) << label(variant) << " item " << i;
      EXPECT_EQ(g.v.s[0], a.v.s[2] + s.v.s[0]) << label(variant) << " item " << i;
      EXPECT_EQ(g.v.s[1], a.v.s[0] + s.v.s[1]) << label(variant) << " item " << i;
      EXPECT_EQ(g.v.s[2], a.v.s[1] + s.v.s[2]) << label(variant) << " item " << i;
      EXPECT_EQ(g.s, cl_short(a.s - 7)) << label(variant) << " item " << i;
      EXPECT_EQ(g.d, a.d * 0.5) << label(variant) << " item " << i;
      EXPECT_EQ(g.l, a.l + s.l) << label(variant) << " item " << i;
      EXPECT_EQ(g.u.s[0], a.u.s[1]) << label(variant) << " item " << i;
      EXPECT_EQ(g.u.s[1], a.u.s[2]) << label(variant) << " item " << i;
      EXPECT_EQ(g.u.s[2], a.u.s[0]) << label(variant) << " item " << i;
      EXPECT_EQ(g.f2.s[0], a.f2.s[1]) << label(variant) << " item " << i;
      ASSERT_EQ(g.f2.s[1], a.f2.s[0]) << label(variant) << " item " << i;
    }
  }
}

// ---------------------------------------------------------------------------
// Program-scope data

TEST_F(Memory, ProgramScopeConstantArrays) {
  const int primes[10] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29};
  const float pairs[3][2] = {{1.5f, -2.0f}, {0.25f, 8.0f}, {-3.0f, 4.5f}};
  const int cs[2][2] = {{-5, 100000}, {7, -3}};
  for (const char *variant : variants) {
    const size_t n = 100;
    std::vector<int> in = randomInts(n, 0, 1000, 8);
    cl_mem I = buffer(in), O = buffer<float>(n * 4);
    cl_kernel k = kernel("memory", "constant_tables", variant);
    setArgs(k, I, O);
    run(k, {n}, {25});
    std::vector<float> out = read<float>(O, n * 4);
    for (size_t i = 0; i < n; ++i) {
      const int v = in[i];
      const float expected[4] = {float(primes[v % 10]), pairs[v % 3][0], pairs[v % 3][1],
                                 float(cs[v & 1][0] + cs[(v >> 1) & 1][1])};
      for (int f = 0; f < 4; ++f)
        ASSERT_EQ(out[i * 4 + f], expected[f]) << label(variant) << " item " << i << " field " << f;
    }
  }
}

TEST_F(Memory, ProgramScopeGlobalsKeepTheirValuesBetweenLaunches) {
  for (const char *variant : variants) {
    cl_program p = program("memory", variant);
    ASSERT_NE(p, nullptr);
    cl_int error = CL_SUCCESS;
    cl_kernel get = clCreateKernel(p, "globals_get", &error);
    ASSERT_EQ(error, CL_SUCCESS);
    cl_kernel set = clCreateKernel(p, "globals_set", &error);
    ASSERT_EQ(error, CL_SUCCESS);
    cl_mem O = buffer<int>(16);
    int counter = 5, garr[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    float scale = 0.5f;
    for (int add : {0, 3, -10, 100}) {
      if (add) {
        setArgs(set, add);
        run(set, {32}, {8});
        for (int i = 0; i < 8; ++i)
          garr[i] += add * (i + 1);
        counter += add;
        scale *= 2.0f;
      }
      setArgs(get, O);
      run(get, {16}, {4});
      std::vector<int> out = read<int>(O, 16);
      for (int i = 0; i < 16; ++i)
        EXPECT_EQ(out[i], garr[i % 8] * 1000 + counter + int(scale * 8.0f))
            << label(variant) << " after adding " << add << ", item " << i;
    }
    clReleaseKernel(get);
    clReleaseKernel(set);
  }
}

// Built from source (Lanewise's own clang and llvm-spirv path), so that a
// failure to build it fails only this test: llvm-spirv emits the initialiser
// &target[1] as an OpSpecConstantOp InBoundsPtrAccessChain.
const char *const programScopePointer = R"CLC(
global int target[4] = {10, 20, 30, 40};
global int *global pointer_to_target = &target[1];

kernel void program_scope_pointer(global int *out, int write) {
  int i = get_global_id(0);
  if (write) {
    if (i == 0)
      *pointer_to_target += 5;
    if (i == 1)
      pointer_to_target[1] *= 2;
    return;
  }
  out[i] = pointer_to_target[i % 3 - 1];
}
)CLC";

TEST_F(Memory, ProgramScopePointerInitialisedWithAnAddress) {
  for (const char *options : {"-cl-std=CL3.0", "-cl-std=CL3.0 -cl-opt-disable"}) {
    const char *variant = options;
    cl_int error = CL_SUCCESS;
    const char *source = programScopePointer;
    cl_program p = clCreateProgramWithSource(context, 1, &source, nullptr, &error);
    ASSERT_EQ(error, CL_SUCCESS);
    try {
      error = clBuildProgram(p, 1, &device, options, nullptr, nullptr);
    } catch (const std::exception &e) {
      clReleaseProgram(p);
      ADD_FAILURE() << "clBuildProgram threw a C++ exception: " << e.what();
      continue;
    }
    if (error != CL_SUCCESS) {
      size_t size = 0;
      clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
      std::string log(size, '\0');
      clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
      clReleaseProgram(p);
      ADD_FAILURE() << "options \"" << options << "\": build error " << error << ": " << log;
      continue;
    }
    cl_kernel k = clCreateKernel(p, "program_scope_pointer", &error);
    ASSERT_EQ(error, CL_SUCCESS);
    cl_mem O = buffer<int>(6);
    int target[4] = {10, 20, 30, 40};
    for (int round = 0; round < 3; ++round) {
      setArgs(k, O, 0);
      run(k, {6}, {3});
      std::vector<int> out = read<int>(O, 6);
      for (int i = 0; i < 6; ++i)
        EXPECT_EQ(out[i], target[i % 3]) << label(variant) << " round " << round << " item " << i;
      setArgs(k, O, 1);
      run(k, {6}, {3});
      target[1] += 5;
      target[2] *= 2;
    }
    clReleaseKernel(k);
    clReleaseProgram(p);
  }
}

// ---------------------------------------------------------------------------
// Pointer arithmetic and casts

TEST_F(Memory, PointerArithmeticAndCastsBetweenPointerTypes) {
  for (const char *variant : variants) {
    const size_t n = 96;
    std::vector<int> in(n);
    std::mt19937 rng(9);
    for (int &x : in)
      x = int(rng()) >> 2;
    cl_mem I = buffer(in), O = buffer<int>(n * 4), B = buffer(std::vector<int>(n, -1));
    cl_kernel k = kernel("memory", "pointer_casts", variant);
    setArgs(k, I, O, B);
    run(k, {n}, {32});
    std::vector<int> out = read<int>(O, n * 4);
    std::vector<int> bytes = read<int>(B, n);
    for (size_t i = 0; i < n; ++i) {
      const uint32_t u = uint32_t(in[i]);
      const uint32_t reversed =
          (u & 0xff) << 24 | (u >> 8 & 0xff) << 16 | (u >> 16 & 0xff) << 8 | u >> 24;
      const int16_t lo = int16_t(u & 0xffff), hi = int16_t(u >> 16);
      const size_t q = 2 * (i / 2);
      const int expected[4] = {int(reversed), hi * 3 + lo,
                               int(uint32_t(in[q + 1]) - uint32_t(in[q]) + 4 * i), in[q + 1]};
      for (int f = 0; f < 4; ++f)
        ASSERT_EQ(out[i * 4 + f], expected[f]) << label(variant) << " item " << i << " field " << f;
      const uint32_t b = (i * 3 & 0xffff) | (i >> 8 & 0xff) << 16 | (i & 0xff) << 24;
      ASSERT_EQ(uint32_t(bytes[i]), b) << label(variant) << " item " << i;
    }
  }
}

// ---------------------------------------------------------------------------
// Async copies

TEST_F(Memory, AsyncWorkGroupCopyBothDirections) {
  for (const char *variant : variants)
    for (size_t local : {64, 100, 1, 300}) {
      const size_t n = local * 4;
      std::vector<int> in = randomInts(n, -1000, 1000, 10);
      cl_mem I = buffer(in), O = buffer<int>(n);
      cl_kernel k = kernel("memory", "async_copy", variant);
      setArgs(k, I, O, Local{local * sizeof(int)});
      run(k, {n}, {local});
      std::vector<int> out = read<int>(O, n);
      for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(out[i], in[i] * 3 + int(i % local))
            << label(variant) << " local " << local << " at " << i;
    }
}

TEST_F(Memory, AsyncWorkGroupStridedCopyBothDirections) {
  for (const char *variant : variants)
    for (size_t local : {32, 50, 200}) {
      const int stride = 3;
      const size_t n = local * 4, size = n * stride + 1;
      std::vector<int> in = randomInts(size, -1000, 1000, 11);
      cl_mem I = buffer(in), O = buffer(std::vector<int>(size, 77777));
      cl_kernel k = kernel("memory", "async_strided", variant);
      setArgs(k, I, O, Local{local * sizeof(int)}, stride);
      run(k, {n}, {local});
      std::vector<int> out = read<int>(O, size);
      for (size_t j = 0; j < size; ++j) {
        // Element i of the gather (src index i*stride) lands at i*stride + 1.
        const int expected = j % stride == 1 ? -in[j - 1] : 77777;
        ASSERT_EQ(out[j], expected) << label(variant) << " local " << local << " at " << j;
      }
    }
}

// ---------------------------------------------------------------------------
// Loads and stores of every scalar and vector type

struct TypeCase {
  std::string type;
  size_t scalarBytes, components;
  char kind; // 'i' integer, 'f' float, 'h' half, 'd' double (keep values finite)
};

std::vector<TypeCase> typeCases() {
  std::vector<TypeCase> cases;
  const struct {
    const char *name;
    size_t bytes;
    char kind;
  } scalars[] = {{"char", 1, 'i'},  {"uchar", 1, 'i'}, {"short", 2, 'i'}, {"ushort", 2, 'i'},
                 {"int", 4, 'i'},   {"uint", 4, 'i'},  {"long", 8, 'i'},  {"ulong", 8, 'i'},
                 {"float", 4, 'f'}, {"double", 8, 'd'}};
  for (const auto &s : scalars)
    for (size_t n : {1, 2, 3, 4, 8, 16})
      cases.push_back(
          {std::string(s.name) + (n == 1 ? "" : std::to_string(n)), s.bytes, n, s.kind});
  cases.push_back({"half", 2, 1, 'h'});
  return cases;
}

TEST_F(Memory, LoadsAndStoresOfEveryScalarAndVectorType) {
  for (const TypeCase &t : typeCases()) {
    // 3-component vectors occupy 4 components in memory.
    const size_t stride = t.scalarBytes * (t.components == 3 ? 4 : t.components);
    const size_t used = t.scalarBytes * t.components;
    const size_t n = 300;
    const int u = 77;
    std::vector<uint8_t> in(n * stride);
    std::mt19937 rng(12);
    for (uint8_t &b : in)
      b = uint8_t(rng());
    // Keep floating-point values finite: clear the top exponent bit.
    if (t.kind != 'i')
      for (size_t e = 0; e < in.size(); e += t.scalarBytes)
        in[e + t.scalarBytes - 1] &= 0xbf;
    for (const char *variant : variants) {
      cl_mem I = buffer(in), O = buffer(std::vector<uint8_t>((2 * n + 1) * stride, 0xcd));
      cl_kernel k = kernel("memory", "copy_" + t.type, variant);
      if (!k)
        continue;
      setArgs(k, I, O, u, int(n));
      run(k, {n}, {64});
      std::vector<uint8_t> out = read<uint8_t>(O, (2 * n + 1) * stride);
      auto same = [&](size_t outIndex, size_t inIndex) {
        return std::memcmp(&out[outIndex * stride], &in[inIndex * stride], used) == 0;
      };
      size_t badVarying = 0, badUniform = 0;
      for (size_t i = 0; i < n; ++i) {
        badVarying += !same(2 * i, i);
        badUniform += !same(2 * i + 1, u);
      }
      EXPECT_EQ(badVarying, 0u) << t.type << label(variant)
                                << ": work-items with a wrong varying load/store";
      EXPECT_EQ(badUniform, 0u) << t.type << label(variant)
                                << ": work-items with a wrong uniform-address load";
      EXPECT_TRUE(same(2 * n, u)) << t.type << label(variant)
                                  << ": uniform-address store from one active lane";
    }
  }
}

TEST_F(Memory, ThreeComponentVectorComponentsInMemory) {
  for (const char *variant : variants) {
    const size_t n = 64;
    std::vector<int> in = randomInts(n * 4, -1000, 1000, 13);
    cl_mem I = buffer(in), O = buffer<int>(n * 3);
    cl_kernel k = kernel("memory", "vec3_components", variant);
    setArgs(k, I, O);
    run(k, {n}, {16});
    std::vector<int> out = read<int>(O, n * 3);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(out[i * 3 + 0], in[i * 4] + in[i * 4 + 1]) << label(variant) << " item " << i;
      ASSERT_EQ(out[i * 3 + 1], in[i * 4 + 2]) << label(variant) << " item " << i;
      ASSERT_EQ(out[i * 3 + 2], 0) << label(variant) << " item " << i;
    }
  }
}

// ---------------------------------------------------------------------------
// Consecutive vector loads and stores

const char *consecutiveVectors = R"CLC(
kernel void consecutive4(global const float4 *in, global float4 *out,
                         global const int *ints, global int *intsOut) {
  size_t i = get_global_id(0);
  out[i] = in[i] + (float4)(0.5f, 1.0f, 2.0f, 4.0f);
  vstore4(vload4(i, ints) * 3 + (int4)(1, 2, 3, 4), i, intsOut);
}
)CLC";

// Every lane active and lane l at element 4l: the engine moves such vectors
// four lanes at a time, and the lanes past the last multiple of four one by
// one. Work-groups of 1 to 9 work-items, and a last group of 3 (OpenCL C 2.0
// and later allow it), cover both.
TEST_F(Memory, ConsecutiveVectorLoadsAndStoresInGroupsOfEverySize) {
  for (const char *options : {"-cl-std=CL3.0", "-cl-std=CL3.0 -cl-opt-disable"}) {
    cl_int error = CL_SUCCESS;
    const char *source = consecutiveVectors;
    cl_program p = clCreateProgramWithSource(context, 1, &source, nullptr, &error);
    ASSERT_EQ(error, CL_SUCCESS);
    ASSERT_EQ(clBuildProgram(p, 1, &device, options, nullptr, nullptr), CL_SUCCESS) << options;
    cl_kernel k = clCreateKernel(p, "consecutive4", &error);
    ASSERT_EQ(error, CL_SUCCESS);
    std::vector<std::pair<size_t, size_t>> shapes = {{67, 16}};
    for (size_t n = 1; n <= 9; ++n)
      shapes.push_back({n, n});
    for (const auto &[global, local] : shapes) {
      std::vector<float> in(4 * global);
      std::vector<int> ints(4 * global);
      for (size_t e = 0; e < in.size(); ++e) {
        in[e] = float(e % 97) - 40.0f;
        ints[e] = int(e * 7 % 101) - 50;
      }
      cl_mem I = buffer(in), O = buffer<float>(4 * global), J = buffer(ints),
             P = buffer<int>(4 * global);
      setArgs(k, I, O, J, P);
      run(k, {global}, {local});
      const std::vector<float> out = read<float>(O, 4 * global);
      const std::vector<int> intsOut = read<int>(P, 4 * global);
      const float addF[4] = {0.5f, 1.0f, 2.0f, 4.0f};
      for (size_t e = 0; e < in.size(); ++e) {
        EXPECT_EQ(out[e], in[e] + addF[e % 4])
            << label(options) << " global " << global << " local " << local << " element " << e;
        EXPECT_EQ(intsOut[e], ints[e] * 3 + int(e % 4) + 1)
            << label(options) << " global " << global << " local " << local << " element " << e;
      }
    }
    clReleaseKernel(k);
    clReleaseProgram(p);
  }
}

} // namespace
} // namespace lanewise::test
