// SPDX-License-Identifier: Apache-2.0
#include "icd/memory.h"

#include "icd/api.h"
#include "icd/image.h"
#include "icd/queue.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <deque>

#include <sys/mman.h>

using namespace lanewise::icd;

namespace lanewise::icd {

namespace {
std::mutex releasedMutex;
std::deque<runtime::MemoryRange> released; // the most recent first
constexpr size_t releasedKept = 256;
} // namespace

void noteReleasedMemory(const void *start, size_t size, const std::string &what) {
  std::lock_guard lock(releasedMutex);
  released.push_front({reinterpret_cast<std::uint64_t>(start), size,
                       runtime::CheckSite::Space::Global, what, true});
  if (released.size() > releasedKept)
    released.pop_back();
}

std::vector<runtime::MemoryRange> releasedMemory() {
  std::lock_guard lock(releasedMutex);
  return {released.begin(), released.end()};
}

} // namespace lanewise::icd

_cl_mem::_cl_mem() = default;

_cl_mem::~_cl_mem() {
  if (ownsStorage) {
    lanewise::icd::noteReleasedMemory(storage, size, std::string("a released ") + kindName());
    std::free(storage);
  }
  // After the storage is gone, so that the application may reuse the memory
  // it handed over; in reverse order of registration (OpenCL 3.0,
  // clSetMemObjectDestructorCallback).
  for (auto it = destructors_.rbegin(); it != destructors_.rend(); ++it)
    it->first(this, it->second);
}

void _cl_mem::addDestructorCallback(Destructor callback, void *data) {
  std::lock_guard lock(mutex_);
  destructors_.emplace_back(callback, data);
}

void _cl_mem::addMapping(void *pointer) {
  std::lock_guard lock(mutex_);
  mappings_.push_back(pointer);
}

bool _cl_mem::removeMapping(void *pointer) {
  std::lock_guard lock(mutex_);
  auto it = std::find(mappings_.begin(), mappings_.end(), pointer);
  if (it == mappings_.end())
    return false;
  mappings_.erase(it);
  return true;
}

cl_uint _cl_mem::mapCount() const {
  std::lock_guard lock(mutex_);
  return static_cast<cl_uint>(mappings_.size());
}

const char *_cl_mem::kindName() const { return image ? "image" : parent ? "sub-buffer" : "buffer"; }

