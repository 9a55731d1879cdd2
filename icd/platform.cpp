// SPDX-License-Identifier: Apache-2.0
// The platform, the device and their queries (OpenCL 3.0 API, 4.1 and 4.2).
#include "icd/platform.h"

#include "icd/api.h"
#include "icd/topology.h"
#include "runtime/launch.h"
#include "runtime/printf.h"
#include "spirv/compiler.h"

#include <CL/cl_ext.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <limits>
#include <sstream>
#include <string_view>
#include <thread>
#include <unistd.h>
#include <utility>

#ifndef LANEWISE_VERSION
#define LANEWISE_VERSION "0.0.0"
#endif

namespace lanewise::icd {

namespace {

constexpr cl_version openclVersion = CL_MAKE_VERSION(3, 0, 0);
constexpr const char *versionString = "OpenCL 3.0 Lanewise " LANEWISE_VERSION;
constexpr const char *vendorName = "Lanewise";
constexpr const char *icdSuffix = "LW";

cl_name_version nameVersion(const char *name, cl_version version) {
  cl_name_version entry{};
  entry.version = version;
  std::strncpy(entry.name, name, CL_NAME_VERSION_MAX_NAME_SIZE - 1);
  return entry;
}

// Extensions that are about the API rather than kernels.
std::vector<cl_name_version> apiExtensions() {
  return {nameVersion("cl_khr_icd", CL_MAKE_VERSION(1, 0, 0)),
          nameVersion("cl_khr_extended_versioning", CL_MAKE_VERSION(1, 0, 0))};
}

std::string cpuName() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);)
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) {
        auto start = line.find_first_not_of(' ', colon + 1);
        return start == std::string::npos ? std::string{} : line.substr(start);
      }
    }
  return "CPU";
}

cl_uint cpuFrequencyMHz() {
  std::ifstream maxFrequency("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
  unsigned long kHz = 0;
  if (maxFrequency >> kHz)
    return static_cast<cl_uint>(kHz / 1000);
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);)
    if (line.rfind("cpu MHz", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos)
        return static_cast<cl_uint>(std::stod(line.substr(colon + 1)));
    }
  return 0;
}

// The affinity domains a device may be partitioned along: those the host
// describes for its processors that split them into more than one group
// (a node or cache all of them share would leave the device whole), and
// then the next partitionable one; none for a device of one compute unit.
cl_device_affinity_domain affinityDomains(const DeviceDescription &device) {
  if (device.computeUnits <= 1)
    return 0;
  const cl_device_affinity_domain described = describedDomains(device.processors);
  cl_device_affinity_domain splitting = 0;
  for (cl_device_affinity_domain domain = CL_DEVICE_AFFINITY_DOMAIN_NUMA;
       domain <= CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE; domain <<= 1)
    if ((described & domain) && groupsSharing(device.processors, domain).size() > 1)
      splitting |= domain;
  return splitting ? splitting | CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE : 0;
}

cl_ulong sysconfBytes(int pages, int pageSize) {
  long count = sysconf(pages), size = sysconf(pageSize);
  return count > 0 && size > 0 ? cl_ulong(count) * cl_ulong(size) : 0;
}

// LANEWISE_DEVICE_TYPE: cpu (and default, its synonym), gpu or accelerator,
// in any case. An unknown type is named on stderr and the device stays a CPU.
cl_device_type deviceTypeFromEnvironment() {
  const char *text = std::getenv("LANEWISE_DEVICE_TYPE");
  if (!text || !*text)
    return CL_DEVICE_TYPE_CPU;
  static constexpr std::pair<std::string_view, cl_device_type> types[] = {
      {"cpu", CL_DEVICE_TYPE_CPU},
      {"default", CL_DEVICE_TYPE_CPU},
      {"gpu", CL_DEVICE_TYPE_GPU},
      {"accelerator", CL_DEVICE_TYPE_ACCELERATOR}};
  std::string name(text);
  std::ranges::transform(name, name.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const auto &[known, type] : types)
    if (name == known)
      return type;
  std::fprintf(stderr,
               "lanewise: LANEWISE_DEVICE_TYPE: unknown device type '%s' (known: cpu, gpu, "
               "accelerator, default); the device reports the type CPU\n",
               text);
  return CL_DEVICE_TYPE_CPU;
}

