// atomic_compare_exchange_weak: llvm-spirv-14 writes OpAtomicCompareExchangeWeak
// into a SPIR-V 1.4 module, where it no longer exists.
kernel void claim(volatile global atomic_int *slot, global int *won) {
  int expected = 0;
  won[get_global_id(0)] = atomic_compare_exchange_weak_explicit(
      slot, &expected, (int)get_global_id(0) + 1, memory_order_relaxed, memory_order_relaxed,
      memory_scope_work_group);
}

// SPDX-License-Identifier: Apache-2.0
