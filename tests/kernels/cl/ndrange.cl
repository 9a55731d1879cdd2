// NDRange built-ins and kernel enqueue/argument/info API behaviour.

#define RECORD 32

// Every work-item writes one record of its built-ins, at the index computed
// from get_global_id and the offset (not from the linear id built-ins):
//   [0..2]   get_global_id(d) for d = 0..2
//   [3..5]   get_local_id     [6..8]   get_group_id     [9..11]  get_global_size
//   [12..14] get_local_size   [15..17] get_enqueued_local_size
//   [18..20] get_num_groups   [21..23] get_global_offset
//   [24] get_work_dim [25] get_global_linear_id [26] get_local_linear_id
//   [27] how many times the record was written
kernel void builtins(global uint *out) {
  size_t idx = 0, stride = 1;
  for (uint d = 0; d < get_work_dim(); ++d) {
    idx += (get_global_id(d) - get_global_offset(d)) * stride;
    stride *= get_global_size(d);
  }
  global uint *r = out + idx * RECORD;
  for (uint d = 0; d < 3; ++d) {
    r[0 + d] = get_global_id(d);
    r[3 + d] = get_local_id(d);
    r[6 + d] = get_group_id(d);
    r[9 + d] = get_global_size(d);
    r[12 + d] = get_local_size(d);
    r[15 + d] = get_enqueued_local_size(d);
    r[18 + d] = get_num_groups(d);
    r[21 + d] = get_global_offset(d);
  }
  r[24] = get_work_dim();
  r[25] = get_global_linear_id();
  r[26] = get_local_linear_id();
  atomic_inc(r + 27);
}

// Counts how many times each work-item ran (local size chosen by the
// implementation).
kernel void count(global uint *hits) {
  size_t idx = get_global_id(0) +
               get_global_size(0) * (get_global_id(1) + get_global_size(1) * get_global_id(2));
  atomic_inc(hits + idx);
}

kernel void vadd(global const int *a, global const int *b, global int *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}

kernel void task(global uint *out) {
  out[0] = get_work_dim();
  out[1] = get_global_size(0);
  out[2] = get_local_size(0);
  out[3] = get_num_groups(0);
  out[4] = get_global_id(0);
  out[5] = 1234;
}

kernel __attribute__((reqd_work_group_size(8, 4, 1))) void required(global uint *out) {
  size_t i = get_global_id(0) + get_global_size(0) * get_global_id(1);
  out[i] = get_local_size(0) * 100 + get_local_size(1) * 10 + get_local_size(2);
}

kernel void two_args(global int *out, int value) { out[get_global_id(0)] = value; }

kernel void with_local(global int *out, local int *scratch, int n) {
  local int fixed[64];
  int l = get_local_id(0);
  scratch[l] = l;
  fixed[l % 64] = n;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = scratch[l] + fixed[l % 64];
}

typedef struct {
  int a;
  float b;
} Pair;

kernel void arg_info(global const float4 *restrict src, local uint *scratch, constant int *table,
                     volatile global int *flags, Pair pair, ulong count, global Pair *pairs) {
  size_t i = get_global_id(0);
  flags[i] = table[i] + scratch[0] + pair.a + (int)src[i].x + (int)count + pairs[i].a;
}

// Ids beyond 32 bits (global offsets of 2^33 and more).
kernel void big_ids(global ulong *out) {
  size_t i = get_global_id(0) - get_global_offset(0);
  out[i * 3 + 0] = get_global_id(0);
  out[i * 3 + 1] = get_global_linear_id();
  out[i * 3 + 2] = get_global_offset(0) + get_group_id(0);
}

// SPDX-License-Identifier: Apache-2.0
