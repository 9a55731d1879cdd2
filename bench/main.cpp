// SPDX-License-Identifier: Apache-2.0
// lanewise-bench: runs the kernels of bench/kernels.cl on Lanewise and, in
// the same process, on PoCL when the ICD loader lists it, and prints the
// median time per kernel and the Lanewise/PoCL ratio. Every output is
// checked against a C++ reference; a mismatch or a failure is an error
// (exit status 1). Nothing is asserted about speed.
//
// Each kernel runs on each platform in a child process of its own (unless
// --single-process), so that a crash is reported as that kernel's failure
// and the other measurements still happen.
//
// Times are the median over the timed repetitions of the kernel command's
// CL_PROFILING_COMMAND_START -> CL_PROFILING_COMMAND_END (queue created with
// CL_QUEUE_PROFILING_ENABLE); the wall time from clEnqueueNDRangeKernel to
// the end of clWaitForEvents is printed beside it.
//
// Run it through bench/run.sh, which points the ICD loader at both drivers.
// The benchmarks themselves are bench/benchmarks.cpp; this file is the
// options, the devices, the measurement and the report.
#include "benchmarks.h"

#include <CL/cl.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include <cerrno>
#include <csignal>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef LANEWISE_BENCH_SPV
#define LANEWISE_BENCH_SPV ""
#endif
#ifndef LANEWISE_BENCH_SOURCE
#define LANEWISE_BENCH_SOURCE ""
#endif

