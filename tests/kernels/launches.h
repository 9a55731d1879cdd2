// SPDX-License-Identifier: Apache-2.0
// The launch shapes of the kernel tests of whole-warp fast paths (memory
// order, composed shuffles, streamed and record stores): whole warps;
// groups that do not fill a warp or leave a partial last one; groups of one
// and of eight work-items sharing warps; a global offset. And the values
// the store tests fill their buffers with.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace lanewise::test {

struct Launch {
  size_t global, local, offset; // local 0: the implementation chooses
};
inline constexpr Launch launches[] = {{4096, 0, 0}, {4096, 256, 0}, {1000, 100, 0},  {1000, 250, 0},
                                      {3000, 1, 0}, {4096, 8, 0},   {2048, 128, 64}, {130, 0, 0}};

// "-O2, global 1000 local 100 offset 0": a launch in a failure message.
inline std::string where(const std::string &variant, const Launch &l) {
  return (variant.empty() ? "-O2" : variant) + ", global " + std::to_string(l.global) + " local " +
         (l.local ? std::to_string(l.local) : std::string("(any)")) + " offset " +
         std::to_string(l.offset);
}

// Values whose sums, differences and small multiples stay in range for the
// signed types (overflow is undefined in OpenCL C) and are exact in float;
// floats of every sign, never zero.
template <typename T> std::vector<T> randomValues(size_t count, std::mt19937_64 &random) {
  std::vector<T> out(count);
  for (T &e : out) {
    if constexpr (std::is_floating_point_v<T>)
      e = T((std::int64_t(random() % 2000001) - 1000000) | 1) / T(64);
    else if constexpr (std::is_signed_v<T>)
      e = T(std::int64_t(random() % 20001) - 10000);
    else
      e = T(random());
  }
  return out;
}

} // namespace lanewise::test
