// SPDX-License-Identifier: Apache-2.0
#include "harness.h"

#include <fstream>
#include <map>
#include <iterator>

namespace lanewise::test {

void KernelTest::TearDown() {
  if (queue)
    clFinish(queue);
  for (cl_kernel k : kernels_)
    clReleaseKernel(k);
  for (cl_mem mem : buffers_)
    clReleaseMemObject(mem);
  for (cl_program p : programs_)
    clReleaseProgram(p);
  ContextTest::TearDown();
}

cl_int KernelTest::tryBuild(const std::string &name, std::string &log, const std::string &variant) {
  const std::string path = std::string(LANEWISE_KERNEL_DIR) + "/" + name + variant + ".spv";
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    log = "cannot open " + path;
    return CL_INVALID_VALUE;
  }
  std::vector<char> il((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  cl_int error = CL_SUCCESS;
  cl_program p = clCreateProgramWithIL(context, il.data(), il.size(), &error);
  if (error != CL_SUCCESS)
    return error;
  programs_.push_back(p);
  error = clBuildProgram(p, 1, &device, "", nullptr, nullptr);
  size_t size = 0;
  clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
  log.assign(size, '\0');
  clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  return error;
}

cl_program KernelTest::program(const std::string &name, const std::string &variant) {
  std::string log;
  const cl_int error = tryBuild(name, log, variant);
  EXPECT_EQ(error, CL_SUCCESS) << name << variant << ": " << log;
  return error == CL_SUCCESS ? programs_.back() : nullptr;
}

cl_kernel KernelTest::kernel(const std::string &file, const std::string &kernelName,
                             const std::string &variant) {
  cl_program p = program(file, variant);
  if (!p)
    return nullptr;
  cl_int error = CL_SUCCESS;
  cl_kernel k = clCreateKernel(p, kernelName.c_str(), &error);
  EXPECT_EQ(error, CL_SUCCESS) << kernelName;
  if (k)
    kernels_.push_back(k);
  return k;
}

cl_mem KernelTest::makeBuffer(const void *data, size_t bytes) {
  cl_int error = CL_SUCCESS;
  cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              bytes ? bytes : 1, const_cast<void *>(data), &error);
  EXPECT_EQ(error, CL_SUCCESS);
  buffers_.push_back(mem);
  return mem;
}

void KernelTest::run(cl_kernel k, std::vector<size_t> global, std::vector<size_t> local,
                     std::vector<size_t> offset) {
  ASSERT_NE(k, nullptr);
  const cl_uint dimensions = static_cast<cl_uint>(global.size());
  ASSERT_EQ(clEnqueueNDRangeKernel(queue, k, dimensions, offset.empty() ? nullptr : offset.data(),
                                   global.data(), local.empty() ? nullptr : local.data(), 0,
                                   nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
}

namespace {
struct SharedState {
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  std::map<std::string, cl_program> programs; // by file and variant
};
SharedState &sharedState() {
  static SharedState state;
  return state;
}
} // namespace

void SharedContextTest::SetUp() {
  SharedState &s = sharedState();
  if (!s.context) {
    ContextTest::SetUp();
    if (HasFatalFailure())
      return;
    s.context = context;
    s.queue = queue;
  } else {
    platform = testPlatform();
    device = testDevice();
    context = s.context;
    queue = s.queue;
  }
  // TearDown releases one reference of each; the shared state keeps its own.
  clRetainContext(context);
  clRetainCommandQueue(queue);
}

void SharedContextTest::TearDown() {
  for (cl_kernel k : cachedKernels_)
    clReleaseKernel(k);
  cachedKernels_.clear();
  KernelTest::TearDown();
}

cl_kernel SharedContextTest::cachedKernel(const std::string &file, const std::string &name,
                                          const std::string &variant, bool *missing) {
  cl_program &p = sharedState().programs[file + variant];
  if (!p) {
    p = program(file, variant);
    if (!p)
      return nullptr;
    clRetainProgram(p); // program() releases its reference at tear-down
  }
  cl_int error = CL_SUCCESS;
  cl_kernel k = clCreateKernel(p, name.c_str(), &error);
  if (missing && error == CL_INVALID_KERNEL_NAME) {
    *missing = true;
    return nullptr;
  }
  EXPECT_EQ(error, CL_SUCCESS) << name << variant;
  if (k)
    cachedKernels_.push_back(k);
  return k;
}

} // namespace lanewise::test
