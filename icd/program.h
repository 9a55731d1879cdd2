// SPDX-License-Identifier: Apache-2.0
// Programs and kernels (OpenCL 3.0 API, 5.8 and 5.9).
#pragma once

#include "icd/memory.h"
#include "runtime/bytecode.h"
#include "runtime/launch.h"
#include "spirv/kernel_arguments.h"
#include "spirv/lower.h"
#include "spirv/module.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

// What a successful build produces, shared by the program's kernels.
struct ProgramExecutable {
  std::shared_ptr<const lanewise::spirv::Module> module;
  struct Kernel {
    std::string name;
    const lanewise::spirv::EntryPoint *entryPoint = nullptr;
    std::shared_ptr<const lanewise::runtime::KernelCode> code;
    // The same kernel lowered for launches whose warps each lie in one row
    // of their work-group or hold whole rows, with global ids below 2^31
    // (runtime::affineIdsHold), with affine ids; null when it would be the
    // same code.
    std::shared_ptr<const lanewise::runtime::KernelCode> rowCode;
    // The same kernel lowered for warps which hold several work-groups of
    // a one-dimensional launch (KernelCode::groupIndependent, or
    // singleItemGroups for work-groups of one work-item;
    // runtime::groupsPerPackedWarp): lowered at the first launch that can
    // use it (ProgramExecutable::packedFor). Null when the kernel's
    // work-groups cannot share a warp.
    struct Packed {
      uint32_t width = 0; // lanes of its warps
      lanewise::spirv::LowerOptions options;
      std::once_flag lowered;
      std::shared_ptr<const lanewise::runtime::KernelCode> code; // null if it failed
    };
    std::shared_ptr<Packed> packed;
    // The code for a launch of `range`.
    const std::shared_ptr<const lanewise::runtime::KernelCode> &
    codeFor(const lanewise::runtime::NDRange &range) const {
      return rowCode && lanewise::runtime::affineIdsHold(rowCode->width, range) ? rowCode : code;
    }
    std::vector<lanewise::spirv::KernelArgument> arguments;
  };
  std::vector<Kernel> kernels;
  // Entry points with the Initializer execution mode (the constructors of
  // C++ for OpenCL program-scope objects): run once at build, in module
  // order, and no kernel of the program (OpenCL 3.0, 5.8.9:
  // CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT).
  size_t initializers = 0;
  // Program-scope variables (global and constant memory): one allocation.
  std::unique_ptr<std::byte[], void (*)(void *)> globals{nullptr, [](void *) {}};
  size_t globalsBytes = 0; // of that allocation
  // Each variable's place in it, for the checked mode.
  struct GlobalVariable {
    size_t offset = 0, size = 0;
    std::string name;
  };
  std::vector<GlobalVariable> globalVariables;
  size_t globalVariableBytes = 0;

  const Kernel *find(std::string_view name) const;
  // The kernel's code for warps of several work-groups of `range`
  // (runtime::groupsPerPackedWarp), lowered now if it is the first
  // launch to use it; null when the launch cannot share warps.
  const lanewise::runtime::KernelCode *packedFor(const Kernel &kernel,
                                                 const lanewise::runtime::NDRange &range) const;

  // What lowering a kernel again needs: the addresses of the program-scope
  // variables, and the specialization constants the program was built with.
  std::unordered_map<uint32_t, uint64_t> globalAddresses;
  lanewise::spirv::SpecializationValues specializations;
};

// A program of a context, associated with all of the context's devices.
// Those are one processor (the root device and its sub-devices), so the
// program has one executable, one build status and one log for all of
// them: a build for any of the devices is a build for each, and a kernel
// runs on a queue of any device of the context.
struct _cl_program : lanewise::icd::Object<_cl_program, lanewise::icd::ObjectKind::Program> {
  enum class Origin { Source, IL, Binary };

  _cl_program(_cl_context *context, Origin origin) : context(context), origin(origin) {}

  lanewise::icd::OwnerRef<_cl_context> context;
  const Origin origin;
  std::string source;           // Origin::Source
  std::string sourceKey;        // its compiler cache key, once compiled
  std::vector<std::byte> il;    // the SPIR-V as given (IL or binary)
  // Origin::Binary: the source and build options the binary was built
  // from, when it keeps them (program binaries of source programs do), for
  // checked rebuilds that name source lines.
  std::string binarySource, binaryOptions;

  std::mutex mutex;
  cl_build_status buildStatus = CL_BUILD_NONE;
  std::string buildOptions;
  std::string buildLog;
  cl_program_binary_type binaryType = CL_PROGRAM_BINARY_TYPE_NONE;
  // The module as loaded at creation, or the loader's diagnostic.
  std::shared_ptr<const lanewise::spirv::Module> loaded;
  std::string loadLog;
  lanewise::spirv::SpecializationValues specializations;
  std::shared_ptr<const ProgramExecutable> executable;
  std::atomic<int> attachedKernels{0};
  // Whether its kernels' work-groups must be uniform (set by each build,
  // compile and link; see requiresUniformWorkGroups).
  bool uniformWorkGroups = false;

  // The executable, or null when the program has not been built.
  std::shared_ptr<const ProgramExecutable> built() {
    std::lock_guard lock(mutex);
    return buildStatus == CL_BUILD_SUCCESS ? executable : nullptr;
  }
};

struct _cl_kernel : lanewise::icd::Object<_cl_kernel, lanewise::icd::ObjectKind::Kernel> {
  _cl_kernel(_cl_program *program, std::shared_ptr<const ProgramExecutable> executable,
             const ProgramExecutable::Kernel *kernel);
  ~_cl_kernel();

  lanewise::icd::OwnerRef<_cl_program> program;
  std::shared_ptr<const ProgramExecutable> executable;
  const ProgramExecutable::Kernel *const info;

  struct Argument {
    bool set = false;
    lanewise::runtime::ArgumentValue value;
    // A buffer argument. Not a reference (OpenCL 3.0, 5.5.5: a memory object
    // is deleted once released and its commands have finished): an
    // enqueued command takes one, after checking the buffer still exists.
    _cl_mem *buffer = nullptr;
  };
  std::mutex mutex;
  std::vector<Argument> arguments;
};

namespace lanewise::icd {
// The build options an OpenCL C or SPIR-V program accepts (OpenCL 3.0, 5.8.6);
// returns the first option it does not know, or an empty string.
std::string unknownBuildOption(const std::string &options);
// Whether a program built or compiled with `options` needs uniform
// work-groups (OpenCL 3.0, clEnqueueNDRangeKernel): one built with
// -cl-uniform-work-group-size, or a source program compiled for OpenCL C
// before 2.0 (the version without -cl-std). A program from IL or a binary
// supports non-uniform ones otherwise; a linked one only if all its
// inputs do.
bool requiresUniformWorkGroups(_cl_program::Origin origin, const std::string &options);
} // namespace lanewise::icd
