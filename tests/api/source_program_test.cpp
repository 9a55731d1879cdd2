// SPDX-License-Identifier: Apache-2.0
// OpenCL C source programs built and run through the API (clBuildProgram,
// OpenCL 3.0 API spec, 5.8.3 and 5.8.6): work-item functions, programs that
// clang -O2 and llvm-spirv turn into what SPIR-V lacks (freeze, odd vector
// lengths and integer widths, narrow switch selectors), kernel attributes
// and arguments, build callbacks, concurrent builds and a process without
// a compiler. Build options and logs are in source_options_test.cpp,
// clCompileProgram and clLinkProgram in source_compile_link_test.cpp,
// binaries in source_binary_test.cpp, the disk cache in
// source_cache_test.cpp.
#include "source_program_fixture.h"

#include "closed_form_sums.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <unistd.h>

namespace lanewise::test::source {
namespace {

// ---------------------------------------------------------------------------
// SourceProgram: clBuildProgram from source.

// The work-item functions that take a dimension answer 0 (ids, offset) or
// 1 (sizes, group count) for a dimension outside 0 to get_work_dim() - 1
// (OpenCL C 3.0, 6.15.1), whether the dimension is a constant (which
// llvm-spirv-14 translated to SPIR-V that does not validate) or a value
// (which it translated to a vector component read out of range). The
// expected values are the specification's; PoCL 3.1 answers 0 for all.
TEST_F(SourceProgram, WorkItemFunctionsOutsideTheDimensions) {
  const std::string text =
      "kernel void dims(global ulong *out, uint n) {\n"
      "  if (get_global_id(0) != 0) return;\n"
      "  out[0] = get_global_id(n); out[1] = get_global_size(n);\n"
      "  out[2] = get_local_id(n); out[3] = get_local_size(n);\n"
      "  out[4] = get_enqueued_local_size(n); out[5] = get_num_groups(n);\n"
      "  out[6] = get_group_id(n); out[7] = get_global_offset(n);\n"
      "  out[8] = get_global_id(3); out[9] = get_global_size(4);\n"
      "  out[10] = get_local_id(5); out[11] = get_local_size(6);\n"
      "  out[12] = get_enqueued_local_size(7); out[13] = get_num_groups(100);\n"
      "  out[14] = get_group_id(1000); out[15] = get_global_offset(0xffffffff);\n"
      "}\n";
  const std::vector<uint64_t> outside = {0, 1, 0, 1, 1, 1, 0, 0};
  for (const char *options : {"-cl-std=CL3.0", "-cl-std=CL3.0 -cl-opt-disable"}) {
    cl_program program = built(text, options);
    ASSERT_NE(program, nullptr) << options;
    for (cl_uint n : {0u, 1u, 2u, 3u, 5u, 1000u, 0xffffffffu}) {
      cl_mem out = buffer(std::vector<uint64_t>(16, 99));
      launch(program, "dims", 4, {argumentOf(out), argumentOf(n)});
      const std::vector<uint64_t> got = readBack<uint64_t>(out, 16);
      // A 1-dimensional launch of 4 work-items in groups of 2 (the local
      // size is the implementation's: read it back from the answer).
      std::vector<uint64_t> expected = outside;
      if (n == 0)
        expected = {0, 4, 0, got[3], got[3], got[3] ? 4 / got[3] : 0, 0, 0};
      expected.insert(expected.end(), outside.begin(), outside.end());
      EXPECT_EQ(got, expected) << options << ", dimension " << n;
    }
  }
}

// clang-14 -O2 freezes the operands of a division and remainder of the same
// values (and of an index split into row and column), an instruction
// llvm-spirv-14 cannot translate; the driver's translator replaces it.
TEST_F(SourceProgram, ProgramsWithFreezeBuildAndRun) {
  const std::string text =
      "kernel void divrem(global const uint *a, global const uint *b, global uint *q) {\n"
      "  size_t i = get_global_id(0); uint x = a[i], y = b[i];\n"
      "  q[2 * i] = x / y; q[2 * i + 1] = x % y;\n"
      "}\n"
      "kernel void transpose_index(global const int *in, global int *out, int width,\n"
      "                            int height) {\n"
      "  int i = get_global_id(0);\n"
      "  int row = i / width, col = i % width;\n"
      "  out[i] = in[col * height + row] + row;\n"
      "}\n"
      "kernel void divrem_vector(global const long4 *a, global const long4 *b,\n"
      "                          global long4 *q) {\n"
      "  size_t i = get_global_id(0); long4 x = a[i], y = b[i];\n"
      "  q[2 * i] = x / y; q[2 * i + 1] = x % y;\n"
      "}\n";
  for (const char *options : {"", "-cl-opt-disable"}) {
    cl_program program = built(text, options);
    ASSERT_NE(program, nullptr) << options;
    const size_t n = 96;
    {
      std::vector<cl_uint> a(n), b(n);
      for (size_t i = 0; i < n; ++i) {
        a[i] = cl_uint(i * 2654435761u);
        b[i] = cl_uint(i % 13 + 1) * cl_uint(i % 5 + 1);
      }
      cl_mem ma = buffer(a), mb = buffer(b), mq = buffer(std::vector<cl_uint>(2 * n));
      launch(program, "divrem", n, {argumentOf(ma), argumentOf(mb), argumentOf(mq)});
      const std::vector<cl_uint> q = readBack<cl_uint>(mq, 2 * n);
      for (size_t i = 0; i < n; ++i) {
        EXPECT_EQ(q[2 * i], a[i] / b[i]) << options << " " << i;
        EXPECT_EQ(q[2 * i + 1], a[i] % b[i]) << options << " " << i;
      }
    }
    {
      const cl_int width = 12, height = cl_int(n) / width;
      std::vector<cl_int> in(n);
      for (size_t i = 0; i < n; ++i)
        in[i] = cl_int(i * 31 % 101);
      cl_mem mi = buffer(in), mo = buffer(std::vector<cl_int>(n));
      launch(program, "transpose_index", n,
             {argumentOf(mi), argumentOf(mo), argumentOf(width), argumentOf(height)});
      const std::vector<cl_int> out = readBack<cl_int>(mo, n);
      for (size_t i = 0; i < n; ++i) {
        const int row = int(i) / width, col = int(i) % width;
        EXPECT_EQ(out[i], in[size_t(col * height + row)] + row) << options << " " << i;
      }
    }
    {
      std::vector<cl_long> a(4 * n), b(4 * n);
      for (size_t k = 0; k < a.size(); ++k) {
        a[k] = cl_long(k * 0x9e3779b97f4a7c15ull) >> 3;
        b[k] = (k % 2 ? -1 : 1) * cl_long(k % 29 + 2);
      }
      cl_mem ma = buffer(a), mb = buffer(b), mq = buffer(std::vector<cl_long>(8 * n));
      launch(program, "divrem_vector", n, {argumentOf(ma), argumentOf(mb), argumentOf(mq)});
      const std::vector<cl_long> q = readBack<cl_long>(mq, 8 * n);
      for (size_t i = 0; i < n; ++i)
        for (size_t c = 0; c < 4; ++c) {
          EXPECT_EQ(q[8 * i + c], a[4 * i + c] / b[4 * i + c]) << options << " " << i;
          EXPECT_EQ(q[8 * i + 4 + c], a[4 * i + c] % b[4 * i + c]) << options << " " << i;
        }
    }
  }
}

// clang-14 -O2 reads `(uchar)v.s8` of a short16 as element 16 of the
// vector bitcast to <32 x i8>, and then adds, multiplies, shuffles and
// compares vectors of 32 and 64 components, lengths SPIR-V has no type for:
// llvm-spirv-14 aborted on some ("Unsupported vector type with the size of:
// 32") and translated others into wrong components. The driver's translator
// splits such vectors into their components first.
TEST_F(SourceProgram, OptimisedVectorsOfLengthsSPIRVLacksBuildAndRun) {
  const std::string text =
      "kernel void narrow(global const short16 *s, global const int16 *w,\n"
      "                   global const long16 *l, global const int *flag, global uint *out) {\n"
      "  size_t i = get_global_id(0);\n"
      "  short16 a = s[i]; int16 b = w[i]; long16 c = l[i];\n"
      "  if (flag[i]) { a = s[i + 1]; b = w[i + 1]; c = l[i + 1]; }\n"
      "  out[8 * i + 0] = (uchar)((uchar)a.s8 + (uchar)a.s9);\n"
      "  out[8 * i + 1] = (uchar)a.s3;\n"
      "  out[8 * i + 2] = (uchar)b.s6;\n"
      "  out[8 * i + 3] = (ushort)b.sd;\n"
      "  out[8 * i + 4] = (ushort)c.s7;\n"
      "  out[8 * i + 5] = (uchar)((uchar)c.sf ^ (uchar)c.s2);\n"
      "  out[8 * i + 6] = (uint)c.s5;\n"
      "  out[8 * i + 7] = (uchar)((uchar)b.s1 * (uchar)b.s0) + ((uchar)a.sa < (uchar)a.sb);\n"
      "}\n"
      "kernel void chain(global const short16 *s, global uint *out, int n) {\n"
      "  size_t i = get_global_id(0);\n"
      "  short16 a = s[i];\n"
      "  uint acc = 0;\n"
      "  for (int k = 0; k < n; ++k) {\n"
      "    acc = acc * 31 + (uchar)a.s4 + (uchar)a.s9;\n"
      "    a = (a ^ (short16)(k)).s123456789abcdef0;\n"
      "  }\n"
      "  out[i] = acc;\n"
      "}\n"
      // A <32 x i8> carried around the loop in phis, one of them on its
      // back edge.
      "kernel void carried(global const short16 *s, global const int *pick,\n"
      "                    global uint *out, int n) {\n"
      "  size_t i = get_global_id(0);\n"
      "  short16 a = s[i];\n"
      "  uint acc = 0;\n"
      "  for (int k = 0; k < n; ++k) {\n"
      "    acc = acc * 3 + (uchar)a.s8 + (uchar)a.s3;\n"
      "    if (pick[k])\n"
      "      a = s[k];\n"
      "  }\n"
      "  out[i] = acc;\n"
      "}\n";
  const size_t n = 40;
  uint64_t state = 0x243f6a8885a308d3ull;
  auto next = [&] { return state = state * 6364136223846793005ull + 1442695040888963407ull; };
  std::vector<cl_short> s(16 * (n + 1));
  std::vector<cl_int> w(16 * (n + 1)), flag(n);
  std::vector<cl_long> l(16 * (n + 1));
  for (auto &x : s)
    x = cl_short(next() >> 40);
  for (auto &x : w)
    x = cl_int(next() >> 24);
  for (auto &x : l)
    x = cl_long(next());
  for (size_t i = 0; i < n; ++i)
    flag[i] = int(next() >> 60) & 1;
  std::vector<cl_uint> expected(8 * n);
  for (size_t i = 0; i < n; ++i) {
    const size_t v = 16 * (i + size_t(flag[i]));
    const cl_short *a = &s[v];
    const cl_int *b = &w[v];
    const cl_long *c = &l[v];
    expected[8 * i + 0] = uint8_t(uint8_t(a[8]) + uint8_t(a[9]));
    expected[8 * i + 1] = uint8_t(a[3]);
    expected[8 * i + 2] = uint8_t(b[6]);
    expected[8 * i + 3] = uint16_t(b[13]);
    expected[8 * i + 4] = uint16_t(c[7]);
    expected[8 * i + 5] = uint8_t(uint8_t(c[15]) ^ uint8_t(c[2]));
    expected[8 * i + 6] = uint32_t(c[5]);
    expected[8 * i + 7] =
        uint8_t(uint8_t(b[1]) * uint8_t(b[0])) + (uint8_t(a[10]) < uint8_t(a[11]));
  }
  const cl_int rounds = 9;
  std::vector<cl_uint> chained(n);
  for (size_t i = 0; i < n; ++i) {
    cl_short a[16];
    std::copy_n(&s[16 * i], 16, a);
    uint32_t acc = 0;
    for (int k = 0; k < rounds; ++k) {
      acc = acc * 31 + uint8_t(a[4]) + uint8_t(a[9]);
      cl_short rotated[16];
      for (int c = 0; c < 16; ++c)
        rotated[c] = cl_short(a[(c + 1) % 16] ^ k);
      std::copy_n(rotated, 16, a);
    }
    chained[i] = acc;
  }
  for (const char *options : {"", "-cl-opt-disable"}) {
    cl_program program = built(text, options);
    ASSERT_NE(program, nullptr) << options;
    cl_mem ms = buffer(s), mw = buffer(w), ml = buffer(l), mf = buffer(flag),
           mo = buffer(std::vector<cl_uint>(8 * n));
    launch(program, "narrow", n,
           {argumentOf(ms), argumentOf(mw), argumentOf(ml), argumentOf(mf), argumentOf(mo)});
    EXPECT_EQ(readBack<cl_uint>(mo, 8 * n), expected) << options;
    cl_mem mc = buffer(std::vector<cl_uint>(n));
    launch(program, "chain", n, {argumentOf(ms), argumentOf(mc), argumentOf(rounds)});
    EXPECT_EQ(readBack<cl_uint>(mc, n), chained) << options;
    std::vector<cl_int> pick(rounds);
    for (cl_int k = 0; k < rounds; ++k)
      pick[size_t(k)] = k % 3 == 1;
    std::vector<cl_uint> carried(n);
    for (size_t i = 0; i < n; ++i) {
      const cl_short *a = &s[16 * i];
      uint32_t acc = 0;
      for (cl_int k = 0; k < rounds; ++k) {
        acc = acc * 3 + uint8_t(a[8]) + uint8_t(a[3]);
        if (pick[size_t(k)])
          a = &s[16 * size_t(k)];
      }
      carried[i] = acc;
    }
    cl_mem mp = buffer(pick), mr = buffer(std::vector<cl_uint>(n));
    launch(program, "carried", n,
           {argumentOf(ms), argumentOf(mp), argumentOf(mr), argumentOf(rounds)});
    EXPECT_EQ(readBack<cl_uint>(mr, n), carried) << options;
  }
}

// clang-14 -O2 replaces a loop that sums i, i * i or i * i * i by its closed
// form, computed by SCEV one bit wider than the loop's type (an i33 for a
// uint loop, an i65 for a ulong one); the SLP vectoriser pairs two such
// sums in a <2 x i33>; InstCombine narrows a switch's selector to an i4.
// OpenCL's SPIR-V environment has none of these widths; llvm-spirv-14 wrote
// them with SPV_INTEL_arbitrary_precision_integers, which few consumers
// read. The driver's translator promotes them as LLVM's type legalisation
// does. The expected values are the loops themselves, run on the host in
// the kernel's types.

// Whether SPIR-V words in `binary` (anywhere in it, at any offset) declare an
// OpTypeInt of a width other than 8, 16, 32 and 64 bits.
bool declaresOddIntegers(const std::vector<unsigned char> &binary) {
  auto word = [&](size_t at) {
    uint32_t value;
    std::memcpy(&value, &binary[at], sizeof value);
    return value;
  };
  const uint32_t typeInt = 3u << 16 | 21u; // word count 3, OpTypeInt
  for (size_t at = 0; at + 12 <= binary.size(); ++at)
    if (word(at) == typeInt) {
      const uint32_t width = word(at + 8);
      if (width != 8 && width != 16 && width != 32 && width != 64)
        return true;
    }
  return false;
}

TEST_F(SourceProgram, OptimisedIntegerWidthsSPIRVLacksBuildAndRun) {
  const std::string text =
      "#define SUMS(T, name)                                                \\\n"
      "kernel void name(global const T *n, global T *out) {                \\\n"
      "  size_t g = get_global_id(0); T c = n[g];                          \\\n"
      "  T a = 0, b = 0, d = 0, e = 0;                                     \\\n"
      "  for (T i = 1; i < c; i++) a += i;                                 \\\n"
      "  for (T i = 0; i < c; i++) b += i * i;                             \\\n"
      "  for (T i = 0; i < c; i++) d += i * i * i;                         \\\n"
      "  for (T i = c; i > 3; i -= 3) e += i * 7 - 5;                      \\\n"
      "  out[4 * g] = a; out[4 * g + 1] = b; out[4 * g + 2] = d; out[4 * g + 3] = e; }\n"
      "SUMS(uchar, sums_uchar)\n"
      "SUMS(ushort, sums_ushort)\n"
      "SUMS(uint, sums_uint)\n"
      "SUMS(int, sums_int)\n"
      "SUMS(ulong, sums_ulong)\n"
      "SUMS(long, sums_long)\n"
      "kernel void pair(global const uint *n, global uint2 *out) {\n"
      "  size_t g = get_global_id(0); uint c = n[g]; uint2 r = 0;\n"
      "  for (uint i = 1; i < c; i++) { r.x += i; r.y += i * i; }\n"
      "  out[g] = r;\n"
      "}\n"
      "kernel void nibble(global const uint *n, global int *out) {\n"
      "  size_t g = get_global_id(0); int r;\n"
      "  switch ((n[g] >> 3) & 15) {\n"
      "  case 0: r = 5; break; case 3: r = 9; break; case 7: case 11: r = -2; break;\n"
      "  case 15: r = 44; break; default: r = 1;\n"
      "  }\n"
      "  out[g] = r;\n"
      "}\n";
  cl_program program = built(text);
  ASSERT_NE(program, nullptr);
  // Promoted in the translation, the SPIR-V needs no
  // SPV_INTEL_arbitrary_precision_integers: any consumer reads it.
  EXPECT_FALSE(declaresOddIntegers(programBinary(program)));
  // Counts around each width's wrap-around, for the unsigned types; small
  // and negative ones for the signed, whose overflow is undefined.
  auto check = [&](const char *name, auto type, std::vector<uint64_t> counts) {
    using T = decltype(type);
    std::vector<T> n;
    for (uint64_t count : counts)
      n.push_back(T(count));
    cl_mem mn = buffer(n), mo = buffer(std::vector<T>(4 * n.size()));
    launch(program, name, n.size(), {argumentOf(mn), argumentOf(mo)});
    const std::vector<T> out = readBack<T>(mo, 4 * n.size());
    for (size_t i = 0; i < n.size(); ++i)
      EXPECT_EQ((std::array<T, 4>{out[4 * i], out[4 * i + 1], out[4 * i + 2], out[4 * i + 3]}),
                sumsOf<T>(n[i]))
          << name << " " << +n[i];
  };
  std::vector<uint64_t> wide = {0,     1,      2,      3,      4,      5,     17,
                                100,   255,    256,    1000,   65535,  65536, 92682,
                                92683, 100000, 131071, 262145, 1000003};
  std::vector<uint64_t> bytes, shorts;
  for (uint64_t c = 0; c < 256; ++c)
    bytes.push_back(c);
  for (uint64_t c = 0; c < 65536; c += 257)
    shorts.push_back(c);
  check("sums_uchar", cl_uchar(), bytes);
  check("sums_ushort", cl_ushort(), shorts);
  check("sums_uint", cl_uint(), wide);
  check("sums_ulong", cl_ulong(), wide);
  // At most 300: the sum of cubes stays within int (signed overflow is undefined).
  std::vector<uint64_t> small = {0, 1, 2, 3, 4, 7, 100, 300};
  for (int64_t negative : {-1, -2, -5, -1000})
    small.push_back(uint64_t(negative));
  check("sums_int", cl_int(), small);
  check("sums_long", cl_long(), small);

  std::vector<cl_uint> n(wide.begin(), wide.end());
  cl_mem mn = buffer(n), mp = buffer(std::vector<cl_uint>(2 * n.size()));
  launch(program, "pair", n.size(), {argumentOf(mn), argumentOf(mp)});
  const std::vector<cl_uint> pairs = readBack<cl_uint>(mp, 2 * n.size());
  for (size_t i = 0; i < n.size(); ++i) {
    const std::array<cl_uint, 4> sums = sumsOf<cl_uint>(n[i]);
    EXPECT_EQ(pairs[2 * i], sums[0]) << n[i];
    EXPECT_EQ(pairs[2 * i + 1], sums[1]) << n[i]; // i * i from 1 or from 0: the same sum
  }

  std::vector<cl_uint> selectors(256);
  for (cl_uint k = 0; k < 256; ++k)
    selectors[k] = k * 0x01010101u;
  cl_mem ms = buffer(selectors), mr = buffer(std::vector<cl_int>(256));
  launch(program, "nibble", 256, {argumentOf(ms), argumentOf(mr)});
  const std::vector<cl_int> chosen = readBack<cl_int>(mr, 256);
  for (cl_uint k = 0; k < 256; ++k) {
    const cl_uint nib = (selectors[k] >> 3) & 15;
    const cl_int want = nib == 0                ? 5
                        : nib == 3              ? 9
                        : nib == 7 || nib == 11 ? -2
                        : nib == 15             ? 44
                                                : 1;
    EXPECT_EQ(chosen[k], want) << selectors[k];
  }
}

// clang-14 -O2 narrows this switch's selector to an i4, and llvm-spirv-14
// aborts on it (the CTS's ifp_core kernel has the same shape); the driver's
// translator widens the selector.
TEST_F(SourceProgram, ProgramsWithNarrowSwitchSelectorsBuildAndRun) {
  const std::string text = "kernel void run_program(global const int *code, global int *out) {\n"
                           "  const int lid = (int)get_global_id(0);\n"
                           "  const global int *pc = code + lid * 8;\n"
                           "  int acc = 0;\n"
                           "  bool run = true;\n"
                           "  while (run) {\n"
                           "    int inst = *pc++;\n"
                           "    int op = inst & 0xf;\n"
                           "    int val = (inst >> 12) & 0x7ffff;\n"
                           "    switch (op) {\n"
                           "    case 1:\n"
                           "      if (lid & 1)\n"
                           "        acc += val;\n"
                           "      break;\n"
                           "    case 2:\n"
                           "      if (val > 0) {\n"
                           "        while (acc < val)\n"
                           "          acc += 3;\n"
                           "      }\n"
                           "      break;\n"
                           "    case 3:\n"
                           "      for (int i = 0; i < val; ++i)\n"
                           "        acc ^= i;\n"
                           "      break;\n"
                           "    case 0:\n"
                           "      run = false;\n"
                           "      break;\n"
                           "    }\n"
                           "  }\n"
                           "  out[lid] = acc;\n"
                           "}\n";
  const size_t n = 32;
  std::vector<int32_t> code(8 * n);
  uint32_t state = 12345;
  auto next = [&] { return state = state * 1103515245u + 12345u; };
  for (size_t i = 0; i < n; ++i) {
    for (size_t k = 0; k < 7; ++k)
      code[8 * i + k] = int32_t(((next() >> 8) % 40) << 12 | (1 + (next() >> 16) % 3));
    code[8 * i + size_t(next() >> 10) % 8] = 0; // an end, at the latest the last
    code[8 * i + 7] = 0;
  }
  std::vector<int32_t> expected(n);
  for (size_t i = 0; i < n; ++i) {
    int acc = 0;
    for (size_t k = 0;; ++k) {
      const int inst = code[8 * i + k], op = inst & 0xf, val = (inst >> 12) & 0x7ffff;
      if (op == 0)
        break;
      if (op == 1 && (i & 1))
        acc += val;
      if (op == 2 && val > 0)
        while (acc < val)
          acc += 3;
      if (op == 3)
        for (int j = 0; j < val; ++j)
          acc ^= j;
    }
    expected[i] = acc;
  }
  for (const char *options : {"", "-cl-opt-disable"})
    EXPECT_EQ(run<int32_t>(built(text, options), "run_program", n, {code}), expected) << options;
}

// restrict pointers of an inlined function: llvm-spirv writes alias scopes
// only when asked for SPV_INTEL_memory_access_aliasing, which the driver
// does not ask for; either way the program builds and runs.
TEST_F(SourceProgram, RestrictPointersOfInlinedFunctionsBuild) {
  const std::string text =
      "void f(global float *restrict a, global const float *restrict b,\n"
      "       global float *restrict c, size_t i) {\n"
      "  float x = b[i]; a[i] = x * 2.0f; c[i] = b[i] + a[i];\n"
      "}\n"
      "kernel void k(global float *a, global const float *b, global float *c) {\n"
      "  size_t i = get_global_id(0);\n"
      "  f(a, b, c, 2 * i); f(c, b, a, 2 * i + 1);\n"
      "}\n";
  cl_program program = built(text, "");
  ASSERT_NE(program, nullptr);
  const size_t n = 40;
  std::vector<float> b(2 * n);
  for (size_t k = 0; k < b.size(); ++k)
    b[k] = float(k) - 20.5f;
  cl_mem ma = buffer(std::vector<float>(2 * n)), mb = buffer(b),
         mc = buffer(std::vector<float>(2 * n));
  launch(program, "k", n, {argumentOf(ma), argumentOf(mb), argumentOf(mc)});
  const std::vector<float> a = readBack<float>(ma, 2 * n), c = readBack<float>(mc, 2 * n);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(a[2 * i], 2 * b[2 * i]);
    EXPECT_EQ(c[2 * i], 3 * b[2 * i]);
    EXPECT_EQ(c[2 * i + 1], 2 * b[2 * i + 1]);
    EXPECT_EQ(a[2 * i + 1], 3 * b[2 * i + 1]);
  }
}

// CL_KERNEL_ATTRIBUTES: the attributes of the kernel's declaration as the
// source spells them; empty for a kernel not created from source (OpenCL 3.0,
// clGetKernelInfo).
TEST_F(SourceProgram, KernelAttributesOfSourceKernels) {
  const std::string text =
      "__attribute__((reqd_work_group_size(4, 2, 1)))\n"
      "kernel void sized(global int *p) { p[0] = 1; }\n"
      "__attribute__((work_group_size_hint(8, 1, 1))) __attribute__((vec_type_hint(float4)))\n"
      "kernel void hinted(global int *p) { p[0] = 2; }\n"
      "__attribute__((vec_type_hint(uchar16)))\n"
      "kernel void bytes(global int *p) { p[0] = 3; }\n"
      "__attribute__((vec_type_hint(double)))\n"
      "kernel void scalar(global int *p) { p[0] = 4; }\n"
      "kernel void plain(global int *p) { p[0] = 5; }\n";
  cl_program program = built(text, "");
  ASSERT_NE(program, nullptr);
  auto attributes = [&](cl_program from, const char *name) {
    cl_int error = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(from, name, &error);
    EXPECT_EQ(error, CL_SUCCESS) << name;
    if (!kernel)
      return std::string("<no kernel>");
    size_t size = 0;
    EXPECT_EQ(clGetKernelInfo(kernel, CL_KERNEL_ATTRIBUTES, 0, nullptr, &size), CL_SUCCESS);
    std::string value(size, '\0');
    EXPECT_EQ(clGetKernelInfo(kernel, CL_KERNEL_ATTRIBUTES, size, value.data(), nullptr),
              CL_SUCCESS);
    clReleaseKernel(kernel);
    value.resize(std::strlen(value.c_str()));
    value.erase(std::remove(value.begin(), value.end(), ' '), value.end());
    return value;
  };
  const std::string sized = attributes(program, "sized"), hinted = attributes(program, "hinted");
  EXPECT_EQ(sized, "reqd_work_group_size(4,2,1)");
  EXPECT_TRUE(contains(hinted, "work_group_size_hint(8,1,1)")) << hinted;
  EXPECT_TRUE(contains(hinted, "vec_type_hint(float4)")) << hinted;
  EXPECT_EQ(attributes(program, "bytes"), "vec_type_hint(uchar16)");
  EXPECT_EQ(attributes(program, "scalar"), "vec_type_hint(double)");
  EXPECT_EQ(attributes(program, "plain"), "");

  if (testingLanewise()) { // Lanewise's program binary is SPIR-V: build it as IL
    size_t binarySize = 0;
    ASSERT_EQ(
        clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof binarySize, &binarySize, nullptr),
        CL_SUCCESS);
    std::vector<unsigned char> binary(binarySize);
    unsigned char *pointer = binary.data();
    ASSERT_EQ(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof pointer, &pointer, nullptr),
              CL_SUCCESS);
    cl_int error = CL_SUCCESS;
    cl_program il = adopt(clCreateProgramWithIL(context, binary.data(), binary.size(), &error));
    ASSERT_EQ(error, CL_SUCCESS);
    ASSERT_EQ(build(il, ""), CL_SUCCESS);
    EXPECT_EQ(attributes(il, "sized"), "");
    EXPECT_EQ(attributes(il, "hinted"), "");
  }
}

