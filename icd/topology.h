// SPDX-License-Identifier: Apache-2.0
// The host's processors and the memory subsystems they share, as Linux
// describes them in sysfs: what partitions by affinity domain
// (clCreateSubDevices, CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN) split along.
#pragma once

#include <CL/cl.h>

#include <span>
#include <vector>

namespace lanewise::icd {

// The processors this process may run on (sched_getaffinity), in order.
std::vector<unsigned> allowedProcessors();

// The domains of NUMA, L4, L3, L2 and L1 (one CL_DEVICE_AFFINITY_DOMAIN_*
// bit each) the host describes for every one of `processors`.
cl_device_affinity_domain describedDomains(std::span<const unsigned> processors);

// `processors` grouped by the node or cache of `domain` they share, each
// group in the order of `processors`, the groups in the order of their
// first processor. Empty when the host does not describe `domain` for
// every processor.
std::vector<std::vector<unsigned>> groupsSharing(std::span<const unsigned> processors,
                                                 cl_device_affinity_domain domain);

// The first domain, in the order NUMA, L4, L3, L2, L1, along which
// `processors` fall into more than one group
// (CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE); 0 when none does.
cl_device_affinity_domain nextPartitionableDomain(std::span<const unsigned> processors);

} // namespace lanewise::icd
