// SPDX-License-Identifier: Apache-2.0
// lanewise-image-bench: the image filters of bench/image_kernels.cl on
// Lanewise and, in the same process, on PoCL when the ICD loader lists it:
// blurs, an unsharp mask, Sobel and Harris responses, a bilinear warp,
// non-local means and a convolution through __local tiles, over RGBA 8-bit
// (CL_UNORM_INT8), RGBA float and one-channel float images, read through
// CLK_FILTER_NEAREST and CLK_FILTER_LINEAR samplers. Both platforms build
// the kernels from the OpenCL C source.
//
// Times are the median over the timed repetitions of the kernel commands'
// CL_PROFILING_COMMAND_START -> CL_PROFILING_COMMAND_END (summed over the
// two passes of the separable blur). Every output is compared with a C++
// reference of the OpenCL C semantics (OpenCL C 3.0, 8.2 for the samplers,
// 8.3.1.1 for the conversion to 8 bits); a mismatch is an error (exit
// status 1). Run it through bench/run.sh --images.
#include <CL/cl.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#ifndef LANEWISE_IMAGE_BENCH_SOURCE
#define LANEWISE_IMAGE_BENCH_SOURCE ""
#endif

namespace {

struct Options {
  std::string source = LANEWISE_IMAGE_BENCH_SOURCE;
  int width = 640, height = 360; // a video frame of the filters this bench models
  int warmup = 1, repeat = 5;
  std::vector<std::string> platforms, kernels;
};

[[noreturn]] void usage(int status) {
  std::fprintf(status ? stderr : stdout,
               "usage: lanewise-image-bench [options]\n"
               "  --platform NAME   lanewise or pocl (repeatable; default: both)\n"
               "  --kernel NAME     one of the kernels below (repeatable; default: all)\n"
               "  --size WxH        image size, W a multiple of 16, H of 8 (default 640x360)\n"
               "  --warmup N        untimed runs per kernel (default 1)\n"
               "  --repeat N        timed runs per kernel, median reported (default 5)\n"
               "  --source PATH     image_kernels.cl (default: the one beside this program's "
               "source)\n"
               "kernels: box_blur separable_blur unsharp_mask sobel harris warp_bilinear\n"
               "         non_local_means convolve_local\n");
  std::exit(status);
}

void check(cl_int error, const char *what) {
  if (error != CL_SUCCESS) {
    std::fprintf(stderr, "lanewise-image-bench: %s failed: %d\n", what, error);
    throw error;
  }
}

// ---- host images and the reference semantics ----

// An image as its kernels see it: `channels` floats per pixel, 8-bit
// channels as their normalised values.
struct HostImage {
  int width = 0, height = 0, channels = 4;
  bool unorm8 = false;
  std::vector<float> values;

  HostImage(int w, int h, int c, bool u) : width(w), height(h), channels(c), unorm8(u) {
    values.assign(std::size_t(w) * h * c, 0.0f);
  }
  float &at(int x, int y, int c) { return values[(std::size_t(y) * width + x) * channels + c]; }
  float at(int x, int y, int c) const {
    return values[(std::size_t(y) * width + x) * channels + c];
  }
  // CLK_ADDRESS_CLAMP_TO_EDGE, CLK_FILTER_NEAREST.
  float edge(int x, int y, int c) const {
    return at(std::clamp(x, 0, width - 1), std::clamp(y, 0, height - 1), c);
  }
  // CLK_ADDRESS_CLAMP with the border colour (0, 0, 0, 0) of CL_RGBA.
  float border(int x, int y, int c) const {
    return x < 0 || y < 0 || x >= width || y >= height ? 0.0f : at(x, y, c);
  }
};

// write_imagef to CL_UNORM_INT8: round to nearest even after scaling,
// saturated (OpenCL C 3.0, 8.3.1.1).
float toUnorm8(float f) { return std::nearbyint(std::clamp(f * 255.0f, 0.0f, 255.0f)) / 255.0f; }

// A smooth pattern with noise, the same on every platform.
HostImage pattern(int w, int h, int channels, bool unorm8, std::uint32_t seed) {
  HostImage image(w, h, channels, unorm8);
  std::uint32_t state = seed;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < channels; ++c) {
        state = state * 1664525u + 1013904223u;
        const float noise = float(state >> 8) / float(1u << 24);
        float v = 0.5f + 0.3f * std::sin(0.05f * x + 0.9f * c) * std::cos(0.07f * y) +
                  0.2f * (noise - 0.5f);
        v = std::clamp(v, 0.0f, 1.0f);
        image.at(x, y, c) = unorm8 ? std::nearbyint(v * 255.0f) / 255.0f : v;
      }
  return image;
}

