// SPDX-License-Identifier: Apache-2.0
// Loops that clang -O2 replaces by closed forms computed in integers one bit
// wider than the loop's type (cl/closed_forms.cl, cl/closed_form_sum.cl), which reach the engine
// as SPV_INTEL_arbitrary_precision_integers of 9 to 67 bits. The expected
// values are the loops themselves, run here in the kernel's types.
#include "closed_form_sums.h"
#include "harness.h"

#include <array>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace lanewise::test {
namespace {

const std::vector<uint64_t> kWide = {0,     1,      2,      3,      4,      5,     17,
                                     100,   255,    256,    1000,   65535,  65536, 92682,
                                     92683, 100000, 131071, 262145, 1000003};

std::vector<uint64_t> signedCounts() {
  // At most 300: the sum of cubes stays within int (signed overflow is undefined).
  std::vector<uint64_t> counts = {0, 1, 2, 3, 4, 7, 100, 300};
  for (int64_t negative : {-1, -2, -5, -1000})
    counts.push_back(uint64_t(negative));
  return counts;
}

// Counts around each width's wrap-around for the unsigned types; small and
// negative ones for the signed, whose overflow is undefined.
class ClosedForms : public KernelTest {
protected:
  template <typename T> void expectSums(const char *name, const std::vector<uint64_t> &counts) {
    for (const char *variant : {"", "-O0"}) {
      std::vector<T> n;
      for (uint64_t count : counts)
        n.push_back(T(count));
      cl_mem in = buffer(n), out = buffer<T>(4 * n.size());
      cl_kernel k = kernel("closed_forms", name, variant);
      setArgs(k, in, out);
      run(k, {n.size()}, {});
      const std::vector<T> got = read<T>(out, 4 * n.size());
      for (size_t i = 0; i < n.size(); ++i)
        ASSERT_EQ((std::array<T, 4>{got[4 * i], got[4 * i + 1], got[4 * i + 2], got[4 * i + 3]}),
                  sumsOf<T>(n[i]))
            << name << variant << " count " << +n[i];
    }
  }
};

TEST_F(ClosedForms, UnsignedSumsWrapAsTheLoopsDo) {
  std::vector<uint64_t> bytes, shorts;
  for (uint64_t c = 0; c < 256; ++c)
    bytes.push_back(c);
  for (uint64_t c = 0; c < 65536; c += 257)
    shorts.push_back(c);
  expectSums<cl_uchar>("sums_uchar", bytes);
  expectSums<cl_ushort>("sums_ushort", shorts);
  expectSums<cl_uint>("sums_uint", kWide);
  expectSums<cl_ulong>("sums_ulong", kWide);
}

TEST_F(ClosedForms, SignedSumsOfEmptyAndShortLoops) {
  expectSums<cl_int>("sums_int", signedCounts());
  expectSums<cl_long>("sums_long", signedCounts());
}

TEST_F(ClosedForms, PairedInAVectorOfOddWidths) {
  for (const char *variant : {"", "-O0"}) {
    const std::vector<cl_uint> n(kWide.begin(), kWide.end());
    cl_mem in = buffer(n), out = buffer<cl_uint>(2 * n.size());
    cl_kernel k = kernel("closed_forms", "sums_pair", variant);
    setArgs(k, in, out);
    run(k, {n.size()}, {});
    const std::vector<cl_uint> got = read<cl_uint>(out, 2 * n.size());
    for (size_t i = 0; i < n.size(); ++i) {
      const std::array<cl_uint, 4> sums = sumsOf<cl_uint>(n[i]);
      ASSERT_EQ(got[2 * i], sums[0]) << variant << " count " << n[i];
      ASSERT_EQ(got[2 * i + 1], sums[1]) << variant << " count " << n[i];
    }
  }
}

TEST_F(ClosedForms, InAModuleWithoutSixtyFourBitIntegers) {
  for (const char *variant : {"", "-O0"})
    for (cl_uint count : {0u, 1u, 2u, 10u, 65536u, 92682u, 92683u, 4000000000u}) {
      if (count > 100000 && *variant)
        continue; // the loop itself: 4e9 iterations
      cl_mem out = buffer<cl_uint>(1);
      cl_kernel k = kernel("closed_form_sum", "sum_below", variant);
      setArgs(k, count, out);
      run(k, {1}, {});
      EXPECT_EQ(read<cl_uint>(out, 1)[0], sumsOf<cl_uint>(count)[0]) << variant << " count " << count;
    }
}

} // namespace
} // namespace lanewise::test
