// Sub-group built-ins (OpenCL C 3.0 6.15.16, cl_khr_subgroups and the
// cl_khr_subgroup_* extensions), checked by tests/kernels/subgroup_test.cpp.
// Every kernel records the sub-group built-ins of each work-item (record())
// so that the test derives the partition into sub-groups from them and
// computes every expected result with a reference model of that partition.
// Divergent parts run in odd lanes only, in loops with per-lane trip counts
// (ctl & 0xff) and after an early return of the lanes with ctl >> 8 != 0.
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

// A lane id that is the same for the whole sub-group and exists in it.
uint clamp_lane(uint lane) { return min(lane, get_sub_group_size() - 1); }
// An odd lane id, the same for the whole sub-group, that exists in it when
// the sub-group has an odd lane.
uint odd_lane(uint lane) {
  const uint l = clamp_lane(lane) | 1u;
  return l < get_sub_group_size() ? l : l - 2;
}

kernel void ids(global uint *info) { record(info); }

// ---- cl_khr_subgroups (+ extended types): all work-items take part -----------
// a: small values (sums are exact), m: any values.
#define UNIFORM_KERNEL(T)                                                                          \
  kernel void uniform_##T(global const T *a, global const T *m, global T *out,                    \
                          global uint *info, uint lane) {                                          \
    record(info);                                                                                  \
    global T *o = out + get_global_linear_id() * 10;                                               \
    const T x = a[get_global_linear_id()], y = m[get_global_linear_id()];                          \
    o[0] = sub_group_broadcast(y, clamp_lane(lane));                                               \
    o[1] = sub_group_reduce_add(x);                                                                \
    o[2] = sub_group_reduce_min(y);                                                                \
    o[3] = sub_group_reduce_max(y);                                                                \
    o[4] = sub_group_scan_inclusive_add(x);                                                        \
    o[5] = sub_group_scan_inclusive_min(y);                                                        \
    o[6] = sub_group_scan_inclusive_max(y);                                                        \
    o[7] = sub_group_scan_exclusive_add(x);                                                        \
    o[8] = sub_group_scan_exclusive_min(y);                                                        \
    o[9] = sub_group_scan_exclusive_max(y);                                                        \
  }

// ---- cl_khr_subgroup_shuffle(_relative): uniform and divergent ----------------
// s: per-lane selector (index, mask and delta); ctl: trip count | return << 8.
// Slots: 0-6 all lanes, 7-10 odd lanes, 11-12 values after loops of shuffles
// with per-lane trip counts, 16 a shuffle after those loops, 13-15 shuffles
// after an early return.
#define SHUFFLE_KERNEL(T)                                                                          \
  kernel void shuffle_##T(global const T *in, global const uint *sel, global const uint *ctl,     \
                          global T *out, global uint *info) {                                     \
    record(info);                                                                                  \
    const size_t gid = get_global_linear_id();                                                     \
    global T *o = out + gid * 17;                                                                  \
    const T x = in[gid];                                                                           \
    const uint s = sel[gid], size = get_sub_group_size(), lane = get_sub_group_local_id();         \
    const uint index = s % size, mask = (s >> 8) % get_max_sub_group_size(),                       \
               delta = (s >> 16) % size;                                                           \
    o[0] = sub_group_shuffle(x, index);                                                            \
    o[1] = sub_group_shuffle_xor(x, mask);                                                         \
    o[2] = sub_group_shuffle_up(x, delta);                                                         \
    o[3] = sub_group_shuffle_down(x, delta);                                                       \
    o[4] = sub_group_shuffle_up(x, 1);                                                             \
    o[5] = sub_group_shuffle_down(x, 1);                                                           \
    o[6] = sub_group_shuffle_xor(x, 1);                                                            \
    if (lane % 2) {                                                                                \
      o[7] = sub_group_shuffle_xor(x, 2);                                                          \
      o[8] = sub_group_shuffle(x, index | 1);                                                      \
      o[9] = sub_group_shuffle_up(x, 2);                                                           \
      o[10] = sub_group_shuffle_down(x, 2);                                                        \
    }                                                                                              \
    const uint trips = ctl[gid] & 0xff;                                                            \
    T p = x, q = x;                                                                                \
    for (uint k = 0; k < trips; ++k) {                                                             \
      p = sub_group_shuffle_xor(p, 1u << (k % 3));                                                 \
      q = (k % 2) ? sub_group_shuffle_up(q, k) : sub_group_shuffle_down(q, k + 1);                 \
    }                                                                                              \
    o[11] = p;                                                                                     \
    o[12] = q;                                                                                     \
    o[16] = sub_group_shuffle_down(x, 1);                                                          \
    if (ctl[gid] >> 8)                                                                             \
      return;                                                                                      \
    o[13] = sub_group_shuffle(x, index);                                                           \
    o[14] = sub_group_shuffle_down(x, 1);                                                          \
    o[15] = sub_group_shuffle_up(x, 1);                                                            \
  }

