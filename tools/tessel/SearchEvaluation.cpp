//===- SearchEvaluation.cpp - one candidate of tessel search, weighed -----===//

#include "tools/tessel/SearchEvaluation.h"
#include "tools/tessel/StepPrediction.h"

#include "analysis/CostReport.h"
#include "codegen/Pipeline.h"
#include "passes/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"

#include <fmt/format.h>

#include <algorithm>

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

namespace {

/// Runs `passes` on `module`; on failure returns the first error they
/// reported (or, if none did, that `what` failed). Evaluating a candidate
/// is quiet: its errors are the reason it is illegal.
std::optional<std::string> runQuietly(PassManager &passes, ModuleOp module,
                                      StringRef what) {
  std::string firstError;
  ScopedDiagnosticHandler quiet(module.getContext(), [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error && firstError.empty())
      firstError = d.str();
    return success();
  });
  if (succeeded(passes.run(module)))
    return std::nullopt;
  return firstError.empty() ? what.str() + " failed" : firstError;
}

/// A clone of `module` as compile lowers it, its element-wise chains fused
/// and its ops in the order they run: the buffers the runtime allocates
/// (memory is counted on it) and the calls it makes.
OwningOpRef<ModuleOp> fusedClone(ModuleOp module, std::string &error) {
  OwningOpRef<ModuleOp> fused = module.clone();
  PassManager fuse(module.getContext());
  buildLoweredFormPipeline(fuse);
  if (std::optional<std::string> failure =
          runQuietly(fuse, *fused, "tessel-fuse-elementwise")) {
    error = *failure;
    return nullptr;
  }
  return fused;
}

} // namespace

Evaluation Evaluator::evaluate(const Candidate &candidate,
                               const ModelDims &dims) {
  Evaluation result;
  result.candidate = candidate;
  // Parameters and their state alone: known before any pass runs. The
  // stages of a pipeline share them out, evenly at best (a weight two
  // stages hold counts twice), so the largest stage holds at least 1/p.
  int64_t state = stateBytesPerRank(dims, candidate);
  if (candidate.pipeline) {
    int64_t stages = candidate.axisSize(candidate.pipeline->axis);
    state = (state + stages - 1) / stages;
  }
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
  if (candidate.pipeline)
    applyPipelined(result, scratch, candidate.padUneven,
                   candidate.pipeline->stages);
  else
    apply(result, scratch, candidate.padUneven);
  return result;
}

Evaluation Evaluator::evaluateFile(const std::string &path,
                                   std::vector<Axis> mesh) {
  Evaluation result;
  result.file = path;
  result.candidate.mesh = std::move(mesh);
  if (pipelinesTrainingStep("train", path)) {
    if (!layered) {
      result.status = Evaluation::Illegal;
      result.reason = "a pipelined layout needs the model's layer calls";
      return result;
    }
    applyPipelined(result, path, /*padUneven=*/false, {});
  } else {
    apply(result, path, /*padUneven=*/false);
  }
  return result;
}

std::optional<analysis::PipelineCost>
Evaluator::pipelineCost(const std::string &layoutFile, bool padUneven,
                        const std::vector<std::vector<std::string>> &layers,
                        std::string &error) {
  if (!layered) {
    error = "the model has no layer calls to cut into stages";
    return std::nullopt;
  }
  OwningOpRef<ModuleOp> module = layered.clone();
  // As tessel explain --train builds a pipelined step: compile's passes,
  // FLOPs counted before fusion and buffers after it.
  CompilePipelineOptions compile;
  compile.mode = "train";
  compile.optimizer = optimizer;
  compile.precision = precision;
  compile.dimSizes = dimSizes;
  compile.batchSize = batchSize;
  compile.layoutFile = layoutFile;
  compile.padUneven = padUneven;
  compile.fuseElementwise = false;
  compile.lower = false;
  PassManager pm(layered.getContext());
  buildCompilePipeline(pm, compile);
  if (std::optional<std::string> failure =
          runQuietly(pm, *module, "the pipelined compile")) {
    error = *failure;
    return std::nullopt;
  }
  OwningOpRef<ModuleOp> fused = fusedClone(*module, error);
  if (!fused)
    return std::nullopt;
  return analysis::buildPipelineCost(*module, *fused, layers, profile, error);
}

