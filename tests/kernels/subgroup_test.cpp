// SPDX-License-Identifier: Apache-2.0
// Sub-groups: the built-ins of cl_khr_subgroups and of the cl_khr_subgroup_*
// extensions (OpenCL C 3.0 6.15.16, the OpenCL extension specification's
// "Extended Sub-group Functions"), clGetKernelSubGroupInfo and the device
// queries. Kernels are in cl/subgroups.cl.
//
// Nothing here assumes a sub-group size. Every kernel records, for every
// work-item, get_sub_group_id, get_sub_group_local_id, get_sub_group_size,
// get_max_sub_group_size, get_num_sub_groups and get_enqueued_num_sub_groups;
// the test checks them against each other and against the NDRange (all
// sub-groups of a work-group have the maximum size except the last, which has
// the remainder; local linear id = sub-group id * max size + sub-group local
// id) and derives from them the partition of each work-group into
// sub-groups. Every expected result is then computed by a reference model of
// the operation over that partition. Kernels with intel_reqd_sub_group_size(N)
// must have sub-groups of exactly N work-items.
//
// Results the specifications leave undefined (a shuffle from a lane outside
// the sub-group or from an inactive lane, find_lsb of an empty ballot, ...)
// are not checked. Output buffers start filled with a sentinel: a work-item
// that does not execute a store (an even lane under `if (lane % 2)`, a lane
// that returned early, a loop iteration it does not run) must leave it.
#include "harness.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
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

// ---- types ------------------------------------------------------------------------
template <typename T>
constexpr bool isFloat = std::is_floating_point_v<T> || std::is_same_v<T, half>;

template <typename T> struct Traits;
#define LANEWISE_TRAITS(T, N)                                                                      \
  template <> struct Traits<T> {                                                                   \
    static constexpr const char *name = N;                                                         \
  };
LANEWISE_TRAITS(std::int8_t, "char")
LANEWISE_TRAITS(std::uint8_t, "uchar")
LANEWISE_TRAITS(std::int16_t, "short")
LANEWISE_TRAITS(std::uint16_t, "ushort")
LANEWISE_TRAITS(std::int32_t, "int")
LANEWISE_TRAITS(std::uint32_t, "uint")
LANEWISE_TRAITS(std::int64_t, "long")
LANEWISE_TRAITS(std::uint64_t, "ulong")
LANEWISE_TRAITS(half, "half")
LANEWISE_TRAITS(float, "float")
LANEWISE_TRAITS(double, "double")
#undef LANEWISE_TRAITS

// gtest needs the typeid of its type parameters, which libstdc++ 12 lacks
// for _Float16: half tests are parameterised by HalfTag.
struct HalfTag {};
template <typename P> struct ValueType { using type = P; };
template <> struct ValueType<HalfTag> { using type = half; };
template <typename P> using Value = typename ValueType<P>::type;
using AllTypes =
    ::testing::Types<std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t,
                     std::uint32_t, std::int64_t, std::uint64_t, float, double, HalfTag>;
struct TypeNames {
  template <typename P> static std::string GetName(int) { return Traits<Value<P>>::name; }
};

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
  else if constexpr (sizeof(T) == 1)
    s << int(v);
  else
    s << v;
  return s.str();
}
template <typename T> T sentinel() {
  T v;
  std::memset(&v, 0xA5, sizeof v);
  return v;
}

// ---- values ------------------------------------------------------------------------
// Any value; floating-point values are normal numbers (no NaN, infinity,
// zero or subnormal, so that moves can be compared bit for bit and min/max
// have no signed-zero ties).
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
// Values whose sums over 64 work-items are exact (floating point) or do not
// overflow (signed integers); unsigned sums wrap, which is defined.
template <typename T> T smallValue(Rng &rng) {
  if constexpr (isFloat<T>)
    return T(int(rng() % 17) - 8);
  else if constexpr (std::is_unsigned_v<T>)
    return T(rng());
  else if constexpr (sizeof(T) == 1)
    return T(int(rng() % 4) - 2);
  else if constexpr (sizeof(T) == 2)
    return T(int(rng() % 1001) - 500);
  else
    return T(std::int64_t(rng() % 2000001) - 1000000);
}
// Factors whose products over 64 work-items are exact and in range (powers
// of two for float and double, +-1 for half and signed integers); unsigned
// products wrap.
template <typename T> T factor(Rng &rng) {
  if constexpr (std::is_same_v<T, half>) {
    return rng() % 2 ? T(1) : T(-1);
  } else if constexpr (isFloat<T>) {
    static const double f[] = {1, -1, 2, 0.5};
    return T(f[rng() % 4]);
  } else if constexpr (std::is_unsigned_v<T>) {
    return T(rng());
  } else {
    return rng() % 2 ? T(1) : T(-1);
  }
}

// ---- the operations ------------------------------------------------------------------
enum class Op { Add, Mul, Min, Max, And, Or, Xor, LogicalAnd, LogicalOr, LogicalXor };
const char *opName(Op op) {
  static const char *names[] = {"add", "mul", "min", "max", "and",
                                "or",  "xor", "logical_and", "logical_or", "logical_xor"};
  return names[int(op)];
}
bool isLogical(Op op) { return op >= Op::LogicalAnd; }

template <typename T> T apply(Op op, T a, T b) {
  if constexpr (isFloat<T>) {
    switch (op) {
    case Op::Add:
      return T(double(a) + double(b)); // exact for the values used
    case Op::Mul:
      return T(double(a) * double(b));
    case Op::Min:
      return b < a ? b : a;
    case Op::Max:
      return a < b ? b : a;
    default:
      break;
    }
    return T(0);
  } else {
    using U = std::make_unsigned_t<T>;
    switch (op) {
    case Op::Add:
      return T(U(std::uint64_t(U(a)) + std::uint64_t(U(b))));
    case Op::Mul:
      return T(U(std::uint64_t(U(a)) * std::uint64_t(U(b))));
    case Op::Min:
      return std::min(a, b);
    case Op::Max:
      return std::max(a, b);
    case Op::And:
      return T(a & b);
    case Op::Or:
      return T(a | b);
    case Op::Xor:
      return T(a ^ b);
    case Op::LogicalAnd:
      return T(a != 0 && b != 0);
    case Op::LogicalOr:
      return T(a != 0 || b != 0);
    case Op::LogicalXor:
      return T((a != 0) != (b != 0));
    }
    return T(0);
  }
}
// The identity an exclusive scan returns when no lower lane takes part.
template <typename T> T identity(Op op) {
  switch (op) {
  case Op::Mul:
  case Op::LogicalAnd:
    return T(1);
  case Op::Min:
    if constexpr (isFloat<T>)
      return T(INFINITY);
    else
      return std::numeric_limits<T>::max();
  case Op::Max:
    if constexpr (isFloat<T>)
      return T(-INFINITY);
    else
      return std::numeric_limits<T>::lowest();
  case Op::And:
    if constexpr (isFloat<T>)
      return T(0);
    else
      return T(~std::make_unsigned_t<T>(0));
  default:
    return T(0);
  }
}

