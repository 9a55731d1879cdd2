// SPDX-License-Identifier: Apache-2.0
// The OpenCL.std extended instructions: dispatch, math, geometric and mixed
// functions, bound to runtime/exec_math.cpp and runtime/exec_geometric.cpp.
#include "spirv/lowering.h"

#include "builtins/geometric.h"
#include "builtins/math.h"
#include "spirv/names.h"

#include <spirv/unified1/OpenCL.std.h>

namespace lanewise::spirv::lowering {

std::optional<builtins::Math> openclStdFunction(uint32_t instruction) {
  using builtins::Math;
  using namespace OpenCLLIB;
  switch (instruction) {
  case Fabs: return Math::Fabs;
  case Sqrt: case Native_sqrt: case Half_sqrt: return Math::Sqrt;
  case Rsqrt: case Native_rsqrt: case Half_rsqrt: return Math::Rsqrt;
  case Floor: return Math::Floor;
  case Ceil: return Math::Ceil;
  case Trunc: return Math::Trunc;
  case Round: return Math::Round;
  case Rint: return Math::Rint;
  case Exp: case Native_exp: case Half_exp: return Math::Exp;
  case Exp2: case Native_exp2: case Half_exp2: return Math::Exp2;
  case Exp10: case Native_exp10: case Half_exp10: return Math::Exp10;
  case Expm1: return Math::Expm1;
  case Log: case Native_log: case Half_log: return Math::Log;
  case Log2: case Native_log2: case Half_log2: return Math::Log2;
  case Log10: case Native_log10: case Half_log10: return Math::Log10;
  case Log1p: return Math::Log1p;
  case Logb: return Math::Logb;
  case Sin: case Native_sin: case Half_sin: return Math::Sin;
  case Cos: case Native_cos: case Half_cos: return Math::Cos;
  case Tan: case Native_tan: case Half_tan: return Math::Tan;
  case Asin: return Math::Asin;
  case Acos: return Math::Acos;
  case Atan: return Math::Atan;
  case Sinh: return Math::Sinh;
  case Cosh: return Math::Cosh;
  case Tanh: return Math::Tanh;
  case Asinh: return Math::Asinh;
  case Acosh: return Math::Acosh;
  case Atanh: return Math::Atanh;
  case Sinpi: return Math::Sinpi;
  case Cospi: return Math::Cospi;
  case Tanpi: return Math::Tanpi;
  case Asinpi: return Math::Asinpi;
  case Acospi: return Math::Acospi;
  case Atanpi: return Math::Atanpi;
  case Cbrt: return Math::Cbrt;
  case Erf: return Math::Erf;
  case Erfc: return Math::Erfc;
  case Tgamma: return Math::Tgamma;
  case Lgamma: return Math::Lgamma;
  case Native_recip: case Half_recip: return Math::Recip;
  case Degrees: return Math::Degrees;
  case Radians: return Math::Radians;
  case Sign: return Math::Sign;
  case Fmin: case FMin_common: return Math::Fmin;
  case Fmax: case FMax_common: return Math::Fmax;
  case Pow: return Math::Pow;
  case Powr: case Native_powr: case Half_powr: return Math::Powr;
  case Fmod: return Math::Fmod;
  case Copysign: return Math::Copysign;
  case Hypot: return Math::Hypot;
  case Atan2: return Math::Atan2;
  case Atan2pi: return Math::Atan2pi;
  case Fdim: return Math::Fdim;
  case Maxmag: return Math::Maxmag;
  case Minmag: return Math::Minmag;
  case Remainder: return Math::Remainder;
  case Nextafter: return Math::Nextafter;
  case Native_divide: case Half_divide: return Math::Divide;
  case Step: return Math::Step;
  case Fma: return Math::Fma;
  case Mad: return Math::Mad;
  case Mix: return Math::Mix;
  case FClamp: return Math::FClamp;
  case Smoothstep: return Math::Smoothstep;
  case SAbs: return Math::SAbs;
  case UAbs: return Math::UAbs;
  case Popcount: return Math::Popcount;
  case Clz: return Math::Clz;
  case Ctz: return Math::Ctz;
  case SMin: return Math::SMin;
  case SMax: return Math::SMax;
  case UMin: return Math::UMin;
  case UMax: return Math::UMax;
  case SMul_hi: return Math::MulHiS;
  case UMul_hi: return Math::MulHiU;
  case SAbs_diff: return Math::SAbsDiff;
  case UAbs_diff: return Math::UAbsDiff;
  case SAdd_sat: return Math::SAddSat;
  case UAdd_sat: return Math::UAddSat;
  case SSub_sat: return Math::SSubSat;
  case USub_sat: return Math::USubSat;
  case SHadd: return Math::SHadd;
  case UHadd: return Math::UHadd;
  case SRhadd: return Math::SRhadd;
  case URhadd: return Math::URhadd;
  case SMul24: return Math::SMul24;
  case UMul24: return Math::UMul24;
  case Rotate: return Math::Rotate;
  case SClamp: return Math::SClamp;
  case UClamp: return Math::UClamp;
  case SMad_hi: return Math::SMadHi;
  case UMad_hi: return Math::UMadHi;
  case SMad_sat: return Math::SMadSat;
  case UMad_sat: return Math::UMadSat;
  case SMad24: return Math::SMad24;
  case UMad24: return Math::UMad24;
  default: return std::nullopt;
  }
}


void KernelLowering::lowerExtInst(const Instruction &instruction) {
  const uint32_t set = instruction.idOperand(0);
  auto name = module_.extInstImports.find(set);
  if (name == module_.extInstImports.end() || name->second != "OpenCL.std")
    fail(instruction, "extended instruction set '" +
                          (name == module_.extInstImports.end() ? std::string("?") : name->second) +
                          "' is not supported");
  const uint32_t number = instruction.operands.at(1);
  if (number == OpenCLLIB::Prefetch)
    return; // a hint (OpenCL C 3.0, 6.15.11)
  if (number == OpenCLLIB::Printf)
    return lowerPrintf(instruction);
  if (lowerVectorMemory(instruction, number) || lowerPermutation(instruction, number))
    return;
  if (lowerMixedMath(instruction, number) || lowerGeometric(instruction, number))
    return;
  const auto function = openclStdFunction(number);
  if (!function)
    fail(instruction, "OpenCL.std instruction " + openclStdName(number) + " (" +
                          std::to_string(number) + ") is not supported yet");
  std::vector<const Value *> arguments;
  for (size_t i = 2; i < instruction.operands.size(); ++i)
    arguments.push_back(&use(instruction.idOperand(i), instruction));
  if (static_cast<int>(arguments.size()) != builtins::operandCount(*function))
    fail(instruction, "wrong number of operands for this OpenCL.std instruction");
  emitMath(*function, values_.at(instruction.result), arguments);
}

// A scalar operand of a vector function (e.g. fmax(float4, float),
// ldexp(float4, int)) is broadcast to every component.
uint32_t KernelLowering::broadcast(const Value &operand, uint32_t components) {
  if (operand.components == components || operand.components != 1)
    return operand.offset;
  Value splat = temporary(operand.scalar, components, operand.varying);
  for (uint32_t c = 0; c < components; ++c)
    emit(runtime::copyComponentsHandler(operand.elementBytes(),
                                        Shape{operand.varying, {operand.varying}}),
         componentOffset(splat, c), {operand.offset}, 1);
  return splat.offset;
}

void KernelLowering::emitMath(builtins::Math function, const Value &result,
                              const std::vector<const Value *> &operands) {
  uint32_t registers[3] = {};
  Shape shape{result.varying, {}};
  for (size_t i = 0; i < operands.size(); ++i) {
    registers[i] = broadcast(*operands[i], result.components);
    shape.operand[i] = operands[i]->varying;
  }
  emit(runtime::mathHandler(function, result.scalar, shape), result.offset,
       {registers[0], registers[1], registers[2]}, result.components);
}

void KernelLowering::emitMixedMath(builtins::MixedMath function, Scalar type, const Value &result,
                                   const std::vector<const Value *> &operands) {
  uint32_t registers[2] = {};
  Shape shape{result.varying, {}};
  for (size_t i = 0; i < operands.size(); ++i) {
    registers[i] = broadcast(*operands[i], result.components);
    shape.operand[i] = operands[i]->varying;
  }
  emit(runtime::mixedMathHandler(function, type, shape), result.offset, {registers[0], registers[1]}, result.components);
}

// The OpenCL.std functions whose operands or result differ in type, and
// those with a pointer output: the value to store is computed into a
// register, then stored through the pointer (any address space) as OpStore
// would.
bool KernelLowering::lowerMixedMath(const Instruction &instruction, uint32_t number) {
  using namespace OpenCLLIB;
  using builtins::Math;
  using builtins::MixedMath;
  auto argument = [&](size_t i) -> const Value & {
    return use(instruction.idOperand(2 + i), instruction);
  };
  const auto operandCount = instruction.operands.size() - 2;
  auto expect = [&](size_t count) {
    if (operandCount != count)
      fail(instruction, "wrong number of operands for OpenCL.std instruction " +
                            openclStdName(number));
  };
  const Value &r = values_.at(instruction.result);
  // The element function `value` of x (and y) into r, and `stored` (of
  // the given element type) into *pointer.
  auto withOutput = [&](Math value, const std::vector<const Value *> &operands,
                        const Value &pointer, Scalar storedType, auto computeStored) {
    emitMath(value, r, operands);
    const Value stored = temporary(storedType, r.components, r.varying);
    computeStored(stored);
    emit(runtime::storeHandler(stored.elementBytes(),
                               Shape{false, {pointer.varying, stored.varying}}),
         0,
         {checkedAddress(pointer, pointer.offset, accessBytes(stored), requiredAlignment(stored),
                         true),
          stored.offset},
         stored.components);
  };
  switch (number) {
  case Ilogb:
    expect(1);
    emitMixedMath(MixedMath::Ilogb, argument(0).scalar, r, {&argument(0)});
    return true;
  case Ldexp:
  case Pown:
  case Rootn:
    expect(2);
    emitMixedMath(number == Ldexp ? MixedMath::Ldexp
                  : number == Pown ? MixedMath::Pown
                                   : MixedMath::Rootn,
                  r.scalar, r, {&argument(0), &argument(1)});
    return true;
  case Nan:
    expect(1);
    emitMixedMath(MixedMath::Nan, r.scalar, r, {&argument(0)});
    return true;
  case S_Upsample:
  case U_Upsample:
    expect(2);
    emitMixedMath(MixedMath::Upsample, argument(0).scalar, r, {&argument(0), &argument(1)});
    return true;
  case Frexp:
    expect(2);
    withOutput(Math::FrexpMantissa, {&argument(0)}, argument(1), Scalar::I32, [&](const Value &e) {
      emitMixedMath(MixedMath::FrexpExponent, r.scalar, e, {&argument(0)});
    });
    return true;
  case Lgamma_r:
    expect(2);
    withOutput(Math::Lgamma, {&argument(0)}, argument(1), Scalar::I32, [&](const Value &sign) {
      emitMixedMath(MixedMath::LgammaSign, r.scalar, sign, {&argument(0)});
    });
    return true;
  case Remquo:
    expect(3);
    withOutput(Math::Remainder, {&argument(0), &argument(1)}, argument(2), Scalar::I32,
               [&](const Value &quotient) {
                 emitMixedMath(MixedMath::RemquoQuotient, r.scalar, quotient,
                               {&argument(0), &argument(1)});
               });
    return true;
  case Modf:
  case Fract:
  case Sincos: {
    expect(2);
    const Math value = number == Modf ? Math::ModfFraction : number == Fract ? Math::Fract : Math::Sin;
    const Math stored = number == Modf ? Math::Trunc : number == Fract ? Math::Floor : Math::Cos;
    withOutput(value, {&argument(0)}, argument(1), r.scalar,
               [&](const Value &output) { emitMath(stored, output, {&argument(0)}); });
    return true;
  }
  default:
    return false;
  }
}

// length, distance, normalize, cross and the fast_ forms, which the exact
// ones satisfy.
bool KernelLowering::lowerGeometric(const Instruction &instruction, uint32_t number) {
  using namespace OpenCLLIB;
  using builtins::Geometric;
  Geometric function;
  size_t operands = 1;
  switch (number) {
  case Length:
  case Fast_length:
    function = Geometric::Length;
    break;
  case Distance:
  case Fast_distance:
    function = Geometric::Distance;
    operands = 2;
    break;
  case Normalize:
  case Fast_normalize:
    function = Geometric::Normalize;
    break;
  case Cross:
    function = Geometric::Cross;
    operands = 2;
    break;
  default:
    return false;
  }
  if (instruction.operands.size() != 2 + operands)
    fail(instruction, "wrong number of operands for OpenCL.std instruction " + openclStdName(number));
  emitGeometric(function, instruction, 2);
  return true;
}

void KernelLowering::emitGeometric(builtins::Geometric function, const Instruction &instruction,
                                   size_t firstOperand) {
  const Value &r = values_.at(instruction.result);
  const Value &a = use(instruction.idOperand(firstOperand), instruction);
  const Value &b = instruction.operands.size() > firstOperand + 1
                       ? use(instruction.idOperand(firstOperand + 1), instruction)
                       : a;
  if (function == builtins::Geometric::Cross && a.components != 3 && a.components != 4)
    fail(instruction, "cross takes 3- or 4-component vectors");
  emit(runtime::geometricHandler(function, a.scalar, Shape{r.varying, {a.varying, b.varying}}),
       r.offset, {a.offset, b.offset}, r.components, a.components);
}

} // namespace lanewise::spirv::lowering
