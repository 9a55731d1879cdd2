// SPDX-License-Identifier: Apache-2.0
// The checked mode: each kernel of cl/bugs.cl has one planted bug, which
// must be reported with the right kind, kernel, source line and work-item;
// the correct kernels must run without findings. Each kernel runs from the
// SPIR-V of three builds: -O2 -g, -O0 -g and -O2 without debug information
// (where the report names the instruction instead of a line). The tests run
// with LANEWISE_DETERMINISTIC=1 (set below), so the first finding is that of the first
// offending work-item in work-group order.
#include "common.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace lanewise::test {
namespace {

// Work-groups in order on one thread: the first finding is predictable.
const bool deterministic = [] { return setenv("LANEWISE_DETERMINISTIC", "1", 1) == 0; }();

// One finding, from a line of the JSON report (LANEWISE_CHECK_JSON).
struct Finding {
  std::string kind, kernel, opcode, file, addressSpace, message;
  long line = -1;
  std::vector<long> globalId;
};

std::string stringField(const std::string &json, const std::string &key) {
  const std::string marker = "\"" + key + "\":\"";
  const size_t at = json.find(marker);
  if (at == std::string::npos)
    return "";
  std::string value;
  for (size_t i = at + marker.size(); i < json.size() && json[i] != '"'; ++i)
    value += json[i] == '\\' ? json[++i] : json[i];
  return value;
}

long numberField(const std::string &json, const std::string &key) {
  const std::string marker = "\"" + key + "\":";
  const size_t at = json.find(marker);
  return at == std::string::npos ? -1 : std::strtol(json.c_str() + at + marker.size(), nullptr, 10);
}

std::vector<long> arrayField(const std::string &json, const std::string &key) {
  const std::string marker = "\"" + key + "\":[";
  const size_t at = json.find(marker);
  std::vector<long> values;
  if (at == std::string::npos)
    return values;
  const char *p = json.c_str() + at + marker.size();
  while (*p && *p != ']') {
    char *end;
    values.push_back(std::strtol(p, &end, 10));
    p = *end == ',' ? end + 1 : end;
  }
  return values;
}

std::vector<Finding> readFindings(const std::string &path) {
  std::vector<Finding> findings;
  std::ifstream file(path);
  for (std::string line; std::getline(file, line);) {
    Finding f;
    f.kind = stringField(line, "kind");
    f.addressSpace = stringField(line, "address_space");
    f.message = stringField(line, "message");
    f.kernel = stringField(line, "kernel");
    f.opcode = stringField(line, "opcode");
    f.file = stringField(line, "file");
    f.line = numberField(line, "line");
    f.globalId = arrayField(line, "global_id");
    findings.push_back(f);
  }
  return findings;
}

// The line of cl/bugs.cl marked BUG in kernel `name` (or in the function
// defined just before it, for bugs in called functions).
long markedLine(const std::string &name) {
  std::ifstream file(LANEWISE_CHECK_SOURCE);
  std::vector<std::string> lines;
  for (std::string line; std::getline(file, line);)
    lines.push_back(line);
  long kernelLine = -1;
  for (size_t i = 0; i < lines.size(); ++i)
    if (lines[i].find("kernel void " + name + "(") != std::string::npos)
      kernelLine = static_cast<long>(i);
  if (kernelLine < 0)
    return -1;
  // The nearest BUG marker after the kernel's start, else before it.
  for (size_t i = kernelLine; i < lines.size() && lines[i] != "}"; ++i)
    if (lines[i].find("// BUG") != std::string::npos)
      return static_cast<long>(i) + 1;
  for (long i = kernelLine; i >= 0; --i)
    if (lines[i].find("// BUG") != std::string::npos)
      return i + 1;
  return -1;
}

std::vector<char> readBinary(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

class CheckedMode : public ContextTest, public ::testing::WithParamInterface<const char *> {
protected:
  void SetUp() override {
    ContextTest::SetUp();
    char pattern[] = "/tmp/lanewise-findings-XXXXXX";
    const int fd = mkstemp(pattern);
    ASSERT_GE(fd, 0);
    close(fd);
    report_ = pattern;
    setenv("LANEWISE_CHECK_JSON", report_.c_str(), 1);
  }
  void TearDown() override {
    for (cl_mem mem : buffers_)
      clReleaseMemObject(mem);
    for (cl_kernel k : kernels_)
      clReleaseKernel(k);
    if (program_)
      clReleaseProgram(program_);
    unsetenv("LANEWISE_CHECK_JSON");
    std::remove(report_.c_str());
    ContextTest::TearDown();
  }

  bool withDebugInfo() const { return std::string(GetParam()) != "bugs-nodebug"; }

  cl_kernel kernel(const std::string &name, const char *options = "-lanewise-check=all") {
    if (!program_) {
      const std::vector<char> il =
          readBinary(std::string(LANEWISE_KERNEL_DIR) + "/" + GetParam() + ".spv");
      cl_int err = CL_SUCCESS;
      program_ = clCreateProgramWithIL(context, il.data(), il.size(), &err);
      EXPECT_EQ(err, CL_SUCCESS);
      if (clBuildProgram(program_, 1, &device, options, nullptr, nullptr) != CL_SUCCESS) {
        size_t size = 0;
        clGetProgramBuildInfo(program_, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
        std::string log(size, '\0');
        clGetProgramBuildInfo(program_, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
        ADD_FAILURE() << log;
        return nullptr;
      }
    }
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(program_, name.c_str(), &err);
    EXPECT_EQ(err, CL_SUCCESS) << name;
    kernels_.push_back(k);
    return k;
  }

  // The first `count` elements of `mem` (a failed read fails the test).
  template <typename T> std::vector<T> read(cl_mem mem, size_t count) {
    std::vector<T> data(count);
    EXPECT_EQ(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, count * sizeof(T), data.data(), 0,
                                  nullptr, nullptr),
              CL_SUCCESS);
    return data;
  }
  std::vector<int> readInts(cl_mem mem, size_t count) { return read<int>(mem, count); }
  std::vector<float> readFloats(cl_mem mem, size_t count) { return read<float>(mem, count); }

  template <typename T> cl_mem buffer(const std::vector<T> &data, cl_mem_flags flags = 0) {
    cl_int err = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR | flags,
                                data.size() * sizeof(T), const_cast<T *>(data.data()), &err);
    EXPECT_EQ(err, CL_SUCCESS);
    buffers_.push_back(mem);
    return mem;
  }
  template <typename T> void arg(cl_kernel k, cl_uint index, const T &value) {
    ASSERT_EQ(clSetKernelArg(k, index, sizeof value, &value), CL_SUCCESS) << "argument " << index;
  }
  void localArg(cl_kernel k, cl_uint index, size_t bytes) {
    ASSERT_EQ(clSetKernelArg(k, index, bytes, nullptr), CL_SUCCESS);
  }

  // Runs k and returns what the checked mode reported.
  std::vector<Finding> run(cl_kernel k, std::vector<size_t> global, std::vector<size_t> local) {
    EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, static_cast<cl_uint>(global.size()), nullptr,
                                     global.data(), local.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(clFinish(queue), CL_SUCCESS);
    return readFindings(report_);
  }

  // The first finding is `kind` in `kernel` at its BUG line, by `globalId`;
  // every finding is at that line.
  void expectFinding(const std::vector<Finding> &findings, const std::string &kind,
                     const std::string &kernelName, std::vector<long> globalId) {
    ASSERT_FALSE(findings.empty()) << "no finding for " << kernelName;
    const Finding &first = findings.front();
    EXPECT_EQ(first.kind, kind);
    EXPECT_EQ(first.kernel, kernelName);
    EXPECT_EQ(first.globalId, globalId);
    EXPECT_FALSE(first.opcode.empty());
    const long line = withDebugInfo() ? markedLine(kernelName) : 0;
    ASSERT_GT(markedLine(kernelName), 0);
    for (const Finding &f : findings) {
      EXPECT_EQ(f.line, line) << f.kind << " " << f.opcode;
      if (withDebugInfo())
        EXPECT_EQ(f.file.substr(f.file.find_last_of('/') + 1), "bugs.cl");
      else
        EXPECT_EQ(f.file, "");
    }
  }

  // The first finding's message names the other work-item of a race (as
  // the report words it) and, with debug information, the line of its
  // access, `linesAbove` lines above the kernel's BUG line.
  void expectOther(const std::vector<Finding> &findings, const std::string &kernelName,
                   const std::string &other, std::optional<long> linesAbove = std::nullopt) {
    ASSERT_FALSE(findings.empty()) << "no finding for " << kernelName;
    const std::string &message = findings.front().message;
    EXPECT_NE(message.find(other), std::string::npos) << message;
    if (linesAbove && withDebugInfo()) {
      const std::string line =
          "bugs.cl:" + std::to_string(markedLine(kernelName) - *linesAbove) + ":";
      EXPECT_NE(message.find(line), std::string::npos) << message;
    }
  }

  std::string report_;
  cl_program program_ = nullptr;
  std::vector<cl_mem> buffers_;
  std::vector<cl_kernel> kernels_;
};

std::vector<int> iota(int n, int first = 0) {
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i)
    v[i] = first + i;
  return v;
}

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
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof alignBits, &alignBits,
                            nullptr),
            CL_SUCCESS);
  const size_t origin = alignBits / 8;
  cl_mem parent = buffer(std::vector<int>(origin / 4 + 64));
  cl_buffer_region region{origin, 16 * sizeof(int)};
  cl_int err = CL_SUCCESS;
  cl_mem sub = clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region,
                                 &err);
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

