// SPDX-License-Identifier: Apache-2.0
// Source locations from llvm-spirv-14 -g output: OpLine and
// OpenCL.DebugInfo.100 scopes become file:line:column of instructions, kept
// after the debug instructions are stripped. Expected lines come from the
// MARKER comments of kernels/debug_lines.cl.
#include <algorithm>

#include <gtest/gtest.h>

#include "common.h"

namespace lanewise::spirv {
namespace {

class SourceLocations : public testing::TestWithParam<std::string> {};

// The lines of the source that some instruction with this opcode carries.
std::vector<uint32_t> linesOf(const Module &module, spv::Op opcode) {
  std::vector<uint32_t> lines;
  for (const Function &function : module.functions)
    for (const Instruction *instruction : test::instructionsOf(function))
      if (instruction->opcode == opcode)
        if (const SourceLocation *location = module.location(*instruction))
          lines.push_back(location->line);
  return lines;
}

TEST_P(SourceLocations, InstructionsCarryTheirSourceLine) {
  const LoadResult result = test::loadKernel(GetParam());
  ASSERT_TRUE(result.ok()) << result.log;
  const Module &module = *result.module;
  const uint32_t storeLine = test::markerLine("debug_lines.cl", "store-out");
  const uint32_t scaleLine = test::markerLine("debug_lines.cl", "scale-return");

  // out[i] = value;  is a store on its line, in the kernel's file.
  bool found = false;
  for (const Function &function : module.functions)
    for (const Instruction *instruction : test::instructionsOf(function))
      if (const SourceLocation *location = module.location(*instruction);
          location && instruction->opcode == spv::OpStore && location->line == storeLine) {
        found = true;
        EXPECT_TRUE(location->file.ends_with("debug_lines.cl")) << location->file;
        EXPECT_GT(location->column, 0u);
        EXPECT_EQ(location->text(), location->file + ":" + std::to_string(storeLine) + ":" +
                                        std::to_string(location->column));
      }
  EXPECT_TRUE(found) << "no OpStore at line " << storeLine;

  // x * factor in scale(), inlined or not.
  const std::vector<uint32_t> multiplications = linesOf(module, spv::OpFMul);
  EXPECT_NE(std::ranges::find(multiplications, scaleLine), multiplications.end());
}

TEST_P(SourceLocations, NormalisedWordsKeepOpLine) {
  const LoadResult result = test::loadKernel(GetParam());
  ASSERT_TRUE(result.ok()) << result.log;
  const std::vector<uint32_t> &words = result.module->words;
  size_t lines = 0;
  for (size_t offset = 5; offset < words.size(); offset += words[offset] >> spv::WordCountShift)
    lines += (words[offset] & spv::OpCodeMask) == spv::OpLine;
  EXPECT_GT(lines, 0u);
  EXPECT_EQ(test::spirvValError(words), "");
}

INSTANTIATE_TEST_SUITE_P(LlvmSpirv14, SourceLocations,
                         testing::Values("debug_lines-O0-g.spv", "debug_lines-O2-g.spv",
                                         "debug_lines-legacy.spv"));

TEST(SourceLocation, UnknownWithoutDebugInformation) {
  const LoadResult result = test::loadKernel("arguments-O2.spv");
  ASSERT_TRUE(result.ok()) << result.log;
  for (const Function &function : result.module->functions)
    for (const Instruction *instruction : test::instructionsOf(function))
      EXPECT_EQ(result.module->location(*instruction), nullptr);
  EXPECT_EQ(SourceLocation{}.text(), "");
}

} // namespace
} // namespace lanewise::spirv
