// SPDX-License-Identifier: Apache-2.0
#include "icd/queue.h"

#include "icd/api.h"

#include <algorithm>

using namespace lanewise::icd;

_cl_command_queue::_cl_command_queue(_cl_context *context, _cl_device_id *device,
                                     cl_command_queue_properties properties,
                                     std::vector<cl_queue_properties> propertiesArray)
    : context(context), device(device), properties(properties),
      propertiesArray(std::move(propertiesArray)) {}

// Drops finished commands: from the front at every call (commands mostly
// finish in the order they were enqueued), and from the whole list when it
// has doubled since the last full pass. Each enqueue then costs amortised
// constant time, where a full pass at every enqueue made a long pipeline of
// launches quadratic, and the list never holds more than about twice the
// unfinished commands.
void _cl_command_queue::pruneFinished() {
  while (!outstanding_.empty() && outstanding_.front()->finished())
    outstanding_.pop_front();
  if (outstanding_.size() > std::max<std::size_t>(64, 2 * prunedSize_)) {
    std::erase_if(outstanding_, [](const OwnerRef<_cl_event> &e) { return e->finished(); });
    prunedSize_ = outstanding_.size();
  }
}

// Gives the application its reference to a new command's event, or drops
// it when the application asked for none.
void _cl_command_queue::handOver(_cl_event *event, cl_event *eventReturn) {
  if (eventReturn) {
    event->handOut();
    *eventReturn = event;
  } else {
    event->release();
  }
}

cl_int _cl_command_queue::enqueue(cl_command_type type, std::span<const cl_event> waitList,
                                  _cl_event::Work work, cl_event *eventReturn, bool blocking,
                                  std::string traceLabel) {
  auto *event = new _cl_event(this, type, std::move(work));
  event->traceLabel = std::move(traceLabel);
  {
    std::lock_guard lock(mutex_);
    pruneFinished();
    if (inOrder() && last_)
      event->dependOn(last_.get(), /*inherits=*/false);
    if (barrier_)
      event->dependOn(barrier_.get(), /*inherits=*/false);
    for (cl_event other : waitList)
      event->dependOn(other);
    last_ = OwnerRef(event);
    outstanding_.emplace_back(event);
  }
  event->submit();
  cl_int result = CL_SUCCESS;
  if (blocking && event->wait() < 0)
    result = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  handOver(event, eventReturn);
  return result;
}

cl_int _cl_command_queue::enqueueBarrier(cl_command_type type,
                                         std::span<const cl_event> waitList,
                                         cl_event *eventReturn) {
  auto *event = new _cl_event(this, type, nullptr);
  {
    std::lock_guard lock(mutex_);
    pruneFinished();
    if (waitList.empty()) {
      for (const OwnerRef<_cl_event> &earlier : outstanding_)
        event->dependOn(earlier.get());
    } else {
      for (cl_event other : waitList)
        event->dependOn(other);
      if (inOrder() && last_)
        event->dependOn(last_.get(), /*inherits=*/false);
    }
    if (barrier_)
      event->dependOn(barrier_.get(), /*inherits=*/false);
    barrier_ = OwnerRef(event);
    last_ = OwnerRef(event);
    outstanding_.emplace_back(event);
  }
  event->submit();
  handOver(event, eventReturn);
  return CL_SUCCESS;
}

cl_int _cl_command_queue::finish() {
  std::vector<OwnerRef<_cl_event>> pending;
  {
    std::lock_guard lock(mutex_);
    pruneFinished();
    pending.assign(outstanding_.begin(), outstanding_.end());
  }
  // Newest first: once the last command of an in-order queue has finished,
  // so have all the others, and each further wait returns at once instead
  // of sleeping and being woken command by command.
  for (auto event = pending.rbegin(); event != pending.rend(); ++event)
    (*event)->wait();
  return kernelAborted.exchange(false) ? CL_OUT_OF_RESOURCES : CL_SUCCESS;
}

namespace lanewise::icd {
cl_int validateEnqueue(const char *entryPoint, cl_command_queue queue, cl_uint numEvents,
                       const cl_event *events) {
  if (!isValid(queue))
    return CL_INVALID_COMMAND_QUEUE;
  return validateWaitList(entryPoint, queue->context.get(), numEvents, events);
}
} // namespace lanewise::icd

