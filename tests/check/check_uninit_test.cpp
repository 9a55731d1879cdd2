// SPDX-License-Identifier: Apache-2.0
// The uninitialised-read check (runtime/check_uninit.cpp, and the register
// shadows of runtime/exec_undef.cpp) on the planted bugs of cl/bugs.cl:
// __local and private memory read before any write, undefined values in
// registers where they have an effect; and what must stay silent
// (undefined operands that decide nothing, composites built a field at a
// time).
#include "check_fixture.h"

namespace lanewise::test {
namespace {

TEST_P(CheckedMode, UninitialisedLocalMemory) {
  cl_kernel k = kernel("uninitialised_local");
  arg(k, 0, buffer(std::vector<int>(32)));
  // Nobody writes tile[5]; work-item 10 reads it.
  expectFinding(run(k, {32}, {16}), "uninitialised-read", "uninitialised_local", {10, 0, 0});
}

TEST_P(CheckedMode, UninitialisedPrivateMemory) {
  cl_kernel k = kernel("uninitialised_private");
  // a[0] and a[in[i + 16]] = a[1] are written; work-item 2 reads a[2].
  std::vector<int> in(32, 1);
  arg(k, 0, buffer(in));
  arg(k, 1, buffer(std::vector<int>(16)));
  expectFinding(run(k, {16}, {16}), "uninitialised-read", "uninitialised_private", {2, 0, 0});
}

// A variable assigned in a loop only when an input is positive: at -O2 a
// phi with an OpUndef incoming value (the register shadow finds it), at -O0
// a private variable (the memory shadow finds it).
TEST_P(CheckedMode, UninitialisedRegister) {
  cl_kernel k = kernel("uninitialised_register");
  const int n = 4, items = 32;
  // Work-items 6, 13 and 27 have no positive input; the others have one or
  // more, in varied places.
  std::vector<int> in(items * n);
  for (int i = 0; i < items; ++i)
    for (int j = 0; j < n; ++j)
      in[i * n + j] = (i + j) % 3 == 0 ? i + 1 : -j;
  for (int i : {6, 13, 27})
    for (int j = 0; j < n; ++j)
      in[i * n + j] = -i - j;
  cl_mem out = buffer(std::vector<int>(items));
  arg(k, 0, buffer(in));
  arg(k, 1, out);
  arg(k, 2, cl_int{n});
  const auto findings = run(k, {items}, {16});
  expectFinding(findings, "uninitialised-read", "uninitialised_register", {6, 0, 0});
  // The work-items that had a positive input got the index of the last one.
  const std::vector<int> got = readInts(out, items);
  for (int i = 0; i < items; ++i) {
    int last = -1;
    for (int j = 0; j < n; ++j)
      if (in[i * n + j] > 0)
        last = j;
    if (last >= 0) {
      EXPECT_EQ(got[i], last) << "work-item " << i;
    }
  }
}

// The same value deciding a sub-group or work-group reduction, or printed:
// work-item 6 has no positive input (32 work-items, groups of 16).
TEST_P(CheckedMode, UninitialisedGroupOperandsAndPrintfArguments) {
  const int n = 4, items = 32;
  std::vector<int> in(items * n);
  for (int i = 0; i < items; ++i)
    for (int j = 0; j < n; ++j)
      in[i * n + j] = i == 6 ? -1 - j : (i + j) % 3 == 0 ? i + 1 : -j;
  for (const char *name : {"uninitialised_subgroup_operand", "uninitialised_work_group_operand",
                           "uninitialised_printf_argument"}) {
    SCOPED_TRACE(name);
    std::remove(report_.c_str());
    const bool printing = std::string(name) == "uninitialised_printf_argument";
    cl_kernel k = kernel(name);
    arg(k, 0, buffer(in));
    if (printing) {
      arg(k, 1, cl_int{n});
    } else {
      arg(k, 1, buffer(std::vector<int>(items)));
      arg(k, 2, cl_int{n});
    }
    expectFinding(run(k, {items}, {16}), "uninitialised-read", name, {6, 0, 0});
  }
}

// An undefined operand that does not decide a Boolean AND or OR has no
// effect: nothing at -O2; at -O0 the read of the unassigned private variable
// is reported (the source does read it).
TEST_P(CheckedMode, UndefinedOperandThatDoesNotDecide) {
  cl_kernel k = kernel("unused_uninitialised_operand");
  const int n = 4, items = 32;
  std::vector<int> in(items * n);
  for (int i = 0; i < items; ++i)
    for (int j = 0; j < n; ++j)
      in[i * n + j] = i % 4 == 1 ? -1 - j : (i + j) % 5 - 2;
  cl_mem out = buffer(std::vector<int>(items * 2));
  arg(k, 0, buffer(in));
  arg(k, 1, out);
  arg(k, 2, cl_int{n});
  const auto findings = run(k, {items}, {16});
  if (std::string(GetParam()) == "bugs-O0") {
    ASSERT_FALSE(findings.empty());
    EXPECT_EQ(findings.front().kind, "uninitialised-read");
    EXPECT_EQ(findings.front().globalId, (std::vector<long>{1, 0, 0}));
  } else {
    EXPECT_TRUE(findings.empty());
  }
  const std::vector<int> got = readInts(out, items * 2);
  for (int i = 0; i < items; ++i) {
    int last = -1;
    for (int j = 0; j < n; ++j)
      if (in[i * n + j] > 0)
        last = j;
    EXPECT_EQ(got[2 * i], last > 0 ? 1 : 2) << "work-item " << i;
    EXPECT_EQ(got[2 * i + 1], last < 0 || last > 0 ? 3 : 4) << "work-item " << i;
  }
}

// The checked mode's own first false finding: a float2 built a component
// at a time. Every composite built so is silent, with the right values.
TEST_P(CheckedMode, CompositesBuiltFieldByFieldHaveNoFindings) {
  cl_kernel k = kernel("correct_field_by_field");
  const int items = 32;
  std::vector<float> in(items);
  for (int i = 0; i < items; ++i)
    in[i] = float(i % 7);
  cl_mem out = buffer(std::vector<float>(items));
  struct Padded {
    cl_char tag;
    cl_float value;
    cl_short count;
  };
  cl_mem records = buffer(std::vector<Padded>(items));
  arg(k, 0, buffer(in));
  arg(k, 1, out);
  arg(k, 2, records);
  const auto findings = run(k, {items}, {16});
  EXPECT_TRUE(findings.empty()) << findings.front().kind << ": " << findings.front().message;
  std::vector<float> got(items);
  ASSERT_EQ(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, items * sizeof(float), got.data(), 0,
                                nullptr, nullptr),
            CL_SUCCESS);
  for (int i = 0; i < items; ++i) {
    const float v = in[i];
    float sum = v * 2 + v + 1 + v + 2 + v * 3 + float(int(v) + 6) + v + 1 + 2 + 3;
    for (int j = 0; j < 8; ++j)
      sum += v + j;
    for (int j = 0; j < 3; ++j)
      sum += v + j + v - j;
    EXPECT_FLOAT_EQ(got[i], sum) << "work-item " << i;
  }
}

// A component never written, or read before it is written, is found where
// it is used. The checked mode builds source programs unoptimised; -O2 has
// already chosen a value for the undefined component (folding the branch
// away, or making the stored vector a constant with an undefined component,
// as it makes every 3-vector it stores as four), so its build has nothing
// left to find.
class CheckedComponents : public CheckedMode {
protected:
  // Work-item 0's uninitialised read at the BUG line in the -O0 build;
  // nothing in the optimised ones.
  void expectFindingUnoptimisedOnly(const std::vector<Finding> &findings, const char *name) {
    if (std::string(GetParam()) == "bugs-O0")
      expectFinding(findings, "uninitialised-read", name, {0, 0, 0});
    else
      EXPECT_TRUE(findings.empty());
  }
};

TEST_P(CheckedComponents, VectorComponentNeverWrittenIsFoundWhereStored) {
  cl_kernel k = kernel("vector_component_unwritten");
  arg(k, 0, buffer(std::vector<float>(32, 1.0f)));
  arg(k, 1, buffer(std::vector<cl_float4>(32)));
  expectFindingUnoptimisedOnly(run(k, {32}, {16}), "vector_component_unwritten");
}

TEST_P(CheckedComponents, VectorComponentReadBeforeWrittenIsFoundWhereItDecides) {
  cl_kernel k = kernel("vector_component_read_first");
  arg(k, 0, buffer(iota(32)));
  arg(k, 1, buffer(std::vector<int>(32)));
  expectFindingUnoptimisedOnly(run(k, {32}, {16}), "vector_component_read_first");
}

INSTANTIATE_TEST_SUITE_P(Builds, CheckedComponents,
                         ::testing::Values("bugs", "bugs-O0", "bugs-nodebug"), buildName);

} // namespace
} // namespace lanewise::test
