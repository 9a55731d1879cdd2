// SPDX-License-Identifier: Apache-2.0
// Coarse-grain shared virtual memory (OpenCL 3.0 API spec, 5.6): clSVMAlloc,
// clSVMFree and the clEnqueueSVM* commands. Skipped when the device does not
// report CL_DEVICE_SVM_COARSE_GRAIN_BUFFER.
#include "common.h"

#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace lanewise::test {
namespace {

using Bytes = std::vector<std::uint8_t>;
using namespace std::chrono_literals;

Bytes pattern(size_t size, unsigned seed) {
  Bytes bytes(size);
  for (size_t i = 0; i < size; ++i)
    bytes[i] = static_cast<std::uint8_t>(i * 37 + seed * 23 + 5);
  return bytes;
}

template <typename Pred> bool eventually(Pred done, std::chrono::milliseconds limit = 2000ms) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline)
      return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

cl_command_type commandType(cl_event event) {
  cl_command_type type = 0;
  EXPECT_EQ(clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, nullptr), CL_SUCCESS);
  return type;
}

class Svm : public ContextTest {
protected:
  static constexpr size_t kSize = 1024;

  void SetUp() override {
    ContextTest::SetUp();
    if (HasFatalFailure())
      return;
    const auto caps = deviceInfo<cl_device_svm_capabilities>(device, CL_DEVICE_SVM_CAPABILITIES);
    if (!(caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER))
      GTEST_SKIP() << "device has no coarse-grain buffer SVM";
  }
  void TearDown() override {
    if (queue)
      clFinish(queue);
    for (void *ptr : allocations)
      clSVMFree(context, ptr);
    ContextTest::TearDown();
  }
  // An SVM allocation freed at tear-down.
  std::uint8_t *alloc(size_t size, cl_uint alignment = 0,
                      cl_svm_mem_flags flags = CL_MEM_READ_WRITE) {
    void *ptr = clSVMAlloc(context, flags, size, alignment);
    EXPECT_NE(ptr, nullptr) << "size " << size << " alignment " << alignment;
    if (ptr)
      allocations.push_back(ptr);
    return static_cast<std::uint8_t *>(ptr);
  }
  // Host access to coarse-grain SVM goes through map / unmap.
  Bytes readBack(void *ptr, size_t size) {
    Bytes out(size);
    EXPECT_EQ(clEnqueueSVMMemcpy(queue, CL_TRUE, out.data(), ptr, size, 0, nullptr, nullptr),
              CL_SUCCESS);
    return out;
  }
  void fillFrom(void *ptr, const Bytes &data) {
    ASSERT_EQ(
        clEnqueueSVMMemcpy(queue, CL_TRUE, ptr, data.data(), data.size(), 0, nullptr, nullptr),
        CL_SUCCESS);
  }
  std::vector<void *> allocations;
};

// ---------------------------------------------------------------------------
// clSVMAlloc / clSVMFree

TEST_F(Svm, AllocHonoursPowerOfTwoAlignments) {
  for (cl_uint alignment : {1u, 2u, 4u, 8u, 16u, 32u, 64u, 128u}) {
    SCOPED_TRACE(alignment);
    for (int i = 0; i < 4; ++i) { // several, so that one lucky address does not pass
      std::uint8_t *ptr = alloc(kSize + i * 3, alignment);
      ASSERT_NE(ptr, nullptr);
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(ptr) % alignment, 0u);
    }
  }
}

TEST_F(Svm, DefaultAlignmentIsLargestDataType) {
  // Alignment 0: the size of the largest data type, long16 (128 bytes) for the
  // full profile.
  if (deviceString(device, CL_DEVICE_PROFILE) != "FULL_PROFILE")
    GTEST_SKIP() << "embedded profile";
  for (int i = 0; i < 4; ++i) {
    std::uint8_t *ptr = alloc(100 + i, 0);
    ASSERT_NE(ptr, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(ptr) % 128, 0u);
  }
}

