//===- StepPrediction.cpp - A laid-out step's costs, memory and time ------===//

#include "tools/tessel/StepPrediction.h"

#include "codegen/Pipeline.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace analysis = ::tessel::analysis;

namespace mlir::tessel {

std::optional<CountedStep> countStep(OwningOpRef<ModuleOp> laidOut,
                                     StringRef function, int64_t bucketBytes,
                                     const analysis::MachineProfile &profile,
                                     PassRunner run, std::string &error) {
  CountedStep step;
  step.function = function.str();
  auto func = laidOut->lookupSymbol<func::FuncOp>(function);
  step.report = analysis::buildCostReport(func);
  // The collectives and the work per rank come from the program each rank
  // would run.
  PassManager partition(laidOut->getContext());
  buildPartitionPipeline(partition, bucketBytes);
  if (std::optional<std::string> failure =
          run(partition, *laidOut, "tessel-partition")) {
    error = *failure;
    return std::nullopt;
  }
  analysis::addPartitionedCosts(step.report,
                                laidOut->lookupSymbol<func::FuncOp>(function));
  // The step as compile lowers it: element-wise chains fused, which hold no
  // buffers between their ops and run as one call each, and the ops in the
  // order they run. Its memory and its time are counted on it.
  PassManager lower(laidOut->getContext());
  buildLoweredFormPipeline(lower);
  if (std::optional<std::string> failure =
          run(lower, *laidOut, "lowering (fusion, overlap scheduling)")) {
    error = *failure;
    return std::nullopt;
  }
  step.lowered = std::move(laidOut);
  // A training step's state comes from @init, which runs first.
  analysis::addRuntimeMemory(
      step.report, step.lowered->lookupSymbol<func::FuncOp>(function),
      function == "train_step"
          ? step.lowered->lookupSymbol<func::FuncOp>("init")
          : func::FuncOp(),
      profile);
  return step;
}

analysis::StepTime predictStep(CountedStep &step,
                               const analysis::MachineProfile &profile) {
  return analysis::predictStepTime(
      step.lowered->lookupSymbol<func::FuncOp>(step.function), step.report,
      profile);
}

} // namespace mlir::tessel
