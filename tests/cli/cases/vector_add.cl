kernel void vector_add(global const float *a, global const float *b, global float *sum) {
  const size_t i = get_global_id(0);
  sum[i] = a[i] + b[i];
}

// SPDX-License-Identifier: Apache-2.0
