//===- FastSoftmax.h - softmax on oneDNN ------------------------*- C++ -*-===//

#ifndef TESSEL_RUNTIME_EXECUTOR_FASTSOFTMAX_H
#define TESSEL_RUNTIME_EXECUTOR_FASTSOFTMAX_H

#include "executor/Op.h"

#include <optional>
#include <string>

namespace tessel::runtime {

/// softmax's kernel along `dim` on oneDNN's softmax primitive, or nothing
/// where it does not apply: element types other than all f32 or all bf16,
/// a result whose dims are not the operand's in its order, an empty
/// tensor. `reference` runs in a context without oneDNN. (log_softmax
/// stays on the reference kernel: oneDNN's is some 20 ulp off in f32.)
std::optional<Kernel> buildFastSoftmax(const OpDescriptor &desc,
                                       const std::string &dim,
                                       Kernel reference);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_FASTSOFTMAX_H
