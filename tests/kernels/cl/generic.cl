// Generic pointers (OpenCL C 3.0, 6.7.1): to_global, to_local, to_private and
// get_fence tell where a generic pointer points.
#ifdef __opencl_c_generic_address_space
kernel void classify(global int *data, global int *out) {
  local int shared[64];
  private int mine[4];
  const int i = get_global_id(0);
  shared[get_local_id(0) % 64] = i;
  mine[i % 4] = i;
  barrier(CLK_LOCAL_MEM_FENCE);
  // Each work-item picks a different space for its generic pointer.
  generic int *p;
  if (i % 3 == 0)
    p = &data[i];
  else if (i % 3 == 1)
    p = &shared[get_local_id(0) % 64];
  else
    p = &mine[i % 4];
  out[6 * i + 0] = to_global(p) != 0;
  out[6 * i + 1] = to_local(p) != 0;
  out[6 * i + 2] = to_private(p) != 0;
  out[6 * i + 3] = get_fence(p);
  out[6 * i + 4] = *p; // the value through the generic pointer
  out[6 * i + 5] = to_global((generic int *)0) != 0;
}
#endif

// SPDX-License-Identifier: Apache-2.0
