// Kernels whose addresses and values are affine in the work-item id (the
// components of the global and local ids, and what adds, subtracts,
// multiplies by a uniform value, shifts or truncates them), in every element
// size and vector width, with partial work-groups, divergence, strides
// other than the element's, loops that work-items leave at different
// iterations, and 2D and 3D ranges whose warps hold whole rows.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// in[i] + 1 into out[i] for i < n, every third work-item skipped.
#define SCALAR(T)                                                                              \
  __kernel void copy_##T(__global const T *in, __global T *out, ulong n) {                     \
    const size_t i = get_global_id(0);                                                         \
    if (i < n && i % 3 != 1)                                                                   \
      out[i] = in[i] + (T)1;                                                                   \
  }                                                                                            \
  /* out[i] = in[first + i * stride], any stride (0, negative). */                             \
  __kernel void gather_##T(__global const T *in, __global T *out, long first, long stride) {   \
    const size_t i = get_global_id(0);                                                         \
    out[i] = in[first + (long)i * stride];                                                     \
  }                                                                                            \
  /* out[first + i * stride] = in[i], a positive stride. */                                    \
  __kernel void scatter_##T(__global const T *in, __global T *out, long first, long stride) {  \
    const size_t i = get_global_id(0);                                                         \
    out[first + (long)i * stride] = in[i];                                                     \
  }                                                                                            \
  /* The same value (uniform) into every out[i], and into some[i] but for i % 5 == 2. */       \
  __kernel void splat_##T(__global const T *in, __global T *out, __global T *some) {           \
    const size_t i = get_global_id(0);                                                         \
    out[i] = in[0];                                                                            \
    if (i % 5 != 2)                                                                            \
      some[i] = in[0];                                                                         \
  }
SCALAR(char)
SCALAR(short)
SCALAR(int)
SCALAR(long)
SCALAR(float)
SCALAR(double)

// Vector pointers (a 3-vector takes 16 bytes) and vloadn / vstoren (a
// vload3 takes 12), doubled, every other work-item skipped by vstore.
#define VECTOR(T, N)                                                                           \
  __kernel void vptr_##T##N(__global const T##N *in, __global T##N *out) {                     \
    const size_t i = get_global_id(0);                                                         \
    out[i] = in[i] * (T)2;                                                                     \
  }                                                                                            \
  __kernel void vload_##T##N(__global const T *in, __global T *out) {                          \
    const size_t i = get_global_id(0);                                                         \
    const T##N v = vload##N(i, in) * (T)2;                                                     \
    if (i % 2 == 0)                                                                            \
      vstore##N(v, i, out);                                                                    \
  }                                                                                            \
  /* Vectors at strides other than their size: read every third, written */                   \
  /* every other from the second. */                                                          \
  __kernel void vstride_##T##N(__global const T *in, __global T *out) {                        \
    const size_t i = get_global_id(0);                                                         \
    vstore##N(vload##N(3 * i + 1, in) + (T)1, 2 * i + 1, out);                                 \
  }                                                                                            \
  /* The same vector (uniform) at every work-item's place, and at some. */                    \
  __kernel void vsplat_##T##N(__global const T *in, __global T *out, __global T *some) {       \
    const size_t i = get_global_id(0);                                                         \
    const T##N v = vload##N(0, in);                                                            \
    vstore##N(v, i, out);                                                                      \
    if (i % 5 != 2)                                                                            \
      vstore##N(v, i, some);                                                                   \
  }
#define VECTORS(T)                                                                             \
  VECTOR(T, 2) VECTOR(T, 3) VECTOR(T, 4) VECTOR(T, 8) VECTOR(T, 16)
VECTORS(char)
VECTORS(short)
VECTORS(int)
VECTORS(long)
VECTORS(float)
VECTORS(double)

// Halves: vload_half4 and vstore_half4, vloada_half3 and vstorea_half3.
__kernel void halves4(__global const half *in, __global half *out) {
  const size_t i = get_global_id(0);
  vstore_half4(vload_half4(i, in) * 2.0f, i, out);
}
__kernel void halves_aligned3(__global const half *in, __global half *out) {
  const size_t i = get_global_id(0);
  vstorea_half3(vloada_half3(i, in) + 1.0f, i, out);
}
__kernel void halves1(__global const half *in, __global float *out) {
  const size_t i = get_global_id(0);
  out[i] = vload_half(2 * i + 1, in);
}