// A reduction and the two scans of one sub-group over the active lanes.
template <typename T> struct Scan {
  T reduce{};
  std::vector<T> inclusive, exclusive; // by lane
};
template <typename T>
Scan<T> scan(Op op, const std::vector<T> &value, const std::vector<bool> &active) {
  Scan<T> s;
  s.inclusive.resize(value.size());
  s.exclusive.resize(value.size());
  T acc = identity<T>(op);
  for (size_t l = 0; l < value.size(); ++l) {
    if (!active[l])
      continue;
    s.exclusive[l] = acc;
    acc = apply(op, acc, value[l]);
    s.inclusive[l] = acc;
  }
  s.reduce = acc;
  return s;
}

// ---- NDRanges and the partition into sub-groups ------------------------------------
struct Range {
  std::vector<size_t> global, local;
};
std::string show(const Range &r) {
  std::ostringstream s;
  for (size_t d = 0; d < r.global.size(); ++d)
    s << (d ? "x" : "") << r.global[d];
  s << " / ";
  for (size_t d = 0; d < r.local.size(); ++d)
    s << (d ? "x" : "") << r.local[d];
  return s.str();
}
size_t items(const Range &r) {
  size_t n = 1;
  for (size_t g : r.global)
    n *= g;
  return n;
}
// Work-group sizes that leave a partial last sub-group for sub-group sizes
// 8 to 64 (100, 37), one that does not (64), and a non-uniform NDRange whose
// last work-group has 50 work-items.
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
  std::vector<Item> items;                    // by global linear id
  std::vector<std::vector<size_t>> subgroups; // global linear ids, by sub-group local id
  std::uint32_t max = 0;
};

// Checks the recorded built-ins against the NDRange and each other, and
// returns the partition they describe (nothing after a failure).
std::optional<Partition> derive(const std::vector<cl_uint> &info, const Range &r,
                                std::uint32_t required, const std::string &where) {
  size_t G[3] = {1, 1, 1}, L[3] = {1, 1, 1}, groups[3];
  for (size_t d = 0; d < r.global.size(); ++d) {
    G[d] = r.global[d];
    L[d] = r.local[d];
  }
  for (int d = 0; d < 3; ++d)
    groups[d] = (G[d] + L[d] - 1) / L[d];
  const size_t total = G[0] * G[1] * G[2];
  Partition p;
  p.items.resize(total);
  std::map<std::pair<size_t, size_t>, std::vector<size_t>> members;
  std::ostringstream errors;
  int count = 0;
  auto fail = [&](size_t gid, const std::string &what) {
    if (count++ < 10)
      errors << "\n  work-item " << gid << ": " << what;
  };
  for (size_t gid = 0; gid < total; ++gid) {
    const size_t id[3] = {gid % G[0], gid / G[0] % G[1], gid / (G[0] * G[1])};
    size_t grp[3], lid[3], actual[3];
    for (int d = 0; d < 3; ++d) {
      grp[d] = id[d] / L[d];
      lid[d] = id[d] % L[d];
      actual[d] = std::min(L[d], G[d] - grp[d] * L[d]);
    }
    const size_t localLinear = lid[0] + actual[0] * (lid[1] + actual[1] * lid[2]);
    const size_t groupLinear = grp[0] + groups[0] * (grp[1] + groups[1] * grp[2]);
    const size_t lanes = actual[0] * actual[1] * actual[2], enqueued = L[0] * L[1] * L[2];
    const cl_uint *w = &info[gid * kInfoWords];
    const Item it{w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]};
    p.items[gid] = it;
    std::ostringstream s;
    s << "sub_group_id " << it.sg << ", sub_group_local_id " << it.lane << ", sub_group_size "
      << it.size << ", max_sub_group_size " << it.max << ", num_sub_groups " << it.num
      << ", enqueued_num_sub_groups " << it.enqueued << ", local_linear_id " << it.local
      << ", group " << it.group << " (work-group of " << lanes << "): ";
    if (it.local != localLinear || it.group != groupLinear) {
      fail(gid, s.str() + "wrong local linear id or group id");
      continue;
    }
    if (gid == 0)
      p.max = it.max;
    if (it.max == 0 || it.max != p.max) {
      fail(gid, s.str() + "max sub-group size differs within the dispatch (" +
                    std::to_string(p.max) + ")");
      continue;
    }
    if (required && it.max != required) {
      fail(gid, s.str() + "the kernel requires sub-groups of " + std::to_string(required));
      continue;
    }
    const size_t m = it.max;
    if (size_t(it.sg) * m + it.lane != localLinear || it.lane >= it.size ||
        it.size != std::min(m, lanes - size_t(it.sg) * m) || it.num != (lanes + m - 1) / m ||
        it.enqueued != (enqueued + m - 1) / m) {
      fail(gid, s.str() + "inconsistent");
      continue;
    }
    std::vector<size_t> &list = members[{groupLinear, it.sg}];
    list.resize(it.size, SIZE_MAX);
    if (list[it.lane] != SIZE_MAX)
      fail(gid, s.str() + "same lane as work-item " + std::to_string(list[it.lane]));
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
  enum Kind : std::uint8_t { Unwritten, Value, Truth, Undefined } kind = Unwritten;
  T value{};
};
template <typename T> class Expected {
public:
  Expected(size_t items, size_t slots) : slots_(slots), want_(items * slots) {}
  size_t slots() const { return slots_; }
  Want<T> &at(size_t gid, size_t slot) { return want_[gid * slots_ + slot]; }
  void value(size_t gid, size_t slot, T v) { at(gid, slot) = {Want<T>::Value, v}; }
  void truth(size_t gid, size_t slot, bool v) { at(gid, slot) = {Want<T>::Truth, T(v)}; }
  void undefined(size_t gid, size_t slot) { at(gid, slot).kind = Want<T>::Undefined; }
  // The value of lane `src` if it exists and is active, else undefined.
  void from(size_t gid, size_t slot, const std::vector<T> &byLane, std::int64_t src,
            const std::vector<bool> &active) {
    if (src >= 0 && size_t(src) < byLane.size() && active[src])
      value(gid, slot, byLane[src]);
    else
      undefined(gid, slot);
  }

private:
  size_t slots_;
  std::vector<Want<T>> want_;
};

// Compares every slot of every work-item; `exact` compares floating-point
// values bit for bit (moves), otherwise as numbers (+0 == -0).
template <typename T>
void compare(const std::string &where, const Partition &p, const std::vector<T> &got,
             Expected<T> &want, const std::function<std::string(size_t)> &slotName, bool exact) {
  size_t failures = 0, checked = 0;
  std::ostringstream text;
  const size_t slots = want.slots();
  for (size_t gid = 0; gid < p.items.size(); ++gid) {
    for (size_t slot = 0; slot < slots; ++slot) {
      const Want<T> &w = want.at(gid, slot);
      const T g = got[gid * slots + slot];
      bool ok = true;
      std::string expected;
      switch (w.kind) {
      case Want<T>::Undefined:
        continue;
      case Want<T>::Unwritten:
        ok = bitsOf(g) == bitsOf(sentinel<T>());
        expected = "not written";
        break;
      case Want<T>::Truth:
        ok = (g != T(0)) == (w.value != T(0));
        expected = w.value != T(0) ? "true (non-zero)" : "false (0)";
        break;
      case Want<T>::Value:
        if constexpr (isFloat<T>)
          ok = exact ? bitsOf(g) == bitsOf(w.value)
                     : (g == w.value || (std::isnan(double(g)) && std::isnan(double(w.value))));
        else
          ok = g == w.value;
        expected = show(w.value);
        break;
      }
      checked += w.kind != Want<T>::Unwritten;
      if (ok)
        continue;
      if (failures++ < 12) {
        const Item &it = p.items[gid];
        text << "\n  work-item " << gid << " (group " << it.group << ", sub-group " << it.sg
             << " of " << it.size << ", lane " << it.lane << "), " << slotName(slot)
             << ": got " << show(g) << ", want " << expected;
      }
    }
  }
  if (failures)
    ADD_FAILURE() << where << ": " << failures << " wrong result(s)" << text.str();
  EXPECT_GT(checked, 0u) << where << ": no result checked";
}

