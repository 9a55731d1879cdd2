// SPDX-License-Identifier: Apache-2.0
// Contexts: clCreateContext, clCreateContextFromType, clRetainContext,
// clReleaseContext, clGetContextInfo and clSetContextDestructorCallback
// (OpenCL 3.0 API specification, section 4.4).
#include "common.h"

#include <chrono>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>

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

struct ContextRelease {
  void operator()(cl_context context) const { clReleaseContext(context); }
};
using ContextPtr = std::unique_ptr<std::remove_pointer_t<cl_context>, ContextRelease>;

template <typename T> T contextInfo(cl_context context, cl_context_info param) {
  T value{};
  EXPECT_EQ(clGetContextInfo(context, param, sizeof(T), &value, nullptr), CL_SUCCESS)
      << "param 0x" << std::hex << param;
  return value;
}

template <typename T> std::vector<T> contextArray(cl_context context, cl_context_info param) {
  size_t size = 0;
  EXPECT_EQ(clGetContextInfo(context, param, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size % sizeof(T), 0u);
  std::vector<T> values(size / sizeof(T));
  if (!values.empty()) {
    EXPECT_EQ(clGetContextInfo(context, param, size, values.data(), nullptr), CL_SUCCESS);
  }
  return values;
}

cl_context_properties asProperty(cl_platform_id platform) {
  return reinterpret_cast<cl_context_properties>(platform);
}

void CL_CALLBACK ignoreNotification(const char *, const void *, size_t, void *) {}

class Context : public ::testing::Test {
protected:
  void SetUp() override {
    platform = testPlatform();
    ASSERT_NE(platform, nullptr);
    device = testDevice();
    ASSERT_NE(device, nullptr);
  }

  // Creates a context on the test device; expects `expected` as the error.
  // Only a context returned with CL_SUCCESS is released: what a failing call
  // returns instead of NULL is not a valid object.
  ContextPtr create(const cl_context_properties *properties, cl_int expected = CL_SUCCESS) {
    cl_int err = 12345;
    cl_context context = clCreateContext(properties, 1, &device, nullptr, nullptr, &err);
    EXPECT_EQ(err, expected);
    if (expected != CL_SUCCESS) {
      EXPECT_EQ(context, nullptr);
    } else {
      EXPECT_NE(context, nullptr);
    }
    return ContextPtr(err == CL_SUCCESS ? context : nullptr);
  }

  ContextPtr fromType(const cl_context_properties *properties, cl_device_type type,
                      cl_int expected = CL_SUCCESS) {
    cl_int err = 12345;
    cl_context context = clCreateContextFromType(properties, type, nullptr, nullptr, &err);
    EXPECT_EQ(err, expected) << "device type 0x" << std::hex << type;
    if (expected != CL_SUCCESS) {
      EXPECT_EQ(context, nullptr);
    } else {
      EXPECT_NE(context, nullptr);
    }
    return ContextPtr(err == CL_SUCCESS ? context : nullptr);
  }

  void expectOnlyTheTestDevice(cl_context context) {
    EXPECT_EQ(contextInfo<cl_uint>(context, CL_CONTEXT_NUM_DEVICES), 1u);
    EXPECT_EQ(contextArray<cl_device_id>(context, CL_CONTEXT_DEVICES),
              std::vector<cl_device_id>{device});
  }

  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
};

} // namespace

