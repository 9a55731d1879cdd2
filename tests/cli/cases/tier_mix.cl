// Elementwise integer and float arithmetic, uniform and varying, in
// divergent branches: what the native tier computes itself (tier_check.sh).
__kernel void mix(__global int *out, __global float *f, int n) {
  int i = (int)get_global_id(0);
  int u = n * 3 + 1;
  int v;
  if (i % 3 == 0)
    v = (i * 3 + u) ^ (i << 2);
  else
    v = (i - 5) * (i + u) - (i >> 1);
  out[i] = v;
  f[i] = (float)i * 0.5f + (float)u;
}
