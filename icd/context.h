// SPDX-License-Identifier: Apache-2.0
// Contexts (OpenCL 3.0 API, 4.4).
#pragma once

#include "icd/platform.h"

#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

struct _cl_context : lanewise::icd::Object<_cl_context, lanewise::icd::ObjectKind::Context> {
  using Notify = void(CL_CALLBACK *)(const char *, const void *, size_t, void *);
  using Destructor = void(CL_CALLBACK *)(cl_context, void *);

  ~_cl_context();

  // The root device, whose capabilities and limits every device of the
  // context shares; and the devices the context was made with (the root
  // device, its sub-devices, or both), held while the context lives.
  _cl_device_id *device = nullptr;
  std::vector<lanewise::icd::OwnerRef<_cl_device_id>> devices;
  bool hasDevice(const _cl_device_id *candidate) const;
  std::vector<cl_device_id> deviceList() const;
  std::vector<cl_context_properties> properties; // as given, terminated by 0
  Notify notify = nullptr;
  void *notifyData = nullptr;

  // Reports an error to the application's notification callback.
  void report(const char *message) const;

  void addDestructorCallback(Destructor callback, void *data);

  // Coarse-grain SVM allocations of this context: start -> size.
  void addSvmAllocation(void *start, size_t size);
  bool removeSvmAllocation(void *start);
  // The allocation that contains [pointer, pointer + size), if any.
  std::pair<void *, size_t> findSvmAllocation(const void *pointer, size_t size = 1) const;
  std::vector<std::pair<void *, size_t>> svmAllocationList() const;

private:
  mutable std::mutex mutex_;
  std::vector<std::pair<Destructor, void *>> destructors_;
  std::map<char *, size_t> svmAllocations_;
};

namespace lanewise::icd {
// The name of an OpenCL error code ("CL_INVALID_VALUE").
const char *errorName(cl_int error);

// A call that fails for a reason that concerns `context`: reports
// "<message> (<error name>)" to the context's notification callback and
// returns `error`. The message names the entry point, the parameter and the
// problem: fail(*context, CL_INVALID_BUFFER_SIZE, "clCreateBuffer: size is 0").
cl_int fail(const _cl_context &context, cl_int error, const std::string &message);
} // namespace lanewise::icd
