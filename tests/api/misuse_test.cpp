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
#include "common.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <mutex>
#include <ostream>
#include <string>
#include <vector>

namespace lanewise::test {
namespace {

// A pseudo error code for the calls that answer a misuse with a NULL pointer
// and have no errcode_ret (clSVMAlloc, clGetExtensionFunctionAddress*).
constexpr cl_int returnedNull = 1;

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

const char kernelSource[] = R"(
kernel void fill(global int *out, int value, local int *scratch) {
  if (get_local_id(0) == 0)
    scratch[0] = value;
  out[get_global_id(0)] = value;
}
__attribute__((reqd_work_group_size(4, 1, 1)))
kernel void fixed(global int *out) { out[get_global_id(0)] = 1; }
)";

// A SPIR-V 1.0 module for OpenCL: kernel "k" and a 32-bit specialization
// constant with SpecId 7 (assembled with spirv-as, checked with spirv-val
// --target-env opencl2.1).
const std::uint32_t specConstantModule[] = {
    0x07230203, 0x00010000, 0x00070000, 0x00000007, 0x00000000, 0x00020011, 0x00000004,
    0x00020011, 0x00000006, 0x0003000e, 0x00000002, 0x00000002, 0x0004000f, 0x00000006,
    0x00000001, 0x0000006b, 0x00040047, 0x00000002, 0x00000001, 0x00000007, 0x00020013,
    0x00000003, 0x00040015, 0x00000004, 0x00000020, 0x00000000, 0x00040032, 0x00000004,
    0x00000002, 0x00000001, 0x00030021, 0x00000005, 0x00000003, 0x00050036, 0x00000003,
    0x00000001, 0x00000000, 0x00000005, 0x000200f8, 0x00000006, 0x000100fd, 0x00010038};

constexpr size_t bufferSize = 1024;

// Any handle as a handle of another kind: its first word is still the ICD
// dispatch pointer, so the loader hands it to the platform, which must
// reject it.
template <typename To, typename From> To as(From handle) { return reinterpret_cast<To>(handle); }

void CL_CALLBACK recordMessage(const char *message, const void *, size_t, void *data);

// The objects a row misuses: a context with a notification callback and its
// queue, a second context and its queue, buffers and completed user events
// of both; programs, kernels and released handles are made on first use.
class World {
public:
  World() {
    platform = testPlatform();
    device = testDevice();
    const cl_context_properties properties[] = {
        CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform), 0};
    context = clCreateContext(properties, 1, &device, recordMessage, this, &error);
    otherContext = clCreateContext(properties, 1, &device, nullptr, nullptr, &error);
    queue = clCreateCommandQueueWithProperties(context, device, nullptr, &error);
    otherQueue = clCreateCommandQueueWithProperties(otherContext, device, nullptr, &error);
    buffer = newBuffer(CL_MEM_READ_WRITE);
    otherBuffer = clCreateBuffer(otherContext, CL_MEM_READ_WRITE, bufferSize, nullptr, &error);
    event = newUserEvent(context);
    clSetUserEventStatus(event, CL_COMPLETE);
    otherEvent = newUserEvent(otherContext);
    clSetUserEventStatus(otherEvent, CL_COMPLETE);
    error = CL_SUCCESS;
    messages_.clear();
  }

  ~World() {
    for (cl_event e : userEvents_) {
      cl_int status = CL_COMPLETE;
      clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
      if (status > CL_COMPLETE)
        clSetUserEventStatus(e, CL_COMPLETE);
    }
    clFinish(queue);
    clFinish(otherQueue);
    for (cl_event e : userEvents_)
      clReleaseEvent(e);
    for (cl_kernel k : kernels_)
      clReleaseKernel(k);
    for (cl_program p : programs_)
      clReleaseProgram(p);
    for (cl_mem m : buffers_)
      clReleaseMemObject(m);
    for (cl_sampler sampler : samplers_)
      clReleaseSampler(sampler);
    for (void *p : svm_)
      clSVMFree(context, p);
    clReleaseMemObject(otherBuffer);
    clReleaseCommandQueue(queue);
    clReleaseCommandQueue(otherQueue);
    clReleaseContext(context);
    clReleaseContext(otherContext);
  }

  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_context context = nullptr, otherContext = nullptr;
  cl_command_queue queue = nullptr, otherQueue = nullptr;
  cl_mem buffer = nullptr, otherBuffer = nullptr; // bufferSize bytes each
  cl_event event = nullptr, otherEvent = nullptr; // complete user events
  cl_int error = CL_SUCCESS;                      // the row's errcode_ret
  char host[4 * bufferSize] = {};                 // host memory for transfers

  cl_mem newBuffer(cl_mem_flags flags, size_t size = bufferSize, void *hostPointer = nullptr) {
    cl_int status = CL_SUCCESS;
    cl_mem made = clCreateBuffer(context, flags, size, hostPointer, &status);
    if (made)
      buffers_.push_back(made);
    return made;
  }

  cl_mem subBuffer(size_t origin, size_t size) {
    const cl_buffer_region region = {origin, size};
    cl_int status = CL_SUCCESS;
    cl_mem made = clCreateSubBuffer(buffer, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &status);
    if (made)
      buffers_.push_back(made);
    return made;
  }

  // A 16 x 16 (x 4) RGBA UNORM_INT8 image of `type` in `in` (the row's
  // context by default).
  cl_mem newImage(cl_mem_flags flags = CL_MEM_READ_WRITE,
                  cl_mem_object_type type = CL_MEM_OBJECT_IMAGE2D, cl_context in = nullptr) {
    const cl_image_format format = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc desc{};
    desc.image_type = type;
    desc.image_width = desc.image_height = 16;
    desc.image_depth = 4;
    cl_int status = CL_SUCCESS;
    cl_mem made = clCreateImage(in ? in : context, flags, &format, &desc, nullptr, &status);
    if (made)
      buffers_.push_back(made);
    return made;
  }

  cl_sampler newSampler() {
    cl_int status = CL_SUCCESS;
    cl_sampler made =
        clCreateSampler(context, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &status);
    if (made)
      samplers_.push_back(made);
    return made;
  }

  cl_event newUserEvent(cl_context in) {
    cl_event made = clCreateUserEvent(in, &error);
    if (made)
      userEvents_.push_back(made);
    return made;
  }

  // A program made from kernelSource, not built.
  cl_program sourceProgram() {
    const char *text = kernelSource;
    cl_int status = CL_SUCCESS;
    cl_program made = clCreateProgramWithSource(context, 1, &text, nullptr, &status);
    programs_.push_back(made);
    return made;
  }

  // kernelSource, built.
  cl_program program() {
    if (!program_) {
      program_ = sourceProgram();
      EXPECT_EQ(clBuildProgram(program_, 1, &device, nullptr, nullptr, nullptr), CL_SUCCESS);
    }
    return program_;
  }

  cl_kernel newKernel(const char *name = "fill") {
    cl_int status = CL_SUCCESS;
    cl_kernel made = clCreateKernel(program(), name, &status);
    EXPECT_EQ(status, CL_SUCCESS);
    kernels_.push_back(made);
    return made;
  }

  // "fill" without its arguments.
  cl_kernel kernel() {
    if (!kernel_)
      kernel_ = newKernel();
    return kernel_;
  }

  // "fill" with every argument set: 256 ints of `buffer`, a value, a local array.
  cl_kernel readyKernel() {
    cl_kernel k = kernel();
    const cl_int value = 7;
    EXPECT_EQ(clSetKernelArg(k, 0, sizeof(cl_mem), &buffer), CL_SUCCESS);
    EXPECT_EQ(clSetKernelArg(k, 1, sizeof value, &value), CL_SUCCESS);
    EXPECT_EQ(clSetKernelArg(k, 2, sizeof(cl_int), nullptr), CL_SUCCESS);
    return k;
  }

  // "fill" on a work-group of CL_KERNEL_WORK_GROUP_SIZE + 1 or more
  // work-items, each dimension within CL_DEVICE_MAX_WORK_ITEM_SIZES; its
  // output buffer is large enough should the launch be accepted.
  cl_int enqueueAboveKernelWorkGroupSize() {
    cl_kernel k = readyKernel();
    size_t most = 0, items[3] = {};
    clGetKernelWorkGroupInfo(k, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof most, &most, nullptr);
    clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof items, items, nullptr);
    const size_t y = std::min(items[1], size_t{2});
    const size_t x = std::min(items[0], most / y + 1);
    EXPECT_GT(x * y, most);
    cl_mem out = newBuffer(CL_MEM_READ_WRITE, x * sizeof(cl_int));
    clSetKernelArg(k, 0, sizeof out, &out);
    const size_t size[2] = {x, y};
    return clEnqueueNDRangeKernel(queue, k, 2, nullptr, size, size, 0, nullptr, nullptr);
  }

  // The binary of the built program, and a program made from it.
  cl_program binaryProgram() {
    size_t size = 0;
    clGetProgramInfo(program(), CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr);
    std::vector<unsigned char> binary(size);
    unsigned char *pointer = binary.data();
    clGetProgramInfo(program(), CL_PROGRAM_BINARIES, sizeof pointer, &pointer, nullptr);
    const unsigned char *binaries[] = {binary.data()};
    cl_int status = CL_SUCCESS;
    cl_program made =
        clCreateProgramWithBinary(context, 1, &device, &size, binaries, nullptr, &status);
    EXPECT_EQ(status, CL_SUCCESS);
    programs_.push_back(made);
    return made;
  }

  cl_program ilProgram() {
    cl_int status = CL_SUCCESS;
    cl_program made =
        clCreateProgramWithIL(context, specConstantModule, sizeof specConstantModule, &status);
    EXPECT_EQ(status, CL_SUCCESS);
    programs_.push_back(made);
    return made;
  }

  void *svm(size_t size = bufferSize) {
    void *made = clSVMAlloc(context, CL_MEM_READ_WRITE, size, 0);
    EXPECT_NE(made, nullptr);
    svm_.push_back(made);
    return made;
  }

  // Handles whose application reference was the last one, released.
  cl_context releasedContext() {
    cl_int status = CL_SUCCESS;
    cl_context made = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
    clReleaseContext(made);
    return made;
  }
  cl_command_queue releasedQueue() {
    cl_int status = CL_SUCCESS;
    cl_command_queue made = clCreateCommandQueueWithProperties(context, device, nullptr, &status);
    clReleaseCommandQueue(made);
    return made;
  }
  cl_mem releasedBuffer() {
    cl_int status = CL_SUCCESS;
    cl_mem made = clCreateBuffer(context, CL_MEM_READ_WRITE, bufferSize, nullptr, &status);
    clReleaseMemObject(made);
    return made;
  }
  cl_event releasedEvent() {
    cl_int status = CL_SUCCESS;
    cl_event made = clCreateUserEvent(context, &status);
    clSetUserEventStatus(made, CL_COMPLETE);
    clReleaseEvent(made);
    return made;
  }
  cl_program releasedProgram() {
    const char *text = kernelSource;
    cl_int status = CL_SUCCESS;
    cl_program made = clCreateProgramWithSource(context, 1, &text, nullptr, &status);
    clReleaseProgram(made);
    return made;
  }
  cl_kernel releasedKernel() {
    cl_int status = CL_SUCCESS;
    cl_kernel made = clCreateKernel(program(), "fill", &status);
    clReleaseKernel(made);
    return made;
  }

  void record(const char *message) {
    std::lock_guard lock(mutex_);
    messages_.emplace_back(message ? message : "");
  }
  std::vector<std::string> messages() {
    std::lock_guard lock(mutex_);
    return messages_;
  }

private:
  std::mutex mutex_;
  std::vector<std::string> messages_;
  cl_program program_ = nullptr;
  cl_kernel kernel_ = nullptr;
  std::vector<cl_event> userEvents_;
  std::vector<cl_kernel> kernels_;
  std::vector<cl_program> programs_;
  std::vector<cl_mem> buffers_;
  std::vector<cl_sampler> samplers_;
  std::vector<void *> svm_;
};

void CL_CALLBACK recordMessage(const char *message, const void *, size_t, void *data) {
  static_cast<World *>(data)->record(message);
}

// The errcode_ret of a call that creates an object, read after the call (by
// reference: argument evaluation order is unspecified); an object made by
// mistake is released.
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

// What a row needs of the platform under test.
enum Needs : unsigned {
  None = 0,
  // The row's context has a notification callback: on Lanewise, the call
  // reports a message that names the entry point.
  Reports = 1,
  // The row calls with a released handle. Lanewise keeps released handles
  // readable (icd/object.h); other platforms free them, and the call reads
  // freed memory, which the spec cannot require to be safe.
  ReleasedHandle = 2,
  // The row calls with a handle of another kind. PoCL does not check a
  // handle's kind: it accepts the handle or crashes.
  WrongKind = 4,
  Svm = 8, // coarse-grain SVM (CL_DEVICE_SVM_CAPABILITIES)
  IL = 16, // SPIR-V programs (CL_DEVICE_IL_VERSION)
};
constexpr Needs operator|(Needs a, Needs b) { return Needs(unsigned(a) | unsigned(b)); }

struct Codes {
  Codes(cl_int only) : first(only), second(only) {}
  Codes(cl_int first, cl_int second) : first(first), second(second) {}
  bool accepts(cl_int code) const { return code == first || code == second; }
  cl_int first, second;
};

struct Row {
  const char *name; // <entry point>_<misuse>
  Codes expected;
  const char *rule;
  std::function<cl_int(World &)> call;
  Needs needs = None;
  // Where PoCL (LANEWISE_TEST_PLATFORM=Portable) answers otherwise than the
  // spec, or crashes: the row is skipped on platforms other than Lanewise.
  const char *poclDeviates = nullptr;
};

void PrintTo(const Row &row, std::ostream *out) { *out << row.name; }

using Call = std::function<cl_int(World &)>;

const size_t one[3] = {1, 1, 1};
const size_t sixteen[3] = {16, 1, 1};

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

