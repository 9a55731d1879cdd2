// SPDX-License-Identifier: Apache-2.0
// The OpenCL object model shared by every API object: the ICD dispatch
// pointer, reference counting, handle validation and the info-query protocol.
#pragma once

#include <CL/cl.h>
#include <CL/cl_icd.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <utility>
#include <string_view>
#include <vector>

namespace lanewise::icd {

// The dispatch table every handle starts with (dispatch.cpp).
extern const cl_icd_dispatch dispatchTable;

enum class ObjectKind : std::uint32_t {
  Platform,
  Device,
  Context,
  CommandQueue,
  Mem,
  Event,
  Program,
  Kernel,
  Sampler,
};

// Every live API object. A handle is valid for the API while its object is
// registered; a handle whose object was deleted answers with the CL_INVALID_*
// error of its kind.
namespace registry {
void add(const void *object, ObjectKind kind);
void remove(const void *object);
bool contains(const void *object, ObjectKind kind);
} // namespace registry

// Storage for API objects. Freed blocks are kept for reuse and keep the
// dispatch pointer in their first word, so that a call through the ICD
// loader on a released handle still reaches Lanewise, which rejects it,
// instead of jumping through freed memory.
namespace objectPool {
void *allocate(std::size_t size);
void release(void *block, std::size_t size);
} // namespace objectPool

// Every API object derives from Object<Derived, Kind>; the dispatch pointer is
// the first word of the object, as the ICD loader requires.
//
// Two counts govern an object's life. apiReferences is the count the
// application sees (clRetain*/clRelease*, CL_*_REFERENCE_COUNT).
// ownerReferences counts the holders of the object: the application (one,
// while apiReferences > 0) and Lanewise's own users, such as commands in
// flight or the queues and buffers of a context. The object, and with it the
// handle, lives until the last holder lets go: OpenCL deletes an object once
// its count is zero and the objects attached to it are released and the
// commands using it have finished.
template <typename Derived, ObjectKind Kind> class Object {
public:
  static constexpr ObjectKind kind = Kind;

  Object() { registry::add(this, Kind); }
  // An object that is registered only once it is handed to the application
  // (publish()): the events of commands enqueued without one returned,
  // which the application can never name, cost no registration.
  struct Unpublished {};
  explicit Object(Unpublished) : published_(false) {}
  void publish() {
    if (!published_) {
      registry::add(this, Kind);
      published_ = true;
    }
  }
  Object(const Object &) = delete;
  Object &operator=(const Object &) = delete;

  static void *operator new(std::size_t size) { return objectPool::allocate(size); }
  static void operator delete(void *block, std::size_t size) { objectPool::release(block, size); }

  cl_uint referenceCount() const { return apiReferences.load(std::memory_order_relaxed); }

  // clRetain*. An object the application released but that lives on for
  // its holders (a context of a live queue, a program of a live kernel) is
  // still valid: the application reaches it again through clGet*Info
  // (CL_QUEUE_CONTEXT, CL_KERNEL_PROGRAM) and may retain it, as PyOpenCL
  // does for every such query. Its first new reference makes the
  // application a holder again.
  bool retain() {
    if (apiReferences.fetch_add(1, std::memory_order_relaxed) == 0)
      retainOwner();
    return true;
  }

  // clRelease*: drops one application reference; false when there is none.
  bool release() {
    cl_uint count = apiReferences.load(std::memory_order_relaxed);
    do {
      if (count == 0)
        return false;
    } while (!apiReferences.compare_exchange_weak(count, count - 1, std::memory_order_acq_rel));
    if (count == 1) {
      static_cast<Derived *>(this)->onApplicationRelease();
      releaseOwner();
    }
    return true;
  }

  void retainOwner() { ownerReferences.fetch_add(1, std::memory_order_relaxed); }
  void releaseOwner() {
    if (ownerReferences.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      if (published_)
        registry::remove(this);
      delete static_cast<Derived *>(this);
    }
  }

  // Hook for objects that act when the application lets go (queues flush).
  void onApplicationRelease() {}

protected:
  ~Object() = default;

private:
  const cl_icd_dispatch *dispatch_ = &dispatchTable;
  std::atomic<cl_uint> apiReferences{1};
  std::atomic<cl_uint> ownerReferences{1};
  bool published_ = true; // registered (set before the application sees it)
};

// A handle of type T (e.g. _cl_mem*) that the application may pass in:
// non-null, registered, and of the right kind.
template <typename T> bool isValid(const T *handle) {
  return handle != nullptr && registry::contains(handle, T::kind);
}

// Holds an owner reference for as long as it lives.
template <typename T> class OwnerRef {
public:
  OwnerRef() = default;
  explicit OwnerRef(T *object) : object_(object) {
    if (object_)
      object_->retainOwner();
  }
  OwnerRef(const OwnerRef &other) : OwnerRef(other.object_) {}
  OwnerRef(OwnerRef &&other) noexcept : object_(std::exchange(other.object_, nullptr)) {}
  OwnerRef &operator=(OwnerRef other) noexcept {
    std::swap(object_, other.object_);
    return *this;
  }
  ~OwnerRef() {
    if (object_)
      object_->releaseOwner();
  }
  T *get() const { return object_; }
  T *operator->() const { return object_; }
  T &operator*() const { return *object_; }
  explicit operator bool() const { return object_ != nullptr; }

private:
  T *object_ = nullptr;
};

// The clGet*Info protocol: param_value may be NULL (size query only); a
// non-NULL param_value smaller than the value is CL_INVALID_VALUE; the size
// is reported through param_value_size_ret when that is non-NULL.
class InfoResult {
public:
  InfoResult(std::size_t size, void *value, std::size_t *sizeReturn)
      : size_(size), value_(value), sizeReturn_(sizeReturn) {}

  cl_int bytes(const void *data, std::size_t count) const {
    if (value_) {
      if (size_ < count)
        return CL_INVALID_VALUE;
      if (count)
        std::memcpy(value_, data, count);
    }
    if (sizeReturn_)
      *sizeReturn_ = count;
    return CL_SUCCESS;
  }

  template <typename T> cl_int operator()(const T &value) const {
    static_assert(std::is_trivially_copyable_v<T>);
    return bytes(&value, sizeof(T));
  }

  // A NUL-terminated string.
  cl_int string(std::string_view text) const {
    std::vector<char> withNul(text.begin(), text.end());
    withNul.push_back('\0');
    return bytes(withNul.data(), withNul.size());
  }

  template <typename T> cl_int array(std::span<const T> values) const {
    return bytes(values.data(), values.size_bytes());
  }

private:
  std::size_t size_;
  void *value_;
  std::size_t *sizeReturn_;
};

// Sets *errcode_ret when the application asked for it.
inline void setError(cl_int *errcodeReturn, cl_int error) {
  if (errcodeReturn)
    *errcodeReturn = error;
}

// A wait list is valid when its count and pointer agree and every event is
// valid and belongs to `context` (OpenCL 3.0, 5.11 and each clEnqueue*).
// A problem is reported to the context, as a failure of `entryPoint`.
cl_int validateWaitList(const char *entryPoint, cl_context context, cl_uint count,
                        const cl_event *events);

} // namespace lanewise::icd
