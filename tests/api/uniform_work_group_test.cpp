// SPDX-License-Identifier: Apache-2.0
// Uniform and non-uniform work-groups (OpenCL 3.0 API spec,
// clEnqueueNDRangeKernel): a program compiled from OpenCL C before 2.0 (the
// version without -cl-std), or with -cl-uniform-work-group-size, needs
// work-groups of one size. Then a local size that does not divide the
// global size fails with CL_INVALID_WORK_GROUP_SIZE, and with no local size
// the runtime must choose one that divides it. An OpenCL C 2.0 or newer
// program, or one from IL, may have a smaller last work-group. A program
// from a binary keeps the options of its source; a linked one needs uniform
// work-groups when any of its inputs does.
//
// The kernel records each work-item's local size and the index that code
// written for uniform work-groups computes (group id times local size plus
// local id): the global id exactly when the work-groups are uniform.
#include "common.h"

#include <string>
#include <vector>

namespace lanewise::test {
namespace {

constexpr const char *source = R"CL(
__kernel void shape(__global int *out) {
  const size_t i = get_global_id(0);
  out[2 * i] = (int)get_local_size(0);
  out[2 * i + 1] = (int)(get_group_id(0) * get_local_size(0) + get_local_id(0));
}
)CL";

class UniformWorkGroups : public ContextTest {
protected:
  void TearDown() override {
    for (cl_program program : programs)
      clReleaseProgram(program);
    ContextTest::TearDown();
  }

  cl_program fromSource(const std::string &options) {
    cl_int error = CL_SUCCESS;
    const char *text = source;
    cl_program program = clCreateProgramWithSource(context, 1, &text, nullptr, &error);
    EXPECT_EQ(error, CL_SUCCESS);
    programs.push_back(program);
    EXPECT_EQ(clBuildProgram(program, 1, &device, options.c_str(), nullptr, nullptr), CL_SUCCESS)
        << options;
    return program;
  }

