// SPDX-License-Identifier: Apache-2.0
#include "spirv/normalise.h"

#include <algorithm>
#include <unordered_set>

#include "spirv/debug_info.h"
#include "spirv/support.h"

namespace lanewise::spirv {
namespace {

std::string functionText(const Module &module, const Function &function) {
  std::string text = "function %" + std::to_string(function.id);
  if (const std::string *name = module.name(function.id))
    text += " '" + *name + "'";
  return text;
}

template <typename Container, typename Predicate>
size_t eraseIf(Container &container, Predicate predicate) {
  const auto end = std::remove_if(container.begin(), container.end(), predicate);
  const auto count = static_cast<size_t>(container.end() - end);
  container.erase(end, container.end());
  return count;
}

void stripDebugInfo(Module &module, std::vector<NormalisationNote> &notes) {
  std::unordered_set<uint32_t> sets;
  for (const auto &[id, name] : module.extInstImports)
    if (debugSetKind(name) != DebugSetKind::None)
      sets.insert(id);
  if (sets.empty())
    return;

  std::unordered_set<uint32_t> removed(sets.begin(), sets.end());
  auto isDebug = [&](const Instruction &instruction) {
    return instruction.opcode == spv::OpExtInst && !instruction.operands.empty() &&
           sets.contains(instruction.operands[0]);
  };
  for (const Instruction &instruction : module.globals)
    if (isDebug(instruction))
      removed.insert(instruction.result);
  for (const Function &function : module.functions)
    for (const Block &block : function.blocks)
      for (const Instruction &instruction : block.instructions)
        if (isDebug(instruction))
          removed.insert(instruction.result);

  // Debug names and decorations of removed results go with them.
  auto targetsRemoved = [&](const Instruction &instruction) {
    switch (instruction.opcode) {
    case spv::OpName:
    case spv::OpDecorate:
    case spv::OpDecorateId:
    case spv::OpDecorateString:
      return !instruction.operands.empty() && removed.contains(instruction.operands[0]);
    default:
      return false;
    }
  };
  eraseIf(module.globals, [&](const Instruction &instruction) {
    return isDebug(instruction) || targetsRemoved(instruction) ||
           (instruction.opcode == spv::OpExtInstImport && sets.contains(instruction.result));
  });
  for (Function &function : module.functions)
    for (Block &block : function.blocks)
      eraseIf(block.instructions, isDebug);

  std::string setNames;
  for (uint32_t id : sets)
    setNames += (setNames.empty() ? "" : ", ") + module.extInstImports[id];
  notes.push_back({Normalisation::StripDebugInfo,
                   "removed the import of " + setNames +
                       ", whose instructions carry no semantics (their line information is "
                       "kept as source locations)"});
}

// Drops the memory-operand bits in `dropped` and their parameters from the
// memory-operand groups of `instruction` that start at layout entry `first`
// (one group, or two for OpCopyMemory[Sized] since SPIR-V 1.4).
void dropMemoryOperandBits(Instruction &instruction, size_t first, uint32_t dropped) {
  // Each parameter follows its mask in increasing order of the bits that
  // take one (SPIR-V 3.26, Memory Operands).
  constexpr uint32_t withParameter[] = {
      spv::MemoryAccessAlignedMask, spv::MemoryAccessMakePointerAvailableMask,
      spv::MemoryAccessMakePointerVisibleMask, spv::MemoryAccessAliasScopeINTELMaskMask,
      spv::MemoryAccessNoAliasINTELMaskMask};
  std::vector<uint32_t> operands(instruction.operands.begin(),
                                 instruction.operands.begin() +
                                     (first < instruction.operandLayout.size()
                                          ? instruction.operandLayout[first].offset
                                          : instruction.operands.size()));
  std::vector<Operand> layout(instruction.operandLayout.begin(),
                              instruction.operandLayout.begin() +
                                  std::min(first, instruction.operandLayout.size()));
  auto keep = [&](const Operand &operand) {
    Operand moved = operand;
    moved.offset = static_cast<uint16_t>(operands.size());
    for (uint16_t k = 0; k < operand.wordCount; ++k)
      operands.push_back(instruction.operands[operand.offset + k]);
    layout.push_back(moved);
  };
  for (size_t index = first; index < instruction.operandLayout.size();) {
    const Operand mask = instruction.operandLayout[index++];
    const uint32_t bits = instruction.operands[mask.offset];
    keep(mask);
    operands.back() = bits & ~dropped;
    for (uint32_t bit : withParameter)
      if ((bits & bit) && index < instruction.operandLayout.size()) {
        const Operand &parameter = instruction.operandLayout[index++];
        if (!(bit & dropped))
          keep(parameter);
      }
  }
  instruction.operands = std::move(operands);
  instruction.operandLayout = std::move(layout);
}

void stripAliasingHints(Module &module, std::vector<NormalisationNote> &notes) {
  if (std::ranges::find(module.capabilities, spv::CapabilityMemoryAccessAliasingINTEL) ==
      module.capabilities.end())
    return;
  auto isDeclaration = [](const Instruction &instruction) {
    return instruction.opcode == spv::OpAliasDomainDeclINTEL ||
           instruction.opcode == spv::OpAliasScopeDeclINTEL ||
           instruction.opcode == spv::OpAliasScopeListDeclINTEL;
  };
  eraseIf(module.globals, [&](const Instruction &instruction) {
    switch (instruction.opcode) {
    case spv::OpCapability:
      return instruction.operands[0] == spv::CapabilityMemoryAccessAliasingINTEL;
    case spv::OpExtension:
      return instruction.stringOperand(0) == "SPV_INTEL_memory_access_aliasing";
    case spv::OpDecorate:
    case spv::OpDecorateId:
      return instruction.operands.size() > 1 &&
             (instruction.operands[1] == spv::DecorationAliasScopeINTEL ||
              instruction.operands[1] == spv::DecorationNoAliasINTEL);
    default:
      return isDeclaration(instruction);
    }
  });
  constexpr uint32_t aliasingBits = uint32_t(spv::MemoryAccessAliasScopeINTELMaskMask) |
                                    uint32_t(spv::MemoryAccessNoAliasINTELMaskMask);
  size_t accesses = 0;
  for (Function &function : module.functions)
    for (Block &block : function.blocks) {
      eraseIf(block.instructions, isDeclaration);
      for (Instruction &instruction : block.instructions) {
        size_t first = 0; // layout index of the first memory-operand mask
        switch (instruction.opcode) {
        case spv::OpLoad:
          first = 1;
          break;
        case spv::OpStore:
        case spv::OpCopyMemory:
          first = 2;
          break;
        case spv::OpCopyMemorySized:
          first = 3;
          break;
        default:
          continue;
        }
        bool hinted = false;
        for (size_t index = first; index < instruction.operandLayout.size(); ++index)
          hinted |= instruction.operandLayout[index].kind == OperandKind::Enumerant &&
                    (instruction.operands[instruction.operandLayout[index].offset] & aliasingBits);
        if (hinted) {
          dropMemoryOperandBits(instruction, first, aliasingBits);
          ++accesses;
        }
      }
    }
  notes.push_back({Normalisation::StripAliasingHints,
                   "removed the aliasing hints of SPV_INTEL_memory_access_aliasing (" +
                       std::to_string(accesses) +
                       " memory accesses): they only allow optimisations"});
}

void dropMergeDeclarations(Module &module, std::vector<NormalisationNote> &notes) {
  for (Function &function : module.functions) {
    size_t count = 0;
    for (Block &block : function.blocks)
      count += eraseIf(block.instructions, [](const Instruction &instruction) {
        return instruction.opcode == spv::OpLoopMerge ||
               instruction.opcode == spv::OpSelectionMerge;
      });
    if (count != 0)
      notes.push_back({Normalisation::DropMergeDeclarations,
                       functionText(module, function) + ": dropped " + std::to_string(count) +
                           " merge declarations (a kernel needs no structured control flow)"});
  }
}

// The blocks of `function` in reverse post-order from the entry, then the
// unreachable ones in reverse post-order among themselves.
std::vector<size_t> reversePostOrder(const Function &function) {
  std::unordered_map<uint32_t, size_t> indexOf;
  for (size_t index = 0; index < function.blocks.size(); ++index)
    indexOf[function.blocks[index].label] = index;
  std::vector<std::vector<size_t>> successors(function.blocks.size());
  for (size_t index = 0; index < function.blocks.size(); ++index) {
    const Block &block = function.blocks[index];
    if (block.instructions.empty())
      continue;
    block.terminator().forEachIdOperand([&](uint32_t id) {
      if (auto found = indexOf.find(id); found != indexOf.end())
        successors[index].push_back(found->second);
    });
  }

  std::vector<bool> visited(function.blocks.size(), false);
  std::vector<size_t> order;
  auto depthFirst = [&](size_t root) {
    std::vector<size_t> postOrder;
    // Iterative depth-first search: (block, next successor to visit).
    std::vector<std::pair<size_t, size_t>> stack{{root, 0}};
    visited[root] = true;
    while (!stack.empty()) {
      auto &[block, next] = stack.back();
      if (next < successors[block].size()) {
        const size_t successor = successors[block][next++];
        if (!visited[successor]) {
          visited[successor] = true;
          stack.emplace_back(successor, 0);
        }
        continue;
      }
      postOrder.push_back(block);
      stack.pop_back();
    }
    order.insert(order.end(), postOrder.rbegin(), postOrder.rend());
  };
  for (size_t root = 0; root < function.blocks.size(); ++root)
    if (!visited[root])
      depthFirst(root);
  return order;
}

void reorderBlocks(Module &module, std::vector<NormalisationNote> &notes) {
  for (Function &function : module.functions) {
    if (function.blocks.size() < 2)
      continue;
    const std::vector<size_t> order = reversePostOrder(function);
    size_t moved = 0;
    for (size_t position = 0; position < order.size(); ++position)
      moved += order[position] != position;
    if (moved == 0)
      continue;
    std::vector<Block> blocks;
    blocks.reserve(function.blocks.size());
    for (size_t index : order)
      blocks.push_back(std::move(function.blocks[index]));
    function.blocks = std::move(blocks);
    notes.push_back({Normalisation::ReorderBlocks,
                     functionText(module, function) + ": " + std::to_string(moved) + " of " +
                         std::to_string(function.blocks.size()) +
                         " blocks reordered so that each follows its dominator"});
  }
}

// Whether nothing writes through `variable` or a pointer derived from it:
// every use of those is a load, the source of a copy, or a derivation.
bool onlyRead(const Module &module, uint32_t variable) {
  std::unordered_set<uint32_t> derived{variable};
  const auto isDerivation = [](spv::Op op) {
    return op == spv::OpBitcast || op == spv::OpAccessChain || op == spv::OpInBoundsAccessChain ||
           op == spv::OpPtrAccessChain || op == spv::OpInBoundsPtrAccessChain ||
           op == spv::OpPtrCastToGeneric || op == spv::OpCopyObject;
  };
  // Blocks are in dominance order (ReorderBlocks), so one pass finds every
  // derivation but those through phis, which are not derivations here.
  for (const Function &function : module.functions)
    for (const Block &block : function.blocks)
      for (const Instruction &instruction : block.instructions)
        if (isDerivation(instruction.opcode) && !instruction.operands.empty() &&
            derived.contains(instruction.operands[0]))
          derived.insert(instruction.result);
  for (const Function &function : module.functions)
    for (const Block &block : function.blocks)
      for (const Instruction &instruction : block.instructions) {
        bool written = false;
        for (size_t i = 0; i < instruction.operandLayout.size(); ++i) {
          const Operand &operand = instruction.operandLayout[i];
          if (operand.kind != OperandKind::Id || !derived.contains(instruction.operands[operand.offset]))
            continue;
          const bool read = (instruction.opcode == spv::OpLoad && i == 0) ||
                            ((instruction.opcode == spv::OpCopyMemory ||
                              instruction.opcode == spv::OpCopyMemorySized) &&
                             i == 1) ||
                            (isDerivation(instruction.opcode) && i == 0);
          written |= !read;
        }
        if (written)
          return false;
      }
  return true;
}

void localiseFunctionVariables(Module &module, std::vector<NormalisationNote> &notes) {
  std::unordered_set<uint32_t> called, entryPoints;
  for (const Function &function : module.functions)
    for (const Block &block : function.blocks)
      for (const Instruction &instruction : block.instructions)
        if (instruction.opcode == spv::OpFunctionCall && !instruction.operands.empty())
          called.insert(instruction.operands[0]);
  for (const Instruction &instruction : module.globals)
    if (instruction.opcode == spv::OpEntryPoint)
      entryPoints.insert(instruction.operands.at(1));

  std::vector<uint32_t> localised;
  for (const Instruction &variable : module.globals) {
    if (variable.opcode != spv::OpVariable ||
        variable.operands.at(0) != spv::StorageClassFunction)
      continue;
    // Only names, decorations and interface lists may refer to it at
    // module scope.
    bool referencedByGlobals = false;
    for (const Instruction &instruction : module.globals)
      if (instruction.opcode != spv::OpName && instruction.opcode != spv::OpDecorate &&
          instruction.opcode != spv::OpEntryPoint && &instruction != &variable)
        instruction.forEachIdOperand([&](uint32_t id) { referencedByGlobals |= id == variable.result; });
    std::vector<Function *> users;
    for (Function &function : module.functions) {
      bool uses = false;
      for (const Block &block : function.blocks)
        for (const Instruction &instruction : block.instructions)
          instruction.forEachIdOperand([&](uint32_t id) { uses |= id == variable.result; });
      if (uses)
        users.push_back(&function);
    }
    const bool soleKernel = users.size() == 1 && entryPoints.contains(users[0]->id) &&
                            !called.contains(users[0]->id);
    if (referencedByGlobals || users.empty() || !(soleKernel || onlyRead(module, variable.result)))
      continue;
    for (size_t k = 0; k < users.size(); ++k) {
      // The first user keeps the id, and with it the name and decorations;
      // the others get a new id with copies of the decorations.
      const uint32_t id = k == 0 ? variable.result : module.bound++;
      if (k != 0) {
        for (Function &function = *users[k]; Block &block : function.blocks)
          for (Instruction &instruction : block.instructions)
            instruction.forEachIdOperand([&](uint32_t &operand) {
              if (operand == variable.result)
                operand = id;
            });
        std::vector<Instruction> copies;
        for (const Instruction &decoration : module.globals)
          if (decoration.opcode == spv::OpDecorate && decoration.operands.at(0) == variable.result) {
            copies.push_back(decoration);
            copies.back().operands[0] = id;
          }
        auto position = std::ranges::find_if(module.globals, [](const Instruction &instruction) {
          return instruction.opcode == spv::OpDecorate;
        });
        module.globals.insert(position, copies.begin(), copies.end());
      }
      Instruction local = variable;
      local.result = id;
      auto &entry = users[k]->blocks.front().instructions;
      entry.insert(entry.begin(), std::move(local));
    }
    localised.push_back(variable.result);
    notes.push_back({Normalisation::LocaliseFunctionVariables,
                     "module-scope Function variable %" + std::to_string(variable.result) +
                         " made a variable of each of the " + std::to_string(users.size()) +
                         " functions that use it"});
  }
  if (localised.empty())
    return;
  const auto isLocalised = [&](uint32_t id) { return std::ranges::find(localised, id) != localised.end(); };
  eraseIf(module.globals, [&](const Instruction &instruction) {
    return instruction.opcode == spv::OpVariable && isLocalised(instruction.result);
  });
  // Interface lists name module-scope variables only.
  for (Instruction &entryPoint : module.globals) {
    if (entryPoint.opcode != spv::OpEntryPoint)
      continue;
    size_t nameWords = 0;
    decodeLiteralString(std::span(entryPoint.operands).subspan(2), &nameWords);
    Instruction rebuilt = entryPoint;
    rebuilt.operands.resize(2 + nameWords);
    rebuilt.operandLayout.resize(3);
    for (size_t i = 2 + nameWords; i < entryPoint.operands.size(); ++i)
      if (!isLocalised(entryPoint.operands[i]))
        rebuilt.appendId(entryPoint.operands[i]);
    entryPoint = std::move(rebuilt);
  }
}

void hoistVariables(Module &module, std::vector<NormalisationNote> &notes) {
  auto isModuleScope = [&](uint32_t id) { return module.globalDefinition(id) != nullptr; };
  for (Function &function : module.functions) {
    if (function.blocks.empty())
      continue;
    std::vector<Instruction> hoisted;
    size_t count = 0;
    for (size_t blockIndex = 0; blockIndex < function.blocks.size(); ++blockIndex) {
      auto &instructions = function.blocks[blockIndex].instructions;
      std::vector<Instruction> kept;
      kept.reserve(instructions.size());
      bool leading = blockIndex == 0;
      for (Instruction &instruction : instructions) {
        const bool isVariable = instruction.opcode == spv::OpVariable;
        if (isVariable && leading) {
          hoisted.push_back(std::move(instruction));
          continue;
        }
        leading = false;
        if (!isVariable) {
          kept.push_back(std::move(instruction));
          continue;
        }
        ++count;
        // A variable in another block is initialized each time its block
        // runs; an initializer that is not a module-scope value would not be
        // available at the top. Both become a store where the variable was.
        if (instruction.operands.size() > 1 &&
            (blockIndex != 0 || !isModuleScope(instruction.operands[1]))) {
          Instruction store = Instruction::withIds(
              spv::OpStore, 0, 0,
              std::vector<uint32_t>{instruction.result, instruction.operands[1]});
          store.location = instruction.location;
          store.wordOffset = instruction.wordOffset;
          instruction.operands.resize(1);
          instruction.operandLayout.resize(1);
          kept.push_back(std::move(store));
        }
        hoisted.push_back(std::move(instruction));
      }
      instructions = std::move(kept);
    }
    auto &entry = function.blocks.front().instructions;
    entry.insert(entry.begin(), std::make_move_iterator(hoisted.begin()),
                 std::make_move_iterator(hoisted.end()));
    if (count != 0)
      notes.push_back({Normalisation::HoistVariables,
                       functionText(module, function) + ": moved " + std::to_string(count) +
                           " OpVariable to the top of the entry block"});
  }
}

void completeInterfaces(Module &module, std::vector<NormalisationNote> &notes) {
  const bool allGlobals = module.version >= 0x00010400;
  // Ids each function references, and the functions it calls.
  std::unordered_map<uint32_t, std::vector<uint32_t>> references;
  std::unordered_map<uint32_t, std::vector<uint32_t>> callees;
  for (const Function &function : module.functions) {
    auto &used = references[function.id];
    for (const Block &block : function.blocks)
      for (const Instruction &instruction : block.instructions) {
        instruction.forEachIdOperand([&](uint32_t id) { used.push_back(id); });
        if (instruction.opcode == spv::OpFunctionCall && !instruction.operands.empty())
          callees[function.id].push_back(instruction.operands[0]);
      }
  }

  for (Instruction &instruction : module.globals) {
    if (instruction.opcode != spv::OpEntryPoint || instruction.operands.size() < 2)
      continue;
    // Functions of the call tree.
    std::unordered_set<uint32_t> functions{instruction.operands[1]};
    std::vector<uint32_t> pending{instruction.operands[1]};
    std::unordered_set<uint32_t> reached;
    std::vector<uint32_t> ids;
    while (!pending.empty()) {
      const uint32_t function = pending.back();
      pending.pop_back();
      for (uint32_t callee : callees[function])
        if (functions.insert(callee).second)
          pending.push_back(callee);
      for (uint32_t id : references[function])
        if (reached.insert(id).second)
          ids.push_back(id);
    }
    // Through module-scope definitions: constants, spec constant operations
    // and initializers that name other module-scope values.
    for (size_t index = 0; index < ids.size(); ++index)
      if (const Instruction *definition = module.globalDefinition(ids[index]))
        definition->forEachIdOperand([&](uint32_t id) {
          if (reached.insert(id).second)
            ids.push_back(id);
        });

    size_t nameWords = 0;
    decodeLiteralString(std::span(instruction.operands).subspan(2), &nameWords);
    const std::string name = instruction.stringOperand(2);
    std::unordered_set<uint32_t> listed(instruction.operands.begin() + 2 + nameWords,
                                        instruction.operands.end());
    size_t added = 0;
    for (const GlobalVariable &variable : module.globalVariables) {
      if (!reached.contains(variable.id) || listed.contains(variable.id))
        continue;
      if (!allGlobals && variable.storageClass != spv::StorageClassInput &&
          variable.storageClass != spv::StorageClassOutput)
        continue;
      instruction.appendId(variable.id);
      ++added;
    }
    if (added != 0)
      notes.push_back({Normalisation::CompleteInterfaces,
                       "entry point '" + name + "': added " + std::to_string(added) +
                           " module-scope variables its call tree uses to the interface"});
  }
}

void strongCompareExchange(Module &module, std::vector<NormalisationNote> &notes) {
  if (module.version < 0x00010400)
    return;
  for (Function &function : module.functions) {
    size_t count = 0;
    for (Block &block : function.blocks)
      for (Instruction &instruction : block.instructions)
        if (instruction.opcode == spv::OpAtomicCompareExchangeWeak) {
          instruction.opcode = spv::OpAtomicCompareExchange;
          ++count;
        }
    if (count != 0)
      notes.push_back({Normalisation::StrongCompareExchange,
                       functionText(module, function) + ": " + std::to_string(count) +
                           " OpAtomicCompareExchangeWeak made OpAtomicCompareExchange"});
  }
}

Instruction extensionInstruction(std::string_view name) {
  Instruction instruction;
  instruction.opcode = spv::OpExtension;
  instruction.operands = encodeLiteralString(name);
  instruction.operandLayout.push_back(
      {OperandKind::String, 0, static_cast<uint16_t>(instruction.operands.size())});
  return instruction;
}

void declareExtensions(Module &module, std::vector<NormalisationNote> &notes) {
  std::vector<std::string_view> missing;
  for (const Instruction &instruction : module.globals) {
    if (instruction.opcode != spv::OpCapability)
      continue;
    const auto capability = static_cast<spv::Capability>(instruction.operands.at(0));
    const std::string_view extension = enablingExtension(capability);
    if (!extension.empty() && std::ranges::find(module.extensions, extension) == module.extensions.end() &&
        std::ranges::find(missing, extension) == missing.end())
      missing.push_back(extension);
  }
  if (missing.empty())
    return;
  // Extensions follow the capabilities (SPIR-V 2.4, logical layout).
  auto position = std::ranges::find_if(module.globals, [](const Instruction &instruction) {
    return instruction.opcode != spv::OpCapability;
  });
  for (std::string_view extension : missing) {
    position = std::next(module.globals.insert(position, extensionInstruction(extension)));
    notes.push_back({Normalisation::DeclareExtensions,
                     "declared " + std::string(extension) +
                         ", which the module's capabilities need and it did not declare"});
  }
}

void mergePhiEdges(Module &module, std::vector<NormalisationNote> &notes) {
  for (Function &function : module.functions) {
    size_t count = 0;
    for (Block &block : function.blocks)
      for (Instruction &phi : block.instructions) {
        if (phi.opcode != spv::OpPhi)
          continue;
        std::vector<uint32_t> pairs; // (value, parent), each parent once
        bool conflicting = false;
        for (size_t i = 0; i + 1 < phi.operands.size(); i += 2) {
          size_t seen = 0;
          while (seen < pairs.size() && pairs[seen + 1] != phi.operands[i + 1])
            seen += 2;
          if (seen == pairs.size())
            pairs.insert(pairs.end(), {phi.operands[i], phi.operands[i + 1]});
          else
            conflicting |= pairs[seen] != phi.operands[i];
        }
        if (conflicting || pairs.size() == phi.operands.size())
          continue;
        Instruction merged = Instruction::withIds(spv::OpPhi, phi.resultType, phi.result, pairs);
        merged.wordOffset = phi.wordOffset;
        merged.location = phi.location;
        phi = std::move(merged);
        ++count;
      }
    if (count != 0)
      notes.push_back({Normalisation::MergePhiEdges,
                       functionText(module, function) + ": " + std::to_string(count) +
                           " OpPhi listed a parent block once per edge; each parent kept once"});
  }
}

} // namespace

std::vector<NormalisationNote> normaliseModule(Module &module) {
  std::vector<NormalisationNote> notes;
  declareExtensions(module, notes);
  stripDebugInfo(module, notes);
  stripAliasingHints(module, notes);
  dropMergeDeclarations(module, notes);
  reorderBlocks(module, notes);
  module.rebuildTables();
  localiseFunctionVariables(module, notes);
  module.rebuildTables();
  hoistVariables(module, notes);
  completeInterfaces(module, notes);
  strongCompareExchange(module, notes);
  mergePhiEdges(module, notes);
  module.rebuildTables();
  return notes;
}

} // namespace lanewise::spirv
