// SPDX-License-Identifier: Apache-2.0
// C++ for OpenCL (cl_ext_cxx_for_opencl): source programs built with
// -cl-std=CLC++ (version 1.0, the one the device reports) and CLC++2021.
// Templates, classes with address-space-qualified methods, program-scope
// objects with constructors (run when the program is built), lambdas and
// the vector swizzles, each checked against values computed here from the
// language's definitions.
#include "common.h"

#include <CL/cl_ext.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace lanewise::test {
namespace {

const char *const kSource = R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

// A reduction written once, instantiated for three types.
template <typename T> T reduce(__global const T *in, int n) {
  T sum = in[0];
  for (int i = 1; i < n; ++i)
    sum += in[i];
  return sum;
}
kernel void reduce_int(__global const int *in, __global int *out, int n) {
  out[get_global_id(0)] = reduce(in + get_global_id(0) * n, n);
}
kernel void reduce_float(__global const float *in, __global float *out, int n) {
  out[get_global_id(0)] = reduce(in + get_global_id(0) * n, n);
}
kernel void reduce_half4(__global const half4 *in, __global half4 *out, int n) {
  out[get_global_id(0)] = reduce(in + get_global_id(0) * n, n);
}

// A class whose methods may be called on objects in global memory.
class Counter {
public:
  void add(int v) __global { count += v * weight; }
  int total() const __global { return count; }

private:
  int count;
  int weight;
};
kernel void count(__global Counter *counters, __global const int *in, int n,
                  __global int *totals) {
  __global Counter &mine = counters[get_global_id(0)];
  for (int k = 0; k < n; ++k)
    mine.add(in[k]);
  totals[get_global_id(0)] = mine.total();
}

// A program-scope object with a constructor.
struct Table {
  int v[8];
  Table() {
    for (int i = 0; i < 8; ++i)
      v[i] = i * i + 3;
  }
};
__global Table table;
kernel void read_table(__global int *out) {
  out[get_global_id(0)] = table.v[get_global_id(0) % 8];
}

// A lambda, capturing by value, passed to a template.
template <typename F> float applyTwice(F f, float x) { return f(f(x)); }
kernel void lambdas(__global const float *in, __global float *out, float k) {
  const size_t i = get_global_id(0);
  out[i] = applyTwice([k](float v) { return v * k + 1.0f; }, in[i]);
}

kernel void cpp_version(__global int *out) { out[0] = __OPENCL_CPP_VERSION__; }

// Namespaces, constexpr, references, overloading, and templates over
// address spaces: one function template reading through a __global, a
// __local and a __private pointer, and through generic references.
namespace geometry {
constexpr int cube(int x) { return x * x * x; }
constexpr int kOffset = cube(3); // 27, at compile time
inline float area(float r) { return 3.0f * r * r; }
inline int area(int w, int h) { return w * h; }
} // namespace geometry

template <typename Pointer> int sumOf(Pointer p, int n) {
  int sum = 0;
  for (int i = 0; i < n; ++i)
    sum += p[i];
  return sum;
}
void twiceInPlace(int &x) { x *= 2; }

kernel void language(__global const int *in, __global int *out) {
  __local int shared[4];
  const int i = get_global_id(0);
  if (get_local_id(0) < 4)
    shared[get_local_id(0)] = in[get_local_id(0)] + 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  int own[3] = {i, 2 * i, 3 * i};
  int value = sumOf(in, 4) + sumOf(shared, 4) + sumOf(own, 3);
  twiceInPlace(value);
  out[3 * i] = value + geometry::kOffset;
  out[3 * i + 1] = geometry::area(i, 5) + static_cast<int>(geometry::area(2.0f));
  int &alias = out[3 * i + 2];
  alias = geometry::cube(i);
}
)";

