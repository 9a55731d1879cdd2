// The launch shapes of the kernel tests of whole-warp fast paths (memory
// order, composed shuffles, streamed stores): whole warps; groups that do
// not fill a warp or leave a partial last one; groups of one and of eight
// work-items sharing warps; a global offset.
#pragma once

#include <cstddef>
#include <string>

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

} // namespace lanewise::test
