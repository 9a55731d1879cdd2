// SPDX-License-Identifier: Apache-2.0
// shuffle and shuffle2 (OpenCL C 3.0, 6.15.12; kernels in cl/shuffle.cl) on
// every element type, input length m in {2, 4, 8, 16} and result length n in
// {2, 4, 8, 16}. The mask is the unsigned integer vector with the result's
// element size and length n; only the ilogb(2m - 1) low bits of a mask
// component count for shuffle (an index into x), ilogb(2m - 1) + 1 for
// shuffle2 (an index into the components of x, then those of y). The masks
// here have random high bits, often all set. A shuffle is a permutation:
// results must match bit for bit, NaN payloads included. Each check also
// verifies that nothing past the n result components was written.
#include "harness.h"
#include "mismatches.h"

#include <array>
#include <cstdint>
#include <map>
#include <random>
#include <sstream>
#include <string>

namespace lanewise::test {
namespace {

// ---- a fixture that builds each program once per process --------------------
class ShuffleFixture : public SharedContextTest {
protected:
  cl_kernel cachedKernel(const std::string &name, const std::string &variant) {
    return SharedContextTest::cachedKernel("shuffle", name, variant);
  }

};

// ---- element types --------------------------------------------------------------
// Values are handled as bit patterns, in the unsigned integer of their size.
struct ElementType {
  const char *name;
  int size;
  bool isFloat;
};
const ElementType elementTypes[] = {
    {"char", 1, false}, {"uchar", 1, false}, {"short", 2, false}, {"ushort", 2, false},
    {"int", 4, false},  {"uint", 4, false},  {"long", 8, false},  {"ulong", 8, false},
    {"half", 2, true},  {"float", 4, true},  {"double", 8, true},
};

struct Param {
  ElementType type;
  const char *variant;
};
std::vector<Param> params() {
  std::vector<Param> out;
  for (const ElementType &t : elementTypes)
    for (const char *v : {"", "-O0"})
      out.push_back({t, v});
  return out;
}
std::string paramName(const ::testing::TestParamInfo<Param> &info) {
  return std::string(info.param.type.name) + (*info.param.variant ? "_O0" : "_O2");
}

// NaNs with payloads, quiet and signalling, of each floating-point size.
template <typename S> std::vector<S> nanPatterns() {
  if constexpr (sizeof(S) == 2)
    return {0x7c01, 0xfc01, 0x7d55, 0x7e00, 0xfe3f, 0x7fff};
  else if constexpr (sizeof(S) == 4)
    return {0x7f800001u, 0xff800001u, 0x7fa5a5a5u, 0x7fc00000u, 0xffc12345u, 0x7fffffffu};
  else if constexpr (sizeof(S) == 8)
    return {0x7ff0000000000001ull, 0xfff0000000000001ull, 0x7ff5a5a5a5a5a5a5ull,
            0x7ff8000000000000ull, 0xfff8123456789abcull, 0x7fffffffffffffffull};
  else
    return {0x80, 0x7f, 0xff, 0x01, 0x55, 0xaa};
}

// Random elements; every fourth one of floating-point types a NaN with a
// payload.
template <typename S>
std::vector<S> randomElements(size_t count, std::mt19937_64 &random, bool isFloat) {
  const std::vector<S> nans = nanPatterns<S>();
  std::vector<S> out(count);
  for (size_t k = 0; k < count; ++k)
    out[k] = isFloat && k % 4 == 1 ? nans[random() % nans.size()] : S(random());
  return out;
}

// A mask component: a random index below `range` with random ignored high
// bits, every other one with all ignored bits set.
template <typename S> S maskValue(std::mt19937_64 &random, unsigned range) {
  S v = S(random());
  if (random() & 1)
    v = S(v | S(~S(range - 1)));
  return v;
}

template <typename S> std::string hex(S v) {
  std::ostringstream s;
  s << "0x" << std::hex << std::uint64_t(v);
  return s.str();
}

constexpr size_t items = 64;
constexpr size_t local = 32;
int lengthOf(int index) { return 2 << index; } // 2, 4, 8, 16

// The expected component j of shuffle (twoInputs false) or shuffle2 of x, y
// (m components each) with mask component `mask`.
template <typename S> S expectedComponent(const S *x, const S *y, int m, S mask, bool twoInputs) {
  const std::uint64_t index = std::uint64_t(mask) & std::uint64_t(twoInputs ? 2 * m - 1 : m - 1);
  return index < std::uint64_t(m) ? x[index] : y[index - m];
}

class ShuffleAll : public ShuffleFixture, public ::testing::WithParamInterface<Param> {
protected:
  template <typename S> void varying(bool divergent);
  template <typename S> void uniform();
  template <typename F> void dispatch(F f) {
    switch (GetParam().type.size) {
    case 1:
      f(std::uint8_t());
      break;
    case 2:
      f(std::uint16_t());
      break;
    case 4:
      f(std::uint32_t());
      break;
    default:
      f(std::uint64_t());
      break;
    }
  }
};

// shuffle_T / shuffle_div_T: masks at mask + 512 i + 16 c (+ 256 for
// shuffle2), c = 4 a + b for m = 2 << a, n = 2 << b.
template <typename S> void ShuffleAll::varying(bool divergent) {
  const Param p = GetParam();
  std::mt19937_64 random(0x5f1e + p.type.size * 31 + p.type.isFloat + divergent * 7);
  const std::vector<S> x = randomElements<S>(16 * items, random, p.type.isFloat);
  const std::vector<S> y = randomElements<S>(16 * items, random, p.type.isFloat);
  const std::vector<S> before = randomElements<S>(512 * items, random, p.type.isFloat);
  std::vector<S> mask(512 * items);
  for (size_t i = 0; i < items; ++i)
    for (int c = 0; c < 16; ++c)
      for (int j = 0; j < 16; ++j) {
        const int m = lengthOf(c / 4);
        mask[512 * i + 16 * c + j] = maskValue<S>(random, m);
        mask[512 * i + 256 + 16 * c + j] = maskValue<S>(random, 2 * m);
      }
  const std::string name = std::string(divergent ? "shuffle_div_" : "shuffle_") + p.type.name;
  cl_kernel k = cachedKernel(name, p.variant);
  ASSERT_NE(k, nullptr);
  cl_mem X = buffer(x), Y = buffer(y), M = buffer(mask), O = buffer(before);
  setArgs(k, X, Y, M, O);
  run(k, {items}, {local});
  const std::vector<S> out = read<S>(O, 512 * items);

  for (int two = 0; two < 2; ++two)
    for (int c = 0; c < 16; ++c) {
      const int m = lengthOf(c / 4), n = lengthOf(c % 4);
      Mismatches bad{name + p.variant + (two ? " shuffle2" : " shuffle") +
                     " m=" + std::to_string(m) + " n=" + std::to_string(n)};
      for (size_t i = 0; i < items; ++i) {
        const bool active = !divergent || (i & 1);
        for (int j = 0; j < 16; ++j) {
          const size_t at = 512 * i + 256 * two + 16 * c + j;
          const S want = active && j < n
                             ? expectedComponent(&x[16 * i], &y[16 * i], m, mask[at], two)
                             : before[at];
          if (out[at] != want)
            bad.add([&] {
              std::ostringstream s;
              s << "work-item " << i << " component " << j << " mask " << hex(mask[at])
                << (j >= n ? " (past the result)" : "") << (active ? "" : " (inactive)") << ": got "
                << hex(out[at]) << ", want " << hex(want);
              return s.str();
            });
        }
      }
    }
}

// shuffle_uni_T: masks am, bm and values ux, uy are kernel arguments; result
// s of combination c at out + 2048 i + 256 s + 16 c.
template <typename S> void ShuffleAll::uniform() {
  const Param p = GetParam();
  std::mt19937_64 random(0xa11 + p.type.size * 17 + p.type.isFloat);
  const std::vector<S> x = randomElements<S>(16 * items, random, p.type.isFloat);
  const std::vector<S> y = randomElements<S>(16 * items, random, p.type.isFloat);
  const std::vector<S> before = randomElements<S>(2048 * items, random, p.type.isFloat);
  std::vector<S> mask(512 * items);
  for (size_t i = 0; i < items; ++i)
    for (int c = 0; c < 16; ++c)
      for (int j = 0; j < 16; ++j) {
        const int m = lengthOf(c / 4);
        mask[512 * i + 16 * c + j] = maskValue<S>(random, m);
        mask[512 * i + 256 + 16 * c + j] = maskValue<S>(random, 2 * m);
      }
  std::array<std::array<S, 16>, 4> a, b; // a[index of m], b[index of m]
  for (int am = 0; am < 4; ++am)
    for (int j = 0; j < 16; ++j) {
      a[am][j] = maskValue<S>(random, lengthOf(am));
      b[am][j] = maskValue<S>(random, 2 * lengthOf(am));
    }
  std::array<S, 16> ux, uy;
  const std::vector<S> u = randomElements<S>(32, random, p.type.isFloat);
  for (int j = 0; j < 16; ++j)
    ux[j] = u[j], uy[j] = u[16 + j];

  const std::string name = std::string("shuffle_uni_") + p.type.name;
  cl_kernel k = cachedKernel(name, p.variant);
  ASSERT_NE(k, nullptr);
  cl_mem X = buffer(x), Y = buffer(y), M = buffer(mask), O = buffer(before);
  setArgs(k, X, Y, M, O, a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3], ux, uy);
  run(k, {items}, {local});
  const std::vector<S> out = read<S>(O, 2048 * items);