// ---- predicate patterns, one per sub-group -------------------------------------------
// Pattern (sub-group index + rep) % 7: all true, all false, one lane, all but
// one lane, random, odd lanes, even lanes. True values are arbitrary
// non-zero integers.
std::vector<int> predicates(const Partition &p, Rng &rng, size_t rep) {
  std::vector<int> out(p.items.size());
  for (size_t k = 0; k < p.subgroups.size(); ++k) {
    const auto &sg = p.subgroups[k];
    const size_t one = rng() % sg.size();
    for (size_t l = 0; l < sg.size(); ++l) {
      bool on = false;
      switch ((k + rep) % 7) {
      case 0: on = true; break;
      case 1: on = false; break;
      case 2: on = l == one; break;
      case 3: on = l != one; break;
      case 4: on = rng() % 2; break;
      case 5: on = l % 2 == 1; break;
      case 6: on = l % 2 == 0; break;
      }
      out[sg[l]] = on ? int(rng() | 1) : 0;
    }
  }
  return out;
}

// Lane helpers mirroring cl/subgroups.cl.
size_t clampLane(size_t lane, size_t size) { return std::min(lane, size - 1); }
size_t oddLane(size_t lane, size_t size) {
  const size_t l = clampLane(lane, size) | 1;
  return l < size ? l : l - 2;
}
std::vector<bool> oddLanes(size_t size) {
  std::vector<bool> v(size);
  for (size_t l = 0; l < size; ++l)
    v[l] = l % 2;
  return v;
}
template <typename T> std::vector<T> gather(const std::vector<size_t> &sg, const std::vector<T> &v) {
  std::vector<T> out;
  for (size_t gid : sg)
    out.push_back(v[gid]);
  return out;
}
// Control words: a loop trip count in [0, maxTrips] | an early return << 8.
std::vector<cl_uint> controls(size_t n, Rng &rng, unsigned maxTrips) {
  std::vector<cl_uint> v(n);
  for (auto &c : v)
    c = cl_uint(rng() % (maxTrips + 1)) | (rng() % 3 == 0 ? 0x100u : 0u);
  return v;
}

// ---- the fixture: programs built once per process -----------------------------------
class SubgroupFixture : public SharedContextTest {
protected:
  cl_kernel sgKernel(const std::string &name, const std::string &variant = "") {
    return cachedKernel("subgroups", name, variant);
  }
  template <typename T> cl_mem sentinelBuffer(size_t count) {
    return buffer(std::vector<T>(count, sentinel<T>()));
  }
  template <typename T> void write(cl_mem mem, const std::vector<T> &data) {
    ASSERT_EQ(clEnqueueWriteBuffer(queue, mem, CL_TRUE, 0, data.size() * sizeof(T), data.data(),
                                   0, nullptr, nullptr),
              CL_SUCCESS);
  }
  std::optional<Partition> partition(cl_mem info, const Range &r, std::uint32_t required,
                                     const std::string &where) {
    return derive(read<cl_uint>(info, items(r) * kInfoWords), r, required, where);
  }
};

std::string where(const std::string &kernel, const std::string &variant, const Range &r) {
  return kernel + (variant.empty() ? " -O2" : " " + variant) + " over " + show(r);
}

// ---- the partition itself -------------------------------------------------------------
using SubgroupIds = SubgroupFixture;

TEST_F(SubgroupIds, BuiltInsDescribeAPartition) {
  std::vector<Range> ranges = kRanges;
  ranges.insert(ranges.end(), {{{1}, {1}},
                               {{64}, {64}},
                               {{300}, {300}},
                               {{20, 14}, {10, 7}},
                               {{24, 9}, {8, 3}},
                               {{8, 6, 4}, {4, 3, 2}},
                               {{7, 5, 3}, {4, 4, 2}}});
  for (const std::string &variant : kVariants) {
    cl_kernel k = sgKernel("ids", variant);
    ASSERT_NE(k, nullptr);
    for (const Range &r : ranges) {
      cl_mem info = buffer<cl_uint>(items(r) * kInfoWords);
      setArgs(k, info);
      run(k, r.global, r.local);
      const auto p = partition(info, r, 0, where("ids", variant, r));
      if (p) {
        EXPECT_GE(p->max, 1u);
      }
    }
  }
}

// ---- cl_khr_subgroups reductions, scans and broadcasts (all work-items) --------------
template <typename P> class SubgroupUniform : public SubgroupFixture {};
TYPED_TEST_SUITE(SubgroupUniform, AllTypes, TypeNames);

TYPED_TEST(SubgroupUniform, BroadcastReduceScan) {
  using T = Value<TypeParam>;
  const std::string name = std::string("uniform_") + Traits<T>::name;
  static const char *slotNames[] = {"broadcast(m, lane)",   "reduce_add(a)",
                                    "reduce_min(m)",        "reduce_max(m)",
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
        compare<T>(at, *p, this->template read<T>(out, n * 10), want,
                   [](size_t s) { return std::string(slotNames[s]); }, false);
      }
    }
  }
}

// ---- cl_khr_subgroup_shuffle and _relative: uniform and divergent ---------------------
template <typename P> class SubgroupShuffle : public SubgroupFixture {};
TYPED_TEST_SUITE(SubgroupShuffle, AllTypes, TypeNames);

TYPED_TEST(SubgroupShuffle, UniformAndDivergent) {
  using T = Value<TypeParam>;
  const std::string name = std::string("shuffle_") + Traits<T>::name;
  static const char *slotNames[] = {
      "shuffle(x, index)",          "shuffle_xor(x, mask)",
      "shuffle_up(x, delta)",       "shuffle_down(x, delta)",
      "shuffle_up(x, 1)",           "shuffle_down(x, 1)",
      "shuffle_xor(x, 1)",          "odd lanes: shuffle_xor(x, 2)",
      "odd lanes: shuffle(x, index | 1)", "odd lanes: shuffle_up(x, 2)",
      "odd lanes: shuffle_down(x, 2)",    "loop of shuffle_xor(p, 1 << k % 3)",
      "loop of shuffle_up(q, k) / shuffle_down(q, k + 1)",
      "after early return: shuffle(x, index)", "after early return: shuffle_down(x, 1)",
      "after early return: shuffle_up(x, 1)", "after the loops: shuffle_down(x, 1)"};
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
      compare<T>(at, *p, this->template read<T>(out, n * K), want,
                 [](size_t s) { return std::string(slotNames[s]); }, true);
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
  const std::vector<Op> ops = isFloat<T> ? std::vector<Op>{Op::Add, Op::Mul, Op::Min, Op::Max}
                                         : std::vector<Op>{Op::Add, Op::Mul, Op::Min, Op::Max,
                                                           Op::And, Op::Or, Op::Xor};
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
          const std::string at =
              where(name, variant, r) + ", lane " + std::to_string(lane);
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
          case 'f': go(float{}); break;
          case 'd': go(double{}); break;
          case 'h': go(half{}); break;
          default:
            switch (c.bytes) {
            case 1: go(std::uint8_t{}); break;
            case 2: go(std::uint16_t{}); break;
            case 4: go(std::uint32_t{}); break;
            default: go(std::uint64_t{}); break;
            }
          }
        }
      }
    }
  }
}

