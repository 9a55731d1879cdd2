// SPDX-License-Identifier: Apache-2.0
// The benchmarks of lanewise-bench (bench/benchmarks.cpp): each a kernel of
// bench/kernels.cl with its sizes, arguments, the check of its output
// against a C++ reference, and the work a run does; bench/main.cpp runs
// them.
#pragma once

#include <CL/cl.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace bench {

// One kernel argument: a buffer the kernel reads, the buffer it writes
// (filled with 0xff bytes before every run, so that a run that writes
// nothing cannot pass), or a scalar.
struct Arg {
  enum Kind { Input, Output, Scalar } kind;
  std::vector<unsigned char> bytes; // contents, output size, or scalar value
};

template <typename T> Arg inputArg(const std::vector<T> &data) {
  const auto *p = reinterpret_cast<const unsigned char *>(data.data());
  return {Arg::Input, std::vector<unsigned char>(p, p + data.size() * sizeof(T))};
}
template <typename T> Arg outputArg(std::size_t count) {
  return {Arg::Output, std::vector<unsigned char>(count * sizeof(T))};
}
template <typename T> Arg scalarArg(T value) {
  const auto *p = reinterpret_cast<const unsigned char *>(&value);
  return {Arg::Scalar, std::vector<unsigned char>(p, p + sizeof(T))};
}

struct Benchmark {
  std::string kernel;
  std::string size;
  cl_uint dims = 1;
  std::size_t global[2] = {1, 1};
  std::size_t local[2] = {1, 1};
  std::vector<Arg> args;
  // Returns "" when the output is right, else what is wrong.
  std::function<std::string(const std::vector<unsigned char> &)> verify;
  // Work per run, for throughput: amount and unit per second. A kernel
  // measured in GB/s is a streaming kernel, shown as a share of the host's
  // triad too.
  double work = 0;
  const char *unit = "";
  // The byte the output buffer is filled with before every run.
  unsigned char outputFill = 0xff;
  // Launch-cost rows: the time shown is per launch of `launches` launches,
  // each waited for (enqueue-and-finish) or all enqueued before one clFinish.
  int launches = 0;
  bool pipelined = false;
};

// The benchmarks, in the order lanewise-bench runs them.
Benchmark vectorAdd(std::size_t n);
Benchmark saxpyVload4(std::size_t n);
Benchmark halfToFloatBenchmark(std::size_t n);
Benchmark transpose4Shuffle(std::size_t n);
Benchmark reduceLocal(std::size_t n);
Benchmark histogramAtomics(std::size_t bytes);
Benchmark blackScholes(std::size_t n);
Benchmark walsh8Subgroup(std::size_t n);
Benchmark matmulTiled(int n);
Benchmark mandelbrot(int size, int maxIter);
// The launch cost (the two "launch" rows).
Benchmark launchEmpty();
Benchmark launchPipelined();

} // namespace bench
