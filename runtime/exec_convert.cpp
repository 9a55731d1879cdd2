// SPDX-License-Identifier: Apache-2.0
// Conversion instructions (SPIR-V 1.4, 3.37.11) with the OpenCL rounding and
// saturation rules (OpenCL C 3.0, 6.4.3; OpenCL SPIR-V environment, 2.9).
#include "runtime/handlers.h"
#include "runtime/isa.h"
#include "runtime/shapes.h"

#include <algorithm>
#include <bit>
#include <cfenv>
#include <cmath>
#include <limits>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace lanewise::runtime {

namespace {

template <typename F> auto withNumeric(NumericType t, F &&f) {
  switch (t.scalar) {
  case Scalar::Bool:
  case Scalar::I8:
    return t.isSigned ? f.template operator()<std::int8_t>() : f.template operator()<std::uint8_t>();
  case Scalar::I16:
    return t.isSigned ? f.template operator()<std::int16_t>()
                      : f.template operator()<std::uint16_t>();
  case Scalar::I32:
    return t.isSigned ? f.template operator()<std::int32_t>()
                      : f.template operator()<std::uint32_t>();
  case Scalar::I64:
    return t.isSigned ? f.template operator()<std::int64_t>()
                      : f.template operator()<std::uint64_t>();
  case Scalar::I128:
    return t.isSigned ? f.template operator()<__int128>()
                      : f.template operator()<unsigned __int128>();
  case Scalar::F16:
    return f.template operator()<half>();
  case Scalar::F32:
    return f.template operator()<float>();
  case Scalar::F64:
    return f.template operator()<double>();
  }
  return f.template operator()<std::uint32_t>();
}

template <typename T> constexpr double lowest() {
  if constexpr (std::is_same_v<T, half>)
    return -65504.0;
  else
    return double(std::numeric_limits<T>::lowest());
}

// Rounds a floating-point value to an integer in the given mode.
template <typename F> double roundToInteger(F value, Rounding rounding) {
  const double v = double(value);
  switch (rounding) {
  case Rounding::RTE:
    return std::nearbyint(v); // the default environment rounds to nearest even
  case Rounding::RTP:
    return std::ceil(v);
  case Rounding::RTN:
    return std::floor(v);
  default:
    return std::trunc(v); // C's conversion rule, also OpenCL's default
  }
}

// One element. Conversions from floating point to integer saturate (NaN
// gives 0): the OpenCL C rule for _sat conversions, and a valid choice for
// the others, whose out-of-range results are undefined.
template <typename From, typename To> To convertElement(From v, Rounding rounding, bool saturate) {
  if constexpr (isFloat<From> && std::is_integral_v<To>) {
    if (v != v)
      return To(0);
    const double r = roundToInteger(v, rounding);
    if (r <= double(std::numeric_limits<To>::lowest()))
      return std::numeric_limits<To>::lowest();
    // 2^63 and 2^64 are exact in double; compare against them, not max().
    constexpr double limit = double(std::numeric_limits<To>::max()) + 1.0;
    if (r >= limit)
      return std::numeric_limits<To>::max();
    return To(r);
  } else if constexpr (std::is_integral_v<From> && std::is_integral_v<To>) {
    if (saturate) {
      if constexpr (std::is_signed_v<From>) {
        if (v < 0 && (!std::is_signed_v<To> ||
                      std::intmax_t(v) < std::intmax_t(std::numeric_limits<To>::lowest())))
          return std::numeric_limits<To>::lowest();
      }
      if (v > 0 && std::uintmax_t(v) > std::uintmax_t(std::numeric_limits<To>::max()))
        return std::numeric_limits<To>::max();
    }
    return To(v);
  } else if constexpr (std::is_same_v<From, half> && std::is_floating_point_v<To>) {
    return To(widen(v)); // exact either way
  } else {
    return To(v);
  }
}

int environmentMode(Rounding rounding) {
  switch (rounding) {
  case Rounding::RTZ:
    return FE_TOWARDZERO;
  case Rounding::RTP:
    return FE_UPWARD;
  case Rounding::RTN:
    return FE_DOWNWARD;
  default:
    return FE_TONEAREST;
  }
}

template <typename From, typename To> struct Convert {
  template <bool RV, bool AV> static void run(const Instruction &in, ExecutionState &s) {
    const auto rounding = static_cast<Rounding>(in.aux & 0xff);
    const bool saturate = (in.aux >> 8) & 1;
    // Results that are floating point round in the environment's mode.
    constexpr bool usesEnvironment = isFloat<To> && (std::is_integral_v<From> ||
                                                     sizeof(From) > sizeof(To));
    const int saved = usesEnvironment ? std::fegetround() : 0;
    if constexpr (usesEnvironment)
      if (rounding != Rounding::Default && rounding != Rounding::RTE)
        std::fesetround(environmentMode(rounding));
    elementwise<RV, AV>(s, s.reg<To>(in.result), s.reg<const From>(in.operand[0]), in.components,
                        [&](From v) { return convertElement<From, To>(v, rounding, saturate); });
    if constexpr (usesEnvironment)
      std::fesetround(saved);
  }
};

// The common case: no decoration, C's conversion.
template <typename From, typename To> struct ConvertPlain {
  template <bool RV, bool AV> static void run(const Instruction &in, ExecutionState &s) {
    elementwise<RV, AV>(s, s.reg<To>(in.result), s.reg<const From>(in.operand[0]), in.components,
                        [](From v) {
                          return convertElement<From, To>(v, Rounding::Default, false);
                        });
  }
};

// A float or double narrowed to a half in the given mode, in integer
// operations on its bits: the compiler's own conversion is a library call
// per element on x86-64 without F16C, and a mode other than the
// environment's a change of the environment around the loop. A NaN stays a
// NaN, made quiet, with the high bits of its payload; past the largest half
// the result is infinity or the largest half as the mode rounds.
template <typename F, Rounding Mode> std::uint16_t narrowToHalf(F value) {
  using U = std::conditional_t<sizeof(F) == 4, std::uint32_t, std::uint64_t>;
  constexpr int bits = sizeof(U) * 8;
  constexpr int fractionBits = sizeof(F) == 4 ? 23 : 52;
  constexpr int bias = sizeof(F) == 4 ? 127 : 1023;
  constexpr int drop = fractionBits - 10; // fraction bits a half has not
  constexpr U fractionMask = (U(1) << fractionBits) - 1;
  constexpr U infinity = (~U(0) >> 1) & ~fractionMask;
  const U u = std::bit_cast<U>(value);
  const bool negative = (u >> (bits - 1)) != 0;
  const std::uint16_t sign = negative ? 0x8000 : 0;
  const U a = u & (~U(0) >> 1);
  if (a > infinity)
    return sign | 0x7e00 | std::uint16_t((a >> drop) & 0x3ff);
  const int exponent = int(a >> fractionBits) - bias + 15; // the half's, biased
  if (exponent >= 31) {
    const bool away = Mode == Rounding::RTE || (Mode == Rounding::RTP && !negative) ||
                      (Mode == Rounding::RTN && negative);
    return sign | (a == infinity || away ? 0x7c00 : 0x7bff);
  }
  U result, rest, halfway;
  if (exponent >= 1) { // a normal half
    result = (U(exponent) << 10) | ((a & fractionMask) >> drop);
    rest = a & ((U(1) << drop) - 1);
    halfway = U(1) << (drop - 1);
  } else { // a subnormal half or zero: units of 2^-24
    const U m = (a & fractionMask) | (a > fractionMask ? U(1) << fractionBits : 0);
    const int shift = std::min(drop + 1 - exponent, bits - 1);
    result = m >> shift;
    rest = m & ((U(1) << shift) - 1);
    halfway = U(1) << (shift - 1);
  }
  bool up = false;
  if constexpr (Mode == Rounding::RTE)
    up = rest > halfway || (rest == halfway && (result & 1));
  else if constexpr (Mode == Rounding::RTP)
    up = !negative && rest != 0;
  else if constexpr (Mode == Rounding::RTN)
    up = negative && rest != 0;
  // Rounding up the largest half's neighbourhood carries into infinity.
  return sign | std::uint16_t(result + up);
}

template <typename From, Rounding Mode> struct NarrowToHalf {
  template <bool RV, bool AV> static void run(const Instruction &in, ExecutionState &s) {
    elementwise<RV, AV>(s, s.reg<std::uint16_t>(in.result), s.reg<const From>(in.operand[0]),
                        in.components, [](From v) { return narrowToHalf<From, Mode>(v); });
  }
};

#if defined(__x86_64__)
// With F16C (runtime/isa.h), eight floats become halves in one instruction,
// rounded in the instruction's own mode: the same results as narrowToHalf
// (IEEE 754 conversions; a NaN made quiet keeps the high bits of its
// payload; the environment's DAZ is never set). For the lanes of a dense
// block; the others, and the uniform forms, as the bits are.
template <Rounding Mode> struct NarrowFloatF16c {
  static constexpr int immediate() {
    switch (Mode) {
    case Rounding::RTZ:
      return _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC;
    case Rounding::RTP:
      return _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC;
    case Rounding::RTN:
      return _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC;
    default:
      return _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
    }
  }
  [[gnu::target("avx2,f16c")]] static void run(const Instruction &in, ExecutionState &s) {
    if (!s.dense)
      return NarrowToHalf<float, Mode>::template run<true, true>(in, s);
    const std::uint32_t w = s.width, n = s.span;
    for (std::uint32_t c = 0; c < in.components; ++c) {
      auto *r = s.reg<std::uint16_t>(in.result) + c * w;
      const float *a = s.reg<const float>(in.operand[0]) + c * w;
      std::uint32_t l = 0;
      for (; l + 8 <= n; l += 8)
        _mm_storeu_si128(reinterpret_cast<__m128i *>(r + l),
                         _mm256_cvtps_ph(_mm256_loadu_ps(a + l), immediate()));
      for (; l < n; ++l)
        r[l] = narrowToHalf<float, Mode>(a[l]);
    }
  }
};

// Doubles to halves through floats rounded to odd: the double rounded
// toward zero to a float, its last bit set when that was inexact, and that
// float rounded to a half in the mode. With 13 bits more than a half at
// every magnitude, the float keeps the information the second rounding
// needs, so the result is the double correctly rounded (rounding to odd,
// Boldo and Melquiond 2008). Past the largest float the float is the
// largest float; a NaN keeps the high bits of its payload.
template <Rounding Mode> struct NarrowDoubleF16c {
  // Four 64-bit masks as four 32-bit masks.
  [[gnu::target("avx2,f16c")]] static __m128i narrow(__m256d mask) {
    const __m256i lows = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    return _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(_mm256_castpd_si256(mask), lows));
  }

