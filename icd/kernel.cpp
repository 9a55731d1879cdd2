// SPDX-License-Identifier: Apache-2.0
// Kernels and their launches (OpenCL 3.0 API, 5.9). A launch allocates
// nothing on the enqueuing thread: the KernelCommand lives in its event's
// inline work, its arguments in an InlineArray of up to eight, each
// argument's bytes inline up to 16 (runtime::ArgumentBytes). The enqueuing
// thread writes the command and a pool thread reads it and lets it go, so
// an allocation made on one and freed on the other would take glibc's
// arena lock, and every cache line of the command costs.
#include "icd/api.h"
#include "icd/image.h"
#include "icd/inline_array.h"
#include "icd/program.h"
#include "icd/queue.h"
#include "icd/sampler.h"
#include "runtime/trace.h"

#include <CL/cl_ext.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

using namespace lanewise;
using namespace lanewise::icd;
using runtime::ArgumentBinding;

_cl_kernel::_cl_kernel(_cl_program *program, std::shared_ptr<const ProgramExecutable> executable,
                       const ProgramExecutable::Kernel *kernel)
    : program(program), executable(std::move(executable)), info(kernel),
      arguments(kernel->code->arguments.size()) {
  ++program->attachedKernels;
}

_cl_kernel::~_cl_kernel() { --program->attachedKernels; }

