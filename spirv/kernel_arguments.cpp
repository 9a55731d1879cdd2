// SPDX-License-Identifier: Apache-2.0
#include "spirv/kernel_arguments.h"

#include <sstream>

namespace lanewise::spirv {
namespace {

// The comma-separated list of an OpString "<prefix>.<kernel>.a,b,c," (the
// trailing comma is llvm-spirv's), or nothing when the module has none.
std::optional<std::vector<std::string>> recordedList(const Module &module, std::string_view prefix,
                                                     const std::string &kernel) {
  const std::string key = std::string(prefix) + "." + kernel + ".";
  for (const auto &[id, text] : module.strings) {
    if (!text.starts_with(key))
      continue;
    std::vector<std::string> items;
    std::string item;
    for (char character : std::string_view(text).substr(key.size())) {
      if (character == ',') {
        items.push_back(item);
        item.clear();
      } else {
        item.push_back(character);
      }
    }
    if (!item.empty())
      items.push_back(item);
    return items;
  }
  return std::nullopt;
}

bool hasParamAttribute(const Module &module, uint32_t id,
                       spv::FunctionParameterAttribute attribute) {
  auto found = module.decorations.find(id);
  if (found == module.decorations.end())
    return false;
  for (const Decoration &decoration : found->second)
    if (decoration.kind == spv::DecorationFuncParamAttr && !decoration.operands.empty() &&
        decoration.operands[0] == uint32_t(attribute))
      return true;
  return false;
}

AccessQualifier accessOf(spv::AccessQualifier access) {
  switch (access) {
  case spv::AccessQualifierReadOnly:
    return AccessQualifier::ReadOnly;
  case spv::AccessQualifierWriteOnly:
    return AccessQualifier::WriteOnly;
  case spv::AccessQualifierReadWrite:
    return AccessQualifier::ReadWrite;
  default:
    return AccessQualifier::None;
  }
}

AddressQualifier addressOf(spv::StorageClass storageClass) {
  switch (storageClass) {
  case spv::StorageClassCrossWorkgroup:
    return AddressQualifier::Global;
  case spv::StorageClassWorkgroup:
    return AddressQualifier::Local;
  case spv::StorageClassUniformConstant:
    return AddressQualifier::Constant;
  case spv::StorageClassGeneric:
    return AddressQualifier::Generic;
  default:
    return AddressQualifier::Private;
  }
}

std::string imageTypeName(const Type &type) {
  std::string name = "image";
  switch (type.dim) {
  case spv::Dim1D:
    name += "1d";
    break;
  case spv::Dim2D:
    name += "2d";
    break;
  case spv::Dim3D:
    name += "3d";
    break;
  case spv::DimBuffer:
    name += "1d_buffer";
    break;
  default:
    name += "?";
    break;
  }
  if (type.arrayed)
    name += "_array";
  if (type.depth == 1)
    name += "_depth";
  if (type.multisampled)
    name += "_msaa";
  return name + "_t";
}

} // namespace

std::string openclTypeName(const Module &module, uint32_t typeId, bool isUnsigned) {
  const Type *type = module.type(typeId);
  if (!type)
    return "?";
  switch (type->kind) {
  case Type::Kind::Void:
    return "void";
  case Type::Kind::Bool:
    return "bool";
  case Type::Kind::Int: {
    std::string name;
    switch (type->width) {
    case 8:
      name = "char";
      break;
    case 16:
      name = "short";
      break;
    case 32:
      name = "int";
      break;
    case 64:
      name = "long";
      break;
    default:
      name = "int" + std::to_string(type->width);
      break;
    }
    return isUnsigned ? "u" + name : name;
  }
  case Type::Kind::Float:
    return type->width == 16 ? "half" : type->width == 64 ? "double" : "float";
  case Type::Kind::Vector:
    return openclTypeName(module, type->element, isUnsigned) + std::to_string(type->count);
  case Type::Kind::Array:
    return openclTypeName(module, type->element, isUnsigned) + "[" + std::to_string(type->count) +
           "]";
  case Type::Kind::Pointer:
    return openclTypeName(module, type->element, isUnsigned) + "*";
  case Type::Kind::Struct: {
    // llvm names a struct type "struct.Name" or "union.Name".
    const std::string *name = module.name(typeId);
    if (!name)
      return "struct";
    std::string text = *name;
    for (std::string_view tag : {"struct.", "union."})
      if (text.starts_with(tag))
        text = std::string(tag.substr(0, tag.size() - 1)) + " " + text.substr(tag.size());
    return text;
  }
  case Type::Kind::Event:
    return "event_t";
  case Type::Kind::DeviceEvent:
    return "clk_event_t";
  case Type::Kind::ReserveId:
    return "reserve_id_t";
  case Type::Kind::Queue:
    return "queue_t";
  case Type::Kind::Pipe:
    return "pipe";
  case Type::Kind::Sampler:
    return "sampler_t";
  case Type::Kind::Image:
    return imageTypeName(*type);
  case Type::Kind::Opaque:
    return type->name;
  default:
    return "?";
  }
}

std::vector<KernelArgument> kernelArguments(const Module &module, const EntryPoint &entryPoint) {
  std::vector<KernelArgument> arguments;
  const Function *function = module.function(entryPoint.function);
  if (!function)
    return arguments;
  const auto typeNames = recordedList(module, "kernel_arg_type", entryPoint.name);
  const auto qualifiers = recordedList(module, "kernel_arg_type_qual", entryPoint.name);

  for (size_t index = 0; index < function->parameters.size(); ++index) {
    const auto [id, typeId] = function->parameters[index];
    KernelArgument argument;
    argument.parameter = id;
    argument.type = typeId;
    if (const std::string *name = module.name(id))
      argument.name = *name;

    const Type *type = module.type(typeId);
    const bool byVal = hasParamAttribute(module, id, spv::FunctionParameterAttributeByVal);
    uint32_t valueType = typeId;
    if (type && type->kind == Type::Kind::Pointer) {
      if (byVal) {
        // A struct passed by value arrives as a pointer to a private copy.
        valueType = type->element;
        argument.addressQualifier = AddressQualifier::Private;
      } else {
        argument.addressQualifier = addressOf(type->storageClass);
        argument.isPointer = true;
      }
    } else if (type && (type->kind == Type::Kind::Image || type->kind == Type::Kind::Pipe)) {
      // OpenCL C 6.9: images and pipes are global memory objects.
      argument.addressQualifier = AddressQualifier::Global;
      argument.accessQualifier = accessOf(type->access);
      argument.isPipe = type->kind == Type::Kind::Pipe;
    }
    argument.size = sizeOf(module, valueType).value_or(0);
    argument.alignment = alignmentOf(module, valueType).value_or(0);

    if (typeNames && index < typeNames->size())
      argument.typeName = (*typeNames)[index];
    else
      argument.typeName = openclTypeName(
          module, valueType, hasParamAttribute(module, id, spv::FunctionParameterAttributeZext));

    if (qualifiers && index < qualifiers->size()) {
      argument.typeQualifiers = (*qualifiers)[index];
    } else {
      std::string text;
      auto add = [&](std::string_view word) {
        text += (text.empty() ? "" : " ") + std::string(word);
      };
      if (module.hasDecoration(id, spv::DecorationVolatile))
        add("volatile");
      if (hasParamAttribute(module, id, spv::FunctionParameterAttributeNoAlias))
        add("restrict");
      if (hasParamAttribute(module, id, spv::FunctionParameterAttributeNoWrite))
        add("const");
      if (argument.isPipe)
        add("pipe");
      argument.typeQualifiers = text;
    }
    std::istringstream words(argument.typeQualifiers);
    for (std::string word; words >> word;) {
      argument.isConst = argument.isConst || word == "const";
      argument.isRestrict = argument.isRestrict || word == "restrict";
      argument.isVolatile = argument.isVolatile || word == "volatile";
      argument.isPipe = argument.isPipe || word == "pipe";
    }
    arguments.push_back(std::move(argument));
  }
  return arguments;
}

std::string_view addressQualifierName(AddressQualifier qualifier) {
  switch (qualifier) {
  case AddressQualifier::Private:
    return "private";
  case AddressQualifier::Global:
    return "global";
  case AddressQualifier::Constant:
    return "constant";
  case AddressQualifier::Local:
    return "local";
  case AddressQualifier::Generic:
    return "generic";
  }
  return "?";
}

std::string_view accessQualifierName(AccessQualifier qualifier) {
  switch (qualifier) {
  case AccessQualifier::None:
    return "none";
  case AccessQualifier::ReadOnly:
    return "read_only";
  case AccessQualifier::WriteOnly:
    return "write_only";
  case AccessQualifier::ReadWrite:
    return "read_write";
  }
  return "?";
}

} // namespace lanewise::spirv
