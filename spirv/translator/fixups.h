// LLVM IR fix-ups between clang-14 and llvm-spirv-14: rewrites that keep
// a module's meaning and turn what llvm-spirv-14 cannot translate into what
// it can. One function per pattern; each says what it replaces and why the
// replacement means the same.
#pragma once

#include <string>
#include <vector>

namespace llvm {
class Module;
}

namespace lanewise::translator {

// Applies every fix-up to `module`. Returns one line per kind of change made
// ("replaced 3 freeze instructions ..."), for the build log of -v builds.
std::vector<std::string> fixUp(llvm::Module &module);

} // namespace lanewise::translator
