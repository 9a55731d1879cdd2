// SPDX-License-Identifier: Apache-2.0
// The crash report: in the default mode, a kernel's wild memory access
// faults like compiled code would. Before the process dies of it, a handler
// of SIGSEGV, SIGBUS and SIGFPE says which kernel, which instruction (with
// its source line when the program has debug information), which
// work-group and, when its address identifies it, which work-item, and
// points to the checked mode. Then the signal takes its course: the
// previous handler, or the default action (the process ends as it would on
// any platform). Faults outside kernels go straight to the previous handler.
// LANEWISE_CRASH_REPORT=0 leaves the signals alone.
#pragma once

namespace lanewise::runtime {

struct KernelCode;
struct ExecutionState;

// Installs the handlers, once per process (at the first launch).
void installCrashReporter();

// The warp the calling thread runs, or null between warps: what the
// handler reports about.
struct RunningWarp {
  const KernelCode *code = nullptr;
  const ExecutionState *state = nullptr;
};
extern thread_local RunningWarp runningWarp;

} // namespace lanewise::runtime
