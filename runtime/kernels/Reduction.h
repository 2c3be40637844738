//===- Reduction.h - Reductions on oneDNN -----------------------*- C++ -*-===//
//
// Reduces a tensor over the dims where its destination has size 1: the
// destination has the source's rank, with size 1 on every reduced dim and
// the source's size on every other, and any strides (so it may hold the
// kept dims in another order than the source).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_KERNELS_REDUCTION_H
#define TESSEL_RUNTIME_KERNELS_REDUCTION_H

#include "kernels/PreparedKernel.h"

#include <memory>

namespace tessel::runtime {

enum class ReductionAlgorithm { Sum, Mean, Max, Min, Product };

/// inputs {source}, output destination. Null where oneDNN has no kernel
/// (an empty source, whose reduction is an identity that oneDNN does not
/// define).
std::unique_ptr<PreparedKernel>
prepareReduction(ReductionAlgorithm algorithm, const StridedTensor &source,
                 const StridedTensor &destination);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_KERNELS_REDUCTION_H