TEST_F(Svm, AllocFailsForInvalidArguments) {
  const cl_ulong maxAlloc = deviceInfo<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  const struct {
    const char *name;
    cl_svm_mem_flags flags;
    size_t size;
    cl_uint alignment;
  } cases[] = {
      {"size 0", CL_MEM_READ_WRITE, 0, 0},
      {"size > max alloc", CL_MEM_READ_WRITE, static_cast<size_t>(maxAlloc) + 1, 0},
      {"alignment 3", CL_MEM_READ_WRITE, kSize, 3},
      {"alignment 24", CL_MEM_READ_WRITE, kSize, 24},
      {"alignment 100", CL_MEM_READ_WRITE, kSize, 100},
      {"atomics without fine grain", CL_MEM_READ_WRITE | CL_MEM_SVM_ATOMICS, kSize, 0},
      {"two access flags", CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, kSize, 0},
      {"USE_HOST_PTR", CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, kSize, 0},
  };
  for (const auto &c : cases) {
    SCOPED_TRACE(c.name);
    void *ptr = clSVMAlloc(context, c.flags, c.size, c.alignment);
    EXPECT_EQ(ptr, nullptr);
    if (ptr)
      clSVMFree(context, ptr);
  }
  EXPECT_EQ(clSVMAlloc(nullptr, CL_MEM_READ_WRITE, kSize, 0), nullptr);
}

TEST_F(Svm, AllocAcceptsAccessFlags) {
  for (cl_svm_mem_flags flags :
       {cl_svm_mem_flags{0}, cl_svm_mem_flags{CL_MEM_READ_WRITE},
        cl_svm_mem_flags{CL_MEM_READ_ONLY}, cl_svm_mem_flags{CL_MEM_WRITE_ONLY}}) {
    SCOPED_TRACE(flags);
    EXPECT_NE(alloc(kSize, 0, flags), nullptr);
  }
}

TEST_F(Svm, FreeOfNullIsHarmless) {
  clSVMFree(context, nullptr);
  void *ptr = clSVMAlloc(context, CL_MEM_READ_WRITE, kSize, 0);
  ASSERT_NE(ptr, nullptr);
  clSVMFree(context, ptr);
}

// ---------------------------------------------------------------------------
// clEnqueueSVMMemcpy

TEST_F(Svm, MemcpyMovesBytesBetweenHostAndSvm) {
  std::uint8_t *a = alloc(kSize), *b = alloc(kSize);
  ASSERT_TRUE(a && b);
  const Bytes data = pattern(kSize, 1);
  fillFrom(a, data);       // host -> SVM, blocking
  cl_event copy = nullptr; // SVM -> SVM, non-blocking
  ASSERT_EQ(clEnqueueSVMMemcpy(queue, CL_FALSE, b + 100, a + 10, 500, 0, nullptr, &copy),
            CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &copy), CL_SUCCESS);
  EXPECT_EQ(commandType(copy), cl_command_type{CL_COMMAND_SVM_MEMCPY});
  clReleaseEvent(copy);
  const Bytes got = readBack(b + 100, 500); // SVM -> host, blocking
  EXPECT_EQ(got, Bytes(data.begin() + 10, data.begin() + 510));
  EXPECT_EQ(readBack(a, kSize), data);
}

