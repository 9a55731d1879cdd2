// SPDX-License-Identifier: Apache-2.0
// Composite instructions (SPIR-V 1.4, 3.37.12) and shuffle, shuffle2, select
// and bitselect (OpenCL.std), bound to runtime/exec_composite.cpp.
//
// Chains of constant selections (findComposedSelections): shuffle and
// shuffle2 with a constant mask, OpVectorShuffle and the construction of a
// vector each copy components, and a transpose chains them. A selection
// whose operand is another selection of the same block reads the
// components where that one took them, when that source is a constant, a
// kernel argument or a value of the block nothing writes over (not a phi,
// not a value that takes a phi's register or is lowered later than its
// place, not an affine value held as its pair alone); it is lowered as one
// gather of component rows (runtime::gatherComponentsHandler), and a
// selection read only by such selections is not lowered. A value read
// through another selection keeps its register to the kernel's end (the
// pool would otherwise hand it out after its last operand use). Not under
// checks.
#include "spirv/lowering.h"

#include "builtins/shuffle.h"

#include <spirv/unified1/OpenCL.std.h>

namespace lanewise::spirv::lowering {

// The source of each component of a vector that an instruction selects
// from its operands by constants alone: OpVectorShuffle (no undefined
// component), OpCompositeConstruct of a vector, and shuffle and shuffle2
// with a constant mask (not a specialization constant). Nullopt for any
// other instruction.
std::optional<KernelLowering::ComponentList>
KernelLowering::selectionOf(const Instruction &instruction) const {
  if (!instruction.result || !instruction.resultType)
    return std::nullopt;
  Scalar scalar;
  uint32_t components = 0;
  const Type &type = typeOf(module_, instruction.resultType);
  if (type.kind != Type::Kind::Vector || !scalarForm(instruction.resultType, scalar, components) ||
      runtime::scalarSize(scalar) > 8)
    return std::nullopt;
  auto lengthOf = [&](uint32_t id) -> uint32_t {
    auto it = resultTypes_.find(id);
    if (it == resultTypes_.end())
      return 0;
    const Type &t = typeOf(module_, it->second);
    return t.kind == Type::Kind::Vector ? t.count : 1;
  };
  ComponentList list;
  switch (instruction.opcode) {
  case spv::OpVectorShuffle: {
    const uint32_t a = instruction.operands.at(0), b = instruction.operands.at(1);
    const uint32_t first = lengthOf(a);
    for (size_t i = 2; i < instruction.operands.size(); ++i) {
      const uint32_t k = instruction.operands[i];
      if (k == 0xFFFFFFFFu || k >= first + lengthOf(b))
        return std::nullopt;
      list.push_back(k < first ? std::pair{a, k} : std::pair{b, k - first});
    }
    break;
  }
  case spv::OpCompositeConstruct:
    for (uint32_t part : instruction.operands) {
      const uint32_t length = lengthOf(part);
      if (!length)
        return std::nullopt;
      for (uint32_t k = 0; k < length; ++k)
        list.push_back({part, k});
    }
    break;
  case spv::OpExtInst: {
    const auto number = openclStdNumber(instruction);
    if (number != OpenCLLIB::Shuffle && number != OpenCLLIB::Shuffle2)
      return std::nullopt;
    const bool two = number == OpenCLLIB::Shuffle2;
    const uint32_t x = instruction.idOperand(2), y = two ? instruction.idOperand(3) : x;
    const uint32_t maskId = instruction.idOperand(two ? 4 : 3);
    auto mask = module_.constants.find(maskId);
    if (mask == module_.constants.end() || mask->second.isSpec)
      return std::nullopt;
    std::vector<uint64_t> bits(components, 0);
    if (mask->second.kind == Constant::Kind::Composite) {
      if (mask->second.constituents.size() != components)
        return std::nullopt;
      for (uint32_t i = 0; i < components; ++i) {
        auto element = module_.constants.find(mask->second.constituents[i]);
        if (element == module_.constants.end() || element->second.isSpec ||
            element->second.kind != Constant::Kind::Scalar)
          return std::nullopt;
        bits[i] = element->second.bits;
      }
    } else if (mask->second.kind != Constant::Kind::Null) {
      return std::nullopt;
    }
    const uint32_t m = lengthOf(x);
    if (!m)
      return std::nullopt;
    for (uint32_t i = 0; i < components; ++i) {
      const uint32_t k = builtins::shuffleIndex(bits[i], m, two);
      list.push_back(k < m ? std::pair{x, k} : std::pair{y, k - m});
    }
    break;
  }
  default:
    return std::nullopt;
  }
  if (list.size() != components)
    return std::nullopt;
  return list;
}

// Shuffles of shuffles (a transpose: shuffle2 of loaded rows, put together,
// shuffled again) copy each component once. A selection's component that
// comes from another selection of the same block is read from that one's
// source instead, when the source is a constant, a kernel parameter, or a
// value of the block that nothing else writes over: not a phi, nor a value
// that takes a phi's register or is lowered later than its place
// (findCoalescedPhis), nor an affine value held as its pair alone. A
// selection that only such selections read is then dead. A value read
// through another selection is not the reader's operand, so the count of
// its uses (findBlockLocalValues) would let the pool take its register
// back after its last operand use: it keeps its register to the end of the
// kernel instead. Not under checks, whose shadows follow values
// instruction by instruction.
void KernelLowering::findComposedSelections() {
  if (checks_)
    return;
  std::unordered_map<uint32_t, const Instruction *> defs;
  std::unordered_map<uint32_t, uint32_t> blockOf;
  std::unordered_map<uint32_t, std::vector<const Instruction *>> users;
  for (uint32_t b = 0; b < cfg_->size(); ++b)
    for (const Instruction &instruction : cfg_->order()[b]->instructions) {
      if (instruction.result) {
        defs[instruction.result] = &instruction;
        blockOf[instruction.result] = b;
      }
      if (!isDead(instruction))
        instruction.forEachIdOperand([&](uint32_t id) { users[id].push_back(&instruction); });
    }
  std::unordered_set<uint32_t> parameters;
  for (const auto &[id, type] : flat_.parameters)
    parameters.insert(id);
  // A value a composed selection in block `b` may read in place of the
  // selection that read it.
  auto stable = [&](uint32_t id, uint32_t b) {
    if (module_.constants.count(id) || parameters.count(id))
      return true;
    auto def = defs.find(id);
    if (def == defs.end() || blockOf.at(id) != b)
      return false;
    const Instruction &instruction = *def->second;
    return instruction.opcode != spv::OpPhi && !coalesced_.count(id) &&
           !sunk_.count(&instruction) && !affinePairs_.count(id) && !promoted_.count(id) &&
           !dead_.count(id) && !boundWhenLowered(instruction) && !memoryOrder_.count(id);
  };
  std::unordered_map<uint32_t, ComponentList> selections;
  for (const auto &[id, instruction] : defs)
    if (!isDead(*instruction) && !coalesced_.count(id) && !sunk_.count(instruction) &&
        !memoryOrder_.count(id))
      if (auto list = selectionOf(*instruction))
        selections.emplace(id, std::move(*list));
  // Each selection's components, followed back through the selections of
  // its block, in block order (a selection's operands are composed first).
  std::unordered_map<uint32_t, ComponentList> composed;
  for (uint32_t b = 0; b < cfg_->size(); ++b)
    for (const Instruction &instruction : cfg_->order()[b]->instructions) {
      auto selection = selections.find(instruction.result);
      if (selection == selections.end())
        continue;
      ComponentList list = selection->second;
      for (auto &[source, component] : list) {
        auto inner = composed.find(source);
        if (inner == composed.end() || blockOf.at(source) != b)
          continue;
        const auto &[from, k] = inner->second.at(component);
        if (stable(from, b)) {
          source = from;
          component = k;
        }
      }
      composed.emplace(instruction.result, std::move(list));
    }
  // The selections whose every user read through them.
  std::unordered_set<uint32_t> read;
  for (const auto &[id, list] : composed)
    for (const auto &[source, component] : list)
      read.insert(source);
  for (const auto &[id, list] : composed) {
    auto uses = users.find(id);
    const bool unread =
        uses != users.end() && !read.count(id) &&
        std::all_of(uses->second.begin(), uses->second.end(),
                    [&](const Instruction *user) { return composed.count(user->result) != 0; });
    if (unread)
      dead_.insert(id);
  }
  // A selection that only got another name for each operand's components
  // is lowered as it is.
  for (auto &[id, list] : composed) {
    if (dead_.count(id) || list == selections.at(id))
      continue;
    for (const auto &[source, component] : list) {
      bool operand = false;
      defs.at(id)->forEachIdOperand([&](uint32_t used) { operand |= used == source; });
      if (!operand)
        localUses_.erase(source);
    }
    composed_.emplace(id, std::move(list));
  }
}

// A composed selection: each component copied from where it was computed.
bool KernelLowering::lowerComposedSelection(const Instruction &instruction) {
  auto it = composed_.find(instruction.result);
  if (it == composed_.end())
    return false;
  const Value &r = values_.at(instruction.result);
  auto sources = std::make_shared<std::vector<runtime::ComponentSource>>();
  for (const auto &[id, component] : it->second) {
    const Value &source = use(id, instruction);
    if (source.kind != Value::Kind::Register || source.elementBytes() != r.elementBytes())
      fail(instruction, "a composed selection reads a value that is not in registers");
    sources->push_back({componentOffset(source, component), source.varying});
  }
  code_.tables.push_back(sources);
  emit(runtime::gatherComponentsHandler(r.elementBytes(), r.varying), r.offset, {}, r.components, 0,
       0, sources.get());
  return true;
}

// Copies, composites and vector shuffles.
bool KernelLowering::lowerComposite(const Instruction &instruction) {
  const spv::Op op = instruction.opcode;
  auto result = [&]() -> const Value & { return values_.at(instruction.result); };
  auto operand = [&](size_t i) -> const Value & {
    return use(instruction.idOperand(i), instruction);
  };

  if (lowerComposedSelection(instruction))
    return true;
  switch (op) {
  case spv::OpCopyObject:
  // SPIR-V 1.4: between logically matching types, which differ only in
  // decorations; their registers are alike.
  case spv::OpCopyLogical:
  case spv::OpExpectKHR: // __builtin_expect: the value itself
    copyValue(operand(0), result());
    return true;
  case spv::OpCompositeConstruct: {
    const Value &r = result();
    if (r.kind == Value::Kind::Aggregate) {
      for (size_t i = 0; i < r.members.size(); ++i)
        copyValue(operand(i), r.members[i]);
      return true;
    }
    uint32_t component = 0;
    for (size_t i = 0; i < instruction.operands.size(); ++i) {
      const Value &part = operand(i);
      emit(runtime::copyComponentsHandler(r.elementBytes(), Shape{r.varying, {part.varying}}),
           componentOffset(r, component), {part.offset}, part.components);
      component += part.components;
    }
    return true;
  }
  case spv::OpCompositeExtract: {
    const Value *source = &operand(0);
    const Value &r = result();
    for (size_t i = 1; i < instruction.operands.size(); ++i) {
      const uint32_t index = instruction.operands[i];
      if (source->kind == Value::Kind::Aggregate) {
        source = &source->members.at(index);
        continue;
      }
      emit(runtime::copyComponentsHandler(r.elementBytes(), Shape{r.varying, {source->varying}}),
           r.offset, {componentOffset(*source, index)}, 1);
      return true;
    }
    copyValue(*source, r);
    return true;
  }
  case spv::OpCompositeInsert: {
    const Value &object = operand(0);
    const Value &r = result();
    copyValue(operand(1), r);
    const Value *target = &r;
    for (size_t i = 2; i < instruction.operands.size(); ++i) {
      const uint32_t index = instruction.operands[i];
      if (target->kind == Value::Kind::Aggregate) {
        target = &target->members.at(index);
        continue;
      }
      emit(runtime::copyComponentsHandler(r.elementBytes(), Shape{r.varying, {object.varying}}),
           componentOffset(*target, index), {object.offset}, 1);
      return true;
    }
    copyValue(object, *target);
    return true;
  }
  case spv::OpVectorShuffle: {
    const Value &a = operand(0), &b = operand(1);
    const Value &r = result();
    auto selection = std::make_shared<std::vector<uint32_t>>(instruction.operands.begin() + 2,
                                                             instruction.operands.end());
    code_.tables.push_back(selection);
    emit(runtime::vectorShuffleHandler(r.elementBytes(), Shape{r.varying, {a.varying, b.varying}}),
         r.offset, {a.offset, b.offset}, r.components, a.components, 0, selection.get());
    return true;
  }
  case spv::OpVectorExtractDynamic: {
    const Value &v = operand(0), &index = operand(1);
    const Value &r = result();
    emit(runtime::extractDynamicHandler(r.elementBytes(),
                                        Shape{r.varying, {v.varying, index.varying}}),
         r.offset, {v.offset, index.offset}, 1, index.elementBytes(), v.components);
    return true;
  }
  case spv::OpVectorInsertDynamic: {
    const Value &v = operand(0), &component = operand(1), &index = operand(2);
    const Value &r = result();
    emit(runtime::insertDynamicHandler(
             r.elementBytes(), Shape{r.varying, {v.varying, component.varying, index.varying}}),
         r.offset, {v.offset, component.offset, index.offset}, r.components, index.elementBytes());
    return true;
  }
  default:
    return false;
  }
}

// shuffle, shuffle2, select and bitselect.
bool KernelLowering::lowerPermutation(const Instruction &instruction, uint32_t number) {
  using namespace OpenCLLIB;
  auto argument = [&](size_t i) -> const Value & { return use(instruction.idOperand(2 + i), instruction); };
  switch (number) {
  case Shuffle:
  case Shuffle2: {
    if (lowerComposedSelection(instruction))
      return true;
    const Value &r = values_.at(instruction.result);
    const bool two = number == Shuffle2;
    const Value &x = argument(0);
    const Value &y = two ? argument(1) : x;
    const Value &mask = argument(two ? 2 : 1);
    emit(runtime::shuffleHandler(r.elementBytes(),
                                 Shape{r.varying, {x.varying, y.varying, mask.varying}}, two),
         r.offset, {x.offset, y.offset, mask.offset}, r.components, x.components);
    return true;
  }
  case Select: {
    // select(a, b, c): c's most significant bit for vectors, c != 0 for
    // scalars, chooses b (OpenCL C 3.0, 6.15.6).
    const Value &r = values_.at(instruction.result);
    const Value &a = argument(0), &b = argument(1), &c = argument(2);
    const Value condition = temporary(Scalar::Bool, c.components, c.varying);
    Value integer = c;
    integer.scalar = c.elementBytes() == 1 ? Scalar::I8
                     : c.elementBytes() == 2 ? Scalar::I16
                     : c.elementBytes() == 4 ? Scalar::I32
                                             : Scalar::I64;
    const uint32_t zero = splatConstant(integer, 0);
    emit(runtime::binaryHandler(c.components > 1 ? runtime::BinaryOp::SLessThan
                                                 : runtime::BinaryOp::INotEqual,
                                integer.scalar, Shape{c.varying, {c.varying, false}}),
         condition.offset, {c.offset, zero}, c.components);
    emit(runtime::selectHandler(r.elementBytes(),
                                Shape{r.varying, {condition.varying, b.varying, a.varying}}),
         r.offset, {condition.offset, b.offset, a.offset}, r.components);
    return true;
  }
  case Bitselect: {
    // bitselect(a, b, c): each bit from b where c's is 1, else from a.
    const Value &r = values_.at(instruction.result);
    const Value &a = argument(0), &b = argument(1), &c = argument(2);
    const Scalar integer = r.elementBytes() == 1 ? Scalar::I8
                           : r.elementBytes() == 2 ? Scalar::I16
                           : r.elementBytes() == 4 ? Scalar::I32
                                                   : Scalar::I64;
    const bool varying = r.varying;
    const Value notC = temporary(integer, r.components, c.varying);
    const Value fromA = temporary(integer, r.components, varying);
    const Value fromB = temporary(integer, r.components, varying);
    using runtime::BinaryOp;
    emit(runtime::unaryHandler(runtime::UnaryOp::Not, integer, Shape{c.varying, {c.varying}}),
         notC.offset, {c.offset}, r.components);
    emit(runtime::binaryHandler(BinaryOp::BitwiseAnd, integer, Shape{varying, {a.varying, c.varying}}),
         fromA.offset, {a.offset, notC.offset}, r.components);
    emit(runtime::binaryHandler(BinaryOp::BitwiseAnd, integer, Shape{varying, {b.varying, c.varying}}),
         fromB.offset, {b.offset, c.offset}, r.components);
    emit(runtime::binaryHandler(BinaryOp::BitwiseOr, integer, Shape{varying, {varying, varying}}),
         r.offset, {fromA.offset, fromB.offset}, r.components);
    return true;
  }
  default:
    return false;
  }
}

} // namespace lanewise::spirv::lowering
