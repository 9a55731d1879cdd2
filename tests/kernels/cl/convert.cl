// Conversions between the built-in scalar and vector types
// (tests/kernels/convert_test.cpp): convert_<type>[_sat][_rounding], implicit
// conversions and casts, as_<type> reinterpretations, and the results of
// comparisons converted to other types.
//
// from_S (S a source type of any width) converts a[i] to every destination
// type of the same width, with every modifier, into out_D[M * i + k]: for
// integer destinations M = 10 (default, _rte, _rtz, _rtp, _rtn, then _sat
// with each of those), for floating-point ones M = 5 (no _sat). One kernel
// per source type and width keeps the module small: Lanewise's build time
// grows with the square of the number of kernels.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define TO_INTEGER(D, DN)                                                                          \
  {                                                                                                \
    global DN *o = out_##D + 10 * i;                                                               \
    o[0] = convert_##DN(x);                                                                        \
    o[1] = convert_##DN##_rte(x);                                                                  \
    o[2] = convert_##DN##_rtz(x);                                                                  \
    o[3] = convert_##DN##_rtp(x);                                                                  \
    o[4] = convert_##DN##_rtn(x);                                                                  \
    o[5] = convert_##DN##_sat(x);                                                                  \
    o[6] = convert_##DN##_sat_rte(x);                                                              \
    o[7] = convert_##DN##_sat_rtz(x);                                                              \
    o[8] = convert_##DN##_sat_rtp(x);                                                              \
    o[9] = convert_##DN##_sat_rtn(x);                                                              \
  }
#define TO_FLOAT(D, DN)                                                                            \
  {                                                                                                \
    global DN *o = out_##D + 5 * i;                                                                \
    o[0] = convert_##DN(x);                                                                        \
    o[1] = convert_##DN##_rte(x);                                                                  \
    o[2] = convert_##DN##_rtz(x);                                                                  \
    o[3] = convert_##DN##_rtp(x);                                                                  \
    o[4] = convert_##DN##_rtn(x);                                                                  \
  }

