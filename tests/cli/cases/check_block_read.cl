// Each sub-group copies a block of 16 elements (cl_intel_subgroups); the
// second sub-group's block lies past the end of 'in'.
__attribute__((intel_reqd_sub_group_size(16)))
kernel void block_copy(global const uint *in, global uint *out) {
  out[get_global_id(0)] = intel_sub_group_block_read(in + get_sub_group_id() * 16);
}

// SPDX-License-Identifier: Apache-2.0