namespace lanewise::icd {

namespace {
constexpr cl_mem_flags memoryFlags =
    accessFlags | hostPointerFlags | hostAccessFlags | CL_MEM_KERNEL_READ_AND_WRITE;

bool atMostOne(cl_mem_flags flags) { return std::popcount(flags) <= 1; }
} // namespace

bool validMemoryFlags(cl_mem_flags flags) {
  if (flags & ~memoryFlags)
    return false;
  if (!atMostOne(flags & accessFlags) || !atMostOne(flags & hostAccessFlags))
    return false;
  if ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
    return false;
  return true;
}

bool widensParentAccess(cl_mem_flags flags, cl_mem_flags parentFlags) {
  return ((parentFlags & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
         ((parentFlags & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
         ((parentFlags & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)) ||
         ((parentFlags & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)) ||
         ((parentFlags & CL_MEM_HOST_NO_ACCESS) &&
          (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)));
}

cl_mem_flags inheritFlags(cl_mem_flags flags, cl_mem_flags parentFlags) {
  return (flags & accessFlags ? flags & accessFlags : parentFlags & accessFlags) |
         (flags & hostAccessFlags ? flags & hostAccessFlags : parentFlags & hostAccessFlags) |
         (parentFlags & hostPointerFlags);
}

char *allocateStorage(size_t size, size_t alignment) {
  // Large buffers on transparent huge pages, when the system offers them:
  // fewer page faults on first touch and fewer TLB misses in kernels.
  constexpr size_t hugePage = 2 << 20;
  if (size >= hugePage) {
    const size_t rounded = (size + hugePage - 1) / hugePage * hugePage;
    if (void *memory = std::aligned_alloc(hugePage, rounded)) {
      madvise(memory, rounded, MADV_HUGEPAGE);
      return static_cast<char *>(memory);
    }
  }
  size_t rounded = (size + alignment - 1) / alignment * alignment;
  return static_cast<char *>(std::aligned_alloc(alignment, rounded));
}

bool isBuffer(cl_mem mem) { return isValid(mem) && !mem->isImage(); }

bool overlaps(const char *a, size_t aSize, const char *b, size_t bSize) {
  return a < b + bSize && b < a + aSize;
}

cl_int validateBuffer(const char *entryPoint, const char *parameter, cl_command_queue queue,
                      cl_mem buffer) {
  const std::string name = std::string(entryPoint) + ": " + parameter;
  if (!isBuffer(buffer))
    return fail(*queue->context, CL_INVALID_MEM_OBJECT,
                name + (isValid(buffer) ? " is an image, not a buffer" : " is not a valid buffer"));
  if (buffer->context.get() != queue->context.get())
    return fail(*queue->context, CL_INVALID_CONTEXT,
                name + " belongs to another context than the queue");
  return CL_SUCCESS;
}

cl_int validateMemObject(const char *entryPoint, const char *parameter, cl_command_queue queue,
                         cl_mem mem) {
  const std::string name = std::string(entryPoint) + ": " + parameter;
  if (!isValid(mem))
    return fail(*queue->context, CL_INVALID_MEM_OBJECT, name + " is not a valid memory object");
  if (mem->context.get() != queue->context.get())
    return fail(*queue->context, CL_INVALID_CONTEXT,
                name + " belongs to another context than the queue");
  return CL_SUCCESS;
}

cl_int validateMapFlags(const char *entryPoint, _cl_context &context, cl_map_flags flags) {
  constexpr cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
  if (flags & ~known)
    return fail(context, CL_INVALID_VALUE,
                std::string(entryPoint) + ": map_flags has unknown bits");
  if ((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE)))
    return fail(context, CL_INVALID_VALUE,
                std::string(entryPoint) +
                    ": map_flags combines CL_MAP_WRITE_INVALIDATE_REGION with CL_MAP_READ or "
                    "CL_MAP_WRITE");
  return CL_SUCCESS;
}

cl_int hostAccessDenied(const char *entryPoint, const _cl_mem *mem, const char *access) {
  return fail(*mem->context, CL_INVALID_OPERATION,
              std::string(entryPoint) + ": the " + mem->kindName() + " was created with " +
                  (mem->flags & CL_MEM_HOST_NO_ACCESS   ? "CL_MEM_HOST_NO_ACCESS"
                   : mem->flags & CL_MEM_HOST_READ_ONLY ? "CL_MEM_HOST_READ_ONLY"
                                                        : "CL_MEM_HOST_WRITE_ONLY") +
                  ", which forbids the host to " + access + " it");
}

void copyRect(char *destination, const RectLayout &to, const char *source, const RectLayout &from,
              const size_t *region) {
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y)
      std::memmove(destination + to.offsetOf(0, y, z), source + from.offsetOf(0, y, z), region[0]);
}

} // namespace lanewise::icd

namespace {

bool inRange(const _cl_mem *mem, size_t offset, size_t size) {
  return offset <= mem->size && size <= mem->size - offset;
}

// The range [offset, offset + size) of a buffer, for messages.
std::string rangeText(size_t offset, size_t size, const _cl_mem *buffer) {
  return "offset " + std::to_string(offset) + " + size " + std::to_string(size) +
         " is past the end of the " + std::to_string(buffer->size) + "-byte " +
         (buffer->parent ? "sub-buffer" : "buffer");
}

// The checks shared by clEnqueue{Read,Write}Buffer.
cl_int validateTransfer(const char *entryPoint, cl_command_queue queue, cl_mem buffer,
                        size_t offset, size_t size, const void *pointer, cl_uint numEvents,
                        const cl_event *events) {
  if (cl_int error = validateEnqueue(entryPoint, queue, numEvents, events); error != CL_SUCCESS)
    return error;
  if (cl_int error = validateBuffer(entryPoint, "buffer", queue, buffer); error != CL_SUCCESS)
    return error;
  const std::string name = entryPoint;
  if (!pointer)
    return fail(*queue->context, CL_INVALID_VALUE, name + ": ptr is NULL");
  if (size == 0)
    return fail(*queue->context, CL_INVALID_VALUE, name + ": size is 0");
  if (!inRange(buffer, offset, size))
    return fail(*queue->context, CL_INVALID_VALUE, name + ": " + rangeText(offset, size, buffer));
  return CL_SUCCESS;
}

// Pitches of 0 mean tightly packed.
cl_int makeRectLayout(const size_t *origin, const size_t *region, size_t rowPitch,
                      size_t slicePitch, RectLayout &layout) {
  if (rowPitch == 0)
    rowPitch = region[0];
  else if (rowPitch < region[0])
    return CL_INVALID_VALUE;
  if (slicePitch == 0)
    slicePitch = region[1] * rowPitch;
  else if (slicePitch < region[1] * rowPitch || slicePitch % rowPitch != 0)
    return CL_INVALID_VALUE;
  layout = {{origin[0], origin[1], origin[2]}, rowPitch, slicePitch};
  return CL_SUCCESS;
}

// One past the last byte of the region in this layout.
size_t rectEnd(const RectLayout &layout, const size_t *region) {
  return layout.offsetOf(region[0], region[1] - 1, region[2] - 1);
}

// The OpenCL specification's reference test for overlapping rectangular
// copies within one buffer (OpenCL 3.0, appendix "Checking for Memory Copy
// Overlap"); both rectangles share the pitches.
bool rectCopyOverlaps(const size_t *srcOrigin, const size_t *dstOrigin, const size_t *region,
                      size_t rowPitch, size_t slicePitch) {
  const size_t sliceSize = (region[1] - 1) * rowPitch + region[0];
  const size_t blockSize = (region[2] - 1) * slicePitch + sliceSize;
  const size_t srcStart = srcOrigin[2] * slicePitch + srcOrigin[1] * rowPitch + srcOrigin[0];
  const size_t srcEnd = srcStart + blockSize;
  const size_t dstStart = dstOrigin[2] * slicePitch + dstOrigin[1] * rowPitch + dstOrigin[0];
  const size_t dstEnd = dstStart + blockSize;
  if (dstEnd <= srcStart || srcEnd <= dstStart)
    return false;
  const size_t srcDx = srcOrigin[0] % rowPitch, dstDx = dstOrigin[0] % rowPitch;
  if ((dstDx >= srcDx + region[0] && dstDx + region[0] <= srcDx + rowPitch) ||
      (srcDx >= dstDx + region[0] && srcDx + region[0] <= dstDx + rowPitch))
    return false;
  const size_t srcDy = (srcOrigin[1] * rowPitch + srcOrigin[0]) % slicePitch;
  const size_t dstDy = (dstOrigin[1] * rowPitch + dstOrigin[0]) % slicePitch;
  if ((dstDy >= srcDy + sliceSize && dstDy + sliceSize <= srcDy + slicePitch) ||
      (srcDy >= dstDy + sliceSize && srcDy + sliceSize <= dstDy + slicePitch))
    return false;
  return true;
}

bool validFillPattern(const void *pattern, size_t patternSize) {
  return pattern && patternSize > 0 && patternSize <= 128 && std::has_single_bit(patternSize);
}

// Fills `size` bytes, a multiple of the pattern's size, with copies of the
// pattern: a pattern of one repeated byte is a memset; any other is written
// once and doubled in place up to a block that stays in the cache, which is
// then copied until the end. Large copies, not one per element: a fill runs
// at the memory's speed.
void fillPattern(char *destination, size_t size, const std::vector<char> &pattern) {
  if (size == 0)
    return;
  if (std::all_of(pattern.begin(), pattern.end(), [&](char c) { return c == pattern[0]; })) {
    std::memset(destination, pattern[0], size);
    return;
  }
  constexpr size_t block = 64 * 1024;
  std::memcpy(destination, pattern.data(), pattern.size());
  size_t filled = pattern.size(); // always a multiple of the pattern's size
  while (filled < size) {
    const size_t count = std::min({filled, block, size - filled});
    std::memcpy(destination + filled, destination, count);
    filled += count;
  }
}

// clCreateBuffer and clCreateBufferWithProperties, which `entryPoint` names.
cl_mem createBuffer(const char *entryPoint, cl_context context, const cl_mem_properties *properties,
                    cl_mem_flags flags, size_t size, void *hostPointer, cl_int *errcodeReturn) {
  // The failures after the context's check are reported to it.
  auto fail = [&](cl_int error, const std::string &problem = {}) -> cl_mem {
    if (!problem.empty())
      lanewise::icd::fail(*context, error, std::string(entryPoint) + ": " + problem);
    setError(errcodeReturn, error);
    return nullptr;
  };
  if (!isValid(context))
    return fail(CL_INVALID_CONTEXT);
  // OpenCL 3.0 defines no buffer property; only the empty list is valid.
  std::vector<cl_mem_properties> propertyList;
  if (properties) {
    if (properties[0] != 0)
      return fail(CL_INVALID_PROPERTY, "properties names an unknown property");
    propertyList.push_back(0);
  }
  if (!validMemoryFlags(flags))
    return fail(CL_INVALID_VALUE, "flags has unknown bits or mutually exclusive flags");
  if (size == 0)
    return fail(CL_INVALID_BUFFER_SIZE, "size is 0");
  if (size > context->device->maxAllocSize)
    return fail(CL_INVALID_BUFFER_SIZE, "size " + std::to_string(size) +
                                            " is above CL_DEVICE_MAX_MEM_ALLOC_SIZE " +
                                            std::to_string(context->device->maxAllocSize));
  const bool needsHostPointer = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  if (needsHostPointer && !hostPointer)
    return fail(CL_INVALID_HOST_PTR,
                "host_ptr is NULL with CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR");
  if (!needsHostPointer && hostPointer)
    return fail(CL_INVALID_HOST_PTR,
                "host_ptr is not NULL without CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR");
  // A buffer on an SVM allocation must fit in it (OpenCL 3.0, clCreateBuffer).
  if (flags & CL_MEM_USE_HOST_PTR) {
    auto [start, length] = context->findSvmAllocation(hostPointer);
    if (start && static_cast<char *>(hostPointer) + size > static_cast<char *>(start) + length)
      return fail(CL_INVALID_BUFFER_SIZE,
                  "host_ptr + size is past the end of the SVM allocation host_ptr is in");
  }

  auto *buffer = new _cl_mem;
  buffer->context = OwnerRef(context);
  buffer->flags = (flags & accessFlags) ? flags : flags | CL_MEM_READ_WRITE;
  buffer->requestedFlags = flags;
  buffer->size = size;
  buffer->properties = std::move(propertyList);
  if (flags & CL_MEM_USE_HOST_PTR) {
    buffer->hostPointer = hostPointer;
    buffer->storage = static_cast<char *>(hostPointer);
    buffer->usesSvmPointer = context->findSvmAllocation(hostPointer, size).first != nullptr;
  } else {
    buffer->storage = allocateStorage(size, context->device->svmAlignment());
    if (!buffer->storage) {
      buffer->release();
      return fail(CL_MEM_OBJECT_ALLOCATION_FAILURE,
                  "no memory for " + std::to_string(size) + " bytes");
    }
    buffer->ownsStorage = true;
    if (flags & CL_MEM_COPY_HOST_PTR)
      std::memcpy(buffer->storage, hostPointer, size);
  }
  setError(errcodeReturn, CL_SUCCESS);
  return buffer;
}

} // namespace

namespace lanewise::icd::api {

cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context context,
                                                const cl_mem_properties *properties,
                                                cl_mem_flags flags, size_t size, void *hostPointer,
                                                cl_int *errcodeReturn) {
  return createBuffer("clCreateBufferWithProperties", context, properties, flags, size, hostPointer,
                      errcodeReturn);
}

cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size,
                                  void *hostPointer, cl_int *errcodeReturn) {
  return createBuffer("clCreateBuffer", context, nullptr, flags, size, hostPointer, errcodeReturn);
}

cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type type,
                                     const void *info, cl_int *errcodeReturn) {
  // The failures after the buffer's check are reported to its context.
  auto fail = [&](cl_int error, const std::string &problem = {}) -> cl_mem {
    if (!problem.empty())
      icd::fail(*buffer->context, error, "clCreateSubBuffer: " + problem);
    setError(errcodeReturn, error);
    return nullptr;
  };
  if (!isBuffer(buffer))
    return fail(CL_INVALID_MEM_OBJECT);
  if (buffer->parent)
    return fail(CL_INVALID_MEM_OBJECT, "buffer is a sub-buffer");
  // A sub-buffer inherits what it does not specify, may not widen the
  // parent's device or host access, and takes no host pointer flag.
  if ((flags & ~(accessFlags | hostAccessFlags)) || !validMemoryFlags(flags))
    return fail(CL_INVALID_VALUE, "flags has bits other than one device and one host access flag");
  const cl_mem_flags parentFlags = buffer->flags;
  if (widensParentAccess(flags, parentFlags))
    return fail(CL_INVALID_VALUE, "flags widens the device or host access of buffer");
  if (type != CL_BUFFER_CREATE_TYPE_REGION)
    return fail(CL_INVALID_VALUE, "buffer_create_type is not CL_BUFFER_CREATE_TYPE_REGION");
  if (!info)
    return fail(CL_INVALID_VALUE, "buffer_create_info is NULL");
  const auto &region = *static_cast<const cl_buffer_region *>(info);
  if (region.size == 0)
    return fail(CL_INVALID_BUFFER_SIZE, "the region's size is 0");
  if (!inRange(buffer, region.origin, region.size))
    return fail(CL_INVALID_VALUE, "the region's " + rangeText(region.origin, region.size, buffer));
  if (const size_t alignment = buffer->context->device->svmAlignment();
      region.origin % alignment != 0)
    return fail(CL_MISALIGNED_SUB_BUFFER_OFFSET,
                "the region's origin " + std::to_string(region.origin) +
                    " is not a multiple of CL_DEVICE_MEM_BASE_ADDR_ALIGN (" +
                    std::to_string(alignment) + " bytes)");

  auto *sub = new _cl_mem;
  sub->context = buffer->context;
  sub->parent = OwnerRef(buffer);
  // What the sub-buffer does not specify it inherits (OpenCL 3.0, clCreateSubBuffer).
  sub->flags = inheritFlags(flags, parentFlags);
  sub->requestedFlags = inheritFlags(flags, buffer->requestedFlags);
  sub->size = region.size;
  sub->offset = region.origin;
  sub->storage = buffer->storage + region.origin;
  if (buffer->hostPointer)
    sub->hostPointer = static_cast<char *>(buffer->hostPointer) + region.origin;
  sub->usesSvmPointer = buffer->usesSvmPointer;
  setError(errcodeReturn, CL_SUCCESS);
  return sub;
}

