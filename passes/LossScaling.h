//===- LossScaling.h - dynamic loss scaling of a training step --*- C++ -*-===//
//
// An f16 gradient smaller than f16's smallest subnormal (6e-8) is 0: a
// mixed-precision step would lose it. Dynamic loss scaling (PyTorch's
// GradScaler) starts the backward pass from a scale S instead of 1, so the
// narrow-type gradients are S times larger, and multiplies the f32
// gradients by 1/S before the norm, clipping and the optimizer see them.
// The step returns S's next value: halved when the gradients are not
// finite (the driver then drops the step's update, the new scale aside),
// doubled after `growthInterval` finite steps in a row, kept otherwise.
// As GradScaler grows only to a finite scale, S doubles only while the
// double is finite in the type the backward pass starts in (S at most
// 32768 for f16): a larger S would overflow every step it is tried, and
// past f32's range S would be inf for good, halving to inf.
// The scale and its count of finite steps are two scalars of state, carried
// between steps and checkpointed like the optimizer's; they are replicated,
// and computed from the global gradient norm, so every rank holds the same.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_PASSES_LOSSSCALING_H
#define TESSEL_PASSES_LOSSSCALING_H

#include "passes/Optimizers.h"

#include <optional>

namespace mlir::tessel {

/// The state's names: the scale, and the finite steps since it last
/// changed.
constexpr StringLiteral kLossScaleName = "loss_scale";
constexpr StringLiteral kLossScaleGoodStepsName = "loss_scale.good_steps";

/// The initial scale when tessel-autodiff's `loss-scale` is "auto" and the
/// precision is f16: 2^15, not GradScaler's 2^16, because here the loss
/// itself is f16 and its gradient, the scale, must be finite in f16 (whose
/// largest value is 65504): 2^16 would make every first step overflow.
constexpr double kDefaultInitialLossScale = 32768.0;

struct LossScaleConfig {
  double initialScale = kDefaultInitialLossScale;
  /// Finite steps in a row after which the scale doubles.
  int64_t growthInterval = 2000;
  /// The largest finite value of the seed's type (the compute type's): the
  /// scale doubles only to at most this.
  double largestScale = 65504.0;
  /// The type the backward pass starts in when it is narrower than the
  /// scale's (f16 or bf16 mixed precision); null otherwise.
  Type seedType;
};

/// Parses tessel-autodiff's `loss-scale` option for `precision`: "auto"
/// (on from 2^15 for f16, off for bf16 and f32), "off", or the initial
/// scale, a positive number within f32's range (the state's type). Returns
/// no config when scaling is off; fails, with an error at `module`, on a
/// value it cannot read.
FailureOr<std::optional<LossScaleConfig>>
parseLossScale(ModuleOp module, StringRef spec, StringRef precision,
               int64_t growthInterval);

/// The scale (starting at `config.initialScale`) and its count of finite
/// steps (starting at 0), scalars of `elementType`, in the order a step
/// takes them.
SmallVector<StateTensor> lossScaleStateOf(Type elementType,
                                          const LossScaleConfig &config);

/// Divides each slot's gradient by `scale` as the backward pass started
/// from it, rounded to `config.seedType` (multiplies it by 1 / that, exact
/// for a power of two), in the gradient's type.
void unscaleGradients(TensorBuilder &b, const LossScaleConfig &config,
                      MutableArrayRef<ParameterSlot> slots, Value scale);

/// The next scale and count after a step whose unscaled gradients have the
/// global norm `gradientNorm` (not finite when any gradient is not).
struct LossScaleUpdate {
  Value scale;
  Value goodSteps;
};
LossScaleUpdate buildLossScaleUpdate(TensorBuilder &b,
                                     const LossScaleConfig &config,
                                     Value scale, Value goodSteps,
                                     Value gradientNorm);

} // namespace mlir::tessel

#endif // TESSEL_PASSES_LOSSSCALING_H
