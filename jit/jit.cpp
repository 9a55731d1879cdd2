// SPDX-License-Identifier: Apache-2.0
// The JIT (runtime/native.h): a kernel's block bodies compiled to native
// code with LLVM 14's ORC JIT. Loaded by runtime/tier.cpp when the first
// kernel tiers up; its one entry is lanewise_jit_compile_v1.
//
// A block body is a function of the warp's ExecutionState. Each
// instruction the JIT does not compute is a direct call of its handler,
// after `current` is set for the crash report, exactly as the interpreter
// calls it. Consecutive elementwise instructions with varying results
// (NativeOp) form a run, compiled as one loop over the active lanes,
// sixteen a step, in which each value stays in a vector register from its
// definition to its uses; each result is also stored to its register, for
// the rest of the kernel. A step whose sixteen lanes are all active (a
// contiguous mask covering them) stores whole vectors; the others blend
// with the register's old contents, as the handlers do (runtime/
// execution.h, elementwise), so a lane that skipped the block keeps what it
// computed earlier. Elementwise instructions with uniform results compute
// their components once, in place.
#include "runtime/execution.h"
#include "runtime/native.h"

#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace lanewise::jit {
namespace {

using runtime::BinaryOp;
using runtime::ExecutionState;
using runtime::Instruction;
using runtime::KernelCode;
using runtime::NativeOp;
using runtime::Scalar;

// Lanes per step of a run's loop.
constexpr unsigned stepLanes = 16;

// The process's JIT: one LLJIT for every kernel, each kernel's code under
// a resource tracker of its own, removed with its NativeCode.
struct Engine {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::unique_ptr<llvm::TargetMachine> machine; // for the optimisation passes
  std::mutex mutex;
  unsigned modules = 0;
};

Engine *engine(std::string *error) {
  static Engine *shared = [&]() -> Engine * {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!builder) {
      *error = llvm::toString(builder.takeError());
      return nullptr;
    }
    builder->setCodeGenOptLevel(llvm::CodeGenOpt::Aggressive);
    auto machine = builder->createTargetMachine();
    if (!machine) {
      *error = llvm::toString(machine.takeError());
      return nullptr;
    }
    auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(*builder).create();
    if (!jit) {
      *error = llvm::toString(jit.takeError());
      return nullptr;
    }
    auto *made = new Engine();
    made->jit = std::move(*jit);
    made->machine = std::move(*machine);
    return made;
  }();
  if (!shared && error->empty())
    *error = "the JIT could not be set up for this processor";
  return shared;
}

class Native final : public runtime::NativeCode {
public:
  explicit Native(llvm::orc::ResourceTrackerSP tracker) : tracker_(std::move(tracker)) {}
  ~Native() override {
    if (tracker_)
      llvm::consumeError(tracker_->remove());
  }

private:
  llvm::orc::ResourceTrackerSP tracker_;
};

// The LLVM type of an element of `type` (Bool: a byte, 0 or 1).
llvm::Type *elementType(llvm::LLVMContext &context, Scalar type) {
  switch (type) {
  case Scalar::Bool:
  case Scalar::I8:
    return llvm::Type::getInt8Ty(context);
  case Scalar::I16:
    return llvm::Type::getInt16Ty(context);
  case Scalar::I32:
    return llvm::Type::getInt32Ty(context);
  case Scalar::I64:
    return llvm::Type::getInt64Ty(context);
  case Scalar::F32:
    return llvm::Type::getFloatTy(context);
  case Scalar::F64:
    return llvm::Type::getDoubleTy(context);
  default:
    return nullptr;
  }
}

