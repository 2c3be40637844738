//===- Backend.h - Where buffers live and which kernels run -----*- C++ -*-===//
//
// The same driver and executor serve the CPU runtime (libtessel_runtime.so)
// and the CUDA runtime (libtessel_runtime_cuda.so). What differs is a
// Backend: where tessel_rt_alloc's buffers live (host memory, or device
// memory), how the driver moves bytes in and out of them (data batches, the
// loss, checkpoints), and which kernels replace the host's. The host backend
// is in use unless a library installs another before main() runs (the CUDA
// runtime does so from a static initializer), so nothing in the CPU runtime
// depends on CUDA.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_EXECUTOR_BACKEND_H
#define TESSEL_RUNTIME_EXECUTOR_BACKEND_H

#include "executor/Op.h"

#include "reference/Tensor.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace tessel::runtime {

class Backend {
public:
  virtual ~Backend() = default;

  /// "cpu" or "cuda", for messages.
  virtual const char *name() const = 0;

  /// The devices on this machine that ranks run on, one each (0 for the
  /// host's backend, whose ranks share the cores instead).
  virtual int deviceCount() const { return 0; }

  /// Starts the rank's per-device state in `context` (device selection,
  /// library handles, communicators). Collective over MPI_COMM_WORLD when
  /// the context has a communicator. False with `error` set on failure.
  virtual bool start(tessel_context_t &context, std::string &error) = 0;
  /// Releases what start() made; called once per started context.
  virtual void stop(tessel_context_t &context) = 0;

  /// A buffer of `bytes` bytes aligned for every element type, or null
  /// when out of memory. A zero-size request still gets a distinct pointer.
  virtual void *allocate(tessel_context_t *context, int64_t bytes) = 0;
  virtual void release(tessel_context_t *context, void *buffer) = 0;

  /// Copies between host memory and a buffer of allocate(); both wait
  /// until the bytes have arrived, so the host side may be reused at once.
  virtual void copyToBuffer(tessel_context_t &context, void *buffer,
                            const void *host, size_t bytes) = 0;
  virtual void copyFromBuffer(tessel_context_t &context, void *host,
                              const void *buffer, size_t bytes) = 0;

  /// Waits until the work issued so far has finished. Op profiling calls
  /// it around each timed kernel, so that a device backend, whose kernels
  /// return as soon as they are queued, is timed by what the device spends
  /// on the op rather than by its launch. The host's kernels finish before
  /// they return.
  virtual void waitForDevice(tessel_context_t &context) { (void)context; }

  /// Whether buffers are host memory that the driver may read and write
  /// directly (then the copies above are plain memcpy).
  virtual bool buffersAreHostMemory() const = 0;

  /// Replaces entries of `registry`, which holds the host's kernels for
  /// every op, with the backend's own.
  virtual void registerOps(KernelRegistry &registry) const = 0;
};

/// The backend in use: the host's unless installBackend() was called.
Backend &activeBackend();

/// Makes `backend` (which must outlive the process's last op) the one in
/// use. Must happen before the first op is prepared: the kernel registry
/// is built once.
void installBackend(Backend *backend);

/// Copies element 0 of a buffer of `type` to the host, as a double (the
/// loss, an accuracy count).
double readScalar(tessel_context_t &context, ref::ElementType type,
                  const void *buffer);
/// Rounds `value` to `type` and stores it as element 0 of a buffer (the
/// learning rate).
void writeScalar(tessel_context_t &context, ref::ElementType type, void *buffer,
                 double value);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_BACKEND_H
