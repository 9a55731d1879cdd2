// SPDX-License-Identifier: Apache-2.0
// OpenCL C source programs compiled and linked separately: clCompileProgram
// with embedded headers and clLinkProgram (OpenCL 3.0 API spec,
// 5.8.4-5.8.5), libraries, link errors and the link callback.
#include "source_program_fixture.h"

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace lanewise::test::source {
namespace {

// ---------------------------------------------------------------------------
// CompileLink: clCompileProgram and clLinkProgram.

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
  for (auto order :
       {std::vector<cl_program>{user, helper}, std::vector<cl_program>{helper, user}}) {
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
  cl_program user =
      source("extern bool matches(float *p, float value);\n"
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

} // namespace
} // namespace lanewise::test::source
