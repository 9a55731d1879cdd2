// Composite instructions (SPIR-V 1.4, 3.37.12) and shuffle, shuffle2, select
// and bitselect (OpenCL.std), bound to runtime/exec_composite.cpp.
#include "spirv/lowering.h"

#include <spirv/unified1/OpenCL.std.h>

namespace lanewise::spirv::lowering {

// Copies, composites and vector shuffles.
bool KernelLowering::lowerComposite(const Instruction &instruction) {
  const spv::Op op = instruction.opcode;
  auto result = [&]() -> const Value & { return values_.at(instruction.result); };
  auto operand = [&](size_t i) -> const Value & {
    return use(instruction.idOperand(i), instruction);
  };

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
