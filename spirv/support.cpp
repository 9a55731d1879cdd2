// SPDX-License-Identifier: Apache-2.0
#include "spirv/support.h"

#include <algorithm>

#include "spirv/debug_info.h"
#include "spirv/names.h"

namespace lanewise::spirv {
namespace {

// The capabilities a module may declare. Implicitly declared ones (SPIR-V
// 2.2.3: SubgroupDispatch implies DeviceEnqueue) do not need to be here:
// only what the module declares is checked.
constexpr spv::Capability kSupportedCapabilities[] = {
    spv::CapabilityAddresses,
    spv::CapabilityLinkage,
    spv::CapabilityKernel,
    spv::CapabilityVector16,
    spv::CapabilityFloat16Buffer,
    spv::CapabilityFloat16,
    spv::CapabilityFloat64,
    spv::CapabilityInt8,
    spv::CapabilityInt16,
    spv::CapabilityInt64,
    spv::CapabilityInt64Atomics,
    spv::CapabilityGenericPointer,
    spv::CapabilityGroups,
    spv::CapabilityGroupNonUniform,
    spv::CapabilityGroupNonUniformVote,
    spv::CapabilityGroupNonUniformArithmetic,
    spv::CapabilityGroupNonUniformBallot,
    spv::CapabilityGroupNonUniformShuffle,
    spv::CapabilityGroupNonUniformShuffleRelative,
    spv::CapabilityGroupNonUniformClustered,
    spv::CapabilitySubgroupShuffleINTEL,
    spv::CapabilitySubgroupBufferBlockIOINTEL,
    // intel_reqd_sub_group_size: llvm-spirv-14 declares it with
    // OpExecutionMode SubgroupSize.
    spv::CapabilitySubgroupDispatch,
    // llvm-spirv-14 -O0 marks functions OptNoneINTEL: a hint only.
    spv::CapabilityOptNoneINTEL,
    // __builtin_expect / __builtin_assume: OpExpectKHR, OpAssumeTrueKHR.
    spv::CapabilityExpectAssumeKHR,
    // -cl-unsafe-math-optimizations: more FPFastMathMode flags, hints only
    // (computing the exact result is always allowed).
    spv::CapabilityFPFastMathModeINTEL,
    // Arbitrary-width integers: clang narrows switch selectors (i & 3 becomes
    // an i2); the lowering keeps them zero-extended in the next wider type.
    spv::CapabilityArbitraryPrecisionIntegersINTEL,
    // OpBitReverse and the other bit instructions (SPV_KHR_bit_instructions).
    spv::CapabilityBitInstructions,
    // OpAtomicFAddEXT, OpAtomicFMinEXT, OpAtomicFMaxEXT.
    spv::CapabilityAtomicFloat32AddEXT,
    spv::CapabilityAtomicFloat64AddEXT,
    spv::CapabilityAtomicFloat32MinMaxEXT,
    spv::CapabilityAtomicFloat64MinMaxEXT,
    // Alias scopes of restrict pointers: hints only, removed by
    // normalisation (spirv/normalise.h).
    spv::CapabilityMemoryAccessAliasingINTEL,
    // SPIR-V 1.6: the Uniform and UniformId decorations, which assert that
    // a value is the same across a scope (hints only).
    spv::CapabilityUniformDecoration,
    // Images and samplers (the OpenCL SPIR-V environment, 2.9): 1D, 1D
    // buffer, 2D and 3D images and their arrays, read-write images,
    // OpConstantSampler.
    spv::CapabilityImageBasic,
    spv::CapabilityImageReadWrite,
    spv::CapabilityLiteralSampler,
    spv::CapabilitySampled1D,
    spv::CapabilityImage1D,
    spv::CapabilitySampledBuffer,
    spv::CapabilityImageBuffer,
};

// Whether the compiler driver asks llvm-spirv for an extension: the ones
// the engine executes, and that llvm-spirv-14 knows by name.
enum class Request { Yes, No };
struct SupportedExtension {
  std::string_view name;
  Request request;
};
constexpr SupportedExtension kSupportedExtensions[] = {
    {"SPV_KHR_no_integer_wrap_decoration", Request::Yes},
    // llvm-spirv-14 does not take it in --spirv-ext; other producers use it
    // for NonSemantic.* sets, which are removed.
    {"SPV_KHR_non_semantic_info", Request::No},
    {"SPV_KHR_expect_assume", Request::Yes},
    {"SPV_KHR_linkonce_odr", Request::Yes},
    {"SPV_INTEL_subgroups", Request::Yes},
    {"SPV_INTEL_optnone", Request::Yes},
    {"SPV_INTEL_fp_fast_math_mode", Request::Yes},
    {"SPV_INTEL_arbitrary_precision_integers", Request::Yes},
    {"SPV_KHR_bit_instructions", Request::Yes},
    {"SPV_EXT_shader_atomic_float_add", Request::Yes},
    {"SPV_EXT_shader_atomic_float_min_max", Request::Yes},
    // Accepted from other producers and removed by normalisation; not asked
    // for, since the hints would only be removed again.
    {"SPV_INTEL_memory_access_aliasing", Request::No},
};

// Supported capabilities an extension enables (spirv.core.grammar.json).
struct EnabledCapability {
  spv::Capability capability;
  std::string_view extension;
};
constexpr EnabledCapability kEnabledCapabilities[] = {
    {spv::CapabilitySubgroupShuffleINTEL, "SPV_INTEL_subgroups"},
    {spv::CapabilitySubgroupBufferBlockIOINTEL, "SPV_INTEL_subgroups"},
    {spv::CapabilityOptNoneINTEL, "SPV_INTEL_optnone"},
    {spv::CapabilityExpectAssumeKHR, "SPV_KHR_expect_assume"},
    {spv::CapabilityFPFastMathModeINTEL, "SPV_INTEL_fp_fast_math_mode"},
    {spv::CapabilityArbitraryPrecisionIntegersINTEL, "SPV_INTEL_arbitrary_precision_integers"},
    {spv::CapabilityBitInstructions, "SPV_KHR_bit_instructions"},
    {spv::CapabilityAtomicFloat32AddEXT, "SPV_EXT_shader_atomic_float_add"},
    {spv::CapabilityAtomicFloat64AddEXT, "SPV_EXT_shader_atomic_float_add"},
    {spv::CapabilityAtomicFloat32MinMaxEXT, "SPV_EXT_shader_atomic_float_min_max"},
    {spv::CapabilityAtomicFloat64MinMaxEXT, "SPV_EXT_shader_atomic_float_min_max"},
    {spv::CapabilityMemoryAccessAliasingINTEL, "SPV_INTEL_memory_access_aliasing"},
};

constexpr std::string_view kSupportedExtInstSets[] = {"OpenCL.std"};

std::string where(const Instruction &instruction) {
  return describe(instruction) + " at word " + std::to_string(instruction.wordOffset);
}

} // namespace

std::span<const spv::Capability> supportedCapabilities() { return kSupportedCapabilities; }
bool isSupportedExtension(std::string_view name) {
  return std::ranges::find(kSupportedExtensions, name, &SupportedExtension::name) !=
         std::end(kSupportedExtensions);
}

std::string translatorExtensionOption() {
  std::string option = "--spirv-ext=-all";
  for (const SupportedExtension &extension : kSupportedExtensions)
    if (extension.request == Request::Yes)
      option += ",+" + std::string(extension.name);
  return option;
}
std::span<const std::string_view> supportedExtInstSets() { return kSupportedExtInstSets; }

bool isSupported(spv::Capability capability) {
  return std::ranges::find(kSupportedCapabilities, capability) != std::end(kSupportedCapabilities);
}

std::string_view enablingExtension(spv::Capability capability) {
  auto found = std::ranges::find(kEnabledCapabilities, capability, &EnabledCapability::capability);
  return found == std::end(kEnabledCapabilities) ? std::string_view() : found->extension;
}

std::vector<std::string> unsupportedFeatures(const Module &module) {
  std::vector<std::string> problems;
  for (const Instruction &instruction : module.globals) {
    switch (instruction.opcode) {
    case spv::OpCapability: {
      const auto capability = static_cast<spv::Capability>(instruction.operands.at(0));
      if (!isSupported(capability))
        problems.push_back("unsupported capability " + capabilityName(capability) + " (" +
                           where(instruction) + ")");
      break;
    }
    case spv::OpExtension: {
      const std::string name = instruction.stringOperand(0);
      if (!isSupportedExtension(name))
        problems.push_back("unsupported extension " + name + " (" + where(instruction) + ")");
      break;
    }
    case spv::OpExtInstImport: {
      const std::string name = instruction.stringOperand(0);
      if (std::ranges::find(kSupportedExtInstSets, name) == std::end(kSupportedExtInstSets) &&
          debugSetKind(name) == DebugSetKind::None)
        problems.push_back("unsupported extended instruction set \"" + name + "\" (" +
                           where(instruction) + ")");
      break;
    }
    case spv::OpEntryPoint: {
      const auto model = static_cast<spv::ExecutionModel>(instruction.operands.at(0));
      if (model != spv::ExecutionModelKernel)
        problems.push_back("unsupported execution model " + executionModelName(model) +
                           " for entry point '" + instruction.stringOperand(2) +
                           "': only Kernel entry points are supported (" + where(instruction) +
                           ")");
      break;
    }
    default:
      break;
    }
  }
  return problems;
}

} // namespace lanewise::spirv
