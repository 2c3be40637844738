//===- PipelineEvaluation.h - Evaluation through stages ---------*- C++ -*-===//
//
// A pipelined program's evaluation (docs/pipeline.md, "Evaluation"):
// tessel-split-stages cuts the model's evaluate into `stage{s}_evaluate`,
// forward only, as it cuts the loss. Each rank runs its stage's part on
// the micro-batches of a held-out batch in order, receiving the
// activations from the stage before and sending its own to the next, as
// the training step's forwards do; the last stage adds up the loss and the
// right predictions, which the whole pipeline then shares. A batch holds
// the examples of a training step (its micro-batches), so the examples
// evaluated, and the figures, are the unpipelined program's.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_PIPELINEEVALUATION_H
#define TESSEL_RUNTIME_DRIVER_PIPELINEEVALUATION_H

#include "driver/BatchFeeder.h"
#include "driver/Evaluation.h"
#include "driver/Metadata.h"
#include "driver/StageLinks.h"
#include "tessel/runtime/program.h"

#include <mpi.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tessel::driver {

class PipelineEvaluator {
public:
  /// Checks that this rank's stage function `function` (the metadata of
  /// `stage{s}_evaluate`) takes data that `heldOut` holds, activations from
  /// the stage before, and otherwise tensors of the stage's state (the
  /// results of `init`), and on the last stage returns scalars `loss` and
  /// `correct`. The activations it receives are `inputs`, those it sends
  /// on `outputs` (each in the receiver's argument order). A held-out
  /// batch is `microbatches` micro-batches of `microbatchSize` examples.
  static std::optional<PipelineEvaluator>
  create(const FunctionSpec &function, tessel_function_t evaluate,
         const FunctionSpec &init, const Dataset &heldOut, bool first,
         bool last, std::vector<const ValueSpec *> inputs,
         std::vector<const ValueSpec *> outputs, int64_t microbatches,
         int64_t microbatchSize, std::string &error);

  /// Runs the first `maxBatches` full batches (0: all of them), taking each
  /// argument that is neither data nor an activation from
  /// `stateBuffer(name)`. Collective over the ranks; every rank returns
  /// the last stage's figures (broadcast over `pipelineComm`, where the
  /// last stage is the last rank).
  std::optional<EvaluationResult>
  run(const layout::Mesh &mesh, int64_t rank, tessel_context_t *context,
      StageLinks &links, MPI_Comm pipelineComm,
      const std::function<void *(const std::string &)> &stateBuffer,
      int64_t maxBatches, std::string &error) const;

  int64_t batches() const { return numBatches; }
  int64_t examplesPerBatch() const { return microbatches * microbatchSize; }

private:
  PipelineEvaluator(const FunctionSpec &function, tessel_function_t evaluate,
                    const Dataset &heldOut)
      : function(&function), evaluate(evaluate), heldOut(&heldOut) {}

  const FunctionSpec *function;
  tessel_function_t evaluate;
  const Dataset *heldOut;
  std::vector<Feed> feeds;
  bool first = true, last = true;
  std::vector<const ValueSpec *> inputs, outputs;
  int lossResult = -1, correctResult = -1;
  int64_t microbatches = 1, microbatchSize = 0, numBatches = 0;
  /// Predictions `correct` counts in a micro-batch (the last stage's).
  int64_t predictionsPerMicrobatch = 0;
  bool languageModel = false;
};

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_PIPELINEEVALUATION_H
