// SPDX-License-Identifier: Apache-2.0
// Image instructions (SPIR-V 1.4, 3.37.10; OpenCL C 3.0, 6.15.15 and 8):
// OpImageRead, OpImageWrite, OpImageSampleExplicitLod and the queries. The
// image operand holds the address of its descriptor (runtime/image.h). A
// handler chooses the data type once per warp when the image is uniform,
// and runs the lanes in one loop of that format's conversion; a varying
// image (chosen per work-item) is looked up lane by lane.
#include "runtime/check.h"
#include "runtime/handlers.h"
#include "runtime/image_format.h"
#include "runtime/interleave.h"
#include "runtime/shapes.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace lanewise::runtime {
namespace {

using namespace image;

const ImageDescriptor &descriptorAt(std::uint64_t address) {
  return *reinterpret_cast<const ImageDescriptor *>(address);
}

std::uint32_t layers(const ImageDescriptor &d) { return d.array ? d.arraySize : d.depth; }

// A texel's position: x, y, and z (the slice of a 3D image, the layer of an
// array). Positions outside the image have no texel.
struct Texel {
  std::int64_t x = 0, y = 0, z = 0;
};

const char *texelAddress(const ImageDescriptor &d, const Texel &t) {
  if (t.x < 0 || t.y < 0 || t.z < 0 || t.x >= d.width || t.y >= d.height || t.z >= layers(d))
    return nullptr;
  return d.data + std::uint64_t(t.z) * d.slicePitch + std::uint64_t(t.y) * d.rowPitch +
         std::uint64_t(t.x) * d.elementBytes;
}

// The texel an integer coordinate names: x, then y for 2D and 3D images,
// then z or the layer (OpenCL C 3.0, 6.15.15.2: coord.y of a 1D array and
// coord.z of a 2D array are the layer).
Texel integerTexel(const ImageDescriptor &d, const std::int32_t c[4]) {
  Texel t;
  t.x = c[0];
  if (d.dimensions >= 2)
    t.y = c[1];
  if (d.dimensions == 3)
    t.z = c[2];
  else if (d.array)
    t.z = c[d.dimensions];
  return t;
}

// The format's view: swizzle, channels in memory and sRGB conversion.
struct FormatView {
  Swizzle read, write;
  std::uint32_t channels;
  bool srgb;
  explicit FormatView(const ImageDescriptor &d)
      : read(readSwizzle(d.channelOrder)), write(writeSwizzle(d.channelOrder)),
        channels(channelCount(d.channelOrder)), srgb(isSrgb(d.channelOrder)) {}
};

// The border colour (OpenCL C 3.0, 8.2: CLK_ADDRESS_CLAMP), also what a
// read outside the image without a sampler returns: zeros, with alpha 1 for
// orders without alpha.
void border(const ImageDescriptor &d, std::uint32_t rgba[4]) {
  rgba[0] = rgba[1] = rgba[2] = rgba[3] = 0;
  if (borderAlphaIsOne(d.channelOrder))
    rgba[3] = kindOf(d.channelType) == Kind::Float ? std::bit_cast<std::uint32_t>(1.0f) : 1u;
}

// Under the checked mode (the instruction's immediate is its site plus
// one), an access of the lane outside the image is a finding.
void reportOutside(const Instruction &in, const ExecutionState &s, std::uint32_t lane,
                   const ImageDescriptor &d, const Texel &t, const char *access) {
  if (!in.immediate || !s.check)
    return;
  std::string detail = std::string(access) + " of texel (" + std::to_string(t.x);
  if (d.dimensions >= 2)
    detail += ", " + std::to_string(t.y);
  if (d.dimensions == 3 || d.array)
    detail += ", " + std::to_string(t.z);
  detail += ") outside the " + std::to_string(d.width);
  if (d.dimensions >= 2)
    detail += "x" + std::to_string(d.height);
  if (d.dimensions == 3)
    detail += "x" + std::to_string(d.depth);
  detail += d.array ? " image array of " + std::to_string(d.arraySize) + " layers" : " image";
  s.check->report(s, lane, std::uint32_t(in.immediate - 1), FindingKind::OutOfBounds, detail);
}

template <std::uint32_t T>
void fetch(const ImageDescriptor &d, const FormatView &f, const Texel &t, std::uint32_t rgba[4]) {
  if (const char *texel = texelAddress(d, t))
    readTexel<T>(texel, f.channels, f.read, f.srgb, rgba);
  else
    border(d, rgba);
}

// The lane's result: four 32-bit components, or four halves (read_imageh).
void putResult(const Instruction &in, ExecutionState &s, std::uint32_t lane,
               const std::uint32_t rgba[4]) {
  const bool varying = in.aux & 8, halves = in.aux & 0x10000;
  const std::uint32_t stride = varying ? s.width : 1, l = varying ? lane : 0;
  if (halves) {
    auto *out = s.reg<half>(in.result);
    for (int c = 0; c < 4; ++c)
      out[c * stride + l] = half(std::bit_cast<float>(rgba[c]));
  } else {
    auto *out = s.reg<std::uint32_t>(in.result);
    for (int c = 0; c < 4; ++c)
      out[c * stride + l] = rgba[c];
  }
}

// The lane's integer coordinate (operand 1, aux bit 2 varying, components in
// aux bits 8-11).
void integerCoordinate(const Instruction &in, const ExecutionState &s, std::uint32_t lane,
                       std::int32_t c[4]) {
  const bool varying = in.aux & 2;
  const std::uint32_t n = in.aux >> 8 & 15;
  const auto *coord = s.reg<const std::int32_t>(in.operand[1]);
  for (std::uint32_t i = 0; i < 4; ++i)
    c[i] = i < n ? coord[i * (varying ? s.width : 1) + (varying ? lane : 0)] : 0;
}

// Runs f(descriptor, lane) for the active lanes, with the descriptor's data
// type a constant: once per warp for a uniform image.
template <typename F> void forImageLanes(const Instruction &in, ExecutionState &s, F &&f) {
  const auto *images = s.reg<const std::uint64_t>(in.operand[0]);
  if (!(in.aux & 1)) {
    if (!images[0])
      return; // no image: nothing to read or write
    const ImageDescriptor &d = descriptorAt(images[0]);
    const FormatView view(d);
    withType(d.channelType, [&]<std::uint32_t T>() {
      forActiveLanes(s, [&](std::uint32_t lane) { f.template operator()<T>(d, view, lane); });
    });
    return;
  }
  forActiveLanes(s, [&](std::uint32_t lane) {
    if (!images[lane])
      return;
    const ImageDescriptor &d = descriptorAt(images[lane]);
    const FormatView view(d);
    withType(d.channelType, [&]<std::uint32_t T>() { f.template operator()<T>(d, view, lane); });
  });
}

// ---- rows of lanes ----
//
// The common case of image-processing kernels: one image for the warp (a
// kernel argument), one sampler (a constant), a 2D image of R, RG, RGBA or
// BGRA channels of a common type, 32-bit results and a varying result or
// value. The format and the sampler are decoded once for the warp and the
// lanes run in one loop with the texel's conversion inlined. Every other
// case takes the general per-lane path below; both compute the same values
// in the same order.

// The orders and types with a row path, as template arguments.
template <std::uint32_t O> constexpr std::uint32_t rowChannels() {
  return O == R ? 1 : O == RG ? 2 : 4;
}
template <std::uint32_t O> constexpr Swizzle rowReadSwizzle() {
  if constexpr (O == R)
    return {{0, zero, zero, one}};
  else if constexpr (O == RG)
    return {{0, 1, zero, one}};
  else if constexpr (O == BGRA)
    return {{2, 1, 0, 3}};
  else
    return {{0, 1, 2, 3}};
}
template <std::uint32_t O> constexpr Swizzle rowWriteSwizzle() {
  if constexpr (O == BGRA)
    return {{2, 1, 0, 3}};
  else
    return {{0, 1, 2, 3}};
}

// Calls f.template operator()<T, O>() and returns true when the image has a
// row path; returns false otherwise.
template <typename F> bool withRowFormat(const ImageDescriptor &d, F &&f) {
  if (d.dimensions != 2 || d.array)
    return false;
  auto byType = [&]<std::uint32_t O>() {
    switch (d.channelType) {
#define LANEWISE_ROW_TYPE(name)                                                                    \
  case name:                                                                                       \
    f.template operator()<name, O>();                                                              \
    return true;
      LANEWISE_ROW_TYPE(UnormInt8)
      LANEWISE_ROW_TYPE(UnormInt16)
      LANEWISE_ROW_TYPE(UnsignedInt8)
      LANEWISE_ROW_TYPE(SignedInt32)
      LANEWISE_ROW_TYPE(UnsignedInt32)
      LANEWISE_ROW_TYPE(HalfFloat)
      LANEWISE_ROW_TYPE(Float)
#undef LANEWISE_ROW_TYPE
    default:
      return false;
    }
  };
  switch (d.channelOrder) {
  case R:
    return byType.template operator()<R>();
  case RG:
    return byType.template operator()<RG>();
  case RGBA:
    return byType.template operator()<RGBA>();
  case BGRA:
    return byType.template operator()<BGRA>();
  default:
    return false;
  }
}

// The fractional part of a coordinate, the weight of the second texel.
float fraction(float x) { return x - std::floor(x); }

// floor(u) as an index, as floorIndex: NaN 0, far outside clamped to ±1e9.
inline std::int32_t floorInt(float u) {
  const float f = std::floor(u);
  return f >= -1.0e9f && f <= 1.0e9f ? std::int32_t(f)
         : f > 0.0f                  ? 1000000000
         : f < 0.0f                  ? -1000000000
                                     : 0;
}

// A row path's view of the instruction: the coordinate's x and y rows
// (`step` 1 when varying, 0 when one coordinate serves every lane) and the
// image's texels.
struct Rows {
  const std::uint32_t *x, *y;
  std::uint32_t step;
  const ImageDescriptor &d;

