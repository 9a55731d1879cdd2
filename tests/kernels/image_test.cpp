// SPDX-License-Identifier: Apache-2.0
// Images in kernels (kernels in cl/images.cl): reads and writes of every
// image format the device reports, sampling with every addressing mode,
// filter and coordinate kind, every image type, read-write images and the
// queries. Expected values are computed here from the specification:
// OpenCL C 3.0, 8.2 (addressing and filtering) and 8.3 (conversions between
// texels and float, int and uint), and OpenCL 3.0 API, 5.3.1.1 (the channel
// orders' memory layouts).
#include "harness.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace lanewise::test {
namespace {

using Float4 = std::array<float, 4>;
using Word4 = std::array<std::uint32_t, 4>;

enum class Kind { Float, Int, Uint };

Kind kindOf(cl_channel_type type) {
  switch (type) {
  case CL_SIGNED_INT8:
  case CL_SIGNED_INT16:
  case CL_SIGNED_INT32:
    return Kind::Int;
  case CL_UNSIGNED_INT8:
  case CL_UNSIGNED_INT16:
  case CL_UNSIGNED_INT32:
    return Kind::Uint;
  default:
    return Kind::Float;
  }
}

size_t channelSize(cl_channel_type type) {
  switch (type) {
  case CL_SNORM_INT8:
  case CL_UNORM_INT8:
  case CL_SIGNED_INT8:
  case CL_UNSIGNED_INT8:
    return 1;
  case CL_SNORM_INT16:
  case CL_UNORM_INT16:
  case CL_SIGNED_INT16:
  case CL_UNSIGNED_INT16:
  case CL_HALF_FLOAT:
  case CL_UNORM_SHORT_565:
  case CL_UNORM_SHORT_555:
    return 2;
  default:
    return 4;
  }
}

bool packedType(cl_channel_type type) {
  return type == CL_UNORM_SHORT_565 || type == CL_UNORM_SHORT_555 || type == CL_UNORM_INT_101010;
}

// The channel names of an order, in memory order (API 5.3.1.1); 'x' is
// padding, 'I' intensity and 'L' luminance.
std::string layout(cl_channel_order order) {
  switch (order) {
  case CL_R:
    return "r";
  case CL_A:
    return "a";
  case CL_RG:
    return "rg";
  case CL_RA:
    return "ra";
  case CL_RGB:
  case CL_sRGB:
    return "rgb";
  case CL_RGBA:
  case CL_sRGBA:
    return "rgba";
  case CL_BGRA:
  case CL_sBGRA:
    return "bgra";
  case CL_ARGB:
    return "argb";
  case CL_ABGR:
    return "abgr";
  case CL_INTENSITY:
    return "I";
  case CL_LUMINANCE:
    return "L";
  // Rx, RGx and RGBx are laid out as R, RG and RGB; sRGBx has a padding byte.
  case CL_Rx:
    return "r";
  case CL_RGx:
    return "rg";
  case CL_RGBx:
    return "rgb";
  case CL_sRGBx:
    return "rgbx";
  default:
    return "";
  }
}

bool srgb(cl_channel_order order) {
  return order == CL_sRGB || order == CL_sRGBx || order == CL_sRGBA || order == CL_sBGRA;
}

size_t texelSize(const cl_image_format &f) {
  if (packedType(f.image_channel_data_type))
    return f.image_channel_data_type == CL_UNORM_INT_101010 ? 4 : 2;
  return layout(f.image_channel_order).size() * channelSize(f.image_channel_data_type);
}

float halfToFloat(std::uint16_t h) { return float(std::bit_cast<_Float16>(h)); }

double srgbToLinear(double c) {
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}
double linearToSrgb(double c) {
  return c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1.0 / 2.4) - 0.055;
}

// The value a read returns for a texel (OpenCL C 3.0, 8.3.1 and 8.3.2), as
// 32-bit words of the format's kind.
Word4 referenceRead(const cl_image_format &f, const std::uint8_t *texel) {
  const cl_channel_type type = f.image_channel_data_type;
  const std::string names = layout(f.image_channel_order);
  double channel[4] = {};
  std::int64_t integer[4] = {};
  if (packedType(type)) {
    std::uint32_t w = 0;
    std::memcpy(&w, texel, type == CL_UNORM_INT_101010 ? 4 : 2);
    if (type == CL_UNORM_SHORT_565) {
      channel[0] = (w >> 11 & 31) / 31.0, channel[1] = (w >> 5 & 63) / 63.0,
      channel[2] = (w & 31) / 31.0;
    } else if (type == CL_UNORM_SHORT_555) {
      channel[0] = (w >> 10 & 31) / 31.0, channel[1] = (w >> 5 & 31) / 31.0,
      channel[2] = (w & 31) / 31.0;
    } else {
      channel[0] = (w >> 20 & 1023) / 1023.0, channel[1] = (w >> 10 & 1023) / 1023.0,
      channel[2] = (w & 1023) / 1023.0;
    }
  } else {
    for (size_t i = 0; i < names.size(); ++i) {
      const std::uint8_t *p = texel + i * channelSize(type);
      std::int8_t s8;
      std::uint8_t u8;
      std::int16_t s16;
      std::uint16_t u16;
      std::int32_t s32;
      std::uint32_t u32;
      float f32;
      std::memcpy(&s8, p, 1);
      std::memcpy(&u8, p, 1);
      switch (type) {
      case CL_SNORM_INT8:
        channel[i] = std::max(-1.0, s8 / 127.0);
        break;
      case CL_UNORM_INT8:
        channel[i] = u8 / 255.0;
        break;
      case CL_SIGNED_INT8:
        integer[i] = s8;
        break;
      case CL_UNSIGNED_INT8:
        integer[i] = u8;
        break;
      case CL_SNORM_INT16:
        std::memcpy(&s16, p, 2);
        channel[i] = std::max(-1.0, s16 / 32767.0);
        break;
      case CL_UNORM_INT16:
        std::memcpy(&u16, p, 2);
        channel[i] = u16 / 65535.0;
        break;
      case CL_SIGNED_INT16:
        std::memcpy(&s16, p, 2);
        integer[i] = s16;
        break;
      case CL_UNSIGNED_INT16:
        std::memcpy(&u16, p, 2);
        integer[i] = u16;
        break;
      case CL_HALF_FLOAT:
        std::memcpy(&u16, p, 2);
        channel[i] = halfToFloat(u16);
        break;
      case CL_SIGNED_INT32:
        std::memcpy(&s32, p, 4);
        integer[i] = s32;
        break;
      case CL_UNSIGNED_INT32:
        std::memcpy(&u32, p, 4);
        integer[i] = u32;
        break;
      default:
        std::memcpy(&f32, p, 4);
        channel[i] = f32;
        break;
      }
    }
  }
  // RGBA from the channels by name; missing ones are 0, alpha 1.
  const Kind kind = kindOf(type);
  auto component = [&](char name) -> std::uint32_t {
    double value = name == 'a' ? 1.0 : 0.0;
    std::int64_t whole = name == 'a' ? 1 : 0;
    const std::string &n = names;
    size_t at = n.find(name);
    if (n == "I")
      at = 0;
    if (n == "L" && name != 'a')
      at = 0;
    if (at != std::string::npos && !(packedType(type) && at > 2)) {
      value = channel[at];
      whole = integer[at];
    }
    if (srgb(f.image_channel_order) && name != 'a')
      value = srgbToLinear(value);
    if (kind == Kind::Float)
      return std::bit_cast<std::uint32_t>(float(value));
    return std::uint32_t(whole);
  };
  return {component('r'), component('g'), component('b'), component('a')};
}

