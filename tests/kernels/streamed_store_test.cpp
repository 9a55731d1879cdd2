// SPDX-License-Identifier: Apache-2.0
// Stores of lane-wise operations on values loaded for them alone, through
// pointers that step by one work-item's elements (kernels in
// cl/streamed_store.cl): `c[i] = a[i] + b[i]`, `(a[i] + b[i]) * k - d[i]`,
// `vstore4(k * vload4(i, x) + vload4(i, y), i, out)` and their kin.
// Lanewise runs such a store as one pass over memory when a warp's
// work-items all take part, and as its loads, operations and store
// otherwise (spirv/lower_stream.cpp, runtime/exec_affine.cpp). Covered:
// every operation it streams in int, uint, long, ulong, float and double;
// a uniform operand on either side, and twice; chains of operations, and
// one longer than a streamed store computes; copies; vectors of 2, 3, 4,
// 8 and 16 components through vloadn/vstoren and through vector pointers;
// a bounds test; the result over an operand; operands and results at
// unlike offsets; divergence; strides that are not one element; an
// operand read twice; a uniform vector whose components differ; halves
// widened to floats (vload_halfn) as operands; rows of a 2D range;
// __local results. The expected values follow the OpenCL C
// operators (6.15.1, 6.15.4), computed here; float division within the
// 2.5 ulp OpenCL C allows it (7.4), the rest bit for bit. Every launch
// shape of launches.h, -O2 and -O0, and every element the kernel must not
// write is checked too.
#include "half_reference.h"
#include "harness.h"
#include "launches.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace lanewise::test {
namespace {

const char *const variants[] = {"", "-O0"};

// Whether `got` is `want`, or for float division within 2.5 ulp of it.
template <typename T> bool matches(T got, T want, bool division) {
  if (std::memcmp(&got, &want, sizeof(T)) == 0)
    return true;
  if constexpr (std::is_same_v<T, float>) {
    if (division && std::isfinite(want))
      return std::fabs(double(got) - double(want)) <=
             2.5 * (double(std::nextafter(std::fabs(want), INFINITY)) - std::fabs(want));
  }
  return false;
}

using Count = std::function<size_t(const Launch &)>;

class StreamedStore : public SharedContextTest {
protected:
  template <typename T> using Inputs = std::vector<std::vector<T>>;
  template <typename T>
  using Expect = std::function<void(std::vector<T> &, const Inputs<T> &, const Launch &)>;
  using Arguments =
      std::function<void(cl_kernel, cl_mem out, const std::vector<cl_mem> &in, const Launch &)>;

  // Runs kernel `name` on every launch (`local`: those that set the local
  // size only) with `inputs` buffers of inCount elements and an output of
  // outCount filled with other values first, set as `arguments` says;
  // `expect(out, in, launch)` changes the output's former contents into
  // what the launch must leave.
  template <typename T>
  void check(const std::string &name, size_t inputs, const Count &inCount, const Count &outCount,
             const Arguments &arguments, const Expect<T> &expect, bool local = false) {
    std::mt19937_64 random(0x5eed + sizeof(T) * 31 + name.size());
    for (const std::string variant : variants)
      for (const Launch &l : launches) {
        if (local && !l.local)
          continue;
        cl_kernel k = cachedKernel("streamed_store", name, variant);
        ASSERT_NE(k, nullptr) << name;
        Inputs<T> in;
        std::vector<cl_mem> inBuffers;
        for (size_t j = 0; j < inputs; ++j) {
          in.push_back(randomValues<T>(inCount(l), random));
          inBuffers.push_back(buffer(in.back()));
        }
        std::vector<T> want = randomValues<T>(outCount(l), random);
        cl_mem out = buffer(want);
        arguments(k, out, inBuffers, l);
        if (l.local)
          run(k, {l.global}, {l.local}, {l.offset});
        else
          run(k, {l.global}, {}, {l.offset});
        expect(want, in, l);
        const std::vector<T> got = read<T>(out, want.size());
        for (size_t e = 0; e < want.size(); ++e)
          ASSERT_TRUE(matches(got[e], want[e], name.rfind("div_", 0) == 0))
              << name << " element " << e << ": got " << +got[e] << ", want " << +want[e] << " ("
              << where(variant, l) << ")";
      }
  }

