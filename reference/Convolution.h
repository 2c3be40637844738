//===- Convolution.h - Reference convolution and pooling kernels -*- C++
//-*-===//
//
// 2-D windowed ops over two named spatial dims. Every other dim of the input
// (batch and the like) passes through to the result under its own name.
// Padding arrays are ordered {lowH, highH, lowW, highW}, where H is
// spatial[0] and W is spatial[1].
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_REFERENCE_CONVOLUTION_H
#define TESSEL_REFERENCE_CONVOLUTION_H

#include "reference/Tensor.h"

#include <array>

namespace tessel::ref {

struct ConvParams {
  std::string inputChannel;           // Dim of x and of the filter.
  std::string outputChannel;          // Dim of the filter and the result.
  std::array<std::string, 2> spatial; // Dims of x and the result.
  std::array<std::string, 2> kernel;  // Dims of the filter.
  std::array<int64_t, 2> strides = {1, 1};
  std::array<int64_t, 2> dilations = {1, 1};
  std::array<int64_t, 4> padding = {0, 0, 0, 0};
  /// Grouped convolution: output f of group q = f / (F / groups) reads
  /// input channels [q * C/groups, (q + 1) * C/groups) only, and the
  /// filter's inputChannel has size C / groups.
  int64_t groups = 1;
};

enum class PoolKind { Max, Avg };

struct PoolParams {
  std::array<std::string, 2> spatial;
  std::array<int64_t, 2> window = {1, 1};
  std::array<int64_t, 2> strides = {1, 1};
  std::array<int64_t, 4> padding = {0, 0, 0, 0};
};

/// floor((in + low + high - dilation * (kernel - 1) - 1) / stride) + 1, the
/// output size of one spatial dim; shared with the op verifiers.
int64_t convOutputSize(int64_t inputSize, int64_t kernelSize, int64_t stride,
                       int64_t dilation, int64_t padLow, int64_t padHigh);
/// floor((in + low + high - window) / stride) + 1.
int64_t poolOutputSize(int64_t inputSize, int64_t window, int64_t stride,
                       int64_t padLow, int64_t padHigh);

/// Cross-correlation with zero padding, as PyTorch and oneDNN define it:
///   y[n, f, oh, ow] = sum over c, i, j of
///     x[n, c, oh*sH - lowH + i*dH, ow*sW - lowW + j*dW] * k[c, f, i, j]
/// where out-of-range input positions read 0. x has inputChannel and both
/// spatial dims plus pass-through dims; the filter has exactly inputChannel,
/// outputChannel and both kernel dims; the result has x's dims with
/// inputChannel replaced by outputChannel, in `resultSpec`'s order.
Tensor conv2d(const Tensor &x, const Tensor &filter, const ConvParams &params,
              const TensorSpec &resultSpec);

/// The gradient of conv2d's input x (of spec `inputSpec`) given the
/// gradient of its result and its filter: every tap of the convolution adds
/// resultGradient[out] * filter[tap] to the input element it read.
Tensor conv2dBackwardInput(const Tensor &resultGradient, const Tensor &filter,
                           const ConvParams &params,
                           const TensorSpec &inputSpec);

/// The gradient of conv2d's filter (of spec `filterSpec`) given its input and
/// the gradient of its result: every tap adds x[tap] * resultGradient[out] to
/// the filter element it used.
Tensor conv2dBackwardFilter(const Tensor &x, const Tensor &resultGradient,
                            const ConvParams &params,
                            const TensorSpec &filterSpec);

/// Max or average pooling over windows of the two spatial dims. Padded
/// positions never contribute: Max treats them as -inf and Avg divides by the
/// number of in-range positions of each window. A window that lies wholly in
/// the padding yields -inf for Max and 0 for Avg.
Tensor pool(PoolKind kind, const Tensor &x, const PoolParams &params,
            const TensorSpec &resultSpec);

/// The gradient of pool's input x given the gradient of its result: Max
/// passes each window's gradient to the window's first maximum (row-major
/// window order; a NaN counts as the maximum), Avg shares it equally among
/// the window's in-range elements. Overlapping windows add up.
Tensor poolBackward(PoolKind kind, const Tensor &x,
                    const Tensor &resultGradient, const PoolParams &params);

} // namespace tessel::ref

#endif // TESSEL_REFERENCE_CONVOLUTION_H
