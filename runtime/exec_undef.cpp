// The register shadow of the checked mode (runtime/check.h): a byte per lane
// for each SSA value that may be undefined (an OpUndef under the uninit
// check, a relative shuffle's result under the subgroups check), its bits
// (shadowUninitialised, shadowBadShuffle) set where the value is undefined on
// the lane's path. The lowering computes the shadows alongside the values
// (phi edges copy them like the values) and checks them where an undefined
// value has an effect.
#include "runtime/check.h"
#include "runtime/handlers.h"
#include "runtime/shapes.h"

namespace lanewise::runtime {

namespace {

// result = operand[0] | operand[1] for the active lanes (a varying byte per
// lane; each operand a varying or a uniform byte).
template <bool AV, bool BV> void undefJoin(const Instruction &in, ExecutionState &s) {
  const std::uint8_t *a = s.reg<const std::uint8_t>(in.operand[0]);
  const std::uint8_t *b = s.reg<const std::uint8_t>(in.operand[1]);
  std::uint8_t *r = s.reg<std::uint8_t>(in.result);
  if (s.fullMask) {
    for (std::uint32_t lane = 0; lane < s.laneCount; ++lane)
      r[lane] = a[AV ? lane : 0] | b[BV ? lane : 0];
  } else {
    for (std::uint32_t lane = 0; lane < s.laneCount; ++lane)
      r[lane] = s.active[lane] ? std::uint8_t(a[AV ? lane : 0] | b[BV ? lane : 0]) : r[lane];
  }
}

// OpSelect: result = shadow(condition) | the shadows of the operands the
// lane's condition picks. operand[0] the condition (Bool, `components`
// elements; a vector condition may pick both operands), operand[1..3] the
// shadows of the condition and the two operands; immediate bit k: operand k
// is varying.
void undefSelect(const Instruction &in, ExecutionState &s) {
  const std::uint8_t *condition = s.reg<const std::uint8_t>(in.operand[0]);
  const std::uint8_t *shadow[3] = {s.reg<const std::uint8_t>(in.operand[1]),
                                   s.reg<const std::uint8_t>(in.operand[2]),
                                   s.reg<const std::uint8_t>(in.operand[3])};
  auto varying = [&](unsigned k) { return (in.immediate >> k) & 1; };
  std::uint8_t *r = s.reg<std::uint8_t>(in.result);
  const std::uint32_t stride = varying(0) ? s.width : 1;
  forActiveLanes(s, [&](std::uint32_t lane) {
    bool picksA = false, picksB = false;
    for (std::uint32_t c = 0; c < in.components; ++c) {
      const bool value = condition[c * stride + (varying(0) ? lane : 0)] != 0;
      picksA |= value;
      picksB |= !value;
    }
    auto of = [&](unsigned k) { return shadow[k][varying(k + 1) ? lane : 0]; };
    r[lane] = of(0) | (picksA ? of(1) : 0) | (picksB ? of(2) : 0);
  });
}

// Boolean AND and OR: a defined false operand makes an AND defined, a
// defined true one an OR, whatever the other operand. operand[0..1] the two
// Bools (`components` elements), operand[2..3] their shadows; immediate bit
// k set when operand k is varying, bit 4 for OR.
void undefLogical(const Instruction &in, ExecutionState &s) {
  const std::uint8_t *operand[4];
  for (unsigned k = 0; k < 4; ++k)
    operand[k] = s.reg<const std::uint8_t>(in.operand[k]);
  auto varying = [&](unsigned k) { return (in.immediate >> k) & 1; };
  const bool absorbing = (in.immediate >> 4) & 1; // the value that decides: true for OR
  std::uint8_t *r = s.reg<std::uint8_t>(in.result);
  forActiveLanes(s, [&](std::uint32_t lane) {
    const bool undefinedA = operand[2][varying(2) ? lane : 0] != 0;
    const bool undefinedB = operand[3][varying(3) ? lane : 0] != 0;
    bool undefined = false;
    for (std::uint32_t c = 0; c < in.components; ++c) {
      auto value = [&](unsigned k) { return operand[k][varying(k) ? c * s.width + lane : c] != 0; };
      const bool decidedByA = !undefinedA && value(0) == absorbing;
      const bool decidedByB = !undefinedB && value(1) == absorbing;
      undefined |= (undefinedA || undefinedB) && !decidedByA && !decidedByB;
    }
    r[lane] = undefined ? std::uint8_t(operand[2][varying(2) ? lane : 0] |
                                       operand[3][varying(3) ? lane : 0])
                        : std::uint8_t(0);
  });
}

// Reports each active lane whose shadow (operand[0], varying when immediate
// bit 0 is set) says the value used is undefined; aux the site, immediate
// bits 8 and up what the use is.
void checkUndefined(const Instruction &in, ExecutionState &s) {
  const std::uint8_t *shadow = s.reg<const std::uint8_t>(in.operand[0]);
  const bool varying = in.immediate & 1;
  // Bit 1: a store into a private variable, where only an uninitialised
  // value is reported (a shuffle's result is not used yet).
  const std::uint8_t reported =
      (in.immediate & 2) ? shadowUninitialised : shadowUninitialised | shadowBadShuffle;
  const char *use = "a value";
  switch (static_cast<UndefinedUse>(in.immediate >> 8)) {
  case UndefinedUse::StoredValue:
    use = "the value stored";
    break;
  case UndefinedUse::AtomicOperand:
    use = "an operand of an atomic operation";
    break;
  case UndefinedUse::BranchCondition:
    use = "the branch condition";
    break;
  case UndefinedUse::SwitchSelector:
    use = "the switch selector";
    break;
  case UndefinedUse::Address:
    use = "an address or index";
    break;
  }
  const std::string uninitialised =
      std::string(use) +
      " is uninitialised on this work-item's path (a variable read before it was assigned)";
  const std::string badShuffle =
      std::string(use) +
      " comes from a sub-group shuffle up or down that read a lane outside the sub-group or "
      "a work-item that did not reach it (its result is undefined there)";
  forActiveLanes(s, [&](std::uint32_t lane) {
    const std::uint8_t bits = shadow[varying ? lane : 0] & reported;
    if (bits & shadowUninitialised)
      s.check->report(s, lane, in.aux, FindingKind::UninitialisedRead, uninitialised);
    if (bits & shadowBadShuffle)
      s.check->report(s, lane, in.aux, FindingKind::SubgroupBadLane, badShuffle);
  });
}

} // namespace

Handler undefJoinHandler(bool aVarying, bool bVarying) {
  if (aVarying)
    return bVarying ? &undefJoin<true, true> : &undefJoin<true, false>;
  return bVarying ? &undefJoin<false, true> : &undefJoin<false, false>;
}

Handler undefSelectHandler() { return &undefSelect; }

Handler undefLogicalHandler() { return &undefLogical; }

Handler checkUndefinedHandler() { return &checkUndefined; }

} // namespace lanewise::runtime
