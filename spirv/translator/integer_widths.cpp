// SPDX-License-Identifier: Apache-2.0
// Integers of widths SPIR-V has no type for, promoted before translation.
//
// OpenCL's SPIR-V environment has integers of 8, 16, 32 and 64 bits (and
// booleans). clang-14's optimiser makes others: IndVarSimplify replaces a
// loop that sums `i` by the closed form `n * (n - 1) / 2`, which SCEV
// computes one bit wider than the loop (an i33 for a uint loop, an i65 for
// a ulong or size_t one); the SLP vectoriser then makes `<2 x i33>` of two
// such sums; InstCombine narrows a switch's selector to the bits its cases
// need (`switch i4`). llvm-spirv-14 writes an i33 as a 64-bit OpTypeInt
// without declaring Int64, and other widths as types no SPIR-V consumer
// accepts.
//
// Each value of such a width N is rewritten as LLVM's type legalisation
// promotes it (the way PoCL's native code generator sees it):
// - N <= 64: an integer of the next standard width M, whose bits above N are
//   zero. An operation whose low N bits do not depend on the high bits (add,
//   sub, mul, shl) is done in M bits and masked; one that reads the high
//   bits as signs (ashr, sdiv, srem, a signed comparison, sext) first
//   sign-extends within M bits.
// - 64 < N <= 128 (scalars): two 64-bit halves, the high one holding bits
//   64 to N - 1 and zeros above; add and sub carry between the halves, mul
//   takes the high half of the low product from OpenCL C's mul_hi.
// What is not rewritten (a division of more than 64 bits, a call with such
// an argument) fails the build with the instruction named.

#include "fixups.h"
#include "legalise.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

namespace lanewise::translator {
namespace {

bool isStandardWidth(unsigned width) {
  return width == 1 || width == 8 || width == 16 || width == 32 || width == 64;
}

// The width of an integer or of a vector's integer components that SPIR-V
// lacks; 0 for every other type.
unsigned oddWidth(llvm::Type *type) {
  auto *integer = llvm::dyn_cast<llvm::IntegerType>(type->getScalarType());
  return integer && !isStandardWidth(integer->getBitWidth()) ? integer->getBitWidth() : 0;
}

// Whether `type` is a pointer to integers of an odd width (LLVM 14's typed
// pointers).
bool oddPointee(llvm::Type *type) {
  auto *pointer = llvm::dyn_cast<llvm::PointerType>(type);
  return pointer && !pointer->isOpaque() && oddWidth(pointer->getNonOpaquePointerElementType());
}

// Whether a value of `type` holds integers of an odd width: itself, or its
// array elements or struct members (pointers among them are not followed,
// so that a recursive struct ends the search).
bool holdsOddWidth(llvm::Type *type) {
  if (oddWidth(type))
    return true;
  if (auto *array = llvm::dyn_cast<llvm::ArrayType>(type))
    return holdsOddWidth(array->getElementType());
  if (auto *structure = llvm::dyn_cast<llvm::StructType>(type))
    for (llvm::Type *element : structure->elements())
      if (holdsOddWidth(element))
        return true;
  return false;
}

// Whether `type` holds odd widths or points to what does.
bool mentionsOddWidth(llvm::Type *type) {
  if (auto *pointer = llvm::dyn_cast<llvm::PointerType>(type); pointer && !pointer->isOpaque())
    return holdsOddWidth(pointer->getNonOpaquePointerElementType());
  return holdsOddWidth(type);
}

unsigned promotedWidth(unsigned width) {
  return width < 8 ? 8 : width < 16 ? 16 : width < 32 ? 32 : 64;
}

// A promoted value: `low` of the promoted type; for widths above 64, `high`
// holds bits 64 and up.
struct Promoted {
  llvm::Value *low = nullptr;
  llvm::Value *high = nullptr;
};

class Promoter : public FunctionRewrite {
public:
  explicit Promoter(llvm::Function &function) : function_(function) {}

  bool rewrite(llvm::Instruction &instruction) override;
  bool finish(std::string &error) override;

private:
  bool define(llvm::Instruction &instruction, unsigned width);
  bool defineWide(llvm::Instruction &instruction, unsigned width);
  bool use(llvm::Instruction &instruction);
  bool definePointer(llvm::Instruction &instruction);

