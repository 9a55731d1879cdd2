// SPDX-License-Identifier: Apache-2.0
#include "runtime/stats.h"

#include "runtime/tier.h"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace lanewise::runtime {

namespace {

std::mutex registryMutex;
// Every kernel code's statistics, in the order of first launch; kept after
// the code is gone.
std::vector<std::shared_ptr<KernelStats>> &registry() {
  static auto *all = new std::vector<std::shared_ptr<KernelStats>>;
  return *all;
}
std::map<const KernelCode *, std::weak_ptr<KernelStats>> &byCode() {
  static auto *map = new std::map<const KernelCode *, std::weak_ptr<KernelStats>>;
  return *map;
}

std::string percent(std::uint64_t part, std::uint64_t whole) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %%", whole ? 100.0 * double(part) / double(whole) : 0.0);
  return text;
}

void print(const KernelStats &stats) {
  std::string text;
  char line[512];
  std::snprintf(line, sizeof line,
                "kernel '%s': %" PRIu64 " launch%s, %" PRIu64 " work-items, %.3f ms\n",
                stats.name.c_str(), stats.launches.load(), stats.launches == 1 ? "" : "es",
                stats.workItems.load(), double(stats.nanoseconds.load()) / 1e6);
  text += line;
  std::uint64_t active = 0, present = 0;
  std::vector<std::size_t> ran;
  for (std::size_t b = 0; b < stats.blockSources.size(); ++b) {
    active += stats.blocks[b].activeLanes;
    present += stats.blocks[b].presentLanes;
    if (stats.blocks[b].runs)
      ran.push_back(b);
  }
  text += "  lane utilisation " + percent(active, present) + " (" + std::to_string(active) +
          " active of " + std::to_string(present) + " lanes in the blocks run)\n";
  auto utilisation = [&](std::size_t b) {
    return double(stats.blocks[b].activeLanes) / double(stats.blocks[b].presentLanes);
  };
  std::stable_sort(ran.begin(), ran.end(), [&](std::size_t a, std::size_t b) {
    return utilisation(a) < utilisation(b);
  });
  for (std::size_t i = 0; i < std::min<std::size_t>(5, ran.size()); ++i) {
    const std::size_t b = ran[i];
    if (utilisation(b) > 0.99)
      break; // the worst blocks only
    std::snprintf(line, sizeof line,
                  "  block %zu (SPIR-V %%%u)%s%s: %s (%" PRIu64 " active of %" PRIu64
                  " lanes, %" PRIu64 " run%s)\n",
                  b, stats.blockLabels[b], stats.blockSources[b].empty() ? "" : " at ",
                  stats.blockSources[b].c_str(),
                  percent(stats.blocks[b].activeLanes, stats.blocks[b].presentLanes).c_str(),
                  stats.blocks[b].activeLanes.load(), stats.blocks[b].presentLanes.load(),
                  stats.blocks[b].runs.load(), stats.blocks[b].runs == 1 ? "" : "s");
    text += line;
  }
  std::uint64_t instructionTicks = 0;
  for (const auto &family : stats.familyTicks)
    instructionTicks += family;
  const std::uint64_t total = std::max<std::uint64_t>(stats.warpTicks, instructionTicks);
  std::vector<std::pair<std::uint64_t, std::string>> shares;
  for (std::size_t f = 0; f < familyCount; ++f)
    if (stats.familyTicks[f])
      shares.push_back({stats.familyTicks[f], familyName(static_cast<Family>(f))});
  shares.push_back({total - instructionTicks, "control flow"});
  std::sort(shares.begin(), shares.end(), std::greater<>());
  if (tierPolicy() != Tier::Interpreter)
    text += "  tier: " + tierDescription(*stats.tier, stats.blockSources.size()) + "\n";
  text += "  interpreter time:";
  for (std::size_t i = 0; i < shares.size(); ++i)
    if (i == 0 || shares[i].first * 1000 >= total) // 0.1 % and more
      text += (i ? ", " : " ") + shares[i].second + " " + percent(shares[i].first, total);
  text += "\n";
  std::fputs(text.c_str(), stderr);
}

void printAll() {
  std::lock_guard lock(registryMutex);
  std::fputs("lanewise: statistics of the kernels of this process (LANEWISE_STATS)\n", stderr);
  for (const auto &stats : registry())
    print(*stats);
  std::fflush(stderr);
}

} // namespace

KernelStats::KernelStats(const KernelCode &code)
    : name(code.name), blocks(std::make_unique<BlockCounts[]>(code.blocks.size())),
      tier(code.tier) {
  for (std::uint32_t b = 0; b < code.blocks.size(); ++b) {
    blockSources.push_back(code.blockSource(b));
    blockLabels.push_back(code.blocks[b].sourceLabel);
  }
}

bool statsEnabled() {
  static const bool on = [] {
    const char *text = std::getenv("LANEWISE_STATS");
    return text && *text && std::string(text) != "0";
  }();
  return on;
}

KernelStats *statsFor(const KernelCode &code) {
  if (!statsEnabled())
    return nullptr;
  std::lock_guard lock(registryMutex);
  if (registry().empty())
    std::atexit(printAll);
  std::weak_ptr<KernelStats> &entry = byCode()[&code];
  std::shared_ptr<KernelStats> stats = entry.lock();
  // A new code at the address of one that is gone starts afresh.
  if (!stats || stats->name != code.name || stats->blockSources.size() != code.blocks.size()) {
    stats = std::make_shared<KernelStats>(code);
    registry().push_back(stats);
    entry = stats;
  }
  return stats.get();
}

std::uint64_t ticks() {
#if defined(__x86_64__)
  return __rdtsc();
#else
  return std::chrono::steady_clock::now().time_since_epoch().count();
#endif
}

} // namespace lanewise::runtime
