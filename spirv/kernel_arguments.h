// SPDX-License-Identifier: Apache-2.0
// Kernel argument information (clGetKernelArgInfo, clSetKernelArg) from a
// kernel entry point, as llvm-spirv-14 records it: the parameters' OpName,
// the OpStrings "kernel_arg_type.<kernel>.<type>,<type>,...," and
// "kernel_arg_type_qual.<kernel>.<qualifiers>,...," when the module has them
// (llvm-spirv --preserve-ocl-kernel-arg-type-metadata-through-string), else
// the SPIR-V types and the parameters' decorations (Volatile, FuncParamAttr
// NoAlias = restrict, NoWrite = const), the rule llvm-spirv-14 uses when it
// translates such a module back to LLVM IR.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "spirv/module.h"

namespace lanewise::spirv {

enum class AddressQualifier { Private, Global, Constant, Local, Generic };
enum class AccessQualifier { None, ReadOnly, WriteOnly, ReadWrite };

struct KernelArgument {
  uint32_t parameter = 0;     // the OpFunctionParameter
  uint32_t type = 0;          // its SPIR-V type
  std::string name;           // "" when the parameter has no OpName
  std::string typeName;       // as written in the kernel: "float4*", "uint", "Pair"
  std::string typeQualifiers; // space-separated, as recorded: "restrict const"
  bool isConst = false, isRestrict = false, isVolatile = false, isPipe = false;
  AddressQualifier addressQualifier = AddressQualifier::Private;
  AccessQualifier accessQualifier = AccessQualifier::None;
  // A pointer to global, constant, local or generic memory (a buffer, or
  // local memory whose size the host gives).
  bool isPointer = false;
  // Bytes the host passes for the argument: the value's size for a
  // by-value argument (a struct passed ByVal included), the pointer size for
  // a pointer or an opaque object (image, sampler, pipe, queue, event).
  uint64_t size = 0;
  uint64_t alignment = 0;
};

// One entry per parameter of the entry point's function, in order.
std::vector<KernelArgument> kernelArguments(const Module &module, const EntryPoint &entryPoint);

std::string_view addressQualifierName(AddressQualifier qualifier); // "global", ...
std::string_view accessQualifierName(AccessQualifier qualifier);   // "read_only", ...

// The OpenCL C spelling of a type ("float4", "int*", "struct Pair"), as
// llvm-spirv-14 derives it; integers are signed unless `isUnsigned`.
std::string openclTypeName(const Module &module, uint32_t typeId, bool isUnsigned = false);

} // namespace lanewise::spirv
