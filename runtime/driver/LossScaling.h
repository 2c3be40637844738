//===- LossScaling.h - Dynamic loss scaling in the training loop -*- C++ -*-===//
//
// A training step compiled with dynamic loss scaling (tessel-autodiff's
// `loss-scale`, passes/LossScaling.h) carries the scale `loss_scale` and
// its count `loss_scale.good_steps` as state, and returns their next
// values: halved after gradients that were not finite, doubled after a run
// of finite steps. For such a step, non-finite gradients with a finite loss
// are the scale overflowing, normal behaviour: the step's update is dropped
// (parameters and optimizer state stay those of the step before) but the
// new scale is kept, and training goes on. A scale that keeps halving
// below kMinLossScale means gradients that are not finite at any scale
// (NaN data, a learning rate that diverges): an error naming the step.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_LOSSSCALING_H
#define TESSEL_RUNTIME_DRIVER_LOSSSCALING_H

#include "driver/Metadata.h"

#include <optional>
#include <string>

namespace tessel::driver {

/// 2^-24, f16's smallest subnormal: a scale below it shrinks every f16
/// gradient to nothing.
constexpr double kMinLossScale = 0x1p-24;

/// Where a training step's loss-scale state is.
struct LossScaling {
  /// train_step's result with the next scale.
  int nextScaleResult = -1;

  /// The loss scaling of `step`, whose state `init` starts; none when the
  /// step returns no `loss_scale` that init also returns.
  static std::optional<LossScaling> find(const FunctionSpec &step,
                                         const FunctionSpec &init);

  /// The name of the state tensor holding the scale a step runs with.
  static const std::string &scaleName();

  /// Whether the state tensor `name` is the scale's (kept from a step whose
  /// update is dropped).
  static bool isScaleState(const std::string &name);

  /// The error when the scale after step `step` (from 0), `nextScale`, is
  /// below kMinLossScale or not finite.
  static std::optional<std::string> checkScale(int64_t step,
                                               double nextScale);
};

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_LOSSSCALING_H
