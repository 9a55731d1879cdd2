#include "runtime/isa.h"

#include <cstdlib>
#include <string_view>

namespace lanewise::runtime {

namespace {

Isa chooseIsa() {
  const char *asked = std::getenv("LANEWISE_ISA");
  if (asked && std::string_view(asked) == "baseline")
    return Isa::Baseline;
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c"))
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
