// Contexts (OpenCL 3.0 API, 4.4).
#pragma once

#include "icd/platform.h"

#include <map>
#include <mutex>
#include <utility>
#include <vector>

struct _cl_context : lanewise::icd::Object<_cl_context, lanewise::icd::ObjectKind::Context> {
  using Notify = void(CL_CALLBACK *)(const char *, const void *, size_t, void *);
  using Destructor = void(CL_CALLBACK *)(cl_context, void *);

  ~_cl_context();

  _cl_device_id *device = nullptr; // the only device there is
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