// ---- cl_khr_subgroup_ballot ------------------------------------------------------------
using SubgroupBallot = SubgroupFixture;

struct Bits {
  cl_uint w[4] = {0, 0, 0, 0};
  bool test(size_t i) const { return i < 128 && (w[i / 32] >> (i % 32) & 1); }
  void set(size_t i) { w[i / 32] |= 1u << (i % 32); }
  size_t countBelow(size_t end) const { // bits [0, end)
    size_t c = 0;
    for (size_t i = 0; i < std::min<size_t>(end, 128); ++i)
      c += test(i);
    return c;
  }
};
// The slots of BALLOT_OPS in cl/subgroups.cl for the bitfield b.
void ballotOps(Expected<cl_uint> &want, size_t g, size_t base, const Bits &b, size_t lane,
               size_t index, size_t max) {
  want.truth(g, base + 0, b.test(lane));
  want.truth(g, base + 1, b.test(index));
  want.value(g, base + 2, cl_uint(b.countBelow(max)));
  want.value(g, base + 3, cl_uint(b.countBelow(lane + 1)));
  want.value(g, base + 4, cl_uint(b.countBelow(lane)));
  size_t lsb = SIZE_MAX, msb = SIZE_MAX;
  for (size_t i = 0; i < max; ++i)
    if (b.test(i)) {
      msb = i;
      if (lsb == SIZE_MAX)
        lsb = i;
    }
  if (lsb == SIZE_MAX) {
    want.undefined(g, base + 5);
    want.undefined(g, base + 6);
  } else {
    want.value(g, base + 5, cl_uint(lsb));
    want.value(g, base + 6, cl_uint(msb));
  }
}

TEST_F(SubgroupBallot, BallotsMasksAndBroadcasts) {
  constexpr size_t K = 56;
  auto slotName = [](size_t s) {
    static const char *ops[] = {"inverse_ballot", "ballot_bit_extract(x % size)",
                                "ballot_bit_count", "ballot_inclusive_scan",
                                "ballot_exclusive_scan", "ballot_find_lsb", "ballot_find_msb"};
    static const char *masks[] = {"eq", "ge", "gt", "le", "lt"};
    std::ostringstream o;
    if (s < 4)
      o << "ballot(p) word " << s;
    else if (s < 11)
      o << ops[s - 4] << "(ballot(p))";
    else if (s < 18)
      o << ops[s - 11] << "(v)";
    else if (s < 38)
      o << "get_sub_group_" << masks[(s - 18) / 4] << "_mask() word " << (s - 18) % 4;
    else if (s == 38)
      o << "broadcast_first(x)";
    else if (s == 39)
      o << "non_uniform_broadcast(x, lane)";
    else if (s < 44)
      o << "odd lanes: ballot(p) word " << s - 40;
    else if (s < 48)
      o << "odd lanes: "
        << (s == 44   ? "broadcast_first(x)"
            : s == 45 ? "non_uniform_broadcast(x, odd lane)"
            : s == 46 ? "ballot_find_lsb(ballot(p))"
                      : "ballot_inclusive_scan(ballot(p))");
    else if (s < 52)
      o << "loop iteration " << s - 48 << ": broadcast_first(x)";
    else
      o << "loop iteration " << s - 52 << ": ballot_bit_count(ballot(p))";
    return o.str();
  };
  Rng rng(7);
  const cl_uint4 values[] = {{{cl_uint(rng()), cl_uint(rng()), cl_uint(rng()), cl_uint(rng())}},
                             {{~0u, ~0u, ~0u, ~0u}},
                             {{1u << 5, 0, 0, 0}},
                             {{0, 0, 0, 0}},
                             {{0, 0x10000u, 0, 0x80000000u}},
                             {{0x80000000u, 0, 0, 0}},
                             {{0, 0, 1, 0}}};
  for (const std::string &variant : kVariants) {
    cl_kernel k = sgKernel("ballot", variant);
    ASSERT_NE(k, nullptr);
    for (const Range &r : kRanges) {
      for (size_t rep = 0; rep < 7; ++rep) {
        const size_t n = items(r);
        const cl_uint4 v = values[rep];
        const cl_uint lane = rep % 2 ? 1000 : cl_uint(rep * 5);
        std::vector<cl_uint> x(n);
        for (auto &e : x)
          e = cl_uint(rng());
        const std::vector<cl_uint> ctl = controls(n, rng, 4);
        cl_mem pb = buffer<int>(n);
        cl_mem out = sentinelBuffer<cl_uint>(n * K);
        cl_mem info = buffer<cl_uint>(n * kInfoWords);
        setArgs(k, pb, buffer(x), buffer(ctl), out, info, v, lane);
        run(k, r.global, r.local); // learns the partition
        const std::string at = where("ballot", variant, r) + ", pattern " + std::to_string(rep);
        const auto p = partition(info, r, 0, at);
        if (!p)
          break;
        const std::vector<int> pred = predicates(*p, rng, rep);
        write(pb, pred);
        write(out, std::vector<cl_uint>(n * K, sentinel<cl_uint>()));
        run(k, r.global, r.local);
        Bits vb;
        std::memcpy(vb.w, v.s, sizeof vb.w);
        Expected<cl_uint> want(n, K);
        for (const auto &sg : p->subgroups) {
          const size_t size = sg.size(), max = p->max;
          Bits b, odd;
          for (size_t l = 0; l < size; ++l)
            if (pred[sg[l]]) {
              b.set(l);
              if (l % 2)
                odd.set(l);
            }
          for (size_t l = 0; l < size; ++l) {
            const size_t g = sg[l], index = x[g] % size;
            for (size_t w = 0; w < 4; ++w)
              want.value(g, w, b.w[w]);
            ballotOps(want, g, 4, b, l, index, max);
            ballotOps(want, g, 11, vb, l, index, max);
            Bits masks[5];
            for (size_t i = 0; i < max; ++i) {
              if (i == l)
                masks[0].set(i);
              if (i >= l)
                masks[1].set(i);
              if (i > l)
                masks[2].set(i);
              if (i <= l)
                masks[3].set(i);
              if (i < l)
                masks[4].set(i);
            }
            for (size_t m = 0; m < 5; ++m)
              for (size_t w = 0; w < 4; ++w)
                want.value(g, 18 + 4 * m + w, masks[m].w[w]);
            want.value(g, 38, x[sg[0]]);
            want.value(g, 39, x[sg[clampLane(lane, size)]]);
            if (l % 2) {
              for (size_t w = 0; w < 4; ++w)
                want.value(g, 40 + w, odd.w[w]);
              want.value(g, 44, x[sg[1]]);
              want.value(g, 45, x[sg[oddLane(lane, size)]]);
              size_t lsb = SIZE_MAX;
              for (size_t i = 0; i < size && lsb == SIZE_MAX; ++i)
                if (odd.test(i))
                  lsb = i;
              if (lsb == SIZE_MAX)
                want.undefined(g, 46);
              else
                want.value(g, 46, cl_uint(lsb));
              want.value(g, 47, cl_uint(odd.countBelow(l + 1)));
            }
            const unsigned trips = ctl[g] & 0xff;
            for (unsigned it = 0; it < trips; ++it) {
              size_t first = SIZE_MAX, count = 0;
              for (size_t j = 0; j < size; ++j)
                if ((ctl[sg[j]] & 0xff) > it) {
                  if (first == SIZE_MAX)
                    first = j;
                  count += pred[sg[j]] != 0;
                }
              want.value(g, 48 + it, x[sg[first]]);
              want.value(g, 52 + it, cl_uint(count));
            }
          }
        }
        compare<cl_uint>(at, *p, read<cl_uint>(out, n * K), want, slotName, false);
      }
    }
  }
}

