// SPDX-License-Identifier: Apache-2.0
// Command queues (OpenCL 3.0 API, 5.1).
#pragma once

#include "icd/event.h"

#include <atomic>
#include <deque>
#include <mutex>
#include <span>

struct _cl_command_queue
    : lanewise::icd::Object<_cl_command_queue, lanewise::icd::ObjectKind::CommandQueue> {
  _cl_command_queue(_cl_context *context, _cl_device_id *device,
                    cl_command_queue_properties properties,
                    std::vector<cl_queue_properties> propertiesArray);

  lanewise::icd::OwnerRef<_cl_context> context;
  _cl_device_id *const device; // one of the context's, which holds it
  const cl_command_queue_properties properties;
  const std::vector<cl_queue_properties> propertiesArray; // as given, for the query

  bool inOrder() const { return !(properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE); }
  bool profiling() const { return properties & CL_QUEUE_PROFILING_ENABLE; }

  // Enqueues a command that runs `work` after the commands it must follow
  // (the previous one of an in-order queue, the last barrier, the wait list).
  // The wait list must have been validated. With `blocking`, waits for the
  // command and answers CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if it
  // was terminated.
  cl_int enqueue(cl_command_type type, std::span<const cl_event> waitList, _cl_event::Work work,
                 cl_event *eventReturn, bool blocking = false, std::string traceLabel = {});
  // A barrier waits for every command enqueued before it, and every later
  // command waits for it.
  cl_int enqueueBarrier(cl_command_type type, std::span<const cl_event> waitList,
                        cl_event *eventReturn);
  // Waits for every command enqueued so far. CL_OUT_OF_RESOURCES if the
  // checked mode or the watchdog stopped a kernel of this queue since the
  // last finish.
  cl_int finish();
  // Set by a kernel command the checked mode aborted (LANEWISE_CHECK_ABORT)
  // or the watchdog stopped (LANEWISE_TIMEOUT).
  std::atomic<bool> kernelAborted{false};

private:
  std::mutex mutex_;
  lanewise::icd::OwnerRef<_cl_event> last_;
  lanewise::icd::OwnerRef<_cl_event> barrier_;
  // The commands not known to be finished, in the order they were enqueued.
  std::deque<lanewise::icd::OwnerRef<_cl_event>> outstanding_;
  std::size_t prunedSize_ = 0; // outstanding_'s size after the last full pass
  void pruneFinished();
  static void handOver(_cl_event *event, cl_event *eventReturn);
};

namespace lanewise::icd {
// Validates the queue and the wait list (same context) shared by every
// clEnqueue* call, `entryPoint`.
cl_int validateEnqueue(const char *entryPoint, cl_command_queue queue, cl_uint numEvents,
                       const cl_event *events);
inline std::span<const cl_event> waitListSpan(cl_uint count, const cl_event *events) {
  return {events, events ? count : 0};
}
} // namespace lanewise::icd
