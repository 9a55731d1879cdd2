// SPDX-License-Identifier: Apache-2.0
// The lowering of one kernel to bytecode (spirv/lower.h): the class every
// file of it shares, KernelLowering, with the values in registers and the
// emission of bytecode. Its members are defined one file per instruction
// family, as runtime/exec_*.cpp executes them, and each file includes what
// its family uses besides this header:
//
//   lower.cpp            the kernel: uniformity, arguments, blocks, dispatch
//   lower_registers.cpp  register forms of types, register reuse, private
//                        variables promoted to registers, dead values
//   lower_arithmetic.cpp arithmetic, comparisons, conversions, selection
//   lower_memory.cpp     variables, loads, stores, pointers, atomics, copies,
//                        vloadn and vstoren
//   lower_composite.cpp  composites, vector shuffles, shuffle and shuffle2
//   lower_image.cpp      image reads, writes, samples and queries
//   lower_extended.cpp   OpenCL.std: math, geometric and mixed functions
//   lower_group.cpp      sub-group operations
//   lower_printf.cpp     printf
//   lower_control.cpp    terminators and the phi copies of edges
//   lower_constant.cpp   constants in memory layout and in registers,
//                        constant pointers
//   lower_affine.cpp     affine lane values (base + lane x stride) and the
//                        loads, stores and comparisons that read them
//   lower_stream.cpp     streamed stores: c[i] = a[i] + b[i] in one pass
//   lower_check.cpp      the checked mode's access checks and their sites
//   lower_undef.cpp      the register shadows of maybe-undefined values
//
// Private to those files.
#pragma once

#include "runtime/check.h"
#include "runtime/handlers.h"
#include "spirv/cfg.h"
#include "spirv/errors.h"
#include "spirv/lower.h"
#include "spirv/uniformity.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace lanewise::spirv::lowering {

using runtime::Handler;
using runtime::Scalar;
using runtime::Shape;

// ---------------------------------------------------------------------------
// Types and constants (lower_constant.cpp).

const Type &typeOf(const Module &module, uint32_t id);
uint64_t byteSize(const Module &module, uint32_t typeId);

// What constant evaluation needs besides the module: the values of
// specialization constants and the addresses of module-scope variables.
struct ConstantContext {
  const Module &module;
  const SpecializationValues *specializations = nullptr;
  const std::unordered_map<uint32_t, uint64_t> *addresses = nullptr;
};


// Writes constant `id` as it lies in memory at `out` (byteSize bytes).
void writeConstant(const ConstantContext &context, uint32_t id, std::byte *out);

// ---------------------------------------------------------------------------
// What SPIR-V instructions are.

bool isSubgroupOperation(spv::Op opcode);                          // lower.cpp
bool isVaryingBuiltin(spv::BuiltIn builtin);                       // lower.cpp
runtime::Family familyOf(const Instruction &instruction);          // lower.cpp
std::optional<runtime::BuiltinValue> builtinValue(spv::BuiltIn builtin); // lower.cpp
std::optional<runtime::BinaryOp> binaryOp(spv::Op opcode);         // lower_arithmetic.cpp
std::optional<runtime::UnaryOp> unaryOp(spv::Op opcode);           // lower_arithmetic.cpp
bool isConversion(spv::Op op);                                     // lower_arithmetic.cpp
runtime::Rounding roundingOf(const Module &module, uint32_t id);   // lower_arithmetic.cpp
std::optional<runtime::AtomicOp> atomicOp(spv::Op opcode);         // lower_memory.cpp
std::optional<builtins::Math> openclStdFunction(uint32_t instruction); // lower_extended.cpp

// ---------------------------------------------------------------------------
// Values in registers.

struct Value {
  enum class Kind { Register, Aggregate, Builtin };
  Kind kind = Kind::Register;
  uint32_t offset = 0; // register
  bool varying = false;
  Scalar scalar = Scalar::I32;
  uint32_t components = 1;
  std::vector<Value> members;             // Aggregate: struct members or array elements
  spv::BuiltIn builtin = spv::BuiltInMax; // Builtin: a pointer to a built-in variable
  bool isPointer = false;
  spv::StorageClass storage = spv::StorageClassMax; // of a pointer
  uint32_t narrowBits = 0; // an integer narrower than its register element

