// SPDX-License-Identifier: Apache-2.0
#include "spirv/linker.h"

#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/linker.hpp>

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <string>
#include <unordered_set>

namespace lanewise::spirv {

namespace {

constexpr size_t headerWords = 5;

// Calls f(opcode, words of the instruction) for each instruction.
template <typename F> void forEachInstruction(std::vector<uint32_t> &words, F &&f) {
  for (size_t at = headerWords; at < words.size();) {
    const uint32_t count = words[at] >> 16;
    if (count == 0 || at + count > words.size())
      return;
    f(static_cast<spv::Op>(words[at] & 0xffff), &words[at]);
    at += count;
  }
}

// Whether every OpLine names an OpString of the module.
bool linesNameStrings(std::vector<uint32_t> words) {
  std::unordered_set<uint32_t> strings;
  forEachInstruction(words, [&](spv::Op op, uint32_t *instruction) {
    if (op == spv::OpString)
      strings.insert(instruction[1]);
  });
  bool valid = true;
  forEachInstruction(words, [&](spv::Op op, uint32_t *instruction) {
    if (op == spv::OpLine)
      valid &= strings.count(instruction[1]) != 0;
  });
  return valid;
}

// SPIRV-Tools' linker (2023.1, as Debian 12 has it; SPIRV-Tools issue
// #5747) shifts the ids of every module after the first by the id bounds of
// the modules before it, but not the file operand of OpLine, which then
// names some other instruction. The operands are shifted here, as the
// linker would have.
std::vector<std::vector<uint32_t>> withLinesShifted(std::vector<std::vector<uint32_t>> modules) {
  uint32_t shift = 0;
  for (std::vector<uint32_t> &words : modules) {
    if (words.size() < headerWords)
      return modules;
    if (shift)
      forEachInstruction(words, [&](spv::Op op, uint32_t *instruction) {
        if (op == spv::OpLine)
          instruction[1] += shift;
      });
    shift += words[3] - 1; // the id bound
  }
  return modules;
}

// SPIRV-Tools' linker refuses modules of different versions ("Conflicting
// SPIR-V versions"), and llvm-spirv-14 writes each object in the lowest
// version it needs: an object with a program-scope variable in 1.4, a
// library of plain functions in 1.0. Each module is declared in the newest
// version among them: a later version gives an earlier one's instructions
// the same meaning, and of the rules it adds, the one a Kernel module can
// break (1.4: an entry point lists every module-scope variable it uses) is
// completed by the loader's normaliser after the link.
std::vector<std::vector<uint32_t>> inNewestVersion(std::vector<std::vector<uint32_t>> modules) {
  uint32_t newest = 0;
  for (const std::vector<uint32_t> &words : modules)
    if (words.size() >= headerWords)
      newest = std::max(newest, words[1]);
  for (std::vector<uint32_t> &words : modules)
    if (words.size() >= headerWords)
      words[1] = newest;
  return modules;
}

LinkResult link(const std::vector<std::vector<uint32_t>> &modules, bool library) {
  LinkResult result;
  spvtools::Context context(SPV_ENV_UNIVERSAL_1_4);
  context.SetMessageConsumer([&](spv_message_level_t, const char *, const spv_position_t &position,
                                 const char *message) {
    result.log += std::string("link: ") + message + " (word " + std::to_string(position.index) +
                  ")\n";
  });
  spvtools::LinkerOptions options;
  options.SetCreateLibrary(library);
  // A library may keep imports that a later link resolves.
  options.SetAllowPartialLinkage(library);
  result.ok = spvtools::Link(context, modules, &result.words, options) == SPV_SUCCESS;
  return result;
}

// The name in a LinkageAttributes decoration's words (OpDecorate target
// LinkageAttributes "name" type).
std::string linkageName(const uint32_t *instruction, uint32_t count) {
  std::string name;
  for (uint32_t k = 3; k + 1 < count; ++k)
    for (int byte = 0; byte < 4; ++byte) {
      const char c = char(instruction[k] >> (8 * byte) & 0xff);
      if (c == '\0')
        return name;
      name += c;
    }
  return name;
}

// LinkOnceODR definitions (SPV_KHR_linkonce_odr) as SPIRV-Tools' linker can
// take them: it neither resolves an import with one nor merges two. Every
// definition of such a name is the same (the one-definition rule), so the
// first becomes the name's export, unless a module exports it already, and
// the others stay their modules' own functions, no longer linked.
std::vector<std::vector<uint32_t>>
withLinkOnceResolved(std::vector<std::vector<uint32_t>> modules) {
  auto forLinkage = [](std::vector<uint32_t> &words, auto &&f) {
    forEachInstruction(words, [&](spv::Op opcode, uint32_t *instruction) {
      const uint32_t count = instruction[0] >> 16;
      if (opcode == spv::OpDecorate && count >= 4 &&
          instruction[2] == spv::DecorationLinkageAttributes)
        f(instruction, count);
    });
  };
  std::unordered_set<std::string> exported;
  for (std::vector<uint32_t> &words : modules)
    forLinkage(words, [&](uint32_t *instruction, uint32_t count) {
      if (instruction[count - 1] == spv::LinkageTypeExport)
        exported.insert(linkageName(instruction, count));
    });
  for (std::vector<uint32_t> &words : modules) {
    bool dropped = false;
    forLinkage(words, [&](uint32_t *instruction, uint32_t count) {
      if (instruction[count - 1] != spv::LinkageTypeLinkOnceODR)
        return;
      if (exported.insert(linkageName(instruction, count)).second) {
        instruction[count - 1] = spv::LinkageTypeExport;
      } else {
        instruction[0] = (count << 16) | spv::OpNop; // removed below
        dropped = true;
      }
    });
    if (dropped) {
      std::vector<uint32_t> kept(words.begin(), words.begin() + headerWords);
      forEachInstruction(words, [&](spv::Op opcode, uint32_t *instruction) {
        if (opcode != spv::OpNop)
          kept.insert(kept.end(), instruction, instruction + (instruction[0] >> 16));
      });
      words = std::move(kept);
    }
  }
  return modules;
}

} // namespace

LinkResult linkModules(const std::vector<std::vector<uint32_t>> &inputs, bool library) {
  const std::vector<std::vector<uint32_t>> modules = withLinkOnceResolved(inNewestVersion(inputs));
  LinkResult shifted = link(withLinesShifted(modules), library);
  LinkResult chosen = std::move(shifted);
  if (chosen.ok && !linesNameStrings(chosen.words)) {
    // A linker that shifts OpLine itself.
    LinkResult plain = link(modules, library);
    if (plain.ok && linesNameStrings(plain.words))
      chosen = std::move(plain);
  }
  return chosen;
}

} // namespace lanewise::spirv
