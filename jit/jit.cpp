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
#include "builtins/math.h"
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

#include <cmath>
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

// Whether the JIT computes `op` itself: what compute() knows, on the
// types elementType() knows.
bool computes(const NativeOp &op) {
  using Kind = NativeOp::Kind;
  switch (op.kind) {
  case Kind::Binary:
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
  case Kind::Math:
  case Kind::Convert:
  case Kind::Select:
  case Kind::Copy:
    return true;
  default:
    return false;
  }
}

unsigned operandCount(const NativeOp &op) {
  switch (op.kind) {
  case NativeOp::Kind::Binary:
    return 2;
  case NativeOp::Kind::Math:
    return builtins::operandCount(static_cast<builtins::Math>(op.math));
  case NativeOp::Kind::Select:
    return 3;
  default:
    return 1;
  }
}

// The element type operand k of `op` is read as.
llvm::Type *operandType(llvm::LLVMContext &context, const NativeOp &op, unsigned k) {
  switch (op.kind) {
  case NativeOp::Kind::Select:
    return k == 0 ? llvm::Type::getInt8Ty(context) : llvm::Type::getIntNTy(context, op.bytes * 8);
  case NativeOp::Kind::Copy:
    return llvm::Type::getIntNTy(context, op.bytes * 8);
  default:
    return elementType(context, op.type);
  }
}

llvm::Value *intrinsic(llvm::IRBuilder<> &b, llvm::Intrinsic::ID id,
                       std::initializer_list<llvm::Value *> operands) {
  llvm::Value *first = *operands.begin();
  return b.CreateIntrinsic(id, {first->getType()}, operands);
}

// builtins/math.h's apply1/2/3<F, T> for the functions NativeOp takes.
llvm::Value *math(llvm::IRBuilder<> &b, builtins::Math function, llvm::ArrayRef<llvm::Value *> x) {
  using builtins::Math;
  switch (function) {
  case Math::Fabs:
    return intrinsic(b, llvm::Intrinsic::fabs, {x[0]});
  case Math::Sqrt:
    return intrinsic(b, llvm::Intrinsic::sqrt, {x[0]});
  case Math::Rsqrt:
    return b.CreateFDiv(llvm::ConstantFP::get(x[0]->getType(), 1.0),
                        intrinsic(b, llvm::Intrinsic::sqrt, {x[0]}));
  case Math::Floor:
    return intrinsic(b, llvm::Intrinsic::floor, {x[0]});
  case Math::Ceil:
    return intrinsic(b, llvm::Intrinsic::ceil, {x[0]});
  case Math::Trunc:
    return intrinsic(b, llvm::Intrinsic::trunc, {x[0]});
  case Math::Round:
    return intrinsic(b, llvm::Intrinsic::round, {x[0]});
  case Math::Rint:
    return intrinsic(b, llvm::Intrinsic::rint, {x[0]});
  case Math::Fma:
    return intrinsic(b, llvm::Intrinsic::fma, {x[0], x[1], x[2]});
  case Math::Mad: // two roundings, as the handler's x * y + z
    return b.CreateFAdd(b.CreateFMul(x[0], x[1]), x[2]);
  case Math::Mix:
    return b.CreateFAdd(x[0], b.CreateFMul(b.CreateFSub(x[1], x[0]), x[2]));
  case Math::Copysign:
    return intrinsic(b, llvm::Intrinsic::copysign, {x[0], x[1]});
  case Math::SMin:
    return b.CreateSelect(b.CreateICmpSLT(x[0], x[1]), x[0], x[1]);
  case Math::SMax:
    return b.CreateSelect(b.CreateICmpSGT(x[0], x[1]), x[0], x[1]);
  case Math::UMin:
    return b.CreateSelect(b.CreateICmpULT(x[0], x[1]), x[0], x[1]);
  case Math::UMax:
    return b.CreateSelect(b.CreateICmpUGT(x[0], x[1]), x[0], x[1]);
  default:
    return nullptr;
  }
}

