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
//
// The shared server (shared_server.h) takes a greeting first: one byte
// that carries a descriptor (SCM_RIGHTS), then the message {"hello", the
// client's working folder}. Its reply "crashed" (with the signal as the
// third string) says that the child serving the client ended.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <sys/socket.h>
#include <sys/uio.h>
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

// The greeting's first part: one byte, with room for one descriptor.
struct OneByteWithDescriptor {
  char byte = 0;
  iovec data{&byte, 1};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr header{};
  OneByteWithDescriptor() {
    header.msg_iov = &data;
    header.msg_iovlen = 1;
    header.msg_control = control;
    header.msg_controllen = sizeof control;
  }
  OneByteWithDescriptor(const OneByteWithDescriptor &) = delete;
  OneByteWithDescriptor &operator=(const OneByteWithDescriptor &) = delete;
};

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

// The client's greeting: `errors` becomes the serving child's standard
// error; relative paths are resolved in `workingFolder`.
inline bool sendGreeting(int fd, int errors, const std::string &workingFolder) {
  detail::OneByteWithDescriptor message;
  cmsghdr *descriptor = CMSG_FIRSTHDR(&message.header);
  descriptor->cmsg_level = SOL_SOCKET;
  descriptor->cmsg_type = SCM_RIGHTS;
  descriptor->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(descriptor), &errors, sizeof(int));
  ssize_t sent;
  while ((sent = sendmsg(fd, &message.header, MSG_NOSIGNAL)) < 0 && errno == EINTR) {
  }
  return sent == 1 && send(fd, {"hello", workingFolder});
}

// The server's side: the descriptor (-1 when none came) and the folder.
inline bool receiveGreeting(int fd, int &errors, std::string &workingFolder) {
  detail::OneByteWithDescriptor message;
  ssize_t received;
  while ((received = recvmsg(fd, &message.header, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR) {
  }
  if (received != 1)
    return false;
  errors = -1;
  if (cmsghdr *descriptor = CMSG_FIRSTHDR(&message.header);
      descriptor && descriptor->cmsg_level == SOL_SOCKET && descriptor->cmsg_type == SCM_RIGHTS)
    std::memcpy(&errors, CMSG_DATA(descriptor), sizeof(int));
  Message hello;
  if (!receive(fd, hello) || hello.size() != 2 || hello[0] != "hello")
    return false;
  workingFolder = hello[1];
  return true;
}

} // namespace lanewise::compile_server
