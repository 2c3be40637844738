//===- ReduceGradientsOncePerStep.cpp - gradient all_reduces in apply -----===//
//
// Implements tessel-reduce-gradients-once-per-step. In a pipelined step
// (docs/pipeline.md) whose layout splits the batch over a data axis beside
// the stage axis, tessel-partition makes each parameter's gradient in
// `@stage{s}_backward` a partial sum over the data ranks and all-reduces it
// there, so the all_reduce runs once per micro-batch: m times a step. The
// driver (runtime/driver/PipelineTrainer) only sums the backward's
// `<param>.gradient` results over the micro-batches and hands the sums to
// `@stage{s}_apply` once a step; since the sum over micro-batches of
// all_reduce(g) is all_reduce(sum of g), the all_reduce can move into
// apply and run once a step on the sums. This pass moves it: for every
// result of `@stage{s}_backward` named `<param>.gradient` that is made by
// `tessel.all_reduce sum` whose only use is that one return operand, the
// backward returns the all_reduce's input (the partial sum, of the same
// type) and `@stage{s}_apply` all-reduces its argument of that name over
// the same axes before anything reads it.
//
// Left alone: a gradient made by anything else (a ZeRO override's
// reduce_scatter, which leaves each rank its shard: apply takes the shard,
// and moving the collective would change the type the driver sums), an
// all_reduce whose result is also used in the backward or returned under a
// second name, one of another kind than sum, and a gradient that apply
// does not take by name. It runs after tessel-partition (the collectives
// exist only then) and before tessel-bucket-all-reduces, so that apply's
// all_reduces are merged into few calls as the backward's were.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/Pipelining.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_TESSELREDUCEGRADIENTSONCEPERSTEP
#include "passes/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// Apply's arguments by their tessel.name.
llvm::StringMap<BlockArgument> argumentsByName(func::FuncOp func) {
  llvm::StringMap<BlockArgument> arguments;
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    if (auto name = func.getArgAttrOfType<StringAttr>(
            i, TesselDialect::kNameAttrName))
      arguments.try_emplace(name.getValue(), func.getArgument(i));
  return arguments;
}

/// Moves the movable gradient all_reduces of `backward` to the start of
/// `apply`, in the order of the backward's results.
void moveGradientReductions(func::FuncOp backward, func::FuncOp apply) {
  llvm::StringMap<BlockArgument> applyArguments = argumentsByName(apply);
  Operation *terminator = backward.getBody().front().getTerminator();
  OpBuilder builder(&apply.getBody().front(),
                    apply.getBody().front().begin());
  for (unsigned i = 0; i < backward.getNumResults(); ++i) {
    auto name = backward.getResultAttrOfType<StringAttr>(
        i, TesselDialect::kNameAttrName);
    if (!name || !name.getValue().ends_with(".gradient") ||
        isPipelineTensorName(name.getValue()))
      continue;
    auto reduce = terminator->getOperand(i).getDefiningOp<AllReduceOp>();
    if (!reduce || reduce.getKind() != CollectiveKind::Sum ||
        !reduce.getResult().hasOneUse())
      continue;
    auto argument = applyArguments.find(name.getValue());
    if (argument == applyArguments.end() ||
        argument->second.getType() != reduce.getResult().getType())
      continue;
    BlockArgument sums = argument->second;
    auto moved = AllReduceOp::create(builder, reduce.getLoc(), sums.getType(),
                                     reduce.getKind(), sums, reduce.getAxes());
    sums.replaceAllUsesExcept(moved.getResult(), moved);
    terminator->setOperand(i, reduce.getInput());
    reduce.erase();
  }
}

struct TesselReduceGradientsOncePerStepPass
    : mlir::tessel::impl::TesselReduceGradientsOncePerStepBase<
          TesselReduceGradientsOncePerStepPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto pipeline = module->getAttrOfType<DictionaryAttr>(
        TesselDialect::kPipelineAttrName);
    if (!pipeline) {
      module.emitError() << "tessel-reduce-gradients-once-per-step: the "
                            "module has no stages (run tessel-split-stages "
                            "first)";
      return signalPassFailure();
    }
    int64_t numStages = cast<IntegerAttr>(pipeline.get("stages")).getInt();
    for (int64_t stage = 0; stage < numStages; ++stage) {
      auto backward = module.lookupSymbol<func::FuncOp>(
          stageFunctionName(stage, "backward"));
      auto apply = module.lookupSymbol<func::FuncOp>(
          stageFunctionName(stage, "apply"));
      if (!backward || !apply) {
        module.emitError() << "tessel-reduce-gradients-once-per-step: no @"
                           << stageFunctionName(stage, "backward") << " or @"
                           << stageFunctionName(stage, "apply")
                           << " (run tessel-split-forward-backward first)";
        return signalPassFailure();
      }
      moveGradientReductions(backward, apply);
    }
  }
};

} // namespace
