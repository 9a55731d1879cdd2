// Kernels with one planted bug each, for the checked mode's tests
// (tests/check/check_test.cpp). The line marked BUG in each kernel is the
// line its finding must name.

kernel void global_write_past_end(global int *out) {
  size_t i = get_global_id(0);
  out[i + 1] = (int)i; // BUG
}

kernel void global_read_before_start(global const int *in, global int *out) {
  int i = (int)get_global_id(0);
  out[i] = in[i - 3]; // BUG
}

// Work-item (3,2) of an 8x4 range over 32 floats writes element 32, just
// past the end (an address far past it could fall in a buffer released
// before, which is reported as such).
kernel void two_dimensional(global float *out, int width) {
  size_t x = get_global_id(0), y = get_global_id(1);
  size_t skew = x == 3 && y == 2 ? 13 : 0;
  out[y * width + x + skew] = 1.0f; // BUG
}

kernel void divergent_work_item(global int *out) {
  size_t i = get_global_id(0);
  out[i] = 0;
  if (i == 37)
    out[i + 1000] = 1; // BUG
}

kernel void sub_buffer_overflow(global int *out) {
  size_t i = get_global_id(0);
  out[i + 2] = 5; // BUG
}

kernel void svm_overflow(global int *p) {
  size_t i = get_global_id(0);
  p[i * 2] = 1; // BUG
}

void store_through(generic int *p, size_t i) {
  p[i] = 2; // BUG
}
kernel void generic_overflow(global int *out) {
  store_through(out, get_global_id(0) + 8);
}

// A pointer to a work-item's private variable, handed to another work-item
// of the group through __local memory: private memory is each work-item's
// own (OpenCL C 3.0, 6.7).
typedef generic int *generic_int_pointer;
kernel void another_work_items_private(global int *out) {
  local generic_int_pointer handed[32];
  int mine = (int)get_global_id(0);
  handed[get_local_id(0)] = &mine;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = *handed[31 - get_local_id(0)]; // BUG
}

constant int table[4] = {1, 2, 3, 4};
kernel void constant_table_overflow(global const int *index, global int *out) {
  size_t i = get_global_id(0);
  out[i] = table[index[i]]; // BUG
}

kernel void constant_argument_overflow(constant float *weights, global float *out) {
  size_t i = get_global_id(0);
  out[i] = weights[i + 2]; // BUG
}

kernel void local_array_overflow(global int *out) {
  local int tile[16];
  size_t l = get_local_id(0);
  tile[l] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[l + 1]; // BUG
}

kernel void local_argument_too_small(global int *out, local int *scratch) {
  size_t l = get_local_id(0);
  scratch[l] = (int)l; // BUG
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = scratch[0];
}

kernel void private_array_overflow(global const int *in, global int *out, int n) {
  int a[8];
  for (int k = 0; k < 8; ++k)
    a[k] = in[k];
  out[get_global_id(0)] = a[n + (int)(get_global_id(0) % 2)]; // BUG
}

kernel void released_svm(global int *p) {
  p[get_global_id(0)] = 1; // BUG
}

kernel void misaligned_load(global const char *bytes, global float *out) {
  size_t i = get_global_id(0);
  out[i] = *(global const float *)(bytes + 4 * i + 1); // BUG
}

kernel void misaligned_vload(global const float *in, global float4 *out) {
  size_t i = get_global_id(0);
  global const float *shifted = (global const float *)((global const char *)in + 2);
  out[i] = vload4(i, shifted); // BUG
}

kernel void misaligned_store(global char *bytes) {
  size_t i = get_global_id(0);
  *(global int *)(bytes + 4 * i + 2) = 7; // BUG
}

kernel void division_by_zero(global const int *in, global int *out) {
  size_t i = get_global_id(0);
  out[i] = 100 / in[i]; // BUG
}

kernel void remainder_by_zero(global const uint *in, global uint *out) {
  size_t i = get_global_id(0);
  out[i] = 1000u % in[i]; // BUG
}

kernel void division_overflow(global const long *in, global long *out) {
  size_t i = get_global_id(0);
  out[i] = in[2 * i] / in[2 * i + 1]; // BUG
}

kernel void atomic_out_of_bounds(global int *counters) {
  atomic_inc(&counters[get_global_id(0) / 4 + 1]); // BUG
}

kernel void vstore_past_end(global float *out) {
  vstore4((float4)(1.0f), get_global_id(0) + 1, out); // BUG
}

