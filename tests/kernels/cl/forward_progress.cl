// Independent forward progress of sub-groups (OpenCL 3.0, 3.2.2.1;
// tests/kernels/forward_progress_test.cpp): each sub-group but the last
// waits until the next one has signalled, then signals itself, so the
// sub-groups finish from the last to the first. Without independent forward
// progress the waiting sub-groups spin for ever. flags: 64 per work-group.
kernel void signal_chain(volatile global int *flags, global uint *order, global uint *ticket) {
  const uint subgroup = get_sub_group_id(), count = get_num_sub_groups();
  volatile global int *mine = flags + get_group_id(0) * 64;
  if (subgroup + 1 < count)
    while (atomic_or(&mine[subgroup + 1], 0) == 0)
      ;
  if (get_sub_group_local_id() == 0) {
    order[get_group_id(0) * 64 + subgroup] = atomic_inc(&ticket[get_group_id(0)]);
    atomic_xchg(&mine[subgroup], 1);
  }
}

// SPDX-License-Identifier: Apache-2.0