// The bytes a write stores (OpenCL C 3.0, 8.3.1 to 8.3.5): for a channel
// value v of the format's kind.
std::vector<std::uint8_t> referenceWrite(const cl_image_format &f, const Word4 &value) {
  const cl_channel_type type = f.image_channel_data_type;
  const std::string names = layout(f.image_channel_order);
  auto rgbaIndex = [](char name) {
    return name == 'g' ? 1 : name == 'b' ? 2 : name == 'a' ? 3 : 0;
  };
  auto asFloat = [&](int c) { return std::bit_cast<float>(value[c]); };
  // convert_<type>_sat_rte(v * scale), the product in float as 8.3.1.1
  // writes it; NaN to 0.
  auto normalized = [](double v, float scale, float low) -> std::int64_t {
    if (std::isnan(v))
      return 0;
    return std::int64_t(std::nearbyint(std::clamp(float(v) * scale, low, scale)));
  };
  auto channelValue = [&](char name) -> double {
    double v = asFloat(rgbaIndex(name));
    if (srgb(f.image_channel_order) && name != 'a' && !std::isnan(v))
      v = linearToSrgb(std::clamp(v, 0.0, 1.0));
    return v;
  };
  std::vector<std::uint8_t> bytes(texelSize(f));
  if (packedType(type)) {
    std::uint32_t w;
    if (type == CL_UNORM_SHORT_565)
      w = std::uint32_t(normalized(asFloat(0), 31, 0) << 11 | normalized(asFloat(1), 63, 0) << 5 |
                        normalized(asFloat(2), 31, 0));
    else if (type == CL_UNORM_SHORT_555)
      w = std::uint32_t(normalized(asFloat(0), 31, 0) << 10 | normalized(asFloat(1), 31, 0) << 5 |
                        normalized(asFloat(2), 31, 0));
    else
      w = std::uint32_t(normalized(asFloat(0), 1023, 0) << 20 |
                        normalized(asFloat(1), 1023, 0) << 10 | normalized(asFloat(2), 1023, 0));
    std::memcpy(bytes.data(), &w, bytes.size());
    return bytes;
  }
  for (size_t i = 0; i < names.size(); ++i) {
    const char name = names[i] == 'I' || names[i] == 'L' ? 'r' : names[i];
    if (name == 'x')
      continue; // padding: any value
    std::uint8_t *p = bytes.data() + i * channelSize(type);
    const std::int32_t s = std::int32_t(value[rgbaIndex(name)]);
    const std::uint32_t u = value[rgbaIndex(name)];
    std::int64_t out = 0;
    switch (type) {
    case CL_SNORM_INT8:
      out = normalized(channelValue(name), 127, -127);
      break;
    case CL_UNORM_INT8:
      out = normalized(channelValue(name), 255, 0);
      break;
    case CL_SIGNED_INT8:
      out = std::clamp(s, -128, 127);
      break;
    case CL_UNSIGNED_INT8:
      out = std::min(u, 255u);
      break;
    case CL_SNORM_INT16:
      out = normalized(channelValue(name), 32767, -32767);
      break;
    case CL_UNORM_INT16:
      out = normalized(channelValue(name), 65535, 0);
      break;
    case CL_SIGNED_INT16:
      out = std::clamp(s, -32768, 32767);
      break;
    case CL_UNSIGNED_INT16:
      out = std::min(u, 65535u);
      break;
    case CL_HALF_FLOAT:
      out = std::bit_cast<std::uint16_t>(_Float16(asFloat(rgbaIndex(name))));
      break;
    default:
      out = u;
      break;
    }
    std::memcpy(p, &out, channelSize(type));
  }
  return bytes;
}

std::string formatName(const cl_image_format &f) {
  return "order 0x" +
         [](unsigned v) {
           char b[16];
           std::snprintf(b, sizeof b, "%x", v);
           return std::string(b);
         }(f.image_channel_order) +
         " type 0x" + [](unsigned v) {
           char b[16];
           std::snprintf(b, sizeof b, "%x", v);
           return std::string(b);
         }(f.image_channel_data_type);
}

// Whether two words of a kind agree: floats exactly, or both NaN.
bool same(Kind kind, std::uint32_t a, std::uint32_t b) {
  if (kind != Kind::Float)
    return a == b;
  const float x = std::bit_cast<float>(a), y = std::bit_cast<float>(b);
  return (std::isnan(x) && std::isnan(y)) || a == b;
}

class Images : public KernelTest {
protected:
  void SetUp() override {
    KernelTest::SetUp();
    if (HasFatalFailure())
      return;
    if (!deviceInfo<cl_bool>(device, CL_DEVICE_IMAGE_SUPPORT))
      GTEST_SKIP() << "device has no image support";
  }
  void TearDown() override {
    for (cl_mem image : images_)
      clReleaseMemObject(image);
    for (cl_sampler sampler : samplers_)
      clReleaseSampler(sampler);
    KernelTest::TearDown();
  }
  std::vector<cl_image_format> formats(cl_mem_object_type type, cl_mem_flags flags) {
    cl_uint count = 0;
    EXPECT_EQ(clGetSupportedImageFormats(context, flags, type, 0, nullptr, &count), CL_SUCCESS);
    std::vector<cl_image_format> list(count);
    EXPECT_EQ(clGetSupportedImageFormats(context, flags, type, count, list.data(), nullptr),
              CL_SUCCESS);
    return list;
  }
  cl_mem image(cl_mem_flags flags, const cl_image_format &format, cl_mem_object_type type,
               size_t width, size_t height = 1, size_t depth = 1, size_t layers = 1,
               const void *data = nullptr, cl_mem buffer = nullptr) {
    cl_image_desc desc{};
    desc.image_type = type;
    desc.image_width = width;
    desc.image_height = height;
    desc.image_depth = depth;
    desc.image_array_size = layers;
    desc.buffer = buffer;
    cl_int error = CL_SUCCESS;
    cl_mem mem = clCreateImage(context, flags | (data ? CL_MEM_COPY_HOST_PTR : 0), &format, &desc,
                               const_cast<void *>(data), &error);
    EXPECT_EQ(error, CL_SUCCESS) << formatName(format);
    if (mem)
      images_.push_back(mem);
    return mem;
  }
  cl_sampler sampler(bool normalized, cl_addressing_mode mode, cl_filter_mode filter) {
    const cl_sampler_properties properties[] = {CL_SAMPLER_NORMALIZED_COORDS,
                                                normalized,
                                                CL_SAMPLER_ADDRESSING_MODE,
                                                mode,
                                                CL_SAMPLER_FILTER_MODE,
                                                filter,
                                                0};
    cl_int error = CL_SUCCESS;
    cl_sampler s = clCreateSamplerWithProperties(context, properties, &error);
    EXPECT_EQ(error, CL_SUCCESS);
    if (s)
      samplers_.push_back(s);
    return s;
  }
  std::vector<std::uint8_t> readImage(cl_mem mem, size_t bytes, std::array<size_t, 3> region) {
    std::vector<std::uint8_t> data(bytes);
    const size_t origin[3] = {0, 0, 0};
    EXPECT_EQ(clEnqueueReadImage(queue, mem, CL_TRUE, origin, region.data(), 0, 0, data.data(), 0,
                                 nullptr, nullptr),
              CL_SUCCESS);
    return data;
  }