  [[gnu::target("avx2,f16c")]] static void run(const Instruction &in, ExecutionState &s) {
    if (!s.dense)
      return NarrowToHalf<double, Mode>::template run<true, true>(in, s);
    const std::uint32_t w = s.width, n = s.span;
    const __m256d magnitude = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffff));
    for (std::uint32_t c = 0; c < in.components; ++c) {
      auto *r = s.reg<std::uint16_t>(in.result) + c * w;
      const double *a = s.reg<const double>(in.operand[0]) + c * w;
      std::uint32_t l = 0;
      for (; l + 4 <= n; l += 4) {
        const __m256d d = _mm256_loadu_pd(a + l);
        const __m128 f = _mm256_cvtpd_ps(d); // either neighbour, whatever the mode
        const __m256d back = _mm256_cvtps_pd(f);
        // Above the double in magnitude: one step back toward zero.
        const __m128i above = narrow(
            _mm256_cmp_pd(_mm256_and_pd(back, magnitude), _mm256_and_pd(d, magnitude), _CMP_GT_OQ));
        // Inexact (or NaN): the last bit set.
        const __m128i inexact = narrow(_mm256_cmp_pd(back, d, _CMP_NEQ_UQ));
        const __m128i odd = _mm_or_si128(_mm_add_epi32(_mm_castps_si128(f), above),
                                         _mm_and_si128(inexact, _mm_set1_epi32(1)));
        _mm_storel_epi64(reinterpret_cast<__m128i *>(r + l),
                         _mm_cvtps_ph(_mm_castsi128_ps(odd), NarrowFloatF16c<Mode>::immediate()));
      }
      for (; l < n; ++l)
        r[l] = narrowToHalf<double, Mode>(a[l]);
    }
  }
};

