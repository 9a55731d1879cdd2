#pragma OPENCL EXTENSION cl_khr_fp16 : enable

// Memory: __local arrays and arguments, barriers, private arrays and structs,
// struct layout, program-scope constants and globals, pointer casts, async
// copies, and loads/stores of every scalar and vector type.

// ---------------------------------------------------------------------------
// __local memory and barriers

// A __local array declared in the kernel: reverse within the work-group.
kernel void local_reverse(global const int *in, global int *out) {
  local int tmp[256];
  int l = get_local_id(0), n = get_local_size(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[n - 1 - l];
}

// Two __local pointer arguments; inclusive prefix sum (Hillis-Steele, double
// buffered), barriers in a loop; works for any work-group size.
kernel void local_scan(global const int *in, global int *out, local int *a, local int *b) {
  int l = get_local_id(0), n = get_local_size(0);
  a[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int d = 1; d < n; d *= 2) {
    b[l] = l >= d ? a[l] + a[l - d] : a[l];
    barrier(CLK_LOCAL_MEM_FENCE);
    local int *t = a;
    a = b;
    b = t;
  }
  out[get_global_id(0)] = a[l];
}

// Transpose a W x H matrix through a 16 x 16 __local tile (2D work-groups).
kernel void transpose(global const float *in, global float *out, int w, int h) {
  local float tile[16][17];
  int x = get_global_id(0), y = get_global_id(1);
  int lx = get_local_id(0), ly = get_local_id(1);
  if (x < w && y < h)
    tile[ly][lx] = in[y * w + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  int ox = get_group_id(1) * 16 + lx, oy = get_group_id(0) * 16 + ly;
  if (ox < h && oy < w)
    out[oy * h + ox] = tile[lx][ly];
}

// A barrier after divergent code (with a divergent loop) that reconverges.
kernel void barrier_after_divergence(global const int *in, global int *out, local int *tmp) {
  int l = get_local_id(0), n = get_local_size(0);
  int v = in[get_global_id(0)];
  if (l % 3 == 0) {
    int s = 0;
    for (int k = 0; k < v % 11; ++k)
      s += k ^ v;
    tmp[l] = s;
  } else if (l % 3 == 1) {
    tmp[l] = -v;
  } else {
    tmp[l] = v * 2;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int r = tmp[(l + 1) % n] + tmp[(l + n - 1) % n];
  barrier(CLK_LOCAL_MEM_FENCE);
  tmp[l] = r;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[n - 1 - l] - r;
}

// A __local scalar written by one work-item, read by all; barrier in a
// uniform loop.
kernel void local_broadcast(global const int *in, global int *out, int rounds) {
  local int shared;
  int l = get_local_id(0), n = get_local_size(0);
  int acc = 0;
  for (int r = 0; r < rounds; ++r) {
    if (l == r % n)
      shared = in[get_global_id(0)] + r;
    barrier(CLK_LOCAL_MEM_FENCE);
    acc += shared * (l + 1);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = acc;
}

// ---------------------------------------------------------------------------
// Private memory

// A per-work-item histogram of 16 bins, indexed by data.
kernel void private_histogram(global const uchar *in, global int *out) {
  int i = get_global_id(0);
  int h[16];
  for (int b = 0; b < 16; ++b)
    h[b] = 0;
  for (int k = 0; k < 32; ++k)
    h[in[i * 32 + k] & 15]++;
  for (int b = 0; b < 16; ++b)
    out[i * 16 + b] = h[b];
}

// Insertion sort of 12 values in a private array.
kernel void private_sort(global const int *in, global int *out) {
  int i = get_global_id(0);
  int a[12];
  for (int k = 0; k < 12; ++k)
    a[k] = in[i * 12 + k];
  for (int k = 1; k < 12; ++k) {
    int x = a[k];
    int j = k - 1;
    while (j >= 0 && a[j] > x) {
      a[j + 1] = a[j];
      --j;
    }
    a[j + 1] = x;
  }
  for (int k = 0; k < 12; ++k)
    out[i * 12 + k] = a[k];
}

typedef struct {
  int key;
  float weight;
  short tag;
  char flags[3];
} Item;

// An array of structs in private memory, indexed dynamically.
kernel void private_structs(global const int *in, global int *out) {
  int i = get_global_id(0);
  Item items[6];
  for (int k = 0; k < 6; ++k) {
    items[k].key = in[i * 6 + k];
    items[k].weight = (float)k * 0.5f;
    items[k].tag = (short)(k - 3);
    for (int f = 0; f < 3; ++f)
      items[k].flags[f] = (char)(k * 3 + f);
  }
  int best = 0;
  for (int k = 1; k < 6; ++k)
    if (items[k].key > items[best].key)
      best = k;
  Item t = items[best];
  items[best] = items[0];
  items[0] = t;
  int j = in[i * 6] % 6;
  out[i * 4 + 0] = items[0].key;
  out[i * 4 + 1] = (int)(items[0].weight * 2.0f);
  out[i * 4 + 2] = items[j].tag * 100 + items[j].flags[2];
  out[i * 4 + 3] = items[best].key;
}

// ---------------------------------------------------------------------------
// Struct layout (OpenCL C 6.3.5): a by-value kernel argument and an array in
// global memory.
typedef struct {
  char c;    // 0
  int i;     // 4
  float3 v;  // 16 (size and alignment 16)
  short s;   // 32
  double d;  // 40
  long l;    // 48
  uchar3 u;  // 56 (size and alignment 4)
  float2 f2; // 64
} Layout;    // size 80 (alignment 16)

kernel void struct_arg(Layout s, global Layout *arr, global double *out) {
  int i = get_global_id(0);
  out[i * 12 + 0] = s.c;
  out[i * 12 + 1] = s.i;
  out[i * 12 + 2] = s.v.x;
  out[i * 12 + 3] = s.v.y;
  out[i * 12 + 4] = s.v.z;
  out[i * 12 + 5] = s.s;
  out[i * 12 + 6] = s.d;
  out[i * 12 + 7] = s.l;
  out[i * 12 + 8] = s.u.x + s.u.y * 256 + s.u.z * 65536;
  out[i * 12 + 9] = s.f2.y;
  out[i * 12 + 10] = sizeof(Layout);
  out[i * 12 + 11] = arr[i].i;
  // Read element i and write element i with every field changed.
  Layout a = arr[i];
  a.c += 1;
  a.i = a.i * 2 + i;
  a.v = a.v.zxy + s.v;
  a.s -= 7;
  a.d *= 0.5;
  a.l += s.l;
  a.u = a.u.yzx;
  a.f2 = a.f2.yx;
  arr[i] = a;
}

// ---------------------------------------------------------------------------
// Program-scope data

constant int primes[10] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29};
constant float2 pairs[3] = {(float2)(1.5f, -2.0f), (float2)(0.25f, 8.0f), (float2)(-3.0f, 4.5f)};
constant struct {
  short a;
  int b;
} cstruct[2] = {{-5, 100000}, {7, -3}};

kernel void constant_tables(global const int *in, global float *out) {
  int i = get_global_id(0);
  int v = in[i];
  float2 p = pairs[v % 3];
  out[i * 4 + 0] = primes[v % 10];
  out[i * 4 + 1] = p.x;
  out[i * 4 + 2] = p.y;
  out[i * 4 + 3] = cstruct[v & 1].a + cstruct[(v >> 1) & 1].b;
}

// Program-scope global variables: read and written by kernels, kept between
// launches of the same program.
global int counter = 5;
global int garr[8] = {1, 2, 3, 4, 5, 6, 7, 8};
global float gscale = 0.5f;

kernel void globals_get(global int *out) {
  int i = get_global_id(0);
  out[i] = garr[i % 8] * 1000 + counter + (int)(gscale * 8.0f);
}

kernel void globals_set(int add) {
  int i = get_global_id(0);
  if (i < 8)
    garr[i] += add * (i + 1);
  if (i == 0) {
    counter += add;
    gscale *= 2.0f;
  }
}

// ---------------------------------------------------------------------------
// Pointer arithmetic and casts between pointer types

kernel void pointer_casts(global const int *in, global int *out, global uchar *bytes) {
  int i = get_global_id(0);
  global const char *c = (global const char *)in;
  global const short *s = (global const short *)(in + i);
  global const int *q = in + 2 * (i / 2);
  // Little-endian bytes of in[i], reassembled in reverse order.
  out[i * 4 + 0] = (uint)(uchar)c[4 * i] << 24 | (uint)(uchar)c[4 * i + 1] << 16 |
                   (uint)(uchar)c[4 * i + 2] << 8 | (uint)(uchar)c[4 * i + 3];
  out[i * 4 + 1] = s[1] * 3 + s[0];
  out[i * 4 + 2] = *(q + 1) - q[0] + (int)((global const char *)(in + i) - c);
  out[i * 4 + 3] = ((global const int2 *)in)[i / 2].y;
  // Byte stores into an int buffer.
  global uchar *dst = bytes + 4 * i;
  dst[3] = (uchar)i;
  dst[2] = (uchar)(i >> 8);
  *(global ushort *)dst = (ushort)(i * 3);
}

// ---------------------------------------------------------------------------
// Async copies

// Copy a group's chunk to __local, transform it there, copy it back.
kernel void async_copy(global const int *in, global int *out, local int *tmp) {
  int l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);
  event_t e = async_work_group_copy(tmp, in + g * n, n, 0);
  wait_group_events(1, &e);
  tmp[l] = tmp[l] * 3 + l;
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_copy(out + g * n, tmp, n, 0);
  wait_group_events(1, &e);
}

// Gather every `stride`-th element into __local, then scatter back strided.
kernel void async_strided(global const int *in, global int *out, local int *tmp, int stride) {
  int l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);
  event_t e = async_work_group_strided_copy(tmp, in + g * n * stride, n, stride, 0);
  wait_group_events(1, &e);
  tmp[l] = -tmp[l];
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_strided_copy(out + g * n * stride + 1, tmp, n, stride, 0);
  wait_group_events(1, &e);
}

// ---------------------------------------------------------------------------
// Loads and stores of every scalar and vector type, through global pointers:
// out[2i] = in[i] (varying address), out[2i+1] = in[u] (uniform address),
// and out[2n] = in[i] stored from the one work-item with i == u (a uniform
// address with a single active lane).
#define COPY(T)                                                                                    \
  kernel void copy_##T(global const T *in, global T *out, int u, int n) {                          \
    int i = get_global_id(0);                                                                      \
    T a = in[i];                                                                                   \
    T b = in[u];                                                                                   \
    out[2 * i] = a;                                                                                \
    out[2 * i + 1] = b;                                                                            \
    if (i == u)                                                                                    \
      out[2 * n] = a;                                                                              \
  }
