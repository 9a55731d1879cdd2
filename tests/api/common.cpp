// SPDX-License-Identifier: Apache-2.0
#include "common.h"

#include <cstdlib>

namespace lanewise::test {

namespace {
std::string wantedPlatformName() {
  const char *name = std::getenv("LANEWISE_TEST_PLATFORM");
  return name && *name ? name : "Lanewise";
}
} // namespace

std::string platformString(cl_platform_id platform, cl_platform_info param) {
  size_t size = 0;
  if (clGetPlatformInfo(platform, param, 0, nullptr, &size) != CL_SUCCESS || size == 0)
    return {};
  std::string value(size, '\0');
  clGetPlatformInfo(platform, param, size, value.data(), nullptr);
  value.resize(size - 1);
  return value;
}

std::string deviceString(cl_device_id device, cl_device_info param) {
  size_t size = 0;
  if (clGetDeviceInfo(device, param, 0, nullptr, &size) != CL_SUCCESS || size == 0)
    return {};
  std::string value(size, '\0');
  clGetDeviceInfo(device, param, size, value.data(), nullptr);
  value.resize(size - 1);
  return value;
}

cl_platform_id testPlatform() {
  static cl_platform_id found = [] {
    cl_uint count = 0;
    if (clGetPlatformIDs(0, nullptr, &count) != CL_SUCCESS || count == 0)
      return cl_platform_id{};
    std::vector<cl_platform_id> platforms(count);
    clGetPlatformIDs(count, platforms.data(), nullptr);
    for (cl_platform_id platform : platforms)
      if (platformString(platform, CL_PLATFORM_NAME).find(wantedPlatformName()) !=
          std::string::npos)
        return platform;
    return cl_platform_id{};
  }();
  return found;
}

cl_device_id testDevice() {
  cl_device_id device = nullptr;
  if (cl_platform_id platform = testPlatform())
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr);
  return device;
}

bool testingLanewise() { return wantedPlatformName() == "Lanewise"; }

void ContextTest::SetUp() {
  platform = testPlatform();
  ASSERT_NE(platform, nullptr) << "no OpenCL platform named '" << wantedPlatformName() << "'";
  device = testDevice();
  ASSERT_NE(device, nullptr);
  cl_int err = CL_SUCCESS;
  context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
}

void ContextTest::TearDown() {
  if (queue) {
    clFinish(queue);
    clReleaseCommandQueue(queue);
  }
  if (context)
    clReleaseContext(context);
}

} // namespace lanewise::test
