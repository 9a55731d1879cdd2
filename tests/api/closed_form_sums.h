// SPDX-License-Identifier: Apache-2.0
// The loops of tests/kernels/cl/closed_forms.cl and closed_form_sum.cl, run
// on the host in the kernel's type: the expected values of the kernels
// that clang -O2 turns into closed forms computed one bit wider.
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>

namespace lanewise::test {

// Sums over i below `count`: of i (from 1), of i², of i³, and of 7i - 5
// for i from `count` down by 3 while above 3.
template <typename T> std::array<T, 4> sumsOf(T count) {
  // Unsigned types wrap: computed in 64 bits and truncated, which is the
  // same modulo 2^n and never overflows a promoted int on the host.
  using W = std::conditional_t<std::is_signed_v<T>, T, std::uint64_t>;
  T a = 0, b = 0, d = 0, e = 0;
  for (T i = 1; i < count; i++)
    a = T(W(a) + W(i));
  for (T i = 0; i < count; i++)
    b = T(W(b) + W(i) * W(i));
  for (T i = 0; i < count; i++)
    d = T(W(d) + W(i) * W(i) * W(i));
  for (T i = count; i > 3; i = T(i - 3))
    e = T(W(e) + W(i) * 7 - 5);
  return {a, b, d, e};
}

} // namespace lanewise::test
