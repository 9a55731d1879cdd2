// SPDX-License-Identifier: Apache-2.0
// OpenCL C source programs through the API: clBuildProgram with each build
// option (OpenCL 3.0 API spec, 5.8.6), build logs and build information,
// clCompileProgram with embedded headers and clLinkProgram (5.8.3-5.8.7),
// program binaries (5.8.1, 5.8.9), build callbacks, concurrent builds, the
// compiler's disk cache and a process without a compiler.
//
// Expected values come from the spec and from references computed here.
// Tests that need a fresh process (cache, no compiler) re-run this binary
// with --gtest_filter=BuildCache.DISABLED_ChildProcess and LANEWISE_TEST_CHILD
// set; that test does nothing otherwise.
#include "closed_form_sums.h"
#include "common.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <barrier>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>
#include <type_traits>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace lanewise::test {
namespace {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------
// Helpers

std::string programBuildString(cl_program program, cl_device_id device,
                               cl_program_build_info param) {
  size_t size = 0;
  if (clGetProgramBuildInfo(program, device, param, 0, nullptr, &size) != CL_SUCCESS || !size)
    return {};
  std::string text(size, '\0');
  clGetProgramBuildInfo(program, device, param, size, text.data(), nullptr);
  text.resize(std::strlen(text.c_str()));
  return text;
}

std::string buildLog(cl_program program, cl_device_id device) {
  return programBuildString(program, device, CL_PROGRAM_BUILD_LOG);
}

cl_build_status buildStatus(cl_program program, cl_device_id device) {
  cl_build_status status = 12345;
  EXPECT_EQ(clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status,
                                  nullptr),
            CL_SUCCESS);
  return status;
}

cl_program_binary_type binaryType(cl_program program, cl_device_id device) {
  cl_program_binary_type type = 12345;
  EXPECT_EQ(
      clGetProgramBuildInfo(program, device, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr),
      CL_SUCCESS);
  return type;
}

std::string programString(cl_program program, cl_program_info param) {
  size_t size = 0;
  if (clGetProgramInfo(program, param, 0, nullptr, &size) != CL_SUCCESS || !size)
    return {};
  std::string text(size, '\0');
  clGetProgramInfo(program, param, size, text.data(), nullptr);
  text.resize(std::strlen(text.c_str()));
  return text;
}

// CL_PROGRAM_BINARIES of a one-device program (empty if none is available).
std::vector<unsigned char> programBinary(cl_program program) {
  size_t size = 0;
  EXPECT_EQ(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr),
            CL_SUCCESS);
  std::vector<unsigned char> bytes(size);
  unsigned char *pointers[1] = {bytes.data()};
  if (size) {
    EXPECT_EQ(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof pointers, pointers, nullptr),
              CL_SUCCESS);
  }
  return bytes;
}

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

std::vector<cl_name_version> nameVersions(cl_device_id device, cl_device_info param) {
  size_t size = 0;
  clGetDeviceInfo(device, param, 0, nullptr, &size);
  std::vector<cl_name_version> list(size / sizeof(cl_name_version));
  if (size)
    clGetDeviceInfo(device, param, size, list.data(), nullptr);
  return list;
}

bool supportsOpenCLC(cl_device_id device, cl_uint major, cl_uint minor) {
  for (const cl_name_version &entry : nameVersions(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS))
    if (CL_VERSION_MAJOR(entry.version) == major && CL_VERSION_MINOR(entry.version) == minor)
      return true;
  return false;
}

bool hasFeature(cl_device_id device, const std::string &name) {
  for (const cl_name_version &entry : nameVersions(device, CL_DEVICE_OPENCL_C_FEATURES))
    if (name == entry.name)
      return true;
  return false;
}

// A temporary folder, removed with its contents at the end of the scope.
struct TempDir {
  fs::path path;
  TempDir() {
    const char *root = std::getenv("TMPDIR");
    std::string pattern =
        std::string(root && *root ? root : "/tmp") + "/lanewise-source-test-XXXXXX";
    if (mkdtemp(pattern.data()))
      path = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    if (!path.empty())
      fs::remove_all(path, ignored);
  }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
};

void writeText(const fs::path &path, const std::string &text) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << text;
}

std::string readText(const fs::path &path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

std::string joined(const std::vector<int32_t> &values) {
  std::string text;
  for (int32_t value : values)
    text += (text.empty() ? "" : ",") + std::to_string(value);
  return text;
}

// A kernel source with a warning of the preprocessor and one of the compiler
// (both on by default in clang); the warnings are on lines 1 and 3.
const char *const kWarningSource = "#warning lanewise test warning\n"
                                   "kernel void k(global int *out) {\n"
                                   "  char c = 300;\n"
                                   "  out[get_global_id(0)] = 7 + (c & 0);\n"
                                   "}\n";

// Line 3, column 11 is the ';' where an expression is expected.
const char *const kSyntaxErrorSource = "kernel void k(global int *out) {\n"
                                       "  int a = 1;\n"
                                       "  int x = ;\n"
                                       "  out[0] = a;\n"
                                       "}\n";

// A kernel argument for SourceProgramTest::launch.
template <typename T> std::pair<size_t, const void *> argumentOf(const T &value) {
  return {sizeof value, &value};
}

// ---------------------------------------------------------------------------
// The fixture: programs, kernels and buffers released at tear-down.

class SourceProgramTest : public ContextTest {
protected:
  void TearDown() override {
    for (cl_kernel kernel : kernels_)
      clReleaseKernel(kernel);
    for (cl_mem buffer : buffers_)
      clReleaseMemObject(buffer);
    for (cl_program program : programs_)
      clReleaseProgram(program);
    ContextTest::TearDown();
  }

  // Takes ownership of a program (released at tear-down).
  cl_program adopt(cl_program program) {
    if (program)
      programs_.push_back(program);
    return program;
  }

  cl_program source(const std::string &text) {
    const char *strings[] = {text.c_str()};
    const size_t lengths[] = {text.size()};
    cl_int error = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(context, 1, strings, lengths, &error);
    EXPECT_EQ(error, CL_SUCCESS);
    return adopt(program);
  }

  cl_int build(cl_program program, const std::string &options) {
    return clBuildProgram(program, 1, &device, options.c_str(), nullptr, nullptr);
  }

  // A program built from `text`; fails the test with the log if it does not build.
  cl_program built(const std::string &text, const std::string &options = "") {
    cl_program program = source(text);
    if (!program)
      return nullptr;
    const cl_int result = build(program, options);
    EXPECT_EQ(result, CL_SUCCESS) << "options '" << options << "'\n" << buildLog(program, device);
    return result == CL_SUCCESS ? program : nullptr;
  }

  cl_int compile(cl_program program, const std::string &options,
                 const std::vector<std::pair<std::string, cl_program>> &headers = {}) {
    std::vector<cl_program> programs;
    std::vector<const char *> names;
    for (const auto &[name, header] : headers) {
      names.push_back(name.c_str());
      programs.push_back(header);
    }
    return clCompileProgram(program, 1, &device, options.c_str(), cl_uint(programs.size()),
                            programs.empty() ? nullptr : programs.data(),
                            names.empty() ? nullptr : names.data(), nullptr, nullptr);
  }

  cl_program link(const std::vector<cl_program> &programs, const char *options, cl_int &error) {
    error = 12345;
    return adopt(clLinkProgram(context, 1, &device, options, cl_uint(programs.size()),
                               programs.data(), nullptr, nullptr, &error));
  }

  template <typename T> cl_mem buffer(const std::vector<T> &data) {
    cl_int error = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                data.size() * sizeof(T), const_cast<T *>(data.data()), &error);
    EXPECT_EQ(error, CL_SUCCESS);
    if (mem)
      buffers_.push_back(mem);
    return mem;
  }

  // Runs kernel `name` of `program` over `global` work-items with the
  // arguments given as (size, value) pairs (argumentOf below), and waits.
  void launch(cl_program program, const char *name, size_t global,
              const std::vector<std::pair<size_t, const void *>> &arguments) {
    cl_int error = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program, name, &error);
    ASSERT_EQ(error, CL_SUCCESS) << name;
    kernels_.push_back(kernel);
    for (cl_uint index = 0; index < arguments.size(); ++index)
      ASSERT_EQ(clSetKernelArg(kernel, index, arguments[index].first, arguments[index].second),
                CL_SUCCESS)
          << name << " argument " << index;
    ASSERT_EQ(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr,
                                     nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  }
  template <typename T> std::vector<T> readBack(cl_mem mem, size_t count) {
    std::vector<T> data(count);
    EXPECT_EQ(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, count * sizeof(T), data.data(), 0,
                                  nullptr, nullptr),
              CL_SUCCESS);
    return data;
  }

  // Runs kernel `name` of `program` over `count` work-items; its arguments
  // are one buffer per input, then an output buffer of `count` T (filled
  // with `fill` beforehand). Returns the output, or nothing on failure.
  template <typename T>
  std::vector<T> run(cl_program program, const char *name, size_t count,
                     const std::vector<std::vector<T>> &inputs = {}, T fill = T(-1)) {
    if (!program) // the failure to build is reported already
      return {};
    cl_int error = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program, name, &error);
    EXPECT_EQ(error, CL_SUCCESS) << "clCreateKernel " << name;
    if (!kernel)
      return {};
    kernels_.push_back(kernel);
    cl_uint index = 0;
    for (const std::vector<T> &input : inputs) {
      cl_mem mem = buffer(input);
      EXPECT_EQ(clSetKernelArg(kernel, index++, sizeof mem, &mem), CL_SUCCESS);
    }
    cl_mem output = buffer(std::vector<T>(count, fill));
    EXPECT_EQ(clSetKernelArg(kernel, index, sizeof output, &output), CL_SUCCESS);
    EXPECT_EQ(
        clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &count, nullptr, 0, nullptr, nullptr),
        CL_SUCCESS);
    std::vector<T> result(count);
    EXPECT_EQ(clEnqueueReadBuffer(queue, output, CL_TRUE, 0, count * sizeof(T), result.data(), 0,
                                  nullptr, nullptr),
              CL_SUCCESS);
    return result;
  }

  std::vector<cl_program> programs_;
  std::vector<cl_kernel> kernels_;
  std::vector<cl_mem> buffers_;
};

using SourceProgram = SourceProgramTest;
using CompileLink = SourceProgramTest;
using ProgramBinary = SourceProgramTest;
using BuildCache = SourceProgramTest;

// ---------------------------------------------------------------------------
// Child processes: this binary again, with one helper test and an environment.

std::string selfExecutable() {
  std::string path(4096, '\0');
  const ssize_t length = readlink("/proc/self/exe", path.data(), path.size() - 1);
  path.resize(length > 0 ? size_t(length) : 0);
  return path;
}

// What the child reported: key=value lines, then "log=" and the build log.
struct ChildReport {
  int exitCode = -1;
  std::string output; // the child's stdout and stderr
  std::map<std::string, std::string> values;
  std::string log;
};

