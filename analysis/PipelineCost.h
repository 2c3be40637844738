//===- PipelineCost.h - what a pipelined training step costs ----*- C++ -*-===//
//
// What `tessel explain --train` reports for a layout with a `pipeline:`
// section (docs/pipeline.md): per stage, what one rank of the stage holds
// (parameters, optimizer state, gradient sums, the micro-batches kept from
// forward to backward under the schedule), computes per micro-batch and
// sends to its neighbours; for the whole pipeline, the bubble and a step
// time predicted from the machine profile. Everything is read from the
// per-rank functions `tessel compile` makes (stage{s}_forward, _backward,
// _apply), by the names the pipeline passes give the tensors that cross
// between them (passes/Pipelining.h).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_ANALYSIS_PIPELINECOST_H
#define TESSEL_ANALYSIS_PIPELINECOST_H

#include "analysis/MachineProfile.h"
#include "dialect/TesselDialect.h"

#include <optional>
#include <string>
#include <vector>

namespace tessel::analysis {

/// One stage, as one of its ranks sees it. Bytes are a rank's local bytes
/// (elements times element size) unless said otherwise.
struct StageCost {
  int64_t stage = 0;
  /// The scopes of the layer calls the stage runs, in order.
  std::vector<std::string> layers;
  /// The stage's parameters: tensors, elements of the whole tensors, and
  /// bytes on a rank.
  int64_t parameterTensors = 0;
  int64_t parameterElements = 0;
  int64_t parameterBytes = 0;
  /// Parameters that other stages hold too (a tied embedding).
  std::vector<std::string> sharedParameters;
  int64_t stateBytes = 0;
  /// The gradients summed over the micro-batches until the update.
  int64_t gradientSumBytes = 0;
  /// Per micro-batch, on a rank, as addPartitionedCosts counts them.
  int64_t forwardFlops = 0;
  int64_t backwardFlops = 0;
  /// Once per step: the optimizer's update.
  int64_t applyFlops = 0;
  /// The ops each compiled function runs (after fusion): per micro-batch
  /// for the forward and backward, once per step for apply.
  int64_t forwardOps = 0;
  int64_t backwardOps = 0;
  int64_t applyOps = 0;
  /// What the forward returns for its backward (stage{s}.residual*).
  int64_t residualBytes = 0;
  /// All that one micro-batch keeps from its forward to its backward: its
  /// data, the activations received and the residuals.
  int64_t keptBytes = 0;
  /// The most micro-batches between forward and backward at once under
  /// the schedule, and the bytes they keep.
  int64_t microbatchesHeld = 0;
  int64_t heldBytes = 0;
  /// Activations to stage s+1 and their gradients to stage s-1, per step
  /// (all micro-batches).
  int64_t sentForwardBytes = 0;
  int64_t sentBackBytes = 0;
  /// The memory each function needs beyond what is counted above (the
  /// parameters, state, sums and kept micro-batches), as the runtime
  /// allocates it (RuntimeMemory: buffers rounded as its cache rounds
  /// them, constants, kernel scratch, staging).
  int64_t forwardWorkingBytes = 0;
  int64_t backwardWorkingBytes = 0;
  int64_t applyWorkingBytes = 0;
  /// The working buffers of the three that the runtime's cache holds
  /// beside the held micro-batches, as they run one after another: for
  /// each buffer size, the most alive at once in a step (the held ones
  /// serve apply where sizes match). More than the largest of the three
  /// where their sizes differ.
  int64_t cachedWorkingBytes = 0;
  /// The three's memory outside the cache: their constants (each kept),
  /// the widened copies (the largest), and the largest of one function's
  /// kernel scratch, collectives' temporaries and staged data.
  int64_t otherWorkingBytes = 0;
  /// What the runtime call sites of the three and of the stage's init
  /// hold beyond those of the program that measured the driver's bytes
  /// (MachineProfile::callSitesBytes): negative for a shorter stage.
  int64_t callSiteBytes = 0;
  /// parameters + state + gradient sums + held + the cached working
  /// buffers + the other working memory.
  int64_t peakBytes = 0;
  /// The stage's ranks' peak resident memory: peakBytes, the driver's own
  /// memory (PipelineCost::driverBytes) and callSiteBytes.
  int64_t memoryBytes = 0;
  /// The collectives a rank calls in a step and the bytes it sends in
  /// them: m times the forward's and the backward's, and apply's once
  /// (the point-to-point messages between stages are not among them).
  int64_t collectivesPerStep = 0;
  int64_t collectiveBytesPerStep = 0;
  /// Predicted seconds (StepTime, each function's ops times the per-op
  /// seconds included): per micro-batch, per step for apply, and one
  /// micro-batch's messages to each neighbour.
  double forwardSeconds = 0;
  double backwardSeconds = 0;
  double applySeconds = 0;
  double sendForwardSeconds = 0;
  double sendBackSeconds = 0;
  /// What the driver does per micro-batch on the stage's own time, beside
  /// the compiled functions: adding each micro-batch's gradients after the
  /// first to their sums (one tessel.add per gradient, as an element-wise
  /// kernel of the gradient's size plus one op's per-op seconds), and
  /// moving its messages: each message sent or received is copied between
  /// its buffers and one contiguous block, and each one received arrives
  /// while the stage waits for it (on one machine the ranks' own cores
  /// move MPI's bytes), timed as a collective permute of two ranks.
  double gradientSumSeconds = 0;
  double messageSeconds = 0;

