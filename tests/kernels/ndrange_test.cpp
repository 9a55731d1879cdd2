// SPDX-License-Identifier: Apache-2.0
// NDRange (cl/ndrange.cl): the work-item built-ins in 1 to 3 dimensions with
// offsets and partial last work-groups, local size NULL, a 2^24 work-item
// vector add, clEnqueueTask, reqd_work_group_size, and the errors and queries
// of the enqueue and kernel API.
#include "harness.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <sstream>

namespace lanewise::test {
namespace {

using NDRange = KernelTest;
const char *const variants[] = {"", "-O0"};
// The variant in messages: "" is the -O2 build.
std::string label(const char *variant) { return *variant ? variant : "-O2"; }
constexpr size_t record = 32; // uints per work-item written by `builtins`

struct RangeCase {
  std::vector<size_t> global, local, offset; // local empty: NULL
};

std::string describe(const RangeCase &c) {
  std::ostringstream s;
  auto list = [&](const char *name, const std::vector<size_t> &v) {
    s << " " << name << " {";
    for (size_t x : v)
      s << x << ",";
    s << "}";
  };
  list("global", c.global);
  list("local", c.local);
  list("offset", c.offset);
  return s.str();
}

TEST_F(NDRange, EveryBuiltinInEveryDimension) {
  const RangeCase cases[] = {
      {{100}, {10}, {}},
      {{1000}, {128}, {5}},       // partial last group, offset
      {{64}, {64}, {1u << 20}},   // large offset
      {{30, 17}, {8, 4}, {3, 7}}, // partial in both dimensions
      {{16, 16}, {16, 1}, {}},
      {{9, 7, 5}, {4, 2, 3}, {1, 2, 3}}, // partial in all three dimensions
      {{8, 8, 8}, {2, 4, 8}, {}},
      {{5, 3, 70}, {1, 1, 64}, {0, 0, 100}}, // 64 work-items along dimension 2
      {{300}, {}, {}},                       // the implementation chooses
      {{13, 11, 3}, {}, {2, 0, 1}},
  };
  for (const char *variant : variants)
    for (const RangeCase &c : cases) {
      const size_t dims = c.global.size();
      size_t total = 1;
      for (size_t g : c.global)
        total *= g;
      cl_mem O = buffer<cl_uint>(total * record);
      cl_kernel k = kernel("ndrange", "builtins", variant);
      setArgs(k, O);
      run(k, c.global, c.local, c.offset);
      const std::vector<cl_uint> out = read<cl_uint>(O, total * record);
      const std::string what = label(variant) + describe(c);

      size_t G[3] = {1, 1, 1}, L[3] = {1, 1, 1}, off[3] = {0, 0, 0};
      for (size_t d = 0; d < dims; ++d) {
        G[d] = c.global[d];
        off[d] = c.offset.empty() ? 0 : c.offset[d];
        // With local NULL the implementation chooses: take the enqueued local
        // size from work-item 0 and check that it is one every work-item sees.
        L[d] = c.local.empty() ? out[15 + d] : c.local[d];
        ASSERT_GE(L[d], 1u) << what;
      }
      if (c.local.empty()) {
        ASSERT_LE(L[0] * L[1] * L[2], deviceInfo<size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE))
            << what;
      }
      for (size_t idx = 0; idx < total; ++idx) {
        const size_t pos[3] = {idx % G[0], idx / G[0] % G[1], idx / G[0] / G[1]};
        size_t lid[3], grp[3], ls[3], groups[3];
        for (int d = 0; d < 3; ++d) {
          lid[d] = pos[d] % L[d];
          grp[d] = pos[d] / L[d];
          groups[d] = (G[d] + L[d] - 1) / L[d];
          // OpenCL 2.0+: the last group along d holds the remainder.
          ls[d] = grp[d] == groups[d] - 1 && G[d] % L[d] ? G[d] % L[d] : L[d];
        }
        cl_uint expected[28];
        for (int d = 0; d < 3; ++d) {
          expected[0 + d] = cl_uint(off[d] + pos[d]);
          expected[3 + d] = cl_uint(lid[d]);
          expected[6 + d] = cl_uint(grp[d]);
          expected[9 + d] = cl_uint(G[d]);
          expected[12 + d] = cl_uint(ls[d]);
          expected[15 + d] = cl_uint(L[d]);
          expected[18 + d] = cl_uint(groups[d]);
          expected[21 + d] = cl_uint(off[d]);
        }
        expected[24] = cl_uint(dims);
        expected[25] = cl_uint(idx);
        expected[26] = cl_uint(lid[0] + lid[1] * ls[0] + lid[2] * ls[0] * ls[1]);
        expected[27] = 1;
        static const char *const names[] = {"global_id",   "local_id",     "group_id",
                                            "global_size", "local_size",   "enqueued_local_size",
                                            "num_groups",  "global_offset"};
        for (int f = 0; f < 28; ++f) {
          const cl_uint got = out[idx * record + f];
          if (got != expected[f]) {
            std::string field = f < 24
                                    ? std::string(names[f / 3]) + "(" + std::to_string(f % 3) + ")"
                                : f == 24 ? "work_dim"
                                : f == 25 ? "global_linear_id"
                                : f == 26 ? "local_linear_id"
                                          : "times run";
            FAIL() << what << ": work-item (" << pos[0] << "," << pos[1] << "," << pos[2] << ") "
                   << field << " expected " << expected[f] << ", got " << got;
          }
        }
      }
    }
}

TEST_F(NDRange, IdsBeyond32Bits) {
  for (const char *variant : variants)
    for (size_t offset : {(size_t(1) << 33) + 5, (size_t(1) << 40) - 50}) {
      const size_t n = 100, local = 16;
      cl_mem O = buffer<cl_ulong>(n * 3);
      cl_kernel k = kernel("ndrange", "big_ids", variant);
      setArgs(k, O);
      run(k, {n}, {local}, {offset});
      const std::vector<cl_ulong> out = read<cl_ulong>(O, n * 3);
      for (size_t i = 0; i < n; ++i) {
        ASSERT_EQ(out[i * 3], offset + i)
            << label(variant) << " offset " << offset << " item " << i;
        ASSERT_EQ(out[i * 3 + 1], i) << label(variant) << " offset " << offset << " item " << i;
        ASSERT_EQ(out[i * 3 + 2], offset + i / local)
            << label(variant) << " offset " << offset << " item " << i;
      }
    }
}

TEST_F(NDRange, ArgumentsAreCapturedAtEnqueue) {
  cl_kernel k = kernel("ndrange", "two_args");
  ASSERT_NE(k, nullptr);
  const size_t n = 4096, global[1] = {n}, local[1] = {64};
  cl_mem A = buffer<cl_int>(n), B = buffer<cl_int>(n), C = buffer<cl_int>(n);
  const cl_int one = 1, two = 2, three = 3;
  // Non-blocking enqueues, arguments changed in between; a user event holds
  // the first one back until every argument has changed.
  cl_int error = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(context, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof A, &A), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 1, sizeof one, &one), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, global, local, 1, &gate, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 1, sizeof two, &two), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof B, &B), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, global, local, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof C, &C), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 1, sizeof three, &three), CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  clReleaseEvent(gate);
  EXPECT_EQ(read<cl_int>(A, n), std::vector<cl_int>(n, 1));
  EXPECT_EQ(read<cl_int>(B, n), std::vector<cl_int>(n, 2));
  EXPECT_EQ(read<cl_int>(C, n), std::vector<cl_int>(n, 0));
}

