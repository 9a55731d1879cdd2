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
//
// The code holds no address of the process: a body reads each handler from
// its instruction, found from the instructions argument. So a kernel's
// code, an object file, is kept in the disk cache (native-KEY.o) and
// loaded by later processes; KEY hashes everything the code depends on
// (key()). Each kernel's code is linked into a JITDylib of its own,
// removed with the last kernel that shares it.
#include "builtins/math.h"
#include "runtime/execution.h"
#include "runtime/hash.h"
#include "runtime/native.h"

#include <llvm/Config/llvm-config.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Host.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <link.h>
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

// The code of one kernel, linked into a JITDylib of its own, shared by the
// kernels of this process with the same key; unlinked with the last.
struct Loaded {
  llvm::orc::ExecutionSession *session = nullptr;
  llvm::orc::JITDylib *library = nullptr;
  std::vector<runtime::NativeBody> bodies;
  std::uint32_t computed = 0, called = 0;
  ~Loaded() {
    if (library)
      llvm::consumeError(session->removeJITDylib(*library));
  }
};

// The process's JIT: one LLJIT for every kernel.
struct Engine {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::unique_ptr<llvm::TargetMachine> machine; // for the optimisation passes and objects
  std::string target;                           // the processor and its features, for keys
  std::mutex mutex;                             // guards what follows
  unsigned libraries = 0;
  std::map<std::string, std::weak_ptr<Loaded>> loaded; // by key
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
    made->target = builder->getTargetTriple().str() + " " + llvm::sys::getHostCPUName().str() +
                   " " + builder->getFeatures().getString();
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
  explicit Native(std::shared_ptr<Loaded> loaded) : loaded_(std::move(loaded)) {
    bodies = loaded_->bodies;
    nativeInstructions = loaded_->computed;
    calledInstructions = loaded_->called;
  }

private:
  std::shared_ptr<Loaded> loaded_;
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
    bodyType_ = llvm::FunctionType::get(b_.getVoidTy(), {pointer_, pointer_}, false);
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
    instructions_ = f->getArg(1);
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

  // A call of instruction `at`'s handler, read from the instruction.
  void emitCall(std::uint32_t at) {
    llvm::Value *in = b_.CreateConstGEP1_64(i8_, instructions_, at * sizeof(Instruction));
    b_.CreateStore(in, field(offsetof(ExecutionState, current), pointer_));
    llvm::Type *handlerPointer = llvm::PointerType::getUnqual(handlerType_);
    llvm::Value *handler = b_.CreateLoad(
        handlerPointer,
        b_.CreateBitCast(b_.CreateConstGEP1_64(i8_, in, offsetof(Instruction, handler)),
                         llvm::PointerType::getUnqual(handlerPointer)));
    b_.CreateCall(handlerType_, handler, {in, state_});
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
  llvm::Value *state_ = nullptr, *instructions_ = nullptr, *registers_ = nullptr;
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

// The GNU build id of this module (the JIT's own code: what a NativeOp
// compiles to, the ExecutionState's layout), or empty.
std::string buildId() {
  struct Search {
    const void *address;
    std::string id;
  } search{reinterpret_cast<const void *>(&buildId), {}};
  dl_iterate_phdr(
      [](dl_phdr_info *info, std::size_t, void *data) {
        auto &search = *static_cast<Search *>(data);
        const auto address = reinterpret_cast<std::uintptr_t>(search.address);
        bool mine = false;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr) &segment = info->dlpi_phdr[i];
          const std::uintptr_t start = info->dlpi_addr + segment.p_vaddr;
          mine |=
              segment.p_type == PT_LOAD && address >= start && address < start + segment.p_memsz;
        }
        if (!mine)
          return 0;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr) &segment = info->dlpi_phdr[i];
          if (segment.p_type != PT_NOTE)
            continue;
          const char *note = reinterpret_cast<const char *>(info->dlpi_addr + segment.p_vaddr);
          const char *end = note + segment.p_memsz;
          while (note + sizeof(ElfW(Nhdr)) <= end) {
            ElfW(Nhdr) header;
            std::memcpy(&header, note, sizeof header);
            const char *name = note + sizeof header;
            const char *desc = name + ((header.n_namesz + 3) & ~3u);
            if (header.n_type == NT_GNU_BUILD_ID && header.n_namesz == 4 &&
                std::memcmp(name, "GNU", 4) == 0) {
              for (std::uint32_t k = 0; k < header.n_descsz; ++k) {
                char hex[3];
                std::snprintf(hex, sizeof hex, "%02x", static_cast<unsigned char>(desc[k]));
                search.id += hex;
              }
              return 1;
            }
            note = desc + ((header.n_descsz + 3) & ~3u);
          }
        }
        return 1;
      },
      &search);
  return search.id;
}

