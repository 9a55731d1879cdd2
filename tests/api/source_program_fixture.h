// SPDX-License-Identifier: Apache-2.0
// What the source program tests share (source_*_test.cpp): queries of a
// program's build information, temporary folders and files, the fixture
// that creates, builds, compiles, links and runs programs and releases them
// at tear-down (under the suite names SourceProgram, CompileLink,
// ProgramBinary and BuildCache), child processes of this binary, build
// callbacks and the sources that the compile, link and binary tests share.
#pragma once

#include "common.h"

#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace lanewise::test::source {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------
// Helpers

std::string programBuildString(cl_program program, cl_device_id device,
                               cl_program_build_info param);

std::string buildLog(cl_program program, cl_device_id device);

cl_build_status buildStatus(cl_program program, cl_device_id device);

cl_program_binary_type binaryType(cl_program program, cl_device_id device);

std::string programString(cl_program program, cl_program_info param);

// CL_PROGRAM_BINARIES of a one-device program (empty if none is available).
std::vector<unsigned char> programBinary(cl_program program);

bool contains(const std::string &text, const std::string &part);

std::vector<cl_name_version> nameVersions(cl_device_id device, cl_device_info param);

bool supportsOpenCLC(cl_device_id device, cl_uint major, cl_uint minor);

bool hasFeature(cl_device_id device, const std::string &name);

// A temporary folder, removed with its contents at the end of the scope.
struct TempDir {
  fs::path path;
  TempDir() {
    const char *root = std::getenv("TMPDIR");
    std::string pattern =
        std::string(root && *root ? root : "/tmp") + "/lanewise-source-test-XXXXXX";
    if (mkdtemp(pattern.data()))
      path = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    if (!path.empty())
      fs::remove_all(path, ignored);
  }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
};

void writeText(const fs::path &path, const std::string &text);

std::string readText(const fs::path &path);

std::string joined(const std::vector<int32_t> &values);

// Line 3, column 11 is the ';' where an expression is expected.
const char *const kSyntaxErrorSource = "kernel void k(global int *out) {\n"
                                       "  int a = 1;\n"
                                       "  int x = ;\n"
                                       "  out[0] = a;\n"
                                       "}\n";

// A kernel argument for SourceProgramTest::launch.
template <typename T> std::pair<size_t, const void *> argumentOf(const T &value) {
  return {sizeof value, &value};
}

// ---------------------------------------------------------------------------
// The fixture: programs, kernels and buffers released at tear-down.

class SourceProgramTest : public ContextTest {
protected:
  void TearDown() override {
    for (cl_kernel kernel : kernels_)
      clReleaseKernel(kernel);
    for (cl_mem buffer : buffers_)
      clReleaseMemObject(buffer);
    for (cl_program program : programs_)
      clReleaseProgram(program);
    ContextTest::TearDown();
  }

  // Takes ownership of a program (released at tear-down).
  cl_program adopt(cl_program program) {
    if (program)
      programs_.push_back(program);
    return program;
  }

  cl_program source(const std::string &text) {
    const char *strings[] = {text.c_str()};
    const size_t lengths[] = {text.size()};
    cl_int error = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(context, 1, strings, lengths, &error);
    EXPECT_EQ(error, CL_SUCCESS);
    return adopt(program);
  }

  cl_int build(cl_program program, const std::string &options) {
    return clBuildProgram(program, 1, &device, options.c_str(), nullptr, nullptr);
  }

  // A program built from `text`; fails the test with the log if it does not build.
  cl_program built(const std::string &text, const std::string &options = "") {
    cl_program program = source(text);
    if (!program)
      return nullptr;
    const cl_int result = build(program, options);
    EXPECT_EQ(result, CL_SUCCESS) << "options '" << options << "'\n" << buildLog(program, device);
    return result == CL_SUCCESS ? program : nullptr;
  }

  cl_int compile(cl_program program, const std::string &options,
                 const std::vector<std::pair<std::string, cl_program>> &headers = {}) {
    std::vector<cl_program> programs;
    std::vector<const char *> names;
    for (const auto &[name, header] : headers) {
      names.push_back(name.c_str());
      programs.push_back(header);
    }
    return clCompileProgram(program, 1, &device, options.c_str(), cl_uint(programs.size()),
                            programs.empty() ? nullptr : programs.data(),
                            names.empty() ? nullptr : names.data(), nullptr, nullptr);
  }

  cl_program link(const std::vector<cl_program> &programs, const char *options, cl_int &error) {
    error = 12345;
    return adopt(clLinkProgram(context, 1, &device, options, cl_uint(programs.size()),
                               programs.data(), nullptr, nullptr, &error));
  }

