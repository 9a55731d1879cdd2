// upsample (OpenCL C 3.0, 6.15.3) on every type pair and vector width
// (tests/kernels/integer_test.cpp). A file of its own: the integer
// functions of cl/integer.cl do not depend on it.
//
// Kernel upsample_T_w (T the type of hi, w the width, 1 for scalars):
// work-item i writes upsample(hi, lo) of the w-component vectors at element
// i w of hi (T) and lo (the unsigned type of T's size) to element i w of out
// (R, the integer type of twice the size, signed if T is). Buffers are
// densely packed (vloadn / vstoren).
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

#define UPSAMPLE_KERNEL(T, U, R, V, w)                                                             \
  kernel void upsample_##V(global const T *hi, global const U *lo, global R *out) {                \
    const size_t i = get_global_id(0);                                                             \
    ST##w(upsample(LD##w(i, hi), LD##w(i, lo)), i, out)                                            \
  }

#define WIDTHS(T, U, R)                                                                            \
  UPSAMPLE_KERNEL(T, U, R, T, 1)                                                                   \
  UPSAMPLE_KERNEL(T, U, R, T##2, 2)                                                                \
  UPSAMPLE_KERNEL(T, U, R, T##3, 3)                                                                \
  UPSAMPLE_KERNEL(T, U, R, T##4, 4)                                                                \
  UPSAMPLE_KERNEL(T, U, R, T##8, 8)                                                                \
  UPSAMPLE_KERNEL(T, U, R, T##16, 16)

WIDTHS(char, uchar, short)
WIDTHS(uchar, uchar, ushort)
WIDTHS(short, ushort, int)
WIDTHS(ushort, ushort, uint)
WIDTHS(int, uint, long)
WIDTHS(uint, uint, ulong)

// SPDX-License-Identifier: Apache-2.0
