// The kernel needs one int of scratch per work-item of its work-group.
kernel void reverse(global int *out, local int *scratch) {
  size_t l = get_local_id(0), n = get_local_size(0);
  scratch[l] = (int)get_global_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = scratch[n - 1 - l];
}

// SPDX-License-Identifier: Apache-2.0
