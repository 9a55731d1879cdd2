// OpenCL.std functions on half with pointer outputs (frexp, modf, fract,
// sincos, remquo, lgamma_r) or with operands or results of other types
// (ilogb, ldexp, pown, rootn, nan), and powr (tests/kernels/math_test.cpp,
// the MathHalfOutputs tests).
//
// ho_one(a, ...): work-item i computes the functions of one half operand on
// a[i] and the halfn built from it; ho_two: those of two (remquo, powr, and
// ldexp, pown and rootn with their int operand). The width (1, 2, 3, 4, 8 or
// 16) is a kernel argument: the vector of work-item i is elements
// width * i .. width * i + width - 1, so every width covers the same
// elements.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define ONE(N)                                                                                     \
  {                                                                                                \
    half##N x = vload##N(i, a), whole, cosine;                                                     \
    int##N exponent;                                                                               \
    vstore##N(frexp(x, &exponent), i, r + 0 * n);                                                  \
    vstore##N(exponent, i, e + 0 * n);                                                             \
    vstore##N(modf(x, &whole), i, r + 1 * n);                                                      \
    vstore##N(whole, i, r + 2 * n);                                                                \
    vstore##N(fract(x, &whole), i, r + 3 * n);                                                     \
    vstore##N(whole, i, r + 4 * n);                                                                \
    vstore##N(sincos(x, &cosine), i, r + 5 * n);                                                   \
    vstore##N(cosine, i, r + 6 * n);                                                               \
    vstore##N(lgamma_r(x, &exponent), i, r + 7 * n);                                               \
    vstore##N(exponent, i, e + 1 * n);                                                             \
    vstore##N(ilogb(x), i, e + 2 * n);                                                             \
    vstore##N(nan(as_ushort##N(x)), i, r + 8 * n);                                                 \
  }
#define ONE_SCALAR                                                                                 \
  {                                                                                                \
    half x = a[i], whole, cosine;                                                                  \
    int exponent;                                                                                  \
    r[i + 0 * n] = frexp(x, &exponent);                                                            \
    e[i + 0 * n] = exponent;                                                                       \
    r[i + 1 * n] = modf(x, &whole);                                                                \
    r[i + 2 * n] = whole;                                                                          \
    r[i + 3 * n] = fract(x, &whole);                                                               \
    r[i + 4 * n] = whole;                                                                          \
    r[i + 5 * n] = sincos(x, &cosine);                                                             \
    r[i + 6 * n] = cosine;                                                                         \
    r[i + 7 * n] = lgamma_r(x, &exponent);                                                         \
    e[i + 1 * n] = exponent;                                                                       \
    e[i + 2 * n] = ilogb(x);                                                                       \
    r[i + 8 * n] = nan(as_ushort(x));                                                              \
  }

// r: 9 arrays of n halves; e: 3 arrays of n ints.
kernel void ho_one(global const half *a, global half *r, global int *e, uint n, int width) {
  size_t i = get_global_id(0);
  switch (width) {
  case 1: ONE_SCALAR break;
  case 2: ONE(2) break;
  case 3: ONE(3) break;
  case 4: ONE(4) break;
  case 8: ONE(8) break;
  case 16: ONE(16) break;
  }
}

#define TWO(N)                                                                                     \
  {                                                                                                \
    half##N x = vload##N(i, a), y = vload##N(i, b);                                               \
    int##N k = vload##N(i, kk), quotient;                                                          \
    vstore##N(remquo(x, y, &quotient), i, r + 0 * n);                                              \
    vstore##N(quotient, i, q);                                                                     \
    vstore##N(powr(x, y), i, r + 1 * n);                                                           \
    vstore##N(ldexp(x, k), i, r + 2 * n);                                                          \
    vstore##N(pown(x, k), i, r + 3 * n);                                                           \
    vstore##N(rootn(x, k), i, r + 4 * n);                                                          \
  }
#define TWO_SCALAR                                                                                 \
  {                                                                                                \
    half x = a[i], y = b[i];                                                                       \
    int k = kk[i], quotient;                                                                       \
    r[i + 0 * n] = remquo(x, y, &quotient);                                                        \
    q[i] = quotient;                                                                               \
    r[i + 1 * n] = powr(x, y);                                                                     \
    r[i + 2 * n] = ldexp(x, k);                                                                    \
    r[i + 3 * n] = pown(x, k);                                                                     \
    r[i + 4 * n] = rootn(x, k);                                                                    \
  }

// r: 5 arrays of n halves; q: n ints.
kernel void ho_two(global const half *a, global const half *b, global const int *kk,
                   global half *r, global int *q, uint n, int width) {
  size_t i = get_global_id(0);
  switch (width) {
  case 1: TWO_SCALAR break;
  case 2: TWO(2) break;
  case 3: TWO(3) break;
  case 4: TWO(4) break;
  case 8: TWO(8) break;
  case 16: TWO(16) break;
  }
}

// SPDX-License-Identifier: Apache-2.0