// A kernel may take CL_DEVICE_MAX_PARAMETER_SIZE bytes of arguments, more
// than SPIR-V's minimum limit of 255 function parameters (the CTS's
// min_max_parameter_size).
TEST_F(SourceProgram, KernelWithMoreThan255Arguments) {
  constexpr int count = 600;
  std::string text = "kernel void many(";
  for (int i = 0; i < count; ++i)
    text += "char a" + std::to_string(i) + ", ";
  text += "global int *out) {\n  int sum = 0;\n";
  for (int i = 0; i < count; ++i)
    text += "  sum += a" + std::to_string(i) + " * " + std::to_string(i % 7 + 1) + ";\n";
  text += "  out[get_global_id(0)] = sum;\n}\n";
  cl_program program = built(text, "");
  ASSERT_NE(program, nullptr);
  std::vector<cl_char> values(count);
  std::vector<std::pair<size_t, const void *>> arguments;
  int want = 0;
  for (int i = 0; i < count; ++i) {
    values[size_t(i)] = cl_char(i % 41 - 20);
    want += values[size_t(i)] * (i % 7 + 1);
    arguments.push_back(argumentOf(values[size_t(i)]));
  }
  cl_mem out = buffer(std::vector<cl_int>(4));
  arguments.push_back(argumentOf(out));
  launch(program, "many", 4, arguments);
  const std::vector<cl_int> result = readBack<cl_int>(out, 4);
  EXPECT_EQ(result, std::vector<cl_int>(4, want));
}

