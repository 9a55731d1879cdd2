// SPDX-License-Identifier: Apache-2.0
// Shared virtual memory (OpenCL 3.0 API, 5.6): coarse- and fine-grain
// buffers, with SVM atomics. Device memory is host memory, so an SVM
// allocation is an aligned host allocation that the context keeps track of;
// host and kernels see each other's writes as threads of one process do,
// kernel atomics are the host's, and map/unmap only order commands.
#include "icd/api.h"
#include "icd/memory.h"
#include "icd/queue.h"

#include <bit>
#include <cstdlib>

using namespace lanewise::icd;

namespace {

constexpr cl_svm_mem_flags accessFlags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;

} // namespace

namespace lanewise::icd::api {

void *CL_API_CALL clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size,
                             cl_uint alignment) {
  if (!isValid(context))
    return nullptr;
  // At most one access mode; CL_MEM_SVM_ATOMICS only with
  // CL_MEM_SVM_FINE_GRAIN_BUFFER, and both only where the device has them.
  const cl_svm_mem_flags fineGrain = CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;
  if ((flags & ~(accessFlags | fineGrain)) || std::popcount(flags & accessFlags) > 1)
    return nullptr;
  if ((flags & CL_MEM_SVM_ATOMICS) && !(flags & CL_MEM_SVM_FINE_GRAIN_BUFFER))
    return nullptr;
  if ((flags & fineGrain) && !context->device->capabilities.fineGrainSvm)
    return nullptr;
  const size_t largestType = context->device->svmAlignment(); // sizeof(long16)
  if (size == 0 || size > context->device->maxAllocSize)
    return nullptr;
  if (alignment != 0 && (!std::has_single_bit(alignment) || alignment > largestType))
    return nullptr;
  const size_t rounded = (size + largestType - 1) / largestType * largestType;
  void *memory = std::aligned_alloc(largestType, rounded);
  if (memory)
    context->addSvmAllocation(memory, size);
  return memory;
}

void CL_API_CALL clSVMFree(cl_context context, void *pointer) {
  if (!isValid(context) || !pointer)
    return;
  if (context->removeSvmAllocation(pointer))
    std::free(pointer);
}

cl_int CL_API_CALL clEnqueueSVMFree(cl_command_queue queue, cl_uint numPointers, void *pointers[],
                                    void(CL_CALLBACK *callback)(cl_command_queue, cl_uint, void *[],
                                                                void *),
                                    void *userData, cl_uint numEvents, const cl_event *events,
                                    cl_event *event) {
  if (cl_int error = validateEnqueue("clEnqueueSVMFree", queue, numEvents, events);
      error != CL_SUCCESS)
    return error;
  if ((numPointers == 0) != (pointers == nullptr))
    return fail(*queue->context, CL_INVALID_VALUE,
                "clEnqueueSVMFree: num_svm_pointers is " + std::to_string(numPointers) +
                    " but svm_pointers is " + (pointers ? "not NULL" : "NULL"));
  std::vector<void *> list(pointers, pointers + numPointers);
  return queue->enqueue(
      CL_COMMAND_SVM_FREE, waitListSpan(numEvents, events),
      [queue, context = OwnerRef(queue->context.get()), list, callback, userData]() mutable {
        if (callback)
          callback(queue, static_cast<cl_uint>(list.size()), list.data(), userData);
        else
          for (void *pointer : list)
            api::clSVMFree(context.get(), pointer);
        return CL_SUCCESS;
      },
      event);
}

cl_int CL_API_CALL clEnqueueSVMMemcpy(cl_command_queue queue, cl_bool blocking, void *destination,
                                      const void *source, size_t size, cl_uint numEvents,
                                      const cl_event *events, cl_event *event) {
  if (cl_int error = validateEnqueue("clEnqueueSVMMemcpy", queue, numEvents, events);
      error != CL_SUCCESS)
    return error;
  if (!destination || !source)
    return fail(*queue->context, CL_INVALID_VALUE,
                "clEnqueueSVMMemcpy: dst_ptr or src_ptr is NULL");
  if (overlaps(static_cast<const char *>(destination), size, static_cast<const char *>(source),
               size))
    return fail(*queue->context, CL_MEM_COPY_OVERLAP,
                "clEnqueueSVMMemcpy: the source and destination ranges overlap");
  return queue->enqueue(
      CL_COMMAND_SVM_MEMCPY, waitListSpan(numEvents, events),
      [destination, source, size] {
        std::memcpy(destination, source, size);
        return CL_SUCCESS;
      },
      event, blocking);
}