namespace {

using bench::Arg;
using bench::Benchmark;

constexpr const char *lanewisePlatformName = "Lanewise";
constexpr const char *poclPlatformName = "Portable Computing Language";

// ---------------------------------------------------------------------------
// Options

struct Options {
  std::string spvPath = LANEWISE_BENCH_SPV;
  std::string sourcePath = LANEWISE_BENCH_SOURCE;
  int warmup = 1;
  int repeat = 5;
  // The seam for when Lanewise compiles OpenCL C: build from source on every
  // device that has a compiler, instead of preferring SPIR-V where it is
  // accepted (CL_DEVICE_IL_VERSION).
  bool preferSource = false;
  // Run everything in this process instead of one child process per
  // kernel and platform (shows state that leaks from kernel to kernel).
  bool singleProcess = false;
  std::vector<std::string> platforms; // "lanewise", "pocl"; empty: both
  std::vector<std::string> kernels;   // empty: all
  std::size_t vectorN = std::size_t{1} << 24;
  // Elements of the other streaming kernels' buffers (2^24 floats: 64 MiB).
  std::size_t streamN = std::size_t{1} << 24;
  int matmulN = 512;
  int mandelSize = 512;
  int mandelIter = 256;
};

void usage(std::FILE *out) {
  std::fprintf(out,
               "usage: lanewise-bench [options]\n"
               "  --spv PATH          SPIR-V of kernels.cl for devices that take IL\n"
               "                      (default: the one built with this program)\n"
               "  --source PATH       kernels.cl for devices that compile OpenCL C\n"
               "  --prefer-source     build from OpenCL C wherever a compiler is available\n"
               "  --single-process    run every kernel in this process (default: each kernel on\n"
               "                      each platform in a child process of its own)\n"
               "  --platform NAME     lanewise or pocl (repeatable; default: both)\n"
               "  --kernel NAME       one of the kernels below, or 'launch' (repeatable)\n"
               "  --warmup N          untimed runs per kernel (default 1)\n"
               "  --repeat N          timed runs per kernel, median reported (default 5)\n"
               "  --vector-n N        vector_add elements (default 16777216 = 2^24)\n"
               "  --stream-n N        elements of the other streaming kernels and of the host\n"
               "                      triad, a multiple of 2048 (default 2^24: 64 MiB of floats)\n"
               "  --matmul-n N        matrix order, a multiple of 16 (default 512)\n"
               "  --mandel-size N     mandelbrot image N x N, a multiple of 128 (default 512)\n"
               "  --mandel-iter N     mandelbrot iteration limit (default 256)\n"
               "kernels: vector_add saxpy_vload4 half_to_float transpose4_shuffle reduce_local\n"
               "         histogram_atomics black_scholes walsh8_subgroup matmul_tiled mandelbrot\n"
               "launch: an empty kernel's enqueue-and-finish, and 10,000 pipelined launches of\n"
               "        a 1,024-work-item vector_add\n");
}

Options parseOptions(int argc, char **argv) {
  Options o;
  auto value = [&](int &i) -> std::string {
    if (i + 1 >= argc) {
      std::fprintf(stderr, "lanewise-bench: %s needs a value\n", argv[i]);
      std::exit(2);
    }
    return argv[++i];
  };
  auto number = [&](int &i) -> long long {
    const std::string flag = argv[i];
    const std::string text = value(i);
    char *end = nullptr;
    const long long n = std::strtoll(text.c_str(), &end, 0);
    if (!end || *end || n <= 0) {
      std::fprintf(stderr, "lanewise-bench: %s wants a positive number, not '%s'\n",
                   flag.c_str(), text.c_str());
      std::exit(2);
    }
    return n;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--spv")
      o.spvPath = value(i);
    else if (a == "--source")
      o.sourcePath = value(i);
    else if (a == "--prefer-source")
      o.preferSource = true;
    else if (a == "--single-process")
      o.singleProcess = true;
    else if (a == "--platform") {
      std::string p = value(i);
      std::transform(p.begin(), p.end(), p.begin(), [](unsigned char c) { return std::tolower(c); });
      if (p != "lanewise" && p != "pocl") {
        std::fprintf(stderr, "lanewise-bench: unknown platform '%s'\n", p.c_str());
        std::exit(2);
      }
      o.platforms.push_back(p);
    } else if (a == "--kernel")
      o.kernels.push_back(value(i));
    else if (a == "--warmup") {
      const std::string text = value(i);
      o.warmup = std::atoi(text.c_str());
      if (o.warmup < 0)
        o.warmup = 0;
    } else if (a == "--repeat")
      o.repeat = static_cast<int>(number(i));
    else if (a == "--vector-n")
      o.vectorN = static_cast<std::size_t>(number(i));
    else if (a == "--stream-n")
      o.streamN = static_cast<std::size_t>(number(i));
    else if (a == "--matmul-n")
      o.matmulN = static_cast<int>(number(i));
    else if (a == "--mandel-size")
      o.mandelSize = static_cast<int>(number(i));
    else if (a == "--mandel-iter")
      o.mandelIter = static_cast<int>(number(i));
    else if (a == "-h" || a == "--help") {
      usage(stdout);
      std::exit(0);
    } else {
      std::fprintf(stderr, "lanewise-bench: unknown option '%s'\n", a.c_str());
      usage(stderr);
      std::exit(2);
    }
  }
  if (o.matmulN % 16 != 0 || o.mandelSize % 128 != 0 || o.vectorN % 128 != 0 ||
      o.streamN % 2048 != 0) {
    std::fprintf(stderr, "lanewise-bench: --matmul-n must be a multiple of 16, --mandel-size "
                         "and --vector-n multiples of 128, --stream-n of 2048\n");
    std::exit(2);
  }
  return o;
}

// ---------------------------------------------------------------------------
// OpenCL helpers

struct ClError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void check(cl_int err, const char *what) {
  if (err != CL_SUCCESS)
    throw ClError(std::string(what) + " failed with error " + std::to_string(err));
}

std::string platformText(cl_platform_id platform, cl_platform_info param) {
  std::size_t size = 0;
  if (clGetPlatformInfo(platform, param, 0, nullptr, &size) != CL_SUCCESS || size == 0)
    return {};
  std::string text(size, '\0');
  clGetPlatformInfo(platform, param, size, text.data(), nullptr);
  return text.c_str();
}

std::string deviceText(cl_device_id device, cl_device_info param) {
  std::size_t size = 0;
  if (clGetDeviceInfo(device, param, 0, nullptr, &size) != CL_SUCCESS || size == 0)
    return {};
  std::string text(size, '\0');
  clGetDeviceInfo(device, param, size, text.data(), nullptr);
  return text.c_str();
}

template <typename T> T deviceValue(cl_device_id device, cl_device_info param) {
  T value{};
  clGetDeviceInfo(device, param, sizeof value, &value, nullptr);
  return value;
}

std::optional<std::string> readFile(const std::string &path) {
  if (path.empty())
    return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Releases an OpenCL object when it goes out of scope.
template <typename T, cl_int (*Release)(T)> struct Handle {
  T object = nullptr;
  Handle() = default;
  explicit Handle(T o) : object(o) {}
  Handle(const Handle &) = delete;
  Handle &operator=(const Handle &) = delete;
  Handle(Handle &&other) noexcept : object(std::exchange(other.object, nullptr)) {}
  Handle &operator=(Handle &&other) noexcept {
    std::swap(object, other.object);
    return *this;
  }
  ~Handle() {
    if (object)
      Release(object);
  }
  T get() const { return object; }
};
using Context = Handle<cl_context, clReleaseContext>;
using Queue = Handle<cl_command_queue, clReleaseCommandQueue>;
using Program = Handle<cl_program, clReleaseProgram>;
using Kernel = Handle<cl_kernel, clReleaseKernel>;
using Mem = Handle<cl_mem, clReleaseMemObject>;
using Event = Handle<cl_event, clReleaseEvent>;

// ---------------------------------------------------------------------------
// Devices

struct Device {
  std::string label;        // "Lanewise" or "PoCL"
  bool present = false;     // the loader lists the platform
  std::string setupError;   // why it cannot run anything
  cl_device_id device = nullptr;
  std::string deviceName, platformVersion, threads, form;
  Context context;
  Queue queue;
  Program program;
};

std::string lanewiseThreads() {
  if (const char *text = std::getenv("LANEWISE_THREADS")) {
    const long value = std::strtol(text, nullptr, 10);
    if (value > 0)
      return std::to_string(value) + " (LANEWISE_THREADS)";
  }
  return std::to_string(std::max(1u, std::thread::hardware_concurrency())) + " (all cores)";
}

std::string poclThreads(cl_device_id device) {
  std::string text = std::to_string(deviceValue<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS)) +
                     " (compute units";
  if (const char *cap = std::getenv("POCL_MAX_PTHREAD_COUNT"))
    text += std::string(", POCL_MAX_PTHREAD_COUNT=") + cap;
  return text + ")";
}

// Builds kernels.cl for `d`: SPIR-V through clCreateProgramWithIL when the
// device accepts SPIR-V (CL_DEVICE_IL_VERSION), else OpenCL C through
// clCreateProgramWithSource; --prefer-source reverses the preference
// wherever the device has a compiler.
void buildProgram(Device &d, const Options &o) {
  const std::string il = deviceText(d.device, CL_DEVICE_IL_VERSION);
  const bool compiler = deviceValue<cl_bool>(d.device, CL_DEVICE_COMPILER_AVAILABLE) == CL_TRUE;
  const std::optional<std::string> spv = readFile(o.spvPath);
  const std::optional<std::string> source = readFile(o.sourcePath);
  const bool canIL = il.find("SPIR-V") != std::string::npos && spv && !spv->empty();
  const bool canSource = compiler && source && !source->empty();
  const bool useSource = canSource && (o.preferSource || !canIL);
  if (!useSource && !canIL) {
    throw ClError("cannot build the kernels: the device takes " +
                  (il.empty() ? std::string("no IL") : "IL '" + il + "'") +
                  (compiler ? ", has a compiler" : ", has no compiler") + "; SPIR-V " +
                  (spv ? "read from " + o.spvPath : "not readable at '" + o.spvPath + "'") +
                  ", source " +
                  (source ? "read from " + o.sourcePath
                          : "not readable at '" + o.sourcePath + "'"));
  }
  cl_int err = CL_SUCCESS;
  cl_program program = nullptr;
  if (useSource) {
    const char *text = source->c_str();
    const std::size_t length = source->size();
    program = clCreateProgramWithSource(d.context.get(), 1, &text, &length, &err);
    check(err, "clCreateProgramWithSource");
    d.form = "OpenCL C source (" + o.sourcePath + ")";
  } else {
    program = clCreateProgramWithIL(d.context.get(), spv->data(), spv->size(), &err);
    check(err, "clCreateProgramWithIL");
    d.form = "SPIR-V (" + o.spvPath + ")";
  }
  d.program = Program(program);
  err = clBuildProgram(program, 1, &d.device, "", nullptr, nullptr);
  if (err != CL_SUCCESS) {
    std::size_t size = 0;
    clGetProgramBuildInfo(program, d.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
    std::string log(size, '\0');
    if (size)
      clGetProgramBuildInfo(program, d.device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
    throw ClError("clBuildProgram (" + d.form + ") failed with error " + std::to_string(err) +
                  "; build log:\n" + std::string(log.c_str()));
  }
}

void setUpDevice(Device &d, cl_platform_id platform, const Options &o) {
  d.platformVersion = platformText(platform, CL_PLATFORM_VERSION);
  cl_device_id device = nullptr;
  check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr), "clGetDeviceIDs");
  d.device = device;
  d.deviceName = deviceText(device, CL_DEVICE_NAME);
  d.threads = d.label == "Lanewise" ? lanewiseThreads() : poclThreads(device);
  cl_int err = CL_SUCCESS;
  const cl_context_properties properties[] = {
      CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform), 0};
  d.context = Context(clCreateContext(properties, 1, &device, nullptr, nullptr, &err));
  check(err, "clCreateContext");
  const cl_queue_properties queueProperties[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE,
                                                 0};
  d.queue = Queue(
      clCreateCommandQueueWithProperties(d.context.get(), device, queueProperties, &err));
  check(err, "clCreateCommandQueueWithProperties(CL_QUEUE_PROFILING_ENABLE)");
  buildProgram(d, o);
}

