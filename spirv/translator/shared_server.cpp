// SPDX-License-Identifier: Apache-2.0
#include "shared_server.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <map>

#include <fcntl.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

namespace lanewise::compile_server {

namespace {

// How long the server waits for a client, with none connected, before it
// ends: ten minutes, or LANEWISE_COMPILE_SERVER_IDLE seconds.
int idleMilliseconds() {
  if (const char *text = std::getenv("LANEWISE_COMPILE_SERVER_IDLE")) {
    char *end = nullptr;
    const double seconds = std::strtod(text, &end);
    if (end != text && *end == '\0' && seconds >= 0 && seconds < 86400)
      return static_cast<int>(seconds * 1000);
  }
  return 10 * 60 * 1000;
}

int listenOn(const std::string &path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.size() >= sizeof address.sun_path)
    return -1;
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  const int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listener < 0)
    return -1;
  unlink(path.c_str()); // a server that ended without removing it; the lock is ours
  if (bind(listener, reinterpret_cast<const sockaddr *>(&address), sizeof address) != 0 ||
      listen(listener, 64) != 0) {
    close(listener);
    return -1;
  }
  return listener;
}

// A child's work: the greeting, then the client's builds until it hangs up.
[[noreturn]] void serveClient(int client, const std::function<Message(const Message &)> &handle) {
  int errors = -1;
  std::string folder;
  if (!receiveGreeting(client, errors, folder))
    _exit(0);
  if (errors >= 0) {
    dup2(errors, STDERR_FILENO);
    close(errors);
  }
  // A client whose folder is gone cannot name files relative to it either.
  if (!folder.empty())
    (void)chdir(folder.c_str());
  for (Message request; receive(client, request);)
    if (!send(client, handle(request)))
      _exit(1);
  _exit(0);
}

std::string signalText(int signal) {
  return "ended with signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
}

} // namespace

int serveShared(const std::string &socketPath, const std::function<void()> &warmUp,
                const std::function<Message(const Message &)> &handle) {
  // Only the lock's owner removes and makes the socket; it keeps the lock
  // (held by the open file, shared with the forked server) until it ends.
  const std::string lockPath = socketPath + ".lock";
  const int lock = open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (lock < 0)
    return 1;
  if (flock(lock, LOCK_EX | LOCK_NB) != 0)
    return 0;
  warmUp();
  const int listener = listenOn(socketPath);
  if (listener < 0)
    return 1;
  const pid_t server = fork();
  if (server < 0)
    return 1;
  if (server > 0)
    return 0; // the starter's answer: the socket is served
  setsid();
  // The lock file names the server, for whoever wants to stop it.
  const std::string pid = std::to_string(getpid()) + "\n";
  if (ftruncate(lock, 0) == 0)
    (void)pwrite(lock, pid.data(), pid.size(), 0);
  if (const int nothing = open("/dev/null", O_RDWR | O_CLOEXEC); nothing >= 0)
    dup2(nothing, STDIN_FILENO); // not the starter's warm-up socket

  sigset_t childEnded, previous;
  sigemptyset(&childEnded);
  sigaddset(&childEnded, SIGCHLD);
  sigprocmask(SIG_BLOCK, &childEnded, &previous);
  const int ended = signalfd(-1, &childEnded, SFD_CLOEXEC | SFD_NONBLOCK);
  if (ended < 0)
    _exit(1);
  // Each child's client connection, kept to tell the client of a crash.
  std::map<pid_t, int> clients;
  const int idle = idleMilliseconds();
  for (;;) {
    pollfd events[2] = {{listener, POLLIN, 0}, {ended, POLLIN, 0}};
    const int ready = poll(events, 2, clients.empty() ? idle : -1);
    if (ready < 0 && errno != EINTR)
      break;
    if (ready == 0)
      break; // idle
    if (events[1].revents & POLLIN) {
      signalfd_siginfo information;
      while (read(ended, &information, sizeof information) > 0) {
      }
      int status = 0;
      for (pid_t child; (child = waitpid(-1, &status, WNOHANG)) > 0;) {
        auto found = clients.find(child);
        if (found == clients.end())
          continue;
        if (WIFSIGNALED(status))
          send(found->second, {"crashed", "", signalText(WTERMSIG(status))});
        close(found->second);
        clients.erase(found);
      }
    }
    if (events[0].revents & POLLIN) {
      const int client = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
      if (client < 0)
        continue;
      const pid_t child = fork();
      if (child == 0) {
        close(listener);
        close(ended);
        close(lock);
        for (const auto &[other, connection] : clients)
          close(connection);
        sigprocmask(SIG_SETMASK, &previous, nullptr);
        serveClient(client, handle);
      }
      if (child < 0)
        close(client);
      else
        clients.emplace(child, client);
    }
  }
  // Clients that connect from now on find no socket and start a server.
  unlink(socketPath.c_str());
  _exit(0);
}

} // namespace lanewise::compile_server
