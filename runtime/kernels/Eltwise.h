//===- Eltwise.h - Element-wise unary ops on oneDNN -------------*- C++ -*-===//
//
// The unary ops of the dialect that oneDNN's eltwise primitive has (erf,
// for one, it has not): y = f(x) over a tensor, the result in the same
// layout. oneDNN computes in the element type with its own approximations
// of exp, log and tanh, a few ulp from the correctly rounded value.
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
  Log,
  Sqrt,
  Rsqrt, // 1 / sqrt(x)
  Tanh,
  Sigmoid, // 1 / (1 + exp(-x))
  Relu,    // max(x, 0)
  Gelu,    // 0.5 * x * (1 + erf(x / sqrt(2)))
};

/// inputs {data}, output a tensor of the same layout. Null where oneDNN has
/// no kernel.
std::unique_ptr<PreparedKernel> prepareEltwise(EltwiseAlgorithm algorithm,
                                               const StridedTensor &data);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_KERNELS_ELTWISE_H
