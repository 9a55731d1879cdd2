// SPDX-License-Identifier: Apache-2.0
// Platform layer: clGetPlatformIDs, clGetPlatformInfo, clGetDeviceIDs,
// clGetExtensionFunctionAddressForPlatform and the host/device timers
// (OpenCL 3.0 API specification, section 4.1 and 4.2).
#include "common.h"

#include <algorithm>
#include <cstring>
#include <set>
#include <sstream>

using namespace lanewise::test;

namespace {

std::set<std::string> splitNames(const std::string &list) {
  std::set<std::string> names;
  std::istringstream stream(list);
  for (std::string name; stream >> name;)
    names.insert(name);
  return names;
}

// The return type of each clGetPlatformInfo query of OpenCL 3.0 (table 3), plus
// the cl_khr_icd query. size == element == 0 marks a char[] string.
struct PlatformParam {
  cl_platform_info param;
  const char *name;
  size_t size;    // exact size of a scalar, or 0 for arrays and strings
  size_t element; // element size of an array, or 0
};

// clang-format off
#define SCALAR(p, T) PlatformParam{p, #p, sizeof(T), 0}
#define ARRAY(p, T) PlatformParam{p, #p, 0, sizeof(T)}
#define STRING(p) PlatformParam{p, #p, 0, 0}
// clang-format on
const PlatformParam platformParams[] = {
    STRING(CL_PLATFORM_PROFILE),
    STRING(CL_PLATFORM_VERSION),
    SCALAR(CL_PLATFORM_NUMERIC_VERSION, cl_version),
    STRING(CL_PLATFORM_NAME),
    STRING(CL_PLATFORM_VENDOR),
    STRING(CL_PLATFORM_EXTENSIONS),
    ARRAY(CL_PLATFORM_EXTENSIONS_WITH_VERSION, cl_name_version),
    SCALAR(CL_PLATFORM_HOST_TIMER_RESOLUTION, cl_ulong),
    STRING(CL_PLATFORM_ICD_SUFFIX_KHR),
};
#undef SCALAR
#undef ARRAY
#undef STRING

class Platform : public ::testing::Test {
protected:
  void SetUp() override {
    platform = testPlatform();
    ASSERT_NE(platform, nullptr);
  }
  cl_platform_id platform = nullptr;
};

} // namespace

TEST(PlatformIDs, LoaderListsThePlatformUnderTest) {
  cl_uint count = 0;
  ASSERT_EQ(clGetPlatformIDs(0, nullptr, &count), CL_SUCCESS);
  ASSERT_GE(count, 1u);
  std::vector<cl_platform_id> platforms(count);
  ASSERT_EQ(clGetPlatformIDs(count, platforms.data(), nullptr), CL_SUCCESS);
  ASSERT_NE(testPlatform(), nullptr);
  EXPECT_NE(std::find(platforms.begin(), platforms.end(), testPlatform()), platforms.end());
  if (testingLanewise()) {
    EXPECT_EQ(platformString(testPlatform(), CL_PLATFORM_NAME), "Lanewise");
  }
}

