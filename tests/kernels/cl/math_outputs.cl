// OpenCL.std functions with pointer outputs (frexp, modf, fract, sincos,
// remquo, lgamma_r), mixed operand types (ilogb, ldexp, pown, rootn, nan) and
// powr with its native_ and half_ forms, for float and double of every
// vector width (tests/kernels/math_outputs_test.cpp).
//
// Inputs and value results are packed arrays of E elements read and written
// with vloadn / vstoren (work-item i handles elements n i .. n i + n - 1).
// Values a function stores through its pointer go, in outputs_*, straight to
// global memory through a pointer to the vector type: slot areas of S
// elements, S = (E / n) * (4 for n = 3, else n), the fourth element of a
// 3-vector never written.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define VT1(T) T
#define VT2(T) T##2
#define VT3(T) T##3
#define VT4(T) T##4
#define VT8(T) T##8
#define VT16(T) T##16

#define LD1(i, p) ((p)[i])
#define LD2(i, p) vload2(i, p)
#define LD3(i, p) vload3(i, p)
#define LD4(i, p) vload4(i, p)
#define LD8(i, p) vload8(i, p)
#define LD16(i, p) vload16(i, p)

#define ST1(v, i, p) ((p)[i] = (v))
#define ST2(v, i, p) vstore2(v, i, p)
#define ST3(v, i, p) vstore3(v, i, p)
#define ST4(v, i, p) vstore4(v, i, p)
#define ST8(v, i, p) vstore8(v, i, p)
#define ST16(v, i, p) vstore16(v, i, p)

// The OpenCL C 3.0 headers of clang declare the functions with pointer
// outputs for generic pointers only when the generic address space is
// supported; these overloads for global, local and private pointers (those
// of OpenCL C 1.2) make the calls below pass pointers of those storage
// classes, as a compiler without the generic address space would.
#define NAMED_W(T, n, AS)                                                                          \
  VT##n(T) __attribute__((overloadable)) frexp(VT##n(T), AS VT##n(int) *);                         \
  VT##n(T) __attribute__((overloadable)) modf(VT##n(T), AS VT##n(T) *);                            \
  VT##n(T) __attribute__((overloadable)) fract(VT##n(T), AS VT##n(T) *);                           \
  VT##n(T) __attribute__((overloadable)) sincos(VT##n(T), AS VT##n(T) *);                          \
  VT##n(T) __attribute__((overloadable)) remquo(VT##n(T), VT##n(T), AS VT##n(int) *);              \
  VT##n(T) __attribute__((overloadable)) lgamma_r(VT##n(T), AS VT##n(int) *);
#define NAMED(T, AS)                                                                               \
  NAMED_W(T, 1, AS)                                                                                \
  NAMED_W(T, 2, AS) NAMED_W(T, 3, AS) NAMED_W(T, 4, AS) NAMED_W(T, 8, AS) NAMED_W(T, 16, AS)
#ifndef __opencl_c_named_address_space_builtins
NAMED(float, global)
NAMED(float, local)
NAMED(float, private)
NAMED(double, global)
NAMED(double, local)
NAMED(double, private)
#endif

// ---- outputs_Tn: every function, pointer outputs in global memory ---------------
// a: input slots of E elements
//   0 frexp, modf, fract, ilogb   1 sincos   2, 3 remquo x, y   4 lgamma_r
//   5 ldexp   6 pown   7 rootn   8, 9 powr x, y
// k: int slots of E elements: 0 ldexp, 1 pown, 2 rootn. codes: nan's E codes.
// r: value slots of E elements
//   0 frexp   1 modf   2 fract   3 sincos   4 remquo   5 lgamma_r
//   6 ldexp(x, k)   7 ldexp(x, k[n i]) (a scalar int)   8 ldexp(x, uk) (uniform)
//   9 pown   10 rootn   11 powr   12 native_powr   13 half_powr (float only)
//   14 nan   15 sincos(ux) (uniform x)   16 frexp(ux)
// s: stored T slots of S: 0 modf   1 fract   2 sincos   3 sincos(ux)
// q: stored int slots of S: 0 frexp   1 remquo   2 lgamma_r   3 frexp(ux)
// v: ilogb, E ints.
#define FLOAT_ONLY(n)                                                                              \
  ST##n(native_powr(x8, x9), i, r + 12 * E);                                                       \
  ST##n(half_powr(x8, x9), i, r + 13 * E);
#define DOUBLE_ONLY(n)