TEST_F(NDRange, LocalSizeNullRunsEveryWorkItemOnce) {
  const std::vector<std::vector<size_t>> globals = {{1}, {997}, {123, 45}, {17, 9, 5}, {2, 1, 300}};
  for (const auto &global : globals) {
    const size_t gx = global[0], gy = global.size() > 1 ? global[1] : 1,
                 gz = global.size() > 2 ? global[2] : 1, total = gx * gy * gz;
    cl_mem H = buffer<cl_uint>(total);
    cl_kernel k = kernel("ndrange", "count");
    setArgs(k, H);
    run(k, global);
    const std::vector<cl_uint> hits = read<cl_uint>(H, total);
    for (size_t i = 0; i < total; ++i)
      ASSERT_EQ(hits[i], 1u) << "global " << gx << "x" << gy << "x" << gz << " item " << i;
  }
}

// OpenCL 3.0, clEnqueueNDRangeKernel: a NULL global_work_size, or a zero in
// any dimension, is a command that succeeds and runs no work-item; its event
// completes.
TEST_F(NDRange, ZeroOrNullGlobalSizeRunsNothing) {
  cl_mem H = buffer<cl_uint>(8);
  cl_kernel k = kernel("ndrange", "count");
  setArgs(k, H);
  const size_t zero1[] = {0}, zero2[] = {4, 0}, zero3[] = {1, 1, 0};
  const std::pair<cl_uint, const size_t *> cases[] = {
      {1, nullptr}, {2, nullptr}, {3, nullptr}, {1, zero1}, {2, zero2}, {3, zero3}};
  for (const auto &[dimensions, global] : cases) {
    cl_event done = nullptr;
    EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, dimensions, nullptr, global, nullptr, 0, nullptr,
                                     &done),
              CL_SUCCESS)
        << dimensions << " dimensions, " << (global ? "a zero size" : "NULL");
    ASSERT_NE(done, nullptr);
    EXPECT_EQ(clWaitForEvents(1, &done), CL_SUCCESS);
    cl_int status = CL_QUEUED;
    clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
    EXPECT_EQ(status, CL_COMPLETE);
    clReleaseEvent(done);
  }
  EXPECT_EQ(read<cl_uint>(H, 8), std::vector<cl_uint>(8, 0u));
}

