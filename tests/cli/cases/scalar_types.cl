// Every integer value type arrives with its extremes intact.
kernel void scalar_types(global long *out, char c, uchar uc, short s, ushort us, int i, uint u,
                         long l, ulong ul, float f) {
  out[0] = c;
  out[1] = uc;
  out[2] = s;
  out[3] = us;
  out[4] = i;
  out[5] = u;
  out[6] = l;
  out[7] = (long)ul;
  out[8] = (long)(f * 4.0f);
}

// SPDX-License-Identifier: Apache-2.0
