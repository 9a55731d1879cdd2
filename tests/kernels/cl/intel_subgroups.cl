// cl_intel_subgroups built-ins, checked by tests/kernels/intel_subgroup_test.cpp.
// Every kernel records the sub-group built-ins of each work-item (record())
// so that the test derives the partition into sub-groups from them.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define INFO_WORDS 8

// The work-group's number in dimension d, from the ids: kernels without
// get_group_id whose work-groups are whole sub-groups may run several
// groups in one warp (runtime::groupsPerPackedWarp), and these tests then
// check that too.
size_t group_of(uint d) {
  return (get_global_id(d) - get_global_offset(d) - get_local_id(d)) / get_enqueued_local_size(d);
}

void record(global uint *info) {
  global uint *r = info + get_global_linear_id() * INFO_WORDS;
  r[0] = get_sub_group_id();
  r[1] = get_sub_group_local_id();
  r[2] = get_sub_group_size();
  r[3] = get_max_sub_group_size();
  r[4] = get_num_sub_groups();
  r[5] = get_enqueued_num_sub_groups();
  r[6] = get_local_linear_id();
  r[7] = group_of(0) + get_num_groups(0) * (group_of(1) + get_num_groups(1) * group_of(2));
}

// ---- shuffles --------------------------------------------------------------------
// c, n: two data sources, s: per-lane selector. Slots:
//  2d, 2d + 1 for d < max sub-group size (d < 64): shuffle_down(c, n, d),
//             shuffle_up(n, c, d)
//  128 shuffle(c, s % size)  129 shuffle_xor(c, (s >> 8) % max)
//  130 shuffle_down(c, n, (s >> 16) % max)  131 shuffle_up(n, c, (s >> 24) % max)
//  odd lanes: 132 shuffle_xor(c, 2)  133 shuffle_down(c, n, 2)
#define SHUFFLE_KERNEL_NAMED(T, NAME)                                                              \
  kernel void NAME(global const T *C, global const T *N, global const uint *S, global T *out,      \
                   global uint *info) {                                                            \
    record(info);                                                                                  \
    const size_t gid = get_global_linear_id();                                                     \
    global T *o = out + gid * 134;                                                                 \
    const T c = C[gid], n = N[gid];                                                                \
    const uint s = S[gid], max = get_max_sub_group_size();                                         \
    for (uint d = 0; d < max && d < 64; ++d) {                                                     \
      o[2 * d] = intel_sub_group_shuffle_down(c, n, d);                                            \
      o[2 * d + 1] = intel_sub_group_shuffle_up(n, c, d);                                          \
    }                                                                                              \
    o[128] = intel_sub_group_shuffle(c, s % get_sub_group_size());                                 \
    o[129] = intel_sub_group_shuffle_xor(c, (s >> 8) % max);                                       \
    o[130] = intel_sub_group_shuffle_down(c, n, (s >> 16) % max);                                  \
    o[131] = intel_sub_group_shuffle_up(n, c, (s >> 24) % max);                                    \
    if (get_sub_group_local_id() % 2) {                                                            \
      o[132] = intel_sub_group_shuffle_xor(c, 2);                                                  \
      o[133] = intel_sub_group_shuffle_down(c, n, 2);                                              \
    }                                                                                              \
  }
#define SHUFFLE_KERNEL(T) SHUFFLE_KERNEL_NAMED(T, intel_##T)
SHUFFLE_KERNEL(int)
__attribute__((intel_reqd_sub_group_size(8))) SHUFFLE_KERNEL_NAMED(int, intel_int_sg8)
__attribute__((intel_reqd_sub_group_size(16))) SHUFFLE_KERNEL_NAMED(int, intel_int_sg16)
__attribute__((intel_reqd_sub_group_size(32))) SHUFFLE_KERNEL_NAMED(int, intel_int_sg32)
SHUFFLE_KERNEL(uint)
SHUFFLE_KERNEL(float)
SHUFFLE_KERNEL(long)
SHUFFLE_KERNEL(ulong)
SHUFFLE_KERNEL(half)
SHUFFLE_KERNEL(double)
#ifdef cl_intel_subgroups_short
SHUFFLE_KERNEL(short)
SHUFFLE_KERNEL(ushort)
#endif
#ifdef cl_intel_subgroups_char
SHUFFLE_KERNEL(char)
SHUFFLE_KERNEL(uchar)
#endif

