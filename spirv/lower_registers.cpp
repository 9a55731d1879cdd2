// SPDX-License-Identifier: Apache-2.0
// Registers: the register form of SPIR-V types and the values that hold
// them; their reuse (block-local values return their registers to a pool);
// private variables promoted to registers; and what nothing reads, which
// is not lowered.
#include "spirv/lowering.h"

#include "spirv/cfg.h"

#include <functional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace lanewise::spirv::lowering {

bool KernelLowering::scalarForm(uint32_t typeId, Scalar &scalar, uint32_t &components) const {
  const Type &type = typeOf(module_, typeId);
  components = 1;
  const Type *element = &type;
  if (type.kind == Type::Kind::Vector) {
    components = type.count;
    element = &typeOf(module_, type.element);
  }
  switch (element->kind) {
  case Type::Kind::Bool:
    scalar = Scalar::Bool;
    return true;
  case Type::Kind::Int:
    switch (element->width) {
    case 8:
      scalar = Scalar::I8;
      return true;
    case 16:
      scalar = Scalar::I16;
      return true;
    case 32:
      scalar = Scalar::I32;
      return true;
    case 64:
      scalar = Scalar::I64;
      return true;
    default:
      // Arbitrary-width integers (clang narrows switch selectors to them)
      // live in the next standard width, kept zero-extended.
      if (element->width == 0 || element->width > 128)
        return false;
      scalar = element->width < 8    ? Scalar::I8
               : element->width < 16 ? Scalar::I16
               : element->width < 32 ? Scalar::I32
               : element->width < 64 ? Scalar::I64
                                     : Scalar::I128;
      return true;
    }
  case Type::Kind::Float:
    switch (element->width) {
    case 16:
      scalar = Scalar::F16;
      return true;
    case 32:
      scalar = Scalar::F32;
      return true;
    case 64:
      scalar = Scalar::F64;
      return true;
    default:
      return false;
    }
  case Type::Kind::Pointer:
  case Type::Kind::Event:
  case Type::Kind::DeviceEvent:
  case Type::Kind::ReserveId:
  case Type::Kind::Queue:
  // An image: the address of its descriptor; a sampler: its bit field; a
  // sampled image: unused, its consumer reads the image and the sampler
  // (runtime/image.h).
  case Type::Kind::Image:
  case Type::Kind::Sampler:
  case Type::Kind::SampledImage:
    scalar = Scalar::I64;
    return type.kind != Type::Kind::Vector;
  default:
    return false;
  }
}

Value KernelLowering::makeValue(uint32_t typeId, bool varying) {
  const Type &type = typeOf(module_, typeId);
  Value value;
  value.varying = varying;
  if (type.kind == Type::Kind::Struct) {
    value.kind = Value::Kind::Aggregate;
    for (uint32_t member : type.members)
      value.members.push_back(makeValue(member, varying));
    return value;
  }
  if (type.kind == Type::Kind::Array) {
    value.kind = Value::Kind::Aggregate;
    for (uint32_t i = 0; i < type.count; ++i)
      value.members.push_back(makeValue(type.element, varying));
    return value;
  }
  if (!scalarForm(typeId, value.scalar, value.components))
    throw LoadError(LoadErrorKind::Invalid, "kernel '" + entryPoint_.name + "': values of type %" +
                                                std::to_string(typeId) + " are not supported");
  value.isPointer = type.kind == Type::Kind::Pointer;
  if (value.isPointer)
    value.storage = type.storageClass;
  {
    const Type &element = type.kind == Type::Kind::Vector ? typeOf(module_, type.element) : type;
    // 128-bit integers (clang -O2 reads a 16-byte union as an i128) fill
    // their register: they are not narrow.
    if (element.kind == Type::Kind::Int && element.width != 8 && element.width != 16 &&
        element.width != 32 && element.width != 64 && element.width != 128)
      value.narrowBits = element.width;
  }
  value.offset = allocate(value.components * value.elementBytes(), varying);
  return value;
}

void KernelLowering::findBlockLocalValues() {
  std::unordered_map<uint32_t, uint32_t> definedIn, uses;
  std::unordered_set<uint32_t> nonLocal;
  for (uint32_t b = 0; b < cfg_->size(); ++b)
    for (const Instruction &instruction : cfg_->order()[b]->instructions)
      if (instruction.result)
        definedIn[instruction.result] = b;
  for (uint32_t b = 0; b < cfg_->size(); ++b)
    for (const Instruction &instruction : cfg_->order()[b]->instructions)
      if (!isDead(instruction))
        instruction.forEachIdOperand([&](uint32_t id) {
          auto it = definedIn.find(id);
          if (it == definedIn.end())
            return;
          if (it->second != b || instruction.opcode == spv::OpPhi ||
              isBlockTerminator(instruction.opcode))
            nonLocal.insert(id); // terminator uses: the block's end frees them
          ++uses[id];
        });
  for (uint32_t b = 0; b < cfg_->size(); ++b)
    for (const Instruction &instruction : cfg_->order()[b]->instructions) {
      const uint32_t id = instruction.result;
      if (!id || nonLocal.count(id) || !uses.count(id) || promoted_.count(id) || dead_.count(id) ||
          instruction.opcode == spv::OpPhi || instruction.opcode == spv::OpVariable ||
          boundWhenLowered(instruction))
        continue;
      localUses_[id] = uses[id];
    }
}

