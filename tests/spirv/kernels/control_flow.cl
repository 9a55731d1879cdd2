// Defect (b): at -O1, llvm-spirv-14 emits merge declarations that name the
// same block twice ("already a merge block for another header").
kernel void control_flow(global int* out, global const int* in, int n, int m) {
  int i = get_global_id(0);
  int acc = 0;
  for (int j = 0; j < n; ++j) {
    if (in[j] > i) {
      for (int k = 0; k < m; ++k) {
        if (in[k] == j)
          break;
        acc += in[k] * j;
      }
    } else if (in[j] < 0) {
      continue;
    } else {
      acc -= in[j];
    }
    while (acc > 1000)
      acc /= 2;
  }
  out[i] = acc;
}

// SPDX-License-Identifier: Apache-2.0