cl_int CL_API_CALL clRetainMemObject(cl_mem mem) {
  if (!isValid(mem))
    return CL_INVALID_MEM_OBJECT;
  return mem->retain() ? CL_SUCCESS : CL_INVALID_MEM_OBJECT;
}

cl_int CL_API_CALL clReleaseMemObject(cl_mem mem) {
  if (!isValid(mem))
    return CL_INVALID_MEM_OBJECT;
  return mem->release() ? CL_SUCCESS : CL_INVALID_MEM_OBJECT;
}

cl_int CL_API_CALL clGetMemObjectInfo(cl_mem mem, cl_mem_info param, size_t size, void *value,
                                      size_t *sizeReturn) {
  if (!isValid(mem))
    return CL_INVALID_MEM_OBJECT;
  InfoResult result(size, value, sizeReturn);
  switch (param) {
  case CL_MEM_TYPE:
    return result(mem->type);
  case CL_MEM_FLAGS:
    return result(mem->requestedFlags);
  case CL_MEM_SIZE:
    return result(mem->size);
  case CL_MEM_HOST_PTR:
    return result(mem->hostPointer);
  case CL_MEM_MAP_COUNT:
    return result(mem->mapCount());
  case CL_MEM_REFERENCE_COUNT:
    return result(mem->referenceCount());
  case CL_MEM_CONTEXT:
    return result(static_cast<cl_context>(mem->context.get()));
  case CL_MEM_ASSOCIATED_MEMOBJECT:
    return result(static_cast<cl_mem>(mem->parent.get()));
  case CL_MEM_OFFSET:
    return result(mem->offset);
  case CL_MEM_USES_SVM_POINTER:
    return result(cl_bool(mem->usesSvmPointer ? CL_TRUE : CL_FALSE));
  case CL_MEM_PROPERTIES:
    return result.array<cl_mem_properties>(mem->properties);
  default:
    return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clSetMemObjectDestructorCallback(cl_mem mem, _cl_mem::Destructor callback,
                                                    void *userData) {
  if (!isValid(mem))
    return CL_INVALID_MEM_OBJECT;
  if (!callback)
    return CL_INVALID_VALUE;
  mem->addDestructorCallback(callback, userData);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue queue, cl_mem buffer, cl_bool blocking,
                                       size_t offset, size_t size, void *pointer, cl_uint numEvents,
                                       const cl_event *events, cl_event *event) {
  if (cl_int error = validateTransfer("clEnqueueReadBuffer", queue, buffer, offset, size, pointer,
                                      numEvents, events);
      error != CL_SUCCESS)
    return error;
  if (!buffer->hostCanRead())
    return hostAccessDenied("clEnqueueReadBuffer", buffer, "read");
  return queue->enqueue(
      CL_COMMAND_READ_BUFFER, waitListSpan(numEvents, events),
      [source = OwnerRef(buffer), offset, size, pointer] {
        std::memcpy(pointer, source->storage + offset, size);
        return CL_SUCCESS;
      },
      event, blocking);
}

cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue queue, cl_mem buffer, cl_bool blocking,
                                        size_t offset, size_t size, const void *pointer,
                                        cl_uint numEvents, const cl_event *events,
                                        cl_event *event) {
  if (cl_int error = validateTransfer("clEnqueueWriteBuffer", queue, buffer, offset, size, pointer,
                                      numEvents, events);
      error != CL_SUCCESS)
    return error;
  if (!buffer->hostCanWrite())
    return hostAccessDenied("clEnqueueWriteBuffer", buffer, "write");
  return queue->enqueue(
      CL_COMMAND_WRITE_BUFFER, waitListSpan(numEvents, events),
      [destination = OwnerRef(buffer), offset, size, pointer] {
        std::memcpy(destination->storage + offset, pointer, size);
        return CL_SUCCESS;
      },
      event, blocking);
}

cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue queue, cl_mem source, cl_mem destination,
                                       size_t sourceOffset, size_t destinationOffset, size_t size,
                                       cl_uint numEvents, const cl_event *events, cl_event *event) {
  constexpr const char *name = "clEnqueueCopyBuffer";
  if (cl_int error = validateEnqueue(name, queue, numEvents, events); error != CL_SUCCESS)
    return error;
  if (cl_int error = validateBuffer(name, "src_buffer", queue, source); error != CL_SUCCESS)
    return error;
  if (cl_int error = validateBuffer(name, "dst_buffer", queue, destination); error != CL_SUCCESS)
    return error;
  _cl_context &context = *queue->context;
  if (size == 0)
    return fail(context, CL_INVALID_VALUE, "clEnqueueCopyBuffer: size is 0");
  if (!inRange(source, sourceOffset, size))
    return fail(context, CL_INVALID_VALUE,
                "clEnqueueCopyBuffer: src_" + rangeText(sourceOffset, size, source));
  if (!inRange(destination, destinationOffset, size))
    return fail(context, CL_INVALID_VALUE,
                "clEnqueueCopyBuffer: dst_" + rangeText(destinationOffset, size, destination));
  if (overlaps(source->storage + sourceOffset, size, destination->storage + destinationOffset,
               size))
    return fail(context, CL_MEM_COPY_OVERLAP,
                "clEnqueueCopyBuffer: the source and destination regions overlap");
  return queue->enqueue(
      CL_COMMAND_COPY_BUFFER, waitListSpan(numEvents, events),
      [from = OwnerRef(source), to = OwnerRef(destination), sourceOffset, destinationOffset, size] {
        std::memcpy(to->storage + destinationOffset, from->storage + sourceOffset, size);
        return CL_SUCCESS;
      },
      event);
}

cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue queue, cl_mem buffer, const void *pattern,
                                       size_t patternSize, size_t offset, size_t size,
                                       cl_uint numEvents, const cl_event *events, cl_event *event) {
  constexpr const char *name = "clEnqueueFillBuffer";
  if (cl_int error = validateEnqueue(name, queue, numEvents, events); error != CL_SUCCESS)
    return error;
  if (cl_int error = validateBuffer(name, "buffer", queue, buffer); error != CL_SUCCESS)
    return error;
  _cl_context &context = *queue->context;
  if (!pattern)
    return fail(context, CL_INVALID_VALUE, "clEnqueueFillBuffer: pattern is NULL");
  if (!validFillPattern(pattern, patternSize))
    return fail(context, CL_INVALID_VALUE,
                "clEnqueueFillBuffer: pattern_size " + std::to_string(patternSize) +
                    " is not one of 1, 2, 4, 8, 16, 32, 64 and 128");
  if (offset % patternSize || size % patternSize)
    return fail(context, CL_INVALID_VALUE,
                "clEnqueueFillBuffer: offset " + std::to_string(offset) + " or size " +
                    std::to_string(size) + " is not a multiple of pattern_size " +
                    std::to_string(patternSize));
  if (!inRange(buffer, offset, size))
    return fail(context, CL_INVALID_VALUE,
                "clEnqueueFillBuffer: " + rangeText(offset, size, buffer));
  // The pattern is copied now: the application may reuse it on return.
  std::vector<char> bytes(static_cast<const char *>(pattern),
                          static_cast<const char *>(pattern) + patternSize);
  return queue->enqueue(
      CL_COMMAND_FILL_BUFFER, waitListSpan(numEvents, events),
      [target = OwnerRef(buffer), bytes = std::move(bytes), offset, size] {
        fillPattern(target->storage + offset, size, bytes);
        return CL_SUCCESS;
      },
      event);
}

