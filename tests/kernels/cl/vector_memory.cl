// Vector data loads and stores (OpenCL C 3.0, 6.15.7): vloadn / vstoren on
// every element type and n in {2, 3, 4, 8, 16} through each address space,
// and the half forms vload_half(n), vloada_halfn, vstore_half(n)(_r*),
// vstorea_halfn(_r*) (tests/kernels/vector_memory_test.cpp). vloadn(o, p)
// reads p[o n], ..., p[o n + n - 1]; p need only be aligned to the element.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#ifdef __opencl_c_generic_address_space
#define HAS_GENERIC 1
#else
#define HAS_GENERIC 0
#endif

kernel void vector_memory_features(global int *out) { out[0] = HAS_GENERIC; }

// Stores of a T##n result, component by component for n = 3 (a 3-component
// vector store through a pointer would write four elements).
#define ST2(T, p, v) *(global T##2 *)(p) = (v);
#define ST3(T, p, v)                                                                               \
  {                                                                                                \
    T##3 t3_ = (v);                                                                                \
    (p)[0] = t3_.s0;                                                                               \
    (p)[1] = t3_.s1;                                                                               \
    (p)[2] = t3_.s2;                                                                               \
  }
#define ST4(T, p, v) *(global T##4 *)(p) = (v);
#define ST8(T, p, v) *(global T##8 *)(p) = (v);
#define ST16(T, p, v) *(global T##16 *)(p) = (v);

// ---- vload_T ----------------------------------------------------------------------
// params, four per work-item i: goff (0..50), shift (0..3), off (0..3),
// pstart (0..900). Result (slot s, n index k) at out + 480 i + 16 (5 s + k):
//   s 0: vloadn(goff, src + shift)           global, varying offset
//   s 1: vloadn(uoff, src + ushift)          global, uniform offset and pointer
//   s 2: vloadn(goff, csrc + shift)          constant (csrc holds src's data)
//   s 3: vloadn(off, lbuf + shift)           local, lbuf[j] = src[1023 - j]
//   s 4: vloadn(off, priv + shift)           private, priv[j] = src[pstart + j]
//   s 5: vloadn(off, gp)                     generic: odd i lbuf + shift,
//                                            even i src + pstart + shift
#if HAS_GENERIC
#define GENERIC_LOAD(T, n, k) ST##n(T, o + 16 * (25 + (k)), vload##n(off, gp))
#define GENERIC_LOAD_POINTER(T)                                                                    \
  const T *gp;                                                                                     \
  if (i & 1)                                                                                       \
    gp = lbuf + shift;                                                                             \
  else                                                                                             \
    gp = src + pstart + shift;
#else
#define GENERIC_LOAD(T, n, k)
#define GENERIC_LOAD_POINTER(T)
#endif

#define VLOAD_N(T, n, k)                                                                           \
  ST##n(T, o + 16 * (0 + (k)), vload##n(goff, src + shift))                                        \
      ST##n(T, o + 16 * (5 + (k)), vload##n(uoff, src + ushift))                                   \
          ST##n(T, o + 16 * (10 + (k)), vload##n(goff, csrc + shift))                              \
              ST##n(T, o + 16 * (15 + (k)), vload##n(off, lbuf + shift))                           \
                  ST##n(T, o + 16 * (20 + (k)), vload##n(off, priv + shift)) GENERIC_LOAD(T, n, k)

#define VLOAD(T)                                                                                   \
  kernel void vload_##T(global const T *src, constant T *csrc, global const uint *params,          \
                        global T *out, uint uoff, uint ushift) {                                   \
    size_t i = get_global_id(0);                                                                   \
    uint goff = params[4 * i], shift = params[4 * i + 1], off = params[4 * i + 2],                 \
         pstart = params[4 * i + 3];                                                               \
    local T lbuf[256];                                                                             \
    for (size_t j = get_local_id(0); j < 256; j += get_local_size(0))                              \
      lbuf[j] = src[1023 - j];                                                                     \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    T priv[72];                                                                                    \
    for (int j = 0; j < 72; ++j)                                                                   \
      priv[j] = src[pstart + j];                                                                   \
    GENERIC_LOAD_POINTER(T)                                                                        \
    global T *o = out + 480 * i;                                                                   \
    VLOAD_N(T, 2, 0) VLOAD_N(T, 3, 1) VLOAD_N(T, 4, 2) VLOAD_N(T, 8, 3) VLOAD_N(T, 16, 4)          \
  }

