// SPDX-License-Identifier: Apache-2.0
// Lowering a kernel of a loaded module to the engine's bytecode (DESIGN.md,
// "Bytecode, decoded once"): calls inlined, blocks in reverse post-order,
// values in uniform or varying registers, phis as copies on edges, and every
// instruction bound to the handler for its exact operation, type and shape.
#pragma once

#include "runtime/bytecode.h"
#include "runtime/check.h"
#include "spirv/module.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

namespace lanewise::spirv {

// A module-scope variable in global (CrossWorkgroup) or constant
// (UniformConstant) memory, which the program allocates once for all its
// kernels.
struct ProgramGlobal {
  uint32_t id = 0;
  spv::StorageClass storageClass = spv::StorageClassMax;
  uint64_t size = 0, alignment = 1;
};

// Values of specialization constants set by clSetProgramSpecializationConstant,
// by SpecId.
using SpecializationValues = std::map<uint32_t, std::vector<std::byte>>;

// The program's module-scope variables and their layout needs.
std::vector<ProgramGlobal> programGlobals(const Module &module);
// Writes a variable's initial value (zero without an initializer) into its
// `size` bytes at `memory`; initializers may take the addresses of other
// variables (given in `addresses`). Throws LoadError for what it cannot
// evaluate.
void initialiseGlobal(const Module &module, const ProgramGlobal &global,
                      const std::unordered_map<uint32_t, uint64_t> &addresses,
                      const SpecializationValues &specializations, std::byte *memory);

struct LowerOptions {
  uint32_t width = 128; // lanes per warp
  // Lower for launches whose every warp lies in one row of its work-group
  // or holds whole rows, with global ids below 2^31 (runtime::affineIdsHold):
  // the global and local ids are then affine in the lane, and what derives
  // from them is kept as affine values (spirv/lower_affine.cpp). Ignored
  // under checks.
  bool rowWarps = false;
  // Lower for warps that hold several work-groups (runtime::
  // groupsPerPackedWarp): the group id is then per lane.
  bool groupsShareWarps = false;
  // Lower for launches whose work-groups are one work-item each, several
  // to a warp (implies groupsShareWarps). Such a work-item's __local
  // memory is its own, so __local variables are laid out as private ones,
  // a work-group barrier only orders its memory, and it performs its
  // asynchronous copies itself. Sets KernelCode::singleItemGroups.
  bool singleItemGroups = false;
  const SpecializationValues *specializations = nullptr;
  runtime::CheckSet checks; // the checked mode's instructions to emit
  // How reports name the program when its source has no name of its own
  // ("program.cl"): "program 3f2a91c0 (kernels a, b)".
  std::string programLabel;
};

// Throws LoadError (Invalid) naming the kernel and the instruction when the
// kernel uses something Lanewise cannot execute.
runtime::KernelCode lowerKernel(const Module &module, const EntryPoint &entryPoint,
                                const std::unordered_map<uint32_t, uint64_t> &globalAddresses,
                                const LowerOptions &options);

} // namespace lanewise::spirv
