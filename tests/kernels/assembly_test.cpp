// SPDX-License-Identifier: Apache-2.0
// Core SPIR-V instructions clang-14 does not emit from OpenCL C, written in
// assembly (kernels in cl/core_instructions.spvasm). Expected values follow
// the SPIR-V 1.4 specification's definition of each instruction, computed
// here in C++.
#include "harness.h"

#include <bit>
#include <fstream>
#include <iterator>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace lanewise::test {
namespace {

constexpr const char *kFile = "core_instructions";

// ---- OpIAddCarry, OpISubBorrow, OpUMulExtended, OpSMulExtended ------------

class AssemblyExtended : public KernelTest {};

TEST_F(AssemblyExtended, ThirtyTwoBit) {
  const std::vector<cl_uint> a = {0,          1,          UINT_MAX,   UINT_MAX, 0x80000000u,
                                  0x7fffffff, 0x80000000u, 12345678,  0xdeadbeef, 5};
  const std::vector<cl_uint> b = {0,          UINT_MAX,   UINT_MAX,   1,        0x80000000u,
                                  0x7fffffff, 0x7fffffff, 0x9abcdef0, 0xfeedface, 7};
  const size_t n = a.size();
  cl_kernel k = kernel(kFile, "extended32");
  cl_mem out = buffer<cl_uint>(8 * n);
  setArgs(k, buffer(a), buffer(b), out);
  run(k, {n});
  const std::vector<cl_uint> got = read<cl_uint>(out, 8 * n);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t sum = uint64_t(a[i]) + b[i];
    const uint64_t uprod = uint64_t(a[i]) * b[i];
    const int64_t sprod = int64_t(int32_t(a[i])) * int32_t(b[i]);
    const cl_uint want[8] = {cl_uint(sum),          cl_uint(sum >> 32),
                             a[i] - b[i],           a[i] < b[i] ? 1u : 0u,
                             cl_uint(uprod),        cl_uint(uprod >> 32),
                             cl_uint(uint64_t(sprod)), cl_uint(uint64_t(sprod) >> 32)};
    for (int j = 0; j < 8; ++j)
      EXPECT_EQ(got[8 * i + j], want[j])
          << "a " << a[i] << " b " << b[i] << " result " << j
          << " (0/1 IAddCarry, 2/3 ISubBorrow, 4/5 UMulExtended, 6/7 SMulExtended)";
  }
}

TEST_F(AssemblyExtended, SixtyFourBit) {
  const cl_ulong max = ~0ull, minS = 1ull << 63, maxS = minS - 1;
  const std::vector<cl_ulong> a = {0, 1, max, max, minS, maxS, minS, 0x123456789abcdefull,
                                   0xfedcba9876543210ull, 3};
  const std::vector<cl_ulong> b = {0, max, max, 1, minS, maxS, maxS, 0x0fedcba987654321ull,
                                   0xfedcba9876543210ull, max};
  const size_t n = a.size();
  cl_kernel k = kernel(kFile, "extended64");
  cl_mem out = buffer<cl_ulong>(8 * n);
  setArgs(k, buffer(a), buffer(b), out);
  run(k, {n});
  const std::vector<cl_ulong> got = read<cl_ulong>(out, 8 * n);
  for (size_t i = 0; i < n; ++i) {
    const unsigned __int128 uprod = (unsigned __int128)a[i] * b[i];
    const __int128 sprod = (__int128)int64_t(a[i]) * int64_t(b[i]);
    const cl_ulong want[8] = {a[i] + b[i],
                              a[i] + b[i] < a[i] ? 1ull : 0ull,
                              a[i] - b[i],
                              a[i] < b[i] ? 1ull : 0ull,
                              cl_ulong(uprod),
                              cl_ulong(uprod >> 64),
                              cl_ulong((unsigned __int128)sprod),
                              cl_ulong((unsigned __int128)sprod >> 64)};
    for (int j = 0; j < 8; ++j)
      EXPECT_EQ(got[8 * i + j], want[j])
          << "a " << a[i] << " b " << b[i] << " result " << j
          << " (0/1 IAddCarry, 2/3 ISubBorrow, 4/5 UMulExtended, 6/7 SMulExtended)";
  }
}

// ---- OpSMod, OpSRem, OpFMod, OpFRem ----------------------------------------

// SMod: the remainder takes the sign of the divisor; SRem: of the dividend.
template <typename S> S smod(S a, S b) {
  const S r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? S(r + b) : r;
}

class AssemblyRemainder : public KernelTest {};

