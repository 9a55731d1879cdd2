// SPDX-License-Identifier: Apache-2.0
// Image formats: the texel layout of each channel order and data type, and
// the conversions of OpenCL C 3.0, 8.3 between texels and the float, int
// and uint vectors that read_image{f,i,ui} return and write_image{f,i,ui}
// take. Channel orders and data types are SPIR-V's enumerants (runtime/
// image.h). Everything here is a template over the data type, so that the
// handlers (exec_image.cpp) run one loop per format over a warp's lanes.
#pragma once

#include "runtime/image.h"
#include "runtime/shapes.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace lanewise::runtime::image {

// spv::ImageChannelOrder.
enum Order : std::uint32_t {
  R = 0,
  A = 1,
  RG = 2,
  RA = 3,
  RGB = 4,
  RGBA = 5,
  BGRA = 6,
  ARGB = 7,
  Intensity = 8,
  Luminance = 9,
  Rx = 10,
  RGx = 11,
  RGBx = 12,
  Depth = 13,
  DepthStencil = 14,
  sRGB = 15,
  sRGBx = 16,
  sRGBA = 17,
  sBGRA = 18,
  ABGR = 19,
};
// spv::ImageChannelDataType.
enum Type : std::uint32_t {
  SnormInt8 = 0,
  SnormInt16 = 1,
  UnormInt8 = 2,
  UnormInt16 = 3,
  UnormShort565 = 4,
  UnormShort555 = 5,
  UnormInt101010 = 6,
  SignedInt8 = 7,
  SignedInt16 = 8,
  SignedInt32 = 9,
  UnsignedInt8 = 10,
  UnsignedInt16 = 11,
  UnsignedInt32 = 12,
  HalfFloat = 13,
  Float = 14,
  UnormInt24 = 15,
  UnormInt101010_2 = 16,
};

// What read_image and write_image exchange for a data type: floats for the
// normalized and floating-point types, ints for the signed integer types,
// unsigned ints for the unsigned ones (OpenCL C 3.0, 6.15.15.2).
enum class Kind : std::uint8_t { Float, Int, Uint };
constexpr Kind kindOf(std::uint32_t type) {
  return type >= SignedInt8 && type <= SignedInt32       ? Kind::Int
         : type >= UnsignedInt8 && type <= UnsignedInt32 ? Kind::Uint
                                                         : Kind::Float;
}

// Whether a data type packs every channel into one word (565, 555, 101010).
constexpr bool packed(std::uint32_t type) {
  return type == UnormShort565 || type == UnormShort555 || type == UnormInt101010;
}

// Channels in memory, and bytes per channel (0 for packed types).
std::uint32_t channelCount(std::uint32_t order);
std::uint32_t channelBytes(std::uint32_t type);

// Whether Lanewise supports the pair, and its bytes per texel (0 if not).
// The pairs follow the OpenCL 3.0 API's rules for image format descriptors:
// packed types only with RGB and RGBx, sRGB orders only with UNORM_INT8,
// BGRA, ARGB and ABGR only with 8-bit types, INTENSITY and LUMINANCE only
// with the normalized 8- and 16-bit, half and float types.
std::uint32_t texelBytes(std::uint32_t order, std::uint32_t type);

// Where each of the four RGBA components a read returns comes from: the
// index of a channel in memory, or one of these constants.
inline constexpr std::int8_t zero = -1, one = -2;
struct Swizzle {
  std::int8_t from[4];
};
// A read's swizzle (OpenCL C 3.0, 8.3.1: missing components are 0 and alpha 1;
// INTENSITY replicates to all four, LUMINANCE to red, green and blue).
Swizzle readSwizzle(std::uint32_t order);
// The RGBA component each channel in memory takes on a write.
Swizzle writeSwizzle(std::uint32_t order);
// The border colour's alpha for CLK_ADDRESS_CLAMP: 0 for orders with an
// alpha or padding channel, 1 for R, RG, RGB and LUMINANCE (OpenCL C 3.0,
// 8.2).
bool borderAlphaIsOne(std::uint32_t order);
bool isSrgb(std::uint32_t order);

// ---- conversions of one channel (OpenCL C 3.0, 8.3) ----

// Normalized integers to float: c / (2^n - 1), and max(-1, c / (2^(n-1) - 1))
// for the signed ones; exact to the correctly rounded quotient.
inline float unormToFloat(std::uint32_t c, float max) { return float(c) / max; }

