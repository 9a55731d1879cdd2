// A 2-D NDRange: every work-item writes its coordinates as x * 10 + y.
kernel void coordinates(global int *out) {
  const size_t x = get_global_id(0), y = get_global_id(1);
  out[y * get_global_size(0) + x] = (int)(x * 10 + y);
}

// SPDX-License-Identifier: Apache-2.0
