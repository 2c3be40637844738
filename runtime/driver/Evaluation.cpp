//===- Evaluation.cpp - Loss and accuracy on held-out data ----------------===//

#include "driver/Evaluation.h"

#include "driver/Batches.h"
#include "executor/Backend.h"
#include "executor/Buffers.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace tessel::driver {

double EvaluationResult::perplexity() const { return std::exp(meanLoss); }

nlohmann::json evaluationRecord(const std::string &split, int64_t afterStep,
                                const EvaluationResult &result) {
  nlohmann::json record = {{"split", split},
                           {"after_step", afterStep},
                           {"loss", result.meanLoss},
                           {"accuracy", result.accuracy()},
                           {"examples", result.examples},
                           {"predictions", result.predictions},
                           {"forward_seconds", result.forwardSeconds}};
  if (result.languageModel)
    record["perplexity"] = result.perplexity();
  return record;
}

std::string describeEvaluation(const EvaluationResult &result) {
  std::string text = fmt::format("loss {:.4f}  accuracy {:.2f}%",
                                 result.meanLoss, 100 * result.accuracy());
  if (result.languageModel)
    text += fmt::format("  perplexity {:.2f}", result.perplexity());
  return text;
}

void printTestEvaluation(const EvaluationResult &result) {
  double seconds = result.forwardSeconds;
  std::string counted = result.languageModel
                            ? fmt::format("{} positions in {} sequences",
                                          result.predictions, result.examples)
                            : fmt::format("{} examples", result.predictions);
  fmt::print("test accuracy {:.2f}% ({:.0f} of {}), loss {:.4f}{}; "
             "forward passes {:.3f}s ({:.0f} examples/s)\n",
             100 * result.accuracy(), result.correct, counted, result.meanLoss,
             result.languageModel
                 ? fmt::format(", perplexity {:.2f}", result.perplexity())
                 : "",
             seconds, result.examples / seconds);
  std::fflush(stdout);
}

EvaluationResults evaluationResults(const FunctionSpec &function) {
  EvaluationResults results;
  for (size_t i = 0; i < function.results.size(); ++i) {
    if (function.results[i].name == "loss")
      results.loss = static_cast<int>(i);
    if (function.results[i].name == "correct")
      results.correct = static_cast<int>(i);
  }
  return results;
}

std::optional<std::string> checkTrainedArguments(const FunctionSpec &function,
                                                 const FunctionSpec &init) {
  for (const ValueSpec &argument : function.arguments)
    for (const ValueSpec &trained : init.results)
      if (trained.name == argument.name &&
          (trained.global.shape != argument.global.shape ||
           trained.local.shape != argument.local.shape ||
           trained.local.type != argument.local.type))
        return fmt::format("{}'s '{}' is {} (on this rank {}), but the trained "
                           "'{}' is {} (on this rank {})",
                           function.name, argument.name, argument.global.str(),
                           argument.local.str(), trained.name,
                           trained.global.str(), trained.local.str());
  return std::nullopt;
}

std::optional<EvaluationFeeds> evaluationFeeds(const FunctionSpec &function,
                                               const Dataset &heldOut,
                                               std::string &error) {
  // The data arguments: those named after an array of a .npy dataset, a
  // text corpus's tokens and targets, or else Fashion-MNIST's images and
  // labels. The rest are trained tensors, found by name when it runs.
  bool arrays = !heldOut.arrays.empty(), text = !heldOut.text.empty();
  EvaluationFeeds fed;
  const ValueSpec *&firstData = fed.firstData;
  const ValueSpec *&predicted = fed.predicted;
  for (const ValueSpec &argument : function.arguments) {
    const std::string &name = argument.name;
    Feed feed = Feed::State;
    if (arrays && heldOut.arrays.count(name))
      feed = Feed::Array;
    else if (text && (name == "tokens" || name == "targets"))
      feed = name == "tokens" ? Feed::Tokens : Feed::Targets;
    else if (!arrays && !text && (name == "images" || name == "labels"))
      feed = name == "images" ? Feed::Images : Feed::Labels;
    else if (name == "dropout_step" && argument.global.numElements() == 1 &&
             !ref::isFloatType(argument.global.type))
      feed = Feed::DropoutStep;
    fed.feeds.push_back(feed);
    if (feed == Feed::State || feed == Feed::DropoutStep)
      continue;
    if (feed == Feed::Array)
      if (std::optional<std::string> misfit =
              checkArrayFits(heldOut.arrays.at(name), argument)) {
        error = *misfit;
        return std::nullopt;
      }
    if (!firstData)
      firstData = &argument;
    if (batchSizeOf(argument) != batchSizeOf(*firstData)) {
      error = fmt::format("evaluate's data arguments have different batch "
                          "sizes ('{}' has {}, '{}' {})",
                          name, batchSizeOf(argument), firstData->name,
                          batchSizeOf(*firstData));
      return std::nullopt;
    }
    if (name == "targets" || (name == "labels" && !predicted))
      predicted = &argument;
  }
  if (text) {
    int64_t window = heldOut.textStride;
    for (const ValueSpec &argument : function.arguments)
      if ((argument.name == "tokens" || argument.name == "targets") &&
          argument.global.numElements() / batchSizeOf(argument) != window) {
        error = fmt::format(
            "evaluate's '{}' is {}: windows of {} bytes, "
            "but the held-out text is cut into windows of {}",
            argument.name, argument.global.str(),
            argument.global.numElements() / batchSizeOf(argument), window);
        return std::nullopt;
      }
  }
  fed.languageModel = text || (predicted && predicted->name == "targets");
  return fed;
}

