// SPDX-License-Identifier: Apache-2.0
// Moving values between registers: copies, vector shuffles, dynamic
// component access (SPIR-V 1.4, 3.37.12).
#include "builtins/shuffle.h"
#include "runtime/handlers.h"
#include "runtime/shapes.h"

#include <cstring>

#include <vector>

namespace lanewise::runtime {

namespace {

template <std::uint32_t Bytes> struct CopyComponents {
  using T = BitsT<Bytes>;
  template <bool RV, bool AV> static void run(const Instruction &in, ExecutionState &s) {
    elementwise<RV, AV>(s, s.reg<T>(in.result), s.reg<const T>(in.operand[0]), in.components,
                        [](T v) { return v; });
  }
};

// `data`: a std::vector<std::uint32_t> with one entry per result component:
// the component of operand[0] (below aux, the first vector's length) or of
// operand[1] (aux and above); 0xFFFFFFFF leaves the component undefined.
template <std::uint32_t Bytes> struct VectorShuffle {
  using T = BitsT<Bytes>;
  template <bool RV, bool AV, bool BV> static void run(const Instruction &in, ExecutionState &s) {
    const auto &selection = *static_cast<const std::vector<std::uint32_t> *>(in.data);
    const T *a = s.reg<const T>(in.operand[0]);
    const T *b = s.reg<const T>(in.operand[1]);
    T *r = s.reg<T>(in.result);
    const std::uint32_t w = s.width, n = s.span, firstLength = in.aux;
    for (std::uint32_t c = 0; c < selection.size(); ++c) {
      const std::uint32_t pick = selection[c];
      if (pick == 0xFFFFFFFFu)
        continue;
      const bool fromA = pick < firstLength;
      const std::uint32_t k = fromA ? pick : pick - firstLength;
      const bool sourceVarying = fromA ? AV : BV;
      const T *source = fromA ? a : b;
      if constexpr (!RV) {
        r[c] = source[k];
      } else {
        T *rc = r + c * w;
        const T *sc = source + (sourceVarying ? k * w : k);
        builtins::copyLanes(rc, sc, sourceVarying, s.begin, n, s.contiguous ? nullptr : s.active);
      }
    }
  }
};

// `data`: a std::vector<ComponentSource>, the register row each result
// component is copied from (a composed chain of constant selections).
template <std::uint32_t Bytes> struct GatherComponents {
  using T = BitsT<Bytes>;
  template <bool RV> static void run(const Instruction &in, ExecutionState &s) {
    const auto &sources = *static_cast<const std::vector<ComponentSource> *>(in.data);
    T *r = s.reg<T>(in.result);
    const std::uint32_t w = s.width, n = s.span;
    for (std::uint32_t c = 0; c < sources.size(); ++c) {
      const T *source = s.reg<const T>(sources[c].offset);
      if constexpr (!RV)
        r[c] = source[0];
      else
        builtins::copyLanes(r + c * w, source, sources[c].varying, s.begin, n,
                            s.contiguous ? nullptr : s.active);
    }
  }
};

template <typename I> std::uint64_t indexAt(const std::byte *p, std::uint32_t i) {
  return reinterpret_cast<const I *>(p)[i];
}

std::uint64_t readIndex(const ExecutionState &s, std::uint32_t offset, std::uint32_t bytes,
                        std::uint32_t i) {
  const std::byte *p = s.registers + offset;
  switch (bytes) {
  case 1:
    return indexAt<std::uint8_t>(p, i);
  case 2:
    return indexAt<std::uint16_t>(p, i);
  case 4:
    return indexAt<std::uint32_t>(p, i);
  default:
    return indexAt<std::uint64_t>(p, i);
  }
}

// An index past the vector's end is undefined (SPIR-V 1.4,
// OpVectorExtractDynamic); component 0 is read instead, inside the register.
template <std::uint32_t Bytes> struct ExtractDynamic {
  using T = BitsT<Bytes>;
  template <bool RV, bool AV, bool BV> static void run(const Instruction &in, ExecutionState &s) {
    const T *v = s.reg<const T>(in.operand[0]);
    T *r = s.reg<T>(in.result);
    const std::uint32_t length = static_cast<std::uint32_t>(in.immediate), w = s.width;
    auto component = [&](std::uint32_t lane) {
      const std::uint64_t k = readIndex(s, in.operand[1], in.aux, BV ? lane : 0);
      return std::uint32_t(k < length ? k : 0);
    };
    if constexpr (!RV)
      r[0] = v[component(0)];
    else
      forActiveLanes(s, [&](std::uint32_t l) {
        const std::uint32_t k = component(l);
        r[l] = AV ? v[k * w + l] : v[k];
      });
  }
};

template <std::uint32_t Bytes> struct InsertDynamic {
  using T = BitsT<Bytes>;
  template <bool RV, bool AV, bool BV, bool CV>
  static void run(const Instruction &in, ExecutionState &s) {
    const T *v = s.reg<const T>(in.operand[0]);
    const T *value = s.reg<const T>(in.operand[1]);
    T *r = s.reg<T>(in.result);
    const std::uint32_t length = in.components, w = s.width;
    auto insert = [&](std::uint32_t lane) {
      const std::uint64_t k = readIndex(s, in.operand[2], in.aux, CV ? lane : 0);
      for (std::uint32_t c = 0; c < length; ++c) {
        const T original = AV ? v[c * w + lane] : v[c];
        const T replacement = BV ? value[lane] : value[0];
        (RV ? r[c * w + lane] : r[c]) = c == k ? replacement : original;
      }
    };
    if constexpr (!RV)
      insert(0);
    else
      forActiveLanes(s, insert);
  }
};

} // namespace

Handler copyComponentsHandler(std::uint32_t elementBytes, const Shape &shape) {
  return withElementBytes(elementBytes,
                          [&]<std::uint32_t B>() { return shaped1<CopyComponents<B>>(shape); });
}

Handler vectorShuffleHandler(std::uint32_t elementBytes, const Shape &shape) {
  return withElementBytes(elementBytes,
                          [&]<std::uint32_t B>() { return shaped2<VectorShuffle<B>>(shape); });
}

Handler gatherComponentsHandler(std::uint32_t elementBytes, bool resultVarying) {
  return withElementBytes(elementBytes, [&]<std::uint32_t B>() {
    return resultVarying ? forIsa<&GatherComponents<B>::template run<true>>()
                         : forIsa<&GatherComponents<B>::template run<false>>();
  });
}

Handler extractDynamicHandler(std::uint32_t elementBytes, const Shape &shape) {
  return withElementBytes(elementBytes,
                          [&]<std::uint32_t B>() { return shaped2<ExtractDynamic<B>>(shape); });
}

Handler insertDynamicHandler(std::uint32_t elementBytes, const Shape &shape) {
  return withElementBytes(elementBytes,
                          [&]<std::uint32_t B>() { return shaped3<InsertDynamic<B>>(shape); });
}

} // namespace lanewise::runtime