const float gauss9[9] = {0.0162f, 0.0540f, 0.1216f, 0.1945f, 0.2270f,
                         0.1945f, 0.1216f, 0.0540f, 0.0162f};

HostImage boxBlur(const HostImage &in) {
  HostImage out(in.width, in.height, 4, true);
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x)
      for (int c = 0; c < 4; ++c) {
        float sum = 0.0f;
        for (int dy = -2; dy <= 2; ++dy)
          for (int dx = -2; dx <= 2; ++dx)
            sum += in.edge(x + dx, y + dy, c);
        out.at(x, y, c) = toUnorm8(sum * (1.0f / 25.0f));
      }
  return out;
}

HostImage separableBlur(const HostImage &in) {
  HostImage middle(in.width, in.height, 4, false), out(in.width, in.height, 4, false);
  for (int pass = 0; pass < 2; ++pass) {
    const HostImage &from = pass ? middle : in;
    HostImage &to = pass ? out : middle;
    for (int y = 0; y < in.height; ++y)
      for (int x = 0; x < in.width; ++x)
        for (int c = 0; c < 4; ++c) {
          float sum = 0.0f;
          for (int k = -4; k <= 4; ++k)
            sum += gauss9[k + 4] * (pass ? from.edge(x, y + k, c) : from.edge(x + k, y, c));
          to.at(x, y, c) = sum;
        }
  }
  return out;
}

HostImage unsharpMask(const HostImage &in, float amount) {
  HostImage out(in.width, in.height, 4, true);
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x)
      for (int c = 0; c < 4; ++c) {
        float sum = 0.0f;
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx)
            sum += in.edge(x + dx, y + dy, c);
        const float pixel = in.at(x, y, c);
        const float sharp = pixel + amount * (pixel - sum * (1.0f / 9.0f));
        out.at(x, y, c) = toUnorm8(std::clamp(sharp, 0.0f, 1.0f));
      }
  return out;
}

float luma(const HostImage &in, int x, int y) {
  return 0.299f * in.edge(x, y, 0) + 0.587f * in.edge(x, y, 1) + 0.114f * in.edge(x, y, 2);
}

HostImage sobel(const HostImage &in) {
  HostImage out(in.width, in.height, 1, false);
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x) {
      float p[3][3];
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          p[dy + 1][dx + 1] = luma(in, x + dx, y + dy);
      const float gx = (p[0][2] + 2.0f * p[1][2] + p[2][2]) - (p[0][0] + 2.0f * p[1][0] + p[2][0]);
      const float gy = (p[2][0] + 2.0f * p[2][1] + p[2][2]) - (p[0][0] + 2.0f * p[0][1] + p[0][2]);
      out.at(x, y, 0) = std::sqrt(gx * gx + gy * gy);
    }
  return out;
}

HostImage harris(const HostImage &in) {
  HostImage out(in.width, in.height, 1, false);
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x) {
      float xx = 0.0f, yy = 0.0f, xy = 0.0f;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const int u = x + dx, v = y + dy;
          const float ix = in.edge(u + 1, v, 0) - in.edge(u - 1, v, 0);
          const float iy = in.edge(u, v + 1, 0) - in.edge(u, v - 1, 0);
          xx += ix * ix;
          yy += iy * iy;
          xy += ix * iy;
        }
      const float trace = xx + yy;
      out.at(x, y, 0) = xx * yy - xy * xy - 0.04f * trace * trace;
    }
  return out;
}