// ---------------------------------------------------------------------------
// Buffers and sub-buffers (5.2)
{"clCreateBuffer_NullContext", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clCreateBuffer: CL_INVALID_CONTEXT if context is not a valid context",
 [](World &w) { return created(clCreateBuffer(nullptr, 0, 64, nullptr, &w.error), w.error); }},
{"clCreateBuffer_QueueAsContext", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clCreateBuffer: CL_INVALID_CONTEXT if context is not a valid context",
 [](World &w) { return created(clCreateBuffer(as<cl_context>(w.queue), 0, 64, nullptr, &w.error), w.error); }, WrongKind},
{"clCreateBuffer_ReleasedContext", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clCreateBuffer: CL_INVALID_CONTEXT if context is not a valid context",
 [](World &w) { return created(clCreateBuffer(w.releasedContext(), 0, 64, nullptr, &w.error), w.error); }, ReleasedHandle},
{"clCreateBuffer_SizeZero", CL_INVALID_BUFFER_SIZE,
 "OpenCL 3.0 API, clCreateBuffer: CL_INVALID_BUFFER_SIZE if size is 0",
 [](World &w) { return created(clCreateBuffer(w.context, 0, 0, nullptr, &w.error), w.error); }, Reports},
{"clCreateBuffer_SizeAboveMaxAlloc", CL_INVALID_BUFFER_SIZE,
 "OpenCL 3.0 API, clCreateBuffer: CL_INVALID_BUFFER_SIZE if size is greater than CL_DEVICE_MAX_MEM_ALLOC_SIZE",
 [](World &w) { const auto max = deviceInfo<cl_ulong>(w.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE); return created(clCreateBuffer(w.context, 0, max + 1, nullptr, &w.error), w.error); }, Reports},
{"clCreateBuffer_ReadOnlyAndWriteOnly", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateBuffer: CL_INVALID_VALUE if values specified in flags are not valid (CL_MEM_READ_ONLY and CL_MEM_WRITE_ONLY are mutually exclusive)",
 [](World &w) { return created(clCreateBuffer(w.context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, nullptr, &w.error), w.error); }, Reports},
{"clCreateBuffer_UnknownFlag", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateBuffer: CL_INVALID_VALUE if values specified in flags are not valid",
 [](World &w) { return created(clCreateBuffer(w.context, cl_mem_flags{1} << 40, 64, nullptr, &w.error), w.error); }, Reports},
{"clCreateBuffer_UseAndAllocHostPointer", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateBuffer: CL_INVALID_VALUE if values specified in flags are not valid (CL_MEM_USE_HOST_PTR and CL_MEM_ALLOC_HOST_PTR are mutually exclusive)",
 [](World &w) { return created(clCreateBuffer(w.context, CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, 64, w.host, &w.error), w.error); }, Reports},
{"clCreateBuffer_UseAndCopyHostPointer", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateBuffer: CL_INVALID_VALUE if values specified in flags are not valid (CL_MEM_USE_HOST_PTR and CL_MEM_COPY_HOST_PTR are mutually exclusive)",
 [](World &w) { return created(clCreateBuffer(w.context, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 64, w.host, &w.error), w.error); }, Reports},
{"clCreateBuffer_TwoHostAccessFlags", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateBuffer: CL_INVALID_VALUE if values specified in flags are not valid (CL_MEM_HOST_WRITE_ONLY and CL_MEM_HOST_READ_ONLY are mutually exclusive)",
 [](World &w) { return created(clCreateBuffer(w.context, CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY, 64, nullptr, &w.error), w.error); }, Reports},
{"clCreateBuffer_UseHostPointerWithoutPointer", CL_INVALID_HOST_PTR,
 "OpenCL 3.0 API, clCreateBuffer: CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR are set in flags",
 [](World &w) { return created(clCreateBuffer(w.context, CL_MEM_USE_HOST_PTR, 64, nullptr, &w.error), w.error); }, Reports},
{"clCreateBuffer_CopyHostPointerWithoutPointer", CL_INVALID_HOST_PTR,
 "OpenCL 3.0 API, clCreateBuffer: CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR are set in flags",
 [](World &w) { return created(clCreateBuffer(w.context, CL_MEM_COPY_HOST_PTR, 64, nullptr, &w.error), w.error); }, Reports},
{"clCreateBuffer_PointerWithoutHostFlag", CL_INVALID_HOST_PTR,
 "OpenCL 3.0 API, clCreateBuffer: CL_INVALID_HOST_PTR if host_ptr is not NULL but CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR are not set in flags",
 [](World &w) { return created(clCreateBuffer(w.context, CL_MEM_READ_WRITE, 64, w.host, &w.error), w.error); }, Reports},
{"clCreateBufferWithProperties_UnknownProperty", CL_INVALID_PROPERTY,
 "OpenCL 3.0 API, clCreateBufferWithProperties: CL_INVALID_PROPERTY if a property name in properties is not a supported property name",
 [](World &w) { const cl_mem_properties p[] = {0x7777, 1, 0}; return created(clCreateBufferWithProperties(w.context, p, 0, 64, nullptr, &w.error), w.error); }, Reports},
{"clCreateBufferWithProperties_SizeZero", CL_INVALID_BUFFER_SIZE,
 "OpenCL 3.0 API, clCreateBufferWithProperties: CL_INVALID_BUFFER_SIZE if size is 0",
 [](World &w) { return created(clCreateBufferWithProperties(w.context, nullptr, 0, 0, nullptr, &w.error), w.error); }, Reports},
{"clCreateSubBuffer_Null", CL_INVALID_MEM_OBJECT,
 "OpenCL 3.0 API, clCreateSubBuffer: CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object",
 [](World &w) { const cl_buffer_region r = {0, 64}; return created(clCreateSubBuffer(nullptr, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &w.error), w.error); }},
{"clCreateSubBuffer_KernelAsBuffer", CL_INVALID_MEM_OBJECT,
 "OpenCL 3.0 API, clCreateSubBuffer: CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object",
 [](World &w) { const cl_buffer_region r = {0, 64}; return created(clCreateSubBuffer(as<cl_mem>(w.kernel()), 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &w.error), w.error); }, WrongKind},
{"clCreateSubBuffer_Released", CL_INVALID_MEM_OBJECT,
 "OpenCL 3.0 API, clCreateSubBuffer: CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object",
 [](World &w) { const cl_buffer_region r = {0, 64}; return created(clCreateSubBuffer(w.releasedBuffer(), 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &w.error), w.error); }, ReleasedHandle},
{"clCreateSubBuffer_OfSubBuffer", CL_INVALID_MEM_OBJECT,
 "OpenCL 3.0 API, clCreateSubBuffer: CL_INVALID_MEM_OBJECT if buffer is a sub-buffer object",
 [](World &w) { const cl_buffer_region r = {0, 64}; return created(clCreateSubBuffer(w.subBuffer(0, 256), 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &w.error), w.error); }, Reports},
{"clCreateSubBuffer_UnknownType", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateSubBuffer: CL_INVALID_VALUE if the value specified in buffer_create_type is not valid",
 [](World &w) { const cl_buffer_region r = {0, 64}; return created(clCreateSubBuffer(w.buffer, 0, 0x7777, &r, &w.error), w.error); }, Reports},
{"clCreateSubBuffer_NoRegion", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateSubBuffer: CL_INVALID_VALUE if value(s) specified in buffer_create_info (for a given buffer_create_type) is not valid or if buffer_create_info is NULL",
 [](World &w) { return created(clCreateSubBuffer(w.buffer, 0, CL_BUFFER_CREATE_TYPE_REGION, nullptr, &w.error), w.error); }, Reports},
{"clCreateSubBuffer_RegionPastEnd", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateSubBuffer: CL_INVALID_VALUE if the region specified by the cl_buffer_region structure passed in buffer_create_info is out of bounds in buffer",
 [](World &w) { const cl_buffer_region r = {bufferSize - 128, 256}; return created(clCreateSubBuffer(w.buffer, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &w.error), w.error); }, Reports},
{"clCreateSubBuffer_OriginOverflows", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateSubBuffer: CL_INVALID_VALUE if the region specified by the cl_buffer_region structure passed in buffer_create_info is out of bounds in buffer",
 [](World &w) { const cl_buffer_region r = {SIZE_MAX - 127, 256}; return created(clCreateSubBuffer(w.buffer, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &w.error), w.error); }, Reports, "PoCL 3.1 accepts the region (origin + size wraps around)"},
{"clCreateSubBuffer_SizeZero", CL_INVALID_BUFFER_SIZE,
 "OpenCL 3.0 API, clCreateSubBuffer: CL_INVALID_BUFFER_SIZE if the size field of the cl_buffer_region structure passed in buffer_create_info is 0",
 [](World &w) { const cl_buffer_region r = {0, 0}; return created(clCreateSubBuffer(w.buffer, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &w.error), w.error); }, Reports},
{"clCreateSubBuffer_MisalignedOrigin", CL_MISALIGNED_SUB_BUFFER_OFFSET,
 "OpenCL 3.0 API, clCreateSubBuffer: CL_MISALIGNED_SUB_BUFFER_OFFSET if there are no devices in context associated with buffer for which the origin field of the cl_buffer_region structure passed in buffer_create_info is aligned to the CL_DEVICE_MEM_BASE_ADDR_ALIGN value",
 [](World &w) { const cl_buffer_region r = {1, 64}; return created(clCreateSubBuffer(w.buffer, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &w.error), w.error); }, Reports},
{"clCreateSubBuffer_WidensDeviceAccess", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateSubBuffer: CL_INVALID_VALUE if buffer was created with CL_MEM_WRITE_ONLY and flags specifies CL_MEM_READ_WRITE or CL_MEM_READ_ONLY",
 [](World &w) { const cl_buffer_region r = {0, 64}; return created(clCreateSubBuffer(w.newBuffer(CL_MEM_WRITE_ONLY), CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &w.error), w.error); }, Reports},
{"clCreateSubBuffer_WidensHostAccess", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateSubBuffer: CL_INVALID_VALUE if buffer was created with CL_MEM_HOST_NO_ACCESS and flags specify CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_WRITE_ONLY",
 [](World &w) { const cl_buffer_region r = {0, 64}; return created(clCreateSubBuffer(w.newBuffer(CL_MEM_HOST_NO_ACCESS), CL_MEM_HOST_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &r, &w.error), w.error); }, Reports},
{"clCreateSubBuffer_HostPointerFlag", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateSubBuffer: CL_INVALID_VALUE if flags specifies CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR or CL_MEM_COPY_HOST_PTR (values specified in flags are not valid)",
 [](World &w) { const cl_buffer_region r = {0, 64}; return created(clCreateSubBuffer(w.buffer, CL_MEM_ALLOC_HOST_PTR, CL_BUFFER_CREATE_TYPE_REGION, &r, &w.error), w.error); }, Reports},
{"clRetainMemObject_Null", CL_INVALID_MEM_OBJECT,
 "OpenCL 3.0 API, clRetainMemObject: CL_INVALID_MEM_OBJECT if memobj is not a valid memory object",
 [](World &) { return clRetainMemObject(nullptr); }},
{"clRetainMemObject_EventAsMem", CL_INVALID_MEM_OBJECT,
 "OpenCL 3.0 API, clRetainMemObject: CL_INVALID_MEM_OBJECT if memobj is not a valid memory object",
 [](World &w) { return clRetainMemObject(as<cl_mem>(w.event)); }, WrongKind},
{"clReleaseMemObject_Released", CL_INVALID_MEM_OBJECT,
 "OpenCL 3.0 API, clReleaseMemObject: CL_INVALID_MEM_OBJECT if memobj is not a valid memory object",
 [](World &w) { return clReleaseMemObject(w.releasedBuffer()); }, ReleasedHandle},
{"clGetMemObjectInfo_UnknownParam", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetMemObjectInfo: CL_INVALID_VALUE if param_name is not valid",
 [](World &w) { char v[64]; return clGetMemObjectInfo(w.buffer, 0x7777, sizeof v, v, nullptr); }},
{"clGetMemObjectInfo_ValueTooSmall", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetMemObjectInfo: CL_INVALID_VALUE if the size in bytes specified by param_value_size is less than the size of the return type and param_value is not NULL",
 [](World &w) { cl_uint v; return clGetMemObjectInfo(w.buffer, CL_MEM_SIZE, sizeof v, &v, nullptr); }},
{"clGetMemObjectInfo_ProgramAsMem", CL_INVALID_MEM_OBJECT,
 "OpenCL 3.0 API, clGetMemObjectInfo: CL_INVALID_MEM_OBJECT if memobj is a not a valid memory object",
 [](World &w) { size_t v; return clGetMemObjectInfo(as<cl_mem>(w.sourceProgram()), CL_MEM_SIZE, sizeof v, &v, nullptr); }, WrongKind},
{"clGetMemObjectInfo_Released", CL_INVALID_MEM_OBJECT,
 "OpenCL 3.0 API, clGetMemObjectInfo: CL_INVALID_MEM_OBJECT if memobj is a not a valid memory object",
 [](World &w) { size_t v; return clGetMemObjectInfo(w.releasedBuffer(), CL_MEM_SIZE, sizeof v, &v, nullptr); }, ReleasedHandle},
{"clSetMemObjectDestructorCallback_NoCallback", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clSetMemObjectDestructorCallback: CL_INVALID_VALUE if pfn_notify is NULL",
 [](World &w) { return clSetMemObjectDestructorCallback(w.buffer, nullptr, nullptr); }},
{"clSetMemObjectDestructorCallback_Null", CL_INVALID_MEM_OBJECT,
 "OpenCL 3.0 API, clSetMemObjectDestructorCallback: CL_INVALID_MEM_OBJECT if memobj is not a valid memory object",
 [](World &) { return clSetMemObjectDestructorCallback(nullptr, [](cl_mem, void *) {}, nullptr); }},

