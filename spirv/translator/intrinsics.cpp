// SPDX-License-Identifier: Apache-2.0
// LLVM intrinsics that llvm-spirv-14 does not translate, or translates into
// what an OpenCL environment rejects, expanded into the instructions they
// stand for. clang-14's optimiser makes them from plain OpenCL C:
// InstCombine recognises a bit-reversal ladder, `s < a ? UINT_MAX : s`
// after `s = a + b`, a clamp of a widened sum; clang's
// __builtin_*_overflow, __builtin_reduce_* and __builtin_prefetch are
// calls to them. Each expansion is the
// intrinsic's definition in LLVM's LangRef, in integer instructions every
// SPIR-V Kernel module has, for scalars and vectors alike.
//
// Every other intrinsic is checked against those llvm-spirv-14 handles:
// on one it does not know, llvm-spirv-14 aborts ("Unexpected llvm
// intrinsic"); the build fails instead, naming it.
#include "fixups.h"

#include <vector>

#include <llvm/ADT/APInt.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

#include "legalise.h"

namespace lanewise::translator {
namespace {

// The intrinsics llvm-spirv-14 translates as they are: those its writer
// knows (SPIRVWriter.cpp, isKnownIntrinsic) and those the passes before it
// lower (SPIRVRegularizeLLVM: memset, bswap, fshl, fshr;
// SPIRVLowerMemmove). Not sadd.with.overflow, whose lowering
// (SPIRVLowerSaddWithOverflow) knows 16, 32 and 64 bits and aborts on 8,
// nor umul.with.overflow, whose lowering compares a * b / a with a
// instead of b (and divides by a = 0).
bool translated(llvm::Intrinsic::ID id) {
  switch (id) {
  case llvm::Intrinsic::abs:
  case llvm::Intrinsic::assume:
  case llvm::Intrinsic::ceil:
  case llvm::Intrinsic::copysign:
  case llvm::Intrinsic::cos:
  case llvm::Intrinsic::exp:
  case llvm::Intrinsic::exp2:
  case llvm::Intrinsic::fabs:
  case llvm::Intrinsic::floor:
  case llvm::Intrinsic::fma:
  case llvm::Intrinsic::log:
  case llvm::Intrinsic::log10:
  case llvm::Intrinsic::log2:
  case llvm::Intrinsic::maximum:
  case llvm::Intrinsic::maxnum:
  case llvm::Intrinsic::minimum:
  case llvm::Intrinsic::minnum:
  case llvm::Intrinsic::smax:
  case llvm::Intrinsic::smin:
  case llvm::Intrinsic::umax:
  case llvm::Intrinsic::umin:
  case llvm::Intrinsic::nearbyint:
  case llvm::Intrinsic::pow:
  case llvm::Intrinsic::powi:
  case llvm::Intrinsic::rint:
  case llvm::Intrinsic::round:
  case llvm::Intrinsic::roundeven:
  case llvm::Intrinsic::sin:
  case llvm::Intrinsic::sqrt:
  case llvm::Intrinsic::trunc:
  case llvm::Intrinsic::ctpop:
  case llvm::Intrinsic::ctlz:
  case llvm::Intrinsic::cttz:
  case llvm::Intrinsic::expect:
  case llvm::Intrinsic::experimental_noalias_scope_decl:
  case llvm::Intrinsic::experimental_constrained_fadd:
  case llvm::Intrinsic::experimental_constrained_fsub:
  case llvm::Intrinsic::experimental_constrained_fmul:
  case llvm::Intrinsic::experimental_constrained_fdiv:
  case llvm::Intrinsic::experimental_constrained_frem:
  case llvm::Intrinsic::experimental_constrained_fma:
  case llvm::Intrinsic::experimental_constrained_fptoui:
  case llvm::Intrinsic::experimental_constrained_fptosi:
  case llvm::Intrinsic::experimental_constrained_uitofp:
  case llvm::Intrinsic::experimental_constrained_sitofp:
  case llvm::Intrinsic::experimental_constrained_fptrunc:
  case llvm::Intrinsic::experimental_constrained_fpext:
  case llvm::Intrinsic::experimental_constrained_fcmp:
  case llvm::Intrinsic::experimental_constrained_fcmps:
  case llvm::Intrinsic::experimental_constrained_fmuladd:
  case llvm::Intrinsic::fmuladd:
  case llvm::Intrinsic::usub_sat:
  case llvm::Intrinsic::memset:
  case llvm::Intrinsic::memcpy:
  case llvm::Intrinsic::memmove:
  case llvm::Intrinsic::bswap:
  case llvm::Intrinsic::fshl:
  case llvm::Intrinsic::fshr:
  case llvm::Intrinsic::lifetime_start:
  case llvm::Intrinsic::lifetime_end:
  case llvm::Intrinsic::dbg_declare:
  case llvm::Intrinsic::dbg_value:
  case llvm::Intrinsic::dbg_label:
  case llvm::Intrinsic::annotation:
  case llvm::Intrinsic::var_annotation:
  case llvm::Intrinsic::ptr_annotation:
  case llvm::Intrinsic::invariant_start:
  case llvm::Intrinsic::invariant_end:
  case llvm::Intrinsic::is_constant:
  case llvm::Intrinsic::trap:
  case llvm::Intrinsic::arithmetic_fence:
    return true;
  default:
    return false;
  }
}

// `run` one bits, `run` zero bits, repeated from the lowest bit up, in
// every component of `type`: 0x55..., 0x33..., 0x0f..., 0x00ff..., ...
llvm::Constant *alternatingMask(llvm::Type *type, unsigned run) {
  const unsigned width = type->getScalarSizeInBits();
  llvm::APInt mask(width, 0);
  for (unsigned bit = 0; bit < width; ++bit)
    if ((bit / run) % 2 == 0)
      mask.setBit(bit);
  return llvm::ConstantInt::get(type, mask);
}

// llvm.bitreverse: bit i of the result is bit width-1-i of `x`. Adjacent
// runs of 1, 2, 4, ... bits swap places, log2(width) steps (OpBitReverse,
// what llvm-spirv-14 writes, needs the Shader capability, which a Kernel
// module may not declare). A bool is its own reversal.
llvm::Value *bitReverse(llvm::IRBuilder<> &builder, llvm::Value *x) {
  llvm::Type *type = x->getType();
  for (unsigned run = 1; run < type->getScalarSizeInBits(); run *= 2) {
    llvm::Constant *low = alternatingMask(type, run);
    llvm::Constant *shift = llvm::ConstantInt::get(type, run);
    x = builder.CreateOr(builder.CreateAnd(builder.CreateLShr(x, shift), low),
                         builder.CreateShl(builder.CreateAnd(x, low), shift), "bitreverse");
  }
  return x;
}

llvm::Value *isNegative(llvm::IRBuilder<> &builder, llvm::Value *x) {
  return builder.CreateICmpSLT(x, llvm::Constant::getNullValue(x->getType()));
}

// Whether a + b (`sum`) overflowed as signed: both operands have a sign
// the sum lacks.
llvm::Value *signedAddOverflows(llvm::IRBuilder<> &builder, llvm::Value *a, llvm::Value *b,
                                llvm::Value *sum) {
  return isNegative(builder,
                    builder.CreateAnd(builder.CreateXor(a, sum), builder.CreateXor(b, sum)));
}

// Whether a - b (`difference`) overflowed as signed: the operands' signs
// differ and the difference's is not a's.
llvm::Value *signedSubOverflows(llvm::IRBuilder<> &builder, llvm::Value *a, llvm::Value *b,
                                llvm::Value *difference) {
  return isNegative(builder,
                    builder.CreateAnd(builder.CreateXor(a, b), builder.CreateXor(a, difference)));
}

// Whether a * b (`product`, wrapped) overflowed as signed. Without
// overflow, product / a is b; with it, product differs from a * b by a
// multiple of 2^width, more than |a|, and the quotient is not b. a = 0
// never overflows; a = -1 overflows for b = MIN alone (and product / -1
// would itself overflow), so both divide by 1 instead.
llvm::Value *signedMulOverflows(llvm::IRBuilder<> &builder, llvm::Value *a, llvm::Value *b,
                                llvm::Value *product) {
  llvm::Type *type = a->getType();
  const unsigned width = type->getScalarSizeInBits();
  llvm::Value *zero = builder.CreateICmpEQ(a, llvm::Constant::getNullValue(type));
  llvm::Value *minusOne = builder.CreateICmpEQ(a, llvm::Constant::getAllOnesValue(type));
  llvm::Value *divisor =
      builder.CreateSelect(builder.CreateOr(zero, minusOne), llvm::ConstantInt::get(type, 1), a);
  llvm::Value *quotientDiffers = builder.CreateICmpNE(builder.CreateSDiv(product, divisor), b);
  llvm::Value *bIsMin =
      builder.CreateICmpEQ(b, llvm::ConstantInt::get(type, llvm::APInt::getSignedMinValue(width)));
  return builder.CreateSelect(zero, llvm::ConstantInt::getFalse(zero->getType()),
                              builder.CreateSelect(minusOne, bIsMin, quotientDiffers));
}

// Whether a * b (`product`, wrapped) overflowed as unsigned: a is not 0 and
// product / a is not b (see signedMulOverflows).
llvm::Value *unsignedMulOverflows(llvm::IRBuilder<> &builder, llvm::Value *a, llvm::Value *b,
                                  llvm::Value *product) {
  llvm::Type *type = a->getType();
  llvm::Value *zero = builder.CreateICmpEQ(a, llvm::Constant::getNullValue(type));
  llvm::Value *divisor = builder.CreateSelect(zero, llvm::ConstantInt::get(type, 1), a);
  llvm::Value *quotientDiffers = builder.CreateICmpNE(builder.CreateUDiv(product, divisor), b);
  return builder.CreateAnd(builder.CreateNot(zero), quotientDiffers);
}

// The value a saturating signed operation gives on overflow: the bound on
// a's side of zero.
llvm::Value *signedBound(llvm::IRBuilder<> &builder, llvm::Value *a) {
  llvm::Type *type = a->getType();
  const unsigned width = type->getScalarSizeInBits();
  return builder.CreateSelect(isNegative(builder, a),
                              llvm::ConstantInt::get(type, llvm::APInt::getSignedMinValue(width)),
                              llvm::ConstantInt::get(type, llvm::APInt::getSignedMaxValue(width)));
}

// Replaces the {result, overflow} pair `call` returns: the extractvalues of
// it by the two values, other uses by the pair rebuilt.
void replacePair(llvm::IRBuilder<> &builder, llvm::CallInst *call, llvm::Value *result,
                 llvm::Value *overflow) {
  std::vector<llvm::ExtractValueInst *> extracts;
  for (llvm::User *user : call->users())
    if (auto *extract = llvm::dyn_cast<llvm::ExtractValueInst>(user);
        extract && extract->getNumIndices() == 1)
      extracts.push_back(extract);
  for (llvm::ExtractValueInst *extract : extracts) {
    extract->replaceAllUsesWith(extract->getIndices()[0] == 0 ? result : overflow);
    extract->eraseFromParent();
  }
  if (!call->use_empty()) {
    llvm::Value *pair =
        builder.CreateInsertValue(llvm::PoisonValue::get(call->getType()), result, 0);
    call->replaceAllUsesWith(builder.CreateInsertValue(pair, overflow, 1));
  }
}

// llvm.vector.reduce.* of the kinds clang's __builtin_reduce_{max,min,
// and,or,xor} make: the components folded from the first, with the
// two-operand intrinsic or instruction (fmax and fmin: llvm.maxnum and
// llvm.minnum, whose NaN rule the reductions share).
llvm::Value *reduce(llvm::IRBuilder<> &builder, llvm::Intrinsic::ID id, llvm::Value *vector) {
  llvm::Intrinsic::ID pairwise = llvm::Intrinsic::not_intrinsic;
  llvm::Instruction::BinaryOps bitwise = llvm::Instruction::BinaryOpsEnd;
  switch (id) {
  case llvm::Intrinsic::vector_reduce_and:
    bitwise = llvm::Instruction::And;
    break;
  case llvm::Intrinsic::vector_reduce_or:
    bitwise = llvm::Instruction::Or;
    break;
  case llvm::Intrinsic::vector_reduce_xor:
    bitwise = llvm::Instruction::Xor;
    break;
  case llvm::Intrinsic::vector_reduce_smax:
    pairwise = llvm::Intrinsic::smax;
    break;
  case llvm::Intrinsic::vector_reduce_smin:
    pairwise = llvm::Intrinsic::smin;
    break;
  case llvm::Intrinsic::vector_reduce_umax:
    pairwise = llvm::Intrinsic::umax;
    break;
  case llvm::Intrinsic::vector_reduce_umin:
    pairwise = llvm::Intrinsic::umin;
    break;
  case llvm::Intrinsic::vector_reduce_fmax:
    pairwise = llvm::Intrinsic::maxnum;
    break;
  case llvm::Intrinsic::vector_reduce_fmin:
    pairwise = llvm::Intrinsic::minnum;
    break;
  default:
    return nullptr;
  }
  const unsigned count = llvm::cast<llvm::FixedVectorType>(vector->getType())->getNumElements();
  llvm::Value *total = builder.CreateExtractElement(vector, uint64_t(0));
  for (unsigned i = 1; i < count; ++i) {
    llvm::Value *component = builder.CreateExtractElement(vector, i);
    total = pairwise != llvm::Intrinsic::not_intrinsic
                ? builder.CreateBinaryIntrinsic(pairwise, total, component)
                : builder.CreateBinOp(bitwise, total, component);
  }
  return total;
}

// Expands `call`; false for an intrinsic this pass does not expand.
bool expand(llvm::CallInst *call, llvm::Intrinsic::ID id) {
  llvm::IRBuilder<> builder(call);
  llvm::Value *a = call->arg_size() > 0 ? call->getArgOperand(0) : nullptr;
  llvm::Value *b = call->arg_size() > 1 ? call->getArgOperand(1) : nullptr;
  llvm::Value *replacement = nullptr;
  switch (id) {
  case llvm::Intrinsic::bitreverse:
    replacement = bitReverse(builder, a);
    break;
  case llvm::Intrinsic::uadd_sat: {
    llvm::Value *sum = builder.CreateAdd(a, b);
    replacement = builder.CreateSelect(builder.CreateICmpULT(sum, a),
                                       llvm::Constant::getAllOnesValue(a->getType()), sum);
    break;
  }
  case llvm::Intrinsic::sadd_sat: {
    llvm::Value *sum = builder.CreateAdd(a, b);
    replacement =
        builder.CreateSelect(signedAddOverflows(builder, a, b, sum), signedBound(builder, a), sum);
    break;
  }
  case llvm::Intrinsic::ssub_sat: {
    llvm::Value *difference = builder.CreateSub(a, b);
    replacement = builder.CreateSelect(signedSubOverflows(builder, a, b, difference),
                                       signedBound(builder, a), difference);
    break;
  }
  case llvm::Intrinsic::uadd_with_overflow: {
    llvm::Value *sum = builder.CreateAdd(a, b);
    replacePair(builder, call, sum, builder.CreateICmpULT(sum, a));
    break;
  }
  case llvm::Intrinsic::sadd_with_overflow: {
    llvm::Value *sum = builder.CreateAdd(a, b);
    replacePair(builder, call, sum, signedAddOverflows(builder, a, b, sum));
    break;
  }
  case llvm::Intrinsic::usub_with_overflow:
    replacePair(builder, call, builder.CreateSub(a, b), builder.CreateICmpULT(a, b));
    break;
  case llvm::Intrinsic::ssub_with_overflow: {
    llvm::Value *difference = builder.CreateSub(a, b);
    replacePair(builder, call, difference, signedSubOverflows(builder, a, b, difference));
    break;
  }
  case llvm::Intrinsic::umul_with_overflow: {
    llvm::Value *product = builder.CreateMul(a, b);
    replacePair(builder, call, product, unsignedMulOverflows(builder, a, b, product));
    break;
  }
  case llvm::Intrinsic::smul_with_overflow: {
    llvm::Value *product = builder.CreateMul(a, b);
    replacePair(builder, call, product, signedMulOverflows(builder, a, b, product));
    break;
  }
  case llvm::Intrinsic::prefetch:
    // A hint (__builtin_prefetch), with no effect on what a program computes.
    break;
  default:
    replacement = reduce(builder, id, a);
    if (!replacement)
      return false;
  }
  if (replacement)
    call->replaceAllUsesWith(replacement);
  call->eraseFromParent();
  return true;
}

} // namespace

bool expandIntrinsics(llvm::Module &module, size_t &expanded, std::string &error) {
  std::vector<llvm::Function *> unused;
  for (llvm::Function &intrinsic : module) {
    const llvm::Intrinsic::ID id = intrinsic.getIntrinsicID();
    if (id == llvm::Intrinsic::not_intrinsic || translated(id))
      continue;
    std::vector<llvm::CallInst *> calls;
    for (llvm::User *user : intrinsic.users())
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(user);
          call && call->getCalledFunction() == &intrinsic)
        calls.push_back(call);
    for (llvm::CallInst *call : calls) {
      if (!expand(call, id)) {
        error = "the LLVM intrinsic " + intrinsic.getName().str() + " (in function '" +
                call->getFunction()->getName().str() +
                "') has no SPIR-V translation: " + describe(*call);
        return false;
      }
      ++expanded;
    }
    if (intrinsic.use_empty())
      unused.push_back(&intrinsic);
  }
  for (llvm::Function *intrinsic : unused)
    intrinsic->eraseFromParent();
  return true;
}

} // namespace lanewise::translator