TEST_P(CheckedMode, MisalignedLoad) {
  cl_kernel k = kernel("misaligned_load");
  arg(k, 0, buffer(std::vector<char>(4 * 16 + 8)));
  arg(k, 1, buffer(std::vector<float>(16)));
  expectFinding(run(k, {16}, {16}), "misaligned", "misaligned_load", {0, 0, 0});
}

TEST_P(CheckedMode, MisalignedVload) {
  cl_kernel k = kernel("misaligned_vload");
  arg(k, 0, buffer(std::vector<float>(16 * 4 + 4)));
  arg(k, 1, buffer(std::vector<float>(16 * 4)));
  expectFinding(run(k, {16}, {16}), "misaligned", "misaligned_vload", {0, 0, 0});
}

TEST_P(CheckedMode, MisalignedStore) {
  cl_kernel k = kernel("misaligned_store");
  arg(k, 0, buffer(std::vector<char>(4 * 16 + 8)));
  expectFinding(run(k, {16}, {16}), "misaligned", "misaligned_store", {0, 0, 0});
}

TEST_P(CheckedMode, IntegerDivisionByZero) {
  cl_kernel k = kernel("division_by_zero");
  arg(k, 0, buffer(iota(16, -5)));
  arg(k, 1, buffer(std::vector<int>(16)));
  expectFinding(run(k, {16}, {16}), "division-by-zero", "division_by_zero", {5, 0, 0});
}

