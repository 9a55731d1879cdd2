// A loop without an exit: at -O2 clang makes it a block that branches to
// itself. The build must end at once, and the watchdog stop the launch.
__kernel void spin(__global int *p) { while (p[0] == 0) { } }

// SPDX-License-Identifier: Apache-2.0
