// Vectors loaded, computed on lane by lane and stored within one block,
// which Lanewise keeps in memory order when every lane of a warp runs the
// block (spirv/lower_memory.cpp, findMemoryOrderValues), and neighbouring
// forms that must not be kept so: a uniform operand whose components
// differ, a vector read by a permutation or in another block, divergence
// (tests/kernels/memory_order_test.cpp).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// out[i] = (x[i] + y[i]) * a - 3 for vectors of n elements at index i: a
// splat operand made from an argument, and a splat constant.
#define LANE_WISE(T, n)                                                                            \
  kernel void lanes_##T##n(global const T *x, global const T *y, global T *out, T a) {             \
    const size_t i = get_global_id(0);                                                             \
    vstore##n((vload##n(i, x) + vload##n(i, y)) * (T##n)(a) - (T)3, i, out);                       \
  }
#define EVERY_N(T) LANE_WISE(T, 2) LANE_WISE(T, 3) LANE_WISE(T, 4) LANE_WISE(T, 8) LANE_WISE(T, 16)
EVERY_N(char)
EVERY_N(uchar)
EVERY_N(short)
EVERY_N(ushort)
EVERY_N(int)
EVERY_N(uint)
EVERY_N(long)
EVERY_N(ulong)
EVERY_N(float)
EVERY_N(double)

// Through vector pointers (OpLoad and OpStore of float4): out[i] = x[i] * a + y[i].
kernel void pointers(global const float4 *x, global const float4 *y, global float4 *out, float a) {
  const size_t i = get_global_id(0);
  out[i] = x[i] * a + y[i];
}

// Halves read as floats and floats stored as halves (rounded toward zero):
// out[i] = h[i] * a + 0.25 and halves[i] = f[i] * a.
kernel void halves(global const half *h, global float *out, global const float *f,
                   global half *halves, float a) {
  const size_t i = get_global_id(0);
  vstore8(vload_half8(i, h) * a + 0.25f, i, out);
  vstore_half4_rtz(vload4(i, f) * a, i, halves);
}

// Strided vectors: the work-item's vector at index 2i + 1 of x, stored at
// index 3i of out (the elements between are left alone).
kernel void strided(global const int *x, global int *out, int a) {
  const size_t i = get_global_id(0);
  vstore4(vload4(2 * i + 1, x) * a + 1, 3 * i, out);
}

// Conversions and element functions: out[i] = convert_int4_sat(fmax(x[i], 0) * 2)
// and back[i] = convert_float4(that) * 0.5.
kernel void converts(global const float *x, global int *out, global float *back) {
  const size_t i = get_global_id(0);
  const int4 n = convert_int4_sat(fmax(vload4(i, x), 0.0f) * 2.0f);
  vstore4(n, i, out);
  vstore4(convert_float4(n) * 0.5f, i, back);
}

// A uniform operand whose components differ: out[i] = x[i] + (a, a + 1, a + 2, a + 3)
// and out2[i] = x[i] * (1, 2, 3, 4).
kernel void unequal(global const int *x, global int *out, global int *out2, int a) {
  const size_t i = get_global_id(0);
  const int4 v = vload4(i, x);
  vstore4(v + (int4)(a, a + 1, a + 2, a + 3), i, out);
  vstore4(v * (int4)(1, 2, 3, 4), i, out2);
}

// A vector read by a permutation, and one stored in another block:
// out[i] = x[i].wzyx + x[i], out2[i] = x[i] * 3 when a > 0, else x[i] * 5.
kernel void mixed(global const int *x, global int *out, global int *out2, int a) {
  const size_t i = get_global_id(0);
  const int4 v = vload4(i, x);
  vstore4(v.wzyx + v, i, out);
  const int4 w = v * 3;
  if (a > 0)
    vstore4(w, i, out2);
  else
    vstore4(v * 5, i, out2);
}

// Divergence: work-items whose index is not a multiple of 3 store
// x[i] * 2 + 1; the others leave out[i] alone. Then every work-item
// stores x[i] - 1 to out2[i] after the branch rejoins, and x[i] + 1 to
// out3[i] from a vector loaded after it.
kernel void divergent(global const int *x, global int *out, global int *out2, global int *out3) {
  const size_t i = get_global_id(0);
  const int4 v = vload4(i, x);
  if (i % 3)
    vstore4(v * 2 + 1, i, out);
  vstore4(v - 1, i, out2);
  vstore4(vload4(i, x) + 1, i, out3);
}