TEST_F(AssemblyRemainder, SModAndSRem32) {
  std::vector<int32_t> as = {7,  -7, 7,  -7, 6,  -6, 6, -6, 0,       0,       INT_MIN, INT_MIN,
                             INT_MAX, INT_MAX, -1, 1, INT_MIN, INT_MAX, 5, -5};
  std::vector<int32_t> bs = {3,  3,  -3, -3, 3,  3,  -3, -3, 5,      -5,      3,       -3,
                             -2,      INT_MIN, INT_MAX, INT_MIN, INT_MAX, INT_MIN, 1, -1};
  const size_t n = as.size();
  std::vector<cl_uint> a(as.begin(), as.end()), b(bs.begin(), bs.end());
  cl_kernel k = kernel(kFile, "imod32");
  cl_mem out = buffer<cl_uint>(2 * n);
  setArgs(k, buffer(a), buffer(b), out);
  run(k, {n});
  const std::vector<cl_uint> got = read<cl_uint>(out, 2 * n);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(int32_t(got[2 * i]), smod(as[i], bs[i])) << "SMod " << as[i] << ", " << bs[i];
    EXPECT_EQ(int32_t(got[2 * i + 1]), as[i] % bs[i]) << "SRem " << as[i] << ", " << bs[i];
  }
}

TEST_F(AssemblyRemainder, SModAndSRem64) {
  const int64_t mn = LLONG_MIN, mx = LLONG_MAX;
  std::vector<int64_t> as = {7, -7, 7, -7, 6, -6, 0, mn, mn, mx, mx, -1, 1, 10000000000ll,
                             -10000000000ll};
  std::vector<int64_t> bs = {3, 3, -3, -3, -3, 3, -5, 3, -3, -2, mn, mx, mn, -3000000007ll,
                             3000000007ll};
  const size_t n = as.size();
  std::vector<cl_ulong> a(as.begin(), as.end()), b(bs.begin(), bs.end());
  cl_kernel k = kernel(kFile, "imod64");
  cl_mem out = buffer<cl_ulong>(2 * n);
  setArgs(k, buffer(a), buffer(b), out);
  run(k, {n});
  const std::vector<cl_ulong> got = read<cl_ulong>(out, 2 * n);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(int64_t(got[2 * i]), smod(as[i], bs[i])) << "SMod " << as[i] << ", " << bs[i];
    EXPECT_EQ(int64_t(got[2 * i + 1]), as[i] % bs[i]) << "SRem " << as[i] << ", " << bs[i];
  }
}

// FRem: the sign of the dividend (C fmod). FMod: the sign of the divisor.
float fmodSpirv(float a, float b) {
  const float r = std::fmod(a, b);
  if (r != 0 && std::signbit(r) != std::signbit(b))
    return r + b;
  return r;
}

bool sameFloat(float got, float want, bool checkZeroSign) {
  if (std::isnan(want))
    return std::isnan(got);
  if (want == 0 && !checkZeroSign)
    return got == 0;
  return std::bit_cast<uint32_t>(got) == std::bit_cast<uint32_t>(want);
}

TEST_F(AssemblyRemainder, FModAndFRem) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> a = {5.5f, -5.5f, 5.5f, -5.5f, 6.0f, -6.0f, 0.0f,  -0.0f, 0.75f,
                          -0.75f, nan,  1.0f,  inf,  -inf, 3.0f, -2.5f, 1e30f, -7.25f};
  std::vector<float> b = {2.0f, 2.0f, -2.0f, -2.0f, 3.0f, 3.0f, 2.0f, 2.0f, 4.0f,
                          -4.0f, 2.0f, nan,  2.0f, 2.0f, inf, -inf, 3.0f, 0.5f};
  // x mod ±inf only with x of the sign of the divisor (FMod would be x + inf).
  const size_t n = a.size();
  cl_kernel k = kernel(kFile, "fmod32");
  cl_mem out = buffer<float>(2 * n);
  setArgs(k, buffer(a), buffer(b), out);
  run(k, {n});
  const std::vector<float> got = read<float>(out, 2 * n);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_TRUE(sameFloat(got[2 * i], fmodSpirv(a[i], b[i]), false))
        << "FMod " << a[i] << ", " << b[i] << ": got " << got[2 * i] << " want "
        << fmodSpirv(a[i], b[i]);
    EXPECT_TRUE(sameFloat(got[2 * i + 1], std::fmod(a[i], b[i]), true))
        << "FRem " << a[i] << ", " << b[i] << ": got " << got[2 * i + 1] << " want "
        << std::fmod(a[i], b[i]);
  }
}