TEST_F(Svm, NonBlockingMemcpyToHostCompletesByFinish) {
  std::uint8_t *a = alloc(kSize);
  ASSERT_NE(a, nullptr);
  const Bytes data = pattern(kSize, 2);
  fillFrom(a, data);
  Bytes out(kSize, 0);
  ASSERT_EQ(clEnqueueSVMMemcpy(queue, CL_FALSE, out.data(), a, kSize, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  EXPECT_EQ(out, data);
}

TEST_F(Svm, MemcpyErrors) {
  std::uint8_t *a = alloc(kSize);
  ASSERT_NE(a, nullptr);
  Bytes host(kSize);
  // Overlapping source and destination.
  EXPECT_EQ(clEnqueueSVMMemcpy(queue, CL_TRUE, a + 8, a, 16, 0, nullptr, nullptr),
            CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(clEnqueueSVMMemcpy(queue, CL_TRUE, a, a + 15, 16, 0, nullptr, nullptr),
            CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(clEnqueueSVMMemcpy(queue, CL_TRUE, a, a, 16, 0, nullptr, nullptr), CL_MEM_COPY_OVERLAP);
  // NULL pointers.
  EXPECT_EQ(clEnqueueSVMMemcpy(queue, CL_TRUE, nullptr, a, 16, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMemcpy(queue, CL_TRUE, host.data(), nullptr, 16, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  // Malformed wait list.
  EXPECT_EQ(clEnqueueSVMMemcpy(queue, CL_TRUE, host.data(), a, 16, 1, nullptr, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
  // Adjacent, not overlapping: fine.
  EXPECT_EQ(clEnqueueSVMMemcpy(queue, CL_TRUE, a + 16, a, 16, 0, nullptr, nullptr), CL_SUCCESS);
}

// ---------------------------------------------------------------------------
// clEnqueueSVMMemFill

TEST_F(Svm, MemFillEveryPatternSize) {
  std::uint8_t *ptr = alloc(16 * 128, 128);
  ASSERT_NE(ptr, nullptr);
  for (size_t patternSize : {1, 2, 4, 8, 16, 32, 64, 128}) {
    SCOPED_TRACE(patternSize);
    Bytes expected(16 * 128, 0xEE);
    fillFrom(ptr, expected);
    const Bytes pat = pattern(patternSize, static_cast<unsigned>(patternSize));
    const size_t offset = 2 * patternSize, size = 5 * patternSize;
    cl_event event = nullptr;
    ASSERT_EQ(
        clEnqueueSVMMemFill(queue, ptr + offset, pat.data(), patternSize, size, 0, nullptr, &event),
        CL_SUCCESS);
    ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
    EXPECT_EQ(commandType(event), cl_command_type{CL_COMMAND_SVM_MEMFILL});
    clReleaseEvent(event);
    for (size_t i = 0; i < size; ++i)
      expected[offset + i] = pat[i % patternSize];
    EXPECT_EQ(readBack(ptr, expected.size()), expected);
  }
}

TEST_F(Svm, MemFillErrors) {
  std::uint8_t *ptr = alloc(kSize, 128);
  ASSERT_NE(ptr, nullptr);
  const Bytes pat = pattern(256, 1);
  const struct {
    const char *name;
    void *target;
    const void *pattern;
    size_t patternSize, size;
  } cases[] = {
      {"NULL svm_ptr", nullptr, pat.data(), 4, 64},
      {"NULL pattern", ptr, nullptr, 4, 64},
      {"pattern size 0", ptr, pat.data(), 0, 64},
      {"pattern size 3", ptr, pat.data(), 3, 48},
      {"pattern size 12", ptr, pat.data(), 12, 48},
      {"pattern size 256", ptr, pat.data(), 256, 512},
      {"svm_ptr not aligned to pattern", ptr + 2, pat.data(), 4, 64},
      {"svm_ptr not aligned to pattern 16", ptr + 8, pat.data(), 16, 64},
      {"size not a multiple", ptr, pat.data(), 4, 6},
      {"size not a multiple 64", ptr, pat.data(), 64, 96},
  };
  for (const auto &c : cases) {
    SCOPED_TRACE(c.name);
    if (!c.pattern && !testingLanewise())
      continue; // PoCL 3.1, the reference run, dereferences a NULL pattern
    EXPECT_EQ(
        clEnqueueSVMMemFill(queue, c.target, c.pattern, c.patternSize, c.size, 0, nullptr, nullptr),
        CL_INVALID_VALUE);
  }
}

// ---------------------------------------------------------------------------
// clEnqueueSVMMap / clEnqueueSVMUnmap

TEST_F(Svm, MapForWriteThenUnmapPublishesHostWrites) {
  std::uint8_t *ptr = alloc(kSize);
  ASSERT_NE(ptr, nullptr);
  cl_event map = nullptr, unmap = nullptr;
  ASSERT_EQ(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_WRITE, ptr, kSize, 0, nullptr, &map),
            CL_SUCCESS);
  const Bytes data = pattern(kSize, 3);
  std::memcpy(ptr, data.data(), kSize);
  ASSERT_EQ(clEnqueueSVMUnmap(queue, ptr, 0, nullptr, &unmap), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &unmap), CL_SUCCESS);
  EXPECT_EQ(commandType(map), cl_command_type{CL_COMMAND_SVM_MAP});
  EXPECT_EQ(commandType(unmap), cl_command_type{CL_COMMAND_SVM_UNMAP});
  clReleaseEvent(map);
  clReleaseEvent(unmap);

  // Another SVM allocation receives the bytes through a device-side copy.
  std::uint8_t *copy = alloc(kSize);
  ASSERT_EQ(clEnqueueSVMMemcpy(queue, CL_TRUE, copy, ptr, kSize, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(readBack(copy, kSize), data);
}

TEST_F(Svm, MapForReadShowsDeviceWrites) {
  std::uint8_t *ptr = alloc(kSize, 4);
  ASSERT_NE(ptr, nullptr);
  const cl_uint value = 0xCAFEF00D;
  ASSERT_EQ(clEnqueueSVMMemFill(queue, ptr, &value, sizeof(value), kSize, 0, nullptr, nullptr),
            CL_SUCCESS);
  cl_event map = nullptr;
  ASSERT_EQ(clEnqueueSVMMap(queue, CL_FALSE, CL_MAP_READ, ptr, kSize, 0, nullptr, &map),
            CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &map), CL_SUCCESS);
  for (size_t i = 0; i < kSize; i += 4) {
    cl_uint got = 0;
    std::memcpy(&got, ptr + i, 4);
    ASSERT_EQ(got, value) << i;
  }
  ASSERT_EQ(clEnqueueSVMUnmap(queue, ptr, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  clReleaseEvent(map);
}

TEST_F(Svm, MapErrors) {
  std::uint8_t *ptr = alloc(kSize);
  ASSERT_NE(ptr, nullptr);
  EXPECT_EQ(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, nullptr, kSize, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, ptr, 0, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, ptr,
                            kSize, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMUnmap(queue, nullptr, 0, nullptr, nullptr), CL_INVALID_VALUE);
}

// ---------------------------------------------------------------------------
// clEnqueueSVMFree

struct FreeRecord {
  std::mutex mutex;
  int calls = 0;
  cl_command_queue queue = nullptr;
  std::vector<void *> pointers;
  cl_context context = nullptr;
  int count() {
    std::lock_guard lock(mutex);
    return calls;
  }
};
void CL_CALLBACK recordFree(cl_command_queue queue, cl_uint num, void *pointers[], void *user) {
  auto *record = static_cast<FreeRecord *>(user);
  std::lock_guard lock(record->mutex);
  ++record->calls;
  record->queue = queue;
  record->pointers.assign(pointers, pointers + num);
  for (cl_uint i = 0; i < num; ++i) // the callback is responsible for freeing
    clSVMFree(record->context, pointers[i]);
}

TEST_F(Svm, EnqueueFreeCallsCallbackWithThePointers) {
  void *a = clSVMAlloc(context, CL_MEM_READ_WRITE, kSize, 0);
  void *b = clSVMAlloc(context, CL_MEM_READ_WRITE, kSize, 0);
  ASSERT_TRUE(a && b);
  FreeRecord record;
  record.context = context;
  void *pointers[] = {a, b};
  cl_event event = nullptr;
  ASSERT_EQ(clEnqueueSVMFree(queue, 2, pointers, recordFree, &record, 0, nullptr, &event),
            CL_SUCCESS);
  pointers[0] = pointers[1] = nullptr; // the list may be reused once the call returns
  ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
  EXPECT_EQ(commandType(event), cl_command_type{CL_COMMAND_SVM_FREE});
  clReleaseEvent(event);
  ASSERT_TRUE(eventually([&] { return record.count() > 0; }));
  std::lock_guard lock(record.mutex);
  EXPECT_EQ(record.calls, 1);
  EXPECT_EQ(record.queue, queue);
  EXPECT_EQ(record.pointers, (std::vector<void *>{a, b}));
}

TEST_F(Svm, EnqueueFreeWithoutCallbackFreesThePointers) {
  void *a = clSVMAlloc(context, CL_MEM_READ_WRITE, kSize, 0);
  ASSERT_NE(a, nullptr);
  void *pointers[] = {a};
  cl_event event = nullptr;
  ASSERT_EQ(clEnqueueSVMFree(queue, 1, pointers, nullptr, nullptr, 0, nullptr, &event), CL_SUCCESS);
  EXPECT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
  clReleaseEvent(event);
}

TEST_F(Svm, EnqueueFreeWaitsForItsWaitList) {
  cl_int err = CL_INVALID_VALUE;
  cl_event gate = clCreateUserEvent(context, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  void *a = clSVMAlloc(context, CL_MEM_READ_WRITE, kSize, 0);
  ASSERT_NE(a, nullptr);
  FreeRecord record;
  record.context = context;
  void *pointers[] = {a};
  ASSERT_EQ(clEnqueueSVMFree(queue, 1, pointers, recordFree, &record, 1, &gate, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clFlush(queue), CL_SUCCESS);
  std::this_thread::sleep_for(30ms);
  EXPECT_EQ(record.count(), 0) << "free ran before its wait list completed";
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  EXPECT_TRUE(eventually([&] { return record.count() == 1; }));
  clReleaseEvent(gate);
}

TEST_F(Svm, EnqueueFreeListMismatchIsInvalidValue) {
  void *ptr = alloc(kSize);
  void *pointers[] = {ptr};
  EXPECT_EQ(clEnqueueSVMFree(queue, 0, pointers, nullptr, nullptr, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMFree(queue, 1, nullptr, nullptr, nullptr, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
}

// ---------------------------------------------------------------------------
// clEnqueueSVMMigrateMem

TEST_F(Svm, MigrateMemKeepsContents) {
  std::uint8_t *a = alloc(kSize), *b = alloc(kSize);
  ASSERT_TRUE(a && b);
  const Bytes data = pattern(kSize, 4);
  fillFrom(a, data);
  const void *pointers[] = {a, b + 64};
  const size_t sizes[] = {kSize, 128};
  for (cl_mem_migration_flags flags :
       {cl_mem_migration_flags{0}, cl_mem_migration_flags{CL_MIGRATE_MEM_OBJECT_HOST}}) {
    SCOPED_TRACE(flags);
    cl_event event = nullptr;
    ASSERT_EQ(clEnqueueSVMMigrateMem(queue, 2, pointers, sizes, flags, 0, nullptr, &event),
              CL_SUCCESS);
    ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
    EXPECT_EQ(commandType(event), cl_command_type{CL_COMMAND_SVM_MIGRATE_MEM});
    clReleaseEvent(event);
    // sizes == NULL migrates the whole allocations.
    ASSERT_EQ(clEnqueueSVMMigrateMem(queue, 2, pointers, nullptr, flags, 0, nullptr, nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clFinish(queue), CL_SUCCESS);
    EXPECT_EQ(readBack(a, kSize), data);
  }
}

TEST_F(Svm, MigrateMemErrors) {
  std::uint8_t *ptr = alloc(kSize);
  ASSERT_NE(ptr, nullptr);
  const void *pointers[] = {ptr};
  const size_t tooLarge[] = {kSize + 1};
  EXPECT_EQ(clEnqueueSVMMigrateMem(queue, 0, pointers, nullptr, 0, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMigrateMem(queue, 1, nullptr, nullptr, 0, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  // [ptr, ptr + size) must lie within one clSVMAlloc allocation.
  EXPECT_EQ(clEnqueueSVMMigrateMem(queue, 1, pointers, tooLarge, 0, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
}

// ---------------------------------------------------------------------------
// Buffers on SVM

TEST_F(Svm, BufferOnSvmPointerUsesSvmStorage) {
  std::uint8_t *ptr = alloc(kSize);
  ASSERT_NE(ptr, nullptr);
  const Bytes init = pattern(kSize, 5);
  fillFrom(ptr, init);
  cl_int err = CL_INVALID_VALUE;
  cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, kSize, ptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_bool usesSvm = CL_FALSE;
  EXPECT_EQ(clGetMemObjectInfo(mem, CL_MEM_USES_SVM_POINTER, sizeof(usesSvm), &usesSvm, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(usesSvm, cl_bool{CL_TRUE});

  // A sub-buffer of it reports the same.
  const size_t align = deviceInfo<cl_uint>(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;
  cl_buffer_region region{0, std::min(align, kSize)};
  cl_mem sub = clCreateSubBuffer(mem, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  usesSvm = CL_FALSE;
  EXPECT_EQ(clGetMemObjectInfo(sub, CL_MEM_USES_SVM_POINTER, sizeof(usesSvm), &usesSvm, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(usesSvm, cl_bool{CL_TRUE});

  // The buffer's contents are the SVM bytes, and writes to it land there.
  Bytes out(kSize);
  ASSERT_EQ(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, kSize, out.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(out, init);
  const Bytes update = pattern(kSize, 6);
  ASSERT_EQ(clEnqueueWriteBuffer(queue, mem, CL_TRUE, 0, kSize, update.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(readBack(ptr, kSize), update);
  clReleaseMemObject(sub);
  clReleaseMemObject(mem); // before the SVM pointer is freed
}

TEST_F(Svm, BufferOnOrdinaryHostPointerDoesNotUseSvm) {
  Bytes host(kSize);
  cl_int err = CL_INVALID_VALUE;
  cl_mem mem =
      clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, kSize, host.data(), &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_bool usesSvm = CL_TRUE;
  EXPECT_EQ(clGetMemObjectInfo(mem, CL_MEM_USES_SVM_POINTER, sizeof(usesSvm), &usesSvm, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(usesSvm, cl_bool{CL_FALSE});
  clReleaseMemObject(mem);
}

TEST_F(Svm, BufferLargerThanSvmAllocationIsInvalidBufferSize) {
  std::uint8_t *ptr = alloc(kSize);
  ASSERT_NE(ptr, nullptr);
  cl_int err = CL_SUCCESS;
  cl_mem mem =
      clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, 2 * kSize, ptr, &err);
  EXPECT_EQ(err, CL_INVALID_BUFFER_SIZE);
  EXPECT_EQ(mem, nullptr);
  if (mem)
    clReleaseMemObject(mem);
}

} // namespace
} // namespace lanewise::test
