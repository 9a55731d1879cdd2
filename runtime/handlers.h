// SPDX-License-Identifier: Apache-2.0
// The handlers of the engine's core instructions, chosen at build time by
// operation, element type and the shape (uniform or varying) of the
// registers. Each factory returns nullptr for a combination it does not
// implement, so that the lowering can fail the build instead of running a
// wrong handler.
#pragma once

#include "runtime/bytecode.h"

#include <array>
#include <vector>

namespace lanewise::runtime {

// ---- Arithmetic, bitwise and comparison operations (exec_arithmetic.cpp) ----

enum class BinaryOp : std::uint8_t {
  // Integers (two's complement, results modulo 2^n).
  IAdd, ISub, IMul, UDiv, SDiv, UMod, SRem, SMod,
  ShiftLeftLogical, ShiftRightLogical, ShiftRightArithmetic,
  BitwiseAnd, BitwiseOr, BitwiseXor,
  // Floating point.
  FAdd, FSub, FMul, FDiv, FRem, FMod,
  // Comparisons: the result is a Bool (one byte per component).
  IEqual, INotEqual, UGreaterThan, SGreaterThan, UGreaterThanEqual, SGreaterThanEqual,
  ULessThan, SLessThan, ULessThanEqual, SLessThanEqual,
  FOrdEqual, FUnordEqual, FOrdNotEqual, FUnordNotEqual, FOrdLessThan, FUnordLessThan,
  FOrdGreaterThan, FUnordGreaterThan, FOrdLessThanEqual, FUnordLessThanEqual,
  FOrdGreaterThanEqual, FUnordGreaterThanEqual, LessOrGreater, Ordered, Unordered,
  // Bool operands.
  LogicalEqual, LogicalNotEqual, LogicalAnd, LogicalOr,
};

enum class UnaryOp : std::uint8_t {
  SNegate, Not, BitCount, BitReverse, // integers
  FNegate, QuantizeToF16,             // floating point
  IsNan, IsInf, IsFinite, IsNormal, SignBitSet, // floating point -> Bool
  LogicalNot,                                   // Bool
};

bool producesBool(BinaryOp op);
bool producesBool(UnaryOp op);

// operand[0], operand[1] -> result; `type` is the operands' element type.
Handler binaryHandler(BinaryOp op, Scalar type, const Shape &shape);
// operand[0] -> result.
Handler unaryHandler(UnaryOp op, Scalar type, const Shape &shape);

// OpSelect: operand[0] (Bool) ? operand[1] : operand[2]. `aux` of the
// instruction is 1 when the condition is a scalar for a vector result.
Handler selectHandler(std::uint32_t elementBytes, const Shape &shape);

// OpAny / OpAll over the `aux` components of a Bool vector.
Handler anyAllHandler(bool all, const Shape &shape);

// OpIAddCarry, OpISubBorrow, OpUMulExtended, OpSMulExtended: the result is
// a struct of two members, held in two registers: result and immediate
// (the register of the second member).
enum class ExtendedOp : std::uint8_t { IAddCarry, ISubBorrow, UMulExtended, SMulExtended };
Handler extendedHandler(ExtendedOp op, Scalar type, const Shape &shape);

// ---- Conversions (exec_convert.cpp) ----

enum class Rounding : std::uint8_t { Default, RTE, RTZ, RTP, RTN };

struct NumericType {
  Scalar scalar;
  bool isSigned = false;
};

// OpConvert*, OpSConvert, OpUConvert, OpFConvert, OpSatConvert*: element
// conversion with the FPRoundingMode and SaturatedConversion decorations.
Handler convertHandler(NumericType from, NumericType to, Rounding rounding, bool saturate,
                       const Shape &shape);

// ---- Registers (exec_composite.cpp) ----

// Copies `components` elements of `immediate` bytes; the instruction's
// `aux` holds the first component of operand[0] to read from and `data`
// nothing. Used for OpCopyObject, OpCompositeExtract of a vector
// component, and building composites one piece at a time.
Handler copyComponentsHandler(std::uint32_t elementBytes, const Shape &shape);
// OpVectorShuffle: `data` points at the result's components' sources: index
// i < 2^31 selects component i of operand[0]... see exec_composite.cpp.
Handler vectorShuffleHandler(std::uint32_t elementBytes, const Shape &shape);
// Where one component of a gathered result comes from: a register row (a
// component of a vector register, or a scalar register) of any register.
struct ComponentSource {
  std::uint32_t offset = 0; // of the row's first element
  bool varying = false;
};
// A vector built from components of any registers (a chain of constant
// shuffles composed): `data` points at a std::vector<ComponentSource>, one
// per result component.
Handler gatherComponentsHandler(std::uint32_t elementBytes, bool resultVarying);
// OpVectorExtractDynamic: operand[0] vector, operand[1] index (`aux`: index bytes).
Handler extractDynamicHandler(std::uint32_t elementBytes, const Shape &shape);
// OpVectorInsertDynamic: operand[0] vector, operand[1] component, operand[2] index.
Handler insertDynamicHandler(std::uint32_t elementBytes, const Shape &shape);

// ---- Memory (exec_memory.cpp) ----

// OpLoad through operand[0] (a pointer register): `components` elements of
// `elementBytes` each, contiguous in memory.
Handler loadHandler(std::uint32_t elementBytes, const Shape &shape);
// OpStore of operand[1] through operand[0].
Handler storeHandler(std::uint32_t elementBytes, const Shape &shape);
// Pointer arithmetic: result = operand[0] + operand[1] * immediate (operand[1]
// an index of `aux` bytes, signed), for OpAccessChain and OpPtrAccessChain
// steps; with no index operand (aux == 0) result = operand[0] + immediate.
Handler pointerOffsetHandler(std::uint32_t indexBytes, const Shape &shape);
// OpCopyMemorySized / OpCopyMemory: copy operand[2] (or immediate) bytes from
// operand[1] to operand[0] for each active lane.
Handler copyMemoryHandler(bool sizeInRegister, std::uint32_t sizeBytes, const Shape &shape);

enum class AtomicOp : std::uint8_t {
  Load, Store, Exchange, CompareExchange, IIncrement, IDecrement, IAdd, ISub, SMin, UMin,
  SMax, UMax, And, Or, Xor, FlagTestAndSet, FlagClear, FAdd, FMin, FMax,
};
// operand[0] pointer; operand[1] value (Store, Exchange, arithmetic) or
// the comparator's value for CompareExchange with operand[2] the comparator.
// On `__local` memory (`workgroup`), which only the work-group's own
// thread reaches, the operations are plain reads and writes in lane order.
Handler atomicHandler(AtomicOp op, Scalar type, bool workgroup);

// A sequentially consistent fence between this thread's memory accesses and
// those of other threads: other work-groups and, on fine-grain SVM, the host.
Handler deviceFenceHandler();

// Generic pointers: OpGenericCastToPtrExplicit to `space` (1 private,
// 2 local, 3 global) gives the pointer if it points there, else null;
// OpGenericPtrMemSemantics (space 0) gives the memory semantics of where it
// points (WorkgroupMemory 0x100, CrossWorkgroupMemory 0x200, 0 for private).
Handler genericSpaceHandler(std::uint32_t space, const Shape &shape);

// OpGroupAsyncCopy (uniform operands: destination, source, count, stride;
// `aux` is 1 when the destination is __local, i.e. the stride applies to the
// source) and OpGroupWaitEvents (no effect: the copy is done when issued).
Handler asyncCopyHandler(std::uint32_t elementBytes);
// The same in a warp whose work-groups are one work-item each
// (spirv::LowerOptions::singleItemGroups): each active lane performs its
// own copy. Bit k of `components` is set when operand k is per lane;
// `aux` and `immediate` are asyncCopyHandler's.
Handler laneAsyncCopyHandler();

// ---- Images (exec_image.cpp) ----
//
// Operand 0 is the image (the address of its descriptor, runtime/image.h).
// aux bits: 1 image varying, 2 coordinate varying, 4 value (write) or
// sampler (sample) varying, 8 result varying; bits 8-11 the coordinate's
// components; 0x10000 the value or result is four halves instead of four
// 32-bit components. `immediate`, when not 0, is the checked mode's site
// plus one: an access outside the image is a finding (reads and writes
// without a sampler, reads with CLK_ADDRESS_NONE).
// OpImageRead: operand 1 the integer coordinate.
Handler imageReadHandler();
// OpImageWrite: operand 1 the integer coordinate, operand 2 the value.
Handler imageWriteHandler();
// OpImageSampleExplicitLod: operand 1 the coordinate (float with aux bit
// 0x20, else int), operand 2 the sampler's bit field.
Handler imageSampleHandler();
// OpImageQuerySize[Lod] (aux bits 12-13: 0), OpImageQueryOrder (1),
// OpImageQueryFormat (2); aux bit 0x4000 a 64-bit result.
Handler imageQueryHandler();

// ---- Affine lane values (exec_affine.cpp) ----
//
// A value that is base + lane * stride in every lane is held as a pair, one
// uniform register of two elements: base, then stride. An operand that is
// not affine is a uniform register (stride 0).

enum class AffineOp : std::uint8_t { Add, Sub, Mul, ShiftLeft };
// operand[0], operand[1] (each a pair when its flag says so) -> a pair, of
// 4- or 8-byte integers. Mul needs one uniform operand, ShiftLeft a uniform
// count.
Handler affineArithmeticHandler(AffineOp op, std::uint32_t elementBytes, bool aAffine,
                                bool bAffine);
// An integer comparison (IEqual to SLessThanEqual) of a pair with a uniform
// value, either side: a varying Bool. With aux affineCompareBranchOnly, only
// the conditional branch ending the block reads the Bool: when every lane
// decides alike it is left unwritten (ExecutionState::uniformCondition).
Handler affineCompareHandler(BinaryOp op, std::uint32_t elementBytes, bool aAffine, bool bAffine);
inline constexpr std::uint32_t affineCompareBranchOnly = 1;
// The low bytes of a pair (an integer conversion to a narrower type).
Handler affineTruncateHandler(std::uint32_t fromBytes, std::uint32_t toBytes);
// The extension of a pair whose lanes do not wrap, zero- or sign-: the
// first lane extended, the stride the exact difference of the first two.
Handler affineWidenHandler(std::uint32_t fromBytes, std::uint32_t toBytes, bool isSigned);
// A pointer pair: operand[0] (pointer, pair or uniform) + operand[1] (a
// signed index of `indexBytes`, pair or uniform) * immediate; indexBytes 0:
// operand[0] + immediate.
Handler affineOffsetHandler(std::uint32_t indexBytes, bool baseAffine, bool indexAffine);
// operand[0] (a pair) -> its lanes in a varying register (active lanes).
Handler affineMaterialiseHandler(std::uint32_t elementBytes);
// OpLoad of `components` elements through a pointer pair (operand[0]): one
// block copy when the active lanes are all and the stride is the size.
// `memoryOrder`: the register is in memory order (lane after lane, each
// lane's components together) when every lane of the warp is active
// (inMemoryOrder), component-major otherwise (spirv/lower_memory.cpp,
// findMemoryOrderValues).
Handler affineLoadHandler(std::uint32_t elementBytes, bool memoryOrder = false);
// The register `result` of `components` elements, in memory order when every
// lane of the warp is active (as above), to component-major, in place.
Handler memoryOrderToComponentsHandler(std::uint32_t elementBytes);
// OpStore of operand[1] through a pointer pair (operand[0]). `global`: the
// pointer is to global memory (CrossWorkgroup), where dense runs may be
// stored past the caches (ExecutionState::streamingStores); never __local or
// private memory, which the work-group reads again at once. `memoryOrder`:
// a varying value in memory order when every lane is active, as above.
Handler affineStoreHandler(std::uint32_t elementBytes, bool valueVarying, bool global,
                           bool memoryOrder = false);

// A streamed store (spirv/lower_stream.cpp): the store through the pointer
// pair `store` of an expression of lane-wise binary operations (`node`, in
// the order they compute; the last gives the stored value, or with none
// the stored value is leaf 0; a float mad is two of them) on `leaf`s, each loaded through a pointer
// pair for the expression alone (elements of `type`, or halves widened
// to floats) or a uniform value (a scalar, or a splat vector whose
// component 0 is every component's). Elements of `type`, 4 or
// 8 bytes, `components` of them a work-item (vectors are in memory order:
// their uniform operands are splats). When the warp's lanes are one run
// from lane 0 and each pointer steps by one work-item's elements, the
// handler reads the loaded leaves, computes and writes the
// results in one pass, a chunk of elements at a time, with no register in
// between; otherwise `steps` run (the loads, the operations and the store
// as lowered, in program order).
struct StreamedExpression {
  static constexpr std::uint32_t maxLeaves = 6, maxNodes = 6;
  struct Leaf {
    std::uint32_t reg = 0; // the pointer pair, or the uniform value
    bool loaded = false;
    bool halves = false; // loaded halves widened to floats (vload_halfn)
  };
  // Operand k < maxLeaves is leaf k, maxLeaves + k node k.
  struct Node {
    BinaryOp op{};
    std::uint8_t operand[2] = {};
  };
  std::array<Leaf, maxLeaves> leaf{};
  std::array<Node, maxNodes> node{};
  std::uint32_t leaves = 0, nodes = 0;
  std::uint32_t store = 0;
  std::uint32_t components = 1;
  std::vector<Instruction> steps;
};
// Null for a type it does not take (I32, I64, F32 and F64 it does).
Handler streamedStoreHandler(Scalar type, bool global);
// Whether a streamed store computes `op` on `type`: IAdd, ISub, IMul and
// the bitwise ones on integers, FAdd, FSub, FMul and FDiv on floats.
bool streamedOperation(BinaryOp op, Scalar type);

// vload_halfn (vload_half, vloada_halfn) of floats in memory order through
// the pointer pair operand[0] (spirv/lower_memory.cpp): when every lane of
// the warp runs it and the lanes' halves are one run, the halves are
// widened straight from memory into the register; otherwise `step` runs
// (the load of the halves into a register of their own, and their
// widening). Null where the processor has no F16C (runtime/isa.h).
struct HalfLoadSteps {
  std::array<Instruction, 2> step;
};
Handler widenedHalfLoadHandler();

// A record store (spirv/lower_stream.cpp): stores through pointer pairs to
// global memory of varying 32-bit values (the members, in program order)
// that may write each work-item's record in parts, as vstore4(v_k, 4 * i +
// k, p) for k = 0 .. 3 do. `addresses` compute the members' pointer pairs
// and write nothing else; `stores` are the members' affine stores, whose
// elements make up `recordBytes`, a multiple of 16. When the launch
// streams its stores, every lane of the warp is one run from lane 0, the
// members' pointers step by the record's size, and the
// members' vectors lie one after another in it, the records are written
// whole in one pass, past the caches; otherwise the stores run one after
// another, as they were written.
struct RecordSteps {
  std::vector<Instruction> addresses, stores;
  std::uint32_t recordBytes = 0;
};
// At most this many elements a record (the lowering sees to it).
constexpr std::uint32_t maxRecordElements = 64;
Handler recordStoreHandler();

} // namespace lanewise::runtime

