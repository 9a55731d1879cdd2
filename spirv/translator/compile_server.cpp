// SPDX-License-Identifier: Apache-2.0
// lanewise-compile-server --clang=PATH [--listen=SOCKET]
//
// The OpenCL C compiler driver's worker (spirv/compiler.cpp): compiles
// OpenCL C to SPIR-V for one program after another, with clang's libraries
// and the translation of translate.h, in a process that stays alive between
// builds. That saves the driver two process start-ups per build (clang and
// the translator), each of which loads and relocates LLVM. It is a process
// of its own, not a part of the library, so that a crash or an abort()
// inside clang or LLVM ends one build, not the application.
//
// Requests come on standard input and replies go to standard output
// (messages.h) until standard input ends. PATH is the clang whose libraries
// this program links: its resource folder holds the OpenCL C headers, and it
// stands as argv[0] in clang's diagnostics.
//
// With --listen, it is the shared server of shared_server.h: it builds the
// one request on standard input to warm up, starts serving SOCKET in a
// process of its own, and exits.
#include <algorithm>
#include <climits>
#include <optional>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Driver/Driver.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/InitLLVM.h>
#include <llvm/Support/raw_ostream.h>

#include "builtin_declarations.h"
#include "fixups.h"
#include "messages.h"
#include "shared_server.h"
#include "translate.h"

#include <unistd.h>

namespace {

using lanewise::compile_server::Message;

struct Server {
  std::string clang;       // argv[0] of clang's command lines
  std::string resourceDir; // clang's own headers (opencl-c.h, opencl-c-base.h)
};

// What one build's clang sees: the real file system, and over it the files
// that came with the request (the source and the headers it includes).
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
fileSystemFor(const std::vector<std::pair<std::string, std::string>> &files) {
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> overlay(
      new llvm::vfs::OverlayFileSystem(llvm::vfs::getRealFileSystem()));
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> given(new llvm::vfs::InMemoryFileSystem);
  for (const auto &[path, text] : files)
    given->addFile(path, 0, llvm::MemoryBuffer::getMemBufferCopy(text, path));
  overlay->pushOverlay(given);
  return overlay;
}

// A compiler instance for clang -cc1 `arguments`, its diagnostics (and the
// "N errors generated." line that clang's command line writes after them)
// going to `stream`. Nothing when the arguments are refused.
std::unique_ptr<clang::CompilerInstance>
instanceFor(const Server &server, const std::vector<std::string> &arguments,
            llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> files, llvm::raw_string_ostream &stream) {
  std::vector<const char *> argv;
  for (const std::string &argument : arguments)
    argv.push_back(argument.c_str());
  auto instance = std::make_unique<clang::CompilerInstance>();
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> parseOptions = new clang::DiagnosticOptions();
  clang::DiagnosticsEngine parseDiagnostics(
      new clang::DiagnosticIDs(), &*parseOptions,
      new clang::TextDiagnosticPrinter(stream, &*parseOptions));
  const bool parsed = clang::CompilerInvocation::CreateFromArgs(
      instance->getInvocation(), argv, parseDiagnostics, server.clang.c_str());
  if (!parsed)
    return nullptr;
  instance->getHeaderSearchOpts().ResourceDir = server.resourceDir;
  instance->createDiagnostics(new clang::TextDiagnosticPrinter(stream, &instance->getDiagnosticOpts()),
                              /*ShouldOwnClient=*/true);
  instance->setVerboseOutputStream(stream);
  instance->createFileManager(std::move(files));
  // -mllvm options are LLVM's process-wide settings: each build sets its
  // own, from their defaults.
  llvm::cl::ResetAllOptionOccurrences();
  const std::vector<std::string> &llvmArguments = instance->getFrontendOpts().LLVMArgs;
  if (!llvmArguments.empty()) {
    std::vector<const char *> llvmArgv = {server.clang.c_str()};
    for (const std::string &argument : llvmArguments)
      llvmArgv.push_back(argument.c_str());
    if (!llvm::cl::ParseCommandLineOptions(static_cast<int>(llvmArgv.size()), llvmArgv.data(),
                                           "", &stream))
      return nullptr;
  }
  return instance;
}

// Runs clang -cc1 with `arguments` on `files` (path and contents, read
// from memory) and code generation `action`. Diagnostics go to `log`.
bool runClang(const Server &server, const std::vector<std::string> &arguments,
              const std::vector<std::pair<std::string, std::string>> &files,
              clang::CodeGenAction &action, std::string &log) {
  log.clear();
  llvm::raw_string_ostream stream(log);
  std::unique_ptr<clang::CompilerInstance> instance =
      instanceFor(server, arguments, fileSystemFor(files), stream);
  const bool compiled = instance && instance->ExecuteAction(action);
  stream.flush();
  return compiled;
}

// clang -cc1 with `arguments`, to bitcode in memory, reading `files` (path
// and contents) from memory. Diagnostics go to `log`. False when clang
// failed.
//
// The table built-ins the program names are declared up front
// (builtin_declarations.h) where that keeps clang's meaning; a build that
// fails that way, or that turns out to need clang's own lookups, is done
// again as clang declares built-ins.
//
// The module goes on as bitcode, read back into a context of its own, as
// the translator program reads clang's output: its type and value names
// are then the ones the two programs give (made unique afresh, with no
// "struct.Pair.0" for a clash with the first module's types), so that both
// ways build the same SPIR-V.
bool compile(const Server &server, const std::vector<std::string> &arguments,
             const std::vector<std::pair<std::string, std::string>> &files,
             llvm::SmallVectorImpl<char> &bitcode, std::string &log) {
  namespace builtins = lanewise::compile_server;
  // Each try has a context of its own, so that a failed one leaves no
  // names taken ("struct.Pair" making the next module's "struct.Pair.0").
  auto write = [&](const llvm::Module &module) {
    llvm::raw_svector_ostream out(bitcode);
    llvm::WriteBitcodeToFile(module, out);
    return true;
  };
  if (std::optional<std::vector<std::string>> names =
          builtins::namesToDeclareUpFront(arguments, files)) {
    // The marker file is read last before the program: after the default
    // header and the -include files, whose declarations and macros the
    // built-ins may need.
    const std::string marker(builtins::kProgramBeginsPath);
    std::vector<std::string> markedArguments = arguments;
    markedArguments.insert(std::find(markedArguments.begin(), markedArguments.end(), "-x"),
                           {"-include", marker});
    std::vector<std::pair<std::string, std::string>> markedFiles = files;
    markedFiles.emplace_back(marker, builtins::kProgramBeginsText);
    llvm::LLVMContext context;
    builtins::DeclareBuiltinsUpFrontAction action(&context, std::move(*names));
    if (runClang(server, markedArguments, markedFiles, action, log) &&
        !action.mustBuildAgain())
      return write(*action.takeModule());
  }
  llvm::LLVMContext context;
  clang::EmitLLVMOnlyAction action(&context);
  return runClang(server, arguments, files, action, log) && write(*action.takeModule());
}

Message handle(const Server &server, const Message &request) {
  std::vector<std::string> clangArguments;
  lanewise::translator::TranslationOptions options;
  std::vector<std::pair<std::string, std::string>> files;
  size_t i = 0;
  for (; i < request.size() && request[i] != "--translate"; ++i)
    clangArguments.push_back(request[i]);
  for (++i; i < request.size() && request[i] != "--files"; ++i)
    if (std::string error;
        !lanewise::translator::parseTranslationOption(request[i], options, error))
      return {"translator", "", error};
  for (++i; i + 1 < request.size(); i += 2)
    files.emplace_back(request[i], request[i + 1]);
  std::string log;
  llvm::SmallVector<char, 0> bitcode;
  if (!compile(server, clangArguments, files, bitcode, log))
    return {"clang", log, ""};
  llvm::LLVMContext context;
  auto module = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(llvm::StringRef(bitcode.data(), bitcode.size()), "program.bc"), context);
  if (!module) {
    std::string error;
    llvm::raw_string_ostream stream(error);
    stream << "cannot read back clang's module: " << module.takeError();
    return {"translator", log, stream.str()};
  }
  std::string spirv, error;
  if (!lanewise::translator::translate(**module, options, spirv, error))
    return {"translator", log, error};
  return {"ok", log, spirv};
}

} // namespace

