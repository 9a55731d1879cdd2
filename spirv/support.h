// SPDX-License-Identifier: Apache-2.0
// What Lanewise supports of SPIR-V beyond the core of a Kernel module:
// capabilities, extensions and extended instruction sets. The tables are
// in support.cpp, one place for later work to extend.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "spirv/module.h"

namespace lanewise::spirv {

std::span<const spv::Capability> supportedCapabilities();
bool isSupportedExtension(std::string_view name);
// llvm-spirv's --spirv-ext option that asks for exactly the extensions the
// engine executes (and llvm-spirv knows), so that the compiler driver and the
// engine cannot disagree.
std::string translatorExtensionOption();
// Extended instruction sets executed by Lanewise (OpenCL.std). Debug and
// NonSemantic.* sets are accepted too and removed by normalisation.
std::span<const std::string_view> supportedExtInstSets();

bool isSupported(spv::Capability capability);

// The extension a supported capability needs declared with it (the
// grammar's "extensions" of the enumerant), or empty when the core enables
// it for Kernel modules.
std::string_view enablingExtension(spv::Capability capability);

// One message per use of something unsupported ("unsupported capability
// ImageBasic (OpCapability at word 7)"); empty when the module uses only
// what Lanewise supports.
std::vector<std::string> unsupportedFeatures(const Module &module);

} // namespace lanewise::spirv
