// SPDX-License-Identifier: Apache-2.0
// Streams that are not well-formed SPIR-V: each error kind, with its message.
#include <cstring>

#include <gtest/gtest.h>

#include "common.h"
#include "spirv/reader.h"

namespace lanewise::spirv {
namespace {

using test::kernelWords;

std::vector<std::byte> toBytes(const std::vector<uint32_t> &words) {
  std::vector<std::byte> bytes(words.size() * 4);
  std::memcpy(bytes.data(), words.data(), bytes.size());
  return bytes;
}

LoadResult load(const std::vector<uint32_t> &words) { return loadModule(toBytes(words)); }

void expectError(const LoadResult &result, LoadErrorKind kind, const std::string &text) {
  ASSERT_FALSE(result.ok());
  ASSERT_TRUE(result.error.has_value());
  EXPECT_EQ(*result.error, kind) << result.log;
  EXPECT_NE(result.log.find(text), std::string::npos) << "log: " << result.log;
}

// The word offset of the first instruction with this opcode.
uint32_t offsetOf(const std::vector<uint32_t> &words, spv::Op opcode) {
  for (size_t offset = 5; offset < words.size();) {
    if ((words[offset] & spv::OpCodeMask) == opcode)
      return static_cast<uint32_t>(offset);
    offset += words[offset] >> spv::WordCountShift;
  }
  return 0;
}

TEST(Reader, AcceptsAWellFormedModule) {
  const LoadResult result = load(kernelWords("block_order.spv"));
  ASSERT_TRUE(result.ok()) << result.log;
  ASSERT_EQ(result.module->entryPoints.size(), 1u);
  EXPECT_EQ(result.module->entryPoints[0].name, "block_order");
}

TEST(Reader, RejectsAByteCountThatIsNotWholeWords) {
  std::vector<std::byte> bytes = toBytes(kernelWords("block_order.spv"));
  bytes.pop_back();
  expectError(loadModule(bytes), LoadErrorKind::Malformed, "not a whole number of 32-bit words");
}

TEST(Reader, RejectsAnEmptyBinary) {
  expectError(loadModule(std::span<const std::byte>()), LoadErrorKind::Malformed,
              "the binary is empty");
}

TEST(Reader, RejectsAWrongMagicNumber) {
  std::vector<uint32_t> words = kernelWords("block_order.spv");
  words[0] = 0xdeadbeef;
  expectError(load(words), LoadErrorKind::Malformed,
              "the first word is 0xdeadbeef, expected the magic number 0x7230203");
}

TEST(Reader, AcceptsAByteSwappedBinary) {
  std::vector<uint32_t> words = kernelWords("block_order.spv");
  for (uint32_t &word : words)
    word = __builtin_bswap32(word);
  ASSERT_EQ(words[0], 0x03022307u);
  const LoadResult result = load(words);
  ASSERT_TRUE(result.ok()) << result.log;
  EXPECT_EQ(result.module->entryPoints.at(0).name, "block_order");
  // The normalised words are in native order.
  EXPECT_EQ(result.module->words.at(0), uint32_t(spv::MagicNumber));
}

TEST(Reader, RejectsAStreamShorterThanTheHeader) {
  std::vector<uint32_t> words = kernelWords("block_order.spv");
  words.resize(3);
  expectError(load(words), LoadErrorKind::Malformed, "fewer than the 5 words of a SPIR-V header");
}

TEST(Reader, RejectsAStreamCutInsideAnInstruction) {
  std::vector<uint32_t> words = kernelWords("block_order.spv");
  const uint32_t store = offsetOf(words, spv::OpStore);
  ASSERT_NE(store, 0u);
  words.resize(store + 2); // OpStore has three words
  expectError(load(words), LoadErrorKind::Malformed,
              "OpStore at word " + std::to_string(store) +
                  " has 3 words, running past the end of the " + std::to_string(store + 2) +
                  "-word binary");
}

TEST(Reader, RejectsAWordCountOfZero) {
  std::vector<uint32_t> words = kernelWords("block_order.spv");
  words[5] &= spv::OpCodeMask; // the first instruction, OpCapability
  expectError(load(words), LoadErrorKind::Malformed,
              "OpCapability at word 5 has a word count of 0");
}

TEST(Reader, RejectsAWordCountRunningPastTheEnd) {
  std::vector<uint32_t> words = kernelWords("block_order.spv");
  const uint32_t store = offsetOf(words, spv::OpStore);
  words[store] = (200u << spv::WordCountShift) | spv::OpStore;
  expectError(load(words), LoadErrorKind::Malformed,
              "OpStore at word " + std::to_string(store) + " has 200 words, running past the end");
}

TEST(Reader, RejectsAnIdNotBelowTheBound) {
  std::vector<uint32_t> words = kernelWords("block_order.spv");
  words[3] = 6; // the bound
  expectError(load(words), LoadErrorKind::Malformed, "is not below the id bound 6 of the header");
}

TEST(Reader, RejectsAnUnknownOpcode) {
  std::vector<uint32_t> words = kernelWords("block_order.spv");
  const uint32_t store = offsetOf(words, spv::OpStore);
  words[store] = (words[store] & ~uint32_t(spv::OpCodeMask)) | 0xfff0;
  expectError(load(words), LoadErrorKind::Malformed, "malformed SPIR-V");
}

TEST(Reader, RejectsAVersionWordOfTheWrongForm) {
  std::vector<uint32_t> words = kernelWords("block_order.spv");
  words[1] = 0x00010401;
  expectError(load(words), LoadErrorKind::Malformed, "is not of the form 0x00MMmm00");
}

TEST(Reader, AcceptsEveryVersionTheDeviceReports) {
  std::vector<uint32_t> words = kernelWords("version15.spv");
  for (uint32_t minor = 0; minor <= 6; ++minor) {
    words[1] = 0x00010000 | minor << 8;
    const LoadResult result = load(words);
    EXPECT_TRUE(result.ok()) << "SPIR-V 1." << minor << ": " << result.log;
  }
}

TEST(Reader, RejectsAVersionNewerThanTheDeviceReports) {
  std::vector<uint32_t> words = kernelWords("version15.spv");
  words[1] = 0x00010700;
  expectError(load(words), LoadErrorKind::Invalid,
              "SPIR-V 1.7 is not supported: Lanewise accepts SPIR-V 1.0 to 1.6");
}

TEST(Reader, RejectsInstructionsAfterTheFunctions) {
  std::vector<uint32_t> words = kernelWords("block_order.spv");
  // Append "OpCapability Kernel" after the last OpFunctionEnd.
  words.push_back((2u << spv::WordCountShift) | spv::OpCapability);
  words.push_back(spv::CapabilityKernel);
  expectError(load(words), LoadErrorKind::Invalid, "only functions may follow the first function");
}

TEST(Reader, RejectsAFunctionWithoutEnd) {
  std::vector<uint32_t> words = kernelWords("block_order.spv");
  ASSERT_EQ(words.back(), (1u << spv::WordCountShift) | spv::OpFunctionEnd);
  words.pop_back();
  expectError(load(words), LoadErrorKind::Invalid, "is not closed by OpFunctionEnd");
}

TEST(Reader, KeepsInstructionOffsetsOfTheInput) {
  const std::vector<uint32_t> words = kernelWords("block_order.spv");
  const Module module = readModule(words);
  const Function &function = module.functions.at(0);
  for (const Block &block : function.blocks)
    for (const Instruction &instruction : block.instructions)
      EXPECT_EQ(words.at(instruction.wordOffset) & spv::OpCodeMask, uint32_t(instruction.opcode));
}

} // namespace
} // namespace lanewise::spirv