namespace {

// The address a memory object argument passes: a buffer's storage, an
// image's descriptor (runtime/image.h).
std::uint64_t argumentAddress(const _cl_mem &mem) {
  return mem.isImage() ? reinterpret_cast<std::uint64_t>(&mem.image->descriptor)
                       : reinterpret_cast<std::uint64_t>(mem.storage);
}

const char *imageTypeName(runtime::ImageType type) {
  switch (type) {
  case runtime::ImageType::Image1D:
    return "image1d_t";
  case runtime::ImageType::Image1DBuffer:
    return "image1d_buffer_t";
  case runtime::ImageType::Image1DArray:
    return "image1d_array_t";
  case runtime::ImageType::Image2D:
    return "image2d_t";
  case runtime::ImageType::Image2DArray:
    return "image2d_array_t";
  case runtime::ImageType::Image3D:
    return "image3d_t";
  }
  return "image";
}

cl_mem_object_type memObjectType(runtime::ImageType type) {
  switch (type) {
  case runtime::ImageType::Image1D:
    return CL_MEM_OBJECT_IMAGE1D;
  case runtime::ImageType::Image1DBuffer:
    return CL_MEM_OBJECT_IMAGE1D_BUFFER;
  case runtime::ImageType::Image1DArray:
    return CL_MEM_OBJECT_IMAGE1D_ARRAY;
  case runtime::ImageType::Image2D:
    return CL_MEM_OBJECT_IMAGE2D;
  case runtime::ImageType::Image2DArray:
    return CL_MEM_OBJECT_IMAGE2D_ARRAY;
  case runtime::ImageType::Image3D:
    return CL_MEM_OBJECT_IMAGE3D;
  }
  return CL_MEM_OBJECT_IMAGE2D;
}

// OpenCL 3.0, clSetKernelArg: an image argument takes an image of the type
// the kernel declares (CL_INVALID_MEM_OBJECT), created for the accesses its
// qualifier makes (CL_INVALID_ARG_VALUE: a read_only argument no
// CL_MEM_WRITE_ONLY image, a write_only one no CL_MEM_READ_ONLY image; a
// read_write one neither, and a format of the CL_MEM_KERNEL_READ_AND_WRITE
// list, OpenCL 3.0, Image Format Mapping).
cl_int checkImageArgument(_cl_context &context, const std::string &where,
                          const ArgumentBinding &binding, const _cl_kernel &kernel, cl_mem mem) {
  const char *declared = imageTypeName(binding.imageType);
  if (!isValid(mem))
    return fail(context, CL_INVALID_MEM_OBJECT,
                where + ": arg_value does not point to a valid image for an " + declared +
                    " argument");
  if (mem->context.get() != kernel.program->context.get())
    return fail(context, CL_INVALID_MEM_OBJECT,
                where + ": the image belongs to another context than the kernel");
  if (!mem->isImage() || mem->type != memObjectType(binding.imageType))
    return fail(context, CL_INVALID_MEM_OBJECT,
                where + ": the memory object is a " +
                    (mem->isImage() ? std::string("different image type") : mem->kindName()) +
                    ", not an image of the argument's type " + declared);
  const cl_mem_flags flags = mem->flags;
  switch (binding.imageAccess) {
  case runtime::ImageAccess::ReadOnly:
    if (flags & CL_MEM_WRITE_ONLY)
      return fail(context, CL_INVALID_ARG_VALUE,
                  where + ": a read_only image argument gets an image created with "
                          "CL_MEM_WRITE_ONLY");
    break;
  case runtime::ImageAccess::WriteOnly:
    if (flags & CL_MEM_READ_ONLY)
      return fail(context, CL_INVALID_ARG_VALUE,
                  where + ": a write_only image argument gets an image created with "
                          "CL_MEM_READ_ONLY");
    break;
  case runtime::ImageAccess::ReadWrite:
    if (flags & (CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY))
      return fail(context, CL_INVALID_ARG_VALUE,
                  where + ": a read_write image argument gets an image created with " +
                      (flags & CL_MEM_READ_ONLY ? "CL_MEM_READ_ONLY" : "CL_MEM_WRITE_ONLY"));
    if (!mem->image->info->kernelReadAndWrite)
      return fail(context, CL_INVALID_ARG_VALUE,
                  where + ": a read_write image argument gets an image whose format is not "
                          "supported for CL_MEM_KERNEL_READ_AND_WRITE");
    break;
  }
  return CL_SUCCESS;
}

std::string argumentLabel(const _cl_kernel &kernel, size_t index) {
  const auto &arguments = kernel.info->arguments;
  const std::string name = index < arguments.size() ? arguments[index].name : std::string();
  return "argument " + std::to_string(index) + (name.empty() ? "" : " '" + name + "'");
}

// "(x, y, z)" of the first `count` sizes.
template <typename Size> std::string sizeList(const Size *sizes, cl_uint count) {
  std::string text = "(";
  for (cl_uint d = 0; d < count; ++d)
    text += (d ? ", " : "") + std::to_string(sizes[d]);
  return text + ")";
}

cl_kernel createKernel(cl_program program, const ProgramExecutable::Kernel *kernel,
                       std::shared_ptr<const ProgramExecutable> executable) {
  return new _cl_kernel(program, std::move(executable), kernel);
}

// The private memory of one work-group's work-items, for kernels whose
// private variables live in memory: a work-group's private memory is one
// allocation per worker thread, which this bounds.
constexpr cl_ulong privateBytesPerWorkGroup = cl_ulong(1) << 30;

// CL_KERNEL_WORK_GROUP_SIZE: the device's limit, lowered for a kernel whose
// work-items need so much private memory that a full work-group of them
// would exceed privateBytesPerWorkGroup (0 when one work-item already does).
size_t kernelWorkGroupLimit(const _cl_device_id &device, const runtime::KernelCode &code) {
  const cl_ulong perItem = code.memory.privateBytesPerLane;
  if (perItem == 0)
    return device.maxWorkGroupSize;
  return static_cast<size_t>(std::min<cl_ulong>(device.maxWorkGroupSize,
                                                privateBytesPerWorkGroup / perItem));
}

// The work-group size Lanewise picks when the application passes none: the
// whole first dimension up to 128 lanes (or `limit`), a divisor of it when
// one is large enough, else, when the kernel allows non-uniform
// work-groups, a smaller last one; when it does not (`uniform`), the
// smallest divisor above 128 that `limit` allows, else the largest below.
void chooseLocalSize(const size_t *global, size_t *local, size_t limit, bool uniform) {
  const size_t target = std::min<size_t>(128, limit);
  for (cl_uint d = 0; d < 3; ++d)
    local[d] = 1;
  if (global[0] % target == 0) {
    local[0] = target;
    return;
  }
  size_t best = 1;
  for (size_t candidate = std::min(global[0], target); candidate > 1; --candidate)
    if (global[0] % candidate == 0) {
      best = candidate;
      break;
    }
  if (best >= 16) {
    local[0] = best;
    return;
  }
  if (!uniform) {
    local[0] = std::min(global[0], target);
    return;
  }
  local[0] = best;
  for (size_t candidate = target + 1; candidate <= std::min(global[0], limit); ++candidate)
    if (global[0] % candidate == 0) {
      local[0] = candidate;
      break;
    }
}

// The OpenCL C attributes a kernel was declared with, as the source spells
// them, separated by spaces (CL_KERNEL_ATTRIBUTES).
std::string kernelAttributes(const spirv::EntryPoint &entryPoint) {
  std::string text;
  auto add = [&](const std::string &attribute) {
    text += (text.empty() ? "" : " ") + attribute;
  };
  auto size = [](const std::array<uint32_t, 3> &s) {
    return "(" + std::to_string(s[0]) + "," + std::to_string(s[1]) + "," + std::to_string(s[2]) +
           ")";
  };
  if (entryPoint.localSize)
    add("reqd_work_group_size" + size(*entryPoint.localSize));
  if (entryPoint.localSizeHint)
    add("work_group_size_hint" + size(*entryPoint.localSizeHint));
  if (entryPoint.vecTypeHint) {
    // SPIR-V, Execution Mode VecTypeHint: the low 16 bits name the element
    // type (0-3: 8- to 64-bit integers, 4-6: 16- to 64-bit floats; SPIR-V
    // keeps no sign, so integers read as unsigned), the high 16 bits the
    // component count.
    static const char *const elements[] = {"uchar", "ushort", "uint", "ulong",
                                           "half",  "float",  "double"};
    const uint32_t element = *entryPoint.vecTypeHint & 0xffff;
    const uint32_t components = *entryPoint.vecTypeHint >> 16;
    if (element < std::size(elements))
      add(std::string("vec_type_hint(") + elements[element] +
          (components > 1 ? std::to_string(components) : "") + ")");
  }
  return text;
}

} // namespace

