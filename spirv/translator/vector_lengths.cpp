// SPDX-License-Identifier: Apache-2.0
// Vectors of lengths SPIR-V has no type for, made scalar before translation.
//
// SPIR-V (without Intel's VectorAnyINTEL) has vectors of 2, 3, 4, 8 and 16
// components. clang-14's optimiser makes others out of OpenCL C's own
// types: InstCombine rewrites `(uchar)v.s8` of a short16 as element 16 of
// `bitcast <16 x i16> to <32 x i8>`, and then adds, shuffles, compares and
// keeps in phis the <32 x i8> it made. llvm-spirv-14 aborts on such a module
// ("Unsupported vector type with the size of: 32"). Every value of such a
// type is split here into its components, each a scalar of the element
// type; every instruction that makes or uses one is rewritten on the
// components, which are exactly the lanes LLVM's instruction defines. A
// bitcast from or to a legal type regroups the same bits (little-endian, as
// SPIR's data layout and LLVM's bitcast of vectors define them).
//
// What is not rewritten (a call or a global of such a type, which clang
// does not produce from OpenCL C) fails the build with the instruction
// named, instead of aborting the translator.

#include "fixups.h"
#include "legalise.h"

#include <functional>

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

namespace lanewise::translator {
namespace {

using Values = llvm::SmallVector<llvm::Value *, 16>;

bool isLegalLength(uint64_t length) {
  return length == 2 || length == 3 || length == 4 || length == 8 || length == 16;
}

llvm::FixedVectorType *illegalVector(llvm::Type *type) {
  auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
  return vector && !isLegalLength(vector->getNumElements()) ? vector : nullptr;
}

// A pointer to an illegal vector (its element type, in LLVM 14's typed
// pointers).
llvm::FixedVectorType *illegalPointee(llvm::Type *type) {
  auto *pointer = llvm::dyn_cast<llvm::PointerType>(type);
  return pointer && !pointer->isOpaque() ? illegalVector(pointer->getNonOpaquePointerElementType())
                                         : nullptr;
}

bool mentionsIllegal(llvm::Type *type) { return illegalVector(type) || illegalPointee(type); }

class Legaliser : public FunctionRewrite {
public:
  explicit Legaliser(llvm::Function &function) : function_(function) {}

  bool rewrite(llvm::Instruction &instruction) override;
  bool finish(std::string &error) override;

private:
  // The components of an illegal vector value (its instructions', its
  // constants' and its arguments').
  Values components(llvm::Value *value);
  // Pointer to the first component of what an illegal-vector pointer
  // points at.
  llvm::Value *componentPointer(llvm::Value *pointer);

  // The components a shuffle selects from: both operands', in order.
  Values shuffleSources(llvm::IRBuilder<> &builder, llvm::ShuffleVectorInst &shuffle);
  bool rewriteDefinition(llvm::Instruction &instruction, llvm::FixedVectorType *type);
  bool rewriteUse(llvm::Instruction &instruction);
  bool rewritePointer(llvm::Instruction &instruction, llvm::FixedVectorType *pointee);

  // Integers of `to` bits holding the bits of integers of `from` bits, in
  // order. False when neither width divides the other.
  bool regroup(llvm::IRBuilder<> &builder, const Values &in, unsigned from, unsigned to,
               Values &out);
  // The components of `value` (of a legal type) as `count` values of `element`.
  bool split(llvm::IRBuilder<> &builder, llvm::Value *value, llvm::Type *element, size_t count,
             Values &out);
  // The value of legal type `type` made of the bits of `parts`.
  llvm::Value *join(llvm::IRBuilder<> &builder, const Values &parts, llvm::Type *type);

