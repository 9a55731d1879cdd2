// SPDX-License-Identifier: Apache-2.0
// Mapping buffers (OpenCL 3.0 API spec, 5.2.3 and 5.5): clEnqueueMapBuffer,
// clEnqueueUnmapMemObject, and clEnqueueMigrateMemObjects.
#include "common.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace lanewise::test {
namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes pattern(size_t size, unsigned seed) {
  Bytes bytes(size);
  for (size_t i = 0; i < size; ++i)
    bytes[i] = static_cast<std::uint8_t>(i * 29 + seed * 43 + 3);
  return bytes;
}

cl_int eventStatus(cl_event event) {
  cl_int status = 1234;
  EXPECT_EQ(
      clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr),
      CL_SUCCESS);
  return status;
}

class Map : public ContextTest {
protected:
  static constexpr size_t kSize = 512;

  Mem buffer(const Bytes &init, cl_mem_flags flags = CL_MEM_READ_WRITE) {
    cl_int err = CL_INVALID_VALUE;
    cl_mem mem = clCreateBuffer(context, flags | CL_MEM_COPY_HOST_PTR, init.size(),
                                const_cast<std::uint8_t *>(init.data()), &err);
    EXPECT_EQ(err, CL_SUCCESS);
    return Mem(mem);
  }
  Bytes contents(cl_mem mem, size_t size) {
    Bytes out(size);
    EXPECT_EQ(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, size, out.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    return out;
  }
  std::uint8_t *map(cl_mem mem, cl_map_flags flags, size_t offset, size_t size,
                    cl_bool blocking = CL_TRUE, cl_event *event = nullptr) {
    cl_int err = CL_INVALID_VALUE;
    void *ptr =
        clEnqueueMapBuffer(queue, mem, blocking, flags, offset, size, 0, nullptr, event, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    EXPECT_NE(ptr, nullptr);
    return static_cast<std::uint8_t *>(ptr);
  }
  cl_int mapError(cl_mem mem, cl_map_flags flags, size_t offset, size_t size) {
    cl_int err = CL_SUCCESS;
    void *ptr =
        clEnqueueMapBuffer(queue, mem, CL_TRUE, flags, offset, size, 0, nullptr, nullptr, &err);
    EXPECT_EQ(ptr, nullptr);
    return err;
  }
  void unmap(cl_mem mem, void *ptr) {
    EXPECT_EQ(clEnqueueUnmapMemObject(queue, mem, ptr, 0, nullptr, nullptr), CL_SUCCESS);
    EXPECT_EQ(clFinish(queue), CL_SUCCESS);
  }
  cl_uint mapCount(cl_mem mem) {
    cl_uint count = 99;
    EXPECT_EQ(clGetMemObjectInfo(mem, CL_MEM_MAP_COUNT, sizeof(count), &count, nullptr),
              CL_SUCCESS);
    return count;
  }
};
using MapErrors = Map;
using MapMigrate = Map;

TEST_F(Map, BlockingReadMapShowsBufferContents) {
  const Bytes data = pattern(kSize, 1);
  Mem mem = buffer(data);
  for (auto [offset, size] : {std::pair<size_t, size_t>{0, kSize}, {16, 64}, {kSize - 1, 1}}) {
    SCOPED_TRACE(offset);
    const std::uint8_t *ptr = map(mem.get(), CL_MAP_READ, offset, size);
    ASSERT_NE(ptr, nullptr);
    EXPECT_EQ(Bytes(ptr, ptr + size), Bytes(data.begin() + offset, data.begin() + offset + size));
    unmap(mem.get(), const_cast<std::uint8_t *>(ptr));
  }
}

TEST_F(Map, NonBlockingReadMapIsUsableOnceComplete) {
  const Bytes data = pattern(kSize, 2);
  Mem mem = buffer(data);
  cl_event event = nullptr;
  const std::uint8_t *ptr = map(mem.get(), CL_MAP_READ, 32, 100, CL_FALSE, &event);
  ASSERT_NE(ptr, nullptr);
  ASSERT_NE(event, nullptr);
  ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
  EXPECT_EQ(eventStatus(event), CL_COMPLETE);
  EXPECT_EQ(Bytes(ptr, ptr + 100), Bytes(data.begin() + 32, data.begin() + 132));
  unmap(mem.get(), const_cast<std::uint8_t *>(ptr));
  clReleaseEvent(event);
}

TEST_F(Map, WritesThroughMappedPointerAreVisibleAfterUnmap) {
  for (cl_map_flags flags :
       {cl_map_flags{CL_MAP_WRITE}, cl_map_flags{CL_MAP_WRITE_INVALIDATE_REGION},
        cl_map_flags{CL_MAP_READ | CL_MAP_WRITE}}) {
    for (cl_bool blocking : {CL_TRUE, CL_FALSE}) {
      SCOPED_TRACE("flags " + std::to_string(flags) + (blocking ? " blocking" : " non-blocking"));
      Bytes expected = pattern(kSize, 3);
      Mem mem = buffer(expected);
      cl_event event = nullptr;
      std::uint8_t *ptr = map(mem.get(), flags, 100, 200, blocking, &event);
      ASSERT_NE(ptr, nullptr);
      ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
      clReleaseEvent(event);
      const Bytes update = pattern(200, 4);
      std::memcpy(ptr, update.data(), update.size());
      std::copy(update.begin(), update.end(), expected.begin() + 100);
      unmap(mem.get(), ptr);
      EXPECT_EQ(contents(mem.get(), kSize), expected);
    }
  }
}

TEST_F(Map, ReadWriteMapSeesLatestBitsAndKeepsEdits) {
  Bytes expected = pattern(kSize, 5);
  Mem mem = buffer(Bytes(kSize, 0));
  ASSERT_EQ(clEnqueueWriteBuffer(queue, mem.get(), CL_FALSE, 0, kSize, expected.data(), 0, nullptr,
                                 nullptr),
            CL_SUCCESS);
  // In-order queue: the map sees the write enqueued before it.
  std::uint8_t *ptr = map(mem.get(), CL_MAP_READ | CL_MAP_WRITE, 0, kSize);
  ASSERT_NE(ptr, nullptr);
  EXPECT_EQ(Bytes(ptr, ptr + kSize), expected);
  for (size_t i = 0; i < kSize; i += 3)
    ptr[i] = expected[i] = static_cast<std::uint8_t>(~expected[i]);
  unmap(mem.get(), ptr);
  EXPECT_EQ(contents(mem.get(), kSize), expected);
}

TEST_F(Map, MapCountFollowsMapsAndUnmaps) {
  Mem mem = buffer(pattern(kSize, 6));
  EXPECT_EQ(mapCount(mem.get()), 0u);
  std::uint8_t *first = map(mem.get(), CL_MAP_READ, 0, 64);
  EXPECT_EQ(mapCount(mem.get()), 1u);
  std::uint8_t *second = map(mem.get(), CL_MAP_READ, 128, 64);
  EXPECT_EQ(mapCount(mem.get()), 2u);
  unmap(mem.get(), first);
  EXPECT_EQ(mapCount(mem.get()), 1u);
  unmap(mem.get(), second);
  EXPECT_EQ(mapCount(mem.get()), 0u);
}

TEST_F(Map, UseHostPtrMapReturnsHostPtrPlusOffset) {
  // The pointer returned is derived from host_ptr, which holds the latest bits.
  // aligned_alloc takes a size that is a multiple of the alignment (C11).
  std::unique_ptr<std::uint8_t, decltype(&std::free)> host(
      static_cast<std::uint8_t *>(std::aligned_alloc(4096, 4096)), &std::free);
  const Bytes data = pattern(kSize, 7);
  std::memcpy(host.get(), data.data(), kSize);
  cl_int err = CL_INVALID_VALUE;
  Mem mem(
      clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, kSize, host.get(), &err));
  ASSERT_EQ(err, CL_SUCCESS);
  const Bytes update = pattern(64, 8);
  ASSERT_EQ(clEnqueueWriteBuffer(queue, mem.get(), CL_TRUE, 256, update.size(), update.data(), 0,
                                 nullptr, nullptr),
            CL_SUCCESS);
  std::uint8_t *ptr = map(mem.get(), CL_MAP_READ, 256, 64);
  EXPECT_EQ(ptr, host.get() + 256);
  EXPECT_EQ(Bytes(host.get() + 256, host.get() + 320), update);
  unmap(mem.get(), ptr);
}

TEST_F(Map, SubBufferMapShowsParentRegion) {
  const size_t align = deviceInfo<cl_uint>(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;
  const Bytes data = pattern(4 * align, 9);
  Mem parent = buffer(data);
  cl_buffer_region region{2 * align, align};
  cl_int err = CL_INVALID_VALUE;
  Mem sub(clCreateSubBuffer(parent.get(), 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  std::uint8_t *ptr = map(sub.get(), CL_MAP_READ, 0, align);
  ASSERT_NE(ptr, nullptr);
  EXPECT_EQ(Bytes(ptr, ptr + align), Bytes(data.begin() + 2 * align, data.begin() + 3 * align));
  unmap(sub.get(), ptr);
}

TEST_F(Map, BlockingMapIsCompleteOnReturn) {
  Mem mem = buffer(pattern(kSize, 10));
  cl_event event = nullptr;
  std::uint8_t *ptr = map(mem.get(), CL_MAP_READ, 0, kSize, CL_TRUE, &event);
  ASSERT_NE(event, nullptr);
  EXPECT_EQ(eventStatus(event), CL_COMPLETE);
  clReleaseEvent(event);
  cl_event unmapEvent = nullptr;
  ASSERT_EQ(clEnqueueUnmapMemObject(queue, mem.get(), ptr, 0, nullptr, &unmapEvent), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &unmapEvent), CL_SUCCESS);
  EXPECT_EQ(eventStatus(unmapEvent), CL_COMPLETE);
  clReleaseEvent(unmapEvent);
}

// ---------------------------------------------------------------------------
// Errors

TEST_F(MapErrors, InvalidMapFlagsAreInvalidValue) {
  // CL_MAP_READ or CL_MAP_WRITE and CL_MAP_WRITE_INVALIDATE_REGION are mutually exclusive.
  Mem mem = buffer(pattern(kSize, 1));
  for (cl_map_flags flags :
       {cl_map_flags{CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION},
        cl_map_flags{CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION},
        cl_map_flags{CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION},
        cl_map_flags{1} << 20}) {
    SCOPED_TRACE(flags);
    EXPECT_EQ(mapError(mem.get(), flags, 0, 64), CL_INVALID_VALUE);
  }
  EXPECT_EQ(mapCount(mem.get()), 0u);
}

TEST_F(MapErrors, OutOfRangeOrEmptyRegionIsInvalidValue) {
  Mem mem = buffer(pattern(kSize, 1));
  const struct {
    size_t offset, size;
  } cases[] = {{0, kSize + 1}, {kSize, 1}, {kSize - 8, 9}, {SIZE_MAX, 2}, {0, 0}, {16, 0}};
  for (auto [offset, size] : cases) {
    SCOPED_TRACE(std::to_string(offset) + "+" + std::to_string(size));
    EXPECT_EQ(mapError(mem.get(), CL_MAP_READ, offset, size), CL_INVALID_VALUE);
  }
}

TEST_F(MapErrors, UnmappingAPointerNotMappedIsInvalidValue) {
  Mem mem = buffer(pattern(kSize, 1)), other = buffer(pattern(kSize, 2));
  Bytes host(kSize);
  EXPECT_EQ(clEnqueueUnmapMemObject(queue, mem.get(), host.data(), 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  // A pointer mapped from another buffer is not valid for this one.
  std::uint8_t *ptr = map(other.get(), CL_MAP_READ, 0, 64);
  EXPECT_EQ(clEnqueueUnmapMemObject(queue, mem.get(), ptr, 0, nullptr, nullptr), CL_INVALID_VALUE);
  unmap(other.get(), ptr);
}

TEST_F(MapErrors, HostAccessFlagsRestrictMapping) {
  const struct {
    cl_mem_flags memFlags;
    cl_map_flags mapFlags;
    cl_int expected;
  } cases[] = {
      {CL_MEM_HOST_NO_ACCESS, CL_MAP_READ, CL_INVALID_OPERATION},
      {CL_MEM_HOST_NO_ACCESS, CL_MAP_WRITE, CL_INVALID_OPERATION},
      {CL_MEM_HOST_NO_ACCESS, CL_MAP_WRITE_INVALIDATE_REGION, CL_INVALID_OPERATION},
      {CL_MEM_HOST_WRITE_ONLY, CL_MAP_READ, CL_INVALID_OPERATION},
      {CL_MEM_HOST_WRITE_ONLY, CL_MAP_READ | CL_MAP_WRITE, CL_INVALID_OPERATION},
      {CL_MEM_HOST_READ_ONLY, CL_MAP_WRITE, CL_INVALID_OPERATION},
      {CL_MEM_HOST_READ_ONLY, CL_MAP_WRITE_INVALIDATE_REGION, CL_INVALID_OPERATION},
      {CL_MEM_HOST_WRITE_ONLY, CL_MAP_WRITE, CL_SUCCESS},
      {CL_MEM_HOST_WRITE_ONLY, CL_MAP_WRITE_INVALIDATE_REGION, CL_SUCCESS},
      {CL_MEM_HOST_READ_ONLY, CL_MAP_READ, CL_SUCCESS},
  };
  for (auto [memFlags, mapFlags, expected] : cases) {
    SCOPED_TRACE("mem flags " + std::to_string(memFlags) + " map flags " +
                 std::to_string(mapFlags));
    Mem mem = buffer(pattern(64, 1), memFlags);
    cl_int err = CL_INVALID_VALUE;
    void *ptr =
        clEnqueueMapBuffer(queue, mem.get(), CL_TRUE, mapFlags, 0, 64, 0, nullptr, nullptr, &err);
    EXPECT_EQ(err, expected);
    EXPECT_EQ(ptr == nullptr, expected != CL_SUCCESS);
    if (ptr)
      unmap(mem.get(), ptr);
  }
}

TEST_F(MapErrors, MalformedEventWaitListIsInvalidEventWaitList) {
  Mem mem = buffer(pattern(kSize, 1));
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(
      clEnqueueMapBuffer(queue, mem.get(), CL_TRUE, CL_MAP_READ, 0, 64, 1, nullptr, nullptr, &err),
      nullptr);
  EXPECT_EQ(err, CL_INVALID_EVENT_WAIT_LIST);
  std::uint8_t *ptr = map(mem.get(), CL_MAP_READ, 0, 64);
  EXPECT_EQ(clEnqueueUnmapMemObject(queue, mem.get(), ptr, 1, nullptr, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
  unmap(mem.get(), ptr);
}

// ---------------------------------------------------------------------------
// clEnqueueMigrateMemObjects

TEST_F(MapMigrate, MigrationKeepsContents) {
  const Bytes data = pattern(kSize, 11);
  Mem a = buffer(data), b = buffer(pattern(kSize, 12));
  cl_mem both[] = {a.get(), b.get()};
  for (cl_mem_migration_flags flags :
       {cl_mem_migration_flags{0}, cl_mem_migration_flags{CL_MIGRATE_MEM_OBJECT_HOST}}) {
    SCOPED_TRACE(flags);
    cl_event event = nullptr;
    ASSERT_EQ(clEnqueueMigrateMemObjects(queue, 2, both, flags, 0, nullptr, &event), CL_SUCCESS);
    ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
    cl_command_type type = 0;
    EXPECT_EQ(clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(type, cl_command_type{CL_COMMAND_MIGRATE_MEM_OBJECTS});
    clReleaseEvent(event);
    EXPECT_EQ(contents(a.get(), kSize), data);
  }
  // CONTENT_UNDEFINED may discard the contents, but must succeed.
  EXPECT_EQ(clEnqueueMigrateMemObjects(queue, 1, both, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0,
                                       nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(clFinish(queue), CL_SUCCESS);
}

TEST_F(MapMigrate, InvalidArgumentsAreRejected) {
  Mem mem = buffer(pattern(kSize, 1));
  cl_mem list[] = {mem.get()};
  EXPECT_EQ(clEnqueueMigrateMemObjects(queue, 0, list, 0, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueMigrateMemObjects(queue, 0, nullptr, 0, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueMigrateMemObjects(queue, 1, nullptr, 0, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueMigrateMemObjects(queue, 1, list, cl_mem_migration_flags{1} << 7, 0, nullptr,
                                       nullptr),
            CL_INVALID_VALUE);
  cl_mem invalid[] = {nullptr};
  EXPECT_EQ(clEnqueueMigrateMemObjects(queue, 1, invalid, 0, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clEnqueueMigrateMemObjects(queue, 1, list, 0, 1, nullptr, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
}

} // namespace
} // namespace lanewise::test
