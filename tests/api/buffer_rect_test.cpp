// SPDX-License-Identifier: Apache-2.0
// Rectangular buffer transfers (OpenCL 3.0 API spec, 5.2.2):
// clEnqueueReadBufferRect / clEnqueueWriteBufferRect / clEnqueueCopyBufferRect.
// Expected bytes come from referenceRectCopy, a direct transcription of the
// spec's addressing rule: offset = z * slice_pitch + y * row_pitch + x, with a
// row pitch of 0 meaning region[0] and a slice pitch of 0 meaning
// region[1] * row_pitch.
#include "common.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace lanewise::test {
namespace {

using Bytes = std::vector<std::uint8_t>;
using Size3 = std::array<size_t, 3>;

Bytes pattern(size_t size, unsigned seed) {
  Bytes bytes(size);
  for (size_t i = 0; i < size; ++i)
    bytes[i] = static_cast<std::uint8_t>(i * 13 + seed * 101 + 7);
  return bytes;
}

// One side of a rectangular transfer: origin and (possibly 0) pitches.
struct Layout {
  Size3 origin;
  size_t rowPitch = 0, slicePitch = 0;

  size_t row(const Size3 &region) const { return rowPitch ? rowPitch : region[0]; }
  size_t slice(const Size3 &region) const {
    return slicePitch ? slicePitch : region[1] * row(region);
  }
  size_t offset(const Size3 &region, size_t x, size_t y, size_t z) const {
    return (origin[2] + z) * slice(region) + (origin[1] + y) * row(region) + origin[0] + x;
  }
  // Bytes needed to hold the addressed rectangle.
  size_t extent(const Size3 &region) const {
    return offset(region, region[0] - 1, region[1] - 1, region[2] - 1) + 1;
  }
};

void referenceRectCopy(const Bytes &src, const Layout &from, Bytes &dst, const Layout &to,
                       const Size3 &region) {
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y)
      for (size_t x = 0; x < region[0]; ++x)
        dst.at(to.offset(region, x, y, z)) = src.at(from.offset(region, x, y, z));
}

// The overlap test of the spec's appendix "Checking for Memory Copy Overlap".
bool specCopyOverlap(const Size3 &src, const Size3 &dst, const Size3 &region, size_t rowPitch,
                     size_t slicePitch) {
  const size_t sliceSize = (region[1] - 1) * rowPitch + region[0];
  const size_t blockSize = (region[2] - 1) * slicePitch + sliceSize;
  const size_t srcStart = src[2] * slicePitch + src[1] * rowPitch + src[0];
  const size_t srcEnd = srcStart + blockSize;
  const size_t dstStart = dst[2] * slicePitch + dst[1] * rowPitch + dst[0];
  const size_t dstEnd = dstStart + blockSize;
  if (dstEnd <= srcStart || srcEnd <= dstStart)
    return false;
  const size_t srcDx = src[0] % rowPitch, dstDx = dst[0] % rowPitch;
  if ((dstDx >= srcDx + region[0] && dstDx + region[0] <= srcDx + rowPitch) ||
      (srcDx >= dstDx + region[0] && srcDx + region[0] <= dstDx + rowPitch))
    return false;
  const size_t srcDy = (src[1] * rowPitch + src[0]) % slicePitch;
  const size_t dstDy = (dst[1] * rowPitch + dst[0]) % slicePitch;
  if ((dstDy >= srcDy + sliceSize && dstDy + sliceSize <= srcDy + slicePitch) ||
      (srcDy >= dstDy + sliceSize && srcDy + sliceSize <= dstDy + slicePitch))
    return false;
  return true;
}

// A rectangle moved between a buffer side and a host (or second buffer) side.
struct RectCase {
  const char *name;
  Layout buffer, host;
  Size3 region;
};