TEST_P(CheckedMode, UnsignedRemainderByZero) {
  cl_kernel k = kernel("remainder_by_zero");
  std::vector<cl_uint> divisors(16);
  for (cl_uint i = 0; i < 16; ++i)
    divisors[i] = i == 9 ? 0 : i + 1;
  arg(k, 0, buffer(divisors));
  arg(k, 1, buffer(std::vector<cl_uint>(16)));
  expectFinding(run(k, {16}, {16}), "division-by-zero", "remainder_by_zero", {9, 0, 0});
}

TEST_P(CheckedMode, MinimumDividedByMinusOne) {
  cl_kernel k = kernel("division_overflow");
  std::vector<cl_long> pairs;
  for (cl_long i = 0; i < 16; ++i) {
    pairs.push_back(i == 3 ? INT64_MIN : i * 10);
    pairs.push_back(i == 3 ? -1 : 3);
  }
  arg(k, 0, buffer(pairs));
  arg(k, 1, buffer(std::vector<cl_long>(16)));
  expectFinding(run(k, {16}, {16}), "division-overflow", "division_overflow", {3, 0, 0});
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

TEST_P(CheckedMode, BarrierInDivergentControlFlow) {
  cl_kernel k = kernel("barrier_in_divergent_branch");
  arg(k, 0, buffer(std::vector<int>(32)));
  // Work-items 8 to 15 of each group return without reaching the barrier.
  expectFinding(run(k, {32}, {16}), "barrier-divergence", "barrier_in_divergent_branch",
                {8, 0, 0});
}

TEST_P(CheckedMode, WorkItemsAtDifferentBarriers) {
  cl_kernel k = kernel("different_barriers");
  arg(k, 0, buffer(std::vector<int>(32)));
  // Work-item 0 waits at the second barrier; work-item 1 is the first at the other.
  expectFinding(run(k, {32}, {16}), "barrier-divergence", "different_barriers", {1, 0, 0});
}

TEST_P(CheckedMode, UninitialisedLocalMemory) {
  cl_kernel k = kernel("uninitialised_local");
  arg(k, 0, buffer(std::vector<int>(32)));
  // Nobody writes tile[5]; work-item 10 reads it.
  expectFinding(run(k, {32}, {16}), "uninitialised-read", "uninitialised_local", {10, 0, 0});
}

TEST_P(CheckedMode, UninitialisedPrivateMemory) {
  cl_kernel k = kernel("uninitialised_private");
  // a[0] and a[in[i + 16]] = a[1] are written; work-item 2 reads a[2].
  std::vector<int> in(32, 1);
  arg(k, 0, buffer(in));
  arg(k, 1, buffer(std::vector<int>(16)));
  expectFinding(run(k, {16}, {16}), "uninitialised-read", "uninitialised_private", {2, 0, 0});
}

// A variable assigned in a loop only when an input is positive: at -O2 a
// phi with an OpUndef incoming value (the register shadow finds it), at -O0
// a private variable (the memory shadow finds it).
TEST_P(CheckedMode, UninitialisedRegister) {
  cl_kernel k = kernel("uninitialised_register");
  const int n = 4, items = 32;
  // Work-items 6, 13 and 27 have no positive input; the others have one or
  // more, in varied places.
  std::vector<int> in(items * n);
  for (int i = 0; i < items; ++i)
    for (int j = 0; j < n; ++j)
      in[i * n + j] = (i + j) % 3 == 0 ? i + 1 : -j;
  for (int i : {6, 13, 27})
    for (int j = 0; j < n; ++j)
      in[i * n + j] = -i - j;
  cl_mem out = buffer(std::vector<int>(items));
  arg(k, 0, buffer(in));
  arg(k, 1, out);
  arg(k, 2, cl_int{n});
  const auto findings = run(k, {items}, {16});
  expectFinding(findings, "uninitialised-read", "uninitialised_register", {6, 0, 0});
  // The work-items that had a positive input got the index of the last one.
  const std::vector<int> got = readInts(out, items);
  for (int i = 0; i < items; ++i) {
    int last = -1;
    for (int j = 0; j < n; ++j)
      if (in[i * n + j] > 0)
        last = j;
    if (last >= 0) {
      EXPECT_EQ(got[i], last) << "work-item " << i;
    }
  }
}

// An undefined operand that does not decide a Boolean AND or OR has no
// effect: nothing at -O2; at -O0 the read of the unassigned private variable
// is reported (the source does read it).
TEST_P(CheckedMode, UndefinedOperandThatDoesNotDecide) {
  cl_kernel k = kernel("unused_uninitialised_operand");
  const int n = 4, items = 32;
  std::vector<int> in(items * n);
  for (int i = 0; i < items; ++i)
    for (int j = 0; j < n; ++j)
      in[i * n + j] = i % 4 == 1 ? -1 - j : (i + j) % 5 - 2;
  cl_mem out = buffer(std::vector<int>(items * 2));
  arg(k, 0, buffer(in));
  arg(k, 1, out);
  arg(k, 2, cl_int{n});
  const auto findings = run(k, {items}, {16});
  if (std::string(GetParam()) == "bugs-O0") {
    ASSERT_FALSE(findings.empty());
    EXPECT_EQ(findings.front().kind, "uninitialised-read");
    EXPECT_EQ(findings.front().globalId, (std::vector<long>{1, 0, 0}));
  } else {
    EXPECT_TRUE(findings.empty());
  }
  const std::vector<int> got = readInts(out, items * 2);
  for (int i = 0; i < items; ++i) {
    int last = -1;
    for (int j = 0; j < n; ++j)
      if (in[i * n + j] > 0)
        last = j;
    EXPECT_EQ(got[2 * i], last > 0 ? 1 : 2) << "work-item " << i;
    EXPECT_EQ(got[2 * i + 1], last < 0 || last > 0 ? 3 : 4) << "work-item " << i;
  }
}

TEST_P(CheckedMode, LocalMemoryRaceWithoutABarrier) {
  cl_kernel k = kernel("local_race");
  arg(k, 0, buffer(std::vector<int>(32)));
  // Work-item 0 reads tile[1], which work-item 1 wrote with no barrier between.
  expectFinding(run(k, {32}, {16}), "data-race", "local_race", {0, 0, 0});
}

TEST_P(CheckedMode, LocalMemoryRaceOfARowReadingOneElement) {
  cl_kernel k = kernel("local_race_read_by_a_row");
  arg(k, 0, buffer(std::vector<int>(16)));
  // Work-item 0 reads its own write; work-item 1 reads tile[0], which
  // work-item 0 wrote with no barrier between.
  const std::vector<Finding> findings = run(k, {16}, {16});
  expectFinding(findings, "data-race", "local_race_read_by_a_row", {1, 0, 0});
  expectOther(findings, "local_race_read_by_a_row", "local linear id 0");
}

// A race of stores of the same value is a race (OpenCL C 3.0, 6.15.8), and
// the report says that the values were the same; of different values, it
// does not. The stores race in one instruction of a warp (the tiles), or in
// two (the cell: the first store is in memory when the second is checked).
std::vector<float> raceInput() {
  std::vector<float> in(16);
  for (int i = 0; i < 16; ++i)
    in[i] = 0.5f * float(i) - 3.0f;
  return in;
}
const char *const kSameValue = "both stored the same value";

TEST_P(CheckedMode, LocalMemoryRaceOfStoresOfTheSameValueSaysSo) {
  cl_kernel k = kernel("local_race_same_tile");
  arg(k, 0, buffer(raceInput()));
  arg(k, 1, buffer(std::vector<float>(16)));
  const std::vector<Finding> findings = run(k, {16}, {16});
  expectFinding(findings, "data-race", "local_race_same_tile", {1, 0, 0});
  expectOther(findings, "local_race_same_tile", kSameValue);
}

TEST_P(CheckedMode, LocalMemoryRaceOfStoresOfDifferentValuesDoesNotSaySo) {
  cl_kernel k = kernel("local_race_different_tiles");
  arg(k, 0, buffer(raceInput()));
  arg(k, 1, buffer(std::vector<float>(16)));
  const std::vector<Finding> findings = run(k, {16}, {16});
  expectFinding(findings, "data-race", "local_race_different_tiles", {1, 0, 0});
  ASSERT_FALSE(findings.empty());
  EXPECT_EQ(findings.front().message.find(kSameValue), std::string::npos)
      << findings.front().message;
}

TEST_P(CheckedMode, LocalMemoryRaceOfTwoStatementsStoringTheSameValueSaysSo) {
  cl_kernel k = kernel("local_race_same_cell");
  arg(k, 0, buffer(raceInput()));
  arg(k, 1, buffer(std::vector<float>(16)));
  const std::vector<Finding> findings = run(k, {16}, {16});
  expectFinding(findings, "data-race", "local_race_same_cell", {1, 0, 0});
  expectOther(findings, "local_race_same_cell", kSameValue);
}

TEST_P(CheckedMode, GlobalMemoryRaceWithinAWorkGroup) {
  cl_kernel k = kernel("global_race_in_group");
  arg(k, 0, buffer(std::vector<int>(32)));
  arg(k, 1, buffer(std::vector<int>(32)));
  // barrier(CLK_LOCAL_MEM_FENCE) does not order global memory: work-item 0
  // reads data[1], which work-item 1 wrote.
  expectFinding(run(k, {32}, {16}), "data-race", "global_race_in_group", {0, 0, 0});
}

TEST_P(CheckedMode, GlobalMemoryRaceBetweenWorkGroups) {
  cl_kernel k = kernel("global_race_between_groups");
  arg(k, 0, buffer(std::vector<int>(32)));
  // Work-groups run in order (LANEWISE_DETERMINISTIC): work-item 16, first
  // of group 1, writes out[15], which work-item 15 of group 0 wrote.
  const std::vector<Finding> findings = run(k, {32}, {16});
  expectFinding(findings, "data-race", "global_race_between_groups", {16, 0, 0});
  // The report names the other access: work-item 15's `out[g] = (int)g;`,
  // two lines above the BUG line.
  ASSERT_FALSE(findings.empty());
  if (withDebugInfo()) {
    const std::string otherLine =
        "bugs.cl:" + std::to_string(markedLine("global_race_between_groups") - 2) + ":";
    EXPECT_NE(findings.front().message.find(otherLine), std::string::npos)
        << findings.front().message;
  }
}

// The races of dense accesses, which the check records per 64-byte line.
TEST_P(CheckedMode, DenseGlobalMemoryRaceBetweenWorkGroups) {
  cl_kernel k = kernel("global_race_dense_between_groups");
  arg(k, 0, buffer(std::vector<int>(64)));
  // Work-item 64, first of group 1, writes out[0], which work-item 0 of
  // group 0 wrote, by the same line of the kernel.
  const std::vector<Finding> findings = run(k, {128}, {64});
  expectFinding(findings, "data-race", "global_race_dense_between_groups", {64, 0, 0});
  expectOther(findings, "global_race_dense_between_groups",
              "local linear id 0 of work-group (0,0,0)", 0);
  expectOther(findings, "global_race_dense_between_groups", "its access: OpStore");
}

TEST_P(CheckedMode, DenseGlobalMemoryRaceWithinAWorkGroup) {
  cl_kernel k = kernel("global_race_dense_in_group");
  arg(k, 0, buffer(std::vector<int>(128)));
  arg(k, 1, buffer(std::vector<int>(128)));
  // Work-item 0 reads data[16], which work-item 16 wrote.
  const std::vector<Finding> findings = run(k, {128}, {64});
  expectFinding(findings, "data-race", "global_race_dense_in_group", {0, 0, 0});
  expectOther(findings, "global_race_dense_in_group", "local linear id 16 of the same work-group");
}

TEST_P(CheckedMode, DenseGlobalMemoryRaceOfVectors) {
  cl_kernel k = kernel("global_race_dense_long4");
  arg(k, 0, buffer(std::vector<cl_long>(4 * 128)));
  arg(k, 1, buffer(std::vector<cl_long>(4 * 128)));
  // 32-byte elements, two to a line: work-item 0 reads data[2], which
  // work-item 2 wrote.
  const std::vector<Finding> findings = run(k, {128}, {64});
  expectFinding(findings, "data-race", "global_race_dense_long4", {0, 0, 0});
  expectOther(findings, "global_race_dense_long4", "local linear id 2 of the same work-group");
}

TEST_P(CheckedMode, DenseReadOfScatteredWrites) {
  cl_kernel k = kernel("global_race_scattered_then_dense");
  arg(k, 0, buffer(std::vector<int>(128)));
  arg(k, 1, buffer(std::vector<int>(128)));
  // Work-item 0 reads its own write; work-item 1 reads data[1], which
  // work-item 49 wrote (49 * 17 = 13 * 64 + 1).
  const std::vector<Finding> findings = run(k, {128}, {64});
  expectFinding(findings, "data-race", "global_race_scattered_then_dense", {1, 0, 0});
  expectOther(findings, "global_race_scattered_then_dense",
              "local linear id 49 of the same work-group");
}

TEST_P(CheckedMode, RaceOnAVectorOfALineSharedByInstructions) {
  cl_kernel k = kernel("global_race_vectors_in_a_line");
  arg(k, 0, buffer(std::vector<float>(8 * 32)));
  arg(k, 1, buffer(std::vector<float>(4 * 32)));
  // Work-item 16, first of group 1, writes data[125], which work-item 15
  // of group 0 read by its second vload4, three lines above the BUG line.
  const std::vector<Finding> findings = run(k, {32}, {16});
  expectFinding(findings, "data-race", "global_race_vectors_in_a_line", {16, 0, 0});
  expectOther(findings, "global_race_vectors_in_a_line", "local linear id 15 of work-group (0,0,0)",
              3);
}

TEST_P(CheckedMode, RaceOnALineOfOneWorkItemsVectors) {
  cl_kernel k = kernel("global_race_line_of_one_work_item");
  arg(k, 0, buffer(std::vector<float>(16 * 32)));
  arg(k, 1, buffer(std::vector<float>(4 * 32)));
  // Work-item 16, first of group 1, writes data[241], which work-item 15
  // of group 0 read by its first vload4, four lines above the BUG line.
  const std::vector<Finding> findings = run(k, {32}, {16});
  expectFinding(findings, "data-race", "global_race_line_of_one_work_item", {16, 0, 0});
  expectOther(findings, "global_race_line_of_one_work_item",
              "local linear id 15 of work-group (0,0,0)", 4);
}

TEST_P(CheckedMode, DenseAccessesOrderedByAGlobalBarrier) {
  cl_kernel k = kernel("dense_ordered_by_a_global_barrier");
  cl_mem data = buffer(std::vector<int>(128)), out = buffer(std::vector<int>(128, -1));
  arg(k, 0, data);
  arg(k, 1, out);
  // Twice: the second launch finds the first's record, which is older.
  EXPECT_TRUE(run(k, {128}, {64}).empty());
  EXPECT_TRUE(run(k, {128}, {64}).empty());
  const std::vector<int> got = readInts(out, 128);
  for (int g = 0; g < 128; ++g)
    EXPECT_EQ(got[g], g % 64 < 48 ? g + 16 : -1) << "work-item " << g;
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

TEST_P(CheckedMode, EveryWorkItemWritingOneElementRaces) {
  cl_kernel k = kernel("every_work_item_writes_one_element");
  arg(k, 0, buffer(iota(16, 0)));
  arg(k, 1, buffer(std::vector<int>(1)));
  // One address for the whole warp: work-item 1 writes what work-item 0 wrote.
  expectFinding(run(k, {16}, {16}), "data-race", "every_work_item_writes_one_element",
                {1, 0, 0});
}

// Sub-groups are 16 work-items unless a kernel requires another size.
TEST_P(CheckedMode, UniformSubgroupOperationInDivergentControlFlow) {
  cl_kernel k = kernel("subgroup_reduce_in_branch");
  arg(k, 0, buffer(std::vector<int>(32)));
  // Work-items 0 to 3 reach sub_group_reduce_add; 4 is the first that does not.
  expectFinding(run(k, {32}, {32}), "subgroup-divergence", "subgroup_reduce_in_branch",
                {4, 0, 0});
}

TEST_P(CheckedMode, ShuffleFromOutsideTheSubgroup) {
  cl_kernel k = kernel("shuffle_out_of_range");
  arg(k, 0, buffer(std::vector<int>(32)));
  // Lane 13 reads lane 16 of a 16-lane sub-group.
  expectFinding(run(k, {32}, {32}), "subgroup-bad-lane", "shuffle_out_of_range", {13, 0, 0});
}

TEST_P(CheckedMode, ShuffleFromAnInactiveLane) {
  cl_kernel k = kernel("shuffle_from_inactive_lane");
  arg(k, 0, buffer(std::vector<int>(32)));
  // Even lanes read odd lanes, which did not take the branch.
  expectFinding(run(k, {32}, {32}), "subgroup-bad-lane", "shuffle_from_inactive_lane",
                {0, 0, 0});
}

TEST_P(CheckedMode, ShuffleDownResultUsedPastTheEndOfTheSubGroup) {
  if (std::string(GetParam()) == "bugs-O0")
    GTEST_SKIP() << "not seen at -O0, where the shuffle's result goes through a private "
                    "variable before it is used (docs/debugging.md)";
  cl_kernel k = kernel("shuffle_down_past_the_end");
  arg(k, 0, buffer(std::vector<int>(32)));
  // Lanes 8-15 of each sub-group of 16 read lanes 16-23, which do not
  // exist; the store of their sums is reported, at lane 8 first.
  expectFinding(run(k, {32}, {32}), "subgroup-bad-lane", "shuffle_down_past_the_end", {8, 0, 0});
}

// The scan and reduction idioms read outside the sub-group and discard what
// they read there: no finding, and the results are the host's.
TEST_P(CheckedMode, RelativeShufflesWhoseUndefinedResultsAreDiscarded) {
  cl_kernel k = kernel("correct_shuffle_scan");
  const std::vector<int> in = iota(32, -7);
  cl_mem scan = buffer(std::vector<int>(32)), sum = buffer(std::vector<int>(2));
  arg(k, 0, buffer(in));
  arg(k, 1, scan);
  arg(k, 2, sum);
  EXPECT_TRUE(run(k, {32}, {32}).empty());
  const std::vector<int> gotScan = readInts(scan, 32), gotSum = readInts(sum, 2);
  for (int group = 0; group < 2; ++group) {
    int running = 0;
    for (int lane = 0; lane < 16; ++lane) {
      running += in[group * 16 + lane];
      EXPECT_EQ(gotScan[group * 16 + lane], running) << "work-item " << group * 16 + lane;
    }
    EXPECT_EQ(gotSum[group], running) << "sub-group " << group;
  }
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

// The checked mode's own first false finding: a float2 built a component
// at a time. Every composite built so is silent, with the right values.
TEST_P(CheckedMode, CompositesBuiltFieldByFieldHaveNoFindings) {
  cl_kernel k = kernel("correct_field_by_field");
  const int items = 32;
  std::vector<float> in(items);
  for (int i = 0; i < items; ++i)
    in[i] = float(i % 7);
  cl_mem out = buffer(std::vector<float>(items));
  struct Padded {
    cl_char tag;
    cl_float value;
    cl_short count;
  };
  cl_mem records = buffer(std::vector<Padded>(items));
  arg(k, 0, buffer(in));
  arg(k, 1, out);
  arg(k, 2, records);
  const auto findings = run(k, {items}, {16});
  EXPECT_TRUE(findings.empty()) << findings.front().kind << ": " << findings.front().message;
  std::vector<float> got(items);
  ASSERT_EQ(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, items * sizeof(float), got.data(), 0,
                                nullptr, nullptr),
            CL_SUCCESS);
  for (int i = 0; i < items; ++i) {
    const float v = in[i];
    float sum = v * 2 + v + 1 + v + 2 + v * 3 + float(int(v) + 6) + v + 1 + 2 + 3;
    for (int j = 0; j < 8; ++j)
      sum += v + j;
    for (int j = 0; j < 3; ++j)
      sum += v + j + v - j;
    EXPECT_FLOAT_EQ(got[i], sum) << "work-item " << i;
  }
}

// A component never written, or read before it is written, is found where
// it is used. The checked mode builds source programs unoptimised; -O2 has
// already chosen a value for the undefined component (folding the branch
// away, or making the stored vector a constant with an undefined component,
// as it makes every 3-vector it stores as four), so its build has nothing
// left to find.
class CheckedComponents : public CheckedMode {
protected:
  // Work-item 0's uninitialised read at the BUG line in the -O0 build;
  // nothing in the optimised ones.
  void expectFindingUnoptimisedOnly(const std::vector<Finding> &findings, const char *name) {
    if (std::string(GetParam()) == "bugs-O0")
      expectFinding(findings, "uninitialised-read", name, {0, 0, 0});
    else
      EXPECT_TRUE(findings.empty());
  }
};

TEST_P(CheckedComponents, VectorComponentNeverWrittenIsFoundWhereStored) {
  cl_kernel k = kernel("vector_component_unwritten");
  arg(k, 0, buffer(std::vector<float>(32, 1.0f)));
  arg(k, 1, buffer(std::vector<cl_float4>(32)));
  expectFindingUnoptimisedOnly(run(k, {32}, {16}), "vector_component_unwritten");
}

TEST_P(CheckedComponents, VectorComponentReadBeforeWrittenIsFoundWhereItDecides) {
  cl_kernel k = kernel("vector_component_read_first");
  arg(k, 0, buffer(iota(32)));
  arg(k, 1, buffer(std::vector<int>(32)));
  expectFindingUnoptimisedOnly(run(k, {32}, {16}), "vector_component_read_first");
}

TEST_P(CheckedMode, CorrectKernelsHaveNoFindings) {
  cl_kernel stencil = kernel("correct_stencil");
  arg(stencil, 0, buffer(std::vector<float>(64, 1.0f)));
  arg(stencil, 1, buffer(std::vector<float>(64)));
  localArg(stencil, 2, 16 * sizeof(float));
  EXPECT_TRUE(run(stencil, {64}, {16}).empty());
  cl_kernel vectors = kernel("correct_vectors");
  arg(vectors, 0, buffer(std::vector<float>(16 * 3, 2.0f)));
  arg(vectors, 1, buffer(std::vector<float>(16 * 3)));
  arg(vectors, 2, cl_int{16});
  EXPECT_TRUE(run(vectors, {16}, {8}).empty());
  cl_kernel exchange = kernel("correct_global_exchange");
  arg(exchange, 0, buffer(std::vector<int>(32)));
  arg(exchange, 1, buffer(std::vector<int>(16)));
  EXPECT_TRUE(run(exchange, {32}, {16}).empty());
  // A second launch on the same memory: the first launch's accesses are
  // ordered before it.
  EXPECT_TRUE(run(exchange, {32}, {16}).empty());
  // Values undefined on some work-items' paths and used only where defined.
  cl_kernel guarded = kernel("correct_guarded_register");
  const int n = 4, items = 32;
  std::vector<int> in(items * n);
  for (int i = 0; i < items; ++i)
    for (int j = 0; j < n; ++j)
      in[i * n + j] = i % 4 == 1 ? -1 - j : (i + j) % 5 - 2;
  cl_mem out = buffer(std::vector<int>(items * n));
  arg(guarded, 0, buffer(in));
  arg(guarded, 1, out);
  arg(guarded, 2, buffer(std::vector<cl_float4>(items)));
  arg(guarded, 3, cl_int{n});
  EXPECT_TRUE(run(guarded, {items}, {16}).empty());
  const std::vector<int> got = readInts(out, items * n);
  for (int i = 0; i < items; ++i) {
    int last = -1;
    for (int j = 0; j < n; ++j)
      if (in[i * n + j] > 0)
        last = j;
    for (int j = 0; j < n; ++j) {
      const int expected = j == 0 && in[i * n] < 0 ? in[i * n + 1] * 3 : last;
      EXPECT_EQ(got[i * n + j], expected) << "work-item " << i << " element " << j;
    }
  }
}

// Without the build option (and LANEWISE_CHECK unset) nothing is checked.
TEST_P(CheckedMode, OffWithoutTheOption) {
  cl_kernel k = kernel("division_by_zero", "");
  arg(k, 0, buffer(iota(16, -5)));
  arg(k, 1, buffer(std::vector<int>(16)));
  EXPECT_TRUE(run(k, {16}, {16}).empty());
}

// A check list selects checks: alignment alone reports no division.
TEST_P(CheckedMode, OnlyTheListedChecks) {
  cl_kernel k = kernel("division_by_zero", "-lanewise-check=alignment,bounds");
  arg(k, 0, buffer(iota(16, -5)));
  arg(k, 1, buffer(std::vector<int>(16)));
  EXPECT_TRUE(run(k, {16}, {16}).empty());
}

// LANEWISE_CHECK_ABORT: the first finding stops the launch; its event gets
// a negative status, clFinish reports it, and later commands run.
TEST_P(CheckedMode, AbortOnTheFirstFinding) {
  cl_kernel k = kernel("global_write_past_end");
  cl_mem out = buffer(std::vector<int>(256, -1));
  arg(k, 0, out);
  setenv("LANEWISE_CHECK_ABORT", "1", 1);
  const size_t global = 256, local = 16;
  cl_event event = nullptr;
  ASSERT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, &local, 0, nullptr, &event),
            CL_SUCCESS);
  EXPECT_EQ(clFinish(queue), CL_OUT_OF_RESOURCES);
  unsetenv("LANEWISE_CHECK_ABORT");
  cl_int status = 0;
  ASSERT_EQ(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                           nullptr),
            CL_SUCCESS);
  EXPECT_LT(status, 0);
  clReleaseEvent(event);
  EXPECT_EQ(readFindings(report_).size(), 1u);
  // The queue goes on.
  cl_kernel good = kernel("correct_vectors");
  arg(good, 0, buffer(std::vector<float>(48, 1.0f)));
  arg(good, 1, buffer(std::vector<float>(48)));
  arg(good, 2, cl_int{16});
  const size_t sixteen = 16;
  ASSERT_EQ(clEnqueueNDRangeKernel(queue, good, 1, nullptr, &sixteen, nullptr, 0, nullptr,
                                   nullptr),
            CL_SUCCESS);
  EXPECT_EQ(clFinish(queue), CL_SUCCESS);
}

