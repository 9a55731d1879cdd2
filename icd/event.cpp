// SPDX-License-Identifier: Apache-2.0
// Events, the commands they carry, and the executor that runs them.
//
// A command runs when the events it depends on have finished; the last
// one to finish hands it to the executor, a fixed pool of threads. No
// thread blocks on a dependency. A wake-up on a virtual machine is a system
// call and a rescheduled processor, so the executor avoids them: a pool
// thread that has run a command looks for the next for some tens of
// microseconds before it sleeps, a sleeper is woken only when no thread is
// looking, a thread waiting for an event (clFinish, clWaitForEvents) looks
// as long before it sleeps, a command made ready by the one a pool thread
// has just run (the next of an in-order queue) runs next on that thread
// without passing through the pool's list, and clFinish waits for the
// newest command first. An event keeps its command's work inline
// (_cl_event::Work) and its first dependent in itself; events are
// recycled (objectPool). An event enters the object registry, and holds
// its context, only when it is handed to the application (handOut).
#include "icd/event.h"

#include "icd/api.h"
#include "icd/queue.h"
#include "runtime/trace.h"

#include <algorithm>
#include <atomic>
#include <deque>
#include <thread>

using namespace lanewise::icd;

namespace lanewise::icd {

namespace {
// One step of a loop that waits for another thread without sleeping.
void pausePolitely() {
#if defined(__x86_64__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

// A fixed pool of threads that run commands once their dependencies are met.
// It is never destroyed: commands may still be in flight at exit.
class CommandExecutor {
public:
  CommandExecutor() {
    unsigned count = std::max(2u, std::thread::hardware_concurrency());
    for (unsigned i = 0; i < count; ++i)
      std::thread([this] { loop(); }).detach();
  }

  // Wakes a thread only if one sleeps and none looks: one that has just
  // run a task looks for the next a while before it sleeps (loop), so that
  // a queue fed command by command (10,000 launches in a row) pays no
  // wake-up a command.
  void run(std::function<void()> task, bool next) {
    if (next && thisWorker && !thisWorker->next) {
      thisWorker->next = std::move(task);
      return;
    }
    bool wake;
    {
      std::lock_guard lock(mutex_);
      tasks_.push_back(std::move(task));
      queued_.store(tasks_.size(), std::memory_order_release);
      wake = sleepers_ > 0 && spinners_.load(std::memory_order_acquire) == 0;
    }
    if (wake)
      ready_.notify_one();
  }

private:
  struct Worker {
    std::function<void()> next; // the task to run after the current one
  };
  static thread_local Worker *thisWorker; // null on threads not of the executor

  void loop() {
    Worker worker;
    thisWorker = &worker;
    for (;;) {
      // Some tens of microseconds of looking before sleeping. A thread that
      // looks takes the lock afterwards whatever it saw, so run() need not
      // wake a sleeper while one looks.
      spinners_.fetch_add(1, std::memory_order_acq_rel);
      for (int spin = 0; spin < 1000 && queued_.load(std::memory_order_acquire) == 0; ++spin)
        pausePolitely();
      spinners_.fetch_sub(1, std::memory_order_acq_rel);
      std::function<void()> task;
      {
        std::unique_lock lock(mutex_);
        if (tasks_.empty()) {
          ++sleepers_;
          ready_.wait(lock, [this] { return !tasks_.empty(); });
          --sleepers_;
        }
        task = std::move(tasks_.front());
        tasks_.pop_front();
        queued_.store(tasks_.size(), std::memory_order_release);
      }
      task();
      while (worker.next) {
        std::function<void()> next = std::move(worker.next);
        worker.next = nullptr;
        next();
      }
    }
  }

  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> tasks_;
  std::atomic<std::size_t> queued_{0}; // tasks_.size(), for looking without the lock
  std::atomic<unsigned> spinners_{0};  // threads looking for a task before sleeping
  unsigned sleepers_ = 0;              // threads waiting on ready_ (under mutex_)
};

thread_local CommandExecutor::Worker *CommandExecutor::thisWorker = nullptr;
} // namespace

void runOnExecutor(std::function<void()> task, bool next) {
  static CommandExecutor *executor = new CommandExecutor;
  executor->run(std::move(task), next);
}

cl_int validateWaitList(const char *entryPoint, cl_context context, cl_uint count,
                        const cl_event *events) {
  auto failed = [&](cl_int error, const std::string &problem) {
    return context ? fail(*context, error, std::string(entryPoint) + ": " + problem) : error;
  };
  if (count && !events)
    return failed(CL_INVALID_EVENT_WAIT_LIST, "num_events_in_wait_list is " +
                                                  std::to_string(count) +
                                                  " but event_wait_list is NULL");
  if (!count && events)
    return failed(CL_INVALID_EVENT_WAIT_LIST,
                  "event_wait_list is not NULL but num_events_in_wait_list is 0");
  for (cl_uint i = 0; i < count; ++i) {
    const std::string event = "event_wait_list[" + std::to_string(i) + "]";
    if (!isValid(events[i]))
      return failed(CL_INVALID_EVENT_WAIT_LIST, event + " is not a valid event");
    if (context && events[i]->context.get() != context)
      return failed(CL_INVALID_CONTEXT, event + " belongs to another context than the queue");
  }
  return CL_SUCCESS;
}

} // namespace lanewise::icd

namespace {
constexpr std::size_t timestampIndex(cl_profiling_info which) {
  return which - CL_PROFILING_COMMAND_QUEUED;
}
} // namespace

_cl_event::_cl_event(_cl_context *context)
    : context(context), queue(nullptr), commandType(CL_COMMAND_USER), status_(CL_SUBMITTED) {}

_cl_event::_cl_event(_cl_command_queue *queue, cl_command_type type, Work work)
    : Object(Unpublished{}), queue(queue), commandType(type), status_(CL_QUEUED),
      profiling_(queue->profiling()), work_(std::move(work)), queueUntilFinished_(queue) {
  if (profiling_)
    timestamps_[timestampIndex(CL_PROFILING_COMMAND_QUEUED)] = now();
}

void _cl_event::handOut() {
  context = OwnerRef(queue->context.get());
  publish();
}

cl_ulong _cl_event::now() {
  cl_ulong time = 0;
  lanewise::icd::api::clGetHostTimer(lanewise::icd::theDevice(), &time);
  return time;
}

cl_int _cl_event::status() const {
  std::lock_guard lock(mutex_);
  return status_;
}

cl_int _cl_event::wait() {
  // Some tens of microseconds of looking before sleeping: a small command
  // (clFinish after one launch) is then seen done without a wake-up.
  for (int spin = 0; spin < 1000 && !done_.load(std::memory_order_acquire); ++spin)
    pausePolitely();
  std::unique_lock lock(mutex_);
  finished_.wait(lock, [this] { return status_ <= CL_COMPLETE; });
  return status_;
}

cl_ulong _cl_event::timestamp(cl_profiling_info which) const {
  std::lock_guard lock(mutex_);
  return timestamps_[timestampIndex(which)];
}

void _cl_event::addCallback(cl_int type, Callback callback, void *data) {
  cl_int current;
  {
    std::lock_guard lock(mutex_);
    current = status_;
    if (current > type) {
      callbacks_.push_back({type, callback, data});
      return;
    }
  }
  // The event is already at or past `type`: call now.
  callback(this, current < 0 ? current : type, data);
}

void _cl_event::setStatus(cl_int status, bool handOn) {
  std::vector<PendingCallback> due;
  Dependent firstDependent{};
  std::vector<Dependent> dependents;
  const bool finishing = status <= CL_COMPLETE;
  {
    std::lock_guard lock(mutex_);
    status_ = status;
    if (finishing)
      done_.store(true, std::memory_order_release);
    if (profiling_) {
      cl_ulong time = now();
      if (status == CL_SUBMITTED)
        timestamps_[timestampIndex(CL_PROFILING_COMMAND_SUBMIT)] = time;
      if (status == CL_RUNNING)
        timestamps_[timestampIndex(CL_PROFILING_COMMAND_START)] = time;
      if (finishing) {
        // A command terminated before it ran still gets ordered timestamps.
        for (cl_profiling_info which : {CL_PROFILING_COMMAND_SUBMIT, CL_PROFILING_COMMAND_START})
          if (!timestamps_[timestampIndex(which)])
            timestamps_[timestampIndex(which)] = time;
        timestamps_[timestampIndex(CL_PROFILING_COMMAND_END)] = time;
        timestamps_[timestampIndex(CL_PROFILING_COMMAND_COMPLETE)] = time;
      }
    }
    auto split = std::stable_partition(callbacks_.begin(), callbacks_.end(),
                                       [&](const PendingCallback &c) { return status > c.type; });
    due.assign(split, callbacks_.end());
    callbacks_.erase(split, callbacks_.end());
    if (finishing) {
      firstDependent = std::exchange(firstDependent_, {});
      dependents.swap(moreDependents_);
    }
  }
  if (finishing)
    finished_.notify_all();
  for (const PendingCallback &c : due)
    c.callback(this, status < 0 ? status : c.type, c.data);
  if (firstDependent.event)
    firstDependent.event->dependencyFinished(firstDependent.inherits && status < 0, handOn);
  for (const Dependent &dependent : dependents)
    dependent.event->dependencyFinished(dependent.inherits && status < 0, /*handedOn=*/false);
}

void _cl_event::setUserStatus(cl_int status) {
  retainOwner();
  setStatus(status);
  releaseOwner();
}

void _cl_event::dependOn(_cl_event *other, bool inherits) {
  std::lock_guard lock(other->mutex_);
  if (other->status_ <= CL_COMPLETE) {
    if (other->status_ < 0 && inherits)
      failedDependency_ = true;
    return;
  }
  if (!other->firstDependent_.event)
    other->firstDependent_ = {this, inherits};
  else
    other->moreDependents_.push_back({this, inherits});
  pendingDependencies_.fetch_add(1, std::memory_order_relaxed);
}

void _cl_event::submit() {
  retainOwner(); // held while in flight, released when finished
  setStatus(CL_SUBMITTED);
  dependencyFinished(false, /*handedOn=*/false);
}

void _cl_event::dependencyFinished(bool failed, bool handedOn) {
  if (failed)
    failedDependency_ = true;
  if (pendingDependencies_.fetch_sub(1, std::memory_order_acq_rel) == 1)
    runOnExecutor([this] { execute(); }, handedOn);
}

namespace {

// The name of a command type, for the trace.
std::string commandName(cl_command_type type) {
  switch (type) {
  case CL_COMMAND_NDRANGE_KERNEL:
    return "kernel";
  case CL_COMMAND_TASK:
    return "task";
  case CL_COMMAND_READ_BUFFER:
    return "read buffer";
  case CL_COMMAND_WRITE_BUFFER:
    return "write buffer";
  case CL_COMMAND_COPY_BUFFER:
    return "copy buffer";
  case CL_COMMAND_READ_BUFFER_RECT:
    return "read buffer rect";
  case CL_COMMAND_WRITE_BUFFER_RECT:
    return "write buffer rect";
  case CL_COMMAND_COPY_BUFFER_RECT:
    return "copy buffer rect";
  case CL_COMMAND_FILL_BUFFER:
    return "fill buffer";
  case CL_COMMAND_MAP_BUFFER:
    return "map buffer";
  case CL_COMMAND_UNMAP_MEM_OBJECT:
    return "unmap";
  case CL_COMMAND_MIGRATE_MEM_OBJECTS:
    return "migrate";
  case CL_COMMAND_MARKER:
    return "marker";
  case CL_COMMAND_BARRIER:
    return "barrier";
  case CL_COMMAND_NATIVE_KERNEL:
    return "native kernel";
  default:
    return "command " + std::to_string(type);
  }
}

} // namespace

void _cl_event::execute() {
  cl_int result = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  if (!failedDependency_) {
    setStatus(CL_RUNNING);
    const bool tracing = lanewise::runtime::trace::enabled() && work_;
    if (tracing)
      lanewise::runtime::trace::nameThread("command queue");
    const double begin = tracing ? lanewise::runtime::trace::now() : 0;
    result = work_ ? work_() : CL_SUCCESS;
    if (tracing) {
      lanewise::runtime::trace::slice(
          "command", traceLabel.empty() ? commandName(commandType) : traceLabel, begin,
          lanewise::runtime::trace::now(),
          result == CL_SUCCESS ? std::string() : "\"status\":" + std::to_string(result));
    }
  }
  work_ = nullptr; // lets go of the objects the command used
  OwnerRef<_cl_command_queue> queue = std::move(queueUntilFinished_);
  setStatus(result == CL_SUCCESS ? CL_COMPLETE : result, /*handOn=*/true);
  releaseOwner();
}

namespace lanewise::icd::api {

cl_int CL_API_CALL clWaitForEvents(cl_uint numEvents, const cl_event *events) {
  if (numEvents == 0 || !events)
    return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < numEvents; ++i) {
    if (!isValid(events[i]))
      return CL_INVALID_EVENT;
    if (events[i]->context.get() != events[0]->context.get())
      return CL_INVALID_CONTEXT;
  }
  cl_int result = CL_SUCCESS;
  for (cl_uint i = 0; i < numEvents; ++i)
    if (events[i]->wait() < 0)
      result = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  return result;
}

cl_int CL_API_CALL clGetEventInfo(cl_event event, cl_event_info param, size_t size, void *value,
                                  size_t *sizeReturn) {
  if (!isValid(event))
    return CL_INVALID_EVENT;
  InfoResult result(size, value, sizeReturn);
  switch (param) {
  case CL_EVENT_COMMAND_QUEUE:
    return result(static_cast<cl_command_queue>(event->queue));
  case CL_EVENT_CONTEXT:
    return result(static_cast<cl_context>(event->context.get()));
  case CL_EVENT_COMMAND_TYPE:
    return result(event->commandType);
  case CL_EVENT_COMMAND_EXECUTION_STATUS:
    return result(event->status());
  case CL_EVENT_REFERENCE_COUNT:
    return result(event->referenceCount());
  default:
    return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clRetainEvent(cl_event event) {
  if (!isValid(event))
    return CL_INVALID_EVENT;
  return event->retain() ? CL_SUCCESS : CL_INVALID_EVENT;
}

cl_int CL_API_CALL clReleaseEvent(cl_event event) {
  if (!isValid(event))
    return CL_INVALID_EVENT;
  return event->release() ? CL_SUCCESS : CL_INVALID_EVENT;
}

cl_int CL_API_CALL clGetEventProfilingInfo(cl_event event, cl_profiling_info param, size_t size,
                                           void *value, size_t *sizeReturn) {
  if (!isValid(event))
    return CL_INVALID_EVENT;
  // Not available for user events, for queues without profiling, or before
  // the command has finished (OpenCL 3.0, clGetEventProfilingInfo).
  if (!event->profiled() || !event->finished())
    return CL_PROFILING_INFO_NOT_AVAILABLE;
  if (param < CL_PROFILING_COMMAND_QUEUED || param > CL_PROFILING_COMMAND_COMPLETE)
    return CL_INVALID_VALUE;
  return InfoResult(size, value, sizeReturn)(event->timestamp(param));
}

cl_int CL_API_CALL clSetEventCallback(cl_event event, cl_int type, _cl_event::Callback callback,
                                      void *userData) {
  if (!isValid(event))
    return CL_INVALID_EVENT;
  if (!callback || (type != CL_SUBMITTED && type != CL_RUNNING && type != CL_COMPLETE))
    return CL_INVALID_VALUE;
  event->addCallback(type, callback, userData);
  return CL_SUCCESS;
}

cl_event CL_API_CALL clCreateUserEvent(cl_context context, cl_int *errcodeReturn) {
  if (!isValid(context)) {
    setError(errcodeReturn, CL_INVALID_CONTEXT);
    return nullptr;
  }
  setError(errcodeReturn, CL_SUCCESS);
  return new _cl_event(context);
}

cl_int CL_API_CALL clSetUserEventStatus(cl_event event, cl_int status) {
  if (!isValid(event) || event->commandType != CL_COMMAND_USER)
    return CL_INVALID_EVENT;
  if (status > CL_COMPLETE)
    return CL_INVALID_VALUE;
  // The status of a user event can be set only once.
  if (event->status() != CL_SUBMITTED)
    return CL_INVALID_OPERATION;
  event->setUserStatus(status);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue queue, cl_uint numEvents,
                                               const cl_event *events, cl_event *event) {
  if (cl_int error = validateEnqueue("clEnqueueMarkerWithWaitList", queue, numEvents, events);
      error != CL_SUCCESS)
    return error;
  // With an empty wait list a marker waits for every earlier command.
  if (numEvents == 0)
    return queue->enqueueBarrier(CL_COMMAND_MARKER, {}, event);
  return queue->enqueue(CL_COMMAND_MARKER, waitListSpan(numEvents, events), nullptr, event);
}

cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue queue, cl_uint numEvents,
                                                const cl_event *events, cl_event *event) {
  if (cl_int error = validateEnqueue("clEnqueueBarrierWithWaitList", queue, numEvents, events);
      error != CL_SUCCESS)
    return error;
  return queue->enqueueBarrier(CL_COMMAND_BARRIER, waitListSpan(numEvents, events), event);
}

cl_int CL_API_CALL clEnqueueMarker(cl_command_queue queue, cl_event *event) {
  if (!event)
    return isValid(queue) ? CL_INVALID_VALUE : CL_INVALID_COMMAND_QUEUE;
  return api::clEnqueueMarkerWithWaitList(queue, 0, nullptr, event);
}

cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue queue) {
  return api::clEnqueueBarrierWithWaitList(queue, 0, nullptr, nullptr);
}

cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue queue, cl_uint numEvents,
                                          const cl_event *events) {
  if (!isValid(queue))
    return CL_INVALID_COMMAND_QUEUE;
  if (numEvents == 0 || !events)
    return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < numEvents; ++i) {
    if (!isValid(events[i]))
      return CL_INVALID_EVENT;
    if (events[i]->context.get() != queue->context.get())
      return CL_INVALID_CONTEXT;
  }
  return queue->enqueueBarrier(CL_COMMAND_BARRIER, waitListSpan(numEvents, events), nullptr);
}

} // namespace lanewise::icd::api
