//===- LossScaling.cpp - Dynamic loss scaling in the training loop --------===//

#include "driver/LossScaling.h"

#include <fmt/format.h>

#include <cmath>

namespace tessel::driver {

namespace {

// The names tessel-autodiff gives the state (passes/LossScaling.h).
const std::string kScale = "loss_scale";
const std::string kGoodSteps = "loss_scale.good_steps";

} // namespace

std::optional<LossScaling> LossScaling::find(const FunctionSpec &step,
                                             const FunctionSpec &init) {
  bool initialised = false;
  for (const ValueSpec &result : init.results)
    initialised |= result.name == kScale;
  if (!initialised)
    return std::nullopt;
  for (size_t i = 0; i < step.results.size(); ++i)
    if (step.results[i].name == kScale &&
        step.results[i].local.numElements() == 1)
      return LossScaling{static_cast<int>(i)};
  return std::nullopt;
}

const std::string &LossScaling::scaleName() { return kScale; }

bool LossScaling::isScaleState(const std::string &name) {
  return name == kScale || name == kGoodSteps;
}

std::optional<std::string> LossScaling::checkScale(int64_t step,
                                                   double nextScale) {
  // A scale that is not finite halves to itself: every later step would be
  // skipped (a checkpoint can hold one, or a step compiled without the
  // growth's limit).
  if (!std::isfinite(nextScale))
    return fmt::format("step {}: the loss scale is {}: every step would "
                       "overflow and be skipped",
                       step + 1, std::isnan(nextScale) ? "nan" : "inf");
  if (nextScale >= kMinLossScale)
    return std::nullopt;
  return fmt::format(
      "step {}: the loss scale fell to {:g}, below 2^-24: the gradients are "
      "not finite at any scale (NaN data, or a learning rate that diverges?)",
      step + 1, nextScale);
}

} // namespace tessel::driver
