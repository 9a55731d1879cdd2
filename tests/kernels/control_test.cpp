// SPDX-License-Identifier: Apache-2.0
// Divergent control flow (cl/control.cl): every kernel runs over work-group
// sizes that leave partial warps (1, 37, 100) and that span several warps
// (512, 1024), at -O2 and -O0, and is checked against a C++ mirror of it.
#include "harness.h"

#include <climits>
#include <cstdint>
#include <functional>
#include <map>
#include <random>

namespace lanewise::test {
namespace {

using Ref = std::function<int(int i, const std::vector<int> &in, int n)>;

struct Case {
  const char *name;
  int n; // the kernel's uniform argument; -1: 70% of the work-items
  Ref ref;
};

constexpr int sentinel = 0x5eed;
// The variant in messages: "" is the -O2 build.
std::string label(const char *variant) { return *variant ? variant : "-O2"; }

const std::vector<Case> &cases() {
  static const std::vector<Case> table = {
      {"if_else", 0,
       [](int i, const std::vector<int> &in, int) { return i % 3 == 0 ? i * 2 : in[i] - i; }},
      {"nested_if", 0,
       [](int i, const std::vector<int> &in, int) {
         int v = in[i], r = 0;
         if (i & 1) {
           r = (v & 2) ? 1 : (v & 4) ? 2 + v : 3;
           r += 10;
         } else {
           if (i % 5 == 0)
             r = 4;
           r -= 1;
         }
         return r;
       }},
      {"loop_break_continue", 0,
       [](int i, const std::vector<int> &in, int) {
         int v = in[i], s = 0;
         for (int k = 0; k < 64 && k <= v % 50; ++k)
           if ((k + v) % 3 != 0)
             s += k * (i % 7 + 1);
         return s;
       }},
      {"while_continue", 0,
       [](int i, const std::vector<int> &in, int) {
         int limit = in[i] % 40, s = 0;
         for (int k = 1; k <= limit; ++k) {
           if (k & 1)
             continue;
           if (k % 6 == 0)
             s *= 3;
           else
             s += k;
         }
         return s + limit * 1000;
       }},
      {"nested_loops", 0,
       [](int i, const std::vector<int> &in, int) {
         int v = in[i], s = 0;
         for (int a = 0; a < v % 5 + 1; ++a) {
           if (a == (i & 3) && (v & 8))
             continue;
           for (int b = 0; b < (v + a) % 7; ++b) {
             if (b == a)
               continue;
             if (a + b > 7)
               break;
             s += a * 10 + b;
           }
           s += 100;
         }
         return s;
       }},
      {"early_return", 0,
       [](int i, const std::vector<int> &in, int) {
         int v = in[i];
         if (v % 4 == 1)
           return -1;
         int s = 0;
         for (int k = 0; k < v % 9; ++k) {
           s += k + v;
           if (s > 3000)
             return sentinel;
         }
         return v % 4 == 2 ? sentinel : s;
       }},
      {"while_data", -1,
       [](int i, const std::vector<int> &in, int n) {
         int p = i, steps = 0;
         while (p < n && steps < 50) {
           p = in[p];
           ++steps;
         }
         return p * 100 + steps;
       }},
      {"phi_swap", 0,
       [](int i, const std::vector<int> &in, int) {
         uint32_t a = in[i], b = i, c = 7;
         for (int k = 0; k < in[i] % 13; ++k) {
           uint32_t t = a;
           a = b;
           b = c;
           c = t;
           if (k & 1) {
             t = a;
             a = b;
             b = t + 3;
           } else {
             c = c * 5 + a;
           }
         }
         return int(a * 31 + b * 7 + c);
       }},
      {"phi_pair", 0,
       [](int i, const std::vector<int> &in, int) {
         uint32_t a = 0, b = 1;
         for (int k = 0; k < in[i] % 30; ++k) {
           uint32_t t = a;
           a = b;
           b = t + b;
         }
         return int(a ^ (b << 3));
       }},
      {"loop_live_out", 0,
       [](int i, const std::vector<int> &in, int) {
         int k = 0, v;
         for (;; ++k) {
           v = k * k + (i & 15);
           if (v > in[i])
             break;
         }
         return v * 1000 + k;
       }},
      {"loop_two_exits", 0,
       [](int i, const std::vector<int> &in, int) {
         int x = in[i];
         for (int k = 1;; ++k) {
           x = (x & 1) ? 3 * x + 1 : x / 2;
           if (x == 1)
             return k;
           if (k >= 20)
             return -x;
         }
       }},
      {"uniform_loop", 9,
       [](int i, const std::vector<int> &in, int n) {
         int v = in[i], s = 0;
         for (int k = 0; k < n; ++k) {
           s += ((v + k) & 1) ? k : -(v % 7);
           if (k == v % n)
             s *= 2;
         }
         return s;
       }},
      {"if_chain", 0,
       [](int i, const std::vector<int> &in, int) {
         int v = in[i];
         if (v < 100)
           return v * 3;
         if (v < 200)
           return -v;
         if ((i & 7) == 3)
           return 7;
         if (v < 350)
           return v - i;
         if (v > 900)
           return 11;
         if ((v & 3) == 0)
           return v / 4;
         if (i < 50)
           return i;
         if (v % 5 == 2)
           return 12345;
         return 99;
       }},
      {"ternary", 0,
       [](int i, const std::vector<int> &in, int) {
         int v = in[i];
         int a = (i & 1) ? v : -v;
         int b = v > 500 ? (i > 50 ? 2 * i : 3) : (v < 100 ? v / 3 : 0);
         float f = (v & 4) ? 1.5f : -0.25f;
         return a + b * 10 + int(f * 4.0f);
       }},
      {"call_divergent", 0,
       [](int i, const std::vector<int> &in, int) {
         auto helper = [](int v, int i) {
           for (int k = 0; k < 10; ++k) {
             if (v % (k + 2) == 0)
               return k * 100 + v;
             v += i & 3;
           }
           return (v & 1) ? -v : v * 2;
         };
         int v = in[i];
         if (i & 1)
           return helper(v, i);
         if (v & 1)
           return helper(v + 1, 0) + 1;
         return 5;
       }},
      {"irreducible", 0,
       [](int i, const std::vector<int> &in, int) {
         int v = in[i], s = i & 7, k = v % 6;
         bool atB = v & 1;
         for (;;) {
           if (!atB) {
             s += 3;
             if (--k <= 0)
               break;
           }
           atB = false;
           s *= 2;
           if (--k <= 0)
             break;
         }
         return s * 10 + k;
       }},
      {"do_while", 0,
       [](int i, const std::vector<int> &in, int) {
         int v = in[i], s = 0;
         do {
           s += v & 15;
           v >>= 1;
         } while (v > (i & 31));
         return s;
       }},
      {"closed_form", 0,
       [](int i, const std::vector<int> &in, int) {
         int v = in[i], s = 0;
         for (int k = 0; k < v % 50; ++k)
           s += k * v + 3;
         return s;
       }},
      {"guarded_division", 0,
       [](int i, const std::vector<int> &in, int) {
         int v = in[i], d = v % 7 - 3;
         int x = (i & 15) == 5 ? INT_MIN : v * 1000 + i;
         if (i % 16 == 5)
           d = -1;
         int r = -7;
         if (d != 0 && !(x == INT_MIN && d == -1))
           r = x / d;
         uint32_t ud = uint32_t(v % 5);
         if (ud)
           r = int(uint32_t(r) + uint32_t(x) % ud);
         return r;
       }},
      {"guarded_null_load", -1,
       [](int i, const std::vector<int> &in, int n) {
         int r = (in[i] & 1) ? in[i] * 2 : -1;
         if (i < n && in[i] > 500)
           r += 1000;
         return r;
       }},
      {"one_long_lane", 0,
       [](int i, const std::vector<int> &in, int) {
         int trips = i % 64 == 13 ? 5000 + in[i] : in[i] % 5;
         uint32_t h = uint32_t(i);
         for (int k = 0; k < trips; ++k)
           h = h * 1664525u + 1013904223u + uint32_t(k);
         return int(h);
       }},
      {"vector_select", 0,
       [](int i, const std::vector<int> &in, int) {
         int v = in[i];
         int a[4] = {v, -v, i, v ^ i}, b[4] = {v, 2 * v, 3 * v, 4 * v}, c[4], m[4];
         for (int j = 0; j < 4; ++j) {
           c[j] = a[j] > b[j] ? a[j] : b[j];
           m[j] = a[j] < 3 ? b[j] : a[j];
         }
         int k = v & 3;
         return c[0] + 3 * c[1] + 5 * c[2] + 7 * c[3] + 11 * m[k] + 13 * a[(k + 1) & 3];
       }},
      {"temporal_divergence", 9,
       [](int i, const std::vector<int> &in, int n) {
         int limit = in[i] % 64, last = -1, k = 0;
         while (true) {
           last = k * 3 + n;
           if (k * k >= limit)
             break;
           ++k;
         }
         int sum = 0;
         for (int j = 0; j < n; ++j)
           if ((in[i] + j) % 4 == 0)
             sum = j;
         return last * 1000 + sum * 10 + k;
       }},
      {"rows_picked_by_id", 0,
       [](int i, const std::vector<int> &in, int) {
         int acc[4] = {in[i], 0, 0, 0};
         for (int y = 0; y < 40; ++y)
           if (y % 13 == i % 13)
             for (int x = 0; x < 9; ++x) {
               const int rotated[4] = {acc[1], acc[2], acc[3], acc[0]};
               for (int c = 0; c < 4; ++c)
                 acc[c] = x * y + c + rotated[c];
             }
         return acc[0] + 3 * acc[1] + 5 * acc[2] + 7 * acc[3];
       }},
      {"join_then_loop", 0,
       [](int i, const std::vector<int> &in, int) {
         int v = in[i], r = 0;
         for (int k = 0; k < 8; ++k) {
           const int t = (v + k) & 1 ? k * 3 : v - k;
           if (k & 1)
             for (int j = 0; j < 3; ++j)
               r += t + j;
         }
         return r;
       }},
      {"carried_and_read_after", 0,
       [](int i, const std::vector<int> &in, int) {
         const int v = in[i];
         uint32_t a = uint32_t(v), b = 0, c = 1, d = 2;
         for (int k = 0; k < 6; ++k) {
           const uint32_t old = a;
           if (((k ^ i) & 1) != 0)
             for (int j = 0; j < (v & 3) + 1; ++j) {
               a = a * 3 + uint32_t(j);
               const uint32_t swap = c;
               c = d;
               d = swap + uint32_t(j);
             }
           b += old;
         }
         return int(a + 7 * b + 11 * c + 13 * d);
       }},
  };
  return table;
}

struct Shape {
  size_t global, local;
};
// Partial warps (1, 37, 100 work-items per group) and several warps per group.
// The last group of {900, 259} is partial (123 work-items).
const Shape shapes[] = {{64, 1}, {37 * 9, 37}, {1000, 100}, {900, 259}, {1024, 512}, {2048, 1024}};

class ControlFlow : public KernelTest, public ::testing::WithParamInterface<Case> {
protected:
  // control.cl built once per variant in a test.
  cl_kernel kernel(const char *name, const char *variant) {
    cl_program &p = programs_[variant];
    if (!p)
      p = program("control", variant);
    if (!p)
      return nullptr;
    cl_int error = CL_SUCCESS;
    cl_kernel k = clCreateKernel(p, name, &error);
    EXPECT_EQ(error, CL_SUCCESS) << name;
    if (k)
      kernels_.push_back(k);
    return k;
  }
  void TearDown() override {
    if (queue)
      clFinish(queue);
    for (cl_kernel k : kernels_)
      clReleaseKernel(k);
    KernelTest::TearDown();
  }

private:
  std::map<std::string, cl_program> programs_;
  std::vector<cl_kernel> kernels_;
};

TEST_P(ControlFlow, MatchesTheCxxMirror) {
  const Case &c = GetParam();
  std::mt19937 rng(1234);
  for (const char *variant : {"", "-O0"}) {
    for (const Shape &shape : shapes) {
      const size_t count = shape.global;
      std::vector<int> in(count);
      for (int &v : in)
        v = int(rng() % 1000);
      cl_mem In = buffer(in), Out = buffer(std::vector<int>(count, sentinel));
      cl_kernel k = kernel(c.name, variant);
      ASSERT_NE(k, nullptr);
      const int n = c.n < 0 ? int(count * 7 / 10) : c.n;
      setArgs(k, In, Out, n);
      run(k, {shape.global}, {shape.local});
      std::vector<int> out = read<int>(Out, count);
      int errors = 0;
      for (size_t i = 0; i < count && errors < 5; ++i) {
        const int expected = c.ref(int(i), in, n);
        if (out[i] != expected) {
          ++errors;
          ADD_FAILURE() << c.name << " " << label(variant) << " global " << shape.global
                        << " local " << shape.local << ": work-item " << i << " (in " << in[i]
                        << ") expected " << expected << ", got " << out[i];
        }
      }
      if (errors)
        return;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Control, ControlFlow, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case> &info) {
                           return std::string(info.param.name);
                         });

// Built from source (clCreateProgramWithSource, Lanewise's own clang and
// llvm-spirv path) so that a failure to build it fails only this test: clang
// -O2 computes the closed form of the sum of squares in 65-bit integers.
const char *const closedForm65 = R"CLC(
kernel void closed_form_65(global const int *in, global long *out) {
  int i = get_global_id(0);
  int m = in[i] % 50;
  long q = 0;
  for (int k = 0; k < m; ++k)
    q += (long)k * k + in[i];
  out[i] = q;
}
)CLC";

using Control = KernelTest;

TEST_F(Control, ClosedFormLoopSumIn65BitIntegers) {
  for (const char *options : {"-cl-std=CL3.0", "-cl-std=CL3.0 -cl-opt-disable"}) {
    cl_int error = CL_SUCCESS;
    const char *source = closedForm65;
    cl_program p = clCreateProgramWithSource(context, 1, &source, nullptr, &error);
    ASSERT_EQ(error, CL_SUCCESS);
    error = clBuildProgram(p, 1, &device, options, nullptr, nullptr);
    if (error != CL_SUCCESS) {
      size_t size = 0;
      clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
      std::string log(size, '\0');
      clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
      clReleaseProgram(p);
      ADD_FAILURE() << "options \"" << options << "\": build error " << error << ": " << log;
      continue;
    }
    cl_kernel k = clCreateKernel(p, "closed_form_65", &error);
    ASSERT_EQ(error, CL_SUCCESS);
    const size_t n = 500;
    std::vector<int> in(n);
    std::mt19937 rng(99);
    for (int &v : in)
      v = int(rng() % 100000);
    cl_mem In = buffer(in), Out = buffer<int64_t>(n);
    setArgs(k, In, Out);
    run(k, {n}, {100});
    std::vector<int64_t> out = read<int64_t>(Out, n);
    for (size_t i = 0; i < n; ++i) {
      int64_t q = 0;
      for (int kk = 0; kk < in[i] % 50; ++kk)
        q += int64_t(kk) * kk + in[i];
      EXPECT_EQ(out[i], q) << "options \"" << options << "\" item " << i;
    }
    clReleaseKernel(k);
    clReleaseProgram(p);
  }
}

} // namespace
} // namespace lanewise::test
