// Conversion instructions (SPIR-V 1.4, 3.37.11) with the OpenCL rounding and
// saturation rules (OpenCL C 3.0, 6.4.3; OpenCL SPIR-V environment, 2.9).
#include "runtime/handlers.h"
#include "runtime/shapes.h"

#include <cfenv>
#include <cmath>
#include <limits>

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
      if constexpr (std::is_same_v<F, half> && std::is_floating_point_v<T>)
        return shaped1<WidenHalf<T>>(shape); // exact: no rounding, no saturation
      if (rounding == Rounding::Default && !saturate)
        return shaped1<ConvertPlain<F, T>>(shape);
      return shaped1<Convert<F, T>>(shape);
    });
  });
}

} // namespace lanewise::runtime
