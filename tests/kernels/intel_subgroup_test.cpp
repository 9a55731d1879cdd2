// SPDX-License-Identifier: Apache-2.0
// cl_intel_subgroups: intel_sub_group_shuffle, _shuffle_xor, the two-input
// intel_sub_group_shuffle_down(current, next, delta) and
// intel_sub_group_shuffle_up(previous, current, delta), and the block reads
// and writes of global memory (kernels in cl/intel_subgroups.cl).
//
// As in subgroup_test.cpp, nothing assumes a sub-group size: every kernel
// records the sub-group built-ins of each work-item, the test checks them and
// derives the partition into sub-groups, and a reference model of each
// function over that partition, written from the extension's text, gives
// the expected results:
//  - shuffle_down: index = lane + delta; below max_sub_group_size the result
//    is `current` of that lane, from max_sub_group_size to twice it `next` of
//    lane index - max_sub_group_size;
//  - shuffle_up: index = lane - delta; from 0 `current` of that lane, from
//    -max_sub_group_size to -1 `previous` of lane index + max_sub_group_size;
//  - data may only come from work-items that execute the call: a source lane
//    that does not exist (past the end of a partial sub-group) or is inactive
//    gives an undefined result, which is not checked;
//  - block reads and writes: the value k of lane l is at
//    p[l + k * max_sub_group_size]; they are undefined in partial sub-groups,
//    so they run only with work-group sizes that are multiples of the size.
#include "harness.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace lanewise::test {
namespace {

using half = _Float16;
using Rng = std::mt19937_64;

template <typename T>
constexpr bool isFloat = std::is_floating_point_v<T> || std::is_same_v<T, half>;

template <typename T> auto bitsOf(T v) {
  using U = std::conditional_t<
      sizeof(T) == 1, std::uint8_t,
      std::conditional_t<sizeof(T) == 2, std::uint16_t,
                         std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;
  U u;
  std::memcpy(&u, &v, sizeof v);
  return u;
}
template <typename T> std::string show(T v) {
  std::ostringstream s;
  if constexpr (isFloat<T>)
    s << double(v) << " (0x" << std::hex << std::uint64_t(bitsOf(v)) << ")";
  else
    s << v;
  return s.str();
}
template <typename T> T sentinel() {
  T v;
  std::memset(&v, 0xA5, sizeof v);
  return v;
}
// Any value; floating-point values are normal numbers so that moves compare
// bit for bit.
template <typename T> T anyValue(Rng &rng) {
  if constexpr (isFloat<T>) {
    for (;;) {
      const std::uint64_t bits = rng();
      T v;
      std::memcpy(&v, &bits, sizeof v);
      if (std::isnormal(double(v)))
        return v;
    }
  } else {
    return T(rng());
  }
}

// ---- NDRanges and the partition into sub-groups ------------------------------------
struct Range {
  std::vector<size_t> global, local;
};
std::string show(const Range &r) {
  std::ostringstream s;
  s << r.global[0] << " / " << r.local[0];
  return s.str();
}
// Work-group sizes with a partial last sub-group for sizes 8 to 64 (100, 37),
// without (64), and a non-uniform NDRange.
// Sixteen groups of 32, whose kernels without get_group_id run several
// groups in each warp (runtime::groupsPerPackedWarp), as {128}, {64} does.
const std::vector<Range> kRanges = {{{200}, {100}}, {{111}, {37}}, {{128}, {64}}, {{150}, {100}},
                                    {{512}, {32}}};
const std::vector<std::string> kVariants = {"", "-O0"};

constexpr size_t kInfoWords = 8;
struct Item {
  std::uint32_t sg, lane, size, max, num, enqueued, local, group;
};
struct Partition {
  std::vector<Item> items;                    // by global id
  std::vector<std::vector<size_t>> subgroups; // global ids, by sub-group local id
  std::uint32_t max = 0;
};

// Checks the recorded built-ins of a 1-dimensional NDRange and returns the
// partition they describe (nothing after a failure).
std::optional<Partition> derive(const std::vector<cl_uint> &info, const Range &r,
                                std::uint32_t required, const std::string &where) {
  const size_t G = r.global[0], L = r.local[0];
  Partition p;
  p.items.resize(G);
  std::map<std::pair<size_t, size_t>, std::vector<size_t>> members;
  std::ostringstream errors;
  int count = 0;
  for (size_t gid = 0; gid < G; ++gid) {
    const size_t group = gid / L, local = gid % L, lanes = std::min(L, G - group * L);
    const cl_uint *w = &info[gid * kInfoWords];
    const Item it{w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]};
    p.items[gid] = it;
    if (gid == 0)
      p.max = it.max;
    const size_t m = it.max;
    const bool ok = it.local == local && it.group == group && m != 0 && it.max == p.max &&
                    (!required || m == required) && size_t(it.sg) * m + it.lane == local &&
                    it.lane < it.size && it.size == std::min(m, lanes - size_t(it.sg) * m) &&
                    it.num == (lanes + m - 1) / m && it.enqueued == (L + m - 1) / m;
    if (!ok) {
      if (count++ < 10)
        errors << "\n  work-item " << gid << ": sub_group_id " << it.sg
               << ", sub_group_local_id " << it.lane << ", sub_group_size " << it.size
               << ", max_sub_group_size " << it.max << ", num_sub_groups " << it.num
               << ", enqueued_num_sub_groups " << it.enqueued << ", local_linear_id "
               << it.local << ", group " << it.group << " (work-group of " << lanes
               << (required ? ", required size " + std::to_string(required) : std::string())
               << ")";
      continue;
    }
    std::vector<size_t> &list = members[{group, it.sg}];
    list.resize(it.size, SIZE_MAX);
    if (list[it.lane] != SIZE_MAX && count++ < 10)
      errors << "\n  work-item " << gid << ": same lane as work-item " << list[it.lane];
    list[it.lane] = gid;
  }
  if (count) {
    ADD_FAILURE() << where << ": " << count << " work-item(s) with wrong sub-group built-ins"
                  << errors.str();
    return std::nullopt;
  }
  for (auto &[key, list] : members)
    p.subgroups.push_back(list);
  return p;
}