kernel void barrier_in_divergent_branch(global int *out) {
  size_t l = get_local_id(0);
  if (l < 8)
    barrier(CLK_LOCAL_MEM_FENCE); // BUG
  out[get_global_id(0)] = (int)l;
}

kernel void different_barriers(global int *out) {
  size_t i = get_global_id(0);
  if (get_local_id(0) % 2) {
    out[i] = 1;
    barrier(CLK_GLOBAL_MEM_FENCE); // BUG
    out[i] = out[i] + 1;
  } else {
    out[i] = 2;
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[i] = out[i] * 3;
  }
}

kernel void subgroup_reduce_in_branch(global int *out) {
  int v = (int)get_global_id(0);
  if (get_sub_group_local_id() < 4)
    v = sub_group_reduce_add(v); // BUG
  out[get_global_id(0)] = v;
}

kernel void shuffle_out_of_range(global int *out) {
  uint l = get_sub_group_local_id();
  out[get_global_id(0)] = sub_group_shuffle((int)l, l + 3); // BUG
}

kernel void shuffle_from_inactive_lane(global int *out) {
  uint l = get_sub_group_local_id();
  int v = -1;
  if (l % 2 == 0)
    v = sub_group_shuffle((int)l * 10, l + 1); // BUG
  out[get_global_id(0)] = v;
}

kernel void uninitialised_local(global int *out) {
  local int tile[16];
  size_t l = get_local_id(0);
  if (l != 5)
    tile[l] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[15 - l]; // BUG
}

kernel void uninitialised_private(global const int *in, global int *out) {
  int a[4];
  size_t i = get_global_id(0);
  a[0] = in[i];
  a[in[i + 16]] = 7;
  out[i] = a[i % 4]; // BUG
}

kernel void local_race(global int *out) {
  local int tile[16];
  size_t l = get_local_id(0);
  tile[l] = (int)l;
  out[get_global_id(0)] = tile[(l + 1) % 16]; // BUG
}

// Rows of four work-items read the element their first wrote.
kernel void local_race_read_by_a_row(global int *out) {
  local int tile[4];
  size_t l = get_local_id(0);
  if (l % 4 == 0)
    tile[l / 4] = (int)l;
  out[get_global_id(0)] = tile[l / 4]; // BUG
}

// Every work-item stores the whole tile, as a video library's Harris kernel
// did: the same values, still a race.
kernel void local_race_same_tile(global const float *in, global float *out) {
  local float tile[16];
  for (int i = 0; i < 16; ++i)
    tile[i] = in[i] * 2.0f; // BUG
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[get_local_id(0)];
}

// The same, with values that differ between the work-items.
kernel void local_race_different_tiles(global const float *in, global float *out) {
  local float tile[16];
  for (int i = 0; i < 16; ++i)
    tile[i] = in[i] + (float)get_local_id(0); // BUG
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[get_local_id(0)];
}

// Two work-items store the same value by two statements (in[1] - 0.5f is
// in[0] for the test's input): the first store is in memory when the second
// is checked.
kernel void local_race_same_cell(global const float *in, global float *out) {
  local float cell;
  size_t l = get_local_id(0);
  if (l == 0)
    cell = in[0];
  if (get_global_id(0) == 1)
    cell = in[1] - 0.5f; // BUG
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = cell;
}

kernel void global_race_in_group(global int *data, global int *out) {
  size_t g = get_global_id(0);
  data[g] = (int)g;
  barrier(CLK_LOCAL_MEM_FENCE); // orders __local memory only
  out[g] = data[g ^ 1]; // BUG
}

kernel void global_race_between_groups(global int *out) {
  size_t g = get_global_id(0);
  out[g] = (int)g;
  if (get_local_id(0) == 0 && g > 0)
    out[g - 1] = -1; // BUG
}

// Consecutive work-items at consecutive elements, whole 64-byte lines of
// them (the race check records such accesses per line).
kernel void global_race_dense_between_groups(global int *out) {
  out[get_local_id(0)] = (int)get_global_id(0); // BUG
}

kernel void global_race_dense_in_group(global int *data, global int *out) {
  size_t g = get_global_id(0);
  data[g] = (int)g;
  barrier(CLK_LOCAL_MEM_FENCE); // orders __local memory only
  if (get_local_id(0) < 48)
    out[g] = data[g + 16]; // BUG
}

kernel void global_race_dense_long4(global long4 *data, global long4 *out) {
  size_t g = get_global_id(0);
  data[g] = (long4)((long)g);
  barrier(CLK_LOCAL_MEM_FENCE); // orders __local memory only
  if (get_local_id(0) < 62)
    out[g] = data[g + 2]; // BUG
}

