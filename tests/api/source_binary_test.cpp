// SPDX-License-Identifier: Apache-2.0
// Program binaries (OpenCL 3.0 API spec, 5.8.1, 5.8.9): CL_PROGRAM_BINARIES
// of built, compiled, linked and library programs, clCreateProgramWithBinary
// from them, their binary types and sizes, and bytes that are no binary.
#include "source_program_fixture.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lanewise::test::source {
namespace {

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

} // namespace
} // namespace lanewise::test::source