  Rows(const Instruction &in, const ExecutionState &s, const ImageDescriptor &image)
      : x(s.reg<const std::uint32_t>(in.operand[1])), y(x + ((in.aux & 2) ? s.width : 1)),
        step((in.aux & 2) ? 1 : 0), d(image) {}
  std::int32_t intX(std::uint32_t lane) const { return std::int32_t(x[lane * step]); }
  std::int32_t intY(std::uint32_t lane) const { return std::int32_t(y[lane * step]); }
  float floatX(std::uint32_t lane) const { return std::bit_cast<float>(x[lane * step]); }
  float floatY(std::uint32_t lane) const { return std::bit_cast<float>(y[lane * step]); }
  bool inside(std::int32_t i, std::int32_t j) const {
    return std::uint32_t(i) < d.width && std::uint32_t(j) < d.height;
  }
  const char *texel(std::int32_t i, std::int32_t j) const {
    return d.data + std::uint64_t(j) * d.rowPitch + std::uint64_t(i) * d.elementBytes;
  }
};

template <std::uint32_t T, std::uint32_t O>
inline void rowTexel(const Rows &rows, std::int32_t i, std::int32_t j, std::uint32_t rgba[4]) {
  readTexel<T>(rows.texel(i, j), rowChannels<O>(), rowReadSwizzle<O>(), false, rgba);
}

inline void putRow(std::uint32_t *out, std::uint32_t width, std::uint32_t lane,
                   const std::uint32_t rgba[4]) {
  for (int c = 0; c < 4; ++c)
    out[c * width + lane] = rgba[c];
}

// OpImageRead: integer coordinates, the border colour outside the image.
template <std::uint32_t T, std::uint32_t O>
void readRows(const Instruction &in, ExecutionState &s, const ImageDescriptor &d) {
  const Rows rows(in, s, d);
  std::uint32_t outside[4];
  border(d, outside);
  auto *out = s.reg<std::uint32_t>(in.result);
  forActiveLanes(
      s, [&](std::uint32_t lane) __attribute__((always_inline)) {
        const std::int32_t i = rows.intX(lane), j = rows.intY(lane);
        std::uint32_t rgba[4];
        if (rows.inside(i, j)) {
          rowTexel<T, O>(rows, i, j, rgba);
          putRow(out, s.width, lane, rgba);
        } else {
          reportOutside(in, s, lane, d, Texel{i, j, 0}, "read_image");
          putRow(out, s.width, lane, outside);
        }
      });
}

#if defined(__SSE2__)
// Nearest sampling, eight lanes at a time (nearestRows). The indices of
// eight coordinates of a row, as sampleRows computes them: a coordinate
// beyond ±1e9, or NaN, gives the index floorInt gives (clamped to the edge
// with ClampToEdge).
[[gnu::target("avx2")]] inline __m256i nearestIndices(const std::uint32_t *coordinate,
                                                      bool floatCoordinates, float scale,
                                                      __m256i last, bool clampToEdge) {
  __m256i index;
  if (floatCoordinates) {
    __m256 u = _mm256_mul_ps(_mm256_loadu_ps(reinterpret_cast<const float *>(coordinate)),
                             _mm256_set1_ps(scale));
    // NaN to -1e9 (max_ps returns its second operand for NaN), then within
    // ±1e9 as floorInt has it.
    u = _mm256_min_ps(_mm256_max_ps(u, _mm256_set1_ps(-1.0e9f)), _mm256_set1_ps(1.0e9f));
    index = _mm256_cvttps_epi32(_mm256_floor_ps(u));
  } else {
    index = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(coordinate));
  }
  if (!clampToEdge)
    return index;
  return _mm256_min_epi32(_mm256_max_epi32(index, _mm256_setzero_si256()), last);
}

