// SPDX-License-Identifier: Apache-2.0
// LLVM IR fix-ups between clang-14 and llvm-spirv-14: rewrites that keep
// a module's meaning and turn what llvm-spirv-14 cannot translate into what
// it can. One function per pattern; each says what it replaces and why the
// replacement means the same.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace llvm {
class Module;
}

namespace lanewise::translator {

// Raised whenever the fix-ups change, so that the driver's cache (keyed by
// the translator's identity) does not serve SPIR-V translated without them.
constexpr int kFixUpRevision = 11;

// Applies every fix-up to `module`. Returns one line per kind of change made
// ("replaced 3 freeze instructions ..."), for the build log of -v builds.
std::vector<std::string> fixUp(llvm::Module &module);

// Splits every value of a vector type SPIR-V does not have (a length other
// than 2, 3, 4, 8 or 16, which clang-14's optimiser makes from OpenCL C's
// vectors) into its components, rewriting what makes and uses it. Adds to
// `rewritten` the instructions replaced. False, with `error` naming the
// instruction, for what cannot be rewritten.
bool legaliseVectorLengths(llvm::Module &module, size_t &rewritten, std::string &error);

// Rewrites every integer of a width SPIR-V does not have (other than 1, 8,
// 16, 32 and 64 bits, which clang-14's optimiser makes: an i33 closed form
// of a loop's sum, a switch on an i4) in integers of standard widths, as
// LLVM's type legalisation promotes them: widths up to 64 bits in the next
// standard width, widths up to 128 bits in two 64-bit halves. Adds to
// `rewritten` the instructions replaced. False, with `error` naming the
// instruction, for what cannot be rewritten.
bool legaliseIntegerWidths(llvm::Module &module, size_t &rewritten, std::string &error);

// Expands the LLVM intrinsics llvm-spirv-14 does not translate, translates
// wrongly, or translates into what a Kernel module may not contain
// (llvm.bitreverse, saturating and overflow-checking arithmetic, vector
// reductions), into the instructions they stand for. Adds to
// `expanded` the calls expanded. False, with `error` naming it, for an
// intrinsic llvm-spirv-14 does not know and this pass does not expand.
bool expandIntrinsics(llvm::Module &module, size_t &expanded, std::string &error);

// Promotes to SSA values (LLVM's mem2reg) the local variables whose address
// does not escape and that are written before every read, and nothing else.
// For the checked mode's unoptimised builds: clang -O0 keeps every variable
// in memory, which the checked mode pays for at each access; a variable
// that may be read before it is written stays in memory, where the checked
// mode sees the read (mem2reg would fold it away). Returns how many were
// promoted.
size_t promoteVariables(llvm::Module &module);

} // namespace lanewise::translator