namespace {

// The checks shared by clEnqueue{Read,Write}BufferRect; computes both layouts.
cl_int validateRectTransfer(const char *entryPoint, cl_command_queue queue, cl_mem buffer,
                            const size_t *bufferOrigin, const size_t *hostOrigin,
                            const size_t *region, size_t bufferRowPitch, size_t bufferSlicePitch,
                            size_t hostRowPitch, size_t hostSlicePitch, const void *pointer,
                            cl_uint numEvents, const cl_event *events, RectLayout &bufferLayout,
                            RectLayout &hostLayout) {
  if (cl_int error = validateEnqueue(entryPoint, queue, numEvents, events); error != CL_SUCCESS)
    return error;
  if (cl_int error = validateBuffer(entryPoint, "buffer", queue, buffer); error != CL_SUCCESS)
    return error;
  _cl_context &context = *queue->context;
  const std::string name = entryPoint;
  if (!pointer)
    return fail(context, CL_INVALID_VALUE, name + ": ptr is NULL");
  if (!bufferOrigin || !hostOrigin || !region)
    return fail(context, CL_INVALID_VALUE, name + ": buffer_origin, host_origin or region is NULL");
  if (!region[0] || !region[1] || !region[2])
    return fail(context, CL_INVALID_VALUE, name + ": an element of region is 0");
  if (makeRectLayout(bufferOrigin, region, bufferRowPitch, bufferSlicePitch, bufferLayout))
    return fail(context, CL_INVALID_VALUE,
                name + ": buffer_row_pitch or buffer_slice_pitch is too small for region, or "
                       "buffer_slice_pitch is not a multiple of buffer_row_pitch");
  if (makeRectLayout(hostOrigin, region, hostRowPitch, hostSlicePitch, hostLayout))
    return fail(context, CL_INVALID_VALUE,
                name + ": host_row_pitch or host_slice_pitch is too small for region, or "
                       "host_slice_pitch is not a multiple of host_row_pitch");
  if (rectEnd(bufferLayout, region) > buffer->size)
    return fail(context, CL_INVALID_VALUE,
                name + ": the region ends at byte " +
                    std::to_string(rectEnd(bufferLayout, region)) + ", past the end of the " +
                    std::to_string(buffer->size) + "-byte buffer");
  return CL_SUCCESS;
}

std::array<size_t, 3> copyOf(const size_t *values) { return {values[0], values[1], values[2]}; }

} // namespace

cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue queue, cl_mem buffer, cl_bool blocking,
                                           const size_t *bufferOrigin, const size_t *hostOrigin,
                                           const size_t *region, size_t bufferRowPitch,
                                           size_t bufferSlicePitch, size_t hostRowPitch,
                                           size_t hostSlicePitch, void *pointer, cl_uint numEvents,
                                           const cl_event *events, cl_event *event) {
  RectLayout from, to;
  if (cl_int error =
          validateRectTransfer("clEnqueueReadBufferRect", queue, buffer, bufferOrigin, hostOrigin,
                               region, bufferRowPitch, bufferSlicePitch, hostRowPitch,
                               hostSlicePitch, pointer, numEvents, events, from, to);
      error != CL_SUCCESS)
    return error;
  if (!buffer->hostCanRead())
    return hostAccessDenied("clEnqueueReadBufferRect", buffer, "read");
  return queue->enqueue(
      CL_COMMAND_READ_BUFFER_RECT, waitListSpan(numEvents, events),
      [source = OwnerRef(buffer), from, to, extent = copyOf(region), pointer] {
        copyRect(static_cast<char *>(pointer), to, source->storage, from, extent.data());
        return CL_SUCCESS;
      },
      event, blocking);
}

cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue queue, cl_mem buffer, cl_bool blocking,
                                            const size_t *bufferOrigin, const size_t *hostOrigin,
                                            const size_t *region, size_t bufferRowPitch,
                                            size_t bufferSlicePitch, size_t hostRowPitch,
                                            size_t hostSlicePitch, const void *pointer,
                                            cl_uint numEvents, const cl_event *events,
                                            cl_event *event) {
  RectLayout to, from;
  if (cl_int error =
          validateRectTransfer("clEnqueueWriteBufferRect", queue, buffer, bufferOrigin, hostOrigin,
                               region, bufferRowPitch, bufferSlicePitch, hostRowPitch,
                               hostSlicePitch, pointer, numEvents, events, to, from);
      error != CL_SUCCESS)
    return error;
  if (!buffer->hostCanWrite())
    return hostAccessDenied("clEnqueueWriteBufferRect", buffer, "write");
  return queue->enqueue(
      CL_COMMAND_WRITE_BUFFER_RECT, waitListSpan(numEvents, events),
      [destination = OwnerRef(buffer), from, to, extent = copyOf(region), pointer] {
        copyRect(destination->storage, to, static_cast<const char *>(pointer), from, extent.data());
        return CL_SUCCESS;
      },
      event, blocking);
}

cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue queue, cl_mem source,
                                           cl_mem destination, const size_t *sourceOrigin,
                                           const size_t *destinationOrigin, const size_t *region,
                                           size_t sourceRowPitch, size_t sourceSlicePitch,
                                           size_t destinationRowPitch, size_t destinationSlicePitch,
                                           cl_uint numEvents, const cl_event *events,
                                           cl_event *event) {
  constexpr const char *name = "clEnqueueCopyBufferRect";
  if (cl_int error = validateEnqueue(name, queue, numEvents, events); error != CL_SUCCESS)
    return error;
  if (cl_int error = validateBuffer(name, "src_buffer", queue, source); error != CL_SUCCESS)
    return error;
  if (cl_int error = validateBuffer(name, "dst_buffer", queue, destination); error != CL_SUCCESS)
    return error;
  _cl_context &context = *queue->context;
  if (!sourceOrigin || !destinationOrigin || !region)
    return fail(context, CL_INVALID_VALUE,
                "clEnqueueCopyBufferRect: src_origin, dst_origin or region is NULL");
  if (!region[0] || !region[1] || !region[2])
    return fail(context, CL_INVALID_VALUE, "clEnqueueCopyBufferRect: an element of region is 0");
  RectLayout from, to;
  if (makeRectLayout(sourceOrigin, region, sourceRowPitch, sourceSlicePitch, from) ||
      makeRectLayout(destinationOrigin, region, destinationRowPitch, destinationSlicePitch, to))
    return fail(context, CL_INVALID_VALUE,
                "clEnqueueCopyBufferRect: a row or slice pitch is too small for region, or a "
                "slice pitch is not a multiple of its row pitch");
  if (rectEnd(from, region) > source->size || rectEnd(to, region) > destination->size)
    return fail(context, CL_INVALID_VALUE,
                "clEnqueueCopyBufferRect: the source or destination region is out of bounds");
  if (source == destination) {
    // Within one buffer the pitches must agree (OpenCL 3.0, clEnqueueCopyBufferRect).
    if (from.rowPitch != to.rowPitch || from.slicePitch != to.slicePitch)
      return fail(context, CL_INVALID_VALUE,
                  "clEnqueueCopyBufferRect: src_buffer and dst_buffer are the same buffer but "
                  "their row or slice pitches differ");
    if (rectCopyOverlaps(sourceOrigin, destinationOrigin, region, from.rowPitch, from.slicePitch))
      return fail(context, CL_MEM_COPY_OVERLAP,
                  "clEnqueueCopyBufferRect: the source and destination regions overlap");
  } else if (overlaps(source->storage + from.offsetOf(0, 0, 0),
                      rectEnd(from, region) - from.offsetOf(0, 0, 0),
                      destination->storage + to.offsetOf(0, 0, 0),
                      rectEnd(to, region) - to.offsetOf(0, 0, 0))) {
    // Sub-buffers of one buffer whose regions share bytes.
    return fail(context, CL_MEM_COPY_OVERLAP,
                "clEnqueueCopyBufferRect: the source and destination regions overlap");
  }
  return queue->enqueue(
      CL_COMMAND_COPY_BUFFER_RECT, waitListSpan(numEvents, events),
      [src = OwnerRef(source), dst = OwnerRef(destination), from, to, extent = copyOf(region)] {
        copyRect(dst->storage, to, src->storage, from, extent.data());
        return CL_SUCCESS;
      },
      event);
}

