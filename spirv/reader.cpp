// SPDX-License-Identifier: Apache-2.0
#include "spirv/reader.h"

#include <cstring>
#include <memory>
#include <sstream>
#include <unordered_set>

#include <spirv-tools/libspirv.h>
#include <spirv/unified1/OpenCLDebugInfo100.h>

#include "spirv/debug_info.h"
#include "spirv/errors.h"
#include "spirv/names.h"

namespace lanewise::spirv {
namespace {

constexpr uint32_t kHeaderWords = 5;

uint32_t byteSwap(uint32_t word) { return __builtin_bswap32(word); }

std::string hex(uint32_t value) {
  std::ostringstream text;
  text << "0x" << std::hex << value;
  return text.str();
}

[[noreturn]] void malformed(const std::string &problem) {
  throw LoadError(LoadErrorKind::Malformed, "malformed SPIR-V: " + problem);
}

[[noreturn]] void invalid(const std::string &problem) {
  throw LoadError(LoadErrorKind::Invalid, problem);
}

std::string versionText(uint32_t version) {
  return std::to_string((version >> 16) & 0xff) + "." + std::to_string((version >> 8) & 0xff);
}

OperandKind operandKind(spv_operand_type_t type) {
  switch (type) {
  case SPV_OPERAND_TYPE_ID:
  case SPV_OPERAND_TYPE_TYPE_ID:
  case SPV_OPERAND_TYPE_RESULT_ID:
  case SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID:
  case SPV_OPERAND_TYPE_SCOPE_ID:
    return OperandKind::Id;
  case SPV_OPERAND_TYPE_LITERAL_INTEGER:
  case SPV_OPERAND_TYPE_EXTENSION_INSTRUCTION_NUMBER:
  case SPV_OPERAND_TYPE_SPEC_CONSTANT_OP_NUMBER:
  case SPV_OPERAND_TYPE_TYPED_LITERAL_NUMBER:
    return OperandKind::Literal;
  case SPV_OPERAND_TYPE_LITERAL_STRING:
    return OperandKind::String;
  default:
    return OperandKind::Enumerant;
  }
}

// The instruction stream is walked once by word counts, which rejects word
// counts of 0 or running past the end. Debug and NonSemantic.* extended
// instructions and their imports are taken out of the stream before
// SPIRV-Tools parses it: they are never executed, llvm-spirv-14's
// OpenCL.DebugInfo.100 output does not even parse (DWARF operations outside
// the set's grammar), and SPIRV-Tools refuses sets it does not know (the
// legacy "SPIRV.debug"). They are kept aside, attached to the instruction
// that follows them: the imports go back into the IR, the rest gives source
// locations.
struct DebugFilter {
  struct Removed {
    uint32_t originalOffset;
    std::vector<uint32_t> words;
  };

  std::vector<uint32_t> words;           // the stream without them
  std::vector<uint32_t> originalOffsets; // of each kept word in the input
  // Filtered offset of the next kept instruction -> what was removed before it.
  std::unordered_map<uint32_t, std::vector<Removed>> removedBefore;
  std::unordered_set<uint32_t> droppedResults; // of the removed OpExtInsts