struct Result {
  bool ran = false;
  std::string error;  // setup, build or run failure
  std::string wrong;  // verification failure
  double eventMs = 0; // median START -> END
  double wallMs = 0;  // median enqueue -> wait returned
  // Streaming kernels: the median of each timed run's bandwidth over that
  // of a host triad pass just after it, and the median triad (GB/s).
  double share = 0, triad = 0;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

// The STREAM triad a[i] = b[i] + s * c[i] on the host, over `n` floats per
// array, on `threads` threads (each first touching its own part): the
// memory bandwidth a streaming kernel can hope for, in GB/s counting 12
// bytes per element as the kernels' figures do.
class Triad {
public:
  Triad(std::size_t n, unsigned threads)
      : n_(n), threads_(threads), a_(new float[n]), b_(new float[n]), c_(new float[n]) {
    parts([&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) {
        a_[i] = 0.0f;
        b_[i] = static_cast<float>(i % 1000);
        c_[i] = 0.5f;
      }
    });
  }

  // One timed pass.
  double rate() {
    const auto t0 = std::chrono::steady_clock::now();
    parts([&](std::size_t begin, std::size_t end) {
      float *__restrict pa = a_.get();
      const float *__restrict pb = b_.get();
      const float *__restrict pc = c_.get();
      for (std::size_t i = begin; i < end; ++i)
        pa[i] = pb[i] + s_ * pc[i];
    });
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (a_[n_ - 1] != b_[n_ - 1] + s_ * c_[n_ - 1])
      throw std::runtime_error("the host triad computed a wrong value");
    return static_cast<double>(n_) * 3 * sizeof(float) / 1e9 / seconds;
  }

private:
  template <typename Body> void parts(Body &&body) {
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads_; ++t)
      pool.emplace_back([&, t] { body(n_ * t / threads_, n_ * (t + 1) / threads_); });
    for (std::thread &thread : pool)
      thread.join();
  }

  std::size_t n_;
  unsigned threads_;
  std::unique_ptr<float[]> a_, b_, c_;
  const float s_ = 3.0f;
};

