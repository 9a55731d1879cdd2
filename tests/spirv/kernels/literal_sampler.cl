// A sampler literal becomes OpConstantSampler.
constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
kernel void copy(read_only image2d_t src, global float4* out) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  out[p.x] = read_imagef(src, nearest, p);
}

// SPDX-License-Identifier: Apache-2.0