// Two dimensions: the vector at row y, column x of a matrix `width`
// vectors wide; out = in * 2 + 1.
kernel void rows2d(global const float *in, global float *out, uint width) {
  const size_t index = get_global_id(1) * width + get_global_id(0);
  vstore4(vload4(index, in) * 2.0f + 1.0f, index, out);
}

// Halves of three elements and of one, and three of each four (vloada_half3):
// out3[i] = h3[i] * a + 1, out1[i] = h[i] - a, outa[i] = ha[i] * a.
kernel void odd_halves(global const half *h, global float *out3, global float *out1,
                       global float *outa, float a) {
  const size_t i = get_global_id(0);
  vstore3(vload_half3(i, h) * a + 1.0f, i, out3);
  out1[i] = vload_half(i, h) - a;
  vstore3(vloada_half3(i, h) * a, i, outa);
}

// SPDX-License-Identifier: Apache-2.0

// Vectors computed in memory order and read out of it as well: w = (x[i]
// + y[i]) * a, read by component extracts in the same block (sums[i] = w.s0
// + w.s1) after u = w - 1 is computed from it; u stored through an affine
// address (out) and, in another block for odd perm[i], at index perm[i] /
// 2 of scattered (an address that is not affine).
#define OUT_OF_ORDER(T, n)                                                                         \
  kernel void out_of_order_##T##n(global const T *x, global const T *y, global T *out,             \
                                  global T *sums, global T *scattered, global const int *perm,     \
                                  T a) {                                                           \
    const size_t i = get_global_id(0);                                                             \
    const T##n w = (vload##n(i, x) + vload##n(i, y)) * (T##n)(a);                                  \
    const T##n u = w - (T)1;                                                                       \
    vstore##n(u, i, out);                                                                          \
    sums[i] = w.s0 + w.s1;                                                                         \
    if (perm[i] & 1)                                                                               \
      vstore##n(u, perm[i] / 2, scattered);                                                        \
  }
#define OUT_OF_ORDER_N(T)                                                                          \
  OUT_OF_ORDER(T, 2) OUT_OF_ORDER(T, 3) OUT_OF_ORDER(T, 4) OUT_OF_ORDER(T, 8) OUT_OF_ORDER(T, 16)
OUT_OF_ORDER_N(char)
OUT_OF_ORDER_N(short)
OUT_OF_ORDER_N(int)
OUT_OF_ORDER_N(float)
OUT_OF_ORDER_N(long)
OUT_OF_ORDER_N(double)

// A 3 x 3 weighted sum over a __local tile of float4 with a halo of one
// (a convolution's inner loop): the taps' loads and multiply-adds in
// memory order, the sum stored at a permuted index (not affine). The
// input is `width` x `height` float4, read clamped to its edges; out[perm[y
// * width + x]] = sum over dy, dx of (3 dy + dx + 1) * in[y + dy - 1][x + dx - 1].
// Groups of at most 16 x 8.
kernel void tile_sum(global const float4 *in, global float4 *out, global const int *perm, int width,
                     int height) {
  local float4 tile[8 + 2][16 + 2];
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int x0 = get_group_id(0) * get_enqueued_local_size(0) - 1;
  const int y0 = get_group_id(1) * get_enqueued_local_size(1) - 1;
  for (int ty = ly; ty < (int)get_local_size(1) + 2; ty += get_local_size(1))
    for (int tx = lx; tx < (int)get_local_size(0) + 2; tx += get_local_size(0))
      tile[ty][tx] = in[clamp(y0 + ty, 0, height - 1) * width + clamp(x0 + tx, 0, width - 1)];
  barrier(CLK_LOCAL_MEM_FENCE);
  float4 sum = 0.0f;
  for (int dy = 0; dy < 3; ++dy)
    for (int dx = 0; dx < 3; ++dx)
      sum += (float)(3 * dy + dx + 1) * tile[ly + dy][lx + dx];
  out[perm[get_global_id(1) * width + get_global_id(0)]] = sum;
}
