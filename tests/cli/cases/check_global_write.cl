// Each work-item writes one element too far: the last one writes past the
// end of the buffer.
kernel void shift_right(global int *out) {
  size_t i = get_global_id(0);
  out[i + 1] = (int)i;
}

// SPDX-License-Identifier: Apache-2.0