// ---- vstore_T ---------------------------------------------------------------------
// Work-groups of 16. params as for vload_T (shift, off used). The value of
// n components is the first n of data + 16 i. Region (s, k) of 72 elements
// at out + 1800 i + 72 (5 s + k); out starts as a copy of fill, and local or
// private regions are first filled from fill:
//   s 0: vstoren(v, off, region + shift)     global
//   s 1: vstoren(v, uoff, region + shift)    global, uniform offset
//   s 2: vstoren(v, off, lr + shift)         local (lr: 72 elements per work-
//                                            item), then copied to the region
//   s 3: vstoren(v, off, priv + shift)       private, then copied
//   s 4: vstoren(v, off, gp)                 generic: odd i lr + shift (then
//                                            copied), even i region + shift
#define REGION(s, k) (72 * (5 * (s) + (k)))
#define COPY72(to, from)                                                                           \
  for (int j = 0; j < 72; ++j)                                                                     \
    (to)[j] = (from)[j];

#if HAS_GENERIC
#define GENERIC_STORE(T, n, k, v)                                                                  \
  {                                                                                                \
    COPY72(lr, f + REGION(4, k))                                                                   \
    T *gp;                                                                                         \
    if (i & 1)                                                                                     \
      gp = lr + shift;                                                                             \
    else                                                                                           \
      gp = o + REGION(4, k) + shift;                                                               \
    vstore##n(v, off, gp);                                                                         \
    if (i & 1)                                                                                     \
      COPY72(o + REGION(4, k), lr)                                                                 \
  }
#else
#define GENERIC_STORE(T, n, k, v)
#endif

#define VSTORE_N(T, n, k, v)                                                                       \
  vstore##n(v, off, o + REGION(0, k) + shift);                                                     \
  vstore##n(v, uoff, o + REGION(1, k) + shift);                                                    \
  COPY72(lr, f + REGION(2, k))                                                                     \
  vstore##n(v, off, lr + shift);                                                                   \
  COPY72(o + REGION(2, k), lr)                                                                     \
  COPY72(priv, f + REGION(3, k))                                                                   \
  vstore##n(v, off, priv + shift);                                                                 \
  COPY72(o + REGION(3, k), priv)                                                                   \
  GENERIC_STORE(T, n, k, v)

#define VSTORE(T)                                                                                  \
  kernel __attribute__((reqd_work_group_size(16, 1, 1))) void vstore_##T(                          \
      global const T *data, global const T *fill, global const uint *params, global T *out,        \
      uint uoff) {                                                                                 \
    size_t i = get_global_id(0);                                                                   \
    uint shift = params[4 * i + 1], off = params[4 * i + 2];                                       \
    T##16 d = *(global const T##16 *)(data + 16 * i);                                              \
    local T lbuf[16 * 72];                                                                         \
    local T *lr = lbuf + 72 * get_local_id(0);                                                     \
    T priv[72];                                                                                    \
    global T *o = out + 1800 * i;                                                                  \
    global const T *f = fill + 1800 * i;                                                           \
    VSTORE_N(T, 2, 0, d.s01)                                                                       \
    VSTORE_N(T, 3, 1, d.s012)                                                                      \
    VSTORE_N(T, 4, 2, d.s0123)                                                                     \
    VSTORE_N(T, 8, 3, d.lo)                                                                        \
    VSTORE_N(T, 16, 4, d)                                                                          \
  }

#define BOTH(T) VLOAD(T) VSTORE(T)
BOTH(char)
BOTH(uchar)
BOTH(short)
BOTH(ushort)
BOTH(int)
BOTH(uint)
BOTH(long)
BOTH(ulong)
BOTH(half)
BOTH(float)
BOTH(double)

// ---- half loads -------------------------------------------------------------------
// vload_half over a buffer of halves: out[i] = vload_half(i, in).
kernel void load_half_all(global const half *in, global float *out) {
  size_t i = get_global_id(0);
  out[i] = vload_half(i, in);
}

// Work-item i reads with offsets q i .. q i + q - 1 (q = 16 / n, 5 for n = 3)
// and writes the floats of offset o to region k (n index) at out + R k +
// o n for vload_halfn(o, in + shift), region 5 + k at out + R (5 + k) +
// o a for vloada_halfn(o, in) (a = n, 4 for n = 3).
#define Q2 8
#define Q3 5
#define Q4 4
#define Q8 2
#define Q16 1
#define FST2(p, v) *(global float2 *)(p) = (v);
#define FST3(p, v)                                                                                 \
  {                                                                                                \
    float3 t3_ = (v);                                                                              \
    (p)[0] = t3_.s0;                                                                               \
    (p)[1] = t3_.s1;                                                                               \
    (p)[2] = t3_.s2;                                                                               \
  }
#define FST4(p, v) *(global float4 *)(p) = (v);
#define FST8(p, v) *(global float8 *)(p) = (v);
#define FST16(p, v) *(global float16 *)(p) = (v);
#define A2 2
#define A3 4
#define A4 4
#define A8 8
#define A16 16
#define LOAD_HALF_N(n, k)                                                                          \
  for (uint c = 0; c < Q##n; ++c) {                                                                \
    uint o = Q##n * i + c;                                                                         \
    FST##n(out + R * (k) + o * n, vload_half##n(o, in + shift))                                    \
        FST##n(out + R * (5 + (k)) + o * A##n, vloada_half##n(o, in))                              \
  }