// The key of a kernel's native code: everything the emitted code depends
// on. The JIT's build and LLVM's version (how each NativeOp compiles, the
// layouts it reads), the processor and its features, the warp's width,
// the blocks, and each instruction's NativeOp with, for those the JIT
// computes, the registers and components it works on (a called handler is
// found at run time, by the instruction's position). Empty: no build id,
// so no key that a rebuilt JIT would not share.
std::string key(const Engine &engine, const KernelCode &code, const NativeOp *ops) {
  static const std::string build = buildId();
  if (build.empty())
    return {};
  runtime::Hash hash;
  hash.add(build);
  hash.add(std::string_view(LLVM_VERSION_STRING));
  hash.add(engine.target);
  hash.add(code.width);
  hash.add(code.blocks.size());
  for (const runtime::Block &block : code.blocks) {
    hash.add(block.firstInstruction);
    hash.add(block.instructionCount);
  }
  hash.add(code.instructions.size());
  for (std::size_t i = 0; i < code.instructions.size(); ++i) {
    const NativeOp &op = ops[i];
    hash.add(op.kind);
    if (!computes(op))
      continue;
    hash.add(op.binary);
    hash.add(op.math);
    hash.add(op.type);
    hash.add(op.fromSigned);
    hash.add(op.to);
    hash.add(op.toSigned);
    hash.add(op.bytes);
    hash.add(op.shape.result);
    hash.add(op.shape.operand);
    const Instruction &in = code.instructions[i];
    hash.add(in.result);
    hash.add(in.operand);
    hash.add(in.components);
    hash.add(in.aux);
  }
  return hash.hex();
}

// The module compiled to an object file, or empty.
llvm::SmallVector<char, 0> objectOf(llvm::Module &module, llvm::TargetMachine &machine,
                                    std::string *error) {
  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream stream(object);
  llvm::legacy::PassManager passes;
  if (machine.addPassesToEmitFile(passes, stream, nullptr, llvm::CGFT_ObjectFile)) {
    *error = "LLVM cannot make object files for this processor";
    return {};
  }
  passes.run(module);
  return object;
}

// Writes `object` to `path` through a temporary file and a rename, so that
// readers see the whole file or none; a failure leaves no cache entry.
void writeCached(const std::string &path, llvm::ArrayRef<char> object) {
  llvm::SmallString<256> temporary;
  int fd = -1;
  if (llvm::sys::fs::createUniqueFile(path + ".tmp-%%%%%%%%", fd, temporary))
    return;
  {
    llvm::raw_fd_ostream file(fd, /*shouldClose=*/true);
    file.write(object.data(), object.size());
    file.close();
    if (file.has_error()) {
      file.clear_error();
      llvm::sys::fs::remove(temporary);
      return;
    }
  }
  if (llvm::sys::fs::rename(temporary, path))
    llvm::sys::fs::remove(temporary);
}

