// SPDX-License-Identifier: Apache-2.0
// A move-only callable that keeps what it calls inside itself.
#pragma once

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace lanewise::icd {

// Holds any callable of signature R(Args...) that can be moved: in its own
// storage when it takes at most InlineBytes, on the heap otherwise.
// std::function copies what it holds and keeps only 16 bytes inline, so a
// command's action (a kernel's arguments, the buffers it holds) cost an
// allocation at every enqueue, freed by another thread. An event keeps its
// action in an InlineFunction, and events are recycled (objectPool).
template <typename Signature, std::size_t InlineBytes> class InlineFunction;

template <typename R, typename... Args, std::size_t InlineBytes>
class InlineFunction<R(Args...), InlineBytes> {
public:
  InlineFunction() = default;
  InlineFunction(std::nullptr_t) {}

  template <typename F>
  requires(!std::is_same_v<std::decay_t<F>, InlineFunction> &&
           std::is_invocable_r_v<R, std::decay_t<F> &, Args...>) InlineFunction(F &&callable) {
    using T = std::decay_t<F>;
    if constexpr (fitsInline<T>()) {
      new (storage_) T(std::forward<F>(callable));
      ops_ = &inlineOps<T>;
    } else {
      *reinterpret_cast<T **>(storage_) = new T(std::forward<F>(callable));
      ops_ = &heapOps<T>;
    }
  }

  InlineFunction(InlineFunction &&other) noexcept { take(other); }
  InlineFunction &operator=(InlineFunction &&other) noexcept {
    if (this != &other) {
      reset();
      take(other);
    }
    return *this;
  }
  InlineFunction &operator=(std::nullptr_t) {
    reset();
    return *this;
  }
  InlineFunction(const InlineFunction &) = delete;
  InlineFunction &operator=(const InlineFunction &) = delete;
  ~InlineFunction() { reset(); }

  explicit operator bool() const { return ops_ != nullptr; }

  // Only on a non-empty InlineFunction.
  R operator()(Args... args) { return ops_->call(storage_, std::forward<Args>(args)...); }

private:
  struct Ops {
    R (*call)(void *storage, Args &&...args);
    void (*move)(void *to, void *from) noexcept; // and destroys `from`'s
    void (*destroy)(void *storage) noexcept;
  };

  template <typename T> static constexpr bool fitsInline() {
    return sizeof(T) <= InlineBytes && alignof(T) <= alignof(std::max_align_t) &&
           std::is_nothrow_move_constructible_v<T>;
  }

  template <typename T> static T &held(void *storage) {
    return *std::launder(reinterpret_cast<T *>(storage));
  }
  template <typename T> static T *&pointer(void *storage) {
    return *std::launder(reinterpret_cast<T **>(storage));
  }

  template <typename T>
  static constexpr Ops inlineOps = {
      [](void *storage, Args &&...args) -> R {
        return held<T>(storage)(std::forward<Args>(args)...);
      },
      [](void *to, void *from) noexcept {
        new (to) T(std::move(held<T>(from)));
        held<T>(from).~T();
      },
      [](void *storage) noexcept { held<T>(storage).~T(); },
  };

  template <typename T>
  static constexpr Ops heapOps = {
      [](void *storage, Args &&...args) -> R {
        return (*pointer<T>(storage))(std::forward<Args>(args)...);
      },
      [](void *to, void *from) noexcept { new (to) T *(pointer<T>(from)); },
      [](void *storage) noexcept { delete pointer<T>(storage); },
  };

  void take(InlineFunction &other) noexcept {
    if (other.ops_) {
      other.ops_->move(storage_, other.storage_);
      ops_ = std::exchange(other.ops_, nullptr);
    }
  }
  void reset() noexcept {
    if (ops_)
      std::exchange(ops_, nullptr)->destroy(storage_);
  }

  const Ops *ops_ = nullptr;
  alignas(std::max_align_t)
      std::byte storage_[InlineBytes < sizeof(void *) ? sizeof(void *) : InlineBytes];
};

} // namespace lanewise::icd