// CLK_FILTER_LINEAR with normalised coordinates and CLK_ADDRESS_CLAMP
// (OpenCL C 3.0, 8.2: i0 = floor(u - 0.5), weights from its fraction).
float bilinear(const HostImage &in, float s, float t, int c) {
  const float u = s * float(in.width) - 0.5f, v = t * float(in.height) - 0.5f;
  const int i0 = int(std::floor(u)), j0 = int(std::floor(v));
  const float a = u - std::floor(u), b = v - std::floor(v);
  return (1 - a) * (1 - b) * in.border(i0, j0, c) + a * (1 - b) * in.border(i0 + 1, j0, c) +
         (1 - a) * b * in.border(i0, j0 + 1, c) + a * b * in.border(i0 + 1, j0 + 1, c);
}

HostImage warpBilinear(const HostImage &in, float cs, float sn) {
  HostImage out(in.width, in.height, 4, true);
  const float w = float(in.width), h = float(in.height);
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x) {
      const float px = x + 0.5f - 0.5f * w, py = y + 0.5f - 0.5f * h;
      const float s = (cs * px - sn * py + 0.5f * w) / w, t = (sn * px + cs * py + 0.5f * h) / h;
      for (int c = 0; c < 4; ++c)
        out.at(x, y, c) = toUnorm8(bilinear(in, s, t, c));
    }
  return out;
}

HostImage nonLocalMeans(const HostImage &in, float h2) {
  HostImage out(in.width, in.height, 1, false);
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x) {
      float weights = 0.0f, sum = 0.0f;
      for (int sy = -2; sy <= 2; ++sy)
        for (int sx = -2; sx <= 2; ++sx) {
          float distance = 0.0f;
          for (int py = -1; py <= 1; ++py)
            for (int px = -1; px <= 1; ++px) {
              const float d = in.edge(x + px, y + py, 0) - in.edge(x + sx + px, y + sy + py, 0);
              distance += d * d;
            }
          const float weight = std::exp(-distance / h2);
          weights += weight;
          sum += weight * in.edge(x + sx, y + sy, 0);
        }
      out.at(x, y, 0) = sum / weights;
    }
  return out;
}

HostImage convolve(const HostImage &in, const std::vector<float> &weights) {
  HostImage out(in.width, in.height, 4, false);
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x)
      for (int c = 0; c < 4; ++c) {
        float sum = 0.0f;
        for (int dy = 0; dy <= 4; ++dy)
          for (int dx = 0; dx <= 4; ++dx)
            sum += weights[dy * 5 + dx] * in.edge(x + dx - 2, y + dy - 2, c);
        out.at(x, y, c) = sum;
      }
  return out;
}

// ---- a platform's images and kernels ----

struct Device {
  std::string name; // "lanewise" or "pocl"
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_program program = nullptr;
};

cl_image_format formatOf(const HostImage &image) {
  return {cl_channel_order(image.channels == 4 ? CL_RGBA : CL_R),
          cl_channel_type(image.unorm8 ? CL_UNORM_INT8 : CL_FLOAT)};
}

cl_mem upload(const Device &d, const HostImage &image) {
  const cl_image_format format = formatOf(image);
  cl_image_desc desc = {};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = std::size_t(image.width);
  desc.image_height = std::size_t(image.height);
  std::vector<std::uint8_t> bytes;
  const void *data = image.values.data();
  if (image.unorm8) {
    bytes.resize(image.values.size());
    for (std::size_t i = 0; i < bytes.size(); ++i)
      bytes[i] = std::uint8_t(std::nearbyint(image.values[i] * 255.0f));
    data = bytes.data();
  }
  cl_int error = CL_SUCCESS;
  cl_mem mem = clCreateImage(d.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &format, &desc,
                             const_cast<void *>(data), &error);
  check(error, "clCreateImage");
  return mem;
}