  uint32_t elementBytes() const { return runtime::scalarSize(scalar); }
};

constexpr uint32_t varyingAlignment = 64;
// The sub-group size of kernels that do not require one.
constexpr uint32_t defaultSubgroupSize = 16;
// A Builtin value's `offset` is the component it points to, or this for the
// whole built-in variable.
constexpr uint32_t wholeBuiltin = 0xFFFFFFFFu;



class KernelLowering {
public:
  KernelLowering(const Module &module, const EntryPoint &entryPoint,
                 const std::unordered_map<uint32_t, uint64_t> &globals, const LowerOptions &options)
      : module_(module), entryPoint_(entryPoint), globals_(globals), options_(options) {}

  runtime::KernelCode run();
  // KernelCode::groupIndependent and singleItemGroups, of the code lowered.
  bool groupIndependent() const;
  bool singleItemGroups() const;

private:
  [[noreturn]] void fail(const Instruction &instruction, const std::string &message) const {
    std::string where = describe(instruction);
    if (const SourceLocation *location = module_.location(instruction);
        location && location->known())
      where += " (" + location->text() + ")";
    throw LoadError(LoadErrorKind::Invalid,
                    "kernel '" + entryPoint_.name + "', " + where + ": " + message);
  }

  // ---- registers ----
  uint32_t allocate(uint32_t bytes, bool varying) {
    if (pooling_) {
      auto &free = pool_[{bytes, varying}];
      if (!free.empty()) {
        const uint32_t offset = free.back();
        free.pop_back();
        return offset;
      }
    }
    const uint32_t alignment = varying ? varyingAlignment : 16;
    code_.registerBytes = (code_.registerBytes + alignment - 1) / alignment * alignment;
    const uint32_t offset = code_.registerBytes;
    code_.registerBytes += varying ? bytes * code_.width : bytes;
    return offset;
  }

  // The register form of a scalar or vector type.
  bool scalarForm(uint32_t typeId, Scalar &scalar, uint32_t &components) const;

  Value makeValue(uint32_t typeId, bool varying);

  // A uniform register holding a constant (any scalar, vector or aggregate).
  Value constantValue(uint32_t id);

  void fillConstant(const Value &value, uint32_t typeId, uint32_t constantId);

  // Registers of `value` from the memory image of a value of `typeId`.
  void fillFromMemory(const Value &value, uint32_t typeId, const std::byte *memory);

  // The value of an id used as an operand.
  const Value &use(uint32_t id, const Instruction &user) {
    auto it = values_.find(id);
    if (it != values_.end())
      return it->second;
    if (module_.constant(id))
      return values_.emplace(id, constantValue(id)).first->second;
    if (const GlobalVariable *variable = module_.globalVariable(id))
      return values_.emplace(id, globalVariableValue(*variable, user)).first->second;
    fail(user, "operand %" + std::to_string(id) + " has no value here");
  }

  Value globalVariableValue(const GlobalVariable &variable, const Instruction &user);

  // Lays out a variable of type `pointee` (SPIR-V id `id`) in each lane's
  // private memory; `pointer` is the register of its address.
  void allocatePrivate(const Value &pointer, uint32_t pointee, uint32_t id);

  // ---- the checked mode (runtime/check.h) ----
  std::shared_ptr<runtime::KernelChecks> checks_; // null when built without checks
  static constexpr uint32_t redZone = 64; // bytes between variables under the bounds check

  bool checking(runtime::Check check) const { return checks_ && checks_->checks.has(check); }
  static uint64_t accessBytes(const Value &value) {
    return uint64_t(value.components) * value.elementBytes();
  }
  // OpenCL C 3.0, 6.3.5: data of type T is aligned to sizeof(T), 3-vectors
  // to 4 components; an access that declares less (the Aligned memory
  // operand, e.g. in a packed struct) needs only that.
  uint32_t requiredAlignment(const Value &value) const;
  static runtime::CheckSite::Space spaceOf(spv::StorageClass storage);
  std::string nameOf(uint32_t id) const;
  uint32_t addSite(const Instruction &instruction, uint32_t alignment,
                   runtime::CheckSite::Space space, bool write);
  // The address register an access of `bytes` bytes through `pointer` uses:
  // under the bounds or alignment check, a checked copy of `address`.
  uint32_t checkedAddress(const Value &pointer, uint32_t address, uint64_t bytes,
                          uint32_t alignment, bool write);

