// SPDX-License-Identifier: Apache-2.0
// Command-queues: clCreateCommandQueueWithProperties, clCreateCommandQueue,
// clRetain/ReleaseCommandQueue, clGetCommandQueueInfo, clSetCommandQueueProperty,
// clFlush and clFinish (OpenCL 3.0 API specification, section 5.1), and
// several host threads using the platform at once.
#include "common.h"

#include <atomic>
#include <cstdlib>
#include <memory>
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

struct QueueRelease {
  void operator()(cl_command_queue queue) const { clReleaseCommandQueue(queue); }
};
using QueuePtr = std::unique_ptr<std::remove_pointer_t<cl_command_queue>, QueueRelease>;

template <typename T> T queueInfo(cl_command_queue queue, cl_command_queue_info param) {
  T value{};
  EXPECT_EQ(clGetCommandQueueInfo(queue, param, sizeof(T), &value, nullptr), CL_SUCCESS)
      << "param 0x" << std::hex << param;
  return value;
}

std::vector<cl_queue_properties> propertiesArray(cl_command_queue queue) {
  size_t size = 0;
  EXPECT_EQ(clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES_ARRAY, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size % sizeof(cl_queue_properties), 0u);
  std::vector<cl_queue_properties> values(size / sizeof(cl_queue_properties));
  if (!values.empty()) {
    EXPECT_EQ(clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES_ARRAY, size, values.data(), nullptr),
              CL_SUCCESS);
  }
  return values;
}

class Queue : public ContextTest {
protected:
  // Creates a queue on the fixture's context; expects `expected` as the error.
  // Only a queue returned with CL_SUCCESS is released.
  QueuePtr create(const cl_queue_properties *properties, cl_int expected = CL_SUCCESS,
                  cl_device_id on = nullptr) {
    cl_int err = 12345;
    cl_command_queue created =
        clCreateCommandQueueWithProperties(context, on ? on : device, properties, &err);
    EXPECT_EQ(err, expected);
    if (expected == CL_SUCCESS) {
      EXPECT_NE(created, nullptr);
    } else {
      EXPECT_EQ(created, nullptr);
    }
    return QueuePtr(err == CL_SUCCESS ? created : nullptr);
  }

  cl_command_queue_properties hostProperties() {
    return deviceInfo<cl_command_queue_properties>(device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES);
  }
  bool deviceEnqueue() {
    return deviceInfo<cl_device_device_enqueue_capabilities>(
               device, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES) != 0;
  }
};

} // namespace

TEST_F(Queue, DefaultQueueReportsItsCreation) {
  // The fixture's queue was created with NULL properties.
  EXPECT_EQ(queueInfo<cl_context>(queue, CL_QUEUE_CONTEXT), context);
  EXPECT_EQ(queueInfo<cl_device_id>(queue, CL_QUEUE_DEVICE), device);
  EXPECT_EQ(queueInfo<cl_uint>(queue, CL_QUEUE_REFERENCE_COUNT), 1u);
  EXPECT_EQ(queueInfo<cl_command_queue_properties>(queue, CL_QUEUE_PROPERTIES), 0u);
  // NULL properties: "param_value_size_ret equal to 0".
  EXPECT_TRUE(propertiesArray(queue).empty());
}

