// SPDX-License-Identifier: Apache-2.0
// The extended instruction sets that carry no semantics for execution:
// debug information (OpenCL.DebugInfo.100, the older DebugInfo that
// llvm-spirv names SPIRV.debug) and
// NonSemantic.* sets (SPV_KHR_non_semantic_info). The reader takes source
// locations from them; the normaliser removes them (normalise.h).
#pragma once

#include <cstdint>
#include <string_view>
#include <unordered_map>

namespace lanewise::spirv {

enum class DebugSetKind { None, OpenCLDebugInfo100, DebugInfo, NonSemantic };

DebugSetKind debugSetKind(std::string_view setName);

// The OpExtInstImport ids of a module that name such sets.
class DebugSets {
public:
  void noteImport(uint32_t id, std::string_view setName);
  DebugSetKind kind(uint32_t importId) const;

private:
  std::unordered_map<uint32_t, DebugSetKind> kinds_;
};

} // namespace lanewise::spirv
