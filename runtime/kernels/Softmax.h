//===- Softmax.h - Softmax and log-softmax on oneDNN ------------*- C++ -*-===//
//
// exp(x - max) / sum(exp(x - max)) along one dim of a tensor; the result
// has the source's dims and layout. (oneDNN's log-softmax is not here: its
// f32 logarithm is some 20 ulp off, where the reference is exact.)
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_KERNELS_SOFTMAX_H
#define TESSEL_RUNTIME_KERNELS_SOFTMAX_H

#include "kernels/PreparedKernel.h"

#include <memory>

namespace tessel::runtime {

/// inputs {data}, output a tensor of the same layout; softmax along `axis`
/// (an index into data.dims). Null where oneDNN has no kernel.
std::unique_ptr<PreparedKernel> prepareSoftmax(const StridedTensor &data,
                                               int axis);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_KERNELS_SOFTMAX_H