int main(int argc, char **argv) {
  // A crash prints clang's stack dump and the file being compiled to
  // standard error, as the clang program does: the driver puts it in the
  // build log.
  llvm::InitLLVM init(argc, argv);
  Server server;
  std::string listen;
  for (int i = 1; i < argc; ++i) {
    const std::string_view argument = argv[i];
    if (argument.starts_with("--clang="))
      server.clang = argument.substr(8);
    else if (argument.starts_with("--listen="))
      listen = argument.substr(9);
    else if (argument == "--version") {
      std::cout << "lanewise-compile-server " LANEWISE_VERSION " (fix-ups "
                << lanewise::translator::kFixUpRevision
                << ", clang and LLVM " LLVM_VERSION_STRING ", LLVMSPIRVLib)\n";
      return 0;
    } else {
      std::cerr << "usage: lanewise-compile-server --clang=PATH [--listen=SOCKET]\n";
      return 2;
    }
  }
  if (server.clang.empty()) {
    std::cerr << "usage: lanewise-compile-server --clang=PATH [--listen=SOCKET]\n";
    return 2;
  }
  // The resource folder is found from clang's real location
  // (/usr/bin/clang-14 is a link into /usr/lib/llvm-14/bin).
  char real[PATH_MAX];
  const std::string binary = realpath(server.clang.c_str(), real) ? real : server.clang;
  server.resourceDir = clang::driver::Driver::GetResourcesPath(binary);

  if (!listen.empty()) {
    // Nothing the starter had open stays open in a server that outlives it.
    close_range(3, ~0u, 0);
    return lanewise::compile_server::serveShared(
        listen,
        [&] {
          if (Message request; lanewise::compile_server::receive(STDIN_FILENO, request))
            (void)handle(server, request);
        },
        [&](const Message &request) { return handle(server, request); });
  }

  for (Message request; lanewise::compile_server::receive(STDIN_FILENO, request);)
    if (!lanewise::compile_server::send(STDOUT_FILENO, handle(server, request)))
      return 1;
  return 0;
}
