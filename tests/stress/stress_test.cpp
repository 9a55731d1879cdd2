// SPDX-License-Identifier: Apache-2.0
// Host threads against one context for a bounded time, each running a seeded
// random mix of actions (worker.cpp): builds from source, IL and binaries;
// buffers and sub-buffers; kernel launches chained by events across the
// threads' own queues and a shared in-order and out-of-order queue; commands
// gated by user events, some set to a negative status; event callbacks;
// reads, writes, maps, fills and copies. Every output is checked on the
// host; every object created is released and the context's reference count
// comes back; a watchdog aborts with each thread's whereabouts if no thread
// makes progress for a minute.
//
//   LANEWISE_STRESS_SECONDS   how long the threads run (default 5)
//   LANEWISE_STRESS_SEED      the seed (default: random, printed)
//   LANEWISE_STRESS_THREADS   how many threads (default 8)
//   LANEWISE_STRESS_STALL     seconds without progress before the watchdog
//                             aborts (default 60)
//   LANEWISE_STRESS_FAILING_GATES
//                             how often (percent) a user event gating commands
//                             is set to a negative status (default 35; 0 for
//                             PoCL 3.1, which then crashes or hangs when
//                             threads enqueue concurrently)
//   LANEWISE_STRESS_ACTIONS   the actions to run, comma-separated (default
//                             all: source,il,buffers,launch,gate,transfers)
#include "common.h"
#include "stress.h"

#include <barrier>
#include <cinttypes>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <numeric>
#include <random>
#include <thread>

namespace lanewise::stress {
namespace {

using namespace std::chrono_literals;

double environmentNumber(const char *name, double fallback, bool zeroAllowed = false) {
  const char *text = std::getenv(name);
  if (!text || !*text)
    return fallback;
  char *end = nullptr;
  const double value = std::strtod(text, &end);
  if (*end || value < 0 || (value == 0 && !zeroAllowed)) {
    std::fprintf(stderr, "%s=%s is not a %s number; using %g\n", name, text,
                 zeroAllowed ? "non-negative" : "positive", fallback);
    return fallback;
  }
  return value;
}

std::uint64_t seedFromEnvironment() {
  if (const char *text = std::getenv("LANEWISE_STRESS_SEED"); text && *text)
    return std::strtoull(text, nullptr, 0);
  return std::random_device{}();
}

// Aborts the process, with every thread's action and step, when no thread
// has made progress for `stall`: a deadlock must not hang the test run.
class Watchdog {
public:
  Watchdog(std::vector<ThreadStatus> &threads, std::uint64_t seed, double stallSeconds)
      : threads_(threads), seed_(seed), stall_(std::chrono::duration_cast<Clock::duration>(
                                            std::chrono::duration<double>(stallSeconds))),
        thread_([this] { watch(); }) {}
  ~Watchdog() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }

private:
  void watch() {
    std::unique_lock lock(mutex_);
    while (!wake_.wait_for(lock, 250ms, [this] { return stopping_; })) {
      Clock::rep latest = 0;
      for (const ThreadStatus &thread : threads_)
        latest = std::max(latest, thread.lastProgress.load());
      const Clock::time_point now = Clock::now();
      if (now - Clock::time_point(Clock::duration(latest)) < stall_)
        continue;
      std::fprintf(stderr,
                   "\nlanewise_stress_tests: no thread has made progress for %.0f s "
                   "(seed %" PRIu64 "): a deadlock or a lost wake-up. Where each thread is:\n",
                   std::chrono::duration<double>(stall_).count(), seed_);
      for (size_t i = 0; i < threads_.size(); ++i) {
        const ThreadStatus &thread = threads_[i];
        const double idle =
            std::chrono::duration<double>(
                now - Clock::time_point(Clock::duration(thread.lastProgress.load())))
                .count();
        const std::string name =
            i + 1 == threads_.size() ? "main thread" : "thread " + std::to_string(i);
        std::fprintf(stderr, "  %s: action '%s', at '%s' for %.1f s, %" PRIu64 " steps done\n",
                     name.c_str(), thread.action.load(), thread.step.load(), idle,
                     thread.steps.load());
      }
      std::fflush(stderr);
      std::abort();
    }
  }

