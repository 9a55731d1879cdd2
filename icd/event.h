// SPDX-License-Identifier: Apache-2.0
// Events and the commands they stand for (OpenCL 3.0 API, 5.11 and 5.12).
#pragma once

#include "icd/context.h"
#include "icd/inline_function.h"

#include <array>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

struct _cl_command_queue;

// An event is the state of one command: queued, submitted, running, then
// complete (CL_COMPLETE) or terminated (a negative error code). A command
// runs once every event it depends on has completed; if one of them was
// terminated, the command is terminated too, without running.
struct _cl_event : lanewise::icd::Object<_cl_event, lanewise::icd::ObjectKind::Event> {
  using Callback = void(CL_CALLBACK *)(cl_event, cl_int, void *);
  // The command's action. It returns CL_SUCCESS, or a negative status that
  // terminates the command. A kernel command's (its arguments and buffers)
  // fits inline.
  static constexpr std::size_t workInlineBytes = 640;
  using Work = lanewise::icd::InlineFunction<cl_int(), workInlineBytes>;

  // A user event (clCreateUserEvent): no queue, starts CL_SUBMITTED.
  explicit _cl_event(_cl_context *context);
  // A command of `queue`, starting CL_QUEUED; a valid handle for the
  // application only once handed out.
  _cl_event(_cl_command_queue *queue, cl_command_type type, Work work);
  // Makes a command's event a handle of the application (the event argument
  // of clEnqueue*): registered, and holding its context, which it may
  // outlive. A command enqueued without one touches neither the registry
  // nor the context's count, written by the command's thread otherwise.
  void handOut();

  // Null for a command's event not handed out.
  lanewise::icd::OwnerRef<_cl_context> context;
  // The queue of the command, null for user events. The event keeps the queue
  // alive only until the command finishes (the queue also refers to its
  // latest commands).
  _cl_command_queue *const queue;
  const cl_command_type commandType;
  // The command's name in the trace (LANEWISE_TRACE), if not its type's.
  std::string traceLabel;

  cl_int status() const;
  // Blocks until the event is complete or terminated; returns the final status.
  cl_int wait();
  bool finished() const { return done_.load(std::memory_order_acquire); }

  // Profiling timestamps (CL_PROFILING_COMMAND_QUEUED ... _COMPLETE), in
  // nanoseconds of the device timer; 0 when profiling is off.
  bool profiled() const { return profiling_; }
  cl_ulong timestamp(cl_profiling_info which) const;

  void addCallback(cl_int type, Callback callback, void *data);

  // Sets the status of a user event: CL_COMPLETE or a negative error.
  void setUserStatus(cl_int status);

  // Makes this command wait for `other`. Only before submit(). If `other`
  // is terminated, this command is too (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_
  // WAIT_LIST) when `inherits`: events of a wait list, and for a barrier the
  // commands before it; not the mere order of a queue (the previous command
  // of an in-order queue, the last barrier), whose next command still runs,
  // so that one terminated command does not terminate every later one.
  void dependOn(_cl_event *other, bool inherits = true);
  // Hands the command to the executor: it runs once its dependencies are met.
  void submit();

private:
  // `handOn`: the command has just run on this executor thread, which may
  // run its first dependent next (runOnExecutor).
  void setStatus(cl_int status, bool handOn = false);
  // `handedOn`: called as the first dependent of a command that has just
  // run on this executor thread (see runOnExecutor).
  void dependencyFinished(bool failed, bool handedOn);
  void execute();
  static cl_ulong now();

  mutable std::mutex mutex_;
  std::condition_variable finished_;
  std::atomic<bool> done_{false}; // status_ <= CL_COMPLETE, read without the lock
  cl_int status_;
  bool profiling_ = false;
  std::array<cl_ulong, 5> timestamps_{};
  Work work_;
  std::atomic<int> pendingDependencies_{1}; // 1 until submit()
  std::atomic<bool> failedDependency_{false};
  struct Dependent {
    _cl_event *event;
    bool inherits;
  };
  // The commands waiting for this one: most often a single one (the next
  // command of an in-order queue), kept without an allocation.
  Dependent firstDependent_{};
  std::vector<Dependent> moreDependents_;
  struct PendingCallback {
    cl_int type;
    Callback callback;
    void *data;
  };
  std::vector<PendingCallback> callbacks_;
  lanewise::icd::OwnerRef<_cl_command_queue> queueUntilFinished_;
};

namespace lanewise::icd {
// Runs `task` on one of the command executor's threads. With `next`,
// called on such a thread, by a command that has just finished for the
// first command it makes ready (the next command of an in-order queue),
// the task runs next on that same thread: no lock, no wake-up, and the
// command's data is still in this core's cache. Not for tasks made ready
// otherwise: an application's callback that enqueued a command and then
// waited for it would wait for its own thread.
void runOnExecutor(std::function<void()> task, bool next = false);
} // namespace lanewise::icd
