//===- Probe.cpp - Is there a CUDA device here? ---------------------------===//
//
// Prints the number of CUDA devices and exits 0, or prints why there is
// none ("no CUDA device: cudaGetDeviceCount returned ...") and exits 1. The
// GPU test scripts ask it before running a program on the GPU.
//
//===----------------------------------------------------------------------===//

#include <cuda_runtime_api.h>

#include <cstdio>

int main() {
  int count = 0;
  cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    std::printf("no CUDA device: cudaGetDeviceCount returned %s (%s)\n",
                cudaGetErrorName(status), cudaGetErrorString(status));
    return 1;
  }
  if (count == 0) {
    std::printf("no CUDA device: cudaGetDeviceCount found 0 devices\n");
    return 1;
  }
  std::printf("%d CUDA device%s\n", count, count == 1 ? "" : "s");
  return 0;
}
