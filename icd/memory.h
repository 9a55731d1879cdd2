// Buffers and sub-buffers (OpenCL 3.0 API, 5.2). Device memory is host
// memory: a buffer's storage is an aligned host allocation, or the
// application's own memory for CL_MEM_USE_HOST_PTR.
#pragma once

#include "icd/context.h"
#include "runtime/check.h"

#include <mutex>
#include <vector>

namespace lanewise::icd {
// Memory of released buffers and freed SVM allocations, the most recent
// first (a bounded list): the checked mode names accesses to it.
void noteReleasedMemory(const void *start, size_t size, const std::string &what);
std::vector<runtime::MemoryRange> releasedMemory();
} // namespace lanewise::icd

struct _cl_mem : lanewise::icd::Object<_cl_mem, lanewise::icd::ObjectKind::Mem> {
  using Destructor = void(CL_CALLBACK *)(cl_mem, void *);

  ~_cl_mem();

  lanewise::icd::OwnerRef<_cl_context> context;
  lanewise::icd::OwnerRef<_cl_mem> parent; // set for sub-buffers
  cl_mem_flags flags = 0;                  // as effective, access flag included
  cl_mem_flags requestedFlags = 0;         // as given, for CL_MEM_FLAGS
  size_t size = 0;
  size_t offset = 0;                       // in the parent, for sub-buffers
  void *hostPointer = nullptr;             // CL_MEM_HOST_PTR
  char *storage = nullptr;                 // the bytes, host-addressable
  bool ownsStorage = false;
  bool usesSvmPointer = false;
  std::vector<cl_mem_properties> properties;

  bool hostCanRead() const { return !(flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)); }
  bool hostCanWrite() const { return !(flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)); }

  void addDestructorCallback(Destructor callback, void *data);
  void addMapping(void *pointer);
  bool removeMapping(void *pointer);
  cl_uint mapCount() const;

private:
  mutable std::mutex mutex_;
  std::vector<std::pair<Destructor, void *>> destructors_;
  std::vector<void *> mappings_;
};