namespace lanewise::icd::api {

cl_kernel CL_API_CALL clCreateKernel(cl_program program, const char *name, cl_int *errcodeReturn) {
  auto failed = [&](cl_int error) -> cl_kernel {
    setError(errcodeReturn, error);
    return nullptr;
  };
  if (!isValid(program))
    return failed(CL_INVALID_PROGRAM);
  _cl_context &context = *program->context;
  auto executable = program->built();
  if (!executable)
    return failed(fail(context, CL_INVALID_PROGRAM_EXECUTABLE,
                       "clCreateKernel: the program has not been built successfully"));
  if (!name)
    return failed(fail(context, CL_INVALID_VALUE, "clCreateKernel: kernel_name is NULL"));
  const ProgramExecutable::Kernel *kernel = executable->find(name);
  if (!kernel)
    return failed(fail(context, CL_INVALID_KERNEL_NAME,
                       std::string("clCreateKernel: the program has no kernel '") + name + "'"));
  setError(errcodeReturn, CL_SUCCESS);
  return createKernel(program, kernel, executable);
}

cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program, cl_uint numKernels,
                                            cl_kernel *kernels, cl_uint *numKernelsReturn) {
  if (!isValid(program))
    return CL_INVALID_PROGRAM;
  auto executable = program->built();
  if (!executable)
    return fail(*program->context, CL_INVALID_PROGRAM_EXECUTABLE,
                "clCreateKernelsInProgram: the program has not been built successfully");
  const auto count = static_cast<cl_uint>(executable->kernels.size());
  if (kernels && numKernels < count)
    return fail(*program->context, CL_INVALID_VALUE,
                "clCreateKernelsInProgram: num_kernels " + std::to_string(numKernels) +
                    " is less than the program's " + std::to_string(count) + " kernels");
  if (kernels)
    for (cl_uint i = 0; i < count; ++i)
      kernels[i] = createKernel(program, &executable->kernels[i], executable);
  if (numKernelsReturn)
    *numKernelsReturn = count;
  return CL_SUCCESS;
}

cl_kernel CL_API_CALL clCloneKernel(cl_kernel source, cl_int *errcodeReturn) {
  if (!isValid(source)) {
    setError(errcodeReturn, CL_INVALID_KERNEL);
    return nullptr;
  }
  auto *copy = new _cl_kernel(source->program.get(), source->executable, source->info);
  {
    std::lock_guard lock(source->mutex);
    copy->arguments = source->arguments;
  }
  setError(errcodeReturn, CL_SUCCESS);
  return copy;
}

cl_int CL_API_CALL clRetainKernel(cl_kernel kernel) {
  if (!isValid(kernel))
    return CL_INVALID_KERNEL;
  return kernel->retain() ? CL_SUCCESS : CL_INVALID_KERNEL;
}

cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel) {
  if (!isValid(kernel))
    return CL_INVALID_KERNEL;
  return kernel->release() ? CL_SUCCESS : CL_INVALID_KERNEL;
}

cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint index, size_t size,
                                  const void *value) {
  if (!isValid(kernel))
    return CL_INVALID_KERNEL;
  _cl_context &context = *kernel->program->context;
  const auto &bindings = kernel->info->code->arguments;
  const std::string name = "clSetKernelArg: kernel '" + kernel->info->name + "'";
  if (index >= bindings.size())
    return fail(context, CL_INVALID_ARG_INDEX,
                name + ": arg_index " + std::to_string(index) + " is past its " +
                    std::to_string(bindings.size()) + " arguments");
  const ArgumentBinding &binding = bindings[index];
  const std::string where = name + ", " + argumentLabel(*kernel, index);
  _cl_kernel::Argument argument;
  switch (binding.kind) {
  case ArgumentBinding::Kind::GlobalBuffer: {
    if (size != sizeof(cl_mem))
      return fail(context, CL_INVALID_ARG_SIZE,
                  where + ": arg_size " + std::to_string(size) +
                      " is not sizeof(cl_mem) for a buffer");
    cl_mem mem = value ? *static_cast<const cl_mem *>(value) : nullptr;
    std::uint64_t address = 0;
    if (mem) {
      if (!isValid(mem))
        return fail(context, CL_INVALID_MEM_OBJECT,
                    where + ": arg_value does not point to a valid buffer");
      if (mem->isImage())
        return fail(context, CL_INVALID_MEM_OBJECT,
                    where + ": arg_value is an image; a pointer argument takes a buffer");
      if (mem->context.get() != kernel->program->context.get())
        return fail(context, CL_INVALID_MEM_OBJECT,
                    where + ": the buffer belongs to another context than the kernel");
      address = reinterpret_cast<std::uint64_t>(mem->storage);
      argument.buffer = mem;
    }
    argument.value.bytes.resize(8);
    std::memcpy(argument.value.bytes.data(), &address, 8);
    break;
  }
  case ArgumentBinding::Kind::LocalBuffer:
    if (value)
      return fail(context, CL_INVALID_ARG_VALUE,
                  where + ": arg_value is not NULL for a local argument");
    if (size == 0)
      return fail(context, CL_INVALID_ARG_SIZE, where + ": arg_size is 0 for a local argument");
    argument.value.localSize = size;
    break;
  case ArgumentBinding::Kind::Value:
  case ArgumentBinding::Kind::ByValue: {
    if (size != binding.size)
      return fail(context, CL_INVALID_ARG_SIZE,
                  where + ": arg_size " + std::to_string(size) + " is not the argument's " +
                      std::to_string(binding.size) + " bytes");
    if (!value)
      return fail(context, CL_INVALID_ARG_VALUE, where + ": arg_value is NULL");
    const size_t kept = binding.kind == ArgumentBinding::Kind::Value ? binding.registerSize : size;
    const auto *bytes = static_cast<const std::byte *>(value);
    argument.value.bytes.assign(bytes, bytes + kept);
    break;
  }
  case ArgumentBinding::Kind::Image: {
    if (size != sizeof(cl_mem))
      return fail(context, CL_INVALID_ARG_SIZE,
                  where + ": arg_size " + std::to_string(size) +
                      " is not sizeof(cl_mem) for an image");
    cl_mem mem = value ? *static_cast<const cl_mem *>(value) : nullptr;
    if (cl_int error = checkImageArgument(context, where, binding, *kernel, mem);
        error != CL_SUCCESS)
      return error;
    const std::uint64_t address = argumentAddress(*mem);
    argument.value.bytes.resize(8);
    std::memcpy(argument.value.bytes.data(), &address, 8);
    argument.buffer = mem;
    break;
  }
  case ArgumentBinding::Kind::Sampler: {
    if (size != sizeof(cl_sampler))
      return fail(context, CL_INVALID_ARG_SIZE,
                  where + ": arg_size " + std::to_string(size) +
                      " is not sizeof(cl_sampler) for a sampler");
    cl_sampler sampler = value ? *static_cast<const cl_sampler *>(value) : nullptr;
    if (!isValid(sampler))
      return fail(context, CL_INVALID_SAMPLER,
                  where + ": arg_value does not point to a valid sampler");
    if (sampler->context.get() != kernel->program->context.get())
      return fail(context, CL_INVALID_SAMPLER,
                  where + ": the sampler belongs to another context than the kernel");
    // The bit field, zero-extended to 64 bits (runtime/image.h).
    const std::uint64_t bits = sampler->bits();
    argument.value.bytes.resize(8);
    std::memcpy(argument.value.bytes.data(), &bits, 8);
    break;
  }
  }
  argument.set = true;
  std::lock_guard lock(kernel->mutex);
  kernel->arguments[index] = std::move(argument);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint index, const void *pointer) {
  if (!isValid(kernel))
    return CL_INVALID_KERNEL;
  const auto &bindings = kernel->info->code->arguments;
  if (index >= bindings.size() || bindings[index].kind != ArgumentBinding::Kind::GlobalBuffer)
    return fail(*kernel->program->context, CL_INVALID_ARG_INDEX,
                "clSetKernelArgSVMPointer: kernel '" + kernel->info->name + "': arg_index " +
                    std::to_string(index) + " is not a global or constant pointer argument");
  _cl_kernel::Argument argument;
  const std::uint64_t address = reinterpret_cast<std::uint64_t>(pointer);
  argument.value.bytes.resize(8);
  std::memcpy(argument.value.bytes.data(), &address, 8);
  argument.set = true;
  std::lock_guard lock(kernel->mutex);
  kernel->arguments[index] = std::move(argument);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param, size_t size,
                                       const void *value) {
  if (!isValid(kernel))
    return CL_INVALID_KERNEL;
  _cl_context &context = *kernel->program->context;
  // CL_KERNEL_EXEC_INFO_SVM_PTRS with no pointers (size 0, NULL) clears the
  // set an earlier call gave.
  if (param == CL_KERNEL_EXEC_INFO_SVM_PTRS && !value && size == 0)
    return CL_SUCCESS;
  if (!value || size == 0)
    return fail(context, CL_INVALID_VALUE,
                "clSetKernelExecInfo: param_value is NULL or param_value_size is 0");
  switch (param) {
  case CL_KERNEL_EXEC_INFO_SVM_PTRS:
    if (size % sizeof(void *))
      return fail(context, CL_INVALID_VALUE,
                  "clSetKernelExecInfo: CL_KERNEL_EXEC_INFO_SVM_PTRS: param_value_size " +
                      std::to_string(size) + " is not a multiple of sizeof(void *)");
    return CL_SUCCESS; // device memory is host memory: nothing to make resident
  case CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM:
    // Fine-grain system SVM is not in CL_DEVICE_SVM_CAPABILITIES.
    return *static_cast<const cl_bool *>(value) ? CL_INVALID_OPERATION : CL_SUCCESS;
  default:
    return fail(context, CL_INVALID_VALUE, "clSetKernelExecInfo: unknown param_name");
  }
}

