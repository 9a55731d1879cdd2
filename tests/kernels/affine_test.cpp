// SPDX-License-Identifier: Apache-2.0
// Addresses and values affine in the work-item id (kernels in cl/affine.cl):
// loads and stores through them in every element size and vector width, with
// every stride (the element's, others, zero, negative), partial work-groups,
// divergence, a value read after a loop that work-items leave at different
// iterations, and 1D, 2D and 3D ranges whose warps lie in one row of their
// work-group, hold whole rows, or neither. The expected values are computed here from the kernels'
// definitions; loads and stores copy bit patterns, so integers and floats
// (small integers in them) compare exactly.
#include "harness.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace lanewise::test {
namespace {

const char *const variants[] = {"", "-O0"};
std::string label(const std::string &variant) { return variant.empty() ? "-O2" : variant; }

// Sizes that leave the last work-group (and warp) partial, and local sizes
// of one warp, several warps, part of a warp and a single work-item.
struct Range {
  size_t global, local;
};
const Range ranges[] = {{1000, 128}, {1000, 256}, {300, 100}, {517, 64}, {33, 1}};

template <typename T> std::vector<T> pattern(size_t n, int salt) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = static_cast<T>(int((i * 37 + salt) % 101) - 50);
  return v;
}

class Affine : public SharedContextTest {
protected:
  cl_kernel kernel(const std::string &name, const std::string &variant) {
    return cachedKernel("affine", name, variant);
  }

  template <typename T> void scalarCases(const std::string &type) {
    for (const std::string variant : variants)
      for (const Range r : ranges) {
        const std::string where = type + " " + label(variant) + " global " +
                                  std::to_string(r.global) + " local " + std::to_string(r.local);
        {
          // copy: i < n, every third skipped.
          const size_t n = r.global - 5;
          const std::vector<T> in = pattern<T>(r.global, 1);
          const std::vector<T> before = pattern<T>(r.global, 2);
          cl_mem I = buffer(in), O = buffer(before);
          cl_kernel k = kernel("copy_" + type, variant);
          ASSERT_NE(k, nullptr);
          setArgs(k, I, O, cl_ulong(n));
          run(k, {r.global}, {r.local});
          const std::vector<T> out = read<T>(O, r.global);
          for (size_t i = 0; i < r.global; ++i) {
            const T expected = i < n && i % 3 != 1 ? T(in[i] + T(1)) : before[i];
            ASSERT_EQ(out[i], expected) << "copy " << where << " at " << i;
          }
        }
        for (const long stride : {1L, 2L, 3L, 0L, -1L, -2L}) {
          // gather: out[i] = in[first + i * stride].
          const size_t n = r.global;
          const size_t span = n * (stride < 0 ? -stride : (stride ? stride : 1)) + 4;
          const long first = stride < 0 ? long(span) - 2 : 1;
          const std::vector<T> in = pattern<T>(span, 3);
          cl_mem I = buffer(in), O = this->template buffer<T>(n);
          cl_kernel k = kernel("gather_" + type, variant);
          ASSERT_NE(k, nullptr);
          setArgs(k, I, O, cl_long(first), cl_long(stride));
          run(k, {n}, {r.local});
          const std::vector<T> out = read<T>(O, n);
          for (size_t i = 0; i < n; ++i)
            ASSERT_EQ(out[i], in[size_t(first + long(i) * stride)])
                << "gather stride " << stride << " " << where << " at " << i;
        }
        for (const long stride : {1L, 2L, 5L}) {
          // scatter: out[first + i * stride] = in[i]; nothing else written.
          const size_t n = r.global;
          const long first = 3;
          const size_t span = size_t(first) + n * size_t(stride) + 2;
          const std::vector<T> in = pattern<T>(n, 4), before = pattern<T>(span, 5);
          cl_mem I = buffer(in), O = buffer(before);
          cl_kernel k = kernel("scatter_" + type, variant);
          ASSERT_NE(k, nullptr);
          setArgs(k, I, O, cl_long(first), cl_long(stride));
          run(k, {n}, {r.local});
          const std::vector<T> out = read<T>(O, span);
          std::vector<T> expected = before;
          for (size_t i = 0; i < n; ++i)
            expected[size_t(first) + i * size_t(stride)] = in[i];
          for (size_t j = 0; j < span; ++j)
            ASSERT_EQ(out[j], expected[j]) << "scatter stride " << stride << " " << where << " at "
                                           << j;
        }
        splatCase<T>("splat_" + type, 1, r, variant, where);
      }
  }