cl_int CL_API_CALL clEnqueueSVMMemFill(cl_command_queue queue, void *target, const void *pattern,
                                       size_t patternSize, size_t size, cl_uint numEvents,
                                       const cl_event *events, cl_event *event) {
  if (cl_int error = validateEnqueue("clEnqueueSVMMemFill", queue, numEvents, events);
      error != CL_SUCCESS)
    return error;
  _cl_context &context = *queue->context;
  if (!target || !pattern)
    return fail(context, CL_INVALID_VALUE, "clEnqueueSVMMemFill: svm_ptr or pattern is NULL");
  if (patternSize == 0 || patternSize > 128 || !std::has_single_bit(patternSize))
    return fail(context, CL_INVALID_VALUE,
                "clEnqueueSVMMemFill: pattern_size " + std::to_string(patternSize) +
                    " is not one of 1, 2, 4, 8, 16, 32, 64 and 128");
  if (reinterpret_cast<uintptr_t>(target) % patternSize || size % patternSize)
    return fail(context, CL_INVALID_VALUE,
                "clEnqueueSVMMemFill: svm_ptr or size is not a multiple of pattern_size " +
                    std::to_string(patternSize));
  std::vector<char> bytes(static_cast<const char *>(pattern),
                          static_cast<const char *>(pattern) + patternSize);
  return queue->enqueue(
      CL_COMMAND_SVM_MEMFILL, waitListSpan(numEvents, events),
      [target = static_cast<char *>(target), bytes = std::move(bytes), size] {
        for (size_t at = 0; at < size; at += bytes.size())
          std::memcpy(target + at, bytes.data(), bytes.size());
        return CL_SUCCESS;
      },
      event);
}

cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue queue, cl_bool blocking, cl_map_flags flags,
                                   void *pointer, size_t size, cl_uint numEvents,
                                   const cl_event *events, cl_event *event) {
  if (cl_int error = validateEnqueue("clEnqueueSVMMap", queue, numEvents, events);
      error != CL_SUCCESS)
    return error;
  if (!pointer || size == 0)
    return fail(*queue->context, CL_INVALID_VALUE, "clEnqueueSVMMap: svm_ptr is NULL or size is 0");
  if (cl_int error = validateMapFlags("clEnqueueSVMMap", *queue->context, flags);
      error != CL_SUCCESS)
    return error;
  return queue->enqueue(CL_COMMAND_SVM_MAP, waitListSpan(numEvents, events), nullptr, event,
                        blocking);
}

cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue queue, void *pointer, cl_uint numEvents,
                                     const cl_event *events, cl_event *event) {
  if (cl_int error = validateEnqueue("clEnqueueSVMUnmap", queue, numEvents, events);
      error != CL_SUCCESS)
    return error;
  if (!pointer)
    return fail(*queue->context, CL_INVALID_VALUE, "clEnqueueSVMUnmap: svm_ptr is NULL");
  return queue->enqueue(CL_COMMAND_SVM_UNMAP, waitListSpan(numEvents, events), nullptr, event);
}

cl_int CL_API_CALL clEnqueueSVMMigrateMem(cl_command_queue queue, cl_uint numPointers,
                                          const void **pointers, const size_t *sizes,
                                          cl_mem_migration_flags flags, cl_uint numEvents,
                                          const cl_event *events, cl_event *event) {
  if (cl_int error = validateEnqueue("clEnqueueSVMMigrateMem", queue, numEvents, events);
      error != CL_SUCCESS)
    return error;
  _cl_context &context = *queue->context;
  if (numPointers == 0 || !pointers)
    return fail(context, CL_INVALID_VALUE,
                "clEnqueueSVMMigrateMem: num_svm_pointers is 0 or svm_pointers is NULL");
  if (flags & ~(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
    return fail(context, CL_INVALID_VALUE, "clEnqueueSVMMigrateMem: flags has unknown bits");
  for (cl_uint i = 0; i < numPointers; ++i) {
    const std::string pointer = "svm_pointers[" + std::to_string(i) + "]";
    if (!pointers[i])
      return fail(context, CL_INVALID_VALUE, "clEnqueueSVMMigrateMem: " + pointer + " is NULL");
    if (!context.findSvmAllocation(pointers[i], sizes && sizes[i] ? sizes[i] : 1).first)
      return fail(context, CL_INVALID_VALUE,
                  "clEnqueueSVMMigrateMem: " + pointer +
                      " and its size are not within one SVM allocation of the context");
  }
  return queue->enqueue(CL_COMMAND_SVM_MIGRATE_MEM, waitListSpan(numEvents, events), nullptr,
                        event);
}

} // namespace lanewise::icd::api
