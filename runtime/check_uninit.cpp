// SPDX-License-Identifier: Apache-2.0
// The uninitialised-read check on memory (runtime/check.h): a read of
// __local or private memory that no work-item of the work-group has
// written (OpenCL C 3.0, 6.7: neither is initialised; the value read is
// undefined). A shadow byte per byte of the work-group's __local arena and
// private memory, 0 until written, marked by every checked store and by
// copies (noteWrite). The shadows of values in registers are
// exec_undef.cpp's; the hot path of __local memory, which checks
// uninitialised bytes and races together, is checkLocalLanes in
// check_races.cpp.
#include "runtime/check.h"

#include "runtime/execution.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace lanewise::runtime {

// Shadow memory of the uninitialised-read check: one byte per byte of the
// work-group's __local arena and private memory, 0 until written.
std::uint8_t *CheckSession::shadowOf(const ExecutionState &s, std::uint64_t address,
                                     std::uint64_t bytes) {
  const WorkGroupInfo &g = *s.group;
  const auto arena = reinterpret_cast<std::uint64_t>(g.localArena);
  if (g.localShadow && address >= arena && address + bytes <= arena + g.localBytes)
    return g.localShadow + (address - arena);
  const auto privateMemory = reinterpret_cast<std::uint64_t>(g.privateMemory);
  if (g.privateShadow && address >= privateMemory &&
      address + bytes <= privateMemory + g.privateBytes)
    return g.privateShadow + (address - privateMemory);
  return nullptr;
}

void CheckSession::noteWrite(const ExecutionState &s, std::uint64_t address, std::uint64_t bytes) {
  if (std::uint8_t *shadow = shadowOf(s, address, bytes))
    std::memset(shadow, 1, bytes);
}

void CheckSession::checkInitialised(const ExecutionState &s, std::uint32_t lane, std::uint32_t site,
                                    std::uint64_t address, std::uint64_t bytes,
                                    CheckSite::Space space) {
  const std::uint8_t *shadow = shadowOf(s, address, bytes);
  if (!shadow)
    return;
  std::uint64_t first = 0;
  while (first < bytes && shadow[first])
    ++first;
  if (first == bytes)
    return;
  char detail[256];
  std::snprintf(detail, sizeof detail,
                "read of %" PRIu64 " bytes of %s memory, byte %" PRIu64
                " of which no work-item has written in this work-group",
                bytes, space == CheckSite::Space::Local ? "local" : "private", first);
  report(s, lane, site, FindingKind::UninitialisedRead, detail + owner(s, lane, address, space),
         Place{address, space});
}

} // namespace lanewise::runtime
