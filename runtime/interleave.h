// SPDX-License-Identifier: Apache-2.0
// Between memory, where lane l's vector of n components lies at base + l *
// n elements, and varying registers, where component c of lane l is at
// c * width + l: the transposition that consecutive vector loads and stores
// (vload4, float4 *, vload_half8) need.
#pragma once

#include "runtime/shapes.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#include <immintrin.h>
#endif

namespace lanewise::runtime {

// In SSE2 registers (baseline x86-64), S lanes of S components of 16 / S
// bytes are one S x S transposition of 128-bit rows: 2 x 2 of 64-bit, 4 x 4
// of 32-bit, 8 x 8 of 16-bit elements. A transposition is its own inverse,
// so loads and stores share it. Vectors whose component count is a
// multiple of S go a block at a time; the rest element by element.
#if defined(__SSE2__)
template <std::uint32_t S> inline void transpose(__m128i *v) {
  if constexpr (S == 2) {
    const __m128i a = _mm_unpacklo_epi64(v[0], v[1]), b = _mm_unpackhi_epi64(v[0], v[1]);
    v[0] = a;
    v[1] = b;
  } else if constexpr (S == 4) {
    const __m128i ab0 = _mm_unpacklo_epi32(v[0], v[1]), cd0 = _mm_unpacklo_epi32(v[2], v[3]);
    const __m128i ab1 = _mm_unpackhi_epi32(v[0], v[1]), cd1 = _mm_unpackhi_epi32(v[2], v[3]);
    v[0] = _mm_unpacklo_epi64(ab0, cd0);
    v[1] = _mm_unpackhi_epi64(ab0, cd0);
    v[2] = _mm_unpacklo_epi64(ab1, cd1);
    v[3] = _mm_unpackhi_epi64(ab1, cd1);
  } else {
    static_assert(S == 8);
    __m128i t[8], u[8];
    for (int k = 0; k < 8; k += 2) {
      t[k / 2] = _mm_unpacklo_epi16(v[k], v[k + 1]);     // components 0-3 of lanes k, k+1
      t[k / 2 + 4] = _mm_unpackhi_epi16(v[k], v[k + 1]); // components 4-7
    }
    for (int h = 0; h < 8; h += 4) {
      u[h + 0] = _mm_unpacklo_epi32(t[h + 0], t[h + 1]); // components 0-1 (4-5) of lanes 0-3
      u[h + 1] = _mm_unpackhi_epi32(t[h + 0], t[h + 1]); // 2-3 (6-7) of lanes 0-3
      u[h + 2] = _mm_unpacklo_epi32(t[h + 2], t[h + 3]); // 0-1 (4-5) of lanes 4-7
      u[h + 3] = _mm_unpackhi_epi32(t[h + 2], t[h + 3]); // 2-3 (6-7) of lanes 4-7
    }
    for (int h = 0; h < 8; h += 4) {
      v[h + 0] = _mm_unpacklo_epi64(u[h + 0], u[h + 2]);
      v[h + 1] = _mm_unpackhi_epi64(u[h + 0], u[h + 2]);
      v[h + 2] = _mm_unpacklo_epi64(u[h + 1], u[h + 3]);
      v[h + 3] = _mm_unpackhi_epi64(u[h + 1], u[h + 3]);
    }
  }
}

// The 4 x 4 transposition of 32-bit elements in each 128-bit half of
// four 256-bit registers at once.
[[gnu::target("avx2")]] inline void transposeHalves(__m256i *v) {
  const __m256i ab0 = _mm256_unpacklo_epi32(v[0], v[1]), cd0 = _mm256_unpacklo_epi32(v[2], v[3]);
  const __m256i ab1 = _mm256_unpackhi_epi32(v[0], v[1]), cd1 = _mm256_unpackhi_epi32(v[2], v[3]);
  v[0] = _mm256_unpacklo_epi64(ab0, cd0);
  v[1] = _mm256_unpackhi_epi64(ab0, cd0);
  v[2] = _mm256_unpacklo_epi64(ab1, cd1);
  v[3] = _mm256_unpackhi_epi64(ab1, cd1);
}

// Eight lanes of 4 x 32-bit vectors at a time in 256-bit registers: lanes
// k and k + 4 share register k (low and high half), so that the 4 x 4
// transposition of both halves at once leaves component c of the eight
// lanes in register c. Half as many shuffles and register stores as
// transpose<4>. Lanes [0, result), in blocks of 8; only where the
// processor has AVX2 (handlerIsa()). Addresses are stepped, not
// multiplied: a block's lanes are at memory + {0, 1, 2, 3} x laneBytes and
// 4 x laneBytes further.

// Registers from memory: component rows r + c x w.
template <typename Components>
[[gnu::target("avx2")]] inline std::uint32_t loadBlocks8(std::uint32_t *r, const std::byte *base,
                                                         Components components, std::uint32_t lanes,
                                                         std::uint32_t w, std::int64_t laneBytes) {
  const std::int64_t lane1 = laneBytes, lane3 = 3 * laneBytes, lane4 = 4 * laneBytes;
  const std::size_t row1 = std::size_t(w) * 4, row3 = 3 * row1, row4 = 4 * row1;
  std::uint32_t first = 0;
  for (; first + 8 <= lanes; first += 8, base += 2 * lane4, r += 8) {
    const std::byte *vectors = base;
    auto *rows = reinterpret_cast<std::byte *>(r);
    for (std::uint32_t j = 0; j < std::uint32_t(components); j += 4, vectors += 16, rows += row4) {
      const std::byte *const high = vectors + lane4;
      const std::byte *const inMemory[8] = {
          vectors, vectors + lane1, vectors + 2 * lane1, vectors + lane3,
          high,    high + lane1,    high + 2 * lane1,    high + lane3};
      std::byte *const inRegister[4] = {rows, rows + row1, rows + 2 * row1, rows + row3};
      __m256i v[4];
      for (std::uint32_t k = 0; k < 4; ++k)
        v[k] = _mm256_inserti128_si256(
            _mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i *>(inMemory[k]))),
            _mm_loadu_si128(reinterpret_cast<const __m128i *>(inMemory[k + 4])), 1);
      transposeHalves(v);
      for (std::uint32_t k = 0; k < 4; ++k)
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(inRegister[k]), v[k]);
    }
  }
  return first;
}

