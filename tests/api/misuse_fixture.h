// SPDX-License-Identifier: Apache-2.0
// What the rows of the API misuse table share (misuse_*_test.cpp): the
// World of objects a row misuses, the codes a row accepts and the row
// itself, and helpers of the calls (misuse_test.cpp says what the table is).
#pragma once

#include "common.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <mutex>
#include <ostream>
#include <string>
#include <vector>

namespace lanewise::test::misuse {

// A pseudo error code for the calls that answer a misuse with a NULL pointer
// and have no errcode_ret (clSVMAlloc, clGetExtensionFunctionAddress*).
constexpr cl_int returnedNull = 1;

// The name of an error code, or its number.
std::string errorName(cl_int code);

inline const char kernelSource[] = R"(
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
inline const std::uint32_t specConstantModule[] = {
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

// The errcode_ret of a call that creates an object, read after the call (by
// reference: argument evaluation order is unspecified); an object made by
// mistake is released.
cl_int created(cl_context object, const cl_int &error);
cl_int created(cl_command_queue object, const cl_int &error);
cl_int created(cl_mem object, const cl_int &error);
cl_int created(cl_event object, const cl_int &error);
cl_int created(cl_program object, const cl_int &error);
cl_int created(cl_kernel object, const cl_int &error);
cl_int created(cl_sampler object, const cl_int &error);
cl_int mapped(World &w, cl_mem buffer, void *pointer, const cl_int &error);

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

void PrintTo(const Row &row, std::ostream *out);

using Call = std::function<cl_int(World &)>;

inline const size_t one[3] = {1, 1, 1};
inline const size_t sixteen[3] = {16, 1, 1};

// The rows of the table, by area, in the order they run: platforms,
// devices, contexts, queues and events (misuse_test.cpp); memory objects
// and their transfers (misuse_memory_test.cpp); programs, kernels and
// their enqueuing (misuse_program_test.cpp).
std::vector<Row> memoryRows();
std::vector<Row> programRows();

} // namespace lanewise::test::misuse
