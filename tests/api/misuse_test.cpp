// SPDX-License-Identifier: Apache-2.0
// API misuse: every entry point of Lanewise (icd/api.h) called with bad input
// (null handles, handles of the wrong kind, released handles, handles of
// another context, sizes and offsets out of range, bad flags, bad wait lists,
// bad kernel arguments and NDRanges). One row per call: the call, the error
// the OpenCL 3.0 API specification requires and the rule it comes from. Where
// the spec's order of checks leaves two errors possible, a row accepts either.
//
// Expected codes come from the specification (OpenCL-Docs v3.0.19,
// api/opencl_runtime_layer.asciidoc and api/opencl_platform_layer.asciidoc),
// never from an implementation. The process must survive the whole table.
// On Lanewise, a row whose failure concerns a context with a notification
// callback also expects a message through it that names the entry point.
//
// The table's rows are in three files by area: here platforms, devices,
// contexts, command queues and events; misuse_memory_test.cpp memory
// objects and their transfers; misuse_program_test.cpp programs, kernels and
// their enqueuing. What they share is in misuse_fixture.h.
#include "misuse_fixture.h"

#include <iterator>
#include <string>
#include <vector>

namespace lanewise::test::misuse {
namespace {

// clang-format off
const Row rows[] = {
// ---------------------------------------------------------------------------
// Platforms and devices (OpenCL 3.0 API, 4.1-4.3)
{"clGetPlatformIDs_ZeroEntriesWithList", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetPlatformIDs: CL_INVALID_VALUE if num_entries is equal to zero and platforms is not NULL",
 [](World &) { cl_platform_id p; return clGetPlatformIDs(0, &p, nullptr); }},
{"clGetPlatformIDs_NothingToReturn", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetPlatformIDs: CL_INVALID_VALUE if both num_platforms and platforms are NULL",
 [](World &) { return clGetPlatformIDs(0, nullptr, nullptr); }},
{"clGetPlatformInfo_UnknownParam", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetPlatformInfo: CL_INVALID_VALUE if param_name is not one of the supported values",
 [](World &w) { char v[64]; return clGetPlatformInfo(w.platform, 0x7777, sizeof v, v, nullptr); }},
{"clGetPlatformInfo_ValueTooSmall", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetPlatformInfo: CL_INVALID_VALUE if param_value_size is less than the size of the return type and param_value is not NULL",
 [](World &w) { char v[1]; return clGetPlatformInfo(w.platform, CL_PLATFORM_NAME, sizeof v, v, nullptr); }},
{"clGetPlatformInfo_DeviceAsPlatform", CL_INVALID_PLATFORM,
 "OpenCL 3.0 API, clGetPlatformInfo: CL_INVALID_PLATFORM if platform is not a valid platform",
 [](World &w) { size_t s; return clGetPlatformInfo(as<cl_platform_id>(w.device), CL_PLATFORM_NAME, 0, nullptr, &s); }, WrongKind},
{"clGetDeviceIDs_ZeroType", CL_INVALID_DEVICE_TYPE,
 "OpenCL 3.0 API, clGetDeviceIDs: CL_INVALID_DEVICE_TYPE if device_type is not a valid value",
 [](World &w) { cl_uint n; return clGetDeviceIDs(w.platform, 0, 0, nullptr, &n); }, None, "PoCL 3.1 returns CL_DEVICE_NOT_FOUND"},
{"clGetDeviceIDs_UnknownTypeBits", CL_INVALID_DEVICE_TYPE,
 "OpenCL 3.0 API, clGetDeviceIDs: CL_INVALID_DEVICE_TYPE if device_type is not a valid value",
 [](World &w) { cl_uint n; return clGetDeviceIDs(w.platform, cl_device_type{1} << 40, 0, nullptr, &n); }, None, "PoCL 3.1 returns CL_DEVICE_NOT_FOUND"},
{"clGetDeviceIDs_ZeroEntriesWithList", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetDeviceIDs: CL_INVALID_VALUE if num_entries is equal to zero and devices is not NULL",
 [](World &w) { cl_device_id d; return clGetDeviceIDs(w.platform, CL_DEVICE_TYPE_ALL, 0, &d, nullptr); }},
{"clGetDeviceIDs_NothingToReturn", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetDeviceIDs: CL_INVALID_VALUE if both num_devices and devices are NULL",
 [](World &w) { return clGetDeviceIDs(w.platform, CL_DEVICE_TYPE_ALL, 0, nullptr, nullptr); }},
{"clGetDeviceIDs_NoSuchType", CL_DEVICE_NOT_FOUND,
 "OpenCL 3.0 API, clGetDeviceIDs: CL_DEVICE_NOT_FOUND if no OpenCL devices that matched device_type were found (the CPU platforms under test have no GPU)",
 [](World &w) { cl_device_id d; return clGetDeviceIDs(w.platform, CL_DEVICE_TYPE_GPU, 1, &d, nullptr); }},
{"clGetDeviceIDs_ContextAsPlatform", CL_INVALID_PLATFORM,
 "OpenCL 3.0 API, clGetDeviceIDs: CL_INVALID_PLATFORM if platform is not a valid platform",
 [](World &w) { cl_uint n; return clGetDeviceIDs(as<cl_platform_id>(w.context), CL_DEVICE_TYPE_ALL, 0, nullptr, &n); }, WrongKind},
{"clGetDeviceInfo_Null", CL_INVALID_DEVICE,
 "OpenCL 3.0 API, clGetDeviceInfo: CL_INVALID_DEVICE if device is not a valid device",
 [](World &) { cl_uint v; return clGetDeviceInfo(nullptr, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof v, &v, nullptr); }},
{"clGetDeviceInfo_ContextAsDevice", CL_INVALID_DEVICE,
 "OpenCL 3.0 API, clGetDeviceInfo: CL_INVALID_DEVICE if device is not a valid device",
 [](World &w) { cl_uint v; return clGetDeviceInfo(as<cl_device_id>(w.context), CL_DEVICE_MAX_COMPUTE_UNITS, sizeof v, &v, nullptr); }, WrongKind},
{"clGetDeviceInfo_UnknownParam", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetDeviceInfo: CL_INVALID_VALUE if param_name is not one of the supported values",
 [](World &w) { char v[64]; return clGetDeviceInfo(w.device, 0x7777, sizeof v, v, nullptr); }},
{"clGetDeviceInfo_StringTooSmall", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetDeviceInfo: CL_INVALID_VALUE if param_value_size is less than the size of the return type and param_value is not NULL",
 [](World &w) { char v[1]; return clGetDeviceInfo(w.device, CL_DEVICE_NAME, sizeof v, v, nullptr); }},
{"clGetDeviceInfo_ScalarTooSmall", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetDeviceInfo: CL_INVALID_VALUE if param_value_size is less than the size of the return type and param_value is not NULL",
 [](World &w) { cl_ushort v; return clGetDeviceInfo(w.device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof v, &v, nullptr); }},
{"clCreateSubDevices_Null", CL_INVALID_DEVICE,
 "OpenCL 3.0 API, clCreateSubDevices: CL_INVALID_DEVICE if in_device is not a valid device",
 [](World &) { const cl_device_partition_property p[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0}; cl_uint n; return clCreateSubDevices(nullptr, p, 0, nullptr, &n); }},
{"clCreateSubDevices_UnknownProperty", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateSubDevices: CL_INVALID_VALUE if values specified in properties are not valid",
 [](World &w) { const cl_device_partition_property p[] = {0x7777, 1, 0}; cl_uint n; return clCreateSubDevices(w.device, p, 0, nullptr, &n); }},
{"clRetainDevice_Null", CL_INVALID_DEVICE,
 "OpenCL 3.0 API, clRetainDevice: CL_INVALID_DEVICE if device is not a valid device",
 [](World &) { return clRetainDevice(nullptr); }},
{"clReleaseDevice_QueueAsDevice", CL_INVALID_DEVICE,
 "OpenCL 3.0 API, clReleaseDevice: CL_INVALID_DEVICE if device is not a valid device",
 [](World &w) { return clReleaseDevice(as<cl_device_id>(w.queue)); }, WrongKind},
{"clGetDeviceAndHostTimer_NoDeviceTimestamp", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetDeviceAndHostTimer: CL_INVALID_VALUE if host_timestamp or device_timestamp is NULL",
 [](World &w) { cl_ulong h; return clGetDeviceAndHostTimer(w.device, nullptr, &h); }, None, "PoCL 3.1 returns CL_INVALID_OPERATION (no timer support) before the checks on the arguments"},
{"clGetDeviceAndHostTimer_ContextAsDevice", CL_INVALID_DEVICE,
 "OpenCL 3.0 API, clGetDeviceAndHostTimer: CL_INVALID_DEVICE if device is not a valid device",
 [](World &w) { cl_ulong d, h; return clGetDeviceAndHostTimer(as<cl_device_id>(w.context), &d, &h); }, WrongKind},
{"clGetHostTimer_NoTimestamp", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetHostTimer: CL_INVALID_VALUE if host_timestamp is NULL",
 [](World &w) { return clGetHostTimer(w.device, nullptr); }, None, "PoCL 3.1 returns CL_INVALID_OPERATION (no timer support) before the checks on the arguments"},
{"clGetHostTimer_Null", CL_INVALID_DEVICE,
 "OpenCL 3.0 API, clGetHostTimer: CL_INVALID_DEVICE if device is not a valid device",
 [](World &) { cl_ulong h; return clGetHostTimer(nullptr, &h); }},
{"clUnloadPlatformCompiler_DeviceAsPlatform", CL_INVALID_PLATFORM,
 "OpenCL 3.0 API, clUnloadPlatformCompiler: CL_INVALID_PLATFORM if platform is not a valid platform",
 [](World &w) { return clUnloadPlatformCompiler(as<cl_platform_id>(w.device)); }, WrongKind},
{"clUnloadCompiler_AlwaysSucceeds", CL_SUCCESS,
 "OpenCL 3.0 API, clUnloadCompiler: always returns CL_SUCCESS (deprecated by clUnloadPlatformCompiler)",
 [](World &) { return clUnloadCompiler(); }},
{"clGetExtensionFunctionAddressForPlatform_UnknownName", returnedNull,
 "OpenCL 3.0 API, clGetExtensionFunctionAddressForPlatform: NULL for a function name the platform does not know",
 [](World &w) { return clGetExtensionFunctionAddressForPlatform(w.platform, "clNoSuchFunctionXYZ") ? CL_SUCCESS : returnedNull; }},
{"clGetExtensionFunctionAddress_UnknownName", returnedNull,
 "OpenCL 3.0 API, clGetExtensionFunctionAddress: NULL for a function name no platform knows",
 [](World &) { return clGetExtensionFunctionAddress("clNoSuchFunctionXYZ") ? CL_SUCCESS : returnedNull; }},

// ---------------------------------------------------------------------------
// Contexts (4.4)
{"clCreateContext_NoDevices", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateContext: CL_INVALID_VALUE if devices is NULL or num_devices is equal to zero",
 [](World &w) { return created(clCreateContext(nullptr, 0, &w.device, nullptr, nullptr, &w.error), w.error); }},
{"clCreateContext_NullDeviceList", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateContext: CL_INVALID_VALUE if devices is NULL",
 [](World &w) { return created(clCreateContext(nullptr, 1, nullptr, nullptr, nullptr, &w.error), w.error); }},
{"clCreateContext_QueueAsDevice", CL_INVALID_DEVICE,
 "OpenCL 3.0 API, clCreateContext: CL_INVALID_DEVICE if any device in devices is not a valid device",
 [](World &w) { cl_device_id d[] = {w.device, as<cl_device_id>(w.queue)}; return created(clCreateContext(nullptr, 2, d, nullptr, nullptr, &w.error), w.error); }, WrongKind},
{"clCreateContext_UserDataWithoutCallback", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateContext: CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL",
 [](World &w) { return created(clCreateContext(nullptr, 1, &w.device, nullptr, &w, &w.error), w.error); }},
{"clCreateContext_UnknownProperty", CL_INVALID_PROPERTY,
 "OpenCL 3.0 API, clCreateContext: CL_INVALID_PROPERTY if context property name in properties is not a supported property name",
 [](World &w) { const cl_context_properties p[] = {0x7777, 0, 0}; return created(clCreateContext(p, 1, &w.device, nullptr, nullptr, &w.error), w.error); }},
{"clCreateContext_PlatformTwice", CL_INVALID_PROPERTY,
 "OpenCL 3.0 API, clCreateContext: CL_INVALID_PROPERTY if the same property name is specified more than once",
 [](World &w) { const auto p = reinterpret_cast<cl_context_properties>(w.platform); const cl_context_properties ps[] = {CL_CONTEXT_PLATFORM, p, CL_CONTEXT_PLATFORM, p, 0}; return created(clCreateContext(ps, 1, &w.device, nullptr, nullptr, &w.error), w.error); }},
{"clCreateContext_DeviceAsPlatform", CL_INVALID_PLATFORM,
 "OpenCL 3.0 API, clCreateContext: CL_INVALID_PLATFORM if properties is NULL and no platform could be selected or if platform value specified in properties is not a valid platform",
 [](World &w) { const cl_context_properties p[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(w.device), 0}; return created(clCreateContext(p, 1, &w.device, nullptr, nullptr, &w.error), w.error); }, WrongKind},
{"clCreateContextFromType_ZeroType", CL_INVALID_DEVICE_TYPE,
 "OpenCL 3.0 API, clCreateContextFromType: CL_INVALID_DEVICE_TYPE if device_type is not a valid value",
 [](World &w) { const cl_context_properties p[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(w.platform), 0}; return created(clCreateContextFromType(p, 0, nullptr, nullptr, &w.error), w.error); }, None, "PoCL 3.1 returns CL_DEVICE_NOT_FOUND"},
{"clCreateContextFromType_NoSuchType", CL_DEVICE_NOT_FOUND,
 "OpenCL 3.0 API, clCreateContextFromType: CL_DEVICE_NOT_FOUND if no devices that match device_type and property values specified in properties are currently available",
 [](World &w) { const cl_context_properties p[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(w.platform), 0}; return created(clCreateContextFromType(p, CL_DEVICE_TYPE_GPU, nullptr, nullptr, &w.error), w.error); }, None, "PoCL 3.1 aborts (pocl_llvm_release_context: Assertion `data' failed)"},
{"clCreateContextFromType_UserDataWithoutCallback", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateContextFromType: CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL",
 [](World &w) { const cl_context_properties p[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(w.platform), 0}; return created(clCreateContextFromType(p, CL_DEVICE_TYPE_ALL, nullptr, &w, &w.error), w.error); }},
{"clCreateContextFromType_UnknownProperty", CL_INVALID_PROPERTY,
 "OpenCL 3.0 API, clCreateContextFromType: CL_INVALID_PROPERTY if context property name in properties is not a supported property name",
 [](World &w) { const cl_context_properties p[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(w.platform), 0x7777, 0, 0}; return created(clCreateContextFromType(p, CL_DEVICE_TYPE_ALL, nullptr, nullptr, &w.error), w.error); }},
{"clRetainContext_Null", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clRetainContext: CL_INVALID_CONTEXT if context is not a valid OpenCL context",
 [](World &) { return clRetainContext(nullptr); }},
{"clRetainContext_QueueAsContext", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clRetainContext: CL_INVALID_CONTEXT if context is not a valid OpenCL context",
 [](World &w) { return clRetainContext(as<cl_context>(w.queue)); }, WrongKind},
{"clReleaseContext_Released", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clReleaseContext: CL_INVALID_CONTEXT if context is not a valid OpenCL context",
 [](World &w) { return clReleaseContext(w.releasedContext()); }, ReleasedHandle},
{"clGetContextInfo_UnknownParam", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetContextInfo: CL_INVALID_VALUE if param_name is not one of the supported values",
 [](World &w) { char v[64]; return clGetContextInfo(w.context, 0x7777, sizeof v, v, nullptr); }},
{"clGetContextInfo_ValueTooSmall", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetContextInfo: CL_INVALID_VALUE if the size in bytes specified by param_value_size is less than the size of the return type and param_value is not NULL",
 [](World &w) { cl_ushort v; return clGetContextInfo(w.context, CL_CONTEXT_NUM_DEVICES, sizeof v, &v, nullptr); }},
{"clGetContextInfo_Released", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clGetContextInfo: CL_INVALID_CONTEXT if context is not a valid context",
 [](World &w) { cl_uint v; return clGetContextInfo(w.releasedContext(), CL_CONTEXT_NUM_DEVICES, sizeof v, &v, nullptr); }, ReleasedHandle},
{"clGetContextInfo_MemAsContext", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clGetContextInfo: CL_INVALID_CONTEXT if context is not a valid context",
 [](World &w) { cl_uint v; return clGetContextInfo(as<cl_context>(w.buffer), CL_CONTEXT_NUM_DEVICES, sizeof v, &v, nullptr); }, WrongKind},
{"clSetContextDestructorCallback_NoCallback", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clSetContextDestructorCallback: CL_INVALID_VALUE if pfn_notify is NULL",
 [](World &w) { return clSetContextDestructorCallback(w.context, nullptr, nullptr); }},
{"clSetContextDestructorCallback_EventAsContext", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clSetContextDestructorCallback: CL_INVALID_CONTEXT if context is not a valid context",
 [](World &w) { return clSetContextDestructorCallback(as<cl_context>(w.event), [](cl_context, void *) {}, nullptr); }, WrongKind},

// ---------------------------------------------------------------------------
// Command queues (5.1)
{"clCreateCommandQueueWithProperties_NullContext", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clCreateCommandQueueWithProperties: CL_INVALID_CONTEXT if context is not a valid context",
 [](World &w) { return created(clCreateCommandQueueWithProperties(nullptr, w.device, nullptr, &w.error), w.error); }},
{"clCreateCommandQueueWithProperties_ReleasedContext", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clCreateCommandQueueWithProperties: CL_INVALID_CONTEXT if context is not a valid context",
 [](World &w) { return created(clCreateCommandQueueWithProperties(w.releasedContext(), w.device, nullptr, &w.error), w.error); }, ReleasedHandle},
{"clCreateCommandQueueWithProperties_NullDevice", CL_INVALID_DEVICE,
 "OpenCL 3.0 API, clCreateCommandQueueWithProperties: CL_INVALID_DEVICE if device is not a valid device or is not associated with context",
 [](World &w) { return created(clCreateCommandQueueWithProperties(w.context, nullptr, nullptr, &w.error), w.error); }, Reports},
{"clCreateCommandQueueWithProperties_ContextAsDevice", CL_INVALID_DEVICE,
 "OpenCL 3.0 API, clCreateCommandQueueWithProperties: CL_INVALID_DEVICE if device is not a valid device or is not associated with context",
 [](World &w) { return created(clCreateCommandQueueWithProperties(w.context, as<cl_device_id>(w.context), nullptr, &w.error), w.error); }, Reports | WrongKind},
{"clCreateCommandQueueWithProperties_UnknownBits", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateCommandQueueWithProperties: CL_INVALID_VALUE if values specified in properties are not valid",
 [](World &w) { const cl_queue_properties p[] = {CL_QUEUE_PROPERTIES, cl_queue_properties{1} << 20, 0}; return created(clCreateCommandQueueWithProperties(w.context, w.device, p, &w.error), w.error); }, Reports},
{"clCreateCommandQueueWithProperties_UnknownProperty", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateCommandQueueWithProperties: CL_INVALID_VALUE if values specified in properties are not valid",
 [](World &w) { const cl_queue_properties p[] = {0x7777, 0, 0}; return created(clCreateCommandQueueWithProperties(w.context, w.device, p, &w.error), w.error); }, Reports},
{"clCreateCommandQueueWithProperties_OnDeviceInOrder", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateCommandQueueWithProperties: CL_INVALID_VALUE if values specified in properties are not valid (CL_QUEUE_ON_DEVICE requires CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)",
 [](World &w) { const cl_queue_properties p[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE, 0}; return created(clCreateCommandQueueWithProperties(w.context, w.device, p, &w.error), w.error); }, Reports, "PoCL 3.1 aborts the process"},
{"clCreateCommandQueue_UnknownBits", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateCommandQueue: CL_INVALID_VALUE if values specified in properties are not valid",
 [](World &w) { return created(clCreateCommandQueue(w.context, w.device, cl_command_queue_properties{1} << 20, &w.error), w.error); }, Reports},
{"clCreateCommandQueue_MemAsContext", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clCreateCommandQueue: CL_INVALID_CONTEXT if context is not a valid context",
 [](World &w) { return created(clCreateCommandQueue(as<cl_context>(w.buffer), w.device, 0, &w.error), w.error); }, WrongKind},
{"clRetainCommandQueue_Null", CL_INVALID_COMMAND_QUEUE,
 "OpenCL 3.0 API, clRetainCommandQueue: CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue",
 [](World &) { return clRetainCommandQueue(nullptr); }},
{"clRetainCommandQueue_ContextAsQueue", CL_INVALID_COMMAND_QUEUE,
 "OpenCL 3.0 API, clRetainCommandQueue: CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue",
 [](World &w) { return clRetainCommandQueue(as<cl_command_queue>(w.context)); }, WrongKind},
{"clReleaseCommandQueue_Released", CL_INVALID_COMMAND_QUEUE,
 "OpenCL 3.0 API, clReleaseCommandQueue: CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue",
 [](World &w) { return clReleaseCommandQueue(w.releasedQueue()); }, ReleasedHandle},
{"clGetCommandQueueInfo_UnknownParam", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetCommandQueueInfo: CL_INVALID_VALUE if param_name is not one of the supported values",
 [](World &w) { char v[64]; return clGetCommandQueueInfo(w.queue, 0x7777, sizeof v, v, nullptr); }},
{"clGetCommandQueueInfo_ValueTooSmall", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetCommandQueueInfo: CL_INVALID_VALUE if param_value_size is less than the size of the return type and param_value is not NULL",
 [](World &w) { cl_uint v; return clGetCommandQueueInfo(w.queue, CL_QUEUE_CONTEXT, sizeof v, &v, nullptr); }},
{"clGetCommandQueueInfo_KernelAsQueue", CL_INVALID_COMMAND_QUEUE,
 "OpenCL 3.0 API, clGetCommandQueueInfo: CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue",
 [](World &w) { cl_context v; return clGetCommandQueueInfo(as<cl_command_queue>(w.kernel()), CL_QUEUE_CONTEXT, sizeof v, &v, nullptr); }, WrongKind},
{"clSetCommandQueueProperty_Null", CL_INVALID_COMMAND_QUEUE,
 "OpenCL 1.0 API, clSetCommandQueueProperty: CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue",
 [](World &) { return clSetCommandQueueProperty(nullptr, CL_QUEUE_PROFILING_ENABLE, CL_TRUE, nullptr); }},
{"clFlush_MemAsQueue", CL_INVALID_COMMAND_QUEUE,
 "OpenCL 3.0 API, clFlush: CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue",
 [](World &w) { return clFlush(as<cl_command_queue>(w.buffer)); }, WrongKind},
{"clFinish_Released", CL_INVALID_COMMAND_QUEUE,
 "OpenCL 3.0 API, clFinish: CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue",
 [](World &w) { return clFinish(w.releasedQueue()); }, ReleasedHandle},
{"clFinish_Null", CL_INVALID_COMMAND_QUEUE,
 "OpenCL 3.0 API, clFinish: CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue",
 [](World &) { return clFinish(nullptr); }},
{"clSetDefaultDeviceCommandQueue_HostQueue", {CL_INVALID_OPERATION, CL_INVALID_COMMAND_QUEUE},
 "OpenCL 3.0 API, clSetDefaultDeviceCommandQueue: CL_INVALID_OPERATION if device does not support a replaceable default on-device queue, CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue for device (either check may come first)",
 [](World &w) { return clSetDefaultDeviceCommandQueue(w.context, w.device, w.queue); }},
{"clSetDefaultDeviceCommandQueue_QueueAsContext", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clSetDefaultDeviceCommandQueue: CL_INVALID_CONTEXT if context is not a valid context",
 [](World &w) { return clSetDefaultDeviceCommandQueue(as<cl_context>(w.queue), w.device, w.queue); }, WrongKind},

// ---------------------------------------------------------------------------
// Events and user events (5.11, 5.12)
{"clWaitForEvents_ZeroEvents", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clWaitForEvents: CL_INVALID_VALUE if num_events is zero or event_list is NULL",
 [](World &w) { return clWaitForEvents(0, &w.event); }},
{"clWaitForEvents_NullList", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clWaitForEvents: CL_INVALID_VALUE if num_events is zero or event_list is NULL",
 [](World &) { return clWaitForEvents(1, nullptr); }},
{"clWaitForEvents_TwoContexts", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clWaitForEvents: CL_INVALID_CONTEXT if events specified in event_list do not belong to the same context",
 [](World &w) { const cl_event e[] = {w.event, w.otherEvent}; return clWaitForEvents(2, e); }},
{"clWaitForEvents_MemAsEvent", CL_INVALID_EVENT,
 "OpenCL 3.0 API, clWaitForEvents: CL_INVALID_EVENT if event objects specified in event_list are not valid event objects",
 [](World &w) { const cl_event e[] = {w.event, as<cl_event>(w.buffer)}; return clWaitForEvents(2, e); }, WrongKind},
{"clWaitForEvents_Released", CL_INVALID_EVENT,
 "OpenCL 3.0 API, clWaitForEvents: CL_INVALID_EVENT if event objects specified in event_list are not valid event objects",
 [](World &w) { const cl_event e[] = {w.releasedEvent()}; return clWaitForEvents(1, e); }, ReleasedHandle},
{"clGetEventInfo_Null", CL_INVALID_EVENT,
 "OpenCL 3.0 API, clGetEventInfo: CL_INVALID_EVENT if event is not a valid event object",
 [](World &) { cl_int v; return clGetEventInfo(nullptr, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof v, &v, nullptr); }},
{"clGetEventInfo_QueueAsEvent", CL_INVALID_EVENT,
 "OpenCL 3.0 API, clGetEventInfo: CL_INVALID_EVENT if event is not a valid event object",
 [](World &w) { cl_int v; return clGetEventInfo(as<cl_event>(w.queue), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof v, &v, nullptr); }, WrongKind},
{"clGetEventInfo_UnknownParam", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetEventInfo: CL_INVALID_VALUE if param_name is not valid",
 [](World &w) { char v[64]; return clGetEventInfo(w.event, 0x7777, sizeof v, v, nullptr); }},
{"clGetEventInfo_ValueTooSmall", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetEventInfo: CL_INVALID_VALUE if the size in bytes specified by param_value_size is less than the size of the return type and param_value is not NULL",
 [](World &w) { cl_ushort v; return clGetEventInfo(w.event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof v, &v, nullptr); }},
{"clRetainEvent_Released", CL_INVALID_EVENT,
 "OpenCL 3.0 API, clRetainEvent: CL_INVALID_EVENT if event is not a valid event object",
 [](World &w) { return clRetainEvent(w.releasedEvent()); }, ReleasedHandle},
{"clReleaseEvent_Null", CL_INVALID_EVENT,
 "OpenCL 3.0 API, clReleaseEvent: CL_INVALID_EVENT if event is not a valid event object",
 [](World &) { return clReleaseEvent(nullptr); }},
{"clGetEventProfilingInfo_UserEvent", CL_PROFILING_INFO_NOT_AVAILABLE,
 "OpenCL 3.0 API, clGetEventProfilingInfo: CL_PROFILING_INFO_NOT_AVAILABLE if event is a user event object",
 [](World &w) { cl_ulong v; return clGetEventProfilingInfo(w.event, CL_PROFILING_COMMAND_START, sizeof v, &v, nullptr); }},
{"clGetEventProfilingInfo_NoProfiling", CL_PROFILING_INFO_NOT_AVAILABLE,
 "OpenCL 3.0 API, clGetEventProfilingInfo: CL_PROFILING_INFO_NOT_AVAILABLE if the CL_QUEUE_PROFILING_ENABLE flag is not set for the command-queue",
 [](World &w) { cl_event e = nullptr; clEnqueueMarkerWithWaitList(w.queue, 0, nullptr, &e); clWaitForEvents(1, &e); cl_ulong v; cl_int r = clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof v, &v, nullptr); clReleaseEvent(e); return r; }},
{"clGetEventProfilingInfo_UnknownParam", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetEventProfilingInfo: CL_INVALID_VALUE if param_name is not one of the supported values",
 [](World &w) { const cl_queue_properties p[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0}; cl_command_queue q = clCreateCommandQueueWithProperties(w.context, w.device, p, &w.error); cl_event e = nullptr; clEnqueueMarkerWithWaitList(q, 0, nullptr, &e); clWaitForEvents(1, &e); cl_ulong v; cl_int r = clGetEventProfilingInfo(e, 0x7777, sizeof v, &v, nullptr); clReleaseEvent(e); clReleaseCommandQueue(q); return r; }},
{"clGetEventProfilingInfo_ValueTooSmall", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetEventProfilingInfo: CL_INVALID_VALUE if param_value_size is less than the size of the return type and param_value is not NULL",
 [](World &w) { const cl_queue_properties p[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0}; cl_command_queue q = clCreateCommandQueueWithProperties(w.context, w.device, p, &w.error); cl_event e = nullptr; clEnqueueMarkerWithWaitList(q, 0, nullptr, &e); clWaitForEvents(1, &e); cl_uint v; cl_int r = clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof v, &v, nullptr); clReleaseEvent(e); clReleaseCommandQueue(q); return r; }},
{"clGetEventProfilingInfo_ContextAsEvent", CL_INVALID_EVENT,
 "OpenCL 3.0 API, clGetEventProfilingInfo: CL_INVALID_EVENT if event is a not a valid event object",
 [](World &w) { cl_ulong v; return clGetEventProfilingInfo(as<cl_event>(w.context), CL_PROFILING_COMMAND_START, sizeof v, &v, nullptr); }, WrongKind},
{"clSetEventCallback_NoCallback", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clSetEventCallback: CL_INVALID_VALUE if pfn_event_notify is NULL",
 [](World &w) { return clSetEventCallback(w.event, CL_COMPLETE, nullptr, nullptr); }},
{"clSetEventCallback_QueuedType", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clSetEventCallback: CL_INVALID_VALUE if command_exec_callback_type is not CL_SUBMITTED, CL_RUNNING, or CL_COMPLETE",
 [](World &w) { return clSetEventCallback(w.event, CL_QUEUED, [](cl_event, cl_int, void *) {}, nullptr); }},
{"clSetEventCallback_Null", CL_INVALID_EVENT,
 "OpenCL 3.0 API, clSetEventCallback: CL_INVALID_EVENT if event is not a valid event object",
 [](World &) { return clSetEventCallback(nullptr, CL_COMPLETE, [](cl_event, cl_int, void *) {}, nullptr); }},
{"clCreateUserEvent_Null", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clCreateUserEvent: CL_INVALID_CONTEXT if context is not a valid context",
 [](World &w) { return created(clCreateUserEvent(nullptr, &w.error), w.error); }},
{"clCreateUserEvent_QueueAsContext", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clCreateUserEvent: CL_INVALID_CONTEXT if context is not a valid context",
 [](World &w) { return created(clCreateUserEvent(as<cl_context>(w.queue), &w.error), w.error); }, WrongKind},
{"clCreateUserEvent_ReleasedContext", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clCreateUserEvent: CL_INVALID_CONTEXT if context is not a valid context",
 [](World &w) { return created(clCreateUserEvent(w.releasedContext(), &w.error), w.error); }, ReleasedHandle},
{"clSetUserEventStatus_Submitted", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clSetUserEventStatus: CL_INVALID_VALUE if the execution_status is not CL_COMPLETE or a negative integer value",
 [](World &w) { return clSetUserEventStatus(w.newUserEvent(w.context), CL_SUBMITTED); }},
{"clSetUserEventStatus_Twice", CL_INVALID_OPERATION,
 "OpenCL 3.0 API, clSetUserEventStatus: CL_INVALID_OPERATION if the execution_status for event has already been changed by a previous call",
 [](World &w) { return clSetUserEventStatus(w.event, CL_COMPLETE); }},
{"clSetUserEventStatus_MarkerEvent", CL_INVALID_EVENT,
 "OpenCL 3.0 API, clSetUserEventStatus: CL_INVALID_EVENT if event is not a valid user event object",
 [](World &w) { cl_event e = nullptr; clEnqueueMarkerWithWaitList(w.queue, 0, nullptr, &e); clWaitForEvents(1, &e); cl_int r = clSetUserEventStatus(e, CL_COMPLETE); clReleaseEvent(e); return r; }},
{"clSetUserEventStatus_Null", CL_INVALID_EVENT,
 "OpenCL 3.0 API, clSetUserEventStatus: CL_INVALID_EVENT if event is not a valid user event object",
 [](World &) { return clSetUserEventStatus(nullptr, CL_COMPLETE); }},
{"clEnqueueMarkerWithWaitList_CountWithoutList", CL_INVALID_EVENT_WAIT_LIST,
 "OpenCL 3.0 API, clEnqueueMarkerWithWaitList: CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and num_events_in_wait_list > 0",
 [](World &w) { return clEnqueueMarkerWithWaitList(w.queue, 1, nullptr, nullptr); }, Reports},
{"clEnqueueMarkerWithWaitList_ListWithoutCount", CL_INVALID_EVENT_WAIT_LIST,
 "OpenCL 3.0 API, clEnqueueMarkerWithWaitList: CL_INVALID_EVENT_WAIT_LIST if event_wait_list is not NULL and num_events_in_wait_list is 0",
 [](World &w) { return clEnqueueMarkerWithWaitList(w.queue, 0, &w.event, nullptr); }, Reports},
{"clEnqueueMarkerWithWaitList_NullEvent", CL_INVALID_EVENT_WAIT_LIST,
 "OpenCL 3.0 API, clEnqueueMarkerWithWaitList: CL_INVALID_EVENT_WAIT_LIST if event objects in event_wait_list are not valid events",
 [](World &w) { const cl_event e[] = {w.event, nullptr}; return clEnqueueMarkerWithWaitList(w.queue, 2, e, nullptr); }, Reports},
{"clEnqueueMarkerWithWaitList_ReleasedEvent", CL_INVALID_EVENT_WAIT_LIST,
 "OpenCL 3.0 API, clEnqueueMarkerWithWaitList: CL_INVALID_EVENT_WAIT_LIST if event objects in event_wait_list are not valid events",
 [](World &w) { const cl_event e[] = {w.releasedEvent()}; return clEnqueueMarkerWithWaitList(w.queue, 1, e, nullptr); }, Reports | ReleasedHandle},
{"clEnqueueMarkerWithWaitList_OtherContextEvent", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clEnqueueMarkerWithWaitList: CL_INVALID_CONTEXT if the context associated with command_queue and events in event_wait_list are not the same",
 [](World &w) { return clEnqueueMarkerWithWaitList(w.queue, 1, &w.otherEvent, nullptr); }, Reports},
{"clEnqueueMarkerWithWaitList_ContextAsQueue", CL_INVALID_COMMAND_QUEUE,
 "OpenCL 3.0 API, clEnqueueMarkerWithWaitList: CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue",
 [](World &w) { return clEnqueueMarkerWithWaitList(as<cl_command_queue>(w.context), 0, nullptr, nullptr); }, WrongKind},
{"clEnqueueBarrierWithWaitList_CountWithoutList", CL_INVALID_EVENT_WAIT_LIST,
 "OpenCL 3.0 API, clEnqueueBarrierWithWaitList: CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and num_events_in_wait_list > 0",
 [](World &w) { return clEnqueueBarrierWithWaitList(w.queue, 2, nullptr, nullptr); }, Reports},
{"clEnqueueBarrierWithWaitList_OtherContextEvent", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clEnqueueBarrierWithWaitList: CL_INVALID_CONTEXT if the context associated with command_queue and events in event_wait_list are not the same",
 [](World &w) { const cl_event e[] = {w.event, w.otherEvent}; return clEnqueueBarrierWithWaitList(w.queue, 2, e, nullptr); }, Reports},
{"clEnqueueBarrierWithWaitList_Released", CL_INVALID_COMMAND_QUEUE,
 "OpenCL 3.0 API, clEnqueueBarrierWithWaitList: CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue",
 [](World &w) { return clEnqueueBarrierWithWaitList(w.releasedQueue(), 0, nullptr, nullptr); }, ReleasedHandle},
{"clEnqueueMarker_NoEvent", CL_INVALID_VALUE,
 "OpenCL 1.2 API, clEnqueueMarker: CL_INVALID_VALUE if event is a NULL value",
 [](World &w) { return clEnqueueMarker(w.queue, nullptr); }},
{"clEnqueueMarker_Null", CL_INVALID_COMMAND_QUEUE,
 "OpenCL 1.2 API, clEnqueueMarker: CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue",
 [](World &) { cl_event e; return clEnqueueMarker(nullptr, &e); }},
{"clEnqueueBarrier_MemAsQueue", CL_INVALID_COMMAND_QUEUE,
 "OpenCL 1.2 API, clEnqueueBarrier: CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue",
 [](World &w) { return clEnqueueBarrier(as<cl_command_queue>(w.buffer)); }, WrongKind},
{"clEnqueueWaitForEvents_ZeroEvents", CL_INVALID_VALUE,
 "OpenCL 1.2 API, clEnqueueWaitForEvents: CL_INVALID_VALUE if num_events is 0 or event_list is NULL",
 [](World &w) { return clEnqueueWaitForEvents(w.queue, 0, nullptr); }, None, "PoCL 3.1 exits the process"},
{"clEnqueueWaitForEvents_OtherContextEvent", CL_INVALID_CONTEXT,
 "OpenCL 1.2 API, clEnqueueWaitForEvents: CL_INVALID_CONTEXT if the context associated with command_queue and events in event_list are not the same",
 [](World &w) { return clEnqueueWaitForEvents(w.queue, 1, &w.otherEvent); }},
{"clEnqueueWaitForEvents_NullEvent", CL_INVALID_EVENT,
 "OpenCL 1.2 API, clEnqueueWaitForEvents: CL_INVALID_EVENT if event objects specified in event_list are not valid events",
 [](World &w) { const cl_event e[] = {nullptr}; return clEnqueueWaitForEvents(w.queue, 1, e); }, None, "PoCL 3.1 returns CL_INVALID_EVENT_WAIT_LIST"},
};
// clang-format on

