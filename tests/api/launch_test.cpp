// SPDX-License-Identifier: Apache-2.0
// Kernel commands through the API (OpenCL 3.0 API spec, 5.9 and 5.10): a
// command runs with the arguments set when it was enqueued (clSetKernelArg
// afterwards changes only later commands), whatever their number and size,
// and the commands of a queue hand on to one another however they are
// enqueued and waited for.
//
// Expected values are computed here from the kernels' source.
#include "common.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace lanewise::test {
namespace {

// `args` fills out[i] from a scalar, a 64-byte vector and a struct passed by
// value; `many` takes twelve arguments, more than a command keeps inline.
constexpr const char *source = R"CL(
typedef struct { long a; float b[6]; int c; } Record;

__kernel void args(__global int *out, int scalar, int16 wide, Record record) {
  const int i = get_global_id(0);
  out[i] = scalar + wide[i % 16] * 3 + (int)record.a * 5 + (int)record.b[i % 6] * 7 + record.c;
}

__kernel void many(__global int *out, int a0, __global const int *in1, int a2, int a3,
                   __global const int *in2, int a5, int a6, int a7, int a8, int a9,
                   __global int *out2) {
  const int i = get_global_id(0);
  out[i] = a0 + in1[i] + a2 * 2 + a3 * 3 + in2[i] * 4 + a5 * 5 + a6 * 6 + a7 * 7 + a8 * 8 + a9 * 9;
  out2[i] = -out[i];
}

__kernel void add_one(__global int *data) { data[get_global_id(0)] += 1; }
)CL";

struct Record {
  cl_long a;
  cl_float b[6];
  cl_int c;
};

class Launch : public ContextTest {
protected:
  void SetUp() override {
    ContextTest::SetUp();
    cl_int error = CL_SUCCESS;
    const char *text = source;
    program = clCreateProgramWithSource(context, 1, &text, nullptr, &error);
    ASSERT_EQ(error, CL_SUCCESS);
    ASSERT_EQ(clBuildProgram(program, 1, &device, "", nullptr, nullptr), CL_SUCCESS);
  }
  void TearDown() override {
    if (program)
      clReleaseProgram(program);
    ContextTest::TearDown();
  }

  Kernel kernel(const char *name) {
    cl_int error = CL_SUCCESS;
    Kernel k(clCreateKernel(program, name, &error));
    EXPECT_EQ(error, CL_SUCCESS) << name;
    return k;
  }
  Mem buffer(const std::vector<cl_int> &values) {
    cl_int error = CL_SUCCESS;
    Mem mem(clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                           values.size() * sizeof(cl_int), const_cast<cl_int *>(values.data()),
                           &error));
    EXPECT_EQ(error, CL_SUCCESS);
    return mem;
  }
  std::vector<cl_int> read(cl_mem mem, size_t n) {
    std::vector<cl_int> values(n);
    EXPECT_EQ(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, n * sizeof(cl_int), values.data(), 0,
                                  nullptr, nullptr),
              CL_SUCCESS);
    return values;
  }
  template <typename T> void arg(cl_kernel k, cl_uint index, const T &value) {
    ASSERT_EQ(clSetKernelArg(k, index, sizeof(T), &value), CL_SUCCESS) << "argument " << index;
  }
  // A user event that holds back every command enqueued after it.
  Event gate() {
    cl_int error = CL_SUCCESS;
    Event event(clCreateUserEvent(context, &error));
    EXPECT_EQ(error, CL_SUCCESS);
    return event;
  }

  cl_program program = nullptr;
};

constexpr size_t n = 64;

TEST_F(Launch, CommandsKeepTheArgumentsOfTheirEnqueue) {
  Kernel k = kernel("args");
  Mem first = buffer(std::vector<cl_int>(n, -1)), second = buffer(std::vector<cl_int>(n, -1));
  struct Setting {
    cl_mem out;
    cl_int scalar;
    cl_int16 wide;
    Record record;
  };
  Setting settings[2];
  for (int s = 0; s < 2; ++s) {
    settings[s].out = s ? second.get() : first.get();
    settings[s].scalar = 100 * (s + 1);
    for (int j = 0; j < 16; ++j)
      settings[s].wide.s[j] = j * (s ? -1 : 2);
    settings[s].record = {};
    settings[s].record.a = 11 + s;
    for (int j = 0; j < 6; ++j)
      settings[s].record.b[j] = static_cast<cl_float>(j + 10 * s);
    settings[s].record.c = 1000 * (s + 1);
  }
  // Both commands wait for the gate: each must still see its own arguments.
  Event open = gate();
  cl_event wait = open.get();
  for (const Setting &s : settings) {
    arg(k.get(), 0, s.out);
    arg(k.get(), 1, s.scalar);
    arg(k.get(), 2, s.wide);
    arg(k.get(), 3, s.record);
    const size_t global = n;
    ASSERT_EQ(
        clEnqueueNDRangeKernel(queue, k.get(), 1, nullptr, &global, nullptr, 1, &wait, nullptr),
        CL_SUCCESS);
  }
  ASSERT_EQ(clSetUserEventStatus(open.get(), CL_COMPLETE), CL_SUCCESS);
  for (int s = 0; s < 2; ++s) {
    const Setting &setting = settings[s];
    const std::vector<cl_int> got = read(s ? second.get() : first.get(), n);
    for (size_t i = 0; i < n; ++i) {
      const cl_int expected = setting.scalar + setting.wide.s[i % 16] * 3 +
                              static_cast<cl_int>(setting.record.a) * 5 +
                              static_cast<cl_int>(setting.record.b[i % 6]) * 7 + setting.record.c;
      ASSERT_EQ(got[i], expected) << "command " << s << ", item " << i;
    }
  }
}