_cl_device_id *makeDevice(_cl_platform_id *platform) {
  auto *device = new _cl_device_id;
  device->platform = platform;
  device->type = deviceTypeFromEnvironment();
  device->computeUnits = std::max(1u, std::thread::hardware_concurrency());
  if (std::vector<unsigned> processors = allowedProcessors();
      processors.size() == device->computeUnits)
    device->processors = std::move(processors);
  device->globalMemSize = sysconfBytes(_SC_PHYS_PAGES, _SC_PAGESIZE);
  if (device->globalMemSize == 0)
    device->globalMemSize = cl_ulong(1) << 30;
  // Full profile: at least max(min(1 GiB, global/4), 32 MiB) (OpenCL 3.0, 4.2).
  device->maxAllocSize = std::max<cl_ulong>(device->globalMemSize / 4, cl_ulong(128) << 20);
  long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  device->globalCacheSize = l2 > 0 ? cl_ulong(l2) : cl_ulong(1) << 20;
  long line = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
  device->globalCacheLineSize = line > 0 ? cl_uint(line) : 64;
  // A 1D image buffer views a buffer: as many texels as the largest buffer
  // holds of the largest (16-byte) elements.
  device->imageMaxBufferSize =
      std::max<std::size_t>(device->imageMaxBufferSize, device->maxAllocSize / 16);
  device->clockFrequencyMHz = cpuFrequencyMHz();
  device->name = cpuName();
  // clang and llvm-spirv compile OpenCL C source; the SPIRV-Tools linker
  // links compiled programs.
  device->capabilities.compiler = spirv::findToolchain().has_value();
  return device;
}

cl_ulong monotonicNanoseconds() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return cl_ulong(now.tv_sec) * 1000000000u + cl_ulong(now.tv_nsec);
}

// The versions of OpenCL C the device accepts; the latest one, 3.0, also
// requires its optional features to be reported in CL_DEVICE_OPENCL_C_FEATURES.
std::vector<cl_name_version> openclCVersions() {
  return {nameVersion("OpenCL C", CL_MAKE_VERSION(1, 0, 0)),
          nameVersion("OpenCL C", CL_MAKE_VERSION(1, 1, 0)),
          nameVersion("OpenCL C", CL_MAKE_VERSION(1, 2, 0)),
          nameVersion("OpenCL C", CL_MAKE_VERSION(3, 0, 0))};
}

std::vector<cl_name_version> intermediateLanguages() {
  std::vector<cl_name_version> ils;
  for (cl_uint minor = 0; minor <= 6; ++minor)
    ils.push_back(nameVersion("SPIR-V", CL_MAKE_VERSION(1, minor, 0)));
  return ils;
}

std::string ilVersionString() {
  std::string text;
  for (const cl_name_version &il : intermediateLanguages()) {
    if (!text.empty())
      text += ' ';
    text += std::string(il.name) + "_" + std::to_string(CL_VERSION_MAJOR(il.version)) + "." +
            std::to_string(CL_VERSION_MINOR(il.version));
  }
  return text;
}

} // namespace

_cl_platform_id *thePlatform() {
  static _cl_platform_id *platform = new _cl_platform_id;
  return platform;
}

_cl_device_id *theDevice() {
  static _cl_device_id *device = makeDevice(thePlatform());
  return device;
}

std::string joinNames(std::span<const cl_name_version> list) {
  std::string text;
  for (const cl_name_version &entry : list) {
    if (!text.empty())
      text += ' ';
    text += entry.name;
  }
  return text;
}

} // namespace lanewise::icd

using namespace lanewise::icd;

cl_version DeviceDescription::version() const { return openclVersion; }

