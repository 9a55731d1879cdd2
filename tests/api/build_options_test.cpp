// SPDX-License-Identifier: Apache-2.0
// Every build option on every source: each OpenCL C file of the kernel and
// command-line suites is built from source through clBuildProgram under
// each option of the OpenCL 3.0 API spec, 5.8.6 (in the groups real
// programs pass them), and every kernel of it is created. The suites' own
// tests run the kernels; these prove that no option makes a program fail
// to build (-cl-unsafe-math-optimizations once did, for every program that
// divides).
//
// Runs against PoCL too (LANEWISE_TEST_PLATFORM=Portable): an option set
// PoCL refuses is reported by the same test there.
#include "common.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace lanewise::test {
namespace {

namespace fs = std::filesystem;

std::string readFile(const fs::path &path) {
  std::ifstream stream(path);
  return {std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
}

std::string programLog(cl_program program, cl_device_id device) {
  size_t size = 0;
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
  std::string log(size, '\0');
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  return log;
}

// The OpenCL C sources of the suites (the kernel suite is written for
// OpenCL C 3.0 with the device's optional features).
std::vector<fs::path> suiteSources() {
  std::vector<fs::path> files;
  for (const char *folder : {"tests/kernels/cl", "tests/cli/cases", "tests/spirv/kernels"})
    for (const fs::directory_entry &entry :
         fs::directory_iterator(fs::path(LANEWISE_SOURCE_DIR) / folder))
      if (entry.path().extension() == ".cl")
        files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

// The options a command-line case builds with (its .run file's
// build-options line), which may define what its source needs.
std::string caseOptions(const fs::path &source) {
  std::ifstream run(fs::path(source).replace_extension(".run"));
  std::string line;
  while (std::getline(run, line))
    if (line.rfind("build-options ", 0) == 0)
      return line.substr(14);
  return "";
}

// Sources that must not build, and why (their tests check the message).
bool failsOnPurpose(const fs::path &source) {
  for (const char *name : {"build_error",            // a syntax error
                           "big_global",             // a variable beyond the device's limit
                           "long_array",             // an array of 2^32 elements and more
                           "printf_dynamic_format"}) // a format not known at build time
    if (source.stem() == name)
      return true;
  return false;
}

struct OptionSet {
  const char *name;
  const char *options;
};
void PrintTo(const OptionSet &set, std::ostream *out) { *out << '"' << set.options << '"'; }

// Each option of 5.8.6 appears in at least one set; the sets are the
// combinations real programs use.
constexpr OptionSet kOptionSets[] = {
    {"Unoptimised", "-cl-opt-disable"},
    {"DebugInfo", "-g"},
    {"DebugInfoUnoptimised", "-g -cl-opt-disable"},
    {"FastRelaxedMath", "-cl-fast-relaxed-math -cl-mad-enable"},
    // Without -cl-finite-math-only the flags are not all "fast": llvm-spirv
    // marks instructions with the Intel fast-math bits.
    {"UnsafeMath", "-cl-unsafe-math-optimizations"},
    {"UnsafeFiniteMath", "-cl-unsafe-math-optimizations -cl-finite-math-only -cl-no-signed-zeros"},
    {"MadEnable", "-cl-mad-enable"},
    {"Precision", "-cl-single-precision-constant -cl-denorms-are-zero"},
    {"Other", "-cl-kernel-arg-info -cl-uniform-work-group-size -cl-no-subgroup-ifp "
              "-cl-strict-aliasing -w"},
};

class BuildOptions : public ContextTest, public ::testing::WithParamInterface<OptionSet> {};

TEST_P(BuildOptions, EverySuiteSourceBuildsAndItsKernelsAreCreated) {
  std::string options = std::string("-cl-std=CL3.0 ") + GetParam().options;
  // Only for a device that reports correctly rounded division and square
  // root (5.8.6.3); the build must fail without it.
  if (std::string_view(GetParam().name) == "Precision" &&
      (deviceInfo<cl_device_fp_config>(device, CL_DEVICE_SINGLE_FP_CONFIG) &
       CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT))
    options += " -cl-fp32-correctly-rounded-divide-sqrt";
  const std::vector<fs::path> files = suiteSources();
  ASSERT_GT(files.size(), 30u);
  for (const fs::path &file : files) {
    SCOPED_TRACE(file.string() + " with '" + options + "'");
    const std::string text = readFile(file);
    const char *strings[] = {text.c_str()};
    cl_int error = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(context, 1, strings, nullptr, &error);
    ASSERT_EQ(error, CL_SUCCESS);
    // Headers a case includes lie beside it.
    const std::string all = options + " " + caseOptions(file) + " -I \"" +
                            file.parent_path().string() + "\"";
    const cl_int built = clBuildProgram(program, 1, &device, all.c_str(), nullptr, nullptr);
    if (failsOnPurpose(file)) {
      EXPECT_EQ(built, CL_BUILD_PROGRAM_FAILURE);
    } else {
      EXPECT_EQ(built, CL_SUCCESS) << programLog(program, device);
      if (built == CL_SUCCESS) {
        cl_uint count = 0;
        EXPECT_EQ(clCreateKernelsInProgram(program, 0, nullptr, &count), CL_SUCCESS);
        std::vector<cl_kernel> kernels(count);
        EXPECT_EQ(clCreateKernelsInProgram(program, count, kernels.data(), nullptr), CL_SUCCESS);
        EXPECT_GT(count, 0u);
        for (cl_kernel kernel : kernels)
          clReleaseKernel(kernel);
      }
    }
    clReleaseProgram(program);
  }
}

INSTANTIATE_TEST_SUITE_P(Sets, BuildOptions, ::testing::ValuesIn(kOptionSets),
                         [](const ::testing::TestParamInfo<OptionSet> &info) {
                           return std::string(info.param.name);
                         });

} // namespace
} // namespace lanewise::test
