// Kernel argument information and execution modes, as written here.
typedef struct {
  float x;
  int y;
} Pair;

__attribute__((reqd_work_group_size(8, 4, 1)))
__attribute__((vec_type_hint(float4)))
kernel void arguments(global const float* restrict in, global volatile int* out,
                      local float4* scratch, constant Pair* table, float scale, Pair pair,
                      uchar3 small, global int* const fixed, ulong big) {
  int i = get_global_id(0);
  out[i] = (int)(in[i] * scale) + table[0].y + pair.y + small.x + fixed[0] + (int)big;
  scratch[get_local_id(0)] = (float4)(in[i]);
}

__attribute__((intel_reqd_sub_group_size(16)))
__attribute__((work_group_size_hint(64, 1, 1)))
kernel void subgroups(global uint* out) {
  out[get_global_id(0)] = get_sub_group_local_id();
}

// SPDX-License-Identifier: Apache-2.0
