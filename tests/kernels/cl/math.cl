// Floating-point math, common and half_ / native_ functions on float and
// floatn, and the math and common functions on double and doublen
// (tests/kernels/math_test.cpp).
//
// One kernel per function, m_NAME (d_NAME on double and doublen), computing r = NAME(a[, b[, c]]) over
// packed arrays: work-item i handles elements width * i to width * i +
// width - 1 with vloadn / vstoren (a plain load and store for width 1). The
// width (1, 2, 3, 4, 8 or 16) is a kernel argument, uniform across the
// NDRange, so one kernel covers every vector type of its function.
//
// m_NAME_s (d_NAME_s) are the forms with scalar operands (fmax(floatn, float),
// clamp(floatn, float, float), step(float, floatn), ...): the scalar operand
// of work-item i is element width * i of its array.

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

#define DEFINE_UNARY(NAME) DEFINE_UNARY_OF(float, m_##NAME, NAME)
#define DEFINE_BINARY(NAME) DEFINE_BINARY_OF(float, m_##NAME, NAME)
#define DEFINE_TERNARY(NAME) DEFINE_TERNARY_OF(float, m_##NAME, NAME)

// ---- one operand ------------------------------------------------------------
DEFINE_UNARY(acos)
DEFINE_UNARY(acosh)
DEFINE_UNARY(acospi)
DEFINE_UNARY(asin)
DEFINE_UNARY(asinh)
DEFINE_UNARY(asinpi)
DEFINE_UNARY(atan)
DEFINE_UNARY(atanh)
DEFINE_UNARY(atanpi)
DEFINE_UNARY(cbrt)
DEFINE_UNARY(ceil)
DEFINE_UNARY(cos)
DEFINE_UNARY(cosh)
DEFINE_UNARY(cospi)
DEFINE_UNARY(erfc)
DEFINE_UNARY(erf)
DEFINE_UNARY(exp)
DEFINE_UNARY(exp2)
DEFINE_UNARY(exp10)
DEFINE_UNARY(expm1)
DEFINE_UNARY(fabs)
DEFINE_UNARY(floor)
DEFINE_UNARY(lgamma)
DEFINE_UNARY(log)
DEFINE_UNARY(log2)
DEFINE_UNARY(log10)
DEFINE_UNARY(log1p)
DEFINE_UNARY(logb)
DEFINE_UNARY(rint)
DEFINE_UNARY(round)
DEFINE_UNARY(rsqrt)
DEFINE_UNARY(sin)
DEFINE_UNARY(sinh)
DEFINE_UNARY(sinpi)
DEFINE_UNARY(sqrt)
DEFINE_UNARY(tan)
DEFINE_UNARY(tanh)
DEFINE_UNARY(tanpi)
DEFINE_UNARY(tgamma)
DEFINE_UNARY(trunc)
DEFINE_UNARY(degrees)
DEFINE_UNARY(radians)
DEFINE_UNARY(sign)

DEFINE_UNARY(half_cos)
DEFINE_UNARY(half_exp)
DEFINE_UNARY(half_exp2)
DEFINE_UNARY(half_exp10)
DEFINE_UNARY(half_log)
DEFINE_UNARY(half_log2)
DEFINE_UNARY(half_log10)
DEFINE_UNARY(half_recip)
DEFINE_UNARY(half_rsqrt)
DEFINE_UNARY(half_sin)
DEFINE_UNARY(half_sqrt)
DEFINE_UNARY(half_tan)

DEFINE_UNARY(native_cos)
DEFINE_UNARY(native_exp)
DEFINE_UNARY(native_exp2)
DEFINE_UNARY(native_exp10)
DEFINE_UNARY(native_log)
DEFINE_UNARY(native_log2)
DEFINE_UNARY(native_log10)
DEFINE_UNARY(native_recip)
DEFINE_UNARY(native_rsqrt)
DEFINE_UNARY(native_sin)
DEFINE_UNARY(native_sqrt)
DEFINE_UNARY(native_tan)

