// SPDX-License-Identifier: Apache-2.0
// Image objects and their commands (OpenCL 3.0 API, 5.3).
#include "icd/image.h"

#include "icd/api.h"
#include "icd/queue.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <cstring>

using namespace lanewise;
using namespace lanewise::icd;

namespace lanewise::icd {

namespace {

// OpenCL 3.0, Image Format Descriptor: the channels of each order in
// memory. CL_Rx, CL_RGx and CL_RGBx are laid out as CL_R, CL_RG and CL_RGB
// and differ only in their border colour.
int channelCount(cl_channel_order order) {
  switch (order) {
  case CL_R:
  case CL_A:
  case CL_INTENSITY:
  case CL_LUMINANCE:
  case CL_DEPTH:
  case CL_Rx:
    return 1;
  case CL_RG:
  case CL_RA:
  case CL_RGx:
    return 2;
  case CL_RGB:
  case CL_sRGB:
    return 3;
  case CL_RGBA:
  case CL_BGRA:
  case CL_ARGB:
  case CL_ABGR:
  case CL_RGBx:
  case CL_sRGBA:
  case CL_sBGRA:
  case CL_sRGBx:
    return 4;
  default:
    return 0; // not an OpenCL 3.0 channel order
  }
}

// Bytes of one channel, or of the whole element for the packed types; 0 for
// values that are not OpenCL 3.0 channel data types.
size_t channelBytes(cl_channel_type type) {
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
  case CL_SIGNED_INT32:
  case CL_UNSIGNED_INT32:
  case CL_FLOAT:
  case CL_UNORM_INT_101010:
  case CL_UNORM_INT_101010_2:
    return 4;
  default:
    return 0;
  }
}

bool isPacked(cl_channel_type type) {
  return type == CL_UNORM_SHORT_565 || type == CL_UNORM_SHORT_555 || type == CL_UNORM_INT_101010 ||
         type == CL_UNORM_INT_101010_2;
}

// The bytes of an element of a valid format descriptor, or 0 when the
// descriptor is not valid: an unknown order or type, a packed type with an
// order it does not describe, or an element whose number of bits is not a
// power of two (OpenCL 3.0, Image Format Descriptor).
size_t descriptorElementBytes(const cl_image_format &format) {
  const int channels = channelCount(format.image_channel_order);
  const size_t bytes = channelBytes(format.image_channel_data_type);
  if (channels == 0 || bytes == 0)
    return 0;
  const cl_channel_order order = format.image_channel_order;
  const cl_channel_type type = format.image_channel_data_type;
  if (type == CL_UNORM_INT_101010_2)
    return order == CL_RGBA ? bytes : 0;
  if (isPacked(type))
    return order == CL_RGB || order == CL_RGBx ? bytes : 0;
  const size_t element = bytes * channels;
  return std::has_single_bit(element) ? element : 0;
}

constexpr cl_channel_type everyType[] = {CL_SNORM_INT8,     CL_SNORM_INT16,   CL_UNORM_INT8,
                                         CL_UNORM_INT16,    CL_SIGNED_INT8,   CL_SIGNED_INT16,
                                         CL_SIGNED_INT32,   CL_UNSIGNED_INT8, CL_UNSIGNED_INT16,
                                         CL_UNSIGNED_INT32, CL_HALF_FLOAT,    CL_FLOAT};
constexpr cl_channel_type eightBitTypes[] = {CL_UNORM_INT8, CL_SNORM_INT8, CL_SIGNED_INT8,
                                             CL_UNSIGNED_INT8};
constexpr cl_channel_type normalizedAndFloatTypes[] = {
    CL_UNORM_INT8, CL_UNORM_INT16, CL_SNORM_INT8, CL_SNORM_INT16, CL_HALF_FLOAT, CL_FLOAT};
constexpr cl_channel_type packedRgbTypes[] = {CL_UNORM_SHORT_565, CL_UNORM_SHORT_555,
                                              CL_UNORM_INT_101010};

// The supported formats: the OpenCL 3.0 minimum lists (RGBA with every type
// but the packed ones, BGRA UNORM_INT8; R and RGBA for read_write) and every
// other order with the types the OpenCL 1.2 to 3.0 specifications allow for
// it: ARGB, BGRA and ABGR with 8-bit types; INTENSITY and LUMINANCE with
// normalized and floating-point types; RGB with the packed types; sRGBA and
// sBGRA with UNORM_INT8 (sRGB itself has 24-bit elements, which OpenCL 3.0
// does not allow). The 3-channel orders with 8-, 16- and 32-bit channels
// make elements whose size is not a power of two.
//
// The orders with a padding channel (Rx, RGx, RGBx, sRGBx) are not offered:
// OpenCL C 3.0 (8.2) gives them the border colour (0, 0, 0, 0), and the
// OpenCL-CTS (test_image_streams) expects (0, 0, 0, 1), as for R, RG and
// RGB. Neither answer can pass both, and these orders are optional.
std::vector<ImageFormat> makeFormatTable() {
  std::vector<ImageFormat> table;
  auto add = [&](cl_channel_order order, std::span<const cl_channel_type> types) {
    for (cl_channel_type type : types) {
      const cl_image_format format{order, type};
      const bool srgb = order == CL_sRGBA || order == CL_sBGRA;
      table.push_back({order, type, descriptorElementBytes(format), !srgb});
    }
  };
  for (cl_channel_order order : {CL_R, CL_A, CL_RG, CL_RA, CL_RGBA})
    add(order, everyType);
  for (cl_channel_order order : {CL_BGRA, CL_ARGB, CL_ABGR})
    add(order, eightBitTypes);
  for (cl_channel_order order : {CL_INTENSITY, CL_LUMINANCE})
    add(order, normalizedAndFloatTypes);
  add(CL_RGB, packedRgbTypes);
  for (cl_channel_order order : {CL_sRGBA, CL_sBGRA})
    add(order, std::span<const cl_channel_type>(eightBitTypes, 1));
  return table;
}

} // namespace

std::span<const ImageFormat> supportedImageFormats() {
  static const std::vector<ImageFormat> table = makeFormatTable();
  return table;
}

