// SPDX-License-Identifier: Apache-2.0
#include "runtime/problems.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace lanewise::runtime {

namespace {

std::atomic<std::uint64_t> problems{0};
int exitStatus = 0;

// LANEWISE_CHECK_EXITCODE as a status, or 0 when unset, 0 or not 1..255.
int exitStatusFromEnvironment() {
  const char *text = std::getenv("LANEWISE_CHECK_EXITCODE");
  if (!text || !*text)
    return 0;
  char *end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (*end == '\0' && value == 0)
    return 0; // off
  if (*end != '\0' || value < 1 || value > 255) {
    std::fprintf(stderr,
                 "lanewise: LANEWISE_CHECK_EXITCODE='%s' is not a status from 1 to 255; "
                 "ignored\n",
                 text);
    return 0;
  }
  return static_cast<int>(value);
}

// Runs among the process's exit handlers; the ones registered before it
// (earlier in the process's life) do not run, as with the sanitizers.
void exitWithStatus() {
  std::fflush(nullptr);
  std::fprintf(stderr, "lanewise: %llu problem%s reported in kernels; exit status %d "
                       "(LANEWISE_CHECK_EXITCODE)\n",
               static_cast<unsigned long long>(problems.load()), problems.load() == 1 ? "" : "s",
               exitStatus);
  std::fflush(stderr);
  ::_exit(exitStatus);
}

} // namespace

void countProblem() {
  if (problems.fetch_add(1, std::memory_order_relaxed) != 0)
    return;
  static std::once_flag once;
  std::call_once(once, [] {
    exitStatus = exitStatusFromEnvironment();
    if (exitStatus)
      std::atexit(exitWithStatus);
  });
}

std::uint64_t problemCount() { return problems.load(std::memory_order_relaxed); }

} // namespace lanewise::runtime
