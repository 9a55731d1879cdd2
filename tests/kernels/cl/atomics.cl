// Atomics: the OpenCL 1.x functions, the OpenCL C 2.0 generic atomics and
// 64-bit atomics, in global and local memory, contended across work-groups.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

// ---------------------------------------------------------------------------
// OpenCL 1.x functions on one global counter shared by every work-item;
// olds[i] is the value work-item i saw.

kernel void legacy_global(global int *c, global uint *u, global int *olds, global const int *in) {
  int i = get_global_id(0);
  int v = in[i];
  global int *o = olds + i * 12;
  o[0] = atomic_add(&c[0], v);
  o[1] = atomic_sub(&c[1], v);
  o[2] = atomic_xchg(&c[2], i);
  o[3] = atomic_inc(&c[3]);
  o[4] = atomic_dec(&c[4]);
  o[5] = atomic_min(&c[5], v - 500);
  o[6] = atomic_max(&c[6], v - 500);
  o[7] = atomic_and(&u[0], ~(1u << (i % 32)));
  o[8] = atomic_or(&u[1], 1u << (v % 32));
  o[9] = atomic_xor(&u[2], (uint)v * 2654435761u);
  o[10] = atomic_min(&u[3], (uint)v * 7u);
  o[11] = atomic_max(&u[4], (uint)v * 7u);
}

// A lock-free increment with atomic_cmpxchg: the olds form a permutation.
kernel void cmpxchg_counter(global int *c, global int *olds) {
  int i = get_global_id(0);
  int expected = 0;
  for (;;) {
    int seen = atomic_cmpxchg(c, expected, expected + 1);
    if (seen == expected)
      break;
    expected = seen;
  }
  olds[i] = expected;
}

// Every work-item increments one counter `rounds` times with atomic_inc and
// another with a compare-exchange loop, keeping what each increment saw: a
// warp's updates of one object are aggregated into one, and the warps of
// every worker contend; no increment may be lost or seen twice.
kernel void contended_counters(global int *c, global int *olds, int rounds) {
  int i = get_global_id(0), n = get_global_size(0);
  for (int r = 0; r < rounds; ++r) {
    olds[2 * (r * n + i)] = atomic_inc(&c[0]);
    int expected = atomic_add(&c[1], 0), seen;
    while ((seen = atomic_cmpxchg(&c[1], expected, expected + 1)) != expected)
      expected = seen;
    olds[2 * (r * n + i) + 1] = expected;
  }
}

// A histogram of 64 bins in global memory (many work-groups, one bin array).
kernel void global_histogram(global const int *in, global uint *bins) {
  atomic_inc(&bins[in[get_global_id(0)] & 63]);
}

// The same histogram built in __local memory per work-group, then added to
// global memory.
kernel void local_histogram(global const int *in, global uint *bins) {
  local uint h[64];
  int l = get_local_id(0), n = get_local_size(0);
  for (int b = l; b < 64; b += n)
    h[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&h[in[get_global_id(0)] & 63]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int b = l; b < 64; b += n)
    if (h[b])
      atomic_add(&bins[b], h[b]);
}

// OpenCL 1.x functions on __local counters; per work-group results to
// groups[g * 8 ...], per work-item olds.
kernel void legacy_local(global const int *in, global int *olds, global int *groups) {
  local int c[8];
  int l = get_local_id(0), g = get_group_id(0);
  int v = in[get_global_id(0)];
  if (l == 0) {
    c[0] = 0;
    c[1] = 1000;
    c[2] = -1;
    c[3] = 0x7fffffff;
    c[4] = (int)0x80000000;
    c[5] = 0;
    c[6] = -1;
    c[7] = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  global int *o = olds + get_global_id(0) * 8;
  o[0] = atomic_inc(&c[0]);
  o[1] = atomic_dec(&c[1]);
  o[2] = atomic_xchg(&c[2], l);
  o[3] = atomic_min(&c[3], v);
  o[4] = atomic_max(&c[4], v);
  o[5] = atomic_or(&c[5], 1 << (l % 31));
  o[6] = atomic_and(&c[6], ~(1 << (v % 31)));
  o[7] = atomic_add(&c[7], v);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int j = l; j < 8; j += get_local_size(0))
    groups[g * 8 + j] = c[j];
}

// ---------------------------------------------------------------------------
// OpenCL C 2.0 generic atomics (relaxed, work-group and device scope).

