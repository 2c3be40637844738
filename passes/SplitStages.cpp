//===- SplitStages.cpp - a model's loss cut into pipeline stages ----------===//
//
// Implements tessel-split-stages: reads the layout file's `pipeline:`
// section, cuts the loss function's batch into micro-batches, and cuts the
// function itself, at its layer calls, into one loss function per stage
// (docs/pipeline.md). Stage s's function takes the data it uses and the
// activations that cross from stage s-1 and, unless it is the last, the
// cotangents of the activations it hands to stage s+1; it returns a scalar
// whose gradient is the stage's part of the model's gradient, so that
// tessel-pipeline-autodiff can differentiate each stage as a loss. A
// model's `evaluate`, where its layer calls fall into the same stages, is
// cut likewise into `stage{s}_evaluate`, forward only.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/MicrobatchDims.h"
#include "passes/Pipelining.h"

#include "dialect/MeshConversion.h"
#include "dialect/TensorBuilder.h"
#include "layouts/LayoutFile.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_TESSELSPLITSTAGES
#include "passes/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;
namespace layout = ::tessel::layout;

namespace {

/// An op that reads nothing (a parameter, a constant, an iota) is not an
/// activation: every stage that uses it makes its own, so a weight used by
/// two stages is one shared weight of both rather than data sent between
/// them.
bool isFree(Operation *op) {
  return op->getNumOperands() == 0 && op->getNumRegions() == 0;
}

struct TesselSplitStagesPass
    : mlir::tessel::impl::TesselSplitStagesBase<TesselSplitStagesPass> {
  using TesselSplitStagesBase::TesselSplitStagesBase;

  void runOnOperation() final;

private:
  std::optional<layout::PipelineSpec> readPipeline(int64_t &numStages);
  LogicalResult cutIntoMicrobatches(func::FuncOp loss,
                                    const layout::PipelineSpec &pipeline);
  /// The stage of every op of the loss function's body, in order.
  FailureOr<SmallVector<unsigned>>
  assignStages(func::FuncOp loss, const layout::PipelineSpec &pipeline,
               unsigned numStages);
  /// Builds stage `stage`'s loss function after `after`.
  func::FuncOp buildStage(func::FuncOp loss, Operation *after, unsigned stage,
                          unsigned numStages, ArrayRef<Operation *> ops,
                          ArrayRef<unsigned> stageOf,
                          ArrayRef<SmallVector<Value>> crossing);
  /// Cuts `evaluate` into `stage{s}_evaluate` functions at the stages of its
  /// layer calls, after `after`; nothing, after a warning that says why the
  /// pipelined program has no evaluation, where it cannot be cut.
  SmallVector<func::FuncOp> splitEvaluate(func::FuncOp evaluate,
                                          Operation *after,
                                          const layout::PipelineSpec &pipeline,
                                          unsigned numStages);
};

/// The values each stage receives from the stage before it, by the stage
/// that receives them: made before it and used there or later, in the
/// order they are made. `nonFloat` is the first op one of whose crossing
/// values is not a float tensor (only those can cross), if any.
struct Crossing {
  SmallVector<SmallVector<Value>> into;
  Operation *nonFloat = nullptr;
  Type nonFloatType;
  unsigned nonFloatFrom = 0, nonFloatTo = 0;
};

Crossing findCrossing(ArrayRef<Operation *> ops, ArrayRef<unsigned> stageOf,
                      unsigned numStages) {
  llvm::DenseMap<Operation *, unsigned> stageOfOp;
  for (auto [op, stage] : llvm::zip(ops, stageOf))
    stageOfOp[op] = stage;
  Crossing crossing;
  crossing.into.resize(numStages + 1);
  for (auto [op, stage] : llvm::zip(ops, stageOf)) {
    if (isFree(op))
      continue;
    for (Value result : op->getResults()) {
      unsigned lastUse = stage;
      for (Operation *user : result.getUsers())
        lastUse = std::max(lastUse, isa<func::ReturnOp>(user)
                                        ? unsigned(numStages - 1)
                                        : stageOfOp.lookup(user));
      if (lastUse == stage)
        continue;
      auto type = dyn_cast<NamedTensorType>(result.getType());
      if ((!type || !isa<FloatType>(type.getElementType())) &&
          !crossing.nonFloat) {
        crossing.nonFloat = op;
        crossing.nonFloatType = result.getType();
        crossing.nonFloatFrom = stage;
        crossing.nonFloatTo = lastUse;
      }
      for (unsigned b = stage + 1; b <= lastUse; ++b)
        crossing.into[b].push_back(result);
    }
  }
  return crossing;
}

/// The data arguments of `func` that the ops of stage `stage` read (and,
/// for the last stage, that `func` returns), in `func`'s order.
llvm::SetVector<Value> dataUsedBy(func::FuncOp func, unsigned stage, bool last,
                                  ArrayRef<Operation *> ops,
                                  ArrayRef<unsigned> stageOf) {
  llvm::SetVector<Value> used;
  for (auto [op, opStage] : llvm::zip(ops, stageOf))
    if (opStage == stage)
      for (Value operand : op->getOperands())
        if (isa<BlockArgument>(operand))
          used.insert(operand);
  if (last)
    for (Value returned : func.getBody().front().getTerminator()->getOperands())
      if (isa<BlockArgument>(returned))
        used.insert(returned);
  llvm::SetVector<Value> ordered;
  for (BlockArgument argument : func.getArguments())
    if (used.contains(argument))
      ordered.insert(argument);
  return ordered;
}

/// A `tessel.name` argument or result attribute.
DictionaryAttr named(Builder &builder, const std::string &name) {
  return builder.getDictionaryAttr({builder.getNamedAttr(
      TesselDialect::kNameAttrName, builder.getStringAttr(name))});
}

/// The arguments a stage function of `func` starts with: `dataUsed`, with
/// `func`'s attributes, then the activations `inputs` stage `stage`
/// receives, named `stage{stage}.input{k}`.
void addStageArguments(Builder &builder, func::FuncOp func,
                       const llvm::SetVector<Value> &dataUsed,
                       ArrayRef<Value> inputs, unsigned stage,
                       SmallVectorImpl<Type> &types,
                       SmallVectorImpl<DictionaryAttr> &attrs) {
  for (Value data : dataUsed) {
    auto argument = cast<BlockArgument>(data);
    types.push_back(argument.getType());
    DictionaryAttr given = func.getArgAttrDict(argument.getArgNumber());
    attrs.push_back(given ? given : builder.getDictionaryAttr({}));
  }
  for (auto [k, input] : llvm::enumerate(inputs)) {
    types.push_back(input.getType());
    attrs.push_back(named(builder, boundaryName(stage, k)));
  }
}

/// What reads nothing is made where it is used: clones `value`'s producer
/// when it reads nothing and is not made yet.
void cloneIfFree(OpBuilder &builder, IRMapping &mapping, Value value) {
  if (Operation *producer = value.getDefiningOp();
      producer && isFree(producer) && !mapping.contains(value))
    builder.clone(*producer, mapping);
}

/// Creates the function `name` after `after` with these arguments, its
/// body's first arguments standing for `dataUsed` and then `inputs` in
/// `mapping`, and the builder at the end of its body.
func::FuncOp startStageFunction(OpBuilder &builder, Location loc,
                                Operation *after, StringRef name,
                                ArrayRef<Type> argumentTypes,
                                ArrayRef<DictionaryAttr> argumentAttrs,
                                const llvm::SetVector<Value> &dataUsed,
                                ArrayRef<Value> inputs, IRMapping &mapping) {
  builder.setInsertionPointAfter(after);
  auto func = func::FuncOp::create(builder, loc, name,
                                   builder.getFunctionType(argumentTypes, {}));
  func.setAllArgAttrs(argumentAttrs);
  Block *body = func.addEntryBlock();
  builder.setInsertionPointToEnd(body);
  unsigned next = 0;
  for (Value data : dataUsed)
    mapping.map(data, body->getArgument(next++));
  for (Value input : inputs)
    mapping.map(input, body->getArgument(next++));
  return func;
}

/// Clones stage `stage`'s ops of `ops` at the builder's insertion point
/// (what reads nothing, where it is used) with `mapping`.
void cloneStageOps(OpBuilder &builder, IRMapping &mapping, unsigned stage,
                   ArrayRef<Operation *> ops, ArrayRef<unsigned> stageOf) {
  for (auto [op, opStage] : llvm::zip(ops, stageOf)) {
    if (opStage != stage || isFree(op))
      continue;
    for (Value operand : op->getOperands())
      cloneIfFree(builder, mapping, operand);
    builder.clone(*op, mapping);
  }
}

std::optional<layout::PipelineSpec>
TesselSplitStagesPass::readPipeline(int64_t &numStages) {
  ModuleOp module = getOperation();
  std::vector<layout::Diagnostic> diagnostics;
  std::optional<layout::LayoutSpec> spec =
      layout::parseLayoutFile(layoutFile, diagnostics);
  // Warnings are tessel-apply-layout's to report, once.
  for (const layout::Diagnostic &diagnostic : diagnostics)
    if (diagnostic.severity == layout::Diagnostic::Error)
      module.emitError() << diagnostic.str();
  if (!spec)
    return std::nullopt;
  if (!spec->pipeline) {
    module.emitError() << "tessel-split-stages: the layout file '"
                       << layoutFile << "' has no 'pipeline' section";
    return std::nullopt;
  }
  numStages = spec->mesh.axisSize(spec->pipeline->axis);
  return spec->pipeline;
}

LogicalResult
TesselSplitStagesPass::cutIntoMicrobatches(func::FuncOp loss,
                                           const layout::PipelineSpec &pipeline) {
  std::optional<int64_t> batch;
  for (Type type : loss.getArgumentTypes())
    if (auto tensor = dyn_cast<NamedTensorType>(type))
      if (std::optional<unsigned> index = tensor.getDimIndex(pipeline.batchDim))
        batch = tensor.getShape()[*index];
  if (!batch)
    return loss.emitError()
           << "pipeline: no argument of @" << loss.getSymName()
           << " has the dimension '" << pipeline.batchDim
           << "' that micro-batches cut (set the pipeline's 'batch_dim')";
  if (*batch % pipeline.microbatches != 0)
    return loss.emitError()
           << "pipeline: a batch of " << *batch << " ('" << pipeline.batchDim
           << "') cannot be cut into " << pipeline.microbatches
           << " equal micro-batches";
  if (pipeline.microbatches == 1)
    return success();
  // The micro-batch is the batch every function computes on; the driver
  // feeds the step's batch as `microbatches` of them. The dimensions that
  // hold the batch under other names (a mixture of experts' `group`, or
  // `tokens`, the batch merged with `seq`) shrink with it, each to its
  // factor times the micro-batch.
  FailureOr<SmallVector<BatchCarrier>> carriers =
      dimsCarryingBatch(getOperation(), pipeline.batchDim, *batch,
                        {"pipeline", "micro-batches", "cut",
                         "rename the batch"});
  if (failed(carriers))
    return failure();
  OpPassManager resize(ModuleOp::getOperationName());
  TesselResizeDimsOptions sizes;
  for (const BatchCarrier &carrier : *carriers)
    sizes.sizes.push_back(
        carrier.name + "=" +
        std::to_string(carrier.factor * (*batch / pipeline.microbatches)));
  resize.addPass(createTesselResizeDims(sizes));
  return runPipeline(resize, getOperation());
}

FailureOr<SmallVector<unsigned>>
TesselSplitStagesPass::assignStages(func::FuncOp loss,
                                    const layout::PipelineSpec &pipeline,
                                    unsigned numStages) {
  Block &body = loss.getBody().front();
  // The calls that start a stage: the first call with each listed scope or,
  // without a list, the calls of the most repeated layer shared out evenly.
  llvm::DenseMap<Operation *, unsigned> starts;
  if (!pipeline.stages.empty()) {
    llvm::StringMap<unsigned> stageOfScope;
    for (auto [stage, scopes] : llvm::enumerate(pipeline.stages))
      for (const std::string &scope : scopes)
        stageOfScope[scope] = stage;
    for (Operation &op : body.without_terminator()) {
      auto scope = op.getAttrOfType<StringAttr>(TesselDialect::kScopeAttrName);
      if (!scope || !isa<func::CallOp>(op))
        continue;
      auto found = stageOfScope.find(scope.getValue());
      if (found == stageOfScope.end())
        continue;
      starts[&op] = found->second;
      stageOfScope.erase(found);
    }
    for (const auto &missing : stageOfScope)
      return loss.emitError()
             << "pipeline stage " << missing.getValue() << " lists layer '"
             << missing.getKey() << "', but @" << loss.getSymName()
             << " has no call with that scope (tessel.scope)";
  } else {
    llvm::MapVector<StringRef, SmallVector<Operation *>> callsOf;
    for (Operation &op : body.without_terminator())
      if (auto call = dyn_cast<func::CallOp>(op))
        if (call->hasAttr(TesselDialect::kScopeAttrName))
          callsOf[call.getCallee()].push_back(call);
    const SmallVector<Operation *> *repeated = nullptr;
    StringRef layer;
    for (auto &[callee, calls] : callsOf)
      if (!repeated || calls.size() > repeated->size()) {
        repeated = &calls;
        layer = callee;
      }
    if (!repeated || repeated->size() < numStages)
      return loss.emitError()
             << "pipeline: @" << loss.getSymName() << " calls its most "
             << "repeated layer" << (repeated ? " @" + layer.str() : "")
             << " " << (repeated ? repeated->size() : 0)
             << " times, fewer than the " << numStages
             << " stages; list each stage's layers in the pipeline's "
                "'stages'";
    size_t count = repeated->size();
    for (size_t i = 0; i < count; ++i) {
      unsigned stage = i * numStages / count;
      if (i == 0 || stage != (i - 1) * numStages / count)
        starts[(*repeated)[i]] = stage;
    }
  }

  SmallVector<unsigned> stageOf;
  unsigned current = 0;
  for (Operation &op : body.without_terminator()) {
    auto start = starts.find(&op);
    if (start != starts.end()) {
      if (start->second < current)
        return op.emitError()
               << "pipeline: layer '"
               << op.getAttrOfType<StringAttr>(TesselDialect::kScopeAttrName).getValue()
               << "' of stage " << start->second
               << " comes after a layer of stage " << current
               << "; the stages must follow the order of @"
               << loss.getSymName();
      current = start->second;
    }
    stageOf.push_back(current);
  }
  return stageOf;
}

func::FuncOp TesselSplitStagesPass::buildStage(
    func::FuncOp loss, Operation *after, unsigned stage, unsigned numStages,
    ArrayRef<Operation *> ops, ArrayRef<unsigned> stageOf,
    ArrayRef<SmallVector<Value>> crossing) {
  MLIRContext *context = &getContext();
  OpBuilder builder(context);
  Location loc = loss.getLoc();
  bool last = stage + 1 == numStages;

  // The data this stage reads, in the loss function's order, the
  // activations it receives, and the cotangents of those it sends on.
  llvm::SetVector<Value> dataUsed = dataUsedBy(loss, stage, last, ops, stageOf);
  ArrayRef<Value> inputs = crossing[stage];
  SmallVector<Type> argumentTypes;
  SmallVector<DictionaryAttr> argumentAttrs;
  addStageArguments(builder, loss, dataUsed, inputs, stage, argumentTypes,
                    argumentAttrs);
  ArrayRef<Value> outputs = last ? ArrayRef<Value>() : crossing[stage + 1];
  for (auto [k, output] : llvm::enumerate(outputs)) {
    argumentTypes.push_back(output.getType());
    argumentAttrs.push_back(
        named(builder, boundaryName(stage + 1, k) + ".gradient"));
  }

  IRMapping mapping;
  func::FuncOp func = startStageFunction(
      builder, loc, after, stageFunctionName(stage, "loss"), argumentTypes,
      argumentAttrs, dataUsed, inputs, mapping);
  Block *body = &func.getBody().front();
  unsigned firstCotangent = dataUsed.size() + inputs.size();
  cloneStageOps(builder, mapping, stage, ops, stageOf);

  Value result;
  if (last) {
    Value loss0 = loss.getBody().front().getTerminator()->getOperand(0);
    cloneIfFree(builder, mapping, loss0);
    result = mapping.lookup(loss0);
  } else {
    // sum(output * cotangent) over every output: its gradient with respect
    // to the stage's inputs and parameters is the vector-Jacobian product
    // with the cotangents stage+1 sends back.
    TensorBuilder b(builder, loc);
    for (auto [k, output] : llvm::enumerate(outputs)) {
      // Made here, or received from stage-1 and passed on.
      Value value = mapping.lookup(output);
      Value product = b.mul(value, body->getArgument(firstCotangent + k));
      product.getDefiningOp()->setAttr(
          TesselDialect::kPipelineOutputAttrName,
          builder.getI64IntegerAttr(static_cast<int64_t>(k)));
      Value sum = b.reduce(
          ReduceKind::Sum, product,
          NamedTensorType::get({}, {}, tensorTypeOf(value).getElementType()));
      result = result ? b.add(result, sum) : sum;
    }
  }
  func::ReturnOp::create(builder, loc, result);
  func.setFunctionType(
      builder.getFunctionType(argumentTypes, TypeRange{result.getType()}));
  return func;
}

/// Builds `stage{stage}_evaluate` after `after`: stage `stage`'s ops of
/// `evaluate`, from the data they read and the activations the stage before
/// sends, returning the activations the next stage reads or, for the last
/// stage, what `evaluate` returns (its loss and count of right
/// predictions), named as it names them.
func::FuncOp buildEvaluateStage(func::FuncOp evaluate, Operation *after,
                                unsigned stage, unsigned numStages,
                                ArrayRef<Operation *> ops,
                                ArrayRef<unsigned> stageOf,
                                ArrayRef<SmallVector<Value>> crossing) {
  OpBuilder builder(after->getContext());
  bool last = stage + 1 == numStages;
  llvm::SetVector<Value> dataUsed =
      dataUsedBy(evaluate, stage, last, ops, stageOf);
  SmallVector<Type> argumentTypes;
  SmallVector<DictionaryAttr> argumentAttrs;
  addStageArguments(builder, evaluate, dataUsed, crossing[stage], stage,
                    argumentTypes, argumentAttrs);
  IRMapping mapping;
  func::FuncOp func = startStageFunction(
      builder, evaluate.getLoc(), after, stageFunctionName(stage, "evaluate"),
      argumentTypes, argumentAttrs, dataUsed, crossing[stage], mapping);
  cloneStageOps(builder, mapping, stage, ops, stageOf);

  SmallVector<Value> results;
  SmallVector<DictionaryAttr> resultAttrs;
  if (last) {
    for (auto [index, returned] : llvm::enumerate(
             evaluate.getBody().front().getTerminator()->getOperands())) {
      cloneIfFree(builder, mapping, returned);
      results.push_back(mapping.lookup(returned));
      DictionaryAttr attrs = evaluate.getResultAttrDict(index);
      resultAttrs.push_back(attrs ? attrs : builder.getDictionaryAttr({}));
    }
  } else {
    for (auto [k, output] : llvm::enumerate(crossing[stage + 1])) {
      results.push_back(mapping.lookup(output));
      resultAttrs.push_back(named(builder, boundaryName(stage + 1, k)));
    }
  }
  func::ReturnOp::create(builder, evaluate.getLoc(), results);
  func.setFunctionType(
      builder.getFunctionType(argumentTypes, ValueRange(results).getTypes()));
  func.setAllResultAttrs(resultAttrs);
  return func;
}

SmallVector<func::FuncOp>
TesselSplitStagesPass::splitEvaluate(func::FuncOp evaluate, Operation *after,
                                     const layout::PipelineSpec &pipeline,
                                     unsigned numStages) {
  // The loss's cut, made of the evaluation: what would be an error there
  // is the reason the program has no evaluation.
  std::string reason;
  FailureOr<SmallVector<unsigned>> stageOf = failure();
  {
    ScopedDiagnosticHandler capture(&getContext(), [&](Diagnostic &note) {
      if (reason.empty())
        reason = note.str();
      return success();
    });
    if (!evaluate.getBody().hasOneBlock())
      reason = "its body has more than one block";
    for (unsigned index = 0; index < evaluate.getNumArguments(); ++index)
      if (auto name = evaluate.getArgAttrOfType<StringAttr>(
              index, TesselDialect::kNameAttrName);
          name && isPipelineTensorName(name.getValue()) && reason.empty())
        reason = "its argument '" + name.getValue().str() +
                 "' is named like a tensor the pipeline passes between "
                 "stages; rename it";
    if (reason.empty())
      stageOf = assignStages(evaluate, pipeline, numStages);
  }
  SmallVector<Operation *> ops;
  Crossing crossing;
  if (succeeded(stageOf)) {
    for (Operation &op : evaluate.getBody().front().without_terminator())
      ops.push_back(&op);
    crossing = findCrossing(ops, *stageOf, numStages);
    if (crossing.nonFloat) {
      llvm::raw_string_ostream text(reason);
      text << "a value of type " << crossing.nonFloatType
           << " crosses from stage " << crossing.nonFloatFrom << " to stage "
           << crossing.nonFloatTo << "; only float activations can cross";
    }
    for (unsigned stage = 1; stage < numStages && reason.empty(); ++stage)
      if (crossing.into[stage].empty())
        reason = "its stage " + std::to_string(stage - 1) +
                 " hands nothing to stage " + std::to_string(stage);
  }
  if (failed(stageOf) || !reason.empty()) {
    llvm::StringRef because(reason);
    because.consume_front("pipeline: ");
    evaluate.emitWarning()
        << "pipeline: @" << evaluate.getSymName()
        << " is left out of the pipelined program, which then cannot "
           "evaluate: "
        << because;
    return {};
  }
  SmallVector<func::FuncOp> stages;
  for (unsigned stage = 0; stage < numStages; ++stage)
    stages.push_back(buildEvaluateStage(
        evaluate, stages.empty() ? after : stages.back().getOperation(), stage,
        numStages, ops, *stageOf, crossing.into));
  return stages;
}

void TesselSplitStagesPass::runOnOperation() {
  ModuleOp module = getOperation();
  int64_t numStages = 0;
  std::optional<layout::PipelineSpec> pipeline = readPipeline(numStages);
  if (!pipeline)
    return signalPassFailure();
  auto loss = module.lookupSymbol<func::FuncOp>(functionName);
  if (!loss || loss.isExternal()) {
    module.emitError() << "tessel-split-stages: no function '" << functionName
                       << "' to pipeline";
    return signalPassFailure();
  }
  if (loss.getNumResults() != 1 || !loss.getBody().hasOneBlock()) {
    loss.emitError() << "pipeline: @" << functionName
                     << " must return one scalar loss from one block";
    return signalPassFailure();
  }
  // The driver passes tensors between the stage functions by name.
  for (unsigned index = 0; index < loss.getNumArguments(); ++index)
    if (auto name = loss.getArgAttrOfType<StringAttr>(
            index, TesselDialect::kNameAttrName);
        name && isPipelineTensorName(name.getValue())) {
      loss.emitError() << "pipeline: argument '" << name.getValue() << "' of @"
                       << functionName
                       << " is named like a tensor that the pipeline passes "
                          "between stages; rename it";
      return signalPassFailure();
    }
  if (failed(cutIntoMicrobatches(loss, *pipeline)))
    return signalPassFailure();
  FailureOr<SmallVector<unsigned>> stageOf =
      assignStages(loss, *pipeline, numStages);
  if (failed(stageOf))
    return signalPassFailure();

  SmallVector<Operation *> ops;
  for (Operation &op : loss.getBody().front().without_terminator())
    ops.push_back(&op);
  // crossing.into[b]: the values that stage b receives from stage b-1.
  Crossing crossing = findCrossing(ops, *stageOf, numStages);
  if (crossing.nonFloat) {
    crossing.nonFloat->emitError()
        << "pipeline: a value of type " << crossing.nonFloatType
        << " crosses from stage " << crossing.nonFloatFrom << " to stage "
        << crossing.nonFloatTo
        << "; only float activations can cross stages (compute it where it "
           "is used)";
    return signalPassFailure();
  }

  // A stage that hands nothing on computes nothing the loss depends on; its
  // step would have no loss to differentiate.
  for (unsigned stage = 1; stage < numStages; ++stage)
    if (crossing.into[stage].empty()) {
      loss.emitError() << "pipeline: stage " << stage - 1
                       << " hands nothing to stage " << stage << " (the "
                       << "loss of @" << functionName << " does not depend on "
                       << "the layers of stage " << stage - 1
                       << "); place the layers differently";
      return signalPassFailure();
    }

  SmallVector<func::FuncOp> stages;
  for (unsigned stage = 0; stage < numStages; ++stage)
    stages.push_back(
        buildStage(loss, stages.empty() ? loss.getOperation() : stages.back(),
                   stage, numStages, ops, *stageOf, crossing.into));

  OpBuilder builder(&getContext());
  module->setAttr(
      TesselDialect::kPipelineAttrName,
      builder.getDictionaryAttr({
          builder.getNamedAttr("axis",
                               builder.getStringAttr(pipeline->axis)),
          builder.getNamedAttr("microbatches", builder.getI64IntegerAttr(
                                                   pipeline->microbatches)),
          builder.getNamedAttr(
              "schedule", builder.getStringAttr(pipeline->scheduleName())),
          builder.getNamedAttr("remat", builder.getBoolAttr(pipeline->remat)),
          builder.getNamedAttr("batch_dim",
                               builder.getStringAttr(pipeline->batchDim)),
          builder.getNamedAttr("stages", builder.getI64IntegerAttr(numStages)),
      }));
  // The evaluation is cut into stages as the loss is, where it can be.
  if (auto evaluate = module.lookupSymbol<func::FuncOp>("evaluate");
      evaluate && !evaluate.isExternal() && evaluate != loss)
    llvm::append_range(
        stages, splitEvaluate(evaluate, stages.back(), *pipeline, numStages));
  // A pipelined program trains and evaluates: the stage functions replace
  // the loss and the evaluation, and other entry points (a decoder) are not
  // part of it.
  SmallVector<func::FuncOp> others;
  for (auto func : module.getOps<func::FuncOp>())
    if (func.isPublic() && !llvm::is_contained(stages, func))
      others.push_back(func);
  for (func::FuncOp func : others)
    func.erase();
}

} // namespace
