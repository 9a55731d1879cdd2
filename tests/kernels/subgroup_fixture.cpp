// SPDX-License-Identifier: Apache-2.0
// The sub-group tests' helpers that are not templates: operation names,
// NDRanges, the partition derived from the recorded built-ins, predicate
// patterns and lane helpers (declared in subgroup_fixture.h).
#include "subgroup_fixture.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace lanewise::test::subgroup {

const char *opName(Op op) {
  static const char *names[] = {"add", "mul", "min",         "max",        "and",
                                "or",  "xor", "logical_and", "logical_or", "logical_xor"};
  return names[int(op)];
}

bool isLogical(Op op) { return op >= Op::LogicalAnd; }

std::string show(const Range &r) {
  std::ostringstream s;
  for (size_t d = 0; d < r.global.size(); ++d)
    s << (d ? "x" : "") << r.global[d];
  s << " / ";
  for (size_t d = 0; d < r.local.size(); ++d)
    s << (d ? "x" : "") << r.local[d];
  return s.str();
}

size_t items(const Range &r) {
  size_t n = 1;
  for (size_t g : r.global)
    n *= g;
  return n;
}

const std::vector<Range> kRanges = {
    {{200}, {100}}, {{111}, {37}}, {{128}, {64}}, {{150}, {100}}, {{512}, {32}}};
const std::vector<std::string> kVariants = {"", "-O0"};

std::optional<Partition> derive(const std::vector<cl_uint> &info, const Range &r,
                                std::uint32_t required, const std::string &where) {
  size_t G[3] = {1, 1, 1}, L[3] = {1, 1, 1}, groups[3];
  for (size_t d = 0; d < r.global.size(); ++d) {
    G[d] = r.global[d];
    L[d] = r.local[d];
  }
  for (int d = 0; d < 3; ++d)
    groups[d] = (G[d] + L[d] - 1) / L[d];
  const size_t total = G[0] * G[1] * G[2];
  Partition p;
  p.items.resize(total);
  std::map<std::pair<size_t, size_t>, std::vector<size_t>> members;
  std::ostringstream errors;
  int count = 0;
  auto fail = [&](size_t gid, const std::string &what) {
    if (count++ < 10)
      errors << "\n  work-item " << gid << ": " << what;
  };
  for (size_t gid = 0; gid < total; ++gid) {
    const size_t id[3] = {gid % G[0], gid / G[0] % G[1], gid / (G[0] * G[1])};
    size_t grp[3], lid[3], actual[3];
    for (int d = 0; d < 3; ++d) {
      grp[d] = id[d] / L[d];
      lid[d] = id[d] % L[d];
      actual[d] = std::min(L[d], G[d] - grp[d] * L[d]);
    }
    const size_t localLinear = lid[0] + actual[0] * (lid[1] + actual[1] * lid[2]);
    const size_t groupLinear = grp[0] + groups[0] * (grp[1] + groups[1] * grp[2]);
    const size_t lanes = actual[0] * actual[1] * actual[2], enqueued = L[0] * L[1] * L[2];
    const cl_uint *w = &info[gid * kInfoWords];
    const Item it{w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]};
    p.items[gid] = it;
    std::ostringstream s;
    s << "sub_group_id " << it.sg << ", sub_group_local_id " << it.lane << ", sub_group_size "
      << it.size << ", max_sub_group_size " << it.max << ", num_sub_groups " << it.num
      << ", enqueued_num_sub_groups " << it.enqueued << ", local_linear_id " << it.local
      << ", group " << it.group << " (work-group of " << lanes << "): ";
    if (it.local != localLinear || it.group != groupLinear) {
      fail(gid, s.str() + "wrong local linear id or group id");
      continue;
    }
    if (gid == 0)
      p.max = it.max;
    if (it.max == 0 || it.max != p.max) {
      fail(gid, s.str() + "max sub-group size differs within the dispatch (" +
                    std::to_string(p.max) + ")");
      continue;
    }
    if (required && it.max != required) {
      fail(gid, s.str() + "the kernel requires sub-groups of " + std::to_string(required));
      continue;
    }
    const size_t m = it.max;
    if (size_t(it.sg) * m + it.lane != localLinear || it.lane >= it.size ||
        it.size != std::min(m, lanes - size_t(it.sg) * m) || it.num != (lanes + m - 1) / m ||
        it.enqueued != (enqueued + m - 1) / m) {
      fail(gid, s.str() + "inconsistent");
      continue;
    }
    std::vector<size_t> &list = members[{groupLinear, it.sg}];
    list.resize(it.size, SIZE_MAX);
    if (list[it.lane] != SIZE_MAX)
      fail(gid, s.str() + "same lane as work-item " + std::to_string(list[it.lane]));
    list[it.lane] = gid;
  }
  if (count) {
    ADD_FAILURE() << where << ": " << count << " work-item(s) with wrong sub-group built-ins"
                  << errors.str();
    return std::nullopt;
  }
  for (auto &[key, list] : members)
    p.subgroups.push_back(list);
  return p;
}

std::vector<int> predicates(const Partition &p, Rng &rng, size_t rep) {
  std::vector<int> out(p.items.size());
  for (size_t k = 0; k < p.subgroups.size(); ++k) {
    const auto &sg = p.subgroups[k];
    const size_t one = rng() % sg.size();
    for (size_t l = 0; l < sg.size(); ++l) {
      bool on = false;
      switch ((k + rep) % 7) {
      case 0:
        on = true;
        break;
      case 1:
        on = false;
        break;
      case 2:
        on = l == one;
        break;
      case 3:
        on = l != one;
        break;
      case 4:
        on = rng() % 2;
        break;
      case 5:
        on = l % 2 == 1;
        break;
      case 6:
        on = l % 2 == 0;
        break;
      }
      out[sg[l]] = on ? int(rng() | 1) : 0;
    }
  }
  return out;
}

size_t clampLane(size_t lane, size_t size) { return std::min(lane, size - 1); }

size_t oddLane(size_t lane, size_t size) {
  const size_t l = clampLane(lane, size) | 1;
  return l < size ? l : l - 2;
}

std::vector<bool> oddLanes(size_t size) {
  std::vector<bool> v(size);
  for (size_t l = 0; l < size; ++l)
    v[l] = l % 2;
  return v;
}

std::vector<cl_uint> controls(size_t n, Rng &rng, unsigned maxTrips) {
  std::vector<cl_uint> v(n);
  for (auto &c : v)
    c = cl_uint(rng() % (maxTrips + 1)) | (rng() % 3 == 0 ? 0x100u : 0u);
  return v;
}

std::string where(const std::string &kernel, const std::string &variant, const Range &r) {
  return kernel + (variant.empty() ? " -O2" : " " + variant) + " over " + show(r);
}

} // namespace lanewise::test::subgroup