TEST_F(NDRange, VectorAddOver16MWorkItems) {
  const size_t n = size_t(1) << 24;
  std::vector<cl_int> a(n), b(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = cl_int(i * 2654435761u);
    b[i] = cl_int(n - i) ^ 0x5a5a;
  }
  cl_mem A = buffer(a), B = buffer(b), C = buffer<cl_int>(n);
  cl_kernel k = kernel("ndrange", "vadd");
  setArgs(k, A, B, C);
  run(k, {n});
  const std::vector<cl_int> c = read<cl_int>(C, n);
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(c[i], cl_int(cl_uint(a[i]) + cl_uint(b[i]))) << "at " << i;
}

TEST_F(NDRange, EnqueueTaskRunsOneWorkItem) {
  for (const char *variant : variants) {
    cl_mem O = buffer(std::vector<cl_uint>(6, 99));
    cl_kernel k = kernel("ndrange", "task", variant);
    setArgs(k, O);
    ASSERT_EQ(clEnqueueTask(queue, k, 0, nullptr, nullptr), CL_SUCCESS);
    ASSERT_EQ(clFinish(queue), CL_SUCCESS);
    EXPECT_EQ(read<cl_uint>(O, 6), (std::vector<cl_uint>{1, 1, 1, 1, 0, 1234})) << label(variant);
  }
}

TEST_F(NDRange, ReqdWorkGroupSize) {
  cl_kernel k = kernel("ndrange", "required");
  cl_kernel plain = kernel("ndrange", "vadd");
  ASSERT_NE(k, nullptr);
  size_t compiled[3] = {9, 9, 9};
  ASSERT_EQ(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof compiled,
                                     compiled, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(compiled[0], 8u);
  EXPECT_EQ(compiled[1], 4u);
  EXPECT_EQ(compiled[2], 1u);
  ASSERT_EQ(clGetKernelWorkGroupInfo(plain, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                     sizeof compiled, compiled, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(compiled[0] + compiled[1] + compiled[2], 0u) << "without the attribute";

  cl_mem O = buffer<cl_uint>(16 * 8);
  setArgs(k, O);
  const size_t global[2] = {16, 8}, wrong[2] = {4, 4}, right[2] = {8, 4}, global1[1] = {32},
               local1[1] = {8};
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, 2, nullptr, global, wrong, 0, nullptr, nullptr),
            CL_INVALID_WORK_GROUP_SIZE);
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, global1, local1, 0, nullptr, nullptr),
            CL_INVALID_WORK_GROUP_SIZE)
      << "1D {8} is {8,1,1}, not {8,4,1}";
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, 2, nullptr, global, right, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  EXPECT_EQ(read<cl_uint>(O, 128), std::vector<cl_uint>(128, 841));
  // Local size NULL: the required size is used.
  cl_mem O2 = buffer<cl_uint>(16 * 8);
  setArgs(k, O2);
  run(k, {16, 8});
  EXPECT_EQ(read<cl_uint>(O2, 128), std::vector<cl_uint>(128, 841));
}

