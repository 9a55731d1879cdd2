// SPDX-License-Identifier: Apache-2.0
// The engine's instruction set: pre-decoded instructions over lane-vector
// registers, grouped into blocks, and the compiled form of a kernel.
//
// A register holds one SSA value. A varying register holds one element per
// lane, component-major (a float4 is four runs of `width` floats); a uniform
// register holds one element per component. Instructions address registers
// by byte offset into the warp's register file.
#pragma once

#include "runtime/image.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace lanewise::runtime {

// The most work-items a work-group may have: the device's
// CL_DEVICE_MAX_WORK_GROUP_SIZE, which the enqueue enforces and for which
// the lowering sizes the work-group collectives' scratch.
constexpr std::uint32_t maxWorkGroupSize = 1024;

struct ExecutionState;
struct Instruction;
struct KernelChecks;

using Handler = void (*)(const Instruction &, ExecutionState &);

// The element types handlers are specialised for. Integers are held
// unsigned; an operation that cares about the sign says so itself.
enum class Scalar : std::uint8_t { Bool, I8, I16, I32, I64, I128, F16, F32, F64 };

constexpr std::uint32_t scalarSize(Scalar s) {
  switch (s) {
  case Scalar::Bool:
  case Scalar::I8:
    return 1;
  case Scalar::I16:
  case Scalar::F16:
    return 2;
  case Scalar::I32:
  case Scalar::F32:
    return 4;
  case Scalar::I64:
  case Scalar::F64:
    return 8;
  case Scalar::I128:
    return 16;
  }
  return 0;
}

// Where an instruction's registers are: for each operand and the result,
// whether it is varying (one element per lane) or uniform (one element).
struct Shape {
  bool result = false;
  bool operand[4] = {};
};

// What an instruction does, for the statistics (LANEWISE_STATS).
enum class Family : std::uint8_t {
  Memory,     // loads, stores, copies, vloadn / vstoren
  Atomic,
  Address,    // pointer arithmetic and casts
  Integer,    // integer and logical arithmetic, comparisons, selects
  Float,      // floating-point arithmetic and comparisons
  Math,       // OpenCL.std functions
  Conversion,
  Composite,  // vector and aggregate shuffles, extracts, inserts
  Group,      // sub-group and work-group operations
  Other,
};
inline constexpr std::size_t familyCount = 10;
const char *familyName(Family family);

struct Instruction {
  Handler handler = nullptr;
  std::uint32_t result = 0;          // register offset of the result
  std::uint32_t operand[4] = {};     // register offsets of the operands
  std::uint32_t components = 1;      // elements per lane of the result
  std::uint32_t aux = 0;             // handler-specific
  Family family = Family::Other;
  std::uint64_t immediate = 0;       // handler-specific
  const void *data = nullptr;        // handler-specific, owned by the kernel
  std::uint32_t sourceId = 0;        // the SPIR-V result id, for diagnostics
  std::uint32_t source = 0;          // KernelCode::sources: its file:line:column
};

// A copy from one register to another, for a phi on a control-flow edge.
struct RegisterCopy {
  std::uint32_t from = 0, to = 0;
  std::uint32_t bytesPerElement = 0, components = 1;
  bool fromVarying = false, toVarying = false;
};

// The memory a work-group barrier orders: OpenCL C's CLK_LOCAL_MEM_FENCE
// and CLK_GLOBAL_MEM_FENCE (SPIR-V WorkgroupMemory and CrossWorkgroupMemory).
enum BarrierFence : std::uint32_t { FenceLocal = 1, FenceGlobal = 2 };

// How a block ends. Blocks are numbered in reverse post-order; the warp
// always runs the lowest-numbered block that has waiting lanes.
struct Terminator {
  enum class Kind : std::uint8_t {
    Branch,      // to target[0]
    Conditional, // condition ? target[0] : target[1]
    Switch,      // selector: cases, else target[0]
    Return,
    Barrier,     // work-group barrier, then target[0]
    Unreachable,
  };
  Kind kind = Kind::Return;
  std::uint32_t condition = 0; // register of the condition or selector
  bool conditionVarying = false;
  std::uint32_t selectorBytes = 4;
  std::vector<std::uint32_t> target;
  std::vector<std::uint64_t> caseValue; // Switch: caseValue[i] -> target[i + 1]
  // Phi copies per target edge, parallel: sources are read before any
  // destination is written (through the phi's staging register).
  std::vector<std::vector<RegisterCopy>> edgeCopies;
  std::uint32_t barrierFences = 0; // Barrier: the memory it orders (BarrierFence bits)
  std::uint32_t checkSite = 0; // Barrier, under the barrier check: its site (runtime/check.h)
};

struct Block {
  std::uint32_t firstInstruction = 0, instructionCount = 0;
  // Copies from phi staging registers into the phi registers, at entry.
  std::vector<RegisterCopy> phiCopies;
  Terminator terminator;
  std::uint32_t sourceLabel = 0;
  // In a loop that may wait for other work-items (spirv/uniformity.h,
  // findWaitingLoops): a warp spinning there gives other sub-groups turns.
  bool waits = false;
};

// Values that the engine writes into registers before a warp starts.
enum class BuiltinValue : std::uint8_t {
  GlobalInvocationId,
  LocalInvocationId,
  WorkgroupId,
  NumWorkgroups,
  GlobalSize,
  WorkgroupSize,
  EnqueuedWorkgroupSize,
  GlobalOffset,
  GlobalLinearId,
  LocalInvocationIndex,
  WorkDim,
  SubgroupSize,
  SubgroupMaxSize,
  NumSubgroups,
  NumEnqueuedSubgroups,
  SubgroupId,
  SubgroupLocalInvocationId,
  SubgroupEqMask, // uint4 ballot masks of the lane's sub-group
  SubgroupGeMask,
  SubgroupGtMask,
  SubgroupLeMask,
  SubgroupLtMask,
};

