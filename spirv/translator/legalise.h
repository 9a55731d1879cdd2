// SPDX-License-Identifier: Apache-2.0
// What the translator's legalisations share. Each rewrites the LLVM IR
// values of a type SPIR-V lacks (vectors of 32 components, integers of 33
// bits) in types it has, function by function: every instruction that makes
// or uses such a value, in reverse post-order (a definition before its uses;
// phis are completed once every block is rewritten), and then erases the
// instructions it replaced.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <llvm/ADT/STLFunctionalExtras.h>

namespace llvm {
class Function;
class Instruction;
class Module;
class Type;
class Value;
} // namespace llvm

namespace lanewise::translator {

// The rewrite of one function.
class FunctionRewrite {
public:
  virtual ~FunctionRewrite() = default;
  // Rewrites one instruction whose type or an operand's type SPIR-V lacks;
  // false when it cannot. A replaced instruction goes to `replaced`.
  virtual bool rewrite(llvm::Instruction &instruction) = 0;
  // Completes what needed every block rewritten (phis); false, with
  // `error`, when an incoming value could not be rewritten.
  virtual bool finish(std::string &error) = 0;

  std::vector<llvm::Instruction *> replaced;
};

// What a legalisation rewrites: the types SPIR-V lacks, and how messages
// name them.
struct Legalisation {
  // Whether `type` is, points to or contains a type SPIR-V lacks.
  llvm::function_ref<bool(llvm::Type *)> lacks;
  // "a vector type SPIR-V does not have".
  const char *lacking;
  // "SPIR-V's vector lengths (2, 3, 4, 8, 16)".
  const char *has;
  std::function<std::unique_ptr<FunctionRewrite>(llvm::Function &)> start;
};

// Rewrites every function of `module` that mentions a type the
// legalisation lacks. Adds to `rewritten` the instructions replaced. False,
// with `error` naming the instruction, global or argument, for what cannot
// be rewritten.
bool legalise(llvm::Module &module, const Legalisation &legalisation, size_t &rewritten,
              std::string &error);

// `value` as LLVM prints it, for messages.
std::string describe(const llvm::Value &value);

} // namespace lanewise::translator
