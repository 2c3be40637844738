//===- Autodiff.cpp - the training step of a model, from its loss ---------===//
//
// Implements tessel-autodiff: @init and @train_step beside the loss
// function. The gradient comes from createGradientFunction; this pass adds
// the optimizer's state and update around it, and dynamic loss scaling
// (LossScaling.h) when it is on.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/Differentiate.h"
#include "passes/ElementTypes.h"
#include "passes/InlineLayers.h"
#include "passes/LossScaling.h"
#include "passes/Optimizers.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_TESSELAUTODIFF
#include "passes/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

constexpr StringLiteral kNameAttr = "tessel.name";
constexpr StringLiteral kNonNegativeAttr = "tessel.nonnegative";

struct TesselAutodiffPass
    : mlir::tessel::impl::TesselAutodiffBase<TesselAutodiffPass> {
  using TesselAutodiffBase::TesselAutodiffBase;

  void runOnOperation() final;

private:
  LogicalResult buildTrainStep(func::FuncOp step,
                               ArrayRef<ParameterOp> parameters,
                               ArrayRef<StateTensor> state,
                               const OptimizerConfig &config,
                               const std::optional<LossScaleConfig> &scaling,
                               ArrayRef<StateTensor> scalingState);
};

// The gradient function has arguments (parameters..., data...) and results
// (loss, parameter gradients..., data gradients...). The step gets the
// state after the parameters and the learning rate last, and returns the
// updated parameters and state, then the loss and the gradients' global
// norm. With loss scaling, the gradient function's last argument is the
// scale its backward pass starts from; it becomes the loss-scale state,
// after the optimizer's.
LogicalResult TesselAutodiffPass::buildTrainStep(
    func::FuncOp step, ArrayRef<ParameterOp> parameters,
    ArrayRef<StateTensor> state, const OptimizerConfig &config,
    const std::optional<LossScaleConfig> &scaling,
    ArrayRef<StateTensor> scalingState) {
  OpBuilder builder(step.getContext());
  Location loc = step.getLoc();
  unsigned numParameters = parameters.size();
  // A buffer's next value is what its tessel.update_buffer yields (the
  // buffer unchanged where it has none); the op goes, its value stays.
  llvm::DenseMap<unsigned, Value> bufferUpdates;
  WalkResult updated = step.walk([&](UpdateBufferOp update) {
    Value buffer = update.getBuffer();
    while (auto cast = buffer.getDefiningOp<CastOp>())
      buffer = cast.getInput();
    auto argument = dyn_cast<BlockArgument>(buffer);
    if (!argument || argument.getOwner() != &step.getBody().front() ||
        argument.getArgNumber() >= numParameters ||
        !ParameterOp(parameters[argument.getArgNumber()]).getBuffer()) {
      update.emitOpError() << "updates a value that is not a buffer of the "
                              "loss function";
      return WalkResult::interrupt();
    }
    if (!bufferUpdates.try_emplace(argument.getArgNumber(), update.getValue())
             .second) {
      update.emitOpError() << "updates buffer '"
                           << ParameterOp(parameters[argument.getArgNumber()]).getName()
                           << "' a second time";
      return WalkResult::interrupt();
    }
    update.replaceAllUsesWith(update.getValue());
    update.erase();
    return WalkResult::advance();
  });
  if (updated.wasInterrupted())
    return failure();
  BlockArgument seed =
      scaling ? step.getArgument(step.getNumArguments() - 1) : BlockArgument();
  SmallVector<StateTensor> carried(state);
  llvm::append_range(carried, scalingState);
  for (auto [offset, tensor] : llvm::enumerate(carried)) {
    SmallVector<NamedAttribute> attrs = {
        builder.getNamedAttr(kNameAttr, builder.getStringAttr(tensor.name)),
        builder.getNamedAttr(kRoleAttrName,
                             builder.getStringAttr("optimizer_state"))};
    if (tensor.nonNegative)
      attrs.push_back(
          builder.getNamedAttr(kNonNegativeAttr, builder.getUnitAttr()));
    if (failed(step.insertArgument(numParameters + offset, tensor.type,
                                   builder.getDictionaryAttr(attrs), loc)))
      return failure();
  }
  if (failed(step.insertArgument(
          step.getNumArguments(),
          NamedTensorType::get(
              {}, {}, tensorTypeOf(step.getArgument(0)).getElementType()),
          builder.getDictionaryAttr({builder.getNamedAttr(
              kNameAttr, builder.getStringAttr("learning_rate"))}),
          loc)))
    return failure();

  Block &body = step.getBody().front();
  auto oldReturn = cast<func::ReturnOp>(body.getTerminator());
  builder.setInsertionPoint(oldReturn);
  TensorBuilder b(builder, loc);
  unsigned perParameter = perParameterState(config.kind).size();
  SmallVector<ParameterSlot> slots;
  unsigned trained = 0;
  for (unsigned i = 0; i < numParameters; ++i) {
    if (ParameterOp(parameters[i]).getBuffer())
      continue; // no gradient, no optimizer
    ParameterSlot slot;
    slot.parameter = body.getArgument(i);
    slot.gradient = oldReturn.getOperand(1 + i);
    for (unsigned s = 0; s < perParameter; ++s)
      slot.state.push_back(
          body.getArgument(numParameters + trained * perParameter + s));
    slots.push_back(std::move(slot));
    ++trained;
  }
  Value stepCount = countsSteps(config.kind)
                        ? body.getArgument(numParameters + state.size() - 1)
                        : Value();
  Value learningRate = body.getArgument(step.getNumArguments() - 1);
  if (scaling)
    unscaleGradients(b, *scaling, slots,
                     body.getArgument(numParameters + state.size()));
  OptimizerUpdate update =
      buildOptimizerUpdate(b, config, slots, learningRate, stepCount);

  SmallVector<Value> results;
  for (unsigned i = 0, next = 0; i < numParameters; ++i) {
    if (!ParameterOp(parameters[i]).getBuffer()) {
      results.push_back(update.parameters[next++]);
      continue;
    }
    Value argument = body.getArgument(i);
    Value value = bufferUpdates.lookup(i);
    if (!value)
      value = argument;
    else if (value.getType() != argument.getType()) // mixed precision
      value = CastOp::create(builder, loc, argument.getType(), value);
    results.push_back(value);
  }
  for (const SmallVector<Value> &slotState : update.state)
    llvm::append_range(results, slotState);
  if (update.step)
    results.push_back(update.step);
  if (scaling) {
    BlockArgument scale = body.getArgument(numParameters + state.size());
    LossScaleUpdate next = buildLossScaleUpdate(
        b, *scaling, scale, body.getArgument(scale.getArgNumber() + 1),
        update.gradientNorm);
    results.push_back(next.scale);
    results.push_back(next.goodSteps);
    seed.replaceAllUsesWith(scale);
    if (failed(step.eraseArgument(seed.getArgNumber())))
      return failure();
  }
  // The new values carry their tensors' names, so that a layout file's
  // override for a parameter (say `unembed: {vocab: model}`) lays out the
  // value the step returns as it lays out the argument the next step takes.
  for (auto [index, value] : llvm::enumerate(results))
    if (Operation *producer = value.getDefiningOp())
      producer->setAttr(kNameAttr, step.getArgAttr(index, kNameAttr));
  results.push_back(oldReturn.getOperand(0));
  // The gradients' global norm, last: the driver stops (or skips) a step
  // whose norm is not finite, before its update reaches the parameters.
  update.gradientNorm.getDefiningOp()->setAttr(
      kNameAttr, builder.getStringAttr("gradient_norm"));
  results.push_back(update.gradientNorm);
  func::ReturnOp::create(builder, loc, results);
  oldReturn.erase();

  SmallVector<DictionaryAttr> resultAttrs;
  for (unsigned i = 0; i < numParameters + carried.size(); ++i)
    resultAttrs.push_back(builder.getDictionaryAttr(
        {builder.getNamedAttr(kNameAttr, step.getArgAttr(i, kNameAttr))}));
  resultAttrs.push_back(builder.getDictionaryAttr(
      {builder.getNamedAttr(kNameAttr, builder.getStringAttr("loss"))}));
  resultAttrs.push_back(builder.getDictionaryAttr({builder.getNamedAttr(
      kNameAttr, builder.getStringAttr("gradient_norm"))}));
  step.setFunctionType(builder.getFunctionType(step.getArgumentTypes(),
                                               ValueRange(results).getTypes()));
  step.setAllResultAttrs(resultAttrs);
  return success();
}