cl_int CL_API_CALL clGetKernelInfo(cl_kernel kernel, cl_kernel_info param, size_t size,
                                   void *value, size_t *sizeReturn) {
  if (!isValid(kernel))
    return CL_INVALID_KERNEL;
  InfoResult result(size, value, sizeReturn);
  switch (param) {
  case CL_KERNEL_FUNCTION_NAME:
    return result.string(kernel->info->name);
  case CL_KERNEL_NUM_ARGS:
    return result(static_cast<cl_uint>(kernel->arguments.size()));
  case CL_KERNEL_REFERENCE_COUNT:
    return result(kernel->referenceCount());
  case CL_KERNEL_CONTEXT:
    return result(static_cast<cl_context>(kernel->program->context.get()));
  case CL_KERNEL_PROGRAM:
    return result(static_cast<cl_program>(kernel->program.get()));
  case CL_KERNEL_ATTRIBUTES:
    // OpenCL 3.0: empty for kernels not created from OpenCL C source with
    // clCreateProgramWithSource.
    return result.string(kernel->program->origin == _cl_program::Origin::Source
                             ? kernelAttributes(*kernel->info->entryPoint)
                             : std::string());
  default:
    return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel kernel, cl_uint index, cl_kernel_arg_info param,
                                      size_t size, void *value, size_t *sizeReturn) {
  if (!isValid(kernel))
    return CL_INVALID_KERNEL;
  if (index >= kernel->info->arguments.size())
    return CL_INVALID_ARG_INDEX;
  const spirv::KernelArgument &argument = kernel->info->arguments[index];
  InfoResult result(size, value, sizeReturn);
  switch (param) {
  case CL_KERNEL_ARG_ADDRESS_QUALIFIER: {
    cl_kernel_arg_address_qualifier qualifier = CL_KERNEL_ARG_ADDRESS_PRIVATE;
    switch (argument.addressQualifier) {
    case spirv::AddressQualifier::Global:
    case spirv::AddressQualifier::Generic:
      qualifier = CL_KERNEL_ARG_ADDRESS_GLOBAL;
      break;
    case spirv::AddressQualifier::Constant:
      qualifier = CL_KERNEL_ARG_ADDRESS_CONSTANT;
      break;
    case spirv::AddressQualifier::Local:
      qualifier = CL_KERNEL_ARG_ADDRESS_LOCAL;
      break;
    default:
      break;
    }
    return result(qualifier);
  }
  case CL_KERNEL_ARG_ACCESS_QUALIFIER: {
    cl_kernel_arg_access_qualifier qualifier = CL_KERNEL_ARG_ACCESS_NONE;
    switch (argument.accessQualifier) {
    case spirv::AccessQualifier::ReadOnly:
      qualifier = CL_KERNEL_ARG_ACCESS_READ_ONLY;
      break;
    case spirv::AccessQualifier::WriteOnly:
      qualifier = CL_KERNEL_ARG_ACCESS_WRITE_ONLY;
      break;
    case spirv::AccessQualifier::ReadWrite:
      qualifier = CL_KERNEL_ARG_ACCESS_READ_WRITE;
      break;
    default:
      break;
    }
    return result(qualifier);
  }
  case CL_KERNEL_ARG_TYPE_NAME:
    return result.string(argument.typeName);
  case CL_KERNEL_ARG_TYPE_QUALIFIER: {
    cl_kernel_arg_type_qualifier qualifier = CL_KERNEL_ARG_TYPE_NONE;
    if (argument.isConst)
      qualifier |= CL_KERNEL_ARG_TYPE_CONST;
    if (argument.isRestrict)
      qualifier |= CL_KERNEL_ARG_TYPE_RESTRICT;
    if (argument.isVolatile)
      qualifier |= CL_KERNEL_ARG_TYPE_VOLATILE;
    if (argument.isPipe)
      qualifier |= CL_KERNEL_ARG_TYPE_PIPE;
    return result(qualifier);
  }
  case CL_KERNEL_ARG_NAME:
    if (argument.name.empty())
      return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
    return result.string(argument.name);
  default:
    return CL_INVALID_VALUE;
  }
}

namespace {
// Whether `device` names a device of the kernel: one of its context's, or
// null when the context has only one (OpenCL 3.0, clGetKernelWorkGroupInfo).
bool kernelDevice(const _cl_kernel &kernel, cl_device_id device) {
  const _cl_context &context = *kernel.program->context;
  return device ? isValid(device) && context.hasDevice(device) : context.devices.size() == 1;
}
} // namespace

cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
                                            cl_kernel_work_group_info param, size_t size,
                                            void *value, size_t *sizeReturn) {
  if (!isValid(kernel))
    return CL_INVALID_KERNEL;
  if (!kernelDevice(*kernel, device))
    return CL_INVALID_DEVICE;
  const _cl_device_id &d = *kernel->program->context->device;
  const runtime::KernelCode &code = *kernel->info->code;
  InfoResult result(size, value, sizeReturn);
  switch (param) {
  case CL_KERNEL_WORK_GROUP_SIZE:
    return result(kernelWorkGroupLimit(d, code));
  case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
    size_t compiled[3] = {0, 0, 0};
    if (const auto &reqd = kernel->info->entryPoint->localSize)
      for (int i = 0; i < 3; ++i)
        compiled[i] = (*reqd)[i];
    return result(compiled);
  }
  case CL_KERNEL_LOCAL_MEM_SIZE: {
    cl_ulong bytes = code.memory.workgroupBytes;
    std::lock_guard lock(kernel->mutex);
    for (size_t i = 0; i < code.arguments.size(); ++i)
      if (code.arguments[i].kind == ArgumentBinding::Kind::LocalBuffer)
        bytes += kernel->arguments[i].value.localSize;
    return result(bytes);
  }
  case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
    return result(size_t{64});
  case CL_KERNEL_PRIVATE_MEM_SIZE:
    return result(cl_ulong{code.memory.privateBytesPerLane});
  case CL_KERNEL_GLOBAL_WORK_SIZE:
    // Only for custom devices and built-in kernels (OpenCL 3.0).
    return CL_INVALID_VALUE;
  default:
    return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device,
                                           cl_kernel_sub_group_info param, size_t inputSize,
                                           const void *input, size_t size, void *value,
                                           size_t *sizeReturn) {
  if (!isValid(kernel))
    return CL_INVALID_KERNEL;
  if (!kernelDevice(*kernel, device))
    return CL_INVALID_DEVICE;
  const _cl_device_id &d = *kernel->program->context->device;
  if (!d.capabilities.subgroups)
    return CL_INVALID_OPERATION;
  const runtime::KernelCode &code = *kernel->info->code;
  const size_t S = code.subgroupSize;
  InfoResult result(size, value, sizeReturn);
  // The local size given as input: 1 to 3 size_t.
  auto localSize = [&](size_t &lanes) {
    if (!input || inputSize == 0 || inputSize % sizeof(size_t) || inputSize > 3 * sizeof(size_t))
      return false;
    lanes = 1;
    for (size_t i = 0; i < inputSize / sizeof(size_t); ++i)
      lanes *= static_cast<const size_t *>(input)[i];
    return true;
  };
  switch (param) {
  case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE: {
    size_t lanes = 0;
    if (!localSize(lanes))
      return CL_INVALID_VALUE;
    // The size get_max_sub_group_size() returns for any local size.
    (void)lanes;
    return result(S);
  }
  case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE: {
    size_t lanes = 0;
    if (!localSize(lanes))
      return CL_INVALID_VALUE;
    return result((lanes + S - 1) / S);
  }
  case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
    if (!input || inputSize != sizeof(size_t))
      return CL_INVALID_VALUE;
    const size_t count = *static_cast<const size_t *>(input);
    // The output has as many dimensions as the value has room for.
    const size_t dimensions = value ? size / sizeof(size_t) : 1;
    if (value && (size % sizeof(size_t) || dimensions == 0 || dimensions > 3))
      return CL_INVALID_VALUE;
    std::vector<size_t> local(dimensions ? dimensions : 1, 1);
    if (count == 0 || count * S > d.maxWorkGroupSize)
      std::fill(local.begin(), local.end(), 0);
    else
      local[0] = count * S;
    return result.array<size_t>(local);
  }
  case CL_KERNEL_MAX_NUM_SUB_GROUPS:
    return result(d.maxWorkGroupSize / S);
  case CL_KERNEL_COMPILE_NUM_SUB_GROUPS:
    return result(size_t{0});
  case CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL:
    return result(size_t{code.requiredSubgroupSize});
  default:
    return CL_INVALID_VALUE;
  }
}

