// SPDX-License-Identifier: Apache-2.0
// clGetDeviceInfo, clRetainDevice/clReleaseDevice and clCreateSubDevices
// (OpenCL 3.0 API specification, section 4.2 and 4.3; appendix H for the
// features that became optional in 3.0).
#include "common.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <sstream>
#include <thread>
#include <unistd.h>

using namespace lanewise::test;

// Expects `call` (an expression yielding a cl_int) to equal `expected`, with
// the call made in a fresh child process (a "threadsafe" gtest death test):
// an implementation that crashes on an invalid argument then fails this test
// alone instead of ending the whole run. On a mismatch the child's exit status
// is 1 - the returned code (so 34 means -33, CL_INVALID_DEVICE).
#define EXPECT_IN_CHILD(call, expected)                                                            \
  do {                                                                                             \
    GTEST_FLAG_SET(death_test_style, "threadsafe");                                                \
    EXPECT_EXIT(                                                                                   \
        {                                                                                          \
          cl_int result = (call);                                                                  \
          std::_Exit(result == (expected) ? 0 : 1 - result);                                       \
        },                                                                                         \
        ::testing::ExitedWithCode(0), "")                                                          \
        << #call " != " #expected;                                                                 \
  } while (0)

namespace {

enum class Kind { Scalar, Array, String };

// The return type of each clGetDeviceInfo query of OpenCL 3.0 (table 5).
struct DeviceParam {
  cl_device_info param;
  const char *name;
  Kind kind;
  size_t size; // sizeof the scalar type, or of the array element
};

// clang-format off
#define SCALAR(p, T) DeviceParam{p, #p, Kind::Scalar, sizeof(T)}
#define ARRAY(p, T) DeviceParam{p, #p, Kind::Array, sizeof(T)}
#define STRING(p) DeviceParam{p, #p, Kind::String, 1}
// clang-format on
const DeviceParam deviceParams[] = {
    SCALAR(CL_DEVICE_TYPE, cl_device_type),
    SCALAR(CL_DEVICE_VENDOR_ID, cl_uint),
    SCALAR(CL_DEVICE_MAX_COMPUTE_UNITS, cl_uint),
    SCALAR(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, cl_uint),
    ARRAY(CL_DEVICE_MAX_WORK_ITEM_SIZES, size_t),
    SCALAR(CL_DEVICE_MAX_WORK_GROUP_SIZE, size_t),
    SCALAR(CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, cl_uint),
    SCALAR(CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, cl_uint),
    SCALAR(CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, cl_uint),
    SCALAR(CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, cl_uint),
    SCALAR(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, cl_uint),
    SCALAR(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, cl_uint),
    SCALAR(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, cl_uint),
    SCALAR(CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, cl_uint),
    SCALAR(CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, cl_uint),
    SCALAR(CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, cl_uint),
    SCALAR(CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, cl_uint),
    SCALAR(CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, cl_uint),
    SCALAR(CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, cl_uint),
    SCALAR(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, cl_uint),
    SCALAR(CL_DEVICE_MAX_CLOCK_FREQUENCY, cl_uint),
    SCALAR(CL_DEVICE_ADDRESS_BITS, cl_uint),
    SCALAR(CL_DEVICE_MAX_MEM_ALLOC_SIZE, cl_ulong),
    SCALAR(CL_DEVICE_IMAGE_SUPPORT, cl_bool),
    SCALAR(CL_DEVICE_MAX_READ_IMAGE_ARGS, cl_uint),
    SCALAR(CL_DEVICE_MAX_WRITE_IMAGE_ARGS, cl_uint),
    SCALAR(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, cl_uint),
    STRING(CL_DEVICE_IL_VERSION),
    ARRAY(CL_DEVICE_ILS_WITH_VERSION, cl_name_version),
    SCALAR(CL_DEVICE_IMAGE2D_MAX_WIDTH, size_t),
    SCALAR(CL_DEVICE_IMAGE2D_MAX_HEIGHT, size_t),
    SCALAR(CL_DEVICE_IMAGE3D_MAX_WIDTH, size_t),
    SCALAR(CL_DEVICE_IMAGE3D_MAX_HEIGHT, size_t),
    SCALAR(CL_DEVICE_IMAGE3D_MAX_DEPTH, size_t),
    SCALAR(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, size_t),
    SCALAR(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, size_t),
    SCALAR(CL_DEVICE_MAX_SAMPLERS, cl_uint),
    SCALAR(CL_DEVICE_IMAGE_PITCH_ALIGNMENT, cl_uint),
    SCALAR(CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, cl_uint),
    SCALAR(CL_DEVICE_MAX_PIPE_ARGS, cl_uint),
    SCALAR(CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, cl_uint),
    SCALAR(CL_DEVICE_PIPE_MAX_PACKET_SIZE, cl_uint),
    SCALAR(CL_DEVICE_MAX_PARAMETER_SIZE, size_t),
    SCALAR(CL_DEVICE_MEM_BASE_ADDR_ALIGN, cl_uint),
    SCALAR(CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, cl_uint),
    SCALAR(CL_DEVICE_SINGLE_FP_CONFIG, cl_device_fp_config),
    SCALAR(CL_DEVICE_DOUBLE_FP_CONFIG, cl_device_fp_config),
    SCALAR(CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, cl_device_mem_cache_type),
    SCALAR(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, cl_uint),
    SCALAR(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, cl_ulong),
    SCALAR(CL_DEVICE_GLOBAL_MEM_SIZE, cl_ulong),
    SCALAR(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, cl_ulong),
    SCALAR(CL_DEVICE_MAX_CONSTANT_ARGS, cl_uint),
    SCALAR(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, size_t),
    SCALAR(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, size_t),
    SCALAR(CL_DEVICE_LOCAL_MEM_TYPE, cl_device_local_mem_type),
    SCALAR(CL_DEVICE_LOCAL_MEM_SIZE, cl_ulong),
    SCALAR(CL_DEVICE_ERROR_CORRECTION_SUPPORT, cl_bool),
    SCALAR(CL_DEVICE_HOST_UNIFIED_MEMORY, cl_bool),
    SCALAR(CL_DEVICE_PROFILING_TIMER_RESOLUTION, size_t),
    SCALAR(CL_DEVICE_ENDIAN_LITTLE, cl_bool),
    SCALAR(CL_DEVICE_AVAILABLE, cl_bool),
    SCALAR(CL_DEVICE_COMPILER_AVAILABLE, cl_bool),
    SCALAR(CL_DEVICE_LINKER_AVAILABLE, cl_bool),
    SCALAR(CL_DEVICE_EXECUTION_CAPABILITIES, cl_device_exec_capabilities),
    SCALAR(CL_DEVICE_QUEUE_PROPERTIES, cl_command_queue_properties),
    SCALAR(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, cl_command_queue_properties),
    SCALAR(CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, cl_command_queue_properties),
    SCALAR(CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, cl_uint),
    SCALAR(CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, cl_uint),
    SCALAR(CL_DEVICE_MAX_ON_DEVICE_QUEUES, cl_uint),
    SCALAR(CL_DEVICE_MAX_ON_DEVICE_EVENTS, cl_uint),
    STRING(CL_DEVICE_BUILT_IN_KERNELS),
    ARRAY(CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, cl_name_version),
    SCALAR(CL_DEVICE_PLATFORM, cl_platform_id),
    STRING(CL_DEVICE_NAME),
    STRING(CL_DEVICE_VENDOR),
    STRING(CL_DRIVER_VERSION),
    STRING(CL_DEVICE_PROFILE),
    STRING(CL_DEVICE_VERSION),
    SCALAR(CL_DEVICE_NUMERIC_VERSION, cl_version),
    STRING(CL_DEVICE_OPENCL_C_VERSION),
    ARRAY(CL_DEVICE_OPENCL_C_ALL_VERSIONS, cl_name_version),
    ARRAY(CL_DEVICE_OPENCL_C_FEATURES, cl_name_version),
    STRING(CL_DEVICE_EXTENSIONS),
    ARRAY(CL_DEVICE_EXTENSIONS_WITH_VERSION, cl_name_version),
    SCALAR(CL_DEVICE_PRINTF_BUFFER_SIZE, size_t),
    SCALAR(CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, cl_bool),
    SCALAR(CL_DEVICE_PARENT_DEVICE, cl_device_id),
    SCALAR(CL_DEVICE_PARTITION_MAX_SUB_DEVICES, cl_uint),
    ARRAY(CL_DEVICE_PARTITION_PROPERTIES, cl_device_partition_property),
    SCALAR(CL_DEVICE_PARTITION_AFFINITY_DOMAIN, cl_device_affinity_domain),
    ARRAY(CL_DEVICE_PARTITION_TYPE, cl_device_partition_property),
    SCALAR(CL_DEVICE_REFERENCE_COUNT, cl_uint),
    SCALAR(CL_DEVICE_SVM_CAPABILITIES, cl_device_svm_capabilities),
    SCALAR(CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, cl_uint),
    SCALAR(CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT, cl_uint),
    SCALAR(CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, cl_uint),
    SCALAR(CL_DEVICE_MAX_NUM_SUB_GROUPS, cl_uint),
    SCALAR(CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, cl_bool),
    SCALAR(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, cl_device_atomic_capabilities),
    SCALAR(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, cl_device_atomic_capabilities),
    SCALAR(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, cl_bool),
    SCALAR(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, cl_bool),
    SCALAR(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, cl_bool),
    SCALAR(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, cl_device_device_enqueue_capabilities),
    SCALAR(CL_DEVICE_PIPE_SUPPORT, cl_bool),
    SCALAR(CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, size_t),
    STRING(CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED),
};
#undef SCALAR
#undef ARRAY
#undef STRING

std::set<std::string> splitNames(const std::string &list, char separator = ' ') {
  std::set<std::string> names;
  std::istringstream stream(list);
  for (std::string name; std::getline(stream, name, separator);)
    if (!name.empty())
      names.insert(name);
  return names;
}

template <typename T> std::vector<T> deviceArray(cl_device_id device, cl_device_info param) {
  size_t size = 0;
  EXPECT_EQ(clGetDeviceInfo(device, param, 0, nullptr, &size), CL_SUCCESS);
  std::vector<T> values(size / sizeof(T));
  if (!values.empty()) {
    EXPECT_EQ(clGetDeviceInfo(device, param, size, values.data(), nullptr), CL_SUCCESS);
  }
  return values;
}

std::string describe(const cl_name_version &entry) {
  std::ostringstream out;
  out << entry.name << ' ' << CL_VERSION_MAJOR(entry.version) << '.'
      << CL_VERSION_MINOR(entry.version) << '.' << CL_VERSION_PATCH(entry.version);
  return out.str();
}

// Parses the "<major>.<minor>" that follows `prefix` in a version string.
std::pair<int, int> parseVersion(const std::string &text, const std::string &prefix) {
  int major = -1, minor = -1;
  if (text.rfind(prefix, 0) == 0)
    std::sscanf(text.c_str() + prefix.size(), "%d.%d", &major, &minor);
  return {major, minor};
}

bool isPowerOfTwo(cl_ulong value) { return value && !(value & (value - 1)); }

class Device : public ::testing::Test {
protected:
  void SetUp() override {
    device = testDevice();
    ASSERT_NE(device, nullptr);
  }

