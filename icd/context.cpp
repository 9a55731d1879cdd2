// SPDX-License-Identifier: Apache-2.0
#include "icd/context.h"

#include "icd/api.h"
#include "icd/memory.h"

#include <cstdlib>
#include <span>

using namespace lanewise::icd;

_cl_context::~_cl_context() {
  // Destructor callbacks run in reverse order of registration (OpenCL 3.0,
  // clSetContextDestructorCallback).
  for (auto it = destructors_.rbegin(); it != destructors_.rend(); ++it)
    it->first(this, it->second);
  for (auto &[start, size] : svmAllocations_)
    std::free(start);
}

bool _cl_context::hasDevice(const _cl_device_id *candidate) const {
  for (const lanewise::icd::OwnerRef<_cl_device_id> &device : devices)
    if (device.get() == candidate)
      return true;
  return false;
}

std::vector<cl_device_id> _cl_context::deviceList() const {
  std::vector<cl_device_id> list;
  for (const lanewise::icd::OwnerRef<_cl_device_id> &device : devices)
    list.push_back(device.get());
  return list;
}

void _cl_context::report(const char *message) const {
  if (notify)
    notify(message, nullptr, 0, notifyData);
}

namespace lanewise::icd {

const char *errorName(cl_int error) {
  switch (error) {
#define LANEWISE_ERROR_NAME(code)                                                                  \
  case code:                                                                                       \
    return #code;
    LANEWISE_ERROR_NAME(CL_DEVICE_NOT_FOUND)
    LANEWISE_ERROR_NAME(CL_COMPILER_NOT_AVAILABLE)
    LANEWISE_ERROR_NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    LANEWISE_ERROR_NAME(CL_OUT_OF_RESOURCES)
    LANEWISE_ERROR_NAME(CL_OUT_OF_HOST_MEMORY)
    LANEWISE_ERROR_NAME(CL_MEM_COPY_OVERLAP)
    LANEWISE_ERROR_NAME(CL_IMAGE_FORMAT_MISMATCH)
    LANEWISE_ERROR_NAME(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    LANEWISE_ERROR_NAME(CL_BUILD_PROGRAM_FAILURE)
    LANEWISE_ERROR_NAME(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    LANEWISE_ERROR_NAME(CL_COMPILE_PROGRAM_FAILURE)
    LANEWISE_ERROR_NAME(CL_LINK_PROGRAM_FAILURE)
    LANEWISE_ERROR_NAME(CL_INVALID_VALUE)
    LANEWISE_ERROR_NAME(CL_INVALID_DEVICE)
    LANEWISE_ERROR_NAME(CL_INVALID_CONTEXT)
    LANEWISE_ERROR_NAME(CL_INVALID_QUEUE_PROPERTIES)
    LANEWISE_ERROR_NAME(CL_INVALID_COMMAND_QUEUE)
    LANEWISE_ERROR_NAME(CL_INVALID_HOST_PTR)
    LANEWISE_ERROR_NAME(CL_INVALID_MEM_OBJECT)
    LANEWISE_ERROR_NAME(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    LANEWISE_ERROR_NAME(CL_INVALID_IMAGE_SIZE)
    LANEWISE_ERROR_NAME(CL_INVALID_SAMPLER)
    LANEWISE_ERROR_NAME(CL_INVALID_BINARY)
    LANEWISE_ERROR_NAME(CL_INVALID_BUILD_OPTIONS)
    LANEWISE_ERROR_NAME(CL_INVALID_PROGRAM)
    LANEWISE_ERROR_NAME(CL_INVALID_PROGRAM_EXECUTABLE)
    LANEWISE_ERROR_NAME(CL_INVALID_KERNEL_NAME)
    LANEWISE_ERROR_NAME(CL_INVALID_KERNEL)
    LANEWISE_ERROR_NAME(CL_INVALID_ARG_INDEX)
    LANEWISE_ERROR_NAME(CL_INVALID_ARG_VALUE)
    LANEWISE_ERROR_NAME(CL_INVALID_ARG_SIZE)
    LANEWISE_ERROR_NAME(CL_INVALID_KERNEL_ARGS)
    LANEWISE_ERROR_NAME(CL_INVALID_WORK_DIMENSION)
    LANEWISE_ERROR_NAME(CL_INVALID_WORK_GROUP_SIZE)
    LANEWISE_ERROR_NAME(CL_INVALID_WORK_ITEM_SIZE)
    LANEWISE_ERROR_NAME(CL_INVALID_GLOBAL_OFFSET)
    LANEWISE_ERROR_NAME(CL_INVALID_EVENT_WAIT_LIST)
    LANEWISE_ERROR_NAME(CL_INVALID_EVENT)
    LANEWISE_ERROR_NAME(CL_INVALID_OPERATION)
    LANEWISE_ERROR_NAME(CL_INVALID_BUFFER_SIZE)
    LANEWISE_ERROR_NAME(CL_INVALID_GLOBAL_WORK_SIZE)
    LANEWISE_ERROR_NAME(CL_INVALID_PROPERTY)
    LANEWISE_ERROR_NAME(CL_INVALID_IMAGE_DESCRIPTOR)
    LANEWISE_ERROR_NAME(CL_INVALID_COMPILER_OPTIONS)
    LANEWISE_ERROR_NAME(CL_INVALID_LINKER_OPTIONS)
    LANEWISE_ERROR_NAME(CL_INVALID_SPEC_ID)
#undef LANEWISE_ERROR_NAME
  default:
    return "an OpenCL error";
  }
}

cl_int fail(const _cl_context &context, cl_int error, const std::string &message) {
  context.report((message + " (" + errorName(error) + ")").c_str());
  return error;
}

} // namespace lanewise::icd

void _cl_context::addDestructorCallback(Destructor callback, void *data) {
  std::lock_guard lock(mutex_);
  destructors_.emplace_back(callback, data);
}

void _cl_context::addSvmAllocation(void *start, size_t size) {
  std::lock_guard lock(mutex_);
  svmAllocations_[static_cast<char *>(start)] = size;
}

bool _cl_context::removeSvmAllocation(void *start) {
  std::lock_guard lock(mutex_);
  auto it = svmAllocations_.find(static_cast<char *>(start));
  if (it == svmAllocations_.end())
    return false;
  noteReleasedMemory(it->first, it->second, "a freed SVM allocation");
  svmAllocations_.erase(it);
  return true;
}

std::vector<std::pair<void *, size_t>> _cl_context::svmAllocationList() const {
  std::lock_guard lock(mutex_);
  std::vector<std::pair<void *, size_t>> list;
  for (const auto &[start, size] : svmAllocations_)
    list.emplace_back(start, size);
  return list;
}

std::pair<void *, size_t> _cl_context::findSvmAllocation(const void *pointer, size_t size) const {
  std::lock_guard lock(mutex_);
  auto *p = static_cast<char *>(const_cast<void *>(pointer));
  auto it = svmAllocations_.upper_bound(p);
  if (it == svmAllocations_.begin())
    return {nullptr, 0};
  --it;
  if (p + size <= it->first + it->second)
    return {it->first, it->second};
  return {nullptr, 0};
}

namespace lanewise::icd::api {

namespace {

// Checks a context property list (OpenCL 3.0, table "List of supported
// context creation properties") and copies it, terminator included.
cl_int parseContextProperties(const cl_context_properties *properties,
                              std::vector<cl_context_properties> &copy) {
  if (!properties)
    return CL_SUCCESS;
  bool seenPlatform = false, seenInteropSync = false;
  for (const cl_context_properties *p = properties; *p; p += 2) {
    switch (p[0]) {
    case CL_CONTEXT_PLATFORM:
      if (seenPlatform)
        return CL_INVALID_PROPERTY;
      seenPlatform = true;
      if (!isValid(reinterpret_cast<cl_platform_id>(p[1])))
        return CL_INVALID_PLATFORM;
      break;
    case CL_CONTEXT_INTEROP_USER_SYNC:
      // A cl_bool: CL_TRUE or CL_FALSE, anything else an invalid value.
      if (seenInteropSync || (p[1] != CL_TRUE && p[1] != CL_FALSE))
        return CL_INVALID_PROPERTY;
      seenInteropSync = true;
      break;
    default:
      return CL_INVALID_PROPERTY;
    }
    copy.insert(copy.end(), p, p + 2);
  }
  copy.push_back(0);
  return CL_SUCCESS;
}

cl_context createContext(const cl_context_properties *properties,
                         std::span<const cl_device_id> devices, _cl_context::Notify notify,
                         void *userData, cl_int *errcodeReturn) {
  std::vector<cl_context_properties> copy;
  if (cl_int error = parseContextProperties(properties, copy); error != CL_SUCCESS) {
    setError(errcodeReturn, error);
    return nullptr;
  }
  auto *context = new _cl_context;
  context->device = theDevice();
  // A device named twice is one device of the context.
  for (cl_device_id device : devices)
    if (!context->hasDevice(device))
      context->devices.emplace_back(device);
  context->properties = std::move(copy);
  context->notify = notify;
  context->notifyData = userData;
  setError(errcodeReturn, CL_SUCCESS);
  return context;
}

} // namespace

cl_context CL_API_CALL clCreateContext(const cl_context_properties *properties,
                                       cl_uint numDevices, const cl_device_id *devices,
                                       _cl_context::Notify notify, void *userData,
                                       cl_int *errcodeReturn) {
  if (!devices || numDevices == 0 || (!notify && userData)) {
    setError(errcodeReturn, CL_INVALID_VALUE);
    return nullptr;
  }
  for (cl_uint i = 0; i < numDevices; ++i)
    if (!isValid(devices[i])) {
      setError(errcodeReturn, CL_INVALID_DEVICE);
      return nullptr;
    }
  return createContext(properties, std::span(devices, numDevices), notify, userData, errcodeReturn);
}

cl_context CL_API_CALL clCreateContextFromType(const cl_context_properties *properties,
                                               cl_device_type type, _cl_context::Notify notify,
                                               void *userData, cl_int *errcodeReturn) {
  if (!notify && userData) {
    setError(errcodeReturn, CL_INVALID_VALUE);
    return nullptr;
  }
  cl_device_id device = nullptr;
  if (cl_int error = api::clGetDeviceIDs(nullptr, type, 1, &device, nullptr); error != CL_SUCCESS) {
    setError(errcodeReturn, error);
    return nullptr;
  }
  return createContext(properties, std::span(&device, 1), notify, userData, errcodeReturn);
}

cl_int CL_API_CALL clRetainContext(cl_context context) {
  if (!isValid(context))
    return CL_INVALID_CONTEXT;
  return context->retain() ? CL_SUCCESS : CL_INVALID_CONTEXT;
}

cl_int CL_API_CALL clReleaseContext(cl_context context) {
  if (!isValid(context))
    return CL_INVALID_CONTEXT;
  return context->release() ? CL_SUCCESS : CL_INVALID_CONTEXT;
}

cl_int CL_API_CALL clGetContextInfo(cl_context context, cl_context_info param, size_t size,
                                    void *value, size_t *sizeReturn) {
  if (!isValid(context))
    return CL_INVALID_CONTEXT;
  InfoResult result(size, value, sizeReturn);
  switch (param) {
  case CL_CONTEXT_REFERENCE_COUNT:
    return result(context->referenceCount());
  case CL_CONTEXT_NUM_DEVICES:
    return result(cl_uint(context->devices.size()));
  case CL_CONTEXT_DEVICES:
    return result.array<cl_device_id>(context->deviceList());
  case CL_CONTEXT_PROPERTIES:
    return result.array<cl_context_properties>(context->properties);
  default:
    return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clSetContextDestructorCallback(cl_context context,
                                                  _cl_context::Destructor callback,
                                                  void *userData) {
  if (!isValid(context))
    return CL_INVALID_CONTEXT;
  if (!callback)
    return CL_INVALID_VALUE;
  context->addDestructorCallback(callback, userData);
  return CL_SUCCESS;
}

} // namespace lanewise::icd::api
