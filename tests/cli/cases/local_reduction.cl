// Each work-group sums its elements in __local memory, halving the active
// work-items at every step, and writes one partial sum.
kernel void reduce(global const int *in, global int *partial, local int *scratch) {
  const size_t lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
    if (lid < stride)
      scratch[lid] += scratch[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    partial[get_group_id(0)] = scratch[0];
}

// SPDX-License-Identifier: Apache-2.0
