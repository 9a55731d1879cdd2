// SPDX-License-Identifier: Apache-2.0
// Fine-grain buffer SVM with SVM atomics (OpenCL 3.0 API spec, 5.6.1 and
// 3.3.6; OpenCL C 3.0, 6.15.12): host and kernels share allocations, and
// structures of pointers in them, without map or unmap; each sees the
// other's atomics while both run; kernel atomics and fences of device and
// all-devices scope order memory as the C11 model says. Skipped when the
// device does not report CL_DEVICE_SVM_FINE_GRAIN_BUFFER and
// CL_DEVICE_SVM_ATOMICS.
#include "common.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace lanewise::test {
namespace {

using namespace std::chrono_literals;

// A device whose OpenCL C lacks the all-devices scope (PoCL 3.1, which also
// reports SVM atomics) runs the kernels at device scope.
const char *kSource = R"CLC(
#ifndef __opencl_c_atomic_scope_all_devices
#define memory_scope_all_svm_devices memory_scope_device
#endif

typedef struct Node {
  global struct Node *next;
  int value;
} Node;

// Sums the list from head, then reverses it in place: the host walks the
// result through the pointers the kernel wrote.
kernel void sum_and_reverse(global Node *head, global Node *global *newHead,
                              global int *sum) {
  int s = 0;
  global Node *previous = 0;
  for (global Node *n = head; n;) {
    global Node *next = n->next;
    s += n->value;
    n->next = previous;
    previous = n;
    n = next;
  }
  *sum = s;
  *newHead = previous;
}

// flags[0]: the kernel has started (kernel to host); flags[1]: the host's
// payload is ready (host to kernel). The kernel's data goes out with a
// release fence and a relaxed store, the host's comes in with a relaxed load
// and an acquire fence.
kernel void handshake(volatile global atomic_int *flags, global int *data, int n) {
  for (int i = 0; i < n; ++i)
    data[i] = 3 * i + 1;
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_all_svm_devices);
  atomic_store_explicit(&flags[0], 1, memory_order_relaxed, memory_scope_all_svm_devices);
  while (atomic_load_explicit(&flags[1], memory_order_relaxed, memory_scope_all_svm_devices) == 0)
    ;
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, memory_scope_all_svm_devices);
  data[n + 1] = data[n] * 2;
}

// counters[0] by the implicit (seq_cst, device scope) form, counters[1] by
// the all-devices scope form, which the host also adds to while this runs.
kernel void count(volatile global atomic_int *counters, int perItem) {
  for (int i = 0; i < perItem; ++i) {
    atomic_fetch_add(&counters[0], 1);
    atomic_fetch_add_explicit(&counters[1], 1, memory_order_relaxed, memory_scope_all_svm_devices);
  }
}
)CLC";

struct Node {
  Node *next;
  int value;
};

