// SPDX-License-Identifier: Apache-2.0
// printf (cl/printf.cl, OpenCL C 3.0, 6.15.14): the process's stdout is
// captured around each enqueue and clFinish and compared with the text the
// host's snprintf gives, conversion by conversion (OpenCL C printf follows
// C99 for each conversion; a vector prints its elements separated by
// commas), at -O2 and -O0. Lanewise writes a launch's output when the
// command completes, ordered by work-item (global linear id) and, within a
// work-item, in program order; on another platform only the set of lines is
// compared.
#include "harness.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <sstream>
#include <unistd.h>

namespace lanewise::test {
namespace {

const char *const variants[] = {"", "-O0"};

std::string label(const char *variant) { return *variant ? variant : "-O2"; }

// snprintf into a string.
std::string format(const char *text, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char *text, ...) {
  va_list arguments, again;
  va_start(arguments, text);
  va_copy(again, arguments);
  const int n = std::vsnprintf(nullptr, 0, text, arguments);
  va_end(arguments);
  std::string out(static_cast<size_t>(std::max(n, 0)), '\0');
  std::vsnprintf(out.data(), out.size() + 1, text, again);
  va_end(again);
  return out;
}

// Elements 0..n-1, each converted by `element`, separated by commas
// (6.15.14.2: "value1 C value2 C ... C valuen", C a comma).
std::string join(int n, const std::function<std::string(int)> &element) {
  std::string out;
  for (int k = 0; k < n; ++k)
    out += (k ? "," : "") + element(k);
  return out;
}

// What the process writes to its stdout while this lives.
class CapturedStdout {
public:
  CapturedStdout() {
    std::fflush(stdout);
    file_ = std::tmpfile();
    saved_ = dup(STDOUT_FILENO);
    dup2(fileno(file_), STDOUT_FILENO);
  }
  ~CapturedStdout() {
    restore();
    std::fclose(file_);
  }
  CapturedStdout(const CapturedStdout &) = delete;
  CapturedStdout &operator=(const CapturedStdout &) = delete;