TEST_F(Queue, InfoQueriesHaveTheSpecifiedReturnType) {
  const cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  QueuePtr profiling = create(properties);
  ASSERT_TRUE(profiling);
  const struct {
    cl_command_queue_info param;
    const char *name;
    size_t size;
  } params[] = {
      {CL_QUEUE_CONTEXT, "CONTEXT", sizeof(cl_context)},
      {CL_QUEUE_DEVICE, "DEVICE", sizeof(cl_device_id)},
      {CL_QUEUE_REFERENCE_COUNT, "REFERENCE_COUNT", sizeof(cl_uint)},
      {CL_QUEUE_PROPERTIES, "PROPERTIES", sizeof(cl_command_queue_properties)},
      {CL_QUEUE_PROPERTIES_ARRAY, "PROPERTIES_ARRAY", sizeof(properties)},
      {CL_QUEUE_DEVICE_DEFAULT, "DEVICE_DEFAULT", sizeof(cl_command_queue)},
  };
  for (const auto &p : params) {
    SCOPED_TRACE(p.name);
    size_t size = 0;
    ASSERT_EQ(clGetCommandQueueInfo(profiling.get(), p.param, 0, nullptr, &size), CL_SUCCESS);
    EXPECT_EQ(size, p.size);
    std::vector<unsigned char> value(size + 8);
    size_t again = 0;
    EXPECT_EQ(clGetCommandQueueInfo(profiling.get(), p.param, value.size(), value.data(), &again),
              CL_SUCCESS);
    EXPECT_EQ(again, size);
    EXPECT_EQ(clGetCommandQueueInfo(profiling.get(), p.param, size - 1, value.data(), nullptr),
              CL_INVALID_VALUE);
  }
  size_t size = 0;
  EXPECT_EQ(clGetCommandQueueInfo(queue, 0x7FFF, 0, nullptr, &size), CL_INVALID_VALUE);
}