// ---- pointers and memory -----------------------------------------------------

class AssemblyMemory : public KernelTest {};

// OpPtrEqual / OpPtrNotEqual are not tested: spirv-as --target-env spv1.2
// rejects them ("Invalid Opcode name 'OpPtrEqual'"). OpPtrDiff assembles.
TEST_F(AssemblyMemory, PtrDiffCountsElements) {
  const std::vector<cl_uint> idx = {0, 1, 5, 63, 17, 2};
  const size_t n = idx.size();
  cl_kernel k = kernel(kFile, "ptrdiff");
  cl_mem base = buffer<cl_uint>(64);
  cl_mem out = buffer<cl_ulong>(2 * n);
  setArgs(k, base, buffer(idx), out);
  run(k, {n});
  const std::vector<cl_ulong> got = read<cl_ulong>(out, 2 * n);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(int64_t(got[2 * i]), int64_t(idx[i])) << "PtrDiff(base + " << idx[i] << ", base)";
    EXPECT_EQ(int64_t(got[2 * i + 1]), -int64_t(idx[i]))
        << "PtrDiff(base, base + " << idx[i] << ")";
  }
}

TEST_F(AssemblyMemory, CopyMemorySizedCopiesVaryingByteCounts) {
  constexpr size_t n = 17; // work-item i copies i bytes of its 16-byte slot
  std::vector<cl_uchar> src(16 * n), dst(16 * n, 0xAA);
  for (size_t i = 0; i < src.size(); ++i)
    src[i] = cl_uchar(i * 7 + 1);
  std::vector<cl_uint> counts(n);
  for (size_t i = 0; i < n; ++i)
    counts[i] = cl_uint(i < 16 ? i : 16);
  cl_kernel k = kernel(kFile, "copy_sized");
  cl_mem d = buffer(dst);
  setArgs(k, d, buffer(src), buffer(counts));
  run(k, {n});
  const std::vector<cl_uchar> got = read<cl_uchar>(d, 16 * n);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < 16; ++j)
      EXPECT_EQ(got[16 * i + j], j < counts[i] ? src[16 * i + j] : cl_uchar(0xAA))
          << "work-item " << i << " (count " << counts[i] << ") byte " << j;
}

TEST_F(AssemblyMemory, CopyMemoryThroughAPrivateVariable) {
  constexpr size_t n = 9;
  std::vector<cl_uint> src(4 * n);
  for (size_t i = 0; i < src.size(); ++i)
    src[i] = cl_uint(0x9e3779b9u * (i + 1));
  cl_kernel k = kernel(kFile, "copy_memory");
  cl_mem d = buffer<cl_uint>(4 * n);
  setArgs(k, d, buffer(src));
  run(k, {n});
  EXPECT_EQ(read<cl_uint>(d, 4 * n), src);
}

// ---- vectors, logic, bits ------------------------------------------------------
// Not tested: OpSelect with a scalar condition on vectors (a SPIR-V 1.4 form
// the validation of a 1.2 module rejects) and OpBitReverse (needs the
// BitInstructions capability outside Shader modules, which Lanewise rejects).

class AssemblyComposite : public KernelTest {};

TEST_F(AssemblyComposite, VectorExtractAndInsertDynamic) {
  constexpr size_t n = 12;
  std::vector<cl_uint> vec(4 * n), idx(n), val(n);
  for (size_t i = 0; i < 4 * n; ++i)
    vec[i] = cl_uint(1000 + i);
  for (size_t i = 0; i < n; ++i) {
    idx[i] = cl_uint((i * 3) % 4);
    val[i] = i % 3 == 0 ? UINT_MAX : cl_uint(i);
  }
  cl_kernel k = kernel(kFile, "vector_dynamic");
  cl_mem outVec = buffer<cl_uint>(4 * n), outScalar = buffer<cl_uint>(n);
  setArgs(k, buffer(vec), buffer(idx), buffer(val), outVec, outScalar);
  run(k, {n}, {4});
  const std::vector<cl_uint> gotVec = read<cl_uint>(outVec, 4 * n);
  const std::vector<cl_uint> gotScalar = read<cl_uint>(outScalar, n);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(gotScalar[i], vec[4 * i + idx[i]]) << "extract, work-item " << i << " index "
                                                  << idx[i];
    for (size_t c = 0; c < 4; ++c)
      EXPECT_EQ(gotVec[4 * i + c], c == idx[i] ? val[i] : vec[4 * i + c])
          << "insert, work-item " << i << " index " << idx[i] << " component " << c;
  }
}