  // The address register of a sub-group block read or write
  // (cl_intel_subgroups): the sub-group reads or writes S elements per
  // component from the pointer, the same for all its lanes, so each lane's
  // check covers the block of a whole sub-group. Each lane reaching the whole
  // block is no race among them: the block is checked for bounds and
  // alignment only.
  uint32_t checkedBlockAddress(const Value &pointer, const Value &data, bool write);

  // ---- the register shadow of undefined values ----
  // Under the uninit check, an undefined value is an OpUndef (at -O2 an
  // uninitialised variable, usually an incoming value of a phi) or what a
  // load reads of __local or private memory never written (the memory
  // shadow); under the subgroups check, a relative shuffle's result on the
  // lanes that read outside the sub-group. Each SSA value that may carry
  // one (findMaybeUndefined: those, and what element-wise operations,
  // selects, phis, composites and shuffles make of them) gets a shadow: a
  // varying byte per component per lane (runtime::shadowUninitialised,
  // shadowBadShuffle), computed alongside the value and stored with it into
  // the memory shadow. Copying, inserting, extracting and storing a partly
  // undefined value is silent; it is checked where an undefined value has
  // an effect (a branch, a switch, an address, a divisor, a value written
  // to global memory, an atomic's operand), as MemorySanitizer does.
  struct Shadow {
    uint32_t offset = 0;
    bool varying = false;
    uint32_t components = 1;
  };
  std::unordered_set<uint32_t> undefinedIds_;                 // the OpUndef values themselves
  std::unordered_set<uint32_t> maybeUndefined_;               // those and what they reach
  std::unordered_set<uint32_t> shadowedLoads_;                // loads that read a memory shadow
  std::unordered_map<uint32_t, uint32_t> undefShadow_;        // value -> varying shadow
  std::unordered_map<uint32_t, uint32_t> undefShadowStaging_; // phi -> staging shadow
  // Where each maybe-undefined value may come from: ids of OpUndefs and
  // shadowed loads (at most a few; more are "several").
  std::unordered_map<uint32_t, std::vector<uint32_t>> undefinedOrigins_;
  std::map<std::pair<bool, uint32_t>, uint32_t> shadowConstants_; // uniform, by (undefined, components)
  uint32_t shadowConstant(bool undefined, uint32_t components = 1);
  // The number of shadow components of a value: its type's components.
  std::unordered_map<uint32_t, uint32_t> componentCounts_; // of results and constants
  uint32_t shadowComponents(uint32_t id) const;
  // The shadow of a value that may be undefined; nullopt for a defined one.
  std::optional<Shadow> shadowOf(uint32_t id);
  // The shadow of any operand: a defined one's is a constant 0.
  Shadow shadowOrDefined(uint32_t id, uint32_t components);
  // The shadow `from` (element bytes `fromBytes`) as `components`
  // components of `toBytes` bytes over the same bytes (a bitcast), or, with
  // `toBytes` 0, reduced to one component or one component given to all.
  Shadow reshapeShadow(const Shadow &from, uint32_t components, uint32_t fromBytes = 1,
                       uint32_t toBytes = 0);
  void findMaybeUndefined();
  // A load the uninit check gives a shadow from memory: of a scalar,
  // vector or pointer through a pointer that may point into __local or
  // private memory.
  bool readsMemoryShadow(const Instruction &instruction);
  // "; the value comes from ..." for the reports of a use of `id`.
  std::string originOf(uint32_t id);
  // Under the subgroups check, sub_group_shuffle_up and _down are checked
  // where their result is used, not where they run: their result is only
  // undefined on the lanes that read outside the sub-group, which scans and
  // reductions then ignore.
  bool deferredShuffle(const Instruction &instruction) const {
    return checking(runtime::Check::Subgroups) &&
           (instruction.opcode == spv::OpGroupNonUniformShuffleUp ||
            instruction.opcode == spv::OpGroupNonUniformShuffleDown);
  }
  void emitShadow(const Instruction &instruction, uint32_t shadow);
  // Reports the active lanes for which `id`, used by `user` as `use`, is
  // undefined.
  void checkDefined(uint32_t id, const Instruction &user, runtime::UndefinedUse use);