ChildReport runChild(const std::map<std::string, std::string> &variables) {
  ChildReport report;
  TempDir scratch;
  const fs::path resultFile = scratch.path / "result.txt";
  const fs::path outputFile = scratch.path / "output.txt";
  std::map<std::string, std::string> overrides = variables;
  overrides["LANEWISE_TEST_CHILD_RESULT"] = resultFile.string();

  std::vector<std::string> environment;
  for (char **entry = environ; *entry; ++entry) {
    const std::string text = *entry;
    const std::string key = text.substr(0, text.find('='));
    if (!overrides.count(key) && key.rfind("LANEWISE_TEST_CHILD", 0) != 0)
      environment.push_back(text);
  }
  for (const auto &[key, value] : overrides)
    environment.push_back(key + "=" + value);
  std::vector<char *> envp;
  for (std::string &text : environment)
    envp.push_back(text.data());
  envp.push_back(nullptr);

  std::vector<std::string> arguments = {selfExecutable(),
                                        "--gtest_filter=BuildCache.DISABLED_ChildProcess",
                                        "--gtest_also_run_disabled_tests"};
  std::vector<char *> argv;
  for (std::string &argument : arguments)
    argv.push_back(argument.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, outputFile.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    report.output = std::string("posix_spawn: ") + std::strerror(spawned);
    return report;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  report.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  report.output = readText(outputFile);

  std::istringstream lines(readText(resultFile));
  for (std::string line; std::getline(lines, line);) {
    if (line == "log=") {
      report.log.assign(std::istreambuf_iterator<char>(lines), std::istreambuf_iterator<char>());
      break;
    }
    const size_t equals = line.find('=');
    if (equals != std::string::npos)
      report.values[line.substr(0, equals)] = line.substr(equals + 1);
  }
  return report;
}

// The real clang and llvm-spirv, found as the compiler driver finds them.
struct RealTools {
  std::string clang, llvmSpirv;
};

bool executable(const std::string &path) { return access(path.c_str(), X_OK) == 0; }

std::string onPath(const std::string &name) {
  const char *path = std::getenv("PATH");
  std::istringstream folders(path ? path : "/usr/bin:/bin");
  for (std::string folder; std::getline(folders, folder, ':');)
    if (!folder.empty() && executable(folder + "/" + name))
      return folder + "/" + name;
  return {};
}

RealTools realTools() {
  const char *clang = std::getenv("LANEWISE_CLANG");
  const char *translator = std::getenv("LANEWISE_LLVM_SPIRV");
  if (clang && *clang && translator && *translator)
    return {clang, translator};
  for (int version = 18; version >= 14; --version) {
    const std::string n = std::to_string(version), folder = "/usr/lib/llvm-" + n + "/bin/";
    std::string c = onPath("clang-" + n), t = onPath("llvm-spirv-" + n);
    if (c.empty() && executable(folder + "clang"))
      c = folder + "clang";
    if (t.empty() && executable(folder + "llvm-spirv"))
      t = folder + "llvm-spirv";
    if (!c.empty() && !t.empty())
      return {c, t};
  }
  return {};
}

// Wrappers of the real tools that append each command line to a log, so that
// a test sees whether a process ran clang (-cc1) without timing anything.
struct LoggingToolchain {
  TempDir folder;
  fs::path clang, llvmSpirv, log;
  bool ok = false;

  LoggingToolchain() {
    const RealTools tools = realTools();
    if (tools.clang.empty() || folder.path.empty())
      return;
    log = folder.path / "invocations.log";
    clang = folder.path / "clang-wrapper";
    llvmSpirv = folder.path / "llvm-spirv-wrapper";
    auto wrapper = [&](const fs::path &path, const std::string &tag, const std::string &real) {
      writeText(path, "#!/bin/sh\nprintf '%s %s\\n' '" + tag + "' \"$*\" >> '" + log.string() +
                          "'\nexec '" + real + "' \"$@\"\n");
      chmod(path.c_str(), 0755);
    };
    wrapper(clang, "clang", tools.clang);
    wrapper(llvmSpirv, "llvm-spirv", tools.llvmSpirv);
    ok = true;
  }

  // How many times clang compiled a program (not counting --version).
  int compilations() const {
    std::istringstream lines(readText(log));
    int count = 0;
    for (std::string line; std::getline(lines, line);)
      count += line.rfind("clang ", 0) == 0 && contains(line, "-cc1");
    return count;
  }
};

// The kernel the cache tests build in a child: out[i] = VALUE + i.
std::string cacheKernel(int value) {
  return "kernel void k(global int *out) {\n"
         "  size_t i = get_global_id(0);\n"
         "  out[i] = " +
         std::to_string(value) + " + (int)i;\n}\n";
}

std::vector<fs::path> cacheEntries(const fs::path &folder) {
  std::vector<fs::path> entries;
  std::error_code error;
  for (const auto &entry : fs::directory_iterator(folder, error))
    if (entry.path().extension() == ".spv")
      entries.push_back(entry.path());
  std::sort(entries.begin(), entries.end());
  return entries;
}

// ---------------------------------------------------------------------------
// The helper run in a child process (LANEWISE_TEST_CHILD=build|nocompiler).
// It reports what it saw; the parent test decides what is right.

TEST_F(BuildCache, DISABLED_ChildProcess) {
  const char *mode = std::getenv("LANEWISE_TEST_CHILD");
  const char *resultPath = std::getenv("LANEWISE_TEST_CHILD_RESULT");
  if (!mode || !resultPath)
    GTEST_SKIP() << "only run as a child process of another test";
  const char *text = std::getenv("LANEWISE_TEST_CHILD_SOURCE");
  const char *options = std::getenv("LANEWISE_TEST_CHILD_OPTIONS");
  std::ostringstream report;
  report << "compiler=" << deviceInfo<cl_bool>(device, CL_DEVICE_COMPILER_AVAILABLE) << "\n";
  report << "linker=" << deviceInfo<cl_bool>(device, CL_DEVICE_LINKER_AVAILABLE) << "\n";

  cl_program program = source(text ? text : cacheKernel(0));
  ASSERT_NE(program, nullptr);
  const cl_int result = build(program, options ? options : "");
  report << "build=" << result << "\n";
  report << "status=" << buildStatus(program, device) << "\n";
  if (result == CL_SUCCESS)
    report << "values=" << joined(run<int32_t>(program, "k", 4)) << "\n";
  if (std::string(mode) == "nocompiler") {
    cl_program other = source(text ? text : cacheKernel(0));
    report << "compile=" << compile(other, "") << "\n";
  }
  report << "log=\n" << buildLog(program, device);
  writeText(resultPath, report.str());
}

// ---------------------------------------------------------------------------
// SourceProgram: clBuildProgram from source.

// OpenCL 3.0, CL_DEVICE_COMPILER_AVAILABLE and CL_DEVICE_LINKER_AVAILABLE:
// CL_TRUE for full-profile devices.
TEST_F(SourceProgram, DeviceReportsCompilerAndLinker) {
  EXPECT_EQ(deviceString(device, CL_DEVICE_PROFILE), "FULL_PROFILE");
  EXPECT_EQ(deviceInfo<cl_bool>(device, CL_DEVICE_COMPILER_AVAILABLE), cl_bool{CL_TRUE});
  EXPECT_EQ(deviceInfo<cl_bool>(device, CL_DEVICE_LINKER_AVAILABLE), cl_bool{CL_TRUE});
}

// clGetProgramBuildInfo before and after a build (5.8.10): NONE, empty
// options and log, no binary; then SUCCESS, the options given, EXECUTABLE.
TEST_F(SourceProgram, BuildInfoAtEachStage) {
  const std::string text = "kernel void first(global int *out) {\n"
                           "  out[get_global_id(0)] = VALUE * 2;\n"
                           "}\n"
                           "kernel void second(global int *out) {\n"
                           "  out[get_global_id(0)] = VALUE + (int)get_global_id(0);\n"
                           "}\n";
  cl_program program = source(text);
  ASSERT_NE(program, nullptr);
  EXPECT_EQ(programString(program, CL_PROGRAM_SOURCE), text);
  EXPECT_EQ(buildStatus(program, device), CL_BUILD_NONE);
  EXPECT_EQ(binaryType(program, device), cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_NONE});
  EXPECT_EQ(programBuildString(program, device, CL_PROGRAM_BUILD_OPTIONS), "");
  EXPECT_EQ(buildLog(program, device), "");
  cl_int error = CL_SUCCESS;
  EXPECT_EQ(clCreateKernel(program, "first", &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_PROGRAM_EXECUTABLE);
  size_t kernels = 0;
  EXPECT_EQ(clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS, sizeof kernels, &kernels, nullptr),
            CL_INVALID_PROGRAM_EXECUTABLE);

  const std::string options = "-D VALUE=21 -cl-std=CL1.2";
  ASSERT_EQ(build(program, options), CL_SUCCESS) << buildLog(program, device);
  EXPECT_EQ(buildStatus(program, device), CL_BUILD_SUCCESS);
  EXPECT_EQ(binaryType(program, device), cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_EXECUTABLE});
  EXPECT_EQ(programBuildString(program, device, CL_PROGRAM_BUILD_OPTIONS), options);
  size_t globalBytes = 12345;
  EXPECT_EQ(clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                  sizeof globalBytes, &globalBytes, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(globalBytes, 0u); // no program-scope variables in the global address space
  EXPECT_EQ(clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS, sizeof kernels, &kernels, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(kernels, 2u);
  const std::string names = programString(program, CL_PROGRAM_KERNEL_NAMES);
  EXPECT_TRUE(names == "first;second" || names == "second;first") << names;
  EXPECT_EQ(run<int32_t>(program, "first", 3), (std::vector<int32_t>{42, 42, 42}));
  EXPECT_EQ(run<int32_t>(program, "second", 3), (std::vector<int32_t>{21, 22, 23}));

  // A failed build: CL_BUILD_ERROR, and no executable.
  cl_program broken = source(kSyntaxErrorSource);
  ASSERT_NE(broken, nullptr);
  EXPECT_EQ(build(broken, ""), CL_BUILD_PROGRAM_FAILURE);
  EXPECT_EQ(buildStatus(broken, device), CL_BUILD_ERROR);
  EXPECT_EQ(clCreateKernel(broken, "k", &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_PROGRAM_EXECUTABLE);
}

// -D name (definition 1) and -D name=definition, separate or attached,
// processed in order (5.8.6.1).
TEST_F(SourceProgram, DefineOptionsReachTheKernel) {
  const std::string text = "#ifndef VALUE\n#define VALUE -1\n#endif\n"
                           "#ifndef FLAG\n#define FLAG -1\n#endif\n"
                           "#ifndef ATTACHED\n#define ATTACHED -1\n#endif\n"
                           "#ifndef REPEATED\n#define REPEATED -1\n#endif\n"
                           "kernel void k(global int *out) {\n"
                           "  const int values[] = {VALUE, FLAG, ATTACHED, REPEATED,\n"
                           "#ifdef NOT_DEFINED\n"
                           "                        1};\n"
                           "#else\n"
                           "                        0};\n"
                           "#endif\n"
                           "  out[get_global_id(0)] = values[get_global_id(0)];\n"
                           "}\n";
  EXPECT_EQ(run<int32_t>(built(text), "k", 1 + 4), (std::vector<int32_t>{-1, -1, -1, -1, 0}));
  EXPECT_EQ(run<int32_t>(built(text, "-D VALUE=42 -D FLAG -DATTACHED=-7 -D REPEATED=1 "
                                     "-D REPEATED=2"),
                         "k", 5),
            (std::vector<int32_t>{42, 1, -7, 2, 0}));
  EXPECT_EQ(run<int32_t>(built(text, "-DFLAG -DVALUE=(3*5)"), "k", 5),
            (std::vector<int32_t>{15, 1, -1, -1, 0}));
}

// -I dir: headers on disk (5.8.6.1), attached or separate; without it the
// header is not found.
TEST_F(SourceProgram, IncludeDirectoryOption) {
  TempDir folder;
  ASSERT_FALSE(folder.path.empty());
  writeText(folder.path / "lanewise_scale.h",
            "#define LANEWISE_SCALE 5\n"
            "static inline int lanewise_scaled(int x) { return x * LANEWISE_SCALE; }\n");
  const std::string text = "#include \"lanewise_scale.h\"\n"
                           "kernel void k(global int *out) {\n"
                           "  int i = (int)get_global_id(0);\n"
                           "  out[i] = lanewise_scaled(i) + 1;\n"
                           "}\n";
  const std::vector<int32_t> expected = {1, 6, 11, 16};
  EXPECT_EQ(run<int32_t>(built(text, "-I " + folder.path.string()), "k", 4), expected);
  EXPECT_EQ(run<int32_t>(built(text, "-I" + folder.path.string()), "k", 4), expected);

  cl_program missing = source(text);
  ASSERT_NE(missing, nullptr);
  EXPECT_EQ(build(missing, ""), CL_BUILD_PROGRAM_FAILURE);
  EXPECT_TRUE(contains(buildLog(missing, device), "lanewise_scale.h")) << buildLog(missing, device);
}

// "dir can optionally be enclosed in double quotes" (5.8.6.1): a folder whose
// name has a space.
TEST_F(SourceProgram, IncludeDirectoryInQuotes) {
  TempDir folder;
  ASSERT_FALSE(folder.path.empty());
  const fs::path spaced = folder.path / "with space";
  fs::create_directories(spaced);
  writeText(spaced / "quoted_header.h", "#define QUOTED_VALUE 77\n");
  const std::string text =
      "#include \"quoted_header.h\"\n"
      "kernel void k(global int *out) { out[get_global_id(0)] = QUOTED_VALUE; }\n";
  cl_program program = source(text);
  ASSERT_NE(program, nullptr);
  const cl_int result = build(program, "-I \"" + spaced.string() + "\"");
  ASSERT_EQ(result, CL_SUCCESS) << buildLog(program, device);
  EXPECT_EQ(run<int32_t>(program, "k", 2), (std::vector<int32_t>{77, 77}));
}

// A source with only warnings builds; the warnings are in the log.
TEST_F(SourceProgram, WarningsBuildAndAppearInTheLog) {
  cl_program program = built(kWarningSource);
  ASSERT_NE(program, nullptr);
  const std::string log = buildLog(program, device);
  EXPECT_TRUE(contains(log, "lanewise test warning")) << log;
  EXPECT_TRUE(contains(log, "warning")) << log;
  if (testingLanewise()) { // Lanewise shows the source as program.cl
    EXPECT_TRUE(contains(log, "program.cl:1:2: warning")) << log;
  }
  EXPECT_EQ(buildStatus(program, device), CL_BUILD_SUCCESS);
  EXPECT_EQ(run<int32_t>(program, "k", 2), (std::vector<int32_t>{7, 7}));
}

// -w: "Inhibit all warning messages" (5.8.6.4).
TEST_F(SourceProgram, NoWarningsOption) {
  cl_program program = built(kWarningSource, "-w");
  ASSERT_NE(program, nullptr);
  const std::string log = buildLog(program, device);
  EXPECT_FALSE(contains(log, "lanewise test warning")) << log;
  EXPECT_FALSE(contains(log, "warning")) << log;
  EXPECT_EQ(run<int32_t>(program, "k", 2), (std::vector<int32_t>{7, 7}));
}

// -Werror: "Make all warnings into errors" (5.8.6.4).
TEST_F(SourceProgram, WerrorOptionFailsTheBuild) {
  cl_program program = source(kWarningSource);
  ASSERT_NE(program, nullptr);
  EXPECT_EQ(build(program, "-Werror"), CL_BUILD_PROGRAM_FAILURE);
  EXPECT_EQ(buildStatus(program, device), CL_BUILD_ERROR);
  const std::string log = buildLog(program, device);
  EXPECT_TRUE(contains(log, "error")) << log;
  EXPECT_TRUE(contains(log, "lanewise test warning")) << log;
  cl_int error = CL_SUCCESS;
  EXPECT_EQ(clCreateKernel(program, "k", &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_PROGRAM_EXECUTABLE);
}

// A syntax error: CL_BUILD_PROGRAM_FAILURE and clang's diagnostic in the log.
TEST_F(SourceProgram, SyntaxErrorIsReportedWithItsPosition) {
  cl_program program = source(kSyntaxErrorSource);
  ASSERT_NE(program, nullptr);
  EXPECT_EQ(build(program, ""), CL_BUILD_PROGRAM_FAILURE);
  EXPECT_EQ(buildStatus(program, device), CL_BUILD_ERROR);
  const std::string log = buildLog(program, device);
  EXPECT_TRUE(contains(log, "expected expression")) << log;
  if (testingLanewise()) {
    EXPECT_TRUE(contains(log, "program.cl:3:11: error: expected expression")) << log;
  }
}

// An LLVM intrinsic with no SPIR-V counterpart (clang's
// __builtin_readcyclecounter) fails the build with a log that names it and
// the function, where llvm-spirv-14 alone would abort; the compiler serves
// the next build.
TEST_F(SourceProgram, IntrinsicWithoutTranslationFailsTheBuildNamingIt) {
  if (!testingLanewise())
    GTEST_SKIP() << "other compilers may have the processor's cycle counter";
  cl_program program = source("kernel void cycles(global ulong *out) {\n"
                              "  *out = __builtin_readcyclecounter();\n"
                              "}\n");
  ASSERT_NE(program, nullptr);
  EXPECT_EQ(build(program, ""), CL_BUILD_PROGRAM_FAILURE);
  const std::string log = buildLog(program, device);
  EXPECT_TRUE(contains(log, "the LLVM intrinsic llvm.readcyclecounter (in function 'cycles') "
                            "has no SPIR-V translation"))
      << log;
  EXPECT_FALSE(contains(log, "exited with status")) << log;
  cl_program next = source("kernel void k(global int *out) { *out = 1; }\n");
  ASSERT_NE(next, nullptr);
  EXPECT_EQ(build(next, ""), CL_SUCCESS) << buildLog(next, device);
}

// A program that crashes the compiler (clang's own "#pragma clang __debug
// crash") fails its build with CL_BUILD_PROGRAM_FAILURE and a log that says
// so, and takes nothing else down: the application goes on, and the next
// builds in the same context, on the same and on other threads, succeed.
TEST_F(SourceProgram, CompilerCrashFailsOnlyThatBuild) {
  if (!testingLanewise())
    GTEST_SKIP() << "a compiler in the application's process would take it down";
  const std::string salt =
      std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
  const std::string crashing = "// " + salt + "\n#pragma clang __debug crash\n"
                               "kernel void k(global int *out) { *out = 1; }\n";
  for (int attempt = 0; attempt < 2; ++attempt) {
    cl_program program = source(crashing);
    ASSERT_NE(program, nullptr);
    EXPECT_EQ(build(program, ""), CL_BUILD_PROGRAM_FAILURE) << attempt;
    EXPECT_EQ(buildStatus(program, device), CL_BUILD_ERROR) << attempt;
    const std::string log = buildLog(program, device);
    // clang's crash report names the source position it was at.
    EXPECT_TRUE(contains(log, "program.cl:2:2")) << log;
    EXPECT_TRUE(contains(log, "while compiling this program") ||
                contains(log, "PLEASE submit a bug report"))
        << log;
  }
  // Built on three threads at once (the programs are adopted afterwards:
  // the fixture's lists are not for threads).
  constexpr int kThreads = 3;
  std::vector<cl_program> programs(kThreads);
  std::vector<cl_int> results(kThreads, 12345);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      const std::string text = "// " + salt + "\nkernel void k(global int *out) { "
                               "out[get_global_id(0)] = " + std::to_string(7 + t) + "; }\n";
      const char *strings[] = {text.c_str()};
      cl_int error = CL_SUCCESS;
      programs[t] = clCreateProgramWithSource(context, 1, strings, nullptr, &error);
      if (programs[t])
        results[t] = build(programs[t], "");
    });
  for (std::thread &thread : threads)
    thread.join();
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_NE(adopt(programs[t]), nullptr) << t;
    EXPECT_EQ(results[t], CL_SUCCESS) << buildLog(programs[t], device);
    EXPECT_EQ(run<int32_t>(programs[t], "k", 3), std::vector<int32_t>(3, 7 + t)) << t;
  }
}

