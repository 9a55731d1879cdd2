// SPDX-License-Identifier: Apache-2.0
// Concurrent use from several host threads. OpenCL API calls are thread-safe
// (OpenCL 3.0 API spec, appendix "Shared Objects / Multiple Host Threads"),
// except clSetKernelArg and friends, which these tests do not use.
#include "common.h"

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace lanewise::test {
namespace {

using Bytes = std::vector<std::uint8_t>;
using namespace std::chrono_literals;

constexpr int kThreads = 4;
constexpr int kRounds = 25;
constexpr size_t kSize = 4096;

Bytes pattern(size_t size, unsigned seed) {
  Bytes bytes(size);
  for (size_t i = 0; i < size; ++i)
    bytes[i] = static_cast<std::uint8_t>(i * 11 + seed * 97 + 13);
  return bytes;
}

// Runs body(t) on kThreads threads that start together.
template <typename Body> void runThreads(Body body) {
  std::barrier start(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      start.arrive_and_wait();
      body(t);
    });
  for (auto &thread : threads)
    thread.join();
}

class Threads : public ContextTest {
protected:
  cl_mem buffer(size_t size) {
    cl_int err = CL_INVALID_VALUE;
    cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE, size, nullptr, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    return mem;
  }
};

// Failures inside worker threads are counted and reported from the main
// thread, where gtest assertions belong.
struct Failures {
  std::atomic<int> count{0};
  void check(bool ok) {
    if (!ok)
      ++count;
  }
};

TEST_F(Threads, OwnQueuePerThreadOnSharedContext) {
  Failures failures;
  runThreads([&](int t) {
    cl_int err = CL_INVALID_VALUE;
    cl_command_queue q = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
    failures.check(err == CL_SUCCESS);
    cl_mem a = buffer(kSize), b = buffer(kSize);
    for (int round = 0; round < kRounds; ++round) {
      const Bytes data = pattern(kSize, t * 1000 + round);
      Bytes out(kSize, 0);
      failures.check(clEnqueueWriteBuffer(q, a, CL_FALSE, 0, kSize, data.data(), 0, nullptr,
                                          nullptr) == CL_SUCCESS);
      failures.check(clEnqueueCopyBuffer(q, a, b, 0, 0, kSize, 0, nullptr, nullptr) == CL_SUCCESS);
      failures.check(clEnqueueReadBuffer(q, b, CL_TRUE, 0, kSize, out.data(), 0, nullptr,
                                         nullptr) == CL_SUCCESS);
      failures.check(out == data);
    }
    failures.check(clFinish(q) == CL_SUCCESS);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseCommandQueue(q);
  });
  EXPECT_EQ(failures.count, 0);
}

TEST_F(Threads, SharedQueueWithPerThreadBuffers) {
  Failures failures;
  runThreads([&](int t) {
    cl_mem mem = buffer(kSize);
    for (int round = 0; round < kRounds; ++round) {
      const Bytes data = pattern(kSize, t * 1000 + round);
      Bytes out(kSize, 0);
      failures.check(clEnqueueWriteBuffer(queue, mem, CL_TRUE, 0, kSize, data.data(), 0, nullptr,
                                          nullptr) == CL_SUCCESS);
      const cl_uint fill = 0x01010101u * static_cast<cl_uint>(t + 1);
      failures.check(clEnqueueFillBuffer(queue, mem, &fill, sizeof(fill), 0, 64, 0, nullptr,
                                         nullptr) == CL_SUCCESS);
      failures.check(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, kSize, out.data(), 0, nullptr,
                                         nullptr) == CL_SUCCESS);
      Bytes expected = data;
      std::fill(expected.begin(), expected.begin() + 64, static_cast<std::uint8_t>(t + 1));
      failures.check(out == expected);
    }
    clReleaseMemObject(mem);
  });
  EXPECT_EQ(failures.count, 0);
}

