// SPDX-License-Identifier: Apache-2.0
// InlineFunction and InlineArray: what they hold lives exactly as long as
// they do, inline or on the heap, across moves.
#include "icd/inline_array.h"
#include "icd/inline_function.h"

#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <string>

namespace {

using lanewise::icd::InlineArray;
using lanewise::icd::InlineFunction;

// Counts the live copies of itself.
struct Tracked {
  static inline int live = 0;
  int value = 7;
  Tracked() { ++live; }
  explicit Tracked(int v) : value(v) { ++live; }
  Tracked(const Tracked &other) : value(other.value) { ++live; }
  Tracked(Tracked &&other) noexcept : value(other.value) { ++live; }
  Tracked &operator=(const Tracked &) = default;
  Tracked &operator=(Tracked &&) noexcept = default;
  ~Tracked() { --live; }
};

class InlineStorage : public ::testing::Test {
protected:
  void SetUp() override { Tracked::live = 0; }
  void TearDown() override { EXPECT_EQ(Tracked::live, 0) << "a held object leaked or died twice"; }
};

TEST_F(InlineStorage, FunctionCallsWhatItHoldsInlineAndOnTheHeap) {
  Tracked small(3);
  InlineFunction<int(int), 64> inlineHeld = [small](int x) { return small.value + x; };
  std::array<char, 200> padding{};
  padding[199] = 5;
  InlineFunction<int(int), 64> heapHeld = [padding, small](int x) {
    return padding[199] + small.value + x;
  };
  EXPECT_EQ(inlineHeld(1), 4);
  EXPECT_EQ(heapHeld(1), 9);
  EXPECT_EQ(Tracked::live, 3); // `small` and the copy in each function
}

TEST_F(InlineStorage, FunctionMovesAndReleasesWhatItHolds) {
  for (bool onHeap : {false, true}) {
    SCOPED_TRACE(onHeap ? "on the heap" : "inline");
    {
      InlineFunction<int(), 32> first;
      EXPECT_FALSE(first);
      if (onHeap)
        first = [held = Tracked(11), padding = std::array<char, 64>{}] {
          return held.value + padding[0];
        };
      else
        first = [held = Tracked(11)] { return held.value; };
      EXPECT_EQ(Tracked::live, 1);
      InlineFunction<int(), 32> second = std::move(first);
      EXPECT_FALSE(first);
      ASSERT_TRUE(second);
      EXPECT_EQ(second(), 11);
      EXPECT_EQ(Tracked::live, 1);
      InlineFunction<int(), 32> third = [held = Tracked(2)] { return held.value; };
      third = std::move(second); // releases the 2, takes the 11
      EXPECT_EQ(third(), 11);
      EXPECT_EQ(Tracked::live, 1);
      third = nullptr;
      EXPECT_FALSE(third);
      EXPECT_EQ(Tracked::live, 0);
      third = [held = Tracked(5)] { return held.value; };
    }
    EXPECT_EQ(Tracked::live, 0);
  }
}

TEST_F(InlineStorage, FunctionHoldsMoveOnlyCallables) {
  auto owned = std::make_unique<int>(42);
  InlineFunction<int(), 16> function = [owned = std::move(owned)] { return *owned; };
  InlineFunction<int(), 16> moved = std::move(function);
  EXPECT_EQ(moved(), 42);
}

TEST_F(InlineStorage, ArrayMakesOnlyItsElements) {
  {
    InlineArray<Tracked, 4> three(3);
    EXPECT_EQ(three.size(), 3u);
    EXPECT_EQ(Tracked::live, 3);
    for (const Tracked &t : three.span())
      EXPECT_EQ(t.value, 7);
    InlineArray<Tracked, 4> none;
    EXPECT_EQ(none.size(), 0u);
    EXPECT_EQ(Tracked::live, 3);
  }
  EXPECT_EQ(Tracked::live, 0);
}

TEST_F(InlineStorage, ArrayBeyondItsCapacityGoesToTheHeap) {
  InlineArray<Tracked, 2> five(5);
  EXPECT_EQ(five.size(), 5u);
  EXPECT_EQ(Tracked::live, 5);
  for (std::size_t i = 0; i < five.size(); ++i)
    five[i].value = static_cast<int>(i);
  InlineArray<Tracked, 2> moved(std::move(five));
  EXPECT_EQ(five.size(), 0u); // its heap was taken
  EXPECT_EQ(Tracked::live, 5);
  for (std::size_t i = 0; i < moved.size(); ++i)
    EXPECT_EQ(moved[i].value, static_cast<int>(i));
}

TEST_F(InlineStorage, ArrayMovesInlineElements) {
  InlineArray<std::string, 4> words(2);
  words[0] = std::string(100, 'a'); // a string that owns heap memory
  words[1] = "b";
  InlineArray<std::string, 4> moved(std::move(words));
  ASSERT_EQ(moved.size(), 2u);
  EXPECT_EQ(moved[0], std::string(100, 'a'));
  EXPECT_EQ(moved[1], "b");
  InlineArray<std::string, 4> assigned(1);
  assigned = std::move(moved);
  ASSERT_EQ(assigned.size(), 2u);
  EXPECT_EQ(assigned[0].size(), 100u);
}

} // namespace
