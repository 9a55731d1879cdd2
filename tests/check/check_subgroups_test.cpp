// SPDX-License-Identifier: Apache-2.0
// The sub-group check (runtime/exec_check.cpp, and the shadows of relative
// shuffles in runtime/exec_undef.cpp) on the planted bugs of cl/bugs.cl:
// uniform-only operations in divergent control flow, shuffles from outside
// the sub-group or from inactive lanes; and the scan and reduction idioms,
// which discard what they read outside the sub-group.
#include "check_fixture.h"

namespace lanewise::test {
namespace {

// Sub-groups are 16 work-items unless a kernel requires another size.
TEST_P(CheckedMode, UniformSubgroupOperationInDivergentControlFlow) {
  cl_kernel k = kernel("subgroup_reduce_in_branch");
  arg(k, 0, buffer(std::vector<int>(32)));
  // Work-items 0 to 3 reach sub_group_reduce_add; 4 is the first that does not.
  expectFinding(run(k, {32}, {32}), "subgroup-divergence", "subgroup_reduce_in_branch", {4, 0, 0});
}

TEST_P(CheckedMode, ShuffleFromOutsideTheSubgroup) {
  cl_kernel k = kernel("shuffle_out_of_range");
  arg(k, 0, buffer(std::vector<int>(32)));
  // Lane 13 reads lane 16 of a 16-lane sub-group.
  expectFinding(run(k, {32}, {32}), "subgroup-bad-lane", "shuffle_out_of_range", {13, 0, 0});
}

TEST_P(CheckedMode, ShuffleFromAnInactiveLane) {
  cl_kernel k = kernel("shuffle_from_inactive_lane");
  arg(k, 0, buffer(std::vector<int>(32)));
  // Even lanes read odd lanes, which did not take the branch.
  expectFinding(run(k, {32}, {32}), "subgroup-bad-lane", "shuffle_from_inactive_lane", {0, 0, 0});
}

TEST_P(CheckedMode, ShuffleDownResultUsedPastTheEndOfTheSubGroup) {
  if (std::string(GetParam()) == "bugs-O0")
    GTEST_SKIP() << "not seen at -O0, where the shuffle's result goes through a private "
                    "variable before it is used (docs/debugging.md)";
  cl_kernel k = kernel("shuffle_down_past_the_end");
  arg(k, 0, buffer(std::vector<int>(32)));
  // Lanes 8-15 of each sub-group of 16 read lanes 16-23, which do not
  // exist; the store of their sums is reported, at lane 8 first.
  expectFinding(run(k, {32}, {32}), "subgroup-bad-lane", "shuffle_down_past_the_end", {8, 0, 0});
}

// The scan and reduction idioms read outside the sub-group and discard what
// they read there: no finding, and the results are the host's.
TEST_P(CheckedMode, RelativeShufflesWhoseUndefinedResultsAreDiscarded) {
  cl_kernel k = kernel("correct_shuffle_scan");
  const std::vector<int> in = iota(32, -7);
  cl_mem scan = buffer(std::vector<int>(32)), sum = buffer(std::vector<int>(2));
  arg(k, 0, buffer(in));
  arg(k, 1, scan);
  arg(k, 2, sum);
  EXPECT_TRUE(run(k, {32}, {32}).empty());
  const std::vector<int> gotScan = readInts(scan, 32), gotSum = readInts(sum, 2);
  for (int group = 0; group < 2; ++group) {
    int running = 0;
    for (int lane = 0; lane < 16; ++lane) {
      running += in[group * 16 + lane];
      EXPECT_EQ(gotScan[group * 16 + lane], running) << "work-item " << group * 16 + lane;
    }
    EXPECT_EQ(gotSum[group], running) << "sub-group " << group;
  }
}

} // namespace
} // namespace lanewise::test
