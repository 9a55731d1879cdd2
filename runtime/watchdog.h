// SPDX-License-Identifier: Apache-2.0
// The watchdog of a launch (LANEWISE_TIMEOUT=seconds): a launch that runs
// past its time is stopped at the next backward branch or barrier of every
// warp; work-groups not yet started do not start. The launch then reports
// the kernel and where each unfinished work-item stands, and fails.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace lanewise::runtime {

struct KernelCode;

// LANEWISE_TIMEOUT in seconds; 0 (unset, 0, or not a number) for none.
double timeoutFromEnvironment();

class Watchdog {
public:
  explicit Watchdog(double seconds);

  // Whether the launch must stop: its time is up (or another warp saw so).
  bool expired() const {
    if (stopped_.load(std::memory_order_relaxed))
      return true;
    if (std::chrono::steady_clock::now() < deadline_)
      return false;
    stopped_.store(true, std::memory_order_relaxed);
    return true;
  }
  bool stopped() const { return stopped_.load(std::memory_order_relaxed); }
  double seconds() const { return seconds_; }

  // Where unfinished work-items stood: the lanes of one warp at one block.
  struct Position {
    std::uint64_t group[3] = {};
    std::uint32_t block = 0;
    bool atBarrier = false;                   // held at the barrier that ends the block before
    std::vector<std::uint32_t> localIds;      // linear local ids
    std::uint64_t backwardBranches = 0;       // taken by the warp
  };
  void record(Position position);
  void countUnstarted(std::uint64_t groups) {
    unstarted_.fetch_add(groups, std::memory_order_relaxed);
  }

  // The report, for stderr: the kernel, the time, and the positions.
  std::string report(const KernelCode &code) const;

private:
  double seconds_;
  std::chrono::steady_clock::time_point deadline_;
  mutable std::atomic<bool> stopped_{false};
  std::atomic<std::uint64_t> unstarted_{0};
  mutable std::mutex mutex_;
  std::vector<Position> positions_;
};

} // namespace lanewise::runtime
