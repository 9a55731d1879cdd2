// SPDX-License-Identifier: Apache-2.0
// Stores that write each work-item's record in parts (kernels in
// cl/record_store.cl): vstore4(v_k, 4 * i + k, p) for k = 0 .. 3 and its
// kin. Lanewise may write such records whole in one pass when a warp's
// work-items all take part and the parts lie one after another in the
// record, and runs the stores one after another otherwise
// (spirv/lower_stream.cpp, runtime/exec_affine.cpp). Covered, in int, uint
// and float: shuffles between the stores (a 4 x 4 transpose); scalar,
// vstore2, vstore4, vstore8, vstore16 and vector-pointer parts; parts
// stored in reverse order; more parts than one record holds; a part stored
// twice, with and without the other; records with a gap; divergence; a bounds test; records that
// start one element into the buffer; a load of a part between the stores;
// __local records. The expected values follow the OpenCL C built-ins and
// operators (6.15.7 vloadn/vstoren, 6.4.3 swizzles, 6.15.18.1
// shuffle/shuffle2), computed here. Every launch shape of launches.h, -O2
// and -O0, and every element the kernel must not write is checked too.
#include "harness.h"
#include "launches.h"

#include <array>
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

// Elements per work-item of a buffer, and what stays beyond the last.
struct Extent {
  size_t perItem, extra = 3;
};

class RecordStore : public SharedContextTest {
protected:
  template <typename T> using Buffers = std::vector<std::vector<T>>;
  // Changes the outputs' former contents into what the launch must leave,
  // given the input; the work-items are [offset, offset + global).
  template <typename T>
  using Expect = std::function<void(Buffers<T> &out, const std::vector<T> &in, const Launch &)>;

  // Sets the arguments after the buffers, from `index` on.
  using Trailing = std::function<void(cl_kernel, cl_uint index, const Launch &)>;

  // Runs kernel `name` on every launch (`localOnly`: those that set the
  // local size) with an input of in.perItem elements a work-item and
  // outputs as `outs` say, filled with other values first; arguments (in,
  // outs..., then `trailing`'s).
  template <typename T>
  void check(const std::string &name, Extent in, std::vector<Extent> outs, const Expect<T> &expect,
             const Trailing &trailing = {}, bool localOnly = false) {
    std::mt19937_64 random(0x7ec0 + sizeof(T) * 31 + name.size());
    for (const std::string variant : variants)
      for (const Launch &l : launches) {
        if (localOnly && !l.local)
          continue;
        cl_kernel k = cachedKernel("record_store", name, variant);
        ASSERT_NE(k, nullptr) << name;
        const size_t items = l.offset + l.global;
        const std::vector<T> input = randomValues<T>(in.perItem * items + in.extra, random);
        Buffers<T> want;
        std::vector<cl_mem> buffers;
        for (const Extent &out : outs) {
          want.push_back(randomValues<T>(out.perItem * items + out.extra, random));
          buffers.push_back(buffer(want.back()));
        }
        cl_uint index = 0;
        setArg(k, index++, buffer(input));
        for (cl_mem b : buffers)
          setArg(k, index++, b);
        if (trailing)
          trailing(k, index, l);
        if (l.local)
          run(k, {l.global}, {l.local}, {l.offset});
        else
          run(k, {l.global}, {}, {l.offset});
        expect(want, input, l);
        for (size_t o = 0; o < outs.size(); ++o) {
          const std::vector<T> got = read<T>(buffers[o], want[o].size());
          for (size_t e = 0; e < got.size(); ++e)
            ASSERT_EQ(std::memcmp(&got[e], &want[o][e], sizeof(T)), 0)
                << name << " output " << o << " element " << e << ": got " << +got[e] << ", want "
                << +want[o][e] << " (" << where(variant, l) << ")";
        }
      }
  }

  template <typename F> static void forItems(const Launch &l, F &&f) {
    for (size_t i = l.offset; i < l.offset + l.global; ++i)
      f(i);
  }
  // Lane i's vector of N elements from `in` (vloadN(i, in)).
  template <size_t N, typename T>
  static std::array<T, N> vload(const std::vector<T> &in, size_t i) {
    std::array<T, N> v;
    for (size_t c = 0; c < N; ++c)
      v[c] = in[N * i + c];
    return v;
  }
  // vstoreN(v, i, out).
  template <size_t N, typename T>
  static void vstore(std::vector<T> &out, size_t i, const std::array<T, N> &v, size_t shift = 0) {
    for (size_t c = 0; c < N; ++c)
      out[shift + N * i + c] = v[c];
  }
  // v with each element f(element), or the elements at `order`.
  template <size_t N, typename T, typename F> static std::array<T, N> map(std::array<T, N> v, F f) {
    for (T &e : v)
      e = T(f(e));
    return v;
  }
  template <size_t N, typename T>
  static std::array<T, N> pick(const std::array<T, N> &v, std::array<size_t, N> order) {
    std::array<T, N> r;
    for (size_t c = 0; c < N; ++c)
      r[c] = v[order[c]];
    return r;
  }

