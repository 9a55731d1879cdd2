// SPDX-License-Identifier: Apache-2.0
#include "icd/program.h"

#include "icd/api.h"
#include "runtime/json.h"
#include "runtime/trace.h"
#include "spirv/errors.h"
#include "spirv/compiler.h"
#include "spirv/linker.h"
#include "spirv/loader.h"
#include "spirv/module_note.h"

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string_view>
#include <system_error>
#include <thread>

using namespace lanewise;
using namespace lanewise::icd;

const lanewise::runtime::KernelCode *
ProgramExecutable::packedFor(const Kernel &kernel, const lanewise::runtime::NDRange &range) const {
  Kernel::Packed *packed = kernel.packed.get();
  // The usual code's flags are the packed code's: it is the same kernel.
  if (!packed || !lanewise::runtime::groupsPerPackedWarp(*kernel.code, range, packed->width))
    return nullptr;
  std::call_once(packed->lowered, [&] {
    try {
      auto code = std::make_shared<const lanewise::runtime::KernelCode>(lanewise::spirv::lowerKernel(
          *module, *kernel.entryPoint, globalAddresses, packed->options));
      if (packed->options.singleItemGroups ? code->singleItemGroups : code->groupIndependent)
        packed->code = std::move(code);
    } catch (const lanewise::spirv::LoadError &) {
      // The kernel's usual code runs its launches.
    }
  });
  return packed->code.get();
}

const ProgramExecutable::Kernel *ProgramExecutable::find(std::string_view name) const {
  for (const Kernel &kernel : kernels)
    if (kernel.name == name)
      return &kernel;
  return nullptr;
}

namespace lanewise::icd {

bool requiresUniformWorkGroups(_cl_program::Origin origin, const std::string &options) {
  bool beforeTwo = origin == _cl_program::Origin::Source; // OpenCL C 1.2 without -cl-std
  std::istringstream words(options);
  for (std::string word; words >> word;) {
    if (word == "-cl-uniform-work-group-size")
      return true;
    if (word.starts_with("-cl-std=") && origin == _cl_program::Origin::Source) {
      std::string version = word.substr(8);
      for (char &c : version)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      beforeTwo = version.starts_with("CL1.");
    }
  }
  return beforeTwo;
}

std::string unknownBuildOption(const std::string &options) {
  // The same reading of the options as the compiler's (quotes included).
  return spirv::translateBuildOptions(options, spirv::CompilerTarget{}).unknown;
}

} // namespace lanewise::icd

