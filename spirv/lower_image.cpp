// SPDX-License-Identifier: Apache-2.0
// Image instructions (SPIR-V 1.4, 3.37.10; the OpenCL SPIR-V environment,
// 2.9), bound to runtime/exec_image.cpp. Images are the addresses of their
// descriptors and samplers their OpenCL C bit fields (runtime/image.h);
// OpSampledImage pairs the two for its consumer, which the environment
// puts in the same block, so the pair is never held in a register.
#include "spirv/lowering.h"

namespace lanewise::spirv::lowering {

bool KernelLowering::lowerImage(const Instruction &instruction) {
  const spv::Op op = instruction.opcode;
  auto operand = [&](size_t i) -> const Value & {
    return use(instruction.idOperand(i), instruction);
  };
  // aux bits of the image handlers (runtime/handlers.h).
  auto flags = [](const Value &image, const Value *coordinate, const Value *third,
                  const Value *result) {
    return (image.varying ? 1u : 0u) | (coordinate && coordinate->varying ? 2u : 0u) |
           (third && third->varying ? 4u : 0u) | (result && result->varying ? 8u : 0u) |
           (coordinate ? coordinate->components << 8 : 0u);
  };
  // A texel value: four 32-bit components, or four halves.
  auto texelFlags = [&](const Value &texel) -> uint32_t {
    if (texel.components != 4 || (texel.elementBytes() != 4 && texel.scalar != Scalar::F16))
      fail(instruction, "an image texel must be a vector of four 32-bit or half components");
    return texel.scalar == Scalar::F16 ? 0x10000u : 0u;
  };
  // The checked mode's site of an access, plus one (0: unchecked): accesses
  // outside the image, which OpenCL leaves undefined, are findings.
  auto site = [&](bool write) -> uint64_t {
    if (!checking(runtime::Check::Bounds))
      return 0;
    return uint64_t(addSite(instruction, 0, runtime::CheckSite::Space::Global, write)) + 1;
  };
  auto integerCoordinate = [&](const Value &coordinate) {
    if (coordinate.scalar != Scalar::I32 || coordinate.components > 4)
      fail(instruction, "an image coordinate must be a 32-bit integer or a vector of them");
  };

  switch (op) {
  case spv::OpSampledImage:
    sampledImages_[instruction.result] = {instruction.idOperand(0), instruction.idOperand(1)};
    return true;
  case spv::OpImageRead: {
    const Value &image = operand(0), &coordinate = operand(1);
    const Value &r = values_.at(instruction.result);
    integerCoordinate(coordinate);
    emit(runtime::imageReadHandler(), r.offset, {image.offset, coordinate.offset}, 4,
         flags(image, &coordinate, nullptr, &r) | texelFlags(r), site(false));
    return true;
  }
  case spv::OpImageWrite: {
    const Value &image = operand(0), &coordinate = operand(1), &texel = operand(2);
    integerCoordinate(coordinate);
    emit(runtime::imageWriteHandler(), 0, {image.offset, coordinate.offset, texel.offset}, 4,
         flags(image, &coordinate, &texel, nullptr) | texelFlags(texel), site(true));
    return true;
  }
  case spv::OpImageSampleExplicitLod: {
    auto pair = sampledImages_.find(instruction.idOperand(0));
    if (pair == sampledImages_.end())
      fail(instruction, "the sampled image is not an OpSampledImage of this function");
    // Image operands: Lod, which must be 0 (no mipmapped images).
    if (instruction.operands.size() < 4 || !(instruction.operands[2] & spv::ImageOperandsLodMask) ||
        module_.constantValue(instruction.idOperand(3)).value_or(1) != 0)
      fail(instruction, "only an explicit Lod of 0 is supported: mipmapped images are not");
    const Value &image = use(pair->second.first, instruction);
    const Value &sampler = use(pair->second.second, instruction);
    const Value &coordinate = operand(1);
    const Value &r = values_.at(instruction.result);
    const bool floating = coordinate.scalar == Scalar::F32;
    if (!floating)
      integerCoordinate(coordinate);
    emit(runtime::imageSampleHandler(), r.offset, {image.offset, coordinate.offset, sampler.offset},
         4, flags(image, &coordinate, &sampler, &r) | texelFlags(r) | (floating ? 0x20u : 0u),
         site(false));
    return true;
  }
  case spv::OpImageQuerySizeLod:
  case spv::OpImageQuerySize:
  case spv::OpImageQueryOrder:
  case spv::OpImageQueryFormat: {
    if (op == spv::OpImageQuerySizeLod &&
        module_.constantValue(instruction.idOperand(1)).value_or(1) != 0)
      fail(instruction, "only the size of level 0 is known: mipmapped images are not supported");
    const Value &image = operand(0);
    const Value &r = values_.at(instruction.result);
    if (r.scalar != Scalar::I32 && r.scalar != Scalar::I64)
      fail(instruction, "an image query's result must be 32- or 64-bit integers");
    const uint32_t query = op == spv::OpImageQueryOrder ? 1 : op == spv::OpImageQueryFormat ? 2 : 0;
    emit(runtime::imageQueryHandler(), r.offset, {image.offset}, r.components,
         flags(image, nullptr, nullptr, &r) | query << 12 |
             (r.scalar == Scalar::I64 ? 0x4000u : 0u));
    return true;
  }
  default:
    return false;
  }
}

} // namespace lanewise::spirv::lowering