// runtime/binary_ops.h's apply<T, op>, on scalars or vectors alike.
llvm::Value *apply(llvm::IRBuilder<> &b, BinaryOp op, llvm::Value *x, llvm::Value *y) {
  using enum BinaryOp;
  llvm::Type *type = x->getType();
  const unsigned bits = type->getScalarSizeInBits();
  auto toBool = [&](llvm::Value *flag) {
    return b.CreateZExt(
        flag, type->isVectorTy()
                  ? llvm::VectorType::get(b.getInt8Ty(), llvm::cast<llvm::VectorType>(type))
                  : static_cast<llvm::Type *>(b.getInt8Ty()));
  };
  auto count = [&] { return b.CreateAnd(y, llvm::ConstantInt::get(type, bits - 1)); };
  auto nonzero = [&](llvm::Value *v) {
    return b.CreateICmpNE(v, llvm::Constant::getNullValue(type));
  };
  switch (op) {
  case IAdd:
    return b.CreateAdd(x, y);
  case ISub:
    return b.CreateSub(x, y);
  case IMul:
    return b.CreateMul(x, y);
  case ShiftLeftLogical:
    return b.CreateShl(x, count());
  case ShiftRightLogical:
    return b.CreateLShr(x, count());
  case ShiftRightArithmetic:
    return b.CreateAShr(x, count());
  case BitwiseAnd:
    return b.CreateAnd(x, y);
  case BitwiseOr:
    return b.CreateOr(x, y);
  case BitwiseXor:
    return b.CreateXor(x, y);
  case FAdd:
    return b.CreateFAdd(x, y);
  case FSub:
    return b.CreateFSub(x, y);
  case FMul:
    return b.CreateFMul(x, y);
  case FDiv:
    return b.CreateFDiv(x, y);
  case IEqual:
    return toBool(b.CreateICmpEQ(x, y));
  case INotEqual:
    return toBool(b.CreateICmpNE(x, y));
  case UGreaterThan:
    return toBool(b.CreateICmpUGT(x, y));
  case SGreaterThan:
    return toBool(b.CreateICmpSGT(x, y));
  case UGreaterThanEqual:
    return toBool(b.CreateICmpUGE(x, y));
  case SGreaterThanEqual:
    return toBool(b.CreateICmpSGE(x, y));
  case ULessThan:
    return toBool(b.CreateICmpULT(x, y));
  case SLessThan:
    return toBool(b.CreateICmpSLT(x, y));
  case ULessThanEqual:
    return toBool(b.CreateICmpULE(x, y));
  case SLessThanEqual:
    return toBool(b.CreateICmpSLE(x, y));
  case FOrdEqual:
    return toBool(b.CreateFCmpOEQ(x, y));
  case FUnordEqual:
    return toBool(b.CreateFCmpUEQ(x, y));
  case FOrdNotEqual:
  case LessOrGreater:
    return toBool(b.CreateFCmpONE(x, y));
  case FUnordNotEqual:
    return toBool(b.CreateFCmpUNE(x, y));
  case FOrdLessThan:
    return toBool(b.CreateFCmpOLT(x, y));
  case FUnordLessThan:
    return toBool(b.CreateFCmpULT(x, y));
  case FOrdGreaterThan:
    return toBool(b.CreateFCmpOGT(x, y));
  case FUnordGreaterThan:
    return toBool(b.CreateFCmpUGT(x, y));
  case FOrdLessThanEqual:
    return toBool(b.CreateFCmpOLE(x, y));
  case FUnordLessThanEqual:
    return toBool(b.CreateFCmpULE(x, y));
  case FOrdGreaterThanEqual:
    return toBool(b.CreateFCmpOGE(x, y));
  case FUnordGreaterThanEqual:
    return toBool(b.CreateFCmpUGE(x, y));
  case Ordered:
    return toBool(b.CreateFCmpORD(x, y));
  case Unordered:
    return toBool(b.CreateFCmpUNO(x, y));
  case LogicalEqual:
    return toBool(b.CreateICmpEQ(nonzero(x), nonzero(y)));
  case LogicalNotEqual:
    return toBool(b.CreateICmpNE(nonzero(x), nonzero(y)));
  case LogicalAnd:
    return toBool(b.CreateAnd(nonzero(x), nonzero(y)));
  case LogicalOr:
    return toBool(b.CreateOr(nonzero(x), nonzero(y)));
  default:
    return nullptr;
  }
}

