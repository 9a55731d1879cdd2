// SPDX-License-Identifier: Apache-2.0
// The kernel argument specifications of 'lanewise run' (--arg SPEC):
//
//   [NAME=]buffer:TYPE:COUNT[:INIT]   a buffer of COUNT elements of TYPE
//       INIT: fill=V | fill=V1,...,Vn (one vector) | range=START[,STEP]
//             | random=LO,HI | values=V1,V2,... | file=PATH
//       COUNT may be '*' with values= and file=: as many as given.
//   [NAME=]local:BYTES | local:TYPE:COUNT   __local memory
//   [NAME=]TYPE:V | TYPE:V1,...,Vn          a scalar or vector value
//   [NAME=]V | V1,...,Vn                     a value of the kernel's type
//
// TYPE is char, uchar, short, ushort, int, uint, long, ulong, half (written
// and printed as its raw bits), float or double, optionally with 2, 3, 4, 8
// or 16 components.
#pragma once

#include "value_types.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lanewise::cli {

enum class ArgumentKind { Buffer, Local, Value };
enum class BufferInit { Zero, Fill, Range, Random, Values, File };

struct ArgumentSpec {
  std::string text; // as written, for messages
  std::string name; // empty when the argument is given by position
  ArgumentKind kind = ArgumentKind::Value;
  std::optional<ValueType> type; // absent for a value written without its type
  std::optional<size_t> count;   // buffer elements; absent for '*'
  BufferInit init = BufferInit::Zero;
  std::vector<std::string> operands; // of fill=, range=, random=, values=, or the value itself
  std::filesystem::path file;        // of file=
  size_t localBytes = 0;
};

// Relative file= paths are taken from baseFolder. Throws UsageError.
ArgumentSpec parseArgumentSpec(std::string_view text, const std::filesystem::path &baseFolder);

// A buffer's initial contents. random= draws from a generator seeded by the
// seed and the argument's index, so each buffer's values depend on nothing
// else. Throws UsageError.
std::vector<std::byte> bufferContents(const ArgumentSpec &spec, uint64_t seed,
                                      unsigned argumentIndex);

// The bytes of a value argument, of the given type (the spec's own, or the
// kernel's for a value written without one). Throws UsageError.
std::vector<std::byte> valueBytes(const ArgumentSpec &spec, const ValueType &type);

} // namespace lanewise::cli
