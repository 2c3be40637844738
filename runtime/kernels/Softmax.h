//===- Softmax.h - Softmax and log-softmax on oneDNN ------------*- C++ -*-===//
//
// exp(x - max) / sum(exp(x - max)), or its logarithm, along one dim of a
// tensor; the result has the source's dims and layout.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_KERNELS_SOFTMAX_H
#define TESSEL_RUNTIME_KERNELS_SOFTMAX_H

#include "kernels/PreparedKernel.h"

#include <memory>

namespace tessel::runtime {

/// inputs {data}, output a tensor of the same layout; softmax along `axis`
/// (an index into data.dims), or log-softmax when `logarithm`. Null where
/// oneDNN has no kernel.
std::unique_ptr<PreparedKernel> prepareSoftmax(const StridedTensor &data,
                                               int axis, bool logarithm);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_KERNELS_SOFTMAX_H