// Whether every index of `index` lies in [0, last].
[[gnu::target("avx2")]] inline bool allWithin(__m256i index, __m256i last) {
  const __m256i outside = _mm256_or_si256(_mm256_cmpgt_epi32(_mm256_setzero_si256(), index),
                                          _mm256_cmpgt_epi32(index, last));
  return _mm256_testz_si256(outside, outside);
}

// Texels read by nearestRows: RGBA and R float (the bits as they are),
// or RGBA, BGRA, RG and R 8-bit normalized (c / 255.0f, as unorm8Values).
// A channel the order lacks reads as 0, alpha as 1 (8.3).
enum class FastTexels { FloatRgba, FloatR, Unorm8Rgba, Unorm8Bgra, Unorm8Rg, Unorm8R };

constexpr std::uint64_t texelBytes(FastTexels texels) {
  switch (texels) {
  case FastTexels::FloatRgba:
    return 16;
  case FastTexels::Unorm8Rg:
    return 2;
  case FastTexels::Unorm8R:
    return 1;
  default:
    return 4;
  }
}

// Lanes [0, result) of `lanes` whose coordinates are varying rows, their
// texels converted into the component rows. With ClampToEdge, every lane;
// otherwise (None, Clamp) up to the first eight lanes that are not all
// inside the image, which sampleRows takes lane by lane.
template <FastTexels Texels>
[[gnu::target("avx2")]] std::uint32_t
nearestRows(const Rows &rows, bool floatCoordinates, bool clampToEdge, float scaleX, float scaleY,
            std::uint32_t *out, std::uint32_t width, std::uint32_t lanes) {
  const __m256i lastX = _mm256_set1_epi32(std::int32_t(rows.d.width) - 1);
  const __m256i lastY = _mm256_set1_epi32(std::int32_t(rows.d.height) - 1);
  const std::uint64_t pitch = rows.d.rowPitch;
  constexpr std::uint64_t bytes = texelBytes(Texels);
  const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
  std::uint32_t first = 0;
  for (; first + 8 <= lanes; first += 8) {
    alignas(32) std::int32_t i[8], j[8];
    const __m256i is = nearestIndices(rows.x + first, floatCoordinates, scaleX, lastX, clampToEdge);
    const __m256i js = nearestIndices(rows.y + first, floatCoordinates, scaleY, lastY, clampToEdge);
    if (!clampToEdge && !(allWithin(is, lastX) && allWithin(js, lastY)))
      break;
    _mm256_store_si256(reinterpret_cast<__m256i *>(i), is);
    _mm256_store_si256(reinterpret_cast<__m256i *>(j), js);
    const char *texel[8];
    for (std::uint32_t l = 0; l < 8; ++l)
      texel[l] = rows.d.data + std::uint64_t(j[l]) * pitch + std::uint64_t(i[l]) * bytes;
    if constexpr (Texels == FastTexels::FloatRgba) {
      __m256i v[4];
      for (std::uint32_t k = 0; k < 4; ++k)
        v[k] = _mm256_inserti128_si256(
            _mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i *>(texel[k]))),
            _mm_loadu_si128(reinterpret_cast<const __m128i *>(texel[k + 4])), 1);
      transposeHalves(v);
      for (std::uint32_t c = 0; c < 4; ++c)
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(out + c * width + first), v[c]);
    } else {
      alignas(32) std::uint32_t packed[8] = {};
      for (std::uint32_t l = 0; l < 8; ++l)
        std::memcpy(&packed[l], texel[l], bytes);
      const __m256i v = _mm256_load_si256(reinterpret_cast<const __m256i *>(packed));
      if constexpr (Texels == FastTexels::FloatR) {
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(out + first), v);
        _mm256_storeu_ps(reinterpret_cast<float *>(out + width + first), zero);
        _mm256_storeu_ps(reinterpret_cast<float *>(out + 2 * width + first), zero);
        _mm256_storeu_ps(reinterpret_cast<float *>(out + 3 * width + first), one);
        continue;
      }
      for (std::uint32_t c = 0; c < 4; ++c) {
        if (c >= bytes) {
          _mm256_storeu_ps(reinterpret_cast<float *>(out + c * width + first), c == 3 ? one : zero);
          continue;
        }
        // Channel c of the result is byte c of the texel; of a BGRA one,
        // red and blue trade places.
        const std::uint32_t byte = Texels == FastTexels::Unorm8Bgra && c != 1 && c != 3 ? 2 - c : c;
        const __m256i channel =
            _mm256_and_si256(_mm256_srli_epi32(v, int(8 * byte)), _mm256_set1_epi32(0xff));
        _mm256_storeu_ps(reinterpret_cast<float *>(out + c * width + first),
                         _mm256_div_ps(_mm256_cvtepi32_ps(channel), _mm256_set1_ps(255.0f)));
      }
    }
  }
  return first;
}
#endif

