// SPDX-License-Identifier: Apache-2.0
// Memory instructions: loads, stores, pointer arithmetic, copies, atomics and
// asynchronous work-group copies (SPIR-V 1.4, 3.37.8 and 3.37.18). Pointers
// are 64-bit host addresses; a load or store through a varying pointer is a
// gather or scatter over the active lanes.
#include "runtime/check.h"
#include "runtime/handlers.h"
#include "runtime/interleave.h"
#include "runtime/shapes.h"

#include <atomic>
#include <cmath>
#include <cstring>


namespace lanewise::runtime {

namespace {

template <typename T> T read(std::uint64_t address) {
  T value;
  std::memcpy(&value, reinterpret_cast<const void *>(address), sizeof value);
  return value;
}

template <typename T> void write(std::uint64_t address, T value) {
  std::memcpy(reinterpret_cast<void *>(address), &value, sizeof value);
}

// Whether lane l's address is lane 0's plus l * stride for every lane: the
// common case of an index that is the work-item id.
inline bool consecutive(const std::uint64_t *pointer, std::uint32_t lanes, std::uint64_t stride) {
  // The second and the last lane first: most other patterns fail there.
  if (lanes > 1 && (pointer[1] != pointer[0] + stride ||
                    pointer[lanes - 1] != pointer[0] + (lanes - 1) * stride))
    return false;
  std::uint64_t expected = pointer[0];
  bool all = true;
  for (std::uint32_t l = 0; l < lanes; ++l, expected += stride)
    all &= pointer[l] == expected;
  return all;
}

// Whether the first lanes' addresses follow each other `stride` apart:
// the rows of a tile whose indices are not affine (a loop's counter), worth
// copying run by run (forRuns).
inline bool startsRun(const std::uint64_t *pointer, std::uint32_t lanes, std::uint64_t stride) {
  constexpr std::uint32_t minimum = 4;
  if (lanes < minimum)
    return false;
  for (std::uint32_t l = 1; l < minimum; ++l)
    if (pointer[l] != pointer[l - 1] + stride)
      return false;
  return true;
}

// Calls f(first, end) for each maximal run of lanes [first, end) of [0,
// lanes) whose addresses follow each other `stride` apart.
template <typename F>
inline void forRuns(const std::uint64_t *pointer, std::uint32_t lanes, std::uint64_t stride,
                    F &&f) {
  std::uint32_t first = 0;
  for (std::uint32_t l = 1; l <= lanes; ++l)
    if (l == lanes || pointer[l] != pointer[l - 1] + stride) {
      f(first, l);
      first = l;
    }
}

template <std::uint32_t Bytes> struct Load {
  using T = BitsT<Bytes>;
  template <bool RV, bool PV> static void run(const Instruction &in, ExecutionState &s) {
    const std::uint64_t *pointer = s.reg<const std::uint64_t>(in.operand[0]);
    T *r = s.reg<T>(in.result);
    const std::uint32_t w = s.width;
    if constexpr (!RV) {
      for (std::uint32_t c = 0; c < in.components; ++c)
        r[c] = read<T>(pointer[0] + c * Bytes);
    } else if constexpr (!PV) {
      // Every lane reads the same address.
      for (std::uint32_t c = 0; c < in.components; ++c) {
        const T value = read<T>(pointer[0] + c * Bytes);
        forActiveLanes(s, [&](std::uint32_t l) { r[c * w + l] = value; });
      }
    } else if (s.dense && consecutive(pointer, s.span, in.components * Bytes)) {
      // Lane l reads the element after lane l - 1's: one contiguous block.
      const auto *base = reinterpret_cast<const std::byte *>(pointer[0]);
      if (in.components == 1)
        std::memcpy(r, base, std::size_t(s.span) * Bytes);
      else
        deinterleave<Bytes>(r, base, in.components, s.span, w);
    } else if (s.dense && in.components > 1 && startsRun(pointer, s.span, in.components * Bytes)) {
      // Runs of lanes whose vectors follow each other: each one block.
      forRuns(pointer, s.span, in.components * Bytes, [&](std::uint32_t first, std::uint32_t end) {
        deinterleave<Bytes>(r + first, reinterpret_cast<const std::byte *>(pointer[first]),
                            in.components, end - first, w);
      });
    } else if (s.dense) {
      for (std::uint32_t c = 0; c < in.components; ++c) {
        T *rc = r + c * w;
        const std::uint64_t offset = c * Bytes;
        for (std::uint32_t l = 0; l < s.span; ++l)
          std::memcpy(&rc[l], reinterpret_cast<const void *>(pointer[l] + offset), Bytes);
      }
    } else {
      for (std::uint32_t c = 0; c < in.components; ++c)
        forActiveLanes(s, [&](std::uint32_t l) { r[c * w + l] = read<T>(pointer[l] + c * Bytes); });
    }
  }
};

template <std::uint32_t Bytes, bool PV, bool VV> void store(const Instruction &in, ExecutionState &s) {
  using T = BitsT<Bytes>;
  const std::uint64_t *pointer = s.reg<const std::uint64_t>(in.operand[0]);
  const T *value = s.reg<const T>(in.operand[1]);
  const std::uint32_t w = s.width;
  if constexpr (PV && VV) {
    if (s.dense && consecutive(pointer, s.span, in.components * Bytes)) {
      auto *base = reinterpret_cast<std::byte *>(pointer[0]);
      if (in.components == 1)
        std::memcpy(base, value, std::size_t(s.span) * Bytes);
      else
        interleave<Bytes>(base, value, in.components, s.span, w);
      return;
    }
    if (s.dense && in.components > 1 && startsRun(pointer, s.span, in.components * Bytes)) {
      // Runs of lanes whose vectors follow each other: each one block.
      forRuns(pointer, s.span, in.components * Bytes, [&](std::uint32_t first, std::uint32_t end) {
        interleave<Bytes>(reinterpret_cast<std::byte *>(pointer[first]), value + first,
                          in.components, end - first, w);
      });
      return;
    }
  }
  for (std::uint32_t c = 0; c < in.components; ++c)
    forActiveLanes(s, [&](std::uint32_t l) {
      write<T>(pointer[PV ? l : 0] + c * Bytes, value[VV ? c * w + l : c]);
    });
}

template <std::uint32_t Bytes> Handler storeFor(const Shape &shape) {
  const bool pv = shape.operand[0], vv = shape.operand[1];
  if (pv)
    return vv ? forIsa<&store<Bytes, true, true>>() : forIsa<&store<Bytes, true, false>>();
  return vv ? &store<Bytes, false, true> : &store<Bytes, false, false>;
}


// result = base + index * stride, index signed (OpAccessChain indices are
// signed, OpenCL SPIR-V environment 2.3). Computed modulo 2^64, as the
// machine's address arithmetic is: a product past the int64 range is no
// undefined behaviour of the engine's.
template <std::uint32_t IndexBytes> struct PointerIndex {
  template <bool RV, bool BV, bool IV> static void run(const Instruction &in, ExecutionState &s) {
    const std::uint64_t *base = s.reg<const std::uint64_t>(in.operand[0]);
    const std::byte *index = s.registers + in.operand[1];
    std::uint64_t *r = s.reg<std::uint64_t>(in.result);
    const std::uint64_t stride = in.immediate;
    using Index = std::make_signed_t<BitsT<IndexBytes>>;
    const Index *indices = reinterpret_cast<const Index *>(index);
    auto at = [&](std::uint32_t l) {
      return base[BV ? l : 0] + std::uint64_t(std::int64_t(indices[IV ? l : 0])) * stride;
    };
    if constexpr (!RV)
      r[0] = at(0);
    else if (s.dense) {
      for (std::uint32_t l = 0; l < s.span; ++l)
        r[l] = at(l);
    } else {
      forActiveLanes(s, [&](std::uint32_t l) { r[l] = at(l); });
    }
  }
};

struct PointerDisplace {
  template <bool RV, bool BV> static void run(const Instruction &in, ExecutionState &s) {
    elementwise<RV, BV>(s, s.reg<std::uint64_t>(in.result),
                        s.reg<const std::uint64_t>(in.operand[0]), 1,
                        [d = in.immediate](std::uint64_t p) { return p + d; });
  }
};

void copyMemory(const Instruction &in, ExecutionState &s) {
  const bool destinationVarying = in.aux & 1, sourceVarying = in.aux & 2;
  const bool sizeInRegister = in.aux & 4, sizeVarying = in.aux & 8;
  const std::uint32_t sizeBytes = static_cast<std::uint32_t>(in.aux >> 8);
  const std::uint64_t *destination = s.reg<const std::uint64_t>(in.operand[0]);
  const std::uint64_t *source = s.reg<const std::uint64_t>(in.operand[1]);
  forActiveLanes(s, [&](std::uint32_t l) {
    std::uint64_t size = in.immediate;
    if (sizeInRegister) {
      const std::byte *p = s.registers + in.operand[2] + (sizeVarying ? l * sizeBytes : 0);
      size = sizeBytes == 4 ? read<std::uint32_t>(reinterpret_cast<std::uint64_t>(p))
                            : read<std::uint64_t>(reinterpret_cast<std::uint64_t>(p));
    }
    const std::uint64_t to = destination[destinationVarying ? l : 0];
    const std::uint64_t from = source[sourceVarying ? l : 0];
    if (s.check) {
      // A copy the checked mode stopped goes nowhere; one it let through
      // initialises its destination.
      if (to == CheckSession::writeSink() || from == CheckSession::readSink())
        return;
      CheckSession::noteWrite(s, to, size);
    }
    std::memmove(reinterpret_cast<void *>(to), reinterpret_cast<const void *>(from), size);
  });
}

template <typename T> T atomicFloatUpdate(std::atomic_ref<T> target, T value, AtomicOp op) {
  T old = target.load();
  for (;;) {
    T next = old;
    if (op == AtomicOp::FAdd)
      next = old + value;
    else if (op == AtomicOp::FMin)
      next = std::fmin(old, value);
    else
      next = std::fmax(old, value);
    if (target.compare_exchange_weak(old, next))
      return old;
  }
}

// One lane's atomic operation on an object holding `current`, with its value
// and comparator operands: returns what the object holds after it, and sets
// `old` to the instruction's result.
template <typename T, AtomicOp Op> T applyAtomic(T current, T v, T comparator, T &old) {
  using Signed = std::make_signed_t<std::conditional_t<std::is_integral_v<T>, T, int>>;
  old = current;
  if constexpr (Op == AtomicOp::Load)
    return current;
  else if constexpr (Op == AtomicOp::Store || Op == AtomicOp::Exchange)
    return v;
  else if constexpr (Op == AtomicOp::FlagClear)
    return T(0);
  else if constexpr (Op == AtomicOp::FlagTestAndSet)
    return T(1);
  else if constexpr (Op == AtomicOp::CompareExchange)
    // Compared as compare_exchange does: by the bits.
    return std::memcmp(&current, &comparator, sizeof(T)) == 0 ? v : current;
  else if constexpr (Op == AtomicOp::FAdd)
    return current + v;
  else if constexpr (Op == AtomicOp::FMin)
    return std::fmin(current, v);
  else if constexpr (Op == AtomicOp::FMax)
    return std::fmax(current, v);
  else if constexpr (Op == AtomicOp::IIncrement)
    return T(current + 1);
  else if constexpr (Op == AtomicOp::IDecrement)
    return T(current - 1);
  else if constexpr (Op == AtomicOp::IAdd)
    return T(current + v);
  else if constexpr (Op == AtomicOp::ISub)
    return T(current - v);
  else if constexpr (Op == AtomicOp::And)
    return T(current & v);
  else if constexpr (Op == AtomicOp::Or)
    return T(current | v);
  else if constexpr (Op == AtomicOp::Xor)
    return T(current ^ v);
  else if constexpr (Op == AtomicOp::SMin)
    return Signed(v) < Signed(current) ? v : current;
  else if constexpr (Op == AtomicOp::SMax)
    return Signed(v) > Signed(current) ? v : current;
  else if constexpr (Op == AtomicOp::UMin)
    return v < current ? v : current;
  else
    return v > current ? v : current;
}

// Atomics act lane by lane, in lane order, on the host's atomics: work-groups
// run concurrently, so the memory may be shared with other threads.
// aux bits: 1 pointer varying, 2 value varying, 4 comparator varying,
// 8 result varying.
//
// When the pointer is the same for every lane (a counter, a flag, a
// histogram's one bin), the warp's operations are aggregated as a GPU
// aggregates a warp's: computed one after another, in lane order, from the
// value the object holds, and written with one compare-exchange, retried
// from the new value if another thread changed the object meanwhile. The
// lanes' operations then happen back to back with nothing between them,
// an order the memory model allows. A warp contending with itself costs
// one locked operation instead of one per lane. (Lanes in a
// compare-exchange loop on one object still succeed one per pass, as they
// would one after another.)
//
// On `__local` memory (Workgroup), which no other thread reaches (a
// work-group runs on one thread), the lanes' operations are plain reads
// and writes, one lane after another.
template <typename T, AtomicOp Op, bool Workgroup>
void atomic(const Instruction &in, ExecutionState &s) {
  const bool pv = in.aux & 1, vv = in.aux & 2, cv = in.aux & 4, rv = in.aux & 8;
  const std::uint64_t *pointer = s.reg<const std::uint64_t>(in.operand[0]);
  const T *value = s.reg<const T>(in.operand[1]);
  const T *comparator = s.reg<const T>(in.operand[2]);
  auto *result = s.reg<T>(in.result);
  auto setResult = [&](std::uint32_t l, T old) {
    if constexpr (Op == AtomicOp::FlagTestAndSet)
      reinterpret_cast<std::uint8_t *>(result)[rv ? l : 0] = old != 0;
    else if constexpr (Op != AtomicOp::Store && Op != AtomicOp::FlagClear)
      result[rv ? l : 0] = old;
  };
  if constexpr (Workgroup) {
    forActiveLanes(s, [&](std::uint32_t l) {
      auto *target = reinterpret_cast<std::byte *>(pointer[pv ? l : 0]);
      T current, old;
      std::memcpy(&current, target, sizeof(T));
      const T next = applyAtomic<T, Op>(current, value[vv ? l : 0], comparator[cv ? l : 0], old);
      if constexpr (Op != AtomicOp::Load)
        std::memcpy(target, &next, sizeof(T));
      setResult(l, old);
    });
    return;
  }
  if (!pv) {
    std::uint32_t lanes = 0;
    forActiveLanes(s, [&](std::uint32_t) { ++lanes; });
    if (lanes > 1) {
      std::atomic_ref<T> target(*reinterpret_cast<T *>(pointer[0]));
      T expected = target.load();
      for (;;) {
        T current = expected;
        forActiveLanes(s, [&](std::uint32_t l) {
          T old;
          current = applyAtomic<T, Op>(current, value[vv ? l : 0], comparator[cv ? l : 0], old);
          setResult(l, old);
        });
        if constexpr (Op == AtomicOp::Load)
          return;
        if (target.compare_exchange_strong(expected, current))
          return;
      }
    }
  }
  using Signed = std::make_signed_t<std::conditional_t<std::is_integral_v<T>, T, int>>;
  forActiveLanes(s, [&](std::uint32_t l) {
    std::atomic_ref<T> target(*reinterpret_cast<T *>(pointer[pv ? l : 0]));
    const T v = value[vv ? l : 0];
    T old{};
    if constexpr (Op == AtomicOp::Load) {
      old = target.load();
    } else if constexpr (Op == AtomicOp::Store) {
      target.store(v);
      return;
    } else if constexpr (Op == AtomicOp::FlagClear) {
      target.store(0);
      return;
    } else if constexpr (Op == AtomicOp::Exchange) {
      old = target.exchange(v);
    } else if constexpr (Op == AtomicOp::CompareExchange) {
      old = comparator[cv ? l : 0];
      target.compare_exchange_strong(old, v);
    } else if constexpr (Op == AtomicOp::FAdd || Op == AtomicOp::FMin || Op == AtomicOp::FMax) {
      old = atomicFloatUpdate(target, v, Op);
    } else if constexpr (Op == AtomicOp::FlagTestAndSet) {
      old = target.exchange(1);
    } else if constexpr (Op == AtomicOp::IIncrement) {
      old = target.fetch_add(1);
    } else if constexpr (Op == AtomicOp::IDecrement) {
      old = target.fetch_sub(1);
    } else if constexpr (Op == AtomicOp::IAdd) {
      old = target.fetch_add(v);
    } else if constexpr (Op == AtomicOp::ISub) {
      old = target.fetch_sub(v);
    } else if constexpr (Op == AtomicOp::And) {
      old = target.fetch_and(v);
    } else if constexpr (Op == AtomicOp::Or) {
      old = target.fetch_or(v);
    } else if constexpr (Op == AtomicOp::Xor) {
      old = target.fetch_xor(v);
    } else {
      old = target.load();
      for (;;) {
        bool replace;
        if constexpr (Op == AtomicOp::SMin)
          replace = Signed(v) < Signed(old);
        else if constexpr (Op == AtomicOp::SMax)
          replace = Signed(v) > Signed(old);
        else if constexpr (Op == AtomicOp::UMin)
          replace = v < old;
        else
          replace = v > old;
        if (!replace || target.compare_exchange_weak(old, v))
          break;
      }
    }
    setResult(l, old);
  });
}

template <typename T, bool Workgroup> Handler atomicFor(AtomicOp op) {
  switch (op) {
#define LANEWISE_ATOMIC(name)                                                                      \
  case AtomicOp::name:                                                                             \
    return &atomic<T, AtomicOp::name, Workgroup>;
    LANEWISE_ATOMIC(Load)
    LANEWISE_ATOMIC(Store)
    LANEWISE_ATOMIC(Exchange)
    LANEWISE_ATOMIC(CompareExchange)
  default:
    break;
  }
  if constexpr (std::is_integral_v<T>) {
    switch (op) {
      LANEWISE_ATOMIC(IIncrement)
      LANEWISE_ATOMIC(IDecrement)
      LANEWISE_ATOMIC(IAdd)
      LANEWISE_ATOMIC(ISub)
      LANEWISE_ATOMIC(SMin)
      LANEWISE_ATOMIC(UMin)
      LANEWISE_ATOMIC(SMax)
      LANEWISE_ATOMIC(UMax)
      LANEWISE_ATOMIC(And)
      LANEWISE_ATOMIC(Or)
      LANEWISE_ATOMIC(Xor)
    default:
      break;
    }
    if constexpr (std::is_same_v<T, std::uint32_t>) {
      switch (op) {
        LANEWISE_ATOMIC(FlagTestAndSet)
        LANEWISE_ATOMIC(FlagClear)
      default:
        break;
      }
    }
  } else {
    switch (op) {
      LANEWISE_ATOMIC(FAdd)
      LANEWISE_ATOMIC(FMin)
      LANEWISE_ATOMIC(FMax)
    default:
      break;
    }
  }
#undef LANEWISE_ATOMIC
  return nullptr;
}

// async_work_group_copy and async_work_group_strided_copy: one copy per
// work-group (OpenCL C 3.0, 6.15.11). The first warp to reach the n-th
// execution of a copy performs it, whole, at once; the other warps' n-th
// executions find it done. Copying at once is as the spec allows: the data
// must be in place when wait_group_events returns, and warps run in turn.
// The elements of an asynchronous copy: the stride applies to the source
// when the destination is __local, else to the destination.
void copyElements(std::uint64_t destination, std::uint64_t source, std::uint64_t count,
                  std::uint64_t stride, std::uint64_t elementBytes, bool toLocal) {
  if (stride == 1) {
    std::memcpy(reinterpret_cast<void *>(destination), reinterpret_cast<const void *>(source),
                count * elementBytes);
    return;
  }
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t from = source + (toLocal ? i * stride : i) * elementBytes;
    const std::uint64_t to = destination + (toLocal ? i : i * stride) * elementBytes;
    std::memcpy(reinterpret_cast<void *>(to), reinterpret_cast<const void *>(from), elementBytes);
  }
}

template <std::uint32_t ElementBytes> void asyncCopy(const Instruction &in, ExecutionState &s) {
  const std::uint32_t site = in.components;
  const std::uint32_t execution = ++s.asyncReached[site];
  if (execution <= s.group->asyncPerformed[site])
    return;
  s.group->asyncPerformed[site] = execution;
  const std::uint64_t destination = s.reg<const std::uint64_t>(in.operand[0])[0];
  const std::uint64_t source = s.reg<const std::uint64_t>(in.operand[1])[0];
  const std::uint64_t count = s.reg<const std::uint64_t>(in.operand[2])[0];
  const std::uint64_t stride = s.reg<const std::uint64_t>(in.operand[3])[0];
  const std::uint64_t elementBytes = in.immediate;
  const bool toLocal = in.aux != 0;
  copyElements(destination, source, count, stride, elementBytes, toLocal);
  if (s.check)
    for (std::uint64_t i = 0; i < count; ++i)
      CheckSession::noteWrite(s, destination + (toLocal ? i : i * stride) * elementBytes,
                              elementBytes);
  (void)ElementBytes;
}

void laneAsyncCopy(const Instruction &in, ExecutionState &s) {
  const std::uint32_t varying = in.components;
  auto operand = [&](std::uint32_t k, std::uint32_t lane) {
    return s.reg<const std::uint64_t>(in.operand[k])[varying >> k & 1 ? lane : 0];
  };
  const std::uint64_t elementBytes = in.immediate;
  const bool toLocal = in.aux != 0;
  forActiveLanes(s, [&](std::uint32_t lane) {
    copyElements(operand(0, lane), operand(1, lane), operand(2, lane), operand(3, lane),
                 elementBytes, toLocal);
  });
}

enum class Space : std::uint32_t { Semantics, Private, Local, Global };

Space spaceOf(std::uint64_t address) {
  switch (memoryOf(address)) {
  case MemoryOf::Local:
    return Space::Local;
  case MemoryOf::Private:
    return Space::Private;
  case MemoryOf::Global:
    break;
  }
  return Space::Global;
}

template <Space Target> struct GenericSpace {
  template <bool RV, bool AV> static void run(const Instruction &in, ExecutionState &s) {
    if constexpr (Target == Space::Semantics) {
      elementwise<RV, AV>(s, s.reg<std::uint32_t>(in.result),
                          s.reg<const std::uint64_t>(in.operand[0]), 1, [&](std::uint64_t p) {
                            const Space space = spaceOf(p);
                            return std::uint32_t(space == Space::Local    ? 0x100u
                                                 : space == Space::Global ? 0x200u
                                                                          : 0u);
                          });
    } else {
      elementwise<RV, AV>(
          s, s.reg<std::uint64_t>(in.result), s.reg<const std::uint64_t>(in.operand[0]), 1,
          [&](std::uint64_t p) { return p && spaceOf(p) == Target ? p : std::uint64_t(0); });
    }
  }
};

} // namespace

