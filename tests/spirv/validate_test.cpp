// SPDX-License-Identifier: Apache-2.0
// What is truly invalid or unsupported is rejected, with a message that
// names the problem and the instruction.
#include <gtest/gtest.h>

#include "common.h"
#include "spirv/names.h"
#include "spirv/support.h"

namespace lanewise::spirv {
namespace {

using test::loadKernel;

void expectInvalid(const LoadResult &result, const std::vector<std::string> &texts) {
  ASSERT_FALSE(result.ok());
  ASSERT_TRUE(result.error.has_value());
  EXPECT_EQ(*result.error, LoadErrorKind::Invalid);
  for (const std::string &text : texts)
    EXPECT_NE(result.log.find(text), std::string::npos) << "expected '" << text << "' in\n"
                                                        << result.log;
}

TEST(Validate, RejectsAUseWithoutDefinition) {
  expectInvalid(loadKernel("undefined_id.spv"),
                {"SPIR-V validation failed: ID '", "has not been defined", "at OpIAdd %"});
}

TEST(Validate, RejectsATypeMismatch) {
  expectInvalid(loadKernel("type_mismatch.spv"),
                {"Expected int scalar or vector type as operand", "at OpIAdd %"});
}

TEST(Validate, RejectsAShaderModule) {
  expectInvalid(loadKernel("shader.spv"),
                {"unsupported capability Shader (OpCapability at word 5)",
                 "unsupported execution model GLCompute for entry point 'main'"});
}

TEST(Validate, AcceptsImagesAndSamplers) {
  const LoadResult result = loadKernel("image-O2.spv");
  EXPECT_TRUE(result.ok()) << result.log;
}

TEST(Validate, AcceptsSamplerLiterals) {
  const LoadResult result = loadKernel("literal_sampler-O2.spv");
  EXPECT_TRUE(result.ok()) << result.log;
}

TEST(Validate, AcceptsArbitraryPrecisionIntegers_NarrowSwitchO2) {
  // clang -O2 switches on an i2 here, which llvm-spirv-14 --spirv-ext=+all
  // writes with SPV_INTEL_arbitrary_precision_integers; the lowering keeps
  // such integers in the next standard width.
  const LoadResult result = loadKernel("narrow_switch-O2.spv");
  EXPECT_TRUE(result.ok()) << result.log;
}

TEST(Validate, RejectsPhysical32) {
  expectInvalid(loadKernel("physical32.spv"),
                {"OpMemoryModel (word ",
                 "expected addressing model Physical64 (Lanewise devices are 64-bit), found "
                 "Physical32"});
}

TEST(Validate, RejectsAnUnresolvedImportInAnExecutable) {
  expectInvalid(loadKernel("unresolved_import.spv"),
                {"'external_helper' is imported (LinkageAttributes Import) and not defined"});
}

TEST(Validate, AcceptsAnUnresolvedImportInALibrary) {
  const LoadResult result = loadKernel("unresolved_import.spv", {.library = true});
  EXPECT_TRUE(result.ok()) << result.log;
}

TEST(Validate, AcceptsWhatLlvmSpirvWritesForSupportedFeatures) {
  // Sub-group sizes (SubgroupDispatch), Int8, Int64, Linkage of built-ins.
  const LoadResult result = loadKernel("arguments-O2.spv");
  EXPECT_TRUE(result.ok()) << result.log;
}

TEST(Support, EveryCapabilityOfTheTableHasItsSpecName) {
  for (spv::Capability capability : supportedCapabilities())
    EXPECT_EQ(capabilityName(capability).find("Capability("), std::string::npos);
  EXPECT_EQ(capabilityName(spv::CapabilityGroupNonUniformShuffle), "GroupNonUniformShuffle");
  EXPECT_TRUE(isSupported(spv::CapabilityKernel));
  EXPECT_FALSE(isSupported(spv::CapabilityPipes));
  EXPECT_FALSE(isSupported(spv::CapabilityDeviceEnqueue));
}

} // namespace
} // namespace lanewise::spirv
