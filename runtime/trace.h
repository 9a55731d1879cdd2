// SPDX-License-Identifier: Apache-2.0
// A look inside launches (LANEWISE_TRACE=FILE): a Chrome trace (JSON, for
// Perfetto or chrome://tracing) written when the process ends, with one
// track per thread: the command queue's commands (kernels, copies, fills),
// builds on the application's threads, and one slice per work-group on the
// worker that ran it.
#pragma once

#include <string>

namespace lanewise::runtime::trace {

// Whether LANEWISE_TRACE names a file.
bool enabled();

// Microseconds since the process started tracing.
double now();

// A slice of the calling thread's track, from `begin` to `end` (now()).
// `args` is the body of a JSON object ("\"bytes\":64"; strings quoted by
// jsonString, runtime/json.h), or empty.
void slice(const char *category, std::string name, double begin, double end,
           std::string args = {});

// Names the calling thread's track ("worker" becomes "worker 2"); the first
// name a thread gets stays.
void nameThread(const char *name);

// A slice from construction to destruction, when tracing.
class Scope {
public:
  // On a thread without a name yet, the track is named `thread`.
  Scope(const char *category, std::string name, const char *thread = "application")
      : category_(category), name_(std::move(name)), begin_(enabled() ? now() : 0) {
    nameThread(thread);
  }
  ~Scope() {
    if (enabled())
      slice(category_, std::move(name_), begin_, now(), std::move(args));
  }
  Scope(const Scope &) = delete;
  Scope &operator=(const Scope &) = delete;

  std::string args; // JSON object body, as for slice()

private:
  const char *category_;
  std::string name_;
  double begin_;
};

} // namespace lanewise::runtime::trace
