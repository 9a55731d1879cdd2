// SPDX-License-Identifier: Apache-2.0
// shuffle and shuffle2 (OpenCL C 3.0, 6.15.12; OpenCL.std 182 and 183):
// permutations of the components of one or two vectors, per work-item.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace lanewise::builtins {

// The component of the input a mask element selects. Only the
// ilogb(2m - 1) low bits of each mask element count for shuffle, and
// ilogb(2m - 1) + 1 for shuffle2, where m (a power of two) is the input's
// length; shuffle2 numbers the components of x, then those of y.
template <typename Mask>
constexpr std::uint32_t shuffleIndex(Mask mask, std::uint32_t inputLength, bool twoInputs) {
  const std::uint64_t keep = (twoInputs ? 2 * inputLength : inputLength) - 1;
  return static_cast<std::uint32_t>(static_cast<std::uint64_t>(mask) & keep);
}

// out(i, lane) = (x|y)(shuffleIndex(mask(i, lane)), lane) for the lanes
// [0, lanes) that `active` marks (every lane when it is null). Registers are
// component-major: component c of lane l is at c * stride + l, where a
// uniform register has stride 1 and only lane 0.
template <typename T, typename Mask> struct ShuffleOperands {
  T *out;
  const T *x, *y;
  const Mask *mask;
  std::uint32_t outStride, xStride, yStride, maskStride; // width, or 1 if uniform
  bool xVarying, yVarying, maskVarying;
};

// out[lane] = row[lane] (row[0] if the row is uniform) for the lanes
// [first, lanes) that `active` marks (every lane when it is null): one
// component of a permutation whose source component is the same on every
// lane.
template <typename T>
void copyLanes(T *out, const T *row, bool varying, std::uint32_t first, std::uint32_t lanes,
               const std::uint8_t *active) {
  if (first >= lanes)
    return;
  if (active) {
    for (std::uint32_t lane = first; lane < lanes; ++lane)
      out[lane] = active[lane] ? row[varying ? lane : 0] : out[lane];
  } else if (varying) {
    std::memmove(out + first, row + first, std::size_t(lanes - first) * sizeof(T));
  } else {
    std::fill(out + first, out + lanes, row[0]);
  }
}

template <typename T, typename Mask>
void shuffleLanes(const ShuffleOperands<T, Mask> &o, std::uint32_t resultLength,
                  std::uint32_t inputLength, bool twoInputs, std::uint32_t first,
                  std::uint32_t lanes, const std::uint8_t *active) {
  if (!o.maskVarying) {
    // One mask for every lane (the usual constant): each result component
    // is one input component, copied row by row.
    for (std::uint32_t i = 0; i < resultLength; ++i) {
      const std::uint32_t k = shuffleIndex(o.mask[i * o.maskStride], inputLength, twoInputs);
      const bool fromX = k < inputLength;
      const T *row = fromX ? o.x + k * o.xStride : o.y + (k - inputLength) * o.yStride;
      copyLanes(o.out + i * o.outStride, row, fromX ? o.xVarying : o.yVarying, first, lanes,
                active);
    }
    return;
  }
  for (std::uint32_t lane = first; lane < lanes; ++lane) {
    if (active && !active[lane])
      continue;
    for (std::uint32_t i = 0; i < resultLength; ++i) {
      const Mask m = o.mask[i * o.maskStride + (o.maskVarying ? lane : 0)];
      const std::uint32_t k = shuffleIndex(m, inputLength, twoInputs);
      o.out[i * o.outStride + lane] =
          k < inputLength ? o.x[k * o.xStride + (o.xVarying ? lane : 0)]
                          : o.y[(k - inputLength) * o.yStride + (o.yVarying ? lane : 0)];
    }
  }
}

} // namespace lanewise::builtins