namespace {

// Loads the SPIR-V of a program at creation: a malformed binary is refused
// then; an invalid one is remembered and fails the build.
cl_int loadIL(_cl_program &program, bool library = false) {
  spirv::LoadResult result =
      spirv::loadModule(std::span<const std::byte>(program.il), {.library = library});
  if (result.ok()) {
    program.loaded = std::make_shared<const spirv::Module>(std::move(*result.module));
    return CL_SUCCESS;
  }
  if (result.error == spirv::LoadErrorKind::Malformed)
    return CL_INVALID_VALUE;
  program.loadLog = result.log;
  return CL_SUCCESS;
}

std::shared_ptr<ProgramExecutable::Kernel::Packed>
packedLowering(const spirv::LowerOptions &options, uint32_t width, bool singleItemGroups) {
  auto packed = std::make_shared<ProgramExecutable::Kernel::Packed>();
  packed->width = width;
  packed->options = options;
  packed->options.width = width;
  packed->options.groupsShareWarps = true;
  packed->options.singleItemGroups = singleItemGroups;
  return packed;
}

// How the kernel would be lowered for warps that hold several of its
// work-groups (runtime::groupsPerPackedWarp). When `code` is
// group-independent: eight times its width, at most 1,024 lanes and
// 128 KiB of registers per warp, so that a warp's registers stay in the
// processor's second-level cache with room to spare for the memory its
// handlers stream through (a 4 x 4 transpose, 202 bytes of registers a
// lane, ran 20-25% faster in warps of 512 lanes than of 1,024). Else, if
// its work-groups of one work-item each may share a warp
// (KernelCode::singleItemGroups): its width, or less if each lane's
// private memory, which then holds its __local variables too, would
// exceed 1 MiB per warp. The lowering itself
// waits for the first launch that can use it (ProgramExecutable::packedFor).
std::shared_ptr<ProgramExecutable::Kernel::Packed> packedPlan(const spirv::LowerOptions &options,
                                                              const runtime::KernelCode &code) {
  if (!code.groupIndependent) {
    if (!code.singleItemGroups)
      return nullptr;
    constexpr uint64_t privateBudget = 1024 * 1024;
    const uint64_t bytesPerLane =
        uint64_t(code.memory.privateBytesPerLane) + code.memory.workgroupBytes;
    uint32_t width = code.width;
    while (width > 16 && width * bytesPerLane > privateBudget)
      width /= 2;
    if (width * bytesPerLane > privateBudget)
      return nullptr;
    return packedLowering(options, width, true);
  }
  constexpr uint64_t registerBudget = 128 * 1024;
  const uint64_t bytesPerLane = std::max<uint64_t>(1, code.registerBytes / code.width);
  uint32_t width = std::min<uint32_t>(1024, 8 * code.width);
  while (width > 2 * code.width && width * bytesPerLane > registerBudget)
    width /= 2;
  if (width * bytesPerLane > registerBudget)
    return nullptr;
  return packedLowering(options, width, false);
}

// Lowers every kernel of the module and lays out its program-scope variables.
std::shared_ptr<ProgramExecutable> buildExecutable(const _cl_program &program, std::string &log) {
  auto executable = std::make_shared<ProgramExecutable>();
  executable->module = program.loaded;
  const spirv::Module &module = *program.loaded;

  std::vector<spirv::ProgramGlobal> globals;
  try {
    globals = spirv::programGlobals(module);
  } catch (const spirv::LoadError &error) {
    log += std::string("error: ") + error.what() + "\n";
    return nullptr;
  }
  // CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE: the largest allocation, for each
  // program-scope variable of the global address space.
  for (const spirv::ProgramGlobal &global : globals)
    if (global.storageClass == spv::StorageClassCrossWorkgroup &&
        global.size > theDevice()->maxAllocSize) {
      auto name = module.names.find(global.id);
      log += "error: program-scope variable '" +
             (name != module.names.end() && !name->second.empty()
                  ? name->second
                  : "%" + std::to_string(global.id)) +
             "' needs " + std::to_string(global.size) +
             " bytes, more than the device's CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE (" +
             std::to_string(theDevice()->maxAllocSize) + ")\n";
      return nullptr;
    }
  const runtime::CheckSet checks =
      runtime::CheckSet::fromEnvironment() |
      spirv::translateBuildOptions(program.buildOptions, spirv::CompilerTarget{}).checks;
  // Under the bounds check, a red zone follows each variable.
  const size_t redZone = checks.has(runtime::Check::Bounds) ? 64 : 0;
  size_t total = 0;
  std::vector<size_t> offsets;
  for (const spirv::ProgramGlobal &global : globals) {
    total = (total + global.alignment - 1) / global.alignment * global.alignment;
    offsets.push_back(total);
    auto name = module.names.find(global.id);
    executable->globalVariables.push_back(
        {total, global.size,
         name != module.names.end() && !name->second.empty() ? name->second
                                                             : "%" + std::to_string(global.id)});
    total += global.size + redZone;
  }
  std::unordered_map<uint32_t, uint64_t> &addresses = executable->globalAddresses;
  if (total) {
    const size_t rounded = (total + 127) / 128 * 128;
    auto *memory = static_cast<std::byte *>(std::aligned_alloc(128, rounded));
    if (!memory)
      throw std::bad_alloc();
    executable->globals = {memory, std::free};
    executable->globalsBytes = total;
    for (size_t i = 0; i < globals.size(); ++i)
      addresses[globals[i].id] = reinterpret_cast<uint64_t>(memory + offsets[i]);
    try {
      for (size_t i = 0; i < globals.size(); ++i) {
        spirv::initialiseGlobal(module, globals[i], addresses, program.specializations,
                                memory + offsets[i]);
        if (globals[i].storageClass == spv::StorageClassCrossWorkgroup)
          executable->globalVariableBytes += globals[i].size;
      }
    } catch (const spirv::LoadError &error) {
      log += std::string("error: ") + error.what() + "\n";
      return nullptr;
    }
  }

  spirv::LowerOptions options;
  if (const char *width = std::getenv("LANEWISE_WARP_WIDTH")) {
    const long value = std::strtol(width, nullptr, 10);
    if (value >= 1 && value <= 1024)
      options.width = static_cast<uint32_t>(value);
  }
  executable->specializations = program.specializations;
  options.specializations = &executable->specializations;
  options.checks = checks;
  if (checks.any() && !program.sourceKey.empty()) {
    std::string kernels;
    for (const spirv::EntryPoint &entryPoint : module.entryPoints)
      if (entryPoint.model == spv::ExecutionModelKernel)
        kernels += (kernels.empty() ? "" : ", ") + entryPoint.name;
    options.programLabel = "program " + program.sourceKey.substr(0, 8) + " (kernel" +
                           (kernels.find(',') == std::string::npos ? " " : "s ") + kernels + ")";
  }
  bool failed = false;
  auto hasMode = [](const spirv::EntryPoint &entryPoint, spv::ExecutionMode mode) {
    return std::any_of(entryPoint.modes.begin(), entryPoint.modes.end(),
                       [&](const spirv::ExecutionModeInfo &m) { return m.mode == mode; });
  };
  std::vector<std::shared_ptr<const runtime::KernelCode>> initializers;
  for (const spirv::EntryPoint &entryPoint : module.entryPoints) {
    if (entryPoint.model != spv::ExecutionModelKernel)
      continue;
    if (hasMode(entryPoint, spv::ExecutionModeFinalizer)) {
      log += "error: entry point '" + entryPoint.name +
             "' is a Finalizer (the destructors of program-scope objects), which Lanewise does "
             "not run\n";
      failed = true;
      continue;
    }
    if (hasMode(entryPoint, spv::ExecutionModeInitializer)) {
      try {
        initializers.push_back(std::make_shared<const runtime::KernelCode>(
            spirv::lowerKernel(module, entryPoint, addresses, options)));
      } catch (const spirv::LoadError &error) {
        log += std::string("error: ") + error.what() + "\n";
        failed = true;
      }
      continue;
    }
    try {
      ProgramExecutable::Kernel kernel;
      kernel.name = entryPoint.name;
      kernel.entryPoint = &entryPoint;
      kernel.arguments = spirv::kernelArguments(module, entryPoint);
      spirv::LowerOptions rows = options;
      rows.rowWarps = true;
      auto code = std::make_shared<const runtime::KernelCode>(
          spirv::lowerKernel(module, entryPoint, addresses, rows));
      if (code->rowWarps) {
        kernel.rowCode = std::move(code);
        code = std::make_shared<const runtime::KernelCode>(
            spirv::lowerKernel(module, entryPoint, addresses, options));
      }
      kernel.code = std::move(code);
      kernel.packed = packedPlan(rows, *kernel.code);
      executable->kernels.push_back(std::move(kernel));
    } catch (const spirv::LoadError &error) {
      log += std::string("error: ") + error.what() + "\n";
      failed = true;
    }
  }
  if (failed)
    return nullptr;
  // The constructors of program-scope objects, once, before any kernel of
  // the program runs: one work-item each, in module order.
  for (const auto &code : initializers) {
    std::vector<runtime::MemoryRange> memory;
    const auto base = reinterpret_cast<std::uint64_t>(executable->globals.get());
    for (const ProgramExecutable::GlobalVariable &variable : executable->globalVariables)
      memory.push_back({base + variable.offset, variable.size, runtime::CheckSite::Space::Global,
                        "program-scope variable '" + variable.name + "'"});
    runtime::NDRange one;
    if (runtime::launch(*code, one, {}, std::move(memory)) != runtime::LaunchResult::Completed) {
      log += "error: the constructor of a program-scope object ('" + code->name +
             "') did not complete\n";
      return nullptr;
    }
  }
  executable->initializers = initializers.size();
  return executable;
}

// OpenCL C extensions and features the device offers kernels, for clang.
spirv::CompilerTarget compilerTarget(const _cl_device_id &device) {
  spirv::CompilerTarget target;
  for (const cl_name_version &extension : device.extensions()) {
    const std::string name = extension.name;
    if (name == "cl_khr_icd" || name == "cl_khr_extended_versioning" ||
        name == "cl_khr_il_program" || name == "cl_ext_cxx_for_opencl" ||
        name == "cl_khr_spirv_no_integer_wrap_decoration" || name == "cl_khr_spirv_linkonce_odr")
      continue;
    // clang-14 does not know the Intel sub-group extensions: its header
    // declares their built-ins when their macros are defined.
    if (name.rfind("cl_intel_", 0) == 0)
      target.macros.push_back(name);
    else
      target.extensions.push_back(name);
  }
  for (const cl_name_version &feature : device.openclCFeatures()) {
    // clang-14 does not know __opencl_c_fp16 (its half type follows
    // cl_khr_fp16): the macro is defined for kernels, as OpenCL C 3.0, 6.2.1
    // requires of a feature the device reports.
    if (std::string_view(feature.name) == "__opencl_c_fp16")
      target.macros.push_back(feature.name);
    else
      target.extensions.push_back(feature.name);
  }
  // OpenCL C 3.0, 6.12: __OPENCL_VERSION__ is the version of OpenCL the
  // device supports (300 for OpenCL 3.0); clang-14 does not define it for
  // SPIR targets.
  const cl_version version = device.version();
  target.macros.push_back("__OPENCL_VERSION__=" + std::to_string(CL_VERSION_MAJOR(version) * 100 +
                                                                 CL_VERSION_MINOR(version) * 10));
  return target;
}

// Compiles a source program to SPIR-V and loads it (program mutex held).
// The compiler's diagnostics become the build log.
cl_int compileSource(_cl_program &program, const std::string &options,
                     std::vector<std::pair<std::string, std::string>> headers, bool object) {
  spirv::CompileRequest request;
  request.source =
      program.origin == _cl_program::Origin::Binary ? program.binarySource : program.source;
  request.options = options;
  request.headers = std::move(headers);
  request.target = compilerTarget(*program.context->device);
  spirv::CompileResult compiled = spirv::compileOpenCLC(request);
  program.buildLog = compiled.log;
  program.sourceKey = compiled.key;
  switch (compiled.status) {
  case spirv::CompileResult::Status::InvalidOptions:
    return CL_INVALID_BUILD_OPTIONS;
  case spirv::CompileResult::Status::CompilerNotAvailable:
    return CL_COMPILER_NOT_AVAILABLE;
  case spirv::CompileResult::Status::Failure:
    return CL_BUILD_PROGRAM_FAILURE;
  case spirv::CompileResult::Status::Success:
    break;
  }
  const auto *bytes = reinterpret_cast<const std::byte *>(compiled.spirv.data());
  program.il.assign(bytes, bytes + compiled.spirv.size() * 4);
  program.loaded.reset();
  program.loadLog.clear();
  // A compiled object may import what another object defines.
  if (loadIL(program, object) != CL_SUCCESS || !program.loaded) {
    program.buildLog += program.loadLog.empty() ? "error: the compiled module is malformed\n"
                                                : program.loadLog;
    return CL_BUILD_PROGRAM_FAILURE;
  }
  return CL_SUCCESS;
}

constexpr std::string_view notePrefix = "Lanewise: ";
constexpr std::string_view compiledObjectNote = "Lanewise: compiled object";
constexpr std::string_view libraryNote = "Lanewise: library";
// An executable built from source keeps its options and source, so that a
// checked build of the binary can rebuild it with source lines (the source
// in pieces: an instruction holds at most 65535 words).
constexpr std::string_view optionsNote = "Lanewise: build options ";
constexpr std::string_view sourceNote = "Lanewise: source ";
constexpr size_t sourcePieceBytes = 60000;

// The program binary: the SPIR-V module as loaded (normalised and
// validated, so that any SPIR-V consumer takes it), with a note for compiled
// objects and libraries so that they come back as what they were. Notes that
// came with the module (a library linked from an object loaded from its
// binary) go.
std::vector<std::byte> programBinary(_cl_program &program) {
  std::lock_guard lock(program.mutex);
  std::vector<uint32_t> words;
  if (program.loaded && !program.loaded->words.empty()) {
    words = program.loaded->words;
  } else {
    if (program.il.empty() || program.il.size() % 4)
      return program.il;
    words.resize(program.il.size() / 4);
    std::memcpy(words.data(), program.il.data(), program.il.size());
  }
  words = spirv::withoutModuleNotes(words, notePrefix);
  if (program.binaryType == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT)
    words = spirv::withModuleNote(words, compiledObjectNote);
  else if (program.binaryType == CL_PROGRAM_BINARY_TYPE_LIBRARY)
    words = spirv::withModuleNote(words, libraryNote);
  const bool fromBinary = program.origin == _cl_program::Origin::Binary;
  const std::string &source = fromBinary ? program.binarySource : program.source;
  if (program.binaryType == CL_PROGRAM_BINARY_TYPE_EXECUTABLE && !source.empty() &&
      source.find('\0') == std::string::npos) {
    // The options without the checks: a binary of a checked build is not
    // checked when loaded, unless asked to be.
    std::string options = fromBinary ? program.binaryOptions : program.buildOptions;
    if (options.find("-lanewise-check") != std::string::npos) {
      std::istringstream stream(options);
      options.clear();
      for (std::string word; stream >> word;)
        if (!word.starts_with("-lanewise-check"))
          options += (options.empty() ? "" : " ") + word;
    }
    words = spirv::withModuleNote(words, std::string(optionsNote) + options);
    for (size_t at = 0; at < source.size(); at += sourcePieceBytes)
      words = spirv::withModuleNote(words, std::string(sourceNote) +
                                               source.substr(at, sourcePieceBytes));
  }
  const auto *bytes = reinterpret_cast<const std::byte *>(words.data());
  return {bytes, bytes + words.size() * 4};
}

// Builds the program for its device: compiles a source program, lowers
// every kernel. The program's mutex is held for the whole build.
cl_int buildProgram(_cl_program &program, const std::string &optionText) {
  runtime::trace::Scope traced("build", "clBuildProgram");
  if (runtime::trace::enabled())
    traced.args = "\"options\":" + runtime::jsonString(optionText);
  cl_int result = CL_SUCCESS;
  std::lock_guard lock(program.mutex);
  program.buildOptions = optionText;
  // A binary of a source program keeps the options it was compiled with.
  program.uniformWorkGroups =
      requiresUniformWorkGroups(program.origin, optionText) ||
      (program.origin == _cl_program::Origin::Binary && !program.binarySource.empty() &&
       requiresUniformWorkGroups(_cl_program::Origin::Source, program.binaryOptions));
  program.buildLog.clear();
  // A checked build of a binary that keeps its source is rebuilt from it,
  // so that findings name source lines whatever the application caches.
  if (program.origin == _cl_program::Origin::Binary && !program.binarySource.empty() &&
      (runtime::CheckSet::fromEnvironment() |
       spirv::translateBuildOptions(optionText, spirv::CompilerTarget{}).checks)
          .any()) {
    const std::vector<std::byte> il = program.il;
    const auto loaded = program.loaded;
    if (compileSource(program, program.binaryOptions + " " + optionText, {}, false) !=
        CL_SUCCESS) {
      const std::string log = program.buildLog;
      program.il = il;
      program.loaded = loaded;
      program.buildLog = "warning: the checked rebuild from the source this binary keeps failed; "
                         "the binary is checked as it is, without source lines:\n" +
                         log;
    }
  }
  if (program.origin == _cl_program::Origin::Source &&
      (result = compileSource(program, optionText, {}, false)) != CL_SUCCESS) {
    program.buildStatus = CL_BUILD_ERROR;
  } else if (!program.loaded) {
    program.buildLog = program.loadLog;
    program.buildStatus = CL_BUILD_ERROR;
    result = CL_BUILD_PROGRAM_FAILURE;
  } else {
    try {
      std::string log;
      auto executable = buildExecutable(program, log);
      program.buildLog += log;
      if (executable) {
        program.executable = std::move(executable);
        program.buildStatus = CL_BUILD_SUCCESS;
        program.binaryType = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
      } else {
        program.buildStatus = CL_BUILD_ERROR;
        result = CL_BUILD_PROGRAM_FAILURE;
      }
    } catch (const spirv::LoadError &error) {
      program.buildLog += std::string("error: ") + error.what() + "\n";
      program.buildStatus = CL_BUILD_ERROR;
      result = CL_BUILD_PROGRAM_FAILURE;
    } catch (const std::bad_alloc &) {
      program.buildStatus = CL_BUILD_ERROR;
      result = CL_OUT_OF_HOST_MEMORY;
    }
  }
  return result;
}

// clCompileProgram of a program created from IL (OpenCL 3.0, 5.8.5): the
// module becomes a compiled object, whose imports another object may define
// at link time; headers are ignored.
cl_int compileIL(_cl_program &program, const std::string &options,
                 void(CL_CALLBACK *notify)(cl_program, void *), void *userData) {
  cl_int result = CL_SUCCESS;
  {
    std::lock_guard lock(program.mutex);
    program.buildOptions = options;
    program.uniformWorkGroups = requiresUniformWorkGroups(program.origin, options);
    program.buildLog.clear();
    program.executable.reset();
    if (std::string unknown = unknownBuildOption(options); !unknown.empty()) {
      program.buildLog = "error: unknown compiler option '" + unknown + "'\n";
      result = CL_INVALID_COMPILER_OPTIONS;
    } else {
      program.loaded.reset();
      program.loadLog.clear();
      if (loadIL(program, true) != CL_SUCCESS || !program.loaded) {
        program.buildLog = program.loadLog;
        result = CL_COMPILE_PROGRAM_FAILURE;
      }
    }
    program.buildStatus = result == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
    program.binaryType =
        result == CL_SUCCESS ? CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT : CL_PROGRAM_BINARY_TYPE_NONE;
  }
  if (notify)
    notify(&program, userData);
  return result;
}

// The device list of `entryPoint` (clBuildProgram and the like): its count
// and pointer agree and it names the context's device.
cl_int checkDevices(const char *entryPoint, const _cl_context &context, cl_uint numDevices,
                    const cl_device_id *devices) {
  const std::string name = entryPoint;
  if ((numDevices == 0) != (devices == nullptr))
    return fail(context, CL_INVALID_VALUE,
                name + ": num_devices is " + std::to_string(numDevices) + " but device_list is " +
                    (devices ? "not NULL" : "NULL"));
  for (cl_uint i = 0; i < numDevices; ++i)
    if (!isValid(devices[i]) || !context.hasDevice(devices[i]))
      return fail(context, CL_INVALID_DEVICE,
                  name + ": device_list[" + std::to_string(i) +
                      "] is not one of the context's devices");
  return CL_SUCCESS;
}

// The errcode_ret of a call that creates a program, and its NULL result.
cl_program failed(cl_int *errcodeReturn, cl_int error) {
  setError(errcodeReturn, error);
  return nullptr;
}

} // namespace