  // Vector pointers (a 3-vector's element takes four components) and vloadn /
  // vstoren (three), doubled; vstoren by even work-items only.
  template <typename T> void vectorCases(const std::string &type) {
    for (const std::string variant : variants)
      for (const Range r : ranges)
        for (const size_t n : {2, 3, 4, 8, 16}) {
          const std::string where = type + std::to_string(n) + " " + label(variant) + " global " +
                                    std::to_string(r.global) + " local " + std::to_string(r.local);
          {
            const size_t slot = n == 3 ? 4 : n;
            const std::vector<T> in = pattern<T>(r.global * slot, 6);
            cl_mem I = buffer(in), O = this->template buffer<T>(r.global * slot);
            cl_kernel k = kernel("vptr_" + type + std::to_string(n), variant);
            ASSERT_NE(k, nullptr);
            setArgs(k, I, O);
            run(k, {r.global}, {r.local});
            const std::vector<T> out = read<T>(O, r.global * slot);
            for (size_t i = 0; i < r.global; ++i)
              for (size_t c = 0; c < n; ++c)
                ASSERT_EQ(out[i * slot + c], T(in[i * slot + c] * T(2)))
                    << "vector pointer " << where << " item " << i << " component " << c;
          }
          {
            const std::vector<T> in = pattern<T>(r.global * n, 7);
            const std::vector<T> before = pattern<T>(r.global * n, 8);
            cl_mem I = buffer(in), O = buffer(before);
            cl_kernel k = kernel("vload_" + type + std::to_string(n), variant);
            ASSERT_NE(k, nullptr);
            setArgs(k, I, O);
            run(k, {r.global}, {r.local});
            const std::vector<T> out = read<T>(O, r.global * n);
            for (size_t i = 0; i < r.global; ++i)
              for (size_t c = 0; c < n; ++c) {
                const T expected = i % 2 == 0 ? T(in[i * n + c] * T(2)) : before[i * n + c];
                ASSERT_EQ(out[i * n + c], expected)
                    << "vload/vstore " << where << " item " << i << " component " << c;
              }
          }
          {
            // vloadn(3i + 1) into vstoren(2i + 1): vectors n apart become 2n apart.
            const std::vector<T> in = pattern<T>((3 * r.global + 2) * n, 9);
            const std::vector<T> before = pattern<T>((2 * r.global + 2) * n, 10);
            cl_mem I = buffer(in), O = buffer(before);
            cl_kernel k = kernel("vstride_" + type + std::to_string(n), variant);
            ASSERT_NE(k, nullptr);
            setArgs(k, I, O);
            run(k, {r.global}, {r.local});
            const std::vector<T> out = read<T>(O, before.size());
            std::vector<T> expected = before;
            for (size_t i = 0; i < r.global; ++i)
              for (size_t c = 0; c < n; ++c)
                expected[(2 * i + 1) * n + c] = T(in[(3 * i + 1) * n + c] + T(1));
            for (size_t j = 0; j < out.size(); ++j)
              ASSERT_EQ(out[j], expected[j]) << "strided vectors " << where << " at " << j;
          }
          splatCase<T>("vsplat_" + type + std::to_string(n), n, r, variant, where);
        }
  }

  // A uniform value of `n` components stored at every work-item's place
  // (out), and at every place but those of the work-items with i % 5 == 2
  // (some), which keep what they held.
  template <typename T>
  void splatCase(const std::string &name, size_t n, const Range r, const std::string &variant,
                 const std::string &where) {
    const std::vector<T> in = pattern<T>(n, 11);
    const std::vector<T> before = pattern<T>(r.global * n, 12);
    cl_mem I = buffer(in), O = buffer(before), S = buffer(before);
    cl_kernel k = kernel(name, variant);
    ASSERT_NE(k, nullptr);
    setArgs(k, I, O, S);
    run(k, {r.global}, {r.local});
    const std::vector<T> out = read<T>(O, r.global * n), some = read<T>(S, r.global * n);
    for (size_t i = 0; i < r.global; ++i)
      for (size_t c = 0; c < n; ++c) {
        ASSERT_EQ(out[i * n + c], in[c]) << name << " " << where << " item " << i << " component " << c;
        ASSERT_EQ(some[i * n + c], i % 5 == 2 ? before[i * n + c] : in[c])
            << name << " (some) " << where << " item " << i << " component " << c;
      }
  }
};



TEST_F(Affine, ScalarLoadsAndStoresOfEverySize) {
  scalarCases<cl_char>("char");
  scalarCases<cl_short>("short");
  scalarCases<cl_int>("int");
  scalarCases<cl_long>("long");
  scalarCases<cl_float>("float");
  scalarCases<cl_double>("double");
}

