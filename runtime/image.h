// SPDX-License-Identifier: Apache-2.0
// Images and samplers as kernels see them (OpenCL C 3.0, 6.15.15; the OpenCL
// SPIR-V environment, 2.9 and 2.10; OpenCL 3.0 API, 5.3 and 5.4).
//
// An image kernel argument is a pointer to the image's descriptor, which
// lives as long as the image; a sampler argument, and an OpConstantSampler,
// is its 32-bit OpenCL C bit field (CLK_NORMALIZED_COORDS_TRUE,
// CLK_ADDRESS_*, CLK_FILTER_*). Channel orders and data types are SPIR-V's
// enumerants, which are the OpenCL API's values less 0x10B0 and 0x10D0.
#pragma once

#include <cstdint>

namespace lanewise::runtime {

// The image types of OpenCL C (image1d_t ... image3d_t), as a kernel
// argument declares them and an image object is created.
enum class ImageType : std::uint8_t {
  Image1D,
  Image1DBuffer,
  Image1DArray,
  Image2D,
  Image2DArray,
  Image3D
};

// A kernel image argument's access qualifier.
enum class ImageAccess : std::uint8_t { ReadOnly, WriteOnly, ReadWrite };

struct ImageDescriptor {
  char *data = nullptr;           // texel (0, 0, 0) of layer 0
  std::uint64_t rowPitch = 0;     // bytes from one row to the next
  std::uint64_t slicePitch = 0;   // bytes from one slice (3D) or layer (arrays) to the next
  std::uint32_t width = 1;        // in texels
  std::uint32_t height = 1;       // 1 for 1D images and 1D arrays
  std::uint32_t depth = 1;        // 1 but for 3D images
  std::uint32_t arraySize = 1;    // layers of an array image, 1 for others
  std::uint32_t channelOrder = 0; // spv::ImageChannelOrder
  std::uint32_t channelType = 0;  // spv::ImageChannelDataType
  std::uint32_t elementBytes = 0; // bytes per texel
  std::uint32_t dimensions = 1;   // of one layer: 1, 2 or 3
  bool array = false;             // 1D or 2D array: the last coordinate is the layer
  bool writable = false;          // created for kernel writes (not CL_MEM_READ_ONLY)
  bool readable = false;          // created for kernel reads (not CL_MEM_WRITE_ONLY)
};

// The OpenCL C sampler bit field (clang's opencl-c-base.h and the values
// every OpenCL C compiler shares).
namespace sampler {
inline constexpr std::uint32_t normalizedCoords = 0x1; // CLK_NORMALIZED_COORDS_TRUE
inline constexpr std::uint32_t addressMask = 0xE;      // CLK_ADDRESS_*: mode << 1
inline constexpr std::uint32_t addressShift = 1;       // modes as spv::SamplerAddressingMode
inline constexpr std::uint32_t filterNearest = 0x10;   // CLK_FILTER_NEAREST
inline constexpr std::uint32_t filterLinear = 0x20;    // CLK_FILTER_LINEAR

// spv::SamplerAddressingMode: None 0, ClampToEdge 1, Clamp 2, Repeat 3,
// RepeatMirrored 4.
constexpr std::uint32_t addressingMode(std::uint32_t bits) {
  return (bits & addressMask) >> addressShift;
}
constexpr bool linear(std::uint32_t bits) { return bits & filterLinear; }
constexpr bool normalized(std::uint32_t bits) { return bits & normalizedCoords; }
// From OpConstantSampler's or clCreateSampler's three properties.
constexpr std::uint32_t bits(std::uint32_t addressing, bool normalizedCoordinates,
                             bool linearFilter) {
  return (addressing << addressShift) | (normalizedCoordinates ? normalizedCoords : 0u) |
         (linearFilter ? filterLinear : filterNearest);
}
} // namespace sampler

// The bytes of one texel of `image`'s format holding `color` (OpenCL 3.0
// API, clEnqueueFillImage): four floats for normalized and floating-point
// channel types, four ints for signed and four unsigned ints for unsigned
// integer ones, in RGBA order, converted by OpenCL C 3.0's rules for image
// writes (8.3). Writes image.elementBytes bytes. (runtime/image_format.cpp)
void encodeTexel(const ImageDescriptor &image, const void *color, void *texel);

} // namespace lanewise::runtime
