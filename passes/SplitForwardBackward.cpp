//===- SplitForwardBackward.cpp - a stage's step as forward and backward --===//
//
// Implements tessel-split-forward-backward: cuts each `stage{s}_step` that
// tessel-pipeline-autodiff made (one micro-batch's forward and backward)
// into `stage{s}_forward`, which the schedule runs as soon as the
// micro-batch's activations arrive, and `stage{s}_backward`, which it runs
// when their cotangents come back. The forward returns what the backward
// reads of it (the residuals), unless the stage recomputes its forward
// (`remat`). It runs after tessel-apply-layout, so that a residual has one
// layout, the one its value had in the step, on both sides; and it makes
// every tensor that goes from one function to another (activations,
// cotangents, gradients) leave with the layout it is received with.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/Differentiate.h"
#include "passes/Pipelining.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_TESSELSPLITFORWARDBACKWARD
#include "passes/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// Leaves the mark only on the ops of the forward pass: an op marked by
/// tessel-pipeline-autodiff that reads nothing of the backward. (A
/// gradient builder may copy its op's attributes, the mark included, onto
/// the gradient op: pool_backward takes pool's.)
void confineForwardMarks(func::FuncOp step) {
  llvm::DenseSet<Value> backward;
  for (Operation &op : step.getBody().front().without_terminator()) {
    bool readsBackward = llvm::any_of(op.getOperands(), [&](Value operand) {
      return backward.contains(operand);
    });
    if (readsBackward)
      op.removeAttr(TesselDialect::kPipelineForwardAttrName);
    if (!op.hasAttr(TesselDialect::kPipelineForwardAttrName))
      backward.insert(op.result_begin(), op.result_end());
  }
}

bool isForward(Operation *op) {
  return op->hasAttr(TesselDialect::kPipelineForwardAttrName);
}

StringRef nameOfArgument(func::FuncOp func, unsigned index) {
  auto name =
      func.getArgAttrOfType<StringAttr>(index, TesselDialect::kNameAttrName);
  return name ? name.getValue() : StringRef();
}

StringRef nameOfResult(func::FuncOp func, unsigned index) {
  auto name =
      func.getResultAttrOfType<StringAttr>(index, TesselDialect::kNameAttrName);
  return name ? name.getValue() : StringRef();
}

/// The arguments of a stage's step that are cotangents of its outputs
/// (exactly `stage{s+1}.input{k}.gradient`: a weight of the forward may
/// begin so).
bool isCotangent(func::FuncOp func, unsigned index, unsigned stage) {
  return isBoundaryName(nameOfArgument(func, index), stage + 1, ".gradient");
}

DictionaryAttr named(Builder &builder, StringRef name) {
  return builder.getDictionaryAttr({builder.getNamedAttr(
      TesselDialect::kNameAttrName, builder.getStringAttr(name))});
}

/// Replaces `func`'s return by `values` named `names`, and erases the ops
/// that computed only what no longer leaves.
void returnOnly(func::FuncOp func, ArrayRef<Value> values,
                ArrayRef<std::string> names) {
  Operation *terminator = func.getBody().front().getTerminator();
  OpBuilder builder(terminator);
  func::ReturnOp::create(builder, terminator->getLoc(), values);
  terminator->erase();
  func.setFunctionType(builder.getFunctionType(
      func.getArgumentTypes(), ValueRange(values).getTypes()));
  SmallVector<DictionaryAttr> attrs;
  for (const std::string &name : names)
    attrs.push_back(named(builder, name));
  func.setAllResultAttrs(attrs);
  eraseDeadOps(func);
}

struct TesselSplitForwardBackwardPass
    : mlir::tessel::impl::TesselSplitForwardBackwardBase<
          TesselSplitForwardBackwardPass> {
  using TesselSplitForwardBackwardBase::TesselSplitForwardBackwardBase;

  void runOnOperation() final;

private:
  LogicalResult splitStage(func::FuncOp step, unsigned stage, bool last,
                           bool remat);
  /// Gives every value that `producer` returns under a name that
  /// `consumer` takes as an argument the argument's type (its layout).
  LogicalResult matchLayouts(func::FuncOp producer, func::FuncOp consumer);
};