  // The i8 pointer a pointer to odd widths was rewritten as; null for
  // others.
  llvm::Value *bytePointer(llvm::Value *pointer);
  llvm::Value *loadBytes(llvm::IRBuilder<> &builder, llvm::Value *bytes, unsigned offset,
                         unsigned count, const llvm::LoadInst &load);
  void storeBytes(llvm::IRBuilder<> &builder, llvm::Value *bytes, unsigned offset, unsigned count,
                  llvm::Value *value, const llvm::StoreInst &store);
  // What `load` reads, promoted; {} when it cannot be rewritten.
  Promoted loaded(llvm::IRBuilder<> &builder, llvm::LoadInst &load, unsigned width);
  bool stored(llvm::IRBuilder<> &builder, llvm::StoreInst &store);

  // The promoted form of `value`, a value of an odd width.
  Promoted promoted(llvm::Value *value);
  // `value` (of any integer width, odd or not) as an integer of `width`
  // bits (<= 64) or of its own promoted width, zero- or sign-extended.
  llvm::Value *extended(llvm::IRBuilder<> &builder, llvm::Value *value, bool sign);

  llvm::Type *promotedType(llvm::Type *type) const;
  // `value`'s low `width` bits, the rest cleared.
  static llvm::Value *masked(llvm::IRBuilder<> &builder, llvm::Value *value, unsigned width);
  // `value`'s low `width` bits sign-extended over the rest.
  static llvm::Value *signExtended(llvm::IRBuilder<> &builder, llvm::Value *value, unsigned width);
  llvm::Value *multiplyHigh(llvm::IRBuilder<> &builder, llvm::Value *a, llvm::Value *b);

  llvm::Function &function_;
  llvm::DenseMap<llvm::Value *, Promoted> promoted_;
  llvm::DenseMap<llvm::Value *, llvm::Value *> bytePointers_;
  llvm::SmallVector<std::pair<llvm::PHINode *, Promoted>, 8> phis_;
  bool failed_ = false;
};

llvm::Type *Promoter::promotedType(llvm::Type *type) const {
  llvm::Type *integer =
      llvm::IntegerType::get(type->getContext(), promotedWidth(type->getScalarSizeInBits()));
  if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type))
    return llvm::FixedVectorType::get(integer, vector->getNumElements());
  return integer;
}

llvm::Value *Promoter::masked(llvm::IRBuilder<> &builder, llvm::Value *value, unsigned width) {
  const unsigned full = value->getType()->getScalarSizeInBits();
  if (width >= full)
    return value;
  return builder.CreateAnd(
      value, llvm::ConstantInt::get(value->getType(), llvm::APInt::getLowBitsSet(full, width)));
}

llvm::Value *Promoter::signExtended(llvm::IRBuilder<> &builder, llvm::Value *value,
                                    unsigned width) {
  const unsigned full = value->getType()->getScalarSizeInBits();
  if (width >= full)
    return value;
  return builder.CreateAShr(builder.CreateShl(value, full - width), full - width);
}

// OpenCL C's mul_hi(ulong, ulong) (OpenCL.std u_mul_hi): the high 64 bits of
// the 128-bit product.
llvm::Value *Promoter::multiplyHigh(llvm::IRBuilder<> &builder, llvm::Value *a, llvm::Value *b) {
  llvm::Type *type = builder.getInt64Ty();
  llvm::FunctionCallee callee = function_.getParent()->getOrInsertFunction(
      "_Z6mul_himm", llvm::FunctionType::get(type, {type, type}, false));
  auto *declaration = llvm::cast<llvm::Function>(callee.getCallee());
  declaration->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  declaration->setDoesNotThrow();
  declaration->setDoesNotAccessMemory();
  llvm::CallInst *call = builder.CreateCall(callee, {a, b});
  call->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  return call;
}

