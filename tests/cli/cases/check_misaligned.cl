// Reads floats from a byte stream at an offset of 1: every load is
// misaligned.
kernel void unpack(global const char *bytes, global float *out) {
  size_t i = get_global_id(0);
  out[i] = *(global const float *)(bytes + 4 * i + 1);
}

// SPDX-License-Identifier: Apache-2.0
