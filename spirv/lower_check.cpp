// SPDX-License-Identifier: Apache-2.0
// The access checks of the checked mode (runtime/check.h), bound to
// runtime/exec_check.cpp: each checked instruction's site (opcode, result
// id, source line, alignment, address space) and the checkAccess
// instruction that validates an access's address under the bounds,
// alignment, uninit and races checks. The division and sub-group checks
// are emitted by the families they guard (lower_arithmetic.cpp,
// lower_group.cpp), the asynchronous copies' by lower_memory.cpp; the
// barrier check is the scheduler's (runtime/launch.cpp); the register
// shadows are lower_undef.cpp's.
#include "spirv/lowering.h"

#include "spirv/names.h"

#include <algorithm>
#include <string>

namespace lanewise::spirv::lowering {

uint32_t KernelLowering::requiredAlignment(const Value &value) const {
  uint32_t alignment = value.elementBytes() * (value.components == 3 ? 4 : value.components);
  if (current_ && (current_->opcode == spv::OpLoad || current_->opcode == spv::OpStore)) {
    const size_t maskIndex = current_->opcode == spv::OpLoad ? 1 : 2;
    if (current_->operands.size() > maskIndex + 1 &&
        (current_->operands[maskIndex] & spv::MemoryAccessAlignedMask))
      alignment = std::min(alignment, current_->operands[maskIndex + 1]);
    // A load or store of a whole struct or array takes the alignment of its
    // type: a CPacked struct's is one, its members packed without padding
    // (SPIR-V 3.20, CPacked), whatever each member's own type needs.
    const uint32_t accessed = current_->opcode == spv::OpLoad ? current_->resultType
                              : resultTypes_.count(current_->idOperand(1))
                                  ? resultTypes_.at(current_->idOperand(1))
                                  : 0;
    const Type *type = accessed ? module_.type(accessed) : nullptr;
    if (type && (type->kind == Type::Kind::Struct || type->kind == Type::Kind::Array))
      if (const auto aggregate = alignmentOf(module_, accessed))
        alignment = std::min<uint32_t>(alignment, uint32_t(std::max<uint64_t>(*aggregate, 1)));
  }
  return alignment;
}

runtime::CheckSite::Space KernelLowering::spaceOf(spv::StorageClass storage) {
  using Space = runtime::CheckSite::Space;
  switch (storage) {
  case spv::StorageClassCrossWorkgroup:
    return Space::Global;
  case spv::StorageClassUniformConstant:
    return Space::Constant;
  case spv::StorageClassWorkgroup:
    return Space::Local;
  case spv::StorageClassFunction:
    return Space::Private;
  default:
    return Space::Generic;
  }
}

std::string KernelLowering::nameOf(uint32_t id) const {
  auto name = module_.names.find(decorated(id));
  return name != module_.names.end() && !name->second.empty() ? name->second
                                                              : "%" + std::to_string(id);
}

uint32_t KernelLowering::addSite(const Instruction &instruction, uint32_t alignment,
                                 runtime::CheckSite::Space space, bool write) {
  runtime::CheckSite site;
  site.opcode = opcodeName(instruction.opcode);
  if (instruction.opcode == spv::OpExtInst && instruction.operands.size() > 1)
    site.opcode += " " + openclStdName(instruction.operands[1]);
  site.resultId = instruction.result;
  if (const SourceLocation *location = module_.location(instruction);
      location && location->known()) {
    site.file = location->file.starts_with("./") ? location->file.substr(2) : location->file;
    site.line = location->line;
    site.column = location->column;
  }
  site.alignment = alignment;
  site.space = space;
  site.write = write;
  checks_->sites.push_back(std::move(site));
  return static_cast<uint32_t>(checks_->sites.size() - 1);
}

uint32_t KernelLowering::checkedAddress(const Value &pointer, uint32_t address, uint64_t bytes,
                                        uint32_t alignment, bool write) {
  // The uninitialised-read check watches __local and private memory; the
  // race check __local and global memory.
  const spv::StorageClass storage = pointer.storage;
  const bool generic = storage == spv::StorageClassGeneric || storage == spv::StorageClassMax;
  const bool uninit =
      checking(runtime::Check::Uninit) &&
      (generic || storage == spv::StorageClassWorkgroup || storage == spv::StorageClassFunction);
  const bool races =
      checking(runtime::Check::Races) && (generic || storage == spv::StorageClassWorkgroup ||
                                          storage == spv::StorageClassCrossWorkgroup);
  if (!checking(runtime::Check::Bounds) && !checking(runtime::Check::Alignment) && !uninit &&
      !races)
    return address;
  const uint32_t site = addSite(*current_, alignment, spaceOf(pointer.storage), write);
  // A copy carries uninitialised bytes (struct padding) along: its source
  // is not checked for them.
  checks_->sites[site].skipsUninit = !write && (current_->opcode == spv::OpCopyMemory ||
                                                current_->opcode == spv::OpCopyMemorySized);
  checks_->sites[site].writesPadding = write && bytes % 3 == 0 && alignment == bytes / 3 * 4;
  const spv::Op op = current_->opcode;
  checks_->sites[site].skipsRaces = (op >= spv::OpAtomicLoad && op <= spv::OpAtomicXor) ||
                                    op == spv::OpAtomicFlagTestAndSet ||
                                    op == spv::OpAtomicFlagClear || op == spv::OpAtomicFAddEXT ||
                                    op == spv::OpAtomicFMinEXT || op == spv::OpAtomicFMaxEXT;
  const uint32_t checked = allocate(8, pointer.varying);
  emit(runtime::checkAccessHandler(pointer.varying), checked, {address}, 1, site, bytes);
  return checked;
}

uint32_t KernelLowering::checkedBlockAddress(const Value &pointer, const Value &data, bool write) {
  const uint64_t bytes = uint64_t(code_.subgroupSize) * accessBytes(data);
  const size_t firstSite = checks_ ? checks_->sites.size() : 0;
  const uint32_t address =
      checkedAddress(pointer, pointer.offset, bytes, data.elementBytes(), write);
  for (size_t site = firstSite; checks_ && site < checks_->sites.size(); ++site) {
    checks_->sites[site].skipsRaces = true;
    checks_->sites[site].skipsUninit = !write;
  }
  return address;
}

} // namespace lanewise::spirv::lowering
