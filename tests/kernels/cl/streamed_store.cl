// Stores of one lane-wise operation on values loaded for it alone, all
// through pointers that step by one element from work-item to work-item:
// Lanewise runs each as one pass over memory when a warp's work-items all
// take part (spirv/lower_stream.cpp, runtime/exec_affine.cpp), and as its
// loads, operation and store otherwise. The expected results follow the
// OpenCL C operators, computed in tests/kernels/streamed_store_test.cpp.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// Every operation of both operands loaded.
#define BINARY(T, NAME, OP)                                                                        \
  kernel void NAME##_##T(global const T *a, global const T *b, global T *c) {                      \
    const size_t i = get_global_id(0);                                                             \
    c[i] = a[i] OP b[i];                                                                           \
  }

#define STREAMED(T)                                                                                \
  BINARY(T, add, +)                                                                                \
  BINARY(T, sub, -)                                                                                \
  BINARY(T, mul, *)                                                                                \
  /* A bounds test: the last warp's work-items from n on skip the store. */                      \
  kernel void bounded_##T(global const T *a, global const T *b, global T *c, uint n) {            \
    const size_t i = get_global_id(0);                                                             \
    if (i < n)                                                                                     \
      c[i] = b[i] - a[i];                                                                          \
  }                                                                                                \
  /* A uniform operand on either side. */                                                          \
  kernel void scaled_##T(global const T *a, T k, global T *c) {                                   \
    const size_t i = get_global_id(0);                                                             \
    c[i] = k * a[i];                                                                               \
  }                                                                                                \
  kernel void offset_##T(global const T *a, T k, global T *c) {                                   \
    const size_t i = get_global_id(0);                                                             \
    c[i] = a[i] - k;                                                                               \
    c[i + get_global_size(0)] = k - a[i];                                                          \
  }                                                                                                \
  /* The result over one of the operands. */                                                       \
  kernel void in_place_##T(global T *c, global const T *b) {                                      \
    const size_t i = get_global_id(0);                                                             \
    c[i] = c[i] + b[i];                                                                            \
  }                                                                                                \
  /* Operands and result at other offsets (not aligned alike). */                                  \
  kernel void shifted_##T(global const T *a, global const T *b, global T *c) {                    \
    const size_t i = get_global_id(0);                                                             \
    c[i + 3] = a[i + 1] * b[i + 2];                                                                \
  }                                                                                                \
  /* Some work-items of each warp only. */                                                         \
  kernel void divergent_##T(global const T *a, global const T *b, global T *c) {                  \
    const size_t i = get_global_id(0);                                                             \
    if (i % 3 != 1)                                                                                \
      c[i] = a[i] + b[i];                                                                          \
  }                                                                                                \
  /* A stride of two elements for one operand and the result. */                                  \
  kernel void strided_##T(global const T *a, global const T *b, global T *c) {                    \
    const size_t i = get_global_id(0);                                                             \
    c[2 * i] = a[2 * i] - b[i];                                                                    \
  }                                                                                                \
  /* An operand read again: the load is not the operation's alone. */                            \
  kernel void reread_##T(global const T *a, global const T *b, global T *c) {                     \
    const size_t i = get_global_id(0);                                                             \
    const T x = a[i];                                                                              \
    c[i] = x + b[i];                                                                               \
    c[i + get_global_size(0)] = x * b[i];                                                          \
  }                                                                                                \
  /* Rows of a 2D range: in a warp of several rows, one run of elements */                      \
  /* a row, or one for the warp when the rows are as wide as the range. */                        \
  kernel void grid_##T(global const T *a, global const T *b, global T *c, uint width) {          \
    const size_t x = get_global_id(0), y = get_global_id(1);                                       \
    c[y * width + x] = a[y * width + x] * b[y * width + x];                                        \
  }                                                                                                \
  /* Into __local memory, read back reversed after a barrier. */                                  \
  kernel void local_##T(global const T *a, global const T *b, global T *c, local T *scratch) {    \
    const size_t i = get_global_id(0), l = get_local_id(0), n = get_local_size(0);                 \
    scratch[l] = a[i] - b[i];                                                                      \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    c[i] = scratch[n - 1 - l];                                                                     \
  }