std::string buildName(const ::testing::TestParamInfo<const char *> &info) {
  const std::string name = info.param;
  return name == "bugs" ? std::string("O2") : name.substr(5);
}
INSTANTIATE_TEST_SUITE_P(Builds, CheckedMode,
                         ::testing::Values("bugs", "bugs-O0", "bugs-nodebug"), buildName);
INSTANTIATE_TEST_SUITE_P(Builds, CheckedImages,
                         ::testing::Values("bugs", "bugs-O0", "bugs-nodebug"), buildName);
INSTANTIATE_TEST_SUITE_P(Builds, CheckedComponents,
                         ::testing::Values("bugs", "bugs-O0", "bugs-nodebug"), buildName);

// An argument never set: CL_INVALID_KERNEL_ARGS, and the context's callback
// hears which one.
void CL_CALLBACK collect(const char *message, const void *, size_t, void *data) {
  static_cast<std::vector<std::string> *>(data)->push_back(message);
}

TEST(CheckedModeApi, UnsetArgumentIsNamedAtEnqueue) {
  cl_device_id device = testDevice();
  std::vector<std::string> messages;
  cl_int err = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, collect, &messages, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
  const std::vector<char> il = readBinary(std::string(LANEWISE_KERNEL_DIR) + "/bugs.spv");
  cl_program program = clCreateProgramWithIL(context, il.data(), il.size(), &err);
  ASSERT_EQ(clBuildProgram(program, 1, &device, "", nullptr, nullptr), CL_SUCCESS);
  cl_kernel k = clCreateKernel(program, "global_read_before_start", &err);
  cl_mem in = clCreateBuffer(context, CL_MEM_READ_WRITE, 64, nullptr, &err);
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof in, &in), CL_SUCCESS);
  const size_t global = 16;
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
            CL_INVALID_KERNEL_ARGS);
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_NE(messages[0].find("argument 1 'out'"), std::string::npos) << messages[0];
  EXPECT_NE(messages[0].find("global_read_before_start"), std::string::npos) << messages[0];
  clReleaseMemObject(in);
  clReleaseKernel(k);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
}

