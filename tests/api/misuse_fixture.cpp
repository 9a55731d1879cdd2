// SPDX-License-Identifier: Apache-2.0
// The API misuse table's helpers (declared in misuse_fixture.h).
#include "misuse_fixture.h"

#include <ostream>
#include <string>

namespace lanewise::test::misuse {

std::string errorName(cl_int code) {
  switch (code) {
#define NAME(code)                                                                                 \
  case code:                                                                                       \
    return #code;
    NAME(CL_SUCCESS)
    NAME(CL_DEVICE_NOT_FOUND)
    NAME(CL_COMPILER_NOT_AVAILABLE)
    NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    NAME(CL_OUT_OF_RESOURCES)
    NAME(CL_OUT_OF_HOST_MEMORY)
    NAME(CL_PROFILING_INFO_NOT_AVAILABLE)
    NAME(CL_MEM_COPY_OVERLAP)
    NAME(CL_IMAGE_FORMAT_MISMATCH)
    NAME(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    NAME(CL_BUILD_PROGRAM_FAILURE)
    NAME(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    NAME(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    NAME(CL_COMPILE_PROGRAM_FAILURE)
    NAME(CL_LINK_PROGRAM_FAILURE)
    NAME(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    NAME(CL_INVALID_VALUE)
    NAME(CL_INVALID_DEVICE_TYPE)
    NAME(CL_INVALID_PLATFORM)
    NAME(CL_INVALID_DEVICE)
    NAME(CL_INVALID_CONTEXT)
    NAME(CL_INVALID_QUEUE_PROPERTIES)
    NAME(CL_INVALID_COMMAND_QUEUE)
    NAME(CL_INVALID_HOST_PTR)
    NAME(CL_INVALID_MEM_OBJECT)
    NAME(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    NAME(CL_INVALID_IMAGE_SIZE)
    NAME(CL_INVALID_SAMPLER)
    NAME(CL_INVALID_BINARY)
    NAME(CL_INVALID_BUILD_OPTIONS)
    NAME(CL_INVALID_PROGRAM)
    NAME(CL_INVALID_PROGRAM_EXECUTABLE)
    NAME(CL_INVALID_KERNEL_NAME)
    NAME(CL_INVALID_KERNEL)
    NAME(CL_INVALID_ARG_INDEX)
    NAME(CL_INVALID_ARG_VALUE)
    NAME(CL_INVALID_ARG_SIZE)
    NAME(CL_INVALID_KERNEL_ARGS)
    NAME(CL_INVALID_WORK_DIMENSION)
    NAME(CL_INVALID_WORK_GROUP_SIZE)
    NAME(CL_INVALID_WORK_ITEM_SIZE)
    NAME(CL_INVALID_GLOBAL_OFFSET)
    NAME(CL_INVALID_EVENT_WAIT_LIST)
    NAME(CL_INVALID_EVENT)
    NAME(CL_INVALID_OPERATION)
    NAME(CL_INVALID_BUFFER_SIZE)
    NAME(CL_INVALID_GLOBAL_WORK_SIZE)
    NAME(CL_INVALID_PROPERTY)
    NAME(CL_INVALID_IMAGE_DESCRIPTOR)
    NAME(CL_INVALID_COMPILER_OPTIONS)
    NAME(CL_INVALID_LINKER_OPTIONS)
    NAME(CL_INVALID_DEVICE_PARTITION_COUNT)
    NAME(CL_INVALID_SPEC_ID)
#undef NAME
  case returnedNull:
    return "NULL returned";
  default:
    return "error " + std::to_string(code);
  }
}

void CL_CALLBACK recordMessage(const char *message, const void *, size_t, void *data) {
  static_cast<World *>(data)->record(message);
}

cl_int created(cl_context object, const cl_int &error) {
  if (object)
    clReleaseContext(object);
  return error;
}
cl_int created(cl_command_queue object, const cl_int &error) {
  if (object)
    clReleaseCommandQueue(object);
  return error;
}
cl_int created(cl_mem object, const cl_int &error) {
  if (object)
    clReleaseMemObject(object);
  return error;
}
cl_int created(cl_event object, const cl_int &error) {
  if (object)
    clReleaseEvent(object);
  return error;
}
cl_int created(cl_program object, const cl_int &error) {
  if (object)
    clReleaseProgram(object);
  return error;
}
cl_int created(cl_kernel object, const cl_int &error) {
  if (object)
    clReleaseKernel(object);
  return error;
}
cl_int created(cl_sampler object, const cl_int &error) {
  if (object)
    clReleaseSampler(object);
  return error;
}
cl_int mapped(World &w, cl_mem buffer, void *pointer, const cl_int &error) {
  if (pointer)
    clEnqueueUnmapMemObject(w.queue, buffer, pointer, 0, nullptr, nullptr);
  return error;
}

void PrintTo(const Row &row, std::ostream *out) { *out << row.name; }

} // namespace lanewise::test::misuse
