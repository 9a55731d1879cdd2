#include "builtin_declarations.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <unordered_set>

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/MultiplexConsumer.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Sema/Lookup.h>
#include <clang/Sema/Sema.h>
#include <clang/Sema/SemaConsumer.h>

namespace lanewise::compile_server {
namespace {

bool startsIdentifier(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool continuesIdentifier(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// `text` with its comments replaced by spaces (and line breaks kept), so that
// a directive split by a comment is still seen. String literals are not
// told apart: a "/*" inside one blanks more text than it should, which can
// only hide names (their built-ins are then looked up as clang does) or
// directives, and a file whose directives a string could hide is not one a
// kernel is written as.
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

// Whether a preprocessing directive of `text` (comments removed) could
// change what a built-in lookup declares between the program's start and
// the lookup: a #define or #undef of an extension macro, or a pragma that
// changes macros or the floating-point environment.
bool changesLookups(const std::string &text) {
  for (const char *word : {"_Pragma", "push_macro", "pop_macro", "FENV_", "float_control",
                           "clang fp"})
    if (text.find(word) != std::string::npos)
      return true;
  size_t line = 0;
  while (line < text.size()) {
    size_t end = line;
    // A directive ends at a line break that no backslash continues.
    while (end < text.size() && !(text[end] == '\n' && (end == 0 || text[end - 1] != '\\')))
      ++end;
    size_t at = text.find_first_not_of(" \t\\\r\n", line);
    if (at < end && text[at] == '#') {
      at = text.find_first_not_of(" \t\\\r\n", at + 1);
      size_t wordEnd = at;
      while (wordEnd < end && continuesIdentifier(text[wordEnd]))
        ++wordEnd;
      const std::string_view directive(text.data() + at, wordEnd - at);
      if (directive == "define" || directive == "undef") {
        const size_t name = text.find_first_not_of(" \t\\\r\n", wordEnd);
        if (name < end && (text.compare(name, 3, "cl_") == 0 ||
                           text.compare(name, 11, "__opencl_c_") == 0))
          return true;
      }
    }
    line = end + 1;
  }
  return false;
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
    clang::IdentifierTable &identifiers = sema.getPreprocessor().getIdentifierTable();
    for (const std::string &name : names_) {
      clang::IdentifierInfo &identifier = identifiers.get(name);
      // Keywords are no functions' names, and clang's own built-ins
      // (__builtin_*, the pipe and enqueue functions) are declared once
      // already, by clang.
      if (identifier.isKeyword(sema.getLangOpts()) || identifier.getBuiltinID() != 0)
        continue;
      clang::LookupResult visible(sema, &identifier, clang::SourceLocation(),
                                  clang::Sema::LookupOrdinaryName);
      visible.suppressDiagnostics();
      if (sema.LookupName(visible, sema.TUScope, /*AllowBuiltinCreation=*/false))
        continue; // the header or an -include file declares it
      clang::LookupResult builtin(sema, &identifier, clang::SourceLocation(),
                                  clang::Sema::LookupOrdinaryName);
      builtin.suppressDiagnostics();
      if (!sema.LookupBuiltin(builtin) || builtin.empty())
        continue; // not a built-in, or none of its overloads exists here
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
    if (changesLookups(code))
      return std::nullopt;
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
  std::vector<std::unique_ptr<clang::ASTConsumer>> consumers;
  consumers.push_back(std::make_unique<Declarer>(names_, redeclared_));
  consumers.push_back(std::move(codeGeneration));
  return std::make_unique<clang::MultiplexConsumer>(std::move(consumers));
}

} // namespace lanewise::compile_server
