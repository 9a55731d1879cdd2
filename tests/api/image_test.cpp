// SPDX-License-Identifier: Apache-2.0
// Image objects (OpenCL 3.0 API spec, 5.3): supported formats, regions and
// pitches of every image type with every host pointer flag, and the image
// queries. Images made from buffers and images and creation errors are in
// image_creation_test.cpp; copies, maps, fills and command errors in
// image_command_test.cpp.
//
// Expected texels are bytes the test itself places, addressed by the spec's
// rule for image data in host memory (a linear sequence of rows, slices or
// layers at the row and slice pitches); expected element sizes and fill
// texels come from the spec's format descriptor and conversion rules
// (OpenCL C 3.0, 8.3), computed here independently of the implementation.
#include "image_fixture.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace lanewise::test::images {
namespace {

// ---------------------------------------------------------------------------
// Supported formats

TEST_F(Images, SupportedFormatsIncludeTheMinimumLists) {
  // OpenCL 3.0, Minimum List of Supported Image Formats: for reading or
  // writing, RGBA with every non-packed type but the SNORM ones and BGRA
  // UNORM_INT8; for reading and writing in one kernel (read_write), R and
  // RGBA with UNORM_INT8 and the integer and floating-point types.
  const cl_channel_type readOrWrite[] = {
      CL_UNORM_INT8,    CL_UNORM_INT16,    CL_SIGNED_INT8,    CL_SIGNED_INT16, CL_SIGNED_INT32,
      CL_UNSIGNED_INT8, CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT,   CL_FLOAT};
  const cl_channel_type readAndWrite[] = {CL_UNORM_INT8,     CL_SIGNED_INT8,   CL_SIGNED_INT16,
                                          CL_SIGNED_INT32,   CL_UNSIGNED_INT8, CL_UNSIGNED_INT16,
                                          CL_UNSIGNED_INT32, CL_HALF_FLOAT,    CL_FLOAT};
  for (cl_mem_object_type type : imageTypes)
    for (cl_mem_flags flags :
         {cl_mem_flags{CL_MEM_READ_ONLY}, cl_mem_flags{CL_MEM_WRITE_ONLY},
          cl_mem_flags{CL_MEM_READ_WRITE}, cl_mem_flags{CL_MEM_KERNEL_READ_AND_WRITE}}) {
      SCOPED_TRACE(typeName(type) + " flags " + std::to_string(flags));
      std::set<std::pair<cl_channel_order, cl_channel_type>> listed;
      for (const cl_image_format &f : formats(flags, type))
        EXPECT_TRUE(listed.insert({f.image_channel_order, f.image_channel_data_type}).second)
            << "listed twice: 0x" << std::hex << f.image_channel_order << " 0x"
            << f.image_channel_data_type;
      if (flags == CL_MEM_KERNEL_READ_AND_WRITE) {
        for (cl_channel_order order : {CL_R, CL_RGBA})
          for (cl_channel_type channel : readAndWrite)
            EXPECT_TRUE(listed.count({order, channel}))
                << "missing 0x" << std::hex << order << " 0x" << channel;
      } else {
        for (cl_channel_type channel : readOrWrite)
          EXPECT_TRUE(listed.count({CL_RGBA, channel})) << "missing RGBA 0x" << std::hex << channel;
        EXPECT_TRUE(listed.count({CL_BGRA, CL_UNORM_INT8})) << "missing BGRA UNORM_INT8";
      }
    }
}

TEST_F(Images, SupportedFormatsFillAtMostNumEntries) {
  const auto all = formats(CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D);
  ASSERT_GT(all.size(), 2u);
  std::vector<cl_image_format> two(3, cl_image_format{0x7777, 0x7777});
  cl_uint count = 0;
  ASSERT_EQ(clGetSupportedImageFormats(context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 2,
                                       two.data(), &count),
            CL_SUCCESS);
  EXPECT_EQ(count, all.size()); // the number supported, not the number returned
  EXPECT_EQ(two[2].image_channel_order, 0x7777u);
}

TEST_F(Images, SupportedFormatsRejectBadArguments) {
  cl_uint count = 0;
  EXPECT_EQ(clGetSupportedImageFormats(context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_BUFFER, 0, nullptr,
                                       &count),
            CL_INVALID_VALUE);
  if (testingLanewise()) { // PoCL 3.1 accepts mutually exclusive flags
    EXPECT_EQ(clGetSupportedImageFormats(context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
                                         CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &count),
              CL_INVALID_VALUE);
  }
  cl_image_format one;
  EXPECT_EQ(clGetSupportedImageFormats(context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, &one,
                                       &count),
            CL_INVALID_VALUE);
  EXPECT_EQ(clGetSupportedImageFormats(nullptr, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0,
                                       nullptr, &count),
            CL_INVALID_CONTEXT);
}

// Every supported format of every image type: creation, the element size of
// the format descriptor, and texels written and read back unchanged.
TEST_F(Images, EveryFormatOfEveryTypeHoldsWhatIsWritten) {
  for (cl_mem_object_type type : imageTypes)
    for (const cl_image_format &format : formats(CL_MEM_READ_WRITE, type)) {
      SCOPED_TRACE(typeName(type) + " order 0x" + std::to_string(format.image_channel_order) +
                   " type 0x" + std::to_string(format.image_channel_data_type));
      const size_t element =
          referenceElementSize(format.image_channel_order, format.image_channel_data_type);
      const Shape shape = shapeOf(type);
      Mem mem = image(shape, format);
      ASSERT_NE(mem, nullptr);
      EXPECT_EQ(imageInfo<size_t>(mem.get(), CL_IMAGE_ELEMENT_SIZE), element);
      const Size3 origin = {0, 0, 0};
      const Bytes data = pattern(volume(shape.extent()) * element, unsigned(type));
      write(mem.get(), origin, shape.extent(), data);
      EXPECT_EQ(read(mem.get(), origin, shape.extent(), element), data);
    }
}

// ---------------------------------------------------------------------------
// Regions and pitches

// A sub-region written at an origin and read back whole: every texel outside
// it keeps its first value (OpenCL 3.0, clEnqueueReadImage: origin and region
// in pixels, rows or layers, slices or layers).
TEST_F(Images, RegionsAtOriginsInEveryDimension) {
  const size_t element = 4;
  for (cl_mem_object_type type : imageTypes) {
    SCOPED_TRACE(typeName(type));
    const Shape shape = shapeOf(type);
    const Size3 extent = shape.extent();
    Mem mem = image(shape);
    ASSERT_NE(mem, nullptr);
    Bytes whole = pattern(volume(extent) * element, 1);
    write(mem.get(), {0, 0, 0}, extent, whole);
    Size3 origin = {2, 0, 0}, region = {3, 1, 1};
    for (int d = 1; d < 3; ++d)
      if (extent[d] > 1) {
        origin[d] = 1;
        region[d] = extent[d] - 2;
      }
    const Bytes part = pattern(volume(region) * element, 2);
    write(mem.get(), origin, region, part);
    copyTexels(part, tightLayout(shape, element, region), {0, 0, 0}, whole,
               tightLayout(shape, element, extent), origin, region);
    EXPECT_EQ(read(mem.get(), {0, 0, 0}, extent, element), whole);
    // The same region read alone.
    EXPECT_EQ(read(mem.get(), origin, region, element), part);
  }
}

// Host row and slice pitches larger than the region's rows and slices: the
// padding bytes are neither read nor written.
TEST_F(Images, HostPitchesPadRowsAndSlices) {
  const size_t element = 4;
  for (cl_mem_object_type type : {CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE2D,
                                  CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D}) {
    SCOPED_TRACE(typeName(type));
    if (type == CL_MEM_OBJECT_IMAGE1D_ARRAY && !testingLanewise())
      continue; // PoCL 3.1 does not place a 1D array's layers at the slice pitch
    const Shape shape = shapeOf(type);
    const Size3 extent = shape.extent();
    Mem mem = image(shape);
    ASSERT_NE(mem, nullptr);
    const bool layered = type != CL_MEM_OBJECT_IMAGE2D;
    const size_t rowPitch = extent[0] * element + 12;
    const size_t rows = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : extent[1];
    const size_t slicePitch = layered ? rowPitch * rows + 40 : 0;
    const HostLayout padded = type == CL_MEM_OBJECT_IMAGE1D_ARRAY
                                  ? HostLayout{element, slicePitch, slicePitch}
                                  : HostLayout{element, rowPitch, slicePitch};
    const size_t bytes =
        layered ? slicePitch * (type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? extent[1] : extent[2])
                : rowPitch * extent[1];
    const Bytes source = pattern(bytes, 5);
    const Size3 zero = {0, 0, 0};
    ASSERT_EQ(clEnqueueWriteImage(queue, mem.get(), CL_TRUE, zero.data(), extent.data(), rowPitch,
                                  slicePitch, source.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    Bytes expected(volume(extent) * element);
    copyTexels(source, padded, zero, expected, tightLayout(shape, element, extent), zero, extent);
    EXPECT_EQ(read(mem.get(), zero, extent, element), expected);
    Bytes back(bytes, 0xAB), expectedBack(bytes, 0xAB);
    ASSERT_EQ(clEnqueueReadImage(queue, mem.get(), CL_TRUE, zero.data(), extent.data(), rowPitch,
                                 slicePitch, back.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    copyTexels(expected, tightLayout(shape, element, extent), zero, expectedBack, padded, zero,
               extent);
    EXPECT_EQ(back, expectedBack);
  }
}

// CL_MEM_USE_HOST_PTR with padded pitches: the image is the application's
// memory at its pitches, which the queries report and maps point into.
TEST_F(Images, UseHostPtrSharesTheApplicationsMemoryWithItsPitches) {
  const size_t element = 4;
  for (cl_mem_object_type type : {CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE2D,
                                  CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D}) {
    SCOPED_TRACE(typeName(type));
    if (type == CL_MEM_OBJECT_IMAGE1D_ARRAY && !testingLanewise())
      continue; // PoCL 3.1 does not place a 1D array's layers at the slice pitch
    const Shape shape = shapeOf(type);
    const Size3 extent = shape.extent();
    const size_t rowPitch = shape.width * element + 8;
    const bool oneD = type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    // A slice pitch is a multiple of the row pitch (OpenCL 3.0, Image Descriptor).
    const size_t slicePitch = type == CL_MEM_OBJECT_IMAGE2D ? 0
                              : oneD                        ? 2 * rowPitch
                                                            : rowPitch * (shape.height + 1);
    const size_t slices = oneD ? shape.layers : type == CL_MEM_OBJECT_IMAGE2D ? 1 : extent[2];
    const size_t bytes =
        type == CL_MEM_OBJECT_IMAGE2D ? rowPitch * shape.height : slicePitch * slices;
    alignas(64) static std::uint8_t host[64 * 1024];
    ASSERT_LE(bytes, sizeof host);
    const Bytes initial = pattern(bytes, 9);
    std::memcpy(host, initial.data(), bytes);
    Mem mem = image(shape, {CL_RGBA, CL_UNSIGNED_INT8}, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
                    host, rowPitch, slicePitch);
    ASSERT_NE(mem, nullptr);
    EXPECT_EQ(imageInfo<size_t>(mem.get(), CL_IMAGE_ROW_PITCH), rowPitch);
    EXPECT_EQ(imageInfo<size_t>(mem.get(), CL_IMAGE_SLICE_PITCH), slicePitch);
    EXPECT_EQ(memInfo<void *>(mem.get(), CL_MEM_HOST_PTR), static_cast<void *>(host));
    const HostLayout layout = oneD ? HostLayout{element, slicePitch, slicePitch}
                                   : HostLayout{element, rowPitch, slicePitch};
    const Size3 zero = {0, 0, 0};
    Bytes expected(volume(extent) * element);
    copyTexels(initial, layout, zero, expected, tightLayout(shape, element, extent), zero, extent);
    EXPECT_EQ(read(mem.get(), zero, extent, element), expected);

    // A map of the whole image points into host_ptr at the image's pitches.
    size_t mappedRow = 0, mappedSlice = 0;
    cl_int err = CL_SUCCESS;
    void *mapped =
        clEnqueueMapImage(queue, mem.get(), CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, zero.data(),
                          extent.data(), &mappedRow, &mappedSlice, 0, nullptr, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    EXPECT_EQ(mapped, static_cast<void *>(host)) << "not derived from host_ptr";
    EXPECT_EQ(mappedRow, rowPitch);
    ASSERT_EQ(clEnqueueUnmapMemObject(queue, mem.get(), mapped, 0, nullptr, nullptr), CL_SUCCESS);
    ASSERT_EQ(clFinish(queue), CL_SUCCESS);

    // A write lands in the application's memory at the padded places.
    const bool threeCoordinates =
        type == CL_MEM_OBJECT_IMAGE2D_ARRAY || type == CL_MEM_OBJECT_IMAGE3D;
    const Size3 origin = {1, 1, threeCoordinates ? 1u : 0u};
    const Size3 region = {2, 1, 1};
    const Bytes texels = pattern(2 * element, 10);
    write(mem.get(), origin, region, texels);
    ASSERT_EQ(clFinish(queue), CL_SUCCESS);
    for (size_t x = 0; x < 2; ++x)
      for (size_t b = 0; b < element; ++b)
        EXPECT_EQ(host[layout.offset(origin[0] + x, origin[1], origin[2]) + b],
                  texels[x * element + b]);
  }
}

TEST_F(Images, CopyHostPtrCopiesAtTheGivenPitch) {
  const size_t element = 4;
  const Shape shape = shapeOf(CL_MEM_OBJECT_IMAGE2D);
  const size_t rowPitch = shape.width * element + 4;
  Bytes host = pattern(rowPitch * shape.height, 11);
  Mem mem = image(shape, {CL_RGBA, CL_UNSIGNED_INT8}, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                  host.data(), rowPitch);
  ASSERT_NE(mem, nullptr);
  EXPECT_EQ(memInfo<void *>(mem.get(), CL_MEM_HOST_PTR), nullptr);
  const Bytes original = host;
  std::fill(host.begin(), host.end(), 0); // the image holds a copy
  Bytes expected(shape.width * shape.height * element);
  const Size3 zero = {0, 0, 0};
  copyTexels(original, {element, rowPitch, 0}, zero, expected, {element, shape.width * element, 0},
             zero, shape.extent());
  EXPECT_EQ(read(mem.get(), zero, shape.extent(), element), expected);
}

// ---------------------------------------------------------------------------
// Queries

TEST_F(Images, QueriesReportEachTypesDescriptor) {
  const cl_image_format format = {CL_RGBA, CL_UNSIGNED_INT16};
  const size_t element = 8;
  for (cl_mem_object_type type : imageTypes) {
    SCOPED_TRACE(typeName(type));
    const Shape shape = shapeOf(type);
    Mem mem = image(shape, format, CL_MEM_READ_ONLY);
    ASSERT_NE(mem, nullptr);
    const cl_image_format reported = imageInfo<cl_image_format>(mem.get(), CL_IMAGE_FORMAT);
    EXPECT_EQ(reported.image_channel_order, format.image_channel_order);
    EXPECT_EQ(reported.image_channel_data_type, format.image_channel_data_type);
    EXPECT_EQ(imageInfo<size_t>(mem.get(), CL_IMAGE_ELEMENT_SIZE), element);
    const size_t row = shape.width * element;
    EXPECT_EQ(imageInfo<size_t>(mem.get(), CL_IMAGE_ROW_PITCH), row);
    // OpenCL 3.0, clGetImageInfo: the row pitch for a 1D array's slice
    // pitch, rows x height for 3D images and 2D arrays, 0 otherwise; 0 for
    // the dimensions a type does not have.
    size_t slice = 0, height = 0, depth = 0, layers = 0;
    switch (type) {
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      slice = row, layers = shape.layers;
      break;
    case CL_MEM_OBJECT_IMAGE2D:
      height = shape.height;
      break;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      slice = row * shape.height, height = shape.height, layers = shape.layers;
      break;
    case CL_MEM_OBJECT_IMAGE3D:
      slice = row * shape.height, height = shape.height, depth = shape.depth;
      break;
    default:
      break;
    }
    EXPECT_EQ(imageInfo<size_t>(mem.get(), CL_IMAGE_SLICE_PITCH), slice);
    EXPECT_EQ(imageInfo<size_t>(mem.get(), CL_IMAGE_WIDTH), shape.width);
    EXPECT_EQ(imageInfo<size_t>(mem.get(), CL_IMAGE_HEIGHT), height);
    EXPECT_EQ(imageInfo<size_t>(mem.get(), CL_IMAGE_DEPTH), depth);
    EXPECT_EQ(imageInfo<size_t>(mem.get(), CL_IMAGE_ARRAY_SIZE), layers);
    EXPECT_EQ(imageInfo<cl_uint>(mem.get(), CL_IMAGE_NUM_MIP_LEVELS), 0u);
    EXPECT_EQ(imageInfo<cl_uint>(mem.get(), CL_IMAGE_NUM_SAMPLES), 0u);
    const bool fromBuffer = type == CL_MEM_OBJECT_IMAGE1D_BUFFER;
    EXPECT_EQ(imageInfo<cl_mem>(mem.get(), CL_IMAGE_BUFFER), fromBuffer ? backing.get() : nullptr);
    EXPECT_EQ(memInfo<cl_mem>(mem.get(), CL_MEM_ASSOCIATED_MEMOBJECT),
              fromBuffer ? backing.get() : nullptr);
    EXPECT_EQ(memInfo<cl_mem_object_type>(mem.get(), CL_MEM_TYPE), type);
    EXPECT_EQ(memInfo<cl_mem_flags>(mem.get(), CL_MEM_FLAGS), cl_mem_flags{CL_MEM_READ_ONLY});
    EXPECT_EQ(memInfo<cl_context>(mem.get(), CL_MEM_CONTEXT), context);
    EXPECT_EQ(memInfo<void *>(mem.get(), CL_MEM_HOST_PTR), nullptr);
    EXPECT_EQ(memInfo<cl_uint>(mem.get(), CL_MEM_REFERENCE_COUNT), 1u);
    EXPECT_EQ(memInfo<size_t>(mem.get(), CL_MEM_OFFSET), 0u);
    // The data store holds at least every texel.
    EXPECT_GE(memInfo<size_t>(mem.get(), CL_MEM_SIZE), volume(shape.extent()) * element);
    size_t size = 99;
    EXPECT_EQ(clGetMemObjectInfo(mem.get(), CL_MEM_PROPERTIES, 0, nullptr, &size), CL_SUCCESS);
    EXPECT_EQ(size, 0u) << "created without properties";
    cl_image_format tooSmall[1];
    EXPECT_EQ(clGetImageInfo(mem.get(), CL_IMAGE_FORMAT, 1, tooSmall, nullptr), CL_INVALID_VALUE);
    EXPECT_EQ(clGetImageInfo(mem.get(), 0x7777, sizeof size, &size, nullptr), CL_INVALID_VALUE);
  }
  if (!testingLanewise())
    return; // PoCL 3.1 answers clGetImageInfo for a buffer
  // A buffer is no image.
  cl_int err = CL_SUCCESS;
  Mem buffer(clCreateBuffer(context, CL_MEM_READ_WRITE, 64, nullptr, &err));
  size_t width = 0;
  EXPECT_EQ(clGetImageInfo(buffer.get(), CL_IMAGE_WIDTH, sizeof width, &width, nullptr),
            CL_INVALID_MEM_OBJECT);
}

TEST_F(Images, PropertiesAreReportedAsGiven) {
  const cl_mem_properties properties[] = {0};
  const cl_image_format format = {CL_RGBA, CL_UNORM_INT8};
  const cl_image_desc desc = describe(shapeOf(CL_MEM_OBJECT_IMAGE2D));
  cl_int err = CL_SUCCESS;
  Mem mem(clCreateImageWithProperties(context, properties, CL_MEM_READ_WRITE, &format, &desc,
                                      nullptr, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  cl_mem_properties reported[2] = {7, 7};
  size_t size = 0;
  ASSERT_EQ(clGetMemObjectInfo(mem.get(), CL_MEM_PROPERTIES, sizeof reported, reported, &size),
            CL_SUCCESS);
  EXPECT_EQ(size, sizeof(cl_mem_properties));
  EXPECT_EQ(reported[0], 0u);
  const cl_mem_properties unknown[] = {0x7777, 1, 0};
  EXPECT_EQ(clCreateImageWithProperties(context, unknown, CL_MEM_READ_WRITE, &format, &desc,
                                        nullptr, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_PROPERTY);
}

void CL_CALLBACK countDestruction(cl_mem, void *data) { ++*static_cast<int *>(data); }

TEST_F(Images, ReleaseCallsTheDestructorCallbacks) {
  const cl_image_format format = {CL_R, CL_FLOAT};
  const cl_image_desc desc = describe(shapeOf(CL_MEM_OBJECT_IMAGE2D));
  cl_int err = CL_SUCCESS;
  cl_mem mem = clCreateImage(context, CL_MEM_READ_WRITE, &format, &desc, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  int calls = 0;
  ASSERT_EQ(clSetMemObjectDestructorCallback(mem, countDestruction, &calls), CL_SUCCESS);
  ASSERT_EQ(clRetainMemObject(mem), CL_SUCCESS);
  ASSERT_EQ(clReleaseMemObject(mem), CL_SUCCESS);
  EXPECT_EQ(calls, 0);
  ASSERT_EQ(clReleaseMemObject(mem), CL_SUCCESS);
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  EXPECT_EQ(calls, 1);
}

} // namespace
} // namespace lanewise::test::images
