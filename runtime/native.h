// SPDX-License-Identifier: Apache-2.0
// The native tier: what the JIT (jit/, a module loaded on demand) is given
// of a kernel and what it gives back.
//
// The JIT compiles the straight-line body of each block of a kernel's
// bytecode; control flow between blocks stays with the warp's scheduler
// (runWarp), which calls a block's native body where it would have run the
// block's instructions one handler at a time. So masks, divergence,
// barriers, the forward-progress turns, the watchdog and the crash report
// work as in the interpreter, and a body may leave any instruction to its
// handler (a direct call) while it computes the others itself.
//
// A body computes the elementwise operations it knows (NativeOp) over the
// warp's active lanes 16 at a time: a run of such operations is one loop,
// each value kept in a vector register from the instruction that makes it
// to those that use it, and stored to its register for the rest of the
// kernel. The element semantics are those of runtime/binary_ops.h, which
// the handlers compute: both tiers give the same bits.
#pragma once

#include "runtime/bytecode.h"
#include "runtime/handlers.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace lanewise::runtime {

// An instruction the JIT may compute itself, as its handler does: an
// elementwise operation on each component of each active lane.
struct NativeOp {
  enum class Kind : std::uint8_t {
    None,    // call the handler
    Binary,  // runtime/binary_ops.h's apply<T, binary>
    Math,    // builtins/math.h's apply1/2/3<math, T>
    Convert, // exec_convert.cpp's ConvertPlain<from, to> (aux 0: no decoration)
    Select,  // operand[0] (Bool) ? operand[1] : operand[2], of `bytes` (aux: scalar condition)
    Copy,    // operand[0]'s components, of `bytes`
  };
  Kind kind = Kind::None;
  BinaryOp binary = BinaryOp::IAdd;
  std::uint8_t math = 0;     // builtins::Math
  Scalar type = Scalar::I32; // the operands' element type (Convert: the source's)
  bool fromSigned = false;   // Convert: the source is a signed integer
  Scalar to = Scalar::I32;   // Convert: the result's element type
  bool toSigned = false;
  std::uint8_t bytes = 0; // Select, Copy: bytes of an element
  Shape shape;
};

// A block's native body: runs the block's instructions for the active
// lanes of `state`, as the interpreter's loop over them would.
// `instructions` is the kernel's KernelCode::instructions: the code holds
// no address of this process (the handlers are read from the
// instructions), so that it can be kept on disk and loaded by another.
using NativeBody = void (*)(ExecutionState &state, const Instruction *instructions);

// A kernel's native code: a body per block (null: interpreted), and what
// holds them.
class NativeCode {
public:
  virtual ~NativeCode() = default;
  std::vector<NativeBody> bodies;
  // Instructions the bodies compute themselves, and those they call the
  // handler of, for LANEWISE_STATS.
  std::uint32_t nativeInstructions = 0, calledInstructions = 0;
  // Where the code came from, for LANEWISE_STATS: compiled now, loaded
  // from the disk cache, or shared with a kernel of the same code that
  // this process compiled or loaded already.
  enum class Origin : std::uint8_t { Compiled, DiskCache, Shared };
  Origin origin = Origin::Compiled;
};

// The JIT module's entry (jit/jit.cpp), looked up by name when the module
// is loaded. `ops` holds one NativeOp per instruction of `code`.
// `cacheDirectory` (null: no disk cache) is where native code is kept
// between processes, keyed by everything the code depends on: the
// kernel's bytecode and NativeOps, the JIT module's build, LLVM's version,
// the processor and its features. Returns null, with `error` set, for a
// kernel it cannot compile.
using JitCompile = NativeCode *(*)(const KernelCode &code, const NativeOp *ops,
                                   const char *cacheDirectory, std::string *error);
inline constexpr const char *jitCompileSymbol = "lanewise_jit_compile_v2";

} // namespace lanewise::runtime
