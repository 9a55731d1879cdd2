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
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <string_view>

#include <LLVMSPIRVLib/LLVMSPIRVLib.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include "fixups.h"

namespace {

// Raised whenever the fix-ups change, so that the driver's cache (keyed by
// the --version line) does not serve SPIR-V translated without them.
constexpr int kFixUpRevision = 6;

const std::map<std::string_view, SPIRV::ExtensionID> &extensionsByName() {
  static const std::map<std::string_view, SPIRV::ExtensionID> table = {
#define EXT(X) {#X, SPIRV::ExtensionID::X},
#include <LLVMSPIRVLib/LLVMSPIRVExtensions.inc>
#undef EXT
  };
  return table;
}

int fail(const std::string &message) {
  std::cerr << "lanewise-llvm-spirv: " << message << "\n";
  return 1;
}

// "-all,+A,+B": the extensions the translator may use.
bool parseExtensions(std::string_view list, SPIRV::TranslatorOpts::ExtensionsStatusMap &map,
                     std::string &error) {
  while (!list.empty()) {
    const size_t comma = list.find(',');
    const std::string_view item = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    if (item.size() < 2 || (item[0] != '+' && item[0] != '-')) {
      error = "invalid --spirv-ext item '" + std::string(item) + "'";
      return false;
    }
    const bool allow = item[0] == '+';
    const std::string_view name = item.substr(1);
    if (name == "all") {
      for (const auto &[known, id] : extensionsByName())
        map[id] = allow;
      continue;
    }
    auto found = extensionsByName().find(name);
    if (found == extensionsByName().end()) {
      error = "unknown extension '" + std::string(name) + "' in --spirv-ext";
      return false;
    }
    map[found->second] = allow;
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  std::string input, output;
  SPIRV::VersionNumber maxVersion = SPIRV::VersionNumber::MaximumVersion;
  SPIRV::TranslatorOpts::ExtensionsStatusMap extensions;
  bool argTypeStrings = false, extraDIExpressions = false, legacyDebugInfo = false;
  bool promote = false; // Lanewise's own option: promoteVariables() first
  for (int i = 1; i < argc; ++i) {
    const std::string_view argument = argv[i];
    if (argument == "--version") {
      std::cout << "lanewise-llvm-spirv " LANEWISE_VERSION " (fix-ups " << kFixUpRevision
                << ", LLVM " LLVM_VERSION_STRING ", LLVMSPIRVLib)\n";
      return 0;
    } else if (argument == "-o" && i + 1 < argc) {
      output = argv[++i];
    } else if (argument.starts_with("--spirv-max-version=")) {
      const std::string_view version = argument.substr(20);
      static const std::map<std::string_view, SPIRV::VersionNumber> versions = {
          {"1.0", SPIRV::VersionNumber::SPIRV_1_0}, {"1.1", SPIRV::VersionNumber::SPIRV_1_1},
          {"1.2", SPIRV::VersionNumber::SPIRV_1_2}, {"1.3", SPIRV::VersionNumber::SPIRV_1_3},
          {"1.4", SPIRV::VersionNumber::SPIRV_1_4}};
      auto found = versions.find(version);
      if (found == versions.end())
        return fail("unsupported --spirv-max-version " + std::string(version));
      maxVersion = found->second;
    } else if (argument.starts_with("--spirv-ext=")) {
      std::string error;
      if (!parseExtensions(argument.substr(12), extensions, error))
        return fail(error);
    } else if (argument == "--preserve-ocl-kernel-arg-type-metadata-through-string") {
      argTypeStrings = true;
    } else if (argument == "--spirv-allow-extra-diexpressions") {
      extraDIExpressions = true;
    } else if (argument == "--spirv-debug-info-version=legacy") {
      legacyDebugInfo = true;
    } else if (argument == "--lanewise-promote-variables") {
      promote = true;
    } else if (!argument.starts_with("-") && input.empty()) {
      input = argument;
    } else {
      return fail("unknown argument '" + std::string(argument) + "'");
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

  if (promote)
    lanewise::translator::promoteVariables(**module);
  lanewise::translator::fixUp(**module);
  std::string verifierMessage;
  llvm::raw_string_ostream verifierStream(verifierMessage);
  if (llvm::verifyModule(**module, &verifierStream))
    return fail("the fixed-up LLVM IR is invalid (a Lanewise bug): " + verifierStream.str());

  SPIRV::TranslatorOpts options(maxVersion, extensions);
  options.setPreserveOCLKernelArgTypeMetadataThroughString(argTypeStrings);
  options.setAllowExtraDIExpressionsEnabled(extraDIExpressions);
  if (legacyDebugInfo)
    options.setDebugInfoEIS(SPIRV::DebugInfoEIS::SPIRV_Debug);
  std::ofstream file(output, std::ios::binary | std::ios::trunc);
  if (!file)
    return fail("cannot write " + output);
  std::string error;
  if (!llvm::writeSpirv(module->get(), options, file, error)) {
    file.close();
    std::remove(output.c_str());
    return fail(error);
  }
  return file.good() ? 0 : fail("cannot write " + output);
}
