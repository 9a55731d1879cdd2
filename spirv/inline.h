// Inlining: OpenCL has no recursion, so every call of a kernel can be
// replaced by the body of its callee, leaving one function to lower.
#pragma once

#include "spirv/module.h"

namespace lanewise::spirv {

// A copy of `kernel` with every OpFunctionCall replaced by the callee's
// blocks (recursively). Ids of the copies are fresh, numbered from
// `nextId`, which is advanced. Throws LoadError for recursion, a call of a
// function without a body, or a call nested deeper than any real kernel.
Function inlineCalls(const Module &module, const Function &kernel, uint32_t &nextId);

} // namespace lanewise::spirv
