// SPDX-License-Identifier: Apache-2.0
#include "fixups.h"

#include <algorithm>
#include <cstdint>

#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>

namespace lanewise::translator {
namespace {

// `freeze` (LLVM 10) has no SPIR-V counterpart and llvm-spirv-14 rejects it
// ("Can't translate llvm instruction"). clang-14 -O2 emits it where the
// optimiser must not let an undefined value spread: a division and remainder
// of the same operands (DivRemPairs), loop unswitching, select-to-branch.
//
// LangRef: freeze of a value that is neither undef nor poison is that value;
// of undef or poison, one arbitrary but fixed value. In SPIR-V a value
// cannot become poison later, so a frozen non-constant operand is the
// operand itself; an undef or poison constant is frozen to zero, a fixed
// choice that every use then sees.
size_t replaceFreeze(llvm::Module &module) {
  std::vector<llvm::FreezeInst *> freezes;
  for (llvm::Function &function : module)
    for (llvm::Instruction &instruction : llvm::instructions(function))
      if (auto *freeze = llvm::dyn_cast<llvm::FreezeInst>(&instruction))
        freezes.push_back(freeze);
  for (llvm::FreezeInst *freeze : freezes) {
    llvm::Value *operand = freeze->getOperand(0);
    if (llvm::isa<llvm::UndefValue>(operand)) // poison is an UndefValue too
      operand = llvm::Constant::getNullValue(freeze->getType());
    freeze->replaceAllUsesWith(operand);
    freeze->eraseFromParent();
  }
  return freezes.size();
}

// `select i1 %c, <N x T> %a, <N x T> %b` chooses whole vectors; llvm-spirv-14
// writes it as an OpSelect with a scalar condition, which SPIR-V allows only
// from version 1.4 on, in a module of an earlier version. The condition is
// splatted to <N x i1>, which selects the same components.
size_t splatSelectConditions(llvm::Module &module) {
  std::vector<llvm::SelectInst *> selects;
  for (llvm::Function &function : module)
    for (llvm::Instruction &instruction : llvm::instructions(function))
      if (auto *select = llvm::dyn_cast<llvm::SelectInst>(&instruction))
        if (select->getType()->isVectorTy() && !select->getCondition()->getType()->isVectorTy())
          selects.push_back(select);
  for (llvm::SelectInst *select : selects) {
    llvm::IRBuilder<> builder(select);
    const auto count = llvm::cast<llvm::FixedVectorType>(select->getType())->getNumElements();
    select->setCondition(builder.CreateVectorSplat(count, select->getCondition()));
  }
  return selects.size();
}

// The work-item functions that take a dimension (OpenCL C 3.0, 6.15.1)
// answer 0 or 1 for a dimension outside 0 to get_work_dim() - 1.
// llvm-spirv-14 translates each to a component of a three-component
// built-in vector: with a constant index above 2 to an OpCompositeExtract
// that SPIR-V validation rejects, with a variable one to an
// OpVectorExtractDynamic whose result SPIR-V leaves undefined for an index
// above 2. The call is guarded: a constant index above 2 becomes the
// function's answer for it; a variable index is clamped to 0 for the call
// and the answer chosen by `index < 3`. Dimensions 1 and 2 of a launch
// with fewer are the launch's own, with size 1 and index 0, as the
// specification's answers are.
size_t guardDimensionIndices(llvm::Module &module) {
  // Mangled name (the argument is a uint) and the answer outside the range.
  static const std::pair<const char *, uint64_t> functions[] = {
      {"_Z13get_global_idj", 0},      {"_Z15get_global_sizej", 1},
      {"_Z12get_local_idj", 0},       {"_Z14get_local_sizej", 1},
      {"_Z23get_enqueued_local_sizej", 1}, {"_Z14get_num_groupsj", 1},
      {"_Z12get_group_idj", 0},       {"_Z17get_global_offsetj", 0}};
  size_t count = 0;
  for (const auto &[name, outside] : functions) {
    llvm::Function *function = module.getFunction(name);
    if (!function || function->arg_size() != 1)
      continue;
    std::vector<llvm::CallInst *> calls;
    for (llvm::User *user : function->users())
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(user); call && call->getCalledFunction() == function)
        calls.push_back(call);
    for (llvm::CallInst *call : calls) {
      llvm::Value *index = call->getArgOperand(0);
      llvm::Constant *answer = llvm::ConstantInt::get(call->getType(), outside);
      if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(index)) {
        if (constant->getZExtValue() < 3)
          continue;
        call->replaceAllUsesWith(answer);
        call->eraseFromParent();
      } else {
        llvm::IRBuilder<> builder(call);
        llvm::Value *inside =
            builder.CreateICmpULT(index, llvm::ConstantInt::get(index->getType(), 3), "dim.inside");
        call->setArgOperand(
            0, builder.CreateSelect(inside, index, llvm::ConstantInt::get(index->getType(), 0)));
        builder.SetInsertPoint(call->getNextNode());
        llvm::Value *guarded = builder.CreateSelect(inside, call, answer, "dim.answer");
        call->replaceUsesWithIf(guarded, [&](llvm::Use &use) { return use.getUser() != guarded; });
      }
      ++count;
    }
  }
  return count;
}

