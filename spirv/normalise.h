// SPDX-License-Identifier: Apache-2.0
// Normalisation: rewrites that make modules from llvm-spirv-14 (Debian's
// SPIR-V translator) valid without changing what their kernels do. Each fixes
// a layout rule that matters to a shader compiler but not to a kernel:
//
// - StripDebugInfo: OpenCL.DebugInfo.100 output of llvm-spirv-14 -g fails
//   spirv-val (at -O0 a DebugSource whose Text is DebugInfoNone, a
//   DebugTypePointer to a typedef; at -O2 DWARF operations outside the set,
//   which SPIRV-Tools cannot even parse; with --spirv-debug-info-version=legacy
//   a "SPIRV.debug" set SPIRV-Tools does not know). The reader keeps the line
//   information as instruction locations and leaves the OpExtInsts of debug
//   and NonSemantic.* sets out of the IR; this removes the imports of those
//   sets (and any such OpExtInst a module built by hand still has).
// - StripAliasingHints: SPV_INTEL_memory_access_aliasing (llvm-spirv from
//   restrict pointers inlined at -O2). Alias scopes only permit optimisations,
//   so the capability, the extension, the scope declarations (which
//   SPIRV-Tools 2023.1 rejects at module scope, where llvm-spirv puts them),
//   the decorations and the memory-operand bits are removed.
// - DropMergeDeclarations: stray or conflicting OpLoopMerge /
//   OpSelectionMerge (llvm-spirv-14 at -O1). Kernel modules need no
//   structured control flow, so every merge declaration is dropped.
// - ReorderBlocks: blocks out of dominance order ("ID has not been defined"
//   from spirv-val on llvm-spirv-14 -O2 output). Each function's blocks are
//   put in reverse post-order from the entry, so every block follows its
//   dominator; unreachable blocks are kept, last.
// - HoistVariables: Function-storage OpVariables after other instructions
//   (private arrays at -O1/-O2) move to the top of the entry block. A
//   variable that came from another block, or whose initializer is not a
//   module-scope value, gets its initializer as an OpStore where it was.
// - CompleteInterfaces: SPIR-V 1.4 requires every module-scope variable an
//   entry point's call tree references (also through constants and
//   initializers) in its interface list; llvm-spirv-14 leaves out those
//   reached through a constant (a private array of pointers initialized to
//   constant arrays). Missing ones are added. Before 1.4 only Input and
//   Output variables are required.
// - StrongCompareExchange: llvm-spirv-14 writes OpAtomicCompareExchangeWeak
//   (atomic_compare_exchange_weak) into SPIR-V 1.4 modules, where the
//   instruction no longer exists. It becomes OpAtomicCompareExchange, with
//   the same operands: a strong exchange is a valid weak one (a weak one may
//   fail spuriously; it need not).
//
// - MergePhiEdges: an OpPhi naming the same parent block more than once.
//   LLVM's phi has an entry per edge, so a switch whose cases share a target
//   gives the target's phi one entry per case; llvm-spirv-14 copies them,
//   and SPIR-V allows exactly one per parent block (2.16.1: "exactly one
//   Parent i for each parent block"). LLVM requires the entries of one
//   parent to carry the same value, so the first is kept; a phi whose
//   entries for one parent differ is left for validation to reject.
//
// - DeclareExtensions: a capability declared without the extension that
//   enables it. llvm-spirv-14 declares FPFastMathModeINTEL for the
//   AllowReassocINTEL / AllowContractFastINTEL flags of
//   -cl-unsafe-math-optimizations and -cl-fast-relaxed-math but never its
//   OpExtension. The extension is declared; what the module means is
//   unchanged (the engine supports both, spirv/support.h).
//
// - LocaliseFunctionVariables: module-scope OpVariables in the Function
//   storage class, which SPIR-V allows only inside functions. llvm-spirv-14
//   writes them for the globals clang makes in the private address space:
//   the constant initialisers of private aggregates (`constinit`, in
//   random programs almost everywhere). A private variable at module scope
//   is one per work-item; each function that uses it gets its own copy,
//   initialised, at the top of its entry block. That keeps the meaning when
//   nothing writes through the variable (each copy holds the initialiser
//   whenever it is read), and when one kernel that no function calls is
//   its only user (the kernel runs once per work-item). Anything else is
//   left for validation to reject.
//
// What is truly invalid (a use without any definition, a type mismatch) is
// left for validation to reject.
#pragma once

#include <string>
#include <vector>

#include "spirv/module.h"

namespace lanewise::spirv {

enum class Normalisation {
  StripDebugInfo,
  StripAliasingHints,
  DropMergeDeclarations,
  ReorderBlocks,
  HoistVariables,
  CompleteInterfaces,
  StrongCompareExchange,
  MergePhiEdges,
  DeclareExtensions,
  LocaliseFunctionVariables,
};

struct NormalisationNote {
  Normalisation kind;
  std::string text; // what was changed, where
};

// Applies every normalisation to `module` and rebuilds its tables. Returns a
// note for each change made.
std::vector<NormalisationNote> normaliseModule(Module &module);

} // namespace lanewise::spirv
