// SPDX-License-Identifier: Apache-2.0
// What the sub-group tests share (subgroup_*_test.cpp): the element types,
// random values, a reference model of the operations, the NDRanges, the
// partition of work-groups into sub-groups that the built-ins describe, the
// expected results and their comparison, and the fixture that builds
// cl/subgroups.cl once per process.
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
#pragma once

#include "harness.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace lanewise::test::subgroup {

using half = _Float16;
using Rng = std::mt19937_64;

// ---- types ------------------------------------------------------------------------
template <typename T>
constexpr bool isFloat = std::is_floating_point_v<T> || std::is_same_v<T, half>;

template <typename T> struct Traits;
#define LANEWISE_TRAITS(T, N)                                                                      \
  template <> struct Traits<T> { static constexpr const char *name = N; };
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
const char *opName(Op op);
bool isLogical(Op op);

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

// A ballot: one bit per lane, in the four words of a uint4.
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

// ---- NDRanges and the partition into sub-groups ------------------------------------
struct Range {
  std::vector<size_t> global, local;
};
std::string show(const Range &r);
size_t items(const Range &r);
// Work-group sizes that leave a partial last sub-group for sub-group sizes
// 8 to 64 (100, 37), one that does not (64), and a non-uniform NDRange whose
// last work-group has 50 work-items.
// Sixteen groups of 32, whose kernels without get_group_id run several
// groups in each warp (runtime::groupsPerPackedWarp), as {128}, {64} does.
extern const std::vector<Range> kRanges;
extern const std::vector<std::string> kVariants;

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
                                std::uint32_t required, const std::string &where);

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
             << " of " << it.size << ", lane " << it.lane << "), " << slotName(slot) << ": got "
             << show(g) << ", want " << expected;
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
std::vector<int> predicates(const Partition &p, Rng &rng, size_t rep);

// Lane helpers mirroring cl/subgroups.cl.
size_t clampLane(size_t lane, size_t size);
size_t oddLane(size_t lane, size_t size);
std::vector<bool> oddLanes(size_t size);
template <typename T>
std::vector<T> gather(const std::vector<size_t> &sg, const std::vector<T> &v) {
  std::vector<T> out;
  for (size_t gid : sg)
    out.push_back(v[gid]);
  return out;
}
// Control words: a loop trip count in [0, maxTrips] | an early return << 8.
std::vector<cl_uint> controls(size_t n, Rng &rng, unsigned maxTrips);

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
    ASSERT_EQ(clEnqueueWriteBuffer(queue, mem, CL_TRUE, 0, data.size() * sizeof(T), data.data(), 0,
                                   nullptr, nullptr),
              CL_SUCCESS);
  }
  std::optional<Partition> partition(cl_mem info, const Range &r, std::uint32_t required,
                                     const std::string &where) {
    return derive(read<cl_uint>(info, items(r) * kInfoWords), r, required, where);
  }
};

std::string where(const std::string &kernel, const std::string &variant, const Range &r);

} // namespace lanewise::test::subgroup