const ImageFormat *findImageFormat(const cl_image_format &format) {
  for (const ImageFormat &entry : supportedImageFormats())
    if (entry.order == format.image_channel_order && entry.type == format.image_channel_data_type)
      return &entry;
  return nullptr;
}

size_t Image::extent(int dimension) const {
  if (dimension == 1)
    return type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? arraySize : height;
  return type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? arraySize : depth;
}

RectLayout Image::layout(const size_t *origin) const {
  const bool layersAreRows = type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
  return {{origin[0] * elementBytes(), origin[1], origin[2]},
          layersAreRows ? slicePitch : rowPitch,
          slicePitch};
}

const Image *imageOf(cl_mem mem) { return isValid(mem) ? mem->image.get() : nullptr; }

} // namespace lanewise::icd

namespace {

const char *typeName(cl_mem_object_type type) {
  switch (type) {
  case CL_MEM_OBJECT_IMAGE1D:
    return "1D image";
  case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    return "1D image buffer";
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    return "1D image array";
  case CL_MEM_OBJECT_IMAGE2D:
    return "2D image";
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    return "2D image array";
  case CL_MEM_OBJECT_IMAGE3D:
    return "3D image";
  default:
    return "memory object";
  }
}

bool isImageType(cl_mem_object_type type) {
  return type == CL_MEM_OBJECT_IMAGE1D || type == CL_MEM_OBJECT_IMAGE1D_BUFFER ||
         type == CL_MEM_OBJECT_IMAGE1D_ARRAY || type == CL_MEM_OBJECT_IMAGE2D ||
         type == CL_MEM_OBJECT_IMAGE2D_ARRAY || type == CL_MEM_OBJECT_IMAGE3D;
}

bool isArray(cl_mem_object_type type) {
  return type == CL_MEM_OBJECT_IMAGE1D_ARRAY || type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
}

// The coordinates a region of the image type uses: x; x and y (rows or
// layers); x, y and z (slices or layers).
int regionDimensions(cl_mem_object_type type) {
  switch (type) {
  case CL_MEM_OBJECT_IMAGE1D:
  case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    return 1;
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
  case CL_MEM_OBJECT_IMAGE2D:
    return 2;
  default:
    return 3;
  }
}

bool hasHeight(cl_mem_object_type type) {
  return type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
         type == CL_MEM_OBJECT_IMAGE3D;
}

bool multiply(size_t a, size_t b, size_t &product) {
  return !__builtin_mul_overflow(a, b, &product);
}

// The channel orders whose views of one image's texels
// clCreateImage may make (OpenCL 3.0, Compatible Image Channel Orders), the
// order itself included.
bool compatibleOrders(cl_channel_order view, cl_channel_order stored) {
  if (view == stored)
    return true;
  const std::pair<cl_channel_order, cl_channel_order> pairs[] = {{CL_sBGRA, CL_BGRA},
                                                                 {CL_sRGBA, CL_RGBA},
                                                                 {CL_sRGB, CL_RGB},
                                                                 {CL_sRGBx, CL_RGBx},
                                                                 {CL_DEPTH, CL_R}};
  for (auto [a, b] : pairs)
    if ((view == a && stored == b) || (view == b && stored == a))
      return true;
  return false;
}

// What clCreateImage{,WithProperties,2D,3D} have to say about one creation.
struct ImageRequest {
  const char *entryPoint;
  // clCreateImage2D and clCreateImage3D report problems of the dimensions and
  // pitches as CL_INVALID_IMAGE_SIZE, having no descriptor.
  bool legacy = false;
};

// The limits of a dimension of the image type on the device (OpenCL 3.0,
// Image Descriptor), 0 when the type does not use it.
size_t maximumExtent(const _cl_device_id &device, cl_mem_object_type type, int dimension) {
  switch (dimension) {
  case 0:
    return type == CL_MEM_OBJECT_IMAGE3D          ? device.image3DMaxSize
           : type == CL_MEM_OBJECT_IMAGE1D_BUFFER ? device.imageMaxBufferSize
                                                  : device.image2DMaxSize;
  case 1:
    return type == CL_MEM_OBJECT_IMAGE3D ? device.image3DMaxSize
           : hasHeight(type)             ? device.image2DMaxSize
                                         : 0;
  case 2:
    return type == CL_MEM_OBJECT_IMAGE3D ? device.image3DMaxSize : 0;
  default:
    return isArray(type) ? device.imageMaxArraySize : 0;
  }
}

cl_mem createImage(const ImageRequest &request, cl_context context,
                   const cl_mem_properties *properties, cl_mem_flags flags,
                   const cl_image_format *format, const cl_image_desc *desc, void *hostPointer,
                   cl_int *errcodeReturn) {
  // The failures after the context's check are reported to it.
  auto fail = [&](cl_int error, const std::string &problem = {}) -> cl_mem {
    if (!problem.empty())
      icd::fail(*context, error, std::string(request.entryPoint) + ": " + problem);
    setError(errcodeReturn, error);
    return nullptr;
  };
  const cl_int badDescriptor = request.legacy ? CL_INVALID_IMAGE_SIZE : CL_INVALID_IMAGE_DESCRIPTOR;
  if (!isValid(context))
    return fail(CL_INVALID_CONTEXT);
  const _cl_device_id &device = *context->device;
  if (!device.capabilities.images)
    return fail(CL_INVALID_OPERATION, "the device does not support images");
  // OpenCL 3.0 defines no image property; only the empty list is valid.
  std::vector<cl_mem_properties> propertyList;
  if (properties) {
    if (properties[0] != 0)
      return fail(CL_INVALID_PROPERTY, "properties names an unknown property");
    propertyList.push_back(0);
  }
  if (!validMemoryFlags(flags))
    return fail(CL_INVALID_VALUE, "flags has unknown bits or mutually exclusive flags");
  if (!format)
    return fail(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "image_format is NULL");
  const size_t elementBytes = descriptorElementBytes(*format);
  if (elementBytes == 0)
    return fail(
        CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "image_format (channel order 0x" + [&] {
          char text[64];
          std::snprintf(text, sizeof text, "%X, channel data type 0x%X",
                        format->image_channel_order, format->image_channel_data_type);
          return std::string(text);
        }() + ") is not a valid format descriptor");
  if (!desc)
    return fail(CL_INVALID_IMAGE_DESCRIPTOR, "image_desc is NULL");
  const cl_mem_object_type type = desc->image_type;
  if (!isImageType(type))
    return fail(
        CL_INVALID_IMAGE_DESCRIPTOR, "image_desc->image_type 0x" + [&] {
          char text[16];
          std::snprintf(text, sizeof text, "%X", type);
          return std::string(text);
        }() + " is not an image type");
  const std::string kind = typeName(type);
  if (desc->num_mip_levels != 0 || desc->num_samples != 0)
    return fail(CL_INVALID_IMAGE_DESCRIPTOR,
                "image_desc->num_mip_levels and num_samples must be 0");

  // The memory object the image is created from: a buffer for a 1D image
  // buffer or a 2D image, a 2D image for a 2D image (OpenCL 3.0, Image
  // Descriptor).
  cl_mem source = desc->mem_object;
  if (type == CL_MEM_OBJECT_IMAGE1D_BUFFER && !source)
    return fail(CL_INVALID_IMAGE_DESCRIPTOR, "image_desc->buffer is NULL for a 1D image buffer");
  if (source) {
    if (type != CL_MEM_OBJECT_IMAGE1D_BUFFER && type != CL_MEM_OBJECT_IMAGE2D)
      return fail(CL_INVALID_IMAGE_DESCRIPTOR, "image_desc->mem_object is not NULL for a " + kind);
    if (!isValid(source))
      return fail(CL_INVALID_IMAGE_DESCRIPTOR,
                  "image_desc->mem_object is not a valid memory object");
    if (source->context.get() != context)
      return fail(CL_INVALID_IMAGE_DESCRIPTOR, "image_desc->mem_object belongs to another context");
    if (type == CL_MEM_OBJECT_IMAGE1D_BUFFER && source->isImage())
      return fail(CL_INVALID_IMAGE_DESCRIPTOR,
                  "image_desc->buffer is an image, not a buffer, for a 1D image buffer");
    if (source->isImage() && source->type != CL_MEM_OBJECT_IMAGE2D)
      return fail(CL_INVALID_IMAGE_DESCRIPTOR,
                  std::string("image_desc->mem_object is a ") + typeName(source->type) +
                      "; a 2D image is made from a buffer or a 2D image");
  }
  const bool fromBuffer = source && !source->isImage();
  const bool fromImage = source && source->isImage();
  if (fromBuffer && type == CL_MEM_OBJECT_IMAGE2D && device.imagePitchAlignment == 0)
    return fail(CL_INVALID_OPERATION, "the device does not support 2D images from buffers");

  // Dimensions: at least 1 and at most the device's limits, for the ones the
  // type uses.
  const size_t extents[4] = {desc->image_width, desc->image_height, desc->image_depth,
                             desc->image_array_size};
  static const char *const extentNames[4] = {"image_width", "image_height", "image_depth",
                                             "image_array_size"};
  for (int d = 0; d < 4; ++d) {
    const size_t limit = maximumExtent(device, type, d);
    if (limit == 0)
      continue;
    if (extents[d] == 0 || extents[d] > limit)
      return fail(CL_INVALID_IMAGE_SIZE, std::string("image_desc->") + extentNames[d] + " " +
                                             std::to_string(extents[d]) +
                                             " is not between 1 and the device's " +
                                             std::to_string(limit) + " for a " + kind);
  }
  const size_t width = desc->image_width;
  const size_t height = hasHeight(type) ? desc->image_height : 1;
  const size_t depth = type == CL_MEM_OBJECT_IMAGE3D ? desc->image_depth : 1;
  const size_t layers = isArray(type) ? desc->image_array_size : 1;

  // Pitches (OpenCL 3.0, Image Descriptor): 0 but with a host pointer or for
  // an image from a buffer or another image; at least a row of elements and
  // a multiple of the element size; slices at least the rows of a slice and
  // a multiple of the row pitch. (A 1D image buffer's row pitch describes
  // nothing beyond its one row; the OpenCL-CTS passes it, as applications
  // may.)
  const bool pitchAllowed = hostPointer || fromBuffer || fromImage;
  if (desc->image_row_pitch != 0 && !pitchAllowed)
    return fail(badDescriptor, "image_row_pitch is not 0 with a NULL host_ptr");
  const size_t tightRow = width * elementBytes;
  if (desc->image_row_pitch != 0 &&
      (desc->image_row_pitch < tightRow || desc->image_row_pitch % elementBytes != 0))
    return fail(badDescriptor, "image_row_pitch " + std::to_string(desc->image_row_pitch) +
                                   " is less than image_width x " + std::to_string(elementBytes) +
                                   "-byte elements or not a multiple of the element size");
  const size_t rowPitch = desc->image_row_pitch ? desc->image_row_pitch : tightRow;
  size_t slicePitch = 0;
  if (desc->image_slice_pitch != 0 && !hostPointer)
    return fail(badDescriptor, "image_slice_pitch is not 0 with a NULL host_ptr");
  if (type == CL_MEM_OBJECT_IMAGE1D_ARRAY || type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
      type == CL_MEM_OBJECT_IMAGE3D) {
    size_t tightSlice = 0;
    if (!multiply(rowPitch, height, tightSlice))
      return fail(CL_INVALID_IMAGE_SIZE, "the image is larger than memory");
    slicePitch = desc->image_slice_pitch && hostPointer ? desc->image_slice_pitch : tightSlice;
    if (slicePitch < tightSlice || slicePitch % rowPitch != 0)
      return fail(badDescriptor,
                  "image_slice_pitch " + std::to_string(slicePitch) + " is less than " +
                      std::to_string(tightSlice) +
                      " (the row pitch x the rows of a slice) or not a multiple of the row pitch");
  }
  size_t size = 0;
  bool fits = true;
  switch (type) {
  case CL_MEM_OBJECT_IMAGE1D:
  case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    size = rowPitch;
    break;
  case CL_MEM_OBJECT_IMAGE2D:
    fits = multiply(rowPitch, height, size);
    break;
  case CL_MEM_OBJECT_IMAGE3D:
    fits = multiply(slicePitch, depth, size);
    break;
  default:
    fits = multiply(slicePitch, layers, size);
    break;
  }
  if (!fits || size > device.maxAllocSize)
    return fail(CL_INVALID_IMAGE_SIZE, "the " + kind +
                                           " needs more than "
                                           "CL_DEVICE_MAX_MEM_ALLOC_SIZE (" +
                                           std::to_string(device.maxAllocSize) + " bytes)");

  // Flags: an image made from another memory object takes no host pointer
  // flag and does not widen its access.
  cl_mem_flags effectiveFlags = (flags & accessFlags) ? flags : flags | CL_MEM_READ_WRITE;
  if (source) {
    if (flags & hostPointerFlags)
      return fail(CL_INVALID_VALUE,
                  "flags has CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR or CL_MEM_COPY_HOST_PTR "
                  "for an image made from another memory object");
    if (widensParentAccess(flags, source->flags))
      return fail(CL_INVALID_VALUE, "flags widens the device or host access of image_desc->"
                                    "mem_object");
    effectiveFlags = inheritFlags(flags, source->flags);
  }
  const bool needsHostPointer = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  if (needsHostPointer && !hostPointer)
    return fail(CL_INVALID_HOST_PTR,
                "host_ptr is NULL with CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR");
  if (!needsHostPointer && hostPointer)
    return fail(CL_INVALID_HOST_PTR,
                "host_ptr is not NULL without CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR");
  const ImageFormat *supported = findImageFormat(*format);
  if (!supported)
    return fail(CL_IMAGE_FORMAT_NOT_SUPPORTED,
                "the device does not support the image format (see clGetSupportedImageFormats)");

  // The data store of an image made from another memory object.
  if (fromBuffer) {
    // OpenCL 3.0, Image Descriptor: a 2D image's row pitch is a multiple of
    // CL_DEVICE_IMAGE_PITCH_ALIGNMENT pixels and the buffer's address of
    // CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT pixels.
    if (type == CL_MEM_OBJECT_IMAGE2D) {
      const size_t pitchAlignment = device.imagePitchAlignment * elementBytes;
      if (rowPitch % pitchAlignment != 0)
        return fail(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
                    "the row pitch " + std::to_string(rowPitch) + " is not a multiple of " +
                        "CL_DEVICE_IMAGE_PITCH_ALIGNMENT (" + std::to_string(pitchAlignment) +
                        " bytes for this format)");
      const size_t baseAlignment = device.imageBaseAddressAlignment * elementBytes;
      if (reinterpret_cast<std::uintptr_t>(source->storage) % baseAlignment != 0)
        return fail(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "the buffer's memory is not aligned to "
                                                        "CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT (" +
                                                            std::to_string(baseAlignment) +
                                                            " bytes for this format)");
    }
    const size_t needed = type == CL_MEM_OBJECT_IMAGE2D ? size : tightRow;
    if (needed > source->size)
      return fail(CL_INVALID_IMAGE_SIZE, "the " + kind + " needs " + std::to_string(needed) +
                                             " bytes; the " + source->kindName() + " has " +
                                             std::to_string(source->size));
    if (type == CL_MEM_OBJECT_IMAGE1D_BUFFER)
      size = tightRow;
  }
  if (fromImage) {
    // OpenCL 3.0, Image Descriptor: a view of a 2D image with another
    // channel order; everything else matches.
    const Image &stored = *source->image;
    if (width != stored.width || height != stored.height ||
        (desc->image_row_pitch != 0 && desc->image_row_pitch != stored.rowPitch))
      return fail(CL_INVALID_IMAGE_DESCRIPTOR,
                  "image_desc does not match the descriptor of the 2D image in "
                  "image_desc->mem_object");
    if (format->image_channel_data_type != stored.format.image_channel_data_type ||
        !compatibleOrders(format->image_channel_order, stored.format.image_channel_order))
      return fail(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
                  "image_format's channel data type differs from the image's in "
                  "image_desc->mem_object, or its channel order is not compatible");
    size = source->size;
  }

  auto *mem = new _cl_mem;
  mem->context = OwnerRef(context);
  mem->type = type;
  mem->flags = effectiveFlags;
  mem->requestedFlags = flags;
  mem->size = size;
  mem->properties = std::move(propertyList);
  if (source) {
    mem->parent = OwnerRef(source);
    mem->storage = source->storage;
  } else if (flags & CL_MEM_USE_HOST_PTR) {
    mem->hostPointer = hostPointer;
    mem->storage = static_cast<char *>(hostPointer);
  } else {
    mem->storage = allocateStorage(size, device.svmAlignment());
    if (!mem->storage) {
      mem->release();
      return fail(CL_MEM_OBJECT_ALLOCATION_FAILURE,
                  "no memory for " + std::to_string(size) + " bytes");
    }
    mem->ownsStorage = true;
    if (flags & CL_MEM_COPY_HOST_PTR)
      std::memcpy(mem->storage, hostPointer, size);
  }

  auto image = std::make_unique<Image>();
  image->format = *format;
  image->info = supported;
  image->type = type;
  image->width = width;
  image->height = height;
  image->depth = depth;
  image->arraySize = layers;
  image->rowPitch = fromImage ? source->image->rowPitch : rowPitch;
  image->slicePitch = slicePitch;
  runtime::ImageDescriptor &d = image->descriptor;
  d.data = mem->storage;
  d.rowPitch = image->rowPitch;
  d.slicePitch = slicePitch ? slicePitch : image->rowPitch * height;
  d.width = static_cast<std::uint32_t>(width);
  d.height = static_cast<std::uint32_t>(height);
  d.depth = static_cast<std::uint32_t>(depth);
  d.arraySize = static_cast<std::uint32_t>(layers);
  // SPIR-V's Image Channel Order and Data Type are the API's values less
  // these bases (runtime/image.h).
  d.channelOrder = format->image_channel_order - CL_R;
  d.channelType = format->image_channel_data_type - CL_SNORM_INT8;
  d.elementBytes = static_cast<std::uint32_t>(elementBytes);
  d.dimensions = type == CL_MEM_OBJECT_IMAGE3D                                          ? 3
                 : type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? 2
                                                                                        : 1;
  d.array = isArray(type);
  d.readable = !(effectiveFlags & CL_MEM_WRITE_ONLY);
  d.writable = !(effectiveFlags & CL_MEM_READ_ONLY);
  mem->image = std::move(image);
  setError(errcodeReturn, CL_SUCCESS);
  return mem;
}

// The checks of an image given to an enqueue on `queue` (after the queue's).
cl_int validateImage(const char *entryPoint, const char *parameter, cl_command_queue queue,
                     cl_mem image) {
  const std::string name = std::string(entryPoint) + ": " + parameter;
  if (!imageOf(image))
    return fail(*queue->context, CL_INVALID_MEM_OBJECT,
                name + (isValid(image) ? " is a buffer, not an image" : " is not a valid image"));
  if (image->context.get() != queue->context.get())
    return fail(*queue->context, CL_INVALID_CONTEXT,
                name + " belongs to another context than the queue");
  return CL_SUCCESS;
}

// OpenCL 3.0, clEnqueueReadImage and every image command: origin and region
// in pixels; the coordinates the image type does not use are 0 in origin and
// 1 in region (for a 1D array, the second is the layer; for a 2D array, the
// third); no element of region is 0; the region lies inside the image.
cl_int validateRegion(const std::string &name, _cl_context &context, const Image &image,
                      const char *originName, const size_t *origin, const size_t *region) {
  if (!origin || !region)
    return fail(context, CL_INVALID_VALUE, name + ": " + originName + " or region is NULL");
  const int used = regionDimensions(image.type);
  const std::string kind = typeName(image.type);
  for (int d = 0; d < 3; ++d) {
    const std::string index = "[" + std::to_string(d) + "]";
    if (region[d] == 0)
      return fail(context, CL_INVALID_VALUE, name + ": region" + index + " is 0");
    if (d >= used && (origin[d] != 0 || region[d] != 1))
      return fail(context, CL_INVALID_VALUE,
                  name + ": " + originName + index + " must be 0 and region" + index + " 1 for a " +
                      kind);
    const size_t extent = d == 0 ? image.width : image.extent(d);
    if (origin[d] > extent || region[d] > extent - origin[d])
      return fail(context, CL_INVALID_VALUE,
                  name + ": " + originName + index + " " + std::to_string(origin[d]) + " + region" +
                      index + " " + std::to_string(region[d]) + " is past the " + kind + "'s " +
                      std::to_string(extent) +
                      (d == 0                                                ? " pixels wide"
                       : d == 1 && image.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? " layers"
                       : d == 2 && image.type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? " layers"
                       : d == 1                                              ? " rows"
                                                                             : " slices"));
  }
  return CL_SUCCESS;
}

// The host memory of clEnqueue{Read,Write}Image: row_pitch at least a row of
// the region (0: exactly that); slice_pitch 0 for 1D and 2D images, else at
// least the rows of a slice, or for a 1D array one row (0: exactly that).
cl_int hostLayout(const std::string &name, _cl_context &context, const Image &image,
                  const size_t *region, size_t rowPitch, size_t slicePitch, RectLayout &layout) {
  const size_t row = region[0] * image.elementBytes();
  if (rowPitch == 0)
    rowPitch = row;
  else if (rowPitch < row)
    return fail(context, CL_INVALID_VALUE,
                name + ": the row pitch " + std::to_string(rowPitch) + " is less than the " +
                    std::to_string(row) + " bytes of a row of the region");
  const bool layered = image.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                       image.type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                       image.type == CL_MEM_OBJECT_IMAGE3D;
  if (!layered) {
    if (slicePitch != 0)
      return fail(context, CL_INVALID_VALUE,
                  name + ": the slice pitch is not 0 for a " + typeName(image.type));
    layout = {{0, 0, 0}, rowPitch, rowPitch * region[1]};
    return CL_SUCCESS;
  }
  const size_t rows = image.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : region[1];
  if (slicePitch == 0)
    slicePitch = rowPitch * rows;
  else if (slicePitch < rowPitch * rows)
    return fail(context, CL_INVALID_VALUE,
                name + ": the slice pitch " + std::to_string(slicePitch) + " is less than " +
                    std::to_string(rowPitch * rows) + " (the row pitch x " + std::to_string(rows) +
                    " rows)");
  // The rows of a 1D array's region are its layers.
  if (image.type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
    layout = {{0, 0, 0}, slicePitch, slicePitch * region[1]};
  else
    layout = {{0, 0, 0}, rowPitch, slicePitch};
  return CL_SUCCESS;
}

std::array<size_t, 3> byteRegion(const Image &image, const size_t *region) {
  return {region[0] * image.elementBytes(), region[1], region[2]};
}

// Tightly packed bytes of a region, as clEnqueueCopyImageToBuffer and
// clEnqueueCopyBufferToImage lay it out in the buffer.
RectLayout packedLayout(const Image &image, size_t offset, const size_t *region) {
  const size_t row = region[0] * image.elementBytes();
  return {{offset, 0, 0}, row, row * region[1]};
}

bool boxesOverlap(const size_t *a, const size_t *b, const size_t *region) {
  for (int d = 0; d < 3; ++d)
    if (a[d] + region[d] <= b[d] || b[d] + region[d] <= a[d])
      return false;
  return true;
}

// What clEnqueueReadImage and clEnqueueWriteImage check, in the
// specification's order; `host` is the layout of the application's memory.
cl_int validateHostTransfer(const char *name, cl_command_queue queue, cl_mem mem,
                            const size_t *origin, const size_t *region, size_t rowPitch,
                            size_t slicePitch, const void *pointer, bool write, cl_uint numEvents,
                            const cl_event *events, RectLayout &host) {
  if (cl_int error = validateEnqueue(name, queue, numEvents, events); error != CL_SUCCESS)
    return error;
  if (cl_int error = validateImage(name, "image", queue, mem); error != CL_SUCCESS)
    return error;
  _cl_context &context = *queue->context;
  const Image &image = *mem->image;
  if (cl_int error = validateRegion(name, context, image, "origin", origin, region);
      error != CL_SUCCESS)
    return error;
  if (cl_int error = hostLayout(name, context, image, region, rowPitch, slicePitch, host);
      error != CL_SUCCESS)
    return error;
  if (!pointer)
    return fail(context, CL_INVALID_VALUE, std::string(name) + ": ptr is NULL");
  if (write ? !mem->hostCanWrite() : !mem->hostCanRead())
    return hostAccessDenied(name, mem, write ? "write" : "read");
  return CL_SUCCESS;
}

} // namespace

namespace lanewise::icd::api {

cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                              cl_mem_object_type type, cl_uint numEntries,
                                              cl_image_format *formats, cl_uint *numFormats) {
  if (!isValid(context))
    return CL_INVALID_CONTEXT;
  if (!validMemoryFlags(flags))
    return fail(*context, CL_INVALID_VALUE,
                "clGetSupportedImageFormats: flags has unknown bits or mutually exclusive flags");
  if (!isImageType(type))
    return fail(*context, CL_INVALID_VALUE,
                "clGetSupportedImageFormats: image_type is not an image type");
  if (numEntries == 0 && formats)
    return fail(*context, CL_INVALID_VALUE,
                "clGetSupportedImageFormats: num_entries is 0 and image_formats is not NULL");
  cl_uint count = 0;
  if (context->device->capabilities.images)
    for (const ImageFormat &format : supportedImageFormats()) {
      // OpenCL 3.0, Image Format Mapping: CL_MEM_KERNEL_READ_AND_WRITE asks
      // for the formats of read_write kernel arguments.
      if ((flags & CL_MEM_KERNEL_READ_AND_WRITE) && !format.kernelReadAndWrite)
        continue;
      if (formats && count < numEntries)
        formats[count] = {format.order, format.type};
      ++count;
    }
  if (numFormats)
    *numFormats = count;
  return CL_SUCCESS;
}

cl_mem CL_API_CALL clCreateImageWithProperties(cl_context context,
                                               const cl_mem_properties *properties,
                                               cl_mem_flags flags, const cl_image_format *format,
                                               const cl_image_desc *desc, void *hostPointer,
                                               cl_int *errcodeReturn) {
  return createImage({"clCreateImageWithProperties"}, context, properties, flags, format, desc,
                     hostPointer, errcodeReturn);
}

cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags flags,
                                 const cl_image_format *format, const cl_image_desc *desc,
                                 void *hostPointer, cl_int *errcodeReturn) {
  return createImage({"clCreateImage"}, context, nullptr, flags, format, desc, hostPointer,
                     errcodeReturn);
}