kernel void generic_global(volatile global atomic_int *c, volatile global atomic_uint *u,
                           global int *olds, global const int *in) {
  int i = get_global_id(0);
  int v = in[i];
  global int *o = olds + i * 10;
  o[0] = atomic_fetch_add_explicit(&c[0], v, memory_order_relaxed, memory_scope_device);
  o[1] = atomic_fetch_sub_explicit(&c[1], v, memory_order_relaxed, memory_scope_device);
  o[2] = atomic_exchange_explicit(&c[2], i, memory_order_relaxed, memory_scope_device);
  o[3] = atomic_fetch_min_explicit(&c[3], v - 500, memory_order_relaxed, memory_scope_device);
  o[4] = atomic_fetch_max_explicit(&c[4], v - 500, memory_order_relaxed, memory_scope_device);
  o[5] = atomic_fetch_or_explicit(&u[0], 1u << (v % 32), memory_order_relaxed, memory_scope_device);
  o[6] = atomic_fetch_and_explicit(&u[1], ~(1u << (i % 32)), memory_order_relaxed,
                                   memory_scope_device);
  o[7] =
      atomic_fetch_xor_explicit(&u[2], (uint)v * 40503u, memory_order_relaxed, memory_scope_device);
  // A compare-exchange increment loop: the olds form a permutation.
  int expected = atomic_load_explicit(&c[5], memory_order_relaxed, memory_scope_device);
  while (!atomic_compare_exchange_strong_explicit(&c[5], &expected, expected + 1,
                                                  memory_order_relaxed, memory_order_relaxed,
                                                  memory_scope_device))
    ;
  o[8] = expected;
  // atomic_store of a value only this work-item writes; atomic_load it back.
  atomic_store_explicit(&c[6 + i], v * 3, memory_order_relaxed, memory_scope_device);
  o[9] = atomic_load_explicit(&c[6 + i], memory_order_relaxed, memory_scope_device);
}

// Work-group scope on __local atomics.
kernel void generic_local(global const int *in, global int *olds, global int *groups) {
  local atomic_int c[4];
  int l = get_local_id(0), g = get_group_id(0);
  int v = in[get_global_id(0)];
  if (l == 0) {
    atomic_init(&c[0], 0);
    atomic_init(&c[1], 0);
    atomic_init(&c[2], 1 << 30);
    atomic_init(&c[3], 0);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  global int *o = olds + get_global_id(0) * 3;
  o[0] = atomic_fetch_add_explicit(&c[0], 1, memory_order_relaxed, memory_scope_work_group);
  o[1] = atomic_fetch_add_explicit(&c[1], v, memory_order_relaxed, memory_scope_work_group);
  int expected = 0;
  while (!atomic_compare_exchange_strong_explicit(&c[3], &expected, expected + 2,
                                                  memory_order_relaxed, memory_order_relaxed,
                                                  memory_scope_work_group))
    ;
  o[2] = expected;
  atomic_fetch_min_explicit(&c[2], v, memory_order_relaxed, memory_scope_work_group);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int j = l; j < 4; j += get_local_size(0))
    groups[g * 4 + j] = atomic_load_explicit(&c[j], memory_order_relaxed, memory_scope_work_group);
}

// ---------------------------------------------------------------------------
// 64-bit atomics (cl_khr_int64_base_atomics / extended): atom_* and the
// generic atomic_long functions.

kernel void atomics64(global long *c, global ulong *u, global long *olds, global const long *in) {
  int i = get_global_id(0);
  long v = in[i];
  global long *o = olds + i * 9;
  o[0] = atom_add(&c[0], v);
  o[1] = atom_sub(&c[1], v);
  o[2] = atom_xchg(&c[2], (long)i << 33);
  o[3] = atom_inc(&c[3]);
  o[4] = atom_cmpxchg(&c[4], (long)i, (long)i + 1); // succeeds only in order: see the test
  o[5] = atom_min(&c[5], v);
  o[6] = atom_max(&u[0], (ulong)v);
  o[7] = atom_or(&u[1], 1ul << (i % 64));
  o[8] = atomic_fetch_add_explicit((volatile global atomic_long *)&c[6], v, memory_order_relaxed,
                                   memory_scope_device);
  atomic_fetch_xor_explicit((volatile global atomic_ulong *)&u[2], (ulong)v * 0x9e3779b97f4a7c15ul,
                            memory_order_relaxed, memory_scope_device);
}

// ---------------------------------------------------------------------------
// atomic_flag: exactly one work-item per flag sees it clear.