  // ---- emission ----
  const Instruction *current_ = nullptr; // the SPIR-V instruction being lowered
  std::unordered_map<uint32_t, uint32_t> sourceIndices_; // Module::locations -> code_.sources

  void emit(Handler handler, uint32_t result, std::initializer_list<uint32_t> operands,
            uint32_t components, uint32_t aux = 0, uint64_t immediate = 0,
            const void *data = nullptr) {
    if (!handler)
      fail(*current_, "no handler for this operation on these operand types");
    runtime::Instruction instruction;
    instruction.handler = handler;
    instruction.result = result;
    size_t i = 0;
    for (uint32_t operand : operands)
      instruction.operand[i++] = operand;
    instruction.components = components;
    instruction.aux = aux;
    instruction.immediate = immediate;
    instruction.data = data;
    instruction.sourceId = current_ ? current_->result : 0;
    instruction.source = sourceIndex();
    instruction.family = current_ ? familyOf(*current_) : runtime::Family::Other;
    code_.instructions.push_back(instruction);
  }

  // The index in code_.sources of the current instruction's position.
  uint32_t sourceIndex() {
    if (!current_)
      return 0;
    const SourceLocation *location = module_.location(*current_);
    if (!location || !location->known())
      return 0;
    auto [entry, added] =
        sourceIndices_.try_emplace(current_->location, static_cast<uint32_t>(code_.sources.size()));
    if (added) {
      std::string text = location->text();
      code_.sources.push_back(text.starts_with("./") ? text.substr(2) : text);
    }
    return entry->second;
  }

  // Copies every register of `from` into `to` (same type).
  void copyValue(const Value &from, const Value &to) {
    if (to.kind == Value::Kind::Aggregate) {
      for (size_t i = 0; i < to.members.size(); ++i)
        copyValue(from.members[i], to.members[i]);
      return;
    }
    Shape shape{to.varying, {from.varying}};
    emit(runtime::copyComponentsHandler(to.elementBytes(), shape), to.offset, {from.offset},
         to.components);
  }

  // A register view of component `c` of a scalar/vector register.
  uint32_t componentOffset(const Value &value, uint32_t c) const {
    return value.offset + c * value.elementBytes() * (value.varying ? code_.width : 1);
  }

  // ---- Affine lane values (lower_affine.cpp) ----
  void findAffineValues();
  bool lowerAffine(const Instruction &instruction);
  std::optional<spv::BuiltIn> idVariable(uint32_t pointer) const;
  spv::BuiltIn sourceBuiltin(const Instruction &instruction);
  uint32_t sourceComponent(const Instruction &instruction) const;
  bool keepsAffinity(const Instruction &instruction,
                     const std::function<bool(uint32_t)> &isAffine) const;
  uint32_t pairOperands(const Instruction &instruction,
                        const std::function<bool(uint32_t)> &isAffine) const;
  uint32_t affineVectorAddress(uint32_t pointerId, uint32_t indexId, uint64_t stride,
                               const Instruction &user);
  // The instruction's number when it is an OpExtInst of OpenCL.std.
  std::optional<uint32_t> openclStdNumber(const Instruction &instruction) const {
    if (instruction.opcode != spv::OpExtInst)
      return std::nullopt;
    auto set = module_.extInstImports.find(instruction.idOperand(0));
    if (set == module_.extInstImports.end() || set->second != "OpenCL.std")
      return std::nullopt;
    return instruction.operands.at(1);
  }
  bool pairAddressed(const Instruction &instruction) const {
    return !affinePairs_.empty() &&
           pairOperands(instruction, [&](uint32_t id) { return affinePairs_.count(id) != 0; });
  }
  Scalar makeScalar(uint32_t typeId) const;
  std::pair<uint32_t, bool> affineOperand(uint32_t id, const Instruction &user);
  void lowerAffineChain(const Instruction &instruction, uint32_t result);
  bool lowerAffineAccess(const Instruction &instruction);
  struct Linearity {
    bool unsignedExact = false, signedExact = false, small = false;
    uint32_t lowZeroBits = 0; // bits known to be zero in every lane
  };
  Linearity linearity(uint32_t id) const;
  Linearity deriveLinearity(const Instruction &instruction);
  std::unordered_map<uint32_t, Linearity> linear_; // of affine values
  std::unordered_map<uint32_t, uint32_t> affinePairs_; // affine value -> its pair register
  std::unordered_set<uint32_t> laneForms_;             // affine values read lane by lane
  void findBranchOnlyConditions(const std::unordered_map<uint32_t, uint32_t> &definedIn);
  std::unordered_set<uint32_t> branchOnlyConditions_; // comparisons only their block's branch reads
  std::unordered_set<uint32_t> idVectorLoads_;         // loads of the global or local id
  std::unordered_set<uint32_t> idVectorLanes_;         // those some use reads lane by lane
  std::unordered_map<uint32_t, uint32_t> idComponentPointers_; // access chains to a component