// OpenCL 1.1's entry points, deprecated by 1.2, as clCreateImage with the
// descriptor their arguments make.
cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags flags,
                                   const cl_image_format *format, size_t width, size_t height,
                                   size_t rowPitch, void *hostPointer, cl_int *errcodeReturn) {
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = width;
  desc.image_height = height;
  desc.image_row_pitch = rowPitch;
  return createImage({"clCreateImage2D", true}, context, nullptr, flags, format, &desc, hostPointer,
                     errcodeReturn);
}

cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags flags,
                                   const cl_image_format *format, size_t width, size_t height,
                                   size_t depth, size_t rowPitch, size_t slicePitch,
                                   void *hostPointer, cl_int *errcodeReturn) {
  // OpenCL 3.0, clCreateImage3D: image_depth must be greater than 1.
  if (isValid(context) && depth <= 1) {
    setError(errcodeReturn, fail(*context, CL_INVALID_IMAGE_SIZE,
                                 "clCreateImage3D: image_depth " + std::to_string(depth) +
                                     " is not greater than 1"));
    return nullptr;
  }
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE3D;
  desc.image_width = width;
  desc.image_height = height;
  desc.image_depth = depth;
  desc.image_row_pitch = rowPitch;
  desc.image_slice_pitch = slicePitch;
  return createImage({"clCreateImage3D", true}, context, nullptr, flags, format, &desc, hostPointer,
                     errcodeReturn);
}

