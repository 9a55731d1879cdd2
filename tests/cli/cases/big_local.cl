// 8 GiB of __local memory: far above CL_DEVICE_LOCAL_MEM_SIZE.
__kernel void k(__global float *o) {
  __local float big[1ul << 31];
  big[get_local_id(0)] = 1.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  o[get_global_id(0)] = big[(get_local_id(0) + 1) % get_local_size(0)];
}

// SPDX-License-Identifier: Apache-2.0
