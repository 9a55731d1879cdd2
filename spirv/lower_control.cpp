// Block terminators and the phi copies of control-flow edges.
#include "spirv/lowering.h"

namespace lanewise::spirv::lowering {

std::vector<runtime::RegisterCopy> KernelLowering::edgeCopies(uint32_t from, uint32_t to) {
  std::vector<runtime::RegisterCopy> copies;
  const uint32_t fromLabel = cfg_->order()[from]->label;
  for (const Instruction &phi : cfg_->order()[to]->instructions) {
    if (phi.opcode != spv::OpPhi)
      break;
    for (size_t k = 0; k + 1 < phi.operands.size(); k += 2) {
      if (phi.operands[k + 1] != fromLabel)
        continue;
      const Value &source = use(phi.operands[k], phi);
      auto staged = phiStaging_.find(phi.result);
      const Value &staging = staged != phiStaging_.end() ? staged->second : values_.at(phi.result);
      std::function<void(const Value &, const Value &)> add = [&](const Value &a, const Value &b) {
        if (b.kind == Value::Kind::Aggregate) {
          for (size_t i = 0; i < b.members.size(); ++i)
            add(a.members[i], b.members[i]);
          return;
        }
        if (a.offset == b.offset && a.varying == b.varying)
          return; // the value took the phi's register (findCoalescedPhis)
        copies.push_back(
            {a.offset, b.offset, b.elementBytes(), b.components, a.varying, b.varying});
      };
      add(source, staging);
      if (auto shadow = undefShadow_.find(phi.result); shadow != undefShadow_.end()) {
        auto stagedShadow = undefShadowStaging_.find(phi.result);
        const uint32_t to =
            stagedShadow != undefShadowStaging_.end() ? stagedShadow->second : shadow->second;
        const Shadow from =
            shadowOf(phi.operands[k]).value_or(Shadow{shadowConstant(false), false});
        copies.push_back({from.offset, to, 1, 1, from.varying, true});
      }
      break;
    }
  }
  return copies;
}

runtime::Terminator KernelLowering::lowerTerminator(const Block &block, uint32_t number) {
  using Kind = runtime::Terminator::Kind;
  const Instruction &t = block.terminator();
  runtime::Terminator terminator;
  auto target = [&](uint32_t label) {
    const int n = cfg_->number(label);
    return firstPiece_[static_cast<uint32_t>(n)];
  };
  auto edge = [&](uint32_t label) {
    terminator.target.push_back(target(label));
    terminator.edgeCopies.push_back(edgeCopies(number, static_cast<uint32_t>(cfg_->number(label))));
  };
  switch (t.opcode) {
  case spv::OpBranch:
    terminator.kind = Kind::Branch;
    edge(t.idOperand(0));
    break;
  case spv::OpBranchConditional: {
    const uint32_t condition = t.idOperand(0);
    if (auto constant = module_.constantValue(condition);
        constant || t.idOperand(1) == t.idOperand(2)) {
      terminator.kind = Kind::Branch;
      edge(constant && *constant == 0 ? t.idOperand(2) : t.idOperand(1));
      break;
    }
    const Value &c = use(condition, t);
    terminator.kind = Kind::Conditional;
    terminator.condition = c.offset;
    terminator.conditionVarying = c.varying;
    edge(t.idOperand(1));
    edge(t.idOperand(2));
    break;
  }
  case spv::OpSwitch: {
    const Value &selector = use(t.idOperand(0), t);
    terminator.kind = Kind::Switch;
    terminator.condition = selector.offset;
    terminator.conditionVarying = selector.varying;
    terminator.selectorBytes = selector.elementBytes();
    edge(t.idOperand(1));
    const uint32_t literalWords = selector.elementBytes() == 8 ? 2 : 1;
    for (size_t i = 2; i + literalWords < t.operands.size() + 1; i += literalWords + 1) {
      uint64_t value = t.operands[i];
      if (literalWords == 2)
        value |= uint64_t(t.operands[i + 1]) << 32;
      terminator.caseValue.push_back(value);
      edge(t.operands[i + literalWords]);
    }
    break;
  }
  case spv::OpReturn:
  case spv::OpReturnValue:
    terminator.kind = Kind::Return;
    break;
  case spv::OpUnreachable:
    terminator.kind = Kind::Unreachable;
    break;
  default:
    fail(t, "unsupported terminator " + opcodeName(t.opcode));
  }
  return terminator;
}

} // namespace lanewise::spirv::lowering