// OpImageSampleExplicitLod with a uniform sampler of addressing mode None,
// ClampToEdge or Clamp (sampleAxis's formulas, in 32-bit indices).
template <std::uint32_t T, std::uint32_t O>
void sampleRows(const Instruction &in, ExecutionState &s, const ImageDescriptor &d,
                std::uint32_t bits) {
  const Rows rows(in, s, d);
  std::uint32_t outside[4];
  border(d, outside);
  auto *out = s.reg<std::uint32_t>(in.result);
  const bool floatCoordinates = in.aux & 0x20;
  const std::uint32_t mode = sampler::addressingMode(bits);
  const bool normalized = floatCoordinates && sampler::normalized(bits);
  const bool linear = floatCoordinates && sampler::linear(bits) && kindOf(T) == Kind::Float;
  const float scaleX = normalized ? float(d.width) : 1.0f;
  const float scaleY = normalized ? float(d.height) : 1.0f;
  const std::int32_t lastX = std::int32_t(d.width) - 1, lastY = std::int32_t(d.height) - 1;
  const char *access = "read_image with CLK_ADDRESS_NONE";
  if (!linear) {
    std::uint32_t done = 0;
#if defined(__SSE2__)
    if (s.dense && rows.step == 1 && handlerIsa() == Isa::Avx2) {
      auto rowsOf = [&]<FastTexels Texels>() {
        return nearestRows<Texels>(rows, floatCoordinates, mode == 1, scaleX, scaleY, out, s.width,
                                   s.span);
      };
      if constexpr (T == Float && O == RGBA)
        done = rowsOf.template operator()<FastTexels::FloatRgba>();
      if constexpr (T == Float && O == R)
        done = rowsOf.template operator()<FastTexels::FloatR>();
      if constexpr (T == UnormInt8 && O == RGBA)
        done = rowsOf.template operator()<FastTexels::Unorm8Rgba>();
      if constexpr (T == UnormInt8 && O == BGRA)
        done = rowsOf.template operator()<FastTexels::Unorm8Bgra>();
      if constexpr (T == UnormInt8 && O == RG)
        done = rowsOf.template operator()<FastTexels::Unorm8Rg>();
      if constexpr (T == UnormInt8 && O == R)
        done = rowsOf.template operator()<FastTexels::Unorm8R>();
    }
#endif
    forActiveLanes(
        s, [&](std::uint32_t lane) __attribute__((always_inline)) {
          if (lane < done)
            return;
          std::int32_t i, j;
          if (floatCoordinates) {
            i = floorInt(rows.floatX(lane) * scaleX);
            j = floorInt(rows.floatY(lane) * scaleY);
          } else {
            i = rows.intX(lane);
            j = rows.intY(lane);
          }
          std::uint32_t rgba[4];
          if (mode == 1) { // ClampToEdge
            rowTexel<T, O>(rows, std::clamp(i, 0, lastX), std::clamp(j, 0, lastY), rgba);
            putRow(out, s.width, lane, rgba);
          } else if (rows.inside(i, j)) {
            rowTexel<T, O>(rows, i, j, rgba);
            putRow(out, s.width, lane, rgba);
          } else {
            if (mode == 0)
              reportOutside(in, s, lane, d, Texel{i, j, 0}, access);
            putRow(out, s.width, lane, outside);
          }
        });
    return;
  }
  // The four neighbours weighted by the fractions, in sampleAxis's order.
  auto edge = [&](std::int32_t i, std::int32_t last) {
    return mode == 1 ? std::clamp(i, 0, last) : mode == 2 ? std::clamp(i, -1, last + 1) : i;
  };
  forActiveLanes(
      s, [&](std::uint32_t lane) __attribute__((always_inline)) {
        const float u = rows.floatX(lane) * scaleX - 0.5f, v = rows.floatY(lane) * scaleY - 0.5f;
        const std::int32_t i0 = floorInt(u), j0 = floorInt(v);
        const std::int32_t is[2] = {edge(i0, lastX), edge(i0 + 1, lastX)};
        const std::int32_t js[2] = {edge(j0, lastY), edge(j0 + 1, lastY)};
        const float a = fraction(u), b = fraction(v);
        float sum[4] = {};
        bool reported = false;
        for (std::uint32_t corner = 0; corner < 4; ++corner) {
          const bool right = corner & 1, below = corner >> 1 & 1;
          float weight = 1.0f;
          weight *= right ? a : 1.0f - a;
          weight *= below ? b : 1.0f - b;
          const std::int32_t i = is[right], j = js[below];
          std::uint32_t texel[4];
          if (rows.inside(i, j)) {
            rowTexel<T, O>(rows, i, j, texel);
          } else {
            if (mode == 0 && !reported) {
              reportOutside(in, s, lane, d, Texel{i, j, 0}, access);
              reported = true;
            }
            std::copy(outside, outside + 4, texel);
          }
          for (int k = 0; k < 4; ++k)
            sum[k] += weight * std::bit_cast<float>(texel[k]);
        }
        std::uint32_t rgba[4];
        for (int k = 0; k < 4; ++k)
          rgba[k] = std::bit_cast<std::uint32_t>(sum[k]);
        putRow(out, s.width, lane, rgba);
      });
}

