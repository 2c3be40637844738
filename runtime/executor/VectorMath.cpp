//===- VectorMath.cpp - transcendental functions over f32 arrays ---------===//

#include "executor/VectorMath.h"

#ifdef TESSEL_RUNTIME_HAS_SLEEF
#include "executor/VectorMathIsa.h"
#endif

#include <cmath>

namespace tessel::runtime {

namespace {

void applyWithLibm(VectorFunction function, const float *x, float *y,
                   int64_t count) {
  switch (function) {
  case VectorFunction::Exp:
    for (int64_t i = 0; i < count; ++i)
      y[i] = std::exp(x[i]);
    return;
  case VectorFunction::Log:
    for (int64_t i = 0; i < count; ++i)
      y[i] = std::log(x[i]);
    return;
  case VectorFunction::Erf:
    for (int64_t i = 0; i < count; ++i)
      y[i] = std::erf(x[i]);
    return;
  case VectorFunction::Erfc:
    for (int64_t i = 0; i < count; ++i)
      y[i] = std::erfc(x[i]);
    return;
  case VectorFunction::Tanh:
    for (int64_t i = 0; i < count; ++i)
      y[i] = std::tanh(x[i]);
    return;
  case VectorFunction::Sin:
    for (int64_t i = 0; i < count; ++i)
      y[i] = std::sin(x[i]);
    return;
  case VectorFunction::Cos:
    for (int64_t i = 0; i < count; ++i)
      y[i] = std::cos(x[i]);
    return;
  }
}

using Implementation = void (*)(VectorFunction, const float *, float *,
                                int64_t);

/// GELU in three passes (the argument, erfc, the product) where the
/// instruction set has no one-pass GELU of its own.
void geluInPasses(const float *x, float *y, int64_t count) {
  constexpr float kMinusInverseSqrt2 = -0.70710678118654752f;
  for (int64_t i = 0; i < count; ++i)
    y[i] = x[i] * kMinusInverseSqrt2;
  applyVectorFunction(VectorFunction::Erfc, y, y, count);
  for (int64_t i = 0; i < count; ++i)
    y[i] = 0.5f * x[i] * y[i];
}

using GeluImplementation = void (*)(const float *, float *, int64_t);

struct Choice {
  Implementation implementation;
  GeluImplementation gelu;
  const char *isa;
};

Choice choose() {
#ifdef TESSEL_RUNTIME_HAS_SLEEF
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f"))
    return {applyVectorFunctionAvx512, applyGeluAvx512, "avx512f"};
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    return {applyVectorFunctionAvx2, geluInPasses, "avx2"};
#endif
  return {applyWithLibm, geluInPasses, "libm"};
}

const Choice &chosen() {
  static const Choice choice = choose();
  return choice;
}

} // namespace

void applyVectorFunction(VectorFunction function, const float *x, float *y,
                         int64_t count) {
  if (count > 0)
    chosen().implementation(function, x, y, count);
}

void applyGelu(const float *x, float *y, int64_t count) {
  if (count > 0)
    chosen().gelu(x, y, count);
}

const char *vectorMathIsa() { return chosen().isa; }

} // namespace tessel::runtime