// Vectors: per-lane shuffle, shuffle_down, shuffle_up, shuffle_xor (slots 0-3).
#define VECTOR_KERNEL(T)                                                                           \
  kernel void intel_vector_##T(global const T *C, global const T *N, global const uint *S,        \
                               global T *out, global uint *info) {                                 \
    record(info);                                                                                  \
    const size_t gid = get_global_linear_id();                                                     \
    global T *o = out + gid * 4;                                                                   \
    const T c = C[gid], n = N[gid];                                                                \
    const uint s = S[gid], max = get_max_sub_group_size();                                         \
    o[0] = intel_sub_group_shuffle(c, s % get_sub_group_size());                                   \
    o[1] = intel_sub_group_shuffle_down(c, n, (s >> 8) % max);                                     \
    o[2] = intel_sub_group_shuffle_up(n, c, (s >> 16) % max);                                      \
    o[3] = intel_sub_group_shuffle_xor(c, (s >> 24) % max);                                        \
  }
VECTOR_KERNEL(int2)
VECTOR_KERNEL(float3)
VECTOR_KERNEL(uint4)
VECTOR_KERNEL(int8)
VECTOR_KERNEL(float16)

// ---- block reads and writes on global memory --------------------------------------
// Sub-group g (numbered across the dispatch) reads in[15 * max * g ...]:
// 1 uint at +0, 2 at +max, 4 at +3max, 8 at +7max, records what each work-item
// read in rd (15 uints per work-item), and writes ~value to the same places
// of out; the same with ushort data in ins, rds and outs
// (intel_sub_group_block_read_us*, cl_intel_subgroups_short). Only whole
// sub-groups are defined: local sizes are multiples of the
// sub-group size.
#define BLOCK_BODY                                                                                 \
  record(info);                                                                                    \
  const size_t gid = get_global_linear_id();                                                       \
  const uint max = get_max_sub_group_size();                                                       \
  const size_t g = (group_of(0) * get_num_sub_groups() + get_sub_group_id()) * 15 * max;          \
  const global uint *p = in + g;                                                                   \
  global uint *q = out + g;                                                                        \
  const uint a = intel_sub_group_block_read(p);                                                    \
  const uint2 b = intel_sub_group_block_read2(p + max);                                            \
  const uint4 c = intel_sub_group_block_read4(p + 3 * max);                                        \
  const uint8 d = intel_sub_group_block_read8(p + 7 * max);                                        \
  global uint *r = rd + gid * 15;                                                                  \
  r[0] = a;                                                                                        \
  vstore2(b, 0, r + 1);                                                                            \
  vstore4(c, 0, r + 3);                                                                            \
  vstore8(d, 0, r + 7);                                                                            \
  intel_sub_group_block_write(q, ~a);                                                              \
  intel_sub_group_block_write2(q + max, ~b);                                                       \
  intel_sub_group_block_write4(q + 3 * max, ~c);                                                   \
  intel_sub_group_block_write8(q + 7 * max, ~d);                                                   \
  /* the same with ushort (cl_intel_subgroups_short) */                                            \
  const global ushort *ps = ins + g;                                                               \
  global ushort *qs = outs + g;                                                                    \
  const ushort as = intel_sub_group_block_read_us(ps);                                             \
  const ushort2 bs = intel_sub_group_block_read_us2(ps + max);                                     \
  const ushort4 cs = intel_sub_group_block_read_us4(ps + 3 * max);                                 \
  const ushort8 ds = intel_sub_group_block_read_us8(ps + 7 * max);                                 \
  global ushort *rs = rds + gid * 15;                                                              \
  rs[0] = as;                                                                                      \
  vstore2(bs, 0, rs + 1);                                                                          \
  vstore4(cs, 0, rs + 3);                                                                          \
  vstore8(ds, 0, rs + 7);                                                                          \
  intel_sub_group_block_write_us(qs, ~as);                                                         \
  intel_sub_group_block_write_us2(qs + max, ~bs);                                                  \
  intel_sub_group_block_write_us4(qs + 3 * max, ~cs);                                              \
  intel_sub_group_block_write_us8(qs + 7 * max, ~ds);
#define BLOCK_ARGS                                                                                 \
  global const uint *in, global uint *out, global uint *rd, global const ushort *ins,              \
      global ushort *outs, global ushort *rds, global uint *info
kernel void block(BLOCK_ARGS) { BLOCK_BODY }
__attribute__((intel_reqd_sub_group_size(8))) kernel void block8(BLOCK_ARGS) { BLOCK_BODY }
__attribute__((intel_reqd_sub_group_size(16))) kernel void block16(BLOCK_ARGS) { BLOCK_BODY }
__attribute__((intel_reqd_sub_group_size(32))) kernel void block32(BLOCK_ARGS) { BLOCK_BODY }

// SPDX-License-Identifier: Apache-2.0
