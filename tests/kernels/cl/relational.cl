// select and bitselect (OpenCL C 3.0, 6.15.6) on every type and width
// (tests/kernels/relational_test.cpp). Work-item i, width index k (widths
// 1, 2, 3, 4, 8, 16): operands are the first w elements of a, b, c at
// 96 i + 16 k; c is read as T (bitselect), as the signed integer S and as the
// unsigned integer U of T's size (select). Results at out + 288 i + 48 k:
//   + 0:  select(a, b, (S)c)    + 16: select(a, b, (U)c)    + 32: bitselect(a, b, c)
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define VEC1(T) T
#define VEC2(T) T##2
#define VEC3(T) T##3
#define VEC4(T) T##4
#define VEC8(T) T##8
#define VEC16(T) T##16

#define LD1(T, p) (*(p))
#define LD2(T, p) (*(global const T##2 *)(p))
#define LD3(T, p) ((T##3)((p)[0], (p)[1], (p)[2]))
#define LD4(T, p) (*(global const T##4 *)(p))
#define LD8(T, p) (*(global const T##8 *)(p))
#define LD16(T, p) (*(global const T##16 *)(p))

#define ST1(T, p, v) *(p) = (v);
#define ST2(T, p, v) *(global T##2 *)(p) = (v);
#define ST3(T, p, v)                                                                               \
  {                                                                                                \
    T##3 t3_ = (v);                                                                                \
    (p)[0] = t3_.s0;                                                                               \
    (p)[1] = t3_.s1;                                                                               \
    (p)[2] = t3_.s2;                                                                               \
  }
#define ST4(T, p, v) *(global T##4 *)(p) = (v);
#define ST8(T, p, v) *(global T##8 *)(p) = (v);
#define ST16(T, p, v) *(global T##16 *)(p) = (v);

#define REL_W(T, S, U, w, k)                                                                       \
  {                                                                                                \
    VEC##w(T) x = LD##w(T, ap + 16 * (k)), y = LD##w(T, bp + 16 * (k)),                            \
              z = LD##w(T, cp + 16 * (k));                                                         \
    VEC##w(S) zs = LD##w(S, (global const S *)(cp + 16 * (k)));                                    \
    VEC##w(U) zu = LD##w(U, (global const U *)(cp + 16 * (k)));                                    \
    ST##w(T, op + 48 * (k), select(x, y, zs)) ST##w(T, op + 48 * (k) + 16, select(x, y, zu))       \
        ST##w(T, op + 48 * (k) + 32, bitselect(x, y, z))                                           \
  }

#define REL(T, S, U)                                                                               \
  kernel void relational_##T(global const T *a, global const T *b, global const T *c,              \
                             global T *out) {                                                      \
    size_t i = get_global_id(0);                                                                   \
    global const T *ap = a + 96 * i, *bp = b + 96 * i, *cp = c + 96 * i;                           \
    global T *op = out + 288 * i;                                                                  \
    REL_W(T, S, U, 1, 0)                                                                           \
    REL_W(T, S, U, 2, 1)                                                                           \
    REL_W(T, S, U, 3, 2)                                                                           \
    REL_W(T, S, U, 4, 3)                                                                           \
    REL_W(T, S, U, 8, 4)                                                                           \
    REL_W(T, S, U, 16, 5)                                                                          \
  }

REL(char, char, uchar)
REL(uchar, char, uchar)
REL(short, short, ushort)
REL(ushort, short, ushort)
REL(int, int, uint)
REL(uint, int, uint)
REL(long, long, ulong)
REL(ulong, long, ulong)
REL(half, short, ushort)
REL(float, int, uint)
REL(double, long, ulong)

// SPDX-License-Identifier: Apache-2.0