// Vector swizzles of 2, 3, 4, 8 and 16 components (OpenCL C 3.0, 6.3.7:
// lo, hi, even, odd, and the .s indices; a 3-component vector's lo, hi,
// even and odd are those of a 4-component one whose w is undefined, so only
// defined components are stored).
const char *const kSwizzles = R"(
kernel void swizzles(__global const float *in, __global float *out) {
  const float2 v2 = vload2(0, in);
  const float3 v3 = vload3(0, in);
  const float4 v4 = vload4(0, in);
  const float8 v8 = vload8(0, in);
  const float16 v16 = vload16(0, in);
  int k = 0;
  out[k++] = v2.lo; out[k++] = v2.hi; out[k++] = v2.even; out[k++] = v2.odd;
  vstore2(v2.yx, 0, out + k); k += 2;
  vstore2(v3.lo, 0, out + k); k += 2;
  out[k++] = v3.hi.x;
  vstore2(v3.even, 0, out + k); k += 2;
  out[k++] = v3.odd.x;
  vstore3(v3.zyx, 0, out + k); k += 3;
  vstore2(v4.lo, 0, out + k); k += 2;
  vstore2(v4.hi, 0, out + k); k += 2;
  vstore2(v4.even, 0, out + k); k += 2;
  vstore2(v4.odd, 0, out + k); k += 2;
  vstore4(v4.s3210, 0, out + k); k += 4;
  vstore4(v4.xxyy, 0, out + k); k += 4;
  vstore4(v8.lo, 0, out + k); k += 4;
  vstore4(v8.hi, 0, out + k); k += 4;
  vstore4(v8.even, 0, out + k); k += 4;
  vstore4(v8.odd, 0, out + k); k += 4;
  vstore8(v8.s76543210, 0, out + k); k += 8;
  vstore8(v16.lo, 0, out + k); k += 8;
  vstore8(v16.hi, 0, out + k); k += 8;
  vstore8(v16.even, 0, out + k); k += 8;
  vstore8(v16.odd, 0, out + k); k += 8;
  vstore16(v16.sFEDCBA9876543210, 0, out + k); k += 16;
  vstore16(v16.s0123456789abcdef, 0, out + k); k += 16;
  out[k++] = v16.lo.hi.even.odd; // (4 5 6 7), then (4 6), then 6
}
)";

class CxxForOpenCL : public ContextTest {
protected:
  void TearDown() override {
    for (cl_mem mem : buffers_)
      clReleaseMemObject(mem);
    for (cl_program program : programs_)
      clReleaseProgram(program);
    ContextTest::TearDown();
  }

  // Builds `source` with `options`; fails the test with the log otherwise.
  cl_program build(const char *source, const char *options) {
    cl_int error = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &error);
    EXPECT_EQ(error, CL_SUCCESS);
    programs_.push_back(program);
    if (clBuildProgram(program, 1, &device, options, nullptr, nullptr) != CL_SUCCESS) {
      size_t size = 0;
      clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
      std::string log(size, '\0');
      clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
      ADD_FAILURE() << "build with '" << options << "' failed:\n" << log;
    }
    return program;
  }
  template <typename T> cl_mem buffer(const std::vector<T> &data) {
    cl_int error = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                data.size() * sizeof(T), const_cast<T *>(data.data()), &error);
    EXPECT_EQ(error, CL_SUCCESS);
    buffers_.push_back(mem);
    return mem;
  }
  template <typename T> std::vector<T> read(cl_mem mem, size_t count) {
    std::vector<T> data(count);
    EXPECT_EQ(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, count * sizeof(T), data.data(), 0,
                                  nullptr, nullptr),
              CL_SUCCESS);
    return data;
  }
  template <typename... Args>
  void run(cl_program program, const char *name, size_t global, const Args &...arguments) {
    cl_int error = CL_SUCCESS;
    Kernel kernel(clCreateKernel(program, name, &error));
    ASSERT_EQ(error, CL_SUCCESS) << name;
    cl_uint index = 0;
    auto set = [&](const auto &argument) {
      EXPECT_EQ(clSetKernelArg(kernel.get(), index, sizeof argument, &argument), CL_SUCCESS)
          << name << " argument " << index;
      ++index;
    };
    (set(arguments), ...);
    ASSERT_EQ(clEnqueueNDRangeKernel(queue, kernel.get(), 1, nullptr, &global, nullptr, 0, nullptr,
                                     nullptr),
              CL_SUCCESS)
        << name;
    ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  }

  std::vector<cl_mem> buffers_;
  std::vector<cl_program> programs_;
};

// The three versions' spellings, each with and without optimisation.
const char *const kOptions[] = {"-cl-std=CLC++", "-cl-std=CLC++1.0", "-cl-std=CLC++2021",
                                "-cl-std=CLC++ -cl-opt-disable",
                                "-cl-std=clc++2021 -cl-opt-disable"};

