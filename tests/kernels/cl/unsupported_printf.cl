// printf is not executed yet: the build must fail naming it.
kernel void hello(global int *out) {
  printf("hello %d\n", (int)get_global_id(0));
  out[get_global_id(0)] = 1;
}
