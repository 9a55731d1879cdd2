// SPDX-License-Identifier: Apache-2.0
// Sub-group ballots and votes: cl_khr_subgroup_ballot (ballots, their
// masks, counts and scans, inverse and bit extraction, non-uniform
// broadcasts) and the votes of cl_khr_subgroups (all, any) and
// cl_khr_subgroup_non_uniform_vote (all_equal, elect) (kernels in
// cl/subgroups.cl; how results are checked: subgroup_fixture.h).
#include "subgroup_fixture.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace lanewise::test::subgroup {
namespace {

// ---- cl_khr_subgroup_ballot ------------------------------------------------------------
using SubgroupBallot = SubgroupFixture;

// The slots of BALLOT_OPS in cl/subgroups.cl for the bitfield b.
void ballotOps(Expected<cl_uint> &want, size_t g, size_t base, const Bits &b, size_t lane,
               size_t index, size_t max) {
  want.truth(g, base + 0, b.test(lane));
  want.truth(g, base + 1, b.test(index));
  want.value(g, base + 2, cl_uint(b.countBelow(max)));
  want.value(g, base + 3, cl_uint(b.countBelow(lane + 1)));
  want.value(g, base + 4, cl_uint(b.countBelow(lane)));
  size_t lsb = SIZE_MAX, msb = SIZE_MAX;
  for (size_t i = 0; i < max; ++i)
    if (b.test(i)) {
      msb = i;
      if (lsb == SIZE_MAX)
        lsb = i;
    }
  if (lsb == SIZE_MAX) {
    want.undefined(g, base + 5);
    want.undefined(g, base + 6);
  } else {
    want.value(g, base + 5, cl_uint(lsb));
    want.value(g, base + 6, cl_uint(msb));
  }
}

TEST_F(SubgroupBallot, BallotsMasksAndBroadcasts) {
  constexpr size_t K = 56;
  auto slotName = [](size_t s) {
    static const char *ops[] = {"inverse_ballot",        "ballot_bit_extract(x % size)",
                                "ballot_bit_count",      "ballot_inclusive_scan",
                                "ballot_exclusive_scan", "ballot_find_lsb",
                                "ballot_find_msb"};
    static const char *masks[] = {"eq", "ge", "gt", "le", "lt"};
    std::ostringstream o;
    if (s < 4)
      o << "ballot(p) word " << s;
    else if (s < 11)
      o << ops[s - 4] << "(ballot(p))";
    else if (s < 18)
      o << ops[s - 11] << "(v)";
    else if (s < 38)
      o << "get_sub_group_" << masks[(s - 18) / 4] << "_mask() word " << (s - 18) % 4;
    else if (s == 38)
      o << "broadcast_first(x)";
    else if (s == 39)
      o << "non_uniform_broadcast(x, lane)";
    else if (s < 44)
      o << "odd lanes: ballot(p) word " << s - 40;
    else if (s < 48)
      o << "odd lanes: "
        << (s == 44   ? "broadcast_first(x)"
            : s == 45 ? "non_uniform_broadcast(x, odd lane)"
            : s == 46 ? "ballot_find_lsb(ballot(p))"
                      : "ballot_inclusive_scan(ballot(p))");
    else if (s < 52)
      o << "loop iteration " << s - 48 << ": broadcast_first(x)";
    else
      o << "loop iteration " << s - 52 << ": ballot_bit_count(ballot(p))";
    return o.str();
  };
  Rng rng(7);
  const cl_uint4 values[] = {{{cl_uint(rng()), cl_uint(rng()), cl_uint(rng()), cl_uint(rng())}},
                             {{~0u, ~0u, ~0u, ~0u}},
                             {{1u << 5, 0, 0, 0}},
                             {{0, 0, 0, 0}},
                             {{0, 0x10000u, 0, 0x80000000u}},
                             {{0x80000000u, 0, 0, 0}},
                             {{0, 0, 1, 0}}};
  for (const std::string &variant : kVariants) {
    cl_kernel k = sgKernel("ballot", variant);
    ASSERT_NE(k, nullptr);
    for (const Range &r : kRanges) {
      for (size_t rep = 0; rep < 7; ++rep) {
        const size_t n = items(r);
        const cl_uint4 v = values[rep];
        const cl_uint lane = rep % 2 ? 1000 : cl_uint(rep * 5);
        std::vector<cl_uint> x(n);
        for (auto &e : x)
          e = cl_uint(rng());
        const std::vector<cl_uint> ctl = controls(n, rng, 4);
        cl_mem pb = buffer<int>(n);
        cl_mem out = sentinelBuffer<cl_uint>(n * K);
        cl_mem info = buffer<cl_uint>(n * kInfoWords);
        setArgs(k, pb, buffer(x), buffer(ctl), out, info, v, lane);
        run(k, r.global, r.local); // learns the partition
        const std::string at = where("ballot", variant, r) + ", pattern " + std::to_string(rep);
        const auto p = partition(info, r, 0, at);
        if (!p)
          break;
        const std::vector<int> pred = predicates(*p, rng, rep);
        write(pb, pred);
        write(out, std::vector<cl_uint>(n * K, sentinel<cl_uint>()));
        run(k, r.global, r.local);
        Bits vb;
        std::memcpy(vb.w, v.s, sizeof vb.w);
        Expected<cl_uint> want(n, K);
        for (const auto &sg : p->subgroups) {
          const size_t size = sg.size(), max = p->max;
          Bits b, odd;
          for (size_t l = 0; l < size; ++l)
            if (pred[sg[l]]) {
              b.set(l);
              if (l % 2)
                odd.set(l);
            }
          for (size_t l = 0; l < size; ++l) {
            const size_t g = sg[l], index = x[g] % size;
            for (size_t w = 0; w < 4; ++w)
              want.value(g, w, b.w[w]);
            ballotOps(want, g, 4, b, l, index, max);
            ballotOps(want, g, 11, vb, l, index, max);
            Bits masks[5];
            for (size_t i = 0; i < max; ++i) {
              if (i == l)
                masks[0].set(i);
              if (i >= l)
                masks[1].set(i);
              if (i > l)
                masks[2].set(i);
              if (i <= l)
                masks[3].set(i);
              if (i < l)
                masks[4].set(i);
            }
            for (size_t m = 0; m < 5; ++m)
              for (size_t w = 0; w < 4; ++w)
                want.value(g, 18 + 4 * m + w, masks[m].w[w]);
            want.value(g, 38, x[sg[0]]);
            want.value(g, 39, x[sg[clampLane(lane, size)]]);
            if (l % 2) {
              for (size_t w = 0; w < 4; ++w)
                want.value(g, 40 + w, odd.w[w]);
              want.value(g, 44, x[sg[1]]);
              want.value(g, 45, x[sg[oddLane(lane, size)]]);
              size_t lsb = SIZE_MAX;
              for (size_t i = 0; i < size && lsb == SIZE_MAX; ++i)
                if (odd.test(i))
                  lsb = i;
              if (lsb == SIZE_MAX)
                want.undefined(g, 46);
              else
                want.value(g, 46, cl_uint(lsb));
              want.value(g, 47, cl_uint(odd.countBelow(l + 1)));
            }
            const unsigned trips = ctl[g] & 0xff;
            for (unsigned it = 0; it < trips; ++it) {
              size_t first = SIZE_MAX, count = 0;
              for (size_t j = 0; j < size; ++j)
                if ((ctl[sg[j]] & 0xff) > it) {
                  if (first == SIZE_MAX)
                    first = j;
                  count += pred[sg[j]] != 0;
                }
              want.value(g, 48 + it, x[sg[first]]);
              want.value(g, 52 + it, cl_uint(count));
            }
          }
        }
        compare<cl_uint>(at, *p, read<cl_uint>(out, n * K), want, slotName, false);
      }
    }
  }
}

// ---- votes: cl_khr_subgroups all/any and cl_khr_subgroup_non_uniform_vote ------------
using SubgroupVote = SubgroupFixture;

// all_equal over the active lanes with an ordered comparison (a NaN equals
// nothing; a single active NaN is left undefined).
template <typename T>
std::optional<bool> allEqual(const std::vector<T> &v, const std::vector<bool> &active) {
  std::optional<T> first;
  size_t count = 0;
  bool equal = true, nan = false;
  for (size_t l = 0; l < v.size(); ++l) {
    if (!active[l])
      continue;
    ++count;
    if constexpr (isFloat<T>)
      nan |= std::isnan(double(v[l]));
    if (!first)
      first = v[l];
    else if (!(v[l] == *first))
      equal = false;
  }
  if (nan)
    return count == 1 ? std::nullopt : std::optional<bool>(false);
  return equal;
}

TEST_F(SubgroupVote, VotesAndElections) {
  constexpr size_t K = 25;
  static const char *slotNames[] = {"all(p)",
                                    "any(p)",
                                    "elect()",
                                    "non_uniform_all(p)",
                                    "non_uniform_any(p)",
                                    "all_equal(v)",
                                    "all_equal(f)",
                                    "all_equal((uchar)v)",
                                    "all_equal((short)v)",
                                    "all_equal((ulong)v << 33 | v)",
                                    "all_equal((double)f)",
                                    "all_equal((half)f)",
                                    "odd lanes: elect()",
                                    "odd lanes: non_uniform_all(p)",
                                    "odd lanes: non_uniform_any(p)",
                                    "odd lanes: all_equal(v)",
                                    "odd lanes: all_equal(f)",
                                    "loop: iterations elected (bit k)",
                                    "loop: iterations where non_uniform_all(p) (bit k)",
                                    "loop: iterations where all_equal(v) (bit k)",
                                    "after early return: elect()",
                                    "after early return: all_equal(v)",
                                    "after early return: non_uniform_any(p)",
                                    "after the loop: elect()",
                                    "after the loop: all_equal(v)"};
  Rng rng(8);
  for (const std::string &variant : kVariants) {
    cl_kernel k = sgKernel("vote", variant);
    ASSERT_NE(k, nullptr);
    for (const Range &r : kRanges) {
      for (size_t rep = 0; rep < 7; ++rep) {
        const size_t n = items(r);
        const std::vector<cl_uint> ctl = controls(n, rng, 5);
        cl_mem pb = buffer<int>(n), vb = buffer<int>(n), fb = buffer<float>(n);
        cl_mem out = sentinelBuffer<int>(n * K);
        cl_mem info = buffer<cl_uint>(n * kInfoWords);
        setArgs(k, pb, vb, fb, buffer(ctl), out, info);
        run(k, r.global, r.local); // learns the partition
        const std::string at = where("vote", variant, r) + ", pattern " + std::to_string(rep);
        const auto p = partition(info, r, 0, at);
        if (!p)
          break;
        const std::vector<int> pred = predicates(*p, rng, rep);
        std::vector<int> v(n);
        std::vector<float> f(n);
        for (size_t s = 0; s < p->subgroups.size(); ++s) {
          const auto &sg = p->subgroups[s];
          const int common = int(rng());
          const float fc = float(int(rng() % 2001) - 1000) / 16;
          const size_t one = rng() % sg.size();
          const size_t pattern = (s + rep) % 6;
          for (size_t l = 0; l < sg.size(); ++l) {
            int &vi = v[sg[l]];
            float &fi = f[sg[l]];
            switch (pattern) {
            case 0: // all equal
              vi = common;
              fi = fc;
              break;
            case 1: // one lane differs (in the low byte; by one ulp)
              vi = l == one ? common ^ 1 : common;
              fi = l == one ? std::nextafter(fc, INFINITY) : fc;
              break;
            case 2: // all different; +0 and -0 (equal)
              vi = int(rng());
              fi = l % 2 ? 0.0f : -0.0f;
              break;
            case 3: // equal as uchar, different as int; a NaN
              vi = (common & 0xff) | int(rng() << 8);
              fi = l == one ? NAN : fc;
              break;
            case 4: // equal in odd lanes only
              vi = l % 2 ? common : int(rng());
              fi = l % 2 ? fc : float(rng() % 1000) + 2000;
              break;
            case 5: // different as float, equal as half
              vi = l % 2 ? common : int(unsigned(common) + 0x10000u);
              fi = 1.0f + float(l % 4) * 0x1p-20f;
              break;
            }
          }
        }
        write(pb, pred);
        write(vb, v);
        write(fb, f);
        write(out, std::vector<int>(n * K, sentinel<int>()));
        run(k, r.global, r.local);
        Expected<int> want(n, K);
        for (const auto &sg : p->subgroups) {
          const size_t size = sg.size();
          const std::vector<bool> all(size, true), odd = oddLanes(size);
          const std::vector<int> pv = gather(sg, pred), vv = gather(sg, v);
          const std::vector<float> fv = gather(sg, f);
          std::vector<unsigned char> uc;
          std::vector<short> sh;
          std::vector<std::uint64_t> ul;
          std::vector<double> dv;
          std::vector<half> hv;
          for (size_t l = 0; l < size; ++l) {
            uc.push_back((unsigned char)vv[l]);
            sh.push_back(short(vv[l]));
            ul.push_back(std::uint64_t(std::uint32_t(vv[l])) << 33 | std::uint32_t(vv[l]));
            dv.push_back(fv[l]);
            hv.push_back(half(fv[l]));
          }
          auto vote = [&](const std::vector<bool> &active, bool wantAll) {
            bool a = true, any = false;
            for (size_t l = 0; l < size; ++l)
              if (active[l]) {
                a &= pv[l] != 0;
                any |= pv[l] != 0;
              }
            return wantAll ? a : any;
          };
          auto truthOrUndefined = [&](size_t g, size_t slot, std::optional<bool> b) {
            if (b)
              want.truth(g, slot, *b);
            else
              want.undefined(g, slot);
          };
          std::vector<bool> stays(size);
          size_t firstStaying = SIZE_MAX;
          for (size_t l = 0; l < size; ++l) {
            stays[l] = (ctl[sg[l]] >> 8) == 0;
            if (stays[l] && firstStaying == SIZE_MAX)
              firstStaying = l;
          }
          for (size_t l = 0; l < size; ++l) {
            const size_t g = sg[l];
            want.truth(g, 0, vote(all, true));
            want.truth(g, 1, vote(all, false));
            want.truth(g, 2, l == 0);
            want.truth(g, 3, vote(all, true));
            want.truth(g, 4, vote(all, false));
            truthOrUndefined(g, 5, allEqual(vv, all));
            truthOrUndefined(g, 6, allEqual(fv, all));
            truthOrUndefined(g, 7, allEqual(uc, all));
            truthOrUndefined(g, 8, allEqual(sh, all));
            truthOrUndefined(g, 9, allEqual(ul, all));
            truthOrUndefined(g, 10, allEqual(dv, all));
            truthOrUndefined(g, 11, allEqual(hv, all));
            if (l % 2) {
              want.truth(g, 12, l == 1);
              want.truth(g, 13, vote(odd, true));
              want.truth(g, 14, vote(odd, false));
              truthOrUndefined(g, 15, allEqual(vv, odd));
              truthOrUndefined(g, 16, allEqual(fv, odd));
            }
            int elected = 0, allMask = 0, equalMask = 0;
            for (unsigned it = 0; it < (ctl[g] & 0xff); ++it) {
              std::vector<bool> active(size);
              size_t first = SIZE_MAX;
              for (size_t j = 0; j < size; ++j) {
                active[j] = (ctl[sg[j]] & 0xff) > it;
                if (active[j] && first == SIZE_MAX)
                  first = j;
              }
              elected |= (first == l) << it;
              allMask |= vote(active, true) << it;
              equalMask |= int(*allEqual(vv, active)) << it;
            }
            want.value(g, 17, elected);
            want.value(g, 18, allMask);
            want.value(g, 19, equalMask);
            want.truth(g, 23, l == 0);
            truthOrUndefined(g, 24, allEqual(vv, all));
            if (stays[l]) {
              want.truth(g, 20, l == firstStaying);
              truthOrUndefined(g, 21, allEqual(vv, stays));
              want.truth(g, 22, vote(stays, false));
            }
          }
        }
        compare<int>(
            at, *p, read<int>(out, n * K), want, [](size_t s) { return std::string(slotNames[s]); },
            false);
      }
    }
  }
}

} // namespace
} // namespace lanewise::test::subgroup
