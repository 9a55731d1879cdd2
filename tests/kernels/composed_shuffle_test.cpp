// SPDX-License-Identifier: Apache-2.0
// Chains of constant permutations (kernels in cl/composed_shuffle.cl):
// shuffle2 of loaded vectors, put together and shuffled again (a 4 x 4
// transpose); the same in some work-items only, with masks whose high bits
// are set; an intermediate that is also stored; swizzles of swizzles;
// constants and an argument permuted with loaded vectors; permutations in a
// loop. Lanewise copies each component of such a chain once, from where it
// was first computed (spirv/lower_composite.cpp, findComposedSelections).
// The expected results follow the OpenCL C definitions of shuffle, shuffle2
// (6.15.12), vector literals and swizzles (6.3.7), computed here; they must
// match bit for bit. Every element size, launches of whole warps, of warps
// with lanes missing, of small groups sharing warps, and with a global
// offset; every store must leave the elements around it alone.
#include "harness.h"
#include "launches.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace lanewise::test {
namespace {

const char *const variants[] = {"", "-O0"};

template <typename T> bool sameBits(T a, T b) { return std::memcmp(&a, &b, sizeof(T)) == 0; }

template <typename T> std::vector<T> randomValues(size_t count, std::mt19937_64 &random) {
  std::vector<T> out(count);
  for (T &e : out) {
    if constexpr (std::is_floating_point_v<T>)
      e = T(std::int64_t(random() % 2000001) - 1000000) / T(64);
    else
      e = T(random());
  }
  return out;
}

class ComposedShuffle : public SharedContextTest {
protected:
  cl_kernel kernel(const std::string &name, const std::string &variant) {
    return cachedKernel("composed_shuffle", name, variant);
  }
  void launch(cl_kernel k, const Launch &l) {
    if (l.local)
      run(k, {l.global}, {l.local}, {l.offset});
    else
      run(k, {l.global}, {}, {l.offset});
  }

  // Runs kernel `name` of type `type` on every launch: `inPerItem` input
  // and `outPerItem` output elements a work-item, the output filled first
  // with other values; `expect(item, in, extra)` gives the work-item's
  // `outPerItem` elements. `extra` are arguments after the two buffers.
  template <typename T, typename... Extra>
  void check(const std::string &name, size_t inPerItem, size_t outPerItem,
             const std::function<std::vector<T>(size_t, const std::vector<T> &)> &expect,
             const Extra &...extra) {
    std::mt19937_64 random(0xc0de + sizeof(T) + name.size());
    for (const std::string variant : variants)
      for (const Launch &l : launches) {
        cl_kernel k = kernel(name, variant);
        ASSERT_NE(k, nullptr) << name;
        const size_t items = l.offset + l.global;
        const std::vector<T> in = randomValues<T>(items * inPerItem + 3, random);
        const std::vector<T> before = randomValues<T>(items * outPerItem + 3, random);
        cl_mem out = buffer(before);
        setArgs(k, buffer(in), out, extra...);
        launch(k, l);
        const std::vector<T> got = read<T>(out, before.size());
        for (size_t item = 0; item < items + 1; ++item) {
          const bool ran = item >= l.offset && item < items;
          const std::vector<T> want = ran ? expect(item, in) : std::vector<T>();
          for (size_t j = 0; j < outPerItem && item * outPerItem + j < got.size(); ++j) {
            const size_t e = item * outPerItem + j;
            const T w = ran ? want[j] : before[e];
            ASSERT_TRUE(sameBits(got[e], w))
                << name << " work-item " << item << " element " << j << ": got " << +got[e]
                << ", want " << +w << " (" << where(variant, l) << ")";
          }
        }
      }
  }