// c / 255.0f for every byte, the conversion of CL_UNORM_INT8, as a table:
// four divisions cost more than the rest of a texel's read.
inline constexpr std::array<float, 256> unorm8Values = [] {
  std::array<float, 256> values{};
  for (std::uint32_t c = 0; c < 256; ++c)
    values[c] = float(c) / 255.0f;
  return values;
}();
inline float snormToFloat(std::int32_t c, float max) { return std::max(-1.0f, float(c) / max); }

// Float to a normalized integer: convert_<type>_sat_rte(f * max); NaN to 0.
inline std::int32_t floatToNorm(float f, float max, float low) {
  if (std::isnan(f))
    return 0;
  return std::int32_t(std::nearbyint(std::clamp(f * max, low, max)));
}

// sRGB to linear and back (OpenCL C 3.0, 8.3.5), on red, green and blue.
inline float srgbToLinear(float c) {
  return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
}
inline float linearToSrgb(float c) {
  if (std::isnan(c))
    return 0.0f;
  if (c <= 0.0031308f)
    return 12.92f * std::max(c, 0.0f);
  return 1.055f * std::pow(std::min(c, 1.0f), 1.0f / 2.4f) - 0.055f;
}

// The channels of one texel in memory order, as 32-bit values of the
// data type's kind.
template <std::uint32_t T>
inline void decodeChannels(const char *texel, std::uint32_t n, std::uint32_t out[4]) {
  auto put = [&](std::uint32_t i, auto value) { std::memcpy(&out[i], &value, 4); };
  if constexpr (T == UnormShort565 || T == UnormShort555) {
    std::uint16_t w;
    std::memcpy(&w, texel, 2);
    const bool six = T == UnormShort565;
    put(0, unormToFloat(w >> (six ? 11 : 10) & 31, 31.0f));
    put(1, unormToFloat(w >> 5 & (six ? 63 : 31), six ? 63.0f : 31.0f));
    put(2, unormToFloat(w & 31, 31.0f));
  } else if constexpr (T == UnormInt101010) {
    std::uint32_t w;
    std::memcpy(&w, texel, 4);
    put(0, unormToFloat(w >> 20 & 1023, 1023.0f));
    put(1, unormToFloat(w >> 10 & 1023, 1023.0f));
    put(2, unormToFloat(w & 1023, 1023.0f));
  } else {
    for (std::uint32_t i = 0; i < n && i < 4; ++i) {
      if constexpr (T == SnormInt8)
        put(i, snormToFloat(std::int8_t(texel[i]), 127.0f));
      else if constexpr (T == UnormInt8)
        put(i, unorm8Values[std::uint8_t(texel[i])]);
      else if constexpr (T == SignedInt8)
        put(i, std::int32_t(std::int8_t(texel[i])));
      else if constexpr (T == UnsignedInt8)
        put(i, std::uint32_t(std::uint8_t(texel[i])));
      else if constexpr (T == SnormInt16 || T == SignedInt16) {
        std::int16_t c;
        std::memcpy(&c, texel + 2 * i, 2);
        if constexpr (T == SnormInt16)
          put(i, snormToFloat(c, 32767.0f));
        else
          put(i, std::int32_t(c));
      } else if constexpr (T == UnormInt16 || T == UnsignedInt16 || T == HalfFloat) {
        std::uint16_t c;
        std::memcpy(&c, texel + 2 * i, 2);
        if constexpr (T == UnormInt16)
          put(i, unormToFloat(c, 65535.0f));
        else if constexpr (T == HalfFloat)
          put(i, widenBits(c));
        else
          put(i, std::uint32_t(c));
      } else { // SignedInt32, UnsignedInt32, Float: the bits as they are
        std::memcpy(&out[i], texel + 4 * i, 4);
      }
    }
  }
}

