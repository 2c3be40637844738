//===- PipelineAutodiff.cpp - the training step of each pipeline stage ----===//
//
// Implements tessel-pipeline-autodiff: for every stage loss function that
// tessel-split-stages made, the gradient function `stage{s}_step` (one
// micro-batch's forward and backward, in one function until the layout is
// known), `stage{s}_init` (the stage's parameters and optimizer state) and
// `stage{s}_apply` (the optimizer's update from the gradients summed over
// the micro-batches, clipped by the global norm of every stage's
// gradients where asked).
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/Differentiate.h"
#include "passes/ElementTypes.h"
#include "passes/InlineLayers.h"
#include "passes/LossScaling.h"
#include "passes/Optimizers.h"
#include "passes/Pipelining.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_TESSELPIPELINEAUTODIFF
#include "passes/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

constexpr StringLiteral kNonNegativeAttr = "tessel.nonnegative";

struct TesselPipelineAutodiffPass
    : mlir::tessel::impl::TesselPipelineAutodiffBase<
          TesselPipelineAutodiffPass> {
  using TesselPipelineAutodiffBase::TesselPipelineAutodiffBase;

  void runOnOperation() final;

private:
  LogicalResult
  differentiateStage(func::FuncOp loss, unsigned stage, bool last,
                     const OptimizerConfig &config, int64_t microbatches,
                     FloatType computeType,
                     const std::optional<LossScaleConfig> &scaling,
                     llvm::StringSet<> &heldBefore);
  void buildApply(func::FuncOp after, unsigned stage,
                  ArrayRef<ParameterOp> parameters, ArrayRef<StateTensor> state,
                  ArrayRef<StateTensor> scalingState,
                  const OptimizerConfig &config,
                  const std::optional<LossScaleConfig> &scaling,
                  int64_t microbatches, const llvm::StringSet<> &heldBefore);
};

DictionaryAttr namedAttrs(OpBuilder &builder, StringRef name,
                          StringRef role = {}, bool nonNegative = false) {
  SmallVector<NamedAttribute> attrs = {builder.getNamedAttr(
      TesselDialect::kNameAttrName, builder.getStringAttr(name))};
  if (!role.empty())
    attrs.push_back(
        builder.getNamedAttr(kRoleAttrName, builder.getStringAttr(role)));
  if (nonNegative)
    attrs.push_back(
        builder.getNamedAttr(kNonNegativeAttr, builder.getUnitAttr()));
  return builder.getDictionaryAttr(attrs);
}

/// Marks every op of the stage's loss function that belongs to the forward
/// pass: all but the sum of outputs times cotangents that stands in for the
/// loss of a stage that is not the last. The marks survive differentiation
/// (its forward part is a copy of these ops) and the layout, and tell
/// tessel-split-forward-backward where the step divides.
void markForwardOps(func::FuncOp loss) {
  llvm::SmallPtrSet<Value, 8> cotangentDependent;
  for (auto [index, argument] : llvm::enumerate(loss.getArguments()))
    if (auto name = loss.getArgAttrOfType<StringAttr>(
            index, TesselDialect::kNameAttrName);
        name && name.getValue().ends_with(".gradient"))
      cotangentDependent.insert(argument);
  UnitAttr mark = UnitAttr::get(loss.getContext());
  for (Operation &op : loss.getBody().front().without_terminator()) {
    if (llvm::any_of(op.getOperands(), [&](Value operand) {
          return cotangentDependent.contains(operand);
        })) {
      for (Value result : op.getResults())
        cotangentDependent.insert(result);
      continue;
    }
    op.setAttr(TesselDialect::kPipelineForwardAttrName, mark);
  }
}

/// Mixed precision across stages: the activations a stage receives and
/// the cotangents that come back to it arrive in the compute type, as the
/// unpipelined step computes them, instead of widened to f32 by the stage
/// before and narrowed again here (the same values, half the bytes sent).
/// createMixedPrecisionCopy cast every argument from f32 where it is used;
/// the pipeline's own arguments take the cast's type instead.
void keepBoundariesNarrow(func::FuncOp copy) {
  Block &body = copy.getBody().front();
  for (BlockArgument argument : body.getArguments()) {
    auto name = copy.getArgAttrOfType<StringAttr>(argument.getArgNumber(),
                                                  TesselDialect::kNameAttrName);
    if (!name || !isPipelineTensorName(name.getValue()) ||
        !argument.hasOneUse())
      continue;
    auto cast = dyn_cast<CastOp>(*argument.user_begin());
    if (!cast)
      continue;
    argument.setType(cast.getType());
    cast.getResult().replaceAllUsesWith(argument);
    cast.erase();
  }
  copy.setFunctionType(FunctionType::get(
      copy.getContext(), body.getArgumentTypes(), copy.getResultTypes()));
}