namespace lanewise::icd::api {

cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count,
                                                 const char **strings, const size_t *lengths,
                                                 cl_int *errcodeReturn) {
  if (!isValid(context)) {
    setError(errcodeReturn, CL_INVALID_CONTEXT);
    return nullptr;
  }
  if (count == 0 || !strings)
    return failed(errcodeReturn, fail(*context, CL_INVALID_VALUE,
                                      "clCreateProgramWithSource: count is 0 or strings is NULL"));
  std::string source;
  for (cl_uint i = 0; i < count; ++i) {
    if (!strings[i])
      return failed(errcodeReturn,
                    fail(*context, CL_INVALID_VALUE,
                         "clCreateProgramWithSource: strings[" + std::to_string(i) + "] is NULL"));
    source += lengths && lengths[i] ? std::string(strings[i], lengths[i]) : std::string(strings[i]);
  }
  auto *program = new _cl_program(context, _cl_program::Origin::Source);
  program->source = std::move(source);
  setError(errcodeReturn, CL_SUCCESS);
  return program;
}

cl_program CL_API_CALL clCreateProgramWithIL(cl_context context, const void *il, size_t length,
                                             cl_int *errcodeReturn) {
  if (!isValid(context)) {
    setError(errcodeReturn, CL_INVALID_CONTEXT);
    return nullptr;
  }
  if (!il || length == 0)
    return failed(errcodeReturn, fail(*context, CL_INVALID_VALUE,
                                      "clCreateProgramWithIL: il is NULL or length is 0"));
  auto *program = new _cl_program(context, _cl_program::Origin::IL);
  const auto *bytes = static_cast<const std::byte *>(il);
  program->il.assign(bytes, bytes + length);
  if (cl_int error = loadIL(*program); error != CL_SUCCESS) {
    program->release();
    return failed(errcodeReturn, fail(*context, error,
                                      "clCreateProgramWithIL: il is not a well-formed SPIR-V "
                                      "module of " +
                                          std::to_string(length) + " bytes"));
  }
  setError(errcodeReturn, CL_SUCCESS);
  return program;
}

