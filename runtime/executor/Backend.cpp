//===- Backend.cpp - The host backend and the one in use ------------------===//

#include "executor/Backend.h"

#include "executor/BufferCache.h"
#include "executor/Buffers.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <malloc.h>

namespace tessel::runtime {

namespace {

/// Buffers in host memory, the host's kernels: the CPU runtime.
class HostBackend final : public Backend {
public:
  const char *name() const override { return "cpu"; }
  bool start(tessel_context_t &, std::string &) override {
    // The kernels' own scratch (permuted copies, oneDNN's workspaces) is
    // allocated and freed every step too. By default glibc gives blocks
    // over 128 KiB their own mapping and returns freed heap tops to the
    // kernel, so every step faults in and clears fresh pages. Kept in the
    // heap (up to the largest threshold glibc allows), they are reused.
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    return true;
  }
  void stop(tessel_context_t &) override {}

  void *allocate(tessel_context_t *, int64_t bytes) override {
    return buffers.allocate(bytes);
  }
  void release(tessel_context_t *, void *buffer) override {
    buffers.release(buffer);
  }

  void copyToBuffer(tessel_context_t &, void *buffer, const void *host,
                    size_t bytes) override {
    if (bytes > 0)
      std::memcpy(buffer, host, bytes);
  }
  void copyFromBuffer(tessel_context_t &, void *host, const void *buffer,
                      size_t bytes) override {
    if (bytes > 0)
      std::memcpy(host, buffer, bytes);
  }
  bool buffersAreHostMemory() const override { return true; }
  void registerOps(KernelRegistry &) const override {}

private:
  // Up to 1 GiB of freed buffers kept for reuse: more than a step of the
  // examples frees, and a bound for programs whose sizes change.
  BufferCache buffers{size_t(1) << 30};
};

HostBackend hostBackend;
// Set before main() by the library that installs another backend, read
// afterwards; atomic so that the order of static initializers cannot tear
// it.
std::atomic<Backend *> installed{nullptr};

} // namespace

Backend &activeBackend() {
  Backend *backend = installed.load();
  return backend ? *backend : hostBackend;
}

void installBackend(Backend *backend) { installed.store(backend); }

double readScalar(tessel_context_t &context, ref::ElementType type,
                  const void *buffer) {
  unsigned char bytes[sizeof(double)] = {};
  activeBackend().copyFromBuffer(context, bytes, buffer, elementBytes(type));
  return loadElement(type, bytes, 0);
}

void writeScalar(tessel_context_t &context, ref::ElementType type, void *buffer,
                 double value) {
  unsigned char bytes[sizeof(double)] = {};
  storeElement(type, bytes, 0, value);
  activeBackend().copyToBuffer(context, buffer, bytes, elementBytes(type));
}

} // namespace tessel::runtime
