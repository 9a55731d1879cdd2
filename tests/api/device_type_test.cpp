// SPDX-License-Identifier: Apache-2.0
// The device type (OpenCL 3.0 API, 4.2): what CL_DEVICE_TYPE reports, and
// which types clGetDeviceIDs and clCreateContextFromType find the device
// by. The type is a CPU, or the one LANEWISE_DEVICE_TYPE names for
// applications that look for another: the suite runs once as it is and
// once each with LANEWISE_DEVICE_TYPE=gpu and =accelerator (CMakeLists.txt).
// Whatever the type, CL_DEVICE_TYPE_DEFAULT and CL_DEVICE_TYPE_ALL find the
// platform's one device, and the others answer CL_DEVICE_NOT_FOUND.
#include "common.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <vector>

namespace lanewise::test {
namespace {

// The type the environment asks for (docs/using.md).
cl_device_type expectedType() {
  const char *text = std::getenv("LANEWISE_DEVICE_TYPE");
  std::string name = text ? text : "";
  std::ranges::transform(name, name.begin(), [](unsigned char c) { return std::tolower(c); });
  if (name == "gpu")
    return CL_DEVICE_TYPE_GPU;
  if (name == "accelerator")
    return CL_DEVICE_TYPE_ACCELERATOR;
  return CL_DEVICE_TYPE_CPU;
}

constexpr cl_device_type singleTypes[] = {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU,
                                          CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_CUSTOM};

class DeviceType : public ::testing::Test {
protected:
  void SetUp() override {
    if (!testingLanewise())
      GTEST_SKIP() << "LANEWISE_DEVICE_TYPE is Lanewise's";
    platform = testPlatform();
    device = testDevice();
  }

  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
};

TEST_F(DeviceType, DeviceReportsTheTypeAsked) {
  EXPECT_EQ(deviceInfo<cl_device_type>(device, CL_DEVICE_TYPE), expectedType());
}

TEST_F(DeviceType, GetDeviceIdsFindsTheDeviceByItsTypeOnly) {
  for (cl_device_type type : singleTypes) {
    SCOPED_TRACE(type);
    cl_uint count = 7;
    cl_device_id found = nullptr;
    if (type == expectedType()) {
      EXPECT_EQ(clGetDeviceIDs(platform, type, 1, &found, &count), CL_SUCCESS);
      EXPECT_EQ(count, 1u);
      EXPECT_EQ(found, device);
    } else {
      EXPECT_EQ(clGetDeviceIDs(platform, type, 0, nullptr, &count), CL_DEVICE_NOT_FOUND);
      EXPECT_EQ(clGetDeviceIDs(platform, type, 1, &found, nullptr), CL_DEVICE_NOT_FOUND);
    }
  }
  // A mask that includes the type finds it; the default and every device too.
  for (cl_device_type type :
       {expectedType() | CL_DEVICE_TYPE_CUSTOM, cl_device_type{CL_DEVICE_TYPE_DEFAULT},
        cl_device_type{CL_DEVICE_TYPE_ALL}}) {
    SCOPED_TRACE(type);
    cl_device_id found = nullptr;
    EXPECT_EQ(clGetDeviceIDs(platform, type, 1, &found, nullptr), CL_SUCCESS);
    EXPECT_EQ(found, device);
  }
}

TEST_F(DeviceType, ContextFromTypeFindsTheDeviceByItsTypeOnly) {
  const cl_context_properties properties[] = {CL_CONTEXT_PLATFORM,
                                              reinterpret_cast<cl_context_properties>(platform), 0};
  for (cl_device_type type : singleTypes) {
    SCOPED_TRACE(type);
    cl_int error = CL_SUCCESS;
    cl_context context = clCreateContextFromType(properties, type, nullptr, nullptr, &error);
    if (type != expectedType()) {
      EXPECT_EQ(error, CL_DEVICE_NOT_FOUND);
      EXPECT_EQ(context, nullptr);
      continue;
    }
    ASSERT_EQ(error, CL_SUCCESS);
    cl_device_id member = nullptr;
    EXPECT_EQ(clGetContextInfo(context, CL_CONTEXT_DEVICES, sizeof member, &member, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(member, device);
    clReleaseContext(context);
  }
}

TEST_F(DeviceType, SubDevicesHaveTheirParentsType) {
  if (deviceInfo<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS) < 2)
    GTEST_SKIP() << "a device of one compute unit has no partition";
  const cl_device_partition_property oneUnit[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1,
                                                  CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  cl_device_id sub = nullptr;
  ASSERT_EQ(clCreateSubDevices(device, oneUnit, 1, &sub, nullptr), CL_SUCCESS);
  EXPECT_EQ(deviceInfo<cl_device_type>(sub, CL_DEVICE_TYPE), expectedType());
  clReleaseDevice(sub);
}

// The type changes what the device reports, not what it does: a kernel
// runs on it as on a CPU.
TEST_F(DeviceType, KernelsRunWhateverTheType) {
  cl_int error = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  const char *source = "kernel void square(global int *p) {\n"
                       "  size_t i = get_global_id(0);\n"
                       "  p[i] = (int)(i * i);\n"
                       "}\n";
  cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  ASSERT_EQ(clBuildProgram(program, 1, &device, "", nullptr, nullptr), CL_SUCCESS);
  cl_kernel kernel = clCreateKernel(program, "square", &error);
  ASSERT_EQ(error, CL_SUCCESS);
  constexpr size_t count = 1000;
  cl_mem buffer =
      clCreateBuffer(context, CL_MEM_READ_WRITE, count * sizeof(cl_int), nullptr, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof buffer, &buffer), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &count, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  std::vector<cl_int> values(count, -1);
  ASSERT_EQ(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, count * sizeof(cl_int), values.data(), 0,
                                nullptr, nullptr),
            CL_SUCCESS);
  for (size_t i = 0; i < count; ++i)
    ASSERT_EQ(values[i], cl_int(i * i)) << "at " << i;
  clReleaseMemObject(buffer);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
}

} // namespace
} // namespace lanewise::test