  // The operands of each form s: which are uniform, and shuffle or shuffle2.
  struct Form {
    const char *name;
    bool uniformX, uniformY, uniformMask, two;
  };
  const Form forms[] = {
      {"shuffle(x, uniform mask)", false, false, true, false},
      {"shuffle2(x, y, uniform mask)", false, false, true, true},
      {"shuffle(uniform x, uniform mask)", true, true, true, false},
      {"shuffle2(uniform x, uniform y, uniform mask)", true, true, true, true},
      {"shuffle(uniform x, varying mask)", true, true, false, false},
      {"shuffle2(uniform x, uniform y, varying mask)", true, true, false, true},
      {"shuffle2(x, uniform y, varying mask)", false, true, false, true},
      {"shuffle2(uniform x, y, uniform mask)", true, false, true, true},
  };
  for (int s = 0; s < 8; ++s)
    for (int c = 0; c < 16; ++c) {
      const int am = c / 4, m = lengthOf(am), n = lengthOf(c % 4);
      const Form &f = forms[s];
      const bool two = f.two;
      Mismatches bad{name + p.variant + " " + f.name + " m=" + std::to_string(m) +
                     " n=" + std::to_string(n)};
      for (size_t i = 0; i < items; ++i)
        for (int j = 0; j < 16; ++j) {
          const size_t at = 2048 * i + 256 * s + 16 * c + j;
          const S *xs = f.uniformX ? ux.data() : &x[16 * i];
          const S *ys = f.uniformY ? uy.data() : &y[16 * i];
          const S mk =
              f.uniformMask ? (two ? b : a)[am][j] : mask[512 * i + 256 * two + 16 * c + j];
          const S want = j < n ? expectedComponent(xs, ys, m, mk, two) : before[at];
          if (out[at] != want)
            bad.add([&] {
              std::ostringstream o;
              o << "work-item " << i << " component " << j << " mask " << hex(mk)
                << (j >= n ? " (past the result)" : "") << ": got " << hex(out[at]) << ", want "
                << hex(want);
              return o.str();
            });
        }
    }
}

TEST_P(ShuffleAll, VaryingMasks) {
  dispatch([&](auto s) { varying<decltype(s)>(false); });
}
TEST_P(ShuffleAll, OnlyOddWorkItemsShuffle) {
  dispatch([&](auto s) { varying<decltype(s)>(true); });
}
TEST_P(ShuffleAll, UniformMasksAndValues) {
  dispatch([&](auto s) { uniform<decltype(s)>(); });
}

INSTANTIATE_TEST_SUITE_P(Shuffle, ShuffleAll, ::testing::ValuesIn(params()), paramName);

} // namespace
} // namespace lanewise::test