// The work-item functions that take a dimension answer 0 (ids, offset) or
// 1 (sizes, group count) for a dimension outside 0 to get_work_dim() - 1
// (OpenCL C 3.0, 6.15.1), whether the dimension is a constant (which
// llvm-spirv-14 translated to SPIR-V that does not validate) or a value
// (which it translated to a vector component read out of range). The
// expected values are the specification's; PoCL 3.1 answers 0 for all.
TEST_F(SourceProgram, WorkItemFunctionsOutsideTheDimensions) {
  const std::string text =
      "kernel void dims(global ulong *out, uint n) {\n"
      "  if (get_global_id(0) != 0) return;\n"
      "  out[0] = get_global_id(n); out[1] = get_global_size(n);\n"
      "  out[2] = get_local_id(n); out[3] = get_local_size(n);\n"
      "  out[4] = get_enqueued_local_size(n); out[5] = get_num_groups(n);\n"
      "  out[6] = get_group_id(n); out[7] = get_global_offset(n);\n"
      "  out[8] = get_global_id(3); out[9] = get_global_size(4);\n"
      "  out[10] = get_local_id(5); out[11] = get_local_size(6);\n"
      "  out[12] = get_enqueued_local_size(7); out[13] = get_num_groups(100);\n"
      "  out[14] = get_group_id(1000); out[15] = get_global_offset(0xffffffff);\n"
      "}\n";
  const std::vector<uint64_t> outside = {0, 1, 0, 1, 1, 1, 0, 0};
  for (const char *options : {"-cl-std=CL3.0", "-cl-std=CL3.0 -cl-opt-disable"}) {
    cl_program program = built(text, options);
    ASSERT_NE(program, nullptr) << options;
    for (cl_uint n : {0u, 1u, 2u, 3u, 5u, 1000u, 0xffffffffu}) {
      cl_mem out = buffer(std::vector<uint64_t>(16, 99));
      launch(program, "dims", 4, {argumentOf(out), argumentOf(n)});
      const std::vector<uint64_t> got = readBack<uint64_t>(out, 16);
      // A 1-dimensional launch of 4 work-items in groups of 2 (the local
      // size is the implementation's: read it back from the answer).
      std::vector<uint64_t> expected = outside;
      if (n == 0)
        expected = {0, 4, 0, got[3], got[3], got[3] ? 4 / got[3] : 0, 0, 0};
      expected.insert(expected.end(), outside.begin(), outside.end());
      EXPECT_EQ(got, expected) << options << ", dimension " << n;
    }
  }
}

// -cl-opt-disable changes nothing in the results.
TEST_F(SourceProgram, OptDisableGivesTheSameResults) {
  const std::string text = "kernel void k(global const int *in, global int *out) {\n"
                           "  int i = (int)get_global_id(0);\n"
                           "  int sum = 0;\n"
                           "  for (int j = 0; j <= in[i]; ++j) {\n"
                           "    if (j & 1) sum += j * j; else sum -= j;\n"
                           "  }\n"
                           "  out[i] = sum;\n"
                           "}\n";
  std::vector<int32_t> input(32), expected(32);
  for (int i = 0; i < 32; ++i) {
    input[i] = (i * 7) % 23;
    int sum = 0;
    for (int j = 0; j <= input[i]; ++j)
      sum += (j & 1) ? j * j : -j;
    expected[i] = sum;
  }
  EXPECT_EQ(run<int32_t>(built(text, "-cl-opt-disable"), "k", 32, {input}), expected);
  EXPECT_EQ(run<int32_t>(built(text, ""), "k", 32, {input}), expected);
}

// clang-14 -O2 freezes the operands of a division and remainder of the same
// values (and of an index split into row and column), an instruction
// llvm-spirv-14 cannot translate; the driver's translator replaces it.
TEST_F(SourceProgram, ProgramsWithFreezeBuildAndRun) {
  const std::string text =
      "kernel void divrem(global const uint *a, global const uint *b, global uint *q) {\n"
      "  size_t i = get_global_id(0); uint x = a[i], y = b[i];\n"
      "  q[2 * i] = x / y; q[2 * i + 1] = x % y;\n"
      "}\n"
      "kernel void transpose_index(global const int *in, global int *out, int width,\n"
      "                            int height) {\n"
      "  int i = get_global_id(0);\n"
      "  int row = i / width, col = i % width;\n"
      "  out[i] = in[col * height + row] + row;\n"
      "}\n"
      "kernel void divrem_vector(global const long4 *a, global const long4 *b,\n"
      "                          global long4 *q) {\n"
      "  size_t i = get_global_id(0); long4 x = a[i], y = b[i];\n"
      "  q[2 * i] = x / y; q[2 * i + 1] = x % y;\n"
      "}\n";
  for (const char *options : {"", "-cl-opt-disable"}) {
    cl_program program = built(text, options);
    ASSERT_NE(program, nullptr) << options;
    const size_t n = 96;
    {
      std::vector<cl_uint> a(n), b(n);
      for (size_t i = 0; i < n; ++i) {
        a[i] = cl_uint(i * 2654435761u);
        b[i] = cl_uint(i % 13 + 1) * cl_uint(i % 5 + 1);
      }
      cl_mem ma = buffer(a), mb = buffer(b), mq = buffer(std::vector<cl_uint>(2 * n));
      launch(program, "divrem", n, {argumentOf(ma), argumentOf(mb), argumentOf(mq)});
      const std::vector<cl_uint> q = readBack<cl_uint>(mq, 2 * n);
      for (size_t i = 0; i < n; ++i) {
        EXPECT_EQ(q[2 * i], a[i] / b[i]) << options << " " << i;
        EXPECT_EQ(q[2 * i + 1], a[i] % b[i]) << options << " " << i;
      }
    }
    {
      const cl_int width = 12, height = cl_int(n) / width;
      std::vector<cl_int> in(n);
      for (size_t i = 0; i < n; ++i)
        in[i] = cl_int(i * 31 % 101);
      cl_mem mi = buffer(in), mo = buffer(std::vector<cl_int>(n));
      launch(program, "transpose_index", n,
             {argumentOf(mi), argumentOf(mo), argumentOf(width), argumentOf(height)});
      const std::vector<cl_int> out = readBack<cl_int>(mo, n);
      for (size_t i = 0; i < n; ++i) {
        const int row = int(i) / width, col = int(i) % width;
        EXPECT_EQ(out[i], in[size_t(col * height + row)] + row) << options << " " << i;
      }
    }
    {
      std::vector<cl_long> a(4 * n), b(4 * n);
      for (size_t k = 0; k < a.size(); ++k) {
        a[k] = cl_long(k * 0x9e3779b97f4a7c15ull) >> 3;
        b[k] = (k % 2 ? -1 : 1) * cl_long(k % 29 + 2);
      }
      cl_mem ma = buffer(a), mb = buffer(b), mq = buffer(std::vector<cl_long>(8 * n));
      launch(program, "divrem_vector", n, {argumentOf(ma), argumentOf(mb), argumentOf(mq)});
      const std::vector<cl_long> q = readBack<cl_long>(mq, 8 * n);
      for (size_t i = 0; i < n; ++i)
        for (size_t c = 0; c < 4; ++c) {
          EXPECT_EQ(q[8 * i + c], a[4 * i + c] / b[4 * i + c]) << options << " " << i;
          EXPECT_EQ(q[8 * i + 4 + c], a[4 * i + c] % b[4 * i + c]) << options << " " << i;
        }
    }
  }
}

// clang-14 -O2 reads `(uchar)v.s8` of a short16 as element 16 of the
// vector bitcast to <32 x i8>, and then adds, multiplies, shuffles and
// compares vectors of 32 and 64 components, lengths SPIR-V has no type for:
// llvm-spirv-14 aborted on some ("Unsupported vector type with the size of:
// 32") and translated others into wrong components. The driver's translator
// splits such vectors into their components first.
TEST_F(SourceProgram, OptimisedVectorsOfLengthsSPIRVLacksBuildAndRun) {
  const std::string text =
      "kernel void narrow(global const short16 *s, global const int16 *w,\n"
      "                   global const long16 *l, global const int *flag, global uint *out) {\n"
      "  size_t i = get_global_id(0);\n"
      "  short16 a = s[i]; int16 b = w[i]; long16 c = l[i];\n"
      "  if (flag[i]) { a = s[i + 1]; b = w[i + 1]; c = l[i + 1]; }\n"
      "  out[8 * i + 0] = (uchar)((uchar)a.s8 + (uchar)a.s9);\n"
      "  out[8 * i + 1] = (uchar)a.s3;\n"
      "  out[8 * i + 2] = (uchar)b.s6;\n"
      "  out[8 * i + 3] = (ushort)b.sd;\n"
      "  out[8 * i + 4] = (ushort)c.s7;\n"
      "  out[8 * i + 5] = (uchar)((uchar)c.sf ^ (uchar)c.s2);\n"
      "  out[8 * i + 6] = (uint)c.s5;\n"
      "  out[8 * i + 7] = (uchar)((uchar)b.s1 * (uchar)b.s0) + ((uchar)a.sa < (uchar)a.sb);\n"
      "}\n"
      "kernel void chain(global const short16 *s, global uint *out, int n) {\n"
      "  size_t i = get_global_id(0);\n"
      "  short16 a = s[i];\n"
      "  uint acc = 0;\n"
      "  for (int k = 0; k < n; ++k) {\n"
      "    acc = acc * 31 + (uchar)a.s4 + (uchar)a.s9;\n"
      "    a = (a ^ (short16)(k)).s123456789abcdef0;\n"
      "  }\n"
      "  out[i] = acc;\n"
      "}\n"
      // A <32 x i8> carried around the loop in phis, one of them on its
      // back edge.
      "kernel void carried(global const short16 *s, global const int *pick,\n"
      "                    global uint *out, int n) {\n"
      "  size_t i = get_global_id(0);\n"
      "  short16 a = s[i];\n"
      "  uint acc = 0;\n"
      "  for (int k = 0; k < n; ++k) {\n"
      "    acc = acc * 3 + (uchar)a.s8 + (uchar)a.s3;\n"
      "    if (pick[k])\n"
      "      a = s[k];\n"
      "  }\n"
      "  out[i] = acc;\n"
      "}\n";
  const size_t n = 40;
  uint64_t state = 0x243f6a8885a308d3ull;
  auto next = [&] { return state = state * 6364136223846793005ull + 1442695040888963407ull; };
  std::vector<cl_short> s(16 * (n + 1));
  std::vector<cl_int> w(16 * (n + 1)), flag(n);
  std::vector<cl_long> l(16 * (n + 1));
  for (auto &x : s) x = cl_short(next() >> 40);
  for (auto &x : w) x = cl_int(next() >> 24);
  for (auto &x : l) x = cl_long(next());
  for (size_t i = 0; i < n; ++i) flag[i] = int(next() >> 60) & 1;
  std::vector<cl_uint> expected(8 * n);
  for (size_t i = 0; i < n; ++i) {
    const size_t v = 16 * (i + size_t(flag[i]));
    const cl_short *a = &s[v];
    const cl_int *b = &w[v];
    const cl_long *c = &l[v];
    expected[8 * i + 0] = uint8_t(uint8_t(a[8]) + uint8_t(a[9]));
    expected[8 * i + 1] = uint8_t(a[3]);
    expected[8 * i + 2] = uint8_t(b[6]);
    expected[8 * i + 3] = uint16_t(b[13]);
    expected[8 * i + 4] = uint16_t(c[7]);
    expected[8 * i + 5] = uint8_t(uint8_t(c[15]) ^ uint8_t(c[2]));
    expected[8 * i + 6] = uint32_t(c[5]);
    expected[8 * i + 7] = uint8_t(uint8_t(b[1]) * uint8_t(b[0])) + (uint8_t(a[10]) < uint8_t(a[11]));
  }
  const cl_int rounds = 9;
  std::vector<cl_uint> chained(n);
  for (size_t i = 0; i < n; ++i) {
    cl_short a[16];
    std::copy_n(&s[16 * i], 16, a);
    uint32_t acc = 0;
    for (int k = 0; k < rounds; ++k) {
      acc = acc * 31 + uint8_t(a[4]) + uint8_t(a[9]);
      cl_short rotated[16];
      for (int c = 0; c < 16; ++c)
        rotated[c] = cl_short(a[(c + 1) % 16] ^ k);
      std::copy_n(rotated, 16, a);
    }
    chained[i] = acc;
  }
  for (const char *options : {"", "-cl-opt-disable"}) {
    cl_program program = built(text, options);
    ASSERT_NE(program, nullptr) << options;
    cl_mem ms = buffer(s), mw = buffer(w), ml = buffer(l), mf = buffer(flag),
           mo = buffer(std::vector<cl_uint>(8 * n));
    launch(program, "narrow", n,
           {argumentOf(ms), argumentOf(mw), argumentOf(ml), argumentOf(mf), argumentOf(mo)});
    EXPECT_EQ(readBack<cl_uint>(mo, 8 * n), expected) << options;
    cl_mem mc = buffer(std::vector<cl_uint>(n));
    launch(program, "chain", n, {argumentOf(ms), argumentOf(mc), argumentOf(rounds)});
    EXPECT_EQ(readBack<cl_uint>(mc, n), chained) << options;
    std::vector<cl_int> pick(rounds);
    for (cl_int k = 0; k < rounds; ++k)
      pick[size_t(k)] = k % 3 == 1;
    std::vector<cl_uint> carried(n);
    for (size_t i = 0; i < n; ++i) {
      const cl_short *a = &s[16 * i];
      uint32_t acc = 0;
      for (cl_int k = 0; k < rounds; ++k) {
        acc = acc * 3 + uint8_t(a[8]) + uint8_t(a[3]);
        if (pick[size_t(k)])
          a = &s[16 * size_t(k)];
      }
      carried[i] = acc;
    }
    cl_mem mp = buffer(pick), mr = buffer(std::vector<cl_uint>(n));
    launch(program, "carried", n,
           {argumentOf(ms), argumentOf(mp), argumentOf(mr), argumentOf(rounds)});
    EXPECT_EQ(readBack<cl_uint>(mr, n), carried) << options;
  }
}

// clang-14 -O2 replaces a loop that sums i, i * i or i * i * i by its closed
// form, computed by SCEV one bit wider than the loop's type (an i33 for a
// uint loop, an i65 for a ulong one); the SLP vectoriser pairs two such
// sums in a <2 x i33>; InstCombine narrows a switch's selector to an i4.
// OpenCL's SPIR-V environment has none of these widths; llvm-spirv-14 wrote
// them with SPV_INTEL_arbitrary_precision_integers, which few consumers
// read. The driver's translator promotes them as LLVM's type legalisation
// does. The expected values are the loops themselves, run on the host in
// the kernel's types.

// Whether SPIR-V words in `binary` (anywhere in it, at any offset) declare an
// OpTypeInt of a width other than 8, 16, 32 and 64 bits.
bool declaresOddIntegers(const std::vector<unsigned char> &binary) {
  auto word = [&](size_t at) {
    uint32_t value;
    std::memcpy(&value, &binary[at], sizeof value);
    return value;
  };
  const uint32_t typeInt = 3u << 16 | 21u; // word count 3, OpTypeInt
  for (size_t at = 0; at + 12 <= binary.size(); ++at)
    if (word(at) == typeInt) {
      const uint32_t width = word(at + 8);
      if (width != 8 && width != 16 && width != 32 && width != 64)
        return true;
    }
  return false;
}

