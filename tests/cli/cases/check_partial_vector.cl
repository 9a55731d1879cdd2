// A float2 built a component at a time: correct code, which the checked
// mode once reported as an uninitialised read (the unoptimised build loads
// the whole vector to insert each component).
__kernel void k(__global float2 *out, __global const float *in) {
  size_t i = get_global_id(0);
  float2 t;
  t.x = in[i] * 2.0f;
  t.y = in[i] + 1.0f;
  out[i] = t;
}

// SPDX-License-Identifier: Apache-2.0