const RectCase kCases[] = {
    {"1D", {{5, 0, 0}}, {{3, 0, 0}}, {20, 1, 1}},
    {"2D_packed", {{0, 0, 0}}, {{0, 0, 0}}, {8, 4, 1}},
    {"2D_pitched", {{3, 2, 0}, 16}, {{1, 1, 0}, 12}, {10, 5, 1}},
    {"2D_packed_origin", {{2, 3, 0}}, {{1, 2, 0}}, {6, 2, 1}},
    {"3D_pitched", {{2, 1, 1}, 10, 40}, {{0, 2, 1}, 8, 48}, {6, 3, 2}},
    {"3D_packed", {{1, 1, 1}}, {{0, 0, 2}}, {4, 3, 3}},
    {"3D_row_pitch_only", {{0, 1, 0}, 32}, {{4, 0, 1}, 0, 0}, {32, 8, 2}},
    {"3D_single_column", {{7, 2, 3}, 9, 45}, {{0, 0, 0}, 1, 5}, {1, 5, 4}},
};

class Rect : public ContextTest {
protected:
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
  cl_int readRect(cl_mem mem, const Layout &b, const Layout &h, const Size3 &region, void *ptr,
                  cl_bool blocking = CL_TRUE) {
    return clEnqueueReadBufferRect(queue, mem, blocking, b.origin.data(), h.origin.data(),
                                   region.data(), b.rowPitch, b.slicePitch, h.rowPitch,
                                   h.slicePitch, ptr, 0, nullptr, nullptr);
  }
  cl_int writeRect(cl_mem mem, const Layout &b, const Layout &h, const Size3 &region,
                   const void *ptr, cl_bool blocking = CL_TRUE) {
    return clEnqueueWriteBufferRect(queue, mem, blocking, b.origin.data(), h.origin.data(),
                                    region.data(), b.rowPitch, b.slicePitch, h.rowPitch,
                                    h.slicePitch, ptr, 0, nullptr, nullptr);
  }
  cl_int copyRect(cl_mem src, cl_mem dst, const Layout &s, const Layout &d, const Size3 &region) {
    return clEnqueueCopyBufferRect(queue, src, dst, s.origin.data(), d.origin.data(), region.data(),
                                   s.rowPitch, s.slicePitch, d.rowPitch, d.slicePitch, 0, nullptr,
                                   nullptr);
  }
};

TEST_F(Rect, ReadRectMatchesReference) {
  for (const RectCase &c : kCases) {
    for (cl_bool blocking : {CL_TRUE, CL_FALSE}) {
      SCOPED_TRACE(std::string(c.name) + (blocking ? " blocking" : " non-blocking"));
      const Bytes device = pattern(c.buffer.extent(c.region) + 5, 1);
      Bytes host = pattern(c.host.extent(c.region) + 3, 2);
      Bytes expected = host;
      referenceRectCopy(device, c.buffer, expected, c.host, c.region);
      Mem mem = buffer(device);
      ASSERT_EQ(readRect(mem.get(), c.buffer, c.host, c.region, host.data(), blocking), CL_SUCCESS);
      ASSERT_EQ(clFinish(queue), CL_SUCCESS);
      EXPECT_EQ(host, expected);
    }
  }
}

TEST_F(Rect, WriteRectMatchesReference) {
  for (const RectCase &c : kCases) {
    for (cl_bool blocking : {CL_TRUE, CL_FALSE}) {
      SCOPED_TRACE(std::string(c.name) + (blocking ? " blocking" : " non-blocking"));
      Bytes expected = pattern(c.buffer.extent(c.region) + 5, 3);
      const Bytes host = pattern(c.host.extent(c.region) + 3, 4);
      Mem mem = buffer(expected);
      referenceRectCopy(host, c.host, expected, c.buffer, c.region);
      ASSERT_EQ(writeRect(mem.get(), c.buffer, c.host, c.region, host.data(), blocking),
                CL_SUCCESS);
      ASSERT_EQ(clFinish(queue), CL_SUCCESS);
      EXPECT_EQ(contents(mem.get(), expected.size()), expected);
    }
  }
}