class FineGrainSvm : public ContextTest {
protected:
  void SetUp() override {
    ContextTest::SetUp();
    if (HasFatalFailure())
      return;
    const auto caps = deviceInfo<cl_device_svm_capabilities>(device, CL_DEVICE_SVM_CAPABILITIES);
    const cl_device_svm_capabilities needed =
        CL_DEVICE_SVM_FINE_GRAIN_BUFFER | CL_DEVICE_SVM_ATOMICS;
    if ((caps & needed) != needed) {
      if (testingLanewise())
        FAIL() << "Lanewise reports no fine-grain buffer SVM with SVM atomics";
      GTEST_SKIP() << "device has no fine-grain buffer SVM with SVM atomics";
    }
  }
  void TearDown() override {
    if (queue)
      clFinish(queue);
    for (cl_kernel kernel : kernels)
      clReleaseKernel(kernel);
    if (program)
      clReleaseProgram(program);
    for (void *ptr : allocations)
      clSVMFree(context, ptr);
    ContextTest::TearDown();
  }
  template <typename T> T *alloc(size_t count) {
    void *ptr =
        clSVMAlloc(context, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
                   count * sizeof(T), 0);
    EXPECT_NE(ptr, nullptr);
    if (ptr)
      allocations.push_back(ptr);
    return static_cast<T *>(ptr);
  }
  cl_kernel kernel(const char *name) {
    if (!program) {
      cl_int error = CL_SUCCESS;
      program = clCreateProgramWithSource(context, 1, &kSource, nullptr, &error);
      EXPECT_EQ(error, CL_SUCCESS);
      error = clBuildProgram(program, 1, &device, "-cl-std=CL3.0", nullptr, nullptr);
      if (error != CL_SUCCESS) {
        size_t size = 0;
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
        std::string log(size, '\0');
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
        ADD_FAILURE() << "build failed: " << log.c_str();
      }
    }
    cl_int error = CL_SUCCESS;
    cl_kernel k = clCreateKernel(program, name, &error);
    EXPECT_EQ(error, CL_SUCCESS) << name;
    if (k)
      kernels.push_back(k);
    return k;
  }
  cl_event launch(cl_kernel k, size_t globalSize) {
    cl_event event = nullptr;
    EXPECT_EQ(
        clEnqueueNDRangeKernel(queue, k, 1, nullptr, &globalSize, nullptr, 0, nullptr, &event),
        CL_SUCCESS);
    EXPECT_EQ(clFlush(queue), CL_SUCCESS);
    return event;
  }
  cl_int status(cl_event event) {
    cl_int value = CL_QUEUED;
    EXPECT_EQ(
        clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof value, &value, nullptr),
        CL_SUCCESS);
    return value;
  }

  cl_program program = nullptr;
  std::vector<cl_kernel> kernels;
  std::vector<void *> allocations;
};

// clSVMAlloc: CL_MEM_SVM_FINE_GRAIN_BUFFER with each access mode, with and
// without CL_MEM_SVM_ATOMICS; CL_MEM_SVM_ATOMICS alone is invalid.
TEST_F(FineGrainSvm, AllocAcceptsFineGrainAndAtomicsFlags) {
  for (cl_svm_mem_flags access :
       {cl_svm_mem_flags{0}, cl_svm_mem_flags{CL_MEM_READ_WRITE},
        cl_svm_mem_flags{CL_MEM_READ_ONLY}, cl_svm_mem_flags{CL_MEM_WRITE_ONLY}})
    for (cl_svm_mem_flags grain :
         {cl_svm_mem_flags{CL_MEM_SVM_FINE_GRAIN_BUFFER},
          cl_svm_mem_flags{CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS}}) {
      SCOPED_TRACE(access | grain);
      void *ptr = clSVMAlloc(context, access | grain, 1000, 64);
      ASSERT_NE(ptr, nullptr);
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(ptr) % 64, 0u);
      clSVMFree(context, ptr);
    }
  EXPECT_EQ(clSVMAlloc(context, CL_MEM_READ_WRITE | CL_MEM_SVM_ATOMICS, 1000, 0), nullptr);
}

// A linked list built by the host in place, with no map: the kernel follows
// the host's pointers, the host then follows the kernel's.
TEST_F(FineGrainSvm, KernelAndHostShareAListWithoutMap) {
  constexpr int count = 100;
  Node *nodes = alloc<Node>(count);
  Node **newHead = alloc<Node *>(1);
  int *sum = alloc<int>(1);
  ASSERT_TRUE(nodes && newHead && sum);
  // Linked in a scattered order, so that the list is not the array.
  int expected = 0;
  for (int i = 0; i < count; ++i) {
    const int at = (i * 37) % count, next = ((i + 1) * 37) % count;
    nodes[at].value = i * i - 7 * i;
    nodes[at].next = i + 1 < count ? &nodes[next] : nullptr;
    expected += nodes[at].value;
  }
  *newHead = nullptr;
  *sum = 0;
  cl_kernel k = kernel("sum_and_reverse");
  ASSERT_NE(k, nullptr);
  ASSERT_EQ(clSetKernelArgSVMPointer(k, 0, &nodes[0]), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArgSVMPointer(k, 1, newHead), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArgSVMPointer(k, 2, sum), CL_SUCCESS);
  ASSERT_EQ(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(void *) * 3,
                                std::vector<void *>{nodes, newHead, sum}.data()),
            CL_SUCCESS);
  cl_event event = launch(k, 1);
  ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
  clReleaseEvent(event);
  EXPECT_EQ(*sum, expected);
  // The reversed list: the values of the original order, from the last.
  int i = count - 1;
  for (const Node *n = *newHead; n; n = n->next, --i) {
    ASSERT_GE(i, 0) << "the reversed list is longer than the original";
    EXPECT_EQ(n, &nodes[(i * 37) % count]);
    EXPECT_EQ(n->value, i * i - 7 * i);
  }
  EXPECT_EQ(i, -1) << "the reversed list is shorter than the original";
}

