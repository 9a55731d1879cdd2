// SPDX-License-Identifier: Apache-2.0
// The bounds and alignment checks (runtime/check.h): every load, store,
// atomic, copy and vector access of a kernel built with them must lie
// inside memory the launch may access, and be aligned as its type requires.
// Global and constant memory: the buffers and sub-buffers, SVM allocations,
// program-scope variables and by-value arguments of the launch, none of
// them released; __local memory: the kernel's own variables and the sizes
// given to clSetKernelArg; private memory: the work-item's own variables,
// no other work-item's (OpenCL C 3.0, 6.7). Alignment: data of type T is
// aligned to sizeof(T), 3-vectors to four components, or to what the
// Aligned memory operand declares (OpenCL C 3.0, 6.3.5; the lowering puts
// the requirement in the site). A warp is checked at once where its lanes'
// addresses allow (spanValid), else lane by lane (checkAccess).
#include "runtime/check.h"

#include "runtime/execution.h"
#include "runtime/isa.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <vector>

namespace lanewise::runtime {

namespace {

// Where an address is relative to a range: "12 bytes past the end of X".
std::string relation(std::uint64_t address, std::uint64_t bytes, const MemoryRange &range) {
  char text[256];
  if (address < range.begin)
    std::snprintf(text, sizeof text, "%" PRIu64 " bytes before the start of %s (%" PRIu64 " bytes)",
                  range.begin - address, range.name.c_str(), range.size);
  else if (address >= range.begin + range.size)
    std::snprintf(text, sizeof text, "%" PRIu64 " bytes past the end of %s (%" PRIu64 " bytes)",
                  address - (range.begin + range.size), range.name.c_str(), range.size);
  else
    std::snprintf(text, sizeof text,
                  "at offset %" PRIu64 " of %s (%" PRIu64 " bytes), running %" PRIu64
                  " bytes past its end",
                  address - range.begin, range.name.c_str(), range.size,
                  address + bytes - (range.begin + range.size));
  return text;
}

// The range that contains [address, address + bytes), live ranges before
// released ones (released memory may since have been reused), or else the
// nearest live one.
// How close to a live allocation an access counts as overflowing it.
constexpr std::uint64_t nearby = 256;

const MemoryRange *nearest(const std::vector<MemoryRange> &ranges, std::uint64_t address,
                           std::uint64_t bytes, bool &inside) {
  inside = true;
  for (bool released : {false, true})
    for (const MemoryRange &range : ranges)
      if (range.released == released && address >= range.begin &&
          address + bytes <= range.begin + range.size)
        return &range;
  inside = false;
  const MemoryRange *best = nullptr;
  std::uint64_t bestDistance = UINT64_MAX;
  for (const MemoryRange &range : ranges) {
    if (range.released)
      continue;
    const std::uint64_t distance = address < range.begin ? range.begin - address
                                   : address >= range.begin + range.size
                                       ? address - (range.begin + range.size) + 1
                                       : 0;
    if (distance < bestDistance) {
      bestDistance = distance;
      best = &range;
    }
  }
  return best;
}

namespace {

// Whether the active lanes are one run whose addresses step by one stride
// (the accesses of consecutive work-items to consecutive elements, or all
// to one): then the lowest and highest address are the run's ends. The
// test is a loop of additions and comparisons, which vectorises.
bool affineSpan(const ExecutionState &s, const std::uint64_t *pointer, std::uint64_t &low,
                std::uint64_t &high) {
  if (!s.contiguous || s.span <= s.begin)
    return false;
  const std::uint64_t first = pointer[s.begin];
  const std::uint64_t stride = s.span - s.begin > 1 ? pointer[s.begin + 1] - first : 0;
  // Sixteen lanes at a time, to give up early on scattered lanes.
  std::uint64_t expected = first;
  for (std::uint32_t from = s.begin; from < s.span; from += 16) {
    std::uint64_t differs = 0;
    for (std::uint32_t lane = from; lane < std::min(from + 16, s.span); ++lane, expected += stride)
      differs |= pointer[lane] ^ expected;
    if (differs)
      return false;
  }
  const std::uint64_t last = pointer[s.span - 1];
  // A stride that wraps around the address space is no span.
  const bool ascending = last >= first;
  if ((ascending ? last - first : first - last) /
          std::max<std::uint64_t>(s.span - s.begin - 1, 1) !=
      (ascending ? stride : 0 - stride))
    return false;
  low = ascending ? first : last;
  high = ascending ? last : first;
  return true;
}

// The lowest and the highest address of lanes [begin, end), and the OR of
// their bits under `mask`: a loop the compiler vectorises, 256 bits wide
// (with AVX2's 64-bit comparisons) where the processor has AVX2.
[[gnu::always_inline]] inline void laneRangeLoop(const std::uint64_t *pointer, std::uint32_t begin,
                                                 std::uint32_t end, std::uint64_t mask,
                                                 std::uint64_t &low, std::uint64_t &high,
                                                 std::uint64_t &bits) {
  std::uint64_t lowest = UINT64_MAX, highest = 0, any = 0;
  for (std::uint32_t lane = begin; lane < end; ++lane) {
    lowest = std::min(lowest, pointer[lane]);
    highest = std::max(highest, pointer[lane]);
    any |= pointer[lane] & mask;
  }
  low = lowest, high = highest, bits = any;
}

[[gnu::target("avx2")]] void laneRangeAvx2(const std::uint64_t *pointer, std::uint32_t begin,
                                           std::uint32_t end, std::uint64_t mask,
                                           std::uint64_t &low, std::uint64_t &high,
                                           std::uint64_t &bits) {
  laneRangeLoop(pointer, begin, end, mask, low, high, bits);
}

void laneRange(const std::uint64_t *pointer, std::uint32_t begin, std::uint32_t end,
               std::uint64_t mask, std::uint64_t &low, std::uint64_t &high, std::uint64_t &bits) {
  static const bool avx2 = handlerIsa() == Isa::Avx2;
  if (avx2)
    laneRangeAvx2(pointer, begin, end, mask, low, high, bits);
  else
    laneRangeLoop(pointer, begin, end, mask, low, high, bits);
}

} // namespace

} // namespace

bool CheckSession::checkAccess(const ExecutionState &s, std::uint32_t lane, std::uint32_t site,
                               std::uint64_t address, std::uint64_t bytes) {
  const KernelChecks &checks = *code_.checks;
  const CheckSite &where = checks.sites[site];
  const CheckSite::Space space = resolve(where.space, address);
  if (checks.checks.has(Check::Alignment) && where.alignment > 1 &&
      address % where.alignment != 0) {
    char detail[256];
    std::snprintf(detail, sizeof detail,
                  "%s of %" PRIu64 " bytes at an address not aligned to %u bytes (address %% %u = "
                  "%" PRIu64 ")",
                  where.write ? "write" : "read", bytes, where.alignment, where.alignment,
                  address % where.alignment);
    report(s, lane, site, FindingKind::Misaligned, detail, Place{address, space});
  }
  if (checks.checks.has(Check::Bounds)) {
    const auto arena = reinterpret_cast<std::uint64_t>(s.group->localArena);
    const auto privateBase =
        reinterpret_cast<std::uint64_t>(s.privateBase) + std::uint64_t(lane) * s.privateStride;
    if (!inBounds(s, lane, site, address, bytes, space, arena, privateBase))
      return false;
  }
  checkContents(s, lane, site, address, bytes, space);
  return true;
}

bool CheckSession::spanValid(const ExecutionState &s, const CheckSite &where,
                             const std::uint64_t *pointer, std::uint64_t bytes,
                             CheckSite::Space &space) const {
  const KernelChecks &checks = *code_.checks;
  const std::uint64_t alignment =
      checks.checks.has(Check::Alignment) && where.alignment > 1 ? where.alignment : 1;
  const bool powerOfTwo = (alignment & (alignment - 1)) == 0;
  std::uint64_t low = UINT64_MAX, high = 0, misaligned = 0;
  const bool affine = affineSpan(s, pointer, low, high);
  if (!affine && s.contiguous && powerOfTwo)
    laneRange(pointer, s.begin, s.span, alignment - 1, low, high, misaligned);
  else if (!affine)
    forActiveLanes(s, [&](std::uint32_t lane) {
      const std::uint64_t address = pointer[lane];
      low = std::min(low, address);
      high = std::max(high, address);
      misaligned |= powerOfTwo ? address & (alignment - 1) : address % alignment;
    });
  else if (powerOfTwo)
    misaligned =
        (low | high | (s.span - s.begin > 1 ? pointer[s.begin + 1] - pointer[s.begin] : 0)) &
        (alignment - 1);
  else
    for (std::uint32_t lane = s.begin; lane < s.span; ++lane)
      misaligned |= pointer[lane] % alignment;
  if (misaligned || low > high)
    return false;
  const std::uint64_t end = high + bytes;
  const auto arena = reinterpret_cast<std::uint64_t>(s.group->localArena);
  const std::uint64_t arenaEnd = arena + s.group->localBytes;
  const auto privateLow = reinterpret_cast<std::uint64_t>(s.privateBase);
  const std::uint64_t privateHigh = privateLow + std::uint64_t(s.laneCount) * s.privateStride;
  space = where.space;
  if (space == CheckSite::Space::Generic) {
    if (arena && low >= arena && end <= arenaEnd)
      space = CheckSite::Space::Local;
    else if ((end <= arena || low >= arenaEnd) && (end <= privateLow || low >= privateHigh))
      space = CheckSite::Space::Global;
    else if (low >= privateLow && end <= privateHigh)
      space = CheckSite::Space::Private; // each lane's own, if the bounds check finds so
    else
      return false; // a mixture: lane by lane
  }
  if (!checks.checks.has(Check::Bounds))
    return true;
  switch (space) {
  case CheckSite::Space::Local:
    for (const MemoryRange &r : local_)
      if (low >= arena + r.begin && end <= arena + r.begin + r.size)
        return true;
    return false;
  case CheckSite::Space::Global:
  case CheckSite::Space::Constant: {
    auto after =
        std::upper_bound(live_.begin(), live_.end(), low,
                         [](std::uint64_t a, const MemoryRange &r) { return a < r.begin; });
    return after != live_.begin() && end <= (after - 1)->begin + (after - 1)->size;
  }
  case CheckSite::Space::Private: {
    // Each lane in its own private memory, all at offsets inside one variable.
    std::uint64_t lowOffset = UINT64_MAX, highOffset = 0;
    bool outside = false;
    forActiveLanes(s, [&](std::uint32_t lane) {
      const std::uint64_t base = privateLow + std::uint64_t(lane) * s.privateStride;
      outside |= pointer[lane] < base;
      lowOffset = std::min(lowOffset, pointer[lane] - base);
      highOffset = std::max(highOffset, pointer[lane] - base);
    });
    if (outside)
      return false;
    for (const KernelChecks::Variable &v : checks.privateVariables)
      if (lowOffset >= v.offset && highOffset + bytes <= v.offset + v.size)
        return true;
    return false;
  }
  default:
    return false;
  }
}

// Whose private memory a private address outside the lane's variables is
// in: another work-item's (a pointer handed over through __local or global
// memory; OpenCL C 3.0, 6.7: private memory is the work-item's own), or
// else near which of the lane's variables (`nearest`).
std::string CheckSession::privateOwner(const ExecutionState &s, std::uint64_t address,
                                       std::uint64_t bytes, const MemoryRange *nearest) const {
  const WorkGroupInfo &g = *s.group;
  const std::uint64_t stride = s.privateStride;
  const std::uint64_t groupBase =
      reinterpret_cast<std::uint64_t>(s.privateBase) - std::uint64_t(s.firstLocalIndex) * stride;
  const std::uint64_t groupLanes = g.localSize[0] * g.localSize[1] * g.localSize[2];
  if (stride && !g.groupLanes && address >= groupBase &&
      address < groupBase + groupLanes * stride) {
    const std::uint64_t other = (address - groupBase) / stride,
                        offset = (address - groupBase) % stride;
    std::string variable;
    for (const KernelChecks::Variable &v : code_.checks->privateVariables)
      if (offset >= v.offset && offset < v.offset + v.size)
        variable = " (its private variable '" + v.name + "')";
    char text[256];
    std::snprintf(text, sizeof text,
                  "in the private memory of work-item local (%" PRIu64 ",%" PRIu64 ",%" PRIu64
                  ") of the work-group%s, which only that work-item may access",
                  other % g.localSize[0], other / g.localSize[0] % g.localSize[1],
                  other / (g.localSize[0] * g.localSize[1]), variable.c_str());
    return text;
  }
  if (!nearest)
    return "outside the work-item's private memory";
  std::string text = relation(address, bytes, *nearest);
  if (address < groupBase || address >= groupBase + groupLanes * stride)
    text += " (in the private memory of a work-item of another work-group, or of no work-item)";
  return text;
}

bool CheckSession::inBounds(const ExecutionState &s, std::uint32_t lane, std::uint32_t site,
                            std::uint64_t address, std::uint64_t bytes, CheckSite::Space space,
                            std::uint64_t arena, std::uint64_t privateBase) {
  const KernelChecks &checks = *code_.checks;
  const CheckSite &where = checks.sites[site];
  const char *access = where.write ? "write" : "read";
  char detail[512];
  // The common case, a valid access, without building anything.
  if (space == CheckSite::Space::Local) {
    const std::uint64_t offset = address - arena;
    for (const MemoryRange &r : local_)
      if (offset >= r.begin && offset + bytes <= r.begin + r.size && address >= arena)
        return true;
  } else if (space == CheckSite::Space::Private) {
    const std::uint64_t offset = address - privateBase;
    if (address >= privateBase)
      for (const KernelChecks::Variable &v : checks.privateVariables)
        if (offset >= v.offset && offset + bytes <= v.offset + v.size)
          return true;
  }
  if (space != CheckSite::Space::Local) {
    // Live ranges sorted by start: the one that starts last at or before
    // the address, and those before it that may still contain it.
    auto after =
        std::upper_bound(live_.begin(), live_.end(), address,
                         [](std::uint64_t a, const MemoryRange &r) { return a < r.begin; });
    for (auto it = after; it != live_.begin();) {
      --it;
      if (address + bytes <= it->begin + it->size)
        return true;
      if (after - it > 8)
        break;
    }
  }

  bool inside = false;
  const MemoryRange *range = nullptr;
  std::vector<MemoryRange> lanePrivate;
  if (space == CheckSite::Space::Local) {
    std::vector<MemoryRange> ranges = local_;
    for (MemoryRange &r : ranges)
      r.begin += arena;
    range = nearest(ranges, address, bytes, inside);
    if (inside)
      return true;
    // Ranges by value: copy the one found before `ranges` goes away.
    if (range) {
      const MemoryRange found = *range;
      const bool argument = found.name.rfind("__local argument", 0) == 0;
      std::snprintf(detail, sizeof detail, "%s of %" PRIu64 " bytes in local memory, %s%s", access,
                    bytes, relation(address, bytes, found).c_str(),
                    argument ? ": the size given to clSetKernelArg is smaller than what the "
                               "kernel accesses"
                             : "");
      report(s, lane, site,
             argument && address >= found.begin ? FindingKind::LocalArgumentTooSmall
                                                : FindingKind::OutOfBounds,
             detail, Place{address, space});
    } else {
      std::snprintf(detail, sizeof detail,
                    "%s of %" PRIu64 " bytes in local memory outside every __local allocation",
                    access, bytes);
      report(s, lane, site, FindingKind::OutOfBounds, detail, Place{address, space});
    }
    return false;
  }
  if (space == CheckSite::Space::Private) {
    for (const KernelChecks::Variable &variable : checks.privateVariables)
      lanePrivate.push_back({privateBase + variable.offset, variable.size,
                             CheckSite::Space::Private,
                             "private variable '" + variable.name + "'"});
    range = nearest(lanePrivate, address, bytes, inside);
    if (inside)
      return true;
    // Pointers to arguments passed by value point into the launch's copy.
    bool inGlobal = false;
    const MemoryRange *other = nearest(global_, address, bytes, inGlobal);
    if (inGlobal && !other->released)
      return true;
    std::snprintf(detail, sizeof detail, "%s of %" PRIu64 " bytes in private memory, %s", access,
                  bytes, privateOwner(s, address, bytes, range).c_str());
    report(s, lane, site, FindingKind::OutOfBounds, detail, Place{address, space});
    return false;
  }
  range = nearest(global_, address, bytes, inside);
  if (inside && !range->released)
    return true;
  // An access just outside a live allocation is an overflow of it, even if
  // the heap has put released memory there.
  bool nearLive = false;
  const MemoryRange *live = nullptr;
  if (inside) {
    bool unused;
    if ((live = nearest(live_, address, bytes, unused))) {
      const std::uint64_t end = live->begin + live->size;
      nearLive =
          address + bytes > live->begin - std::min(live->begin, nearby) && address < end + nearby;
    }
  }
  if (inside && !nearLive) {
    std::snprintf(detail, sizeof detail, "%s of %" PRIu64 " bytes in %s memory of %s", access,
                  bytes, spaceName(space).data(), range->name.c_str());
    report(s, lane, site, FindingKind::ReleasedMemory, detail, Place{address, space});
    return false;
  }
  if (nearLive)
    range = live;
  std::snprintf(detail, sizeof detail, "%s of %" PRIu64 " bytes in %s memory, %s", access, bytes,
                spaceName(space).data(),
                range ? relation(address, bytes, *range).c_str()
                      : "outside every buffer the kernel can access");
  report(s, lane, site, FindingKind::OutOfBounds, detail, Place{address, space});
  return false;
}

} // namespace lanewise::runtime
