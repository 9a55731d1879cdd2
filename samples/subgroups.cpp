// SPDX-License-Identifier: Apache-2.0
// Sub-groups on Lanewise: a sum of every sub-group with shuffle_xor steps
// (a butterfly) and an inclusive prefix sum with shuffle_up steps, checked
// against the host, with a work-group size that leaves the last sub-group
// partial. Built from OpenCL C source.
#include <CL/cl.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

static const char *source = R"(
kernel void butterfly_sum(global const int *in, global int *sum) {
  int x = in[get_global_id(0)];
  // Every lane ends with the sum of its sub-group. The masks stay below the
  // sub-group's own size, so that every lane reads a lane of its sub-group:
  // sizes that are powers of two, here 16 and the last sub-group's 8.
  for (uint mask = get_sub_group_size() / 2; mask > 0; mask /= 2)
    x += sub_group_shuffle_xor(x, mask);
  sum[get_global_id(0)] = x;
}

kernel void prefix_sum(global const int *in, global int *scan) {
  int x = in[get_global_id(0)];
  uint lane = get_sub_group_local_id();
  for (uint delta = 1; delta < get_max_sub_group_size(); delta *= 2) {
    int from = sub_group_shuffle_up(x, delta);
    if (lane >= delta) // lanes below delta have no lane to read from
      x += from;
  }
  scan[get_global_id(0)] = x;
}
)";

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cl_int error_ = (call);                                                                        \
    if (error_ != CL_SUCCESS) {                                                                    \
      std::fprintf(stderr, "%s failed: %d\n", #call, error_);                                     \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

int main() {
  cl_uint count = 0;
  CHECK(clGetPlatformIDs(0, nullptr, &count));
  std::vector<cl_platform_id> platforms(count);
  CHECK(clGetPlatformIDs(count, platforms.data(), nullptr));
  cl_platform_id lanewise = nullptr;
  for (cl_platform_id platform : platforms) {
    char name[64] = {};
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name, name, nullptr);
    if (std::string(name) == "Lanewise")
      lanewise = platform;
  }
  if (!lanewise) {
    std::fprintf(stderr, "the Lanewise platform was not found\n");
    return 1;
  }
  cl_device_id device;
  CHECK(clGetDeviceIDs(lanewise, CL_DEVICE_TYPE_ALL, 1, &device, nullptr));
  cl_int error = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &error);
  CHECK(error);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &error);
  CHECK(error);
  cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &error);
  CHECK(error);
  if (clBuildProgram(program, 1, &device, "-cl-std=CL3.0", nullptr, nullptr) != CL_SUCCESS) {
    char log[8192] = {};
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, nullptr);
    std::fprintf(stderr, "build failed:\n%s\n", log);
    return 1;
  }

  const size_t n = 1000, local = 200; // 200 = 12 sub-groups of 16 and one of 8
  std::vector<int> in(n);
  for (size_t i = 0; i < n; ++i)
    in[i] = static_cast<int>((i * 37) % 101) - 50;
  cl_mem input = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, n * sizeof(int), in.data(), &error);
  CHECK(error);
  cl_mem output = clCreateBuffer(context, CL_MEM_READ_WRITE, n * sizeof(int), nullptr, &error);
  CHECK(error);

  cl_kernel butterfly = clCreateKernel(program, "butterfly_sum", &error);
  CHECK(error);
  size_t subgroupSize = 0;
  CHECK(clGetKernelSubGroupInfo(butterfly, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                sizeof local, &local, sizeof subgroupSize, &subgroupSize, nullptr));
  std::printf("sub-group size %zu, work-group size %zu\n", subgroupSize, local);

  int failures = 0;
  // Sub-group k of a work-group holds its lanes [k * S, k * S + S).
  auto subgroupBegin = [&](size_t i) { return i - (i % local) % subgroupSize; };
  auto subgroupEnd = [&](size_t i) {
    return std::min(subgroupBegin(i) + subgroupSize, i - i % local + local);
  };

  CHECK(clSetKernelArg(butterfly, 0, sizeof input, &input));
  CHECK(clSetKernelArg(butterfly, 1, sizeof output, &output));
  CHECK(clEnqueueNDRangeKernel(queue, butterfly, 1, nullptr, &n, &local, 0, nullptr, nullptr));
  std::vector<int> out(n);
  CHECK(clEnqueueReadBuffer(queue, output, CL_TRUE, 0, n * sizeof(int), out.data(), 0, nullptr,
                            nullptr));
  for (size_t i = 0; i < n; ++i) {
    int expected = 0;
    for (size_t j = subgroupBegin(i); j < subgroupEnd(i); ++j)
      expected += in[j];
    failures += out[i] != expected;
  }
  std::printf("butterfly sums (partial last sub-groups included): %s\n",
              failures ? "WRONG" : "checked");

  cl_kernel prefix = clCreateKernel(program, "prefix_sum", &error);
  CHECK(error);
  CHECK(clSetKernelArg(prefix, 0, sizeof input, &input));
  CHECK(clSetKernelArg(prefix, 1, sizeof output, &output));
  CHECK(clEnqueueNDRangeKernel(queue, prefix, 1, nullptr, &n, &local, 0, nullptr, nullptr));
  CHECK(clEnqueueReadBuffer(queue, output, CL_TRUE, 0, n * sizeof(int), out.data(), 0, nullptr,
                            nullptr));
  int scanFailures = 0;
  for (size_t i = 0; i < n; ++i) {
    int expected = 0;
    for (size_t j = subgroupBegin(i); j <= i; ++j)
      expected += in[j];
    scanFailures += out[i] != expected;
  }
  std::printf("prefix sums (partial last sub-groups included): %s\n",
              scanFailures ? "WRONG" : "checked");
  std::printf("first sub-group: in  ");
  for (size_t i = 0; i < 8; ++i)
    std::printf("%4d", in[i]);
  std::printf(" ...\n                 scan");
  for (size_t i = 0; i < 8; ++i)
    std::printf("%4d", out[i]);
  std::printf(" ...\n");

  clReleaseKernel(prefix);
  clReleaseKernel(butterfly);
  clReleaseMemObject(output);
  clReleaseMemObject(input);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return failures + scanFailures ? 1 : 0;
}