namespace lanewise::runtime {

namespace {
// Reinterprets each lane's bytes: gathers the source components into the
// lane's contiguous bytes, then scatters them as the result's components.
template <bool RV, bool AV> void bitcast(const Instruction &in, ExecutionState &s) {
  const std::uint32_t sourceBytes = static_cast<std::uint32_t>(in.immediate);
  const std::uint32_t sourceComponents = in.aux;
  const std::uint32_t resultBytes = (sourceBytes * sourceComponents) / in.components;
  const std::byte *source = s.registers + in.operand[0];
  std::byte *result = s.registers + in.result;
  const std::uint32_t w = s.width;
  auto convert = [&](std::uint32_t lane) {
    std::byte bytes[128];
    for (std::uint32_t c = 0; c < sourceComponents; ++c)
      std::memcpy(bytes + c * sourceBytes, source + (AV ? c * w + lane : c) * sourceBytes,
                  sourceBytes);
    for (std::uint32_t c = 0; c < in.components; ++c)
      std::memcpy(result + (RV ? c * w + lane : c) * resultBytes, bytes + c * resultBytes,
                  resultBytes);
  };
  if constexpr (!RV)
    convert(0);
  else
    forActiveLanes(s, convert);
}
struct Bitcast {
  template <bool RV, bool AV> static void run(const Instruction &in, ExecutionState &s) {
    bitcast<RV, AV>(in, s);
  }
};
} // namespace

Handler bitcastHandler(std::uint32_t, const Shape &shape) { return shaped1<Bitcast>(shape); }


namespace {
// Shape: result, x, y, mask (operand[0], [1], [2]). The mask's elements have
// the size of the result's (OpenCL C 3.0, 6.15.12).
template <std::uint32_t Bytes, bool TwoInputs> struct Shuffle {
  using T = BitsT<Bytes>;
  template <bool RV, bool XV, bool YV, bool MV>
  static void run(const Instruction &in, ExecutionState &s) {
    builtins::ShuffleOperands<T, T> o{s.reg<T>(in.result),
                                      s.reg<const T>(in.operand[0]),
                                      s.reg<const T>(in.operand[1]),
                                      s.reg<const T>(in.operand[2]),
                                      RV ? s.width : 1,
                                      XV ? s.width : 1,
                                      YV ? s.width : 1,
                                      MV ? s.width : 1,
                                      XV,
                                      YV,
                                      MV};
    builtins::shuffleLanes(o, in.components, in.aux, TwoInputs, RV ? s.begin : 0, RV ? s.span : 1,
                           RV && !s.contiguous ? s.active : nullptr);
  }
};
} // namespace

Handler shuffleHandler(std::uint32_t elementBytes, const Shape &shape, bool twoInputs) {
  return withElementBytes(elementBytes, [&]<std::uint32_t B>() -> Handler {
    if constexpr (B == 16)
      return nullptr;
    else
      return twoInputs ? shaped3<Shuffle<B, true>>(shape) : shaped3<Shuffle<B, false>>(shape);
  });
}

} // namespace lanewise::runtime
