// Cases that share a target: at -O2 the target's phi has one entry per case
// of the same switch (LLVM's phi lists edges; SPIR-V's lists parent blocks).
__kernel void classify(__global const int *in, __global int *out) {
  size_t i = get_global_id(0);
  int r;
  switch (in[i]) {
  case 1: case 2: case 7: r = 10; break;
  case 3: r = in[i] * 3; break;
  case 4: case 9: r = (int)i; break;
  default: r = 0;
  }
  out[i] = r;
}

// SPDX-License-Identifier: Apache-2.0