cl_program CL_API_CALL clCreateProgramWithBinary(cl_context context, cl_uint numDevices,
                                                 const cl_device_id *devices,
                                                 const size_t *lengths,
                                                 const unsigned char **binaries,
                                                 cl_int *binaryStatus, cl_int *errcodeReturn) {
  if (!isValid(context)) {
    setError(errcodeReturn, CL_INVALID_CONTEXT);
    return nullptr;
  }
  if (numDevices == 0 || !devices)
    return failed(errcodeReturn,
                  fail(*context, CL_INVALID_VALUE,
                       "clCreateProgramWithBinary: num_devices is 0 or device_list is NULL"));
  if (cl_int error = checkDevices("clCreateProgramWithBinary", *context, numDevices, devices);
      error != CL_SUCCESS)
    return failed(errcodeReturn, error);
  if (!lengths || !binaries)
    return failed(errcodeReturn, fail(*context, CL_INVALID_VALUE,
                                      "clCreateProgramWithBinary: lengths or binaries is NULL"));
  for (cl_uint i = 0; i < numDevices; ++i)
    if (!binaries[i] || lengths[i] == 0) {
      if (binaryStatus)
        binaryStatus[i] = CL_INVALID_VALUE;
      const std::string index = "[" + std::to_string(i) + "]";
      return failed(errcodeReturn, fail(*context, CL_INVALID_VALUE,
                                        "clCreateProgramWithBinary: binaries" + index +
                                            " is NULL or lengths" + index + " is 0"));
    }
  // The devices of a context share one executable (icd/program.h): their
  // binaries must be one.
  for (cl_uint i = 1; i < numDevices; ++i)
    if (lengths[i] != lengths[0] || std::memcmp(binaries[i], binaries[0], lengths[0]) != 0) {
      if (binaryStatus)
        binaryStatus[i] = CL_INVALID_BINARY;
      return failed(errcodeReturn,
                    fail(*context, CL_INVALID_BINARY,
                         "clCreateProgramWithBinary: binaries[" + std::to_string(i) +
                             "] differs from binaries[0]; the devices of a Lanewise context "
                             "share one program executable"));
    }
  // A program binary of Lanewise is its SPIR-V module; compiled objects and
  // libraries carry a note that says so (program binaries, below).
  auto *program = new _cl_program(context, _cl_program::Origin::Binary);
  const auto *bytes = reinterpret_cast<const std::byte *>(binaries[0]);
  program->il.assign(bytes, bytes + lengths[0]);
  program->binaryType = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
  if (lengths[0] % 4 == 0) {
    std::vector<uint32_t> words(lengths[0] / 4);
    std::memcpy(words.data(), binaries[0], lengths[0]);
    if (spirv::hasModuleNote(words, compiledObjectNote))
      program->binaryType = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
    else if (spirv::hasModuleNote(words, libraryNote))
      program->binaryType = CL_PROGRAM_BINARY_TYPE_LIBRARY;
  }
  const bool object = program->binaryType != CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
  if (cl_int error = loadIL(*program, object); error != CL_SUCCESS || (object && !program->loaded)) {
    if (binaryStatus)
      std::fill(binaryStatus, binaryStatus + numDevices, CL_INVALID_BINARY);
    program->release();
    return failed(errcodeReturn,
                  fail(*context, CL_INVALID_BINARY,
                       "clCreateProgramWithBinary: binaries[0] is not a program binary of "
                       "Lanewise (a SPIR-V module)"));
  }
  if (object)
    program->buildStatus = CL_BUILD_SUCCESS; // ready to be linked
  if (lengths[0] % 4 == 0 && !object) {
    std::vector<uint32_t> words(lengths[0] / 4);
    std::memcpy(words.data(), binaries[0], lengths[0]);
    for (const std::string &piece : spirv::moduleNotes(words, sourceNote))
      program->binarySource += piece;
    if (auto options = spirv::moduleNotes(words, optionsNote); !options.empty())
      program->binaryOptions = options.front();
  }
  if (binaryStatus)
    std::fill(binaryStatus, binaryStatus + numDevices, CL_SUCCESS);
  setError(errcodeReturn, CL_SUCCESS);
  return program;
}

cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(cl_context context, cl_uint numDevices,
                                                         const cl_device_id *devices,
                                                         const char *names,
                                                         cl_int *errcodeReturn) {
  if (!isValid(context)) {
    setError(errcodeReturn, CL_INVALID_CONTEXT);
    return nullptr;
  }
  if (numDevices == 0 || !devices)
    return failed(errcodeReturn,
                  fail(*context, CL_INVALID_VALUE,
                       "clCreateProgramWithBuiltInKernels: num_devices is 0 or device_list is "
                       "NULL"));
  // The device has no built-in kernels (CL_DEVICE_BUILT_IN_KERNELS is empty).
  return failed(errcodeReturn,
                fail(*context, CL_INVALID_VALUE,
                     std::string("clCreateProgramWithBuiltInKernels: ") +
                         (names ? "the device has no built-in kernel '" + std::string(names) + "'"
                                : "kernel_names is NULL")));
}

cl_int CL_API_CALL clRetainProgram(cl_program program) {
  if (!isValid(program))
    return CL_INVALID_PROGRAM;
  return program->retain() ? CL_SUCCESS : CL_INVALID_PROGRAM;
}

cl_int CL_API_CALL clReleaseProgram(cl_program program) {
  if (!isValid(program))
    return CL_INVALID_PROGRAM;
  return program->release() ? CL_SUCCESS : CL_INVALID_PROGRAM;
}

cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint numDevices,
                                  const cl_device_id *devices, const char *options,
                                  void(CL_CALLBACK *notify)(cl_program, void *),
                                  void *userData) {
  if (!isValid(program))
    return CL_INVALID_PROGRAM;
  const _cl_context &context = *program->context;
  if (cl_int error = checkDevices("clBuildProgram", context, numDevices, devices);
      error != CL_SUCCESS)
    return error;
  if (!notify && userData)
    return fail(context, CL_INVALID_VALUE, "clBuildProgram: user_data without pfn_notify");
  if (program->attachedKernels > 0)
    return fail(context, CL_INVALID_OPERATION,
                "clBuildProgram: the program has kernels (release them first)");
  const std::string optionText = options ? options : "";
  if (std::string unknown = unknownBuildOption(optionText); !unknown.empty()) {
    {
      std::lock_guard lock(program->mutex);
      program->buildOptions = optionText;
      program->buildLog = "error: unknown build option '" + unknown + "'\n";
      program->buildStatus = CL_BUILD_ERROR;
    }
    if (notify)
      notify(program, userData);
    return fail(context, CL_INVALID_BUILD_OPTIONS,
                "clBuildProgram: unknown build option '" + unknown + "'");
  }
  if (!notify) {
    const cl_int result = buildProgram(*program, optionText);
    if (result != CL_SUCCESS)
      return fail(context, result, "clBuildProgram: the build failed (see CL_PROGRAM_BUILD_LOG)");
    return result;
  }
  // With a callback, the build runs on a thread of its own and clBuildProgram
  // returns at once (OpenCL 3.0, 5.8.3): programs build in parallel. The
  // thread holds the program until the callback has returned.
  {
    std::lock_guard lock(program->mutex);
    if (program->buildStatus == CL_BUILD_IN_PROGRESS)
      return fail(context, CL_INVALID_OPERATION,
                  "clBuildProgram: a build of the program is in progress");
    program->buildStatus = CL_BUILD_IN_PROGRESS;
  }
  try {
    std::thread([owned = OwnerRef<_cl_program>(program), optionText, notify, userData] {
      buildProgram(*owned.get(), optionText);
      notify(owned.get(), userData);
    }).detach();
  } catch (const std::system_error &) {
    buildProgram(*program, optionText); // no thread to be had: build here
    notify(program, userData);
  }
  return CL_SUCCESS;
}

cl_int CL_API_CALL clCompileProgram(cl_program program, cl_uint numDevices,
                                    const cl_device_id *devices, const char *options,
                                    cl_uint numHeaders, const cl_program *headers,
                                    const char **headerNames,
                                    void(CL_CALLBACK *notify)(cl_program, void *),
                                    void *userData) {
  if (!isValid(program))
    return CL_INVALID_PROGRAM;
  const _cl_context &context = *program->context;
  if (cl_int error = checkDevices("clCompileProgram", context, numDevices, devices);
      error != CL_SUCCESS)
    return error;
  if (!notify && userData)
    return fail(context, CL_INVALID_VALUE, "clCompileProgram: user_data without pfn_notify");
  if ((numHeaders == 0) != (headers == nullptr) || (numHeaders == 0) != (headerNames == nullptr))
    return fail(context, CL_INVALID_VALUE,
                "clCompileProgram: num_input_headers is " + std::to_string(numHeaders) +
                    " but input_headers or header_include_names disagree");
  if (program->origin == _cl_program::Origin::Binary)
    return fail(context, CL_INVALID_OPERATION,
                "clCompileProgram: the program was created from a binary, it has no source or IL");
  if (program->attachedKernels > 0)
    return fail(context, CL_INVALID_OPERATION,
                "clCompileProgram: the program has kernels (release them first)");
  if (program->origin == _cl_program::Origin::IL) {
    const cl_int result = compileIL(*program, options ? options : "", notify, userData);
    if (result != CL_SUCCESS)
      return fail(context, result,
                  "clCompileProgram: the compilation failed (see CL_PROGRAM_BUILD_LOG)");
    return result;
  }
  std::vector<std::pair<std::string, std::string>> embedded;
  for (cl_uint i = 0; i < numHeaders; ++i) {
    if (!isValid(headers[i]) || !headerNames[i])
      return fail(context, CL_INVALID_VALUE,
                  "clCompileProgram: input_headers[" + std::to_string(i) +
                      "] is not a valid program or its name is NULL");
    embedded.emplace_back(headerNames[i], headers[i]->source);
  }
  const std::string optionText = options ? options : "";
  runtime::trace::Scope traced("build", "clCompileProgram");
  if (runtime::trace::enabled())
    traced.args = "\"options\":" + runtime::jsonString(optionText);
  cl_int result;
  {
    std::lock_guard lock(program->mutex);
    program->buildOptions = optionText;
    program->uniformWorkGroups = requiresUniformWorkGroups(program->origin, optionText);
    program->executable.reset();
    result = compileSource(*program, optionText, std::move(embedded), true);
    if (result == CL_BUILD_PROGRAM_FAILURE)
      result = CL_COMPILE_PROGRAM_FAILURE;
    if (result == CL_INVALID_BUILD_OPTIONS)
      result = CL_INVALID_COMPILER_OPTIONS;
    program->buildStatus = result == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
    program->binaryType =
        result == CL_SUCCESS ? CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT : CL_PROGRAM_BINARY_TYPE_NONE;
  }
  if (notify)
    notify(program, userData);
  if (result != CL_SUCCESS)
    return fail(context, result,
                "clCompileProgram: the compilation failed (see CL_PROGRAM_BUILD_LOG)");
  return result;
}

