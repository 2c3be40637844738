//===- SearchEvaluation.cpp - one candidate of tessel search, weighed -----===//

#include "tools/tessel/SearchEvaluation.h"

#include "analysis/CostReport.h"
#include "codegen/Pipeline.h"
#include "passes/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"

#include <fmt/format.h>

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::search;
namespace analysis = ::tessel::analysis;

std::string search::bytesText(int64_t bytes) {
  if (bytes >= (int64_t(1) << 30))
    return fmt::format("{:.2f} GiB", bytes / double(int64_t(1) << 30));
  if (bytes >= (int64_t(1) << 20))
    return fmt::format("{:.2f} MiB", bytes / double(1 << 20));
  if (bytes >= 1024)
    return fmt::format("{:.1f} KiB", bytes / 1024.0);
  return fmt::format("{} B", bytes);
}

Evaluation Evaluator::evaluate(const Candidate &candidate,
                               const ModelDims &dims) {
  Evaluation result;
  result.candidate = candidate;
  // Parameters and their state alone: known before any pass runs.
  int64_t state = stateBytesPerRank(dims, candidate);
  if (budget && state > *budget) {
    result.status = Evaluation::OverBudget;
    result.memoryBytes = state;
    result.memoryIsLowerBound = true;
    result.reason = fmt::format("parameters and optimizer state alone take "
                                "{} per rank",
                                bytesText(state));
    return result;
  }
  {
    std::error_code code;
    llvm::raw_fd_ostream out(scratch, code);
    out << candidate.yaml("");
  }
  apply(result, scratch, candidate.padUneven);
  return result;
}

Evaluation Evaluator::evaluateFile(const std::string &path,
                                   std::vector<Axis> mesh) {
  Evaluation result;
  result.file = path;
  result.candidate.mesh = std::move(mesh);
  apply(result, path, /*padUneven=*/false);
  return result;
}

void Evaluator::apply(Evaluation &result, const std::string &layoutFile,
                      bool padUneven) {
  MLIRContext *context = trained.getContext();
  OwningOpRef<ModuleOp> module = trained.clone();
  std::string firstError;
  ScopedDiagnosticHandler quiet(context, [&](Diagnostic &diagnostic) {
    if (diagnostic.getSeverity() == DiagnosticSeverity::Error &&
        firstError.empty())
      firstError = diagnostic.str();
    return success();
  });
  PassManager layout(context);
  TesselApplyLayoutOptions options;
  options.layoutFile = layoutFile;
  options.padUneven = padUneven;
  layout.addPass(createTesselApplyLayout(options));
  auto fail = [&](const char *stage) {
    result.status = Evaluation::Illegal;
    result.reason =
        firstError.empty() ? std::string(stage) + " failed" : firstError;
  };
  if (failed(layout.run(*module)))
    return fail("tessel-apply-layout");
  auto step = module->lookupSymbol<func::FuncOp>("train_step");
  analysis::CostReport report = analysis::buildCostReport(step);
  PassManager partition(context);
  buildPartitionPipeline(partition, kDefaultBucketBytes);
  if (failed(partition.run(*module)))
    return fail("tessel-partition");
  step = module->lookupSymbol<func::FuncOp>("train_step");
  analysis::addPartitionedCosts(report, step);
  // Memory as tessel explain counts it: what the compiled step holds (on
  // the fused program compile lowers) and the driver's own.
  OwningOpRef<ModuleOp> fused = module->clone();
  PassManager fuse(context);
  fuse.addNestedPass<func::FuncOp>(createTesselFuseElementwise());
  if (failed(fuse.run(*fused)))
    return fail("tessel-fuse-elementwise");
  analysis::addRuntimeMemory(
      report, fused->lookupSymbol<func::FuncOp>("train_step"),
      fused->lookupSymbol<func::FuncOp>("init"), profile);
  result.memoryBytes = analysis::memoryBytesPerRank(report);
  if (budget && result.memoryBytes > *budget) {
    result.status = Evaluation::OverBudget;
    result.reason =
        fmt::format("peak memory {} per rank", bytesText(result.memoryBytes));
    return;
  }
  result.commBytes = report.commBytesPerRank;
  result.flops = report.flopsPerRank;
  result.step = analysis::predictStepTime(step, report, profile);
}

bool search::faster(const Evaluation &a, const Evaluation &b) {
  double ta = a.step.totalSeconds(), tb = b.step.totalSeconds();
  if (ta != tb)
    return ta < tb;
  if (a.memoryBytes != b.memoryBytes)
    return a.memoryBytes < b.memoryBytes;
  return a.candidate.mesh.size() < b.candidate.mesh.size();
}