TEST_F(SourceProgram, OptimisedIntegerWidthsSPIRVLacksBuildAndRun) {
  const std::string text =
      "#define SUMS(T, name)                                                \\\n"
      "kernel void name(global const T *n, global T *out) {                \\\n"
      "  size_t g = get_global_id(0); T c = n[g];                          \\\n"
      "  T a = 0, b = 0, d = 0, e = 0;                                     \\\n"
      "  for (T i = 1; i < c; i++) a += i;                                 \\\n"
      "  for (T i = 0; i < c; i++) b += i * i;                             \\\n"
      "  for (T i = 0; i < c; i++) d += i * i * i;                         \\\n"
      "  for (T i = c; i > 3; i -= 3) e += i * 7 - 5;                      \\\n"
      "  out[4 * g] = a; out[4 * g + 1] = b; out[4 * g + 2] = d; out[4 * g + 3] = e; }\n"
      "SUMS(uchar, sums_uchar)\n"
      "SUMS(ushort, sums_ushort)\n"
      "SUMS(uint, sums_uint)\n"
      "SUMS(int, sums_int)\n"
      "SUMS(ulong, sums_ulong)\n"
      "SUMS(long, sums_long)\n"
      "kernel void pair(global const uint *n, global uint2 *out) {\n"
      "  size_t g = get_global_id(0); uint c = n[g]; uint2 r = 0;\n"
      "  for (uint i = 1; i < c; i++) { r.x += i; r.y += i * i; }\n"
      "  out[g] = r;\n"
      "}\n"
      "kernel void nibble(global const uint *n, global int *out) {\n"
      "  size_t g = get_global_id(0); int r;\n"
      "  switch ((n[g] >> 3) & 15) {\n"
      "  case 0: r = 5; break; case 3: r = 9; break; case 7: case 11: r = -2; break;\n"
      "  case 15: r = 44; break; default: r = 1;\n"
      "  }\n"
      "  out[g] = r;\n"
      "}\n";
  cl_program program = built(text);
  ASSERT_NE(program, nullptr);
  // Promoted in the translation, the SPIR-V needs no
  // SPV_INTEL_arbitrary_precision_integers: any consumer reads it.
  EXPECT_FALSE(declaresOddIntegers(programBinary(program)));
  // Counts around each width's wrap-around, for the unsigned types; small
  // and negative ones for the signed, whose overflow is undefined.
  auto check = [&](const char *name, auto type, std::vector<uint64_t> counts) {
    using T = decltype(type);
    std::vector<T> n;
    for (uint64_t count : counts)
      n.push_back(T(count));
    cl_mem mn = buffer(n), mo = buffer(std::vector<T>(4 * n.size()));
    launch(program, name, n.size(), {argumentOf(mn), argumentOf(mo)});
    const std::vector<T> out = readBack<T>(mo, 4 * n.size());
    for (size_t i = 0; i < n.size(); ++i)
      EXPECT_EQ((std::array<T, 4>{out[4 * i], out[4 * i + 1], out[4 * i + 2], out[4 * i + 3]}),
                sumsOf<T>(n[i]))
          << name << " " << +n[i];
  };
  std::vector<uint64_t> wide = {0, 1, 2, 3, 4, 5, 17, 100, 255, 256, 1000, 65535, 65536, 92682,
                                92683, 100000, 131071, 262145, 1000003};
  std::vector<uint64_t> bytes, shorts;
  for (uint64_t c = 0; c < 256; ++c)
    bytes.push_back(c);
  for (uint64_t c = 0; c < 65536; c += 257)
    shorts.push_back(c);
  check("sums_uchar", cl_uchar(), bytes);
  check("sums_ushort", cl_ushort(), shorts);
  check("sums_uint", cl_uint(), wide);
  check("sums_ulong", cl_ulong(), wide);
  // At most 300: the sum of cubes stays within int (signed overflow is undefined).
  std::vector<uint64_t> small = {0, 1, 2, 3, 4, 7, 100, 300};
  for (int64_t negative : {-1, -2, -5, -1000})
    small.push_back(uint64_t(negative));
  check("sums_int", cl_int(), small);
  check("sums_long", cl_long(), small);

  std::vector<cl_uint> n(wide.begin(), wide.end());
  cl_mem mn = buffer(n), mp = buffer(std::vector<cl_uint>(2 * n.size()));
  launch(program, "pair", n.size(), {argumentOf(mn), argumentOf(mp)});
  const std::vector<cl_uint> pairs = readBack<cl_uint>(mp, 2 * n.size());
  for (size_t i = 0; i < n.size(); ++i) {
    const std::array<cl_uint, 4> sums = sumsOf<cl_uint>(n[i]);
    EXPECT_EQ(pairs[2 * i], sums[0]) << n[i];
    EXPECT_EQ(pairs[2 * i + 1], sums[1]) << n[i]; // i * i from 1 or from 0: the same sum
  }

  std::vector<cl_uint> selectors(256);
  for (cl_uint k = 0; k < 256; ++k)
    selectors[k] = k * 0x01010101u;
  cl_mem ms = buffer(selectors), mr = buffer(std::vector<cl_int>(256));
  launch(program, "nibble", 256, {argumentOf(ms), argumentOf(mr)});
  const std::vector<cl_int> chosen = readBack<cl_int>(mr, 256);
  for (cl_uint k = 0; k < 256; ++k) {
    const cl_uint nib = (selectors[k] >> 3) & 15;
    const cl_int want = nib == 0 ? 5 : nib == 3 ? 9 : nib == 7 || nib == 11 ? -2 : nib == 15 ? 44 : 1;
    EXPECT_EQ(chosen[k], want) << selectors[k];
  }
}

// clang-14 -O2 narrows this switch's selector to an i4, and llvm-spirv-14
// aborts on it (the CTS's ifp_core kernel has the same shape); the driver's
// translator widens the selector.
TEST_F(SourceProgram, ProgramsWithNarrowSwitchSelectorsBuildAndRun) {
  const std::string text =
      "kernel void run_program(global const int *code, global int *out) {\n"
      "  const int lid = (int)get_global_id(0);\n"
      "  const global int *pc = code + lid * 8;\n"
      "  int acc = 0;\n"
      "  bool run = true;\n"
      "  while (run) {\n"
      "    int inst = *pc++;\n"
      "    int op = inst & 0xf;\n"
      "    int val = (inst >> 12) & 0x7ffff;\n"
      "    switch (op) {\n"
      "    case 1:\n"
      "      if (lid & 1)\n"
      "        acc += val;\n"
      "      break;\n"
      "    case 2:\n"
      "      if (val > 0) {\n"
      "        while (acc < val)\n"
      "          acc += 3;\n"
      "      }\n"
      "      break;\n"
      "    case 3:\n"
      "      for (int i = 0; i < val; ++i)\n"
      "        acc ^= i;\n"
      "      break;\n"
      "    case 0:\n"
      "      run = false;\n"
      "      break;\n"
      "    }\n"
      "  }\n"
      "  out[lid] = acc;\n"
      "}\n"
      ;
  const size_t n = 32;
  std::vector<int32_t> code(8 * n);
  uint32_t state = 12345;
  auto next = [&] { return state = state * 1103515245u + 12345u; };
  for (size_t i = 0; i < n; ++i) {
    for (size_t k = 0; k < 7; ++k)
      code[8 * i + k] = int32_t(((next() >> 8) % 40) << 12 | (1 + (next() >> 16) % 3));
    code[8 * i + size_t(next() >> 10) % 8] = 0; // an end, at the latest the last
    code[8 * i + 7] = 0;
  }
  std::vector<int32_t> expected(n);
  for (size_t i = 0; i < n; ++i) {
    int acc = 0;
    for (size_t k = 0;; ++k) {
      const int inst = code[8 * i + k], op = inst & 0xf, val = (inst >> 12) & 0x7ffff;
      if (op == 0)
        break;
      if (op == 1 && (i & 1))
        acc += val;
      if (op == 2 && val > 0)
        while (acc < val)
          acc += 3;
      if (op == 3)
        for (int j = 0; j < val; ++j)
          acc ^= j;
    }
    expected[i] = acc;
  }
  for (const char *options : {"", "-cl-opt-disable"})
    EXPECT_EQ(run<int32_t>(built(text, options), "run_program", n, {code}), expected) << options;
}

// restrict pointers of an inlined function: llvm-spirv writes alias scopes
// only when asked for SPV_INTEL_memory_access_aliasing, which the driver
// does not ask for; either way the program builds and runs.
TEST_F(SourceProgram, RestrictPointersOfInlinedFunctionsBuild) {
  const std::string text =
      "void f(global float *restrict a, global const float *restrict b,\n"
      "       global float *restrict c, size_t i) {\n"
      "  float x = b[i]; a[i] = x * 2.0f; c[i] = b[i] + a[i];\n"
      "}\n"
      "kernel void k(global float *a, global const float *b, global float *c) {\n"
      "  size_t i = get_global_id(0);\n"
      "  f(a, b, c, 2 * i); f(c, b, a, 2 * i + 1);\n"
      "}\n";
  cl_program program = built(text, "");
  ASSERT_NE(program, nullptr);
  const size_t n = 40;
  std::vector<float> b(2 * n);
  for (size_t k = 0; k < b.size(); ++k)
    b[k] = float(k) - 20.5f;
  cl_mem ma = buffer(std::vector<float>(2 * n)), mb = buffer(b),
         mc = buffer(std::vector<float>(2 * n));
  launch(program, "k", n, {argumentOf(ma), argumentOf(mb), argumentOf(mc)});
  const std::vector<float> a = readBack<float>(ma, 2 * n), c = readBack<float>(mc, 2 * n);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(a[2 * i], 2 * b[2 * i]);
    EXPECT_EQ(c[2 * i], 3 * b[2 * i]);
    EXPECT_EQ(c[2 * i + 1], 2 * b[2 * i + 1]);
    EXPECT_EQ(a[2 * i + 1], 3 * b[2 * i + 1]);
  }
}

// CL_KERNEL_ATTRIBUTES: the attributes of the kernel's declaration as the
// source spells them; empty for a kernel not created from source (OpenCL 3.0,
// clGetKernelInfo).
TEST_F(SourceProgram, KernelAttributesOfSourceKernels) {
  const std::string text =
      "__attribute__((reqd_work_group_size(4, 2, 1)))\n"
      "kernel void sized(global int *p) { p[0] = 1; }\n"
      "__attribute__((work_group_size_hint(8, 1, 1))) __attribute__((vec_type_hint(float4)))\n"
      "kernel void hinted(global int *p) { p[0] = 2; }\n"
      "__attribute__((vec_type_hint(uchar16)))\n"
      "kernel void bytes(global int *p) { p[0] = 3; }\n"
      "__attribute__((vec_type_hint(double)))\n"
      "kernel void scalar(global int *p) { p[0] = 4; }\n"
      "kernel void plain(global int *p) { p[0] = 5; }\n";
  cl_program program = built(text, "");
  ASSERT_NE(program, nullptr);
  auto attributes = [&](cl_program from, const char *name) {
    cl_int error = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(from, name, &error);
    EXPECT_EQ(error, CL_SUCCESS) << name;
    if (!kernel)
      return std::string("<no kernel>");
    size_t size = 0;
    EXPECT_EQ(clGetKernelInfo(kernel, CL_KERNEL_ATTRIBUTES, 0, nullptr, &size), CL_SUCCESS);
    std::string value(size, '\0');
    EXPECT_EQ(clGetKernelInfo(kernel, CL_KERNEL_ATTRIBUTES, size, value.data(), nullptr),
              CL_SUCCESS);
    clReleaseKernel(kernel);
    value.resize(std::strlen(value.c_str()));
    value.erase(std::remove(value.begin(), value.end(), ' '), value.end());
    return value;
  };
  const std::string sized = attributes(program, "sized"), hinted = attributes(program, "hinted");
  EXPECT_EQ(sized, "reqd_work_group_size(4,2,1)");
  EXPECT_TRUE(contains(hinted, "work_group_size_hint(8,1,1)")) << hinted;
  EXPECT_TRUE(contains(hinted, "vec_type_hint(float4)")) << hinted;
  EXPECT_EQ(attributes(program, "bytes"), "vec_type_hint(uchar16)");
  EXPECT_EQ(attributes(program, "scalar"), "vec_type_hint(double)");
  EXPECT_EQ(attributes(program, "plain"), "");

  if (testingLanewise()) { // Lanewise's program binary is SPIR-V: build it as IL
    size_t binarySize = 0;
    ASSERT_EQ(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof binarySize, &binarySize,
                               nullptr),
              CL_SUCCESS);
    std::vector<unsigned char> binary(binarySize);
    unsigned char *pointer = binary.data();
    ASSERT_EQ(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof pointer, &pointer, nullptr),
              CL_SUCCESS);
    cl_int error = CL_SUCCESS;
    cl_program il = adopt(clCreateProgramWithIL(context, binary.data(), binary.size(), &error));
    ASSERT_EQ(error, CL_SUCCESS);
    ASSERT_EQ(build(il, ""), CL_SUCCESS);
    EXPECT_EQ(attributes(il, "sized"), "");
    EXPECT_EQ(attributes(il, "hinted"), "");
  }
}

// OpenCL C 3.0, 6.2.1: a feature macro is defined exactly when the device
// reports the feature (CL_DEVICE_OPENCL_C_FEATURES); the CTS's
// features_macro. clang-14's header defines some for every SPIR target.
TEST_F(SourceProgram, FeatureMacrosFollowTheDeviceFeatures) {
  const char *const features[] = {
      "__opencl_c_atomic_order_acq_rel",     "__opencl_c_atomic_order_seq_cst",
      "__opencl_c_atomic_scope_device",      "__opencl_c_atomic_scope_all_devices",
      "__opencl_c_read_write_images",        "__opencl_c_images",
      "__opencl_c_generic_address_space",    "__opencl_c_subgroups",
      "__opencl_c_program_scope_global_variables", "__opencl_c_fp64",
      "__opencl_c_int64",                    "__opencl_c_pipes",
      "__opencl_c_device_enqueue",           "__opencl_c_fp16"};
  size_t size = 0;
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr, &size), CL_SUCCESS);
  std::vector<cl_name_version> reported(size / sizeof(cl_name_version));
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, size, reported.data(), nullptr),
            CL_SUCCESS);
  std::string text = "kernel void k(global int *out) {\n  if (get_global_id(0) != 0) return;\n";
  for (size_t i = 0; i < std::size(features); ++i)
    text += std::string("#ifdef ") + features[i] + "\n  out[" + std::to_string(i) +
            "] = 1;\n#else\n  out[" + std::to_string(i) + "] = 0;\n#endif\n";
  text += "}\n";
  const std::vector<int32_t> got =
      run<int32_t>(built(text, "-cl-std=CL3.0"), "k", std::size(features));
  ASSERT_EQ(got.size(), std::size(features));
  for (size_t i = 0; i < std::size(features); ++i) {
    bool offered = false;
    for (const cl_name_version &feature : reported)
      offered |= std::string(feature.name) == features[i];
    EXPECT_EQ(got[i], offered ? 1 : 0) << features[i];
  }
}

// OpenCL C 3.0, 6.12, in every OpenCL C version the device takes (the CTS's
// kernel_preprocessor_macros): __OPENCL_VERSION__ is the device's OpenCL
// version (300 for 3.0); __IMAGE_SUPPORT__ and __ENDIAN_LITTLE__ are 1 when
// the device supports images (CL_DEVICE_IMAGE_SUPPORT) and is little-endian
// (CL_DEVICE_ENDIAN_LITTLE), and undefined otherwise.
TEST_F(SourceProgram, PredefinedMacrosFollowTheDevice) {
  cl_bool images = CL_FALSE, little = CL_FALSE;
  cl_version version = 0;
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_ENDIAN_LITTLE, sizeof little, &little, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_NUMERIC_VERSION, sizeof version, &version, nullptr),
            CL_SUCCESS);
  const char *text = "kernel void k(global int *out) {\n"
                     "  if (get_global_id(0) != 0) return;\n"
                     "#ifdef __IMAGE_SUPPORT__\n"
                     "  out[0] = __IMAGE_SUPPORT__;\n"
                     "#else\n"
                     "  out[0] = 0;\n"
                     "#endif\n"
                     "#ifdef __ENDIAN_LITTLE__\n"
                     "  out[1] = __ENDIAN_LITTLE__;\n"
                     "#else\n"
                     "  out[1] = 0;\n"
                     "#endif\n"
                     "#ifdef __OPENCL_VERSION__\n"
                     "  out[2] = __OPENCL_VERSION__;\n"
                     "#else\n"
                     "  out[2] = -1;\n"
                     "#endif\n"
                     "}\n";
  const int openclVersion = int(CL_VERSION_MAJOR(version) * 100 + CL_VERSION_MINOR(version) * 10);
  for (const char *options : {"", "-cl-std=CL1.2", "-cl-std=CL3.0"}) {
    const std::vector<int32_t> got = run<int32_t>(built(text, options), "k", 3);
    ASSERT_EQ(got.size(), 3u) << options;
    EXPECT_EQ(got[0], images ? 1 : 0) << "__IMAGE_SUPPORT__, options \"" << options << "\"";
    EXPECT_EQ(got[1], little ? 1 : 0) << "__ENDIAN_LITTLE__, options \"" << options << "\"";
    EXPECT_EQ(got[2], openclVersion) << "__OPENCL_VERSION__, options \"" << options << "\"";
  }
}

