//===- Packing.h - Chunks and slabs of row-major tensors --------*- C++ -*-===//
//
// NCCL moves contiguous buffers; the mesh-level ops move chunks along a dim
// (all_gather, reduce_scatter, all_to_all, shard_slice) and slabs at a
// dim's edges (halo_exchange), which are strided unless every dim before it
// has size 1. These plan the strided copies between a tensor and a dense
// buffer as walks (Launch.h), so one copy kernel does all the packing.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_GPU_PACKING_H
#define TESSEL_RUNTIME_GPU_PACKING_H

#include "gpu/Launch.h"

#include "reference/Tensor.h"

#include <cstddef>
#include <vector>

namespace tessel::runtime::gpu {

/// A tensor cut into `count` equal chunks along `dim`, and the dense buffer
/// [count, chunk...] that holds them one after another.
struct Chunks {
  int elementBytes = 0;
  int64_t chunkElements = 0;
  Walk walk;            // [count, chunk dims...]
  Strides whole, dense; // into the tensor, into the dense buffer

  /// `shape` is the whole tensor's; false when `count` does not divide the
  /// dim or the walk would have more than kMaxDims dims.
  bool plan(ref::ElementType type, const std::vector<int64_t> &shape, int dim,
            int64_t count);
  /// tensor -> dense buffer, and back.
  void pack(cudaStream_t stream, const void *tensor, void *packed) const;
  void unpack(cudaStream_t stream, const void *packed, void *tensor) const;
  size_t chunkBytes() const {
    return static_cast<size_t>(chunkElements) * elementBytes;
  }
};

/// `width` elements along `dim` of a tensor, from `start` on, and the dense
/// buffer of the slab.
struct Slab {
  int elementBytes = 0;
  Walk walk;
  Strides tensor, dense;
  int64_t base = 0; // the slab's first element in the tensor
  size_t bytes = 0; // of the dense buffer

  bool plan(ref::ElementType type, const std::vector<int64_t> &shape, int dim,
            int64_t start, int64_t width);
  /// tensor -> dense buffer, and back.
  void pack(cudaStream_t stream, const void *tensor, void *packed) const;
  void unpack(cudaStream_t stream, const void *packed, void *tensor) const;
};

} // namespace tessel::runtime::gpu

#endif // TESSEL_RUNTIME_GPU_PACKING_H
