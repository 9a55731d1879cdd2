// SPDX-License-Identifier: Apache-2.0
// The 128-bit key of Lanewise's disk caches: FNV-1a in two lanes, written
// as 32 hexadecimal digits. Header-only, so that the JIT module, which
// links no part of the runtime, keys its native code the same way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <type_traits>

namespace lanewise::runtime {

template <typename T>
concept HashedScalar = std::is_arithmetic_v<T> || std::is_enum_v<T>;
template <typename T>
concept HashedElement = HashedScalar<T> && !std::is_same_v<T, char>;

class Hash {
public:
  void addBytes(const void *data, std::size_t size) {
    const auto *bytes = static_cast<const unsigned char *>(data);
    for (std::size_t i = 0; i < size; ++i) {
      a_ = (a_ ^ bytes[i]) * 0x100000001b3ull;
      b_ = (b_ ^ bytes[i]) * 0x100000001b3ull + 1;
    }
  }
  // A text, then a separator, so that consecutive texts do not run together.
  void add(std::string_view text) {
    addBytes(text.data(), text.size());
    a_ = (a_ ^ 0xff) * 0x100000001b3ull;
  }
  // A scalar's bytes, or an array's of scalars (no padding; a character
  // array is a text, above).
  template <HashedScalar T> void add(const T &value) { addBytes(&value, sizeof value); }
  template <HashedElement T, std::size_t N> void add(const T (&values)[N]) {
    addBytes(values, sizeof values);
  }
  std::string hex() const {
    char text[33];
    std::snprintf(text, sizeof text, "%016llx%016llx", static_cast<unsigned long long>(a_),
                  static_cast<unsigned long long>(b_));
    return text;
  }

private:
  std::uint64_t a_ = 0xcbf29ce484222325ull, b_ = 0x84222325cbf29ce4ull;
};

} // namespace lanewise::runtime
