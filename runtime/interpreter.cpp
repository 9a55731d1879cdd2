#include "runtime/interpreter.h"

#include <algorithm>
#include <limits>

namespace lanewise::runtime {

namespace {

constexpr std::uint32_t noBlock = std::numeric_limits<std::uint32_t>::max();

template <typename T>
void copyElements(const RegisterCopy &copy, const ExecutionState &s, const std::uint8_t *mask) {
  const T *from = s.reg<T>(copy.from);
  T *to = s.reg<T>(copy.to);
  const std::uint32_t w = s.width, n = s.laneCount;
  for (std::uint32_t c = 0; c < copy.components; ++c) {
    if (!copy.toVarying) {
      // A uniform destination: the value is the same in every lane that
      // takes this edge.
      std::uint32_t lane = 0;
      if (copy.fromVarying && mask)
        while (lane < n && !mask[lane])
          ++lane;
      if (lane < n)
        to[c] = copy.fromVarying ? from[c * w + lane] : from[c];
      continue;
    }
    T *tc = to + c * w;
    if (copy.fromVarying) {
      const T *fc = from + c * w;
      if (mask)
        for (std::uint32_t l = 0; l < n; ++l)
          tc[l] = mask[l] ? fc[l] : tc[l];
      else
        std::copy(fc, fc + n, tc);
    } else {
      const T value = from[c];
      if (mask)
        for (std::uint32_t l = 0; l < n; ++l)
          tc[l] = mask[l] ? value : tc[l];
      else
        std::fill(tc, tc + n, value);
    }
  }
}

std::uint64_t loadSelector(const std::byte *p, std::uint32_t bytes) {
  switch (bytes) {
  case 1:
    return *reinterpret_cast<const std::uint8_t *>(p);
  case 2:
    return *reinterpret_cast<const std::uint16_t *>(p);
  case 4:
    return *reinterpret_cast<const std::uint32_t *>(p);
  default:
    return *reinterpret_cast<const std::uint64_t *>(p);
  }
}

} // namespace

void copyRegister(const RegisterCopy &copy, const ExecutionState &state,
                  const std::uint8_t *mask) {
  switch (copy.bytesPerElement) {
  case 1:
    return copyElements<std::uint8_t>(copy, state, mask);
  case 2:
    return copyElements<std::uint16_t>(copy, state, mask);
  case 4:
    return copyElements<std::uint32_t>(copy, state, mask);
  case 16:
    return copyElements<unsigned __int128>(copy, state, mask);
  default:
    return copyElements<std::uint64_t>(copy, state, mask);
  }
}

WarpStop runWarp(const KernelCode &code, ExecutionState &s, LaneControl &control) {
  const std::uint32_t n = s.laneCount;
  std::uint8_t *active = s.active;
  std::uint8_t *edgeMask = control.scratchMask;
  // When every lane of the warp is ready at one block, `converged` is that
  // block and nextBlock[] need not be read or written.
  std::uint32_t converged = noBlock;
  {
    bool all = true;
    for (std::uint32_t l = 0; l < n && all; ++l)
      all = control.status[l] == LaneStatus::Ready && control.nextBlock[l] == control.nextBlock[0];
    if (all && n > 0)
      converged = control.nextBlock[0];
  }

  for (;;) {
    std::uint32_t current = converged;
    if (current == noBlock) {
      for (std::uint32_t l = 0; l < n; ++l)
        if (control.status[l] == LaneStatus::Ready)
          current = std::min(current, control.nextBlock[l]);
      if (current == noBlock) {
        for (std::uint32_t l = 0; l < n; ++l)
          if (control.status[l] == LaneStatus::AtBarrier)
            return WarpStop::AtBarrier;
        return WarpStop::Finished;
      }
      bool full = true;
      for (std::uint32_t l = 0; l < n; ++l) {
        active[l] = control.status[l] == LaneStatus::Ready && control.nextBlock[l] == current;
        full &= active[l] != 0;
      }
      s.fullMask = full;
    } else {
      s.fullMask = true;
    }

    const Block &block = code.blocks[current];
    const std::uint8_t *activeMask = s.fullMask ? nullptr : active;
    for (const RegisterCopy &copy : block.phiCopies)
      copyRegister(copy, s, activeMask);
    const Instruction *instruction = code.instructions.data() + block.firstInstruction;
    const Instruction *end = instruction + block.instructionCount;
    for (; instruction != end; ++instruction)
      instruction->handler(*instruction, s);

    const Terminator &t = block.terminator;
    auto setNext = [&](std::uint32_t lane, std::uint32_t target) {
      control.nextBlock[lane] = target;
    };
    switch (t.kind) {
    case Terminator::Kind::Branch:
      for (const RegisterCopy &copy : t.edgeCopies[0])
        copyRegister(copy, s, activeMask);
      if (s.fullMask) {
        converged = t.target[0];
      } else {
        forActiveLanes(s, [&](std::uint32_t l) { setNext(l, t.target[0]); });
        converged = noBlock;
      }
      break;
    case Terminator::Kind::Conditional: {
      const std::uint8_t *condition = s.reg<std::uint8_t>(t.condition);
      if (!t.conditionVarying) {
        const std::uint32_t edge = condition[0] ? 0 : 1;
        for (const RegisterCopy &copy : t.edgeCopies[edge])
          copyRegister(copy, s, activeMask);
        if (s.fullMask) {
          converged = t.target[edge];
        } else {
          forActiveLanes(s, [&](std::uint32_t l) { setNext(l, t.target[edge]); });
          converged = noBlock;
        }
        break;
      }
      for (std::uint32_t edge = 0; edge < 2; ++edge) {
        const std::uint8_t want = edge == 0;
        for (std::uint32_t l = 0; l < n; ++l)
          edgeMask[l] = (s.fullMask || active[l]) && (condition[l] != 0) == want;
        for (const RegisterCopy &copy : t.edgeCopies[edge])
          copyRegister(copy, s, edgeMask);
      }
      forActiveLanes(s, [&](std::uint32_t l) { setNext(l, t.target[condition[l] ? 0 : 1]); });
      converged = noBlock;
      break;
    }
    case Terminator::Kind::Switch: {
      const std::byte *selector = s.registers + t.condition;
      auto targetIndex = [&](std::uint32_t lane) -> std::uint32_t {
        const std::uint64_t value =
            loadSelector(selector + (t.conditionVarying ? lane * t.selectorBytes : 0),
                         t.selectorBytes);
        for (std::size_t i = 0; i < t.caseValue.size(); ++i)
          if (t.caseValue[i] == value)
            return static_cast<std::uint32_t>(i + 1);
        return 0;
      };
      for (std::uint32_t edge = 0; edge < t.target.size(); ++edge) {
        if (t.edgeCopies[edge].empty())
          continue;
        for (std::uint32_t l = 0; l < n; ++l)
          edgeMask[l] = (s.fullMask || active[l]) && targetIndex(l) == edge;
        for (const RegisterCopy &copy : t.edgeCopies[edge])
          copyRegister(copy, s, edgeMask);
      }
      forActiveLanes(s, [&](std::uint32_t l) { setNext(l, t.target[targetIndex(l)]); });
      converged = noBlock;
      break;
    }
    case Terminator::Kind::Barrier:
      for (const RegisterCopy &copy : t.edgeCopies[0])
        copyRegister(copy, s, activeMask);
      forActiveLanes(s, [&](std::uint32_t l) {
        setNext(l, t.target[0]);
        control.status[l] = LaneStatus::AtBarrier;
      });
      converged = noBlock;
      break;
    case Terminator::Kind::Return:
    case Terminator::Kind::Unreachable:
      forActiveLanes(s, [&](std::uint32_t l) { control.status[l] = LaneStatus::Done; });
      converged = noBlock;
      break;
    }
  }
}

} // namespace lanewise::runtime
