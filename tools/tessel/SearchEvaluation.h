//===- SearchEvaluation.h - one candidate of tessel search, weighed -*- C++
//-*-===//
//
// Each candidate layout is applied to a clone of the training module
// (tessel-apply-layout: its errors make it illegal), partitioned as
// compile does, its peak memory per rank counted as tessel explain counts
// it (CostReport's addRuntimeMemory: the compiled step's buffers and the
// driver's own) and, within the budget, its step time predicted on a
// machine profile (StepTime.h).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TOOLS_TESSEL_SEARCHEVALUATION_H
#define TESSEL_TOOLS_TESSEL_SEARCHEVALUATION_H

#include "tools/tessel/SearchSpace.h"

#include "analysis/MachineProfile.h"
#include "analysis/StepTime.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Path.h"

#include <optional>
#include <string>

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
  ::tessel::analysis::StepTime step;

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

private:
  /// Applies the layout file `layoutFile` to a clone of the training
  /// module and fills in `result`.
  void apply(Evaluation &result, const std::string &layoutFile, bool padUneven);

  ModuleOp trained;
  const ::tessel::analysis::MachineProfile &profile;
  std::optional<int64_t> budget;
  /// A file the candidate's layout is written to, as compile reads one.
  std::string scratch;
};

/// Ranks by predicted step time, then memory, then the smaller mesh
/// (fewer axes is simpler to run).
bool faster(const Evaluation &a, const Evaluation &b);

} // namespace mlir::tessel::search

#endif // TESSEL_TOOLS_TESSEL_SEARCHEVALUATION_H
