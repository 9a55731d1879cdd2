// SPDX-License-Identifier: Apache-2.0
// First kernels: a vector add, a divergent loop and a __local reduction.
#include "harness.h"

#include <array>
#include <cmath>
#include <cstring>
#include <string>

namespace lanewise::test {
namespace {

using Basics = KernelTest;

TEST_F(Basics, VectorAddOverAPartialLastWorkGroup) {
  for (const char *variant : {"", "-O0"}) {
    const int n = 1000;
    std::vector<float> a(n), b(n);
    for (int i = 0; i < n; ++i) {
      a[i] = 0.5f * i;
      b[i] = 3.0f - i;
    }
    cl_mem A = buffer(a), B = buffer(b), C = buffer<float>(n);
    cl_kernel k = kernel("basics", "vadd", variant);
    setArgs(k, A, B, C, n);
    run(k, {1000}, {128}); // the last work-group has 104 work-items
    std::vector<float> c = read<float>(C, n);
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(c[i], a[i] + b[i]) << variant << " at " << i;
  }
}

TEST_F(Basics, LoopWithPerLaneTripCount) {
  for (const char *variant : {"", "-O0"}) {
    cl_mem out = buffer<int>(256);
    cl_kernel k = kernel("basics", "loops", variant);
    setArgs(k, out);
    run(k, {256}, {64});
    std::vector<int> o = read<int>(out, 256);
    for (int i = 0; i < 256; ++i) {
      int s = 0;
      for (int j = 0; j < i % 7; ++j)
        s += (j & 1) ? j * 3 : -1;
      ASSERT_EQ(o[i], s) << variant << " at " << i;
    }
  }
}

TEST_F(Basics, ValuesCarriedRoundALoop) {
  for (const char *variant : {"", "-O0"}) {
    const int n = 300;
    cl_mem out = buffer<cl_int>(3 * n), vout = buffer<cl_int>(8 * n);
    cl_kernel k = kernel("basics", "carried", variant);
    setArgs(k, out, vout);
    run(k, {size_t(n)}, {100});
    const std::vector<cl_int> o = read<cl_int>(out, 3 * n), vo = read<cl_int>(vout, 8 * n);
    for (int i = 0; i < n; ++i) {
      // The kernel's loop, on the host (wrapping as the device's does).
      uint32_t a = i, b = 1, c = 0;
      std::array<uint32_t, 4> v = {uint32_t(i), uint32_t(i + 1), uint32_t(i + 2), uint32_t(i + 3)};
      std::array<uint32_t, 4> w = {2 * v[0], 2 * v[1], 2 * v[2], 2 * v[3]};
      for (int j = 0; j < i % 7 + 1; ++j) {
        const uint32_t next = a + b;
        c = c * 3 + a;
        b = a - j;
        a = next;
        v = {v[3], v[0], v[1], v[2]};
        w = {w[1] + j, w[2] + j, w[3] + j, w[0] + j};
      }
      ASSERT_EQ(uint32_t(o[3 * i]), a) << variant << " a at " << i;
      ASSERT_EQ(uint32_t(o[3 * i + 1]), b) << variant << " b at " << i;
      ASSERT_EQ(uint32_t(o[3 * i + 2]), c) << variant << " c at " << i;
      for (int e = 0; e < 4; ++e) {
        ASSERT_EQ(uint32_t(vo[8 * i + e]), v[e]) << variant << " v." << e << " at " << i;
        ASSERT_EQ(uint32_t(vo[8 * i + 4 + e]), w[e]) << variant << " w." << e << " at " << i;
      }
    }
  }
}

// Loops of cl/carried_values.spvasm, whose instruction orders decide which
// carried values take their phi's register and which are lowered after the
// phi's last read (findCoalescedPhis). Each runs in work-groups of 100
// (warps with lanes missing), of one work-item, and without a local size.
class CarriedValues : public KernelTest {
protected:
  static constexpr size_t n = 3000;
  std::vector<cl_uint> runAll(const char *name, size_t perItem, const std::vector<size_t> &local,
                              const std::vector<size_t> &offset) {
    cl_mem out = buffer<cl_uint>(perItem * (n + (offset.empty() ? 0 : offset[0])));
    cl_kernel k = kernel("carried_values", name);
    setArgs(k, out);
    run(k, {n}, local, offset);
    return read<cl_uint>(out, perItem * (n + (offset.empty() ? 0 : offset[0])));
  }
  static const std::vector<std::pair<std::vector<size_t>, std::vector<size_t>>> &launches() {
    static const std::vector<std::pair<std::vector<size_t>, std::vector<size_t>>> all = {
        {{100}, {}}, {{1}, {}}, {{}, {}}, {{128}, {37}}};
    return all;
  }
};

TEST_F(CarriedValues, IntegersAndAFloat) {
  for (const char *name : {"sink_ab", "sink_ba", "read_between"}) {
    const bool between = std::string(name) == "read_between";
    for (const auto &[local, offset] : launches()) {
      const std::vector<cl_uint> out = runAll(name, 4, local, offset);
      const size_t first = offset.empty() ? 0 : offset[0];
      for (size_t g = first; g < first + n; ++g) {
        // The kernel's loop on the host, wrapping as the device's does.
        const uint32_t i = uint32_t(g), trips = i % 7 + 1;
        uint32_t a = i, b = 1, c = 0, k = 0;
        float x = float(i);
        while (a * a <= 5000) {
          const uint32_t a2 = a + b;
          const uint32_t t = between ? a2 * a : a * 3;
          const uint32_t b2 = b - k;
          c = c + t + uint32_t(x * 0.5f);
          a = a2;
          b = b2;
          x = x + 1.5f;
          if (!(++k < trips))
            break;
        }
        float got;
        std::memcpy(&got, &out[4 * g + 3], sizeof got);
        ASSERT_EQ(out[4 * g], a) << name << " a at " << g << " local " << local.size();
        ASSERT_EQ(out[4 * g + 1], b) << name << " b at " << g;
        ASSERT_EQ(out[4 * g + 2], c) << name << " c at " << g;
        ASSERT_EQ(got, x) << name << " x at " << g;
      }
    }
  }
}

TEST_F(CarriedValues, DivergentEscapeLoop) {
  for (const auto &[local, offset] : launches()) {
    const std::vector<cl_uint> out = runAll("mandel", 2, local, offset);
    const size_t first = offset.empty() ? 0 : offset[0];
    for (size_t g = first; g < first + n; ++g) {
      const uint32_t i = uint32_t(g);
      const float cr = float(i % 61) * 0.05f - 2.0f, ci = float(i / 61) * 0.05f - 1.0f;
      float zr = 0.0f, zi = 0.0f;
      uint32_t it = 0;
      while (!(zr * zr + zi * zi > 4.0f)) {
        const float next = cr + (zr * zr - zi * zi);
        zi = std::fma(zr * 2.0f, zi, ci);
        zr = next;
        if (!(++it < 64))
          break;
      }
      float got;
      std::memcpy(&got, &out[2 * g + 1], sizeof got);
      ASSERT_EQ(out[2 * g], it) << "at " << g << " local " << local.size();
      ASSERT_EQ(got, zr) << "at " << g;
    }
  }
}

TEST_F(Basics, LocalReductionWithBarriersInALoop) {
  for (const char *variant : {"", "-O0"}) {
    std::vector<int> in(1024);
    for (int i = 0; i < 1024; ++i)
      in[i] = i * 7 - 300;
    cl_mem I = buffer(in), O = buffer<int>(4);
    cl_kernel k = kernel("basics", "local_sum", variant);
    setArgs(k, I, O, Local{256 * sizeof(int)});
    run(k, {1024}, {256});
    std::vector<int> o = read<int>(O, 4);
    for (int g = 0; g < 4; ++g) {
      int s = 0;
      for (int i = 0; i < 256; ++i)
        s += in[g * 256 + i];
      ASSERT_EQ(o[g], s) << variant << " group " << g;
    }
  }
}

} // namespace
} // namespace lanewise::test
