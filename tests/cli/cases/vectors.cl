// Vector buffers and a vector value argument; int3 elements take 16 bytes.
kernel void vectors(global const float4 *in, float4 scale, global float4 *out,
                    global const int3 *in3, global int3 *out3) {
  const size_t i = get_global_id(0);
  out[i] = in[i] * scale;
  out3[i] = in3[i] + (int3)(10, 20, 30);
}

// SPDX-License-Identifier: Apache-2.0
