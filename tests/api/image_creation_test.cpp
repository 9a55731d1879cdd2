// SPDX-License-Identifier: Apache-2.0
// Image objects (OpenCL 3.0 API spec, 5.3) made from buffers and from
// other images (1D image buffers, 2D images from buffers, views with a
// compatible channel order), the deprecated clCreateImage2D and
// clCreateImage3D, and the errors of image creation: bad formats,
// descriptors, sizes, flags and host pointers.
#include "image_fixture.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lanewise::test::images {
namespace {

// ---------------------------------------------------------------------------
// Images from buffers and images

TEST_F(Images, ImageBufferSharesTheBuffersStorage) {
  const size_t element = 4, width = 16;
  cl_int err = CL_SUCCESS;
  Mem buffer(clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_HOST_READ_ONLY,
                            width * element + 32, nullptr, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  const cl_image_format format = {CL_RGBA, CL_UNORM_INT8};
  const cl_image_desc desc = describe({CL_MEM_OBJECT_IMAGE1D_BUFFER, width}, 0, 0, buffer.get());
  Mem mem(clCreateImage(context, 0, &format, &desc, nullptr, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  // Flags not given are inherited; CL_MEM_FLAGS reports those given (PoCL
  // 3.1 reports the inherited ones too).
  if (testingLanewise()) {
    EXPECT_EQ(memInfo<cl_mem_flags>(mem.get(), CL_MEM_FLAGS), cl_mem_flags{0});
  }
  EXPECT_EQ(memInfo<cl_mem>(mem.get(), CL_MEM_ASSOCIATED_MEMOBJECT), buffer.get());
  EXPECT_EQ(imageInfo<cl_mem>(mem.get(), CL_IMAGE_BUFFER), buffer.get());
  const Size3 zero = {0, 0, 0}, region = {width, 1, 1};
  const Bytes data = pattern(width * element, 20);
  EXPECT_EQ(clEnqueueWriteImage(queue, mem.get(), CL_TRUE, zero.data(), region.data(), 0, 0,
                                data.data(), 0, nullptr, nullptr),
            CL_INVALID_OPERATION)
      << "CL_MEM_HOST_READ_ONLY inherited from the buffer";
  ASSERT_EQ(clEnqueueWriteBuffer(queue, buffer.get(), CL_TRUE, 0, data.size(), data.data(), 0,
                                 nullptr, nullptr),
            CL_INVALID_OPERATION);
  // Through a copy instead: the image shows the buffer's bytes.
  Mem staging(clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, data.size(),
                             const_cast<std::uint8_t *>(data.data()), &err));
  ASSERT_EQ(clEnqueueCopyBuffer(queue, staging.get(), buffer.get(), 0, 0, data.size(), 0, nullptr,
                                nullptr),
            CL_SUCCESS);
  EXPECT_EQ(read(mem.get(), zero, region, element), data);
  if (!testingLanewise())
    return; // PoCL 3.1 accepts each of the misuses below
  // The image may not be copied to its own buffer.
  EXPECT_EQ(clEnqueueCopyImageToBuffer(queue, mem.get(), buffer.get(), zero.data(), region.data(),
                                       0, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  // A buffer too small for the width.
  const cl_image_desc wide =
      describe({CL_MEM_OBJECT_IMAGE1D_BUFFER, width + 9}, 0, 0, buffer.get());
  EXPECT_EQ(clCreateImage(context, 0, &format, &wide, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_IMAGE_SIZE);
  // Host pointer flags come from the buffer, never from flags.
  EXPECT_EQ(clCreateImage(context, CL_MEM_ALLOC_HOST_PTR, &format, &desc, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  // A buffer created CL_MEM_READ_ONLY makes no read-write image.
  Mem readOnly(clCreateBuffer(context, CL_MEM_READ_ONLY, width * element, nullptr, &err));
  const cl_image_desc onReadOnly =
      describe({CL_MEM_OBJECT_IMAGE1D_BUFFER, width}, 0, 0, readOnly.get());
  EXPECT_EQ(clCreateImage(context, CL_MEM_READ_WRITE, &format, &onReadOnly, nullptr, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
}

TEST_F(Images, Image2DFromABufferUsesItsRowPitch) {
  const cl_uint pitchAlignment = deviceInfo<cl_uint>(device, CL_DEVICE_IMAGE_PITCH_ALIGNMENT);
  if (pitchAlignment == 0)
    GTEST_SKIP() << "the device makes no 2D image from a buffer";
  const size_t element = 4, width = 5, height = 3;
  const size_t rowPitch =
      (width + pitchAlignment) / pitchAlignment * pitchAlignment * element; // padded
  cl_int err = CL_SUCCESS;
  Mem buffer(clCreateBuffer(context, CL_MEM_READ_WRITE, rowPitch * height, nullptr, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  const Bytes bytes = pattern(rowPitch * height, 21);
  ASSERT_EQ(clEnqueueWriteBuffer(queue, buffer.get(), CL_TRUE, 0, bytes.size(), bytes.data(), 0,
                                 nullptr, nullptr),
            CL_SUCCESS);
  const cl_image_format format = {CL_RGBA, CL_UNSIGNED_INT8};
  const Shape shape = {CL_MEM_OBJECT_IMAGE2D, width, height};
  const cl_image_desc desc = describe(shape, rowPitch, 0, buffer.get());
  Mem mem(clCreateImage(context, CL_MEM_READ_WRITE, &format, &desc, nullptr, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(imageInfo<size_t>(mem.get(), CL_IMAGE_ROW_PITCH), rowPitch);
  EXPECT_EQ(imageInfo<cl_mem>(mem.get(), CL_IMAGE_BUFFER), buffer.get());
  Bytes expected(width * height * element);
  const Size3 zero = {0, 0, 0};
  copyTexels(bytes, {element, rowPitch, 0}, zero, expected, {element, width * element, 0}, zero,
             shape.extent());
  EXPECT_EQ(read(mem.get(), zero, shape.extent(), element), expected);
  // A buffer too small for height rows at the pitch.
  const cl_image_desc tall =
      describe({CL_MEM_OBJECT_IMAGE2D, width, height + 1}, rowPitch, 0, buffer.get());
  EXPECT_EQ(clCreateImage(context, CL_MEM_READ_WRITE, &format, &tall, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_IMAGE_SIZE);
}

TEST_F(Images, Image2DViewWithACompatibleChannelOrder) {
  const Shape shape = shapeOf(CL_MEM_OBJECT_IMAGE2D);
  if (!testingLanewise())
    GTEST_SKIP() << "PoCL 3.1 makes no image from another image (CL_INVALID_OPERATION)";
  Mem linear = image(shape, {CL_RGBA, CL_UNORM_INT8});
  ASSERT_NE(linear, nullptr);
  const cl_image_format srgb = {CL_sRGBA, CL_UNORM_INT8};
  const cl_image_desc desc = describe(shape, 0, 0, linear.get());
  cl_int err = CL_SUCCESS;
  Mem view(clCreateImage(context, CL_MEM_READ_WRITE, &srgb, &desc, nullptr, &err));
  if (err == CL_IMAGE_FORMAT_NOT_SUPPORTED)
    GTEST_SKIP() << "CL_sRGBA is not supported";
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(memInfo<cl_mem>(view.get(), CL_MEM_ASSOCIATED_MEMOBJECT), linear.get());
  const Bytes data = pattern(volume(shape.extent()) * 4, 22);
  write(linear.get(), {0, 0, 0}, shape.extent(), data);
  EXPECT_EQ(read(view.get(), {0, 0, 0}, shape.extent(), 4), data);
  // Another channel data type, or an order not in the compatibility table.
  const cl_image_format otherType = {CL_RGBA, CL_UNORM_INT16};
  EXPECT_EQ(clCreateImage(context, CL_MEM_READ_WRITE, &otherType, &desc, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  const cl_image_format otherOrder = {CL_BGRA, CL_UNORM_INT8};
  EXPECT_EQ(clCreateImage(context, CL_MEM_READ_WRITE, &otherOrder, &desc, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
}

TEST_F(Images, DeprecatedCreateImage2DAnd3D) {
  const cl_image_format format = {CL_RGBA, CL_FLOAT};
  cl_int err = CL_SUCCESS;
  Mem plane(clCreateImage2D(context, CL_MEM_READ_WRITE, &format, 6, 4, 0, nullptr, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(memInfo<cl_mem_object_type>(plane.get(), CL_MEM_TYPE),
            cl_mem_object_type{CL_MEM_OBJECT_IMAGE2D});
  EXPECT_EQ(imageInfo<size_t>(plane.get(), CL_IMAGE_HEIGHT), 4u);
  Mem volume3(clCreateImage3D(context, CL_MEM_READ_WRITE, &format, 6, 4, 3, 0, 0, nullptr, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(imageInfo<size_t>(volume3.get(), CL_IMAGE_DEPTH), 3u);
  if (!testingLanewise())
    return; // PoCL 3.1 answers other codes (CL_INVALID_BUFFER_SIZE, CL_INVALID_VALUE) or none
  // OpenCL 3.0, clCreateImage2D / clCreateImage3D: CL_INVALID_IMAGE_SIZE for
  // a zero size, a depth of 1, or a row pitch that breaks the rules.
  EXPECT_EQ(clCreateImage2D(context, CL_MEM_READ_WRITE, &format, 0, 4, 0, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_IMAGE_SIZE);
  EXPECT_EQ(clCreateImage3D(context, CL_MEM_READ_WRITE, &format, 6, 4, 1, 0, 0, nullptr, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_IMAGE_SIZE);
  std::vector<float> host(6 * 4 * 4 + 4);
  EXPECT_EQ(clCreateImage2D(context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, &format, 6, 4,
                            6 * 16 + 4, host.data(), &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_IMAGE_SIZE) << "a row pitch that is not a multiple of the element";
  EXPECT_EQ(clCreateImage2D(context, CL_MEM_READ_WRITE, nullptr, 6, 4, 0, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
}

// ---------------------------------------------------------------------------
// Creation errors (OpenCL 3.0, clCreateImage)

TEST_F(Images, CreationRejectsBadFormats) {
  if (!testingLanewise())
    GTEST_SKIP() << "PoCL 3.1 answers CL_INVALID_OPERATION for invalid format descriptors";
  const cl_image_desc desc = describe(shapeOf(CL_MEM_OBJECT_IMAGE2D));
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateImage(context, CL_MEM_READ_WRITE, nullptr, &desc, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  const cl_image_format invalid[] = {
      {0x7777, CL_UNORM_INT8},       // no such order
      {CL_RGBA, 0x7777},             // no such type
      {CL_RGBA, CL_UNORM_SHORT_565}, // a packed RGB type with four channels
      {CL_R, CL_UNORM_INT_101010},   // likewise with one
      {CL_RGB, CL_UNORM_INT8},       // CL_RGB is for the packed types only
  };
  for (const cl_image_format &format : invalid) {
    SCOPED_TRACE("order 0x" + std::to_string(format.image_channel_order) + " type 0x" +
                 std::to_string(format.image_channel_data_type));
    EXPECT_EQ(clCreateImage(context, CL_MEM_READ_WRITE, &format, &desc, nullptr, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  }
}

// The orders with a padding channel are valid formats that Lanewise does not
// offer (icd/image.cpp says why): not listed, and CL_IMAGE_FORMAT_NOT_SUPPORTED.
TEST_F(Images, PaddingChannelOrdersAreNotSupported) {
  if (!testingLanewise())
    GTEST_SKIP() << "which optional formats a platform offers is its own choice";
  const cl_image_format padded[] = {{CL_Rx, CL_FLOAT},
                                    {CL_RGx, CL_UNORM_INT8},
                                    {CL_RGBx, CL_UNORM_SHORT_565},
                                    {CL_sRGBx, CL_UNORM_INT8}};
  const std::vector<cl_image_format> listed = formats(CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D);
  const cl_image_desc desc = describe(shapeOf(CL_MEM_OBJECT_IMAGE2D));
  for (const cl_image_format &format : padded) {
    SCOPED_TRACE("order 0x" + std::to_string(format.image_channel_order));
    for (const cl_image_format &g : listed)
      EXPECT_NE(g.image_channel_order, format.image_channel_order);
    cl_int err = CL_SUCCESS;
    EXPECT_EQ(clCreateImage(context, CL_MEM_READ_WRITE, &format, &desc, nullptr, &err), nullptr);
    EXPECT_EQ(err, CL_IMAGE_FORMAT_NOT_SUPPORTED);
  }
}

TEST_F(Images, CreationRejectsBadDescriptorsAndSizes) {
  if (!testingLanewise())
    GTEST_SKIP() << "PoCL 3.1 answers CL_INVALID_VALUE for an image_type of a buffer";
  const cl_image_format format = {CL_RGBA, CL_UNORM_INT8};
  cl_int err = CL_SUCCESS;
  auto create = [&](const cl_image_desc &desc, void *host = nullptr,
                    cl_mem_flags flags = CL_MEM_READ_WRITE) {
    cl_mem made = clCreateImage(context, flags, &format, &desc, host, &err);
    if (made)
      clReleaseMemObject(made);
    return err;
  };
  EXPECT_EQ(clCreateImage(context, CL_MEM_READ_WRITE, &format, nullptr, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_IMAGE_DESCRIPTOR);
  cl_image_desc desc = describe(shapeOf(CL_MEM_OBJECT_IMAGE2D));
  desc.image_type = CL_MEM_OBJECT_BUFFER;
  EXPECT_EQ(create(desc), CL_INVALID_IMAGE_DESCRIPTOR) << "a buffer type";
  desc = describe(shapeOf(CL_MEM_OBJECT_IMAGE2D));
  desc.num_mip_levels = 2;
  EXPECT_EQ(create(desc), CL_INVALID_IMAGE_DESCRIPTOR) << "mip levels";
  desc = describe(shapeOf(CL_MEM_OBJECT_IMAGE2D));
  desc.num_samples = 4;
  EXPECT_EQ(create(desc), CL_INVALID_IMAGE_DESCRIPTOR) << "samples";
  desc = describe(shapeOf(CL_MEM_OBJECT_IMAGE2D));
  desc.image_row_pitch = 64;
  EXPECT_EQ(create(desc), CL_INVALID_IMAGE_DESCRIPTOR) << "a row pitch with no host_ptr";
  desc = describe({CL_MEM_OBJECT_IMAGE1D_BUFFER, 4});
  EXPECT_EQ(create(desc), CL_INVALID_IMAGE_DESCRIPTOR) << "a 1D image buffer with no buffer";
  std::vector<std::uint8_t> host(64 * 64 * 4 * 4);
  desc = describe(shapeOf(CL_MEM_OBJECT_IMAGE2D), 7 * 4 - 4);
  EXPECT_EQ(create(desc, host.data(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR),
            CL_INVALID_IMAGE_DESCRIPTOR)
      << "a row pitch shorter than a row";
  desc = describe(shapeOf(CL_MEM_OBJECT_IMAGE3D), 7 * 4, 7 * 4 * 5 - 4);
  EXPECT_EQ(create(desc, host.data(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR),
            CL_INVALID_IMAGE_DESCRIPTOR)
      << "a slice pitch shorter than a slice";

  // Sizes: zero, or above the device's limits.
  const size_t max2D = deviceInfo<size_t>(device, CL_DEVICE_IMAGE2D_MAX_WIDTH);
  const size_t max3D = deviceInfo<size_t>(device, CL_DEVICE_IMAGE3D_MAX_DEPTH);
  const size_t maxLayers = deviceInfo<size_t>(device, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE);
  EXPECT_EQ(create(describe({CL_MEM_OBJECT_IMAGE2D, 0, 4})), CL_INVALID_IMAGE_SIZE);
  EXPECT_EQ(create(describe({CL_MEM_OBJECT_IMAGE2D, 4, 0})), CL_INVALID_IMAGE_SIZE);
  EXPECT_EQ(create(describe({CL_MEM_OBJECT_IMAGE2D, max2D + 1, 1})), CL_INVALID_IMAGE_SIZE);
  EXPECT_EQ(create(describe({CL_MEM_OBJECT_IMAGE3D, 2, 2, max3D + 1})), CL_INVALID_IMAGE_SIZE);
  EXPECT_EQ(create(describe({CL_MEM_OBJECT_IMAGE2D_ARRAY, 2, 2, 1, 0})), CL_INVALID_IMAGE_SIZE);
  EXPECT_EQ(create(describe({CL_MEM_OBJECT_IMAGE1D_ARRAY, 2, 1, 1, maxLayers + 1})),
            CL_INVALID_IMAGE_SIZE);
}

TEST_F(Images, CreationRejectsBadFlagsAndHostPointers) {
  const cl_image_format format = {CL_RGBA, CL_UNORM_INT8};
  const cl_image_desc desc = describe(shapeOf(CL_MEM_OBJECT_IMAGE2D));
  std::vector<std::uint8_t> host(7 * 5 * 4);
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(
      clCreateImage(context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, &format, &desc, nullptr, &err),
      nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateImage(context, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, &format, &desc,
                          host.data(), &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateImage(context, CL_MEM_USE_HOST_PTR, &format, &desc, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_HOST_PTR);
  EXPECT_EQ(clCreateImage(context, CL_MEM_READ_WRITE, &format, &desc, host.data(), &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_HOST_PTR);
  EXPECT_EQ(clCreateImage(nullptr, CL_MEM_READ_WRITE, &format, &desc, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  // CL_MEM_ALLOC_HOST_PTR and the host access flags make ordinary images.
  Mem alloc(clCreateImage(context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_HOST_NO_ACCESS, &format, &desc,
                          nullptr, &err));
  EXPECT_EQ(err, CL_SUCCESS);
}

} // namespace
} // namespace lanewise::test::images