// ---- expectations --------------------------------------------------------------------
template <typename T> struct Want {
  enum Kind : std::uint8_t { Unwritten, Value, Undefined } kind = Unwritten;
  T value{};
};
template <typename T> class Expected {
public:
  Expected(size_t items, size_t slots) : slots_(slots), want_(items * slots) {}
  size_t slots() const { return slots_; }
  Want<T> &at(size_t gid, size_t slot) { return want_[gid * slots_ + slot]; }
  void set(size_t gid, size_t slot, std::optional<T> v) {
    at(gid, slot) = v ? Want<T>{Want<T>::Value, *v} : Want<T>{Want<T>::Undefined, T{}};
  }

private:
  size_t slots_;
  std::vector<Want<T>> want_;
};

// Every slot of every work-item, bit for bit (all results here are moves).
template <typename T>
void compare(const std::string &where, const Partition &p, const std::vector<T> &got,
             Expected<T> &want, const std::function<std::string(size_t)> &slotName) {
  size_t failures = 0, values = 0;
  std::ostringstream text;
  for (size_t gid = 0; gid < p.items.size(); ++gid) {
    for (size_t slot = 0; slot < want.slots(); ++slot) {
      const Want<T> &w = want.at(gid, slot);
      const T g = got[gid * want.slots() + slot];
      if (w.kind == Want<T>::Undefined)
        continue;
      values += w.kind == Want<T>::Value;
      const T expected = w.kind == Want<T>::Value ? w.value : sentinel<T>();
      if (bitsOf(g) == bitsOf(expected))
        continue;
      if (failures++ < 12) {
        const Item &it = p.items[gid];
        text << "\n  work-item " << gid << " (group " << it.group << ", sub-group " << it.sg
             << " of " << it.size << ", lane " << it.lane << ", max " << it.max << "), "
             << slotName(slot) << ": got " << show(g) << ", want "
             << (w.kind == Want<T>::Value ? show(w.value) : "not written");
      }
    }
  }
  if (failures)
    ADD_FAILURE() << where << ": " << failures << " wrong result(s)" << text.str();
  EXPECT_GT(values, 0u) << where << ": no result checked";
}