  struct ChainSteps {
    uint64_t displacement = 0;
    std::vector<std::pair<uint32_t, uint64_t>> steps; // non-constant index, stride
  };
  ChainSteps chainSteps(const Instruction &instruction); // lower_memory.cpp
  void lowerInstruction(const Instruction &instruction);
  // The instruction families (spirv/lower_*.cpp), each true when it lowered
  // the instruction.
  bool lowerArithmetic(const Instruction &instruction); // lower_arithmetic.cpp
  bool lowerMemory(const Instruction &instruction);     // lower_memory.cpp
  // The fence of OpMemoryBarrier, or of OpControlBarrier's memory operands,
  // given the operand indices of its memory scope and semantics.
  void emitFence(const Instruction &instruction, size_t scopeOperand, size_t semanticsOperand);
  std::optional<uint32_t> raceSyncOf(const Instruction &instruction, const Value &pointer);
  bool lowerComposite(const Instruction &instruction);  // lower_composite.cpp
  bool lowerImage(const Instruction &instruction);      // lower_image.cpp
  runtime::ImageType imageTypeOf(const Type &type, uint32_t parameter) const;
  // OpSampledImage results: the image and the sampler they pair.
  std::unordered_map<uint32_t, std::pair<uint32_t, uint32_t>> sampledImages_;

  // A uniform register holding `value` in every component of `like`'s form.
  uint32_t splatConstant(const Value &like, unsigned __int128 value);

  // Keeps an arbitrary-width integer result zero-extended in its register.
  void truncateNarrow(const Value &value);

