// SPDX-License-Identifier: Apache-2.0
// lanewise-build-bench: how long an OpenCL C program takes to build, on
// every OpenCL device the ICD loader shows (bench/run.sh --build-times
// shows Lanewise, PoCL and Oclgrind), in one run.
//
// A build is clCreateProgramWithSource, clBuildProgram and
// clCreateKernelsInProgram, timed on the wall clock. For each device and
// each of two programs (a small kernel and a generated 500-line one):
// - first: the first build of the process (start-up costs included);
// - cold: builds of sources no build has seen (a unique comment first), so
//   that no cache holds them;
// - warm: the same source built again, which a build cache may serve.
// It prints medians and each device's time as a multiple of Lanewise's.
// With --processes N it measures instead what a short-lived program meets:
// N new processes, one after another, each building the small kernel once
// with the build caches off (LANEWISE_CACHE=0, POCL_KERNEL_CACHE=0); it
// prints the medians of their first build and of the whole process, from
// its start to the kernels created.
// It measures; it asserts nothing about speed. Every build must succeed.
#include <CL/cl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

const char *const smallSource = R"(
kernel void vector_add(global const float *a, global const float *b, global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
)";

// A 500-line program: helper functions of the kinds real kernels have
// (loops, branches, vector arithmetic, math and integer built-ins, local
// memory and a barrier), and kernels that call them.
std::string largeSource() {
  std::ostringstream out;
  out << "// A generated program of about 500 lines.\n"
         "typedef struct { float4 position; float4 velocity; int id; } Particle;\n\n";
  constexpr int helpers = 32;
  for (int i = 0; i < helpers; ++i) {
    out << "float helper" << i << "(float x, int n, global const float *table) {\n"
        << "  float sum = " << i << ".5f;\n"
        << "  for (int k = 0; k < n; ++k) {\n"
        << "    float t = table[(k * " << (i + 3) << ") & 63];\n"
        << "    if (t > x)\n"
        << "      sum += native_sqrt(fabs(t - x)) * " << (i % 7 + 1) << ".0f;\n"
        << "    else\n"
        << "      sum -= mad(t, x, (float)" << i << ") / (1.0f + k);\n"
        << "  }\n"
        << "  float4 v = (float4)(sum, x, (float)n, " << i << ".0f);\n"
        << "  v = v * v.wzyx + (float4)(" << i << ".0f);\n"
        << "  return dot(v, (float4)(0.25f)) + (float)popcount(n ^ " << i * 17 << ");\n"
        << "}\n\n";
  }
  out << "kernel void combine(global const float *in, global float *out,\n"
         "                      global const float *table, int n) {\n"
         "  size_t i = get_global_id(0);\n"
         "  float x = in[i];\n"
         "  float acc = 0.0f;\n";
  for (int i = 0; i < helpers; ++i)
    out << "  acc += helper" << i << "(x + " << i << ".0f, n, table);\n";
  out << "  out[i] = acc;\n"
         "}\n\n"
         "kernel void reduce(global const float *in, global float *out, local float *scratch) {\n"
         "  size_t lid = get_local_id(0);\n"
         "  scratch[lid] = in[get_global_id(0)];\n"
         "  barrier(CLK_LOCAL_MEM_FENCE);\n"
         "  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {\n"
         "    if (lid < s)\n"
         "      scratch[lid] += scratch[lid + s];\n"
         "    barrier(CLK_LOCAL_MEM_FENCE);\n"
         "  }\n"
         "  if (lid == 0)\n"
         "    out[get_group_id(0)] = scratch[0];\n"
         "}\n\n"
         "kernel void integrate(global Particle *particles, float dt) {\n"
         "  size_t i = get_global_id(0);\n"
         "  Particle p = particles[i];\n"
         "  float4 a = -p.position * rsqrt(dot(p.position, p.position) + 1e-3f);\n"
         "  p.velocity += a * dt;\n"
         "  p.position += p.velocity * dt;\n"
         "  p.id = (int)i;\n"
         "  particles[i] = p;\n"
         "}\n";
  return out.str();
}

struct Device {
  cl_platform_id platform;
  cl_device_id device;
  std::string name; // the platform's name
};

std::string platformName(cl_platform_id platform) {
  char name[256] = {};
  clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name, name, nullptr);
  return name;
}

