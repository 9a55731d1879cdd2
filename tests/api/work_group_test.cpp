// SPDX-License-Identifier: Apache-2.0
// Work-group collective functions (OpenCL C 3.0, 6.15.17), from OpenCL C
// source through the driver: reductions and scans of add, min and max for
// every type the spec lists (int, uint, long, ulong, float, double, half),
// all, any and broadcast in one, two and three dimensions; work-groups of
// one warp and of several, and the smaller last group of a launch whose
// global size the local size does not divide. The expected values are the
// spec's definitions, computed here per work-group in local linear order.
// Floating-point inputs are small integers, whose sums are exact in any
// order (the spec leaves the order unspecified).
#include "common.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace lanewise::test {
namespace {

const char *const kSource = R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#define COLLECTIVES(T, name)                                              \
  kernel void name(global const T *in, global T *out) {                   \
    size_t g = get_global_id(0);                                          \
    T x = in[g];                                                          \
    out[9 * g + 0] = work_group_reduce_add(x);                            \
    out[9 * g + 1] = work_group_reduce_min(x);                            \
    out[9 * g + 2] = work_group_reduce_max(x);                            \
    out[9 * g + 3] = work_group_scan_inclusive_add(x);                    \
    out[9 * g + 4] = work_group_scan_inclusive_min(x);                    \
    out[9 * g + 5] = work_group_scan_inclusive_max(x);                    \
    out[9 * g + 6] = work_group_scan_exclusive_add(x);                    \
    out[9 * g + 7] = work_group_scan_exclusive_min(x);                    \
    out[9 * g + 8] = work_group_scan_exclusive_max(x);                    \
  }
COLLECTIVES(int, collectives_int)
COLLECTIVES(uint, collectives_uint)
COLLECTIVES(long, collectives_long)
COLLECTIVES(ulong, collectives_ulong)
COLLECTIVES(float, collectives_float)
COLLECTIVES(double, collectives_double)
COLLECTIVES(half, collectives_half)

kernel void votes(global const int *in, global int *out) {
  size_t g = get_global_id(0);
  out[2 * g] = work_group_all(in[g]);
  out[2 * g + 1] = work_group_any(in[g]);
}

kernel void broadcast_1d(global const float *in, global float *out, ulong from) {
  out[get_global_id(0)] = work_group_broadcast(in[get_global_id(0)], from);
}

kernel void broadcast_2d(global const long *in, global long *out, ulong x, ulong y) {
  size_t g = get_global_id(1) * get_global_size(0) + get_global_id(0);
  out[g] = work_group_broadcast(in[g], x, y);
}

kernel void broadcast_3d(global const int *in, global int *out, ulong x, ulong y, ulong z) {
  size_t g = (get_global_id(2) * get_global_size(1) + get_global_id(1)) * get_global_size(0) +
             get_global_id(0);
  out[g] = work_group_broadcast(in[g], x, y, z);
}

// A collective in a loop, and two in a row, whose scratch the next one reuses.
kernel void repeated(global const int *in, global int *out, int rounds) {
  size_t g = get_global_id(0);
  int x = in[g], sum = 0;
  for (int r = 0; r < rounds; ++r) {
    sum += work_group_reduce_add(x + r);
    x = work_group_scan_inclusive_max(x);
  }
  out[g] = sum + x;
}
)";

