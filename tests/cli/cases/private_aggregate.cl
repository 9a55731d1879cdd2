// A private struct initialised with an array and a pointer: clang emits the
// array's initialiser as a module-scope `constinit` global in the private
// address space, which llvm-spirv-14 writes as a module-scope OpVariable in
// the Function storage class (at -O0 not even marked constant).
struct S { int *p; int a[3][4]; };
kernel void k(global int *out) {
  int x = (int)get_global_id(0);
  struct S s = { &x, {{1, 2, 3, 4}, {1, 2, 3, 4}, {1, 2, 3, 4}} };
  out[get_global_id(0)] = s.a[get_global_id(0) % 3][get_global_id(0) % 4] + *s.p;
}

// SPDX-License-Identifier: Apache-2.0
