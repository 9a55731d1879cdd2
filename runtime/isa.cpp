// SPDX-License-Identifier: Apache-2.0
#include "runtime/isa.h"

#include <cstdlib>
#include <string_view>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace lanewise::runtime {

namespace {

Isa chooseIsa() {
  const char *asked = std::getenv("LANEWISE_ISA");
  if (asked && std::string_view(asked) == "baseline")
    return Isa::Baseline;
#if defined(__x86_64__)
  __builtin_cpu_init();
  // F16C from CPUID leaf 1 (ECX bit 29): not every compiler's
  // __builtin_cpu_supports knows its name.
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  const bool f16c = __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_F16C);
  if (__builtin_cpu_supports("avx2") && f16c)
    return Isa::Avx2;
#endif
  return Isa::Baseline;
}

} // namespace

Isa handlerIsa() {
  static const Isa isa = chooseIsa();
  return isa;
}

} // namespace lanewise::runtime