// ---------------------------------------------------------------------------
// Reading, writing, copying and filling buffers (5.2.2-5.2.4)
{"clEnqueueReadBuffer_NullQueue", CL_INVALID_COMMAND_QUEUE,
 "OpenCL 3.0 API, clEnqueueReadBuffer: CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue",
 [](World &w) { return clEnqueueReadBuffer(nullptr, w.buffer, CL_TRUE, 0, 64, w.host, 0, nullptr, nullptr); }},
{"clEnqueueReadBuffer_ReleasedQueue", CL_INVALID_COMMAND_QUEUE,
 "OpenCL 3.0 API, clEnqueueReadBuffer: CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue",
 [](World &w) { return clEnqueueReadBuffer(w.releasedQueue(), w.buffer, CL_TRUE, 0, 64, w.host, 0, nullptr, nullptr); }, ReleasedHandle},
{"clEnqueueReadBuffer_NullBuffer", CL_INVALID_MEM_OBJECT,
 "OpenCL 3.0 API, clEnqueueReadBuffer: CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object",
 [](World &w) { return clEnqueueReadBuffer(w.queue, nullptr, CL_TRUE, 0, 64, w.host, 0, nullptr, nullptr); }, Reports},
{"clEnqueueReadBuffer_QueueAsBuffer", CL_INVALID_MEM_OBJECT,
 "OpenCL 3.0 API, clEnqueueReadBuffer: CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object",
 [](World &w) { return clEnqueueReadBuffer(w.queue, as<cl_mem>(w.queue), CL_TRUE, 0, 64, w.host, 0, nullptr, nullptr); }, Reports | WrongKind},
{"clEnqueueReadBuffer_ReleasedBuffer", CL_INVALID_MEM_OBJECT,
 "OpenCL 3.0 API, clEnqueueReadBuffer: CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object",
 [](World &w) { return clEnqueueReadBuffer(w.queue, w.releasedBuffer(), CL_TRUE, 0, 64, w.host, 0, nullptr, nullptr); }, Reports | ReleasedHandle},
{"clEnqueueReadBuffer_OtherContextBuffer", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clEnqueueReadBuffer: CL_INVALID_CONTEXT if the context associated with command_queue and buffer are not the same",
 [](World &w) { return clEnqueueReadBuffer(w.queue, w.otherBuffer, CL_TRUE, 0, 64, w.host, 0, nullptr, nullptr); }, Reports},
{"clEnqueueReadBuffer_PastEnd", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueReadBuffer: CL_INVALID_VALUE if the region being read specified by (offset, size) is out of bounds",
 [](World &w) { return clEnqueueReadBuffer(w.queue, w.buffer, CL_TRUE, bufferSize - 16, 64, w.host, 0, nullptr, nullptr); }, Reports},
{"clEnqueueReadBuffer_OffsetOverflows", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueReadBuffer: CL_INVALID_VALUE if the region being read specified by (offset, size) is out of bounds",
 [](World &w) { return clEnqueueReadBuffer(w.queue, w.buffer, CL_TRUE, SIZE_MAX - 15, 64, w.host, 0, nullptr, nullptr); }, Reports},
{"clEnqueueReadBuffer_SizeZero", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueReadBuffer: CL_INVALID_VALUE if ptr is NULL or size is 0",
 [](World &w) { return clEnqueueReadBuffer(w.queue, w.buffer, CL_TRUE, 0, 0, w.host, 0, nullptr, nullptr); }, Reports, "PoCL 3.1 accepts a size of 0"},
{"clEnqueueReadBuffer_NullPointer", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueReadBuffer: CL_INVALID_VALUE if ptr is NULL or size is 0",
 [](World &w) { return clEnqueueReadBuffer(w.queue, w.buffer, CL_TRUE, 0, 64, nullptr, 0, nullptr, nullptr); }, Reports},
{"clEnqueueReadBuffer_CountWithoutList", CL_INVALID_EVENT_WAIT_LIST,
 "OpenCL 3.0 API, clEnqueueReadBuffer: CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and num_events_in_wait_list > 0",
 [](World &w) { return clEnqueueReadBuffer(w.queue, w.buffer, CL_TRUE, 0, 64, w.host, 1, nullptr, nullptr); }, Reports},
{"clEnqueueReadBuffer_ListWithoutCount", CL_INVALID_EVENT_WAIT_LIST,
 "OpenCL 3.0 API, clEnqueueReadBuffer: CL_INVALID_EVENT_WAIT_LIST if event_wait_list is not NULL and num_events_in_wait_list is 0",
 [](World &w) { return clEnqueueReadBuffer(w.queue, w.buffer, CL_TRUE, 0, 64, w.host, 0, &w.event, nullptr); }, Reports},
{"clEnqueueReadBuffer_OtherContextEvent", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clEnqueueReadBuffer: CL_INVALID_CONTEXT if the context associated with command_queue and events in event_wait_list are not the same",
 [](World &w) { return clEnqueueReadBuffer(w.queue, w.buffer, CL_TRUE, 0, 64, w.host, 1, &w.otherEvent, nullptr); }, Reports},
{"clEnqueueReadBuffer_MemAsEvent", CL_INVALID_EVENT_WAIT_LIST,
 "OpenCL 3.0 API, clEnqueueReadBuffer: CL_INVALID_EVENT_WAIT_LIST if event objects in event_wait_list are not valid events",
 [](World &w) { const cl_event e[] = {as<cl_event>(w.buffer)}; return clEnqueueReadBuffer(w.queue, w.buffer, CL_TRUE, 0, 64, w.host, 1, e, nullptr); }, Reports | WrongKind},
{"clEnqueueReadBuffer_HostWriteOnly", CL_INVALID_OPERATION,
 "OpenCL 3.0 API, clEnqueueReadBuffer: CL_INVALID_OPERATION if clEnqueueReadBuffer is called on buffer which has been created with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS",
 [](World &w) { return clEnqueueReadBuffer(w.queue, w.newBuffer(CL_MEM_HOST_WRITE_ONLY), CL_TRUE, 0, 64, w.host, 0, nullptr, nullptr); }, Reports},
{"clEnqueueWriteBuffer_ContextAsQueue", CL_INVALID_COMMAND_QUEUE,
 "OpenCL 3.0 API, clEnqueueWriteBuffer: CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue",
 [](World &w) { return clEnqueueWriteBuffer(as<cl_command_queue>(w.context), w.buffer, CL_TRUE, 0, 64, w.host, 0, nullptr, nullptr); }, WrongKind},
{"clEnqueueWriteBuffer_OtherContextBuffer", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clEnqueueWriteBuffer: CL_INVALID_CONTEXT if the context associated with command_queue and buffer are not the same",
 [](World &w) { return clEnqueueWriteBuffer(w.queue, w.otherBuffer, CL_TRUE, 0, 64, w.host, 0, nullptr, nullptr); }, Reports},
{"clEnqueueWriteBuffer_EventAsBuffer", CL_INVALID_MEM_OBJECT,
 "OpenCL 3.0 API, clEnqueueWriteBuffer: CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object",
 [](World &w) { return clEnqueueWriteBuffer(w.queue, as<cl_mem>(w.event), CL_TRUE, 0, 64, w.host, 0, nullptr, nullptr); }, Reports | WrongKind},
{"clEnqueueWriteBuffer_PastEnd", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueWriteBuffer: CL_INVALID_VALUE if the region being written specified by (offset, size) is out of bounds",
 [](World &w) { return clEnqueueWriteBuffer(w.queue, w.buffer, CL_TRUE, 0, bufferSize + 1, w.host, 0, nullptr, nullptr); }, Reports},
{"clEnqueueWriteBuffer_SubBufferPastEnd", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueWriteBuffer: CL_INVALID_VALUE if the region being written specified by (offset, size) is out of bounds (of the sub-buffer, not of its parent)",
 [](World &w) { return clEnqueueWriteBuffer(w.queue, w.subBuffer(0, 256), CL_TRUE, 128, 256, w.host, 0, nullptr, nullptr); }, Reports},
{"clEnqueueWriteBuffer_NullPointer", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueWriteBuffer: CL_INVALID_VALUE if ptr is NULL or size is 0",
 [](World &w) { return clEnqueueWriteBuffer(w.queue, w.buffer, CL_TRUE, 0, 64, nullptr, 0, nullptr, nullptr); }, Reports},
{"clEnqueueWriteBuffer_HostReadOnly", CL_INVALID_OPERATION,
 "OpenCL 3.0 API, clEnqueueWriteBuffer: CL_INVALID_OPERATION if clEnqueueWriteBuffer is called on buffer which has been created with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS",
 [](World &w) { return clEnqueueWriteBuffer(w.queue, w.newBuffer(CL_MEM_HOST_READ_ONLY), CL_TRUE, 0, 64, w.host, 0, nullptr, nullptr); }, Reports},
{"clEnqueueWriteBuffer_ReleasedEvent", CL_INVALID_EVENT_WAIT_LIST,
 "OpenCL 3.0 API, clEnqueueWriteBuffer: CL_INVALID_EVENT_WAIT_LIST if event objects in event_wait_list are not valid events",
 [](World &w) { const cl_event e[] = {w.releasedEvent()}; return clEnqueueWriteBuffer(w.queue, w.buffer, CL_TRUE, 0, 64, w.host, 1, e, nullptr); }, Reports | ReleasedHandle},
{"clEnqueueCopyBuffer_NullSource", CL_INVALID_MEM_OBJECT,
 "OpenCL 3.0 API, clEnqueueCopyBuffer: CL_INVALID_MEM_OBJECT if src_buffer and dst_buffer are not valid buffer objects",
 [](World &w) { return clEnqueueCopyBuffer(w.queue, nullptr, w.buffer, 0, 0, 64, 0, nullptr, nullptr); }, Reports},
{"clEnqueueCopyBuffer_OtherContextDestination", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clEnqueueCopyBuffer: CL_INVALID_CONTEXT if the context associated with command_queue, src_buffer and dst_buffer are not the same",
 [](World &w) { return clEnqueueCopyBuffer(w.queue, w.buffer, w.otherBuffer, 0, 0, 64, 0, nullptr, nullptr); }, Reports},
{"clEnqueueCopyBuffer_SourcePastEnd", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueCopyBuffer: CL_INVALID_VALUE if src_offset, dst_offset, size, src_offset + size or dst_offset + size require accessing elements outside the src_buffer and dst_buffer buffer objects respectively",
 [](World &w) { return clEnqueueCopyBuffer(w.queue, w.buffer, w.newBuffer(0), bufferSize - 32, 0, 64, 0, nullptr, nullptr); }, Reports},
{"clEnqueueCopyBuffer_DestinationPastEnd", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueCopyBuffer: CL_INVALID_VALUE if src_offset, dst_offset, size, src_offset + size or dst_offset + size require accessing elements outside the src_buffer and dst_buffer buffer objects respectively",
 [](World &w) { return clEnqueueCopyBuffer(w.queue, w.buffer, w.newBuffer(0), 0, bufferSize, 64, 0, nullptr, nullptr); }, Reports},
{"clEnqueueCopyBuffer_SizeZero", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueCopyBuffer: CL_INVALID_VALUE if size is 0",
 [](World &w) { return clEnqueueCopyBuffer(w.queue, w.buffer, w.newBuffer(0), 0, 0, 0, 0, nullptr, nullptr); }, Reports},
{"clEnqueueCopyBuffer_Overlap", CL_MEM_COPY_OVERLAP,
 "OpenCL 3.0 API, clEnqueueCopyBuffer: CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are the same buffer or sub-buffer object and the source and destination regions overlap",
 [](World &w) { return clEnqueueCopyBuffer(w.queue, w.buffer, w.buffer, 0, 32, 64, 0, nullptr, nullptr); }, Reports},
{"clEnqueueCopyBuffer_OverlappingSubBuffers", CL_MEM_COPY_OVERLAP,
 "OpenCL 3.0 API, clEnqueueCopyBuffer: CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are different sub-buffers of the same associated buffer object and they overlap",
 [](World &w) { const size_t align = deviceInfo<cl_uint>(w.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8; return clEnqueueCopyBuffer(w.queue, w.subBuffer(0, 2 * align), w.subBuffer(align, 2 * align), 0, 0, 2 * align, 0, nullptr, nullptr); }, Reports},
{"clEnqueueCopyBuffer_ListWithoutCount", CL_INVALID_EVENT_WAIT_LIST,
 "OpenCL 3.0 API, clEnqueueCopyBuffer: CL_INVALID_EVENT_WAIT_LIST if event_wait_list is not NULL and num_events_in_wait_list is 0",
 [](World &w) { return clEnqueueCopyBuffer(w.queue, w.buffer, w.newBuffer(0), 0, 0, 64, 0, &w.event, nullptr); }, Reports},
{"clEnqueueFillBuffer_NullPattern", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueFillBuffer: CL_INVALID_VALUE if pattern is NULL or if pattern_size is 0 or if pattern_size is not one of { 1, 2, 4, 8, 16, 32, 64, 128 }",
 [](World &w) { return clEnqueueFillBuffer(w.queue, w.buffer, nullptr, 4, 0, 64, 0, nullptr, nullptr); }, Reports},
{"clEnqueueFillBuffer_PatternSizeZero", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueFillBuffer: CL_INVALID_VALUE if pattern is NULL or if pattern_size is 0 or if pattern_size is not one of { 1, 2, 4, 8, 16, 32, 64, 128 }",
 [](World &w) { return clEnqueueFillBuffer(w.queue, w.buffer, w.host, 0, 0, 64, 0, nullptr, nullptr); }, Reports},
{"clEnqueueFillBuffer_PatternSizeThree", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueFillBuffer: CL_INVALID_VALUE if pattern_size is not one of { 1, 2, 4, 8, 16, 32, 64, 128 }",
 [](World &w) { return clEnqueueFillBuffer(w.queue, w.buffer, w.host, 3, 0, 63, 0, nullptr, nullptr); }, Reports},
{"clEnqueueFillBuffer_PatternSize256", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueFillBuffer: CL_INVALID_VALUE if pattern_size is not one of { 1, 2, 4, 8, 16, 32, 64, 128 }",
 [](World &w) { return clEnqueueFillBuffer(w.queue, w.buffer, w.host, 256, 0, 512, 0, nullptr, nullptr); }, Reports},
{"clEnqueueFillBuffer_OffsetNotMultiple", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueFillBuffer: CL_INVALID_VALUE if offset and size are not a multiple of pattern_size",
 [](World &w) { return clEnqueueFillBuffer(w.queue, w.buffer, w.host, 4, 2, 64, 0, nullptr, nullptr); }, Reports},
{"clEnqueueFillBuffer_SizeNotMultiple", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueFillBuffer: CL_INVALID_VALUE if offset and size are not a multiple of pattern_size",
 [](World &w) { return clEnqueueFillBuffer(w.queue, w.buffer, w.host, 4, 0, 62, 0, nullptr, nullptr); }, Reports},
{"clEnqueueFillBuffer_PastEnd", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueFillBuffer: CL_INVALID_VALUE if offset or offset + size require accessing elements outside the buffer buffer object",
 [](World &w) { return clEnqueueFillBuffer(w.queue, w.buffer, w.host, 4, bufferSize - 4, 64, 0, nullptr, nullptr); }, Reports},
{"clEnqueueFillBuffer_OtherContextBuffer", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clEnqueueFillBuffer: CL_INVALID_CONTEXT if the context associated with command_queue and buffer are not the same",
 [](World &w) { return clEnqueueFillBuffer(w.queue, w.otherBuffer, w.host, 4, 0, 64, 0, nullptr, nullptr); }, Reports},
{"clEnqueueFillBuffer_KernelAsBuffer", CL_INVALID_MEM_OBJECT,
 "OpenCL 3.0 API, clEnqueueFillBuffer: CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object",
 [](World &w) { return clEnqueueFillBuffer(w.queue, as<cl_mem>(w.kernel()), w.host, 4, 0, 64, 0, nullptr, nullptr); }, Reports | WrongKind},

// ---------------------------------------------------------------------------
// Rectangular transfers (5.2.3)
{"clEnqueueReadBufferRect_NullPointer", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueReadBufferRect: CL_INVALID_VALUE if ptr is NULL",
 [](World &w) { const size_t o[3] = {0, 0, 0}, r[3] = {8, 8, 1}; return clEnqueueReadBufferRect(w.queue, w.buffer, CL_TRUE, o, o, r, 0, 0, 0, 0, nullptr, 0, nullptr, nullptr); }, Reports},
{"clEnqueueReadBufferRect_RegionZero", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueReadBufferRect: CL_INVALID_VALUE if any region array element is 0",
 [](World &w) { const size_t o[3] = {0, 0, 0}, r[3] = {8, 0, 1}; return clEnqueueReadBufferRect(w.queue, w.buffer, CL_TRUE, o, o, r, 0, 0, 0, 0, w.host, 0, nullptr, nullptr); }, Reports},
{"clEnqueueReadBufferRect_NullOrigin", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueReadBufferRect: CL_INVALID_VALUE if buffer_origin, host_origin or region is NULL",
 [](World &w) { const size_t o[3] = {0, 0, 0}, r[3] = {8, 8, 1}; return clEnqueueReadBufferRect(w.queue, w.buffer, CL_TRUE, nullptr, o, r, 0, 0, 0, 0, w.host, 0, nullptr, nullptr); }, Reports},
{"clEnqueueReadBufferRect_RowPitchBelowRegion", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueReadBufferRect: CL_INVALID_VALUE if buffer_row_pitch is not 0 and is less than region[0]",
 [](World &w) { const size_t o[3] = {0, 0, 0}, r[3] = {8, 8, 1}; return clEnqueueReadBufferRect(w.queue, w.buffer, CL_TRUE, o, o, r, 4, 0, 0, 0, w.host, 0, nullptr, nullptr); }, Reports},
{"clEnqueueReadBufferRect_HostRowPitchBelowRegion", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueReadBufferRect: CL_INVALID_VALUE if host_row_pitch is not 0 and is less than region[0]",
 [](World &w) { const size_t o[3] = {0, 0, 0}, r[3] = {8, 8, 1}; return clEnqueueReadBufferRect(w.queue, w.buffer, CL_TRUE, o, o, r, 0, 0, 4, 0, w.host, 0, nullptr, nullptr); }, Reports},
{"clEnqueueReadBufferRect_SlicePitchNotMultiple", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueReadBufferRect: CL_INVALID_VALUE if buffer_slice_pitch is not 0 and is less than region[1] x buffer_row_pitch and not a multiple of buffer_row_pitch",
 [](World &w) { const size_t o[3] = {0, 0, 0}, r[3] = {8, 8, 2}; return clEnqueueReadBufferRect(w.queue, w.buffer, CL_TRUE, o, o, r, 16, 20, 0, 0, w.host, 0, nullptr, nullptr); }, Reports},
{"clEnqueueReadBufferRect_PastEnd", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueReadBufferRect: CL_INVALID_VALUE if the region being read specified by (buffer_origin, region, buffer_row_pitch, buffer_slice_pitch) is out of bounds",
 [](World &w) { const size_t bo[3] = {0, 0, 1}, o[3] = {0, 0, 0}, r[3] = {32, 32, 1}; return clEnqueueReadBufferRect(w.queue, w.buffer, CL_TRUE, bo, o, r, 0, 0, 0, 0, w.host, 0, nullptr, nullptr); }, Reports},
{"clEnqueueReadBufferRect_OtherContextBuffer", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clEnqueueReadBufferRect: CL_INVALID_CONTEXT if the context associated with command_queue and buffer are not the same",
 [](World &w) { const size_t o[3] = {0, 0, 0}, r[3] = {8, 8, 1}; return clEnqueueReadBufferRect(w.queue, w.otherBuffer, CL_TRUE, o, o, r, 0, 0, 0, 0, w.host, 0, nullptr, nullptr); }, Reports},
{"clEnqueueReadBufferRect_NullBuffer", CL_INVALID_MEM_OBJECT,
 "OpenCL 3.0 API, clEnqueueReadBufferRect: CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object",
 [](World &w) { const size_t o[3] = {0, 0, 0}, r[3] = {8, 8, 1}; return clEnqueueReadBufferRect(w.queue, nullptr, CL_TRUE, o, o, r, 0, 0, 0, 0, w.host, 0, nullptr, nullptr); }, Reports},
{"clEnqueueReadBufferRect_HostNoAccess", CL_INVALID_OPERATION,
 "OpenCL 3.0 API, clEnqueueReadBufferRect: CL_INVALID_OPERATION if clEnqueueReadBufferRect is called on buffer which has been created with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS",
 [](World &w) { const size_t o[3] = {0, 0, 0}, r[3] = {8, 8, 1}; return clEnqueueReadBufferRect(w.queue, w.newBuffer(CL_MEM_HOST_NO_ACCESS), CL_TRUE, o, o, r, 0, 0, 0, 0, w.host, 0, nullptr, nullptr); }, Reports},
{"clEnqueueWriteBufferRect_RegionZero", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueWriteBufferRect: CL_INVALID_VALUE if any region array element is 0",
 [](World &w) { const size_t o[3] = {0, 0, 0}, r[3] = {0, 8, 1}; return clEnqueueWriteBufferRect(w.queue, w.buffer, CL_TRUE, o, o, r, 0, 0, 0, 0, w.host, 0, nullptr, nullptr); }, Reports},
{"clEnqueueWriteBufferRect_PastEnd", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueWriteBufferRect: CL_INVALID_VALUE if the region being written specified by (buffer_origin, region, buffer_row_pitch, buffer_slice_pitch) is out of bounds",
 [](World &w) { const size_t bo[3] = {1, 0, 0}, o[3] = {0, 0, 0}, r[3] = {32, 32, 1}; return clEnqueueWriteBufferRect(w.queue, w.buffer, CL_TRUE, bo, o, r, 32, 0, 0, 0, w.host, 0, nullptr, nullptr); }, Reports},
{"clEnqueueWriteBufferRect_HostSlicePitchTooSmall", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueWriteBufferRect: CL_INVALID_VALUE if host_slice_pitch is not 0 and is less than region[1] x host_row_pitch and not a multiple of host_row_pitch",
 [](World &w) { const size_t o[3] = {0, 0, 0}, r[3] = {8, 8, 2}; return clEnqueueWriteBufferRect(w.queue, w.buffer, CL_TRUE, o, o, r, 0, 0, 8, 12, w.host, 0, nullptr, nullptr); }, Reports},
{"clEnqueueWriteBufferRect_HostReadOnly", CL_INVALID_OPERATION,
 "OpenCL 3.0 API, clEnqueueWriteBufferRect: CL_INVALID_OPERATION if clEnqueueWriteBufferRect is called on buffer which has been created with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS",
 [](World &w) { const size_t o[3] = {0, 0, 0}, r[3] = {8, 8, 1}; return clEnqueueWriteBufferRect(w.queue, w.newBuffer(CL_MEM_HOST_READ_ONLY), CL_TRUE, o, o, r, 0, 0, 0, 0, w.host, 0, nullptr, nullptr); }, Reports},
{"clEnqueueWriteBufferRect_CountWithoutList", CL_INVALID_EVENT_WAIT_LIST,
 "OpenCL 3.0 API, clEnqueueWriteBufferRect: CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and num_events_in_wait_list > 0",
 [](World &w) { const size_t o[3] = {0, 0, 0}, r[3] = {8, 8, 1}; return clEnqueueWriteBufferRect(w.queue, w.buffer, CL_TRUE, o, o, r, 0, 0, 0, 0, w.host, 3, nullptr, nullptr); }, Reports},
{"clEnqueueCopyBufferRect_Overlap", CL_MEM_COPY_OVERLAP,
 "OpenCL 3.0 API, clEnqueueCopyBufferRect: CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are the same buffer or sub-buffer object and the source and destination regions overlap",
 [](World &w) { const size_t so[3] = {0, 0, 0}, d[3] = {4, 4, 0}, r[3] = {8, 8, 1}; return clEnqueueCopyBufferRect(w.queue, w.buffer, w.buffer, so, d, r, 32, 0, 32, 0, 0, nullptr, nullptr); }, Reports},
{"clEnqueueCopyBufferRect_SameBufferPitchesDiffer", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueCopyBufferRect: CL_INVALID_VALUE if src_buffer and dst_buffer are the same buffer object and src_slice_pitch is not equal to dst_slice_pitch and src_row_pitch is not equal to dst_row_pitch",
 [](World &w) { const size_t so[3] = {0, 0, 0}, d[3] = {0, 16, 0}, r[3] = {8, 4, 1}; return clEnqueueCopyBufferRect(w.queue, w.buffer, w.buffer, so, d, r, 16, 0, 32, 0, 0, nullptr, nullptr); }, Reports},
{"clEnqueueCopyBufferRect_PastEnd", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueCopyBufferRect: CL_INVALID_VALUE if (src_origin, region, src_row_pitch, src_slice_pitch) or (dst_origin, region, dst_row_pitch, dst_slice_pitch) require accessing elements outside the src_buffer and dst_buffer buffer objects respectively",
 [](World &w) { const size_t so[3] = {0, 0, 0}, d[3] = {0, 0, 0}, r[3] = {64, 64, 1}; return clEnqueueCopyBufferRect(w.queue, w.buffer, w.newBuffer(0), so, d, r, 0, 0, 0, 0, 0, nullptr, nullptr); }, Reports},
{"clEnqueueCopyBufferRect_RegionZero", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueCopyBufferRect: CL_INVALID_VALUE if any region array element is 0",
 [](World &w) { const size_t so[3] = {0, 0, 0}, r[3] = {8, 8, 0}; return clEnqueueCopyBufferRect(w.queue, w.buffer, w.newBuffer(0), so, so, r, 0, 0, 0, 0, 0, nullptr, nullptr); }, Reports},
{"clEnqueueCopyBufferRect_OtherContextSource", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clEnqueueCopyBufferRect: CL_INVALID_CONTEXT if the context associated with command_queue, src_buffer and dst_buffer are not the same",
 [](World &w) { const size_t so[3] = {0, 0, 0}, r[3] = {8, 8, 1}; return clEnqueueCopyBufferRect(w.queue, w.otherBuffer, w.buffer, so, so, r, 0, 0, 0, 0, 0, nullptr, nullptr); }, Reports},

// ---------------------------------------------------------------------------
// Mapping and migrating (5.2.5, 5.5)
{"clEnqueueMapBuffer_SizeZero", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueMapBuffer: CL_INVALID_VALUE if region being mapped given by (offset, size) is out of bounds or if size is 0",
 [](World &w) { void *p = clEnqueueMapBuffer(w.queue, w.buffer, CL_TRUE, CL_MAP_READ, 0, 0, 0, nullptr, nullptr, &w.error); return mapped(w, w.buffer, p, w.error); }, Reports},
{"clEnqueueMapBuffer_PastEnd", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueMapBuffer: CL_INVALID_VALUE if region being mapped given by (offset, size) is out of bounds",
 [](World &w) { void *p = clEnqueueMapBuffer(w.queue, w.buffer, CL_TRUE, CL_MAP_READ, 512, 1024, 0, nullptr, nullptr, &w.error); return mapped(w, w.buffer, p, w.error); }, Reports},
{"clEnqueueMapBuffer_ReadAndInvalidate", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueMapBuffer: CL_INVALID_VALUE if values specified in map_flags are not valid (CL_MAP_WRITE_INVALIDATE_REGION is mutually exclusive with CL_MAP_READ and CL_MAP_WRITE)",
 [](World &w) { void *p = clEnqueueMapBuffer(w.queue, w.buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 64, 0, nullptr, nullptr, &w.error); return mapped(w, w.buffer, p, w.error); }, Reports, "PoCL 3.1 accepts the flags"},
{"clEnqueueMapBuffer_UnknownFlag", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueMapBuffer: CL_INVALID_VALUE if values specified in map_flags are not valid",
 [](World &w) { void *p = clEnqueueMapBuffer(w.queue, w.buffer, CL_TRUE, cl_map_flags{1} << 20, 0, 64, 0, nullptr, nullptr, &w.error); return mapped(w, w.buffer, p, w.error); }, Reports, "PoCL 3.1 accepts the flags"},
{"clEnqueueMapBuffer_ReadHostNoAccess", CL_INVALID_OPERATION,
 "OpenCL 3.0 API, clEnqueueMapBuffer: CL_INVALID_OPERATION if buffer has been created with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS and CL_MAP_READ is set in map_flags",
 [](World &w) { cl_mem b = w.newBuffer(CL_MEM_HOST_NO_ACCESS); void *p = clEnqueueMapBuffer(w.queue, b, CL_TRUE, CL_MAP_READ, 0, 64, 0, nullptr, nullptr, &w.error); return mapped(w, b, p, w.error); }, Reports},
{"clEnqueueMapBuffer_WriteHostReadOnly", CL_INVALID_OPERATION,
 "OpenCL 3.0 API, clEnqueueMapBuffer: CL_INVALID_OPERATION if buffer has been created with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS and CL_MAP_WRITE or CL_MAP_WRITE_INVALIDATE_REGION is set in map_flags",
 [](World &w) { cl_mem b = w.newBuffer(CL_MEM_HOST_READ_ONLY); void *p = clEnqueueMapBuffer(w.queue, b, CL_TRUE, CL_MAP_WRITE, 0, 64, 0, nullptr, nullptr, &w.error); return mapped(w, b, p, w.error); }, Reports},
{"clEnqueueMapBuffer_OtherContextBuffer", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clEnqueueMapBuffer: CL_INVALID_CONTEXT if context associated with command_queue and buffer are not the same",
 [](World &w) { void *p = clEnqueueMapBuffer(w.queue, w.otherBuffer, CL_TRUE, CL_MAP_READ, 0, 64, 0, nullptr, nullptr, &w.error); if (p) clEnqueueUnmapMemObject(w.otherQueue, w.otherBuffer, p, 0, nullptr, nullptr); return w.error; }, Reports},
{"clEnqueueMapBuffer_NullBuffer", CL_INVALID_MEM_OBJECT,
 "OpenCL 3.0 API, clEnqueueMapBuffer: CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object",
 [](World &w) { clEnqueueMapBuffer(w.queue, nullptr, CL_TRUE, CL_MAP_READ, 0, 64, 0, nullptr, nullptr, &w.error); return w.error; }, Reports},
{"clEnqueueMapBuffer_NullQueue", CL_INVALID_COMMAND_QUEUE,
 "OpenCL 3.0 API, clEnqueueMapBuffer: CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue",
 [](World &w) { clEnqueueMapBuffer(nullptr, w.buffer, CL_TRUE, CL_MAP_READ, 0, 64, 0, nullptr, nullptr, &w.error); return w.error; }},
{"clEnqueueMapBuffer_OtherContextEvent", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clEnqueueMapBuffer: CL_INVALID_CONTEXT if context associated with command_queue and events in event_wait_list are not the same",
 [](World &w) { void *p = clEnqueueMapBuffer(w.queue, w.buffer, CL_TRUE, CL_MAP_READ, 0, 64, 1, &w.otherEvent, nullptr, &w.error); return mapped(w, w.buffer, p, w.error); }, Reports},
{"clEnqueueUnmapMemObject_NotMapped", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueUnmapMemObject: CL_INVALID_VALUE if mapped_ptr is not a valid pointer returned by clEnqueueMapBuffer or clEnqueueMapImage for memobj",
 [](World &w) { return clEnqueueUnmapMemObject(w.queue, w.buffer, w.host, 0, nullptr, nullptr); }, Reports},
{"clEnqueueUnmapMemObject_NullMem", CL_INVALID_MEM_OBJECT,
 "OpenCL 3.0 API, clEnqueueUnmapMemObject: CL_INVALID_MEM_OBJECT if memobj is not a valid memory object",
 [](World &w) { return clEnqueueUnmapMemObject(w.queue, nullptr, w.host, 0, nullptr, nullptr); }, Reports},
{"clEnqueueUnmapMemObject_OtherContextMem", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clEnqueueUnmapMemObject: CL_INVALID_CONTEXT if context associated with command_queue and memobj are not the same",
 [](World &w) { void *p = clEnqueueMapBuffer(w.otherQueue, w.otherBuffer, CL_TRUE, CL_MAP_READ, 0, 64, 0, nullptr, nullptr, &w.error); const cl_int r = clEnqueueUnmapMemObject(w.queue, w.otherBuffer, p, 0, nullptr, nullptr); clEnqueueUnmapMemObject(w.otherQueue, w.otherBuffer, p, 0, nullptr, nullptr); return r; }, Reports},
{"clEnqueueUnmapMemObject_CountWithoutList", CL_INVALID_EVENT_WAIT_LIST,
 "OpenCL 3.0 API, clEnqueueUnmapMemObject: CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and num_events_in_wait_list > 0",
 [](World &w) { void *p = clEnqueueMapBuffer(w.queue, w.buffer, CL_TRUE, CL_MAP_READ, 0, 64, 0, nullptr, nullptr, &w.error); const cl_int r = clEnqueueUnmapMemObject(w.queue, w.buffer, p, 1, nullptr, nullptr); clEnqueueUnmapMemObject(w.queue, w.buffer, p, 0, nullptr, nullptr); return r; }, Reports},
{"clEnqueueMigrateMemObjects_NoObjects", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueMigrateMemObjects: CL_INVALID_VALUE if num_mem_objects is zero or if mem_objects is NULL",
 [](World &w) { return clEnqueueMigrateMemObjects(w.queue, 0, &w.buffer, 0, 0, nullptr, nullptr); }, Reports},
{"clEnqueueMigrateMemObjects_NullList", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueMigrateMemObjects: CL_INVALID_VALUE if num_mem_objects is zero or if mem_objects is NULL",
 [](World &w) { return clEnqueueMigrateMemObjects(w.queue, 1, nullptr, 0, 0, nullptr, nullptr); }, Reports},
{"clEnqueueMigrateMemObjects_UnknownFlag", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueMigrateMemObjects: CL_INVALID_VALUE if flags is not 0 or is not any of the values described in the table",
 [](World &w) { return clEnqueueMigrateMemObjects(w.queue, 1, &w.buffer, cl_mem_migration_flags{1} << 20, 0, nullptr, nullptr); }, Reports},
{"clEnqueueMigrateMemObjects_NullObject", CL_INVALID_MEM_OBJECT,
 "OpenCL 3.0 API, clEnqueueMigrateMemObjects: CL_INVALID_MEM_OBJECT if any of the memory objects in mem_objects is not a valid memory object",
 [](World &w) { const cl_mem m[] = {w.buffer, nullptr}; return clEnqueueMigrateMemObjects(w.queue, 2, m, 0, 0, nullptr, nullptr); }, Reports},
{"clEnqueueMigrateMemObjects_OtherContextObject", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clEnqueueMigrateMemObjects: CL_INVALID_CONTEXT if the context associated with command_queue and memory objects in mem_objects are not the same",
 [](World &w) { return clEnqueueMigrateMemObjects(w.queue, 1, &w.otherBuffer, 0, 0, nullptr, nullptr); }, Reports},
{"clGetSupportedImageFormats_Null", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clGetSupportedImageFormats: CL_INVALID_CONTEXT if context is not a valid context",
 [](World &) { cl_uint n; return clGetSupportedImageFormats(nullptr, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &n); }},
{"clGetSupportedImageFormats_BufferType", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetSupportedImageFormats: CL_INVALID_VALUE if flags or image_type are not valid",
 [](World &w) { cl_uint n; return clGetSupportedImageFormats(w.context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_BUFFER, 0, nullptr, &n); }},
{"clGetSupportedImageFormats_ZeroEntriesWithList", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetSupportedImageFormats: CL_INVALID_VALUE if num_entries is 0 and image_formats is not NULL",
 [](World &w) { cl_image_format f[1]; return clGetSupportedImageFormats(w.context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, f, nullptr); }},

// ---------------------------------------------------------------------------
// Images (5.3)
{"clCreateImage_NullContext", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clCreateImage: CL_INVALID_CONTEXT if context is not a valid context",
 [](World &w) { const cl_image_format f = {CL_RGBA, CL_UNORM_INT8}; cl_image_desc d{}; d.image_type = CL_MEM_OBJECT_IMAGE2D; d.image_width = d.image_height = 4; return created(clCreateImage(nullptr, CL_MEM_READ_WRITE, &f, &d, nullptr, &w.error), w.error); }},
{"clCreateImage_BadFlags", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateImage: CL_INVALID_VALUE if values specified in flags are not valid as defined in the Memory Flags table",
 [](World &w) { const cl_image_format f = {CL_RGBA, CL_UNORM_INT8}; cl_image_desc d{}; d.image_type = CL_MEM_OBJECT_IMAGE2D; d.image_width = d.image_height = 4; return created(clCreateImage(w.context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, &f, &d, nullptr, &w.error), w.error); }, Reports},
{"clCreateImage_NullFormat", CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
 "OpenCL 3.0 API, clCreateImage: CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if image_format is NULL",
 [](World &w) { cl_image_desc d{}; d.image_type = CL_MEM_OBJECT_IMAGE2D; d.image_width = d.image_height = 4; return created(clCreateImage(w.context, CL_MEM_READ_WRITE, nullptr, &d, nullptr, &w.error), w.error); }, Reports},
{"clCreateImage_UnknownOrder", CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
 "OpenCL 3.0 API, clCreateImage: CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if values specified in image_format are not valid",
 [](World &w) { const cl_image_format f = {0x7777, CL_UNORM_INT8}; cl_image_desc d{}; d.image_type = CL_MEM_OBJECT_IMAGE2D; d.image_width = d.image_height = 4; return created(clCreateImage(w.context, CL_MEM_READ_WRITE, &f, &d, nullptr, &w.error), w.error); }, Reports, "PoCL 3.1 returns CL_INVALID_OPERATION"},
{"clCreateImage_NullDescriptor", CL_INVALID_IMAGE_DESCRIPTOR,
 "OpenCL 3.0 API (v3.0.14), clCreateImage: CL_INVALID_IMAGE_DESCRIPTOR if values specified in image_desc are not valid or if image_desc is NULL",
 [](World &w) { const cl_image_format f = {CL_RGBA, CL_UNORM_INT8}; return created(clCreateImage(w.context, CL_MEM_READ_WRITE, &f, nullptr, nullptr, &w.error), w.error); }, Reports},
{"clCreateImage_BufferType", CL_INVALID_IMAGE_DESCRIPTOR,
 "OpenCL 3.0 API, Image Descriptor: image_type must be one of the CL_MEM_OBJECT_IMAGE* values",
 [](World &w) { const cl_image_format f = {CL_RGBA, CL_UNORM_INT8}; cl_image_desc d{}; d.image_type = CL_MEM_OBJECT_BUFFER; d.image_width = d.image_height = 4; return created(clCreateImage(w.context, CL_MEM_READ_WRITE, &f, &d, nullptr, &w.error), w.error); }, Reports, "PoCL 3.1 returns CL_INVALID_VALUE"},
{"clCreateImage_ZeroWidth", CL_INVALID_IMAGE_SIZE,
 "OpenCL 3.0 API, clCreateImage: CL_INVALID_IMAGE_SIZE if the image dimensions specified in image_desc are not valid",
 [](World &w) { const cl_image_format f = {CL_RGBA, CL_UNORM_INT8}; cl_image_desc d{}; d.image_type = CL_MEM_OBJECT_IMAGE2D; d.image_height = 4; return created(clCreateImage(w.context, CL_MEM_READ_WRITE, &f, &d, nullptr, &w.error), w.error); }, Reports, "PoCL 3.1 returns CL_INVALID_BUFFER_SIZE"},
{"clCreateImage_HostPtrWithoutFlag", CL_INVALID_HOST_PTR,
 "OpenCL 3.0 API, clCreateImage: CL_INVALID_HOST_PTR if host_ptr is not NULL but CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR are not set in flags",
 [](World &w) { const cl_image_format f = {CL_RGBA, CL_UNORM_INT8}; cl_image_desc d{}; d.image_type = CL_MEM_OBJECT_IMAGE2D; d.image_width = d.image_height = 4; return created(clCreateImage(w.context, CL_MEM_READ_WRITE, &f, &d, w.host, &w.error), w.error); }, Reports},
{"clCreateImage_DepthWithoutExtension", Codes(CL_IMAGE_FORMAT_NOT_SUPPORTED, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR),
 "OpenCL 3.0 API, clCreateImage: CL_IMAGE_FORMAT_NOT_SUPPORTED if there are no devices in context that support image_format (CL_DEPTH needs cl_khr_depth_images)",
 [](World &w) { const cl_image_format f = {CL_DEPTH, CL_FLOAT}; cl_image_desc d{}; d.image_type = CL_MEM_OBJECT_IMAGE2D; d.image_width = d.image_height = 4; return created(clCreateImage(w.context, CL_MEM_READ_WRITE, &f, &d, nullptr, &w.error), w.error); }, Reports, "PoCL 3.1 returns CL_INVALID_OPERATION"},
{"clCreateImage_ReadWriteOnReadOnlyBuffer", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateImage: CL_INVALID_VALUE if an image is created from a buffer created with CL_MEM_READ_ONLY and flags specifies CL_MEM_READ_WRITE",
 [](World &w) { cl_mem b = w.newBuffer(CL_MEM_READ_ONLY); const cl_image_format f = {CL_RGBA, CL_UNORM_INT8}; cl_image_desc d{}; d.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER; d.image_width = 4; d.mem_object = b; return created(clCreateImage(w.context, CL_MEM_READ_WRITE, &f, &d, nullptr, &w.error), w.error); }, Reports, "PoCL 3.1 creates the image"},
{"clCreateImageWithProperties_UnknownProperty", CL_INVALID_PROPERTY,
 "OpenCL 3.0 API, clCreateImageWithProperties: CL_INVALID_PROPERTY if a property name in properties is not a supported property name",
 [](World &w) { const cl_mem_properties p[] = {0x7777, 1, 0}; const cl_image_format f = {CL_RGBA, CL_UNORM_INT8}; cl_image_desc d{}; d.image_type = CL_MEM_OBJECT_IMAGE2D; d.image_width = d.image_height = 4; return created(clCreateImageWithProperties(w.context, p, CL_MEM_READ_WRITE, &f, &d, nullptr, &w.error), w.error); }, Reports},
{"clCreateImage2D_ZeroHeight", CL_INVALID_IMAGE_SIZE,
 "OpenCL 3.0 API, clCreateImage2D: CL_INVALID_IMAGE_SIZE if image_width or image_height are 0",
 [](World &w) { const cl_image_format f = {CL_RGBA, CL_UNORM_INT8}; return created(clCreateImage2D(w.context, CL_MEM_READ_WRITE, &f, 4, 0, 0, nullptr, &w.error), w.error); }, Reports, "PoCL 3.1 returns CL_INVALID_BUFFER_SIZE"},
{"clCreateImage3D_DepthOne", CL_INVALID_IMAGE_SIZE,
 "OpenCL 3.0 API, clCreateImage3D: CL_INVALID_IMAGE_SIZE if image_depth <= 1",
 [](World &w) { const cl_image_format f = {CL_RGBA, CL_UNORM_INT8}; return created(clCreateImage3D(w.context, CL_MEM_READ_WRITE, &f, 4, 4, 1, 0, 0, nullptr, &w.error), w.error); }, Reports, "PoCL 3.1 creates the image"},
{"clGetImageInfo_Buffer", CL_INVALID_MEM_OBJECT,
 "OpenCL 3.0 API, clGetImageInfo: CL_INVALID_MEM_OBJECT if image is not a valid image object",
 [](World &w) { size_t v; return clGetImageInfo(w.buffer, CL_IMAGE_WIDTH, sizeof v, &v, nullptr); }, None, "PoCL 3.1 answers the query for a buffer"},
{"clGetImageInfo_UnknownParam", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetImageInfo: CL_INVALID_VALUE if param_name is not one of the supported values",
 [](World &w) { size_t v; return clGetImageInfo(w.newImage(), 0x7777, sizeof v, &v, nullptr); }},
{"clEnqueueReadImage_Buffer", CL_INVALID_MEM_OBJECT,
 "OpenCL 3.0 API, clEnqueueReadImage: CL_INVALID_MEM_OBJECT if image is not a valid image object",
 [](World &w) { const size_t o[3] = {0, 0, 0}; return clEnqueueReadImage(w.queue, w.buffer, CL_TRUE, o, one, 0, 0, w.host, 0, nullptr, nullptr); }, Reports},
{"clEnqueueReadImage_OutOfBounds", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueReadImage: CL_INVALID_VALUE if the region being read specified by origin and region is out of bounds",
 [](World &w) { const size_t o[3] = {16, 0, 0}; return clEnqueueReadImage(w.queue, w.newImage(), CL_TRUE, o, one, 0, 0, w.host, 0, nullptr, nullptr); }, Reports},
{"clEnqueueReadImage_2DOriginZ", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueReadImage: if image is a 2D image object, origin[2] must be 0",
 [](World &w) { const size_t o[3] = {0, 0, 1}; return clEnqueueReadImage(w.queue, w.newImage(), CL_TRUE, o, one, 0, 0, w.host, 0, nullptr, nullptr); }, Reports},
{"clEnqueueReadImage_SlicePitchFor2D", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueReadImage: CL_INVALID_VALUE if image is a 1D or 2D image and slice_pitch is not 0",
 [](World &w) { const size_t o[3] = {0, 0, 0}; return clEnqueueReadImage(w.queue, w.newImage(), CL_TRUE, o, one, 0, 64, w.host, 0, nullptr, nullptr); }, Reports, "PoCL 3.1 accepts the slice pitch"},
{"clEnqueueReadImage_NullPtr", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueReadImage: CL_INVALID_VALUE if ptr is NULL",
 [](World &w) { const size_t o[3] = {0, 0, 0}; return clEnqueueReadImage(w.queue, w.newImage(), CL_TRUE, o, one, 0, 0, nullptr, 0, nullptr, nullptr); }, Reports},
{"clEnqueueReadImage_HostWriteOnly", CL_INVALID_OPERATION,
 "OpenCL 3.0 API, clEnqueueReadImage: CL_INVALID_OPERATION if clEnqueueReadImage is called on image which has been created with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS",
 [](World &w) { const size_t o[3] = {0, 0, 0}; return clEnqueueReadImage(w.queue, w.newImage(CL_MEM_HOST_WRITE_ONLY), CL_TRUE, o, one, 0, 0, w.host, 0, nullptr, nullptr); }, Reports},
{"clEnqueueReadImage_OtherContextImage", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clEnqueueReadImage: CL_INVALID_CONTEXT if the context associated with command_queue and image are not the same",
 [](World &w) { const size_t o[3] = {0, 0, 0}; return clEnqueueReadImage(w.queue, w.newImage(CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, w.otherContext), CL_TRUE, o, one, 0, 0, w.host, 0, nullptr, nullptr); }, Reports},
{"clEnqueueWriteImage_HostReadOnly", CL_INVALID_OPERATION,
 "OpenCL 3.0 API, clEnqueueWriteImage: CL_INVALID_OPERATION if clEnqueueWriteImage is called on image which has been created with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS",
 [](World &w) { const size_t o[3] = {0, 0, 0}; return clEnqueueWriteImage(w.queue, w.newImage(CL_MEM_HOST_READ_ONLY), CL_TRUE, o, one, 0, 0, w.host, 0, nullptr, nullptr); }, Reports},
{"clEnqueueWriteImage_NullRegion", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueWriteImage: CL_INVALID_VALUE if region is NULL",
 [](World &w) { const size_t o[3] = {0, 0, 0}; return clEnqueueWriteImage(w.queue, w.newImage(), CL_TRUE, o, nullptr, 0, 0, w.host, 0, nullptr, nullptr); }, Reports},
{"clEnqueueWriteImage_CountWithoutList", CL_INVALID_EVENT_WAIT_LIST,
 "OpenCL 3.0 API, clEnqueueWriteImage: CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and num_events_in_wait_list > 0",
 [](World &w) { const size_t o[3] = {0, 0, 0}; return clEnqueueWriteImage(w.queue, w.newImage(), CL_TRUE, o, one, 0, 0, w.host, 1, nullptr, nullptr); }, Reports},
{"clEnqueueCopyImage_FormatMismatch", CL_IMAGE_FORMAT_MISMATCH,
 "OpenCL 3.0 API, clEnqueueCopyImage: CL_IMAGE_FORMAT_MISMATCH if src_image and dst_image do not use the same image format",
 [](World &w) { const size_t o[3] = {0, 0, 0}; const cl_image_format f = {CL_R, CL_FLOAT}; cl_image_desc d{}; d.image_type = CL_MEM_OBJECT_IMAGE2D; d.image_width = d.image_height = 16; cl_int e; cl_mem other = clCreateImage(w.context, CL_MEM_READ_WRITE, &f, &d, nullptr, &e); const cl_int r = clEnqueueCopyImage(w.queue, w.newImage(), other, o, o, one, 0, nullptr, nullptr); clReleaseMemObject(other); return r; }, Reports},
{"clEnqueueCopyImage_Overlap", CL_MEM_COPY_OVERLAP,
 "OpenCL 3.0 API, clEnqueueCopyImage: CL_MEM_COPY_OVERLAP if src_image and dst_image are the same image object and the source and destination regions overlap",
 [](World &w) { cl_mem i = w.newImage(); const size_t a[3] = {0, 0, 0}, b[3] = {2, 2, 0}, r[3] = {4, 4, 1}; return clEnqueueCopyImage(w.queue, i, i, a, b, r, 0, nullptr, nullptr); }, Reports},
{"clEnqueueCopyImage_BufferSource", CL_INVALID_MEM_OBJECT,
 "OpenCL 3.0 API, clEnqueueCopyImage: CL_INVALID_MEM_OBJECT if src_image and dst_image are not valid image objects",
 [](World &w) { const size_t o[3] = {0, 0, 0}; return clEnqueueCopyImage(w.queue, w.buffer, w.newImage(), o, o, one, 0, nullptr, nullptr); }, Reports},
{"clEnqueueCopyImageToBuffer_PastBufferEnd", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueCopyImageToBuffer: CL_INVALID_VALUE if the region specified by dst_offset and dst_offset + dst_cb refer to a region outside dst_buffer",
 [](World &w) { const size_t o[3] = {0, 0, 0}, r[3] = {16, 16, 1}; return clEnqueueCopyImageToBuffer(w.queue, w.newImage(), w.buffer, o, r, 4, 0, nullptr, nullptr); }, Reports, "PoCL 3.1 accepts the range"},
{"clEnqueueCopyImageToBuffer_ImageAsBuffer", CL_INVALID_MEM_OBJECT,
 "OpenCL 3.0 API, clEnqueueCopyImageToBuffer: CL_INVALID_MEM_OBJECT if dst_buffer is not a valid buffer object",
 [](World &w) { const size_t o[3] = {0, 0, 0}; cl_mem i = w.newImage(); return clEnqueueCopyImageToBuffer(w.queue, i, i, o, one, 0, 0, nullptr, nullptr); }, Reports},
{"clEnqueueCopyBufferToImage_NullOrigin", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueCopyBufferToImage: CL_INVALID_VALUE if dst_origin or region is NULL",
 [](World &w) { return clEnqueueCopyBufferToImage(w.queue, w.buffer, w.newImage(), 0, nullptr, one, 0, nullptr, nullptr); }, Reports},
{"clEnqueueMapImage_NullRowPitch", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueMapImage: CL_INVALID_VALUE if image_row_pitch is NULL",
 [](World &w) { const size_t o[3] = {0, 0, 0}; cl_mem i = w.newImage(); void *p = clEnqueueMapImage(w.queue, i, CL_TRUE, CL_MAP_READ, o, one, nullptr, nullptr, 0, nullptr, nullptr, &w.error); return mapped(w, i, p, w.error); }, Reports},
{"clEnqueueMapImage_3DNullSlicePitch", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueMapImage: CL_INVALID_VALUE if image is a 3D image, 1D or 2D image array object and image_slice_pitch is NULL",
 [](World &w) { const size_t o[3] = {0, 0, 0}; size_t row; cl_mem i = w.newImage(CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE3D); void *p = clEnqueueMapImage(w.queue, i, CL_TRUE, CL_MAP_READ, o, one, &row, nullptr, 0, nullptr, nullptr, &w.error); return mapped(w, i, p, w.error); }, Reports},
{"clEnqueueMapImage_ReadHostWriteOnly", CL_INVALID_OPERATION,
 "OpenCL 3.0 API, clEnqueueMapImage: CL_INVALID_OPERATION if image has been created with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS and CL_MAP_READ is set in map_flags",
 [](World &w) { const size_t o[3] = {0, 0, 0}; size_t row; cl_mem i = w.newImage(CL_MEM_HOST_WRITE_ONLY); void *p = clEnqueueMapImage(w.queue, i, CL_TRUE, CL_MAP_READ, o, one, &row, nullptr, 0, nullptr, nullptr, &w.error); return mapped(w, i, p, w.error); }, Reports},
{"clEnqueueMapImage_Buffer", CL_INVALID_MEM_OBJECT,
 "OpenCL 3.0 API, clEnqueueMapImage: CL_INVALID_MEM_OBJECT if image is not a valid image object",
 [](World &w) { const size_t o[3] = {0, 0, 0}; size_t row; void *p = clEnqueueMapImage(w.queue, w.buffer, CL_TRUE, CL_MAP_READ, o, one, &row, nullptr, 0, nullptr, nullptr, &w.error); return mapped(w, w.buffer, p, w.error); }, Reports},
{"clEnqueueUnmapMemObject_ImageNotMapped", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueUnmapMemObject: CL_INVALID_VALUE if mapped_ptr is not a valid pointer returned by clEnqueueMapBuffer or clEnqueueMapImage for memobj",
 [](World &w) { return clEnqueueUnmapMemObject(w.queue, w.newImage(), w.host, 0, nullptr, nullptr); }, Reports},

// ---------------------------------------------------------------------------
// Samplers (5.4)
{"clCreateSampler_NullContext", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clCreateSampler: CL_INVALID_CONTEXT if context is not a valid context",
 [](World &w) { return created(clCreateSampler(nullptr, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &w.error), w.error); }},
{"clCreateSampler_BadAddressingMode", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateSampler: CL_INVALID_VALUE if addressing_mode, filter_mode, normalized_coords or a combination of these arguments are not valid",
 [](World &w) { return created(clCreateSampler(w.context, CL_TRUE, 0x7777, CL_FILTER_NEAREST, &w.error), w.error); }, Reports, "PoCL 3.1 creates the sampler"},
{"clCreateSampler_BadFilterMode", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateSampler: CL_INVALID_VALUE if addressing_mode, filter_mode, normalized_coords or a combination of these arguments are not valid",
 [](World &w) { return created(clCreateSampler(w.context, CL_TRUE, CL_ADDRESS_CLAMP, 0x7777, &w.error), w.error); }, Reports, "PoCL 3.1 creates the sampler"},
{"clCreateSamplerWithProperties_UnknownProperty", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateSamplerWithProperties: CL_INVALID_VALUE if the property name in sampler_properties is not a supported property name",
 [](World &w) { const cl_sampler_properties p[] = {0x7777, 1, 0}; return created(clCreateSamplerWithProperties(w.context, p, &w.error), w.error); }, Reports},
{"clCreateSamplerWithProperties_Twice", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateSamplerWithProperties: CL_INVALID_VALUE if the same property name is specified more than once",
 [](World &w) { const cl_sampler_properties p[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0}; return created(clCreateSamplerWithProperties(w.context, p, &w.error), w.error); }, Reports},
{"clCreateSamplerWithProperties_BadValue", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateSamplerWithProperties: CL_INVALID_VALUE if the value specified for a supported property name is not valid",
 [](World &w) { const cl_sampler_properties p[] = {CL_SAMPLER_ADDRESSING_MODE, 0x7777, 0}; return created(clCreateSamplerWithProperties(w.context, p, &w.error), w.error); }, Reports, "PoCL 3.1 creates the sampler"},
{"clRetainSampler_Null", CL_INVALID_SAMPLER,
 "OpenCL 3.0 API, clRetainSampler: CL_INVALID_SAMPLER if sampler is not a valid sampler object",
 [](World &) { return clRetainSampler(nullptr); }},
{"clReleaseSampler_Null", CL_INVALID_SAMPLER,
 "OpenCL 3.0 API, clReleaseSampler: CL_INVALID_SAMPLER if sampler is not a valid sampler object",
 [](World &) { return clReleaseSampler(nullptr); }},
{"clGetSamplerInfo_ImageAsSampler", CL_INVALID_SAMPLER,
 "OpenCL 3.0 API, clGetSamplerInfo: CL_INVALID_SAMPLER if sampler is not a valid sampler object",
 [](World &w) { cl_uint v; return clGetSamplerInfo(as<cl_sampler>(w.newImage()), CL_SAMPLER_REFERENCE_COUNT, sizeof v, &v, nullptr); }, WrongKind},
{"clGetSamplerInfo_UnknownParam", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetSamplerInfo: CL_INVALID_VALUE if param_name is not one of the supported values",
 [](World &w) { cl_uint v; return clGetSamplerInfo(w.newSampler(), 0x7777, sizeof v, &v, nullptr); }},
{"clGetSamplerInfo_ValueTooSmall", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetSamplerInfo: CL_INVALID_VALUE if size in bytes specified by param_value_size is less than size of return type and param_value is not NULL",
 [](World &w) { char v[1]; return clGetSamplerInfo(w.newSampler(), CL_SAMPLER_CONTEXT, sizeof v, v, nullptr); }},

// ---------------------------------------------------------------------------
// Shared virtual memory (5.6)
{"clSVMAlloc_NullContext", returnedNull,
 "OpenCL 3.0 API, clSVMAlloc: returns NULL if context is not a valid context",
 [](World &) { void *p = clSVMAlloc(nullptr, CL_MEM_READ_WRITE, 64, 0); return p ? CL_SUCCESS : returnedNull; }, Svm},
{"clSVMAlloc_SizeZero", returnedNull,
 "OpenCL 3.0 API, clSVMAlloc: returns NULL if size is 0",
 [](World &w) { void *p = clSVMAlloc(w.context, CL_MEM_READ_WRITE, 0, 0); if (p) clSVMFree(w.context, p); return p ? CL_SUCCESS : returnedNull; }, Svm},
{"clSVMAlloc_SizeAboveMaxAlloc", returnedNull,
 "OpenCL 3.0 API, clSVMAlloc: returns NULL if size is greater than CL_DEVICE_MAX_MEM_ALLOC_SIZE",
 [](World &w) { const auto max = deviceInfo<cl_ulong>(w.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE); void *p = clSVMAlloc(w.context, CL_MEM_READ_WRITE, max + 1, 0); if (p) clSVMFree(w.context, p); return p ? CL_SUCCESS : returnedNull; }, Svm},
{"clSVMAlloc_AlignmentNotPowerOfTwo", returnedNull,
 "OpenCL 3.0 API, clSVMAlloc: returns NULL if alignment is not a power of two",
 [](World &w) { void *p = clSVMAlloc(w.context, CL_MEM_READ_WRITE, 64, 24); if (p) clSVMFree(w.context, p); return p ? CL_SUCCESS : returnedNull; }, Svm},
{"clSVMAlloc_ReadOnlyAndWriteOnly", returnedNull,
 "OpenCL 3.0 API, clSVMAlloc: returns NULL if the values specified in flags are not valid (CL_MEM_READ_ONLY and CL_MEM_WRITE_ONLY are mutually exclusive)",
 [](World &w) { void *p = clSVMAlloc(w.context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, 0); if (p) clSVMFree(w.context, p); return p ? CL_SUCCESS : returnedNull; }, Svm},
{"clSVMFree_NullPointer", CL_SUCCESS,
 "OpenCL 3.0 API, clSVMFree: if svm_pointer is NULL, no action occurs",
 [](World &w) { clSVMFree(w.context, nullptr); return CL_SUCCESS; }, Svm},
{"clEnqueueSVMFree_CountWithoutPointers", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueSVMFree: CL_INVALID_VALUE if svm_pointers is NULL and num_svm_pointers is not 0",
 [](World &w) { return clEnqueueSVMFree(w.queue, 1, nullptr, nullptr, nullptr, 0, nullptr, nullptr); }, Svm | Reports},
{"clEnqueueSVMFree_PointersWithoutCount", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueSVMFree: CL_INVALID_VALUE if num_svm_pointers is 0 and svm_pointers is non-NULL",
 [](World &w) { void *p[] = {w.svm()}; return clEnqueueSVMFree(w.queue, 0, p, nullptr, nullptr, 0, nullptr, nullptr); }, Svm | Reports},
{"clEnqueueSVMFree_CountWithoutList", CL_INVALID_EVENT_WAIT_LIST,
 "OpenCL 3.0 API, clEnqueueSVMFree: CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and num_events_in_wait_list > 0",
 [](World &w) { void *p[] = {w.svm()}; return clEnqueueSVMFree(w.queue, 1, p, nullptr, nullptr, 1, nullptr, nullptr); }, Svm | Reports},
{"clEnqueueSVMFree_Null", CL_INVALID_COMMAND_QUEUE,
 "OpenCL 3.0 API, clEnqueueSVMFree: CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue",
 [](World &w) { void *p[] = {w.svm()}; return clEnqueueSVMFree(nullptr, 1, p, nullptr, nullptr, 0, nullptr, nullptr); }, Svm},
{"clEnqueueSVMMemcpy_NullDestination", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueSVMMemcpy: CL_INVALID_VALUE if dst_ptr or src_ptr is NULL",
 [](World &w) { return clEnqueueSVMMemcpy(w.queue, CL_TRUE, nullptr, w.svm(), 64, 0, nullptr, nullptr); }, Svm | Reports},
{"clEnqueueSVMMemcpy_Overlap", CL_MEM_COPY_OVERLAP,
 "OpenCL 3.0 API, clEnqueueSVMMemcpy: CL_MEM_COPY_OVERLAP if the values specified for dst_ptr, src_ptr and size result in an overlapping copy",
 [](World &w) { char *p = static_cast<char *>(w.svm()); return clEnqueueSVMMemcpy(w.queue, CL_TRUE, p + 16, p, 64, 0, nullptr, nullptr); }, Svm | Reports},
{"clEnqueueSVMMemcpy_OtherContextEvent", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clEnqueueSVMMemcpy: CL_INVALID_CONTEXT if the context associated with command_queue and events in event_wait_list are not the same",
 [](World &w) { return clEnqueueSVMMemcpy(w.queue, CL_TRUE, w.svm(), w.host, 64, 1, &w.otherEvent, nullptr); }, Svm | Reports},
{"clEnqueueSVMMemcpy_ListWithoutCount", CL_INVALID_EVENT_WAIT_LIST,
 "OpenCL 3.0 API, clEnqueueSVMMemcpy: CL_INVALID_EVENT_WAIT_LIST if event_wait_list is not NULL and num_events_in_wait_list is 0",
 [](World &w) { return clEnqueueSVMMemcpy(w.queue, CL_TRUE, w.svm(), w.host, 64, 0, &w.event, nullptr); }, Svm | Reports},
{"clEnqueueSVMMemFill_NullPointer", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueSVMMemFill: CL_INVALID_VALUE if svm_ptr is NULL",
 [](World &w) { return clEnqueueSVMMemFill(w.queue, nullptr, w.host, 4, 64, 0, nullptr, nullptr); }, Svm | Reports},
{"clEnqueueSVMMemFill_MisalignedPointer", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueSVMMemFill: CL_INVALID_VALUE if svm_ptr is not aligned to pattern_size bytes",
 [](World &w) { return clEnqueueSVMMemFill(w.queue, static_cast<char *>(w.svm()) + 2, w.host, 4, 64, 0, nullptr, nullptr); }, Svm | Reports},
{"clEnqueueSVMMemFill_NullPattern", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueSVMMemFill: CL_INVALID_VALUE if pattern is NULL or if pattern_size is 0 or if pattern_size is not one of {1, 2, 4, 8, 16, 32, 64, 128}",
 [](World &w) { return clEnqueueSVMMemFill(w.queue, w.svm(), nullptr, 4, 64, 0, nullptr, nullptr); }, Svm | Reports, "PoCL 3.1 crashes (reads the NULL pattern)"},
{"clEnqueueSVMMemFill_PatternSizeSix", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueSVMMemFill: CL_INVALID_VALUE if pattern_size is not one of {1, 2, 4, 8, 16, 32, 64, 128}",
 [](World &w) { return clEnqueueSVMMemFill(w.queue, w.svm(), w.host, 6, 60, 0, nullptr, nullptr); }, Svm | Reports},
{"clEnqueueSVMMemFill_SizeNotMultiple", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueSVMMemFill: CL_INVALID_VALUE if size is not a multiple of pattern_size",
 [](World &w) { return clEnqueueSVMMemFill(w.queue, w.svm(), w.host, 8, 60, 0, nullptr, nullptr); }, Svm | Reports},
{"clEnqueueSVMMap_NullPointer", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueSVMMap: CL_INVALID_VALUE if svm_ptr is NULL",
 [](World &w) { return clEnqueueSVMMap(w.queue, CL_TRUE, CL_MAP_READ, nullptr, 64, 0, nullptr, nullptr); }, Svm | Reports},
{"clEnqueueSVMMap_SizeZero", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueSVMMap: CL_INVALID_VALUE if size is 0",
 [](World &w) { return clEnqueueSVMMap(w.queue, CL_TRUE, CL_MAP_READ, w.svm(), 0, 0, nullptr, nullptr); }, Svm | Reports},
{"clEnqueueSVMMap_WriteAndInvalidate", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueSVMMap: CL_INVALID_VALUE if values specified in map_flags are not valid",
 [](World &w) { return clEnqueueSVMMap(w.queue, CL_TRUE, CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION, w.svm(), 64, 0, nullptr, nullptr); }, Svm | Reports, "PoCL 3.1 accepts the flags"},
{"clEnqueueSVMMap_CountWithoutList", CL_INVALID_EVENT_WAIT_LIST,
 "OpenCL 3.0 API, clEnqueueSVMMap: CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and num_events_in_wait_list > 0",
 [](World &w) { return clEnqueueSVMMap(w.queue, CL_TRUE, CL_MAP_READ, w.svm(), 64, 2, nullptr, nullptr); }, Svm | Reports},
{"clEnqueueSVMUnmap_NullPointer", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueSVMUnmap: CL_INVALID_VALUE if svm_ptr is NULL",
 [](World &w) { return clEnqueueSVMUnmap(w.queue, nullptr, 0, nullptr, nullptr); }, Svm | Reports},
{"clEnqueueSVMUnmap_KernelAsQueue", CL_INVALID_COMMAND_QUEUE,
 "OpenCL 3.0 API, clEnqueueSVMUnmap: CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue",
 [](World &w) { return clEnqueueSVMUnmap(as<cl_command_queue>(w.kernel()), w.svm(), 0, nullptr, nullptr); }, Svm | WrongKind},
{"clEnqueueSVMMigrateMem_NoPointers", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueSVMMigrateMem: CL_INVALID_VALUE if num_svm_pointers is zero or svm_pointers is NULL",
 [](World &w) { const void *p[] = {w.svm()}; return clEnqueueSVMMigrateMem(w.queue, 0, p, nullptr, 0, 0, nullptr, nullptr); }, Svm | Reports},
{"clEnqueueSVMMigrateMem_NullList", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueSVMMigrateMem: CL_INVALID_VALUE if num_svm_pointers is zero or svm_pointers is NULL",
 [](World &w) { return clEnqueueSVMMigrateMem(w.queue, 1, nullptr, nullptr, 0, 0, nullptr, nullptr); }, Svm | Reports},
{"clEnqueueSVMMigrateMem_RangeOutsideAllocation", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clEnqueueSVMMigrateMem: CL_INVALID_VALUE if sizes[i] is non-zero range [svm_pointers[i], svm_pointers[i]+sizes[i]) is not contained within an existing clSVMAlloc allocation",
 [](World &w) { const void *p[] = {w.svm(64)}; const size_t s[] = {128}; return clEnqueueSVMMigrateMem(w.queue, 1, p, s, 0, 0, nullptr, nullptr); }, Svm | Reports, "PoCL 3.1 accepts the range"},
{"clEnqueueSVMMigrateMem_OtherContextEvent", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clEnqueueSVMMigrateMem: CL_INVALID_CONTEXT if context associated with command_queue and events in event_wait_list are not the same",
 [](World &w) { const void *p[] = {w.svm()}; return clEnqueueSVMMigrateMem(w.queue, 1, p, nullptr, 0, 1, &w.otherEvent, nullptr); }, Svm | Reports},

// ---------------------------------------------------------------------------
// Programs (5.8)
{"clCreateProgramWithSource_NullContext", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clCreateProgramWithSource: CL_INVALID_CONTEXT if context is not a valid context",
 [](World &w) { const char *text = kernelSource; return created(clCreateProgramWithSource(nullptr, 1, &text, nullptr, &w.error), w.error); }},
{"clCreateProgramWithSource_EventAsContext", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clCreateProgramWithSource: CL_INVALID_CONTEXT if context is not a valid context",
 [](World &w) { const char *text = kernelSource; return created(clCreateProgramWithSource(as<cl_context>(w.event), 1, &text, nullptr, &w.error), w.error); }, WrongKind},
{"clCreateProgramWithSource_CountZero", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateProgramWithSource: CL_INVALID_VALUE if count is zero or if strings or any entry in strings is NULL",
 [](World &w) { const char *text = kernelSource; return created(clCreateProgramWithSource(w.context, 0, &text, nullptr, &w.error), w.error); }, Reports},
{"clCreateProgramWithSource_NullStrings", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateProgramWithSource: CL_INVALID_VALUE if count is zero or if strings or any entry in strings is NULL",
 [](World &w) { return created(clCreateProgramWithSource(w.context, 1, nullptr, nullptr, &w.error), w.error); }, Reports, "PoCL 3.1 crashes (reads the NULL strings)"},
{"clCreateProgramWithSource_NullEntry", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateProgramWithSource: CL_INVALID_VALUE if count is zero or if strings or any entry in strings is NULL",
 [](World &w) { const char *text[] = {kernelSource, nullptr}; return created(clCreateProgramWithSource(w.context, 2, text, nullptr, &w.error), w.error); }, Reports},
{"clCreateProgramWithIL_NullContext", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clCreateProgramWithIL: CL_INVALID_CONTEXT if context is not a valid context",
 [](World &w) { return created(clCreateProgramWithIL(nullptr, specConstantModule, sizeof specConstantModule, &w.error), w.error); }},
{"clCreateProgramWithIL_NullIL", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateProgramWithIL: CL_INVALID_VALUE if il is NULL or if length is zero",
 [](World &w) { return created(clCreateProgramWithIL(w.context, nullptr, 64, &w.error), w.error); }, IL | Reports},
{"clCreateProgramWithIL_LengthZero", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateProgramWithIL: CL_INVALID_VALUE if il is NULL or if length is zero",
 [](World &w) { return created(clCreateProgramWithIL(w.context, specConstantModule, 0, &w.error), w.error); }, IL | Reports},
{"clCreateProgramWithIL_NotSpirv", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateProgramWithIL: CL_INVALID_VALUE if the length-byte memory pointed to by il does not contain well-formed intermediate language input appropriate for the deployment environment",
 [](World &w) { const char text[] = "kernel void k() {}"; return created(clCreateProgramWithIL(w.context, text, sizeof text, &w.error), w.error); }, IL | Reports},
{"clCreateProgramWithIL_Truncated", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateProgramWithIL: CL_INVALID_VALUE if the length-byte memory pointed to by il does not contain well-formed intermediate language input",
 [](World &w) { return created(clCreateProgramWithIL(w.context, specConstantModule, 22, &w.error), w.error); }, IL | Reports},
{"clCreateProgramWithBinary_NullContext", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clCreateProgramWithBinary: CL_INVALID_CONTEXT if context is not a valid context",
 [](World &w) { const unsigned char *b[] = {reinterpret_cast<const unsigned char *>(specConstantModule)}; const size_t l = sizeof specConstantModule; return created(clCreateProgramWithBinary(nullptr, 1, &w.device, &l, b, nullptr, &w.error), w.error); }},
{"clCreateProgramWithBinary_NoDevices", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateProgramWithBinary: CL_INVALID_VALUE if device_list is NULL or num_devices is zero",
 [](World &w) { const unsigned char *b[] = {reinterpret_cast<const unsigned char *>(specConstantModule)}; const size_t l = sizeof specConstantModule; return created(clCreateProgramWithBinary(w.context, 0, &w.device, &l, b, nullptr, &w.error), w.error); }, Reports},
{"clCreateProgramWithBinary_QueueAsDevice", CL_INVALID_DEVICE,
 "OpenCL 3.0 API, clCreateProgramWithBinary: CL_INVALID_DEVICE if any device in device_list is not in the list of devices associated with context",
 [](World &w) { const unsigned char *b[] = {reinterpret_cast<const unsigned char *>(specConstantModule)}; const size_t l = sizeof specConstantModule; const cl_device_id d = as<cl_device_id>(w.queue); return created(clCreateProgramWithBinary(w.context, 1, &d, &l, b, nullptr, &w.error), w.error); }, Reports | WrongKind},
{"clCreateProgramWithBinary_NullLengths", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateProgramWithBinary: CL_INVALID_VALUE if lengths or binaries is NULL",
 [](World &w) { const unsigned char *b[] = {reinterpret_cast<const unsigned char *>(specConstantModule)}; return created(clCreateProgramWithBinary(w.context, 1, &w.device, nullptr, b, nullptr, &w.error), w.error); }, Reports},
{"clCreateProgramWithBinary_LengthZero", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateProgramWithBinary: CL_INVALID_VALUE if any entry in lengths[i] is zero or binaries[i] is NULL",
 [](World &w) { const unsigned char *b[] = {reinterpret_cast<const unsigned char *>(specConstantModule)}; const size_t l = 0; cl_int status = CL_SUCCESS; return created(clCreateProgramWithBinary(w.context, 1, &w.device, &l, b, &status, &w.error), w.error); }, Reports},
{"clCreateProgramWithBinary_NullBinary", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateProgramWithBinary: CL_INVALID_VALUE if any entry in lengths[i] is zero or binaries[i] is NULL",
 [](World &w) { const unsigned char *b[] = {nullptr}; const size_t l = 64; return created(clCreateProgramWithBinary(w.context, 1, &w.device, &l, b, nullptr, &w.error), w.error); }, Reports},
{"clCreateProgramWithBinary_Garbage", CL_INVALID_BINARY,
 "OpenCL 3.0 API, clCreateProgramWithBinary: CL_INVALID_BINARY if an invalid program binary was encountered for any device",
 [](World &w) { const unsigned char garbage[] = "this is not a program binary of any device"; const unsigned char *b[] = {garbage}; const size_t l = sizeof garbage; cl_int status = CL_SUCCESS; return created(clCreateProgramWithBinary(w.context, 1, &w.device, &l, b, &status, &w.error), w.error); }, Reports},
{"clCreateProgramWithBuiltInKernels_UnknownName", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateProgramWithBuiltInKernels: CL_INVALID_VALUE if kernel_names contains a kernel name that is not supported by any of the devices in device_list",
 [](World &w) { return created(clCreateProgramWithBuiltInKernels(w.context, 1, &w.device, "no_such_built_in_kernel", &w.error), w.error); }, Reports},
{"clCreateProgramWithBuiltInKernels_NullNames", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateProgramWithBuiltInKernels: CL_INVALID_VALUE if kernel_names is NULL",
 [](World &w) { return created(clCreateProgramWithBuiltInKernels(w.context, 1, &w.device, nullptr, &w.error), w.error); }, Reports},
{"clCreateProgramWithBuiltInKernels_NoDevices", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateProgramWithBuiltInKernels: CL_INVALID_VALUE if device_list is NULL or num_devices is zero",
 [](World &w) { return created(clCreateProgramWithBuiltInKernels(w.context, 0, nullptr, "no_such_built_in_kernel", &w.error), w.error); }, Reports},
{"clCreateProgramWithBuiltInKernels_NullContext", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clCreateProgramWithBuiltInKernels: CL_INVALID_CONTEXT if context is not a valid context",
 [](World &w) { return created(clCreateProgramWithBuiltInKernels(nullptr, 1, &w.device, "no_such_built_in_kernel", &w.error), w.error); }},
{"clRetainProgram_Null", CL_INVALID_PROGRAM,
 "OpenCL 3.0 API, clRetainProgram: CL_INVALID_PROGRAM if program is not a valid program object",
 [](World &) { return clRetainProgram(nullptr); }},
{"clRetainProgram_KernelAsProgram", CL_INVALID_PROGRAM,
 "OpenCL 3.0 API, clRetainProgram: CL_INVALID_PROGRAM if program is not a valid program object",
 [](World &w) { return clRetainProgram(as<cl_program>(w.kernel())); }, WrongKind},
{"clReleaseProgram_Released", CL_INVALID_PROGRAM,
 "OpenCL 3.0 API, clReleaseProgram: CL_INVALID_PROGRAM if program is not a valid program object",
 [](World &w) { return clReleaseProgram(w.releasedProgram()); }, ReleasedHandle},
{"clBuildProgram_Null", CL_INVALID_PROGRAM,
 "OpenCL 3.0 API, clBuildProgram: CL_INVALID_PROGRAM if program is not a valid program object",
 [](World &w) { return clBuildProgram(nullptr, 1, &w.device, nullptr, nullptr, nullptr); }},
{"clBuildProgram_Released", CL_INVALID_PROGRAM,
 "OpenCL 3.0 API, clBuildProgram: CL_INVALID_PROGRAM if program is not a valid program object",
 [](World &w) { return clBuildProgram(w.releasedProgram(), 1, &w.device, nullptr, nullptr, nullptr); }, ReleasedHandle},
{"clBuildProgram_DevicesWithoutCount", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clBuildProgram: CL_INVALID_VALUE if device_list is not NULL and num_devices is zero",
 [](World &w) { return clBuildProgram(w.sourceProgram(), 0, &w.device, nullptr, nullptr, nullptr); }, Reports},
{"clBuildProgram_CountWithoutDevices", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clBuildProgram: CL_INVALID_VALUE if device_list is NULL and num_devices is greater than zero",
 [](World &w) { return clBuildProgram(w.sourceProgram(), 1, nullptr, nullptr, nullptr, nullptr); }, Reports},
{"clBuildProgram_ContextAsDevice", CL_INVALID_DEVICE,
 "OpenCL 3.0 API, clBuildProgram: CL_INVALID_DEVICE if any device in device_list is not in the list of devices associated with program",
 [](World &w) { const cl_device_id d = as<cl_device_id>(w.context); return clBuildProgram(w.sourceProgram(), 1, &d, nullptr, nullptr, nullptr); }, Reports | WrongKind},
{"clBuildProgram_UserDataWithoutCallback", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clBuildProgram: CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL",
 [](World &w) { return clBuildProgram(w.sourceProgram(), 1, &w.device, nullptr, nullptr, &w); }, Reports},
{"clBuildProgram_UnknownOption", CL_INVALID_BUILD_OPTIONS,
 "OpenCL 3.0 API, clBuildProgram: CL_INVALID_BUILD_OPTIONS if the build options specified by options are invalid",
 [](World &w) { return clBuildProgram(w.sourceProgram(), 1, &w.device, "-no-such-build-option", nullptr, nullptr); }, Reports},
{"clBuildProgram_SyntaxError", CL_BUILD_PROGRAM_FAILURE,
 "OpenCL 3.0 API, clBuildProgram: CL_BUILD_PROGRAM_FAILURE if there is a failure to build the program executable (returned if clBuildProgram does not return until the build has completed)",
 [](World &w) { const char *text = "kernel void broken( {"; cl_program p = clCreateProgramWithSource(w.context, 1, &text, nullptr, &w.error); const cl_int r = clBuildProgram(p, 1, &w.device, nullptr, nullptr, nullptr); clReleaseProgram(p); return r; }, Reports},
{"clBuildProgram_KernelsAttached", CL_INVALID_OPERATION,
 "OpenCL 3.0 API, clBuildProgram: CL_INVALID_OPERATION if there are kernel objects attached to program",
 [](World &w) { w.kernel(); return clBuildProgram(w.program(), 1, &w.device, nullptr, nullptr, nullptr); }, Reports},
{"clCompileProgram_Null", CL_INVALID_PROGRAM,
 "OpenCL 3.0 API, clCompileProgram: CL_INVALID_PROGRAM if program is not a valid program object",
 [](World &w) { return clCompileProgram(nullptr, 1, &w.device, nullptr, 0, nullptr, nullptr, nullptr, nullptr); }},
{"clCompileProgram_HeaderCountWithoutHeaders", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCompileProgram: CL_INVALID_VALUE if num_input_headers is not zero and header_include_names or input_headers are NULL",
 [](World &w) { return clCompileProgram(w.sourceProgram(), 1, &w.device, nullptr, 1, nullptr, nullptr, nullptr, nullptr); }, Reports, "PoCL 3.1 crashes (reads the NULL header list)"},
{"clCompileProgram_HeadersWithoutCount", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCompileProgram: CL_INVALID_VALUE if num_input_headers is zero and header_include_names or input_headers are not NULL",
 [](World &w) { cl_program header = w.sourceProgram(); const char *name = "h.h"; return clCompileProgram(w.sourceProgram(), 1, &w.device, nullptr, 0, &header, &name, nullptr, nullptr); }, Reports, "PoCL 3.1 accepts the headers"},
{"clCompileProgram_DevicesWithoutCount", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCompileProgram: CL_INVALID_VALUE if device_list is not NULL and num_devices is zero",
 [](World &w) { return clCompileProgram(w.sourceProgram(), 0, &w.device, nullptr, 0, nullptr, nullptr, nullptr, nullptr); }, Reports},
{"clCompileProgram_UserDataWithoutCallback", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCompileProgram: CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL",
 [](World &w) { return clCompileProgram(w.sourceProgram(), 1, &w.device, nullptr, 0, nullptr, nullptr, nullptr, &w); }, Reports},
{"clCompileProgram_UnknownOption", CL_INVALID_COMPILER_OPTIONS,
 "OpenCL 3.0 API, clCompileProgram: CL_INVALID_COMPILER_OPTIONS if the compiler options specified by options are invalid",
 [](World &w) { return clCompileProgram(w.sourceProgram(), 1, &w.device, "-no-such-compiler-option", 0, nullptr, nullptr, nullptr, nullptr); }, Reports},
{"clCompileProgram_SyntaxError", CL_COMPILE_PROGRAM_FAILURE,
 "OpenCL 3.0 API, clCompileProgram: CL_COMPILE_PROGRAM_FAILURE if there is a failure to compile the program source",
 [](World &w) { const char *text = "kernel void broken( {"; cl_program p = clCreateProgramWithSource(w.context, 1, &text, nullptr, &w.error); const cl_int r = clCompileProgram(p, 1, &w.device, nullptr, 0, nullptr, nullptr, nullptr, nullptr); clReleaseProgram(p); return r; }, Reports},
{"clCompileProgram_FromBinary", CL_INVALID_OPERATION,
 "OpenCL 3.0 API, clCompileProgram: CL_INVALID_OPERATION if program has no source or IL available, i.e. it has not been created with clCreateProgramWithSource or clCreateProgramWithIL",
 [](World &w) { return clCompileProgram(w.binaryProgram(), 1, &w.device, nullptr, 0, nullptr, nullptr, nullptr, nullptr); }, Reports},
{"clCompileProgram_KernelsAttached", CL_INVALID_OPERATION,
 "OpenCL 3.0 API, clCompileProgram: CL_INVALID_OPERATION if there are kernel objects attached to program",
 [](World &w) { w.kernel(); return clCompileProgram(w.program(), 1, &w.device, nullptr, 0, nullptr, nullptr, nullptr, nullptr); }, Reports},
{"clLinkProgram_NullContext", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clLinkProgram: CL_INVALID_CONTEXT if context is not a valid context",
 [](World &w) { cl_program p = w.sourceProgram(); return created(clLinkProgram(nullptr, 1, &w.device, nullptr, 1, &p, nullptr, nullptr, &w.error), w.error); }},
{"clLinkProgram_NoPrograms", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clLinkProgram: CL_INVALID_VALUE if num_input_programs is zero and input_programs is NULL",
 [](World &w) { return created(clLinkProgram(w.context, 1, &w.device, nullptr, 0, nullptr, nullptr, nullptr, &w.error), w.error); }, Reports},
{"clLinkProgram_CountWithoutPrograms", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clLinkProgram: CL_INVALID_VALUE if num_input_programs is not zero and input_programs is NULL",
 [](World &w) { return created(clLinkProgram(w.context, 1, &w.device, nullptr, 2, nullptr, nullptr, nullptr, &w.error), w.error); }, Reports},
{"clLinkProgram_NullProgram", CL_INVALID_PROGRAM,
 "OpenCL 3.0 API, clLinkProgram: CL_INVALID_PROGRAM if programs specified in input_programs are not valid program objects",
 [](World &w) { const cl_program p[] = {nullptr}; return created(clLinkProgram(w.context, 1, &w.device, nullptr, 1, p, nullptr, nullptr, &w.error), w.error); }, Reports, "PoCL 3.1 crashes (dereferences the NULL program)"},
{"clLinkProgram_UserDataWithoutCallback", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clLinkProgram: CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL",
 [](World &w) { cl_program p = w.sourceProgram(); return created(clLinkProgram(w.context, 1, &w.device, nullptr, 1, &p, nullptr, &w, &w.error), w.error); }, Reports, "PoCL 3.1 returns CL_INVALID_OPERATION"},
{"clLinkProgram_DevicesWithoutCount", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clLinkProgram: CL_INVALID_VALUE if device_list is not NULL and num_devices is zero",
 [](World &w) { cl_program p = w.sourceProgram(); return created(clLinkProgram(w.context, 0, &w.device, nullptr, 1, &p, nullptr, nullptr, &w.error), w.error); }, Reports},
{"clLinkProgram_UnknownOption", CL_INVALID_LINKER_OPTIONS,
 "OpenCL 3.0 API, clLinkProgram: CL_INVALID_LINKER_OPTIONS if the linker options specified by options are invalid",
 [](World &w) { cl_program p = w.sourceProgram(); clCompileProgram(p, 1, &w.device, nullptr, 0, nullptr, nullptr, nullptr, nullptr); return created(clLinkProgram(w.context, 1, &w.device, "-no-such-linker-option", 1, &p, nullptr, nullptr, &w.error), w.error); }, Reports},
{"clLinkProgram_NotCompiled", CL_INVALID_OPERATION,
 "OpenCL 3.0 API, clLinkProgram: CL_INVALID_OPERATION if the rules for devices containing compiled binaries or libraries as described in input_programs argument are not followed (a program that was never compiled)",
 [](World &w) { cl_program p = w.sourceProgram(); return created(clLinkProgram(w.context, 1, &w.device, nullptr, 1, &p, nullptr, nullptr, &w.error), w.error); }, Reports},
{"clGetProgramInfo_UnknownParam", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetProgramInfo: CL_INVALID_VALUE if param_name is not valid",
 [](World &w) { char v[64]; return clGetProgramInfo(w.sourceProgram(), 0x7777, sizeof v, v, nullptr); }},
{"clGetProgramInfo_ValueTooSmall", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetProgramInfo: CL_INVALID_VALUE if the size in bytes specified by param_value_size is less than the size of the return type and param_value is not NULL",
 [](World &w) { char v[4]; return clGetProgramInfo(w.sourceProgram(), CL_PROGRAM_SOURCE, sizeof v, v, nullptr); }},
{"clGetProgramInfo_NumKernelsUnbuilt", CL_INVALID_PROGRAM_EXECUTABLE,
 "OpenCL 3.0 API, clGetProgramInfo: CL_INVALID_PROGRAM_EXECUTABLE if param_name is CL_PROGRAM_NUM_KERNELS or CL_PROGRAM_KERNEL_NAMES and a successful program executable has not been built for at least one device",
 [](World &w) { size_t v; return clGetProgramInfo(w.sourceProgram(), CL_PROGRAM_NUM_KERNELS, sizeof v, &v, nullptr); }},
{"clGetProgramInfo_KernelNamesUnbuilt", CL_INVALID_PROGRAM_EXECUTABLE,
 "OpenCL 3.0 API, clGetProgramInfo: CL_INVALID_PROGRAM_EXECUTABLE if param_name is CL_PROGRAM_NUM_KERNELS or CL_PROGRAM_KERNEL_NAMES and a successful program executable has not been built for at least one device",
 [](World &w) { size_t v; return clGetProgramInfo(w.sourceProgram(), CL_PROGRAM_KERNEL_NAMES, 0, nullptr, &v); }},
{"clGetProgramInfo_QueueAsProgram", CL_INVALID_PROGRAM,
 "OpenCL 3.0 API, clGetProgramInfo: CL_INVALID_PROGRAM if program is not a valid program object",
 [](World &w) { cl_uint v; return clGetProgramInfo(as<cl_program>(w.queue), CL_PROGRAM_REFERENCE_COUNT, sizeof v, &v, nullptr); }, WrongKind},
{"clGetProgramBuildInfo_NullDevice", CL_INVALID_DEVICE,
 "OpenCL 3.0 API, clGetProgramBuildInfo: CL_INVALID_DEVICE if device is not in the list of devices associated with program",
 [](World &w) { cl_build_status v; return clGetProgramBuildInfo(w.sourceProgram(), nullptr, CL_PROGRAM_BUILD_STATUS, sizeof v, &v, nullptr); }},
{"clGetProgramBuildInfo_ContextAsDevice", CL_INVALID_DEVICE,
 "OpenCL 3.0 API, clGetProgramBuildInfo: CL_INVALID_DEVICE if device is not in the list of devices associated with program",
 [](World &w) { cl_build_status v; return clGetProgramBuildInfo(w.sourceProgram(), as<cl_device_id>(w.context), CL_PROGRAM_BUILD_STATUS, sizeof v, &v, nullptr); }, WrongKind},
{"clGetProgramBuildInfo_UnknownParam", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetProgramBuildInfo: CL_INVALID_VALUE if param_name is not valid",
 [](World &w) { char v[64]; return clGetProgramBuildInfo(w.sourceProgram(), w.device, 0x7777, sizeof v, v, nullptr); }},
{"clGetProgramBuildInfo_ValueTooSmall", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetProgramBuildInfo: CL_INVALID_VALUE if the size in bytes specified by param_value_size is less than the size of the return type and param_value is not NULL",
 [](World &w) { cl_short v; return clGetProgramBuildInfo(w.sourceProgram(), w.device, CL_PROGRAM_BUILD_STATUS, sizeof v, &v, nullptr); }},
{"clGetProgramBuildInfo_Null", CL_INVALID_PROGRAM,
 "OpenCL 3.0 API, clGetProgramBuildInfo: CL_INVALID_PROGRAM if program is not a valid program object",
 [](World &w) { cl_build_status v; return clGetProgramBuildInfo(nullptr, w.device, CL_PROGRAM_BUILD_STATUS, sizeof v, &v, nullptr); }},
{"clSetProgramReleaseCallback_NoCallback", {CL_INVALID_VALUE, CL_INVALID_OPERATION},
 "OpenCL 3.0 API, clSetProgramReleaseCallback: CL_INVALID_VALUE if pfn_notify is NULL; CL_INVALID_OPERATION if no devices in the context associated with program support destructors for program scope global variables (either check may come first)",
 [](World &w) { return clSetProgramReleaseCallback(w.sourceProgram(), nullptr, nullptr); }},
{"clSetProgramReleaseCallback_Null", CL_INVALID_PROGRAM,
 "OpenCL 3.0 API, clSetProgramReleaseCallback: CL_INVALID_PROGRAM if program is not a valid program object",
 [](World &) { return clSetProgramReleaseCallback(nullptr, [](cl_program, void *) {}, nullptr); }},
{"clSetProgramSpecializationConstant_SourceProgram", CL_INVALID_PROGRAM,
 "OpenCL 3.0 API, clSetProgramSpecializationConstant: CL_INVALID_PROGRAM if program is not a valid program object created from an intermediate language (e.g. SPIR-V)",
 [](World &w) { const cl_int v = 1; return clSetProgramSpecializationConstant(w.sourceProgram(), 7, sizeof v, &v); }, None, "PoCL 3.1 aborts (an assertion)"},
{"clSetProgramSpecializationConstant_UnknownSpecId", CL_INVALID_SPEC_ID,
 "OpenCL 3.0 API, clSetProgramSpecializationConstant: CL_INVALID_SPEC_ID if spec_id is not a valid specialization constant identifier",
 [](World &w) { const cl_int v = 1; return clSetProgramSpecializationConstant(w.ilProgram(), 8, sizeof v, &v); }, IL},
{"clSetProgramSpecializationConstant_WrongSize", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clSetProgramSpecializationConstant: CL_INVALID_VALUE if spec_size does not match the size of the specialization constant in the module",
 [](World &w) { const cl_long v = 1; return clSetProgramSpecializationConstant(w.ilProgram(), 7, sizeof v, &v); }, IL},
{"clSetProgramSpecializationConstant_NullValue", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clSetProgramSpecializationConstant: CL_INVALID_VALUE if spec_value is NULL",
 [](World &w) { return clSetProgramSpecializationConstant(w.ilProgram(), 7, sizeof(cl_int), nullptr); }, IL},

// ---------------------------------------------------------------------------
// Kernels and their arguments (5.9)
{"clCreateKernel_Null", CL_INVALID_PROGRAM,
 "OpenCL 3.0 API, clCreateKernel: CL_INVALID_PROGRAM if program is not a valid program object",
 [](World &w) { return created(clCreateKernel(nullptr, "fill", &w.error), w.error); }},
{"clCreateKernel_MemAsProgram", CL_INVALID_PROGRAM,
 "OpenCL 3.0 API, clCreateKernel: CL_INVALID_PROGRAM if program is not a valid program object",
 [](World &w) { return created(clCreateKernel(as<cl_program>(w.buffer), "fill", &w.error), w.error); }, WrongKind},
{"clCreateKernel_ReleasedProgram", CL_INVALID_PROGRAM,
 "OpenCL 3.0 API, clCreateKernel: CL_INVALID_PROGRAM if program is not a valid program object",
 [](World &w) { return created(clCreateKernel(w.releasedProgram(), "fill", &w.error), w.error); }, ReleasedHandle},
{"clCreateKernel_Unbuilt", CL_INVALID_PROGRAM_EXECUTABLE,
 "OpenCL 3.0 API, clCreateKernel: CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built executable for program",
 [](World &w) { return created(clCreateKernel(w.sourceProgram(), "fill", &w.error), w.error); }, Reports},
{"clCreateKernel_UnknownName", CL_INVALID_KERNEL_NAME,
 "OpenCL 3.0 API, clCreateKernel: CL_INVALID_KERNEL_NAME if kernel_name is not found in program",
 [](World &w) { return created(clCreateKernel(w.program(), "no_such_kernel", &w.error), w.error); }, Reports},
{"clCreateKernel_NullName", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateKernel: CL_INVALID_VALUE if kernel_name is NULL",
 [](World &w) { return created(clCreateKernel(w.program(), nullptr, &w.error), w.error); }, Reports},
{"clCreateKernelsInProgram_Unbuilt", CL_INVALID_PROGRAM_EXECUTABLE,
 "OpenCL 3.0 API, clCreateKernelsInProgram: CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built executable for any device in program",
 [](World &w) { cl_uint n; return clCreateKernelsInProgram(w.sourceProgram(), 0, nullptr, &n); }, Reports},
{"clCreateKernelsInProgram_TooFewEntries", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clCreateKernelsInProgram: CL_INVALID_VALUE if kernels is not NULL and num_kernels is less than the number of kernels in program",
 [](World &w) { cl_kernel k[1] = {}; const cl_int r = clCreateKernelsInProgram(w.program(), 1, k, nullptr); if (k[0] && r == CL_SUCCESS) clReleaseKernel(k[0]); return r; }, Reports},
{"clCreateKernelsInProgram_EventAsProgram", CL_INVALID_PROGRAM,
 "OpenCL 3.0 API, clCreateKernelsInProgram: CL_INVALID_PROGRAM if program is not a valid program object",
 [](World &w) { cl_uint n; return clCreateKernelsInProgram(as<cl_program>(w.event), 0, nullptr, &n); }, WrongKind},
{"clCloneKernel_Null", CL_INVALID_KERNEL,
 "OpenCL 3.0 API, clCloneKernel: CL_INVALID_KERNEL if kernel is not a valid kernel object",
 [](World &w) { return created(clCloneKernel(nullptr, &w.error), w.error); }},
{"clCloneKernel_Released", CL_INVALID_KERNEL,
 "OpenCL 3.0 API, clCloneKernel: CL_INVALID_KERNEL if kernel is not a valid kernel object",
 [](World &w) { return created(clCloneKernel(w.releasedKernel(), &w.error), w.error); }, ReleasedHandle},
{"clCloneKernel_ProgramAsKernel", CL_INVALID_KERNEL,
 "OpenCL 3.0 API, clCloneKernel: CL_INVALID_KERNEL if kernel is not a valid kernel object",
 [](World &w) { return created(clCloneKernel(as<cl_kernel>(w.program()), &w.error), w.error); }, WrongKind},
{"clRetainKernel_Null", CL_INVALID_KERNEL,
 "OpenCL 3.0 API, clRetainKernel: CL_INVALID_KERNEL if kernel is not a valid kernel object",
 [](World &) { return clRetainKernel(nullptr); }},
{"clReleaseKernel_Released", CL_INVALID_KERNEL,
 "OpenCL 3.0 API, clReleaseKernel: CL_INVALID_KERNEL if kernel is not a valid kernel object",
 [](World &w) { return clReleaseKernel(w.releasedKernel()); }, ReleasedHandle},
{"clReleaseKernel_ContextAsKernel", CL_INVALID_KERNEL,
 "OpenCL 3.0 API, clReleaseKernel: CL_INVALID_KERNEL if kernel is not a valid kernel object",
 [](World &w) { return clReleaseKernel(as<cl_kernel>(w.context)); }, WrongKind},
{"clSetKernelArg_Null", CL_INVALID_KERNEL,
 "OpenCL 3.0 API, clSetKernelArg: CL_INVALID_KERNEL if kernel is not a valid kernel object",
 [](World &w) { return clSetKernelArg(nullptr, 0, sizeof(cl_mem), &w.buffer); }},
{"clSetKernelArg_Released", CL_INVALID_KERNEL,
 "OpenCL 3.0 API, clSetKernelArg: CL_INVALID_KERNEL if kernel is not a valid kernel object",
 [](World &w) { return clSetKernelArg(w.releasedKernel(), 0, sizeof(cl_mem), &w.buffer); }, ReleasedHandle},
{"clSetKernelArg_IndexPastEnd", CL_INVALID_ARG_INDEX,
 "OpenCL 3.0 API, clSetKernelArg: CL_INVALID_ARG_INDEX if arg_index is not a valid argument index",
 [](World &w) { const cl_int v = 0; return clSetKernelArg(w.kernel(), 3, sizeof v, &v); }, Reports},
{"clSetKernelArg_BufferSizeFour", CL_INVALID_ARG_SIZE,
 "OpenCL 3.0 API, clSetKernelArg: CL_INVALID_ARG_SIZE if the argument is a memory object and arg_size != sizeof(cl_mem)",
 [](World &w) { return clSetKernelArg(w.kernel(), 0, 4, &w.buffer); }, Reports},
{"clSetKernelArg_QueueAsBuffer", CL_INVALID_MEM_OBJECT,
 "OpenCL 3.0 API, clSetKernelArg: CL_INVALID_MEM_OBJECT for an argument declared to be a memory object when the specified arg_value is not a valid memory object",
 [](World &w) { return clSetKernelArg(w.kernel(), 0, sizeof(cl_command_queue), &w.queue); }, Reports | WrongKind},
{"clSetKernelArg_ReleasedBuffer", CL_INVALID_MEM_OBJECT,
 "OpenCL 3.0 API, clSetKernelArg: CL_INVALID_MEM_OBJECT for an argument declared to be a memory object when the specified arg_value is not a valid memory object",
 [](World &w) { const cl_mem m = w.releasedBuffer(); return clSetKernelArg(w.kernel(), 0, sizeof m, &m); }, Reports | ReleasedHandle},
{"clSetKernelArg_OtherContextBuffer", {CL_INVALID_MEM_OBJECT, CL_INVALID_CONTEXT},
 "OpenCL 3.0 API, clSetKernelArg: CL_INVALID_MEM_OBJECT for an argument declared to be a memory object when arg_value is not a valid memory object (for the kernel); OpenCL 3.1 names CL_INVALID_CONTEXT if the context associated with kernel and an object pointed to by arg_value are not the same (either)",
 [](World &w) { return clSetKernelArg(w.kernel(), 0, sizeof(cl_mem), &w.otherBuffer); }, Reports, "PoCL 3.1 accepts a buffer of another context"},
{"clSetKernelArg_NullBufferIsLegal", CL_SUCCESS,
 "OpenCL 3.0 API, clSetKernelArg: for a buffer argument arg_value may be NULL or point to a NULL value, which is used as the argument",
 [](World &w) { const cl_mem m = nullptr; const cl_int pointsToNull = clSetKernelArg(w.kernel(), 0, sizeof m, &m); const cl_int isNull = clSetKernelArg(w.kernel(), 0, sizeof m, nullptr); return pointsToNull != CL_SUCCESS ? pointsToNull : isNull; }},
{"clSetKernelArg_ScalarWrongSize", CL_INVALID_ARG_SIZE,
 "OpenCL 3.0 API, clSetKernelArg: CL_INVALID_ARG_SIZE if arg_size does not match the size of the data type for an argument that is not a memory object",
 [](World &w) { const cl_long v = 0; return clSetKernelArg(w.kernel(), 1, sizeof v, &v); }, Reports},
{"clSetKernelArg_ScalarNullValue", CL_INVALID_ARG_VALUE,
 "OpenCL 3.0 API, clSetKernelArg: CL_INVALID_ARG_VALUE if arg_value specified is not a valid value (NULL for an argument that is not declared with the local qualifier)",
 [](World &w) { return clSetKernelArg(w.kernel(), 1, sizeof(cl_int), nullptr); }, Reports},
{"clSetKernelArg_LocalWithValue", CL_INVALID_ARG_VALUE,
 "OpenCL 3.0 API, clSetKernelArg: CL_INVALID_ARG_VALUE if arg_value specified is not a valid value (for a local argument arg_value must be NULL)",
 [](World &w) { const cl_int v = 0; return clSetKernelArg(w.kernel(), 2, sizeof v, &v); }, Reports},
{"clSetKernelArg_LocalSizeZero", CL_INVALID_ARG_SIZE,
 "OpenCL 3.0 API, clSetKernelArg: CL_INVALID_ARG_SIZE if arg_size is zero and the argument is declared with the local qualifier",
 [](World &w) { return clSetKernelArg(w.kernel(), 2, 0, nullptr); }, Reports},
{"clSetKernelArgSVMPointer_IndexPastEnd", CL_INVALID_ARG_INDEX,
 "OpenCL 3.0 API, clSetKernelArgSVMPointer: CL_INVALID_ARG_INDEX if arg_index is not a valid argument index",
 [](World &w) { return clSetKernelArgSVMPointer(w.kernel(), 9, w.svm()); }, Svm | Reports},
{"clSetKernelArgSVMPointer_Null", CL_INVALID_KERNEL,
 "OpenCL 3.0 API, clSetKernelArgSVMPointer: CL_INVALID_KERNEL if kernel is not a valid kernel object",
 [](World &w) { return clSetKernelArgSVMPointer(nullptr, 0, w.svm()); }, Svm},
{"clSetKernelExecInfo_UnknownParam", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clSetKernelExecInfo: CL_INVALID_VALUE if param_name is not valid",
 [](World &w) { void *p = w.svm(); return clSetKernelExecInfo(w.kernel(), 0x7777, sizeof p, &p); }, Svm | Reports, "PoCL 3.1 accepts any param_name"},
{"clSetKernelExecInfo_NullValue", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clSetKernelExecInfo: CL_INVALID_VALUE if param_value is NULL or if param_value_size is not valid",
 [](World &w) { return clSetKernelExecInfo(w.kernel(), CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(void *), nullptr); }, Svm | Reports, "PoCL 3.1 accepts a NULL param_value"},
{"clSetKernelExecInfo_PartialPointer", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clSetKernelExecInfo: CL_INVALID_VALUE if ... the size specified by param_value_size is not valid (CL_KERNEL_EXEC_INFO_SVM_PTRS: an array of pointers)",
 [](World &w) { void *p[2] = {w.svm(), w.svm()}; return clSetKernelExecInfo(w.kernel(), CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(void *) + 1, p); }, Svm | Reports, "PoCL 3.1 accepts any size"},
{"clSetKernelExecInfo_Null", CL_INVALID_KERNEL,
 "OpenCL 3.0 API, clSetKernelExecInfo: CL_INVALID_KERNEL if kernel is a not a valid kernel object",
 [](World &w) { void *p = w.svm(); return clSetKernelExecInfo(nullptr, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof p, &p); }, Svm},
{"clGetKernelInfo_UnknownParam", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetKernelInfo: CL_INVALID_VALUE if param_name is not valid",
 [](World &w) { char v[64]; return clGetKernelInfo(w.kernel(), 0x7777, sizeof v, v, nullptr); }},
{"clGetKernelInfo_ValueTooSmall", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetKernelInfo: CL_INVALID_VALUE if the size in bytes specified by param_value_size is less than the size of the return type and param_value is not NULL",
 [](World &w) { char v[2]; return clGetKernelInfo(w.kernel(), CL_KERNEL_FUNCTION_NAME, sizeof v, v, nullptr); }},
{"clGetKernelInfo_Null", CL_INVALID_KERNEL,
 "OpenCL 3.0 API, clGetKernelInfo: CL_INVALID_KERNEL if kernel is a not a valid kernel object",
 [](World &) { cl_uint v; return clGetKernelInfo(nullptr, CL_KERNEL_NUM_ARGS, sizeof v, &v, nullptr); }},
{"clGetKernelArgInfo_IndexPastEnd", CL_INVALID_ARG_INDEX,
 "OpenCL 3.0 API, clGetKernelArgInfo: CL_INVALID_ARG_INDEX if arg_indx is not a valid argument index",
 [](World &w) { cl_kernel_arg_address_qualifier v; return clGetKernelArgInfo(w.kernel(), 3, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof v, &v, nullptr); }},
{"clGetKernelArgInfo_UnknownParam", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetKernelArgInfo: CL_INVALID_VALUE if param_name is not valid",
 [](World &w) { char v[64]; return clGetKernelArgInfo(w.kernel(), 0, 0x7777, sizeof v, v, nullptr); }},
{"clGetKernelArgInfo_ValueTooSmall", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetKernelArgInfo: CL_INVALID_VALUE if the size in bytes specified by param_value_size is less than the size of the return type and param_value is not NULL",
 [](World &w) { cl_ushort v; return clGetKernelArgInfo(w.kernel(), 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof v, &v, nullptr); }},
{"clGetKernelArgInfo_Null", CL_INVALID_KERNEL,
 "OpenCL 3.0 API, clGetKernelArgInfo: CL_INVALID_KERNEL if kernel is a not a valid kernel object",
 [](World &) { cl_kernel_arg_address_qualifier v; return clGetKernelArgInfo(nullptr, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof v, &v, nullptr); }},
{"clGetKernelWorkGroupInfo_UnknownParam", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetKernelWorkGroupInfo: CL_INVALID_VALUE if param_name is not one of the supported values",
 [](World &w) { char v[64]; return clGetKernelWorkGroupInfo(w.kernel(), w.device, 0x7777, sizeof v, v, nullptr); }},
{"clGetKernelWorkGroupInfo_ValueTooSmall", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetKernelWorkGroupInfo: CL_INVALID_VALUE if the size in bytes specified by param_value_size is less than the size of the return type and param_value is not NULL",
 [](World &w) { size_t v[2]; return clGetKernelWorkGroupInfo(w.kernel(), w.device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof v, v, nullptr); }},
{"clGetKernelWorkGroupInfo_GlobalWorkSize", CL_INVALID_VALUE,
 "OpenCL 3.0 API, clGetKernelWorkGroupInfo: CL_INVALID_VALUE if param_name is CL_KERNEL_GLOBAL_WORK_SIZE and device is not a custom device and kernel is not a built-in kernel",
 [](World &w) { size_t v[3]; return clGetKernelWorkGroupInfo(w.kernel(), w.device, CL_KERNEL_GLOBAL_WORK_SIZE, sizeof v, v, nullptr); }},
{"clGetKernelWorkGroupInfo_QueueAsDevice", CL_INVALID_DEVICE,
 "OpenCL 3.0 API, clGetKernelWorkGroupInfo: CL_INVALID_DEVICE if device is not in the list of devices associated with kernel",
 [](World &w) { size_t v; return clGetKernelWorkGroupInfo(w.kernel(), as<cl_device_id>(w.queue), CL_KERNEL_WORK_GROUP_SIZE, sizeof v, &v, nullptr); }, WrongKind},
{"clGetKernelWorkGroupInfo_Null", CL_INVALID_KERNEL,
 "OpenCL 3.0 API, clGetKernelWorkGroupInfo: CL_INVALID_KERNEL if kernel is a not a valid kernel object",
 [](World &w) { size_t v; return clGetKernelWorkGroupInfo(nullptr, w.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof v, &v, nullptr); }},
{"clGetKernelSubGroupInfo_UnknownParam", {CL_INVALID_VALUE, CL_INVALID_OPERATION},
 "OpenCL 3.0 API, clGetKernelSubGroupInfo: CL_INVALID_VALUE if param_name is not one of the supported values; CL_INVALID_OPERATION if device does not support subgroups (either, by the device)",
 [](World &w) { const size_t local = 64; char v[64]; return clGetKernelSubGroupInfo(w.kernel(), w.device, 0x7777, sizeof local, &local, sizeof v, v, nullptr); }},
{"clGetKernelSubGroupInfo_NoInput", {CL_INVALID_VALUE, CL_INVALID_OPERATION},
 "OpenCL 3.0 API, clGetKernelSubGroupInfo: CL_INVALID_VALUE if param_name is CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE and input_value is not a valid local size; CL_INVALID_OPERATION if device does not support subgroups (either, by the device)",
 [](World &w) { size_t v; return clGetKernelSubGroupInfo(w.kernel(), w.device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, 0, nullptr, sizeof v, &v, nullptr); }},
{"clGetKernelSubGroupInfo_Null", CL_INVALID_KERNEL,
 "OpenCL 3.0 API, clGetKernelSubGroupInfo: CL_INVALID_KERNEL if kernel is a not a valid kernel object",
 [](World &w) { const size_t local = 64; size_t v; return clGetKernelSubGroupInfo(nullptr, w.device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local, &local, sizeof v, &v, nullptr); }},

// ---------------------------------------------------------------------------
// Enqueuing kernels (5.10); every global size is at most the 256 ints of
// `buffer`, so that a call accepted by mistake runs harmlessly.
{"clEnqueueNDRangeKernel_NullQueue", CL_INVALID_COMMAND_QUEUE,
 "OpenCL 3.0 API, clEnqueueNDRangeKernel: CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue",
 [](World &w) { return clEnqueueNDRangeKernel(nullptr, w.readyKernel(), 1, nullptr, sixteen, nullptr, 0, nullptr, nullptr); }},
{"clEnqueueNDRangeKernel_NullKernel", CL_INVALID_KERNEL,
 "OpenCL 3.0 API, clEnqueueNDRangeKernel: CL_INVALID_KERNEL if kernel is not a valid kernel",
 [](World &w) { return clEnqueueNDRangeKernel(w.queue, nullptr, 1, nullptr, sixteen, nullptr, 0, nullptr, nullptr); }, Reports, "PoCL 3.1 crashes (dereferences the NULL kernel)"},
{"clEnqueueNDRangeKernel_MemAsKernel", CL_INVALID_KERNEL,
 "OpenCL 3.0 API, clEnqueueNDRangeKernel: CL_INVALID_KERNEL if kernel is not a valid kernel",
 [](World &w) { return clEnqueueNDRangeKernel(w.queue, as<cl_kernel>(w.buffer), 1, nullptr, sixteen, nullptr, 0, nullptr, nullptr); }, Reports | WrongKind},
{"clEnqueueNDRangeKernel_ReleasedKernel", CL_INVALID_KERNEL,
 "OpenCL 3.0 API, clEnqueueNDRangeKernel: CL_INVALID_KERNEL if kernel is not a valid kernel",
 [](World &w) { return clEnqueueNDRangeKernel(w.queue, w.releasedKernel(), 1, nullptr, sixteen, nullptr, 0, nullptr, nullptr); }, Reports | ReleasedHandle},
{"clEnqueueNDRangeKernel_OtherContextQueue", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clEnqueueNDRangeKernel: CL_INVALID_CONTEXT if the context associated with command_queue and kernel are not the same",
 [](World &w) { return clEnqueueNDRangeKernel(w.otherQueue, w.readyKernel(), 1, nullptr, sixteen, nullptr, 0, nullptr, nullptr); }},
{"clEnqueueNDRangeKernel_OtherContextEvent", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clEnqueueNDRangeKernel: CL_INVALID_CONTEXT if the context associated with command_queue and events in event_wait_list are not the same",
 [](World &w) { return clEnqueueNDRangeKernel(w.queue, w.readyKernel(), 1, nullptr, sixteen, nullptr, 1, &w.otherEvent, nullptr); }, Reports, "PoCL 3.1 accepts an event of another context"},
{"clEnqueueNDRangeKernel_ArgumentsNotSet", CL_INVALID_KERNEL_ARGS,
 "OpenCL 3.0 API, clEnqueueNDRangeKernel: CL_INVALID_KERNEL_ARGS if any kernel arguments for kernel have not been set",
 [](World &w) { return clEnqueueNDRangeKernel(w.queue, w.kernel(), 1, nullptr, sixteen, nullptr, 0, nullptr, nullptr); }, Reports},
{"clEnqueueNDRangeKernel_LastArgumentNotSet", CL_INVALID_KERNEL_ARGS,
 "OpenCL 3.0 API, clEnqueueNDRangeKernel: CL_INVALID_KERNEL_ARGS if any kernel arguments for kernel have not been set",
 [](World &w) { cl_kernel k = w.kernel(); const cl_int v = 1; clSetKernelArg(k, 0, sizeof(cl_mem), &w.buffer); clSetKernelArg(k, 1, sizeof v, &v); return clEnqueueNDRangeKernel(w.queue, k, 1, nullptr, sixteen, nullptr, 0, nullptr, nullptr); }, Reports},
{"clEnqueueNDRangeKernel_WorkDimZero", CL_INVALID_WORK_DIMENSION,
 "OpenCL 3.0 API, clEnqueueNDRangeKernel: CL_INVALID_WORK_DIMENSION if work_dim is not valid for the device (work_dim must be greater than zero)",
 [](World &w) { return clEnqueueNDRangeKernel(w.queue, w.readyKernel(), 0, nullptr, sixteen, nullptr, 0, nullptr, nullptr); }, Reports},
{"clEnqueueNDRangeKernel_WorkDimFour", CL_INVALID_WORK_DIMENSION,
 "OpenCL 3.0 API, clEnqueueNDRangeKernel: CL_INVALID_WORK_DIMENSION if work_dim is greater than CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS (3)",
 [](World &w) { const size_t g[4] = {16, 1, 1, 1}; return clEnqueueNDRangeKernel(w.queue, w.readyKernel(), 4, nullptr, g, nullptr, 0, nullptr, nullptr); }, Reports},
{"clEnqueueNDRangeKernel_LocalSizeZero", CL_INVALID_WORK_GROUP_SIZE,
 "OpenCL 3.0 API, clEnqueueNDRangeKernel: CL_INVALID_WORK_GROUP_SIZE if local_work_size is not NULL and the total number of work-items in the work-group is zero",
 [](World &w) { const size_t l[3] = {0, 1, 1}; return clEnqueueNDRangeKernel(w.queue, w.readyKernel(), 1, nullptr, sixteen, l, 0, nullptr, nullptr); }, Reports, "PoCL 3.1 accepts a zero local size"},
{"clEnqueueNDRangeKernel_LocalSizeZeroInSecondDimension", CL_INVALID_WORK_GROUP_SIZE,
 "OpenCL 3.0 API, clEnqueueNDRangeKernel: CL_INVALID_WORK_GROUP_SIZE if local_work_size is not NULL and the total number of work-items in the work-group is zero",
 [](World &w) { const size_t g[2] = {16, 4}, l[2] = {4, 0}; return clEnqueueNDRangeKernel(w.queue, w.readyKernel(), 2, nullptr, g, l, 0, nullptr, nullptr); }, Reports, "PoCL 3.1 aborts (divides by the zero local size)"},
{"clEnqueueNDRangeKernel_LocalAboveKernelWorkGroupSize", CL_INVALID_WORK_GROUP_SIZE,
 "OpenCL 3.0 API, clEnqueueNDRangeKernel: CL_INVALID_WORK_GROUP_SIZE if local_work_size is not NULL and the total number of work-items in the work-group is greater than CL_KERNEL_WORK_GROUP_SIZE (each dimension within CL_DEVICE_MAX_WORK_ITEM_SIZES)",
 [](World &w) { return w.enqueueAboveKernelWorkGroupSize(); }, Reports},
{"clEnqueueNDRangeKernel_LocalAboveMaxWorkItemSize", {CL_INVALID_WORK_ITEM_SIZE, CL_INVALID_WORK_GROUP_SIZE},
 "OpenCL 3.0 API, clEnqueueNDRangeKernel: CL_INVALID_WORK_ITEM_SIZE if the number of work-items specified in any dimension of local_work_size is greater than CL_DEVICE_MAX_WORK_ITEM_SIZES; the work-group is then also above CL_KERNEL_WORK_GROUP_SIZE, CL_INVALID_WORK_GROUP_SIZE (either)",
 [](World &w) { size_t items[3] = {}; clGetDeviceInfo(w.device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof items, items, nullptr); const size_t g[3] = {1, 1, 256}, l[3] = {1, 1, items[2] + 1}; return clEnqueueNDRangeKernel(w.queue, w.readyKernel(), 3, nullptr, g, l, 0, nullptr, nullptr); }, Reports},
{"clEnqueueNDRangeKernel_RequiredSizeMismatch", CL_INVALID_WORK_GROUP_SIZE,
 "OpenCL 3.0 API, clEnqueueNDRangeKernel: CL_INVALID_WORK_GROUP_SIZE if local_work_size is not NULL and does not match the required work-group size for kernel",
 [](World &w) { cl_kernel k = w.newKernel("fixed"); clSetKernelArg(k, 0, sizeof(cl_mem), &w.buffer); const size_t l[1] = {8}; return clEnqueueNDRangeKernel(w.queue, k, 1, nullptr, sixteen, l, 0, nullptr, nullptr); }, Reports},
{"clEnqueueNDRangeKernel_OffsetOverflows", CL_INVALID_GLOBAL_OFFSET,
 "OpenCL 3.0 API, clEnqueueNDRangeKernel: CL_INVALID_GLOBAL_OFFSET if the value specified in global_work_size plus the corresponding value in global_work_offset for any dimensions is greater than the maximum value representable by size_t",
 [](World &w) { const size_t o[1] = {SIZE_MAX - 4}; return clEnqueueNDRangeKernel(w.queue, w.readyKernel(), 1, o, sixteen, nullptr, 0, nullptr, nullptr); }, Reports, "PoCL 3.1 aborts (an assertion)"},
{"clEnqueueNDRangeKernel_CountWithoutList", CL_INVALID_EVENT_WAIT_LIST,
 "OpenCL 3.0 API, clEnqueueNDRangeKernel: CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and num_events_in_wait_list > 0",
 [](World &w) { return clEnqueueNDRangeKernel(w.queue, w.readyKernel(), 1, nullptr, sixteen, nullptr, 1, nullptr, nullptr); }, Reports, "PoCL 3.1 crashes (reads the NULL wait list)"},
{"clEnqueueNDRangeKernel_ListWithoutCount", CL_INVALID_EVENT_WAIT_LIST,
 "OpenCL 3.0 API, clEnqueueNDRangeKernel: CL_INVALID_EVENT_WAIT_LIST if event_wait_list is not NULL and num_events_in_wait_list is 0",
 [](World &w) { return clEnqueueNDRangeKernel(w.queue, w.readyKernel(), 1, nullptr, sixteen, nullptr, 0, &w.event, nullptr); }, Reports, "PoCL 3.1 accepts a wait list with a zero count"},
{"clEnqueueNDRangeKernel_KernelAsEvent", CL_INVALID_EVENT_WAIT_LIST,
 "OpenCL 3.0 API, clEnqueueNDRangeKernel: CL_INVALID_EVENT_WAIT_LIST if event objects in event_wait_list are not valid events",
 [](World &w) { cl_kernel k = w.readyKernel(); const cl_event e[] = {as<cl_event>(k)}; return clEnqueueNDRangeKernel(w.queue, k, 1, nullptr, sixteen, nullptr, 1, e, nullptr); }, Reports | WrongKind},
{"clEnqueueTask_NullKernel", CL_INVALID_KERNEL,
 "OpenCL 3.0 API, clEnqueueTask: CL_INVALID_KERNEL if kernel is not a valid kernel object (the errors of clEnqueueNDRangeKernel with work_dim 1 and sizes 1)",
 [](World &w) { return clEnqueueTask(w.queue, nullptr, 0, nullptr, nullptr); }, Reports, "PoCL 3.1 crashes (dereferences the NULL kernel)"},
{"clEnqueueTask_ArgumentsNotSet", CL_INVALID_KERNEL_ARGS,
 "OpenCL 3.0 API, clEnqueueTask: CL_INVALID_KERNEL_ARGS if any kernel arguments for kernel have not been set",
 [](World &w) { return clEnqueueTask(w.queue, w.kernel(), 0, nullptr, nullptr); }, Reports},
{"clEnqueueTask_RequiredSizeMismatch", CL_INVALID_WORK_GROUP_SIZE,
 "OpenCL 3.0 API, clEnqueueTask: CL_INVALID_WORK_GROUP_SIZE if a work-group size is specified for kernel using the __attribute__((reqd_work_group_size(X, Y, Z))) qualifier in program source and is not (1, 1, 1)",
 [](World &w) { cl_kernel k = w.newKernel("fixed"); clSetKernelArg(k, 0, sizeof(cl_mem), &w.buffer); return clEnqueueTask(w.queue, k, 0, nullptr, nullptr); }, Reports},
{"clEnqueueTask_OtherContextQueue", CL_INVALID_CONTEXT,
 "OpenCL 3.0 API, clEnqueueTask: CL_INVALID_CONTEXT if context associated with command_queue and kernel are not the same",
 [](World &w) { return clEnqueueTask(w.otherQueue, w.readyKernel(), 0, nullptr, nullptr); }},
{"clEnqueueTask_ReleasedQueue", CL_INVALID_COMMAND_QUEUE,
 "OpenCL 3.0 API, clEnqueueTask: CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue",
 [](World &w) { return clEnqueueTask(w.releasedQueue(), w.readyKernel(), 0, nullptr, nullptr); }, ReleasedHandle},
};
// clang-format on

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

INSTANTIATE_TEST_SUITE_P(Misuse, ApiMisuse, ::testing::ValuesIn(rows),
                         [](const ::testing::TestParamInfo<Row> &info) {
                           return std::string(info.param.name);
                         });

} // namespace
} // namespace lanewise::test
