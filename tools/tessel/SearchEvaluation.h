//===- SearchEvaluation.h - one candidate of tessel search, weighed -*- C++
//-*-===//
//
// Each candidate layout is applied to a clone of the training module
// (tessel-apply-layout: its errors make it illegal), partitioned as
// compile does, its peak memory per rank counted as tessel explain counts
// it (CostReport's addRuntimeMemory: the compiled step's buffers and the
// driver's own) and, within the budget, its step time predicted on a
// machine profile (StepTime.h). A pipelined candidate is compiled from the
// model's layer calls as `tessel compile` compiles it and weighed as
// `tessel explain --train` weighs it (analysis/PipelineCost.h: the slowest
// stage's peak, the pipelined step time with its bubble).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TOOLS_TESSEL_SEARCHEVALUATION_H
#define TESSEL_TOOLS_TESSEL_SEARCHEVALUATION_H

#include "tools/tessel/SearchSpace.h"

#include "analysis/MachineProfile.h"
#include "analysis/PipelineCost.h"
#include "analysis/StepTime.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Path.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::tessel::search {

/// Spells a byte count with a binary unit: "1.16 MiB".
std::string bytesText(int64_t bytes);

struct Evaluation {
  /// A candidate of the search, or (with `file`) a layout file's mesh.
  Candidate candidate;
  /// The layout file (--compare) this is the evaluation of, if any.
  std::string file;
  enum Status { Ranked, Illegal, OverBudget } status = Ranked;
  /// Why a candidate is out: the first error of tessel-apply-layout or
  /// tessel-partition, or the memory it needs.
  std::string reason;
  int64_t memoryBytes = 0;
  /// Whether memoryBytes is only the parameters and optimizer state (the
  /// candidate was dropped before its layout was applied).
  bool memoryIsLowerBound = false;
  int64_t commBytes = 0;
  int64_t flops = 0;
  /// For a pipelined candidate: commSeconds is the messages between
  /// stages on the step's path (those of the fill and drain, and the
  /// busiest stage's handling of its own: m x M_s), computeSeconds the rest
  /// of the step (its functions, collectives within a stage included, the
  /// gradient sums and the slowest update; PipelineCost.h).
  ::tessel::analysis::StepTime step;
  /// What explain reports for a pipelined candidate: each stage's cost,
  /// the bubble and the step.
  std::optional<::tessel::analysis::PipelineCost> pipeline;

  std::string meshText() const { return candidate.meshText(); }
  std::string rulesText() const {
    return file.empty()
               ? candidate.rulesText()
               : "layout file " + llvm::sys::path::filename(file).str();
  }
};

/// Applies, measures and times candidates on clones of the training module.
class Evaluator {
public:
  Evaluator(ModuleOp trained, const ::tessel::analysis::MachineProfile &profile,
            std::optional<int64_t> budget, std::string scratch)
      : trained(trained), profile(profile), budget(budget),
        scratch(std::move(scratch)) {}

  /// Evaluates `candidate`; one whose parameters and optimizer state alone
  /// exceed the budget is dropped before its layout is applied.
  Evaluation evaluate(const Candidate &candidate, const ModelDims &dims);

  /// Evaluates the layout file at `path`, whose mesh is `mesh`.
  Evaluation evaluateFile(const std::string &path, std::vector<Axis> mesh);

  /// Lets the evaluator compile pipelined layouts: from `model`, the model
  /// with its layer calls, with compile's --optimizer, --precision,
  /// --dim-size and --batch.
  void allowPipelines(ModuleOp model, std::string optimizer,
                      std::string precision, std::vector<std::string> dimSizes,
                      int64_t batchSize) {
    layered = model;
    this->optimizer = std::move(optimizer);
    this->precision = std::move(precision);
    this->dimSizes = std::move(dimSizes);
    this->batchSize = batchSize;
  }

  /// Compiles the pipelined layout file `layoutFile` as `tessel compile`
  /// does and returns what `tessel explain --train` reports of it, with
  /// `layers` as each stage's layers; std::nullopt with the first error in
  /// `error`.
  std::optional<::tessel::analysis::PipelineCost>
  pipelineCost(const std::string &layoutFile, bool padUneven,
               const std::vector<std::vector<std::string>> &layers,
               std::string &error);

private:
  /// Compiles the pipelined layout `layoutFile` and fills in `result`.
  void applyPipelined(Evaluation &result, const std::string &layoutFile,
                      bool padUneven,
                      const std::vector<std::vector<std::string>> &layers);

  /// Applies the layout file `layoutFile` to a clone of the training
  /// module and fills in `result`.
  void apply(Evaluation &result, const std::string &layoutFile, bool padUneven);

  ModuleOp trained;
  const ::tessel::analysis::MachineProfile &profile;
  std::optional<int64_t> budget;
  /// A file the candidate's layout is written to, as compile reads one.
  std::string scratch;
  /// The model with its layer calls (null: no pipelined layouts), and the
  /// options its pipelined steps are compiled with.
  ModuleOp layered;
  std::string optimizer = "sgd";
  std::string precision = "f32";
  std::vector<std::string> dimSizes;
  int64_t batchSize = 0;
};

/// Ranks by predicted step time, then memory, then the smaller mesh
/// (fewer axes is simpler to run).
bool faster(const Evaluation &a, const Evaluation &b);

} // namespace mlir::tessel::search

#endif // TESSEL_TOOLS_TESSEL_SEARCHEVALUATION_H