namespace {

// OpenCL 3.0, clEnqueueNDRangeKernel: CL_INVALID_KERNEL_ARGS if an argument
// was never set. The message goes to the context's callback and, when
// checks are on, to stderr.
cl_int reportBadArgument(const char *entryPoint, const _cl_kernel &kernel, size_t index,
                         const char *what) {
  const std::string message = std::string(entryPoint) + ": kernel '" + kernel.info->name +
                              "': " + argumentLabel(kernel, index) + " " + what;
  if (runtime::CheckSet::fromEnvironment().any() || kernel.info->code->checks)
    std::fprintf(stderr, "lanewise: %s (CL_INVALID_KERNEL_ARGS)\n", message.c_str());
  return fail(*kernel.program->context, CL_INVALID_KERNEL_ARGS, message);
}

// The global memory a checked launch may access: its buffer arguments, the
// context's SVM allocations and the program-scope variables; then the
// released memory the checks name.
std::vector<runtime::MemoryRange> checkedMemory(const _cl_kernel &kernel,
                                                const _cl_context &context,
                                                std::span<const OwnerRef<_cl_mem>> buffers) {
  std::vector<runtime::MemoryRange> memory;
  // An image argument's texels, which its descriptor points to.
  for (size_t index = 0; index < buffers.size(); ++index)
    if (const _cl_mem *buffer = buffers[index].get())
      memory.push_back({reinterpret_cast<std::uint64_t>(buffer->storage), buffer->size,
                        runtime::CheckSite::Space::Global,
                        std::string(buffer->kindName()) + " " + argumentLabel(kernel, index)});
  for (const auto &[start, size] : context.svmAllocationList())
    memory.push_back({reinterpret_cast<std::uint64_t>(start), size,
                      runtime::CheckSite::Space::Global, "an SVM allocation"});
  const ProgramExecutable &executable = *kernel.executable;
  const auto globals = reinterpret_cast<std::uint64_t>(executable.globals.get());
  for (const ProgramExecutable::GlobalVariable &variable : executable.globalVariables)
    memory.push_back({globals + variable.offset, variable.size, runtime::CheckSite::Space::Global,
                      "program-scope variable '" + variable.name + "'"});
  for (runtime::MemoryRange &range : releasedMemory())
    memory.push_back(std::move(range));
  return memory;
}

// A kernel command: the launch as it was enqueued. It lives in its event
// (_cl_event::Work): with up to `inlineArguments` arguments, an enqueue
// allocates nothing for it.
struct KernelCommand {
  static constexpr size_t inlineArguments = 8;

  explicit KernelCommand(size_t arguments) : values(arguments), buffers(arguments) {}

  cl_int operator()() {
    if (empty)
      return CL_SUCCESS;
    try {
      if (code->checks)
        // Arguments passed by value are read through pointers to this copy.
        for (size_t i = 0; i < values.size(); ++i)
          if (code->arguments[i].kind == runtime::ArgumentBinding::Kind::ByValue)
            memory.push_back({reinterpret_cast<std::uint64_t>(values[i].bytes.data()),
                              values[i].bytes.size(), runtime::CheckSite::Space::Private,
                              "argument " + std::to_string(i) + " (passed by value)"});
      // A launch the checked mode aborted at its first finding, or the
      // watchdog stopped, fails the command (its event gets a negative
      // status).
      // A sub-device's launches run on its compute units alone.
      if (runtime::launch(*code, range, values.span(), std::move(memory), packed,
                          queue->device->arena.get()) == runtime::LaunchResult::Completed)
        return CL_SUCCESS;
      // The event keeps the queue alive until the command finishes.
      queue->kernelAborted = true;
      return CL_OUT_OF_RESOURCES;
    } catch (const std::bad_alloc &) {
      return CL_OUT_OF_RESOURCES;
    }
  }

