// SPDX-License-Identifier: Apache-2.0
// The actions of one stress thread. Each action creates what it needs,
// enqueues commands across the thread's own queue and the two shared queues,
// checks every output against values computed on the host, and releases
// what it created (Owned counts each create and each release).
#include "stress.h"

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>

namespace lanewise::stress {

namespace {

constexpr cl_uint kSentinel = 0xdeadbeef;
constexpr std::uint8_t kSentinelByte = 0xcd;

void CL_CALLBACK onEvent(cl_event, cl_int status, void *data) {
  auto *record = static_cast<CallbackRecord *>(data);
  record->status.store(status);
  record->fired.fetch_add(1);
}

cl_uint axpb(cl_uint a, cl_uint x, cl_uint b, cl_uint extra) { return a * x + b + extra; }

template <typename T>
std::string describeMismatch(const std::vector<T> &got, const std::vector<T> &expected) {
  size_t first = got.size(), count = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (got[i] != expected[i]) {
      first = std::min(first, i);
      ++count;
    }
  std::ostringstream text;
  text << count << " of " << got.size() << " elements differ, the first at " << first << ": got "
       << +got[first] << ", expected " << +expected[first];
  return text.str();
}

} // namespace

std::string axpbSource(cl_uint extra) {
  return "kernel void axpb(global const uint *x, global uint *y, uint a, uint b) {\n"
         "  size_t i = get_global_id(0);\n"
         "  y[i] = a * x[i] + b + " +
         std::to_string(extra) + "u;\n}\n";
}

const char *actionName(Action action) {
  switch (action) {
  case Action::BuildFromSource:
    return "build from source";
  case Action::BuildFromIL:
    return "build from IL or binary";
  case Action::BuffersAndSubBuffers:
    return "buffers and sub-buffers";
  case Action::LaunchChain:
    return "kernel launch chain";
  case Action::GateWithUserEvent:
    return "commands gated by a user event";
  case Action::ReadWriteMapFill:
    return "reads, writes, maps, fills, copies";
  case Action::Count:
    break;
  }
  return "?";
}

const char *actionKey(Action action) {
  switch (action) {
  case Action::BuildFromSource:
    return "source";
  case Action::BuildFromIL:
    return "il";
  case Action::BuffersAndSubBuffers:
    return "buffers";
  case Action::LaunchChain:
    return "launch";
  case Action::GateWithUserEvent:
    return "gate";
  case Action::ReadWriteMapFill:
    return "transfers";
  case Action::Count:
    break;
  }
  return "?";
}

const char *kindName(Kind kind) {
  switch (kind) {
  case Kind::Mem:
    return "memory objects";
  case Kind::Event:
    return "events";
  case Kind::Program:
    return "programs";
  case Kind::Kernel:
    return "kernels";
  case Kind::Count:
    break;
  }
  return "?";
}

void Ledger::add(const Ledger &other) {
  for (size_t k = 0; k < kKinds; ++k) {
    created[k] += other.created[k];
    released[k] += other.released[k];
    releaseErrors[k] += other.releaseErrors[k];
  }
}

void Failures::add(std::string message) {
  std::lock_guard lock(mutex_);
  ++count_;
  if (messages_.size() < 50)
    messages_.push_back(std::move(message));
}

std::vector<std::string> Failures::messages() const {
  std::lock_guard lock(mutex_);
  return messages_;
}

size_t Failures::count() const {
  std::lock_guard lock(mutex_);
  return count_;
}

// clBuildProgram's callback: counted, and awaited before the program is used.
struct Worker::BuildRecord {
  std::mutex mutex;
  std::condition_variable done;
  int fired = 0;
  std::atomic<int> *total = nullptr;

  static void CL_CALLBACK onBuilt(cl_program, void *data) {
    auto *record = static_cast<BuildRecord *>(data);
    std::lock_guard lock(record->mutex);
    ++record->fired;
    ++*record->total;
    record->done.notify_all();
  }
};

// A kernel of the thread's own, from the shared program or one the thread built.
struct Worker::PoolKernel {
  Owned<cl_program> program; // empty for the shared program
  Owned<cl_kernel> kernel;
  cl_uint extra = 0;
};

// Commands that run one after another, possibly on different queues: each
// waits for the previous one through its event, or, on the same in-order
// queue, sometimes through the queue's order alone. Before releasing its
// events the chain waits for them, so that the host memory its commands use
// outlives them even when an action gives up half-way.
struct Worker::Chain {
  explicit Chain(Worker &worker) : worker(worker) {}
  Chain(const Chain &) = delete;
  ~Chain() { drain(); }

  Worker &worker;
  std::vector<Owned<cl_event>> events;
  std::vector<std::string> names; // where each event came from, for messages
  cl_command_queue lastQueue = nullptr;
  bool explicitWaits = false; // never rely on a queue's order alone

  cl_event last() const { return events.empty() ? nullptr : events.back().get(); }

  // enqueue(waitCount, waitList, &event) runs the clEnqueue* call.
  template <typename Enqueue> bool add(cl_command_queue queue, const char *what, Enqueue enqueue) {
    cl_event previous = last();
    const bool byOrder = previous && queue == lastQueue &&
                         queue != worker.shared_.outOfOrderQueue && !explicitWaits &&
                         worker.chance(50);
    const cl_uint count = previous && !byOrder ? 1 : 0;
    return enqueued(queue, what, [&](cl_event *event) {
      return enqueue(count, count ? &previous : nullptr, event);
    });
  }

