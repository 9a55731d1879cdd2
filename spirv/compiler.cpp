// SPDX-License-Identifier: Apache-2.0
#include "spirv/compiler.h"
#include "runtime/cache_directory.h"
#include "runtime/hash.h"
#include "spirv/support.h"
#include "spirv/translator/fixups.h"
#include "spirv/translator/messages.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>
#include <sstream>
#include <string_view>
#include <thread>

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace lanewise::spirv {

namespace fs = std::filesystem;

namespace {

// Runs a program (no shell) and collects what it writes to stdout and stderr.
int runProcess(const std::vector<std::string> &arguments, std::string &output) {
  int pipeEnds[2];
  if (pipe(pipeEnds) != 0)
    return -1;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipeEnds[0]);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::vector<char *> argv;
  for (const std::string &argument : arguments)
    argv.push_back(const_cast<char *>(argument.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipeEnds[1]);
  if (spawned != 0) {
    close(pipeEnds[0]);
    output = std::string("cannot run ") + arguments[0] + ": " + std::strerror(spawned) + "\n";
    return -1;
  }
  std::array<char, 4096> chunk;
  for (;;) {
    const ssize_t count = read(pipeEnds[0], chunk.data(), chunk.size());
    if (count > 0)
      output.append(chunk.data(), static_cast<size_t>(count));
    else if (count == 0 || errno != EINTR)
      break;
  }
  close(pipeEnds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool isExecutable(const std::string &path) { return access(path.c_str(), X_OK) == 0; }

std::string onPath(const std::string &name) {
  const char *path = std::getenv("PATH");
  std::istringstream directories(path ? path : "/usr/bin:/bin");
  for (std::string directory; std::getline(directories, directory, ':');)
    if (!directory.empty() && isExecutable(directory + "/" + name))
      return directory + "/" + name;
  return {};
}

std::string firstLine(const std::string &text) { return text.substr(0, text.find('\n')); }

// A helper program installed beside the library (LIBDIR/lanewise/), else the
// one of the build tree this library was built in.
std::string helperProgram(const char *name, const char *inBuildTree) {
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&findToolchain), &info) && info.dli_fname) {
    const fs::path installed = fs::path(info.dli_fname).parent_path() / "lanewise" / name;
    if (isExecutable(installed.string()))
      return installed.string();
  }
  return isExecutable(inBuildTree) ? inBuildTree : "";
}

// What the compile server's output depends on: its version and fix-ups,
// and the clang library it runs (a Debian update of it changes the file).
std::string serverIdentity(const std::string &server) {
  std::string identity = "lanewise-compile-server " LANEWISE_VERSION " (fix-ups " +
                         std::to_string(translator::kFixUpRevision) +
                         ", clang " LANEWISE_LLVM_VERSION ")";
  for (const std::string &file : {server, std::string(LANEWISE_CLANG_LIBRARY)}) {
    struct stat status {};
    if (stat(file.c_str(), &status) == 0)
      identity += " " + std::to_string(status.st_size) + "@" +
                  std::to_string(status.st_mtim.tv_sec) + "." +
                  std::to_string(status.st_mtim.tv_nsec);
  }
  return identity;
}

bool environmentSays(const char *name, std::string_view value) {
  const char *text = std::getenv(name);
  return text && std::string_view(text) == value;
}

std::optional<Toolchain> locate() {
  Toolchain toolchain;
  toolchain.majorVersion = LANEWISE_LLVM_MAJOR;
  const std::string n = std::to_string(LANEWISE_LLVM_MAJOR);
  const char *clang = std::getenv("LANEWISE_CLANG");
  const char *translator = std::getenv("LANEWISE_LLVM_SPIRV");
  if (clang && *clang)
    toolchain.clang = clang;
  else if (toolchain.clang = onPath("clang-" + n); toolchain.clang.empty())
    toolchain.clang = "/usr/lib/llvm-" + n + "/bin/clang";
  // Tools named in the environment run as programs; otherwise the compile
  // server, whose clang is the library of clang-N (the clang path then only
  // locates its headers).
  const bool toolsNamed = (clang && *clang) || (translator && *translator);
  if (!toolsNamed && !environmentSays("LANEWISE_COMPILE_SERVER", "0")) {
    toolchain.server = helperProgram("lanewise-compile-server", LANEWISE_BUILD_COMPILE_SERVER);
    if (!toolchain.server.empty() && isExecutable(toolchain.clang)) {
      toolchain.identity = serverIdentity(toolchain.server);
      toolchain.lanewiseTranslator = true;
      return toolchain;
    }
    toolchain.server.clear();
  }
  if (translator && *translator)
    toolchain.llvmSpirv = translator;
  else
    toolchain.llvmSpirv = helperProgram("lanewise-llvm-spirv", LANEWISE_BUILD_TRANSLATOR);
  if (!isExecutable(toolchain.clang) || !isExecutable(toolchain.llvmSpirv))
    return std::nullopt;
  std::string clangVersion, translatorVersion;
  if (runProcess({toolchain.clang, "--version"}, clangVersion) != 0)
    return std::nullopt;
  runProcess({toolchain.llvmSpirv, "--version"}, translatorVersion);
  toolchain.identity = firstLine(clangVersion) + " | " + firstLine(translatorVersion);
  toolchain.lanewiseTranslator = translatorVersion.rfind("lanewise-llvm-spirv ", 0) == 0;
  return toolchain;
}

// Splits an option string at white space, honouring double quotes.
std::vector<std::string> splitOptions(const std::string &text) {
  std::vector<std::string> words;
  std::string word;
  bool quoted = false, any = false;
  for (char c : text) {
    if (c == '"') {
      quoted = !quoted;
      any = true;
    } else if (!quoted && std::isspace(static_cast<unsigned char>(c))) {
      if (any)
        words.push_back(word);
      word.clear();
      any = false;
    } else {
      word += c;
      any = true;
    }
  }
  if (any)
    words.push_back(word);
  return words;
}

// 128-bit FNV-1a, for cache keys.
using runtime::Hash;

bool readFile(const fs::path &path, std::string &contents) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    return false;
  contents.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  return true;
}

