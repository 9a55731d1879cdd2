// SPDX-License-Identifier: Apache-2.0
// Which tier runs a kernel: the interpreter, or native code from the JIT
// (runtime/native.h), chosen by LANEWISE_TIER:
//   auto    (the default) a kernel is compiled in the background once it
//           proves hot (its `hotLaunches`th launch, or `hotNanoseconds` of
//           interpreted launches), and its launches after that run the
//           native code;
//   jit     a kernel is compiled at its first launch, which waits for it;
//   interp  every kernel stays interpreted.
// The JIT module (lanewise/liblanewise-jit.so beside liblanewise.so) and LLVM are
// loaded when the first kernel tiers up, so a process that never tiers up
// pays nothing. A kernel the JIT cannot take, or a module that cannot be
// loaded, stays interpreted; LANEWISE_STATS says why. Checked kernels stay
// interpreted: the checks are the interpreter's.
#pragma once

#include "runtime/native.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

namespace lanewise::runtime {

enum class Tier : std::uint8_t { Interpreter, Jit, Auto };
// LANEWISE_TIER, read once (unset: auto; an unknown value is reported on
// stderr, and kernels stay interpreted).
Tier tierPolicy();

inline constexpr std::uint32_t hotLaunches = 3;
inline constexpr std::uint64_t hotNanoseconds = 100'000'000;

struct TierState {
  std::atomic<const NativeCode *> native{nullptr};
  std::atomic<std::uint32_t> launches{0};
  std::atomic<std::uint64_t> interpretedNanoseconds{0};
  std::atomic<bool> requested{false};
  std::mutex mutex; // guards what follows
  std::unique_ptr<NativeCode> owned;
  std::string failure; // why the kernel stays interpreted, once it was tried
};

// Called as a launch of `code` starts: counts it, and tiers the kernel up
// as the policy says. The native code this launch runs, or null.
const NativeCode *nativeForLaunch(const KernelCode &code);
// Called as an interpreted launch ends, with its duration.
void recordInterpretedLaunch(const KernelCode &code, std::uint64_t nanoseconds);

// For LANEWISE_STATS: "native: N of M blocks, ...", "interpreted: why",
// or "interpreted".
std::string tierDescription(TierState &tier, std::size_t blocks);

} // namespace lanewise::runtime