TEST_F(Affine, VectorLoadsAndStoresOfEveryWidth) {
  vectorCases<cl_char>("char");
  vectorCases<cl_short>("short");
  vectorCases<cl_int>("int");
  vectorCases<cl_long>("long");
  vectorCases<cl_float>("float");
  vectorCases<cl_double>("double");
}

// Halves of small integers: exact in half and float.
cl_half halfOf(int v) {
  float f = float(v);
  std::uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if (v == 0)
    return 0;
  const std::uint32_t sign = (bits >> 16) & 0x8000, exponent = (bits >> 23) & 0xff,
                      mantissa = bits & 0x7fffff;
  return cl_half(sign | ((exponent - 127 + 15) << 10) | (mantissa >> 13));
}

TEST_F(Affine, HalfLoadsAndStores) {
  for (const std::string variant : variants)
    for (const Range r : ranges) {
      const std::string where = label(variant) + " global " + std::to_string(r.global) +
                                " local " + std::to_string(r.local);
      std::vector<cl_half> in(r.global * 4);
      for (size_t j = 0; j < in.size(); ++j)
        in[j] = halfOf(int(j % 50) - 25);
      {
        cl_mem I = buffer(in), O = buffer<cl_half>(r.global * 4);
        cl_kernel k = kernel("halves4", variant);
        ASSERT_NE(k, nullptr);
        setArgs(k, I, O);
        run(k, {r.global}, {r.local});
        const std::vector<cl_half> out = read<cl_half>(O, r.global * 4);
        for (size_t j = 0; j < out.size(); ++j)
          ASSERT_EQ(out[j], halfOf(2 * (int(j % 50) - 25))) << "vstore_half4 " << where << " at " << j;
      }
      {
        std::vector<cl_half> before(r.global * 4, 0x7777);
        cl_mem I = buffer(in), O = buffer(before);
        cl_kernel k = kernel("halves_aligned3", variant);
        ASSERT_NE(k, nullptr);
        setArgs(k, I, O);
        run(k, {r.global}, {r.local});
        const std::vector<cl_half> out = read<cl_half>(O, r.global * 4);
        for (size_t j = 0; j < out.size(); ++j) {
          // vstorea_half3 writes three halves of each four.
          const cl_half expected = j % 4 == 3 ? cl_half(0x7777) : halfOf(int(j % 50) - 25 + 1);
          ASSERT_EQ(out[j], expected) << "vstorea_half3 " << where << " at " << j;
        }
      }
      {
        cl_mem I = buffer(in), O = buffer<float>(r.global);
        cl_kernel k = kernel("halves1", variant);
        ASSERT_NE(k, nullptr);
        setArgs(k, I, O);
        const size_t items = r.global / 2;
        run(k, {items}, {std::min(r.local, items)});
        const std::vector<float> out = read<float>(O, items);
        for (size_t i = 0; i < items; ++i)
          ASSERT_EQ(out[i], float(int((2 * i + 1) % 50) - 25)) << "vload_half " << where << " at " << i;
      }
    }
}

TEST_F(Affine, ValuesStoredComparedNarrowedAndShifted) {
  for (const std::string variant : variants)
    for (const Range r : ranges)
      for (const cl_ulong scale : {cl_ulong(0), cl_ulong(3), ~cl_ulong(0)}) {
        cl_mem W = buffer<cl_ulong>(r.global), N = buffer<cl_uint>(r.global),
               F = buffer<cl_int>(r.global);
        cl_kernel k = kernel("values", variant);
        ASSERT_NE(k, nullptr);
        setArgs(k, W, N, F, scale);
        run(k, {r.global}, {r.local});
        const auto wide = read<cl_ulong>(W, r.global);
        const auto narrow = read<cl_uint>(N, r.global);
        const auto flags = read<cl_int>(F, r.global);
        for (size_t i = 0; i < r.global; ++i) {
          const std::string where = label(variant) + " global " + std::to_string(r.global) +
                                    " local " + std::to_string(r.local) + " scale " +
                                    std::to_string(scale) + " at " + std::to_string(i);
          ASSERT_EQ(wide[i], cl_ulong(i) * scale + 7) << where;
          ASSERT_EQ(narrow[i], cl_uint(i << 3) - cl_uint(i % r.local)) << where;
          ASSERT_EQ(flags[i], int(i) * 2 + 1 > 40 ? 1 : 0) << where;
        }
      }
}