// A kernel may take CL_DEVICE_MAX_PARAMETER_SIZE bytes of arguments, more
// than SPIR-V's minimum limit of 255 function parameters (the CTS's
// min_max_parameter_size).
TEST_F(SourceProgram, KernelWithMoreThan255Arguments) {
  constexpr int count = 600;
  std::string text = "kernel void many(";
  for (int i = 0; i < count; ++i)
    text += "char a" + std::to_string(i) + ", ";
  text += "global int *out) {\n  int sum = 0;\n";
  for (int i = 0; i < count; ++i)
    text += "  sum += a" + std::to_string(i) + " * " + std::to_string(i % 7 + 1) + ";\n";
  text += "  out[get_global_id(0)] = sum;\n}\n";
  cl_program program = built(text, "");
  ASSERT_NE(program, nullptr);
  std::vector<cl_char> values(count);
  std::vector<std::pair<size_t, const void *>> arguments;
  int want = 0;
  for (int i = 0; i < count; ++i) {
    values[size_t(i)] = cl_char(i % 41 - 20);
    want += values[size_t(i)] * (i % 7 + 1);
    arguments.push_back(argumentOf(values[size_t(i)]));
  }
  cl_mem out = buffer(std::vector<cl_int>(4));
  arguments.push_back(argumentOf(out));
  launch(program, "many", 4, arguments);
  const std::vector<cl_int> result = readBack<cl_int>(out, 4);
  EXPECT_EQ(result, std::vector<cl_int>(4, want));
}

// -cl-std selects __OPENCL_C_VERSION__; without it, the highest OpenCL C 1.x
// the device supports is used (5.8.6.5).
TEST_F(SourceProgram, ClStdSelectsTheLanguageVersion) {
  const std::string text =
      "kernel void k(global int *out) { out[get_global_id(0)] = __OPENCL_C_VERSION__; }\n";
  EXPECT_EQ(run<int32_t>(built(text, ""), "k", 1), (std::vector<int32_t>{120}));
  EXPECT_EQ(run<int32_t>(built(text, "-cl-std=CL1.1"), "k", 1), (std::vector<int32_t>{110}));
  EXPECT_EQ(run<int32_t>(built(text, "-cl-std=CL1.2"), "k", 1), (std::vector<int32_t>{120}));
  ASSERT_TRUE(supportsOpenCLC(device, 3, 0));
  EXPECT_EQ(run<int32_t>(built(text, "-cl-std=CL3.0"), "k", 1), (std::vector<int32_t>{300}));

  cl_program invalid = source(text);
  ASSERT_NE(invalid, nullptr);
  EXPECT_EQ(build(invalid, "-cl-std=CL9.9"), CL_INVALID_BUILD_OPTIONS);
  EXPECT_EQ(buildStatus(invalid, device), CL_BUILD_ERROR);
}

// "Calls to clBuildProgram or clCompileProgram with the -cl-std=CL2.0 option
// will fail to compile the program for any devices with
// CL_DEVICE_OPENCL_C_VERSION equal to OpenCL C 1.2 or earlier and when
// CL_DEVICE_OPENCL_C_ALL_VERSIONS does not include OpenCL C 2.0" (5.8.6.5).
TEST_F(SourceProgram, ClStd20FollowsTheDeviceVersions) {
  const std::string text = "kernel void k(global int *out) { out[get_global_id(0)] = 20; }\n";
  cl_program program = source(text);
  ASSERT_NE(program, nullptr);
  const cl_int result = build(program, "-cl-std=CL2.0");
  if (supportsOpenCLC(device, 2, 0)) {
    EXPECT_EQ(result, CL_SUCCESS) << buildLog(program, device);
  } else {
    EXPECT_EQ(deviceString(device, CL_DEVICE_OPENCL_C_VERSION).rfind("OpenCL C 1.", 0), 0u);
    EXPECT_EQ(result, CL_BUILD_PROGRAM_FAILURE)
        << "the device does not list OpenCL C 2.0 in CL_DEVICE_OPENCL_C_ALL_VERSIONS";
    EXPECT_EQ(buildStatus(program, device), CL_BUILD_ERROR);
  }
}

// A program-scope variable in the global address space is an OpenCL C 2.0
// feature (or __opencl_c_program_scope_global_variables in OpenCL C 3.0):
// it does not build with -cl-std=CL1.2.
TEST_F(SourceProgram, ProgramScopeGlobalNeedsTheLanguageFeature) {
  const std::string text = "global int counter = 5;\n"
                           "kernel void k(global int *out) {\n"
                           "  out[get_global_id(0)] = counter;\n"
                           "}\n";
  cl_program old = source(text);
  ASSERT_NE(old, nullptr);
  EXPECT_EQ(build(old, "-cl-std=CL1.2"), CL_BUILD_PROGRAM_FAILURE);
  EXPECT_NE(buildLog(old, device), "");

  auto expectBuilds = [&](const char *options) {
    cl_program program = built(text, options);
    EXPECT_EQ(run<int32_t>(program, "k", 2), (std::vector<int32_t>{5, 5}));
    size_t bytes = 0;
    EXPECT_EQ(clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                    sizeof bytes, &bytes, nullptr),
              CL_SUCCESS);
    EXPECT_GE(bytes, sizeof(int32_t));
  };
  if (supportsOpenCLC(device, 2, 0))
    expectBuilds("-cl-std=CL2.0");
  if (hasFeature(device, "__opencl_c_program_scope_global_variables")) {
    expectBuilds("-cl-std=CL3.0");
  } else {
    cl_program program = source(text);
    ASSERT_NE(program, nullptr);
    EXPECT_EQ(build(program, "-cl-std=CL3.0"), CL_BUILD_PROGRAM_FAILURE);
  }
}

// The math and optimisation options of 5.8.6.3 are accepted and keep exact
// arithmetic exact; -cl-fast-relaxed-math defines __FAST_RELAXED_MATH__.
TEST_F(SourceProgram, MathOptionsAreAccepted) {
  const std::string text = "kernel void k(global const float *a, global const float *b,\n"
                           "              global const float *c, global float *out) {\n"
                           "  size_t i = get_global_id(0);\n"
                           "  out[i] = a[i] * b[i] + c[i];\n"
                           "}\n"
                           "kernel void relaxed(global float *out) {\n"
                           "#ifdef __FAST_RELAXED_MATH__\n"
                           "  out[0] = 1.0f;\n"
                           "#else\n"
                           "  out[0] = 0.0f;\n"
                           "#endif\n"
                           "}\n";
  std::vector<float> a(16), b(16), c(16), expected(16);
  for (int i = 0; i < 16; ++i) {
    a[i] = float(i - 5);
    b[i] = float(3 * i + 1);
    c[i] = float(100 - i);
    expected[i] = a[i] * b[i] + c[i]; // small integers: exact in any rounding
  }
  std::vector<std::string> options = {"-cl-mad-enable",
                                      "-cl-no-signed-zeros",
                                      "-cl-unsafe-math-optimizations",
                                      "-cl-finite-math-only",
                                      "-cl-fast-relaxed-math",
                                      "-cl-single-precision-constant",
                                      "-cl-denorms-are-zero",
                                      "-cl-strict-aliasing",
                                      "-cl-uniform-work-group-size",
                                      "-cl-no-subgroup-ifp",
                                      "-cl-mad-enable -cl-fast-relaxed-math -cl-denorms-are-zero"};
  if (deviceInfo<cl_device_fp_config>(device, CL_DEVICE_SINGLE_FP_CONFIG) &
      CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT)
    options.push_back("-cl-fp32-correctly-rounded-divide-sqrt");
  for (const std::string &option : options) {
    SCOPED_TRACE(option);
    cl_program program = built(text, option);
    EXPECT_EQ(run<float>(program, "k", 16, {a, b, c}), expected);
    const float relaxed = contains(option, "-cl-fast-relaxed-math") ? 1.0f : 0.0f;
    EXPECT_EQ(run<float>(program, "relaxed", 1), (std::vector<float>{relaxed}));
  }
}

// A function defined `inline` alone has, by C99's rules, no external
// definition, so a call left standing (every call at -cl-opt-disable, a
// large function at -O2) would be unresolved. Programs write helpers so
// (OpenCV's kernels) and every implementation builds them; PoCL defines
// `inline` away. Expected values from the source.
TEST_F(SourceProgram, InlineFunctionsBuildAtEveryOptimisationLevel) {
  const std::string text = "static inline int plusOne(int x) { return x + 1; }\n"
                           "inline int twice(int x) { return 2 * x; }\n"
                           "extern inline int thrice(int x) { return 3 * x; }\n"
                           "inline int squares(int n) {\n"
                           "  int s = 0;\n"
                           "  for (int k = 0; k < n; ++k) s += k * k;\n"
                           "  return s;\n"
                           "}\n"
                           "kernel void k(global const int *in, global int *out) {\n"
                           "  int i = (int)get_global_id(0);\n"
                           "  out[i] = twice(in[i]) + thrice(plusOne(in[i])) + squares(in[i]);\n"
                           "}\n";
  std::vector<int32_t> in(16), expected(16);
  for (int i = 0; i < 16; ++i) {
    in[i] = 3 * i - 4;
    int squares = 0;
    for (int k = 0; k < in[i]; ++k)
      squares += k * k;
    expected[i] = 2 * in[i] + 3 * (in[i] + 1) + squares;
  }
  for (const char *options : {"", "-cl-opt-disable", "-g", "-g -cl-opt-disable"}) {
    SCOPED_TRACE(options);
    EXPECT_EQ(run<int32_t>(built(text, options), "k", 16, {in}), expected);
  }
}

// -g is accepted and the kernel still runs, optimised or not.
TEST_F(SourceProgram, DebugInfoOption) {
  const std::string text = "int twice(int x) { return 2 * x; }\n"
                           "kernel void k(global const int *in, global int *out) {\n"
                           "  size_t i = get_global_id(0);\n"
                           "  int v = in[i];\n"
                           "  if (v > 3)\n"
                           "    v = twice(v);\n"
                           "  out[i] = v + 1;\n"
                           "}\n";
  const std::vector<int32_t> input = {1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<int32_t> expected = {2, 3, 4, 9, 11, 13, 15, 17};
  EXPECT_EQ(run<int32_t>(built(text, "-g"), "k", 8, {input}), expected);
  EXPECT_EQ(run<int32_t>(built(text, "-g -cl-opt-disable"), "k", 8, {input}), expected);
}

// -cl-kernel-arg-info: clGetKernelArgInfo names, type names and qualifiers
// (5.9.3, kernel argument queries).
TEST_F(SourceProgram, KernelArgInfoOption) {
  const std::string text =
      "kernel void args(global const float *input, global uint *restrict output,\n"
      "                 int count, local float4 *scratch, constant short *table) {\n"
      "  output[0] = (uint)input[0] + (uint)count + (uint)table[0];\n"
      "  scratch[0] = (float4)(0.0f);\n"
      "}\n";
  cl_program program = built(text, "-cl-kernel-arg-info");
  ASSERT_NE(program, nullptr);
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "args", &error);
  ASSERT_EQ(error, CL_SUCCESS);
  kernels_.push_back(kernel);
  auto argString = [&](cl_uint index, cl_kernel_arg_info param) {
    size_t size = 0;
    EXPECT_EQ(clGetKernelArgInfo(kernel, index, param, 0, nullptr, &size), CL_SUCCESS);
    std::string text(size, '\0');
    EXPECT_EQ(clGetKernelArgInfo(kernel, index, param, size, text.data(), nullptr), CL_SUCCESS);
    text.resize(std::strlen(text.c_str()));
    return text;
  };
  auto argValue = [&](cl_uint index, cl_kernel_arg_info param) {
    cl_ulong value = 0; // wide enough for every bitfield and enum queried here
    EXPECT_EQ(clGetKernelArgInfo(kernel, index, param, sizeof value, &value, nullptr), CL_SUCCESS);
    return value;
  };
  const char *names[] = {"input", "output", "count", "scratch", "table"};
  const char *types[] = {"float*", "uint*", "int", "float4*", "short*"};
  const cl_ulong spaces[] = {CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_ADDRESS_GLOBAL,
                             CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_ADDRESS_LOCAL,
                             CL_KERNEL_ARG_ADDRESS_CONSTANT};
  for (cl_uint i = 0; i < 5; ++i) {
    SCOPED_TRACE(names[i]);
    EXPECT_EQ(argString(i, CL_KERNEL_ARG_NAME), names[i]);
    EXPECT_EQ(argString(i, CL_KERNEL_ARG_TYPE_NAME), types[i]);
    EXPECT_EQ(argValue(i, CL_KERNEL_ARG_ADDRESS_QUALIFIER), spaces[i]);
    EXPECT_EQ(argValue(i, CL_KERNEL_ARG_ACCESS_QUALIFIER), cl_ulong{CL_KERNEL_ARG_ACCESS_NONE});
  }
  EXPECT_TRUE(argValue(0, CL_KERNEL_ARG_TYPE_QUALIFIER) & CL_KERNEL_ARG_TYPE_CONST);
  EXPECT_TRUE(argValue(1, CL_KERNEL_ARG_TYPE_QUALIFIER) & CL_KERNEL_ARG_TYPE_RESTRICT);
  EXPECT_EQ(argValue(2, CL_KERNEL_ARG_TYPE_QUALIFIER), cl_ulong{CL_KERNEL_ARG_TYPE_NONE});
  size_t size = 0;
  EXPECT_EQ(clGetKernelArgInfo(kernel, 5, CL_KERNEL_ARG_NAME, 0, nullptr, &size),
            CL_INVALID_ARG_INDEX);
}

// An option that is not an OpenCL build option: CL_INVALID_BUILD_OPTIONS,
// CL_BUILD_ERROR, and the log names it.
TEST_F(SourceProgram, UnknownOptionIsInvalidBuildOptions) {
  const std::string text = "kernel void k(global int *out) { out[0] = 1; }\n";
  const std::pair<const char *, const char *> cases[] = {
      {"-cl-no-such-option", "-cl-no-such-option"},
      {"-DOK=1 --bogus-flag", "--bogus-flag"},
      {"-O3", "-O3"}};
  for (const auto &[options, named] : cases) {
    SCOPED_TRACE(options);
    cl_program program = source(text);
    ASSERT_NE(program, nullptr);
    EXPECT_EQ(build(program, options), CL_INVALID_BUILD_OPTIONS);
    EXPECT_EQ(buildStatus(program, device), CL_BUILD_ERROR);
    EXPECT_TRUE(contains(buildLog(program, device), named)) << buildLog(program, device);
  }
}

