// SPDX-License-Identifier: Apache-2.0
// Work-group collective functions (OpenCL C 3.0, 6.15.17): reductions,
// scans, votes and broadcasts over every work-item of a work-group, whose
// lanes may lie in several warps. The lowering (spirv/lower_group.cpp,
// lowerWorkGroupCollective) runs each in two steps, each followed by a
// work-group barrier:
//   publish: each warp combines its active lanes in local linear order and
//            writes its total to its slot of the group's scratch (__local
//            memory the lowering reserves); a scan leaves each lane's prefix
//            within the warp in the result register;
//   collect: each warp combines the totals of all the warps (a reduction) or
//            of the warps before it (a scan) and completes its lanes.
// The barrier after collect keeps the next collective from overwriting the
// totals before every warp has read them. A group of one warp pays two
// barriers that release at once.
#include "builtins/subgroup.h"
#include "runtime/handlers.h"
#include "runtime/shapes.h"

#include <cstring>

namespace lanewise::runtime {

namespace {

using builtins::GroupArithmetic;

enum class Scan : std::uint8_t { Reduce, Inclusive, Exclusive };

std::uint32_t warpIndex(const ExecutionState &s) { return s.firstLocalIndex / s.width; }

std::uint32_t warpsOfGroup(const ExecutionState &s) {
  const WorkGroupInfo &g = *s.group;
  const std::uint64_t lanes = g.localSize[0] * g.localSize[1] * g.localSize[2];
  return static_cast<std::uint32_t>((lanes + s.width - 1) / s.width);
}

template <typename T> T *slots(const ExecutionState &s, const Instruction &in) {
  return reinterpret_cast<T *>(s.group->localArena + in.aux);
}

// operand[0] the input (immediate bit 0: varying); result the output;
// aux the scratch's offset in the group's __local memory.
template <typename T, GroupArithmetic Op, Scan Kind>
void publish(const Instruction &in, ExecutionState &s) {
  const T *input = s.reg<const T>(in.operand[0]);
  T *out = s.reg<T>(in.result);
  const bool varying = in.immediate & 1;
  T total = builtins::identity<Op, T>();
  for (std::uint32_t lane = 0; lane < s.laneCount; ++lane) {
    if (!s.isActive(lane))
      continue;
    if constexpr (Kind == Scan::Exclusive)
      out[lane] = total;
    total = builtins::combine<Op, T>(total, input[varying ? lane : 0]);
    if constexpr (Kind == Scan::Inclusive)
      out[lane] = total;
  }
  slots<T>(s, in)[warpIndex(s)] = total;
}

template <typename T, GroupArithmetic Op, Scan Kind>
void collect(const Instruction &in, ExecutionState &s) {
  const T *totals = slots<T>(s, in);
  T *out = s.reg<T>(in.result);
  const std::uint32_t last = Kind == Scan::Reduce ? warpsOfGroup(s) : warpIndex(s);
  T before = builtins::identity<Op, T>();
  for (std::uint32_t w = 0; w < last; ++w)
    before = builtins::combine<Op, T>(before, totals[w]);
  for (std::uint32_t lane = 0; lane < s.laneCount; ++lane)
    if (s.isActive(lane))
      out[lane] = Kind == Scan::Reduce ? before : builtins::combine<Op, T>(before, out[lane]);
}

// work_group_broadcast. publish: the lane whose local linear id is the
// requested one writes its value to the scratch; collect: every lane reads
// it. operand[0] the value, operand[1] the requested local id (1 to 3
// components); immediate: 1 value varying | 2 id varying | id element bytes
// << 8 | id components << 16.
template <std::uint32_t Bytes> void broadcastPublish(const Instruction &in, ExecutionState &s) {
  const std::uint32_t idBytes = (in.immediate >> 8) & 0xff;
  const std::uint32_t idComponents = (in.immediate >> 16) & 0xff;
  const bool idVarying = in.immediate & 2;
  const std::uint32_t first = firstActiveLane(s);
  if (first == s.laneCount)
    return;
  // The same for every work-item (the spec requires it): the first active
  // lane's.
  std::uint64_t id[3] = {};
  for (std::uint32_t c = 0; c < idComponents; ++c)
    std::memcpy(&id[c],
                s.registers + in.operand[1] +
                    (std::uint64_t(c) * (idVarying ? s.width : 1) + (idVarying ? first : 0)) *
                        idBytes,
                idBytes);
  const WorkGroupInfo &g = *s.group;
  const std::uint64_t linear = id[0] + g.localSize[0] * (id[1] + g.localSize[1] * id[2]);
  if (linear < s.firstLocalIndex || linear >= std::uint64_t(s.firstLocalIndex) + s.laneCount)
    return;
  const std::uint32_t lane = static_cast<std::uint32_t>(linear - s.firstLocalIndex);
  const bool varying = in.immediate & 1;
  std::memcpy(s.group->localArena + in.aux,
              s.registers + in.operand[0] + (varying ? std::uint64_t(lane) * Bytes : 0), Bytes);
}

template <std::uint32_t Bytes> void broadcastCollect(const Instruction &in, ExecutionState &s) {
  std::byte *out = s.registers + in.result;
  for (std::uint32_t lane = 0; lane < s.laneCount; ++lane)
    if (s.isActive(lane))
      std::memcpy(out + std::uint64_t(lane) * Bytes, s.group->localArena + in.aux, Bytes);
}

// The operations of OpenCL C's work-group functions (6.15.17): add, min,
// max, and all and any as logical reductions.
constexpr bool isWorkGroupOperation(GroupArithmetic op) {
  switch (op) {
  case GroupArithmetic::Add:
  case GroupArithmetic::SMin:
  case GroupArithmetic::UMin:
  case GroupArithmetic::FMin:
  case GroupArithmetic::SMax:
  case GroupArithmetic::UMax:
  case GroupArithmetic::FMax:
  case GroupArithmetic::LogicalAnd:
  case GroupArithmetic::LogicalOr:
    return true;
  default:
    return false;
  }
}

template <GroupArithmetic Op, Scan Kind> Handler arithmeticFor(Scalar type, bool collecting) {
  if constexpr (!isWorkGroupOperation(Op))
    return nullptr;
  else
    return withScalar(type, [&]<Scalar S>() -> Handler {
      using T = ScalarT<S>;
      constexpr bool floatOp = Op == GroupArithmetic::FMin || Op == GroupArithmetic::FMax ||
                               (Op == GroupArithmetic::Add && !std::is_integral_v<T>);
      constexpr bool logical =
          Op == GroupArithmetic::LogicalAnd || Op == GroupArithmetic::LogicalOr;
      if constexpr (S == Scalar::I128)
        return nullptr;
      else if constexpr (logical)
        return S == Scalar::Bool ? (collecting ? &collect<T, Op, Kind> : &publish<T, Op, Kind>)
                                 : nullptr;
      else if constexpr (floatOp || (std::is_integral_v<T> && S != Scalar::Bool))
        return floatOp == !std::is_integral_v<T>
                   ? (collecting ? &collect<T, Op, Kind> : &publish<T, Op, Kind>)
                   : nullptr;
      else
        return nullptr;
    });
}

template <GroupArithmetic Op>
Handler arithmeticFor(Scalar type, std::uint32_t scan, bool collecting) {
  switch (static_cast<Scan>(scan)) {
  case Scan::Reduce: return arithmeticFor<Op, Scan::Reduce>(type, collecting);
  case Scan::Inclusive: return arithmeticFor<Op, Scan::Inclusive>(type, collecting);
  case Scan::Exclusive: return arithmeticFor<Op, Scan::Exclusive>(type, collecting);
  }
  return nullptr;
}

} // namespace

Handler workGroupArithmeticHandler(builtins::GroupArithmetic op, Scalar type, std::uint32_t scan,
                                   bool collecting) {
  switch (op) {
#define LANEWISE_GROUP(name)                                                                       \
  case GroupArithmetic::name:                                                                      \
    return arithmeticFor<GroupArithmetic::name>(type, scan, collecting);
    LANEWISE_GROUP_ARITHMETIC(LANEWISE_GROUP)
#undef LANEWISE_GROUP
  }
  return nullptr;
}

Handler workGroupBroadcastHandler(std::uint32_t elementBytes, bool collecting) {
  return withElementBytes(elementBytes, [&]<std::uint32_t B>() -> Handler {
    if constexpr (B == 16)
      return nullptr;
    else
      return collecting ? &broadcastCollect<B> : &broadcastPublish<B>;
  });
}

} // namespace lanewise::runtime