#define COPY_VECTORS(T) COPY(T) COPY(T##2) COPY(T##3) COPY(T##4) COPY(T##8) COPY(T##16)

COPY_VECTORS(char)
COPY_VECTORS(uchar)
COPY_VECTORS(short)
COPY_VECTORS(ushort)
COPY_VECTORS(int)
COPY_VECTORS(uint)
COPY_VECTORS(long)
COPY_VECTORS(ulong)
COPY_VECTORS(float)
COPY_VECTORS(double)
COPY(half)

// Component access of 3-component vectors in memory (stride 4 components).
kernel void vec3_components(global const int3 *in, global int *out) {
  int i = get_global_id(0);
  int3 v = in[i];
  out[i * 3 + 0] = v.x + v.y;
  out[i * 3 + 1] = v.z;
  out[i * 3 + 2] = ((global const int *)in)[4 * i + 2] - v.s2;
}

// ---------------------------------------------------------------------------
// More __local and barrier cases

// __local arrays in the kernel and __local arguments at the same time: none
// may overlap another.
kernel void local_layout(global int *out, local int *a, local short *b) {
  local int x[33];
  local char y[5];
  local long z[3];
  int l = get_local_id(0), n = get_local_size(0);
  a[l] = 1000 + l;
  b[l] = (short)(2000 + l);
  if (l < 33)
    x[l] = 3000 + l;
  if (l < 5)
    y[l] = (char)(40 + l);
  if (l < 3)
    z[l] = 5000000000l + l;
  barrier(CLK_LOCAL_MEM_FENCE);
  int g = get_global_id(0);
  out[g * 5 + 0] = a[n - 1 - l];
  out[g * 5 + 1] = b[n - 1 - l];
  out[g * 5 + 2] = x[l % 33];
  out[g * 5 + 3] = y[l % 5];
  out[g * 5 + 4] = (int)(z[l % 3] - 5000000000l);
}

