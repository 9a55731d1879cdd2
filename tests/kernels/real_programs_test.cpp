// SPDX-License-Identifier: Apache-2.0
// Patterns of real programs (PyOpenCL's algorithms and complex math,
// Random123, SPIR-V from older translators) that Lanewise once built wrong
// or refused: each kernel of cl/real_programs.cl at -O2 and -O0, and
// cl/builtin_forms.spvasm. Expected values are computed here from the OpenCL
// C rules: a union or pointer cast reinterprets the bytes in memory, little
// end first (OpenCL C 3.0, 6.5.4.1 and 6.2.4.1).
#include "harness.h"

#include <cstring>
#include <fstream>
#include <iterator>

namespace lanewise::test {
namespace {

constexpr const char *kFile = "real_programs";

class RealPrograms : public KernelTest, public ::testing::WithParamInterface<const char *> {
protected:
  cl_kernel load(const char *name) { return kernel(kFile, name, GetParam()); }
};

// Bit patterns an ordinary copy would not give: reinterpreting must not
// convert.
template <typename To, typename From> To bitsOf(const From &from) {
  static_assert(sizeof(To) == sizeof(From));
  To to;
  std::memcpy(&to, &from, sizeof to);
  return to;
}

TEST_P(RealPrograms, RestrictPointersInlined) {
  const size_t n = 64;
  std::vector<float> b(2 * n);
  for (size_t k = 0; k < b.size(); ++k)
    b[k] = 0.25f * float(k) - 3.0f;
  cl_mem a = buffer<float>(2 * n), c = buffer<float>(2 * n);
  cl_kernel k = load("restrict_inlined");
  setArgs(k, a, buffer(b), c);
  run(k, {n});
  const std::vector<float> gotA = read<float>(a, 2 * n), gotC = read<float>(c, 2 * n);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(gotA[2 * i], 2 * b[2 * i]) << i;
    EXPECT_EQ(gotC[2 * i], 3 * b[2 * i]) << i;
    EXPECT_EQ(gotC[2 * i + 1], 2 * b[2 * i + 1]) << i;
    EXPECT_EQ(gotA[2 * i + 1], 3 * b[2 * i + 1]) << i;
  }
}

// The -O2 module really carries the aliasing hints this test is about.
TEST(RealProgramsModule, OptimisedModuleDeclaresMemoryAccessAliasing) {
  std::ifstream file(std::string(LANEWISE_KERNEL_DIR) + "/real_programs.spv", std::ios::binary);
  const std::vector<char> bytes{std::istreambuf_iterator<char>(file),
                                std::istreambuf_iterator<char>()};
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  bool declared = false;
  for (size_t at = 5; at < words.size() && (words[at] >> 16) != 0; at += words[at] >> 16)
    declared |= (words[at] & 0xffff) == 17 /* OpCapability */ && at + 1 < words.size() &&
                words[at + 1] == 5910 /* MemoryAccessAliasingINTEL */;
  EXPECT_TRUE(declared);
}

TEST_P(RealPrograms, ReturnsAfterNestedCalls) {
  std::vector<cl_uint> in(100);
  for (size_t k = 0; k < in.size(); ++k)
    in[k] = cl_uint(k * 7 + (k >> 2));
  cl_mem out = buffer<cl_uint>(in.size());
  cl_kernel k = load("nested_returns");
  setArgs(k, buffer(in), out);
  run(k, {in.size()});
  const std::vector<cl_uint> got = read<cl_uint>(out, in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const cl_uint x = in[i];
    const cl_uint branches = (x & 1) ? 2 * x + 3 : (x & 2) ? 2 * x + 1 : x;
    EXPECT_EQ(got[i], (2 * x + 1) * 1000 + branches) << "x " << x;
  }
}

TEST_P(RealPrograms, UnionOfStructReturnedByACallReadAsVector) {
  std::vector<cl_uint> seeds(77);
  for (size_t k = 0; k < seeds.size(); ++k)
    seeds[k] = cl_uint(k * 0x9e3779b9u);
  cl_mem out = buffer<cl_uint>(4 * seeds.size());
  cl_kernel k = load("union_struct_to_vector");
  setArgs(k, buffer(seeds), out);
  run(k, {seeds.size()});
  const std::vector<cl_uint> got = read<cl_uint>(out, 4 * seeds.size());
  for (size_t i = 0; i < seeds.size(); ++i)
    for (cl_uint j = 0; j < 4; ++j)
      EXPECT_EQ(got[4 * i + j], seeds[i] * 2654435761u + j) << i << "." << j;
}

TEST_P(RealPrograms, UnionOfFloatAndUint) {
  const std::vector<float> in = {0.0f, -0.0f, 1.0f, -2.5f, 3.4028235e38f, 1e-45f, 0.1f,
                                 std::numeric_limits<float>::infinity()};
  cl_mem out = buffer<cl_uint>(in.size());
  cl_kernel k = load("union_float_bits");
  setArgs(k, buffer(in), out);
  run(k, {in.size()});
  const std::vector<cl_uint> got = read<cl_uint>(out, in.size());
  for (size_t i = 0; i < in.size(); ++i)
    EXPECT_EQ(got[i], bitsOf<cl_uint>(in[i])) << in[i];
}

TEST_P(RealPrograms, UnionOfBytesAndInt4) {
  const size_t n = 9;
  std::vector<cl_uchar> in(16 * n);
  for (size_t k = 0; k < in.size(); ++k)
    in[k] = cl_uchar(k * 37 + 11);
  cl_mem out = buffer<cl_int>(4 * n);
  cl_kernel k = load("union_bytes_to_int4");
  setArgs(k, buffer(in), out);
  run(k, {n});
  const std::vector<cl_int> got = read<cl_int>(out, 4 * n);
  std::vector<cl_int> want(4 * n);
  std::memcpy(want.data(), in.data(), in.size());
  EXPECT_EQ(got, want);
}

TEST_P(RealPrograms, UnionOfVectorAndStructArray) {
  const size_t n = 10;
  std::vector<cl_uint> in(4 * n);
  for (size_t k = 0; k < in.size(); ++k)
    in[k] = cl_uint(0x01020304u * k + 0xfedc0000u);
  cl_mem out = buffer<cl_ushort>(8 * n);
  cl_kernel k = load("union_vector_to_struct_array");
  setArgs(k, buffer(in), out);
  run(k, {n});
  const std::vector<cl_ushort> got = read<cl_ushort>(out, 8 * n);
  for (size_t w = 0; w < in.size(); ++w) {
    EXPECT_EQ(got[2 * w], cl_ushort(in[w] & 0xffff)) << w;
    EXPECT_EQ(got[2 * w + 1], cl_ushort(in[w] >> 16)) << w;
  }
}

TEST_P(RealPrograms, UnionOfShort2AndChar4) {
  std::vector<cl_short> in = {0, 1, -1, 0x7f80, -32768, 0x1234, 0x00ff, -2};
  cl_mem out = buffer<cl_char>(2 * in.size());
  cl_kernel k = load("union_short2_to_char4");
  setArgs(k, buffer(in), out);
  run(k, {in.size() / 2});
  const std::vector<cl_char> got = read<cl_char>(out, 2 * in.size());
  std::vector<cl_char> want(2 * in.size());
  std::memcpy(want.data(), in.data(), want.size());
  EXPECT_EQ(got, want);
}

TEST_P(RealPrograms, PrivateArrayReadAsVector) {
  const size_t n = 33;
  std::vector<float> in(4 * n);
  for (size_t k = 0; k < in.size(); ++k)
    in[k] = float(k) * 0.5f - 7.0f;
  cl_mem out = buffer<float>(4 * n);
  cl_kernel k = load("array_as_vector");
  setArgs(k, buffer(in), out);
  run(k, {n});
  const std::vector<float> got = read<float>(out, 4 * n);
  for (size_t k2 = 0; k2 < in.size(); ++k2)
    EXPECT_EQ(got[k2], in[k2] * 2.0f) << k2;
}

TEST_P(RealPrograms, PrivateVectorReadAsArray) {
  const size_t n = 33;
  std::vector<float> in(4 * n);
  for (size_t k = 0; k < in.size(); ++k)
    in[k] = float(k) * 0.25f - 2.0f;
  cl_mem out = buffer<float>(4 * n);
  cl_kernel k = load("vector_as_array");
  setArgs(k, buffer(in), out);
  run(k, {n});
  const std::vector<float> got = read<float>(out, 4 * n);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < 4; ++j)
      EXPECT_EQ(got[4 * i + j], in[4 * i + 3 - j] + 1.0f) << i << "." << j;
}