Promoted Promoter::promoted(llvm::Value *value) {
  auto found = promoted_.find(value);
  if (found != promoted_.end())
    return found->second;
  llvm::Type *type = value->getType();
  const unsigned width = type->getScalarSizeInBits();
  llvm::LLVMContext &context = type->getContext();
  if (llvm::isa<llvm::UndefValue>(value)) { // poison too
    if (width <= 64)
      return {llvm::UndefValue::get(promotedType(type)), nullptr};
    return {llvm::UndefValue::get(llvm::Type::getInt64Ty(context)),
            llvm::UndefValue::get(llvm::Type::getInt64Ty(context))};
  }
  if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(value)) {
    const llvm::APInt bits = constant->getValue();
    if (width <= 64)
      return {llvm::ConstantInt::get(context, bits.zext(promotedWidth(width))), nullptr};
    const llvm::APInt wide = bits.zext(128);
    return {llvm::ConstantInt::get(context, wide.trunc(64)),
            llvm::ConstantInt::get(context, wide.lshr(64).trunc(64))};
  }
  if (auto *constant = llvm::dyn_cast<llvm::Constant>(value);
      constant && width <= 64 && type->isVectorTy()) {
    auto *vector = llvm::cast<llvm::FixedVectorType>(type);
    llvm::SmallVector<llvm::Constant *, 16> elements;
    for (unsigned i = 0; i < vector->getNumElements(); ++i) {
      llvm::Constant *element = constant->getAggregateElement(i);
      if (auto *integer = llvm::dyn_cast_or_null<llvm::ConstantInt>(element))
        elements.push_back(
            llvm::ConstantInt::get(context, integer->getValue().zext(promotedWidth(width))));
      else if (element && llvm::isa<llvm::UndefValue>(element))
        elements.push_back(llvm::UndefValue::get(promotedType(element->getType())));
      else
        failed_ = true;
    }
    if (!failed_)
      return {llvm::ConstantVector::get(elements), nullptr};
  }
  // An argument, a constant expression, or an instruction that could not be
  // rewritten: the rewrite fails.
  failed_ = true;
  if (width <= 64)
    return {llvm::UndefValue::get(promotedType(type)), nullptr};
  return {llvm::UndefValue::get(llvm::Type::getInt64Ty(context)),
          llvm::UndefValue::get(llvm::Type::getInt64Ty(context))};
}

llvm::Value *Promoter::extended(llvm::IRBuilder<> &builder, llvm::Value *value, bool sign) {
  const unsigned width = oddWidth(value->getType());
  if (!width)
    return value;
  llvm::Value *low = promoted(value).low;
  return sign ? signExtended(builder, low, width) : low;
}