  template <typename T> T info(cl_device_info param) { return deviceInfo<T>(device, param); }
  std::string string(cl_device_info param) { return deviceString(device, param); }
  bool hasExtension(const std::string &name) {
    return splitNames(string(CL_DEVICE_EXTENSIONS)).count(name) != 0;
  }
  bool hasFeature(const std::string &name) {
    for (const cl_name_version &entry :
         deviceArray<cl_name_version>(device, CL_DEVICE_OPENCL_C_FEATURES))
      if (name == entry.name)
        return true;
    return false;
  }

  cl_device_id device = nullptr;
};

} // namespace

TEST_F(Device, EveryQueryHasTheSpecifiedReturnType) {
  for (const DeviceParam &p : deviceParams) {
    SCOPED_TRACE(p.name);
    size_t size = 0;
    ASSERT_EQ(clGetDeviceInfo(device, p.param, 0, nullptr, &size), CL_SUCCESS);
    std::vector<unsigned char> value(size + 16, 0xAB);
    size_t again = 0;
    ASSERT_EQ(clGetDeviceInfo(device, p.param, value.size(), value.data(), &again), CL_SUCCESS);
    EXPECT_EQ(again, size);
    switch (p.kind) {
    case Kind::Scalar:
      EXPECT_EQ(size, p.size);
      break;
    case Kind::Array:
      EXPECT_EQ(size % p.size, 0u);
      break;
    case Kind::String:
      ASSERT_GE(size, 1u);
      EXPECT_EQ(value[size - 1], '\0') << "string not NUL-terminated";
      EXPECT_EQ(std::strlen(reinterpret_cast<char *>(value.data())), size - 1);
      break;
    }
    // A buffer smaller than the returned value is an error when param_value is given.
    if (size > 0) {
      EXPECT_EQ(clGetDeviceInfo(device, p.param, size - 1, value.data(), nullptr),
                CL_INVALID_VALUE);
    }
  }
}

