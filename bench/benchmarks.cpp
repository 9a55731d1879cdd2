// SPDX-License-Identifier: Apache-2.0
// The benchmarks of lanewise-bench (bench/benchmarks.h): streaming kernels,
// reductions, atomics, sub-groups, a tiled matrix product, Mandelbrot, and
// the launch cost, each with its C++ reference. The references round like
// the kernels, which disable contraction (-ffp-contract=off).
#include "benchmarks.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace bench {
namespace {

template <typename T> std::string showValue(T v) {
  std::ostringstream s;
  if constexpr (std::is_floating_point_v<T>)
    s.precision(9);
  s << v;
  return s.str();
}

// Compares an output with the reference, exactly (the kernels are written
// so that every correct implementation produces the same bits).
template <typename T>
std::string compareExact(const std::vector<T> &expected, const std::vector<unsigned char> &bytes,
                         const std::function<std::string(std::size_t)> &where) {
  std::vector<T> got(expected.size());
  std::memcpy(got.data(), bytes.data(), got.size() * sizeof(T));
  std::size_t bad = 0, first = 0;
  for (std::size_t i = 0; i < expected.size(); ++i)
    if (!(got[i] == expected[i]) && bad++ == 0)
      first = i;
  if (!bad)
    return {};
  return std::to_string(bad) + " of " + std::to_string(expected.size()) +
         " values differ; first at " + where(first) + ": expected " + showValue(expected[first]) +
         ", got " + showValue(got[first]);
}

// Deterministic pseudo-random numbers (the same on every run).
struct Random {
  std::uint64_t state;
  explicit Random(std::uint64_t seed) : state(seed) {}
  std::uint32_t next() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::uint32_t>(state >> 33);
  }
  float unit() { return static_cast<float>(next() >> 8) * (1.0f / 16777216.0f); }
};

std::function<std::string(std::size_t)> indexed(const char *name) {
  return [name](std::size_t i) { return std::string(name) + "[" + std::to_string(i) + "]"; };
}

// A one-dimensional streaming benchmark: `items` work-items in groups of
// `group`, its output compared exactly with `expected`, its rate the `bytes`
// it must read and write once.
template <typename T>
Benchmark streaming(const char *kernel, std::size_t n, std::size_t items, std::size_t group,
                    std::vector<Arg> args, std::vector<T> expected, const char *output,
                    double bytes) {
  Benchmark bm;
  bm.kernel = kernel;
  bm.size = "n=" + std::to_string(n);
  bm.global[0] = items;
  bm.local[0] = group;
  bm.args = std::move(args);
  bm.verify = [expected = std::move(expected), output](const std::vector<unsigned char> &out) {
    return compareExact(expected, out, indexed(output));
  };
  bm.work = bytes / 1e9;
  bm.unit = "GB/s";
  return bm;
}

// Compares an output of float values with the reference within an absolute
// tolerance (kernels whose functions may differ in the last bits between
// correct implementations).
template <typename T>
std::string compareWithin(const std::vector<T> &expected, const std::vector<unsigned char> &bytes,
                          double tolerance, const std::function<std::string(std::size_t)> &where) {
  std::vector<T> got(expected.size());
  std::memcpy(got.data(), bytes.data(), got.size() * sizeof(T));
  std::size_t bad = 0, first = 0;
  for (std::size_t i = 0; i < expected.size(); ++i)
    if (!(std::fabs(static_cast<double>(got[i]) - static_cast<double>(expected[i])) <= tolerance) &&
        bad++ == 0)
      first = i;
  if (!bad)
    return {};
  return std::to_string(bad) + " of " + std::to_string(expected.size()) +
         " values are further than " + showValue(tolerance) + " from the reference; first at " +
         where(first) + ": expected " + showValue(expected[first]) + ", got " +
         showValue(got[first]);
}

// IEEE 754 binary16 to binary32, exactly (every half is a float).
float halfToFloat(std::uint16_t h) {
  const std::uint32_t sign = (h >> 15) & 1, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  float value;
  if (exponent == 0)
    value = std::ldexp(static_cast<float>(mantissa), -24);
  else if (exponent == 31)
    value = mantissa ? std::nanf("") : INFINITY;
  else
    value = std::ldexp(static_cast<float>(mantissa | 0x400), static_cast<int>(exponent) - 25);
  return sign ? -value : value;
}

} // namespace