kernel void flags(volatile global atomic_flag *f, global int *olds, int clear) {
  int i = get_global_id(0);
  if (clear) {
    if (i < 8)
      atomic_flag_clear_explicit(&f[i], memory_order_relaxed, memory_scope_device);
    return;
  }
  olds[i] = atomic_flag_test_and_set_explicit(&f[i % 8], memory_order_relaxed, memory_scope_device);
}

// Atomics executed by some work-items only, and a per-lane number of times.
kernel void divergent_atomics(global int *c, global int *olds, global const int *in) {
  int i = get_global_id(0);
  int v = in[i];
  if (i % 3 == 0)
    atomic_inc(&c[0]);
  if (v & 1)
    olds[i] = atomic_add(&c[1], v);
  else
    olds[i] = -1;
  for (int k = 0; k < v % 4; ++k)
    atomic_inc(&c[2 + (i & 1)]);
}

// atomic_xchg on float (OpenCL 1.1).
kernel void float_xchg(global float *f, global float *olds) {
  int i = get_global_id(0);
  olds[i] = atomic_xchg(f, (float)i * 0.5f);
}

// SPDX-License-Identifier: Apache-2.0

// Every read-modify-write on __local objects of each integer type, at
// work-group scope: finals[g * 9 + j] is object j after the work-group's
// operations, olds[2 * i ...] what work-item i's compare-exchange
// increment and exchange saw. Unsigned types compare their minimum and
// maximum unsigned (v - 500 wraps).
#define EVERY_LOCAL_OP(T, A, NAME)                                                                 \
  kernel void every_local_op_##NAME(global const T *in, global T *finals, global T *olds) {        \
    local A c[9];                                                                                  \
    const int l = get_local_id(0), g = get_group_id(0);                                            \
    const T v = in[get_global_id(0)];                                                              \
    const T bits = (T)(sizeof(T) * 8);                                                             \
    if (l == 0) {                                                                                  \
      atomic_init(&c[0], (T)5);                                                                    \
      atomic_init(&c[1], (T)1000);                                                                 \
      atomic_init(&c[2], (T)-1);                                                                   \
      atomic_init(&c[3], (T)0);                                                                    \
      atomic_init(&c[4], (T)0x5a5a);                                                               \
      atomic_init(&c[5], (T)((T)1 << (bits - 2)));                                                 \
      atomic_init(&c[6], (T)0);                                                                    \
      atomic_init(&c[7], (T)0);                                                                    \
      atomic_init(&c[8], (T)-77);                                                                  \
    }                                                                                              \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    atomic_fetch_add_explicit(&c[0], v, memory_order_relaxed, memory_scope_work_group);            \
    atomic_fetch_sub_explicit(&c[1], v, memory_order_relaxed, memory_scope_work_group);            \
    atomic_fetch_and_explicit(&c[2], ~((T)1 << (v % bits)), memory_order_relaxed,                  \
                              memory_scope_work_group);                                            \
    atomic_fetch_or_explicit(&c[3], (T)1 << ((v / 3) % bits), memory_order_relaxed,                \
                             memory_scope_work_group);                                             \
    atomic_fetch_xor_explicit(&c[4], (T)(v * (T)40503), memory_order_relaxed,                      \
                              memory_scope_work_group);                                            \
    atomic_fetch_min_explicit(&c[5], (T)(v - (T)500), memory_order_relaxed,                        \
                              memory_scope_work_group);                                            \
    atomic_fetch_max_explicit(&c[6], (T)(v - (T)500), memory_order_relaxed,                        \
                              memory_scope_work_group);                                            \
    global T *o = olds + get_global_id(0) * 2;                                                     \
    T expected = atomic_load_explicit(&c[7], memory_order_relaxed, memory_scope_work_group);       \
    while (!atomic_compare_exchange_strong_explicit(&c[7], &expected, (T)(expected + 1),           \
                                                    memory_order_relaxed, memory_order_relaxed,    \
                                                    memory_scope_work_group))                      \
      ;                                                                                            \
    o[0] = expected;                                                                               \
    o[1] = atomic_exchange_explicit(&c[8], v, memory_order_relaxed, memory_scope_work_group);      \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    for (int j = l; j < 9; j += get_local_size(0))                                                 \
      finals[g * 9 + j] =                                                                          \
          atomic_load_explicit(&c[j], memory_order_relaxed, memory_scope_work_group);              \
  }
EVERY_LOCAL_OP(int, atomic_int, int)
EVERY_LOCAL_OP(uint, atomic_uint, uint)
EVERY_LOCAL_OP(long, atomic_long, long)
EVERY_LOCAL_OP(ulong, atomic_ulong, ulong)
