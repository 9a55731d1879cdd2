// SPDX-License-Identifier: Apache-2.0
// The Lanewise platform, its CPU device and the device's sub-devices.
#pragma once

#include "icd/object.h"
#include "runtime/bytecode.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

struct _cl_platform_id
    : lanewise::icd::Object<_cl_platform_id, lanewise::icd::ObjectKind::Platform> {};

// What the device can do. The extension list, the OpenCL C features and the
// queries that mirror them are all derived from this one table, so that they
// cannot disagree; a capability is switched on when its implementation and
// tests land.
struct DeviceCapabilities {
  bool compiler = false;           // OpenCL C source programs (clang + llvm-spirv)
  bool subgroups = true;           // cl_khr_subgroups and its family, cl_intel_subgroups
  bool fp64 = true;                // cl_khr_fp64 and __opencl_c_fp64
  bool fp16 = true;                // cl_khr_fp16 and __opencl_c_fp16
  bool genericAddressSpace = true;
  bool programScopeGlobals = true;
  bool workGroupCollectives = true;
  // Fine-grain buffer SVM with SVM atomics (device memory is host memory,
  // and kernel atomics are the host's), and atomics and fences of every
  // order and scope: __opencl_c_atomic_order_acq_rel, _seq_cst,
  // __opencl_c_atomic_scope_device and _all_devices.
  bool fineGrainSvm = true;
  // Images and samplers (CL_DEVICE_IMAGE_SUPPORT): every image type, 3D image
  // writes (cl_khr_3d_image_writes), read_write image arguments, and 2D images
  // from buffers (CL_DEVICE_IMAGE_PITCH_ALIGNMENT is not 0).
  bool images = true;
};

namespace lanewise::runtime {
class WorkerArena;
}

// What a device is and can do: the root device's, copied into each of its
// sub-devices, which differ only in their compute units.
struct DeviceDescription {
  _cl_platform_id *platform = nullptr;
  DeviceCapabilities capabilities;

  // CL_DEVICE_TYPE: a CPU, or what LANEWISE_DEVICE_TYPE makes it report for
  // applications that look for another type (docs/using.md). Nothing else
  // depends on it.
  cl_device_type type = CL_DEVICE_TYPE_CPU;
  cl_uint computeUnits = 1;          // hardware threads
  // The processors that are its compute units, in order, which partitions
  // by affinity domain split and sub-devices' workers are bound to; empty
  // when they are not known (this process may run on fewer processors
  // than the machine has).
  std::vector<unsigned> processors;
  cl_ulong globalMemSize = 0;        // physical memory
  cl_ulong maxAllocSize = 0;
  // As PoCL's CPU device: programs written for it size their tiles so.
  cl_ulong localMemSize = 512 * 1024;
  cl_ulong constantBufferSize = 64 * 1024;
  std::size_t maxWorkGroupSize = lanewise::runtime::maxWorkGroupSize;
  cl_uint memBaseAddrAlignBits = 1024; // sizeof(long16) in bits, the spec minimum
  cl_uint globalCacheLineSize = 64;
  cl_ulong globalCacheSize = 0;
  cl_uint clockFrequencyMHz = 0;
  std::string name;

  // Image limits (OpenCL 3.0, 4.2; each at least the full profile's minimum).
  // Images are host memory like buffers: the limits are the minimums where
  // a larger one would only let one image take most of the memory.
  std::size_t image2DMaxSize = 16384;
  std::size_t image3DMaxSize = 2048;
  std::size_t imageMaxBufferSize = 65536; // texels of a 1D image buffer (see makeDevice)
  std::size_t imageMaxArraySize = 2048;
  cl_uint maxReadImageArgs = 128;
  cl_uint maxWriteImageArgs = 64;
  cl_uint maxReadWriteImageArgs = 64;
  cl_uint maxSamplers = 16;
  // In pixels: rows of a 2D image from a buffer at any multiple of the
  // element size, from any buffer aligned to its element size.
  cl_uint imagePitchAlignment = 1;
  cl_uint imageBaseAddressAlignment = 1;

  cl_version version() const; // CL_DEVICE_NUMERIC_VERSION
  std::vector<cl_name_version> extensions() const;
  std::vector<cl_name_version> openclCFeatures() const;
  std::size_t svmAlignment() const { return memBaseAddrAlignBits / 8; }
};

// The root device, which the platform makes once and never deletes, or a
// sub-device (OpenCL 3.0 API, 4.3): a share of the root device's compute
// units, as many worker threads in an arena of its own, the rest alike.
// Every device of a context is the same processor, so they share one
// program executable (icd/program.h).
struct _cl_device_id : lanewise::icd::Object<_cl_device_id, lanewise::icd::ObjectKind::Device>,
                       DeviceDescription {
  _cl_device_id() = default;
  explicit _cl_device_id(const DeviceDescription &description) : DeviceDescription(description) {}

  // A sub-device's: the device it was partitioned from (held for as long as
  // the sub-device lives), and the partition as requested, ending in 0
  // (CL_DEVICE_PARTITION_TYPE). The root device has neither.
  lanewise::icd::OwnerRef<_cl_device_id> parent;
  std::vector<cl_device_partition_property> partition;
  // Where a sub-device's launches run: an arena of computeUnits workers.
  // Null for the root device, whose launches use every worker.
  std::shared_ptr<lanewise::runtime::WorkerArena> arena;

  bool isRoot() const { return parent.get() == nullptr; }
};

namespace lanewise::icd {
_cl_platform_id *thePlatform();
_cl_device_id *theDevice();

// "name1 name2 ..." from a name/version list.
std::string joinNames(std::span<const cl_name_version> list);
} // namespace lanewise::icd
