// Patterns of real programs that Lanewise once got wrong
// (tests/kernels/real_programs_test.cpp): aliasing hints of restrict
// pointers, calls in returning blocks, and type punning through unions and
// pointer casts (Random123's threefry reads a struct as a uint4).

// -O2 inlines f with alias scopes; llvm-spirv --spirv-ext=+all writes them as
// SPV_INTEL_memory_access_aliasing.
void scale_and_sum(global float *restrict a, global const float *restrict b,
                   global float *restrict c, size_t i) {
  const float x = b[i];
  a[i] = x * 2.0f;
  c[i] = b[i] + a[i];
}

kernel void restrict_inlined(global float *a, global const float *b, global float *c) {
  const size_t i = get_global_id(0);
  scale_and_sum(a, b, c, 2 * i);
  scale_and_sum(c, b, a, 2 * i + 1);
}

// At -O0 nothing is inlined by clang: every return below comes after a call.
uint twice(uint x) { return 2 * x; }
uint after_call(uint x) {
  const uint y = twice(x);
  return y + 1;
}
uint returns_after_calls(uint x) {
  if (x & 1)
    return twice(x) + 3;
  if (x & 2)
    return after_call(x);
  return x;
}

kernel void nested_returns(global const uint *in, global uint *out) {
  const size_t i = get_global_id(0);
  out[i] = after_call(in[i]) * 1000 + returns_after_calls(in[i]);
}

typedef struct {
  uint v[4];
} words4;

words4 make_words(uint seed) {
  words4 w;
  for (int j = 0; j < 4; ++j)
    w.v[j] = seed * 2654435761u + (uint)j;
  return w;
}

// Random123's pattern: a struct returned by a call, read back as a vector.
uint4 words_as_vector(uint seed) {
  union {
    words4 w;
    uint4 v;
  } u;
  u.w = make_words(seed);
  return u.v;
}

kernel void union_struct_to_vector(global const uint *in, global uint4 *out) {
  const size_t i = get_global_id(0);
  out[i] = words_as_vector(in[i]);
}

kernel void union_float_bits(global const float *in, global uint *out) {
  const size_t i = get_global_id(0);
  union {
    float f;
    uint u;
  } u;
  u.f = in[i];
  out[i] = u.u;
}

kernel void union_bytes_to_int4(global const uchar *in, global int4 *out) {
  const size_t i = get_global_id(0);
  union {
    uchar b[16];
    int4 v;
  } u;
  for (int j = 0; j < 16; ++j)
    u.b[j] = in[16 * i + j];
  out[i] = u.v;
}

kernel void union_vector_to_struct_array(global const uint4 *in, global ushort *out) {
  const size_t i = get_global_id(0);
  union {
    uint4 v;
    struct {
      ushort lo, hi;
    } halves[4];
  } u;
  u.v = in[i];
  for (int j = 0; j < 4; ++j) {
    out[8 * i + 2 * j] = u.halves[j].lo;
    out[8 * i + 2 * j + 1] = u.halves[j].hi;
  }
}

kernel void union_short2_to_char4(global const short2 *in, global char4 *out) {
  const size_t i = get_global_id(0);
  union {
    short2 s;
    char4 c;
  } u;
  u.s = in[i];
  out[i] = u.c;
}

kernel void array_as_vector(global const float *in, global float4 *out) {
  const size_t i = get_global_id(0);
  float a[4];
  for (int j = 0; j < 4; ++j)
    a[j] = in[4 * i + j] * 2.0f;
  out[i] = *(float4 *)a;
}

kernel void vector_as_array(global const float4 *in, global float *out) {
  const size_t i = get_global_id(0);
  float4 v = in[i] + 1.0f;
  const float *p = (const float *)&v;
  for (int j = 0; j < 4; ++j)
    out[4 * i + j] = p[3 - j];
}

kernel void struct_as_ulong(global const uint *in, global ulong *out) {
  const size_t i = get_global_id(0);
  struct {
    uint lo, hi;
  } s = {in[2 * i], in[2 * i + 1]};
  out[i] = *(ulong *)&s;
}

// The CTS's form of a clustered reduction: a constant cluster size in each
// case of a switch on a kernel argument. clang -O2 merges the cases into one
// call whose cluster size is the argument itself.
kernel void clustered_reduce_switch(global const int *in, global int *out, global uint *where,
                                    uint cluster_size) {
  const size_t gid = get_global_id(0);
  const int v = in[gid];
  int r = -1;
  switch (cluster_size) {
  case 1: r = sub_group_clustered_reduce_add(v, 1); break;
  case 2: r = sub_group_clustered_reduce_add(v, 2); break;
  case 4: r = sub_group_clustered_reduce_add(v, 4); break;
  case 8: r = sub_group_clustered_reduce_add(v, 8); break;
  case 16: r = sub_group_clustered_reduce_add(v, 16); break;
  }
  out[gid] = r;
  where[2 * gid] = get_group_id(0) * 1000 + get_sub_group_id();
  where[2 * gid + 1] = get_sub_group_local_id();
}

// SPDX-License-Identifier: Apache-2.0