// A program-scope byte array of CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE bytes
// builds and runs (the CTS's progvar_prog_scope_misc declares one): the
// reported size is one Lanewise can lay out.
TEST_F(SourceProgram, ProgramScopeVariableOfTheReportedMaximumSize) {
  size_t size = 0;
  ASSERT_EQ(
      clGetDeviceInfo(device, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, sizeof size, &size, nullptr),
      CL_SUCCESS);
  ASSERT_GE(size, 65536u);
  const std::string text = "global uchar var[" + std::to_string(size) +
                           "ul];\n"
                           "kernel void k(global uchar *out) {\n"
                           "  var[" +
                           std::to_string(size - 1) +
                           "ul] = 7;\n"
                           "  var[0] = 3;\n"
                           "  out[0] = var[" +
                           std::to_string(size - 1) +
                           "ul] + var[0];\n"
                           "}\n";
  cl_program program = built(text, "-cl-std=CL3.0");
  ASSERT_NE(program, nullptr);
  cl_mem out = buffer(std::vector<cl_uchar>(1));
  launch(program, "k", 1, {argumentOf(out)});
  EXPECT_EQ(readBack<cl_uchar>(out, 1), std::vector<cl_uchar>{10});
}

TEST_F(SourceProgram, BuildCallbackIsCalledOnce) {
  cl_program program = source("kernel void k(global int *out) { out[get_global_id(0)] = 9; }\n");
  ASSERT_NE(program, nullptr);
  Notification notification;
  notification.device = device;
  EXPECT_EQ(clBuildProgram(program, 1, &device, "", notifyBuilt, &notification), CL_SUCCESS);
  waitForNotification(notification);
  {
    std::lock_guard lock(notification.mutex);
    EXPECT_EQ(notification.calls, 1);
    EXPECT_EQ(notification.program, program);
    EXPECT_EQ(notification.status, CL_BUILD_SUCCESS);
  }
  EXPECT_EQ(run<int32_t>(program, "k", 2), (std::vector<int32_t>{9, 9}));

  // A failing build calls back too; it may return CL_SUCCESS when it does
  // not wait for the build (5.8.3).
  cl_program broken = source(kSyntaxErrorSource);
  ASSERT_NE(broken, nullptr);
  Notification failure;
  failure.device = device;
  const cl_int result = clBuildProgram(broken, 0, nullptr, nullptr, notifyBuilt, &failure);
  EXPECT_TRUE(result == CL_BUILD_PROGRAM_FAILURE || result == CL_SUCCESS) << result;
  waitForNotification(failure);
  {
    std::lock_guard lock(failure.mutex);
    EXPECT_EQ(failure.calls, 1);
    EXPECT_EQ(failure.program, broken);
    EXPECT_EQ(failure.status, CL_BUILD_ERROR);
  }

  int dummy = 0;
  EXPECT_EQ(clBuildProgram(program, 1, &device, "", nullptr, &dummy), CL_INVALID_VALUE);
}

