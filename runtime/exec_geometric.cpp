// SPDX-License-Identifier: Apache-2.0
// The geometric functions (builtins/geometric.h): each lane's result is a
// function of all components of its operands.
#include "builtins/geometric.h"
#include "runtime/handlers.h"
#include "runtime/shapes.h"

namespace lanewise::runtime {

namespace {

using builtins::Geometric;

// operand[0] and operand[1] hold `aux` components; the result `components`.
template <Geometric G, typename T> struct GeometricOp {
  template <bool RV, bool AV, bool BV> static void run(const Instruction &in, ExecutionState &s) {
    const std::uint32_t n = in.aux, w = s.width;
    const T *a = s.reg<const T>(in.operand[0]);
    const T *b = s.reg<const T>(in.operand[1]);
    T *result = s.reg<T>(in.result);
    auto one = [&](std::uint32_t lane) {
      T p[4] = {}, q[4] = {}, r[4] = {};
      for (std::uint32_t c = 0; c < n; ++c) {
        p[c] = element<AV>(a, w, c, lane);
        q[c] = element<BV>(b, w, c, lane);
      }
      if constexpr (G == Geometric::Dot)
        r[0] = builtins::dot(p, q, n);
      else if constexpr (G == Geometric::Length)
        r[0] = builtins::length(p, n);
      else if constexpr (G == Geometric::Distance)
        r[0] = builtins::distance(p, q, n);
      else if constexpr (G == Geometric::Normalize)
        builtins::normalize(r, p, n);
      else
        builtins::cross(r, p, q, n);
      for (std::uint32_t c = 0; c < in.components; ++c)
        result[RV ? c * w + lane : c] = r[c];
    };
    if constexpr (RV)
      forActiveLanes(s, one);
    else
      one(0);
  }
};

template <Geometric G> Handler forFunction(Scalar type, const Shape &shape) {
  switch (type) {
  case Scalar::F16:
    return shaped2<GeometricOp<G, half>>(shape);
  case Scalar::F32:
    return shaped2<GeometricOp<G, float>>(shape);
  case Scalar::F64:
    return shaped2<GeometricOp<G, double>>(shape);
  default:
    return nullptr;
  }
}

} // namespace

Handler geometricHandler(Geometric function, Scalar type, const Shape &shape) {
  switch (function) {
  case Geometric::Dot:
    return forFunction<Geometric::Dot>(type, shape);
  case Geometric::Length:
    return forFunction<Geometric::Length>(type, shape);
  case Geometric::Distance:
    return forFunction<Geometric::Distance>(type, shape);
  case Geometric::Normalize:
    return forFunction<Geometric::Normalize>(type, shape);
  case Geometric::Cross:
    return forFunction<Geometric::Cross>(type, shape);
  }
  return nullptr;
}

} // namespace lanewise::runtime
