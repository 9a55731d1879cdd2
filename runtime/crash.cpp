// SPDX-License-Identifier: Apache-2.0
#include "runtime/crash.h"

#include "runtime/bytecode.h"
#include "runtime/execution.h"

#include <unistd.h>

#include <cinttypes>
#include <csignal>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace lanewise::runtime {

thread_local RunningWarp runningWarp;

namespace {

// Appends to `text` (of `size` bytes, `length` used) what printf would
// write, as far as it fits.
__attribute__((format(printf, 4, 5))) void appendFormatted(char *text, std::size_t size,
                                                           int &length, const char *format, ...) {
  if (length < 0 || length >= int(size))
    return;
  std::va_list values;
  va_start(values, format);
  length += std::vsnprintf(text + length, size - std::size_t(length), format, values);
  va_end(values);
}

constexpr int signals[] = {SIGSEGV, SIGBUS, SIGFPE};
struct sigaction previous[std::size(signals)];

struct sigaction *previousFor(int signal) {
  for (std::size_t i = 0; i < std::size(signals); ++i)
    if (signals[i] == signal)
      return &previous[i];
  return nullptr;
}

// Hands the signal to whoever had it before: their handler, or the
// default action once the faulting instruction runs again.
void passOn(int signal, siginfo_t *info, void *context) {
  struct sigaction *before = previousFor(signal);
  if (before->sa_flags & SA_SIGINFO) {
    if (before->sa_sigaction) {
      before->sa_sigaction(signal, info, context);
      return;
    }
  } else if (before->sa_handler != SIG_DFL && before->sa_handler != SIG_IGN) {
    before->sa_handler(signal);
    return;
  }
  sigaction(signal, before, nullptr);
  if (info->si_code <= 0) // sent by kill() or raise(): no instruction to rerun
    raise(signal);
}

// The lane of the warp whose pointer operand (operand 0 of memory
// instructions, one 64-bit address per lane) is nearest below the faulting
// address, within 64 bytes; -1 when none is.
int faultingLane(const KernelCode &code, const ExecutionState &s, const Instruction &instruction,
                 std::uint64_t address) {
  const std::uint64_t offset = instruction.operand[0];
  if (offset + std::uint64_t(s.laneCount) * 8 > code.registerBytes)
    return -1;
  for (std::uint32_t lane = 0; lane < s.laneCount; ++lane) {
    std::uint64_t pointer;
    std::memcpy(&pointer, s.registers + offset + lane * 8, 8);
    if (s.isActive(lane) && address >= pointer && address - pointer < 64)
      return static_cast<int>(lane);
  }
  return -1;
}

void report(int signal, const siginfo_t *info, const RunningWarp &warp) {
  const ExecutionState &s = *warp.state;
  const WorkGroupInfo &g = *s.group;
  const Instruction *instruction = s.current;
  char text[1536];
  int length = std::snprintf(text, sizeof text,
                             "lanewise: kernel '%s' crashed: %s at address 0x%" PRIxPTR "\n",
                             warp.code->name.c_str(),
                             signal == SIGSEGV  ? "SIGSEGV (invalid memory access)"
                             : signal == SIGBUS ? "SIGBUS (invalid memory access)"
                                                : "SIGFPE (arithmetic fault)",
                             reinterpret_cast<std::uintptr_t>(info->si_addr));
  if (instruction) {
    const std::string &source = warp.code->sources[instruction->source];
    if (!source.empty())
      appendFormatted(text, sizeof text, length, "  at %s", source.c_str());
    else
      appendFormatted(text, sizeof text, length, "  at no known source line");
    if (instruction->sourceId)
      appendFormatted(text, sizeof text, length, " (SPIR-V %%%u)", instruction->sourceId);
    appendFormatted(text, sizeof text, length, "\n");
  }
  const int lane = instruction && signal != SIGFPE
                       ? faultingLane(*warp.code, s, *instruction,
                                      reinterpret_cast<std::uint64_t>(info->si_addr))
                       : -1;
  if (lane >= 0) {
    const auto [local, global, group] = workItemIds(s, static_cast<std::uint32_t>(lane));
    appendFormatted(text, sizeof text, length,
                    "  work-item: global (%" PRIu64 ",%" PRIu64 ",%" PRIu64 ") local (%" PRIu64
                    ",%" PRIu64 ",%" PRIu64 ") group (%" PRIu64 ",%" PRIu64 ",%" PRIu64 ")\n",
                    global[0], global[1], global[2], local[0], local[1], local[2], group[0],
                    group[1], group[2]);
  } else if (g.groupLanes) {
    appendFormatted(text, sizeof text, length,
                    "  work-groups (%" PRIu64 ",%" PRIu64 ",%" PRIu64 ") to (%" PRIu64 ",%" PRIu64
                    ",%" PRIu64 "), one of their work-items\n",
                    g.groupId[0], g.groupId[1], g.groupId[2],
                    g.groupId[0] + (s.laneCount - 1) / g.groupLanes, g.groupId[1], g.groupId[2]);
  } else {
    appendFormatted(text, sizeof text, length,
                    "  work-group (%" PRIu64 ",%" PRIu64 ",%" PRIu64
                    "), one of the work-items with "
                    "local linear ids %u-%u\n",
                    g.groupId[0], g.groupId[1], g.groupId[2], s.firstLocalIndex,
                    s.firstLocalIndex + s.laneCount - 1);
  }
  appendFormatted(
      text, sizeof text, length,
      "  The kernel accessed memory it does not own. Run it in the checked mode "
      "(LANEWISE_CHECK=bounds, or lanewise exec --check) for the work-item, the buffer and "
      "the offset%s.\n",
      warp.code->sources.size() > 1 ? "" : ", and build it with -g for source lines");
  if (length > int(sizeof text))
    length = sizeof text;
  if (length > 0) {
    [[maybe_unused]] ssize_t written = ::write(STDERR_FILENO, text, length);
  }
}

void handle(int signal, siginfo_t *info, void *context) {
  if (runningWarp.state && runningWarp.code) {
    const RunningWarp warp = runningWarp;
    runningWarp = {}; // a fault inside the report goes straight on
    report(signal, info, warp);
    sigaction(signal, previousFor(signal), nullptr);
    if (info->si_code <= 0)
      raise(signal);
    return; // the faulting instruction runs again, with the previous action
  }
  passOn(signal, info, context);
}

} // namespace

void installCrashReporter() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (const char *setting = std::getenv("LANEWISE_CRASH_REPORT");
        setting && std::strcmp(setting, "0") == 0)
      return;
    struct sigaction action {};
    action.sa_sigaction = handle;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    for (std::size_t i = 0; i < std::size(signals); ++i)
      sigaction(signals[i], &action, &previous[i]);
  });
}

} // namespace lanewise::runtime