// ---- the reference model of the shuffles ----------------------------------------------
// Values of the sub-group by lane, and which lanes execute the call.
template <typename T> struct Lanes {
  std::vector<T> value;
  const std::vector<bool> &active;
  std::optional<T> at(std::int64_t lane) const {
    if (lane < 0 || size_t(lane) >= value.size() || !active[lane])
      return std::nullopt;
    return value[lane];
  }
};
template <typename T>
std::optional<T> shuffleDown(const Lanes<T> &current, const Lanes<T> &next, size_t lane,
                             size_t delta, size_t max) {
  const size_t index = lane + delta;
  if (index < max)
    return current.at(index);
  if (index < 2 * max)
    return next.at(index - max);
  return std::nullopt; // out of range
}
template <typename T>
std::optional<T> shuffleUp(const Lanes<T> &previous, const Lanes<T> &current, size_t lane,
                           size_t delta, size_t max) {
  const std::int64_t index = std::int64_t(lane) - std::int64_t(delta);
  if (index >= 0)
    return index < std::int64_t(max) ? current.at(index) : std::nullopt;
  if (index >= -std::int64_t(max))
    return previous.at(index + std::int64_t(max));
  return std::nullopt;
}
template <typename T>
std::optional<T> shuffleXor(const Lanes<T> &data, size_t lane, size_t mask, size_t max) {
  const size_t index = lane ^ mask;
  return index < max ? data.at(index) : std::nullopt;
}
template <typename T> std::vector<T> gather(const std::vector<size_t> &sg, const std::vector<T> &v,
                                            size_t stride = 1, size_t component = 0) {
  std::vector<T> out;
  for (size_t gid : sg)
    out.push_back(v[gid * stride + component]);
  return out;
}

// ---- the fixture: programs built once per process -----------------------------------
class IntelFixture : public SharedContextTest {
protected:
  // The kernel, or nullptr with *missing set when the program has no such
  // kernel (types whose built-ins the OpenCL C headers do not declare).
  cl_kernel intelKernel(const std::string &name, const std::string &variant,
                        bool *missing = nullptr) {
    return cachedKernel("intel_subgroups", name, variant, missing);
  }
  template <typename T> cl_mem sentinelBuffer(size_t count) {
    return buffer(std::vector<T>(count, sentinel<T>()));
  }
  std::optional<Partition> partition(cl_mem info, const Range &r, std::uint32_t required,
                                     const std::string &where) {
    return derive(read<cl_uint>(info, r.global[0] * kInfoWords), r, required, where);
  }
  void shuffles(const std::string &name, std::uint32_t required);
  template <typename T> void scalarShuffles(const std::string &name, std::uint32_t required);

};

std::string where(const std::string &kernel, const std::string &variant, const Range &r) {
  return kernel + (variant.empty() ? " -O2" : " " + variant) + " over " + show(r);
}

