// SPDX-License-Identifier: Apache-2.0
// What the image object tests share (image_test.cpp, image_creation_test.cpp,
// image_command_test.cpp): byte patterns, the image types and their shapes
// and descriptors, the spec's element sizes, the layout of image data in
// host memory, and the Images fixture, which skips on a device without
// image support.
#pragma once

#include "common.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace lanewise::test::images {

using Bytes = std::vector<std::uint8_t>;
using Size3 = std::array<size_t, 3>;

Bytes pattern(size_t size, unsigned seed);

inline constexpr cl_mem_object_type imageTypes[] = {
    CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE1D_ARRAY,
    CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE2D_ARRAY,  CL_MEM_OBJECT_IMAGE3D};

std::string typeName(cl_mem_object_type type);

// OpenCL 3.0, Image Format Descriptor: channels per order, bytes per
// channel (the packed types: per element).
size_t referenceElementSize(cl_channel_order order, cl_channel_type type);

// The extent of an image: width, then rows or layers, then slices or layers,
// as origin and region address them.
struct Shape {
  cl_mem_object_type type;
  size_t width, height = 1, depth = 1, layers = 1;

  Size3 extent() const {
    switch (type) {
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      return {width, layers, 1};
    case CL_MEM_OBJECT_IMAGE2D:
      return {width, height, 1};
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      return {width, height, layers};
    case CL_MEM_OBJECT_IMAGE3D:
      return {width, height, depth};
    default:
      return {width, 1, 1};
    }
  }
};

Shape shapeOf(cl_mem_object_type type);

cl_image_desc describe(const Shape &shape, size_t rowPitch = 0, size_t slicePitch = 0,
                       cl_mem buffer = nullptr);

// Host memory holding a region: texel (x, y, z) at z * slicePitch + y *
// rowPitch + x * element (the rows of a 1D array's region are its layers,
// at the slice pitch).
struct HostLayout {
  size_t element, rowPitch, slicePitch;
  size_t offset(size_t x, size_t y, size_t z) const {
    return z * slicePitch + y * rowPitch + x * element;
  }
};

HostLayout tightLayout(const Shape &shape, size_t element, const Size3 &region);

// Copies region texels between two host layouts.
void copyTexels(const Bytes &from, const HostLayout &source, const Size3 &sourceOrigin, Bytes &to,
                const HostLayout &destination, const Size3 &destinationOrigin, const Size3 &region);

size_t volume(const Size3 &region);

class Images : public ContextTest {
protected:
  void SetUp() override {
    ContextTest::SetUp();
    if (deviceInfo<cl_bool>(device, CL_DEVICE_IMAGE_SUPPORT) != CL_TRUE)
      GTEST_SKIP() << "the device has no image support";
  }

  std::vector<cl_image_format> formats(cl_mem_flags flags, cl_mem_object_type type) {
    cl_uint count = 0;
    EXPECT_EQ(clGetSupportedImageFormats(context, flags, type, 0, nullptr, &count), CL_SUCCESS);
    std::vector<cl_image_format> list(count);
    if (count) {
      EXPECT_EQ(clGetSupportedImageFormats(context, flags, type, count, list.data(), nullptr),
                CL_SUCCESS);
    }
    return list;
  }

  // An image of `shape` (a 1D image buffer on a buffer of its own, kept in
  // `backing`).
  Mem image(const Shape &shape, cl_image_format format = {CL_RGBA, CL_UNSIGNED_INT8},
            cl_mem_flags flags = CL_MEM_READ_WRITE, void *host = nullptr, size_t rowPitch = 0,
            size_t slicePitch = 0) {
    cl_int err = CL_SUCCESS;
    cl_mem buffer = nullptr;
    if (shape.type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
      backing.reset(
          clCreateBuffer(context, CL_MEM_READ_WRITE,
                         shape.width * referenceElementSize(format.image_channel_order,
                                                            format.image_channel_data_type),
                         nullptr, &err));
      EXPECT_EQ(err, CL_SUCCESS);
      buffer = backing.get();
    }
    const cl_image_desc desc = describe(shape, rowPitch, slicePitch, buffer);
    Mem made(clCreateImage(context, flags, &format, &desc, host, &err));
    EXPECT_EQ(err, CL_SUCCESS) << typeName(shape.type);
    return made;
  }

  template <typename T> T imageInfo(cl_mem mem, cl_image_info param) {
    T value{};
    EXPECT_EQ(clGetImageInfo(mem, param, sizeof(T), &value, nullptr), CL_SUCCESS)
        << "param 0x" << std::hex << param;
    return value;
  }
  template <typename T> T memInfo(cl_mem mem, cl_mem_info param) {
    T value{};
    EXPECT_EQ(clGetMemObjectInfo(mem, param, sizeof(T), &value, nullptr), CL_SUCCESS)
        << "param 0x" << std::hex << param;
    return value;
  }

  Bytes read(cl_mem mem, const Size3 &origin, const Size3 &region, size_t element) {
    Bytes out(volume(region) * element, 0xEE);
    EXPECT_EQ(clEnqueueReadImage(queue, mem, CL_TRUE, origin.data(), region.data(), 0, 0,
                                 out.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    return out;
  }
  void write(cl_mem mem, const Size3 &origin, const Size3 &region, const Bytes &data) {
    EXPECT_EQ(clEnqueueWriteImage(queue, mem, CL_TRUE, origin.data(), region.data(), 0, 0,
                                  data.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
  }

  Mem backing{nullptr};
};

} // namespace lanewise::test::images