  explicit DebugFilter(std::span<const uint32_t> input) {
    std::unordered_set<uint32_t> debugSets;
    words.assign(input.begin(), input.begin() + std::min<size_t>(input.size(), kHeaderWords));
    for (size_t offset = 0; offset < words.size(); ++offset)
      originalOffsets.push_back(static_cast<uint32_t>(offset));
    size_t offset = kHeaderWords;
    while (offset < input.size()) {
      const uint32_t count = input[offset] >> spv::WordCountShift;
      const auto opcode = static_cast<spv::Op>(input[offset] & spv::OpCodeMask);
      // SPIR-V 2.3: the word count includes the opcode word, so it is at
      // least 1, and the instruction lies within the binary.
      if (count == 0)
        malformed(opcodeName(opcode) + " at word " + std::to_string(offset) +
                  " has a word count of 0");
      if (offset + count > input.size())
        malformed(opcodeName(opcode) + " at word " + std::to_string(offset) + " has " +
                  std::to_string(count) + " words, running past the end of the " +
                  std::to_string(input.size()) + "-word binary");
      bool remove = false;
      if (opcode == spv::OpExtInstImport && count > 2 &&
          debugSetKind(decodeLiteralString(input.subspan(offset + 2, count - 2))) !=
              DebugSetKind::None) {
        debugSets.insert(input[offset + 1]);
        remove = true;
      }
      if (opcode == spv::OpExtInst && count > 4 && debugSets.contains(input[offset + 3])) {
        droppedResults.insert(input[offset + 2]);
        remove = true;
      }
      if (remove) {
        removedBefore[static_cast<uint32_t>(words.size())].push_back(
            {static_cast<uint32_t>(offset),
             std::vector<uint32_t>(input.begin() + offset, input.begin() + offset + count)});
      } else {
        for (uint32_t word = 0; word < count; ++word) {
          words.push_back(input[offset + word]);
          originalOffsets.push_back(static_cast<uint32_t>(offset + word));
        }
      }
      offset += count;
    }
  }

  uint32_t originalOffset(size_t filteredOffset) const {
    return filteredOffset < originalOffsets.size() ? originalOffsets[filteredOffset]
                                                   : static_cast<uint32_t>(filteredOffset);
  }
};

struct ParseState {
  const DebugFilter *filter = nullptr;
  uint32_t bound = 0;
  std::vector<Instruction> instructions;
  // What the filter removed before each of `instructions`.
  std::vector<const std::vector<DebugFilter::Removed> *> removedBefore;
  std::string error;
};

spv_result_t onInstruction(void *userData, const spv_parsed_instruction_t *parsed) {
  auto &state = *static_cast<ParseState *>(userData);
  Instruction instruction;
  instruction.opcode = static_cast<spv::Op>(parsed->opcode);
  instruction.resultType = parsed->type_id;
  instruction.result = parsed->result_id;
  const auto filteredOffset = static_cast<uint32_t>(parsed->words - state.filter->words.data());
  instruction.wordOffset = state.filter->originalOffset(filteredOffset);
  auto removed = state.filter->removedBefore.find(filteredOffset);
  state.removedBefore.push_back(removed == state.filter->removedBefore.end() ? nullptr
                                                                             : &removed->second);
  for (uint16_t index = 0; index < parsed->num_operands; ++index) {
    const spv_parsed_operand_t &operand = parsed->operands[index];
    const OperandKind kind = operandKind(operand.type);
    if (kind == OperandKind::Id) {
      const uint32_t id = parsed->words[operand.offset];
      // SPIR-V 2.2.1: every <id> is below the header's bound (and ids start at 1).
      if (id == 0 || id >= state.bound) {
        state.error = opcodeName(instruction.opcode) + " at word " +
                      std::to_string(instruction.wordOffset) + ": <id> " + std::to_string(id) +
                      (id == 0 ? " is not a valid id"
                               : " is not below the id bound " + std::to_string(state.bound) +
                                     " of the header");
        return SPV_ERROR_INVALID_ID;
      }
    }
    if (operand.type == SPV_OPERAND_TYPE_TYPE_ID || operand.type == SPV_OPERAND_TYPE_RESULT_ID)
      continue; // resultType and result
    instruction.operandLayout.push_back(
        {kind, static_cast<uint16_t>(instruction.operands.size()), operand.num_words});
    instruction.operands.insert(instruction.operands.end(), parsed->words + operand.offset,
                                parsed->words + operand.offset + operand.num_words);
  }
  state.instructions.push_back(std::move(instruction));
  return SPV_SUCCESS;
}

// Builds globals and functions from the flat instruction list, turning
// OpLine / OpNoLine and debug scopes into locations.
class Structurer {
public:
  Structurer(Module &module, const std::unordered_set<uint32_t> &droppedResults)
      : module_(module), droppedResults_(droppedResults) {}