// Whether the JIT computes `op` itself: what apply() knows, on the types
// elementType() knows.
bool computes(const NativeOp &op) {
  if (op.kind != NativeOp::Kind::Binary)
    return false;
  switch (op.binary) {
  case BinaryOp::UDiv:
  case BinaryOp::SDiv:
  case BinaryOp::UMod:
  case BinaryOp::SRem:
  case BinaryOp::SMod:
  case BinaryOp::FRem:
  case BinaryOp::FMod:
    return false;
  default:
    return op.type != Scalar::I128 && op.type != Scalar::F16;
  }
}

// Emits one kernel's block bodies into a module.
class BodyEmitter {
public:
  BodyEmitter(llvm::LLVMContext &context, llvm::Module &module, const KernelCode &code,
              const NativeOp *ops)
      : context_(context), module_(module), code_(code), ops_(ops), b_(context) {
    i8_ = b_.getInt8Ty();
    i32_ = b_.getInt32Ty();
    i64_ = b_.getInt64Ty();
    pointer_ = llvm::PointerType::getUnqual(i8_);
    handlerType_ = llvm::FunctionType::get(b_.getVoidTy(), {pointer_, pointer_}, false);
    bodyType_ = llvm::FunctionType::get(b_.getVoidTy(), {pointer_}, false);
  }

  // The body of block `index`, or null when it has nothing the JIT
  // computes (the interpreter's loop of handler calls is as good).
  llvm::Function *emit(std::uint32_t index, const std::string &name, unsigned *computed,
                       unsigned *called) {
    const runtime::Block &block = code_.blocks[index];
    unsigned native = 0;
    for (std::uint32_t i = 0; i < block.instructionCount; ++i)
      native += computes(ops_[block.firstInstruction + i]);
    if (native == 0)
      return nullptr;
    llvm::Function *f =
        llvm::Function::Create(bodyType_, llvm::Function::ExternalLinkage, name, module_);
    f->addFnAttr(llvm::Attribute::NoUnwind);
    function_ = f;
    state_ = f->getArg(0);
    b_.SetInsertPoint(llvm::BasicBlock::Create(context_, "entry", f));
    registers_ = b_.CreateLoad(pointer_, field(offsetof(ExecutionState, registers), pointer_));
    std::uint32_t i = 0;
    while (i < block.instructionCount) {
      const std::uint32_t at = block.firstInstruction + i;
      const NativeOp &op = ops_[at];
      if (computes(op) && op.shape.result) {
        std::uint32_t end = i;
        while (end < block.instructionCount && computes(ops_[block.firstInstruction + end]) &&
               ops_[block.firstInstruction + end].shape.result)
          ++end;
        emitRun(at, block.firstInstruction + end);
        *computed += end - i;
        i = end;
      } else if (computes(op)) {
        emitUniform(at);
        ++*computed;
        ++i;
      } else {
        emitCall(at);
        ++*called;
        ++i;
      }
    }
    b_.CreateRetVoid();
    return f;
  }

private:
  llvm::Value *constantPointer(const void *address) {
    return llvm::ConstantExpr::getIntToPtr(
        llvm::ConstantInt::get(i64_, reinterpret_cast<std::uintptr_t>(address)), pointer_);
  }
  // A pointer to the field of the ExecutionState at `offset`, as `type`*.
  llvm::Value *field(std::size_t offset, llvm::Type *type) {
    llvm::Value *at = b_.CreateConstGEP1_64(i8_, state_, offset);
    return b_.CreateBitCast(at, llvm::PointerType::getUnqual(type));
  }
  // The address of byte `offset` of the register file, as `type`*.
  llvm::Value *registerAt(llvm::Value *offset, llvm::Type *type) {
    return b_.CreateBitCast(b_.CreateGEP(i8_, registers_, offset),
                            llvm::PointerType::getUnqual(type));
  }

