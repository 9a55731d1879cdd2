// SPDX-License-Identifier: Apache-2.0
// The checked mode as a whole (runtime/check.cpp): correct kernels have no
// findings, the build option and the check list select the checks,
// LANEWISE_CHECK_ABORT stops a launch; the reports of programs built from
// source and from cached binaries; unset arguments named at enqueue. The
// checks each have their file: check_<check>_test.cpp.
#include "check_fixture.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace lanewise::test {
namespace {

TEST_P(CheckedMode, CorrectKernelsHaveNoFindings) {
  cl_kernel stencil = kernel("correct_stencil");
  arg(stencil, 0, buffer(std::vector<float>(64, 1.0f)));
  arg(stencil, 1, buffer(std::vector<float>(64)));
  localArg(stencil, 2, 16 * sizeof(float));
  EXPECT_TRUE(run(stencil, {64}, {16}).empty());
  cl_kernel vectors = kernel("correct_vectors");
  arg(vectors, 0, buffer(std::vector<float>(16 * 3, 2.0f)));
  arg(vectors, 1, buffer(std::vector<float>(16 * 3)));
  arg(vectors, 2, cl_int{16});
  EXPECT_TRUE(run(vectors, {16}, {8}).empty());
  cl_kernel exchange = kernel("correct_global_exchange");
  arg(exchange, 0, buffer(std::vector<int>(32)));
  arg(exchange, 1, buffer(std::vector<int>(16)));
  EXPECT_TRUE(run(exchange, {32}, {16}).empty());
  // A second launch on the same memory: the first launch's accesses are
  // ordered before it.
  EXPECT_TRUE(run(exchange, {32}, {16}).empty());
  // Values undefined on some work-items' paths and used only where defined.
  cl_kernel guarded = kernel("correct_guarded_register");
  const int n = 4, items = 32;
  std::vector<int> in(items * n);
  for (int i = 0; i < items; ++i)
    for (int j = 0; j < n; ++j)
      in[i * n + j] = i % 4 == 1 ? -1 - j : (i + j) % 5 - 2;
  cl_mem out = buffer(std::vector<int>(items * n));
  arg(guarded, 0, buffer(in));
  arg(guarded, 1, out);
  arg(guarded, 2, buffer(std::vector<cl_float4>(items)));
  arg(guarded, 3, cl_int{n});
  EXPECT_TRUE(run(guarded, {items}, {16}).empty());
  const std::vector<int> got = readInts(out, items * n);
  for (int i = 0; i < items; ++i) {
    int last = -1;
    for (int j = 0; j < n; ++j)
      if (in[i * n + j] > 0)
        last = j;
    for (int j = 0; j < n; ++j) {
      const int expected = j == 0 && in[i * n] < 0 ? in[i * n + 1] * 3 : last;
      EXPECT_EQ(got[i * n + j], expected) << "work-item " << i << " element " << j;
    }
  }
}

// Without the build option (and LANEWISE_CHECK unset) nothing is checked.
TEST_P(CheckedMode, OffWithoutTheOption) {
  cl_kernel k = kernel("division_by_zero", "");
  arg(k, 0, buffer(iota(16, -5)));
  arg(k, 1, buffer(std::vector<int>(16)));
  EXPECT_TRUE(run(k, {16}, {16}).empty());
}

// A check list selects checks: alignment alone reports no division.
TEST_P(CheckedMode, OnlyTheListedChecks) {
  cl_kernel k = kernel("division_by_zero", "-lanewise-check=alignment,bounds");
  arg(k, 0, buffer(iota(16, -5)));
  arg(k, 1, buffer(std::vector<int>(16)));
  EXPECT_TRUE(run(k, {16}, {16}).empty());
}

// LANEWISE_CHECK_ABORT: the first finding stops the launch; its event gets
// a negative status, clFinish reports it, and later commands run.
TEST_P(CheckedMode, AbortOnTheFirstFinding) {
  cl_kernel k = kernel("global_write_past_end");
  cl_mem out = buffer(std::vector<int>(256, -1));
  arg(k, 0, out);
  setenv("LANEWISE_CHECK_ABORT", "1", 1);
  const size_t global = 256, local = 16;
  cl_event event = nullptr;
  ASSERT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, &local, 0, nullptr, &event),
            CL_SUCCESS);
  EXPECT_EQ(clFinish(queue), CL_OUT_OF_RESOURCES);
  unsetenv("LANEWISE_CHECK_ABORT");
  cl_int status = 0;
  ASSERT_EQ(
      clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr),
      CL_SUCCESS);
  EXPECT_LT(status, 0);
  clReleaseEvent(event);
  EXPECT_EQ(readFindings(report_).size(), 1u);
  // The queue goes on.
  cl_kernel good = kernel("correct_vectors");
  arg(good, 0, buffer(std::vector<float>(48, 1.0f)));
  arg(good, 1, buffer(std::vector<float>(48)));
  arg(good, 2, cl_int{16});
  const size_t sixteen = 16;
  ASSERT_EQ(clEnqueueNDRangeKernel(queue, good, 1, nullptr, &sixteen, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(clFinish(queue), CL_SUCCESS);
}

INSTANTIATE_TEST_SUITE_P(Builds, CheckedMode, ::testing::Values("bugs", "bugs-O0", "bugs-nodebug"),
                         buildName);

// An argument never set: CL_INVALID_KERNEL_ARGS, and the context's callback
// hears which one.
void CL_CALLBACK collect(const char *message, const void *, size_t, void *data) {
  static_cast<std::vector<std::string> *>(data)->push_back(message);
}

TEST(CheckedModeApi, UnsetArgumentIsNamedAtEnqueue) {
  cl_device_id device = testDevice();
  std::vector<std::string> messages;
  cl_int err = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, collect, &messages, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
  const std::vector<char> il = readBinary(std::string(LANEWISE_KERNEL_DIR) + "/bugs.spv");
  cl_program program = clCreateProgramWithIL(context, il.data(), il.size(), &err);
  ASSERT_EQ(clBuildProgram(program, 1, &device, "", nullptr, nullptr), CL_SUCCESS);
  cl_kernel k = clCreateKernel(program, "global_read_before_start", &err);
  cl_mem in = clCreateBuffer(context, CL_MEM_READ_WRITE, 64, nullptr, &err);
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof in, &in), CL_SUCCESS);
  const size_t global = 16;
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
            CL_INVALID_KERNEL_ARGS);
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_NE(messages[0].find("argument 1 'out'"), std::string::npos) << messages[0];
  EXPECT_NE(messages[0].find("global_read_before_start"), std::string::npos) << messages[0];
  clReleaseMemObject(in);
  clReleaseKernel(k);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
}