// Writes through a unique temporary name and renames: readers see the whole
// file or none.
void writeAtomically(const fs::path &path, const std::string &contents) {
  const fs::path temporary =
      path.string() + ".tmp." + std::to_string(getpid()) + "." + std::to_string(std::rand());
  {
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    if (!file)
      return;
    file.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    if (!file)
      return;
  }
  std::error_code error;
  fs::rename(temporary, path, error);
  if (error)
    fs::remove(temporary, error);
}

bool isSpirv(const std::string &bytes) {
  if (bytes.size() < 20 || bytes.size() % 4 != 0)
    return false;
  uint32_t magic = 0;
  std::memcpy(&magic, bytes.data(), 4);
  return magic == 0x07230203;
}

// Cache entries end with a checksum of their contents and a tag: an entry
// that was damaged or cut short is recompiled, never used.
constexpr char cacheTag[8] = {'L', 'W', 'C', 'A', 'C', 'H', 'E', '1'};

uint64_t checksum(std::string_view bytes) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes)
    hash = (hash ^ c) * 0x100000001b3ull;
  return hash;
}

std::string sealed(const std::string &bytes) {
  std::string out = bytes;
  const uint64_t sum = checksum(bytes);
  out.append(reinterpret_cast<const char *>(&sum), sizeof sum);
  out.append(cacheTag, sizeof cacheTag);
  return out;
}

// Strips and checks the seal; false for a damaged entry.
bool unsealed(std::string &bytes) {
  if (bytes.size() < 16 || bytes.compare(bytes.size() - 8, 8, cacheTag, 8) != 0)
    return false;
  uint64_t sum = 0;
  std::memcpy(&sum, bytes.data() + bytes.size() - 16, sizeof sum);
  bytes.resize(bytes.size() - 16);
  return checksum(bytes) == sum;
}

