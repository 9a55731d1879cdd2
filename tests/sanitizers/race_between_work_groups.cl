// Every work-item of every work-group writes out[0]: work-groups on
// different threads race, and the ThreadSanitizer build must report it.
kernel void race(global int *out) { out[0] = (int)get_global_id(0); }

// SPDX-License-Identifier: Apache-2.0
