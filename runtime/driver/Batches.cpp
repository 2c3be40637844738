//===- Batches.cpp - Each step's examples, cut to the rank's block --------===//

#include "driver/Batches.h"

#include "layouts/Sharding.h"
#include "reference/Initializers.h"
#include "executor/Buffers.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

namespace tessel::driver {

namespace {

int batchDimOf(const TensorType &type) {
  for (int i = 0; i < type.rank(); ++i)
    if (type.dims[i] == "batch")
      return i;
  return 0;
}

/// Whether the block is whole examples of the global tensor: the batch is
/// its outermost dim, no other dim is split, and no row is padding.
bool holdsWholeExamples(const TensorType &global, const TensorType &block,
                        int batchDim, const std::vector<int64_t> &offsets) {
  if (global.rank() == 0)
    return true;
  if (batchDim != 0 || block.rank() != global.rank() ||
      offsets[0] + block.shape[0] > global.shape[0])
    return false;
  for (int d = 1; d < global.rank(); ++d)
    if (offsets[d] != 0 || block.shape[d] != global.shape[d])
      return false;
  return true;
}

/// Fills this rank's block with `valueAt(example, within)` for each element
/// (the example's position in the global batch and the element's row-major
/// index among the other dims of the global tensor). Only the block is
/// visited, so a rank reads only the examples it holds. `prefetch(example)`
/// is called for each example of the block before any is read.
template <typename ValueAt, typename Prefetch>
void fillBlock(const ValueSpec &argument, const layout::Mesh &mesh,
               int64_t rank, void *local, ValueAt &&valueAt,
               Prefetch &&prefetch) {
  const TensorType &global = argument.global;
  const TensorType &block = argument.local;
  int batchDim = batchDimOf(global);
  std::vector<int64_t> offsets =
      layout::shardOffset(mesh, argument.tensorLayout(), rank);
  if (global.rank()) {
    int64_t end = std::min(offsets[batchDim] + block.shape[batchDim],
                           global.shape[batchDim]);
    for (int64_t example = offsets[batchDim]; example < end; ++example)
      prefetch(example);
  }
  bool f32 = block.type == ref::ElementType::F32;
  if (holdsWholeExamples(global, block, batchDim, offsets) && f32) {
    // The common case, every layout that splits only the batch: whole f32
    // rows, one per example, written in a loop the compiler vectorizes (a
    // batch of 256 images is 200K elements each step).
    int64_t rows = block.rank() ? block.shape[0] : 1;
    int64_t rowLength = rows ? block.numElements() / rows : 0;
    auto *out = static_cast<float *>(local);
    for (int64_t row = 0; row < rows; ++row) {
      int64_t example = block.rank() ? offsets[0] + row : 0;
      for (int64_t within = 0; within < rowLength; ++within)
        out[row * rowLength + within] =
            static_cast<float>(valueAt(example, within));
    }
    return;
  }
  // Every other block (a split of the pixels, the rows of an image, an
  // uneven split's padding) a run along the innermost dim at a time: its
  // elements are consecutive `within`s of one example, unless that dim is
  // the batch, where a run is one element.
  int last = block.rank() - 1;
  bool runsAlongLast = block.rank() && last != batchDim;
  int64_t runLength = runsAlongLast ? block.shape[last] : 1;
  int outerDims = runsAlongLast ? last : block.rank();
  std::vector<int64_t> index(block.rank(), 0);
  for (int64_t flat = 0; flat < block.numElements(); flat += runLength) {
    int64_t within = 0;
    bool inside = true;
    for (int d = 0; d < global.rank(); ++d) {
      inside = inside && offsets[d] + index[d] < global.shape[d];
      if (d != batchDim)
        within = within * global.shape[d] + offsets[d] + index[d];
    }
    int64_t example = global.rank() ? offsets[batchDim] + index[batchDim] : 0;
    // The padding of a split that does not divide (pad_uneven) is zero.
    int64_t filled =
        !inside ? 0
        : runsAlongLast
            ? std::min(runLength, global.shape[last] - offsets[last])
            : 1;
    if (f32) {
      auto *out = static_cast<float *>(local) + flat;
      for (int64_t i = 0; i < filled; ++i)
        out[i] = static_cast<float>(valueAt(example, within + i));
      std::fill(out + filled, out + runLength, 0.0f);
    } else {
      for (int64_t i = 0; i < runLength; ++i)
        runtime::storeElement(block.type, local, flat + i,
                              i < filled ? valueAt(example, within + i) : 0.0);
    }
    for (int d = outerDims - 1; d >= 0; --d) {
      if (++index[d] < block.shape[d])
        break;
      index[d] = 0;
    }
  }
}

template <typename ValueAt>
void fillBlock(const ValueSpec &argument, const layout::Mesh &mesh,
               int64_t rank, void *local, ValueAt &&valueAt) {
  fillBlock(argument, mesh, rank, local, std::forward<ValueAt>(valueAt),
            [](int64_t) {});
}

/// Each byte value's pixel / 255 as the model's f32: a table, so that a
/// step's images cost a load per pixel instead of a division (the MLP's
/// step on 2 ranks went from 0.205 to 0.190 ms). Its entries are the float
/// of the double quotient, as the division gave.
const std::array<float, 256> &scaledPixels() {
  static const std::array<float, 256> table = [] {
    std::array<float, 256> values{};
    for (int value = 0; value < 256; ++value)
      values[value] = static_cast<float>(value / 255.0);
    return values;
  }();
  return table;
}

} // namespace

int64_t batchSizeOf(const ValueSpec &argument) {
  return argument.global.rank()
             ? argument.global.shape[batchDimOf(argument.global)]
             : 1;
}

std::optional<std::string> checkArrayFits(const NpyArray &array,
                                          const ValueSpec &argument) {
  const TensorType &global = argument.global;
  std::vector<int64_t> rowShape;
  std::string rowDims;
  int batchDim = batchDimOf(global);
  for (int d = 0; d < global.rank(); ++d)
    if (d != batchDim) {
      rowShape.push_back(global.shape[d]);
      rowDims += fmt::format("{}{}:{}", rowDims.empty() ? "" : ", ",
                             global.dims[d], global.shape[d]);
    }
  std::vector<int64_t> arrayRow(array.shape().begin() + 1, array.shape().end());
  if (arrayRow != rowShape)
    return fmt::format("{}: each example is [{}] but the model's '{}' ({}) "
                       "wants examples of [{}]",
                       array.path(), fmt::join(arrayRow, ", "), argument.name,
                       global.str(), rowDims);
  if (!ref::isFloatType(global.type) && !array.isInteger())
    return fmt::format("{}: holds floats ({}) but the model's '{}' is {}",
                       array.path(), array.dtype(), argument.name,
                       global.str());
  // A NaN or an infinity in the data makes every step that draws its
  // example non-finite, at a step that depends on the shuffling; named here
  // by file and element instead.
  if (ref::isFloatType(global.type) && !array.isInteger())
    for (int64_t i = 0; i < array.numElements(); ++i)
      if (!std::isfinite(array.at(i)))
        return fmt::format("{}: element {} is {}; the data must be finite",
                           array.path(), i, array.at(i));
  // Integers the model's type cannot hold (int64 labels into i32, uint64
  // values of 2^63 or more into i64) would wrap around or saturate into
  // other, valid-looking values. The upper bound is exclusive: 2^63 - 1 is
  // not a double (it rounds up to 2^63), 2^63 is.
  if (!ref::isFloatType(global.type)) {
    double lowest = 0, pastHighest = 2;
    if (global.type == ref::ElementType::I32) {
      lowest = -2147483648.0;
      pastHighest = 2147483648.0;
    } else if (global.type == ref::ElementType::I64) {
      lowest = -9223372036854775808.0;
      pastHighest = 9223372036854775808.0;
    }
    for (int64_t i = 0; i < array.numElements(); ++i)
      if (array.at(i) < lowest || array.at(i) >= pastHighest)
        return fmt::format("{}: element {} is {:.0f}, which the model's '{}' "
                           "({}) cannot hold",
                           array.path(), i, array.at(i), argument.name,
                           global.str());
  }
  return std::nullopt;
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
  const std::array<float, 256> &scaled = scaledPixels();
  const uint8_t *images = dataset.pixels.data();
  fillBlock(
      argument, mesh, rank, local,
      [&](int64_t example, int64_t within) {
        return scaled[images[batch[example] * pixels + within]];
      },
      // The batch's images lie anywhere in the data set (47 MB for
      // Fashion-MNIST's training split): asked for all at once, their
      // cache lines arrive together instead of a miss at a time (the
      // MLP's step on 2 ranks went from 0.216 to 0.205 ms; the misses
      // were the driver's largest cost).
      [&](int64_t example) {
        // Every cache line of the image: from the line its first byte is
        // in, 64 bytes at a time, up to the line of its last byte.
        const uint8_t *image = images + batch[example] * pixels;
        uintptr_t first = reinterpret_cast<uintptr_t>(image) & ~uintptr_t(63);
        for (uintptr_t line = first;
             line < reinterpret_cast<uintptr_t>(image + pixels); line += 64)
          __builtin_prefetch(reinterpret_cast<const void *>(line));
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

void BatchMaker::fillArray(const ValueSpec &argument,
                           const std::vector<int64_t> &batch,
                           const layout::Mesh &mesh, int64_t rank, void *local,
                           const NpyArray &array) {
  int64_t perExample = array.numElements() / dataset.count;
  fillBlock(argument, mesh, rank, local, [&](int64_t example, int64_t within) {
    return array.at(batch[example] * perExample + within);
  });
}

void BatchMaker::fillTokens(const ValueSpec &argument,
                            const std::vector<int64_t> &batch,
                            const layout::Mesh &mesh, int64_t rank, void *local,
                            int64_t shift) {
  fillBlock(argument, mesh, rank, local, [&](int64_t example, int64_t within) {
    return static_cast<double>(
        dataset.text[batch[example] * dataset.textStride + within + shift]);
  });
}

} // namespace tessel::driver
