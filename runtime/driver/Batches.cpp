//===- Batches.cpp - Each step's examples, cut to the rank's block --------===//

#include "driver/Batches.h"

#include "driver/Blocks.h"
#include "evaluator/kernels/Initializers.h"
#include "executor/Buffers.h"

#include <numeric>

namespace tessel::driver {

namespace {

int batchDimOf(const TensorType &type) {
  for (int i = 0; i < type.rank(); ++i)
    if (type.dims[i] == "batch")
      return i;
  return 0;
}

/// Builds the global tensor with `valueAt(example, within)` for each element
/// (the example's position in the batch and the element's row-major index
/// among the other dims), then copies out this rank's block.
template <typename ValueAt>
void fillBlock(const ValueSpec &argument, const layout::Mesh &mesh,
               int64_t rank, void *local, ValueAt &&valueAt) {
  const TensorType &global = argument.global;
  int batchDim = batchDimOf(global);
  std::vector<unsigned char> buffer(global.numBytes());
  std::vector<int64_t> index(global.rank(), 0);
  for (int64_t flat = 0; flat < global.numElements(); ++flat) {
    int64_t within = 0;
    for (int d = 0; d < global.rank(); ++d)
      if (d != batchDim)
        within = within * global.shape[d] + index[d];
    runtime::storeElement(global.type, buffer.data(), flat,
                          valueAt(global.rank() ? index[batchDim] : 0, within));
    for (int d = global.rank() - 1; d >= 0; --d) {
      if (++index[d] < global.shape[d])
        break;
      index[d] = 0;
    }
  }
  extractBlock(buffer.data(), global.shape,
               layout::shardOffset(mesh, argument.tensorLayout(), rank),
               argument.local.shape, runtime::elementBytes(global.type), local);
}

} // namespace

int64_t batchSizeOf(const ValueSpec &argument) {
  return argument.global.rank()
             ? argument.global.shape[batchDimOf(argument.global)]
             : 1;
}

const std::vector<int64_t> &BatchMaker::orderOfEpoch(int64_t epoch) {
  if (epoch == cachedEpoch)
    return cachedOrder;
  // Fisher-Yates with the counter-based generator of the parameter
  // initialisers: no state to save in a checkpoint, the same on every
  // platform.
  cachedOrder.resize(dataset.count);
  std::iota(cachedOrder.begin(), cachedOrder.end(), 0);
  uint64_t epochSeed = ref::mix64(seed ^ ref::mix64(epoch + 1));
  for (int64_t i = dataset.count - 1; i > 0; --i) {
    auto j = static_cast<int64_t>(ref::randomBits(epochSeed, i) %
                                  static_cast<uint64_t>(i + 1));
    std::swap(cachedOrder[i], cachedOrder[j]);
  }
  cachedEpoch = epoch;
  return cachedOrder;
}

std::vector<int64_t> BatchMaker::examplesOfStep(int64_t step, int64_t size) {
  std::vector<int64_t> examples;
  examples.reserve(size);
  for (int64_t i = 0; i < size; ++i) {
    int64_t position = step * size + i;
    examples.push_back(
        orderOfEpoch(position / dataset.count)[position % dataset.count]);
  }
  return examples;
}

void BatchMaker::fillImages(const ValueSpec &argument,
                            const std::vector<int64_t> &batch,
                            const layout::Mesh &mesh, int64_t rank,
                            void *local) {
  int64_t pixels = dataset.pixelsPerImage;
  fillBlock(argument, mesh, rank, local, [&](int64_t example, int64_t within) {
    return dataset.pixels[batch[example] * pixels + within] / 255.0;
  });
}

void BatchMaker::fillLabels(const ValueSpec &argument,
                            const std::vector<int64_t> &batch,
                            const layout::Mesh &mesh, int64_t rank,
                            void *local) {
  fillBlock(argument, mesh, rank, local, [&](int64_t example, int64_t) {
    return static_cast<double>(dataset.labels[batch[example]]);
  });
}

void BatchMaker::fillTokens(const ValueSpec &argument,
                            const std::vector<int64_t> &batch,
                            const layout::Mesh &mesh, int64_t rank, void *local,
                            int64_t shift) {
  fillBlock(argument, mesh, rank, local, [&](int64_t example, int64_t within) {
    return static_cast<double>(dataset.text[batch[example] + within + shift]);
  });
}

} // namespace tessel::driver
