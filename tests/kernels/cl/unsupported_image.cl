// Images are not supported: building this module must fail and say so.
kernel void copy_image(read_only image2d_t source, global float4 *out) {
  int2 at = (int2)(get_global_id(0), 0);
  out[get_global_id(0)] = read_imagef(source, at);
}