cl_int CL_API_CALL clGetImageInfo(cl_mem mem, cl_image_info param, size_t size, void *value,
                                  size_t *sizeReturn) {
  const Image *image = imageOf(mem);
  if (!image)
    return CL_INVALID_MEM_OBJECT;
  InfoResult result(size, value, sizeReturn);
  const cl_mem_object_type type = image->type;
  switch (param) {
  case CL_IMAGE_FORMAT:
    return result(image->format);
  case CL_IMAGE_ELEMENT_SIZE:
    return result(image->elementBytes());
  case CL_IMAGE_ROW_PITCH:
    return result(image->rowPitch);
  case CL_IMAGE_SLICE_PITCH:
    return result(image->slicePitch);
  case CL_IMAGE_WIDTH:
    return result(image->width);
  // OpenCL 3.0, clGetImageInfo: 0 for the dimensions the type does not have.
  case CL_IMAGE_HEIGHT:
    return result(hasHeight(type) ? image->height : size_t{0});
  case CL_IMAGE_DEPTH:
    return result(type == CL_MEM_OBJECT_IMAGE3D ? image->depth : size_t{0});
  case CL_IMAGE_ARRAY_SIZE:
    return result(isArray(type) ? image->arraySize : size_t{0});
  case CL_IMAGE_BUFFER:
    return result(mem->parent && !mem->parent->isImage() ? static_cast<cl_mem>(mem->parent.get())
                                                         : cl_mem{nullptr});
  case CL_IMAGE_NUM_MIP_LEVELS:
  case CL_IMAGE_NUM_SAMPLES:
    return result(cl_uint{0});
  default:
    return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue queue, cl_mem mem, cl_bool blocking,
                                      const size_t *origin, const size_t *region, size_t rowPitch,
                                      size_t slicePitch, void *pointer, cl_uint numEvents,
                                      const cl_event *events, cl_event *event) {
  RectLayout to;
  if (cl_int error =
          validateHostTransfer("clEnqueueReadImage", queue, mem, origin, region, rowPitch,
                               slicePitch, pointer, false, numEvents, events, to);
      error != CL_SUCCESS)
    return error;
  const Image &image = *mem->image;
  return queue->enqueue(
      CL_COMMAND_READ_IMAGE, waitListSpan(numEvents, events),
      [source = OwnerRef(mem), from = image.layout(origin), to, extent = byteRegion(image, region),
       pointer] {
        copyRect(static_cast<char *>(pointer), to, source->storage, from, extent.data());
        return CL_SUCCESS;
      },
      event, blocking);
}

cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue queue, cl_mem mem, cl_bool blocking,
                                       const size_t *origin, const size_t *region, size_t rowPitch,
                                       size_t slicePitch, const void *pointer, cl_uint numEvents,
                                       const cl_event *events, cl_event *event) {
  RectLayout from;
  if (cl_int error =
          validateHostTransfer("clEnqueueWriteImage", queue, mem, origin, region, rowPitch,
                               slicePitch, pointer, true, numEvents, events, from);
      error != CL_SUCCESS)
    return error;
  const Image &image = *mem->image;
  return queue->enqueue(
      CL_COMMAND_WRITE_IMAGE, waitListSpan(numEvents, events),
      [destination = OwnerRef(mem), to = image.layout(origin), from,
       extent = byteRegion(image, region), pointer] {
        copyRect(destination->storage, to, static_cast<const char *>(pointer), from, extent.data());
        return CL_SUCCESS;
      },
      event, blocking);
}

cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue queue, cl_mem source, cl_mem destination,
                                      const size_t *sourceOrigin, const size_t *destinationOrigin,
                                      const size_t *region, cl_uint numEvents,
                                      const cl_event *events, cl_event *event) {
  constexpr const char *name = "clEnqueueCopyImage";
  if (cl_int error = validateEnqueue(name, queue, numEvents, events); error != CL_SUCCESS)
    return error;
  if (cl_int error = validateImage(name, "src_image", queue, source); error != CL_SUCCESS)
    return error;
  if (cl_int error = validateImage(name, "dst_image", queue, destination); error != CL_SUCCESS)
    return error;
  _cl_context &context = *queue->context;
  const Image &from = *source->image, &to = *destination->image;
  // OpenCL 3.0, clEnqueueCopyImage: both images have the same format.
  if (from.format.image_channel_order != to.format.image_channel_order ||
      from.format.image_channel_data_type != to.format.image_channel_data_type)
    return fail(context, CL_IMAGE_FORMAT_MISMATCH,
                std::string(name) + ": src_image and dst_image have different image formats");
  if (cl_int error = validateRegion(name, context, from, "src_origin", sourceOrigin, region);
      error != CL_SUCCESS)
    return error;
  if (cl_int error = validateRegion(name, context, to, "dst_origin", destinationOrigin, region);
      error != CL_SUCCESS)
    return error;
  // One data store seen by both (the same image, or views of one image).
  if (source->storage == destination->storage && from.rowPitch == to.rowPitch &&
      from.slicePitch == to.slicePitch && from.type == to.type &&
      boxesOverlap(sourceOrigin, destinationOrigin, region))
    return fail(context, CL_MEM_COPY_OVERLAP,
                std::string(name) + ": the source and destination regions overlap");
  return queue->enqueue(
      CL_COMMAND_COPY_IMAGE, waitListSpan(numEvents, events),
      [src = OwnerRef(source), dst = OwnerRef(destination), fromLayout = from.layout(sourceOrigin),
       toLayout = to.layout(destinationOrigin), extent = byteRegion(from, region)] {
        copyRect(dst->storage, toLayout, src->storage, fromLayout, extent.data());
        return CL_SUCCESS;
      },
      event);
}

