// 2 GiB of private memory a work-item.
__kernel void k(__global float *o, int n) {
  float big[1ul << 29];
  for (int j = 0; j < n; ++j)
    big[j * 4099] = o[j];
  o[get_global_id(0)] = big[n * 7];
}

// SPDX-License-Identifier: Apache-2.0
