// Work-group collective functions are not executed yet: the build must fail
// naming the kernel and the instruction. (The OpenCL C 3.0 headers declare
// them only with __opencl_c_work_group_collective_functions; this
// declaration makes clang emit the instruction all the same.)
int __attribute__((overloadable)) work_group_reduce_add(int);

kernel void reduce(global int *out) {
  const size_t i = get_global_id(0);
  out[i] = work_group_reduce_add(out[i]);
}