namespace {

// The checks shared by clEnqueueCopyImageToBuffer and
// clEnqueueCopyBufferToImage: the buffer range the region fills, tightly
// packed, lies in the buffer, and the image is not a view of the buffer.
cl_int validateImageBufferCopy(const char *name, cl_command_queue queue, cl_mem image,
                               const char *imageName, cl_mem buffer, const char *bufferName,
                               const size_t *origin, const char *originName, const size_t *region,
                               size_t offset) {
  if (cl_int error = validateImage(name, imageName, queue, image); error != CL_SUCCESS)
    return error;
  if (cl_int error = validateBuffer(name, bufferName, queue, buffer); error != CL_SUCCESS)
    return error;
  _cl_context &context = *queue->context;
  if (image->type == CL_MEM_OBJECT_IMAGE1D_BUFFER && image->parent.get() == buffer)
    return fail(context, CL_INVALID_MEM_OBJECT,
                std::string(name) + ": " + imageName + " is a 1D image buffer made from " +
                    bufferName);
  if (cl_int error = validateRegion(name, context, *image->image, originName, origin, region);
      error != CL_SUCCESS)
    return error;
  const size_t bytes = region[0] * region[1] * region[2] * image->image->elementBytes();
  if (offset > buffer->size || bytes > buffer->size - offset)
    return fail(context, CL_INVALID_VALUE,
                std::string(name) + ": the region's " + std::to_string(bytes) +
                    " bytes at offset " + std::to_string(offset) + " are past the end of the " +
                    std::to_string(buffer->size) + "-byte " + buffer->kindName());
  return CL_SUCCESS;
}

} // namespace

cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue queue, cl_mem source,
                                              cl_mem destination, const size_t *sourceOrigin,
                                              const size_t *region, size_t destinationOffset,
                                              cl_uint numEvents, const cl_event *events,
                                              cl_event *event) {
  constexpr const char *name = "clEnqueueCopyImageToBuffer";
  if (cl_int error = validateEnqueue(name, queue, numEvents, events); error != CL_SUCCESS)
    return error;
  if (cl_int error =
          validateImageBufferCopy(name, queue, source, "src_image", destination, "dst_buffer",
                                  sourceOrigin, "src_origin", region, destinationOffset);
      error != CL_SUCCESS)
    return error;
  const Image &image = *source->image;
  return queue->enqueue(
      CL_COMMAND_COPY_IMAGE_TO_BUFFER, waitListSpan(numEvents, events),
      [src = OwnerRef(source), dst = OwnerRef(destination), from = image.layout(sourceOrigin),
       to = packedLayout(image, destinationOffset, region), extent = byteRegion(image, region)] {
        copyRect(dst->storage, to, src->storage, from, extent.data());
        return CL_SUCCESS;
      },
      event);
}

cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue queue, cl_mem source,
                                              cl_mem destination, size_t sourceOffset,
                                              const size_t *destinationOrigin, const size_t *region,
                                              cl_uint numEvents, const cl_event *events,
                                              cl_event *event) {
  constexpr const char *name = "clEnqueueCopyBufferToImage";
  if (cl_int error = validateEnqueue(name, queue, numEvents, events); error != CL_SUCCESS)
    return error;
  if (cl_int error =
          validateImageBufferCopy(name, queue, destination, "dst_image", source, "src_buffer",
                                  destinationOrigin, "dst_origin", region, sourceOffset);
      error != CL_SUCCESS)
    return error;
  const Image &image = *destination->image;
  return queue->enqueue(
      CL_COMMAND_COPY_BUFFER_TO_IMAGE, waitListSpan(numEvents, events),
      [src = OwnerRef(source), dst = OwnerRef(destination),
       from = packedLayout(image, sourceOffset, region), to = image.layout(destinationOrigin),
       extent = byteRegion(image, region)] {
        copyRect(dst->storage, to, src->storage, from, extent.data());
        return CL_SUCCESS;
      },
      event);
}