TEST_F(Queue, HostQueueHasNoSizeAndNoDefaultDeviceQueue) {
  if (deviceEnqueue())
    GTEST_SKIP() << "device supports on-device queues";
  // Appendix H: CL_QUEUE_SIZE "Returns CL_INVALID_COMMAND_QUEUE since
  // command_queue cannot be a valid device command-queue"; CL_QUEUE_DEVICE_DEFAULT
  // "Returns NULL if the device ... does not support on-device queues".
  cl_uint size = 0;
  EXPECT_EQ(clGetCommandQueueInfo(queue, CL_QUEUE_SIZE, sizeof(size), &size, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  cl_command_queue defaultQueue = queue;
  EXPECT_EQ(clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE_DEFAULT, sizeof(defaultQueue),
                                  &defaultQueue, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(defaultQueue, nullptr);
}

TEST_F(Queue, ProfilingQueueReturnsItsProperties) {
  const cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  QueuePtr profiling = create(properties);
  ASSERT_TRUE(profiling);
  EXPECT_EQ(queueInfo<cl_command_queue_properties>(profiling.get(), CL_QUEUE_PROPERTIES),
            cl_command_queue_properties{CL_QUEUE_PROFILING_ENABLE});
  // "the values specified in the properties argument in the same order and
  // without including additional properties".
  EXPECT_EQ(propertiesArray(profiling.get()),
            std::vector<cl_queue_properties>(properties, properties + 3));
}

TEST_F(Queue, EmptyPropertyListIsAnInOrderQueue) {
  const cl_queue_properties properties[] = {0};
  QueuePtr empty = create(properties);
  ASSERT_TRUE(empty);
  EXPECT_EQ(queueInfo<cl_command_queue_properties>(empty.get(), CL_QUEUE_PROPERTIES), 0u);
  EXPECT_EQ(propertiesArray(empty.get()), std::vector<cl_queue_properties>{0});
}

TEST_F(Queue, OutOfOrderQueueFollowsDeviceSupport) {
  const cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES,
                                            CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  if (hostProperties() & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) {
    QueuePtr ooo = create(properties);
    ASSERT_TRUE(ooo);
    EXPECT_EQ(queueInfo<cl_command_queue_properties>(ooo.get(), CL_QUEUE_PROPERTIES),
              cl_command_queue_properties{CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE});
    EXPECT_EQ(clFinish(ooo.get()), CL_SUCCESS);
  } else {
    // Valid, but not supported by the device.
    create(properties, CL_INVALID_QUEUE_PROPERTIES);
  }
}

TEST_F(Queue, OnDeviceQueueNeedsDeviceEnqueue) {
  if (deviceEnqueue())
    GTEST_SKIP() << "device supports on-device queues";
  auto createWith = [&](const cl_queue_properties *properties) {
    cl_int err = CL_SUCCESS;
    return clCreateCommandQueueWithProperties(context, device, properties, &err) ? CL_SUCCESS : err;
  };
  const cl_queue_properties properties[] = {
      CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  EXPECT_IN_CHILD(createWith(properties), CL_INVALID_QUEUE_PROPERTIES);
  const cl_queue_properties withDefault[] = {
      CL_QUEUE_PROPERTIES,
      CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  EXPECT_IN_CHILD(createWith(withDefault), CL_INVALID_QUEUE_PROPERTIES);
}

TEST_F(Queue, InvalidPropertiesAreInvalidValue) {
  const cl_queue_properties unknownName[] = {0x7FFF, 1, 0};
  const cl_queue_properties unknownBit[] = {CL_QUEUE_PROPERTIES, cl_queue_properties{1} << 20, 0};
  // CL_QUEUE_ON_DEVICE requires CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
  // CL_QUEUE_ON_DEVICE_DEFAULT and CL_QUEUE_SIZE require CL_QUEUE_ON_DEVICE.
  const cl_queue_properties onDeviceInOrder[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE, 0};
  const cl_queue_properties defaultOnHost[] = {
      CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE_DEFAULT | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  const cl_queue_properties sizeOnHost[] = {CL_QUEUE_SIZE, 1024, 0};
  for (const cl_queue_properties *properties :
       {unknownName, unknownBit, onDeviceInOrder, defaultOnHost, sizeOnHost}) {
    SCOPED_TRACE(properties[0]);
    auto createWith = [&] {
      cl_int err = CL_SUCCESS;
      return clCreateCommandQueueWithProperties(context, device, properties, &err) ? CL_SUCCESS
                                                                                   : err;
    };
    EXPECT_IN_CHILD(createWith(), CL_INVALID_VALUE);
  }
}

TEST_F(Queue, DeviceMustBeValidAndInTheContext) {
  auto createOn = [&](cl_device_id on) {
    cl_int err = CL_SUCCESS;
    return clCreateCommandQueueWithProperties(context, on, nullptr, &err) ? CL_SUCCESS : err;
  };
  EXPECT_IN_CHILD(createOn(reinterpret_cast<cl_device_id>(context)), CL_INVALID_DEVICE);
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateCommandQueueWithProperties(context, nullptr, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_DEVICE);
}

TEST_F(Queue, SubDeviceOutsideTheContextIsInvalidDevice) {
  const cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_uint count = 0;
  if (clCreateSubDevices(device, equally, 0, nullptr, &count) != CL_SUCCESS || count == 0)
    GTEST_SKIP() << "device cannot be partitioned equally";
  std::vector<cl_device_id> subs(count);
  ASSERT_EQ(clCreateSubDevices(device, equally, count, subs.data(), nullptr), CL_SUCCESS);
  create(nullptr, CL_INVALID_DEVICE, subs[0]);
  for (cl_device_id sub : subs)
    clReleaseDevice(sub);
}

TEST_F(Queue, InvalidContextIsInvalidContext) {
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateCommandQueueWithProperties(nullptr, device, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  // With another kind of object as the context, `device` is not associated
  // with it either, and the order of precedence of errors is unspecified: both
  // CL_INVALID_CONTEXT and CL_INVALID_DEVICE are correct.
  auto createIn = [&](cl_context in) {
    cl_int e = CL_SUCCESS;
    if (clCreateCommandQueueWithProperties(in, device, nullptr, &e))
      return CL_SUCCESS;
    return e == CL_INVALID_DEVICE ? CL_INVALID_CONTEXT : e;
  };
  EXPECT_IN_CHILD(createIn(reinterpret_cast<cl_context>(queue)), CL_INVALID_CONTEXT);
  err = CL_SUCCESS;
  EXPECT_EQ(clCreateCommandQueue(nullptr, device, 0, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
}

TEST_F(Queue, ErrcodeRetMayBeNull) {
  QueuePtr created(clCreateCommandQueueWithProperties(context, device, nullptr, nullptr));
  EXPECT_TRUE(created);
  const cl_queue_properties bad[] = {0x7FFF, 1, 0};
  EXPECT_EQ(clCreateCommandQueueWithProperties(context, device, bad, nullptr), nullptr);
}

TEST_F(Queue, DeprecatedCreateCommandQueue) {
  cl_int err = 12345;
  QueuePtr plain(clCreateCommandQueue(context, device, 0, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  ASSERT_TRUE(plain);
  EXPECT_EQ(queueInfo<cl_device_id>(plain.get(), CL_QUEUE_DEVICE), device);
  EXPECT_EQ(queueInfo<cl_command_queue_properties>(plain.get(), CL_QUEUE_PROPERTIES), 0u);
  // Created with clCreateCommandQueue: no properties array.
  EXPECT_TRUE(propertiesArray(plain.get()).empty());

  QueuePtr profiling(clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(queueInfo<cl_command_queue_properties>(profiling.get(), CL_QUEUE_PROPERTIES),
            cl_command_queue_properties{CL_QUEUE_PROFILING_ENABLE});
  EXPECT_TRUE(propertiesArray(profiling.get()).empty());

  err = CL_SUCCESS;
  EXPECT_EQ(clCreateCommandQueue(context, device, cl_command_queue_properties{1} << 20, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  err = CL_SUCCESS;
  EXPECT_EQ(clCreateCommandQueue(context, nullptr, 0, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_DEVICE);

  bool ooo = hostProperties() & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
  err = 12345;
  QueuePtr outOfOrder(
      clCreateCommandQueue(context, device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err));
  EXPECT_EQ(err, ooo ? CL_SUCCESS : CL_INVALID_QUEUE_PROPERTIES);
}

TEST_F(Queue, ReferenceCountTracksRetainAndRelease) {
  EXPECT_EQ(clRetainCommandQueue(queue), CL_SUCCESS);
  EXPECT_EQ(queueInfo<cl_uint>(queue, CL_QUEUE_REFERENCE_COUNT), 2u);
  EXPECT_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
  EXPECT_EQ(queueInfo<cl_uint>(queue, CL_QUEUE_REFERENCE_COUNT), 1u);
  EXPECT_EQ(clRetainCommandQueue(nullptr), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clReleaseCommandQueue(nullptr), CL_INVALID_COMMAND_QUEUE);
}

TEST_F(Queue, FlushAndFinishOnEmptyQueueSucceed) {
  EXPECT_EQ(clFlush(queue), CL_SUCCESS);
  EXPECT_EQ(clFinish(queue), CL_SUCCESS);
  EXPECT_EQ(clFinish(queue), CL_SUCCESS);
  EXPECT_EQ(clFlush(nullptr), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clFinish(nullptr), CL_INVALID_COMMAND_QUEUE);
}

TEST_F(Queue, OtherObjectIsInvalidCommandQueue) {
  cl_command_queue notAQueue = reinterpret_cast<cl_command_queue>(context);
  cl_uint count = 0;
  EXPECT_IN_CHILD(
      clGetCommandQueueInfo(notAQueue, CL_QUEUE_REFERENCE_COUNT, sizeof(count), &count, nullptr),
      CL_INVALID_COMMAND_QUEUE);
  EXPECT_IN_CHILD(clFinish(notAQueue), CL_INVALID_COMMAND_QUEUE);
}

TEST_F(Queue, SetCommandQueuePropertyIsUnsupportedOrApplied) {
  // Modifying queue properties is required only of OpenCL 1.0 devices; others
  // may return CL_INVALID_OPERATION unconditionally. The deprecated entry point
  // must still exist (a loader calls through the platform's dispatch table).
  auto set = [&] {
    cl_command_queue_properties old = 12345;
    cl_int err = clSetCommandQueueProperty(queue, CL_QUEUE_PROFILING_ENABLE, CL_TRUE, &old);
    if (err == CL_INVALID_OPERATION)
      return CL_SUCCESS;
    if (err != CL_SUCCESS)
      return err;
    cl_command_queue_properties now = 0;
    clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof(now), &now, nullptr);
    return old == 0 && now == CL_QUEUE_PROFILING_ENABLE ? CL_SUCCESS : CL_INVALID_VALUE;
  };
  EXPECT_IN_CHILD(set(), CL_SUCCESS);
}

TEST_F(Queue, QueueKeepsItsContextAlive) {
  cl_int err = CL_SUCCESS;
  cl_context own = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_command_queue q = clCreateCommandQueueWithProperties(own, device, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  ASSERT_EQ(clReleaseContext(own), CL_SUCCESS);
  // The context is deleted only once "all the objects attached to context
  // (such as memory objects, command-queues) are released": the context the
  // queue reports is still a valid context.
  cl_context reported = queueInfo<cl_context>(q, CL_QUEUE_CONTEXT);
  EXPECT_EQ(reported, own);
  cl_uint devices = 0;
  EXPECT_EQ(clGetContextInfo(reported, CL_CONTEXT_NUM_DEVICES, sizeof(devices), &devices, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(devices, 1u);
  EXPECT_EQ(clFlush(q), CL_SUCCESS);
  EXPECT_EQ(clFinish(q), CL_SUCCESS);
  EXPECT_EQ(clReleaseCommandQueue(q), CL_SUCCESS);
}

TEST(Concurrency, ThreadsCreateQueryAndReleaseObjects) {
  cl_device_id device = testDevice();
  ASSERT_NE(device, nullptr);
  cl_int err = CL_SUCCESS;
  cl_context shared = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);

  constexpr int threads = 8, iterations = 40;
  std::atomic<int> failures{0};
  auto check = [&](bool ok) {
    if (!ok)
      failures.fetch_add(1);
  };
  auto work = [&](int index) {
    for (int i = 0; i < iterations; ++i) {
      cl_int e = CL_SUCCESS;
      // A context and queue of this thread's own.
      cl_context own = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &e);
      check(e == CL_SUCCESS && own);
      const cl_queue_properties props[] = {
          CL_QUEUE_PROPERTIES, (index % 2) ? cl_queue_properties{CL_QUEUE_PROFILING_ENABLE} : 0, 0};
      cl_command_queue q = clCreateCommandQueueWithProperties(own, device, props, &e);
      check(e == CL_SUCCESS && q);
      cl_uint count = 0;
      check(clGetContextInfo(own, CL_CONTEXT_NUM_DEVICES, sizeof(count), &count, nullptr) ==
                CL_SUCCESS &&
            count == 1);
      cl_device_id queued = nullptr;
      check(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof(queued), &queued, nullptr) ==
                CL_SUCCESS &&
            queued == device);
      check(clFinish(q) == CL_SUCCESS);
      check(clReleaseCommandQueue(q) == CL_SUCCESS);
      check(clReleaseContext(own) == CL_SUCCESS);

      // Queues on, and references to, a context shared by all threads.
      check(clRetainContext(shared) == CL_SUCCESS);
      cl_command_queue sq = clCreateCommandQueueWithProperties(shared, device, nullptr, &e);
      check(e == CL_SUCCESS && sq);
      cl_device_type type = 0;
      check(clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof(type), &type, nullptr) == CL_SUCCESS &&
            type == CL_DEVICE_TYPE_CPU);
      check(clFlush(sq) == CL_SUCCESS);
      check(clReleaseCommandQueue(sq) == CL_SUCCESS);
      check(clReleaseContext(shared) == CL_SUCCESS);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back(work, t);
  for (std::thread &t : pool)
    t.join();
  EXPECT_EQ(failures.load(), 0);
  cl_uint refs = 0;
  EXPECT_EQ(clGetContextInfo(shared, CL_CONTEXT_REFERENCE_COUNT, sizeof(refs), &refs, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(refs, 1u);
  EXPECT_EQ(clReleaseContext(shared), CL_SUCCESS);
}