// exec_convert.cpp's convertElement<From, To>(v, Default, false).
llvm::Value *convert(llvm::IRBuilder<> &b, const NativeOp &op, llvm::Value *v) {
  llvm::LLVMContext &context = b.getContext();
  llvm::Type *to = elementType(context, op.to);
  if (auto *vector = llvm::dyn_cast<llvm::VectorType>(v->getType()))
    to = llvm::VectorType::get(to, vector);
  const bool fromFloat = op.type == Scalar::F32 || op.type == Scalar::F64;
  const bool toFloat = op.to == Scalar::F32 || op.to == Scalar::F64;
  const unsigned fromBits = v->getType()->getScalarSizeInBits();
  const unsigned toBits = to->getScalarSizeInBits();
  if (!fromFloat && !toFloat) {
    if (toBits < fromBits)
      return b.CreateTrunc(v, to);
    if (toBits > fromBits)
      return op.fromSigned ? b.CreateSExt(v, to) : b.CreateZExt(v, to);
    return v;
  }
  if (!fromFloat)
    return op.fromSigned ? b.CreateSIToFP(v, to) : b.CreateUIToFP(v, to);
  if (toFloat) {
    if (toBits < fromBits)
      return b.CreateFPTrunc(v, to);
    if (toBits > fromBits)
      return b.CreateFPExt(v, to);
    return v;
  }
  // Float to integer: NaN gives 0; the value truncated (in double, as the
  // handler computes it) saturates at the type's limits.
  llvm::Type *doubles = llvm::Type::getDoubleTy(context);
  if (auto *vector = llvm::dyn_cast<llvm::VectorType>(v->getType()))
    doubles = llvm::VectorType::get(doubles, vector);
  llvm::Value *wide = fromBits == 64 ? v : b.CreateFPExt(v, doubles);
  llvm::Value *t = intrinsic(b, llvm::Intrinsic::trunc, {wide});
  const bool sign = op.toSigned;
  const double lowest = sign ? -std::ldexp(1.0, int(toBits) - 1) : 0.0;
  const double limit = std::ldexp(1.0, int(toBits) - (sign ? 1 : 0));
  llvm::Value *lowestInt = sign ? llvm::ConstantInt::get(to, llvm::APInt::getSignedMinValue(toBits))
                                : llvm::Constant::getNullValue(to);
  llvm::Value *maxInt = sign ? llvm::ConstantInt::get(to, llvm::APInt::getSignedMaxValue(toBits))
                             : llvm::ConstantInt::get(to, llvm::APInt::getMaxValue(toBits));
  llvm::Value *converted = sign ? b.CreateFPToSI(t, to) : b.CreateFPToUI(t, to);
  llvm::Value *r =
      b.CreateSelect(b.CreateFCmpOGE(t, llvm::ConstantFP::get(doubles, limit)), maxInt, converted);
  r = b.CreateSelect(b.CreateFCmpOLE(t, llvm::ConstantFP::get(doubles, lowest)), lowestInt, r);
  return b.CreateSelect(b.CreateFCmpUNO(wide, wide), llvm::Constant::getNullValue(to), r);
}

