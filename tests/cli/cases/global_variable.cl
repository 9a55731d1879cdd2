// A program-scope variable of 4 MiB, written and read back by every work-item.
global int table[1 << 20];
__kernel void k(__global int *o) {
  size_t i = get_global_id(0);
  table[i * 4099] = (int)i * 3;
  o[i] = table[i * 4099] + 1;
}

// SPDX-License-Identifier: Apache-2.0