TEST_F(Rect, CopyRectMatchesReference) {
  for (const RectCase &c : kCases) {
    SCOPED_TRACE(c.name);
    const Bytes src = pattern(c.buffer.extent(c.region) + 5, 5);
    Bytes expected = pattern(c.host.extent(c.region) + 3, 6);
    Mem a = buffer(src), b = buffer(expected);
    referenceRectCopy(src, c.buffer, expected, c.host, c.region);
    ASSERT_EQ(copyRect(a.get(), b.get(), c.buffer, c.host, c.region), CL_SUCCESS);
    EXPECT_EQ(contents(b.get(), expected.size()), expected);
    EXPECT_EQ(contents(a.get(), src.size()), src);
  }
}

TEST_F(Rect, WriteThenReadRectRoundTrips) {
  // A 3D box written with one host layout and read back with another.
  const Size3 region{5, 4, 3};
  const Layout device{{1, 1, 1}, 8, 48};
  const Layout in{{0, 0, 0}}, out{{2, 1, 0}, 9, 45};
  const Bytes source = pattern(in.extent(region), 7);
  Mem mem = buffer(Bytes(device.extent(region), 0));
  ASSERT_EQ(writeRect(mem.get(), device, in, region, source.data()), CL_SUCCESS);
  Bytes result(out.extent(region), 0);
  ASSERT_EQ(readRect(mem.get(), device, out, region, result.data()), CL_SUCCESS);
  Bytes expected(out.extent(region), 0);
  referenceRectCopy(source, in, expected, out, region);
  EXPECT_EQ(result, expected);
}

// ---------------------------------------------------------------------------
// Errors. Every malformed argument set is tried on read, write and copy.

struct BadRect {
  const char *name;
  Layout buffer, host;
  Size3 region;
};

class RectErrors : public Rect {
protected:
  static constexpr size_t kBufferSize = 1024;
  void expectAllInvalid(const BadRect &c) {
    SCOPED_TRACE(c.name);
    Mem a = buffer(Bytes(kBufferSize, 0)), b = buffer(Bytes(kBufferSize, 0));
    Bytes host(1 << 16);
    EXPECT_EQ(readRect(a.get(), c.buffer, c.host, c.region, host.data()), CL_INVALID_VALUE);
    EXPECT_EQ(writeRect(a.get(), c.buffer, c.host, c.region, host.data()), CL_INVALID_VALUE);
    EXPECT_EQ(copyRect(a.get(), b.get(), c.buffer, c.host, c.region), CL_INVALID_VALUE);
    EXPECT_EQ(copyRect(b.get(), a.get(), c.host, c.buffer, c.region), CL_INVALID_VALUE);
  }
};

TEST_F(RectErrors, ZeroRegionComponentIsInvalidValue) {
  for (Size3 region : {Size3{0, 1, 1}, Size3{4, 0, 1}, Size3{4, 1, 0}, Size3{0, 0, 0}})
    expectAllInvalid({"zero region", {{0, 0, 0}}, {{0, 0, 0}}, region});
}

TEST_F(RectErrors, RowPitchSmallerThanRegionWidthIsInvalidValue) {
  expectAllInvalid({"buffer row pitch", {{0, 0, 0}, 4}, {{0, 0, 0}}, {8, 2, 1}});
  expectAllInvalid({"host row pitch", {{0, 0, 0}}, {{0, 0, 0}, 7}, {8, 2, 1}});
}

TEST_F(RectErrors, SlicePitchSmallerThanRegionSliceIsInvalidValue) {
  // region[1] * row_pitch = 32: 20 is both smaller and not a multiple of 8;
  // 24 is smaller but a multiple.
  for (size_t slice : {size_t{20}, size_t{24}}) {
    expectAllInvalid({"buffer slice pitch", {{0, 0, 0}, 8, slice}, {{0, 0, 0}}, {4, 4, 2}});
    expectAllInvalid({"host slice pitch", {{0, 0, 0}}, {{0, 0, 0}, 8, slice}, {4, 4, 2}});
  }
}