// pfn_notify is called once, with the program and user_data; the state
// it sees is the final one (5.8.3). user_data without pfn_notify is
// CL_INVALID_VALUE.
struct Notification {
  std::mutex mutex;
  std::condition_variable changed;
  int calls = 0;
  cl_program program = nullptr;
  cl_build_status status = CL_BUILD_NONE;
  cl_device_id device = nullptr;
};

void CL_CALLBACK notifyBuilt(cl_program program, void *userData) {
  auto *notification = static_cast<Notification *>(userData);
  cl_build_status status = CL_BUILD_NONE;
  clGetProgramBuildInfo(program, notification->device, CL_PROGRAM_BUILD_STATUS, sizeof status,
                        &status, nullptr);
  std::lock_guard lock(notification->mutex);
  ++notification->calls;
  notification->program = program;
  notification->status = status;
  notification->changed.notify_all();
}

// Waits for the first call, then a little for any (wrong) further call.
void waitForNotification(Notification &notification) {
  std::unique_lock lock(notification.mutex);
  notification.changed.wait_for(lock, std::chrono::seconds(30),
                                [&] { return notification.calls > 0; });
  lock.unlock();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

TEST_F(SourceProgram, BuildCallbackIsCalledOnce) {
  cl_program program = source("kernel void k(global int *out) { out[get_global_id(0)] = 9; }\n");
  ASSERT_NE(program, nullptr);
  Notification notification;
  notification.device = device;
  EXPECT_EQ(clBuildProgram(program, 1, &device, "", notifyBuilt, &notification), CL_SUCCESS);
  waitForNotification(notification);
  {
    std::lock_guard lock(notification.mutex);
    EXPECT_EQ(notification.calls, 1);
    EXPECT_EQ(notification.program, program);
    EXPECT_EQ(notification.status, CL_BUILD_SUCCESS);
  }
  EXPECT_EQ(run<int32_t>(program, "k", 2), (std::vector<int32_t>{9, 9}));

  // A failing build calls back too; it may return CL_SUCCESS when it does
  // not wait for the build (5.8.3).
  cl_program broken = source(kSyntaxErrorSource);
  ASSERT_NE(broken, nullptr);
  Notification failure;
  failure.device = device;
  const cl_int result = clBuildProgram(broken, 0, nullptr, nullptr, notifyBuilt, &failure);
  EXPECT_TRUE(result == CL_BUILD_PROGRAM_FAILURE || result == CL_SUCCESS) << result;
  waitForNotification(failure);
  {
    std::lock_guard lock(failure.mutex);
    EXPECT_EQ(failure.calls, 1);
    EXPECT_EQ(failure.program, broken);
    EXPECT_EQ(failure.status, CL_BUILD_ERROR);
  }

  int dummy = 0;
  EXPECT_EQ(clBuildProgram(program, 1, &device, "", nullptr, &dummy), CL_INVALID_VALUE);
}

// Builds with a callback run on threads of their own (5.8.3: clBuildProgram
// may return before the build ends), so that one host thread can have
// several programs building at once; each callback comes once with the
// final state, also for a program the application released meanwhile.
TEST_F(SourceProgram, BuildsWithCallbacksRunInParallel) {
  constexpr int kPrograms = 4;
  const std::string salt = std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
  std::vector<cl_program> programs;
  std::vector<std::unique_ptr<Notification>> notifications;
  for (int i = 0; i < kPrograms; ++i) {
    programs.push_back(source("// " + salt + "\nkernel void k(global int *out) { out[get_global_id(0)] = " +
                              std::to_string(100 + i) + "; }\n"));
    ASSERT_NE(programs.back(), nullptr);
    notifications.push_back(std::make_unique<Notification>());
    notifications.back()->device = device;
  }
  for (int i = 0; i < kPrograms; ++i)
    ASSERT_EQ(clBuildProgram(programs[i], 1, &device, "", notifyBuilt, notifications[i].get()),
              CL_SUCCESS);
  // A second build of a program whose build is under way may be refused;
  // it must not disturb the first.
  const cl_int again = clBuildProgram(programs[0], 1, &device, "", nullptr, nullptr);
  EXPECT_TRUE(again == CL_SUCCESS || again == CL_INVALID_OPERATION) << again;

  // Released before its callback: the build finishes and calls back (the
  // callback must not use the program: the application let it go).
  const std::string gone = "// " + salt + "\nkernel void gone(global int *out) { *out = 1; }\n";
  const char *strings[] = {gone.c_str()};
  cl_int error = CL_SUCCESS;
  cl_program released = clCreateProgramWithSource(context, 1, strings, nullptr, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  std::atomic<int> releasedCalls{0};
  ASSERT_EQ(clBuildProgram(
                released, 1, &device, "",
                [](cl_program, void *calls) { ++*static_cast<std::atomic<int> *>(calls); },
                &releasedCalls),
            CL_SUCCESS);
  ASSERT_EQ(clReleaseProgram(released), CL_SUCCESS);

  for (int i = 0; i < kPrograms; ++i) {
    waitForNotification(*notifications[i]);
    std::lock_guard lock(notifications[i]->mutex);
    EXPECT_EQ(notifications[i]->calls, 1) << i;
    EXPECT_EQ(notifications[i]->program, programs[i]) << i;
    EXPECT_EQ(notifications[i]->status, CL_BUILD_SUCCESS) << i;
  }
  for (int i = 0; i < kPrograms; ++i)
    EXPECT_EQ(run<int32_t>(programs[i], "k", 2), (std::vector<int32_t>(2, 100 + i))) << i;
  for (int wait = 0; wait < 3000 && releasedCalls == 0; ++wait)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(releasedCalls, 1);
}

// Builds of different programs from 4 host threads at once all succeed.
TEST_F(SourceProgram, ConcurrentBuildsFromFourThreads) {
  constexpr int kThreads = 4, kPerThread = 2;
  // A salt makes the sources new to the compiler cache, so that the
  // compilers really run at the same time.
  const std::string salt =
      std::to_string(getpid()) + "_" +
      std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
  std::barrier start(kThreads);
  std::atomic<int> successes{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      cl_int error = CL_SUCCESS;
      cl_command_queue own = clCreateCommandQueueWithProperties(context, device, nullptr, &error);
      EXPECT_EQ(error, CL_SUCCESS);
      start.arrive_and_wait();
      for (int round = 0; round < kPerThread; ++round) {
        const int value = 1000 * t + round;
        const std::string text = "// " + salt + "\n" +
                                 "kernel void k(global int *out) {\n"
                                 "  out[get_global_id(0)] = " +
                                 std::to_string(value) + " * 3 + (int)get_global_id(0);\n}\n";
        const char *strings[] = {text.c_str()};
        cl_program program = clCreateProgramWithSource(context, 1, strings, nullptr, &error);
        EXPECT_EQ(error, CL_SUCCESS);
        if (!program)
          continue;
        const cl_int result = clBuildProgram(program, 1, &device, "", nullptr, nullptr);
        EXPECT_EQ(result, CL_SUCCESS) << buildLog(program, device);
        cl_kernel kernel = clCreateKernel(program, "k", &error);
        if (kernel) {
          std::vector<int32_t> data(8, -1);
          cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                      data.size() * 4, data.data(), &error);
          clSetKernelArg(kernel, 0, sizeof mem, &mem);
          const size_t global = data.size();
          EXPECT_EQ(clEnqueueNDRangeKernel(own, kernel, 1, nullptr, &global, nullptr, 0, nullptr,
                                           nullptr),
                    CL_SUCCESS);
          EXPECT_EQ(clEnqueueReadBuffer(own, mem, CL_TRUE, 0, data.size() * 4, data.data(), 0,
                                        nullptr, nullptr),
                    CL_SUCCESS);
          bool right = true;
          for (int i = 0; i < 8; ++i)
            right &= data[i] == value * 3 + i;
          EXPECT_TRUE(right) << "thread " << t << " round " << round;
          successes += right && result == CL_SUCCESS;
          clReleaseMemObject(mem);
          clReleaseKernel(kernel);
        }
        clReleaseProgram(program);
      }
      if (own)
        clReleaseCommandQueue(own);
    });
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(successes.load(), kThreads * kPerThread);
}

// A process without clang and llvm-spirv: LANEWISE_CLANG and
// LANEWISE_LLVM_SPIRV both name files that do not exist, so the driver
// neither runs them nor searches PATH. CL_DEVICE_COMPILER_AVAILABLE is
// CL_FALSE; building or compiling source is CL_COMPILER_NOT_AVAILABLE
// (5.8.3, 5.8.4) and the log says what to install.
TEST_F(SourceProgram, WithoutCompilerBuildIsCompilerNotAvailable) {
  if (!testingLanewise())
    GTEST_SKIP() << "Lanewise's compiler lookup";
  const ChildReport child =
      runChild({{"LANEWISE_TEST_CHILD", "nocompiler"},
                {"LANEWISE_CLANG", "/nonexistent/lanewise-test/clang"},
                {"LANEWISE_LLVM_SPIRV", "/nonexistent/lanewise-test/llvm-spirv"},
                {"LANEWISE_CACHE", "0"},
                {"LANEWISE_TEST_CHILD_SOURCE", cacheKernel(1)}});
  ASSERT_EQ(child.exitCode, 0) << child.output;
  ASSERT_TRUE(child.values.count("build")) << child.output;
  EXPECT_EQ(child.values.at("compiler"), std::to_string(CL_FALSE));
  EXPECT_EQ(child.values.at("build"), std::to_string(CL_COMPILER_NOT_AVAILABLE)) << child.log;
  EXPECT_EQ(child.values.at("status"), std::to_string(CL_BUILD_ERROR));
  EXPECT_EQ(child.values.at("compile"), std::to_string(CL_COMPILER_NOT_AVAILABLE));
  EXPECT_TRUE(contains(child.log, "clang")) << child.log;
  EXPECT_TRUE(contains(child.log, "llvm-spirv")) << child.log;
  EXPECT_TRUE(contains(child.log, "install")) << child.log;
}

// ---------------------------------------------------------------------------
// CompileLink: clCompileProgram and clLinkProgram.

const char *const kHelperSource = "int helper(int x) { return 3 * x + 1; }\n";
const char *const kUserSource = "extern int helper(int x);\n"
                                "kernel void use_helper(global int *out) {\n"
                                "  int i = (int)get_global_id(0);\n"
                                "  out[i] = helper(i) + 100;\n"
                                "}\n";

// A compiled object without imports: links with anything.
const char *const kStandaloneSource = "kernel void standalone(global int *out) {\n"
                                      "  int i = (int)get_global_id(0);\n"
                                      "  out[i] = 5 * i - 2;\n"
                                      "}\n";

std::vector<int32_t> standaloneExpected(int count) {
  std::vector<int32_t> values;
  for (int i = 0; i < count; ++i)
    values.push_back(5 * i - 2);
  return values;
}

std::vector<int32_t> helperExpected(int count) {
  std::vector<int32_t> values;
  for (int i = 0; i < count; ++i)
    values.push_back(3 * i + 1 + 100);
  return values;
}

// Embedded headers by include name, one in a subfolder that includes
// another by its own name (5.8.4).
TEST_F(CompileLink, EmbeddedHeadersWithSubfolderNames) {
  cl_program plain = source("#define PLAIN_OFFSET 11\n");
  cl_program defs =
      source("#include \"plain.h\"\n"
             "#define DEFS_SCALE 4\n"
             "static inline int scaled(int x) { return x * DEFS_SCALE + PLAIN_OFFSET; }\n");
  cl_program program = source("#include \"inc/defs.h\"\n"
                              "kernel void k(global int *out) {\n"
                              "  int i = (int)get_global_id(0);\n"
                              "  out[i] = scaled(i);\n"
                              "}\n");
  ASSERT_TRUE(plain && defs && program);

  // Without the headers the source does not compile.
  cl_program without = source(programString(program, CL_PROGRAM_SOURCE));
  ASSERT_NE(without, nullptr);
  EXPECT_EQ(compile(without, ""), CL_COMPILE_PROGRAM_FAILURE);
  EXPECT_TRUE(contains(buildLog(without, device), "inc/defs.h")) << buildLog(without, device);

  ASSERT_EQ(compile(program, "", {{"inc/defs.h", defs}, {"plain.h", plain}}), CL_SUCCESS)
      << buildLog(program, device);
  EXPECT_EQ(buildStatus(program, device), CL_BUILD_SUCCESS);
  EXPECT_EQ(binaryType(program, device),
            cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT});
  // A compiled object is not an executable.
  cl_int error = CL_SUCCESS;
  EXPECT_EQ(clCreateKernel(program, "k", &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_PROGRAM_EXECUTABLE);

  cl_program linked = link({program}, nullptr, error);
  ASSERT_EQ(error, CL_SUCCESS) << (linked ? buildLog(linked, device) : "");
  EXPECT_EQ(binaryType(linked, device), cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_EXECUTABLE});
  EXPECT_EQ(run<int32_t>(linked, "k", 4), (std::vector<int32_t>{11, 15, 19, 23}));
}

// Objects with debug information link too: the SPIR-V linker of SPIRV-Tools
// 2023.1 leaves the file operands of the second module's OpLines unshifted
// (they then name no OpString, and the linked module is invalid).
TEST_F(CompileLink, ObjectsWithDebugInformationLink) {
  cl_program helper = source(kHelperSource);
  cl_program user = source(kUserSource);
  ASSERT_TRUE(helper && user);
  ASSERT_EQ(compile(helper, "-g"), CL_SUCCESS) << buildLog(helper, device);
  ASSERT_EQ(compile(user, "-g -cl-std=CL1.2"), CL_SUCCESS) << buildLog(user, device);
  cl_int error = CL_SUCCESS;
  for (auto order : {std::vector<cl_program>{user, helper}, std::vector<cl_program>{helper, user}}) {
    cl_program linked = link(order, "", error);
    ASSERT_EQ(error, CL_SUCCESS) << (linked ? buildLog(linked, device) : "");
    EXPECT_EQ(run<int32_t>(linked, "use_helper", 16), helperExpected(16));
  }
}

// Two compiled programs, one calling a function the other defines.
TEST_F(CompileLink, LinkTwoObjectsCallingAcross) {
  cl_program helper = source(kHelperSource);
  cl_program user = source(kUserSource);
  ASSERT_TRUE(helper && user);
  ASSERT_EQ(compile(helper, ""), CL_SUCCESS) << buildLog(helper, device);
  ASSERT_EQ(compile(user, "-cl-std=CL1.2"), CL_SUCCESS) << buildLog(user, device);
  EXPECT_EQ(binaryType(helper, device),
            cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT});
  cl_int error = CL_SUCCESS;
  cl_program linked = link({user, helper}, "", error);
  ASSERT_NE(linked, nullptr);
  ASSERT_EQ(error, CL_SUCCESS) << buildLog(linked, device);
  EXPECT_EQ(buildStatus(linked, device), CL_BUILD_SUCCESS);
  EXPECT_EQ(binaryType(linked, device), cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_EXECUTABLE});
  EXPECT_EQ(programString(linked, CL_PROGRAM_KERNEL_NAMES), "use_helper");
  EXPECT_EQ(run<int32_t>(linked, "use_helper", 16), helperExpected(16));

  // A prototype without `extern`, and the objects in the other order.
  cl_program prototype = source("int helper(int x);\n"
                                "kernel void twice(global int *out) {\n"
                                "  int i = (int)get_global_id(0);\n"
                                "  out[i] = 2 * helper(i);\n"
                                "}\n");
  ASSERT_EQ(compile(prototype, ""), CL_SUCCESS) << buildLog(prototype, device);
  cl_program second = link({helper, prototype}, nullptr, error);
  ASSERT_EQ(error, CL_SUCCESS) << (second ? buildLog(second, device) : "");
  EXPECT_EQ(run<int32_t>(second, "twice", 4), (std::vector<int32_t>{2, 8, 14, 20}));
}

