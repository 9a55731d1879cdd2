// SPDX-License-Identifier: Apache-2.0
// Buffer objects (OpenCL 3.0 API spec, 5.2): creation and flags, sub-buffers,
// clGetMemObjectInfo, destructor callbacks, read / write / copy / fill.
#include "common.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace lanewise::test {
namespace {

using Bytes = std::vector<std::uint8_t>;

struct ReleaseContext {
  void operator()(cl_context ctx) const { clReleaseContext(ctx); }
};
using Context = std::unique_ptr<std::remove_pointer_t<cl_context>, ReleaseContext>;

// A byte pattern that differs per seed; expected values are computed from it
// independently of the implementation.
Bytes pattern(size_t size, unsigned seed) {
  Bytes bytes(size);
  for (size_t i = 0; i < size; ++i)
    bytes[i] = static_cast<std::uint8_t>(i * 31 + seed * 17 + 1);
  return bytes;
}

// Host memory aligned for CL_MEM_USE_HOST_PTR.
struct AlignedBytes {
  explicit AlignedBytes(const Bytes &init)
      : size(init.size()),
        data(static_cast<std::uint8_t *>(std::aligned_alloc(4096, 4096)), &std::free) {
    std::memcpy(data.get(), init.data(), size);
  }
  size_t size;
  std::unique_ptr<std::uint8_t, decltype(&std::free)> data;
  AlignedBytes(const AlignedBytes &) = delete;
};

template <typename Pred>
bool eventually(Pred done, std::chrono::milliseconds limit = std::chrono::seconds(2)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

template <typename T> T memInfo(cl_mem mem, cl_mem_info param) {
  T value{};
  EXPECT_EQ(clGetMemObjectInfo(mem, param, sizeof(T), &value, nullptr), CL_SUCCESS)
      << "param 0x" << std::hex << param;
  return value;
}

std::string flagsName(cl_mem_flags flags) {
  static const std::pair<cl_mem_flags, const char *> names[] = {
      {CL_MEM_READ_WRITE, "READ_WRITE"},
      {CL_MEM_WRITE_ONLY, "WRITE_ONLY"},
      {CL_MEM_READ_ONLY, "READ_ONLY"},
      {CL_MEM_USE_HOST_PTR, "USE_HOST_PTR"},
      {CL_MEM_ALLOC_HOST_PTR, "ALLOC_HOST_PTR"},
      {CL_MEM_COPY_HOST_PTR, "COPY_HOST_PTR"},
      {CL_MEM_HOST_WRITE_ONLY, "HOST_WRITE_ONLY"},
      {CL_MEM_HOST_READ_ONLY, "HOST_READ_ONLY"},
      {CL_MEM_HOST_NO_ACCESS, "HOST_NO_ACCESS"}};
  std::string name;
  for (auto [bit, text] : names)
    if (flags & bit)
      name += (name.empty() ? "" : "_") + std::string(text);
  if (flags & ~cl_mem_flags{0x3ff})
    name += "_UNKNOWN_BIT";
  return name.empty() ? "DEFAULT" : name;
}

bool needsHostPtr(cl_mem_flags flags) {
  return flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
}

class BufferTestBase : public ContextTest {
protected:
  cl_mem rawBuffer(cl_mem_flags flags, size_t size, void *host = nullptr) {
    cl_int err = CL_INVALID_VALUE;
    cl_mem mem = clCreateBuffer(context, flags, size, host, &err);
    EXPECT_EQ(err, CL_SUCCESS) << flagsName(flags);
    EXPECT_NE(mem, nullptr);
    return mem;
  }
  Mem buffer(cl_mem_flags flags, size_t size, void *host = nullptr) {
    return Mem(rawBuffer(flags, size, host));
  }
  Mem buffer(const Bytes &init, cl_mem_flags flags = CL_MEM_READ_WRITE) {
    return buffer(flags | CL_MEM_COPY_HOST_PTR, init.size(),
                  const_cast<std::uint8_t *>(init.data()));
  }
  Mem subBuffer(cl_mem parent, cl_mem_flags flags, size_t origin, size_t size) {
    cl_buffer_region region{origin, size};
    cl_int err = CL_INVALID_VALUE;
    cl_mem sub = clCreateSubBuffer(parent, flags, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    return Mem(sub);
  }
  cl_int createSubBufferError(cl_mem parent, cl_mem_flags flags, size_t origin, size_t size) {
    cl_buffer_region region{origin, size};
    cl_int err = CL_SUCCESS;
    cl_mem sub = clCreateSubBuffer(parent, flags, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    EXPECT_EQ(sub, nullptr);
    if (sub)
      clReleaseMemObject(sub);
    return err;
  }
  Bytes read(cl_mem mem, size_t offset, size_t size) {
    Bytes out(size, 0xCD);
    EXPECT_EQ(
        clEnqueueReadBuffer(queue, mem, CL_TRUE, offset, size, out.data(), 0, nullptr, nullptr),
        CL_SUCCESS);
    return out;
  }
  void write(cl_mem mem, size_t offset, const Bytes &data) {
    ASSERT_EQ(clEnqueueWriteBuffer(queue, mem, CL_TRUE, offset, data.size(), data.data(), 0,
                                   nullptr, nullptr),
              CL_SUCCESS);
  }
  // Contents of any buffer, whatever its host-access flags: clEnqueueCopyBuffer
  // ignores them (spec, clEnqueueCopyBuffer), so copy to a staging buffer.
  Bytes contents(cl_mem mem, size_t size) {
    Mem staging = buffer(CL_MEM_READ_WRITE, size);
    EXPECT_EQ(clEnqueueCopyBuffer(queue, mem, staging.get(), 0, 0, size, 0, nullptr, nullptr),
              CL_SUCCESS);
    return read(staging.get(), 0, size);
  }
  size_t baseAlign() { return deviceInfo<cl_uint>(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8; }
  Context otherContext() {
    cl_int err = CL_INVALID_VALUE;
    cl_context other = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    return Context(other);
  }
};

class Buffer : public BufferTestBase {};
using BufferInfo = Buffer;
using BufferSub = Buffer;
using BufferDestructor = Buffer;
using BufferTransfer = Buffer;
using BufferCopy = Buffer;
using BufferFill = Buffer;

// ---------------------------------------------------------------------------
// Creation: every valid flag combination.

std::vector<cl_mem_flags> validFlagCombinations() {
  const cl_mem_flags access[] = {0, CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY};
  const cl_mem_flags host[] = {0, CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR, CL_MEM_COPY_HOST_PTR,
                               CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR};
  const cl_mem_flags hostAccess[] = {0, CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY,
                                     CL_MEM_HOST_NO_ACCESS};
  std::vector<cl_mem_flags> all;
  for (cl_mem_flags a : access)
    for (cl_mem_flags h : host)
      for (cl_mem_flags ha : hostAccess)
        all.push_back(a | h | ha);
  return all;
}

class BufferFlags : public BufferTestBase, public ::testing::WithParamInterface<cl_mem_flags> {};

TEST_P(BufferFlags, CreatesBufferWithRightContentsAndInfo) {
  const cl_mem_flags flags = GetParam();
  constexpr size_t size = 256;
  const Bytes init = pattern(size, 3);
  AlignedBytes host(init);
  void *hostPtr = needsHostPtr(flags) ? host.data.get() : nullptr;

  Mem mem = buffer(flags, size, hostPtr);
  ASSERT_NE(mem, nullptr);
  EXPECT_EQ(memInfo<size_t>(mem.get(), CL_MEM_SIZE), size);
  EXPECT_EQ(memInfo<void *>(mem.get(), CL_MEM_HOST_PTR),
            (flags & CL_MEM_USE_HOST_PTR) ? hostPtr : nullptr);

  if (flags & CL_MEM_COPY_HOST_PTR) {
    // COPY_HOST_PTR copies at creation: host_ptr may be reused right away.
    std::memset(host.data.get(), 0, size);
    EXPECT_EQ(contents(mem.get(), size), init);
  } else if (flags & CL_MEM_USE_HOST_PTR) {
    EXPECT_EQ(contents(mem.get(), size), init);
  }

  // USE_HOST_PTR: the mapped pointer is derived from host_ptr (host_ptr + offset).
  if ((flags & CL_MEM_USE_HOST_PTR) && !(flags & CL_MEM_HOST_NO_ACCESS)) {
    const cl_map_flags mapFlags = (flags & CL_MEM_HOST_WRITE_ONLY) ? CL_MAP_WRITE : CL_MAP_READ;
    cl_int err = CL_INVALID_VALUE;
    void *mapped =
        clEnqueueMapBuffer(queue, mem.get(), CL_TRUE, mapFlags, 64, 32, 0, nullptr, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    EXPECT_EQ(mapped, host.data.get() + 64);
    EXPECT_EQ(clEnqueueUnmapMemObject(queue, mem.get(), mapped, 0, nullptr, nullptr), CL_SUCCESS);
    EXPECT_EQ(clFinish(queue), CL_SUCCESS);
  }

  // Host writes are allowed unless HOST_READ_ONLY / HOST_NO_ACCESS.
  if (!(flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS))) {
    const Bytes update = pattern(40, 9);
    write(mem.get(), 8, update);
    Bytes expected = (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) ? init : Bytes{};
    if (!expected.empty()) {
      std::copy(update.begin(), update.end(), expected.begin() + 8);
      EXPECT_EQ(contents(mem.get(), size), expected);
    } else {
      Bytes got = contents(mem.get(), size);
      EXPECT_EQ(Bytes(got.begin() + 8, got.begin() + 48), update);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Buffer, BufferFlags, ::testing::ValuesIn(validFlagCombinations()),
                         [](const auto &info) { return flagsName(info.param); });

TEST_F(Buffer, ConflictingFlagsAreInvalidValue) {
  // Memory flags table: the access flags, USE/ALLOC, USE/COPY and the host
  // access flags are mutually exclusive; undefined bits are not valid.
  const cl_mem_flags conflicts[] = {
      CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY,
      CL_MEM_READ_WRITE | CL_MEM_READ_ONLY,
      CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY,
      CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY,
      CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR,
      CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR,
      CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR,
      CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY,
      CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS,
      CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS,
      CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY | CL_MEM_COPY_HOST_PTR | CL_MEM_HOST_READ_ONLY,
      cl_mem_flags{1} << 40,
  };
  Bytes host = pattern(64, 1);
  for (cl_mem_flags flags : conflicts) {
    SCOPED_TRACE(flagsName(flags));
    cl_int err = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(context, flags, host.size(),
                                needsHostPtr(flags) ? host.data() : nullptr, &err);
    EXPECT_EQ(err, CL_INVALID_VALUE);
    EXPECT_EQ(mem, nullptr);
    if (mem)
      clReleaseMemObject(mem);
  }
}

TEST_F(Buffer, HostPtrMismatchIsInvalidHostPtr) {
  Bytes host = pattern(64, 1);
  const struct {
    cl_mem_flags flags;
    void *ptr;
  } cases[] = {
      {CL_MEM_USE_HOST_PTR, nullptr},
      {CL_MEM_COPY_HOST_PTR, nullptr},
      {CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR, nullptr},
      {0, host.data()},
      {CL_MEM_READ_WRITE, host.data()},
      {CL_MEM_ALLOC_HOST_PTR, host.data()},
  };
  for (auto [flags, ptr] : cases) {
    SCOPED_TRACE(flagsName(flags) + (ptr ? " with host_ptr" : " without host_ptr"));
    cl_int err = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(context, flags, host.size(), ptr, &err);
    EXPECT_EQ(err, CL_INVALID_HOST_PTR);
    EXPECT_EQ(mem, nullptr);
  }
}

TEST_F(Buffer, ZeroOrTooLargeSizeIsInvalidBufferSize) {
  const cl_ulong maxAlloc = deviceInfo<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  for (cl_ulong size : {cl_ulong{0}, maxAlloc + 1}) {
    SCOPED_TRACE(size);
    cl_int err = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE, size, nullptr, &err);
    EXPECT_EQ(err, CL_INVALID_BUFFER_SIZE);
    EXPECT_EQ(mem, nullptr);
    err = CL_SUCCESS;
    mem = clCreateBufferWithProperties(context, nullptr, CL_MEM_READ_WRITE, size, nullptr, &err);
    EXPECT_EQ(err, CL_INVALID_BUFFER_SIZE);
    EXPECT_EQ(mem, nullptr);
  }
}

TEST_F(Buffer, InvalidContextIsInvalidContext) {
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateBuffer(nullptr, CL_MEM_READ_WRITE, 64, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  err = CL_SUCCESS;
  EXPECT_EQ(clCreateBufferWithProperties(nullptr, nullptr, CL_MEM_READ_WRITE, 64, nullptr, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
}

TEST_F(Buffer, ErrcodeRetMayBeNull) {
  Mem mem(clCreateBuffer(context, CL_MEM_READ_WRITE, 64, nullptr, nullptr));
  EXPECT_NE(mem, nullptr);
  EXPECT_EQ(clCreateBuffer(context, CL_MEM_READ_WRITE, 0, nullptr, nullptr), nullptr);
}

TEST_F(Buffer, WithPropertiesAcceptsNullAndEmptyLists) {
  const Bytes init = pattern(128, 4);
  const cl_mem_properties empty[] = {0};
  for (const cl_mem_properties *props : {static_cast<const cl_mem_properties *>(nullptr), empty}) {
    SCOPED_TRACE(props ? "{0}" : "NULL");
    cl_int err = CL_INVALID_VALUE;
    Mem mem(clCreateBufferWithProperties(context, props, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                         init.size(), const_cast<std::uint8_t *>(init.data()),
                                         &err));
    ASSERT_EQ(err, CL_SUCCESS);
    EXPECT_EQ(read(mem.get(), 0, init.size()), init);
    EXPECT_EQ(memInfo<cl_mem_flags>(mem.get(), CL_MEM_FLAGS),
              CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);

    // CL_MEM_PROPERTIES returns the list as given (terminator included), or
    // size 0 if the list was NULL.
    size_t sizeRet = 12345;
    ASSERT_EQ(clGetMemObjectInfo(mem.get(), CL_MEM_PROPERTIES, 0, nullptr, &sizeRet), CL_SUCCESS);
    if (!props) {
      EXPECT_EQ(sizeRet, 0u);
    } else {
      ASSERT_EQ(sizeRet, sizeof(cl_mem_properties));
      cl_mem_properties got = 99;
      EXPECT_EQ(clGetMemObjectInfo(mem.get(), CL_MEM_PROPERTIES, sizeof(got), &got, nullptr),
                CL_SUCCESS);
      EXPECT_EQ(got, 0u);
    }
  }
}

TEST_F(Buffer, WithPropertiesRejectsUnknownProperty) {
  // OpenCL 3.0 defines no buffer properties; an unknown name is CL_INVALID_PROPERTY.
  const cl_mem_properties props[] = {0x7F3C, 1, 0};
  cl_int err = CL_SUCCESS;
  cl_mem mem = clCreateBufferWithProperties(context, props, CL_MEM_READ_WRITE, 64, nullptr, &err);
  EXPECT_EQ(err, CL_INVALID_PROPERTY);
  EXPECT_EQ(mem, nullptr);
}

TEST_F(Buffer, PlainCreateBufferReportsNoProperties) {
  Mem mem = buffer(CL_MEM_READ_WRITE, 64);
  size_t sizeRet = 12345;
  EXPECT_EQ(clGetMemObjectInfo(mem.get(), CL_MEM_PROPERTIES, 0, nullptr, &sizeRet), CL_SUCCESS);
  EXPECT_EQ(sizeRet, 0u);
}

// ---------------------------------------------------------------------------
// clGetMemObjectInfo

TEST_F(BufferInfo, FlagsQueryReturnsTheFlagsArgument) {
  // CL_MEM_FLAGS: "the flags argument value specified when memobj is created"
  // (nothing added, e.g. no implied CL_MEM_READ_WRITE).
  Bytes host = pattern(64, 1);
  for (cl_mem_flags flags : validFlagCombinations()) {
    SCOPED_TRACE(flagsName(flags));
    Mem mem = buffer(flags, host.size(), needsHostPtr(flags) ? host.data() : nullptr);
    EXPECT_EQ(memInfo<cl_mem_flags>(mem.get(), CL_MEM_FLAGS), flags);
  }
}

TEST_F(BufferInfo, ReportsEveryQueryForAPlainBuffer) {
  Mem mem = buffer(CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_ALLOC_HOST_PTR, 200);
  EXPECT_EQ(memInfo<cl_mem_object_type>(mem.get(), CL_MEM_TYPE),
            cl_mem_object_type{CL_MEM_OBJECT_BUFFER});
  EXPECT_EQ(memInfo<cl_mem_flags>(mem.get(), CL_MEM_FLAGS),
            CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_ALLOC_HOST_PTR);
  EXPECT_EQ(memInfo<size_t>(mem.get(), CL_MEM_SIZE), 200u);
  EXPECT_EQ(memInfo<void *>(mem.get(), CL_MEM_HOST_PTR), nullptr);
  EXPECT_EQ(memInfo<cl_uint>(mem.get(), CL_MEM_MAP_COUNT), 0u);
  EXPECT_EQ(memInfo<cl_context>(mem.get(), CL_MEM_CONTEXT), context);
  EXPECT_EQ(memInfo<cl_mem>(mem.get(), CL_MEM_ASSOCIATED_MEMOBJECT), nullptr);
  EXPECT_EQ(memInfo<size_t>(mem.get(), CL_MEM_OFFSET), 0u);
  EXPECT_EQ(memInfo<cl_bool>(mem.get(), CL_MEM_USES_SVM_POINTER), cl_bool{CL_FALSE});
}

TEST_F(BufferInfo, ReferenceCountFollowsRetainAndRelease) {
  Mem mem = buffer(CL_MEM_READ_WRITE, 64);
  const cl_uint initial = memInfo<cl_uint>(mem.get(), CL_MEM_REFERENCE_COUNT);
  EXPECT_EQ(initial, 1u); // the implicit retain of clCreateBuffer
  ASSERT_EQ(clRetainMemObject(mem.get()), CL_SUCCESS);
  EXPECT_EQ(memInfo<cl_uint>(mem.get(), CL_MEM_REFERENCE_COUNT), initial + 1);
  ASSERT_EQ(clReleaseMemObject(mem.get()), CL_SUCCESS);
  EXPECT_EQ(memInfo<cl_uint>(mem.get(), CL_MEM_REFERENCE_COUNT), initial);
}

TEST_F(BufferInfo, SizeProtocolAndUnknownParam) {
  Mem mem = buffer(CL_MEM_READ_WRITE, 64);
  const struct {
    cl_mem_info param;
    size_t size;
  } queries[] = {
      {CL_MEM_TYPE, sizeof(cl_mem_object_type)},
      {CL_MEM_FLAGS, sizeof(cl_mem_flags)},
      {CL_MEM_SIZE, sizeof(size_t)},
      {CL_MEM_HOST_PTR, sizeof(void *)},
      {CL_MEM_MAP_COUNT, sizeof(cl_uint)},
      {CL_MEM_REFERENCE_COUNT, sizeof(cl_uint)},
      {CL_MEM_CONTEXT, sizeof(cl_context)},
      {CL_MEM_ASSOCIATED_MEMOBJECT, sizeof(cl_mem)},
      {CL_MEM_OFFSET, sizeof(size_t)},
      {CL_MEM_USES_SVM_POINTER, sizeof(cl_bool)},
  };
  for (auto [param, size] : queries) {
    SCOPED_TRACE(param);
    size_t sizeRet = 0;
    EXPECT_EQ(clGetMemObjectInfo(mem.get(), param, 0, nullptr, &sizeRet), CL_SUCCESS);
    EXPECT_EQ(sizeRet, size);
    // A too small buffer with non-NULL param_value is CL_INVALID_VALUE.
    std::uint8_t small[16] = {};
    EXPECT_EQ(clGetMemObjectInfo(mem.get(), param, size - 1, small, nullptr), CL_INVALID_VALUE);
    // A larger buffer is fine.
    std::uint8_t large[32] = {};
    EXPECT_EQ(clGetMemObjectInfo(mem.get(), param, sizeof(large), large, &sizeRet), CL_SUCCESS);
    EXPECT_EQ(sizeRet, size);
  }
  size_t sizeRet = 0;
  EXPECT_EQ(clGetMemObjectInfo(mem.get(), 0x7FFF, 0, nullptr, &sizeRet), CL_INVALID_VALUE);
  EXPECT_EQ(clGetMemObjectInfo(nullptr, CL_MEM_SIZE, 0, nullptr, &sizeRet), CL_INVALID_MEM_OBJECT);
}

// ---------------------------------------------------------------------------
// Sub-buffers

TEST_F(BufferSub, RegionReportsParentOffsetAndSize) {
  const size_t align = baseAlign();
  ASSERT_GT(align, 0u);
  Mem parent = buffer(CL_MEM_READ_WRITE, 4 * align);
  Mem sub = subBuffer(parent.get(), 0, align, 2 * align);
  ASSERT_NE(sub, nullptr);
  EXPECT_EQ(memInfo<cl_mem_object_type>(sub.get(), CL_MEM_TYPE),
            cl_mem_object_type{CL_MEM_OBJECT_BUFFER});
  EXPECT_EQ(memInfo<size_t>(sub.get(), CL_MEM_SIZE), 2 * align);
  EXPECT_EQ(memInfo<size_t>(sub.get(), CL_MEM_OFFSET), align);
  EXPECT_EQ(memInfo<cl_mem>(sub.get(), CL_MEM_ASSOCIATED_MEMOBJECT), parent.get());
  EXPECT_EQ(memInfo<cl_context>(sub.get(), CL_MEM_CONTEXT), context);
  EXPECT_EQ(memInfo<void *>(sub.get(), CL_MEM_HOST_PTR), nullptr);
  size_t sizeRet = 1;
  EXPECT_EQ(clGetMemObjectInfo(sub.get(), CL_MEM_PROPERTIES, 0, nullptr, &sizeRet), CL_SUCCESS);
  EXPECT_EQ(sizeRet, 0u);
}

TEST_F(BufferSub, DataAliasesParent) {
  const size_t align = baseAlign();
  const size_t size = 4 * align;
  Bytes expected = pattern(size, 5);
  Mem parent = buffer(expected);
  Mem sub = subBuffer(parent.get(), 0, 2 * align, align);
  ASSERT_NE(sub, nullptr);

  // The sub-buffer sees the parent's bytes at its origin.
  EXPECT_EQ(read(sub.get(), 0, align),
            Bytes(expected.begin() + 2 * align, expected.begin() + 3 * align));

  // Writes through the sub-buffer land in the parent.
  const Bytes update = pattern(align / 2, 8);
  write(sub.get(), align / 4, update);
  std::copy(update.begin(), update.end(), expected.begin() + 2 * align + align / 4);
  EXPECT_EQ(read(parent.get(), 0, size), expected);

  // And writes to the parent are seen through the sub-buffer.
  const Bytes update2 = pattern(align, 11);
  write(parent.get(), 2 * align, update2);
  EXPECT_EQ(read(sub.get(), 0, align), update2);
}

TEST_F(BufferSub, UseHostPtrParentGivesHostPtrPlusOrigin) {
  const size_t align = baseAlign();
  AlignedBytes host(pattern(std::min<size_t>(4 * align, 4096), 2));
  Mem parent = buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, host.size, host.data.get());
  Mem sub = subBuffer(parent.get(), 0, align, align);
  ASSERT_NE(sub, nullptr);
  EXPECT_EQ(memInfo<void *>(sub.get(), CL_MEM_HOST_PTR), host.data.get() + align);
  EXPECT_EQ(read(sub.get(), 0, align), Bytes(host.data.get() + align, host.data.get() + 2 * align));
}

TEST_F(BufferSub, InheritsParentFlags) {
  // Access, host-pointer and host-access qualifiers not given are inherited
  // and reported by CL_MEM_FLAGS.
  const size_t align = baseAlign();
  AlignedBytes host(pattern(std::min<size_t>(2 * align, 4096), 2));
  const cl_mem_flags parentFlags = CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR | CL_MEM_HOST_READ_ONLY;
  Mem parent = buffer(parentFlags, host.size, host.data.get());
  Mem sub = subBuffer(parent.get(), 0, 0, align);
  ASSERT_NE(sub, nullptr);
  EXPECT_EQ(memInfo<cl_mem_flags>(sub.get(), CL_MEM_FLAGS), parentFlags);
  // Inherited HOST_READ_ONLY forbids host writes through the sub-buffer.
  Bytes data(16);
  EXPECT_EQ(clEnqueueWriteBuffer(queue, sub.get(), CL_TRUE, 0, data.size(), data.data(), 0, nullptr,
                                 nullptr),
            CL_INVALID_OPERATION);
}

TEST_F(BufferSub, CompatibleFlagsAreAcceptedAndReported) {
  // CL_MEM_FLAGS of a sub-buffer: its own flags plus what it inherits (access
  // and host-access qualifiers it does not give, and the host-pointer flags).
  const size_t align = baseAlign();
  const struct {
    cl_mem_flags parent, sub, reported;
  } cases[] = {
      {CL_MEM_READ_WRITE, CL_MEM_READ_ONLY, CL_MEM_READ_ONLY},
      {CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY, CL_MEM_WRITE_ONLY},
      {CL_MEM_READ_WRITE, CL_MEM_HOST_NO_ACCESS, CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS},
      {CL_MEM_READ_ONLY | CL_MEM_ALLOC_HOST_PTR, CL_MEM_READ_ONLY,
       CL_MEM_READ_ONLY | CL_MEM_ALLOC_HOST_PTR},
      {CL_MEM_READ_WRITE | CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_READ_ONLY,
       CL_MEM_READ_WRITE | CL_MEM_HOST_READ_ONLY},
      {CL_MEM_WRITE_ONLY | CL_MEM_ALLOC_HOST_PTR | CL_MEM_HOST_WRITE_ONLY, 0,
       CL_MEM_WRITE_ONLY | CL_MEM_ALLOC_HOST_PTR | CL_MEM_HOST_WRITE_ONLY},
      {CL_MEM_READ_WRITE | CL_MEM_HOST_WRITE_ONLY, CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS,
       CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS},
  };
  for (auto [parentFlags, subFlags, reported] : cases) {
    SCOPED_TRACE(flagsName(parentFlags) + " -> " + flagsName(subFlags));
    Mem parent = buffer(parentFlags, 2 * align);
    Mem sub = subBuffer(parent.get(), subFlags, 0, align);
    ASSERT_NE(sub, nullptr);
    EXPECT_EQ(memInfo<cl_mem_flags>(sub.get(), CL_MEM_FLAGS), reported);
  }
}

TEST_F(BufferSub, ConflictingFlagsAreInvalidValue) {
  const size_t align = baseAlign();
  const struct {
    cl_mem_flags parent, sub;
  } cases[] = {
      {CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE},
      {CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY},
      {CL_MEM_READ_ONLY, CL_MEM_READ_WRITE},
      {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY},
      {CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY},
      {CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_WRITE_ONLY},
      {CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_READ_ONLY},
      {CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_WRITE_ONLY},
      {CL_MEM_READ_WRITE, CL_MEM_USE_HOST_PTR},
      {CL_MEM_READ_WRITE, CL_MEM_ALLOC_HOST_PTR},
      {CL_MEM_READ_WRITE, CL_MEM_COPY_HOST_PTR},
  };
  for (auto [parentFlags, subFlags] : cases) {
    SCOPED_TRACE(flagsName(parentFlags) + " -> " + flagsName(subFlags));
    Mem parent = buffer(parentFlags, 2 * align);
    EXPECT_EQ(createSubBufferError(parent.get(), subFlags, 0, align), CL_INVALID_VALUE);
  }
}

TEST_F(BufferSub, MisalignedOriginIsMisalignedSubBufferOffset) {
  // CL_DEVICE_MEM_BASE_ADDR_ALIGN is in bits; origin is in bytes.
  const size_t align = baseAlign();
  if (align <= 1)
    GTEST_SKIP() << "every byte offset is aligned";
  Mem parent = buffer(CL_MEM_READ_WRITE, 4 * align);
  for (size_t origin : {size_t{1}, align / 2, align + 1, 3 * align - 1}) {
    SCOPED_TRACE(origin);
    EXPECT_EQ(createSubBufferError(parent.get(), 0, origin, 8), CL_MISALIGNED_SUB_BUFFER_OFFSET);
  }
  // Multiples of the alignment (in bytes) are fine.
  for (size_t origin : {size_t{0}, align, 3 * align}) {
    SCOPED_TRACE(origin);
    EXPECT_NE(subBuffer(parent.get(), 0, origin, align), nullptr);
  }
}

TEST_F(BufferSub, OutOfBoundsRegionIsInvalidValue) {
  const size_t align = baseAlign();
  const size_t size = 4 * align;
  Mem parent = buffer(CL_MEM_READ_WRITE, size);
  const size_t wrapOrigin = SIZE_MAX - SIZE_MAX % align; // aligned, origin+size wraps
  const struct {
    size_t origin, size;
  } cases[] = {
      {0, size + 1}, {align, size}, {3 * align, align + 1}, {size, align}, {wrapOrigin, 2 * align}};
  for (auto [origin, length] : cases) {
    SCOPED_TRACE(std::to_string(origin) + "+" + std::to_string(length));
    EXPECT_EQ(createSubBufferError(parent.get(), 0, origin, length), CL_INVALID_VALUE);
  }
  EXPECT_NE(subBuffer(parent.get(), 0, 3 * align, align), nullptr); // exactly up to the end
}

TEST_F(BufferSub, ZeroSizeIsInvalidBufferSize) {
  Mem parent = buffer(CL_MEM_READ_WRITE, 4 * baseAlign());
  EXPECT_EQ(createSubBufferError(parent.get(), 0, 0, 0), CL_INVALID_BUFFER_SIZE);
}

TEST_F(BufferSub, SubBufferOfSubBufferIsInvalidMemObject) {
  const size_t align = baseAlign();
  Mem parent = buffer(CL_MEM_READ_WRITE, 4 * align);
  Mem sub = subBuffer(parent.get(), 0, 0, 2 * align);
  ASSERT_NE(sub, nullptr);
  EXPECT_EQ(createSubBufferError(sub.get(), 0, 0, align), CL_INVALID_MEM_OBJECT);
}

TEST_F(BufferSub, BadCreateTypeOrInfoIsInvalidValue) {
  const size_t align = baseAlign();
  Mem parent = buffer(CL_MEM_READ_WRITE, 4 * align);
  cl_buffer_region region{0, align};
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateSubBuffer(parent.get(), 0, 0x7777, &region, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  err = CL_SUCCESS;
  EXPECT_EQ(clCreateSubBuffer(parent.get(), 0, CL_BUFFER_CREATE_TYPE_REGION, nullptr, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
}

// ---------------------------------------------------------------------------
// Destructor callbacks

struct DestructionLog {
  std::mutex mutex;
  std::vector<int> order;
  std::vector<cl_mem> objects;
  size_t count() {
    std::lock_guard lock(mutex);
    return order.size();
  }
};
struct DestructorTag {
  DestructionLog *log;
  int id;
};
void CL_CALLBACK recordDestruction(cl_mem mem, void *user) {
  auto *tag = static_cast<DestructorTag *>(user);
  std::lock_guard lock(tag->log->mutex);
  tag->log->order.push_back(tag->id);
  tag->log->objects.push_back(mem);
}

TEST_F(BufferDestructor, CallbacksRunInReverseOrderOnDestruction) {
  DestructionLog log;
  DestructorTag tags[] = {{&log, 1}, {&log, 2}, {&log, 3}};
  cl_mem mem = rawBuffer(CL_MEM_READ_WRITE, 64);
  for (auto &tag : tags)
    ASSERT_EQ(clSetMemObjectDestructorCallback(mem, recordDestruction, &tag), CL_SUCCESS);

  ASSERT_EQ(clRetainMemObject(mem), CL_SUCCESS);
  ASSERT_EQ(clReleaseMemObject(mem), CL_SUCCESS); // still referenced once
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(log.count(), 0u) << "destructor ran while the buffer was still referenced";

  ASSERT_EQ(clReleaseMemObject(mem), CL_SUCCESS);
  ASSERT_TRUE(eventually([&] { return log.count() == 3; }));
  EXPECT_EQ(log.order, (std::vector<int>{3, 2, 1}));
  EXPECT_EQ(log.objects, (std::vector<cl_mem>{mem, mem, mem}));
}

// A kernel argument is not a reference (OpenCL 3.0, 5.5.5: the object is
// deleted once its count is zero and the commands using it have finished);
// the CTS's retain_mem_object_set_kernel_arg waits for this callback. A
// launch with the deleted buffer fails instead of touching freed memory.
TEST_F(BufferDestructor, KernelArgumentDoesNotKeepAReleasedBufferAlive) {
  const char *source = "kernel void k(global int *p) { p[get_global_id(0)] = 1; }";
  cl_int error = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  ASSERT_EQ(clBuildProgram(program, 1, &device, "", nullptr, nullptr), CL_SUCCESS);
  cl_kernel kernel = clCreateKernel(program, "k", &error);
  ASSERT_EQ(error, CL_SUCCESS);

  DestructionLog log;
  DestructorTag tag{&log, 1};
  cl_mem mem = rawBuffer(CL_MEM_READ_WRITE, 64);
  ASSERT_EQ(clSetMemObjectDestructorCallback(mem, recordDestruction, &tag), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof mem, &mem), CL_SUCCESS);
  ASSERT_EQ(clReleaseMemObject(mem), CL_SUCCESS);
  EXPECT_TRUE(eventually([&] { return log.count() == 1; }))
      << "the buffer was not deleted while only a kernel argument named it";

  if (testingLanewise()) {
    const size_t global = 4;
    EXPECT_EQ(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr,
                                     nullptr),
              CL_INVALID_KERNEL_ARGS);
  }
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

TEST_F(BufferDestructor, NullCallbackIsInvalidValue) {
  Mem mem = buffer(CL_MEM_READ_WRITE, 64);
  EXPECT_EQ(clSetMemObjectDestructorCallback(mem.get(), nullptr, nullptr), CL_INVALID_VALUE);
}

TEST_F(BufferDestructor, SubBufferKeepsParentAlive) {
  // A buffer cannot be deleted until all its sub-buffers are deleted.
  const size_t align = baseAlign();
  DestructionLog log;
  DestructorTag parentTag{&log, 1}, subTag{&log, 2};
  cl_mem parent = rawBuffer(CL_MEM_READ_WRITE, 2 * align);
  cl_buffer_region region{align, align};
  cl_int err = CL_INVALID_VALUE;
  cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  ASSERT_EQ(clSetMemObjectDestructorCallback(parent, recordDestruction, &parentTag), CL_SUCCESS);
  ASSERT_EQ(clSetMemObjectDestructorCallback(sub, recordDestruction, &subTag), CL_SUCCESS);

  ASSERT_EQ(clReleaseMemObject(parent), CL_SUCCESS);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(log.count(), 0u) << "parent destroyed while its sub-buffer lives";
  // The sub-buffer still works on the parent's storage.
  const Bytes data = pattern(align, 6);
  write(sub, 0, data);
  EXPECT_EQ(read(sub, 0, align), data);

  ASSERT_EQ(clReleaseMemObject(sub), CL_SUCCESS);
  ASSERT_TRUE(eventually([&] { return log.count() == 2; }));
  EXPECT_EQ(log.order, (std::vector<int>{2, 1}));
}

// ---------------------------------------------------------------------------
// Read / write

TEST_F(BufferTransfer, WriteThenReadRoundTrips) {
  const Bytes data = pattern(1000, 1);
  Mem mem = buffer(CL_MEM_READ_WRITE, data.size());
  write(mem.get(), 0, data);
  EXPECT_EQ(read(mem.get(), 0, data.size()), data);
}

TEST_F(BufferTransfer, OffsetsSelectTheRightBytes) {
  Bytes expected(512, 0);
  Mem mem = buffer(expected);
  const struct {
    size_t offset, size;
  } writes[] = {{0, 1}, {17, 50}, {100, 128}, {511, 1}, {300, 200}};
  unsigned seed = 1;
  for (auto [offset, size] : writes) {
    const Bytes data = pattern(size, seed++);
    write(mem.get(), offset, data);
    std::copy(data.begin(), data.end(), expected.begin() + offset);
  }
  EXPECT_EQ(read(mem.get(), 0, expected.size()), expected);
  for (auto [offset, size] : writes) {
    SCOPED_TRACE(offset);
    EXPECT_EQ(read(mem.get(), offset, size),
              Bytes(expected.begin() + offset, expected.begin() + offset + size));
  }
}

TEST_F(BufferTransfer, NonBlockingTransfersCompleteByFinish) {
  const Bytes data = pattern(4096, 2);
  Mem mem = buffer(CL_MEM_READ_WRITE, data.size());
  Bytes out(data.size(), 0);
  ASSERT_EQ(clEnqueueWriteBuffer(queue, mem.get(), CL_FALSE, 0, data.size(), data.data(), 0,
                                 nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(queue, mem.get(), CL_FALSE, 0, out.size(), out.data(), 0, nullptr,
                                nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  EXPECT_EQ(out, data);
}

TEST_F(BufferTransfer, OutOfBoundsOrNullPointerIsInvalidValue) {
  constexpr size_t size = 256;
  Mem mem = buffer(CL_MEM_READ_WRITE, size);
  Bytes host(2 * size);
  const struct {
    size_t offset, size;
  } cases[] = {{0, size + 1}, {size, 1}, {size - 1, 2}, {1, size}, {SIZE_MAX, 2}, {2, SIZE_MAX}};
  for (auto [offset, length] : cases) {
    SCOPED_TRACE(std::to_string(offset) + "+" + std::to_string(length));
    EXPECT_EQ(clEnqueueReadBuffer(queue, mem.get(), CL_TRUE, offset, length, host.data(), 0,
                                  nullptr, nullptr),
              CL_INVALID_VALUE);
    EXPECT_EQ(clEnqueueWriteBuffer(queue, mem.get(), CL_TRUE, offset, length, host.data(), 0,
                                   nullptr, nullptr),
              CL_INVALID_VALUE);
  }
  EXPECT_EQ(clEnqueueReadBuffer(queue, mem.get(), CL_TRUE, 0, 16, nullptr, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueWriteBuffer(queue, mem.get(), CL_TRUE, 0, 16, nullptr, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
}

TEST_F(BufferTransfer, HostAccessFlagsRestrictReadAndWrite) {
  const struct {
    cl_mem_flags flags;
    cl_int read, write;
  } cases[] = {
      {CL_MEM_HOST_WRITE_ONLY, CL_INVALID_OPERATION, CL_SUCCESS},
      {CL_MEM_HOST_READ_ONLY, CL_SUCCESS, CL_INVALID_OPERATION},
      {CL_MEM_HOST_NO_ACCESS, CL_INVALID_OPERATION, CL_INVALID_OPERATION},
  };
  Bytes host(64);
  for (auto [flags, readResult, writeResult] : cases) {
    SCOPED_TRACE(flagsName(flags));
    Mem mem = buffer(flags, host.size());
    EXPECT_EQ(clEnqueueReadBuffer(queue, mem.get(), CL_TRUE, 0, host.size(), host.data(), 0,
                                  nullptr, nullptr),
              readResult);
    EXPECT_EQ(clEnqueueWriteBuffer(queue, mem.get(), CL_TRUE, 0, host.size(), host.data(), 0,
                                   nullptr, nullptr),
              writeResult);
  }
}

TEST_F(BufferTransfer, BufferFromAnotherContextIsInvalidContext) {
  Context other = otherContext();
  cl_int err = CL_INVALID_VALUE;
  Mem foreign(clCreateBuffer(other.get(), CL_MEM_READ_WRITE, 64, nullptr, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  Mem local = buffer(CL_MEM_READ_WRITE, 64);
  Bytes host(64);
  const cl_uint zero = 0;
  EXPECT_EQ(
      clEnqueueReadBuffer(queue, foreign.get(), CL_TRUE, 0, 64, host.data(), 0, nullptr, nullptr),
      CL_INVALID_CONTEXT);
  EXPECT_EQ(
      clEnqueueWriteBuffer(queue, foreign.get(), CL_TRUE, 0, 64, host.data(), 0, nullptr, nullptr),
      CL_INVALID_CONTEXT);
  EXPECT_EQ(clEnqueueCopyBuffer(queue, foreign.get(), local.get(), 0, 0, 64, 0, nullptr, nullptr),
            CL_INVALID_CONTEXT);
  EXPECT_EQ(clEnqueueCopyBuffer(queue, local.get(), foreign.get(), 0, 0, 64, 0, nullptr, nullptr),
            CL_INVALID_CONTEXT);
  EXPECT_EQ(
      clEnqueueFillBuffer(queue, foreign.get(), &zero, sizeof(zero), 0, 64, 0, nullptr, nullptr),
      CL_INVALID_CONTEXT);
}

TEST_F(BufferTransfer, MalformedEventWaitListIsInvalidEventWaitList) {
  Mem a = buffer(CL_MEM_READ_WRITE, 64), b = buffer(CL_MEM_READ_WRITE, 64);
  Bytes host(64);
  const cl_uint value = 7;
  cl_int err = CL_INVALID_VALUE;
  cl_event done = clCreateUserEvent(context, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(done, CL_COMPLETE), CL_SUCCESS);

  const std::pair<const char *, std::function<cl_int(cl_uint, const cl_event *)>> commands[] = {
      {"read",
       [&](cl_uint n, const cl_event *l) {
         return clEnqueueReadBuffer(queue, a.get(), CL_TRUE, 0, 64, host.data(), n, l, nullptr);
       }},
      {"write",
       [&](cl_uint n, const cl_event *l) {
         return clEnqueueWriteBuffer(queue, a.get(), CL_TRUE, 0, 64, host.data(), n, l, nullptr);
       }},
      {"copy",
       [&](cl_uint n, const cl_event *l) {
         return clEnqueueCopyBuffer(queue, a.get(), b.get(), 0, 0, 64, n, l, nullptr);
       }},
      {"fill",
       [&](cl_uint n, const cl_event *l) {
         return clEnqueueFillBuffer(queue, a.get(), &value, sizeof(value), 0, 64, n, l, nullptr);
       }},
  };
  for (const auto &[name, enqueue] : commands) {
    SCOPED_TRACE(name);
    EXPECT_EQ(enqueue(1, nullptr), CL_INVALID_EVENT_WAIT_LIST);
    EXPECT_EQ(enqueue(0, &done), CL_INVALID_EVENT_WAIT_LIST);
    EXPECT_EQ(enqueue(1, &done), CL_SUCCESS);
  }
  clFinish(queue);
  clReleaseEvent(done);
}

// ---------------------------------------------------------------------------
// Copy

TEST_F(BufferCopy, CopiesRegionsBetweenBuffers) {
  const Bytes src = pattern(512, 3);
  Bytes expected = pattern(512, 4);
  Mem a = buffer(src), b = buffer(expected);
  const struct {
    size_t srcOffset, dstOffset, size;
  } copies[] = {{0, 0, 16}, {100, 7, 50}, {5, 400, 112}, {511, 0, 1}, {0, 256, 256}};
  for (auto [srcOffset, dstOffset, size] : copies) {
    ASSERT_EQ(clEnqueueCopyBuffer(queue, a.get(), b.get(), srcOffset, dstOffset, size, 0, nullptr,
                                  nullptr),
              CL_SUCCESS);
    std::copy(src.begin() + srcOffset, src.begin() + srcOffset + size,
              expected.begin() + dstOffset);
  }
  EXPECT_EQ(read(b.get(), 0, expected.size()), expected);
  EXPECT_EQ(read(a.get(), 0, src.size()), src); // source untouched
}

TEST_F(BufferCopy, NonOverlappingCopyWithinOneBuffer) {
  Bytes expected = pattern(256, 5);
  Mem mem = buffer(expected);
  ASSERT_EQ(clEnqueueCopyBuffer(queue, mem.get(), mem.get(), 0, 100, 100, 0, nullptr, nullptr),
            CL_SUCCESS);
  std::copy(expected.begin(), expected.begin() + 100, expected.begin() + 100);
  EXPECT_EQ(read(mem.get(), 0, expected.size()), expected);
}

TEST_F(BufferCopy, OverlappingCopyWithinOneBufferIsMemCopyOverlap) {
  Mem mem = buffer(CL_MEM_READ_WRITE, 256);
  const struct {
    size_t src, dst, size;
  } cases[] = {{0, 10, 20}, {10, 0, 20}, {0, 0, 8}, {50, 99, 50}, {99, 50, 50}};
  for (auto [src, dst, size] : cases) {
    SCOPED_TRACE(std::to_string(src) + "->" + std::to_string(dst) + " x" + std::to_string(size));
    EXPECT_EQ(clEnqueueCopyBuffer(queue, mem.get(), mem.get(), src, dst, size, 0, nullptr, nullptr),
              CL_MEM_COPY_OVERLAP);
  }
}

TEST_F(BufferCopy, OverlappingSubBuffersOfOneParentIsMemCopyOverlap) {
  const size_t align = baseAlign();
  Mem parent = buffer(CL_MEM_READ_WRITE, 4 * align);
  Mem first = subBuffer(parent.get(), 0, 0, 2 * align);      // parent [0, 2a)
  Mem second = subBuffer(parent.get(), 0, align, 2 * align); // parent [a, 3a)
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  // first[a, 2a) and second[0, a) are the same parent bytes.
  EXPECT_EQ(
      clEnqueueCopyBuffer(queue, first.get(), second.get(), align, 0, align, 0, nullptr, nullptr),
      CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(clEnqueueCopyBuffer(queue, second.get(), first.get(), 0, align / 2, align, 0, nullptr,
                                nullptr),
            CL_MEM_COPY_OVERLAP);
}

TEST_F(BufferCopy, DisjointSubBuffersOfOneParentCopy) {
  const size_t align = baseAlign();
  Bytes expected = pattern(4 * align, 7);
  Mem parent = buffer(expected);
  Mem first = subBuffer(parent.get(), 0, 0, align);
  Mem third = subBuffer(parent.get(), 0, 2 * align, align);
  ASSERT_NE(first, nullptr);
  ASSERT_NE(third, nullptr);
  ASSERT_EQ(clEnqueueCopyBuffer(queue, first.get(), third.get(), 0, 0, align, 0, nullptr, nullptr),
            CL_SUCCESS);
  std::copy(expected.begin(), expected.begin() + align, expected.begin() + 2 * align);
  EXPECT_EQ(read(parent.get(), 0, expected.size()), expected);
}

TEST_F(BufferCopy, OutOfBoundsIsInvalidValue) {
  Mem a = buffer(CL_MEM_READ_WRITE, 128), b = buffer(CL_MEM_READ_WRITE, 64);
  const struct {
    size_t src, dst, size;
  } cases[] = {{0, 0, 65}, {100, 0, 29}, {0, 64, 1}, {128, 0, 1}, {SIZE_MAX, 0, 2}, {0, 1, 64}};
  for (auto [src, dst, size] : cases) {
    SCOPED_TRACE(std::to_string(src) + "->" + std::to_string(dst) + " x" + std::to_string(size));
    EXPECT_EQ(clEnqueueCopyBuffer(queue, a.get(), b.get(), src, dst, size, 0, nullptr, nullptr),
              CL_INVALID_VALUE);
  }
}

// ---------------------------------------------------------------------------
// Fill

TEST_F(BufferFill, EveryPatternSizeFillsOnlyItsRegion) {
  for (size_t patternSize : {1, 2, 4, 8, 16, 32, 64, 128}) {
    SCOPED_TRACE(patternSize);
    Bytes expected(16 * 128, 0xEE);
    Mem mem = buffer(expected);
    const Bytes pat = pattern(patternSize, static_cast<unsigned>(patternSize));
    const size_t offset = 2 * patternSize, size = 5 * patternSize;
    ASSERT_EQ(clEnqueueFillBuffer(queue, mem.get(), pat.data(), patternSize, offset, size, 0,
                                  nullptr, nullptr),
              CL_SUCCESS);
    for (size_t i = 0; i < size; ++i)
      expected[offset + i] = pat[i % patternSize];
    EXPECT_EQ(read(mem.get(), 0, expected.size()), expected);
  }
}

// Fills larger than a block of the fill's own copying, of odd multiples of
// the pattern, and of patterns that are one byte repeated.
TEST_F(BufferFill, LargeFillsOfEveryPatternSize) {
  const size_t bufferSize = 3 * 1024 * 1024 + 4096;
  for (size_t patternSize : {1, 2, 4, 8, 16, 32, 64, 128})
    for (const bool repeatedByte : {false, true}) {
      SCOPED_TRACE(std::to_string(patternSize) + (repeatedByte ? " repeated byte" : ""));
      Bytes expected(bufferSize, 0xEE);
      Mem mem = buffer(expected);
      Bytes pat = pattern(patternSize, static_cast<unsigned>(patternSize) + 3);
      if (repeatedByte)
        std::fill(pat.begin(), pat.end(), 0x5A);
      const size_t offset = 3 * patternSize;
      const size_t size = (bufferSize - offset - 1000) / patternSize / 2 * 2 * patternSize +
                          patternSize; // an odd number of copies
      ASSERT_EQ(clEnqueueFillBuffer(queue, mem.get(), pat.data(), patternSize, offset, size, 0,
                                    nullptr, nullptr),
                CL_SUCCESS);
      for (size_t i = 0; i < size; ++i)
        expected[offset + i] = pat[i % patternSize];
      EXPECT_TRUE(read(mem.get(), 0, expected.size()) == expected);
    }
}

TEST_F(BufferFill, WholeBufferFill) {
  const cl_uint value = 0xA1B2C3D4;
  Mem mem = buffer(CL_MEM_READ_WRITE, 256);
  ASSERT_EQ(
      clEnqueueFillBuffer(queue, mem.get(), &value, sizeof(value), 0, 256, 0, nullptr, nullptr),
      CL_SUCCESS);
  Bytes expected(256);
  for (size_t i = 0; i < expected.size(); i += 4)
    std::memcpy(&expected[i], &value, 4);
  EXPECT_EQ(read(mem.get(), 0, 256), expected);
}

TEST_F(BufferFill, InvalidPatternOrRegionIsInvalidValue) {
  Mem mem = buffer(CL_MEM_READ_WRITE, 1024);
  const Bytes pat = pattern(256, 1);
  const struct {
    const void *pattern;
    size_t patternSize, offset, size;
  } cases[] = {
      {pat.data(), 0, 0, 64},     // pattern size 0
      {pat.data(), 3, 0, 48},     // not a power of two
      {pat.data(), 6, 0, 48},     // not a power of two
      {pat.data(), 256, 0, 512},  // larger than 128
      {nullptr, 4, 0, 64},        // NULL pattern
      {pat.data(), 4, 2, 64},     // offset not a multiple
      {pat.data(), 4, 0, 6},      // size not a multiple
      {pat.data(), 16, 8, 32},    // offset not a multiple
      {pat.data(), 4, 1020, 8},   // out of bounds
      {pat.data(), 4, 1024, 4},   // out of bounds
      {pat.data(), 128, 0, 1152}, // out of bounds
  };
  for (auto [p, patternSize, offset, size] : cases) {
    SCOPED_TRACE("pattern " + std::to_string(patternSize) + " at " + std::to_string(offset) + " x" +
                 std::to_string(size));
    EXPECT_EQ(
        clEnqueueFillBuffer(queue, mem.get(), p, patternSize, offset, size, 0, nullptr, nullptr),
        CL_INVALID_VALUE);
  }
}

} // namespace
} // namespace lanewise::test
