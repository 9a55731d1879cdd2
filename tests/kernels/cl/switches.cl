// Switches: clang -O2 narrows the selector of the first one to an i2.
kernel void narrow_switch(global int *out) {
  int i = get_global_id(0);
  int acc = out[i];
  switch (i & 3) {
  case 0:
    acc += 1;
    break;
  case 1:
    acc *= 3;
    break;
  default:
    acc = -acc;
  }
  out[i] = acc;
}

kernel void wide_switch(global long *out, long base) {
  long i = get_global_id(0);
  long v;
  switch (i % 9 + base) {
  case 0x100000000L:
    v = 7;
    break;
  case 0x100000003L:
    v = -5;
    break;
  case 0x100000005L:
  case 0x100000006L:
    v = i * i;
    break;
  default:
    v = 0;
  }
  out[i] = v;
}

// SPDX-License-Identifier: Apache-2.0
