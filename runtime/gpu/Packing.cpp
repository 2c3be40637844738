//===- Packing.cpp - Chunks and slabs of row-major tensors ----------------===//

#include "gpu/Packing.h"

#include "gpu/CudaStatus.h"
#include "gpu/Views.h"

#include "executor/Buffers.h"

namespace tessel::runtime::gpu {

bool Chunks::plan(ref::ElementType type, const std::vector<int64_t> &shape,
                  int dim, int64_t count) {
  if (shape.size() + 1 > static_cast<size_t>(kMaxDims) || count <= 0 ||
      shape[dim] % count != 0)
    return false;
  elementBytes = static_cast<int>(runtime::elementBytes(type));
  std::vector<int64_t> chunk = shape;
  chunk[dim] /= count;
  std::vector<int64_t> wholeStrides = rowMajorStrides(shape);
  std::vector<int64_t> chunkStrides = rowMajorStrides(chunk);
  chunkElements = 1;
  for (int64_t size : chunk)
    chunkElements *= size;
  // The walk's first dim picks the chunk: one chunk further along `dim` in
  // the tensor, one chunk further in the dense buffer.
  walk.rank = static_cast<int32_t>(shape.size() + 1);
  walk.shape[0] = count;
  whole.at[0] = chunk[dim] * wholeStrides[dim];
  dense.at[0] = chunkElements;
  for (size_t i = 0; i < chunk.size(); ++i) {
    walk.shape[i + 1] = chunk[i];
    whole.at[i + 1] = wholeStrides[i];
    dense.at[i + 1] = chunkStrides[i];
  }
  return true;
}

void Chunks::pack(cudaStream_t stream, const void *tensor, void *packed) const {
  launchCopy(stream, elementBytes, walk, packed, dense, tensor, whole);
  checkCuda(cudaGetLastError(), "the packing kernel");
}

void Chunks::unpack(cudaStream_t stream, const void *packed,
                    void *tensor) const {
  launchCopy(stream, elementBytes, walk, tensor, whole, packed, dense);
  checkCuda(cudaGetLastError(), "the unpacking kernel");
}

bool Slab::plan(ref::ElementType type, const std::vector<int64_t> &shape,
                int dim, int64_t start, int64_t width) {
  std::vector<int64_t> slab = shape;
  slab[dim] = width;
  std::optional<Walk> slabWalk = walkOver(slab);
  if (!slabWalk)
    return false;
  walk = *slabWalk;
  elementBytes = static_cast<int>(runtime::elementBytes(type));
  std::vector<int64_t> tensorStrides = rowMajorStrides(shape);
  std::vector<int64_t> denseStrides = rowMajorStrides(slab);
  for (size_t i = 0; i < shape.size(); ++i) {
    tensor.at[i] = tensorStrides[i];
    dense.at[i] = denseStrides[i];
  }
  base = start * tensorStrides[dim];
  bytes = static_cast<size_t>(walk.count()) * elementBytes;
  return true;
}

void Slab::pack(cudaStream_t stream, const void *from, void *packed) const {
  launchCopy(stream, elementBytes, walk, packed, dense,
             static_cast<const char *>(from) + base * elementBytes, tensor);
  checkCuda(cudaGetLastError(), "the packing kernel");
}

void Slab::unpack(cudaStream_t stream, const void *packed, void *to) const {
  launchCopy(stream, elementBytes, walk,
             static_cast<char *>(to) + base * elementBytes, tensor, packed,
             dense);
  checkCuda(cudaGetLastError(), "the unpacking kernel");
}

} // namespace tessel::runtime::gpu