// ---- shuffles by a kernel argument: one index for every lane ----------------
// Slots: 0 shuffle(x, m), 1 shuffle_xor(x, m), 2 shuffle_up(x, m),
// 3 shuffle_down(x, m), 4 shuffle_xor(x, m % max) (defined whatever m is).
#define SHUFFLE_ARGUMENT_KERNEL(T)                                                                 \
  kernel void shuffle_argument_##T(global const T *in, uint m, global T *out, global uint *info) { \
    record(info);                                                                                  \
    const size_t gid = get_global_linear_id();                                                     \
    const T x = in[gid];                                                                           \
    global T *o = out + gid * 5;                                                                   \
    o[0] = sub_group_shuffle(x, m);                                                                \
    o[1] = sub_group_shuffle_xor(x, m);                                                            \
    o[2] = sub_group_shuffle_up(x, m);                                                             \
    o[3] = sub_group_shuffle_down(x, m);                                                           \
    o[4] = sub_group_shuffle_xor(x, m % get_max_sub_group_size());                                 \
  }

// ---- cl_khr_subgroup_non_uniform_arithmetic ---------------------------------
// a: small values (add), p: factors (mul), m: any values (min, max, bitwise).
// Slots: [0, 21) all lanes, [21, 42) odd lanes, each op as reduce, inclusive
// scan, exclusive scan in the order add mul min max and or xor; [42, 54)
// iteration k < trips of a loop: reduce_add(a), scan_inclusive_add(a),
// scan_exclusive_max(m).
#define NU3(o, base, OP, v)                                                                        \
  o[(base) + 0] = sub_group_non_uniform_reduce_##OP(v);                                            \
  o[(base) + 1] = sub_group_non_uniform_scan_inclusive_##OP(v);                                    \
  o[(base) + 2] = sub_group_non_uniform_scan_exclusive_##OP(v);
#define NU_ARITH(o, base)                                                                          \
  NU3(o, base + 0, add, a) NU3(o, base + 3, mul, p) NU3(o, base + 6, min, m)                       \
      NU3(o, base + 9, max, m)
#define NU_BITS(o, base) NU3(o, base + 12, and, m) NU3(o, base + 15, or, m) NU3(o, base + 18, xor, m)
#define NU_LOOP(o)                                                                                 \
  for (uint k = 0; k < (ctl[gid] & 0xff); ++k) {                                                   \
    o[42 + 3 * k] = sub_group_non_uniform_reduce_add(a);                                           \
    o[43 + 3 * k] = sub_group_non_uniform_scan_inclusive_add(a);                                   \
    o[44 + 3 * k] = sub_group_non_uniform_scan_exclusive_max(m);                                   \
  }
#define NONUNIFORM_KERNEL(T, BITS)                                                                 \
  kernel void nonuniform_##T(global const T *A, global const T *P, global const T *M,             \
                             global const uint *ctl, global T *out, global uint *info) {           \
    record(info);                                                                                  \
    const size_t gid = get_global_linear_id();                                                     \
    global T *o = out + gid * 54;                                                                  \
    const T a = A[gid], p = P[gid], m = M[gid];                                                    \
    NU_ARITH(o, 0)                                                                                 \
    BITS(o, 0)                                                                                     \
    if (get_sub_group_local_id() % 2) {                                                            \
      NU_ARITH(o, 21)                                                                              \
      BITS(o, 21)                                                                                  \
    }                                                                                              \
    NU_LOOP(o)                                                                                     \
  }
#define NO_BITS(o, base)