  // Puts stdout back and returns what was written.
  std::string text() {
    restore();
    std::string out;
    std::rewind(file_);
    char chunk[65536];
    size_t n;
    while ((n = std::fread(chunk, 1, sizeof chunk, file_)) > 0)
      out.append(chunk, n);
    return out;
  }

private:
  void restore() {
    if (saved_ < 0)
      return;
    std::fflush(stdout);
    dup2(saved_, STDOUT_FILENO);
    close(saved_);
    saved_ = -1;
  }
  std::FILE *file_ = nullptr;
  int saved_ = -1;
};

std::vector<std::string> sortedLines(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

class Printf : public SharedContextTest {
protected:
  cl_kernel printfKernel(const std::string &name, const char *variant) {
    return cachedKernel("printf", name, variant);
  }

  // Runs k and returns what it printed.
  std::string captured(cl_kernel k, std::vector<size_t> global, std::vector<size_t> local = {},
                       std::vector<size_t> offset = {}) {
    CapturedStdout capture;
    run(k, global, local, offset);
    return capture.text();
  }

  // Output whose order Lanewise defines: exact on Lanewise, the same lines
  // elsewhere.
  void expectOrdered(const std::string &actual, const std::string &expected) {
    if (testingLanewise())
      EXPECT_EQ(actual, expected);
    else
      EXPECT_EQ(sortedLines(actual), sortedLines(expected));
  }

  void expectResults(cl_mem results, const std::vector<int> &expected) {
    EXPECT_EQ(read<int>(results, expected.size()), expected);
  }
};

TEST_F(Printf, IntegerConversionsLengthModifiersFlagsWidthPrecision) {
  const int i = 0x1234ABCD;
  const unsigned u = 0xFEDCBA98u;
  const long l = -0x123456789ABCDEFL;
  const unsigned long ul = 0xFEDCBA9876543210ul;
  const signed char c = -7;
  const unsigned char uc = 0xE9;
  const short s = -12345;
  const unsigned short us = 0xBEEF;
  std::string expected;
  expected += format("d=%d i=%i o=%o u=%u x=%x X=%X\n", i, i, u, u, u, u);
  expected += format("negative: %d %i %u %x\n", -i, -i, (unsigned)-i, (unsigned)-i);
  // Formats GCC warns about, with the rules that make them well defined: "If
  // the space and + flags both appear, the space flag is ignored"; "if a
  // precision is specified, the 0 flag is ignored".
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
  expected += format("flags: [%-8d] [%+d] [% d] [%#o] [%#x] [%#X] [%08d] [%-+12d] [%+ d]\n", i, i,
                     i, u, u, u, i, -i, i);
  expected += format("precision: [%.5d] [%12.9d] [%.0d] [%.0x] [%#.0o] [%012.3x] [%.d]\n", i, -i, 0,
                     0u, 0u, u, 0);
#pragma GCC diagnostic pop
  expected += format("hh: %hhd %hhi %hhu %hho %hhx %hhX [%#5hhx]\n", c, c, uc, uc, uc, uc, uc);
  expected += format("hh of int: %hhd %hhu %hhx\n", i, u, u);
  expected += format("h: %hd %hi %hu %ho %hx %hX [%-+8hd]\n", s, s, us, us, us, us, s);
  expected += format("h of int: %hd %hu\n", i, u);
  expected += format("l: %ld %li %lu %lo %lx %lX\n", l, l, ul, ul, ul, ul);
  expected += format("l flags: [%+24ld] [%-#26lo] [%#.18lx] [%020ld]\n", l, ul, ul, -l);
  expected += format("c: [%c] [%3c] [%-3c] [%c]\n", c, 'A', 'z', i);
  expected += format("%%: 100%% [%d%%]\n", i);
  for (const char *variant : variants) {
    SCOPED_TRACE(label(variant));
    cl_kernel k = printfKernel("integers", variant);
    cl_mem results = buffer<int>(std::vector<int>(12, 7));
    setArgs(k, results, i, u, static_cast<cl_long>(l), static_cast<cl_ulong>(ul),
            static_cast<cl_char>(c), static_cast<cl_uchar>(uc), static_cast<cl_short>(s),
            static_cast<cl_ushort>(us));
    EXPECT_EQ(captured(k, {1}), expected);
    expectResults(results, std::vector<int>(12, 0));
  }
}

TEST_F(Printf, FloatingPointConversionsOfFloatDoubleAndHalf) {
  const float f = 1234.5678f, tiny = 1.0e-40f, big = 3.0e38f;
  const double d = -0.1;
  const _Float16 h = static_cast<_Float16>(0.333f);
  const double x = static_cast<double>(h);
  std::string expected;
  expected += format("f=%f F=%F e=%e E=%E g=%g G=%G a=%a A=%A\n", f, f, f, f, f, f, f, f);
  expected += format("double: %f %e %g %a %f %.17g\n", d, d, d, d, d, d);
  expected += format("half: %f %e %g %a\n", x, x, x, x);
  expected += format("flags: [%+f] [% e] [%-12.3f] [%012.4f] [%#.0f] [%#g] [%#.0e] [%+.3a]\n", f, f,
                     f, -f, f, f, f, f);
  expected +=
      format("precision: [%.0f] [%.10f] [%.2e] [%.3g] [%.0g] [%.1a] [%.f]\n", f, d, f, d, f, f, f);
  expected +=
      format("big: %g %e %f %G; tiny: %g %e %a %A\n", big, big, big, big, tiny, tiny, tiny, tiny);
  const float inf = INFINITY, nan = NAN;
  expected += format("special: %f %F %e %G %a %A [%8f] [%-8F] %f\n", inf, inf, -inf, -inf, inf,
                     -inf, nan, nan, 0.0f);
  std::uint16_t halfBits;
  std::memcpy(&halfBits, &h, 2);
  for (const char *variant : variants) {
    SCOPED_TRACE(label(variant));
    cl_kernel k = printfKernel("floats", variant);
    cl_mem results = buffer<int>(std::vector<int>(7, 7));
    cl_mem halves = buffer<std::uint16_t>(std::vector<std::uint16_t>{halfBits});
    setArgs(k, results, f, d, tiny, big, halves);
    EXPECT_EQ(captured(k, {1}), expected);
    expectResults(results, std::vector<int>(7, 0));
  }
}

TEST_F(Printf, StringsOfConstantMemoryAndPointers) {
  for (const char *variant : variants) {
    for (int pick : {0, 1}) {
      SCOPED_TRACE(label(variant) + " pick " + std::to_string(pick));
      cl_kernel k = printfKernel("strings", variant);
      cl_mem results = buffer<int>(std::vector<int>(4, 7));
      cl_mem pointers = buffer<cl_ulong>(1);
      setArgs(k, results, pointers, pick);
      const std::string output = captured(k, {1});
      const cl_ulong address = read<cl_ulong>(pointers, 1)[0];
      const char *chosen = pick ? "first choice" : "second choice";
      std::string expected;
      expected += format("%s|%12s|%-12s|%.4s|%s|\n", "literal", "right", "left", "truncated",
                         "a constant string");
      expected += format("chosen: %s [%.6s]\n", chosen, chosen);
      if (testingLanewise()) // %p is implementation-defined: Lanewise uses the host's
        expected += format("pointers: %p %p\n", reinterpret_cast<void *>(address),
                           static_cast<void *>(nullptr));
      else
        expected +=
            output.substr(output.find("pointers: "), output.find('\n', output.find("pointers: ")) +
                                                         1 - output.find("pointers: "));
      expected += format("%s%s\n", "", "only the second");
      EXPECT_EQ(output, expected);
      expectResults(results, std::vector<int>(4, 0));
    }
  }
}

TEST_F(Printf, FormatHeldInAConstantPointerVariable) {
  for (const char *variant : variants) {
    SCOPED_TRACE(label(variant));
    cl_kernel k = printfKernel("format_in_a_variable", variant);
    cl_mem results = buffer<int>(std::vector<int>{7});
    setArgs(k, results, -5);
    EXPECT_EQ(captured(k, {1}), format("format in a variable: %d\n", -5));
    expectResults(results, {0});
  }
}

// "The format ... must be resolvable at compile time".
TEST_F(Printf, AFormatChosenAtRunTimeFailsTheBuild) {
  if (!testingLanewise())
    GTEST_SKIP() << "undefined behaviour elsewhere";
  for (const char *variant : variants) {
    SCOPED_TRACE(label(variant));
    std::string log;
    EXPECT_EQ(tryBuild("printf_dynamic_format", log, variant), CL_BUILD_PROGRAM_FAILURE);
    EXPECT_NE(log.find("kernel 'dynamic_format'"), std::string::npos) << log;
    EXPECT_NE(log.find("printf"), std::string::npos) << log;
  }
}

TEST_F(Printf, VectorSpecifiersOfEverySizeAndElementType) {
  const std::vector<cl_char> c = {-128, -1, 0,  1,   127, 100, -100, 42,
                                  7,    -7, 55, -55, 3,   -3,  99,   -99};
  const std::vector<cl_short> s = {-32768, -1,    0,     1,   32767, 1000, -1000, 4242,
                                   7,      -7000, 12345, -55, 3,     -3,   9999,  -9999};
  const std::vector<cl_int> i = {INT32_MIN, -1, 0,   1,     INT32_MAX, 100000, -100000, 424242,
                                 7,         -7, 555, -5555, 3,         -3,     99,      -99};
  const std::vector<cl_long> l = {
      INT64_MIN, -1, 0,  1,  INT64_MAX, 1000000000000L, -1000000000000L, 4242, 7, -7, 5,
      -5,        3,  -3, 99, -99};
  const std::vector<float> halfValues = {
      0.5f,  -1.25f, 0,  65504, -0.000061035156f, 3.140625f, 2, -3, 1024, 0.099975586f, -7.5f, 8,
      9.25f, -10,    11, -12.5f};
  std::vector<std::uint16_t> halfBits;
  std::vector<double> h;
  for (float v : halfValues) {
    const _Float16 x = static_cast<_Float16>(v);
    std::uint16_t bits;
    std::memcpy(&bits, &x, 2);
    halfBits.push_back(bits);
    h.push_back(static_cast<double>(x));
  }
  const std::vector<float> f = {1.5f,     -2.25f, 3.14159274f, 1e10f, -1e-10f, 0,
                                INFINITY, -0.0f,  123.456f,    7,     -8,      1e38f,
                                2e-38f,   0.1f,   -0.2f,       65536};
  const std::vector<double> d = {1.5,       -2.25,   3.141592653589793,
                                 1e100,     -1e-100, 0,
                                 -INFINITY, -0.0,    123.456,
                                 7,         -8,      1e308,
                                 2e-308,    0.1,     -0.2,
                                 65536};

  std::string expected;
  for (int n : {2, 3, 4, 8, 16}) {
    const std::string v = "v" + std::to_string(n);
    expected += v + " char: " + join(n, [&](int k) { return format("%hhd", c[k]); }) + "|" +
                join(n, [&](int k) { return format("%hhu", (unsigned char)c[k]); }) + "|" +
                join(n, [&](int k) { return format("%#hhx", (unsigned char)c[k]); }) + "\n";
    expected += v + " short: " + join(n, [&](int k) { return format("%hd", s[k]); }) + "|" +
                join(n, [&](int k) { return format("%hu", (unsigned short)s[k]); }) + "|" +
                join(n, [&](int k) { return format("%hX", (unsigned short)s[k]); }) + "\n";
    expected += v + " int: " + join(n, [&](int k) { return format("%d", i[k]); }) + "|" +
                join(n, [&](int k) { return format("%i", i[k]); }) + "|" +
                join(n, [&](int k) { return format("%o", (unsigned)i[k]); }) + "|" +
                join(n, [&](int k) { return format("%+d", i[k]); }) + "\n";
    expected += v + " long: " + join(n, [&](int k) { return format("%ld", (long)l[k]); }) + "|" +
                join(n, [&](int k) { return format("%lu", (unsigned long)l[k]); }) + "|" +
                join(n, [&](int k) { return format("%lx", (unsigned long)l[k]); }) + "\n";
    expected += v + " half: " + join(n, [&](int k) { return format("%f", h[k]); }) + "|" +
                join(n, [&](int k) { return format("%g", h[k]); }) + "\n";
    expected += v + " float: " + join(n, [&](int k) { return format("%f", f[k]); }) + "|" +
                join(n, [&](int k) { return format("%e", f[k]); }) + "|" +
                join(n, [&](int k) { return format("%.3g", f[k]); }) + "|" +
                join(n, [&](int k) { return format("%a", f[k]); }) + "\n";
    expected += v + " double: " + join(n, [&](int k) { return format("%f", d[k]); }) + "|" +
                join(n, [&](int k) { return format("%E", d[k]); }) + "|" +
                join(n, [&](int k) { return format("%A", d[k]); }) + "\n";
  }
  // The specification's examples, with the output it gives.
  expected += "f4 = 1.00,2.00,3.00,4.00\n";
  expected += "uc = 0xfa,0xfb,0xfc,0xfd\n";
  expected += "flags: [" + join(2, [&](int k) { return format("%+8.2f", f[k]); }) + "] [" +
              join(2, [&](int k) { return format("%-6d", i[k]); }) + "] [" +
              join(2, [&](int k) { return format("%06d", i[2 + k]); }) + "]\n";

  const size_t calls = 5 * 7 + 3;
  for (const char *variant : variants) {
    SCOPED_TRACE(label(variant));
    cl_kernel k = printfKernel("vectors", variant);
    cl_mem results = buffer<int>(std::vector<int>(calls, 7));
    setArgs(k, results, buffer(c), buffer(s), buffer(i), buffer(l), buffer(halfBits), buffer(f),
            buffer(d));
    EXPECT_EQ(captured(k, {1}), expected);
    expectResults(results, std::vector<int>(calls, 0));
  }
}

// From source, for a device without doubles clang passes a float to %f as a
// float (6.15.14.3), and a vector's elements as they are.
TEST_F(Printf, SourceProgramsPassFloatsAsTheyAre) {
  if (!deviceInfo<cl_bool>(device, CL_DEVICE_COMPILER_AVAILABLE))
    GTEST_SKIP() << "no OpenCL C compiler";
  const char *source = "kernel void from_source(float f, global int *results) {\n"
                       "  results[get_global_id(0)] = printf(\"%u: %f %.2e %v2hlg\\n\",\n"
                       "      (uint)get_global_id(0), f, f * 2, (float2)(f, -f));\n"
                       "}\n";
  cl_int error = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  for (const char *options : {"", "-cl-opt-disable"}) {
    SCOPED_TRACE(options);
    ASSERT_EQ(clBuildProgram(program, 1, &device, options, nullptr, nullptr), CL_SUCCESS);
    cl_kernel k = clCreateKernel(program, "from_source", &error);
    ASSERT_EQ(error, CL_SUCCESS);
    const float f = 1.25f;
    cl_mem results = buffer<int>(std::vector<int>(3, 7));
    setArgs(k, f, results);
    std::string expected;
    for (unsigned i = 0; i < 3; ++i)
      expected += format("%u: %f %.2e %s\n", i, f, f * 2,
                         (format("%g", f) + "," + format("%g", -f)).c_str());
    expectOrdered(captured(k, {3}), expected);
    expectResults(results, std::vector<int>(3, 0));
    clReleaseKernel(k);
  }
  clReleaseProgram(program);
}

// One line per work-item, in the ND-range's order (x fastest), over ranges
// whose last work-groups are partial.
TEST_F(Printf, WorkItemsPrintInTheOrderOfTheRange) {
  struct Range {
    std::vector<size_t> global, local, offset;
  };
  const std::vector<Range> ranges = {
      {{300}, {64}, {}}, {{10}, {4}, {3}}, {{37, 5}, {8, 2}, {}}, {{5, 4, 3}, {2, 3, 2}, {}}};
  for (const char *variant : variants)
    for (const Range &range : ranges) {
      std::vector<size_t> global = range.global, local = range.local, offset = range.offset;
      global.resize(3, 1);
      local.resize(3, 1);
      offset.resize(3, 0);
      SCOPED_TRACE(label(variant) + " " + format("%zux%zux%zu", global[0], global[1], global[2]));
      std::string expected;
      for (size_t z = offset[2]; z < offset[2] + global[2]; ++z)
        for (size_t y = offset[1]; y < offset[1] + global[1]; ++y)
          for (size_t x = offset[0]; x < offset[0] + global[0]; ++x)
            expected +=
                format("item (%u,%u,%u) of group (%u,%u,%u)\n", unsigned(x), unsigned(y),
                       unsigned(z), unsigned((x - offset[0]) / local[0]),
                       unsigned((y - offset[1]) / local[1]), unsigned((z - offset[2]) / local[2]));
      const size_t items = global[0] * global[1] * global[2];
      cl_kernel k = printfKernel("ids", variant);
      cl_mem results = buffer<int>(std::vector<int>(items, 7));
      setArgs(k, results);
      expectOrdered(captured(k, range.global, range.local, range.offset), expected);
      expectResults(results, std::vector<int>(items, 0));
    }
}

TEST_F(Printf, OnlyTheWorkItemsThatReachAPrintfPrint) {
  const unsigned n = 200;
  std::string expected;
  std::vector<int> returned(n, 1);
  for (unsigned i = 0; i < n; ++i)
    if (i % 3 == 1) {
      expected += format("%u is 1 mod 3\n", i);
      returned[i] = 0;
    } else if (i % 5 == 0) {
      expected += format("%u: %s\n", i, "a multiple of 5");
      returned[i] = 0;
    }
  for (const char *variant : variants) {
    SCOPED_TRACE(label(variant));
    cl_kernel k = printfKernel("divergent", variant);
    cl_mem results = buffer<int>(std::vector<int>(n, 7));
    setArgs(k, results);
    expectOrdered(captured(k, {n}, {64}), expected);
    expectResults(results, returned);
  }
}

TEST_F(Printf, EachWorkItemsLinesComeInProgramOrder) {
  const unsigned n = 300;
  std::vector<int> counts(n);
  std::string expected;
  for (unsigned i = 0; i < n; ++i) {
    counts[i] = static_cast<int>(i * 7 % 5);
    for (int k = 0; k < counts[i]; ++k)
      expected += format("%u: step %d of %d\n", i, k, counts[i]);
    expected += format("%u: done\n", i);
  }
  for (const char *variant : variants) {
    SCOPED_TRACE(label(variant));
    cl_kernel k = printfKernel("loop", variant);
    cl_mem results = buffer<int>(std::vector<int>(n, 7));
    setArgs(k, results, buffer(counts));
    expectOrdered(captured(k, {n}, {256}), expected);
    expectResults(results, std::vector<int>(n, 0));
  }
}

TEST_F(Printf, LinesBeforeAndAfterABarrier) {
  const unsigned n = 512, group = 256;
  std::string expected;
  for (unsigned i = 0; i < n; ++i) {
    expected += format("%u before\n", i);
    expected += format("%u after, neighbour %d\n", i, int(i / group * group + (i + 1) % group));
  }
  for (const char *variant : variants) {
    SCOPED_TRACE(label(variant));
    cl_kernel k = printfKernel("barrier_order", variant);
    cl_mem results = buffer<int>(std::vector<int>(n, 7));
    setArgs(k, results, Local{group * sizeof(int)});
    expectOrdered(captured(k, {n}, {group}), expected);
    expectResults(results, std::vector<int>(n, 0));
  }
}

// "printf returns 0 if it was executed successfully and -1 otherwise": a
// format the specification forbids, too few arguments or an argument of
// another type than the conversion's fail.
TEST_F(Printf, InvalidFormatsReturnMinusOneAndPrintNothing) {
  std::vector<int> returned(14, -1);
  returned.front() = 0;
  returned.back() = 0;
  for (const char *variant : variants) {
    SCOPED_TRACE(label(variant));
    cl_kernel k = printfKernel("invalid", variant);
    cl_mem results = buffer<int>(std::vector<int>(14, 7));
    setArgs(k, results);
    const std::string output = captured(k, {1});
    if (!testingLanewise())
      GTEST_SKIP() << "undefined behaviour elsewhere";
    EXPECT_EQ(output, "valid before\nvalid after 42\n");
    expectResults(results, returned);
  }
}

// CL_DEVICE_PRINTF_BUFFER_SIZE bounds one launch's output: the records that
// do not fit are dropped and their printf returns -1.
TEST_F(Printf, OutputBeyondTheBufferSizeIsDropped) {
  if (!testingLanewise())
    GTEST_SKIP() << "what happens beyond the buffer is implementation-defined";
  const size_t size = deviceInfo<size_t>(device, CL_DEVICE_PRINTF_BUFFER_SIZE);
  EXPECT_GE(size, size_t{1024 * 1024}); // the full profile's minimum
  const int count = static_cast<int>(size / 1001 + 50);
  const size_t kept = size / 1001; // each record: 1000 characters and a newline
  std::string expected;
  std::vector<int> returned(count, -1);
  for (size_t k = 0; k < kept; ++k) {
    expected += format("%1000d\n", int(k));
    returned[k] = 0;
  }
  for (const char *variant : variants) {
    SCOPED_TRACE(label(variant));
    cl_kernel k = printfKernel("flood", variant);
    cl_mem results = buffer<int>(std::vector<int>(count, 7));
    setArgs(k, results, count);
    EXPECT_TRUE(captured(k, {1}) == expected);
    expectResults(results, returned);
  }
}

// One launch's output is complete when its command completes and is never
// mixed with another's.
TEST_F(Printf, LaunchesDoNotInterleave) {
  const unsigned n = 300;
  auto lines = [&](int tag) {
    std::string text;
    for (unsigned i = 0; i < n; ++i)
      text += format("kernel %d, item %u\n", tag, i);
    return text;
  };
  for (const char *variant : variants) {
    SCOPED_TRACE(label(variant));
    cl_kernel first = printfKernel("tagged", variant);
    cl_kernel second = printfKernel("tagged", variant);
    cl_mem results1 = buffer<int>(n), results2 = buffer<int>(n);
    setArgs(first, results1, 1);
    setArgs(second, results2, 2);
    const size_t global = n, local = 50;
    {
      // Back to back on one in-order queue.
      CapturedStdout capture;
      EXPECT_EQ(
          clEnqueueNDRangeKernel(queue, first, 1, nullptr, &global, &local, 0, nullptr, nullptr),
          CL_SUCCESS);
      EXPECT_EQ(
          clEnqueueNDRangeKernel(queue, second, 1, nullptr, &global, &local, 0, nullptr, nullptr),
          CL_SUCCESS);
      EXPECT_EQ(clFinish(queue), CL_SUCCESS);
      const std::string output = capture.text();
      expectOrdered(output, lines(1) + lines(2));
    }
    {
      // At the same time on two queues: one block, then the other.
      cl_int error = CL_SUCCESS;
      cl_command_queue other = clCreateCommandQueueWithProperties(context, device, nullptr, &error);
      ASSERT_EQ(error, CL_SUCCESS);
      CapturedStdout capture;
      EXPECT_EQ(
          clEnqueueNDRangeKernel(queue, first, 1, nullptr, &global, &local, 0, nullptr, nullptr),
          CL_SUCCESS);
      EXPECT_EQ(
          clEnqueueNDRangeKernel(other, second, 1, nullptr, &global, &local, 0, nullptr, nullptr),
          CL_SUCCESS);
      EXPECT_EQ(clFinish(queue), CL_SUCCESS);
      EXPECT_EQ(clFinish(other), CL_SUCCESS);
      const std::string output = capture.text();
      clReleaseCommandQueue(other);
      if (testingLanewise())
        EXPECT_TRUE(output == lines(1) + lines(2) || output == lines(2) + lines(1)) << output;
      else
        EXPECT_EQ(sortedLines(output), sortedLines(lines(1) + lines(2)));
    }
  }
}

} // namespace
} // namespace lanewise::test
