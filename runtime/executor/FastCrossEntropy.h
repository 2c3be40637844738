//===- FastCrossEntropy.h - softmax_cross_entropy in f32 --------*- C++ -*-===//
//
// The loss of a classifier or a language model: one row of logits per
// label. The reference kernel computes it in double after converting both
// tensors; this one reads the f32 logits where they lie, row by row, with
// the row's exponentials computed together (VectorMath.h).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_EXECUTOR_FASTCROSSENTROPY_H
#define TESSEL_RUNTIME_EXECUTOR_FASTCROSSENTROPY_H

#include "executor/Op.h"

#include <optional>
#include <string>

namespace tessel::runtime {

/// softmax_cross_entropy's kernel over the class dim `dim` for f32 logits,
/// i32 or i64 labels and an f32 result, or nothing for other types. A
/// label outside the class range is left to `reference`, whose error
/// names it.
std::optional<Kernel> buildFastSoftmaxCrossEntropy(const OpDescriptor &desc,
                                                   const std::string &dim,
                                                   Kernel reference);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_FASTCROSSENTROPY_H
