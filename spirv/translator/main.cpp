// SPDX-License-Identifier: Apache-2.0
// lanewise-llvm-spirv IN.bc -o OUT.spv [--spirv-max-version=1.N]
//     [--spirv-ext=-all,+EXT,...] [--preserve-ocl-kernel-arg-type-metadata-through-string]
//     [--spirv-allow-extra-diexpressions] [--spirv-debug-info-version=legacy]
//
//     [--lanewise-promote-variables]
//
// The options are llvm-spirv's, so that either program can stand in the
// compiler driver (LANEWISE_LLVM_SPIRV names another), and one of its own:
// --lanewise-promote-variables (fixups.h, for the checked mode's -O0
// builds). Exit status 0 on success; otherwise the reason is on standard
// error.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include "fixups.h"
#include "translate.h"

namespace {

int fail(const std::string &message) {
  std::cerr << "lanewise-llvm-spirv: " << message << "\n";
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  std::string input, output;
  lanewise::translator::TranslationOptions options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view argument = argv[i];
    if (argument == "--version") {
      std::cout << "lanewise-llvm-spirv " LANEWISE_VERSION " (fix-ups "
                << lanewise::translator::kFixUpRevision
                << ", LLVM " LLVM_VERSION_STRING ", LLVMSPIRVLib)\n";
      return 0;
    } else if (argument == "-o" && i + 1 < argc) {
      output = argv[++i];
    } else if (!argument.starts_with("-") && input.empty()) {
      input = argument;
    } else if (std::string error;
               !lanewise::translator::parseTranslationOption(argument, options, error)) {
      return fail(error);
    }
  }
  if (input.empty() || output.empty())
    return fail("usage: lanewise-llvm-spirv IN.bc -o OUT.spv [llvm-spirv options]");

  auto buffer = llvm::MemoryBuffer::getFile(input);
  if (!buffer)
    return fail("cannot read " + input + ": " + buffer.getError().message());
  llvm::LLVMContext context;
  auto module = llvm::parseBitcodeFile(buffer.get()->getMemBufferRef(), context);
  if (!module) {
    std::string message;
    llvm::raw_string_ostream stream(message);
    stream << module.takeError();
    return fail("cannot read the LLVM IR of " + input + ": " + stream.str());
  }
  std::string spirv, error;
  if (!lanewise::translator::translate(**module, options, spirv, error))
    return fail(error);
  std::ofstream file(output, std::ios::binary | std::ios::trunc);
  file.write(spirv.data(), static_cast<std::streamsize>(spirv.size()));
  file.close();
  if (!file) {
    std::remove(output.c_str());
    return fail("cannot write " + output);
  }
  return 0;
}
