// SPDX-License-Identifier: Apache-2.0
#include "spirv/writer.h"

namespace lanewise::spirv {
namespace {

class Writer {
public:
  explicit Writer(Module &module) : module_(module) {}

  std::vector<WrittenInstruction> run() {
    auto &words = module_.words;
    words.clear();
    words.insert(words.end(),
                 {spv::MagicNumber, module_.version, module_.generator, module_.bound, 0u});
    for (Instruction &instruction : module_.globals)
      write(instruction);
    for (Function &function : module_.functions) {
      function.wordOffset = static_cast<uint32_t>(words.size());
      writeRaw(spv::OpFunction, function.resultType, function.id,
               {function.control, function.functionType});
      for (const auto &[id, type] : function.parameters)
        writeRaw(spv::OpFunctionParameter, type, id, {});
      for (Block &block : function.blocks) {
        writeRaw(spv::OpLabel, 0, block.label, {});
        currentLocation_ = 0;
        for (Instruction &instruction : block.instructions) {
          writeLine(instruction);
          write(instruction);
        }
      }
      writeRaw(spv::OpFunctionEnd, 0, 0, {});
    }
    return std::move(written_);
  }

private:
  // SPIR-V 3.32.2: OpLine applies until the end of the block, the next
  // OpLine or an OpNoLine. OpPhi and OpVariable are left without, since they
  // must lead their block.
  void writeLine(const Instruction &instruction) {
    if (instruction.opcode == spv::OpPhi || instruction.opcode == spv::OpVariable)
      return;
    if (instruction.location == currentLocation_)
      return;
    const SourceLocation *location = module_.location(instruction);
    if (location && location->fileId != 0)
      writeRaw(spv::OpLine, 0, 0, {location->fileId, location->line, location->column});
    else if (currentLocation_ != 0)
      writeRaw(spv::OpNoLine, 0, 0, {});
    else
      return;
    currentLocation_ = location && location->fileId != 0 ? instruction.location : 0;
  }

  void write(Instruction &instruction) {
    instruction.wordOffset = static_cast<uint32_t>(module_.words.size());
    const uint32_t count = 1 + (instruction.resultType != 0) + (instruction.result != 0) +
                           static_cast<uint32_t>(instruction.operands.size());
    auto &words = module_.words;
    words.push_back(count << spv::WordCountShift | instruction.opcode);
    if (instruction.resultType != 0)
      words.push_back(instruction.resultType);
    if (instruction.result != 0)
      words.push_back(instruction.result);
    words.insert(words.end(), instruction.operands.begin(), instruction.operands.end());
    written_.push_back(
        {instruction.opcode, instruction.result, instruction.wordOffset, instruction.location});
  }

  void writeRaw(spv::Op opcode, uint32_t resultType, uint32_t result,
                std::initializer_list<uint32_t> operands) {
    Instruction instruction;
    instruction.opcode = opcode;
    instruction.resultType = resultType;
    instruction.result = result;
    instruction.operands = operands;
    write(instruction);
  }

  Module &module_;
  std::vector<WrittenInstruction> written_;
  uint32_t currentLocation_ = 0;
};

} // namespace

std::vector<WrittenInstruction> writeModule(Module &module) { return Writer(module).run(); }

} // namespace lanewise::spirv