  void run(ParseState &parsed) {
    for (size_t index = 0; index < parsed.instructions.size(); ++index) {
      if (const auto *removed = parsed.removedBefore[index])
        for (const DebugFilter::Removed &instruction : *removed)
          takeRemoved(instruction);
      take(std::move(parsed.instructions[index]));
    }
    if (state_ != State::Globals && state_ != State::AfterFunctions)
      invalid("function %" + std::to_string(currentFunction().id) +
              " is not closed by OpFunctionEnd before the end of the module");
  }

private:
  enum class State { Globals, Parameters, BetweenBlocks, InBlock, AfterFunctions };

  Function &currentFunction() { return module_.functions.back(); }

  [[noreturn]] void misplaced(const Instruction &instruction, const std::string &expected) {
    invalid(describe(instruction) + " (word " + std::to_string(instruction.wordOffset) +
            "): out of the logical layout of a module (SPIR-V 2.4): " + expected);
  }

  uint32_t currentLocation() {
    if (line_.known())
      return module_.addLocation(line_);
    if (scope_.known())
      return module_.addLocation(scope_);
    return 0;
  }

  void endBlock() {
    // SPIR-V 3.32.2: an OpLine applies up to the end of its block; so does a
    // DebugScope (OpenCL.DebugInfo.100, 4.4).
    line_ = {};
    scope_ = {};
  }

  void take(Instruction &&instruction) {
    switch (instruction.opcode) {
    case spv::OpLine: {
      const uint32_t file = instruction.operands.at(0);
      auto name = strings_.find(file);
      line_ = {name == strings_.end() ? std::string() : name->second, instruction.operands.at(1),
               instruction.operands.at(2), file};
      return;
    }
    case spv::OpNoLine:
      line_ = {};
      return;
    case spv::OpString:
      strings_[instruction.result] = instruction.stringOperand(0);
      break;
    case spv::OpExtInstImport:
      debugSets_.noteImport(instruction.result, instruction.stringOperand(0));
      break;
    case spv::OpName:
    case spv::OpMemberName:
    case spv::OpDecorate:
    case spv::OpDecorateId:
    case spv::OpDecorateString:
    case spv::OpMemberDecorate:
    case spv::OpMemberDecorateString:
      // Names and decorations of the debug instructions go with them.
      if (!instruction.operands.empty() && droppedResults_.contains(instruction.operands[0]))
        return;
      break;
    default:
      break;
    }
    instruction.location = currentLocation();

    switch (state_) {
    case State::Globals:
      if (instruction.opcode == spv::OpFunction) {
        startFunction(instruction);
        return;
      }
      if (instruction.opcode == spv::OpFunctionParameter || instruction.opcode == spv::OpLabel ||
          instruction.opcode == spv::OpFunctionEnd || isBlockTerminator(instruction.opcode))
        misplaced(instruction, "found outside a function");
      module_.globals.push_back(std::move(instruction));
      return;
    case State::AfterFunctions:
      if (instruction.opcode == spv::OpFunction) {
        startFunction(instruction);
        return;
      }
      misplaced(instruction, "only functions may follow the first function");
    case State::Parameters:
      if (instruction.opcode == spv::OpFunctionParameter) {
        currentFunction().parameters.emplace_back(instruction.result, instruction.resultType);
        return;
      }
      [[fallthrough]];
    case State::BetweenBlocks:
      if (instruction.opcode == spv::OpFunctionEnd) {
        state_ = State::AfterFunctions;
        endBlock();
        return;
      }
      if (instruction.opcode != spv::OpLabel)
        misplaced(instruction, "expected OpLabel or OpFunctionEnd in function %" +
                                   std::to_string(currentFunction().id));
      currentFunction().blocks.push_back(Block{instruction.result, {}});
      state_ = State::InBlock;
      return;
    case State::InBlock: {
      if (instruction.opcode == spv::OpLabel || instruction.opcode == spv::OpFunctionEnd ||
          instruction.opcode == spv::OpFunction || instruction.opcode == spv::OpFunctionParameter)
        misplaced(instruction, "block %" + std::to_string(currentFunction().blocks.back().label) +
                                   " of function %" + std::to_string(currentFunction().id) +
                                   " has no terminator");
      const bool terminator = isBlockTerminator(instruction.opcode);
      currentFunction().blocks.back().instructions.push_back(std::move(instruction));
      if (terminator) {
        state_ = State::BetweenBlocks;
        endBlock();
      }
      return;
    }
    }
  }

