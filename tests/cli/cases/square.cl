// Each work-item squares one element.
kernel void square(global int *out, global const int *in) {
  const size_t i = get_global_id(0);
  out[i] = in[i] * in[i];
}

// SPDX-License-Identifier: Apache-2.0
