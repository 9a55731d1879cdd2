// Idioms and builtins that clang turns into LLVM intrinsics, each
// noted beside its kernel. llvm-spirv-14 translates some wrongly or not at
// all (llvm.bitreverse, llvm.uadd.sat, llvm.sadd.sat, llvm.ssub.sat,
// llvm.vector.reduce.*, llvm.prefetch,
// llvm.{u,s}{add,sub,mul}.with.overflow) and Lanewise's translator
// expands them; llvm-spirv-14 lowers the others itself (llvm.bswap,
// llvm.fshl, llvm.fshr, llvm.usub.sat). Work-item i reads a[i]
// (and b[i]) and writes r[i].

#define ID size_t i = get_global_id(0)

// llvm.bitreverse.i8: the loop, unrolled.
__kernel void reverse_uchar(__global uchar *r, __global const uchar *a) {
  ID;
  uchar x = a[i], y = 0;
  for (int bit = 0; bit < 8; ++bit)
    y |= ((x >> bit) & 1) << (7 - bit);
  r[i] = y;
}

// llvm.bitreverse.i16, .i32, .i64 and .v4i32: the swap ladders.
__kernel void reverse_ushort(__global ushort *r, __global const ushort *a) {
  ID;
  ushort x = a[i];
  x = ((x & 0xaaaa) >> 1) | ((x & 0x5555) << 1);
  x = ((x & 0xcccc) >> 2) | ((x & 0x3333) << 2);
  x = ((x & 0xf0f0) >> 4) | ((x & 0x0f0f) << 4);
  r[i] = (ushort)((x >> 8) | (x << 8));
}

#define REVERSE_UINT(x)                                                                            \
  x = ((x & 0xaaaaaaaau) >> 1) | ((x & 0x55555555u) << 1);                                         \
  x = ((x & 0xccccccccu) >> 2) | ((x & 0x33333333u) << 2);                                         \
  x = ((x & 0xf0f0f0f0u) >> 4) | ((x & 0x0f0f0f0fu) << 4);                                         \
  x = ((x & 0xff00ff00u) >> 8) | ((x & 0x00ff00ffu) << 8);                                         \
  x = (x >> 16) | (x << 16)

__kernel void reverse_uint(__global uint *r, __global const uint *a) {
  ID;
  uint x = a[i];
  REVERSE_UINT(x);
  r[i] = x;
}

__kernel void reverse_uint4(__global uint4 *r, __global const uint4 *a) {
  ID;
  uint4 x = a[i];
  REVERSE_UINT(x);
  r[i] = x;
}

__kernel void reverse_ulong(__global ulong *r, __global const ulong *a) {
  ID;
  ulong x = a[i];
  x = ((x & 0xaaaaaaaaaaaaaaaaul) >> 1) | ((x & 0x5555555555555555ul) << 1);
  x = ((x & 0xccccccccccccccccul) >> 2) | ((x & 0x3333333333333333ul) << 2);
  x = ((x & 0xf0f0f0f0f0f0f0f0ul) >> 4) | ((x & 0x0f0f0f0f0f0f0f0ful) << 4);
  x = ((x & 0xff00ff00ff00ff00ul) >> 8) | ((x & 0x00ff00ff00ff00fful) << 8);
  x = ((x & 0xffff0000ffff0000ul) >> 16) | ((x & 0x0000ffff0000fffful) << 16);
  r[i] = (x >> 32) | (x << 32);
}

// llvm.bitreverse.i1, from "or (zext i1 %c), (zext i1 %c)" left after
// unrolling (reduced from a CLsmith program).
struct S0 {
  int f1;
};
struct S2 {
  int g_15;
  int g_126;
  struct S0 g_449[1][1];
  int g_498;
  struct S0 g_949;
  struct S0 g_1495;
};
int reverse_bool_func(struct S2 *p) {
  uchar l_1401 = 0;
  for (p->g_949.f1 = 0; p->g_949.f1 <= 1; p->g_949.f1 += 1) {
    p->g_15 = ((l_1401 |= ((0 < p->g_15) | p->g_15)) <= p->g_498);
    for (p->g_126 = 0; p->g_126 <= 0; p->g_126 += 1)
      p->g_449[p->g_126][p->g_126] = p->g_1495;
  }
  return l_1401;
}
__kernel void reverse_bool(__global int *r, __global const int *a, __global const int *b) {
  ID;
  struct S2 s = {a[i], 0, {{{0}}}, b[i], {0}, {7}};
  int returned = reverse_bool_func(&s);
  r[i] = returned * 10 + s.g_15;
}

// llvm.bswap.i16, .i32, .i64.
__kernel void swap_ushort(__global ushort *r, __global const ushort *a) {
  ID;
  r[i] = (ushort)((a[i] >> 8) | (a[i] << 8));
}
__kernel void swap_uint(__global uint *r, __global const uint *a) {
  ID;
  uint x = a[i];
  r[i] = (x >> 24) | ((x >> 8) & 0xff00) | ((x << 8) & 0xff0000) | (x << 24);
}
__kernel void swap_ulong(__global ulong *r, __global const ulong *a) {
  ID;
  ulong x = a[i], y = 0;
  for (int byte = 0; byte < 8; ++byte)
    y |= ((x >> (8 * byte)) & 0xff) << (56 - 8 * byte);
  r[i] = y;
}