TEST(PlatformIDs, RejectsInconsistentArguments) {
  cl_platform_id platform = nullptr;
  EXPECT_EQ(clGetPlatformIDs(0, &platform, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetPlatformIDs(1, nullptr, nullptr), CL_INVALID_VALUE);
}

TEST_F(Platform, EveryQueryHasTheSpecifiedReturnType) {
  for (const PlatformParam &p : platformParams) {
    SCOPED_TRACE(p.name);
    size_t size = 0;
    ASSERT_EQ(clGetPlatformInfo(platform, p.param, 0, nullptr, &size), CL_SUCCESS);
    std::vector<unsigned char> value(size + 16, 0xAB);
    size_t again = 0;
    // A larger buffer than needed is fine; the size returned is the actual one.
    ASSERT_EQ(clGetPlatformInfo(platform, p.param, value.size(), value.data(), &again), CL_SUCCESS);
    EXPECT_EQ(again, size);
    if (p.size) {
      EXPECT_EQ(size, p.size);
    } else if (p.element) {
      EXPECT_EQ(size % p.element, 0u);
    } else {
      ASSERT_GE(size, 1u);
      EXPECT_EQ(value[size - 1], '\0') << "string not NUL-terminated";
      EXPECT_EQ(std::strlen(reinterpret_cast<char *>(value.data())), size - 1);
    }
    // A buffer smaller than the return type is an error when param_value is given.
    if (size > 0) {
      EXPECT_EQ(clGetPlatformInfo(platform, p.param, size - 1, value.data(), nullptr),
                CL_INVALID_VALUE);
    }
  }
}

TEST_F(Platform, UnknownQueryIsInvalidValue) {
  size_t size = 0;
  char buffer[64];
  EXPECT_EQ(clGetPlatformInfo(platform, 0x7FFF, 0, nullptr, &size), CL_INVALID_VALUE);
  EXPECT_EQ(clGetPlatformInfo(platform, 0x7FFF, sizeof(buffer), buffer, nullptr), CL_INVALID_VALUE);
}

TEST_F(Platform, ProfileIsFull) {
  EXPECT_EQ(platformString(platform, CL_PLATFORM_PROFILE), "FULL_PROFILE");
}

TEST_F(Platform, VersionIsOpenCL30) {
  // "OpenCL<space><major.minor><space><platform-specific information>"
  EXPECT_EQ(platformString(platform, CL_PLATFORM_VERSION).rfind("OpenCL 3.0 ", 0), 0u)
      << platformString(platform, CL_PLATFORM_VERSION);
}

TEST_F(Platform, NumericVersionMatchesVersionString) {
  cl_version version = 0;
  ASSERT_EQ(
      clGetPlatformInfo(platform, CL_PLATFORM_NUMERIC_VERSION, sizeof(version), &version, nullptr),
      CL_SUCCESS);
  // The major and minor numbers must match CL_PLATFORM_VERSION ("OpenCL 3.0 ...").
  EXPECT_EQ(CL_VERSION_MAJOR(version), 3u);
  EXPECT_EQ(CL_VERSION_MINOR(version), 0u);
}

TEST_F(Platform, NameAndVendorAreNotEmpty) {
  EXPECT_FALSE(platformString(platform, CL_PLATFORM_NAME).empty());
  EXPECT_FALSE(platformString(platform, CL_PLATFORM_VENDOR).empty());
  if (testingLanewise()) {
    EXPECT_EQ(platformString(platform, CL_PLATFORM_NAME), "Lanewise");
  }
}

TEST_F(Platform, ExtensionsIncludeIcd) {
  EXPECT_TRUE(splitNames(platformString(platform, CL_PLATFORM_EXTENSIONS)).count("cl_khr_icd"))
      << platformString(platform, CL_PLATFORM_EXTENSIONS);
}

TEST_F(Platform, ExtensionsWithVersionMatchExtensions) {
  size_t size = 0;
  ASSERT_EQ(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, 0, nullptr, &size),
            CL_SUCCESS);
  std::vector<cl_name_version> list(size / sizeof(cl_name_version));
  ASSERT_EQ(
      clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, size, list.data(), nullptr),
      CL_SUCCESS);
  std::set<std::string> names;
  for (const cl_name_version &entry : list) {
    ASSERT_NE(std::memchr(entry.name, '\0', sizeof(entry.name)), nullptr);
    // "The same extension name must not be reported more than once."
    EXPECT_TRUE(names.insert(entry.name).second) << "duplicate " << entry.name;
  }
  EXPECT_EQ(names, splitNames(platformString(platform, CL_PLATFORM_EXTENSIONS)));
}

TEST_F(Platform, ExtensionsIncludeEveryExtensionOfAllDevices) {
  // "Each extension that is supported by all devices associated with this
  // platform must be reported here."
  cl_uint count = 0;
  ASSERT_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count), CL_SUCCESS);
  std::vector<cl_device_id> devices(count);
  ASSERT_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, devices.data(), nullptr),
            CL_SUCCESS);
  std::set<std::string> common = splitNames(deviceString(devices[0], CL_DEVICE_EXTENSIONS));
  for (cl_device_id device : devices) {
    std::set<std::string> mine = splitNames(deviceString(device, CL_DEVICE_EXTENSIONS));
    std::erase_if(common, [&](const std::string &name) { return !mine.count(name); });
  }
  std::set<std::string> platformExtensions =
      splitNames(platformString(platform, CL_PLATFORM_EXTENSIONS));
  for (const std::string &name : common)
    EXPECT_TRUE(platformExtensions.count(name)) << name;
}

TEST_F(Platform, IcdSuffixIsOneWord) {
  std::string suffix = platformString(platform, CL_PLATFORM_ICD_SUFFIX_KHR);
  EXPECT_FALSE(suffix.empty());
  EXPECT_EQ(suffix.find(' '), std::string::npos);
}

TEST_F(Platform, GetDeviceIdsFindsOneCpuDevice) {
  for (cl_device_type type : std::initializer_list<cl_device_type>{
           CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_DEFAULT, CL_DEVICE_TYPE_ALL}) {
    SCOPED_TRACE(type);
    cl_uint count = 0;
    ASSERT_EQ(clGetDeviceIDs(platform, type, 0, nullptr, &count), CL_SUCCESS);
    EXPECT_EQ(count, 1u);
    cl_device_id devices[2] = {nullptr, nullptr};
    cl_uint again = 0;
    ASSERT_EQ(clGetDeviceIDs(platform, type, 2, devices, &again), CL_SUCCESS);
    EXPECT_EQ(again, count);
    EXPECT_NE(devices[0], nullptr);
    EXPECT_EQ(devices[1], nullptr) << "wrote more entries than there are devices";
    EXPECT_EQ(devices[0], testDevice());
  }
}

