// The NDRange scheduler: work-groups on oneTBB workers, warps within them.
#pragma once

#include "runtime/bytecode.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace lanewise::runtime {

struct NDRange {
  std::uint32_t dimensions = 1;
  std::uint64_t offset[3] = {};
  std::uint64_t global[3] = {1, 1, 1};
  std::uint64_t local[3] = {1, 1, 1};
};

// The value of one kernel argument, in the order of KernelCode::arguments.
struct ArgumentValue {
  std::vector<std::byte> bytes; // Value and ByValue: the bytes; GlobalBuffer: the address
  std::uint64_t localSize = 0;  // LocalBuffer
};

// Runs every work-group of `range`; returns when all have finished. Work-groups
// run concurrently on the TBB workers (LANEWISE_THREADS caps their number).
void launch(const KernelCode &code, const NDRange &range, std::span<const ArgumentValue> arguments);

// Worker threads the scheduler uses.
unsigned workerCount();

} // namespace lanewise::runtime
