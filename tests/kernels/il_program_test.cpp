// SPDX-License-Identifier: Apache-2.0
// Programs from SPIR-V through the API: malformed and unsupported modules
// get the promised errors and build log lines; specialization constants.
#include "harness.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>

namespace lanewise::test {
namespace {

using IlProgram = KernelTest;

std::vector<char> readSpirv(const std::string &name) {
  std::ifstream file(std::string(LANEWISE_KERNEL_DIR) + "/" + name + ".spv", std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

std::string buildLog(cl_program program, cl_device_id device) {
  size_t size = 0;
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
  std::string log(size, '\0');
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  return log;
}

// OpenCL 3.0, clCreateProgramWithIL: CL_INVALID_VALUE if il is NULL, length
// is zero, or the IL is not well formed.
TEST_F(IlProgram, MalformedInputIsInvalidValue) {
  cl_int error = CL_SUCCESS;
  EXPECT_EQ(clCreateProgramWithIL(context, nullptr, 4, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_VALUE);
  const std::vector<char> good = readSpirv("basics");
  ASSERT_GT(good.size(), 20u);
  EXPECT_EQ(clCreateProgramWithIL(context, good.data(), 0, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_VALUE);

  const std::string text = "this is not SPIR-V at all, just text";
  EXPECT_EQ(clCreateProgramWithIL(context, text.data(), text.size(), &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_VALUE);
  // Not a whole number of words.
  EXPECT_EQ(clCreateProgramWithIL(context, good.data(), good.size() - 2, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_VALUE);
  // An instruction whose word count runs past the end of the stream: the
  // header, then OpCapability claiming 10 words with only 2 present.
  std::vector<uint32_t> words(5);
  std::memcpy(words.data(), good.data(), 20);
  words.push_back((10u << 16) | 17u); // OpCapability, word count 10
  words.push_back(6u);                // Kernel
  EXPECT_EQ(clCreateProgramWithIL(context, words.data(), words.size() * 4, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_VALUE);
  // Word-level well-formed but not a valid module: refused when it is built.
  cl_program headerOnly = clCreateProgramWithIL(context, good.data(), 20, &error);
  if (headerOnly) {
    EXPECT_EQ(clBuildProgram(headerOnly, 1, &device, "", nullptr, nullptr),
              CL_BUILD_PROGRAM_FAILURE);
    EXPECT_NE(buildLog(headerOnly, device).find("OpMemoryModel"), std::string::npos)
        << buildLog(headerOnly, device);
    clReleaseProgram(headerOnly);
  } else {
    EXPECT_EQ(error, CL_INVALID_VALUE);
  }
}

TEST_F(IlProgram, UnsupportedCapabilityFailsTheBuildNamingIt) {
  const std::vector<char> il = readSpirv("unsupported_capability");
  cl_int error = CL_SUCCESS;
  cl_program program = clCreateProgramWithIL(context, il.data(), il.size(), &error);
  ASSERT_EQ(error, CL_SUCCESS);
  EXPECT_EQ(clBuildProgram(program, 1, &device, "", nullptr, nullptr), CL_BUILD_PROGRAM_FAILURE);
  EXPECT_NE(buildLog(program, device).find("unsupported capability ImageMipmap"), std::string::npos)
      << buildLog(program, device);
  cl_build_status status = CL_BUILD_NONE;
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr);
  EXPECT_EQ(status, CL_BUILD_ERROR);
  EXPECT_EQ(clCreateKernel(program, "copy_image", &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_PROGRAM_EXECUTABLE);
  clReleaseProgram(program);
}

TEST_F(IlProgram, InstructionWithoutHandlerFailsTheBuildNamingKernelAndInstruction) {
  const std::vector<char> il = readSpirv("unsupported_work_group");
  cl_int error = CL_SUCCESS;
  cl_program program = clCreateProgramWithIL(context, il.data(), il.size(), &error);
  ASSERT_EQ(error, CL_SUCCESS);
  EXPECT_EQ(clBuildProgram(program, 1, &device, "", nullptr, nullptr), CL_BUILD_PROGRAM_FAILURE);
  const std::string log = buildLog(program, device);
  EXPECT_NE(log.find("kernel 'reduce'"), std::string::npos) << log;
  EXPECT_NE(log.find("OpGroupIAdd"), std::string::npos) << log;
  clReleaseProgram(program);
}

TEST_F(IlProgram, QueriesBeforeAndAfterTheBuild) {
  const std::vector<char> il = readSpirv("basics");
  cl_int error = CL_SUCCESS;
  cl_program program = clCreateProgramWithIL(context, il.data(), il.size(), &error);
  ASSERT_EQ(error, CL_SUCCESS);
  size_t count = 0;
  EXPECT_EQ(clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS, sizeof count, &count, nullptr),
            CL_INVALID_PROGRAM_EXECUTABLE);
  cl_program_binary_type type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr);
  EXPECT_EQ(type, CL_PROGRAM_BINARY_TYPE_NONE);
  // CL_PROGRAM_IL returns the IL as given.
  size_t size = 0;
  ASSERT_EQ(clGetProgramInfo(program, CL_PROGRAM_IL, 0, nullptr, &size), CL_SUCCESS);
  std::vector<char> back(size);
  clGetProgramInfo(program, CL_PROGRAM_IL, size, back.data(), nullptr);
  EXPECT_EQ(back, il);

  EXPECT_EQ(clBuildProgram(program, 1, &device, "-no-such-option", nullptr, nullptr),
            CL_INVALID_BUILD_OPTIONS);
  EXPECT_NE(buildLog(program, device).find("-no-such-option"), std::string::npos);
  ASSERT_EQ(clBuildProgram(program, 1, &device, "-cl-mad-enable", nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS, sizeof count, &count, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(count, 4u);
  clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, 0, nullptr, &size);
  std::string names(size, '\0');
  clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, size, names.data(), nullptr);
  for (const char *name : {"vadd", "loops", "local_sum", "carried"})
    EXPECT_NE(names.find(name), std::string::npos) << names;
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr);
  EXPECT_EQ(type, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  EXPECT_EQ(clCreateKernel(program, "no_such_kernel", &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_KERNEL_NAME);

  // A program with kernels attached cannot be rebuilt (CL_INVALID_OPERATION).
  cl_kernel k = clCreateKernel(program, "vadd", &error);
  ASSERT_EQ(error, CL_SUCCESS);
  EXPECT_EQ(clBuildProgram(program, 1, &device, "", nullptr, nullptr), CL_INVALID_OPERATION);
  clReleaseKernel(k);
  clReleaseProgram(program);
}

TEST_F(IlProgram, SpecializationConstantsReachTheKernel) {
  const std::vector<char> il = readSpirv("spec_constants");
  struct Case {
    bool setScale, setOffset, setNegate;
    cl_uint scale, offset;
    cl_uchar negate;
  };
  for (const Case &c : {Case{false, false, false, 2, 10, 0}, Case{true, false, false, 5, 10, 0},
                        Case{true, true, true, 3, 1000, 1}}) {
    cl_int error = CL_SUCCESS;
    cl_program program = clCreateProgramWithIL(context, il.data(), il.size(), &error);
    ASSERT_EQ(error, CL_SUCCESS);
    if (c.setScale) {
      ASSERT_EQ(clSetProgramSpecializationConstant(program, 3, sizeof c.scale, &c.scale),
                CL_SUCCESS);
    }
    if (c.setOffset) {
      ASSERT_EQ(clSetProgramSpecializationConstant(program, 7, sizeof c.offset, &c.offset),
                CL_SUCCESS);
    }
    if (c.setNegate) {
      ASSERT_EQ(clSetProgramSpecializationConstant(program, 9, 1, &c.negate), CL_SUCCESS);
    }
    // Errors: an id the module does not have, a size that does not match.
    EXPECT_EQ(clSetProgramSpecializationConstant(program, 42, 4, &c.scale), CL_INVALID_SPEC_ID);
    EXPECT_EQ(clSetProgramSpecializationConstant(program, 3, 8, &c.scale), CL_INVALID_VALUE);
    ASSERT_EQ(clBuildProgram(program, 1, &device, "", nullptr, nullptr), CL_SUCCESS)
        << buildLog(program, device);
    cl_kernel k = clCreateKernel(program, "scaled", &error);
    ASSERT_EQ(error, CL_SUCCESS);
    cl_mem out = buffer<cl_uint>(100);
    setArgs(k, out);
    run(k, {100});
    std::vector<cl_uint> got = read<cl_uint>(out, 100);
    for (cl_uint i = 0; i < 100; ++i) {
      const cl_uint sum = i * c.scale + c.offset;
      ASSERT_EQ(got[i], c.negate ? 0u - sum : sum) << "case scale " << c.scale << " at " << i;
    }
    clReleaseKernel(k);
    clReleaseProgram(program);
  }
}

// clCompileProgram and clLinkProgram of programs created from IL (OpenCL
// 3.0, 5.8.5 and 5.8.7): a module importing a function compiles to an object,
// links with the object that exports it, and runs; built alone it fails,
// naming the import.
TEST_F(IlProgram, CompileAndLinkModulesFromIL) {
  auto create = [&](const char *name) {
    const std::vector<char> il = readSpirv(name);
    cl_int error = CL_SUCCESS;
    cl_program program = clCreateProgramWithIL(context, il.data(), il.size(), &error);
    EXPECT_EQ(error, CL_SUCCESS) << name;
    return program;
  };
  cl_program alone = create("linkage_import");
  ASSERT_NE(alone, nullptr);
  EXPECT_EQ(clBuildProgram(alone, 1, &device, "", nullptr, nullptr), CL_BUILD_PROGRAM_FAILURE);
  EXPECT_NE(buildLog(alone, device).find("'scale' is imported"), std::string::npos)
      << buildLog(alone, device);
  clReleaseProgram(alone);

  cl_program objects[] = {create("linkage_import"), create("linkage_export")};
  for (cl_program object : objects) {
    ASSERT_NE(object, nullptr);
    ASSERT_EQ(clCompileProgram(object, 1, &device, "", 0, nullptr, nullptr, nullptr, nullptr),
              CL_SUCCESS)
        << buildLog(object, device);
    cl_program_binary_type type = CL_PROGRAM_BINARY_TYPE_NONE;
    clGetProgramBuildInfo(object, device, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr);
    EXPECT_EQ(type, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  }
  cl_int error = CL_SUCCESS;
  cl_program linked =
      clLinkProgram(context, 1, &device, "", 2, objects, nullptr, nullptr, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  cl_kernel k = clCreateKernel(linked, "apply_scale", &error);
  ASSERT_EQ(error, CL_SUCCESS);
  std::vector<cl_uint> in(50);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = cl_uint(i * i);
  cl_mem out = buffer<cl_uint>(in.size());
  setArgs(k, buffer(in), out);
  run(k, {in.size()});
  const std::vector<cl_uint> got = read<cl_uint>(out, in.size());
  for (size_t i = 0; i < in.size(); ++i)
    EXPECT_EQ(got[i], 3 * in[i] + 1) << i;
  clReleaseKernel(k);
  clReleaseProgram(linked);
  for (cl_program object : objects)
    clReleaseProgram(object);
}

} // namespace
} // namespace lanewise::test
