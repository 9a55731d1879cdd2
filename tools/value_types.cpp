// SPDX-License-Identifier: Apache-2.0
#include "value_types.h"

#include "errors.h"

#include <array>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace lanewise::cli {

namespace {

struct ScalarInfo {
  ScalarKind kind;
  std::string_view name;
  size_t size;
  __int128 minimum; // integer kinds and half (raw bits)
  __int128 maximum;
};

constexpr __int128 int64Min = std::numeric_limits<int64_t>::min();
constexpr __int128 int64Max = std::numeric_limits<int64_t>::max();
constexpr __int128 uint64Max = std::numeric_limits<uint64_t>::max();

constexpr std::array<ScalarInfo, 11> scalars{{
    {ScalarKind::Char, "char", 1, -128, 127},
    {ScalarKind::UChar, "uchar", 1, 0, 255},
    {ScalarKind::Short, "short", 2, -32768, 32767},
    {ScalarKind::UShort, "ushort", 2, 0, 65535},
    {ScalarKind::Int, "int", 4, std::numeric_limits<int32_t>::min(),
     std::numeric_limits<int32_t>::max()},
    {ScalarKind::UInt, "uint", 4, 0, std::numeric_limits<uint32_t>::max()},
    {ScalarKind::Long, "long", 8, int64Min, int64Max},
    {ScalarKind::ULong, "ulong", 8, 0, uint64Max},
    {ScalarKind::Half, "half", 2, 0, 65535},
    {ScalarKind::Float, "float", 4, 0, 0},
    {ScalarKind::Double, "double", 8, 0, 0},
}};

const ScalarInfo &info(ScalarKind kind) { return scalars[static_cast<size_t>(kind)]; }

// The spellings of the same types that clang writes into kernel argument
// type names.
constexpr std::array<std::pair<std::string_view, std::string_view>, 8> aliases{{
    {"unsigned char", "uchar"},
    {"signed char", "char"},
    {"unsigned short", "ushort"},
    {"unsigned int", "uint"},
    {"unsigned", "uint"},
    {"unsigned long", "ulong"},
    {"signed short", "short"},
    {"signed int", "int"},
}};

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

std::string int128Text(__int128 value) {
  if (value == 0)
    return "0";
  const bool negative = value < 0;
  unsigned __int128 magnitude =
      negative ? -static_cast<unsigned __int128>(value) : static_cast<unsigned __int128>(value);
  std::string digits;
  while (magnitude) {
    digits.insert(digits.begin(), static_cast<char>('0' + magnitude % 10));
    magnitude /= 10;
  }
  return negative ? "-" + digits : digits;
}

Number parseInteger(ScalarKind kind, std::string_view text) {
  std::string_view rest = text;
  bool negative = false;
  if (!rest.empty() && (rest[0] == '-' || rest[0] == '+')) {
    negative = rest[0] == '-';
    rest.remove_prefix(1);
  }
  unsigned base = 10;
  if (rest.size() > 2 && rest[0] == '0' && (rest[1] == 'x' || rest[1] == 'X')) {
    base = 16;
    rest.remove_prefix(2);
  }
  if (rest.empty())
    throw UsageError(quoted(text) + " is not a " + std::string(info(kind).name) + " value");
  unsigned __int128 magnitude = 0;
  for (char c : rest) {
    unsigned digit = 0;
    if (c >= '0' && c <= '9')
      digit = c - '0';
    else if (base == 16 && c >= 'a' && c <= 'f')
      digit = c - 'a' + 10;
    else if (base == 16 && c >= 'A' && c <= 'F')
      digit = c - 'A' + 10;
    else
      throw UsageError(quoted(text) + " is not a " + std::string(info(kind).name) + " value" +
                       (kind == ScalarKind::Half ? " (half values are written as their raw bits, "
                                                   "such as 0x3c00 for 1.0)"
                                                 : ""));
    magnitude = magnitude * base + digit;
    if (magnitude > static_cast<unsigned __int128>(uint64Max) + 1)
      throw UsageError(quoted(text) + " does not fit in " + std::string(info(kind).name));
  }
  Number number;
  number.integer = negative ? -static_cast<__int128>(magnitude) : static_cast<__int128>(magnitude);
  return number;
}

Number parseReal(ScalarKind kind, std::string_view text) {
  const std::string copy(text);
  char *end = nullptr;
  errno = 0;
  Number number;
  // Parsed at the kind's own precision, so that a decimal is rounded once.
  if (kind == ScalarKind::Float)
    number.real = std::strtof(copy.c_str(), &end);
  else
    number.real = std::strtod(copy.c_str(), &end);
  if (copy.empty() || end != copy.c_str() + copy.size() || std::isspace(copy[0]))
    throw UsageError(quoted(text) + " is not a " + std::string(info(kind).name) + " value");
  return number;
}

template <typename T> void storeAs(T value, std::byte *out) {
  std::memcpy(out, &value, sizeof value);
}

template <typename T> T loadAs(const std::byte *in) {
  T value;
  std::memcpy(&value, in, sizeof value);
  return value;
}

std::string printed(const char *format, auto value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

} // namespace

size_t ValueType::scalarSize() const { return info(scalar).size; }

std::string ValueType::name() const {
  std::string text(scalarName(scalar));
  if (components > 1)
    text += std::to_string(components);
  return text;
}

std::string_view scalarName(ScalarKind kind) { return info(kind).name; }

bool sameButSignedness(const ValueType &a, const ValueType &b) {
  auto signedKind = [](ScalarKind kind) {
    switch (kind) {
    case ScalarKind::UChar:
      return ScalarKind::Char;
    case ScalarKind::UShort:
      return ScalarKind::Short;
    case ScalarKind::UInt:
      return ScalarKind::Int;
    case ScalarKind::ULong:
      return ScalarKind::Long;
    default:
      return kind;
    }
  };
  return a.components == b.components && signedKind(a.scalar) == signedKind(b.scalar);
}

bool isReal(ScalarKind kind) { return kind == ScalarKind::Float || kind == ScalarKind::Double; }

std::optional<ValueType> parseValueType(std::string_view name) {
  for (const auto &[alias, canonical] : aliases)
    if (name == alias)
      return parseValueType(canonical);
  for (const ScalarInfo &scalar : scalars) {
    if (!name.starts_with(scalar.name))
      continue;
    const std::string_view suffix = name.substr(scalar.name.size());
    if (suffix.empty())
      return ValueType{scalar.kind, 1};
    for (unsigned components : {2u, 3u, 4u, 8u, 16u})
      if (suffix == std::to_string(components))
        return ValueType{scalar.kind, components};
  }
  return std::nullopt;
}

Number parseNumber(ScalarKind kind, std::string_view text) {
  return isReal(kind) ? parseReal(kind, text) : parseInteger(kind, text);
}

std::string formatNumberForMessage(ScalarKind kind, const Number &number) {
  return isReal(kind) ? printed("%.17g", number.real) : int128Text(number.integer);
}

void storeNumber(ScalarKind kind, const Number &number, std::byte *out) {
  const ScalarInfo &scalar = info(kind);
  if (!isReal(kind) && (number.integer < scalar.minimum || number.integer > scalar.maximum))
    throw UsageError(int128Text(number.integer) + " does not fit in " + std::string(scalar.name) +
                     " (" + int128Text(scalar.minimum) + " to " + int128Text(scalar.maximum) + ")");
  switch (kind) {
  case ScalarKind::Char:
    return storeAs(static_cast<int8_t>(number.integer), out);
  case ScalarKind::UChar:
    return storeAs(static_cast<uint8_t>(number.integer), out);
  case ScalarKind::Short:
    return storeAs(static_cast<int16_t>(number.integer), out);
  case ScalarKind::UShort:
  case ScalarKind::Half:
    return storeAs(static_cast<uint16_t>(number.integer), out);
  case ScalarKind::Int:
    return storeAs(static_cast<int32_t>(number.integer), out);
  case ScalarKind::UInt:
    return storeAs(static_cast<uint32_t>(number.integer), out);
  case ScalarKind::Long:
    return storeAs(static_cast<int64_t>(number.integer), out);
  case ScalarKind::ULong:
    return storeAs(static_cast<uint64_t>(number.integer), out);
  case ScalarKind::Float:
    return storeAs(static_cast<float>(number.real), out);
  case ScalarKind::Double:
    return storeAs(number.real, out);
  }
}

std::string formatScalar(ScalarKind kind, const std::byte *in) {
  switch (kind) {
  case ScalarKind::Char:
    return std::to_string(loadAs<int8_t>(in));
  case ScalarKind::UChar:
    return std::to_string(loadAs<uint8_t>(in));
  case ScalarKind::Short:
    return std::to_string(loadAs<int16_t>(in));
  case ScalarKind::UShort:
    return std::to_string(loadAs<uint16_t>(in));
  case ScalarKind::Int:
    return std::to_string(loadAs<int32_t>(in));
  case ScalarKind::UInt:
    return std::to_string(loadAs<uint32_t>(in));
  case ScalarKind::Long:
    return std::to_string(loadAs<int64_t>(in));
  case ScalarKind::ULong:
    return std::to_string(loadAs<uint64_t>(in));
  case ScalarKind::Half:
    return printed("0x%04x", static_cast<unsigned>(loadAs<uint16_t>(in)));
  case ScalarKind::Float:
    // Nine significant digits read back as the same float.
    return printed("%.9g", static_cast<double>(loadAs<float>(in)));
  case ScalarKind::Double:
    return printed("%.17g", loadAs<double>(in));
  }
  return "?";
}

std::string formatValue(const ValueType &type, const std::byte *in) {
  if (type.components == 1)
    return formatScalar(type.scalar, in);
  std::string text = "{";
  for (unsigned component = 0; component < type.components; ++component) {
    if (component)
      text += ", ";
    text += formatScalar(type.scalar, in + component * type.scalarSize());
  }
  return text + "}";
}

} // namespace lanewise::cli
