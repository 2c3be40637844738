//===- ParallelChunks.h - one array loop across the OpenMP threads -*- C++ -*-===//
//
// The element-wise kernels that are not oneDNN's (conversions between f32
// and bf16 or f16, SLEEF's transcendental functions, GELU) walk a whole
// array. Run on one thread, they left the machine's other cores idle
// during a one-rank step (GELU alone was 12% of the realistic
// Transformer's step on 2 cores). This splits such a walk into chunks
// that stay in the L1 cache between the passes a kernel makes over them,
// and hands large arrays' chunks to the OpenMP threads, as the fused
// kernel splits its results.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_EXECUTOR_PARALLELCHUNKS_H
#define TESSEL_RUNTIME_EXECUTOR_PARALLELCHUNKS_H

#include <algorithm>
#include <cstdint>

namespace tessel::runtime {

/// Arrays (and fused results) of this many elements or more are split
/// across the OpenMP threads (the driver sizes the pool to the rank's
/// share of the cores); below it a fork and join cost more than the second
/// core saves, as they do for oneDNN's kernels (kSingleThreadedElements in
/// kernels/Primitives.h).
constexpr int64_t kParallelElements = int64_t(1) << 16;

/// Elements a thread handles at a time: 16 KiB of f32, which the passes a
/// kernel makes over a chunk find in the L1 cache.
constexpr int64_t kChunkElements = 4096;

/// Calls `visit(begin, end)` on consecutive chunks of [0, count), across
/// the OpenMP threads when count is kParallelElements or more. Chunks do
/// not overlap, so visits that write only their own range need no lock.
template <typename Visit> void inChunks(int64_t count, Visit &&visit) {
  int64_t chunks = count / kChunkElements + (count % kChunkElements != 0);
  // Below the threshold the loop runs here: a parallel region whose `if`
  // is false still enters and leaves the OpenMP runtime, which cost more
  // than converting a small tensor.
  if (count < kParallelElements) {
    for (int64_t c = 0; c < chunks; ++c)
      visit(c * kChunkElements,
            std::min(count, c * kChunkElements + kChunkElements));
    return;
  }
#ifdef TESSEL_RUNTIME_HAS_OPENMP
#pragma omp parallel for schedule(static)
#endif
  for (int64_t c = 0; c < chunks; ++c)
    visit(c * kChunkElements,
          std::min(count, c * kChunkElements + kChunkElements));
}

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_PARALLELCHUNKS_H
