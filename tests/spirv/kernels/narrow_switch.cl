// At -O2, clang turns this switch on (i & 3) into a switch on an i2, which
// llvm-spirv-14 --spirv-ext=+all emits with ArbitraryPrecisionIntegersINTEL.
kernel void narrow_switch(global int* out) {
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

// SPDX-License-Identifier: Apache-2.0