// The host sees the kernel's data while the kernel still runs, and the
// kernel sees the host's: a release fence and a relaxed atomic store on one
// side, a relaxed atomic load and an acquire fence on the other.
TEST_F(FineGrainSvm, KernelAndHostExchangeDataWhileTheKernelRuns) {
  constexpr int n = 1000;
  int *flags = alloc<int>(2);
  int *data = alloc<int>(n + 2);
  ASSERT_TRUE(flags && data);
  flags[0] = flags[1] = 0;
  for (int i = 0; i < n + 2; ++i)
    data[i] = -1;
  cl_kernel k = kernel("handshake");
  ASSERT_NE(k, nullptr);
  ASSERT_EQ(clSetKernelArgSVMPointer(k, 0, flags), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArgSVMPointer(k, 1, data), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 2, sizeof n, &n), CL_SUCCESS);
  cl_event event = launch(k, 1);

  std::atomic_ref<int> started(flags[0]), ready(flags[1]);
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  bool seen = false;
  while (!(seen = started.load(std::memory_order_relaxed) == 1) &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::yield();
  std::atomic_thread_fence(std::memory_order_acquire);
  EXPECT_TRUE(seen) << "the kernel did not start while the host waited";
  if (seen) {
    EXPECT_NE(status(event), CL_COMPLETE) << "the kernel waits for the host";
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(data[i], 3 * i + 1) << i;
  }
  data[n] = 21;
  std::atomic_thread_fence(std::memory_order_release);
  ready.store(1, std::memory_order_relaxed); // lets the kernel end in every case
  ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
  clReleaseEvent(event);
  EXPECT_EQ(data[n + 1], 42);
}

// Atomics of the kernel's work-items and of a host thread on the same
// counters, at the same time, lose no update.
TEST_F(FineGrainSvm, KernelAndHostAtomicsOnOneCounterLoseNothing) {
  constexpr int perItem = 200, hostAdds = 100000;
  constexpr size_t items = 4096;
  int *counters = alloc<int>(2);
  ASSERT_NE(counters, nullptr);
  counters[0] = counters[1] = 0;
  cl_kernel k = kernel("count");
  ASSERT_NE(k, nullptr);
  ASSERT_EQ(clSetKernelArgSVMPointer(k, 0, counters), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 1, sizeof perItem, &perItem), CL_SUCCESS);
  cl_event event = launch(k, items);
  std::atomic_ref<int> shared(counters[1]);
  for (int i = 0; i < hostAdds; ++i)
    shared.fetch_add(1, std::memory_order_relaxed);
  ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
  clReleaseEvent(event);
  EXPECT_EQ(counters[0], int(items) * perItem);
  EXPECT_EQ(counters[1], int(items) * perItem + hostAdds);
}

// OpenCL 3.0 API, clSetKernelExecInfo: CL_KERNEL_EXEC_INFO_SVM_PTRS with no
// pointers clears the set. (A size that is not a whole number of pointers is
// in the misuse table.)
TEST_F(FineGrainSvm, ExecInfoSvmPointersCanBeCleared) {
  cl_kernel k = kernel("count");
  ASSERT_NE(k, nullptr);
  void *pointers[2] = {alloc<int>(4), alloc<int>(4)};
  EXPECT_EQ(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof pointers, pointers),
            CL_SUCCESS);
  EXPECT_EQ(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, nullptr), CL_SUCCESS);
}

} // namespace
} // namespace lanewise::test