// Scattered writes (a permutation of the group's 64 elements), then a
// dense read of them.
kernel void global_race_scattered_then_dense(global int *data, global int *out) {
  size_t l = get_local_id(0), first = get_group_id(0) * 64;
  data[first + (l * 17) % 64] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE); // orders __local memory only
  out[get_global_id(0)] = data[get_global_id(0)]; // BUG
}

// Two work-items' vectors to a line, by two instructions each.
kernel void global_race_vectors_in_a_line(global float *data, global float *out) {
  size_t g = get_global_id(0);
  float4 a = vload4(0, data + 8 * g);
  float4 b = vload4(1, data + 8 * g);
  vstore4(a + b, g, out);
  if (get_local_id(0) == 0 && g > 0)
    data[8 * (g - 1) + 5] = 1.0f; // BUG
}

// Each work-item's four vectors fill a line, by four instructions.
kernel void global_race_line_of_one_work_item(global float *data, global float *out) {
  size_t g = get_global_id(0);
  float4 a = vload4(4 * g, data);
  float4 b = vload4(4 * g + 1, data), c = vload4(4 * g + 2, data), d = vload4(4 * g + 3, data);
  vstore4(a + b + c + d, g, out);
  if (get_local_id(0) == 0 && g > 0)
    data[16 * (g - 1) + 1] = 1.0f; // BUG
}

// The same accesses ordered by a barrier on global memory: no race.
kernel void dense_ordered_by_a_global_barrier(global int *data, global int *out) {
  size_t g = get_global_id(0);
  data[g] = (int)g;
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) < 48)
    out[g] = data[g + 16];
}

kernel void async_copy_past_the_tile(global const float *in, global float *out) {
  local float tile[16];
  event_t copied = async_work_group_copy(tile, in + get_group_id(0) * 16, 20, 0); // BUG
  wait_group_events(1, &copied);
  out[get_global_id(0)] = tile[get_local_id(0)];
}

// Strided copies touch element (n - 1) * stride last (OpenCL C 3.0, 6.15.11):
// a global buffer of exactly that many elements is no overflow.
kernel void async_strided_copies(global const float *in, global float *out, int n, int stride) {
  local float tile[16];
  event_t gathered = async_work_group_strided_copy(tile, in, (size_t)n, (size_t)stride, 0);
  wait_group_events(1, &gathered);
  event_t scattered = async_work_group_strided_copy(out, tile, (size_t)n, (size_t)stride, 0);
  wait_group_events(1, &scattered);
}

kernel void async_strided_copy_past_the_end(global const float *in, global float *out) {
  local float tile[16];
  event_t gathered = async_work_group_strided_copy(tile, in, 16, 3, 0); // BUG
  wait_group_events(1, &gathered);
  // The element the copy could not read stays unwritten: not read here.
  out[get_global_id(0)] = get_local_id(0) < 15 ? tile[get_local_id(0)] : 0.0f;
}

// vloada_half3 reads three halves at p + 4 * i (OpenCL C 3.0, 6.15.9), not
// the fourth, padding half.
kernel void aligned_half3_loads(global const half *in, global float *out) {
  size_t i = get_global_id(0);
  vstore3(vloada_half3(i, in), i, out);
}

kernel void every_work_item_writes_one_element(global const int *in, global int *result) {
  *result = in[get_global_id(0)]; // BUG
}

// At -O2 `last` is an SSA value: a phi whose incoming value from the loop's
// entry is an OpUndef (the trip count is not constant, so the loop is not
// unrolled into selects that fold the OpUndef away). At -O0 it is a private
// variable.
kernel void uninitialised_register(global const int *in, global int *out, int n) {
  size_t i = get_global_id(0);
  int last; // assigned only when one of the work-item's inputs is positive
  for (int k = 0; k < n; ++k)
    if (in[i * n + k] > 0)
      last = k;
  out[i] = last; // BUG
}

// Reads `last` where it was never assigned, but the result does not depend
// on it: a Boolean AND (OR) with a defined false (true) operand is defined.
// At -O2 `any & big` is an OpLogicalAnd of two phis, `big` undefined where
// nothing was found: no finding. At -O0 the read of the private variable
// itself is reported.
kernel void unused_uninitialised_operand(global const int *in, global int *out, int n) {
  size_t i = get_global_id(0);
  int last, found = 0;
  for (int k = 0; k < n; ++k)
    if (in[i * n + k] > 0) {
      last = k;
      found = 1;
    }
  const bool any = found != 0, big = last > 0;
  out[2 * i] = (any & big) ? 1 : 2;
  out[2 * i + 1] = (!any | big) ? 3 : 4;
}