// Runs intel_<T> (cl/intel_subgroups.cl, SHUFFLE_KERNEL) and checks all 134
// slots of every work-item.
template <typename T>
void IntelFixture::scalarShuffles(const std::string &name, std::uint32_t required) {
  constexpr size_t K = 134;
  auto slotName = [](size_t s) {
    std::ostringstream o;
    if (s < 128)
      o << (s % 2 ? "shuffle_up(n, c, " : "shuffle_down(c, n, ") << s / 2 << ")";
    else
      o << (s == 128   ? "shuffle(c, s % size)"
            : s == 129 ? "shuffle_xor(c, (s >> 8) % max)"
            : s == 130 ? "shuffle_down(c, n, (s >> 16) % max)"
            : s == 131 ? "shuffle_up(n, c, (s >> 24) % max)"
            : s == 132 ? "odd lanes: shuffle_xor(c, 2)"
                       : "odd lanes: shuffle_down(c, n, 2)");
    return o.str();
  };
  Rng rng(11);
  for (const std::string &variant : kVariants) {
    bool missing = false;
    cl_kernel k = intelKernel(name, variant, &missing);
    if (missing)
      GTEST_SKIP() << name << " is not in intel_subgroups.cl: the OpenCL C header does not "
                      "declare these shuffles for this type";
    ASSERT_NE(k, nullptr);
    std::vector<Range> ranges = kRanges;
    ranges.push_back({{96}, {96}});
    for (const Range &r : ranges) {
      const size_t n = r.global[0];
      std::vector<T> c(n), nx(n);
      std::vector<cl_uint> s(n);
      for (size_t i = 0; i < n; ++i) {
        c[i] = anyValue<T>(rng);
        nx[i] = anyValue<T>(rng);
        s[i] = cl_uint(rng());
      }
      cl_mem out = sentinelBuffer<T>(n * K);
      cl_mem info = buffer<cl_uint>(n * kInfoWords);
      setArgs(k, buffer(c), buffer(nx), buffer(s), out, info);
      run(k, r.global, r.local);
      const std::string at = where(name, variant, r);
      const auto p = partition(info, r, required, at);
      if (!p)
        continue;
      Expected<T> want(n, K);
      for (const auto &sg : p->subgroups) {
        const size_t size = sg.size(), max = p->max;
        std::vector<bool> all(size, true), odd(size);
        for (size_t l = 0; l < size; ++l)
          odd[l] = l % 2;
        const Lanes<T> cur{gather(sg, c), all}, next{gather(sg, nx), all};
        const Lanes<T> oddCur{cur.value, odd}, oddNext{next.value, odd};
        for (size_t l = 0; l < size; ++l) {
          const size_t g = sg[l];
          for (size_t d = 0; d < std::min<size_t>(max, 64); ++d) {
            want.set(g, 2 * d, shuffleDown(cur, next, l, d, max));
            want.set(g, 2 * d + 1, shuffleUp(next, cur, l, d, max));
          }
          want.set(g, 128, cur.at(s[g] % size));
          want.set(g, 129, shuffleXor(cur, l, (s[g] >> 8) % max, max));
          want.set(g, 130, shuffleDown(cur, next, l, (s[g] >> 16) % max, max));
          want.set(g, 131, shuffleUp(next, cur, l, (s[g] >> 24) % max, max));
          if (l % 2) {
            want.set(g, 132, shuffleXor(oddCur, l, 2, max));
            want.set(g, 133, shuffleDown(oddCur, oddNext, l, 2, max));
          }
        }
      }
      compare<T>(at, *p, read<T>(out, n * K), want, slotName);
    }
  }
}

// ---- scalar shuffles, every type --------------------------------------------------------
template <typename T> struct IntelType;
#define LANEWISE_INTEL_TYPE(T, N)                                                                  \
  template <> struct IntelType<T> {                                                                \
    static constexpr const char *name = N;                                                         \
  };
LANEWISE_INTEL_TYPE(std::int16_t, "short")
LANEWISE_INTEL_TYPE(std::uint16_t, "ushort")
LANEWISE_INTEL_TYPE(std::int32_t, "int")
LANEWISE_INTEL_TYPE(std::uint32_t, "uint")
LANEWISE_INTEL_TYPE(std::int64_t, "long")
LANEWISE_INTEL_TYPE(std::uint64_t, "ulong")
LANEWISE_INTEL_TYPE(float, "float")
LANEWISE_INTEL_TYPE(double, "double")
LANEWISE_INTEL_TYPE(half, "half")
#undef LANEWISE_INTEL_TYPE
struct HalfTag {};
template <typename P> struct ValueType { using type = P; };
template <> struct ValueType<HalfTag> { using type = half; };
template <typename P> using Value = typename ValueType<P>::type;
using IntelTypes = ::testing::Types<std::int32_t, std::uint32_t, float, std::int64_t,
                                    std::uint64_t, double, HalfTag, std::int16_t, std::uint16_t>;
struct TypeNames {
  template <typename P> static std::string GetName(int) { return IntelType<Value<P>>::name; }
};

template <typename P> class SubgroupIntelShuffle : public IntelFixture {};
TYPED_TEST_SUITE(SubgroupIntelShuffle, IntelTypes, TypeNames);

TYPED_TEST(SubgroupIntelShuffle, EveryDeltaAndPerLaneSources) {
  using T = Value<TypeParam>;
  this->template scalarShuffles<T>(std::string("intel_") + IntelType<T>::name, 0);
}

// ---- with intel_reqd_sub_group_size ------------------------------------------------------
class SubgroupIntelRequiredSize : public IntelFixture,
                                  public ::testing::WithParamInterface<std::uint32_t> {};

