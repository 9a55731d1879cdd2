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