TEST_F(Affine, ComparisonsWithUniformValues) {
  for (const std::string variant : variants)
    for (const Range r : ranges)
      for (const cl_uint n : {cl_uint(0), cl_uint(100), cl_uint(r.global - 1)})
        for (const cl_int bias : {-1000, 0, 0x7ffffff0}) {
          cl_mem O = buffer<cl_int>(r.global);
          cl_kernel k = kernel("compares", variant);
          ASSERT_NE(k, nullptr);
          setArgs(k, O, n, bias);
          run(k, {r.global}, {r.local});
          const auto out = read<cl_int>(O, r.global);
          for (size_t i = 0; i < r.global; ++i) {
            int bits = 0;
            bits |= (i < n) << 0;
            bits |= (cl_uint(i) - 5u < 10u) << 1;
            // (int)i + bias wraps as the kernel's addition does.
            bits |= (cl_int(cl_uint(i) + cl_uint(bias)) > 3) << 2;
            bits |= (cl_long(100 - cl_long(i)) >= 50) << 3;
            bits |= (i == 77) << 4;
            bits |= (i != n) << 5;
            bits |= (cl_uint(i * 0x40000000u) <= 0x80000000u) << 6;
            bits |= (cl_int(cl_uint(i) << 28) < 0) << 7;
            ASSERT_EQ(out[i], bits) << label(variant) << " global " << r.global << " local "
                                    << r.local << " n " << n << " bias " << bias << " at " << i;
          }
        }
}

// Equalities solved for the lanes where they hold (runtime/exec_affine.cpp),
// against each lane's own test here.
TEST_F(Affine, EqualitiesWithUniformValues) {
  for (const std::string variant : variants)
    for (const Range r : ranges)
      for (const cl_uint n : {cl_uint(0), cl_uint(77), cl_uint(600), cl_uint(r.global - 1),
                              cl_uint(0x40000000), cl_uint(0xfffffffc)})
        for (const cl_uint stride : {cl_uint(r.global), cl_uint(7)}) {
          const cl_uint rows = 1500;
          cl_mem O = buffer<cl_int>(2 * r.global);
          cl_kernel k = kernel("equalities", variant);
          ASSERT_NE(k, nullptr);
          setArgs(k, O, n, rows, stride);
          run(k, {r.global}, {r.local});
          const auto out = read<cl_int>(O, 2 * r.global);
          for (size_t i = 0; i < r.global; ++i) {
            int bits = 0;
            bits |= (cl_ulong(i) == n) << 0;
            bits |= (cl_ulong(i) * 6 == n) << 1;
            bits |= (cl_uchar(i) == cl_uchar(n)) << 2;
            bits |= (cl_uint(i * 0x40000000u) == n) << 3;
            bits |= (cl_uint(i) * 3u + 7u != n) << 4;
            bits |= (cl_ushort(i * 40) == cl_ushort(n)) << 5;
            bits |= (cl_long(i) * -5 == -cl_long(n)) << 6;
            int picked = 0;
            for (cl_uint y = 0; y < rows; ++y)
              if (y % stride == i)
                picked += int(y) + 1;
            const std::string where = label(variant) + " global " + std::to_string(r.global) +
                                      " local " + std::to_string(r.local) + " n " +
                                      std::to_string(n) + " stride " + std::to_string(stride) +
                                      " at " + std::to_string(i);
            ASSERT_EQ(out[2 * i], bits) << where;
            ASSERT_EQ(out[2 * i + 1], picked) << where;
          }
        }
}

// A branch on an affine comparison that every active lane of a warp
// decides alike needs no look at the lanes (runtime/exec_affine.cpp):
// bounds at, just before and just after warp and group boundaries.
TEST_F(Affine, BranchesOnComparisonsWithUniformValues) {
  for (const std::string variant : variants)
    for (const Range r : ranges)
      for (const size_t n : {size_t(0), size_t(1), size_t(127), size_t(128), size_t(129),
                             r.global - 1, r.global, r.global + 5})
        for (const cl_int m : {-5, 0, 200}) {
          cl_mem O = buffer<cl_int>(5 * r.global);
          cl_kernel k = kernel("branches", variant);
          ASSERT_NE(k, nullptr);
          setArgs(k, O, cl_uint(n), m);
          run(k, {r.global}, {r.local});
          const auto out = read<cl_int>(O, 5 * r.global);
          for (size_t i = 0; i < r.global; ++i) {
            int want[5] = {i < n ? 1 : 0, i < n ? 0 : 2, cl_int(i) >= m ? 4 : 0,
                           i % 3 == 0 && i < n ? 8 : 0, i % r.local < n ? 16 : 0};
            for (size_t step = 0; step < 3; ++step)
              want[4] += i + step < n ? 32 : 0;
            for (size_t slot = 0; slot < 5; ++slot)
              ASSERT_EQ(out[5 * i + slot], want[slot])
                  << label(variant) << " global " << r.global << " local " << r.local << " n " << n
                  << " m " << m << " at " << i << " slot " << slot;
          }
        }
}

