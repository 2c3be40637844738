//===- Blocks.h - A rank's block of a global tensor -------------*- C++ -*-===//
//
// The driver moves whole tensors (a batch of data, a checkpointed
// parameter) between their global form and each rank's block. The block's
// place comes from layouts/Sharding.h, the maths the compiler partitioned
// the program with, so the driver feeds each rank the block the program
// expects.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_BLOCKS_H
#define TESSEL_RUNTIME_DRIVER_BLOCKS_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tessel::driver {

/// Copies the block of shape `blockShape` starting at `offsets` out of a
/// row-major tensor of shape `globalShape` into a dense buffer.
void extractBlock(const void *global, const std::vector<int64_t> &globalShape,
                  const std::vector<int64_t> &offsets,
                  const std::vector<int64_t> &blockShape, size_t elementBytes,
                  void *block);

/// The inverse: writes a dense block into its place in the global tensor.
void placeBlock(const void *block, const std::vector<int64_t> &blockShape,
                const std::vector<int64_t> &offsets,
                const std::vector<int64_t> &globalShape, size_t elementBytes,
                void *global);

/// A contiguous run of a block inside its global tensor: `bytes` bytes at
/// byte `globalAt` of the global tensor and `blockAt` of the block.
struct BlockRun {
  uint64_t globalAt;
  uint64_t blockAt;
  uint64_t bytes;
};

/// The runs of the block of shape `blockShape` at `offsets` that lie inside
/// the global tensor (a padded block's padding has none), in increasing
/// order of globalAt, runs that continue each other in both joined.
std::vector<BlockRun> blockRuns(const std::vector<int64_t> &globalShape,
                                const std::vector<int64_t> &offsets,
                                const std::vector<int64_t> &blockShape,
                                size_t elementBytes);

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_BLOCKS_H
