// SPDX-License-Identifier: Apache-2.0
// Selecting a handler instance by the shape of its registers, and the C++
// types that stand for each Scalar.
#pragma once

#include "runtime/bytecode.h"
#include "runtime/execution.h"
#include "runtime/isa.h"

#include <bit>
#include <cstdint>
#include <type_traits>

namespace lanewise::runtime {

using half = _Float16;

template <Scalar S> struct ScalarType;
template <> struct ScalarType<Scalar::Bool> { using type = std::uint8_t; };
template <> struct ScalarType<Scalar::I8> { using type = std::uint8_t; };
template <> struct ScalarType<Scalar::I16> { using type = std::uint16_t; };
template <> struct ScalarType<Scalar::I32> { using type = std::uint32_t; };
template <> struct ScalarType<Scalar::I64> { using type = std::uint64_t; };
template <> struct ScalarType<Scalar::I128> { using type = unsigned __int128; };
template <> struct ScalarType<Scalar::F16> { using type = half; };
template <> struct ScalarType<Scalar::F32> { using type = float; };
template <> struct ScalarType<Scalar::F64> { using type = double; };
template <Scalar S> using ScalarT = typename ScalarType<S>::type;

template <typename T>
constexpr bool isFloat = std::is_floating_point_v<T> || std::is_same_v<T, half>;

// A half widened to float, exactly, in integer operations and one float
// subtraction, without a branch: a loop of them vectorises (the three forms
// are computed and one is selected), where the compiler's own conversion is
// a library call per element on baseline x86-64. A signalling NaN comes out
// quiet, as the conversion instruction makes it.
inline float widenBits(std::uint16_t h) {
  const std::uint32_t sign = std::uint32_t(h & 0x8000) << 16;
  const std::uint32_t magnitude = std::uint32_t(h & 0x7fff) << 13; // exponent and fraction
  const std::uint32_t exponent = magnitude & 0x0f800000;
  // A normal number: the exponent rebiased from 15 to 127.
  const std::uint32_t normal = magnitude + ((127 - 15) << 23);
  // Infinity or NaN: the largest exponent; a NaN made quiet.
  const std::uint32_t special =
      (normal + ((128 - 16) << 23)) | std::uint32_t((magnitude & 0x007fe000) != 0) << 22;
  // Zero or subnormal: 2^-14 * (1 + f / 2^10) - 2^-14 is f * 2^-24, exact.
  const std::uint32_t small = std::bit_cast<std::uint32_t>(
      std::bit_cast<float>(normal + (1u << 23)) - std::bit_cast<float>(0x38800000u));
  // The selection as masks: the compiler keeps a ?: as a branch.
  const std::uint32_t isSpecial = 0u - std::uint32_t(exponent == 0x0f800000);
  const std::uint32_t isSmall = 0u - std::uint32_t(exponent == 0);
  const std::uint32_t bits =
      (special & isSpecial) | (small & isSmall) | (normal & ~(isSpecial | isSmall));
  return std::bit_cast<float>(bits | sign);
}
// (A loop over _Float16 values does not vectorise on baseline x86-64; one
// over their bits does.)
inline float widen(half value) { return widenBits(std::bit_cast<std::uint16_t>(value)); }

// Unsigned integer type of the given size.
template <std::uint32_t Bytes> struct Bits;
template <> struct Bits<1> { using type = std::uint8_t; };
template <> struct Bits<2> { using type = std::uint16_t; };
template <> struct Bits<4> { using type = std::uint32_t; };
template <> struct Bits<8> { using type = std::uint64_t; };
template <> struct Bits<16> { using type = unsigned __int128; };
template <std::uint32_t Bytes> using BitsT = typename Bits<Bytes>::type;

// Calls f.template operator()<T>() with the C++ type of `s`; returns what f
// returns.
template <typename F> auto withScalar(Scalar s, F &&f) {
  switch (s) {
  case Scalar::Bool:
    return f.template operator()<Scalar::Bool>();
  case Scalar::I8:
    return f.template operator()<Scalar::I8>();
  case Scalar::I16:
    return f.template operator()<Scalar::I16>();
  case Scalar::I32:
    return f.template operator()<Scalar::I32>();
  case Scalar::I64:
    return f.template operator()<Scalar::I64>();
  case Scalar::I128:
    return f.template operator()<Scalar::I128>();
  case Scalar::F16:
    return f.template operator()<Scalar::F16>();
  case Scalar::F32:
    return f.template operator()<Scalar::F32>();
  case Scalar::F64:
    return f.template operator()<Scalar::F64>();
  }
  return f.template operator()<Scalar::I32>();
}

template <typename F> auto withElementBytes(std::uint32_t bytes, F &&f) {
  switch (bytes) {
  case 1:
    return f.template operator()<1>();
  case 2:
    return f.template operator()<2>();
  case 4:
    return f.template operator()<4>();
  case 16:
    return f.template operator()<16>();
  default:
    return f.template operator()<8>();
  }
}

// H::template run<RV, AV> for a one-operand handler family. A uniform result
// needs a uniform operand. A varying result's handler is the form for the
// process's instruction set (runtime/isa.h): its loops over lanes are what
// wider vectors speed up.
template <typename H> Handler shaped1(const Shape &s) {
  if (!s.result)
    return s.operand[0] ? nullptr : &H::template run<false, false>;
  return s.operand[0] ? forIsa<&H::template run<true, true>>()
                      : forIsa<&H::template run<true, false>>();
}

template <typename H> Handler shaped2(const Shape &s) {
  if (!s.result)
    return s.operand[0] || s.operand[1] ? nullptr : &H::template run<false, false, false>;
  if (s.operand[0])
    return s.operand[1] ? forIsa<&H::template run<true, true, true>>()
                        : forIsa<&H::template run<true, true, false>>();
  return s.operand[1] ? forIsa<&H::template run<true, false, true>>()
                      : forIsa<&H::template run<true, false, false>>();
}

template <typename H> Handler shaped3(const Shape &s) {
  if (!s.result)
    return s.operand[0] || s.operand[1] || s.operand[2]
               ? nullptr
               : &H::template run<false, false, false, false>;
  const int key = (s.operand[0] ? 4 : 0) | (s.operand[1] ? 2 : 0) | (s.operand[2] ? 1 : 0);
  switch (key) {
  case 0:
    return forIsa<&H::template run<true, false, false, false>>();
  case 1:
    return forIsa<&H::template run<true, false, false, true>>();
  case 2:
    return forIsa<&H::template run<true, false, true, false>>();
  case 3:
    return forIsa<&H::template run<true, false, true, true>>();
  case 4:
    return forIsa<&H::template run<true, true, false, false>>();
  case 5:
    return forIsa<&H::template run<true, true, false, true>>();
  case 6:
    return forIsa<&H::template run<true, true, true, false>>();
  default:
    return forIsa<&H::template run<true, true, true, true>>();
  }
}

} // namespace lanewise::runtime