  template <typename T> void everyKernel(const std::string &type);
};

template <typename T> void RecordStore::everyKernel(const std::string &type) {
  using V4 = std::array<size_t, 4>;
  // out[16 i + 4 r + c] = in[16 i + 4 c + r].
  check<T>("transpose_" + type, {16}, {{16}},
           [](Buffers<T> &out, const std::vector<T> &in, const Launch &l) {
             forItems(l, [&](size_t i) {
               for (size_t r = 0; r < 4; ++r)
                 for (size_t c = 0; c < 4; ++c)
                   out[0][16 * i + 4 * r + c] = in[16 * i + 4 * c + r];
             });
           });
  check<T>("scalars_" + type, {1}, {{4}},
           [](Buffers<T> &out, const std::vector<T> &in, const Launch &l) {
             forItems(l, [&](size_t i) {
               const T a = in[i];
               vstore<4, T>(out[0], i, {a, T(a + T(1)), T(a * T(3)), T(a - T(2))});
             });
           });
  check<T>("reversed_" + type, {4}, {{16}},
           [](Buffers<T> &out, const std::vector<T> &in, const Launch &l) {
             forItems(l, [&](size_t i) {
               const auto v = vload<4>(in, i);
               vstore(out[0], 4 * i + 3, pick(v, V4{3, 2, 1, 0}));
               vstore(out[0], 4 * i + 2, map(v, [](T e) { return e + T(1); }));
               vstore(out[0], 4 * i + 1, map(v, [](T e) { return e * T(2); }));
               vstore(out[0], 4 * i + 0, pick(v, V4{1, 0, 3, 2}));
             });
           });
  check<T>("halves_" + type, {4}, {{4}},
           [](Buffers<T> &out, const std::vector<T> &in, const Launch &l) {
             forItems(l, [&](size_t i) {
               const auto v = vload<4>(in, i);
               vstore<4, T>(out[0], i, {v[0], v[1], v[3], v[2]});
             });
           });
  check<T>("wide_" + type, {8}, {{16}, {64}},
           [](Buffers<T> &out, const std::vector<T> &in, const Launch &l) {
             forItems(l, [&](size_t i) {
               const auto v = vload<8>(in, i);
               vstore(out[0], 2 * i, v);
               vstore(out[0], 2 * i + 1, pick(v, {7, 6, 5, 4, 3, 2, 1, 0}));
               std::array<T, 16> w;
               for (size_t c = 0; c < 16; ++c)
                 w[c] = c < 8 ? v[c] : T(v[c - 8] + T(1));
               vstore(out[1], 4 * i, w);
               vstore(out[1], 4 * i + 1, map(w, [](T e) { return e * T(2); }));
               vstore(out[1], 4 * i + 2, map(w, [](T e) { return e - T(3); }));
               vstore(out[1], 4 * i + 3,
                      pick(w, {15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}));
             });
           });
  check<T>("five_" + type, {16}, {{80}},
           [](Buffers<T> &out, const std::vector<T> &in, const Launch &l) {
             forItems(l, [&](size_t i) {
               const auto w = vload<16>(in, i);
               vstore(out[0], 5 * i, w);
               vstore(out[0], 5 * i + 1, map(w, [](T e) { return e * T(2); }));
               vstore(out[0], 5 * i + 2, map(w, [](T e) { return e - T(3); }));
               vstore(out[0], 5 * i + 3,
                      pick(w, {15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}));
               vstore(out[0], 5 * i + 4, map(w, [](T e) { return e + T(5); }));
             });
           });
  check<T>("vectors_" + type, {4}, {{8}},
           [](Buffers<T> &out, const std::vector<T> &in, const Launch &l) {
             forItems(l, [&](size_t i) {
               const auto v = vload<4>(in, i);
               vstore(out[0], 2 * i, pick(v, V4{2, 3, 0, 1}));
               vstore(out[0], 2 * i + 1, map(v, [](T e) { return e - T(1); }));
             });
           });
  check<T>("overlap_" + type, {4}, {{8}},
           [](Buffers<T> &out, const std::vector<T> &in, const Launch &l) {
             forItems(l, [&](size_t i) {
               const auto v = vload<4>(in, i);
               vstore(out[0], 2 * i, map(v, [](T e) { return e * T(2); }));
               vstore(out[0], 2 * i + 1, pick(v, V4{3, 0, 1, 2}));
             });
           });
  check<T>("twice_" + type, {4}, {{8}},
           [](Buffers<T> &out, const std::vector<T> &in, const Launch &l) {
             forItems(l, [&](size_t i) {
               vstore(out[0], 2 * i, map(vload<4>(in, i), [](T e) { return e - T(6); }));
             });
           });
  check<T>("gap_" + type, {4}, {{12}},
           [](Buffers<T> &out, const std::vector<T> &in, const Launch &l) {
             forItems(l, [&](size_t i) {
               const auto v = vload<4>(in, i);
               vstore(out[0], 3 * i, v);
               vstore(out[0], 3 * i + 1, pick(v, V4{2, 0, 1, 3}));
             });
           });
  check<T>("divergent_" + type, {4}, {{8}},
           [](Buffers<T> &out, const std::vector<T> &in, const Launch &l) {
             forItems(l, [&](size_t i) {
               if (i % 3 == 1)
                 return;
               const auto v = vload<4>(in, i);
               vstore(out[0], 2 * i, pick(v, V4{1, 2, 3, 0}));
               vstore(out[0], 2 * i + 1, map(v, [](T e) { return e * T(3); }));
             });
           });
  check<T>("shifted_" + type, {4}, {{8, 4}},
           [](Buffers<T> &out, const std::vector<T> &in, const Launch &l) {
             forItems(l, [&](size_t i) {
               const auto v = vload<4>(in, i);
               vstore(out[0], 2 * i, pick(v, V4{3, 2, 1, 0}), 1);
               vstore(out[0], 2 * i + 1, map(v, [](T e) { return e - T(4); }), 1);
             });
           });
  check<T>("reread_" + type, {4}, {{8}},
           [](Buffers<T> &out, const std::vector<T> &in, const Launch &l) {
             forItems(l, [&](size_t i) {
               const auto v = vload<4>(in, i);
               vstore(out[0], 2 * i, pick(v, V4{1, 0, 3, 2}));
               const T first = out[0][8 * i];
               vstore(out[0], 2 * i + 1, map(v, [&](T e) { return e + first; }));
             });
           });
  // Each group's records, reversed within the group.
  check<T>(
      "local_" + type, {4}, {{8}},
      [](Buffers<T> &out, const std::vector<T> &in, const Launch &l) {
        forItems(l, [&](size_t i) {
          const size_t first = l.offset + (i - l.offset) / l.local * l.local;
          const size_t j = first + (l.local - 1 - (i - first));
          const auto v = vload<4>(in, j);
          vstore(out[0], 2 * i, v);
          vstore(out[0], 2 * i + 1, pick(v, V4{3, 2, 1, 0}));
        });
      },
      [this](cl_kernel k, cl_uint index, const Launch &l) {
        setArg(k, index, Local{8 * l.local * sizeof(T)});
      },
      true);
  // Up to n: a bound in the last warp, in the first third, or none.
  for (const int bound : {0, 1, 2}) {
    auto n = [bound](const Launch &l) -> size_t {
      const size_t items = l.offset + l.global;
      return bound == 0 ? items - 7 : bound == 1 ? items / 3 : items + 5;
    };
    check<T>(
        "bounded_" + type, {4}, {{16}},
        [&](Buffers<T> &out, const std::vector<T> &in, const Launch &l) {
          forItems(l, [&](size_t i) {
            if (i >= n(l))
              return;
            const auto v = vload<4>(in, i);
            vstore(out[0], 4 * i, v);
            vstore(out[0], 4 * i + 1, map(v, [](T e) { return e + T(2); }));
            vstore(out[0], 4 * i + 2, pick(v, V4{0, 0, 1, 1}));
            vstore(out[0], 4 * i + 3, pick(v, V4{2, 2, 3, 3}));
          });
        },
        [&](cl_kernel k, cl_uint index, const Launch &l) { setArg(k, index, cl_uint(n(l))); });
  }
}

TEST_F(RecordStore, Int) { everyKernel<std::int32_t>("int"); }
TEST_F(RecordStore, Uint) { everyKernel<std::uint32_t>("uint"); }
TEST_F(RecordStore, Float) { everyKernel<float>("float"); }

} // namespace
} // namespace lanewise::test