// llvm.fshl.i32 (a left rotate by a variable amount), llvm.fshr.i32 (a
// right one), llvm.fshl.i32 of two values (a funnel shift), llvm.fshl.i64
// (a constant rotate).
__kernel void rotate_uint(__global uint *r, __global const uint *a, __global const uint *b) {
  ID;
  uint x = a[i], s = b[i];
  r[i] = (x << (s & 31)) | (x >> ((32 - s) & 31));
}
__kernel void rotate_right_uint(__global uint *r, __global const uint *a, __global const uint *b) {
  ID;
  uint x = a[i], s = b[i];
  r[i] = (x >> (s & 31)) | (x << ((32 - s) & 31));
}
__kernel void funnel_uint(__global uint *r, __global const uint *a, __global const uint *b) {
  ID;
  r[i] = (a[i] >> 5) | (b[i] << 27);
}
__kernel void rotate_ulong(__global ulong *r, __global const ulong *a) {
  ID;
  r[i] = (a[i] << 13) | (a[i] >> 51);
}

// llvm.uadd.sat and llvm.usub.sat.
#define UNSIGNED_SATURATING(T)                                                                     \
  __kernel void add_sat_##T(__global T *r, __global const T *a, __global const T *b) {             \
    ID;                                                                                            \
    T sum = a[i] + b[i];                                                                           \
    r[i] = sum < a[i] ? (T)-1 : sum;                                                               \
  }                                                                                                \
  __kernel void sub_sat_##T(__global T *r, __global const T *a, __global const T *b) {             \
    ID;                                                                                            \
    r[i] = a[i] > b[i] ? a[i] - b[i] : 0;                                                          \
  }
UNSIGNED_SATURATING(uint)
UNSIGNED_SATURATING(ulong)

// llvm.sadd.sat and llvm.ssub.sat: a clamped wider sum.
#define SIGNED_SATURATING(T, W, MIN, MAX)                                                          \
  __kernel void add_sat_##T(__global T *r, __global const T *a, __global const T *b) {             \
    ID;                                                                                            \
    W sum = (W)a[i] + b[i];                                                                        \
    r[i] = sum > MAX ? MAX : sum < MIN ? MIN : (T)sum;                                             \
  }                                                                                                \
  __kernel void sub_sat_##T(__global T *r, __global const T *a, __global const T *b) {             \
    ID;                                                                                            \
    W difference = (W)a[i] - b[i];                                                                 \
    r[i] = difference > MAX ? MAX : difference < MIN ? MIN : (T)difference;                        \
  }
SIGNED_SATURATING(char, short, CHAR_MIN, CHAR_MAX)
SIGNED_SATURATING(short, int, SHRT_MIN, SHRT_MAX)
SIGNED_SATURATING(int, long, INT_MIN, INT_MAX)

// llvm.{u,s}{add,sub,mul}.with.overflow: clang's checked arithmetic.
// r[2i] is the wrapped result, r[2i + 1] whether the operation overflowed.
#define CHECKED(T, OPERATION)                                                                      \
  __kernel void OPERATION##_overflow_##T(__global T *r, __global const T *a,                       \
                                         __global const T *b) {                                    \
    ID;                                                                                            \
    T result;                                                                                      \
    r[2 * i + 1] = __builtin_##OPERATION##_overflow(a[i], b[i], &result);                          \
    r[2 * i] = result;                                                                             \
  }
#define CHECKED_ALL(T) CHECKED(T, add) CHECKED(T, sub) CHECKED(T, mul)
CHECKED_ALL(uchar)
CHECKED_ALL(char)
CHECKED_ALL(ushort)
CHECKED_ALL(short)
CHECKED_ALL(uint)
CHECKED_ALL(int)
CHECKED_ALL(ulong)
CHECKED_ALL(long)

// llvm.vector.reduce.{smax,smin,umax,umin,fmax,fmin,and,or,xor}: clang's
// __builtin_reduce_*. r[5i .. 5i + 4] are max, min, and, or, xor of a[i]
// (max and min of the floats).
#define REDUCTIONS(T, N)                                                                           \
  __kernel void reduce_##T##N(__global T *r, __global const T##N *a) {                             \
    ID;                                                                                            \
    r[5 * i] = __builtin_reduce_max(a[i]);                                                         \
    r[5 * i + 1] = __builtin_reduce_min(a[i]);                                                     \
    r[5 * i + 2] = __builtin_reduce_and(a[i]);                                                     \
    r[5 * i + 3] = __builtin_reduce_or(a[i]);                                                      \
    r[5 * i + 4] = __builtin_reduce_xor(a[i]);                                                     \
  }
REDUCTIONS(int, 4)
REDUCTIONS(uint, 8)
REDUCTIONS(char, 16)
REDUCTIONS(ulong, 2)

__kernel void reduce_float4(__global float *r, __global const float4 *a) {
  ID;
  r[2 * i] = __builtin_reduce_max(a[i]);
  r[2 * i + 1] = __builtin_reduce_min(a[i]);
}

// llvm.prefetch: __builtin_prefetch, a hint.
__kernel void prefetched_copy(__global int *r, __global const int *a) {
  ID;
  __builtin_prefetch(a + i + 64);
  r[i] = a[i];
}

// SPDX-License-Identifier: Apache-2.0