// OpImageWrite: nothing outside the image.
template <std::uint32_t T, std::uint32_t O>
void writeRows(const Instruction &in, ExecutionState &s, const ImageDescriptor &d) {
  const Rows rows(in, s, d);
  const auto *value = s.reg<const std::uint32_t>(in.operand[2]);
  const std::uint32_t stride = (in.aux & 4) ? s.width : 1, step = (in.aux & 4) ? 1 : 0;
  forActiveLanes(
      s, [&](std::uint32_t lane) __attribute__((always_inline)) {
        const std::int32_t i = rows.intX(lane), j = rows.intY(lane);
        if (!rows.inside(i, j)) {
          reportOutside(in, s, lane, d, Texel{i, j, 0}, "write_image");
          return;
        }
        const std::uint32_t rgba[4] = {value[lane * step], value[stride + lane * step],
                                       value[2 * stride + lane * step],
                                       value[3 * stride + lane * step]};
        writeTexel<T>(const_cast<char *>(rows.texel(i, j)), rowChannels<O>(), rowWriteSwizzle<O>(),
                      false, rgba);
      });
}

// The image of a row path: uniform, present, and a varying result or value
// of 32-bit components; null otherwise.
const ImageDescriptor *rowImage(const Instruction &in, const ExecutionState &s,
                                std::uint32_t varyingBit) {
  const auto *images = s.reg<const std::uint64_t>(in.operand[0]);
  if ((in.aux & 1) || !(in.aux & varyingBit) || (in.aux & 0x10000) || !images[0])
    return nullptr;
  return &descriptorAt(images[0]);
}

