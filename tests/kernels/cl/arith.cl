// Core arithmetic, bitwise, comparison and logical operators of OpenCL C for
// every built-in scalar type and vector width (tests/kernels/arith_test.cpp).
//
// One kernel per (operation family, type, width), e.g. ops_int4, each a
// straight line of `out[...] = x OP y` over values loaded with plain pointer
// indexing. Results go to out[N * i + k] (the k-th operation of the family,
// in the order of the tables in arith_test.cpp). Kernels are grouped this
// way, not one per operation, because building a module of a few thousand
// kernels takes Lanewise tens of seconds (the SPIR-V validator's name
// mapper is quadratic in repeated OpNames).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// M(E, T, R): E the element type, T the operand type, R the type of a
// comparison of two T (int for scalars, the signed integer type of E's size
// for vectors).
#define WIDTHS(M, E, S)                                                                            \
  M(E, E, int) M(E, E##2, S##2) M(E, E##3, S##3) M(E, E##4, S##4) M(E, E##8, S##8)                 \
      M(E, E##16, S##16)
#define NARROW_WIDTHS(M, E, S) M(E, E, int) M(E, E##3, S##3) M(E, E##4, S##4)
#define INTEGERS(W, M)                                                                             \
  W(M, char, char) W(M, uchar, char) W(M, short, short) W(M, ushort, short) W(M, int, int)         \
      W(M, uint, int) W(M, long, long) W(M, ulong, long)
#define FLOATS(W, M) W(M, half, short) W(M, float, int) W(M, double, long)

// ---- ops_T: every operator on varying operands -----------------------------
// a, b: operands; d: b with 0 and -1 replaced (no division by zero, no
// INT_MIN / -1), the divisor of x / d and y % d on integers (not both x / d
// and x % d: clang -O2 then emits a freeze, which llvm-spirv-14 cannot
// translate); c: select conditions.
#define OPS_HEAD(T, R, NT, NR)                                                                     \
  kernel void ops_##T(global const T *a, global const T *b, global const T *d, global const R *c,  \
                      global T *out, global R *cmp) {                                              \
    size_t i = get_global_id(0);                                                                   \
    T x = a[i], y = b[i], z = d[i];                                                                \
    global T *o = out + NT * i;                                                                    \
    global R *p = cmp + NR * i;                                                                    \
    o[0] = x + y;                                                                                  \
    o[1] = x - y;                                                                                  \
    o[2] = x * y;                                                                                  \
    o[4] = -x;                                                                                     \
    o[5] = c[i] ? x : y;                                                                           \
    p[0] = x == y;                                                                                 \
    p[1] = x != y;                                                                                 \
    p[2] = x < y;                                                                                  \
    p[3] = x <= y;                                                                                 \
    p[4] = x > y;                                                                                  \
    p[5] = x >= y;                                                                                 \
    p[6] = !x;                                                                                     \
    p[7] = x && y;                                                                                 \
    p[8] = x || y;

#define INTEGER_OPS(E, T, R)                                                                       \
  OPS_HEAD(T, R, 13, 9)                                                                            \
  o[3] = x / z;                                                                                    \
  o[6] = y % z;                                                                                    \
  o[7] = ~x;                                                                                       \
  o[8] = x & y;                                                                                    \
  o[9] = x | y;                                                                                    \
  o[10] = x ^ y;                                                                                   \
  o[11] = x << y;                                                                                  \
  o[12] = x >> y;                                                                                  \
  }

#define FLOAT_OPS(E, T, R)                                                                         \
  OPS_HEAD(T, R, 6, 23)                                                                            \
  o[3] = x / y;                                                                                    \
  p[9] = isnan(x);                                                                                 \
  p[10] = isinf(x);                                                                                \
  p[11] = isfinite(x);                                                                             \
  p[12] = isnormal(x);                                                                             \
  p[13] = signbit(x);                                                                              \
  p[14] = isordered(x, y);                                                                         \
  p[15] = isunordered(x, y);                                                                       \
  p[16] = islessgreater(x, y);                                                                     \
  p[17] = isequal(x, y);                                                                           \
  p[18] = isnotequal(x, y);                                                                        \
  p[19] = isgreater(x, y);                                                                         \
  p[20] = isgreaterequal(x, y);                                                                    \
  p[21] = isless(x, y);                                                                            \
  p[22] = islessequal(x, y);                                                                       \
  }

