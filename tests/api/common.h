// SPDX-License-Identifier: Apache-2.0
// Shared fixtures for the API tests. The tests reach Lanewise only through the
// OpenCL ICD loader, exactly as an application does.
#pragma once

#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace lanewise::test {

// The platform under test: the one whose CL_PLATFORM_NAME contains
// $LANEWISE_TEST_PLATFORM, by default "Lanewise". Pointing the variable at
// another platform (e.g. "Portable" for PoCL) runs the same spec-derived
// expectations against an independent implementation.
cl_platform_id testPlatform();
cl_device_id testDevice();
// True when the platform under test is Lanewise itself.
bool testingLanewise();

std::string platformString(cl_platform_id platform, cl_platform_info param);
std::string deviceString(cl_device_id device, cl_device_info param);

template <typename T> T deviceInfo(cl_device_id device, cl_device_info param) {
  T value{};
  EXPECT_EQ(clGetDeviceInfo(device, param, sizeof(T), &value, nullptr), CL_SUCCESS)
      << "param 0x" << std::hex << param;
  return value;
}

// Handles that release their object when they go out of scope.
struct ReleaseMem {
  void operator()(cl_mem mem) const { clReleaseMemObject(mem); }
};
using Mem = std::unique_ptr<std::remove_pointer_t<cl_mem>, ReleaseMem>;
struct ReleaseEvent {
  void operator()(cl_event event) const { clReleaseEvent(event); }
};
using Event = std::unique_ptr<std::remove_pointer_t<cl_event>, ReleaseEvent>;
struct ReleaseKernel {
  void operator()(cl_kernel kernel) const { clReleaseKernel(kernel); }
};
using Kernel = std::unique_ptr<std::remove_pointer_t<cl_kernel>, ReleaseKernel>;

// A context and an in-order queue on the test device, released at tear-down.
class ContextTest : public ::testing::Test {
protected:
  void SetUp() override;
  void TearDown() override;

  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
};

} // namespace lanewise::test
