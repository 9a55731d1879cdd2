// SPDX-License-Identifier: Apache-2.0
// The translation step shared by lanewise-llvm-spirv and the compile server:
// llvm-spirv's options, then the fix-ups (fixups.h), the verifier and
// LLVMSPIRVLib, from a module in memory to SPIR-V words in memory.
#pragma once

#include <string>
#include <string_view>

#include <LLVMSPIRVLib/LLVMSPIRVLib.h>

namespace llvm {
class Module;
}

namespace lanewise::translator {

struct TranslationOptions {
  SPIRV::VersionNumber maxVersion = SPIRV::VersionNumber::MaximumVersion;
  SPIRV::TranslatorOpts::ExtensionsStatusMap extensions;
  bool argTypeStrings = false;     // --preserve-ocl-kernel-arg-type-metadata-through-string
  bool extraDIExpressions = false; // --spirv-allow-extra-diexpressions
  bool legacyDebugInfo = false;    // --spirv-debug-info-version=legacy
  bool promoteVariables = false;   // --lanewise-promote-variables: promoteVariables() first
};

// Takes one of llvm-spirv's options (the ones listed in main.cpp) into
// `options`. False, with the reason in `error`, for anything else.
bool parseTranslationOption(std::string_view argument, TranslationOptions &options,
                            std::string &error);

// Fixes up, verifies and translates `module` (which it changes) into
// `spirv` (the module's bytes). False, with the reason in `error`.
bool translate(llvm::Module &module, const TranslationOptions &options, std::string &spirv,
               std::string &error);

} // namespace lanewise::translator