  void emitCall(std::uint32_t at) {
    const Instruction &in = code_.instructions[at];
    b_.CreateStore(constantPointer(&in), field(offsetof(ExecutionState, current), pointer_));
    llvm::Value *handler = llvm::ConstantExpr::getIntToPtr(
        llvm::ConstantInt::get(i64_, reinterpret_cast<std::uintptr_t>(in.handler)),
        llvm::PointerType::getUnqual(handlerType_));
    b_.CreateCall(handlerType_, handler, {constantPointer(&in), state_});
  }

  // An elementwise instruction with a uniform result: each component once.
  void emitUniform(std::uint32_t at) {
    const Instruction &in = code_.instructions[at];
    const NativeOp &op = ops_[at];
    llvm::Type *type = elementType(context_, op.type);
    const unsigned bytes = type->getPrimitiveSizeInBits() / 8;
    for (std::uint32_t c = 0; c < in.components; ++c) {
      llvm::Value *x =
          b_.CreateLoad(type, registerAt(b_.getInt64(in.operand[0] + c * bytes), type));
      llvm::Value *y =
          b_.CreateLoad(type, registerAt(b_.getInt64(in.operand[1] + c * bytes), type));
      llvm::Value *r = apply(b_, op.binary, x, y);
      const unsigned resultBytes = r->getType()->getPrimitiveSizeInBits() / 8;
      b_.CreateStore(r, registerAt(b_.getInt64(in.result + c * resultBytes), r->getType()));
    }
  }

  // Instructions [first, end), each elementwise with a varying result: one
  // loop over the active lanes, `stepLanes` at a time.
  void emitRun(std::uint32_t first, std::uint32_t end) {
    llvm::Value *begin = b_.CreateLoad(i32_, field(offsetof(ExecutionState, begin), i32_));
    llvm::Value *span = b_.CreateLoad(i32_, field(offsetof(ExecutionState, span), i32_));
    llvm::Value *contiguous = b_.CreateICmpNE(
        b_.CreateLoad(i8_, field(offsetof(ExecutionState, contiguous), i8_)), b_.getInt8(0));
    llvm::Value *active =
        b_.CreateLoad(pointer_, field(offsetof(ExecutionState, active), pointer_));
    llvm::Value *start = b_.CreateAnd(begin, b_.getInt32(~(stepLanes - 1)));

    llvm::BasicBlock *before = b_.GetInsertBlock();
    llvm::BasicBlock *head = llvm::BasicBlock::Create(context_, "run.head", function_);
    llvm::BasicBlock *whole = llvm::BasicBlock::Create(context_, "run.whole", function_);
    llvm::BasicBlock *part = llvm::BasicBlock::Create(context_, "run.part", function_);
    llvm::BasicBlock *next = llvm::BasicBlock::Create(context_, "run.next", function_);
    llvm::BasicBlock *after = llvm::BasicBlock::Create(context_, "run.after", function_);
    b_.CreateBr(head);

    b_.SetInsertPoint(head);
    llvm::PHINode *lane = b_.CreatePHI(i32_, 2, "lane");
    lane->addIncoming(start, before);
    llvm::Value *more = b_.CreateICmpULT(lane, span);
    llvm::BasicBlock *body = llvm::BasicBlock::Create(context_, "run.body", function_);
    b_.CreateCondBr(more, body, after);

    b_.SetInsertPoint(body);
    llvm::Value *stepEnd = b_.CreateAdd(lane, b_.getInt32(stepLanes));
    llvm::Value *full = b_.CreateAnd(
        contiguous, b_.CreateAnd(b_.CreateICmpUGE(lane, begin), b_.CreateICmpULE(stepEnd, span)));
    b_.CreateCondBr(full, whole, part);

    b_.SetInsertPoint(whole);
    emitStep(first, end, lane, nullptr);
    b_.CreateBr(next);

    b_.SetInsertPoint(part);
    // The lanes of the step that run: within [begin, span), and active
    // unless the mask is contiguous.
    llvm::Type *laneVector = llvm::FixedVectorType::get(i32_, stepLanes);
    std::vector<llvm::Constant *> steps;
    for (unsigned k = 0; k < stepLanes; ++k)
      steps.push_back(b_.getInt32(k));
    llvm::Value *lanes =
        b_.CreateAdd(b_.CreateVectorSplat(stepLanes, lane), llvm::ConstantVector::get(steps));
    (void)laneVector;
    llvm::Value *within =
        b_.CreateAnd(b_.CreateICmpUGE(lanes, b_.CreateVectorSplat(stepLanes, begin)),
                     b_.CreateICmpULT(lanes, b_.CreateVectorSplat(stepLanes, span)));
    llvm::Type *maskBytes = llvm::FixedVectorType::get(i8_, stepLanes);
    llvm::Value *activeBytes =
        b_.CreateAlignedLoad(maskBytes,
                             b_.CreateBitCast(b_.CreateGEP(i8_, active, b_.CreateZExt(lane, i64_)),
                                              llvm::PointerType::getUnqual(maskBytes)),
                             llvm::MaybeAlign(1));
    llvm::Value *isActive =
        b_.CreateOr(b_.CreateVectorSplat(stepLanes, contiguous),
                    b_.CreateICmpNE(activeBytes, llvm::Constant::getNullValue(maskBytes)));
    emitStep(first, end, lane, b_.CreateAnd(within, isActive));
    b_.CreateBr(next);

    b_.SetInsertPoint(next);
    lane->addIncoming(stepEnd, next);
    b_.CreateBr(head);

    b_.SetInsertPoint(after);
  }

