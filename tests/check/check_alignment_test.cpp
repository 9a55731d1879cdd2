// SPDX-License-Identifier: Apache-2.0
// The alignment check (runtime/check_bounds.cpp) on the planted bugs of
// cl/bugs.cl: loads, vloadn and stores at addresses not aligned to their
// type.
#include "check_fixture.h"

namespace lanewise::test {
namespace {

TEST_P(CheckedMode, MisalignedLoad) {
  cl_kernel k = kernel("misaligned_load");
  arg(k, 0, buffer(std::vector<char>(4 * 16 + 8)));
  arg(k, 1, buffer(std::vector<float>(16)));
  expectFinding(run(k, {16}, {16}), "misaligned", "misaligned_load", {0, 0, 0});
}

TEST_P(CheckedMode, MisalignedVload) {
  cl_kernel k = kernel("misaligned_vload");
  arg(k, 0, buffer(std::vector<float>(16 * 4 + 4)));
  arg(k, 1, buffer(std::vector<float>(16 * 4)));
  expectFinding(run(k, {16}, {16}), "misaligned", "misaligned_vload", {0, 0, 0});
}

TEST_P(CheckedMode, MisalignedStore) {
  cl_kernel k = kernel("misaligned_store");
  arg(k, 0, buffer(std::vector<char>(4 * 16 + 8)));
  expectFinding(run(k, {16}, {16}), "misaligned", "misaligned_store", {0, 0, 0});
}

} // namespace
} // namespace lanewise::test
