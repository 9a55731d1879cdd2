// printf (OpenCL C 3.0, 6.15.14): printf_test.cpp computes what each call
// prints with the host's snprintf, conversion by conversion, and compares it
// with what the kernels write to stdout. `results` receives printf's return
// values.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
// Formats that are unusual (hh with an int) or invalid on purpose.
#pragma clang diagnostic ignored "-Wformat"
#pragma clang diagnostic ignored "-Wformat-insufficient-args"
#pragma clang diagnostic ignored "-Wformat-invalid-specifier"

constant char greeting[] = "a constant string";

// Integer conversions, every length modifier, flags, width and precision.
kernel void integers(global int *results, int i, uint u, long l, ulong ul, char c, uchar uc,
                     short s, ushort us) {
  int k = 0;
  results[k++] = printf("d=%d i=%i o=%o u=%u x=%x X=%X\n", i, i, u, u, u, u);
  results[k++] = printf("negative: %d %i %u %x\n", -i, -i, (uint)-i, (uint)-i);
  results[k++] = printf("flags: [%-8d] [%+d] [% d] [%#o] [%#x] [%#X] [%08d] [%-+12d] [%+ d]\n",
                        i, i, i, u, u, u, i, -i, i);
  results[k++] = printf("precision: [%.5d] [%12.9d] [%.0d] [%.0x] [%#.0o] [%012.3x] [%.d]\n", i,
                        -i, 0, 0u, 0u, u, 0);
  results[k++] = printf("hh: %hhd %hhi %hhu %hho %hhx %hhX [%#5hhx]\n", c, c, uc, uc, uc, uc, uc);
  results[k++] = printf("hh of int: %hhd %hhu %hhx\n", i, u, u);
  results[k++] = printf("h: %hd %hi %hu %ho %hx %hX [%-+8hd]\n", s, s, us, us, us, us, s);
  results[k++] = printf("h of int: %hd %hu\n", i, u);
  results[k++] = printf("l: %ld %li %lu %lo %lx %lX\n", l, l, ul, ul, ul, ul);
  results[k++] = printf("l flags: [%+24ld] [%-#26lo] [%#.18lx] [%020ld]\n", l, ul, ul, -l);
  results[k++] = printf("c: [%c] [%3c] [%-3c] [%c]\n", c, 'A', 'z', i);
  results[k++] = printf("%%: 100%% [%d%%]\n", i);
}

// Floating-point conversions of float, double and half scalars (promoted to
// double), with flags, width and precision, and infinities and NaNs.
kernel void floats(global int *results, float f, double d, float tiny, float big,
                   global const half *h) {
  int k = 0;
  const half x = h[0];
  results[k++] = printf("f=%f F=%F e=%e E=%E g=%g G=%G a=%a A=%A\n", f, f, f, f, f, f, f, f);
  results[k++] = printf("double: %f %e %g %a %lf %.17g\n", d, d, d, d, d, d);
  results[k++] = printf("half: %f %e %g %a\n", x, x, x, x);
  results[k++] = printf("flags: [%+f] [% e] [%-12.3f] [%012.4f] [%#.0f] [%#g] [%#.0e] [%+.3a]\n",
                        f, f, f, -f, f, f, f, f);
  results[k++] = printf("precision: [%.0f] [%.10f] [%.2e] [%.3g] [%.0g] [%.1a] [%.f]\n", f, d,
                        f, d, f, f, f);
  results[k++] = printf("big: %g %e %f %G; tiny: %g %e %a %A\n", big, big, big, big, tiny, tiny,
                        tiny, tiny);
  results[k++] = printf("special: %f %F %e %G %a %A [%8f] [%-8F] %f\n", INFINITY, INFINITY,
                        -INFINITY, -INFINITY, INFINITY, -INFINITY, NAN, NAN, 0.0f);
}

// %s of literal strings and of a program-scope constant string, and %p.
kernel void strings(global int *results, global ulong *pointers, int pick) {
  results[0] = printf("%s|%12s|%-12s|%.4s|%s|\n", "literal", "right", "left", "truncated",
                      greeting);
  // Not a literal at the call: the string is read when the printf runs.
  constant char *chosen = pick ? "first choice" : "second choice";
  results[1] = printf("chosen: %s [%.6s]\n", chosen, chosen);
  pointers[0] = (ulong)pointers;
  results[2] = printf("pointers: %p %p\n", pointers, (global void *)0);
  results[3] = printf("%s%s\n", "", "only the second");
}