// ---- votes: cl_khr_subgroups all/any and cl_khr_subgroup_non_uniform_vote ------------
using SubgroupVote = SubgroupFixture;

// all_equal over the active lanes with an ordered comparison (a NaN equals
// nothing; a single active NaN is left undefined).
template <typename T>
std::optional<bool> allEqual(const std::vector<T> &v, const std::vector<bool> &active) {
  std::optional<T> first;
  size_t count = 0;
  bool equal = true, nan = false;
  for (size_t l = 0; l < v.size(); ++l) {
    if (!active[l])
      continue;
    ++count;
    if constexpr (isFloat<T>)
      nan |= std::isnan(double(v[l]));
    if (!first)
      first = v[l];
    else if (!(v[l] == *first))
      equal = false;
  }
  if (nan)
    return count == 1 ? std::nullopt : std::optional<bool>(false);
  return equal;
}

TEST_F(SubgroupVote, VotesAndElections) {
  constexpr size_t K = 25;
  static const char *slotNames[] = {
      "all(p)", "any(p)", "elect()", "non_uniform_all(p)", "non_uniform_any(p)",
      "all_equal(v)", "all_equal(f)", "all_equal((uchar)v)", "all_equal((short)v)",
      "all_equal((ulong)v << 33 | v)", "all_equal((double)f)", "all_equal((half)f)",
      "odd lanes: elect()", "odd lanes: non_uniform_all(p)", "odd lanes: non_uniform_any(p)",
      "odd lanes: all_equal(v)", "odd lanes: all_equal(f)",
      "loop: iterations elected (bit k)", "loop: iterations where non_uniform_all(p) (bit k)",
      "loop: iterations where all_equal(v) (bit k)", "after early return: elect()",
      "after early return: all_equal(v)", "after early return: non_uniform_any(p)",
      "after the loop: elect()", "after the loop: all_equal(v)"};
  Rng rng(8);
  for (const std::string &variant : kVariants) {
    cl_kernel k = sgKernel("vote", variant);
    ASSERT_NE(k, nullptr);
    for (const Range &r : kRanges) {
      for (size_t rep = 0; rep < 7; ++rep) {
        const size_t n = items(r);
        const std::vector<cl_uint> ctl = controls(n, rng, 5);
        cl_mem pb = buffer<int>(n), vb = buffer<int>(n), fb = buffer<float>(n);
        cl_mem out = sentinelBuffer<int>(n * K);
        cl_mem info = buffer<cl_uint>(n * kInfoWords);
        setArgs(k, pb, vb, fb, buffer(ctl), out, info);
        run(k, r.global, r.local); // learns the partition
        const std::string at = where("vote", variant, r) + ", pattern " + std::to_string(rep);
        const auto p = partition(info, r, 0, at);
        if (!p)
          break;
        const std::vector<int> pred = predicates(*p, rng, rep);
        std::vector<int> v(n);
        std::vector<float> f(n);
        for (size_t s = 0; s < p->subgroups.size(); ++s) {
          const auto &sg = p->subgroups[s];
          const int common = int(rng());
          const float fc = float(int(rng() % 2001) - 1000) / 16;
          const size_t one = rng() % sg.size();
          const size_t pattern = (s + rep) % 6;
          for (size_t l = 0; l < sg.size(); ++l) {
            int &vi = v[sg[l]];
            float &fi = f[sg[l]];
            switch (pattern) {
            case 0: // all equal
              vi = common;
              fi = fc;
              break;
            case 1: // one lane differs (in the low byte; by one ulp)
              vi = l == one ? common ^ 1 : common;
              fi = l == one ? std::nextafter(fc, INFINITY) : fc;
              break;
            case 2: // all different; +0 and -0 (equal)
              vi = int(rng());
              fi = l % 2 ? 0.0f : -0.0f;
              break;
            case 3: // equal as uchar, different as int; a NaN
              vi = (common & 0xff) | int(rng() << 8);
              fi = l == one ? NAN : fc;
              break;
            case 4: // equal in odd lanes only
              vi = l % 2 ? common : int(rng());
              fi = l % 2 ? fc : float(rng() % 1000) + 2000;
              break;
            case 5: // different as float, equal as half
              vi = l % 2 ? common : int(unsigned(common) + 0x10000u);
              fi = 1.0f + float(l % 4) * 0x1p-20f;
              break;
            }
          }
        }
        write(pb, pred);
        write(vb, v);
        write(fb, f);
        write(out, std::vector<int>(n * K, sentinel<int>()));
        run(k, r.global, r.local);
        Expected<int> want(n, K);
        for (const auto &sg : p->subgroups) {
          const size_t size = sg.size();
          const std::vector<bool> all(size, true), odd = oddLanes(size);
          const std::vector<int> pv = gather(sg, pred), vv = gather(sg, v);
          const std::vector<float> fv = gather(sg, f);
          std::vector<unsigned char> uc;
          std::vector<short> sh;
          std::vector<std::uint64_t> ul;
          std::vector<double> dv;
          std::vector<half> hv;
          for (size_t l = 0; l < size; ++l) {
            uc.push_back((unsigned char)vv[l]);
            sh.push_back(short(vv[l]));
            ul.push_back(std::uint64_t(std::uint32_t(vv[l])) << 33 | std::uint32_t(vv[l]));
            dv.push_back(fv[l]);
            hv.push_back(half(fv[l]));
          }
          auto vote = [&](const std::vector<bool> &active, bool wantAll) {
            bool a = true, any = false;
            for (size_t l = 0; l < size; ++l)
              if (active[l]) {
                a &= pv[l] != 0;
                any |= pv[l] != 0;
              }
            return wantAll ? a : any;
          };
          auto truthOrUndefined = [&](size_t g, size_t slot, std::optional<bool> b) {
            if (b)
              want.truth(g, slot, *b);
            else
              want.undefined(g, slot);
          };
          std::vector<bool> stays(size);
          size_t firstStaying = SIZE_MAX;
          for (size_t l = 0; l < size; ++l) {
            stays[l] = (ctl[sg[l]] >> 8) == 0;
            if (stays[l] && firstStaying == SIZE_MAX)
              firstStaying = l;
          }
          for (size_t l = 0; l < size; ++l) {
            const size_t g = sg[l];
            want.truth(g, 0, vote(all, true));
            want.truth(g, 1, vote(all, false));
            want.truth(g, 2, l == 0);
            want.truth(g, 3, vote(all, true));
            want.truth(g, 4, vote(all, false));
            truthOrUndefined(g, 5, allEqual(vv, all));
            truthOrUndefined(g, 6, allEqual(fv, all));
            truthOrUndefined(g, 7, allEqual(uc, all));
            truthOrUndefined(g, 8, allEqual(sh, all));
            truthOrUndefined(g, 9, allEqual(ul, all));
            truthOrUndefined(g, 10, allEqual(dv, all));
            truthOrUndefined(g, 11, allEqual(hv, all));
            if (l % 2) {
              want.truth(g, 12, l == 1);
              want.truth(g, 13, vote(odd, true));
              want.truth(g, 14, vote(odd, false));
              truthOrUndefined(g, 15, allEqual(vv, odd));
              truthOrUndefined(g, 16, allEqual(fv, odd));
            }
            int elected = 0, allMask = 0, equalMask = 0;
            for (unsigned it = 0; it < (ctl[g] & 0xff); ++it) {
              std::vector<bool> active(size);
              size_t first = SIZE_MAX;
              for (size_t j = 0; j < size; ++j) {
                active[j] = (ctl[sg[j]] & 0xff) > it;
                if (active[j] && first == SIZE_MAX)
                  first = j;
              }
              elected |= (first == l) << it;
              allMask |= vote(active, true) << it;
              equalMask |= int(*allEqual(vv, active)) << it;
            }
            want.value(g, 17, elected);
            want.value(g, 18, allMask);
            want.value(g, 19, equalMask);
            want.truth(g, 23, l == 0);
            truthOrUndefined(g, 24, allEqual(vv, all));
            if (stays[l]) {
              want.truth(g, 20, l == firstStaying);
              truthOrUndefined(g, 21, allEqual(vv, stays));
              want.truth(g, 22, vote(stays, false));
            }
          }
        }
        compare<int>(at, *p, read<int>(out, n * K), want,
                     [](size_t s) { return std::string(slotNames[s]); }, false);
      }
    }
  }
}

