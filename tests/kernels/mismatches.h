// SPDX-License-Identifier: Apache-2.0
// Reports the first few mismatches of a check in full, then how many there
// were in all: each add() is a test failure.
#pragma once

#include <gtest/gtest.h>

#include <string>

namespace lanewise::test {

struct Mismatches {
  std::string what;
  long count = 0;
  ~Mismatches() {
    if (count > shown)
      ADD_FAILURE() << what << ": " << count << " mismatches in all";
  }
  template <typename F> void add(F describe) {
    if (++count <= shown)
      ADD_FAILURE() << what << ": " << describe();
  }
  static constexpr long shown = 8;
};

} // namespace lanewise::test
