// SPDX-License-Identifier: Apache-2.0
#include "spirv/inline.h"

#include "spirv/errors.h"
#include "spirv/names.h"

#include <unordered_map>

namespace lanewise::spirv {

namespace {

constexpr int maximumDepth = 64;

class Inliner {
public:
  Inliner(const Module &module, uint32_t &nextId, std::unordered_map<uint32_t, uint32_t> &origins)
      : module_(module), nextId_(nextId), origins_(origins) {}

  // Expands the calls of `blocks` in place; `depth` counts the callers.
  void expand(std::vector<Block> &blocks, int depth, std::vector<uint32_t> &callers) {
    for (size_t b = 0; b < blocks.size(); ++b) {
      for (size_t i = 0; i < blocks[b].instructions.size(); ++i) {
        const Instruction &call = blocks[b].instructions[i];
        if (call.opcode != spv::OpFunctionCall)
          continue;
        splice(blocks, b, i, depth, callers);
        break; // the rest of the block moved to a new block, visited later
      }
    }
  }

private:
  uint32_t fresh() { return nextId_++; }

  // Replaces the call at blocks[b].instructions[i].
  void splice(std::vector<Block> &blocks, size_t b, size_t i, int depth,
              std::vector<uint32_t> &callers) {
    const Instruction call = blocks[b].instructions[i];
    const uint32_t calleeId = call.idOperand(0);
    const Function *callee = module_.function(calleeId);
    const std::string calleeName =
        module_.name(calleeId) ? *module_.name(calleeId) : "%" + std::to_string(calleeId);
    if (!callee || callee->isDeclaration())
      throw LoadError(LoadErrorKind::Invalid,
                      describe(call) + ": calls function '" + calleeName +
                          "', which has no body (an unresolved import: link the program first)");
    for (uint32_t caller : callers)
      if (caller == calleeId)
        throw LoadError(LoadErrorKind::Invalid, describe(call) + ": recursive call of '" +
                                                    calleeName +
                                                    "' (OpenCL C does not allow recursion)");
    if (depth >= maximumDepth)
      throw LoadError(LoadErrorKind::Invalid, describe(call) + ": calls nested deeper than " +
                                                  std::to_string(maximumDepth));

    // Copy the callee with fresh ids; parameters become the arguments.
    std::unordered_map<uint32_t, uint32_t> rename;
    for (size_t p = 0; p < callee->parameters.size(); ++p)
      rename[callee->parameters[p].first] = call.idOperand(1 + p);
    for (const Block &block : callee->blocks) {
      rename[block.label] = fresh();
      for (const Instruction &instruction : block.instructions)
        if (instruction.result) {
          rename[instruction.result] = fresh();
          origins_[rename[instruction.result]] = instruction.result;
        }
    }
    auto mapped = [&](uint32_t id) {
      auto it = rename.find(id);
      return it == rename.end() ? id : it->second;
    };

    const uint32_t continuation = fresh();
    std::vector<Block> body;
    std::vector<uint32_t> returnValues; // in the order of the returning blocks
    for (const Block &block : callee->blocks) {
      Block copy;
      copy.label = mapped(block.label);
      for (Instruction instruction : block.instructions) {
        instruction.result = instruction.result ? mapped(instruction.result) : 0;
        instruction.forEachIdOperand([&](uint32_t &id) { id = mapped(id); });
        if (instruction.location == 0)
          instruction.location = call.location;
        if (instruction.opcode == spv::OpReturn || instruction.opcode == spv::OpReturnValue) {
          if (instruction.opcode == spv::OpReturnValue)
            returnValues.push_back(instruction.idOperand(0));
          const uint32_t target[] = {continuation};
          const uint32_t location = instruction.location;
          instruction = Instruction::withIds(spv::OpBranch, 0, 0, target);
          instruction.location = location;
        }
        copy.instructions.push_back(std::move(instruction));
      }
      body.push_back(std::move(copy));
    }
    callers.push_back(calleeId);
    expand(body, depth + 1, callers);
    callers.pop_back();
    // The result phi's predecessors are known only now: expanding a call in
    // a returning block moves its return to the block after that call. The
    // returns keep their order, one per returning block.
    std::vector<uint32_t> incoming;
    for (const Block &block : body)
      if (block.terminator().opcode == spv::OpBranch &&
          block.terminator().idOperand(0) == continuation && !returnValues.empty()) {
        incoming.push_back(returnValues.at(incoming.size() / 2));
        incoming.push_back(block.label);
      }

    // Split the calling block: the part after the call continues in a new
    // block, which takes over the terminator, and its successors' phis.
    Block &caller = blocks[b];
    Block rest;
    rest.label = continuation;
    if (call.result && module_.type(call.resultType)->kind != Type::Kind::Void) {
      Instruction phi =
          Instruction::withIds(spv::OpPhi, call.resultType, call.result, incoming);
      phi.location = call.location;
      rest.instructions.push_back(std::move(phi));
    }
    rest.instructions.insert(rest.instructions.end(), caller.instructions.begin() + i + 1,
                             caller.instructions.end());
    caller.instructions.erase(caller.instructions.begin() + i, caller.instructions.end());
    const uint32_t entry[] = {body.front().label};
    caller.instructions.push_back(Instruction::withIds(spv::OpBranch, 0, 0, entry));
    caller.instructions.back().location = call.location;
    const uint32_t originalLabel = caller.label;
    // Successors of the moved terminator now come from `continuation`.
    for (Block &other : blocks)
      for (Instruction &phi : other.instructions) {
        if (phi.opcode != spv::OpPhi)
          break;
        for (size_t k = 1; k < phi.operands.size(); k += 2)
          if (phi.operands[k] == originalLabel && isSuccessor(rest, other.label))
            phi.operands[k] = continuation;
      }
    blocks.insert(blocks.begin() + b + 1, std::make_move_iterator(body.begin()),
                  std::make_move_iterator(body.end()));
    blocks.insert(blocks.begin() + b + 1 + body.size(), std::move(rest));
  }

  static bool isSuccessor(const Block &block, uint32_t label) {
    const Instruction &t = block.terminator();
    switch (t.opcode) {
    case spv::OpBranch:
      return t.idOperand(0) == label;
    case spv::OpBranchConditional:
      return t.idOperand(1) == label || t.idOperand(2) == label;
    case spv::OpSwitch:
      for (const Operand &operand : t.operandLayout)
        if (operand.kind == OperandKind::Id && operand.offset > 0 &&
            t.operands[operand.offset] == label)
          return true;
      return t.idOperand(1) == label;
    default:
      return false;
    }
  }

  const Module &module_;
  uint32_t &nextId_;
  std::unordered_map<uint32_t, uint32_t> &origins_;
};

} // namespace

Function inlineCalls(const Module &module, const Function &kernel, uint32_t &nextId,
                     std::unordered_map<uint32_t, uint32_t> &origins) {
  Function flat = kernel;
  Inliner inliner(module, nextId, origins);
  std::vector<uint32_t> callers{kernel.id};
  inliner.expand(flat.blocks, 0, callers);
  return flat;
}

} // namespace lanewise::spirv
