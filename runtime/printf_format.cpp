// SPDX-License-Identifier: Apache-2.0
// The printf format string of OpenCL C 3.0, 6.15.14.2, and the conversion
// of one value. OpenCL C printf follows C99 for each conversion, so the
// host's snprintf does the converting; what OpenCL C changes (the vector
// specifier, the hl modifier, what is reserved) is decided here.
#include "runtime/printf.h"

#include <climits>
#include <cstdio>
#include <cstring>

namespace lanewise::runtime {

namespace {

bool isOneOf(char c, const char *set) { return c != 0 && std::strchr(set, c) != nullptr; }

} // namespace

bool PrintfConversion::isInteger() const { return isOneOf(specifier, "diouxX"); }
bool PrintfConversion::isSigned() const { return specifier == 'd' || specifier == 'i'; }
bool PrintfConversion::isFloat() const { return isOneOf(specifier, "fFeEgGaA"); }

std::uint32_t PrintfConversion::lengthBytes() const {
  switch (length) {
  case PrintfLength::None:
    return 0;
  case PrintfLength::hh:
    return 1;
  case PrintfLength::h:
    return 2;
  case PrintfLength::hl:
    return 4;
  case PrintfLength::l:
  case PrintfLength::z:
  case PrintfLength::t:
    return 8;
  }
  return 0;
}

ParsedFormat parsePrintfFormat(std::string_view format) {
  ParsedFormat result;
  std::string literal;
  auto endLiteral = [&] {
    if (!literal.empty())
      result.pieces.push_back({false, std::move(literal), {}});
    literal.clear();
  };
  size_t i = 0;
  size_t start = 0;
  auto invalid = [&](const std::string &why) {
    result.pieces.clear();
    result.error = "conversion '" + std::string(format.substr(start, i - start)) + "' at offset " +
                   std::to_string(start) + ": " + why;
    return result;
  };
  // A nonnegative decimal integer; false if it does not fit an int.
  auto number = [&](int &value) {
    long long n = 0;
    while (i < format.size() && format[i] >= '0' && format[i] <= '9') {
      n = n * 10 + (format[i++] - '0');
      if (n > INT_MAX)
        return false;
    }
    value = static_cast<int>(n);
    return true;
  };

  while (i < format.size()) {
    const char ch = format[i++];
    if (ch != '%') {
      literal += ch;
      continue;
    }
    start = i - 1;
    // "%: A % character is written. The complete conversion specification
    // shall be %%."
    if (i < format.size() && format[i] == '%') {
      literal += '%';
      ++i;
      continue;
    }
    PrintfConversion c;
    while (i < format.size() && isOneOf(format[i], "-+ #0"))
      c.flags += format[i++];
    // 6.15.14.3: "The asterisk * field width specifier is not supported."
    if (i < format.size() && format[i] == '*')
      return invalid("the asterisk field width is not supported");
    if (i < format.size() && format[i] >= '0' && format[i] <= '9' && !number(c.width))
      return invalid("the field width is too large");
    if (i < format.size() && format[i] == '.') {
      ++i;
      if (i < format.size() && format[i] == '*')
        return invalid("the asterisk precision is not supported");
      // "if only the period is specified, the precision is taken as zero."
      if (!number(c.precision))
        return invalid("the precision is too large");
    }
    if (i < format.size() && format[i] == 'v') {
      ++i;
      int n = 0;
      if (!number(n) || (n != 2 && n != 3 && n != 4 && n != 8 && n != 16))
        return invalid("a vector specifier's size must be 2, 3, 4, 8 or 16");
      c.vectorSize = static_cast<std::uint32_t>(n);
    }
    auto next = [&](size_t k) { return i + k < format.size() ? format[i + k] : '\0'; };
    switch (next(0)) {
    case 'h':
      if (next(1) == 'h') {
        c.length = PrintfLength::hh;
        i += 2;
      } else if (next(1) == 'l') {
        c.length = PrintfLength::hl;
        i += 2;
      } else {
        c.length = PrintfLength::h;
        ++i;
      }
      break;
    case 'l':
      if (next(1) == 'l') {
        i += 2;
        return invalid("the ll length modifier is reserved");
      }
      c.length = PrintfLength::l;
      ++i;
      break;
    case 'j':
    case 'L':
      ++i;
      return invalid("the j and L length modifiers are reserved");
    // z and t are OpenCL C 3.1's; earlier versions reserve them, so
    // accepting them changes the meaning of no valid format.
    case 'z':
      c.length = PrintfLength::z;
      ++i;
      break;
    case 't':
      c.length = PrintfLength::t;
      ++i;
      break;
    default:
      break;
    }
    if (i >= format.size())
      return invalid("the format ends inside a conversion specification");
    c.specifier = format[i++];
    if (c.specifier == 'n')
      return invalid("the n conversion specifier is reserved");
    if (!isOneOf(c.specifier, "diouxXfFeEgGaAcsp"))
      return invalid("unknown conversion specifier");

    const bool vector = c.vectorSize != 0;
    if (vector && c.length == PrintfLength::None)
      return invalid("a vector specifier needs a length modifier");
    if (c.length == PrintfLength::hl && !vector)
      return invalid("the hl length modifier is only valid with a vector specifier");
    if (!c.isInteger() && !c.isFloat()) {
      // c, s and p.
      if (vector)
        return invalid("the vector specifier applies to integer and floating-point conversions");
      if (c.length != PrintfLength::None)
        return invalid("a length modifier does not apply to c, s or p");
    }
    if (c.isFloat()) {
      // Scalars: "l" has no effect (C99); the others name integer types.
      // Vectors: h, hl and l name halfn, floatn and doublen.
      const bool allowed = vector ? c.length == PrintfLength::h || c.length == PrintfLength::hl ||
                                        c.length == PrintfLength::l
                                  : c.length == PrintfLength::None || c.length == PrintfLength::l;
      if (!allowed)
        return invalid("this length modifier does not apply to a floating-point conversion");
    }
    if (c.isInteger() && vector && (c.length == PrintfLength::z || c.length == PrintfLength::t))
      return invalid("z and t do not apply to vectors");

    c.hostFormat = "%" + c.flags;
    if (c.width >= 0)
      c.hostFormat += std::to_string(c.width);
    if (c.precision >= 0)
      c.hostFormat += "." + std::to_string(c.precision);
    if (c.isInteger())
      c.hostFormat += "ll";
    c.hostFormat += c.specifier;
    endLiteral();
    result.pieces.push_back({true, {}, std::move(c)});
  }
  endLiteral();
  return result;
}

namespace {

// snprintf into the end of `out`.
template <typename T> bool append(std::string &out, const std::string &format, T value) {
  char small[128];
  const int n = std::snprintf(small, sizeof small, format.c_str(), value);
  if (n < 0)
    return false;
  if (static_cast<size_t>(n) < sizeof small) {
    out.append(small, static_cast<size_t>(n));
    return true;
  }
  if (static_cast<std::uint64_t>(n) > printfBufferBytes)
    return false; // no launch could keep it (e.g. %2000000000d)
  const size_t at = out.size();
  out.resize(at + static_cast<size_t>(n) + 1);
  std::snprintf(out.data() + at, static_cast<size_t>(n) + 1, format.c_str(), value);
  out.resize(at + static_cast<size_t>(n));
  return true;
}

std::uint64_t lowBytes(std::uint64_t bits, std::uint32_t bytes) {
  return bytes >= 8 ? bits : bits & ((std::uint64_t(1) << (bytes * 8)) - 1);
}

std::int64_t signExtend(std::uint64_t bits, std::uint32_t bytes) {
  if (bytes >= 8)
    return static_cast<std::int64_t>(bits);
  const unsigned shift = 64 - bytes * 8;
  return static_cast<std::int64_t>(bits << shift) >> shift;
}

} // namespace

// hh and h: "the argument will have been promoted according to the integer
// promotions, but its value shall be converted to char or uchar [short or
// ushort] before printing".
bool appendPrintfInteger(std::string &out, const PrintfConversion &c, std::uint64_t bits,
                         std::uint32_t sourceBytes) {
  const std::uint32_t bytes = c.lengthBytes() ? c.lengthBytes() : 4;
  std::uint64_t value = lowBytes(bits, sourceBytes);
  if (sourceBytes < bytes && c.isSigned())
    value = static_cast<std::uint64_t>(signExtend(value, sourceBytes));
  if (c.isSigned())
    return append(out, c.hostFormat, static_cast<long long>(signExtend(value, bytes)));
  return append(out, c.hostFormat, static_cast<unsigned long long>(lowBytes(value, bytes)));
}

bool appendPrintfFloat(std::string &out, const PrintfConversion &c, double value) {
  return append(out, c.hostFormat, value);
}

// c: "The int argument is converted to an unsigned char, and the resulting
// character is written."
bool appendPrintfCharacter(std::string &out, const PrintfConversion &c, std::uint64_t bits) {
  return append(out, c.hostFormat, static_cast<int>(static_cast<unsigned char>(bits)));
}

bool appendPrintfString(std::string &out, const PrintfConversion &c, const char *text) {
  return append(out, c.hostFormat, text);
}

// p: "converted to a sequence of printing characters in an
// implementation-defined manner": the host's %p.
bool appendPrintfPointer(std::string &out, const PrintfConversion &c, std::uint64_t address) {
  return append(out, c.hostFormat, reinterpret_cast<const void *>(address));
}

} // namespace lanewise::runtime