TEST_F(Affine, NarrowIndicesPointersAndLocalMemory) {
  for (const std::string variant : variants)
    for (const Range r : ranges) {
      const std::string where = label(variant) + " global " + std::to_string(r.global) +
                                " local " + std::to_string(r.local);
      {
        const int first = int(2 * r.global + 3);
        const std::vector<float> in = pattern<float>(size_t(first) + 1, 9);
        cl_mem I = buffer(in), O = buffer<float>(r.global);
        cl_kernel k = kernel("int_index", variant);
        ASSERT_NE(k, nullptr);
        setArgs(k, I, O, cl_int(first));
        run(k, {r.global}, {r.local});
        const auto out = read<float>(O, r.global);
        for (size_t i = 0; i < r.global; ++i)
          ASSERT_EQ(out[i], in[size_t(first - 2 * int(i))]) << "int index " << where << " at " << i;
      }
      {
        cl_mem I = buffer<float>(3 * r.global), O = buffer<cl_ulong>(r.global);
        cl_kernel k = kernel("addresses", variant);
        ASSERT_NE(k, nullptr);
        setArgs(k, I, O);
        run(k, {r.global}, {r.local});
        const auto out = read<cl_ulong>(O, r.global);
        for (size_t i = 0; i < r.global; ++i)
          ASSERT_EQ(out[i], cl_ulong(12 * i)) << "addresses " << where << " at " << i;
      }
      if (r.local <= 256 && r.global % r.local == 0) {
        const std::vector<int> in = pattern<int>(r.global, 10);
        cl_mem I = buffer(in), O = buffer<int>(r.global);
        cl_kernel k = kernel("local_reverse", variant);
        ASSERT_NE(k, nullptr);
        setArgs(k, I, O);
        run(k, {r.global}, {r.local});
        const auto out = read<int>(O, r.global);
        for (size_t i = 0; i < r.global; ++i) {
          const size_t g = i / r.local, l = i % r.local;
          ASSERT_EQ(out[i], in[g * r.local + r.local - 1 - l]) << "local " << where << " at " << i;
        }
      }
    }
}

TEST_F(Affine, WidenedLocalIdsIndexLocalArrays) {
  for (const std::string variant : variants)
    for (const size_t local : {256, 128, 64, 2, 1})
      for (const size_t groups : {1, 7}) {
        const size_t n = local * groups;
        const std::vector<int> in = pattern<int>(n, 12);
        const std::string where = label(variant) + " local " + std::to_string(local) +
                                  " groups " + std::to_string(groups);
        {
          cl_mem I = buffer(in), S = buffer<int>(groups);
          cl_kernel k = kernel("local_tree", variant);
          ASSERT_NE(k, nullptr);
          setArgs(k, I, S);
          run(k, {n}, {local});
          const auto sums = read<int>(S, groups);
          for (size_t g = 0; g < groups; ++g) {
            int sum = 0;
            for (size_t l = 0; l < local; ++l)
              sum += in[g * local + l];
            ASSERT_EQ(sums[g], sum) << "tree " << where << " group " << g;
          }
        }
        {
          cl_mem I = buffer(in), O = buffer<int>(n);
          cl_kernel k = kernel("local_neighbours", variant);
          ASSERT_NE(k, nullptr);
          setArgs(k, I, O);
          run(k, {n}, {local});
          const auto out = read<int>(O, n);
          for (size_t i = 0; i < n; ++i) {
            const int left = i % local == 0 ? -1 : in[i - 1];
            ASSERT_EQ(out[i], left * 1000 + in[i]) << "neighbours " << where << " at " << i;
          }
        }
      }
}

TEST_F(Affine, TruncatedIdsWidenedAcrossTheWrap) {
  for (const std::string variant : variants)
    for (const size_t offset : {size_t(0), (size_t(1) << 31) - 10, (size_t(1) << 32) - 10})
      for (const Range r : ranges) {
        cl_mem Z = buffer<cl_ulong>(r.global), S = buffer<cl_long>(r.global);
        cl_kernel k = kernel("widened", variant);
        ASSERT_NE(k, nullptr);
        setArgs(k, Z, S);
        run(k, {r.global}, {r.local}, {offset});
        const auto zext = read<cl_ulong>(Z, r.global);
        const auto sext = read<cl_long>(S, r.global);
        for (size_t j = 0; j < r.global; ++j) {
          const size_t id = offset + j;
          ASSERT_EQ(zext[j], cl_ulong(cl_uint(id)))
              << label(variant) << " offset " << offset << " at " << j;
          ASSERT_EQ(sext[j], cl_long(cl_int(cl_uint(id))))
              << label(variant) << " offset " << offset << " at " << j;
        }
      }
}

