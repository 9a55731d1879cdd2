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

// Values carried round a loop whose trip count differs per work-item: one
// read after its successor is computed, one computed from itself, a vector
// permuted by each iteration, and one permuted and then added to. The
// lowering gives a carried value its phi's register where that is safe
// (findCoalescedPhis), so no copy is needed on the back edge.
kernel void carried(global int *out, global int4 *vout) {
  const int i = get_global_id(0);
  int a = i, b = 1, c = 0;
  int4 v = (int4)(i, i + 1, i + 2, i + 3), w = v * 2;
  for (int k = 0; k < i % 7 + 1; ++k) {
    const int next = a + b;
    c = c * 3 + a;
    b = a - k;
    a = next;
    v = v.wxyz;
    w = w.yzwx + k;
  }
  out[3 * i] = a;
  out[3 * i + 1] = b;
  out[3 * i + 2] = c;
  vout[2 * i] = v;
  vout[2 * i + 1] = w;
}

// SPDX-License-Identifier: Apache-2.0