  llvm::Function &function_;
  llvm::DenseMap<llvm::Value *, Values> components_;
  llvm::DenseMap<llvm::Value *, llvm::Value *> componentPointers_;
  llvm::SmallVector<llvm::PHINode *, 8> phis_;
  bool failed_ = false;
};

llvm::Value *asInteger(llvm::IRBuilder<> &builder, llvm::Value *value) {
  llvm::Type *type = value->getType();
  if (type->isIntegerTy())
    return value;
  return builder.CreateBitCast(value, builder.getIntNTy(type->getPrimitiveSizeInBits()));
}

llvm::Value *fromInteger(llvm::IRBuilder<> &builder, llvm::Value *value, llvm::Type *type) {
  return value->getType() == type ? value : builder.CreateBitCast(value, type);
}

bool Legaliser::regroup(llvm::IRBuilder<> &builder, const Values &in, unsigned from, unsigned to,
                        Values &out) {
  out.clear();
  if (from == to) {
    out = in;
    return true;
  }
  llvm::IntegerType *narrow = builder.getIntNTy(std::min(from, to));
  llvm::IntegerType *wide = builder.getIntNTy(std::max(from, to));
  if (from > to) {
    if (from % to)
      return false;
    for (llvm::Value *value : in)
      for (unsigned shift = 0; shift < from; shift += to)
        out.push_back(
            builder.CreateTrunc(shift ? builder.CreateLShr(value, shift) : value, narrow));
    return true;
  }
  if (to % from || in.size() % (to / from))
    return false;
  for (size_t first = 0; first < in.size(); first += to / from) {
    llvm::Value *whole = nullptr;
    for (unsigned k = 0; k < to / from; ++k) {
      llvm::Value *part = builder.CreateZExt(in[first + k], wide);
      if (k)
        part = builder.CreateShl(part, k * from);
      whole = whole ? builder.CreateOr(whole, part) : part;
    }
    out.push_back(whole);
  }
  return true;
}

bool Legaliser::split(llvm::IRBuilder<> &builder, llvm::Value *value, llvm::Type *element,
                      size_t count, Values &out) {
  Values pieces;
  unsigned width = value->getType()->getScalarSizeInBits();
  if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(value->getType())) {
    for (unsigned i = 0; i < vector->getNumElements(); ++i)
      pieces.push_back(asInteger(builder, builder.CreateExtractElement(value, i)));
  } else {
    pieces.push_back(asInteger(builder, value));
  }
  Values integers;
  if (!regroup(builder, pieces, width, element->getPrimitiveSizeInBits(), integers) ||
      integers.size() != count)
    return false;
  out.clear();
  for (llvm::Value *integer : integers)
    out.push_back(fromInteger(builder, integer, element));
  return true;
}

llvm::Value *Legaliser::join(llvm::IRBuilder<> &builder, const Values &parts, llvm::Type *type) {
  Values integers, joined;
  for (llvm::Value *part : parts)
    integers.push_back(asInteger(builder, part));
  llvm::Type *element = type->getScalarType();
  if (!regroup(builder, integers, parts.front()->getType()->getPrimitiveSizeInBits(),
               element->getPrimitiveSizeInBits(), joined))
    return nullptr;
  auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
  if (joined.size() != (vector ? vector->getNumElements() : 1))
    return nullptr;
  if (!vector)
    return fromInteger(builder, joined.front(), type);
  llvm::Value *result = llvm::PoisonValue::get(type);
  for (unsigned i = 0; i < joined.size(); ++i)
    result = builder.CreateInsertElement(result, fromInteger(builder, joined[i], element), i);
  return result;
}

Values Legaliser::components(llvm::Value *value) {
  auto found = components_.find(value);
  if (found != components_.end())
    return found->second;
  Values result;
  auto *type = llvm::cast<llvm::FixedVectorType>(value->getType());
  if (auto *constant = llvm::dyn_cast<llvm::Constant>(value)) {
    for (unsigned i = 0; i < type->getNumElements(); ++i)
      result.push_back(constant->getAggregateElement(i));
  } else {
    // An argument, or an instruction that could not be rewritten: the
    // rewrite fails (poison keeps the caller's indexing in bounds).
    failed_ = true;
    result.assign(type->getNumElements(), llvm::PoisonValue::get(type->getElementType()));
  }
  return result;
}

Values Legaliser::shuffleSources(llvm::IRBuilder<> &builder, llvm::ShuffleVectorInst &shuffle) {
  Values sources;
  for (llvm::Value *operand : {shuffle.getOperand(0), shuffle.getOperand(1)}) {
    auto *vector = llvm::cast<llvm::FixedVectorType>(operand->getType());
    if (illegalVector(vector)) {
      const Values parts = components(operand);
      sources.append(parts.begin(), parts.end());
    } else {
      for (unsigned i = 0; i < vector->getNumElements(); ++i)
        sources.push_back(builder.CreateExtractElement(operand, i));
    }
  }
  return sources;
}

llvm::Value *Legaliser::componentPointer(llvm::Value *pointer) {
  auto found = componentPointers_.find(pointer);
  return found == componentPointers_.end() ? nullptr : found->second;
}

bool Legaliser::rewriteDefinition(llvm::Instruction &instruction, llvm::FixedVectorType *type) {
  llvm::IRBuilder<> builder(&instruction);
  const unsigned count = type->getNumElements();
  llvm::Type *element = type->getElementType();
  Values out;
  auto each = [&](const std::function<llvm::Value *(unsigned)> &make) {
    for (unsigned i = 0; i < count; ++i)
      out.push_back(make(i));
  };
  if (auto *binary = llvm::dyn_cast<llvm::BinaryOperator>(&instruction)) {
    const Values a = components(binary->getOperand(0)), b = components(binary->getOperand(1));
    each([&](unsigned i) {
      llvm::Value *result = builder.CreateBinOp(binary->getOpcode(), a[i], b[i]);
      if (auto *made = llvm::dyn_cast<llvm::Instruction>(result))
        made->copyIRFlags(binary);
      return result;
    });
  } else if (auto *unary = llvm::dyn_cast<llvm::UnaryOperator>(&instruction)) {
    const Values a = components(unary->getOperand(0));
    each([&](unsigned i) { return builder.CreateUnOp(unary->getOpcode(), a[i]); });
  } else if (auto *compare = llvm::dyn_cast<llvm::CmpInst>(&instruction)) {
    const Values a = components(compare->getOperand(0)), b = components(compare->getOperand(1));
    each([&](unsigned i) { return builder.CreateCmp(compare->getPredicate(), a[i], b[i]); });
  } else if (auto *cast = llvm::dyn_cast<llvm::BitCastInst>(&instruction)) {
    llvm::Value *source = cast->getOperand(0);
    if (illegalVector(source->getType())) {
      const Values parts = components(source);
      Values integers, regrouped;
      for (llvm::Value *part : parts)
        integers.push_back(asInteger(builder, part));
      if (!regroup(builder, integers, source->getType()->getScalarSizeInBits(),
                   element->getPrimitiveSizeInBits(), regrouped))
        return false;
      for (llvm::Value *integer : regrouped)
        out.push_back(fromInteger(builder, integer, element));
    } else if (!split(builder, source, element, count, out)) {
      return false;
    }
  } else if (auto *cast = llvm::dyn_cast<llvm::CastInst>(&instruction)) {
    const Values a = components(cast->getOperand(0));
    each([&](unsigned i) { return builder.CreateCast(cast->getOpcode(), a[i], element); });
  } else if (auto *select = llvm::dyn_cast<llvm::SelectInst>(&instruction)) {
    const Values a = components(select->getTrueValue()), b = components(select->getFalseValue());
    llvm::Value *condition = select->getCondition();
    const Values conditions =
        illegalVector(condition->getType()) ? components(condition) : Values();
    each([&](unsigned i) {
      return builder.CreateSelect(conditions.empty() ? condition : conditions[i], a[i], b[i]);
    });
  } else if (auto *phi = llvm::dyn_cast<llvm::PHINode>(&instruction)) {
    // Completed once every instruction is rewritten.
    each([&](unsigned) {
      return builder.CreatePHI(element, phi->getNumIncomingValues(), phi->getName());
    });
    phis_.push_back(phi);
  } else if (auto *insert = llvm::dyn_cast<llvm::InsertElementInst>(&instruction)) {
    out = components(insert->getOperand(0));
    llvm::Value *value = insert->getOperand(1), *index = insert->getOperand(2);
    if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(index)) {
      if (constant->getZExtValue() < count)
        out[constant->getZExtValue()] = value;
      else // LangRef: poison
        out.assign(count, llvm::PoisonValue::get(element));
    } else {
      for (unsigned i = 0; i < count; ++i)
        out[i] = builder.CreateSelect(
            builder.CreateICmpEQ(index, llvm::ConstantInt::get(index->getType(), i)), value,
            out[i]);
    }
  } else if (auto *shuffle = llvm::dyn_cast<llvm::ShuffleVectorInst>(&instruction)) {
    const Values sources = shuffleSources(builder, *shuffle);
    each([&](unsigned i) -> llvm::Value * {
      const int chosen = shuffle->getMaskValue(i);
      return chosen < 0 ? llvm::PoisonValue::get(element) : sources[chosen];
    });
  } else if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction)) {
    llvm::Value *pointer = componentPointer(load->getPointerOperand());
    if (!pointer)
      return false;
    const uint64_t size = element->getPrimitiveSizeInBits() / 8;
    each([&](unsigned i) {
      llvm::Value *address = i ? builder.CreateConstInBoundsGEP1_64(element, pointer, i) : pointer;
      llvm::LoadInst *part = builder.CreateAlignedLoad(
          element, address, llvm::commonAlignment(load->getAlign(), i * size), load->isVolatile());
      part->setAtomic(load->getOrdering(), load->getSyncScopeID());
      return part;
    });
  } else if (auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction)) {
    const llvm::Intrinsic::ID id = call->getIntrinsicID();
    if (!llvm::isTriviallyVectorizable(id))
      return false;
    llvm::SmallVector<llvm::Type *, 2> overloads{element};
    if (llvm::hasVectorInstrinsicOverloadedScalarOpd(id, 1))
      overloads.push_back(call->getArgOperand(1)->getType());
    llvm::Function *scalar = llvm::Intrinsic::getDeclaration(function_.getParent(), id, overloads);
    for (unsigned i = 0; i < count; ++i) {
      llvm::SmallVector<llvm::Value *, 3> arguments;
      for (unsigned a = 0; a < call->arg_size(); ++a) {
        llvm::Value *argument = call->getArgOperand(a);
        arguments.push_back(llvm::hasVectorInstrinsicScalarOpd(id, a) ? argument
                                                                      : components(argument)[i]);
      }
      out.push_back(builder.CreateCall(scalar, arguments));
    }
  } else {
    return false;
  }
  if (failed_)
    return false;
  components_[&instruction] = std::move(out);
  replaced.push_back(&instruction);
  return true;
}