TEST_F(Platform, GetDeviceIdsReportsMissingTypes) {
  for (cl_device_type type : std::initializer_list<cl_device_type>{
           CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_CUSTOM}) {
    SCOPED_TRACE(type);
    cl_uint count = 7;
    cl_device_id device = nullptr;
    EXPECT_EQ(clGetDeviceIDs(platform, type, 0, nullptr, &count), CL_DEVICE_NOT_FOUND);
    EXPECT_EQ(clGetDeviceIDs(platform, type, 1, &device, nullptr), CL_DEVICE_NOT_FOUND);
  }
}

TEST_F(Platform, GetDeviceIdsRejectsInvalidArguments) {
  cl_device_id device = nullptr;
  cl_uint count = 0;
  // Bit 8 is not a device type of the Device Types table.
  EXPECT_EQ(clGetDeviceIDs(platform, cl_device_type{1} << 8, 1, &device, &count),
            CL_INVALID_DEVICE_TYPE);
  EXPECT_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, &device, &count), CL_INVALID_VALUE);
  EXPECT_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, nullptr, nullptr), CL_INVALID_VALUE);
}

TEST_F(Platform, UnknownExtensionFunctionIsNull) {
  EXPECT_EQ(clGetExtensionFunctionAddressForPlatform(platform, "clNoSuchFunctionXYZ"), nullptr);
}

TEST_F(Platform, HostTimerResolutionIsReportedForLanewise) {
  if (!testingLanewise())
    GTEST_SKIP() << "Lanewise property";
  cl_ulong resolution = 0;
  ASSERT_EQ(clGetPlatformInfo(platform, CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof(resolution),
                              &resolution, nullptr),
            CL_SUCCESS);
  // Optional in 3.0 (0 = no timer synchronization); Lanewise supports it.
  EXPECT_GT(resolution, 0u);
}

namespace {
// Skips the calling test when the platform reports no timer synchronization,
// after checking the specified CL_INVALID_OPERATION (appendix H).
bool timersSupported(cl_platform_id platform, cl_device_id device) {
  cl_ulong resolution = 0;
  clGetPlatformInfo(platform, CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof(resolution), &resolution,
                    nullptr);
  if (resolution != 0)
    return true;
  cl_ulong host = 0, dev = 0;
  EXPECT_EQ(clGetHostTimer(device, &host), CL_INVALID_OPERATION);
  EXPECT_EQ(clGetDeviceAndHostTimer(device, &dev, &host), CL_INVALID_OPERATION);
  return false;
}
} // namespace

TEST_F(Platform, HostTimerIsMonotonic) {
  cl_device_id device = testDevice();
  if (!timersSupported(platform, device))
    GTEST_SKIP() << "no device and host timer synchronization";
  cl_ulong first = 0, second = 0;
  ASSERT_EQ(clGetHostTimer(device, &first), CL_SUCCESS);
  ASSERT_EQ(clGetHostTimer(device, &second), CL_SUCCESS);
  EXPECT_NE(first, 0u);
  EXPECT_GE(second, first);
}

TEST_F(Platform, DeviceAndHostTimerShareTheHostTimebase) {
  cl_device_id device = testDevice();
  if (!timersSupported(platform, device))
    GTEST_SKIP() << "no device and host timer synchronization";
  cl_ulong before = 0, device1 = 0, host1 = 0, device2 = 0, host2 = 0, after = 0;
  ASSERT_EQ(clGetHostTimer(device, &before), CL_SUCCESS);
  ASSERT_EQ(clGetDeviceAndHostTimer(device, &device1, &host1), CL_SUCCESS);
  ASSERT_EQ(clGetDeviceAndHostTimer(device, &device2, &host2), CL_SUCCESS);
  ASSERT_EQ(clGetHostTimer(device, &after), CL_SUCCESS);
  EXPECT_NE(device1, 0u);
  EXPECT_NE(host1, 0u);
  // clGetHostTimer's value "is in the same timebase as the host_timestamp
  // returned from clGetDeviceAndHostTimer".
  EXPECT_LE(before, host1);
  EXPECT_LE(host1, host2);
  EXPECT_LE(host2, after);
  EXPECT_LE(device1, device2);
  if (testingLanewise()) {
    // Lanewise's device is the host CPU: both timestamps come from one clock.
    const cl_ulong tolerance = 10'000'000; // 10 ms
    EXPECT_LT(device1 > host1 ? device1 - host1 : host1 - device1, tolerance);
  }
}

TEST_F(Platform, TimersRejectNullOutputs) {
  cl_device_id device = testDevice();
  if (!timersSupported(platform, device))
    GTEST_SKIP() << "no device and host timer synchronization";
  cl_ulong value = 0;
  EXPECT_EQ(clGetHostTimer(device, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetDeviceAndHostTimer(device, nullptr, &value), CL_INVALID_VALUE);
  EXPECT_EQ(clGetDeviceAndHostTimer(device, &value, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetHostTimer(nullptr, &value), CL_INVALID_DEVICE);
}
