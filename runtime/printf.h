// SPDX-License-Identifier: Apache-2.0
// OpenCL C printf (OpenCL C 3.0, 6.15.14; the OpenCL.std printf extended
// instruction): the format parsed once when the kernel is built, the
// formatting of one conversion, and the per-launch log that keeps each
// work-item's output until the NDRange command completes.
#pragma once

#include "runtime/bytecode.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace lanewise::runtime {

// The output one launch may keep, reported as CL_DEVICE_PRINTF_BUFFER_SIZE
// (the specification's minimum for the full profile). A record that does
// not fit in what is left is dropped and its printf returns -1.
constexpr std::uint64_t printfBufferBytes = 1024 * 1024;

// ---- The format (printf_format.cpp) ----

enum class PrintfLength : std::uint8_t {
  None,
  hh, // char (scalar: the promoted int converted back); with vn: charn
  h,  // short; with vn: shortn or halfn
  hl, // only with vn: intn or floatn
  l,  // long; with vn: longn or doublen
  z,  // size_t (OpenCL C 3.1)
  t,  // ptrdiff_t (OpenCL C 3.1)
};

// One conversion specification: %[flags][width][.precision][vn][length]specifier.
struct PrintfConversion {
  std::string flags;            // any of - + space # 0
  int width = -1;               // -1: none
  int precision = -1;           // -1: none
  std::uint32_t vectorSize = 0; // 0: no vector specifier, else 2, 3, 4, 8 or 16
  PrintfLength length = PrintfLength::None;
  char specifier = 0; // d i o u x X f F e E g G a A c s p
  // The same conversion for the host's snprintf, applied to each element:
  // integers are passed as long long, floating-point values as double.
  std::string hostFormat;

  bool isInteger() const;
  bool isSigned() const; // d, i
  bool isFloat() const;
  // Bytes of each element the length modifier names (0: no modifier).
  std::uint32_t lengthBytes() const;
};

// Ordinary characters (%% included), or a conversion that takes the next
// argument.
struct PrintfPiece {
  bool isConversion = false;
  std::string text;
  PrintfConversion conversion;
};

struct ParsedFormat {
  std::vector<PrintfPiece> pieces;
  std::string error; // non-empty: the format is invalid (OpenCL C 3.0, 6.15.14.2-3)
};

// Parses `format` (without its terminating null). The conversions that the
// specification reserves or leaves undefined (*, ll, j, L, n, l with c or s,
// a vector specifier without a length modifier or with c, s or p, hl without
// a vector specifier) make it invalid.
ParsedFormat parsePrintfFormat(std::string_view format);

// Appends one element converted by `c` to `out`; false if the C library
// could not format it. Integers come as their `sourceBytes` low bytes;
// the length modifier's size (4 without one) is the size printed, reached by
// sign extension for d and i, zero extension otherwise, or truncation.
bool appendPrintfInteger(std::string &out, const PrintfConversion &c, std::uint64_t bits,
                         std::uint32_t sourceBytes);
bool appendPrintfFloat(std::string &out, const PrintfConversion &c, double value);
bool appendPrintfCharacter(std::string &out, const PrintfConversion &c, std::uint64_t bits);
bool appendPrintfString(std::string &out, const PrintfConversion &c, const char *text);
bool appendPrintfPointer(std::string &out, const PrintfConversion &c, std::uint64_t address);

// ---- A printf instruction as built (Instruction::data) ----

// Where the argument of a conversion is.
struct PrintfArgument {
  std::uint32_t offset = 0; // register
  bool varying = false;
  Scalar scalar = Scalar::I32;
  std::uint32_t components = 1;
};

struct PrintfCall {
  // False when the format is invalid or an argument is missing or of a type
  // the conversion cannot take: every execution returns -1 and prints
  // nothing.
  bool valid = true;
  // Literal pieces, and conversions in argument order (a %s whose string is
  // known when the kernel is built is already a literal piece).
  std::vector<PrintfPiece> pieces;
  std::vector<PrintfArgument> arguments; // one per conversion piece
};

// The result (a 32-bit register, varying when `aux` is 1) is 0 for each
// active lane whose record was kept, -1 otherwise.
Handler printfHandler();

// ---- The output of one launch (exec_printf.cpp) ----

// Records of the work-items of one launch, kept per worker thread (a
// work-group runs to its end on one thread, so each work-item's records are
// in one place, in program order) and written out together when the launch
// ends.
class PrintfLog {
public:
  explicit PrintfLog(std::uint64_t capacity = printfBufferBytes);
  ~PrintfLog();
  PrintfLog(const PrintfLog &) = delete;
  PrintfLog &operator=(const PrintfLog &) = delete;

  // The text buffer of the calling thread: a record is formatted at its end,
  // then kept with keep() or discarded by truncating the buffer.
  std::string &buffer();
  // Keeps the text appended to buffer() since `start` as a record of
  // work-item `globalLinearId`; false (and the text discarded) when the
  // launch's output would exceed the capacity.
  bool keep(std::uint64_t globalLinearId, std::size_t start);

  // Writes every record to stdout, ordered by work-item (global linear id:
  // the ND-range order, x fastest) and, within a work-item, in program
  // order, under a process-wide lock so that no other launch's output comes
  // in between, and flushes stdout.
  void write();

private:
  struct Threads;
  std::unique_ptr<Threads> threads_;
  std::atomic<std::uint64_t> used_{0};
  std::uint64_t capacity_;
};

} // namespace lanewise::runtime