std::vector<Device> devices() {
  cl_uint count = 0;
  clGetPlatformIDs(0, nullptr, &count);
  std::vector<cl_platform_id> platforms(count);
  clGetPlatformIDs(count, platforms.data(), nullptr);
  std::vector<Device> result;
  for (cl_platform_id platform : platforms) {
    cl_device_id device = nullptr;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) == CL_SUCCESS)
      result.push_back({platform, device, platformName(platform)});
  }
  return result;
}

double nowMs() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

// One build; throws with the build log when it fails.
double build(cl_context context, const Device &d, const std::string &source) {
  const double start = nowMs();
  const char *text = source.c_str();
  cl_int err = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(context, 1, &text, nullptr, &err);
  if (err != CL_SUCCESS)
    throw std::runtime_error("clCreateProgramWithSource failed: " + std::to_string(err));
  err = clBuildProgram(program, 1, &d.device, "", nullptr, nullptr);
  if (err != CL_SUCCESS) {
    size_t size = 0;
    clGetProgramBuildInfo(program, d.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
    std::string log(size, '\0');
    clGetProgramBuildInfo(program, d.device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
    clReleaseProgram(program);
    throw std::runtime_error("clBuildProgram failed with " + std::to_string(err) + ":\n" + log);
  }
  cl_uint kernels = 0;
  clCreateKernelsInProgram(program, 0, nullptr, &kernels);
  std::vector<cl_kernel> created(kernels);
  clCreateKernelsInProgram(program, kernels, created.data(), nullptr);
  const double elapsed = nowMs() - start;
  for (cl_kernel kernel : created)
    clReleaseKernel(kernel);
  clReleaseProgram(program);
  return elapsed;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

struct Result {
  double first = 0, cold = 0, warm = 0;
};

void usage() {
  std::puts("usage: lanewise-build-bench [--builds N] [--processes N] [--platform SUBSTRING]\n"
            "                            [--print-large]\n"
            "  --builds N          cold and warm builds per device and program (default 15)\n"
            "  --processes N       N new processes per device, each timing its first build\n"
            "  --platform TEXT     only platforms whose name contains TEXT (repeatable)\n"
            "  --print-large       print the 500-line program and exit");
}

bool selected(const Device &d, const std::vector<std::string> &only) {
  return only.empty() || std::any_of(only.begin(), only.end(), [&](const std::string &text) {
           return d.name.find(text) != std::string::npos;
         });
}

// A process of --processes: the first build of the small kernel on the
// device of the platform named exactly `platform`; prints its time.
int firstBuildOnly(const std::string &platform) {
  for (const Device &d : devices()) {
    if (d.name != platform)
      continue;
    cl_int err = CL_SUCCESS;
    cl_context context = clCreateContext(nullptr, 1, &d.device, nullptr, nullptr, &err);
    const std::string source =
        "// " + std::to_string(getpid()) + " " + std::to_string(time(nullptr)) + "\n" + smallSource;
    try {
      std::printf("%.3f\n", build(context, d, source));
    } catch (const std::exception &error) {
      std::fprintf(stderr, "%s: %s\n", d.name.c_str(), error.what());
      return 1;
    }
    clReleaseContext(context);
    return 0;
  }
  std::fprintf(stderr, "no platform named '%s'\n", platform.c_str());
  return 1;
}

// Runs `processes` copies of this program, one after another, each timing
// its first build on `d`; prints the medians.
bool timeFirstBuilds(const char *self, const Device &d, int processes) {
  setenv("LANEWISE_CACHE", "0", 1);
  setenv("POCL_KERNEL_CACHE", "0", 1);
  std::vector<double> builds, wholes;
  for (int i = 0; i < processes; ++i) {
    int output[2];
    if (pipe(output) != 0)
      return false;
    const double start = nowMs();
    const pid_t child = fork();
    if (child == 0) {
      dup2(output[1], STDOUT_FILENO);
      close(output[0]);
      close(output[1]);
      execl(self, self, "--first-build-only", d.name.c_str(), static_cast<char *>(nullptr));
      _exit(127);
    }
    close(output[1]);
    std::string text;
    char chunk[256];
    for (ssize_t count; (count = read(output[0], chunk, sizeof chunk)) > 0;)
      text.append(chunk, static_cast<size_t>(count));
    close(output[0]);
    int status = 0;
    waitpid(child, &status, 0);
    const double whole = nowMs() - start;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || text.empty())
      return false;
    builds.push_back(std::atof(text.c_str()));
    wholes.push_back(whole);
  }
  std::printf("%-28s first build of a process: median %7.1f ms (of %d; min %.1f, max %.1f); "
              "whole process %7.1f ms\n",
              d.name.c_str(), median(builds), processes,
              *std::min_element(builds.begin(), builds.end()),
              *std::max_element(builds.begin(), builds.end()), median(wholes));
  std::fflush(stdout);
  return true;
}

} // namespace

int main(int argc, char **argv) {
  int builds = 15, processes = 0;
  std::vector<std::string> only;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument == "--first-build-only" && i + 1 < argc) {
      return firstBuildOnly(argv[i + 1]);
    } else if (argument == "--builds" && i + 1 < argc) {
      builds = std::max(1, std::atoi(argv[++i]));
    } else if (argument == "--processes" && i + 1 < argc) {
      processes = std::max(1, std::atoi(argv[++i]));
    } else if (argument == "--print-large") {
      std::fputs(largeSource().c_str(), stdout);
      return 0;
    } else if (argument == "--platform" && i + 1 < argc) {
      only.push_back(argv[++i]);
    } else {
      usage();
      return argument == "--help" ? 0 : 2;
    }
  }
  if (processes > 0) {
    int failures = 0;
    for (const Device &d : devices())
      if (selected(d, only) && !timeFirstBuilds("/proc/self/exe", d, processes)) {
        std::fprintf(stderr, "%s: a process's first build failed\n", d.name.c_str());
        ++failures;
      }
    return failures ? 1 : 0;
  }
  // Unique to this run, so that cold sources miss every cache, this run's
  // and earlier runs' alike.
  const std::string run = std::to_string(getpid()) + "-" + std::to_string(time(nullptr));
  const std::vector<std::pair<std::string, std::string>> programs = {
      {"small (4 lines)", smallSource}, {"500 lines", largeSource()}};

  std::map<std::pair<std::string, std::string>, Result> results;
  std::vector<std::string> names;
  int failures = 0;
  for (const Device &d : devices()) {
    if (!selected(d, only))
      continue;
    names.push_back(d.name);
    cl_int err = CL_SUCCESS;
    cl_context context = clCreateContext(nullptr, 1, &d.device, nullptr, nullptr, &err);
    try {
      int serial = 0;
      for (const auto &[program, source] : programs) {
        auto fresh = [&] { return "// " + run + " " + std::to_string(serial++) + "\n" + source; };
        Result r;
        const std::string firstSource = fresh();
        r.first = build(context, d, firstSource);
        std::vector<double> cold, warm;
        for (int i = 0; i < builds; ++i)
          cold.push_back(build(context, d, fresh()));
        for (int i = 0; i < builds; ++i)
          warm.push_back(build(context, d, firstSource));
        r.cold = median(cold);
        r.warm = median(warm);
        results[{d.name, program}] = r;
        std::printf("%-28s %-16s first %8.1f ms   cold %8.1f ms   warm %8.1f ms\n",
                    d.name.c_str(), program.c_str(), r.first, r.cold, r.warm);
        std::fflush(stdout);
      }
    } catch (const std::exception &error) {
      std::fprintf(stderr, "%s: %s\n", d.name.c_str(), error.what());
      ++failures;
    }
    clReleaseContext(context);
  }

  // Each device beside Lanewise: its median over Lanewise's.
  const auto lanewise = std::find_if(names.begin(), names.end(), [](const std::string &name) {
    return name.find("Lanewise") != std::string::npos;
  });
  if (lanewise != names.end() && names.size() > 1) {
    std::printf("\nmedian build time as a multiple of Lanewise's (above 1: Lanewise is faster)\n");
    for (const std::string &name : names) {
      if (name == *lanewise)
        continue;
      for (const auto &[program, source] : programs) {
        const auto mine = results.find({*lanewise, program});
        const auto theirs = results.find({name, program});
        if (mine == results.end() || theirs == results.end())
          continue;
        std::printf("%-28s %-16s cold %6.2fx   warm %6.2fx\n", name.c_str(), program.c_str(),
                    theirs->second.cold / mine->second.cold, theirs->second.warm / mine->second.warm);
      }
    }
  }
  return failures ? 1 : 0;
}