// A barrier inside a loop whose trip count is loaded from memory: uniform in
// each work-group (in[group]) but different between groups.
kernel void barrier_loop_group_trip_count(global const int *trips, global int *out,
                                          local int *tmp) {
  int l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);
  int acc = l;
  for (int t = 0; t < trips[g]; ++t) {
    if ((l + t) % 3 == 0) // divergent code before the barrier
      for (int k = 0; k < l % 5; ++k)
        acc += k;
    tmp[l] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    acc = tmp[(l + 1) % n] + t;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = acc;
}

// A barrier in a function that clang does not inline at -O0.
void rotate_through(local int *tmp, int *value) {
  int l = get_local_id(0), n = get_local_size(0);
  tmp[l] = *value;
  barrier(CLK_LOCAL_MEM_FENCE);
  *value = tmp[(l + n - 1) % n] * 2;
  barrier(CLK_LOCAL_MEM_FENCE);
}

kernel void barrier_in_function(global const int *in, global int *out, local int *tmp) {
  int v = in[get_global_id(0)];
  rotate_through(tmp, &v);
  rotate_through(tmp, &v);
  out[get_global_id(0)] = v;
}

// ---------------------------------------------------------------------------
// Generic address space (OpenCL C 2.0): one function called with global,
// local and private pointers.
__attribute__((noinline)) int sum_three(const int *p, int stride) {
  return p[0] + p[stride] * 10 + p[2 * stride] * 100;
}