  // The work-items of a launch: [offset, offset + global).
  template <typename F> static void forItems(const Launch &l, F &&f) {
    for (size_t i = l.offset; i < l.offset + l.global; ++i)
      f(i);
  }
  static size_t items(const Launch &l) { return l.offset + l.global; }
  // (a, b, c): two operands, then the result.
  Arguments operandsThenResult() {
    return [this](cl_kernel k, cl_mem out, const std::vector<cl_mem> &in, const Launch &) {
      setArgs(k, in.at(0), in.at(1), out);
    };
  }

  // c[i] = a[i] OP b[i].
  template <typename T> void binary(const std::string &name, const std::function<T(T, T)> &op) {
    const Count size = [](const Launch &l) { return items(l) + 3; };
    check<T>(name, 2, size, size, operandsThenResult(),
             [&](std::vector<T> &out, const Inputs<T> &in, const Launch &l) {
               forItems(l, [&](size_t i) { out[i] = op(in[0][i], in[1][i]); });
             });
  }

  template <typename T> void everyKernel(const std::string &type);
  template <typename T> void expressions(const std::string &type);
  template <typename T> void fused(const std::string &type);
};

template <typename T> void StreamedStore::everyKernel(const std::string &type) {
  // Unsigned arithmetic wraps, as OpenCL C's does; the signed values stay
  // in range.
  binary<T>("add_" + type, [](T a, T b) { return T(a + b); });
  binary<T>("sub_" + type, [](T a, T b) { return T(a - b); });
  binary<T>("mul_" + type, [](T a, T b) { return T(a * b); });
  const Count same = [](const Launch &l) { return items(l) + 3; };
  // Up to n: a bound in the last warp, in the first third, or none.
  for (const int bound : {0, 1, 2}) {
    auto n = [bound](const Launch &l) -> size_t {
      return bound == 0 ? items(l) - 7 : bound == 1 ? items(l) / 3 : items(l) + 5;
    };
    check<T>(
        "bounded_" + type, 2, same, same,
        [&](cl_kernel k, cl_mem out, const std::vector<cl_mem> &in, const Launch &l) {
          setArgs(k, in[0], in[1], out, cl_uint(n(l)));
        },
        [&](std::vector<T> &out, const Inputs<T> &in, const Launch &l) {
          forItems(l, [&](size_t i) {
            if (i < n(l))
              out[i] = T(in[1][i] - in[0][i]);
          });
        });
  }
  const T k = std::is_floating_point_v<T> ? T(-2.75) : T(7);
  const Arguments operandAndK = [&](cl_kernel kernel, cl_mem out, const std::vector<cl_mem> &in,
                                    const Launch &) { setArgs(kernel, in[0], k, out); };
  check<T>("scaled_" + type, 1, same, same, operandAndK,
           [&](std::vector<T> &out, const Inputs<T> &in, const Launch &l) {
             forItems(l, [&](size_t i) { out[i] = T(k * in[0][i]); });
           });
  check<T>(
      "offset_" + type, 1, same, [](const Launch &l) { return items(l) + l.global + 3; },
      operandAndK,
      [&](std::vector<T> &out, const Inputs<T> &in, const Launch &l) {
        forItems(l, [&](size_t i) {
          out[i] = T(in[0][i] - k);
          out[i + l.global] = T(k - in[0][i]);
        });
      });
  check<T>(
      "in_place_" + type, 1, same, same,
      [&](cl_kernel kernel, cl_mem out, const std::vector<cl_mem> &in, const Launch &) {
        setArgs(kernel, out, in[0]);
      },
      [&](std::vector<T> &out, const Inputs<T> &in, const Launch &l) {
        forItems(l, [&](size_t i) { out[i] = T(out[i] + in[0][i]); });
      });
  const Count wider = [](const Launch &l) { return items(l) + 5; };
  check<T>("shifted_" + type, 2, wider, wider, operandsThenResult(),
           [&](std::vector<T> &out, const Inputs<T> &in, const Launch &l) {
             forItems(l, [&](size_t i) { out[i + 3] = T(in[0][i + 1] * in[1][i + 2]); });
           });
  check<T>("divergent_" + type, 2, same, same, operandsThenResult(),
           [&](std::vector<T> &out, const Inputs<T> &in, const Launch &l) {
             forItems(l, [&](size_t i) {
               if (i % 3 != 1)
                 out[i] = T(in[0][i] + in[1][i]);
             });
           });
  const Count twice = [](const Launch &l) { return 2 * items(l) + 3; };
  check<T>("strided_" + type, 2, twice, twice, operandsThenResult(),
           [&](std::vector<T> &out, const Inputs<T> &in, const Launch &l) {
             forItems(l, [&](size_t i) { out[2 * i] = T(in[0][2 * i] - in[1][i]); });
           });
  check<T>(
      "reread_" + type, 2, same, [](const Launch &l) { return items(l) + l.global + 3; },
      operandsThenResult(),
      [&](std::vector<T> &out, const Inputs<T> &in, const Launch &l) {
        forItems(l, [&](size_t i) {
          out[i] = T(in[0][i] + in[1][i]);
          out[i + l.global] = T(in[0][i] * in[1][i]);
        });
      });
  // 2D ranges, 16 x 8 work-groups: rows of 48 and of 16 elements (x
  // from 0 to 15, wide rows from 3 on). No launch of launches.h has rows.
  std::mt19937_64 random(0x9e1d + sizeof(T));
  for (const std::string variant : variants)
    for (const size_t width : {size_t(48), size_t(16)}) {
      const size_t height = 32, count = width * height;
      cl_kernel kernel = cachedKernel("streamed_store", "grid_" + type, variant);
      ASSERT_NE(kernel, nullptr);
      const std::vector<T> a = randomValues<T>(count, random), b = randomValues<T>(count, random);
      std::vector<T> want = randomValues<T>(count, random);
      cl_mem out = buffer(want);
      setArgs(kernel, buffer(a), buffer(b), out, cl_uint(width));
      const size_t offsetX = width == 16 ? 0 : 3;
      run(kernel, {16, height}, {16, 8}, {offsetX, 0});
      for (size_t y = 0; y < height; ++y)
        for (size_t x = offsetX; x < offsetX + 16; ++x)
          want[y * width + x] = T(a[y * width + x] * b[y * width + x]);
      const std::vector<T> got = read<T>(out, count);
      for (size_t e = 0; e < count; ++e)
        ASSERT_TRUE(matches(got[e], want[e], false))
            << "grid_" << type << " element " << e << " of rows of " << width << ": got " << +got[e]
            << ", want " << +want[e] << " (" << (variant[0] ? variant : "-O2") << ")";
    }
  // Each group's differences, reversed within the group.
  check<T>(
      "local_" + type, 2, same, same,
      [&](cl_kernel kernel, cl_mem out, const std::vector<cl_mem> &in, const Launch &l) {
        setArgs(kernel, in[0], in[1], out, Local{l.local * sizeof(T)});
      },
      [&](std::vector<T> &out, const Inputs<T> &in, const Launch &l) {
        forItems(l, [&](size_t i) {
          const size_t first = l.offset + (i - l.offset) / l.local * l.local;
          const size_t j = first + (l.local - 1 - (i - first));
          out[i] = T(in[0][j] - in[1][j]);
        });
      },
      true);
}

template <typename T> void StreamedStore::expressions(const std::string &type) {
  const T k = std::is_floating_point_v<T> ? T(-2.75) : T(7);
  const Count same = [](const Launch &l) { return items(l) + 3; };
  check<T>(
      "chain_" + type, 3, same, same,
      [&](cl_kernel kernel, cl_mem out, const std::vector<cl_mem> &in, const Launch &) {
        setArgs(kernel, in[0], in[1], in[2], k, out);
      },
      [&](std::vector<T> &out, const Inputs<T> &in, const Launch &l) {
        forItems(l, [&](size_t i) { out[i] = T(T(T(in[0][i] + in[1][i]) * k) - in[2][i]); });
      });
  const Arguments operandAndK = [&](cl_kernel kernel, cl_mem out, const std::vector<cl_mem> &in,
                                    const Launch &) { setArgs(kernel, in[0], k, out); };
  check<T>("twice_" + type, 1, same, same, operandAndK,
           [&](std::vector<T> &out, const Inputs<T> &in, const Launch &l) {
             forItems(l, [&](size_t i) { out[i] = T(T(in[0][i] * k) + k); });
           });
  check<T>(
      "deep_" + type, 2, same, same,
      [&](cl_kernel kernel, cl_mem out, const std::vector<cl_mem> &in, const Launch &) {
        setArgs(kernel, in[0], in[1], k, out);
      },
      [&](std::vector<T> &out, const Inputs<T> &in, const Launch &l) {
        forItems(l, [&](size_t i) {
          T x = T(T(in[0][i] + k) * k);
          x = T(T(T(x - in[1][i]) + k) * k);
          out[i] = T(T(x - k) + in[1][i + 1]);
        });
      });
  const Arguments operandThenResult = [this](cl_kernel kernel, cl_mem out,
                                             const std::vector<cl_mem> &in,
                                             const Launch &) { setArgs(kernel, in[0], out); };
  check<T>("square_" + type, 1, same, same, operandThenResult,
           [&](std::vector<T> &out, const Inputs<T> &in, const Launch &l) {
             forItems(l, [&](size_t i) { out[i] = T(in[0][i] * in[0][i]); });
           });
  check<T>("copy_" + type, 1, same, same, operandThenResult,
           [&](std::vector<T> &out, const Inputs<T> &in, const Launch &l) {
             forItems(l, [&](size_t i) { out[i + 2] = in[0][i]; });
           });
  // Vectors of n components, n elements apart (vloadn, vstoren).
  for (const size_t n : {2, 3, 4, 8, 16}) {
    const Count elements = [n](const Launch &l) { return items(l) * n + 5; };
    check<T>(
        "saxpy" + std::to_string(n) + "_" + type, 2, elements, elements,
        [&](cl_kernel kernel, cl_mem out, const std::vector<cl_mem> &in, const Launch &) {
          setArgs(kernel, k, in[0], in[1], out);
        },
        [&](std::vector<T> &out, const Inputs<T> &in, const Launch &l) {
          forItems(l, [&](size_t i) {
            for (size_t e = n * i; e < n * (i + 1); ++e)
              out[e] = T(T(k * in[0][e]) + in[1][e]);
          });
        });
  }
  const Count four = [](const Launch &l) { return items(l) * 4 + 5; };
  check<T>("pointers4_" + type, 2, four, four, operandsThenResult(),
           [&](std::vector<T> &out, const Inputs<T> &in, const Launch &l) {
             forItems(l, [&](size_t i) {
               for (size_t e = 4 * i; e < 4 * (i + 1); ++e)
                 out[e] = T(in[0][e] - in[1][e]);
             });
           });
  check<T>("copy4_" + type, 1, four, four, operandThenResult,
           [&](std::vector<T> &out, const Inputs<T> &in, const Launch &l) {
             forItems(l, [&](size_t i) {
               for (size_t e = 4 * i; e < 4 * (i + 1); ++e)
                 out[e] = in[0][e];
             });
           });
  check<T>("shifted4_" + type, 2, four, four, operandsThenResult(),
           [&](std::vector<T> &out, const Inputs<T> &in, const Launch &l) {
             forItems(l, [&](size_t i) {
               for (size_t e = 4 * i; e < 4 * (i + 1); ++e)
                 out[e + 3] = T(in[0][e + 1] * in[1][e + 2]);
             });
           });
  check<T>(
      "in_place4_" + type, 1, four, four,
      [&](cl_kernel kernel, cl_mem out, const std::vector<cl_mem> &in, const Launch &) {
        setArgs(kernel, out, in[0]);
      },
      [&](std::vector<T> &out, const Inputs<T> &in, const Launch &l) {
        forItems(l, [&](size_t i) {
          for (size_t e = 4 * i; e < 4 * (i + 1); ++e)
            out[e] = T(out[e] + in[0][e]);
        });
      });
  for (const int bound : {0, 1, 2}) {
    auto n = [bound](const Launch &l) -> size_t {
      return bound == 0 ? items(l) - 7 : bound == 1 ? items(l) / 3 : items(l) + 5;
    };
    check<T>(
        "bounded4_" + type, 2, [](const Launch &l) { return (items(l) + 5) * 4; },
        [](const Launch &l) { return (items(l) + 5) * 4; },
        [&](cl_kernel kernel, cl_mem out, const std::vector<cl_mem> &in, const Launch &l) {
          setArgs(kernel, in[0], in[1], out, cl_uint(n(l)));
        },
        [&](std::vector<T> &out, const Inputs<T> &in, const Launch &l) {
          forItems(l, [&](size_t i) {
            if (i < n(l))
              for (size_t e = 4 * i; e < 4 * (i + 1); ++e)
                out[e] = T(in[1][e] - in[0][e]);
          });
        });
  }
  check<T>("divergent4_" + type, 2, four, four, operandsThenResult(),
           [&](std::vector<T> &out, const Inputs<T> &in, const Launch &l) {
             forItems(l, [&](size_t i) {
               if (i % 3 != 1)
                 for (size_t e = 4 * i; e < 4 * (i + 1); ++e)
                   out[e] = T(in[0][e] + in[1][e]);
             });
           });
  check<T>("unlike4_" + type, 1, four, four, operandAndK,
           [&](std::vector<T> &out, const Inputs<T> &in, const Launch &l) {
             forItems(l, [&](size_t i) {
               for (size_t c = 0; c < 4; ++c)
                 out[4 * i + c] = T(in[0][4 * i + c] * T(k + T(c)));
             });
           });
}

TEST_F(StreamedStore, Int) { everyKernel<std::int32_t>("int"); }
TEST_F(StreamedStore, Uint) { everyKernel<std::uint32_t>("uint"); }
TEST_F(StreamedStore, Long) { everyKernel<std::int64_t>("long"); }
TEST_F(StreamedStore, Ulong) { everyKernel<std::uint64_t>("ulong"); }
TEST_F(StreamedStore, Float) { everyKernel<float>("float"); }
TEST_F(StreamedStore, Double) { everyKernel<double>("double"); }

TEST_F(StreamedStore, IntExpressions) { expressions<std::int32_t>("int"); }
TEST_F(StreamedStore, UintExpressions) { expressions<std::uint32_t>("uint"); }
TEST_F(StreamedStore, LongExpressions) { expressions<std::int64_t>("long"); }
TEST_F(StreamedStore, UlongExpressions) { expressions<std::uint64_t>("ulong"); }
TEST_F(StreamedStore, FloatExpressions) { expressions<float>("float"); }
TEST_F(StreamedStore, DoubleExpressions) { expressions<double>("double"); }

// Halves widened to floats as operands: out[e] = f(widen(h[e]), y[e]),
// over `n` elements a work-item, of the work-items up to `bound` (launch).
TEST_F(StreamedStore, Halves) {
  struct Case {
    const char *name;
    size_t n;
    bool bounded;
  };
  const float k = -2.75f;
  std::mt19937_64 random(0x4a1f);
  for (const Case c : {Case{"widen4_halves", 4, false}, Case{"scaled8_halves", 8, false},
                       Case{"difference3_halves", 3, false}, Case{"bounded4_halves", 4, true}})
    for (const std::string variant : variants)
      for (const Launch &l : launches)
        for (const int bound : c.bounded ? std::vector<int>{0, 1, 2} : std::vector<int>{2}) {
          const size_t items = l.offset + l.global;
          const size_t n = bound == 0 ? items - 7 : bound == 1 ? items / 3 : items + 5;
          const size_t count = items * c.n + 9;
          std::vector<std::uint16_t> h(count);
          for (std::uint16_t &x : h) // finite halves of every sign and size
            do
              x = std::uint16_t(random());
            while ((x & 0x7c00) == 0x7c00);
          const std::vector<float> y = randomValues<float>(count, random);
          std::vector<float> want = randomValues<float>(count, random);
          cl_kernel kernel = cachedKernel("streamed_store", c.name, variant);
          ASSERT_NE(kernel, nullptr) << c.name;
          cl_mem out = buffer(want), halves = buffer(h), ys = buffer(y);
          const std::string name = c.name;
          if (name == "widen4_halves")
            setArgs(kernel, halves, out);
          else if (name == "scaled8_halves")
            setArgs(kernel, k, halves, ys, out);
          else if (name == "difference3_halves")
            setArgs(kernel, halves, ys, out);
          else
            setArgs(kernel, halves, ys, out, cl_uint(n));
          if (l.local)
            run(kernel, {l.global}, {l.local}, {l.offset});
          else
            run(kernel, {l.global}, {}, {l.offset});
          for (size_t i = l.offset; i < items && i < n; ++i)
            for (size_t e = c.n * i; e < c.n * (i + 1); ++e) {
              if (name == "widen4_halves")
                want[e + 1] = halfToFloat(h[e]);
              else if (name == "scaled8_halves")
                want[e] = k * halfToFloat(h[e + 1]) + y[e];
              else if (name == "difference3_halves")
                want[e] = halfToFloat(h[e]) - y[e];
              else
                want[e] = halfToFloat(h[e]) * y[e];
            }
          const std::vector<float> got = read<float>(out, count);
          for (size_t e = 0; e < count; ++e)
            ASSERT_TRUE(matches(got[e], want[e], false))
                << c.name << " element " << e << ": got " << got[e] << ", want " << want[e] << " ("
                << where(variant, l) << ", n " << n << ")";
        }
}

// mad as a product and a sum, each rounded; fma rounded once.
template <typename T> void StreamedStore::fused(const std::string &type) {
  const T k = T(-2.75);
  const Count same = [](const Launch &l) { return items(l) + 3; };
  const Arguments operandKOperand = [&](cl_kernel kernel, cl_mem out, const std::vector<cl_mem> &in,
                                        const Launch &) { setArgs(kernel, in[0], k, in[1], out); };
  check<T>("mad_" + type, 2, same, same, operandKOperand,
           [&](std::vector<T> &out, const Inputs<T> &in, const Launch &l) {
             forItems(l, [&](size_t i) { out[i] = T(T(in[0][i] * k) + in[1][i]); });
           });
  const Count four = [](const Launch &l) { return items(l) * 4 + 5; };
  check<T>(
      "mad4_" + type, 2, four, four,
      [&](cl_kernel kernel, cl_mem out, const std::vector<cl_mem> &in, const Launch &) {
        setArgs(kernel, k, in[0], in[1], out);
      },
      [&](std::vector<T> &out, const Inputs<T> &in, const Launch &l) {
        forItems(l, [&](size_t i) {
          for (size_t e = 4 * i; e < 4 * (i + 1); ++e)
            out[e] = T(T(k * in[0][e]) + in[1][e]);
        });
      });
  check<T>(
      "mad_chain_" + type, 3, same, same,
      [&](cl_kernel kernel, cl_mem out, const std::vector<cl_mem> &in, const Launch &) {
        setArgs(kernel, in[0], in[1], in[2], k, out);
      },
      [&](std::vector<T> &out, const Inputs<T> &in, const Launch &l) {
        forItems(l, [&](size_t i) { out[i] = T(T(T(T(in[0][i] + in[1][i]) * in[2][i]) + k) * k); });
      });
  check<T>(
      "mad_deep_" + type, 1, same, same,
      [&](cl_kernel kernel, cl_mem out, const std::vector<cl_mem> &in, const Launch &) {
        setArgs(kernel, in[0], k, out);
      },
      [&](std::vector<T> &out, const Inputs<T> &in, const Launch &l) {
        forItems(l, [&](size_t i) {
          T x = in[0][i];
          for (int m = 0; m < 4; ++m)
            x = T(T(x * k) + k);
          out[i] = x;
        });
      });
  check<T>("fma_" + type, 2, same, same, operandKOperand,
           [&](std::vector<T> &out, const Inputs<T> &in, const Launch &l) {
             forItems(l, [&](size_t i) { out[i] = std::fma(in[0][i], k, in[1][i]); });
           });
}

TEST_F(StreamedStore, MadAndFma) {
  fused<float>("float");
  fused<double>("double");
}

TEST_F(StreamedStore, Division) {
  binary<float>("div_float", [](float a, float b) { return a / b; });
  binary<double>("div_double", [](double a, double b) { return a / b; });
}

TEST_F(StreamedStore, Bitwise) {
  binary<std::uint32_t>("and_uint", [](std::uint32_t a, std::uint32_t b) { return a & b; });
  binary<std::uint32_t>("or_uint", [](std::uint32_t a, std::uint32_t b) { return a | b; });
  binary<std::uint32_t>("xor_uint", [](std::uint32_t a, std::uint32_t b) { return a ^ b; });
  binary<std::uint64_t>("and_ulong", [](std::uint64_t a, std::uint64_t b) { return a & b; });
  binary<std::uint64_t>("or_ulong", [](std::uint64_t a, std::uint64_t b) { return a | b; });
  binary<std::uint64_t>("xor_ulong", [](std::uint64_t a, std::uint64_t b) { return a ^ b; });
}

} // namespace
} // namespace lanewise::test