// ---- OpenCL.std element functions (exec_math.cpp, over builtins/math.h) ----
namespace lanewise::builtins {
enum class Math : std::uint8_t;
enum class MixedMath : std::uint8_t;
enum class Geometric : std::uint8_t;
} // namespace lanewise::builtins
namespace lanewise::runtime {
// Operands operand[0..2] -> result, elementwise, for the function's arity.
Handler mathHandler(builtins::Math function, Scalar type, const Shape &shape);
// The same for the functions whose operand and result types differ, `type`
// being the one the function is instantiated for (builtins::MixedMath).
Handler mixedMathHandler(builtins::MixedMath function, Scalar type, const Shape &shape);
// The geometric functions and OpDot (exec_geometric.cpp): operand[0] and
// operand[1] of `aux` components -> the result's `components`.
Handler geometricHandler(builtins::Geometric function, Scalar type, const Shape &shape);
} // namespace lanewise::runtime

namespace lanewise::runtime {
// OpBitcast between types of equal size: operand[0] has `aux` components of
// `immediate` bytes; the result `components` of elementBytes bytes.
Handler bitcastHandler(std::uint32_t elementBytes, const Shape &shape);
} // namespace lanewise::runtime

namespace lanewise::runtime {
// shuffle / shuffle2 (OpenCL.std): operand[0] x, operand[1] y (shuffle2) or
// unused, operand[2] the mask; `aux` the input length m, `immediate` 1 for
// shuffle2; the result has `components` components.
Handler shuffleHandler(std::uint32_t elementBytes, const Shape &shape, bool twoInputs);
} // namespace lanewise::runtime