bool Promoter::define(llvm::Instruction &instruction, unsigned width) {
  if (width > 64)
    return !instruction.getType()->isVectorTy() && defineWide(instruction, width);
  llvm::IRBuilder<> builder(&instruction);
  llvm::Type *type = promotedType(instruction.getType());
  llvm::Value *result = nullptr;
  auto operand = [&](unsigned i, bool sign) {
    return extended(builder, instruction.getOperand(i), sign);
  };
  if (auto *binary = llvm::dyn_cast<llvm::BinaryOperator>(&instruction)) {
    using Op = llvm::Instruction::BinaryOps;
    const Op opcode = binary->getOpcode();
    switch (opcode) {
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
    case Op::Shl:
      result =
          masked(builder, builder.CreateBinOp(opcode, operand(0, false), operand(1, false)), width);
      break;
    case Op::And:
    case Op::Or:
    case Op::Xor:
    case Op::LShr:
    case Op::UDiv:
    case Op::URem:
      result = builder.CreateBinOp(opcode, operand(0, false), operand(1, false));
      break;
    case Op::AShr:
      // The shift amount is unsigned; only the shifted value reads signs.
      result = masked(builder, builder.CreateAShr(operand(0, true), operand(1, false)), width);
      break;
    case Op::SDiv:
    case Op::SRem:
      result =
          masked(builder, builder.CreateBinOp(opcode, operand(0, true), operand(1, true)), width);
      break;
    default:
      return false;
    }
  } else if (auto *cast = llvm::dyn_cast<llvm::CastInst>(&instruction)) {
    llvm::Value *source = cast->getOperand(0);
    switch (cast->getOpcode()) {
    case llvm::Instruction::Trunc:
    case llvm::Instruction::ZExt:
    case llvm::Instruction::SExt: {
      if (oddWidth(source->getType()) > 64) {
        result = masked(builder, builder.CreateTrunc(promoted(source).low, type), width);
        break;
      }
      llvm::Value *value = extended(builder, source, cast->getOpcode() == llvm::Instruction::SExt);
      result = cast->getOpcode() == llvm::Instruction::SExt
                   ? builder.CreateSExtOrTrunc(value, type)
                   : builder.CreateZExtOrTrunc(value, type);
      if (cast->getOpcode() != llvm::Instruction::ZExt)
        result = masked(builder, result, width);
      break;
    }
    case llvm::Instruction::FPToUI:
    case llvm::Instruction::FPToSI:
      // Out of range is poison (LangRef); in range, the low bits are exact.
      result = masked(builder, builder.CreateCast(cast->getOpcode(), source, type), width);
      break;
    case llvm::Instruction::PtrToInt:
      result = masked(builder, builder.CreatePtrToInt(source, type), width);
      break;
    default:
      return false;
    }
  } else if (auto *select = llvm::dyn_cast<llvm::SelectInst>(&instruction)) {
    result = builder.CreateSelect(select->getCondition(), promoted(select->getTrueValue()).low,
                                  promoted(select->getFalseValue()).low);
  } else if (auto *phi = llvm::dyn_cast<llvm::PHINode>(&instruction)) {
    auto *made = builder.CreatePHI(type, phi->getNumIncomingValues(), phi->getName());
    phis_.push_back({phi, {made, nullptr}});
    result = made;
  } else if (auto *freeze = llvm::dyn_cast<llvm::FreezeInst>(&instruction)) {
    result = builder.CreateFreeze(promoted(freeze->getOperand(0)).low);
  } else if (auto *extract = llvm::dyn_cast<llvm::ExtractElementInst>(&instruction)) {
    result = builder.CreateExtractElement(promoted(extract->getVectorOperand()).low,
                                          extended(builder, extract->getIndexOperand(), false));
  } else if (auto *insert = llvm::dyn_cast<llvm::InsertElementInst>(&instruction)) {
    result = builder.CreateInsertElement(promoted(insert->getOperand(0)).low,
                                         promoted(insert->getOperand(1)).low,
                                         extended(builder, insert->getOperand(2), false));
  } else if (auto *shuffle = llvm::dyn_cast<llvm::ShuffleVectorInst>(&instruction)) {
    result = builder.CreateShuffleVector(promoted(shuffle->getOperand(0)).low,
                                         promoted(shuffle->getOperand(1)).low,
                                         shuffle->getShuffleMask());
  } else if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction)) {
    if (type->isVectorTy())
      return false;
    const Promoted value = loaded(builder, *load, width);
    result = value.low ? builder.CreateZExtOrTrunc(value.low, type) : nullptr;
    if (!result)
      return false;
  } else if (auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction)) {
    using ID = llvm::Intrinsic::ID;
    const ID id = call->getIntrinsicID();
    auto argument = [&](unsigned i, bool sign) {
      return extended(builder, call->getArgOperand(i), sign);
    };
    switch (id) {
    case llvm::Intrinsic::umin:
    case llvm::Intrinsic::umax:
      result = builder.CreateBinaryIntrinsic(id, argument(0, false), argument(1, false));
      break;
    case llvm::Intrinsic::smin:
    case llvm::Intrinsic::smax:
      result = masked(
          builder, builder.CreateBinaryIntrinsic(id, argument(0, true), argument(1, true)), width);
      break;
    case llvm::Intrinsic::abs:
      result = masked(builder,
                      builder.CreateBinaryIntrinsic(id, argument(0, true), call->getArgOperand(1)),
                      width);
      break;
    case llvm::Intrinsic::ctpop:
      result = builder.CreateUnaryIntrinsic(id, argument(0, false));
      break;
    case llvm::Intrinsic::ctlz: {
      // The promoted value has M - N more leading zeros.
      llvm::Value *count =
          builder.CreateBinaryIntrinsic(id, argument(0, false), call->getArgOperand(1));
      result = builder.CreateSub(count,
                                 llvm::ConstantInt::get(type, type->getScalarSizeInBits() - width));
      break;
    }
    case llvm::Intrinsic::cttz: {
      // A zero of N bits has N trailing zeros: bit N is set to stop there.
      llvm::Value *bounded = builder.CreateOr(
          argument(0, false),
          llvm::ConstantInt::get(type,
                                 llvm::APInt::getOneBitSet(type->getScalarSizeInBits(), width)));
      result = builder.CreateBinaryIntrinsic(id, bounded, call->getArgOperand(1));
      break;
    }
    default:
      return false;
    }
  } else {
    return false;
  }
  if (failed_)
    return false;
  promoted_[&instruction] = {result, nullptr};
  replaced.push_back(&instruction);
  return true;
}