// Memory from rows: lane l's record, at base + l x laneBytes, is elements
// 0 .. 4 x chunks - 1, and element e of lane l is rows[e][l] (a register's
// component rows, or the rows of several registers: a record store's
// parts). Stream: 16 bytes at a time past the caches (base and laneBytes
// multiples of 16; the caller orders the stores with _mm_sfence).
template <bool Stream, typename Chunks>
[[gnu::target("avx2")]] inline std::uint32_t
storeRecords8(std::byte *base, const std::uint32_t *const *rows, Chunks chunks, std::uint32_t lanes,
              std::int64_t laneBytes) {
  const std::int64_t lane1 = laneBytes, lane3 = 3 * laneBytes, lane4 = 4 * laneBytes;
  std::uint32_t first = 0;
  for (; first + 8 <= lanes; first += 8, base += 2 * lane4) {
    std::byte *chunk = base;
    for (std::uint32_t q = 0; q < std::uint32_t(chunks); ++q, chunk += 16) {
      const std::uint32_t *const *row = rows + 4 * q;
      __m256i v[4];
      for (std::uint32_t k = 0; k < 4; ++k)
        v[k] = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(row[k] + first));
      transposeHalves(v);
      std::byte *const high = chunk + lane4;
      std::byte *const inMemory[8] = {chunk, chunk + lane1, chunk + 2 * lane1, chunk + lane3,
                                      high,  high + lane1,  high + 2 * lane1,  high + lane3};
      for (std::uint32_t k = 0; k < 4; ++k) {
        const __m128i low = _mm256_castsi256_si128(v[k]), up = _mm256_extracti128_si256(v[k], 1);
        if constexpr (Stream) {
          _mm_stream_si128(reinterpret_cast<__m128i *>(inMemory[k]), low);
          _mm_stream_si128(reinterpret_cast<__m128i *>(inMemory[k + 4]), up);
        } else {
          _mm_storeu_si128(reinterpret_cast<__m128i *>(inMemory[k]), low);
          _mm_storeu_si128(reinterpret_cast<__m128i *>(inMemory[k + 4]), up);
        }
      }
    }
  }
  return first;
}

// Either way between memory and a register's component rows (r + c x w).
template <bool Store, bool Stream, typename Components>
[[gnu::target("avx2")]] inline std::uint32_t
transposeBlocks8(std::uint32_t *r, std::byte *base, Components components, std::uint32_t lanes,
                 std::uint32_t w, std::int64_t laneBytes) {
  if constexpr (!Store) {
    return loadBlocks8(r, base, components, lanes, w, laneBytes);
  } else {
    const std::uint32_t *rows[16];
    for (std::uint32_t c = 0; c < std::uint32_t(components); ++c)
      rows[c] = r + std::size_t(c) * w;
    if constexpr (std::is_same_v<Components, std::uint32_t>)
      return storeRecords8<Stream>(base, rows, components / 4, lanes, laneBytes);
    else
      return storeRecords8<Stream>(base, rows,
                                   std::integral_constant<std::uint32_t, Components::value / 4>(),
                                   lanes, laneBytes);
  }
}