// A shuffle down reads past the end of the sub-group on its last lanes,
// where the result is undefined; storing it on every lane is the bug.
kernel void shuffle_down_past_the_end(global int *out) {
  int x = (int)get_sub_group_local_id();
  x += sub_group_shuffle_down(x, 8u);
  out[get_global_id(0)] = x; // BUG
}

// Correct kernels: no finding.
kernel void correct_global_exchange(global int *data, global int *partial) {
  size_t g = get_global_id(0), l = get_local_id(0);
  data[g] = (int)g;
  barrier(CLK_GLOBAL_MEM_FENCE);
  int v = data[g ^ 1];
  barrier(CLK_GLOBAL_MEM_FENCE);
  data[g] = v;
  if (l == 0)
    atomic_add(partial, v); // atomics do not race
  ((global char *)partial)[4 + g] = (char)l; // neighbouring bytes of one word
}

kernel void correct_stencil(global const float *in, global float *out, local float *tile) {
  size_t g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
  tile[l] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  float left = l > 0 ? tile[l - 1] : 0.0f;
  float right = l + 1 < n ? tile[l + 1] : 0.0f;
  int divisor = (int)(g % 7) + 1;
  out[g] = (left + tile[l] + right) / (float)(100 / divisor);
}

kernel void correct_vectors(global const float *in, global float *out, int count) {
  size_t i = get_global_id(0);
  float3 v = vload3(i, in);
  if (i + 1 < (size_t)count)
    vstore3(v * 2.0f, i, out);
  else
    vstore3(v, i, out);
}

// Composites built a field at a time, as OpenCL C code does everywhere:
// at -O0 each assignment loads the whole variable, inserts one component and
// stores it back, so the first loads read bytes never written. Copying,
// inserting and storing a partly uninitialised value is no use of it:
// float2, float3, int4, half8, a struct with padding, an array of vectors
// and a vector written through a pointer give no finding.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
typedef struct {
  char tag; // three bytes of padding follow
  float value;
  short count; // two bytes of padding follow
} Padded;
kernel void correct_field_by_field(global const float *in, global float *out,
                                   global Padded *records) {
  size_t i = get_global_id(0);
  const float v = in[i];
  float2 a;
  a.x = v * 2.0f;
  a.y = v + 1.0f;
  float3 b;
  b.x = v;
  b.y = 2.0f;
  b.z = v * 3.0f;
  int4 c;
  c.x = (int)v;
  c.y = 1;
  c.z = 2;
  c.w = 3;
  half8 h;
  for (int k = 0; k < 8; ++k)
    h[k] = (half)(v + k);
  Padded p;
  p.tag = 1;
  p.value = v;
  p.count = 2;
  float2 pairs[3];
  for (int k = 0; k < 3; ++k) {
    pairs[k].x = v + k;
    pairs[k].y = v - k;
  }
  float4 d;
  float4 *pd = &d;
  pd->x = v;
  pd->y = 1.0f;
  pd->zw = (float2)(2.0f, 3.0f);
  float sum = a.x + a.y + b.x + b.y + b.z + (float)(c.x + c.y + c.z + c.w) + d.x + d.y + d.z + d.w;
  for (int k = 0; k < 8; ++k)
    sum += (float)h[k];
  for (int k = 0; k < 3; ++k)
    sum += pairs[k].x + pairs[k].y;
  out[i] = sum;
  records[i] = p;
}

// A vector with one component never written, stored whole: a use.
kernel void vector_component_unwritten(global const float *in, global float4 *out) {
  size_t i = get_global_id(0);
  float4 t;
  t.xyz = (float3)(in[i], 1.0f, 2.0f);
  out[i] = t; // BUG
}

// A component read before it is written decides a branch.
kernel void vector_component_read_first(global const int *in, global int *out) {
  size_t i = get_global_id(0);
  int2 t;
  t.x = in[i];
  if (t.y > 0) // BUG
    t.y = t.x;
  out[i] = t.x;
}