// OpenCL's address spaces in SPIR's numbering: the generic one, and a
// cast between two others, which SPIR-V does not have (OpenCL C 3.0, 6.7.9:
// a named address space converts only to and from the generic one).
constexpr unsigned kGenericSpace = 4;

bool castsBetweenNamedSpaces(const llvm::Value *value) {
  const auto *cast = llvm::dyn_cast<llvm::Operator>(value);
  if (!cast || cast->getOpcode() != llvm::Instruction::AddrSpaceCast)
    return false;
  const unsigned from = cast->getOperand(0)->getType()->getPointerAddressSpace();
  const unsigned to = cast->getType()->getPointerAddressSpace();
  return from != kGenericSpace && to != kGenericSpace && from != to;
}

bool mentionsNamedSpaceCast(const llvm::Constant *constant) {
  if (castsBetweenNamedSpaces(constant))
    return true;
  if (const auto *expression = llvm::dyn_cast<llvm::ConstantExpr>(constant))
    for (const llvm::Use &operand : expression->operands())
      if (mentionsNamedSpaceCast(llvm::cast<llvm::Constant>(operand.get())))
        return true;
  return false;
}

// The constant expression `constant` as instructions before `before`.
llvm::Value *asInstructions(llvm::Constant *constant, llvm::Instruction *before) {
  auto *expression = llvm::dyn_cast<llvm::ConstantExpr>(constant);
  if (!expression || !mentionsNamedSpaceCast(expression))
    return constant;
  llvm::Instruction *made = expression->getAsInstruction(before);
  for (llvm::Use &operand : made->operands())
    if (auto *inner = llvm::dyn_cast<llvm::Constant>(operand.get()))
      operand.set(asInstructions(inner, made));
  return made;
}

