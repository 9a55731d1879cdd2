// SPDX-License-Identifier: Apache-2.0
// Vectors loaded, computed on lane by lane and stored in one block (kernels
// in cl/memory_order.cl). Lanewise keeps such vectors in memory order when
// every lane of a warp runs the block, and component-major otherwise
// (spirv/lower_memory.cpp, findMemoryOrderValues); either way the results
// are the OpenCL C definitions', computed here. Every element type and
// n in {2, 3, 4, 8, 16}; launches of whole warps, of warps with lanes
// missing (partial work-groups, groups smaller than a warp, groups of one
// work-item sharing warps), with a global offset, and in two dimensions;
// strided addresses, conversions, element functions, half loads and
// stores; and the neighbouring forms that must not be kept in memory order
// (uniform operands whose components differ, permutations, uses in another
// block, divergence). Every store must leave the elements around it alone.
#include "half_reference.h"
#include "harness.h"
#include "launches.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace lanewise::test {
namespace {

const char *const variants[] = {"", "-O0"};

class MemoryOrder : public SharedContextTest {
protected:
  cl_kernel kernel(const std::string &name, const std::string &variant) {
    return cachedKernel("memory_order", name, variant);
  }
  void launch(cl_kernel k, const Launch &l) {
    if (l.local)
      run(k, {l.global}, {l.local}, {l.offset});
    else
      run(k, {l.global}, {}, {l.offset});
  }
  template <typename T> void checkLaneWise(const char *type);
  template <typename T> void checkOutOfOrder(const char *type);
  // Calls f(k, launch, where) for kernel `name` at each optimisation level
  // and each launch.
  template <typename F> void forEachLaunch(const std::string &name, F &&f) {
    for (const std::string variant : variants)
      for (const Launch &l : launches) {
        cl_kernel k = kernel(name, variant);
        ASSERT_NE(k, nullptr) << name;
        f(k, l, where(variant, l));
      }
  }
};

std::vector<cl_int> randomInts(size_t count, std::mt19937_64 &random) {
  std::vector<cl_int> out(count);
  for (cl_int &e : out)
    e = cl_int(random() % 100000);
  return out;
}

// Elements of x and y, and the factor a, for (x + y) * a - 3 in type T: in
// the signed types small enough not to overflow (where OpenCL C leaves it
// undefined), in the unsigned ones anything (they wrap); for floating
// point, a power of two, so that the product is exact whether or not the
// compiler contracts it with the subtraction.
template <typename T> struct Operands {
  std::vector<T> x, y;
  T a;
};
template <typename T> Operands<T> operands(size_t count, std::mt19937_64 &random) {
  Operands<T> o{std::vector<T>(count), std::vector<T>(count), T(0)};
  for (size_t k = 0; k < count; ++k) {
    if constexpr (std::is_floating_point_v<T>) {
      o.x[k] = T(std::int64_t(random() % 2000001) - 1000000) / T(1024);
      o.y[k] = T(std::int64_t(random() % 2001) - 1000) / T(3);
    } else if constexpr (std::is_signed_v<T>) {
      o.x[k] = T(std::int64_t(random() % 21) - 10);
      o.y[k] = T(std::int64_t(random() % 21) - 10);
    } else {
      o.x[k] = T(random());
      o.y[k] = T(random());
    }
  }
  o.a = std::is_floating_point_v<T> ? T(0.5) : std::is_signed_v<T> ? T(-2) : T(random() | 1);
  return o;
}

template <typename T> T laneWise(T x, T y, T a) {
  if constexpr (std::is_floating_point_v<T>) {
    return (x + y) * a - T(3);
  } else { // modulo 2^64, then in T's width: wrapping for the unsigned types
    using U = std::uint64_t;
    return T((U(x) + U(y)) * U(a) - 3);
  }
}

template <typename T> void MemoryOrder::checkLaneWise(const char *type) {
  std::mt19937_64 random(0x0de5 + sizeof(T));
  for (const std::string variant : variants)
    for (const int n : {2, 3, 4, 8, 16})
      for (const Launch &l : launches) {
        const std::string name = "lanes_" + std::string(type) + std::to_string(n);
        cl_kernel k = kernel(name, variant);
        ASSERT_NE(k, nullptr) << name;
        const size_t elements = (l.offset + l.global) * n + 5;
        const Operands<T> o = operands<T>(elements, random);
        std::vector<T> before(elements);
        for (T &e : before)
          e = T(random() % 100);
        cl_mem out = buffer(before);
        setArgs(k, buffer(o.x), buffer(o.y), out, o.a);
        launch(k, l);
        const std::vector<T> got = read<T>(out, elements);
        for (size_t e = 0; e < elements; ++e) {
          const bool written = e >= l.offset * n && e < (l.offset + l.global) * n;
          const T want = written ? laneWise(o.x[e], o.y[e], o.a) : before[e];
          ASSERT_EQ(got[e], want) << name << " element " << e << " (work-item " << e / n << "), "
                                  << where(variant, l);
        }
      }
}

TEST_F(MemoryOrder, EveryTypeAndWidth) {
  checkLaneWise<std::int8_t>("char");
  checkLaneWise<std::uint8_t>("uchar");
  checkLaneWise<std::int16_t>("short");
  checkLaneWise<std::uint16_t>("ushort");
  checkLaneWise<std::int32_t>("int");
  checkLaneWise<std::uint32_t>("uint");
  checkLaneWise<std::int64_t>("long");
  checkLaneWise<std::uint64_t>("ulong");
  checkLaneWise<float>("float");
  checkLaneWise<double>("double");
}

TEST_F(MemoryOrder, VectorPointers) {
  std::mt19937_64 random(0x9017);
  forEachLaunch("pointers", [&](cl_kernel k, const Launch &l, const std::string &where) {
    const size_t elements = (l.offset + l.global) * 4;
    const Operands<float> o = operands<float>(elements, random);
    cl_mem out = buffer<float>(elements);
    setArgs(k, buffer(o.x), buffer(o.y), out, 0.25f);
    launch(k, l);
    const std::vector<float> got = read<float>(out, elements);
    for (size_t e = l.offset * 4; e < elements; ++e)
      ASSERT_EQ(got[e], o.x[e] * 0.25f + o.y[e]) << "element " << e << ", " << where;
  });
}

TEST_F(MemoryOrder, HalfLoadsAndStores) {
  std::mt19937_64 random(0x4a1f);
  forEachLaunch("halves", [&](cl_kernel k, const Launch &l, const std::string &where) {
    const size_t items = l.offset + l.global;
    std::vector<std::uint16_t> h(items * 8);
    for (std::uint16_t &e : h)
      do
        e = std::uint16_t(random());
      while ((e & 0x7c00) == 0x7c00); // finite halves (NaN payloads are not the point)
    std::vector<float> f(items * 4);
    for (float &e : f)
      e = float(std::int64_t(random() % 20000001) - 10000000) / 37.0f;
    cl_mem out = buffer<float>(items * 8), halves = buffer<std::uint16_t>(items * 4);
    setArgs(k, buffer(h), out, buffer(f), halves, 2.0f);
    launch(k, l);
    const std::vector<float> got = read<float>(out, items * 8);
    const std::vector<std::uint16_t> gotHalves = read<std::uint16_t>(halves, items * 4);
    for (size_t e = l.offset * 8; e < items * 8; ++e)
      ASSERT_EQ(got[e], halfToFloat(h[e]) * 2.0f + 0.25f)
          << "vload_half8 element " << e << ", " << where;
    for (size_t e = l.offset * 4; e < items * 4; ++e)
      ASSERT_EQ(gotHalves[e], toHalf(double(f[e] * 2.0f), RTZ))
          << "vstore_half4_rtz element " << e << " of " << f[e] << ", " << where;
  });
}

// Halves three and one a work-item, and vloada_half3, whose vectors are
// four halves apart (not one run of halves: the load and widening run as
// two steps).
TEST_F(MemoryOrder, OddHalfLoads) {
  std::mt19937_64 random(0x3a1d);
  forEachLaunch("odd_halves", [&](cl_kernel k, const Launch &l, const std::string &where) {
    const size_t items = l.offset + l.global;
    std::vector<std::uint16_t> h(items * 4);
    for (std::uint16_t &e : h)
      do
        e = std::uint16_t(random());
      while ((e & 0x7c00) == 0x7c00); // finite halves
    cl_mem out3 = buffer<float>(items * 3), out1 = buffer<float>(items),
           outa = buffer<float>(items * 3);
    setArgs(k, buffer(h), out3, out1, outa, 2.0f);
    launch(k, l);
    const std::vector<float> got3 = read<float>(out3, items * 3);
    const std::vector<float> got1 = read<float>(out1, items);
    const std::vector<float> gotA = read<float>(outa, items * 3);
    for (size_t i = l.offset; i < items; ++i) {
      for (size_t c = 0; c < 3; ++c) {
        ASSERT_EQ(got3[3 * i + c], halfToFloat(h[3 * i + c]) * 2.0f + 1.0f)
            << "vload_half3 element " << 3 * i + c << ", " << where;
        ASSERT_EQ(gotA[3 * i + c], halfToFloat(h[4 * i + c]) * 2.0f)
            << "vloada_half3 element " << 3 * i + c << ", " << where;
      }
      ASSERT_EQ(got1[i], halfToFloat(h[i]) - 2.0f) << "vload_half element " << i << ", " << where;
    }
  });
}

TEST_F(MemoryOrder, StridedAddresses) {
  std::mt19937_64 random(0x57d);
  forEachLaunch("strided", [&](cl_kernel k, const Launch &l, const std::string &where) {
    const size_t items = l.offset + l.global;
    const std::vector<cl_int> x = randomInts(items * 8 + 8, random),
                              before = randomInts(items * 12, random);
    cl_mem out = buffer(before);
    setArgs(k, buffer(x), out, cl_int(7));
    launch(k, l);
    const std::vector<cl_int> got = read<cl_int>(out, items * 12);
    for (size_t e = 0; e < items * 12; ++e) {
      const size_t i = e / 12, c = e % 12;
      const cl_int want = i >= l.offset && c < 4 ? x[(2 * i + 1) * 4 + c] * 7 + 1 : before[e];
      ASSERT_EQ(got[e], want) << "element " << e << ", " << where;
    }
  });
}

TEST_F(MemoryOrder, ConversionsAndElementFunctions) {
  std::mt19937_64 random(0xc0f);
  forEachLaunch("converts", [&](cl_kernel k, const Launch &l, const std::string &where) {
    const size_t elements = (l.offset + l.global) * 4;
    std::vector<float> x(elements);
    for (size_t e = 0; e < elements; ++e)
      x[e] = e % 7 == 0 ? 3e9f : float(std::int64_t(random() % 2001) - 1000) / 8.0f;
    cl_mem out = buffer<cl_int>(elements), back = buffer<float>(elements);
    setArgs(k, buffer(x), out, back);
    launch(k, l);
    const std::vector<cl_int> got = read<cl_int>(out, elements);
    const std::vector<float> gotBack = read<float>(back, elements);
    for (size_t e = l.offset * 4; e < elements; ++e) {
      // convert_int_sat rounds toward zero and saturates (OpenCL C 3.0, 6.4.3).
      const double scaled = double(std::fmax(x[e], 0.0f) * 2.0f);
      const cl_int want = scaled >= 2147483647.0 ? 2147483647 : cl_int(std::trunc(scaled));
      ASSERT_EQ(got[e], want) << "element " << e << " of " << x[e] << ", " << where;
      ASSERT_EQ(gotBack[e], float(want) * 0.5f) << "element " << e << ", " << where;
    }
  });
}

TEST_F(MemoryOrder, UniformOperandsWhoseComponentsDiffer) {
  std::mt19937_64 random(0x1e9);
  forEachLaunch("unequal", [&](cl_kernel k, const Launch &l, const std::string &where) {
    const size_t elements = (l.offset + l.global) * 4;
    const std::vector<cl_int> x = randomInts(elements, random);
    cl_mem out = buffer<cl_int>(elements), out2 = buffer<cl_int>(elements);
    setArgs(k, buffer(x), out, out2, cl_int(1000));
    launch(k, l);
    const std::vector<cl_int> got = read<cl_int>(out, elements);
    const std::vector<cl_int> got2 = read<cl_int>(out2, elements);
    for (size_t e = l.offset * 4; e < elements; ++e) {
      const cl_int c = cl_int(e % 4);
      ASSERT_EQ(got[e], x[e] + 1000 + c) << "element " << e << ", " << where;
      ASSERT_EQ(got2[e], x[e] * (c + 1)) << "element " << e << ", " << where;
    }
  });
}

TEST_F(MemoryOrder, PermutedAndInAnotherBlock) {
  std::mt19937_64 random(0x9e3);
  for (const cl_int a : {1, -1})
    forEachLaunch("mixed", [&](cl_kernel k, const Launch &l, const std::string &where) {
      const size_t elements = (l.offset + l.global) * 4;
      const std::vector<cl_int> x = randomInts(elements, random);
      cl_mem out = buffer<cl_int>(elements), out2 = buffer<cl_int>(elements);
      setArgs(k, buffer(x), out, out2, a);
      launch(k, l);
      const std::vector<cl_int> got = read<cl_int>(out, elements);
      const std::vector<cl_int> got2 = read<cl_int>(out2, elements);
      for (size_t e = l.offset * 4; e < elements; ++e) {
        const size_t first = e - e % 4, c = e % 4;
        ASSERT_EQ(got[e], x[first + 3 - c] + x[e]) << "element " << e << ", " << where;
        ASSERT_EQ(got2[e], x[e] * (a > 0 ? 3 : 5))
            << "element " << e << ", a " << a << ", " << where;
      }
    });
}

TEST_F(MemoryOrder, DivergentStores) {
  std::mt19937_64 random(0xd17);
  forEachLaunch("divergent", [&](cl_kernel k, const Launch &l, const std::string &where) {
    const size_t elements = (l.offset + l.global) * 4;
    const std::vector<cl_int> x = randomInts(elements, random),
                              before = randomInts(elements, random);
    cl_mem out = buffer(before), out2 = buffer<cl_int>(elements), out3 = buffer<cl_int>(elements);
    setArgs(k, buffer(x), out, out2, out3);
    launch(k, l);
    const std::vector<cl_int> got = read<cl_int>(out, elements);
    const std::vector<cl_int> got2 = read<cl_int>(out2, elements);
    const std::vector<cl_int> got3 = read<cl_int>(out3, elements);
    for (size_t e = 0; e < elements; ++e) {
      const size_t i = e / 4;
      const bool item = i >= l.offset;
      ASSERT_EQ(got[e], item && i % 3 ? x[e] * 2 + 1 : before[e])
          << "element " << e << ", " << where;
      if (!item)
        continue;
      ASSERT_EQ(got2[e], x[e] - 1) << "element " << e << ", " << where;
      ASSERT_EQ(got3[e], x[e] + 1) << "element " << e << ", " << where;
    }
  });
}

// A two-dimensional launch: global x by y, local localX by localY.
struct Range2 {
  size_t x, y, localX, localY;
};

TEST_F(MemoryOrder, TwoDimensions) {
  std::mt19937_64 random(0x2d);
  // Rows of 16 work-items, 8 to a warp (rows apart in memory); rows of 128;
  // rows of 64 that are each a whole row of the matrix.
  for (const std::string variant : variants)
    for (const Range2 r : {Range2{64, 32, 16, 8}, Range2{256, 4, 128, 1}, Range2{64, 16, 64, 2},
                           Range2{48, 10, 16, 2}}) {
      cl_kernel k = kernel("rows2d", variant);
      ASSERT_NE(k, nullptr);
      const size_t elements = r.x * r.y * 4;
      std::vector<float> in(elements);
      for (float &e : in)
        e = float(std::int64_t(random() % 200001) - 100000) / 64.0f;
      cl_mem out = buffer<float>(elements);
      setArgs(k, buffer(in), out, cl_uint(r.x));
      run(k, {r.x, r.y}, {r.localX, r.localY});
      const std::vector<float> got = read<float>(out, elements);
      for (size_t e = 0; e < elements; ++e)
        ASSERT_EQ(got[e], in[e] * 2.0f + 1.0f)
            << "element " << e << ", " << (variant.empty() ? "-O2" : variant) << " global " << r.x
            << "x" << r.y << " local " << r.localX << "x" << r.localY;
    }
}

// A permutation of 0 .. count - 1 with every index doubled, the low bit
// random: perm[i] / 2 is each index once, perm[i] & 1 picks half of them.
std::vector<cl_int> doubledPermutation(size_t count, std::mt19937_64 &random) {
  std::vector<cl_int> perm(count);
  for (size_t i = 0; i < count; ++i)
    perm[i] = cl_int(i);
  std::shuffle(perm.begin(), perm.end(), random);
  for (cl_int &p : perm)
    p = 2 * p + cl_int(random() & 1);
  return perm;
}

template <typename T> void MemoryOrder::checkOutOfOrder(const char *type) {
  std::mt19937_64 random(0x0d0 + sizeof(T));
  for (const std::string variant : variants)
    for (const int n : {2, 3, 4, 8, 16})
      for (const Launch &l : launches) {
        const std::string name = "out_of_order_" + std::string(type) + std::to_string(n);
        cl_kernel k = kernel(name, variant);
        ASSERT_NE(k, nullptr) << name;
        const size_t items = l.offset + l.global, elements = items * n;
        const std::vector<T> x = randomValues<T>(elements, random),
                             y = randomValues<T>(elements, random),
                             before = randomValues<T>(elements, random);
        const std::vector<cl_int> perm = doubledPermutation(items, random);
        const T a = std::is_floating_point_v<T> ? T(0.5) : T(3);
        cl_mem out = buffer<T>(elements), sums = buffer<T>(items), scattered = buffer(before);
        setArgs(k, buffer(x), buffer(y), out, sums, scattered, buffer(perm), a);
        launch(k, l);
        const std::vector<T> got = read<T>(out, elements), gotSums = read<T>(sums, items),
                             gotScattered = read<T>(scattered, elements);
        std::vector<T> want = before;
        for (size_t i = l.offset; i < items; ++i) {
          auto w = [&](size_t c) { return T((x[i * n + c] + y[i * n + c]) * a); };
          for (size_t c = 0; c < size_t(n); ++c) {
            ASSERT_EQ(got[i * n + c], T(w(c) - T(1)))
                << name << " out, work-item " << i << " component " << c << ", "
                << where(variant, l);
            if (perm[i] & 1)
              want[size_t(perm[i] / 2) * n + c] = T(w(c) - T(1));
          }
          ASSERT_EQ(gotSums[i], T(w(0) + w(1)))
              << name << " sums, work-item " << i << ", " << where(variant, l);
        }
        for (size_t e = 0; e < elements; ++e)
          ASSERT_EQ(gotScattered[e], want[e])
              << name << " scattered, element " << e << ", " << where(variant, l);
      }
}

// Vectors in memory order that other instructions read too (component
// extracts in the same block, arithmetic in another): every element type
// size and width, every launch shape.
TEST_F(MemoryOrder, ReadOutOfOrderToo) {
  checkOutOfOrder<std::int8_t>("char");
  checkOutOfOrder<std::int16_t>("short");
  checkOutOfOrder<std::int32_t>("int");
  checkOutOfOrder<float>("float");
  checkOutOfOrder<std::int64_t>("long");
  checkOutOfOrder<double>("double");
}

// A convolution's taps over a __local tile of float4, summed in memory
// order and stored at permuted indices: whole groups of 16 x 8 (warps of
// rows of a tile), groups of 16 x 4 and 8 x 8, and partial groups at the
// right and bottom edges. The values are small integers, so every sum is
// exact whether or not the compiler fuses the multiply-adds.
TEST_F(MemoryOrder, LocalTileTaps) {
  std::mt19937_64 random(0x7a9);
  for (const std::string variant : variants)
    for (const Range2 r : {Range2{64, 32, 16, 8}, Range2{48, 16, 16, 4}, Range2{32, 32, 8, 8},
                           Range2{60, 21, 16, 8}}) {
      cl_kernel k = kernel("tile_sum", variant);
      ASSERT_NE(k, nullptr);
      const size_t items = r.x * r.y;
      std::vector<float> in(items * 4);
      for (float &e : in)
        e = float(std::int64_t(random() % 33) - 16);
      std::vector<cl_int> perm(items);
      for (size_t i = 0; i < items; ++i)
        perm[i] = cl_int(i);
      std::shuffle(perm.begin(), perm.end(), random);
      cl_mem out = buffer<float>(items * 4);
      setArgs(k, buffer(in), out, buffer(perm), cl_int(r.x), cl_int(r.y));
      run(k, {r.x, r.y}, {r.localX, r.localY});
      const std::vector<float> got = read<float>(out, items * 4);
      auto at = [&](std::int64_t x, std::int64_t y, size_t c) {
        x = std::clamp<std::int64_t>(x, 0, std::int64_t(r.x) - 1);
        y = std::clamp<std::int64_t>(y, 0, std::int64_t(r.y) - 1);
        return in[(size_t(y) * r.x + size_t(x)) * 4 + c];
      };
      for (size_t y = 0; y < r.y; ++y)
        for (size_t x = 0; x < r.x; ++x)
          for (size_t c = 0; c < 4; ++c) {
            float want = 0.0f;
            for (int dy = 0; dy < 3; ++dy)
              for (int dx = 0; dx < 3; ++dx)
                want += float(3 * dy + dx + 1) *
                        at(std::int64_t(x) + dx - 1, std::int64_t(y) + dy - 1, c);
            ASSERT_EQ(got[size_t(perm[y * r.x + x]) * 4 + c], want)
                << "item (" << x << ", " << y << ") component " << c << ", "
                << (variant.empty() ? "-O2" : variant) << " global " << r.x << "x" << r.y
                << " local " << r.localX << "x" << r.localY;
          }
    }
}

} // namespace
} // namespace lanewise::test