Benchmark vectorAdd(std::size_t n) {
  std::vector<float> a(n), b(n), c(n);
  Random r(1);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = r.unit() * 100.0f - 50.0f;
    b[i] = r.unit() * 3.0f;
    c[i] = a[i] + b[i];
  }
  return streaming(
      "vector_add", n, n, 128,
      {inputArg(a), inputArg(b), outputArg<float>(n), scalarArg(static_cast<cl_uint>(n))},
      std::move(c), "c", double(n) * 3 * sizeof(float));
}

Benchmark matmulTiled(int n) {
  const std::size_t count = static_cast<std::size_t>(n) * n;
  // Small integers: every partial sum is exact in float, so the result does
  // not depend on the order of the additions.
  std::vector<float> a(count), b(count), c(count, 0.0f);
  Random r(2);
  for (std::size_t i = 0; i < count; ++i) {
    a[i] = static_cast<float>(static_cast<int>(r.next() % 9) - 4);
    b[i] = static_cast<float>(static_cast<int>(r.next() % 9) - 4);
  }
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k) {
      const float aik = a[static_cast<std::size_t>(i) * n + k];
      const float *brow = &b[static_cast<std::size_t>(k) * n];
      float *crow = &c[static_cast<std::size_t>(i) * n];
      for (int j = 0; j < n; ++j)
        crow[j] += aik * brow[j];
    }
  Benchmark bm;
  bm.kernel = "matmul_tiled";
  bm.size = std::to_string(n) + "x" + std::to_string(n);
  bm.dims = 2;
  bm.global[0] = bm.global[1] = static_cast<std::size_t>(n);
  bm.local[0] = bm.local[1] = 16;
  bm.args = {inputArg(a), inputArg(b), outputArg<float>(count), scalarArg(static_cast<cl_int>(n))};
  bm.verify = [c = std::move(c), n](const std::vector<unsigned char> &out) {
    return compareExact(c, out, [n](std::size_t i) {
      return "C[" + std::to_string(i / n) + "][" + std::to_string(i % n) + "]";
    });
  };
  bm.work = 2.0 * n * n * static_cast<double>(n) / 1e9;
  bm.unit = "GFLOP/s";
  return bm;
}

Benchmark mandelbrot(int size, int maxIter) {
  const int width = size, height = size;
  const float x0 = -2.25f, y0 = -1.5f;
  const float dx = 3.0f / static_cast<float>(width), dy = 3.0f / static_cast<float>(height);
  std::vector<cl_int> counts(static_cast<std::size_t>(width) * height);
  double iterations = 0;
  for (int py = 0; py < height; ++py)
    for (int px = 0; px < width; ++px) {
      // The kernel's arithmetic, operation for operation (no contraction).
      const float cr = x0 + static_cast<float>(px) * dx;
      const float ci = y0 + static_cast<float>(py) * dy;
      float zr = 0.0f, zi = 0.0f;
      int it = 0;
      while (it < maxIter) {
        const float zr2 = zr * zr;
        const float zi2 = zi * zi;
        if (zr2 + zi2 > 4.0f)
          break;
        const float next = zr2 - zi2 + cr;
        zi = 2.0f * zr * zi + ci;
        zr = next;
        ++it;
      }
      counts[static_cast<std::size_t>(py) * width + px] = it;
      iterations += it;
    }
  Benchmark bm;
  bm.kernel = "mandelbrot";
  bm.size =
      std::to_string(width) + "x" + std::to_string(height) + " it<=" + std::to_string(maxIter);
  bm.dims = 2;
  bm.global[0] = static_cast<std::size_t>(width);
  bm.global[1] = static_cast<std::size_t>(height);
  bm.local[0] = 128;
  bm.local[1] = 1;
  bm.args = {outputArg<cl_int>(counts.size()),
             scalarArg(static_cast<cl_int>(width)),
             scalarArg(x0),
             scalarArg(y0),
             scalarArg(dx),
             scalarArg(dy),
             scalarArg(static_cast<cl_int>(maxIter))};
  bm.verify = [counts = std::move(counts), width](const std::vector<unsigned char> &out) {
    return compareExact(counts, out, [width](std::size_t i) {
      return "pixel (" + std::to_string(i % width) + "," + std::to_string(i / width) + ")";
    });
  };
  // Throughput in loop iterations (the real work of a divergent loop).
  bm.work = iterations / 1e9;
  bm.unit = "Giter/s";
  return bm;
}
Benchmark saxpyVload4(std::size_t n) {
  const float a = 1.5f;
  std::vector<float> x(n), y(n), out(n);
  Random r(3);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = r.unit() * 8.0f - 4.0f;
    y[i] = r.unit() * 2.0f;
    out[i] = a * x[i] + y[i];
  }
  return streaming("saxpy_vload4", n, n / 4, 128,
                   {scalarArg(a), inputArg(x), inputArg(y), outputArg<float>(n)}, std::move(out),
                   "out", double(n) * 3 * sizeof(float));
}

