kernel void scale(global int *out) {
  out[get_global_id(0)] = (int)get_global_id(0) * FACTOR + OFFSET;
}

// SPDX-License-Identifier: Apache-2.0