// ---- a mix of operations with and without intel_reqd_sub_group_size -------------------
struct MixCase {
  const char *kernel;
  std::uint32_t required;
};
class SubgroupRequiredSize : public SubgroupFixture,
                             public ::testing::WithParamInterface<MixCase> {};

TEST_P(SubgroupRequiredSize, MixOfOperations) {
  const MixCase c = GetParam();
  constexpr size_t K = 19;
  static const char *slotNames[] = {
      "shuffle(x, s % size)", "shuffle_xor(x, (s >> 8) % max)",
      "shuffle_up(x, (s >> 16) % size)", "shuffle_down(x, (s >> 16) % size)",
      "broadcast(x, lane)", "reduce_add(a)", "scan_inclusive_add(a)", "scan_exclusive_max(x)",
      "ballot(p) word 0", "ballot(p) word 1", "ballot(p) word 2", "ballot(p) word 3", "all(p)",
      "any(p)", "clustered_reduce_add(a, 8)", "odd lanes: non_uniform_reduce_add(a)",
      "odd lanes: shuffle_xor(x, 2)", "odd lanes: non_uniform_scan_exclusive_add(a)",
      "odd lanes: elect()"};
  Rng rng(9);
  std::vector<Range> ranges = kRanges;
  ranges.push_back({{96}, {96}});
  ranges.push_back({{5}, {5}});
  for (const std::string &variant : kVariants) {
    cl_kernel k = sgKernel(c.kernel, variant);
    ASSERT_NE(k, nullptr);
    for (const Range &r : ranges) {
      for (size_t rep = 0; rep < 3; ++rep) {
        const size_t n = items(r);
        const cl_uint lane = cl_uint(rep * 11 + 2);
        std::vector<int> x(n), a(n);
        std::vector<cl_uint> s(n);
        for (size_t i = 0; i < n; ++i) {
          x[i] = int(rng());
          a[i] = int(rng() % 2001) - 1000;
          s[i] = cl_uint(rng());
        }
        cl_mem pb = buffer<int>(n);
        cl_mem out = sentinelBuffer<int>(n * K);
        cl_mem info = buffer<cl_uint>(n * kInfoWords);
        setArgs(k, buffer(x), buffer(s), buffer(a), pb, out, info, lane);
        run(k, r.global, r.local); // learns the partition
        const std::string at = where(c.kernel, variant, r) + ", pattern " + std::to_string(rep);
        const auto p = partition(info, r, c.required, at);
        if (!p)
          break;
        const std::vector<int> pred = predicates(*p, rng, rep * 3);
        write(pb, pred);
        write(out, std::vector<int>(n * K, sentinel<int>()));
        run(k, r.global, r.local);
        Expected<int> want(n, K);
        for (const auto &sg : p->subgroups) {
          const size_t size = sg.size(), max = p->max;
          const std::vector<bool> all(size, true), odd = oddLanes(size);
          const std::vector<int> xv = gather(sg, x), av = gather(sg, a);
          const Scan<int> add = scan(Op::Add, av, all), mx = scan(Op::Max, xv, all),
                          oddAdd = scan(Op::Add, av, odd);
          Bits b;
          bool allP = true, anyP = false;
          for (size_t l = 0; l < size; ++l) {
            if (pred[sg[l]])
              b.set(l);
            allP &= pred[sg[l]] != 0;
            anyP |= pred[sg[l]] != 0;
          }
          for (size_t l = 0; l < size; ++l) {
            const size_t g = sg[l], d = (s[g] >> 16) % size;
            want.from(g, 0, xv, s[g] % size, all);
            want.from(g, 1, xv, l ^ ((s[g] >> 8) % max), all);
            want.from(g, 2, xv, std::int64_t(l) - std::int64_t(d), all);
            want.from(g, 3, xv, l + d, all);
            want.value(g, 4, xv[clampLane(lane, size)]);
            want.value(g, 5, add.reduce);
            want.value(g, 6, add.inclusive[l]);
            want.value(g, 7, mx.exclusive[l]);
            for (size_t w = 0; w < 4; ++w)
              want.value(g, 8 + w, int(b.w[w]));
            want.truth(g, 12, allP);
            want.truth(g, 13, anyP);
            if (max >= 8) {
              const size_t first = l / 8 * 8;
              int sum = 0;
              for (size_t j = first; j < std::min(size, first + 8); ++j)
                sum += av[j];
              want.value(g, 14, sum);
            } else {
              want.undefined(g, 14);
            }
            if (l % 2) {
              want.value(g, 15, oddAdd.reduce);
              want.from(g, 16, xv, l ^ 2, odd);
              want.value(g, 17, oddAdd.exclusive[l]);
              want.truth(g, 18, l == 1);
            }
          }
        }
        compare<int>(at, *p, read<int>(out, n * K), want,
                     [](size_t s) { return std::string(slotNames[s]); }, false);
      }
    }
  }
}
INSTANTIATE_TEST_SUITE_P(Subgroup, SubgroupRequiredSize,
                         ::testing::Values(MixCase{"mix", 0}, MixCase{"mix8", 8},
                                           MixCase{"mix16", 16}, MixCase{"mix32", 32},
                                           MixCase{"mix64", 64}),
                         [](const auto &info) { return std::string(info.param.kernel); });