// Builds with a callback run on threads of their own (5.8.3: clBuildProgram
// may return before the build ends), so that one host thread can have
// several programs building at once; each callback comes once with the
// final state, also for a program the application released meanwhile.
TEST_F(SourceProgram, BuildsWithCallbacksRunInParallel) {
  constexpr int kPrograms = 4;
  const std::string salt =
      std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
  std::vector<cl_program> programs;
  std::vector<std::unique_ptr<Notification>> notifications;
  for (int i = 0; i < kPrograms; ++i) {
    programs.push_back(source("// " + salt +
                              "\nkernel void k(global int *out) { out[get_global_id(0)] = " +
                              std::to_string(100 + i) + "; }\n"));
    ASSERT_NE(programs.back(), nullptr);
    notifications.push_back(std::make_unique<Notification>());
    notifications.back()->device = device;
  }
  for (int i = 0; i < kPrograms; ++i)
    ASSERT_EQ(clBuildProgram(programs[i], 1, &device, "", notifyBuilt, notifications[i].get()),
              CL_SUCCESS);
  // A second build of a program whose build is under way may be refused;
  // it must not disturb the first.
  const cl_int again = clBuildProgram(programs[0], 1, &device, "", nullptr, nullptr);
  EXPECT_TRUE(again == CL_SUCCESS || again == CL_INVALID_OPERATION) << again;

  // Released before its callback: the build finishes and calls back (the
  // callback must not use the program: the application let it go).
  const std::string gone = "// " + salt + "\nkernel void gone(global int *out) { *out = 1; }\n";
  const char *strings[] = {gone.c_str()};
  cl_int error = CL_SUCCESS;
  cl_program released = clCreateProgramWithSource(context, 1, strings, nullptr, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  std::atomic<int> releasedCalls{0};
  ASSERT_EQ(clBuildProgram(
                released, 1, &device, "",
                [](cl_program, void *calls) { ++*static_cast<std::atomic<int> *>(calls); },
                &releasedCalls),
            CL_SUCCESS);
  ASSERT_EQ(clReleaseProgram(released), CL_SUCCESS);

  for (int i = 0; i < kPrograms; ++i) {
    waitForNotification(*notifications[i]);
    std::lock_guard lock(notifications[i]->mutex);
    EXPECT_EQ(notifications[i]->calls, 1) << i;
    EXPECT_EQ(notifications[i]->program, programs[i]) << i;
    EXPECT_EQ(notifications[i]->status, CL_BUILD_SUCCESS) << i;
  }
  for (int i = 0; i < kPrograms; ++i)
    EXPECT_EQ(run<int32_t>(programs[i], "k", 2), (std::vector<int32_t>(2, 100 + i))) << i;
  for (int wait = 0; wait < 3000 && releasedCalls == 0; ++wait)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(releasedCalls, 1);
}

// Builds of different programs from 4 host threads at once all succeed.
TEST_F(SourceProgram, ConcurrentBuildsFromFourThreads) {
  constexpr int kThreads = 4, kPerThread = 2;
  // A salt makes the sources new to the compiler cache, so that the
  // compilers really run at the same time.
  const std::string salt =
      std::to_string(getpid()) + "_" +
      std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
  std::barrier start(kThreads);
  std::atomic<int> successes{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      cl_int error = CL_SUCCESS;
      cl_command_queue own = clCreateCommandQueueWithProperties(context, device, nullptr, &error);
      EXPECT_EQ(error, CL_SUCCESS);
      start.arrive_and_wait();
      for (int round = 0; round < kPerThread; ++round) {
        const int value = 1000 * t + round;
        const std::string text = "// " + salt + "\n" +
                                 "kernel void k(global int *out) {\n"
                                 "  out[get_global_id(0)] = " +
                                 std::to_string(value) + " * 3 + (int)get_global_id(0);\n}\n";
        const char *strings[] = {text.c_str()};
        cl_program program = clCreateProgramWithSource(context, 1, strings, nullptr, &error);
        EXPECT_EQ(error, CL_SUCCESS);
        if (!program)
          continue;
        const cl_int result = clBuildProgram(program, 1, &device, "", nullptr, nullptr);
        EXPECT_EQ(result, CL_SUCCESS) << buildLog(program, device);
        cl_kernel kernel = clCreateKernel(program, "k", &error);
        if (kernel) {
          std::vector<int32_t> data(8, -1);
          cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                      data.size() * 4, data.data(), &error);
          clSetKernelArg(kernel, 0, sizeof mem, &mem);
          const size_t global = data.size();
          EXPECT_EQ(clEnqueueNDRangeKernel(own, kernel, 1, nullptr, &global, nullptr, 0, nullptr,
                                           nullptr),
                    CL_SUCCESS);
          EXPECT_EQ(clEnqueueReadBuffer(own, mem, CL_TRUE, 0, data.size() * 4, data.data(), 0,
                                        nullptr, nullptr),
                    CL_SUCCESS);
          bool right = true;
          for (int i = 0; i < 8; ++i)
            right &= data[i] == value * 3 + i;
          EXPECT_TRUE(right) << "thread " << t << " round " << round;
          successes += right && result == CL_SUCCESS;
          clReleaseMemObject(mem);
          clReleaseKernel(kernel);
        }
        clReleaseProgram(program);
      }
      if (own)
        clReleaseCommandQueue(own);
    });
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(successes.load(), kThreads * kPerThread);
}