  template <typename T> cl_mem buffer(const std::vector<T> &data) {
    cl_int error = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                data.size() * sizeof(T), const_cast<T *>(data.data()), &error);
    EXPECT_EQ(error, CL_SUCCESS);
    if (mem)
      buffers_.push_back(mem);
    return mem;
  }

  // Runs kernel `name` of `program` over `global` work-items with the
  // arguments given as (size, value) pairs (argumentOf below), and waits.
  void launch(cl_program program, const char *name, size_t global,
              const std::vector<std::pair<size_t, const void *>> &arguments) {
    cl_int error = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program, name, &error);
    ASSERT_EQ(error, CL_SUCCESS) << name;
    kernels_.push_back(kernel);
    for (cl_uint index = 0; index < arguments.size(); ++index)
      ASSERT_EQ(clSetKernelArg(kernel, index, arguments[index].first, arguments[index].second),
                CL_SUCCESS)
          << name << " argument " << index;
    ASSERT_EQ(
        clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
        CL_SUCCESS);
    ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  }
  template <typename T> std::vector<T> readBack(cl_mem mem, size_t count) {
    std::vector<T> data(count);
    EXPECT_EQ(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, count * sizeof(T), data.data(), 0,
                                  nullptr, nullptr),
              CL_SUCCESS);
    return data;
  }

  // Runs kernel `name` of `program` over `count` work-items; its arguments
  // are one buffer per input, then an output buffer of `count` T (filled
  // with `fill` beforehand). Returns the output, or nothing on failure.
  template <typename T>
  std::vector<T> run(cl_program program, const char *name, size_t count,
                     const std::vector<std::vector<T>> &inputs = {}, T fill = T(-1)) {
    if (!program) // the failure to build is reported already
      return {};
    cl_int error = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program, name, &error);
    EXPECT_EQ(error, CL_SUCCESS) << "clCreateKernel " << name;
    if (!kernel)
      return {};
    kernels_.push_back(kernel);
    cl_uint index = 0;
    for (const std::vector<T> &input : inputs) {
      cl_mem mem = buffer(input);
      EXPECT_EQ(clSetKernelArg(kernel, index++, sizeof mem, &mem), CL_SUCCESS);
    }
    cl_mem output = buffer(std::vector<T>(count, fill));
    EXPECT_EQ(clSetKernelArg(kernel, index, sizeof output, &output), CL_SUCCESS);
    EXPECT_EQ(
        clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &count, nullptr, 0, nullptr, nullptr),
        CL_SUCCESS);
    std::vector<T> result(count);
    EXPECT_EQ(clEnqueueReadBuffer(queue, output, CL_TRUE, 0, count * sizeof(T), result.data(), 0,
                                  nullptr, nullptr),
              CL_SUCCESS);
    return result;
  }

  std::vector<cl_program> programs_;
  std::vector<cl_kernel> kernels_;
  std::vector<cl_mem> buffers_;
};

using SourceProgram = SourceProgramTest;
using CompileLink = SourceProgramTest;
using ProgramBinary = SourceProgramTest;
using BuildCache = SourceProgramTest;

// ---------------------------------------------------------------------------
// Child processes: this binary again, with one helper test and an environment.

// What the child reported: key=value lines, then "log=" and the build log.
struct ChildReport {
  int exitCode = -1;
  std::string output; // the child's stdout and stderr
  std::map<std::string, std::string> values;
  std::string log;
};

ChildReport runChild(const std::map<std::string, std::string> &variables);

// The kernel the cache tests build in a child: out[i] = VALUE + i.
std::string cacheKernel(int value);

// ---------------------------------------------------------------------------
// Build and link callbacks.

// pfn_notify is called once, with the program and user_data; the state
// it sees is the final one (5.8.3). user_data without pfn_notify is
// CL_INVALID_VALUE.
struct Notification {
  std::mutex mutex;
  std::condition_variable changed;
  int calls = 0;
  cl_program program = nullptr;
  cl_build_status status = CL_BUILD_NONE;
  cl_device_id device = nullptr;
};

void CL_CALLBACK notifyBuilt(cl_program program, void *userData);

// Waits for the first call, then a little for any (wrong) further call.
void waitForNotification(Notification &notification);

// ---------------------------------------------------------------------------
// Sources that CompileLink and ProgramBinary compile and link.

const char *const kHelperSource = "int helper(int x) { return 3 * x + 1; }\n";
const char *const kUserSource = "extern int helper(int x);\n"
                                "kernel void use_helper(global int *out) {\n"
                                "  int i = (int)get_global_id(0);\n"
                                "  out[i] = helper(i) + 100;\n"
                                "}\n";

// A compiled object without imports: links with anything.
const char *const kStandaloneSource = "kernel void standalone(global int *out) {\n"
                                      "  int i = (int)get_global_id(0);\n"
                                      "  out[i] = 5 * i - 2;\n"
                                      "}\n";

std::vector<int32_t> standaloneExpected(int count);

std::vector<int32_t> helperExpected(int count);

} // namespace lanewise::test::source