// Integers of 65 to 128 bits, as two 64-bit halves.
bool Promoter::defineWide(llvm::Instruction &instruction, unsigned width) {
  llvm::IRBuilder<> builder(&instruction);
  llvm::Type *half = builder.getInt64Ty();
  llvm::Value *zero = llvm::ConstantInt::get(half, 0);
  const unsigned highWidth = width - 64;
  Promoted result;
  if (auto *binary = llvm::dyn_cast<llvm::BinaryOperator>(&instruction)) {
    using Op = llvm::Instruction::BinaryOps;
    const Promoted a = promoted(binary->getOperand(0)), b = promoted(binary->getOperand(1));
    switch (binary->getOpcode()) {
    case Op::Add: {
      result.low = builder.CreateAdd(a.low, b.low);
      llvm::Value *carry = builder.CreateZExt(builder.CreateICmpULT(result.low, a.low), half);
      result.high =
          masked(builder, builder.CreateAdd(builder.CreateAdd(a.high, b.high), carry), highWidth);
      break;
    }
    case Op::Sub: {
      result.low = builder.CreateSub(a.low, b.low);
      llvm::Value *borrow = builder.CreateZExt(builder.CreateICmpULT(a.low, b.low), half);
      result.high =
          masked(builder, builder.CreateSub(builder.CreateSub(a.high, b.high), borrow), highWidth);
      break;
    }
    case Op::Mul: {
      // (aH 2^64 + aL)(bH 2^64 + bL) mod 2^128.
      result.low = builder.CreateMul(a.low, b.low);
      llvm::Value *high = builder.CreateAdd(
          multiplyHigh(builder, a.low, b.low),
          builder.CreateAdd(builder.CreateMul(a.low, b.high), builder.CreateMul(a.high, b.low)));
      result.high = masked(builder, high, highWidth);
      break;
    }
    case Op::And:
    case Op::Or:
    case Op::Xor:
      result = {builder.CreateBinOp(binary->getOpcode(), a.low, b.low),
                builder.CreateBinOp(binary->getOpcode(), a.high, b.high)};
      break;
    case Op::Shl:
    case Op::LShr:
    case Op::AShr: {
      // Constant amounts, the only ones SCEV's expansions shift by.
      auto *amount = llvm::dyn_cast<llvm::ConstantInt>(binary->getOperand(1));
      if (!amount || amount->getValue().uge(width))
        return false;
      const unsigned shift = static_cast<unsigned>(amount->getZExtValue());
      if (shift == 0) {
        result = a;
        break;
      }
      llvm::Value *high =
          binary->getOpcode() == Op::AShr ? signExtended(builder, a.high, highWidth) : a.high;
      if (binary->getOpcode() == Op::Shl) {
        if (shift < 64) {
          result.low = builder.CreateShl(a.low, shift);
          result.high = builder.CreateOr(builder.CreateShl(high, shift),
                                         builder.CreateLShr(a.low, 64 - shift));
        } else {
          result = {zero, shift == 64 ? a.low : builder.CreateShl(a.low, shift - 64)};
        }
      } else {
        const bool arithmetic = binary->getOpcode() == Op::AShr;
        auto shiftRight = [&](llvm::Value *value, unsigned by) {
          return arithmetic ? builder.CreateAShr(value, by) : builder.CreateLShr(value, by);
        };
        if (shift < 64) {
          result.low = builder.CreateOr(builder.CreateLShr(a.low, shift),
                                        builder.CreateShl(high, 64 - shift));
          result.high = shiftRight(high, shift);
        } else {
          result = {shift == 64 ? high : shiftRight(high, shift - 64),
                    arithmetic ? builder.CreateAShr(high, 63) : zero};
        }
      }
      result.high = masked(builder, result.high, highWidth);
      break;
    }
    default:
      return false;
    }
  } else if (auto *cast = llvm::dyn_cast<llvm::CastInst>(&instruction)) {
    llvm::Value *source = cast->getOperand(0);
    const unsigned sourceWidth = source->getType()->getScalarSizeInBits();
    const bool sign = cast->getOpcode() == llvm::Instruction::SExt;
    if (cast->getOpcode() != llvm::Instruction::ZExt && !sign &&
        cast->getOpcode() != llvm::Instruction::Trunc)
      return false;
    if (sourceWidth > 64) {
      // Between two widths above 64 bits.
      const Promoted value = promoted(source);
      result.low = value.low;
      result.high =
          masked(builder, sign ? signExtended(builder, value.high, sourceWidth - 64) : value.high,
                 highWidth);
    } else {
      llvm::Value *value = extended(builder, source, sign);
      value =
          sign ? builder.CreateSExtOrTrunc(value, half) : builder.CreateZExtOrTrunc(value, half);
      result = {value, sign ? masked(builder, builder.CreateAShr(value, 63), highWidth) : zero};
    }
  } else if (auto *select = llvm::dyn_cast<llvm::SelectInst>(&instruction)) {
    const Promoted a = promoted(select->getTrueValue()), b = promoted(select->getFalseValue());
    result = {builder.CreateSelect(select->getCondition(), a.low, b.low),
              builder.CreateSelect(select->getCondition(), a.high, b.high)};
  } else if (auto *phi = llvm::dyn_cast<llvm::PHINode>(&instruction)) {
    result = {builder.CreatePHI(half, phi->getNumIncomingValues(), phi->getName() + ".lo"),
              builder.CreatePHI(half, phi->getNumIncomingValues(), phi->getName() + ".hi")};
    phis_.push_back({phi, result});
  } else if (auto *freeze = llvm::dyn_cast<llvm::FreezeInst>(&instruction)) {
    const Promoted value = promoted(freeze->getOperand(0));
    result = {builder.CreateFreeze(value.low), builder.CreateFreeze(value.high)};
  } else if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction)) {
    result = loaded(builder, *load, width);
    if (!result.low)
      return false;
  } else {
    return false;
  }
  if (failed_)
    return false;
  promoted_[&instruction] = result;
  replaced.push_back(&instruction);
  return true;
}

