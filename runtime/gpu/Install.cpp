//===- Install.cpp - The CUDA backend in use before main() ----------------===//
//
// Compiled into libtessel_runtime_cuda.so only (not into the tests, which
// install the backend themselves once they know a device is there): a
// program linked with the CUDA runtime runs every op on the GPU without
// the driver knowing which runtime it has.
//
//===----------------------------------------------------------------------===//

#include "gpu/CudaBackend.h"

namespace {

const bool installed = [] {
  tessel::runtime::installBackend(&tessel::runtime::gpu::cudaBackend());
  return true;
}();

} // namespace
