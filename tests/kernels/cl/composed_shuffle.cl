// Chains of constant permutations: shuffle2 of loaded vectors, put together
// into a wider vector, shuffled again; swizzles of swizzles; permutations
// of constants and arguments; permutations in a loop. Lanewise copies each
// component of such a chain once, from where it was first computed
// (spirv/lower_composite.cpp, findComposedSelections); the results are the
// OpenCL C definitions', computed in tests/kernels/composed_shuffle_test.cpp.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// T: the element type, M: the unsigned integer type of its size (the
// masks' element type, OpenCL C 3.0, 6.15.12).
#define COMPOSED(T, M)                                                                             \
  /* Transposes the 4 x 4 block of each work-item (16 elements, row major). */                   \
  kernel void transpose_##T(global const T *in, global T *out) {                                  \
    const size_t i = get_global_id(0);                                                             \
    const T##4 r0 = vload4(4 * i + 0, in), r1 = vload4(4 * i + 1, in);                            \
    const T##4 r2 = vload4(4 * i + 2, in), r3 = vload4(4 * i + 3, in);                            \
    const T##4 t0 = shuffle2(r0, r1, (M##4)(0, 4, 1, 5));                                          \
    const T##4 t1 = shuffle2(r0, r1, (M##4)(2, 6, 3, 7));                                          \
    const T##4 t2 = shuffle2(r2, r3, (M##4)(0, 4, 1, 5));                                          \
    const T##4 t3 = shuffle2(r2, r3, (M##4)(2, 6, 3, 7));                                          \
    const T##8 low = (T##8)(t0, t2), high = (T##8)(t1, t3);                                        \
    vstore4(shuffle(low, (M##4)(0, 1, 4, 5)), 4 * i + 0, out);                                     \
    vstore4(shuffle(low, (M##4)(2, 3, 6, 7)), 4 * i + 1, out);                                     \
    vstore4(shuffle(high, (M##4)(0, 1, 4, 5)), 4 * i + 2, out);                                    \
    vstore4(shuffle(high, (M##4)(2, 3, 6, 7)), 4 * i + 3, out);                                    \
  }                                                                                                \
  /* The transpose in the work-items whose id is not a multiple of 3; the */                     \
  /* others store their first row four times. Masks with high bits set   */                     \
  /* (only the low ones count).                                          */                     \
  kernel void divergent_##T(global const T *in, global T *out) {                                  \
    const size_t i = get_global_id(0);                                                             \
    const T##4 r0 = vload4(4 * i + 0, in), r1 = vload4(4 * i + 1, in);                            \
    const T##4 r2 = vload4(4 * i + 2, in), r3 = vload4(4 * i + 3, in);                            \
    if (i % 3 != 0) {                                                                              \
      const T##4 t0 = shuffle2(r0, r1, (M##4)(0, 4, 1, 5) | (M##4)(0xf8));                         \
      const T##4 t2 = shuffle2(r2, r3, (M##4)(0, 4, 1, 5) | (M##4)(0x18));                         \
      const T##8 low = (T##8)(t0, t2);                                                             \
      vstore4(shuffle(low, (M##4)(0, 1, 4, 5)), 4 * i + 0, out);                                   \
      vstore4(shuffle(low, (M##4)(2, 3, 6, 7) | (M##4)(0x10)), 4 * i + 1, out);                    \
      vstore4(r2, 4 * i + 2, out);                                                                 \
      vstore4(r3, 4 * i + 3, out);                                                                 \
    } else {                                                                                       \
      for (int k = 0; k < 4; ++k)                                                                  \
        vstore4(r0, 4 * i + k, out);                                                               \
    }                                                                                              \
  }                                                                                                \
  /* An intermediate also stored; swizzles of swizzles; a constant and an */                    \
  /* argument permuted with loaded vectors.                               */                    \
  kernel void mixed_##T(global const T *in, global T *out, T##4 argument) {                       \
    const size_t i = get_global_id(0);                                                             \
    const T##4 r0 = vload4(2 * i + 0, in), r1 = vload4(2 * i + 1, in);                            \
    const T##4 t = shuffle2(r0, r1, (M##4)(7, 0, 6, 1));                                           \
    const T##8 v = (T##8)(r0.wzyx, t.s3012);                                                       \
    const T##4 w = v.s7531;                                                                        \
    const T##4 c = shuffle2((T##4)(1, 2, 3, 4), r1, (M##4)(5, 0, 7, 2));                           \
    const T##8 u = (T##8)(c, argument);                                                            \
    vstore4(t, 4 * i + 0, out);                                                                    \
    vstore4(w, 4 * i + 1, out);                                                                    \
    vstore4(shuffle(u, (M##4)(6, 1, 4, 3)), 4 * i + 2, out);                                       \
    vstore4(shuffle2(argument, (T##4)(5, 6, 7, 8), (M##4)(4, 3, 6, 1)), 4 * i + 3, out);           \
  }                                                                                                \
  /* A vector permuted in a loop: each turn rotates it and takes a        */                    \
  /* component of the loaded vector, through a wider vector; the second   */                    \
  /* loop's permutation is constant, so that it reads the loop's phi.     */                    \
  kernel void loop_##T(global const T *in, global T *out, int turns) {                            \
    const size_t i = get_global_id(0);                                                             \
    const T##4 r = vload4(2 * i + 0, in);                                                          \
    T##4 acc = vload4(2 * i + 1, in);                                                              \
    for (int k = 0; k < turns + (int)(i % 4); ++k) {                                               \
      const T##4 rotated = shuffle(acc, (M##4)(1, 2, 3, 0));                                       \
      const T##8 both = (T##8)(rotated, r);                                                        \
      acc = shuffle(both, (M##4)(0, 1, 2, 4 + k % 4));                                             \
    }                                                                                              \
    for (int k = 0; k < turns + (int)(i % 3); ++k) {                                               \
      const T##4 rotated = shuffle(acc, (M##4)(3, 0, 1, 2));                                       \
      acc = shuffle((T##8)(rotated, r), (M##4)(0, 1, 2, 5));                                       \
    }                                                                                              \
    vstore4(acc, i, out);                                                                          \
  }
// A permutation of a loop-carried vector, read after the vector's next
// value is loaded: the next value may take the carried one's register.
#define CARRIED(T, M)                                                                              \
  kernel void carried_##T(global const T *in, global T *out, int turns) {                         \
    const size_t i = get_global_id(0);                                                             \
    T##4 other = vload4(2 * i + 0, in), acc = vload4(2 * i + 1, in);                               \
    for (int k = 0; k < turns + (int)(i % 3); ++k) {                                               \
      const T##4 rotated = shuffle(acc, (M##4)(3, 0, 1, 2));                                       \
      acc = vload4(2 * i + (k % 2), in);                                                           \
      other = shuffle2(rotated, other, (M##4)(1, 4, 3, 6));                                        \
    }                                                                                              \
    vstore4(other, 2 * i + 0, out);                                                                \
    vstore4(acc, 2 * i + 1, out);                                                                  \
  }
CARRIED(char, uchar)
CARRIED(short, ushort)
CARRIED(int, uint)
CARRIED(long, ulong)
CARRIED(float, uint)
CARRIED(double, ulong)

COMPOSED(char, uchar)
COMPOSED(short, ushort)
COMPOSED(int, uint)
COMPOSED(long, ulong)
COMPOSED(float, uint)
COMPOSED(double, ulong)

// A permutation of a permutation that is also stored, the vectors it
// selects from then dead: a vector loaded after the first permutation may
// take a register those held, which the second reads.
#define REUSED(T, M)                                                                               \
  kernel void reused_##T(global const T *in, global T *out) {                                     \
    const size_t i = get_global_id(0);                                                             \
    const T##4 r0 = vload4(3 * i + 0, in), r1 = vload4(3 * i + 1, in);                            \
    const T##4 t = shuffle2(r0, r1, (M##4)(0, 5, 2, 7));                                           \
    vstore4(t, 3 * i + 0, out);                                                                    \
    const T##4 r2 = vload4(3 * i + 2, in);                                                         \
    vstore4(shuffle2(t, r2, (M##4)(4, 0, 6, 3)), 3 * i + 1, out);                                  \
    vstore4(r2, 3 * i + 2, out);                                                                   \
  }
REUSED(char, uchar)
REUSED(short, ushort)
REUSED(int, uint)
REUSED(long, ulong)
REUSED(float, uint)
REUSED(double, ulong)

// SPDX-License-Identifier: Apache-2.0
