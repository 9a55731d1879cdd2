// SPDX-License-Identifier: Apache-2.0
// The checked mode's session (runtime/check.h): the names of the checks and
// of their findings, one launch's memory map, the entry of every checked
// access (checkWarp), which hands each lane to the checks it is built with,
// and the reports, in text and JSON, each finding once per site.
//
// The checks themselves, one file each: check_bounds.cpp (bounds and
// alignment), check_uninit.cpp (uninitialised memory), check_races.cpp
// (races on __local and global memory); exec_check.cpp executes the
// division, barrier and sub-group checks, exec_undef.cpp the register
// shadows of undefined values.
#include "runtime/check.h"

#include "runtime/execution.h"
#include "runtime/json.h"
#include "runtime/problems.h"

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

namespace lanewise::runtime {

std::string_view checkName(Check check) {
  switch (check) {
  case Check::Bounds:
    return "bounds";
  case Check::Uninit:
    return "uninit";
  case Check::Races:
    return "races";
  case Check::Barriers:
    return "barriers";
  case Check::Subgroups:
    return "subgroups";
  case Check::Alignment:
    return "alignment";
  case Check::Division:
    return "division";
  }
  return "?";
}

CheckSet CheckSet::all() {
  CheckSet set;
  for (Check check : allChecks)
    set.add(check);
  return set;
}

std::optional<CheckSet> CheckSet::parse(std::string_view text, std::string *bad) {
  CheckSet set;
  while (!text.empty()) {
    const size_t comma = text.find(',');
    const std::string_view word = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    if (word.empty() || word == "none")
      continue;
    if (word == "all") {
      set = all();
      continue;
    }
    bool known = false;
    for (Check check : allChecks)
      if (checkName(check) == word) {
        set.add(check);
        known = true;
      }
    if (!known) {
      if (bad)
        *bad = std::string(word);
      return std::nullopt;
    }
  }
  return set;
}

CheckSet CheckSet::fromEnvironment() {
  static const CheckSet fromEnvironment = [] {
    const char *text = std::getenv("LANEWISE_CHECK");
    if (!text)
      return CheckSet();
    std::string bad;
    if (auto set = parse(text, &bad))
      return *set;
    std::fprintf(stderr,
                 "lanewise: LANEWISE_CHECK: unknown check '%s' (known: all, bounds, uninit, races, "
                 "barriers, subgroups, alignment, division); no checks enabled\n",
                 bad.c_str());
    return CheckSet();
  }();
  return fromEnvironment;
}

std::string CheckSet::names() const {
  std::string text;
  for (Check check : allChecks)
    if (has(check))
      text += (text.empty() ? "" : ",") + std::string(checkName(check));
  return text.empty() ? "none" : text;
}

std::string_view findingName(FindingKind kind) {
  switch (kind) {
  case FindingKind::OutOfBounds:
    return "out-of-bounds";
  case FindingKind::ReleasedMemory:
    return "released-memory";
  case FindingKind::LocalArgumentTooSmall:
    return "local-argument-too-small";
  case FindingKind::Misaligned:
    return "misaligned";
  case FindingKind::DivisionByZero:
    return "division-by-zero";
  case FindingKind::DivisionOverflow:
    return "division-overflow";
  case FindingKind::BarrierDivergence:
    return "barrier-divergence";
  case FindingKind::SubgroupDivergence:
    return "subgroup-divergence";
  case FindingKind::SubgroupBadLane:
    return "subgroup-bad-lane";
  case FindingKind::UninitialisedRead:
    return "uninitialised-read";
  case FindingKind::DataRace:
    return "data-race";
  }
  return "?";
}

std::string_view spaceName(CheckSite::Space space) {
  switch (space) {
  case CheckSite::Space::Global:
    return "global";
  case CheckSite::Space::Constant:
    return "constant";
  case CheckSite::Space::Local:
    return "local";
  case CheckSite::Space::Private:
    return "private";
  case CheckSite::Space::Generic:
    return "generic";
  }
  return "?";
}

namespace {

alignas(64) const std::byte zeros[CheckSession::sinkBytes] = {};
alignas(64) std::byte discard[CheckSession::sinkBytes];

// Appends `text` to the file at `path` (none when empty).
void appendTo(const std::string &path, const std::string &text) {
  if (path.empty())
    return;
  if (std::FILE *file = std::fopen(path.c_str(), "a")) {
    std::fputs(text.c_str(), file);
    std::fclose(file);
  }
}

} // namespace

CheckSession::Options CheckSession::optionsFromEnvironment() {
  Options options;
  if (const char *file = std::getenv("LANEWISE_CHECK_FILE"))
    options.textFile = file;
  if (const char *file = std::getenv("LANEWISE_CHECK_JSON"))
    options.jsonFile = file;
  if (const char *abort = std::getenv("LANEWISE_CHECK_ABORT"))
    options.abortOnFirst = *abort && *abort != '0';
  return options;
}

CheckSession::CheckSession(const KernelCode &code, std::vector<MemoryRange> global, Options options)
    : code_(code), global_(std::move(global)), options_(std::move(options)) {
  static std::atomic<std::uint64_t> sessions{0};
  serial_ = ++sessions;
  for (const MemoryRange &range : global_)
    if (!range.released)
      live_.push_back(range);
  std::sort(live_.begin(), live_.end(),
            [](const MemoryRange &a, const MemoryRange &b) { return a.begin < b.begin; });
  if (code.checks->checks.has(Check::Races))
    openGlobalLog();
}

CheckSession::~CheckSession() {
  if (globalLog_)
    closeGlobalLog();
}

std::uint64_t CheckSession::readSink() { return reinterpret_cast<std::uint64_t>(zeros); }
std::uint64_t CheckSession::writeSink() { return reinterpret_cast<std::uint64_t>(discard); }

CheckSite::Space CheckSession::resolve(CheckSite::Space space, std::uint64_t address) {
  if (space != CheckSite::Space::Generic)
    return space;
  switch (memoryOf(address)) {
  case MemoryOf::Local:
    return CheckSite::Space::Local;
  case MemoryOf::Private:
    return CheckSite::Space::Private;
  case MemoryOf::Global:
    break;
  }
  return CheckSite::Space::Global;
}

void CheckSession::checkContents(const ExecutionState &s, std::uint32_t lane, std::uint32_t site,
                                 std::uint64_t address, std::uint64_t bytes,
                                 CheckSite::Space space) {
  const KernelChecks &checks = *code_.checks;
  const CheckSite &where = checks.sites[site];
  if (checks.checks.has(Check::Uninit) && !where.write && !where.skipsUninit)
    checkInitialised(s, lane, site, address, bytes, space);
  if (checks.checks.has(Check::Races) && !where.skipsRaces)
    checkLaneRaces(s, lane, site, address, bytes, where.write, space);
  if (where.write)
    noteWrite(s, address, where.writesPadding ? bytes / 3 * 4 : bytes);
}

void CheckSession::checkWarp(const ExecutionState &s, std::uint32_t site,
                             const std::uint64_t *pointer, bool varying, std::uint64_t bytes,
                             std::uint64_t *result) {
  const KernelChecks &checks = *code_.checks;
  const CheckSite &where = checks.sites[site];
  const std::uint64_t sink = where.write ? writeSink() : readSink();
  if (!varying) {
    // One address for every lane: its bounds and alignment once; what
    // depends on the work-item (uninitialised bytes, races) for each lane.
    const std::uint32_t first = firstActiveLane(s);
    if (first == s.laneCount)
      return;
    const std::uint64_t address = pointer[0];
    const bool valid = checkAccess(s, first, site, address, bytes);
    result[0] = valid ? address : sink;
    if (valid) {
      const CheckSite::Space space = resolve(where.space, address);
      for (std::uint32_t lane = first + 1; lane < s.laneCount; ++lane)
        if (s.isActive(lane))
          checkContents(s, lane, site, address, bytes, space);
    }
    return;
  }
  CheckSite::Space space;
  if (spanValid(s, where, pointer, bytes, space)) {
    // The common case: every lane inside one range, all aligned.
    const bool local = space == CheckSite::Space::Local;
    const bool contents =
        (checks.checks.has(Check::Races) && (local || space == CheckSite::Space::Global)) ||
        (checks.checks.has(Check::Uninit) && (local || space == CheckSite::Space::Private));
    if (contents && space == CheckSite::Space::Local)
      checkLocalWarp(s, site, pointer, bytes);
    else if (contents && space == CheckSite::Space::Global)
      checkGlobalWarp(s, site, pointer, bytes);
    else if (contents)
      forActiveLanes(s, [&](std::uint32_t lane) {
        checkContents(s, lane, site, pointer[lane], bytes, space);
      });
    std::memcpy(result, pointer, sizeof(std::uint64_t) * s.laneCount);
    return;
  }
  forActiveLanes(s, [&](std::uint32_t lane) {
    result[lane] = checkAccess(s, lane, site, pointer[lane], bytes) ? pointer[lane] : sink;
  });
}

std::string CheckSession::otherAccess(std::uint32_t sitePlusOne) const {
  if (sitePlusOne == 0 || sitePlusOne > code_.checks->sites.size())
    return "";
  const CheckSite &other = code_.checks->sites[sitePlusOne - 1];
  std::string text = "; its access: " + other.opcode;
  if (other.resultId)
    text += " %" + std::to_string(other.resultId);
  if (!other.file.empty())
    text += " at " + other.file + ":" + std::to_string(other.line) + ":" +
            std::to_string(other.column);
  return text;
}

std::string CheckSession::owner(const ExecutionState &s, std::uint32_t lane,
                                std::uint64_t address, CheckSite::Space space) const {
  std::uint64_t base = 0;
  std::vector<MemoryRange> lanePrivate;
  const std::vector<MemoryRange> *ranges = &live_;
  if (space == CheckSite::Space::Local) {
    base = reinterpret_cast<std::uint64_t>(s.group->localArena);
    ranges = &local_;
  } else if (space == CheckSite::Space::Private) {
    base = reinterpret_cast<std::uint64_t>(s.privateBase) + std::uint64_t(lane) * s.privateStride;
    for (const KernelChecks::Variable &v : code_.checks->privateVariables)
      lanePrivate.push_back({v.offset, v.size, space, "private variable '" + v.name + "'"});
    ranges = &lanePrivate;
  }
  for (const MemoryRange &range : *ranges)
    if (address >= base + range.begin && address < base + range.begin + range.size)
      return "; at offset " + std::to_string(address - base - range.begin) + " of " + range.name;
  return "";
}

void CheckSession::report(const ExecutionState &s, std::uint32_t lane, std::uint32_t site,
                          FindingKind kind, const std::string &detail) {
  report(s, lane, site, kind, detail, std::nullopt);
}

void CheckSession::report(const ExecutionState &s, std::uint32_t lane, std::uint32_t site,
                          FindingKind kind, const std::string &detail,
                          std::optional<Place> place) {
  if (options_.abortOnFirst)
    aborted_.store(true, std::memory_order_relaxed);
  {
    const KernelChecks &checks = *code_.checks;
    std::lock_guard lock(checks.reportedMutex);
    if (!checks.reported.insert({site, static_cast<std::uint8_t>(kind)}).second) {
      std::lock_guard counting(mutex_);
      ++suppressed_;
      return;
    }
  }
  countProblem();
  const CheckSite &where = code_.checks->sites[site];
  // The work-item's ids.
  const WorkGroupInfo &g = *s.group;
  const std::uint64_t linear = s.firstLocalIndex + lane;
  const auto [local, global, group] = workItemIds(s, lane);
  const std::uint64_t subgroup = linear / g.subgroupSize, subgroupLane = linear % g.subgroupSize;

  char text[2048];
  std::string location =
      where.file.empty() ? "no source line (compile with -g)"
                         : where.file + ":" + std::to_string(where.line) + ":" +
                               std::to_string(where.column);
  // Two programs of an application are both "program.cl": say which.
  if (where.file == "program.cl" && !code_.checks->programLabel.empty())
    location += " of " + code_.checks->programLabel;
  char addressText[64] = "";
  if (place)
    std::snprintf(addressText, sizeof addressText, ", address 0x%" PRIx64, place->address);
  std::snprintf(text, sizeof text,
                "lanewise: %s in kernel '%s' at %s (%s%s)\n"
                "  %s%s\n"
                "  work-item: global (%" PRIu64 ",%" PRIu64 ",%" PRIu64 ") local (%" PRIu64
                ",%" PRIu64 ",%" PRIu64 ") group (%" PRIu64 ",%" PRIu64 ",%" PRIu64
                "), sub-group %" PRIu64 " lane %" PRIu64 "\n",
                findingName(kind).data(), code_.name.c_str(), location.c_str(),
                where.opcode.c_str(),
                where.resultId ? (" %" + std::to_string(where.resultId)).c_str() : "",
                detail.c_str(), addressText, global[0],
                global[1], global[2], local[0], local[1], local[2], group[0], group[1],
                group[2], subgroup, subgroupLane);

  std::string json = "{\"kind\":" + jsonString(findingName(kind)) +
                     ",\"kernel\":" + jsonString(code_.name) +
                     ",\"opcode\":" + jsonString(where.opcode) +
                     ",\"id\":" + std::to_string(where.resultId) +
                     ",\"file\":" + jsonString(where.file) +
                     ",\"line\":" + std::to_string(where.line) +
                     ",\"column\":" + std::to_string(where.column);
  if (!code_.checks->programLabel.empty())
    json += ",\"program\":" + jsonString(code_.checks->programLabel);
  auto triple = [](const std::uint64_t *v) {
    return "[" + std::to_string(v[0]) + "," + std::to_string(v[1]) + "," + std::to_string(v[2]) +
           "]";
  };
  json += ",\"global_id\":" + triple(global) + ",\"local_id\":" + triple(local) +
          ",\"group_id\":" + triple(g.groupId) + ",\"subgroup\":" + std::to_string(subgroup) +
          ",\"subgroup_lane\":" + std::to_string(subgroupLane);
  if (place) {
    char hex[32];
    std::snprintf(hex, sizeof hex, "\"0x%" PRIx64 "\"", place->address);
    json += ",\"address\":" + std::string(hex) +
            ",\"address_space\":" + jsonString(spaceName(place->space));
  }
  json += ",\"message\":" + jsonString(detail) + "}\n";

  std::lock_guard lock(mutex_);
  std::fputs(text, stderr);
  std::fflush(stderr);
  appendTo(options_.textFile, text);
  appendTo(options_.jsonFile, json);
}

void CheckSession::finish() {
  std::lock_guard lock(mutex_);
  if (suppressed_ == 0)
    return;
  char text[256];
  std::snprintf(text, sizeof text,
                "lanewise: kernel '%s': %" PRIu64
                " more occurrences of findings already reported were suppressed\n",
                code_.name.c_str(), suppressed_);
  std::fputs(text, stderr);
  appendTo(options_.textFile, text);
}

} // namespace lanewise::runtime
