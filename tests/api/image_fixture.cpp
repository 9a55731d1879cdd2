// SPDX-License-Identifier: Apache-2.0
// The image tests' helpers (declared in image_fixture.h).
#include "image_fixture.h"

#include <cstdint>
#include <string>

namespace lanewise::test::images {

Bytes pattern(size_t size, unsigned seed) {
  Bytes bytes(size);
  for (size_t i = 0; i < size; ++i)
    bytes[i] = static_cast<std::uint8_t>(i * 29 + seed * 71 + 3);
  return bytes;
}

std::string typeName(cl_mem_object_type type) {
  switch (type) {
  case CL_MEM_OBJECT_IMAGE1D:
    return "1D";
  case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    return "1D buffer";
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    return "1D array";
  case CL_MEM_OBJECT_IMAGE2D:
    return "2D";
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    return "2D array";
  default:
    return "3D";
  }
}

size_t referenceElementSize(cl_channel_order order, cl_channel_type type) {
  switch (type) {
  case CL_UNORM_SHORT_565:
  case CL_UNORM_SHORT_555:
    return 2;
  case CL_UNORM_INT_101010:
  case CL_UNORM_INT_101010_2:
    return 4;
  default:
    break;
  }
  size_t channels = 4;
  // CL_Rx and CL_RGx are laid out as CL_R and CL_RG (OpenCL 3.0, Image
  // Format Descriptor: they differ in their border colour only).
  if (order == CL_R || order == CL_A || order == CL_INTENSITY || order == CL_LUMINANCE ||
      order == CL_DEPTH || order == CL_Rx)
    channels = 1;
  else if (order == CL_RG || order == CL_RA || order == CL_RGx)
    channels = 2;
  else if (order == CL_RGB || order == CL_sRGB)
    channels = 3;
  size_t bytes = 4;
  if (type == CL_SNORM_INT8 || type == CL_UNORM_INT8 || type == CL_SIGNED_INT8 ||
      type == CL_UNSIGNED_INT8)
    bytes = 1;
  else if (type == CL_SNORM_INT16 || type == CL_UNORM_INT16 || type == CL_SIGNED_INT16 ||
           type == CL_UNSIGNED_INT16 || type == CL_HALF_FLOAT)
    bytes = 2;
  return channels * bytes;
}

Shape shapeOf(cl_mem_object_type type) {
  switch (type) {
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    return {type, 7, 1, 1, 3};
  case CL_MEM_OBJECT_IMAGE2D:
    return {type, 7, 5};
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    return {type, 7, 5, 1, 3};
  case CL_MEM_OBJECT_IMAGE3D:
    return {type, 7, 5, 4};
  default:
    return {type, 13};
  }
}

cl_image_desc describe(const Shape &shape, size_t rowPitch, size_t slicePitch, cl_mem buffer) {
  cl_image_desc desc{};
  desc.image_type = shape.type;
  desc.image_width = shape.width;
  desc.image_height = shape.height;
  desc.image_depth = shape.depth;
  desc.image_array_size = shape.layers;
  desc.image_row_pitch = rowPitch;
  desc.image_slice_pitch = slicePitch;
  desc.mem_object = buffer;
  return desc;
}

HostLayout tightLayout(const Shape &shape, size_t element, const Size3 &region) {
  const size_t row = region[0] * element;
  if (shape.type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
    return {element, row, row};
  return {element, row, row * region[1]};
}

void copyTexels(const Bytes &from, const HostLayout &source, const Size3 &sourceOrigin, Bytes &to,
                const HostLayout &destination, const Size3 &destinationOrigin,
                const Size3 &region) {
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y)
      for (size_t x = 0; x < region[0]; ++x)
        for (size_t b = 0; b < source.element; ++b)
          to.at(destination.offset(destinationOrigin[0] + x, destinationOrigin[1] + y,
                                   destinationOrigin[2] + z) +
                b) =
              from.at(source.offset(sourceOrigin[0] + x, sourceOrigin[1] + y, sourceOrigin[2] + z) +
                      b);
}

size_t volume(const Size3 &region) { return region[0] * region[1] * region[2]; }

} // namespace lanewise::test::images