// Logical operations on int predicates (any non-zero value is true). Slots
// [0, 9) all lanes, [9, 18) odd lanes (and, or, xor; each reduce, inclusive,
// exclusive), [18, 30) iteration k of the loop: reduce_logical_or,
// scan_inclusive_logical_and, scan_exclusive_logical_xor.
#define NUL3(o, base, OP)                                                                          \
  o[(base) + 0] = sub_group_non_uniform_reduce_logical_##OP(q);                                    \
  o[(base) + 1] = sub_group_non_uniform_scan_inclusive_logical_##OP(q);                            \
  o[(base) + 2] = sub_group_non_uniform_scan_exclusive_logical_##OP(q);
kernel void nonuniform_logical(global const int *Q, global const uint *ctl, global int *out,
                               global uint *info) {
  record(info);
  const size_t gid = get_global_linear_id();
  global int *o = out + gid * 30;
  const int q = Q[gid];
  NUL3(o, 0, and) NUL3(o, 3, or) NUL3(o, 6, xor)
  if (get_sub_group_local_id() % 2) {
    NUL3(o, 9, and) NUL3(o, 12, or) NUL3(o, 15, xor)
  }
  for (uint k = 0; k < (ctl[gid] & 0xff); ++k) {
    o[18 + 3 * k] = sub_group_non_uniform_reduce_logical_or(q);
    o[19 + 3 * k] = sub_group_non_uniform_scan_inclusive_logical_and(q);
    o[20 + 3 * k] = sub_group_non_uniform_scan_exclusive_logical_xor(q);
  }
}

// ---- cl_khr_subgroup_clustered_reduce -----------------------------------------
// Slot 7 * op + c holds the reduction with cluster size 1 << c, op in the order
// add mul min max and or xor logical_and logical_or logical_xor; [70, 77) and
// [77, 84) add and max in odd lanes. Cluster sizes above the maximum
// sub-group size are undefined: those calls are skipped.
#define CLUSTERS(o, base, OP, v)                                                                   \
  {                                                                                                \
    const uint mx = get_max_sub_group_size();                                                      \
    o[(base) + 0] = sub_group_clustered_reduce_##OP(v, 1);                                         \
    if (mx >= 2) o[(base) + 1] = sub_group_clustered_reduce_##OP(v, 2);                            \
    if (mx >= 4) o[(base) + 2] = sub_group_clustered_reduce_##OP(v, 4);                            \
    if (mx >= 8) o[(base) + 3] = sub_group_clustered_reduce_##OP(v, 8);                            \
    if (mx >= 16) o[(base) + 4] = sub_group_clustered_reduce_##OP(v, 16);                          \
    if (mx >= 32) o[(base) + 5] = sub_group_clustered_reduce_##OP(v, 32);                          \
    if (mx >= 64) o[(base) + 6] = sub_group_clustered_reduce_##OP(v, 64);                          \
  }
#define CLUSTER_BITS(o) CLUSTERS(o, 28, and, m) CLUSTERS(o, 35, or, m) CLUSTERS(o, 42, xor, m)
#define CLUSTER_LOGICAL(o)                                                                         \
  CLUSTERS(o, 49, logical_and, q) CLUSTERS(o, 56, logical_or, q) CLUSTERS(o, 63, logical_xor, q)
#define CLUSTERED_KERNEL(T, EXTRA)                                                                 \
  kernel void clustered_##T(global const T *A, global const T *P, global const T *M,              \
                            global T *out, global uint *info) {                                    \
    record(info);                                                                                  \
    const size_t gid = get_global_linear_id();                                                     \
    global T *o = out + gid * 84;                                                                  \
    const T a = A[gid], p = P[gid], m = M[gid];                                                    \
    const int q = (int)(m & 7);                                                                    \
    CLUSTERS(o, 0, add, a) CLUSTERS(o, 7, mul, p) CLUSTERS(o, 14, min, m) CLUSTERS(o, 21, max, m)  \
    EXTRA(o)                                                                                       \
    if (get_sub_group_local_id() % 2) {                                                            \
      CLUSTERS(o, 70, add, a) CLUSTERS(o, 77, max, m)                                              \
    }                                                                                              \
  }
