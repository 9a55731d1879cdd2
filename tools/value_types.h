// SPDX-License-Identifier: Apache-2.0
// The OpenCL C types whose values the command line writes and prints: the
// scalar types char to double and their vectors.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace lanewise::cli {

enum class ScalarKind { Char, UChar, Short, UShort, Int, UInt, Long, ULong, Half, Float, Double };

struct ValueType {
  ScalarKind scalar = ScalarKind::Int;
  unsigned components = 1; // 1, 2, 3, 4, 8 or 16

  size_t scalarSize() const;
  // OpenCL C 6.3.5: a 3-component vector has the size and alignment of a
  // 4-component one.
  unsigned storedComponents() const { return components == 3 ? 4 : components; }
  size_t size() const { return scalarSize() * storedComponents(); }
  std::string name() const;
  bool operator==(const ValueType &) const = default;
};

// "int", "float4", "uchar16"; also the spellings clang records for kernel
// arguments ("unsigned int", "signed char"). Empty when the name is none of them.
std::optional<ValueType> parseValueType(std::string_view name);
std::string_view scalarName(ScalarKind kind);

// The same type but perhaps for the signedness of its integers, which SPIR-V
// does not record: to a module's kernel, "uint*" is "int*".
bool sameButSignedness(const ValueType &a, const ValueType &b);
bool isReal(ScalarKind kind); // float and double; half is written as its raw bits

// A number as written for one scalar: an integer for the integer types and
// for half (its 16 raw bits), a real for float and double.
struct Number {
  __int128 integer = 0;
  double real = 0;
};

// Throws UsageError naming the text and the type when it is not a number of
// that kind.
Number parseNumber(ScalarKind kind, std::string_view text);
// Throws UsageError when the value does not fit in the kind.
void storeNumber(ScalarKind kind, const Number &number, std::byte *out);
std::string formatNumberForMessage(ScalarKind kind, const Number &number);

// C-like text of one value: "3", "-1.5", "0x3c00" (half), "{1, 2, 3, 4}" (vectors).
std::string formatScalar(ScalarKind kind, const std::byte *in);
std::string formatValue(const ValueType &type, const std::byte *in);

} // namespace lanewise::cli