cl_program CL_API_CALL clLinkProgram(cl_context context, cl_uint numDevices,
                                     const cl_device_id *devices, const char *options,
                                     cl_uint numPrograms, const cl_program *programs,
                                     void(CL_CALLBACK *notify)(cl_program, void *), void *userData,
                                     cl_int *errcodeReturn) {
  // The failures after the context's check are reported to it.
  auto fail = [&](cl_int error, const std::string &problem = {}) -> cl_program {
    if (!problem.empty())
      icd::fail(*context, error, "clLinkProgram: " + problem);
    setError(errcodeReturn, error);
    return nullptr;
  };
  if (!isValid(context))
    return fail(CL_INVALID_CONTEXT);
  if (cl_int error = checkDevices("clLinkProgram", *context, numDevices, devices);
      error != CL_SUCCESS)
    return fail(error);
  if (!notify && userData)
    return fail(CL_INVALID_VALUE, "user_data without pfn_notify");
  if (numPrograms == 0 || !programs)
    return fail(CL_INVALID_VALUE, "num_input_programs is 0 or input_programs is NULL");
  // Link options (OpenCL 3.0, 5.8.7): -create-library, -enable-link-options
  // and, with it, the math options of the compiler.
  const std::string optionText = options ? options : "";
  bool library = false;
  {
    std::istringstream words(optionText);
    for (std::string word; words >> word;) {
      if (word == "-create-library")
        library = true;
      else if (word != "-enable-link-options" && word != "-cl-denorms-are-zero" &&
               word != "-cl-no-signed-zeros" && word != "-cl-unsafe-math-optimizations" &&
               word != "-cl-finite-math-only" && word != "-cl-fast-relaxed-math" &&
               word != "-cl-no-subgroup-ifp")
        return fail(CL_INVALID_LINKER_OPTIONS, "unknown linker option '" + word + "'");
    }
  }
  std::vector<std::vector<uint32_t>> modules;
  bool uniformWorkGroups = false;
  for (cl_uint i = 0; i < numPrograms; ++i) {
    const std::string program = "input_programs[" + std::to_string(i) + "]";
    if (!isValid(programs[i]))
      return fail(CL_INVALID_PROGRAM, program + " is not a valid program");
    std::lock_guard lock(programs[i]->mutex);
    const cl_program_binary_type type = programs[i]->binaryType;
    if (type != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT && type != CL_PROGRAM_BINARY_TYPE_LIBRARY)
      return fail(CL_INVALID_OPERATION, program + " is not a compiled object or a library");
    uniformWorkGroups = uniformWorkGroups || programs[i]->uniformWorkGroups;
    // The modules as loaded: normalised and validated (llvm-spirv-14's
    // debug information, which the SPIR-V linker mishandles, is gone; the
    // line information stays).
    if (programs[i]->loaded && !programs[i]->loaded->words.empty()) {
      modules.push_back(programs[i]->loaded->words);
      continue;
    }
    const std::vector<std::byte> &il = programs[i]->il;
    std::vector<uint32_t> words(il.size() / 4);
    std::memcpy(words.data(), il.data(), words.size() * 4);
    modules.push_back(std::move(words));
  }

  auto *linked = new _cl_program(context, _cl_program::Origin::Binary);
  cl_int result = CL_SUCCESS;
  {
    std::lock_guard lock(linked->mutex);
    linked->buildOptions = optionText;
    linked->uniformWorkGroups = uniformWorkGroups;
    spirv::LinkResult link = spirv::linkModules(modules, library);
    linked->buildLog = link.log;
    if (link.ok) {
      const auto *bytes = reinterpret_cast<const std::byte *>(link.words.data());
      linked->il.assign(bytes, bytes + link.words.size() * 4);
      spirv::LoadResult loaded =
          spirv::loadModule(std::span<const uint32_t>(link.words), {.library = library});
      if (loaded.ok())
        linked->loaded = std::make_shared<const spirv::Module>(std::move(*loaded.module));
      else
        linked->buildLog += loaded.log;
    }
    if (!linked->loaded) {
      result = CL_LINK_PROGRAM_FAILURE;
      linked->buildStatus = CL_BUILD_ERROR;
    } else if (library) {
      linked->buildStatus = CL_BUILD_SUCCESS;
      linked->binaryType = CL_PROGRAM_BINARY_TYPE_LIBRARY;
    } else {
      std::string log;
      std::shared_ptr<ProgramExecutable> executable;
      try {
        executable = buildExecutable(*linked, log);
      } catch (const std::bad_alloc &) {
        log += "error: out of memory\n";
      }
      linked->buildLog += log;
      if (executable) {
        linked->executable = std::move(executable);
        linked->buildStatus = CL_BUILD_SUCCESS;
        linked->binaryType = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
      } else {
        linked->buildStatus = CL_BUILD_ERROR;
        result = CL_LINK_PROGRAM_FAILURE;
      }
    }
  }
  if (notify)
    notify(linked, userData);
  if (result != CL_SUCCESS)
    icd::fail(*context, result, "clLinkProgram: the link failed (see CL_PROGRAM_BUILD_LOG)");
  setError(errcodeReturn, result);
  return linked;
}

