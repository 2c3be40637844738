//===- LossScaling.cpp - dynamic loss scaling of a training step ----------===//

#include "passes/LossScaling.h"

#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::tessel;

FailureOr<std::optional<LossScaleConfig>>
mlir::tessel::parseLossScale(ModuleOp module, StringRef spec,
                             StringRef precision, int64_t growthInterval) {
  // The count of finite steps is a float scalar, exact up to 2^24.
  if (growthInterval < 1 || growthInterval > (int64_t(1) << 24)) {
    module.emitError() << "tessel-autodiff: loss-scale-growth-interval "
                       << growthInterval << " must be between 1 and 2^24";
    return failure();
  }
  LossScaleConfig config;
  config.growthInterval = growthInterval;
  const llvm::fltSemantics &seedSemantics =
      precision == "f16"    ? llvm::APFloat::IEEEhalf()
      : precision == "bf16" ? llvm::APFloat::BFloat()
                            : llvm::APFloat::IEEEsingle();
  config.largestScale =
      llvm::APFloat::getLargest(seedSemantics).convertToDouble();
  Builder types(module.getContext());
  if (precision == "f16")
    config.seedType = types.getF16Type();
  else if (precision == "bf16")
    config.seedType = types.getBF16Type();
  if (spec == "off")
    return std::optional<LossScaleConfig>();
  if (spec == "auto")
    return precision == "f16" ? std::optional<LossScaleConfig>(config)
                              : std::optional<LossScaleConfig>();
  double scale = 0;
  if (spec.getAsDouble(scale) || !std::isfinite(scale) || scale <= 0) {
    module.emitError() << "tessel-autodiff: loss-scale '" << spec
                       << "' is not auto, off or a positive number";
    return failure();
  }
  // The scale is an f32 scalar: a larger one would start as inf, and halve
  // to inf at every step.
  if (scale > std::numeric_limits<float>::max()) {
    module.emitError() << "tessel-autodiff: loss-scale '" << spec
                       << "' is beyond f32's largest value, 3.4e38";
    return failure();
  }
  // The driver stops training after a step whose scale is below 2^-24
  // (f16's smallest subnormal, runtime/driver/LossScaling.h).
  if (scale < 0x1p-24) {
    module.emitError() << "tessel-autodiff: loss-scale '" << spec
                       << "' is below 2^-24 (5.96e-08), where training stops";
    return failure();
  }
  config.initialScale = scale;
  return std::optional<LossScaleConfig>(config);
}

SmallVector<StateTensor>
mlir::tessel::lossScaleStateOf(Type elementType,
                               const LossScaleConfig &config) {
  auto scalar = NamedTensorType::get({}, {}, elementType);
  return {{kLossScaleName.str(), scalar, /*nonNegative=*/true,
           config.initialScale},
          {kLossScaleGoodStepsName.str(), scalar, /*nonNegative=*/true, 0.0}};
}

void mlir::tessel::unscaleGradients(TensorBuilder &b,
                                    const LossScaleConfig &config,
                                    MutableArrayRef<ParameterSlot> slots,
                                    Value scale) {
  // The backward pass starts from the scale cast to the seed's type (f16's
  // 2049 is 2048, bf16's 3000 is 3008): dividing by the f32 scale instead
  // would leave every gradient off by that rounding.
  Value seed = scale;
  if (config.seedType) {
    NamedTensorType scaleType = tensorTypeOf(scale);
    Value narrow = CastOp::create(
        b.builder, b.loc, NamedTensorType::get({}, {}, config.seedType), scale);
    seed = CastOp::create(b.builder, b.loc, scaleType, narrow);
  }
  Value inverse = b.div(b.scalarLike(1.0, seed), seed);
  for (ParameterSlot &slot : slots) {
    Type gradientType = tensorTypeOf(slot.gradient).getElementType();
    Value factor = inverse;
    if (tensorTypeOf(inverse).getElementType() != gradientType)
      factor = CastOp::create(b.builder, b.loc,
                              NamedTensorType::get({}, {}, gradientType),
                              inverse);
    slot.gradient = b.mul(slot.gradient, factor);
  }
}

LossScaleUpdate mlir::tessel::buildLossScaleUpdate(
    TensorBuilder &b, const LossScaleConfig &config, Value scale,
    Value goodSteps, Value gradientNorm) {
  NamedTensorType type = tensorTypeOf(scale);
  // NaN < inf and inf < inf are both false.
  Value finite =
      b.compare(CompareKind::Lt, gradientNorm,
                b.scalarLike(std::numeric_limits<double>::infinity(),
                             gradientNorm));
  Value counted = b.add(goodSteps, b.scalarLike(1.0, goodSteps));
  Value grows =
      b.compare(CompareKind::Ge, counted,
                b.scalarLike(static_cast<double>(config.growthInterval),
                             counted));
  // GradScaler keeps a scale whose double is not finite; here the double
  // must also be finite in the seed's type (LossScaling.h).
  Value doubled = b.mul(scale, b.scalarLike(2.0, scale));
  Value doubles = b.compare(CompareKind::Le, doubled,
                            b.scalarLike(config.largestScale, doubled));
  Value afterFinite =
      b.select(grows, b.select(doubles, doubled, scale, type), scale, type);
  Value halved = b.mul(scale, b.scalarLike(0.5, scale));
  LossScaleUpdate update;
  update.scale = b.select(finite, afterFinite, halved, type);
  Value zero = b.scalarLike(0.0, goodSteps);
  update.goodSteps =
      b.select(finite, b.select(grows, zero, counted, type), zero, type);
  return update;
}