TEST_F(Device, HalfFpConfigIsAnsweredWithFp16) {
  if (!hasExtension("cl_khr_fp16"))
    GTEST_SKIP() << "no cl_khr_fp16";
  size_t size = 0;
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_HALF_FP_CONFIG, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size, sizeof(cl_device_fp_config));
  EXPECT_NE(info<cl_device_fp_config>(CL_DEVICE_HALF_FP_CONFIG), 0u);
}

TEST_F(Device, UnknownQueryIsInvalidValue) {
  size_t size = 0;
  char buffer[64];
  EXPECT_EQ(clGetDeviceInfo(device, 0x7FFF, 0, nullptr, &size), CL_INVALID_VALUE);
  EXPECT_EQ(clGetDeviceInfo(device, 0x7FFF, sizeof(buffer), buffer, nullptr), CL_INVALID_VALUE);
}

TEST_F(Device, NullDeviceIsInvalidDevice) {
  cl_device_type type = 0;
  EXPECT_EQ(clGetDeviceInfo(nullptr, CL_DEVICE_TYPE, sizeof(type), &type, nullptr),
            CL_INVALID_DEVICE);
}

TEST_F(Device, OtherObjectIsInvalidDevice) {
  cl_int err = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_device_type type = 0;
  cl_device_id notADevice = reinterpret_cast<cl_device_id>(context);
  EXPECT_IN_CHILD(clGetDeviceInfo(notADevice, CL_DEVICE_TYPE, sizeof(type), &type, nullptr),
                  CL_INVALID_DEVICE);
  EXPECT_IN_CHILD(clRetainDevice(notADevice), CL_INVALID_DEVICE);
  clReleaseContext(context);
}

TEST_F(Device, TypeIsCpu) { EXPECT_EQ(info<cl_device_type>(CL_DEVICE_TYPE), CL_DEVICE_TYPE_CPU); }

TEST_F(Device, BelongsToTheTestPlatform) {
  EXPECT_EQ(info<cl_platform_id>(CL_DEVICE_PLATFORM), testPlatform());
}

// vYYYY-MM-DD-XX (OpenCL 3.0, 4.2), with a month and a day that exist.
TEST_F(Device, LatestConformanceVersionHasTheSpecifiedForm) {
  const std::string version = string(CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED);
  int year = -1, month = -1, day = -1, revision = -1, length = 0;
  ASSERT_EQ(std::sscanf(version.c_str(), "v%4d-%2d-%2d-%2d%n", &year, &month, &day, &revision,
                        &length),
            4)
      << version;
  EXPECT_EQ(size_t(length), version.size()) << version;
  EXPECT_EQ(version.size(), std::string("vYYYY-MM-DD-XX").size()) << version;
  EXPECT_TRUE(month >= 1 && month <= 12) << version;
  EXPECT_TRUE(day >= 1 && day <= 31) << version;
}

TEST_F(Device, ProfileIsFull) { EXPECT_EQ(string(CL_DEVICE_PROFILE), "FULL_PROFILE"); }

TEST_F(Device, VersionIsOpenCL30) {
  EXPECT_EQ(string(CL_DEVICE_VERSION).rfind("OpenCL 3.0 ", 0), 0u) << string(CL_DEVICE_VERSION);
  // The numeric major and minor must match CL_DEVICE_VERSION.
  cl_version version = info<cl_version>(CL_DEVICE_NUMERIC_VERSION);
  EXPECT_EQ(CL_VERSION_MAJOR(version), 3u);
  EXPECT_EQ(CL_VERSION_MINOR(version), 0u);
}

TEST_F(Device, IsAvailableLittleEndianWithCompilerAndLinker) {
  EXPECT_EQ(info<cl_bool>(CL_DEVICE_AVAILABLE), CL_TRUE);
  EXPECT_EQ(info<cl_bool>(CL_DEVICE_ENDIAN_LITTLE), CL_TRUE);
  // Both must be CL_TRUE for full-profile devices.
  EXPECT_EQ(info<cl_bool>(CL_DEVICE_COMPILER_AVAILABLE), CL_TRUE);
  EXPECT_EQ(info<cl_bool>(CL_DEVICE_LINKER_AVAILABLE), CL_TRUE);
}

TEST_F(Device, MaxComputeUnitsIsHardwareThreads) {
  cl_uint units = info<cl_uint>(CL_DEVICE_MAX_COMPUTE_UNITS);
  EXPECT_GE(units, 1u);
  if (testingLanewise()) {
    EXPECT_EQ(units, std::thread::hardware_concurrency());
  }
}

