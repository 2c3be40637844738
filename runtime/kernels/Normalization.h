//===- Normalization.h - Layer normalization on oneDNN ----------*- C++ -*-===//
//
// (x - mean) / sqrt(variance + epsilon), with the mean and the population
// variance taken over the last dim, separately for every index of the
// others; no scale or shift (those are separate ops in the dialect).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_KERNELS_NORMALIZATION_H
#define TESSEL_RUNTIME_KERNELS_NORMALIZATION_H

#include "kernels/PreparedKernel.h"

#include <memory>

namespace tessel::runtime {

/// inputs {data}, output a tensor of the same layout, normalized over the
/// last dim of `data`. Null where oneDNN has no kernel.
std::unique_ptr<PreparedKernel> prepareLayerNorm(const StridedTensor &data,
                                                 double epsilon);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_KERNELS_NORMALIZATION_H