TEST_F(RectErrors, CopySlicePitchNotMultipleOfRowPitchIsInvalidValue) {
  // clEnqueueCopyBufferRect: slice pitch not a multiple of row pitch (36 > 32).
  Mem a = buffer(Bytes(kBufferSize, 0)), b = buffer(Bytes(kBufferSize, 0));
  const Size3 region{4, 4, 2};
  const Layout bad{{0, 0, 0}, 8, 36}, good{{0, 0, 0}};
  EXPECT_EQ(copyRect(a.get(), b.get(), bad, good, region), CL_INVALID_VALUE);
  EXPECT_EQ(copyRect(a.get(), b.get(), good, bad, region), CL_INVALID_VALUE);
}

TEST_F(RectErrors, OutOfBoundsIsInvalidValue) {
  // The buffer holds 1024 bytes.
  expectAllInvalid({"too tall", {{0, 0, 0}, 64}, {{0, 0, 0}}, {64, 17, 1}});
  expectAllInvalid({"origin z", {{0, 0, 1}, 32, 1024}, {{0, 0, 0}}, {4, 1, 1}});
  expectAllInvalid({"origin x", {{1021, 0, 0}}, {{0, 0, 0}}, {4, 1, 1}});
  expectAllInvalid({"deep packed", {{0, 0, 0}}, {{0, 0, 0}}, {16, 16, 5}});
  expectAllInvalid({"origin y", {{0, 16, 0}, 64}, {{0, 0, 0}}, {64, 1, 1}});
  // The last byte exactly fits: success.
  Mem a = buffer(Bytes(kBufferSize, 0));
  Bytes host(kBufferSize);
  EXPECT_EQ(readRect(a.get(), {{0, 15, 0}, 64}, {{0, 0, 0}}, {64, 1, 1}, host.data()), CL_SUCCESS);
  EXPECT_EQ(readRect(a.get(), {{0, 0, 0}}, {{0, 0, 0}}, {16, 16, 4}, host.data()), CL_SUCCESS);
}