TEST_F(CxxForOpenCL, DeviceReportsTheExtensionAndTheVersionCLCxxCompiles) {
  size_t size = 0;
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, nullptr, &size), CL_SUCCESS);
  std::string extensions(size, '\0');
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, size, extensions.data(), nullptr),
            CL_SUCCESS);
  EXPECT_NE(extensions.find("cl_ext_cxx_for_opencl"), std::string::npos);
  cl_version version = 0;
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_CXX_FOR_OPENCL_NUMERIC_VERSION_EXT, sizeof version,
                            &version, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(version, CL_MAKE_VERSION(1, 0, 0));
  // __OPENCL_CPP_VERSION__ is major * 100 + minor * 10 + patch of that
  // version under -cl-std=CLC++, and 202100 under CLC++2021.
  for (const auto &[options, expected] :
       {std::pair<const char *, int>{"-cl-std=CLC++", 100}, {"-cl-std=CLC++2021", 202100}}) {
    cl_program program = build(kSource, options);
    cl_mem out = buffer(std::vector<int>(1));
    run(program, "cpp_version", 1, out);
    EXPECT_EQ(read<int>(out, 1)[0], expected) << options;
  }
  // A version that does not exist is an invalid option.
  const char *source = kSource;
  cl_int error = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &error);
  programs_.push_back(program);
  EXPECT_EQ(clBuildProgram(program, 1, &device, "-cl-std=CLC++3000", nullptr, nullptr),
            CL_INVALID_BUILD_OPTIONS);
}

TEST_F(CxxForOpenCL, TemplatedReductionOfIntFloatAndHalf4) {
  const int n = 37, rows = 19;
  std::vector<int> ints(n * rows);
  std::vector<float> floats(n * rows);
  std::vector<cl_half> halves(4 * n * rows);
  for (int i = 0; i < n * rows; ++i) {
    ints[i] = (i * 7919) % 2001 - 1000;
    floats[i] = float((i * 31) % 64) - 20.0f; // small integers: every sum exact
    for (int c = 0; c < 4; ++c) {
      // Integers from -3 to 4 as halves: sums of 37 stay exact.
      const int value = (i + c * 5) % 8 - 3;
      const std::uint16_t sign = value < 0 ? 0x8000 : 0;
      const int magnitude = std::abs(value);
      std::uint16_t bits = 0;
      if (magnitude) {
        const int exponent = int(std::floor(std::log2(magnitude)));
        const int mantissa = (magnitude << (10 - exponent)) & 0x3FF;
        bits = std::uint16_t((exponent + 15) << 10 | mantissa);
      }
      halves[4 * i + c] = cl_half(sign | bits);
    }
  }
  auto halfValue = [](cl_half h) {
    const int exponent = (h >> 10) & 31, mantissa = h & 0x3FF;
    const float magnitude = exponent ? std::ldexp(1.0f + mantissa / 1024.0f, exponent - 15) : 0.0f;
    return (h & 0x8000) ? -magnitude : magnitude;
  };
  for (const char *options : kOptions) {
    SCOPED_TRACE(options);
    cl_program program = build(kSource, options);
    cl_mem intOut = buffer(std::vector<int>(rows)), floatOut = buffer(std::vector<float>(rows)),
           halfOut = buffer(std::vector<cl_half>(4 * rows));
    run(program, "reduce_int", rows, buffer(ints), intOut, cl_int{n});
    run(program, "reduce_float", rows, buffer(floats), floatOut, cl_int{n});
    run(program, "reduce_half4", rows, buffer(halves), halfOut, cl_int{n});
    const auto gotInts = read<int>(intOut, rows);
    const auto gotFloats = read<float>(floatOut, rows);
    const auto gotHalves = read<cl_half>(halfOut, 4 * rows);
    for (int r = 0; r < rows; ++r) {
      int intSum = 0;
      float floatSum = 0.0f;
      float halfSums[4] = {};
      for (int i = 0; i < n; ++i) {
        intSum += ints[r * n + i];
        floatSum += floats[r * n + i];
        for (int c = 0; c < 4; ++c)
          halfSums[c] += halfValue(halves[4 * (r * n + i) + c]);
      }
      EXPECT_EQ(gotInts[r], intSum) << "row " << r;
      EXPECT_EQ(gotFloats[r], floatSum) << "row " << r;
      for (int c = 0; c < 4; ++c)
        EXPECT_EQ(halfValue(gotHalves[4 * r + c]), halfSums[c])
            << "row " << r << " component " << c;
    }
  }
}

