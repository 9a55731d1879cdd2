// SPDX-License-Identifier: Apache-2.0
#include "builtin_declarations.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>
#include <unordered_set>

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/MultiplexConsumer.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Sema/Lookup.h>
#include <clang/Sema/Sema.h>
#include <clang/Sema/SemaConsumer.h>

namespace lanewise::compile_server {
namespace {

bool startsIdentifier(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool continuesIdentifier(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// `text` with its comments replaced by spaces: their words name nothing.
// String literals are not told apart: a "/*" inside one blanks more text
// than it should, which only hides names, whose built-ins are then looked
// up as clang does.
std::string withoutComments(std::string_view text) {
  std::string out(text);
  for (size_t i = 0; i + 1 < out.size(); ++i) {
    if (out[i] == '/' && out[i + 1] == '/') {
      for (; i < out.size() && out[i] != '\n'; ++i)
        out[i] = ' ';
    } else if (out[i] == '/' && out[i + 1] == '*') {
      const size_t end = out.find("*/", i + 2);
      const size_t stop = end == std::string::npos ? out.size() : end + 2;
      for (; i < stop; ++i)
        if (out[i] != '\n')
          out[i] = ' ';
      --i;
    }
  }
  return out;
}

// Watches the program's preprocessing (from the main file on, after the
// default header, the command line's macros and the -include files) for
// what would change, between the program's start and a later lookup, what
// the lookup declares: a #define or #undef of an extension macro (cl_*,
// __opencl_c_*), wherever the directive is (a header read from disk too),
// or a pragma that changes macros or the floating-point environment.
class LookupStateWatch : public clang::PPCallbacks {
public:
  LookupStateWatch(const clang::SourceManager &sources, bool &changed)
      : sources_(sources), changed_(changed) {}

  void FileChanged(clang::SourceLocation location, FileChangeReason reason,
                   clang::SrcMgr::CharacteristicKind, clang::FileID) override {
    // The main file is entered first, then the predefines (with the
    // default header and the -include files) on top of it: the program
    // begins when they end.
    if (reason == ExitFile && sources_.getFileID(location) == sources_.getMainFileID())
      inProgram_ = true;
  }

  void MacroDefined(const clang::Token &name, const clang::MacroDirective *) override {
    noteMacro(name);
  }

  void MacroUndefined(const clang::Token &name, const clang::MacroDefinition &,
                      const clang::MacroDirective *) override {
    noteMacro(name);
  }

  void PragmaDirective(clang::SourceLocation location,
                       clang::PragmaIntroducerKind introducer) override {
    if (!inProgram_)
      return;
    if (introducer != clang::PIK_HashPragma) {
      changed_ = true; // _Pragma and __pragma: their text is made by macros
      return;
    }
    bool invalid = false;
    const char *text = sources_.getCharacterData(location, &invalid);
    if (invalid) {
      changed_ = true;
      return;
    }
    const std::string_view line(text, std::strcspn(text, "\n"));
    for (const char *word : {"push_macro", "pop_macro", "FENV_", "float_control", "clang fp",
                             "STDC"})
      if (line.find(word) != std::string_view::npos)
        changed_ = true;
  }

private:
  void noteMacro(const clang::Token &name) {
    if (!inProgram_)
      return;
    const llvm::StringRef text = name.getIdentifierInfo()->getName();
    if (text.startswith("cl_") || text.startswith("__opencl_c_"))
      changed_ = true;
  }

  const clang::SourceManager &sources_;
  bool &changed_;
  bool inProgram_ = false;
};

// The identifier `name`, made by the preprocessor inside clang's library
// rather than by IdentifierTable::get inlined here. In a sanitizer build
// the inlined allocator poisons each new slab for ASan, and clang's own
// uninstrumented code, which takes the next identifiers from the slab,
// never unpoisons them.
clang::IdentifierInfo &identifierFor(const clang::Preprocessor &preprocessor,
                                     const std::string &name) {
  clang::Token token;
  token.startToken();
  token.setKind(clang::tok::raw_identifier);
  token.setRawIdentifierData(name.data());
  token.setLength(static_cast<unsigned>(name.size()));
  return *preprocessor.LookUpIdentifierInfo(token);
}

// At the declaration of kProgramBeginsText, declares at file scope the table
// built-ins among the names; at the end of the translation unit, tells
// whether a declaration of the program's own took one of their names.
class Declarer : public clang::SemaConsumer {
public:
  Declarer(const std::vector<std::string> &names, bool &redeclared)
      : names_(names), redeclared_(redeclared) {}

  void InitializeSema(clang::Sema &sema) override { sema_ = &sema; }
  void ForgetSema() override { sema_ = nullptr; }

  bool HandleTopLevelDecl(clang::DeclGroupRef group) override {
    if (!begun_ && sema_ && group.isSingleDecl())
      if (const auto *marker = llvm::dyn_cast<clang::TypedefDecl>(group.getSingleDecl());
          marker && marker->getName() == "__lanewise_program_begins") {
        begun_ = true;
        declare();
      }
    return true;
  }

  // The scopes inside the file scope are closed: what a name's chain holds
  // now are the declarations at file scope.
  void HandleTranslationUnit(clang::ASTContext &) override {
    if (!sema_)
      return;
    for (clang::IdentifierInfo *name : declaredNames_)
      for (auto found = sema_->IdResolver.begin(name); found != sema_->IdResolver.end(); ++found)
        if (!declared_.count(*found))
          redeclared_ = true;
  }

private:
  void declare() {
    clang::Sema &sema = *sema_;
    // Only at file scope: a declaration in progress would see them early.
    if (!sema.CurContext->isTranslationUnit() || !sema.TUScope)
      return;
    for (const std::string &name : names_) {
      clang::IdentifierInfo &identifier = identifierFor(sema.getPreprocessor(), name);
      if (identifier.isKeyword(sema.getLangOpts()))
        continue;
      clang::LookupResult visible(sema, &identifier, clang::SourceLocation(),
                                  clang::Sema::LookupOrdinaryName);
      visible.suppressDiagnostics();
      if (sema.LookupName(visible, sema.TUScope, /*AllowBuiltinCreation=*/false))
        continue; // the header or an -include file declares it
      clang::LookupResult builtin(sema, &identifier, clang::SourceLocation(),
                                  clang::Sema::LookupOrdinaryName);
      builtin.suppressDiagnostics();
      // Sema::LookupBuiltin looks in the OpenCL tables first, then declares
      // clang's own built-in of that name (sqrt, __builtin_*), which clang
      // keeps at file scope itself. Only the first is wanted: the name
      // shows no built-in of clang's for this lookup.
      const unsigned builtinId = identifier.getObjCOrBuiltinID();
      identifier.setObjCOrBuiltinID(0);
      const bool found = sema.LookupBuiltin(builtin);
      identifier.setObjCOrBuiltinID(builtinId);
      if (!found || builtin.empty())
        continue; // not in the tables, or none of its overloads exists here
      for (clang::NamedDecl *declaration : builtin) {
        sema.PushOnScopeChains(declaration, sema.TUScope);
        declared_.insert(declaration);
      }
      declaredNames_.push_back(&identifier);
    }
  }

  const std::vector<std::string> &names_;
  bool &redeclared_;
  clang::Sema *sema_ = nullptr;
  bool begun_ = false;
  std::vector<clang::IdentifierInfo *> declaredNames_;
  std::unordered_set<const clang::NamedDecl *> declared_;
};

} // namespace

std::optional<std::vector<std::string>>
namesToDeclareUpFront(const std::vector<std::string> &arguments,
                      const std::vector<std::pair<std::string, std::string>> &files) {
  if (std::find(arguments.begin(), arguments.end(), "-fdeclare-opencl-builtins") ==
      arguments.end())
    return std::nullopt;
  std::set<std::string> included;
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (arguments[i].rfind("-debug-info-kind=", 0) == 0)
      return std::nullopt;
    if (arguments[i] == "-include" && i + 1 < arguments.size())
      included.insert(arguments[i + 1]);
  }
  std::set<std::string> names;
  for (const auto &[path, text] : files) {
    if (included.count(path))
      continue;
    const std::string code = withoutComments(text);
    for (size_t i = 0; i < code.size();) {
      if (!startsIdentifier(code[i])) {
        // A number's letters ("0x1f", "1e5f") are not names.
        if (std::isdigit(static_cast<unsigned char>(code[i])))
          while (i < code.size() && (continuesIdentifier(code[i]) || code[i] == '.'))
            ++i;
        else
          ++i;
        continue;
      }
      size_t end = i;
      while (end < code.size() && continuesIdentifier(code[end]))
        ++end;
      names.emplace(code, i, end - i);
      i = end;
    }
  }
  return std::vector<std::string>(names.begin(), names.end());
}

DeclareBuiltinsUpFrontAction::DeclareBuiltinsUpFrontAction(llvm::LLVMContext *context,
                                                           std::vector<std::string> names)
    : clang::EmitLLVMOnlyAction(context), names_(std::move(names)) {}

std::unique_ptr<clang::ASTConsumer>
DeclareBuiltinsUpFrontAction::CreateASTConsumer(clang::CompilerInstance &instance,
                                                llvm::StringRef file) {
  std::unique_ptr<clang::ASTConsumer> codeGeneration =
      clang::EmitLLVMOnlyAction::CreateASTConsumer(instance, file);
  if (!codeGeneration)
    return nullptr;
  instance.getPreprocessor().addPPCallbacks(
      std::make_unique<LookupStateWatch>(instance.getSourceManager(), lookupsChanged_));
  std::vector<std::unique_ptr<clang::ASTConsumer>> consumers;
  consumers.push_back(std::make_unique<Declarer>(names_, redeclared_));
  consumers.push_back(std::move(codeGeneration));
  return std::make_unique<clang::MultiplexConsumer>(std::move(consumers));
}

} // namespace lanewise::compile_server
