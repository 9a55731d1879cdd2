// SPDX-License-Identifier: Apache-2.0
// The instruction sets the handlers are built for, and the one this process
// runs them with: the widest the processor has, chosen once.
#pragma once

#include "runtime/bytecode.h"

#include <cstdint>

namespace lanewise::runtime {

enum class Isa : std::uint8_t {
  Baseline, // x86-64 as Debian builds for it: SSE2
  Avx2,     // 256-bit integer and floating-point vectors, and F16C's half conversions
};

// AVX2 (with F16C, which every processor with AVX2 has) where the
// processor has it, unless LANEWISE_ISA=baseline asks for
// the baseline (to test that path on any machine). Read once.
Isa handlerIsa();

// F built again for AVX2 and F16C: every call F makes that can be inlined is inlined
// into this function, whose code may use AVX2 (a handler's loops over the
// lanes vectorise 256 bits wide). Only ever called where the processor has
// AVX2: forIsa() hands it out.
template <Handler F>
[[gnu::target("avx2,f16c"), gnu::flatten]] void onAvx2(const Instruction &in, ExecutionState &s) {
  F(in, s);
}

// The form of handler F for this process's instruction set.
template <Handler F> Handler forIsa() { return handlerIsa() == Isa::Avx2 ? &onAvx2<F> : F; }

} // namespace lanewise::runtime
