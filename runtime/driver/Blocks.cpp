//===- Blocks.cpp - A rank's block of a global tensor ---------------------===//

#include "driver/Blocks.h"

#include <algorithm>
#include <cstring>

namespace tessel::driver {

namespace {

/// Calls copy(globalOffset, blockOffset, bytes) for each contiguous run of
/// the block: one per index of every dim but the last.
template <typename Copy>
void forEachRun(const std::vector<int64_t> &globalShape,
                const std::vector<int64_t> &offsets,
                const std::vector<int64_t> &blockShape, size_t elementBytes,
                Copy &&copy) {
  size_t rank = globalShape.size();
  if (rank == 0) {
    copy(0, 0, elementBytes);
    return;
  }
  for (int64_t size : blockShape)
    if (size == 0)
      return;
  std::vector<int64_t> index(rank - 1, 0);
  size_t runBytes = static_cast<size_t>(blockShape[rank - 1]) * elementBytes;
  // A padded block (a split that does not divide) ends past the tensor:
  // only the part inside it is copied.
  int64_t lastInside = std::max<int64_t>(
      0, std::min(blockShape[rank - 1],
                  globalShape[rank - 1] - offsets[rank - 1]));
  size_t insideBytes = static_cast<size_t>(lastInside) * elementBytes;
  int64_t blockRow = 0;
  while (true) {
    int64_t globalFlat = 0;
    bool inside = insideBytes > 0;
    for (size_t d = 0; d + 1 < rank; ++d) {
      inside = inside && offsets[d] + index[d] < globalShape[d];
      globalFlat = globalFlat * globalShape[d] + offsets[d] + index[d];
    }
    globalFlat = globalFlat * globalShape[rank - 1] + offsets[rank - 1];
    if (inside)
      copy(static_cast<size_t>(globalFlat) * elementBytes,
           static_cast<size_t>(blockRow) * runBytes, insideBytes);
    ++blockRow;
    size_t d = rank - 1;
    while (d > 0) {
      if (++index[d - 1] < blockShape[d - 1])
        break;
      index[d - 1] = 0;
      --d;
    }
    if (d == 0)
      return;
  }
}

} // namespace

void extractBlock(const void *global, const std::vector<int64_t> &globalShape,
                  const std::vector<int64_t> &offsets,
                  const std::vector<int64_t> &blockShape, size_t elementBytes,
                  void *block) {
  // The padding of a padded block holds zeros.
  size_t blockBytes = elementBytes;
  for (int64_t size : blockShape)
    blockBytes *= static_cast<size_t>(size);
  std::memset(block, 0, blockBytes);
  forEachRun(globalShape, offsets, blockShape, elementBytes,
             [&](size_t globalAt, size_t blockAt, size_t bytes) {
               std::memcpy(static_cast<char *>(block) + blockAt,
                           static_cast<const char *>(global) + globalAt, bytes);
             });
}

void placeBlock(const void *block, const std::vector<int64_t> &blockShape,
                const std::vector<int64_t> &offsets,
                const std::vector<int64_t> &globalShape, size_t elementBytes,
                void *global) {
  forEachRun(globalShape, offsets, blockShape, elementBytes,
             [&](size_t globalAt, size_t blockAt, size_t bytes) {
               std::memcpy(static_cast<char *>(global) + globalAt,
                           static_cast<const char *>(block) + blockAt, bytes);
             });
}

std::vector<BlockRun> blockRuns(const std::vector<int64_t> &globalShape,
                                const std::vector<int64_t> &offsets,
                                const std::vector<int64_t> &blockShape,
                                size_t elementBytes) {
  std::vector<BlockRun> runs;
  forEachRun(globalShape, offsets, blockShape, elementBytes,
             [&](size_t globalAt, size_t blockAt, size_t bytes) {
               if (!runs.empty() &&
                   runs.back().globalAt + runs.back().bytes == globalAt &&
                   runs.back().blockAt + runs.back().bytes == blockAt)
                 runs.back().bytes += bytes;
               else
                 runs.push_back({globalAt, blockAt, bytes});
             });
  return runs;
}

} // namespace tessel::driver
