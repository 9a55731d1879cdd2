// SPDX-License-Identifier: Apache-2.0
// Independent forward progress of the sub-groups of a work-group
// (cl/forward_progress.cl): a sub-group that waits for a later one in the
// same warp, or in another warp, gets its value. OpenCL 3.0 requires it of
// devices with cl_khr_subgroups (CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS).
#include "harness.h"

#include <algorithm>

namespace lanewise::test {
namespace {

class ForwardProgress : public KernelTest, public ::testing::WithParamInterface<const char *> {};

TEST_P(ForwardProgress, SubgroupsWaitingForLaterOnesFinish) {
  cl_kernel k = kernel("forward_progress", "signal_chain", GetParam());
  // One warp of several sub-groups, then several warps (warps hold at most
  // 128 work-items), in two work-groups.
  for (size_t local : {64, 512}) {
    const size_t groups = 2;
    cl_mem flags = buffer<cl_int>(64 * groups), order = buffer<cl_uint>(64 * groups),
           tickets = buffer<cl_uint>(groups);
    setArgs(k, flags, order, tickets);
    run(k, {local * groups}, {local});
    size_t subgroups = 0;
    ASSERT_EQ(clGetKernelSubGroupInfo(k, device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                                      sizeof local, &local, sizeof subgroups, &subgroups, nullptr),
              CL_SUCCESS);
    ASSERT_GT(subgroups, 1u);
    const std::vector<cl_uint> got = read<cl_uint>(order, 64 * groups);
    for (size_t g = 0; g < groups; ++g)
      for (size_t sg = 0; sg < subgroups; ++sg)
        EXPECT_EQ(got[64 * g + sg], subgroups - 1 - sg)
            << "local size " << local << ", group " << g << ", sub-group " << sg;
  }
}

// Lanes that wait at a loop's exit while one lane runs on (past the
// budget after which a waiting loop gives other sub-groups turns) keep their
// place: a turn would run them ahead into the next rounds of the outer loop.
TEST_P(ForwardProgress, LongLoopsOfOneLaneKeepTheOthersInStep) {
  cl_kernel k = kernel("forward_progress", "long_inner_loops", GetParam());
  for (size_t local : {64, 128, 32}) {
    const size_t n = 256;
    const int rounds = 4;
    cl_mem out = buffer<cl_int>(n * rounds);
    setArgs(k, out, cl_int{rounds});
    run(k, {n}, {local});
    const std::vector<cl_int> got = read<cl_int>(out, n * rounds);
    for (int r = 0; r < rounds; ++r)
      for (size_t i = 0; i < n; ++i) {
        const int limit = i % local == 0 ? 5000 + r : 10 + int(i + r) % 7;
        ASSERT_EQ(got[r * n + i], limit)
            << "local size " << local << ", round " << r << ", work-item " << i;
      }
  }
}

// Sub-groups that take turns in a waiting loop run ahead into later rounds
// of the loop around it; every work-item still runs every round.
TEST_P(ForwardProgress, TurnsInAWaitingLoopKeepEachWorkItemsRounds) {
  cl_kernel k = kernel("forward_progress", "compare_exchange_rounds", GetParam());
  for (size_t local : {128, 64}) {
    const size_t n = 2048;
    const int rounds = 24;
    cl_mem c = buffer<cl_int>(3), tries = buffer<cl_int>(n * rounds);
    setArgs(k, c, tries, cl_int{rounds});
    run(k, {n}, {local});
    const std::vector<cl_int> counters = read<cl_int>(c, 3), got = read<cl_int>(tries, n * rounds);
    EXPECT_EQ(counters[1], int(n) * rounds + counters[2]) << "local size " << local;
    for (int r = 0; r < rounds; ++r)
      for (size_t i = 0; i < n; ++i)
        ASSERT_GT(got[r * n + i], 0)
            << "local size " << local << ", round " << r << ", work-item " << i;
  }
}

// A spin lock taken by every work-item (PoCL runs it; lockstep lanes of one
// sub-group would spin for ever behind the one holding it): each holds it
// once, and the count kept under it loses nothing.
TEST_P(ForwardProgress, WorkItemsOfOneSubgroupTakeALockInTurn) {
  cl_kernel k = kernel("forward_progress", "spin_lock", GetParam());
  for (size_t local : {64, 128, 256}) {
    const size_t n = 512;
    cl_mem lock = buffer<cl_int>(1), count = buffer<cl_int>(1), order = buffer<cl_int>(n);
    setArgs(k, lock, count, order);
    run(k, {n}, {local});
    EXPECT_EQ(read<cl_int>(count, 1)[0], int(n)) << "local size " << local;
    std::vector<cl_int> holders = read<cl_int>(order, n);
    std::sort(holders.begin(), holders.end());
    for (size_t i = 0; i < n; ++i)
      ASSERT_EQ(holders[i], int(i)) << "local size " << local;
  }
}

INSTANTIATE_TEST_SUITE_P(Builds, ForwardProgress, ::testing::Values("", "-O0"),
                         [](const auto &info) { return std::string(info.param[0] ? "O0" : "O2"); });

} // namespace
} // namespace lanewise::test
