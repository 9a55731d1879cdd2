// SPDX-License-Identifier: Apache-2.0
// A complete OpenCL C++ program: builds a kernel from OpenCL C source on the
// Lanewise platform, runs it over a million work-items with a partial last
// work-group, and checks every result on the host.
#define CL_HPP_TARGET_OPENCL_VERSION 300
#define CL_HPP_MINIMUM_OPENCL_VERSION 200
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

static const char *source = R"(
kernel void saxpy(float a, global const float *x, global float *y, uint n) {
  uint i = get_global_id(0);
  if (i < n)
    y[i] = a * x[i] + y[i];
}
)";

int main() {
  try {
    std::vector<cl::Platform> platforms;
    cl::Platform::get(&platforms);
    cl::Platform lanewise;
    for (const cl::Platform &platform : platforms)
      if (platform.getInfo<CL_PLATFORM_NAME>() == "Lanewise")
        lanewise = platform;
    if (!lanewise()) {
      std::fprintf(stderr, "the Lanewise platform was not found\n");
      return 1;
    }
    cl::Context context(CL_DEVICE_TYPE_ALL,
                        std::vector<cl_context_properties>{
                            CL_CONTEXT_PLATFORM,
                            reinterpret_cast<cl_context_properties>(lanewise()), 0}
                            .data());
    cl::Device device = context.getInfo<CL_CONTEXT_DEVICES>().front();
    cl::CommandQueue queue(context, device);

    cl::Program program(context, source);
    try {
      // OpenCL C 2.0 and later allow the smaller last work-group below.
      program.build("-cl-std=CL3.0");
    } catch (const cl::BuildError &error) {
      for (const auto &[built, log] : error.getBuildLog())
        std::fprintf(stderr, "%s\n", log.c_str());
      throw;
    }

    const cl_uint n = 1'000'003; // not a multiple of any work-group size
    const float a = 2.5f;
    std::vector<float> x(n), y(n);
    for (cl_uint i = 0; i < n; ++i) {
      x[i] = 0.25f * static_cast<float>(i % 1000);
      y[i] = 1.0f - static_cast<float>(i % 7);
    }
    cl::Buffer xBuffer(context, x.begin(), x.end(), true);
    cl::Buffer yBuffer(context, y.begin(), y.end(), false);

    cl::KernelFunctor<float, cl::Buffer, cl::Buffer, cl_uint> saxpy(program, "saxpy");
    saxpy(cl::EnqueueArgs(queue, cl::NDRange(n), cl::NDRange(128)), a, xBuffer, yBuffer, n);

    std::vector<float> result(n);
    cl::copy(queue, yBuffer, result.begin(), result.end());
    size_t wrong = 0;
    for (cl_uint i = 0; i < n; ++i)
      wrong += result[i] != std::fma(a, x[i], y[i]) && result[i] != a * x[i] + y[i];
    std::printf("saxpy on %s: %u work-items, %zu wrong\n",
                device.getInfo<CL_DEVICE_NAME>().c_str(), n, wrong);
    return wrong == 0 ? 0 : 1;
  } catch (const cl::Error &error) {
    std::fprintf(stderr, "OpenCL error %d in %s\n", error.err(), error.what());
    return 1;
  }
}
