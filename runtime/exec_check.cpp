// SPDX-License-Identifier: Apache-2.0
// The instructions of the checked mode (runtime/check.h): they validate each
// active lane before the operation they guard and report what is wrong.
#include "builtins/subgroup.h"
#include "runtime/check.h"
#include "runtime/handlers.h"
#include "runtime/shapes.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <type_traits>

namespace lanewise::runtime {

namespace {

// result = operand[0] for each lane whose access of `immediate` bytes is
// valid for site `aux`, else a sink address.
template <bool Varying> void checkAccess(const Instruction &in, ExecutionState &s) {
  s.check->checkWarp(s, in.aux, s.reg<const std::uint64_t>(in.operand[0]), Varying, in.immediate,
                     s.reg<std::uint64_t>(in.result));
}

// Integer division and remainder: a zero divisor, or the minimum value
// divided by -1 for signed operations (operand[0] / operand[1], `components`
// elements; immediate 1 for signed).
template <typename T> struct CheckDivision {
  template <bool RV, bool AV, bool BV> static void run(const Instruction &in, ExecutionState &s) {
    using S = std::make_signed_t<T>;
    const T *a = s.reg<const T>(in.operand[0]);
    const T *b = s.reg<const T>(in.operand[1]);
    const bool isSigned = in.immediate != 0;
    auto one = [&](std::uint32_t lane) {
      for (std::uint32_t c = 0; c < in.components; ++c) {
        const T x = element<AV>(a, s.width, c, lane), y = element<BV>(b, s.width, c, lane);
        if (y == 0)
          s.check->report(s, lane, in.aux, FindingKind::DivisionByZero,
                          "integer division or remainder by zero");
        else if (isSigned && S(y) == S(-1) && S(x) == std::numeric_limits<S>::min())
          s.check->report(s, lane, in.aux, FindingKind::DivisionOverflow,
                          "signed integer division of the minimum value by -1 overflows");
      }
    };
    if constexpr (RV)
      forActiveLanes(s, one);
    else
      one(firstActiveLane(s));
  }
};

// Sub-group operations. immediate: bits 0-7 the mode (0: an operation all
// lanes of a sub-group must reach together; 1: a read of another lane; 2:
// the register shadow of a relative shuffle's result, which is undefined,
// not an error, where the lane read is outside the sub-group or inactive:
// result = shadowBadShuffle there, else the shadow of the input (operand[1],
// varying when bit 25 is set) on the lane read), bits 8-15 the
// builtins::LaneSource, 16-23 the index's bytes, bit 24 a varying index
// (operand[0]).
void checkSubgroup(const Instruction &in, ExecutionState &s) {
  const std::uint32_t size = s.group->subgroupSize;
  const std::uint32_t mode = in.immediate & 0xFF;
  char detail[256];
  if (mode == 0) {
    for (std::uint32_t first = 0; first < s.laneCount; first += size) {
      const std::uint32_t end = std::min(first + size, s.laneCount);
      std::uint32_t active = 0, absent = end;
      for (std::uint32_t lane = first; lane < end; ++lane) {
        if (s.isActive(lane))
          ++active;
        else if (absent == end)
          absent = lane;
      }
      if (active == 0 || absent == end)
        continue;
      std::snprintf(detail, sizeof detail,
                    "a sub-group operation that every work-item of the sub-group must reach "
                    "together was reached by %u of its %u work-items; the work-item named did "
                    "not reach it",
                    active, end - first);
      s.check->report(s, absent, in.aux, FindingKind::SubgroupDivergence, detail);
    }
    return;
  }
  const auto kind = static_cast<builtins::LaneSource>((in.immediate >> 8) & 0xFF);
  const std::uint32_t indexBytes = (in.immediate >> 16) & 0xFF;
  const bool varying = (in.immediate >> 24) & 1;
  const std::byte *index = s.registers + in.operand[0];
  // The lane `lane` reads: its sub-group's first lane and size, and the
  // lane within it (valid when below `count` and active).
  struct Read {
    std::uint32_t first, count;
    builtins::SourceLane source;
    bool valid;
  };
  auto readOf = [&](std::uint32_t lane) {
    const std::uint32_t first = lane / size * size;
    const std::uint32_t count = std::min(first + size, s.laneCount) - first;
    std::uint64_t operand = 0;
    std::memcpy(&operand, index + (varying ? lane : 0) * indexBytes, indexBytes);
    const builtins::SourceLane source = builtins::sourceLane(kind, lane - first, operand, count, 0);
    return Read{first, count, source, source.lane < count && s.isActive(first + source.lane)};
  };
  if (mode == 2) {
    const std::uint8_t *input = s.reg<const std::uint8_t>(in.operand[1]);
    const bool inputVarying = (in.immediate >> 25) & 1;
    std::uint8_t *shadow = s.reg<std::uint8_t>(in.result);
    forActiveLanes(s, [&](std::uint32_t lane) {
      const Read read = readOf(lane);
      shadow[lane] =
          read.valid ? input[inputVarying ? read.first + read.source.lane : 0] : shadowBadShuffle;
    });
    return;
  }
  forActiveLanes(s, [&](std::uint32_t lane) {
    const Read read = readOf(lane);
    if (read.valid)
      return;
    std::snprintf(detail, sizeof detail,
                  "reads sub-group lane %lld of a sub-group of %u work-items, which %s",
                  static_cast<long long>(static_cast<std::int32_t>(read.source.lane)), read.count,
                  read.source.lane < read.count ? "did not reach this operation (inactive)"
                                                : "is out of range");
    s.check->report(s, lane, in.aux, FindingKind::SubgroupBadLane, detail);
  });
}

void checkAsyncCopy(const Instruction &in, ExecutionState &s) {
  const std::uint64_t destination = s.reg<const std::uint64_t>(in.operand[0])[0];
  const std::uint64_t source = s.reg<const std::uint64_t>(in.operand[1])[0];
  const std::uint64_t count = s.reg<const std::uint64_t>(in.operand[2])[0];
  const std::uint64_t stride = s.reg<const std::uint64_t>(in.operand[3])[0];
  const bool toLocal = (in.immediate >> 32) & 1;
  const std::uint64_t bytes = in.immediate & 0xFFFFFFFF;
  std::uint64_t *checkedCount = s.reg<std::uint64_t>(in.result);
  // Another warp of the group has performed this execution of the copy.
  if (s.asyncReached[in.components] < s.group->asyncPerformed[in.components]) {
    *checkedCount = 0;
    return;
  }
  const std::uint32_t lane = firstActiveLane(s);
  bool valid = true;
  for (std::uint64_t i = 0; i < count && valid; ++i) {
    const std::uint64_t from = source + (toLocal ? i * stride : i) * bytes;
    const std::uint64_t to = destination + (toLocal ? i : i * stride) * bytes;
    valid = s.check->checkAccess(s, lane, in.aux + 1, from, bytes) &&
            s.check->checkAccess(s, lane, in.aux, to, bytes);
  }
  *checkedCount = valid ? count : 0;
}

} // namespace

Handler checkAsyncCopyHandler() { return &checkAsyncCopy; }

Handler checkSubgroupHandler() { return &checkSubgroup; }

Handler checkAccessHandler(bool varying) {
  return varying ? &checkAccess<true> : &checkAccess<false>;
}

Handler checkDivisionHandler(Scalar type, const Shape &shape) {
  switch (type) {
  case Scalar::I8:
    return shaped2<CheckDivision<std::uint8_t>>(shape);
  case Scalar::I16:
    return shaped2<CheckDivision<std::uint16_t>>(shape);
  case Scalar::I32:
    return shaped2<CheckDivision<std::uint32_t>>(shape);
  case Scalar::I64:
    return shaped2<CheckDivision<std::uint64_t>>(shape);
  default:
    return nullptr;
  }
}

} // namespace lanewise::runtime
