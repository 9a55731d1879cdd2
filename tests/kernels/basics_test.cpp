// First kernels: a vector add, a divergent loop and a __local reduction.
#include "harness.h"

namespace lanewise::test {
namespace {

using Basics = KernelTest;

TEST_F(Basics, VectorAddOverAPartialLastWorkGroup) {
  for (const char *variant : {"", "-O0"}) {
    const int n = 1000;
    std::vector<float> a(n), b(n);
    for (int i = 0; i < n; ++i) {
      a[i] = 0.5f * i;
      b[i] = 3.0f - i;
    }
    cl_mem A = buffer(a), B = buffer(b), C = buffer<float>(n);
    cl_kernel k = kernel("basics", "vadd", variant);
    setArgs(k, A, B, C, n);
    run(k, {1000}, {128}); // the last work-group has 104 work-items
    std::vector<float> c = read<float>(C, n);
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(c[i], a[i] + b[i]) << variant << " at " << i;
  }
}

TEST_F(Basics, LoopWithPerLaneTripCount) {
  for (const char *variant : {"", "-O0"}) {
    cl_mem out = buffer<int>(256);
    cl_kernel k = kernel("basics", "loops", variant);
    setArgs(k, out);
    run(k, {256}, {64});
    std::vector<int> o = read<int>(out, 256);
    for (int i = 0; i < 256; ++i) {
      int s = 0;
      for (int j = 0; j < i % 7; ++j)
        s += (j & 1) ? j * 3 : -1;
      ASSERT_EQ(o[i], s) << variant << " at " << i;
    }
  }
}

TEST_F(Basics, LocalReductionWithBarriersInALoop) {
  for (const char *variant : {"", "-O0"}) {
    std::vector<int> in(1024);
    for (int i = 0; i < 1024; ++i)
      in[i] = i * 7 - 300;
    cl_mem I = buffer(in), O = buffer<int>(4);
    cl_kernel k = kernel("basics", "local_sum", variant);
    setArgs(k, I, O, Local{256 * sizeof(int)});
    run(k, {1024}, {256});
    std::vector<int> o = read<int>(O, 4);
    for (int g = 0; g < 4; ++g) {
      int s = 0;
      for (int i = 0; i < 256; ++i)
        s += in[g * 256 + i];
      ASSERT_EQ(o[g], s) << variant << " group " << g;
    }
  }
}

} // namespace
} // namespace lanewise::test
