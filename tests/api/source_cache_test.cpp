// SPDX-License-Identifier: Apache-2.0
// The compiler's disk cache, seen from new processes of this binary (child
// processes re-run it with --gtest_filter=BuildCache.DISABLED_ChildProcess
// and LANEWISE_TEST_CHILD set; that test does nothing otherwise): a second
// process hits the cache, a changed source or option misses, a corrupt entry
// is rebuilt and LANEWISE_CACHE=0 turns the cache off.
#include "source_program_fixture.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace lanewise::test::source {
namespace {

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
} // namespace lanewise::test::source