TEST_F(NDRange, EnqueueErrors) {
  cl_kernel k = kernel("ndrange", "two_args");
  ASSERT_NE(k, nullptr);
  cl_mem O = buffer<cl_int>(64);
  const size_t global[4] = {64, 1, 1, 1};
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof O, &O), CL_SUCCESS);
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, global, nullptr, 0, nullptr, nullptr),
            CL_INVALID_KERNEL_ARGS)
      << "argument 1 was never set";
  const cl_int value = 7;
  ASSERT_EQ(clSetKernelArg(k, 1, sizeof value, &value), CL_SUCCESS);
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, 0, nullptr, global, nullptr, 0, nullptr, nullptr),
            CL_INVALID_WORK_DIMENSION);
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, 4, nullptr, global, nullptr, 0, nullptr, nullptr),
            CL_INVALID_WORK_DIMENSION);
  // global + offset beyond the largest size_t.
  const size_t hugeOffset[1] = {SIZE_MAX - 10};
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, 1, hugeOffset, global, nullptr, 0, nullptr, nullptr),
            CL_INVALID_GLOBAL_OFFSET);

  // A work-group over the kernel's maximum, with every dimension within
  // CL_DEVICE_MAX_WORK_ITEM_SIZES.
  size_t kernelMax = 0;
  ASSERT_EQ(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kernelMax,
                                     &kernelMax, nullptr),
            CL_SUCCESS);
  size_t items[3] = {};
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof items, items, nullptr),
            CL_SUCCESS);
  ASSERT_GE(kernelMax, 1u);
  ASSERT_LE(kernelMax, deviceInfo<size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE));
  const size_t lx = std::min(items[0], kernelMax), ly = kernelMax / lx + 1;
  ASSERT_LE(ly, items[1]);
  const size_t bigLocal[2] = {lx, ly}, bigGlobal[2] = {lx, ly};
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, 2, nullptr, bigGlobal, bigLocal, 0, nullptr, nullptr),
            CL_INVALID_WORK_GROUP_SIZE)
      << "local " << lx << "x" << ly << " over " << kernelMax;
  // Within the limits it runs.
  const size_t okLocal[1] = {std::min<size_t>(kernelMax, 64)};
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, global, okLocal, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  EXPECT_EQ(read<cl_int>(O, 64), std::vector<cl_int>(64, 7));
}

TEST_F(NDRange, SetKernelArgErrors) {
  cl_kernel k = kernel("ndrange", "with_local");
  ASSERT_NE(k, nullptr);
  cl_mem O = buffer<cl_int>(64);
  const cl_int n = 5;
  const cl_long wide = 5;
  const cl_short narrow = 5;
  int dummy = 0;
  EXPECT_EQ(clSetKernelArg(k, 3, sizeof n, &n), CL_INVALID_ARG_INDEX);
  EXPECT_EQ(clSetKernelArg(k, 2, sizeof wide, &wide), CL_INVALID_ARG_SIZE);
  EXPECT_EQ(clSetKernelArg(k, 2, sizeof narrow, &narrow), CL_INVALID_ARG_SIZE);
  EXPECT_EQ(clSetKernelArg(k, 2, sizeof n, nullptr), CL_INVALID_ARG_VALUE);
  EXPECT_EQ(clSetKernelArg(k, 0, 4, &O), CL_INVALID_ARG_SIZE) << "a cl_mem of the wrong size";
  EXPECT_EQ(clSetKernelArg(k, 1, 64, &dummy), CL_INVALID_ARG_VALUE) << "__local with a value";
  EXPECT_EQ(clSetKernelArg(k, 1, 0, nullptr), CL_INVALID_ARG_SIZE) << "__local of size 0";
  // A NULL buffer is a valid value for a global pointer.
  const cl_mem none = nullptr;
  EXPECT_EQ(clSetKernelArg(k, 0, sizeof none, &none), CL_SUCCESS);
  EXPECT_EQ(clSetKernelArg(k, 0, sizeof(cl_mem), nullptr), CL_SUCCESS);
  // The valid calls, and the kernel runs with them.
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof O, &O), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 1, 64 * sizeof(cl_int), nullptr), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 2, sizeof n, &n), CL_SUCCESS);
  run(k, {64}, {32});
  const std::vector<cl_int> out = read<cl_int>(O, 64);
  for (int i = 0; i < 64; ++i)
    ASSERT_EQ(out[i], i % 32 + 5) << "at " << i;
}

