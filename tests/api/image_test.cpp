// SPDX-License-Identifier: Apache-2.0
// Image objects and their commands (OpenCL 3.0 API spec, 5.3): supported
// formats, creation of every image type with every host pointer flag, the
// image queries, read / write / copy / map / fill, and their errors.
//
// Expected texels are bytes the test itself places, addressed by the spec's
// rule for image data in host memory (a linear sequence of rows, slices or
// layers at the row and slice pitches); expected element sizes and fill
// texels come from the spec's format descriptor and conversion rules
// (OpenCL C 3.0, 8.3), computed here independently of the implementation.
#include "common.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace lanewise::test {
namespace {

using Bytes = std::vector<std::uint8_t>;
using Size3 = std::array<size_t, 3>;

Bytes pattern(size_t size, unsigned seed) {
  Bytes bytes(size);
  for (size_t i = 0; i < size; ++i)
    bytes[i] = static_cast<std::uint8_t>(i * 29 + seed * 71 + 3);
  return bytes;
}

constexpr cl_mem_object_type imageTypes[] = {
    CL_MEM_OBJECT_IMAGE1D,       CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE1D_ARRAY,
    CL_MEM_OBJECT_IMAGE2D,       CL_MEM_OBJECT_IMAGE2D_ARRAY,  CL_MEM_OBJECT_IMAGE3D};

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

// OpenCL 3.0, Image Format Descriptor: channels per order, bytes per
// channel (the packed types: per element).
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

cl_image_desc describe(const Shape &shape, size_t rowPitch = 0, size_t slicePitch = 0,
                       cl_mem buffer = nullptr) {
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

// Host memory holding a region: texel (x, y, z) at z * slicePitch + y *
// rowPitch + x * element (the rows of a 1D array's region are its layers,
// at the slice pitch).
struct HostLayout {
  size_t element, rowPitch, slicePitch;
  size_t offset(size_t x, size_t y, size_t z) const {
    return z * slicePitch + y * rowPitch + x * element;
  }
};

HostLayout tightLayout(const Shape &shape, size_t element, const Size3 &region) {
  const size_t row = region[0] * element;
  if (shape.type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
    return {element, row, row};
  return {element, row, row * region[1]};
}

// Copies region texels between two host layouts.
void copyTexels(const Bytes &from, const HostLayout &source, const Size3 &sourceOrigin,
                Bytes &to, const HostLayout &destination, const Size3 &destinationOrigin,
                const Size3 &region) {
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y)
      for (size_t x = 0; x < region[0]; ++x)
        for (size_t b = 0; b < source.element; ++b)
          to.at(destination.offset(destinationOrigin[0] + x, destinationOrigin[1] + y,
                                   destinationOrigin[2] + z) +
                b) = from.at(source.offset(sourceOrigin[0] + x, sourceOrigin[1] + y,
                                           sourceOrigin[2] + z) +
                             b);
}

size_t volume(const Size3 &region) { return region[0] * region[1] * region[2]; }

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
      backing.reset(clCreateBuffer(context, CL_MEM_READ_WRITE,
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

// ---------------------------------------------------------------------------
// Supported formats

TEST_F(Images, SupportedFormatsIncludeTheMinimumLists) {
  // OpenCL 3.0, Minimum List of Supported Image Formats: for reading or
  // writing, RGBA with every non-packed type but the SNORM ones and BGRA
  // UNORM_INT8; for reading and writing in one kernel (read_write), R and
  // RGBA with UNORM_INT8 and the integer and floating-point types.
  const cl_channel_type readOrWrite[] = {CL_UNORM_INT8,     CL_UNORM_INT16,   CL_SIGNED_INT8,
                                         CL_SIGNED_INT16,   CL_SIGNED_INT32,  CL_UNSIGNED_INT8,
                                         CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT,
                                         CL_FLOAT};
  const cl_channel_type readAndWrite[] = {CL_UNORM_INT8,     CL_SIGNED_INT8,   CL_SIGNED_INT16,
                                          CL_SIGNED_INT32,   CL_UNSIGNED_INT8, CL_UNSIGNED_INT16,
                                          CL_UNSIGNED_INT32, CL_HALF_FLOAT,    CL_FLOAT};
  for (cl_mem_object_type type : imageTypes)
    for (cl_mem_flags flags : {cl_mem_flags{CL_MEM_READ_ONLY}, cl_mem_flags{CL_MEM_WRITE_ONLY},
                               cl_mem_flags{CL_MEM_READ_WRITE},
                               cl_mem_flags{CL_MEM_KERNEL_READ_AND_WRITE}}) {
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
  EXPECT_EQ(clGetSupportedImageFormats(context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_BUFFER, 0,
                                       nullptr, &count),
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
    const HostLayout padded =
        type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? HostLayout{element, slicePitch, slicePitch}
                                            : HostLayout{element, rowPitch, slicePitch};
    const size_t bytes = layered ? slicePitch * (type == CL_MEM_OBJECT_IMAGE1D_ARRAY
                                                     ? extent[1]
                                                     : extent[2])
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
    const size_t bytes = type == CL_MEM_OBJECT_IMAGE2D ? rowPitch * shape.height
                                                       : slicePitch * slices;
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
    void *mapped = clEnqueueMapImage(queue, mem.get(), CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
                                     zero.data(), extent.data(), &mappedRow, &mappedSlice, 0,
                                     nullptr, nullptr, &err);
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
  copyTexels(original, {element, rowPitch, 0}, zero, expected,
             {element, shape.width * element, 0}, zero, shape.extent());
  EXPECT_EQ(read(mem.get(), zero, shape.extent(), element), expected);
}

// ---------------------------------------------------------------------------
// Copies

// A 2D region into a slice of a 3D image and a layer of a 2D array, a 1D
// array's layers into rows of a 2D image (OpenCL 3.0, clEnqueueCopyImage:
// subregions of any types whose dimensions agree).
TEST_F(Images, CopiesBetweenImageTypes) {
  const size_t element = 4;
  const Shape plane = shapeOf(CL_MEM_OBJECT_IMAGE2D);
  Mem source = image(plane);
  const Bytes data = pattern(volume(plane.extent()) * element, 12);
  write(source.get(), {0, 0, 0}, plane.extent(), data);
  for (cl_mem_object_type type : {CL_MEM_OBJECT_IMAGE3D, CL_MEM_OBJECT_IMAGE2D_ARRAY}) {
    SCOPED_TRACE(typeName(type));
    const Shape shape = shapeOf(type);
    Mem destination = image(shape);
    Bytes whole = pattern(volume(shape.extent()) * element, 13);
    write(destination.get(), {0, 0, 0}, shape.extent(), whole);
    const Size3 from = {1, 1, 0}, to = {2, 0, 2}, region = {4, 3, 1};
    ASSERT_EQ(clEnqueueCopyImage(queue, source.get(), destination.get(), from.data(), to.data(),
                                 region.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    copyTexels(data, tightLayout(plane, element, plane.extent()), from, whole,
               tightLayout(shape, element, shape.extent()), to, region);
    EXPECT_EQ(read(destination.get(), {0, 0, 0}, shape.extent(), element), whole);
  }
  const Shape layers = shapeOf(CL_MEM_OBJECT_IMAGE1D_ARRAY);
  Mem array = image(layers);
  const Bytes arrayData = pattern(volume(layers.extent()) * element, 14);
  write(array.get(), {0, 0, 0}, layers.extent(), arrayData);
  Mem destination = image(plane);
  Bytes whole = data;
  write(destination.get(), {0, 0, 0}, plane.extent(), whole);
  const Size3 from = {0, 1, 0}, to = {3, 2, 0}, region = {4, 2, 1};
  ASSERT_EQ(clEnqueueCopyImage(queue, array.get(), destination.get(), from.data(), to.data(),
                               region.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  copyTexels(arrayData, tightLayout(layers, element, layers.extent()), from, whole,
             tightLayout(plane, element, plane.extent()), to, region);
  EXPECT_EQ(read(destination.get(), {0, 0, 0}, plane.extent(), element), whole);
}

TEST_F(Images, CopyWithinOneImageChecksOverlap) {
  const size_t element = 4;
  const Shape shape = shapeOf(CL_MEM_OBJECT_IMAGE3D);
  Mem mem = image(shape);
  Bytes whole = pattern(volume(shape.extent()) * element, 15);
  write(mem.get(), {0, 0, 0}, shape.extent(), whole);
  const Size3 from = {0, 0, 0}, apart = {3, 2, 2}, near = {2, 1, 1}, region = {3, 2, 2};
  EXPECT_EQ(clEnqueueCopyImage(queue, mem.get(), mem.get(), from.data(), near.data(),
                               region.data(), 0, nullptr, nullptr),
            CL_MEM_COPY_OVERLAP);
  ASSERT_EQ(clEnqueueCopyImage(queue, mem.get(), mem.get(), from.data(), apart.data(),
                               region.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  const Bytes before = whole;
  copyTexels(before, tightLayout(shape, element, shape.extent()), from, whole,
             tightLayout(shape, element, shape.extent()), apart, region);
  EXPECT_EQ(read(mem.get(), {0, 0, 0}, shape.extent(), element), whole);
}

TEST_F(Images, CopyNeedsTheSameFormat) {
  const Shape shape = shapeOf(CL_MEM_OBJECT_IMAGE2D);
  Mem a = image(shape, {CL_RGBA, CL_UNSIGNED_INT8});
  Mem b = image(shape, {CL_RGBA, CL_SIGNED_INT8});
  const Size3 zero = {0, 0, 0}, region = {1, 1, 1};
  EXPECT_EQ(clEnqueueCopyImage(queue, a.get(), b.get(), zero.data(), zero.data(), region.data(),
                               0, nullptr, nullptr),
            CL_IMAGE_FORMAT_MISMATCH);
}

// OpenCL 3.0, clEnqueueCopyImageToBuffer / clEnqueueCopyBufferToImage: the
// buffer side is the region's texels tightly packed from the offset.
TEST_F(Images, CopiesToAndFromBuffers) {
  if (!testingLanewise())
    GTEST_SKIP() << "PoCL 3.1 crashes in this test";
  const size_t element = 4;
  for (cl_mem_object_type type : imageTypes) {
    SCOPED_TRACE(typeName(type));
    const Shape shape = shapeOf(type);
    const Size3 extent = shape.extent();
    Mem mem = image(shape);
    Bytes whole = pattern(volume(extent) * element, 16);
    write(mem.get(), {0, 0, 0}, extent, whole);
    Size3 origin = {1, 0, 0}, region = {extent[0] - 2, extent[1], extent[2]};
    if (extent[1] > 1)
      origin[1] = 1, region[1] = extent[1] - 1;
    const size_t offset = 24;
    const size_t bytes = volume(region) * element;
    cl_int err = CL_SUCCESS;
    Mem buffer(clCreateBuffer(context, CL_MEM_READ_WRITE, offset + bytes + 8, nullptr, &err));
    ASSERT_EQ(err, CL_SUCCESS);
    ASSERT_EQ(clEnqueueCopyImageToBuffer(queue, mem.get(), buffer.get(), origin.data(),
                                         region.data(), offset, 0, nullptr, nullptr),
              CL_SUCCESS);
    Bytes packed(bytes);
    ASSERT_EQ(clEnqueueReadBuffer(queue, buffer.get(), CL_TRUE, offset, bytes, packed.data(), 0,
                                  nullptr, nullptr),
              CL_SUCCESS);
    Bytes expected(bytes);
    copyTexels(whole, tightLayout(shape, element, extent), origin, expected,
               tightLayout(shape, element, region), {0, 0, 0}, region);
    EXPECT_EQ(packed, expected);

    const Bytes incoming = pattern(bytes, 17);
    ASSERT_EQ(clEnqueueWriteBuffer(queue, buffer.get(), CL_TRUE, offset, bytes, incoming.data(),
                                   0, nullptr, nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clEnqueueCopyBufferToImage(queue, buffer.get(), mem.get(), offset, origin.data(),
                                         region.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    copyTexels(incoming, tightLayout(shape, element, region), {0, 0, 0}, whole,
               tightLayout(shape, element, extent), origin, region);
    EXPECT_EQ(read(mem.get(), {0, 0, 0}, extent, element), whole);
    // Past the end of the buffer.
    EXPECT_EQ(clEnqueueCopyImageToBuffer(queue, mem.get(), buffer.get(), origin.data(),
                                         region.data(), offset + 9, 0, nullptr, nullptr),
              CL_INVALID_VALUE);
  }
}

// ---------------------------------------------------------------------------
// Maps

TEST_F(Images, MapsShowAndKeepTexelsAtTheReportedPitches) {
  const size_t element = 4;
  for (cl_mem_object_type type : imageTypes) {
    SCOPED_TRACE(typeName(type));
    if (type == CL_MEM_OBJECT_IMAGE1D_BUFFER && !testingLanewise())
      continue; // PoCL 3.1 counts no map of a 1D image buffer and leaves its slice pitch unset
    const Shape shape = shapeOf(type);
    const Size3 extent = shape.extent();
    Mem mem = image(shape);
    Bytes whole = pattern(volume(extent) * element, 18);
    write(mem.get(), {0, 0, 0}, extent, whole);
    Size3 origin = {1, 0, 0}, region = {3, extent[1], extent[2]};
    if (extent[1] > 1)
      origin[1] = 1, region[1] = extent[1] - 1;
    size_t rowPitch = 0, slicePitch = 99;
    cl_int err = CL_SUCCESS;
    auto *mapped = static_cast<std::uint8_t *>(
        clEnqueueMapImage(queue, mem.get(), CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, origin.data(),
                          region.data(), &rowPitch, &slicePitch, 0, nullptr, nullptr, &err));
    ASSERT_EQ(err, CL_SUCCESS);
    ASSERT_NE(mapped, nullptr);
    EXPECT_EQ(memInfo<cl_uint>(mem.get(), CL_MEM_MAP_COUNT), 1u);
    const bool layered = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                         type == CL_MEM_OBJECT_IMAGE2D_ARRAY || type == CL_MEM_OBJECT_IMAGE3D;
    if (!layered) {
      EXPECT_EQ(slicePitch, 0u) << "a 1D or 2D image's mapped slice pitch is 0";
    }
    EXPECT_GE(rowPitch, region[0] * element);
    // The mapped texels: rows at the row pitch, a 1D array's layers and
    // other slices at the slice pitch.
    const HostLayout mappedLayout = type == CL_MEM_OBJECT_IMAGE1D_ARRAY
                                        ? HostLayout{element, slicePitch, slicePitch}
                                        : HostLayout{element, rowPitch, slicePitch};
    const HostLayout tight = tightLayout(shape, element, extent);
    for (size_t z = 0; z < region[2]; ++z)
      for (size_t y = 0; y < region[1]; ++y)
        for (size_t x = 0; x < region[0]; ++x) {
          const size_t at = mappedLayout.offset(x, y, z);
          const size_t from = tight.offset(origin[0] + x, origin[1] + y, origin[2] + z);
          ASSERT_EQ(0, std::memcmp(mapped + at, &whole[from], element))
              << "texel " << x << "," << y << "," << z;
          mapped[at] ^= 0xFF;
          whole[from] ^= 0xFF;
        }
    ASSERT_EQ(clEnqueueUnmapMemObject(queue, mem.get(), mapped, 0, nullptr, nullptr), CL_SUCCESS);
    ASSERT_EQ(clFinish(queue), CL_SUCCESS);
    EXPECT_EQ(memInfo<cl_uint>(mem.get(), CL_MEM_MAP_COUNT), 0u);
    EXPECT_EQ(read(mem.get(), {0, 0, 0}, extent, element), whole);
  }
}

TEST_F(Images, MapNeedsPitchPointersAndHostAccess) {
  const Size3 zero = {0, 0, 0}, region = {1, 1, 1};
  size_t rowPitch = 0, slicePitch = 0;
  cl_int err = CL_SUCCESS;
  Mem volume3 = image(shapeOf(CL_MEM_OBJECT_IMAGE3D));
  EXPECT_EQ(clEnqueueMapImage(queue, volume3.get(), CL_TRUE, CL_MAP_READ, zero.data(),
                              region.data(), &rowPitch, nullptr, 0, nullptr, nullptr, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE) << "a 3D image's image_slice_pitch may not be NULL";
  EXPECT_EQ(clEnqueueMapImage(queue, volume3.get(), CL_TRUE, CL_MAP_READ, zero.data(),
                              region.data(), nullptr, &slicePitch, 0, nullptr, nullptr, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE) << "image_row_pitch may not be NULL";
  Mem readOnly = image(shapeOf(CL_MEM_OBJECT_IMAGE2D), {CL_RGBA, CL_UNSIGNED_INT8},
                       CL_MEM_READ_WRITE | CL_MEM_HOST_READ_ONLY);
  EXPECT_EQ(clEnqueueMapImage(queue, readOnly.get(), CL_TRUE, CL_MAP_WRITE, zero.data(),
                              region.data(), &rowPitch, nullptr, 0, nullptr, nullptr, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_OPERATION);
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
  const cl_image_desc tall = describe({CL_MEM_OBJECT_IMAGE2D, width, height + 1}, rowPitch, 0,
                                      buffer.get());
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
      {0x7777, CL_UNORM_INT8},            // no such order
      {CL_RGBA, 0x7777},                  // no such type
      {CL_RGBA, CL_UNORM_SHORT_565},      // a packed RGB type with four channels
      {CL_R, CL_UNORM_INT_101010},        // likewise with one
      {CL_RGB, CL_UNORM_INT8},            // CL_RGB is for the packed types only
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
  EXPECT_EQ(clCreateImage(context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, &format, &desc, nullptr,
                          &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateImage(context, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, &format, &desc,
                          host.data(), &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateImage(context, CL_MEM_USE_HOST_PTR, &format, &desc, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_HOST_PTR);
  EXPECT_EQ(clCreateImage(context, CL_MEM_READ_WRITE, &format, &desc, host.data(), &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_HOST_PTR);
  EXPECT_EQ(clCreateImage(nullptr, CL_MEM_READ_WRITE, &format, &desc, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  // CL_MEM_ALLOC_HOST_PTR and the host access flags make ordinary images.
  Mem alloc(clCreateImage(context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_HOST_NO_ACCESS, &format, &desc,
                          nullptr, &err));
  EXPECT_EQ(err, CL_SUCCESS);
}

// ---------------------------------------------------------------------------
// Command errors

TEST_F(Images, CommandsCheckOriginsAndRegionsPerType) {
  if (!testingLanewise())
    GTEST_SKIP() << "PoCL 3.1 accepts empty regions, a 1D array's layers past its end, slice "
                    "pitches for 2D images and short row pitches, and crashes on 1D images";
  const Bytes host(4096);
  Bytes out(4096);
  for (cl_mem_object_type type : imageTypes) {
    SCOPED_TRACE(typeName(type));
    const Shape shape = shapeOf(type);
    const Size3 extent = shape.extent();
    Mem mem = image(shape);
    const Size3 zero = {0, 0, 0};
    auto readAt = [&](const Size3 &origin, const Size3 &region) {
      return clEnqueueReadImage(queue, mem.get(), CL_TRUE, origin.data(), region.data(), 0, 0,
                                out.data(), 0, nullptr, nullptr);
    };
    EXPECT_EQ(readAt(zero, extent), CL_SUCCESS);
    EXPECT_EQ(readAt({1, 0, 0}, extent), CL_INVALID_VALUE) << "past the width";
    EXPECT_EQ(readAt(zero, {0, 1, 1}), CL_INVALID_VALUE) << "an empty region";
    const int used = type == CL_MEM_OBJECT_IMAGE1D || type == CL_MEM_OBJECT_IMAGE1D_BUFFER ? 1
                     : type == CL_MEM_OBJECT_IMAGE1D_ARRAY || type == CL_MEM_OBJECT_IMAGE2D ? 2
                                                                                            : 3;
    for (int d = 1; d < 3; ++d) {
      Size3 origin = zero, region = {1, 1, 1};
      if (d >= used) {
        // OpenCL 3.0: the unused coordinates are 0 in origin and 1 in region.
        origin[d] = 1;
        EXPECT_EQ(readAt(origin, region), CL_INVALID_VALUE) << "origin[" << d << "]";
        region[d] = 2;
        EXPECT_EQ(readAt(zero, region), CL_INVALID_VALUE) << "region[" << d << "]";
      } else {
        origin[d] = extent[d] - 1;
        EXPECT_EQ(readAt(origin, region), CL_SUCCESS) << "the last row, layer or slice";
        region[d] = 2;
        EXPECT_EQ(readAt(origin, region), CL_INVALID_VALUE) << "past the extent " << d;
      }
    }
    EXPECT_EQ(clEnqueueReadImage(queue, mem.get(), CL_TRUE, nullptr, extent.data(), 0, 0,
                                 out.data(), 0, nullptr, nullptr),
              CL_INVALID_VALUE);
    EXPECT_EQ(clEnqueueWriteImage(queue, mem.get(), CL_TRUE, zero.data(), nullptr, 0, 0,
                                  host.data(), 0, nullptr, nullptr),
              CL_INVALID_VALUE);
    EXPECT_EQ(clEnqueueReadImage(queue, mem.get(), CL_TRUE, zero.data(), extent.data(), 0, 0,
                                 nullptr, 0, nullptr, nullptr),
              CL_INVALID_VALUE);
    const bool layered = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                         type == CL_MEM_OBJECT_IMAGE2D_ARRAY || type == CL_MEM_OBJECT_IMAGE3D;
    if (!layered) {
      EXPECT_EQ(clEnqueueReadImage(queue, mem.get(), CL_TRUE, zero.data(), extent.data(), 0, 4096,
                                   out.data(), 0, nullptr, nullptr),
                CL_INVALID_VALUE)
          << "a slice pitch for a 1D or 2D image";
    }
    EXPECT_EQ(clEnqueueReadImage(queue, mem.get(), CL_TRUE, zero.data(), extent.data(), 4, 0,
                                 out.data(), 0, nullptr, nullptr),
              CL_INVALID_VALUE)
        << "a row pitch shorter than a row";
  }
}

TEST_F(Images, CommandsCheckObjectsAndHostAccess) {
  const Shape shape = shapeOf(CL_MEM_OBJECT_IMAGE2D);
  const Size3 zero = {0, 0, 0}, region = {1, 1, 1};
  Bytes host(64);
  cl_int err = CL_SUCCESS;
  Mem buffer(clCreateBuffer(context, CL_MEM_READ_WRITE, 64, nullptr, &err));
  EXPECT_EQ(clEnqueueReadImage(queue, buffer.get(), CL_TRUE, zero.data(), region.data(), 0, 0,
                               host.data(), 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT)
      << "a buffer is no image";
  Mem mem = image(shape);
  if (testingLanewise()) { // PoCL 3.1 reads an image as a buffer
    EXPECT_EQ(clEnqueueReadBuffer(queue, mem.get(), CL_TRUE, 0, 4, host.data(), 0, nullptr,
                                  nullptr),
              CL_INVALID_MEM_OBJECT)
        << "an image is no buffer";
  }
  EXPECT_EQ(clEnqueueCopyImageToBuffer(queue, mem.get(), mem.get(), zero.data(), region.data(), 0,
                                       0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clEnqueueCopyBufferToImage(queue, buffer.get(), buffer.get(), 0, zero.data(),
                                       region.data(), 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  Mem noRead = image(shape, {CL_RGBA, CL_UNSIGNED_INT8}, CL_MEM_READ_WRITE | CL_MEM_HOST_WRITE_ONLY);
  EXPECT_EQ(clEnqueueReadImage(queue, noRead.get(), CL_TRUE, zero.data(), region.data(), 0, 0,
                               host.data(), 0, nullptr, nullptr),
            CL_INVALID_OPERATION);
  Mem noWrite = image(shape, {CL_RGBA, CL_UNSIGNED_INT8}, CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS);
  EXPECT_EQ(clEnqueueWriteImage(queue, noWrite.get(), CL_TRUE, zero.data(), region.data(), 0, 0,
                                host.data(), 0, nullptr, nullptr),
            CL_INVALID_OPERATION);
  // Copies ignore the host access flags (OpenCL 3.0, clEnqueueCopyImage).
  EXPECT_EQ(clEnqueueCopyImage(queue, noRead.get(), noWrite.get(), zero.data(), zero.data(),
                               region.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  // Another context's image.
  cl_context other = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  const cl_image_format format = {CL_RGBA, CL_UNSIGNED_INT8};
  const cl_image_desc desc = describe(shape);
  Mem foreign(clCreateImage(other, CL_MEM_READ_WRITE, &format, &desc, nullptr, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(clEnqueueReadImage(queue, foreign.get(), CL_TRUE, zero.data(), region.data(), 0, 0,
                               host.data(), 0, nullptr, nullptr),
            CL_INVALID_CONTEXT);
  foreign.reset();
  clReleaseContext(other);
  // Wait lists as for every command.
  EXPECT_EQ(clEnqueueReadImage(queue, mem.get(), CL_TRUE, zero.data(), region.data(), 0, 0,
                               host.data(), 1, nullptr, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
  EXPECT_EQ(clEnqueueReadImage(nullptr, mem.get(), CL_TRUE, zero.data(), region.data(), 0, 0,
                               host.data(), 0, nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
}

// Non-blocking commands with events and wait lists, as buffer commands.
TEST_F(Images, CommandsFollowTheirWaitLists) {
  const Shape shape = shapeOf(CL_MEM_OBJECT_IMAGE2D);
  Mem mem = image(shape);
  cl_int err = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(context, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  const Bytes data = pattern(volume(shape.extent()) * 4, 23);
  Bytes out(data.size());
  const Size3 zero = {0, 0, 0};
  cl_event written = nullptr, readBack = nullptr;
  ASSERT_EQ(clEnqueueWriteImage(queue, mem.get(), CL_FALSE, zero.data(), shape.extent().data(), 0,
                                0, data.data(), 1, &gate, &written),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadImage(queue, mem.get(), CL_FALSE, zero.data(), shape.extent().data(), 0,
                               0, out.data(), 1, &written, &readBack),
            CL_SUCCESS);
  cl_int status = 0;
  ASSERT_EQ(clGetEventInfo(readBack, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                           nullptr),
            CL_SUCCESS);
  EXPECT_GT(status, CL_COMPLETE) << "ran before its wait list";
  cl_command_type command = 0;
  ASSERT_EQ(clGetEventInfo(written, CL_EVENT_COMMAND_TYPE, sizeof command, &command, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(command, cl_command_type{CL_COMMAND_WRITE_IMAGE});
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &readBack), CL_SUCCESS);
  EXPECT_EQ(out, data);
  for (cl_event e : {gate, written, readBack})
    clReleaseEvent(e);
}

// ---------------------------------------------------------------------------
// Fill (OpenCL 3.0, clEnqueueFillImage; conversions of OpenCL C 3.0, 8.3)

// Round to nearest even, as convert_*_rte.
long roundEven(double value) { return std::lrint(value); }

std::uint16_t halfBits(float value) {
  // Finite values within half's normal range suffice for these colors.
  if (value == 0.0f)
    return std::signbit(value) ? 0x8000 : 0;
  std::uint32_t bits;
  std::memcpy(&bits, &value, 4);
  const std::uint32_t sign = (bits >> 16) & 0x8000;
  const int exponent = int((bits >> 23) & 0xFF) - 127 + 15;
  std::uint32_t mantissa = bits & 0x7FFFFF;
  std::uint32_t result = (std::uint32_t(exponent) << 10) | (mantissa >> 13);
  const std::uint32_t rest = mantissa & 0x1FFF;
  if (rest > 0x1000 || (rest == 0x1000 && (result & 1)))
    ++result;
  return static_cast<std::uint16_t>(sign | result);
}

template <typename T> void put(Bytes &texel, size_t at, T value) {
  std::memcpy(&texel[at], &value, sizeof value);
}

TEST_F(Images, FillConvertsTheColorToEachFormat) {
  const float color[4] = {0.25f, -0.5f, 1.5f, 0.7f};
  const cl_int signedColor[4] = {-200, 100, 70000, -5};
  const cl_uint unsignedColor[4] = {300, 7, 70000, 65535};
  struct Case {
    cl_image_format format;
    const void *color;
    Bytes texel;
  };
  std::vector<Case> cases;
  auto add = [&](cl_channel_order order, cl_channel_type type, const void *fill, Bytes texel) {
    cases.push_back({{order, type}, fill, std::move(texel)});
  };
  // UNORM: round(clamp(f, 0, 1) * max); SNORM: round(clamp(f, -1, 1) * max).
  add(CL_RGBA, CL_UNORM_INT8, color,
      {std::uint8_t(roundEven(0.25 * 255)), 0, 255, std::uint8_t(roundEven(0.7f * 255.0f))});
  {
    Bytes t(8);
    put<std::uint16_t>(t, 0, std::uint16_t(roundEven(0.25 * 65535)));
    put<std::uint16_t>(t, 2, 0);
    put<std::uint16_t>(t, 4, 65535);
    put<std::uint16_t>(t, 6, std::uint16_t(roundEven(0.7f * 65535.0f)));
    add(CL_RGBA, CL_UNORM_INT16, color, t);
  }
  add(CL_RGBA, CL_SNORM_INT8, color,
      {std::uint8_t(std::int8_t(roundEven(0.25 * 127))), std::uint8_t(std::int8_t(roundEven(-0.5 * 127))),
       127, std::uint8_t(std::int8_t(roundEven(0.7f * 127.0f)))});
  // Integers saturate to the channel's range.
  add(CL_RGBA, CL_SIGNED_INT8, signedColor,
      {std::uint8_t(std::int8_t(-128)), 100, 127, std::uint8_t(std::int8_t(-5))});
  {
    Bytes t(8);
    put<std::uint16_t>(t, 0, 300);
    put<std::uint16_t>(t, 2, 7);
    put<std::uint16_t>(t, 4, 65535);
    put<std::uint16_t>(t, 6, 65535);
    add(CL_RGBA, CL_UNSIGNED_INT16, unsignedColor, t);
  }
  {
    Bytes t(16);
    for (int c = 0; c < 4; ++c)
      put<cl_int>(t, 4 * c, signedColor[c]);
    add(CL_RGBA, CL_SIGNED_INT32, signedColor, t);
  }
  {
    Bytes t(16);
    for (int c = 0; c < 4; ++c)
      put<float>(t, 4 * c, color[c]);
    add(CL_RGBA, CL_FLOAT, color, t);
  }
  {
    Bytes t(8);
    for (int c = 0; c < 4; ++c)
      put<std::uint16_t>(t, 2 * c, halfBits(color[c]));
    add(CL_RGBA, CL_HALF_FLOAT, color, t);
  }
  // Channel orders: the bytes in memory order.
  add(CL_BGRA, CL_UNORM_INT8, color,
      {255, 0, std::uint8_t(roundEven(0.25 * 255)), std::uint8_t(roundEven(0.7f * 255.0f))});
  add(CL_R, CL_UNSIGNED_INT8, unsignedColor, {255});
  add(CL_RG, CL_SIGNED_INT8, signedColor, {std::uint8_t(std::int8_t(-128)), 100});
  add(CL_A, CL_UNORM_INT8, color, {std::uint8_t(roundEven(0.7f * 255.0f))});

  for (cl_mem_object_type type : {CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE1D_ARRAY,
                                  CL_MEM_OBJECT_IMAGE3D})
    for (const Case &c : cases) {
      SCOPED_TRACE(typeName(type) + " order 0x" + std::to_string(c.format.image_channel_order) +
                   " type 0x" + std::to_string(c.format.image_channel_data_type));
      bool supported = false;
      for (const cl_image_format &f : formats(CL_MEM_READ_WRITE, type))
        supported |= f.image_channel_order == c.format.image_channel_order &&
                     f.image_channel_data_type == c.format.image_channel_data_type;
      if (!supported)
        continue; // beyond the minimum lists
      const cl_channel_type channel = c.format.image_channel_data_type;
      const bool rounds = channel == CL_UNORM_INT8 || channel == CL_UNORM_INT16 ||
                          channel == CL_SNORM_INT8 || channel == CL_HALF_FLOAT;
      if (rounds && !testingLanewise())
        continue; // PoCL 3.1 rounds toward zero where OpenCL C 8.3 rounds to nearest even
      const size_t element = c.texel.size();
      const Shape shape = shapeOf(type);
      const Size3 extent = shape.extent();
      Mem mem = image(shape, c.format);
      ASSERT_NE(mem, nullptr);
      Bytes whole = pattern(volume(extent) * element, 24);
      write(mem.get(), {0, 0, 0}, extent, whole);
      Size3 origin = {1, 0, 0}, region = {3, extent[1], extent[2]};
      if (extent[1] > 1)
        origin[1] = 1, region[1] = extent[1] - 1;
      ASSERT_EQ(clEnqueueFillImage(queue, mem.get(), c.color, origin.data(), region.data(), 0,
                                   nullptr, nullptr),
                CL_SUCCESS);
      const HostLayout tight = tightLayout(shape, element, extent);
      for (size_t z = 0; z < region[2]; ++z)
        for (size_t y = 0; y < region[1]; ++y)
          for (size_t x = 0; x < region[0]; ++x)
            std::copy(c.texel.begin(), c.texel.end(),
                      whole.begin() + tight.offset(origin[0] + x, origin[1] + y, origin[2] + z));
      EXPECT_EQ(read(mem.get(), {0, 0, 0}, extent, element), whole);
    }
}

TEST_F(Images, FillChecksItsArguments) {
  Mem mem = image(shapeOf(CL_MEM_OBJECT_IMAGE2D));
  const cl_uint color[4] = {1, 2, 3, 4};
  const Size3 zero = {0, 0, 0}, region = {1, 1, 1}, past = {8, 1, 1};
  EXPECT_EQ(clEnqueueFillImage(queue, mem.get(), nullptr, zero.data(), region.data(), 0, nullptr,
                               nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueFillImage(queue, mem.get(), color, zero.data(), past.data(), 0, nullptr,
                               nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueFillImage(queue, mem.get(), color, nullptr, region.data(), 0, nullptr,
                               nullptr),
            CL_INVALID_VALUE);
  cl_int err = CL_SUCCESS;
  Mem buffer(clCreateBuffer(context, CL_MEM_READ_WRITE, 64, nullptr, &err));
  EXPECT_EQ(clEnqueueFillImage(queue, buffer.get(), color, zero.data(), region.data(), 0, nullptr,
                               nullptr),
            CL_INVALID_MEM_OBJECT);
}

} // namespace
} // namespace lanewise::test
