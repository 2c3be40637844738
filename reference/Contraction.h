//===- Contraction.h - Reference einsum kernel ------------------*- C++ -*-===//

#ifndef TESSEL_REFERENCE_CONTRACTION_H
#define TESSEL_REFERENCE_CONTRACTION_H

#include "reference/Tensor.h"

namespace tessel::ref {

/// Named einsum: result[out] is the sum, over every dimension that appears in
/// some input but not in the result, of the product of all inputs. A
/// dimension shared by several inputs is one index (same size in all), and
/// result dimensions that no input has are broadcast. Takes one or more
/// inputs; the result is rounded once to `resultSpec.type`.
Tensor einsum(const std::vector<Tensor> &inputs, const TensorSpec &resultSpec);

} // namespace tessel::ref

#endif // TESSEL_REFERENCE_CONTRACTION_H
