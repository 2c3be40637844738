//===- Optimizers.cpp - parameter updates as model-level ops --------------===//

#include "passes/Optimizers.h"

using namespace mlir;
using namespace mlir::tessel;

std::optional<OptimizerKind> mlir::tessel::parseOptimizerKind(StringRef name) {
  return llvm::StringSwitch<std::optional<OptimizerKind>>(name)
      .Case("sgd", OptimizerKind::Sgd)
      .Case("momentum", OptimizerKind::Momentum)
      .Case("adam", OptimizerKind::Adam)
      .Case("adamw", OptimizerKind::AdamW)
      .Default(std::nullopt);
}

SmallVector<StringRef> mlir::tessel::perParameterState(OptimizerKind kind) {
  switch (kind) {
  case OptimizerKind::Sgd:
    return {};
  case OptimizerKind::Momentum:
    return {"momentum"};
  case OptimizerKind::Adam:
  case OptimizerKind::AdamW:
    return {"adam_m", "adam_v"};
  }
  llvm_unreachable("unknown optimizer");
}

bool mlir::tessel::countsSteps(OptimizerKind kind) {
  return kind == OptimizerKind::Adam || kind == OptimizerKind::AdamW;
}

bool mlir::tessel::isNonNegativeState(StringRef suffix) {
  return suffix == "adam_v" || suffix == "step";
}

namespace {

/// Scales every gradient by min(1, clipNorm / ||g||), where ||g|| is the L2
/// norm of all gradients together.
void clipByGlobalNorm(TensorBuilder &b, double clipNorm,
                      SmallVectorImpl<Value> &gradients) {
  Value sumOfSquares;
  for (Value gradient : gradients) {
    NamedTensorType type = tensorTypeOf(gradient);
    Value squares =
        b.reduce(ReduceKind::Sum, b.mul(gradient, gradient),
                 NamedTensorType::get({}, {}, type.getElementType()));
    sumOfSquares = sumOfSquares ? b.add(sumOfSquares, squares) : squares;
  }
  Value limit = b.scalarLike(clipNorm, sumOfSquares);
  Value scale = b.div(limit, b.max(b.sqrt(sumOfSquares), limit));
  for (Value &gradient : gradients)
    gradient = b.mul(gradient, scale);
}

} // namespace

OptimizerUpdate mlir::tessel::buildOptimizerUpdate(
    TensorBuilder &b, const OptimizerConfig &config,
    ArrayRef<ParameterSlot> slots, Value learningRate, Value step) {
  SmallVector<Value> gradients;
  for (const ParameterSlot &slot : slots)
    gradients.push_back(slot.gradient);
  if (config.clipNorm > 0 && !gradients.empty())
    clipByGlobalNorm(b, config.clipNorm, gradients);

  OptimizerUpdate update;
  // Adam's bias corrections 1 - beta^t depend on the step only. They are
  // computed in f64, as PyTorch computes them on the host, and rounded once
  // to the parameters' precision: from f32(0.999) = 0.99900001287, 1 - beta2
  // would be 1.3e-5 off and every step about 6e-6 off PyTorch's.
  Value correction1, correction2;
  if (countsSteps(config.kind)) {
    update.step = b.add(step, b.scalarLike(1.0, step));
    Type f64 = b.builder.getF64Type();
    Value exactStep = CastOp::create(
        b.builder, b.loc, tensorTypeOf(update.step).withElementType(f64),
        update.step);
    auto exact = [&](double value) { return b.scalar(value, f64); };
    correction1 =
        b.sub(exact(1.0), b.binary<PowOp>(exact(config.beta1), exactStep));
    correction2 =
        b.sub(exact(1.0), b.binary<PowOp>(exact(config.beta2), exactStep));
  }
  bool decoupledDecay = config.kind == OptimizerKind::AdamW;
  for (auto [slot, clipped] : llvm::zip(slots, gradients)) {
    Value p = slot.parameter;
    Value g = clipped;
    // Scalars (hyperparameters, the learning rate, Adam's corrections) take
    // the parameter's precision.
    Type elementType = tensorTypeOf(p).getElementType();
    auto constant = [&](double value) { return b.scalar(value, elementType); };
    auto inPrecision = [&](Value scalar) -> Value {
      if (tensorTypeOf(scalar).getElementType() == elementType)
        return scalar;
      return CastOp::create(b.builder, b.loc,
                            tensorTypeOf(scalar).withElementType(elementType),
                            scalar);
    };
    if (config.weightDecay > 0 && !decoupledDecay)
      g = b.add(g, b.mul(p, constant(config.weightDecay)));
    Value direction;
    SmallVector<Value> state;
    switch (config.kind) {
    case OptimizerKind::Sgd:
      direction = g;
      break;
    case OptimizerKind::Momentum: {
      // v' = mu v + g; p' = p - lr v'.
      Value velocity =
          b.add(b.mul(slot.state[0], constant(config.momentum)), g);
      state.push_back(velocity);
      direction = velocity;
      break;
    }
    case OptimizerKind::Adam:
    case OptimizerKind::AdamW: {
      // m' = b1 m + (1 - b1) g; v' = b2 v + (1 - b2) g^2;
      // p' = p - lr (m' / c1) / (sqrt(v' / c2) + eps).
      Value m = b.add(b.mul(slot.state[0], constant(config.beta1)),
                      b.mul(g, constant(1.0 - config.beta1)));
      Value v = b.add(b.mul(slot.state[1], constant(config.beta2)),
                      b.mul(b.mul(g, g), constant(1.0 - config.beta2)));
      state.push_back(m);
      state.push_back(v);
      direction = b.div(b.div(m, inPrecision(correction1)),
                        b.add(b.sqrt(b.div(v, inPrecision(correction2))),
                              constant(config.epsilon)));
      if (decoupledDecay && config.weightDecay > 0)
        direction = b.add(direction, b.mul(p, constant(config.weightDecay)));
      break;
    }
    }
    update.parameters.push_back(
        b.sub(p, b.mul(direction, inPrecision(learningRate))));
    update.state.push_back(std::move(state));
  }
  return update;
}