// Halves widened to floats, eight in one instruction (exact; a NaN made
// quiet, as widenBits does).
struct WidenHalfF16c {
  [[gnu::target("avx2,f16c")]] static void run(const Instruction &in, ExecutionState &s) {
    const std::uint32_t w = s.width, n = s.span;
    for (std::uint32_t c = 0; c < in.components; ++c) {
      float *r = s.reg<float>(in.result) + c * w;
      const auto *a = s.reg<const std::uint16_t>(in.operand[0]) + c * w;
      std::uint32_t l = 0;
      for (; l + 8 <= n; l += 8) {
        const __m256 v = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i *>(a + l)));
        if (s.dense) {
          _mm256_storeu_ps(r + l, v);
        } else {
          // The active lanes' bytes (0 or 1) widened to all-ones masks.
          const __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i *>(s.active + l));
          const __m256 mask = _mm256_castsi256_ps(
              _mm256_sub_epi32(_mm256_setzero_si256(), _mm256_cvtepu8_epi32(bytes)));
          _mm256_storeu_ps(r + l, _mm256_blendv_ps(_mm256_loadu_ps(r + l), v, mask));
        }
      }
      for (; l < n; ++l)
        if (s.dense || s.active[l])
          r[l] = widenBits(a[l]);
    }
  }
};
#endif