// Links `object` into a JITDylib of its own and finds each block's body.
// Null, with `error` set, if the object does not link.
std::shared_ptr<Loaded> link(Engine &engine, std::unique_ptr<llvm::MemoryBuffer> object,
                             const std::vector<std::string> &names, std::string *error) {
  llvm::orc::ExecutionSession &session = engine.jit->getExecutionSession();
  auto library =
      engine.jit->createJITDylib("lanewise_kernel_" + std::to_string(engine.libraries++));
  if (!library) {
    *error = llvm::toString(library.takeError());
    return nullptr;
  }
  auto loaded = std::make_shared<Loaded>();
  loaded->session = &session;
  loaded->library = &*library;
  // The C library's functions LLVM may call (memcpy, memset, libm).
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      engine.jit->getDataLayout().getGlobalPrefix());
  if (!process) {
    *error = llvm::toString(process.takeError());
    return nullptr;
  }
  library->addGenerator(std::move(*process));
  if (llvm::Error failed = engine.jit->addObjectFile(*library, std::move(object))) {
    *error = llvm::toString(std::move(failed));
    return nullptr;
  }
  loaded->bodies.assign(names.size(), nullptr);
  for (std::size_t b = 0; b < names.size(); ++b) {
    if (names[b].empty())
      continue;
    auto symbol = engine.jit->lookup(*library, names[b]);
    if (!symbol) {
      *error = llvm::toString(symbol.takeError());
      return nullptr;
    }
    loaded->bodies[b] = reinterpret_cast<runtime::NativeBody>(symbol->getAddress());
  }
  return loaded;
}

} // namespace
} // namespace lanewise::jit

extern "C" [[gnu::visibility("default")]] lanewise::runtime::NativeCode *
lanewise_jit_compile_v2(const lanewise::runtime::KernelCode &code,
                        const lanewise::runtime::NativeOp *ops, const char *cacheDirectory,
                        std::string *error) {
  using namespace lanewise::jit;
  using lanewise::runtime::NativeCode;
  if (code.width % stepLanes != 0) {
    *error = "warps of " + std::to_string(code.width) + " lanes are not compiled (a multiple of " +
             std::to_string(stepLanes) + " is)";
    return nullptr;
  }
  Engine *shared = engine(error);
  if (!shared)
    return nullptr;
  std::lock_guard lock(shared->mutex);
  std::string id = key(*shared, code, ops);
  if (id.empty()) // no build id: names of this process only, and no disk cache
    id = "process_" + std::to_string(shared->libraries);
  if (auto found = shared->loaded.find(id); found != shared->loaded.end())
    if (std::shared_ptr<Loaded> live = found->second.lock()) {
      auto native = std::make_unique<Native>(std::move(live));
      native->origin = NativeCode::Origin::Shared;
      return native.release();
    }

  // Emitted in any case: which blocks have a body, and the statistics.
  const std::string prefix = "lanewise_" + id + "_";
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

  std::shared_ptr<Loaded> loaded;
  NativeCode::Origin origin = NativeCode::Origin::Compiled;
  std::string path;
  if (cacheDirectory && !id.starts_with("process_")) {
    path = std::string(cacheDirectory) + "/native-" + id + ".o";
    if (auto cached = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                                  /*RequiresNullTerminator=*/false)) {
      std::string ignored; // an entry that does not link is replaced below
      loaded = link(*shared, std::move(*cached), names, &ignored);
      origin = NativeCode::Origin::DiskCache;
    }
  }
  if (!loaded) {
    origin = NativeCode::Origin::Compiled;
    std::string problems;
    llvm::raw_string_ostream stream(problems);
    if (llvm::verifyModule(*module, &stream)) {
      *error = "the JIT made an invalid module: " + stream.str();
      return nullptr;
    }
    optimise(*module, *shared->machine);
    llvm::SmallVector<char, 0> object = objectOf(*module, *shared->machine, error);
    if (object.empty())
      return nullptr;
    if (!path.empty() && !llvm::sys::fs::create_directories(cacheDirectory))
      writeCached(path, object);
    loaded = link(
        *shared,
        llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(object.data(), object.size()), prefix),
        names, error);
    if (!loaded)
      return nullptr;
  }
  loaded->computed = computed;
  loaded->called = called;
  shared->loaded[id] = loaded;
  auto native = std::make_unique<Native>(std::move(loaded));
  native->origin = origin;
  return native.release();
}
