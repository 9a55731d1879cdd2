// Types and constants whose layout the tests check against OpenCL C's rules.
typedef struct {
  char c;     // offset 0
  double d;   // offset 8
  float3 v;   // offset 16, 16 bytes
  short s;    // offset 32
} Mixed;      // size 48, alignment 16

typedef struct __attribute__((packed)) {
  char c;     // offset 0
  int i;      // offset 1
  short s;    // offset 5
} Packed;     // size 7, alignment 1

constant float coefficients[5] = {0.5f, 1.5f, -2.0f, 4.0f, 8.25f};
constant long big = 0x123456789abcdefL;

kernel void layout(global Mixed* mixed, global Packed* packed, global double* out) {
  int i = get_global_id(0);
  out[i] = mixed[i].d + mixed[i].v.y + packed[i].i + packed[i].s + coefficients[i % 5] + (double)big;
}

// SPDX-License-Identifier: Apache-2.0