  // Operations that read the sign of an arbitrary-width integer are not
  // implemented: they would need it sign-extended.
  void checkNarrowOperation(const Value &operand, const Instruction &instruction);
  void lowerExtInst(const Instruction &instruction);
  void lowerPrintf(const Instruction &instruction);
  // A pointer whose value is known when the kernel is built: a module-scope
  // variable and a byte offset into it.
  std::optional<std::pair<uint32_t, uint64_t>> constantPointer(uint32_t id, int depth = 0);
  // The string a constant pointer points to in an initialised UniformConstant
  // variable: up to its null character, or to the end of the variable.
  std::optional<std::string> constantString(uint32_t id);
  std::unordered_map<uint32_t, const Instruction *> definitions_;
  const Instruction *definition(uint32_t id) {
    if (definitions_.empty())
      for (const Block &block : flat_.blocks)
        for (const Instruction &instruction : block.instructions)
          if (instruction.result)
            definitions_.emplace(instruction.result, &instruction);
    auto it = definitions_.find(id);
    return it == definitions_.end() ? nullptr : it->second;
  }
  void lowerSubgroup(const Instruction &instruction);
  // A work-group collective function in two steps, each followed by
  // `barrier()` (which ends the bytecode block at a work-group barrier).
  void lowerWorkGroupCollective(const Instruction &instruction,
                                const std::function<void()> &barrier);
  // The __local scratch of the work-group collectives: one 8-byte slot per
  // warp of the largest work-group; reserved at the first collective.
  std::optional<uint64_t> collectiveScratch_;
  bool lowerVectorMemory(const Instruction &instruction, uint32_t number);
  bool lowerPermutation(const Instruction &instruction, uint32_t number);
  bool lowerMixedMath(const Instruction &instruction, uint32_t number);
  bool lowerGeometric(const Instruction &instruction, uint32_t number);
  void emitGeometric(builtins::Geometric function, const Instruction &instruction,
                     size_t firstOperand);
  uint32_t broadcast(const Value &operand, uint32_t components);
  void emitMath(builtins::Math function, const Value &result,
                const std::vector<const Value *> &operands);
  void emitMixedMath(builtins::MixedMath function, Scalar type, const Value &result,
                     const std::vector<const Value *> &operands);
  // The address `pointer + offset * elementsPerOffset * elementBytes`.
  Value offsetAddress(const Value &pointer, const Value &offset, uint64_t stride);
  // A temporary register of the given form.
  Value temporary(Scalar scalar, uint32_t components, bool varying) {
    Value value;
    value.scalar = scalar;
    value.components = components;
    value.varying = varying;
    value.offset = allocate(components * runtime::scalarSize(scalar), varying);
    return value;
  }
  void lowerAccessChain(const Instruction &instruction, const Value &result);
  void loadInto(const Value &pointer, uint64_t displacement, uint32_t typeId, const Value &result);
  void storeFrom(const Value &pointer, uint64_t displacement, uint32_t typeId, const Value &value);
  uint32_t displaced(const Value &pointer, uint64_t displacement);
  void bindArguments(const Function &function);
  runtime::Terminator lowerTerminator(const Block &block, uint32_t number);
  std::vector<runtime::RegisterCopy> edgeCopies(uint32_t from, uint32_t to);

  bool isVaryingSource(const Instruction &instruction) const;
  // Whether the instruction reads memory another work-item may write.
  bool readsSharedMemory(const Instruction &instruction) const;
  // Whether the built-in differs between the lanes of a warp.
  bool isVaryingBuiltin(spv::BuiltIn builtin) const;
  // Whether the instruction is a barrier that ends its bytecode block: one
  // whose work-items may lie in several warps (a work-group's, unless each
  // work-group is one work-item).
  bool endsPiece(const Instruction &instruction) const {
    if (instruction.opcode != spv::OpControlBarrier || options_.singleItemGroups)
      return false;
    const auto scope = module_.constantValue(instruction.idOperand(0));
    return !scope || *scope != spv::ScopeSubgroup;
  }
  // A work-group collective function: OpGroupAll to OpGroupSMax with the
  // Workgroup scope.
  bool isWorkGroupCollective(const Instruction &instruction) const {
    if (instruction.opcode < spv::OpGroupAll || instruction.opcode > spv::OpGroupSMax)
      return false;
    const auto scope = module_.constantValue(instruction.idOperand(0));
    return scope && *scope == spv::ScopeWorkgroup;
  }
  // The bytecode blocks an instruction ends: a barrier one, a work-group
  // collective two (lower_group.cpp).
  uint32_t piecesEnded(const Instruction &instruction) const {
    if (endsPiece(instruction))
      return 1;
    return isWorkGroupCollective(instruction) && !options_.singleItemGroups ? 2 : 0;
  }

