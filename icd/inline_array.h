// SPDX-License-Identifier: Apache-2.0
// An array whose size is fixed when it is made, kept inside its owner when
// small.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <span>
#include <utility>

namespace lanewise::icd {

// `size` value-initialised elements: in the object itself when there are
// at most N, on the heap otherwise. Only the elements there are are made
// (and written): for the per-command copies of a kernel's arguments, which
// would otherwise cost an allocation a launch, and which another thread
// reads.
template <typename T, std::size_t N> class InlineArray {
public:
  explicit InlineArray(std::size_t size = 0)
      : size_(size), heap_(size > N ? std::make_unique<T[]>(size) : nullptr) {
    if (!heap_)
      std::uninitialized_value_construct_n(inlineData(), size_);
  }
  // The elements of `other` are moved from, or its heap taken (it is then
  // empty).
  InlineArray(InlineArray &&other) noexcept : size_(other.size_), heap_(std::move(other.heap_)) {
    if (heap_)
      other.size_ = 0;
    else
      std::uninitialized_move_n(other.inlineData(), size_, inlineData());
  }
  InlineArray &operator=(InlineArray &&other) noexcept {
    if (this != &other) {
      this->~InlineArray();
      new (this) InlineArray(std::move(other));
    }
    return *this;
  }
  InlineArray(const InlineArray &) = delete;
  InlineArray &operator=(const InlineArray &) = delete;
  ~InlineArray() {
    if (!heap_)
      std::destroy_n(inlineData(), size_);
  }

  std::size_t size() const { return size_; }
  T *data() { return heap_ ? heap_.get() : inlineData(); }
  const T *data() const { return heap_ ? heap_.get() : inlineData(); }
  T &operator[](std::size_t i) { return data()[i]; }
  const T &operator[](std::size_t i) const { return data()[i]; }
  std::span<T> span() { return {data(), size_}; }
  std::span<const T> span() const { return {data(), size_}; }

private:
  T *inlineData() { return std::launder(reinterpret_cast<T *>(inline_)); }
  const T *inlineData() const { return std::launder(reinterpret_cast<const T *>(inline_)); }

  std::size_t size_;
  std::unique_ptr<T[]> heap_;
  alignas(T) std::byte inline_[N * sizeof(T)];
};

} // namespace lanewise::icd