// ---- Sub-groups (exec_group.cpp, over builtins/subgroup.h) ----
namespace lanewise::builtins {
enum class GroupArithmetic : std::uint8_t;
enum class LaneSource : std::uint8_t;
} // namespace lanewise::builtins
namespace lanewise::runtime {
// Shuffles and broadcasts within each sub-group: see exec_group.cpp for the
// operand layout.
Handler subgroupShuffleHandler(std::uint32_t elementBytes);
// Reductions and scans: scan 0 reduce, 1 inclusive, 2 exclusive, 3 clustered.
Handler subgroupArithmeticHandler(builtins::GroupArithmetic op, Scalar type, std::uint32_t scan);
// all, any, all_equal, elect.
Handler subgroupVoteHandler();
// Work-group collective functions, in two steps (publish, then collect,
// each followed by a work-group barrier): see exec_workgroup.cpp. scan 0
// reduce, 1 inclusive, 2 exclusive; all and any are LogicalAnd and
// LogicalOr reductions of booleans.
Handler workGroupArithmeticHandler(builtins::GroupArithmetic op, Scalar type, std::uint32_t scan,
                                   bool collecting);
Handler workGroupBroadcastHandler(std::uint32_t elementBytes, bool collecting);
// ballot and the operations on ballots.
Handler subgroupBallotHandler();
// intel_sub_group_block_read / write.
Handler subgroupBlockHandler(std::uint32_t elementBytes);
} // namespace lanewise::runtime

