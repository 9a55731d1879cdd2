// SPDX-License-Identifier: Apache-2.0
#include "spirv/module_note.h"

#include "spirv/module.h"

#include <spirv/unified1/spirv.hpp>

namespace lanewise::spirv {

namespace {

constexpr size_t headerWords = 5;

// Instructions that come before OpSourceExtension's place in the logical
// layout (SPIR-V 1.0, 2.4: the debug instructions without names), or beside
// it.
bool precedesNotes(uint32_t opcode) {
  switch (opcode) {
  case spv::OpCapability:
  case spv::OpExtension:
  case spv::OpExtInstImport:
  case spv::OpMemoryModel:
  case spv::OpEntryPoint:
  case spv::OpExecutionMode:
  case spv::OpExecutionModeId:
  case spv::OpString:
  case spv::OpSourceExtension:
  case spv::OpSource:
  case spv::OpSourceContinued:
    return true;
  default:
    return false;
  }
}

} // namespace

std::vector<uint32_t> withModuleNote(std::span<const uint32_t> words, std::string_view note) {
  size_t at = headerWords;
  while (at < words.size() && precedesNotes(words[at] & 0xffff) && (words[at] >> 16) > 0)
    at += words[at] >> 16;
  at = std::min(at, words.size());
  std::vector<uint32_t> text = encodeLiteralString(note);
  std::vector<uint32_t> out(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(at));
  out.push_back(static_cast<uint32_t>((text.size() + 1) << 16) | spv::OpSourceExtension);
  out.insert(out.end(), text.begin(), text.end());
  out.insert(out.end(), words.begin() + static_cast<std::ptrdiff_t>(at), words.end());
  return out;
}

std::vector<uint32_t> withoutModuleNotes(std::span<const uint32_t> words,
                                         std::string_view prefix) {
  std::vector<uint32_t> out(words.begin(), words.begin() + std::min(words.size(), headerWords));
  for (size_t at = headerWords; at < words.size();) {
    const uint32_t count = words[at] >> 16, opcode = words[at] & 0xffff;
    if (count == 0 || at + count > words.size()) { // malformed: left as it is
      out.insert(out.end(), words.begin() + static_cast<std::ptrdiff_t>(at), words.end());
      break;
    }
    const bool note = (opcode == spv::OpSourceExtension || opcode == spv::OpModuleProcessed) &&
                      decodeLiteralString(words.subspan(at + 1, count - 1)).starts_with(prefix);
    if (!note)
      out.insert(out.end(), words.begin() + static_cast<std::ptrdiff_t>(at),
                 words.begin() + static_cast<std::ptrdiff_t>(at + count));
    at += count;
  }
  return out;
}

bool hasModuleNote(std::span<const uint32_t> words, std::string_view note) {
  for (size_t at = headerWords; at < words.size();) {
    const uint32_t count = words[at] >> 16, opcode = words[at] & 0xffff;
    // Earlier versions noted in OpModuleProcessed, after the names.
    if (count == 0 || at + count > words.size() ||
        !(precedesNotes(opcode) || opcode == spv::OpName || opcode == spv::OpMemberName ||
          opcode == spv::OpModuleProcessed))
      return false;
    if ((opcode == spv::OpSourceExtension || opcode == spv::OpModuleProcessed) &&
        decodeLiteralString(words.subspan(at + 1, count - 1)) == note)
      return true;
    at += count;
  }
  return false;
}

std::vector<std::string> moduleNotes(std::span<const uint32_t> words, std::string_view prefix) {
  std::vector<std::string> notes;
  for (size_t at = headerWords; at < words.size();) {
    const uint32_t count = words[at] >> 16, opcode = words[at] & 0xffff;
    if (count == 0 || at + count > words.size() ||
        !(precedesNotes(opcode) || opcode == spv::OpName || opcode == spv::OpMemberName ||
          opcode == spv::OpModuleProcessed))
      break;
    if (opcode == spv::OpSourceExtension || opcode == spv::OpModuleProcessed) {
      std::string text = decodeLiteralString(words.subspan(at + 1, count - 1));
      if (text.starts_with(prefix))
        notes.push_back(text.substr(prefix.size()));
    }
    at += count;
  }
  return notes;
}

} // namespace lanewise::spirv