// Every row of the table, in area order.
std::vector<Row> allRows() {
  std::vector<Row> all(std::begin(rows), std::end(rows));
  for (std::vector<Row> (*area)() : {memoryRows, programRows}) {
    const std::vector<Row> more = area();
    all.insert(all.end(), more.begin(), more.end());
  }
  return all;
}

class ApiMisuse : public ::testing::TestWithParam<Row> {};

bool svmSupported() {
  return deviceInfo<cl_device_svm_capabilities>(testDevice(), CL_DEVICE_SVM_CAPABILITIES) &
         CL_DEVICE_SVM_COARSE_GRAIN_BUFFER;
}

bool ilSupported() { return !deviceString(testDevice(), CL_DEVICE_IL_VERSION).empty(); }

TEST_P(ApiMisuse, Rejects) {
  const Row &row = GetParam();
  ASSERT_NE(testPlatform(), nullptr);
  if ((row.needs & ReleasedHandle) && !testingLanewise())
    GTEST_SKIP() << "a released handle: freed memory on this platform";
  if ((row.needs & WrongKind) && !testingLanewise())
    GTEST_SKIP() << "a handle of another kind, which PoCL does not check";
  if (row.poclDeviates && !testingLanewise())
    GTEST_SKIP() << "PoCL deviates: " << row.poclDeviates;
  if ((row.needs & Svm) && !svmSupported())
    GTEST_SKIP() << "the device has no coarse-grain SVM";
  if ((row.needs & IL) && !ilSupported())
    GTEST_SKIP() << "the device takes no intermediate language";

  World world;
  const cl_int result = row.call(world);
  EXPECT_TRUE(row.expected.accepts(result))
      << row.name << " returned " << errorName(result) << ", expected "
      << errorName(row.expected.first)
      << (row.expected.first != row.expected.second ? " or " + errorName(row.expected.second) : "")
      << "\n  " << row.rule;

  if ((row.needs & Reports) && testingLanewise() && result != CL_SUCCESS) {
    const std::string name = row.name;
    const std::string entryPoint = name.substr(0, name.find('_'));
    const std::vector<std::string> messages = world.messages();
    bool named = false;
    for (const std::string &message : messages)
      named |= message.find(entryPoint + ":") != std::string::npos &&
               message.find(errorName(result)) != std::string::npos;
    std::string all;
    for (const std::string &message : messages)
      all += "\n  " + message;
    EXPECT_TRUE(named) << "no message from " << entryPoint << " naming " << errorName(result)
                       << " reached the context's callback; messages:" << all;
  }
}

INSTANTIATE_TEST_SUITE_P(Misuse, ApiMisuse, ::testing::ValuesIn(allRows()),
                         [](const ::testing::TestParamInfo<Row> &info) {
                           return std::string(info.param.name);
                         });

} // namespace
} // namespace lanewise::test::misuse
