kernel void vadd(global const float *a, global const float *b, global float *c, int n) {
  size_t i = get_global_id(0);
  if (i < n) c[i] = a[i] + b[i];
}
kernel void loops(global int *out) {
  int i = get_global_id(0);
  int s = 0;
  for (int k = 0; k < i % 7; ++k) { if (k & 1) s += k * 3; else s -= 1; }
  out[i] = s;
}
kernel void local_sum(global const int *in, global int *out, local int *tmp) {
  int l = get_local_id(0), g = get_group_id(0), n = get_local_size(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = n / 2; s > 0; s >>= 1) {
    if (l < s) tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[g] = tmp[0];
}
