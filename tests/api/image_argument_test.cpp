// SPDX-License-Identifier: Apache-2.0
// Image and sampler kernel arguments (OpenCL 3.0 API spec, clSetKernelArg):
// an image argument takes an image of its declared type created for the
// accesses its qualifier makes, a sampler argument a sampler, each passed as
// a pointer to the handle.
#include "common.h"

#include <string>

namespace lanewise::test {
namespace {

const char source[] = R"(
kernel void images(read_only image2d_t source, write_only image2d_t target,
                   read_write image2d_t both, sampler_t sampler,
                   read_only image3d_t volume, global int *out) {
  out[0] = get_image_width(source);
}
)";

class ImageArguments : public ContextTest {
protected:
  void SetUp() override {
    ContextTest::SetUp();
    if (deviceInfo<cl_bool>(device, CL_DEVICE_IMAGE_SUPPORT) != CL_TRUE)
      GTEST_SKIP() << "the device has no image support";
    const char *text = source;
    cl_int err = CL_SUCCESS;
    program = clCreateProgramWithSource(context, 1, &text, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    if (clBuildProgram(program, 1, &device, "-cl-std=CL3.0", nullptr, nullptr) != CL_SUCCESS) {
      size_t size = 0;
      clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
      std::string log(size, '\0');
      clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
      GTEST_SKIP() << "the device compiles no kernel with image arguments: " << log;
    }
    kernel = clCreateKernel(program, "images", &err);
    ASSERT_EQ(err, CL_SUCCESS);
  }

  void TearDown() override {
    for (cl_mem mem : made)
      clReleaseMemObject(mem);
    if (sampler)
      clReleaseSampler(sampler);
    if (kernel)
      clReleaseKernel(kernel);
    if (program)
      clReleaseProgram(program);
    ContextTest::TearDown();
  }

  cl_mem image(cl_mem_object_type type, cl_mem_flags flags) {
    const cl_image_format format = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc desc{};
    desc.image_type = type;
    desc.image_width = 4;
    desc.image_height = 4;
    desc.image_depth = 4;
    cl_int err = CL_SUCCESS;
    cl_mem mem = clCreateImage(context, flags, &format, &desc, nullptr, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    made.push_back(mem);
    return mem;
  }

  cl_int set(cl_uint index, cl_mem mem) {
    return clSetKernelArg(kernel, index, sizeof mem, &mem);
  }

  cl_program program = nullptr;
  cl_kernel kernel = nullptr;
  cl_sampler sampler = nullptr;
  std::vector<cl_mem> made;
};

TEST_F(ImageArguments, TakeImagesOfTheDeclaredType) {
  EXPECT_EQ(set(0, image(CL_MEM_OBJECT_IMAGE2D, CL_MEM_READ_ONLY)), CL_SUCCESS);
  EXPECT_EQ(set(4, image(CL_MEM_OBJECT_IMAGE3D, CL_MEM_READ_WRITE)), CL_SUCCESS);
  if (!testingLanewise())
    return; // PoCL 3.1 takes any memory object, or none, for an image argument
  EXPECT_EQ(set(0, image(CL_MEM_OBJECT_IMAGE3D, CL_MEM_READ_ONLY)), CL_INVALID_MEM_OBJECT)
      << "a 3D image for an image2d_t";
  cl_int err = CL_SUCCESS;
  cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, 64, nullptr, &err);
  made.push_back(buffer);
  EXPECT_EQ(set(0, buffer), CL_INVALID_MEM_OBJECT) << "a buffer for an image";
  EXPECT_EQ(set(5, image(CL_MEM_OBJECT_IMAGE2D, CL_MEM_READ_WRITE)), CL_INVALID_MEM_OBJECT)
      << "an image for a global pointer";
  EXPECT_EQ(set(0, nullptr), CL_INVALID_MEM_OBJECT);
  cl_mem mem = image(CL_MEM_OBJECT_IMAGE2D, CL_MEM_READ_ONLY);
  EXPECT_EQ(clSetKernelArg(kernel, 0, sizeof mem - 1, &mem), CL_INVALID_ARG_SIZE);
}

TEST_F(ImageArguments, FollowTheAccessQualifiers) {
  // OpenCL 3.0, clSetKernelArg: CL_INVALID_ARG_VALUE for a read_only image
  // argument given a CL_MEM_WRITE_ONLY image and for a write_only one given a
  // CL_MEM_READ_ONLY image. PoCL 3.1 does not check the access qualifiers.
  if (!testingLanewise())
    return;
  EXPECT_EQ(set(0, image(CL_MEM_OBJECT_IMAGE2D, CL_MEM_WRITE_ONLY)), CL_INVALID_ARG_VALUE);
  EXPECT_EQ(set(1, image(CL_MEM_OBJECT_IMAGE2D, CL_MEM_READ_ONLY)), CL_INVALID_ARG_VALUE);
  EXPECT_EQ(set(1, image(CL_MEM_OBJECT_IMAGE2D, CL_MEM_WRITE_ONLY)), CL_SUCCESS);
  EXPECT_EQ(set(2, image(CL_MEM_OBJECT_IMAGE2D, CL_MEM_READ_WRITE)), CL_SUCCESS);
  if (testingLanewise()) {
    // A read_write argument reads and writes its image: Lanewise asks for
    // an image created for both.
    EXPECT_EQ(set(2, image(CL_MEM_OBJECT_IMAGE2D, CL_MEM_READ_ONLY)), CL_INVALID_ARG_VALUE);
  }
}

TEST_F(ImageArguments, SamplersTakeSamplers) {
  cl_int err = CL_SUCCESS;
  sampler = clCreateSampler(context, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(clSetKernelArg(kernel, 3, sizeof sampler, &sampler), CL_SUCCESS);
  EXPECT_EQ(clSetKernelArg(kernel, 3, sizeof sampler + 1, &sampler), CL_INVALID_ARG_SIZE);
  if (testingLanewise()) { // PoCL 3.1 takes a NULL sampler and any handle
    cl_sampler none = nullptr;
    EXPECT_EQ(clSetKernelArg(kernel, 3, sizeof none, &none), CL_INVALID_SAMPLER);
    // A memory object is no sampler (a handle of another kind: PoCL does not
    // check the kind).
    cl_mem mem = image(CL_MEM_OBJECT_IMAGE2D, CL_MEM_READ_ONLY);
    EXPECT_EQ(clSetKernelArg(kernel, 3, sizeof mem, &mem), CL_INVALID_SAMPLER);
  }
}

} // namespace
} // namespace lanewise::test
