// half buffers hold raw bits: read them as floats, write doubled values back.
kernel void half_raw(global const half *in, global float *value, global half *doubled) {
  const size_t i = get_global_id(0);
  value[i] = vload_half(i, in);
  vstore_half(value[i] * 2.0f, i, doubled);
}

// SPDX-License-Identifier: Apache-2.0