bool Legaliser::rewriteUse(llvm::Instruction &instruction) {
  llvm::IRBuilder<> builder(&instruction);
  llvm::Value *replacement = nullptr;
  if (auto *extract = llvm::dyn_cast<llvm::ExtractElementInst>(&instruction)) {
    const Values parts = components(extract->getVectorOperand());
    llvm::Value *index = extract->getIndexOperand();
    if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(index)) {
      replacement = constant->getZExtValue() < parts.size()
                        ? parts[constant->getZExtValue()]
                        : llvm::PoisonValue::get(extract->getType());
    } else {
      replacement = parts[0];
      for (unsigned i = 1; i < parts.size(); ++i)
        replacement = builder.CreateSelect(
            builder.CreateICmpEQ(index, llvm::ConstantInt::get(index->getType(), i)), parts[i],
            replacement);
    }
  } else if (auto *cast = llvm::dyn_cast<llvm::BitCastInst>(&instruction)) {
    replacement = join(builder, components(cast->getOperand(0)), cast->getType());
  } else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction)) {
    llvm::Value *pointer = componentPointer(store->getPointerOperand());
    if (!pointer || !illegalVector(store->getValueOperand()->getType()))
      return false;
    const Values parts = components(store->getValueOperand());
    const uint64_t size = parts.front()->getType()->getPrimitiveSizeInBits() / 8;
    for (unsigned i = 0; i < parts.size(); ++i) {
      llvm::Value *address =
          i ? builder.CreateConstInBoundsGEP1_64(parts[i]->getType(), pointer, i) : pointer;
      llvm::StoreInst *part = builder.CreateAlignedStore(
          parts[i], address, llvm::commonAlignment(store->getAlign(), i * size),
          store->isVolatile());
      part->setAtomic(store->getOrdering(), store->getSyncScopeID());
    }
  } else if (auto *shuffle = llvm::dyn_cast<llvm::ShuffleVectorInst>(&instruction)) {
    const Values sources = shuffleSources(builder, *shuffle);
    auto *type = llvm::cast<llvm::FixedVectorType>(shuffle->getType());
    replacement = llvm::PoisonValue::get(type);
    for (unsigned i = 0; i < type->getNumElements(); ++i)
      if (const int chosen = shuffle->getMaskValue(i); chosen >= 0)
        replacement = builder.CreateInsertElement(replacement, sources[chosen], i);
  } else if (auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction)) {
    // The integer reductions (LangRef: vector.reduce.*, any order).
    static const std::pair<llvm::Intrinsic::ID, llvm::Instruction::BinaryOps> sums[] = {
        {llvm::Intrinsic::vector_reduce_add, llvm::Instruction::Add},
        {llvm::Intrinsic::vector_reduce_mul, llvm::Instruction::Mul},
        {llvm::Intrinsic::vector_reduce_and, llvm::Instruction::And},
        {llvm::Intrinsic::vector_reduce_or, llvm::Instruction::Or},
        {llvm::Intrinsic::vector_reduce_xor, llvm::Instruction::Xor}};
    static const std::pair<llvm::Intrinsic::ID, llvm::Intrinsic::ID> extrema[] = {
        {llvm::Intrinsic::vector_reduce_smin, llvm::Intrinsic::smin},
        {llvm::Intrinsic::vector_reduce_smax, llvm::Intrinsic::smax},
        {llvm::Intrinsic::vector_reduce_umin, llvm::Intrinsic::umin},
        {llvm::Intrinsic::vector_reduce_umax, llvm::Intrinsic::umax}};
    if (call->arg_size() != 1)
      return false;
    const Values parts = components(call->getArgOperand(0));
    replacement = parts[0];
    bool known = false;
    for (const auto &[reduce, opcode] : sums)
      if (call->getIntrinsicID() == reduce) {
        for (unsigned i = 1; i < parts.size(); ++i)
          replacement = builder.CreateBinOp(opcode, replacement, parts[i]);
        known = true;
      }
    for (const auto &[reduce, pairwise] : extrema)
      if (call->getIntrinsicID() == reduce) {
        for (unsigned i = 1; i < parts.size(); ++i)
          replacement = builder.CreateBinaryIntrinsic(pairwise, replacement, parts[i]);
        known = true;
      }
    if (!known)
      return false;
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

bool Legaliser::rewritePointer(llvm::Instruction &instruction, llvm::FixedVectorType *pointee) {
  llvm::IRBuilder<> builder(&instruction);
  llvm::Type *element = pointee->getElementType();
  const unsigned space = instruction.getType()->getPointerAddressSpace();
  llvm::Type *elementPointer = element->getPointerTo(space);
  llvm::Value *result = nullptr;
  if (auto *cast = llvm::dyn_cast<llvm::BitCastInst>(&instruction)) {
    llvm::Value *source = cast->getOperand(0);
    llvm::Value *known = componentPointer(source);
    result = builder.CreateBitCast(known ? known : source, elementPointer);
  } else if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(&instruction)) {
    // gep <M x T>* p, i: the component pointer moved by i * M components.
    llvm::Value *base = componentPointer(gep->getPointerOperand());
    if (!base || gep->getNumIndices() != 1)
      return false;
    llvm::Value *index = gep->getOperand(1);
    result = builder.CreateGEP(
        element, base,
        builder.CreateMul(index,
                          llvm::ConstantInt::get(index->getType(), pointee->getNumElements())));
  } else {
    return false;
  }
  componentPointers_[&instruction] = result;
  replaced.push_back(&instruction);
  return true;
}