LogicalResult TesselSplitForwardBackwardPass::splitStage(func::FuncOp step,
                                                         unsigned stage,
                                                         bool last,
                                                         bool remat) {
  confineForwardMarks(step);
  OpBuilder builder(step);
  Block &body = step.getBody().front();
  Operation *terminator = body.getTerminator();

  // What leaves the forward: the activations for the next stage (the
  // first operand of each output's product with its cotangent), or the
  // loss.
  SmallVector<Value> outputs;
  SmallVector<std::string> outputNames;
  if (last) {
    outputs.push_back(terminator->getOperand(0));
    outputNames.push_back("loss");
  } else {
    llvm::DenseMap<int64_t, Value> byIndex;
    step.walk([&](Operation *op) {
      if (auto index = op->getAttrOfType<IntegerAttr>(
              TesselDialect::kPipelineOutputAttrName))
        byIndex[index.getInt()] = op->getOperand(0);
    });
    for (int64_t k = 0; k < static_cast<int64_t>(byIndex.size()); ++k) {
      Value output = byIndex.lookup(k);
      if (!output)
        return step.emitError() << "pipeline: output " << k << " of stage "
                                << stage << " is lost";
      outputs.push_back(output);
      outputNames.push_back(boundaryName(stage + 1, k));
    }
  }

  // What leaves the backward: the gradients of the parameters and of the
  // activations received.
  SmallVector<Value> gradients;
  SmallVector<std::string> gradientNames;
  for (unsigned index = 0; index < step.getNumResults(); ++index) {
    StringRef name = nameOfResult(step, index);
    if (!name.ends_with(".gradient") || name.ends_with(".gradient.gradient"))
      continue;
    StringRef of = name.drop_back(strlen(".gradient"));
    bool ofParameter = false, ofInput = false;
    for (unsigned a = 0; a < step.getNumArguments(); ++a)
      if (nameOfArgument(step, a) == of) {
        auto role = step.getArgAttrOfType<StringAttr>(a, kRoleAttrName);
        ofParameter = role && role.getValue() == "parameter";
        ofInput = of.starts_with("stage" + std::to_string(stage) + ".input");
      }
    if (!ofParameter && !ofInput)
      continue; // the data's gradient, or a cotangent's
    gradients.push_back(terminator->getOperand(index));
    gradientNames.push_back(name.str());
  }

  // The residuals: forward values that the backward reads.
  llvm::SetVector<Value> residuals;
  if (!remat) {
    for (Operation &op : body.without_terminator())
      if (!isForward(&op))
        for (Value operand : op.getOperands())
          if (Operation *producer = operand.getDefiningOp();
              producer && isForward(producer))
            residuals.insert(operand);
    for (Value gradient : gradients)
      if (Operation *producer = gradient.getDefiningOp();
          producer && isForward(producer))
        residuals.insert(gradient);
  }

  // The forward: the step's forward ops, returning the outputs and the
  // residuals; the cotangents are not its arguments.
  builder.setInsertionPointAfter(step);
  IRMapping forwardMapping;
  auto forward = cast<func::FuncOp>(builder.clone(*step, forwardMapping));
  forward.setSymName(stageFunctionName(stage, "forward"));
  SmallVector<Value> forwardResults;
  SmallVector<std::string> forwardNames(outputNames);
  for (Value output : outputs)
    forwardResults.push_back(forwardMapping.lookup(output));
  for (auto [index, residual] : llvm::enumerate(residuals)) {
    forwardResults.push_back(forwardMapping.lookup(residual));
    forwardNames.push_back(residualName(stage, index));
  }
  {
    Block &forwardBody = forward.getBody().front();
    Operation *oldReturn = forwardBody.getTerminator();
    OpBuilder at(oldReturn);
    func::ReturnOp::create(at, oldReturn->getLoc(), forwardResults);
    oldReturn->erase();
    SmallVector<Operation *> backwardOps;
    for (Operation &op : forwardBody.without_terminator())
      if (!isForward(&op))
        backwardOps.push_back(&op);
    for (Operation *op : llvm::reverse(backwardOps))
      op->erase();
    llvm::BitVector cotangents(forward.getNumArguments());
    for (unsigned index = 0; index < forward.getNumArguments(); ++index)
      if (isCotangent(forward, index, stage))
        cotangents.set(index);
    if (failed(forward.eraseArguments(cotangents)))
      return failure();
    returnOnly(forward, forwardResults, forwardNames);
  }

  // The backward: the step with the residuals as arguments in place of the
  // forward ops that made them (or, with remat, the whole step).
  IRMapping backwardMapping;
  auto backward = cast<func::FuncOp>(builder.clone(*step, backwardMapping));
  backward.setSymName(stageFunctionName(stage, "backward"));
  SmallVector<Value> backwardResults;
  for (Value gradient : gradients)
    backwardResults.push_back(backwardMapping.lookup(gradient));
  for (auto [index, residual] : llvm::enumerate(residuals)) {
    Value value = backwardMapping.lookup(residual);
    unsigned position = backward.getNumArguments();
    if (failed(backward.insertArgument(
            position, value.getType(),
            named(builder, residualName(stage, index)), value.getLoc())))
      return failure();
    BlockArgument argument = backward.getArgument(position);
    value.replaceUsesWithIf(argument, [&](OpOperand &use) {
      return !isForward(use.getOwner());
    });
    for (Value &result : backwardResults)
      if (result == value)
        result = argument;
  }
  returnOnly(backward, backwardResults, gradientNames);
  if (!remat) {
    SmallVector<Operation *> forwardOps;
    for (Operation &op : backward.getBody().front().without_terminator())
      if (isForward(&op))
        forwardOps.push_back(&op);
    for (Operation *op : llvm::reverse(forwardOps)) {
      if (!op->use_empty())
        return op->emitError()
               << "pipeline: a forward value of stage " << stage
               << " is read by the backward but is not a residual";
      op->erase();
    }
  }
  step.erase();
  return success();
}

