//===- VectorMath.h - transcendental functions over f32 arrays -*- C++ -*-===//
//
// The transcendental functions of the element-wise kernels, a whole array
// at a time. libm computes one element per call, and erf and exp were the
// largest items of a small Transformer's training step; SLEEF computes 16
// (AVX-512) or 8 (AVX2) at once, within 1 ulp of the exact result (its
// "u10" functions; 1.5 ulp for erfc). On AVX-512, erf and erfc are
// VectorMathAvx512.cpp's own, three times as fast within 3 and 6 ulp, and GELU
// is one pass. The instruction set is chosen once, from the CPU the program
// runs on; without SLEEF, or on an older CPU, libm's f32 functions do the
// work.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_EXECUTOR_VECTORMATH_H
#define TESSEL_RUNTIME_EXECUTOR_VECTORMATH_H

#include <cstdint>

namespace tessel::runtime {

/// erfc keeps its digits where 1 - erf(x) would lose them (GELU of a
/// negative x).
enum class VectorFunction { Exp, Log, Erf, Erfc, Tanh, Sin, Cos };

/// y[i] = f(x[i]) for i < count; x and y may be the same array.
void applyVectorFunction(VectorFunction function, const float *x, float *y,
                         int64_t count);

/// GELU, x (1 + erf(x / sqrt 2)) / 2, computed as x erfc(-x / sqrt 2) / 2:
/// for negative x, 1 + erf cancels to nothing in f32 (x = -5 gives 6e-7
/// with a relative error of 10%) where erfc keeps its digits. x and y are
/// distinct arrays.
void applyGelu(const float *x, float *y, int64_t count);

/// The instruction set applyVectorFunction uses: "avx512f", "avx2" or
/// "libm", for messages and benchmarks.
const char *vectorMathIsa();

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_VECTORMATH_H
