// -cl-unsafe-math-optimizations without -cl-finite-math-only (which would
// make every flag "fast") marks the division AllowReassocINTEL, and
// llvm-spirv-14 declares FPFastMathModeINTEL without its extension.
__kernel void k(__global float *o) {
  size_t i = get_global_id(0);
  o[i] = o[i] / (1.0f + i);
}

// SPDX-License-Identifier: Apache-2.0
