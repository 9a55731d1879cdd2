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

// A private and a __local pointer handed to another work-item of the group
// through __local memory (from another warp when the group spans several)
// still point to private and __local memory.
typedef generic int *generic_int_pointer;
kernel void handover(global int *out) {
  local int shared[1024];
  local generic_int_pointer handed[1024];
private
  int mine = get_global_id(0);
  const int l = get_local_id(0), n = get_local_size(0), i = get_global_id(0);
  shared[l] = l;
  handed[l] = l % 2 ? (generic int *)&shared[l] : (generic int *)&mine;
  barrier(CLK_LOCAL_MEM_FENCE);
  generic int *theirs = handed[n - 1 - l];
  out[3 * i + 0] = to_private(theirs) != 0;
  out[3 * i + 1] = to_local(theirs) != 0;
  out[3 * i + 2] = get_fence(theirs);
}
#endif

// SPDX-License-Identifier: Apache-2.0
