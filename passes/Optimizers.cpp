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

/// The type the gradients' squares are summed in: f32, or f64 if a
/// gradient is f64, so that parameters of different precisions add up.
Type squareSumType(TensorBuilder &b, ArrayRef<Value> gradients) {
  for (Value gradient : gradients)
    if (tensorTypeOf(gradient).getElementType().isF64())
      return b.builder.getF64Type();
  return b.builder.getF32Type();
}

/// The sum of the squares of all gradients together. A gradient narrower
/// than f32 is widened before it is squared (an f16 square overflows past
/// 256).
Value sumOfSquares(TensorBuilder &b, ArrayRef<Value> gradients) {
  Type sumType = squareSumType(b, gradients);
  // Every gradient's sum first, then their total: a split gradient's sum is
  // all-reduced after partitioning, and with all the sums computed before
  // the first addition those all_reduces can run at one point of the
  // program, where tessel-bucket-all-reduces makes them one call.
  SmallVector<Value> sums;
  for (Value gradient : gradients) {
    NamedTensorType type = tensorTypeOf(gradient);
    if (type.getElementType() != sumType)
      gradient = CastOp::create(b.builder, b.loc, type.withElementType(sumType),
                                gradient);
    sums.push_back(b.reduce(ReduceKind::Sum, b.mul(gradient, gradient),
                            NamedTensorType::get({}, {}, sumType)));
  }
  Value total = sums.front();
  for (Value sum : ArrayRef<Value>(sums).drop_front())
    total = b.add(total, sum);
  return total;
}

/// Scales every gradient by min(1, clipNorm / norm), where norm is the L2
/// norm of all gradients together.
void clipByGlobalNorm(TensorBuilder &b, double clipNorm, Value norm,
                      SmallVectorImpl<Value> &gradients) {
  Value limit = b.scalarLike(clipNorm, norm);
  Value scale = b.div(limit, b.max(norm, limit));
  for (Value &gradient : gradients) {
    Type elementType = tensorTypeOf(gradient).getElementType();
    Value gradientScale = scale;
    if (tensorTypeOf(scale).getElementType() != elementType)
      gradientScale = CastOp::create(
          b.builder, b.loc, tensorTypeOf(scale).withElementType(elementType),
          scale);
    gradient = b.mul(gradient, gradientScale);
  }
}

} // namespace

OptimizerUpdate mlir::tessel::buildOptimizerUpdate(
    TensorBuilder &b, const OptimizerConfig &config,
    ArrayRef<ParameterSlot> slots, Value learningRate, Value step) {
  SmallVector<Value> gradients, normed;
  for (const ParameterSlot &slot : slots) {
    gradients.push_back(slot.gradient);
    if (slot.inGlobalNorm)
      normed.push_back(slot.gradient);
  }
  OptimizerUpdate update;
  // The global norm is one scalar (a sum of squares, all-reduced where the
  // gradients are split) that the step returns, so that the driver can
  // stop or skip a step whose gradients are not finite before they reach
  // the parameters; clipping scales by the same norm.
  // With none in the norm (a pipeline stage whose weights an earlier stage
  // holds), its own part is a zero of the type the other stages sum in.
  if (!gradients.empty())
    update.gradientNorm =
        b.sqrt(normed.empty() ? b.scalar(0.0, squareSumType(b, gradients))
                              : sumOfSquares(b, normed));
  if (config.clipNorm > 0 && !gradients.empty())
    clipByGlobalNorm(b, config.clipNorm, update.gradientNorm, gradients);

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

SmallVector<StateTensor>
mlir::tessel::optimizerStateOf(ArrayRef<ParameterOp> parameters,
                               OptimizerKind kind) {
  SmallVector<StateTensor> state;
  for (ParameterOp parameter : parameters)
    for (StringRef suffix : perParameterState(kind))
      state.push_back({(parameter.getName() + "." + suffix).str(),
                       parameter.getType(), isNonNegativeState(suffix)});
  if (countsSteps(kind) && !parameters.empty())
    state.push_back(
        {"step",
         NamedTensorType::get(
             {}, {},
             ParameterOp(parameters.front()).getType().getElementType()),
         true});
  return state;
}

func::FuncOp mlir::tessel::buildInitFunction(OpBuilder &builder, Location loc,
                                             StringRef name,
                                             ArrayRef<ParameterOp> parameters,
                                             ArrayRef<StateTensor> state) {
  auto init =
      func::FuncOp::create(builder, loc, name, builder.getFunctionType({}, {}));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(init.addEntryBlock());
  StringAttr nameAttr = builder.getStringAttr(TesselDialect::kNameAttrName);
  SmallVector<Value> results;
  SmallVector<StringAttr> names;
  for (ParameterOp parameter : parameters) {
    results.push_back(builder.clone(*parameter)->getResult(0));
    names.push_back(parameter.getNameAttr());
  }
  for (const StateTensor &tensor : state) {
    auto initial = ConstantOp::create(
        builder, loc, tensor.type,
        builder.getFloatAttr(tensor.type.getElementType(),
                             tensor.initialValue));
    initial->setAttr(nameAttr, builder.getStringAttr(tensor.name));
    results.push_back(initial);
    names.push_back(builder.getStringAttr(tensor.name));
  }
  func::ReturnOp::create(builder, loc, results);
  init.setFunctionType(
      builder.getFunctionType({}, ValueRange(results).getTypes()));
  for (auto [index, resultName] : llvm::enumerate(names))
    init.setResultAttr(index, nameAttr, resultName);
  return init;
}
