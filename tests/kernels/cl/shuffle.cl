// shuffle and shuffle2 (OpenCL C 3.0, 6.15.12) on every element type, input
// length m in {2, 4, 8, 16} and result length n in {2, 4, 8, 16}
// (tests/kernels/shuffle_test.cpp).
//
// Per work-item i, x and y are 16 elements at x + 16 i and y + 16 i (the
// first m of them are the input vectors). The 16 (m, n) combinations are
// numbered c = 4 a + b, m = 2 << a, n = 2 << b; each has a slot of 16
// elements:
//   shuffle_T     (varying masks): mask + 512 i + 16 c (shuffle) and
//                 + 256 + 16 c (shuffle2); results at out + 512 i + 16 c
//                 and + 256 + 16 c.
//   shuffle_div_T the same, but only odd work-items shuffle (inside the
//                 branch); even ones leave out as it was.
//   shuffle_uni_T masks that are kernel arguments (the same for all
//                 work-items): the mask of (m, n) is the first n components
//                 of am (shuffle) or bm (shuffle2). Results at out + 2048 i
//                 + 16 c + 256 s, s = 0: shuffle(x, am), 1: shuffle2(x, y,
//                 bm), 2: shuffle(ux, am), 3: shuffle2(ux, uy, bm) (ux, uy:
//                 uniform kernel arguments, their first m components),
//                 4: shuffle(ux, varying mask), 5: shuffle2(ux, uy, varying
//                 mask) (the varying masks as for shuffle_T), 6: shuffle2(x,
//                 uy, varying mask), 7: shuffle2(ux, y, bm).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define SUB2(v) (v).s01
#define SUB4(v) (v).s0123
#define SUB8(v) (v).lo
#define SUB16(v) (v)

#define LOAD(T, m, p) (*(global const T##m *)(p))
#define STORE(T, n, p, v) *(global T##n *)(p) = (v);

// ---- varying masks ------------------------------------------------------------
#define V1(T, M, m, n, c)                                                                          \
  STORE(T, n, op + 16 * (c), shuffle(LOAD(T, m, xp), LOAD(M, n, mp + 16 * (c))))                   \
  STORE(T, n, op + 256 + 16 * (c),                                                                 \
        shuffle2(LOAD(T, m, xp), LOAD(T, m, yp), LOAD(M, n, mp + 256 + 16 * (c))))
#define VN(T, M, m, a)                                                                             \
  V1(T, M, m, 2, (a)*4 + 0)                                                                        \
  V1(T, M, m, 4, (a)*4 + 1) V1(T, M, m, 8, (a)*4 + 2) V1(T, M, m, 16, (a)*4 + 3)
#define VBODY(T, M) VN(T, M, 2, 0) VN(T, M, 4, 1) VN(T, M, 8, 2) VN(T, M, 16, 3)

#define VARYING(T, M)                                                                              \
  kernel void shuffle_##T(global const T *x, global const T *y, global const M *mask,              \
                          global T *out) {                                                         \
    size_t i = get_global_id(0);                                                                   \
    global const T *xp = x + 16 * i, *yp = y + 16 * i;                                             \
    global const M *mp = mask + 512 * i;                                                           \
    global T *op = out + 512 * i;                                                                  \
    VBODY(T, M)                                                                                    \
  }                                                                                                \
  kernel void shuffle_div_##T(global const T *x, global const T *y, global const M *mask,          \
                              global T *out) {                                                     \
    size_t i = get_global_id(0);                                                                   \
    if (i & 1) {                                                                                   \
      global const T *xp = x + 16 * i, *yp = y + 16 * i;                                           \
      global const M *mp = mask + 512 * i;                                                         \
      global T *op = out + 512 * i;                                                                \
      VBODY(T, M)                                                                                  \
    }                                                                                              \
  }

// ---- uniform masks --------------------------------------------------------------
#define U1(T, M, m, n, c)                                                                          \
  STORE(T, n, op + 16 * (c), shuffle(LOAD(T, m, xp), SUB##n(a##m)))                                \
  STORE(T, n, op + 256 + 16 * (c), shuffle2(LOAD(T, m, xp), LOAD(T, m, yp), SUB##n(b##m)))         \
  STORE(T, n, op + 512 + 16 * (c), shuffle(SUB##m(ux), SUB##n(a##m)))                              \
  STORE(T, n, op + 768 + 16 * (c), shuffle2(SUB##m(ux), SUB##m(uy), SUB##n(b##m)))                 \
  STORE(T, n, op + 1024 + 16 * (c), shuffle(SUB##m(ux), LOAD(M, n, mp + 16 * (c))))                \
  STORE(T, n, op + 1280 + 16 * (c),                                                                \
        shuffle2(SUB##m(ux), SUB##m(uy), LOAD(M, n, mp + 256 + 16 * (c))))                         \
  STORE(T, n, op + 1536 + 16 * (c),                                                                \
        shuffle2(LOAD(T, m, xp), SUB##m(uy), LOAD(M, n, mp + 256 + 16 * (c))))                     \
  STORE(T, n, op + 1792 + 16 * (c), shuffle2(SUB##m(ux), LOAD(T, m, yp), SUB##n(b##m)))
#define UN(T, M, m, a)                                                                             \
  U1(T, M, m, 2, (a)*4 + 0)                                                                        \
  U1(T, M, m, 4, (a)*4 + 1) U1(T, M, m, 8, (a)*4 + 2) U1(T, M, m, 16, (a)*4 + 3)

#define UNIFORM(T, M)                                                                              \
  kernel void shuffle_uni_##T(global const T *x, global const T *y, global const M *mask,          \
                              global T *out, M##16 a2, M##16 a4, M##16 a8, M##16 a16, M##16 b2,    \
                              M##16 b4, M##16 b8, M##16 b16, T##16 ux, T##16 uy) {                 \
    size_t i = get_global_id(0);                                                                   \
    global const T *xp = x + 16 * i, *yp = y + 16 * i;                                             \
    global const M *mp = mask + 512 * i;                                                           \
    global T *op = out + 2048 * i;                                                                 \
    UN(T, M, 2, 0) UN(T, M, 4, 1) UN(T, M, 8, 2) UN(T, M, 16, 3)                                   \
  }

#define ALL(T, M) VARYING(T, M) UNIFORM(T, M)

ALL(char, uchar)
ALL(uchar, uchar)
ALL(short, ushort)
ALL(ushort, ushort)
ALL(int, uint)
ALL(uint, uint)
ALL(long, ulong)
ALL(ulong, ulong)
ALL(half, ushort)
ALL(float, uint)
ALL(double, ulong)

// SPDX-License-Identifier: Apache-2.0