  std::vector<cl_mem> images_;
  std::vector<cl_sampler> samplers_;
};

std::vector<std::uint8_t> randomBytes(size_t count, unsigned seed) {
  std::mt19937 random(seed);
  std::vector<std::uint8_t> bytes(count);
  for (auto &b : bytes)
    b = std::uint8_t(random());
  return bytes;
}

const char *readKernel(Kind kind) {
  return kind == Kind::Float ? "read_f2" : kind == Kind::Int ? "read_i2" : "read_ui2";
}
const char *writeKernel(Kind kind) {
  return kind == Kind::Float ? "write_f2" : kind == Kind::Int ? "write_i2" : "write_ui2";
}

// Every 2D format: random texels read back through read_image{f,i,ui},
// converted as 8.3 says.
TEST_F(Images, ReadOfEveryFormatConvertsAsTheSpecificationSays) {
  constexpr size_t w = 13, h = 5;
  const auto list = formats(CL_MEM_OBJECT_IMAGE2D, CL_MEM_READ_ONLY);
  ASSERT_FALSE(list.empty());
  for (const cl_image_format &f : list) {
    SCOPED_TRACE(formatName(f));
    const size_t bytes = texelSize(f);
    ASSERT_GT(bytes, 0u) << "a format this test does not know";
    const auto data =
        randomBytes(w * h * bytes, f.image_channel_order * 31 + f.image_channel_data_type);
    cl_mem img = image(CL_MEM_READ_ONLY, f, CL_MEM_OBJECT_IMAGE2D, w, h, 1, 1, data.data());
    ASSERT_NE(img, nullptr);
    const Kind kind = kindOf(f.image_channel_data_type);
    cl_kernel k = kernel("images", readKernel(kind));
    cl_mem out = buffer<Word4>(w * h);
    setArgs(k, img, out);
    run(k, {w, h});
    const auto got = read<Word4>(out, w * h);
    for (size_t i = 0; i < w * h; ++i) {
      const Word4 expected = referenceRead(f, data.data() + i * bytes);
      for (int c = 0; c < 4; ++c) {
        if (srgb(f.image_channel_order) && c < 3) { // 8.3.5: within 0.5 ulp of a unorm8
          EXPECT_NEAR(std::bit_cast<float>(got[i][c]), std::bit_cast<float>(expected[c]), 0.5 / 255)
              << "texel " << i << " component " << c;
          continue;
        }
        ASSERT_TRUE(same(kind, got[i][c], expected[c]))
            << "texel " << i << " component " << c << ": got 0x" << std::hex << got[i][c]
            << ", expected 0x" << expected[c];
      }
    }
  }
}

// Every 2D format: values written by write_image{f,i,ui}, read back with
// clEnqueueReadImage, are the texels 8.3 prescribes. The float values
// include out-of-range ones, which saturate, and NaN.
TEST_F(Images, WriteOfEveryFormatConvertsAsTheSpecificationSays) {
  constexpr size_t w = 11, h = 3;
  const auto list = formats(CL_MEM_OBJECT_IMAGE2D, CL_MEM_WRITE_ONLY);
  ASSERT_FALSE(list.empty());
  std::mt19937 random(7);
  for (const cl_image_format &f : list) {
    SCOPED_TRACE(formatName(f));
    const Kind kind = kindOf(f.image_channel_data_type);
    std::vector<Word4> values(w * h);
    for (size_t i = 0; i < values.size(); ++i)
      for (int c = 0; c < 4; ++c) {
        if (kind == Kind::Float) {
          float v = std::uniform_real_distribution<float>(-1.25f, 1.25f)(random);
          if (i == 0)
            v = c == 0 ? NAN : c == 1 ? 100.0f : c == 2 ? -100.0f : 0.5f;
          values[i][c] = std::bit_cast<std::uint32_t>(v);
        } else {
          // Around and beyond every integer type's range.
          const std::int64_t spans[] = {300, 70000, 3000000000};
          const std::int64_t span = spans[random() % 3];
          values[i][c] = std::uint32_t(std::int64_t(random() % (2 * span)) - span);
        }
      }
    cl_mem img = image(CL_MEM_WRITE_ONLY, f, CL_MEM_OBJECT_IMAGE2D, w, h);
    ASSERT_NE(img, nullptr);
    cl_kernel k = kernel("images", writeKernel(kind));
    setArgs(k, img, buffer(values));
    run(k, {w, h});
    const size_t bytes = texelSize(f);
    const auto got = readImage(img, w * h * bytes, {w, h, 1});
    const std::string names = layout(f.image_channel_order);
    for (size_t i = 0; i < w * h; ++i) {
      const auto expected = referenceWrite(f, values[i]);
      for (size_t b = 0; b < bytes; ++b) {
        const size_t channel =
            packedType(f.image_channel_data_type) ? 0 : b / channelSize(f.image_channel_data_type);
        if (!packedType(f.image_channel_data_type) && names[channel] == 'x')
          continue;
        if (srgb(f.image_channel_order) && names[channel] != 'a') { // 8.3.5: 0.6 ulp
          EXPECT_LE(std::abs(int(got[i * bytes + b]) - int(expected[b])), 1)
              << "texel " << i << " byte " << b;
          continue;
        }
        ASSERT_EQ(int(got[i * bytes + b]), int(expected[b])) << "texel " << i << " byte " << b;
      }
    }
  }
}

// ---- sampling: a reference of OpenCL C 3.0, 8.2 ----

struct Image2D {
  size_t w, h;
  std::vector<Float4> texels; // RGBA float
  Float4 at(long x, long y) const {
    if (x < 0 || y < 0 || x >= long(w) || y >= long(h))
      return {0, 0, 0, 0}; // CL_RGBA's border colour
    return texels[size_t(y) * w + size_t(x)];
  }
};

