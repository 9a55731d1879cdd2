// Defect (d): the private array `ptrs` becomes a module-scope constant whose
// initializer points into `first` and `second`; llvm-spirv-14 leaves those two
// out of the SPIR-V 1.4 interface of the kernel.
constant int first[4] = {1, 2, 3, 4};
constant int second[4] = {5, 6, 7, 8};

kernel void pointer_table(global int* out, int select) {
  constant int* ptrs[2] = {first, second};
  int i = get_global_id(0);
  out[i] = ptrs[select & 1][i & 3] + sub_group_reduce_add(i);
}

// A second kernel that uses no table: its interface must not gain them.
kernel void no_table(global int* out) { out[get_global_id(0)] = 7; }

// SPDX-License-Identifier: Apache-2.0
