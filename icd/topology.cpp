// SPDX-License-Identifier: Apache-2.0
#include "icd/topology.h"

#include <sched.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace lanewise::icd {

namespace {

namespace fs = std::filesystem;

constexpr std::array<cl_device_affinity_domain, 5> domainOrder = {
    CL_DEVICE_AFFINITY_DOMAIN_NUMA, CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE,
    CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE,
    CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE};

std::string firstLine(const fs::path &path) {
  std::ifstream file(path);
  std::string line;
  std::getline(file, line);
  return line;
}

// What identifies the node or cache of `domain` that `processor` belongs
// to: the node's number, or the cache's list of sharing processors (its
// shared_cpu_list; the data or unified cache at that level). Nothing when
// sysfs does not say.
std::optional<std::string> domainOf(unsigned processor, cl_device_affinity_domain domain) {
  const fs::path cpu = "/sys/devices/system/cpu/cpu" + std::to_string(processor);
  std::error_code error;
  if (domain == CL_DEVICE_AFFINITY_DOMAIN_NUMA) {
    for (const fs::directory_entry &entry : fs::directory_iterator(cpu, error)) {
      const std::string name = entry.path().filename().string();
      if (name.starts_with("node") && name.size() > 4 &&
          name.find_first_not_of("0123456789", 4) == std::string::npos)
        return name;
    }
    return std::nullopt;
  }
  const int level = domain == CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE   ? 4
                    : domain == CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE ? 3
                    : domain == CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE ? 2
                                                                   : 1;
  for (const fs::directory_entry &entry : fs::directory_iterator(cpu / "cache", error)) {
    if (!entry.path().filename().string().starts_with("index"))
      continue;
    const std::string type = firstLine(entry.path() / "type");
    if (firstLine(entry.path() / "level") == std::to_string(level) &&
        (type == "Data" || type == "Unified")) {
      std::string sharing = firstLine(entry.path() / "shared_cpu_list");
      if (!sharing.empty())
        return sharing;
    }
  }
  return std::nullopt;
}

// domainOf, read from sysfs once per processor and domain.
std::optional<std::string> cachedDomainOf(unsigned processor, cl_device_affinity_domain domain) {
  static std::mutex mutex;
  static std::map<std::pair<unsigned, cl_device_affinity_domain>, std::optional<std::string>> known;
  std::lock_guard lock(mutex);
  auto [at, added] = known.try_emplace({processor, domain});
  if (added)
    at->second = domainOf(processor, domain);
  return at->second;
}

} // namespace

std::vector<unsigned> allowedProcessors() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<unsigned> processors;
  if (sched_getaffinity(0, sizeof set, &set) != 0)
    return processors;
  for (unsigned cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &set))
      processors.push_back(cpu);
  return processors;
}

std::vector<std::vector<unsigned>> groupsSharing(std::span<const unsigned> processors,
                                                 cl_device_affinity_domain domain) {
  std::vector<std::vector<unsigned>> groups;
  std::vector<std::string> keys;
  for (unsigned processor : processors) {
    const std::optional<std::string> key = cachedDomainOf(processor, domain);
    if (!key)
      return {};
    size_t group = 0;
    while (group < keys.size() && keys[group] != *key)
      ++group;
    if (group == keys.size()) {
      keys.push_back(*key);
      groups.emplace_back();
    }
    groups[group].push_back(processor);
  }
  return groups;
}

cl_device_affinity_domain describedDomains(std::span<const unsigned> processors) {
  cl_device_affinity_domain described = 0;
  if (processors.empty())
    return described;
  for (cl_device_affinity_domain domain : domainOrder)
    if (!groupsSharing(processors, domain).empty())
      described |= domain;
  return described;
}

cl_device_affinity_domain nextPartitionableDomain(std::span<const unsigned> processors) {
  for (cl_device_affinity_domain domain : domainOrder)
    if (groupsSharing(processors, domain).size() > 1)
      return domain;
  return 0;
}

} // namespace lanewise::icd