#define FROM(S, N)                                                                                 \
  kernel void from_##S##N(                                                                         \
      global const S##N *a, global char##N *out_char, global uchar##N *out_uchar,                  \
      global short##N *out_short, global ushort##N *out_ushort, global int##N *out_int,            \
      global uint##N *out_uint, global long##N *out_long, global ulong##N *out_ulong,              \
      global half##N *out_half, global float##N *out_float, global double##N *out_double) {        \
    size_t i = get_global_id(0);                                                                   \
    S##N x = a[i];                                                                                 \
    TO_INTEGER(char, char##N)                                                                      \
    TO_INTEGER(uchar, uchar##N)                                                                    \
    TO_INTEGER(short, short##N)                                                                    \
    TO_INTEGER(ushort, ushort##N)                                                                  \
    TO_INTEGER(int, int##N)                                                                        \
    TO_INTEGER(uint, uint##N)                                                                      \
    TO_INTEGER(long, long##N)                                                                      \
    TO_INTEGER(ulong, ulong##N)                                                                    \
    TO_FLOAT(half, half##N)                                                                        \
    TO_FLOAT(float, float##N)                                                                      \
    TO_FLOAT(double, double##N)                                                                    \
  }

#define FROM_WIDTHS(S) FROM(S, ) FROM(S, 2) FROM(S, 3) FROM(S, 4) FROM(S, 8) FROM(S, 16)
FROM_WIDTHS(char)
FROM_WIDTHS(uchar)
FROM_WIDTHS(short)
FROM_WIDTHS(ushort)
FROM_WIDTHS(int)
FROM_WIDTHS(uint)
FROM_WIDTHS(long)
FROM_WIDTHS(ulong)
FROM_WIDTHS(half)
FROM_WIDTHS(float)
FROM_WIDTHS(double)

// implicit_S: out_D[2 * i] = a[i] by implicit conversion, out_D[2 * i + 1]
// by a cast.
#define IMPLICIT_TO(D)                                                                             \
  out_##D[2 * i] = x;                                                                              \
  out_##D[2 * i + 1] = (D)x;
#define IMPLICIT(S)                                                                                \
  kernel void implicit_##S(global const S *a, global char *out_char, global uchar *out_uchar,     \
                           global short *out_short, global ushort *out_ushort,                     \
                           global int *out_int, global uint *out_uint, global long *out_long,      \
                           global ulong *out_ulong, global half *out_half,                         \
                           global float *out_float, global double *out_double) {                   \
    size_t i = get_global_id(0);                                                                   \
    S x = a[i];                                                                                    \
    IMPLICIT_TO(char)                                                                              \
    IMPLICIT_TO(uchar)                                                                             \
    IMPLICIT_TO(short)                                                                             \
    IMPLICIT_TO(ushort)                                                                            \
    IMPLICIT_TO(int)                                                                               \
    IMPLICIT_TO(uint)                                                                              \
    IMPLICIT_TO(long)                                                                              \
    IMPLICIT_TO(ulong)                                                                             \
    IMPLICIT_TO(half)                                                                              \
    IMPLICIT_TO(float)                                                                             \
    IMPLICIT_TO(double)                                                                            \
  }
IMPLICIT(char)
IMPLICIT(uchar)
IMPLICIT(short)
IMPLICIT(ushort)
IMPLICIT(int)
IMPLICIT(uint)
IMPLICIT(long)
IMPLICIT(ulong)
IMPLICIT(half)
IMPLICIT(float)
IMPLICIT(double)

// as_D_S: out[i] = as_D(a[i]), the bits of a[i] as a D.
#define AS(D, S)                                                                                   \
  kernel void as_##D##_##S(global const S *a, global D *out) {                                    \
    size_t i = get_global_id(0);                                                                   \
    out[i] = as_##D(a[i]);                                                                         \
  }
AS(char4, int)
AS(uchar4, uint)
AS(int, char4)
AS(int, float)
AS(uint, float)
AS(float, int)
AS(float, uint)
AS(uint2, ulong)
AS(ulong, uint2)
AS(long, double)
AS(double, long)
AS(double, ulong)
AS(short, half)
AS(half, ushort)
AS(half, short)
AS(char2, half)
AS(half2, int)
AS(int, half2)
AS(half2, float)
AS(float2, double)
AS(double, float2)
AS(uchar8, double)
AS(double, uchar8)
AS(int4, float4)
AS(float4, int4)
AS(char16, float4)
AS(double2, int4)
AS(ushort8, double2)
AS(half8, float4)
AS(uchar16, ulong2)
AS(long4, float8)
AS(int16, double8)
AS(half16, double4)
AS(float3, int3)
AS(uint3, float3)
AS(short3, half3)
AS(float3, int4)
AS(char3, uchar4)

// Comparison results converted to other types: scalar comparisons are the
// int 1 or 0, vector ones -1 or 0 in each component.
kernel void bools(global const float *a, global const float *b, global const float4 *a4,
                  global const float4 *b4, global const double2 *a2, global const double2 *b2,
                  global int *oi, global float *of, global long *ol, global double *od,
                  global int4 *oi4, global float4 *of4, global uchar4 *ou4, global uchar4 *os4,
                  global short4 *oh4, global char2 *oc2, global float2 *of2) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  float4 x4 = a4[i], y4 = b4[i];
  double2 x2 = a2[i], y2 = b2[i];
  oi[2 * i] = x < y;
  oi[2 * i + 1] = (x < y) + (x == y) + isless(x, y) + !x;
  of[i] = x < y;
  ol[i] = x != y;
  od[i] = (double)(x >= y) - isunordered(x, y);
  oi4[i] = (x4 < y4) + (x4 == y4);
  of4[i] = convert_float4(x4 < y4);
  ou4[i] = convert_uchar4(x4 <= y4);
  os4[i] = convert_uchar4_sat(x4 <= y4);
  oh4[i] = convert_short4(isnan(x4)) - convert_short4(signbit(x4));
  oc2[i] = convert_char2(x2 > y2);
  of2[i] = convert_float2(isnotequal(x2, y2));
}

// SPDX-License-Identifier: Apache-2.0