template <typename From> Handler narrowToHalfHandler(Rounding rounding, const Shape &shape) {
#if defined(__x86_64__)
  // Varying floats or doubles to varying halves: the F16C forms where the
  // process uses AVX2.
  if (shape.result && shape.operand[0] && handlerIsa() == Isa::Avx2) {
    auto f16c = [&]<template <Rounding> typename H>() -> Handler {
      switch (rounding) {
      case Rounding::RTZ:
        return &H<Rounding::RTZ>::run;
      case Rounding::RTP:
        return &H<Rounding::RTP>::run;
      case Rounding::RTN:
        return &H<Rounding::RTN>::run;
      default:
        return &H<Rounding::RTE>::run;
      }
    };
    if constexpr (std::is_same_v<From, float>)
      return f16c.template operator()<NarrowFloatF16c>();
    else
      return f16c.template operator()<NarrowDoubleF16c>();
  }
#endif
  switch (rounding) {
  case Rounding::RTZ: return shaped1<NarrowToHalf<From, Rounding::RTZ>>(shape);
  case Rounding::RTP: return shaped1<NarrowToHalf<From, Rounding::RTP>>(shape);
  case Rounding::RTN: return shaped1<NarrowToHalf<From, Rounding::RTN>>(shape);
  default: return shaped1<NarrowToHalf<From, Rounding::RTE>>(shape); // the default mode
  }
}

// Half to float or double, exact: from the halves' bits, so that the loop
// vectorises.
template <typename To> struct WidenHalf {
  template <bool RV, bool AV> static void run(const Instruction &in, ExecutionState &s) {
    elementwise<RV, AV>(s, s.reg<To>(in.result), s.reg<const std::uint16_t>(in.operand[0]),
                        in.components, [](std::uint16_t h) { return To(widenBits(h)); });
  }
};

} // namespace

Handler convertHandler(NumericType from, NumericType to, Rounding rounding, bool saturate,
                       const Shape &shape) {
  return withNumeric(from, [&]<typename F>() {
    return withNumeric(to, [&]<typename T>() -> Handler {
      if constexpr (std::is_same_v<F, half> && std::is_floating_point_v<T>) {
#if defined(__x86_64__)
        if (std::is_same_v<T, float> && shape.result && shape.operand[0] &&
            handlerIsa() == Isa::Avx2)
          return &WidenHalfF16c::run;
#endif
        return shaped1<WidenHalf<T>>(shape); // exact: no rounding, no saturation
      }
      if constexpr (std::is_floating_point_v<F> && std::is_same_v<T, half>)
        return narrowToHalfHandler<F>(rounding, shape); // no saturation to floats
      if (rounding == Rounding::Default && !saturate)
        return shaped1<ConvertPlain<F, T>>(shape);
      return shaped1<Convert<F, T>>(shape);
    });
  });
}

} // namespace lanewise::runtime
