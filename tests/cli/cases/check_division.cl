// Integer quotients of two arrays, element by element.
kernel void quotient(global const int *a, global const int *b, global int *out) {
  size_t i = get_global_id(0);
  out[i] = a[i] / b[i];
}

// SPDX-License-Identifier: Apache-2.0