// The threads the triad runs on: as many as the devices use.
unsigned triadThreads() {
  const char *text = std::getenv("LANEWISE_THREADS");
  return static_cast<unsigned>(
      std::max(1L, text ? std::strtol(text, nullptr, 10)
                        : static_cast<long>(std::thread::hardware_concurrency())));
}

// The median of five passes after one that warms up.
double hostTriad(std::size_t n, unsigned threads) {
  Triad triad(n, threads);
  triad.rate();
  std::vector<double> rates;
  for (int rep = 0; rep < 5; ++rep)
    rates.push_back(triad.rate());
  return median(rates);
}

Result run(Device &d, const Benchmark &bm, const Options &o) {
  Result result;
  try {
    cl_int err = CL_SUCCESS;
    Kernel kernel(clCreateKernel(d.program.get(), bm.kernel.c_str(), &err));
    check(err, ("clCreateKernel(" + bm.kernel + ")").c_str());
    std::vector<Mem> buffers;
    cl_mem output = nullptr;
    std::size_t outputBytes = 0;
    for (cl_uint i = 0; i < bm.args.size(); ++i) {
      const Arg &arg = bm.args[i];
      if (arg.kind == Arg::Scalar) {
        check(clSetKernelArg(kernel.get(), i, arg.bytes.size(), arg.bytes.data()),
              "clSetKernelArg");
        continue;
      }
      const bool in = arg.kind == Arg::Input;
      cl_mem mem = clCreateBuffer(d.context.get(),
                                  in ? CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR : CL_MEM_WRITE_ONLY,
                                  arg.bytes.size(),
                                  in ? const_cast<unsigned char *>(arg.bytes.data()) : nullptr,
                                  &err);
      check(err, "clCreateBuffer");
      buffers.emplace_back(mem);
      if (!in) {
        output = mem;
        outputBytes = arg.bytes.size();
      }
      check(clSetKernelArg(kernel.get(), i, sizeof(cl_mem), &mem), "clSetKernelArg");
    }
    const std::vector<unsigned char> sentinel(outputBytes, bm.outputFill);
    auto fillOutput = [&] {
      if (output)
        check(clEnqueueWriteBuffer(d.queue.get(), output, CL_TRUE, 0, outputBytes,
                                   sentinel.data(), 0, nullptr, nullptr),
              "clEnqueueWriteBuffer");
    };
    auto launch = [&](cl_event *event) {
      check(clEnqueueNDRangeKernel(d.queue.get(), kernel.get(), bm.dims, nullptr, bm.global,
                                   bm.local, 0, nullptr, event),
            "clEnqueueNDRangeKernel");
    };
    std::vector<double> eventMs, wallMs;
    if (bm.launches > 0) {
      // The time per launch, from the host's clock (the first round warms up).
      for (int round = 0; round < 1 + std::max(1, o.repeat / 2); ++round) {
        fillOutput();
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < bm.launches; ++i) {
          launch(nullptr);
          if (!bm.pipelined)
            check(clFinish(d.queue.get()), "clFinish");
        }
        check(clFinish(d.queue.get()), "clFinish");
        const double perLaunch =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count() /
            bm.launches;
        if (round > 0) {
          eventMs.push_back(perLaunch);
          wallMs.push_back(perLaunch);
        }
      }
    }
    // A streaming kernel's share of the memory's bandwidth: each timed run
    // paired with a triad pass just after it, in this process, since the
    // bandwidth of a shared machine moves from one second to the next.
    const bool streams = bm.launches == 0 && std::string(bm.unit) == "GB/s";
    std::unique_ptr<Triad> triad;
    if (streams) {
      triad = std::make_unique<Triad>(o.streamN, triadThreads());
      triad->rate();
    }
    std::vector<double> shares, triadRates;
    for (int rep = 0; bm.launches == 0 && rep < o.warmup + o.repeat; ++rep) {
      fillOutput();
      cl_event raw = nullptr;
      const auto t0 = std::chrono::steady_clock::now();
      launch(&raw);
      Event event(raw);
      check(clWaitForEvents(1, &raw), "clWaitForEvents");
      const auto t1 = std::chrono::steady_clock::now();
      cl_int status = CL_SUCCESS;
      check(clGetEventInfo(raw, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                           nullptr),
            "clGetEventInfo");
      check(status < 0 ? status : CL_SUCCESS, "the kernel command");
      cl_ulong start = 0, end = 0;
      check(clGetEventProfilingInfo(raw, CL_PROFILING_COMMAND_START, sizeof start, &start,
                                    nullptr),
            "clGetEventProfilingInfo(START)");
      check(clGetEventProfilingInfo(raw, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr),
            "clGetEventProfilingInfo(END)");
      if (rep >= o.warmup) {
        eventMs.push_back(static_cast<double>(end - start) / 1e6);
        wallMs.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        if (triad) {
          triadRates.push_back(triad->rate());
          shares.push_back(bm.work / (eventMs.back() / 1e3) / triadRates.back());
        }
      }
    }
    std::vector<unsigned char> out(outputBytes);
    if (output)
      check(clEnqueueReadBuffer(d.queue.get(), output, CL_TRUE, 0, outputBytes, out.data(), 0,
                                nullptr, nullptr),
            "clEnqueueReadBuffer");
    result.ran = true;
    result.eventMs = median(eventMs);
    result.wallMs = median(wallMs);
    if (!shares.empty()) {
      result.share = median(shares);
      result.triad = median(triadRates);
    }
    result.wrong = bm.verify(out);
  } catch (const std::exception &e) {
    result.error = e.what();
  }
  return result;
}