// ---- clGetKernelSubGroupInfo ---------------------------------------------------------
class SubgroupInfo : public SubgroupFixture {
protected:
  size_t query(cl_kernel k, cl_kernel_sub_group_info param, const std::vector<size_t> &input) {
    size_t value = 0, size = 0;
    EXPECT_EQ(clGetKernelSubGroupInfo(k, device, param, input.size() * sizeof(size_t),
                                      input.empty() ? nullptr : input.data(), sizeof value,
                                      &value, &size),
              CL_SUCCESS)
        << "param 0x" << std::hex << param;
    EXPECT_EQ(size, sizeof(size_t)) << "param 0x" << std::hex << param;
    return value;
  }
  size_t workGroupSize(cl_kernel k) {
    size_t wgs = 0;
    EXPECT_EQ(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wgs, &wgs,
                                       nullptr),
              CL_SUCCESS);
    return wgs;
  }
  // Runs `ids` (or a mix kernel, with dummy data) as one work-group of
  // `local` and returns its partition.
  std::optional<Partition> runOnce(cl_kernel k, const std::string &name,
                                   const std::vector<size_t> &local, std::uint32_t required) {
    const Range r{local, local};
    const size_t n = items(r);
    cl_mem info = buffer<cl_uint>(n * kInfoWords);
    if (name == "ids") {
      setArgs(k, info);
    } else {
      cl_mem data = buffer<int>(n);
      setArgs(k, data, data, data, data, buffer<int>(n * 19), info, cl_uint(0));
    }
    run(k, r.global, r.local);
    return partition(info, r, required, name + " over " + show(r));
  }
};

const std::vector<MixCase> kInfoKernels = {
    {"ids", 0}, {"mix", 0}, {"mix8", 8}, {"mix16", 16}, {"mix32", 32}, {"mix64", 64}};

TEST_F(SubgroupInfo, NdrangeQueriesMatchTheBuiltIns) {
  const std::vector<std::vector<size_t>> locals = {{100}, {37}, {64}, {1},  {256},
                                                   {10, 7}, {4, 3, 2}, {33, 1, 1}};
  for (const MixCase &c : kInfoKernels) {
    cl_kernel k = sgKernel(c.kernel);
    ASSERT_NE(k, nullptr);
    for (const auto &local : locals) {
      SCOPED_TRACE(std::string(c.kernel) + " local " + show(Range{local, local}));
      const size_t max = query(k, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, local);
      const size_t count = query(k, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, local);
      if (c.required) {
        EXPECT_EQ(max, c.required);
      }
      const auto p = runOnce(k, c.kernel, local, c.required);
      if (!p)
        continue;
      EXPECT_EQ(max, p->max) << "CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE vs get_max_sub_group_size";
      EXPECT_EQ(count, p->items[0].num) << "CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE vs get_num_sub_groups";
    }
  }
}

TEST_F(SubgroupInfo, LocalSizeForSubGroupCount) {
  for (const MixCase &c : kInfoKernels) {
    cl_kernel k = sgKernel(c.kernel);
    ASSERT_NE(k, nullptr);
    const size_t wgs = workGroupSize(k);
    const size_t maxNum = query(k, CL_KERNEL_MAX_NUM_SUB_GROUPS, {});
    for (size_t count : {size_t(1), size_t(2), size_t(3), size_t(5), maxNum}) {
      for (size_t dims = 1; dims <= 3; ++dims) {
        SCOPED_TRACE(std::string(c.kernel) + ", " + std::to_string(count) + " sub-groups, " +
                     std::to_string(dims) + " dimension(s)");
        std::vector<size_t> local(dims, 12345);
        size_t ret = 0;
        ASSERT_EQ(clGetKernelSubGroupInfo(k, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                          sizeof count, &count, dims * sizeof(size_t),
                                          local.data(), &ret),
                  CL_SUCCESS);
        for (size_t d = 1; d < dims; ++d)
          EXPECT_EQ(local[d], 1u) << "dimension " << d;
        ASSERT_GT(local[0], 0u) << "a work-group of " << count << " sub-groups exists";
        EXPECT_LE(local[0], wgs);
        const size_t max = query(k, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, local);
        EXPECT_EQ(query(k, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, local), count);
        ASSERT_GT(max, 0u);
        EXPECT_EQ(local[0] % max, 0u) << "no partial sub-group";
        if (dims == 1 && std::string(c.kernel) == "ids") {
          const auto p = runOnce(k, c.kernel, local, c.required);
          if (p) {
            EXPECT_EQ(p->items[0].num, count);
          }
        }
      }
    }
    // No work-group holds more sub-groups than CL_KERNEL_MAX_NUM_SUB_GROUPS.
    for (size_t count : {maxNum + 1, maxNum * 4}) {
      std::vector<size_t> local(2, 12345);
      ASSERT_EQ(clGetKernelSubGroupInfo(k, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                        sizeof count, &count, 2 * sizeof(size_t), local.data(),
                                        nullptr),
                CL_SUCCESS);
      EXPECT_EQ(local[0], 0u) << c.kernel << ", " << count << " sub-groups";
      EXPECT_EQ(local[1], 0u) << c.kernel << ", " << count << " sub-groups";
    }
  }
}

