// SPDX-License-Identifier: Apache-2.0
#include "translate.h"

#include <map>
#include <sstream>

#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include "fixups.h"

namespace lanewise::translator {
namespace {

const std::map<std::string_view, SPIRV::ExtensionID> &extensionsByName() {
  static const std::map<std::string_view, SPIRV::ExtensionID> table = {
#define EXT(X) {#X, SPIRV::ExtensionID::X},
#include <LLVMSPIRVLib/LLVMSPIRVExtensions.inc>
#undef EXT
  };
  return table;
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

bool parseTranslationOption(std::string_view argument, TranslationOptions &options,
                            std::string &error) {
  if (argument.starts_with("--spirv-max-version=")) {
    const std::string_view version = argument.substr(20);
    static const std::map<std::string_view, SPIRV::VersionNumber> versions = {
        {"1.0", SPIRV::VersionNumber::SPIRV_1_0}, {"1.1", SPIRV::VersionNumber::SPIRV_1_1},
        {"1.2", SPIRV::VersionNumber::SPIRV_1_2}, {"1.3", SPIRV::VersionNumber::SPIRV_1_3},
        {"1.4", SPIRV::VersionNumber::SPIRV_1_4}};
    auto found = versions.find(version);
    if (found == versions.end()) {
      error = "unsupported --spirv-max-version " + std::string(version);
      return false;
    }
    options.maxVersion = found->second;
  } else if (argument.starts_with("--spirv-ext=")) {
    return parseExtensions(argument.substr(12), options.extensions, error);
  } else if (argument == "--preserve-ocl-kernel-arg-type-metadata-through-string") {
    options.argTypeStrings = true;
  } else if (argument == "--spirv-allow-extra-diexpressions") {
    options.extraDIExpressions = true;
  } else if (argument == "--spirv-debug-info-version=legacy") {
    options.legacyDebugInfo = true;
  } else if (argument == "--lanewise-promote-variables") {
    options.promoteVariables = true;
  } else {
    error = "unknown argument '" + std::string(argument) + "'";
    return false;
  }
  return true;
}

bool translate(llvm::Module &module, const TranslationOptions &options, std::string &spirv,
               std::string &error) {
  bool changed = options.promoteVariables && promoteVariables(module) > 0;
  size_t rewritten = 0;
  if (!legaliseVectorLengths(module, rewritten, error) ||
      !legaliseIntegerWidths(module, rewritten, error) ||
      !expandIntrinsics(module, rewritten, error))
    return false;
  changed |= rewritten > 0;
  changed |= !fixUp(module).empty();
  // clang verified its module; what the fix-ups changed is verified again.
  std::string verifierMessage;
  llvm::raw_string_ostream verifierStream(verifierMessage);
  if (changed && llvm::verifyModule(module, &verifierStream)) {
    error = "the fixed-up LLVM IR is invalid (a Lanewise bug): " + verifierStream.str();
    return false;
  }
  SPIRV::TranslatorOpts translatorOptions(options.maxVersion, options.extensions);
  translatorOptions.setPreserveOCLKernelArgTypeMetadataThroughString(options.argTypeStrings);
  translatorOptions.setAllowExtraDIExpressionsEnabled(options.extraDIExpressions);
  if (options.legacyDebugInfo)
    translatorOptions.setDebugInfoEIS(SPIRV::DebugInfoEIS::SPIRV_Debug);
  std::ostringstream stream(std::ios::binary);
  if (!llvm::writeSpirv(&module, translatorOptions, stream, error))
    return false;
  spirv = std::move(stream).str();
  return true;
}

} // namespace lanewise::translator
