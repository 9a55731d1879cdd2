// SPDX-License-Identifier: Apache-2.0
// The source program tests' helpers (declared in source_program_fixture.h).
#include "source_program_fixture.h"

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace lanewise::test::source {

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

namespace {

std::string selfExecutable() {
  std::string path(4096, '\0');
  const ssize_t length = readlink("/proc/self/exe", path.data(), path.size() - 1);
  path.resize(length > 0 ? size_t(length) : 0);
  return path;
}

} // namespace

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

std::string cacheKernel(int value) {
  return "kernel void k(global int *out) {\n"
         "  size_t i = get_global_id(0);\n"
         "  out[i] = " +
         std::to_string(value) + " + (int)i;\n}\n";
}

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

void waitForNotification(Notification &notification) {
  std::unique_lock lock(notification.mutex);
  notification.changed.wait_for(lock, std::chrono::seconds(30),
                                [&] { return notification.calls > 0; });
  lock.unlock();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

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

} // namespace lanewise::test::source
