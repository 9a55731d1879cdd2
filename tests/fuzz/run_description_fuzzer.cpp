// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the run descriptions and argument specifications of
// 'lanewise run' (tools/run_description.h, tools/argument_spec.h).
//
// The input is a run description's text. Every argument it declares is then
// made into its bytes: a buffer's initial contents, and a value argument's
// bytes for its own type or, written without one, for each of a few kernel
// types. Bad text must give a UsageError, nothing else.
#include "argument_spec.h"
#include "errors.h"
#include "run_description.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

using namespace lanewise::cli;

// Buffers larger than this are refused before they are filled: the parser's
// business is the text, and a fuzzer's memory is small.
constexpr size_t largestBuffer = size_t(1) << 20;

void makeBytes(const ArgumentSpec &spec, unsigned index) {
  switch (spec.kind) {
  case ArgumentKind::Local:
    return;
  case ArgumentKind::Buffer:
    // file= reads a file the text names: not text to parse.
    if (spec.init == BufferInit::File)
      return;
    if (spec.count && *spec.count > largestBuffer / spec.type->size())
      return;
    bufferContents(spec, 1234, index);
    return;
  case ArgumentKind::Value:
    if (spec.type) {
      valueBytes(spec, *spec.type);
      return;
    }
    for (const char *kernelType : {"int", "ulong", "half", "float4", "double16", "char3"}) {
      try {
        valueBytes(spec, *parseValueType(kernelType));
      } catch (const UsageError &) {
      }
    }
    return;
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string_view text(reinterpret_cast<const char *>(data), size);
  try {
    const RunDescription description = parseRunDescription(text, "fuzz.run", "/nonexistent");
    for (size_t i = 0; i < description.arguments.size(); ++i) {
      try {
        makeBytes(description.arguments[i], static_cast<unsigned>(i));
      } catch (const UsageError &) {
      }
    }
  } catch (const UsageError &) {
  }
  return 0;
}
