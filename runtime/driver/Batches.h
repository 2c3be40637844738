//===- Batches.h - Each step's examples, cut to the rank's block -*- C++
//-*-===//
//
// Every rank draws the same global batch (so the program sees the examples a
// one-rank run would, whatever the layout) and keeps its block of it. The
// order is a pure function of the seed and the step, so a run resumed from
// a checkpoint continues with the examples the uninterrupted run would have
// used.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_BATCHES_H
#define TESSEL_RUNTIME_DRIVER_BATCHES_H

#include "driver/FashionMnist.h"
#include "driver/Metadata.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessel::driver {

class BatchMaker {
public:
  BatchMaker(const Dataset &dataset, uint64_t seed)
      : dataset(dataset), seed(seed) {}

  /// The dataset indices of the examples of step `step` (from 0): positions
  /// step * size ... of an endless sequence of epochs, each a fresh
  /// shuffle of the whole dataset.
  std::vector<int64_t> examplesOfStep(int64_t step, int64_t size);

  /// Fills `local` (a buffer of the argument's local type) with this rank's
  /// block of the argument "images" (pixels / 255; the dim named "batch",
  /// or else the first, holds the examples and the others the pixels in
  /// row-major order) or "labels" (the class as an integer).
  void fillImages(const ValueSpec &argument, const std::vector<int64_t> &batch,
                  const layout::Mesh &mesh, int64_t rank, void *local);
  void fillLabels(const ValueSpec &argument, const std::vector<int64_t> &batch,
                  const layout::Mesh &mesh, int64_t rank, void *local);

  /// Fills `local` with this rank's block of an argument fed from `array`
  /// (NpyData.h), whose example i is its row i.
  void fillArray(const ValueSpec &argument, const std::vector<int64_t> &batch,
                 const layout::Mesh &mesh, int64_t rank, void *local,
                 const NpyArray &array);

  /// Fills `local` with this rank's block of "tokens" (shift 0) or
  /// "targets" (shift 1): element (example, i) is text byte
  /// batch[example] * textStride + i + shift.
  void fillTokens(const ValueSpec &argument, const std::vector<int64_t> &batch,
                  const layout::Mesh &mesh, int64_t rank, void *local,
                  int64_t shift);

private:
  /// The dataset order of epoch `epoch` (cached: one epoch at a time).
  const std::vector<int64_t> &orderOfEpoch(int64_t epoch);

  const Dataset &dataset;
  uint64_t seed;
  int64_t cachedEpoch = -1;
  std::vector<int64_t> cachedOrder;
};

/// The size of the dim that holds the examples of a data argument.
int64_t batchSizeOf(const ValueSpec &argument);

/// Why `array` cannot feed `argument`, or nothing if it can: its rows must
/// have the argument's shape without the batch dim, and an integer argument
/// needs integer data.
std::optional<std::string> checkArrayFits(const NpyArray &array,
                                          const ValueSpec &argument);

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_BATCHES_H
