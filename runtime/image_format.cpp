// SPDX-License-Identifier: Apache-2.0
// The image format tables (runtime/image_format.h) and encodeTexel.
#include "runtime/image_format.h"

namespace lanewise::runtime {
namespace image {

std::uint32_t channelCount(std::uint32_t order) {
  // Rx, RGx and RGBx are R, RG and RGB but for their border colour (OpenCL
  // 3.0 API, 5.3.1.1); sRGBx has a padding byte.
  switch (order) {
  case R:
  case A:
  case Intensity:
  case Luminance:
  case Depth:
  case Rx:
    return 1;
  case RG:
  case RA:
  case RGx:
    return 2;
  case RGB:
  case RGBx:
  case sRGB:
    return 3;
  default:
    return 4;
  }
}

std::uint32_t channelBytes(std::uint32_t type) {
  switch (type) {
  case SnormInt8:
  case UnormInt8:
  case SignedInt8:
  case UnsignedInt8:
    return 1;
  case SnormInt16:
  case UnormInt16:
  case SignedInt16:
  case UnsignedInt16:
  case HalfFloat:
    return 2;
  case SignedInt32:
  case UnsignedInt32:
  case Float:
    return 4;
  default:
    return 0;
  }
}

std::uint32_t texelBytes(std::uint32_t order, std::uint32_t type) {
  const bool eightBit =
      type == SnormInt8 || type == UnormInt8 || type == SignedInt8 || type == UnsignedInt8;
  switch (order) {
  case RGB:
  case RGBx:
    // The packed types only, in one 16- or 32-bit word.
    return type == UnormShort565 || type == UnormShort555 ? 2 : type == UnormInt101010 ? 4 : 0;
  case sRGB:
  case sRGBx:
  case sRGBA:
  case sBGRA:
    return type == UnormInt8 ? channelCount(order) : 0;
  case BGRA:
  case ARGB:
  case ABGR:
    return eightBit ? 4 : 0;
  case Intensity:
  case Luminance:
    if (type != UnormInt8 && type != UnormInt16 && type != SnormInt8 && type != SnormInt16 &&
        type != HalfFloat && type != Float)
      return 0;
    return channelBytes(type);
  case R:
  case A:
  case RG:
  case RA:
  case RGBA:
  case Rx:
  case RGx:
    return channelCount(order) * channelBytes(type);
  default: // depth and depth-stencil images are not supported
    return 0;
  }
}

Swizzle readSwizzle(std::uint32_t order) {
  switch (order) {
  case R:
  case Rx:
    return {{0, zero, zero, one}};
  case A:
    return {{zero, zero, zero, 0}};
  case RG:
  case RGx:
    return {{0, 1, zero, one}};
  case RA:
    return {{0, zero, zero, 1}};
  case RGB:
  case RGBx:
  case sRGB:
  case sRGBx:
    return {{0, 1, 2, one}};
  case BGRA:
  case sBGRA:
    return {{2, 1, 0, 3}};
  case ARGB:
    return {{1, 2, 3, 0}};
  case ABGR:
    return {{3, 2, 1, 0}};
  case Intensity:
    return {{0, 0, 0, 0}};
  case Luminance:
    return {{0, 0, 0, one}};
  default: // RGBA, sRGBA
    return {{0, 1, 2, 3}};
  }
}

Swizzle writeSwizzle(std::uint32_t order) {
  // sRGBx's padding byte takes alpha: what it holds is never read.
  switch (order) {
  case A:
    return {{3, 3, 3, 3}};
  case RA:
    return {{0, 3, 3, 3}};
  case BGRA:
  case sBGRA:
    return {{2, 1, 0, 3}};
  case ARGB:
    return {{3, 0, 1, 2}};
  case ABGR:
    return {{3, 2, 1, 0}};
  default: // R, RG, RGB, RGBx, RGBA, INTENSITY, LUMINANCE and the sRGB orders
    return {{0, 1, 2, 3}};
  }
}

bool borderAlphaIsOne(std::uint32_t order) {
  return order == R || order == RG || order == RGB || order == Luminance || order == sRGB;
}

bool isSrgb(std::uint32_t order) {
  return order == sRGB || order == sRGBx || order == sRGBA || order == sBGRA;
}

} // namespace image

void encodeTexel(const ImageDescriptor &d, const void *color, void *texel) {
  std::uint32_t rgba[4];
  std::memcpy(rgba, color, sizeof rgba);
  const image::Swizzle swizzle = image::writeSwizzle(d.channelOrder);
  const std::uint32_t n = image::channelCount(d.channelOrder);
  const bool srgb = image::isSrgb(d.channelOrder);
  image::withType(d.channelType, [&]<std::uint32_t T>() {
    image::writeTexel<T>(static_cast<char *>(texel), n, swizzle, srgb, rgba);
  });
}

} // namespace lanewise::runtime