TEST_F(RectErrors, NullPointersAreInvalidValue) {
  Mem mem = buffer(Bytes(kBufferSize, 0));
  const Size3 origin{0, 0, 0}, region{4, 4, 1};
  Bytes host(64);
  EXPECT_EQ(readRect(mem.get(), {origin}, {origin}, region, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(writeRect(mem.get(), {origin}, {origin}, region, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueReadBufferRect(queue, mem.get(), CL_TRUE, nullptr, origin.data(),
                                    region.data(), 0, 0, 0, 0, host.data(), 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueWriteBufferRect(queue, mem.get(), CL_TRUE, origin.data(), origin.data(),
                                     nullptr, 0, 0, 0, 0, host.data(), 0, nullptr, nullptr),
            CL_INVALID_VALUE);
}

TEST_F(RectErrors, HostAccessFlagsRestrictReadAndWriteRect) {
  const Size3 region{4, 4, 1};
  const Layout at{{0, 0, 0}};
  Bytes host(64);
  Mem writeOnly = buffer(Bytes(64, 0), CL_MEM_HOST_WRITE_ONLY);
  Mem readOnly = buffer(Bytes(64, 0), CL_MEM_HOST_READ_ONLY);
  Mem noAccess = buffer(Bytes(64, 0), CL_MEM_HOST_NO_ACCESS);
  EXPECT_EQ(readRect(writeOnly.get(), at, at, region, host.data()), CL_INVALID_OPERATION);
  EXPECT_EQ(readRect(noAccess.get(), at, at, region, host.data()), CL_INVALID_OPERATION);
  EXPECT_EQ(writeRect(readOnly.get(), at, at, region, host.data()), CL_INVALID_OPERATION);
  EXPECT_EQ(writeRect(noAccess.get(), at, at, region, host.data()), CL_INVALID_OPERATION);
  EXPECT_EQ(readRect(readOnly.get(), at, at, region, host.data()), CL_SUCCESS);
  EXPECT_EQ(writeRect(writeOnly.get(), at, at, region, host.data()), CL_SUCCESS);
  // clEnqueueCopyBufferRect ignores host access flags.
  EXPECT_EQ(copyRect(noAccess.get(), writeOnly.get(), at, at, region), CL_SUCCESS);
}

// ---------------------------------------------------------------------------
// Copies inside one buffer.

TEST_F(Rect, CopyRectInOneBufferFollowsTheSpecOverlapRule) {
  // A 16 x 16 x 2 box, row pitch 16 and slice pitch 256 on both sides.
  constexpr size_t row = 16, slice = 256;
  const struct {
    Size3 src, dst, region;
  } cases[] = {
      {{0, 0, 0}, {2, 2, 0}, {4, 4, 1}},   // overlapping squares
      {{0, 0, 0}, {8, 0, 0}, {4, 4, 1}},   // side by side
      {{0, 0, 0}, {0, 4, 0}, {4, 4, 1}},   // one below the other
      {{0, 0, 0}, {4, 1, 0}, {4, 4, 1}},   // linear ranges interleave, columns disjoint
      {{0, 0, 0}, {3, 1, 0}, {4, 4, 1}},   // columns overlap
      {{0, 0, 0}, {0, 0, 1}, {16, 16, 1}}, // slice 0 to slice 1
      {{0, 0, 0}, {0, 8, 0}, {16, 8, 2}},  // rows interleave across slices
      {{0, 0, 0}, {0, 4, 0}, {16, 8, 2}},  // overlap within each slice
      {{5, 5, 1}, {5, 5, 1}, {1, 1, 1}},   // same byte
  };
  for (const auto &c : cases) {
    SCOPED_TRACE("src (" + std::to_string(c.src[0]) + "," + std::to_string(c.src[1]) + "," +
                 std::to_string(c.src[2]) + ") dst (" + std::to_string(c.dst[0]) + "," +
                 std::to_string(c.dst[1]) + "," + std::to_string(c.dst[2]) + ")");
    Bytes expected = pattern(2 * slice, 9);
    Mem mem = buffer(expected);
    const Layout src{c.src, row, slice}, dst{c.dst, row, slice};
    const bool overlap = specCopyOverlap(c.src, c.dst, c.region, row, slice);
    const cl_int err = copyRect(mem.get(), mem.get(), src, dst, c.region);
    if (overlap) {
      EXPECT_EQ(err, CL_MEM_COPY_OVERLAP);
    } else {
      ASSERT_EQ(err, CL_SUCCESS);
      const Bytes before = expected;
      referenceRectCopy(before, src, expected, dst, c.region);
      EXPECT_EQ(contents(mem.get(), expected.size()), expected);
    }
  }
}

TEST_F(Rect, CopyRectInOneBufferWithDifferentPitchesIsInvalidValue) {
  // Same buffer: src and dst pitches must be equal.
  Mem mem = buffer(Bytes(2048, 0));
  const Size3 region{4, 2, 2};
  const Layout src{{0, 0, 0}, 16, 64}, dst{{0, 0, 8}, 32, 128};
  EXPECT_EQ(copyRect(mem.get(), mem.get(), src, dst, region), CL_INVALID_VALUE);
  // Equal pitches, disjoint regions: fine.
  EXPECT_EQ(copyRect(mem.get(), mem.get(), src, {{0, 0, 8}, 16, 64}, region), CL_SUCCESS);
}

TEST_F(Rect, CopyRectBetweenOverlappingSubBuffersIsMemCopyOverlap) {
  if (!testingLanewise())
    GTEST_SKIP() << "PoCL 3.1 (the reference run) crashes on this call";
  const size_t align = deviceInfo<cl_uint>(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;
  Mem parent = buffer(Bytes(4 * align, 0));
  cl_buffer_region r1{0, 2 * align}, r2{align, 2 * align};
  cl_int err = CL_INVALID_VALUE;
  Mem first(clCreateSubBuffer(parent.get(), 0, CL_BUFFER_CREATE_TYPE_REGION, &r1, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  Mem second(clCreateSubBuffer(parent.get(), 0, CL_BUFFER_CREATE_TYPE_REGION, &r2, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  // first[align, 2 align) and second[0, align) are the same parent bytes.
  const Size3 region{align, 1, 1};
  EXPECT_EQ(copyRect(first.get(), second.get(), {{align, 0, 0}, align, align},
                     {{0, 0, 0}, align, align}, region),
            CL_MEM_COPY_OVERLAP);
}

} // namespace
} // namespace lanewise::test