long floorLong(double v) { return long(std::floor(v)); }

// The texel indices and weight along one axis (8.2.1 to 8.2.4).
void axis(float s, long size, bool normalized, cl_addressing_mode mode, bool linear, long &i0,
          long &i1, double &a) {
  auto clampMode = [&](long i) {
    if (mode == CL_ADDRESS_CLAMP_TO_EDGE)
      return std::clamp(i, 0L, size - 1);
    if (mode == CL_ADDRESS_CLAMP)
      return std::clamp(i, -1L, size);
    return i;
  };
  if (mode == CL_ADDRESS_REPEAT) {
    const float u = (s - std::floor(s)) * float(size);
    if (!linear) {
      i0 = floorLong(u);
      if (i0 > size - 1)
        i0 -= size;
      return;
    }
    i0 = floorLong(u - 0.5f);
    i1 = i0 + 1;
    if (i0 < 0)
      i0 += size;
    if (i1 > size - 1)
      i1 -= size;
    a = (u - 0.5f) - std::floor(u - 0.5f);
    return;
  }
  if (mode == CL_ADDRESS_MIRRORED_REPEAT) {
    float sp = 2.0f * std::rint(0.5f * s);
    sp = std::fabs(s - sp);
    const float u = sp * float(size);
    if (!linear) {
      i0 = std::min(floorLong(u), size - 1);
      return;
    }
    i0 = std::max(floorLong(u - 0.5f), 0L);
    i1 = std::min(floorLong(u - 0.5f) + 1, size - 1);
    a = (u - 0.5f) - std::floor(u - 0.5f);
    return;
  }
  const float u = normalized ? s * float(size) : s;
  if (!linear) {
    i0 = clampMode(floorLong(u));
    return;
  }
  i0 = clampMode(floorLong(u - 0.5f));
  i1 = clampMode(floorLong(u - 0.5f) + 1);
  a = (u - 0.5f) - std::floor(u - 0.5f);
}

Float4 referenceSample(const Image2D &image, float s, float t, bool normalized,
                       cl_addressing_mode mode, bool linear) {
  long i0 = 0, i1 = 0, j0 = 0, j1 = 0;
  double a = 0, b = 0;
  axis(s, long(image.w), normalized, mode, linear, i0, i1, a);
  axis(t, long(image.h), normalized, mode, linear, j0, j1, b);
  if (!linear)
    return image.at(i0, j0);
  Float4 r{};
  const Float4 t00 = image.at(i0, j0), t10 = image.at(i1, j0), t01 = image.at(i0, j1),
               t11 = image.at(i1, j1);
  for (int c = 0; c < 4; ++c)
    r[c] = float((1 - a) * (1 - b) * t00[c] + a * (1 - b) * t10[c] + (1 - a) * b * t01[c] +
                 a * b * t11[c]);
  return r;
}

// Each addressing mode, filter and coordinate kind the specification
// defines, on a CL_RGBA CL_FLOAT image, at coordinates inside, on and past
// the edges (for CLK_ADDRESS_NONE only where every texel read is inside).
TEST_F(Images, SamplingFollowsAddressingAndFilteringRules) {
  constexpr size_t w = 7, h = 4;
  Image2D reference{w, h, {}};
  std::mt19937 random(11);
  for (size_t i = 0; i < w * h; ++i)
    reference.texels.push_back({float(random() % 1000) / 8, float(random() % 1000) / 8,
                                float(random() % 1000) / 8, float(random() % 1000) / 8});
  const cl_image_format f{CL_RGBA, CL_FLOAT};
  cl_mem img =
      image(CL_MEM_READ_ONLY, f, CL_MEM_OBJECT_IMAGE2D, w, h, 1, 1, reference.texels.data());
  ASSERT_NE(img, nullptr);
  for (bool normalized : {false, true})
    for (cl_addressing_mode mode : {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP,
                                    CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT})
      for (cl_filter_mode filter : {CL_FILTER_NEAREST, CL_FILTER_LINEAR}) {
        if (!normalized && (mode == CL_ADDRESS_REPEAT || mode == CL_ADDRESS_MIRRORED_REPEAT))
          continue; // undefined (8.2)
        SCOPED_TRACE(std::to_string(normalized) + " mode 0x" + std::to_string(mode) + " filter " +
                     std::to_string(filter));
        const bool linear = filter == CL_FILTER_LINEAR;
        std::vector<std::array<float, 2>> at;
        auto uniform = [&](float low, float high) {
          return std::uniform_real_distribution<float>(low, high)(random);
        };
        for (int i = 0; i < 200; ++i) {
          // Normalized coordinates; scaled below for unnormalized samplers.
          float s = uniform(-2.5f, 2.5f), t = uniform(-2.5f, 2.5f);
          if (mode == CL_ADDRESS_NONE) {
            // Only where every texel read is inside the image: for linear
            // filtering, between the first and the last texel centres.
            s = linear ? (0.5f + uniform(0.0f, 1.0f) * (w - 1)) / w : uniform(0.0f, 0.999f);
            t = linear ? (0.5f + uniform(0.0f, 1.0f) * (h - 1)) / h : uniform(0.0f, 0.999f);
          }
          if (i < 8 && mode != CL_ADDRESS_NONE) { // on texel centres and edges exactly
            s = (i + 0.5f * (i & 1)) / w;
            t = float(i % 4) / h;
          }
          if (!normalized) {
            s *= float(w);
            t *= float(h);
          }
          at.push_back({s, t});
        }
        cl_kernel k = kernel("images", "sample_f2");
        cl_mem out = buffer<Float4>(at.size());
        setArgs(k, img, sampler(normalized, mode, filter), buffer(at), out);
        run(k, {at.size()});
        const auto got = read<Float4>(out, at.size());
        for (size_t i = 0; i < at.size(); ++i) {
          const Float4 expected =
              referenceSample(reference, at[i][0], at[i][1], normalized, mode, linear);
          for (int c = 0; c < 4; ++c)
            ASSERT_NEAR(got[i][c], expected[c], 1e-4f * (1 + std::fabs(expected[c])))
                << "coordinate (" << at[i][0] << ", " << at[i][1] << ") component " << c;
        }
      }
}

