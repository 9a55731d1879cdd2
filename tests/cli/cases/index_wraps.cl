// An index whose product with the element size leaves the 64-bit signed
// range: the address wraps around as the machine's does. (2^62 + 1) * 4
// bytes is 2^64 + 4 bytes: the address of p[1].
kernel void store_far(global int *p, long index) {
  p[index] = 7;
}

// SPDX-License-Identifier: Apache-2.0
