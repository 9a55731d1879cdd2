// A program-scope variable of 256 GiB: more than CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE
// (the largest allocation) on any machine with less than a terabyte.
global long16 big[1ul << 31];
__kernel void k(__global long *o) {
  size_t i = get_global_id(0);
  big[i * 4099].s3 = (long)i;
  o[i] = big[i * 4099].s3;
}

// SPDX-License-Identifier: Apache-2.0
