// SPDX-License-Identifier: Apache-2.0
// Image objects (OpenCL 3.0 API, 5.3). An image is a memory object
// (icd/memory.h) whose storage holds its texels row by row, slice by slice
// or layer by layer, at the pitches clGetImageInfo reports; a kernel sees it
// through its runtime::ImageDescriptor (runtime/image.h).
#pragma once

#include "icd/memory.h"
#include "runtime/image.h"

#include <span>

namespace lanewise::icd {

// A (channel order, channel data type) pair the device supports, and the
// bytes of one texel. One table serves clGetSupportedImageFormats and image
// creation.
struct ImageFormat {
  cl_channel_order order;
  cl_channel_type type;
  size_t elementBytes;
  // In the list for CL_MEM_KERNEL_READ_AND_WRITE (read_write kernel
  // arguments): every format but the sRGB ones.
  bool kernelReadAndWrite;
};

std::span<const ImageFormat> supportedImageFormats();
// The supported format `format` names, or NULL.
const ImageFormat *findImageFormat(const cl_image_format &format);

// What an image adds to a memory object.
struct Image {
  cl_image_format format{};
  const ImageFormat *info = nullptr;
  cl_mem_object_type type = CL_MEM_OBJECT_IMAGE2D;
  size_t width = 1, height = 1, depth = 1, arraySize = 1; // 1 where unused
  size_t rowPitch = 0;   // bytes; CL_IMAGE_ROW_PITCH
  size_t slicePitch = 0; // bytes from a slice or layer to the next; 0 for 1D and 2D images
  runtime::ImageDescriptor descriptor; // what kernels see; its address is the argument

  size_t elementBytes() const { return info->elementBytes; }
  // The extent of the second and third region coordinates: rows or layers,
  // slices or layers.
  size_t extent(int dimension) const;
  // The byte layout of a region at `origin` in the image's storage: rows of
  // a 1D array are its layers.
  RectLayout layout(const size_t *origin) const;
};

// The image `mem` is, or NULL for buffers and invalid handles.
const Image *imageOf(cl_mem mem);

} // namespace lanewise::icd
