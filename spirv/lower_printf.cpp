// SPDX-License-Identifier: Apache-2.0
// printf (OpenCL.std), bound to runtime/exec_printf.cpp.
#include "spirv/lowering.h"

#include "runtime/printf.h"

#include <spirv/unified1/OpenCL.std.h>

namespace lanewise::spirv::lowering {

namespace {

// The operand types of OpenCL SPIR-V Environment 3.0, 2.9 "Printf Operands"
// (there, an argument of another type is undefined behaviour; here it makes
// the printf fail). Scalar integer conversions take an integer of any width
// and convert it as the length modifier says; scalar floating-point ones a
// float of any width.
bool printfOperandMatches(const Module &module, const runtime::PrintfConversion &c,
                          const Type &type) {
  const bool vector = type.kind == Type::Kind::Vector;
  if (c.vectorSize) {
    // "The vector data type described by the vector specifier and length
    // modifier must match the data type of the argument".
    if (!vector || type.count != c.vectorSize)
      return false;
    const Type &element = typeOf(module, type.element);
    return element.kind == (c.isFloat() ? Type::Kind::Float : Type::Kind::Int) &&
           element.width == c.lengthBytes() * 8;
  }
  if (vector)
    return false;
  if (c.isInteger() || c.specifier == 'c')
    return type.kind == Type::Kind::Int && type.width <= 64;
  if (c.isFloat())
    return type.kind == Type::Kind::Float;
  return type.kind == Type::Kind::Pointer; // s, p
}

} // namespace

// printf (OpenCL C 3.0, 6.15.14). "The format is in the constant address
// space and must be resolvable at compile time": it is read from its
// variable's initializer and parsed here, once. An invalid format, a missing
// argument or an argument of the wrong type makes every execution return -1.
void KernelLowering::lowerPrintf(const Instruction &instruction) {
  const Value &r = values_.at(instruction.result);
  const std::optional<std::string> format = constantString(instruction.idOperand(2));
  if (!format)
    fail(instruction, "the format of printf must be a constant string known when the kernel is "
                      "built (OpenCL C 3.0, 6.15.14.2)");
  runtime::ParsedFormat parsed = runtime::parsePrintfFormat(*format);
  auto call = std::make_shared<runtime::PrintfCall>();
  call->valid = parsed.error.empty();
  size_t next = 3; // the first argument after the format
  for (runtime::PrintfPiece &piece : parsed.pieces) {
    if (!piece.isConversion) {
      call->pieces.push_back(std::move(piece));
      continue;
    }
    // "If there are insufficient arguments for the format, the behavior is
    // undefined."
    if (next >= instruction.operands.size()) {
      call->valid = false;
      break;
    }
    const uint32_t argument = instruction.idOperand(next++);
    const runtime::PrintfConversion &c = piece.conversion;
    if (c.specifier == 's')
      if (const auto text = constantString(argument)) {
        std::string literal;
        if (!runtime::appendPrintfString(literal, c, text->c_str())) {
          call->valid = false;
          break;
        }
        call->pieces.push_back({false, std::move(literal), {}});
        continue;
      }
    if (!printfOperandMatches(module_, c, typeOf(module_, typeOfId(argument, instruction)))) {
      call->valid = false;
      break;
    }
    const Value &value = use(argument, instruction);
    if (value.kind != Value::Kind::Register) {
      call->valid = false;
      break;
    }
    if (!maybeUndefined_.empty())
      checkDefined(argument, instruction, runtime::UndefinedUse::PrintfArgument);
    call->arguments.push_back({value.offset, value.varying, value.scalar, value.components});
    call->pieces.push_back(std::move(piece));
  }
  if (!call->valid) {
    call->pieces.clear();
    call->arguments.clear();
  }
  code_.tables.push_back(call);
  code_.usesPrintf = true;
  emit(runtime::printfHandler(), r.offset, {}, 1, r.varying ? 1 : 0, 0, call.get());
}

} // namespace lanewise::spirv::lowering
