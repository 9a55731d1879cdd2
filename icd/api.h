// SPDX-License-Identifier: Apache-2.0
// Declarations of Lanewise's implementations of the OpenCL entry points. Each
// is declared from the ICD header's cl_api_* type, so a definition whose
// signature drifts from the API fails to link instead of corrupting a call.
#pragma once

#include <CL/cl.h>
#include <CL/cl_icd.h>

#include <type_traits>

// Entry points with a real implementation, by the file that defines them.
#define LANEWISE_PLATFORM_FUNCTIONS(X)                                                             \
  X(clGetPlatformIDs) X(clGetPlatformInfo) X(clGetDeviceIDs) X(clGetDeviceInfo)                    \
  X(clCreateSubDevices) X(clRetainDevice) X(clReleaseDevice) X(clGetDeviceAndHostTimer)            \
  X(clGetHostTimer) X(clUnloadCompiler) X(clUnloadPlatformCompiler)                                \
  X(clGetExtensionFunctionAddress) X(clGetExtensionFunctionAddressForPlatform)

#define LANEWISE_CONTEXT_FUNCTIONS(X)                                                              \
  X(clCreateContext) X(clCreateContextFromType) X(clRetainContext) X(clReleaseContext)             \
  X(clGetContextInfo) X(clSetContextDestructorCallback)

#define LANEWISE_QUEUE_FUNCTIONS(X)                                                                \
  X(clCreateCommandQueue) X(clCreateCommandQueueWithProperties) X(clRetainCommandQueue)            \
  X(clReleaseCommandQueue) X(clGetCommandQueueInfo) X(clSetCommandQueueProperty) X(clFlush)        \
  X(clFinish) X(clSetDefaultDeviceCommandQueue)

#define LANEWISE_EVENT_FUNCTIONS(X)                                                                \
  X(clWaitForEvents) X(clGetEventInfo) X(clRetainEvent) X(clReleaseEvent)                          \
  X(clGetEventProfilingInfo) X(clSetEventCallback) X(clCreateUserEvent) X(clSetUserEventStatus)    \
  X(clEnqueueMarker) X(clEnqueueWaitForEvents) X(clEnqueueBarrier)                                 \
  X(clEnqueueMarkerWithWaitList) X(clEnqueueBarrierWithWaitList)

#define LANEWISE_MEMORY_FUNCTIONS(X)                                                               \
  X(clCreateBuffer) X(clCreateBufferWithProperties) X(clCreateSubBuffer) X(clRetainMemObject)      \
  X(clReleaseMemObject) X(clGetMemObjectInfo) X(clSetMemObjectDestructorCallback)                  \
  X(clEnqueueReadBuffer) X(clEnqueueWriteBuffer) X(clEnqueueCopyBuffer) X(clEnqueueFillBuffer)     \
  X(clEnqueueReadBufferRect) X(clEnqueueWriteBufferRect) X(clEnqueueCopyBufferRect)                \
  X(clEnqueueMapBuffer) X(clEnqueueUnmapMemObject) X(clEnqueueMigrateMemObjects)

#define LANEWISE_IMAGE_FUNCTIONS(X)                                                                \
  X(clGetSupportedImageFormats) X(clCreateImage) X(clCreateImageWithProperties)                    \
  X(clCreateImage2D) X(clCreateImage3D) X(clGetImageInfo) X(clEnqueueReadImage)                    \
  X(clEnqueueWriteImage) X(clEnqueueCopyImage) X(clEnqueueCopyImageToBuffer)                       \
  X(clEnqueueCopyBufferToImage) X(clEnqueueMapImage) X(clEnqueueFillImage)

#define LANEWISE_SAMPLER_FUNCTIONS(X)                                                              \
  X(clCreateSampler) X(clCreateSamplerWithProperties) X(clRetainSampler) X(clReleaseSampler)       \
  X(clGetSamplerInfo)

#define LANEWISE_SVM_FUNCTIONS(X)                                                                  \
  X(clSVMAlloc) X(clSVMFree) X(clEnqueueSVMFree) X(clEnqueueSVMMemcpy) X(clEnqueueSVMMemFill)      \
  X(clEnqueueSVMMap) X(clEnqueueSVMUnmap) X(clEnqueueSVMMigrateMem)

#define LANEWISE_PROGRAM_FUNCTIONS(X)                                                              \
  X(clCreateProgramWithSource) X(clCreateProgramWithBinary) X(clCreateProgramWithIL)               \
  X(clCreateProgramWithBuiltInKernels) X(clRetainProgram) X(clReleaseProgram) X(clBuildProgram)    \
  X(clCompileProgram) X(clLinkProgram) X(clGetProgramInfo) X(clGetProgramBuildInfo)                \
  X(clSetProgramReleaseCallback) X(clSetProgramSpecializationConstant)

#define LANEWISE_KERNEL_FUNCTIONS(X)                                                               \
  X(clCreateKernel) X(clCreateKernelsInProgram) X(clCloneKernel) X(clRetainKernel)                 \
  X(clReleaseKernel) X(clSetKernelArg) X(clSetKernelArgSVMPointer) X(clSetKernelExecInfo)          \
  X(clGetKernelInfo) X(clGetKernelArgInfo) X(clGetKernelWorkGroupInfo) X(clGetKernelSubGroupInfo)  \
  X(clEnqueueNDRangeKernel) X(clEnqueueTask)

#define LANEWISE_API_FUNCTIONS(X)                                                                  \
  LANEWISE_PLATFORM_FUNCTIONS(X) LANEWISE_CONTEXT_FUNCTIONS(X) LANEWISE_QUEUE_FUNCTIONS(X)         \
  LANEWISE_EVENT_FUNCTIONS(X) LANEWISE_MEMORY_FUNCTIONS(X) LANEWISE_IMAGE_FUNCTIONS(X)             \
  LANEWISE_SAMPLER_FUNCTIONS(X) LANEWISE_SVM_FUNCTIONS(X) LANEWISE_PROGRAM_FUNCTIONS(X)            \
  LANEWISE_KERNEL_FUNCTIONS(X)

namespace lanewise::icd::api {
#define LANEWISE_DECLARE_ENTRY_POINT(name) std::remove_pointer_t<cl_api_##name> name;
LANEWISE_API_FUNCTIONS(LANEWISE_DECLARE_ENTRY_POINT)
#undef LANEWISE_DECLARE_ENTRY_POINT

// The cl_khr_icd entry point (the ICD loader finds it through
// clGetExtensionFunctionAddress).
cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint numEntries, cl_platform_id *platforms,
                                          cl_uint *numPlatforms);
} // namespace lanewise::icd::api
