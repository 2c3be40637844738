//===- VectorMathIsa.h - VectorMath's per-instruction-set loops -*- C++ -*-===//
//
// Each is compiled in its own file with its instruction set enabled
// (VectorMathAvx512.cpp with -mavx512f, VectorMathAvx2.cpp with -mavx2
// -mfma) and called only on a CPU that has it.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_EXECUTOR_VECTORMATHISA_H
#define TESSEL_RUNTIME_EXECUTOR_VECTORMATHISA_H

#include "executor/VectorMath.h"

namespace tessel::runtime {

void applyVectorFunctionAvx512(VectorFunction function, const float *x,
                               float *y, int64_t count);
void applyVectorFunctionAvx2(VectorFunction function, const float *x, float *y,
                             int64_t count);
/// applyGelu in one pass, the erfc in registers.
void applyGeluAvx512(const float *x, float *y, int64_t count);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_VECTORMATHISA_H