class WorkGroupCollectives : public ContextTest {
protected:
  void SetUp() override {
    ContextTest::SetUp();
    cl_int error = CL_SUCCESS;
    const char *source = kSource;
    program_ = clCreateProgramWithSource(context, 1, &source, nullptr, &error);
    ASSERT_EQ(error, CL_SUCCESS);
    if (clBuildProgram(program_, 1, &device, "-cl-std=CL3.0", nullptr, nullptr) != CL_SUCCESS) {
      size_t size = 0;
      clGetProgramBuildInfo(program_, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
      std::string log(size, '\0');
      clGetProgramBuildInfo(program_, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
      FAIL() << log;
    }
  }
  void TearDown() override {
    for (cl_mem mem : buffers_)
      clReleaseMemObject(mem);
    if (program_)
      clReleaseProgram(program_);
    ContextTest::TearDown();
  }

  template <typename T> cl_mem buffer(const std::vector<T> &data) {
    cl_int error = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                data.size() * sizeof(T), const_cast<T *>(data.data()), &error);
    EXPECT_EQ(error, CL_SUCCESS);
    buffers_.push_back(mem);
    return mem;
  }
  template <typename T> std::vector<T> read(cl_mem mem, size_t count) {
    std::vector<T> data(count);
    EXPECT_EQ(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, count * sizeof(T), data.data(), 0,
                                  nullptr, nullptr),
              CL_SUCCESS);
    return data;
  }
  // Runs `name` with `arguments` (each a value whose address and size
  // clSetKernelArg takes) over `global` in groups of `local`.
  template <typename... Args>
  void run(const char *name, const std::vector<size_t> &global, const std::vector<size_t> &local,
           const Args &...arguments) {
    cl_int error = CL_SUCCESS;
    Kernel kernel(clCreateKernel(program_, name, &error));
    ASSERT_EQ(error, CL_SUCCESS) << name;
    cl_uint index = 0;
    auto set = [&](const auto &argument) {
      EXPECT_EQ(clSetKernelArg(kernel.get(), index, sizeof argument, &argument), CL_SUCCESS)
          << name << " argument " << index;
      ++index;
    };
    (set(arguments), ...);
    ASSERT_EQ(clEnqueueNDRangeKernel(queue, kernel.get(), cl_uint(global.size()), nullptr,
                                     global.data(), local.data(), 0, nullptr, nullptr),
              CL_SUCCESS)
        << name;
    ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  }

  // Reduces and scans `T` (held on the host as `H`) over 1-D launches of
  // `global` work-items in groups of `local`.
  template <typename T, typename H = T>
  void expectCollectives(const char *name, size_t global, size_t local,
                         const std::vector<T> &in) {
    cl_mem mi = buffer(in), mo = buffer(std::vector<T>(9 * global));
    run(name, {global}, {local}, mi, mo);
    const std::vector<T> out = read<T>(mo, 9 * global);
    const H big = std::numeric_limits<H>::has_infinity ? std::numeric_limits<H>::infinity()
                                                       : std::numeric_limits<H>::max();
    const H small = std::numeric_limits<H>::has_infinity ? -std::numeric_limits<H>::infinity()
                                                         : std::numeric_limits<H>::lowest();
    for (size_t first = 0; first < global; first += local) {
      const size_t last = std::min(global, first + local);
      H sum = 0, low = big, high = small;
      for (size_t i = first; i < last; ++i) {
        sum = H(sum + H(in[i]));
        low = std::min(low, H(in[i]));
        high = std::max(high, H(in[i]));
      }
      H prefix = 0, prefixLow = big, prefixHigh = small;
      for (size_t i = first; i < last; ++i) {
        const H expected[9] = {sum,
                               low,
                               high,
                               H(prefix + H(in[i])),
                               std::min(prefixLow, H(in[i])),
                               std::max(prefixHigh, H(in[i])),
                               prefix,
                               prefixLow,
                               prefixHigh};
        for (int k = 0; k < 9; ++k)
          ASSERT_EQ(H(out[9 * i + k]), expected[k])
              << name << " global " << global << " local " << local << " work-item " << i
              << " result " << k;
        prefix = H(prefix + H(in[i]));
        prefixLow = std::min(prefixLow, H(in[i]));
        prefixHigh = std::max(prefixHigh, H(in[i]));
      }
    }
  }

