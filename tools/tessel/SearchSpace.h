//===- SearchSpace.h - the layouts tessel search considers ------*- C++ -*-===//
//
// The candidates of `tessel search` come from the model's own dimension
// names, read from its training step:
//   - batch-like dims (in every data input, in no parameter) go to a `data`
//     axis;
//   - parameters' dims (hidden, heads, d_ff, vocab, channels, ...) go to a
//     `model` axis, in sets that never put two dims of one tensor on the
//     same axis (the legality rule of tessel-apply-layout): each dim alone,
//     and each maximal such set (Megatron's heads + d_ff);
//   - ZeRO: with a data axis, an override per parameter splits it (and its
//     optimizer state) over `data` along one of its own dims;
//   - a second model axis `model2` splits another set of dims (a 2-D
//     tensor split), tried only around the best candidates of the first
//     stage (refine());
//   - a `stage` axis pipelines a model whose @forward is a chain of layer
//     calls (pipelinedCandidates(); where the stages are cut,
//     SearchStages.h), beside data and model axes on the other ranks; one
//     over the memory budget is tried again with remat and with ZeRO
//     (lessMemoryVariants()).
// Meshes are the factorizations of the rank count into these axes; a split
// that does not divide its dimension pads (pad_uneven).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TOOLS_TESSEL_SEARCHSPACE_H
#define TESSEL_TOOLS_TESSEL_SEARCHSPACE_H

#include "dialect/TesselDialect.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace mlir::tessel::search {

struct Dim {
  std::string name;
  /// The smallest size the dim has in any tensor of the step (a pooled
  /// `h` may keep its name at half the size).
  int64_t size = 0;
};

/// A trained tensor that stays for the whole step: a parameter, with the
/// optimizer state that follows its layout.
struct StateTensor {
  std::string name;
  std::vector<Dim> dims;
  /// Bytes of the parameter and its state (momentum, Adam's moments)
  /// together, unsplit.
  int64_t bytes = 0;
};

/// What the search knows about a training step.
struct ModelDims {
  std::vector<Dim> batchDims;
  std::vector<Dim> modelDims;
  /// Pairs of dims (name order) that share some tensor.
  std::set<std::pair<std::string, std::string>> together;
  std::vector<StateTensor> parameters;
  /// Every size each dim has somewhere in the step.
  std::map<std::string, std::set<int64_t>> sizesOf;

  bool shareATensor(const std::string &a, const std::string &b) const;
};

/// Reads the dims, their sizes and which share a tensor from `trainStep`
/// (after tessel-autodiff).
ModelDims analyzeTrainStep(func::FuncOp trainStep);

struct Axis {
  std::string name;
  int64_t size = 1;
};

/// A candidate's `pipeline:` section (docs/pipeline.md): its stages over
/// the mesh axis `axis`, each listed by the scopes of the layer calls that
/// may start it (the first does).
struct PipelinePlan {
  std::string axis = "stage";
  int64_t microbatches = 1;
  /// The scopes of each stage's layer calls (the first starts the stage).
  std::vector<std::vector<std::string>> stages;
  std::string batchDim = "batch";
  /// Each stage's backward computes its forward again instead of keeping
  /// its residuals (`remat: true`): less memory, about one more forward.
  bool remat = false;
};

struct Candidate {
  std::vector<Axis> mesh;
  /// dim -> axis.
  std::vector<std::pair<std::string, std::string>> rules;
  /// tensor -> (dim, axis).
  std::vector<std::pair<std::string, std::pair<std::string, std::string>>>
      overrides;
  bool zero = false;
  bool padUneven = false;
  /// Set for a pipelined candidate (schedule 1f1b, with or without remat).
  std::optional<PipelinePlan> pipeline;

  int64_t axisSize(const std::string &axis) const;
  /// "data:2 x model:2".
  std::string meshText() const;
  /// "batch->data, hidden->model" (+ "ZeRO over data", + the stages).
  std::string rulesText() const;
  /// Names the layout up to the names and order of the model axes: two
  /// candidates with one key are the same layout on ranks numbered
  /// differently.
  std::string canonicalKey() const;
  /// The layout file, led by `header` (comment lines).
  std::string yaml(const std::string &header) const;
};

/// Returns the bytes of parameters and optimizer state one rank holds under
/// `candidate`: a lower bound of its memory, known before any pass runs.
int64_t stateBytesPerRank(const ModelDims &dims, const Candidate &candidate);

/// Returns the candidates with at most one data and one model axis on
/// `ranks` ranks.
std::vector<Candidate> baseCandidates(const ModelDims &dims, int64_t ranks);

/// Returns candidates that split `base`'s model axis into `model` and
/// `model2`, the second splitting other dims.
std::vector<Candidate> refine(const ModelDims &dims, const Candidate &base);

/// Returns the pipelined candidates on `ranks` ranks whose stages are
/// `stages` (schedule 1f1b, micro-batches cut from `batch`): a stage axis
/// of stages.size() ranks, the rest of the mesh a data axis splitting
/// `batch` and a model axis splitting the first of `modelSets` (dim names,
/// best first) whose dims are all at least the axis size (else the
/// largest dim that is), for every factorization of the rest; p, 2p and
/// 4p micro-batches for p stages, where the data axis times the
/// micro-batches divides the batch (none of them: the most up to 4p that
/// do, if any). Search doubles the most of them while they are the fastest
/// (withTwiceTheMicrobatches()).
std::vector<Candidate>
pipelinedCandidates(const ModelDims &dims, int64_t ranks,
                    const std::vector<std::vector<std::string>> &stages,
                    const Dim &batch,
                    const std::vector<std::vector<std::string>> &modelSets);

/// Returns `candidate`, pipelined, with twice its micro-batches, where its
/// batch (`model`'s dim of that name) still splits evenly over them and its
/// data axis; none otherwise.
std::optional<Candidate> withTwiceTheMicrobatches(const ModelDims &model,
                                                  const Candidate &candidate);

/// Returns `candidate` with ZeRO's overrides: every parameter it can split
/// split over the data axis along a dim no other axis splits. None where
/// it has no data axis, already has them, or no parameter can be split.
std::optional<Candidate> withZero(const ModelDims &model,
                                  const Candidate &candidate);

/// Returns what search tries for a pipelined candidate over the memory
/// budget, `candidate` holding less: with ZeRO overrides splitting every
/// parameter it can over the data axis (when there is one; the stages'
/// weights, gradient sums and optimizer state), with `remat: true` (each
/// stage keeping a micro-batch's input rather than its residuals), and
/// with both. `stateOverBudget`: the parameters and state alone are over
/// it, which remat does not shrink, so only ZeRO variants.
std::vector<Candidate> lessMemoryVariants(const ModelDims &model,
                                          const Candidate &candidate,
                                          bool stateOverBudget);

} // namespace mlir::tessel::search

#endif // TESSEL_TOOLS_TESSEL_SEARCHSPACE_H
