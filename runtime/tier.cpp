// SPDX-License-Identifier: Apache-2.0
// The tier policy (runtime/tier.h): counting launches, loading the JIT
// module, compiling in the background, and what the JIT may compute itself.
#include "runtime/tier.h"

#include "builtins/math.h"
#include "runtime/cache_directory.h"
#include "runtime/shapes.h"

#include <tbb/task_arena.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <filesystem>
#include <optional>
#include <string_view>
#include <unordered_map>

namespace lanewise::runtime {

std::shared_ptr<TierState> newTierState() { return std::make_shared<TierState>(); }

Tier tierPolicy() {
  static const Tier tier = [] {
    const char *value = std::getenv("LANEWISE_TIER");
    if (!value || !*value || std::string_view(value) == "auto")
      return Tier::Auto;
    if (std::string_view(value) == "interp")
      return Tier::Interpreter;
    if (std::string_view(value) == "jit")
      return Tier::Jit;
    std::fprintf(stderr,
                 "lanewise: LANEWISE_TIER=%s is not one of interp, jit, auto; kernels stay "
                 "interpreted\n",
                 value);
    return Tier::Interpreter;
  }();
  return tier;
}

namespace {

// What each handler the JIT may replace computes: the handlers of the
// elementwise operations the JIT knows (NativeOp), for every type and
// shape, as the factories hand them out in this process (runtime/isa.h
// chooses one form per process). A handler two entries share (the
// compiler merges identical functions) computes the same bits for both.
const std::unordered_map<Handler, NativeOp> &nativeOps() {
  static const auto *table = [] {
    auto *map = new std::unordered_map<Handler, NativeOp>();
    using enum BinaryOp;
    constexpr BinaryOp ops[] = {IAdd,
                                ISub,
                                IMul,
                                ShiftLeftLogical,
                                ShiftRightLogical,
                                ShiftRightArithmetic,
                                BitwiseAnd,
                                BitwiseOr,
                                BitwiseXor,
                                FAdd,
                                FSub,
                                FMul,
                                FDiv,
                                IEqual,
                                INotEqual,
                                UGreaterThan,
                                SGreaterThan,
                                UGreaterThanEqual,
                                SGreaterThanEqual,
                                ULessThan,
                                SLessThan,
                                ULessThanEqual,
                                SLessThanEqual,
                                FOrdEqual,
                                FUnordEqual,
                                FOrdNotEqual,
                                FUnordNotEqual,
                                FOrdLessThan,
                                FUnordLessThan,
                                FOrdGreaterThan,
                                FUnordGreaterThan,
                                FOrdLessThanEqual,
                                FUnordLessThanEqual,
                                FOrdGreaterThanEqual,
                                FUnordGreaterThanEqual,
                                LessOrGreater,
                                Ordered,
                                Unordered,
                                LogicalEqual,
                                LogicalNotEqual,
                                LogicalAnd,
                                LogicalOr};
    constexpr Scalar types[] = {Scalar::Bool, Scalar::I8,  Scalar::I16, Scalar::I32,
                                Scalar::I64,  Scalar::F32, Scalar::F64};
    // Every shape of `operands` operands: a varying result with operands
    // of either kind, or a uniform one.
    auto forShapes = [](unsigned operands, auto &&add) {
      for (unsigned key = 0; key <= (1u << operands); ++key) {
        Shape shape;
        shape.result = key < (1u << operands);
        for (unsigned k = 0; k < operands; ++k)
          shape.operand[k] = shape.result && (key >> k & 1);
        add(shape);
      }
    };
    auto add = [&](Handler handler, NativeOp op) {
      if (handler)
        map->emplace(handler, op);
    };
    for (BinaryOp binary : ops)
      for (Scalar type : types)
        forShapes(2, [&](const Shape &shape) {
          NativeOp op;
          op.kind = NativeOp::Kind::Binary;
          op.binary = binary;
          op.type = type;
          op.shape = shape;
          add(binaryHandler(binary, type, shape), op);
        });
    using builtins::Math;
    constexpr Math floatMath[] = {Math::Fabs, Math::Sqrt,  Math::Rsqrt, Math::Floor,
                                  Math::Ceil, Math::Trunc, Math::Round, Math::Rint,
                                  Math::Fma,  Math::Mad,   Math::Mix,   Math::Copysign};
    constexpr Math integerMath[] = {Math::SMin, Math::SMax, Math::UMin, Math::UMax};
    auto addMath = [&](Math function, Scalar type) {
      forShapes(builtins::operandCount(function), [&](const Shape &shape) {
        NativeOp op;
        op.kind = NativeOp::Kind::Math;
        op.math = static_cast<std::uint8_t>(function);
        op.type = type;
        op.shape = shape;
        add(mathHandler(function, type, shape), op);
      });
    };
    for (Math function : floatMath)
      for (Scalar type : {Scalar::F32, Scalar::F64})
        addMath(function, type);
    for (Math function : integerMath)
      for (Scalar type : {Scalar::I8, Scalar::I16, Scalar::I32, Scalar::I64})
        addMath(function, type);
    constexpr NumericType numeric[] = {
        {Scalar::I8, false},  {Scalar::I8, true},  {Scalar::I16, false}, {Scalar::I16, true},
        {Scalar::I32, false}, {Scalar::I32, true}, {Scalar::I64, false}, {Scalar::I64, true},
        {Scalar::F32, false}, {Scalar::F64, false}};
    for (NumericType from : numeric)
      for (NumericType to : numeric)
        forShapes(1, [&](const Shape &shape) {
          NativeOp op;
          op.kind = NativeOp::Kind::Convert;
          op.type = from.scalar;
          op.fromSigned = from.isSigned;
          op.to = to.scalar;
          op.toSigned = to.isSigned;
          op.shape = shape;
          add(convertHandler(from, to, Rounding::Default, false, shape), op);
        });
    for (std::uint8_t bytes : {1, 2, 4, 8}) {
      forShapes(3, [&](const Shape &shape) {
        NativeOp op;
        op.kind = NativeOp::Kind::Select;
        op.bytes = bytes;
        op.shape = shape;
        add(selectHandler(bytes, shape), op);
      });
      forShapes(1, [&](const Shape &shape) {
        NativeOp op;
        op.kind = NativeOp::Kind::Copy;
        op.bytes = bytes;
        op.shape = shape;
        add(copyComponentsHandler(bytes, shape), op);
      });
    }
    return map;
  }();
  return *table;
}

// The JIT module, loaded once: its entry, or null (and why).
struct JitModule {
  JitCompile compile = nullptr;
  std::string failure;
};

void waitForCompiles();

const JitModule &jitModule() {
  static const JitModule module = [] {
    JitModule loaded;
    Dl_info self{};
    if (!dladdr(reinterpret_cast<void *>(&newTierState), &self) || !self.dli_fname) {
      loaded.failure = "the JIT module's folder is unknown";
      return loaded;
    }
    std::string path = self.dli_fname;
    path = path.substr(0, path.find_last_of('/') + 1) + "lanewise/liblanewise-jit.so";
    void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char *why = dlerror();
      loaded.failure = "the JIT module could not be loaded: " + std::string(why ? why : path);
      return loaded;
    }
    loaded.compile = reinterpret_cast<JitCompile>(dlsym(handle, jitCompileSymbol));
    if (!loaded.compile)
      loaded.failure = path + " has no " + jitCompileSymbol;
    // Registered after LLVM's own destructors were: runs before them.
    std::atexit(waitForCompiles);
    return loaded;
  }();
  return module;
}

// Compilations in the background, which the process's exit waits for:
// a compile under way finishes, one not started yet is dropped (and lets go
// of its kernel). The wait is registered when the first compile is queued
// and again once LLVM is loaded, so that it runs before LLVM's own
// destructors.
std::mutex compilesMutex;
std::condition_variable compilesDone;
unsigned compilesQueued = 0;
std::atomic<bool> exiting{false};

void waitForCompiles() {
  exiting.store(true, std::memory_order_release);
  std::unique_lock lock(compilesMutex);
  compilesDone.wait(lock, [] { return compilesQueued == 0; });
}

void compile(const KernelCode &code) {
  TierState &tier = *code.tier;
  std::string failure;
  std::unique_ptr<NativeCode> native;
  if (code.checks)
    failure = "checked kernels stay interpreted";
  else if (const JitModule &module = jitModule(); !module.compile)
    failure = module.failure;
  else {
    std::vector<NativeOp> ops(code.instructions.size());
    const auto &table = nativeOps();
    for (std::size_t i = 0; i < ops.size(); ++i)
      if (auto found = table.find(code.instructions[i].handler); found != table.end())
        ops[i] = found->second;
    const std::optional<std::filesystem::path> cache = cacheDirectory();
    const std::string folder = cache ? cache->string() : std::string();
    try {
      native.reset(module.compile(code, ops.data(), cache ? folder.c_str() : nullptr, &failure));
    } catch (const std::exception &error) {
      failure = error.what();
    }
  }
  std::lock_guard lock(tier.mutex);
  if (native) {
    tier.owned = std::move(native);
    tier.native.store(tier.owned.get(), std::memory_order_release);
  } else {
    tier.failure = failure.empty() ? "the JIT did not compile it" : failure;
  }
}

void compileInBackground(std::shared_ptr<const KernelCode> code) {
  static const bool registered = std::atexit(waitForCompiles) == 0;
  (void)registered;
  {
    std::lock_guard lock(compilesMutex);
    ++compilesQueued;
  }
  static tbb::task_arena *arena = new tbb::task_arena(1);
  // The kernel is let go of before the exit's wait may end.
  auto *job = new std::shared_ptr<const KernelCode>(std::move(code));
  arena->enqueue([job] {
    if (!exiting.load(std::memory_order_acquire))
      compile(**job);
    delete job;
    std::lock_guard lock(compilesMutex);
    if (--compilesQueued == 0)
      compilesDone.notify_all();
  });
}

} // namespace