  template <typename T, typename H = T> void everyShape(const char *name, int spread) {
    // One warp, several (the default warp is 128 lanes), the largest
    // group, and a smaller last group.
    const std::vector<std::pair<size_t, size_t>> shapes = {
        {64, 16}, {48, 48}, {512, 256}, {2048, 1024}, {1000, 256}, {300, 128}, {77, 7}};
    for (const auto &[global, local] : shapes) {
      std::vector<T> in(global);
      for (size_t i = 0; i < global; ++i)
        in[i] = T(H(int((i * 37 + global) % (2 * spread + 1)) - spread));
      expectCollectives<T, H>(name, global, local, in);
    }
  }

  cl_program program_ = nullptr;
  std::vector<cl_mem> buffers_;
};

TEST_F(WorkGroupCollectives, DeviceReportsThem) {
  cl_bool supported = CL_FALSE;
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT,
                            sizeof supported, &supported, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(supported, CL_TRUE);
  size_t size = 0;
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr, &size), CL_SUCCESS);
  std::vector<cl_name_version> features(size / sizeof(cl_name_version));
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, size, features.data(), nullptr),
            CL_SUCCESS);
  EXPECT_TRUE(std::any_of(features.begin(), features.end(), [](const cl_name_version &f) {
    return std::string(f.name) == "__opencl_c_work_group_collective_functions";
  }));
}

TEST_F(WorkGroupCollectives, IntegersReduceAndScan) {
  everyShape<cl_int>("collectives_int", 1000);
  everyShape<cl_long>("collectives_long", 1000000);
  // Unsigned: wrap-around sums, the whole range in min and max.
  everyShape<cl_uint, uint32_t>("collectives_uint", 1000);
  everyShape<cl_ulong, uint64_t>("collectives_ulong", 1000);
}

TEST_F(WorkGroupCollectives, FloatingPointReduceAndScan) {
  everyShape<cl_float>("collectives_float", 50);
  everyShape<cl_double>("collectives_double", 50);
}

TEST_F(WorkGroupCollectives, HalfReduceAndScan) {
  // Halves of -1, 0 and 1: every sum of at most 1,024 is exact.
  everyShape<_Float16, float>("collectives_half", 1);
}

TEST_F(WorkGroupCollectives, AllAndAny) {
  for (const auto &[global, local] : std::vector<std::pair<size_t, size_t>>{
           {64, 16}, {512, 256}, {1024, 1024}, {1000, 256}}) {
    // Group k: every predicate true but the one at k * 37 % size (none for
    // the first group), so that a false one lies in each warp of some group.
    std::vector<cl_int> in(global, 5);
    for (size_t first = local; first < global; first += local) {
      const size_t size = std::min(local, global - first);
      in[first + (first / local * 37) % size] = 0;
    }
    cl_mem mi = buffer(in), mo = buffer(std::vector<cl_int>(2 * global));
    run("votes", {global}, {local}, mi, mo);
    const std::vector<cl_int> out = read<cl_int>(mo, 2 * global);
    for (size_t i = 0; i < global; ++i) {
      const size_t first = i / local * local;
      EXPECT_EQ(out[2 * i] != 0, first == 0) << "all, work-item " << i << " local " << local;
      EXPECT_NE(out[2 * i + 1], 0) << "any, work-item " << i << " local " << local;
    }
  }
  // No predicate true: any is false.
  cl_mem mi = buffer(std::vector<cl_int>(512, 0)), mo = buffer(std::vector<cl_int>(1024));
  run("votes", {512}, {256}, mi, mo);
  const std::vector<cl_int> out = read<cl_int>(mo, 1024);
  for (size_t i = 0; i < 512; ++i) {
    EXPECT_EQ(out[2 * i], 0);
    EXPECT_EQ(out[2 * i + 1], 0);
  }
}