// clang-14 -O2 folds a comparison of generic pointers made from a __local
// and a __global one into `addrspacecast (i32 addrspace(3)* null to i32
// addrspace(1)*)`, a cast between two named address spaces (the OpenCL-CTS
// generic_address_space compare_pointers case); llvm-spirv-14 refuses it
// ("Casts from private/local/global address space are allowed only to
// generic"). Such a cast means what the generic casts it was folded from
// mean: to generic (OpPtrCastToGeneric), then to the other space
// (OpGenericCastToPtr), which gives null where the pointer is not in that
// space. Constant expressions that contain one become instructions first.
size_t castThroughGeneric(llvm::Module &module) {
  std::vector<llvm::Instruction *> casts;
  for (llvm::Function &function : module)
    for (llvm::Instruction &instruction : llvm::instructions(function)) {
      for (llvm::Use &operand : instruction.operands()) {
        auto *constant = llvm::dyn_cast<llvm::ConstantExpr>(operand.get());
        if (!constant || !mentionsNamedSpaceCast(constant))
          continue;
        auto *phi = llvm::dyn_cast<llvm::PHINode>(&instruction);
        llvm::Instruction *before =
            phi ? phi->getIncomingBlock(operand)->getTerminator() : &instruction;
        operand.set(asInstructions(constant, before));
      }
    }
  for (llvm::Function &function : module)
    for (llvm::Instruction &instruction : llvm::instructions(function))
      if (castsBetweenNamedSpaces(&instruction))
        casts.push_back(&instruction);
  for (llvm::Instruction *cast : casts) {
    auto *pointer = llvm::cast<llvm::PointerType>(cast->getType());
    llvm::Type *generic = llvm::PointerType::getWithSamePointeeType(pointer, kGenericSpace);
    // Instructions, not IRBuilder's casts, which would fold a constant
    // operand back into one cast.
    auto *toGeneric = new llvm::AddrSpaceCastInst(cast->getOperand(0), generic, "to.generic", cast);
    auto *fromGeneric = new llvm::AddrSpaceCastInst(toGeneric, pointer, cast->getName(), cast);
    cast->replaceAllUsesWith(fromGeneric);
    cast->eraseFromParent();
  }
  return casts.size();
}

} // namespace

namespace {

// Whether every read of the variable comes after a write of it on every path
// (a store dominates each load). Only such variables are promoted: mem2reg
// turns a read before any write into `undef`, which it then folds (a phi of
// `undef` and 1 is 1), and the checked mode would not see the read. The
// others stay in memory, where the checked mode sees them read.
bool writtenBeforeRead(llvm::AllocaInst *variable, const llvm::DominatorTree &dominators) {
  std::vector<llvm::StoreInst *> stores;
  std::vector<llvm::LoadInst *> loads;
  for (llvm::User *user : variable->users()) {
    if (auto *store = llvm::dyn_cast<llvm::StoreInst>(user))
      stores.push_back(store);
    else if (auto *load = llvm::dyn_cast<llvm::LoadInst>(user))
      loads.push_back(load);
  }
  for (llvm::LoadInst *load : loads)
    if (std::none_of(stores.begin(), stores.end(), [&](llvm::StoreInst *store) {
          return dominators.dominates(store, load);
        }))
      return false;
  return true;
}

} // namespace

size_t promoteVariables(llvm::Module &module) {
  size_t count = 0;
  for (llvm::Function &function : module) {
    if (function.isDeclaration())
      continue;
    llvm::DominatorTree dominators(function);
    std::vector<llvm::AllocaInst *> variables;
    for (llvm::Instruction &instruction : function.getEntryBlock())
      if (auto *variable = llvm::dyn_cast<llvm::AllocaInst>(&instruction))
        if (llvm::isAllocaPromotable(variable) && writtenBeforeRead(variable, dominators))
          variables.push_back(variable);
    if (variables.empty())
      continue;
    llvm::PromoteMemToReg(variables, dominators);
    count += variables.size();
  }
  return count;
}

std::vector<std::string> fixUp(llvm::Module &module) {
  std::vector<std::string> notes;
  if (const size_t count = replaceFreeze(module))
    notes.push_back("replaced " + std::to_string(count) + " freeze instructions by their operands");
  if (const size_t count = guardDimensionIndices(module))
    notes.push_back("guarded the dimension of " + std::to_string(count) + " work-item function calls");
  if (const size_t count = castThroughGeneric(module))
    notes.push_back("cast " + std::to_string(count) +
                    " pointers between named address spaces through the generic one");
  if (const size_t count = splatSelectConditions(module))
    notes.push_back("splatted the conditions of " + std::to_string(count) + " vector selects");
  return notes;
}

} // namespace lanewise::translator
