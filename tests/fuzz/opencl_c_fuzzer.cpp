// SPDX-License-Identifier: Apache-2.0
// Fuzz target: OpenCL C source and build options, as clBuildProgram
// receives them (the compiler driver, spirv/compiler.h).
//
// The input is the build options (its first line) and the source (the
// rest). The options are translated for clang; when they are valid the
// program is compiled through clang and the translator into a private disk
// cache, then compiled again with the cache entry damaged (bytes chosen by
// the input flipped, or the entry cut short): a damaged entry must be
// recompiled, never used, and must give the same module. Whatever clang
// accepts must become SPIR-V that the loader accepts (DESIGN.md, "Program
// build": the driver's one promise), or be refused for a feature Lanewise
// names as not implemented.
//
// Compiling runs two processes, so this target makes tens of executions a
// second, not thousands; the option parser alone is cheap and runs for
// every input.
#include "spirv/compiler.h"
#include "spirv/loader.h"
#include "spirv/reader.h"
#include "spirv/support.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

namespace {

using namespace lanewise;
namespace fs = std::filesystem;

fs::path cacheFolder;

spirv::CompilerTarget deviceTarget() {
  // What Lanewise's device offers (icd/platform.cpp): enough for the test
  // kernels the corpus starts from.
  spirv::CompilerTarget target;
  target.extensions = {"cl_khr_fp64",  "cl_khr_fp16", "cl_khr_int64_base_atomics",
                       "cl_khr_subgroups", "__opencl_c_int64", "__opencl_c_fp64",
                       "__opencl_c_subgroups", "__opencl_c_program_scope_global_variables",
                       "__opencl_c_generic_address_space"};
  target.macros = {"cl_intel_subgroups"};
  return target;
}

std::string readAll(const fs::path &path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

void writeAll(const fs::path &path, const std::string &bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  char pattern[] = "/tmp/lanewise-fuzz-cache-XXXXXX";
  if (!mkdtemp(pattern))
    std::abort();
  cacheFolder = pattern;
  setenv("LANEWISE_CACHE_DIR", pattern, 1);
  return 0;
}

// Whether the loader refuses `spirv` for what Lanewise names as beyond it:
// an unsupported feature, or one of its own limits.
static bool refusedByName(const std::vector<uint32_t> &spirv) {
  try {
    return !spirv::unsupportedFeatures(spirv::readModule(spirv)).empty();
  } catch (const spirv::LoadError &error) {
    return std::string_view(error.what()).find("Lanewise's arrays have at most") !=
           std::string_view::npos;
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string input(reinterpret_cast<const char *>(data), size);
  const size_t newline = input.find('\n');
  spirv::CompileRequest request;
  request.options = input.substr(0, newline);
  request.source = newline == std::string::npos ? "" : input.substr(newline + 1);
  request.target = deviceTarget();

  const spirv::TranslatedOptions translated =
      spirv::translateBuildOptions(request.options, request.target);
  if (!translated.unknown.empty() || !translated.unsupportedStandard.empty())
    return 0;
  // -I names folders clang reads: not this target's business.
  for (const std::string &argument : translated.clang)
    if (argument == "-I")
      return 0;

  const spirv::CompileResult first = spirv::compileOpenCLC(request);
  if (first.status != spirv::CompileResult::Status::Success)
    return 0;
  const spirv::LoadResult loaded = spirv::loadModule(std::span<const uint32_t>(first.spirv));
  // What Lanewise does not implement (images) or exceeds its limits (an
  // array of 2^32 elements or more) fails the build, named; any other
  // refusal breaks the promise.
  if (!loaded.ok() && !refusedByName(first.spirv)) {
    std::fprintf(stderr, "clang accepted a program whose SPIR-V does not load:\n%s\n",
                 loaded.log.c_str());
    std::abort();
  }

  // Damage the entry, then build again: recompiled, same module.
  const fs::path entry = cacheFolder / (first.key + ".spv");
  std::string bytes = readAll(entry);
  if (bytes.empty())
    return 0;
  const uint8_t how = size ? data[size - 1] : 0;
  if (how & 1)
    bytes.resize(bytes.size() * (how >> 1) / 128);
  else
    bytes[(size_t(how) * 7919) % bytes.size()] ^= char(1 + (how >> 1));
  writeAll(entry, bytes);
  const spirv::CompileResult second = spirv::compileOpenCLC(request);
  if (second.status != spirv::CompileResult::Status::Success || second.fromCache ||
      second.spirv != first.spirv) {
    std::fprintf(stderr, "a damaged cache entry was used or changed the module\n");
    std::abort();
  }
  fs::remove(entry);
  fs::remove(cacheFolder / (first.key + ".log"));
  return 0;
}
