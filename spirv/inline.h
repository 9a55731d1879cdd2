// SPDX-License-Identifier: Apache-2.0
// Inlining: OpenCL has no recursion, so every call of a kernel can be
// replaced by the body of its callee, leaving one function to lower.
#pragma once

#include "spirv/module.h"

#include <unordered_map>

namespace lanewise::spirv {

// A copy of `kernel` with every OpFunctionCall replaced by the callee's
// blocks (recursively). Ids of the copies are fresh, numbered from
// `nextId`, which is advanced. Throws LoadError for recursion, a call of a
// function without a body, or a call nested deeper than any real kernel.
// `origins` receives, for each fresh id, the id it copies: decorations
// (FPRoundingMode, SaturatedConversion, ...) are found under the original.
Function inlineCalls(const Module &module, const Function &kernel, uint32_t &nextId,
                     std::unordered_map<uint32_t, uint32_t> &origins);

} // namespace lanewise::spirv
