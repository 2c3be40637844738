//===- ConvPlan.h - Convolutions and pooling in cuDNN's layout --*- C++ -*-===//
//
// cuDNN wants NCHW tensors and KCRS filters; tessel's have named dims in any
// order and any number of pass-through dims (batch and the like). A plan
// says how each operand is permuted into [pass..., channel, h, w] (the
// pass-through dims collapsed into N), the filter into [out, in, kh, kw],
// and how cuDNN's result is permuted back, with the sizes cuDNN is given.
// Plain C++ (no CUDA calls), so tests can check it on the host.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_GPU_CONVPLAN_H
#define TESSEL_RUNTIME_GPU_CONVPLAN_H

#include "gpu/Views.h"

#include <array>
#include <optional>

namespace tessel::runtime::gpu {

/// One operand or result and its permute into cuDNN's order (operands) or
/// out of it (results).
struct Packed {
  Permute permute;
  size_t bytes = 0;

  bool plan(const TensorType &from, const TensorType &to);
};

enum class ConvKind { Forward, BackwardInput, BackwardFilter };

struct ConvPlan {
  ConvKind kind = ConvKind::Forward;
  /// The input x (N, C, H, W), the filter w (F, C, KH, KW) and the output
  /// y (N, F, P, Q): operands packed, the result (which one depends on the
  /// kind) unpacked.
  Packed x, w, y;
  int64_t n = 0, c = 0, h = 0, width = 0, f = 0, kh = 0, kw = 0, p = 0, q = 0;
  /// Per spatial dim: cuDNN pads both sides alike.
  std::array<int64_t, 2> padding{}, strides{}, dilations{};

  /// The packed tensor that the op's result comes from.
  const Packed &result() const {
    return kind == ConvKind::Forward         ? y
           : kind == ConvKind::BackwardInput ? x
                                             : w;
  }
};

/// conv2d, conv2d_backward_input or conv2d_backward_filter; none with
/// asymmetric padding, mixed element types or sizes beyond int.
std::optional<ConvPlan> planConvolution(const OpDescriptor &desc);

struct PoolPlan {
  bool backward = false, max = true;
  /// x and pool's y as (N, 1, H, W) and (N, 1, P, Q); dy is pool_backward's
  /// gradient operand, and unpack takes cuDNN's dx into the result.
  Packed x, y, dy;
  Permute unpack;
  int64_t n = 0, h = 0, width = 0, p = 0, q = 0;
  std::array<int64_t, 2> window{}, strides{}, padding{};
};

/// pool or pool_backward; none with asymmetric padding or mixed types.
std::optional<PoolPlan> planPool(const OpDescriptor &desc);

} // namespace tessel::runtime::gpu

#endif // TESSEL_RUNTIME_GPU_CONVPLAN_H
