// A histogram of the values of `in` (0 to 3), counted without atomics.
kernel void histogram(global const int *in, global int *counts) {
  int bin = in[get_global_id(0)];
  counts[bin] = counts[bin] + 1;
}

// SPDX-License-Identifier: Apache-2.0