#define CLUSTERED_FLOAT_KERNEL(T)                                                                  \
  kernel void clustered_##T(global const T *A, global const T *P, global const T *M,              \
                            global T *out, global uint *info) {                                    \
    record(info);                                                                                  \
    const size_t gid = get_global_linear_id();                                                     \
    global T *o = out + gid * 84;                                                                  \
    const T a = A[gid], p = P[gid], m = M[gid];                                                    \
    CLUSTERS(o, 0, add, a) CLUSTERS(o, 7, mul, p) CLUSTERS(o, 14, min, m) CLUSTERS(o, 21, max, m)  \
    if (get_sub_group_local_id() % 2) {                                                            \
      CLUSTERS(o, 70, add, a) CLUSTERS(o, 77, max, m)                                              \
    }                                                                                              \
  }
#define CLUSTER_INT_EXTRA(o) CLUSTER_BITS(o) CLUSTER_LOGICAL(o)

#define INTEGER_TYPES(X) X(char) X(uchar) X(short) X(ushort) X(int) X(uint) X(long) X(ulong)
#define FLOAT_TYPES(X) X(float) X(double) X(half)

INTEGER_TYPES(UNIFORM_KERNEL)
FLOAT_TYPES(UNIFORM_KERNEL)
INTEGER_TYPES(SHUFFLE_KERNEL)
FLOAT_TYPES(SHUFFLE_KERNEL)
INTEGER_TYPES(SHUFFLE_ARGUMENT_KERNEL)
FLOAT_TYPES(SHUFFLE_ARGUMENT_KERNEL)
#define NONUNIFORM_INT(T) NONUNIFORM_KERNEL(T, NU_BITS)
#define NONUNIFORM_FLOAT(T) NONUNIFORM_KERNEL(T, NO_BITS)
INTEGER_TYPES(NONUNIFORM_INT)
FLOAT_TYPES(NONUNIFORM_FLOAT)
CLUSTERED_KERNEL(int, CLUSTER_INT_EXTRA)
#define CLUSTERED_BITS_ONLY(T) CLUSTERED_KERNEL(T, CLUSTER_BITS)
CLUSTERED_BITS_ONLY(char) CLUSTERED_BITS_ONLY(uchar) CLUSTERED_BITS_ONLY(short)
CLUSTERED_BITS_ONLY(ushort) CLUSTERED_BITS_ONLY(uint) CLUSTERED_BITS_ONLY(long)
CLUSTERED_BITS_ONLY(ulong)
FLOAT_TYPES(CLUSTERED_FLOAT_KERNEL)

// ---- broadcasts of vectors (extended types, ballot) ----------------------------
#define VECTOR_KERNEL(T)                                                                           \
  kernel void vector_##T(global const T *in, global T *out, global uint *info, uint lane) {       \
    record(info);                                                                                  \
    const size_t gid = get_global_linear_id();                                                     \
    const T x = in[gid];                                                                           \
    out[2 * gid] = sub_group_broadcast(x, clamp_lane(lane));                                       \
    if (get_sub_group_local_id() % 2)                                                              \
      out[2 * gid + 1] = sub_group_non_uniform_broadcast(x, odd_lane(lane));                       \
  }
VECTOR_KERNEL(char16)
VECTOR_KERNEL(uchar2)
VECTOR_KERNEL(short3)
VECTOR_KERNEL(int4)
VECTOR_KERNEL(long2)
VECTOR_KERNEL(float3)
VECTOR_KERNEL(double4)
VECTOR_KERNEL(half8)

// ---- cl_khr_subgroup_ballot ------------------------------------------------------
// p: predicates, x: values and per-lane indices, v: a value uniform for the
// whole dispatch, lane: a lane id uniform for the dispatch. Slots (uint):
//  0- 3 ballot(p)            4 inverse_ballot(b)      5 bit_extract(b, x % size)
//  6 bit_count(b)            7 inclusive_scan(b)      8 exclusive_scan(b)
//  9 find_lsb(b)            10 find_msb(b)           11-17 the same 7 on v
// 18-21 eq mask  22-25 ge  26-29 gt  30-33 le  34-37 lt
// 38 broadcast_first(x)     39 non_uniform_broadcast(x, lane)
// odd lanes: 40-43 ballot(p) 44 broadcast_first(x)  45 non_uniform_broadcast(x, odd lane)
//            46 find_lsb(odd ballot)  47 inclusive_scan(odd ballot)
// loop iteration k < trips: 48 + k broadcast_first(x), 52 + k bit_count(ballot(p))
#define STORE4(o, i, v) (o[(i)] = (v).x, o[(i) + 1] = (v).y, o[(i) + 2] = (v).z, o[(i) + 3] = (v).w)
#define BALLOT_OPS(o, base, b)                                                                     \
  o[(base) + 0] = sub_group_inverse_ballot(b);                                                     \
  o[(base) + 1] = sub_group_ballot_bit_extract(b, x % get_sub_group_size());                       \
  o[(base) + 2] = sub_group_ballot_bit_count(b);                                                   \
  o[(base) + 3] = sub_group_ballot_inclusive_scan(b);                                              \
  o[(base) + 4] = sub_group_ballot_exclusive_scan(b);                                              \
  o[(base) + 5] = sub_group_ballot_find_lsb(b);                                                    \
  o[(base) + 6] = sub_group_ballot_find_msb(b);