void TesselAutodiffPass::runOnOperation() {
  ModuleOp module = getOperation();
  auto lossFunction = module.lookupSymbol<func::FuncOp>(functionName);
  if (!lossFunction) {
    module.emitError() << "tessel-autodiff: no function '" << functionName
                       << "' to differentiate";
    return signalPassFailure();
  }
  for (StringRef taken : {"init", "train_step"})
    if (module.lookupSymbol(taken)) {
      module.emitError() << "tessel-autodiff: the module already has a '"
                         << taken << "' symbol";
      return signalPassFailure();
    }
  // Layers are inlined first (tessel-inline-layers): the parameters a
  // called function declares are the model's too, which this pass would not
  // see through a call.
  for (auto func : module.getOps<func::FuncOp>()) {
    WalkResult called = func.walk([&](func::CallOp call) {
      call.emitError() << "function '" << func.getSymName() << "' calls @"
                       << call.getCallee()
                       << ": run tessel-inline-layers before tessel-autodiff "
                          "(tessel compile, tessel explain and tessel-eval "
                          "inline layers themselves)";
      return WalkResult::interrupt();
    });
    if (called.wasInterrupted())
      return signalPassFailure();
  }
  // One name is one weight: parameters declared twice under one name (a
  // tied embedding) become one, which gets one gradient, the sum of its
  // uses', and appears once in @init and @train_step.
  bool shared = true;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal())
      shared &= succeeded(mergeSharedParameters(func));
  if (!shared)
    return signalPassFailure();
  std::optional<OptimizerKind> kind = parseOptimizerKind(optimizer);
  if (!kind) {
    module.emitError() << "tessel-autodiff: unknown optimizer '" << optimizer
                       << "' (expected sgd, momentum, adam or adamw)";
    return signalPassFailure();
  }
  OptimizerConfig config;
  config.kind = *kind;
  config.momentum = momentum;
  config.beta1 = beta1;
  config.beta2 = beta2;
  config.epsilon = epsilon;
  config.weightDecay = weightDecay;
  config.clipNorm = clipNorm;

  SmallVector<ParameterOp> parameters = parametersOf(lossFunction);
  // Buffers (batch norm's running statistics) are carried by the step but
  // not trained.
  SmallVector<ParameterOp> trainable;
  for (ParameterOp parameter : parameters)
    if (!parameter.getBuffer())
      trainable.push_back(parameter);
  if (trainable.empty()) {
    lossFunction.emitError() << "function '" << functionName
                             << "' declares no tessel.parameter to train";
    return signalPassFailure();
  }
  // Mixed precision differentiates a copy that computes in the narrow type
  // from f32 inputs.
  func::FuncOp differentiated = lossFunction;
  if (precision != "f32") {
    Builder types(&getContext());
    FloatType computeType = precision == "bf16" ? FloatType(types.getBF16Type())
                            : precision == "f16" ? FloatType(types.getF16Type())
                                                 : FloatType();
    if (!computeType) {
      module.emitError() << "tessel-autodiff: unknown precision '" << precision
                         << "' (expected f32, bf16 or f16)";
      return signalPassFailure();
    }
    differentiated = createMixedPrecisionCopy(lossFunction, computeType,
                                              functionName + "_" + precision);
  }
  FailureOr<std::optional<LossScaleConfig>> scaling = parseLossScale(
      module, lossScale, precision, lossScaleGrowthInterval);
  if (failed(scaling))
    return signalPassFailure();
  FailureOr<func::FuncOp> step = createGradientFunction(
      differentiated, "train_step", /*withGradients=*/true,
      *scaling ? StringRef(kLossScaleName) : StringRef());
  if (differentiated != lossFunction)
    differentiated.erase();
  if (failed(step))
    return signalPassFailure();
  SmallVector<StateTensor> state = optimizerStateOf(trainable, config.kind);
  // The scale is of the loss's type (the gradient function's seed).
  SmallVector<StateTensor> scalingState;
  if (*scaling)
    scalingState = lossScaleStateOf(
        cast<NamedTensorType>(lossFunction.getResultTypes().front())
            .getElementType(),
        **scaling);
  if (failed(buildTrainStep(*step, parameters, state, config, *scaling,
                            scalingState)))
    return signalPassFailure();
  // Gradients of the data are not part of a training step.
  eraseDeadOps(*step);
  llvm::append_range(state, scalingState);
  OpBuilder atEnd = OpBuilder::atBlockEnd(module.getBody());
  buildInitFunction(atEnd, lossFunction.getLoc(), "init", parameters, state);
  // The loss function computes the loss; a buffer's update is the step's.
  eraseBufferUpdates(lossFunction);
  // Other functions (an evaluation, say) run on the trained parameters.
  for (auto func : module.getOps<func::FuncOp>())
    if (func != lossFunction && func != *step && func.getSymName() != "init" &&
        !func.isExternal())
      moveParametersToArguments(func);
}

} // namespace
