// Stores that write each work-item's record in parts, as vstore4(v_k,
// 4 * i + k, p) for k = 0 .. 3 does: Lanewise may write such records whole
// in one pass when a warp's work-items all take part and the parts lie one
// after another (spirv/lower_stream.cpp, runtime/exec_affine.cpp), and
// runs the stores one after another otherwise. The expected results follow
// the OpenCL C built-ins and operators, computed in
// tests/kernels/record_store_test.cpp.

#define RECORDS(T)                                                                                 \
  /* Each work-item's 4 x 4 block transposed: four vstore4 with shuffles */                      \
  /* between them. */                                                                              \
  kernel void transpose_##T(global const T *in, global T *out) {                                   \
    const size_t i = get_global_id(0);                                                             \
    const T##4 r0 = vload4(4 * i + 0, in), r1 = vload4(4 * i + 1, in);                             \
    const T##4 r2 = vload4(4 * i + 2, in), r3 = vload4(4 * i + 3, in);                             \
    const T##4 t0 = shuffle2(r0, r1, (uint4)(0, 4, 1, 5));                                         \
    const T##4 t1 = shuffle2(r0, r1, (uint4)(2, 6, 3, 7));                                         \
    const T##4 t2 = shuffle2(r2, r3, (uint4)(0, 4, 1, 5));                                         \
    const T##4 t3 = shuffle2(r2, r3, (uint4)(2, 6, 3, 7));                                         \
    const T##8 low = (T##8)(t0, t2), high = (T##8)(t1, t3);                                        \
    vstore4(shuffle(low, (uint4)(0, 1, 4, 5)), 4 * i + 0, out);                                    \
    vstore4(shuffle(low, (uint4)(2, 3, 6, 7)), 4 * i + 1, out);                                    \
    vstore4(shuffle(high, (uint4)(0, 1, 4, 5)), 4 * i + 2, out);                                   \
    vstore4(shuffle(high, (uint4)(2, 3, 6, 7)), 4 * i + 3, out);                                   \
  }                                                                                                \
  /* Scalars: a record of four elements, one store each. */                                      \
  kernel void scalars_##T(global const T *in, global T *out) {                                     \
    const size_t i = get_global_id(0);                                                             \
    const T a = in[i];                                                                             \
    out[4 * i + 0] = a;                                                                            \
    out[4 * i + 1] = a + (T)1;                                                                     \
    out[4 * i + 2] = a * (T)3;                                                                     \
    out[4 * i + 3] = a - (T)2;                                                                     \
  }                                                                                                \
  /* The parts stored from the last to the first. */                                             \
  kernel void reversed_##T(global const T *in, global T *out) {                                    \
    const size_t i = get_global_id(0);                                                             \
    const T##4 v = vload4(i, in);                                                                  \
    vstore4(v.wzyx, 4 * i + 3, out);                                                               \
    vstore4(v + (T)1, 4 * i + 2, out);                                                             \
    vstore4(v * (T)2, 4 * i + 1, out);                                                             \
    vstore4(v.yxwz, 4 * i + 0, out);                                                               \
  }                                                                                                \
  /* Two vstore2: a record of one 16-byte part. */                                               \
  kernel void halves_##T(global const T *in, global T *out) {                                      \
    const size_t i = get_global_id(0);                                                             \
    const T##4 v = vload4(i, in);                                                                  \
    vstore2(v.xy, 2 * i + 0, out);                                                                 \
    vstore2(v.wz, 2 * i + 1, out);                                                                 \
  }                                                                                                \
  /* vstore8 and vstore16 records: the largest record one pass writes is */                      \
  /* four vstore16. */                                                                             \
  kernel void wide_##T(global const T *in, global T *out8, global T *out16) {                      \
    const size_t i = get_global_id(0);                                                             \
    const T##8 v = vload8(i, in);                                                                  \
    vstore8(v, 2 * i + 0, out8);                                                                   \
    vstore8(v.s76543210, 2 * i + 1, out8);                                                         \
    const T##16 w = (T##16)(v, v + (T)1);                                                          \
    vstore16(w, 4 * i + 0, out16);                                                                 \
    vstore16(w * (T)2, 4 * i + 1, out16);                                                          \
    vstore16(w - (T)3, 4 * i + 2, out16);                                                          \
    vstore16(w.sfedcba9876543210, 4 * i + 3, out16);                                               \
  }                                                                                                \
  /* Five vstore16 are more than one record holds: the first four make */                        \
  /* one and the fifth stays alone. */                                                             \
  kernel void five_##T(global const T *in, global T *out) {                                        \
    const size_t i = get_global_id(0);                                                             \
    const T##16 w = vload16(i, in);                                                                \
    vstore16(w, 5 * i + 0, out);                                                                   \
    vstore16(w * (T)2, 5 * i + 1, out);                                                            \
    vstore16(w - (T)3, 5 * i + 2, out);                                                            \
    vstore16(w.sfedcba9876543210, 5 * i + 3, out);                                                 \
    vstore16(w + (T)5, 5 * i + 4, out);                                                            \
  }                                                                                                \
  /* Vector stores through a pointer to vectors. */                                              \
  kernel void vectors_##T(global const T##4 *in, global T##4 *out) {                               \
    const size_t i = get_global_id(0);                                                             \
    const T##4 v = in[i];                                                                          \
    out[2 * i + 0] = v.zwxy;                                                                       \
    out[2 * i + 1] = v - (T)1;                                                                     \
  }                                                                                                \
  /* The same part stored twice: the later store's values remain. */                             \
  kernel void overlap_##T(global const T *in, global T *out) {                                     \
    const size_t i = get_global_id(0);                                                             \
    const T##4 v = vload4(i, in);                                                                  \
    vstore4(v, 2 * i + 0, out);                                                                    \
    vstore4(v * (T)2, 2 * i + 0, out);                                                             \
    vstore4(v + (T)1, 2 * i + 1, out);                                                             \
    vstore4(v.wxyz, 2 * i + 1, out);                                                               \
  }                                                                                                \
  /* One part stored twice in records of two: as many bytes as the */                              \
  /* record, but the second part stays. */                                                         \
  kernel void twice_##T(global const T *in, global T *out) {                                       \
    const size_t i = get_global_id(0);                                                             \
    const T##4 v = vload4(i, in);                                                                  \
    vstore4(v.ywxz, 2 * i + 0, out);                                                               \
    vstore4(v - (T)6, 2 * i + 0, out);                                                             \
  }                                                                                                \
  /* Records three parts apart with two stored: the third stays. */                              \
  kernel void gap_##T(global const T *in, global T *out) {                                         \
    const size_t i = get_global_id(0);                                                             \
    const T##4 v = vload4(i, in);                                                                  \
    vstore4(v, 3 * i + 0, out);                                                                    \
    vstore4(v.zxyw, 3 * i + 1, out);                                                               \
  }                                                                                                \
  /* Some work-items store. */                                                                     \
  kernel void divergent_##T(global const T *in, global T *out) {                                   \
    const size_t i = get_global_id(0);                                                             \
    if (i % 3 != 1) {                                                                              \
      const T##4 v = vload4(i, in);                                                                \
      vstore4(v.yzwx, 2 * i + 0, out);                                                             \
      vstore4(v * (T)3, 2 * i + 1, out);                                                           \
    }                                                                                              \
  }                                                                                                \
  /* A bounds test: the last warp's work-items from n on skip the stores. */                     \
  kernel void bounded_##T(global const T *in, global T *out, uint n) {                             \
    const size_t i = get_global_id(0);                                                             \
    if (i < n) {                                                                                   \
      const T##4 v = vload4(i, in);                                                                \
      vstore4(v, 4 * i + 0, out);                                                                  \
      vstore4(v + (T)2, 4 * i + 1, out);                                                           \
      vstore4(v.xxyy, 4 * i + 2, out);                                                             \
      vstore4(v.zzww, 4 * i + 3, out);                                                             \
    }                                                                                              \
  }                                                                                                \
  /* Records that start one element into the buffer. */                                          \
  kernel void shifted_##T(global const T *in, global T *out) {                                     \
    const size_t i = get_global_id(0);                                                             \
    const T##4 v = vload4(i, in);                                                                  \
    global T *o = out + 1;                                                                         \
    vstore4(v.wzyx, 2 * i + 0, o);                                                                 \
    vstore4(v - (T)4, 2 * i + 1, o);                                                               \
  }                                                                                                \
  /* A load between the parts reads the first part back: the second must */                     \
  /* not move above it. */                                                                         \
  kernel void reread_##T(global const T *in, global T *out) {                                      \
    const size_t i = get_global_id(0);                                                             \
    const T##4 v = vload4(i, in);                                                                  \
    vstore4(v.yxwz, 2 * i + 0, out);                                                               \
    const T first = out[8 * i];                                                                    \
    vstore4(v + first, 2 * i + 1, out);                                                            \
  }                                                                                                \
  /* __local records, read back reversed after a barrier. */                                     \
  kernel void local_##T(global const T *in, global T *out, local T *records) {                     \
    const size_t i = get_global_id(0), l = get_local_id(0), n = get_local_size(0);                 \
    const T##4 v = vload4(i, in);                                                                  \
    vstore4(v, 2 * l + 0, records);                                                                \
    vstore4(v.wzyx, 2 * l + 1, records);                                                           \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    vstore8(vload8(n - 1 - l, records), i, out);                                                   \
  }

RECORDS(int)
RECORDS(uint)
RECORDS(float)

// SPDX-License-Identifier: Apache-2.0