namespace lanewise::runtime {
// The checked mode (exec_check.cpp, runtime/check.h). The access check:
// operand[0] the address register, result the checked address register (of
// the same shape), aux the site, immediate the bytes accessed.
Handler checkAccessHandler(bool varying);
// An asynchronous copy's elements (operands: destination, source, count,
// stride; components the copy's site, as asyncCopyHandler's; aux its write
// check site, the read site next; immediate the element's bytes, bit 32 set
// when it copies to __local): result = the count, or 0 if an element is
// outside memory. Checked by the warp that performs the copy only.
Handler checkAsyncCopyHandler();
// The division check: operand[0] / operand[1], aux the site, immediate 1
// for signed division; writes no result.
Handler checkDivisionHandler(Scalar type, const Shape &shape);
// The sub-group checks: a uniform-only operation reached by part of a
// sub-group, a read of an inactive or out-of-range lane, and the shadow of
// a relative shuffle's result (see exec_check.cpp).
Handler checkSubgroupHandler();

// The register shadow (exec_undef.cpp): for each SSA value that may be
// undefined, a varying byte per component per lane (laid out as the value's
// components are), with these bits set where that component is undefined on
// the lane's path, and why. The lowering keeps it under the uninit check
// (OpUndef, and loads of __local and private memory, whose memory shadow
// says which bytes hold what was never written) and the subgroups check
// (sub_group_shuffle_up and _down results read from outside the sub-group):
// it travels with the values, through memory too, and is an error only
// where an undefined value is used.
inline constexpr std::uint8_t shadowUninitialised = 1, shadowBadShuffle = 2;
// The memory shadow of a byte written with a bad shuffle's result (0: never
// written, 1: written).
inline constexpr std::uint8_t memoryShadowBadShuffle = 2;
// The join: result = operand[0] | operand[1] for `components` components;
// immediate bit 2 (3) when operand[0] (operand[1]) has one component for
// all.
Handler undefJoinHandler(bool aVarying, bool bVarying);
// The shadow of the same bytes in other components: aux the operand's
// components; immediate bit 0 a varying operand, bits 8-15 its element
// bytes, bits 16-23 the result's.
Handler undefRegroupHandler();
// OpSelect's shadow: operand[0] the condition (Bools), operand[1..3] the
// shadows of the condition and of the two operands; immediate bit k set
// when operand k is varying, bit 4 when the condition is one component for
// all.
Handler undefSelectHandler();
// The shadow of an AND or OR (Bool or integer), which a defined false or 0
// (AND) or true or all-ones (OR) operand decides alone: operand[0..1] the
// operands, operand[2..3] their shadows; immediate bit k set when operand k
// is varying, bit 4 for OR, bit 5 for Bools, bits 8-15 the element bytes.
Handler undefLogicalHandler();
// A load's shadow from the memory shadow: operand[0] the checked address;
// immediate bit 0 a varying address, bits 8 and up the element bytes.
Handler undefLoadHandler();
// A store's shadow into the memory shadow: operand[0] the checked address,
// operand[1] the value's shadow; immediate bit 0 (1) a varying address
// (shadow), bits 8 and up the element bytes; aux the site, where a store of
// an undefined value outside __local and private memory is reported.
Handler undefStoreHandler();
// What an undefined value is used as, for the report.
enum class UndefinedUse : std::uint8_t {
  StoredValue,
  AtomicOperand,
  BranchCondition,
  SwitchSelector,
  Address,
  Divisor,
  GroupOperand,
  PrintfArgument,
};
// Reports the active lanes whose shadow (operand[0], `components`
// components) is set: aux the site, immediate bit 0 a varying shadow, bits
// 8 and up the UndefinedUse.
Handler checkUndefinedHandler();

// A sub-group barrier ordering __local memory, under the race check: the
// accesses the active lanes' sub-groups made before it are ordered before
// their later ones (runtime/check_races.cpp).
Handler subgroupBarrierRacesHandler();
// The same for a sub-group barrier ordering global memory: a new race
// epoch of the work-group, ordering only the passing sub-groups' accesses.
Handler subgroupBarrierGlobalRacesHandler();
// Release and acquire between work-groups, under the race check: an
// atomic of device scope (operand[0] its checked address; emitted before
// an atomic that writes, with RaceSyncRelease when its semantics release,
// and after one that reads, with RaceSyncAfter and RaceSyncAcquire when its
// semantics acquire) or a fence of device scope (RaceSyncFence; no operand).
enum RaceSync : std::uint32_t {
  RaceSyncRelease = 1,
  RaceSyncAcquire = 2,
  RaceSyncAfter = 4,
  RaceSyncFence = 8,
  RaceSyncVarying = 16,
};
Handler raceSyncHandler();
} // namespace lanewise::runtime
