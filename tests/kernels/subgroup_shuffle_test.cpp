// SPDX-License-Identifier: Apache-2.0
// Sub-group shuffles: cl_khr_subgroup_shuffle and
// cl_khr_subgroup_shuffle_relative, in uniform and divergent control flow
// (kernels in cl/subgroups.cl; how results are checked: subgroup_fixture.h).
#include "subgroup_fixture.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace lanewise::test::subgroup {
namespace {

// ---- cl_khr_subgroup_shuffle and _relative: uniform and divergent ---------------------
template <typename P> class SubgroupShuffle : public SubgroupFixture {};
TYPED_TEST_SUITE(SubgroupShuffle, AllTypes, TypeNames);

TYPED_TEST(SubgroupShuffle, UniformAndDivergent) {
  using T = Value<TypeParam>;
  const std::string name = std::string("shuffle_") + Traits<T>::name;
  static const char *slotNames[] = {"shuffle(x, index)",
                                    "shuffle_xor(x, mask)",
                                    "shuffle_up(x, delta)",
                                    "shuffle_down(x, delta)",
                                    "shuffle_up(x, 1)",
                                    "shuffle_down(x, 1)",
                                    "shuffle_xor(x, 1)",
                                    "odd lanes: shuffle_xor(x, 2)",
                                    "odd lanes: shuffle(x, index | 1)",
                                    "odd lanes: shuffle_up(x, 2)",
                                    "odd lanes: shuffle_down(x, 2)",
                                    "loop of shuffle_xor(p, 1 << k % 3)",
                                    "loop of shuffle_up(q, k) / shuffle_down(q, k + 1)",
                                    "after early return: shuffle(x, index)",
                                    "after early return: shuffle_down(x, 1)",
                                    "after early return: shuffle_up(x, 1)",
                                    "after the loops: shuffle_down(x, 1)"};
  constexpr size_t K = 17;
  Rng rng(2);
  for (const std::string &variant : kVariants) {
    cl_kernel k = this->sgKernel(name, variant);
    ASSERT_NE(k, nullptr);
    for (const Range &r : kRanges) {
      const size_t n = items(r);
      std::vector<T> x(n);
      std::vector<cl_uint> sel(n);
      for (size_t i = 0; i < n; ++i) {
        x[i] = anyValue<T>(rng);
        sel[i] = cl_uint(rng());
      }
      const std::vector<cl_uint> ctl = controls(n, rng, 5);
      cl_mem out = this->template sentinelBuffer<T>(n * K);
      cl_mem info = this->template buffer<cl_uint>(n * kInfoWords);
      this->setArgs(k, this->buffer(x), this->buffer(sel), this->buffer(ctl), out, info);
      this->run(k, r.global, r.local);
      const std::string at = where(name, variant, r);
      const auto p = this->partition(info, r, 0, at);
      if (!p)
        continue;
      Expected<T> want(n, K);
      for (const auto &sg : p->subgroups) {
        const size_t size = sg.size(), max = p->max;
        const std::vector<T> xv = gather(sg, x);
        const std::vector<bool> all(size, true), odd = oddLanes(size);
        std::vector<bool> stays(size);
        std::vector<unsigned> trips(size);
        for (size_t l = 0; l < size; ++l) {
          trips[l] = ctl[sg[l]] & 0xff;
          stays[l] = (ctl[sg[l]] >> 8) == 0;
        }
        // The two loops, simulated iteration by iteration: a lane takes part
        // in iteration k if its trip count exceeds k; a value is defined if
        // its source lane took part and held a defined value.
        std::vector<T> pv = xv, qv = xv;
        std::vector<bool> pd(size, true), qd(size, true);
        for (unsigned it = 0; it < 5; ++it) {
          std::vector<T> np = pv, nq = qv;
          std::vector<bool> npd = pd, nqd = qd;
          for (size_t l = 0; l < size; ++l) {
            if (trips[l] <= it)
              continue;
            const size_t ps = l ^ (size_t(1) << (it % 3));
            const std::int64_t qs =
                it % 2 ? std::int64_t(l) - std::int64_t(it) : std::int64_t(l + it + 1);
            const bool pok = ps < size && trips[ps] > it && pd[ps];
            const bool qok = qs >= 0 && qs < std::int64_t(size) && trips[qs] > it && qd[qs];
            np[l] = pok ? pv[ps] : T{};
            npd[l] = pok;
            nq[l] = qok ? qv[qs] : T{};
            nqd[l] = qok;
          }
          pv = np, qv = nq, pd = npd, qd = nqd;
        }
        for (size_t l = 0; l < size; ++l) {
          const size_t g = sg[l];
          const std::int64_t li = std::int64_t(l);
          const cl_uint s = sel[g];
          const size_t index = s % size, mask = (s >> 8) % max, delta = (s >> 16) % size;
          want.from(g, 0, xv, index, all);
          want.from(g, 1, xv, l ^ mask, all);
          want.from(g, 2, xv, li - std::int64_t(delta), all);
          want.from(g, 3, xv, l + delta, all);
          want.from(g, 4, xv, li - 1, all);
          want.from(g, 5, xv, l + 1, all);
          want.from(g, 6, xv, l ^ 1, all);
          if (l % 2) {
            want.from(g, 7, xv, l ^ 2, odd);
            want.from(g, 8, xv, index | 1, odd);
            want.from(g, 9, xv, li - 2, odd);
            want.from(g, 10, xv, l + 2, odd);
          }
          if (pd[l])
            want.value(g, 11, pv[l]);
          else
            want.undefined(g, 11);
          if (qd[l])
            want.value(g, 12, qv[l]);
          else
            want.undefined(g, 12);
          want.from(g, 16, xv, l + 1, all);
          if (stays[l]) {
            want.from(g, 13, xv, index, stays);
            want.from(g, 14, xv, l + 1, stays);
            want.from(g, 15, xv, li - 1, stays);
          }
        }
      }
      compare<T>(
          at, *p, this->template read<T>(out, n * K), want,
          [](size_t s) { return std::string(slotNames[s]); }, true);
    }
  }
}

// ---- one index for every lane: a kernel argument -------------------------------------
// The index, mask or delta is uniform, so every sub-group takes its values
// from the same lanes: masks that reach across blocks of eight lanes, and
// indices and deltas at and past the sub-group's size (whose results are
// undefined, and not compared).
TYPED_TEST(SubgroupShuffle, OneIndexForEveryLane) {
  using T = Value<TypeParam>;
  const std::string name = std::string("shuffle_argument_") + Traits<T>::name;
  static const char *slotNames[] = {"shuffle(x, m)", "shuffle_xor(x, m)", "shuffle_up(x, m)",
                                    "shuffle_down(x, m)", "shuffle_xor(x, m % max)"};
  constexpr size_t K = 5;
  const cl_uint ms[] = {0,  1,  2,  3,   5,   6,   7,           8,           9,
                        12, 15, 16, 17,  23,  24,  31,          32,          33,
                        63, 64, 65, 127, 128, 200, 0x7fffffffu, 0xfffffff0u, 0xffffffffu};
  Rng rng(3);
  for (const std::string &variant : kVariants) {
    cl_kernel k = this->sgKernel(name, variant);
    ASSERT_NE(k, nullptr);
    for (const Range &r : kRanges) {
      const size_t n = items(r);
      std::vector<T> x(n);
      for (T &v : x)
        v = anyValue<T>(rng);
      cl_mem in = this->buffer(x);
      for (const cl_uint m : ms) {
        cl_mem out = this->template sentinelBuffer<T>(n * K);
        cl_mem info = this->template buffer<cl_uint>(n * kInfoWords);
        this->setArgs(k, in, m, out, info);
        this->run(k, r.global, r.local);
        const std::string at = where(name, variant, r) + " m=" + std::to_string(m);
        const auto p = this->partition(info, r, 0, at);
        if (!p)
          continue;
        Expected<T> want(n, K);
        for (const auto &sg : p->subgroups) {
          const size_t size = sg.size(), max = p->max;
          const std::vector<T> xv = gather(sg, x);
          const std::vector<bool> all(size, true);
          for (size_t l = 0; l < size; ++l) {
            const size_t g = sg[l];
            want.from(g, 0, xv, m, all);
            want.from(g, 1, xv, std::int64_t(l ^ m), all);
            want.from(g, 2, xv, std::int64_t(l) - std::int64_t(m), all);
            want.from(g, 3, xv, std::int64_t(l) + std::int64_t(m), all);
            want.from(g, 4, xv, std::int64_t(l ^ (m % max)), all);
          }
        }
        compare<T>(
            at, *p, this->template read<T>(out, n * K), want,
            [](size_t s) { return std::string(slotNames[s]); }, true);
      }
    }
  }
}

} // namespace
} // namespace lanewise::test::subgroup
