//===- SumGradientNormOverStages.cpp - the norm of every stage's gradients ===//
//
// Implements tessel-sum-gradient-norm-over-stages. A training step's
// gradient norm is over all of the model's gradients: the driver stops or
// skips a step whose norm is not finite, loss scaling halves its scale by
// it, and --clip-norm scales every gradient by min(1, c / norm). In a
// pipelined step (docs/pipeline.md) each `@stage{s}_apply` holds only its
// own stage's gradients. tessel-pipeline-autodiff marks the `tessel.sqrt`
// that takes the norm of a stage's gradients; this pass, after
// tessel-partition, makes its operand (that stage's sum of squares,
// complete on every rank of the stage: a sqrt takes no partial sum) an
// all_reduce sum over the pipeline axis, so that every stage's apply has
// the norm of all the stages' gradients. A weight that several stages hold
// is counted by the first of them only (tessel-pipeline-autodiff leaves it
// out of the others' sums). The driver calls every stage's apply once a
// step, so each rank of a stage-axis group makes this one call in the same
// place.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/Pipelining.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_TESSELSUMGRADIENTNORMOVERSTAGES
#include "passes/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

struct TesselSumGradientNormOverStagesPass
    : mlir::tessel::impl::TesselSumGradientNormOverStagesBase<
          TesselSumGradientNormOverStagesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto pipeline =
        module->getAttrOfType<DictionaryAttr>(TesselDialect::kPipelineAttrName);
    if (!pipeline) {
      module.emitError() << "tessel-sum-gradient-norm-over-stages: the "
                            "module has no stages (run tessel-split-stages "
                            "first)";
      return signalPassFailure();
    }
    int64_t numStages = cast<IntegerAttr>(pipeline.get("stages")).getInt();
    auto axis = cast<StringAttr>(pipeline.get("axis"));
    for (int64_t stage = 0; stage < numStages; ++stage) {
      auto apply =
          module.lookupSymbol<func::FuncOp>(stageFunctionName(stage, "apply"));
      if (!apply) {
        module.emitError() << "tessel-sum-gradient-norm-over-stages: no @"
                           << stageFunctionName(stage, "apply");
        return signalPassFailure();
      }
      bool marked = false;
      apply.walk([&](SqrtOp norm) {
        if (!norm->hasAttr(TesselDialect::kStageGradientNormAttrName))
          return;
        marked = true;
        norm->removeAttr(TesselDialect::kStageGradientNormAttrName);
        if (numStages == 1)
          return;
        Value squares = norm.getOperand();
        OpBuilder builder(norm);
        auto total = AllReduceOp::create(
            builder, norm.getLoc(), squares.getType(), CollectiveKind::Sum,
            squares, builder.getStrArrayAttr({axis.getValue()}));
        norm->setOperand(0, total.getResult());
      });
      // Every stage's apply takes part in the all_reduce, or the others
      // wait for it.
      if (!marked && numStages > 1) {
        apply.emitError() << "tessel-sum-gradient-norm-over-stages: @"
                          << apply.getSymName()
                          << " has no square root marked '"
                          << TesselDialect::kStageGradientNormAttrName
                          << "' (run tessel-pipeline-autodiff first)";
        return signalPassFailure();
      }
    }
  }
};

} // namespace