Benchmark halfToFloatBenchmark(std::size_t n) {
  std::vector<std::uint16_t> h(n);
  std::vector<float> out(n);
  Random r(4);
  for (std::size_t i = 0; i < n; ++i) {
    // Every finite half: normals, subnormals and zeros of both signs.
    std::uint16_t bits;
    do
      bits = static_cast<std::uint16_t>(r.next());
    while (((bits >> 10) & 0x1f) == 31);
    h[i] = bits;
    out[i] = halfToFloat(bits);
  }
  return streaming("half_to_float", n, n / 8, 128, {inputArg(h), outputArg<float>(n)},
                   std::move(out), "out", double(n) * (sizeof(std::uint16_t) + sizeof(float)));
}

Benchmark transpose4Shuffle(std::size_t n) {
  std::vector<float> in(n), out(n);
  Random r(5);
  for (std::size_t i = 0; i < n; ++i)
    in[i] = r.unit() * 10.0f;
  for (std::size_t block = 0; block < n; block += 16)
    for (int row = 0; row < 4; ++row)
      for (int col = 0; col < 4; ++col)
        out[block + 4 * col + row] = in[block + 4 * row + col];
  return streaming("transpose4_shuffle", n, n / 16, 128, {inputArg(in), outputArg<float>(n)},
                   std::move(out), "out", double(n) * 2 * sizeof(float));
}

Benchmark reduceLocal(std::size_t n) {
  constexpr std::size_t group = 256; // REDUCE_GROUP in kernels.cl
  std::vector<cl_int> in(n), sums(n / group, 0);
  Random r(6);
  for (std::size_t i = 0; i < n; ++i) {
    in[i] = static_cast<cl_int>(r.next() % 2001) - 1000;
    sums[i / group] += in[i];
  }
  return streaming("reduce_local", n, n, group, {inputArg(in), outputArg<cl_int>(n / group)},
                   std::move(sums), "sums", double(n) * sizeof(cl_int));
}

Benchmark histogramAtomics(std::size_t bytes) {
  constexpr cl_uint bytesPerItem = 16;
  std::vector<std::uint8_t> data(bytes);
  std::vector<cl_uint> bins(256, 0);
  Random r(7);
  for (std::size_t i = 0; i < bytes; ++i) {
    // Skewed towards the low bins, as real data is: contention on a few.
    const std::uint32_t v = r.next();
    data[i] = static_cast<std::uint8_t>((v & 3) ? (v >> 8) % 16 : (v >> 8) % 256);
    ++bins[data[i]];
  }
  Benchmark bm;
  bm.kernel = "histogram_atomics";
  bm.size = "bytes=" + std::to_string(bytes);
  bm.global[0] = bytes / bytesPerItem;
  bm.local[0] = 128;
  bm.args = {inputArg(data), scalarArg(bytesPerItem), outputArg<cl_uint>(256)};
  bm.outputFill = 0; // the kernel adds to its bins
  bm.verify = [bins = std::move(bins)](const std::vector<unsigned char> &out) {
    return compareExact(bins, out, indexed("bins"));
  };
  bm.work = static_cast<double>(bytes) / 1e9;
  bm.unit = "GB/s";
  return bm;
}

