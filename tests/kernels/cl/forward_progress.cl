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

// A uniform loop around a divergent one that runs long in one lane: the
// other sub-groups wait at the inner loop's exit, and need no turn to let
// it finish. Each work-item writes each round's count of inner iterations.
kernel void long_inner_loops(global int *out, int rounds) {
  const int i = get_global_id(0), n = get_global_size(0);
  for (int r = 0; r < rounds; ++r) {
    const int limit = get_local_id(0) == 0 ? 5000 + r : 10 + (i + r) % 7;
    int it = 0;
    float x = 0.0f;
    while (it < limit) {
      x = x * 0.5f + 1.0f;
      ++it;
    }
    out[r * n + i] = it + (x > 2.5f ? 1000000 : 0);
  }
}

// A uniform loop around a compare-exchange loop, a loop that waits for the
// other work-items: the sub-groups that leave it first get turns and run
// ahead into the next rounds, past the others. Some work-items also
// increment the counter inside the loop (counted in c[2]), which makes every
// work-item's number of tries irregular. tries[r * n + i]: work-item i's
// tries in round r.
kernel void compare_exchange_rounds(global int *c, global int *tries, int rounds) {
  const int i = get_global_id(0), n = get_global_size(0);
  for (int r = 0; r < rounds; ++r) {
    int expected = atomic_add(&c[1], 0), seen, t = 0;
    while ((seen = atomic_cmpxchg(&c[1], expected, expected + 1)) != expected) {
      expected = seen;
      if ((i * 3 + t * 7) % 11 == 2 && t < 4) {
        atomic_inc(&c[1]);
        atomic_inc(&c[2]);
      }
      ++t;
    }
    tries[r * n + i] = t + 1;
  }
}

// SPDX-License-Identifier: Apache-2.0

// A lock every work-item takes in turn: one work-item of a sub-group holds
// it while the others of that sub-group spin. Lockstep lanes would spin for
// ever; the work-items of a kernel without sub-group operations take turns
// one at a time. Under the lock, a count is read and written back one
// higher by two separate atomics (only the lock makes that an increment);
// order[k]: the k-th work-item to hold the lock.
kernel void spin_lock(global int *lock, global int *count, global int *order) {
  while (atomic_cmpxchg(lock, 0, 1) != 0)
    ;
  const int k = atomic_add(count, 0);
  order[k] = get_global_id(0);
  atomic_xchg(count, k + 1);
  atomic_xchg(lock, 0);
}
