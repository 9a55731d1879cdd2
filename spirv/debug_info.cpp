// SPDX-License-Identifier: Apache-2.0
#include "spirv/debug_info.h"

namespace lanewise::spirv {

DebugSetKind debugSetKind(std::string_view setName) {
  if (setName == "OpenCL.DebugInfo.100")
    return DebugSetKind::OpenCLDebugInfo100;
  // llvm-spirv --spirv-debug-info-version=legacy names it "SPIRV.debug".
  if (setName == "DebugInfo" || setName == "SPIRV.debug")
    return DebugSetKind::DebugInfo;
  // SPV_KHR_non_semantic_info: every set whose name begins "NonSemantic."
  // may be removed without changing the module's meaning.
  if (setName.starts_with("NonSemantic."))
    return DebugSetKind::NonSemantic;
  return DebugSetKind::None;
}

void DebugSets::noteImport(uint32_t id, std::string_view setName) {
  const DebugSetKind kind = debugSetKind(setName);
  if (kind != DebugSetKind::None)
    kinds_[id] = kind;
}

DebugSetKind DebugSets::kind(uint32_t importId) const {
  auto found = kinds_.find(importId);
  return found == kinds_.end() ? DebugSetKind::None : found->second;
}

} // namespace lanewise::spirv
