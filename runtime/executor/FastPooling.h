//===- FastPooling.h - pool and pool_backward on oneDNN ---------*- C++ -*-===//

#ifndef TESSEL_RUNTIME_EXECUTOR_FASTPOOLING_H
#define TESSEL_RUNTIME_EXECUTOR_FASTPOOLING_H

#include "executor/Op.h"

#include "reference/Convolution.h"

#include <array>
#include <optional>

namespace tessel::runtime {

/// pool's kernel on oneDNN's pooling primitive, or nothing where it does
/// not apply: element types other than all f32 or all bf16, dims passing
/// through the pooling that do not fit in oneDNN's two (N and C) as runs
/// of memory, a window wholly in the padding (the dialect's -inf or 0 there
/// is not oneDNN's), an empty tensor. `reference` runs in a context without
/// oneDNN. A NaN in a max-pooling window follows oneDNN's comparisons, not
/// the reference's rule (the NaN is the maximum).
std::optional<Kernel> buildFastPool(ref::PoolKind kind,
                                    const OpDescriptor &desc,
                                    const ref::PoolParams &params,
                                    Kernel reference);

/// The [N, C, H, W] dims pool's and pool_backward's oneDNN kernels see for
/// pooling `x` into `y`: the dims passing through, merged into N and C as
/// runs of memory, and into one run of N x C channels where C would be 3
/// or fewer (oneDNN's vector kernel pools a plain layout only beyond 3
/// channels); nothing where the kernels do not apply.
std::optional<std::array<int64_t, 4>>
fastPoolingDims(const TensorType &x, const TensorType &y,
                const ref::PoolParams &params);

/// pool_backward's kernel (operands x and the result's gradient), where
/// pool's would apply and the result has x's dims in x's order.
std::optional<Kernel> buildFastPoolBackward(ref::PoolKind kind,
                                            const OpDescriptor &desc,
                                            const ref::PoolParams &params,
                                            Kernel reference);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_FASTPOOLING_H