  InlineArray<runtime::ArgumentValue, inlineArguments> values;
  // Each buffer or image argument's object (null for the other arguments),
  // held until the command finishes.
  InlineArray<OwnerRef<_cl_mem>, inlineArguments> buffers;
  std::vector<runtime::MemoryRange> memory; // under checks
  runtime::NDRange range;
  bool empty = false; // no work-item
  // The code for `range`, and for warps of several work-groups (or null),
  // both kept alive by `executable`.
  const runtime::KernelCode *code = nullptr;
  const runtime::KernelCode *packed = nullptr;
  std::shared_ptr<const ProgramExecutable> executable;
  _cl_command_queue *queue = nullptr;
};
static_assert(sizeof(KernelCommand) <= _cl_event::workInlineBytes,
              "a kernel command is kept in its event");

} // namespace

namespace {

// clEnqueueNDRangeKernel, and clEnqueueTask through it; `entryPoint` names
// the call in messages.
cl_int enqueueKernel(const char *entryPoint, cl_command_queue queue, cl_kernel kernel,
                     cl_uint workDim, const size_t *globalOffset, const size_t *globalSize,
                     const size_t *localSize, cl_uint numEvents, const cl_event *events,
                     cl_event *event) {
  if (!isValid(queue))
    return CL_INVALID_COMMAND_QUEUE;
  _cl_context &context = *queue->context;
  if (!isValid(kernel))
    return fail(context, CL_INVALID_KERNEL,
                std::string(entryPoint) + ": kernel is not a valid kernel");
  // Messages are made only for the errors they report: a launch that
  // succeeds allocates no text.
  const auto name = [&] {
    return std::string(entryPoint) + ": kernel '" + kernel->info->name + "'";
  };
  if (kernel->program->context.get() != queue->context.get())
    return fail(*kernel->program->context, CL_INVALID_CONTEXT,
                name() + ": the kernel and the queue belong to different contexts");
  if (workDim < 1 || workDim > 3)
    return fail(context, CL_INVALID_WORK_DIMENSION,
                name() + ": work_dim " + std::to_string(workDim) + " is not 1, 2 or 3");
  // OpenCL 3.0, clEnqueueNDRangeKernel: a NULL global_work_size, like a zero
  // in any dimension, makes a command that succeeds trivially once its
  // dependencies are met.
  static constexpr size_t noWorkItems[3] = {0, 0, 0};
  if (!globalSize)
    globalSize = noWorkItems;
  const _cl_device_id &device = *queue->device;

  runtime::NDRange range;
  range.dimensions = workDim;
  for (cl_uint d = 0; d < workDim; ++d) {
    range.global[d] = globalSize[d];
    range.offset[d] = globalOffset ? globalOffset[d] : 0;
    if (range.offset[d] > SIZE_MAX - range.global[d])
      return fail(context, CL_INVALID_GLOBAL_OFFSET,
                  name() + ": global_work_offset[" + std::to_string(d) +
                      "] + global_work_size is above SIZE_MAX");
  }
  const auto &required = kernel->info->entryPoint->localSize;
  // OpenCL 3.0, clEnqueueNDRangeKernel: CL_OUT_OF_RESOURCES when the kernel
  // cannot run for want of resources; here, memory the kernel's own
  // declarations ask for (`__private float x[1 << 28]`).
  const runtime::KernelCode &declared = *kernel->info->code;
  if (declared.memory.privateBytesPerLane > privateBytesPerWorkGroup)
    return fail(context, CL_OUT_OF_RESOURCES,
                name() + ": each work-item needs " +
                    std::to_string(declared.memory.privateBytesPerLane) +
                    " bytes of private memory (CL_KERNEL_PRIVATE_MEM_SIZE), above the " +
                    std::to_string(privateBytesPerWorkGroup) + " a work-group may have");
  const size_t groupLimit = kernelWorkGroupLimit(device, declared);
  size_t local[3] = {1, 1, 1};
  if (localSize) {
    const auto sizes = [&] { return "local_work_size " + sizeList(localSize, workDim); };
    // OpenCL 3.0, clEnqueueNDRangeKernel: a work-group of zero work-items is
    // CL_INVALID_WORK_GROUP_SIZE; a dimension above CL_DEVICE_MAX_WORK_ITEM_SIZES
    // CL_INVALID_WORK_ITEM_SIZE.
    size_t product = 1;
    for (cl_uint d = 0; d < workDim; ++d) {
      local[d] = localSize[d];
      if (local[d] > device.maxWorkGroupSize)
        return fail(context, CL_INVALID_WORK_ITEM_SIZE,
                    name() + ": " + sizes() + " is above CL_DEVICE_MAX_WORK_ITEM_SIZES (" +
                        std::to_string(device.maxWorkGroupSize) + ") in dimension " +
                        std::to_string(d));
      product *= local[d];
    }
    if (product == 0)
      return fail(context, CL_INVALID_WORK_GROUP_SIZE, name() + ": " + sizes() + " has a zero");
    if (product > groupLimit)
      return fail(context, CL_INVALID_WORK_GROUP_SIZE,
                  name() + ": " + sizes() + " makes work-groups of " + std::to_string(product) +
                      " work-items, above CL_KERNEL_WORK_GROUP_SIZE " +
                      std::to_string(groupLimit) +
                      (groupLimit < device.maxWorkGroupSize
                           ? " (the kernel's private memory, " +
                                 std::to_string(declared.memory.privateBytesPerLane) +
                                 " bytes a work-item, limits it)"
                           : std::string()));
    if (required)
      for (cl_uint d = 0; d < 3; ++d)
        if (local[d] != (*required)[d])
          return fail(context, CL_INVALID_WORK_GROUP_SIZE,
                      name() + ": " + sizes() + " is not the kernel's reqd_work_group_size" +
                          sizeList(required->data(), 3));
    if (kernel->program->uniformWorkGroups)
      for (cl_uint d = 0; d < workDim; ++d)
        if (range.global[d] % local[d] != 0)
          return fail(context, CL_INVALID_WORK_GROUP_SIZE,
                      name() + ": global_work_size " + sizeList(range.global, workDim) +
                          " is not a multiple of " + sizes() +
                          " and the kernel's work-groups must be uniform (its program was "
                          "compiled for OpenCL C before 2.0, or with "
                          "-cl-uniform-work-group-size)");
  } else if (required) {
    for (cl_uint d = 0; d < 3; ++d)
      local[d] = (*required)[d];
  } else {
    chooseLocalSize(globalSize, local, groupLimit, kernel->program->uniformWorkGroups);
  }
  if (local[0] * local[1] * local[2] > groupLimit)
    return fail(context, CL_OUT_OF_RESOURCES,
                name() + ": its reqd_work_group_size" + sizeList(local, 3) +
                    " needs more private memory than a work-group may have (" +
                    std::to_string(declared.memory.privateBytesPerLane) +
                    " bytes a work-item)");
  for (cl_uint d = 0; d < 3; ++d)
    range.local[d] = local[d];

  if (cl_int error = validateWaitList(entryPoint, queue->context.get(), numEvents, events);
      error != CL_SUCCESS)
    return error;

  // The arguments as they are now: later clSetKernelArg calls do not affect
  // this command.
  KernelCommand command(kernel->arguments.size());
  cl_ulong localBytes = declared.memory.workgroupBytes; // CL_KERNEL_LOCAL_MEM_SIZE
  {
    std::lock_guard lock(kernel->mutex);
    for (size_t i = 0; i < kernel->arguments.size(); ++i) {
      const _cl_kernel::Argument &argument = kernel->arguments[i];
      if (!argument.set) {
        return reportBadArgument(entryPoint, *kernel, i, "was never set (clSetKernelArg)");
      }
      if (argument.buffer && !isValid(argument.buffer)) {
        return reportBadArgument(entryPoint, *kernel, i,
                                 "is a memory object that was released and deleted");
      }
      runtime::ArgumentValue &value = command.values[i];
      value = argument.value;
      if (declared.arguments[i].kind == runtime::ArgumentBinding::Kind::LocalBuffer)
        localBytes += argument.value.localSize;
      if (argument.buffer) {
        command.buffers[i] = OwnerRef(argument.buffer);
        const std::uint64_t address = argumentAddress(*argument.buffer);
        std::memcpy(value.bytes.data(), &address, 8);
        if (!argument.buffer->isImage())
          value.bufferBytes = argument.buffer->size;
      }
    }
  }
  if (localBytes > device.localMemSize)
    return fail(context, CL_OUT_OF_RESOURCES,
                name() + ": its __local variables and arguments take " +
                    std::to_string(localBytes) +
                    " bytes (CL_KERNEL_LOCAL_MEM_SIZE), above CL_DEVICE_LOCAL_MEM_SIZE " +
                    std::to_string(device.localMemSize));
  // Under checks: the global memory the launch may access.
  const std::shared_ptr<const runtime::KernelCode> &code = kernel->info->codeFor(range);
  if (code->checks)
    command.memory = checkedMemory(*kernel, *queue->context.get(), command.buffers.span());
  for (cl_uint d = 0; d < workDim; ++d)
    command.empty |= range.global[d] == 0;
  command.code = code.get();
  command.packed = kernel->executable->packedFor(*kernel->info, range);
  command.executable = kernel->executable;
  command.range = range;
  command.queue = queue;

  return queue->enqueue(CL_COMMAND_NDRANGE_KERNEL, waitListSpan(numEvents, events),
                        std::move(command), event, /*blocking=*/false,
                        runtime::trace::enabled() ? "kernel " + kernel->info->name : std::string());
}

} // namespace

cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue queue, cl_kernel kernel, cl_uint workDim,
                                          const size_t *globalOffset, const size_t *globalSize,
                                          const size_t *localSize, cl_uint numEvents,
                                          const cl_event *events, cl_event *event) {
  return enqueueKernel("clEnqueueNDRangeKernel", queue, kernel, workDim, globalOffset, globalSize,
                       localSize, numEvents, events, event);
}

cl_int CL_API_CALL clEnqueueTask(cl_command_queue queue, cl_kernel kernel, cl_uint numEvents,
                                 const cl_event *events, cl_event *event) {
  const size_t one[3] = {1, 1, 1};
  return enqueueKernel("clEnqueueTask", queue, kernel, 1, nullptr, one, one, numEvents, events,
                       event);
}

} // namespace lanewise::icd::api
