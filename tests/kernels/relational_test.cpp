// SPDX-License-Identifier: Apache-2.0
// select and bitselect (OpenCL C 3.0, 6.15.6; kernels in cl/relational.cl)
// on every type and width 1, 2, 3, 4, 8, 16. select(a, b, c): for a scalar
// type, c != 0 picks b, else a; for vectors, component i is b[i] if the most
// significant bit of c[i] is set, else a[i]; c may be the signed or the
// unsigned integer type of a's element size. bitselect(a, b, c): each bit of
// the result is the bit of b where c's bit is 1, else a's, on floating-point
// types too. Both choose among the operands, so results are compared bit for
// bit (NaN payloads included), and nothing past the w result components may
// be written.
#include "harness.h"
#include "mismatches.h"

#include <cstdint>
#include <map>
#include <random>
#include <sstream>
#include <string>

namespace lanewise::test {
namespace {

// ---- a fixture that builds each program once per process --------------------
class RelationalFixture : public SharedContextTest {
protected:
  cl_kernel cachedKernel(const std::string &name, const std::string &variant) {
    return SharedContextTest::cachedKernel("relational", name, variant);
  }

};

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

template <typename S> std::string hex(S v) {
  std::ostringstream s;
  s << "0x" << std::hex << std::uint64_t(v);
  return s.str();
}

// Operand values: random bits, for floating-point types every fourth a NaN
// with a payload (the choice must keep it).
template <typename S> S operand(std::mt19937_64 &random, bool isFloat, size_t k) {
  if (isFloat && k % 4 == 3) {
    const int bits = 8 * sizeof(S);
    const int mantissa = bits == 16 ? 10 : bits == 32 ? 23 : 52;
    const std::uint64_t fraction = (std::uint64_t(1) << mantissa) - 1;
    const std::uint64_t exponent = (~std::uint64_t(0) >> (64 - bits + 1)) & ~fraction;
    const std::uint64_t sign = random() & 1 ? std::uint64_t(1) << (bits - 1) : 0;
    return S(sign | exponent | (random() & fraction) | 1);
  }
  return S(random());
}

// Conditions: 0, 1, the most significant bit alone, all ones, all but the
// most significant bit, and random patterns with and without that bit.
template <typename S> S condition(std::mt19937_64 &random) {
  const S msb = S(S(1) << (8 * sizeof(S) - 1));
  switch (random() % 8) {
  case 0:
    return 0;
  case 1:
    return 1;
  case 2:
    return msb;
  case 3:
    return S(~S(0));
  case 4:
    return S(~msb);
  case 5:
    return S(random() | msb);
  case 6:
    return S(random() & S(~msb));
  default:
    return S(random());
  }
}

constexpr size_t items = 64;
const int widths[] = {1, 2, 3, 4, 8, 16};

class RelationalSelect : public RelationalFixture, public ::testing::WithParamInterface<Param> {
protected:
  template <typename S> void check();
};

template <typename S> void RelationalSelect::check() {
  const Param p = GetParam();
  std::mt19937_64 random(0x5e1ec7 + p.type.size * 13 + p.type.isFloat);
  std::vector<S> a(96 * items), b(96 * items), c(96 * items), before(288 * items);
  for (size_t k = 0; k < a.size(); ++k) {
    a[k] = operand<S>(random, p.type.isFloat, k);
    b[k] = operand<S>(random, p.type.isFloat, k + 1);
    c[k] = condition<S>(random);
  }
  for (S &v : before)
    v = S(random());
  const std::string name = std::string("relational_") + p.type.name;
  cl_kernel k = cachedKernel(name, p.variant);
  ASSERT_NE(k, nullptr);
  cl_mem A = buffer(a), B = buffer(b), C = buffer(c), O = buffer(before);
  setArgs(k, A, B, C, O);
  run(k, {items});
  const std::vector<S> out = read<S>(O, 288 * items);

  const S msb = S(S(1) << (8 * sizeof(S) - 1));
  const char *ops[] = {"select(a, b, signed c)", "select(a, b, unsigned c)", "bitselect(a, b, c)"};
  for (int wk = 0; wk < 6; ++wk) {
    const int w = widths[wk];
    for (int op = 0; op < 3; ++op) {
      Mismatches bad{name + p.variant + " width " + std::to_string(w) + " " + ops[op]};
      for (size_t i = 0; i < items; ++i)
        for (int j = 0; j < 16; ++j) {
          const size_t in = 96 * i + 16 * wk + j, at = 288 * i + 48 * wk + 16 * op + j;
          S want = before[at];
          if (j < w) {
            if (op == 2)
              want = S((a[in] & S(~c[in])) | (b[in] & c[in]));
            else if (w == 1)
              want = c[in] != 0 ? b[in] : a[in];
            else
              want = (c[in] & msb) ? b[in] : a[in];
          }
          if (out[at] != want)
            bad.add([&] {
              std::ostringstream s;
              s << "work-item " << i << " component " << j;
              if (j < w)
                s << " a " << hex(a[in]) << " b " << hex(b[in]) << " c " << hex(c[in]);
              else
                s << " (past the result)";
              s << ": got " << hex(out[at]) << ", want " << hex(want);
              return s.str();
            });
        }
    }
  }
}

TEST_P(RelationalSelect, SelectAndBitselectEveryWidth) {
  switch (GetParam().type.size) {
  case 1:
    check<std::uint8_t>();
    break;
  case 2:
    check<std::uint16_t>();
    break;
  case 4:
    check<std::uint32_t>();
    break;
  default:
    check<std::uint64_t>();
    break;
  }
}

INSTANTIATE_TEST_SUITE_P(Relational, RelationalSelect, ::testing::ValuesIn(params()), paramName);

} // namespace
} // namespace lanewise::test