TEST_F(CxxForOpenCL, ClassMethodsOnObjectsInGlobalMemory) {
  const int items = 21, n = 9;
  std::vector<cl_int> counters; // count, weight
  for (int i = 0; i < items; ++i)
    counters.insert(counters.end(), {i * 3, i % 4 + 1});
  std::vector<int> in(n);
  for (int k = 0; k < n; ++k)
    in[k] = k * k - 7;
  for (const char *options : kOptions) {
    SCOPED_TRACE(options);
    cl_program program = build(kSource, options);
    cl_mem objects = buffer(counters), totals = buffer(std::vector<int>(items));
    run(program, "count", items, objects, buffer(in), cl_int{n}, totals);
    const auto got = read<int>(totals, items);
    const auto after = read<cl_int>(objects, 2 * items);
    for (int i = 0; i < items; ++i) {
      int expected = i * 3;
      for (int k = 0; k < n; ++k)
        expected += in[k] * (i % 4 + 1);
      EXPECT_EQ(got[i], expected) << "counter " << i;
      EXPECT_EQ(after[2 * i], expected) << "counter " << i;
      EXPECT_EQ(after[2 * i + 1], i % 4 + 1) << "counter " << i;
    }
  }
}

TEST_F(CxxForOpenCL, ProgramScopeObjectsAreConstructedWhenTheProgramIsBuilt) {
  for (const char *options : kOptions) {
    SCOPED_TRACE(options);
    cl_program program = build(kSource, options);
    cl_mem out = buffer(std::vector<int>(24, -1));
    run(program, "read_table", 24, out);
    const auto got = read<int>(out, 24);
    for (int i = 0; i < 24; ++i)
      EXPECT_EQ(got[i], (i % 8) * (i % 8) + 3) << "work-item " << i;
  }
  // Unoptimised, the constructor stays a constructor: the program says so
  // (OpenCL 3.0, 5.8.9); a program without one says not.
  cl_program withConstructor = build(kSource, "-cl-std=CLC++ -cl-opt-disable");
  cl_bool present = CL_FALSE;
  ASSERT_EQ(clGetProgramInfo(withConstructor, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, sizeof present,
                             &present, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(present, cl_bool(CL_TRUE));
  // The constructor runs before the kernels and is not one of them.
  size_t kernels = 0;
  ASSERT_EQ(
      clGetProgramInfo(withConstructor, CL_PROGRAM_NUM_KERNELS, sizeof kernels, &kernels, nullptr),
      CL_SUCCESS);
  EXPECT_EQ(kernels, 8u);
  cl_program plain = build(kSwizzles, "-cl-std=CLC++");
  ASSERT_EQ(clGetProgramInfo(plain, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, sizeof present, &present,
                             nullptr),
            CL_SUCCESS);
  EXPECT_EQ(present, cl_bool(CL_FALSE));
}

TEST_F(CxxForOpenCL, NamespacesConstexprReferencesOverloadsAndAddressSpaceTemplates) {
  const int items = 12;
  const std::vector<int> in = {4, -1, 7, 10};
  for (const char *options : kOptions) {
    SCOPED_TRACE(options);
    cl_program program = build(kSource, options);
    cl_mem out = buffer(std::vector<int>(3 * items));
    Kernel kernel(nullptr);
    cl_int error = CL_SUCCESS;
    kernel.reset(clCreateKernel(program, "language", &error));
    ASSERT_EQ(error, CL_SUCCESS);
    cl_mem input = buffer(in);
    ASSERT_EQ(clSetKernelArg(kernel.get(), 0, sizeof input, &input), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(kernel.get(), 1, sizeof out, &out), CL_SUCCESS);
    const size_t global = items, local = 4;
    ASSERT_EQ(clEnqueueNDRangeKernel(queue, kernel.get(), 1, nullptr, &global, &local, 0, nullptr,
                                     nullptr),
              CL_SUCCESS);
    const auto got = read<int>(out, 3 * items);
    const int inSum = 4 - 1 + 7 + 10, sharedSum = inSum + 4;
    for (int i = 0; i < items; ++i) {
      EXPECT_EQ(got[3 * i], 2 * (inSum + sharedSum + 6 * i) + 27) << "work-item " << i;
      EXPECT_EQ(got[3 * i + 1], i * 5 + 12) << "work-item " << i;
      EXPECT_EQ(got[3 * i + 2], i * i * i) << "work-item " << i;
    }
  }
}

TEST_F(CxxForOpenCL, LambdaPassedToATemplate) {
  const int items = 50;
  std::vector<float> in(items);
  for (int i = 0; i < items; ++i)
    in[i] = float(i - 25);
  for (const char *options : kOptions) {
    SCOPED_TRACE(options);
    cl_program program = build(kSource, options);
    cl_mem out = buffer(std::vector<float>(items));
    run(program, "lambdas", items, buffer(in), out, cl_float{2.0f});
    const auto got = read<float>(out, items);
    for (int i = 0; i < items; ++i)
      EXPECT_EQ(got[i], (in[i] * 2.0f + 1.0f) * 2.0f + 1.0f) << "work-item " << i;
  }
}

TEST_F(CxxForOpenCL, SwizzlesOfEveryVectorLength) {
  std::vector<float> in(16);
  for (int i = 0; i < 16; ++i)
    in[i] = float(100 + i);
  // The expected elements, by the definitions: indices into `in`.
  std::vector<int> expected = {0, 1, 0, 1, 1, 0}; // 2: lo hi even odd yx
  for (int i : {0, 1, 2, 0, 2, 1, 2, 1, 0})       // 3: lo, hi.x, even, odd.x, zyx
    expected.push_back(i);
  for (int i : {0, 1, 2, 3, 0, 2, 1, 3, 3, 2, 1, 0, 0, 0, 1, 1}) // 4
    expected.push_back(i);
  for (int i : {0, 1, 2, 3, 4, 5, 6, 7, 0, 2, 4, 6, 1, 3, 5, 7, 7, 6, 5, 4, 3, 2, 1, 0}) // 8
    expected.push_back(i);
  for (int i = 0; i < 16; ++i) // 16: lo, hi
    expected.push_back(i);
  for (int parity : {0, 1}) // even, odd
    for (int i = parity; i < 16; i += 2)
      expected.push_back(i);
  for (int i = 15; i >= 0; --i)
    expected.push_back(i);
  for (int i = 0; i < 16; ++i)
    expected.push_back(i);
  expected.push_back(6);
  for (const char *options : kOptions) {
    SCOPED_TRACE(options);
    cl_program program = build(kSwizzles, options);
    cl_mem out = buffer(std::vector<float>(expected.size(), -1.0f));
    run(program, "swizzles", 1, buffer(in), out);
    const auto got = read<float>(out, expected.size());
    for (size_t k = 0; k < expected.size(); ++k)
      EXPECT_EQ(got[k], in[expected[k]]) << "output " << k;
  }
}

// Separately compiled C++ objects that both instantiate one template (LLVM's
// linkonce_odr, SPIR-V's LinkOnceODR linkage, SPV_KHR_linkonce_odr) link:
// the definitions are one, and either serves the other object's uses.
TEST_F(CxxForOpenCL, ObjectsInstantiatingOneTemplateLink) {
  const char *helper = R"(
    template <typename T> T twice(T x) { return x + x; }
    int quadruple(int x) { return twice(twice(x)); }
  )";
  const char *user = R"(
    template <typename T> T twice(T x) { return x + x; }
    int quadruple(int x);
    kernel void uses(__global int *out) {
      const int i = get_global_id(0);
      out[i] = quadruple(i) + twice(100 * i);
    }
  )";
  for (const char *options : {"-cl-std=CLC++ -cl-opt-disable", "-cl-std=CLC++"}) {
    SCOPED_TRACE(options);
    cl_program objects[2];
    const char *sources[2] = {helper, user};
    for (int k = 0; k < 2; ++k) {
      cl_int error = CL_SUCCESS;
      objects[k] = clCreateProgramWithSource(context, 1, &sources[k], nullptr, &error);
      ASSERT_EQ(error, CL_SUCCESS);
      programs_.push_back(objects[k]);
      ASSERT_EQ(
          clCompileProgram(objects[k], 1, &device, options, 0, nullptr, nullptr, nullptr, nullptr),
          CL_SUCCESS);
    }
    for (bool helperFirst : {true, false}) {
      cl_program order[2] = {objects[helperFirst ? 0 : 1], objects[helperFirst ? 1 : 0]};
      cl_int error = CL_SUCCESS;
      cl_program linked =
          clLinkProgram(context, 1, &device, "", 2, order, nullptr, nullptr, &error);
      ASSERT_EQ(error, CL_SUCCESS);
      programs_.push_back(linked);
      cl_mem out = buffer(std::vector<int>(6));
      run(linked, "uses", 6, out);
      const auto got = read<int>(out, 6);
      for (int i = 0; i < 6; ++i)
        EXPECT_EQ(got[i], 4 * i + 200 * i) << "work-item " << i;
    }
  }
}

} // namespace
} // namespace lanewise::test
