//===- Copy.cu - Moving, filling and converting elements ------------------===//

#include "gpu/Elements.h"

namespace tessel::runtime::gpu {

namespace {

template <typename Word>
__global__ void copyKernel(Walk walk, Word *dst, Strides dstStrides,
                           const Word *src, Strides srcStrides, int64_t count) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x)
    dst[offsetOf(walk, dstStrides, i)] = src[offsetOf(walk, srcStrides, i)];
}

__global__ void fillKernel(DType type, void *dst, int64_t count, double value) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x)
    store(type, dst, i, value);
}

__global__ void convertKernel(DType fromType, const void *src, DType toType,
                              void *dst, int64_t count) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x)
    store(toType, dst, i, load(fromType, src, i));
}

} // namespace

void launchCopy(cudaStream_t stream, int elementBytes, const Walk &walk,
                void *dst, const Strides &dstStrides, const void *src,
                const Strides &srcStrides) {
  int64_t count = walk.count();
  if (count == 0)
    return;
  unsigned blocks = blocksFor(count);
  // Elements move as unsigned words of their size: no arithmetic, so the
  // type does not matter beyond it.
  switch (elementBytes) {
  case 1:
    copyKernel<<<blocks, kBlock, 0, stream>>>(
        walk, static_cast<unsigned char *>(dst), dstStrides,
        static_cast<const unsigned char *>(src), srcStrides, count);
    break;
  case 2:
    copyKernel<<<blocks, kBlock, 0, stream>>>(
        walk, static_cast<unsigned short *>(dst), dstStrides,
        static_cast<const unsigned short *>(src), srcStrides, count);
    break;
  case 4:
    copyKernel<<<blocks, kBlock, 0, stream>>>(
        walk, static_cast<unsigned *>(dst), dstStrides,
        static_cast<const unsigned *>(src), srcStrides, count);
    break;
  default:
    copyKernel<<<blocks, kBlock, 0, stream>>>(
        walk, static_cast<unsigned long long *>(dst), dstStrides,
        static_cast<const unsigned long long *>(src), srcStrides, count);
    break;
  }
}

void launchFill(cudaStream_t stream, DType type, void *dst, int64_t count,
                double value) {
  if (count > 0)
    fillKernel<<<blocksFor(count), kBlock, 0, stream>>>(type, dst, count,
                                                        value);
}

void launchConvert(cudaStream_t stream, DType fromType, const void *src,
                   DType toType, void *dst, int64_t count) {
  if (count > 0)
    convertKernel<<<blocksFor(count), kBlock, 0, stream>>>(fromType, src,
                                                           toType, dst, count);
}

} // namespace tessel::runtime::gpu