// Whether the built-in is one of the sub-group's (SubgroupSize onwards).
constexpr bool isSubgroupBuiltin(BuiltinValue value) {
  return value >= BuiltinValue::SubgroupSize;
}

struct BuiltinRegister {
  BuiltinValue value;
  std::uint32_t offset;
  std::uint32_t components; // 1 or 3
  bool varying;
  bool wide; // 64-bit elements (size_t), else 32-bit
  // The first component written (an affine id's base: one component of
  // the id vector, at `offset`).
  std::uint32_t firstComponent = 0;
  // An affine id (runtime/exec_affine.cpp): the engine writes its three
  // elements, lane 0's id and its strides, which depend on the warp's shape.
  bool affine = false;
};

// A register whose contents are fixed for the whole launch.
struct ConstantRegister {
  std::uint32_t offset;
  std::vector<std::byte> bytes; // one element per component
};

// How a kernel argument reaches its register.
struct ArgumentBinding {
  enum class Kind : std::uint8_t {
    Value,        // bytes copied into the register
    GlobalBuffer, // cl_mem or SVM pointer: a 64-bit address
    LocalBuffer,  // size given at clSetKernelArg; address in the local arena
    ByValue,      // struct passed by value: the register holds its address
    Image,        // cl_mem image: the address of its ImageDescriptor (runtime/image.h)
    Sampler,      // cl_sampler: its OpenCL C bit field (runtime/image.h), in 64 bits
  };
  Kind kind = Kind::Value;
  std::uint32_t offset = 0;       // register
  std::uint32_t registerSize = 0; // bytes of the register (Value), at most size
  std::uint32_t size = 0;         // bytes expected from clSetKernelArg (Value/ByValue)
  ImageType imageType = ImageType::Image2D;        // Image: as the kernel declares it
  ImageAccess imageAccess = ImageAccess::ReadOnly; // Image: its access qualifier
};

// Memory a kernel's variables need besides registers.
struct MemoryLayout {
  // 64-bit: a kernel may declare more than the device has (__local float
  // x[1ul << 31]); the launch then fails with CL_OUT_OF_RESOURCES.
  std::uint64_t privateBytesPerLane = 0;
  std::uint32_t privateAlignment = 16;
  std::uint64_t workgroupBytes = 0; // __local variables declared in the kernel
  std::uint32_t workgroupAlignment = 16;
};

// A register holding the address of a per-lane private variable or of a
// work-group variable; filled at warp start.
struct AddressRegister {
  enum class Space : std::uint8_t { Private, Workgroup, Global };
  Space space;
  std::uint32_t offset;       // register
  std::uint64_t displacement; // offset within the space (Global: absolute address)
  bool varying;
};

struct TierState;
// A new kernel's tier state: interpreted, no launch yet (runtime/tier.cpp).
std::shared_ptr<TierState> newTierState();

// A kernel lowered to bytecode for warps of `width` lanes. Made shared
// (std::make_shared), so that a background compilation keeps it alive.
struct KernelCode : std::enable_shared_from_this<KernelCode> {
  std::string name;
  std::uint32_t width = 0;
  std::uint32_t registerBytes = 0; // per warp, a multiple of 64
  std::vector<Instruction> instructions;
  std::vector<Block> blocks; // index = reverse post-order number; 0 is the entry
  std::vector<BuiltinRegister> builtins;
  std::vector<ConstantRegister> constants;
  std::vector<ArgumentBinding> arguments;
  std::vector<AddressRegister> addresses;
  MemoryLayout memory;
  bool hasBarrier = false;
  // The code holds affine values derived from the ids: it may only run
  // launches whose warps each lie in one row of their work-group or hold
  // whole rows, with global ids below 2^31 (affineIdsHold, runtime/launch.h).
  bool rowWarps = false;
  // No work-item of the code sees another of its work-group but through
  // its sub-group, nor which group it is in: no barrier, no __local memory,
  // no work-group copy. A warp may then hold several work-groups
  // (runtime/launch.h, groupsPerPackedWarp); code lowered for such warps
  // (spirv::LowerOptions::groupsShareWarps) reads the group id per lane.
  bool groupIndependent = false;
  // The kernel's work-groups of one work-item each may share a warp, in
  // code lowered with spirv::LowerOptions::singleItemGroups: it has no
  // checks, no __local argument, no sub-group operation and does not ask
  // which address space a generic pointer points to. That code itself runs
  // only such launches.
  bool singleItemGroups = false;
  // The code has sub-group operations or reads sub-group built-ins.
  bool usesSubgroups = false;
  // Asynchronous work-group copies in the code (each has a site number).
  std::uint32_t asyncCopySites = 0;
  // The kernel calls printf: a launch keeps its output and writes it at the end.
  bool usesPrintf = false;
  std::uint32_t requiredSubgroupSize = 0;
  std::uint32_t subgroupSize = 16; // S: the required size, or Lanewise's choice
  // Handler-specific tables referenced by Instruction::data.
  std::vector<std::shared_ptr<const void>> tables;
  // The checks the kernel was built with (runtime/check.h); null: none.
  std::shared_ptr<const KernelChecks> checks;
  // The source positions of instructions ("file:line:column"; [0] is
  // unknown), for the watchdog's and the crash report's "where".
  std::vector<std::string> sources{std::string()};

  // Its native tier (runtime/tier.h): the launches counted towards tiering
  // up, and the native code once compiled.
  std::shared_ptr<TierState> tier = newTierState();

  // The source position of the block's first instruction that has one, or "".
  const std::string &blockSource(std::uint32_t block) const;
};

} // namespace lanewise::runtime