TEST_F(Context, CreateWithNullPropertiesReportsNoProperties) {
  ContextPtr context = create(nullptr);
  ASSERT_TRUE(context);
  expectOnlyTheTestDevice(context.get());
  EXPECT_EQ(contextInfo<cl_uint>(context.get(), CL_CONTEXT_REFERENCE_COUNT), 1u);
  // NULL properties: "param_value_size_ret equal to 0".
  size_t size = 1;
  EXPECT_EQ(clGetContextInfo(context.get(), CL_CONTEXT_PROPERTIES, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size, 0u);
}

TEST_F(Context, CreateWithPropertiesReturnsThemAsGiven) {
  const cl_context_properties platformOnly[] = {CL_CONTEXT_PLATFORM, asProperty(platform), 0};
  const cl_context_properties withSync[] = {CL_CONTEXT_PLATFORM, asProperty(platform),
                                            CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, 0};
  const cl_context_properties syncFirst[] = {CL_CONTEXT_INTEROP_USER_SYNC, CL_FALSE,
                                             CL_CONTEXT_PLATFORM, asProperty(platform), 0};
  for (auto [properties, count] : {std::pair{platformOnly, 3}, {withSync, 5}, {syncFirst, 5}}) {
    ContextPtr context = create(properties);
    ASSERT_TRUE(context);
    expectOnlyTheTestDevice(context.get());
    // "the values specified in the properties argument in the same order and
    // without including additional properties".
    EXPECT_EQ(contextArray<cl_context_properties>(context.get(), CL_CONTEXT_PROPERTIES),
              std::vector<cl_context_properties>(properties, properties + count));
  }
}

TEST_F(Context, UnknownPropertyIsInvalidProperty) {
  const cl_context_properties alone[] = {0x7FFF, 1, 0};
  const cl_context_properties withPlatform[] = {CL_CONTEXT_PLATFORM, asProperty(platform), 0x7FFF,
                                                1, 0};
  create(alone, CL_INVALID_PROPERTY);
  create(withPlatform, CL_INVALID_PROPERTY);
}

TEST_F(Context, RepeatedPropertyIsInvalidProperty) {
  const cl_context_properties platformTwice[] = {CL_CONTEXT_PLATFORM, asProperty(platform),
                                                 CL_CONTEXT_PLATFORM, asProperty(platform), 0};
  const cl_context_properties syncTwice[] = {CL_CONTEXT_PLATFORM,
                                             asProperty(platform),
                                             CL_CONTEXT_INTEROP_USER_SYNC,
                                             CL_FALSE,
                                             CL_CONTEXT_INTEROP_USER_SYNC,
                                             CL_FALSE,
                                             0};
  create(platformTwice, CL_INVALID_PROPERTY);
  create(syncTwice, CL_INVALID_PROPERTY);
}

// CL_CONTEXT_INTEROP_USER_SYNC takes a cl_bool; another value is an
// invalid property value (clCreateContext: CL_INVALID_PROPERTY; the CTS's
// negative_create_context). PoCL 3.1 accepts any value.
TEST_F(Context, InteropUserSyncOtherThanABoolIsInvalidProperty) {
  const cl_context_properties notABool[] = {CL_CONTEXT_INTEROP_USER_SYNC, -1, 0};
  const cl_context_properties two[] = {CL_CONTEXT_INTEROP_USER_SYNC, 2, 0};
  const cl_context_properties yes[] = {CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, 0};
  create(notABool, CL_INVALID_PROPERTY);
  create(two, CL_INVALID_PROPERTY);
  create(yes, CL_SUCCESS);
  const cl_context_properties withPlatform[] = {CL_CONTEXT_PLATFORM, asProperty(platform),
                                                CL_CONTEXT_INTEROP_USER_SYNC, -1, 0};
  fromType(withPlatform, CL_DEVICE_TYPE_ALL, CL_INVALID_PROPERTY);
}

TEST_F(Context, MissingDevicesAreInvalidValue) {
  // With CL_CONTEXT_PLATFORM the loader hands the call to the platform.
  const cl_context_properties properties[] = {CL_CONTEXT_PLATFORM, asProperty(platform), 0};
  for (const cl_context_properties *props : {properties, (const cl_context_properties *)nullptr}) {
    cl_int err = CL_SUCCESS;
    EXPECT_EQ(clCreateContext(props, 0, &device, nullptr, nullptr, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_VALUE);
    err = CL_SUCCESS;
    EXPECT_EQ(clCreateContext(props, 1, nullptr, nullptr, nullptr, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_VALUE);
  }
}

TEST_F(Context, UserDataWithoutCallbackIsInvalidValue) {
  int data = 0;
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateContext(nullptr, 1, &device, nullptr, &data, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  // A callback with user data is fine.
  ContextPtr context(clCreateContext(nullptr, 1, &device, ignoreNotification, &data, &err));
  EXPECT_EQ(err, CL_SUCCESS);
  EXPECT_TRUE(context);
}

TEST_F(Context, InvalidDeviceIsInvalidDevice) {
  const cl_context_properties properties[] = {CL_CONTEXT_PLATFORM, asProperty(platform), 0};
  cl_int err = CL_SUCCESS;
  cl_device_id null = nullptr;
  EXPECT_EQ(clCreateContext(properties, 1, &null, nullptr, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_DEVICE);
  const cl_device_id second[] = {device, nullptr};
  err = CL_SUCCESS;
  EXPECT_EQ(clCreateContext(nullptr, 2, second, nullptr, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_DEVICE);
}

TEST_F(Context, OtherObjectIsInvalidDevice) {
  ContextPtr other = create(nullptr);
  ASSERT_TRUE(other);
  const cl_device_id devices[] = {device, reinterpret_cast<cl_device_id>(other.get())};
  auto create = [&] {
    cl_int err = CL_SUCCESS;
    return clCreateContext(nullptr, 2, devices, nullptr, nullptr, &err) ? CL_SUCCESS : err;
  };
  EXPECT_IN_CHILD(create(), CL_INVALID_DEVICE);
}

TEST_F(Context, DuplicateDevicesAreIgnored) {
  const cl_device_id devices[] = {device, device};
  cl_int err = CL_SUCCESS;
  ContextPtr context(clCreateContext(nullptr, 2, devices, nullptr, nullptr, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  expectOnlyTheTestDevice(context.get());
}

TEST_F(Context, ErrcodeRetMayBeNull) {
  ContextPtr context(clCreateContext(nullptr, 1, &device, nullptr, nullptr, nullptr));
  EXPECT_TRUE(context);
  EXPECT_EQ(clCreateContext(nullptr, 0, &device, nullptr, nullptr, nullptr), nullptr);
  ContextPtr typed(clCreateContextFromType(nullptr, CL_DEVICE_TYPE_ALL, nullptr, nullptr, nullptr));
  EXPECT_TRUE(typed);
}

TEST_F(Context, FromTypeCpuDefaultAndAllHoldTheDevice) {
  const cl_context_properties properties[] = {CL_CONTEXT_PLATFORM, asProperty(platform), 0};
  for (cl_device_type type : std::initializer_list<cl_device_type>{
           CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_DEFAULT, CL_DEVICE_TYPE_ALL}) {
    SCOPED_TRACE(type);
    ContextPtr context = fromType(properties, type);
    ASSERT_TRUE(context);
    expectOnlyTheTestDevice(context.get());
    EXPECT_EQ(contextArray<cl_context_properties>(context.get(), CL_CONTEXT_PROPERTIES),
              std::vector<cl_context_properties>(properties, properties + 3));
  }
}

TEST_F(Context, FromTypeWithNullPropertiesReportsNoProperties) {
  ContextPtr context = fromType(nullptr, CL_DEVICE_TYPE_CPU);
  ASSERT_TRUE(context);
  auto devices = contextArray<cl_device_id>(context.get(), CL_CONTEXT_DEVICES);
  ASSERT_FALSE(devices.empty());
  if (deviceInfo<cl_platform_id>(devices[0], CL_DEVICE_PLATFORM) != platform)
    GTEST_SKIP() << "the loader's default platform is another one";
  expectOnlyTheTestDevice(context.get());
  EXPECT_TRUE(contextArray<cl_context_properties>(context.get(), CL_CONTEXT_PROPERTIES).empty());
}

TEST_F(Context, FromTypeReportsMissingTypes) {
  const cl_context_properties properties[] = {CL_CONTEXT_PLATFORM, asProperty(platform), 0};
  for (cl_device_type type : std::initializer_list<cl_device_type>{
           CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_CUSTOM})
    fromType(properties, type, CL_DEVICE_NOT_FOUND);
}

TEST_F(Context, FromTypeRejectsInvalidArguments) {
  const cl_context_properties properties[] = {CL_CONTEXT_PLATFORM, asProperty(platform), 0};
  fromType(properties, cl_device_type{1} << 8, CL_INVALID_DEVICE_TYPE);
  const cl_context_properties unknown[] = {CL_CONTEXT_PLATFORM, asProperty(platform), 0x7FFF, 1, 0};
  fromType(unknown, CL_DEVICE_TYPE_CPU, CL_INVALID_PROPERTY);
  const cl_context_properties twice[] = {CL_CONTEXT_PLATFORM, asProperty(platform),
                                         CL_CONTEXT_PLATFORM, asProperty(platform), 0};
  fromType(twice, CL_DEVICE_TYPE_CPU, CL_INVALID_PROPERTY);
  int data = 0;
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateContextFromType(properties, CL_DEVICE_TYPE_CPU, nullptr, &data, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
}

TEST_F(Context, ReferenceCountTracksRetainAndRelease) {
  ContextPtr context = create(nullptr);
  ASSERT_TRUE(context);
  EXPECT_EQ(contextInfo<cl_uint>(context.get(), CL_CONTEXT_REFERENCE_COUNT), 1u);
  EXPECT_EQ(clRetainContext(context.get()), CL_SUCCESS);
  EXPECT_EQ(clRetainContext(context.get()), CL_SUCCESS);
  EXPECT_EQ(contextInfo<cl_uint>(context.get(), CL_CONTEXT_REFERENCE_COUNT), 3u);
  EXPECT_EQ(clReleaseContext(context.get()), CL_SUCCESS);
  EXPECT_EQ(contextInfo<cl_uint>(context.get(), CL_CONTEXT_REFERENCE_COUNT), 2u);
  EXPECT_EQ(clReleaseContext(context.get()), CL_SUCCESS);
  EXPECT_EQ(contextInfo<cl_uint>(context.get(), CL_CONTEXT_REFERENCE_COUNT), 1u);
}

TEST_F(Context, InfoQueriesHaveTheSpecifiedReturnType) {
  const cl_context_properties properties[] = {CL_CONTEXT_PLATFORM, asProperty(platform), 0};
  ContextPtr context = create(properties);
  ASSERT_TRUE(context);
  const struct {
    cl_context_info param;
    const char *name;
    size_t size;
  } params[] = {
      {CL_CONTEXT_REFERENCE_COUNT, "REFERENCE_COUNT", sizeof(cl_uint)},
      {CL_CONTEXT_NUM_DEVICES, "NUM_DEVICES", sizeof(cl_uint)},
      {CL_CONTEXT_DEVICES, "DEVICES", sizeof(cl_device_id)},
      {CL_CONTEXT_PROPERTIES, "PROPERTIES", sizeof(properties)},
  };
  for (const auto &p : params) {
    SCOPED_TRACE(p.name);
    size_t size = 0;
    ASSERT_EQ(clGetContextInfo(context.get(), p.param, 0, nullptr, &size), CL_SUCCESS);
    EXPECT_EQ(size, p.size);
    std::vector<unsigned char> value(size + 8);
    size_t again = 0;
    EXPECT_EQ(clGetContextInfo(context.get(), p.param, value.size(), value.data(), &again),
              CL_SUCCESS);
    EXPECT_EQ(again, size);
    EXPECT_EQ(clGetContextInfo(context.get(), p.param, size - 1, value.data(), nullptr),
              CL_INVALID_VALUE);
  }
  size_t size = 0;
  EXPECT_EQ(clGetContextInfo(context.get(), 0x7FFF, 0, nullptr, &size), CL_INVALID_VALUE);
}

TEST_F(Context, InvalidContextIsRejected) {
  cl_uint count = 0;
  EXPECT_EQ(clGetContextInfo(nullptr, CL_CONTEXT_NUM_DEVICES, sizeof(count), &count, nullptr),
            CL_INVALID_CONTEXT);
  EXPECT_EQ(clRetainContext(nullptr), CL_INVALID_CONTEXT);
  EXPECT_EQ(clReleaseContext(nullptr), CL_INVALID_CONTEXT);
  EXPECT_EQ(clSetContextDestructorCallback(
                nullptr, [](cl_context, void *) {}, nullptr),
            CL_INVALID_CONTEXT);
}

TEST_F(Context, OtherObjectIsInvalidContext) {
  cl_context notAContext = reinterpret_cast<cl_context>(device);
  cl_uint count = 0;
  EXPECT_IN_CHILD(
      clGetContextInfo(notAContext, CL_CONTEXT_NUM_DEVICES, sizeof(count), &count, nullptr),
      CL_INVALID_CONTEXT);
  EXPECT_IN_CHILD(clRetainContext(notAContext), CL_INVALID_CONTEXT);
}

namespace {
// Records destructor callbacks, which "may be called asynchronously".
struct DestructorLog {
  std::mutex mutex;
  std::vector<std::pair<int, cl_context>> calls;

  size_t size() {
    std::lock_guard lock(mutex);
    return calls.size();
  }
  bool waitFor(size_t count) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (size() < count && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return size() >= count;
  }
};

struct Tag {
  DestructorLog *log;
  int id;
};

void CL_CALLBACK recordDestruction(cl_context context, void *userData) {
  Tag *tag = static_cast<Tag *>(userData);
  std::lock_guard lock(tag->log->mutex);
  tag->log->calls.push_back({tag->id, context});
}
} // namespace

TEST_F(Context, DestructorCallbacksRunInReverseOrderOnLastRelease) {
  DestructorLog log;
  Tag tags[] = {{&log, 1}, {&log, 2}, {&log, 3}};
  cl_int err = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  for (Tag &tag : tags)
    ASSERT_EQ(clSetContextDestructorCallback(context, recordDestruction, &tag), CL_SUCCESS);
  ASSERT_EQ(clRetainContext(context), CL_SUCCESS);
  ASSERT_EQ(clReleaseContext(context), CL_SUCCESS);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(log.size(), 0u) << "called before the last release";
  ASSERT_EQ(clReleaseContext(context), CL_SUCCESS);
  ASSERT_TRUE(log.waitFor(3)) << "destructor callbacks not called";
  std::lock_guard lock(log.mutex);
  ASSERT_EQ(log.calls.size(), 3u);
  EXPECT_EQ(log.calls[0].first, 3);
  EXPECT_EQ(log.calls[1].first, 2);
  EXPECT_EQ(log.calls[2].first, 1);
  for (auto [id, reported] : log.calls)
    EXPECT_EQ(reported, context) << "callback " << id;
}

TEST_F(Context, DestructorCallbackWaitsForAttachedQueue) {
  // The context is deleted only once its reference count is zero "and all the
  // objects attached to context (such as memory objects, command-queues) are
  // released".
  DestructorLog log;
  Tag tag{&log, 1};
  cl_int err = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  ASSERT_EQ(clSetContextDestructorCallback(context, recordDestruction, &tag), CL_SUCCESS);
  ASSERT_EQ(clReleaseContext(context), CL_SUCCESS);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(log.size(), 0u) << "context destroyed while a queue still uses it";
  EXPECT_EQ(clFinish(queue), CL_SUCCESS);
  ASSERT_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
  EXPECT_TRUE(log.waitFor(1)) << "destructor callback not called";
}

TEST_F(Context, NullDestructorCallbackIsInvalidValue) {
  ContextPtr context = create(nullptr);
  ASSERT_TRUE(context);
  int data = 0;
  EXPECT_EQ(clSetContextDestructorCallback(context.get(), nullptr, &data), CL_INVALID_VALUE);
}

// A queue keeps its context alive after the application released it, and the
// application may take it back through CL_QUEUE_CONTEXT and retain it
// (PyOpenCL does so for every queue.context; PoCL allows it).
TEST(ContextLife, ContextOfALiveQueueCanBeRetainedAgain) {
  cl_device_id device = testDevice();
  cl_int error = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  ASSERT_EQ(clReleaseContext(context), CL_SUCCESS);

  cl_context again = nullptr;
  ASSERT_EQ(clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof again, &again, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(again, context);
  ASSERT_EQ(clRetainContext(again), CL_SUCCESS);
  const int value = 42;
  cl_mem buffer = clCreateBuffer(again, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof value,
                                 const_cast<int *>(&value), &error);
  ASSERT_EQ(error, CL_SUCCESS);
  int read = 0;
  EXPECT_EQ(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, sizeof read, &read, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(read, value);
  EXPECT_EQ(clReleaseMemObject(buffer), CL_SUCCESS);
  EXPECT_EQ(clReleaseContext(again), CL_SUCCESS);
  EXPECT_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
}
