// SPDX-License-Identifier: Apache-2.0
// A small harness for kernel tests: load a kernel compiled at build time,
// set its arguments, run it, read results back. Everything goes through the
// OpenCL API and the ICD loader.
#pragma once

#include "common.h"

#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace lanewise::test {

// A __local argument of `bytes` bytes.
struct Local {
  size_t bytes;
};

class KernelTest : public ContextTest {
protected:
  void TearDown() override;

  // Builds tests/kernels/cl/NAME.cl as compiled at build time; `variant` ""
  // is -O2, "-O0" the unoptimised build. Fails the test with the build log
  // if the build fails.
  cl_program program(const std::string &name, const std::string &variant = "");
  cl_kernel kernel(const std::string &file, const std::string &kernelName,
                   const std::string &variant = "");
  // The build status and log of a program from NAME.spv, without asserting.
  cl_int tryBuild(const std::string &name, std::string &log, const std::string &variant = "");

  template <typename T> cl_mem buffer(const std::vector<T> &data) {
    return makeBuffer(data.data(), data.size() * sizeof(T));
  }
  template <typename T> cl_mem buffer(size_t count) {
    std::vector<T> zero(count);
    return buffer(zero);
  }
  template <typename T> std::vector<T> read(cl_mem mem, size_t count) {
    std::vector<T> data(count);
    EXPECT_EQ(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, count * sizeof(T), data.data(), 0,
                                  nullptr, nullptr),
              CL_SUCCESS);
    return data;
  }

  template <typename... Args> void setArgs(cl_kernel k, const Args &...args) {
    cl_uint index = 0;
    (setArg(k, index++, args), ...);
  }

  // Runs k over `global` (1 to 3 dimensions) with `local` (empty: the
  // implementation chooses) and `offset`, and waits for it.
  void run(cl_kernel k, std::vector<size_t> global, std::vector<size_t> local = {},
           std::vector<size_t> offset = {});

  // Argument `index` alone.
  void setArg(cl_kernel k, cl_uint index, cl_mem mem) {
    ASSERT_EQ(clSetKernelArg(k, index, sizeof mem, &mem), CL_SUCCESS) << "argument " << index;
  }
  void setArg(cl_kernel k, cl_uint index, Local local) {
    ASSERT_EQ(clSetKernelArg(k, index, local.bytes, nullptr), CL_SUCCESS) << "argument " << index;
  }
  template <typename T> void setArg(cl_kernel k, cl_uint index, const T &value) {
    static_assert(std::is_trivially_copyable_v<T>);
    ASSERT_EQ(clSetKernelArg(k, index, sizeof value, &value), CL_SUCCESS) << "argument " << index;
  }

private:
  cl_mem makeBuffer(const void *data, size_t bytes);

  std::vector<cl_mem> buffers_;
  std::vector<cl_kernel> kernels_;
  std::vector<cl_program> programs_;
};

// A KernelTest whose tests share one context and queue and build each
// program once per process: a program of hundreds of kernels takes a while
// to build, and most tests of a suite use the same one.
class SharedContextTest : public KernelTest {
protected:
  void SetUp() override;
  void TearDown() override;
  // Kernel `name` of tests/kernels/cl/FILE.cl, built once per variant. With
  // `missing`, a kernel the program lacks (types whose built-ins the OpenCL C
  // headers do not declare) sets *missing and returns nullptr instead of failing.
  cl_kernel cachedKernel(const std::string &file, const std::string &name,
                         const std::string &variant, bool *missing = nullptr);

private:
  std::vector<cl_kernel> cachedKernels_;
};

} // namespace lanewise::test