TEST_F(AssemblyComposite, AnyAllLogicalEqualNotEqual) {
  const std::vector<cl_uint> v = {0, 0, 0, 0,  1, 0, 0, 0,  0, 0, 0, UINT_MAX,
                                  1, 2, 3, 4,  5, 0, 7, 8,  UINT_MAX, UINT_MAX, UINT_MAX,
                                  UINT_MAX};
  const std::vector<cl_uint> a = {0, 0, 1, UINT_MAX, 2, 7};
  const std::vector<cl_uint> b = {0, 5, 0, 1, 0x80000000u, 0};
  const size_t n = a.size();
  cl_kernel k = kernel(kFile, "logical");
  cl_mem out = buffer<cl_uint>(4 * n);
  setArgs(k, buffer(v), buffer(a), buffer(b), out);
  run(k, {n});
  const std::vector<cl_uint> got = read<cl_uint>(out, 4 * n);
  for (size_t i = 0; i < n; ++i) {
    bool any = false, all = true;
    for (size_t c = 0; c < 4; ++c) {
      any = any || v[4 * i + c] != 0;
      all = all && v[4 * i + c] != 0;
    }
    const bool x = a[i] != 0, y = b[i] != 0;
    EXPECT_EQ(got[4 * i + 0], any ? 1u : 0u) << "Any, work-item " << i;
    EXPECT_EQ(got[4 * i + 1], all ? 1u : 0u) << "All, work-item " << i;
    EXPECT_EQ(got[4 * i + 2], x == y ? 1u : 0u) << "LogicalEqual " << x << ", " << y;
    EXPECT_EQ(got[4 * i + 3], x != y ? 1u : 0u) << "LogicalNotEqual " << x << ", " << y;
  }
}

TEST_F(AssemblyComposite, BitCount32) {
  const std::vector<cl_uint> in = {0, 1, UINT_MAX, 0x80000000u, 0x7fffffffu, 0x12345678u,
                                   0xf0f0f0f0u, 0xdeadbeefu};
  const size_t n = in.size();
  cl_kernel k = kernel(kFile, "bits32");
  cl_mem out = buffer<cl_uint>(n);
  setArgs(k, buffer(in), out);
  run(k, {n});
  const std::vector<cl_uint> got = read<cl_uint>(out, n);
  for (size_t i = 0; i < n; ++i)
    EXPECT_EQ(got[i], cl_uint(std::popcount(in[i]))) << "BitCount " << std::hex << in[i];
}

TEST_F(AssemblyComposite, BitCount64) {
  const std::vector<cl_ulong> in = {0, 1, ~0ull, 1ull << 63, (1ull << 63) - 1,
                                    0x0123456789abcdefull, 0xffffffff00000000ull, 0xfull << 30};
  const size_t n = in.size();
  cl_kernel k = kernel(kFile, "bits64");
  cl_mem out = buffer<cl_ulong>(n);
  setArgs(k, buffer(in), out);
  run(k, {n});
  const std::vector<cl_ulong> got = read<cl_ulong>(out, n);
  for (size_t i = 0; i < n; ++i)
    EXPECT_EQ(got[i], cl_ulong(std::popcount(in[i]))) << "BitCount " << std::hex << in[i];
}

// ---- conversions ---------------------------------------------------------------

class AssemblyConvert : public KernelTest {};

TEST_F(AssemblyConvert, SaturatingSignedUnsignedConversions) {
  const std::vector<int32_t> s = {0, 1, -1, 127, 128, 255, 256, INT_MIN, INT_MAX, -200};
  const std::vector<cl_uint> u = {0, 1, 127, 128, 255, UINT_MAX, 0x7fffffffu, 0x80000000u,
                                  1000, 0x7f};
  const size_t n = s.size();
  std::vector<cl_uint> sBits(s.begin(), s.end());
  cl_kernel k = kernel(kFile, "sat");
  cl_mem su8 = buffer<cl_uchar>(n), su32 = buffer<cl_uint>(n);
  cl_mem us8 = buffer<cl_uchar>(n), us32 = buffer<cl_uint>(n);
  setArgs(k, buffer(sBits), buffer(u), su8, su32, us8, us32);
  run(k, {n});
  const auto gotSu8 = read<cl_uchar>(su8, n);
  const auto gotSu32 = read<cl_uint>(su32, n);
  const auto gotUs8 = read<cl_uchar>(us8, n);
  const auto gotUs32 = read<cl_uint>(us32, n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t v = s[i];
    EXPECT_EQ(gotSu8[i], cl_uchar(v < 0 ? 0 : v > 255 ? 255 : v)) << "SatConvertSToU u8 " << v;
    EXPECT_EQ(gotSu32[i], cl_uint(v < 0 ? 0 : v)) << "SatConvertSToU u32 " << v;
    EXPECT_EQ(int8_t(gotUs8[i]), int8_t(u[i] > 127 ? 127 : u[i])) << "SatConvertUToS i8 " << u[i];
    EXPECT_EQ(int32_t(gotUs32[i]), int32_t(u[i] > 0x7fffffffu ? 0x7fffffffu : u[i]))
        << "SatConvertUToS i32 " << u[i];
  }
}