std::string fixed(double v, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, v);
  return text;
}

// ---------------------------------------------------------------------------
// Measuring on one platform, in this process or in a child process

enum PlatformIndex { LanewiseIndex = 0, PoclIndex = 1 };
constexpr const char *platformLabels[2] = {"Lanewise", "PoCL"};
constexpr const char *platformOptionNames[2] = {"lanewise", "pocl"};

// What a measurement reports: the device (once set up) and the result.
struct Record {
  bool present = false; // the loader lists the platform
  std::string platformVersion, deviceName, threads, form, setupError;
  bool measured = false; // `result` holds a run (or its failure)
  Result result;
};

// The devices of this process, set up on first use.
Device &localDevice(int p, const Options &o) {
  static Device devices[2];
  static bool looked = false;
  if (!looked) {
    looked = true;
    devices[LanewiseIndex].label = platformLabels[LanewiseIndex];
    devices[PoclIndex].label = platformLabels[PoclIndex];
  }
  Device &d = devices[p];
  static bool setUp[2] = {false, false};
  if (setUp[p])
    return d;
  setUp[p] = true;
  cl_uint count = 0;
  if (clGetPlatformIDs(0, nullptr, &count) != CL_SUCCESS)
    count = 0;
  std::vector<cl_platform_id> platforms(count);
  if (count)
    clGetPlatformIDs(count, platforms.data(), nullptr);
  const char *wanted = p == LanewiseIndex ? lanewisePlatformName : poclPlatformName;
  for (cl_platform_id platform : platforms)
    if (platformText(platform, CL_PLATFORM_NAME) == wanted) {
      d.present = true;
      try {
        setUpDevice(d, platform, o);
      } catch (const std::exception &e) {
        d.setupError = e.what();
      }
      break;
    }
  return d;
}