void TesselPipelineAutodiffPass::buildApply(
    func::FuncOp after, unsigned stage, ArrayRef<ParameterOp> parameters,
    ArrayRef<StateTensor> state, ArrayRef<StateTensor> scalingState,
    const OptimizerConfig &config,
    const std::optional<LossScaleConfig> &scaling, int64_t microbatches,
    const llvm::StringSet<> &heldBefore) {
  OpBuilder builder(after);
  builder.setInsertionPointAfter(after);
  Location loc = after.getLoc();
  SmallVector<Type> types;
  SmallVector<DictionaryAttr> attrs;
  for (ParameterOp parameter : parameters) {
    types.push_back(parameter.getType());
    attrs.push_back(namedAttrs(builder, parameter.getName(), "parameter"));
  }
  // The loss scale and its count follow the optimizer's state, as they
  // follow it in @init and in what apply returns.
  for (const StateTensor &tensor :
       llvm::concat<const StateTensor>(state, scalingState)) {
    types.push_back(tensor.type);
    attrs.push_back(namedAttrs(builder, tensor.name, "optimizer_state",
                               tensor.nonNegative));
  }
  for (ParameterOp parameter : parameters) {
    types.push_back(parameter.getType());
    attrs.push_back(
        namedAttrs(builder, (parameter.getName() + ".gradient").str()));
  }
  NamedTensorType scalar = NamedTensorType::get(
      {}, {}, ParameterOp(parameters.front()).getType().getElementType());
  types.push_back(scalar);
  attrs.push_back(namedAttrs(builder, "learning_rate"));

  auto apply =
      func::FuncOp::create(builder, loc, stageFunctionName(stage, "apply"),
                           builder.getFunctionType(types, {}));
  apply.setAllArgAttrs(attrs);
  Block *body = apply.addEntryBlock();
  builder.setInsertionPointToEnd(body);
  TensorBuilder b(builder, loc);
  unsigned numParameters = parameters.size();
  unsigned perParameter = perParameterState(config.kind).size();
  // The driver sums the micro-batches' gradients; the loss of the step is
  // their mean.
  Value inverseCount = b.scalar(1.0 / double(microbatches),
                                scalar.getElementType());
  SmallVector<ParameterSlot> slots;
  for (unsigned i = 0; i < numParameters; ++i) {
    ParameterSlot slot;
    slot.parameter = body->getArgument(i);
    Value sum = body->getArgument(numParameters + state.size() +
                                  scalingState.size() + i);
    slot.gradient = microbatches == 1 ? sum : b.mul(sum, inverseCount);
    for (unsigned s = 0; s < perParameter; ++s)
      slot.state.push_back(
          body->getArgument(numParameters + i * perParameter + s));
    // A weight that an earlier stage holds too (a tied embedding) has the
    // same summed gradient there, where the global norm counts it.
    slot.inGlobalNorm =
        !heldBefore.contains(ParameterOp(parameters[i]).getName());
    slots.push_back(std::move(slot));
  }
  Value stepCount = countsSteps(config.kind)
                        ? body->getArgument(numParameters + state.size() - 1)
                        : Value();
  // The gradients of a scaled loss, unscaled before anything reads them.
  BlockArgument scale, goodSteps;
  if (scaling) {
    scale = body->getArgument(numParameters + state.size());
    goodSteps = body->getArgument(numParameters + state.size() + 1);
    unscaleGradients(b, *scaling, slots, scale);
  }
  OptimizerUpdate update = buildOptimizerUpdate(
      b, config, slots, body->getArguments().back(), stepCount);
  // The global norm of the gradients, for clipping and for the driver's
  // NaN policy, is over every stage's: after partitioning the stages' sums
  // of squares are added across the pipeline axis
  // (tessel-sum-gradient-norm-over-stages).
  update.gradientNorm.getDefiningOp()->setAttr(
      TesselDialect::kStageGradientNormAttrName, builder.getUnitAttr());
  SmallVector<Value> results(update.parameters);
  for (const SmallVector<Value> &slotState : update.state)
    llvm::append_range(results, slotState);
  if (update.step)
    results.push_back(update.step);
  // The next scale, from the norm of every stage's gradients: each stage
  // halves it, or counts a finite step, alike.
  if (scaling) {
    LossScaleUpdate next = buildLossScaleUpdate(b, *scaling, scale, goodSteps,
                                                update.gradientNorm);
    results.push_back(next.scale);
    results.push_back(next.goodSteps);
  }
  SmallVector<DictionaryAttr> resultAttrs;
  for (auto [index, value] : llvm::enumerate(results)) {
    auto name = apply.getArgAttrOfType<StringAttr>(
        index, TesselDialect::kNameAttrName);
    // Named like the argument, so that a layout override of a parameter
    // lays out its new value as it lays out the argument.
    if (Operation *producer = value.getDefiningOp())
      producer->setAttr(TesselDialect::kNameAttrName, name);
    resultAttrs.push_back(namedAttrs(builder, name.getValue()));
  }
  // Last, as tessel-autodiff's step returns it: the driver drops the update
  // of a step whose norm is not finite.
  update.gradientNorm.getDefiningOp()->setAttr(
      TesselDialect::kNameAttrName, builder.getStringAttr("gradient_norm"));
  results.push_back(update.gradientNorm);
  resultAttrs.push_back(namedAttrs(builder, "gradient_norm"));
  func::ReturnOp::create(builder, loc, results);
  apply.setFunctionType(
      builder.getFunctionType(types, ValueRange(results).getTypes()));
  apply.setAllResultAttrs(resultAttrs);
}

