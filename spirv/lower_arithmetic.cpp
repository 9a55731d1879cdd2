// SPDX-License-Identifier: Apache-2.0
// Arithmetic, bitwise and comparison instructions, conversions and selection
// (SPIR-V 1.4, 3.37.11 to 3.37.15), bound to runtime/exec_arithmetic.cpp and
// runtime/exec_convert.cpp.
#include "spirv/lowering.h"

#include "builtins/geometric.h"

namespace lanewise::spirv::lowering {

// The conversions between numbers (and pointers and integers), which one
// handler family lowers.
bool isConversion(spv::Op op) {
  switch (op) {
  case spv::OpConvertFToU:
  case spv::OpConvertFToS:
  case spv::OpConvertSToF:
  case spv::OpConvertUToF:
  case spv::OpUConvert:
  case spv::OpSConvert:
  case spv::OpFConvert:
  case spv::OpSatConvertSToU:
  case spv::OpSatConvertUToS:
  case spv::OpConvertPtrToU:
  case spv::OpConvertUToPtr:
    return true;
  default:
    return false;
  }
}


std::optional<runtime::BinaryOp> binaryOp(spv::Op opcode) {
  using runtime::BinaryOp;
  switch (opcode) {
  case spv::OpIAdd:
    return BinaryOp::IAdd;
  case spv::OpISub:
    return BinaryOp::ISub;
  case spv::OpIMul:
    return BinaryOp::IMul;
  case spv::OpUDiv:
    return BinaryOp::UDiv;
  case spv::OpSDiv:
    return BinaryOp::SDiv;
  case spv::OpUMod:
    return BinaryOp::UMod;
  case spv::OpSRem:
    return BinaryOp::SRem;
  case spv::OpSMod:
    return BinaryOp::SMod;
  case spv::OpShiftLeftLogical:
    return BinaryOp::ShiftLeftLogical;
  case spv::OpShiftRightLogical:
    return BinaryOp::ShiftRightLogical;
  case spv::OpShiftRightArithmetic:
    return BinaryOp::ShiftRightArithmetic;
  case spv::OpBitwiseAnd:
    return BinaryOp::BitwiseAnd;
  case spv::OpBitwiseOr:
    return BinaryOp::BitwiseOr;
  case spv::OpBitwiseXor:
    return BinaryOp::BitwiseXor;
  case spv::OpFAdd:
    return BinaryOp::FAdd;
  case spv::OpFSub:
    return BinaryOp::FSub;
  case spv::OpFMul:
    return BinaryOp::FMul;
  case spv::OpFDiv:
    return BinaryOp::FDiv;
  case spv::OpFRem:
    return BinaryOp::FRem;
  case spv::OpFMod:
    return BinaryOp::FMod;
  case spv::OpIEqual:
    return BinaryOp::IEqual;
  case spv::OpINotEqual:
    return BinaryOp::INotEqual;
  case spv::OpUGreaterThan:
    return BinaryOp::UGreaterThan;
  case spv::OpSGreaterThan:
    return BinaryOp::SGreaterThan;
  case spv::OpUGreaterThanEqual:
    return BinaryOp::UGreaterThanEqual;
  case spv::OpSGreaterThanEqual:
    return BinaryOp::SGreaterThanEqual;
  case spv::OpULessThan:
    return BinaryOp::ULessThan;
  case spv::OpSLessThan:
    return BinaryOp::SLessThan;
  case spv::OpULessThanEqual:
    return BinaryOp::ULessThanEqual;
  case spv::OpSLessThanEqual:
    return BinaryOp::SLessThanEqual;
  case spv::OpFOrdEqual:
    return BinaryOp::FOrdEqual;
  case spv::OpFUnordEqual:
    return BinaryOp::FUnordEqual;
  case spv::OpFOrdNotEqual:
    return BinaryOp::FOrdNotEqual;
  case spv::OpFUnordNotEqual:
    return BinaryOp::FUnordNotEqual;
  case spv::OpFOrdLessThan:
    return BinaryOp::FOrdLessThan;
  case spv::OpFUnordLessThan:
    return BinaryOp::FUnordLessThan;
  case spv::OpFOrdGreaterThan:
    return BinaryOp::FOrdGreaterThan;
  case spv::OpFUnordGreaterThan:
    return BinaryOp::FUnordGreaterThan;
  case spv::OpFOrdLessThanEqual:
    return BinaryOp::FOrdLessThanEqual;
  case spv::OpFUnordLessThanEqual:
    return BinaryOp::FUnordLessThanEqual;
  case spv::OpFOrdGreaterThanEqual:
    return BinaryOp::FOrdGreaterThanEqual;
  case spv::OpFUnordGreaterThanEqual:
    return BinaryOp::FUnordGreaterThanEqual;
  case spv::OpLessOrGreater:
    return BinaryOp::LessOrGreater;
  case spv::OpOrdered:
    return BinaryOp::Ordered;
  case spv::OpUnordered:
    return BinaryOp::Unordered;
  case spv::OpLogicalEqual:
    return BinaryOp::LogicalEqual;
  case spv::OpLogicalNotEqual:
    return BinaryOp::LogicalNotEqual;
  case spv::OpLogicalAnd:
    return BinaryOp::LogicalAnd;
  case spv::OpLogicalOr:
    return BinaryOp::LogicalOr;
  case spv::OpPtrEqual:
    return BinaryOp::IEqual;
  case spv::OpPtrNotEqual:
    return BinaryOp::INotEqual;
  default:
    return std::nullopt;
  }
}

std::optional<runtime::UnaryOp> unaryOp(spv::Op opcode) {
  using runtime::UnaryOp;
  switch (opcode) {
  case spv::OpSNegate:
    return UnaryOp::SNegate;
  case spv::OpNot:
    return UnaryOp::Not;
  case spv::OpBitCount:
    return UnaryOp::BitCount;
  case spv::OpBitReverse:
    return UnaryOp::BitReverse;
  case spv::OpFNegate:
    return UnaryOp::FNegate;
  case spv::OpQuantizeToF16:
    return UnaryOp::QuantizeToF16;
  case spv::OpIsNan:
    return UnaryOp::IsNan;
  case spv::OpIsInf:
    return UnaryOp::IsInf;
  case spv::OpIsFinite:
    return UnaryOp::IsFinite;
  case spv::OpIsNormal:
    return UnaryOp::IsNormal;
  case spv::OpSignBitSet:
    return UnaryOp::SignBitSet;
  case spv::OpLogicalNot:
    return UnaryOp::LogicalNot;
  default:
    return std::nullopt;
  }
}


runtime::Rounding roundingOf(const Module &module, uint32_t id) {
  if (const Decoration *d = module.decoration(id, spv::DecorationFPRoundingMode)) {
    switch (d->operands.at(0)) {
    case spv::FPRoundingModeRTE:
      return runtime::Rounding::RTE;
    case spv::FPRoundingModeRTZ:
      return runtime::Rounding::RTZ;
    case spv::FPRoundingModeRTP:
      return runtime::Rounding::RTP;
    case spv::FPRoundingModeRTN:
      return runtime::Rounding::RTN;
    default:
      break;
    }
  }
  return runtime::Rounding::Default;
}


// Arithmetic, bitwise and comparison instructions, conversions, selection.
bool KernelLowering::lowerArithmetic(const Instruction &instruction) {
  const spv::Op op = instruction.opcode;
  auto result = [&]() -> const Value & { return values_.at(instruction.result); };
  auto operand = [&](size_t i) -> const Value & {
    return use(instruction.idOperand(i), instruction);
  };
  if (auto binary = binaryOp(op)) {
    const Value &a = operand(0), &b = operand(1);
    checkNarrowOperation(a, instruction);
    const bool isSigned = op == spv::OpSDiv || op == spv::OpSRem || op == spv::OpSMod;
    // An undefined divisor may trap or give anything: it is a use.
    if (isSigned || op == spv::OpUDiv || op == spv::OpUMod)
      checkDefined(instruction.idOperand(1), instruction, runtime::UndefinedUse::Divisor);
    if ((isSigned || op == spv::OpUDiv || op == spv::OpUMod) &&
        checking(runtime::Check::Division) && a.elementBytes() <= 8 && !a.narrowBits)
      emit(runtime::checkDivisionHandler(a.scalar, Shape{a.varying || b.varying,
                                                          {a.varying, b.varying}}),
           0, {a.offset, b.offset}, a.components,
           addSite(instruction, 0, runtime::CheckSite::Space::Generic, false), isSigned ? 1 : 0);
    emit(runtime::binaryHandler(*binary, a.scalar, Shape{result().varying, {a.varying, b.varying}}),
         result().offset, {a.offset, b.offset}, result().components);
    truncateNarrow(result());
    return true;
  }
  if (auto unary = unaryOp(op)) {
    const Value &a = operand(0);
    checkNarrowOperation(a, instruction);
    emit(runtime::unaryHandler(*unary, a.scalar, Shape{result().varying, {a.varying}}),
         result().offset, {a.offset}, result().components);
    truncateNarrow(result());
    return true;
  }
  if (isConversion(op)) {
    const Value &a = operand(0);
    const Value &r = result();
    const bool fromSigned =
        op == spv::OpConvertSToF || op == spv::OpSConvert || op == spv::OpSatConvertSToU;
    const bool toSigned =
        op == spv::OpConvertFToS || op == spv::OpSConvert || op == spv::OpSatConvertUToS;
    const bool saturate =
        op == spv::OpSatConvertSToU || op == spv::OpSatConvertUToS ||
        module_.hasDecoration(decorated(instruction.result), spv::DecorationSaturatedConversion);
    const runtime::Rounding rounding = roundingOf(module_, decorated(instruction.result));
    if (a.narrowBits && fromSigned)
      fail(instruction, "sign extension of " + std::to_string(a.narrowBits) +
                            "-bit integers is not supported");
    emit(runtime::convertHandler({a.scalar, fromSigned}, {r.scalar, toSigned}, rounding, saturate,
                                 Shape{r.varying, {a.varying}}),
         r.offset, {a.offset}, r.components,
         static_cast<uint32_t>(rounding) | (saturate ? 0x100u : 0u));
    truncateNarrow(r);
    return true;
  }
  switch (op) {
  case spv::OpSelect: {
    const Value &condition = operand(0);
    std::function<void(const Value &, const Value &, const Value &)> select =
        [&](const Value &a, const Value &b, const Value &r) {
          if (r.kind == Value::Kind::Aggregate) {
            for (size_t i = 0; i < r.members.size(); ++i)
              select(a.members[i], b.members[i], r.members[i]);
            return;
          }
          emit(runtime::selectHandler(r.elementBytes(),
                                      Shape{r.varying, {condition.varying, a.varying, b.varying}}),
               r.offset, {condition.offset, a.offset, b.offset}, r.components,
               condition.components == 1 && r.components > 1 ? 1 : 0);
        };
    select(operand(1), operand(2), result());
    return true;
  }
  case spv::OpAny:
  case spv::OpAll: {
    const Value &v = operand(0);
    emit(runtime::anyAllHandler(op == spv::OpAll, Shape{result().varying, {v.varying}}),
         result().offset, {v.offset}, 1, v.components);
    return true;
  }
  case spv::OpIAddCarry:
  case spv::OpISubBorrow:
  case spv::OpUMulExtended:
  case spv::OpSMulExtended: {
    const Value &a = operand(0), &b = operand(1);
    const Value &r = result();
    const runtime::ExtendedOp kind = op == spv::OpIAddCarry    ? runtime::ExtendedOp::IAddCarry
                                     : op == spv::OpISubBorrow ? runtime::ExtendedOp::ISubBorrow
                                     : op == spv::OpUMulExtended
                                         ? runtime::ExtendedOp::UMulExtended
                                         : runtime::ExtendedOp::SMulExtended;
    emit(runtime::extendedHandler(kind, a.scalar, Shape{r.varying, {a.varying, b.varying}}),
         r.members.at(0).offset, {a.offset, b.offset}, r.members[0].components, 0,
         r.members.at(1).offset);
    return true;
  }
  case spv::OpVectorTimesScalar: {
    // One FMul per component, the scalar operand read for each.
    const Value &vector = operand(0), &scalar = operand(1);
    const Value &r = result();
    for (uint32_t c = 0; c < r.components; ++c)
      emit(runtime::binaryHandler(runtime::BinaryOp::FMul, r.scalar,
                                  Shape{r.varying, {vector.varying, scalar.varying}}),
           componentOffset(r, c), {componentOffset(vector, c), scalar.offset}, 1);
    return true;
  }
  case spv::OpDot:
    emitGeometric(builtins::Geometric::Dot, instruction, 0);
    return true;
  default:
    return false;
  }
}

// Integers of arbitrary width, kept zero-extended in the next wider register.

void KernelLowering::truncateNarrow(const Value &value) {
  if (!value.narrowBits || value.kind != Value::Kind::Register || value.scalar == Scalar::Bool)
    return;
  const uint32_t mask =
      splatConstant(value, (static_cast<unsigned __int128>(1) << value.narrowBits) - 1);
  emit(runtime::binaryHandler(runtime::BinaryOp::BitwiseAnd, value.scalar,
                              Shape{value.varying, {value.varying, false}}),
       value.offset, {value.offset, mask}, value.components);
}

void KernelLowering::checkNarrowOperation(const Value &operand, const Instruction &instruction) {
  if (!operand.narrowBits)
    return;
  switch (instruction.opcode) {
  case spv::OpSDiv:
  case spv::OpSRem:
  case spv::OpSMod:
  case spv::OpShiftRightArithmetic:
  case spv::OpSGreaterThan:
  case spv::OpSGreaterThanEqual:
  case spv::OpSLessThan:
  case spv::OpSLessThanEqual:
    fail(instruction, "signed operations on " + std::to_string(operand.narrowBits) +
                          "-bit integers are not supported");
  default:
    break;
  }
}

} // namespace lanewise::spirv::lowering
