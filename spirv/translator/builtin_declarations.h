// SPDX-License-Identifier: Apache-2.0
// The OpenCL C built-ins of clang's tables, declared once per build.
//
// With -fdeclare-opencl-builtins, clang-14 declares a built-in function when
// a lookup of its name finds nothing, and declares it for that lookup only:
// the declarations go into the lookup's result, not into any scope. Every
// call of `shuffle2` therefore builds its 250 overloads (and their function
// and vector types) again; in a program of 32 such calls that is a fifth of
// clang's time.
//
// The compile server declares instead, once, the table built-ins that the
// program's files name, at file scope, just before the program: after the
// default header and the -include files, as opencl-c.h declares them before
// the program. A lookup then finds them as it finds a header's declarations.
// The declarations are the ones clang would make at each lookup (they come
// from the same Sema::LookupBuiltin), so the module is the same, and this
// is checked by building every test kernel both ways (cli.compile_server).
//
// It is done only where it cannot change the program's meaning. A build
// with debug information (whose declarations carry the location of the
// lookup) is not done so. A build is done again without declarations up
// front when it fails that way, or when it turns out that
// - the program (or a header it includes) #defines or #undefs an extension
//   macro (cl_*, __opencl_c_*), which decide at each lookup which overloads
//   exist, or uses _Pragma, push/pop_macro or a floating-point pragma;
// - a declaration of the program's own at file scope has the name of a
//   built-in declared up front: with clang's lookups, a program's own
//   overload of `clz` hides the built-in `clz` from later lookups, and a
//   typedef named `rotate` is no clash.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <clang/CodeGen/CodeGenAction.h>

namespace lanewise::compile_server {

// The file the server has clang read just before the program (-include),
// and the one declaration in it, at which the built-ins are declared.
inline constexpr std::string_view kProgramBeginsPath = "/lanewise-build/program-begins.h";
inline constexpr std::string_view kProgramBeginsText = "typedef int __lanewise_program_begins;\n";

// The program's identifiers whose table built-ins can be declared up front
// in a build with clang -cc1 `arguments` of `files` (path and text), or
// nothing when the build must look its built-ins up as clang does. The
// files read through -include come before the program and are not its own.
std::optional<std::vector<std::string>>
namesToDeclareUpFront(const std::vector<std::string> &arguments,
                      const std::vector<std::pair<std::string, std::string>> &files);

// clang's code generation to a module in memory (EmitLLVMOnlyAction), with
// the table built-ins among `names` declared at kProgramBeginsPath's
// declaration.
class DeclareBuiltinsUpFrontAction : public clang::EmitLLVMOnlyAction {
public:
  DeclareBuiltinsUpFrontAction(llvm::LLVMContext *context, std::vector<std::string> names);

  // Whether the module may differ from clang's, and the build must be done
  // again without declarations up front: the program declares a name that
  // was declared up front, or changes what a lookup declares (an extension
  // macro, a pragma).
  bool mustBuildAgain() const { return redeclared_ || lookupsChanged_; }

protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &instance,
                                                        llvm::StringRef file) override;

private:
  std::vector<std::string> names_;
  bool redeclared_ = false;
  bool lookupsChanged_ = false;
};

} // namespace lanewise::compile_server