LogicalResult TesselPipelineAutodiffPass::differentiateStage(
    func::FuncOp loss, unsigned stage, bool last, const OptimizerConfig &config,
    int64_t microbatches, FloatType computeType,
    const std::optional<LossScaleConfig> &scaling,
    llvm::StringSet<> &heldBefore) {
  if (failed(mergeSharedParameters(loss)))
    return failure();
  SmallVector<ParameterOp> parameters = parametersOf(loss);
  // The driver passes tensors between the stage functions by name.
  for (ParameterOp parameter : parameters)
    if (isPipelineTensorName(parameter.getName()))
      return parameter.emitError()
             << "pipeline: weight '" << parameter.getName()
             << "' is named like a tensor that the pipeline passes between "
                "stages; rename it";
  for (ParameterOp parameter : parameters)
    if (parameter.getBuffer())
      return parameter.emitError()
             << "pipeline: buffer '" << parameter.getName()
             << "' (running statistics) is not supported in a pipelined "
                "step yet";
  if (parameters.empty())
    return loss.emitError() << "pipeline: stage " << stage
                            << " has no parameters to train; give it layers";
  // Mixed precision differentiates a copy that computes in the narrow
  // type from f32 weights, as tessel-autodiff does.
  func::FuncOp differentiated = loss;
  if (computeType) {
    differentiated = createMixedPrecisionCopy(
        loss, computeType, (loss.getSymName() + "_" + precision).str());
    keepBoundariesNarrow(differentiated);
  }
  markForwardOps(differentiated);
  FailureOr<func::FuncOp> step = createGradientFunction(
      differentiated, stageFunctionName(stage, "step"),
      /*withGradients=*/true,
      scaling && last ? StringRef(kLossScaleName) : StringRef());
  if (differentiated != loss)
    differentiated.erase();
  if (failed(step))
    return failure();

  SmallVector<StateTensor> state = optimizerStateOf(parameters, config.kind);
  // The scale is of the loss's type (the last stage's seed); every stage
  // keeps it, as every stage keeps Adam's step count.
  SmallVector<StateTensor> scalingState;
  if (scaling)
    scalingState = lossScaleStateOf(
        cast<NamedTensorType>(loss.getResultTypes().front()).getElementType(),
        *scaling);
  buildApply(*step, stage, parameters, state, scalingState, config, scaling,
             microbatches, heldBefore);
  llvm::append_range(state, scalingState);
  for (ParameterOp parameter : parameters)
    heldBefore.insert(parameter.getName());
  OpBuilder afterStep(*step);
  afterStep.setInsertionPointAfter(*step);
  buildInitFunction(afterStep, step->getLoc(), stageFunctionName(stage, "init"),
                    parameters, state);
  loss.erase();
  return success();
}