std::vector<uint32_t> toWords(const std::string &bytes) {
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

// clang-14's table-generated declarations of the OpenCL C built-ins
// (-fdeclare-opencl-builtins) instead of the 800 KB opencl-c.h: a small
// kernel compiles in 20 ms instead of 130 ms. The tables lack what clang-14
// does not know as an extension: the Intel sub-group built-ins, which the
// header declares under their macros. A source that names them is compiled
// with the header; so is one that fails with the tables (the header's
// diagnostics are then the build log). LANEWISE_OPENCL_HEADER=full always
// uses the header.
bool useBuiltinTables(const std::string &source) {
  static const bool fullHeader = [] {
    const char *text = std::getenv("LANEWISE_OPENCL_HEADER");
    return text && std::string_view(text) == "full";
  }();
  return !fullHeader && source.find("intel_sub_group") == std::string::npos;
}

// LANEWISE_CHECK_OPTIMIZE=1: the checked mode keeps clang's optimisations.
bool keepOptimisationUnderChecks() {
  const char *text = std::getenv("LANEWISE_CHECK_OPTIMIZE");
  return text && *text && std::string_view(text) != "0";
}

// A lanewise-compile-server that serves this process: a private one (a
// child process whose standard input and output are a socket), or a child
// of the shared server (spirv/translator/shared_server.h) that serves one
// connection; and an in-memory file that is its standard error (what clang
// or LLVM says when it crashes).
class ServerProcess {
public:
  static std::unique_ptr<ServerProcess> start(const Toolchain &toolchain, std::string &error) {
    auto server = std::unique_ptr<ServerProcess>(new ServerProcess);
    int ends[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) {
      error = std::string("cannot make a socket for the compile server: ") + std::strerror(errno);
      return nullptr;
    }
    server->socket_ = ends[0];
    server->errors_ = memfd_create("lanewise-compile-server-stderr", MFD_CLOEXEC);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, ends[1], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO);
    if (server->errors_ >= 0)
      posix_spawn_file_actions_adddup2(&actions, server->errors_, STDERR_FILENO);
    const std::string clangOption = "--clang=" + toolchain.clang;
    char *argv[] = {const_cast<char *>(toolchain.server.c_str()),
                    const_cast<char *>(clangOption.c_str()), nullptr};
    const int spawned = posix_spawn(&server->pid_, argv[0], &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    close(ends[1]);
    if (spawned != 0) {
      server->pid_ = -1;
      error = "cannot run " + toolchain.server + ": " + std::strerror(spawned);
      return nullptr;
    }
    return server;
  }

  // A connection to the shared server at `socketPath`; nothing when none
  // answers there.
  static std::unique_ptr<ServerProcess> connect(const std::string &socketPath) {
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (socketPath.size() >= sizeof address.sun_path)
      return nullptr;
    std::memcpy(address.sun_path, socketPath.c_str(), socketPath.size() + 1);
    auto server = std::unique_ptr<ServerProcess>(new ServerProcess);
    server->socket_ = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    server->errors_ = memfd_create("lanewise-compile-server-stderr", MFD_CLOEXEC);
    if (server->socket_ < 0 || server->errors_ < 0 ||
        ::connect(server->socket_, reinterpret_cast<const sockaddr *>(&address), sizeof address) !=
            0)
      return nullptr;
    char folder[PATH_MAX];
    if (!compile_server::sendGreeting(server->socket_, server->errors_,
                                      getcwd(folder, sizeof folder) ? folder : ""))
      return nullptr;
    return server;
  }

  ~ServerProcess() {
    close(socket_); // a healthy server exits at the end of its input
    if (errors_ >= 0)
      close(errors_);
    if (pid_ > 0 && !healthy_) {
      kill(pid_, SIGKILL);
      while (waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
      }
    }
  }

  // Sends a request and waits for the reply. False when the server ended
  // (crashed, aborted or was killed): `error` then says how, with what it
  // wrote to standard error, and the server is done for.
  bool call(const compile_server::Message &request, compile_server::Message &reply,
            std::string &error) {
    if (errors_ >= 0) {
      // Its standard error shares the file offset with this descriptor.
      (void)ftruncate(errors_, 0);
      lseek(errors_, 0, SEEK_SET);
    }
    const bool answered = compile_server::send(socket_, request) &&
                          compile_server::receive(socket_, reply) && reply.size() == 3;
    if (answered && reply[0] != "crashed")
      return true;
    healthy_ = false;
    shutdown(socket_, SHUT_RDWR);
    int status = 0;
    pid_t ended = 0;
    while (pid_ > 0 && (ended = waitpid(pid_, &status, 0)) < 0 && errno == EINTR) {
    }
    if (answered) {
      error = reply[2]; // the shared server says how its child ended
    } else if (pid_ > 0 && ended == pid_) {
      pid_ = -1;
      error = WIFSIGNALED(status)
                  ? "ended with signal " + std::to_string(WTERMSIG(status)) + " (" +
                        strsignal(WTERMSIG(status)) + ")"
                  : "exited with status " + std::to_string(WEXITSTATUS(status));
    } else {
      error = "stopped answering";
    }
    if (errors_ >= 0) {
      std::string said(8192, '\0');
      const ssize_t count = pread(errors_, said.data(), said.size(), 0);
      said.resize(count > 0 ? static_cast<size_t>(count) : 0);
      if (!said.empty())
        error += ":\n" + said;
    }
    return false;
  }

  // For a process that forked: the servers belong to the parent. Closes
  // this process's descriptors and leaves the server alone.
  void disown() {
    pid_ = -1;
    healthy_ = true;
  }

private:
  ServerProcess() = default;
  pid_t pid_ = -1;
  int socket_ = -1, errors_ = -1;
  bool healthy_ = true;
};

// Where the shared compile server of `toolchain` listens: in
// $XDG_RUNTIME_DIR/lanewise, else /tmp/lanewise-UID, a folder that must be
// the user's own and closed to others; named by the toolchain, so that
// another version or build of the server has a socket of its own. Nothing
// when there is no such folder, or with LANEWISE_COMPILE_SERVER=private.
std::optional<std::string> sharedServerSocket(const Toolchain &toolchain) {
  if (environmentSays("LANEWISE_COMPILE_SERVER", "private"))
    return std::nullopt;
  const char *runtime = std::getenv("XDG_RUNTIME_DIR");
  const std::string folder = runtime && *runtime ? std::string(runtime) + "/lanewise"
                                                 : "/tmp/lanewise-" + std::to_string(getuid());
  mkdir(folder.c_str(), 0700);
  struct stat status {};
  if (lstat(folder.c_str(), &status) != 0 || !S_ISDIR(status.st_mode) ||
      status.st_uid != getuid() || (status.st_mode & 077) != 0)
    return std::nullopt;
  Hash hash;
  for (const std::string &part : {toolchain.identity, toolchain.server, toolchain.clang})
    hash.add(part);
  return folder + "/compile-server-" + hash.hex().substr(0, 16) + ".socket";
}

// Starts the shared server at `socketPath`, which builds `warmUp` before
// it listens, and waits until it does (or until it finds that another
// process's server does or will). False when it could not.
bool startSharedServer(const Toolchain &toolchain, const std::string &socketPath,
                       const compile_server::Message &warmUp) {
  int ends[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0)
    return false;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, ends[1], STDIN_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  const std::string clangOption = "--clang=" + toolchain.clang,
                    listenOption = "--listen=" + socketPath;
  char *argv[] = {const_cast<char *>(toolchain.server.c_str()),
                  const_cast<char *>(clangOption.c_str()), const_cast<char *>(listenOption.c_str()),
                  nullptr};
  pid_t starter = -1;
  const int spawned = posix_spawn(&starter, argv[0], &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  close(ends[1]);
  if (spawned == 0)
    compile_server::send(ends[0], warmUp); // refused when another server has the lock
  close(ends[0]);
  if (spawned != 0)
    return false;
  int status = 0;
  while (waitpid(starter, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// The compile servers of this process: connections to the shared server,
// or, where there is none, servers of its own; made when a build needs
// one and none is free, at most one per hardware thread, so that programs
// built on several threads compile in parallel; kept for the next build.
class ServerPool {
public:
  static ServerPool &instance() {
    // Never destroyed: at exit the sockets close and the servers end.
    static ServerPool *pool = new ServerPool;
    return *pool;
  }

  std::unique_ptr<ServerProcess>
  acquire(const Toolchain &toolchain, const compile_server::Message &request, std::string &error) {
    std::unique_lock lock(mutex_);
    forgetParentServers();
    freed_.wait(lock, [&] { return !idle_.empty() || running_ < limit_; });
    if (!idle_.empty()) {
      std::unique_ptr<ServerProcess> server = std::move(idle_.back());
      idle_.pop_back();
      return server;
    }
    std::unique_ptr<ServerProcess> server = connectShared(toolchain, request);
    if (!server)
      server = ServerProcess::start(toolchain, error);
    if (server)
      ++running_;
    return server;
  }

  // Returns a server after a build; nullptr when it ended.
  void release(std::unique_ptr<ServerProcess> server) {
    {
      std::lock_guard lock(mutex_);
      if (getpid() != owner_) {
        server->disown();
        server.reset();
      } else if (server) {
        idle_.push_back(std::move(server));
      } else {
        --running_;
      }
    }
    freed_.notify_one();
  }

private:
  ServerPool() : owner_(getpid()) {
    const unsigned threads = std::thread::hardware_concurrency();
    limit_ = threads > 0 ? threads : 1;
  }

  // A connection to the shared server, which is started when none answers
  // and `request` is its warm-up. After a start that did not give one, the
  // process keeps to servers of its own.
  std::unique_ptr<ServerProcess> connectShared(const Toolchain &toolchain,
                                               const compile_server::Message &request) {
    if (sharedFailed_)
      return nullptr;
    const std::optional<std::string> socketPath = sharedServerSocket(toolchain);
    if (!socketPath) {
      sharedFailed_ = true;
      return nullptr;
    }
    if (std::unique_ptr<ServerProcess> server = ServerProcess::connect(*socketPath))
      return server;
    if (startSharedServer(toolchain, *socketPath, request)) {
      // Another process's server may still be warming up: up to two seconds.
      for (int attempt = 0; attempt < 100; ++attempt) {
        if (std::unique_ptr<ServerProcess> server = ServerProcess::connect(*socketPath))
          return server;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    }
    sharedFailed_ = true;
    return nullptr;
  }

  void forgetParentServers() {
    if (getpid() == owner_)
      return;
    for (std::unique_ptr<ServerProcess> &server : idle_)
      server->disown();
    idle_.clear();
    running_ = 0;
    owner_ = getpid();
  }

  std::mutex mutex_;
  std::condition_variable freed_;
  std::vector<std::unique_ptr<ServerProcess>> idle_;
  size_t running_ = 0, limit_ = 1;
  pid_t owner_;
  bool sharedFailed_ = false;
};

// One build on a compile server. A server that ends during the build is
// replaced and the build tried once more (it may have been killed while it
// waited); a second end is the program's: `crash` says what happened.
bool compileOnServer(const Toolchain &toolchain, const compile_server::Message &request,
                     compile_server::Message &reply, std::string &crash) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    std::unique_ptr<ServerProcess> server =
        ServerPool::instance().acquire(toolchain, request, crash);
    if (!server)
      return false;
    const bool answered = server->call(request, reply, crash);
    if (!answered)
      server.reset();
    ServerPool::instance().release(std::move(server));
    if (answered)
      return true;
  }
  crash = "the compiler (" + toolchain.server + ") " + crash;
  // "... ended with signal 4 (Illegal instruction)" and what it wrote.
  if (const size_t said = crash.find(":\n"); said != std::string::npos)
    crash.insert(said, " while compiling this program");
  else
    crash += " while compiling this program";
  return false;
}

} // namespace

const std::optional<Toolchain> &findToolchain() {
  static const std::optional<Toolchain> toolchain = locate();
  return toolchain;
}

TranslatedOptions translateBuildOptions(const std::string &options, const CompilerTarget &target) {
  TranslatedOptions result;
  std::string standard = target.defaultStandard;
  std::string optimisation = "-O2";
  const std::vector<std::string> words = splitOptions(options);
  // Options of the OpenCL C compiler that clang -cc1 takes as they are.
  static const char *const passThrough[] = {
      "-w", "-Werror", "-cl-mad-enable", "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations",
      "-cl-finite-math-only", "-cl-fast-relaxed-math", "-cl-single-precision-constant",
      "-cl-fp32-correctly-rounded-divide-sqrt", "-cl-uniform-work-group-size"};
  // Options that change nothing in the SPIR-V: argument information is
  // always kept; link options are for clLinkProgram.
  // -cl-denorms-are-zero only allows flushing denormals (clang-14 -cc1 does
  // not take it): keeping them is within what it allows.
  static const char *const accepted[] = {"-cl-kernel-arg-info", "-cl-no-subgroup-ifp",
                                         "-cl-denorms-are-zero",
                                         "-cl-strict-aliasing", "-create-library",
                                         "-enable-link-options"};
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string &word = words[i];
    auto is = [&](const char *const *list, size_t count) {
      for (size_t k = 0; k < count; ++k)
        if (word == list[k])
          return true;
      return false;
    };
    if (is(passThrough, std::size(passThrough))) {
      result.clang.push_back(word);
    } else if (is(accepted, std::size(accepted))) {
    } else if (word == "-cl-opt-disable") {
      optimisation = "-O0";
    } else if (word == "-g") {
      result.debugInfo = true;
    } else if (word == "-lanewise-check" || word.rfind("-lanewise-check=", 0) == 0) {
      const auto checks = runtime::CheckSet::parse(
          word.size() > 15 ? std::string_view(word).substr(16) : std::string_view("all"));
      if (!checks) {
        result.unknown = word;
        return result;
      }
      result.checks = result.checks | *checks;
    } else if ((word == "-D" || word == "-I") && i + 1 < words.size()) {
      result.clang.push_back(word);
      result.clang.push_back(words[++i]);
    } else if (word.size() > 2 && (word.rfind("-D", 0) == 0 || word.rfind("-I", 0) == 0)) {
      result.clang.push_back(word.substr(0, 2));
      result.clang.push_back(word.substr(2));
    } else if (word.rfind("-cl-std=", 0) == 0) {
      const std::string version = word.substr(8);
      // C++ for OpenCL (cl_ext_cxx_for_opencl): CLC++ is version 1.0, the
      // version the device reports, as clang spells it; 2021 is the one
      // built on OpenCL C 3.0.
      if (version == "CLC++" || version == "clc++" || version == "CLC++1.0" ||
          version == "clc++1.0") {
        standard = "clc++1.0";
        continue;
      }
      if (version == "CLC++2021" || version == "clc++2021") {
        standard = "clc++2021";
        continue;
      }
      if (version != "CL1.0" && version != "CL1.1" && version != "CL1.2" && version != "CL2.0" &&
          version != "CL3.0") {
        result.unknown = word;
        return result;
      }
      if (std::find(target.standards.begin(), target.standards.end(), version) ==
          target.standards.end())
        result.unsupportedStandard = version;
      standard = version;
    } else {
      result.unknown = word;
      return result;
    }
  }
  // Under any check, findings should name source lines and see what the
  // source does: debug information, and no clang optimisation (which folds a
  // read of an uninitialised variable into a constant), unless
  // LANEWISE_CHECK_OPTIMIZE=1 keeps the optimisation.
  if ((result.checks | runtime::CheckSet::fromEnvironment()).any()) {
    result.debugInfo = true;
    if (!keepOptimisationUnderChecks() && optimisation != "-O0") {
      optimisation = "-O0";
      result.promoteVariables = true;
    }
  }
  std::string extensions = "-cl-ext=-all";
  for (const std::string &extension : target.extensions)
    extensions += ",+" + extension;
  auto reports = [&](const char *feature) {
    return std::find(target.extensions.begin(), target.extensions.end(), feature) !=
           target.extensions.end();
  };
  // clang-14's opencl-c.h declares the image built-ins for OpenCL C 3.0
  // whatever the features, and then refuses its own declarations without
  // __opencl_c_images. For a device without images the features are enabled
  // for the header and their macros removed, so that kernels see a device
  // without images (and a kernel that uses images still fails, for its
  // ImageBasic capability).
  // OpenCL C 3.0 and the C++ for OpenCL built on it take the device's
  // optional features; earlier versions have fixed ones.
  const bool openCL30 = standard == "CL3.0" || standard == "clc++2021";
  const bool cxx = standard.rfind("clc++", 0) == 0;
  const bool imageWorkaround = openCL30 && !reports("__opencl_c_images");
  if (imageWorkaround)
    extensions += ",+__opencl_c_images,+__opencl_c_read_write_images";
  result.clang.insert(result.clang.begin(), {"-cl-std=" + standard, extensions, optimisation});
  // LLVM 14's SimplifyCFG sinks identical convergent calls of an if and its
  // else into the join, and hoists them above the branch: a sub-group
  // operation then runs with the work-items of both paths
  // (sub_group_broadcast_first in each branch reads one lane for all).
  // OpenCL's sub-group operations see the work-items of their own path.
  for (const char *flag : {"-simplifycfg-sink-common=false", "-simplifycfg-hoist-common=false"})
    result.clang.insert(result.clang.end(), {"-mllvm", flag});
  if (imageWorkaround)
    result.undefine.push_back("__opencl_c_images");
  // clang-14's opencl-c-base.h defines these OpenCL C 3.0 feature macros for
  // every SPIR target, whatever -cl-ext says; a feature the device does not
  // report is undefined after the header.
  if (openCL30)
    for (const char *feature :
         {"__opencl_c_atomic_order_seq_cst", "__opencl_c_atomic_scope_device",
          "__opencl_c_atomic_scope_all_devices", "__opencl_c_read_write_images"})
      if (!reports(feature))
        result.undefine.push_back(feature);
  // clang-14 knows no -cl-ext feature __opencl_c_work_group_collective_functions
  // (opencl-c-base.h defines its macro for OpenCL C 2.0 only), and its
  // header and built-in tables declare the work-group functions only where
  // the macro is defined: for OpenCL C 3.0 the driver defines it.
  if (openCL30 && reports("__opencl_c_work_group_collective_functions"))
    result.clang.insert(result.clang.end(), {"-D", "__opencl_c_work_group_collective_functions=1"});
  // clang-14 makes the sub-group extensions available from OpenCL C 2.0 on:
  // for OpenCL C 1.x it neither defines their macros nor declares their
  // built-ins, though their specifications name no version and the device
  // reports them to every program (OpenCL C 3.0, 6.1: a supported
  // extension's macro is defined). The driver defines the macros of those
  // the device reports, and opencl-c.h then declares the built-ins.
  if (standard.rfind("CL1.", 0) == 0)
    for (const std::string &extension : target.extensions)
      if (extension.rfind("cl_khr_subgroup", 0) == 0)
        result.clang.insert(result.clang.end(), {"-D", extension + "=1"});
  // clang-14 does not know cl_khr_expect_assume, whose functions are its
  // own __builtin_expect and __builtin_assume: the macro is the driver's.
  if (reports("cl_khr_expect_assume"))
    result.clang.insert(result.clang.end(), {"-D", "cl_khr_expect_assume=1"});
  // OpenCL C 3.0, 6.12: __IMAGE_SUPPORT__ is defined when the device
  // supports images, and undefined otherwise; clang-14 defines it for every
  // SPIR target.
  if (!reports("__opencl_c_images"))
    result.undefine.push_back("__IMAGE_SUPPORT__");
  for (const std::string &macro : target.macros) {
    result.clang.push_back("-D");
    result.clang.push_back(macro);
  }
  // OpenCL C takes C99's inline: a function defined `inline` (without
  // `static` or `extern`) has no external definition, so a call the
  // compiler does not inline (any call at -cl-opt-disable, a large function
  // at -O2) is left unresolved and the program does not build. Real
  // programs (OpenCV's kernels among them) write helpers so and expect them
  // to work, as they do on other implementations: `inline` is defined away,
  // as PoCL does, which makes each such function an ordinary definition.
  // C++ keeps its inline, whose definitions are shared by every use.
  if (!cxx)
    result.clang.insert(result.clang.end(), {"-D", "inline="});
  // C++ for OpenCL: a program-scope object's constructor runs when the
  // program is built (its SPIR-V Initializer entry point). Destructors
  // would run when the program is released, on memory that goes with it;
  // clang registers them through a function pointer SPIR-V cannot hold, so
  // they are not registered.
  if (cxx)
    result.clang.push_back("-fno-c++-static-destructors");
  if (result.debugInfo)
    for (const char *flag : {"-debug-info-kind=constructor", "-dwarf-version=5"})
      result.clang.push_back(flag);
  return result;
}

CompileResult compileOpenCLC(const CompileRequest &request) {
  CompileResult result;
  const TranslatedOptions translated = translateBuildOptions(request.options, request.target);
  if (!translated.unknown.empty()) {
    result.status = CompileResult::Status::InvalidOptions;
    result.log = "error: unknown or invalid build option '" + translated.unknown + "'\n";
    return result;
  }
  if (!translated.unsupportedStandard.empty()) {
    // OpenCL 3.0, 5.8.6.5: a -cl-std the device does not list fails to compile.
    result.status = CompileResult::Status::Failure;
    std::string offered;
    for (const std::string &standard : request.target.standards)
      offered += (offered.empty() ? "" : ", ") + standard;
    result.log = "error: the device does not support -cl-std=" + translated.unsupportedStandard +
                 " (it supports " + offered + ")\n";
    return result;
  }
  const std::optional<Toolchain> &toolchain = findToolchain();
  if (!toolchain) {
    result.status = CompileResult::Status::CompilerNotAvailable;
    result.log = "error: no OpenCL C compiler found: Lanewise needs clang-" +
                 std::to_string(LANEWISE_LLVM_MAJOR) +
                 " (on Debian 12: apt-get install clang-14) and its translator "
                 "lanewise-llvm-spirv, or LANEWISE_CLANG and LANEWISE_LLVM_SPIRV naming them\n";
    return result;
  }

  Hash key;
  key.add(toolchain->identity);
  for (const std::string &argument : translated.clang)
    key.add(argument);
  for (const std::string &macro : translated.undefine)
    key.add("-U" + macro);
  const bool promote = translated.promoteVariables && toolchain->lanewiseTranslator;
  if (promote)
    key.add("--lanewise-promote-variables");
  const bool tables = useBuiltinTables(request.source);
  key.add(tables ? "-fdeclare-opencl-builtins" : "opencl-c.h");
  key.add(request.source);
  for (const auto &[name, text] : request.headers) {
    key.add(name);
    key.add(text);
  }
  // -I folders are read by clang: a build that names one is not cached.
  bool cacheable = true;
  for (size_t i = 0; i + 1 < translated.clang.size(); ++i)
    cacheable &= translated.clang[i] != "-I";
  const std::optional<fs::path> cache = cacheable ? runtime::cacheDirectory() : std::nullopt;
  const std::string name = key.hex();
  result.key = name;
  if (cache) {
    std::string bytes, log;
    if (readFile(*cache / (name + ".spv"), bytes) && unsealed(bytes) && isSpirv(bytes)) {
      readFile(*cache / (name + ".log"), log);
      result.status = CompileResult::Status::Success;
      result.spirv = toWords(bytes);
      result.log = log;
      result.fromCache = true;
      return result;
    }
  }

  // The build's files: the source, the #undef list read after the default
  // header, and the embedded headers of clCompileProgram. The compile server
  // takes them with the request and keeps them in memory, in a folder that
  // only its clang sees; clang and the translator run as programs read them
  // from a temporary folder.
  const bool onServer = !toolchain->server.empty();
  struct Cleanup {
    fs::path path;
    ~Cleanup() {
      std::error_code ignored;
      if (!path.empty())
        fs::remove_all(path, ignored);
    }
  } cleanup;
  fs::path work = "/lanewise-build";
  if (!onServer) {
    const char *temporaryRoot = std::getenv("TMPDIR");
    std::string pattern = std::string(temporaryRoot && *temporaryRoot ? temporaryRoot : "/tmp") +
                          "/lanewise-build-XXXXXX";
    if (!mkdtemp(pattern.data())) {
      result.log = "error: cannot create a temporary folder for the compiler\n";
      return result;
    }
    work = cleanup.path = pattern;
  }
  const fs::path source = work / "program.cl", bitcode = work / "program.bc",
                 spirvFile = work / "program.spv", undefines = work / "undefine.h";
  std::vector<std::pair<fs::path, std::string>> files = {{source, request.source}};
  if (!translated.undefine.empty()) {
    std::string text;
    for (const std::string &macro : translated.undefine)
      text += "#undef " + macro + "\n";
    files.emplace_back(undefines, text);
  }
  for (const auto &[headerName, text] : request.headers)
    files.emplace_back(work / "include" / headerName, text);
  if (!onServer)
    for (const auto &[path, text] : files) {
      std::error_code error;
      fs::create_directories(path.parent_path(), error);
      std::ofstream file(path, std::ios::binary);
      file << text;
    }
  // clang -cc1's arguments after "-cc1", but for the output.
  auto clangArguments = [&](bool tables) {
    std::vector<std::string> clang = {"-triple", "spir64"};
    if (tables)
      clang.push_back("-fdeclare-opencl-builtins");
    clang.push_back("-finclude-default-header");
    clang.insert(clang.end(), translated.clang.begin(), translated.clang.end());
    // Read after the default header, which -finclude-default-header includes
    // first.
    if (!translated.undefine.empty())
      clang.insert(clang.end(), {"-include", undefines.string()});
    if (!request.headers.empty())
      clang.insert(clang.end(), {"-I", (work / "include").string()});
    // Debug information names the source "program.cl", as the build log does.
    if (translated.debugInfo)
      for (const std::string &flag : {"-fdebug-prefix-map=" + work.string() + "/=",
                                       std::string("-fdebug-compilation-dir=.")})
        clang.push_back(flag);
    clang.insert(clang.end(), {"-x", "cl", source.string()});
    return clang;
  };
  std::vector<std::string> translatorOptions = {
      "--spirv-max-version=1.4", translatorExtensionOption(),
      "--preserve-ocl-kernel-arg-type-metadata-through-string", "--spirv-allow-extra-diexpressions"};
  if (promote)
    translatorOptions.push_back("--lanewise-promote-variables");
  // The diagnostics name the source by its temporary path; show it as the
  // program's source.
  auto asProgramSource = [&](std::string diagnostics) {
    for (size_t at; (at = diagnostics.find(source.string())) != std::string::npos;)
      diagnostics.replace(at, source.string().size(), "program.cl");
    return diagnostics;
  };

  std::string bytes;
  if (onServer) {
    auto build = [&](bool tables, compile_server::Message &reply, std::string &crash) {
      compile_server::Message message = clangArguments(tables);
      message.push_back("--translate");
      message.insert(message.end(), translatorOptions.begin(), translatorOptions.end());
      message.push_back("--files");
      for (const auto &[path, text] : files)
        message.insert(message.end(), {path.string(), text});
      return compileOnServer(*toolchain, message, reply, crash);
    };
    compile_server::Message reply;
    std::string crash;
    bool answered = build(tables, reply, crash);
    if (answered && reply[0] == "clang" && tables)
      answered = build(false, reply, crash); // what the tables lack, the header may have
    if (!answered) {
      result.status = CompileResult::Status::Failure;
      result.log = "error: " + asProgramSource(crash) + "\n";
      return result;
    }
    result.log = asProgramSource(reply[1]);
    if (reply[0] != "ok") {
      result.status = CompileResult::Status::Failure;
      if (reply[0] == "translator")
        result.log += "error: llvm-spirv could not translate the program:\n" + reply[2] + "\n";
      return result;
    }
    bytes = std::move(reply[2]);
    if (!isSpirv(bytes)) {
      result.status = CompileResult::Status::Failure;
      result.log += "error: the compile server's SPIR-V is not a module\n";
      return result;
    }
  } else {
    auto clangCommand = [&](bool tables) {
      std::vector<std::string> clang = {toolchain->clang, "-cc1", "-emit-llvm-bc", "-o",
                                        bitcode.string()};
      const std::vector<std::string> arguments = clangArguments(tables);
      clang.insert(clang.end(), arguments.begin(), arguments.end());
      return clang;
    };
    std::string diagnostics;
    int clangStatus = runProcess(clangCommand(tables), diagnostics);
    if (clangStatus != 0 && tables) {
      // What the tables lack, the header may have: the header decides.
      diagnostics.clear();
      clangStatus = runProcess(clangCommand(false), diagnostics);
    }
    result.log = asProgramSource(diagnostics);
    if (clangStatus != 0) {
      result.status = CompileResult::Status::Failure;
      return result;
    }
    std::string translatorOutput;
    std::vector<std::string> translator = {toolchain->llvmSpirv};
    translator.insert(translator.end(), translatorOptions.begin(), translatorOptions.end());
    translator.insert(translator.end(), {bitcode.string(), "-o", spirvFile.string()});
    const int translatorStatus = runProcess(translator, translatorOutput);
    if (translatorStatus != 0 || !readFile(spirvFile, bytes) || !isSpirv(bytes)) {
      result.status = CompileResult::Status::Failure;
      result.log += "error: llvm-spirv could not translate the program:\n" + translatorOutput;
      return result;
    }
  }
  result.status = CompileResult::Status::Success;
  result.spirv = toWords(bytes);
  if (cache) {
    std::error_code error;
    fs::create_directories(*cache, error);
    writeAtomically(*cache / (name + ".log"), result.log);
    writeAtomically(*cache / (name + ".spv"), sealed(bytes));
  }
  return result;
}

} // namespace lanewise::spirv
