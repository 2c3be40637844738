//===- CudaStatus.cpp - CUDA library failures as op errors ----------------===//

#include "gpu/CudaStatus.h"

#include "executor/Descriptor.h"

#include <fmt/format.h>

namespace tessel::runtime::gpu {

void checkCuda(cudaError_t status, const char *call) {
  if (status != cudaSuccess)
    throw OpError(fmt::format("{} failed: {} ({})", call,
                              cudaGetErrorName(status),
                              cudaGetErrorString(status)));
}

void checkCublas(cublasStatus_t status, const char *call) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw OpError(fmt::format("{} failed: {} ({})", call,
                              cublasGetStatusName(status),
                              cublasGetStatusString(status)));
}

void checkCudnn(cudnnStatus_t status, const char *call) {
  if (status != CUDNN_STATUS_SUCCESS)
    throw OpError(
        fmt::format("{} failed: {}", call, cudnnGetErrorString(status)));
}

void checkNccl(ncclResult_t status, const char *call) {
  if (status != ncclSuccess)
    throw OpError(
        fmt::format("{} failed: {}", call, ncclGetErrorString(status)));
}

} // namespace tessel::runtime::gpu
