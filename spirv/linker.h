// SPDX-License-Identifier: Apache-2.0
// clLinkProgram's link step: SPIR-V modules joined by the SPIRV-Tools linker,
// imports resolved against exports (LinkageAttributes).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace lanewise::spirv {

struct LinkResult {
  bool ok = false;
  std::vector<uint32_t> words;
  std::string log; // the linker's messages
};

// Links `modules`; with `library`, unresolved imports may remain.
LinkResult linkModules(const std::vector<std::vector<uint32_t>> &modules, bool library);

} // namespace lanewise::spirv