TEST_F(SubgroupInfo, MaxAndCompileNumSubGroups) {
  const cl_uint deviceMax = deviceInfo<cl_uint>(device, CL_DEVICE_MAX_NUM_SUB_GROUPS);
  for (const MixCase &c : kInfoKernels) {
    SCOPED_TRACE(c.kernel);
    cl_kernel k = sgKernel(c.kernel);
    ASSERT_NE(k, nullptr);
    const size_t maxNum = query(k, CL_KERNEL_MAX_NUM_SUB_GROUPS, {});
    EXPECT_GE(maxNum, 1u);
    EXPECT_LE(maxNum, deviceMax);
    // The largest work-group, CL_KERNEL_WORK_GROUP_SIZE, has the most
    // sub-groups.
    const size_t wgs = workGroupSize(k);
    const size_t size = query(k, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, {wgs});
    ASSERT_GT(size, 0u);
    EXPECT_EQ(maxNum, (wgs + size - 1) / size);
    EXPECT_EQ(query(k, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, {wgs}), maxNum);
    // Input values are ignored for these two.
    size_t v = 99;
    const size_t junk = 7;
    EXPECT_EQ(clGetKernelSubGroupInfo(k, device, CL_KERNEL_MAX_NUM_SUB_GROUPS, sizeof junk, &junk,
                                      sizeof v, &v, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(v, maxNum);
    // No kernel of subgroups.cl declares a number of sub-groups.
    EXPECT_EQ(query(k, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, {}), 0u);
  }
}

TEST_F(SubgroupInfo, CompileSubGroupSizeIntel) {
  const bool reported = deviceString(device, CL_DEVICE_EXTENSIONS)
                            .find("cl_intel_required_subgroup_size") != std::string::npos;
  for (const MixCase &c : kInfoKernels) {
    cl_kernel k = sgKernel(c.kernel);
    ASSERT_NE(k, nullptr);
    size_t value = 99, ret = 0;
    const cl_int error = clGetKernelSubGroupInfo(k, device, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL,
                                                 0, nullptr, sizeof value, &value, &ret);
    if (!reported && error == CL_INVALID_VALUE)
      GTEST_SKIP() << "cl_intel_required_subgroup_size is not reported";
    ASSERT_EQ(error, CL_SUCCESS) << c.kernel;
    EXPECT_EQ(value, c.required) << c.kernel;
    EXPECT_EQ(ret, sizeof(size_t));
  }
}

TEST_F(SubgroupInfo, KhrEntryPointIsTheSame) {
  auto khr = reinterpret_cast<clGetKernelSubGroupInfoKHR_fn>(
      clGetExtensionFunctionAddressForPlatform(platform, "clGetKernelSubGroupInfoKHR"));
  ASSERT_NE(khr, nullptr);
  for (const MixCase &c : kInfoKernels) {
    cl_kernel k = sgKernel(c.kernel);
    ASSERT_NE(k, nullptr);
    for (const std::vector<size_t> &local : {std::vector<size_t>{100}, {10, 7}}) {
      for (cl_kernel_sub_group_info param :
           {CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE_KHR, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE_KHR}) {
        size_t value = 0;
        EXPECT_EQ(khr(k, device, param, local.size() * sizeof(size_t), local.data(), sizeof value,
                      &value, nullptr),
                  CL_SUCCESS);
        EXPECT_EQ(value, query(k, param, local)) << c.kernel << " param 0x" << std::hex << param;
      }
    }
  }
}

TEST_F(SubgroupInfo, Errors) {
  cl_kernel k = sgKernel("ids");
  ASSERT_NE(k, nullptr);
  const size_t local[4] = {100, 1, 1, 1};
  size_t value = 0, ret = 0;
  // Invalid kernel and device.
  EXPECT_EQ(clGetKernelSubGroupInfo(nullptr, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                    sizeof(size_t), local, sizeof value, &value, nullptr),
            CL_INVALID_KERNEL);
  EXPECT_EQ(clGetKernelSubGroupInfo(reinterpret_cast<cl_kernel>(context), device,
                                    CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(size_t), local,
                                    sizeof value, &value, nullptr),
            CL_INVALID_KERNEL);
  EXPECT_EQ(clGetKernelSubGroupInfo(k, reinterpret_cast<cl_device_id>(context),
                                    CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(size_t), local,
                                    sizeof value, &value, nullptr),
            CL_INVALID_DEVICE);
  // A NULL device is fine: the kernel's program has one device.
  EXPECT_EQ(clGetKernelSubGroupInfo(k, nullptr, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                    sizeof(size_t), local, sizeof value, &value, nullptr),
            CL_SUCCESS);
  // Unknown queries.
  for (cl_kernel_sub_group_info param : {cl_kernel_sub_group_info(CL_KERNEL_WORK_GROUP_SIZE),
                                         cl_kernel_sub_group_info(0x2030), cl_kernel_sub_group_info(0)})
    EXPECT_EQ(clGetKernelSubGroupInfo(k, device, param, sizeof(size_t), local, sizeof value,
                                      &value, nullptr),
              CL_INVALID_VALUE)
        << "param 0x" << std::hex << param;
  // Results too small for a size_t, for every query.
  for (cl_kernel_sub_group_info param :
       {CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
        CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, CL_KERNEL_MAX_NUM_SUB_GROUPS,
        CL_KERNEL_COMPILE_NUM_SUB_GROUPS}) {
    const size_t one = 1;
    const void *input = param == CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT ? &one : local;
    EXPECT_EQ(clGetKernelSubGroupInfo(k, device, param, sizeof(size_t), input,
                                      sizeof(size_t) - 1, &value, nullptr),
              CL_INVALID_VALUE)
        << "param 0x" << std::hex << param;
    // Only the size: param_value NULL.
    ret = 0;
    EXPECT_EQ(clGetKernelSubGroupInfo(k, device, param, sizeof(size_t), input, 0, nullptr, &ret),
              CL_SUCCESS)
        << "param 0x" << std::hex << param;
    EXPECT_GE(ret, sizeof(size_t)) << "param 0x" << std::hex << param;
  }
  // Missing or malformed inputs.
  for (cl_kernel_sub_group_info param :
       {CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE}) {
    EXPECT_EQ(clGetKernelSubGroupInfo(k, device, param, sizeof(size_t), nullptr, sizeof value,
                                      &value, nullptr),
              CL_INVALID_VALUE)
        << "NULL input, param 0x" << std::hex << param;
    for (size_t bytes : {size_t(0), sizeof(size_t) - 1, sizeof(size_t) + 1, 4 * sizeof(size_t)})
      EXPECT_EQ(clGetKernelSubGroupInfo(k, device, param, bytes, local, sizeof value, &value,
                                        nullptr),
                CL_INVALID_VALUE)
          << bytes << " input bytes, param 0x" << std::hex << param;
  }
  const size_t count[2] = {1, 1};
  size_t out[3];
  EXPECT_EQ(clGetKernelSubGroupInfo(k, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                    sizeof(size_t), nullptr, sizeof out, out, nullptr),
            CL_INVALID_VALUE);
  for (size_t bytes : {size_t(0), sizeof(size_t) - 1, 2 * sizeof(size_t)})
    EXPECT_EQ(clGetKernelSubGroupInfo(k, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, bytes,
                                      count, sizeof out, out, nullptr),
              CL_INVALID_VALUE)
        << bytes << " input bytes";
}

// ---- device queries -----------------------------------------------------------------------
using SubgroupDevice = SubgroupFixture;

TEST_F(SubgroupDevice, ReportsSubGroups) {
  EXPECT_GT(deviceInfo<cl_uint>(device, CL_DEVICE_MAX_NUM_SUB_GROUPS), 0u);
  cl_bool progress = 7;
  EXPECT_EQ(clGetDeviceInfo(device, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS,
                            sizeof progress, &progress, nullptr),
            CL_SUCCESS);
  EXPECT_TRUE(progress == CL_TRUE || progress == CL_FALSE);
  const std::string extensions = " " + deviceString(device, CL_DEVICE_EXTENSIONS) + " ";
  EXPECT_NE(extensions.find(" cl_khr_subgroups "), std::string::npos) << extensions;
  auto named = [&](cl_device_info param, const char *name) {
    size_t size = 0;
    EXPECT_EQ(clGetDeviceInfo(device, param, 0, nullptr, &size), CL_SUCCESS);
    std::vector<cl_name_version> list(size / sizeof(cl_name_version));
    EXPECT_EQ(clGetDeviceInfo(device, param, size, list.data(), nullptr), CL_SUCCESS);
    return std::any_of(list.begin(), list.end(),
                       [&](const cl_name_version &v) { return std::strcmp(v.name, name) == 0; });
  };
  EXPECT_TRUE(named(CL_DEVICE_EXTENSIONS_WITH_VERSION, "cl_khr_subgroups"));
  EXPECT_TRUE(named(CL_DEVICE_OPENCL_C_FEATURES, "__opencl_c_subgroups"));
  if (extensions.find(" cl_intel_required_subgroup_size ") != std::string::npos) {
    size_t size = 0;
    ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_SUB_GROUP_SIZES_INTEL, 0, nullptr, &size),
              CL_SUCCESS);
    std::vector<size_t> sizes(size / sizeof(size_t));
    ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_SUB_GROUP_SIZES_INTEL, size, sizes.data(), nullptr),
              CL_SUCCESS);
    for (size_t s : {8, 16, 32, 64})
      EXPECT_NE(std::find(sizes.begin(), sizes.end(), s), sizes.end()) << s;
  }
}

} // namespace
} // namespace lanewise::test