std::vector<cl_name_version> DeviceDescription::extensions() const {
  std::vector<cl_name_version> list = apiExtensions();
  auto add = [&](const char *name, cl_version version) {
    list.push_back(nameVersion(name, version));
  };
  // Kernel features every OpenCL 1.1+ device reports; each is tested
  // through kernels (tests/kernels).
  for (const char *name :
       {"cl_khr_byte_addressable_store", "cl_khr_global_int32_base_atomics",
        "cl_khr_global_int32_extended_atomics", "cl_khr_local_int32_base_atomics",
        "cl_khr_local_int32_extended_atomics", "cl_khr_int64_base_atomics",
        "cl_khr_int64_extended_atomics", "cl_khr_il_program"})
    add(name, CL_MAKE_VERSION(1, 0, 0));
  // SPIR-V extensions the loader takes and the engine executes: the
  // NoSignedWrap and NoUnsignedWrap decorations (hints), LinkOnceODR
  // linkage, and OpExpectKHR and OpAssumeTrueKHR.
  for (const char *name : {"cl_khr_spirv_no_integer_wrap_decoration", "cl_khr_spirv_linkonce_odr",
                           "cl_khr_expect_assume"})
    add(name, CL_MAKE_VERSION(1, 0, 0));
  // C++ for OpenCL 1.0 takes OpenCL C 2.0's generic address space and
  // program-scope variables (clang compiles it, like OpenCL C).
  if (capabilities.compiler && capabilities.genericAddressSpace && capabilities.programScopeGlobals)
    add("cl_ext_cxx_for_opencl", CL_MAKE_VERSION(1, 0, 0));
  if (capabilities.fp64)
    add("cl_khr_fp64", CL_MAKE_VERSION(1, 0, 0));
  if (capabilities.fp16)
    add("cl_khr_fp16", CL_MAKE_VERSION(1, 0, 0));
  if (capabilities.images) {
    add("cl_khr_3d_image_writes", CL_MAKE_VERSION(1, 0, 0));
    // 2D images from buffers are core in OpenCL 3.0 with a nonzero
    // CL_DEVICE_IMAGE_PITCH_ALIGNMENT; the extension names the same thing.
    add("cl_khr_image2d_from_buffer", CL_MAKE_VERSION(1, 0, 0));
  }
  if (capabilities.subgroups)
    for (const char *name :
         {"cl_khr_subgroups", "cl_khr_subgroup_shuffle", "cl_khr_subgroup_shuffle_relative",
          "cl_khr_subgroup_ballot", "cl_khr_subgroup_non_uniform_vote",
          "cl_khr_subgroup_non_uniform_arithmetic", "cl_khr_subgroup_clustered_reduce",
          "cl_khr_subgroup_extended_types", "cl_intel_subgroups", "cl_intel_subgroups_short",
          "cl_intel_subgroups_long",
          "cl_intel_required_subgroup_size", "cl_intel_spirv_subgroups"})
      add(name, CL_MAKE_VERSION(1, 0, 0));
  return list;
}

std::vector<cl_name_version> DeviceDescription::openclCFeatures() const {
  const cl_version v3 = CL_MAKE_VERSION(3, 0, 0);
  // __opencl_c_int64 is required of every full-profile device.
  std::vector<cl_name_version> list = {nameVersion("__opencl_c_int64", v3)};
  auto add = [&](bool enabled, const char *name) {
    if (enabled)
      list.push_back(nameVersion(name, v3));
  };
  add(capabilities.fp64, "__opencl_c_fp64");
  add(capabilities.fp16, "__opencl_c_fp16");
  add(capabilities.subgroups, "__opencl_c_subgroups");
  add(capabilities.genericAddressSpace, "__opencl_c_generic_address_space");
  add(capabilities.programScopeGlobals, "__opencl_c_program_scope_global_variables");
  add(capabilities.workGroupCollectives, "__opencl_c_work_group_collective_functions");
  for (const char *name :
       {"__opencl_c_images", "__opencl_c_3d_image_writes", "__opencl_c_read_write_images"})
    add(capabilities.images, name);
  for (const char *name : {"__opencl_c_atomic_order_acq_rel", "__opencl_c_atomic_order_seq_cst",
                           "__opencl_c_atomic_scope_device", "__opencl_c_atomic_scope_all_devices"})
    add(capabilities.fineGrainSvm, name);
  return list;
}

