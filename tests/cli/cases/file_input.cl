kernel void upper(global const uchar *text, global uchar *out) {
  const size_t i = get_global_id(0);
  const uchar c = text[i];
  out[i] = c >= 'a' && c <= 'z' ? c - ('a' - 'A') : c;
}

// SPDX-License-Identifier: Apache-2.0