TEST_F(NDRange, KernelWorkGroupInfoLocalMemSize) {
  cl_kernel k = kernel("ndrange", "with_local");
  ASSERT_NE(k, nullptr);
  auto localMem = [&] {
    cl_ulong size = 0;
    EXPECT_EQ(
        clGetKernelWorkGroupInfo(k, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof size, &size, nullptr),
        CL_SUCCESS);
    return size;
  };
  const cl_ulong fixed = 64 * sizeof(cl_int); // local int fixed[64]
  const cl_ulong unset = localMem();
  EXPECT_GE(unset, fixed) << "before the __local argument is set";
  ASSERT_EQ(clSetKernelArg(k, 1, 128, nullptr), CL_SUCCESS);
  const cl_ulong small = localMem();
  EXPECT_GE(small, fixed + 128);
  ASSERT_EQ(clSetKernelArg(k, 1, 4096, nullptr), CL_SUCCESS);
  const cl_ulong large = localMem();
  EXPECT_GE(large, fixed + 4096);
  EXPECT_GE(large - small, 4096u - 128u - 64u);
  EXPECT_LE(large, deviceInfo<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE));

  size_t multiple = 0, wgSize = 0;
  EXPECT_EQ(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                     sizeof multiple, &multiple, nullptr),
            CL_SUCCESS);
  EXPECT_GE(multiple, 1u);
  EXPECT_EQ(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wgSize, &wgSize,
                                     nullptr),
            CL_SUCCESS);
  EXPECT_GE(wgSize, 1u);
}

// OpenCL 3.0, clEnqueueNDRangeKernel: CL_OUT_OF_RESOURCES when the kernel
// cannot run for want of resources. The __local memory of a launch, its
// variables and its arguments, may take up to CL_DEVICE_LOCAL_MEM_SIZE (as
// CL_KERNEL_LOCAL_MEM_SIZE reports it); one byte more fails the enqueue.
TEST_F(NDRange, LocalMemoryUpToTheDeviceSizeRunsAndBeyondIsOutOfResources) {
  cl_kernel k = kernel("ndrange", "with_local");
  ASSERT_NE(k, nullptr);
  const cl_ulong device_ = deviceInfo<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE);
  ASSERT_EQ(clSetKernelArg(k, 1, 4, nullptr), CL_SUCCESS);
  cl_ulong own = 0; // the kernel's variables and the 4 bytes just set
  ASSERT_EQ(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof own, &own, nullptr),
            CL_SUCCESS);
  const size_t fits = size_t(device_ - (own - 4)) / 4 * 4;
  cl_mem out = buffer<cl_int>(64);
  const cl_int n = 7;
  setArgs(k, out, Local{fits}, n);
  run(k, {64}, {64});
  const std::vector<cl_int> got = read<cl_int>(out, 64);
  for (int i = 0; i < 64; ++i)
    ASSERT_EQ(got[i], i + n) << "at " << i;

  setArg(k, 1, Local{fits + 4});
  const size_t global = 64, local = 64;
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr),
            CL_OUT_OF_RESOURCES);
}

std::string kernelString(cl_kernel k, cl_kernel_info param) {
  size_t size = 0;
  EXPECT_EQ(clGetKernelInfo(k, param, 0, nullptr, &size), CL_SUCCESS);
  std::string s(size, '\0');
  EXPECT_EQ(clGetKernelInfo(k, param, size, s.data(), nullptr), CL_SUCCESS);
  return s.c_str();
}

TEST_F(NDRange, KernelInfo) {
  for (const char *variant : variants) {
    cl_program p = program("ndrange", variant);
    ASSERT_NE(p, nullptr);
    cl_int error = CL_SUCCESS;
    cl_kernel k = clCreateKernel(p, "arg_info", &error);
    ASSERT_EQ(error, CL_SUCCESS);
    EXPECT_EQ(kernelString(k, CL_KERNEL_FUNCTION_NAME), "arg_info") << label(variant);
    cl_uint args = 0;
    EXPECT_EQ(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof args, &args, nullptr), CL_SUCCESS);
    EXPECT_EQ(args, 7u) << label(variant);
    cl_context c = nullptr;
    cl_program kp = nullptr;
    EXPECT_EQ(clGetKernelInfo(k, CL_KERNEL_CONTEXT, sizeof c, &c, nullptr), CL_SUCCESS);
    EXPECT_EQ(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof kp, &kp, nullptr), CL_SUCCESS);
    EXPECT_EQ(c, context);
    EXPECT_EQ(kp, p);
    clReleaseKernel(k);
  }
}

