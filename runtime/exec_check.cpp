// The instructions of the checked mode (runtime/check.h): they validate each
// active lane before the operation they guard and report what is wrong.
#include "runtime/check.h"
#include "runtime/handlers.h"
#include "runtime/shapes.h"

#include <limits>
#include <type_traits>

namespace lanewise::runtime {

namespace {

std::uint32_t firstActiveLane(const ExecutionState &s) {
  for (std::uint32_t lane = 0; lane < s.laneCount; ++lane)
    if (s.isActive(lane))
      return lane;
  return 0;
}

// result = operand[0] where lane's access of `immediate` bytes is valid
// for site `aux`, else a sink address; a uniform pointer is checked once,
// for the first active lane.
template <bool Varying> void checkAccess(const Instruction &in, ExecutionState &s) {
  CheckSession &session = *s.check;
  const std::uint64_t *pointer = s.reg<const std::uint64_t>(in.operand[0]);
  std::uint64_t *result = s.reg<std::uint64_t>(in.result);
  const std::uint64_t sink = session.code().checks->sites[in.aux].write ? CheckSession::writeSink()
                                                                        : CheckSession::readSink();
  if constexpr (!Varying) {
    result[0] =
        session.checkAccess(s, firstActiveLane(s), in.aux, pointer[0], in.immediate) ? pointer[0]
                                                                                      : sink;
  } else {
    forActiveLanes(s, [&](std::uint32_t lane) {
      result[lane] =
          session.checkAccess(s, lane, in.aux, pointer[lane], in.immediate) ? pointer[lane] : sink;
    });
  }
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
        if (y == 0) {
          s.check->reportDivision(s, lane, in.aux, false);
        } else if (isSigned && S(y) == S(-1) && S(x) == std::numeric_limits<S>::min()) {
          s.check->reportDivision(s, lane, in.aux, true);
        }
      }
    };
    if constexpr (RV)
      forActiveLanes(s, one);
    else
      one(firstActiveLane(s));
  }
};

} // namespace

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
