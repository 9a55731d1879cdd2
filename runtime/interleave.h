// Between memory, where lane l's vector of n components lies at base + l *
// n elements, and varying registers, where component c of lane l is at
// c * width + l: the transposition that consecutive vector loads and stores
// (vload4, float4 *) need.
#pragma once

#include "runtime/shapes.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace lanewise::runtime {

// Four lanes of four 32-bit components at a time are a 4 x 4 transposition
// in SSE2 registers (baseline x86-64); other forms go element by element.
#if defined(__SSE2__)
inline void transpose4x4(__m128i &a, __m128i &b, __m128i &c, __m128i &d) {
  const __m128i ab0 = _mm_unpacklo_epi32(a, b), cd0 = _mm_unpacklo_epi32(c, d);
  const __m128i ab1 = _mm_unpackhi_epi32(a, b), cd1 = _mm_unpackhi_epi32(c, d);
  a = _mm_unpacklo_epi64(ab0, cd0);
  b = _mm_unpackhi_epi64(ab0, cd0);
  c = _mm_unpacklo_epi64(ab1, cd1);
  d = _mm_unpackhi_epi64(ab1, cd1);
}
#endif

template <std::uint32_t Bytes>
inline void deinterleave(BitsT<Bytes> *r, const std::byte *base, std::uint32_t components,
                        std::uint32_t lanes, std::uint32_t w) {
  std::uint32_t first = 0;
#if defined(__SSE2__)
  if (Bytes == 4 && components == 4)
    for (; first + 4 <= lanes; first += 4) {
      const auto *p = reinterpret_cast<const __m128i *>(base + std::size_t(first) * 16);
      __m128i a = _mm_loadu_si128(p), b = _mm_loadu_si128(p + 1), c = _mm_loadu_si128(p + 2),
              d = _mm_loadu_si128(p + 3);
      transpose4x4(a, b, c, d);
      _mm_storeu_si128(reinterpret_cast<__m128i *>(r + first), a);
      _mm_storeu_si128(reinterpret_cast<__m128i *>(r + w + first), b);
      _mm_storeu_si128(reinterpret_cast<__m128i *>(r + 2 * w + first), c);
      _mm_storeu_si128(reinterpret_cast<__m128i *>(r + 3 * w + first), d);
    }
#endif
  for (std::uint32_t c = 0; c < components; ++c)
    for (std::uint32_t l = first; l < lanes; ++l)
      std::memcpy(&r[c * w + l], base + (std::size_t(l) * components + c) * Bytes, Bytes);
}

template <std::uint32_t Bytes>
inline void interleave(std::byte *base, const BitsT<Bytes> *value, std::uint32_t components,
                       std::uint32_t lanes, std::uint32_t w) {
  std::uint32_t first = 0;
#if defined(__SSE2__)
  if (Bytes == 4 && components == 4)
    for (; first + 4 <= lanes; first += 4) {
      __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i *>(value + first)),
              b = _mm_loadu_si128(reinterpret_cast<const __m128i *>(value + w + first)),
              c = _mm_loadu_si128(reinterpret_cast<const __m128i *>(value + 2 * w + first)),
              d = _mm_loadu_si128(reinterpret_cast<const __m128i *>(value + 3 * w + first));
      transpose4x4(a, b, c, d);
      auto *p = reinterpret_cast<__m128i *>(base + std::size_t(first) * 16);
      _mm_storeu_si128(p, a);
      _mm_storeu_si128(p + 1, b);
      _mm_storeu_si128(p + 2, c);
      _mm_storeu_si128(p + 3, d);
    }
#endif
  for (std::uint32_t c = 0; c < components; ++c)
    for (std::uint32_t l = first; l < lanes; ++l)
      std::memcpy(base + (std::size_t(l) * components + c) * Bytes, &value[c * w + l], Bytes);
}

} // namespace lanewise::runtime