bool Legaliser::rewrite(llvm::Instruction &instruction) {
  llvm::Type *type = instruction.getType();
  if (auto *pointee = illegalPointee(type))
    return rewritePointer(instruction, pointee);
  if (auto *vector = illegalVector(type))
    return rewriteDefinition(instruction, vector);
  // A pointer to an illegal vector used as an address: a load or store
  // (handled with the value) or a cast to another pointer.
  if (auto *cast = llvm::dyn_cast<llvm::BitCastInst>(&instruction))
    if (llvm::Value *pointer = componentPointer(cast->getOperand(0))) {
      llvm::IRBuilder<> builder(cast);
      cast->replaceAllUsesWith(builder.CreateBitCast(pointer, type));
      replaced.push_back(cast);
      return true;
    }
  // gep <M x T>* p, i, j: component j of the i-th vector.
  if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(&instruction))
    if (auto *pointee = illegalVector(gep->getSourceElementType())) {
      llvm::Value *base = componentPointer(gep->getPointerOperand());
      if (!base || gep->getNumIndices() != 2)
        return false;
      llvm::IRBuilder<> builder(gep);
      llvm::Value *outer = gep->getOperand(1);
      llvm::Value *inner = builder.CreateSExtOrTrunc(gep->getOperand(2), outer->getType());
      llvm::Value *index = builder.CreateAdd(
          builder.CreateMul(outer,
                            llvm::ConstantInt::get(outer->getType(), pointee->getNumElements())),
          inner);
      llvm::Value *address = builder.CreateGEP(pointee->getElementType(), base, index);
      gep->replaceAllUsesWith(builder.CreateBitCast(address, type));
      replaced.push_back(gep);
      return true;
    }
  return rewriteUse(instruction);
}

bool Legaliser::finish(std::string &error) {
  for (llvm::PHINode *phi : phis_) {
    const Values parts = components_[phi];
    for (unsigned i = 0; i < phi->getNumIncomingValues(); ++i) {
      const Values incoming = components(phi->getIncomingValue(i));
      if (failed_) {
        error = "a phi of an illegal vector type has an incoming value that was not rewritten: " +
                describe(*phi);
        return false;
      }
      for (unsigned c = 0; c < parts.size(); ++c)
        llvm::cast<llvm::PHINode>(parts[c])->addIncoming(incoming[c], phi->getIncomingBlock(i));
    }
  }
  return true;
}

} // namespace

bool legaliseVectorLengths(llvm::Module &module, size_t &rewritten, std::string &error) {
  const Legalisation vectors{
      mentionsIllegal, "a vector type SPIR-V does not have",
      "SPIR-V's vector lengths (2, 3, 4, 8, 16)",
      [](llvm::Function &function) { return std::make_unique<Legaliser>(function); }};
  return legalise(module, vectors, rewritten, error);
}

} // namespace lanewise::translator
