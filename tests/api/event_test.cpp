// SPDX-License-Identifier: Apache-2.0
// Event objects (OpenCL 3.0 API spec, 5.11-5.14): status, info, user events,
// callbacks, markers and barriers, profiling, ordering, flush and finish.
#include "common.h"

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace lanewise::test {
namespace {

using Bytes = std::vector<std::uint8_t>;
using namespace std::chrono_literals;

struct ReleaseQueue {
  void operator()(cl_command_queue q) const {
    clFinish(q);
    clReleaseCommandQueue(q);
  }
};
using Queue = std::unique_ptr<std::remove_pointer_t<cl_command_queue>, ReleaseQueue>;
struct ReleaseContext {
  void operator()(cl_context ctx) const { clReleaseContext(ctx); }
};
using Context = std::unique_ptr<std::remove_pointer_t<cl_context>, ReleaseContext>;

Bytes pattern(size_t size, unsigned seed) {
  Bytes bytes(size);
  for (size_t i = 0; i < size; ++i)
    bytes[i] = static_cast<std::uint8_t>(i * 7 + seed * 59 + 11);
  return bytes;
}

template <typename T> T eventInfo(cl_event event, cl_event_info param) {
  T value{};
  EXPECT_EQ(clGetEventInfo(event, param, sizeof(T), &value, nullptr), CL_SUCCESS)
      << "param 0x" << std::hex << param;
  return value;
}
cl_int status(cl_event event) {
  return eventInfo<cl_int>(event, CL_EVENT_COMMAND_EXECUTION_STATUS);
}

template <typename Pred> bool eventually(Pred done, std::chrono::milliseconds limit = 2000ms) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline)
      return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

// What one clSetEventCallback registration saw.
struct CallbackRecord {
  std::mutex mutex;
  int calls = 0;
  cl_event event = nullptr;
  cl_int status = 1234;
  int count() {
    std::lock_guard lock(mutex);
    return calls;
  }
};
void CL_CALLBACK recordCallback(cl_event event, cl_int status, void *user) {
  auto *record = static_cast<CallbackRecord *>(user);
  std::lock_guard lock(record->mutex);
  ++record->calls;
  record->event = event;
  record->status = status;
}

class EventTestBase : public ContextTest {
protected:
  static constexpr size_t kSize = 1024;

  Mem buffer(const Bytes &init) {
    cl_int err = CL_INVALID_VALUE;
    cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, init.size(),
                                const_cast<std::uint8_t *>(init.data()), &err);
    EXPECT_EQ(err, CL_SUCCESS);
    return Mem(mem);
  }
  Event userEvent(cl_context ctx = nullptr) {
    cl_int err = CL_INVALID_VALUE;
    cl_event event = clCreateUserEvent(ctx ? ctx : context, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    return Event(event);
  }
  Bytes contents(cl_mem mem, size_t size) {
    Bytes out(size);
    EXPECT_EQ(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, size, out.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    return out;
  }
  Queue makeQueue(cl_command_queue_properties props) {
    const cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, props, 0};
    cl_int err = CL_INVALID_VALUE;
    cl_command_queue q = clCreateCommandQueueWithProperties(context, device, list, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    return Queue(q);
  }
  bool outOfOrderSupported() {
    return deviceInfo<cl_command_queue_properties>(device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES) &
           CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
  }
  // An out-of-order queue when the device has one (so ordering comes only from
  // the commands under test), else the in-order fixture queue.
  cl_command_queue orderingQueue() {
    if (!ownQueue && outOfOrderSupported())
      ownQueue = makeQueue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    return ownQueue ? ownQueue.get() : queue;
  }
  Context otherContext() {
    cl_int err = CL_INVALID_VALUE;
    cl_context other = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    return Context(other);
  }
  // Gives a gated command time to run if the implementation wrongly lets it.
  void settle(cl_command_queue q) {
    EXPECT_EQ(clFlush(q), CL_SUCCESS);
    std::this_thread::sleep_for(30ms);
  }
  void TearDown() override {
    ownQueue.reset();
    ContextTest::TearDown();
  }
  Queue ownQueue;
};

class Event_ : public EventTestBase {};
using EventInfo = Event_;
using EventUser = Event_;
using EventWait = Event_;
using EventCallback = Event_;
using EventMarker = Event_;
using EventProfiling = Event_;
using EventOrder = Event_;

// ---------------------------------------------------------------------------
// Status and info

TEST_F(EventInfo, BlockingCommandsAreCompleteOnReturn) {
  Mem mem = buffer(Bytes(kSize, 0));
  const Bytes data = pattern(kSize, 1);
  Bytes out(kSize);
  cl_event write = nullptr, read = nullptr;
  ASSERT_EQ(
      clEnqueueWriteBuffer(queue, mem.get(), CL_TRUE, 0, kSize, data.data(), 0, nullptr, &write),
      CL_SUCCESS);
  EXPECT_EQ(status(write), CL_COMPLETE);
  ASSERT_EQ(clEnqueueReadBuffer(queue, mem.get(), CL_TRUE, 0, kSize, out.data(), 0, nullptr, &read),
            CL_SUCCESS);
  EXPECT_EQ(status(read), CL_COMPLETE);
  EXPECT_EQ(out, data);
  clReleaseEvent(write);
  clReleaseEvent(read);
}

TEST_F(EventInfo, StatusMovesMonotonicallyToComplete) {
  Mem mem = buffer(Bytes(64 * kSize, 0));
  const Bytes data = pattern(64 * kSize, 2);
  cl_event event = nullptr;
  ASSERT_EQ(clEnqueueWriteBuffer(queue, mem.get(), CL_FALSE, 0, data.size(), data.data(), 0,
                                 nullptr, &event),
            CL_SUCCESS);
  // CL_QUEUED (3) > CL_SUBMITTED (2) > CL_RUNNING (1) > CL_COMPLETE (0).
  cl_int last = CL_QUEUED;
  ASSERT_EQ(clFlush(queue), CL_SUCCESS);
  EXPECT_TRUE(eventually([&] {
    const cl_int now = status(event);
    EXPECT_GE(now, CL_COMPLETE);
    EXPECT_LE(now, last) << "status went backwards";
    last = now;
    return now == CL_COMPLETE;
  }));
  EXPECT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
  clReleaseEvent(event);
}

TEST_F(EventInfo, ReportsCommandTypeQueueAndContextForEachCommand) {
  Mem a = buffer(pattern(kSize, 1)), b = buffer(pattern(kSize, 2));
  Bytes host(kSize);
  const cl_uint value = 5;
  const size_t origin[3] = {0, 0, 0}, region[3] = {16, 4, 1};
  void *mapped = nullptr;
  cl_mem both[] = {a.get(), b.get()};
  const struct {
    const char *name;
    cl_command_type type;
    std::function<cl_int(cl_event *)> enqueue;
  } commands[] = {
      {"write", CL_COMMAND_WRITE_BUFFER,
       [&](cl_event *e) {
         return clEnqueueWriteBuffer(queue, a.get(), CL_FALSE, 0, kSize, host.data(), 0, nullptr,
                                     e);
       }},
      {"read", CL_COMMAND_READ_BUFFER,
       [&](cl_event *e) {
         return clEnqueueReadBuffer(queue, a.get(), CL_FALSE, 0, kSize, host.data(), 0, nullptr, e);
       }},
      {"copy", CL_COMMAND_COPY_BUFFER,
       [&](cl_event *e) {
         return clEnqueueCopyBuffer(queue, a.get(), b.get(), 0, 0, kSize, 0, nullptr, e);
       }},
      {"fill", CL_COMMAND_FILL_BUFFER,
       [&](cl_event *e) {
         return clEnqueueFillBuffer(queue, a.get(), &value, sizeof(value), 0, kSize, 0, nullptr, e);
       }},
      {"read rect", CL_COMMAND_READ_BUFFER_RECT,
       [&](cl_event *e) {
         return clEnqueueReadBufferRect(queue, a.get(), CL_FALSE, origin, origin, region, 0, 0, 0,
                                        0, host.data(), 0, nullptr, e);
       }},
      {"write rect", CL_COMMAND_WRITE_BUFFER_RECT,
       [&](cl_event *e) {
         return clEnqueueWriteBufferRect(queue, a.get(), CL_FALSE, origin, origin, region, 0, 0, 0,
                                         0, host.data(), 0, nullptr, e);
       }},
      {"copy rect", CL_COMMAND_COPY_BUFFER_RECT,
       [&](cl_event *e) {
         return clEnqueueCopyBufferRect(queue, a.get(), b.get(), origin, origin, region, 0, 0, 0, 0,
                                        0, nullptr, e);
       }},
      {"map", CL_COMMAND_MAP_BUFFER,
       [&](cl_event *e) {
         cl_int err = CL_INVALID_VALUE;
         mapped =
             clEnqueueMapBuffer(queue, a.get(), CL_FALSE, CL_MAP_READ, 0, 64, 0, nullptr, e, &err);
         return err;
       }},
      {"unmap", CL_COMMAND_UNMAP_MEM_OBJECT,
       [&](cl_event *e) { return clEnqueueUnmapMemObject(queue, a.get(), mapped, 0, nullptr, e); }},
      {"migrate", CL_COMMAND_MIGRATE_MEM_OBJECTS,
       [&](cl_event *e) { return clEnqueueMigrateMemObjects(queue, 2, both, 0, 0, nullptr, e); }},
      {"marker", CL_COMMAND_MARKER,
       [&](cl_event *e) { return clEnqueueMarkerWithWaitList(queue, 0, nullptr, e); }},
      {"barrier", CL_COMMAND_BARRIER,
       [&](cl_event *e) { return clEnqueueBarrierWithWaitList(queue, 0, nullptr, e); }},
      {"deprecated marker", CL_COMMAND_MARKER,
       [&](cl_event *e) { return clEnqueueMarker(queue, e); }},
  };
  for (const auto &command : commands) {
    SCOPED_TRACE(command.name);
    cl_event event = nullptr;
    ASSERT_EQ(command.enqueue(&event), CL_SUCCESS);
    ASSERT_NE(event, nullptr);
    EXPECT_EQ(eventInfo<cl_command_type>(event, CL_EVENT_COMMAND_TYPE), command.type);
    EXPECT_EQ(eventInfo<cl_command_queue>(event, CL_EVENT_COMMAND_QUEUE), queue);
    EXPECT_EQ(eventInfo<cl_context>(event, CL_EVENT_CONTEXT), context);
    EXPECT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
    EXPECT_EQ(status(event), CL_COMPLETE);
    clReleaseEvent(event);
  }
}

TEST_F(EventInfo, ReferenceCountFollowsRetainAndRelease) {
  Mem mem = buffer(Bytes(kSize, 0));
  cl_event event = nullptr;
  ASSERT_EQ(clEnqueueMarkerWithWaitList(queue, 0, nullptr, &event), CL_SUCCESS);
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  const cl_uint before = eventInfo<cl_uint>(event, CL_EVENT_REFERENCE_COUNT);
  EXPECT_GE(before, 1u);
  ASSERT_EQ(clRetainEvent(event), CL_SUCCESS);
  EXPECT_EQ(eventInfo<cl_uint>(event, CL_EVENT_REFERENCE_COUNT), before + 1);
  ASSERT_EQ(clReleaseEvent(event), CL_SUCCESS);
  EXPECT_EQ(eventInfo<cl_uint>(event, CL_EVENT_REFERENCE_COUNT), before);
  clReleaseEvent(event);

  Event user = userEvent();
  EXPECT_EQ(eventInfo<cl_uint>(user.get(), CL_EVENT_REFERENCE_COUNT), 1u);
  clSetUserEventStatus(user.get(), CL_COMPLETE);
}

TEST_F(EventInfo, SizeProtocolAndUnknownParam) {
  Event user = userEvent();
  const struct {
    cl_event_info param;
    size_t size;
  } queries[] = {{CL_EVENT_COMMAND_QUEUE, sizeof(cl_command_queue)},
                 {CL_EVENT_CONTEXT, sizeof(cl_context)},
                 {CL_EVENT_COMMAND_TYPE, sizeof(cl_command_type)},
                 {CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(cl_int)},
                 {CL_EVENT_REFERENCE_COUNT, sizeof(cl_uint)}};
  for (auto [param, size] : queries) {
    SCOPED_TRACE(param);
    size_t sizeRet = 0;
    EXPECT_EQ(clGetEventInfo(user.get(), param, 0, nullptr, &sizeRet), CL_SUCCESS);
    EXPECT_EQ(sizeRet, size);
    std::uint8_t small[16];
    EXPECT_EQ(clGetEventInfo(user.get(), param, size - 1, small, nullptr), CL_INVALID_VALUE);
  }
  size_t sizeRet = 0;
  EXPECT_EQ(clGetEventInfo(user.get(), 0x7FFF, 0, nullptr, &sizeRet), CL_INVALID_VALUE);
  clSetUserEventStatus(user.get(), CL_COMPLETE);
}

TEST_F(EventInfo, FailedEnqueueCreatesNoEvent) {
  Mem mem = buffer(Bytes(kSize, 0));
  Bytes host(2 * kSize);
  cl_event event = nullptr;
  EXPECT_EQ(clEnqueueReadBuffer(queue, mem.get(), CL_FALSE, 0, 2 * kSize, host.data(), 0, nullptr,
                                &event),
            CL_INVALID_VALUE);
  EXPECT_EQ(event, nullptr);
}

// ---------------------------------------------------------------------------
// User events

TEST_F(EventUser, StartsSubmittedWithoutQueue) {
  Event user = userEvent();
  EXPECT_EQ(status(user.get()), CL_SUBMITTED);
  EXPECT_EQ(eventInfo<cl_command_queue>(user.get(), CL_EVENT_COMMAND_QUEUE), nullptr);
  EXPECT_EQ(eventInfo<cl_context>(user.get(), CL_EVENT_CONTEXT), context);
  EXPECT_EQ(eventInfo<cl_command_type>(user.get(), CL_EVENT_COMMAND_TYPE),
            cl_command_type{CL_COMMAND_USER});
  ASSERT_EQ(clSetUserEventStatus(user.get(), CL_COMPLETE), CL_SUCCESS);
  EXPECT_EQ(status(user.get()), CL_COMPLETE);
  EXPECT_EQ(clWaitForEvents(1, std::array{user.get()}.data()), CL_SUCCESS);
}

TEST_F(EventUser, InvalidContextIsInvalidContext) {
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateUserEvent(nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
}

TEST_F(EventUser, GatesDependentCommandUntilComplete) {
  const Bytes data = pattern(kSize, 3);
  Mem mem = buffer(data);
  Event gate = userEvent();
  Bytes out(kSize, 0xAA);
  cl_event gateEvent = gate.get(), read = nullptr;
  ASSERT_EQ(
      clEnqueueReadBuffer(queue, mem.get(), CL_FALSE, 0, kSize, out.data(), 1, &gateEvent, &read),
      CL_SUCCESS);
  settle(queue);
  EXPECT_EQ(out, Bytes(kSize, 0xAA)) << "read ran before its user event completed";
  EXPECT_GT(status(read), CL_RUNNING);

  ASSERT_EQ(clSetUserEventStatus(gate.get(), CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  EXPECT_EQ(out, data);
  EXPECT_EQ(status(read), CL_COMPLETE);
  clReleaseEvent(read);
}

TEST_F(EventUser, StatusCanBeSetOnlyOnce) {
  for (cl_int first : {CL_COMPLETE, -7}) {
    for (cl_int second : {CL_COMPLETE, -9}) {
      SCOPED_TRACE(std::to_string(first) + " then " + std::to_string(second));
      Event user = userEvent();
      ASSERT_EQ(clSetUserEventStatus(user.get(), first), CL_SUCCESS);
      EXPECT_EQ(clSetUserEventStatus(user.get(), second), CL_INVALID_OPERATION);
      EXPECT_EQ(status(user.get()), first);
    }
  }
}

TEST_F(EventUser, PositiveNonCompleteStatusIsInvalidValue) {
  Event user = userEvent();
  for (cl_int bad : {CL_RUNNING, CL_SUBMITTED, CL_QUEUED, 4, 1000}) {
    SCOPED_TRACE(bad);
    EXPECT_EQ(clSetUserEventStatus(user.get(), bad), CL_INVALID_VALUE);
  }
  EXPECT_EQ(status(user.get()), CL_SUBMITTED);
  EXPECT_EQ(clSetUserEventStatus(user.get(), CL_COMPLETE), CL_SUCCESS);
}

TEST_F(EventUser, NegativeStatusTerminatesDependentCommands) {
  // A negative status terminates every command waiting on the user event;
  // waiting on them reports CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST.
  Mem mem = buffer(pattern(kSize, 4));
  Event gate = userEvent();
  const Bytes data(kSize, 0x11);
  cl_event gateEvent = gate.get(), write = nullptr;
  ASSERT_EQ(clEnqueueWriteBuffer(queue, mem.get(), CL_FALSE, 0, kSize, data.data(), 1, &gateEvent,
                                 &write),
            CL_SUCCESS);
  ASSERT_EQ(clFlush(queue), CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(gate.get(), -7), CL_SUCCESS);

  EXPECT_EQ(clWaitForEvents(1, &write), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT_LT(status(write), 0);
  EXPECT_EQ(clWaitForEvents(1, &gateEvent), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT_EQ(status(gate.get()), -7);
  clReleaseEvent(write);
}

TEST_F(EventUser, BlockingCallWaitingOnFailedEventReportsError) {
  Mem mem = buffer(pattern(kSize, 4));
  Event gate = userEvent();
  ASSERT_EQ(clSetUserEventStatus(gate.get(), -3), CL_SUCCESS);
  // The blocking read runs on a helper thread so that an implementation that
  // waits forever fails this test instead of hanging the whole binary.
  auto out = std::make_shared<Bytes>(kSize);
  auto task = std::make_shared<std::packaged_task<cl_int()>>(
      [q = queue, m = mem.get(), g = gate.get(), out] {
        return clEnqueueReadBuffer(q, m, CL_TRUE, 0, kSize, out->data(), 1, &g, nullptr);
      });
  std::future<cl_int> result = task->get_future();
  std::thread([task] { (*task)(); }).detach();
  if (result.wait_for(2s) != std::future_status::ready) {
    ADD_FAILURE() << "blocking read waiting on a failed event did not return";
    // Abandon the objects the stuck call uses; tear-down would block on them.
    mem.release();
    gate.release();
    queue = nullptr;
    context = nullptr;
    return;
  }
  EXPECT_EQ(result.get(), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
}

// ---------------------------------------------------------------------------
// clWaitForEvents

TEST_F(EventWait, WaitsForEveryListedEvent) {
  std::vector<Mem> buffers;
  std::vector<cl_event> events;
  const Bytes data = pattern(16 * kSize, 5);
  for (int i = 0; i < 6; ++i) {
    buffers.push_back(buffer(Bytes(data.size(), 0)));
    cl_event event = nullptr;
    ASSERT_EQ(clEnqueueWriteBuffer(queue, buffers.back().get(), CL_FALSE, 0, data.size(),
                                   data.data(), 0, nullptr, &event),
              CL_SUCCESS);
    events.push_back(event);
  }
  ASSERT_EQ(clWaitForEvents(static_cast<cl_uint>(events.size()), events.data()), CL_SUCCESS);
  for (cl_event event : events) {
    EXPECT_EQ(status(event), CL_COMPLETE);
    clReleaseEvent(event);
  }
}

TEST_F(EventWait, EmptyListIsInvalidValue) {
  Event user = userEvent();
  cl_event list[] = {user.get()};
  EXPECT_EQ(clWaitForEvents(0, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clWaitForEvents(0, list), CL_INVALID_VALUE);
  EXPECT_EQ(clWaitForEvents(1, nullptr), CL_INVALID_VALUE);
  clSetUserEventStatus(user.get(), CL_COMPLETE);
}

TEST_F(EventWait, EventsFromDifferentContextsAreInvalidContext) {
  Context other = otherContext();
  Event mine = userEvent(), theirs = userEvent(other.get());
  ASSERT_EQ(clSetUserEventStatus(mine.get(), CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(theirs.get(), CL_COMPLETE), CL_SUCCESS);
  cl_event list[] = {mine.get(), theirs.get()};
  EXPECT_EQ(clWaitForEvents(2, list), CL_INVALID_CONTEXT);
}

TEST_F(EventWait, WaitListEventFromAnotherContextIsInvalidContext) {
  Context other = otherContext();
  Event theirs = userEvent(other.get());
  ASSERT_EQ(clSetUserEventStatus(theirs.get(), CL_COMPLETE), CL_SUCCESS);
  cl_event list[] = {theirs.get()};
  Mem mem = buffer(Bytes(kSize, 0));
  Bytes host(kSize);
  EXPECT_EQ(
      clEnqueueWriteBuffer(queue, mem.get(), CL_TRUE, 0, kSize, host.data(), 1, list, nullptr),
      CL_INVALID_CONTEXT);
  EXPECT_EQ(clEnqueueMarkerWithWaitList(queue, 1, list, nullptr), CL_INVALID_CONTEXT);
  EXPECT_EQ(clEnqueueBarrierWithWaitList(queue, 1, list, nullptr), CL_INVALID_CONTEXT);
}

TEST_F(EventWait, FailedEventInListIsExecStatusError) {
  Event ok = userEvent(), failed = userEvent();
  ASSERT_EQ(clSetUserEventStatus(ok.get(), CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(failed.get(), -5), CL_SUCCESS);
  cl_event list[] = {ok.get(), failed.get()};
  EXPECT_EQ(clWaitForEvents(2, list), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
}

TEST_F(EventWait, WaitReturnsOnceUserEventIsSetFromAnotherThread) {
  Event gate = userEvent();
  std::thread setter([&] {
    std::this_thread::sleep_for(20ms);
    clSetUserEventStatus(gate.get(), CL_COMPLETE);
  });
  cl_event list[] = {gate.get()};
  EXPECT_EQ(clWaitForEvents(1, list), CL_SUCCESS);
  EXPECT_EQ(status(gate.get()), CL_COMPLETE);
  setter.join();
}

// ---------------------------------------------------------------------------
// Callbacks

TEST_F(EventCallback, EveryRegisteredStatusIsReported) {
  Mem mem = buffer(Bytes(kSize, 0));
  const Bytes data = pattern(kSize, 6);
  Event gate = userEvent();
  cl_event gateEvent = gate.get(), write = nullptr;
  ASSERT_EQ(clEnqueueWriteBuffer(queue, mem.get(), CL_FALSE, 0, kSize, data.data(), 1, &gateEvent,
                                 &write),
            CL_SUCCESS);
  const cl_int types[] = {CL_SUBMITTED, CL_RUNNING, CL_COMPLETE};
  CallbackRecord records[3];
  for (int i = 0; i < 3; ++i)
    ASSERT_EQ(clSetEventCallback(write, types[i], recordCallback, &records[i]), CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(gate.get(), CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  for (int i = 0; i < 3; ++i) {
    SCOPED_TRACE(types[i]);
    ASSERT_TRUE(eventually([&] { return records[i].count() > 0; }));
    std::this_thread::sleep_for(5ms);
    std::lock_guard lock(records[i].mutex);
    EXPECT_EQ(records[i].calls, 1);
    EXPECT_EQ(records[i].event, write);
    // Called once the status is equal to or past the registered one.
    EXPECT_LE(records[i].status, types[i]);
    EXPECT_GE(records[i].status, CL_COMPLETE);
  }
  EXPECT_EQ(records[2].status, CL_COMPLETE);
  clReleaseEvent(write);
}

TEST_F(EventCallback, RegisteredAfterCompletionIsStillCalled) {
  Mem mem = buffer(Bytes(kSize, 0));
  cl_event event = nullptr;
  ASSERT_EQ(clEnqueueMarkerWithWaitList(queue, 0, nullptr, &event), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
  const cl_int types[] = {CL_SUBMITTED, CL_RUNNING, CL_COMPLETE};
  CallbackRecord records[3];
  for (int i = 0; i < 3; ++i)
    ASSERT_EQ(clSetEventCallback(event, types[i], recordCallback, &records[i]), CL_SUCCESS);
  for (int i = 0; i < 3; ++i) {
    SCOPED_TRACE(types[i]);
    ASSERT_TRUE(eventually([&] { return records[i].count() > 0; }));
    std::lock_guard lock(records[i].mutex);
    EXPECT_EQ(records[i].calls, 1);
    EXPECT_EQ(records[i].event, event);
    EXPECT_LE(records[i].status, types[i]);
    EXPECT_GE(records[i].status, CL_COMPLETE);
  }
  clReleaseEvent(event);
}

TEST_F(EventCallback, UserEventCompleteCallbackWaitsForStatus) {
  Event user = userEvent();
  CallbackRecord record;
  ASSERT_EQ(clSetEventCallback(user.get(), CL_COMPLETE, recordCallback, &record), CL_SUCCESS);
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(record.count(), 0) << "CL_COMPLETE callback before the user event completed";
  ASSERT_EQ(clSetUserEventStatus(user.get(), CL_COMPLETE), CL_SUCCESS);
  ASSERT_TRUE(eventually([&] { return record.count() > 0; }));
  std::lock_guard lock(record.mutex);
  EXPECT_EQ(record.event, user.get());
  EXPECT_EQ(record.status, CL_COMPLETE);
}

TEST_F(EventCallback, AbnormalTerminationPassesErrorToCompleteCallback) {
  Event user = userEvent();
  CallbackRecord record;
  ASSERT_EQ(clSetEventCallback(user.get(), CL_COMPLETE, recordCallback, &record), CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(user.get(), -4), CL_SUCCESS);
  ASSERT_TRUE(eventually([&] { return record.count() > 0; }));
  std::lock_guard lock(record.mutex);
  EXPECT_LT(record.status, 0);
}

TEST_F(EventCallback, InvalidTypeOrNullCallbackIsInvalidValue) {
  Event user = userEvent();
  CallbackRecord record;
  for (cl_int type : {CL_QUEUED, 4, -1}) {
    SCOPED_TRACE(type);
    EXPECT_EQ(clSetEventCallback(user.get(), type, recordCallback, &record), CL_INVALID_VALUE);
  }
  EXPECT_EQ(clSetEventCallback(user.get(), CL_COMPLETE, nullptr, &record), CL_INVALID_VALUE);
  ASSERT_EQ(clSetUserEventStatus(user.get(), CL_COMPLETE), CL_SUCCESS);
  std::this_thread::sleep_for(10ms);
  EXPECT_EQ(record.count(), 0);
}

// ---------------------------------------------------------------------------
// Markers and barriers

TEST_F(EventMarker, MarkerWithoutWaitListWaitsForPreviousCommands) {
  cl_command_queue q = orderingQueue();
  Mem mem = buffer(Bytes(kSize, 0));
  const Bytes data = pattern(kSize, 7);
  Event gate = userEvent();
  cl_event gateEvent = gate.get(), write = nullptr, marker = nullptr;
  ASSERT_EQ(
      clEnqueueWriteBuffer(q, mem.get(), CL_FALSE, 0, kSize, data.data(), 1, &gateEvent, &write),
      CL_SUCCESS);
  ASSERT_EQ(clEnqueueMarkerWithWaitList(q, 0, nullptr, &marker), CL_SUCCESS);
  settle(q);
  EXPECT_NE(status(marker), CL_COMPLETE) << "marker completed before an earlier command";
  ASSERT_EQ(clSetUserEventStatus(gate.get(), CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &marker), CL_SUCCESS);
  EXPECT_EQ(status(write), CL_COMPLETE);
  clReleaseEvent(write);
  clReleaseEvent(marker);
}

TEST_F(EventMarker, MarkerWithWaitListWaitsForListedEvents) {
  cl_command_queue q = orderingQueue();
  Event gate = userEvent();
  cl_event gateEvent = gate.get(), marker = nullptr;
  ASSERT_EQ(clEnqueueMarkerWithWaitList(q, 1, &gateEvent, &marker), CL_SUCCESS);
  settle(q);
  EXPECT_NE(status(marker), CL_COMPLETE);
  ASSERT_EQ(clSetUserEventStatus(gate.get(), CL_COMPLETE), CL_SUCCESS);
  EXPECT_EQ(clWaitForEvents(1, &marker), CL_SUCCESS);
  EXPECT_EQ(eventInfo<cl_command_type>(marker, CL_EVENT_COMMAND_TYPE),
            cl_command_type{CL_COMMAND_MARKER});
  clReleaseEvent(marker);
}

TEST_F(EventMarker, BarrierWithWaitListBlocksLaterCommands) {
  cl_command_queue q = orderingQueue();
  const Bytes data = pattern(kSize, 8);
  Mem mem = buffer(data);
  Event gate = userEvent();
  cl_event gateEvent = gate.get(), barrier = nullptr, read = nullptr;
  Bytes out(kSize, 0xAA);
  ASSERT_EQ(clEnqueueBarrierWithWaitList(q, 1, &gateEvent, &barrier), CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(q, mem.get(), CL_FALSE, 0, kSize, out.data(), 0, nullptr, &read),
            CL_SUCCESS);
  settle(q);
  EXPECT_EQ(out, Bytes(kSize, 0xAA)) << "command after a barrier ran before it";
  EXPECT_NE(status(barrier), CL_COMPLETE);
  ASSERT_EQ(clSetUserEventStatus(gate.get(), CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &read), CL_SUCCESS);
  EXPECT_EQ(out, data);
  EXPECT_EQ(status(barrier), CL_COMPLETE);
  EXPECT_EQ(eventInfo<cl_command_type>(barrier, CL_EVENT_COMMAND_TYPE),
            cl_command_type{CL_COMMAND_BARRIER});
  clReleaseEvent(barrier);
  clReleaseEvent(read);
}

TEST_F(EventMarker, BarrierWithoutWaitListOrdersCommandsAroundIt) {
  cl_command_queue q = orderingQueue();
  Mem mem = buffer(Bytes(kSize, 0));
  const Bytes data = pattern(kSize, 9);
  Event gate = userEvent();
  cl_event gateEvent = gate.get(), read = nullptr;
  Bytes out(kSize, 0xAA);
  ASSERT_EQ(
      clEnqueueWriteBuffer(q, mem.get(), CL_FALSE, 0, kSize, data.data(), 1, &gateEvent, nullptr),
      CL_SUCCESS);
  ASSERT_EQ(clEnqueueBarrierWithWaitList(q, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(q, mem.get(), CL_FALSE, 0, kSize, out.data(), 0, nullptr, &read),
            CL_SUCCESS);
  settle(q);
  EXPECT_EQ(out, Bytes(kSize, 0xAA));
  ASSERT_EQ(clSetUserEventStatus(gate.get(), CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &read), CL_SUCCESS);
  EXPECT_EQ(out, data); // the read saw the gated write
  clReleaseEvent(read);
}

TEST_F(EventMarker, DeprecatedMarkerAndBarrier) {
  cl_command_queue q = orderingQueue();
  Mem mem = buffer(Bytes(kSize, 0));
  const Bytes data = pattern(kSize, 10);
  Event gate = userEvent();
  cl_event gateEvent = gate.get(), read = nullptr, marker = nullptr;
  Bytes out(kSize, 0xAA);
  ASSERT_EQ(
      clEnqueueWriteBuffer(q, mem.get(), CL_FALSE, 0, kSize, data.data(), 1, &gateEvent, nullptr),
      CL_SUCCESS);
  ASSERT_EQ(clEnqueueBarrier(q), CL_SUCCESS); // later commands wait for the write
  ASSERT_EQ(clEnqueueReadBuffer(q, mem.get(), CL_FALSE, 0, kSize, out.data(), 0, nullptr, &read),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueMarker(q, &marker), CL_SUCCESS);
  settle(q);
  EXPECT_EQ(out, Bytes(kSize, 0xAA));
  EXPECT_NE(status(marker), CL_COMPLETE);
  ASSERT_EQ(clSetUserEventStatus(gate.get(), CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &marker), CL_SUCCESS);
  EXPECT_EQ(status(read), CL_COMPLETE); // the marker waits for all earlier commands
  EXPECT_EQ(out, data);
  EXPECT_EQ(eventInfo<cl_command_type>(marker, CL_EVENT_COMMAND_TYPE),
            cl_command_type{CL_COMMAND_MARKER});
  clReleaseEvent(read);
  clReleaseEvent(marker);
}

// PoCL 3.1, the reference run, aborts the process in clEnqueueWaitForEvents.
#define SKIP_ENQUEUE_WAIT_FOR_EVENTS_ON_REFERENCE()                                                \
  if (!testingLanewise())                                                                          \
  GTEST_SKIP() << "clEnqueueWaitForEvents aborts on PoCL 3.1"

TEST_F(EventMarker, DeprecatedWaitForEventsGatesLaterCommands) {
  SKIP_ENQUEUE_WAIT_FOR_EVENTS_ON_REFERENCE();
  cl_command_queue q = orderingQueue();
  const Bytes data = pattern(kSize, 10);
  Mem mem = buffer(data);
  Event gate = userEvent();
  cl_event gateEvent = gate.get(), read = nullptr;
  Bytes out(kSize, 0xAA);
  ASSERT_EQ(clEnqueueWaitForEvents(q, 1, &gateEvent), CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(q, mem.get(), CL_FALSE, 0, kSize, out.data(), 0, nullptr, &read),
            CL_SUCCESS);
  settle(q);
  EXPECT_EQ(out, Bytes(kSize, 0xAA));
  ASSERT_EQ(clSetUserEventStatus(gate.get(), CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &read), CL_SUCCESS);
  EXPECT_EQ(out, data);
  clReleaseEvent(read);
}

TEST_F(EventMarker, DeprecatedWaitForEventsChecksArguments) {
  SKIP_ENQUEUE_WAIT_FOR_EVENTS_ON_REFERENCE();
  Event user = userEvent();
  cl_event list[] = {user.get()};
  EXPECT_EQ(clEnqueueWaitForEvents(queue, 0, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueWaitForEvents(queue, 0, list), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueWaitForEvents(queue, 1, nullptr), CL_INVALID_VALUE);
  Context other = otherContext();
  Event theirs = userEvent(other.get());
  cl_event foreign[] = {theirs.get()};
  EXPECT_EQ(clEnqueueWaitForEvents(queue, 1, foreign), CL_INVALID_CONTEXT);
  clSetUserEventStatus(user.get(), CL_COMPLETE);
  clSetUserEventStatus(theirs.get(), CL_COMPLETE);
}

TEST_F(EventMarker, InvalidArgumentsAreRejected) {
  Event user = userEvent();
  cl_event list[] = {user.get()};
  EXPECT_EQ(clEnqueueMarker(queue, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueMarkerWithWaitList(queue, 1, nullptr, nullptr), CL_INVALID_EVENT_WAIT_LIST);
  EXPECT_EQ(clEnqueueMarkerWithWaitList(queue, 0, list, nullptr), CL_INVALID_EVENT_WAIT_LIST);
  EXPECT_EQ(clEnqueueBarrierWithWaitList(queue, 1, nullptr, nullptr), CL_INVALID_EVENT_WAIT_LIST);
  EXPECT_EQ(clEnqueueBarrierWithWaitList(queue, 0, list, nullptr), CL_INVALID_EVENT_WAIT_LIST);
  clSetUserEventStatus(user.get(), CL_COMPLETE);
}

// ---------------------------------------------------------------------------
// Profiling

constexpr cl_profiling_info kProfilingParams[] = {
    CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT, CL_PROFILING_COMMAND_START,
    CL_PROFILING_COMMAND_END, CL_PROFILING_COMMAND_COMPLETE};

TEST_F(EventProfiling, TimestampsAreOrderedForEachCommand) {
  Queue q = makeQueue(CL_QUEUE_PROFILING_ENABLE);
  Mem a = buffer(Bytes(64 * kSize, 0)), b = buffer(Bytes(64 * kSize, 0));
  const Bytes data = pattern(64 * kSize, 11);
  Bytes out(data.size());
  const cl_uint value = 3;
  const std::pair<const char *, std::function<cl_int(cl_event *)>> commands[] = {
      {"write",
       [&](cl_event *e) {
         return clEnqueueWriteBuffer(q.get(), a.get(), CL_FALSE, 0, data.size(), data.data(), 0,
                                     nullptr, e);
       }},
      {"copy",
       [&](cl_event *e) {
         return clEnqueueCopyBuffer(q.get(), a.get(), b.get(), 0, 0, data.size(), 0, nullptr, e);
       }},
      {"fill",
       [&](cl_event *e) {
         return clEnqueueFillBuffer(q.get(), a.get(), &value, sizeof(value), 0, data.size(), 0,
                                    nullptr, e);
       }},
      {"read",
       [&](cl_event *e) {
         return clEnqueueReadBuffer(q.get(), b.get(), CL_TRUE, 0, out.size(), out.data(), 0,
                                    nullptr, e);
       }},
      {"marker", [&](cl_event *e) { return clEnqueueMarkerWithWaitList(q.get(), 0, nullptr, e); }},
  };
  for (const auto &[name, enqueue] : commands) {
    SCOPED_TRACE(name);
    cl_event event = nullptr;
    ASSERT_EQ(enqueue(&event), CL_SUCCESS);
    ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
    cl_ulong previous = 0;
    for (cl_profiling_info param : kProfilingParams) {
      SCOPED_TRACE(param);
      cl_ulong time = 0;
      size_t sizeRet = 0;
      ASSERT_EQ(clGetEventProfilingInfo(event, param, sizeof(time), &time, &sizeRet), CL_SUCCESS);
      EXPECT_EQ(sizeRet, sizeof(cl_ulong));
      EXPECT_NE(time, 0u);
      EXPECT_GE(time, previous); // QUEUED <= SUBMIT <= START <= END <= COMPLETE
      previous = time;
    }
    clReleaseEvent(event);
  }
  EXPECT_EQ(out, data);
}

TEST_F(EventProfiling, NotAvailableWithoutProfilingQueue) {
  Mem mem = buffer(Bytes(kSize, 0));
  cl_event event = nullptr;
  ASSERT_EQ(clEnqueueMarkerWithWaitList(queue, 0, nullptr, &event), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
  for (cl_profiling_info param : kProfilingParams) {
    cl_ulong time = 0;
    EXPECT_EQ(clGetEventProfilingInfo(event, param, sizeof(time), &time, nullptr),
              CL_PROFILING_INFO_NOT_AVAILABLE);
  }
  clReleaseEvent(event);
}

TEST_F(EventProfiling, NotAvailableForUserEvents) {
  Event user = userEvent();
  ASSERT_EQ(clSetUserEventStatus(user.get(), CL_COMPLETE), CL_SUCCESS);
  for (cl_profiling_info param : kProfilingParams) {
    cl_ulong time = 0;
    EXPECT_EQ(clGetEventProfilingInfo(user.get(), param, sizeof(time), &time, nullptr),
              CL_PROFILING_INFO_NOT_AVAILABLE);
  }
}

TEST_F(EventProfiling, NotAvailableBeforeCompletion) {
  Queue q = makeQueue(CL_QUEUE_PROFILING_ENABLE);
  Mem mem = buffer(Bytes(kSize, 0));
  Event gate = userEvent();
  cl_event gateEvent = gate.get(), marker = nullptr;
  ASSERT_EQ(clEnqueueMarkerWithWaitList(q.get(), 1, &gateEvent, &marker), CL_SUCCESS);
  settle(q.get());
  cl_ulong time = 0;
  EXPECT_EQ(clGetEventProfilingInfo(marker, CL_PROFILING_COMMAND_END, sizeof(time), &time, nullptr),
            CL_PROFILING_INFO_NOT_AVAILABLE);
  ASSERT_EQ(clSetUserEventStatus(gate.get(), CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &marker), CL_SUCCESS);
  EXPECT_EQ(clGetEventProfilingInfo(marker, CL_PROFILING_COMMAND_END, sizeof(time), &time, nullptr),
            CL_SUCCESS);
  clReleaseEvent(marker);
}

TEST_F(EventProfiling, UnknownParamOrSmallBufferIsInvalidValue) {
  Queue q = makeQueue(CL_QUEUE_PROFILING_ENABLE);
  cl_event event = nullptr;
  ASSERT_EQ(clEnqueueMarkerWithWaitList(q.get(), 0, nullptr, &event), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
  cl_ulong time = 0;
  EXPECT_EQ(clGetEventProfilingInfo(event, 0x7FFF, sizeof(time), &time, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, 4, &time, nullptr),
            CL_INVALID_VALUE);
  clReleaseEvent(event);
}

// ---------------------------------------------------------------------------
// Ordering, flush and finish

TEST_F(EventOrder, InOrderChainOfNonBlockingCommandsGivesRightBytes) {
  constexpr int kRounds = 8;
  Mem a = buffer(Bytes(kSize, 0)), b = buffer(Bytes(kSize, 0));
  std::vector<Bytes> inputs, outputs(kRounds, Bytes(kSize, 0));
  for (int i = 0; i < kRounds; ++i)
    inputs.push_back(pattern(kSize, 20 + i));
  for (int i = 0; i < kRounds; ++i) {
    ASSERT_EQ(clEnqueueWriteBuffer(queue, a.get(), CL_FALSE, 0, kSize, inputs[i].data(), 0, nullptr,
                                   nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clEnqueueCopyBuffer(queue, a.get(), b.get(), 0, 0, kSize, 0, nullptr, nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clEnqueueReadBuffer(queue, b.get(), CL_FALSE, 0, kSize, outputs[i].data(), 0, nullptr,
                                  nullptr),
              CL_SUCCESS);
  }
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  for (int i = 0; i < kRounds; ++i)
    EXPECT_EQ(outputs[i], inputs[i]) << "round " << i;
}

TEST_F(EventOrder, OutOfOrderQueueHonoursEventDependencies) {
  if (!outOfOrderSupported())
    GTEST_SKIP() << "device has no out-of-order host queues";
  Queue q = makeQueue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  Mem a = buffer(Bytes(kSize, 1)), b = buffer(Bytes(kSize, 2)), c = buffer(Bytes(kSize, 3));
  const Bytes data = pattern(kSize, 12);
  const cl_uint fillValue = 0x01020304;
  Bytes out(kSize, 0), outC(kSize, 0);
  Event gate = userEvent();
  cl_event e[6] = {gate.get()};
  // gate -> write a -> copy a->b -> read b; fill c -> read c, independently.
  ASSERT_EQ(
      clEnqueueWriteBuffer(q.get(), a.get(), CL_FALSE, 0, kSize, data.data(), 1, &e[0], &e[1]),
      CL_SUCCESS);
  ASSERT_EQ(clEnqueueCopyBuffer(q.get(), a.get(), b.get(), 0, 0, kSize, 1, &e[1], &e[2]),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(q.get(), b.get(), CL_FALSE, 0, kSize, out.data(), 1, &e[2], &e[3]),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueFillBuffer(q.get(), c.get(), &fillValue, sizeof(fillValue), 0, kSize, 0,
                                nullptr, &e[4]),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(q.get(), c.get(), CL_FALSE, 0, kSize, outC.data(), 1, &e[4], &e[5]),
            CL_SUCCESS);
  ASSERT_EQ(clFlush(q.get()), CL_SUCCESS);
  // The independent chain finishes although the gated one cannot start (polled,
  // so that an implementation serialising the queue fails instead of hanging).
  EXPECT_TRUE(eventually([&] { return status(e[5]) == CL_COMPLETE; }, 2000ms));
  EXPECT_NE(status(e[3]), CL_COMPLETE);
  EXPECT_EQ(out, Bytes(kSize, 0));
  ASSERT_EQ(clSetUserEventStatus(gate.get(), CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(2, &e[3]), CL_SUCCESS);
  EXPECT_EQ(out, data);
  for (size_t i = 0; i < kSize; i += 4)
    EXPECT_EQ(Bytes(outC.begin() + i, outC.begin() + i + 4), (Bytes{4, 3, 2, 1})) << i;
  for (int i = 1; i < 6; ++i)
    clReleaseEvent(e[i]);
}

TEST_F(EventOrder, FlushSubmitsAndFinishCompletes) {
  Mem mem = buffer(Bytes(16 * kSize, 0));
  const Bytes data = pattern(16 * kSize, 13);
  cl_event event = nullptr;
  ASSERT_EQ(clEnqueueWriteBuffer(queue, mem.get(), CL_FALSE, 0, data.size(), data.data(), 0,
                                 nullptr, &event),
            CL_SUCCESS);
  ASSERT_EQ(clFlush(queue), CL_SUCCESS);
  // After a flush the command eventually completes without further calls.
  EXPECT_TRUE(eventually([&] { return status(event) == CL_COMPLETE; }));
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  EXPECT_EQ(status(event), CL_COMPLETE);
  EXPECT_EQ(contents(mem.get(), data.size()), data);
  clReleaseEvent(event);
}

TEST_F(EventOrder, EventsLinkCommandsAcrossQueues) {
  Queue second = makeQueue(0);
  Mem mem = buffer(Bytes(kSize, 0));
  const Bytes data = pattern(kSize, 14);
  Event gate = userEvent();
  cl_event gateEvent = gate.get(), write = nullptr;
  Bytes out(kSize, 0xAA);
  ASSERT_EQ(clEnqueueWriteBuffer(queue, mem.get(), CL_FALSE, 0, kSize, data.data(), 1, &gateEvent,
                                 &write),
            CL_SUCCESS);
  ASSERT_EQ(clFlush(queue), CL_SUCCESS); // required before another queue waits on it
  ASSERT_EQ(clEnqueueReadBuffer(second.get(), mem.get(), CL_FALSE, 0, kSize, out.data(), 1, &write,
                                nullptr),
            CL_SUCCESS);
  settle(second.get());
  EXPECT_EQ(out, Bytes(kSize, 0xAA));
  ASSERT_EQ(clSetUserEventStatus(gate.get(), CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clFinish(second.get()), CL_SUCCESS);
  EXPECT_EQ(out, data);
  clReleaseEvent(write);
}

} // namespace
} // namespace lanewise::test