cl_mem outputLike(const Device &d, const HostImage &shape) {
  const cl_image_format format = formatOf(shape);
  cl_image_desc desc = {};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = std::size_t(shape.width);
  desc.image_height = std::size_t(shape.height);
  cl_int error = CL_SUCCESS;
  cl_mem mem = clCreateImage(d.context, CL_MEM_READ_WRITE, &format, &desc, nullptr, &error);
  check(error, "clCreateImage");
  return mem;
}

HostImage download(const Device &d, cl_mem mem, const HostImage &shape) {
  HostImage image(shape.width, shape.height, shape.channels, shape.unorm8);
  const std::size_t origin[3] = {0, 0, 0};
  const std::size_t region[3] = {std::size_t(shape.width), std::size_t(shape.height), 1};
  if (shape.unorm8) {
    std::vector<std::uint8_t> bytes(image.values.size());
    check(clEnqueueReadImage(d.queue, mem, CL_TRUE, origin, region, 0, 0, bytes.data(), 0, nullptr,
                             nullptr),
          "clEnqueueReadImage");
    for (std::size_t i = 0; i < bytes.size(); ++i)
      image.values[i] = float(bytes[i]) / 255.0f;
  } else {
    check(clEnqueueReadImage(d.queue, mem, CL_TRUE, origin, region, 0, 0, image.values.data(), 0,
                             nullptr, nullptr),
          "clEnqueueReadImage");
  }
  return image;
}

// How far `got` is from `expected`, in units of the tolerance: 8-bit
// channels one step, floats 1e-4 relative (OpenCL's exp and sqrt are within
// a few ulp; the references sum in the kernels' order).
bool matches(const HostImage &got, const HostImage &expected, std::string &why) {
  for (std::size_t i = 0; i < got.values.size(); ++i) {
    const float g = got.values[i], e = expected.values[i];
    const float tolerance =
        got.unorm8 ? 1.0f / 255.0f + 1e-6f : 1e-4f * std::max(1.0f, std::fabs(e));
    if (!(std::fabs(g - e) <= tolerance)) {
      const std::size_t pixel = i / std::size_t(got.channels);
      std::ostringstream text;
      text << "pixel (" << pixel % std::size_t(got.width) << ", " << pixel / std::size_t(got.width)
           << ") channel " << i % std::size_t(got.channels) << ": " << g << ", expected " << e;
      why = text.str();
      return false;
    }
  }
  return true;
}

// One launch: the kernel and its 2-D range.
struct Launch {
  cl_kernel kernel;
  std::size_t global[2], local[2];
};

// Runs `launches` warmup + repeat times; the median of each run's summed
// kernel time, in milliseconds.
double timeLaunches(const Device &d, const Options &o, const std::vector<Launch> &launches) {
  std::vector<double> times;
  for (int run = 0; run < o.warmup + o.repeat; ++run) {
    std::vector<cl_event> events(launches.size());
    for (std::size_t k = 0; k < launches.size(); ++k)
      check(clEnqueueNDRangeKernel(d.queue, launches[k].kernel, 2, nullptr, launches[k].global,
                                   launches[k].local, 0, nullptr, &events[k]),
            "clEnqueueNDRangeKernel");
    check(clWaitForEvents(cl_uint(events.size()), events.data()), "clWaitForEvents");
    double total = 0.0;
    for (cl_event e : events) {
      cl_ulong start = 0, end = 0;
      check(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr),
            "clGetEventProfilingInfo");
      check(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr),
            "clGetEventProfilingInfo");
      total += double(end - start) * 1e-6;
      clReleaseEvent(e);
    }
    if (run >= o.warmup)
      times.push_back(total);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