TEST_F(Affine, OrIntoZeroBitsAndIntoOthers) {
  for (const std::string variant : variants)
    for (const Range r : ranges) {
      const std::vector<int> in = pattern<int>(4 * r.global + 4, 13);
      const std::vector<int> before = pattern<int>(4 * r.global, 14);
      cl_mem I = buffer(in), O = buffer(before), D = buffer<int>(r.global);
      cl_kernel k = kernel("or_index", variant);
      ASSERT_NE(k, nullptr);
      setArgs(k, I, O, D);
      run(k, {r.global}, {r.local});
      const auto out = read<int>(O, 4 * r.global);
      const auto odd = read<int>(D, r.global);
      for (size_t j = 0; j < out.size(); ++j)
        ASSERT_EQ(out[j], j % 4 == 1 ? in[j + 2] : before[j])
            << label(variant) << " global " << r.global << " at " << j;
      for (size_t i = 0; i < r.global; ++i)
        ASSERT_EQ(odd[i], in[i | 1]) << label(variant) << " global " << r.global << " at " << i;
    }
}

TEST_F(Affine, ValueOfALoopThatWorkItemsLeaveAtDifferentIterations) {
  for (const std::string variant : variants)
    for (const Range r : ranges) {
      std::vector<cl_ulong> in(r.global + 8);
      for (size_t j = 0; j < in.size(); ++j)
        in[j] = 1000 * j;
      cl_mem O = buffer<cl_ulong>(r.global), I = buffer(in);
      cl_kernel k = kernel("loop_exit", variant);
      ASSERT_NE(k, nullptr);
      setArgs(k, O, I);
      run(k, {r.global}, {r.local});
      const auto out = read<cl_ulong>(O, r.global);
      for (size_t i = 0; i < r.global; ++i) {
        const size_t trips = i % 7;
        const cl_ulong last = trips ? i * 5 + trips - 1 : 0;
        const cl_ulong loaded = trips ? in[i + trips - 1] : in[0];
        ASSERT_EQ(out[i], last + loaded) << label(variant) << " global " << r.global << " local "
                                         << r.local << " at " << i;
      }
    }
}

// 2D ranges: warps that lie in one row of their work-group (a local size in
// x of a whole number of warps, or rows of one work-group) and warps that
// span rows (16 x 8), with partial work-groups in x and in y.
TEST_F(Affine, TwoDimensionalRangesWithAndWithoutRowWarps) {
  struct Case {
    size_t global[2], local[2];
  };
  const Case cases[] = {{{256, 6}, {128, 2}}, {{512, 4}, {256, 1}}, {{300, 5}, {128, 2}},
                        {{64, 24}, {16, 8}},  {{40, 7}, {16, 4}},   {{1024, 3}, {1024, 1}},
                        {{200, 9}, {100, 3}}, {{33, 33}, {1, 1}}};
  for (const std::string variant : variants)
    for (const Case &c : cases) {
      const size_t w = c.global[0], h = c.global[1];
      const std::vector<int> in = pattern<int>(w * h, 11);
      cl_mem I = buffer(in), O = buffer<int>(w * h);
      cl_kernel k = kernel("rows", variant);
      ASSERT_NE(k, nullptr);
      setArgs(k, I, O, cl_ulong(w));
      run(k, {w, h}, {c.local[0], c.local[1]});
      const auto out = read<int>(O, w * h);
      for (size_t y = 0; y < h; ++y)
        for (size_t x = 0; x < w; ++x)
          ASSERT_EQ(out[y * w + x], in[y * w + x] + int(y))
              << label(variant) << " " << w << "x" << h << " local " << c.local[0] << "x"
              << c.local[1] << " at (" << x << ", " << y << ")";
    }
}

// Warps that hold whole rows of their work-group (T x T groups of T < the
// warp's width): tiles in __local memory read along rows and down columns.
TEST_F(Affine, TilesOfWorkGroupsOfSeveralRowsPerWarp) {
  const int n = 48;
  std::vector<int> a(n * n), b(n * n);
  for (int j = 0; j < n * n; ++j) {
    a[j] = (j * 7 + 3) % 19 - 9;
    b[j] = (j * 5 + 1) % 23 - 11;
  }
  std::vector<int> expected(n * n, 0);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c)
      for (int k = 0; k < n; ++k)
        expected[r * n + c] += a[r * n + k] * b[k * n + c];
  for (const std::string variant : variants)
    for (const size_t tile : {16, 8, 4, 2}) {
      cl_mem A = buffer(a), B = buffer(b), C = buffer<int>(n * n);
      cl_kernel k = kernel("tiles", variant);
      ASSERT_NE(k, nullptr);
      setArgs(k, A, B, C, cl_int(n));
      run(k, {size_t(n), size_t(n)}, {tile, tile});
      const auto c = read<int>(C, n * n);
      for (int j = 0; j < n * n; ++j)
        ASSERT_EQ(c[j], expected[j]) << label(variant) << " tile " << tile << " at (" << j % n
                                     << ", " << j / n << ")";
    }
}

