// SPDX-License-Identifier: Apache-2.0
#include "legalise.h"

#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Local.h>

namespace lanewise::translator {
namespace {

bool mentions(const llvm::Instruction &instruction, const Legalisation &legalisation) {
  if (legalisation.lacks(instruction.getType()))
    return true;
  for (const llvm::Value *operand : instruction.operands())
    if (legalisation.lacks(operand->getType()))
      return true;
  return false;
}

bool legaliseFunction(llvm::Function &function, const Legalisation &legalisation, size_t &rewritten,
                      std::string &error) {
  const std::string name = function.getName().str();
  if (legalisation.lacks(function.getReturnType())) {
    error = "the optimiser gave function '" + name + "' a result of " + legalisation.lacking;
    return false;
  }
  for (llvm::Argument &argument : function.args())
    if (legalisation.lacks(argument.getType())) {
      error = "the optimiser gave function '" + name + "' an argument of " + legalisation.lacking +
              ": " + describe(argument);
      return false;
    }
  // Blocks the traversal below does not visit could keep uses.
  llvm::removeUnreachableBlocks(function);
  std::unique_ptr<FunctionRewrite> rewrite = legalisation.start(function);
  llvm::ReversePostOrderTraversal<llvm::Function *> order(&function);
  for (llvm::BasicBlock *block : order)
    for (llvm::Instruction &instruction : llvm::make_early_inc_range(*block))
      if (mentions(instruction, legalisation) && !rewrite->rewrite(instruction)) {
        error = std::string("cannot express in ") + legalisation.has +
                " what the optimiser made of this program: " + describe(instruction) +
                " (in function '" + name + "'); -cl-opt-disable avoids it";
        return false;
      }
  if (!rewrite->finish(error))
    return false;
  // The rewritten instructions are now unused (their users were rewritten
  // with them), or used only by each other.
  for (llvm::Instruction *instruction : rewrite->replaced)
    instruction->dropAllReferences();
  for (llvm::Instruction *instruction : rewrite->replaced)
    instruction->eraseFromParent();
  rewritten += rewrite->replaced.size();
  return true;
}

} // namespace

std::string describe(const llvm::Value &value) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  value.print(stream);
  return stream.str();
}

bool legalise(llvm::Module &module, const Legalisation &legalisation, size_t &rewritten,
              std::string &error) {
  for (llvm::GlobalVariable &global : module.globals())
    if (legalisation.lacks(global.getValueType())) {
      error = std::string("a module-scope variable has ") + legalisation.lacking + ": " +
              describe(global);
      return false;
    }
  for (llvm::Function &function : module) {
    if (function.isDeclaration())
      continue;
    bool any = false;
    for (llvm::Instruction &instruction : llvm::instructions(function))
      if ((any = mentions(instruction, legalisation)))
        break;
    if (any && !legaliseFunction(function, legalisation, rewritten, error))
      return false;
  }
  return true;
}

} // namespace lanewise::translator
