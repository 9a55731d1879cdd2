// SPDX-License-Identifier: Apache-2.0
// Sub-group operations as pure functions over one sub-group's lanes
// (OpenCL C 3.0, 6.15.16; cl_khr_subgroup_*; cl_intel_subgroups). A
// sub-group is `size` consecutive lanes; `active(i)` says whether lane i of
// the sub-group takes part (non-uniform operations act over the active lanes
// only; the uniform ones are reached by all).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace lanewise::builtins {

// Where a lane of a sub-group reads from, for the shuffles and broadcasts.
enum class LaneSource : std::uint8_t {
  Index,        // sub_group_shuffle, intel_sub_group_shuffle, broadcasts: lane = index
  Xor,          // sub_group_shuffle_xor: lane = self ^ mask
  Up,           // sub_group_shuffle_up: lane = self - delta
  Down,         // sub_group_shuffle_down: lane = self + delta
  IntelUp,      // intel_sub_group_shuffle_up(previous, current, delta)
  IntelDown,    // intel_sub_group_shuffle_down(current, next, delta)
  First,        // sub_group_broadcast_first: the lowest active lane
};

// The lane (of `size`) that `self` reads, and whether it reads the second
// input: for the two-input Intel shuffles, a shifted index that leaves the
// sub-group continues in the other input, as if the two formed one sub-group
// twice as large (intel_sub_group_shuffle_down: current, then next;
// intel_sub_group_shuffle_up: previous, then current).
struct SourceLane {
  std::uint32_t lane;
  bool second;
};

inline SourceLane sourceLane(LaneSource kind, std::uint32_t self, std::uint64_t operand,
                             std::uint32_t size, std::uint32_t firstActive) {
  switch (kind) {
  case LaneSource::Index:
    return {static_cast<std::uint32_t>(operand), false};
  case LaneSource::Xor:
    return {static_cast<std::uint32_t>(self ^ operand), false};
  case LaneSource::Up:
    return {static_cast<std::uint32_t>(self - operand), false};
  case LaneSource::Down:
    return {static_cast<std::uint32_t>(self + operand), false};
  case LaneSource::IntelDown: {
    const std::uint64_t j = self + operand;
    return j < size ? SourceLane{static_cast<std::uint32_t>(j), false}
                    : SourceLane{static_cast<std::uint32_t>(j - size), true};
  }
  case LaneSource::IntelUp: {
    // previous is the second input here: lane i gets current[i - delta], or
    // previous[size + i - delta] before the start.
    if (operand <= self)
      return {static_cast<std::uint32_t>(self - operand), false};
    return {static_cast<std::uint32_t>(size + self - operand), true};
  }
  case LaneSource::First:
    return {firstActive, false};
  }
  return {self, false};
}

// Reductions and scans.
// Every group operation, for the enum and for the dispatchers that switch
// over it: X(name) for each.
#define LANEWISE_GROUP_ARITHMETIC(X)                                                               \
  X(Add)                                                                                           \
  X(Mul) X(SMin) X(UMin) X(FMin) X(SMax) X(UMax) X(FMax) X(And) X(Or) X(Xor) X(LogicalAnd)         \
      X(LogicalOr) X(LogicalXor)

enum class GroupArithmetic : std::uint8_t {
#define LANEWISE_GROUP_ENUMERATOR(name) name,
  LANEWISE_GROUP_ARITHMETIC(LANEWISE_GROUP_ENUMERATOR)
#undef LANEWISE_GROUP_ENUMERATOR
};

template <typename T> constexpr bool isFloatingPoint = !std::is_integral_v<T>;

template <GroupArithmetic Op, typename T> T identity() {
  using enum GroupArithmetic;
  if constexpr (Op == Add || Op == Or || Op == Xor || Op == LogicalOr || Op == LogicalXor)
    return T(0);
  else if constexpr (Op == Mul || Op == LogicalAnd)
    return T(1);
  else if constexpr (Op == And)
    return T(~T(0));
  else if constexpr (Op == UMin)
    return std::numeric_limits<T>::max();
  else if constexpr (Op == UMax)
    return T(0);
  else if constexpr (Op == SMin)
    return T(std::numeric_limits<std::make_signed_t<T>>::max());
  else if constexpr (Op == SMax)
    return T(std::numeric_limits<std::make_signed_t<T>>::min());
  else if constexpr (Op == FMin)
    return T(INFINITY);
  else
    return T(-INFINITY);
}

template <GroupArithmetic Op, typename T> T combine(T a, T b) {
  using enum GroupArithmetic;
  if constexpr (Op == Add)
    return T(a + b);
  else if constexpr (Op == Mul)
    return T(a * b);
  else if constexpr (Op == UMin)
    return a < b ? a : b;
  else if constexpr (Op == UMax)
    return a > b ? a : b;
  else if constexpr (Op == SMin) {
    using S = std::make_signed_t<T>;
    return S(a) < S(b) ? a : b;
  } else if constexpr (Op == SMax) {
    using S = std::make_signed_t<T>;
    return S(a) > S(b) ? a : b;
  } else if constexpr (Op == FMin)
    return T(std::fmin(double(a), double(b)));
  else if constexpr (Op == FMax)
    return T(std::fmax(double(a), double(b)));
  else if constexpr (Op == And)
    return T(a & b);
  else if constexpr (Op == Or)
    return T(a | b);
  else if constexpr (Op == Xor)
    return T(a ^ b);
  else if constexpr (Op == LogicalAnd)
    return T(a && b);
  else if constexpr (Op == LogicalOr)
    return T(a || b);
  else
    return T((a != 0) != (b != 0));
}

} // namespace lanewise::builtins