// Expressions of several operations, and stores of vectors in memory order
// (vloadn and vstoren, vector pointers), which stream whole when every
// work-item of the warp takes part.
#define EXPRESSIONS(T)                                                                             \
  /* Three loads, a uniform, three operations. */                                                 \
  kernel void chain_##T(global const T *a, global const T *b, global const T *d, T k,            \
                        global T *c) {                                                             \
    const size_t i = get_global_id(0);                                                             \
    c[i] = (a[i] + b[i]) * k - d[i];                                                               \
  }                                                                                                \
  /* One uniform twice. */                                                                         \
  kernel void twice_##T(global const T *a, T k, global T *c) {                                    \
    const size_t i = get_global_id(0);                                                             \
    c[i] = a[i] * k + k;                                                                           \
  }                                                                                                \
  /* More operations than one streamed store computes. */                                         \
  kernel void deep_##T(global const T *a, global const T *b, T k, global T *c) {                  \
    const size_t i = get_global_id(0);                                                             \
    c[i] = ((((((a[i] + k) * k) - b[i]) + k) * k) - k) + b[i + 1];                                 \
  }                                                                                                \
  /* A load read twice. */                                                                         \
  kernel void square_##T(global const T *a, global T *c) {                                        \
    const size_t i = get_global_id(0);                                                             \
    const T x = a[i];                                                                              \
    c[i] = x * x;                                                                                  \
  }                                                                                                \
  kernel void copy_##T(global const T *a, global T *c) {                                          \
    const size_t i = get_global_id(0);                                                             \
    c[i + 2] = a[i];                                                                               \
  }                                                                                                \
  kernel void saxpy2_##T(T k, global const T *x, global const T *y, global T *out) {              \
    const size_t i = get_global_id(0);                                                             \
    vstore2(k * vload2(i, x) + vload2(i, y), i, out);                                              \
  }                                                                                                \
  kernel void saxpy3_##T(T k, global const T *x, global const T *y, global T *out) {              \
    const size_t i = get_global_id(0);                                                             \
    vstore3(k * vload3(i, x) + vload3(i, y), i, out);                                              \
  }                                                                                                \
  kernel void saxpy4_##T(T k, global const T *x, global const T *y, global T *out) {              \
    const size_t i = get_global_id(0);                                                             \
    vstore4(k * vload4(i, x) + vload4(i, y), i, out);                                              \
  }                                                                                                \
  kernel void saxpy8_##T(T k, global const T *x, global const T *y, global T *out) {              \
    const size_t i = get_global_id(0);                                                             \
    vstore8(k * vload8(i, x) + vload8(i, y), i, out);                                              \
  }                                                                                                \
  kernel void saxpy16_##T(T k, global const T *x, global const T *y, global T *out) {             \
    const size_t i = get_global_id(0);                                                             \
    vstore16(k * vload16(i, x) + vload16(i, y), i, out);                                           \
  }                                                                                                \
  /* Through vector pointers. */                                                                   \
  kernel void pointers4_##T(global const T##4 *a, global const T##4 *b, global T##4 *c) {         \
    const size_t i = get_global_id(0);                                                             \
    c[i] = a[i] - b[i];                                                                            \
  }                                                                                                \
  kernel void copy4_##T(global const T *a, global T *c) {                                         \
    const size_t i = get_global_id(0);                                                             \
    vstore4(vload4(i, a), i, c);                                                                   \
  }                                                                                                \
  /* The vectors one element into the buffers, and the result three. */                           \
  kernel void shifted4_##T(global const T *a, global const T *b, global T *c) {                   \
    const size_t i = get_global_id(0);                                                             \
    vstore4(vload4(i, a + 1) * vload4(i, b + 2), i, c + 3);                                        \
  }                                                                                                \
  kernel void in_place4_##T(global T *c, global const T *b) {                                     \
    const size_t i = get_global_id(0);                                                             \
    vstore4(vload4(i, c) + vload4(i, b), i, c);                                                    \
  }                                                                                                \
  kernel void bounded4_##T(global const T *a, global const T *b, global T *c, uint n) {           \
    const size_t i = get_global_id(0);                                                             \
    if (i < n)                                                                                     \
      vstore4(vload4(i, b) - vload4(i, a), i, c);                                                  \
  }                                                                                                \
  kernel void divergent4_##T(global const T *a, global const T *b, global T *c) {                 \
    const size_t i = get_global_id(0);                                                             \
    if (i % 3 != 1)                                                                                \
      vstore4(vload4(i, a) + vload4(i, b), i, c);                                                  \
  }                                                                                                \
  /* A uniform vector whose components differ: not in memory order. */                            \
  kernel void unlike4_##T(global const T *a, T k, global T *c) {                                  \
    const size_t i = get_global_id(0);                                                             \
    vstore4(vload4(i, a) * (T##4)(k, k + (T)1, k + (T)2, k + (T)3), i, c);                           \
  }

STREAMED(int)
STREAMED(uint)
STREAMED(long)
STREAMED(ulong)
STREAMED(float)
STREAMED(double)

EXPRESSIONS(int)
EXPRESSIONS(uint)
EXPRESSIONS(long)
EXPRESSIONS(ulong)
EXPRESSIONS(float)
EXPRESSIONS(double)

// mad (two roundings, as Lanewise computes it and as clang writes
// `a * x + y` when it builds from source) in streamed stores, and fma (one
// rounding), which is not one of their operations.
#define FUSED(T)                                                                                   \
  kernel void mad_##T(global const T *a, T k, global const T *b, global T *c) {                    \
    const size_t i = get_global_id(0);                                                             \
    c[i] = mad(a[i], k, b[i]);                                                                     \
  }                                                                                                \
  kernel void mad4_##T(T k, global const T *x, global const T *y, global T *out) {                 \
    const size_t i = get_global_id(0);                                                             \
    vstore4(mad((T##4)(k), vload4(i, x), vload4(i, y)), i, out);                                   \
  }                                                                                                \
  /* Operations on both sides of a mad, all loaded operands varying. */                            \
  kernel void mad_chain_##T(global const T *a, global const T *b, global const T *d, T k,          \
                            global T *c) {                                                         \
    const size_t i = get_global_id(0);                                                             \
    c[i] = mad(a[i] + b[i], d[i], k) * k;                                                          \
  }                                                                                                \
  /* Four mads: more operations than one streamed store computes. */                               \
  kernel void mad_deep_##T(global const T *a, T k, global T *c) {                                  \
    const size_t i = get_global_id(0);                                                             \
    c[i] = mad(mad(mad(mad(a[i], k, k), k, k), k, k), k, k);                                       \
  }                                                                                                \
  kernel void fma_##T(global const T *a, T k, global const T *b, global T *c) {                    \
    const size_t i = get_global_id(0);                                                             \
    c[i] = fma(a[i], k, b[i]);                                                                     \
  }

