// SPDX-License-Identifier: Apache-2.0
// The OpenCL C compiler driver: OpenCL C source to SPIR-V with clang and
// Lanewise's translator (lanewise-llvm-spirv: LLVMSPIRVLib after the LLVM IR
// fix-ups of spirv/translator/fixups.h), run in a compile server, with a disk
// cache of the results.
//
// How a build runs (docs/architecture.md, "The compiler driver and
// translator"):
// - clang-14 -cc1 -triple spir64 with the device's extensions and features
//   (-cl-ext=-all,+...), the built-ins of clang's tables
//   (-fdeclare-opencl-builtins) and `inline` defined away, as PoCL does.
//   Programs that name the Intel sub-group built-ins, which the tables
//   lack, or that fail with the tables, are compiled with opencl-c.h
//   (LANEWISE_OPENCL_HEADER=full always uses it).
// - Both steps run in a compile server (translator/compile_server.cpp),
//   the user's shared one (translator/shared_server.h) unless
//   LANEWISE_COMPILE_SERVER=private asks for the process's own, which form
//   a pool (ServerPool) of up to one per hardware thread. A server that
//   dies fails one build with its signal and clang's stack dump, after one
//   retry on a fresh server. LANEWISE_COMPILE_SERVER=0 runs clang and
//   lanewise-llvm-spirv as two child processes per build, through files in
//   a temporary folder; LANEWISE_CLANG and LANEWISE_LLVM_SPIRV replace
//   either tool (the latter with any program that takes llvm-spirv's
//   command line, without the fix-ups). The helpers are found beside the
//   library (LIBDIR/lanewise/) or in the build tree.
// - The disk cache ($LANEWISE_CACHE_DIR, else $XDG_CACHE_HOME/lanewise or
//   ~/.cache/lanewise; LANEWISE_CACHE=0 turns it off) keys a result by a
//   128-bit hash of the tools' identity (for the server: its version,
//   fix-up revision and clang version, and the size and time of its file
//   and of the clang library it runs), the translated options, the source
//   and the embedded headers. Entries are written through a temporary file
//   and a rename. Builds with -I folders are not cached: the key cannot
//   see which headers they read.
// - Under any check the driver adds -g and, unless
//   LANEWISE_CHECK_OPTIMIZE=1, compiles at -O0; the translator then
//   promotes to registers the variables written before every read
//   (--lanewise-promote-variables), which folds nothing.
#pragma once

#include "runtime/check.h"
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lanewise::spirv {

// clang and a translator with llvm-spirv's command line, of one LLVM major
// version; or the compile server, which is both in one process that serves
// build after build (spirv/translator/compile_server.cpp).
struct Toolchain {
  std::string clang, llvmSpirv;
  std::string server; // lanewise-compile-server, when builds go to it
  int majorVersion = 0;
  std::string identity; // versions of the tools, part of the cache key
  bool lanewiseTranslator = false; // lanewise-llvm-spirv, with options of its own
};

// Finds the tools: LANEWISE_CLANG and LANEWISE_LLVM_SPIRV when set (the
// latter then replaces lanewise-llvm-spirv and its fix-ups), else clang-N
// (N: the LLVM version the translator was built with) on PATH or under
// /usr/lib/llvm-N/bin, and lanewise-compile-server beside the library (or,
// with LANEWISE_COMPILE_SERVER=0 or without it, lanewise-llvm-spirv there,
// and clang and the translator run as two programs per build). Looked up
// once per process.
const std::optional<Toolchain> &findToolchain();

// What the device offers the OpenCL C code: the -cl-ext list and macros.
struct CompilerTarget {
  std::vector<std::string> extensions; // e.g. cl_khr_fp64, __opencl_c_int64
  std::vector<std::string> macros;     // -D definitions the headers need
  std::string defaultStandard = "CL1.2";
  // The -cl-std values the device accepts (CL_DEVICE_OPENCL_C_ALL_VERSIONS).
  std::vector<std::string> standards = {"CL1.0", "CL1.1", "CL1.2", "CL3.0"};
};

struct CompileRequest {
  std::string source;
  std::string options; // OpenCL build options, as given to clBuildProgram
  // Embedded headers of clCompileProgram: include name and text.
  std::vector<std::pair<std::string, std::string>> headers;
  CompilerTarget target;
};

struct CompileResult {
  enum class Status { Success, InvalidOptions, CompilerNotAvailable, Failure };
  Status status = Status::Failure;
  std::vector<uint32_t> spirv;
  std::string log; // clang's diagnostics, verbatim, or the reason for the failure
  bool fromCache = false;
  std::string key; // the cache key (hex): what the program is, for reports
};

// Compiles `request` to SPIR-V (1.4 at most). Never throws.
CompileResult compileOpenCLC(const CompileRequest &request);

// The clang -cc1 arguments for an OpenCL build option string, or the first
// option that is not an OpenCL build option (in `unknown`).
struct TranslatedOptions {
  std::vector<std::string> clang;
  std::string unknown;
  std::string unsupportedStandard; // a -cl-std the device does not offer
  bool debugInfo = false;
  // The checked mode's -O0 build: the translator promotes local variables
  // to SSA values (lanewise-llvm-spirv --lanewise-promote-variables).
  bool promoteVariables = false;
  // Feature macros the default header defines but the device does not
  // offer: #undef after the header.
  std::vector<std::string> undefine;
  // -lanewise-check[=LIST]: the checked mode for this program (runtime/check.h).
  runtime::CheckSet checks;
};
TranslatedOptions translateBuildOptions(const std::string &options, const CompilerTarget &target);

} // namespace lanewise::spirv