// Row-holding warps (and, for comparison, warps in one row and warps across
// rows) with partial work-groups in x and y, a global offset, divergence,
// vectors and comparisons.
TEST_F(Affine, RowHoldingWarpsUnderDivergenceWithVectorsAndOffsets) {
  struct Case {
    size_t global[2], local[2], offset[2];
  };
  const Case cases[] = {{{64, 24}, {16, 8}, {0, 0}},  {{40, 36}, {16, 8}, {0, 0}},
                        {{36, 20}, {8, 16}, {4, 3}},  {{30, 12}, {4, 2}, {0, 0}},
                        {{7, 9}, {1, 4}, {2, 0}},     {{256, 3}, {128, 2}, {0, 1}},
                        {{48, 10}, {12, 5}, {0, 0}},  {{96, 7}, {32, 7}, {32, 1}}};
  for (const std::string variant : variants)
    for (const Case &c : cases) {
      const size_t gw = c.global[0], gh = c.global[1];
      // Addresses use the global ids, which start at the offset.
      const size_t w = gw + c.offset[0] + 1, h = gh + c.offset[1] + 1;
      const std::vector<int> in = pattern<int>(w * h + w + h, 21);
      const std::vector<int> before = pattern<int>(w * h, 22);
      const std::vector<int> in4 = pattern<int>(4 * (w * h + 3), 23);
      const std::vector<int> before4 = pattern<int>(4 * (w * h + 3), 24);
      const size_t limit = c.offset[0] + gw / 2 + 1;
      cl_mem I = buffer(in), O = buffer(before), D = buffer(before), I4 = buffer(in4),
             O4 = buffer(before4);
      cl_kernel k = kernel("rows_mixed", variant);
      ASSERT_NE(k, nullptr);
      setArgs(k, I, O, D, I4, O4, cl_ulong(w), cl_ulong(limit));
      run(k, {gw, gh}, {c.local[0], c.local[1]}, {c.offset[0], c.offset[1]});
      const auto out = read<int>(O, w * h), diagonal = read<int>(D, w * h);
      const auto out4 = read<int>(O4, 4 * (w * h + 3));
      std::vector<int> expected = before, expectedDiagonal = before, expected4 = before4;
      for (size_t y = c.offset[1]; y < c.offset[1] + gh; ++y)
        for (size_t x = c.offset[0]; x < c.offset[0] + gw; ++x) {
          const size_t lx = (x - c.offset[0]) % c.local[0], ly = (y - c.offset[1]) % c.local[1];
          int v = in[y * w + x] + 3 * in[y * w] + 5 * in[x];
          if (x < limit && y % 2 == 0)
            v += 1000;
          if (y + 1 < limit)
            v += 20000;
          expected[y * w + x] = v + int(ly * 7 + lx);
          if ((x + 2 * y) % 3 != 0)
            expectedDiagonal[y * w + x] = in[x + y];
          if (x % 4 != 1)
            for (size_t e = 0; e < 4; ++e)
              expected4[4 * (y * w + x) + e] = in4[4 * (y * w + x) + e] * 2;
        }
      const std::string where = label(variant) + " " + std::to_string(gw) + "x" +
                                std::to_string(gh) + " local " + std::to_string(c.local[0]) +
                                "x" + std::to_string(c.local[1]) + " offset " +
                                std::to_string(c.offset[0]) + "," + std::to_string(c.offset[1]);
      for (size_t j = 0; j < w * h; ++j) {
        ASSERT_EQ(out[j], expected[j]) << where << " at (" << j % w << ", " << j / w << ")";
        ASSERT_EQ(diagonal[j], expectedDiagonal[j])
            << "diagonal " << where << " at (" << j % w << ", " << j / w << ")";
      }
      for (size_t j = 0; j < out4.size(); ++j)
        ASSERT_EQ(out4[j], expected4[j]) << "vectors " << where << " element " << j;
    }
}