  // enqueue(&event) runs the clEnqueue* call; the event joins the chain.
  template <typename Enqueue>
  bool enqueued(cl_command_queue queue, const char *what, Enqueue enqueue) {
    worker.status_.at(what);
    cl_event event = nullptr;
    const cl_int err = enqueue(&event);
    // A blocking command whose wait list failed may still return its event.
    if (event) {
      events.emplace_back(worker.ledger, event);
      names.push_back(std::string(what) + " on " + worker.queueName(queue));
      lastQueue = queue;
    }
    if (err != CL_SUCCESS)
      return worker.fail(std::string(what) + " returned " + std::to_string(err) + statuses());
    if (!event)
      return worker.fail(std::string(what) + " returned no event");
    return true;
  }

  // A marker or a barrier after the last command, on a random queue. When
  // it follows on the thread's own queue, sometimes with an empty wait list:
  // it then waits for every command enqueued before it on that queue; so
  // does one that starts a chain, on the thread's own queue. (Not on a
  // shared queue: there it would also wait for other threads' commands, and
  // be terminated with a command that another thread's user event ended.)
  bool addMarkerOrBarrier() {
    cl_command_queue queue = worker.randomQueue();
    cl_event previous = last();
    const bool emptyList = !previous || (queue == lastQueue && queue == worker.ownQueue_ &&
                                         !explicitWaits && worker.chance(50));
    if (!previous)
      queue = worker.ownQueue_;
    const bool barrier = worker.chance(50);
    const char *what = barrier ? (emptyList ? "clEnqueueBarrierWithWaitList (empty list)"
                                            : "clEnqueueBarrierWithWaitList")
                               : (emptyList ? "clEnqueueMarkerWithWaitList (empty list)"
                                            : "clEnqueueMarkerWithWaitList");
    return enqueued(queue, what, [&](cl_event *event) {
      const cl_uint count = emptyList ? 0 : 1;
      const cl_event *list = emptyList ? nullptr : &previous;
      return barrier ? clEnqueueBarrierWithWaitList(queue, count, list, event)
                     : clEnqueueMarkerWithWaitList(queue, count, list, event);
    });
  }

  // The statuses of the chain's commands, for a failure message.
  std::string statuses() const {
    std::string text = "; the chain's commands:";
    for (size_t i = 0; i < events.size(); ++i) {
      cl_int status = 1;
      clGetEventInfo(events[i].get(), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status,
                     nullptr);
      text += "\n    " + names[i] + ": status " + std::to_string(status);
    }
    return text;
  }

  // Waits for the last command; false (and a failure) unless it completed.
  bool wait(const char *what) {
    if (events.empty())
      return true;
    worker.status_.at(what);
    const cl_int err = clWaitForEvents(1, events.back().address());
    if (err == CL_SUCCESS)
      return true;
    return worker.fail(std::string(what) + " returned " + std::to_string(err) + statuses());
  }

  void drain() {
    std::vector<cl_event> list;
    for (const Owned<cl_event> &event : events)
      list.push_back(event.get());
    if (!list.empty()) {
      worker.status_.at("clWaitForEvents (releasing a chain)");
      clWaitForEvents(static_cast<cl_uint>(list.size()), list.data());
    }
    events.clear();
  }
};

// Commands gated by a user event that the thread sets later, at the start
// of a later action: write x, run axpb, (a marker,) read y.
struct Worker::Gate {
  explicit Gate(Worker &worker) : chain(worker) { chain.explicitWaits = true; }