// Values that are undefined on some paths but used only where they are
// defined: at -O2, phis with an OpUndef incoming value, and a vector built by
// inserting its components into an OpUndef vector.
kernel void correct_guarded_register(global const int *in, global int *out, global float4 *vout,
                                     int n) {
  size_t i = get_global_id(0);
  int last, found = 0;
  for (int k = 0; k < n; ++k)
    if (in[i * n + k] > 0) {
      last = k;
      found = 1;
    }
  const bool negative = in[i * n] < 0;
  int x;
  if (negative)
    x = in[i * n + 1] * 3;
  for (int k = 0; k < n; ++k)
    out[i * n + k] = found ? last : -1;
  if (negative)
    out[i * n] = x;
  float4 v = (float4)((float)in[i * n], (float)n, (float)i, (float)found);
  vout[i] = v.wzyx * 2.0f;
}

// The usual scan and reduction with relative shuffles: the lanes that read
// outside the sub-group get undefined values, which the scan discards and
// the reduction never brings to lane 0.
kernel void correct_shuffle_scan(global const int *in, global int *scan, global int *sum) {
  const int value = in[get_global_id(0)];
  const uint lane = get_sub_group_local_id();
  int x = value;
  for (uint delta = 1; delta < get_max_sub_group_size(); delta *= 2) {
    const int from = sub_group_shuffle_up(x, delta);
    if (lane >= delta)
      x += from;
  }
  scan[get_global_id(0)] = x;
  int total = value;
  for (uint delta = get_max_sub_group_size() / 2; delta > 0; delta /= 2)
    total += sub_group_shuffle_down(total, delta);
  if (lane == 0)
    sum[get_global_id(0) / get_max_sub_group_size()] = total;
}

// Image accesses outside the image, which OpenCL leaves undefined: the last
// work-item of each is one texel past the edge.
kernel void image_read_outside(read_only image2d_t image, global float4 *out) {
  const int x = get_global_id(0);
  out[x] = read_imagef(image, (int2)(x, 0)); // BUG
}
kernel void image_write_outside(write_only image2d_t image) {
  const int x = get_global_id(0);
  write_imagef(image, (int2)(x, 0), (float4)(1.0f)); // BUG
}
kernel void image_sample_address_none(read_only image2d_t image, global float4 *out) {
  const sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;
  const int x = get_global_id(0);
  out[x] = read_imagef(image, nearest, (float2)(x + 0.5f, 0.5f)); // BUG
}
// The same with CLK_ADDRESS_CLAMP: defined (the border colour), no finding.
kernel void correct_image_sample_clamp(read_only image2d_t image, global float4 *out) {
  const sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
  const int x = get_global_id(0);
  out[x] = read_imagef(image, nearest, (float2)(x + 0.5f, 0.5f));
}

// SPDX-License-Identifier: Apache-2.0

// A sub-group barrier orders the __local accesses of its own sub-group's
// work-items (OpenCL C 3.0, 6.15.19): each sub-group reverses its elements
// through __local memory, correctly.
kernel void subgroup_barrier_exchange(global const int *in, global int *out) {
  local int tmp[64];
  const uint l = get_local_id(0), s = get_sub_group_local_id(), n = get_sub_group_size();
  tmp[l] = in[get_global_id(0)];
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[l - s + n - 1 - s];
}

// ... and no other sub-group's: reading the next sub-group's element after a
// sub-group barrier races.
kernel void subgroup_barrier_across(global const int *in, global int *out) {
  local int tmp[64];
  const uint l = get_local_id(0);
  tmp[l] = in[get_global_id(0)];
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[(l + get_sub_group_size()) % get_local_size(0)]; // BUG
}

// The same through global memory, with a global fence.
kernel void subgroup_barrier_global_exchange(global const int *in, global int *tmp,
                                             global int *out) {
  const uint g = get_global_id(0), s = get_sub_group_local_id(), n = get_sub_group_size();
  tmp[g] = in[g];
  sub_group_barrier(CLK_GLOBAL_MEM_FENCE);
  out[g] = tmp[g - s + n - 1 - s];
}

kernel void subgroup_barrier_global_across(global const int *in, global int *tmp, global int *out) {
  const uint g = get_global_id(0), l = get_local_id(0);
  tmp[g] = in[g];
  sub_group_barrier(CLK_GLOBAL_MEM_FENCE);
  out[g] = tmp[g - l + (l + get_sub_group_size()) % get_local_size(0)]; // BUG
}