/// Makes the weights of every `stage{s}_evaluate` (tessel-split-stages)
/// its leading arguments, named as the stage's step takes them, which the
/// driver fills from the stage's trained state. An evaluation stage that
/// reads a weight its stage does not train (its layers fell into other
/// stages than the loss's) could not run: then every stage's evaluation
/// is erased, with a warning that says so.
LogicalResult liftEvaluationParameters(ModuleOp module, int64_t numStages) {
  SmallVector<func::FuncOp> evaluations;
  for (int64_t stage = 0; stage < numStages; ++stage)
    if (auto evaluate = module.lookupSymbol<func::FuncOp>(
            stageFunctionName(stage, "evaluate")))
      evaluations.push_back(evaluate);
  if (evaluations.empty())
    return success();
  if (static_cast<int64_t>(evaluations.size()) != numStages)
    return module.emitError()
           << "tessel-pipeline-autodiff: " << evaluations.size() << " of the "
           << numStages
           << " stages have their part of the evaluation; every stage has "
              "one, or none does";
  std::string reason;
  for (auto [stage, evaluate] : llvm::enumerate(evaluations)) {
    auto init =
        module.lookupSymbol<func::FuncOp>(stageFunctionName(stage, "init"));
    llvm::StringSet<> trained;
    for (unsigned i = 0; init && i < init.getNumResults(); ++i)
      if (auto name = init.getResultAttrOfType<StringAttr>(
              i, TesselDialect::kNameAttrName))
        trained.insert(name.getValue());
    // Two weights of one name and different types: an error, as in the
    // loss.
    if (failed(mergeSharedParameters(evaluate)))
      return failure();
    for (ParameterOp parameter : parametersOf(evaluate))
      if (!trained.contains(parameter.getName()) && reason.empty())
        reason = ("stage " + std::to_string(stage) + "'s evaluation reads '" +
                  parameter.getName() + "', which stage " +
                  std::to_string(stage) + " does not train")
                     .str();
    if (!reason.empty())
      break;
    moveParametersToArguments(evaluate);
  }
  if (reason.empty())
    return success();
  evaluations.front().emitWarning()
      << "pipeline: the evaluation is left out of the pipelined program, "
         "which then cannot evaluate: "
      << reason;
  for (func::FuncOp evaluate : evaluations)
    evaluate.erase();
  return success();
}

void TesselPipelineAutodiffPass::runOnOperation() {
  ModuleOp module = getOperation();
  auto pipeline =
      module->getAttrOfType<DictionaryAttr>(TesselDialect::kPipelineAttrName);
  if (!pipeline) {
    module.emitError() << "tessel-pipeline-autodiff: the module has no "
                          "stages (run tessel-split-stages first)";
    return signalPassFailure();
  }
  std::optional<OptimizerKind> kind = parseOptimizerKind(optimizer);
  if (!kind) {
    module.emitError() << "tessel-pipeline-autodiff: unknown optimizer '"
                       << optimizer << "' (expected sgd, momentum, adam or "
                                       "adamw)";
    return signalPassFailure();
  }
  // bf16 trains without loss scaling; f16 needs it, and a dynamic scale
  // would need every stage to agree on skipping a step.
  FloatType computeType;
  if (precision == "bf16") {
    computeType = BFloat16Type::get(&getContext());
  } else if (precision == "f16") {
    computeType = Float16Type::get(&getContext());
  } else if (precision != "f32") {
    module.emitError() << "tessel-pipeline-autodiff: unknown precision '"
                       << precision << "' (expected f32, bf16 or f16)";
    return signalPassFailure();
  }
  FailureOr<std::optional<LossScaleConfig>> scaling =
      parseLossScale(module, lossScale, precision, lossScaleGrowthInterval);
  if (failed(scaling))
    return signalPassFailure();
  OptimizerConfig config;
  config.kind = *kind;
  config.momentum = momentum;
  config.beta1 = beta1;
  config.beta2 = beta2;
  config.epsilon = epsilon;
  config.weightDecay = weightDecay;
  config.clipNorm = clipNorm;
  int64_t microbatches =
      cast<IntegerAttr>(pipeline.get("microbatches")).getInt();
  int64_t numStages = cast<IntegerAttr>(pipeline.get("stages")).getInt();
  // The weights of the stages done so far, by name.
  llvm::StringSet<> heldBefore;
  for (int64_t stage = 0; stage < numStages; ++stage) {
    auto loss = module.lookupSymbol<func::FuncOp>(
        stageFunctionName(stage, "loss"));
    if (!loss) {
      module.emitError() << "tessel-pipeline-autodiff: no @"
                         << stageFunctionName(stage, "loss");
      return signalPassFailure();
    }
    if (hasCalls(loss)) {
      loss.emitError() << "run tessel-inline-layers before "
                          "tessel-pipeline-autodiff";
      return signalPassFailure();
    }
    if (failed(differentiateStage(loss, stage, stage + 1 == numStages, config,
                                  microbatches, computeType, *scaling,
                                  heldBefore)))
      return signalPassFailure();
  }
  if (failed(liftEvaluationParameters(module, numStages)))
    return signalPassFailure();
}

} // namespace