// From source with -g: the report names program.cl and the line; the text
// report (LANEWISE_CHECK_FILE) counts the repeats it suppressed.
// Runs `k` over `global` work-items and returns the text report
// (LANEWISE_CHECK_FILE) of its findings.
std::string textReport(cl_command_queue queue, cl_kernel k, size_t global) {
  char pattern[] = "/tmp/lanewise-report-XXXXXX";
  const int fd = mkstemp(pattern);
  EXPECT_GE(fd, 0);
  close(fd);
  setenv("LANEWISE_CHECK_FILE", pattern, 1);
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(clFinish(queue), CL_SUCCESS);
  unsetenv("LANEWISE_CHECK_FILE");
  std::ifstream file(pattern);
  std::stringstream text;
  text << file.rdbuf();
  std::remove(pattern);
  return text.str();
}

TEST(CheckedModeApi, SourceProgramTextReport) {
  cl_device_id device = testDevice();
  cl_int err = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
  const char *source = "kernel void scale(global float *data) {\n"
                       "  size_t i = get_global_id(0);\n"
                       "  data[i + 4] *= 2.0f;\n"
                       "}\n";
  cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &err);
  ASSERT_EQ(clBuildProgram(program, 1, &device, "-g -lanewise-check=bounds", nullptr, nullptr),
            CL_SUCCESS);
  cl_kernel k = clCreateKernel(program, "scale", &err);
  cl_mem data = clCreateBuffer(context, CL_MEM_READ_WRITE, 64 * sizeof(float), nullptr, &err);
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof data, &data), CL_SUCCESS);
  const std::string report = textReport(queue, k, 64);
  // Work-items 60..63 read past the end: one report, three repeats.
  EXPECT_NE(report.find("out-of-bounds in kernel 'scale' at program.cl:3:"), std::string::npos)
      << report;
  EXPECT_NE(report.find("global (60,0,0)"), std::string::npos) << report;
  EXPECT_NE(report.find("0 bytes past the end of buffer argument 0 'data' (256 bytes)"),
            std::string::npos)
      << report;
  EXPECT_NE(report.find("suppressed"), std::string::npos) << report;
  clReleaseMemObject(data);
  clReleaseKernel(k);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
}

