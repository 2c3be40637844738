//===- WidenedOps.h - f16 and bf16 ops on their f32 kernels -----*- C++ -*-===//
//
// oneDNN 2.6 has f16 kernels on x86 CPUs for few ops, and only its
// reference implementations of those, so an f16 op (a mixed-precision
// step under --precision f16) would otherwise run on tessel's reference
// kernels, a hundred times slower than its f32 kernel. The computing ops
// (einsum, reductions, softmax, layer norm, convolution, pooling, ...) run
// their f32 kernel instead, between conversions: f16 operands widened into
// f32 scratch, the f32 result rounded once to f16 (to nearest, ties to
// even). That is what the dialect specifies for an f16 op, computed
// exactly and rounded once to f16, up to the f32 kernel's own rounding,
// as for bf16 einsums on oneDNN's f32-accumulating GEMM. bf16 ops have
// oneDNN's bf16 kernels; the few that have none (one_hot, the fused
// softmax cross-entropy, cumsum) are widened the same way, and so are
// reductions and pooling, whose bf16 kernels are slower, and
// bf16 einsums and convolutions where oneDNN's bf16 matmuls and
// convolutions are slower than its f32 ones, which is on every CPU without
// AMX but AMD's (kernels.h, tessel_kernels_bf16_products_outrun_f32;
// TESSEL_NATIVE_BF16_PRODUCTS=1 or 0 chooses either anyway). The products
// of bf16 values are exact in f32 and both kernels sum them in f32, so the
// results differ only in the order of the sums.
//
// Element-wise chains of f16 and bf16 values are fused and computed in f32
// by tessel.fused's kernel (FusedElementwise.h); casts convert themselves;
// ops that only move data (broadcast, transpose, slice, ...) are left as
// they are, since they do not compute.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_EXECUTOR_WIDENEDOPS_H
#define TESSEL_RUNTIME_EXECUTOR_WIDENEDOPS_H

#include "executor/Op.h"

#include <cstdint>
#include <optional>

namespace tessel::runtime {

/// Whether bf16 einsums and convolutions run on their f32 kernels between
/// conversions: unless the bf16 ones are faster on this CPU
/// (kernels.h, tessel_kernels_bf16_products_outrun_f32).
/// TESSEL_NATIVE_BF16_PRODUCTS=1 in the environment runs them on the bf16
/// kernels and =0 on the f32 ones anyway, to time or test either on any
/// CPU.
bool bf16ProductsWidened();

/// Whether bf16 convolutions' filter gradients (conv2d_backward_filter) run
/// on their f32 kernel between conversions: where the other products do,
/// and where the bf16 one is slower although they are not (kernels.h,
/// tessel_kernels_bf16_filter_gradients_outrun_f32).
/// TESSEL_NATIVE_BF16_PRODUCTS decides this one too where it is set.
bool bf16FilterGradientsWidened();

/// to[k] = the f32 value of from[k], a bf16 or f16 (`type`) element, for
/// k < count; large tensors split across the threads (ParallelChunks.h).
void widenTensor(ref::ElementType type, const uint16_t *from, float *to,
                 int64_t count);

/// to[k] = from[k] rounded to `type` (bf16 or f16, to nearest even), for
/// k < count; large tensors split across the threads.
void narrowTensor(ref::ElementType type, const float *from, uint16_t *to,
                  int64_t count);

/// The kernel that runs `build`'s kernel for `desc` with its f16 (or, for
/// the ops oneDNN has no fast bf16 kernel for, bf16) tensors made f32,
/// converting around it; nothing for any other op (see the file comment).
std::optional<Kernel> buildWidened(const OpDescriptor &desc,
                                   KernelBuilder build);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_WIDENEDOPS_H