namespace lanewise::icd::api {

namespace {

constexpr cl_command_queue_properties knownQueueProperties =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_ON_DEVICE |
    CL_QUEUE_ON_DEVICE_DEFAULT;
constexpr cl_command_queue_properties supportedQueueProperties =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;

// CL_INVALID_VALUE for properties that are not valid, CL_INVALID_QUEUE_PROPERTIES
// for valid ones the device does not support (OpenCL 3.0,
// clCreateCommandQueueWithProperties).
cl_int checkQueueProperties(cl_command_queue_properties bits, bool sizeGiven) {
  if (bits & ~knownQueueProperties)
    return CL_INVALID_VALUE;
  if ((bits & CL_QUEUE_ON_DEVICE_DEFAULT) && !(bits & CL_QUEUE_ON_DEVICE))
    return CL_INVALID_VALUE;
  if ((bits & CL_QUEUE_ON_DEVICE) && !(bits & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE))
    return CL_INVALID_VALUE;
  if (sizeGiven && !(bits & CL_QUEUE_ON_DEVICE))
    return CL_INVALID_VALUE;
  if (bits & ~supportedQueueProperties)
    return CL_INVALID_QUEUE_PROPERTIES;
  return CL_SUCCESS;
}

std::string propertiesProblem(cl_int error) {
  return error == CL_INVALID_QUEUE_PROPERTIES ? "the device does not support the queue properties"
                                              : "the queue properties are not a valid combination";
}

cl_command_queue createQueue(cl_context context, cl_device_id device,
                             cl_command_queue_properties bits,
                             std::vector<cl_queue_properties> array, cl_int *errcodeReturn) {
  auto *queue = new _cl_command_queue(context, device, bits, std::move(array));
  setError(errcodeReturn, CL_SUCCESS);
  return queue;
}

cl_int checkContextAndDevice(const char *entryPoint, cl_context context, cl_device_id device) {
  if (!isValid(context))
    return CL_INVALID_CONTEXT;
  if (!isValid(device) || !context->hasDevice(device))
    return fail(*context, CL_INVALID_DEVICE,
                std::string(entryPoint) + ": device is not one of the context's devices");
  return CL_SUCCESS;
}

} // namespace

cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(
    cl_context context, cl_device_id device, const cl_queue_properties *properties,
    cl_int *errcodeReturn) {
  constexpr const char *name = "clCreateCommandQueueWithProperties";
  if (cl_int error = checkContextAndDevice(name, context, device); error != CL_SUCCESS) {
    setError(errcodeReturn, error);
    return nullptr;
  }
  cl_command_queue_properties bits = 0;
  bool seenProperties = false, seenSize = false;
  std::vector<cl_queue_properties> array;
  if (properties) {
    for (const cl_queue_properties *p = properties; *p; p += 2) {
      bool &seen = p[0] == CL_QUEUE_PROPERTIES ? seenProperties : seenSize;
      if ((p[0] != CL_QUEUE_PROPERTIES && p[0] != CL_QUEUE_SIZE) || seen) {
        setError(errcodeReturn, fail(*context, CL_INVALID_VALUE,
                                     std::string(name) + ": properties names an unknown "
                                                         "property or one twice"));
        return nullptr;
      }
      seen = true;
      if (p[0] == CL_QUEUE_PROPERTIES)
        bits = p[1];
      array.insert(array.end(), p, p + 2);
    }
    array.push_back(0);
  }
  if (cl_int error = checkQueueProperties(bits, seenSize); error != CL_SUCCESS) {
    setError(errcodeReturn,
             fail(*context, error, std::string(name) + ": " + propertiesProblem(error)));
    return nullptr;
  }
  return createQueue(context, device, bits, std::move(array), errcodeReturn);
}

cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context context, cl_device_id device,
                                                  cl_command_queue_properties bits,
                                                  cl_int *errcodeReturn) {
  if (cl_int error = checkContextAndDevice("clCreateCommandQueue", context, device);
      error != CL_SUCCESS) {
    setError(errcodeReturn, error);
    return nullptr;
  }
  if (cl_int error = checkQueueProperties(bits, false); error != CL_SUCCESS) {
    setError(errcodeReturn,
             fail(*context, error, "clCreateCommandQueue: " + propertiesProblem(error)));
    return nullptr;
  }
  return createQueue(context, device, bits, {}, errcodeReturn);
}

cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue queue) {
  if (!isValid(queue))
    return CL_INVALID_COMMAND_QUEUE;
  return queue->retain() ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
}

// The queue lives on until its commands have finished: each holds it.
cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue queue) {
  if (!isValid(queue))
    return CL_INVALID_COMMAND_QUEUE;
  return queue->release() ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
}

cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue queue, cl_command_queue_info param,
                                         size_t size, void *value, size_t *sizeReturn) {
  if (!isValid(queue))
    return CL_INVALID_COMMAND_QUEUE;
  InfoResult result(size, value, sizeReturn);
  switch (param) {
  case CL_QUEUE_CONTEXT:
    return result(static_cast<cl_context>(queue->context.get()));
  case CL_QUEUE_DEVICE:
    return result(static_cast<cl_device_id>(queue->device));
  case CL_QUEUE_REFERENCE_COUNT:
    return result(queue->referenceCount());
  case CL_QUEUE_PROPERTIES:
    return result(queue->properties);
  case CL_QUEUE_PROPERTIES_ARRAY:
    return result.array<cl_queue_properties>(queue->propertiesArray);
  case CL_QUEUE_SIZE:
    // Only device queues have a size (OpenCL 3.0, clGetCommandQueueInfo).
    return CL_INVALID_COMMAND_QUEUE;
  case CL_QUEUE_DEVICE_DEFAULT:
    return result(cl_command_queue{nullptr});
  default:
    return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clSetCommandQueueProperty(cl_command_queue queue,
                                             cl_command_queue_properties, cl_bool,
                                             cl_command_queue_properties *) {
  // Removed after OpenCL 1.0: queue properties are fixed at creation.
  return isValid(queue) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
}

// Commands are handed to the executor as they are enqueued.
cl_int CL_API_CALL clFlush(cl_command_queue queue) {
  return isValid(queue) ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
}

cl_int CL_API_CALL clFinish(cl_command_queue queue) {
  if (!isValid(queue))
    return CL_INVALID_COMMAND_QUEUE;
  return queue->finish();
}

cl_int CL_API_CALL clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id device,
                                                  cl_command_queue queue) {
  if (cl_int error = checkContextAndDevice("clSetDefaultDeviceCommandQueue", context, device);
      error != CL_SUCCESS)
    return error;
  // The device has no device-side queues (CL_DEVICE_MAX_ON_DEVICE_QUEUES is 0).
  return CL_INVALID_OPERATION;
}

} // namespace lanewise::icd::api