// What `op` computes from its operands' values (scalars or vectors alike).
llvm::Value *compute(llvm::IRBuilder<> &b, const NativeOp &op, llvm::ArrayRef<llvm::Value *> x) {
  switch (op.kind) {
  case NativeOp::Kind::Binary:
    return apply(b, op.binary, x[0], x[1]);
  case NativeOp::Kind::Math:
    return math(b, static_cast<builtins::Math>(op.math), x);
  case NativeOp::Kind::Convert:
    return convert(b, op, x[0]);
  case NativeOp::Kind::Select:
    return b.CreateSelect(b.CreateICmpNE(x[0], llvm::Constant::getNullValue(x[0]->getType())), x[1],
                          x[2]);
  case NativeOp::Kind::Copy:
    return x[0];
  default:
    return nullptr;
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
        std::uint32_t end = i + 1;
        while (end < block.instructionCount && computes(ops_[block.firstInstruction + end]) &&
               ops_[block.firstInstruction + end].shape.result &&
               joins(block.firstInstruction + i, block.firstInstruction + end))
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
  // A row of registers an instruction reads or writes: one component,
  // `width` elements of a varying register or one of a uniform one.
  struct Row {
    std::uint32_t start, bytes, elementBytes;
    bool varying;
    bool overlaps(const Row &other) const {
      return start < other.start + other.bytes && other.start < start + bytes;
    }
    // Lane l of one is lane l of the other.
    bool sameLanes(const Row &other) const {
      return varying && other.varying && start == other.start && elementBytes == other.elementBytes;
    }
  };
  void rowsOf(std::uint32_t at, std::vector<Row> &reads, std::vector<Row> &writes) const {
    const Instruction &in = code_.instructions[at];
    const NativeOp &op = ops_[at];
    const std::uint32_t width = code_.width;
    for (unsigned k = 0; k < operandCount(op); ++k) {
      const std::uint32_t bytes = operandType(context_, op, k)->getPrimitiveSizeInBits() / 8;
      const bool varying = op.shape.operand[k];
      for (std::uint32_t c = 0; c < in.components; ++c) {
        const std::uint32_t source = sourceComponent(in, op, k, c);
        reads.push_back(
            varying ? Row{in.operand[k] + source * width * bytes, width * bytes, bytes, true}
                    : Row{in.operand[k] + source * bytes, bytes, bytes, false});
      }
    }
    const std::uint32_t bytes = resultBytes(op);
    for (std::uint32_t c = 0; c < in.components; ++c)
      writes.push_back(Row{in.result + c * width * bytes, width * bytes, bytes, true});
  }
  // Bytes of an element of `op`'s result.
  std::uint32_t resultBytes(const NativeOp &op) const {
    switch (op.kind) {
    case NativeOp::Kind::Binary:
      return op.binary >= BinaryOp::IEqual
                 ? 1
                 : elementType(context_, op.type)->getPrimitiveSizeInBits() / 8;
    case NativeOp::Kind::Convert:
      return elementType(context_, op.to)->getPrimitiveSizeInBits() / 8;
    case NativeOp::Kind::Select:
    case NativeOp::Kind::Copy:
      return op.bytes;
    default:
      return elementType(context_, op.type)->getPrimitiveSizeInBits() / 8;
    }
  }
  // Whether instruction `next` may join the run of [first, next): a run
  // computes its instructions lane by lane, so each lane's order is kept,
  // but no other. Each register an instruction of the run writes may only
  // be met again, by a read or a write, as the same lanes of the same
  // row; a uniform read, a row of another element size or a row at another
  // start that overlaps it would see lanes in another order than the
  // interpreter's, one instruction over every lane after another.
  bool joins(std::uint32_t first, std::uint32_t next) const {
    std::vector<Row> reads, writes, nextReads, nextWrites;
    for (std::uint32_t at = first; at < next; ++at)
      rowsOf(at, reads, writes);
    rowsOf(next, nextReads, nextWrites);
    for (const Row &read : nextReads)
      for (const Row &write : writes)
        if (read.overlaps(write) && !read.sameLanes(write))
          return false;
    for (const Row &write : nextWrites) {
      for (const Row &read : reads)
        if (write.overlaps(read) && !write.sameLanes(read))
          return false;
      for (const Row &earlier : writes)
        if (write.overlaps(earlier) && !write.sameLanes(earlier))
          return false;
    }
    return true;
  }

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

  // The component of operand k that component c of the result reads:
  // c, or 0 for a Select's scalar condition.
  static std::uint32_t sourceComponent(const Instruction &in, const NativeOp &op, unsigned k,
                                       std::uint32_t c) {
    return op.kind == NativeOp::Kind::Select && k == 0 && in.aux != 0 ? 0 : c;
  }

  // An elementwise instruction with a uniform result: each component once.
  void emitUniform(std::uint32_t at) {
    const Instruction &in = code_.instructions[at];
    const NativeOp &op = ops_[at];
    const unsigned operands = operandCount(op);
    for (std::uint32_t c = 0; c < in.components; ++c) {
      llvm::Value *x[3] = {};
      for (unsigned k = 0; k < operands; ++k) {
        llvm::Type *type = operandType(context_, op, k);
        const unsigned bytes = type->getPrimitiveSizeInBits() / 8;
        x[k] = b_.CreateLoad(
            type,
            registerAt(b_.getInt64(in.operand[k] + sourceComponent(in, op, k, c) * bytes), type));
      }
      llvm::Value *r = compute(b_, op, llvm::ArrayRef<llvm::Value *>(x, operands));
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
      const unsigned operands = operandCount(op);
      for (std::uint32_t c = 0; c < in.components; ++c) {
        llvm::Value *x[3] = {};
        for (unsigned k = 0; k < operands; ++k)
          x[k] = read(in.operand[k], op.shape.operand[k], operandType(context_, op, k),
                      sourceComponent(in, op, k, c));
        llvm::Value *r = compute(b_, op, llvm::ArrayRef<llvm::Value *>(x, operands));
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