TEST_P(RealPrograms, PrivateStructReadAsUlong) {
  std::vector<cl_uint> in = {0, 1, 0xffffffffu, 0x80000000u, 0x12345678u, 0x9abcdef0u, 7, 0};
  cl_mem out = buffer<cl_ulong>(in.size() / 2);
  cl_kernel k = load("struct_as_ulong");
  setArgs(k, buffer(in), out);
  run(k, {in.size() / 2});
  const std::vector<cl_ulong> got = read<cl_ulong>(out, in.size() / 2);
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_EQ(got[i], cl_ulong(in[2 * i]) | cl_ulong(in[2 * i + 1]) << 32) << i;
}

TEST_P(RealPrograms, ClusteredReductionWithTheClusterSizeInASwitch) {
  const size_t n = 72, local = 24; // sub-groups of the work-group: full and partial
  std::vector<cl_int> in(n);
  for (size_t i = 0; i < n; ++i)
    in[i] = cl_int(i * 7 % 23) - 5;
  cl_kernel k = load("clustered_reduce_switch");
  for (cl_uint cluster : {1u, 2u, 4u, 8u, 16u}) {
    cl_mem out = buffer<cl_int>(n), where = buffer<cl_uint>(2 * n);
    setArgs(k, buffer(in), out, where, cluster);
    run(k, {n}, {local});
    const std::vector<cl_int> got = read<cl_int>(out, n);
    const std::vector<cl_uint> ids = read<cl_uint>(where, 2 * n);
    // OpenCL C 3.0, cl_khr_subgroup_clustered_reduce: the sum over the
    // work-items of the sub-group whose local ids share id / cluster_size.
    for (size_t i = 0; i < n; ++i) {
      cl_int want = 0;
      for (size_t j = 0; j < n; ++j)
        if (ids[2 * j] == ids[2 * i] && ids[2 * j + 1] / cluster == ids[2 * i + 1] / cluster)
          want += in[j];
      EXPECT_EQ(got[i], want) << "cluster size " << cluster << ", work-item " << i;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Builds, RealPrograms, ::testing::Values("", "-O0"),
                         [](const auto &info) {
                           return std::string(info.param[0] ? "O0" : "O2");
                         });

// SPIR-V 1.0 translators: built-in variables in UniformConstant, imported by
// name, decorated through groups. Every work-item must see its own ids (a
// built-in read as an ordinary zero-filled global gave every work-item 0).
TEST_F(KernelTest, BuiltInVariablesAsOlderTranslatorsDeclareThem) {
  const size_t n = 300, local = 20;
  cl_mem out = buffer<cl_ulong>(n), ids = buffer<cl_ulong>(n);
  cl_kernel k = kernel("builtin_forms", "builtin_forms");
  setArgs(k, out, ids);
  run(k, {n}, {local});
  const std::vector<cl_ulong> got = read<cl_ulong>(out, n), gotIds = read<cl_ulong>(ids, n);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(got[i], i * 1000 + n) << i;
    EXPECT_EQ(gotIds[i], i % local) << i;
  }
}

} // namespace
} // namespace lanewise::test
