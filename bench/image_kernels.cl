// SPDX-License-Identifier: Apache-2.0
// The image bench's kernels (bench/images.cpp): filters as image-processing
// programs write them, reading image2d_t through samplers in 2-D ranges.
// Every output is compared with a reference computed on the host.

// Unnormalised coordinates, the edge texel repeated outside the image.
__constant sampler_t nearestEdge =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
// Normalised coordinates, bilinear, the border colour outside the image.
__constant sampler_t linearBorder =
    CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR;

__constant float gauss9[9] = {0.0162f, 0.0540f, 0.1216f, 0.1945f, 0.2270f,
                              0.1945f, 0.1216f, 0.0540f, 0.0162f};

// A 5x5 box blur of an RGBA 8-bit image, integer coordinates.
__kernel void box_blur(__read_only image2d_t src, __write_only image2d_t dst) {
  const int x = get_global_id(0), y = get_global_id(1);
  float4 sum = 0.0f;
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx)
      sum += read_imagef(src, nearestEdge, (int2)(x + dx, y + dy));
  write_imagef(dst, (int2)(x, y), sum * (1.0f / 25.0f));
}

// A 9-tap Gaussian, horizontal then vertical, of an RGBA float image, float
// coordinates at texel centres.
__kernel void blur_horizontal(__read_only image2d_t src, __write_only image2d_t dst) {
  const int x = get_global_id(0), y = get_global_id(1);
  const float2 centre = (float2)(x + 0.5f, y + 0.5f);
  float4 sum = 0.0f;
  for (int k = -4; k <= 4; ++k)
    sum += gauss9[k + 4] * read_imagef(src, nearestEdge, centre + (float2)(k, 0.0f));
  write_imagef(dst, (int2)(x, y), sum);
}

__kernel void blur_vertical(__read_only image2d_t src, __write_only image2d_t dst) {
  const int x = get_global_id(0), y = get_global_id(1);
  const float2 centre = (float2)(x + 0.5f, y + 0.5f);
  float4 sum = 0.0f;
  for (int k = -4; k <= 4; ++k)
    sum += gauss9[k + 4] * read_imagef(src, nearestEdge, centre + (float2)(0.0f, k));
  write_imagef(dst, (int2)(x, y), sum);
}

// An unsharp mask of an RGBA 8-bit image: the pixel plus `amount` times its
// difference from the 3x3 mean.
__kernel void unsharp_mask(__read_only image2d_t src, __write_only image2d_t dst, float amount) {
  const int x = get_global_id(0), y = get_global_id(1);
  float4 sum = 0.0f;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      sum += read_imagef(src, nearestEdge, (int2)(x + dx, y + dy));
  const float4 pixel = read_imagef(src, nearestEdge, (int2)(x, y));
  const float4 sharp = pixel + amount * (pixel - sum * (1.0f / 9.0f));
  write_imagef(dst, (int2)(x, y), clamp(sharp, 0.0f, 1.0f));
}

float luma(float4 c) { return 0.299f * c.x + 0.587f * c.y + 0.114f * c.z; }

// The Sobel gradient's magnitude of an RGBA float image's luma, into a
// one-channel float image.
__kernel void sobel(__read_only image2d_t src, __write_only image2d_t dst) {
  const int x = get_global_id(0), y = get_global_id(1);
  float p[3][3];
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      p[dy + 1][dx + 1] = luma(read_imagef(src, nearestEdge, (int2)(x + dx, y + dy)));
  const float gx = (p[0][2] + 2.0f * p[1][2] + p[2][2]) - (p[0][0] + 2.0f * p[1][0] + p[2][0]);
  const float gy = (p[2][0] + 2.0f * p[2][1] + p[2][2]) - (p[0][0] + 2.0f * p[0][1] + p[0][2]);
  write_imagef(dst, (int2)(x, y), (float4)(sqrt(gx * gx + gy * gy), 0.0f, 0.0f, 1.0f));
}