// One channel value of the data type's kind, converted for a write.
template <std::uint32_t T>
inline void encodeChannels(const std::uint32_t in[4], std::uint32_t n, char *texel) {
  auto f = [&](std::uint32_t i) { return std::bit_cast<float>(in[i]); };
  auto s = [&](std::uint32_t i) { return std::int32_t(in[i]); };
  if constexpr (T == UnormShort565 || T == UnormShort555) {
    const bool six = T == UnormShort565;
    const std::uint16_t w = std::uint16_t(floatToNorm(f(0), 31.0f, 0.0f) << (six ? 11 : 10) |
                                          floatToNorm(f(1), six ? 63.0f : 31.0f, 0.0f) << 5 |
                                          floatToNorm(f(2), 31.0f, 0.0f));
    std::memcpy(texel, &w, 2);
  } else if constexpr (T == UnormInt101010) {
    const std::uint32_t w = std::uint32_t(floatToNorm(f(0), 1023.0f, 0.0f)) << 20 |
                            std::uint32_t(floatToNorm(f(1), 1023.0f, 0.0f)) << 10 |
                            std::uint32_t(floatToNorm(f(2), 1023.0f, 0.0f));
    std::memcpy(texel, &w, 4);
  } else {
    for (std::uint32_t i = 0; i < n; ++i) {
      if constexpr (T == SnormInt8)
        texel[i] = char(floatToNorm(f(i), 127.0f, -127.0f));
      else if constexpr (T == UnormInt8)
        texel[i] = char(floatToNorm(f(i), 255.0f, 0.0f));
      else if constexpr (T == SignedInt8)
        texel[i] = char(std::clamp(s(i), -128, 127)); // convert_char_sat
      else if constexpr (T == UnsignedInt8)
        texel[i] = char(std::min(in[i], 255u)); // convert_uchar_sat
      else if constexpr (T == SnormInt16 || T == UnormInt16 || T == SignedInt16 ||
                         T == UnsignedInt16 || T == HalfFloat) {
        std::uint16_t c;
        if constexpr (T == SnormInt16)
          c = std::uint16_t(floatToNorm(f(i), 32767.0f, -32767.0f));
        else if constexpr (T == UnormInt16)
          c = std::uint16_t(floatToNorm(f(i), 65535.0f, 0.0f));
        else if constexpr (T == SignedInt16)
          c = std::uint16_t(std::clamp(s(i), -32768, 32767));
        else if constexpr (T == UnsignedInt16)
          c = std::uint16_t(std::min(in[i], 65535u));
        else // convert_half_rte
          c = std::bit_cast<std::uint16_t>(half(f(i)));
        std::memcpy(texel + 2 * i, &c, 2);
      } else {
        std::memcpy(texel + 4 * i, &in[i], 4);
      }
    }
  }
}

// Calls f.template operator()<T>() with the data type as a constant.
template <typename F> auto withType(std::uint32_t type, F &&f) {
  switch (type) {
#define LANEWISE_IMAGE_TYPE(name)                                                                  \
  case name:                                                                                       \
    return f.template operator()<name>();
    LANEWISE_IMAGE_TYPE(SnormInt8)
    LANEWISE_IMAGE_TYPE(SnormInt16)
    LANEWISE_IMAGE_TYPE(UnormInt8)
    LANEWISE_IMAGE_TYPE(UnormInt16)
    LANEWISE_IMAGE_TYPE(UnormShort565)
    LANEWISE_IMAGE_TYPE(UnormShort555)
    LANEWISE_IMAGE_TYPE(UnormInt101010)
    LANEWISE_IMAGE_TYPE(SignedInt8)
    LANEWISE_IMAGE_TYPE(SignedInt16)
    LANEWISE_IMAGE_TYPE(SignedInt32)
    LANEWISE_IMAGE_TYPE(UnsignedInt8)
    LANEWISE_IMAGE_TYPE(UnsignedInt16)
    LANEWISE_IMAGE_TYPE(UnsignedInt32)
    LANEWISE_IMAGE_TYPE(HalfFloat)
#undef LANEWISE_IMAGE_TYPE
  default:
    return f.template operator()<Float>();
  }
}

// A texel's RGBA value, as 32-bit values of the type's kind: decoded,
// swizzled, and for sRGB orders converted to linear.
template <std::uint32_t T>
inline void readTexel(const char *texel, std::uint32_t n, const Swizzle &swizzle, bool srgb,
                      std::uint32_t rgba[4]) {
  std::uint32_t channels[4] = {};
  decodeChannels<T>(texel, n, channels);
  const std::uint32_t unit = kindOf(T) == Kind::Float ? std::bit_cast<std::uint32_t>(1.0f) : 1u;
  for (int c = 0; c < 4; ++c) {
    const std::int8_t from = swizzle.from[c];
    rgba[c] = from >= 0 ? channels[from] : from == one ? unit : 0u;
  }
  if (srgb)
    for (int c = 0; c < 3; ++c)
      rgba[c] = std::bit_cast<std::uint32_t>(srgbToLinear(std::bit_cast<float>(rgba[c])));
}

template <std::uint32_t T>
inline void writeTexel(char *texel, std::uint32_t n, const Swizzle &swizzle, bool srgb,
                       const std::uint32_t rgba[4]) {
  std::uint32_t channels[4] = {};
  for (std::uint32_t i = 0; i < n; ++i) {
    std::uint32_t value = rgba[swizzle.from[i]];
    if (srgb && swizzle.from[i] < 3)
      value = std::bit_cast<std::uint32_t>(linearToSrgb(std::bit_cast<float>(value)));
    channels[i] = value;
  }
  encodeChannels<T>(channels, n, texel);
}

} // namespace lanewise::runtime::image
