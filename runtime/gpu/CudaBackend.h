//===- CudaBackend.h - The executor's backend on a CUDA device --*- C++ -*-===//
//
// Buffers in device memory (cudaMallocAsync from the device's memory pool,
// which keeps freed blocks cached for the next step), one stream per rank,
// the GPU kernels of Ops.h in place of the host's, and the host kernels,
// with copies to and from the host, for the ops that have none.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_GPU_CUDABACKEND_H
#define TESSEL_RUNTIME_GPU_CUDABACKEND_H

#include "executor/Backend.h"

#include <string>

namespace tessel::runtime::gpu {

/// The process's CUDA backend; installBackend(&cudaBackend()) makes it the
/// one in use (libtessel_runtime_cuda.so does so before main()).
Backend &cudaBackend();

/// Whether this process sees a CUDA device; if not, `reason` says what
/// cudaGetDeviceCount returned ("no CUDA device: cudaGetDeviceCount
/// returned cudaErrorInsufficientDriver (...)").
bool haveCudaDevice(std::string &reason);

} // namespace tessel::runtime::gpu

#endif // TESSEL_RUNTIME_GPU_CUDABACKEND_H