  std::vector<ThreadStatus> &threads_;
  const std::uint64_t seed_;
  const Clock::duration stall_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

// Launches and data movement most often, builds least (they are slow);
// LANEWISE_STRESS_ACTIONS keeps only the actions it names.
std::array<int, kActions> actionWeights() {
  std::array<int, kActions> weights{2, 2, 3, 5, 3, 4};
  const char *names = std::getenv("LANEWISE_STRESS_ACTIONS");
  if (!names || !*names)
    return weights;
  const std::string list = "," + std::string(names) + ",";
  for (size_t a = 0; a < kActions; ++a)
    if (list.find("," + std::string(actionKey(static_cast<Action>(a))) + ",") == std::string::npos)
      weights[a] = 0;
  return weights;
}

cl_uint contextReferences(cl_context context) {
  cl_uint count = 0;
  clGetContextInfo(context, CL_CONTEXT_REFERENCE_COUNT, sizeof(count), &count, nullptr);
  return count;
}

// The context, the shared queues and the start-up program; the context's
// reference count before the program.
void setUp(Shared &shared, cl_uint &contextReferencesBefore) {
  using lanewise::test::deviceInfo;
  shared.device = lanewise::test::testDevice();
  ASSERT_NE(shared.device, nullptr) << "no device of the platform under test";
  cl_int err = CL_INVALID_VALUE;
  shared.context = clCreateContext(nullptr, 1, &shared.device, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  shared.inOrderQueue =
      clCreateCommandQueueWithProperties(shared.context, shared.device, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  const cl_queue_properties outOfOrder[] = {CL_QUEUE_PROPERTIES,
                                            CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  shared.outOfOrderQueue =
      clCreateCommandQueueWithProperties(shared.context, shared.device, outOfOrder, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  contextReferencesBefore = contextReferences(shared.context);
  shared.baseAlign = deviceInfo<cl_uint>(shared.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;
  ASSERT_GE(shared.baseAlign, sizeof(cl_uint));

  const std::string source = axpbSource(0);
  const char *text = source.c_str();
  shared.program = clCreateProgramWithSource(shared.context, 1, &text, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  ASSERT_EQ(clBuildProgram(shared.program, 1, &shared.device, "", nullptr, nullptr), CL_SUCCESS);

  // A source-built program has no IL (CL_PROGRAM_IL is empty) on most
  // platforms; its binary is SPIR-V on some (Lanewise's is), and is then
  // also taken as IL when the device takes SPIR-V.
  size_t size = 0;
  ASSERT_EQ(clGetProgramInfo(shared.program, CL_PROGRAM_IL, 0, nullptr, &size), CL_SUCCESS);
  if (size > 0) {
    shared.binary.resize(size);
    ASSERT_EQ(clGetProgramInfo(shared.program, CL_PROGRAM_IL, size, shared.binary.data(), nullptr),
              CL_SUCCESS);
  } else {
    ASSERT_EQ(
        clGetProgramInfo(shared.program, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, nullptr),
        CL_SUCCESS);
    ASSERT_GT(size, 0u);
    shared.binary.resize(size);
    unsigned char *binaries[] = {shared.binary.data()};
    ASSERT_EQ(
        clGetProgramInfo(shared.program, CL_PROGRAM_BINARIES, sizeof(binaries), binaries, nullptr),
        CL_SUCCESS);
  }
  const std::uint32_t spirvMagic = 0x07230203;
  const bool takesSpirv =
      lanewise::test::deviceString(shared.device, CL_DEVICE_IL_VERSION).find("SPIR-V") !=
      std::string::npos;
  shared.binaryIsIL = takesSpirv && shared.binary.size() >= 4 &&
                      std::memcmp(shared.binary.data(), &spirvMagic, 4) == 0;
}

TEST(Stress, ThreadsAgainstOneContext) {
  const double seconds = environmentNumber("LANEWISE_STRESS_SECONDS", 5);
  const double stall = environmentNumber("LANEWISE_STRESS_STALL", 60);
  const int threadCount = static_cast<int>(environmentNumber("LANEWISE_STRESS_THREADS", 8));
  const std::uint64_t seed = seedFromEnvironment();
  const std::array<int, kActions> weights = actionWeights();
  ASSERT_NE(std::accumulate(weights.begin(), weights.end(), 0), 0)
      << "LANEWISE_STRESS_ACTIONS names none of source,il,buffers,launch,gate,transfers";
  std::printf("%d threads for %g s, seed %" PRIu64 " (LANEWISE_STRESS_SEED)\n", threadCount,
              seconds, seed);
  SCOPED_TRACE("seed " + std::to_string(seed) + " (LANEWISE_STRESS_SEED)");

  Shared shared;
  shared.failingGatePercent =
      static_cast<int>(environmentNumber("LANEWISE_STRESS_FAILING_GATES", 35, true));
  cl_uint contextReferencesBefore = 0;
  ASSERT_NO_FATAL_FAILURE(setUp(shared, contextReferencesBefore));
  std::printf("programs from IL: %s; sub-buffer alignment %zu bytes\n",
              shared.binaryIsIL ? "clCreateProgramWithIL and clCreateProgramWithBinary"
                                : "clCreateProgramWithBinary only (the binary is not SPIR-V)",
              shared.baseAlign);

  // One status per worker, and the main thread's last.
  std::vector<ThreadStatus> statuses(threadCount + 1);
  ThreadStatus &mainStatus = statuses.back();
  mainStatus.action.store("running the threads");
  mainStatus.at("joining the threads");
  Failures failures;
  std::vector<std::unique_ptr<Worker>> workers;
  {
    Watchdog watchdog(statuses, seed, stall);
    for (int t = 0; t < threadCount; ++t)
      workers.push_back(
          std::make_unique<Worker>(shared, t, seed + 7919 * t, statuses[t], failures));
    const Clock::time_point deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                          std::chrono::duration<double>(seconds));
    std::barrier start(threadCount);
    std::vector<std::thread> threads;
    for (int t = 0; t < threadCount; ++t)
      threads.emplace_back([&, t] {
        start.arrive_and_wait();
        workers[t]->run(deadline, weights);
      });
    for (std::thread &thread : threads)
      thread.join();

    mainStatus.action.store("checking");
    mainStatus.at("clFinish (the shared queues)");
    EXPECT_EQ(clFinish(shared.inOrderQueue), CL_SUCCESS);
    EXPECT_EQ(clFinish(shared.outOfOrderQueue), CL_SUCCESS);

    // Callbacks run after their event's status is set, possibly after a wait
    // on it returned: give them a moment, then each must have fired once.
    mainStatus.at("waiting for the event and build callbacks");
    const auto allFired = [&] {
      for (const auto &worker : workers) {
        if (worker->buildCallbacksFired != worker->buildCallbacksExpected)
          return false;
        for (const CallbackRecord &record : worker->callbacks)
          if (record.fired == 0)
            return false;
      }
      return true;
    };
    for (const Clock::time_point until = Clock::now() + 30s; !allFired() && Clock::now() < until;)
      std::this_thread::sleep_for(10ms);
    std::this_thread::sleep_for(50ms); // a callback called twice has had time to be
    long registered = 0;
    for (size_t t = 0; t < workers.size(); ++t) {
      const Worker &worker = *workers[t];
      EXPECT_EQ(worker.buildCallbacksFired, worker.buildCallbacksExpected)
          << "thread " << t << ": build callbacks";
      int reported = 0;
      for (const CallbackRecord &record : worker.callbacks) {
        ++registered;
        const int fired = record.fired;
        const cl_int status = record.status;
        const bool right =
            record.mustFail ? status < 0 || (record.type == CL_SUBMITTED && status == CL_SUBMITTED)
                            : status == record.type;
        if ((fired != 1 || !right) && reported++ < 5)
          ADD_FAILURE() << "thread " << t << ": an event callback for status " << record.type
                        << (record.mustFail ? " on a terminated command" : "") << " fired " << fired
                        << " times, last with status " << status;
      }
    }

    // Every thread released what it created, and so does the start-up.
    Ledger total;
    for (size_t t = 0; t < workers.size(); ++t) {
      const Ledger &ledger = workers[t]->ledger;
      total.add(ledger);
      for (size_t k = 0; k < kKinds; ++k) {
        EXPECT_EQ(ledger.created[k], ledger.released[k])
            << "thread " << t << ": " << kindName(static_cast<Kind>(k)) << " created vs released";
        EXPECT_EQ(ledger.releaseErrors[k], 0)
            << "thread " << t << ": " << kindName(static_cast<Kind>(k)) << " whose release failed";
      }
    }
    mainStatus.at("clReleaseProgram (start-up program)");
    EXPECT_EQ(clReleaseProgram(shared.program), CL_SUCCESS);
    // Objects still held by commands or build threads that are finishing
    // may keep the context a moment longer.
    mainStatus.at("waiting for the context's reference count");
    for (const Clock::time_point until = Clock::now() + 10s;
         contextReferences(shared.context) != contextReferencesBefore && Clock::now() < until;)
      std::this_thread::sleep_for(10ms);
    EXPECT_EQ(contextReferences(shared.context), contextReferencesBefore)
        << "the context's reference count after every thread released its objects";
    mainStatus.at("releasing the shared queues and the context");
    EXPECT_EQ(clReleaseCommandQueue(shared.inOrderQueue), CL_SUCCESS);
    EXPECT_EQ(clReleaseCommandQueue(shared.outOfOrderQueue), CL_SUCCESS);
    EXPECT_EQ(clReleaseContext(shared.context), CL_SUCCESS);
    mainStatus.at("done");

    std::array<long, kActions> done{};
    for (const auto &worker : workers)
      for (size_t a = 0; a < kActions; ++a)
        done[a] += worker->actionsDone[a];
    std::printf("steps done per action:\n");
    for (size_t a = 0; a < kActions; ++a)
      std::printf("  %-36s %ld\n", actionName(static_cast<Action>(a)), done[a]);
    std::printf("objects created and released:");
    for (size_t k = 0; k < kKinds; ++k)
      std::printf(" %ld %s", total.created[k], kindName(static_cast<Kind>(k)));
    std::printf("; %ld event callbacks\n", registered);
  }

  const std::vector<std::string> messages = failures.messages();
  for (const std::string &message : messages)
    ADD_FAILURE() << message;
  EXPECT_EQ(failures.count(), 0u) << "failures in the threads (" << messages.size() << " shown)";
}

} // namespace
} // namespace lanewise::stress