TEST_P(SubgroupIntelRequiredSize, EveryDeltaAndPerLaneSources) {
  scalarShuffles<std::int32_t>("intel_int_sg" + std::to_string(GetParam()), GetParam());
}
INSTANTIATE_TEST_SUITE_P(SubgroupIntel, SubgroupIntelRequiredSize, ::testing::Values(8u, 16u, 32u),
                         [](const auto &info) { return std::to_string(info.param); });

// ---- vectors ------------------------------------------------------------------------------
using SubgroupIntelVectors = IntelFixture;

TEST_F(SubgroupIntelVectors, PerLaneSources) {
  struct Case {
    const char *type;
    size_t count, stride;
    bool floating;
  };
  const Case cases[] = {{"int2", 2, 2, false},
                        {"float3", 3, 4, true},
                        {"uint4", 4, 4, false},
                        {"int8", 8, 8, false},
                        {"float16", 16, 16, true}};
  static const char *slotNames[] = {"shuffle(c, s % size)", "shuffle_down(c, n, (s >> 8) % max)",
                                    "shuffle_up(n, c, (s >> 16) % max)",
                                    "shuffle_xor(c, (s >> 24) % max)"};
  Rng rng(12);
  for (const std::string &variant : kVariants) {
    for (const Case &c : cases) {
      const std::string name = std::string("intel_vector_") + c.type;
      cl_kernel k = intelKernel(name, variant);
      ASSERT_NE(k, nullptr);
      for (const Range &r : kRanges) {
        auto go = [&](auto tag) {
          using E = decltype(tag);
          const size_t n = r.global[0], stride = c.stride;
          std::vector<E> cv(n * stride), nv(n * stride);
          for (size_t i = 0; i < cv.size(); ++i) {
            cv[i] = anyValue<E>(rng);
            nv[i] = anyValue<E>(rng);
          }
          std::vector<cl_uint> s(n);
          for (auto &e : s)
            e = cl_uint(rng());
          cl_mem out = sentinelBuffer<E>(n * 4 * stride);
          cl_mem info = buffer<cl_uint>(n * kInfoWords);
          setArgs(k, buffer(cv), buffer(nv), buffer(s), out, info);
          run(k, r.global, r.local);
          const std::string at = where(name, variant, r);
          const auto p = partition(info, r, 0, at);
          if (!p)
            return;
          Expected<E> want(n, 4 * stride);
          for (const auto &sg : p->subgroups) {
            const size_t size = sg.size(), max = p->max;
            const std::vector<bool> all(size, true);
            for (size_t e = 0; e < stride; ++e) {
              const Lanes<E> cur{gather(sg, cv, stride, e), all},
                  next{gather(sg, nv, stride, e), all};
              for (size_t l = 0; l < size; ++l) {
                const size_t g = sg[l];
                if (e >= c.count) { // the padding of a 3-component vector
                  for (size_t slot = 0; slot < 4; ++slot)
                    want.at(g, slot * stride + e).kind = Want<E>::Undefined;
                  continue;
                }
                want.set(g, e, cur.at(s[g] % size));
                want.set(g, stride + e, shuffleDown(cur, next, l, (s[g] >> 8) % max, max));
                want.set(g, 2 * stride + e, shuffleUp(next, cur, l, (s[g] >> 16) % max, max));
                want.set(g, 3 * stride + e, shuffleXor(cur, l, (s[g] >> 24) % max, max));
              }
            }
          }
          compare<E>(at, *p, read<E>(out, n * 4 * stride), want, [stride](size_t slot) {
            return std::string(slotNames[slot / stride]) + " component " +
                   std::to_string(slot % stride);
          });
        };
        if (c.floating)
          go(float{});
        else
          go(cl_uint{});
      }
    }
  }
}

// ---- block reads and writes -----------------------------------------------------------------
struct BlockCase {
  const char *kernel;
  std::uint32_t required;
};
class SubgroupIntelBlock : public IntelFixture, public ::testing::WithParamInterface<BlockCase> {};

