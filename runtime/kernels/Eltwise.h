//===- Eltwise.h - Element-wise unary ops on oneDNN -------------*- C++ -*-===//
//
// The unary ops of the dialect that oneDNN's eltwise primitive computes to
// within a few ulp of the correctly rounded f32 value (measured over
// [-20, 20], or [e^-10, e^10] for the roots: exp 2.6 ulp, sigmoid 3.4,
// tanh 1.2, sqrt and rsqrt 0.5, the others exact): y = f(x) over a
// tensor, the result in the same layout. Its log (400000 ulp off near 1)
// and gelu (no correct digit in the tail below -6) are left out, as is erf,
// which it lacks.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_KERNELS_ELTWISE_H
#define TESSEL_RUNTIME_KERNELS_ELTWISE_H

#include "kernels/PreparedKernel.h"

#include <memory>

namespace tessel::runtime {

enum class EltwiseAlgorithm {
  Negate,
  Abs,
  Exp,
  Sqrt,
  Rsqrt, // 1 / sqrt(x)
  Tanh,
  Sigmoid, // 1 / (1 + exp(-x))
  Relu,    // max(x, 0)
};

/// inputs {data}, output a tensor of the same layout. Null where oneDNN has
/// no kernel.
std::unique_ptr<PreparedKernel> prepareEltwise(EltwiseAlgorithm algorithm,
                                               const StridedTensor &data);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_KERNELS_ELTWISE_H
