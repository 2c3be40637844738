//===- FusedElementwise.cu - tessel.fused in one launch -------------------===//
//
// One thread per element (a grid-stride loop past 65535 blocks), each
// interpreting the fused op's program (FusedBody.h) in its own registers.
// The program is a __grid_constant__ parameter: every thread reads it in
// place from the launch's constant bank instead of each copying 2 KiB of
// it into local memory.
//
//===----------------------------------------------------------------------===//

#include "gpu/FusedBody.h"

namespace tessel::runtime::gpu {

namespace {

__global__ void fusedKernel(const __grid_constant__ FusedCode program,
                            const __grid_constant__ FusedOperands operands,
                            void *result, int64_t count) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x)
    storeFused(program.resultType, result, i,
               evaluateFused(program, operands, i));
}

} // namespace

void launchFused(cudaStream_t stream, const FusedCode &program,
                 const FusedOperands &operands, void *result) {
  int64_t count = program.walk.count();
  if (count > 0)
    fusedKernel<<<blocksFor(count), kBlock, 0, stream>>>(program, operands,
                                                         result, count);
}

} // namespace tessel::runtime::gpu