// An instruction of a standard type with an operand of an odd width.
bool Promoter::use(llvm::Instruction &instruction) {
  llvm::IRBuilder<> builder(&instruction);
  llvm::Value *replacement = nullptr;
  if (auto *compare = llvm::dyn_cast<llvm::ICmpInst>(&instruction)) {
    llvm::Value *a = compare->getOperand(0), *b = compare->getOperand(1);
    const bool sign = compare->isSigned();
    if (oddWidth(a->getType()) > 64) {
      if (a->getType()->isVectorTy())
        return false;
      const unsigned highWidth = oddWidth(a->getType()) - 64;
      const Promoted x = promoted(a), y = promoted(b);
      llvm::Value *xHigh = sign ? signExtended(builder, x.high, highWidth) : x.high;
      llvm::Value *yHigh = sign ? signExtended(builder, y.high, highWidth) : y.high;
      using P = llvm::CmpInst::Predicate;
      const P predicate = compare->getPredicate();
      if (predicate == P::ICMP_EQ || predicate == P::ICMP_NE) {
        llvm::Value *equal = builder.CreateAnd(builder.CreateICmpEQ(x.low, y.low),
                                               builder.CreateICmpEQ(xHigh, yHigh));
        replacement = predicate == P::ICMP_EQ ? equal : builder.CreateNot(equal);
      } else {
        // The high halves decide, and the low ones (unsigned) when equal.
        replacement = builder.CreateSelect(
            builder.CreateICmpEQ(xHigh, yHigh),
            builder.CreateICmp(llvm::CmpInst::getUnsignedPredicate(predicate), x.low, y.low),
            builder.CreateICmp(predicate, xHigh, yHigh));
      }
    } else {
      replacement = builder.CreateICmp(compare->getPredicate(), extended(builder, a, sign),
                                       extended(builder, b, sign));
    }
  } else if (auto *cast = llvm::dyn_cast<llvm::CastInst>(&instruction)) {
    llvm::Value *source = cast->getOperand(0);
    llvm::Type *type = cast->getType();
    const unsigned sourceWidth = oddWidth(source->getType());
    switch (cast->getOpcode()) {
    case llvm::Instruction::Trunc:
      // To a standard width below the source's.
      replacement = builder.CreateTrunc(promoted(source).low, type); // no-op when as wide
      break;
    case llvm::Instruction::ZExt:
    case llvm::Instruction::SExt: {
      if (sourceWidth > 64)
        return false; // no standard width is wider
      const bool sign = cast->getOpcode() == llvm::Instruction::SExt;
      llvm::Value *value = extended(builder, source, sign);
      replacement =
          sign ? builder.CreateSExtOrTrunc(value, type) : builder.CreateZExtOrTrunc(value, type);
      break;
    }
    case llvm::Instruction::UIToFP:
    case llvm::Instruction::SIToFP:
      if (sourceWidth > 64)
        return false;
      replacement = builder.CreateCast(
          cast->getOpcode(),
          extended(builder, source, cast->getOpcode() == llvm::Instruction::SIToFP), type);
      break;
    case llvm::Instruction::IntToPtr:
      if (sourceWidth > 64)
        return false;
      replacement = builder.CreateIntToPtr(extended(builder, source, false), type);
      break;
    default:
      return false;
    }
  } else if (auto *sw = llvm::dyn_cast<llvm::SwitchInst>(&instruction)) {
    const unsigned width = oddWidth(sw->getCondition()->getType());
    if (width > 64)
      return false;
    sw->setCondition(extended(builder, sw->getCondition(), false));
    for (auto &branch : sw->cases())
      branch.setValue(llvm::ConstantInt::get(
          sw->getContext(), branch.getCaseValue()->getValue().zext(promotedWidth(width))));
    return !failed_; // changed in place
  } else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction)) {
    if (!stored(builder, *store))
      return false;
  } else if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(&instruction)) {
    // An index is sign-extended to the pointer's width (LangRef).
    for (llvm::Use &index : gep->indices()) {
      const unsigned width = oddWidth(index->getType());
      if (width > 64 || (width && index->getType()->isVectorTy()))
        return false;
      if (width)
        index.set(builder.CreateSExt(extended(builder, index.get(), true), builder.getInt64Ty()));
    }
    return !failed_; // changed in place
  } else {
    return false;
  }
  if (failed_ || (!replacement && !instruction.getType()->isVoidTy()))
    return false;
  if (replacement)
    instruction.replaceAllUsesWith(replacement);
  replaced.push_back(&instruction);
  return true;
}

