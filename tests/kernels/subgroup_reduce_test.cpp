// SPDX-License-Identifier: Apache-2.0
// Sub-group reductions, scans and broadcasts: cl_khr_subgroups' over all
// work-items of a sub-group, cl_khr_subgroup_non_uniform_arithmetic's over
// the active ones, cl_khr_subgroup_clustered_reduce's over every cluster
// size, and broadcasts of vectors (kernels in cl/subgroups.cl; how results
// are checked: subgroup_fixture.h).
#include "subgroup_fixture.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace lanewise::test::subgroup {
namespace {

// ---- cl_khr_subgroups reductions, scans and broadcasts (all work-items) --------------
template <typename P> class SubgroupUniform : public SubgroupFixture {};
TYPED_TEST_SUITE(SubgroupUniform, AllTypes, TypeNames);

TYPED_TEST(SubgroupUniform, BroadcastReduceScan) {
  using T = Value<TypeParam>;
  const std::string name = std::string("uniform_") + Traits<T>::name;
  static const char *slotNames[] = {"broadcast(m, lane)",    "reduce_add(a)",
                                    "reduce_min(m)",         "reduce_max(m)",
                                    "scan_inclusive_add(a)", "scan_inclusive_min(m)",
                                    "scan_inclusive_max(m)", "scan_exclusive_add(a)",
                                    "scan_exclusive_min(m)", "scan_exclusive_max(m)"};
  Rng rng(1);
  for (const std::string &variant : kVariants) {
    cl_kernel k = this->sgKernel(name, variant);
    ASSERT_NE(k, nullptr);
    for (const Range &r : kRanges) {
      for (cl_uint lane : {1u, 13u, 1000u}) {
        const size_t n = items(r);
        std::vector<T> a(n), m(n);
        for (size_t i = 0; i < n; ++i) {
          a[i] = smallValue<T>(rng);
          m[i] = anyValue<T>(rng);
        }
        cl_mem out = this->template sentinelBuffer<T>(n * 10);
        cl_mem info = this->template buffer<cl_uint>(n * kInfoWords);
        this->setArgs(k, this->buffer(a), this->buffer(m), out, info, lane);
        this->run(k, r.global, r.local);
        const std::string at = where(name, variant, r) + ", lane " + std::to_string(lane);
        const auto p = this->partition(info, r, 0, at);
        if (!p)
          continue;
        Expected<T> want(n, 10);
        for (const auto &sg : p->subgroups) {
          const std::vector<bool> all(sg.size(), true);
          const auto av = gather(sg, a), mv = gather(sg, m);
          const Scan<T> add = scan(Op::Add, av, all), mn = scan(Op::Min, mv, all),
                        mx = scan(Op::Max, mv, all);
          for (size_t l = 0; l < sg.size(); ++l) {
            const size_t g = sg[l];
            want.value(g, 0, mv[clampLane(lane, sg.size())]);
            want.value(g, 1, add.reduce);
            want.value(g, 2, mn.reduce);
            want.value(g, 3, mx.reduce);
            want.value(g, 4, add.inclusive[l]);
            want.value(g, 5, mn.inclusive[l]);
            want.value(g, 6, mx.inclusive[l]);
            want.value(g, 7, add.exclusive[l]);
            want.value(g, 8, mn.exclusive[l]);
            want.value(g, 9, mx.exclusive[l]);
          }
        }
        compare<T>(
            at, *p, this->template read<T>(out, n * 10), want,
            [](size_t s) { return std::string(slotNames[s]); }, false);
      }
    }
  }
}

// ---- cl_khr_subgroup_non_uniform_arithmetic ----------------------------------------
template <typename P> class SubgroupNonUniform : public SubgroupFixture {};
TYPED_TEST_SUITE(SubgroupNonUniform, AllTypes, TypeNames);

TYPED_TEST(SubgroupNonUniform, ActiveLanesOnly) {
  using T = Value<TypeParam>;
  const std::string name = std::string("nonuniform_") + Traits<T>::name;
  constexpr size_t K = 54;
  const std::vector<Op> ops =
      isFloat<T> ? std::vector<Op>{Op::Add, Op::Mul, Op::Min, Op::Max}
                 : std::vector<Op>{Op::Add, Op::Mul, Op::Min, Op::Max, Op::And, Op::Or, Op::Xor};
  static const char *kinds[] = {"reduce", "scan_inclusive", "scan_exclusive"};
  auto slotName = [](size_t s) {
    static const char *opNames[] = {"add", "mul", "min", "max", "and", "or", "xor"};
    std::ostringstream o;
    if (s < 42)
      o << (s < 21 ? "all lanes: " : "odd lanes: ") << "non_uniform_" << kinds[s % 3] << "_"
        << opNames[s % 21 / 3];
    else
      o << "loop iteration " << (s - 42) / 3 << ": "
        << ((s - 42) % 3 == 0   ? "reduce_add(a)"
            : (s - 42) % 3 == 1 ? "scan_inclusive_add(a)"
                                : "scan_exclusive_max(m)");
    return o.str();
  };
  Rng rng(3);
  for (const std::string &variant : kVariants) {
    cl_kernel k = this->sgKernel(name, variant);
    ASSERT_NE(k, nullptr);
    for (const Range &r : kRanges) {
      const size_t n = items(r);
      std::vector<T> a(n), f(n), m(n);
      for (size_t i = 0; i < n; ++i) {
        a[i] = smallValue<T>(rng);
        f[i] = factor<T>(rng);
        m[i] = anyValue<T>(rng);
      }
      const std::vector<cl_uint> ctl = controls(n, rng, 4);
      cl_mem out = this->template sentinelBuffer<T>(n * K);
      cl_mem info = this->template buffer<cl_uint>(n * kInfoWords);
      this->setArgs(k, this->buffer(a), this->buffer(f), this->buffer(m), this->buffer(ctl), out,
                    info);
      this->run(k, r.global, r.local);
      const std::string at = where(name, variant, r);
      const auto p = this->partition(info, r, 0, at);
      if (!p)
        continue;
      Expected<T> want(n, K);
      for (const auto &sg : p->subgroups) {
        const size_t size = sg.size();
        const std::vector<bool> all(size, true), odd = oddLanes(size);
        for (size_t j = 0; j < ops.size(); ++j) {
          const std::vector<T> v = gather(sg, ops[j] == Op::Add ? a : ops[j] == Op::Mul ? f : m);
          for (int part = 0; part < 2; ++part) {
            const std::vector<bool> &active = part ? odd : all;
            const Scan<T> s = scan(ops[j], v, active);
            for (size_t l = 0; l < size; ++l) {
              if (!active[l])
                continue;
              const size_t base = 21 * part + 3 * j;
              want.value(sg[l], base, s.reduce);
              want.value(sg[l], base + 1, s.inclusive[l]);
              want.value(sg[l], base + 2, s.exclusive[l]);
            }
          }
        }
        const std::vector<T> av = gather(sg, a), mv = gather(sg, m);
        for (unsigned it = 0; it < 4; ++it) {
          std::vector<bool> active(size);
          for (size_t l = 0; l < size; ++l)
            active[l] = (ctl[sg[l]] & 0xff) > it;
          const Scan<T> add = scan(Op::Add, av, active), mx = scan(Op::Max, mv, active);
          for (size_t l = 0; l < size; ++l) {
            if (!active[l])
              continue;
            want.value(sg[l], 42 + 3 * it, add.reduce);
            want.value(sg[l], 43 + 3 * it, add.inclusive[l]);
            want.value(sg[l], 44 + 3 * it, mx.exclusive[l]);
          }
        }
      }
      compare<T>(at, *p, this->template read<T>(out, n * K), want, slotName, false);
    }
  }
}

using SubgroupNonUniformLogical = SubgroupFixture;

TEST_F(SubgroupNonUniformLogical, ActiveLanesOnly) {
  constexpr size_t K = 30;
  static const char *kinds[] = {"reduce", "scan_inclusive", "scan_exclusive"};
  static const Op ops[] = {Op::LogicalAnd, Op::LogicalOr, Op::LogicalXor};
  auto slotName = [](size_t s) {
    std::ostringstream o;
    if (s < 18)
      o << (s < 9 ? "all lanes: " : "odd lanes: ") << "non_uniform_" << kinds[s % 3] << "_"
        << opName(ops[s % 9 / 3]);
    else
      o << "loop iteration " << (s - 18) / 3 << ": "
        << ((s - 18) % 3 == 0   ? "reduce_logical_or"
            : (s - 18) % 3 == 1 ? "scan_inclusive_logical_and"
                                : "scan_exclusive_logical_xor");
    return o.str();
  };
  Rng rng(4);
  for (const std::string &variant : kVariants) {
    cl_kernel k = sgKernel("nonuniform_logical", variant);
    ASSERT_NE(k, nullptr);
    for (const Range &r : kRanges) {
      for (size_t rep = 0; rep < 7; ++rep) {
        const size_t n = items(r);
        cl_mem q = buffer<int>(n);
        const std::vector<cl_uint> ctl = controls(n, rng, 4);
        cl_mem out = sentinelBuffer<int>(n * K);
        cl_mem info = buffer<cl_uint>(n * kInfoWords);
        setArgs(k, q, buffer(ctl), out, info);
        run(k, r.global, r.local); // learns the partition
        const std::string at = where("nonuniform_logical", variant, r);
        const auto p = partition(info, r, 0, at);
        if (!p)
          break;
        const std::vector<int> qv = predicates(*p, rng, rep);
        write(q, qv);
        write(out, std::vector<int>(n * K, sentinel<int>()));
        run(k, r.global, r.local);
        Expected<int> want(n, K);
        for (const auto &sg : p->subgroups) {
          const size_t size = sg.size();
          const std::vector<int> v = gather(sg, qv);
          const std::vector<bool> all(size, true), odd = oddLanes(size);
          for (size_t j = 0; j < 3; ++j)
            for (int part = 0; part < 2; ++part) {
              const std::vector<bool> &active = part ? odd : all;
              const Scan<int> s = scan(ops[j], v, active);
              for (size_t l = 0; l < size; ++l) {
                if (!active[l])
                  continue;
                const size_t base = 9 * part + 3 * j;
                want.truth(sg[l], base, s.reduce);
                want.truth(sg[l], base + 1, s.inclusive[l]);
                want.truth(sg[l], base + 2, s.exclusive[l]);
              }
            }
          for (unsigned it = 0; it < 4; ++it) {
            std::vector<bool> active(size);
            for (size_t l = 0; l < size; ++l)
              active[l] = (ctl[sg[l]] & 0xff) > it;
            const Scan<int> lor = scan(Op::LogicalOr, v, active),
                            land = scan(Op::LogicalAnd, v, active),
                            lxor = scan(Op::LogicalXor, v, active);
            for (size_t l = 0; l < size; ++l) {
              if (!active[l])
                continue;
              want.truth(sg[l], 18 + 3 * it, lor.reduce);
              want.truth(sg[l], 19 + 3 * it, land.inclusive[l]);
              want.truth(sg[l], 20 + 3 * it, lxor.exclusive[l]);
            }
          }
        }
        compare<int>(at + ", pattern " + std::to_string(rep), *p, read<int>(out, n * K), want,
                     slotName, false);
      }
    }
  }
}

// ---- cl_khr_subgroup_clustered_reduce -------------------------------------------------
template <typename P> class SubgroupClustered : public SubgroupFixture {};
TYPED_TEST_SUITE(SubgroupClustered, AllTypes, TypeNames);

TYPED_TEST(SubgroupClustered, EveryClusterSize) {
  using T = Value<TypeParam>;
  const std::string name = std::string("clustered_") + Traits<T>::name;
  constexpr size_t K = 84;
  std::vector<Op> ops = {Op::Add, Op::Mul, Op::Min, Op::Max};
  if constexpr (!isFloat<T>)
    ops.insert(ops.end(), {Op::And, Op::Or, Op::Xor});
  if constexpr (std::is_same_v<T, std::int32_t>)
    ops.insert(ops.end(), {Op::LogicalAnd, Op::LogicalOr, Op::LogicalXor});
  auto slotName = [](size_t s) {
    std::ostringstream o;
    if (s < 70)
      o << "clustered_reduce_" << opName(Op(s / 7)) << " cluster size " << (1 << s % 7);
    else
      o << "odd lanes: clustered_reduce_" << (s < 77 ? "add" : "max") << " cluster size "
        << (1 << (s - 70) % 7);
    return o.str();
  };
  Rng rng(5);
  for (const std::string &variant : kVariants) {
    cl_kernel k = this->sgKernel(name, variant);
    ASSERT_NE(k, nullptr);
    for (const Range &r : kRanges) {
      const size_t n = items(r);
      std::vector<T> a(n), f(n), m(n);
      for (size_t i = 0; i < n; ++i) {
        a[i] = smallValue<T>(rng);
        f[i] = factor<T>(rng);
        m[i] = anyValue<T>(rng);
      }
      cl_mem out = this->template sentinelBuffer<T>(n * K);
      cl_mem info = this->template buffer<cl_uint>(n * kInfoWords);
      this->setArgs(k, this->buffer(a), this->buffer(f), this->buffer(m), out, info);
      this->run(k, r.global, r.local);
      const std::string at = where(name, variant, r);
      const auto p = this->partition(info, r, 0, at);
      if (!p)
        continue;
      Expected<T> want(n, K);
      for (const auto &sg : p->subgroups) {
        const size_t size = sg.size();
        const std::vector<bool> all(size, true), odd = oddLanes(size);
        auto cluster = [&](Op op, const std::vector<T> &v, size_t cs, size_t l,
                           const std::vector<bool> &active) {
          const size_t first = l / cs * cs;
          std::vector<T> part(v.begin() + first, v.begin() + std::min(size, first + cs));
          std::vector<bool> act(active.begin() + first, active.begin() + first + part.size());
          return scan(op, part, act).reduce;
        };
        for (size_t c = 0; c < 7; ++c) {
          const size_t cs = size_t(1) << c;
          if (cs > p->max)
            continue; // not called
          for (Op op : ops) {
            std::vector<T> v = gather(sg, op == Op::Add ? a : op == Op::Mul ? f : m);
            if constexpr (!isFloat<T>)
              if (isLogical(op))
                for (T &e : v)
                  e = T(e & 7); // the predicate (int)(m & 7)
            for (size_t l = 0; l < size; ++l) {
              const T result = cluster(op, v, cs, l, all);
              if (isLogical(op))
                want.truth(sg[l], 7 * size_t(op) + c, result != T(0));
              else
                want.value(sg[l], 7 * size_t(op) + c, result);
            }
          }
          const std::vector<T> av = gather(sg, a), mv = gather(sg, m);
          for (size_t l = 1; l < size; l += 2) {
            want.value(sg[l], 70 + c, cluster(Op::Add, av, cs, l, odd));
            want.value(sg[l], 77 + c, cluster(Op::Max, mv, cs, l, odd));
          }
        }
      }
      compare<T>(at, *p, this->template read<T>(out, n * K), want, slotName, false);
    }
  }
}

// ---- broadcasts of vectors ---------------------------------------------------------------
using SubgroupVectorBroadcast = SubgroupFixture;

TEST_F(SubgroupVectorBroadcast, UniformAndNonUniform) {
  Rng rng(6);
  struct Case {
    const char *type;
    size_t count, stride;
    char element; // i: integer of `bytes` bytes, f: float, d: double, h: half
    size_t bytes;
  };
  const Case cases[] = {{"char16", 16, 16, 'i', 1}, {"uchar2", 2, 2, 'i', 1},
                        {"short3", 3, 4, 'i', 2},   {"int4", 4, 4, 'i', 4},
                        {"long2", 2, 2, 'i', 8},    {"float3", 3, 4, 'f', 4},
                        {"double4", 4, 4, 'd', 8},  {"half8", 8, 8, 'h', 2}};
  for (const std::string &variant : kVariants) {
    for (const Case &c : cases) {
      const std::string name = std::string("vector_") + c.type;
      cl_kernel k = sgKernel(name, variant);
      ASSERT_NE(k, nullptr);
      for (const Range &r : kRanges) {
        for (cl_uint lane : {6u, 1000u}) {
          const std::string at = where(name, variant, r) + ", lane " + std::to_string(lane);
          auto go = [&](auto tag) {
            using E = decltype(tag);
            const size_t n = items(r), stride = c.stride;
            std::vector<E> x(n * stride);
            for (E &e : x)
              e = anyValue<E>(rng);
            cl_mem out = sentinelBuffer<E>(n * 2 * stride);
            cl_mem info = buffer<cl_uint>(n * kInfoWords);
            setArgs(k, buffer(x), out, info, lane);
            run(k, r.global, r.local);
            const auto p = partition(info, r, 0, at);
            if (!p)
              return;
            Expected<E> want(n, 2 * stride);
            for (const auto &sg : p->subgroups) {
              const size_t size = sg.size();
              for (size_t l = 0; l < size; ++l) {
                const size_t g = sg[l];
                for (size_t e = 0; e < stride; ++e) {
                  if (e >= c.count) { // the padding of a 3-component vector
                    want.undefined(g, e);
                    want.undefined(g, stride + e);
                    continue;
                  }
                  want.value(g, e, x[sg[clampLane(lane, size)] * stride + e]);
                  if (l % 2)
                    want.value(g, stride + e, x[sg[oddLane(lane, size)] * stride + e]);
                }
              }
            }
            compare<E>(
                at, *p, read<E>(out, n * 2 * stride), want,
                [stride](size_t s) {
                  return std::string(s < stride ? "broadcast(x, lane)"
                                                : "odd lanes: non_uniform_broadcast(x, odd lane)") +
                         " component " + std::to_string(s % stride);
                },
                true);
          };
          switch (c.element) {
          case 'f':
            go(float{});
            break;
          case 'd':
            go(double{});
            break;
          case 'h':
            go(half{});
            break;
          default:
            switch (c.bytes) {
            case 1:
              go(std::uint8_t{});
              break;
            case 2:
              go(std::uint16_t{});
              break;
            case 4:
              go(std::uint32_t{});
              break;
            default:
              go(std::uint64_t{});
              break;
            }
          }
        }
      }
    }
  }
}

} // namespace
} // namespace lanewise::test::subgroup