std::optional<Evaluator> Evaluator::create(const FunctionSpec &function,
                                           tessel_function_t evaluate,
                                           const Dataset &heldOut,
                                           std::string &error) {
  Evaluator evaluator(function, evaluate, heldOut);
  EvaluationResults results = evaluationResults(function);
  evaluator.lossResult = results.loss;
  evaluator.correctResult = results.correct;
  if (evaluator.lossResult < 0 || evaluator.correctResult < 0) {
    error = "evaluate must return scalars named 'loss' and 'correct'";
    return std::nullopt;
  }
  std::optional<EvaluationFeeds> fed =
      evaluationFeeds(function, heldOut, error);
  if (!fed)
    return std::nullopt;
  evaluator.feeds = std::move(fed->feeds);
  const ValueSpec *firstData = fed->firstData;
  bool arrays = !heldOut.arrays.empty(), text = !heldOut.text.empty();
  if (!firstData) {
    error = arrays ? "evaluate has no argument named after a held-out array"
            : text ? "evaluate of a language model takes no 'tokens'"
                   : "evaluate has no 'images' argument";
    return std::nullopt;
  }
  evaluator.languageModel = fed->languageModel;
  evaluator.batchSize = batchSizeOf(*firstData);
  evaluator.predictionsPerBatch = fed->predictionsPerBatch(evaluator.batchSize);
  // The last partial batch is left out: the compiled program has one batch
  // size.
  evaluator.numBatches = heldOut.count / evaluator.batchSize;
  if (evaluator.numBatches == 0) {
    error = fmt::format("the held-out data hold {} examples, fewer than one "
                        "batch of {}",
                        heldOut.count, evaluator.batchSize);
    return std::nullopt;
  }
  return evaluator;
}

std::optional<EvaluationResult>
Evaluator::run(const layout::Mesh &mesh, int64_t rank,
               tessel_context_t *context,
               const std::function<void *(const std::string &)> &stateBuffer,
               int64_t maxBatches, std::string &error) const {
  int64_t runBatches =
      maxBatches > 0 ? std::min(maxBatches, numBatches) : numBatches;
  // The held-out examples in their order.
  BatchFeeder feeder(*function, *heldOut, feeds, batchSize);
  EvaluationResult result;
  result.languageModel = languageModel;
  for (int64_t batch = 0; batch < runBatches; ++batch) {
    std::optional<BatchArguments> arguments =
        feeder.arguments(batch, mesh, rank, context, stateBuffer, error);
    if (!arguments)
      return std::nullopt;
    std::vector<void *> results(function->results.size(), nullptr);
    auto forwardStart = std::chrono::steady_clock::now();
    evaluate(context, arguments->data(), results.data());
    result.meanLoss +=
        runtime::readScalar(*context, function->results[lossResult].local.type,
                            results[lossResult]);
    result.correct += runtime::readScalar(
        *context, function->results[correctResult].local.type,
        results[correctResult]);
    // Reading the loss waits for the device, so the time covers the work.
    result.forwardSeconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                      forwardStart)
            .count();
    result.examples += batchSize;
    result.predictions += predictionsPerBatch;
    for (void *buffer : results)
      tessel_rt_free(context, buffer);
  }
  result.meanLoss /= static_cast<double>(runBatches);
  return result;
}

} // namespace tessel::driver