bool Promoter::rewrite(llvm::Instruction &instruction) {
  llvm::Type *type = instruction.getType();
  if (const unsigned width = oddWidth(type))
    return define(instruction, width);
  if (oddPointee(type))
    return definePointer(instruction);
  if (mentionsOddWidth(type))
    return false; // an aggregate of odd widths
  // A pointer to odd widths cast to another pointer.
  if (auto *cast = llvm::dyn_cast<llvm::BitCastInst>(&instruction))
    if (oddPointee(cast->getSrcTy())) {
      llvm::Value *bytes = bytePointer(cast->getOperand(0));
      if (!bytes)
        return false;
      llvm::IRBuilder<> builder(cast);
      cast->replaceAllUsesWith(builder.CreateBitCast(bytes, type));
      replaced.push_back(cast);
      return true;
    }
  return use(instruction);
}

bool Promoter::definePointer(llvm::Instruction &instruction) {
  llvm::IRBuilder<> builder(&instruction);
  llvm::Type *bytes = builder.getInt8PtrTy(instruction.getType()->getPointerAddressSpace());
  llvm::Value *result = nullptr;
  if (auto *cast = llvm::dyn_cast<llvm::BitCastInst>(&instruction)) {
    llvm::Value *source = cast->getOperand(0);
    llvm::Value *known = bytePointer(source);
    result = builder.CreateBitCast(known ? known : source, bytes);
  } else if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(&instruction)) {
    // gep iN, p, k: k times iN's allocation size (SPIR's data layout).
    llvm::Value *base = bytePointer(gep->getPointerOperand());
    llvm::Type *element = gep->getSourceElementType();
    if (!base || gep->getNumIndices() != 1 || !oddWidth(element) || element->isVectorTy())
      return false;
    const uint64_t size = function_.getParent()->getDataLayout().getTypeAllocSize(element);
    llvm::Value *index = builder.CreateSExtOrTrunc(gep->getOperand(1), builder.getInt64Ty());
    result = builder.CreateGEP(builder.getInt8Ty(), base,
                               builder.CreateMul(index, builder.getInt64(size)));
  } else {
    return false;
  }
  bytePointers_[&instruction] = result;
  replaced.push_back(&instruction);
  return true;
}

llvm::Value *Promoter::bytePointer(llvm::Value *pointer) {
  auto found = bytePointers_.find(pointer);
  return found == bytePointers_.end() ? nullptr : found->second;
}

// `count` bytes (at most 8) at `offset` from `bytes`, little-endian (SPIR's
// data layout), in an i64.
llvm::Value *Promoter::loadBytes(llvm::IRBuilder<> &builder, llvm::Value *bytes, unsigned offset,
                                 unsigned count, const llvm::LoadInst &load) {
  llvm::Value *result = nullptr;
  for (unsigned i = 0; i < count; ++i) {
    llvm::Value *address =
        builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), bytes, offset + i);
    llvm::Value *byte = builder.CreateZExt(
        builder.CreateAlignedLoad(builder.getInt8Ty(), address,
                                  llvm::commonAlignment(load.getAlign(), offset + i),
                                  load.isVolatile()),
        builder.getInt64Ty());
    byte = i ? builder.CreateShl(byte, 8 * i) : byte;
    result = result ? builder.CreateOr(result, byte) : byte;
  }
  return result;
}

