// An array of 2^32 + 64 elements: its length does not fit 32 bits.
global char big[(1ul << 32) + 64];
__kernel void k(__global char *o) {
  size_t i = get_global_id(0);
  big[(1ul << 32) + i] = (char)i;
  o[i] = big[(1ul << 32) + i];
}

// SPDX-License-Identifier: Apache-2.0