// Nearest sampling of whole warps of lanes (which Lanewise reads eight
// lanes at a time): clamp_to_edge inside and far outside the image
// (coordinates of ±3e9 and ±infinity, past what a 32-bit index holds) reads
// the texel clamp(floor(u), 0, size - 1) names; clamp reads the border
// colour outside, (0, 0, 0, 0) for orders with alpha, else (0, 0, 0, 1);
// none is read inside only (8.2). Warps all inside, and warps where some
// lanes are outside; unnormalized and normalized, float and integer
// coordinates; RGBA and R float texels, and RGBA, BGRA, RG and R 8-bit
// normalized ones (c / 255, 8.3.1.1).
TEST_F(Images, NearestSamplingOfWholeWarps) {
  constexpr size_t w = 9, h = 5;
  const float far[] = {3e9f, -3e9f, INFINITY, -INFINITY, 2.5f, -0.5f, 7.25f, 1e8f, 4.0f, 3.75f};
  std::mt19937 random(17);
  // 520 lanes: four warps all inside the image, then mixed ones.
  std::vector<std::array<float, 2>> at;
  std::vector<std::array<cl_int, 2>> atInt;
  for (size_t i = 0; i < 520; ++i) {
    if (i < 512) {
      at.push_back({std::uniform_real_distribution<float>(0.0f, 0.999f)(random) * w,
                    std::uniform_real_distribution<float>(0.0f, 0.999f)(random) * h});
      atInt.push_back({cl_int(random() % w), cl_int(random() % h)});
    } else {
      at.push_back({far[i % 10], far[(i / 10 + i) % 10]});
      atInt.push_back({cl_int(i % 23) - 7, cl_int(i % 11) - 3});
    }
    if (i >= 256 && i < 512 && i % 37 == 0) { // warps 2 and 3: a lane outside
      at.back() = {far[i % 4], 1.0f};
      atInt.back() = {cl_int(w), 0};
    }
  }
  const std::vector<std::uint8_t> bytes = randomBytes(w * h * 16, 5);
  for (const cl_image_format format :
       {cl_image_format{CL_RGBA, CL_FLOAT}, cl_image_format{CL_R, CL_FLOAT},
        cl_image_format{CL_RGBA, CL_UNORM_INT8}, cl_image_format{CL_BGRA, CL_UNORM_INT8},
        cl_image_format{CL_RG, CL_UNORM_INT8}, cl_image_format{CL_R, CL_UNORM_INT8}}) {
    const bool unorm = format.image_channel_data_type == CL_UNORM_INT8;
    std::vector<float> floats(w * h * 4);
    for (size_t e = 0; e < floats.size(); ++e)
      floats[e] = float(bytes[e]) - 100.0f;
    cl_mem img = image(CL_MEM_READ_ONLY, format, CL_MEM_OBJECT_IMAGE2D, w, h, 1, 1,
                       unorm ? static_cast<const void *>(bytes.data()) : floats.data());
    ASSERT_NE(img, nullptr);
    const int channels = format.image_channel_order == CL_R    ? 1
                         : format.image_channel_order == CL_RG ? 2
                                                               : 4;
    // Component c of texel (x, y) as read_imagef returns it.
    auto texel = [&](size_t x, size_t y, int c) {
      const size_t t = y * w + x;
      if (c >= channels) // (r, 0, 0, 1), (r, g, 0, 1) (8.3)
        return c == 3 ? 1.0f : 0.0f;
      if (!unorm)
        return floats[t * channels + c];
      const int byte = format.image_channel_order == CL_BGRA && c != 1 && c != 3 ? 2 - c : c;
      return float(bytes[t * channels + byte]) / 255.0f;
    };
    for (const cl_addressing_mode mode :
         {CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP, CL_ADDRESS_NONE})
      for (const int coordinates : {0, 1, 2}) { // unnormalized, normalized, integer
        const bool normalized = coordinates == 1, integer = coordinates == 2;
        // CL_ADDRESS_NONE reads inside the image only: the first two warps.
        const size_t count = mode == CL_ADDRESS_NONE ? 256 : at.size();
        SCOPED_TRACE(formatName(format) + " mode 0x" + std::to_string(mode) + " coordinates " +
                     std::to_string(coordinates));
        cl_kernel k = kernel("images", integer ? "sample_f2_int" : "sample_f2");
        cl_mem out = buffer<Float4>(count);
        std::vector<std::array<float, 2>> scaled = at;
        if (normalized)
          for (auto &[u, v] : scaled) {
            u /= float(w);
            v /= float(h);
          }
        setArgs(k, img, sampler(normalized, mode, CL_FILTER_NEAREST),
                integer ? buffer(atInt) : buffer(scaled), out);
        run(k, {count});
        const auto got = read<Float4>(out, count);
        for (size_t i = 0; i < count; ++i) {
          // The coordinate the sampler reads, in float as the device computes it.
          const double u = integer ? atInt[i][0] : scaled[i][0] * float(normalized ? w : 1);
          const double v = integer ? atInt[i][1] : scaled[i][1] * float(normalized ? h : 1);
          const double x = std::floor(u), y = std::floor(v);
          const bool inside = x >= 0 && x < w && y >= 0 && y < h;
          for (int c = 0; c < 4; ++c) {
            float want;
            if (mode == CL_ADDRESS_CLAMP && !inside)
              want = c == 3 && channels < 4 ? 1.0f : 0.0f;
            else
              want = texel(size_t(std::clamp(x, 0.0, double(w - 1))),
                           size_t(std::clamp(y, 0.0, double(h - 1))), c);
            ASSERT_NEAR(got[i][c], want, 1e-6f)
                << "lane " << i << " coordinate (" << u << ", " << v << ") component " << c;
          }
        }
      }
  }
}

} // namespace
} // namespace lanewise::test