Handler genericSpaceHandler(std::uint32_t space, const Shape &shape) {
  switch (static_cast<Space>(space)) {
  case Space::Semantics:
    return shaped1<GenericSpace<Space::Semantics>>(shape);
  case Space::Private:
    return shaped1<GenericSpace<Space::Private>>(shape);
  case Space::Local:
    return shaped1<GenericSpace<Space::Local>>(shape);
  default:
    return shaped1<GenericSpace<Space::Global>>(shape);
  }
}

Handler loadHandler(std::uint32_t elementBytes, const Shape &shape) {
  return withElementBytes(elementBytes, [&]<std::uint32_t B>() { return shaped1<Load<B>>(shape); });
}

Handler storeHandler(std::uint32_t elementBytes, const Shape &shape) {
  return withElementBytes(elementBytes, [&]<std::uint32_t B>() { return storeFor<B>(shape); });
}

Handler pointerOffsetHandler(std::uint32_t indexBytes, const Shape &shape) {
  if (indexBytes == 0)
    return shaped1<PointerDisplace>(shape);
  return withElementBytes(indexBytes,
                          [&]<std::uint32_t B>() { return shaped2<PointerIndex<B>>(shape); });
}

Handler copyMemoryHandler(bool, std::uint32_t, const Shape &) { return &copyMemory; }

Handler atomicHandler(AtomicOp op, Scalar type, bool workgroup) {
  auto of = [&]<typename T>() {
    return workgroup ? atomicFor<T, true>(op) : atomicFor<T, false>(op);
  };
  switch (type) {
  case Scalar::I32:
    return of.template operator()<std::uint32_t>();
  case Scalar::I64:
    return of.template operator()<std::uint64_t>();
  case Scalar::F32:
    return of.template operator()<float>();
  case Scalar::F64:
    return of.template operator()<double>();
  default:
    return nullptr;
  }
}

Handler asyncCopyHandler(std::uint32_t) { return &asyncCopy<1>; }

Handler laneAsyncCopyHandler() { return &laneAsyncCopy; }

Handler deviceFenceHandler() {
  return [](const Instruction &, ExecutionState &) {
    std::atomic_thread_fence(std::memory_order_seq_cst);
  };
}

} // namespace lanewise::runtime