// OpImageRead: a texel without a sampler. Outside the image, whose result
// OpenCL leaves undefined, the border colour.
void imageRead(const Instruction &in, ExecutionState &s) {
  if (const ImageDescriptor *d = rowImage(in, s, 8))
    if (withRowFormat(*d, [&]<std::uint32_t T, std::uint32_t O>() { readRows<T, O>(in, s, *d); }))
      return;
  forImageLanes(
      in, s,
      [&]<std::uint32_t T>(const ImageDescriptor &d, const FormatView &view, std::uint32_t lane) {
        std::int32_t c[4];
        integerCoordinate(in, s, lane, c);
        const Texel t = integerTexel(d, c);
        if (!texelAddress(d, t))
          reportOutside(in, s, lane, d, t, "read_image");
        std::uint32_t rgba[4];
        fetch<T>(d, view, t, rgba);
        putResult(in, s, lane, rgba);
      });
}

// OpImageWrite: operand 2 the value, four 32-bit components or four halves
// (aux bit 0x10000), varying with aux bit 4. A write outside the image,
// undefined in OpenCL, writes nothing.
void imageWrite(const Instruction &in, ExecutionState &s) {
  if (const ImageDescriptor *d = rowImage(in, s, 4))
    if (withRowFormat(*d, [&]<std::uint32_t T, std::uint32_t O>() { writeRows<T, O>(in, s, *d); }))
      return;
  const bool varying = in.aux & 4, halves = in.aux & 0x10000;
  forImageLanes(
      in, s,
      [&]<std::uint32_t T>(const ImageDescriptor &d, const FormatView &view, std::uint32_t lane) {
        std::int32_t c[4];
        integerCoordinate(in, s, lane, c);
        const Texel t = integerTexel(d, c);
        char *texel = const_cast<char *>(texelAddress(d, t));
        if (!texel) {
          reportOutside(in, s, lane, d, t, "write_image");
          return;
        }
        const std::uint32_t stride = varying ? s.width : 1, l = varying ? lane : 0;
        std::uint32_t rgba[4];
        for (int k = 0; k < 4; ++k)
          rgba[k] = halves ? std::bit_cast<std::uint32_t>(
                                 widen(s.reg<const half>(in.operand[2])[k * stride + l]))
                           : s.reg<const std::uint32_t>(in.operand[2])[k * stride + l];
        writeTexel<T>(texel, view.channels, view.write, view.srgb, rgba);
      });
}

// ---- sampling (OpenCL C 3.0, 8.2) ----

// floor(u) as an index; coordinates far outside every image keep their side.
std::int64_t floorIndex(float u) {
  if (std::isnan(u))
    return 0;
  return std::int64_t(std::floor(std::clamp(u, -1.0e9f, 1.0e9f)));
}