// The reference in double precision; the kernel's functions are held to
// OpenCL's ULP bounds, so an absolute tolerance of 1e-3 on prices of at
// most 100 leaves room for them and catches any wrong formula.
Benchmark blackScholes(std::size_t n) {
  const float rate = 0.02f, volatility = 0.30f;
  std::vector<float> spot(n), strike(n), years(n), prices(2 * n);
  Random r(8);
  for (std::size_t i = 0; i < n; ++i) {
    spot[i] = 10.0f + r.unit() * 90.0f;
    strike[i] = 10.0f + r.unit() * 90.0f;
    years[i] = 0.25f + r.unit() * 9.75f;
    const double s = spot[i], k = strike[i], t = years[i];
    const double d1 = (std::log(s / k) + (rate + 0.5 * volatility * volatility) * t) /
                      (volatility * std::sqrt(t));
    const double d2 = d1 - volatility * std::sqrt(t);
    const auto cdf = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
    const double discounted = k * std::exp(-static_cast<double>(rate) * t);
    prices[2 * i] = static_cast<float>(s * cdf(d1) - discounted * cdf(d2));
    prices[2 * i + 1] = static_cast<float>(discounted * cdf(-d2) - s * cdf(-d1));
  }
  Benchmark bm;
  bm.kernel = "black_scholes";
  bm.size = "n=" + std::to_string(n);
  bm.global[0] = n;
  bm.local[0] = 128;
  bm.args = {inputArg(spot),  inputArg(strike),      inputArg(years),
             scalarArg(rate), scalarArg(volatility), outputArg<float>(2 * n)};
  bm.verify = [prices = std::move(prices)](const std::vector<unsigned char> &out) {
    return compareWithin(prices, out, 1e-3, [](std::size_t i) {
      return std::string(i % 2 ? "put" : "call") + "[" + std::to_string(i / 2) + "]";
    });
  };
  bm.work = static_cast<double>(n) / 1e6;
  bm.unit = "Moptions/s";
  return bm;
}

Benchmark walsh8Subgroup(std::size_t n) {
  std::vector<cl_int> in(n), out(n);
  Random r(9);
  for (std::size_t i = 0; i < n; ++i)
    in[i] = static_cast<cl_int>(r.next() % 20001) - 10000;
  for (std::size_t group = 0; group < n; group += 8) {
    cl_int v[8];
    std::copy_n(&in[group], 8, v);
    for (unsigned h = 1; h < 8; h *= 2) {
      cl_int next[8];
      for (unsigned lane = 0; lane < 8; ++lane)
        next[lane] = (lane & h) ? v[lane ^ h] - v[lane] : v[lane] + v[lane ^ h];
      std::copy_n(next, 8, v);
    }
    std::copy_n(v, 8, &out[group]);
  }
  // Groups of WHT_GROUP (kernels.cl) work-items.
  return streaming("walsh8_subgroup", n, n, 128, {inputArg(in), outputArg<cl_int>(n)},
                   std::move(out), "out", double(n) * 2 * sizeof(cl_int));
}

// The launch cost: an empty kernel of one work-item, each launch waited for;
// and 10,000 launches of a 1,024-work-item vector_add enqueued back to back
// with one clFinish at the end.
Benchmark launchEmpty() {
  Benchmark bm;
  bm.kernel = "empty";
  bm.size = "1 item, finish each";
  bm.global[0] = 1;
  bm.local[0] = 1;
  bm.launches = 1000;
  bm.verify = [](const std::vector<unsigned char> &) { return std::string(); };
  bm.work = 1e-6;
  bm.unit = "Mlaunch/s";
  return bm;
}

Benchmark launchPipelined() {
  Benchmark bm = vectorAdd(1024);
  bm.size = "10000 x 1024 items";
  bm.launches = 10000;
  bm.pipelined = true;
  bm.work = 1e-6;
  bm.unit = "Mlaunch/s";
  return bm;
}

} // namespace bench
