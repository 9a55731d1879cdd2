// Defect (a): at -O2, llvm-spirv-14 places the loop exit block, which uses a
// value defined in the loop body, before the body: blocks out of dominance
// order ("ID has not been defined" from spirv-val).
kernel void nbody(global const float4* pos, global float4* vel, int n, float dt, float eps) {
  int i = get_global_id(0);
  float3 p = pos[i].xyz;
  float3 acc = (float3)(0.0f);
  for (int j = 0; j < n; ++j) {
    float3 d = pos[j].xyz - p;
    float r2 = dot(d, d) + eps;
    float inv = rsqrt(r2 * r2 * r2);
    acc += d * (pos[j].w * inv);
  }
  float3 v = vel[i].xyz + acc * dt;
  vel[i] = (float4)(v, 0.0f);
}

// SPDX-License-Identifier: Apache-2.0
