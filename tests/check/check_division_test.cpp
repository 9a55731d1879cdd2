// SPDX-License-Identifier: Apache-2.0
// The division check (runtime/exec_check.cpp) on the planted bugs of
// cl/bugs.cl: integer division and remainder by zero, and the minimum
// value divided by -1.
#include "check_fixture.h"

namespace lanewise::test {
namespace {

TEST_P(CheckedMode, IntegerDivisionByZero) {
  cl_kernel k = kernel("division_by_zero");
  arg(k, 0, buffer(iota(16, -5)));
  arg(k, 1, buffer(std::vector<int>(16)));
  expectFinding(run(k, {16}, {16}), "division-by-zero", "division_by_zero", {5, 0, 0});
}

TEST_P(CheckedMode, UnsignedRemainderByZero) {
  cl_kernel k = kernel("remainder_by_zero");
  std::vector<cl_uint> divisors(16);
  for (cl_uint i = 0; i < 16; ++i)
    divisors[i] = i == 9 ? 0 : i + 1;
  arg(k, 0, buffer(divisors));
  arg(k, 1, buffer(std::vector<cl_uint>(16)));
  expectFinding(run(k, {16}, {16}), "division-by-zero", "remainder_by_zero", {9, 0, 0});
}

TEST_P(CheckedMode, MinimumDividedByMinusOne) {
  cl_kernel k = kernel("division_overflow");
  std::vector<cl_long> pairs;
  for (cl_long i = 0; i < 16; ++i) {
    pairs.push_back(i == 3 ? INT64_MIN : i * 10);
    pairs.push_back(i == 3 ? -1 : 3);
  }
  arg(k, 0, buffer(pairs));
  arg(k, 1, buffer(std::vector<cl_long>(16)));
  expectFinding(run(k, {16}, {16}), "division-overflow", "division_overflow", {3, 0, 0});
}

} // namespace
} // namespace lanewise::test