Record deviceRecord(const Device &d) {
  Record r;
  r.present = d.present;
  r.platformVersion = d.platformVersion;
  r.deviceName = d.deviceName;
  r.threads = d.threads;
  r.form = d.form;
  r.setupError = d.setupError;
  return r;
}

// Sets up platform `p` in this process and runs `bm` on it (if given).
Record measureHere(int p, const Benchmark *bm, const Options &o) {
  Device &d = localDevice(p, o);
  Record r = deviceRecord(d);
  if (bm && d.present && d.setupError.empty()) {
    r.measured = true;
    r.result = run(d, *bm, o);
  }
  return r;
}

// A record travels from a child to its parent as length-prefixed fields.
void putString(std::string &out, const std::string &s) {
  const std::uint64_t n = s.size();
  out.append(reinterpret_cast<const char *>(&n), sizeof n);
  out += s;
}
template <typename T> void putValue(std::string &out, T v) {
  out.append(reinterpret_cast<const char *>(&v), sizeof v);
}
struct Reader {
  const std::string &in;
  std::size_t at = 0;
  bool ok = true;
  template <typename T> T value() {
    T v{};
    if (at + sizeof v > in.size()) {
      ok = false;
      return v;
    }
    std::memcpy(&v, in.data() + at, sizeof v);
    at += sizeof v;
    return v;
  }
  std::string string() {
    const auto n = value<std::uint64_t>();
    if (!ok || at + n > in.size()) {
      ok = false;
      return {};
    }
    std::string s = in.substr(at, n);
    at += n;
    return s;
  }
};

std::string encodeDevice(const Record &r) {
  std::string out;
  putValue<std::uint8_t>(out, 'D');
  putValue<std::uint8_t>(out, r.present);
  for (const std::string *s : {&r.platformVersion, &r.deviceName, &r.threads, &r.form,
                               &r.setupError})
    putString(out, *s);
  return out;
}

std::string encodeResult(const Result &r) {
  std::string out;
  putValue<std::uint8_t>(out, 'R');
  putValue<std::uint8_t>(out, r.ran);
  putString(out, r.error);
  putString(out, r.wrong);
  putValue(out, r.eventMs);
  putValue(out, r.wallMs);
  putValue(out, r.share);
  putValue(out, r.triad);
  return out;
}

void writeAll(int fd, const std::string &data) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return;
    done += static_cast<std::size_t>(n);
  }
}

// Runs measureHere in a child process, so that a driver that crashes or
// leaves bad state behind cannot take the other measurements with it. The
// parent never calls OpenCL (a process that has loaded a driver and its
// threads is not safe to fork).
Record measureIsolated(int p, const Benchmark *bm, const Options &o) {
  int fds[2];
  if (::pipe(fds) != 0) {
    Record r;
    r.present = true;
    r.setupError = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(fds[0]);
    Device &d = localDevice(p, o);
    writeAll(fds[1], encodeDevice(deviceRecord(d)));
    if (bm && d.present && d.setupError.empty())
      writeAll(fds[1], encodeResult(run(d, *bm, o)));
    ::close(fds[1]);
    std::_Exit(0); // no driver teardown: the parent has what it needs
  }
  ::close(fds[1]);
  Record r;
  if (child < 0) {
    ::close(fds[0]);
    r.present = true;
    r.setupError = std::string("fork: ") + std::strerror(errno);
    return r;
  }
  std::string data;
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    data.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  std::string death;
  if (WIFSIGNALED(status))
    death = "the process crashed with signal " + std::to_string(WTERMSIG(status)) + " (" +
            strsignal(WTERMSIG(status)) + ")";
  else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    death = "the process exited with status " + std::to_string(WEXITSTATUS(status));

  Reader in{data};
  bool gotDevice = false;
  if (in.value<std::uint8_t>() == 'D' && in.ok) {
    r.present = in.value<std::uint8_t>() != 0;
    r.platformVersion = in.string();
    r.deviceName = in.string();
    r.threads = in.string();
    r.form = in.string();
    r.setupError = in.string();
    gotDevice = in.ok;
  }
  if (!gotDevice) {
    r = Record{};
    r.present = true; // unknown: say why nothing was measured
    r.setupError = "no report from the measuring process" + (death.empty() ? "" : ": " + death);
    return r;
  }
  if (bm && r.present && r.setupError.empty()) {
    r.measured = true;
    if (in.value<std::uint8_t>() == 'R' && in.ok) {
      r.result.ran = in.value<std::uint8_t>() != 0;
      r.result.error = in.string();
      r.result.wrong = in.string();
      r.result.eventMs = in.value<double>();
      r.result.wallMs = in.value<double>();
      r.result.share = in.value<double>();
      r.result.triad = in.value<double>();
      if (!in.ok)
        r.result = Result{};
    }
    if (!in.ok || (!r.result.ran && r.result.error.empty())) {
      r.result = Result{};
      r.result.error =
          "the kernel did not complete: " + (death.empty() ? std::string("no result") : death);
    }
  }
  return r;
}

