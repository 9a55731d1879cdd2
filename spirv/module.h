// SPDX-License-Identifier: Apache-2.0
// The Lanewise SPIR-V IR: a light, instruction-level view of a module, in the
// manner of SPIRV-Tools' opt IR. Module-scope instructions are kept in module
// order (so that the module can be written back as words), function bodies as
// blocks of instructions, and the tables a consumer needs (types, constants,
// decorations, names, entry points, ...) are derived from those instructions
// by Module::rebuildTables().
//
// Conventions, fixed here for every consumer:
// - OpLine / OpNoLine are not instructions of the IR: they become the
//   `location` of the instructions they cover (SourceLocation).
// - OpUndef at module scope is a Constant of kind Undef; OpUndef inside a
//   function stays an instruction of its block.
// - OpSpecConstantOp is a Constant of kind SpecConstantOp that keeps the
//   operation and its operands, to be evaluated by the consumer.
// - The IR holds no OpExtInst of OpenCL.DebugInfo.100, DebugInfo or
//   NonSemantic.* sets, at module scope or in functions: the reader takes
//   their line information into the locations and leaves them out (they are
//   never executed); after loadModule() their imports are gone too.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include <spirv/unified1/spirv.hpp>

namespace lanewise::spirv {

// A file:line:column position in the OpenCL C source; empty when unknown.
struct SourceLocation {
  std::string file;
  uint32_t line = 0, column = 0;
  uint32_t fileId = 0; // the OpString naming the file, 0 if none

  bool known() const { return line != 0 || !file.empty(); }
  // "file:line:column", or "" when unknown.
  std::string text() const;
  friend bool operator==(const SourceLocation &, const SourceLocation &) = default;
};

// How the words of an operand are to be read (from the SPIR-V grammar).
enum class OperandKind : uint8_t {
  Id,        // an <id> (types, values, labels, scopes, semantics)
  Literal,   // a literal number (possibly several words)
  String,    // a nul-terminated UTF-8 literal string
  Enumerant, // a value or mask of one of the grammar's enums
};

// One logical operand: `wordCount` words starting at `offset` in
// Instruction::operands.
struct Operand {
  OperandKind kind;
  uint16_t offset;
  uint16_t wordCount;
};

struct Instruction {
  spv::Op opcode = spv::OpNop;
  uint32_t resultType = 0; // 0 when the instruction has none
  uint32_t result = 0;     // 0 when the instruction has none
  // The words after the result type and result id.
  std::vector<uint32_t> operands;
  // The logical operands covering `operands`, in order.
  std::vector<Operand> operandLayout;
  // Word offset of the instruction in the normalised binary (Module::words);
  // in the input binary until the module has been written back.
  uint32_t wordOffset = 0;
  // Index into Module::locations; 0 means unknown.
  uint32_t location = 0;

  // Builds an instruction whose operands are all ids.
  static Instruction withIds(spv::Op opcode, uint32_t resultType, uint32_t result,
                             std::span<const uint32_t> ids);

  uint32_t operandCount() const { return static_cast<uint32_t>(operands.size()); }
  // The operand word at `index`, read as an <id>.
  uint32_t idOperand(size_t index) const { return operands.at(index); }
  // Decodes the literal string that starts at operand word `index`.
  std::string stringOperand(size_t index) const;
  bool isIdOperand(size_t wordIndex) const;
  // Appends an <id> operand.
  void appendId(uint32_t id);
  // Calls `visit(uint32_t& id)` for every <id> operand (not the result type
  // or the result): the uses of the instruction.
  template <typename Visitor> void forEachIdOperand(Visitor &&visit) {
    for (const Operand &operand : operandLayout)
      if (operand.kind == OperandKind::Id)
        visit(operands[operand.offset]);
  }
  template <typename Visitor> void forEachIdOperand(Visitor &&visit) const {
    for (const Operand &operand : operandLayout)
      if (operand.kind == OperandKind::Id)
        visit(operands[operand.offset]);
  }
};

// Decodes a literal string (SPIR-V 2.2.1: UTF-8, nul-terminated, packed
// little-end first in 32-bit words). Sets `wordCount` to the words it used.
std::string decodeLiteralString(std::span<const uint32_t> words, size_t *wordCount = nullptr);
// The words of a literal string, nul-terminated and padded.
std::vector<uint32_t> encodeLiteralString(std::string_view text);

bool isBlockTerminator(spv::Op opcode);

struct Block {
  uint32_t label = 0;
  // OpPhi first, the terminator last; no OpLabel.
  std::vector<Instruction> instructions;

  const Instruction &terminator() const { return instructions.back(); }
};

struct Function {
  uint32_t id = 0, resultType = 0, functionType = 0;
  uint32_t control = 0;                                  // a spv::FunctionControlMask
  std::vector<std::pair<uint32_t, uint32_t>> parameters; // (id, type)
  std::vector<Block> blocks;                             // entry first; empty for a declaration
  uint32_t wordOffset = 0;                               // of the OpFunction