namespace lanewise::icd::api {

cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint numEntries, cl_platform_id *platforms,
                                          cl_uint *numPlatforms) {
  if ((numEntries == 0 && platforms) || (!platforms && !numPlatforms))
    return CL_INVALID_VALUE;
  if (platforms)
    platforms[0] = thePlatform();
  if (numPlatforms)
    *numPlatforms = 1;
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetPlatformIDs(cl_uint numEntries, cl_platform_id *platforms,
                                    cl_uint *numPlatforms) {
  return api::clIcdGetPlatformIDsKHR(numEntries, platforms, numPlatforms);
}

cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info param,
                                     size_t size, void *value, size_t *sizeReturn) {
  // A NULL platform selects the only one (the behaviour is implementation
  // defined, OpenCL 3.0, 4.1).
  if (platform && !isValid(platform))
    return CL_INVALID_PLATFORM;
  InfoResult result(size, value, sizeReturn);
  switch (param) {
  case CL_PLATFORM_PROFILE:
    return result.string("FULL_PROFILE");
  case CL_PLATFORM_VERSION:
    return result.string(versionString);
  case CL_PLATFORM_NUMERIC_VERSION:
    return result(openclVersion);
  case CL_PLATFORM_NAME:
    return result.string("Lanewise");
  case CL_PLATFORM_VENDOR:
    return result.string(vendorName);
  // The platform has one device: its extensions are the platform's.
  case CL_PLATFORM_EXTENSIONS:
    return result.string(joinNames(theDevice()->extensions()));
  case CL_PLATFORM_EXTENSIONS_WITH_VERSION: {
    auto list = theDevice()->extensions();
    return result.array<cl_name_version>(list);
  }
  case CL_PLATFORM_HOST_TIMER_RESOLUTION:
    return result(cl_ulong{1});
  case CL_PLATFORM_ICD_SUFFIX_KHR:
    return result.string(icdSuffix);
  default:
    return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type type,
                                  cl_uint numEntries, cl_device_id *devices,
                                  cl_uint *numDevices) {
  if (platform && !isValid(platform))
    return CL_INVALID_PLATFORM;
  constexpr cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU |
                                   CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR |
                                   CL_DEVICE_TYPE_CUSTOM;
  if (type != CL_DEVICE_TYPE_ALL && (type & ~known || type == 0))
    return CL_INVALID_DEVICE_TYPE;
  if ((numEntries == 0 && devices) || (!devices && !numDevices))
    return CL_INVALID_VALUE;
  // The platform's one device is its default device, whatever its type.
  if (type != CL_DEVICE_TYPE_ALL && !(type & (theDevice()->type | CL_DEVICE_TYPE_DEFAULT)))
    return CL_DEVICE_NOT_FOUND;
  if (devices)
    devices[0] = theDevice();
  if (numDevices)
    *numDevices = 1;
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device, cl_device_info param, size_t size,
                                   void *value, size_t *sizeReturn) {
  if (!isValid(device))
    return CL_INVALID_DEVICE;
  const _cl_device_id &d = *device;
  const DeviceCapabilities &caps = d.capabilities;
  InfoResult result(size, value, sizeReturn);
  const cl_bool yes = CL_TRUE, no = CL_FALSE;
  const std::size_t maxWorkItemSizes[3] = {d.maxWorkGroupSize, d.maxWorkGroupSize,
                                           d.maxWorkGroupSize};
  const cl_device_fp_config fpConfig = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
                                       CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA;
  const cl_command_queue_properties hostQueue =
      CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
  // The minimum every OpenCL 3.0 device reports (4.2, atomic capabilities),
  // and with fine-grain SVM every order and scope: kernel atomics are the
  // host's sequentially consistent atomics on host memory, and a fence of
  // device scope or wider is a sequentially consistent thread fence.
  const cl_device_atomic_capabilities everyOrderAndScope =
      caps.fineGrainSvm ? CL_DEVICE_ATOMIC_ORDER_ACQ_REL | CL_DEVICE_ATOMIC_ORDER_SEQ_CST |
                              CL_DEVICE_ATOMIC_SCOPE_DEVICE | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES
                        : 0;
  const cl_device_atomic_capabilities atomicMemory =
      CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP | everyOrderAndScope;
  const cl_device_atomic_capabilities atomicFence =
      CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
      CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP | everyOrderAndScope;
  const cl_uint subGroupsMax = caps.subgroups ? cl_uint(d.maxWorkGroupSize / 8) : 0;

  switch (param) {
  case CL_DEVICE_TYPE:
    return result(d.type);
  case CL_DEVICE_VENDOR_ID:
    return result(cl_uint{0});
  case CL_DEVICE_MAX_COMPUTE_UNITS:
    return result(d.computeUnits);
  case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS:
    return result(cl_uint{3});
  case CL_DEVICE_MAX_WORK_ITEM_SIZES:
    return result(maxWorkItemSizes);
  case CL_DEVICE_MAX_WORK_GROUP_SIZE:
    return result(d.maxWorkGroupSize);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
    return result(cl_uint{16});
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
    return result(cl_uint{8});
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
    return result(cl_uint{4});
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
    return result(cl_uint{2});
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
    return result(cl_uint{caps.fp64 ? 2u : 0u});
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
    return result(cl_uint{caps.fp16 ? 8u : 0u});
  case CL_DEVICE_MAX_CLOCK_FREQUENCY:
    return result(d.clockFrequencyMHz);
  case CL_DEVICE_ADDRESS_BITS:
    return result(cl_uint{64});
  case CL_DEVICE_MAX_MEM_ALLOC_SIZE:
    return result(d.maxAllocSize);
  // Image queries: "0 otherwise" without CL_DEVICE_IMAGE_SUPPORT.
  case CL_DEVICE_IMAGE_SUPPORT:
    return result(caps.images ? yes : no);
  case CL_DEVICE_MAX_READ_IMAGE_ARGS:
    return result(caps.images ? d.maxReadImageArgs : 0u);
  case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
    return result(caps.images ? d.maxWriteImageArgs : 0u);
  case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS:
    return result(caps.images ? d.maxReadWriteImageArgs : 0u);
  case CL_DEVICE_MAX_SAMPLERS:
    return result(caps.images ? d.maxSamplers : 0u);
  case CL_DEVICE_IMAGE_PITCH_ALIGNMENT:
    return result(caps.images ? d.imagePitchAlignment : 0u);
  case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT:
    return result(caps.images ? d.imageBaseAddressAlignment : 0u);
  case CL_DEVICE_IMAGE2D_MAX_WIDTH:
  case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
    return result(caps.images ? d.image2DMaxSize : std::size_t{0});
  case CL_DEVICE_IMAGE3D_MAX_WIDTH:
  case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
  case CL_DEVICE_IMAGE3D_MAX_DEPTH:
    return result(caps.images ? d.image3DMaxSize : std::size_t{0});
  case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
    return result(caps.images ? d.imageMaxBufferSize : std::size_t{0});
  case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE:
    return result(caps.images ? d.imageMaxArraySize : std::size_t{0});
  case CL_DEVICE_MAX_PIPE_ARGS:
  case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
  case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
  case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
  case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
  case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
  case CL_DEVICE_MAX_ON_DEVICE_EVENTS:
    return result(cl_uint{0});
  case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
    // One per compute unit; a device of one compute unit is not partitioned.
    return result(d.computeUnits > 1 ? d.computeUnits : cl_uint{0});
  case CL_DEVICE_IL_VERSION:
    return result.string(ilVersionString());
  case CL_DEVICE_ILS_WITH_VERSION: {
    auto list = intermediateLanguages();
    return result.array<cl_name_version>(list);
  }
  case CL_DEVICE_MAX_PARAMETER_SIZE:
    // The full profile's minimum. Kernels may take more (as many as clang
    // compiles), but a module is only valid SPIR-V with at most 255
    // function parameters (SPIR-V 2.17, Universal Limits, which spirv-val
    // enforces): this size in the widest scalar, long, and a pointer stay
    // within them, so a kernel the size allows can go through SPIR-V
    // compiled offline as well.
    return result(std::size_t{1024});
  case CL_DEVICE_MEM_BASE_ADDR_ALIGN:
    return result(d.memBaseAddrAlignBits);
  case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE:
    return result(cl_uint{128}); // sizeof(long16), deprecated query
  case CL_DEVICE_SINGLE_FP_CONFIG:
    return result(fpConfig | CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT);
  case CL_DEVICE_DOUBLE_FP_CONFIG:
    return result(caps.fp64 ? fpConfig : cl_device_fp_config{0});
  case CL_DEVICE_HALF_FP_CONFIG:
    if (!caps.fp16)
      return CL_INVALID_VALUE; // a cl_khr_fp16 query
    // Half arithmetic and functions are computed in float or double and
    // rounded once to half, denormals included; fma is correctly rounded
    // (tests/kernels/math_half_test.cpp, the MathHalf tests).
    return result(
        cl_device_fp_config{CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA});
  case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
    return result(cl_device_mem_cache_type{CL_READ_WRITE_CACHE});
  case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE:
    return result(d.globalCacheLineSize);
  case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE:
    return result(d.globalCacheSize);
  case CL_DEVICE_GLOBAL_MEM_SIZE:
    return result(d.globalMemSize);
  case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE:
    return result(d.constantBufferSize);
  case CL_DEVICE_MAX_CONSTANT_ARGS:
    return result(cl_uint{8});
  // A program-scope variable is an allocation like a buffer's, of a type
  // Lanewise lays out: an array has at most 2^32 - 1 elements (a byte
  // array that many bytes).
  case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
    return result(
        caps.programScopeGlobals
            ? std::min<std::size_t>(d.maxAllocSize, std::numeric_limits<std::uint32_t>::max())
            : std::size_t{0});
  case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE:
    return result(std::size_t{caps.programScopeGlobals ? 65536u : 0u});
  case CL_DEVICE_LOCAL_MEM_TYPE:
    return result(cl_device_local_mem_type{CL_GLOBAL});
  case CL_DEVICE_LOCAL_MEM_SIZE:
    return result(d.localMemSize);
  case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
    return result(no);
  case CL_DEVICE_HOST_UNIFIED_MEMORY:
    return result(yes);
  case CL_DEVICE_PROFILING_TIMER_RESOLUTION:
    return result(std::size_t{1});
  case CL_DEVICE_ENDIAN_LITTLE:
  case CL_DEVICE_AVAILABLE:
    return result(yes);
  case CL_DEVICE_COMPILER_AVAILABLE:
  case CL_DEVICE_LINKER_AVAILABLE:
    return result(caps.compiler ? yes : no);
  case CL_DEVICE_EXECUTION_CAPABILITIES:
    return result(cl_device_exec_capabilities{CL_EXEC_KERNEL});
  case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES:
    return result(hostQueue);
  case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES:
    return result(cl_command_queue_properties{0});
  case CL_DEVICE_BUILT_IN_KERNELS:
    return result.string("");
  case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION:
    return result.bytes(nullptr, 0);
  case CL_DEVICE_PLATFORM:
    return result(static_cast<cl_platform_id>(d.platform));
  case CL_DEVICE_NAME:
    return result.string(d.name);
  case CL_DEVICE_VENDOR:
    return result.string(vendorName);
  case CL_DRIVER_VERSION:
    return result.string(LANEWISE_VERSION);
  case CL_DEVICE_PROFILE:
    return result.string("FULL_PROFILE");
  case CL_DEVICE_VERSION:
    return result.string(versionString);
  case CL_DEVICE_NUMERIC_VERSION:
    return result(d.version());
  case CL_DEVICE_OPENCL_C_VERSION:
    // The highest version whose optional features are all supported
    // (OpenCL 3.0, 4.2): OpenCL C 1.2.
    return result.string("OpenCL C 1.2 Lanewise");
  case CL_DEVICE_CXX_FOR_OPENCL_NUMERIC_VERSION_EXT: // cl_ext_cxx_for_opencl
    // The version -cl-std=CLC++ compiles (__OPENCL_CPP_VERSION__ 100).
    if (!d.capabilities.compiler || !d.capabilities.genericAddressSpace ||
        !d.capabilities.programScopeGlobals)
      return CL_INVALID_VALUE;
    return result(cl_version{CL_MAKE_VERSION(1, 0, 0)});
  case CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR: // cl_khr_extended_versioning
    return result(cl_version{CL_MAKE_VERSION(1, 2, 0)});
  case CL_DEVICE_OPENCL_C_ALL_VERSIONS: {
    auto list = openclCVersions();
    return result.array<cl_name_version>(list);
  }
  case CL_DEVICE_OPENCL_C_FEATURES: {
    auto list = d.openclCFeatures();
    return result.array<cl_name_version>(list);
  }
  case CL_DEVICE_EXTENSIONS:
    return result.string(joinNames(d.extensions()));
  case CL_DEVICE_EXTENSIONS_WITH_VERSION: {
    auto list = d.extensions();
    return result.array<cl_name_version>(list);
  }
  case CL_DEVICE_PRINTF_BUFFER_SIZE:
    return result(std::size_t{runtime::printfBufferBytes});
  case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
    return result(yes);
  case CL_DEVICE_PARENT_DEVICE:
    return result(static_cast<cl_device_id>(d.parent.get()));
  case CL_DEVICE_PARTITION_PROPERTIES: {
    // A device of one compute unit has no partition: one property, 0 (4.2).
    if (d.computeUnits <= 1)
      return result(cl_device_partition_property{0});
    std::vector<cl_device_partition_property> types = {CL_DEVICE_PARTITION_EQUALLY,
                                                       CL_DEVICE_PARTITION_BY_COUNTS};
    if (affinityDomains(d))
      types.push_back(CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN);
    return result.array<cl_device_partition_property>(types);
  }
  case CL_DEVICE_PARTITION_TYPE:
    // A root device's may be empty or {0} (4.2).
    if (d.isRoot())
      return result(cl_device_partition_property{0});
    return result.array<cl_device_partition_property>(d.partition);
  case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
    return result(affinityDomains(d));
  case CL_DEVICE_REFERENCE_COUNT:
    // The root device's is always 1 (4.3).
    return result(d.isRoot() ? cl_uint{1} : d.referenceCount());
  case CL_DEVICE_SVM_CAPABILITIES:
    return result(cl_device_svm_capabilities(
        CL_DEVICE_SVM_COARSE_GRAIN_BUFFER |
        (caps.fineGrainSvm ? CL_DEVICE_SVM_FINE_GRAIN_BUFFER | CL_DEVICE_SVM_ATOMICS : 0)));
  case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT:
    return result(cl_uint{0}); // natural alignment
  case CL_DEVICE_MAX_NUM_SUB_GROUPS:
    return result(subGroupsMax);
  case CL_DEVICE_SUB_GROUP_SIZES_INTEL: {
    if (!caps.subgroups)
      return CL_INVALID_VALUE; // a cl_intel_required_subgroup_size query
    const std::size_t sizes[] = {8, 16, 32, 64};
    return result(sizes);
  }
  case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS:
    // Required of devices with cl_khr_subgroups (OpenCL 3.0, 4.2). Sub-groups
    // of different warps progress independently; those of one warp share its
    // lockstep schedule (docs/architecture.md).
    return result(caps.subgroups ? yes : no);
  case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
    return result(atomicMemory);
  case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
    return result(atomicFence);
  case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT:
    return result(yes);
  case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
    return result(caps.workGroupCollectives ? yes : no);
  case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT:
    return result(caps.genericAddressSpace ? yes : no);
  case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES:
    return result(cl_device_device_enqueue_capabilities{0});
  case CL_DEVICE_PIPE_SUPPORT:
    return result(no);
  case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
    return result(std::size_t{64});
  case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED:
    // The format is vYYYY-MM-DD-XX (4.2, and the CTS checks it). Lanewise
    // has passed no official conformance process: the earliest version the
    // format can name says so, as Mesa's rusticl does.
    return result.string("v0000-01-01-00");
  default:
    return CL_INVALID_VALUE;
  }
}

namespace {

// One sub-device of a partition: its compute units, and the processors
// they are when the device's are known.
struct Share {
  cl_uint units = 0;
  std::vector<unsigned> processors;
};

// The shares `counts` make of `device`'s compute units, in order.
std::vector<Share> consecutiveShares(const _cl_device_id &device, std::span<const cl_uint> counts) {
  std::vector<Share> shares;
  size_t next = 0;
  for (cl_uint count : counts) {
    Share share{count, {}};
    if (!device.processors.empty())
      share.processors.assign(device.processors.begin() + std::ptrdiff_t(next),
                              device.processors.begin() + std::ptrdiff_t(next + count));
    next += count;
    shares.push_back(std::move(share));
  }
  return shares;
}

// The sub-devices `properties` asks of `device` (OpenCL 3.0 API,
// clCreateSubDevices), or the error: CL_INVALID_VALUE for a partition the
// device does not support or a malformed list,
// CL_INVALID_DEVICE_PARTITION_COUNT for counts the device cannot give,
// CL_DEVICE_PARTITION_FAILED when the request is valid but the device
// cannot be partitioned so (a domain all its processors share leaves it
// whole). `partition` is what the sub-devices report as
// CL_DEVICE_PARTITION_TYPE: for the next partitionable domain, the domain
// it was.
cl_int partitionShares(const _cl_device_id &device, const cl_device_partition_property *properties,
                       std::vector<Share> &shares,
                       std::vector<cl_device_partition_property> &partition) {
  const cl_uint units = device.computeUnits;
  // A device of one compute unit reports no partition type.
  if (!properties || units <= 1)
    return CL_INVALID_VALUE;
  switch (properties[0]) {
  case CL_DEVICE_PARTITION_EQUALLY: {
    // {EQUALLY, n, 0}: as many smaller sub-devices of n units as fit. n of
    // all the units would leave the device whole; more units than it has
    // cannot be requested (as the CTS reads CL_INVALID_DEVICE_PARTITION_COUNT's
    // "the total number of compute units requested exceeds").
    if (properties[2] != 0)
      return CL_INVALID_VALUE;
    const cl_device_partition_property n = properties[1];
    if (n <= 0)
      return CL_INVALID_VALUE;
    if (cl_uint(n) > units)
      return CL_INVALID_DEVICE_PARTITION_COUNT;
    if (cl_uint(n) == units)
      return CL_DEVICE_PARTITION_FAILED;
    shares = consecutiveShares(device, std::vector<cl_uint>(units / cl_uint(n), cl_uint(n)));
    partition.assign(properties, properties + 3);
    break;
  }
  case CL_DEVICE_PARTITION_BY_COUNTS: {
    // {BY_COUNTS, c1, c2, ..., BY_COUNTS_LIST_END, 0}; the end marker is 0.
    std::vector<cl_uint> counts;
    cl_uint total = 0;
    const cl_device_partition_property *p = properties + 1;
    for (; *p != CL_DEVICE_PARTITION_BY_COUNTS_LIST_END; ++p) {
      if (*p < 0 || cl_uint(*p) > units)
        return CL_INVALID_DEVICE_PARTITION_COUNT;
      counts.push_back(cl_uint(*p));
      total += cl_uint(*p);
      if (total > units) // each count is at least 1: so is their number
        return CL_INVALID_DEVICE_PARTITION_COUNT;
    }
    if (counts.empty() || p[1] != 0)
      return counts.empty() ? CL_INVALID_DEVICE_PARTITION_COUNT : CL_INVALID_VALUE;
    shares = consecutiveShares(device, counts);
    partition.assign(properties, p + 2);
    break;
  }
  case CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN: {
    // {BY_AFFINITY_DOMAIN, one domain the device reports, 0}.
    const auto domain = static_cast<cl_device_affinity_domain>(properties[1]);
    const cl_device_affinity_domain supported = affinityDomains(device);
    if (properties[2] != 0 || !supported || (domain & (domain - 1)) != 0 || !(domain & supported))
      return CL_INVALID_VALUE;
    const cl_device_affinity_domain along = domain == CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE
                                                ? nextPartitionableDomain(device.processors)
                                                : domain;
    const std::vector<std::vector<unsigned>> groups =
        along ? groupsSharing(device.processors, along) : std::vector<std::vector<unsigned>>{};
    if (groups.size() <= 1)
      return CL_DEVICE_PARTITION_FAILED;
    for (const std::vector<unsigned> &group : groups)
      shares.push_back({cl_uint(group.size()), group});
    partition = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, cl_device_partition_property(along), 0};
    break;
  }
  default:
    return CL_INVALID_VALUE;
  }
  return CL_SUCCESS;
}

} // namespace

