// SPDX-License-Identifier: Apache-2.0
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

#include <cstring>

namespace lanewise::runtime {

namespace {

// Register shadows hold one byte per component, laid out as the values are:
// component c of lane l at c * width + l when varying, at c when uniform.
inline std::uint32_t at(bool varying, std::uint32_t width, std::uint32_t component,
                        std::uint32_t lane) {
  return varying ? component * width + lane : component;
}

// result = operand[0] | operand[1], component by component, for the active
// lanes; an operand of one component (immediate bit 2 for the first, bit 3
// for the second) applies to every component.
template <bool AV, bool BV> void undefJoin(const Instruction &in, ExecutionState &s) {
  const std::uint8_t *a = s.reg<const std::uint8_t>(in.operand[0]);
  const std::uint8_t *b = s.reg<const std::uint8_t>(in.operand[1]);
  std::uint8_t *r = s.reg<std::uint8_t>(in.result);
  const bool aOne = (in.immediate >> 2) & 1, bOne = (in.immediate >> 3) & 1;
  const std::uint32_t w = s.width;
  if (s.contiguous) {
    // Every lane of a run: byte ORs the compiler vectorises (the bounds in
    // locals, the rows distinct, so that no store may change them).
    const std::uint32_t begin = s.begin, end = s.span;
    for (std::uint32_t c = 0; c < in.components; ++c) {
      const std::uint8_t *__restrict ac = a + (AV ? (aOne ? 0 : c) * w : (aOne ? 0 : c));
      const std::uint8_t *__restrict bc = b + (BV ? (bOne ? 0 : c) * w : (bOne ? 0 : c));
      std::uint8_t *__restrict rc = r + c * w;
      for (std::uint32_t lane = begin; lane < end; ++lane)
        rc[lane] = ac[AV ? lane : 0] | bc[BV ? lane : 0];
    }
    return;
  }
  for (std::uint32_t c = 0; c < in.components; ++c)
    forActiveLanes(s, [&](std::uint32_t lane) {
      r[c * w + lane] = a[at(AV, w, aOne ? 0 : c, lane)] | b[at(BV, w, bOne ? 0 : c, lane)];
    });
}

// A shadow regrouped to other components over the same bytes (a bitcast,
// and the reduction of a vector's shadow to one component): result
// component j is the OR of the operand's components whose bytes overlap
// its own. immediate: bit 0 the operand varying; bits 8-15 the operand's
// element bytes, bits 16-23 the result's; aux the operand's components.
void undefRegroup(const Instruction &in, ExecutionState &s) {
  const std::uint8_t *a = s.reg<const std::uint8_t>(in.operand[0]);
  std::uint8_t *r = s.reg<std::uint8_t>(in.result);
  const bool varying = in.immediate & 1;
  const std::uint64_t from = (in.immediate >> 8) & 0xFF, to = (in.immediate >> 16) & 0xFF;
  const std::uint32_t w = s.width;
  for (std::uint32_t j = 0; j < in.components; ++j) {
    const std::uint64_t first = j * to / from, last = ((j + 1) * to - 1) / from;
    forActiveLanes(s, [&](std::uint32_t lane) {
      std::uint8_t bits = 0;
      for (std::uint64_t k = first; k <= last && k < in.aux; ++k)
        bits |= a[at(varying, w, std::uint32_t(k), lane)];
      r[j * w + lane] = bits;
    });
  }
}

// OpSelect's shadow, component by component: the condition's shadow, and
// the shadow of the operand the lane's condition picks. operand[0] the
// condition (Bools), operand[1..3] the shadows of the condition and of the
// two operands; immediate bit k set when operand k is varying, bit 4 when
// the condition (and its shadow) is one component for all.
void undefSelect(const Instruction &in, ExecutionState &s) {
  const std::uint8_t *condition = s.reg<const std::uint8_t>(in.operand[0]);
  const std::uint8_t *shadow[3] = {s.reg<const std::uint8_t>(in.operand[1]),
                                   s.reg<const std::uint8_t>(in.operand[2]),
                                   s.reg<const std::uint8_t>(in.operand[3])};
  auto varying = [&](unsigned k) { return bool((in.immediate >> k) & 1); };
  const bool one = (in.immediate >> 4) & 1;
  std::uint8_t *r = s.reg<std::uint8_t>(in.result);
  const std::uint32_t w = s.width;
  for (std::uint32_t c = 0; c < in.components; ++c)
    forActiveLanes(s, [&](std::uint32_t lane) {
      const std::uint32_t cc = one ? 0 : c;
      const bool picksA = condition[at(varying(0), w, cc, lane)] != 0;
      r[c * w + lane] = shadow[0][at(varying(1), w, cc, lane)] |
                        shadow[picksA ? 1 : 2][at(varying(picksA ? 2 : 3), w, c, lane)];
    });
}

// AND and OR, component by component: a defined operand that decides the
// result alone makes it defined whatever the other — false (0) for an AND,
// true (all ones) for an OR; Bools are a byte, nonzero true. operand[0..1]
// the two operands, operand[2..3] their shadows; immediate bit k set when
// operand k is varying, bit 4 for OR, bits 8-15 the operands' element
// bytes (1 for Bools, bit 5 set).
void undefLogical(const Instruction &in, ExecutionState &s) {
  const std::uint8_t *operand[4];
  for (unsigned k = 0; k < 4; ++k)
    operand[k] = s.reg<const std::uint8_t>(in.operand[k]);
  auto varying = [&](unsigned k) { return bool((in.immediate >> k) & 1); };
  const bool isOr = (in.immediate >> 4) & 1, isBool = (in.immediate >> 5) & 1;
  const std::uint32_t bytes = std::uint32_t((in.immediate >> 8) & 0xFF);
  std::uint8_t *r = s.reg<std::uint8_t>(in.result);
  const std::uint32_t w = s.width;
  // Whether operand k's component decides the result.
  auto decides = [&](unsigned k, std::uint32_t c, std::uint32_t lane) {
    const std::uint8_t *value = operand[k] + std::size_t(at(varying(k), w, c, lane)) * bytes;
    if (isBool)
      return (value[0] != 0) == isOr;
    for (std::uint32_t b = 0; b < bytes; ++b)
      if (value[b] != (isOr ? 0xFF : 0x00))
        return false;
    return true;
  };
  for (std::uint32_t c = 0; c < in.components; ++c)
    forActiveLanes(s, [&](std::uint32_t lane) {
      const std::uint8_t shadowA = operand[2][at(varying(2), w, c, lane)];
      const std::uint8_t shadowB = operand[3][at(varying(3), w, c, lane)];
      const bool decided = (!shadowA && decides(0, c, lane)) || (!shadowB && decides(1, c, lane));
      r[c * w + lane] = decided ? std::uint8_t(0) : std::uint8_t(shadowA | shadowB);
    });
}

// The memory shadow of the bytes a component occupies, as register shadow
// bits: a byte never written is uninitialised; one written with a bad
// shuffle's result (memoryShadowBadShuffle) carries that.
std::uint8_t fromMemory(const std::uint8_t *memory, std::uint32_t bytes) {
  std::uint8_t bits = 0;
  for (std::uint32_t b = 0; b < bytes; ++b)
    bits |= memory[b] == 0                        ? shadowUninitialised
            : memory[b] == memoryShadowBadShuffle ? shadowBadShuffle
                                                  : 0;
  return bits;
}

// Whether `bytes` bytes of memory shadow all say "written" (1): the common
// case, a word at a time.
inline bool allWritten(const std::uint8_t *memory, std::uint32_t bytes) {
  if (bytes == 4) {
    std::uint32_t word;
    std::memcpy(&word, memory, 4);
    return word == 0x01010101u;
  }
  if (bytes == 8) {
    std::uint64_t word;
    std::memcpy(&word, memory, 8);
    return word == 0x0101010101010101ull;
  }
  for (std::uint32_t b = 0; b < bytes; ++b)
    if (memory[b] != 1)
      return false;
  return true;
}

// A load's shadow from the memory shadow of __local and private memory
// (memory elsewhere is defined): operand[0] the (checked) address, result
// the shadow; immediate bit 0 a varying address, bits 8 and up the element
// bytes.
void undefLoad(const Instruction &in, ExecutionState &s) {
  const std::uint64_t *address = s.reg<const std::uint64_t>(in.operand[0]);
  const bool varying = in.immediate & 1;
  const std::uint32_t bytes = std::uint32_t(in.immediate >> 8);
  const std::uint64_t total = std::uint64_t(bytes) * in.components;
  std::uint8_t *r = s.reg<std::uint8_t>(in.result);
  const std::uint32_t w = s.width;
  // The work-group's shadowed ranges, once for the warp.
  const WorkGroupInfo &g = *s.group;
  const auto arena = reinterpret_cast<std::uint64_t>(g.localArena);
  const auto privateMemory = reinterpret_cast<std::uint64_t>(g.privateMemory);
  auto shadowAt = [&](std::uint64_t base) -> const std::uint8_t * {
    if (g.localShadow && base - arena < g.localBytes && base + total <= arena + g.localBytes)
      return g.localShadow + (base - arena);
    if (g.privateShadow && base - privateMemory < g.privateBytes &&
        base + total <= privateMemory + g.privateBytes)
      return g.privateShadow + (base - privateMemory);
    return nullptr;
  };
  if (in.components == 1 && bytes == 4 && varying && g.localShadow && g.localBytes >= 4) {
    // The common case, a scalar of __local memory (a tile's element), with
    // one range test and one word compare.
    const std::uint64_t last = g.localBytes - 4;
    forActiveLanes(s, [&](std::uint32_t lane) {
      const std::uint64_t offset = address[lane] - arena;
      const std::uint8_t *memory =
          offset <= last ? g.localShadow + offset : shadowAt(address[lane]);
      r[lane] = !memory || allWritten(memory, 4) ? std::uint8_t(0) : fromMemory(memory, 4);
    });
    return;
  }
  forActiveLanes(s, [&](std::uint32_t lane) {
    const std::uint8_t *memory = shadowAt(address[varying ? lane : 0]);
    for (std::uint32_t c = 0; c < in.components; ++c)
      r[c * w + lane] = !memory || allWritten(memory + c * bytes, bytes)
                            ? std::uint8_t(0)
                            : fromMemory(memory + c * bytes, bytes);
  });
}

const char *describeUse(UndefinedUse use) {
  switch (use) {
  case UndefinedUse::StoredValue:
    return "the value stored";
  case UndefinedUse::AtomicOperand:
    return "an operand of an atomic operation";
  case UndefinedUse::BranchCondition:
    return "the branch condition";
  case UndefinedUse::SwitchSelector:
    return "the switch selector";
  case UndefinedUse::Address:
    return "an address or index";
  case UndefinedUse::Divisor:
    return "the divisor";
  case UndefinedUse::GroupOperand:
    return "an operand of a sub-group or work-group operation";
  case UndefinedUse::PrintfArgument:
    return "an argument of printf";
  }
  return "a value";
}

// Reports, for a lane whose shadow `bits` are set, the use of an undefined
// value at the site.
void reportUndefined(ExecutionState &s, std::uint32_t lane, std::uint32_t site, UndefinedUse use,
                     std::uint8_t bits) {
  if (bits & shadowUninitialised)
    s.check->report(s, lane, site, FindingKind::UninitialisedRead,
                    std::string(describeUse(use)) +
                        " is uninitialised on this work-item's path (a variable read before it "
                        "was assigned)" +
                        s.check->code().checks->sites[site].origin);
  if (bits & shadowBadShuffle)
    s.check->report(s, lane, site, FindingKind::SubgroupBadLane,
                    std::string(describeUse(use)) +
                        " comes from a sub-group shuffle up or down that read a lane outside "
                        "the sub-group or a work-item that did not reach it (its result is "
                        "undefined there)");
}

// A store's shadow into the memory shadow of __local and private memory:
// operand[0] the (checked) address, operand[1] the value's shadow; immediate
// bit 0 a varying address, bit 1 a varying shadow, bits 8 and up the element
// bytes; aux the site. A store elsewhere (a generic pointer to global
// memory) of an undefined value is a use, reported.
void undefStore(const Instruction &in, ExecutionState &s) {
  const std::uint64_t *address = s.reg<const std::uint64_t>(in.operand[0]);
  const std::uint8_t *shadow = s.reg<const std::uint8_t>(in.operand[1]);
  const bool addressVarying = in.immediate & 1, shadowVarying = (in.immediate >> 1) & 1;
  const std::uint32_t bytes = std::uint32_t(in.immediate >> 8);
  const std::uint32_t w = s.width;
  forActiveLanes(s, [&](std::uint32_t lane) {
    const std::uint64_t base = address[addressVarying ? lane : 0];
    std::uint8_t *memory =
        CheckSession::shadowOf(s, base, std::uint64_t(bytes) * in.components);
    std::uint8_t all = 0;
    for (std::uint32_t c = 0; c < in.components; ++c) {
      const std::uint8_t bits = shadow[at(shadowVarying, w, c, lane)];
      all |= bits;
      if (memory)
        std::memset(memory + c * bytes,
                    bits & shadowUninitialised ? 0
                    : bits & shadowBadShuffle  ? memoryShadowBadShuffle
                                               : 1,
                    bytes);
    }
    if (!memory && all && base != CheckSession::writeSink())
      reportUndefined(s, lane, in.aux, UndefinedUse::StoredValue, all);
  });
}

// Reports each active lane whose shadow (operand[0], `components`
// components, varying when immediate bit 0 is set) says the value used is
// undefined; aux the site, immediate bits 8 and up what the use is.
void checkUndefined(const Instruction &in, ExecutionState &s) {
  const std::uint8_t *shadow = s.reg<const std::uint8_t>(in.operand[0]);
  const bool varying = in.immediate & 1;
  const auto use = static_cast<UndefinedUse>(in.immediate >> 8);
  const std::uint32_t w = s.width;
  forActiveLanes(s, [&](std::uint32_t lane) {
    std::uint8_t bits = 0;
    for (std::uint32_t c = 0; c < in.components; ++c)
      bits |= shadow[at(varying, w, c, lane)];
    if (bits)
      reportUndefined(s, lane, in.aux, use, bits);
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

Handler undefRegroupHandler() { return &undefRegroup; }

Handler undefLoadHandler() { return &undefLoad; }

Handler undefStoreHandler() { return &undefStore; }

} // namespace lanewise::runtime