void KernelLowering::release(const Value &value) {
  if (value.kind == Value::Kind::Aggregate) {
    for (const Value &member : value.members)
      release(member);
  } else if (value.kind == Value::Kind::Register) {
    pool_[{value.components * value.elementBytes(), value.varying}].push_back(value.offset);
  }
}

std::unordered_map<uint32_t, uint32_t> KernelLowering::liveUses() const {
  std::unordered_map<uint32_t, uint32_t> uses;
  for (uint32_t b = 0; b < cfg_->size(); ++b)
    for (const Instruction &instruction : cfg_->order()[b]->instructions)
      if (!isDead(instruction))
        instruction.forEachIdOperand([&](uint32_t id) { ++uses[id]; });
  return uses;
}

void KernelLowering::findDeadValues() {
  if (checks_)
    return;
  std::unordered_map<uint32_t, std::vector<const Instruction *>> users;
  for (const Block &block : flat_.blocks)
    for (const Instruction &instruction : block.instructions)
      instruction.forEachIdOperand([&](uint32_t id) { users[id].push_back(&instruction); });
  auto derivesPointer = [](spv::Op op) {
    switch (op) {
    case spv::OpBitcast:
    case spv::OpPtrCastToGeneric:
    case spv::OpGenericCastToPtr:
    case spv::OpAccessChain:
    case spv::OpInBoundsAccessChain:
    case spv::OpPtrAccessChain:
    case spv::OpInBoundsPtrAccessChain:
    case spv::OpCopyObject:
      return true;
    default:
      return false;
    }
  };
  auto ignored = [](spv::Op op) {
    return op == spv::OpLifetimeStart || op == spv::OpLifetimeStop ||
           op == spv::OpGroupWaitEvents; // a no-op: copies complete when issued
  };
  // Whether `id` and the pointers derived from it are only stored
  // through (`written`) or not used at all; collects them.
  std::function<bool(uint32_t, bool, std::vector<uint32_t> &, std::vector<const Instruction *> &)>
      unread = [&](uint32_t id, bool written, std::vector<uint32_t> &ids,
                   std::vector<const Instruction *> &stores) {
        ids.push_back(id);
        for (const Instruction *user : users[id]) {
          if (ignored(user->opcode))
            continue;
          if (written && user->opcode == spv::OpStore && user->idOperand(0) == id &&
              user->idOperand(1) != id) {
            stores.push_back(user);
            continue;
          }
          if (derivesPointer(user->opcode) && user->idOperand(0) == id &&
              unread(user->result, written, ids, stores))
            continue;
          return false;
        }
        return true;
      };
  for (const Block &block : flat_.blocks)
    for (const Instruction &instruction : block.instructions) {
      if (!instruction.result || dead_.count(instruction.result))
        continue;
      const bool variable =
          instruction.opcode == spv::OpVariable &&
          static_cast<spv::StorageClass>(instruction.operands.at(0)) == spv::StorageClassFunction;
      if (!variable && !derivesPointer(instruction.opcode))
        continue;
      std::vector<uint32_t> ids;
      std::vector<const Instruction *> stores;
      if (!unread(instruction.result, variable, ids, stores))
        continue;
      dead_.insert(ids.begin(), ids.end());
      deadStores_.insert(stores.begin(), stores.end());
    }
}

void KernelLowering::findPromotableVariables() {
  std::unordered_set<uint32_t> candidates, escaped;
  for (const Block &block : flat_.blocks)
    for (const Instruction &instruction : block.instructions)
      if (instruction.opcode == spv::OpVariable &&
          static_cast<spv::StorageClass>(instruction.operands.at(0)) == spv::StorageClassFunction)
        candidates.insert(instruction.result);
  for (const Block &block : flat_.blocks)
    for (const Instruction &instruction : block.instructions) {
      size_t index = 0;
      instruction.forEachIdOperand([&](uint32_t id) {
        const bool pointerOperand = index++ == 0 && (instruction.opcode == spv::OpLoad ||
                                                     instruction.opcode == spv::OpStore ||
                                                     instruction.opcode == spv::OpLifetimeStart ||
                                                     instruction.opcode == spv::OpLifetimeStop);
        if (candidates.count(id) && !pointerOperand)
          escaped.insert(id);
      });
    }
  for (uint32_t id : candidates)
    if (!escaped.count(id)) {
      Scalar scalar;
      uint32_t components;
      const uint32_t pointee = typeOf(module_, resultTypes_.at(id)).element;
      const Type &type = typeOf(module_, pointee);
      if (type.kind == Type::Kind::Struct || type.kind == Type::Kind::Array ||
          scalarForm(pointee, scalar, components))
        promotable_.insert(id);
    }
  // Under the uninitialised-read check, private variables stay in memory,
  // where the check sees them.
  if (!options_.checks.has(runtime::Check::Uninit))
    promoted_ = promotable_;
}

} // namespace lanewise::spirv::lowering
