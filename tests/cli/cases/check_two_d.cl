// One work-item of a 2-D range writes far outside the image.
kernel void paint(global float *image, int width) {
  size_t x = get_global_id(0), y = get_global_id(1);
  size_t skew = x == 3 && y == 2 ? 4096 : 0;
  image[y * width + x + skew] = 1.0f;
}

// SPDX-License-Identifier: Apache-2.0