  cl_int outcome = CL_COMPLETE; // what the user event is set to
  cl_uint a = 0, b = 0, extra = 0;
  std::vector<cl_uint> x, yInitial, result;
  Owned<cl_mem> xBuffer, yBuffer;
  Chain chain; // the user event first, then the gated commands
  std::vector<CallbackRecord *> records;
};

Worker::Worker(const Shared &shared, int index, std::uint64_t seed, ThreadStatus &status,
               Failures &failures)
    : shared_(shared), index_(index), seed_(seed), status_(status), failures_(failures),
      rng_(seed) {
  status_.at("clCreateCommandQueueWithProperties");
  cl_int err = CL_INVALID_VALUE;
  ownQueue_ = clCreateCommandQueueWithProperties(shared.context, shared.device, nullptr, &err);
  ok(err, "clCreateCommandQueueWithProperties");
  status_.at("clCreateKernel (shared program)");
  PoolKernel entry;
  entry.kernel = Owned<cl_kernel>(ledger, clCreateKernel(shared.program, "axpb", &err));
  if (ok(err, "clCreateKernel (shared program)"))
    pool_.push_back(std::move(entry));
}

Worker::~Worker() = default;

bool Worker::fail(const std::string &message) {
  std::ostringstream text;
  text << "thread " << index_ << " (seed " << seed_ << "), step " << step_ << ", "
       << (action_ == Action::Count ? "set-up or tear-down" : actionName(action_)) << ": "
       << message;
  failures_.add(text.str());
  return false;
}

bool Worker::ok(cl_int err, const char *call) {
  if (err == CL_SUCCESS)
    return true;
  return fail(std::string(call) + " returned " + std::to_string(err));
}

cl_command_queue Worker::randomQueue() {
  switch (random(3)) {
  case 0:
    return ownQueue_;
  case 1:
    return shared_.inOrderQueue;
  default:
    return shared_.outOfOrderQueue;
  }
}

const char *Worker::queueName(cl_command_queue queue) const {
  if (queue == ownQueue_)
    return "the thread's queue";
  if (queue == shared_.inOrderQueue)
    return "the shared in-order queue";
  return "the shared out-of-order queue";
}

CallbackRecord *Worker::watch(cl_event event, cl_int type, bool mustFail) {
  CallbackRecord &record = callbacks.emplace_back();
  record.type = type;
  record.mustFail = mustFail;
  status_.at("clSetEventCallback");
  if (!ok(clSetEventCallback(event, type, onEvent, &record), "clSetEventCallback")) {
    callbacks.pop_back();
    return nullptr;
  }
  return &record;
}

Owned<cl_mem> Worker::createBuffer(cl_mem_flags flags, size_t size, void *host) {
  status_.at("clCreateBuffer");
  cl_int err = CL_INVALID_VALUE;
  Owned<cl_mem> buffer(ledger, clCreateBuffer(shared_.context, flags, size, host, &err));
  ok(err, "clCreateBuffer");
  return buffer;
}

Owned<cl_mem> Worker::createSubBuffer(cl_mem parent, size_t origin, size_t size) {
  status_.at("clCreateSubBuffer");
  const cl_buffer_region region{origin, size};
  cl_int err = CL_INVALID_VALUE;
  Owned<cl_mem> sub(ledger, clCreateSubBuffer(parent, chance(50) ? 0 : CL_MEM_READ_WRITE,
                                              CL_BUFFER_CREATE_TYPE_REGION, &region, &err));
  ok(err, "clCreateSubBuffer");
  return sub;
}

bool Worker::waitsForCommands(Action action) {
  return action != Action::BuildFromSource && action != Action::BuildFromIL;
}

void Worker::run(Clock::time_point deadline, const std::array<int, kActions> &weights) {
  std::discrete_distribution<int> pick(weights.begin(), weights.end());
  while (Clock::now() < deadline && failures_.count() < 20) {
    const auto action = static_cast<Action>(pick(rng_));
    ++step_;
    if (gate_ && (waitsForCommands(action) || chance(25)))
      openGate();
    action_ = action;
    status_.action.store(actionName(action));
    switch (action) {
    case Action::BuildFromSource:
      buildFromSource();
      break;
    case Action::BuildFromIL:
      buildFromIL();
      break;
    case Action::BuffersAndSubBuffers:
      buffersAndSubBuffers();
      break;
    case Action::LaunchChain:
      launchChain();
      break;
    case Action::GateWithUserEvent:
      gateWithUserEvent();
      break;
    case Action::ReadWriteMapFill:
      readWriteMapFill();
      break;
    case Action::Count:
      break;
    }
    ++actionsDone[static_cast<size_t>(action)];
    status_.steps.fetch_add(1, std::memory_order_relaxed);
  }
  action_ = Action::Count;
  status_.action.store("tear-down");
  openGate();
  pool_.clear();
  status_.at("clFinish (the thread's queue)");
  ok(clFinish(ownQueue_), "clFinish (the thread's queue)");
  status_.at("clReleaseCommandQueue");
  ok(clReleaseCommandQueue(ownQueue_), "clReleaseCommandQueue");
  status_.at("done");
}

void Worker::addToPool(Owned<cl_program> program, cl_uint extra) {
  status_.at("clCreateKernel");
  cl_int err = CL_INVALID_VALUE;
  PoolKernel entry;
  entry.kernel = Owned<cl_kernel>(ledger, clCreateKernel(program.get(), "axpb", &err));
  if (!ok(err, "clCreateKernel"))
    return;
  entry.program = std::move(program);
  entry.extra = extra;
  // At most four kernels; the shared program's kernel (first) stays. The
  // evicted one's commands may still be in flight, and either the kernel or
  // the program goes first.
  if (pool_.size() >= 4) {
    // OpenCL 3.0, clSetUserEventStatus: objects other than events are
    // released only once the user events that gate commands are set.
    openGate();
    PoolKernel &evicted = pool_[1 + random(pool_.size() - 1)];
    status_.at("releasing a kernel and its program");
    if (chance(50))
      evicted.program.reset();
    evicted = std::move(entry);
  } else {
    pool_.push_back(std::move(entry));
  }
}

// A small kernel from OpenCL C source: half the time one of a few texts all
// threads share (the build cache is hit), otherwise a text of this thread's
// alone (missed); sometimes with a build callback.
void Worker::buildFromSource() {
  const cl_uint extra = chance(50) ? 1 + random(6) : 1000 * (index_ + 1) + ++uniqueBuilds_;
  const std::string source = axpbSource(extra);
  const char *text = source.c_str();
  status_.at("clCreateProgramWithSource");
  cl_int err = CL_INVALID_VALUE;
  Owned<cl_program> program(ledger,
                            clCreateProgramWithSource(shared_.context, 1, &text, nullptr, &err));
  if (!ok(err, "clCreateProgramWithSource"))
    return;
  const char *options = chance(50) ? "" : "-cl-mad-enable";
  if (chance(30)) {
    auto record = std::make_unique<BuildRecord>();
    record->total = &buildCallbacksFired;
    ++buildCallbacksExpected;
    status_.at("clBuildProgram (with a callback)");
    if (!ok(clBuildProgram(program.get(), 1, &shared_.device, options, BuildRecord::onBuilt,
                           record.get()),
            "clBuildProgram (with a callback)"))
      return; // the record leaks on purpose: the callback may still come
    status_.at("waiting for the build callback");
    {
      std::unique_lock lock(record->mutex);
      record->done.wait(lock, [&] { return record->fired > 0; });
    }
    builds_.push_back(std::move(record));
  } else {
    status_.at("clBuildProgram");
    if (!ok(clBuildProgram(program.get(), 1, &shared_.device, options, nullptr, nullptr),
            "clBuildProgram"))
      return;
  }
  cl_build_status status = CL_BUILD_NONE;
  clGetProgramBuildInfo(program.get(), shared_.device, CL_PROGRAM_BUILD_STATUS, sizeof(status),
                        &status, nullptr);
  if (status != CL_BUILD_SUCCESS) {
    fail("build status " + std::to_string(status) + " after a successful build");
    return;
  }
  addToPool(std::move(program), extra);
}

// The start-up program again, from its SPIR-V (clCreateProgramWithIL) or its
// binary (clCreateProgramWithBinary).
void Worker::buildFromIL() {
  cl_int err = CL_INVALID_VALUE;
  Owned<cl_program> program;
  if (shared_.binaryIsIL && chance(50)) {
    status_.at("clCreateProgramWithIL");
    program =
        Owned<cl_program>(ledger, clCreateProgramWithIL(shared_.context, shared_.binary.data(),
                                                        shared_.binary.size(), &err));
    if (!ok(err, "clCreateProgramWithIL"))
      return;
  } else {
    status_.at("clCreateProgramWithBinary");
    const size_t size = shared_.binary.size();
    const unsigned char *bytes = shared_.binary.data();
    cl_int binaryStatus = CL_INVALID_VALUE;
    program =
        Owned<cl_program>(ledger, clCreateProgramWithBinary(shared_.context, 1, &shared_.device,
                                                            &size, &bytes, &binaryStatus, &err));
    if (!ok(err, "clCreateProgramWithBinary") || !ok(binaryStatus, "its binary status"))
      return;
  }
  status_.at("clBuildProgram (IL or binary)");
  if (!ok(clBuildProgram(program.get(), 0, nullptr, "", nullptr, nullptr), "clBuildProgram"))
    return;
  addToPool(std::move(program), 0);
}

// A parent buffer (COPY_HOST_PTR, USE_HOST_PTR or written), sub-buffers at
// aligned origins written, filled and copied into one another; the parent
// must show every sub-buffer's writes, and a USE_HOST_PTR parent maps to
// its host memory.
void Worker::buffersAndSubBuffers() {
  const size_t align = shared_.baseAlign;
  const size_t parts = 2 + random(3);
  const size_t slice = align * (1 + random(3));
  const size_t size = parts * slice;
  const int mode = random(3); // 0 COPY_HOST_PTR, 1 USE_HOST_PTR, 2 written
  std::vector<std::uint8_t> mirror(size);
  for (auto &byte : mirror)
    byte = static_cast<std::uint8_t>(rng_());
  // Host memory for USE_HOST_PTR, aligned as the device aligns buffers.
  std::unique_ptr<std::uint8_t, decltype(&std::free)> host(
      static_cast<std::uint8_t *>(std::aligned_alloc(align, size)), &std::free);
  std::memcpy(host.get(), mirror.data(), size);
  std::vector<std::vector<std::uint8_t>> sources; // of non-blocking writes
  sources.reserve(16);
  std::vector<std::uint8_t> readBack(size, kSentinelByte);

  const cl_mem_flags flags = mode == 0 ? CL_MEM_COPY_HOST_PTR : mode == 1 ? CL_MEM_USE_HOST_PTR : 0;
  Owned<cl_mem> parent =
      createBuffer(CL_MEM_READ_WRITE | flags, size, mode < 2 ? host.get() : nullptr);
  if (!parent)
    return;
  std::vector<Owned<cl_mem>> subs(parts);
  Chain chain(*this);
  if (mode == 2) {
    cl_command_queue queue = randomQueue();
    const cl_bool blocking = chance(50);
    if (!chain.add(queue, "clEnqueueWriteBuffer (parent)",
                   [&](cl_uint count, const cl_event *list, cl_event *event) {
                     return clEnqueueWriteBuffer(queue, parent.get(), blocking, 0, size, host.get(),
                                                 count, list, event);
                   }))
      return;
  }
  for (size_t part = 0; part < parts; ++part)
    if (chance(75) && !(subs[part] = createSubBuffer(parent.get(), part * slice, slice)))
      return;

  const int operations = 1 + random(6);
  for (int op = 0; op < operations; ++op) {
    const size_t part = random(parts);
    if (!subs[part])
      continue;
    cl_mem sub = subs[part].get();
    cl_command_queue queue = randomQueue();
    switch (random(3)) {
    case 0: { // a write of part of the sub-buffer
      const size_t offset = random(slice);
      const size_t length = 1 + random(slice - offset);
      auto &data = sources.emplace_back(length);
      for (auto &byte : data)
        byte = static_cast<std::uint8_t>(rng_());
      std::copy(data.begin(), data.end(), mirror.begin() + part * slice + offset);
      const cl_bool blocking = chance(30);
      if (!chain.add(queue, "clEnqueueWriteBuffer (sub-buffer)",
                     [&](cl_uint count, const cl_event *list, cl_event *event) {
                       return clEnqueueWriteBuffer(queue, sub, blocking, offset, length,
                                                   data.data(), count, list, event);
                     }))
        return;
      break;
    }
    case 1: { // a fill of the whole sub-buffer
      const cl_uint pattern = static_cast<cl_uint>(rng_());
      for (size_t i = 0; i < slice; ++i)
        mirror[part * slice + i] = reinterpret_cast<const std::uint8_t *>(&pattern)[i % 4];
      if (!chain.add(queue, "clEnqueueFillBuffer (sub-buffer)",
                     [&](cl_uint count, const cl_event *list, cl_event *event) {
                       return clEnqueueFillBuffer(queue, sub, &pattern, sizeof(pattern), 0, slice,
                                                  count, list, event);
                     }))
        return;
      break;
    }
    default: { // a copy from another sub-buffer of the same parent
      const size_t from = (part + 1 + random(parts - 1)) % parts;
      if (!subs[from])
        break;
      std::copy_n(mirror.begin() + from * slice, slice, mirror.begin() + part * slice);
      cl_mem source = subs[from].get();
      if (!chain.add(queue, "clEnqueueCopyBuffer (sub-buffer to sub-buffer)",
                     [&](cl_uint count, const cl_event *list, cl_event *event) {
                       return clEnqueueCopyBuffer(queue, source, sub, 0, 0, slice, count, list,
                                                  event);
                     }))
        return;
      break;
    }
    }
    // Released while its commands may be in flight: they hold it.
    if (chance(15))
      subs[part].reset();
  }
  if (chance(30) && !chain.addMarkerOrBarrier())
    return;

  if (mode == 1) {
    // OpenCL 3.0, clEnqueueMapBuffer: the pointer of a CL_MEM_USE_HOST_PTR
    // buffer is derived from host_ptr, and the host memory holds the data.
    cl_command_queue queue = randomQueue();
    const size_t part = random(parts);
    const bool whole = chance(50) || !subs[part];
    cl_mem mapped = whole ? parent.get() : subs[part].get();
    const size_t origin = whole ? 0 : part * slice, length = whole ? size : slice;
    void *pointer = nullptr;
    if (!chain.add(queue, "clEnqueueMapBuffer (USE_HOST_PTR, read)",
                   [&](cl_uint count, const cl_event *list, cl_event *event) {
                     cl_int err = CL_INVALID_VALUE;
                     pointer = clEnqueueMapBuffer(queue, mapped, CL_TRUE, CL_MAP_READ, 0, length,
                                                  count, list, event, &err);
                     return err;
                   }))
      return;
    if (pointer != host.get() + origin)
      fail("a read map of a USE_HOST_PTR buffer at " + std::to_string(origin) +
           " is not host_ptr + " + std::to_string(origin));
    else if (std::memcmp(pointer, mirror.data() + origin, length) != 0)
      fail("a read map of a USE_HOST_PTR buffer: the host memory does not hold the buffer's data");
    if (!chain.add(queue, "clEnqueueUnmapMemObject",
                   [&](cl_uint count, const cl_event *list, cl_event *event) {
                     return clEnqueueUnmapMemObject(queue, mapped, pointer, count, list, event);
                   }))
      return;
  }

  cl_command_queue queue = randomQueue();
  const cl_bool blocking = chance(50);
  if (!chain.add(queue, "clEnqueueReadBuffer (parent)",
                 [&](cl_uint count, const cl_event *list, cl_event *event) {
                   return clEnqueueReadBuffer(queue, parent.get(), blocking, 0, size,
                                              readBack.data(), count, list, event);
                 }) ||
      !chain.wait("clWaitForEvents (sub-buffers)"))
    return;
  if (readBack != mirror)
    fail("the parent does not show its sub-buffers' writes, fills and copies: " +
         describeMismatch(readBack, mirror));
  // Sub-buffers and parent released in a random order.
  chain.drain();
  std::shuffle(subs.begin(), subs.end(), rng_);
  if (chance(50))
    parent.reset();
}

// axpb on a random kernel of the pool: x written (or given at creation) on
// one queue, the kernel on another, maybe a marker or barrier, y read on a
// third, each waiting for the one before. y is sometimes a sub-buffer,
// read back through its parent.
void Worker::launchChain() {
  PoolKernel &entry = pool_[random(pool_.size())];
  const size_t n = 1 + random(chance(80) ? 256 : 4096);
  const size_t bytes = n * sizeof(cl_uint);
  const cl_uint a = 3 + 2 * index_, b = 1000003u * index_ + launches_++;
  std::vector<cl_uint> x(n), result(n, kSentinel), expected(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = static_cast<cl_uint>(rng_());
    expected[i] = axpb(a, x[i], b, entry.extra);
  }
  const bool xAtCreation = chance(50);
  Owned<cl_mem> xBuffer = createBuffer(CL_MEM_READ_ONLY | (xAtCreation ? CL_MEM_COPY_HOST_PTR : 0),
                                       bytes, xAtCreation ? x.data() : nullptr);
  const size_t origin = chance(50) ? shared_.baseAlign * (1 + random(3)) : 0;
  Owned<cl_mem> parent = createBuffer(CL_MEM_READ_WRITE, origin + bytes, nullptr);
  Owned<cl_mem> sub;
  if (!xBuffer || !parent || (origin && !(sub = createSubBuffer(parent.get(), origin, bytes))))
    return;
  const cl_mem xMem = xBuffer.get(), yMem = origin ? sub.get() : parent.get();

  Chain chain(*this);
  if (!xAtCreation) {
    cl_command_queue queue = randomQueue();
    const cl_bool blocking = chance(30);
    if (!chain.add(queue, "clEnqueueWriteBuffer (x)",
                   [&](cl_uint count, const cl_event *list, cl_event *event) {
                     return clEnqueueWriteBuffer(queue, xMem, blocking, 0, bytes, x.data(), count,
                                                 list, event);
                   }))
      return;
  }
  status_.at("clSetKernelArg");
  cl_kernel kernel = entry.kernel.get();
  if (!ok(clSetKernelArg(kernel, 0, sizeof(cl_mem), &xMem), "clSetKernelArg (x)") ||
      !ok(clSetKernelArg(kernel, 1, sizeof(cl_mem), &yMem), "clSetKernelArg (y)") ||
      !ok(clSetKernelArg(kernel, 2, sizeof(a), &a), "clSetKernelArg (a)") ||
      !ok(clSetKernelArg(kernel, 3, sizeof(b), &b), "clSetKernelArg (b)"))
    return;
  cl_command_queue kernelQueue = randomQueue();
  if (!chain.add(kernelQueue, "clEnqueueNDRangeKernel",
                 [&](cl_uint count, const cl_event *list, cl_event *event) {
                   return clEnqueueNDRangeKernel(kernelQueue, kernel, 1, nullptr, &n, nullptr,
                                                 count, list, event);
                 }))
    return;
  if (chance(25))
    watch(chain.last(), chance(50) ? CL_COMPLETE : (chance(50) ? CL_RUNNING : CL_SUBMITTED), false);
  // The buffers live on while the kernel uses them.
  if (chance(20)) {
    xBuffer.reset();
    sub.reset();
  }
  if (chance(30) && !chain.addMarkerOrBarrier())
    return;
  cl_command_queue queue = randomQueue();
  const cl_bool blocking = chance(50);
  if (!chain.add(queue, "clEnqueueReadBuffer (y)",
                 [&](cl_uint count, const cl_event *list, cl_event *event) {
                   return clEnqueueReadBuffer(queue, parent.get(), blocking, origin, bytes,
                                              result.data(), count, list, event);
                 }))
    return;
  if (chance(25))
    watch(chain.last(), CL_COMPLETE, false);
  if (!chain.wait("clWaitForEvents (kernel launch chain)"))
    return;
  if (result != expected)
    fail("axpb (extra " + std::to_string(entry.extra) + ", a " + std::to_string(a) + ", b " +
         std::to_string(b) + (origin ? ", y a sub-buffer" : "") +
         "): " + describeMismatch(result, expected));
}

// Write x, run axpb, read y, the first waiting for a user event the thread
// sets at the start of a later action: to CL_COMPLETE, or to a negative
// status, which must terminate every gated command (each event negative, y
// and the host's copy untouched) without a hang.
void Worker::gateWithUserEvent() {
  openGate();
  auto gate = std::make_unique<Gate>(*this);
  const PoolKernel &entry = pool_[random(pool_.size())];
  const size_t n = 1 + random(256);
  const size_t bytes = n * sizeof(cl_uint);
  gate->outcome =
      chance(shared_.failingGatePercent) ? -1 - static_cast<cl_int>(random(1000)) : CL_COMPLETE;
  gate->a = 5 + 2 * index_;
  gate->b = 7000003u * index_ + launches_++;
  gate->extra = entry.extra;
  gate->x.resize(n);
  gate->yInitial.resize(n);
  for (size_t i = 0; i < n; ++i) {
    gate->x[i] = static_cast<cl_uint>(rng_());
    gate->yInitial[i] = static_cast<cl_uint>(rng_());
  }
  gate->result.assign(n, kSentinel);
  const bool failing = gate->outcome < 0;

  status_.at("clCreateUserEvent");
  cl_int err = CL_INVALID_VALUE;
  Owned<cl_event> user(ledger, clCreateUserEvent(shared_.context, &err));
  if (!ok(err, "clCreateUserEvent"))
    return;
  if (CallbackRecord *record = watch(user.get(), CL_COMPLETE, failing))
    gate->records.push_back(record);
  gate->chain.events.push_back(std::move(user));
  gate->chain.names.push_back("the user event");
  gate->xBuffer = createBuffer(CL_MEM_READ_ONLY, bytes, nullptr);
  gate->yBuffer =
      createBuffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, gate->yInitial.data());
  if (!gate->xBuffer || !gate->yBuffer) {
    openGateNow(std::move(gate));
    return;
  }
  gate_ = std::move(gate);
  Gate &g = *gate_;
  Chain &chain = g.chain;
  const auto watchLast = [&] {
    const cl_int type = chance(60) ? CL_COMPLETE : (chance(50) ? CL_RUNNING : CL_SUBMITTED);
    if (CallbackRecord *record = watch(chain.last(), type, failing))
      g.records.push_back(record);
  };
  cl_command_queue queue = randomQueue();
  if (!chain.add(queue, "clEnqueueWriteBuffer (gated x)",
                 [&](cl_uint count, const cl_event *list, cl_event *event) {
                   return clEnqueueWriteBuffer(queue, g.xBuffer.get(), CL_FALSE, 0, bytes,
                                               g.x.data(), count, list, event);
                 }))
    return;
  if (chance(50))
    watchLast();
  status_.at("clSetKernelArg");
  cl_kernel kernel = entry.kernel.get();
  const cl_mem xMem = g.xBuffer.get(), yMem = g.yBuffer.get();
  if (!ok(clSetKernelArg(kernel, 0, sizeof(cl_mem), &xMem), "clSetKernelArg (x)") ||
      !ok(clSetKernelArg(kernel, 1, sizeof(cl_mem), &yMem), "clSetKernelArg (y)") ||
      !ok(clSetKernelArg(kernel, 2, sizeof(g.a), &g.a), "clSetKernelArg (a)") ||
      !ok(clSetKernelArg(kernel, 3, sizeof(g.b), &g.b), "clSetKernelArg (b)"))
    return;
  queue = randomQueue();
  if (!chain.add(queue, "clEnqueueNDRangeKernel (gated)",
                 [&](cl_uint count, const cl_event *list, cl_event *event) {
                   return clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &n, nullptr, count,
                                                 list, event);
                 }))
    return;
  if (chance(50))
    watchLast();
  if (chance(30) && !chain.addMarkerOrBarrier())
    return;
  queue = randomQueue();
  if (!chain.add(queue, "clEnqueueReadBuffer (gated y)",
                 [&](cl_uint count, const cl_event *list, cl_event *event) {
                   return clEnqueueReadBuffer(queue, g.yBuffer.get(), CL_FALSE, 0, bytes,
                                              g.result.data(), count, list, event);
                 }))
    return;
  watchLast();
}

