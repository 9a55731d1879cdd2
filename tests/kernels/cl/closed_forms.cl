// Loops clang -O2 replaces by their closed forms, which SCEV computes one
// bit wider than the loop's type: i9 and i11 for uchar, i17 and i19 for
// ushort, i33 and i35 for uint, i65 and i67 for ulong, paired in <2 x i33>
// by the SLP vectoriser. llvm-spirv-14 writes them with
// SPV_INTEL_arbitrary_precision_integers.
#define SUMS(T, name)                                                       \
  kernel void name(global const T *n, global T *out) {                      \
    size_t g = get_global_id(0);                                            \
    T c = n[g];                                                             \
    T a = 0, b = 0, d = 0, e = 0;                                           \
    for (T i = 1; i < c; i++)                                               \
      a += i;                                                               \
    for (T i = 0; i < c; i++)                                               \
      b += i * i;                                                           \
    for (T i = 0; i < c; i++)                                               \
      d += i * i * i;                                                       \
    for (T i = c; i > 3; i -= 3)                                            \
      e += i * 7 - 5;                                                       \
    out[4 * g] = a;                                                         \
    out[4 * g + 1] = b;                                                     \
    out[4 * g + 2] = d;                                                     \
    out[4 * g + 3] = e;                                                     \
  }
SUMS(uchar, sums_uchar)
SUMS(ushort, sums_ushort)
SUMS(uint, sums_uint)
SUMS(int, sums_int)
SUMS(ulong, sums_ulong)
SUMS(long, sums_long)

kernel void sums_pair(global const uint *n, global uint2 *out) {
  size_t g = get_global_id(0);
  uint c = n[g];
  uint2 r = 0;
  for (uint i = 1; i < c; i++) {
    r.x += i;
    r.y += i * i;
  }
  out[g] = r;
}

// SPDX-License-Identifier: Apache-2.0