// What each work-item of whole sub-groups read (value j of block_read<m> at
// p[lane + j * max]) and what the buffer written holds afterwards (~value
// over each sub-group's region, the sentinel elsewhere).
template <typename T>
void checkBlocks(const std::string &at, const Partition &p, const std::vector<T> &in,
                 const std::vector<T> &reads, const std::vector<T> &written) {
  const size_t max = p.max;
  Expected<T> wantRead(p.items.size(), 15);
  std::vector<T> wantOut(in.size(), sentinel<T>());
  for (const auto &sg : p.subgroups) {
    const Item &first = p.items[sg[0]];
    const size_t base = (size_t(first.group) * first.num + first.sg) * 15 * max;
    for (size_t l = 0; l < sg.size(); ++l) {
      size_t slot = 0;
      for (size_t offset : {size_t(0), max, 3 * max, 7 * max}) {
        const size_t count = offset == 0 ? 1 : offset / max + 1;
        for (size_t j = 0; j < count; ++j)
          wantRead.set(sg[l], slot++, in[base + offset + l + j * max]);
      }
    }
    for (size_t i = 0; i < 15 * max; ++i)
      wantOut[base + i] = T(~in[base + i]);
  }
  const std::string type = sizeof(T) == 2 ? "_us" : "";
  compare<T>(at, p, reads, wantRead, [&](size_t slot) {
    return slot == 0  ? "block_read" + type + " value 0"
           : slot < 3 ? "block_read" + type + "2 value " + std::to_string(slot - 1)
           : slot < 7 ? "block_read" + type + "4 value " + std::to_string(slot - 3)
                      : "block_read" + type + "8 value " + std::to_string(slot - 7);
  });
  size_t failures = 0;
  std::ostringstream text;
  for (size_t i = 0; i < in.size(); ++i)
    if (written[i] != wantOut[i] && failures++ < 12)
      text << "\n  out[" << i << "]: got 0x" << std::hex << std::uint64_t(written[i])
           << ", want 0x" << std::uint64_t(wantOut[i]) << std::dec;
  EXPECT_EQ(failures, 0u) << at << ": block_write" << type << " (sub-group g writes ~value to "
                          << "its region [15 * max * g, 15 * max * (g + 1)), nothing else)"
                          << text.str();
}

TEST_P(SubgroupIntelBlock, ReadAndWriteGlobal) {
  const BlockCase c = GetParam();
  const std::vector<Range> ranges = {{{128}, {64}}, {{512}, {256}}, {{64}, {32}}, {{192}, {192}}};
  Rng rng(13);
  for (const std::string &variant : kVariants) {
    cl_kernel k = intelKernel(c.kernel, variant);
    ASSERT_NE(k, nullptr);
    for (const Range &r : ranges) {
      const size_t n = r.global[0], groups = (n + r.local[0] - 1) / r.local[0];
      // Room for the regions of whole sub-groups of up to 64 work-items even
      // if the size turns out not to divide the work-group size.
      const size_t words = 15 * (n + groups * 64);
      std::vector<cl_uint> in(words);
      std::vector<cl_ushort> ins(words);
      for (size_t i = 0; i < words; ++i) {
        in[i] = cl_uint(rng());
        ins[i] = cl_ushort(rng());
      }
      cl_mem out = sentinelBuffer<cl_uint>(words), rd = sentinelBuffer<cl_uint>(n * 15);
      cl_mem outs = sentinelBuffer<cl_ushort>(words), rds = sentinelBuffer<cl_ushort>(n * 15);
      cl_mem info = buffer<cl_uint>(n * kInfoWords);
      setArgs(k, buffer(in), out, rd, buffer(ins), outs, rds, info);
      run(k, r.global, r.local);
      const std::string at = where(c.kernel, variant, r);
      const auto p = partition(info, r, c.required, at);
      if (!p)
        continue;
      if (r.local[0] % p->max || p->max % 8) {
        // Partial sub-groups, or writes not 16-byte aligned: undefined.
        std::cout << at << ": not checked (sub-group size " << p->max << ")\n";
        continue;
      }
      checkBlocks(at, *p, in, read<cl_uint>(rd, n * 15), read<cl_uint>(out, words));
      checkBlocks(at, *p, ins, read<cl_ushort>(rds, n * 15), read<cl_ushort>(outs, words));
    }
  }
}
INSTANTIATE_TEST_SUITE_P(SubgroupIntel, SubgroupIntelBlock,
                         ::testing::Values(BlockCase{"block", 0}, BlockCase{"block8", 8},
                                           BlockCase{"block16", 16}, BlockCase{"block32", 32}),
                         [](const auto &info) { return std::string(info.param.kernel); });

} // namespace
} // namespace lanewise::test
