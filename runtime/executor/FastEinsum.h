//===- FastEinsum.h - Einsum of two tensors on oneDNN -----------*- C++ -*-===//

#ifndef TESSEL_RUNTIME_EXECUTOR_FASTEINSUM_H
#define TESSEL_RUNTIME_EXECUTOR_FASTEINSUM_H

#include "executor/Op.h"

#include <optional>

namespace tessel::runtime {

/// The einsum's kernel on oneDNN's batched matmul (tessel_kernels_einsum),
/// or nothing when the einsum is not one that it computes: not two operands
/// and a result all f32 or all bf16, a dim on one operand only that the result
/// lacks (a sum over one operand), a result dim on no operand (a
/// broadcast), or an empty tensor. Those run on the reference kernel.
std::optional<Kernel> buildFastEinsum(const OpDescriptor &desc);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_FASTEINSUM_H
