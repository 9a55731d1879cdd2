// "The format ... must be resolvable at compile time": a format chosen when
// the kernel runs fails the build.
kernel void dynamic_format(global int *results, int pick) {
  results[0] = printf(pick ? "one %d\n" : "two %d\n", pick);
}

// SPDX-License-Identifier: Apache-2.0
