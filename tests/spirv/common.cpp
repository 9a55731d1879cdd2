// SPDX-License-Identifier: Apache-2.0
#include "common.h"

#include <fstream>
#include <iterator>
#include <stdexcept>
#include <unordered_set>

#include <spirv-tools/libspirv.hpp>

#include "spirv/reader.h"

namespace lanewise::spirv::test {

std::vector<std::byte> kernelBytes(const std::string &name) {
  const std::string path = std::string(LANEWISE_TEST_KERNEL_DIR) + "/" + name;
  std::ifstream file(path, std::ios::binary);
  if (!file)
    throw std::runtime_error("cannot open " + path);
  std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  std::vector<std::byte> result(bytes.size());
  for (size_t i = 0; i < bytes.size(); ++i)
    result[i] = std::byte(static_cast<unsigned char>(bytes[i]));
  return result;
}

std::vector<uint32_t> kernelWords(const std::string &name) {
  return wordsFromBytes(kernelBytes(name));
}

uint32_t markerLine(const std::string &source, const std::string &marker) {
  const std::string path = std::string(LANEWISE_TEST_SOURCE_DIR) + "/" + source;
  std::ifstream file(path);
  std::string line;
  for (uint32_t number = 1; std::getline(file, line); ++number)
    if (line.find("MARKER:" + marker) != std::string::npos)
      return number;
  throw std::runtime_error("no MARKER:" + marker + " in " + path);
}

std::string spirvValError(const std::vector<uint32_t> &words) {
  spv_target_env environment = SPV_ENV_UNIVERSAL_1_4;
  if (words.size() > 1 && words[1] < 0x00010400)
    environment = words[1] == 0x00010000   ? SPV_ENV_UNIVERSAL_1_0
                  : words[1] == 0x00010100 ? SPV_ENV_UNIVERSAL_1_1
                  : words[1] == 0x00010200 ? SPV_ENV_UNIVERSAL_1_2
                                           : SPV_ENV_UNIVERSAL_1_3;
  spvtools::SpirvTools tools(environment);
  std::string error;
  tools.SetMessageConsumer(
      [&](spv_message_level_t, const char *, const spv_position_t &, const char *message) {
        if (error.empty())
          error = message;
      });
  if (tools.Validate(words))
    return "";
  return error.empty() ? "invalid" : error;
}

LoadResult loadKernel(const std::string &name, const LoadOptions &options) {
  return loadModule(kernelBytes(name), options);
}

std::vector<const Instruction *> instructionsOf(const Function &function) {
  std::vector<const Instruction *> instructions;
  for (const Block &block : function.blocks)
    for (const Instruction &instruction : block.instructions)
      instructions.push_back(&instruction);
  return instructions;
}

bool definitionsPrecedeUses(const Module &module, const Function &function) {
  std::unordered_set<uint32_t> defined;
  for (const auto &[id, type] : function.parameters)
    defined.insert(id);
  for (const Block &block : function.blocks)
    defined.insert(block.label); // labels may be named before their block
  for (const Block &block : function.blocks)
    for (const Instruction &instruction : block.instructions) {
      bool ok = true;
      if (instruction.opcode != spv::OpPhi)
        instruction.forEachIdOperand([&](uint32_t id) {
          if (!defined.contains(id) && !module.globalDefinition(id) && !module.function(id))
            ok = false;
        });
      if (!ok)
        return false;
      if (instruction.result != 0)
        defined.insert(instruction.result);
    }
  return true;
}

} // namespace lanewise::spirv::test