// Vector specifiers: each size with each element size, integer and
// floating-point conversions.
#define VECTOR_CASES(n, part)                                                                      \
  results[k++] = printf("v" #n " char: %v" #n "hhd|%v" #n "hhu|%#v" #n "hhx\n", c.part,          \
                        convert_uchar##n(c.part), convert_uchar##n(c.part));                       \
  results[k++] = printf("v" #n " short: %v" #n "hd|%v" #n "hu|%v" #n "hX\n", s.part,              \
                        convert_ushort##n(s.part), convert_ushort##n(s.part));                     \
  results[k++] = printf("v" #n " int: %v" #n "hld|%v" #n "hli|%v" #n "hlo|%+v" #n "hld\n", i.part, \
                        i.part, convert_uint##n(i.part), i.part);                                  \
  results[k++] = printf("v" #n " long: %v" #n "ld|%v" #n "lu|%v" #n "lx\n", l.part,               \
                        convert_ulong##n(l.part), convert_ulong##n(l.part));                       \
  results[k++] = printf("v" #n " half: %v" #n "hf|%v" #n "hg\n", h.part, h.part);                 \
  results[k++] = printf("v" #n " float: %v" #n "hlf|%v" #n "hle|%.3v" #n "hlg|%v" #n "hla\n",    \
                        f.part, f.part, f.part, f.part);                                           \
  results[k++] = printf("v" #n " double: %v" #n "lf|%v" #n "lE|%v" #n "lA\n", d.part, d.part,    \
                        d.part)

kernel void vectors(global int *results, global const char16 *cs, global const short16 *ss,
                    global const int16 *is, global const long16 *ls, global const half16 *hs,
                    global const float16 *fs, global const double16 *ds) {
  const char16 c = cs[0];
  const short16 s = ss[0];
  const int16 i = is[0];
  const long16 l = ls[0];
  const half16 h = hs[0];
  const float16 f = fs[0];
  const double16 d = ds[0];
  int k = 0;
  VECTOR_CASES(2, s01);
  VECTOR_CASES(3, s012);
  VECTOR_CASES(4, s0123);
  VECTOR_CASES(8, lo);
  VECTOR_CASES(16, s0123456789abcdef);
  // The specification's examples.
  results[k++] = printf("f4 = %2.2v4hlf\n", (float4)(1.0f, 2.0f, 3.0f, 4.0f));
  results[k++] = printf("uc = %#v4hhx\n", (uchar4)(0xFA, 0xFB, 0xFC, 0xFD));
  results[k++] = printf("flags: [%+8.2v2hlf] [%-6v2hld] [%06v2hld]\n", f.s01, i.s01, i.s23);
}

// The work-items of a 1-, 2- or 3-dimensional range each print one line.
kernel void ids(global int *results) {
  const uint x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  results[get_global_linear_id()] =
      printf("item (%u,%u,%u) of group (%u,%u,%u)\n", x, y, z, (uint)get_group_id(0),
             (uint)get_group_id(1), (uint)get_group_id(2));
}

// Another kernel, to tell two launches' output apart.
kernel void tagged(global int *results, int tag) {
  const uint x = get_global_id(0);
  results[x] = printf("kernel %d, item %u\n", tag, x);
}

// Only some work-items print.
kernel void divergent(global int *results) {
  const uint i = get_global_id(0);
  int r = 1; // work-items that do not print keep 1
  if (i % 3 == 1)
    r = printf("%u is 1 mod 3\n", i);
  else if (i % 5 == 0)
    r = printf("%u: %s\n", i, "a multiple of 5");
  results[i] = r;
}

// Work-items leave the loop at different iterations; each one's lines come
// in its program order.
kernel void loop(global int *results, global const int *counts) {
  const uint i = get_global_id(0);
  int sum = 0;
  for (int k = 0; k < counts[i]; ++k)
    sum += printf("%u: step %d of %d\n", i, k, counts[i]);
  sum += printf("%u: done\n", i);
  results[i] = sum;
}

// Lines before and after a work-group barrier (the warps of a work-group
// run in turns).
kernel void barrier_order(global int *results, local int *scratch) {
  const uint i = get_global_id(0), l = get_local_id(0);
  int r = printf("%u before\n", i);
  scratch[l] = (int)i;
  barrier(CLK_LOCAL_MEM_FENCE);
  r += printf("%u after, neighbour %d\n", i, scratch[(l + 1) % get_local_size(0)]);
  results[i] = r;
}

// Formats the specification forbids or leaves undefined: each printf
// returns -1 and prints nothing; the valid ones around them still print.
kernel void invalid(global int *results) {
  int k = 0;
  results[k++] = printf("valid before\n");
  results[k++] = printf("%d %d\n", 1);                      // too few arguments
  results[k++] = printf("%lc\n", 'a');                       // l with c
  results[k++] = printf("%v4d\n", (int4)(1));                // vector without length
  results[k++] = printf("%hlf\n", 1.0f);                     // hl without vector
  results[k++] = printf("%v2hhd\n", (int2)(1, 2));           // vector type mismatch
  results[k++] = printf("%*d\n", 5, 1);                      // asterisk width
  results[k++] = printf("%lld\n", 1L);                       // ll is reserved
  results[k++] = printf("%v3hld\n", (int4)(1));              // vector size mismatch
  results[k++] = printf("%q\n", 1);                          // unknown conversion
  results[k++] = printf("%d\n", 1.0f);                       // float for an integer
  results[k++] = printf("%v2s\n", "ab");                     // vector with s
  results[k++] = printf("%jd\n", 1L);                        // j is reserved
  results[k++] = printf("valid after %d\n", 42);
}

// More output than CL_DEVICE_PRINTF_BUFFER_SIZE: the records that do not fit
// are dropped and their printf returns -1.
kernel void flood(global int *results, int count) {
  for (int k = 0; k < count; ++k)
    results[k] = printf("%1000d\n", k);
}

// Unoptimised code keeps the format in a private variable.
kernel void format_in_a_variable(global int *results, int value) {
  constant char *format = "format in a variable: %d\n";
  results[0] = printf(format, value);
}

// SPDX-License-Identifier: Apache-2.0