  bool isDeclaration() const { return blocks.empty(); }
  const Block *block(uint32_t label) const;
};

struct Type {
  enum class Kind {
    Void,
    Bool,
    Int,
    Float,
    Vector,
    Array,
    RuntimeArray,
    Struct,
    Pointer,
    Function,
    Event,
    DeviceEvent,
    ReserveId,
    Queue,
    Pipe,
    PipeStorage,
    Sampler,
    Image,
    SampledImage,
    Opaque,
    ForwardPointer, // declared by OpTypeForwardPointer, not yet defined
    Other,          // a type Lanewise has no use for (e.g. ray query types)
  };
  Kind kind = Kind::Other;
  uint32_t id = 0;
  spv::Op opcode = spv::OpNop;
  uint32_t width = 0;                // Int, Float: bits
  bool isSigned = false;             // Int: the signedness operand (always 0 from OpenCL C)
  uint32_t element = 0;              // Vector: component type; Array, RuntimeArray: element;
                                     // Pointer: pointee; SampledImage: image type
  uint32_t count = 0;                // Vector: components; Array: length (the constant's value)
  uint32_t lengthId = 0;             // Array: the length constant
  bool lengthIsSpecConstant = false; // Array: `count` is the default of a spec constant
  std::vector<uint32_t> members;     // Struct: member types; Function: parameter types
  uint32_t returnType = 0;           // Function
  spv::StorageClass storageClass = spv::StorageClassMax; // Pointer
  spv::AccessQualifier access = spv::AccessQualifierMax; // Pipe, Image (when present)
  std::string name;                                      // Opaque
  // Image operands (SPIR-V 3.32, OpTypeImage), kept for argument info.
  spv::Dim dim = spv::DimMax;
  uint32_t depth = 0, arrayed = 0, multisampled = 0, sampled = 0;
  spv::ImageFormat format = spv::ImageFormatMax;

  bool isScalar() const { return kind == Kind::Bool || kind == Kind::Int || kind == Kind::Float; }
};

struct Constant {
  enum class Kind { Scalar, Bool, Composite, Null, Undef, SpecConstantOp };
  uint32_t id = 0;
  uint32_t type = 0;
  spv::Op opcode = spv::OpNop;
  Kind kind = Kind::Scalar;
  // Scalar: the value's bits, masked to the type's width (an 8-bit -1 is
  // 0xff); Bool: 0 or 1. For a spec constant, the default value.
  uint64_t bits = 0;
  uint64_t highBits = 0; // Scalar of more than 64 bits: bits 64 and up
  std::vector<uint32_t> constituents; // Composite
  bool isSpec = false;
  std::optional<uint32_t> specId; // the SpecId decoration of a spec constant
  // SpecConstantOp: the operation and its operands (ids, and literals for
  // CompositeExtract/Insert and VectorShuffle), as in the instruction.
  spv::Op specOpcode = spv::OpNop;
  std::vector<uint32_t> specOperands;
};

struct GlobalVariable {
  uint32_t id = 0;
  uint32_t pointerType = 0;
  spv::StorageClass storageClass = spv::StorageClassMax;
  uint32_t initializer = 0; // 0 when none
  // Decorated BuiltIn: the device provides its value, whatever the storage
  // class (Input in the OpenCL SPIR-V environment; UniformConstant from
  // SPIR-V 1.0 translators, often with LinkageAttributes Import).
  std::optional<spv::BuiltIn> builtin;
};

struct Decoration {
  spv::Decoration kind = spv::DecorationMax;
  std::vector<uint32_t> operands; // the words after the decoration
};

struct MemberDecoration {
  uint32_t member = 0;
  spv::Decoration kind = spv::DecorationMax;
  std::vector<uint32_t> operands;
};

struct ExecutionModeInfo {
  spv::ExecutionMode mode = spv::ExecutionModeMax;
  std::vector<uint32_t> operands;
  bool operandsAreIds = false; // from OpExecutionModeId
};

struct EntryPoint {
  spv::ExecutionModel model = spv::ExecutionModelMax;
  uint32_t function = 0;
  std::string name;
  std::vector<uint32_t> interface;
  // Every execution mode of the function, in module order.
  std::vector<ExecutionModeInfo> modes;
  // The modes a kernel's consumers ask about, decoded.
  std::optional<std::array<uint32_t, 3>> localSize;     // reqd_work_group_size
  std::optional<std::array<uint32_t, 3>> localSizeHint; // work_group_size_hint
  // vec_type_hint, as SPIR-V encodes it: the low 16 bits give the component
  // type (0 char, 1 short, 2 int, 3 long, 4 half, 5 float, 6 double), the
  // high 16 bits the component count.
  std::optional<uint32_t> vecTypeHint;
  std::optional<uint32_t> subgroupSize; // intel_reqd_sub_group_size
  bool contractionOff = false;
};

struct SourceInfo {
  spv::SourceLanguage language = spv::SourceLanguageUnknown;
  uint32_t version = 0;
  uint32_t file = 0; // OpString id, 0 if none
  std::string text;
};

class Module {
public:
  // Header (SPIR-V 2.3).
  uint32_t version = 0; // 0x00MMmm00
  uint32_t generator = 0;
  uint32_t bound = 0;
  uint32_t majorVersion() const { return (version >> 16) & 0xff; }
  uint32_t minorVersion() const { return (version >> 8) & 0xff; }