// A process without clang and llvm-spirv: LANEWISE_CLANG and
// LANEWISE_LLVM_SPIRV both name files that do not exist, so the driver
// neither runs them nor searches PATH. CL_DEVICE_COMPILER_AVAILABLE is
// CL_FALSE; building or compiling source is CL_COMPILER_NOT_AVAILABLE
// (5.8.3, 5.8.4) and the log says what to install.
TEST_F(SourceProgram, WithoutCompilerBuildIsCompilerNotAvailable) {
  if (!testingLanewise())
    GTEST_SKIP() << "Lanewise's compiler lookup";
  const ChildReport child =
      runChild({{"LANEWISE_TEST_CHILD", "nocompiler"},
                {"LANEWISE_CLANG", "/nonexistent/lanewise-test/clang"},
                {"LANEWISE_LLVM_SPIRV", "/nonexistent/lanewise-test/llvm-spirv"},
                {"LANEWISE_CACHE", "0"},
                {"LANEWISE_TEST_CHILD_SOURCE", cacheKernel(1)}});
  ASSERT_EQ(child.exitCode, 0) << child.output;
  ASSERT_TRUE(child.values.count("build")) << child.output;
  EXPECT_EQ(child.values.at("compiler"), std::to_string(CL_FALSE));
  EXPECT_EQ(child.values.at("build"), std::to_string(CL_COMPILER_NOT_AVAILABLE)) << child.log;
  EXPECT_EQ(child.values.at("status"), std::to_string(CL_BUILD_ERROR));
  EXPECT_EQ(child.values.at("compile"), std::to_string(CL_COMPILER_NOT_AVAILABLE));
  EXPECT_TRUE(contains(child.log, "clang")) << child.log;
  EXPECT_TRUE(contains(child.log, "llvm-spirv")) << child.log;
  EXPECT_TRUE(contains(child.log, "install")) << child.log;
}

