// SPDX-License-Identifier: Apache-2.0
// Launches whose small work-groups share warps (kernels in cl/packed.cl):
// one-dimensional ranges with local sizes from 1 to 1,000, partial last
// groups and global offsets, and rows of groups in two and three
// dimensions; every built-in a group-independent kernel may
// read, addresses in the local and the global id, divergence, private
// arrays and register-heavy code. The expected values are computed here
// from the OpenCL C definitions of the built-ins and of the kernels.
#include "harness.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace lanewise::test {
namespace {

const char *const variants[] = {"", "-O0"};

struct Range {
  size_t global, local, offset;
};
// Local sizes of one work-item, odd ones, ones that divide the warp and
// ones that do not, and one too large to share it; with and without a
// smaller last group.
const Range ranges[] = {{37, 1, 0},      {1000, 3, 5},   {998, 7, 0},    {4096, 32, 0},
                        {1000, 100, 11}, {3000, 128, 0}, {2900, 200, 0}, {5000, 500, 3},
                        {2048, 512, 0},  {3000, 1000, 0}};

std::string where(const std::string &variant, const Range &r) {
  return (variant.empty() ? "-O2" : variant) + " global " + std::to_string(r.global) + " local " +
         std::to_string(r.local) + " offset " + std::to_string(r.offset);
}

class Packed : public SharedContextTest {
protected:
  cl_kernel kernel(const std::string &name, const std::string &variant) {
    return cachedKernel("packed", name, variant);
  }
  void launch(cl_kernel k, const Range &r) { run(k, {r.global}, {r.local}, {r.offset}); }
};

TEST_F(Packed, EveryWorkItemSeesItsOwnBuiltins) {
  for (const std::string variant : variants)
    for (const Range &r : ranges) {
      cl_kernel k = kernel("builtins", variant);
      ASSERT_NE(k, nullptr);
      cl_mem out = buffer<cl_ulong>(r.global * 8);
      setArgs(k, out);
      launch(k, r);
      const std::vector<cl_ulong> got = read<cl_ulong>(out, r.global * 8);
      const size_t groups = (r.global + r.local - 1) / r.local;
      for (size_t i = 0; i < r.global; ++i) {
        const size_t group = i / r.local, local = i % r.local;
        const size_t size = group + 1 < groups ? r.local : r.global - group * r.local;
        const std::array<cl_ulong, 8> expected = {
            r.offset + i,      local, size, groups, r.offset, local, r.global + 1000000 * r.local,
            11 * 2 + 13 + 1000};
        for (size_t j = 0; j < 8; ++j)
          ASSERT_EQ(got[i * 8 + j], expected[j])
              << "built-in " << j << " of work-item " << i << ", " << where(variant, r);
      }
    }
}

TEST_F(Packed, AddressesInTheLocalIdRepeatInEveryGroup) {
  for (const std::string variant : variants)
    for (const Range &r : ranges) {
      std::vector<cl_int> table(r.local), in(r.offset + r.global);
      for (size_t j = 0; j < table.size(); ++j)
        table[j] = static_cast<cl_int>(j * 7 % 13);
      for (size_t j = 0; j < in.size(); ++j)
        in[j] = static_cast<cl_int>(j * 3 % 101);
      cl_kernel k = kernel("rows", variant);
      ASSERT_NE(k, nullptr);
      cl_mem out = buffer<cl_int>(r.offset + r.global);
      setArgs(k, buffer(table), buffer(in), out);
      launch(k, r);
      const std::vector<cl_int> got = read<cl_int>(out, r.offset + r.global);
      for (size_t i = 0; i < r.global; ++i) {
        const size_t gid = r.offset + i, lid = i % r.local;
        ASSERT_EQ(got[gid], cl_int(table[lid] * 1000 + in[gid] + (gid - lid)))
            << "work-item " << gid << ", " << where(variant, r);
      }
    }
}

TEST_F(Packed, DivergenceAndPrivateArraysInEachGroup) {
  for (const std::string variant : variants)
    for (const Range &r : ranges) {
      if (r.offset)
        continue;                                   // the kernel indexes from global id 0
      const int n = static_cast<int>(r.global) - 4; // the last work-items return early
      std::vector<cl_int> in(r.global);
      for (size_t j = 0; j < in.size(); ++j)
        in[j] = static_cast<cl_int>(j % 17) - 8;
      std::vector<cl_int> before(r.global, -7);
      cl_kernel k = kernel("private_walk", variant);
      ASSERT_NE(k, nullptr);
      cl_mem out = buffer(before);
      setArgs(k, buffer(in), out, cl_int(n));
      launch(k, r);
      const std::vector<cl_int> got = read<cl_int>(out, r.global);
      for (int gid = 0; gid < int(r.global); ++gid) {
        const int lid = gid % int(r.local);
        int expected = -7;
        if (gid < n) {
          expected = 0;
          for (int j = 0; j <= lid % 8; ++j)
            expected += in[(gid + j) % n] * (lid + j);
          if (lid % 3 == 1)
            expected = -expected;
        }
        ASSERT_EQ(got[gid], expected) << "work-item " << gid << ", " << where(variant, r);
      }
    }
}

TEST_F(Packed, RegisterHeavyKernels) {
  for (const std::string variant : variants)
    for (const Range &r : ranges) {
      if (r.offset)
        continue;
      // Small integers: every operation of the kernel is exact in double.
      std::vector<cl_double> in(r.global * 8);
      for (size_t j = 0; j < in.size(); ++j)
        in[j] = double(int(j % 23) - 11);
      cl_kernel k = kernel("wide_values", variant);
      ASSERT_NE(k, nullptr);
      cl_mem out = buffer<cl_double>(in.size());
      setArgs(k, buffer(in), out);
      launch(k, r);
      const std::vector<cl_double> got = read<cl_double>(out, in.size());
      for (size_t j = 0; j < in.size(); ++j) {
        const double a = in[j], b = a * 2 + 1, c = a * a, d = b * c - a, e = d + c * 3;
        const double expected = (a + b) * (c - d) + e * double((j / 8) % r.local);
        ASSERT_EQ(got[j], expected) << "element " << j << ", " << where(variant, r);
      }
    }
}

TEST_F(Packed, EveryWorkItemSeesItsOwnGroupId) {
  for (const std::string variant : variants)
    for (const Range &r : ranges) {
      cl_kernel k = kernel("group_ids", variant);
      ASSERT_NE(k, nullptr);
      cl_mem out = buffer<cl_int>(r.global);
      setArgs(k, out);
      launch(k, r);
      const std::vector<cl_int> got = read<cl_int>(out, r.global);
      for (size_t i = 0; i < r.global; ++i)
        ASSERT_EQ(got[i], cl_int(i / r.local * 1000 + i % r.local))
            << "work-item " << i << ", " << where(variant, r);
    }
}

// Every id in two and three dimensions, where each row of work-groups
// along x shares warps (local sizes 1 in y and z, every group full), and
// where the groups cannot (a smaller last group in x, a local size above
// 1 in y).
TEST_F(Packed, RowsOfWorkGroupsInTwoAndThreeDimensions) {
  struct Launch {
    std::array<size_t, 3> global, local, offset;
  };
  const Launch launches[] = {
      {{37, 5, 1}, {1, 1, 1}, {0, 0, 0}},   {{300, 7, 3}, {1, 1, 1}, {2, 5, 1}},
      {{64, 3, 2}, {4, 1, 1}, {0, 0, 0}},   {{96, 4, 1}, {48, 1, 1}, {3, 0, 0}},
      {{2047, 9, 1}, {1, 1, 1}, {0, 0, 0}}, {{100, 7, 1}, {3, 1, 1}, {0, 1, 0}},
      {{40, 6, 2}, {2, 2, 1}, {0, 0, 0}},   {{5, 300, 1}, {1, 1, 1}, {0, 0, 0}}};
  for (const std::string variant : variants)
    for (const Launch &l : launches) {
      const size_t n = l.global[0] * l.global[1] * l.global[2];
      std::string at = (variant.empty() ? "-O2" : variant) + " global";
      for (size_t d = 0; d < 3; ++d)
        at += " " + std::to_string(l.global[d]);
      at += " local";
      for (size_t d = 0; d < 3; ++d)
        at += " " + std::to_string(l.local[d]);
      cl_kernel k = kernel("builtins_3d", variant);
      ASSERT_NE(k, nullptr);
      cl_mem out = buffer<cl_ulong>(n * 12);
      setArgs(k, out);
      run(k, {l.global[0], l.global[1], l.global[2]}, {l.local[0], l.local[1], l.local[2]},
          {l.offset[0], l.offset[1], l.offset[2]});
      const std::vector<cl_ulong> got = read<cl_ulong>(out, n * 12);
      size_t groups[3], local[3];
      for (size_t d = 0; d < 3; ++d)
        groups[d] = (l.global[d] + l.local[d] - 1) / l.local[d];
      for (size_t i = 0; i < n; ++i) {
        const size_t id[3] = {i % l.global[0], i / l.global[0] % l.global[1],
                              i / (l.global[0] * l.global[1])};
        std::array<cl_ulong, 12> expected;
        for (size_t d = 0; d < 3; ++d) {
          const size_t group = id[d] / l.local[d];
          local[d] = group + 1 < groups[d] ? l.local[d] : l.global[d] - group * l.local[d];
          expected[d] = id[d] + l.offset[d];
          expected[3 + d] = id[d] % l.local[d];
          expected[6 + d] = group;
        }
        expected[9] = i;
        expected[10] = (expected[5] * local[1] + expected[4]) * local[0] + expected[3];
        expected[11] = groups[0] + 1000 * groups[1] + 1000000 * groups[2] +
                       1000000000ull * (local[0] + 10 * local[1] + 100 * local[2]);
        for (size_t j = 0; j < 12; ++j)
          ASSERT_EQ(got[i * 12 + j], expected[j])
              << "built-in " << j << " of work-item " << i << ", " << at;
      }
    }
}

// Work-groups of one work-item with __local memory, barriers and copies:
// several to a warp, in one dimension and in two.
TEST_F(Packed, WorkGroupsOfOneWorkItemKeepTheirLocalMemory) {
  struct Launch {
    size_t global, offset;
    bool twoDimensions;
  };
  const Launch launches[] = {
      {1, 0, false}, {37, 0, false}, {1000, 5, false}, {4099, 0, false}, {150, 2, true}};
  for (const std::string variant : variants)
    for (const Launch &l : launches) {
      const size_t n = l.twoDimensions ? 2 * l.global : l.global;
      const std::string at = (variant.empty() ? "-O2" : variant) + " global " +
                             std::to_string(l.global) + (l.twoDimensions ? " x 2" : "") +
                             " offset " + std::to_string(l.offset);
      std::vector<cl_int> in(n + 3 * 7 + 1);
      for (size_t j = 0; j < in.size(); ++j)
        in[j] = static_cast<cl_int>(j * 5 % 97) - 40;
      cl_kernel k = kernel("alone", variant);
      ASSERT_NE(k, nullptr);
      cl_mem out = buffer(std::vector<cl_int>(n * 9, -7)), spread = buffer<cl_int>(n * 8);
      setArgs(k, buffer(in), out, spread);
      if (l.twoDimensions)
        run(k, {l.global, 2}, {1, 1}, {l.offset, 3});
      else
        run(k, {l.global}, {1}, {l.offset});
      const std::vector<cl_int> got = read<cl_int>(out, n * 9);
      const std::vector<cl_int> spreadGot = read<cl_int>(spread, n * 8);
      for (size_t gid = 0; gid < n; ++gid) {
        const size_t trips = gid % 8 + 1;
        for (size_t k = 0; k < 8; ++k) {
          const cl_int loaded = in[gid + 3 * k];
          ASSERT_EQ(spreadGot[gid + k * n], loaded)
              << "spread element " << k << " of work-item " << gid << ", " << at;
          cl_int expected = -7;
          if (k < trips) {
            expected = loaded * cl_int(gid + 1) + 0 + 1;
            if (k == 0 && gid % 3 == 1)
              expected = -expected;
          }
          ASSERT_EQ(got[gid * 9 + k], expected)
              << "element " << k << " of work-item " << gid << ", " << at;
        }
        ASSERT_EQ(got[gid * 9 + 8], cl_int(trips)) << "count of work-item " << gid << ", " << at;
      }
    }
}

} // namespace
} // namespace lanewise::test