kernel void ballot(global const int *P, global const uint *X, global const uint *ctl,
                   global uint *out, global uint *info, uint4 v, uint lane) {
  record(info);
  const size_t gid = get_global_linear_id();
  global uint *o = out + gid * 56;
  const int p = P[gid];
  const uint x = X[gid];
  const uint4 b = sub_group_ballot(p);
  STORE4(o, 0, b);
  BALLOT_OPS(o, 4, b)
  BALLOT_OPS(o, 11, v)
  STORE4(o, 18, get_sub_group_eq_mask());
  STORE4(o, 22, get_sub_group_ge_mask());
  STORE4(o, 26, get_sub_group_gt_mask());
  STORE4(o, 30, get_sub_group_le_mask());
  STORE4(o, 34, get_sub_group_lt_mask());
  o[38] = sub_group_broadcast_first(x);
  o[39] = sub_group_non_uniform_broadcast(x, clamp_lane(lane));
  if (get_sub_group_local_id() % 2) {
    const uint4 c = sub_group_ballot(p);
    STORE4(o, 40, c);
    o[44] = sub_group_broadcast_first(x);
    o[45] = sub_group_non_uniform_broadcast(x, odd_lane(lane));
    o[46] = sub_group_ballot_find_lsb(c);
    o[47] = sub_group_ballot_inclusive_scan(c);
  }
  for (uint k = 0; k < (ctl[gid] & 0xff); ++k) {
    o[48 + k] = sub_group_broadcast_first(x);
    o[52 + k] = sub_group_ballot_bit_count(sub_group_ballot(p));
  }
}

// ---- votes: cl_khr_subgroups all/any, cl_khr_subgroup_non_uniform_vote --------
// p: predicates, v: int values, f: float values. Slots (int):
//  0 all(p)  1 any(p)  2 elect()  3 non_uniform_all(p)  4 non_uniform_any(p)
//  5 all_equal(v) 6 (float)f 7 (uchar)v 8 (short)v 9 (ulong)v << 33 | v
// 10 (double)f 11 (half)f
// odd lanes: 12 elect 13 non_uniform_all(p) 14 non_uniform_any(p) 15 all_equal(v)
//            16 all_equal(f)
// loop: 17 bit k set when elected in iteration k, 18 bit k set when
//       non_uniform_all(p) in iteration k, 19 bit k when all_equal(v)
// after an early return: 20 elect 21 all_equal(v) 22 non_uniform_any(p)
// after the loop (all lanes): 23 elect 24 all_equal(v)
kernel void vote(global const int *P, global const int *V, global const float *F,
                 global const uint *ctl, global int *out, global uint *info) {
  record(info);
  const size_t gid = get_global_linear_id();
  global int *o = out + gid * 25;
  const int p = P[gid], v = V[gid];
  const float f = F[gid];
  o[0] = sub_group_all(p);
  o[1] = sub_group_any(p);
  o[2] = sub_group_elect();
  o[3] = sub_group_non_uniform_all(p);
  o[4] = sub_group_non_uniform_any(p);
  o[5] = sub_group_non_uniform_all_equal(v);
  o[6] = sub_group_non_uniform_all_equal(f);
  o[7] = sub_group_non_uniform_all_equal((uchar)v);
  o[8] = sub_group_non_uniform_all_equal((short)v);
  o[9] = sub_group_non_uniform_all_equal((ulong)(uint)v << 33 | (ulong)(uint)v);
  o[10] = sub_group_non_uniform_all_equal((double)f);
  o[11] = sub_group_non_uniform_all_equal((half)f);
  if (get_sub_group_local_id() % 2) {
    o[12] = sub_group_elect();
    o[13] = sub_group_non_uniform_all(p);
    o[14] = sub_group_non_uniform_any(p);
    o[15] = sub_group_non_uniform_all_equal(v);
    o[16] = sub_group_non_uniform_all_equal(f);
  }
  int elected = 0, all = 0, equal = 0;
  for (uint k = 0; k < (ctl[gid] & 0xff); ++k) {
    if (sub_group_elect())
      elected |= 1 << k;
    if (sub_group_non_uniform_all(p))
      all |= 1 << k;
    if (sub_group_non_uniform_all_equal(v))
      equal |= 1 << k;
  }
  o[17] = elected;
  o[18] = all;
  o[19] = equal;
  o[23] = sub_group_elect();
  o[24] = sub_group_non_uniform_all_equal(v);
  if (ctl[gid] >> 8)
    return;
  o[20] = sub_group_elect();
  o[21] = sub_group_non_uniform_all_equal(v);
  o[22] = sub_group_non_uniform_any(p);
}

