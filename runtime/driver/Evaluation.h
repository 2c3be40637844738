//===- Evaluation.h - Loss and accuracy on held-out data --------*- C++ -*-===//
//
// A model may define `evaluate(parameters..., data...) -> (loss, correct)`
// (the examples do; tessel-autodiff makes the parameters arguments), `loss`
// the mean over the batch and `correct` the number of right predictions in
// it: one per example of a classifier, one per position of a language model
// (whose data are `tokens` and `targets`). The driver runs it over held-out
// batches of the model's batch size, every --eval-every steps (validation)
// and after training (test), and reports the mean loss, the accuracy per
// prediction and, for a language model, the perplexity exp(loss).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_EVALUATION_H
#define TESSEL_RUNTIME_DRIVER_EVALUATION_H

#include "driver/BatchFeeder.h"
#include "driver/FashionMnist.h"
#include "driver/Metadata.h"
#include "tessel/runtime/program.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>

namespace tessel::driver {

struct EvaluationResult {
  /// Examples evaluated: images, rows of arrays, or windows of text.
  int64_t examples = 0;
  /// Predictions among them, what `correct` counts: an example's label, or
  /// a window's targets (one per position).
  int64_t predictions = 0;
  double correct = 0;
  double meanLoss = 0;
  /// Wall time inside the model's evaluate calls (the forward passes and
  /// their communication), without making the batches.
  double forwardSeconds = 0;
  /// Whether the model is a language model, which has a perplexity.
  bool languageModel = false;

  double accuracy() const {
    return predictions ? correct / static_cast<double>(predictions) : 0.0;
  }
  /// exp(mean loss): the mean cross-entropy per position, in nats, as the
  /// number of equally likely next bytes.
  double perplexity() const;
};

/// The metrics line of an evaluation on `split` ("validation" or "test")
/// after step `afterStep` (counted from 1).
nlohmann::json evaluationRecord(const std::string &split, int64_t afterStep,
                                const EvaluationResult &result);

/// "loss 0.4321  accuracy 85.12%[  perplexity 3.21]", for progress lines.
std::string describeEvaluation(const EvaluationResult &result);

/// Prints the test evaluation's line ("test accuracy 85.12% (8512 of 10000
/// examples), loss 0.4321; forward passes ..."), which scripts read.
void printTestEvaluation(const EvaluationResult &result);

/// How a function that runs on held-out data is fed: each argument's
/// source (data by its name, the rest trained state), and the data
/// arguments that tell the batch size and what `correct` counts.
struct EvaluationFeeds {
  std::vector<Feed> feeds;
  /// The first data argument; null when the function reads none (a
  /// pipeline stage in the middle).
  const ValueSpec *firstData = nullptr;
  /// `targets` or `labels`, whose elements `correct` counts; may be null.
  const ValueSpec *predicted = nullptr;
  /// A language model's: its loss per position has a perplexity.
  bool languageModel = false;

  /// What `correct` counts in a batch of `batchSize` examples: an element
  /// of the targets or labels each (a language model's positions, a
  /// classifier's examples); without either, one per example.
  int64_t predictionsPerBatch(int64_t batchSize) const {
    return predicted ? predicted->global.numElements() : batchSize;
  }
};

/// The feeds of `function` from `heldOut`; an error when a data argument
/// does not fit the data or two have different batch sizes.
std::optional<EvaluationFeeds> evaluationFeeds(const FunctionSpec &function,
                                               const Dataset &heldOut,
                                               std::string &error);

/// Checks that every argument of `function` named like a trained tensor (a
/// result of `init`) has that tensor's block: evaluate reads the trained
/// buffers by name, and a block of another shape or type would be read out
/// of bounds.
std::optional<std::string> checkTrainedArguments(const FunctionSpec &function,
                                                 const FunctionSpec &init);

/// The places of evaluate's `loss` and `correct` among `function`'s
/// results; -1 for one it lacks.
struct EvaluationResults {
  int loss = -1, correct = -1;
};
EvaluationResults evaluationResults(const FunctionSpec &function);

/// Runs a program's evaluate over a held-out dataset.
class Evaluator {
public:
  /// Checks that `function` (the metadata of `evaluate`) takes data that
  /// `heldOut` holds and returns scalars `loss` and `correct`; fills
  /// `error` otherwise.
  static std::optional<Evaluator> create(const FunctionSpec &function,
                                         tessel_function_t evaluate,
                                         const Dataset &heldOut,
                                         std::string &error);

  /// Runs `evaluate` on the first `maxBatches` full batches in order (0:
  /// all of them), taking each argument that is not data from
  /// `stateBuffer(name)`. Collective over the ranks; fills `error` and
  /// returns nothing when an argument is neither data nor state.
  std::optional<EvaluationResult>
  run(const layout::Mesh &mesh, int64_t rank, tessel_context_t *context,
      const std::function<void *(const std::string &)> &stateBuffer,
      int64_t maxBatches, std::string &error) const;

  /// The full batches of the held-out data (a partial last one is left
  /// out: the compiled program has one batch size).
  int64_t batches() const { return numBatches; }
  int64_t examplesPerBatch() const { return batchSize; }

private:
  Evaluator(const FunctionSpec &function, tessel_function_t evaluate,
            const Dataset &heldOut)
      : function(&function), evaluate(evaluate), heldOut(&heldOut) {}

  const FunctionSpec *function;
  tessel_function_t evaluate;
  const Dataset *heldOut;
  /// Where each argument of evaluate comes from.
  std::vector<Feed> feeds;
  int lossResult = -1, correctResult = -1;
  int64_t batchSize = 0, numBatches = 0, predictionsPerBatch = 0;
  bool languageModel = false;
};

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_EVALUATION_H
