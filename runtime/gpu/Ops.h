//===- Ops.h - The GPU's kernel builders ------------------------*- C++ -*-===//
//
// The CUDA backend's registry: every op gets a GPU kernel where one exists
// (ModelOps.cpp: CUDA kernels; Einsum.cpp: cuBLAS; Convolution.cpp: cuDNN;
// MeshOps.cpp: NCCL) and otherwise the host kernel between copies
// (buildOnHost). docs/gpu.md lists which op runs where.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_GPU_OPS_H
#define TESSEL_RUNTIME_GPU_OPS_H

#include "executor/Op.h"

#include <optional>

namespace tessel::runtime::gpu {

/// Sets every op of `registry` to its GPU builder, or to buildOnHost.
void registerGpuOps(KernelRegistry &registry);

void registerGpuModelOps(KernelRegistry &registry);
void registerGpuMeshOps(KernelRegistry &registry);

/// The host's kernel for the op, run on host copies of the operands, its
/// result copied back to the device: for ops and cases without a GPU
/// kernel. Synchronises the stream twice, so it is slow.
Kernel buildOnHost(const OpDescriptor &desc);

/// Einsum of two operands of one float type as one strided batched cuBLAS
/// GEMM; nothing when the einsum is not a plain contraction.
std::optional<Kernel> buildCublasEinsum(const OpDescriptor &desc);

/// conv2d, its two gradients, pool and pool_backward on cuDNN; nothing
/// for asymmetric padding (cuDNN pads both sides alike).
std::optional<Kernel> buildCudnnConvolution(const OpDescriptor &desc);
std::optional<Kernel> buildCudnnPool(const OpDescriptor &desc);

} // namespace tessel::runtime::gpu

#endif // TESSEL_RUNTIME_GPU_OPS_H
