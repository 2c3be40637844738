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
  step.partitioned = std::move(laidOut);
  analysis::addPartitionedCosts(
      step.report, step.partitioned->lookupSymbol<func::FuncOp>(function));
  // The memory of the step as compile lowers it: element-wise chains fused
  // hold no buffers between their ops, and the ops in the order they run.
  step.lowered = step.partitioned->clone();
  PassManager lower(step.lowered->getContext());
  buildLoweredFormPipeline(lower);
  if (std::optional<std::string> failure =
          run(lower, *step.lowered, "tessel-fuse-elementwise")) {
    error = *failure;
    return std::nullopt;
  }
  // A training step's state comes from @init, which runs first.
  analysis::addRuntimeMemory(
      step.report, step.lowered->lookupSymbol<func::FuncOp>(function),
      function == "train_step"
          ? step.lowered->lookupSymbol<func::FuncOp>("init")
          : func::FuncOp(),
      profile);
  return step;
}

std::optional<analysis::StepTime>
predictStep(CountedStep &step, const analysis::MachineProfile &profile,
            PassRunner run, std::string &error) {
  PassManager overlap(step.partitioned->getContext());
  buildOverlapPipeline(overlap, /*splitHaloConvolutions=*/true);
  if (std::optional<std::string> failure =
          run(overlap, *step.partitioned, "tessel-schedule-collectives")) {
    error = *failure;
    return std::nullopt;
  }
  return analysis::predictStepTime(
      step.partitioned->lookupSymbol<func::FuncOp>(step.function),
      step.lowered->lookupSymbol<func::FuncOp>(step.function), step.report,
      profile);
}

} // namespace mlir::tessel