TEST_F(Threads, SharedQueueNonBlockingWithEvents) {
  Failures failures;
  runThreads([&](int t) {
    cl_mem mem = buffer(kSize);
    for (int round = 0; round < kRounds; ++round) {
      const Bytes data = pattern(kSize, t * 77 + round);
      Bytes out(kSize, 0);
      cl_event write = nullptr, read = nullptr;
      failures.check(clEnqueueWriteBuffer(queue, mem, CL_FALSE, 0, kSize, data.data(), 0, nullptr,
                                          &write) == CL_SUCCESS);
      failures.check(clEnqueueReadBuffer(queue, mem, CL_FALSE, 0, kSize, out.data(), 1, &write,
                                         &read) == CL_SUCCESS);
      failures.check(clWaitForEvents(1, &read) == CL_SUCCESS);
      failures.check(out == data);
      clReleaseEvent(write);
      clReleaseEvent(read);
    }
    clReleaseMemObject(mem);
  });
  EXPECT_EQ(failures.count, 0);
}

TEST_F(Threads, ConcurrentRetainReleaseKeepsCountAndDestroysOnce) {
  cl_mem mem = buffer(kSize);
  std::atomic<int> destroyed{0};
  ASSERT_EQ(
      clSetMemObjectDestructorCallback(
          mem, [](cl_mem, void *user) { ++*static_cast<std::atomic<int> *>(user); }, &destroyed),
      CL_SUCCESS);
  constexpr int kPerThread = 2000;
  Failures failures;
  runThreads([&](int) {
    for (int i = 0; i < kPerThread; ++i)
      failures.check(clRetainMemObject(mem) == CL_SUCCESS);
    for (int i = 0; i < kPerThread; ++i)
      failures.check(clReleaseMemObject(mem) == CL_SUCCESS);
  });
  EXPECT_EQ(failures.count, 0);
  cl_uint count = 0;
  EXPECT_EQ(clGetMemObjectInfo(mem, CL_MEM_REFERENCE_COUNT, sizeof(count), &count, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(count, 1u);
  EXPECT_EQ(destroyed, 0);
  ASSERT_EQ(clReleaseMemObject(mem), CL_SUCCESS);
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (destroyed == 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(1ms);
  std::this_thread::sleep_for(5ms);
  EXPECT_EQ(destroyed, 1);
}

TEST_F(Threads, ConcurrentSubBuffersOfOneParent) {
  // Each thread works on its own, disjoint sub-buffer of one parent.
  const size_t align = deviceInfo<cl_uint>(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;
  const size_t slice = ((kSize + align - 1) / align) * align;
  cl_mem parent = buffer(kThreads * slice);
  Failures failures;
  runThreads([&](int t) {
    cl_buffer_region region{t * slice, slice};
    cl_int err = CL_INVALID_VALUE;
    cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    failures.check(err == CL_SUCCESS);
    const Bytes data = pattern(slice, 500 + t);
    failures.check(clEnqueueWriteBuffer(queue, sub, CL_TRUE, 0, slice, data.data(), 0, nullptr,
                                        nullptr) == CL_SUCCESS);
    clReleaseMemObject(sub);
  });
  EXPECT_EQ(failures.count, 0);
  Bytes out(kThreads * slice);
  ASSERT_EQ(
      clEnqueueReadBuffer(queue, parent, CL_TRUE, 0, out.size(), out.data(), 0, nullptr, nullptr),
      CL_SUCCESS);
  for (int t = 0; t < kThreads; ++t)
    EXPECT_EQ(Bytes(out.begin() + t * slice, out.begin() + (t + 1) * slice),
              pattern(slice, 500 + t))
        << "thread " << t;
  clReleaseMemObject(parent);
}

TEST_F(Threads, ManyThreadsWaitOnOneUserEvent) {
  cl_int err = CL_INVALID_VALUE;
  cl_event gate = clCreateUserEvent(context, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  std::atomic<int> returned{0};
  Failures failures;
  std::vector<std::thread> waiters;
  for (int t = 0; t < kThreads; ++t)
    waiters.emplace_back([&] {
      failures.check(clWaitForEvents(1, &gate) == CL_SUCCESS);
      ++returned;
    });
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(returned, 0) << "clWaitForEvents returned before the event completed";
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  for (auto &waiter : waiters)
    waiter.join();
  EXPECT_EQ(returned, kThreads);
  EXPECT_EQ(failures.count, 0);
  clReleaseEvent(gate);
}

TEST_F(Threads, ConcurrentObjectCreationAndQueries) {
  Failures failures;
  runThreads([&](int t) {
    for (int i = 0; i < 50; ++i) {
      const size_t size = 64 + 64 * t + i;
      cl_int err = CL_INVALID_VALUE;
      cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE, size, nullptr, &err);
      failures.check(err == CL_SUCCESS);
      size_t got = 0;
      failures.check(clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof(got), &got, nullptr) ==
                     CL_SUCCESS);
      failures.check(got == size);
      cl_event user = clCreateUserEvent(context, &err);
      failures.check(err == CL_SUCCESS);
      failures.check(clSetUserEventStatus(user, CL_COMPLETE) == CL_SUCCESS);
      clReleaseEvent(user);
      clReleaseMemObject(mem);
    }
  });
  EXPECT_EQ(failures.count, 0);
}

// A command terminated by a user event set to a negative status, and the
// barrier behind it, must not terminate the commands other threads enqueue
// on the same queue afterwards: the barrier orders them, it does not hand
// its status on. (A terminated barrier used to terminate every later
// command of its queue, and every later barrier with them: the queue stayed
// unusable for good.)
TEST_F(Threads, TerminatedCommandLeavesSharedQueueUsable) {
  cl_int err = CL_INVALID_VALUE;
  const cl_queue_properties outOfOrder[] = {CL_QUEUE_PROPERTIES,
                                            CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  cl_command_queue outOfOrderQueue =
      clCreateCommandQueueWithProperties(context, device, outOfOrder, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  for (cl_command_queue shared : {queue, outOfOrderQueue}) {
    SCOPED_TRACE(shared == queue ? "in-order queue" : "out-of-order queue");
    cl_mem gated = buffer(kSize);
    cl_event gate = clCreateUserEvent(context, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    const Bytes data = pattern(kSize, 9);
    cl_event write = nullptr, barrier = nullptr;
    ASSERT_EQ(
        clEnqueueWriteBuffer(shared, gated, CL_FALSE, 0, kSize, data.data(), 1, &gate, &write),
        CL_SUCCESS);
    ASSERT_EQ(clEnqueueBarrierWithWaitList(shared, 0, nullptr, &barrier), CL_SUCCESS);
    ASSERT_EQ(clSetUserEventStatus(gate, -7), CL_SUCCESS);
    EXPECT_EQ(clWaitForEvents(1, &write), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    clWaitForEvents(1, &barrier); // terminated or complete: the specification does not say

    Failures failures;
    runThreads([&](int t) {
      cl_mem mem = buffer(kSize);
      for (int round = 0; round < kRounds; ++round) {
        const Bytes expected = pattern(kSize, t * 100 + round);
        Bytes out(kSize, 0);
        failures.check(clEnqueueWriteBuffer(shared, mem, CL_TRUE, 0, kSize, expected.data(), 0,
                                            nullptr, nullptr) == CL_SUCCESS);
        failures.check(clEnqueueBarrierWithWaitList(shared, 0, nullptr, nullptr) == CL_SUCCESS);
        failures.check(clEnqueueReadBuffer(shared, mem, CL_TRUE, 0, kSize, out.data(), 0, nullptr,
                                           nullptr) == CL_SUCCESS);
        failures.check(out == expected);
      }
      clReleaseMemObject(mem);
    });
    EXPECT_EQ(failures.count, 0);
    EXPECT_EQ(clFinish(shared), CL_SUCCESS);
    clReleaseEvent(write);
    clReleaseEvent(barrier);
    clReleaseEvent(gate);
    clReleaseMemObject(gated);
  }
  clReleaseCommandQueue(outOfOrderQueue);
}

} // namespace
} // namespace lanewise::test
