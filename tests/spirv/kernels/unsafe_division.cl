// Under -cl-unsafe-math-optimizations, llvm-spirv-14 marks the division
// AllowReassocINTEL and declares FPFastMathModeINTEL, but never the
// extension SPV_INTEL_fp_fast_math_mode that the capability needs.
kernel void k(global float *o) {
  size_t i = get_global_id(0);
  o[i] = o[i] / (1.0f + i);
}