cl_int CL_API_CALL clGetProgramInfo(cl_program program, cl_program_info param, size_t size,
                                    void *value, size_t *sizeReturn) {
  if (!isValid(program))
    return CL_INVALID_PROGRAM;
  InfoResult result(size, value, sizeReturn);
  std::shared_ptr<const ProgramExecutable> executable = program->built();
  switch (param) {
  case CL_PROGRAM_REFERENCE_COUNT:
    return result(program->referenceCount());
  case CL_PROGRAM_CONTEXT:
    return result(static_cast<cl_context>(program->context.get()));
  case CL_PROGRAM_NUM_DEVICES:
    return result(cl_uint(program->context->devices.size()));
  case CL_PROGRAM_DEVICES:
    return result.array<cl_device_id>(program->context->deviceList());
  case CL_PROGRAM_SOURCE:
    return result.string(program->source);
  case CL_PROGRAM_IL:
    if (program->origin != _cl_program::Origin::IL)
      return result.bytes(nullptr, 0);
    return result.bytes(program->il.data(), program->il.size());
  case CL_PROGRAM_BINARY_SIZES: {
    // One per device of the program, all the same binary (icd/program.h).
    const std::vector<size_t> sizes(program->context->devices.size(),
                                    programBinary(*program).size());
    return result.array<size_t>(sizes);
  }
  case CL_PROGRAM_BINARIES: {
    // An array of a pointer per device, to memory the application provides;
    // a null pointer skips its device.
    const size_t devices = program->context->devices.size();
    if (!value) {
      if (sizeReturn)
        *sizeReturn = devices * sizeof(unsigned char *);
      return CL_SUCCESS;
    }
    if (size < devices * sizeof(unsigned char *))
      return CL_INVALID_VALUE;
    const std::vector<std::byte> binary = programBinary(*program);
    for (size_t i = 0; i < devices; ++i)
      if (auto *destination = static_cast<unsigned char **>(value)[i];
          destination && !binary.empty())
        std::memcpy(destination, binary.data(), binary.size());
    if (sizeReturn)
      *sizeReturn = devices * sizeof(unsigned char *);
    return CL_SUCCESS;
  }
  case CL_PROGRAM_NUM_KERNELS:
    if (!executable)
      return CL_INVALID_PROGRAM_EXECUTABLE;
    return result(executable->kernels.size());
  case CL_PROGRAM_KERNEL_NAMES: {
    if (!executable)
      return CL_INVALID_PROGRAM_EXECUTABLE;
    std::string names;
    for (const auto &kernel : executable->kernels)
      names += (names.empty() ? "" : ";") + kernel.name;
    return result.string(names);
  }
  case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
    if (!executable)
      return CL_INVALID_PROGRAM_EXECUTABLE;
    return result(static_cast<cl_bool>(executable->initializers ? CL_TRUE : CL_FALSE));
  case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
    return result(cl_bool{CL_FALSE});
  default:
    return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clGetProgramBuildInfo(cl_program program, cl_device_id device,
                                         cl_program_build_info param, size_t size, void *value,
                                         size_t *sizeReturn) {
  if (!isValid(program))
    return CL_INVALID_PROGRAM;
  if (!isValid(device) || !program->context->hasDevice(device))
    return CL_INVALID_DEVICE;
  InfoResult result(size, value, sizeReturn);
  std::lock_guard lock(program->mutex);
  switch (param) {
  case CL_PROGRAM_BUILD_STATUS:
    return result(program->buildStatus);
  case CL_PROGRAM_BUILD_OPTIONS:
    return result.string(program->buildOptions);
  case CL_PROGRAM_BUILD_LOG:
    return result.string(program->buildLog);
  case CL_PROGRAM_BINARY_TYPE:
    return result(program->binaryType);
  case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE:
    return result(program->executable ? program->executable->globalVariableBytes : size_t{0});
  default:
    return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clSetProgramReleaseCallback(cl_program program,
                                               void(CL_CALLBACK *)(cl_program, void *), void *) {
  if (!isValid(program))
    return CL_INVALID_PROGRAM;
  // No device supports program-scope global destructors (OpenCL 3.0).
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clSetProgramSpecializationConstant(cl_program program, cl_uint specId,
                                                      size_t specSize, const void *specValue) {
  if (!isValid(program))
    return CL_INVALID_PROGRAM;
  if (program->origin == _cl_program::Origin::Source || !program->loaded)
    return CL_INVALID_PROGRAM;
  if (!specValue)
    return CL_INVALID_VALUE;
  const spirv::Module &module = *program->loaded;
  for (const auto &[id, constant] : module.constants) {
    if (!constant.isSpec || !constant.specId || *constant.specId != specId)
      continue;
    const spirv::Type *type = module.type(constant.type);
    const size_t expected = type->kind == spirv::Type::Kind::Bool ? 1 : type->width / 8;
    if (specSize != expected)
      return CL_INVALID_VALUE;
    std::lock_guard lock(program->mutex);
    const auto *bytes = static_cast<const std::byte *>(specValue);
    program->specializations[specId].assign(bytes, bytes + specSize);
    return CL_SUCCESS;
  }
  return CL_INVALID_SPEC_ID;
}

} // namespace lanewise::icd::api