// ---- two operands -----------------------------------------------------------
DEFINE_BINARY(atan2)
DEFINE_BINARY(atan2pi)
DEFINE_BINARY(copysign)
DEFINE_BINARY(fdim)
DEFINE_BINARY(fmax)
DEFINE_BINARY(fmin)
DEFINE_BINARY(fmod)
DEFINE_BINARY(hypot)
DEFINE_BINARY(maxmag)
DEFINE_BINARY(minmag)
DEFINE_BINARY(nextafter)
DEFINE_BINARY(pow)
DEFINE_BINARY(remainder)
DEFINE_BINARY(step)
DEFINE_BINARY(max)
DEFINE_BINARY(min)
DEFINE_BINARY(half_divide)
DEFINE_BINARY(half_powr)
DEFINE_BINARY(native_divide)
DEFINE_BINARY(native_powr)

// ---- three operands ---------------------------------------------------------
DEFINE_TERNARY(fma)
DEFINE_TERNARY(mad)
DEFINE_TERNARY(clamp)
DEFINE_TERNARY(mix)
DEFINE_TERNARY(smoothstep)

// ---- scalar operands of vector functions ------------------------------------
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

#define DEFINE_SCALAR_FORM(NAME, PARAMS, EXPR)                                                     \
  DEFINE_SCALAR_FORM_OF(float, m_##NAME##_s, EXPR, PARAMS)

#define TWO global const float *a, global const float *b
#define THREE global const float *a, global const float *b, global const float *c
#define FMAX_S(L) fmax(L(i, a), b[n])
#define FMIN_S(L) fmin(L(i, a), b[n])
#define MAX_S(L) max(L(i, a), b[n])
#define MIN_S(L) min(L(i, a), b[n])
#define STEP_S(L) step(a[n], L(i, b))
#define CLAMP_S(L) clamp(L(i, a), b[n], c[n])
#define MIX_S(L) mix(L(i, a), L(i, b), c[n])
#define SMOOTHSTEP_S(L) smoothstep(a[n], b[n], L(i, c))
DEFINE_SCALAR_FORM(fmax, TWO, FMAX_S)
DEFINE_SCALAR_FORM(fmin, TWO, FMIN_S)
DEFINE_SCALAR_FORM(max, TWO, MAX_S)
DEFINE_SCALAR_FORM(min, TWO, MIN_S)
DEFINE_SCALAR_FORM(step, TWO, STEP_S)
DEFINE_SCALAR_FORM(clamp, THREE, CLAMP_S)
DEFINE_SCALAR_FORM(mix, THREE, MIX_S)
DEFINE_SCALAR_FORM(smoothstep, THREE, SMOOTHSTEP_S)

// ---- divergent control flow -------------------------------------------------
// Work-item i calls sin (path bit 1), pow (bit 2) or neither on its scalar,
// and fma on its float4 only with bit 4; the others keep the contents of r
// and r4.
kernel void m_divergent(global const float *a, global const float *b, global const float *c,
                        global const int *path, global float *r, global float *r4) {
  size_t i = get_global_id(0);
  const int p = path[i];
  if (p & 1)
    r[i] = sin(a[i]);
  else if (p & 2)
    r[i] = pow(a[i], b[i]);
  if (p & 4)
    vstore4(fma(vload4(i, a), vload4(i, b), vload4(i, c)), i, r4);
}

// ---- double and doublen -----------------------------------------------------
// d_NAME: the functions above other than half_ and native_, on double.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define DEFINE_UNARY_D(NAME) DEFINE_UNARY_OF(double, d_##NAME, NAME)
#define DEFINE_BINARY_D(NAME) DEFINE_BINARY_OF(double, d_##NAME, NAME)
#define DEFINE_TERNARY_D(NAME) DEFINE_TERNARY_OF(double, d_##NAME, NAME)
DEFINE_UNARY_D(acos)
DEFINE_UNARY_D(acosh)
DEFINE_UNARY_D(acospi)
DEFINE_UNARY_D(asin)
DEFINE_UNARY_D(asinh)
DEFINE_UNARY_D(asinpi)
DEFINE_UNARY_D(atan)
DEFINE_UNARY_D(atanh)
DEFINE_UNARY_D(atanpi)
DEFINE_UNARY_D(cbrt)
DEFINE_UNARY_D(ceil)
DEFINE_UNARY_D(cos)
DEFINE_UNARY_D(cosh)
DEFINE_UNARY_D(cospi)
DEFINE_UNARY_D(erfc)
DEFINE_UNARY_D(erf)
DEFINE_UNARY_D(exp)
DEFINE_UNARY_D(exp2)
DEFINE_UNARY_D(exp10)
DEFINE_UNARY_D(expm1)
DEFINE_UNARY_D(fabs)
DEFINE_UNARY_D(floor)
DEFINE_UNARY_D(lgamma)
DEFINE_UNARY_D(log)
DEFINE_UNARY_D(log2)
DEFINE_UNARY_D(log10)
DEFINE_UNARY_D(log1p)
DEFINE_UNARY_D(logb)
DEFINE_UNARY_D(rint)
DEFINE_UNARY_D(round)
DEFINE_UNARY_D(rsqrt)
DEFINE_UNARY_D(sin)
DEFINE_UNARY_D(sinh)
DEFINE_UNARY_D(sinpi)
DEFINE_UNARY_D(sqrt)
DEFINE_UNARY_D(tan)
DEFINE_UNARY_D(tanh)
DEFINE_UNARY_D(tanpi)
DEFINE_UNARY_D(tgamma)
DEFINE_UNARY_D(trunc)
DEFINE_UNARY_D(degrees)
DEFINE_UNARY_D(radians)
DEFINE_UNARY_D(sign)
DEFINE_BINARY_D(atan2)
DEFINE_BINARY_D(atan2pi)
DEFINE_BINARY_D(copysign)
DEFINE_BINARY_D(fdim)
DEFINE_BINARY_D(fmax)
DEFINE_BINARY_D(fmin)
DEFINE_BINARY_D(fmod)
DEFINE_BINARY_D(hypot)
DEFINE_BINARY_D(maxmag)
DEFINE_BINARY_D(minmag)
DEFINE_BINARY_D(nextafter)
DEFINE_BINARY_D(pow)
DEFINE_BINARY_D(remainder)
DEFINE_BINARY_D(step)
DEFINE_BINARY_D(max)
DEFINE_BINARY_D(min)
DEFINE_TERNARY_D(fma)
DEFINE_TERNARY_D(mad)
DEFINE_TERNARY_D(clamp)
DEFINE_TERNARY_D(mix)
DEFINE_TERNARY_D(smoothstep)

#define DEFINE_SCALAR_FORM_D(NAME, PARAMS, EXPR)                                                   \
  DEFINE_SCALAR_FORM_OF(double, d_##NAME##_s, EXPR, PARAMS)
#define TWO_D global const double *a, global const double *b
#define THREE_D global const double *a, global const double *b, global const double *c
DEFINE_SCALAR_FORM_D(fmax, TWO_D, FMAX_S)
DEFINE_SCALAR_FORM_D(fmin, TWO_D, FMIN_S)
DEFINE_SCALAR_FORM_D(max, TWO_D, MAX_S)
DEFINE_SCALAR_FORM_D(min, TWO_D, MIN_S)
DEFINE_SCALAR_FORM_D(step, TWO_D, STEP_S)
DEFINE_SCALAR_FORM_D(clamp, THREE_D, CLAMP_S)
DEFINE_SCALAR_FORM_D(mix, THREE_D, MIX_S)
DEFINE_SCALAR_FORM_D(smoothstep, THREE_D, SMOOTHSTEP_S)

// SPDX-License-Identifier: Apache-2.0