// A struct that points to its own type: the translator's search for integer
// widths SPIR-V lacks followed the pointer for ever, and the compiler
// crashed. A linked list in a buffer, walked by the kernel.
TEST_F(SourceProgram, RecursiveStructTypesBuildAndRun) {
  const std::string text = "typedef struct node { global struct node *next; int value; } node;\n"
                           "kernel void link(global node *nodes, int n) {\n"
                           "  int i = (int)get_global_id(0);\n"
                           "  nodes[i].next = i + 1 < n ? &nodes[i + 1] : 0;\n"
                           "  nodes[i].value = 3 * i + 1;\n"
                           "}\n"
                           "kernel void walk(global node *nodes, global int *out) {\n"
                           "  int sum = 0;\n"
                           "  for (global node *p = nodes; p; p = p->next)\n"
                           "    sum += p->value;\n"
                           "  out[0] = sum;\n"
                           "}\n";
  for (const char *options : {"", "-cl-opt-disable"}) {
    cl_program program = built(text, options);
    ASSERT_NE(program, nullptr) << options;
    const cl_int n = 10;
    cl_mem nodes = buffer(std::vector<cl_ulong>(2 * n)), out = buffer(std::vector<cl_int>(1));
    launch(program, "link", size_t(n), {argumentOf(nodes), argumentOf(n)});
    launch(program, "walk", 1, {argumentOf(nodes), argumentOf(out)});
    EXPECT_EQ(readBack<cl_int>(out, 1)[0], 145) << options; // 1 + 4 + ... + 28
  }
}

