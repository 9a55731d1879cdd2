// SPDX-License-Identifier: Apache-2.0
// Memory layout of SPIR-V types under OpenCL C's rules.
#include <algorithm>

#include "spirv/module.h"

namespace lanewise::spirv {
namespace {

uint64_t alignUp(uint64_t value, uint64_t alignment) {
  return alignment <= 1 ? value : (value + alignment - 1) / alignment * alignment;
}

struct Layout {
  uint64_t size = 0;
  uint64_t alignment = 1;
};

std::optional<Layout> layoutOf(const Module &module, uint32_t typeId);

// Offsets of the members of a struct, and the struct's layout. A struct whose
// every member has an Offset decoration uses them (SPIR-V 2.16.2); others use
// natural C layout, which is what llvm-spirv leaves undecorated. CPacked
// (OpenCL C __attribute__((packed))) removes the padding.
std::optional<Layout> structLayout(const Module &module, const Type &type,
                                   std::vector<uint64_t> *offsets) {
  const bool packed = module.hasDecoration(type.id, spv::DecorationCPacked);
  std::vector<std::optional<uint64_t>> declaredOffsets(type.members.size());
  bool allDeclared = !type.members.empty();
  if (auto found = module.memberDecorations.find(type.id); found != module.memberDecorations.end())
    for (const MemberDecoration &decoration : found->second)
      if (decoration.kind == spv::DecorationOffset && decoration.member < type.members.size() &&
          !decoration.operands.empty())
        declaredOffsets[decoration.member] = decoration.operands[0];
  for (const auto &offset : declaredOffsets)
    allDeclared = allDeclared && offset.has_value();

  Layout layout;
  uint64_t end = 0;
  for (size_t member = 0; member < type.members.size(); ++member) {
    const auto memberLayout = layoutOf(module, type.members[member]);
    if (!memberLayout)
      return std::nullopt;
    const uint64_t alignment = packed ? 1 : memberLayout->alignment;
    const uint64_t offset = allDeclared ? *declaredOffsets[member] : alignUp(end, alignment);
    if (offsets)
      offsets->push_back(offset);
    end = std::max(end, offset + memberLayout->size);
    layout.alignment = std::max(layout.alignment, alignment);
  }
  layout.size = alignUp(end, layout.alignment);
  return layout;
}

std::optional<Layout> layoutOf(const Module &module, uint32_t typeId) {
  const Type *type = module.type(typeId);
  if (!type)
    return std::nullopt;
  switch (type->kind) {
  case Type::Kind::Bool:
    return Layout{1, 1};
  case Type::Kind::Int:
  case Type::Kind::Float: {
    const uint64_t bytes = std::max<uint64_t>(1, (type->width + 7) / 8);
    return Layout{bytes, bytes};
  }
  case Type::Kind::Vector: {
    // OpenCL C 3.0, 6.3.5: a 3-component vector has the size and alignment
    // of a 4-component one; a vector is aligned to its size.
    const auto component = layoutOf(module, type->element);
    if (!component)
      return std::nullopt;
    const uint64_t count = type->count == 3 ? 4 : type->count;
    return Layout{component->size * count, component->size * count};
  }
  case Type::Kind::Array: {
    const auto element = layoutOf(module, type->element);
    if (!element)
      return std::nullopt;
    uint64_t stride = alignUp(element->size, element->alignment);
    if (const Decoration *arrayStride = module.decoration(typeId, spv::DecorationArrayStride);
        arrayStride && !arrayStride->operands.empty())
      stride = arrayStride->operands[0];
    return Layout{stride * type->count, element->alignment};
  }
  case Type::Kind::Struct:
    return structLayout(module, *type, nullptr);
  case Type::Kind::Pointer:
  case Type::Kind::ForwardPointer:
  // Opaque objects are handles the size of a pointer (events, images, ...).
  case Type::Kind::Event:
  case Type::Kind::DeviceEvent:
  case Type::Kind::ReserveId:
  case Type::Kind::Queue:
  case Type::Kind::Pipe:
  case Type::Kind::Sampler:
  case Type::Kind::Image:
  case Type::Kind::SampledImage:
    return Layout{module.pointerSize(), module.pointerSize()};
  default:
    return std::nullopt;
  }
}

} // namespace

std::optional<uint64_t> sizeOf(const Module &module, uint32_t typeId) {
  const auto layout = layoutOf(module, typeId);
  return layout ? std::optional<uint64_t>(layout->size) : std::nullopt;
}

std::optional<uint64_t> alignmentOf(const Module &module, uint32_t typeId) {
  const auto layout = layoutOf(module, typeId);
  return layout ? std::optional<uint64_t>(layout->alignment) : std::nullopt;
}

std::vector<uint64_t> memberOffsets(const Module &module, uint32_t structTypeId) {
  std::vector<uint64_t> offsets;
  const Type *type = module.type(structTypeId);
  if (!type || type->kind != Type::Kind::Struct || !structLayout(module, *type, &offsets))
    return {};
  return offsets;
}

uint32_t componentCount(const Module &module, uint32_t typeId) {
  const Type *type = module.type(typeId);
  if (!type)
    return 0;
  if (type->isScalar())
    return 1;
  return type->kind == Type::Kind::Vector ? type->count : 0;
}

uint32_t scalarType(const Module &module, uint32_t typeId) {
  const Type *type = module.type(typeId);
  if (!type)
    return 0;
  if (type->isScalar())
    return typeId;
  return type->kind == Type::Kind::Vector ? type->element : 0;
}

} // namespace lanewise::spirv