cl_int CL_API_CALL clCreateSubDevices(cl_device_id device,
                                      const cl_device_partition_property *properties,
                                      cl_uint numDevices, cl_device_id *devices,
                                      cl_uint *numDevicesReturn) {
  if (!isValid(device))
    return CL_INVALID_DEVICE;
  std::vector<Share> shares;
  std::vector<cl_device_partition_property> partition;
  if (cl_int error = partitionShares(*device, properties, shares, partition); error != CL_SUCCESS)
    return error;
  if (devices && numDevices < shares.size())
    return CL_INVALID_VALUE;
  if (numDevicesReturn)
    *numDevicesReturn = cl_uint(shares.size());
  if (!devices)
    return CL_SUCCESS;
  for (size_t i = 0; i < shares.size(); ++i) {
    auto *sub = new _cl_device_id(static_cast<const DeviceDescription &>(*device));
    sub->computeUnits = shares[i].units;
    sub->processors = std::move(shares[i].processors);
    sub->parent = OwnerRef<_cl_device_id>(device);
    sub->partition = partition;
    sub->arena = std::make_shared<runtime::WorkerArena>(sub->computeUnits, sub->processors);
    devices[i] = sub;
  }
  return CL_SUCCESS;
}

// The root device is not reference counted (OpenCL 3.0, 4.3); a
// sub-device is, and lives on while contexts and queues hold it.
cl_int CL_API_CALL clRetainDevice(cl_device_id device) {
  if (!isValid(device))
    return CL_INVALID_DEVICE;
  if (!device->isRoot())
    device->retain();
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseDevice(cl_device_id device) {
  if (!isValid(device))
    return CL_INVALID_DEVICE;
  if (!device->isRoot() && !device->release())
    return CL_INVALID_DEVICE;
  return CL_SUCCESS;
}

// Device and host share one clock: CLOCK_MONOTONIC, also used for profiling.
cl_int CL_API_CALL clGetDeviceAndHostTimer(cl_device_id device, cl_ulong *deviceTimestamp,
                                           cl_ulong *hostTimestamp) {
  if (!isValid(device))
    return CL_INVALID_DEVICE;
  if (!deviceTimestamp || !hostTimestamp)
    return CL_INVALID_VALUE;
  *deviceTimestamp = *hostTimestamp = monotonicNanoseconds();
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetHostTimer(cl_device_id device, cl_ulong *hostTimestamp) {
  if (!isValid(device))
    return CL_INVALID_DEVICE;
  if (!hostTimestamp)
    return CL_INVALID_VALUE;
  *hostTimestamp = monotonicNanoseconds();
  return CL_SUCCESS;
}

cl_int CL_API_CALL clUnloadCompiler() { return CL_SUCCESS; }

cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform) {
  return isValid(platform) ? CL_SUCCESS : CL_INVALID_PLATFORM;
}

void *CL_API_CALL clGetExtensionFunctionAddress(const char *name) {
  if (!name)
    return nullptr;
  struct Entry {
    const char *name;
    void *address;
  };
  static const Entry entries[] = {
      {"clIcdGetPlatformIDsKHR", reinterpret_cast<void *>(&api::clIcdGetPlatformIDsKHR)},
      // cl_khr_il_program: the core entry point under its extension name.
      {"clCreateProgramWithILKHR", reinterpret_cast<void *>(&api::clCreateProgramWithIL)},
      // cl_khr_subgroups.
      {"clGetKernelSubGroupInfoKHR", reinterpret_cast<void *>(&api::clGetKernelSubGroupInfo)},
  };
  for (const Entry &entry : entries)
    if (std::strcmp(entry.name, name) == 0)
      return entry.address;
  return nullptr;
}

void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                           const char *name) {
  if (!isValid(platform))
    return nullptr;
  return api::clGetExtensionFunctionAddress(name);
}

} // namespace lanewise::icd::api