#define OUTPUTS(T, U, n, EXTRA)                                                                    \
  kernel void outputs_##T##n(global const T *a, global const int *k, global const U *codes,        \
                             global T *r, global T *s, global int *q, global int *v, uint E,       \
                             uint S, int uk, T ux) {                                               \
    size_t i = get_global_id(0);                                                                   \
    VT##n(T) x0 = LD##n(i, a), x1 = LD##n(i, a + E), x2 = LD##n(i, a + 2 * E),                     \
             x3 = LD##n(i, a + 3 * E), x4 = LD##n(i, a + 4 * E), x5 = LD##n(i, a + 5 * E),         \
             x6 = LD##n(i, a + 6 * E), x7 = LD##n(i, a + 7 * E), x8 = LD##n(i, a + 8 * E),         \
             x9 = LD##n(i, a + 9 * E);                                                             \
    VT##n(int) k0 = LD##n(i, k), k1 = LD##n(i, k + E), k2 = LD##n(i, k + 2 * E);                   \
    ST##n(frexp(x0, (global VT##n(int) *)q + i), i, r);                                            \
    ST##n(modf(x0, (global VT##n(T) *)s + i), i, r + E);                                           \
    ST##n(fract(x0, (global VT##n(T) *)(s + S) + i), i, r + 2 * E);                                \
    ST##n(sincos(x1, (global VT##n(T) *)(s + 2 * S) + i), i, r + 3 * E);                           \
    ST##n(remquo(x2, x3, (global VT##n(int) *)(q + S) + i), i, r + 4 * E);                         \
    ST##n(lgamma_r(x4, (global VT##n(int) *)(q + 2 * S) + i), i, r + 5 * E);                       \
    ST##n(ldexp(x5, k0), i, r + 6 * E);                                                            \
    ST##n(ldexp(x5, k[n * i]), i, r + 7 * E);                                                      \
    ST##n(ldexp(x5, uk), i, r + 8 * E);                                                            \
    ST##n(pown(x6, k1), i, r + 9 * E);                                                             \
    ST##n(rootn(x7, k2), i, r + 10 * E);                                                           \
    ST##n(powr(x8, x9), i, r + 11 * E);                                                            \
    EXTRA(n)                                                                                       \
    ST##n(nan(LD##n(i, codes)), i, r + 14 * E);                                                    \
    const VT##n(T) u = (VT##n(T))(ux);                                                             \
    ST##n(sincos(u, (global VT##n(T) *)(s + 3 * S) + i), i, r + 15 * E);                           \
    ST##n(frexp(u, (global VT##n(int) *)(q + 3 * S) + i), i, r + 16 * E);                          \
    ST##n(ilogb(x0), i, v);                                                                        \
  }

OUTPUTS(float, uint, 1, FLOAT_ONLY)
OUTPUTS(float, uint, 2, FLOAT_ONLY)
OUTPUTS(float, uint, 3, FLOAT_ONLY)
OUTPUTS(float, uint, 4, FLOAT_ONLY)
OUTPUTS(float, uint, 8, FLOAT_ONLY)
OUTPUTS(float, uint, 16, FLOAT_ONLY)
OUTPUTS(double, ulong, 1, DOUBLE_ONLY)
OUTPUTS(double, ulong, 2, DOUBLE_ONLY)
OUTPUTS(double, ulong, 3, DOUBLE_ONLY)
OUTPUTS(double, ulong, 4, DOUBLE_ONLY)
OUTPUTS(double, ulong, 8, DOUBLE_ONLY)
OUTPUTS(double, ulong, 16, DOUBLE_ONLY)

// ---- spaces_Tn: the pointer outputs in local, private and generic memory -------
// Work-groups of 16. Inputs a as for outputs_Tn (slots 0 to 4). For each
// function f (0 frexp, 1 modf, 2 fract, 3 sincos, 4 remquo, 5 lgamma_r) and
// space p (0 local, 1 private, 2 generic), the value goes to r slot 3 f + p,
// the stored value, copied out, to st (modf, fract, sincos: slot
// 3 (f - 1) + p) or sq (frexp, remquo, lgamma_r: slots 0 + p, 3 + p, 6 + p);
// slots of E, packed. The generic pointer passes through a helper function
// and points, for i % 3 = 0, 1, 2, to global (gv, gi: scratch, one vector per
// work-item), local and private memory.
#define HELPERS(T, n)                                                                              \
  __attribute__((overloadable)) VT##n(T) g_frexp(VT##n(T) x, VT##n(int) * p) {                     \
    return frexp(x, p);                                                                            \
  }                                                                                                \
  __attribute__((overloadable)) VT##n(T) g_modf(VT##n(T) x, VT##n(T) * p) { return modf(x, p); }   \
  __attribute__((overloadable)) VT##n(T) g_fract(VT##n(T) x, VT##n(T) * p) { return fract(x, p); } \
  __attribute__((overloadable)) VT##n(T) g_sincos(VT##n(T) x, VT##n(T) * p) {                      \
    return sincos(x, p);                                                                           \
  }                                                                                                \
  __attribute__((overloadable)) VT##n(T) g_remquo(VT##n(T) x, VT##n(T) y, VT##n(int) * p) {        \
    return remquo(x, y, p);                                                                        \
  }                                                                                                \
  __attribute__((overloadable)) VT##n(T) g_lgamma_r(VT##n(T) x, VT##n(int) * p) {                  \
    return lgamma_r(x, p);                                                                         \
  }