cl_kernel kernelOf(const Device &d, const char *name) {
  cl_int error = CL_SUCCESS;
  cl_kernel k = clCreateKernel(d.program, name, &error);
  check(error, name);
  return k;
}

template <typename T> void setArg(cl_kernel k, cl_uint index, const T &value) {
  check(clSetKernelArg(k, index, sizeof value, &value), "clSetKernelArg");
}

// A benchmark: the inputs, the reference, and how to run it on a device.
struct Result {
  double ms = 0.0;
  bool ok = false;
  std::string why;
};

struct Benchmark {
  std::string name, format;
  std::function<Result(const Device &, const Options &)> run;
};

std::vector<Benchmark> benchmarks(const Options &o) {
  const int w = o.width, h = o.height;
  const std::size_t global[2] = {std::size_t(w), std::size_t(h)};
  auto rgba8 = std::make_shared<HostImage>(pattern(w, h, 4, true, 1));
  auto rgbaF = std::make_shared<HostImage>(pattern(w, h, 4, false, 2));
  auto grey = std::make_shared<HostImage>(pattern(w, h, 1, false, 3));
  const float amount = 0.7f, h2 = 0.02f, angle = 0.3f, scale = 1.1f;
  const float cs = std::cos(angle) / scale, sn = std::sin(angle) / scale;
  std::vector<float> weights(25);
  for (int i = 0; i < 25; ++i)
    weights[i] = float(1 + (i * 7) % 5) / 75.0f;

  // Runs kernel `name` from `input` into an image shaped like `expected`,
  // with `extra` setting arguments 2 and up.
  auto simple = [=](const char *name, std::shared_ptr<HostImage> input, HostImage expected,
                    std::function<void(cl_kernel)> extra, std::array<std::size_t, 2> local,
                    std::array<std::size_t, 2> range) {
    return [=](const Device &d, const Options &opt) {
      cl_mem in = upload(d, *input), out = outputLike(d, expected);
      cl_kernel k = kernelOf(d, name);
      setArg(k, 0, in);
      setArg(k, 1, out);
      if (extra)
        extra(k);
      Result r;
      r.ms = timeLaunches(d, opt, {{k, {range[0], range[1]}, {local[0], local[1]}}});
      r.ok = matches(download(d, out, expected), expected, r.why);
      clReleaseKernel(k);
      clReleaseMemObject(out);
      clReleaseMemObject(in);
      return r;
    };
  };
  const std::array<std::size_t, 2> groups = {16, 8}, whole = {global[0], global[1]};
  std::vector<Benchmark> list;
  list.push_back({"box_blur", "rgba8 nearest",
                  simple("box_blur", rgba8, boxBlur(*rgba8), nullptr, groups, whole)});
  list.push_back({"separable_blur", "rgbaF nearest", [=](const Device &d, const Options &opt) {
                    const HostImage expected = separableBlur(*rgbaF);
                    cl_mem in = upload(d, *rgbaF), middle = outputLike(d, expected),
                           out = outputLike(d, expected);
                    cl_kernel horizontal = kernelOf(d, "blur_horizontal"),
                              vertical = kernelOf(d, "blur_vertical");
                    setArg(horizontal, 0, in);
                    setArg(horizontal, 1, middle);
                    setArg(vertical, 0, middle);
                    setArg(vertical, 1, out);
                    Result r;
                    r.ms = timeLaunches(d, opt,
                                        {{horizontal, {global[0], global[1]}, {16, 8}},
                                         {vertical, {global[0], global[1]}, {16, 8}}});
                    r.ok = matches(download(d, out, expected), expected, r.why);
                    clReleaseKernel(vertical);
                    clReleaseKernel(horizontal);
                    for (cl_mem m : std::array<cl_mem, 3>{out, middle, in})
                      clReleaseMemObject(m);
                    return r;
                  }});
  list.push_back({"unsharp_mask", "rgba8 nearest",
                  simple(
                      "unsharp_mask", rgba8, unsharpMask(*rgba8, amount),
                      [=](cl_kernel k) { setArg(k, 2, amount); }, groups, whole)});
  list.push_back(
      {"sobel", "rgbaF->R nearest", simple("sobel", rgbaF, sobel(*rgbaF), nullptr, groups, whole)});
  list.push_back(
      {"harris", "R nearest", simple("harris", grey, harris(*grey), nullptr, groups, whole)});
  list.push_back({"warp_bilinear", "rgba8 linear",
                  simple(
                      "warp_bilinear", rgba8, warpBilinear(*rgba8, cs, sn),
                      [=](cl_kernel k) {
                        setArg(k, 2, cs);
                        setArg(k, 3, sn);
                      },
                      groups, whole)});
  list.push_back({"non_local_means", "R nearest",
                  simple(
                      "non_local_means", grey, nonLocalMeans(*grey, h2),
                      [=](cl_kernel k) { setArg(k, 2, h2); }, groups, whole)});
  list.push_back(
      {"convolve_local", "rgbaF nearest", [=](const Device &d, const Options &opt) {
         const HostImage expected = convolve(*rgbaF, weights);
         cl_int error = CL_SUCCESS;
         cl_mem table = clCreateBuffer(d.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                       weights.size() * sizeof(float),
                                       const_cast<float *>(weights.data()), &error);
         check(error, "clCreateBuffer");
         cl_mem in = upload(d, *rgbaF), out = outputLike(d, expected);
         cl_kernel k = kernelOf(d, "convolve_local");
         setArg(k, 0, in);
         setArg(k, 1, out);
         setArg(k, 2, table);
         const std::size_t rounded[2] = {(global[0] + 15) / 16 * 16, (global[1] + 15) / 16 * 16};
         Result r;
         r.ms = timeLaunches(d, opt, {{k, {rounded[0], rounded[1]}, {16, 16}}});
         r.ok = matches(download(d, out, expected), expected, r.why);
         clReleaseKernel(k);
         for (cl_mem m : std::array<cl_mem, 3>{out, in, table})
           clReleaseMemObject(m);
         return r;
       }});
  return list;
}

