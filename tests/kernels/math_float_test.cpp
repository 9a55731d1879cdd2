// SPDX-License-Identifier: Apache-2.0
// Accuracy and special values of the single-precision math functions
// (OpenCL C 3.0, 6.15.2), the floating-point common functions (6.15.4) and
// the half_ and native_ functions on float and floatn; kernels in
// cl/math.cl. Each function of math_reference.cpp's table runs at widths 1,
// 2, 3, 4, 8 and 16, built at -O2 and -O0, on the same operands. Also
// tested: the forms with scalar operands (fmax(floatn, float), clamp(floatn,
// float, float), ...), divergent control flow (only some work-items calling
// sin, pow and fma), and sqrt built with -cl-fp32-correctly-rounded-divide-sqrt.
// How results are judged: math_reference.h.
#include "math_reference.h"

#include <mpfr.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace lanewise::test::math {
namespace {

// ---- every function, every width -----------------------------------------------
std::vector<Param> functionParams() {
  std::vector<Param> out;
  for (const MathFunction &f : allFunctions())
    for (const char *v : {"", "-O0"})
      out.push_back({f.name, v});
  return out;
}

class MathAccuracy : public MathFixture, public ::testing::WithParamInterface<Param> {};

TEST_P(MathAccuracy, EveryWidth) {
  const MathFunction &f = functionNamed(GetParam().function);
  const std::string variant = GetParam().variant;
  const Table &t = tableOf(f);
  double worst = 0;
  for (int width : widths) {
    const std::vector<float> got = compute("m_" + f.name, f.arity, t.operand, width, variant);
    ASSERT_EQ(got.size(), count);
    const std::string what =
        f.name + " width " + std::to_string(width) + " " + variantName(variant);
    worst = std::max(worst, check(f, t, got, what, true));
  }
  if (reportRequested())
    std::printf("[ math     ] %-14s %s max error %g (bound %g)\n", f.name.c_str(),
                variantName(variant).c_str(), worst, f.bound);
}

INSTANTIATE_TEST_SUITE_P(Math, MathAccuracy, ::testing::ValuesIn(functionParams()), paramName);

// ---- scalar operands of vector functions ---------------------------------------
struct ScalarParam {
  ScalarForm form;
  const char *variant;
};
std::vector<ScalarParam> scalarParams() {
  std::vector<ScalarParam> out;
  for (const ScalarForm &form : scalarForms)
    for (const char *v : {"", "-O0"})
      out.push_back({form, v});
  return out;
}
std::string scalarParamName(const ::testing::TestParamInfo<ScalarParam> &info) {
  return std::string(info.param.form.function) + "_" + variantName(info.param.variant);
}
void PrintTo(const ScalarParam &p, std::ostream *os) {
  *os << p.form.function << " " << variantName(p.variant);
}

// The operands of a scalar form at `width`: the function's table with the
// scalar operands of work-item i replaced by those of its first element.
const Table &scalarFormTable(const ScalarForm &form, int width) {
  static std::map<std::pair<std::string, int>, std::unique_ptr<Table>> tables;
  std::unique_ptr<Table> &t = tables[{form.function, width}];
  if (t)
    return *t;
  const MathFunction &f = functionNamed(form.function);
  const Table &base = tableOf(f);
  t = std::make_unique<Table>();
  for (int i = 0; i < 3; ++i) {
    t->operand[i] = base.operand[i];
    if (form.scalar[i])
      for (size_t k = 0; k < count; ++k)
        t->operand[i][k] = base.operand[i][k - k % size_t(width)];
  }
  t->expected.resize(count);
  for (size_t k = 0; k < count; ++k)
    t->expected[k] = reference(f, t->operand[0][k], t->operand[1][k], t->operand[2][k]);
  return *t;
}

class MathScalarOperands : public MathFixture, public ::testing::WithParamInterface<ScalarParam> {};

TEST_P(MathScalarOperands, EveryWidth) {
  const ScalarForm form = GetParam().form;
  const std::string variant = GetParam().variant;
  const MathFunction &f = functionNamed(form.function);
  for (int width : widths) {
    if (width == 1)
      continue;
    const Table &t = scalarFormTable(form, width);
    const std::vector<float> got =
        compute("m_" + f.name + "_s", f.arity, t.operand, width, variant);
    ASSERT_EQ(got.size(), count);
    check(f, t, got,
          f.name + " scalar form width " + std::to_string(width) + " " + variantName(variant),
          false);
  }
}

INSTANTIATE_TEST_SUITE_P(Math, MathScalarOperands, ::testing::ValuesIn(scalarParams()),
                         scalarParamName);

// ---- correctly rounded sqrt ---------------------------------------------------
// A device reporting CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT builds programs with
// -cl-fp32-correctly-rounded-divide-sqrt, and sqrt is then correctly rounded
// (OpenCL 3.0 API, "Math Intrinsics Options").
class MathCorrectlyRoundedSqrt : public MathFixture,
                                 public ::testing::WithParamInterface<const char *> {};

TEST_P(MathCorrectlyRoundedSqrt, WithBuildOption) {
  if (!(config_ & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT))
    GTEST_SKIP() << "the device does not report CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT";
  const std::string variant = GetParam();
  const std::string path = std::string(LANEWISE_KERNEL_DIR) + "/math" + variant + ".spv";
  std::FILE *file = std::fopen(path.c_str(), "rb");
  ASSERT_NE(file, nullptr) << path;
  std::vector<char> il;
  char chunk[65536];
  for (size_t n; (n = std::fread(chunk, 1, sizeof chunk, file)) > 0;)
    il.insert(il.end(), chunk, chunk + n);
  std::fclose(file);
  cl_int error = CL_SUCCESS;
  std::unique_ptr<_cl_program, decltype(&clReleaseProgram)> program(
      clCreateProgramWithIL(context, il.data(), il.size(), &error), clReleaseProgram);
  ASSERT_EQ(error, CL_SUCCESS);
  ASSERT_EQ(clBuildProgram(program.get(), 1, &device, "-cl-fp32-correctly-rounded-divide-sqrt",
                           nullptr, nullptr),
            CL_SUCCESS);
  std::unique_ptr<_cl_kernel, decltype(&clReleaseKernel)> kernel(
      clCreateKernel(program.get(), "m_sqrt", &error), clReleaseKernel);
  ASSERT_EQ(error, CL_SUCCESS);

  MathFunction sqrtF = functionNamed("sqrt");
  sqrtF.mode = Mode::Exact;
  const Table &t = tableOf(functionNamed("sqrt"));
  for (int width : widths) {
    const std::vector<float> got = compute(kernel.get(), 1, t.operand, width);
    ASSERT_EQ(got.size(), count);
    check(sqrtF, t, got,
          "correctly rounded sqrt width " + std::to_string(width) + " " + variantName(variant),
          true);
  }
}

INSTANTIATE_TEST_SUITE_P(Math, MathCorrectlyRoundedSqrt, ::testing::Values("", "-O0"),
                         [](const ::testing::TestParamInfo<const char *> &info) {
                           return variantName(info.param);
                         });

// ---- divergent control flow ------------------------------------------------------
// Only some work-items call sin, pow or fma (cl/math.cl, m_divergent); the
// others must keep what their outputs held.
class MathDivergent : public MathFixture, public ::testing::WithParamInterface<const char *> {};

TEST_P(MathDivergent, OnlyActiveWorkItemsCompute) {
  const std::string variant = GetParam();
  const MathFunction &sinF = functionNamed("sin"), &powF = functionNamed("pow"),
                     &fmaF = functionNamed("fma");
  constexpr size_t items = 1024;
  Random random(0xd17e26e7);
  const Domain values = {bits(1), logUniform(0x1p-10, 0x1p10, true, 3), uniform(-4, 4)};
  std::vector<float> a(4 * items), b(4 * items), c(4 * items), r(items), r4(4 * items);
  std::vector<cl_int> path(items);
  for (size_t k = 0; k < 4 * items; ++k) {
    a[k] = draw(values, random);
    b[k] = draw(values, random);
    c[k] = draw(values, random);
    r4[k] = float(k) + 0.25f;
  }
  for (size_t i = 0; i < items; ++i) {
    path[i] = cl_int(random() % 8);
    r[i] = -float(i) - 0.5f;
  }
  cl_kernel k = cachedKernel("math", "m_divergent", variant);
  ASSERT_NE(k, nullptr);
  cl_mem A = buffer(a), B = buffer(b), C = buffer(c), P = buffer(path), R = buffer(r),
         R4 = buffer(r4);
  setArgs(k, A, B, C, P, R, R4);
  run(k, {items});
  const std::vector<float> got = read<float>(R, items), got4 = read<float>(R4, 4 * items);

  Failures failures{"divergent " + variantName(variant)};
  auto expect = [&](const MathFunction &f, float x, float y, float z, float result,
                    const std::string &where) {
    const Verdict v = judge(f, reference(f, x, y, z), result, false,
                            isSignaling(x) || isSignaling(y) || isSignaling(z));
    if (!v.ok)
      failures.add(
          [&] { return where + ": " + f.name + " gave " + describe(result) + ", " + v.why; });
  };
  for (size_t i = 0; i < items; ++i) {
    const std::string where = "work-item " + std::to_string(i);
    if (path[i] & 1)
      expect(sinF, a[i], 0, 0, got[i], where);
    else if (path[i] & 2)
      expect(powF, a[i], b[i], 0, got[i], where);
    else if (bitsOf(got[i]) != bitsOf(r[i]))
      failures.add([&] { return where + " (inactive) wrote " + describe(got[i]); });
    for (size_t j = 0; j < 4; ++j) {
      const size_t e = 4 * i + j;
      if (path[i] & 4)
        expect(fmaF, a[e], b[e], c[e], got4[e], where + " component " + std::to_string(j));
      else if (bitsOf(got4[e]) != bitsOf(r4[e]))
        failures.add([&] { return where + " (inactive) wrote " + describe(got4[e]); });
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Math, MathDivergent, ::testing::Values("", "-O0"),
                         [](const ::testing::TestParamInfo<const char *> &info) {
                           return variantName(info.param);
                         });

} // namespace
} // namespace lanewise::test::math
