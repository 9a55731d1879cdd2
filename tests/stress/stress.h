// SPDX-License-Identifier: Apache-2.0
// The stress test: host threads against one context, each running a seeded
// random mix of actions (stress_test.cpp drives them, worker.cpp defines
// them). Every output is checked against values computed on the host, every
// object created is released, and a watchdog turns a stall into a failure.
#pragma once

#include <CL/cl.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

namespace lanewise::stress {

using Clock = std::chrono::steady_clock;

// What every thread shares, set up before the threads start.
struct Shared {
  cl_context context = nullptr;
  cl_device_id device = nullptr;
  cl_command_queue inOrderQueue = nullptr;
  cl_command_queue outOfOrderQueue = nullptr;
  // A program built from source at start-up (kernel `axpb`, extra 0); each
  // thread creates its own kernel from it.
  cl_program program = nullptr;
  // That program's binary (CL_PROGRAM_BINARIES) and, when the device takes
  // SPIR-V and the binary is SPIR-V, the same bytes as IL.
  std::vector<unsigned char> binary;
  bool binaryIsIL = false;
  size_t baseAlign = 0; // CL_DEVICE_MEM_BASE_ADDR_ALIGN, in bytes
  // How often (percent) a user event that gates commands is set to a
  // negative status rather than CL_COMPLETE.
  int failingGatePercent = 35;
};

// The OpenCL C source of `axpb`: y[i] = a * x[i] + b + extra, in 32-bit
// unsigned arithmetic. Distinct extras make distinct source texts.
std::string axpbSource(cl_uint extra);

// Where a thread is, for the watchdog's report.
struct ThreadStatus {
  std::atomic<const char *> action{"starting"};
  std::atomic<const char *> step{"starting"};
  std::atomic<std::int64_t> lastProgress{0}; // Clock ticks
  std::atomic<std::uint64_t> steps{0};
  void at(const char *where) {
    step.store(where, std::memory_order_relaxed);
    lastProgress.store(Clock::now().time_since_epoch().count(), std::memory_order_relaxed);
  }
};

// Failures seen on any thread, reported by the main thread.
class Failures {
public:
  void add(std::string message);
  std::vector<std::string> messages() const;
  size_t count() const;

private:
  mutable std::mutex mutex_;
  std::vector<std::string> messages_;
  size_t count_ = 0;
};

enum class Kind { Mem, Event, Program, Kernel, Count };
constexpr size_t kKinds = static_cast<size_t>(Kind::Count);
const char *kindName(Kind kind);

// Every create counted against every release.
struct Ledger {
  std::array<long, kKinds> created{}, released{}, releaseErrors{};
  void add(const Ledger &other);
};

// Owns one handle: counted in the ledger when taken, released (and counted)
// when reset or destroyed.
template <typename T> struct ReleaseOf;
template <> struct ReleaseOf<cl_mem> {
  static constexpr Kind kind = Kind::Mem;
  static cl_int release(cl_mem handle) { return clReleaseMemObject(handle); }
};
template <> struct ReleaseOf<cl_event> {
  static constexpr Kind kind = Kind::Event;
  static cl_int release(cl_event handle) { return clReleaseEvent(handle); }
};
template <> struct ReleaseOf<cl_program> {
  static constexpr Kind kind = Kind::Program;
  static cl_int release(cl_program handle) { return clReleaseProgram(handle); }
};
template <> struct ReleaseOf<cl_kernel> {
  static constexpr Kind kind = Kind::Kernel;
  static cl_int release(cl_kernel handle) { return clReleaseKernel(handle); }
};

template <typename T> class Owned {
public:
  static constexpr size_t kind = static_cast<size_t>(ReleaseOf<T>::kind);

  Owned() = default;
  Owned(Ledger &ledger, T handle) : ledger_(&ledger), handle_(handle) {
    if (handle_)
      ++ledger_->created[kind];
  }
  Owned(Owned &&other) noexcept : ledger_(other.ledger_), handle_(other.handle_) {
    other.handle_ = nullptr;
  }
  Owned &operator=(Owned &&other) noexcept {
    if (this != &other) {
      reset();
      ledger_ = other.ledger_;
      handle_ = other.handle_;
      other.handle_ = nullptr;
    }
    return *this;
  }
  ~Owned() { reset(); }

  void reset() {
    if (!handle_)
      return;
    ++ledger_->released[kind];
    if (ReleaseOf<T>::release(handle_) != CL_SUCCESS)
      ++ledger_->releaseErrors[kind];
    handle_ = nullptr;
  }
  T get() const { return handle_; }
  const T *address() const { return &handle_; }
  explicit operator bool() const { return handle_ != nullptr; }

private:
  Ledger *ledger_ = nullptr;
  T handle_ = nullptr;
};

// An event callback, counted: each must fire exactly once.
struct CallbackRecord {
  cl_int type = CL_COMPLETE;
  // The status the callback must see: `type`; for a terminated command a
  // negative status (or CL_SUBMITTED, if it was submitted before).
  bool mustFail = false;
  std::atomic<int> fired{0};
  std::atomic<cl_int> status{1};
};

// The actions, chosen at random per step.
enum class Action {
  BuildFromSource,
  BuildFromIL,
  BuffersAndSubBuffers,
  LaunchChain,
  GateWithUserEvent,
  ReadWriteMapFill,
  Count
};
constexpr size_t kActions = static_cast<size_t>(Action::Count);
const char *actionName(Action action);
// The action's name in LANEWISE_STRESS_ACTIONS.
const char *actionKey(Action action);

class Worker {
public:
  Worker(const Shared &shared, int index, std::uint64_t seed, ThreadStatus &status,
         Failures &failures);
  ~Worker();
  Worker(const Worker &) = delete;

