#include "spirv/loader.h"

#include "spirv/reader.h"
#include "spirv/support.h"
#include "spirv/validate.h"
#include "spirv/writer.h"

namespace lanewise::spirv {
namespace {

std::string joinLines(const std::vector<std::string> &lines) {
  std::string text;
  for (const std::string &line : lines)
    text += "error: " + line + "\n";
  return text;
}

LoadResult failure(LoadErrorKind kind, std::string log) {
  LoadResult result;
  result.error = kind;
  result.log = std::move(log);
  return result;
}

} // namespace

LoadResult loadModule(std::span<const uint32_t> words, const LoadOptions &options) {
  try {
    Module module = readModule(words);
    if (auto problems = unsupportedFeatures(module); !problems.empty())
      return failure(LoadErrorKind::Invalid, joinLines(problems));
    LoadResult result;
    result.notes = normaliseModule(module);
    const std::vector<WrittenInstruction> written = writeModule(module);
    if (auto problems = validateModule(module, written, {.library = options.library});
        !problems.empty())
      return failure(LoadErrorKind::Invalid, joinLines(problems));
    result.module = std::move(module);
    return result;
  } catch (const LoadError &error) {
    return failure(error.kind(), "error: " + std::string(error.what()) + "\n");
  }
}

LoadResult loadModule(std::span<const std::byte> il, const LoadOptions &options) {
  try {
    const std::vector<uint32_t> words = wordsFromBytes(il);
    return loadModule(std::span<const uint32_t>(words), options);
  } catch (const LoadError &error) {
    return failure(error.kind(), "error: " + std::string(error.what()) + "\n");
  }
}

} // namespace lanewise::spirv