  // Register reuse. A value defined and used in one block only (no phi uses
  // it) is dead when the block ends, and after its last use in the block:
  // its registers return to a pool that later block-local values draw from.
  // Values that other blocks read keep their registers for the whole kernel.
  bool pooling_ = false;
  std::map<std::pair<uint32_t, bool>, std::vector<uint32_t>> pool_;
  std::unordered_map<uint32_t, uint32_t> localUses_; // block-local value -> uses left
  void findBlockLocalValues();
  // Loop-carried values that need no copy on the back edge: a varying
  // value V defined in block B and given on the back edge from B to a phi P of
  // the same type, when nothing reads P once V is defined (in B after V,
  // nor in any block a work-item reaches from B before it is back at P's
  // block), takes P's register. Handlers write only the active lanes, so
  // a work-item that is not in B keeps its P. V's own instruction may read
  // P only if it is lane-wise arithmetic (mad and fma among it), which
  // reads each element before it writes it. When the only later reads of P are in B and V's
  // instruction is pure arithmetic that nothing reads before them, V is
  // lowered after the last of them (sunk_). Not under checks, nor where the
  // phis need staging (lower_control.cpp).
  void findCoalescedPhis();
  // Varying phis given other phis (a value carried through nested loops, or
  // kept on one side of a branch in a loop) that take one register when
  // their live ranges do not meet, so that the edges copy nothing: a phi's
  // register is written at the end of each edge into its block, and must
  // then hold no other value of the class still to be read. Each class
  // takes the register of its first member (coalesced_). Not under checks.
  void findPhiWebs();
  std::unordered_map<uint32_t, uint32_t> coalesced_; // value -> the phi whose register it takes
  // Instructions lowered later than their place in the block: each lowered
  // right after the instruction that maps to it.
  std::unordered_set<const Instruction *> sunk_;
  std::unordered_map<const Instruction *, const Instruction *> sinkAfter_;

  // Vectors kept in memory order between their loads and stores
  // (lower_memory.cpp).
  void findMemoryOrderValues();
  bool equalComponents(uint32_t id, const std::unordered_map<uint32_t, const Instruction *> &defs,
                       int depth = 0) const;
  std::unordered_set<uint32_t> memoryOrder_;
  // Vectors in memory order that instructions not in that order read too,
  // by the block that computes them, until converted (convertToComponents).
  struct ReadOutOfOrder {
    uint32_t id;
    std::unordered_set<const Instruction *> readers;
  };
  std::unordered_map<uint32_t, std::vector<ReadOutOfOrder>> toComponents_;
  void convertToComponents(const Instruction *instruction, uint32_t block);

  // Chains of constant component selections composed (lower_composite.cpp):
  // a shuffle of shuffles reads the components it selects from where they
  // were first computed, and a selection only such shuffles read is not
  // lowered.
  using ComponentList = std::vector<std::pair<uint32_t, uint32_t>>; // (id, component)
  std::optional<ComponentList> selectionOf(const Instruction &instruction) const;
  void findComposedSelections();
  bool lowerComposedSelection(const Instruction &instruction);
  std::unordered_map<uint32_t, ComponentList> composed_;

  // Stores of an expression of lane-wise operations on values loaded for
  // it alone, all through affine pointers in one block (lower_stream.cpp):
  // lowered as usual, then replaced by one instruction that streams the
  // operands through the operations into the stored elements when the
  // warp's lanes are all one run, and runs the lowered instructions
  // otherwise (runtime::StreamedExpression).
  struct StreamedStore {
    struct Leaf {
      uint32_t id = 0;
      bool loaded = false; // else uniform
      bool halves = false; // vload_halfn, widened
    };
    std::vector<Leaf> leaves;
    // The operations in the order they compute, the stored value's last;
    // none when the stored value is leaf 0, loaded. A mad is two of the
    // expression's operations (`operations` counts them).
    std::vector<const Instruction *> nodes;
    uint32_t operations = 0;
    Scalar scalar = Scalar::I32;
    uint32_t components = 1;
  };
  void findStreamedStores();
  void fuseStreamedStore(const Instruction &original, size_t emittedFrom);
  std::unordered_map<const Instruction *, StreamedStore> streamedStores_; // by the store
  // Each member's emitted instructions, [first, end) in code_.instructions
  // (keys: the loaded leaves and the operations).
  std::unordered_map<uint32_t, std::pair<size_t, size_t>> streamedEmitted_;
  // Record stores (lower_stream.cpp): stores that may write each
  // work-item's record in parts (vstore4(v_k, 4 * i + k, p), k = 0 .. 3),
  // with nothing between them but instructions that neither touch memory
  // nor have effects. The earlier members are lowered with the last
  // (sunk_), and their instructions become one (runtime::RecordSteps).
  void findRecordStores();
  void fuseRecordStore(size_t emittedFrom, const std::vector<size_t> &memberEnds);
  // By the last member: the others, in program order.
  std::unordered_map<const Instruction *, std::vector<const Instruction *>> recordStores_;

