// SPDX-License-Identifier: Apache-2.0
// Each llvm-spirv-14 defect, reproduced from real OpenCL C: the module as the
// translator wrote it fails spirv-val; after normalisation it builds and
// keeps its meaning.
#include <algorithm>
#include <map>

#include <gtest/gtest.h>

#include "common.h"
#include "spirv/reader.h"

namespace lanewise::spirv {
namespace {

using test::kernelWords;
using test::loadKernel;
using test::spirvValError;

bool hasNote(const LoadResult &result, Normalisation kind) {
  return std::ranges::any_of(result.notes,
                             [&](const NormalisationNote &note) { return note.kind == kind; });
}

uint32_t idNamed(const Module &module, const std::string &name) {
  for (const auto &[id, text] : module.names)
    if (text == name)
      return id;
  return 0;
}

size_t countOpcode(const Module &module, spv::Op opcode) {
  size_t count = 0;
  for (const Function &function : module.functions)
    for (const Instruction *instruction : test::instructionsOf(function))
      count += instruction->opcode == opcode;
  return count;
}

// Block label -> opcodes of its instructions.
std::map<uint32_t, std::vector<spv::Op>> blockContents(const Function &function) {
  std::map<uint32_t, std::vector<spv::Op>> contents;
  for (const Block &block : function.blocks)
    for (const Instruction &instruction : block.instructions)
      contents[block.label].push_back(instruction.opcode);
  return contents;
}

TEST(Normalise, ReordersBlocksIntoDominanceOrder_NBodyO2) {
  const std::vector<uint32_t> words = kernelWords("nbody-O2.spv");
  EXPECT_NE(spirvValError(words).find("has not been defined"), std::string::npos)
      << "the translator's output is expected to be invalid as it is";
  const Module original = readModule(words);
  const LoadResult result = loadKernel("nbody-O2.spv");
  ASSERT_TRUE(result.ok()) << result.log;
  EXPECT_TRUE(hasNote(result, Normalisation::ReorderBlocks));

  const Module &module = *result.module;
  const uint32_t nbody = idNamed(module, "nbody");
  ASSERT_NE(nbody, 0u);
  const Function *before = original.function(nbody);
  const Function *after = module.function(nbody);
  ASSERT_TRUE(before && after);
  // Every block is kept with its instructions, the entry stays first, and
  // definitions now come before their uses.
  EXPECT_EQ(blockContents(*before), blockContents(*after));
  EXPECT_EQ(before->blocks.front().label, after->blocks.front().label);
  EXPECT_FALSE(test::definitionsPrecedeUses(original, *before));
  for (const Function &function : module.functions)
    EXPECT_TRUE(test::definitionsPrecedeUses(module, function)) << "function %" << function.id;
  EXPECT_EQ(spirvValError(module.words), "");
}

TEST(Normalise, KeepsUnreachableBlocksLast) {
  const Module original = readModule(kernelWords("block_order.spv"));
  const LoadResult result = loadKernel("block_order.spv");
  ASSERT_TRUE(result.ok()) << result.log;
  const Function &function = result.module->functions.at(0);
  const Function &input = original.functions.at(0);
  ASSERT_EQ(input.blocks.size(), 4u);
  // Written order: entry, use, dead, define. Dominance order: entry, define,
  // use; the unreachable block `dead` last.
  std::vector<uint32_t> labels;
  for (const Block &block : function.blocks)
    labels.push_back(block.label);
  EXPECT_EQ(labels, (std::vector<uint32_t>{input.blocks[0].label, input.blocks[3].label,
                                           input.blocks[1].label, input.blocks[2].label}));
}

TEST(Normalise, DropsMergeDeclarations_ControlFlowO1) {
  const std::vector<uint32_t> words = kernelWords("control_flow-O1.spv");
  EXPECT_NE(spirvValError(words).find("is already a merge block for another header"),
            std::string::npos);
  const Module original = readModule(words);
  const size_t merges =
      countOpcode(original, spv::OpLoopMerge) + countOpcode(original, spv::OpSelectionMerge);
  EXPECT_GT(merges, 0u);

  const LoadResult result = loadKernel("control_flow-O1.spv");
  ASSERT_TRUE(result.ok()) << result.log;
  EXPECT_TRUE(hasNote(result, Normalisation::DropMergeDeclarations));
  const Module &module = *result.module;
  EXPECT_EQ(countOpcode(module, spv::OpLoopMerge), 0u);
  EXPECT_EQ(countOpcode(module, spv::OpSelectionMerge), 0u);
  // Nothing else is removed: every branch and block stays.
  size_t before = 0, after = 0;
  for (const Function &function : original.functions)
    before += test::instructionsOf(function).size();
  for (const Function &function : module.functions)
    after += test::instructionsOf(function).size();
  EXPECT_EQ(after, before - merges);
  EXPECT_EQ(countOpcode(module, spv::OpBranchConditional),
            countOpcode(original, spv::OpBranchConditional));
}

TEST(Normalise, HoistsPrivateArrayVariables_PrivateArrayO2) {
  const std::vector<uint32_t> words = kernelWords("private_array-O2.spv");
  EXPECT_NE(
      spirvValError(words).find("All OpVariable instructions in a function must be the first"),
      std::string::npos);
  const LoadResult result = loadKernel("private_array-O2.spv");
  ASSERT_TRUE(result.ok()) << result.log;
  EXPECT_TRUE(hasNote(result, Normalisation::HoistVariables));

  const Module &module = *result.module;
  const uint32_t storage = idNamed(module, "sPrivateStorage");
  ASSERT_NE(storage, 0u);
  const Function *kernel = module.function(idNamed(module, "private_array"));
  ASSERT_NE(kernel, nullptr);
  const auto &entry = kernel->blocks.front().instructions;
  ASSERT_FALSE(entry.empty());
  EXPECT_EQ(entry.front().opcode, spv::OpVariable);
  EXPECT_EQ(entry.front().result, storage);
  EXPECT_EQ(countOpcode(module, spv::OpVariable), countOpcode(readModule(words), spv::OpVariable));
}

TEST(Normalise, HoistedVariablesKeepTheirInitializers) {
  const std::vector<uint32_t> words = kernelWords("hoist_initializer.spv");
  EXPECT_NE(spirvValError(words).find("All OpVariable instructions"), std::string::npos);
  const LoadResult result = loadKernel("hoist_initializer.spv");
  ASSERT_TRUE(result.ok()) << result.log;
  const Module &module = *result.module;
  const Function &function = module.functions.at(0);
  const auto &entry = function.blocks.at(0).instructions;
  ASSERT_GE(entry.size(), 3u);
  const uint32_t early = idNamed(module, "early"), late = idNamed(module, "late"),
                 looped = idNamed(module, "looped");
  auto initializerValue = [&](const Instruction &variable) -> std::optional<uint64_t> {
    if (variable.operands.size() < 2)
      return std::nullopt;
    return module.constantValue(variable.operands[1]);
  };
  EXPECT_EQ(entry[0].result, early);
  EXPECT_EQ(initializerValue(entry[0]), 5u);
  EXPECT_EQ(entry[1].result, late);
  EXPECT_EQ(initializerValue(entry[1]), 7u);
  EXPECT_EQ(entry[2].result, looped);
  EXPECT_EQ(initializerValue(entry[2]), std::nullopt);
  // `looped` was initialized each time its block ran: that is now a store.
  const Block &body = function.blocks.at(1);
  ASSERT_FALSE(body.instructions.empty());
  const Instruction &store = body.instructions.front();
  EXPECT_EQ(store.opcode, spv::OpStore);
  EXPECT_EQ(store.operands.at(0), looped);
  EXPECT_EQ(module.constantValue(store.operands.at(1)), 9u);
}

TEST(Normalise, CompletesInterfaceLists_PointerTableO2) {
  const std::vector<uint32_t> words = kernelWords("pointer_table-O2.spv");
  EXPECT_NE(spirvValError(words).find("is not listed as an interface"), std::string::npos);
  const LoadResult result = loadKernel("pointer_table-O2.spv");
  ASSERT_TRUE(result.ok()) << result.log;
  EXPECT_TRUE(hasNote(result, Normalisation::CompleteInterfaces));
  const Module &module = *result.module;
  const uint32_t first = idNamed(module, "first"), second = idNamed(module, "second");
  ASSERT_NE(first, 0u);
  ASSERT_NE(second, 0u);
  const EntryPoint *table = module.entryPoint("pointer_table");
  const EntryPoint *plain = module.entryPoint("no_table");
  ASSERT_TRUE(table && plain);
  auto lists = [](const EntryPoint &entryPoint, uint32_t id) {
    return std::ranges::count(entryPoint.interface, id);
  };
  EXPECT_EQ(lists(*table, first), 1);
  EXPECT_EQ(lists(*table, second), 1);
  EXPECT_EQ(lists(*plain, first), 0);
  EXPECT_EQ(lists(*plain, second), 0);
}

TEST(Normalise, MakesWeakCompareExchangeStrongInSpirv14_CompareExchangeWeakO2) {
  const std::vector<uint32_t> words = kernelWords("compare_exchange_weak-O2.spv");
  EXPECT_NE(spirvValError(words).find("AtomicCompareExchangeWeak requires SPIR-V version 1.3"),
            std::string::npos)
      << "the translator's output is expected to be invalid as it is";
  const LoadResult result = loadKernel("compare_exchange_weak-O2.spv");
  ASSERT_TRUE(result.ok()) << result.log;
  EXPECT_TRUE(hasNote(result, Normalisation::StrongCompareExchange));
  EXPECT_EQ(countOpcode(*result.module, spv::OpAtomicCompareExchangeWeak), 0u);
  EXPECT_EQ(countOpcode(*result.module, spv::OpAtomicCompareExchange), 1u);
}

struct DebugInfoCase {
  std::string kernel;
  std::string translatorError; // what spirv-val says of the translator's output
};

class DebugInfo : public testing::TestWithParam<DebugInfoCase> {};

TEST_P(DebugInfo, StripsDebugInstructionsThatFailValidation) {
  const std::vector<uint32_t> words = kernelWords(GetParam().kernel);
  EXPECT_NE(spirvValError(words).find(GetParam().translatorError), std::string::npos)
      << spirvValError(words);
  const LoadResult result = loadKernel(GetParam().kernel);
  ASSERT_TRUE(result.ok()) << result.log;
  EXPECT_TRUE(hasNote(result, Normalisation::StripDebugInfo));
  const Module &module = *result.module;
  for (const auto &[id, name] : module.extInstImports)
    EXPECT_EQ(name, "OpenCL.std");
  for (const Instruction &instruction : module.globals)
    EXPECT_NE(instruction.opcode, spv::OpExtInst);
  // Only OpenCL.std instructions are left in the functions.
  for (const Function &function : module.functions) {
    for (const Instruction *instruction : test::instructionsOf(function)) {
      if (instruction->opcode == spv::OpExtInst) {
        EXPECT_EQ(module.extInstImports.at(instruction->operands.at(0)), "OpenCL.std");
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    LlvmSpirv14, DebugInfo,
    testing::Values(
        // A DebugTypePointer to a typedef, a DebugSource whose Text is DebugInfoNone.
        DebugInfoCase{"debug_lines-O0-g.spv", "OpenCL.DebugInfo.100 DebugTypePointer"},
        // DWARF operations outside the set (needs --spirv-allow-extra-diexpressions).
        DebugInfoCase{"debug_lines-O2-g.spv", "Invalid OpenCL.DebugInfo.100 debug operation"},
        // --spirv-debug-info-version=legacy
        DebugInfoCase{"debug_lines-legacy.spv",
                      "Invalid extended instruction import 'SPIRV.debug'"}),
    [](const testing::TestParamInfo<DebugInfoCase> &info) {
      std::string name = info.param.kernel.substr(0, info.param.kernel.find('.'));
      std::replace(name.begin(), name.end(), '-', '_');
      return name;
    });

TEST(Normalise, StripsNonSemanticInstructions) {
  const LoadResult result = loadKernel("nonsemantic.spv");
  ASSERT_TRUE(result.ok()) << result.log;
  EXPECT_EQ(countOpcode(*result.module, spv::OpExtInst), 0u);
  EXPECT_TRUE(result.module->extInstImports.empty());
  EXPECT_EQ(result.module->functions.at(0).blocks.at(0).instructions.front().opcode, spv::OpStore);
}

TEST(Normalise, LeavesAValidModuleAsItIs) {
  const LoadResult result = loadKernel("arguments-O2.spv");
  ASSERT_TRUE(result.ok()) << result.log;
  EXPECT_TRUE(result.notes.empty());
  EXPECT_EQ(result.module->words, kernelWords("arguments-O2.spv"));
}

TEST(Normalise, KeepsOnePhiEntryPerParentBlock_SwitchSharedTargetO2) {
  const std::vector<uint32_t> words = kernelWords("switch_shared_target-O2.spv");
  EXPECT_NE(spirvValError(words).find("OpPhi's number of incoming blocks"), std::string::npos)
      << "the translator's output is expected to be invalid as it is";
  const LoadResult result = loadKernel("switch_shared_target-O2.spv");
  ASSERT_TRUE(result.ok()) << result.log;
  EXPECT_TRUE(hasNote(result, Normalisation::MergePhiEdges));
  size_t phis = 0;
  for (const Function &function : result.module->functions)
    for (const Instruction *instruction : test::instructionsOf(function)) {
      if (instruction->opcode != spv::OpPhi)
        continue;
      ++phis;
      std::vector<uint32_t> parents;
      for (size_t i = 1; i < instruction->operands.size(); i += 2)
        parents.push_back(instruction->operands[i]);
      std::ranges::sort(parents);
      EXPECT_EQ(std::ranges::adjacent_find(parents), parents.end())
          << "a parent block is listed twice";
      // Four parents: the switch's block (cases 1, 2 and 7), case 3's,
      // cases 4 and 9's, and the default's.
      EXPECT_EQ(parents.size(), 4u);
    }
  EXPECT_EQ(phis, 1u);
}

TEST(Normalise, DeclaresTheExtensionOfADeclaredCapability_UnsafeMathO2) {
  const std::vector<uint32_t> words = kernelWords("unsafe_math-O2.spv");
  EXPECT_NE(spirvValError(words).find("SPV_INTEL_fp_fast_math_mode"), std::string::npos)
      << "the translator's output is expected to be invalid as it is";
  const LoadResult result = loadKernel("unsafe_math-O2.spv");
  ASSERT_TRUE(result.ok()) << result.log;
  EXPECT_TRUE(hasNote(result, Normalisation::DeclareExtensions));
  EXPECT_EQ(std::ranges::count(result.module->extensions, "SPV_INTEL_fp_fast_math_mode"), 1);
  EXPECT_EQ(std::ranges::count(result.module->capabilities, spv::CapabilityFPFastMathModeINTEL),
            1);
}

TEST(Normalise, MakesModuleScopeFunctionVariablesLocal_PrivateAggregate) {
  for (const char *name : {"private_aggregate-O0.spv", "private_aggregate-O2.spv"}) {
    SCOPED_TRACE(name);
    const std::vector<uint32_t> words = kernelWords(name);
    EXPECT_NE(spirvValError(words).find("can not have a function[7] storage class outside of a function"),
              std::string::npos)
        << "the translator's output is expected to be invalid as it is";
    const LoadResult result = loadKernel(name);
    ASSERT_TRUE(result.ok()) << result.log;
    EXPECT_TRUE(hasNote(result, Normalisation::LocaliseFunctionVariables));
    for (const Instruction &instruction : result.module->globals) {
      if (instruction.opcode == spv::OpVariable) {
        EXPECT_NE(instruction.operands.at(0), uint32_t(spv::StorageClassFunction));
      }
    }
  }
}

} // namespace
} // namespace lanewise::spirv
