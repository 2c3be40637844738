//===- FastConvolution.h - conv2d and its gradients on oneDNN ---*- C++ -*-===//

#ifndef TESSEL_RUNTIME_EXECUTOR_FASTCONVOLUTION_H
#define TESSEL_RUNTIME_EXECUTOR_FASTCONVOLUTION_H

#include "executor/Op.h"

#include "reference/Convolution.h"

#include <optional>

namespace tessel::runtime {

/// Which op: conv2d, conv2d_backward_input or conv2d_backward_filter.
enum class ConvolutionOp { Forward, BackwardInput, BackwardFilter };

/// The op's kernel on oneDNN's convolution primitives, or nothing where
/// they do not apply: element types other than all f32 or all bf16, dims
/// passing through the convolution (batch and the like) that do not form
/// one run of memory in both tensors, an empty tensor, or shapes oneDNN
/// has no kernel for. `reference` runs in a context without oneDNN.
std::optional<Kernel> buildFastConvolution(ConvolutionOp op,
                                           const OpDescriptor &desc,
                                           const ref::ConvParams &params,
                                           Kernel reference);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_FASTCONVOLUTION_H