TEST_F(Launch, CommandsOfManyArgumentsKeepThemAll) {
  Kernel k = kernel("many");
  std::vector<cl_int> in1(n), in2(n);
  for (size_t i = 0; i < n; ++i) {
    in1[i] = static_cast<cl_int>(i * 3);
    in2[i] = static_cast<cl_int>(1000 - i);
  }
  Mem inA = buffer(in1), inB = buffer(in2);
  Mem outs[2][2] = {{buffer(std::vector<cl_int>(n)), buffer(std::vector<cl_int>(n))},
                    {buffer(std::vector<cl_int>(n)), buffer(std::vector<cl_int>(n))}};
  Event open = gate();
  cl_event wait = open.get();
  std::array<std::array<cl_int, 8>, 2> scalars{};
  for (int c = 0; c < 2; ++c) {
    for (int j = 0; j < 8; ++j)
      scalars[c][j] = (c + 1) * (j + 2);
    // The second command swaps the inputs.
    arg(k.get(), 0, outs[c][0].get());
    arg(k.get(), 1, scalars[c][0]);
    arg(k.get(), 2, c ? inB.get() : inA.get());
    arg(k.get(), 3, scalars[c][1]);
    arg(k.get(), 4, scalars[c][2]);
    arg(k.get(), 5, c ? inA.get() : inB.get());
    for (cl_uint j = 3; j < 8; ++j)
      arg(k.get(), j + 3, scalars[c][j]);
    arg(k.get(), 11, outs[c][1].get());
    const size_t global = n;
    ASSERT_EQ(
        clEnqueueNDRangeKernel(queue, k.get(), 1, nullptr, &global, nullptr, 1, &wait, nullptr),
        CL_SUCCESS);
  }
  ASSERT_EQ(clSetUserEventStatus(open.get(), CL_COMPLETE), CL_SUCCESS);
  for (int c = 0; c < 2; ++c) {
    const std::vector<cl_int> got = read(outs[c][0].get(), n), negated = read(outs[c][1].get(), n);
    const std::vector<cl_int> &first = c ? in2 : in1, &second = c ? in1 : in2;
    const auto &a = scalars[c];
    for (size_t i = 0; i < n; ++i) {
      const cl_int expected = a[0] + first[i] + a[1] * 2 + a[2] * 3 + second[i] * 4 + a[3] * 5 +
                              a[4] * 6 + a[5] * 7 + a[6] * 8 + a[7] * 9;
      ASSERT_EQ(got[i], expected) << "command " << c << ", item " << i;
      ASSERT_EQ(negated[i], -expected) << "command " << c << ", item " << i;
    }
  }
}

// A long in-order chain, enqueued faster than it runs, without events, then
// finished: every command ran once, in order.
TEST_F(Launch, PipelinedCommandsRunOnceEachInOrder) {
  Kernel k = kernel("add_one");
  Mem data = buffer(std::vector<cl_int>(n, 0));
  arg(k.get(), 0, data.get());
  constexpr int launches = 3000;
  const size_t global = n;
  for (int i = 0; i < launches; ++i)
    ASSERT_EQ(
        clEnqueueNDRangeKernel(queue, k.get(), 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
        CL_SUCCESS);
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  EXPECT_EQ(read(data.get(), n), std::vector<cl_int>(n, launches));
}

// A command's completion callback that enqueues a command on another queue
// and waits for it. The specification leaves blocking in a callback
// undefined; Lanewise runs the new command on another thread rather than
// hang, although the thread of the callback has the next command of the
// first queue to run.
void CL_CALLBACK enqueueAndWait(cl_event, cl_int, void *data) {
  auto *state = static_cast<std::pair<cl_command_queue, cl_kernel> *>(data);
  const size_t global = n;
  cl_event done = nullptr;
  if (clEnqueueNDRangeKernel(state->first, state->second, 1, nullptr, &global, nullptr, 0, nullptr,
                             &done) == CL_SUCCESS) {
    clWaitForEvents(1, &done);
    clReleaseEvent(done);
  }
}

TEST_F(Launch, CallbackMayWaitForACommandItEnqueues) {
  if (!testingLanewise())
    GTEST_SKIP() << "blocking in a callback is undefined behaviour";
  cl_int error = CL_SUCCESS;
  cl_command_queue other = clCreateCommandQueueWithProperties(context, device, nullptr, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  Kernel k = kernel("add_one"), k2 = kernel("add_one");
  Mem data = buffer(std::vector<cl_int>(n, 0)), data2 = buffer(std::vector<cl_int>(n, 0));
  arg(k.get(), 0, data.get());
  arg(k2.get(), 0, data2.get());
  std::pair<cl_command_queue, cl_kernel> state{other, k2.get()};
  const size_t global = n;
  Event open = gate();
  cl_event wait = open.get(), first = nullptr;
  ASSERT_EQ(clEnqueueNDRangeKernel(queue, k.get(), 1, nullptr, &global, nullptr, 1, &wait, &first),
            CL_SUCCESS);
  Event owned(first);
  ASSERT_EQ(clSetEventCallback(first, CL_COMPLETE, enqueueAndWait, &state), CL_SUCCESS);
  ASSERT_EQ(
      clEnqueueNDRangeKernel(queue, k.get(), 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
      CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(open.get(), CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  ASSERT_EQ(clFinish(other), CL_SUCCESS);
  EXPECT_EQ(read(data.get(), n), std::vector<cl_int>(n, 2));
  EXPECT_EQ(read(data2.get(), n), std::vector<cl_int>(n, 1));
  clReleaseCommandQueue(other);
}

} // namespace
} // namespace lanewise::test