void *CL_API_CALL clEnqueueMapImage(cl_command_queue queue, cl_mem mem, cl_bool blocking,
                                    cl_map_flags flags, const size_t *origin, const size_t *region,
                                    size_t *rowPitch, size_t *slicePitch, cl_uint numEvents,
                                    const cl_event *events, cl_event *event,
                                    cl_int *errcodeReturn) {
  auto failed = [&](cl_int error) -> void * {
    setError(errcodeReturn, error);
    return nullptr;
  };
  constexpr const char *name = "clEnqueueMapImage";
  if (cl_int error = validateEnqueue(name, queue, numEvents, events); error != CL_SUCCESS)
    return failed(error);
  if (cl_int error = validateImage(name, "image", queue, mem); error != CL_SUCCESS)
    return failed(error);
  _cl_context &context = *queue->context;
  const Image &image = *mem->image;
  if (cl_int error = validateMapFlags(name, context, flags); error != CL_SUCCESS)
    return failed(error);
  if (cl_int error = validateRegion(name, context, image, "origin", origin, region);
      error != CL_SUCCESS)
    return failed(error);
  if (!rowPitch)
    return failed(fail(context, CL_INVALID_VALUE, "clEnqueueMapImage: image_row_pitch is NULL"));
  const bool layered = image.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                       image.type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                       image.type == CL_MEM_OBJECT_IMAGE3D;
  if (layered && !slicePitch)
    return failed(fail(context, CL_INVALID_VALUE,
                       std::string("clEnqueueMapImage: image_slice_pitch is NULL for a ") +
                           typeName(image.type)));
  if ((flags & CL_MAP_READ) && !mem->hostCanRead())
    return failed(hostAccessDenied(name, mem, "read"));
  if ((flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) && !mem->hostCanWrite())
    return failed(hostAccessDenied(name, mem, "write"));
  // Device memory is host memory: the mapped region is the image's own
  // storage, at its own pitches (derived from host_ptr for
  // CL_MEM_USE_HOST_PTR, as the spec requires).
  void *mapped = mem->storage + image.layout(origin).offsetOf(0, 0, 0);
  mem->addMapping(mapped);
  cl_int error = queue->enqueue(
      CL_COMMAND_MAP_IMAGE, waitListSpan(numEvents, events),
      [hold = OwnerRef(mem)] { return CL_SUCCESS; }, event, blocking);
  if (error != CL_SUCCESS) {
    mem->removeMapping(mapped);
    return failed(error);
  }
  *rowPitch = image.rowPitch;
  if (slicePitch)
    *slicePitch = layered ? image.slicePitch : 0;
  setError(errcodeReturn, CL_SUCCESS);
  return mapped;
}

cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue queue, cl_mem mem, const void *color,
                                      const size_t *origin, const size_t *region, cl_uint numEvents,
                                      const cl_event *events, cl_event *event) {
  constexpr const char *name = "clEnqueueFillImage";
  if (cl_int error = validateEnqueue(name, queue, numEvents, events); error != CL_SUCCESS)
    return error;
  if (cl_int error = validateImage(name, "image", queue, mem); error != CL_SUCCESS)
    return error;
  _cl_context &context = *queue->context;
  const Image &image = *mem->image;
  if (!color)
    return fail(context, CL_INVALID_VALUE, std::string(name) + ": fill_color is NULL");
  if (cl_int error = validateRegion(name, context, image, "origin", origin, region);
      error != CL_SUCCESS)
    return error;
  // The texel is encoded now: the application may reuse fill_color on return.
  std::array<char, 16> texel{};
  runtime::encodeTexel(image.descriptor, color, texel.data());
  return queue->enqueue(
      CL_COMMAND_FILL_IMAGE, waitListSpan(numEvents, events),
      [target = OwnerRef(mem), to = image.layout(origin), extent = byteRegion(image, region), texel,
       elementBytes = image.elementBytes()] {
        for (size_t z = 0; z < extent[2]; ++z)
          for (size_t y = 0; y < extent[1]; ++y) {
            char *row = target->storage + to.offsetOf(0, y, z);
            for (size_t x = 0; x < extent[0]; x += elementBytes)
              std::memcpy(row + x, texel.data(), elementBytes);
          }
        return CL_SUCCESS;
      },
      event);
}

} // namespace lanewise::icd::api