// The addressing modes that act on an index: clamp to edge, clamp (one texel
// of border on each side), none.
std::int64_t address(std::uint32_t mode, std::int64_t i, std::int64_t size) {
  switch (mode) {
  case 1: // ClampToEdge
    return std::clamp<std::int64_t>(i, 0, size - 1);
  case 2: // Clamp
    return std::clamp<std::int64_t>(i, -1, size);
  default: // None (and Repeat and RepeatMirrored without normalized coordinates,
           // whose result OpenCL leaves undefined)
    return i;
  }
}

// One dimension of a sample: the two texel indices and the weight of the
// second (linear), or the one index (nearest).
struct Axis {
  std::int64_t i0 = 0, i1 = 0;
  float a = 0.0f;
};

Axis sampleAxis(float s, std::int64_t size, std::uint32_t bits, bool linear) {
  const std::uint32_t mode = sampler::addressingMode(bits);
  const bool normalized = sampler::normalized(bits);
  const float w = float(size);
  Axis axis;
  if (normalized && mode == 3) { // Repeat
    const float u = (s - std::floor(s)) * w;
    if (!linear) {
      axis.i0 = floorIndex(u);
      if (axis.i0 > size - 1)
        axis.i0 -= size;
      return axis;
    }
    axis.i0 = floorIndex(u - 0.5f);
    axis.i1 = axis.i0 + 1;
    if (axis.i0 < 0)
      axis.i0 += size;
    if (axis.i1 > size - 1)
      axis.i1 -= size;
    axis.a = fraction(u - 0.5f);
    return axis;
  }
  if (normalized && mode == 4) { // RepeatMirrored
    const float mirrored = std::fabs(s - 2.0f * std::nearbyint(0.5f * s));
    const float u = mirrored * w;
    if (!linear) {
      axis.i0 = std::min<std::int64_t>(floorIndex(u), size - 1);
      return axis;
    }
    axis.i0 = std::max<std::int64_t>(floorIndex(u - 0.5f), 0);
    axis.i1 = std::min<std::int64_t>(floorIndex(u - 0.5f) + 1, size - 1);
    axis.a = fraction(u - 0.5f);
    return axis;
  }
  const float u = normalized ? s * w : s;
  if (!linear) {
    axis.i0 = address(mode, floorIndex(u), size);
    return axis;
  }
  axis.i0 = address(mode, floorIndex(u - 0.5f), size);
  axis.i1 = address(mode, floorIndex(u - 0.5f) + 1, size);
  axis.a = fraction(u - 0.5f);
  return axis;
}

// The layer of an array image: clamp(rint(coordinate), 0, layers - 1).
std::int64_t layerIndex(float s, const ImageDescriptor &d) {
  return std::clamp<std::int64_t>(floorIndex(std::nearbyint(s)), 0, std::int64_t(d.arraySize) - 1);
}