const NativeCode *nativeForLaunch(const KernelCode &code) {
  const Tier policy = tierPolicy();
  if (policy == Tier::Interpreter)
    return nullptr;
  TierState &tier = *code.tier;
  if (const NativeCode *native = tier.native.load(std::memory_order_acquire))
    return native;
  const std::uint32_t launches = tier.launches.fetch_add(1, std::memory_order_relaxed) + 1;
  const bool hot = policy == Tier::Jit || launches >= hotLaunches ||
                   tier.interpretedNanoseconds.load(std::memory_order_relaxed) >= hotNanoseconds;
  if (!hot || tier.requested.exchange(true, std::memory_order_acq_rel))
    return nullptr;
  std::shared_ptr<const KernelCode> shared = code.weak_from_this().lock();
  if (policy == Tier::Jit || !shared) {
    compile(code);
    return tier.native.load(std::memory_order_acquire);
  }
  compileInBackground(std::move(shared));
  return nullptr;
}

void recordInterpretedLaunch(const KernelCode &code, std::uint64_t nanoseconds) {
  if (tierPolicy() == Tier::Auto)
    code.tier->interpretedNanoseconds.fetch_add(nanoseconds, std::memory_order_relaxed);
}

std::string tierDescription(TierState &tier, std::size_t blocks) {
  std::lock_guard lock(tier.mutex);
  if (const NativeCode *native = tier.owned.get()) {
    std::size_t compiled = 0;
    for (NativeBody body : native->bodies)
      compiled += body != nullptr;
    static constexpr const char *origins[] = {"compiled", "loaded from the disk cache",
                                              "shared with a kernel of the same code"};
    return "native: " + std::to_string(compiled) + " of " + std::to_string(blocks) + " blocks, " +
           std::to_string(native->nativeInstructions) + " instructions computed, " +
           std::to_string(native->calledInstructions) + " through their handlers; " +
           origins[static_cast<std::size_t>(native->origin)];
  }
  if (!tier.failure.empty())
    return "interpreted: " + tier.failure;
  return "interpreted";
}

} // namespace lanewise::runtime