  void startFunction(const Instruction &instruction) {
    Function function;
    function.id = instruction.result;
    function.resultType = instruction.resultType;
    function.control = instruction.operands.at(0);
    function.functionType = instruction.operands.at(1);
    function.wordOffset = instruction.wordOffset;
    module_.functions.push_back(std::move(function));
    state_ = State::Parameters;
    endBlock();
  }

  // An import of a debug set goes back into the IR (normalisation removes
  // it); an OpExtInst of such a set only gives its line information.
  void takeRemoved(const DebugFilter::Removed &removed) {
    const auto opcode = static_cast<spv::Op>(removed.words[0] & spv::OpCodeMask);
    if (opcode != spv::OpExtInstImport) {
      noteDebugInstruction(removed.words);
      return;
    }
    Instruction import;
    import.opcode = opcode;
    import.result = removed.words[1];
    import.operands.assign(removed.words.begin() + 2, removed.words.end());
    import.operandLayout.push_back(
        {OperandKind::String, 0, static_cast<uint16_t>(import.operands.size())});
    import.wordOffset = removed.originalOffset;
    take(std::move(import));
  }

  // OpenCL.DebugInfo.100 (sections 4.1, 4.4): the scopes give file, line and
  // column to the instructions that follow a DebugScope. `words` is a whole
  // OpExtInst: header, result type, result, set, instruction, operands.
  void noteDebugInstruction(const std::vector<uint32_t> &words) {
    if (words.size() < 5 || debugSets_.kind(words[3]) != DebugSetKind::OpenCLDebugInfo100)
      return;
    const uint32_t result = words[2];
    const std::span<const uint32_t> operands = std::span(words).subspan(3);
    switch (operands[1]) {
    case OpenCLDebugInfo100DebugSource:
      if (operands.size() > 2)
        sourceFiles_[result] = operands[2];
      break;
    case OpenCLDebugInfo100DebugFunction:
      // Name, Type, Source, Line, Column, Parent, ...
      if (operands.size() > 6)
        scopes_[result] = scopeLocation(operands[4], operands[5], operands[6]);
      break;
    case OpenCLDebugInfo100DebugLexicalBlock:
      // Source, Line, Column, Parent, Name?
      if (operands.size() > 4)
        scopes_[result] = scopeLocation(operands[2], operands[3], operands[4]);
      break;
    case OpenCLDebugInfo100DebugScope:
      if (operands.size() > 2) {
        auto found = scopes_.find(operands[2]);
        scope_ = found == scopes_.end() ? SourceLocation{} : found->second;
      }
      break;
    case OpenCLDebugInfo100DebugNoScope:
      scope_ = {};
      break;
    default:
      break;
    }
  }

  SourceLocation scopeLocation(uint32_t source, uint32_t line, uint32_t column) {
    SourceLocation location;
    location.line = line;
    location.column = column;
    if (auto file = sourceFiles_.find(source); file != sourceFiles_.end()) {
      location.fileId = file->second;
      if (auto name = strings_.find(file->second); name != strings_.end())
        location.file = name->second;
    }
    return location;
  }

