// SPDX-License-Identifier: Apache-2.0
// Lists the OpenCL platforms the ICD loader finds and, for Lanewise, its
// device: what an application sees before it runs anything.
#include <CL/cl.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

std::string platformText(cl_platform_id platform, cl_platform_info param) {
  size_t size = 0;
  clGetPlatformInfo(platform, param, 0, nullptr, &size);
  std::string text(size, '\0');
  clGetPlatformInfo(platform, param, size, text.data(), nullptr);
  return text.c_str();
}

std::string deviceText(cl_device_id device, cl_device_info param) {
  size_t size = 0;
  clGetDeviceInfo(device, param, 0, nullptr, &size);
  std::string text(size, '\0');
  clGetDeviceInfo(device, param, size, text.data(), nullptr);
  return text.c_str();
}

template <typename T> T deviceValue(cl_device_id device, cl_device_info param) {
  T value{};
  clGetDeviceInfo(device, param, sizeof value, &value, nullptr);
  return value;
}

} // namespace

int main() {
  cl_uint count = 0;
  if (clGetPlatformIDs(0, nullptr, &count) != CL_SUCCESS || count == 0) {
    std::fprintf(stderr, "no OpenCL platform found (is OCL_ICD_VENDORS set?)\n");
    return 1;
  }
  std::vector<cl_platform_id> platforms(count);
  clGetPlatformIDs(count, platforms.data(), nullptr);

  bool foundLanewise = false;
  for (cl_platform_id platform : platforms) {
    const std::string name = platformText(platform, CL_PLATFORM_NAME);
    std::printf("Platform: %s (%s)\n", name.c_str(),
                platformText(platform, CL_PLATFORM_VERSION).c_str());
    if (name != "Lanewise")
      continue;
    foundLanewise = true;
    cl_device_id device = nullptr;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) != CL_SUCCESS) {
      std::fprintf(stderr, "Lanewise lists no device\n");
      return 1;
    }
    std::printf("  Device:          %s\n", deviceText(device, CL_DEVICE_NAME).c_str());
    std::printf("  Version:         %s\n", deviceText(device, CL_DEVICE_VERSION).c_str());
    std::printf("  Compute units:   %u\n", deviceValue<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS));
    std::printf("  Global memory:   %llu MiB\n",
                static_cast<unsigned long long>(
                    deviceValue<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE) >> 20));
    std::printf("  Work-group size: %zu\n", deviceValue<size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE));
    std::printf("  IL versions:     %s\n", deviceText(device, CL_DEVICE_IL_VERSION).c_str());
    std::printf("  Extensions:      %s\n", deviceText(device, CL_DEVICE_EXTENSIONS).c_str());
  }
  if (!foundLanewise) {
    std::fprintf(stderr, "the Lanewise platform was not found\n");
    return 1;
  }
  return 0;
}
