// SPDX-License-Identifier: Apache-2.0
// Affine lane values (runtime/exec_affine.cpp): values that are base + x ×
// stride + y × rowStride in every lane of a warp, held as those three
// elements (the value's pair: its base and its strides) in one uniform
// register. A kernel lowered with LowerOptions::rowWarps runs only
// launches whose warps each lie in one row of their work-group or hold
// whole rows of one plane or of a work-group one row deep
// (runtime::affineIdsHold): there, each component of the global and local
// ids is such a value: lane 0's id, stride 1 in x for the x component, row
// stride 1 for the component the rows step in (y, or z where the group is
// one row deep), 0 for the others.
// Integer arithmetic that keeps affinity (adding, subtracting, multiplying
// by a uniform value, shifting left by one, truncating) and pointer
// arithmetic with such indices compute the pair once per warp; a load or
// store through an affine pointer is a block copy per row. A value that
// some use reads lane by lane (any other instruction, a phi, a use after a
// loop it is defined in) also gets its lane form, written from the pair
// where the value is defined.
#include "spirv/lowering.h"

#include <spirv/unified1/OpenCL.std.h>

#include <bit>

namespace lanewise::spirv::lowering {

namespace {

bool isIntegerComparison(spv::Op op) {
  switch (op) {
  case spv::OpIEqual:
  case spv::OpINotEqual:
  case spv::OpULessThan:
  case spv::OpULessThanEqual:
  case spv::OpUGreaterThan:
  case spv::OpUGreaterThanEqual:
  case spv::OpSLessThan:
  case spv::OpSLessThanEqual:
  case spv::OpSGreaterThan:
  case spv::OpSGreaterThanEqual:
    return true;
  default:
    return false;
  }
}

bool isIdBuiltin(spv::BuiltIn builtin) {
  return builtin == spv::BuiltInGlobalInvocationId || builtin == spv::BuiltInLocalInvocationId;
}

} // namespace

std::optional<spv::BuiltIn> KernelLowering::idVariable(uint32_t pointer) const {
  const GlobalVariable *variable = module_.globalVariable(pointer);
  if (variable && variable->builtin && isIdBuiltin(*variable->builtin))
    return *variable->builtin;
  return std::nullopt;
}

// The id built-in an affine source (an x component extracted from the
// loaded vector, or loaded through an access chain) reads: the variable is
// operand 0 of the vector's load or of the chain.
spv::BuiltIn KernelLowering::sourceBuiltin(const Instruction &instruction) {
  return *idVariable(definition(instruction.idOperand(0))->idOperand(0));
}

// The id component an affine source reads: the extracted component, or the
// access chain's.
uint32_t KernelLowering::sourceComponent(const Instruction &instruction) const {
  if (instruction.opcode == spv::OpCompositeExtract)
    return instruction.operands[1];
  return idComponentPointers_.at(instruction.idOperand(0));
}

// Whether `instruction`'s result can be an affine value, its operands being
// uniform, or affine as `isAffine` says.
bool KernelLowering::keepsAffinity(const Instruction &instruction,
                                   const std::function<bool(uint32_t)> &isAffine) const {
  const uint32_t typeId = instruction.resultType;
  if (!typeId)
    return false;
  const Type &type = typeOf(module_, typeId);
  const bool pointer = type.kind == Type::Kind::Pointer;
  const bool integer = type.kind == Type::Kind::Int && (type.width == 32 || type.width == 64);
  if (!pointer && !integer)
    return false;
  auto uniform = [&](uint32_t id) { return !uniformity_.isVarying(id); };
  auto affineOrUniform = [&](uint32_t id) { return isAffine(id) || uniform(id); };
  auto widthOf = [&](uint32_t id) -> uint32_t {
    const auto known = resultTypes_.find(id);
    if (known == resultTypes_.end())
      return 0;
    const Type &t = typeOf(module_, known->second);
    return t.kind == Type::Kind::Pointer ? 64 : t.kind == Type::Kind::Int ? t.width : 0;
  };
  switch (instruction.opcode) {
  case spv::OpCompositeExtract:
    // A component of a load of the whole id vector.
    return integer && idVectorLoads_.count(instruction.idOperand(0)) &&
           instruction.operands.size() == 2 && instruction.operands[1] < 3;
  case spv::OpLoad:
    // A load through an access chain to a component of an id vector.
    return integer && idComponentPointers_.count(instruction.idOperand(0));
  case spv::OpIAdd:
  case spv::OpISub:
    return integer && affineOrUniform(instruction.idOperand(0)) &&
           affineOrUniform(instruction.idOperand(1));
  case spv::OpIMul:
    return integer && ((isAffine(instruction.idOperand(0)) && uniform(instruction.idOperand(1))) ||
                       (uniform(instruction.idOperand(0)) && isAffine(instruction.idOperand(1))));
  case spv::OpShiftLeftLogical:
    return integer && isAffine(instruction.idOperand(0)) && uniform(instruction.idOperand(1)) &&
           widthOf(instruction.idOperand(1)) == type.width;
  case spv::OpUConvert:
  case spv::OpSConvert: {
    // Truncation keeps affinity modulo 2^n. Widening keeps it where the
    // lanes' values do not wrap (linear_, below): zero-extension of an
    // unsigned sequence, sign-extension of a signed one.
    const uint32_t from = instruction.idOperand(0);
    if (!integer || !isAffine(from))
      return false;
    if (widthOf(from) >= type.width)
      return true;
    const Linearity facts = linearity(from);
    return instruction.opcode == spv::OpUConvert ? facts.unsignedExact : facts.signedExact;
  }
  case spv::OpBitwiseOr: {
    // x | c is x + c when c lies in low bits that are zero in every lane
    // (clang writes 4 * i + 1 so after a shift).
    const uint32_t a = instruction.idOperand(0);
    const auto c = module_.constantValue(instruction.idOperand(1));
    const uint32_t zeros = isAffine(a) ? linearity(a).lowZeroBits : 0;
    return integer && zeros && c && zeros < 64 && *c < (uint64_t(1) << zeros);
  }
  case spv::OpBitwiseAnd: {
    // x & m is x when x < 2^31 and m keeps those bits (a zero-extension
    // written as a mask).
    const uint32_t a = instruction.idOperand(0);
    const auto mask = module_.constantValue(instruction.idOperand(1));
    return integer && isAffine(a) && mask && (*mask & 0x7fffffffu) == 0x7fffffffu &&
           linearity(a).small;
  }
  case spv::OpBitcast:
  case spv::OpConvertPtrToU:
  case spv::OpConvertUToPtr:
  case spv::OpPtrCastToGeneric:
  case spv::OpGenericCastToPtr:
    return isAffine(instruction.idOperand(0)) &&
           widthOf(instruction.idOperand(0)) == (pointer ? 64 : type.width);
  case spv::OpAccessChain:
  case spv::OpInBoundsAccessChain:
  case spv::OpPtrAccessChain:
  case spv::OpInBoundsPtrAccessChain: {
    const uint32_t base = instruction.idOperand(0);
    const GlobalVariable *variable = module_.globalVariable(base);
    if (!pointer || (variable && variable->builtin) || promoted_.count(base) ||
        !affineOrUniform(base))
      return false;
    // Every index constant, uniform, or affine and as wide as the pointer
    // (a narrower one is sign-extended lane by lane).
    for (size_t i = 1; i < instruction.operands.size(); ++i) {
      const uint32_t index = instruction.idOperand(i);
      if (module_.constantValue(index) || uniform(index))
        continue;
      if (!isAffine(index) || widthOf(index) != 64)
        return false;
    }
    return true;
  }
  default:
    return false;
  }
}

// What is known of an affine value's lanes: whether each lane's value is
// the exact integer base + x × stride + y × rowStride, read unsigned or
// signed (no lane wrapped), and whether every value is below 2^31. The ids
// are all three: work-groups are far smaller than 2^31, and the code runs
// only launches whose global ids are below 2^31 (runtime::affineIdsHold). Arithmetic keeps exactness where the SPIR-V
// says it does not wrap (NoUnsignedWrap, NoSignedWrap: OpenCL C's signed
// overflow is undefined, and clang marks what it proved); a truncation of
// values below 2^31 keeps them.
KernelLowering::Linearity KernelLowering::linearity(uint32_t id) const {
  auto it = linear_.find(id);
  return it == linear_.end() ? Linearity{} : it->second;
}

KernelLowering::Linearity KernelLowering::deriveLinearity(const Instruction &instruction) {
  auto operandFacts = [&](size_t i) -> Linearity {
    const uint32_t id = instruction.idOperand(i);
    if (linear_.count(id))
      return linear_.at(id);
    // A uniform operand is the same in every lane: no lane of it wraps.
    return Linearity{true, true, false};
  };
  switch (instruction.opcode) {
  case spv::OpCompositeExtract:
  case spv::OpLoad: // ids below 2^31: the code runs no other launch
    return Linearity{true, true, true};
  case spv::OpIAdd:
  case spv::OpISub:
  case spv::OpIMul:
  case spv::OpShiftLeftLogical: {
    const Linearity a = operandFacts(0), b = operandFacts(1);
    const uint32_t id = decorated(instruction.result);
    Linearity r{a.unsignedExact && b.unsignedExact &&
                    module_.hasDecoration(id, spv::DecorationNoUnsignedWrap),
                a.signedExact && b.signedExact &&
                    module_.hasDecoration(id, spv::DecorationNoSignedWrap),
                false};
    // Low zero bits survive wrapping: a sum has the fewer of its operands',
    // a product the sum, a shift by a constant k gains k.
    const auto constant = module_.constantValue(instruction.idOperand(1));
    const auto zerosOf = [&](size_t i, const Linearity &facts) -> uint32_t {
      if (auto c = module_.constantValue(instruction.idOperand(i)))
        return *c ? static_cast<uint32_t>(std::countr_zero(*c)) : 64;
      return linear_.count(instruction.idOperand(i)) ? facts.lowZeroBits : 0;
    };
    switch (instruction.opcode) {
    case spv::OpIAdd:
    case spv::OpISub:
      r.lowZeroBits = std::min(zerosOf(0, a), zerosOf(1, b));
      break;
    case spv::OpIMul:
      r.lowZeroBits = std::min<uint32_t>(64, zerosOf(0, a) + zerosOf(1, b));
      break;
    default: // a shift by less than the width (a count is taken modulo it)
      if (constant && *constant < typeOf(module_, instruction.resultType).width)
        r.lowZeroBits = std::min<uint32_t>(64, a.lowZeroBits + static_cast<uint32_t>(*constant));
      break;
    }
    return r;
  }
  case spv::OpBitwiseOr: { // an addition into zero low bits: no carry
    Linearity r = operandFacts(0);
    r.lowZeroBits = 0;
    return r;
  }
  case spv::OpUConvert:
  case spv::OpSConvert: {
    const Linearity from = operandFacts(0);
    const uint32_t fromWidth = typeOf(module_, resultTypes_.at(instruction.idOperand(0))).width;
    const uint32_t toWidth = typeOf(module_, instruction.resultType).width;
    if (toWidth < fromWidth) // values below 2^31 survive truncation to 32 bits
      return from.small ? Linearity{true, true, true} : Linearity{};
    if (instruction.opcode == spv::OpUConvert) // zero-extended: below 2^32, exact both ways
      return Linearity{true, true, from.small};
    return Linearity{false, true, from.small};
  }
  case spv::OpBitwiseAnd:
  case spv::OpBitcast:
    return operandFacts(0);
  default:
    return Linearity{};
  }
}

void KernelLowering::findAffineValues() {
  if (!options_.rowWarps || checks_)
    return;
  // Loads of the id vectors and access chains to their x components.
  for (const Block *block : cfg_->order())
    for (const Instruction &instruction : block->instructions) {
      if (instruction.opcode == spv::OpLoad && idVariable(instruction.idOperand(0)))
        idVectorLoads_.insert(instruction.result);
      if ((instruction.opcode == spv::OpAccessChain ||
           instruction.opcode == spv::OpInBoundsAccessChain) &&
          idVariable(instruction.idOperand(0)) && instruction.operands.size() == 2) {
        const auto component = module_.constantValue(instruction.idOperand(1));
        if (component && *component < 3)
          idComponentPointers_.emplace(instruction.result, static_cast<uint32_t>(*component));
      }
    }
  // Affine values, in reverse post-order: operands come before their uses
  // (phis, which may not, are never affine).
  std::unordered_set<uint32_t> affine;
  auto isAffine = [&](uint32_t id) { return affine.count(id) != 0; };
  std::unordered_map<uint32_t, uint32_t> definedIn;
  for (uint32_t b = 0; b < cfg_->size(); ++b)
    for (const Instruction &instruction : cfg_->order()[b]->instructions) {
      if (!instruction.result)
        continue;
      definedIn[instruction.result] = b;
      if (uniformity_.isVarying(instruction.result) && keepsAffinity(instruction, isAffine)) {
        affine.insert(instruction.result);
        linear_[instruction.result] = deriveLinearity(instruction);
      }
    }
  if (affine.empty())
    return;

  // The uses that read the pair; every other use reads the lane form. A
  // use outside a loop that defines the value reads the lane form too: the
  // pair is rewritten at each iteration, by lanes that may not include the
  // ones that left before.
  std::vector<std::vector<bool>> loopBodies;
  for (const auto &[header, body] : cfg_->loops()) {
    std::vector<bool> inLoop(cfg_->size(), false);
    for (uint32_t x : body)
      inLoop[x] = true;
    loopBodies.push_back(std::move(inLoop));
  }
  auto leavesLoop = [&](uint32_t from, uint32_t to) {
    for (const std::vector<bool> &inLoop : loopBodies)
      if (inLoop[from] && !inLoop[to])
        return true;
    return false;
  };
  for (uint32_t b = 0; b < cfg_->size(); ++b)
    for (const Instruction &instruction : cfg_->order()[b]->instructions) {
      const bool definesAffine = affine.count(instruction.result) != 0;
      const uint32_t pairWords = pairOperands(instruction, isAffine);
      for (const Operand &operand : instruction.operandLayout) {
        if (operand.kind != OperandKind::Id)
          continue;
        const uint32_t id = instruction.operands[operand.offset];
        if (idVectorLoads_.count(id) && !(definesAffine &&
                                          instruction.opcode == spv::OpCompositeExtract))
          idVectorLanes_.insert(id);
        if (!affine.count(id))
          continue;
        const bool readsPair = (definesAffine || (operand.offset < 32 &&
                                                  (pairWords >> operand.offset) & 1)) &&
                               instruction.opcode != spv::OpPhi &&
                               !leavesLoop(definedIn.at(id), b);
        if (!readsPair)
          laneForms_.insert(id);
      }
    }
  for (uint32_t id : affine) {
    const uint32_t bytes = runtime::scalarSize(makeScalar(resultTypes_.at(id)));
    affinePairs_.emplace(id, allocate(3 * bytes, false));
  }
  findBranchOnlyConditions(definedIn);
  code_.rowWarps = true;
}

// Comparisons that only the conditional branch ending their block reads
// (a bounds test `if (i < n)`): when every lane decides alike, the branch
// takes that decision from the warp's state and the lanes' Bools are never
// read, so the comparison need not write them. Under checks the branch
// reads the condition's shadow too: none there.
void KernelLowering::findBranchOnlyConditions(
    const std::unordered_map<uint32_t, uint32_t> &definedIn) {
  if (checks_)
    return;
  std::unordered_map<uint32_t, uint32_t> uses = liveUses();
  for (uint32_t b = 0; b < cfg_->size(); ++b) {
    const std::vector<Instruction> &instructions = cfg_->order()[b]->instructions;
    if (instructions.empty() || instructions.back().opcode != spv::OpBranchConditional)
      continue;
    const uint32_t condition = instructions.back().idOperand(0);
    const auto defined = definedIn.find(condition);
    if (defined != definedIn.end() && defined->second == b && uses[condition] == 1)
      branchOnlyConditions_.insert(condition);
  }
}

// The operand words of `instruction` that read an affine value's pair: the
// pointer of a load or store of a scalar or vector; the pointer and offset
// of vloadn, vstoren and their half forms, and the operands of an integer
// comparison, when one is affine and the other uniform. One bit per word
// index.
uint32_t KernelLowering::pairOperands(const Instruction &instruction,
                                      const std::function<bool(uint32_t)> &isAffine) const {
  auto uniform = [&](uint32_t id) { return !uniformity_.isVarying(id); };
  if (instruction.opcode == spv::OpExtInst) {
    const auto number = openclStdNumber(instruction);
    if (!number)
      return 0;
    size_t offset = 0;
    switch (*number) {
    case OpenCLLIB::Vloadn:
    case OpenCLLIB::Vload_half:
    case OpenCLLIB::Vload_halfn:
    case OpenCLLIB::Vloada_halfn:
      offset = 2;
      break;
    case OpenCLLIB::Vstoren:
    case OpenCLLIB::Vstore_half:
    case OpenCLLIB::Vstore_half_r:
    case OpenCLLIB::Vstore_halfn:
    case OpenCLLIB::Vstore_halfn_r:
    case OpenCLLIB::Vstorea_halfn:
    case OpenCLLIB::Vstorea_halfn_r:
      offset = 3;
      break;
    default:
      return 0;
    }
    const uint32_t index = instruction.idOperand(offset), pointer = instruction.idOperand(offset + 1);
    auto indexWidth = [&]() -> uint32_t {
      auto type = resultTypes_.find(index);
      return type == resultTypes_.end() ? 0 : typeOf(module_, type->second).width;
    };
    const bool pointerAffine = isAffine(pointer), indexAffine = isAffine(index);
    if ((pointerAffine && (indexAffine ? indexWidth() == 64 : uniform(index))) ||
        (indexAffine && indexWidth() == 64 && uniform(pointer)))
      return (1u << offset) | (1u << (offset + 1));
    return 0;
  }
  if (isIntegerComparison(instruction.opcode)) {
    const uint32_t a = instruction.idOperand(0), b = instruction.idOperand(1);
    auto type = resultTypes_.find(a);
    if (type == resultTypes_.end() || typeOf(module_, type->second).kind != Type::Kind::Int)
      return 0;
    if ((isAffine(a) && uniform(b)) || (uniform(a) && isAffine(b)))
      return 0b11;
    return 0;
  }
  if (instruction.opcode != spv::OpLoad && instruction.opcode != spv::OpStore)
    return 0;
  const uint32_t pointer = instruction.idOperand(0);
  if (!isAffine(pointer))
    return 0;
  const Type &pointerType = typeOf(module_, resultTypes_.at(pointer));
  switch (pointerType.storageClass) {
  case spv::StorageClassCrossWorkgroup:
  case spv::StorageClassWorkgroup:
  case spv::StorageClassUniformConstant:
  case spv::StorageClassGeneric:
    break;
  default:
    return 0;
  }
  Scalar scalar;
  uint32_t components = 0;
  if (!scalarForm(pointerType.element, scalar, components) || scalar == Scalar::Bool ||
      scalar == Scalar::I128)
    return 0;
  const Type &element = typeOf(module_, pointerType.element);
  const Type &component = element.kind == Type::Kind::Vector ? typeOf(module_, element.element)
                                                              : element;
  if (component.kind == Type::Kind::Int && component.width != 8 && component.width != 16 &&
      component.width != 32 && component.width != 64)
    return 0; // narrow integers are kept zero-extended in wider registers
  if (component.kind == Type::Kind::Pointer)
    return 0;
  return 1u << 0;
}

// The pointer pair of pointer + index × stride for vloadn and vstoren
// (pairOperands), in a fresh register.
uint32_t KernelLowering::affineVectorAddress(uint32_t pointerId, uint32_t indexId, uint64_t stride,
                                             const Instruction &user) {
  const auto [pointer, pointerAffine] = affineOperand(pointerId, user);
  const auto [index, indexAffine] = affineOperand(indexId, user);
  const uint32_t indexBytes = runtime::scalarSize(makeScalar(
      resultTypes_.count(indexId) ? resultTypes_.at(indexId) : module_.constant(indexId)->type));
  const uint32_t pair = allocate(24, false);
  emit(runtime::affineOffsetHandler(indexBytes, pointerAffine, indexAffine), pair,
       {pointer, index}, 1, 0, stride);
  return pair;
}

Scalar KernelLowering::makeScalar(uint32_t typeId) const {
  Scalar scalar = Scalar::I64;
  uint32_t components = 1;
  scalarForm(typeId, scalar, components);
  return scalar;
}

// The pair register of `id` if it is affine, else its uniform register.
std::pair<uint32_t, bool> KernelLowering::affineOperand(uint32_t id, const Instruction &user) {
  if (auto pair = affinePairs_.find(id); pair != affinePairs_.end())
    return {pair->second, true};
  const Value &value = use(id, user);
  if (value.varying)
    fail(user, "an affine value's operand %" + std::to_string(id) + " varies between lanes");
  return {value.offset, false};
}

bool KernelLowering::lowerAffine(const Instruction &instruction) {
  if (affinePairs_.empty())
    return false;
  // A load of an id vector no use reads lane by lane: its x component is
  // the affine value, written by the engine.
  if (idVectorLoads_.count(instruction.result) && !idVectorLanes_.count(instruction.result))
    return true;
  const auto pair = affinePairs_.find(instruction.result);
  if (pair == affinePairs_.end()) {
    if (!pairAddressed(instruction))
      return false;
    if (instruction.opcode == spv::OpLoad || instruction.opcode == spv::OpStore)
      return lowerAffineAccess(instruction);
    if (isIntegerComparison(instruction.opcode)) {
      const auto [a, aAffine] = affineOperand(instruction.idOperand(0), instruction);
      const auto [b, bAffine] = affineOperand(instruction.idOperand(1), instruction);
      const uint32_t bytes =
          runtime::scalarSize(makeScalar(resultTypes_.at(instruction.idOperand(0))));
      emit(runtime::affineCompareHandler(*binaryOp(instruction.opcode), bytes, aAffine, bAffine),
           values_.at(instruction.result).offset, {a, b}, 1,
           branchOnlyConditions_.count(instruction.result) ? runtime::affineCompareBranchOnly : 0);
      return true;
    }
    return false; // vloadn and vstoren: lowerVectorMemory
  }
  const uint32_t result = pair->second;
  const Scalar scalar = makeScalar(instruction.resultType);
  const uint32_t bytes = runtime::scalarSize(scalar);
  switch (instruction.opcode) {
  case spv::OpCompositeExtract:
  case spv::OpLoad: {
    // Lane 0's id and its strides, written by the engine at warp start
    // (runtime/launch.cpp, writeAffineId): stride 1 for x, row stride 1 for
    // the component the rows step in, y or z; a warp of several
    // work-groups has row stride L in the global x.
    code_.builtins.push_back({*builtinValue(sourceBuiltin(instruction)), result, 1, false,
                              bytes == 8, sourceComponent(instruction), true});
    break;
  }
  case spv::OpIAdd:
  case spv::OpISub:
  case spv::OpIMul:
  case spv::OpShiftLeftLogical: {
    const auto [a, aAffine] = affineOperand(instruction.idOperand(0), instruction);
    const auto [b, bAffine] = affineOperand(instruction.idOperand(1), instruction);
    const runtime::AffineOp op = instruction.opcode == spv::OpIAdd   ? runtime::AffineOp::Add
                                 : instruction.opcode == spv::OpISub ? runtime::AffineOp::Sub
                                 : instruction.opcode == spv::OpIMul ? runtime::AffineOp::Mul
                                                                     : runtime::AffineOp::ShiftLeft;
    emit(runtime::affineArithmeticHandler(op, bytes, aAffine, bAffine), result, {a, b}, 1);
    break;
  }
  case spv::OpUConvert:
  case spv::OpSConvert:
  case spv::OpBitcast:
  case spv::OpConvertPtrToU:
  case spv::OpConvertUToPtr:
  case spv::OpPtrCastToGeneric:
  case spv::OpGenericCastToPtr: {
    const uint32_t from = affinePairs_.at(instruction.idOperand(0));
    const uint32_t fromBytes =
        runtime::scalarSize(makeScalar(resultTypes_.at(instruction.idOperand(0))));
    if (fromBytes == bytes)
      emit(runtime::copyComponentsHandler(bytes, Shape{false, {false}}), result, {from}, 3);
    else if (fromBytes > bytes)
      emit(runtime::affineTruncateHandler(fromBytes, bytes), result, {from}, 1);
    else
      emit(runtime::affineWidenHandler(fromBytes, bytes, instruction.opcode == spv::OpSConvert),
           result, {from}, 1);
    break;
  }
  case spv::OpBitwiseOr: { // an addition (keepsAffinity)
    const auto [b, bAffine] = affineOperand(instruction.idOperand(1), instruction);
    emit(runtime::affineArithmeticHandler(runtime::AffineOp::Add, bytes, true, bAffine), result,
         {affinePairs_.at(instruction.idOperand(0)), b}, 1);
    break;
  }
  case spv::OpBitwiseAnd: // the value itself (keepsAffinity)
    emit(runtime::copyComponentsHandler(bytes, Shape{false, {false}}), result,
         {affinePairs_.at(instruction.idOperand(0))}, 3);
    break;
  default: // the access chains
    lowerAffineChain(instruction, result);
    break;
  }
  if (laneForms_.count(instruction.result))
    emit(runtime::affineMaterialiseHandler(bytes), values_.at(instruction.result).offset, {result},
         1);
  return true;
}

// An access chain's pointer pair: the base, then each index step, as
// lowerAccessChain computes the lanes' pointers.
void KernelLowering::lowerAffineChain(const Instruction &instruction, uint32_t result) {
  auto [reg, affine] = affineOperand(instruction.idOperand(0), instruction);
  const ChainSteps chain = chainSteps(instruction);
  const uint64_t displacement = chain.displacement;
  const auto &steps = chain.steps;
  // The steps write fresh registers; the last one the result.
  for (size_t i = 0; i < steps.size(); ++i) {
    const auto [indexId, stride] = steps[i];
    const auto [index, indexAffine] = affineOperand(indexId, instruction);
    const uint32_t indexBytes = runtime::scalarSize(makeScalar(resultTypes_.at(indexId)));
    const bool last = i + 1 == steps.size() && displacement == 0;
    const uint32_t next = last ? result : allocate(24, false);
    emit(runtime::affineOffsetHandler(indexBytes, affine, indexAffine), next, {reg, index}, 1, 0,
         stride);
    reg = next;
    affine = true;
  }
  if (displacement != 0 || steps.empty())
    emit(runtime::affineOffsetHandler(0, true, false), result, {reg}, 1, 0, displacement);
}

// A load or store through an affine pointer.
bool KernelLowering::lowerAffineAccess(const Instruction &instruction) {
  const uint32_t pointer = affinePairs_.at(instruction.idOperand(0));
  if (instruction.opcode == spv::OpLoad) {
    const Value &r = values_.at(instruction.result);
    emit(runtime::affineLoadHandler(r.elementBytes(), memoryOrder_.count(instruction.result) != 0),
         r.offset, {pointer}, r.components);
    return true;
  }
  const Value &value = use(instruction.idOperand(1), instruction);
  const bool global = pointsToGlobal(instruction.idOperand(0), instruction);
  emit(runtime::affineStoreHandler(value.elementBytes(), value.varying, global,
                                   memoryOrder_.count(instruction.idOperand(1)) != 0),
       0, {pointer, value.offset}, value.components);
  return true;
}

} // namespace lanewise::spirv::lowering