namespace lanewise::test {
namespace {

// A CL_RGBA CL_FLOAT texel of (x, y, z): distinct, exact values.
Float4 texelValue(size_t x, size_t y, size_t z) {
  return {float(x), float(y) + 0.25f, float(z) + 0.5f, float(x + 10 * y + 100 * z)};
}

// Integer-coordinate reads of 1D, 1D array, 2D array and 3D images, and of
// a 1D image made from a buffer, each texel where the layout puts it.
TEST_F(Images, EveryImageTypeReadsItsTexels) {
  const cl_image_format rgbaFloat{CL_RGBA, CL_FLOAT}, rgbaInt{CL_RGBA, CL_SIGNED_INT32},
      rgbaUint{CL_RGBA, CL_UNSIGNED_INT32};
  constexpr size_t w = 9, h = 5, d = 3;
  std::vector<Float4> texels;
  for (size_t z = 0; z < d; ++z)
    for (size_t y = 0; y < h; ++y)
      for (size_t x = 0; x < w; ++x)
        texels.push_back(texelValue(x, y, z));
  auto check = [&](const std::vector<Float4> &got, size_t count) {
    for (size_t i = 0; i < count; ++i)
      for (int c = 0; c < 4; ++c)
        ASSERT_EQ(got[i][c], texels[i][c]) << "texel " << i << " component " << c;
  };
  {
    SCOPED_TRACE("1D");
    cl_mem img =
        image(CL_MEM_READ_ONLY, rgbaFloat, CL_MEM_OBJECT_IMAGE1D, w, 1, 1, 1, texels.data());
    cl_kernel k = kernel("images", "read_1d");
    cl_mem out = buffer<Float4>(w);
    setArgs(k, img, out);
    run(k, {w});
    check(read<Float4>(out, w), w);
  }
  {
    SCOPED_TRACE("1D array");
    cl_mem img =
        image(CL_MEM_READ_ONLY, rgbaFloat, CL_MEM_OBJECT_IMAGE1D_ARRAY, w, 1, 1, h, texels.data());
    cl_kernel k = kernel("images", "read_1d_array");
    cl_mem out = buffer<Float4>(w * h);
    setArgs(k, img, out);
    run(k, {w, h});
    check(read<Float4>(out, w * h), w * h);
  }
  {
    SCOPED_TRACE("3D");
    cl_mem img =
        image(CL_MEM_READ_ONLY, rgbaFloat, CL_MEM_OBJECT_IMAGE3D, w, h, d, 1, texels.data());
    cl_kernel k = kernel("images", "read_3d");
    cl_mem out = buffer<Float4>(w * h * d);
    setArgs(k, img, out);
    run(k, {w, h, d}, {3, 5, 1});
    check(read<Float4>(out, w * h * d), w * h * d);
  }
  {
    SCOPED_TRACE("2D array, signed integers");
    std::vector<std::array<std::int32_t, 4>> ints(w * h * d);
    for (size_t i = 0; i < ints.size(); ++i)
      ints[i] = {std::int32_t(i) - 50, -std::int32_t(i), std::int32_t(i * 1000), 7};
    cl_mem img =
        image(CL_MEM_READ_ONLY, rgbaInt, CL_MEM_OBJECT_IMAGE2D_ARRAY, w, h, 1, d, ints.data());
    cl_kernel k = kernel("images", "read_2d_array");
    cl_mem out = buffer<std::array<std::int32_t, 4>>(w * h * d);
    setArgs(k, img, out);
    run(k, {w, h, d});
    const auto got = read<std::array<std::int32_t, 4>>(out, w * h * d);
    for (size_t i = 0; i < ints.size(); ++i)
      ASSERT_EQ(got[i], ints[i]) << "texel " << i;
  }
  {
    SCOPED_TRACE("1D from a buffer");
    std::vector<Word4> words(w);
    for (size_t i = 0; i < w; ++i)
      words[i] = {std::uint32_t(i), std::uint32_t(i * 3), 0xffffffffu - std::uint32_t(i), 42};
    cl_mem storage = buffer(words);
    cl_mem img = image(CL_MEM_READ_ONLY, rgbaUint, CL_MEM_OBJECT_IMAGE1D_BUFFER, w, 1, 1, 1,
                       nullptr, storage);
    cl_kernel k = kernel("images", "read_1d_buffer");
    cl_mem out = buffer<Word4>(w);
    setArgs(k, img, out);
    run(k, {w});
    for (Word4 &word : words)
      word[3] += w;  // the kernel adds get_image_width
    EXPECT_EQ(read<Word4>(out, w), words);
  }
}

// Writes to a 3D image and a 2D array land at each texel's place.
TEST_F(Images, WritesTo3DImagesAndArraysLandInPlace) {
  constexpr size_t w = 6, h = 4, d = 3;
  {
    SCOPED_TRACE("3D");
    std::vector<Word4> values(w * h * d);
    for (size_t i = 0; i < values.size(); ++i)
      values[i] = {std::uint32_t(i), std::uint32_t(2 * i), std::uint32_t(3 * i), 1};
    cl_mem img =
        image(CL_MEM_WRITE_ONLY, {CL_RGBA, CL_UNSIGNED_INT32}, CL_MEM_OBJECT_IMAGE3D, w, h, d);
    cl_kernel k = kernel("images", "write_3d");
    setArgs(k, img, buffer(values));
    run(k, {w, h, d});
    const auto bytes = readImage(img, values.size() * 16, {w, h, d});
    std::vector<Word4> got(values.size());
    std::memcpy(got.data(), bytes.data(), bytes.size());
    EXPECT_EQ(got, values);
  }
  {
    SCOPED_TRACE("2D array");
    std::vector<Float4> values(w * h * d);
    for (size_t i = 0; i < values.size(); ++i)
      values[i] = {float(i), -float(i), 0.5f, 2.0f};
    cl_mem img =
        image(CL_MEM_WRITE_ONLY, {CL_RGBA, CL_FLOAT}, CL_MEM_OBJECT_IMAGE2D_ARRAY, w, h, 1, d);
    cl_kernel k = kernel("images", "write_2d_array");
    setArgs(k, img, buffer(values));
    run(k, {w, h, d});
    const auto bytes = readImage(img, values.size() * 16, {w, h, d});
    std::vector<Float4> got(values.size());
    std::memcpy(got.data(), bytes.data(), bytes.size());
    EXPECT_EQ(got, values);
  }
}

// Sampling 1D, 3D and array images: nearest at texel centres, and the
// layer of an array is clamp(rint(coordinate), 0, layers - 1) (8.2).
TEST_F(Images, SamplingOtherImageTypes) {
  constexpr size_t w = 5, h = 4, d = 3;
  std::vector<Float4> texels;
  for (size_t z = 0; z < d; ++z)
    for (size_t y = 0; y < h; ++y)
      for (size_t x = 0; x < w; ++x)
        texels.push_back(texelValue(x, y, z));
  const cl_image_format f{CL_RGBA, CL_FLOAT};
  cl_sampler nearest = sampler(false, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST);
  cl_sampler linear = sampler(true, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR);
  {
    SCOPED_TRACE("3D, linear, normalized");
    cl_mem img = image(CL_MEM_READ_ONLY, f, CL_MEM_OBJECT_IMAGE3D, w, h, d, 1, texels.data());
    // Halfway between the centres of x 1 and 2, at the centres of y 2, z 1.
    std::vector<Float4> at = {{2.0f / w, 2.5f / h, 1.5f / d, 0}};
    cl_kernel k = kernel("images", "sample_f3");
    cl_mem out = buffer<Float4>(1);
    setArgs(k, img, linear, buffer(at), out);
    run(k, {1});
    const Float4 got = read<Float4>(out, 1)[0];
    const Float4 a = texelValue(1, 2, 1), b = texelValue(2, 2, 1);
    for (int c = 0; c < 4; ++c)
      EXPECT_FLOAT_EQ(got[c], (a[c] + b[c]) / 2) << c;
  }
  {
    SCOPED_TRACE("2D array, layers clamped and rounded");
    cl_mem img = image(CL_MEM_READ_ONLY, f, CL_MEM_OBJECT_IMAGE2D_ARRAY, w, h, 1, d, texels.data());
    std::vector<Float4> at = {{1.5f, 2.5f, 0.4f, 0},
                              {1.5f, 2.5f, 1.6f, 0},
                              {3.5f, 0.5f, -7.0f, 0},
                              {3.5f, 0.5f, 9.0f, 0}};
    const std::array<size_t, 4> layer = {0, 2, 0, 2};
    cl_kernel k = kernel("images", "sample_f2a");
    cl_mem out = buffer<Float4>(at.size());
    setArgs(k, img, nearest, buffer(at), out);
    run(k, {at.size()});
    const auto got = read<Float4>(out, at.size());
    for (size_t i = 0; i < at.size(); ++i)
      EXPECT_EQ(got[i], texelValue(size_t(at[i][0]), size_t(at[i][1]), layer[i])) << i;
  }
  {
    SCOPED_TRACE("1D and 1D array");
    cl_mem one = image(CL_MEM_READ_ONLY, f, CL_MEM_OBJECT_IMAGE1D, w, 1, 1, 1, texels.data());
    cl_mem array =
        image(CL_MEM_READ_ONLY, f, CL_MEM_OBJECT_IMAGE1D_ARRAY, w, 1, 1, h, texels.data());
    std::vector<float> at1 = {0.5f, 4.9f, -3.0f, 12.0f};
    const std::array<size_t, 4> x = {0, 4, 0, 4};
    cl_kernel k1 = kernel("images", "sample_f1");
    cl_mem out1 = buffer<Float4>(at1.size());
    setArgs(k1, one, nearest, buffer(at1), out1);
    run(k1, {at1.size()});
    const auto got1 = read<Float4>(out1, at1.size());
    for (size_t i = 0; i < at1.size(); ++i)
      EXPECT_EQ(got1[i], texelValue(x[i], 0, 0)) << i;
    std::vector<std::array<float, 2>> at2 = {{2.5f, 3.0f}, {0.5f, 1.49f}};
    cl_kernel k2 = kernel("images", "sample_f1a");
    cl_mem out2 = buffer<Float4>(at2.size());
    setArgs(k2, array, nearest, buffer(at2), out2);
    run(k2, {at2.size()});
    const auto got2 = read<Float4>(out2, at2.size());
    EXPECT_EQ(got2[0], texelValue(2, 3, 0));
    EXPECT_EQ(got2[1], texelValue(0, 1, 0));
  }
}

// Integer formats through a sampler: nearest, the border colour of
// CLK_ADDRESS_CLAMP as integers, and integer coordinates.
TEST_F(Images, SampledIntegerReads) {
  constexpr size_t w = 4, h = 3;
  std::vector<std::array<std::int32_t, 4>> ints(w * h);
  for (size_t i = 0; i < ints.size(); ++i)
    ints[i] = {std::int32_t(i) - 6, 100 + std::int32_t(i), -1, std::int32_t(i)};
  cl_mem img = image(CL_MEM_READ_ONLY, {CL_RGBA, CL_SIGNED_INT32}, CL_MEM_OBJECT_IMAGE2D, w, h, 1,
                     1, ints.data());
  cl_sampler clamp = sampler(false, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST);
  std::vector<std::array<float, 2>> at = {{1.5f, 2.5f}, {-0.5f, 1.0f}, {3.99f, 0.0f}, {4.0f, 0.0f}};
  cl_kernel k = kernel("images", "sample_i2");
  cl_mem out = buffer<std::array<std::int32_t, 4>>(at.size());
  setArgs(k, img, clamp, buffer(at), out);
  run(k, {at.size()});
  const auto got = read<std::array<std::int32_t, 4>>(out, at.size());
  EXPECT_EQ(got[0], ints[2 * w + 1]);
  EXPECT_EQ(got[1], (std::array<std::int32_t, 4>{0, 0, 0, 0})); // CL_RGBA: alpha 0
  EXPECT_EQ(got[2], ints[3]);
  EXPECT_EQ(got[3], (std::array<std::int32_t, 4>{0, 0, 0, 0}));

  std::vector<Word4> words(w * h);
  for (size_t i = 0; i < words.size(); ++i)
    words[i] = {std::uint32_t(i), 0, 0, 0};
  cl_mem r = image(CL_MEM_READ_ONLY, {CL_R, CL_UNSIGNED_INT32}, CL_MEM_OBJECT_IMAGE2D, w, h, 1, 1,
                   nullptr);
  const size_t origin[3] = {0, 0, 0}, region[3] = {w, h, 1};
  std::vector<std::uint32_t> reds(w * h);
  for (size_t i = 0; i < reds.size(); ++i)
    reds[i] = std::uint32_t(i * 7);
  ASSERT_EQ(clEnqueueWriteImage(queue, r, CL_TRUE, origin, region, 0, 0, reds.data(), 0, nullptr,
                                nullptr),
            CL_SUCCESS);
  std::vector<std::array<std::int32_t, 2>> coords = {{1, 1}, {-2, 0}, {9, 2}, {3, 7}};
  const std::array<std::uint32_t, 4> expectedRed = {reds[5], reds[0], reds[2 * w + 3],
                                                    reds[2 * w + 3]};
  cl_kernel ki = kernel("images", "sample_ui2_int");
  cl_mem outi = buffer<Word4>(coords.size());
  setArgs(ki, r, sampler(false, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST), buffer(coords), outi);
  run(ki, {coords.size()});
  const auto goti = read<Word4>(outi, coords.size());
  for (size_t i = 0; i < coords.size(); ++i)
    EXPECT_EQ(goti[i], (Word4{expectedRed[i], 0, 0, 1})) << i; // CL_R: (r, 0, 0, 1)
}

// Samplers declared in the program: at program scope and in the kernel.
TEST_F(Images, ConstantSamplers) {
  constexpr size_t w = 8, h = 8;
  Image2D reference{w, h, {}};
  for (size_t y = 0; y < h; ++y)
    for (size_t x = 0; x < w; ++x)
      reference.texels.push_back(texelValue(x, y, 0));
  cl_mem img = image(CL_MEM_READ_ONLY, {CL_RGBA, CL_FLOAT}, CL_MEM_OBJECT_IMAGE2D, w, h, 1, 1,
                     reference.texels.data());
  std::vector<std::array<float, 2>> at = {
      {0.3f, 0.7f}, {-0.2f, 1.3f}, {0.999f, 0.01f}, {0.5f, -0.1f}};
  cl_kernel k = kernel("images", "sample_constant");
  cl_mem out = buffer<Float4>(2 * at.size());
  setArgs(k, img, buffer(at), out);
  run(k, {at.size()});
  const auto got = read<Float4>(out, 2 * at.size());
  for (size_t i = 0; i < at.size(); ++i) {
    const Float4 repeat =
        referenceSample(reference, at[i][0], at[i][1], true, CL_ADDRESS_REPEAT, true);
    const Float4 clamp =
        referenceSample(reference, at[i][0] * 8, at[i][1] * 8, false, CL_ADDRESS_CLAMP, false);
    for (int c = 0; c < 4; ++c) {
      EXPECT_NEAR(got[2 * i][c], repeat[c], 1e-4f * (1 + std::fabs(repeat[c]))) << i << " " << c;
      EXPECT_EQ(got[2 * i + 1][c], clamp[c]) << i << " " << c;
    }
  }
}

// A read-write image updated in place, with divergent work-items, over a
// range with a partial work-group.
TEST_F(Images, ReadWriteImageInPlaceWithDivergence) {
  constexpr size_t w = 37, h = 3;
  std::vector<Float4> texels(w * h);
  for (size_t i = 0; i < texels.size(); ++i)
    texels[i] = {float(i), 1.0f, -2.0f, 0.25f};
  cl_mem img = image(CL_MEM_READ_WRITE, {CL_RGBA, CL_FLOAT}, CL_MEM_OBJECT_IMAGE2D, w, h, 1, 1,
                     texels.data());
  cl_kernel k = kernel("images", "double_in_place");
  setArgs(k, img);
  run(k, {w, h}, {16, 1});
  const auto bytes = readImage(img, w * h * 16, {w, h, 1});
  std::vector<Float4> got(w * h);
  std::memcpy(got.data(), bytes.data(), bytes.size());
  for (size_t i = 0; i < got.size(); ++i) {
    const float add = (i % w) & 1 ? 1.0f : 0.0f;
    for (int c = 0; c < 4; ++c)
      ASSERT_EQ(got[i][c], (texels[i][c] + add) * 2) << "texel " << i << " component " << c;
  }
}

// get_image_width ... get_image_channel_data_type (6.15.15.5): the CLK_
// values of the channel order and data type, and sizes as created.
TEST_F(Images, QueriesAnswerAsCreated) {
  cl_mem a = image(CL_MEM_READ_ONLY, {CL_BGRA, CL_UNORM_INT8}, CL_MEM_OBJECT_IMAGE2D, 17, 9);
  cl_mem b = image(CL_MEM_READ_ONLY, {CL_R, CL_HALF_FLOAT}, CL_MEM_OBJECT_IMAGE3D, 5, 6, 7);
  cl_mem c = image(CL_MEM_READ_ONLY, {CL_RG, CL_FLOAT}, CL_MEM_OBJECT_IMAGE2D_ARRAY, 3, 4, 1, 11);
  cl_mem d =
      image(CL_MEM_READ_ONLY, {CL_RGBA, CL_SNORM_INT16}, CL_MEM_OBJECT_IMAGE1D_ARRAY, 8, 1, 1, 13);
  cl_kernel k = kernel("images", "queries");
  cl_mem out = buffer<std::int32_t>(13);
  setArgs(k, a, b, c, d, out);
  run(k, {1});
  const auto got = read<std::int32_t>(out, 13);
  const std::vector<std::int32_t> expected = {
      17, 9, CL_BGRA, CL_UNORM_INT8, 17, 9, 7, 5 + 60 + 700, 11, 13, 4, CL_R, CL_HALF_FLOAT};
  EXPECT_EQ(got, expected);
}

} // namespace
} // namespace lanewise::test