// Applications build once and then load their own cached binary: a
// Lanewise binary of a source program keeps the source and the options,
// and a checked build of it is rebuilt from them, so that the report names
// the source line even though the cached binary has no debug information.
TEST(CheckedModeApi, ProgramFromCachedBinaryReportsSourceLines) {
  cl_device_id device = testDevice();
  cl_int err = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
  const char *source = "kernel void scale(global float *data) {\n"
                       "  size_t i = get_global_id(0);\n"
                       "  data[i + OFFSET] *= 2.0f;\n"
                       "}\n";
  cl_program original = clCreateProgramWithSource(context, 1, &source, nullptr, &err);
  ASSERT_EQ(clBuildProgram(original, 1, &device, "-D OFFSET=4", nullptr, nullptr), CL_SUCCESS);
  size_t size = 0;
  ASSERT_EQ(clGetProgramInfo(original, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr),
            CL_SUCCESS);
  std::vector<unsigned char> binary(size);
  unsigned char *pointer = binary.data();
  ASSERT_EQ(clGetProgramInfo(original, CL_PROGRAM_BINARIES, sizeof pointer, &pointer, nullptr),
            CL_SUCCESS);
  clReleaseProgram(original);

  const unsigned char *binaries[] = {binary.data()};
  cl_int status = CL_SUCCESS;
  cl_program program =
      clCreateProgramWithBinary(context, 1, &device, &size, binaries, &status, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  // The application passes no options for its binary; the checks come from
  // the build option (or LANEWISE_CHECK).
  ASSERT_EQ(clBuildProgram(program, 1, &device, "-lanewise-check=bounds", nullptr, nullptr),
            CL_SUCCESS);
  cl_kernel k = clCreateKernel(program, "scale", &err);
  cl_mem data = clCreateBuffer(context, CL_MEM_READ_WRITE, 64 * sizeof(float), nullptr, &err);
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof data, &data), CL_SUCCESS);
  const std::string report = textReport(queue, k, 64);
  // OFFSET from the kept options: work-items 60..63 write past the end.
  EXPECT_NE(report.find("out-of-bounds in kernel 'scale' at program.cl:3:"), std::string::npos)
      << report;
  EXPECT_NE(report.find("global (60,0,0)"), std::string::npos) << report;
  clReleaseMemObject(data);
  clReleaseKernel(k);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
}

} // namespace
} // namespace lanewise::test
