// SPDX-License-Identifier: Apache-2.0
// The register shadows of values that may be undefined, under the uninit
// and subgroups checks (runtime/check.h), bound to runtime/exec_undef.cpp:
// which SSA values may carry an undefined value (findMaybeUndefined), their
// shadows computed alongside them (emitShadow, reshapeShadow), and the
// checks where such a value has an effect (checkDefined), with where it
// may come from (originOf). spirv/lowering.h describes the scheme.
#include "spirv/lowering.h"

#include "builtins/subgroup.h"

#include <spirv/unified1/OpenCL.std.h>

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

namespace lanewise::spirv::lowering {

uint32_t KernelLowering::shadowConstant(bool undefined, uint32_t components) {
  auto [it, added] = shadowConstants_.try_emplace({undefined, components}, 0);
  if (added) {
    it->second = allocate(components, false);
    code_.constants.push_back(
        {it->second, std::vector<std::byte>(components, std::byte(undefined ? 1 : 0))});
  }
  return it->second;
}

uint32_t KernelLowering::shadowComponents(uint32_t id) const {
  if (auto it = componentCounts_.find(id); it != componentCounts_.end())
    return it->second;
  if (const Constant *constant = module_.constant(id)) {
    const Type &type = typeOf(module_, constant->type);
    return type.kind == Type::Kind::Vector ? type.count : 1;
  }
  auto it = values_.find(id);
  return it != values_.end() && it->second.kind == Value::Kind::Register ? it->second.components
                                                                         : 1;
}

std::optional<KernelLowering::Shadow> KernelLowering::shadowOf(uint32_t id) {
  if (undefinedIds_.count(id)) {
    const uint32_t components = shadowComponents(id);
    return Shadow{shadowConstant(true, components), false, components};
  }
  auto it = undefShadow_.find(id);
  if (it == undefShadow_.end())
    return std::nullopt;
  return Shadow{it->second, true, shadowComponents(id)};
}

KernelLowering::Shadow KernelLowering::shadowOrDefined(uint32_t id, uint32_t components) {
  if (auto shadow = shadowOf(id))
    return *shadow;
  return Shadow{shadowConstant(false, components), false, components};
}

void KernelLowering::checkDefined(uint32_t id, const Instruction &user, runtime::UndefinedUse use) {
  if (!maybeUndefined_.count(id))
    return;
  const Shadow shadow = *shadowOf(id);
  const uint32_t site = addSite(user, 0, runtime::CheckSite::Space::Generic, false);
  checks_->sites[site].origin = originOf(id);
  emit(runtime::checkUndefinedHandler(), 0, {shadow.offset}, shadow.components, site,
       (shadow.varying ? 1u : 0u) | uint64_t(use) << 8);
}

// Operations whose result is undefined where an operand is: element-wise
// arithmetic, bitwise, comparison and conversion instructions, copies,
// vector composites and shuffles (component by component), and the
// element-wise functions and shuffles of OpenCL.std (not the vector loads
// and stores, printf and prefetch).
bool propagatesUndefined(const Module &module, const Instruction &instruction) {
  const spv::Op op = instruction.opcode;
  if (binaryOp(op) || unaryOp(op) || isConversion(op))
    return true;
  switch (op) {
  case spv::OpCompositeExtract:
  case spv::OpCompositeInsert:
  case spv::OpCompositeConstruct:
  case spv::OpVectorShuffle:
  case spv::OpVectorExtractDynamic:
  case spv::OpVectorInsertDynamic:
  case spv::OpPhi:
  case spv::OpSelect:
  case spv::OpBitcast:
  case spv::OpPtrCastToGeneric:
  case spv::OpGenericCastToPtr:
  case spv::OpGenericCastToPtrExplicit:
  case spv::OpCopyObject:
  case spv::OpCopyLogical:
  case spv::OpVectorTimesScalar:
  case spv::OpExpectKHR:
  case spv::OpAny:
  case spv::OpAll:
  case spv::OpDot:
  case spv::OpPtrDiff:
    return true;
  case spv::OpExtInst: {
    auto set = module.extInstImports.find(instruction.idOperand(0));
    if (set == module.extInstImports.end() || set->second != "OpenCL.std")
      return false;
    const uint32_t number = instruction.operands.at(1);
    return number < OpenCLLIB::Vloadn || number == OpenCLLIB::Bitselect ||
           number == OpenCLLIB::Select || number == OpenCLLIB::Shuffle ||
           number == OpenCLLIB::Shuffle2;
  }
  default:
    return false;
  }
}

bool KernelLowering::readsMemoryShadow(const Instruction &instruction) {
  if (instruction.opcode != spv::OpLoad || !checking(runtime::Check::Uninit) ||
      promoted_.count(instruction.idOperand(0)))
    return false;
  const Type &result = typeOf(module_, instruction.resultType);
  if (result.kind != Type::Kind::Bool && result.kind != Type::Kind::Int &&
      result.kind != Type::Kind::Float && result.kind != Type::Kind::Vector &&
      result.kind != Type::Kind::Pointer)
    return false;
  const Type &pointer = typeOf(module_, typeOfId(instruction.idOperand(0), instruction));
  if (pointer.kind != Type::Kind::Pointer)
    return false;
  const spv::StorageClass storage = pointer.storageClass;
  return storage == spv::StorageClassFunction || storage == spv::StorageClassWorkgroup ||
         storage == spv::StorageClassGeneric;
}

void KernelLowering::findMaybeUndefined() {
  // Scalars, vectors and pointers: the values that live in one register.
  auto shadowed = [&](uint32_t typeId) {
    if (!typeId)
      return false;
    const Type::Kind kind = typeOf(module_, typeId).kind;
    return kind == Type::Kind::Bool || kind == Type::Kind::Int || kind == Type::Kind::Float ||
           kind == Type::Kind::Vector || kind == Type::Kind::Pointer;
  };
  for (const Block *block : cfg_->order())
    for (const Instruction &instruction : block->instructions)
      if (instruction.result && shadowed(instruction.resultType)) {
        const Type &type = typeOf(module_, instruction.resultType);
        componentCounts_[instruction.result] = type.kind == Type::Kind::Vector ? type.count : 1;
      }
  if (checking(runtime::Check::Uninit)) {
    for (const auto &[id, constant] : module_.constants)
      if (constant.kind == Constant::Kind::Undef && shadowed(constant.type))
        undefinedIds_.insert(id);
    for (const Block *block : cfg_->order())
      for (const Instruction &instruction : block->instructions) {
        if (instruction.opcode == spv::OpUndef && shadowed(instruction.resultType))
          undefinedIds_.insert(instruction.result);
        if (readsMemoryShadow(instruction))
          shadowedLoads_.insert(instruction.result);
      }
  }
  maybeUndefined_ = undefinedIds_;
  maybeUndefined_.insert(shadowedLoads_.begin(), shadowedLoads_.end());
  for (uint32_t id : maybeUndefined_)
    undefinedOrigins_[id] = {id};
  for (const Block *block : cfg_->order())
    for (const Instruction &instruction : block->instructions)
      if (deferredShuffle(instruction) && shadowed(instruction.resultType))
        maybeUndefined_.insert(instruction.result);
  if (maybeUndefined_.empty())
    return;
  constexpr size_t originsKept = 4; // more are reported as "several"
  for (bool changed = true; changed;) {
    changed = false;
    for (const Block *block : cfg_->order())
      for (const Instruction &instruction : block->instructions) {
        if (!instruction.result || !shadowed(instruction.resultType) ||
            !propagatesUndefined(module_, instruction))
          continue;
        std::vector<uint32_t> sources;
        auto consider = [&](uint32_t id) {
          if (!maybeUndefined_.count(id))
            return;
          sources.push_back(id);
        };
        if (instruction.opcode == spv::OpPhi) {
          for (size_t k = 0; k + 1 < instruction.operands.size(); k += 2)
            consider(instruction.operands[k]);
        } else {
          instruction.forEachIdOperand(consider);
        }
        if (sources.empty())
          continue;
        if (maybeUndefined_.insert(instruction.result).second)
          changed = true;
        std::vector<uint32_t> &origins = undefinedOrigins_[instruction.result];
        for (uint32_t source : sources)
          for (uint32_t origin : undefinedOrigins_[source])
            if (origins.size() <= originsKept &&
                std::find(origins.begin(), origins.end(), origin) == origins.end()) {
              origins.push_back(origin);
              changed = true;
            }
      }
  }
}

std::string KernelLowering::originOf(uint32_t id) {
  auto it = undefinedOrigins_.find(id);
  if (it == undefinedOrigins_.end() || it->second.empty())
    return "";
  std::vector<std::string> parts;
  for (uint32_t origin : it->second) {
    if (parts.size() == 4)
      return "; the value comes from one of several reads of memory never written or variables "
             "never assigned";
    const Instruction *load = nullptr;
    for (const Block *block : cfg_->order())
      for (const Instruction &instruction : block->instructions)
        if (instruction.result == origin && instruction.opcode == spv::OpLoad)
          load = &instruction;
    if (!load) {
      parts.push_back("a variable never assigned on the work-item's path");
      continue;
    }
    // The variable the load reads: the base of its access chains.
    uint32_t base = load->idOperand(0);
    for (bool found = true; found;) {
      found = false;
      for (const Block *block : cfg_->order())
        for (const Instruction &instruction : block->instructions)
          if (instruction.result == base &&
              (instruction.opcode == spv::OpAccessChain ||
               instruction.opcode == spv::OpInBoundsAccessChain ||
               instruction.opcode == spv::OpPtrAccessChain ||
               instruction.opcode == spv::OpInBoundsPtrAccessChain ||
               instruction.opcode == spv::OpBitcast ||
               instruction.opcode == spv::OpPtrCastToGeneric)) {
            base = instruction.idOperand(0);
            found = true;
          }
    }
    const Type &pointer = typeOf(module_, typeOfId(load->idOperand(0), *load));
    std::string what = pointer.storageClass == spv::StorageClassWorkgroup ? "__local memory"
                       : pointer.storageClass == spv::StorageClassFunction
                           ? "private memory"
                           : "memory";
    // clang names a kernel's __local variable "kernel.variable".
    std::string name = nameOf(base);
    if (name.starts_with(entryPoint_.name + "."))
      name = name.substr(entryPoint_.name.size() + 1);
    if (!name.empty() && name[0] != '%')
      what += " ('" + name + "')";
    std::string text = "the read of " + what;
    if (const SourceLocation *location = module_.location(*load); location && location->known())
      text += " at " + (location->file.starts_with("./") ? location->file.substr(2) : location->file) +
              ":" + std::to_string(location->line);
    parts.push_back(text + ", where no work-item had written it");
  }
  // Reads named once each; an OpUndef (the base clang inserts a vector's
  // components into, most often) only when no read is known.
  std::vector<std::string> unique;
  for (const std::string &part : parts)
    if (std::find(unique.begin(), unique.end(), part) == unique.end() &&
        (part.starts_with("the read") || parts.size() == 1 ||
         std::none_of(parts.begin(), parts.end(),
                      [](const std::string &p) { return p.starts_with("the read"); })))
      unique.push_back(part);
  parts = std::move(unique);
  std::string result = "; the value comes from ";
  for (size_t i = 0; i < parts.size(); ++i)
    result += (i ? i + 1 == parts.size() ? " or " : ", " : "") + parts[i];
  return result;
}

KernelLowering::Shadow KernelLowering::reshapeShadow(const Shadow &from, uint32_t components,
                                                     uint32_t fromBytes, uint32_t toBytes) {
  if (from.components == components && (toBytes == 0 || toBytes == fromBytes))
    return from;
  Shadow result{allocate(components, true), true, components};
  if (toBytes == 0 && from.components == 1) {
    // One component given to all.
    const uint32_t defined = shadowConstant(false, components);
    emit(runtime::undefJoinHandler(from.varying, false), result.offset, {from.offset, defined},
         components, 0, 4);
    return result;
  }
  if (toBytes == 0) { // reduced over all, then given to all
    fromBytes = 1;
    toBytes = from.components;
    if (components != 1) {
      const Shadow reduced = reshapeShadow(from, 1);
      return reshapeShadow(reduced, components);
    }
  }
  emit(runtime::undefRegroupHandler(), result.offset, {from.offset}, components, from.components,
       uint64_t(from.varying) | uint64_t(fromBytes) << 8 | uint64_t(toBytes) << 16);
  return result;
}

// The shadow of a maybe-undefined result (not a phi: its edges copy it; not
// a load of memory with a shadow: lowerMemory reads it).
void KernelLowering::emitShadow(const Instruction &instruction, uint32_t shadow) {
  const spv::Op op = instruction.opcode;
  if (op == spv::OpLoad)
    return;
  const uint32_t components = shadowComponents(instruction.result);
  const Shadow target{shadow, true, components};
  auto operandShadow = [&](uint32_t id) {
    return shadowOrDefined(id, shadowComponents(id));
  };
  // The shadow `from` into the result's shadow (component counts alike).
  auto copyTo = [&](const Shadow &from, const Shadow &to) {
    emit(runtime::copyComponentsHandler(1, runtime::Shape{to.varying, {from.varying}}), to.offset,
         {from.offset}, to.components);
  };
  auto join = [&](const Shadow &a, const Shadow &b, const Shadow &to) {
    emit(runtime::undefJoinHandler(a.varying, b.varying), to.offset, {a.offset, b.offset},
         to.components, 0,
         (a.components == 1 && to.components > 1 ? 4u : 0u) |
             (b.components == 1 && to.components > 1 ? 8u : 0u));
  };
  if (deferredShuffle(instruction)) {
    // The shadow of the lane read, or shadowBadShuffle where that lane is
    // outside the sub-group or inactive (exec_check.cpp), for the whole
    // value.
    const Value &index = use(instruction.idOperand(2), instruction);
    const Shadow input = reshapeShadow(operandShadow(instruction.idOperand(1)), 1);
    const auto kind = op == spv::OpGroupNonUniformShuffleUp ? builtins::LaneSource::Up
                                                            : builtins::LaneSource::Down;
    const uint32_t one = components == 1 ? shadow : allocate(1, true);
    emit(runtime::checkSubgroupHandler(), one, {index.offset, input.offset}, 1, 0,
         2 | (uint64_t(kind) << 8) | (uint64_t(index.elementBytes()) << 16) |
             (uint64_t(index.varying) << 24) | (uint64_t(input.varying) << 25));
    if (components > 1)
      copyTo(reshapeShadow(Shadow{one, true, 1}, components), target);
    return;
  }
  if (op == spv::OpSelect) {
    const Value &condition = use(instruction.idOperand(0), instruction);
    Shadow parts[3];
    for (size_t k = 0; k < 3; ++k)
      parts[k] = operandShadow(instruction.idOperand(k));
    const bool one = condition.components == 1 && components > 1;
    emit(runtime::undefSelectHandler(), shadow,
         {condition.offset, parts[0].offset, parts[1].offset, parts[2].offset}, components, 0,
         uint64_t(condition.varying) | uint64_t(parts[0].varying) << 1 |
             uint64_t(parts[1].varying) << 2 | uint64_t(parts[2].varying) << 3 |
             uint64_t(one) << 4);
    return;
  }
  if (op == spv::OpLogicalAnd || op == spv::OpLogicalOr || op == spv::OpBitwiseAnd ||
      op == spv::OpBitwiseOr) {
    // A defined false (0) decides an AND, a defined true (all ones) an OR.
    const Value &a = use(instruction.idOperand(0), instruction);
    const Value &b = use(instruction.idOperand(1), instruction);
    const Shadow sa = operandShadow(instruction.idOperand(0));
    const Shadow sb = operandShadow(instruction.idOperand(1));
    const bool isOr = op == spv::OpLogicalOr || op == spv::OpBitwiseOr;
    const bool isBool = a.scalar == Scalar::Bool;
    emit(runtime::undefLogicalHandler(), shadow, {a.offset, b.offset, sa.offset, sb.offset},
         components, 0,
         uint64_t(a.varying) | uint64_t(b.varying) << 1 | uint64_t(sa.varying) << 2 |
             uint64_t(sb.varying) << 3 | uint64_t(isOr) << 4 | uint64_t(isBool) << 5 |
             uint64_t(isBool ? 1 : a.elementBytes()) << 8);
    return;
  }
  switch (op) {
  case spv::OpCompositeExtract: {
    // Of a vector (aggregates have no shadow, so are never the source).
    const Shadow source = operandShadow(instruction.idOperand(0));
    const uint32_t index = instruction.operands.at(1);
    emit(runtime::copyComponentsHandler(1, runtime::Shape{true, {source.varying}}), shadow,
         {source.offset + (source.varying ? index * code_.width : index)}, 1);
    return;
  }
  case spv::OpCompositeInsert: {
    const Shadow object = operandShadow(instruction.idOperand(0));
    copyTo(operandShadow(instruction.idOperand(1)), target);
    const uint32_t index = instruction.operands.at(2);
    emit(runtime::copyComponentsHandler(1, runtime::Shape{true, {object.varying}}),
         shadow + index * code_.width, {object.offset}, 1);
    return;
  }
  case spv::OpCompositeConstruct: {
    uint32_t component = 0;
    for (size_t i = 0; i < instruction.operands.size(); ++i) {
      const Shadow part = operandShadow(instruction.idOperand(i));
      emit(runtime::copyComponentsHandler(1, runtime::Shape{true, {part.varying}}),
           shadow + component * code_.width, {part.offset}, part.components);
      component += part.components;
    }
    return;
  }
  case spv::OpVectorShuffle: {
    // A component selected as 0xFFFFFFFF (a don't-care, as clang writes the
    // fourth of a 3-vector) is left defined.
    const Shadow a = operandShadow(instruction.idOperand(0));
    const Shadow b = operandShadow(instruction.idOperand(1));
    auto selection = std::make_shared<std::vector<uint32_t>>(instruction.operands.begin() + 2,
                                                             instruction.operands.end());
    if (std::find(selection->begin(), selection->end(), 0xFFFFFFFFu) != selection->end())
      copyTo(Shadow{shadowConstant(false, components), false, components}, target);
    code_.tables.push_back(selection);
    emit(runtime::vectorShuffleHandler(1, runtime::Shape{true, {a.varying, b.varying}}), shadow,
         {a.offset, b.offset}, components, a.components, 0, selection.get());
    return;
  }
  case spv::OpVectorExtractDynamic: {
    const Value &index = use(instruction.idOperand(1), instruction);
    const Shadow vector = operandShadow(instruction.idOperand(0));
    const Shadow picked{allocate(1, true), true, 1};
    emit(runtime::extractDynamicHandler(1, runtime::Shape{true, {vector.varying, index.varying}}),
         picked.offset, {vector.offset, index.offset}, 1, index.elementBytes(), vector.components);
    join(picked, operandShadow(instruction.idOperand(1)), target);
    return;
  }
  case spv::OpVectorInsertDynamic: {
    const Value &index = use(instruction.idOperand(2), instruction);
    const Shadow vector = operandShadow(instruction.idOperand(0));
    const Shadow component = operandShadow(instruction.idOperand(1));
    const Shadow inserted{allocate(components, true), true, components};
    emit(runtime::insertDynamicHandler(
             1, runtime::Shape{true, {vector.varying, component.varying, index.varying}}),
         inserted.offset, {vector.offset, component.offset, index.offset}, components,
         index.elementBytes());
    join(inserted, operandShadow(instruction.idOperand(2)), target);
    return;
  }
  case spv::OpBitcast: {
    const Value &from = use(instruction.idOperand(0), instruction);
    const Value &to = values_.at(instruction.result);
    copyTo(reshapeShadow(operandShadow(instruction.idOperand(0)), components, from.elementBytes(),
                         to.elementBytes()),
           target);
    return;
  }
  default:
    break;
  }
  if (op == spv::OpExtInst) {
    const uint32_t number = instruction.operands.at(1);
    if (number == OpenCLLIB::Shuffle || number == OpenCLLIB::Shuffle2) {
      // The components the mask selects, and all where the mask is undefined.
      const bool two = number == OpenCLLIB::Shuffle2;
      const Value &mask = use(instruction.idOperand(two ? 4 : 3), instruction);
      const Value &x = use(instruction.idOperand(2), instruction);
      const Shadow sx = operandShadow(instruction.idOperand(2));
      const Shadow sy = two ? operandShadow(instruction.idOperand(3)) : sx;
      const Shadow picked{allocate(components, true), true, components};
      emit(runtime::shuffleHandler(1, runtime::Shape{true, {sx.varying, sy.varying, mask.varying}},
                                   two),
           picked.offset, {sx.offset, sy.offset, mask.offset}, components, x.components);
      join(picked, reshapeShadow(operandShadow(instruction.idOperand(two ? 4 : 3)), 1), target);
      return;
    }
  }
  // Element-wise: the join of the operands' shadows, component by
  // component; an operand of one component applies to all, one of another
  // count (a vector reduced to a scalar, OpDot, OpAny) is reduced first.
  std::vector<Shadow> parts;
  instruction.forEachIdOperand([&](uint32_t id) {
    if (auto part = shadowOf(id))
      parts.push_back(part->components == components || part->components == 1
                          ? *part
                          : reshapeShadow(*part, components));
  });
  const Shadow defined{shadowConstant(false, components), false, components};
  if (parts.empty())
    parts.push_back(defined);
  if (parts.size() == 1)
    parts.push_back(defined);
  join(parts[0], parts[1], target);
  for (size_t i = 2; i < parts.size(); ++i)
    join(target, parts[i], target);
}

} // namespace lanewise::spirv::lowering
