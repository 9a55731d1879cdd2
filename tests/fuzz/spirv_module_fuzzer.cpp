// SPDX-License-Identifier: Apache-2.0
// Fuzz target: a SPIR-V module, as clCreateProgramWithIL receives it.
//
// Every input is read, checked, normalised and validated (spirv/loader.h);
// every kernel of a module that loads is lowered for warps in rows (with
// affine values, not run) and with all checks (spirv/lower.h). A kernel that lowers runs one work-item, each global or
// constant pointer argument bound to a buffer of its own, every other
// argument zero, in the checked mode: a wild access must be caught by the
// checks and never reach memory outside the kernel's, so AddressSanitizer
// sees none. The watchdog stops kernels that do not end.
//
// What counts as a bug: a crash, a sanitizer report, an exception other
// than LoadError escaping the build, a build (load and lowering) of over 2 s
// and 40 ms a kilobyte, or a hang.
#include "runtime/launch.h"
#include "spirv/kernel_arguments.h"
#include "spirv/loader.h"
#include "spirv/lower.h"

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <unordered_map>
#include <vector>

namespace {

using namespace lanewise;

constexpr size_t bufferBytes = 256;

// Program-scope variables, laid out and initialised as a program does
// (icd/program.cpp). Empty when the module's initialisers cannot be
// evaluated: that is a build error, not a bug.
struct Globals {
  std::vector<std::byte> memory;
  std::unordered_map<uint32_t, uint64_t> addresses;
  std::vector<runtime::MemoryRange> ranges;
  bool ok = true;
};

Globals layOutGlobals(const spirv::Module &module) {
  Globals globals;
  try {
    const std::vector<spirv::ProgramGlobal> variables = spirv::programGlobals(module);
    std::vector<uint64_t> offsets;
    uint64_t total = 0;
    for (const spirv::ProgramGlobal &variable : variables) {
      const uint64_t alignment = variable.alignment ? variable.alignment : 1;
      total = (total + alignment - 1) / alignment * alignment;
      offsets.push_back(total);
      total += variable.size;
      if (total > (1u << 20))
        return {{}, {}, {}, false}; // larger than a small test needs
    }
    // 128-byte aligned, as the program's allocation is.
    globals.memory.resize(total + 128);
    const uint64_t base =
        (reinterpret_cast<uint64_t>(globals.memory.data()) + 127) / 128 * 128;
    for (size_t i = 0; i < variables.size(); ++i) {
      globals.addresses[variables[i].id] = base + offsets[i];
      globals.ranges.push_back({base + offsets[i], variables[i].size,
                                runtime::CheckSite::Space::Global, "program-scope variable"});
    }
    for (size_t i = 0; i < variables.size(); ++i)
      spirv::initialiseGlobal(module, variables[i], globals.addresses, {},
                              reinterpret_cast<std::byte *>(base + offsets[i]));
  } catch (const spirv::LoadError &) {
    globals.ok = false;
  }
  return globals;
}

// The lowering for warps that lie in rows, with affine values (no checks:
// it is lowered, not run).
void lowerWithAffineValues(const spirv::Module &module, const spirv::EntryPoint &entryPoint,
                           const Globals &globals) {
  spirv::LowerOptions options;
  options.width = 16;
  options.rowWarps = true;
  try {
    spirv::lowerKernel(module, entryPoint, globals.addresses, options);
  } catch (const spirv::LoadError &) {
  }
}

void runOneWorkItem(const spirv::Module &module, const spirv::EntryPoint &entryPoint,
                    const Globals &globals) {
  spirv::LowerOptions options;
  options.width = 16;
  options.checks = runtime::CheckSet::all();
  runtime::KernelCode code;
  std::vector<spirv::KernelArgument> arguments;
  try {
    arguments = spirv::kernelArguments(module, entryPoint);
    code = spirv::lowerKernel(module, entryPoint, globals.addresses, options);
  } catch (const spirv::LoadError &) {
    return; // named in the build log: what the build path must do
  }
  if (arguments.size() != code.arguments.size())
    std::abort(); // the API would bind arguments to the wrong registers

  std::vector<std::vector<std::byte>> buffers;
  std::vector<runtime::ArgumentValue> values(arguments.size());
  std::vector<runtime::MemoryRange> memory = globals.ranges;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const runtime::ArgumentBinding &binding = code.arguments[i];
    runtime::ArgumentValue &value = values[i];
    switch (binding.kind) {
    case runtime::ArgumentBinding::Kind::GlobalBuffer: {
      std::vector<std::byte> &buffer = buffers.emplace_back(bufferBytes, std::byte{0});
      const auto address = reinterpret_cast<uint64_t>(buffer.data());
      value.bytes.resize(8);
      std::memcpy(value.bytes.data(), &address, 8);
      memory.push_back({address, bufferBytes, runtime::CheckSite::Space::Global,
                        "buffer argument " + std::to_string(i)});
      break;
    }
    case runtime::ArgumentBinding::Kind::LocalBuffer:
      value.localSize = bufferBytes;
      break;
    case runtime::ArgumentBinding::Kind::Value:
    case runtime::ArgumentBinding::Kind::ByValue:
      value.bytes.assign(binding.size, std::byte{0});
      break;
    case runtime::ArgumentBinding::Kind::Image: // no image: its accesses do nothing
    case runtime::ArgumentBinding::Kind::Sampler:
      value.bytes.assign(8, std::byte{0});
      break;
    }
  }
  for (size_t i = 0; i < arguments.size(); ++i)
    if (code.arguments[i].kind == runtime::ArgumentBinding::Kind::ByValue)
      memory.push_back({reinterpret_cast<uint64_t>(values[i].bytes.data()),
                        values[i].bytes.size(), runtime::CheckSite::Space::Private,
                        "argument passed by value"});
  runtime::NDRange range;
  if (entryPoint.localSize) // reqd_work_group_size: one work-group of it
    for (int d = 0; d < 3; ++d)
      range.global[d] = range.local[d] = (*entryPoint.localSize)[d];
  if (range.global[0] * range.global[1] * range.global[2] > 256)
    return;
  // The enqueue refuses kernels that declare more memory than the device
  // has (icd/kernel.cpp: CL_OUT_OF_RESOURCES); so does this harness.
  if (code.memory.workgroupBytes > 64 * 1024 || code.memory.privateBytesPerLane > (1u << 20))
    return;
  runtime::launch(code, range, values, std::move(memory));
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  // Findings are the checks doing their work (printed on stderr); a launch
  // stops at its first.
  setenv("LANEWISE_CHECK_ABORT", "1", 1);
  setenv("LANEWISE_TIMEOUT", "0.5", 1);
  setenv("LANEWISE_DETERMINISTIC", "1", 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A build takes time roughly linear in the module's size: a few
  // milliseconds for what a fuzzer makes, seconds for the largest seeds
  // under the sanitizers. More means an algorithm that is not (a fixed
  // point that never settles on some control flow), which the fuzzer's
  // -timeout would only see once it hangs outright. The bound: 2 s, and
  // 40 ms a kilobyte.
  using Clock = std::chrono::steady_clock;
  const auto buildBound = std::chrono::milliseconds(2000 + 40 * size / 1024);
  Clock::time_point start = Clock::now();
  const auto checkBuildTime = [&](const char *stage) {
    if (Clock::now() - start > buildBound) {
      std::fprintf(stderr, "spirv_module_fuzzer: %s took over %lld ms for %zu bytes\n", stage,
                   static_cast<long long>(buildBound.count()), size);
      std::abort();
    }
  };
  const spirv::LoadResult loaded =
      spirv::loadModule(std::span(reinterpret_cast<const std::byte *>(data), size));
  checkBuildTime("loading");
  if (!loaded.ok())
    return 0;
  const spirv::Module &module = *loaded.module;
  const Globals globals = layOutGlobals(module);
  if (!globals.ok)
    return 0;
  for (const spirv::EntryPoint &entryPoint : module.entryPoints)
    if (entryPoint.model == spv::ExecutionModelKernel) {
      start = Clock::now();
      lowerWithAffineValues(module, entryPoint, globals);
      checkBuildTime("lowering");
      runOneWorkItem(module, entryPoint, globals);
    }
  return 0;
}
