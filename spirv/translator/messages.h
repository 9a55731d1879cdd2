// SPDX-License-Identifier: Apache-2.0
// The compile server's messages (compile_server.cpp and the driver,
// spirv/compiler.cpp): a message is a list of strings, sent as a 32-bit
// count and then each string as a 32-bit length and its bytes, in the
// machine's byte order (both ends are on one machine).
//
// A request: the clang -cc1 arguments, the word "--translate", the
// translator's options (translate.h), the word "--files", then a path and
// the contents of each file that the build reads but that exists only in
// the request (the source, and the headers it includes). A reply: "ok", "clang" or
// "translator" (which step failed), clang's diagnostics, and the SPIR-V
// module's bytes (for "translator": the translator's reason).
#pragma once

#include <cerrno>
#include <cstdint>
#include <string>
#include <vector>

#include <sys/socket.h>
#include <unistd.h>

namespace lanewise::compile_server {

using Message = std::vector<std::string>;

namespace detail {

inline bool writeAll(int fd, const char *bytes, size_t size) {
  while (size > 0) {
    // send() on sockets so that a peer gone away is an error, not SIGPIPE;
    // write() for anything else.
    ssize_t count = send(fd, bytes, size, MSG_NOSIGNAL);
    if (count < 0 && errno == ENOTSOCK)
      count = write(fd, bytes, size);
    if (count < 0 && errno == EINTR)
      continue;
    if (count <= 0)
      return false;
    bytes += count;
    size -= static_cast<size_t>(count);
  }
  return true;
}

inline bool readAll(int fd, char *bytes, size_t size) {
  while (size > 0) {
    const ssize_t count = read(fd, bytes, size);
    if (count < 0 && errno == EINTR)
      continue;
    if (count <= 0)
      return false;
    bytes += count;
    size -= static_cast<size_t>(count);
  }
  return true;
}

} // namespace detail

inline bool send(int fd, const Message &message) {
  std::string bytes;
  auto put = [&](uint32_t value) { bytes.append(reinterpret_cast<const char *>(&value), 4); };
  put(static_cast<uint32_t>(message.size()));
  for (const std::string &text : message) {
    put(static_cast<uint32_t>(text.size()));
    bytes += text;
  }
  return detail::writeAll(fd, bytes.data(), bytes.size());
}

// False at the end of the stream or on a broken message.
inline bool receive(int fd, Message &message) {
  constexpr uint32_t limit = 1u << 30; // no message of the protocol comes near
  uint32_t count = 0;
  if (!detail::readAll(fd, reinterpret_cast<char *>(&count), 4) || count > (1u << 20))
    return false;
  message.assign(count, {});
  for (std::string &text : message) {
    uint32_t size = 0;
    if (!detail::readAll(fd, reinterpret_cast<char *>(&size), 4) || size > limit)
      return false;
    text.resize(size);
    if (!detail::readAll(fd, text.data(), size))
      return false;
  }
  return true;
}

} // namespace lanewise::compile_server
