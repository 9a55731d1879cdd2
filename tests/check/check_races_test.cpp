// SPDX-License-Identifier: Apache-2.0
// The race check (runtime/check_races.cpp) on the planted bugs of
// cl/bugs.cl: races on __local memory without a barrier, of stores of the
// same value or of different values; races on global memory within a
// work-group and between work-groups, of scattered and of dense accesses
// (recorded per 64-byte line); and dense accesses a global barrier orders.
#include "check_fixture.h"

#include <algorithm>
#include <fstream>
#include <string>
#include <sys/mman.h>

namespace lanewise::test {
namespace {

// The process's resident memory (VmRSS), in KiB.
long residentKiB() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmRSS:", 0) == 0)
      return std::stol(line.substr(6));
  return 0;
}

TEST_P(CheckedMode, LocalMemoryRaceWithoutABarrier) {
  cl_kernel k = kernel("local_race");
  arg(k, 0, buffer(std::vector<int>(32)));
  // Work-item 0 reads tile[1], which work-item 1 wrote with no barrier between.
  expectFinding(run(k, {32}, {16}), "data-race", "local_race", {0, 0, 0});
}

// A sub-group barrier orders __local accesses within its sub-group only.
TEST_P(CheckedMode, SubgroupBarrierOrdersLocalMemoryWithinItsSubgroup) {
  std::vector<int> in(64);
  for (int i = 0; i < 64; ++i)
    in[i] = 3 * i + 1;
  cl_kernel exchange = kernel("subgroup_barrier_exchange");
  cl_mem out = buffer(std::vector<int>(64));
  arg(exchange, 0, buffer(in));
  arg(exchange, 1, out);
  EXPECT_TRUE(run(exchange, {64}, {32}).empty());
  size_t subgroup = 0;
  const size_t local = 32;
  ASSERT_EQ(clGetKernelSubGroupInfo(exchange, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                    sizeof local, &local, sizeof subgroup, &subgroup, nullptr),
            CL_SUCCESS);
  ASSERT_GT(subgroup, 0u);
  const std::vector<int> got = readInts(out, 64);
  for (int i = 0; i < 64; ++i) {
    const int s = i % int(subgroup);
    EXPECT_EQ(got[i], in[i - s + int(subgroup) - 1 - s]) << "work-item " << i;
  }
  // Work-item 0 reads what the next sub-group wrote: a race.
  cl_kernel across = kernel("subgroup_barrier_across");
  arg(across, 0, buffer(in));
  arg(across, 1, buffer(std::vector<int>(64)));
  const std::vector<Finding> findings = run(across, {64}, {32});
  expectFinding(findings, "data-race", "subgroup_barrier_across", {0, 0, 0});
  expectOther(findings, "subgroup_barrier_across", "sub-group 1");
}

// And global accesses, with a global fence.
TEST_P(CheckedMode, SubgroupBarrierOrdersGlobalMemoryWithinItsSubgroup) {
  std::vector<int> in(64);
  for (int i = 0; i < 64; ++i)
    in[i] = 5 * i - 7;
  cl_kernel exchange = kernel("subgroup_barrier_global_exchange");
  cl_mem out = buffer(std::vector<int>(64));
  arg(exchange, 0, buffer(in));
  arg(exchange, 1, buffer(std::vector<int>(64)));
  arg(exchange, 2, out);
  EXPECT_TRUE(run(exchange, {64}, {32}).empty());
  size_t subgroup = 0;
  const size_t local = 32;
  ASSERT_EQ(clGetKernelSubGroupInfo(exchange, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                    sizeof local, &local, sizeof subgroup, &subgroup, nullptr),
            CL_SUCCESS);
  ASSERT_GT(subgroup, 0u);
  const std::vector<int> got = readInts(out, 64);
  for (int i = 0; i < 64; ++i) {
    const int s = i % int(subgroup);
    EXPECT_EQ(got[i], in[i - s + int(subgroup) - 1 - s]) << "work-item " << i;
  }
  cl_kernel across = kernel("subgroup_barrier_global_across");
  arg(across, 0, buffer(in));
  arg(across, 1, buffer(std::vector<int>(64)));
  arg(across, 2, buffer(std::vector<int>(64)));
  expectFinding(run(across, {64}, {32}), "data-race", "subgroup_barrier_global_across", {0, 0, 0});
}

TEST_P(CheckedMode, LocalMemoryRaceOfARowReadingOneElement) {
  cl_kernel k = kernel("local_race_read_by_a_row");
  arg(k, 0, buffer(std::vector<int>(16)));
  // Work-item 0 reads its own write; work-item 1 reads tile[0], which
  // work-item 0 wrote with no barrier between.
  const std::vector<Finding> findings = run(k, {16}, {16});
  expectFinding(findings, "data-race", "local_race_read_by_a_row", {1, 0, 0});
  expectOther(findings, "local_race_read_by_a_row", "local linear id 0");
}

// A race of stores of the same value is a race (OpenCL C 3.0, 6.15.8), and
// the report says that the values were the same; of different values, it
// does not. The stores race in one instruction of a warp (the tiles), or in
// two (the cell: the first store is in memory when the second is checked).
std::vector<float> raceInput() {
  std::vector<float> in(16);
  for (int i = 0; i < 16; ++i)
    in[i] = 0.5f * float(i) - 3.0f;
  return in;
}
const char *const kSameValue = "both stored the same value";

TEST_P(CheckedMode, LocalMemoryRaceOfStoresOfTheSameValueSaysSo) {
  cl_kernel k = kernel("local_race_same_tile");
  arg(k, 0, buffer(raceInput()));
  arg(k, 1, buffer(std::vector<float>(16)));
  const std::vector<Finding> findings = run(k, {16}, {16});
  expectFinding(findings, "data-race", "local_race_same_tile", {1, 0, 0});
  expectOther(findings, "local_race_same_tile", kSameValue);
}

TEST_P(CheckedMode, LocalMemoryRaceOfStoresOfDifferentValuesDoesNotSaySo) {
  cl_kernel k = kernel("local_race_different_tiles");
  arg(k, 0, buffer(raceInput()));
  arg(k, 1, buffer(std::vector<float>(16)));
  const std::vector<Finding> findings = run(k, {16}, {16});
  expectFinding(findings, "data-race", "local_race_different_tiles", {1, 0, 0});
  ASSERT_FALSE(findings.empty());
  EXPECT_EQ(findings.front().message.find(kSameValue), std::string::npos)
      << findings.front().message;
}

TEST_P(CheckedMode, LocalMemoryRaceOfTwoStatementsStoringTheSameValueSaysSo) {
  cl_kernel k = kernel("local_race_same_cell");
  arg(k, 0, buffer(raceInput()));
  arg(k, 1, buffer(std::vector<float>(16)));
  const std::vector<Finding> findings = run(k, {16}, {16});
  expectFinding(findings, "data-race", "local_race_same_cell", {1, 0, 0});
  expectOther(findings, "local_race_same_cell", kSameValue);
}

TEST_P(CheckedMode, GlobalMemoryRaceWithinAWorkGroup) {
  cl_kernel k = kernel("global_race_in_group");
  arg(k, 0, buffer(std::vector<int>(32)));
  arg(k, 1, buffer(std::vector<int>(32)));
  // barrier(CLK_LOCAL_MEM_FENCE) does not order global memory: work-item 0
  // reads data[1], which work-item 1 wrote.
  expectFinding(run(k, {32}, {16}), "data-race", "global_race_in_group", {0, 0, 0});
}

TEST_P(CheckedMode, GlobalMemoryRaceBetweenWorkGroups) {
  cl_kernel k = kernel("global_race_between_groups");
  arg(k, 0, buffer(std::vector<int>(32)));
  // Work-groups run in order (LANEWISE_DETERMINISTIC): work-item 16, first
  // of group 1, writes out[15], which work-item 15 of group 0 wrote.
  const std::vector<Finding> findings = run(k, {32}, {16});
  expectFinding(findings, "data-race", "global_race_between_groups", {16, 0, 0});
  // The report names the other access: work-item 15's `out[g] = (int)g;`,
  // two lines above the BUG line.
  ASSERT_FALSE(findings.empty());
  if (withDebugInfo()) {
    const std::string otherLine =
        "bugs.cl:" + std::to_string(markedLine("global_race_between_groups") - 2) + ":";
    EXPECT_NE(findings.front().message.find(otherLine), std::string::npos)
        << findings.front().message;
  }
}

// Atomics of device scope order work-groups (OpenCL C 3.0, 6.15.12): the
// last group to arrive reads every group's stores, after an acquire-release
// arrival, after a relaxed one between fences, and through a chain of two
// atomic objects (the last group synchronises with the others only through
// the group that saw them all arrive).
TEST_P(CheckedMode, DeviceScopeAtomicsOrderWorkGroups) {
  const std::vector<int> in = iota(128, 1);
  for (const char *name :
       {"correct_last_group_acq_rel", "correct_last_group_fences", "correct_last_group_chained"}) {
    SCOPED_TRACE(name);
    const bool chained = std::string(name) == "correct_last_group_chained";
    cl_kernel k = kernel(name);
    cl_mem out = buffer(std::vector<int>{-1});
    arg(k, 0, buffer(in));
    arg(k, 1, buffer(std::vector<int>(128)));
    arg(k, 2, buffer(std::vector<int>{0}));
    if (chained)
      arg(k, 3, buffer(std::vector<int>{0}));
    arg(k, chained ? 4 : 3, out);
    EXPECT_TRUE(run(k, {128}, {16}).empty());
    // The last group read every store (the chained kernel's last group
    // stores nothing; it runs last, LANEWISE_DETERMINISTIC, and sees `done`).
    int expected = 0;
    for (size_t i = 0; i < (chained ? 112u : 128u); ++i)
      expected += 2 * in[i];
    EXPECT_EQ(readInts(out, 1)[0], expected);
  }
}

// A relaxed arrival orders nothing, nor does an acquire-release one of
// work-group scope: the last group (work-items 112-127), reading group 0's
// store first, races.
TEST_P(CheckedMode, RelaxedOrWorkGroupScopeAtomicsDoNotOrderWorkGroups) {
  for (const char *name : {"last_group_relaxed", "last_group_work_group_scope"}) {
    SCOPED_TRACE(name);
    std::remove(report_.c_str());
    cl_kernel k = kernel(name);
    arg(k, 0, buffer(iota(128, 1)));
    arg(k, 1, buffer(std::vector<int>(128)));
    arg(k, 2, buffer(std::vector<int>{0}));
    arg(k, 3, buffer(std::vector<int>(1)));
    const std::vector<Finding> findings = run(k, {128}, {16});
    expectFinding(findings, "data-race", name, {112, 0, 0});
    expectOther(findings, name, "work-group (0,0,0)");
  }
}

// The races of dense accesses, which the check records per 64-byte line.
TEST_P(CheckedMode, DenseGlobalMemoryRaceBetweenWorkGroups) {
  cl_kernel k = kernel("global_race_dense_between_groups");
  arg(k, 0, buffer(std::vector<int>(64)));
  // Work-item 64, first of group 1, writes out[0], which work-item 0 of
  // group 0 wrote, by the same line of the kernel.
  const std::vector<Finding> findings = run(k, {128}, {64});
  expectFinding(findings, "data-race", "global_race_dense_between_groups", {64, 0, 0});
  expectOther(findings, "global_race_dense_between_groups",
              "local linear id 0 of work-group (0,0,0)", 0);
  expectOther(findings, "global_race_dense_between_groups", "its access: OpStore");
}

TEST_P(CheckedMode, DenseGlobalMemoryRaceWithinAWorkGroup) {
  cl_kernel k = kernel("global_race_dense_in_group");
  arg(k, 0, buffer(std::vector<int>(128)));
  arg(k, 1, buffer(std::vector<int>(128)));
  // Work-item 0 reads data[16], which work-item 16 wrote.
  const std::vector<Finding> findings = run(k, {128}, {64});
  expectFinding(findings, "data-race", "global_race_dense_in_group", {0, 0, 0});
  expectOther(findings, "global_race_dense_in_group", "local linear id 16 of the same work-group");
}

TEST_P(CheckedMode, DenseGlobalMemoryRaceOfVectors) {
  cl_kernel k = kernel("global_race_dense_long4");
  arg(k, 0, buffer(std::vector<cl_long>(4 * 128)));
  arg(k, 1, buffer(std::vector<cl_long>(4 * 128)));
  // 32-byte elements, two to a line: work-item 0 reads data[2], which
  // work-item 2 wrote.
  const std::vector<Finding> findings = run(k, {128}, {64});
  expectFinding(findings, "data-race", "global_race_dense_long4", {0, 0, 0});
  expectOther(findings, "global_race_dense_long4", "local linear id 2 of the same work-group");
}

TEST_P(CheckedMode, DenseReadOfScatteredWrites) {
  cl_kernel k = kernel("global_race_scattered_then_dense");
  arg(k, 0, buffer(std::vector<int>(128)));
  arg(k, 1, buffer(std::vector<int>(128)));
  // Work-item 0 reads its own write; work-item 1 reads data[1], which
  // work-item 49 wrote (49 * 17 = 13 * 64 + 1).
  const std::vector<Finding> findings = run(k, {128}, {64});
  expectFinding(findings, "data-race", "global_race_scattered_then_dense", {1, 0, 0});
  expectOther(findings, "global_race_scattered_then_dense",
              "local linear id 49 of the same work-group");
}

TEST_P(CheckedMode, RaceOnAVectorOfALineSharedByInstructions) {
  cl_kernel k = kernel("global_race_vectors_in_a_line");
  arg(k, 0, buffer(std::vector<float>(8 * 32)));
  arg(k, 1, buffer(std::vector<float>(4 * 32)));
  // Work-item 16, first of group 1, writes data[125], which work-item 15
  // of group 0 read by its second vload4, three lines above the BUG line.
  const std::vector<Finding> findings = run(k, {32}, {16});
  expectFinding(findings, "data-race", "global_race_vectors_in_a_line", {16, 0, 0});
  expectOther(findings, "global_race_vectors_in_a_line", "local linear id 15 of work-group (0,0,0)",
              3);
}

TEST_P(CheckedMode, RaceOnALineOfOneWorkItemsVectors) {
  cl_kernel k = kernel("global_race_line_of_one_work_item");
  arg(k, 0, buffer(std::vector<float>(16 * 32)));
  arg(k, 1, buffer(std::vector<float>(4 * 32)));
  // Work-item 16, first of group 1, writes data[241], which work-item 15
  // of group 0 read by its first vload4, four lines above the BUG line.
  const std::vector<Finding> findings = run(k, {32}, {16});
  expectFinding(findings, "data-race", "global_race_line_of_one_work_item", {16, 0, 0});
  expectOther(findings, "global_race_line_of_one_work_item",
              "local linear id 15 of work-group (0,0,0)", 4);
}

TEST_P(CheckedMode, DenseAccessesOrderedByAGlobalBarrier) {
  cl_kernel k = kernel("dense_ordered_by_a_global_barrier");
  cl_mem data = buffer(std::vector<int>(128)), out = buffer(std::vector<int>(128, -1));
  arg(k, 0, data);
  arg(k, 1, out);
  // Twice: the second launch finds the first's record, which is older.
  EXPECT_TRUE(run(k, {128}, {64}).empty());
  EXPECT_TRUE(run(k, {128}, {64}).empty());
  const std::vector<int> got = readInts(out, 128);
  for (int g = 0; g < 128; ++g)
    EXPECT_EQ(got[g], g % 64 < 48 ? g + 16 : -1) << "work-item " << g;
}

TEST_P(CheckedMode, EveryWorkItemWritingOneElementRaces) {
  cl_kernel k = kernel("every_work_item_writes_one_element");
  arg(k, 0, buffer(iota(16, 0)));
  arg(k, 1, buffer(std::vector<int>(1)));
  // One address for the whole warp: work-item 1 writes what work-item 0 wrote.
  expectFinding(run(k, {16}, {16}), "data-race", "every_work_item_writes_one_element", {1, 0, 0});
}

// The record of global memory is the process's and outlives launches; what
// it holds of earlier launches is dropped once it outgrows its budget
// (LANEWISE_CHECK_MEMORY MiB) between launches. A program that runs each
// launch on buffers at new addresses (as the CTS's asynchronous-copy tests
// do) kept the record of every address it ever used, and ran out of memory.
TEST_P(CheckedMode, RecordOfEarlierLaunchesIsDroppedBeyondItsBudget) {
  constexpr size_t slice = size_t(2) << 20, slices = 48;
  constexpr cl_int items = cl_int(slice / (3 * sizeof(float)));
  void *region = mmap(nullptr, slice * slices, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  ASSERT_NE(region, MAP_FAILED);
  setenv("LANEWISE_CHECK_MEMORY", "16", 1);
  cl_kernel k = kernel("correct_vectors");
  arg(k, 0, buffer(std::vector<float>(size_t(items) * 3, 2.0f)));
  arg(k, 2, items);
  long first = 0, most = 0;
  for (size_t i = 0; i < slices; ++i) {
    auto *bytes = static_cast<char *>(region) + i * slice;
    cl_int err = CL_SUCCESS;
    cl_mem out =
        clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, slice, bytes, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    arg(k, 1, out);
    EXPECT_TRUE(run(k, {size_t(items)}, {}).empty());
    EXPECT_EQ(reinterpret_cast<float *>(bytes)[3 * (items - 1) + 2], 2.0f);
    clReleaseMemObject(out);
    madvise(bytes, slice, MADV_DONTNEED); // the memory goes, its addresses stay used
    const long resident = residentKiB();
    if (i == 0)
      first = resident;
    most = std::max(most, resident);
  }
  unsetenv("LANEWISE_CHECK_MEMORY");
  munmap(region, slice * slices);
  // Each launch leaves a record of some MiB; kept, 48 launches' would be
  // well over 64 MiB more than the first's.
  EXPECT_LT(most - first, 64 * 1024) << "KiB resident after the first launch: " << first;
}

} // namespace
} // namespace lanewise::test