__attribute__((noinline)) void store_pair(int *p, int a) {
  p[0] = a;
  p[1] = -a;
}

kernel void generic_pointers(global const int *in, global int *out) {
  local int tmp[64 * 3];
  int l = get_local_id(0), i = get_global_id(0);
  int priv[3] = {in[i] % 10, (in[i] >> 4) & 7, 7};
  for (int k = 0; k < 3; ++k)
    tmp[l * 3 + k] = in[i] % (k + 2);
  barrier(CLK_LOCAL_MEM_FENCE);
  int r = sum_three(in + i, 1);          // global (in has 2 extra elements)
  r += sum_three(tmp + l * 3, 1) * 1000; // local
  r += sum_three(priv, 1) * 7;           // private
  int *p = (i & 1) ? (int *)priv : (int *)(tmp + l * 3);
  out[i * 3] = r + sum_three(p, 1);
  store_pair(out + i * 3 + 1, r); // global through generic
}

// ---------------------------------------------------------------------------
// Pointer select and phi between two buffers, dynamic vector components.
kernel void pointer_select(global int *a, global int *b, global const int *in) {
  int i = get_global_id(0);
  int v = in[i];
  global int *p = (v & 1) ? a : b;
  for (int k = 0; k < v % 3; ++k)
    p = (p == a) ? b : a;
  p[i] = v;
}

kernel void vector_components(global const int *in, global int *out) {
  int i = get_global_id(0);
  int8 v = (int8)(in[i], 1, 2, 3, 4, 5, 6, 7) * (i + 1);
  int4 arr[3];
  for (int k = 0; k < 3; ++k)
    arr[k] = (int4)(k, k * 2, k * 3, in[i]);
  int j = in[i] & 7;
  v[j] = -1;                    // dynamic insert
  arr[in[i] % 3][j & 3] += 100; // dynamic element of a dynamic array element
  out[i * 4 + 0] = v[(j + 1) & 7] + v[j];
  out[i * 4 + 1] = arr[0].w + arr[1][j & 3] + arr[2][(j + 2) & 3];
  out[i * 4 + 2] = v.s7 + v.s0;
  out[i * 4 + 3] = arr[in[i] % 3][j & 3];
}

// A __constant pointer argument, and byte access of __local ints.
kernel void constant_arg(constant int *table, int size, global const int *in, global int *out) {
  local int words[64];
  int i = get_global_id(0), l = get_local_id(0);
  words[l] = table[in[i] % size];
  barrier(CLK_LOCAL_MEM_FENCE);
  local uchar *bytes = (local uchar *)words;
  out[i * 2] = words[l];
  out[i * 2 + 1] = bytes[(4 * l + 5) % 256];
}

// SPDX-License-Identifier: Apache-2.0
