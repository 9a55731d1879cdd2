// SPDX-License-Identifier: Apache-2.0
// The barrier check (runtime/launch.cpp) on the planted bugs of
// cl/bugs.cl: a barrier some work-items of the group do not reach, and
// work-items waiting at different barriers.
#include "check_fixture.h"

namespace lanewise::test {
namespace {

TEST_P(CheckedMode, BarrierInDivergentControlFlow) {
  cl_kernel k = kernel("barrier_in_divergent_branch");
  arg(k, 0, buffer(std::vector<int>(32)));
  // Work-items 8 to 15 of each group return without reaching the barrier.
  expectFinding(run(k, {32}, {16}), "barrier-divergence", "barrier_in_divergent_branch", {8, 0, 0});
}

TEST_P(CheckedMode, WorkItemsAtDifferentBarriers) {
  cl_kernel k = kernel("different_barriers");
  arg(k, 0, buffer(std::vector<int>(32)));
  // Work-item 0 waits at the second barrier; work-item 1 is the first at the other.
  expectFinding(run(k, {32}, {16}), "barrier-divergence", "different_barriers", {1, 0, 0});
}

} // namespace
} // namespace lanewise::test
