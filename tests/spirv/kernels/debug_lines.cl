// Defect (e): with -g, llvm-spirv-14 writes OpenCL.DebugInfo.100 that spirv-val
// rejects. The markers name lines the tests look for.
float scale(float x, float factor) {
  return x * factor; // MARKER:scale-return
}

kernel void debug_lines(global float* out, global const float* in, float factor) {
  int i = get_global_id(0);
  float value = in[i];
  if (value > 0.0f)
    value = scale(value, factor);
  out[i] = value; // MARKER:store-out
}

// SPDX-License-Identifier: Apache-2.0