// ---- uniform control flow on kernel arguments ---------------------------------

class AssemblyControl : public KernelTest {};

TEST_F(AssemblyControl, BranchOnUniformArgument) {
  constexpr size_t n = 37;
  cl_kernel k = kernel(kFile, "uniform_branch");
  for (cl_uint flag : {0u, 1u, UINT_MAX}) {
    cl_mem out = buffer<cl_uint>(n);
    setArgs(k, out, flag);
    run(k, {n}, {});
    const std::vector<cl_uint> got = read<cl_uint>(out, n);
    for (cl_uint i = 0; i < n; ++i)
      ASSERT_EQ(got[i], flag ? 2 * i : i + 100) << "flag " << flag << " work-item " << i;
  }
}

TEST_F(AssemblyControl, SwitchOnUniformArgument) {
  constexpr size_t n = 37;
  cl_kernel k = kernel(kFile, "uniform_switch");
  for (cl_uint sel : {0u, 1u, 2u, 5u, 7u, 6u, UINT_MAX}) {
    cl_mem out = buffer<cl_uint>(n);
    setArgs(k, out, sel);
    run(k, {n}, {});
    const std::vector<cl_uint> got = read<cl_uint>(out, n);
    for (cl_uint i = 0; i < n; ++i) {
      const cl_uint want = sel == 0 ? i + 1 : sel == 1 ? 2 * i : (sel == 5 || sel == 7) ? i + 1000
                                                                                          : 7 - i;
      ASSERT_EQ(got[i], want) << "selector " << sel << " work-item " << i;
    }
  }
}

} // namespace
} // namespace lanewise::test

namespace lanewise::test {
namespace {

// OpAtomicFAddEXT / FMinEXT / FMaxEXT, contended across work-groups. The
// values are small integers in floats, so the sum is exact in any order.
using AssemblyAtomics = KernelTest;

TEST_F(AssemblyAtomics, FloatAddMinMaxContendedAcrossWorkGroups) {
  const int n = 1000;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i)
    in[i] = float((i * 37) % 101 - 50);
  cl_mem I = buffer(in), O = buffer(std::vector<float>{0.0f, 1000.0f, -1000.0f});
  cl_kernel k = kernel("float_atomics", "float_atomics");
  setArgs(k, I, O);
  run(k, {n}, {64});
  std::vector<float> out = read<float>(O, 3);
  float sum = 0, low = 1000, high = -1000;
  for (float v : in) {
    sum += v;
    low = std::min(low, v);
    high = std::max(high, v);
  }
  EXPECT_EQ(out[0], sum);
  EXPECT_EQ(out[1], low);
  EXPECT_EQ(out[2], high);
}

} // namespace
} // namespace lanewise::test