FUSED(float)
FUSED(double)

BINARY(float, div, /)
BINARY(double, div, /)
BINARY(uint, and, &)
BINARY(uint, or, |)
BINARY(uint, xor, ^)
BINARY(ulong, and, &)
BINARY(ulong, or, |)
BINARY(ulong, xor, ^)

// Halves widened to floats as operands (vload_halfn of floats in memory
// order), alone or with loaded floats and a uniform.
kernel void widen4_halves(global const half *h, global float *out) {
  const size_t i = get_global_id(0);
  vstore4(vload_half4(i, h), i, out + 1);
}
kernel void scaled8_halves(float k, global const half *h, global const float *y,
                           global float *out) {
  const size_t i = get_global_id(0);
  vstore8(k * vload_half8(i, h + 1) + vload8(i, y), i, out);
}
kernel void difference3_halves(global const half *h, global const float *y, global float *out) {
  const size_t i = get_global_id(0);
  vstore3(vload_half3(i, h) - vload3(i, y), i, out);
}
kernel void bounded4_halves(global const half *h, global const float *y, global float *out,
                            uint n) {
  const size_t i = get_global_id(0);
  if (i < n)
    vstore4(vload_half4(i, h) * vload4(i, y), i, out);
}

// SPDX-License-Identifier: Apache-2.0