// 3D: warps that hold whole rows of one plane (8 x 16 x 2), and local sizes
// whose warps cross planes (4 x 4 x 4), which run without affine ids.
TEST_F(Affine, ThreeDimensionalRanges) {
  struct Case {
    size_t global[3], local[3];
  };
  const Case cases[] = {{{16, 32, 4}, {8, 16, 2}}, {{12, 8, 8}, {4, 4, 4}},
                        {{20, 18, 3}, {8, 16, 2}}, {{32, 4, 5}, {16, 2, 1}}};
  for (const std::string variant : variants)
    for (const Case &c : cases) {
      const size_t w = c.global[0], h = c.global[1], d = c.global[2];
      const std::vector<int> in = pattern<int>(w * h * d, 25);
      cl_mem I = buffer(in), O = buffer<int>(w * h * d);
      cl_kernel k = kernel("planes", variant);
      ASSERT_NE(k, nullptr);
      setArgs(k, I, O, cl_ulong(w), cl_ulong(h));
      run(k, {w, h, d}, {c.local[0], c.local[1], c.local[2]});
      const auto out = read<int>(O, w * h * d);
      for (size_t j = 0; j < w * h * d; ++j) {
        const size_t z = j / (w * h);
        ASSERT_EQ(out[j], in[j] + int(z * 100 + z % c.local[2]))
            << label(variant) << " " << w << "x" << h << "x" << d << " local " << c.local[0]
            << "x" << c.local[1] << "x" << c.local[2] << " at " << j;
      }
    }
}

// 3D work-groups one row deep in y: each warp's rows step in z (1 x 1 x N
// groups are rows of one work-item), partial last groups in z, several
// warps per group, a global offset.
TEST_F(Affine, WorkGroupsOneRowDeep) {
  struct Case {
    size_t global[3], local[3], offset[3];
  };
  const Case cases[] = {
      {{4, 3, 128}, {1, 1, 64}, {0, 0, 0}},   {{16, 3, 40}, {4, 1, 16}, {0, 0, 0}},
      {{8, 6, 10}, {8, 1, 3}, {0, 0, 0}},     {{2, 2, 300}, {2, 1, 100}, {0, 0, 0}},
      {{1, 1, 1000}, {1, 1, 256}, {0, 0, 0}}, {{4, 2, 20}, {4, 1, 8}, {0, 1, 5}},
      {{32, 2, 9}, {32, 1, 4}, {0, 0, 0}}};
  for (const std::string variant : variants)
    for (const Case &c : cases) {
      const size_t w = c.global[0], h = c.global[1], d = c.global[2];
      // Buffers cover the offset's ids too.
      const size_t W = w + c.offset[0], H = h + c.offset[1], D = d + c.offset[2];
      const size_t n = W * H * D;
      const std::vector<int> in = pattern<int>(n, 25);
      cl_mem I = buffer(in), O = buffer<int>(n), Ids = buffer<cl_int4>(n);
      cl_kernel k = kernel("rows_in_z", variant);
      ASSERT_NE(k, nullptr);
      const cl_ulong zLimit = c.offset[2] + d / 2 + 1;
      setArgs(k, I, O, Ids, cl_ulong(W), cl_ulong(H), zLimit);
      run(k, {w, h, d}, {c.local[0], c.local[1], c.local[2]},
          {c.offset[0], c.offset[1], c.offset[2]});
      const auto out = read<int>(O, n);
      const auto ids = read<cl_int4>(Ids, n);
      for (size_t z = c.offset[2]; z < D; ++z)
        for (size_t y = c.offset[1]; y < H; ++y)
          for (size_t x = c.offset[0]; x < W; ++x) {
            const size_t j = (z * H + y) * W + x;
            const size_t lx = (x - c.offset[0]) % c.local[0], ly = (y - c.offset[1]) % c.local[1],
                         lz = (z - c.offset[2]) % c.local[2], gz = (z - c.offset[2]) / c.local[2];
            const std::string where =
                label(variant) + " " + std::to_string(w) + "x" + std::to_string(h) + "x" +
                std::to_string(d) + " local " + std::to_string(c.local[0]) + "x" +
                std::to_string(c.local[1]) + "x" + std::to_string(c.local[2]) + " at (" +
                std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(z) + ")";
            ASSERT_EQ(out[j], in[j] + (z < zLimit ? 1000 : 0) + int(z * 100 + lz * 10 + ly))
                << where;
            ASSERT_EQ(ids[j].s[0], int(lx)) << where;
            ASSERT_EQ(ids[j].s[1], int(ly)) << where;
            ASSERT_EQ(ids[j].s[2], int(lz)) << where;
            ASSERT_EQ(ids[j].s[3], int(gz)) << where;
          }
    }
}

} // namespace
} // namespace lanewise::test