namespace lanewise::test {
namespace {

using AssemblyPointers = KernelTest;

// OpPtrEqual / OpPtrNotEqual compare addresses (SPIR-V 1.4).
TEST_F(AssemblyPointers, PtrEqualAndNotEqual) {
  const int n = 100;
  cl_mem I = buffer<cl_uint>(n), O = buffer<cl_uint>(n);
  cl_kernel k = kernel("pointer_compare_spv14", "pointer_compare");
  setArgs(k, I, O);
  run(k, {n});
  std::vector<cl_uint> out = read<cl_uint>(O, n);
  for (int i = 0; i < n; ++i)
    EXPECT_EQ(out[i], i % 2 == 0 ? 1u : 2u) << "at " << i;
}

// ---- OpVectorTimesScalar, OpCopyLogical -------------------------------------

class AssemblyVector : public KernelTest {};

TEST_F(AssemblyVector, VectorTimesScalarVaryingAndUniformScalars) {
  const size_t n = 70;
  std::vector<cl_float> in4(4 * n), s(n);
  std::vector<cl_double> ind(2 * n);
  for (size_t k = 0; k < in4.size(); ++k)
    in4[k] = 0.75f * float(k) - 40.0f;
  for (size_t i = 0; i < n; ++i)
    s[i] = float(i % 7) - 3.5f;
  for (size_t k = 0; k < ind.size(); ++k)
    ind[k] = 1.0 / double(k + 1) - 0.125;
  const cl_float uniform = -2.25f;
  const cl_double d = 3.0000000001;
  cl_mem out4 = buffer<cl_float>(8 * n), outd = buffer<cl_double>(2 * n);
  cl_kernel k = kernel("vector_logical_spv14", "vector_times_scalar");
  setArgs(k, buffer(in4), buffer(s), uniform, out4, buffer(ind), d, outd);
  run(k, {n});
  const std::vector<cl_float> got4 = read<cl_float>(out4, 8 * n);
  const std::vector<cl_double> gotd = read<cl_double>(outd, 2 * n);
  for (size_t i = 0; i < n; ++i) {
    for (size_t c = 0; c < 4; ++c) {
      EXPECT_EQ(got4[8 * i + c], in4[4 * i + c] * s[i]) << i << "." << c;
      EXPECT_EQ(got4[8 * i + 4 + c], in4[4 * i + c] * uniform) << i << "." << c;
    }
    for (size_t c = 0; c < 2; ++c)
      EXPECT_EQ(gotd[2 * i + c], ind[2 * i + c] * d) << i << "." << c;
  }
}

TEST_F(AssemblyVector, CopyLogicalBetweenMatchingStructs) {
  struct Pair {
    cl_uint u;
    cl_float f;
  };
  std::vector<Pair> pairs(45);
  for (size_t i = 0; i < pairs.size(); ++i)
    pairs[i] = {cl_uint(i * 0x01010101u), float(i) / 3.0f};
  cl_mem copies = buffer<Pair>(pairs.size());
  cl_kernel k = kernel("vector_logical_spv14", "copy_logical");
  setArgs(k, buffer(pairs), copies);
  run(k, {pairs.size()});
  const std::vector<Pair> got = read<Pair>(copies, pairs.size());
  for (size_t i = 0; i < pairs.size(); ++i) {
    EXPECT_EQ(got[i].u, pairs[i].u) << i;
    EXPECT_EQ(got[i].f, pairs[i].f) << i;
  }
}

// ---- Clustered reductions: cluster sizes of every constant form ------------

class AssemblyClusterSizes : public KernelTest {
protected:
  // Runs `name` over 40 work-items in work-groups of 20 (full and partial
  // sub-groups) and checks the clustered sum for `cluster`.
  void check(cl_kernel k, const char *name, cl_uint cluster) {
    const size_t n = 40, local = 20;
    std::vector<cl_uint> in(n);
    for (size_t i = 0; i < n; ++i)
      in[i] = cl_uint(i * i % 17 + 1);
    cl_mem out = buffer<cl_uint>(n), where = buffer<cl_uint>(2 * n);
    setArgs(k, buffer(in), out, where);
    run(k, {n}, {local});
    const std::vector<cl_uint> got = read<cl_uint>(out, n), ids = read<cl_uint>(where, 2 * n);
    for (size_t i = 0; i < n; ++i) {
      cl_uint want = 0;
      for (size_t j = 0; j < n; ++j)
        if (ids[2 * j] == ids[2 * i] && ids[2 * j + 1] / cluster == ids[2 * i + 1] / cluster)
          want += in[j];
      EXPECT_EQ(got[i], want) << name << ", cluster size " << cluster << ", work-item " << i;
    }
  }
};

TEST_F(AssemblyClusterSizes, ConstantsOfOtherWidths) {
  check(kernel("cluster_sizes_spv14", "cluster_size_ulong"), "64-bit constant", 4);
  check(kernel("cluster_sizes_spv14", "cluster_size_ushort"), "16-bit constant", 2);
}

TEST_F(AssemblyClusterSizes, SpecializationConstant) {
  check(kernel("cluster_sizes_spv14", "cluster_size_spec"), "default", 8);
  // clSetProgramSpecializationConstant before the build.
  std::ifstream file(std::string(LANEWISE_KERNEL_DIR) + "/cluster_sizes_spv14.spv",
                     std::ios::binary);
  const std::vector<char> il{std::istreambuf_iterator<char>(file),
                             std::istreambuf_iterator<char>()};
  cl_int error = CL_SUCCESS;
  cl_program program = clCreateProgramWithIL(context, il.data(), il.size(), &error);
  ASSERT_EQ(error, CL_SUCCESS);
  const cl_uint two = 2;
  ASSERT_EQ(clSetProgramSpecializationConstant(program, 7, sizeof two, &two), CL_SUCCESS);
  ASSERT_EQ(clBuildProgram(program, 1, &device, "", nullptr, nullptr), CL_SUCCESS);
  cl_kernel k = clCreateKernel(program, "cluster_size_spec", &error);
  ASSERT_EQ(error, CL_SUCCESS);
  check(k, "specialized", 2);
  clReleaseKernel(k);
  clReleaseProgram(program);
}

// ---- Core instructions of every family (cl/core_forms.spvasm) ------------

class AssemblyForms : public KernelTest {};

TEST_F(AssemblyForms, ArithmeticCompositeAndComparisonForms) {
  const float nan = std::numeric_limits<float>::quiet_NaN(),
              inf = std::numeric_limits<float>::infinity();
  const std::vector<cl_uint> u = {0, 1, 0x80000000u, 0xffffffffu, 12345, 7};
  // Pairs (f, g) covering less, equal, greater and unordered, and values
  // that round, overflow, underflow and keep their sign as halves.
  const std::vector<float> f = {1.0f, 2.0f, 3.0f, nan, 1.0f + 1.0f / 4096, 70000.0f,
                                -70000.0f, 1e-6f, -1e-6f, inf, -0.0f, 65504.0f};
  const std::vector<float> g = {2.0f, 2.0f, 2.0f, 1.0f, 1.0f, nan,
                                1.0f, 1.0f, 1.0f, 1.0f, 0.0f, 65504.0f};
  const size_t n = f.size();
  std::vector<cl_uint> in(n);
  for (size_t i = 0; i < n; ++i)
    in[i] = u[i % u.size()] * cl_uint(i + 1);
  cl_mem ou = buffer<cl_uint>(4 * n), ob = buffer<cl_uint>(7 * n), of = buffer<float>(n);
  cl_kernel k = kernel("core_forms", "arith_forms");
  setArgs(k, buffer(in), buffer(f), buffer(g), ou, ob, of);
  run(k, {n});
  const std::vector<cl_uint> gotU = read<cl_uint>(ou, 4 * n), gotB = read<cl_uint>(ob, 7 * n);
  const std::vector<float> gotF = read<float>(of, n);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(gotU[4 * i], cl_uint(0) - in[i]) << "OpSNegate " << in[i];
    EXPECT_EQ(gotU[4 * i + 1], ~in[i]) << "OpNot " << in[i];
    EXPECT_EQ(gotU[4 * i + 2], in[i] + 7) << "OpCompositeConstruct, OpCopyObject";
    EXPECT_EQ(gotU[4 * i + 3], 16u) << "OpSizeOf of { uint, ulong }";
    const bool unordered = std::isnan(f[i]) || std::isnan(g[i]);
    // SPIR-V: LessOrGreater is ordered; the FUnord comparisons are true when
    // either operand is NaN.
    const cl_uint want[7] = {cl_uint(!unordered && f[i] != g[i]),
                             cl_uint(unordered || f[i] == g[i]),
                             cl_uint(unordered || f[i] < g[i]),
                             cl_uint(unordered || f[i] > g[i]),
                             cl_uint(unordered || f[i] <= g[i]),
                             cl_uint(unordered || f[i] >= g[i]),
                             cl_uint(!(unordered || f[i] == g[i]))};
    for (size_t c = 0; c < 7; ++c)
      EXPECT_EQ(gotB[7 * i + c], want[c]) << "comparison " << c << " of " << f[i] << ", " << g[i];
    // OpQuantizeToF16: the nearest half; too large: an infinity; too small
    // for a normal half: a zero of either sign.
    const _Float16 h = _Float16(f[i]);
    const float a = std::fabs(float(h));
    if (std::isnan(f[i]))
      EXPECT_TRUE(std::isnan(gotF[i]));
    else if (a != 0 && a < 6.103515625e-05f)
      EXPECT_EQ(gotF[i], 0.0f) << "OpQuantizeToF16 " << f[i];
    else
      EXPECT_EQ(gotF[i], float(h)) << "OpQuantizeToF16 " << f[i];
  }
}

TEST_F(AssemblyForms, MemoryAndControlForms) {
  const size_t n = 70;
  cl_mem out = buffer<cl_uint>(3 * n), cas = buffer<cl_uint>(n);
  cl_kernel k = kernel("core_forms", "memory_forms");
  setArgs(k, out, cas, cl_ulong(n));
  run(k, {n});
  const std::vector<cl_uint> got = read<cl_uint>(out, 3 * n), exchanged = read<cl_uint>(cas, n);
  for (cl_uint i = 0; i < n; ++i) {
    EXPECT_EQ(got[3 * i], i + 10) << "OpAccessChain of a Function variable, OpLoopMerge";
    EXPECT_EQ(got[3 * i + 1], i + 5) << "OpConvertUToPtr";
    EXPECT_EQ(got[3 * i + 2], i + 9) << "OpGenericCastToPtr";
    EXPECT_EQ(exchanged[i], 100u) << "OpAtomicCompareExchangeWeak returns the old value, 0";
  }
}

TEST_F(AssemblyForms, SpecConstantComposite) {
  // Its LocalSizeId (2, 1, 1) is the required work-group size.
  cl_mem out = buffer<cl_uint>(32);
  cl_kernel k = kernel("core_forms", "spec_composite");
  size_t required[3] = {};
  ASSERT_EQ(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                     sizeof required, required, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(required[0], 2u);
  EXPECT_EQ(required[1], 1u);
  setArgs(k, out);
  run(k, {4}, {2});
  // a, b, flag, a + b, -a / 2 (truncated), flag ? a : b, -a < b, a << 3
  const std::vector<cl_uint> defaults = {11, 22, 1, 33, cl_uint(-5), 11, 1, 88};
  const std::vector<cl_uint> got = read<cl_uint>(out, 32);
  for (size_t i = 0; i < 4; ++i)
    EXPECT_EQ(std::vector<cl_uint>(got.begin() + 8 * i, got.begin() + 8 * i + 8), defaults);

  std::ifstream file(std::string(LANEWISE_KERNEL_DIR) + "/core_forms.spv", std::ios::binary);
  const std::vector<char> il{std::istreambuf_iterator<char>(file),
                             std::istreambuf_iterator<char>()};
  cl_int error = CL_SUCCESS;
  cl_program program = clCreateProgramWithIL(context, il.data(), il.size(), &error);
  ASSERT_EQ(error, CL_SUCCESS);
  const cl_uint a = 5, b = 6;
  const cl_uchar no = 0;
  ASSERT_EQ(clSetProgramSpecializationConstant(program, 3, sizeof a, &a), CL_SUCCESS);
  ASSERT_EQ(clSetProgramSpecializationConstant(program, 4, sizeof b, &b), CL_SUCCESS);
  ASSERT_EQ(clSetProgramSpecializationConstant(program, 5, sizeof no, &no), CL_SUCCESS);
  ASSERT_EQ(clBuildProgram(program, 1, &device, "", nullptr, nullptr), CL_SUCCESS);
  cl_kernel specialized = clCreateKernel(program, "spec_composite", &error);
  ASSERT_EQ(error, CL_SUCCESS);
  cl_mem again = buffer<cl_uint>(16);
  setArgs(specialized, again);
  run(specialized, {2}, {2});
  const std::vector<cl_uint> specializedValues = {5, 6, 0, 11, cl_uint(-2), 6, 1, 40};
  const std::vector<cl_uint> got2 = read<cl_uint>(again, 16);
  for (size_t i = 0; i < 2; ++i)
    EXPECT_EQ(std::vector<cl_uint>(got2.begin() + 8 * i, got2.begin() + 8 * i + 8),
              specializedValues);
  clReleaseKernel(specialized);
  clReleaseProgram(program);
}

TEST_F(AssemblyForms, ForwardPointerAndOpaqueTypes) {
  struct Node {
    cl_uint value;
    cl_ulong next; // a null node pointer
  };
  std::vector<Node> nodes(9);
  for (size_t i = 0; i < nodes.size(); ++i)
    nodes[i] = {cl_uint(i * 11), 0};
  cl_mem out = buffer<cl_uint>(nodes.size());
  cl_kernel k = kernel("core_forms", "forward_list");
  setArgs(k, buffer(nodes), out);
  run(k, {nodes.size()});
  const std::vector<cl_uint> got = read<cl_uint>(out, nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i)
    EXPECT_EQ(got[i], nodes[i].value + 1000) << i;

  cl_mem opaque = buffer<cl_uint>(4), tripled = buffer<cl_uint>(6);
  cl_kernel o = kernel("core_forms", "opaque_argument");
  setArgs(o, opaque, tripled);
  run(o, {6});
  EXPECT_EQ(read<cl_uint>(tripled, 6), (std::vector<cl_uint>{0, 3, 6, 9, 12, 15}));
}

} // namespace
} // namespace lanewise::test
