// SPDX-License-Identifier: Apache-2.0
// Memory objects: buffers and sub-buffers (OpenCL 3.0 API, 5.2), and what
// images (5.3, icd/image.h) share with them. Device memory is host memory: a
// memory object's storage is an aligned host allocation, the application's
// own memory for CL_MEM_USE_HOST_PTR, or the storage of the buffer or image
// it was created from.
#pragma once

#include "icd/context.h"
#include "runtime/check.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace lanewise::icd {
// Memory of released buffers and freed SVM allocations, the most recent
// first (a bounded list): the checked mode names accesses to it.
void noteReleasedMemory(const void *start, size_t size, const std::string &what);
std::vector<runtime::MemoryRange> releasedMemory();

struct Image; // icd/image.h
} // namespace lanewise::icd

struct _cl_mem : lanewise::icd::Object<_cl_mem, lanewise::icd::ObjectKind::Mem> {
  using Destructor = void(CL_CALLBACK *)(cl_mem, void *);

  _cl_mem();
  ~_cl_mem();

  lanewise::icd::OwnerRef<_cl_context> context;
  // The memory object this one was created from (CL_MEM_ASSOCIATED_MEMOBJECT):
  // the buffer of a sub-buffer, the buffer or image of an image created from one.
  lanewise::icd::OwnerRef<_cl_mem> parent;
  cl_mem_object_type type = CL_MEM_OBJECT_BUFFER;
  std::unique_ptr<lanewise::icd::Image> image; // set for images
  cl_mem_flags flags = 0;                  // as effective, access flag included
  cl_mem_flags requestedFlags = 0;         // as given, for CL_MEM_FLAGS
  size_t size = 0;
  size_t offset = 0;                       // in the parent, for sub-buffers
  void *hostPointer = nullptr;             // CL_MEM_HOST_PTR
  char *storage = nullptr;                 // the bytes, host-addressable
  bool ownsStorage = false;
  bool usesSvmPointer = false;
  std::vector<cl_mem_properties> properties;

  bool hostCanRead() const { return !(flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)); }
  bool hostCanWrite() const { return !(flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)); }
  bool isImage() const { return image != nullptr; }
  // "buffer", "sub-buffer" or "image", for messages.
  const char *kindName() const;

  void addDestructorCallback(Destructor callback, void *data);
  void addMapping(void *pointer);
  bool removeMapping(void *pointer);
  cl_uint mapCount() const;

private:
  mutable std::mutex mutex_;
  std::vector<std::pair<Destructor, void *>> destructors_;
  std::vector<void *> mappings_;
};

namespace lanewise::icd {

inline constexpr cl_mem_flags accessFlags =
    CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
inline constexpr cl_mem_flags hostPointerFlags =
    CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
inline constexpr cl_mem_flags hostAccessFlags =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;

// OpenCL 3.0, Memory Flags table: known bits, at most one device access
// flag and one host access flag, CL_MEM_USE_HOST_PTR alone among the host
// pointer flags.
bool validMemoryFlags(cl_mem_flags flags);

// A memory object created from another (a sub-buffer, an image from a buffer
// or image) takes the access flags it does not give from its parent, and may
// not widen them (OpenCL 3.0, clCreateSubBuffer and clCreateImage).
bool widensParentAccess(cl_mem_flags flags, cl_mem_flags parentFlags);
cl_mem_flags inheritFlags(cl_mem_flags flags, cl_mem_flags parentFlags);

// Host memory for a memory object's storage, zeroed by nobody; NULL when
// there is none.
char *allocateStorage(size_t size, size_t alignment);

bool isBuffer(cl_mem mem);

// The checks of a buffer given to an enqueue on `queue` (after the queue's):
// CL_INVALID_MEM_OBJECT, CL_INVALID_CONTEXT, reported as `entryPoint`'s.
cl_int validateBuffer(const char *entryPoint, const char *parameter, cl_command_queue queue,
                      cl_mem buffer);

// The same checks for any memory object, buffer or image.
cl_int validateMemObject(const char *entryPoint, const char *parameter, cl_command_queue queue,
                         cl_mem mem);

// CL_INVALID_OPERATION for a host access the memory object's flags forbid.
cl_int hostAccessDenied(const char *entryPoint, const _cl_mem *mem, const char *access);
// The map_flags of clEnqueueMapBuffer, clEnqueueMapImage and clEnqueueSVMMap:
// CL_INVALID_VALUE, with a message naming the entry point, for unknown bits
// or CL_MAP_WRITE_INVALIDATE_REGION with CL_MAP_READ or CL_MAP_WRITE.
cl_int validateMapFlags(const char *entryPoint, _cl_context &context, cl_map_flags flags);

// A rectangular region of a memory object or of host memory (OpenCL 3.0,
// clEnqueueReadBufferRect): the origin's x in bytes, y and z in rows and
// slices.
struct RectLayout {
  size_t origin[3];
  size_t rowPitch;
  size_t slicePitch;

  size_t offsetOf(size_t x, size_t y, size_t z) const {
    return (origin[2] + z) * slicePitch + (origin[1] + y) * rowPitch + origin[0] + x;
  }
};

// Copies `region` (bytes, rows, slices) between two layouts.
void copyRect(char *destination, const RectLayout &to, const char *source, const RectLayout &from,
              const size_t *region);

// Whether two byte ranges of host memory intersect.
bool overlaps(const char *a, size_t aSize, const char *b, size_t bSize);

} // namespace lanewise::icd