Record measure(int p, const Benchmark *bm, const Options &o) {
  return o.singleProcess ? measureHere(p, bm, o) : measureIsolated(p, bm, o);
}

} // namespace

int main(int argc, char **argv) {
  const Options o = parseOptions(argc, argv);
  auto wanted = [&](int p) {
    return o.platforms.empty() || std::find(o.platforms.begin(), o.platforms.end(),
                                            platformOptionNames[p]) != o.platforms.end();
  };
  // The benchmarks, in the order they run; "launch" selects the two launch rows.
  const std::pair<const char *, std::function<Benchmark()>> benchmarks[] = {
      {"vector_add", [&] { return bench::vectorAdd(o.vectorN); }},
      {"saxpy_vload4", [&] { return bench::saxpyVload4(o.streamN); }},
      {"half_to_float", [&] { return bench::halfToFloatBenchmark(2 * o.streamN); }},
      {"transpose4_shuffle", [&] { return bench::transpose4Shuffle(o.streamN); }},
      {"reduce_local", [&] { return bench::reduceLocal(o.streamN); }},
      {"histogram_atomics", [&] { return bench::histogramAtomics(o.streamN); }},
      {"black_scholes", [&] { return bench::blackScholes(o.streamN / 4); }},
      {"walsh8_subgroup", [&] { return bench::walsh8Subgroup(o.streamN); }},
      {"matmul_tiled", [&] { return bench::matmulTiled(o.matmulN); }},
      {"mandelbrot", [&] { return bench::mandelbrot(o.mandelSize, o.mandelIter); }},
      {"launch", [] { return bench::launchEmpty(); }},
      {"launch", [] { return bench::launchPipelined(); }},
  };
  for (const std::string &k : o.kernels)
    if (std::none_of(std::begin(benchmarks), std::end(benchmarks),
                     [&](const auto &b) { return k == b.first; })) {
      std::fprintf(stderr, "lanewise-bench: unknown kernel '%s'\n", k.c_str());
      return 2;
    }

  int status = 0;
  std::printf("lanewise-bench: median of %d timed runs after %d warm-up run(s)%s\n", o.repeat,
              o.warmup, o.singleProcess ? "" : "; each kernel on each platform in its own process");
  std::printf("time = CL_PROFILING_COMMAND_START -> END of the kernel command "
              "(CL_QUEUE_PROFILING_ENABLE); wall = enqueue -> clWaitForEvents returned\n\n");

  // The devices, and whether the kernels build on them.
  bool usable[2] = {false, false};
  bool present[2] = {false, false};
  for (int p = 0; p < 2; ++p) {
    const std::string label = std::string(platformLabels[p]) + ":";
    if (!wanted(p)) {
      std::printf("%-9s not selected\n", label.c_str());
      continue;
    }
    const Record r = measure(p, nullptr, o);
    present[p] = r.present;
    if (!r.present) {
      std::printf("%-9s not present\n", label.c_str());
      if (p == LanewiseIndex) {
        std::fprintf(stderr, "error: the ICD loader lists no '%s' platform (is OCL_ICD_VENDORS "
                             "set? use bench/run.sh)\n",
                     lanewisePlatformName);
        status = 1;
      }
      continue;
    }
    std::printf("%-9s %s\n", label.c_str(), r.platformVersion.c_str());
    std::printf("          device  %s\n", r.deviceName.c_str());
    std::printf("          threads %s\n", r.threads.c_str());
    if (!r.form.empty())
      std::printf("          kernels %s\n", r.form.c_str());
    std::fflush(stdout);
    if (!r.setupError.empty()) {
      std::fprintf(stderr, "error: %s: %s\n", platformLabels[p], r.setupError.c_str());
      status = 1;
    } else {
      usable[p] = true;
    }
  }
  std::printf("\n");

  // The host's memory bandwidth, for the streaming kernels' share of it.
  const bool streaming =
      o.kernels.empty() ||
      std::any_of(o.kernels.begin(), o.kernels.end(), [](const std::string &k) {
        return k != "matmul_tiled" && k != "mandelbrot" && k != "black_scholes" && k != "launch";
      });
  if (streaming) {
    const unsigned threads = triadThreads();
    std::printf("host triad a[i] = b[i] + s * c[i]: %.2f GB/s (%zu floats per array, %u "
                "threads, 12 bytes per element, median of 5)\n\n",
                hostTriad(o.streamN, threads), o.streamN, threads);
  }
  auto ms = [](const Result &r) {
    return r.ran ? fixed(r.eventMs, r.eventMs < 1 ? 4 : 3) : std::string("-");
  };
  auto wall = [](const Result &r) {
    return r.ran ? fixed(r.wallMs, r.wallMs < 1 ? 4 : 3) : std::string("-");
  };
  auto verdict = [&](int p, const Result &r) -> std::string {
    if (!present[p])
      return "n/a";
    if (!r.ran)
      return "FAILED";
    return r.wrong.empty() ? "yes" : "NO";
  };
  struct Row {
    std::string kernel;
    Result r[2];
  };
  std::vector<Row> rows;
  const char *format = "%-18s %-20s %12s %12s %7s  %-6s %-7s %10s %10s  %-10s %-12s %-12s\n";
  std::printf(format, "kernel", "size", "lanewise_ms", "pocl_ms", "ratio", "lw_ok", "pocl_ok",
              "lw_rate", "pocl_rate", "rate_unit", "lw_triad", "pocl_triad");
  double logRatios = 0;
  int ratioCount = 0;
  for (const auto &[name, make] : benchmarks) {
    if (!o.kernels.empty() &&
        std::find(o.kernels.begin(), o.kernels.end(), name) == o.kernels.end())
      continue;
    const Benchmark bm = make();
    Row row{bm.kernel, {}};
    for (int p = 0; p < 2; ++p) {
      if (!usable[p])
        continue;
      Record record = measure(p, &bm, o);
      if (!record.setupError.empty())
        record.result.error = record.setupError;
      row.r[p] = record.result;
      if (!row.r[p].error.empty()) {
        std::fprintf(stderr, "error: %s on %s: %s\n", bm.kernel.c_str(), platformLabels[p],
                     row.r[p].error.c_str());
        status = 1;
      } else if (!row.r[p].wrong.empty()) {
        std::fprintf(stderr, "error: %s on %s: wrong output: %s\n", bm.kernel.c_str(),
                     platformLabels[p], row.r[p].wrong.c_str());
        status = 1;
      }
      std::fflush(stderr);
    }
    const Result &lw = row.r[LanewiseIndex], &pocl = row.r[PoclIndex];
    const bool compared = lw.ran && pocl.ran && pocl.eventMs > 0 && lw.eventMs > 0;
    const std::string ratio = compared ? fixed(lw.eventMs / pocl.eventMs, 2) : "n/a";
    if (compared && bm.launches == 0) {
      logRatios += std::log(lw.eventMs / pocl.eventMs);
      ++ratioCount;
    }
    auto rate = [&](const Result &r) {
      return r.ran && r.eventMs > 0 ? fixed(bm.work / (r.eventMs / 1e3), 3) : std::string("-");
    };
    // A streaming kernel's bandwidth as a share of the host's triad.
    auto share = [&](int p) {
      const Result &r = row.r[p];
      if (!r.ran || r.share <= 0)
        return std::string("-");
      return fixed(100 * r.share, 0) + "% of " + fixed(r.triad, 1);
    };
    const std::string label = bm.launches ? "launch " + bm.kernel : bm.kernel;
    std::printf(format, label.c_str(), bm.size.c_str(), ms(lw).c_str(), ms(pocl).c_str(),
                ratio.c_str(), verdict(LanewiseIndex, lw).c_str(), verdict(PoclIndex, pocl).c_str(),
                rate(lw).c_str(), rate(pocl).c_str(), bm.unit, share(LanewiseIndex).c_str(),
                share(PoclIndex).c_str());
    std::fflush(stdout);
    row.kernel = label;
    rows.push_back(std::move(row));
  }
  if (ratioCount)
    std::printf("geometric mean of the kernels' ratios: %.2f over %d kernels\n",
                std::exp(logRatios / ratioCount), ratioCount);
  std::printf("(ratio = lanewise_ms / pocl_ms, above 1: Lanewise slower; rates from the medians, "
              "GB/s counting the bytes each kernel must read and write once; *_triad: that rate "
              "as a share of a host triad pass run just after each timed run (median of the "
              "shares; of the median triad, GB/s); launch rows: "
              "milliseconds per launch from the host's "
              "clock)\n\n");
  std::printf("%-18s %12s %12s\n", "kernel", "lw_wall_ms", "pocl_wall_ms");
  for (const Row &row : rows)
    std::printf("%-18s %12s %12s\n", row.kernel.c_str(), wall(row.r[LanewiseIndex]).c_str(),
                wall(row.r[PoclIndex]).c_str());
  return status;
}