// The Harris corner response of a one-channel float image: central
// differences summed over a 3x3 window, det - 0.04 trace^2.
__kernel void harris(__read_only image2d_t src, __write_only image2d_t dst) {
  const int x = get_global_id(0), y = get_global_id(1);
  float xx = 0.0f, yy = 0.0f, xy = 0.0f;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      const int u = x + dx, v = y + dy;
      const float ix = read_imagef(src, nearestEdge, (int2)(u + 1, v)).x -
                       read_imagef(src, nearestEdge, (int2)(u - 1, v)).x;
      const float iy = read_imagef(src, nearestEdge, (int2)(u, v + 1)).x -
                       read_imagef(src, nearestEdge, (int2)(u, v - 1)).x;
      xx += ix * ix;
      yy += iy * iy;
      xy += ix * iy;
    }
  const float trace = xx + yy;
  write_imagef(dst, (int2)(x, y), (float4)(xx * yy - xy * xy - 0.04f * trace * trace, 0, 0, 1));
}

// A rotation and scaling about the centre of an RGBA 8-bit image, sampled
// bilinearly with normalised coordinates.
__kernel void warp_bilinear(__read_only image2d_t src, __write_only image2d_t dst, float c,
                            float s) {
  const int x = get_global_id(0), y = get_global_id(1);
  const float w = get_image_width(dst), h = get_image_height(dst);
  const float px = x + 0.5f - 0.5f * w, py = y + 0.5f - 0.5f * h;
  const float2 at = (float2)((c * px - s * py + 0.5f * w) / w, (s * px + c * py + 0.5f * h) / h);
  write_imagef(dst, (int2)(x, y), read_imagef(src, linearBorder, at));
}

// Non-local means of a one-channel float image: every pixel of a 5x5
// search window weighted by the similarity of its 3x3 patch.
__kernel void non_local_means(__read_only image2d_t src, __write_only image2d_t dst, float h2) {
  const int x = get_global_id(0), y = get_global_id(1);
  float weights = 0.0f, sum = 0.0f;
  for (int sy = -2; sy <= 2; ++sy)
    for (int sx = -2; sx <= 2; ++sx) {
      float distance = 0.0f;
      for (int py = -1; py <= 1; ++py)
        for (int px = -1; px <= 1; ++px) {
          const float d = read_imagef(src, nearestEdge, (int2)(x + px, y + py)).x -
                          read_imagef(src, nearestEdge, (int2)(x + sx + px, y + sy + py)).x;
          distance += d * d;
        }
      const float weight = exp(-distance / h2);
      weights += weight;
      sum += weight * read_imagef(src, nearestEdge, (int2)(x + sx, y + sy)).x;
    }
  write_imagef(dst, (int2)(x, y), (float4)(sum / weights, 0.0f, 0.0f, 1.0f));
}

// A 5x5 convolution of an RGBA float image through a __local tile of the
// 16x16 work-group's pixels and their 2-pixel halo.
#define TILE 16
#define HALO 2
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1))) void
convolve_local(__read_only image2d_t src, __write_only image2d_t dst, __constant float *weights) {
  __local float4 tile[TILE + 2 * HALO][TILE + 2 * HALO];
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int x0 = get_group_id(0) * TILE - HALO, y0 = get_group_id(1) * TILE - HALO;
  for (int ty = ly; ty < TILE + 2 * HALO; ty += TILE)
    for (int tx = lx; tx < TILE + 2 * HALO; tx += TILE)
      tile[ty][tx] = read_imagef(src, nearestEdge, (int2)(x0 + tx, y0 + ty));
  barrier(CLK_LOCAL_MEM_FENCE);
  float4 sum = 0.0f;
  for (int dy = 0; dy <= 2 * HALO; ++dy)
    for (int dx = 0; dx <= 2 * HALO; ++dx)
      sum += weights[dy * (2 * HALO + 1) + dx] * tile[ly + dy][lx + dx];
  // The range is rounded up to whole work-groups: write inside the image only.
  if (get_global_id(0) < get_image_width(dst) && get_global_id(1) < get_image_height(dst))
    write_imagef(dst, (int2)(get_global_id(0), get_global_id(1)), sum);
}
