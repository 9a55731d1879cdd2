// SPDX-License-Identifier: Apache-2.0
// Kernel argument information of real llvm-spirv-14 output, against the
// OpenCL C declaration in kernels/arguments.cl:
//   kernel void arguments(global const float* restrict in, global volatile int* out,
//                         local float4* scratch, constant Pair* table, float scale,
//                         Pair pair, uchar3 small, global int* const fixed, ulong big)
#include <gtest/gtest.h>

#include "common.h"
#include "spirv/kernel_arguments.h"
#include "spirv/reader.h"

namespace lanewise::spirv {
namespace {

struct Expected {
  std::string name, typeName, qualifiers;
  AddressQualifier address;
  bool isPointer;
  uint64_t size;
};

const Expected kArguments[] = {
    {"in", "float*", "restrict const", AddressQualifier::Global, true, 8},
    {"out", "int*", "volatile", AddressQualifier::Global, true, 8},
    {"scratch", "float4*", "", AddressQualifier::Local, true, 8},
    {"table", "Pair*", "const", AddressQualifier::Constant, true, 8},
    {"scale", "float", "", AddressQualifier::Private, false, 4},
    {"pair", "Pair", "", AddressQualifier::Private, false, 8}, // { float x; int y; }
    {"small", "uchar3", "", AddressQualifier::Private, false, 4},
    {"fixed", "int*", "", AddressQualifier::Global, true, 8},
    {"big", "ulong", "", AddressQualifier::Private, false, 8},
};

std::vector<KernelArgument> argumentsOf(const LoadResult &result, const std::string &kernel) {
  const EntryPoint *entryPoint = result.module->entryPoint(kernel);
  if (!entryPoint)
    throw std::runtime_error("no kernel " + kernel);
  return kernelArguments(*result.module, *entryPoint);
}

TEST(KernelArguments, FromTheTranslatorsTypeStrings) {
  const LoadResult result = test::loadKernel("arguments-O2.spv");
  ASSERT_TRUE(result.ok()) << result.log;
  const std::vector<KernelArgument> arguments = argumentsOf(result, "arguments");
  ASSERT_EQ(arguments.size(), std::size(kArguments));
  for (size_t i = 0; i < arguments.size(); ++i) {
    SCOPED_TRACE("argument " + std::to_string(i));
    const Expected &expected = kArguments[i];
    const KernelArgument &argument = arguments[i];
    EXPECT_EQ(argument.name, expected.name);
    EXPECT_EQ(argument.typeName, expected.typeName);
    EXPECT_EQ(argument.typeQualifiers, expected.qualifiers);
    EXPECT_EQ(argument.addressQualifier, expected.address);
    EXPECT_EQ(argument.accessQualifier, AccessQualifier::None);
    EXPECT_EQ(argument.isPointer, expected.isPointer);
    EXPECT_EQ(argument.size, expected.size);
  }
  EXPECT_TRUE(arguments[0].isConst && arguments[0].isRestrict && !arguments[0].isVolatile);
  EXPECT_TRUE(arguments[1].isVolatile && !arguments[1].isConst && !arguments[1].isRestrict);
  EXPECT_TRUE(arguments[3].isConst);
  EXPECT_FALSE(arguments[7].isConst); // `int* const`: the pointer is const, not what it points to
  EXPECT_EQ(addressQualifierName(arguments[2].addressQualifier), "local");
  EXPECT_EQ(accessQualifierName(arguments[2].accessQualifier), "none");

  const std::vector<KernelArgument> subgroups = argumentsOf(result, "subgroups");
  ASSERT_EQ(subgroups.size(), 1u);
  EXPECT_EQ(subgroups[0].name, "out");
  EXPECT_EQ(subgroups[0].typeName, "uint*");
  EXPECT_EQ(subgroups[0].addressQualifier, AddressQualifier::Global);
}

TEST(KernelArguments, FromTypesAndDecorationsWithoutTypeStrings) {
  // Without the OpStrings only what SPIR-V keeps is known: integers are
  // signless and typedef names are gone (llvm-spirv-14 answers the same).
  const LoadResult result = test::loadKernel("arguments-no-strings.spv");
  ASSERT_TRUE(result.ok()) << result.log;
  for (const std::string &text : [&] {
         std::vector<std::string> all;
         for (const auto &[id, string] : result.module->strings)
           all.push_back(string);
         return all;
       }())
    ASSERT_EQ(text.find("kernel_arg_type"), std::string::npos);
  const std::vector<KernelArgument> arguments = argumentsOf(result, "arguments");
  ASSERT_EQ(arguments.size(), std::size(kArguments));
  for (size_t i = 0; i < arguments.size(); ++i) {
    SCOPED_TRACE("argument " + std::to_string(i));
    EXPECT_EQ(arguments[i].name, kArguments[i].name);
    EXPECT_EQ(arguments[i].addressQualifier, kArguments[i].address);
    EXPECT_EQ(arguments[i].size, kArguments[i].size);
  }
  EXPECT_EQ(arguments[0].typeName, "float*");
  EXPECT_TRUE(arguments[0].isRestrict); // FuncParamAttr NoAlias
  EXPECT_TRUE(arguments[1].isVolatile); // Volatile
  EXPECT_EQ(arguments[2].typeName, "float4*");
  EXPECT_EQ(arguments[3].typeName, "struct Pair*");
  EXPECT_EQ(arguments[4].typeName, "float");
  EXPECT_EQ(arguments[5].typeName, "struct Pair");
  EXPECT_EQ(arguments[8].typeName, "long");
}

TEST(KernelArguments, AccessQualifiersOfImages) {
  // kernel void blur(read_only image2d_t src, write_only image2d_t dst, sampler_t s)
  // Images do not build on Lanewise, but the reader still describes them.
  const Module module = readModule(test::kernelWords("image-O2.spv"));
  const EntryPoint *blur = module.entryPoint("blur");
  ASSERT_NE(blur, nullptr);
  const std::vector<KernelArgument> arguments = kernelArguments(module, *blur);
  ASSERT_EQ(arguments.size(), 3u);
  EXPECT_EQ(arguments[0].typeName, "image2d_t");
  EXPECT_EQ(arguments[0].accessQualifier, AccessQualifier::ReadOnly);
  EXPECT_EQ(arguments[0].addressQualifier, AddressQualifier::Global);
  EXPECT_EQ(arguments[1].accessQualifier, AccessQualifier::WriteOnly);
  EXPECT_EQ(accessQualifierName(arguments[1].accessQualifier), "write_only");
  EXPECT_EQ(arguments[2].typeName, "sampler_t");
  EXPECT_EQ(arguments[2].accessQualifier, AccessQualifier::None);
  EXPECT_EQ(openclTypeName(module, module.type(arguments[0].type)->id), "image2d_t");
}

} // namespace
} // namespace lanewise::spirv
