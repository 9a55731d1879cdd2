// Image reads, writes, samples and queries (tests/kernels/image_test.cpp).
// Every work-item handles one coordinate; odd work-items of the divergent
// kernels take another path.

// Reads without a sampler at each texel of a 2D image: out[y * w + x].
kernel void read_f2(read_only image2d_t image, global float4 *out) {
  const int x = get_global_id(0), y = get_global_id(1);
  out[y * get_image_width(image) + x] = read_imagef(image, (int2)(x, y));
}
kernel void read_i2(read_only image2d_t image, global int4 *out) {
  const int x = get_global_id(0), y = get_global_id(1);
  out[y * get_image_width(image) + x] = read_imagei(image, (int2)(x, y));
}
kernel void read_ui2(read_only image2d_t image, global uint4 *out) {
  const int x = get_global_id(0), y = get_global_id(1);
  out[y * get_image_width(image) + x] = read_imageui(image, (int2)(x, y));
}

// Writes at each texel of a 2D image from in[y * w + x].
kernel void write_f2(write_only image2d_t image, global const float4 *in) {
  const int x = get_global_id(0), y = get_global_id(1);
  write_imagef(image, (int2)(x, y), in[y * get_image_width(image) + x]);
}
kernel void write_i2(write_only image2d_t image, global const int4 *in) {
  const int x = get_global_id(0), y = get_global_id(1);
  write_imagei(image, (int2)(x, y), in[y * get_image_width(image) + x]);
}
kernel void write_ui2(write_only image2d_t image, global const uint4 *in) {
  const int x = get_global_id(0), y = get_global_id(1);
  write_imageui(image, (int2)(x, y), in[y * get_image_width(image) + x]);
}

// Samples at the given coordinates, with a sampler argument.
kernel void sample_f1(read_only image1d_t image, sampler_t s, global const float *at,
                      global float4 *out) {
  out[get_global_id(0)] = read_imagef(image, s, at[get_global_id(0)]);
}
kernel void sample_f2(read_only image2d_t image, sampler_t s, global const float2 *at,
                      global float4 *out) {
  out[get_global_id(0)] = read_imagef(image, s, at[get_global_id(0)]);
}
kernel void sample_f3(read_only image3d_t image, sampler_t s, global const float4 *at,
                      global float4 *out) {
  out[get_global_id(0)] = read_imagef(image, s, at[get_global_id(0)]);
}
kernel void sample_f1a(read_only image1d_array_t image, sampler_t s, global const float2 *at,
                       global float4 *out) {
  out[get_global_id(0)] = read_imagef(image, s, at[get_global_id(0)]);
}
kernel void sample_f2a(read_only image2d_array_t image, sampler_t s, global const float4 *at,
                       global float4 *out) {
  out[get_global_id(0)] = read_imagef(image, s, at[get_global_id(0)]);
}
kernel void sample_f2_int(read_only image2d_t image, sampler_t s, global const int2 *at,
                          global float4 *out) {
  out[get_global_id(0)] = read_imagef(image, s, at[get_global_id(0)]);
}
kernel void sample_i2(read_only image2d_t image, sampler_t s, global const float2 *at,
                      global int4 *out) {
  out[get_global_id(0)] = read_imagei(image, s, at[get_global_id(0)]);
}
kernel void sample_ui2_int(read_only image2d_t image, sampler_t s, global const int2 *at,
                           global uint4 *out) {
  out[get_global_id(0)] = read_imageui(image, s, at[get_global_id(0)]);
}

// A sampler declared in the program (OpConstantSampler).
constant sampler_t repeatLinear = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;
kernel void sample_constant(read_only image2d_t image, global const float2 *at,
                            global float4 *out) {
  const sampler_t clampNearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
  const size_t i = get_global_id(0);
  out[2 * i] = read_imagef(image, repeatLinear, at[i]);
  out[2 * i + 1] = read_imagef(image, clampNearest, at[i] * 8.0f);
}

// Integer-coordinate reads of the other image types: out[linear index].
kernel void read_1d(read_only image1d_t image, global float4 *out) {
  out[get_global_id(0)] = read_imagef(image, (int)get_global_id(0));
}
// The width of a 1D image buffer comes from OpImageQuerySize (it has no
// levels); it is added to the texel's w.
kernel void read_1d_buffer(read_only image1d_buffer_t image, global uint4 *out) {
  uint4 texel = read_imageui(image, (int)get_global_id(0));
  texel.w += get_image_width(image);
  out[get_global_id(0)] = texel;
}
kernel void read_1d_array(read_only image1d_array_t image, global float4 *out) {
  const int x = get_global_id(0), layer = get_global_id(1);
  out[layer * get_image_width(image) + x] = read_imagef(image, (int2)(x, layer));
}
kernel void read_2d_array(read_only image2d_array_t image, global int4 *out) {
  const int x = get_global_id(0), y = get_global_id(1), layer = get_global_id(2);
  const int w = get_image_width(image), h = get_image_height(image);
  out[(layer * h + y) * w + x] = read_imagei(image, (int4)(x, y, layer, 0));
}
kernel void read_3d(read_only image3d_t image, global float4 *out) {
  const int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  const int w = get_image_width(image), h = get_image_height(image);
  out[(z * h + y) * w + x] = read_imagef(image, (int4)(x, y, z, 0));
}
kernel void write_3d(write_only image3d_t image, global const uint4 *in) {
  const int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  const int w = get_image_width(image), h = get_image_height(image);
  write_imageui(image, (int4)(x, y, z, 0), in[(z * h + y) * w + x]);
}
kernel void write_2d_array(write_only image2d_array_t image, global const float4 *in) {
  const int x = get_global_id(0), y = get_global_id(1), layer = get_global_id(2);
  const int w = get_image_width(image), h = get_image_height(image);
  write_imagef(image, (int4)(x, y, layer, 0), in[(layer * h + y) * w + x]);
}

// A read-write image: each work-item doubles its texel in place, the odd
// ones adding one first (divergent).
kernel void double_in_place(read_write image2d_t image) {
  const int2 at = (int2)(get_global_id(0), get_global_id(1));
  float4 v = read_imagef(image, at);
  if (get_global_id(0) & 1)
    v += 1.0f;
  write_imagef(image, at, v * 2.0f);
}

// The queries, one int each.
kernel void queries(read_only image2d_t a, read_only image3d_t b, read_only image2d_array_t c,
                    read_only image1d_array_t d, global int *out) {
  out[0] = get_image_width(a);
  out[1] = get_image_height(a);
  out[2] = get_image_channel_order(a);
  out[3] = get_image_channel_data_type(a);
  out[4] = get_image_dim(a).x;
  out[5] = get_image_dim(a).y;
  out[6] = get_image_depth(b);
  int4 dims = get_image_dim(b);
  out[7] = dims.x + 10 * dims.y + 100 * dims.z + 1000 * dims.w;
  out[8] = (int)get_image_array_size(c);
  out[9] = (int)get_image_array_size(d);
  out[10] = get_image_height(c);
  out[11] = get_image_channel_order(b);
  out[12] = get_image_channel_data_type(b);
}

// Half texels (cl_khr_fp16): read_imageh and write_imageh.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void half_texels(read_only image2d_t in, write_only image2d_t out, global half4 *values) {
  const int2 at = (int2)(get_global_id(0), get_global_id(1));
  const half4 v = read_imageh(in, at);
  values[at.y * get_image_width(in) + at.x] = v;
  write_imageh(out, at, v * (half)2.0f);
}

// SPDX-License-Identifier: Apache-2.0