kernel void load_halfn(global const half *in, global float *out, uint shift, uint R) {
  uint i = get_global_id(0);
  LOAD_HALF_N(2, 0) LOAD_HALF_N(3, 1) LOAD_HALF_N(4, 2) LOAD_HALF_N(8, 3) LOAD_HALF_N(16, 4)
}

// ---- half stores ------------------------------------------------------------------
// For each rounding mode r (0 default, 1 _rte, 2 _rtz, 3 _rtp, 4 _rtn), at
// b = out + 11 R r: vstore_half(in[16 i + c], 16 i + c, b) for c < 16; then
// for each n (index k), the vectors of in + 16 i + c n (c < q as above):
// vstore_halfn(v, q i + c, b + R (1 + k)) and vstorea_halfn(v, q i + c,
// b + R (6 + k)).
#define SLD2(S, p) (*(global const S##2 *)(p))
#define SLD3(S, p) ((S##3)((p)[0], (p)[1], (p)[2]))
#define SLD4(S, p) (*(global const S##4 *)(p))
#define SLD8(S, p) (*(global const S##8 *)(p))
#define SLD16(S, p) (*(global const S##16 *)(p))
#define STORE_HALF_N(S, n, k, suf)                                                                 \
  for (uint c = 0; c < Q##n; ++c) {                                                                \
    S##n v = SLD##n(S, in + 16 * i + c * n);                                                       \
    vstore_half##n##suf(v, Q##n *i + c, b + R * (1 + (k)));                                        \
    vstorea_half##n##suf(v, Q##n *i + c, b + R * (6 + (k)));                                       \
  }
#define STORE_HALF_MODE(S, suf, r)                                                                 \
  {                                                                                                \
    global half *b = out + 11 * R * (r);                                                           \
    for (uint c = 0; c < 16; ++c)                                                                  \
      vstore_half##suf(in[16 * i + c], 16 * i + c, b);                                             \
    STORE_HALF_N(S, 2, 0, suf)                                                                     \
    STORE_HALF_N(S, 3, 1, suf)                                                                     \
    STORE_HALF_N(S, 4, 2, suf)                                                                     \
    STORE_HALF_N(S, 8, 3, suf)                                                                     \
    STORE_HALF_N(S, 16, 4, suf)                                                                    \
  }
#define STORE_HALF(S)                                                                              \
  kernel void store_half_##S(global const S *in, global half *out, uint R) {                       \
    uint i = get_global_id(0);                                                                     \
    STORE_HALF_MODE(S, , 0)                                                                        \
    STORE_HALF_MODE(S, _rte, 1)                                                                    \
    STORE_HALF_MODE(S, _rtz, 2)                                                                    \
    STORE_HALF_MODE(S, _rtp, 3)                                                                    \
    STORE_HALF_MODE(S, _rtn, 4)                                                                    \
  }
STORE_HALF(float)
STORE_HALF(double)

// ---- uniform operands -------------------------------------------------------------
// x, d and k are kernel arguments (the same for all work-items): out + 10 i
// receives vstore_half(x) in modes r = 0..4 (as above) at offset r, and
// vstore_half(d) in mode r at offset 5 + r; lout[i] = vload_half(k, in).
kernel void half_uniform(float x, double d, uint k, global const half *in, global half *out,
                         global float *lout) {
  size_t i = get_global_id(0);
  global half *o = out + 10 * i;
  vstore_half(x, 0, o);
  vstore_half_rte(x, 1, o);
  vstore_half_rtz(x, 2, o);
  vstore_half_rtp(x, 3, o);
  vstore_half_rtn(x, 4, o);
  vstore_half(d, 5, o);
  vstore_half_rte(d, 6, o);
  vstore_half_rtz(d, 7, o);
  vstore_half_rtp(d, 8, o);
  vstore_half_rtn(d, 9, o);
  lout[i] = vload_half(k, in);
}

// vstore_half in each rounding mode of in[i], into four regions of n halves:
// default (round to nearest even), _rtz, _rtp, _rtn.
#define STORE_HALF_MODES(T)                                                                    \
  __kernel void store_half_modes_##T(__global const T *in, __global half *out, uint n) {       \
    const size_t i = get_global_id(0);                                                         \
    vstore_half(in[i], i, out);                                                                \
    vstore_half_rtz(in[i], i + n, out);                                                        \
    vstore_half_rtp(in[i], i + 2 * n, out);                                                    \
    vstore_half_rtn(in[i], i + 3 * n, out);                                                    \
  }
STORE_HALF_MODES(float)
STORE_HALF_MODES(double)

// SPDX-License-Identifier: Apache-2.0