void Promoter::storeBytes(llvm::IRBuilder<> &builder, llvm::Value *bytes, unsigned offset,
                          unsigned count, llvm::Value *value, const llvm::StoreInst &store) {
  value = builder.CreateZExt(value, builder.getInt64Ty());
  for (unsigned i = 0; i < count; ++i) {
    llvm::Value *address =
        builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), bytes, offset + i);
    llvm::Value *byte =
        builder.CreateTrunc(i ? builder.CreateLShr(value, 8 * i) : value, builder.getInt8Ty());
    builder.CreateAlignedStore(byte, address, llvm::commonAlignment(store.getAlign(), offset + i),
                               store.isVolatile());
  }
}

// An integer of whole bytes in memory: 64-bit halves where the width allows,
// bytes for the rest. LLVM leaves the bits past a width that is not whole
// bytes unspecified, and atomic accesses of odd widths do not exist in
// OpenCL C: both fail.
Promoted Promoter::loaded(llvm::IRBuilder<> &builder, llvm::LoadInst &load, unsigned width) {
  llvm::Value *bytes = bytePointer(load.getPointerOperand());
  if (!bytes || width % 8 || load.isAtomic())
    return {};
  auto part = [&](unsigned offset, unsigned count) -> llvm::Value * {
    if (count < 8)
      return loadBytes(builder, bytes, offset, count, load);
    llvm::Value *address = builder.CreateBitCast(
        builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), bytes, offset),
        builder.getInt64Ty()->getPointerTo(load.getPointerAddressSpace()));
    return builder.CreateAlignedLoad(builder.getInt64Ty(), address,
                                     llvm::commonAlignment(load.getAlign(), offset),
                                     load.isVolatile());
  };
  if (width <= 64)
    return {part(0, width / 8), nullptr};
  return {part(0, 8), part(8, width / 8 - 8)};
}

bool Promoter::stored(llvm::IRBuilder<> &builder, llvm::StoreInst &store) {
  llvm::Value *value = store.getValueOperand();
  const unsigned width = oddWidth(value->getType());
  llvm::Value *bytes = bytePointer(store.getPointerOperand());
  if (!width || !bytes || width % 8 || store.isAtomic() || value->getType()->isVectorTy())
    return false;
  const Promoted parts = promoted(value);
  auto part = [&](unsigned offset, unsigned count, llvm::Value *bits) {
    if (count < 8)
      return storeBytes(builder, bytes, offset, count, bits, store);
    llvm::Value *address = builder.CreateBitCast(
        builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), bytes, offset),
        builder.getInt64Ty()->getPointerTo(store.getPointerAddressSpace()));
    builder.CreateAlignedStore(bits, address, llvm::commonAlignment(store.getAlign(), offset),
                               store.isVolatile());
  };
  if (width <= 64) {
    part(0, width / 8, parts.low);
  } else {
    part(0, 8, parts.low);
    part(8, width / 8 - 8, parts.high);
  }
  return !failed_;
}

bool Promoter::finish(std::string &error) {
  for (auto &[phi, made] : phis_)
    for (unsigned i = 0; i < phi->getNumIncomingValues(); ++i) {
      const Promoted incoming = promoted(phi->getIncomingValue(i));
      if (failed_) {
        error = "a phi of an integer width SPIR-V does not have has an incoming value that was "
                "not rewritten: " +
                describe(*phi);
        return false;
      }
      llvm::BasicBlock *from = phi->getIncomingBlock(i);
      llvm::cast<llvm::PHINode>(made.low)->addIncoming(incoming.low, from);
      if (made.high)
        llvm::cast<llvm::PHINode>(made.high)->addIncoming(incoming.high, from);
    }
  return true;
}

} // namespace

bool legaliseIntegerWidths(llvm::Module &module, size_t &rewritten, std::string &error) {
  const Legalisation integers{
      mentionsOddWidth, "an integer width SPIR-V does not have",
      "SPIR-V's integer widths (8, 16, 32, 64 bits)",
      [](llvm::Function &function) { return std::make_unique<Promoter>(function); }};
  return legalise(module, integers, rewritten, error);
}

} // namespace lanewise::translator