  // Module-scope instructions in module order, from OpCapability to the last
  // type, constant or variable (OpLine / OpNoLine excluded).
  std::vector<Instruction> globals;
  std::vector<Function> functions;
  // Index 0 is the unknown location.
  std::vector<SourceLocation> locations{SourceLocation{}};
  // The normalised binary, as validated; set by writeModule() (writer.h).
  std::vector<uint32_t> words;

  // Tables derived from `globals` and `functions` by rebuildTables().
  std::vector<spv::Capability> capabilities;
  std::vector<std::string> extensions;
  std::map<uint32_t, std::string> extInstImports; // id -> set name
  spv::AddressingModel addressingModel = spv::AddressingModelMax;
  spv::MemoryModel memoryModel = spv::MemoryModelMax;
  std::vector<EntryPoint> entryPoints;
  std::vector<SourceInfo> sources;
  std::unordered_map<uint32_t, std::string> strings;                // OpString
  std::unordered_map<uint32_t, std::string> names;                  // OpName
  std::map<std::pair<uint32_t, uint32_t>, std::string> memberNames; // (struct, member)
  // OpDecorationGroup / OpGroupDecorate resolved onto their targets.
  std::unordered_map<uint32_t, std::vector<Decoration>> decorations;
  std::unordered_map<uint32_t, std::vector<MemberDecoration>> memberDecorations;
  std::unordered_map<uint32_t, Type> types;
  std::unordered_map<uint32_t, Constant> constants;
  std::vector<GlobalVariable> globalVariables;

  // Recomputes every table above from the instructions. Throws LoadError
  // (errors.h) when a module-scope instruction is not well formed.
  void rebuildTables();

  const Type *type(uint32_t id) const;
  const Constant *constant(uint32_t id) const;
  const GlobalVariable *globalVariable(uint32_t id) const;
  const Function *function(uint32_t id) const;
  Function *function(uint32_t id);
  const EntryPoint *entryPoint(std::string_view name) const;
  const std::string *name(uint32_t id) const;
  bool hasDecoration(uint32_t id, spv::Decoration kind) const;
  // The first decoration of that kind on `id`, or nullptr.
  const Decoration *decoration(uint32_t id, spv::Decoration kind) const;
  const SourceLocation *location(const Instruction &instruction) const;
  // Interns a location and returns its index (0 for an unknown one).
  uint32_t addLocation(const SourceLocation &location);
  // The module-scope instruction defining `id`, or nullptr.
  const Instruction *globalDefinition(uint32_t id) const;
  // Integer value of an OpConstant / OpSpecConstant (its default), if `id` is one.
  std::optional<uint64_t> constantValue(uint32_t id) const;

  // Pointer size in bytes under the addressing model (8 for Physical64).
  uint32_t pointerSize() const { return addressingModel == spv::AddressingModelPhysical32 ? 4 : 8; }

private:
  std::unordered_map<uint32_t, size_t> functionIndex_;
  std::unordered_map<uint32_t, size_t> globalVariableIndex_;
  std::unordered_map<uint32_t, size_t> globalDefinitionIndex_;
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t> locationIndex_;
};

// Size in bytes of a value of `typeId` in memory under OpenCL C's rules
// (OpenCL C 3.0, 6.3.5): a 3-component vector takes the room of a
// 4-component one; structs follow their Offset decorations if they have
// them, else natural C layout (CPacked: no padding). No value for types
// without a size (void, runtime arrays, opaque types, functions).
std::optional<uint64_t> sizeOf(const Module &module, uint32_t typeId);
// Alignment in bytes under the same rules: a scalar or vector is aligned to
// its size; an array to its element; a struct to its most aligned member
// (1 if CPacked).
std::optional<uint64_t> alignmentOf(const Module &module, uint32_t typeId);
// Byte offset of each member of a struct type.
std::vector<uint64_t> memberOffsets(const Module &module, uint32_t structTypeId);
// 1 for a scalar, the component count for a vector, 0 for anything else.
uint32_t componentCount(const Module &module, uint32_t typeId);
// The scalar type of a scalar or vector type (itself for a scalar), else 0.
uint32_t scalarType(const Module &module, uint32_t typeId);

// "OpIAdd %42" with the instruction's result id when it has one.
std::string describe(const Instruction &instruction);

} // namespace lanewise::spirv
