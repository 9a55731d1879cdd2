// Image and sampler parameters, a sampled read and a write.
kernel void blur(read_only image2d_t src, write_only image2d_t dst, sampler_t s) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(dst, p, read_imagef(src, s, p));
}

// SPDX-License-Identifier: Apache-2.0
