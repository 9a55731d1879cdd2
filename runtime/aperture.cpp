// SPDX-License-Identifier: Apache-2.0
#include "runtime/aperture.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <mutex>
#include <new>

namespace lanewise::runtime {

namespace detail {
ApertureRange apertureRanges[2];
} // namespace detail

namespace {

// What each aperture reserves: room for the private memory of 256 workers
// at the most a work-group may have (1 GiB, icd/kernel.cpp), and for as
// many arenas. Reserved addresses cost no memory (they show in a process's
// virtual size); a process whose address space is limited (ulimit -v) gets
// less, halved until the reservation succeeds.
constexpr std::uint64_t reservedBytes[2] = {std::uint64_t(1) << 38, std::uint64_t(1) << 34};
constexpr std::uint64_t leastReservedBytes = std::uint64_t(1) << 30;

std::size_t pageBytes() {
  static const std::size_t bytes = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return bytes;
}

// An aperture's reserved range and its free parts, first fit. Allocations
// are rare (a worker's memory grows only when a launch needs more), so one
// lock serves.
class Space {
public:
  explicit Space(Aperture aperture) : aperture_(aperture) {}

  std::byte *allocate(std::size_t span) {
    std::lock_guard lock(mutex_);
    if (!reserved_)
      reserve();
    for (auto it = free_.begin(); it != free_.end(); ++it) {
      if (it->second < span)
        continue;
      const std::uint64_t offset = it->first, bytes = it->second;
      free_.erase(it);
      if (bytes > span)
        free_.emplace(offset + span, bytes - span);
      return base_ + offset;
    }
    throw std::bad_alloc();
  }

  void free(std::byte *data, std::size_t span) {
    std::lock_guard lock(mutex_);
    const std::uint64_t offset = static_cast<std::uint64_t>(data - base_);
    auto [it, inserted] = free_.emplace(offset, span);
    if (const auto next = std::next(it);
        next != free_.end() && it->first + it->second == next->first) {
      it->second += next->second;
      free_.erase(next);
    }
    if (it != free_.begin()) {
      const auto previous = std::prev(it);
      if (previous->first + previous->second == it->first) {
        previous->second += it->second;
        free_.erase(it);
      }
    }
  }

private:
  void reserve() {
    for (std::uint64_t bytes = reservedBytes[static_cast<int>(aperture_)];
         bytes >= leastReservedBytes; bytes /= 2) {
      void *p = mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (p == MAP_FAILED)
        continue;
      base_ = static_cast<std::byte *>(p);
      free_.emplace(0, bytes);
      detail::ApertureRange &range = detail::apertureRanges[static_cast<int>(aperture_)];
      range.base.store(reinterpret_cast<std::uint64_t>(p), std::memory_order_relaxed);
      range.bytes.store(bytes, std::memory_order_relaxed);
      reserved_ = true;
      return;
    }
    throw std::bad_alloc();
  }

  const Aperture aperture_;
  std::mutex mutex_;
  bool reserved_ = false;
  std::byte *base_ = nullptr;
  std::map<std::uint64_t, std::uint64_t> free_; // offset -> bytes
};

Space &space(Aperture aperture) {
  // Never destroyed: workers' thread-local memory is given back after
  // static destructors may have run.
  static Space *const spaces[2] = {new Space(Aperture::Private), new Space(Aperture::Local)};
  return *spaces[static_cast<int>(aperture)];
}

} // namespace

ApertureMemory::ApertureMemory(Aperture aperture, std::size_t bytes) : aperture_(aperture) {
  const std::size_t page = pageBytes();
  const std::size_t committed = (std::max<std::size_t>(bytes, 1) + page - 1) / page * page;
  std::byte *data = space(aperture).allocate(committed + page);
  // Fresh zero pages over the reserved ones; the guard page stays reserved.
  if (mmap(data, committed, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
           0) == MAP_FAILED) {
    space(aperture).free(data, committed + page);
    throw std::bad_alloc();
  }
  data_ = data;
  span_ = committed + page;
}

ApertureMemory::ApertureMemory(ApertureMemory &&other) noexcept
    : data_(other.data_), span_(other.span_), aperture_(other.aperture_) {
  other.data_ = nullptr;
  other.span_ = 0;
}

ApertureMemory &ApertureMemory::operator=(ApertureMemory &&other) noexcept {
  if (this != &other) {
    release();
    data_ = other.data_;
    span_ = other.span_;
    aperture_ = other.aperture_;
    other.data_ = nullptr;
    other.span_ = 0;
  }
  return *this;
}

ApertureMemory::~ApertureMemory() { release(); }

void ApertureMemory::release() {
  if (!data_)
    return;
  // Back to reserved addresses: the memory goes back to the system.
  mmap(data_, span_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
  space(aperture_).free(data_, span_);
  data_ = nullptr;
  span_ = 0;
}

} // namespace lanewise::runtime