TEST_F(NDRange, KernelArgInfo) {
  struct Arg {
    const char *name, *type;
    cl_kernel_arg_address_qualifier address;
    cl_kernel_arg_type_qualifier qualifiers;
  };
  const Arg expected[] = {
      {"src", "float4*", CL_KERNEL_ARG_ADDRESS_GLOBAL,
       CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT},
      {"scratch", "uint*", CL_KERNEL_ARG_ADDRESS_LOCAL, CL_KERNEL_ARG_TYPE_NONE},
      // A pointer to __constant has the const qualifier (clGetKernelArgInfo).
      {"table", "int*", CL_KERNEL_ARG_ADDRESS_CONSTANT, CL_KERNEL_ARG_TYPE_CONST},
      {"flags", "int*", CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_VOLATILE},
      {"pair", "Pair", CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_TYPE_NONE},
      {"count", "ulong", CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_TYPE_NONE},
      {"pairs", "Pair*", CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_NONE},
  };
  for (const char *variant : variants) {
    cl_kernel k = kernel("ndrange", "arg_info", variant);
    ASSERT_NE(k, nullptr);
    for (cl_uint i = 0; i < 7; ++i) {
      const Arg &e = expected[i];
      cl_kernel_arg_address_qualifier address = 0;
      cl_kernel_arg_access_qualifier access = 0;
      cl_kernel_arg_type_qualifier qualifiers = ~cl_kernel_arg_type_qualifier(0);
      EXPECT_EQ(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof address, &address,
                                   nullptr),
                CL_SUCCESS);
      EXPECT_EQ(address, e.address) << label(variant) << " " << e.name;
      EXPECT_EQ(
          clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof access, &access, nullptr),
          CL_SUCCESS);
      EXPECT_EQ(access, cl_kernel_arg_access_qualifier(CL_KERNEL_ARG_ACCESS_NONE))
          << label(variant) << " " << e.name;
      EXPECT_EQ(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof qualifiers,
                                   &qualifiers, nullptr),
                CL_SUCCESS);
      EXPECT_EQ(qualifiers, e.qualifiers) << label(variant) << " " << e.name;
      for (auto [param, want] : {std::pair{cl_kernel_arg_info(CL_KERNEL_ARG_TYPE_NAME), e.type},
                                 std::pair{cl_kernel_arg_info(CL_KERNEL_ARG_NAME), e.name}}) {
        size_t size = 0;
        ASSERT_EQ(clGetKernelArgInfo(k, i, param, 0, nullptr, &size), CL_SUCCESS)
            << label(variant) << " " << e.name;
        std::string s(size, '\0');
        ASSERT_EQ(clGetKernelArgInfo(k, i, param, size, s.data(), nullptr), CL_SUCCESS);
        EXPECT_EQ(size, std::strlen(want) + 1) << label(variant) << " " << e.name;
        EXPECT_STREQ(s.c_str(), want) << label(variant) << " " << e.name;
      }
    }
    cl_uint dummy = 0;
    EXPECT_EQ(
        clGetKernelArgInfo(k, 7, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof dummy, &dummy, nullptr),
        CL_INVALID_ARG_INDEX);
  }
}

TEST_F(NDRange, ProgramInfoKernelNames) {
  const std::set<std::string> names = {"builtins", "count",      "vadd",     "task",   "required",
                                       "two_args", "with_local", "arg_info", "big_ids"};
  for (const char *variant : variants) {
    cl_program p = program("ndrange", variant);
    ASSERT_NE(p, nullptr);
    size_t num = 0;
    ASSERT_EQ(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof num, &num, nullptr), CL_SUCCESS);
    EXPECT_EQ(num, names.size()) << label(variant);
    size_t size = 0;
    ASSERT_EQ(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, 0, nullptr, &size), CL_SUCCESS);
    std::string list(size, '\0');
    ASSERT_EQ(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, size, list.data(), nullptr), CL_SUCCESS);
    ASSERT_EQ(list.back(), '\0');
    list.pop_back();
    std::set<std::string> got;
    std::multiset<std::string> all;
    std::stringstream s(list);
    for (std::string name; std::getline(s, name, ';');) {
      got.insert(name);
      all.insert(name);
    }
    EXPECT_EQ(got, names) << label(variant) << ": \"" << list << "\"";
    EXPECT_EQ(all.size(), names.size()) << label(variant) << ": \"" << list << "\"";
  }
}

} // namespace
} // namespace lanewise::test