void Evaluator::applyPipelined(
    Evaluation &result, const std::string &layoutFile, bool padUneven,
    const std::vector<std::vector<std::string>> &layers) {
  std::string error;
  std::optional<analysis::PipelineCost> cost =
      pipelineCost(layoutFile, padUneven, layers, error);
  if (!cost) {
    result.status = Evaluation::Illegal;
    result.reason = error;
    return;
  }
  // A rank holds its stage's peak beside the driver's own memory and its
  // call sites'; the job needs the largest stage's.
  int64_t memory = 0, flops = 0, sent = 0;
  int64_t m = cost->microbatches;
  for (const analysis::StageCost &stage : cost->stages) {
    memory = std::max(memory, stage.memoryBytes);
    flops = std::max(flops, m * (stage.forwardFlops + stage.backwardFlops) +
                                stage.applyFlops);
    // Its messages to the neighbouring stages and its collectives (the
    // data and model axes' all-reduces and gathers), as an unpipelined
    // candidate counts its collectives' bytes.
    sent = std::max(sent, stage.sentForwardBytes + stage.sentBackBytes +
                              stage.collectiveBytesPerStep);
  }
  result.memoryBytes = memory;
  result.pipeline = std::move(cost);
  if (budget && result.memoryBytes > *budget) {
    result.status = Evaluation::OverBudget;
    result.reason = fmt::format("peak memory {} per rank (the largest stage)",
                                bytesText(result.memoryBytes));
    return;
  }
  const analysis::PipelineCost &pipeline = *result.pipeline;
  int64_t p = static_cast<int64_t>(pipeline.stages.size());
  result.step.commSeconds =
      double(p - 1) * (pipeline.sendForwardSeconds + pipeline.sendBackSeconds) +
      double(m) * pipeline.stages[pipeline.slowestStage].messageSeconds;
  result.step.computeSeconds = pipeline.stepSeconds - result.step.commSeconds;
  result.commBytes = sent;
  result.flops = flops;
}

void Evaluator::apply(Evaluation &result, const std::string &layoutFile,
                      bool padUneven) {
  MLIRContext *context = trained.getContext();
  OwningOpRef<ModuleOp> module = trained.clone();
  auto fail = [&](std::string reason) {
    result.status = Evaluation::Illegal;
    result.reason = std::move(reason);
  };
  PassManager layout(context);
  TesselApplyLayoutOptions options;
  options.layoutFile = layoutFile;
  options.padUneven = padUneven;
  layout.addPass(createTesselApplyLayout(options));
  if (std::optional<std::string> failure =
          runQuietly(layout, *module, "tessel-apply-layout"))
    return fail(*failure);
  std::string error;
  std::optional<CountedStep> counted =
      countStep(std::move(module), "train_step", kDefaultBucketBytes, profile,
                runQuietly, error);
  if (!counted)
    return fail(error);
  const analysis::CostReport &report = counted->report;
  // Memory as tessel explain counts it: what the compiled step holds (on
  // the fused program compile lowers) and the driver's own.
  result.memoryBytes = analysis::memoryBytesPerRank(report);
  if (budget && result.memoryBytes > *budget) {
    result.status = Evaluation::OverBudget;
    result.reason =
        fmt::format("peak memory {} per rank", bytesText(result.memoryBytes));
    return;
  }
  result.commBytes = report.commBytesPerRank;
  result.flops = report.flopsPerRank;
  result.step = predictStep(*counted, profile);
}

bool search::faster(const Evaluation &a, const Evaluation &b) {
  double ta = a.step.totalSeconds(), tb = b.step.totalSeconds();
  if (ta != tb)
    return ta < tb;
  if (a.memoryBytes != b.memoryBytes)
    return a.memoryBytes < b.memoryBytes;
  return a.candidate.mesh.size() < b.candidate.mesh.size();
}
