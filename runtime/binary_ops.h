// SPDX-License-Identifier: Apache-2.0
// The scalar semantics of SPIR-V's binary instructions (SPIR-V 1.4,
// 3.37.13 to 3.37.15), element by element: what the arithmetic handlers
// (exec_arithmetic.cpp) and the streamed stores (exec_affine.cpp) compute.
#pragma once

#include "runtime/handlers.h"
#include "runtime/shapes.h"

#include <cmath>
#include <cstdint>
#include <type_traits>

namespace lanewise::runtime::binary_ops {

template <typename T> using Signed = std::make_signed_t<T>;

// a * b modulo 2^N, as SPIR-V's OpIMul: computed unsigned, where a signed
// product, or the int that C++ promotes 16-bit values to (65535 * 65535),
// could overflow. (T may also be a vector of the compiler's, whose
// arithmetic wraps.)
template <typename T> T wrappingProduct(T a, T b) {
  if constexpr (std::is_integral_v<T> && sizeof(T) < sizeof(unsigned))
    return T(unsigned(a) * unsigned(b));
  else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>)
    return T(std::make_unsigned_t<T>(a) * std::make_unsigned_t<T>(b));
  else
    return T(a * b);
}

template <typename T> T floatRemainder(T a, T b, bool signOfDivisor) {
  if constexpr (std::is_same_v<T, half>) {
    return T(floatRemainder<float>(float(a), float(b), signOfDivisor));
  } else {
    T r = std::fmod(a, b);
    // OpFMod: the result takes the sign of the divisor.
    if (signOfDivisor && r != 0 && (r < 0) != (b < 0))
      r += b;
    return r;
  }
}

template <typename T> bool isNan(T a) { return a != a; }

template <typename T, BinaryOp Op> constexpr bool validBinary() {
  using enum BinaryOp;
  if constexpr (Op >= LogicalEqual)
    return std::is_same_v<T, std::uint8_t>;
  else if constexpr ((Op >= FAdd && Op <= FMod) || (Op >= FOrdEqual && Op <= Unordered))
    return isFloat<T>;
  else
    return std::is_integral_v<T>;
}

template <typename T, BinaryOp Op> inline auto apply(T a, T b) {
  using enum BinaryOp;
  constexpr unsigned bits = sizeof(T) * 8;
  if constexpr (Op == IAdd)
    return T(a + b);
  else if constexpr (Op == ISub)
    return T(a - b);
  else if constexpr (Op == IMul)
    return wrappingProduct(a, b);
  // Division by zero and INT_MIN / -1 are undefined in OpenCL C; they must
  // not stop the process, so they give 0 and INT_MIN.
  else if constexpr (Op == UDiv)
    return T(b ? a / b : 0);
  else if constexpr (Op == UMod)
    return T(b ? a % b : 0);
  else if constexpr (Op == SDiv || Op == SRem || Op == SMod) {
    const Signed<T> x = Signed<T>(a), y = Signed<T>(b);
    if (y == 0)
      return T(0);
    if (y == -1)
      return Op == SDiv ? T(T(0) - a) : T(0);
    if constexpr (Op == SDiv)
      return T(x / y);
    Signed<T> r = Signed<T>(x % y);
    if constexpr (Op == SMod)
      if (r != 0 && (r < 0) != (y < 0))
        r = Signed<T>(r + y);
    return T(r);
  }
  // OpenCL C takes shift counts modulo the width (6.15.? "shift operators").
  else if constexpr (Op == ShiftLeftLogical)
    return T(a << (b & (bits - 1)));
  else if constexpr (Op == ShiftRightLogical)
    return T(a >> (b & (bits - 1)));
  else if constexpr (Op == ShiftRightArithmetic)
    return T(Signed<T>(a) >> (b & (bits - 1)));
  else if constexpr (Op == BitwiseAnd)
    return T(a & b);
  else if constexpr (Op == BitwiseOr)
    return T(a | b);
  else if constexpr (Op == BitwiseXor)
    return T(a ^ b);
  else if constexpr (Op == FAdd)
    return T(a + b);
  else if constexpr (Op == FSub)
    return T(a - b);
  else if constexpr (Op == FMul)
    return T(a * b);
  else if constexpr (Op == FDiv)
    return T(a / b);
  else if constexpr (Op == FRem)
    return floatRemainder(a, b, false);
  else if constexpr (Op == FMod)
    return floatRemainder(a, b, true);
  else if constexpr (Op == IEqual)
    return std::uint8_t(a == b);
  else if constexpr (Op == INotEqual)
    return std::uint8_t(a != b);
  else if constexpr (Op == UGreaterThan)
    return std::uint8_t(a > b);
  else if constexpr (Op == SGreaterThan)
    return std::uint8_t(Signed<T>(a) > Signed<T>(b));
  else if constexpr (Op == UGreaterThanEqual)
    return std::uint8_t(a >= b);
  else if constexpr (Op == SGreaterThanEqual)
    return std::uint8_t(Signed<T>(a) >= Signed<T>(b));
  else if constexpr (Op == ULessThan)
    return std::uint8_t(a < b);
  else if constexpr (Op == SLessThan)
    return std::uint8_t(Signed<T>(a) < Signed<T>(b));
  else if constexpr (Op == ULessThanEqual)
    return std::uint8_t(a <= b);
  else if constexpr (Op == SLessThanEqual)
    return std::uint8_t(Signed<T>(a) <= Signed<T>(b));
  // Ordered comparisons are false when either operand is NaN, unordered ones
  // true (SPIR-V 1.4, OpFOrd* and OpFUnord*).
  else if constexpr (Op == FOrdEqual)
    return std::uint8_t(a == b);
  else if constexpr (Op == FUnordEqual)
    return std::uint8_t(!(a < b || a > b));
  else if constexpr (Op == FOrdNotEqual || Op == LessOrGreater)
    return std::uint8_t(a < b || a > b);
  else if constexpr (Op == FUnordNotEqual)
    return std::uint8_t(a != b);
  else if constexpr (Op == FOrdLessThan)
    return std::uint8_t(a < b);
  else if constexpr (Op == FUnordLessThan)
    return std::uint8_t(!(a >= b));
  else if constexpr (Op == FOrdGreaterThan)
    return std::uint8_t(a > b);
  else if constexpr (Op == FUnordGreaterThan)
    return std::uint8_t(!(a <= b));
  else if constexpr (Op == FOrdLessThanEqual)
    return std::uint8_t(a <= b);
  else if constexpr (Op == FUnordLessThanEqual)
    return std::uint8_t(!(a > b));
  else if constexpr (Op == FOrdGreaterThanEqual)
    return std::uint8_t(a >= b);
  else if constexpr (Op == FUnordGreaterThanEqual)
    return std::uint8_t(!(a < b));
  else if constexpr (Op == Ordered)
    return std::uint8_t(!isNan(a) && !isNan(b));
  else if constexpr (Op == Unordered)
    return std::uint8_t(isNan(a) || isNan(b));
  else if constexpr (Op == LogicalEqual)
    return std::uint8_t((a != 0) == (b != 0));
  else if constexpr (Op == LogicalNotEqual)
    return std::uint8_t((a != 0) != (b != 0));
  else if constexpr (Op == LogicalAnd)
    return std::uint8_t(a && b);
  else
    return std::uint8_t(a || b);
}

} // namespace lanewise::runtime::binary_ops
