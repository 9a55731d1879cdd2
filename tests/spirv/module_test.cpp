// SPDX-License-Identifier: Apache-2.0
// The tables of the IR: types and their OpenCL layout, constants,
// decorations, names, entry points and execution modes. Expected values come
// from the OpenCL C and assembly sources in kernels/.
#include <bit>

#include <gtest/gtest.h>

#include "common.h"
#include "spirv/lower.h"

namespace lanewise::spirv {
namespace {

using test::loadKernel;

uint32_t idNamed(const Module &module, const std::string &name) {
  for (const auto &[id, text] : module.names)
    if (text == name)
      return id;
  ADD_FAILURE() << "no OpName \"" << name << "\"";
  return 0;
}

class LayoutKernel : public testing::Test {
protected:
  void SetUp() override {
    result_ = loadKernel("layout-O2.spv");
    ASSERT_TRUE(result_.ok()) << result_.log;
  }
  const Module &module() const { return *result_.module; }
  LoadResult result_;
};

TEST_F(LayoutKernel, StructLayoutFollowsOpenCLC) {
  // typedef struct { char c; double d; float3 v; short s; } Mixed;
  const uint32_t mixed = idNamed(module(), "struct.Mixed");
  ASSERT_EQ(module().type(mixed)->kind, Type::Kind::Struct);
  EXPECT_EQ(sizeOf(module(), mixed), 48u);
  EXPECT_EQ(alignmentOf(module(), mixed), 16u);
  // clang may add a padding member after `s`: the four declared members come first.
  const std::vector<uint64_t> offsets = memberOffsets(module(), mixed);
  ASSERT_GE(offsets.size(), 4u);
  EXPECT_EQ(std::vector<uint64_t>(offsets.begin(), offsets.begin() + 4),
            (std::vector<uint64_t>{0, 8, 16, 32}));
  const Type &type = *module().type(mixed);
  ASSERT_GE(type.members.size(), 4u);
  const Type *vector = module().type(type.members[2]);
  ASSERT_EQ(vector->kind, Type::Kind::Vector);
  EXPECT_EQ(vector->count, 3u);
  EXPECT_EQ(componentCount(module(), type.members[2]), 3u);
  EXPECT_EQ(sizeOf(module(), type.members[2]), 16u); // float3 takes the room of a float4
  EXPECT_EQ(module().type(type.members[1])->kind, Type::Kind::Float);
  EXPECT_EQ(module().type(type.members[1])->width, 64u);
}

TEST_F(LayoutKernel, PackedStructHasNoPadding) {
  // typedef struct __attribute__((packed)) { char c; int i; short s; } Packed;
  const uint32_t packed = idNamed(module(), "struct.Packed");
  EXPECT_TRUE(module().hasDecoration(packed, spv::DecorationCPacked));
  EXPECT_EQ(sizeOf(module(), packed), 7u);
  EXPECT_EQ(alignmentOf(module(), packed), 1u);
  EXPECT_EQ(memberOffsets(module(), packed), (std::vector<uint64_t>{0, 1, 5}));
}

TEST_F(LayoutKernel, ConstantArrayAndItsInitializer) {
  // constant float coefficients[5] = {0.5f, 1.5f, -2.0f, 4.0f, 8.25f};
  const GlobalVariable *coefficients = module().globalVariable(idNamed(module(), "coefficients"));
  ASSERT_NE(coefficients, nullptr);
  EXPECT_EQ(coefficients->storageClass, spv::StorageClassUniformConstant);
  const Type *pointer = module().type(coefficients->pointerType);
  ASSERT_EQ(pointer->kind, Type::Kind::Pointer);
  const Type *array = module().type(pointer->element);
  ASSERT_EQ(array->kind, Type::Kind::Array);
  EXPECT_EQ(array->count, 5u);
  EXPECT_EQ(sizeOf(module(), pointer->element), 20u);
  EXPECT_EQ(sizeOf(module(), coefficients->pointerType), 8u);

  const Constant *initializer = module().constant(coefficients->initializer);
  ASSERT_NE(initializer, nullptr);
  ASSERT_EQ(initializer->kind, Constant::Kind::Composite);
  const float expected[] = {0.5f, 1.5f, -2.0f, 4.0f, 8.25f};
  ASSERT_EQ(initializer->constituents.size(), 5u);
  for (size_t i = 0; i < 5; ++i)
    EXPECT_EQ(module().constant(initializer->constituents[i])->bits,
              std::bit_cast<uint32_t>(expected[i]))
        << "element " << i;
}

TEST_F(LayoutKernel, ModuleHeaderAndModels) {
  EXPECT_EQ(module().addressingModel, spv::AddressingModelPhysical64);
  EXPECT_EQ(module().memoryModel, spv::MemoryModelOpenCL);
  EXPECT_GE(module().version, 0x00010000u);
  EXPECT_LE(module().version, 0x00010400u);
  EXPECT_GT(module().bound, 1u);
  ASSERT_FALSE(module().sources.empty());
  EXPECT_EQ(module().sources[0].language, spv::SourceLanguageOpenCL_C);
  EXPECT_EQ(module().sources[0].version, 200000u); // -cl-std=CL2.0
  EXPECT_EQ(module().extInstImports.begin()->second, "OpenCL.std");
}

TEST(Module, EntryPointsAndExecutionModes_ArgumentsO2) {
  const LoadResult result = loadKernel("arguments-O2.spv");
  ASSERT_TRUE(result.ok()) << result.log;
  const Module &module = *result.module;
  const EntryPoint *arguments = module.entryPoint("arguments");
  const EntryPoint *subgroups = module.entryPoint("subgroups");
  ASSERT_TRUE(arguments && subgroups);
  EXPECT_EQ(arguments->model, spv::ExecutionModelKernel);
  ASSERT_NE(module.function(arguments->function), nullptr);
  // reqd_work_group_size(8, 4, 1), vec_type_hint(float4)
  EXPECT_EQ(arguments->localSize, (std::array<uint32_t, 3>{8, 4, 1}));
  EXPECT_EQ(arguments->vecTypeHint, (4u << 16) | 5u);
  EXPECT_FALSE(arguments->subgroupSize.has_value());
  // intel_reqd_sub_group_size(16), work_group_size_hint(64, 1, 1)
  EXPECT_EQ(subgroups->subgroupSize, 16u);
  EXPECT_EQ(subgroups->localSizeHint, (std::array<uint32_t, 3>{64, 1, 1}));
  EXPECT_FALSE(subgroups->localSize.has_value());
  bool hasSubgroupSizeMode = false;
  for (const ExecutionModeInfo &mode : subgroups->modes)
    hasSubgroupSizeMode = hasSubgroupSizeMode || (mode.mode == spv::ExecutionModeSubgroupSize &&
                                                  mode.operands == std::vector<uint32_t>{16});
  EXPECT_TRUE(hasSubgroupSizeMode);
}

class ModuleTables : public testing::Test {
protected:
  void SetUp() override {
    result_ = loadKernel("module_tables.spv");
    ASSERT_TRUE(result_.ok()) << result_.log;
  }
  const Module &module() const { return *result_.module; }
  const Constant &constant(const std::string &name) const {
    const Constant *found = module().constant(idNamed(module(), name));
    if (!found)
      throw std::runtime_error("no constant " + name);
    return *found;
  }
  LoadResult result_;
};

TEST_F(ModuleTables, ScalarConstants) {
  EXPECT_EQ(constant("uint_max").bits, 0xffffffffu);
  EXPECT_EQ(constant("ulong_big").bits, 4886718345u);
  EXPECT_EQ(constant("uchar_200").bits, 200u);
  EXPECT_EQ(constant("float_1_5").bits, std::bit_cast<uint32_t>(1.5f));
  EXPECT_FALSE(constant("uint_max").isSpec);
  EXPECT_EQ(constant("composite").kind, Constant::Kind::Composite);
  EXPECT_EQ(constant("composite").constituents.size(), 3u);
  EXPECT_EQ(constant("null").kind, Constant::Kind::Null);
  EXPECT_EQ(constant("undef").kind, Constant::Kind::Undef);
}

TEST_F(ModuleTables, SpecConstants) {
  const Constant &spec = constant("spec");
  EXPECT_TRUE(spec.isSpec);
  EXPECT_EQ(spec.specId, 7u);
  EXPECT_EQ(spec.bits, 42u);
  const Constant &specTrue = constant("specTrue");
  EXPECT_EQ(specTrue.kind, Constant::Kind::Bool);
  EXPECT_EQ(specTrue.specId, 8u);
  EXPECT_EQ(specTrue.bits, 1u);
  const Constant &operation = constant("specOp");
  EXPECT_EQ(operation.kind, Constant::Kind::SpecConstantOp);
  EXPECT_EQ(operation.specOpcode, spv::OpIAdd);
  ASSERT_EQ(operation.specOperands.size(), 2u);
  EXPECT_EQ(operation.specOperands[0], spec.id);
  EXPECT_EQ(module().constantValue(operation.specOperands[1]), 3u);
  EXPECT_FALSE(operation.specId.has_value());
}

TEST_F(ModuleTables, DecorationGroupsAreResolved) {
  const uint32_t global = idNamed(module(), "global");
  const uint32_t parameter = idNamed(module(), "destination");
  for (uint32_t id : {global, parameter}) {
    const Decoration *alignment = module().decoration(id, spv::DecorationAlignment);
    ASSERT_NE(alignment, nullptr);
    EXPECT_EQ(alignment->operands, std::vector<uint32_t>{16});
    EXPECT_TRUE(module().hasDecoration(id, spv::DecorationVolatile));
  }
  EXPECT_FALSE(module().hasDecoration(idNamed(module(), "spec"), spv::DecorationVolatile));
}

TEST_F(ModuleTables, MemberNamesAndDecorations) {
  const uint32_t members = idNamed(module(), "Members");
  EXPECT_EQ(module().memberNames.at({members, 0}), "first");
  EXPECT_EQ(module().memberNames.at({members, 1}), "second");
  const auto &decorations = module().memberDecorations.at(members);
  ASSERT_EQ(decorations.size(), 2u);
  EXPECT_EQ(decorations[0].member, 0u);
  EXPECT_EQ(decorations[0].kind, spv::DecorationVolatile);
  EXPECT_EQ(decorations[1].member, 1u);
  EXPECT_EQ(decorations[1].kind, spv::DecorationCoherent);
  EXPECT_EQ(sizeOf(module(), members), 8u);
}

TEST_F(ModuleTables, TypesVariablesAndModes) {
  const uint32_t array = idNamed(module(), "uchar_arr3");
  ASSERT_EQ(module().type(array)->kind, Type::Kind::Array);
  EXPECT_EQ(module().type(array)->count, 3u);
  EXPECT_EQ(sizeOf(module(), array), 3u);
  EXPECT_EQ(alignmentOf(module(), array), 1u);

  const GlobalVariable *global = module().globalVariable(idNamed(module(), "global"));
  ASSERT_NE(global, nullptr);
  EXPECT_EQ(global->storageClass, spv::StorageClassCrossWorkgroup);
  EXPECT_EQ(module().constantValue(global->initializer), 3u);

  EXPECT_EQ(module().version, 0x00010400u);
  const EntryPoint *entry = module().entryPoint("tables");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->localSize, (std::array<uint32_t, 3>{16, 2, 1}));
  EXPECT_EQ(entry->localSizeHint, (std::array<uint32_t, 3>{3, 3, 1})); // LocalSizeHintId
  EXPECT_TRUE(entry->contractionOff);
  EXPECT_EQ(entry->interface, std::vector<uint32_t>{global->id});
  const std::vector<spv::Capability> capabilities{spv::CapabilityAddresses, spv::CapabilityKernel,
                                                  spv::CapabilityInt64, spv::CapabilityInt8};
  EXPECT_EQ(module().capabilities, capabilities);
}

TEST_F(ModuleTables, Functions) {
  const Function *function = module().function(idNamed(module(), "tables"));
  ASSERT_NE(function, nullptr);
  ASSERT_EQ(function->parameters.size(), 1u);
  EXPECT_EQ(function->parameters[0].first, idNamed(module(), "destination"));
  EXPECT_EQ(module().type(function->functionType)->kind, Type::Kind::Function);
  ASSERT_EQ(function->blocks.size(), 1u);
  const auto &instructions = function->blocks[0].instructions;
  ASSERT_EQ(instructions.size(), 3u);
  EXPECT_EQ(instructions[0].opcode, spv::OpIAdd);
  EXPECT_EQ(instructions[0].operands,
            (std::vector<uint32_t>{idNamed(module(), "specOp"), idNamed(module(), "undef")}));
  EXPECT_TRUE(instructions[0].isIdOperand(0));
  EXPECT_EQ(instructions[2].opcode, spv::OpReturn);
  // The written words place each instruction where its wordOffset says.
  for (const Instruction &instruction : instructions)
    EXPECT_EQ(module().words.at(instruction.wordOffset) & spv::OpCodeMask,
              uint32_t(instruction.opcode));
}

} // namespace
} // namespace lanewise::spirv

namespace lanewise::spirv {
namespace {

// The warps of a work-group keep their register files one after another;
// each must keep the next one's registers aligned for 8-, 16- and 64-byte
// elements, whatever the kernel's last uniform register (a 4-byte one made
// the second warp's 8-byte registers misaligned).
TEST(Lowering, RegisterFileIsAWholeNumberOf64ByteUnits) {
  for (const char *file : {"nbody-O2.spv", "arguments-O2.spv", "control_flow-O1.spv"}) {
    const LoadResult loaded = test::loadKernel(file);
    ASSERT_TRUE(loaded.ok()) << loaded.log;
    for (const EntryPoint &entryPoint : loaded.module->entryPoints)
      for (uint32_t width : {16u, 128u}) {
        LowerOptions options;
        options.width = width;
        const runtime::KernelCode code = lowerKernel(*loaded.module, entryPoint, {}, options);
        EXPECT_EQ(code.registerBytes % 64, 0u) << file << " '" << entryPoint.name << "'";
      }
  }
}

} // namespace
} // namespace lanewise::spirv
