// The same float2 with its second component never written: storing it to
// global memory is a use, found at the store.
__kernel void k(__global float2 *out, __global const float *in) {
  size_t i = get_global_id(0);
  float2 t;
  t.x = in[i] * 2.0f;
  out[i] = t;
}

// SPDX-License-Identifier: Apache-2.0