// Atomics of device scope order work-groups (OpenCL C 3.0, 6.15.12): the
// last work-group to arrive sums what every work-item stored. Each group's
// stores are ordered before its arrival by the barrier, and its arrival
// (a release) before the last group's reads (an acquire that reads it).
kernel void correct_last_group_acq_rel(global const int *in, global int *partial,
                                       global atomic_int *count, global int *out) {
  const size_t i = get_global_id(0);
  partial[i] = 2 * in[i];
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0 &&
      atomic_fetch_add_explicit(count, 1, memory_order_acq_rel, memory_scope_device) ==
          (int)get_num_groups(0) - 1) {
    int sum = 0;
    for (size_t j = 0; j < get_global_size(0); ++j)
      sum += partial[j];
    *out = sum;
  }
}

// The same with a relaxed arrival between a release fence and an acquire
// fence (fence synchronisation, 6.15.12.1).
kernel void correct_last_group_fences(global const int *in, global int *partial,
                                      global atomic_int *count, global int *out) {
  const size_t i = get_global_id(0);
  partial[i] = 2 * in[i];
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device);
    if (atomic_fetch_add_explicit(count, 1, memory_order_relaxed, memory_scope_device) ==
        (int)get_num_groups(0) - 1) {
      atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, memory_scope_device);
      int sum = 0;
      for (size_t j = 0; j < get_global_size(0); ++j)
        sum += partial[j];
      *out = sum;
    }
  }
}

// Ordering chains: the groups but the last store and arrive; the last to
// arrive releases `done`; the last group, if it acquires `done` set, reads
// the stores of groups it synchronised with only through that one.
kernel void correct_last_group_chained(global const int *in, global int *partial,
                                       global atomic_int *count, global atomic_int *done,
                                       global int *out) {
  const int groups = (int)get_num_groups(0);
  if ((int)get_group_id(0) < groups - 1) {
    const size_t i = get_global_id(0);
    partial[i] = 2 * in[i];
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (get_local_id(0) == 0 && atomic_fetch_add_explicit(count, 1, memory_order_acq_rel,
                                                          memory_scope_device) == groups - 2)
      atomic_store_explicit(done, 1, memory_order_release, memory_scope_device);
  } else if (get_local_id(0) == 0 &&
             atomic_load_explicit(done, memory_order_acquire, memory_scope_device) == 1) {
    int sum = 0;
    for (size_t j = 0; j < get_global_size(0) - get_local_size(0); ++j)
      sum += partial[j];
    *out = sum;
  }
}

// A relaxed arrival orders nothing: the last group's reads race with the
// other groups' stores.
kernel void last_group_relaxed(global const int *in, global int *partial, global atomic_int *count,
                               global int *out) {
  const size_t i = get_global_id(0);
  partial[i] = 2 * in[i];
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0 &&
      atomic_fetch_add_explicit(count, 1, memory_order_relaxed, memory_scope_device) ==
          (int)get_num_groups(0) - 1) {
    int sum = 0;
    for (size_t j = 0; j < get_global_size(0); ++j)
      sum += partial[j]; // BUG
    *out = sum;
  }
}

// Nor does an acquire-release arrival of work-group scope: the scope does
// not include the other groups' work-items.
kernel void last_group_work_group_scope(global const int *in, global int *partial,
                                        global atomic_int *count, global int *out) {
  const size_t i = get_global_id(0);
  partial[i] = 2 * in[i];
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0 &&
      atomic_fetch_add_explicit(count, 1, memory_order_acq_rel, memory_scope_work_group) ==
          (int)get_num_groups(0) - 1) {
    int sum = 0;
    for (size_t j = 0; j < get_global_size(0); ++j)
      sum += partial[j]; // BUG
    *out = sum;
  }
}

// A value read where it was never assigned decides a sub-group reduction
// (every work-item of the sub-group gets an undefined maximum), a
// work-group one, and what printf prints. At -O2 an OpUndef reaches the
// operand through a phi; at -O0 the read of the private variable is
// reported, on the same line.
kernel void uninitialised_subgroup_operand(global const int *in, global int *out, int n) {
  size_t i = get_global_id(0);
  int last;
  for (int k = 0; k < n; ++k)
    if (in[i * n + k] > 0)
      last = k;
  out[i] = sub_group_reduce_max(last); // BUG
}

kernel void uninitialised_work_group_operand(global const int *in, global int *out, int n) {
  size_t i = get_global_id(0);
  int last;
  for (int k = 0; k < n; ++k)
    if (in[i * n + k] > 0)
      last = k;
  out[i] = work_group_reduce_max(last); // BUG
}

kernel void uninitialised_printf_argument(global const int *in, int n) {
  size_t i = get_global_id(0);
  int last;
  for (int k = 0; k < n; ++k)
    if (in[i * n + k] > 0)
      last = k;
  printf("%d\n", last); // BUG
}