// One function in the three spaces; the pointer is its last argument.
#define IN_SPACES(n, P, F, lbuf, gbuf, vslot, sdst, sslot, ...)                                    \
  {                                                                                                \
    P priv_, gpriv_;                                                                               \
    ST##n(F(__VA_ARGS__, &lbuf[l]), i, r + (vslot)*E);                                             \
    ST##n(lbuf[l], i, sdst + (sslot)*E);                                                           \
    ST##n(F(__VA_ARGS__, &priv_), i, r + ((vslot) + 1) * E);                                       \
    ST##n(priv_, i, sdst + ((sslot) + 1) * E);                                                     \
    P *gp_ = i % 3 == 0 ? (P *)&gbuf[i] : i % 3 == 1 ? (P *)&lbuf[l] : &gpriv_;                    \
    ST##n(g_##F(__VA_ARGS__, gp_), i, r + ((vslot) + 2) * E);                                      \
    ST##n(i % 3 == 0 ? gbuf[i] : i % 3 == 1 ? lbuf[l] : gpriv_, i, sdst + ((sslot) + 2) * E);      \
  }

#define SPACES(T, n)                                                                               \
  HELPERS(T, n)                                                                                    \
  kernel void spaces_##T##n(global const T *a, global T *r, global T *st, global int *sq,          \
                            global VT##n(T) * gv, global VT##n(int) * gi, uint E) {                \
    size_t i = get_global_id(0), l = get_local_id(0);                                              \
    local VT##n(T) lv[16];                                                                         \
    local VT##n(int) li[16];                                                                       \
    VT##n(T) x0 = LD##n(i, a), x1 = LD##n(i, a + E), x2 = LD##n(i, a + 2 * E),                     \
             x3 = LD##n(i, a + 3 * E), x4 = LD##n(i, a + 4 * E);                                   \
    IN_SPACES(n, VT##n(int), frexp, li, gi, 0, sq, 0, x0)                                          \
    IN_SPACES(n, VT##n(T), modf, lv, gv, 3, st, 0, x0)                                             \
    IN_SPACES(n, VT##n(T), fract, lv, gv, 6, st, 3, x0)                                            \
    IN_SPACES(n, VT##n(T), sincos, lv, gv, 9, st, 6, x1)                                           \
    IN_SPACES(n, VT##n(int), remquo, li, gi, 12, sq, 3, x2, x3)                                    \
    IN_SPACES(n, VT##n(int), lgamma_r, li, gi, 15, sq, 6, x4)                                      \
  }

SPACES(float, 1)
SPACES(float, 2)
SPACES(float, 3)
SPACES(float, 4)
SPACES(float, 8)
SPACES(float, 16)
SPACES(double, 1)
SPACES(double, 2)
SPACES(double, 3)
SPACES(double, 4)
SPACES(double, 8)
SPACES(double, 16)

// ---- divergent_Tn: only work-items with sel[i] != 0 call sincos and frexp ------
// x from a's slot 1; sine to r, frexp's mantissa to r + E (packed), cosine
// and exponent through global pointers to the vector type into s and q.
#define DIVERGENT(T, n)                                                                            \
  kernel void divergent_##T##n(global const T *a, global const int *sel, global T *r, global T *s, \
                               global int *q, uint E) {                                            \
    size_t i = get_global_id(0);                                                                   \
    if (sel[i]) {                                                                                  \
      VT##n(T) x = LD##n(i, a + E);                                                                \
      ST##n(sincos(x, (global VT##n(T) *)s + i), i, r);                                            \
      ST##n(frexp(x, (global VT##n(int) *)q + i), i, r + E);                                       \
    }                                                                                              \
  }

DIVERGENT(float, 3)
DIVERGENT(double, 2)

// SPDX-License-Identifier: Apache-2.0