  // Whether a result is bound when lowered rather than given registers.
  bool boundWhenLowered(const Instruction &instruction) const {
    if (instruction.opcode == spv::OpLoad || instruction.opcode == spv::OpAccessChain ||
        instruction.opcode == spv::OpInBoundsAccessChain) {
      const GlobalVariable *variable = module_.globalVariable(instruction.idOperand(0));
      return variable && variable->builtin;
    }
    return false;
  }
  void release(const Value &value);

  // Private variables whose address never escapes (only loaded from and
  // stored to) live in registers: a varying register holds each lane's
  // value, and a store is a copy into it for the active lanes.
  // What nothing reads, not lowered (findDeadValues): results, and stores
  // (by their instruction in flat_).
  std::unordered_set<uint32_t> dead_;
  std::unordered_set<const Instruction *> deadStores_;
  bool isDead(const Instruction &instruction) const {
    return instruction.result ? dead_.count(instruction.result) != 0
                              : deadStores_.count(&instruction) != 0;
  }
  // How many instructions that are lowered (not dead) read each id.
  std::unordered_map<uint32_t, uint32_t> liveUses() const;
  // Private variables that are only written (an event_t that
  // wait_group_events is given, whose copies are complete when issued),
  // and pointer casts and chains used by nothing but lifetime markers and
  // waits: clang leaves both. Not under checks, which would see the
  // accesses.
  void findDeadValues();
  std::unordered_set<uint32_t> promotable_; // only loaded and stored whole
  std::unordered_set<uint32_t> promoted_;   // those that live in registers
  void findPromotableVariables();

  // Phi copies are parallel: an edge must read every source before it writes
  // any phi. When no phi of the block reads another phi of the block, the
  // edges write the phis directly; otherwise they write staging registers,
  // copied into the phis when the block starts.
  bool needsStaging(const Block &block) const;

  const Module &module_;
  const EntryPoint &entryPoint_;
  const std::unordered_map<uint32_t, uint64_t> &globals_;
  const LowerOptions &options_;
  runtime::KernelCode code_;
  Function flat_;
  std::unique_ptr<ControlFlowGraph> cfg_;
  UniformityInfo uniformity_;
  std::unordered_set<uint32_t> waitingLoops_; // headers (findWaitingLoops)
  std::unordered_map<uint32_t, Value> values_;
  std::unordered_map<uint32_t, Value> phiStaging_;
  std::vector<uint32_t> firstPiece_; // bytecode block of each SPIR-V block
  std::unordered_map<spv::BuiltIn, Value> builtinRegisters_;
  std::unordered_map<uint32_t, uint32_t> resultTypes_;
  std::unordered_map<uint32_t, uint32_t> origins_; // inlined copy -> original id
  // The id whose decorations apply to `id` (the original of an inlined copy).
  uint32_t decorated(uint32_t id) const {
    auto it = origins_.find(id);
    return it == origins_.end() ? id : it->second;
  }
  const Value &builtinRegister(spv::BuiltIn builtin, const Instruction &user);
  // The SPIR-V type of any id a function body can use.
  uint32_t typeOfId(uint32_t id, const Instruction &user) const {
    auto it = resultTypes_.find(id);
    if (it == resultTypes_.end())
      fail(user, "operand %" + std::to_string(id) + " has no type");
    return it->second;
  }
  // Whether pointer `id` points to global memory (CrossWorkgroup), not to
  // __local, private, constant or generic memory.
  // Whether `id` points to global memory: a global pointer, or a generic
  // one cast from a global pointer in this function (vstore4(v, i, p)
  // passes `p` through OpPtrCastToGeneric), through chains and casts.
  bool pointsToGlobal(uint32_t id, const Instruction &user);
};


} // namespace lanewise::spirv::lowering