// Lanes [0, result) of registers `r` from memory `base`, or into memory
// when Store: whole blocks of S lanes. Lane l's vector is at base + l *
// laneBytes (0: packed, components * Bytes). Stream: a Store with
// non-temporal stores, `base` and laneBytes multiples of 16.
template <std::uint32_t Bytes, bool Store, bool Stream = false>
inline std::uint32_t transposeBlocks(BitsT<Bytes> *r, std::byte *base, std::uint32_t components,
                                     std::uint32_t lanes, std::uint32_t w,
                                     std::int64_t laneBytes = 0) {
  constexpr std::uint32_t S = 16 / Bytes;
  if constexpr (S != 2 && S != 4 && S != 8) {
    return 0;
  } else {
    if (components % S != 0)
      return 0;
    if (laneBytes == 0)
      laneBytes = std::int64_t(components) * Bytes;
    std::uint32_t first = 0;
    if constexpr (S == 4)
      if (handlerIsa() == Isa::Avx2 && components <= 16) {
        // Four components (float4, int4) with the count known at compile time.
        first = components == 4
                    ? transposeBlocks8<Store, Stream>(
                          r, base, std::integral_constant<std::uint32_t, 4>(), lanes, w, laneBytes)
                    : transposeBlocks8<Store, Stream>(r, base, components, lanes, w, laneBytes);
        r += first;
        base += first * laneBytes;
        lanes -= first;
      }
    // Pointers stepped from block to block: no multiplication per lane.
    std::int64_t laneOffset[S];
    for (std::uint32_t k = 0; k < S; ++k)
      laneOffset[k] = std::int64_t(k) * laneBytes;
    const std::int64_t blockBytes = std::int64_t(S) * laneBytes;
    std::byte *memory = base;
    BitsT<Bytes> *registers = r;
    std::uint32_t done = 0;
    __m128i v[S];
    for (; done + S <= lanes; done += S, memory += blockBytes, registers += S)
      for (std::uint32_t j = 0; j < components; j += S) {
        // Lane first + done + k's components j .. j + S - 1, and component j + k's lanes.
        std::byte *vectors = memory + std::size_t(j) * Bytes;
        BitsT<Bytes> *rows = registers + std::size_t(j) * w;
        auto inMemory = [&](std::uint32_t k) {
          return reinterpret_cast<__m128i *>(vectors + laneOffset[k]);
        };
        auto inRegister = [&](std::uint32_t k) {
          return reinterpret_cast<__m128i *>(rows + std::size_t(k) * w);
        };
        for (std::uint32_t k = 0; k < S; ++k)
          v[k] = _mm_loadu_si128(Store ? inRegister(k) : inMemory(k));
        transpose<S>(v);
        for (std::uint32_t k = 0; k < S; ++k)
          if constexpr (Stream)
            _mm_stream_si128(inMemory(k), v[k]);
          else
            _mm_storeu_si128(Store ? inMemory(k) : inRegister(k), v[k]);
      }
    return first + done;
  }
}
#endif

// Registers from memory: component c of lane l is the element at base +
// (l * components + c) * Bytes.
template <std::uint32_t Bytes>
inline void deinterleave(BitsT<Bytes> *r, const std::byte *base, std::uint32_t components,
                         std::uint32_t lanes, std::uint32_t w) {
  std::uint32_t first = 0;
#if defined(__SSE2__)
  first = transposeBlocks<Bytes, false>(r, const_cast<std::byte *>(base), components, lanes, w);
#endif
  for (std::uint32_t c = 0; c < components; ++c)
    for (std::uint32_t l = first; l < lanes; ++l)
      std::memcpy(&r[c * w + l], base + (std::size_t(l) * components + c) * Bytes, Bytes);
}

// Memory from registers, the other way; past the caches when Stream (the
// caller orders the stores with _mm_sfence).
template <std::uint32_t Bytes, bool Stream = false>
inline void interleave(std::byte *base, const BitsT<Bytes> *value, std::uint32_t components,
                       std::uint32_t lanes, std::uint32_t w) {
  std::uint32_t first = 0;
#if defined(__SSE2__)
  auto *registers = const_cast<BitsT<Bytes> *>(value);
  if (Stream && reinterpret_cast<std::uintptr_t>(base) % 16 == 0)
    first = transposeBlocks<Bytes, true, true>(registers, base, components, lanes, w);
  else
    first = transposeBlocks<Bytes, true>(registers, base, components, lanes, w);
#endif
  for (std::uint32_t c = 0; c < components; ++c)
    for (std::uint32_t l = first; l < lanes; ++l)
      std::memcpy(base + (std::size_t(l) * components + c) * Bytes, &value[c * w + l], Bytes);
}

// `bytes` bytes from `from` to `to`, past the caches where the processor
// can (non-temporal stores of the 16-byte aligned part): for memory that is
// not read again soon. The caller orders the stores with _mm_sfence.
inline void streamCopy(std::byte *to, const std::byte *from, std::size_t bytes) {
#if defined(__SSE2__)
  std::size_t head = (16 - reinterpret_cast<std::uintptr_t>(to) % 16) % 16;
  head = head < bytes ? head : bytes;
  std::memcpy(to, from, head);
  std::size_t done = head;
  for (; done + 16 <= bytes; done += 16)
    _mm_stream_si128(reinterpret_cast<__m128i *>(to + done),
                     _mm_loadu_si128(reinterpret_cast<const __m128i *>(from + done)));
  std::memcpy(to + done, from + done, bytes - done);
#else
  std::memcpy(to, from, bytes);
#endif
}

} // namespace lanewise::runtime
