//===- DeviceState.h - One rank's GPU and its library handles ---*- C++ -*-===//
//
// What the CUDA backend keeps per rank in tessel_context_t::device: the
// device, the one stream every kernel, library call and collective is
// issued on (so they run in program order without host synchronisation),
// the cuBLAS and cuDNN handles bound to that stream, and the NCCL
// communicators of the mesh's groups.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_GPU_DEVICESTATE_H
#define TESSEL_RUNTIME_GPU_DEVICESTATE_H

#include "gpu/NcclGroups.h"

#include "executor/Context.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cudnn.h>

#include <memory>

namespace tessel::runtime {

struct DeviceState {
  int device = 0;
  cudaStream_t stream = nullptr;
  cublasHandle_t cublas = nullptr;
  cudnnHandle_t cudnn = nullptr;
  /// Device memory for cross-entropy's report of a label out of range.
  long long *badIndex = nullptr;
  /// NULL in a context without a communicator.
  std::unique_ptr<gpu::NcclGroups> nccl;
};

namespace gpu {

/// The context's device state; an OpError when the CUDA backend did not
/// start it.
DeviceState &deviceOf(tessel_context_t &context);

/// A temporary buffer in device memory, allocated and freed in stream order
/// (cudaMallocAsync from the device's pool, which caches freed memory), so
/// it costs no synchronisation.
class DeviceBuffer {
public:
  DeviceBuffer(cudaStream_t stream, size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  void *get() const { return data; }

private:
  cudaStream_t stream;
  void *data = nullptr;
};

} // namespace gpu
} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_GPU_DEVICESTATE_H
