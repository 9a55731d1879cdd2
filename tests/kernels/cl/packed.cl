// Kernels whose work-items see nothing of their work-group but their ids:
// a one-dimensional launch of small groups runs several of them in each
// warp (runtime::groupsPerPackedWarp). tests/kernels/packed_test.cpp.

// Every built-in such a kernel may read, eight per work-item. The y and z
// ids and sizes of a one-dimensional launch are 0 and 1.
kernel void builtins(global ulong *out) {
  const size_t i = get_global_id(0) - get_global_offset(0);
  global ulong *o = out + i * 8;
  o[0] = get_global_id(0);
  o[1] = get_local_id(0);
  o[2] = get_local_size(0);
  o[3] = get_num_groups(0);
  o[4] = get_global_offset(0);
  o[5] = get_local_linear_id();
  o[6] = get_global_size(0) + 1000000 * get_enqueued_local_size(0);
  o[7] = get_global_id(1) + 3 * get_global_id(2) + 5 * get_local_id(1) + 7 * get_local_id(2) +
         11 * (get_local_size(1) + get_local_size(2)) + 13 * get_num_groups(1) +
         1000 * get_work_dim();
}

// Addresses in the local id repeat in every group of a warp; those in the
// global id run on across the groups; int ids widened back.
kernel void rows(global const int *table, global const int *in, global int *out) {
  const int gid = get_global_id(0), lid = get_local_id(0);
  out[gid] = table[lid] * 1000 + in[gid] + (gid - lid);
}

// Divergence within and across the groups of a warp, a private array, and
// a loop whose trip count differs by work-item.
kernel void private_walk(global const int *in, global int *out, int n) {
  const int gid = get_global_id(0), lid = get_local_id(0);
  if (gid >= n)
    return;
  int acc[8];
  for (int k = 0; k < 8; ++k)
    acc[k] = in[(gid + k) % n] * (lid + k);
  int sum = 0;
  for (int k = 0; k <= lid % 8; ++k)
    sum += acc[k];
  if (lid % 3 == 1)
    sum = -sum;
  out[gid] = sum;
}

// Many live values per work-item: the warp's registers limit how many
// work-groups it may hold.
kernel void wide_values(global const double8 *in, global double8 *out) {
  const size_t i = get_global_id(0);
  const double8 a = in[i], b = a * 2.0 + 1.0, c = a * a, d = b * c - a, e = d + c * 3.0;
  out[i] = (a + b) * (c - d) + e * (double)get_local_id(0);
}

// For work-groups of one work-item (the CTS's choice for a prime global
// size), which share warps too: __local variables, barriers, __local
// atomics and asynchronous copies with nobody to share them with; the
// copies strided both ways and of a count that differs by work-item.
// Valid for groups of one work-item only: each copy's arguments are the
// work-item's own.
kernel void alone(global const int *in, global int *out, global int *spread) {
  local int data[16];
  local int count;
  const int gid = (get_global_id(1) - get_global_offset(1)) * get_global_size(0) +
                  get_global_id(0) - get_global_offset(0);
  const int items = get_global_size(0) * get_global_size(1);
  const int group = get_group_id(1) * get_num_groups(0) + get_group_id(0);
  if (get_local_id(0) == 0)
    count = 0;
  event_t e = async_work_group_strided_copy(data, in + gid, 8, 3, 0);
  wait_group_events(1, &e);
  barrier(CLK_LOCAL_MEM_FENCE);
  const int trips = gid % 8 + 1;
  for (int k = 0; k < trips; ++k) {
    data[8 + k] = data[k] * (group + 1) + get_local_id(0) + (int)get_local_size(0);
    atomic_inc(&count);
  }
  if (gid % 3 == 1)
    data[8] = -data[8];
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_copy(out + gid * 9, data + 8, trips, 0);
  wait_group_events(1, &e);
  out[gid * 9 + 8] = count;
  e = async_work_group_strided_copy(spread + gid, data, 8, items, 0);
  wait_group_events(1, &e);
}

// The group id in a kernel that may share warps: per work-item there.
kernel void group_ids(global int *out) {
  const size_t i = get_global_id(0) - get_global_offset(0);
  out[i] = get_group_id(0) * 1000 + get_local_id(0) + get_group_id(1) + get_group_id(2);
}

// Every id in two and three dimensions, twelve per work-item, at the
// work-item's linear position in the range: rows of small work-groups
// along x share warps, each warp one row.
kernel void builtins_3d(global ulong *out) {
  const size_t x = get_global_id(0) - get_global_offset(0),
               y = get_global_id(1) - get_global_offset(1),
               z = get_global_id(2) - get_global_offset(2);
  global ulong *o = out + ((z * get_global_size(1) + y) * get_global_size(0) + x) * 12;
  for (uint d = 0; d < 3; ++d) {
    o[d] = get_global_id(d);
    o[3 + d] = get_local_id(d);
    o[6 + d] = get_group_id(d);
  }
  o[9] = get_global_linear_id();
  o[10] = get_local_linear_id();
  o[11] = get_num_groups(0) + 1000 * get_num_groups(1) + 1000000 * get_num_groups(2) +
          1000000000ul * (get_local_size(0) + 10 * get_local_size(1) + 100 * get_local_size(2));
}

// SPDX-License-Identifier: Apache-2.0
