// Flags every float that lies in [-1, 1) and every int in [-3, 3], and
// collects which of the seven ints were drawn as bits.
kernel void random_fill(global const float *f, global const int *n, global int *inRange,
                        global int *seen) {
  const size_t i = get_global_id(0);
  inRange[i] = f[i] >= -1.0f && f[i] < 1.0f && n[i] >= -3 && n[i] <= 3;
  if (n[i] >= -3 && n[i] <= 3)
    atomic_or(seen, 1 << (n[i] + 3));
}

// SPDX-License-Identifier: Apache-2.0