  // Runs random actions, each with its weight, until `deadline`, then
  // releases everything.
  void run(Clock::time_point deadline, const std::array<int, kActions> &weights);

  std::array<long, kActions> actionsDone{};
  Ledger ledger;
  std::deque<CallbackRecord> callbacks; // stable addresses for the callbacks
  std::atomic<int> buildCallbacksFired{0};
  int buildCallbacksExpected = 0;

private:
  struct PoolKernel;
  struct Gate;
  struct Chain;
  struct BuildRecord;

  // The actions.
  void buildFromSource();
  void buildFromIL();
  void buffersAndSubBuffers();
  void launchChain();
  void gateWithUserEvent();
  void readWriteMapFill();
  // An action that may wait for commands opens a pending gate first: the
  // gated commands may be ahead of the awaited ones in a shared queue.
  static bool waitsForCommands(Action action);

  // The user event of the pending gate is set (complete or failed), then
  // the gated commands are awaited and checked.
  void openGate();
  void openGateNow(std::unique_ptr<Gate> gate);

  void addToPool(Owned<cl_program> program, cl_uint extra);
  // A random queue: the thread's own, or a shared one.
  cl_command_queue randomQueue();
  const char *queueName(cl_command_queue queue) const;
  CallbackRecord *watch(cl_event event, cl_int type, bool mustFail);
  Owned<cl_mem> createBuffer(cl_mem_flags flags, size_t size, void *host);
  Owned<cl_mem> createSubBuffer(cl_mem parent, size_t origin, size_t size);

  // Records a failure with the thread, seed, step and action; false.
  bool fail(const std::string &message);
  // Fails when err is not CL_SUCCESS.
  bool ok(cl_int err, const char *call);

  std::uint32_t random(size_t bound) {
    return std::uniform_int_distribution<std::uint32_t>(0, static_cast<std::uint32_t>(bound - 1))(
        rng_);
  }
  bool chance(int percent) { return random(100) < static_cast<std::uint32_t>(percent); }

  const Shared &shared_;
  const int index_;
  const std::uint64_t seed_;
  ThreadStatus &status_;
  Failures &failures_;
  std::mt19937_64 rng_;
  Action action_ = Action::Count;
  std::uint64_t step_ = 0;
  cl_uint launches_ = 0;
  cl_uint uniqueBuilds_ = 0;
  cl_command_queue ownQueue_ = nullptr;
  std::vector<PoolKernel> pool_;
  std::unique_ptr<Gate> gate_;
  std::deque<std::unique_ptr<BuildRecord>> builds_;
};

} // namespace lanewise::stress