LogicalResult
TesselSplitForwardBackwardPass::matchLayouts(func::FuncOp producer,
                                             func::FuncOp consumer) {
  llvm::StringMap<Type> wanted;
  for (unsigned index = 0; index < consumer.getNumArguments(); ++index)
    wanted[nameOfArgument(consumer, index)] = consumer.getArgumentTypes()[index];
  Operation *terminator = producer.getBody().front().getTerminator();
  bool changed = false;
  for (unsigned index = 0; index < producer.getNumResults(); ++index) {
    auto found = wanted.find(nameOfResult(producer, index));
    if (found == wanted.end())
      continue;
    Value value = terminator->getOperand(index);
    if (value.getType() == found->second)
      continue;
    if (cast<NamedTensorType>(value.getType()).withLayout({}) !=
        cast<NamedTensorType>(found->second).withLayout({}))
      return producer.emitError()
             << "pipeline: @" << producer.getSymName() << " returns '"
             << found->getKey() << "' as " << value.getType() << ", but @"
             << consumer.getSymName() << " takes it as " << found->second;
    // The partitioner computes the value in the layout its type asks for,
    // resharding it for the other ops that read it.
    if (isa<BlockArgument>(value) ||
        llvm::count(terminator->getOperands(), value) != 1)
      return producer.emitError()
             << "pipeline: @" << producer.getSymName() << " passes '"
             << found->getKey() << "' on with the layout "
             << value.getType() << ", but @" << consumer.getSymName()
             << " takes it as " << found->second
             << "; give both the same layout";
    value.setType(found->second);
    changed = true;
  }
  if (changed)
    producer.setFunctionType(FunctionType::get(
        &getContext(), producer.getArgumentTypes(),
        terminator->getOperandTypes()));
  return success();
}

void TesselSplitForwardBackwardPass::runOnOperation() {
  ModuleOp module = getOperation();
  auto pipeline =
      module->getAttrOfType<DictionaryAttr>(TesselDialect::kPipelineAttrName);
  if (!pipeline) {
    module.emitError() << "tessel-split-forward-backward: the module has no "
                          "stages (run tessel-split-stages first)";
    return signalPassFailure();
  }
  int64_t numStages = cast<IntegerAttr>(pipeline.get("stages")).getInt();
  bool remat = cast<BoolAttr>(pipeline.get("remat")).getValue();
  for (int64_t stage = 0; stage < numStages; ++stage) {
    auto step =
        module.lookupSymbol<func::FuncOp>(stageFunctionName(stage, "step"));
    if (!step) {
      module.emitError() << "tessel-split-forward-backward: no @"
                         << stageFunctionName(stage, "step");
      return signalPassFailure();
    }
    if (failed(splitStage(step, stage, stage + 1 == numStages, remat)))
      return signalPassFailure();
  }
  auto function = [&](int64_t stage, const char *kind) {
    return module.lookupSymbol<func::FuncOp>(stageFunctionName(stage, kind));
  };
  for (int64_t stage = 0; stage < numStages; ++stage) {
    bool matched =
        succeeded(matchLayouts(function(stage, "backward"),
                               function(stage, "apply"))) &&
        (stage + 1 == numStages ||
         succeeded(matchLayouts(function(stage, "forward"),
                                function(stage + 1, "forward")))) &&
        (stage == 0 || succeeded(matchLayouts(function(stage, "backward"),
                                              function(stage - 1, "backward"))));
    if (!matched)
      return signalPassFailure();
  }
  // The evaluation's activations, too, leave with the layout the next
  // stage's evaluation takes them in.
  for (int64_t stage = 0; stage + 1 < numStages; ++stage) {
    func::FuncOp evaluate = function(stage, "evaluate");
    func::FuncOp next = function(stage + 1, "evaluate");
    if (!evaluate && !next)
      continue;
    if (!evaluate || !next) {
      module.emitError() << "tessel-split-forward-backward: @"
                         << stageFunctionName(evaluate ? stage + 1 : stage,
                                              "evaluate")
                         << " is missing: every stage has its part of the "
                            "evaluation, or none does";
      return signalPassFailure();
    }
    if (failed(matchLayouts(evaluate, next)))
      return signalPassFailure();
  }
  // The marks have served.
  module.walk([](Operation *op) {
    op->removeAttr(TesselDialect::kPipelineForwardAttrName);
    op->removeAttr(TesselDialect::kPipelineOutputAttrName);
  });
}

} // namespace
