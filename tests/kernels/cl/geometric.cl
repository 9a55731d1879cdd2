// The geometric functions (OpenCL C 3.0, 6.15.5) for float and double of 1
// to 4 components (tests/kernels/geometric_test.cpp). Work-item i reads
// vector i of four packed input slots of M n-component vectors (vloadn):
// p0, q0 (slot 0, 1: any range), p1, q1 (slot 2, 3: moderate magnitudes).
// Scalar results, M per slot, to r:
//   0 length(p0)   1 distance(p0, q0)   2 dot(p1, q1)
//   3 fast_length(p1)   4 fast_distance(p1, q1) (float only)
// Vector results, M n per slot, packed, to w:
//   0 normalize(p0)   1 fast_normalize(p1) (float only)   2 cross(p1, q1) (n = 3, 4)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define VT1(T) T
#define VT2(T) T##2
#define VT3(T) T##3
#define VT4(T) T##4

#define LD1(i, p) ((p)[i])
#define LD2(i, p) vload2(i, p)
#define LD3(i, p) vload3(i, p)
#define LD4(i, p) vload4(i, p)

#define ST1(v, i, p) ((p)[i] = (v))
#define ST2(v, i, p) vstore2(v, i, p)
#define ST3(v, i, p) vstore3(v, i, p)
#define ST4(v, i, p) vstore4(v, i, p)

#define NONE(n)
#define FAST(n)                                                                                    \
  r[3 * M + i] = fast_length(p1);                                                                  \
  r[4 * M + i] = fast_distance(p1, q1);                                                            \
  ST##n(fast_normalize(p1), i, w + n * M);
#define CROSS(n) ST##n(cross(p1, q1), i, w + 2 * n * M);

#define GEOMETRIC(T, n, FAST_FORMS, CROSS_PRODUCT)                                                 \
  kernel void geometric_##T##n(global const T *a, global T *r, global T *w, uint M) {              \
    size_t i = get_global_id(0);                                                                   \
    VT##n(T) p0 = LD##n(i, a), q0 = LD##n(i, a + n * M), p1 = LD##n(i, a + 2 * n * M),             \
             q1 = LD##n(i, a + 3 * n * M);                                                         \
    r[i] = length(p0);                                                                             \
    r[M + i] = distance(p0, q0);                                                                   \
    r[2 * M + i] = dot(p1, q1);                                                                    \
    ST##n(normalize(p0), i, w);                                                                    \
    FAST_FORMS(n)                                                                                  \
    CROSS_PRODUCT(n)                                                                               \
  }

GEOMETRIC(float, 1, FAST, NONE)
GEOMETRIC(float, 2, FAST, NONE)
GEOMETRIC(float, 3, FAST, CROSS)
GEOMETRIC(float, 4, FAST, CROSS)
GEOMETRIC(double, 1, NONE, NONE)
GEOMETRIC(double, 2, NONE, NONE)
GEOMETRIC(double, 3, NONE, CROSS)
GEOMETRIC(double, 4, NONE, CROSS)

// SPDX-License-Identifier: Apache-2.0
