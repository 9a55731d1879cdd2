// SPDX-License-Identifier: Apache-2.0
// The fixture of the checked mode's tests (check_*_test.cpp): each kernel
// of cl/bugs.cl has one planted bug, which must be reported with the right
// kind, kernel, source line and work-item; the correct kernels must run
// without findings. Each kernel runs from the SPIR-V of three builds: -O2 -g,
// -O0 -g and -O2 without debug information (where the report names the
// instruction instead of a line), the parameter of every suite. The tests run
// with LANEWISE_DETERMINISTIC=1 (set in check_fixture.cpp), so the first
// finding is that of the first offending work-item in work-group order.
#pragma once

#include "common.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

namespace lanewise::test {

// One finding, from a line of the JSON report (LANEWISE_CHECK_JSON).
struct Finding {
  std::string kind, kernel, opcode, file, addressSpace, message;
  long line = -1;
  std::vector<long> globalId;
};

std::vector<Finding> readFindings(const std::string &path);

// The line of cl/bugs.cl marked BUG in kernel `name` (or in the function
// defined just before it, for bugs in called functions).
long markedLine(const std::string &name);

std::vector<char> readBinary(const std::string &path);

// n consecutive ints from `first`.
std::vector<int> iota(int n, int first = 0);

// The suites' parameter's name in test names: O2, O0, nodebug.
std::string buildName(const ::testing::TestParamInfo<const char *> &info);

class CheckedMode : public ContextTest, public ::testing::WithParamInterface<const char *> {
protected:
  void SetUp() override {
    ContextTest::SetUp();
    char pattern[] = "/tmp/lanewise-findings-XXXXXX";
    const int fd = mkstemp(pattern);
    ASSERT_GE(fd, 0);
    close(fd);
    report_ = pattern;
    setenv("LANEWISE_CHECK_JSON", report_.c_str(), 1);
  }
  void TearDown() override {
    for (cl_mem mem : buffers_)
      clReleaseMemObject(mem);
    for (cl_kernel k : kernels_)
      clReleaseKernel(k);
    if (program_)
      clReleaseProgram(program_);
    unsetenv("LANEWISE_CHECK_JSON");
    std::remove(report_.c_str());
    ContextTest::TearDown();
  }

  bool withDebugInfo() const { return std::string(GetParam()) != "bugs-nodebug"; }

  cl_kernel kernel(const std::string &name, const char *options = "-lanewise-check=all") {
    if (!program_) {
      const std::vector<char> il =
          readBinary(std::string(LANEWISE_KERNEL_DIR) + "/" + GetParam() + ".spv");
      cl_int err = CL_SUCCESS;
      program_ = clCreateProgramWithIL(context, il.data(), il.size(), &err);
      EXPECT_EQ(err, CL_SUCCESS);
      if (clBuildProgram(program_, 1, &device, options, nullptr, nullptr) != CL_SUCCESS) {
        size_t size = 0;
        clGetProgramBuildInfo(program_, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
        std::string log(size, '\0');
        clGetProgramBuildInfo(program_, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
        ADD_FAILURE() << log;
        return nullptr;
      }
    }
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(program_, name.c_str(), &err);
    EXPECT_EQ(err, CL_SUCCESS) << name;
    kernels_.push_back(k);
    return k;
  }

  // The first `count` elements of `mem` (a failed read fails the test).
  template <typename T> std::vector<T> read(cl_mem mem, size_t count) {
    std::vector<T> data(count);
    EXPECT_EQ(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, count * sizeof(T), data.data(), 0,
                                  nullptr, nullptr),
              CL_SUCCESS);
    return data;
  }
  std::vector<int> readInts(cl_mem mem, size_t count) { return read<int>(mem, count); }
  std::vector<float> readFloats(cl_mem mem, size_t count) { return read<float>(mem, count); }

  template <typename T> cl_mem buffer(const std::vector<T> &data, cl_mem_flags flags = 0) {
    cl_int err = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR | flags,
                                data.size() * sizeof(T), const_cast<T *>(data.data()), &err);
    EXPECT_EQ(err, CL_SUCCESS);
    buffers_.push_back(mem);
    return mem;
  }
  template <typename T> void arg(cl_kernel k, cl_uint index, const T &value) {
    ASSERT_EQ(clSetKernelArg(k, index, sizeof value, &value), CL_SUCCESS) << "argument " << index;
  }
  void localArg(cl_kernel k, cl_uint index, size_t bytes) {
    ASSERT_EQ(clSetKernelArg(k, index, bytes, nullptr), CL_SUCCESS);
  }

  // Runs k and returns what the checked mode reported.
  std::vector<Finding> run(cl_kernel k, std::vector<size_t> global, std::vector<size_t> local) {
    EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, static_cast<cl_uint>(global.size()), nullptr,
                                     global.data(), local.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(clFinish(queue), CL_SUCCESS);
    return readFindings(report_);
  }

  // The first finding is `kind` in `kernel` at its BUG line, by `globalId`;
  // every finding is at that line.
  void expectFinding(const std::vector<Finding> &findings, const std::string &kind,
                     const std::string &kernelName, std::vector<long> globalId) {
    ASSERT_FALSE(findings.empty()) << "no finding for " << kernelName;
    const Finding &first = findings.front();
    EXPECT_EQ(first.kind, kind);
    EXPECT_EQ(first.kernel, kernelName);
    EXPECT_EQ(first.globalId, globalId);
    EXPECT_FALSE(first.opcode.empty());
    const long line = withDebugInfo() ? markedLine(kernelName) : 0;
    ASSERT_GT(markedLine(kernelName), 0);
    for (const Finding &f : findings) {
      EXPECT_EQ(f.line, line) << f.kind << " " << f.opcode;
      if (withDebugInfo())
        EXPECT_EQ(f.file.substr(f.file.find_last_of('/') + 1), "bugs.cl");
      else
        EXPECT_EQ(f.file, "");
    }
  }

  // The first finding's message names the other work-item of a race (as
  // the report words it) and, with debug information, the line of its
  // access, `linesAbove` lines above the kernel's BUG line.
  void expectOther(const std::vector<Finding> &findings, const std::string &kernelName,
                   const std::string &other, std::optional<long> linesAbove = std::nullopt) {
    ASSERT_FALSE(findings.empty()) << "no finding for " << kernelName;
    const std::string &message = findings.front().message;
    EXPECT_NE(message.find(other), std::string::npos) << message;
    if (linesAbove && withDebugInfo()) {
      const std::string line =
          "bugs.cl:" + std::to_string(markedLine(kernelName) - *linesAbove) + ":";
      EXPECT_NE(message.find(line), std::string::npos) << message;
    }
  }

  std::string report_;
  cl_program program_ = nullptr;
  std::vector<cl_mem> buffers_;
  std::vector<cl_kernel> kernels_;
};

} // namespace lanewise::test
