// SPDX-License-Identifier: Apache-2.0
// The bounds check (runtime/check_bounds.cpp) on the planted bugs of
// cl/bugs.cl: accesses outside buffers, sub-buffers, SVM allocations,
// constant tables, __local and private arrays, released memory, another
// work-item's private memory, images; and the last element an access
// reaches (vectors, strided and asynchronous copies), no further.
#include "check_fixture.h"

namespace lanewise::test {
namespace {

TEST_P(CheckedMode, GlobalWritePastTheEnd) {
  cl_kernel k = kernel("global_write_past_end");
  arg(k, 0, buffer(std::vector<int>(64)));
  expectFinding(run(k, {64}, {16}), "out-of-bounds", "global_write_past_end", {63, 0, 0});
}

TEST_P(CheckedMode, GlobalReadBeforeTheStart) {
  cl_kernel k = kernel("global_read_before_start");
  arg(k, 0, buffer(iota(64)));
  arg(k, 1, buffer(std::vector<int>(64)));
  expectFinding(run(k, {64}, {16}), "out-of-bounds", "global_read_before_start", {0, 0, 0});
}

TEST_P(CheckedMode, TwoDimensionalRangeNamesTheWorkItem) {
  cl_kernel k = kernel("two_dimensional");
  arg(k, 0, buffer(std::vector<float>(32)));
  arg(k, 1, cl_int{8});
  expectFinding(run(k, {8, 4}, {4, 2}), "out-of-bounds", "two_dimensional", {3, 2, 0});
}

TEST_P(CheckedMode, OneWorkItemInDivergentControlFlow) {
  cl_kernel k = kernel("divergent_work_item");
  arg(k, 0, buffer(std::vector<int>(64)));
  const auto findings = run(k, {64}, {32});
  expectFinding(findings, "out-of-bounds", "divergent_work_item", {37, 0, 0});
  EXPECT_EQ(findings.size(), 1u);
}

TEST_P(CheckedMode, SubBufferOverflowIntoItsParent) {
  cl_kernel k = kernel("sub_buffer_overflow");
  cl_uint alignBits = 0;
  ASSERT_EQ(
      clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof alignBits, &alignBits, nullptr),
      CL_SUCCESS);
  const size_t origin = alignBits / 8;
  cl_mem parent = buffer(std::vector<int>(origin / 4 + 64));
  cl_buffer_region region{origin, 16 * sizeof(int)};
  cl_int err = CL_SUCCESS;
  cl_mem sub =
      clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  buffers_.push_back(sub);
  arg(k, 0, sub);
  expectFinding(run(k, {16}, {16}), "out-of-bounds", "sub_buffer_overflow", {14, 0, 0});
}

TEST_P(CheckedMode, SvmAllocationOverflow) {
  cl_kernel k = kernel("svm_overflow");
  void *p = clSVMAlloc(context, CL_MEM_READ_WRITE, 32 * sizeof(int), 0);
  ASSERT_NE(p, nullptr);
  ASSERT_EQ(clSetKernelArgSVMPointer(k, 0, p), CL_SUCCESS);
  expectFinding(run(k, {32}, {16}), "out-of-bounds", "svm_overflow", {16, 0, 0});
  clSVMFree(context, p);
}

TEST_P(CheckedMode, GenericPointerInACalledFunction) {
  cl_kernel k = kernel("generic_overflow");
  arg(k, 0, buffer(std::vector<int>(16)));
  const std::vector<Finding> findings = run(k, {16}, {16});
  expectFinding(findings, "out-of-bounds", "generic_overflow", {8, 0, 0});
  // The generic pointer is resolved: it points to global memory.
  ASSERT_FALSE(findings.empty());
  EXPECT_EQ(findings.front().addressSpace, "global");
}

// Work-item 0 reads work-item 31's private variable, in another warp when
// the warp is narrower than the group: named as that work-item's.
TEST_P(CheckedMode, AnotherWorkItemsPrivateMemory) {
  cl_kernel k = kernel("another_work_items_private");
  arg(k, 0, buffer(std::vector<int>(64)));
  const std::vector<Finding> findings = run(k, {64}, {32});
  expectFinding(findings, "out-of-bounds", "another_work_items_private", {0, 0, 0});
  ASSERT_FALSE(findings.empty());
  EXPECT_EQ(findings.front().addressSpace, "private");
  EXPECT_NE(findings.front().message.find("private memory of work-item local (31,0,0)"),
            std::string::npos)
      << findings.front().message;
}

TEST_P(CheckedMode, ProgramScopeConstantTableOverflow) {
  cl_kernel k = kernel("constant_table_overflow");
  arg(k, 0, buffer(iota(8)));
  arg(k, 1, buffer(std::vector<int>(8)));
  expectFinding(run(k, {8}, {8}), "out-of-bounds", "constant_table_overflow", {4, 0, 0});
}

TEST_P(CheckedMode, ConstantArgumentOverflow) {
  cl_kernel k = kernel("constant_argument_overflow");
  arg(k, 0, buffer(std::vector<float>(8, 1.0f)));
  arg(k, 1, buffer(std::vector<float>(8)));
  expectFinding(run(k, {8}, {8}), "out-of-bounds", "constant_argument_overflow", {6, 0, 0});
}

TEST_P(CheckedMode, LocalArrayOverflow) {
  cl_kernel k = kernel("local_array_overflow");
  arg(k, 0, buffer(std::vector<int>(32)));
  expectFinding(run(k, {32}, {16}), "out-of-bounds", "local_array_overflow", {15, 0, 0});
}

TEST_P(CheckedMode, LocalArgumentSmallerThanTheKernelUses) {
  cl_kernel k = kernel("local_argument_too_small");
  arg(k, 0, buffer(std::vector<int>(16)));
  localArg(k, 1, 8 * sizeof(int));
  expectFinding(run(k, {16}, {16}), "local-argument-too-small", "local_argument_too_small",
                {8, 0, 0});
}

TEST_P(CheckedMode, PrivateArrayOverflow) {
  cl_kernel k = kernel("private_array_overflow");
  arg(k, 0, buffer(iota(8, 1)));
  arg(k, 1, buffer(std::vector<int>(16)));
  arg(k, 2, cl_int{7});
  expectFinding(run(k, {16}, {16}), "out-of-bounds", "private_array_overflow", {1, 0, 0});
}

TEST_P(CheckedMode, ReleasedSvmAllocation) {
  cl_kernel k = kernel("released_svm");
  void *p = clSVMAlloc(context, CL_MEM_READ_WRITE, 16 * sizeof(int), 0);
  ASSERT_NE(p, nullptr);
  ASSERT_EQ(clSetKernelArgSVMPointer(k, 0, p), CL_SUCCESS);
  clSVMFree(context, p);
  expectFinding(run(k, {16}, {16}), "released-memory", "released_svm", {0, 0, 0});
}

TEST_P(CheckedMode, AtomicOutOfBounds) {
  cl_kernel k = kernel("atomic_out_of_bounds");
  cl_mem counters = buffer(std::vector<int>(4));
  arg(k, 0, counters);
  expectFinding(run(k, {16}, {16}), "out-of-bounds", "atomic_out_of_bounds", {12, 0, 0});
  // The valid increments happened; the invalid ones touched nothing.
  const std::vector<int> got = readInts(counters, 4);
  EXPECT_EQ(got, (std::vector<int>{0, 4, 4, 4}));
}

TEST_P(CheckedMode, VstorePastTheEnd) {
  cl_kernel k = kernel("vstore_past_end");
  arg(k, 0, buffer(std::vector<float>(16 * 4)));
  expectFinding(run(k, {16}, {16}), "out-of-bounds", "vstore_past_end", {15, 0, 0});
}

TEST_P(CheckedMode, AsynchronousCopyPastTheEndOfLocalMemory) {
  cl_kernel k = kernel("async_copy_past_the_tile");
  arg(k, 0, buffer(std::vector<float>(64, 1.0f)));
  arg(k, 1, buffer(std::vector<float>(32)));
  // 20 elements into a 16-element tile; the first work-item of the group
  // names the work-group's copy.
  const std::vector<Finding> findings = run(k, {32}, {16});
  expectFinding(findings, "out-of-bounds", "async_copy_past_the_tile", {0, 0, 0});
}

TEST_P(CheckedMode, StridedCopiesReachTheirLastElementOnly) {
  // 16 elements at stride 3 end at element 45: buffers of 46 elements.
  std::vector<float> in(46);
  for (std::size_t i = 0; i < in.size(); ++i)
    in[i] = float(i);
  cl_kernel k = kernel("async_strided_copies");
  cl_mem out = buffer(std::vector<float>(46, -1.0f));
  arg(k, 0, buffer(in));
  arg(k, 1, out);
  arg(k, 2, cl_int{16});
  arg(k, 3, cl_int{3});
  EXPECT_TRUE(run(k, {16}, {16}).empty());
  const std::vector<float> got = readFloats(out, 46);
  for (int i = 0; i < 46; ++i)
    EXPECT_EQ(got[i], i % 3 == 0 ? float(i) : -1.0f) << "element " << i;
  // One element fewer: the gather's last element is past the end.
  cl_kernel past = kernel("async_strided_copy_past_the_end");
  arg(past, 0, buffer(std::vector<float>(45, 1.0f)));
  arg(past, 1, buffer(std::vector<float>(16)));
  expectFinding(run(past, {16}, {16}), "out-of-bounds", "async_strided_copy_past_the_end",
                {0, 0, 0});
}

TEST_P(CheckedMode, AlignedHalf3LoadsReadNoPadding) {
  // Three work-items read halves 0-2, 4-6 and 8-10 of an 11-half buffer.
  cl_kernel k = kernel("aligned_half3_loads");
  const std::vector<cl_half> in = {0x3C00, 0x4000, 0x4200, 0,      0x4400, 0x4500,
                                   0x4600, 0,      0x4700, 0x4800, 0x4880};
  cl_mem out = buffer(std::vector<float>(9));
  arg(k, 0, buffer(in));
  arg(k, 1, out);
  EXPECT_TRUE(run(k, {3}, {3}).empty());
  const std::vector<float> expected = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  EXPECT_EQ(readFloats(out, 9), expected);
  // Ten halves: the third work-item's third half is past the end.
  cl_kernel short_ = kernel("aligned_half3_loads");
  arg(short_, 0, buffer(std::vector<cl_half>(in.begin(), in.begin() + 10)));
  arg(short_, 1, buffer(std::vector<float>(9)));
  const std::vector<Finding> findings = run(short_, {3}, {3});
  ASSERT_FALSE(findings.empty());
  EXPECT_EQ(findings.front().kind, "out-of-bounds");
  EXPECT_EQ(findings.front().globalId, (std::vector<long>{2, 0, 0}));
}

// Image accesses outside the image where OpenCL leaves them undefined:
// without a sampler, and through a CLK_ADDRESS_NONE sampler; with
// CLK_ADDRESS_CLAMP they read the border colour and are no finding. The
// image is 15 texels wide, the range 16 work-items.
class CheckedImages : public CheckedMode {
protected:
  cl_mem image() {
    const cl_image_format format{CL_RGBA, CL_FLOAT};
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = 15;
    desc.image_height = 1;
    cl_int err = CL_SUCCESS;
    cl_mem mem = clCreateImage(context, CL_MEM_READ_WRITE, &format, &desc, nullptr, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    buffers_.push_back(mem);
    return mem;
  }
  std::vector<Finding> read(const char *name) {
    cl_kernel k = kernel(name);
    arg(k, 0, image());
    arg(k, 1, buffer(std::vector<cl_float4>(16)));
    return run(k, {16}, {16});
  }
};

TEST_P(CheckedImages, ReadOutsideTheImage) {
  expectFinding(read("image_read_outside"), "out-of-bounds", "image_read_outside", {15, 0, 0});
}

TEST_P(CheckedImages, SampleOutsideTheImageWithoutAddressing) {
  expectFinding(read("image_sample_address_none"), "out-of-bounds", "image_sample_address_none",
                {15, 0, 0});
}

TEST_P(CheckedImages, SampleOutsideTheImageWithClampIsDefined) {
  EXPECT_TRUE(read("correct_image_sample_clamp").empty());
}

TEST_P(CheckedImages, WriteOutsideTheImage) {
  cl_kernel k = kernel("image_write_outside");
  arg(k, 0, image());
  expectFinding(run(k, {16}, {16}), "out-of-bounds", "image_write_outside", {15, 0, 0});
}

INSTANTIATE_TEST_SUITE_P(Builds, CheckedImages,
                         ::testing::Values("bugs", "bugs-O0", "bugs-nodebug"), buildName);

} // namespace
} // namespace lanewise::test