namespace lanewise::test {
namespace {

// read_imageh converts the float a read returns to half, rounding to
// nearest even; write_imageh converts half to the format as a float would
// be (OpenCL C 3.0, 6.15.15.4).
TEST_F(Images, HalfTexels) {
  if (deviceString(device, CL_DEVICE_EXTENSIONS).find("cl_khr_fp16") == std::string::npos)
    GTEST_SKIP() << "no cl_khr_fp16";
  constexpr size_t w = 9, h = 4;
  std::vector<Float4> texels(w * h);
  for (size_t i = 0; i < texels.size(); ++i)
    texels[i] = {float(i) / 3, -float(i) * 1000.125f, 1.0f / float(i + 1), 70000.0f};
  cl_mem in = image(CL_MEM_READ_ONLY, {CL_RGBA, CL_FLOAT}, CL_MEM_OBJECT_IMAGE2D, w, h, 1, 1,
                    texels.data());
  cl_mem out = image(CL_MEM_WRITE_ONLY, {CL_RGBA, CL_HALF_FLOAT}, CL_MEM_OBJECT_IMAGE2D, w, h);
  cl_kernel k = kernel("images", "half_texels");
  cl_mem values = buffer<std::array<std::uint16_t, 4>>(w * h);
  setArgs(k, in, out, values);
  run(k, {w, h});
  const auto got = read<std::array<std::uint16_t, 4>>(values, w * h);
  const auto written = readImage(out, w * h * 8, {w, h, 1});
  for (size_t i = 0; i < texels.size(); ++i)
    for (int c = 0; c < 4; ++c) {
      const _Float16 expected = _Float16(texels[i][c]);
      ASSERT_EQ(got[i][c], std::bit_cast<std::uint16_t>(expected)) << i << " " << c;
      std::uint16_t stored;
      std::memcpy(&stored, written.data() + 8 * i + 2 * c, 2);
      ASSERT_EQ(stored, std::bit_cast<std::uint16_t>(_Float16(expected * _Float16(2))))
          << i << " " << c;
    }
}

} // namespace
} // namespace lanewise::test

