//===- Pooling.h - 2-D max and average pooling on oneDNN --------*- C++ -*-===//
//
// Pooling over windows of two spatial dims of [N, C, H, W] tensors in any
// strides. Padded positions never take part: max pooling skips them and
// average pooling divides by the number of in-range positions of each
// window (oneDNN's pooling_avg_exclude_padding).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_KERNELS_POOLING_H
#define TESSEL_RUNTIME_KERNELS_POOLING_H

#include "kernels/PreparedKernel.h"

#include <array>
#include <memory>

namespace tessel::runtime {

enum class PoolingKind { Max, Average };

struct PoolingShape {
  StridedTensor source;      // [N, C, H, W]
  StridedTensor destination; // [N, C, OH, OW]
  std::array<int64_t, 2> window = {1, 1};
  std::array<int64_t, 2> strides = {1, 1};
  std::array<int64_t, 2> paddingLow = {0, 0};
  std::array<int64_t, 2> paddingHigh = {0, 0};
};

/// Whether some window of `shape` lies wholly in the padding. oneDNN gives
/// such a window the lowest finite value (max) or divides by zero (average)
/// where the dialect defines -inf and 0, so the kernels refuse those shapes.
bool hasWindowInPaddingOnly(const PoolingShape &shape);

/// inputs {source}, output destination; null where oneDNN has no kernel or
/// hasWindowInPaddingOnly.
std::unique_ptr<PreparedKernel> preparePooling(PoolingKind kind,
                                               const PoolingShape &shape);

/// The gradient of the source: inputs {source, destination gradient},
/// output the source gradient. Max pooling's gradient goes to the first
/// maximum of each window in row-major window order: the pooling is run
/// forward again for oneDNN's workspace, which records that position.
/// Overlapping windows add up.
std::unique_ptr<PreparedKernel>
preparePoolingBackward(PoolingKind kind, const PoolingShape &shape);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_KERNELS_POOLING_H
