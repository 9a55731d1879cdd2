// Integer functions of OpenCL C 3.0 (6.15.3) on every integer type and
// vector width (tests/kernels/integer_test.cpp).
//
// Kernel integer_T_w (T the element type, w the width, 1 for scalars):
// work-item i takes the w-component vectors at element i w of its inputs
// (vloadn / vstoren, so buffers are densely packed, the 3-component vectors
// too) and writes the result of function f to out + f n + i w, in the
// order of the table below (n: the element count of every input). abs and
// abs_diff return the unsigned type, stored in its bits.
//
//   0 abs(a)             1 abs_diff(a, b)     2 add_sat(a, b)      3 sub_sat(a, b)
//   4 hadd(a, b)         5 rhadd(a, b)        6 max(a, b)          7 min(a, b)
//   8 mul_hi(a, b)       9 rotate(a, b)      10 clz(a)            11 ctz(a)
//  12 popcount(a)       13 mad_hi(a, b, c)   14 mad_sat(a, b, c)  15 clamp(a, lo, hi)
// Vectors only, with the scalar operands s[3 i], s[3 i + 1], s[3 i + 2]:
//  16 max(a, s0)        17 min(a, s0)        18 clamp(a, s1, s2)
// int and uint only, with operands d, e in the 24-bit range:
//  19 mul24(d, e)       20 mad24(d, e, c)
// Odd work-items only (the others leave these outputs as they were; the
// operands are swapped so that -O2 cannot reuse the results above):
//  21 sub_sat(b, a)     22 mad_sat(b, c, a)  23 clz(b)            24 rotate(b, a)
#define LD1(i, p) ((p)[i])
#define LD2(i, p) vload2(i, p)
#define LD3(i, p) vload3(i, p)
#define LD4(i, p) vload4(i, p)
#define LD8(i, p) vload8(i, p)
#define LD16(i, p) vload16(i, p)
#define ST1(v, i, p) (p)[i] = (v);
#define ST2(v, i, p) vstore2(v, i, p);
#define ST3(v, i, p) vstore3(v, i, p);
#define ST4(v, i, p) vstore4(v, i, p);
#define ST8(v, i, p) vstore8(v, i, p);
#define ST16(v, i, p) vstore16(v, i, p);

// The forms with a scalar second (and third) operand, on vectors.
#define SCALAR_FORMS1(T, U, w)
#define SCALAR_FORMS_V(T, U, w)                                                                    \
  ST##w(max(x, s[3 * i]), i, out + 16 * n)                                                         \
  ST##w(min(x, s[3 * i]), i, out + 17 * n)                                                         \
  ST##w(clamp(x, s[3 * i + 1], s[3 * i + 2]), i, out + 18 * n)
#define SCALAR_FORMS2 SCALAR_FORMS_V
#define SCALAR_FORMS3 SCALAR_FORMS_V
#define SCALAR_FORMS4 SCALAR_FORMS_V
#define SCALAR_FORMS8 SCALAR_FORMS_V
#define SCALAR_FORMS16 SCALAR_FORMS_V

// mul24 and mad24, defined on int and uint only.
#define FAST_NONE(V, w)
#define FAST_24(V, w)                                                                              \
  {                                                                                                \
    const V dd = LD##w(i, d), ee = LD##w(i, e);                                                    \
    ST##w(mul24(dd, ee), i, out + 19 * n)                                                          \
    ST##w(mad24(dd, ee, z), i, out + 20 * n)                                                       \
  }

// V: the vector type (T for w = 1).
#define INTEGER_KERNEL(T, U, V, w, FAST)                                                           \
  kernel void integer_##V(global const T *a, global const T *b, global const T *c,                 \
                          global const T *lo, global const T *hi, global const T *d,               \
                          global const T *e, global const T *s, global T *out, uint n) {           \
    const size_t i = get_global_id(0);                                                             \
    const V x = LD##w(i, a), y = LD##w(i, b), z = LD##w(i, c);                                     \
    ST##w(abs(x), i, (global U *)out)                                                              \
    ST##w(abs_diff(x, y), i, (global U *)(out + n))                                                \
    ST##w(add_sat(x, y), i, out + 2 * n)                                                           \
    ST##w(sub_sat(x, y), i, out + 3 * n)                                                           \
    ST##w(hadd(x, y), i, out + 4 * n)                                                              \
    ST##w(rhadd(x, y), i, out + 5 * n)                                                             \
    ST##w(max(x, y), i, out + 6 * n)                                                               \
    ST##w(min(x, y), i, out + 7 * n)                                                               \
    ST##w(mul_hi(x, y), i, out + 8 * n)                                                            \
    ST##w(rotate(x, y), i, out + 9 * n)                                                            \
    ST##w(clz(x), i, out + 10 * n)                                                                 \
    ST##w(ctz(x), i, out + 11 * n)                                                                 \
    ST##w(popcount(x), i, out + 12 * n)                                                            \
    ST##w(mad_hi(x, y, z), i, out + 13 * n)                                                        \
    ST##w(mad_sat(x, y, z), i, out + 14 * n)                                                       \
    ST##w(clamp(x, LD##w(i, lo), LD##w(i, hi)), i, out + 15 * n)                                   \
    SCALAR_FORMS##w(T, U, w)                                                                       \
    FAST(V, w)                                                                                     \
    if (i & 1) {                                                                                   \
      ST##w(sub_sat(y, x), i, out + 21 * n)                                                        \
      ST##w(mad_sat(y, z, x), i, out + 22 * n)                                                     \
      ST##w(clz(y), i, out + 23 * n)                                                               \
      ST##w(rotate(y, x), i, out + 24 * n)                                                         \
    }                                                                                              \
  }

#define WIDTHS(T, U, FAST)                                                                         \
  INTEGER_KERNEL(T, U, T, 1, FAST)                                                                 \
  INTEGER_KERNEL(T, U, T##2, 2, FAST)                                                              \
  INTEGER_KERNEL(T, U, T##3, 3, FAST)                                                              \
  INTEGER_KERNEL(T, U, T##4, 4, FAST)                                                              \
  INTEGER_KERNEL(T, U, T##8, 8, FAST)                                                              \
  INTEGER_KERNEL(T, U, T##16, 16, FAST)

WIDTHS(char, uchar, FAST_NONE)
WIDTHS(uchar, uchar, FAST_NONE)
WIDTHS(short, ushort, FAST_NONE)
WIDTHS(ushort, ushort, FAST_NONE)
WIDTHS(int, uint, FAST_24)
WIDTHS(uint, uint, FAST_24)
WIDTHS(long, ulong, FAST_NONE)
WIDTHS(ulong, ulong, FAST_NONE)

// SPDX-License-Identifier: Apache-2.0