// From source with -g: the report names program.cl and the line; the text
// report (LANEWISE_CHECK_FILE) counts the repeats it suppressed.
// Runs `k` over `global` work-items and returns the text report
// (LANEWISE_CHECK_FILE) of its findings.
std::string textReport(cl_command_queue queue, cl_kernel k, size_t global) {
  char pattern[] = "/tmp/lanewise-report-XXXXXX";
  const int fd = mkstemp(pattern);
  EXPECT_GE(fd, 0);
  close(fd);
  setenv("LANEWISE_CHECK_FILE", pattern, 1);
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(clFinish(queue), CL_SUCCESS);
  unsetenv("LANEWISE_CHECK_FILE");
  std::ifstream file(pattern);
  std::stringstream text;
  text << file.rdbuf();
  std::remove(pattern);
  return text.str();
}

TEST(CheckedModeApi, SourceProgramTextReport) {
  cl_device_id device = testDevice();
  cl_int err = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
  const char *source = "kernel void scale(global float *data) {\n"
                       "  size_t i = get_global_id(0);\n"
                       "  data[i + 4] *= 2.0f;\n"
                       "}\n";
  cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &err);
  ASSERT_EQ(clBuildProgram(program, 1, &device, "-g -lanewise-check=bounds", nullptr, nullptr),
            CL_SUCCESS);
  cl_kernel k = clCreateKernel(program, "scale", &err);
  cl_mem data = clCreateBuffer(context, CL_MEM_READ_WRITE, 64 * sizeof(float), nullptr, &err);
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof data, &data), CL_SUCCESS);
  const std::string report = textReport(queue, k, 64);
  // Work-items 60..63 read past the end: one report, three repeats.
  EXPECT_NE(report.find("out-of-bounds in kernel 'scale' at program.cl:3:"), std::string::npos)
      << report;
  EXPECT_NE(report.find("global (60,0,0)"), std::string::npos) << report;
  EXPECT_NE(report.find("0 bytes past the end of buffer argument 0 'data' (256 bytes)"),
            std::string::npos)
      << report;
  EXPECT_NE(report.find("suppressed"), std::string::npos) << report;
  clReleaseMemObject(data);
  clReleaseKernel(k);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
}

// Applications build once and then load their own cached binary: a
// Lanewise binary of a source program keeps the source and the options,
// and a checked build of it is rebuilt from them, so that the report names
// the source line even though the cached binary has no debug information.
TEST(CheckedModeApi, ProgramFromCachedBinaryReportsSourceLines) {
  cl_device_id device = testDevice();
  cl_int err = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
  const char *source = "kernel void scale(global float *data) {\n"
                       "  size_t i = get_global_id(0);\n"
                       "  data[i + OFFSET] *= 2.0f;\n"
                       "}\n";
  cl_program original = clCreateProgramWithSource(context, 1, &source, nullptr, &err);
  ASSERT_EQ(clBuildProgram(original, 1, &device, "-D OFFSET=4", nullptr, nullptr), CL_SUCCESS);
  size_t size = 0;
  ASSERT_EQ(clGetProgramInfo(original, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr),
            CL_SUCCESS);
  std::vector<unsigned char> binary(size);
  unsigned char *pointer = binary.data();
  ASSERT_EQ(clGetProgramInfo(original, CL_PROGRAM_BINARIES, sizeof pointer, &pointer, nullptr),
            CL_SUCCESS);
  clReleaseProgram(original);

  const unsigned char *binaries[] = {binary.data()};
  cl_int status = CL_SUCCESS;
  cl_program program =
      clCreateProgramWithBinary(context, 1, &device, &size, binaries, &status, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  // The application passes no options for its binary; the checks come from
  // the build option (or LANEWISE_CHECK).
  ASSERT_EQ(clBuildProgram(program, 1, &device, "-lanewise-check=bounds", nullptr, nullptr),
            CL_SUCCESS);
  cl_kernel k = clCreateKernel(program, "scale", &err);
  cl_mem data = clCreateBuffer(context, CL_MEM_READ_WRITE, 64 * sizeof(float), nullptr, &err);
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof data, &data), CL_SUCCESS);
  const std::string report = textReport(queue, k, 64);
  // OFFSET from the kept options: work-items 60..63 write past the end.
  EXPECT_NE(report.find("out-of-bounds in kernel 'scale' at program.cl:3:"), std::string::npos)
      << report;
  EXPECT_NE(report.find("global (60,0,0)"), std::string::npos) << report;
  clReleaseMemObject(data);
  clReleaseKernel(k);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
}

} // namespace
} // namespace lanewise::test
