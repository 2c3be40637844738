//===- CudaBackend.cpp - The executor's backend on a CUDA device ----------===//

#include "gpu/CudaBackend.h"

#include "gpu/CudaStatus.h"
#include "gpu/DeviceState.h"
#include "gpu/Ops.h"

#include "executor/Fatal.h"

#include <fmt/format.h>
#include <mpi.h>

#include <cstdint>
#include <exception>

namespace tessel::runtime {
namespace gpu {

DeviceState &deviceOf(tessel_context_t &context) {
  if (!context.device)
    throw OpError("the context has no CUDA device (the CUDA backend did not "
                  "start in it)");
  return *context.device;
}

DeviceBuffer::DeviceBuffer(cudaStream_t stream, size_t bytes) : stream(stream) {
  checkCuda(cudaMallocAsync(&data, bytes == 0 ? 1 : bytes, stream),
            "cudaMallocAsync");
}

DeviceBuffer::~DeviceBuffer() { cudaFreeAsync(data, stream); }

bool haveCudaDevice(std::string &reason) {
  int count = 0;
  cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    reason = fmt::format("no CUDA device: cudaGetDeviceCount returned {} ({})",
                         cudaGetErrorName(status), cudaGetErrorString(status));
    return false;
  }
  if (count == 0) {
    reason = "no CUDA device: cudaGetDeviceCount found 0 devices";
    return false;
  }
  return true;
}

namespace {

bool mpiRunning() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized && !finalized;
}

/// This rank's index among the ranks on its machine, which picks its GPU,
/// and how many ranks the machine runs. Collective over MPI_COMM_WORLD, so
/// every rank calls it, with or without a device.
struct MachineRanks {
  int index = 0, count = 1;
};
MachineRanks machineRanks() {
  MachineRanks ranks;
  if (!mpiRunning())
    return ranks;
  MPI_Comm local;
  if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
                          MPI_INFO_NULL, &local) != MPI_SUCCESS)
    return ranks;
  MPI_Comm_rank(local, &ranks.index);
  MPI_Comm_size(local, &ranks.count);
  MPI_Comm_free(&local);
  return ranks;
}

/// Whether every rank succeeded (each passes its own outcome), so that no
/// rank goes on to create NCCL communicators that others will never join.
bool allRanksAgree(bool ok) {
  if (!mpiRunning())
    return ok;
  int mine = ok ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all == 1;
}

void destroy(DeviceState *state) {
  if (!state)
    return;
  state->nccl.reset();
  if (state->badIndex)
    cudaFree(state->badIndex);
  if (state->cudnn)
    cudnnDestroy(state->cudnn);
  if (state->cublas)
    cublasDestroy(state->cublas);
  if (state->stream) {
    cudaStreamSynchronize(state->stream);
    cudaStreamDestroy(state->stream);
  }
  delete state;
}

/// Creates the device state; an OpError says what failed.
DeviceState *createState(int device) {
  auto *state = new DeviceState;
  state->device = device;
  try {
    checkCuda(cudaSetDevice(device), "cudaSetDevice");
    checkCuda(cudaStreamCreateWithFlags(&state->stream, cudaStreamNonBlocking),
              "cudaStreamCreateWithFlags");
    checkCublas(cublasCreate(&state->cublas), "cublasCreate");
    checkCublas(cublasSetStream(state->cublas, state->stream),
                "cublasSetStream");
    checkCudnn(cudnnCreate(&state->cudnn), "cudnnCreate");
    checkCudnn(cudnnSetStream(state->cudnn, state->stream), "cudnnSetStream");
    checkCuda(cudaMalloc(&state->badIndex, sizeof(long long)), "cudaMalloc");
    // Buffers are freed after their last use in every step and allocated
    // again in the next; keeping freed memory in the pool makes that a
    // free-list operation instead of a round trip to the driver.
    cudaMemPool_t pool;
    checkCuda(cudaDeviceGetDefaultMemPool(&pool, device),
              "cudaDeviceGetDefaultMemPool");
    uint64_t keepAll = UINT64_MAX;
    checkCuda(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold,
                                      &keepAll),
              "cudaMemPoolSetAttribute");
  } catch (...) {
    destroy(state);
    throw;
  }
  return state;
}