  /// The seconds the stage is busy in a step of `microbatches`:
  /// m (F + B + M) + (m - 1) G, without the update.
  double busySeconds(int64_t microbatches) const {
    return double(microbatches) *
               (forwardSeconds + backwardSeconds + messageSeconds) +
           double(microbatches - 1) * gradientSumSeconds;
  }
};

struct PipelineCost {
  std::string axis;
  std::string schedule;
  bool remat = false;
  int64_t microbatches = 1;
  std::vector<std::string> meshAxes;
  std::vector<int64_t> meshSizes;
  int64_t numRanks = 1;
  std::vector<StageCost> stages;
  /// The profile's seconds per op outside its kernel, in a job of
  /// numRanks: in every function's time and every gradient sum.
  double perOpSeconds = 0;
  /// (p - 1) / (m + p - 1): the share of a step a stage waits while the
  /// pipeline fills and drains.
  double bubbleFraction = 0;
  /// The stage busiest over the step's micro-batches (busySeconds).
  int64_t slowestStage = 0;
  /// The longest forward + backward of one micro-batch on any stage: the
  /// time of each of the p - 1 slots while the pipeline fills and drains.
  double fillSlotSeconds = 0;
  /// The largest one-micro-batch transfer forward and back over any
  /// boundary, and the slowest apply.
  double sendForwardSeconds = 0;
  double sendBackSeconds = 0;
  double applySeconds = 0;
  /// (p - 1) (the longest F + B and the two transfers) + the busiest
  /// stage's m (F + B + M) + (m - 1) G + the slowest apply
  /// (stepTimeFormula()).
  double stepSeconds = 0;
  /// The driver's own memory (machine profile), beside each stage's peak.
  int64_t driverBytes = 0;
};

/// The scopes of the layer calls of each stage{s}_loss that
/// tessel-split-stages made in `split`, by stage.
std::vector<std::vector<std::string>> layersOfStages(mlir::ModuleOp split);

/// Builds the cost of the pipelined step in `partitioned` (the module of
/// `tessel compile`'s passes without fusion or lowering: the stage
/// functions of each rank) and `fused` (the same after
/// tessel-fuse-elementwise, whose buffers the runtime allocates), with the
/// layers of each stage and the machine profile the times come from.
/// Returns std::nullopt, with a message in `error`, if the module is not a
/// pipelined step.
std::optional<PipelineCost>
buildPipelineCost(mlir::ModuleOp partitioned, mlir::ModuleOp fused,
                  const std::vector<std::vector<std::string>> &layers,
                  const MachineProfile &profile, std::string &error);

/// The step time formula, in words and symbols.
const char *stepTimeFormula();

/// Renders the cost as aligned text tables, as formatText renders a
/// CostReport.
std::string formatPipelineText(const PipelineCost &cost);

/// Renders the cost as JSON: `pipeline`, `mesh`, `ranks`, `stages[]` and
/// `step`.
std::string formatPipelineJson(const PipelineCost &cost);

} // namespace tessel::analysis

#endif // TESSEL_ANALYSIS_PIPELINECOST_H
