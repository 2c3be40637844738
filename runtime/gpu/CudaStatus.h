//===- CudaStatus.h - CUDA library failures as op errors --------*- C++ -*-===//
//
// CUDA, cuBLAS, cuDNN and NCCL each return their own status type; these
// turn a failure into an OpError that names the call and the library's own
// description, which tessel_rt_execute then reports with the op and rank.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_GPU_CUDASTATUS_H
#define TESSEL_RUNTIME_GPU_CUDASTATUS_H

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cudnn.h>
#include <nccl.h>

namespace tessel::runtime::gpu {

void checkCuda(cudaError_t status, const char *call);
void checkCublas(cublasStatus_t status, const char *call);
void checkCudnn(cudnnStatus_t status, const char *call);
void checkNccl(ncclResult_t status, const char *call);

} // namespace tessel::runtime::gpu

#endif // TESSEL_RUNTIME_GPU_CUDASTATUS_H