  // One step of a run: `stepLanes` lanes from `lane`, all of them
  // (mask null) or those of `mask`.
  void emitStep(std::uint32_t first, std::uint32_t end, llvm::Value *lane, llvm::Value *mask) {
    const std::uint32_t width = code_.width;
    llvm::Value *lane64 = b_.CreateZExt(lane, i64_);
    // The values the step has computed, by register byte offset of their
    // component's row: later instructions of the step read them there.
    std::map<std::uint32_t, llvm::Value *> computed;
    auto read = [&](std::uint32_t offset, bool varying, llvm::Type *type, std::uint32_t c) {
      const unsigned bytes = type->getPrimitiveSizeInBits() / 8;
      if (!varying) {
        llvm::Value *scalar =
            b_.CreateLoad(type, registerAt(b_.getInt64(offset + c * bytes), type));
        return b_.CreateVectorSplat(stepLanes, scalar);
      }
      const std::uint32_t row = offset + c * width * bytes;
      if (auto found = computed.find(row);
          found != computed.end() && found->second->getType()->getScalarType() == type)
        return found->second;
      llvm::Type *vector = llvm::FixedVectorType::get(type, stepLanes);
      llvm::Value *at = b_.CreateAdd(b_.getInt64(row), b_.CreateMul(lane64, b_.getInt64(bytes)));
      return static_cast<llvm::Value *>(
          b_.CreateAlignedLoad(vector, registerAt(at, vector), llvm::MaybeAlign(bytes)));
    };
    for (std::uint32_t at = first; at < end; ++at) {
      const Instruction &in = code_.instructions[at];
      const NativeOp &op = ops_[at];
      llvm::Type *type = elementType(context_, op.type);
      for (std::uint32_t c = 0; c < in.components; ++c) {
        llvm::Value *x = read(in.operand[0], op.shape.operand[0], type, c);
        llvm::Value *y = read(in.operand[1], op.shape.operand[1], type, c);
        llvm::Value *r = apply(b_, op.binary, x, y);
        const unsigned bytes = r->getType()->getScalarSizeInBits() / 8;
        const std::uint32_t row = in.result + c * width * bytes;
        llvm::Value *address =
            b_.CreateAdd(b_.getInt64(row), b_.CreateMul(lane64, b_.getInt64(bytes)));
        llvm::Value *pointer = registerAt(address, r->getType());
        if (mask) {
          llvm::Value *old = b_.CreateAlignedLoad(r->getType(), pointer, llvm::MaybeAlign(bytes));
          r = b_.CreateSelect(mask, r, old);
        }
        b_.CreateAlignedStore(r, pointer, llvm::MaybeAlign(bytes));
        computed[row] = r;
      }
    }
  }

