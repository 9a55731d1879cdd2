kernel void broken(global int *out) {
  out[0] = undeclared;
}

// SPDX-License-Identifier: Apache-2.0
