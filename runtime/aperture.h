// SPDX-License-Identifier: Apache-2.0
// Apertures: the two ranges of the address space that every work-group's
// private memory and __local arena are carved from.
//
// A generic pointer (OpenCL C 3.0, 6.7.1) may hold an address of any named
// space, and to_private, to_local and get_fence (6.15.9, 6.15.10) tell which.
// Each worker thread keeps its own private memory and arena, so a pointer a
// work-item received from another warp, another work-group or another worker
// (through __local or global memory) lies in none of the warp's own. As the
// flat address space of a GPU has its private and shared apertures, Lanewise
// reserves one range of addresses for each space, once per process and with
// no memory behind it, and commits each worker's memory inside it: the space
// of an address is then one comparison, whoever's memory it is.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace lanewise::runtime {

enum class Aperture : std::uint8_t { Private, Local };

namespace detail {
// The reserved range of each aperture, set once when it is first used.
// Atomic because a worker that never allocated reads them.
struct ApertureRange {
  std::atomic<std::uint64_t> base{0}, bytes{0};
};
extern ApertureRange apertureRanges[2];
} // namespace detail

// Whether `address` lies in the aperture (in any worker's memory of that
// space, or in a gap between them).
inline bool inAperture(Aperture aperture, std::uint64_t address) {
  const detail::ApertureRange &range = detail::apertureRanges[static_cast<int>(aperture)];
  return address - range.base.load(std::memory_order_relaxed) <
         range.bytes.load(std::memory_order_relaxed);
}

// Memory committed in an aperture: zero-filled, page-aligned, and followed
// by a page that faults, so that a run past its end stops at once. Owned:
// given back to the aperture when destroyed.
class ApertureMemory {
public:
  ApertureMemory() = default;
  // Throws std::bad_alloc when the aperture has no room or the memory
  // cannot be committed.
  ApertureMemory(Aperture aperture, std::size_t bytes);
  ApertureMemory(ApertureMemory &&other) noexcept;
  ApertureMemory &operator=(ApertureMemory &&other) noexcept;
  ApertureMemory(const ApertureMemory &) = delete;
  ApertureMemory &operator=(const ApertureMemory &) = delete;
  ~ApertureMemory();

  std::byte *get() const { return data_; }

private:
  void release();

  std::byte *data_ = nullptr;
  std::size_t span_ = 0; // committed bytes and the guard page
  Aperture aperture_ = Aperture::Private;
};

} // namespace lanewise::runtime