INTEGERS(WIDTHS, INTEGER_OPS)
FLOATS(WIDTHS, FLOAT_OPS)

// ---- forms_T: uniform, varying and constant operands ------------------------
// v: varying (x = a[i], y = b[i]), u: uniform (kernel arguments ua, ub), c:
// the constant 3, s: a uniform scalar of the element type (us), w: a varying
// scalar (w[i]). b, ub and us are never 0 or -1 (they divide). A scalar
// shifted by a vector is not OpenCL C: shifts have no w form.
#define FORMS7(o, OP, T)                                                                           \
  o[0] = x OP ub;                                                                                  \
  o[1] = ua OP y;                                                                                  \
  o[2] = ua OP ub;                                                                                 \
  o[3] = x OP(T)(3);                                                                               \
  o[4] = (T)(3) OP y;                                                                              \
  o[5] = ua OP(T)(3);                                                                              \
  o[6] = x OP us;
#define FORMS8(o, OP, T)                                                                           \
  FORMS7(o, OP, T)                                                                                 \
  o[7] = w[i] OP y;

#define FORMS_HEAD(E, T, R)                                                                        \
  kernel void forms_##T(global const T *a, global const T *b, global const E *w, T ua, T ub, E us, \
                        int c, global T *out, global R *cmp) {                                     \
    size_t i = get_global_id(0);                                                                   \
    T x = a[i], y = b[i];                                                                          \
    global T *o = out + 26 * i;                                                                    \
    global R *p = cmp + 8 * i;                                                                     \
    FORMS8(o, -, T)                                                                                \
    FORMS8((o + 8), /, T)                                                                          \
    o[16] = c ? x : y;                                                                             \
    o[17] = c ? x : ub;                                                                            \
    o[18] = c ? ua : ub;                                                                           \
    FORMS8(p, <, T)

#define INTEGER_FORMS(E, T, R)                                                                     \
  FORMS_HEAD(E, T, R)                                                                              \
  FORMS7((o + 19), <<, T)                                                                          \
  }
#define FLOAT_FORMS(E, T, R)                                                                       \
  FORMS_HEAD(E, T, R)                                                                              \
  }

INTEGERS(NARROW_WIDTHS, INTEGER_FORMS)
FLOATS(NARROW_WIDTHS, FLOAT_FORMS)

// ---- odd_T: divergence ------------------------------------------------------
// Only odd work-items compute; even ones must leave out and cmp as they
// were. Slots 0, 1 and cmp 0 are stores under the branch; slots 2, 3 and
// cmp 1 are values merged after it and stored by every work-item.
#define DIVERGENT(E, T, R)                                                                         \
  kernel void odd_##T(global const T *a, global const T *b, global T *out, global R *cmp) {        \
    size_t i = get_global_id(0);                                                                   \
    if (i & 1) {                                                                                   \
      T x = a[i], y = b[i];                                                                        \
      out[4 * i] = x - y;                                                                          \
      out[4 * i + 1] = x < y ? x : y;                                                              \
      cmp[2 * i] = x < y;                                                                          \
    }                                                                                              \
    T x = a[i], y = b[i];                                                                          \
    T r = out[4 * i + 2], s = out[4 * i + 3];                                                      \
    R q = cmp[2 * i + 1];                                                                          \
    if (i & 1) {                                                                                   \
      r = x - y;                                                                                   \
      s = x < y ? x : y;                                                                           \
      q = x < y;                                                                                   \
    }                                                                                              \
    out[4 * i + 2] = r;                                                                            \
    out[4 * i + 3] = s;                                                                            \
    cmp[2 * i + 1] = q;                                                                            \
  }

INTEGERS(WIDTHS, DIVERGENT)
FLOATS(WIDTHS, DIVERGENT)

// SPDX-License-Identifier: Apache-2.0