// clang-14 -O2 folds comparisons of generic pointers made from a __local
// and a __global one into a cast between the two named spaces, which SPIR-V
// does not have; llvm-spirv-14 refused the module (the OpenCL-CTS
// generic_address_space compare_pointers case). Null pointers of every
// space are equal as generic pointers; pointers into two spaces are not.
TEST_F(SourceProgram, GenericPointersOfTwoSpacesCompare) {
  cl_program program =
      built("kernel void compare(global uint *out, global int *g) {\n"
            "  local int l[2];\n"
            "  int *ptr = NULL;\n"
            "  local int *lnull = NULL;\n"
            "  global int *gnull = NULL;\n"
            "  ptr = lnull;\n"
            "  out[0] = (gnull == ptr) && (lnull == ptr);\n"
            "  int *lp = &l[1], *gp = g + 1;\n"
            "  out[1] = (gp == lp) + 2 * (lp == (int *)(l + 1)) + 4 * (gp == (int *)(g + 1));\n"
            "  out[2] = to_global(lp) == gnull && to_local(gp) == lnull;\n"
            "}\n",
            "-cl-std=CL3.0");
  ASSERT_NE(program, nullptr);
  cl_mem out = buffer(std::vector<cl_uint>(3)), g = buffer(std::vector<cl_int>(4));
  launch(program, "compare", 1, {argumentOf(out), argumentOf(g)});
  EXPECT_EQ(readBack<cl_uint>(out, 3), (std::vector<cl_uint>{1, 6, 1}));
}

} // namespace
} // namespace lanewise::test::source