// -create-library, then the library linked with another object (5.8.7).
TEST_F(CompileLink, CreateLibraryThenLink) {
  cl_program helper = source(kHelperSource);
  cl_program user = source(kUserSource);
  ASSERT_TRUE(helper && user);
  ASSERT_EQ(compile(helper, ""), CL_SUCCESS) << buildLog(helper, device);
  ASSERT_EQ(compile(user, ""), CL_SUCCESS) << buildLog(user, device);
  cl_int error = CL_SUCCESS;
  cl_program library = link({helper}, "-create-library", error);
  ASSERT_NE(library, nullptr);
  ASSERT_EQ(error, CL_SUCCESS) << buildLog(library, device);
  EXPECT_EQ(buildStatus(library, device), CL_BUILD_SUCCESS);
  EXPECT_EQ(binaryType(library, device), cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_LIBRARY});
  EXPECT_EQ(clCreateKernel(library, "use_helper", &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_PROGRAM_EXECUTABLE);

  cl_program linked = link({library, user}, nullptr, error);
  ASSERT_NE(linked, nullptr);
  ASSERT_EQ(error, CL_SUCCESS) << buildLog(linked, device);
  EXPECT_EQ(binaryType(linked, device), cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_EXECUTABLE});
  EXPECT_EQ(run<int32_t>(linked, "use_helper", 8), helperExpected(8));

  // A library of an object with unresolved imports is allowed too.
  cl_program userLibrary = link({user}, "-create-library", error);
  EXPECT_EQ(error, CL_SUCCESS) << (userLibrary ? buildLog(userLibrary, device) : "");
  if (userLibrary) {
    cl_program both = link({userLibrary, library}, "", error);
    ASSERT_EQ(error, CL_SUCCESS) << (both ? buildLog(both, device) : "");
    EXPECT_EQ(run<int32_t>(both, "use_helper", 4), helperExpected(4));
  }
}

// A struct that points to its own type: the translator's search for integer
// widths SPIR-V lacks followed the pointer for ever, and the compiler
// crashed. A linked list in a buffer, walked by the kernel.
TEST_F(SourceProgram, RecursiveStructTypesBuildAndRun) {
  const std::string text = "typedef struct node { global struct node *next; int value; } node;\n"
                           "kernel void link(global node *nodes, int n) {\n"
                           "  int i = (int)get_global_id(0);\n"
                           "  nodes[i].next = i + 1 < n ? &nodes[i + 1] : 0;\n"
                           "  nodes[i].value = 3 * i + 1;\n"
                           "}\n"
                           "kernel void walk(global node *nodes, global int *out) {\n"
                           "  int sum = 0;\n"
                           "  for (global node *p = nodes; p; p = p->next)\n"
                           "    sum += p->value;\n"
                           "  out[0] = sum;\n"
                           "}\n";
  for (const char *options : {"", "-cl-opt-disable"}) {
    cl_program program = built(text, options);
    ASSERT_NE(program, nullptr) << options;
    const cl_int n = 10;
    cl_mem nodes = buffer(std::vector<cl_ulong>(2 * n)), out = buffer(std::vector<cl_int>(1));
    launch(program, "link", size_t(n), {argumentOf(nodes), argumentOf(n)});
    launch(program, "walk", 1, {argumentOf(nodes), argumentOf(out)});
    EXPECT_EQ(readBack<cl_int>(out, 1)[0], 145) << options; // 1 + 4 + ... + 28
  }
}

// clang-14 -O2 folds comparisons of generic pointers made from a __local
// and a __global one into a cast between the two named spaces, which SPIR-V
// does not have; llvm-spirv-14 refused the module (the OpenCL-CTS
// generic_address_space compare_pointers case). Null pointers of every
// space are equal as generic pointers; pointers into two spaces are not.
TEST_F(SourceProgram, GenericPointersOfTwoSpacesCompare) {
  cl_program program = built(
      "kernel void compare(global uint *out, global int *g) {\n"
      "  local int l[2];\n"
      "  int *ptr = NULL;\n"
      "  local int *lnull = NULL;\n"
      "  global int *gnull = NULL;\n"
      "  ptr = lnull;\n"
      "  out[0] = (gnull == ptr) && (lnull == ptr);\n"
      "  int *lp = &l[1], *gp = g + 1;\n"
      "  out[1] = (gp == lp) + 2 * (lp == (int *)(l + 1)) + 4 * (gp == (int *)(g + 1));\n"
      "  out[2] = to_global(lp) == gnull && to_local(gp) == lnull;\n"
      "}\n",
      "-cl-std=CL3.0");
  ASSERT_NE(program, nullptr);
  cl_mem out = buffer(std::vector<cl_uint>(3)), g = buffer(std::vector<cl_int>(4));
  launch(program, "compare", 1, {argumentOf(out), argumentOf(g)});
  EXPECT_EQ(readBack<cl_uint>(out, 3), (std::vector<cl_uint>{1, 6, 1}));
}

// llvm-spirv-14 writes an object with a program-scope variable in SPIR-V
// 1.4 and a library of plain functions in 1.0; the link takes both (the
// OpenCL-CTS generic_address_space library_function case). The helper
// reads through a generic pointer to each address space.
TEST_F(CompileLink, ObjectsOfDifferentSPIRVVersionsLink) {
  cl_program helper = source("bool matches(float *p, float value) {\n"
                             "  cl_mem_fence_flags fence = get_fence(p);\n"
                             "  return *p == value && (fence & ~(CLK_GLOBAL_MEM_FENCE |\n"
                             "                                   CLK_LOCAL_MEM_FENCE)) == 0;\n"
                             "}\n");
  cl_program user = source("extern bool matches(float *p, float value);\n"
                           "global float g = 1.0f;\n"
                           "kernel void check(global uint *out) {\n"
                           "  local float l;\n"
                           "  if (get_local_id(0) == 0)\n"
                           "    l = 2.0f;\n"
                           "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                           "  float p = 3.0f;\n"
                           "  out[get_global_id(0)] = matches(&g, 1.0f) + 2 * matches(&l, 2.0f) +\n"
                           "                          4 * matches(&p, 3.0f) + 8 * !matches(&p, 4.0f);\n"
                           "}\n");
  ASSERT_TRUE(helper && user);
  ASSERT_EQ(compile(helper, "-cl-std=CL3.0"), CL_SUCCESS) << buildLog(helper, device);
  ASSERT_EQ(compile(user, "-cl-std=CL3.0"), CL_SUCCESS) << buildLog(user, device);
  cl_int error = CL_SUCCESS;
  cl_program library = link({helper}, "-create-library", error);
  ASSERT_EQ(error, CL_SUCCESS) << (library ? buildLog(library, device) : "");
  for (auto order : {std::vector<cl_program>{user, library}, std::vector<cl_program>{library, user},
                     std::vector<cl_program>{user, helper}}) {
    cl_program linked = link(order, "", error);
    ASSERT_EQ(error, CL_SUCCESS) << (linked ? buildLog(linked, device) : "");
    EXPECT_EQ(run<uint32_t>(linked, "check", 8), std::vector<uint32_t>(8, 15u));
  }
}

// clLinkProgram errors: input programs that are neither compiled objects
// nor libraries (CL_INVALID_OPERATION), an unknown option
// (CL_INVALID_LINKER_OPTIONS), no programs (CL_INVALID_VALUE).
TEST_F(CompileLink, LinkErrors) {
  cl_program helper = source(kHelperSource);
  cl_program object = source(kStandaloneSource);
  ASSERT_TRUE(helper && object);
  ASSERT_EQ(compile(object, ""), CL_SUCCESS) << buildLog(object, device);
  cl_int error = CL_SUCCESS;
  // `helper` was not compiled: one program has a compiled binary, one none.
  EXPECT_EQ(link({object, helper}, nullptr, error), nullptr);
  EXPECT_EQ(error, CL_INVALID_OPERATION);
  // An executable is not a compiled binary or library either.
  cl_program executable = built("kernel void k(global int *out) { out[0] = 1; }\n");
  ASSERT_NE(executable, nullptr);
  EXPECT_EQ(link({object, executable}, nullptr, error), nullptr);
  EXPECT_EQ(error, CL_INVALID_OPERATION);

  ASSERT_EQ(compile(helper, ""), CL_SUCCESS) << buildLog(helper, device);
  EXPECT_EQ(link({object, helper}, "-no-such-link-option", error), nullptr);
  EXPECT_EQ(error, CL_INVALID_LINKER_OPTIONS);
  EXPECT_EQ(link({object, helper}, "-D X=1", error), nullptr);
  EXPECT_EQ(error, CL_INVALID_LINKER_OPTIONS);
  EXPECT_EQ(clLinkProgram(context, 1, &device, "", 0, nullptr, nullptr, nullptr, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_VALUE);
}

// An import nothing exports: a program object comes back with
// CL_LINK_PROGRAM_FAILURE, CL_BUILD_ERROR and a log (5.8.5).
TEST_F(CompileLink, UnresolvedSymbolFailsTheLink) {
  cl_program user = source(kUserSource);
  ASSERT_NE(user, nullptr);
  ASSERT_EQ(compile(user, ""), CL_SUCCESS) << buildLog(user, device);
  cl_int error = CL_SUCCESS;
  cl_program linked = link({user}, "", error);
  EXPECT_EQ(error, CL_LINK_PROGRAM_FAILURE);
  ASSERT_NE(linked, nullptr);
  EXPECT_EQ(buildStatus(linked, device), CL_BUILD_ERROR);
  EXPECT_NE(buildLog(linked, device), "");
  EXPECT_EQ(clCreateKernel(linked, "use_helper", &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_PROGRAM_EXECUTABLE);
}

// clCompileProgram of a program without source (created from a binary):
// CL_INVALID_OPERATION.
TEST_F(CompileLink, CompileOfNonSourceProgramIsInvalidOperation) {
  cl_program helper = source(kHelperSource);
  cl_program object = source(kStandaloneSource);
  ASSERT_TRUE(helper && object);
  ASSERT_EQ(compile(helper, ""), CL_SUCCESS);
  ASSERT_EQ(compile(object, ""), CL_SUCCESS);
  cl_int error = CL_SUCCESS;
  cl_program linked = link({helper, object}, "", error);
  ASSERT_EQ(error, CL_SUCCESS);
  const std::vector<unsigned char> binary = programBinary(linked);
  ASSERT_FALSE(binary.empty());
  const unsigned char *binaries[] = {binary.data()};
  const size_t lengths[] = {binary.size()};
  cl_int status = 12345;
  cl_program fromBinary =
      adopt(clCreateProgramWithBinary(context, 1, &device, lengths, binaries, &status, &error));
  ASSERT_EQ(error, CL_SUCCESS);
  EXPECT_EQ(compile(fromBinary, ""), CL_INVALID_OPERATION);
}

// num_input_headers, input_headers and header_include_names must agree
// (5.8.4): CL_INVALID_VALUE otherwise.
TEST_F(CompileLink, HeaderCountMismatchIsInvalidValue) {
  cl_program header = source("#define H 1\n");
  cl_program program = source("#include \"h.h\"\nkernel void k(global int *out) { out[0] = H; }\n");
  ASSERT_TRUE(header && program);
  const char *names[] = {"h.h"};
  EXPECT_EQ(clCompileProgram(program, 1, &device, "", 1, nullptr, names, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clCompileProgram(program, 1, &device, "", 1, &header, nullptr, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clCompileProgram(program, 1, &device, "", 0, &header, names, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clCompileProgram(program, 1, &device, "", 0, nullptr, names, nullptr, nullptr),
            CL_INVALID_VALUE);
  // Nothing was compiled by the refused calls.
  EXPECT_EQ(buildStatus(program, device), CL_BUILD_NONE);
  EXPECT_EQ(clCompileProgram(program, 1, &device, "", 1, &header, names, nullptr, nullptr),
            CL_SUCCESS)
      << buildLog(program, device);
}

// A source that does not compile: CL_COMPILE_PROGRAM_FAILURE, clang's
// diagnostic in the log (5.8.4).
TEST_F(CompileLink, CompileErrorIsCompileProgramFailure) {
  cl_program program = source(kSyntaxErrorSource);
  ASSERT_NE(program, nullptr);
  EXPECT_EQ(compile(program, ""), CL_COMPILE_PROGRAM_FAILURE);
  EXPECT_EQ(buildStatus(program, device), CL_BUILD_ERROR);
  const std::string log = buildLog(program, device);
  EXPECT_TRUE(contains(log, "expected expression")) << log;
  if (testingLanewise()) {
    EXPECT_TRUE(contains(log, "program.cl:3:11")) << log;
  }
}

// clCompileProgram with an invalid option: CL_INVALID_COMPILER_OPTIONS (5.8.4),
// not the clBuildProgram error CL_INVALID_BUILD_OPTIONS.
TEST_F(CompileLink, InvalidCompileOptionIsInvalidCompilerOptions) {
  cl_program program = source(kHelperSource);
  ASSERT_NE(program, nullptr);
  EXPECT_EQ(compile(program, "-cl-no-such-option"), CL_INVALID_COMPILER_OPTIONS);
  EXPECT_EQ(buildStatus(program, device), CL_BUILD_ERROR);
  EXPECT_TRUE(contains(buildLog(program, device), "-cl-no-such-option"))
      << buildLog(program, device);
}

// The link callback gets the new program and user_data, once.
TEST_F(CompileLink, LinkCallbackIsCalledOnce) {
  cl_program helper = source(kHelperSource);
  cl_program object = source(kStandaloneSource);
  ASSERT_TRUE(helper && object);
  ASSERT_EQ(compile(helper, ""), CL_SUCCESS);
  ASSERT_EQ(compile(object, ""), CL_SUCCESS);
  Notification notification;
  notification.device = device;
  cl_program programs[] = {helper, object};
  cl_int error = 12345;
  cl_program linked = adopt(
      clLinkProgram(context, 1, &device, nullptr, 2, programs, notifyBuilt, &notification, &error));
  ASSERT_NE(linked, nullptr);
  EXPECT_EQ(error, CL_SUCCESS);
  waitForNotification(notification);
  std::lock_guard lock(notification.mutex);
  EXPECT_EQ(notification.calls, 1);
  EXPECT_EQ(notification.program, linked);
  EXPECT_EQ(notification.status, CL_BUILD_SUCCESS);
}

// ---------------------------------------------------------------------------
// ProgramBinary: CL_PROGRAM_BINARIES and clCreateProgramWithBinary.

const char *const kBinarySource = "kernel void k(global const int *in, global int *out) {\n"
                                  "  size_t i = get_global_id(0);\n"
                                  "  out[i] = in[i] * in[i] - 3;\n"
                                  "}\n";

std::vector<int32_t> binaryInput() { return {0, 1, 2, 3, 4, 5, -6, 7}; }
std::vector<int32_t> binaryExpected() {
  std::vector<int32_t> values;
  for (int32_t x : binaryInput())
    values.push_back(x * x - 3);
  return values;
}

// The binary of a built program makes a new program that builds and runs
// the same (5.8.1, 5.8.9).
TEST_F(ProgramBinary, BuiltProgramRoundTrip) {
  cl_program original = built(kBinarySource);
  ASSERT_NE(original, nullptr);
  EXPECT_EQ(run<int32_t>(original, "k", 8, {binaryInput()}), binaryExpected());

  size_t size = 0, returned = 0;
  ASSERT_EQ(clGetProgramInfo(original, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, &returned),
            CL_SUCCESS);
  EXPECT_EQ(returned, sizeof(size_t)); // one device
  ASSERT_GT(size, 0u) << "a built program has an executable binary";
  const std::vector<unsigned char> binary = programBinary(original);
  ASSERT_EQ(binary.size(), size);

  const unsigned char *binaries[] = {binary.data()};
  const size_t lengths[] = {binary.size()};
  cl_int status = 12345, error = 12345;
  cl_program copy =
      adopt(clCreateProgramWithBinary(context, 1, &device, lengths, binaries, &status, &error));
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(error, CL_SUCCESS);
  EXPECT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(binaryType(copy, device), cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_EXECUTABLE});
  ASSERT_EQ(build(copy, ""), CL_SUCCESS) << buildLog(copy, device);
  EXPECT_EQ(buildStatus(copy, device), CL_BUILD_SUCCESS);
  EXPECT_EQ(binaryType(copy, device), cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_EXECUTABLE});
  EXPECT_EQ(run<int32_t>(copy, "k", 8, {binaryInput()}), binaryExpected());
  // And its own binary is available again.
  EXPECT_EQ(programBinary(copy).size(), size);
}

// The binary of a linked program round-trips as well.
TEST_F(ProgramBinary, LinkedProgramRoundTrip) {
  cl_program helper = source(kHelperSource);
  cl_program object = source(kStandaloneSource);
  ASSERT_TRUE(helper && object);
  ASSERT_EQ(compile(helper, ""), CL_SUCCESS);
  ASSERT_EQ(compile(object, ""), CL_SUCCESS);
  cl_int error = CL_SUCCESS;
  cl_program linked = link({helper, object}, "", error);
  ASSERT_EQ(error, CL_SUCCESS);
  const std::vector<unsigned char> binary = programBinary(linked);
  ASSERT_FALSE(binary.empty());
  const unsigned char *binaries[] = {binary.data()};
  const size_t lengths[] = {binary.size()};
  cl_int status = 12345;
  cl_program copy =
      adopt(clCreateProgramWithBinary(context, 1, &device, lengths, binaries, &status, &error));
  ASSERT_EQ(error, CL_SUCCESS);
  EXPECT_EQ(status, CL_SUCCESS);
  ASSERT_EQ(build(copy, ""), CL_SUCCESS) << buildLog(copy, device);
  EXPECT_EQ(run<int32_t>(copy, "standalone", 8), standaloneExpected(8));
}

// Bytes that are not a program binary: CL_INVALID_BINARY, with binary_status
// set (5.8.1); no bytes: CL_INVALID_VALUE.
TEST_F(ProgramBinary, GarbageBinaryIsInvalidBinary) {
  const std::string garbage = "this is certainly not a program binary for any device.";
  const unsigned char *binaries[] = {reinterpret_cast<const unsigned char *>(garbage.data())};
  const size_t lengths[] = {garbage.size()};
  cl_int status = 12345, error = 12345;
  EXPECT_EQ(clCreateProgramWithBinary(context, 1, &device, lengths, binaries, &status, &error),
            nullptr);
  EXPECT_EQ(error, CL_INVALID_BINARY);
  EXPECT_EQ(status, CL_INVALID_BINARY);

  // Word-aligned random words are not a binary either.
  std::vector<uint32_t> words(64);
  for (size_t i = 0; i < words.size(); ++i)
    words[i] = uint32_t(i * 2654435761u + 12345u);
  const unsigned char *wordBinaries[] = {reinterpret_cast<const unsigned char *>(words.data())};
  const size_t wordLengths[] = {words.size() * 4};
  status = error = 12345;
  EXPECT_EQ(
      clCreateProgramWithBinary(context, 1, &device, wordLengths, wordBinaries, &status, &error),
      nullptr);
  EXPECT_EQ(error, CL_INVALID_BINARY);
  EXPECT_EQ(status, CL_INVALID_BINARY);

  const size_t zero[] = {0};
  error = 12345;
  EXPECT_EQ(clCreateProgramWithBinary(context, 1, &device, zero, binaries, &status, &error),
            nullptr);
  EXPECT_EQ(error, CL_INVALID_VALUE);
}

// CL_PROGRAM_BINARY_TYPE and CL_PROGRAM_BINARY_SIZES after each step
// (5.8.10): none, compiled object, library, executable.
TEST_F(ProgramBinary, BinaryTypeAndSizeAfterEachStep) {
  auto binarySize = [](cl_program program) {
    size_t size = 12345;
    EXPECT_EQ(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr),
              CL_SUCCESS);
    return size;
  };
  cl_program helper = source(kHelperSource);
  cl_program object = source(kStandaloneSource);
  ASSERT_TRUE(helper && object);
  EXPECT_EQ(binaryType(helper, device), cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_NONE});
  EXPECT_EQ(binarySize(helper), 0u);

  ASSERT_EQ(compile(helper, ""), CL_SUCCESS);
  ASSERT_EQ(compile(object, ""), CL_SUCCESS);
  EXPECT_EQ(binaryType(helper, device),
            cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT});
  EXPECT_GT(binarySize(helper), 0u) << "a compiled object has a compiled binary";

  cl_int error = CL_SUCCESS;
  cl_program library = link({helper}, "-create-library", error);
  ASSERT_EQ(error, CL_SUCCESS);
  EXPECT_EQ(binaryType(library, device), cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_LIBRARY});
  EXPECT_GT(binarySize(library), 0u);

  cl_program linked = link({library, object}, "", error);
  ASSERT_EQ(error, CL_SUCCESS);
  EXPECT_EQ(binaryType(linked, device), cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_EXECUTABLE});
  EXPECT_GT(binarySize(linked), 0u);

  cl_program program = built(kBinarySource);
  ASSERT_NE(program, nullptr);
  EXPECT_EQ(binaryType(program, device), cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_EXECUTABLE});
  EXPECT_GT(binarySize(program), 0u) << "a built program has an executable binary";
}

