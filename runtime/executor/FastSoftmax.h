//===- FastSoftmax.h - softmax and log_softmax on oneDNN --------*- C++ -*-===//

#ifndef TESSEL_RUNTIME_EXECUTOR_FASTSOFTMAX_H
#define TESSEL_RUNTIME_EXECUTOR_FASTSOFTMAX_H

#include "executor/Op.h"

#include <optional>
#include <string>

namespace tessel::runtime {

/// softmax's (or, with `logarithm`, log_softmax's) kernel along `dim` on
/// oneDNN's softmax primitive, or nothing where it does not apply: element
/// types other than all f32 or all bf16, a result whose dims are not the
/// operand's in its order, an empty tensor. `reference` runs in a context
/// without oneDNN.
std::optional<Kernel> buildFastSoftmax(const OpDescriptor &desc,
                                       const std::string &dim, bool logarithm,
                                       Kernel reference);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_FASTSOFTMAX_H