/// Ends the job on a failed copy: the driver, which calls the copies, has
/// no error path for them, like generated code.
void checkCopy(tessel_context_t &context, cudaError_t status,
               const char *call) {
  if (status != cudaSuccess)
    fatalError(fmt::format("tessel: rank {}: error: {} failed: {} ({})",
                           context.rank, call, cudaGetErrorName(status),
                           cudaGetErrorString(status)));
}

class CudaBackend final : public Backend {
public:
  const char *name() const override { return "cuda"; }

  int deviceCount() const override {
    int count = 0;
    return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
  }

  bool start(tessel_context_t &context, std::string &error) override {
    MachineRanks machine = machineRanks();
    std::string reason;
    bool found = haveCudaDevice(reason);
    int device = 0;
    if (found) {
      int count = 0;
      cudaGetDeviceCount(&count);
      // NCCL refuses two ranks of one communicator on one device; saying so
      // here is clearer than its error at the first collective.
      if (machine.count > count) {
        reason = fmt::format("{} ranks run on this machine but it has {} "
                             "CUDA device{}: the GPU runtime needs one "
                             "device per rank",
                             machine.count, count, count == 1 ? "" : "s");
        found = false;
      }
      device = machine.index;
    }
    DeviceState *state = nullptr;
    if (found) {
      try {
        state = createState(device);
      } catch (const std::exception &failure) {
        reason = fmt::format("cannot start CUDA device {}: {}", device,
                             failure.what());
      }
    }
    if (!allRanksAgree(state != nullptr)) {
      destroy(state);
      error = state || reason.empty()
                  ? std::string("another rank could not start its CUDA device")
                  : reason;
      return false;
    }
    if (context.comm) {
      try {
        // Collective: every rank got here (allRanksAgree).
        state->nccl = std::make_unique<NcclGroups>(context.mesh, context.rank);
      } catch (const std::exception &failure) {
        destroy(state);
        error = failure.what();
        return false;
      }
    }
    context.device = state;
    return true;
  }

  void stop(tessel_context_t &context) override {
    destroy(context.device);
    context.device = nullptr;
  }

  void *allocate(tessel_context_t *context, int64_t bytes) override {
    void *buffer = nullptr;
    size_t size = bytes <= 0 ? 1 : static_cast<size_t>(bytes);
    // cudaMallocAsync aligns to at least 256 bytes.
    cudaError_t status =
        context && context->device
            ? cudaMallocAsync(&buffer, size, context->device->stream)
            : cudaMalloc(&buffer, size);
    return status == cudaSuccess ? buffer : nullptr;
  }

  void release(tessel_context_t *context, void *buffer) override {
    if (context && context->device)
      cudaFreeAsync(buffer, context->device->stream);
    else
      cudaFree(buffer);
  }

  void copyToBuffer(tessel_context_t &context, void *buffer, const void *host,
                    size_t bytes) override {
    if (bytes == 0)
      return;
    cudaStream_t stream = context.device ? context.device->stream : nullptr;
    checkCopy(
        context,
        cudaMemcpyAsync(buffer, host, bytes, cudaMemcpyHostToDevice, stream),
        "cudaMemcpyAsync to the device");
    checkCopy(context, cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  }

  void copyFromBuffer(tessel_context_t &context, void *host, const void *buffer,
                      size_t bytes) override {
    if (bytes == 0)
      return;
    cudaStream_t stream = context.device ? context.device->stream : nullptr;
    checkCopy(
        context,
        cudaMemcpyAsync(host, buffer, bytes, cudaMemcpyDeviceToHost, stream),
        "cudaMemcpyAsync to the host");
    checkCopy(context, cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  }

  void waitForDevice(tessel_context_t &context) override {
    if (context.device)
      checkCuda(cudaStreamSynchronize(context.device->stream),
                "cudaStreamSynchronize");
  }

  bool buffersAreHostMemory() const override { return false; }

  void registerOps(KernelRegistry &registry) const override {
    registerGpuOps(registry);
  }
};

} // namespace

Backend &cudaBackend() {
  static CudaBackend backend;
  return backend;
}

} // namespace gpu
} // namespace tessel::runtime
