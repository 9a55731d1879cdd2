// Floating-point math and common functions on half and halfn
// (tests/kernels/math_test.cpp, the MathHalf tests).
//
// One kernel per function, h_NAME, computing r = NAME(a[, b[, c]]) over packed
// arrays: work-item i handles elements width * i to width * i + width - 1
// with vloadn / vstoren (a plain load and store for width 1). The width (1,
// 2, 3, 4, 8 or 16) is a kernel argument, uniform across the NDRange, so one
// kernel covers every vector type of its function.
//
// h_NAME_s are the forms with scalar operands (fmax(halfn, half),
// clamp(halfn, half, half), step(half, halfn), ...): the scalar operand of
// work-item i is element width * i of its array.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define DEFINE_UNARY_OF(T, KERNEL, NAME)                                                           \
  kernel void KERNEL(global const T *a, global T *r, int width) {                                  \
    size_t i = get_global_id(0);                                                                   \
    switch (width) {                                                                               \
    case 1:                                                                                        \
      r[i] = NAME(a[i]);                                                                           \
      break;                                                                                       \
    case 2:                                                                                        \
      vstore2(NAME(vload2(i, a)), i, r);                                                           \
      break;                                                                                       \
    case 3:                                                                                        \
      vstore3(NAME(vload3(i, a)), i, r);                                                           \
      break;                                                                                       \
    case 4:                                                                                        \
      vstore4(NAME(vload4(i, a)), i, r);                                                           \
      break;                                                                                       \
    case 8:                                                                                        \
      vstore8(NAME(vload8(i, a)), i, r);                                                           \
      break;                                                                                       \
    case 16:                                                                                       \
      vstore16(NAME(vload16(i, a)), i, r);                                                         \
      break;                                                                                       \
    }                                                                                              \
  }

#define DEFINE_BINARY_OF(T, KERNEL, NAME)                                                          \
  kernel void KERNEL(global const T *a, global const T *b, global T *r, int width) {               \
    size_t i = get_global_id(0);                                                                   \
    switch (width) {                                                                               \
    case 1:                                                                                        \
      r[i] = NAME(a[i], b[i]);                                                                     \
      break;                                                                                       \
    case 2:                                                                                        \
      vstore2(NAME(vload2(i, a), vload2(i, b)), i, r);                                             \
      break;                                                                                       \
    case 3:                                                                                        \
      vstore3(NAME(vload3(i, a), vload3(i, b)), i, r);                                             \
      break;                                                                                       \
    case 4:                                                                                        \
      vstore4(NAME(vload4(i, a), vload4(i, b)), i, r);                                             \
      break;                                                                                       \
    case 8:                                                                                        \
      vstore8(NAME(vload8(i, a), vload8(i, b)), i, r);                                             \
      break;                                                                                       \
    case 16:                                                                                       \
      vstore16(NAME(vload16(i, a), vload16(i, b)), i, r);                                          \
      break;                                                                                       \
    }                                                                                              \
  }

#define DEFINE_TERNARY_OF(T, KERNEL, NAME)                                                         \
  kernel void KERNEL(global const T *a, global const T *b, global const T *c, global T *r,         \
                     int width) {                                                                  \
    size_t i = get_global_id(0);                                                                   \
    switch (width) {                                                                               \
    case 1:                                                                                        \
      r[i] = NAME(a[i], b[i], c[i]);                                                               \
      break;                                                                                       \
    case 2:                                                                                        \
      vstore2(NAME(vload2(i, a), vload2(i, b), vload2(i, c)), i, r);                               \
      break;                                                                                       \
    case 3:                                                                                        \
      vstore3(NAME(vload3(i, a), vload3(i, b), vload3(i, c)), i, r);                               \
      break;                                                                                       \
    case 4:                                                                                        \
      vstore4(NAME(vload4(i, a), vload4(i, b), vload4(i, c)), i, r);                               \
      break;                                                                                       \
    case 8:                                                                                        \
      vstore8(NAME(vload8(i, a), vload8(i, b), vload8(i, c)), i, r);                               \
      break;                                                                                       \
    case 16:                                                                                       \
      vstore16(NAME(vload16(i, a), vload16(i, b), vload16(i, c)), i, r);                           \
      break;                                                                                       \
    }                                                                                              \
  }

