// Defect (c): a private array, as in the OpenCL-CTS vload tests; at -O2
// llvm-spirv-14 puts its OpVariable after other instructions of the entry
// block.
kernel void private_array(global int* src, global uint* offsets, global uint* alignmentOffsets,
                          global int3* results) {
  private int sPrivateStorage[48];
  int tid = get_global_id(0);
  for (int i = 0; i < 48; i++)
    sPrivateStorage[i] = src[i];
  int3 tmp = vload3(offsets[tid], ((private int*)sPrivateStorage) + alignmentOffsets[tid]);
  results[tid] = tmp;
}

// SPDX-License-Identifier: Apache-2.0
