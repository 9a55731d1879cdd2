// SPDX-License-Identifier: Apache-2.0
// The shared compile server: one lanewise-compile-server per user and
// toolchain that outlives the processes that build, so that a process's
// first build costs no start-up of clang's libraries.
//
// It listens on a Unix socket in a folder only its user can enter (the
// driver, spirv/compiler.cpp, chooses it), and forks a child per
// connection: the child serves that client's builds, one after another,
// as the private server does on its standard input and output, and starts
// warm, since the server compiled the first client's first program before
// it listened. A crash in a child ends one connection; the server then
// sends the client a "crashed" reply with the signal. The server ends
// after ten minutes (LANEWISE_COMPILE_SERVER_IDLE seconds) with no
// connection open, and removes its socket; its lock file (the socket's
// name and ".lock") holds its process id.
//
// A client connects and greets (messages.h: the file that becomes the
// child's standard error, where clang writes its crash report, and the
// client's working folder, where the child resolves relative paths); then
// requests and replies follow as on the private server.
#pragma once

#include "messages.h"

#include <functional>
#include <string>

namespace lanewise::compile_server {

// Takes the lock beside `socketPath`, runs `warmUp`, listens, and returns 0
// in the calling process once a forked copy serves the socket (or 0 at
// once when another server holds the lock: it serves or is about to). 1
// when the socket cannot be made. The forked server calls `handle` for
// each request in its per-client children and never returns.
int serveShared(const std::string &socketPath, const std::function<void()> &warmUp,
                const std::function<Message(const Message &)> &handle);

} // namespace lanewise::compile_server