  // Runs `shape` over `global` work-items with `local` (0: none given);
  // the enqueue's result, and each work-item's two values in `out`.
  cl_int run(cl_program program, size_t global, size_t local, std::vector<cl_int> &out) {
    cl_int error = CL_SUCCESS;
    Kernel k(clCreateKernel(program, "shape", &error));
    EXPECT_EQ(error, CL_SUCCESS);
    out.assign(2 * global, -1);
    Mem mem(clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                           out.size() * sizeof(cl_int), out.data(), &error));
    EXPECT_EQ(error, CL_SUCCESS);
    cl_mem handle = mem.get();
    EXPECT_EQ(clSetKernelArg(k.get(), 0, sizeof handle, &handle), CL_SUCCESS);
    const cl_int result = clEnqueueNDRangeKernel(queue, k.get(), 1, nullptr, &global,
                                                 local ? &local : nullptr, 0, nullptr, nullptr);
    EXPECT_EQ(clEnqueueReadBuffer(queue, handle, CL_TRUE, 0, out.size() * sizeof(cl_int),
                                  out.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    return result;
  }

  // With no local size given: one size that divides `global`, and every
  // work-item's uniform index is its global id.
  void expectUniformChoice(cl_program program, size_t global) {
    std::vector<cl_int> out;
    ASSERT_EQ(run(program, global, 0, out), CL_SUCCESS);
    const cl_int local = out[0];
    ASSERT_GT(local, 0);
    EXPECT_EQ(global % size_t(local), 0u) << "local size " << local;
    for (size_t i = 0; i < global; ++i) {
      EXPECT_EQ(out[2 * i], local) << "work-item " << i;
      EXPECT_EQ(out[2 * i + 1], cl_int(i)) << "work-item " << i;
    }
  }

  std::vector<cl_program> programs;
};

// 514 = 2 x 257 (no divisor from 16 to 128), 1031 is prime, 1000 = 8 x 125.
TEST_F(UniformWorkGroups, OpenCLC12ProgramsGetADividingLocalSize) {
  for (const char *options : {"", "-cl-std=CL1.2", "-cl-std=CL1.1"}) {
    SCOPED_TRACE(options);
    cl_program program = fromSource(options);
    for (size_t global : {514, 1031, 1000, 96, 7})
      expectUniformChoice(program, global);
  }
}

TEST_F(UniformWorkGroups, OpenCLC12ProgramsRefuseANonDividingLocalSize) {
  cl_program program = fromSource("");
  std::vector<cl_int> out;
  EXPECT_EQ(run(program, 514, 128, out), CL_INVALID_WORK_GROUP_SIZE);
  EXPECT_EQ(run(program, 512, 128, out), CL_SUCCESS);
  cl_program uniform = fromSource("-cl-std=CL3.0 -cl-uniform-work-group-size");
  EXPECT_EQ(run(uniform, 514, 128, out), CL_INVALID_WORK_GROUP_SIZE);
  expectUniformChoice(uniform, 514);
}

// OpenCL C 3.0: the last work-group of 514 work-items in groups of 128 has
// 2, and the uniform index of its work-items is not their global id.
TEST_F(UniformWorkGroups, OpenCLC30ProgramsMayHaveASmallerLastGroup) {
  cl_program program = fromSource("-cl-std=CL3.0");
  std::vector<cl_int> out;
  ASSERT_EQ(run(program, 514, 128, out), CL_SUCCESS);
  for (size_t i = 0; i < 514; ++i) {
    EXPECT_EQ(out[2 * i], i < 512 ? 128 : 2) << "work-item " << i;
    EXPECT_EQ(out[2 * i + 1], i < 512 ? cl_int(i) : cl_int(4 * 2 + i - 512)) << "work-item " << i;
  }
}

TEST_F(UniformWorkGroups, BinariesKeepTheirSourcesVersion) {
  cl_program built = fromSource("");
  size_t size = 0;
  ASSERT_EQ(clGetProgramInfo(built, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr),
            CL_SUCCESS);
  std::vector<unsigned char> binary(size);
  unsigned char *data = binary.data();
  ASSERT_EQ(clGetProgramInfo(built, CL_PROGRAM_BINARIES, sizeof data, &data, nullptr), CL_SUCCESS);
  cl_int error = CL_SUCCESS, status = CL_SUCCESS;
  const unsigned char *bytes = binary.data();
  cl_program program =
      clCreateProgramWithBinary(context, 1, &device, &size, &bytes, &status, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  programs.push_back(program);
  ASSERT_EQ(clBuildProgram(program, 1, &device, "", nullptr, nullptr), CL_SUCCESS);
  std::vector<cl_int> out;
  EXPECT_EQ(run(program, 514, 128, out), CL_INVALID_WORK_GROUP_SIZE);
  expectUniformChoice(program, 514);
}

TEST_F(UniformWorkGroups, LinkedProgramsNeedThemIfAnInputDoes) {
  auto compiled = [&](const char *options) {
    cl_int error = CL_SUCCESS;
    const char *text = source;
    cl_program program = clCreateProgramWithSource(context, 1, &text, nullptr, &error);
    EXPECT_EQ(error, CL_SUCCESS);
    programs.push_back(program);
    EXPECT_EQ(clCompileProgram(program, 1, &device, options, 0, nullptr, nullptr, nullptr, nullptr),
              CL_SUCCESS);
    return program;
  };
  auto linked = [&](cl_program object) {
    cl_int error = CL_SUCCESS;
    cl_program program =
        clLinkProgram(context, 1, &device, "", 1, &object, nullptr, nullptr, &error);
    EXPECT_EQ(error, CL_SUCCESS);
    programs.push_back(program);
    return program;
  };
  std::vector<cl_int> out;
  cl_program old = linked(compiled(""));
  EXPECT_EQ(run(old, 514, 128, out), CL_INVALID_WORK_GROUP_SIZE);
  expectUniformChoice(old, 514);
  cl_program recent = linked(compiled("-cl-std=CL3.0"));
  EXPECT_EQ(run(recent, 514, 128, out), CL_SUCCESS);
  EXPECT_EQ(out[2 * 513], 2);
}

} // namespace
} // namespace lanewise::test