// OpImageSampleExplicitLod (Lod 0): operand 1 the coordinate, float (aux
// bit 0x20) or int; operand 2 the sampler's bit field, varying with aux bit
// 4. Linear filtering applies to the float formats (read_imagef); the
// integer ones read the nearest texel.
void imageSample(const Instruction &in, ExecutionState &s) {
  const bool floatCoordinates = in.aux & 0x20, samplerVarying = in.aux & 4,
             coordinateVarying = in.aux & 2;
  const std::uint32_t n = in.aux >> 8 & 15;
  const auto *samplers = s.reg<const std::uint64_t>(in.operand[2]);
  if (!samplerVarying)
    if (const ImageDescriptor *d = rowImage(in, s, 8)) {
      const std::uint32_t bits = std::uint32_t(samplers[0]);
      if (sampler::addressingMode(bits) <= 2 &&
          withRowFormat(
              *d, [&]<std::uint32_t T, std::uint32_t O>() { sampleRows<T, O>(in, s, *d, bits); }))
        return;
    }
  forImageLanes(
      in, s,
      [&]<std::uint32_t T>(const ImageDescriptor &d, const FormatView &view, std::uint32_t lane) {
        const std::uint32_t bits = std::uint32_t(samplers[samplerVarying ? lane : 0]);
        float c[4] = {};
        for (std::uint32_t i = 0; i < n && i < 4; ++i) {
          const std::uint32_t at =
              i * (coordinateVarying ? s.width : 1) + (coordinateVarying ? lane : 0);
          c[i] = floatCoordinates ? s.reg<const float>(in.operand[1])[at]
                                  : float(s.reg<const std::int32_t>(in.operand[1])[at]);
        }
        std::uint32_t bitsForAxes = bits;
        if (!floatCoordinates) // integer coordinates: unnormalized, nearest
          bitsForAxes &= ~(sampler::normalizedCoords | sampler::filterLinear);
        const bool linear = sampler::linear(bitsForAxes) && kindOf(T) == Kind::Float;
        const std::int64_t sizes[3] = {d.width, d.height, d.depth};
        Axis axes[3];
        for (std::uint32_t k = 0; k < d.dimensions; ++k)
          axes[k] = sampleAxis(c[k], sizes[k], bitsForAxes, linear);
        const std::int64_t layer = d.array ? layerIndex(c[d.dimensions], d) : 0;
        std::uint32_t rgba[4];
        // CLK_ADDRESS_NONE leaves reads outside the image undefined.
        bool unchecked = sampler::addressingMode(bitsForAxes) == 0;
        if (!linear) {
          Texel t{axes[0].i0, axes[1].i0, d.dimensions == 3 ? axes[2].i0 : layer};
          if (unchecked && !texelAddress(d, t))
            reportOutside(in, s, lane, d, t, "read_image with CLK_ADDRESS_NONE");
          fetch<T>(d, view, t, rgba);
          putResult(in, s, lane, rgba);
          return;
        }
        // T = sum of the 2, 4 or 8 neighbours, each weighted by the product of
        // (1 - a) or a along each axis.
        float sum[4] = {};
        const std::uint32_t corners = 1u << d.dimensions;
        for (std::uint32_t corner = 0; corner < corners; ++corner) {
          float weight = 1.0f;
          std::int64_t index[3] = {0, 0, layer};
          for (std::uint32_t k = 0; k < d.dimensions; ++k) {
            const bool second = corner >> k & 1;
            index[k] = second ? axes[k].i1 : axes[k].i0;
            weight *= second ? axes[k].a : 1.0f - axes[k].a;
          }
          std::uint32_t texel[4];
          const Texel t{index[0], index[1], index[2]};
          if (unchecked && !texelAddress(d, t)) {
            reportOutside(in, s, lane, d, t, "read_image with CLK_ADDRESS_NONE");
            unchecked = false; // one finding per lane
          }
          fetch<T>(d, view, t, texel);
          for (int k = 0; k < 4; ++k)
            sum[k] += weight * std::bit_cast<float>(texel[k]);
        }
        for (int k = 0; k < 4; ++k)
          rgba[k] = std::bit_cast<std::uint32_t>(sum[k]);
        putResult(in, s, lane, rgba);
      });
}

// OpImageQuerySize[Lod], OpImageQueryOrder, OpImageQueryFormat: aux bits
// 12-13 the query (0 size, 1 channel order, 2 data type), bit 0x4000 a
// 64-bit result; components the result's.
void imageQuery(const Instruction &in, ExecutionState &s) {
  const bool imageVarying = in.aux & 1, resultVarying = in.aux & 8, wide = in.aux & 0x4000;
  const std::uint32_t query = in.aux >> 12 & 3;
  const auto *images = s.reg<const std::uint64_t>(in.operand[0]);
  auto answer = [&](std::uint64_t address, std::uint64_t(&values)[4]) {
    if (!address)
      return;
    const ImageDescriptor &d = descriptorAt(address);
    if (query == 1) {
      values[0] = d.channelOrder;
    } else if (query == 2) {
      values[0] = d.channelType;
    } else {
      const std::uint64_t sizes[3] = {d.width, d.height, d.depth};
      for (std::uint32_t k = 0; k < d.dimensions; ++k)
        values[k] = sizes[k];
      if (d.array)
        values[d.dimensions] = d.arraySize;
    }
  };
  auto put = [&](std::uint32_t lane, const std::uint64_t(&values)[4]) {
    const std::uint32_t stride = resultVarying ? s.width : 1, l = resultVarying ? lane : 0;
    for (std::uint32_t c = 0; c < in.components; ++c) {
      if (wide)
        s.reg<std::uint64_t>(in.result)[c * stride + l] = values[c];
      else
        s.reg<std::uint32_t>(in.result)[c * stride + l] = std::uint32_t(values[c]);
    }
  };
  if (!imageVarying) {
    // One image (the usual case, a kernel argument): one answer, put in
    // every active lane's element, or in the one element of a uniform result.
    std::uint64_t values[4] = {};
    answer(images[0], values);
    if (resultVarying)
      forActiveLanes(s, [&](std::uint32_t lane) { put(lane, values); });
    else
      put(0, values);
    return;
  }
  forActiveLanes(s, [&](std::uint32_t lane) {
    std::uint64_t values[4] = {};
    answer(images[lane], values);
    put(lane, values);
  });
}

} // namespace

Handler imageReadHandler() { return &imageRead; }
Handler imageWriteHandler() { return &imageWrite; }
Handler imageSampleHandler() { return &imageSample; }
Handler imageQueryHandler() { return &imageQuery; }

} // namespace lanewise::runtime