  llvm::LLVMContext &context_;
  llvm::Module &module_;
  const KernelCode &code_;
  const NativeOp *ops_;
  llvm::IRBuilder<> b_;
  llvm::Type *i8_, *i32_, *i64_;
  llvm::PointerType *pointer_;
  llvm::FunctionType *handlerType_, *bodyType_;
  llvm::Function *function_ = nullptr;
  llvm::Value *state_ = nullptr, *registers_ = nullptr;
};

void optimise(llvm::Module &module, llvm::TargetMachine &machine) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder(&machine);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgscc);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgscc, modules);
  builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2).run(module, modules);
}

} // namespace
} // namespace lanewise::jit

extern "C" [[gnu::visibility("default")]] lanewise::runtime::NativeCode *
lanewise_jit_compile_v1(const lanewise::runtime::KernelCode &code,
                        const lanewise::runtime::NativeOp *ops, std::string *error) {
  using namespace lanewise::jit;
  if (code.width % stepLanes != 0) {
    *error = "warps of " + std::to_string(code.width) + " lanes are not compiled (a multiple of " +
             std::to_string(stepLanes) + " is)";
    return nullptr;
  }
  Engine *shared = engine(error);
  if (!shared)
    return nullptr;
  std::lock_guard lock(shared->mutex);
  const std::string prefix = "lanewise_body_" + std::to_string(shared->modules++) + "_";
  auto context = std::make_unique<llvm::LLVMContext>();
  auto module = std::make_unique<llvm::Module>(prefix, *context);
  module->setDataLayout(shared->jit->getDataLayout());
  module->setTargetTriple(shared->machine->getTargetTriple().str());
  BodyEmitter emitter(*context, *module, code, ops);
  std::vector<std::string> names(code.blocks.size());
  unsigned computed = 0, called = 0;
  for (std::uint32_t b = 0; b < code.blocks.size(); ++b)
    if (emitter.emit(b, prefix + std::to_string(b), &computed, &called))
      names[b] = prefix + std::to_string(b);
  if (computed == 0) {
    *error = "no instruction the JIT computes itself";
    return nullptr;
  }
  std::string problems;
  llvm::raw_string_ostream stream(problems);
  if (llvm::verifyModule(*module, &stream)) {
    *error = "the JIT made an invalid module: " + stream.str();
    return nullptr;
  }
  optimise(*module, *shared->machine);
  llvm::orc::JITDylib &library = shared->jit->getMainJITDylib();
  llvm::orc::ResourceTrackerSP tracker = library.createResourceTracker();
  if (llvm::Error failed = shared->jit->addIRModule(
          tracker, llvm::orc::ThreadSafeModule(std::move(module), std::move(context)))) {
    *error = llvm::toString(std::move(failed));
    return nullptr;
  }
  auto native = std::make_unique<Native>(tracker);
  native->bodies.assign(code.blocks.size(), nullptr);
  native->nativeInstructions = computed;
  native->calledInstructions = called;
  for (std::uint32_t b = 0; b < code.blocks.size(); ++b) {
    if (names[b].empty())
      continue;
    auto symbol = shared->jit->lookup(library, names[b]);
    if (!symbol) {
      *error = llvm::toString(symbol.takeError());
      return nullptr;
    }
    native->bodies[b] = reinterpret_cast<lanewise::runtime::NativeBody>(symbol->getAddress());
  }
  return native.release();
}