  template <typename T> void everyKernel(const std::string &type);
};

template <typename T> void ComposedShuffle::everyKernel(const std::string &type) {
  // out[16i + 4c + r] = in[16i + 4r + c].
  check<T>("transpose_" + type, 16, 16, [](size_t i, const std::vector<T> &in) {
    std::vector<T> out(16);
    for (size_t r = 0; r < 4; ++r)
      for (size_t c = 0; c < 4; ++c)
        out[4 * c + r] = in[16 * i + 4 * r + c];
    return out;
  });
  // Rows 0 and 1 become columns 0 and 1 where i % 3 != 0, rows 2 and 3
  // stay; elsewhere row 0 four times.
  check<T>("divergent_" + type, 16, 16, [](size_t i, const std::vector<T> &in) {
    std::vector<T> out(16);
    auto row = [&](size_t r, size_t c) { return in[16 * i + 4 * r + c]; };
    for (size_t c = 0; c < 4; ++c) {
      if (i % 3 == 0) {
        for (size_t r = 0; r < 4; ++r)
          out[4 * r + c] = row(0, c);
        continue;
      }
      out[c] = row(c, 0);
      out[4 + c] = row(c, 1);
      out[8 + c] = row(2, c);
      out[12 + c] = row(3, c);
    }
    return out;
  });
  // r0 = in[8i ..], r1 = in[8i + 4 ..]; t = (r1.3, r0.0, r1.2, r0.1); w =
  // (r0.wzyx, t.s3012).s7531 = (t.2, t.0, r0.0, r0.2); c = (r1.1, 1, r1.3,
  // 3); (c, a).s6143 = (a.2, 1, a.0, 3); shuffle2(a, (5, 6, 7, 8), (4, 3,
  // 6, 1)) = (5, a.3, 7, a.1).
  const T a[4] = {T(11), T(12), T(13), T(14)};
  struct Vector4 {
    T s[4];
  };
  const Vector4 argument{{a[0], a[1], a[2], a[3]}};
  check<T>(
      "mixed_" + type, 8, 16,
      [&](size_t i, const std::vector<T> &in) {
        const T *r0 = &in[8 * i], *r1 = &in[8 * i + 4];
        const T t[4] = {r1[3], r0[0], r1[2], r0[1]};
        return std::vector<T>{t[0], t[1], t[2], t[3], t[2], t[0], r0[0], r0[2],
                              a[2], T(1), a[0], T(3), T(5), a[3], T(7),  a[1]};
      },
      argument);
  // The loops: turns + i % 4 times acc = (acc.1, acc.2, acc.3, r[k % 4]),
  // then turns + i % 3 times acc = (acc.3, acc.0, acc.1, r.1).
  const cl_int turns = 5;
  check<T>(
      "loop_" + type, 8, 4,
      [&](size_t i, const std::vector<T> &in) {
        const T *r = &in[8 * i];
        std::vector<T> acc(in.begin() + 8 * i + 4, in.begin() + 8 * i + 8);
        for (size_t k = 0; k < turns + i % 4; ++k)
          acc = {acc[1], acc[2], acc[3], r[k % 4]};
        for (size_t k = 0; k < turns + i % 3; ++k)
          acc = {acc[3], acc[0], acc[1], r[1]};
        return acc;
      },
      turns);
  // t = (r0.0, r1.1, r0.2, r1.3), then (r2.0, t.0, r2.2, t.3), then r2.
  check<T>("reused_" + type, 12, 12, [](size_t i, const std::vector<T> &in) {
    const T *r0 = &in[12 * i], *r1 = &in[12 * i + 4], *r2 = &in[12 * i + 8];
    return std::vector<T>{r0[0], r1[1], r0[2], r1[3], r2[0], r0[0],
                          r2[2], r1[3], r2[0], r2[1], r2[2], r2[3]};
  });
  // turns + i % 3 times: other = (acc.0, other.0, acc.2, other.2), then
  // acc = in[8i + 4 (k % 2) ..].
  check<T>(
      "carried_" + type, 8, 8,
      [&](size_t i, const std::vector<T> &in) {
        std::vector<T> other(in.begin() + 8 * i, in.begin() + 8 * i + 4);
        std::vector<T> acc(in.begin() + 8 * i + 4, in.begin() + 8 * i + 8);
        for (size_t k = 0; k < turns + i % 3; ++k) {
          other = {acc[0], other[0], acc[2], other[2]};
          acc.assign(in.begin() + 8 * i + 4 * (k % 2), in.begin() + 8 * i + 4 * (k % 2) + 4);
        }
        other.insert(other.end(), acc.begin(), acc.end());
        return other;
      },
      turns);
}

TEST_F(ComposedShuffle, Char) { everyKernel<std::int8_t>("char"); }
TEST_F(ComposedShuffle, Short) { everyKernel<std::int16_t>("short"); }
TEST_F(ComposedShuffle, Int) { everyKernel<std::int32_t>("int"); }
TEST_F(ComposedShuffle, Long) { everyKernel<std::int64_t>("long"); }
TEST_F(ComposedShuffle, Float) { everyKernel<float>("float"); }
TEST_F(ComposedShuffle, Double) { everyKernel<double>("double"); }

} // namespace
} // namespace lanewise::test
