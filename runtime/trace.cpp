// SPDX-License-Identifier: Apache-2.0
#include "runtime/trace.h"

#include "runtime/json.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <vector>

namespace lanewise::runtime::trace {

namespace {

struct Event {
  const char *category;
  std::string name;
  double begin, end;
  std::string args;
};

// One per thread that traced something; kept until the process ends (the
// thread may end first).
struct Track {
  int id = 0;
  std::string name;
  std::mutex mutex;
  std::vector<Event> events;
};

// At most this many slices are kept; the ones after are counted.
constexpr std::uint64_t maxEvents = 2'000'000;
std::atomic<std::uint64_t> eventCount{0}, dropped{0};

std::mutex registryMutex;
std::vector<Track *> &tracks() {
  static auto *all = new std::vector<Track *>;
  return *all;
}

const std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();

const char *fileName() {
  static const char *name = [] {
    const char *text = std::getenv("LANEWISE_TRACE");
    return text && *text ? text : nullptr;
  }();
  return name;
}

void writeTrace() {
  std::FILE *file = std::fopen(fileName(), "w");
  if (!file) {
    std::fprintf(stderr, "lanewise: cannot write the trace to '%s' (LANEWISE_TRACE)\n",
                 fileName());
    return;
  }
  std::lock_guard lock(registryMutex);
  std::fputs("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n", file);
  std::fprintf(file, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,"
                     "\"args\":{\"name\":\"Lanewise\"}}");
  for (Track *track : tracks()) {
    std::lock_guard trackLock(track->mutex);
    std::fprintf(file,
                 ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%d,"
                 "\"args\":{\"name\":%s}}",
                 track->id, jsonString(track->name).c_str());
    std::fprintf(file,
                 ",\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":%d,"
                 "\"args\":{\"sort_index\":%d}}",
                 track->id, track->id);
    for (const Event &event : track->events)
      std::fprintf(file,
                   ",\n{\"name\":%s,\"cat\":\"%s\",\"ph\":\"X\",\"pid\":1,\"tid\":%d,"
                   "\"ts\":%.3f,\"dur\":%.3f,\"args\":{%s}}",
                   jsonString(event.name).c_str(), event.category, track->id, event.begin,
                   event.end - event.begin, event.args.c_str());
  }
  std::fprintf(file, "\n],\"otherData\":{\"dropped_slices\":%llu}}\n",
               static_cast<unsigned long long>(dropped.load()));
  std::fclose(file);
}

Track &ownTrack() {
  thread_local Track *track = [] {
    auto *created = new Track;
    std::lock_guard lock(registryMutex);
    if (tracks().empty())
      std::atexit(writeTrace);
    created->id = static_cast<int>(tracks().size()) + 1;
    created->name = "thread " + std::to_string(created->id);
    tracks().push_back(created);
    return created;
  }();
  return *track;
}

} // namespace

bool enabled() { return fileName() != nullptr; }

double now() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
      .count();
}

void slice(const char *category, std::string name, double begin, double end, std::string args) {
  if (!enabled())
    return;
  if (eventCount.fetch_add(1, std::memory_order_relaxed) >= maxEvents) {
    dropped.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  Track &track = ownTrack();
  std::lock_guard lock(track.mutex);
  track.events.push_back({category, std::move(name), begin, end, std::move(args)});
}

void nameThread(const char *name) {
  if (!enabled())
    return;
  Track &track = ownTrack();
  std::lock_guard lock(track.mutex);
  if (track.name.rfind("thread ", 0) == 0)
    track.name = std::string(name) + " " + std::to_string(track.id);
}

} // namespace lanewise::runtime::trace
