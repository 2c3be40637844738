//===- Convolution.h - 2-D convolution on oneDNN ----------------*- C++ -*-===//
//
// Cross-correlation with zero padding over two spatial dims, one group:
//   dst[n, o, oh, ow] = sum over i, kh, kw of
//     src[n, i, oh*sH - lowH + kh*dH, ow*sW - lowW + kw*dW] * w[o, i, kh, kw]
// and the two gradients a training step needs. Source and destination are
// [N, C, H, W] and [N, O, OH, OW], the weights [O, I, KH, KW], each in any
// strides; the primitives choose their own layouts (format_tag::any) and
// the caller's tensors are reordered to and from them.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_KERNELS_CONVOLUTION_H
#define TESSEL_RUNTIME_KERNELS_CONVOLUTION_H

#include "kernels/PreparedKernel.h"

#include <array>
#include <memory>

namespace tessel::runtime {

struct ConvolutionShape {
  StridedTensor source;      // [N, C, H, W]
  StridedTensor weights;     // [O, C, KH, KW], or [G, O/G, C/G, KH, KW]
                             // for a grouped convolution
  StridedTensor destination; // [N, O, OH, OW]
  std::array<int64_t, 2> strides = {1, 1};
  /// The distance between taps: 1 is a dense kernel (oneDNN counts the gap,
  /// 0, instead).
  std::array<int64_t, 2> dilations = {1, 1};
  std::array<int64_t, 2> paddingLow = {0, 0};
  std::array<int64_t, 2> paddingHigh = {0, 0};
};

/// Which of the three computations over a convolution's taps.
enum class ConvolutionPass {
  /// inputs {source, weights}, output destination.
  Forward,
  /// The gradient of the source: inputs {destination gradient, weights},
  /// output the source gradient.
  BackwardData,
  /// The gradient of the weights: inputs {source, destination gradient},
  /// output the weights gradient.
  BackwardWeights,
};

/// The pass's kernel for `shape`, or null where oneDNN has none (a type it
/// does not compute in, mixed types, negative padding, an empty tensor).
std::unique_ptr<PreparedKernel>
prepareConvolution(ConvolutionPass pass, const ConvolutionShape &shape);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_KERNELS_CONVOLUTION_H
