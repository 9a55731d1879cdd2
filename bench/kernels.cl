// The kernels lanewise-bench times on Lanewise and on PoCL. OpenCL C 1.2
// code: Lanewise gets it as SPIR-V compiled at build time (clang-14 -O2,
// llvm-spirv-14), PoCL compiles this text itself.
//
// No fused multiply-add contraction anywhere: every platform and the C++
// reference (built with -ffp-contract=off) then round each operation the
// same way, so outputs can be compared exactly.
#pragma OPENCL FP_CONTRACT OFF

// (1) c = a + b over n floats: one load pair and one store per work-item,
// memory bound.
__kernel void vector_add(__global const float *a, __global const float *b, __global float *c,
                         uint n) {
  const size_t i = get_global_id(0);
  if (i < n)
    c[i] = a[i] + b[i];
}

// (2) C = A * B for n x n row-major matrices, n a multiple of TILE, in
// TILE x TILE work-groups that stage a tile of A and of B in __local memory
// between two barriers per step.
#define TILE 16
__kernel void matmul_tiled(__global const float *A, __global const float *B, __global float *C,
                           int n) {
  __local float As[TILE][TILE];
  __local float Bs[TILE][TILE];
  const int col = (int)get_global_id(0);
  const int row = (int)get_global_id(1);
  const int lx = (int)get_local_id(0);
  const int ly = (int)get_local_id(1);
  float acc = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    As[ly][lx] = A[row * n + t + lx];
    Bs[ly][lx] = B[(t + ly) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; ++k)
      acc += As[ly][k] * Bs[k][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = acc;
}

// (3) Iteration counts of z = z^2 + c over a width x height grid of points
// c = (x0 + px * dx, y0 + py * dy), at most max_iter iterations: neighbouring
// work-items leave the loop at different iterations (a divergent loop).
__kernel void mandelbrot(__global int *counts, int width, float x0, float y0, float dx, float dy,
                         int max_iter) {
  const int px = (int)get_global_id(0);
  const int py = (int)get_global_id(1);
  const float cr = x0 + (float)px * dx;
  const float ci = y0 + (float)py * dy;
  float zr = 0.0f, zi = 0.0f;
  int it = 0;
  while (it < max_iter) {
    const float zr2 = zr * zr;
    const float zi2 = zi * zi;
    if (zr2 + zi2 > 4.0f)
      break;
    const float next = zr2 - zi2 + cr;
    zi = 2.0f * zr * zi + ci;
    zr = next;
    ++it;
  }
  counts[py * width + px] = it;
}

// (4) out = a * x + y over n floats, four per work-item through vload4 and
// vstore4: streaming through the vector loads and stores.
__kernel void saxpy_vload4(float a, __global const float *x, __global const float *y,
                           __global float *out) {
  const size_t i = get_global_id(0);
  vstore4(a * vload4(i, x) + vload4(i, y), i, out);
}

// (5) out = (float)h over n halves, eight per work-item through vload_half8:
// streaming through the half-to-float conversions of vload_half.
__kernel void half_to_float(__global const half *h, __global float *out) {
  const size_t i = get_global_id(0);
  vstore8(vload_half8(i, h), i, out);
}

// (6) Transposes 4 x 4 blocks of floats (16 consecutive floats each, row
// major), one block per work-item, with shuffle2 and shuffle.
__kernel void transpose4_shuffle(__global const float *in, __global float *out) {
  const size_t i = get_global_id(0);
  const float4 r0 = vload4(4 * i + 0, in), r1 = vload4(4 * i + 1, in);
  const float4 r2 = vload4(4 * i + 2, in), r3 = vload4(4 * i + 3, in);
  // Interleave rows 0/1 and 2/3, then take alternate halves.
  const float4 t0 = shuffle2(r0, r1, (uint4)(0, 4, 1, 5));
  const float4 t1 = shuffle2(r0, r1, (uint4)(2, 6, 3, 7));
  const float4 t2 = shuffle2(r2, r3, (uint4)(0, 4, 1, 5));
  const float4 t3 = shuffle2(r2, r3, (uint4)(2, 6, 3, 7));
  const float8 low = (float8)(t0, t2), high = (float8)(t1, t3);
  vstore4(shuffle(low, (uint4)(0, 1, 4, 5)), 4 * i + 0, out);
  vstore4(shuffle(low, (uint4)(2, 3, 6, 7)), 4 * i + 1, out);
  vstore4(shuffle(high, (uint4)(0, 1, 4, 5)), 4 * i + 2, out);
  vstore4(shuffle(high, (uint4)(2, 3, 6, 7)), 4 * i + 3, out);
}

// (7) The sum of each work-group's values: a tree in __local memory with a
// barrier per level (integers, so the order of the additions cannot show).
#define REDUCE_GROUP 256
__kernel void reduce_local(__global const int *in, __global int *sums) {
  __local int partial[REDUCE_GROUP];
  const uint lid = get_local_id(0);
  partial[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint half_size = REDUCE_GROUP / 2; half_size > 0; half_size /= 2) {
    if (lid < half_size)
      partial[lid] += partial[lid + half_size];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    sums[get_group_id(0)] = partial[0];
}

// (8) A 256-bin histogram of bytes: per-work-group counts with __local
// atomics, added into the global bins with global atomics.
#define BINS 256
__kernel void histogram_atomics(__global const uchar *data, uint bytes_per_item,
                                __global uint *bins) {
  __local uint local_bins[BINS];
  const uint lid = get_local_id(0);
  for (uint b = lid; b < BINS; b += get_local_size(0))
    local_bins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  const size_t first = get_global_id(0) * bytes_per_item;
  for (uint k = 0; k < bytes_per_item; ++k)
    atomic_inc(&local_bins[data[first + k]]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = lid; b < BINS; b += get_local_size(0))
    if (local_bins[b])
      atomic_add(&bins[b], local_bins[b]);
}

// (9) Black-Scholes call and put prices (exp, log, sqrt, and the normal
// distribution through erfc): transcendental math.
float normal_cdf(float x) { return 0.5f * erfc(-x * M_SQRT1_2_F); }
__kernel void black_scholes(__global const float *spot, __global const float *strike,
                            __global const float *years, float rate, float volatility,
                            __global float2 *prices) {
  const size_t i = get_global_id(0);
  const float s = spot[i], k = strike[i], t = years[i];
  const float root_t = sqrt(t);
  const float d1 = (log(s / k) + (rate + 0.5f * volatility * volatility) * t) /
                   (volatility * root_t);
  const float d2 = d1 - volatility * root_t;
  const float discounted = k * exp(-rate * t);
  const float call = s * normal_cdf(d1) - discounted * normal_cdf(d2);
  const float put = discounted * normal_cdf(-d2) - s * normal_cdf(-d1);
  prices[i] = (float2)(call, put);
}

// (10) An 8-point Walsh-Hadamard transform across neighbouring work-items
// (aligned groups of 8): sub-group shuffles where the device has them
// (cl_khr_subgroup_shuffle), otherwise the same exchange through __local
// memory with barriers.
#define WHT_GROUP 128
__kernel void walsh8_subgroup(__global const int *in, __global int *out) {
  const size_t i = get_global_id(0);
  int v = in[i];
#if defined(cl_khr_subgroup_shuffle)
  const uint lane = get_sub_group_local_id();
  for (uint h = 1; h < 8; h *= 2) {
    const int partner = sub_group_shuffle_xor(v, h);
    v = (lane & h) ? partner - v : v + partner;
  }
#else
  __local int exchange[WHT_GROUP];
  const uint lane = get_local_id(0);
  for (uint h = 1; h < 8; h *= 2) {
    exchange[lane] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    const int partner = exchange[lane ^ h];
    barrier(CLK_LOCAL_MEM_FENCE);
    v = (lane & h) ? partner - v : v + partner;
  }
#endif
  out[i] = v;
}

// (11) Does nothing: the launch cost.
__kernel void empty(void) {}

// SPDX-License-Identifier: Apache-2.0