void Worker::openGate() {
  if (gate_)
    openGateNow(std::move(gate_));
}

void Worker::openGateNow(std::unique_ptr<Gate> gate) {
  Chain &chain = gate->chain;
  if (chain.events.empty())
    return;
  const bool failing = gate->outcome < 0;
  status_.at("clSetUserEventStatus");
  if (!ok(clSetUserEventStatus(chain.events.front().get(), gate->outcome), "clSetUserEventStatus"))
    return;
  std::vector<cl_event> list;
  for (const Owned<cl_event> &event : chain.events)
    list.push_back(event.get());
  status_.at("clWaitForEvents (gated commands)");
  const cl_int err = clWaitForEvents(static_cast<cl_uint>(list.size()), list.data());
  const cl_int expectedErr = failing ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS;
  const std::string gated =
      failing ? "commands gated by a user event set to " + std::to_string(gate->outcome)
              : "commands gated by a user event set to CL_COMPLETE";
  if (err != expectedErr)
    fail("clWaitForEvents on " + gated + " returned " + std::to_string(err) + ", expected " +
         std::to_string(expectedErr));
  for (size_t i = 0; i < list.size(); ++i) {
    cl_int status = 1;
    status_.at("clGetEventInfo");
    ok(clGetEventInfo(list[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr),
       "clGetEventInfo");
    const bool right = i == 0    ? status == gate->outcome
                       : failing ? status < 0
                                 : status == CL_COMPLETE;
    if (!right)
      fail(gated + ": " + chain.names[i] + " has status " + std::to_string(status));
  }
  if (!failing) {
    std::vector<cl_uint> expected(gate->x.size());
    for (size_t i = 0; i < expected.size(); ++i)
      expected[i] = axpb(gate->a, gate->x[i], gate->b, gate->extra);
    if (gate->result != expected)
      fail(gated + ": y " + describeMismatch(gate->result, expected));
    return;
  }
  if (std::any_of(gate->result.begin(), gate->result.end(),
                  [](cl_uint value) { return value != kSentinel; }))
    fail(gated + ": the terminated read wrote the host memory");
  if (!gate->yBuffer)
    return;
  std::vector<cl_uint> y(gate->yInitial.size(), kSentinel);
  status_.at("clEnqueueReadBuffer (y after a terminated kernel)");
  if (ok(clEnqueueReadBuffer(ownQueue_, gate->yBuffer.get(), CL_TRUE, 0, y.size() * sizeof(cl_uint),
                             y.data(), 0, nullptr, nullptr),
         "clEnqueueReadBuffer (y after a terminated kernel)") &&
      y != gate->yInitial)
    fail(gated + ": the terminated kernel changed y: " + describeMismatch(y, gate->yInitial));
}

// A random sequence of writes, reads, fills, copies and read or write maps
// on two buffers, blocking or not, across the queues; a host mirror of both
// checks every read and map as it completes, and both buffers at the end.
void Worker::readWriteMapFill() {
  const size_t size = 128 * (1 + random(32));
  using Bytes = std::vector<std::uint8_t>;
  std::array<Bytes, 2> mirror;
  for (Bytes &bytes : mirror) {
    bytes.resize(size);
    for (auto &byte : bytes)
      byte = static_cast<std::uint8_t>(rng_());
  }
  // Host memory of non-blocking transfers, and the checks of reads that
  // complete later: the bytes read, the bytes expected.
  std::deque<Bytes> hostData;
  struct LaterCheck {
    Bytes *read;
    Bytes expected;
    std::string what;
  };
  std::vector<LaterCheck> later;
  // Each buffer starts from its mirror: given at creation, or written.
  std::array<Owned<cl_mem>, 2> buffers;
  std::array<bool, 2> atCreation{};
  for (size_t i = 0; i < 2; ++i) {
    atCreation[i] = chance(50);
    buffers[i] = createBuffer(CL_MEM_READ_WRITE | (atCreation[i] ? CL_MEM_COPY_HOST_PTR : 0), size,
                              atCreation[i] ? mirror[i].data() : nullptr);
    if (!buffers[i])
      return;
  }
  Chain chain(*this);
  for (size_t i = 0; i < 2; ++i) {
    if (atCreation[i])
      continue;
    cl_command_queue queue = randomQueue();
    cl_mem buffer = buffers[i].get();
    const Bytes &initial = mirror[i];
    if (!chain.add(queue, "clEnqueueWriteBuffer (initial)",
                   [&](cl_uint count, const cl_event *list, cl_event *event) {
                     return clEnqueueWriteBuffer(queue, buffer, CL_TRUE, 0, size, initial.data(),
                                                 count, list, event);
                   }))
      return;
  }
  const auto randomRange = [&](size_t unit) {
    const size_t units = size / unit;
    const size_t first = random(units);
    const size_t count = 1 + random(units - first);
    return std::pair{first * unit, count * unit};
  };

  const int operations = 3 + random(8);
  for (int op = 0; op < operations; ++op) {
    const size_t which = random(2);
    cl_mem buffer = buffers[which].get();
    Bytes &bytes = mirror[which];
    cl_command_queue queue = randomQueue();
    const cl_bool blocking = chance(40);
    switch (random(6)) {
    case 0: { // write
      auto [offset, length] = randomRange(1);
      Bytes &data = hostData.emplace_back(length);
      for (auto &byte : data)
        byte = static_cast<std::uint8_t>(rng_());
      std::copy(data.begin(), data.end(), bytes.begin() + offset);
      if (!chain.add(queue, "clEnqueueWriteBuffer",
                     [&](cl_uint count, const cl_event *list, cl_event *event) {
                       return clEnqueueWriteBuffer(queue, buffer, blocking, offset, length,
                                                   data.data(), count, list, event);
                     }))
        return;
      break;
    }
    case 1: { // read
      auto [offset, length] = randomRange(1);
      Bytes &data = hostData.emplace_back(length, kSentinelByte);
      if (!chain.add(queue, blocking ? "clEnqueueReadBuffer (blocking)" : "clEnqueueReadBuffer",
                     [&](cl_uint count, const cl_event *list, cl_event *event) {
                       return clEnqueueReadBuffer(queue, buffer, blocking, offset, length,
                                                  data.data(), count, list, event);
                     }))
        return;
      Bytes expected(bytes.begin() + offset, bytes.begin() + offset + length);
      if (blocking && data != expected)
        fail("a blocking read of [" + std::to_string(offset) + ", +" + std::to_string(length) +
             "): " + describeMismatch(data, expected));
      else if (!blocking)
        later.push_back(
            {&data, std::move(expected),
             "a read of [" + std::to_string(offset) + ", +" + std::to_string(length) + ")"});
      break;
    }
    case 2: {                                            // fill
      const size_t patternSize = size_t{1} << random(8); // 1 ... 128
      auto [offset, length] = randomRange(patternSize);
      Bytes pattern(patternSize);
      for (auto &byte : pattern)
        byte = static_cast<std::uint8_t>(rng_());
      for (size_t i = 0; i < length; ++i)
        bytes[offset + i] = pattern[i % patternSize];
      if (!chain.add(queue, "clEnqueueFillBuffer",
                     [&](cl_uint count, const cl_event *list, cl_event *event) {
                       return clEnqueueFillBuffer(queue, buffer, pattern.data(), patternSize,
                                                  offset, length, count, list, event);
                     }))
        return;
      break;
    }
    case 3: { // copy to the other buffer
      auto [from, length] = randomRange(1);
      const size_t to = random(size - length + 1);
      Bytes &destination = mirror[1 - which];
      std::copy_n(bytes.begin() + from, length, destination.begin() + to);
      cl_mem target = buffers[1 - which].get();
      if (!chain.add(queue, "clEnqueueCopyBuffer",
                     [&](cl_uint count, const cl_event *list, cl_event *event) {
                       return clEnqueueCopyBuffer(queue, buffer, target, from, to, length, count,
                                                  list, event);
                     }))
        return;
      break;
    }
    default: { // map for reading, or for writing
      const bool forWriting = op % 2;
      auto [offset, length] = randomRange(1);
      const cl_map_flags flags = !forWriting  ? CL_MAP_READ
                                 : chance(50) ? CL_MAP_READ | CL_MAP_WRITE
                                 : chance(50) ? CL_MAP_WRITE
                                              : CL_MAP_WRITE_INVALIDATE_REGION;
      std::uint8_t *pointer = nullptr;
      if (!chain.add(queue, "clEnqueueMapBuffer",
                     [&](cl_uint count, const cl_event *list, cl_event *event) {
                       cl_int err = CL_INVALID_VALUE;
                       pointer = static_cast<std::uint8_t *>(
                           clEnqueueMapBuffer(queue, buffer, blocking, flags, offset, length, count,
                                              list, event, &err));
                       return err;
                     }))
        return;
      if (!blocking && !chain.wait("clWaitForEvents (map)"))
        return;
      if ((flags & CL_MAP_READ) && std::memcmp(pointer, bytes.data() + offset, length) != 0)
        fail("a map of [" + std::to_string(offset) + ", +" + std::to_string(length) +
             ") does not show the buffer's data: " +
             describeMismatch(Bytes(pointer, pointer + length),
                              Bytes(bytes.begin() + offset, bytes.begin() + offset + length)));
      if (forWriting)
        for (size_t i = 0; i < length; ++i)
          pointer[i] = bytes[offset + i] = static_cast<std::uint8_t>(rng_());
      queue = randomQueue();
      if (!chain.add(queue, "clEnqueueUnmapMemObject",
                     [&](cl_uint count, const cl_event *list, cl_event *event) {
                       return clEnqueueUnmapMemObject(queue, buffer, pointer, count, list, event);
                     }))
        return;
      break;
    }
    }
    if (chance(10) && !chain.addMarkerOrBarrier())
      return;
  }
  std::array<Bytes, 2> final{Bytes(size, kSentinelByte), Bytes(size, kSentinelByte)};
  for (size_t i = 0; i < 2; ++i) {
    cl_command_queue queue = randomQueue();
    cl_mem buffer = buffers[i].get();
    Bytes &data = final[i];
    if (!chain.add(queue, "clEnqueueReadBuffer (final)",
                   [&](cl_uint count, const cl_event *list, cl_event *event) {
                     return clEnqueueReadBuffer(queue, buffer, CL_FALSE, 0, size, data.data(),
                                                count, list, event);
                   }))
      return;
  }
  if (!chain.wait("clWaitForEvents (reads, writes, maps)"))
    return;
  for (const LaterCheck &check : later)
    if (*check.read != check.expected)
      fail(check.what + ": " + describeMismatch(*check.read, check.expected));
  for (size_t i = 0; i < 2; ++i)
    if (final[i] != mirror[i])
      fail("buffer " + std::to_string(i) + " at the end: " + describeMismatch(final[i], mirror[i]));
}

} // namespace lanewise::stress