TEST_F(Device, WorkItemLimitsMeetMinimums) {
  cl_uint dims = info<cl_uint>(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
  EXPECT_GE(dims, 3u);
  std::vector<size_t> sizes = deviceArray<size_t>(device, CL_DEVICE_MAX_WORK_ITEM_SIZES);
  ASSERT_EQ(sizes.size(), dims) << "one entry per dimension";
  double product = 1;
  for (size_t s : sizes) {
    EXPECT_GE(s, 1u);
    product *= double(s);
  }
  size_t groupSize = info<size_t>(CL_DEVICE_MAX_WORK_GROUP_SIZE);
  EXPECT_GE(groupSize, 1u);
  EXPECT_LE(double(groupSize), product);
}

TEST_F(Device, MaxMemAllocSizeMeetsMinimum) {
  // max(min(1 GiB, CL_DEVICE_GLOBAL_MEM_SIZE / 4), 32 MiB)
  cl_ulong global = info<cl_ulong>(CL_DEVICE_GLOBAL_MEM_SIZE);
  cl_ulong minimum = std::max<cl_ulong>(std::min<cl_ulong>(1ull << 30, global / 4), 32ull << 20);
  EXPECT_GE(info<cl_ulong>(CL_DEVICE_MAX_MEM_ALLOC_SIZE), minimum);
}

TEST_F(Device, GlobalMemSizeFitsInPhysicalMemory) {
  cl_ulong physical = cl_ulong(sysconf(_SC_PHYS_PAGES)) * cl_ulong(sysconf(_SC_PAGESIZE));
  cl_ulong global = info<cl_ulong>(CL_DEVICE_GLOBAL_MEM_SIZE);
  EXPECT_GT(global, 0u);
  EXPECT_LE(global, physical);
}

TEST_F(Device, MeetsFullProfileMinimums) {
  struct Minimum {
    cl_device_info param;
    const char *name;
    size_t size;
    cl_ulong minimum;
  };
// clang-format off
#define MINIMUM(p, T, m) Minimum{p, #p, sizeof(T), m}
  // clang-format on
  const Minimum minimums[] = {
      MINIMUM(CL_DEVICE_LOCAL_MEM_SIZE, cl_ulong, 32 * 1024),
      MINIMUM(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, cl_ulong, 64 * 1024),
      MINIMUM(CL_DEVICE_MAX_CONSTANT_ARGS, cl_uint, 8),
      MINIMUM(CL_DEVICE_MAX_PARAMETER_SIZE, size_t, 1024),
      // The size of long16, in bits and in bytes.
      MINIMUM(CL_DEVICE_MEM_BASE_ADDR_ALIGN, cl_uint, 8 * 16 * sizeof(cl_long)),
      MINIMUM(CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, cl_uint, 16 * sizeof(cl_long)),
      MINIMUM(CL_DEVICE_PRINTF_BUFFER_SIZE, size_t, 1024 * 1024),
  };
#undef MINIMUM
  for (const Minimum &m : minimums) {
    cl_ulong value = 0; // little-endian: a narrower value lands in the low bytes
    ASSERT_EQ(clGetDeviceInfo(device, m.param, m.size, &value, nullptr), CL_SUCCESS) << m.name;
    EXPECT_GE(value, m.minimum) << m.name;
  }
}

TEST_F(Device, AddressBitsAndMemoryTypesAreValid) {
  cl_uint bits = info<cl_uint>(CL_DEVICE_ADDRESS_BITS);
  EXPECT_TRUE(bits == 32 || bits == 64) << bits;
  cl_device_local_mem_type local = info<cl_device_local_mem_type>(CL_DEVICE_LOCAL_MEM_TYPE);
  EXPECT_TRUE(local == CL_LOCAL || local == CL_GLOBAL) << local; // CL_NONE: custom devices only
  cl_device_mem_cache_type cache = info<cl_device_mem_cache_type>(CL_DEVICE_GLOBAL_MEM_CACHE_TYPE);
  EXPECT_TRUE(cache == CL_NONE || cache == CL_READ_ONLY_CACHE || cache == CL_READ_WRITE_CACHE);
}

TEST_F(Device, BitfieldsUseOnlyDefinedBits) {
  const cl_bitfield fp = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
                         CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA |
                         CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT | CL_FP_SOFT_FLOAT;
  const cl_bitfield atomics = CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                              CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM |
                              CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP | CL_DEVICE_ATOMIC_SCOPE_DEVICE |
                              CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;
  const cl_bitfield queue = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
  const struct {
    cl_device_info param;
    const char *name;
    cl_bitfield allowed;
  } fields[] = {
      {CL_DEVICE_SINGLE_FP_CONFIG, "SINGLE_FP_CONFIG", fp},
      {CL_DEVICE_DOUBLE_FP_CONFIG, "DOUBLE_FP_CONFIG", fp & ~CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT},
      {CL_DEVICE_EXECUTION_CAPABILITIES, "EXECUTION_CAPABILITIES",
       CL_EXEC_KERNEL | CL_EXEC_NATIVE_KERNEL},
      {CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, "QUEUE_ON_HOST_PROPERTIES", queue},
      {CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, "QUEUE_ON_DEVICE_PROPERTIES", queue},
      {CL_DEVICE_SVM_CAPABILITIES, "SVM_CAPABILITIES",
       CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
           CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS},
      {CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, "ATOMIC_MEMORY_CAPABILITIES", atomics},
      {CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, "ATOMIC_FENCE_CAPABILITIES", atomics},
      {CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, "DEVICE_ENQUEUE_CAPABILITIES",
       CL_DEVICE_QUEUE_SUPPORTED | CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT},
  };
  for (const auto &f : fields) {
    cl_bitfield value = info<cl_bitfield>(f.param);
    EXPECT_EQ(value & ~f.allowed, 0u) << f.name << " = 0x" << std::hex << value;
  }
}

TEST_F(Device, SingleFpConfigHasMandatedMinimum) {
  cl_device_fp_config config = info<cl_device_fp_config>(CL_DEVICE_SINGLE_FP_CONFIG);
  const cl_device_fp_config minimum = CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN;
  EXPECT_EQ(config & minimum, minimum);
}

TEST_F(Device, DoubleSupportIsReportedConsistently) {
  cl_device_fp_config config = info<cl_device_fp_config>(CL_DEVICE_DOUBLE_FP_CONFIG);
  bool supported = config != 0;
  // cl_khr_fp64 must be reported "when and only when the optional feature is
  // supported"; OpenCL C compilers supporting double define __opencl_c_fp64.
  EXPECT_EQ(hasExtension("cl_khr_fp64"), supported);
  EXPECT_EQ(hasFeature("__opencl_c_fp64"), supported);
  if (supported) {
    const cl_device_fp_config minimum =
        CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_DENORM;
    EXPECT_EQ(config & minimum, minimum);
  } else {
    EXPECT_EQ(info<cl_uint>(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE), 0u);
    EXPECT_EQ(info<cl_uint>(CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE), 0u);
  }
}

// cl_khr_fp16 and the __opencl_c_fp16 feature go together, with the half
// queries: CL_DEVICE_HALF_FP_CONFIG has the full-profile minimum (round to
// nearest or to zero, infinities and NaNs) and the half vector widths are
// not 0.
TEST_F(Device, HalfSupportIsReportedConsistently) {
  const bool supported = hasExtension("cl_khr_fp16");
  EXPECT_EQ(hasFeature("__opencl_c_fp16"), supported);
  if (!supported)
    GTEST_SKIP() << "no cl_khr_fp16";
  const auto config = info<cl_device_fp_config>(CL_DEVICE_HALF_FP_CONFIG);
  EXPECT_TRUE(config & (CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO));
  EXPECT_TRUE(config & CL_FP_INF_NAN);
  EXPECT_NE(info<cl_uint>(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF), 0u);
  EXPECT_NE(info<cl_uint>(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF), 0u);
}

TEST_F(Device, HalfVectorWidthsAreZeroWithoutFp16) {
  if (hasExtension("cl_khr_fp16"))
    GTEST_SKIP() << "cl_khr_fp16 supported";
  EXPECT_EQ(info<cl_uint>(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF), 0u);
  EXPECT_EQ(info<cl_uint>(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF), 0u);
}

TEST_F(Device, ExecutesKernels) {
  EXPECT_TRUE(info<cl_device_exec_capabilities>(CL_DEVICE_EXECUTION_CAPABILITIES) & CL_EXEC_KERNEL);
}

TEST_F(Device, HostQueuesSupportProfiling) {
  auto onHost = info<cl_command_queue_properties>(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES);
  EXPECT_TRUE(onHost & CL_QUEUE_PROFILING_ENABLE);
  // The deprecated CL_DEVICE_QUEUE_PROPERTIES has the same description.
  EXPECT_EQ(info<cl_command_queue_properties>(CL_DEVICE_QUEUE_PROPERTIES), onHost);
}

TEST_F(Device, IlVersionMatchesIlsWithVersion) {
  std::set<std::string> fromString = splitNames(string(CL_DEVICE_IL_VERSION));
  std::set<std::string> fromArray;
  for (const cl_name_version &entry :
       deviceArray<cl_name_version>(device, CL_DEVICE_ILS_WITH_VERSION)) {
    // "<IL_Prefix>_<Major_Version>.<Minor_Version>"; each name and major/minor
    // combination may only be reported once.
    std::string token = std::string(entry.name) + "_" +
                        std::to_string(CL_VERSION_MAJOR(entry.version)) + "." +
                        std::to_string(CL_VERSION_MINOR(entry.version));
    EXPECT_TRUE(fromArray.insert(token).second) << "duplicate " << describe(entry);
  }
  EXPECT_EQ(fromString, fromArray);
}

TEST_F(Device, LanewiseAcceptsSpirV10To14) {
  if (!testingLanewise())
    GTEST_SKIP() << "Lanewise property";
  std::set<std::string> ils = splitNames(string(CL_DEVICE_IL_VERSION));
  std::set<cl_version> versions;
  for (const cl_name_version &entry :
       deviceArray<cl_name_version>(device, CL_DEVICE_ILS_WITH_VERSION)) {
    EXPECT_STREQ(entry.name, "SPIR-V");
    versions.insert(entry.version);
  }
  for (cl_uint minor = 0; minor <= 4; ++minor) {
    EXPECT_TRUE(ils.count("SPIR-V_1." + std::to_string(minor))) << "SPIR-V 1." << minor;
    EXPECT_TRUE(versions.count(CL_MAKE_VERSION(1, minor, 0))) << "SPIR-V 1." << minor;
  }
}

TEST_F(Device, OpenCLCVersionIsListedInAllVersions) {
  std::string text = string(CL_DEVICE_OPENCL_C_VERSION);
  auto [major, minor] = parseVersion(text, "OpenCL C ");
  ASSERT_GE(major, 1) << text;
  // An OpenCL 3.0 device must support at least OpenCL C 1.2.
  EXPECT_GE(major * 10 + minor, 12) << text;
  bool listed = false;
  for (const cl_name_version &entry :
       deviceArray<cl_name_version>(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS))
    listed |= CL_VERSION_MAJOR(entry.version) == cl_uint(major) &&
              CL_VERSION_MINOR(entry.version) == cl_uint(minor);
  EXPECT_TRUE(listed) << text << " missing from CL_DEVICE_OPENCL_C_ALL_VERSIONS";
}

TEST_F(Device, OpenCLCAllVersionsIncludeRequiredVersions) {
  // "support for at least OpenCL C 3.0, OpenCL C 1.2, OpenCL C 1.1, and OpenCL
  // C 1.0 is required for an OpenCL 3.0 device" (that compiles OpenCL C).
  std::set<std::pair<cl_uint, cl_uint>> versions;
  for (const cl_name_version &entry :
       deviceArray<cl_name_version>(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS)) {
    EXPECT_STREQ(entry.name, "OpenCL C");
    versions.insert({CL_VERSION_MAJOR(entry.version), CL_VERSION_MINOR(entry.version)});
  }
  for (auto [major, minor] : {std::pair<cl_uint, cl_uint>{1, 0}, {1, 1}, {1, 2}, {3, 0}})
    EXPECT_TRUE(versions.count({major, minor})) << "OpenCL C " << major << "." << minor;
}

TEST_F(Device, OpenCLCFeaturesAreOpenCLC30FeatureMacros) {
  std::set<std::string> names;
  for (const cl_name_version &entry :
       deviceArray<cl_name_version>(device, CL_DEVICE_OPENCL_C_FEATURES)) {
    EXPECT_EQ(std::string(entry.name).rfind("__opencl_c_", 0), 0u) << entry.name;
    // Every feature macro was introduced by OpenCL C 3.0 (or later).
    EXPECT_GE(CL_VERSION_MAJOR(entry.version), 3u) << describe(entry);
    EXPECT_TRUE(names.insert(entry.name).second) << "duplicate " << entry.name;
  }
  // "compilers for FULL profile devices ... must always define __opencl_c_int64"
  EXPECT_TRUE(names.count("__opencl_c_int64"));
}

TEST_F(Device, OpenCLCVersionAbove12ImpliesOptionalFeatures) {
  // A 3.0 device may report an OpenCL C version newer than 1.2 "if and only if
  // all optional OpenCL C features are supported by the device for the newer
  // version".
  auto [major, minor] = parseVersion(string(CL_DEVICE_OPENCL_C_VERSION), "OpenCL C ");
  if (major * 10 + minor <= 12)
    GTEST_SKIP() << "reports OpenCL C " << major << "." << minor;
  for (const char *feature :
       {"__opencl_c_atomic_order_acq_rel", "__opencl_c_atomic_order_seq_cst",
        "__opencl_c_atomic_scope_device", "__opencl_c_atomic_scope_all_devices",
        "__opencl_c_device_enqueue", "__opencl_c_generic_address_space", "__opencl_c_pipes",
        "__opencl_c_program_scope_global_variables", "__opencl_c_work_group_collective_functions"})
    EXPECT_TRUE(hasFeature(feature)) << feature;
}

TEST_F(Device, ExtensionsWithVersionMatchExtensions) {
  std::string list = string(CL_DEVICE_EXTENSIONS);
  for (char c : list)
    EXPECT_TRUE(std::isgraph(static_cast<unsigned char>(c)) || c == ' ')
        << "unexpected character in " << list;
  std::set<std::string> names;
  for (const cl_name_version &entry :
       deviceArray<cl_name_version>(device, CL_DEVICE_EXTENSIONS_WITH_VERSION)) {
    ASSERT_NE(std::memchr(entry.name, '\0', sizeof(entry.name)), nullptr);
    EXPECT_TRUE(names.insert(entry.name).second) << "duplicate " << entry.name;
  }
  EXPECT_EQ(names, splitNames(list));
}

TEST_F(Device, ReportsExtensionsRequiredSinceOpenCL11) {
  for (const char *name :
       {"cl_khr_byte_addressable_store", "cl_khr_global_int32_base_atomics",
        "cl_khr_global_int32_extended_atomics", "cl_khr_local_int32_base_atomics",
        "cl_khr_local_int32_extended_atomics"})
    EXPECT_TRUE(hasExtension(name)) << name;
}

TEST_F(Device, BuiltInKernelsMatchBuiltInKernelsWithVersion) {
  std::set<std::string> names;
  for (const cl_name_version &entry :
       deviceArray<cl_name_version>(device, CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION))
    EXPECT_TRUE(names.insert(entry.name).second) << "duplicate " << entry.name;
  // A semicolon-separated list, empty when there are none.
  EXPECT_EQ(names, splitNames(string(CL_DEVICE_BUILT_IN_KERNELS), ';'));
}

TEST_F(Device, ImageQueriesFollowImageSupport) {
  bool images = info<cl_bool>(CL_DEVICE_IMAGE_SUPPORT) == CL_TRUE;
  EXPECT_EQ(hasFeature("__opencl_c_images"), images);
  // Each minimum applies with CL_DEVICE_IMAGE_SUPPORT; "the value is 0 otherwise".
  const struct {
    cl_device_info param;
    const char *name;
    size_t size;
    cl_ulong minimum;
  } limits[] = {
      {CL_DEVICE_MAX_READ_IMAGE_ARGS, "MAX_READ_IMAGE_ARGS", sizeof(cl_uint), 128},
      {CL_DEVICE_MAX_WRITE_IMAGE_ARGS, "MAX_WRITE_IMAGE_ARGS", sizeof(cl_uint), 64},
      {CL_DEVICE_IMAGE2D_MAX_WIDTH, "IMAGE2D_MAX_WIDTH", sizeof(size_t), 16384},
      {CL_DEVICE_IMAGE2D_MAX_HEIGHT, "IMAGE2D_MAX_HEIGHT", sizeof(size_t), 16384},
      {CL_DEVICE_IMAGE3D_MAX_WIDTH, "IMAGE3D_MAX_WIDTH", sizeof(size_t), 2048},
      {CL_DEVICE_IMAGE3D_MAX_HEIGHT, "IMAGE3D_MAX_HEIGHT", sizeof(size_t), 2048},
      {CL_DEVICE_IMAGE3D_MAX_DEPTH, "IMAGE3D_MAX_DEPTH", sizeof(size_t), 2048},
      {CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, "IMAGE_MAX_BUFFER_SIZE", sizeof(size_t), 65536},
      {CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, "IMAGE_MAX_ARRAY_SIZE", sizeof(size_t), 2048},
      {CL_DEVICE_MAX_SAMPLERS, "MAX_SAMPLERS", sizeof(cl_uint), 16},
  };
  for (const auto &limit : limits) {
    cl_ulong value = 0;
    ASSERT_EQ(clGetDeviceInfo(device, limit.param, limit.size, &value, nullptr), CL_SUCCESS);
    if (images) {
      EXPECT_GE(value, limit.minimum) << limit.name;
    } else {
      EXPECT_EQ(value, 0u) << limit.name;
    }
  }
  // Read-write images: 0 when unsupported, else at least 64; __opencl_c_read_write_images.
  cl_uint readWrite = info<cl_uint>(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS);
  EXPECT_TRUE(readWrite == 0 || (images && readWrite >= 64)) << readWrite;
  EXPECT_EQ(hasFeature("__opencl_c_read_write_images"), readWrite != 0);
  // cl_khr_3d_image_writes is reported "when and only when" 3D image writes are supported.
  EXPECT_EQ(hasExtension("cl_khr_3d_image_writes"), hasFeature("__opencl_c_3d_image_writes"));
  if (!images) {
    EXPECT_FALSE(hasFeature("__opencl_c_3d_image_writes"));
    EXPECT_FALSE(hasExtension("cl_khr_depth_images"));
  }
}

TEST_F(Device, Image2DFromBufferQueriesFollowExtension) {
  // Both alignments "must be 0 for devices that do not support 2D images
  // created from a buffer", otherwise a power of 2; cl_khr_image2d_from_buffer
  // is reported when and only when this is supported.
  bool supported = hasExtension("cl_khr_image2d_from_buffer");
  for (cl_device_info param :
       {CL_DEVICE_IMAGE_PITCH_ALIGNMENT, CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT}) {
    cl_uint value = info<cl_uint>(param);
    if (supported) {
      EXPECT_TRUE(isPowerOfTwo(value)) << "param 0x" << std::hex << param << " = " << value;
    } else {
      EXPECT_EQ(value, 0u) << "param 0x" << std::hex << param;
    }
  }
}

TEST_F(Device, AtomicCapabilitiesMeetMinimumsAndAreHierarchical) {
  const cl_device_atomic_capabilities relaxed = CL_DEVICE_ATOMIC_ORDER_RELAXED,
                                      acqRel = CL_DEVICE_ATOMIC_ORDER_ACQ_REL,
                                      seqCst = CL_DEVICE_ATOMIC_ORDER_SEQ_CST,
                                      group = CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP,
                                      dev = CL_DEVICE_ATOMIC_SCOPE_DEVICE,
                                      all = CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;
  auto memory = info<cl_device_atomic_capabilities>(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES);
  auto fence = info<cl_device_atomic_capabilities>(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES);
  EXPECT_EQ(memory & (relaxed | group), relaxed | group);
  EXPECT_EQ(fence & (relaxed | acqRel | group), relaxed | acqRel | group);
  // A stronger order implies the weaker ones; a wider scope the narrower ones
  // (work-item scope excepted).
  for (auto caps : {memory, fence}) {
    if (caps & seqCst) {
      EXPECT_TRUE(caps & acqRel);
    }
    if (caps & all) {
      EXPECT_TRUE(caps & dev);
    }
    if (caps & dev) {
      EXPECT_TRUE(caps & group);
    }
  }
}

TEST_F(Device, OpenCLCFeaturesMatchDeviceQueries) {
  auto memory = info<cl_device_atomic_capabilities>(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES);
  const std::pair<const char *, bool> features[] = {
      {"__opencl_c_generic_address_space",
       info<cl_bool>(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT) == CL_TRUE},
      {"__opencl_c_pipes", info<cl_bool>(CL_DEVICE_PIPE_SUPPORT) == CL_TRUE},
      {"__opencl_c_device_enqueue",
       (info<cl_device_device_enqueue_capabilities>(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES) &
        CL_DEVICE_QUEUE_SUPPORTED) != 0},
      {"__opencl_c_work_group_collective_functions",
       info<cl_bool>(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT) == CL_TRUE},
      {"__opencl_c_subgroups", info<cl_uint>(CL_DEVICE_MAX_NUM_SUB_GROUPS) > 0},
      {"__opencl_c_program_scope_global_variables",
       info<size_t>(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE) > 0},
      {"__opencl_c_atomic_order_acq_rel", (memory & CL_DEVICE_ATOMIC_ORDER_ACQ_REL) != 0},
      {"__opencl_c_atomic_order_seq_cst", (memory & CL_DEVICE_ATOMIC_ORDER_SEQ_CST) != 0},
      {"__opencl_c_atomic_scope_device", (memory & CL_DEVICE_ATOMIC_SCOPE_DEVICE) != 0},
      {"__opencl_c_atomic_scope_all_devices", (memory & CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES) != 0},
  };
  for (auto [feature, supported] : features)
    EXPECT_EQ(hasFeature(feature), supported) << feature;
}

TEST_F(Device, OpenCLCFeatureDependenciesHold) {
  // OpenCL C 3.0 table of optional features: "must also define ...".
  const std::pair<const char *, const char *> dependencies[] = {
      {"__opencl_c_device_enqueue", "__opencl_c_generic_address_space"},
      {"__opencl_c_device_enqueue", "__opencl_c_program_scope_global_variables"},
      {"__opencl_c_pipes", "__opencl_c_generic_address_space"},
      {"__opencl_c_3d_image_writes", "__opencl_c_images"},
      {"__opencl_c_read_write_images", "__opencl_c_images"},
  };
  for (auto [feature, required] : dependencies)
    if (hasFeature(feature)) {
      EXPECT_TRUE(hasFeature(required)) << feature << " requires " << required;
    }
}

TEST_F(Device, PipeQueriesFollowPipeSupport) {
  bool pipes = info<cl_bool>(CL_DEVICE_PIPE_SUPPORT) == CL_TRUE;
  cl_uint args = info<cl_uint>(CL_DEVICE_MAX_PIPE_ARGS);
  cl_uint reservations = info<cl_uint>(CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS);
  cl_uint packet = info<cl_uint>(CL_DEVICE_PIPE_MAX_PACKET_SIZE);
  if (pipes) {
    EXPECT_GE(args, 16u);
    EXPECT_GE(reservations, 1u);
    EXPECT_GE(packet, 1024u);
    EXPECT_EQ(info<cl_bool>(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT), CL_TRUE);
  } else {
    EXPECT_EQ(args, 0u);
    EXPECT_EQ(reservations, 0u);
    EXPECT_EQ(packet, 0u);
  }
}

TEST_F(Device, OnDeviceQueueQueriesFollowDeviceEnqueueCapabilities) {
  auto caps = info<cl_device_device_enqueue_capabilities>(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES);
  if (caps & CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT) {
    EXPECT_TRUE(caps & CL_DEVICE_QUEUE_SUPPORTED);
  }
  auto properties = info<cl_command_queue_properties>(CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES);
  cl_uint preferred = info<cl_uint>(CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE);
  cl_uint maxSize = info<cl_uint>(CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE);
  cl_uint queues = info<cl_uint>(CL_DEVICE_MAX_ON_DEVICE_QUEUES);
  cl_uint events = info<cl_uint>(CL_DEVICE_MAX_ON_DEVICE_EVENTS);
  if (caps & CL_DEVICE_QUEUE_SUPPORTED) {
    const auto minimum = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
    EXPECT_EQ(properties & minimum, minimum);
    EXPECT_GE(preferred, 16u * 1024);
    EXPECT_GE(maxSize, 256u * 1024);
    EXPECT_GE(queues, 1u);
    EXPECT_GE(events, 1024u);
    EXPECT_EQ(info<cl_bool>(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT), CL_TRUE);
  } else {
    // "Must be 0 for devices that do not support on-device queues."
    EXPECT_EQ(properties, 0u);
    EXPECT_EQ(preferred, 0u);
    EXPECT_EQ(maxSize, 0u);
    EXPECT_EQ(queues, 0u);
    EXPECT_EQ(events, 0u);
  }
}

TEST_F(Device, GlobalVariableQueriesFollowSupport) {
  size_t maxSize = info<size_t>(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE);
  size_t preferred = info<size_t>(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE);
  if (maxSize == 0) {
    EXPECT_EQ(preferred, 0u);
  } else {
    EXPECT_GE(maxSize, 64u * 1024);
  }
}

TEST_F(Device, SubGroupQueriesFollowSupport) {
  bool subgroups = info<cl_uint>(CL_DEVICE_MAX_NUM_SUB_GROUPS) > 0;
  cl_bool progress = info<cl_bool>(CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS);
  if (!subgroups) {
    EXPECT_EQ(progress, CL_FALSE);
    EXPECT_FALSE(hasExtension("cl_khr_subgroups"));
  }
  if (hasExtension("cl_khr_subgroups")) {
    EXPECT_EQ(progress, CL_TRUE);
  }
}

TEST_F(Device, RootDeviceHasNoParentAndReferenceCountOne) {
  EXPECT_EQ(info<cl_device_id>(CL_DEVICE_PARENT_DEVICE), nullptr);
  EXPECT_EQ(info<cl_uint>(CL_DEVICE_REFERENCE_COUNT), 1u);
  // Retaining and releasing a root device succeed and leave the count unchanged.
  EXPECT_EQ(clRetainDevice(device), CL_SUCCESS);
  EXPECT_EQ(info<cl_uint>(CL_DEVICE_REFERENCE_COUNT), 1u);
  EXPECT_EQ(clReleaseDevice(device), CL_SUCCESS);
  EXPECT_EQ(info<cl_uint>(CL_DEVICE_REFERENCE_COUNT), 1u);
  EXPECT_EQ(clRetainDevice(nullptr), CL_INVALID_DEVICE);
  EXPECT_EQ(clReleaseDevice(nullptr), CL_INVALID_DEVICE);
}

TEST_F(Device, RootDeviceHasNoPartitionType) {
  // Either size 0 or a single terminating 0.
  auto type = deviceArray<cl_device_partition_property>(device, CL_DEVICE_PARTITION_TYPE);
  EXPECT_TRUE(type.empty() || (type.size() == 1 && type[0] == 0)) << type.size() << " entries";
}

namespace {
// CL_DEVICE_PARTITION_PROPERTIES without a trailing 0 terminator.
std::vector<cl_device_partition_property> partitionSchemes(cl_device_id device) {
  auto schemes = deviceArray<cl_device_partition_property>(device, CL_DEVICE_PARTITION_PROPERTIES);
  std::erase(schemes, 0);
  return schemes;
}
bool supportsScheme(cl_device_id device, cl_device_partition_property scheme) {
  auto schemes = partitionSchemes(device);
  return std::find(schemes.begin(), schemes.end(), scheme) != schemes.end();
}
} // namespace

TEST_F(Device, PartitionQueriesAreConsistent) {
  cl_uint maxSubDevices = info<cl_uint>(CL_DEVICE_PARTITION_MAX_SUB_DEVICES);
  EXPECT_LE(maxSubDevices, info<cl_uint>(CL_DEVICE_MAX_COMPUTE_UNITS));
  auto raw = deviceArray<cl_device_partition_property>(device, CL_DEVICE_PARTITION_PROPERTIES);
  // 0 is only allowed as the value meaning "cannot be partitioned" or a terminator.
  for (size_t i = 0; i + 1 < raw.size(); ++i)
    EXPECT_NE(raw[i], 0);
  auto schemes = partitionSchemes(device);
  for (cl_device_partition_property scheme : schemes)
    EXPECT_TRUE(scheme == CL_DEVICE_PARTITION_EQUALLY || scheme == CL_DEVICE_PARTITION_BY_COUNTS ||
                scheme == CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN)
        << scheme;
  // A scheme is listed only if it returns at least two sub-devices.
  if (!schemes.empty()) {
    EXPECT_GE(maxSubDevices, 2u);
  }
  auto domains = info<cl_device_affinity_domain>(CL_DEVICE_PARTITION_AFFINITY_DOMAIN);
  EXPECT_EQ(domains != 0, supportsScheme(device, CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN));
}

TEST_F(Device, CreateSubDevicesRejectsInvalidProperties) {
  const cl_device_partition_property bogus[] = {0x7FFF, 1, 0};
  cl_uint count = 0;
  EXPECT_EQ(clCreateSubDevices(device, bogus, 0, nullptr, &count), CL_INVALID_VALUE);
  const cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  EXPECT_EQ(clCreateSubDevices(nullptr, equally, 0, nullptr, &count), CL_INVALID_DEVICE);
}

TEST_F(Device, CreateSubDevicesFailsWhenNotPartitionable) {
  if (!partitionSchemes(device).empty())
    GTEST_SKIP() << "device is partitionable";
  // EQUALLY is a valid scheme this device does not support (CL_INVALID_VALUE)
  // or cannot apply (CL_DEVICE_PARTITION_FAILED).
  const cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_device_id out[64];
  cl_uint count = 0;
  cl_int err = clCreateSubDevices(device, equally, 64, out, &count);
  EXPECT_TRUE(err == CL_INVALID_VALUE || err == CL_DEVICE_PARTITION_FAILED) << err;
}

TEST_F(Device, SubDevicesPartitionedEquallyReportTheirParent) {
  if (!supportsScheme(device, CL_DEVICE_PARTITION_EQUALLY))
    GTEST_SKIP() << "no CL_DEVICE_PARTITION_EQUALLY";
  cl_uint units = info<cl_uint>(CL_DEVICE_MAX_COMPUTE_UNITS);
  const cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_uint count = 0;
  ASSERT_EQ(clCreateSubDevices(device, equally, 0, nullptr, &count), CL_SUCCESS);
  EXPECT_EQ(count, std::min(units, info<cl_uint>(CL_DEVICE_PARTITION_MAX_SUB_DEVICES)));
  ASSERT_GE(count, 2u);
  std::vector<cl_device_id> subs(count);
  // Too small an out_devices array is CL_INVALID_VALUE.
  EXPECT_EQ(clCreateSubDevices(device, equally, count - 1, subs.data(), nullptr), CL_INVALID_VALUE);
  ASSERT_EQ(clCreateSubDevices(device, equally, count, subs.data(), nullptr), CL_SUCCESS);
  for (cl_device_id sub : subs) {
    ASSERT_NE(sub, nullptr);
    EXPECT_NE(sub, device);
    EXPECT_EQ(deviceInfo<cl_device_id>(sub, CL_DEVICE_PARENT_DEVICE), device);
    EXPECT_EQ(deviceInfo<cl_uint>(sub, CL_DEVICE_MAX_COMPUTE_UNITS), 1u);
    EXPECT_EQ(deviceInfo<cl_device_type>(sub, CL_DEVICE_TYPE), CL_DEVICE_TYPE_CPU);
    EXPECT_EQ(deviceInfo<cl_platform_id>(sub, CL_DEVICE_PLATFORM), testPlatform());
    auto type = deviceArray<cl_device_partition_property>(sub, CL_DEVICE_PARTITION_TYPE);
    EXPECT_EQ(type, (std::vector<cl_device_partition_property>(equally, equally + 3)));
    // Sub-devices are reference counted.
    EXPECT_EQ(deviceInfo<cl_uint>(sub, CL_DEVICE_REFERENCE_COUNT), 1u);
    EXPECT_EQ(clRetainDevice(sub), CL_SUCCESS);
    EXPECT_EQ(deviceInfo<cl_uint>(sub, CL_DEVICE_REFERENCE_COUNT), 2u);
    EXPECT_EQ(clReleaseDevice(sub), CL_SUCCESS);
    EXPECT_EQ(clReleaseDevice(sub), CL_SUCCESS);
  }
}

TEST_F(Device, PartitionByCountsRejectsTooManyComputeUnits) {
  if (!supportsScheme(device, CL_DEVICE_PARTITION_BY_COUNTS))
    GTEST_SKIP() << "no CL_DEVICE_PARTITION_BY_COUNTS";
  cl_uint units = info<cl_uint>(CL_DEVICE_MAX_COMPUTE_UNITS);
  const cl_device_partition_property counts[] = {CL_DEVICE_PARTITION_BY_COUNTS,
                                                 cl_device_partition_property(units), 1,
                                                 CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  cl_uint count = 0;
  EXPECT_EQ(clCreateSubDevices(device, counts, 0, nullptr, &count),
            CL_INVALID_DEVICE_PARTITION_COUNT);
}