// "CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT ... when a compiled binary was
// loaded using clCreateProgramWithBinary"; the same for a library (5.8.10).
// Such programs link like the originals.
TEST_F(ProgramBinary, CompiledObjectAndLibraryBinariesKeepTheirType) {
  cl_program helper = source(kHelperSource);
  cl_program object = source(kStandaloneSource);
  ASSERT_TRUE(helper && object);
  ASSERT_EQ(compile(helper, ""), CL_SUCCESS);
  ASSERT_EQ(compile(object, ""), CL_SUCCESS);
  cl_int error = CL_SUCCESS;
  cl_program library = link({helper}, "-create-library", error);
  ASSERT_EQ(error, CL_SUCCESS);

  auto reload = [&](cl_program program) -> cl_program {
    const std::vector<unsigned char> binary = programBinary(program);
    if (binary.empty())
      return nullptr;
    const unsigned char *binaries[] = {binary.data()};
    const size_t lengths[] = {binary.size()};
    cl_int status = 12345, created = 12345;
    cl_program copy =
        adopt(clCreateProgramWithBinary(context, 1, &device, lengths, binaries, &status, &created));
    EXPECT_EQ(created, CL_SUCCESS);
    EXPECT_EQ(status, CL_SUCCESS);
    return copy;
  };
  cl_program libraryCopy = reload(library);
  ASSERT_NE(libraryCopy, nullptr);
  EXPECT_EQ(binaryType(libraryCopy, device),
            cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_LIBRARY});
  cl_program objectCopy = reload(object);
  ASSERT_NE(objectCopy, nullptr) << "the compiled object has no binary";
  EXPECT_EQ(binaryType(objectCopy, device),
            cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT});

  cl_program linked = link({libraryCopy, objectCopy}, "", error);
  ASSERT_EQ(error, CL_SUCCESS) << (linked ? buildLog(linked, device) : "");
  EXPECT_EQ(run<int32_t>(linked, "standalone", 4), standaloneExpected(4));

  // An object that imports a function (a SPIR-V 1.0 module, whose note must
  // be valid SPIR-V 1.0: the CTS's execute_after_serialize_reload_object).
  cl_program user = source(kUserSource);
  ASSERT_NE(user, nullptr);
  ASSERT_EQ(compile(user, ""), CL_SUCCESS) << buildLog(user, device);
  cl_program userCopy = reload(user);
  ASSERT_NE(userCopy, nullptr);
  EXPECT_EQ(binaryType(userCopy, device),
            cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT});
  cl_program withHelper = link({userCopy, libraryCopy}, "", error);
  ASSERT_EQ(error, CL_SUCCESS) << (withHelper ? buildLog(withHelper, device) : "");
  EXPECT_EQ(run<int32_t>(withHelper, "use_helper", 3), (std::vector<int32_t>{101, 104, 107}));

  // What is linked from a reloaded object is what the link made, reloaded
  // too (the CTS's program_binary_type).
  cl_program relinkedLibrary = link({objectCopy}, "-create-library", error);
  ASSERT_EQ(error, CL_SUCCESS);
  cl_program relinkedLibraryCopy = reload(relinkedLibrary);
  ASSERT_NE(relinkedLibraryCopy, nullptr);
  EXPECT_EQ(binaryType(relinkedLibraryCopy, device),
            cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_LIBRARY});
  cl_program executableCopy = reload(withHelper);
  ASSERT_NE(executableCopy, nullptr);
  EXPECT_EQ(binaryType(executableCopy, device),
            cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_EXECUTABLE});
}

// ---------------------------------------------------------------------------
// BuildCache: the compiler's disk cache, seen from new processes. Each child
// gets a fresh LANEWISE_CACHE_DIR and logging wrappers of clang and
// llvm-spirv, and reports the build and the kernel's output.

class CacheChildren {
public:
  LoggingToolchain tools;
  TempDir cache;

  ChildReport build(const std::string &text, const std::string &options = "",
                    const std::map<std::string, std::string> &extra = {}) const {
    std::map<std::string, std::string> variables = {
        {"LANEWISE_TEST_CHILD", "build"},
        {"LANEWISE_CLANG", tools.clang.string()},
        {"LANEWISE_LLVM_SPIRV", tools.llvmSpirv.string()},
        {"LANEWISE_CACHE_DIR", cache.path.string()},
        {"LANEWISE_CACHE", "1"},
        {"LANEWISE_TEST_CHILD_SOURCE", text},
        {"LANEWISE_TEST_CHILD_OPTIONS", options}};
    for (const auto &[key, value] : extra)
      variables[key] = value;
    return runChild(variables);
  }
};

std::string expectedValues(int value) { return joined({value, value + 1, value + 2, value + 3}); }

#define EXPECT_CHILD_BUILT(child, value)                                                           \
  do {                                                                                             \
    ASSERT_EQ((child).exitCode, 0) << (child).output;                                              \
    ASSERT_TRUE((child).values.count("build")) << (child).output;                                  \
    EXPECT_EQ((child).values.at("build"), "0") << (child).log;                                     \
    EXPECT_EQ((child).values["values"], expectedValues(value)) << (child).log;                     \
  } while (0)

#define SKIP_UNLESS_CACHE_TESTABLE(children)                                                       \
  do {                                                                                             \
    if (!testingLanewise())                                                                        \
      GTEST_SKIP() << "Lanewise's compiler cache";                                                 \
    if (!(children).tools.ok || (children).cache.path.empty())                                     \
      GTEST_SKIP() << "no clang and llvm-spirv to wrap";                                           \
  } while (0)

// A build creates an entry; the same build in a new process uses it and
// does not run clang.
TEST_F(BuildCache, SecondProcessHitsTheCache) {
  CacheChildren children;
  SKIP_UNLESS_CACHE_TESTABLE(children);
  ChildReport first = children.build(cacheKernel(10));
  EXPECT_CHILD_BUILT(first, 10);
  EXPECT_EQ(children.tools.compilations(), 1);
  EXPECT_EQ(cacheEntries(children.cache.path).size(), 1u);

  ChildReport second = children.build(cacheKernel(10));
  EXPECT_CHILD_BUILT(second, 10);
  EXPECT_EQ(children.tools.compilations(), 1) << "the second process ran clang";
  EXPECT_EQ(cacheEntries(children.cache.path).size(), 1u);
}

// A different source or different options miss the cache.
TEST_F(BuildCache, ChangedSourceOrOptionMisses) {
  CacheChildren children;
  SKIP_UNLESS_CACHE_TESTABLE(children);
  ChildReport first = children.build(cacheKernel(20));
  EXPECT_CHILD_BUILT(first, 20);
  EXPECT_EQ(children.tools.compilations(), 1);

  ChildReport changedSource = children.build(cacheKernel(21));
  EXPECT_CHILD_BUILT(changedSource, 21);
  EXPECT_EQ(children.tools.compilations(), 2) << "a changed source hit the cache";

  // The option changes what the kernel computes: a hit would be wrong.
  const std::string text = "#ifndef BASE\n#define BASE 30\n#endif\n"
                           "kernel void k(global int *out) {\n"
                           "  int i = (int)get_global_id(0);\n"
                           "  out[i] = BASE + i;\n}\n";
  ChildReport plain = children.build(text);
  EXPECT_CHILD_BUILT(plain, 30);
  EXPECT_EQ(children.tools.compilations(), 3);
  ChildReport defined = children.build(text, "-D BASE=40");
  EXPECT_CHILD_BUILT(defined, 40);
  EXPECT_EQ(children.tools.compilations(), 4) << "a changed option hit the cache";
  ChildReport optimised = children.build(text, "-cl-fast-relaxed-math");
  EXPECT_CHILD_BUILT(optimised, 30);
  EXPECT_EQ(children.tools.compilations(), 5) << "a changed option hit the cache";

  // And each of them now hits.
  ChildReport again = children.build(text, "-D BASE=40");
  EXPECT_CHILD_BUILT(again, 40);
  EXPECT_EQ(children.tools.compilations(), 5);
  EXPECT_EQ(cacheEntries(children.cache.path).size(), 5u);
}

// A damaged cache entry is not used: the program is compiled again, and
// right.
TEST_F(BuildCache, CorruptEntryIsRebuilt) {
  CacheChildren children;
  SKIP_UNLESS_CACHE_TESTABLE(children);
  ChildReport first = children.build(cacheKernel(50));
  EXPECT_CHILD_BUILT(first, 50);
  const std::vector<fs::path> entries = cacheEntries(children.cache.path);
  ASSERT_EQ(entries.size(), 1u);
  const std::string good = readText(entries[0]);
  ASSERT_GT(good.size(), 64u);

  // Truncated in the middle of a word.
  writeText(entries[0], good.substr(0, 7));
  ChildReport truncated = children.build(cacheKernel(50));
  EXPECT_CHILD_BUILT(truncated, 50);
  EXPECT_EQ(children.tools.compilations(), 2) << "the truncated entry was used";

  // Truncated at a word boundary, its header intact.
  writeText(entries[0], good.substr(0, (good.size() / 2) & ~size_t(3)));
  ChildReport halved = children.build(cacheKernel(50));
  EXPECT_CHILD_BUILT(halved, 50);
  EXPECT_EQ(children.tools.compilations(), 3) << "the truncated entry was used";

  // Whole length, but the instructions overwritten.
  std::string scrambled = good;
  for (size_t i = 20; i < scrambled.size(); ++i)
    scrambled[i] = char(0xA5 ^ (i * 31));
  writeText(entries[0], scrambled);
  ChildReport corrupt = children.build(cacheKernel(50));
  EXPECT_CHILD_BUILT(corrupt, 50);
  EXPECT_EQ(children.tools.compilations(), 4) << "the corrupt entry was used";
}

// LANEWISE_CACHE=0 turns the cache off: nothing is written, every process
// compiles.
TEST_F(BuildCache, DisabledByEnvironment) {
  CacheChildren children;
  SKIP_UNLESS_CACHE_TESTABLE(children);
  for (int round = 1; round <= 2; ++round) {
    ChildReport child = children.build(cacheKernel(60), "", {{"LANEWISE_CACHE", "0"}});
    EXPECT_CHILD_BUILT(child, 60);
    EXPECT_EQ(children.tools.compilations(), round);
  }
  EXPECT_TRUE(cacheEntries(children.cache.path).empty());
}

} // namespace
} // namespace lanewise::test