// Affine values as values: stored, compared, narrowed and shifted.
__kernel void values(__global ulong *wide, __global uint *narrow, __global int *flags,
                     ulong scale) {
  const size_t i = get_global_id(0);
  wide[i] = i * scale + 7;
  narrow[i] = (uint)(i << 3) - (uint)get_local_id(0);
  flags[i] = (int)i * 2 + 1 > 40;
}

// A 32-bit index, sign-extended per work-item.
__kernel void int_index(__global const float *in, __global float *out, int first) {
  const int i = (int)get_global_id(0);
  out[i] = in[first - 2 * i];
}

// Pointers as values: the address of each work-item's element.
__kernel void addresses(__global const float *in, __global ulong *out) {
  const size_t i = get_global_id(0);
  out[i] = (ulong)(in + 3 * i) - (ulong)in;
}

// __local memory: each group reversed through a __local array.
__kernel void local_reverse(__global const int *in, __global int *out) {
  __local int t[256];
  const size_t l = get_local_id(0), size = get_local_size(0);
  t[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[size - 1 - l];
}

// A value defined in a loop that work-items leave at different iterations
// and read after it.
__kernel void loop_exit(__global ulong *out, __global const ulong *in) {
  const size_t i = get_global_id(0);
  ulong last = 0;
  __global const ulong *p = in;
  for (uint k = 0; k < i % 7; ++k) {
    last = i * 5 + k;
    p = in + i + k;
  }
  out[i] = last + *p;
}

// 2D: out[y][x] = in[y][x] + y, row-major, width w.
__kernel void rows(__global const int *in, __global int *out, ulong w) {
  const size_t x = get_global_id(0), y = get_global_id(1);
  out[y * w + x] = in[y * w + x] + (int)y;
}

// Comparisons of affine values with uniform ones: a bounds test, sequences
// that wrap within a warp, falling sequences, equality; one bit each.
__kernel void compares(__global int *out, uint n, int bias) {
  const size_t i = get_global_id(0);
  int bits = 0;
  bits |= (i < n) << 0;
  bits |= ((uint)i - 5u < 10u) << 1;
  bits |= ((int)((uint)i + (uint)bias) > 3) << 2;
  bits |= ((long)(100 - i) >= 50) << 3;
  bits |= (i == 77) << 4;
  bits |= (i != n) << 5;
  bits |= ((uint)(i * 0x40000000u) <= 0x80000000u) << 6;
  bits |= ((int)(i << 28) < 0) << 7;
  out[i] = bits;
}

// Equalities of affine values with uniform ones, which hold at one lane, at
// lanes a period apart (narrow types, even strides) or at none; and the
// rows of a loop that each go to the work-item `y % stride` picks.
__kernel void equalities(__global int *out, uint n, uint rows, uint stride) {
  const size_t i = get_global_id(0);
  int bits = 0;
  bits |= (i == n) << 0;
  bits |= (i * 6 == n) << 1;
  bits |= ((uchar)i == (uchar)n) << 2;
  bits |= ((uint)(i * 0x40000000u) == n) << 3;
  bits |= ((uint)i * 3u + 7u != n) << 4;
  bits |= ((ushort)(i * 40) == (ushort)n) << 5;
  bits |= ((long)i * -5 == -(long)n) << 6;
  out[2 * i] = bits;
  int picked = 0;
  for (uint y = 0; y < rows; ++y)
    if (y % stride == i)
      picked += y + 1;
  out[2 * i + 1] = picked;
}

// Branches on comparisons of an affine value with a uniform one: taken by
// every lane of a warp, by none, or by some; after divergence; in a loop.
__kernel void branches(__global int *out, uint n, int m) {
  const size_t i = get_global_id(0);
  __global int *o = out + 5 * i; // stores, which clang keeps under their branches
  if (i < n)
    o[0] = 1;
  else
    o[1] = 2;
  if ((int)i >= m)
    o[2] = 4;
  if (i % 3 == 0) {
    if (i < n)
      o[3] = 8;
  }
  if (get_local_id(0) < n)
    o[4] += 16;
  for (uint k = 0; k < 3; ++k)
    if (i + k < n)
      o[4] += 32;
}

// 32-bit local ids widened to index __local arrays: unsigned (a tree
// reduction per group, its halving bounds) and signed (each work-item's
// left neighbour).
__kernel void local_tree(__global const int *in, __global int *sums) {
  __local int t[256];
  const uint l = get_local_id(0);
  t[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint h = get_local_size(0) / 2; h > 0; h /= 2) {
    if (l < h)
      t[l] += t[l + h];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    sums[get_group_id(0)] = t[0];
}
__kernel void local_neighbours(__global const int *in, __global int *out) {
  __local int t[257];
  const int l = (int)get_local_id(0);
  t[l + 1] = in[get_global_id(0)];
  if (l == 0)
    t[0] = -1;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[l] * 1000 + t[l + 1];
}

// 32-bit truncations of the global id, widened back: with a global offset
// near 2^31 or 2^32 they wrap within a warp, where no affine form exists.
__kernel void widened(__global ulong *zext, __global long *sext) {
  const size_t j = get_global_id(0) - get_global_offset(0);
  zext[j] = (ulong)(uint)get_global_id(0);
  sext[j] = (long)(int)get_global_id(0);
}

// Or into bits known to be zero (4i | 1 is 4i + 1), and into bits that are
// not (i | 1).
__kernel void or_index(__global const int *in, __global int *out, __global int *odd) {
  const size_t i = get_global_id(0);
  out[4 * i + 1] = in[4 * i + 3];
  odd[i] = in[i | 1];
}

// Integer products of square tiles staged in __local memory, T x T
// work-groups (T = the local size, at most 16): in the inner loop each
// work-item reads along a row of A's tile (one element for a whole row of
// work-items) and down a column of B's (the same T elements for every row).
__kernel void tiles(__global const int *A, __global const int *B, __global int *C, int n) {
  __local int As[256], Bs[256];
  const int T = (int)get_local_size(0);
  const int col = (int)get_global_id(0), row = (int)get_global_id(1);
  const int lx = (int)get_local_id(0), ly = (int)get_local_id(1);
  int acc = 0;
  for (int t = 0; t < n; t += T) {
    As[ly * T + lx] = A[row * n + t + lx];
    Bs[ly * T + lx] = B[(t + ly) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < T; ++k)
      acc += As[ly * T + k] * Bs[k * T + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = acc;
}

// 2D addresses of every shape a row-holding warp meets: contiguous rows,
// one element per row, the same row for every row, a diagonal; under
// divergence in x and in y; vectors; the local ids as values; and an
// x bound and a y bound compared as affine values.
__kernel void rows_mixed(__global const int *in, __global int *out, __global int *diagonal,
                         __global const int4 *in4, __global int4 *out4, ulong w, ulong limit) {
  const size_t x = get_global_id(0), y = get_global_id(1);
  const size_t lx = get_local_id(0), ly = get_local_id(1);
  int v = in[y * w + x] + 3 * in[y * w] + 5 * in[x];
  if (x < limit && y % 2 == 0)
    v += 1000;
  if (y + 1 < limit)
    v += 20000;
  out[y * w + x] = v + (int)(ly * 7 + lx);
  if ((x + 2 * y) % 3 != 0)
    diagonal[y * w + x] = in[x + y];
  if (x % 4 != 1)
    vstore4(vload4(y * w + x, (__global const int *)in4) * 2, y * w + x, (__global int *)out4);
}

// 3D: in + z, through addresses affine in x, y and z.
__kernel void planes(__global const int *in, __global int *out, ulong w, ulong h) {
  const size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  out[(z * h + y) * w + x] = in[(z * h + y) * w + x] + (int)(z * 100 + get_local_id(2));
}

// SPDX-License-Identifier: Apache-2.0

// 3D work-groups one row deep (X x 1 x Z): a warp's rows step in z. A
// branch on z, stores through addresses affine in x, y and z, and the
// local ids and group id as values.
__kernel void rows_in_z(__global const int *in, __global int *out, __global int4 *ids, ulong w,
                        ulong h, ulong zLimit) {
  const size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  const size_t j = (z * h + y) * w + x;
  int v = in[j];
  if (z < zLimit)
    v += 1000;
  out[j] = v + (int)(z * 100 + get_local_id(2) * 10 + get_local_id(1));
  ids[j] = (int4)((int)get_local_id(0), (int)get_local_id(1), (int)get_local_id(2),
                  (int)get_group_id(2));
}