TEST_F(WorkGroupCollectives, BroadcastInOneTwoAndThreeDimensions) {
  {
    const size_t global = 1000, local = 256;
    std::vector<cl_float> in(global);
    for (size_t i = 0; i < global; ++i)
      in[i] = float(i) * 0.5f;
    for (cl_ulong from : {cl_ulong(0), cl_ulong(130), cl_ulong(231)}) {
      cl_mem mi = buffer(in), mo = buffer(std::vector<cl_float>(global));
      run("broadcast_1d", {global}, {local}, mi, mo, from);
      const std::vector<cl_float> out = read<cl_float>(mo, global);
      for (size_t i = 0; i < global; ++i)
        ASSERT_EQ(out[i], in[i / local * local + from]) << "from " << from << " work-item " << i;
    }
  }
  {
    const size_t gx = 32, gy = 24, lx = 16, ly = 12; // groups of 192: two warps
    std::vector<cl_long> in(gx * gy);
    for (size_t i = 0; i < in.size(); ++i)
      in[i] = cl_long(i) * 1000003 - 7;
    const cl_ulong x = 9, y = 10;
    cl_mem mi = buffer(in), mo = buffer(std::vector<cl_long>(in.size()));
    run("broadcast_2d", {gx, gy}, {lx, ly}, mi, mo, x, y);
    const std::vector<cl_long> out = read<cl_long>(mo, in.size());
    for (size_t j = 0; j < gy; ++j)
      for (size_t i = 0; i < gx; ++i)
        ASSERT_EQ(out[j * gx + i], in[(j / ly * ly + y) * gx + i / lx * lx + x])
            << "work-item (" << i << ", " << j << ")";
  }
  {
    const size_t g[3] = {16, 8, 8}, l[3] = {8, 8, 4}; // groups of 256
    std::vector<cl_int> in(g[0] * g[1] * g[2]);
    for (size_t i = 0; i < in.size(); ++i)
      in[i] = cl_int(i * 7 + 1);
    const cl_ulong x = 5, y = 6, z = 3;
    cl_mem mi = buffer(in), mo = buffer(std::vector<cl_int>(in.size()));
    run("broadcast_3d", {g[0], g[1], g[2]}, {l[0], l[1], l[2]}, mi, mo, x, y, z);
    const std::vector<cl_int> out = read<cl_int>(mo, in.size());
    for (size_t k = 0; k < g[2]; ++k)
      for (size_t j = 0; j < g[1]; ++j)
        for (size_t i = 0; i < g[0]; ++i) {
          const size_t source = ((k / l[2] * l[2] + z) * g[1] + (j / l[1] * l[1] + y)) * g[0] +
                                i / l[0] * l[0] + x;
          ASSERT_EQ(out[(k * g[1] + j) * g[0] + i], in[source])
              << "work-item (" << i << ", " << j << ", " << k << ")";
        }
  }
}

TEST_F(WorkGroupCollectives, RepeatedInALoop) {
  const size_t global = 768, local = 384; // three warps a group
  std::vector<cl_int> in(global);
  for (size_t i = 0; i < global; ++i)
    in[i] = cl_int((i * 53) % 97) - 40;
  const cl_int rounds = 5;
  cl_mem mi = buffer(in), mo = buffer(std::vector<cl_int>(global));
  run("repeated", {global}, {local}, mi, mo, rounds);
  const std::vector<cl_int> out = read<cl_int>(mo, global);
  for (size_t first = 0; first < global; first += local) {
    std::vector<cl_int> x(in.begin() + first, in.begin() + first + local);
    std::vector<cl_int> sum(local, 0);
    for (cl_int r = 0; r < rounds; ++r) {
      cl_int total = 0;
      for (cl_int v : x)
        total += v + r;
      cl_int running = std::numeric_limits<cl_int>::min();
      for (size_t i = 0; i < local; ++i) {
        sum[i] += total;
        running = std::max(running, x[i]);
        x[i] = running;
      }
    }
    for (size_t i = 0; i < local; ++i)
      ASSERT_EQ(out[first + i], sum[i] + x[i]) << "work-item " << first + i;
  }
}

} // namespace
} // namespace lanewise::test