#define DEFINE_UNARY_H(NAME) DEFINE_UNARY_OF(half, h_##NAME, NAME)
#define DEFINE_BINARY_H(NAME) DEFINE_BINARY_OF(half, h_##NAME, NAME)
#define DEFINE_TERNARY_H(NAME) DEFINE_TERNARY_OF(half, h_##NAME, NAME)
DEFINE_UNARY_H(acos)
DEFINE_UNARY_H(acosh)
DEFINE_UNARY_H(acospi)
DEFINE_UNARY_H(asin)
DEFINE_UNARY_H(asinh)
DEFINE_UNARY_H(asinpi)
DEFINE_UNARY_H(atan)
DEFINE_UNARY_H(atanh)
DEFINE_UNARY_H(atanpi)
DEFINE_UNARY_H(cbrt)
DEFINE_UNARY_H(ceil)
DEFINE_UNARY_H(cos)
DEFINE_UNARY_H(cosh)
DEFINE_UNARY_H(cospi)
DEFINE_UNARY_H(erfc)
DEFINE_UNARY_H(erf)
DEFINE_UNARY_H(exp)
DEFINE_UNARY_H(exp2)
DEFINE_UNARY_H(exp10)
DEFINE_UNARY_H(expm1)
DEFINE_UNARY_H(fabs)
DEFINE_UNARY_H(floor)
DEFINE_UNARY_H(lgamma)
DEFINE_UNARY_H(log)
DEFINE_UNARY_H(log2)
DEFINE_UNARY_H(log10)
DEFINE_UNARY_H(log1p)
DEFINE_UNARY_H(logb)
DEFINE_UNARY_H(rint)
DEFINE_UNARY_H(round)
DEFINE_UNARY_H(rsqrt)
DEFINE_UNARY_H(sin)
DEFINE_UNARY_H(sinh)
DEFINE_UNARY_H(sinpi)
DEFINE_UNARY_H(sqrt)
DEFINE_UNARY_H(tan)
DEFINE_UNARY_H(tanh)
DEFINE_UNARY_H(tanpi)
DEFINE_UNARY_H(tgamma)
DEFINE_UNARY_H(trunc)
DEFINE_UNARY_H(degrees)
DEFINE_UNARY_H(radians)
DEFINE_UNARY_H(sign)
DEFINE_BINARY_H(atan2)
DEFINE_BINARY_H(atan2pi)
DEFINE_BINARY_H(copysign)
DEFINE_BINARY_H(fdim)
DEFINE_BINARY_H(fmax)
DEFINE_BINARY_H(fmin)
DEFINE_BINARY_H(fmod)
DEFINE_BINARY_H(hypot)
DEFINE_BINARY_H(maxmag)
DEFINE_BINARY_H(minmag)
DEFINE_BINARY_H(nextafter)
DEFINE_BINARY_H(pow)
DEFINE_BINARY_H(remainder)
DEFINE_BINARY_H(step)
DEFINE_BINARY_H(max)
DEFINE_BINARY_H(min)
DEFINE_TERNARY_H(fma)
DEFINE_TERNARY_H(mad)
DEFINE_TERNARY_H(clamp)
DEFINE_TERNARY_H(mix)
DEFINE_TERNARY_H(smoothstep)

// EXPR(L) is the call, its vector operands loaded with L (vloadN) and its
// scalar operands x[n], n = N * i.
// (the parameters last: they expand to a list)
#define DEFINE_SCALAR_FORM_OF(T, KERNEL, EXPR, ...)                                                \
  kernel void KERNEL(__VA_ARGS__, global T *r, int width) {                                        \
    size_t i = get_global_id(0);                                                                   \
    switch (width) {                                                                               \
    case 2: {                                                                                      \
      const size_t n = 2 * i;                                                                      \
      vstore2(EXPR(vload2), i, r);                                                                 \
    } break;                                                                                       \
    case 3: {                                                                                      \
      const size_t n = 3 * i;                                                                      \
      vstore3(EXPR(vload3), i, r);                                                                 \
    } break;                                                                                       \
    case 4: {                                                                                      \
      const size_t n = 4 * i;                                                                      \
      vstore4(EXPR(vload4), i, r);                                                                 \
    } break;                                                                                       \
    case 8: {                                                                                      \
      const size_t n = 8 * i;                                                                      \
      vstore8(EXPR(vload8), i, r);                                                                 \
    } break;                                                                                       \
    case 16: {                                                                                     \
      const size_t n = 16 * i;                                                                     \
      vstore16(EXPR(vload16), i, r);                                                               \
    } break;                                                                                       \
    }                                                                                              \
  }

#define DEFINE_SCALAR_FORM_H(NAME, PARAMS, EXPR)                                                   \
  DEFINE_SCALAR_FORM_OF(half, h_##NAME##_s, EXPR, PARAMS)
#define TWO global const half *a, global const half *b
#define THREE global const half *a, global const half *b, global const half *c
#define FMAX_S(L) fmax(L(i, a), b[n])
#define FMIN_S(L) fmin(L(i, a), b[n])
#define MAX_S(L) max(L(i, a), b[n])
#define MIN_S(L) min(L(i, a), b[n])
#define STEP_S(L) step(a[n], L(i, b))
#define CLAMP_S(L) clamp(L(i, a), b[n], c[n])
#define MIX_S(L) mix(L(i, a), L(i, b), c[n])
#define SMOOTHSTEP_S(L) smoothstep(a[n], b[n], L(i, c))
DEFINE_SCALAR_FORM_H(fmax, TWO, FMAX_S)
DEFINE_SCALAR_FORM_H(fmin, TWO, FMIN_S)
DEFINE_SCALAR_FORM_H(max, TWO, MAX_S)
DEFINE_SCALAR_FORM_H(min, TWO, MIN_S)
DEFINE_SCALAR_FORM_H(step, TWO, STEP_S)
DEFINE_SCALAR_FORM_H(clamp, THREE, CLAMP_S)
DEFINE_SCALAR_FORM_H(mix, THREE, MIX_S)
DEFINE_SCALAR_FORM_H(smoothstep, THREE, SMOOTHSTEP_S)

// SPDX-License-Identifier: Apache-2.0