namespace lanewise::test {
namespace {

// The border colour of CLK_ADDRESS_CLAMP (OpenCL C 3.0, 8.2): alpha 1 for
// CL_R, CL_RG, CL_RGB and CL_LUMINANCE, 0 for the orders with alpha or x;
// inside the image, a missing alpha reads as 1 for both kinds.
TEST_F(Images, BorderColourFollowsTheChannelOrder) {
  const std::vector<std::array<float, 2>> at = {{-1.5f, 0.5f}, {0.5f, 0.5f}};
  const std::array<float, 4> value = {0.75f, 0.5f, 0.25f, 1.0f};
  for (const auto &[order, borderAlpha] :
       {std::pair{CL_R, 1.0f}, {CL_Rx, 0.0f}, {CL_RG, 1.0f}, {CL_RGx, 0.0f}, {CL_LUMINANCE, 1.0f},
        {CL_INTENSITY, 0.0f}, {CL_RGBA, 0.0f}}) {
    SCOPED_TRACE("order 0x" + std::to_string(order));
    const cl_image_format f{cl_channel_order(order), CL_FLOAT};
    bool supported = false;
    for (const cl_image_format &g : formats(CL_MEM_OBJECT_IMAGE2D, CL_MEM_READ_ONLY))
      supported |= g.image_channel_order == f.image_channel_order &&
                   g.image_channel_data_type == CL_FLOAT;
    if (!supported)
      continue;
    cl_mem img = image(CL_MEM_READ_ONLY, f, CL_MEM_OBJECT_IMAGE2D, 1, 1, 1, 1, value.data());
    cl_kernel k = kernel("images", "sample_f2");
    cl_mem out = buffer<Float4>(at.size());
    setArgs(k, img, sampler(false, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST), buffer(at), out);
    run(k, {at.size()});
    const auto got = read<Float4>(out, at.size());
    EXPECT_EQ(got[0], (Float4{0, 0, 0, borderAlpha}));
    const Word4 inside = referenceRead(f, reinterpret_cast<const std::uint8_t *>(value.data()));
    for (int c = 0; c < 4; ++c)
      EXPECT_EQ(got[1][c], std::bit_cast<float>(inside[c])) << c;
  }
}

} // namespace
} // namespace lanewise::test
