// SPDX-License-Identifier: Apache-2.0
// OpenCL C source programs: clBuildProgram's build options (OpenCL 3.0 API
// spec, 5.8.6), build logs and build information (5.8.9), the language
// version and the feature and predefined macros it follows, and builds that
// fail (syntax errors, intrinsics without a translation, a crashing
// compiler, unknown options).
#include "source_program_fixture.h"

#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace lanewise::test::source {
namespace {

// A kernel source with a warning of the preprocessor and one of the compiler
// (both on by default in clang); the warnings are on lines 1 and 3.
const char *const kWarningSource = "#warning lanewise test warning\n"
                                   "kernel void k(global int *out) {\n"
                                   "  char c = 300;\n"
                                   "  out[get_global_id(0)] = 7 + (c & 0);\n"
                                   "}\n";

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
  const std::string crashing = "// " + salt +
                               "\n#pragma clang __debug crash\n"
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
      const std::string text = "// " + salt +
                               "\nkernel void k(global int *out) { "
                               "out[get_global_id(0)] = " +
                               std::to_string(7 + t) + "; }\n";
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

// OpenCL C 3.0, 6.2.1: a feature macro is defined exactly when the device
// reports the feature (CL_DEVICE_OPENCL_C_FEATURES); the CTS's
// features_macro. clang-14's header defines some for every SPIR target.
TEST_F(SourceProgram, FeatureMacrosFollowTheDeviceFeatures) {
  const char *const features[] = {"__opencl_c_atomic_order_acq_rel",
                                  "__opencl_c_atomic_order_seq_cst",
                                  "__opencl_c_atomic_scope_device",
                                  "__opencl_c_atomic_scope_all_devices",
                                  "__opencl_c_read_write_images",
                                  "__opencl_c_images",
                                  "__opencl_c_generic_address_space",
                                  "__opencl_c_subgroups",
                                  "__opencl_c_program_scope_global_variables",
                                  "__opencl_c_fp64",
                                  "__opencl_c_int64",
                                  "__opencl_c_pipes",
                                  "__opencl_c_device_enqueue",
                                  "__opencl_c_fp16"};
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

// The sub-group extensions the device reports are reported to every
// program, OpenCL C 1.x included (their specifications name no version):
// their macros are defined and their built-ins declared there too. The
// SDK's blur sample builds without -cl-std and uses sub_group_shuffle_up
// once the device lists cl_khr_subgroup_shuffle_relative. Each work-item
// stores the difference between a built-in's result and its definition.
TEST_F(SourceProgram, SubgroupExtensionsInOpenCLC12) {
  const std::string extensions = deviceString(device, CL_DEVICE_EXTENSIONS);
  for (const char *extension : {"cl_khr_subgroups", "cl_khr_subgroup_shuffle_relative",
                                "cl_khr_subgroup_non_uniform_arithmetic"})
    if (!contains(extensions, extension))
      GTEST_SKIP() << "the device does not report " << extension;
  const std::string text =
      "#if !defined(cl_khr_subgroups) || !defined(cl_khr_subgroup_shuffle_relative) || \\\n"
      "    !defined(cl_khr_subgroup_non_uniform_arithmetic)\n"
      "#error the macros of the sub-group extensions are not defined\n"
      "#endif\n"
      "kernel void k(global int *out) {\n"
      "  int lane = (int)get_sub_group_local_id(), size = (int)get_sub_group_size();\n"
      "  int up = sub_group_shuffle_up(10 * lane, 1u);\n"
      "  out[get_global_id(0)] = (sub_group_reduce_add(1) - size) +\n"
      "                          (lane > 0 ? up - 10 * (lane - 1) : 0) +\n"
      "                          (sub_group_non_uniform_reduce_max(lane) - (size - 1));\n"
      "}\n";
  for (const char *options : {"", "-cl-std=CL1.2", "-cl-std=CL1.1 -cl-opt-disable"}) {
    SCOPED_TRACE(options);
    cl_program program = built(text, options);
    ASSERT_NE(program, nullptr);
    EXPECT_EQ(run<cl_int>(program, "k", 256), std::vector<cl_int>(256, 0));
  }
}

// Every OpenCL C extension the device reports has its macro, in each
// OpenCL C version (OpenCL C 3.0, 6.1); clang-14 knows some only from
// OpenCL C 2.0 on (the sub-group ones) or not at all (cl_khr_expect_assume).
TEST_F(SourceProgram, ReportedExtensionsHaveTheirMacros) {
  const std::string extensions = deviceString(device, CL_DEVICE_EXTENSIONS);
  std::string text;
  int checked = 0;
  for (const char *extension : {"cl_khr_3d_image_writes",
                                "cl_khr_byte_addressable_store",
                                "cl_khr_expect_assume",
                                "cl_khr_fp16",
                                "cl_khr_fp64",
                                "cl_khr_global_int32_base_atomics",
                                "cl_khr_global_int32_extended_atomics",
                                "cl_khr_int64_base_atomics",
                                "cl_khr_int64_extended_atomics",
                                "cl_khr_local_int32_base_atomics",
                                "cl_khr_local_int32_extended_atomics",
                                "cl_khr_subgroups",
                                "cl_khr_subgroup_ballot",
                                "cl_khr_subgroup_clustered_reduce",
                                "cl_khr_subgroup_extended_types",
                                "cl_khr_subgroup_non_uniform_arithmetic",
                                "cl_khr_subgroup_non_uniform_vote",
                                "cl_khr_subgroup_shuffle",
                                "cl_khr_subgroup_shuffle_relative",
                                "cl_intel_subgroups",
                                "cl_intel_subgroups_short",
                                "cl_intel_subgroups_long"})
    if (contains(" " + extensions + " ", std::string(" ") + extension + " ")) {
      text += std::string("#ifndef ") + extension + "\n#error " + extension +
              " is not defined\n#endif\n";
      ++checked;
    }
  ASSERT_GT(checked, 0);
  text += "kernel void k(global int *out) { out[get_global_id(0)] = 7; }\n";
  for (const char *options : {"", "-cl-std=CL1.1", "-cl-std=CL1.2", "-cl-std=CL3.0"}) {
    SCOPED_TRACE(options);
    cl_program program = built(text, options);
    ASSERT_NE(program, nullptr);
    EXPECT_EQ(run<cl_int>(program, "k", 4), std::vector<cl_int>(4, 7));
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

} // namespace
} // namespace lanewise::test::source
