// SPDX-License-Identifier: Apache-2.0
#include "runtime/watchdog.h"

#include "runtime/bytecode.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>

namespace lanewise::runtime {

namespace {

// Sorted ids as runs: "0-63, 70, 72-76 by 2".
std::string idRanges(const std::vector<std::uint32_t> &ids) {
  std::string text;
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = i;
    const std::uint32_t step = i + 1 < ids.size() ? ids[i + 1] - ids[i] : 1;
    while (j + 1 < ids.size() && ids[j + 1] - ids[j] == step)
      ++j;
    if (step > 1 && j - i < 2)
      j = i; // two ids a step apart are not worth a run
    text += (text.empty() ? "" : ", ") + std::to_string(ids[i]);
    if (j > i)
      text += "-" + std::to_string(ids[j]) + (step > 1 ? " by " + std::to_string(step) : "");
    i = j + 1;
  }
  return text;
}

} // namespace

double timeoutFromEnvironment() {
  const char *text = std::getenv("LANEWISE_TIMEOUT");
  if (!text || !*text)
    return 0;
  char *end = nullptr;
  const double seconds = std::strtod(text, &end);
  if (*end != '\0' || !(seconds >= 0)) {
    static bool warned = false;
    if (!warned)
      std::fprintf(stderr, "lanewise: LANEWISE_TIMEOUT='%s' is not a number of seconds; ignored\n",
                   text);
    warned = true;
    return 0;
  }
  return seconds;
}

Watchdog::Watchdog(double seconds)
    : seconds_(seconds),
      deadline_(std::chrono::steady_clock::now() +
                std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                    std::chrono::duration<double>(seconds))) {}

void Watchdog::record(Position position) {
  std::lock_guard lock(mutex_);
  positions_.push_back(std::move(position));
}

std::string Watchdog::report(const KernelCode &code) const {
  std::lock_guard lock(mutex_);
  std::vector<Position> positions = positions_;
  std::sort(positions.begin(), positions.end(), [](const Position &a, const Position &b) {
    return std::lexicographical_compare(std::begin(a.group), std::end(a.group),
                                        std::begin(b.group), std::end(b.group)) ||
           (std::equal(std::begin(a.group), std::end(a.group), std::begin(b.group)) &&
            a.localIds < b.localIds);
  });
  std::uint64_t workItems = 0, groups = 0;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    workItems += positions[i].localIds.size();
    if (i == 0 || !std::equal(std::begin(positions[i].group), std::end(positions[i].group),
                              std::begin(positions[i - 1].group)))
      ++groups;
  }
  char line[512];
  std::snprintf(line, sizeof line,
                "lanewise: kernel '%s' stopped by the watchdog after %g s (LANEWISE_TIMEOUT): "
                "%" PRIu64 " work-item%s of %" PRIu64 " work-group%s had not finished",
                code.name.c_str(), seconds_, workItems, workItems == 1 ? "" : "s", groups,
                groups == 1 ? "" : "s");
  std::string text = line;
  if (const std::uint64_t unstarted = unstarted_.load())
    text += ", " + std::to_string(unstarted) + " work-group" + (unstarted == 1 ? "" : "s") +
            " had not started";
  text += "\n";
  constexpr std::size_t shown = 16;
  for (std::size_t i = 0; i < std::min(shown, positions.size()); ++i) {
    const Position &p = positions[i];
    const std::string &source = code.blockSource(p.block);
    std::snprintf(line, sizeof line,
                  "  work-group (%" PRIu64 ",%" PRIu64 ",%" PRIu64 "), local ids %s: %s block %u "
                  "(SPIR-V %%%u)%s%s, after %" PRIu64 " backward branches of their warp\n",
                  p.group[0], p.group[1], p.group[2], idRanges(p.localIds).c_str(),
                  p.atBarrier ? "held at a barrier before" : "at", p.block,
                  code.blocks[p.block].sourceLabel, source.empty() ? "" : " at ",
                  source.c_str(), p.backwardBranches);
    text += line;
  }
  if (positions.size() > shown)
    text += "  ... and " + std::to_string(positions.size() - shown) + " more positions\n";
  if (std::none_of(code.sources.begin() + 1, code.sources.end(),
                   [](const std::string &s) { return !s.empty(); }))
    text += "  (build the program with -g for source lines)\n";
  return text;
}

} // namespace lanewise::runtime
