//===- FastNormalization.h - layer_norm on oneDNN ---------------*- C++ -*-===//

#ifndef TESSEL_RUNTIME_EXECUTOR_FASTNORMALIZATION_H
#define TESSEL_RUNTIME_EXECUTOR_FASTNORMALIZATION_H

#include "executor/Op.h"

#include <optional>
#include <string>
#include <vector>

namespace tessel::runtime {

/// layer_norm's kernel over `dims` on oneDNN's layer normalization, or
/// nothing where it does not apply: element types other than all f32 or
/// all bf16, normalized dims that are not the operand's innermost ones
/// (oneDNN normalizes over the last dim, and these merge into one), a
/// result whose dims are not the operand's in its order, an empty tensor.
/// `reference` runs in a context without oneDNN.
std::optional<Kernel> buildFastLayerNorm(const OpDescriptor &desc,
                                         const std::vector<std::string> &dims,
                                         double epsilon, Kernel reference);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_FASTNORMALIZATION_H