  Module &module_;
  const std::unordered_set<uint32_t> &droppedResults_;
  State state_ = State::Globals;
  SourceLocation line_, scope_;
  std::unordered_map<uint32_t, std::string> strings_;
  DebugSets debugSets_;
  std::unordered_map<uint32_t, uint32_t> sourceFiles_;  // DebugSource -> OpString
  std::unordered_map<uint32_t, SourceLocation> scopes_; // DebugFunction/LexicalBlock
};

} // namespace

std::vector<uint32_t> wordsFromBytes(std::span<const std::byte> bytes) {
  if (bytes.size() % 4 != 0)
    malformed("the binary is " + std::to_string(bytes.size()) +
              " bytes long, which is not a whole number of 32-bit words");
  std::vector<uint32_t> words(bytes.size() / 4);
  if (!bytes.empty())
    std::memcpy(words.data(), bytes.data(), bytes.size());
  if (words.empty())
    malformed("the binary is empty");
  if (words[0] == byteSwap(spv::MagicNumber))
    for (uint32_t &word : words)
      word = byteSwap(word);
  else if (words[0] != spv::MagicNumber)
    malformed("the first word is " + hex(words[0]) + ", expected the magic number " +
              hex(spv::MagicNumber) + " (in either byte order)");
  return words;
}

Module readModule(std::span<const uint32_t> input) {
  std::vector<uint32_t> swapped;
  std::span<const uint32_t> words = input;
  if (!words.empty() && words[0] == byteSwap(spv::MagicNumber)) {
    swapped.assign(input.begin(), input.end());
    for (uint32_t &word : swapped)
      word = byteSwap(word);
    words = swapped;
  }
  if (words.empty() || words[0] != spv::MagicNumber)
    malformed(words.empty() ? std::string("the binary is empty")
                            : "the first word is " + hex(words[0]) +
                                  ", expected the magic number " + hex(spv::MagicNumber));
  if (words.size() < kHeaderWords)
    malformed("the binary has " + std::to_string(words.size()) +
              " words, fewer than the 5 words of a SPIR-V header");

  Module module;
  module.version = words[1];
  module.generator = words[2];
  module.bound = words[3];
  // SPIR-V 2.3: version 0x00MMmm00, bytes 0 and 3 zero.
  if ((module.version & 0xff0000ff) != 0)
    malformed("the version word " + hex(module.version) + " is not of the form 0x00MMmm00");
  if (module.version < kMinimumVersion || module.version > kMaximumVersion)
    invalid("SPIR-V " + versionText(module.version) +
            " is not supported: Lanewise accepts SPIR-V " + versionText(kMinimumVersion) + " to " +
            versionText(kMaximumVersion));
  if (module.bound == 0)
    malformed("the id bound in the header is 0");
  if (words[4] != 0)
    malformed("the reserved header word (schema) is " + hex(words[4]) + ", expected 0");

  const DebugFilter filter(words);
  ParseState state;
  state.filter = &filter;
  state.bound = module.bound;
  // The universal 1.6 context knows every opcode and operand of the versions
  // Lanewise reads; what a version does not allow is the validator's concern.
  std::unique_ptr<spv_context_t, decltype(&spvContextDestroy)> context(
      spvContextCreate(SPV_ENV_UNIVERSAL_1_6), spvContextDestroy);
  spv_diagnostic diagnostic = nullptr;
  const spv_result_t result =
      spvBinaryParse(context.get(), &state, filter.words.data(), filter.words.size(), nullptr,
                     onInstruction, &diagnostic);
  if (result != SPV_SUCCESS) {
    std::string message = state.error;
    if (message.empty() && diagnostic)
      message = std::string(diagnostic->error) + " (at word " +
                std::to_string(filter.originalOffset(diagnostic->position.index)) + ")";
    spvDiagnosticDestroy(diagnostic);
    malformed(message.empty() ? "the binary could not be parsed" : message);
  }
  spvDiagnosticDestroy(diagnostic);

  Structurer(module, filter.droppedResults).run(state);
  module.rebuildTables();
  return module;
}

} // namespace lanewise::spirv