// ---- a mix of operations, with and without a required sub-group size ---------
// x: values, s: selector, a: small values, p: predicates. Slots (int):
//  0 shuffle(x, s % size)  1 shuffle_xor(x, (s >> 8) % max)
//  2 shuffle_up(x, (s >> 16) % size)  3 shuffle_down(x, same)  4 broadcast(x, lane)
//  5 reduce_add(a)  6 scan_inclusive_add(a)  7 scan_exclusive_max(x)
//  8-11 ballot(p)  12 all(p)  13 any(p)  14 clustered_reduce_add(a, 8)
// odd lanes: 15 non_uniform_reduce_add(a)  16 shuffle_xor(x, 2)
//            17 non_uniform_scan_exclusive_add(a)  18 elect()
#define MIX_BODY                                                                                   \
  record(info);                                                                                    \
  const size_t gid = get_global_linear_id();                                                       \
  global int *o = out + gid * 19;                                                                  \
  const int x = X[gid], a = A[gid], p = P[gid];                                                    \
  const uint s = S[gid], size = get_sub_group_size();                                              \
  o[0] = sub_group_shuffle(x, s % size);                                                           \
  o[1] = sub_group_shuffle_xor(x, (s >> 8) % get_max_sub_group_size());                            \
  o[2] = sub_group_shuffle_up(x, (s >> 16) % size);                                                \
  o[3] = sub_group_shuffle_down(x, (s >> 16) % size);                                              \
  o[4] = sub_group_broadcast(x, clamp_lane(lane));                                                 \
  o[5] = sub_group_reduce_add(a);                                                                  \
  o[6] = sub_group_scan_inclusive_add(a);                                                          \
  o[7] = sub_group_scan_exclusive_max(x);                                                          \
  STORE4(o, 8, sub_group_ballot(p));                                                               \
  o[12] = sub_group_all(p);                                                                        \
  o[13] = sub_group_any(p);                                                                        \
  o[14] = sub_group_clustered_reduce_add(a, 8);                                                    \
  if (get_sub_group_local_id() % 2) {                                                              \
    o[15] = sub_group_non_uniform_reduce_add(a);                                                   \
    o[16] = sub_group_shuffle_xor(x, 2);                                                           \
    o[17] = sub_group_non_uniform_scan_exclusive_add(a);                                           \
    o[18] = sub_group_elect();                                                                     \
  }
#define MIX_ARGS                                                                                   \
  global const int *X, global const uint *S, global const int *A, global const int *P,            \
      global int *out, global uint *info, uint lane
kernel void mix(MIX_ARGS) { MIX_BODY }
__attribute__((intel_reqd_sub_group_size(8))) kernel void mix8(MIX_ARGS) { MIX_BODY }
__attribute__((intel_reqd_sub_group_size(16))) kernel void mix16(MIX_ARGS) { MIX_BODY }
__attribute__((intel_reqd_sub_group_size(32))) kernel void mix32(MIX_ARGS) { MIX_BODY }
__attribute__((intel_reqd_sub_group_size(64))) kernel void mix64(MIX_ARGS) { MIX_BODY }

// SPDX-License-Identifier: Apache-2.0
