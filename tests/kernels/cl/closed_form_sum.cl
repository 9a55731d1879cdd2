// A loop clang -O2 replaces by its closed form, computed in an i33, in a
// module with no 64-bit type of its own (no work-item function): the
// module declares no Int64, and its i33 must still validate.
kernel void sum_below(uint count, global uint *out) {
  uint r = 0;
  for (uint i = 1; i < count; i++)
    r += i;
  out[0] = r;
}

// SPDX-License-Identifier: Apache-2.0
