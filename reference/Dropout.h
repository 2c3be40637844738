//===- Dropout.h - Inverted dropout with a counter-based mask ---*- C++ -*-===//
//
// Whether dropout keeps an element is a pure function of (seed, step, the
// element's flat row-major index in the whole, unsplit tensor), drawn with
// the parameters' counter-based generator (Initializers.h):
//
//   dropoutStream(seed, step) = mix64(seed) ^ mix64(step + 0x9E3779B97F4A7C15)
//   keep(index) = unitUniform(dropoutStream(seed, step), index) >= rate
//   y = keep ? x / (1 - rate) : 0     (computed in double, rounded once)
//
// So any rank holding any block, in any layout, draws the same mask without
// communication, and the evaluator agrees with the runtime. Header-only so
// that the runtime shares it without linking the evaluator.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_REFERENCE_DROPOUT_H
#define TESSEL_REFERENCE_DROPOUT_H

#include "reference/Initializers.h"
#include "reference/Tensor.h"

#include <cassert>
#include <cstdint>
#include <vector>

namespace tessel::ref {

/// The generator seed of one dropout site at one training step.
inline uint64_t dropoutStream(uint64_t seed, int64_t step) {
  return mix64(seed) ^
         mix64(static_cast<uint64_t>(step) + 0x9E3779B97F4A7C15ull);
}

/// Whether the element at `flatGlobalIndex` is kept.
inline bool dropoutKeeps(uint64_t stream, double rate,
                         uint64_t flatGlobalIndex) {
  return unitUniform(stream, flatGlobalIndex) >= rate;
}

/// Calls `visit(blockOffset, globalIndex)` for every element of a block of
/// shape `blockShape` starting at `offsets` in a tensor of shape
/// `globalShape` (the same dims in the same order), row-major in the block;
/// globalIndex is -1 past the end of a dimension (padding).
template <typename Visit>
void forEachGlobalIndex(const std::vector<int64_t> &globalShape,
                        const std::vector<int64_t> &offsets,
                        const std::vector<int64_t> &blockShape, Visit &&visit) {
  assert(globalShape.size() == blockShape.size() &&
         offsets.size() == blockShape.size() && "one offset per dim");
  std::vector<int64_t> strides = rowMajorStrides(globalShape);
  int64_t position = 0;
  forEachIndex(blockShape, [&](const std::vector<int64_t> &index) {
    int64_t flat = 0;
    for (size_t d = 0; d < index.size(); ++d) {
      int64_t global = offsets[d] + index[d];
      if (global >= globalShape[d]) {
        flat = -1;
        break;
      }
      flat += global * strides[d];
    }
    visit(position++, flat);
  });
}

/// Dropout of `x`, a block starting at `offsets` of a tensor of shape
/// `globalShape` (the whole of it when the offsets are zero and the shapes
/// equal); positions past the end hold zeros.
inline Tensor dropoutBlock(const Tensor &x, double rate, uint64_t seed,
                           int64_t step,
                           const std::vector<int64_t> &globalShape,
                           const std::vector<int64_t> &offsets) {
  uint64_t stream = dropoutStream(seed, step);
  double scale = 1.0 / (1.0 - rate);
  std::vector<double> values(x.data.size(), 0.0);
  forEachGlobalIndex(
      globalShape, offsets, x.spec.shape, [&](int64_t position, int64_t flat) {
        if (flat >= 0 &&
            dropoutKeeps(stream, rate, static_cast<uint64_t>(flat)))
          values[position] = x.data[position] * scale;
      });
  return Tensor(x.spec, std::move(values));
}

/// Dropout of a whole tensor.
inline Tensor dropout(const Tensor &x, double rate, uint64_t seed,
                      int64_t step) {
  return dropoutBlock(x, rate, seed, step, x.spec.shape,
                      std::vector<int64_t>(x.spec.shape.size(), 0));
}

} // namespace tessel::ref

#endif // TESSEL_REFERENCE_DROPOUT_H