bool selected(const std::vector<std::string> &list, const std::string &name) {
  return list.empty() || std::find(list.begin(), list.end(), name) != list.end();
}

// The platform named "Lanewise" or "Portable Computing Language", with a
// profiling queue and the program built, or an empty name when absent.
Device open(const std::string &which, const Options &o) {
  const char *wanted = which == "lanewise" ? "Lanewise" : "Portable Computing Language";
  cl_uint count = 0;
  clGetPlatformIDs(0, nullptr, &count);
  std::vector<cl_platform_id> platforms(count);
  if (count)
    clGetPlatformIDs(count, platforms.data(), nullptr);
  Device d;
  for (cl_platform_id p : platforms) {
    char name[256] = {};
    clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr);
    if (std::string(name) != wanted)
      continue;
    cl_device_id device;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) != CL_SUCCESS)
      continue;
    cl_int error = CL_SUCCESS;
    d.context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &error);
    check(error, "clCreateContext");
    const cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    d.queue = clCreateCommandQueueWithProperties(d.context, device, properties, &error);
    check(error, "clCreateCommandQueueWithProperties");
    std::ifstream file(o.source);
    if (!file) {
      std::fprintf(stderr, "lanewise-image-bench: cannot read %s\n", o.source.c_str());
      std::exit(2);
    }
    std::stringstream text;
    text << file.rdbuf();
    const std::string source = text.str();
    const char *sources[] = {source.c_str()};
    d.program = clCreateProgramWithSource(d.context, 1, sources, nullptr, &error);
    check(error, "clCreateProgramWithSource");
    if (clBuildProgram(d.program, 1, &device, "-cl-std=CL1.2", nullptr, nullptr) != CL_SUCCESS) {
      std::string log(1 << 16, '\0');
      clGetProgramBuildInfo(d.program, device, CL_PROGRAM_BUILD_LOG, log.size(), log.data(),
                            nullptr);
      std::fprintf(stderr, "lanewise-image-bench: the build failed on %s:\n%s\n", wanted,
                   log.c_str());
      std::exit(1);
    }
    d.name = which;
    return d;
  }
  return d;
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        usage(2);
      return argv[++i];
    };
    if (a == "--help" || a == "-h")
      usage(0);
    else if (a == "--platform")
      o.platforms.push_back(value());
    else if (a == "--kernel")
      o.kernels.push_back(value());
    else if (a == "--warmup")
      o.warmup = std::atoi(value().c_str());
    else if (a == "--repeat")
      o.repeat = std::max(1, std::atoi(value().c_str()));
    else if (a == "--source")
      o.source = value();
    else if (a == "--size") {
      const std::string size = value();
      if (std::sscanf(size.c_str(), "%dx%d", &o.width, &o.height) != 2)
        usage(2);
    } else
      usage(2);
  }
  if (o.width <= 0 || o.height <= 0 || o.width % 16 || o.height % 8) {
    std::fprintf(stderr, "lanewise-image-bench: --size W x H needs W a multiple of 16, H of 8\n");
    return 2;
  }
  try {
    std::vector<Device> devices;
    for (const char *which : {"lanewise", "pocl"})
      if (selected(o.platforms, which)) {
        Device d = open(which, o);
        if (d.name.empty())
          std::fprintf(stderr, "lanewise-image-bench: no %s platform\n", which);
        else
          devices.push_back(d);
      }
    std::printf("lanewise-image-bench: %dx%d images, median of %d timed runs after %d warm-up "
                "run(s); kernel command times\n\n",
                o.width, o.height, o.repeat, o.warmup);
    std::printf("%-16s %-17s %12s %12s %7s  %s\n", "kernel", "images", "lanewise_ms", "pocl_ms",
                "ratio", "verified");
    int failures = 0;
    double logSum = 0.0;
    int ratios = 0;
    for (const Benchmark &b : benchmarks(o)) {
      if (!selected(o.kernels, b.name))
        continue;
      Result lanewise, pocl;
      bool haveLanewise = false, havePocl = false;
      for (const Device &d : devices) {
        const Result r = b.run(d, o);
        (d.name == "lanewise" ? lanewise : pocl) = r;
        (d.name == "lanewise" ? haveLanewise : havePocl) = true;
        if (!r.ok) {
          ++failures;
          std::fprintf(stderr, "lanewise-image-bench: %s on %s: wrong output at %s\n",
                       b.name.c_str(), d.name.c_str(), r.why.c_str());
        }
      }
      char lw[32] = "-", pc[32] = "-", ratio[32] = "n/a";
      if (haveLanewise)
        std::snprintf(lw, sizeof lw, "%.3f", lanewise.ms);
      if (havePocl)
        std::snprintf(pc, sizeof pc, "%.3f", pocl.ms);
      if (haveLanewise && havePocl && pocl.ms > 0) {
        std::snprintf(ratio, sizeof ratio, "%.2f", lanewise.ms / pocl.ms);
        logSum += std::log(lanewise.ms / pocl.ms);
        ++ratios;
      }
      std::string verified;
      if (haveLanewise)
        verified += lanewise.ok ? "lanewise yes" : "lanewise NO";
      if (havePocl)
        verified += std::string(verified.empty() ? "" : ", ") + (pocl.ok ? "pocl yes" : "pocl NO");
      std::printf("%-16s %-17s %12s %12s %7s  %s\n", b.name.c_str(), b.format.c_str(), lw, pc,
                  ratio, verified.c_str());
      std::fflush(stdout);
    }
    if (ratios)
      std::printf("\ngeometric mean of the ratios: %.2f (above 1: Lanewise slower)\n",
                  std::exp(logSum / ratios));
    return failures ? 1 : 0;
  } catch (cl_int) {
    return 1;
  }
}