void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue queue, cl_mem buffer, cl_bool blocking,
                                     cl_map_flags flags, size_t offset, size_t size,
                                     cl_uint numEvents, const cl_event *events, cl_event *event,
                                     cl_int *errcodeReturn) {
  auto fail = [&](cl_int error) -> void * {
    setError(errcodeReturn, error);
    return nullptr;
  };
  constexpr const char *name = "clEnqueueMapBuffer";
  if (cl_int error = validateEnqueue(name, queue, numEvents, events); error != CL_SUCCESS)
    return fail(error);
  if (cl_int error = validateBuffer(name, "buffer", queue, buffer); error != CL_SUCCESS)
    return fail(error);
  _cl_context &context = *queue->context;
  if (cl_int error = validateMapFlags(name, context, flags); error != CL_SUCCESS)
    return fail(error);
  if (size == 0)
    return fail(icd::fail(context, CL_INVALID_VALUE, "clEnqueueMapBuffer: size is 0"));
  if (!inRange(buffer, offset, size))
    return fail(icd::fail(context, CL_INVALID_VALUE,
                          "clEnqueueMapBuffer: " + rangeText(offset, size, buffer)));
  if ((flags & CL_MAP_READ) && !buffer->hostCanRead())
    return fail(hostAccessDenied(name, buffer, "read"));
  if ((flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) && !buffer->hostCanWrite())
    return fail(hostAccessDenied(name, buffer, "write"));
  // Device memory is host memory: the mapped region is the buffer itself
  // (host_ptr + offset for CL_MEM_USE_HOST_PTR, as the spec requires).
  void *mapped = buffer->storage + offset;
  buffer->addMapping(mapped);
  cl_int error = queue->enqueue(
      CL_COMMAND_MAP_BUFFER, waitListSpan(numEvents, events),
      [hold = OwnerRef(buffer)] { return CL_SUCCESS; }, event, blocking);
  if (error != CL_SUCCESS) {
    buffer->removeMapping(mapped);
    return fail(error);
  }
  setError(errcodeReturn, CL_SUCCESS);
  return mapped;
}

cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue queue, cl_mem mem, void *mapped,
                                           cl_uint numEvents, const cl_event *events,
                                           cl_event *event) {
  constexpr const char *name = "clEnqueueUnmapMemObject";
  if (cl_int error = validateEnqueue(name, queue, numEvents, events); error != CL_SUCCESS)
    return error;
  if (cl_int error = validateMemObject(name, "memobj", queue, mem); error != CL_SUCCESS)
    return error;
  if (!mem->removeMapping(mapped))
    return fail(*queue->context, CL_INVALID_VALUE,
                "clEnqueueUnmapMemObject: mapped_ptr is not a mapping of memobj that is still "
                "mapped");
  return queue->enqueue(
      CL_COMMAND_UNMAP_MEM_OBJECT, waitListSpan(numEvents, events),
      [hold = OwnerRef(mem)] { return CL_SUCCESS; }, event);
}

cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue queue, cl_uint numObjects,
                                              const cl_mem *objects, cl_mem_migration_flags flags,
                                              cl_uint numEvents, const cl_event *events,
                                              cl_event *event) {
  constexpr const char *name = "clEnqueueMigrateMemObjects";
  if (cl_int error = validateEnqueue(name, queue, numEvents, events); error != CL_SUCCESS)
    return error;
  _cl_context &context = *queue->context;
  if (numObjects == 0 || !objects)
    return fail(context, CL_INVALID_VALUE,
                "clEnqueueMigrateMemObjects: num_mem_objects is 0 or mem_objects is NULL");
  if (flags & ~(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
    return fail(context, CL_INVALID_VALUE, "clEnqueueMigrateMemObjects: flags has unknown bits");
  for (cl_uint i = 0; i < numObjects; ++i) {
    const std::string parameter = "mem_objects[" + std::to_string(i) + "]";
    if (cl_int error = validateMemObject(name, parameter.c_str(), queue, objects[i]);
        error != CL_SUCCESS)
      return error;
  }
  // One memory for host and device: there is nothing to move.
  return queue->enqueue(CL_COMMAND_MIGRATE_MEM_OBJECTS, waitListSpan(numEvents, events), nullptr,
                        event);
}

} // namespace lanewise::icd::api
