// SPDX-License-Identifier: Apache-2.0
// OpSwitch with divergent selectors, including the arbitrary-width selectors
// clang -O2 produces and 64-bit case literals.
#include "harness.h"

namespace lanewise::test {
namespace {

using Switch = KernelTest;

TEST_F(Switch, NarrowSelectorDivergesPerWorkItem) {
  for (const char *variant : {"", "-O0"}) {
    std::vector<int> in(300);
    for (int i = 0; i < 300; ++i)
      in[i] = i * 5 - 700;
    cl_mem out = buffer(in);
    cl_kernel k = kernel("switches", "narrow_switch", variant);
    setArgs(k, out);
    run(k, {300}, {100});
    std::vector<int> got = read<int>(out, 300);
    for (int i = 0; i < 300; ++i) {
      const int expected = (i & 3) == 0 ? in[i] + 1 : (i & 3) == 1 ? in[i] * 3 : -in[i];
      ASSERT_EQ(got[i], expected) << variant << " at " << i;
    }
  }
}

TEST_F(Switch, SixtyFourBitCaseValues) {
  for (const char *variant : {"", "-O0"}) {
    cl_mem out = buffer<cl_long>(200);
    cl_kernel k = kernel("switches", "wide_switch", variant);
    const cl_long base = 0x100000000L;
    setArgs(k, out, base);
    run(k, {200}, {64});
    std::vector<cl_long> got = read<cl_long>(out, 200);
    for (cl_long i = 0; i < 200; ++i) {
      const cl_long selector = i % 9;
      const cl_long expected = selector == 0 ? 7 : selector == 3 ? -5
                               : (selector == 5 || selector == 6) ? i * i : 0;
      ASSERT_EQ(got[i], expected) << variant << " at " << i;
    }
  }
}

} // namespace
} // namespace lanewise::test
