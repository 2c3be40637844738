//===- PipelineEvaluation.cpp - Held-out data through pipeline stages -----===//

#include "driver/PipelineEvaluation.h"

#include "executor/Backend.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace tessel::driver {

std::optional<PipelineEvaluator> PipelineEvaluator::create(
    const FunctionSpec &function, tessel_function_t evaluate,
    const FunctionSpec &init, const Dataset &heldOut, bool first, bool last,
    std::vector<const ValueSpec *> inputs,
    std::vector<const ValueSpec *> outputs, int64_t microbatches,
    int64_t microbatchSize, std::string &error) {
  PipelineEvaluator evaluator(function, evaluate, heldOut);
  evaluator.first = first;
  evaluator.last = last;
  evaluator.inputs = std::move(inputs);
  evaluator.outputs = std::move(outputs);
  evaluator.microbatches = microbatches;
  evaluator.microbatchSize = microbatchSize;
  std::optional<EvaluationFeeds> fed =
      evaluationFeeds(function, heldOut, error);
  if (!fed) {
    error = fmt::format("{}: {}", function.name, error);
    return std::nullopt;
  }
  evaluator.feeds = std::move(fed->feeds);
  if (fed->firstData && batchSizeOf(*fed->firstData) != microbatchSize) {
    error = fmt::format("{}'s '{}' holds {} examples, not the micro-batch's "
                        "{}",
                        function.name, fed->firstData->name,
                        batchSizeOf(*fed->firstData), microbatchSize);
    return std::nullopt;
  }
  if (std::optional<std::string> misfit =
          checkTrainedArguments(function, init)) {
    error = *misfit;
    return std::nullopt;
  }
  // What is not data is an activation received or a trained tensor.
  for (size_t i = 0; i < function.arguments.size(); ++i) {
    const ValueSpec &argument = function.arguments[i];
    bool received = std::any_of(
        evaluator.inputs.begin(), evaluator.inputs.end(),
        [&](const ValueSpec *input) { return input->name == argument.name; });
    bool trained = std::any_of(
        init.results.begin(), init.results.end(),
        [&](const ValueSpec &state) { return state.name == argument.name; });
    if (evaluator.feeds[i] == Feed::State && !received && !trained) {
      error = fmt::format("{}'s argument '{}' is neither held-out data, an "
                          "activation of the stage before, nor a tensor {} "
                          "returns",
                          function.name, argument.name, init.name);
      return std::nullopt;
    }
  }
  if (last) {
    EvaluationResults results = evaluationResults(function);
    evaluator.lossResult = results.loss;
    evaluator.correctResult = results.correct;
    if (evaluator.lossResult < 0 || evaluator.correctResult < 0) {
      error = fmt::format("{} (the last stage) must return scalars named "
                          "'loss' and 'correct'",
                          function.name);
      return std::nullopt;
    }
    evaluator.predictionsPerMicrobatch =
        fed->predictionsPerBatch(microbatchSize);
    evaluator.languageModel = fed->languageModel;
  }
  // The last partial batch is left out, as the unpipelined program's.
  evaluator.numBatches = heldOut.count / evaluator.examplesPerBatch();
  if (evaluator.numBatches == 0) {
    error = fmt::format("the held-out data hold {} examples, fewer than one "
                        "batch of {}",
                        heldOut.count, evaluator.examplesPerBatch());
    return std::nullopt;
  }
  return evaluator;
}

std::optional<EvaluationResult> PipelineEvaluator::run(
    const layout::Mesh &mesh, int64_t rank, tessel_context_t *context,
    StageLinks &links, MPI_Comm pipelineComm,
    const std::function<void *(const std::string &)> &stateBuffer,
    int64_t maxBatches, std::string &error) const {
  int64_t runBatches =
      maxBatches > 0 ? std::min(maxBatches, numBatches) : numBatches;
  // Micro-batch i holds the held-out examples i * microbatchSize on: batch
  // b's micro-batches are the unpipelined program's batch b.
  BatchFeeder feeder(*function, *heldOut, feeds, microbatchSize);
  double lossSum = 0, correct = 0;
  auto start = std::chrono::steady_clock::now();
  for (int64_t batch = 0; batch < runBatches; ++batch) {
    for (int64_t j = 0; j < microbatches; ++j) {
      NamedBuffers received(context);
      if (!first)
        links.receive(StageLinks::Activations, j, inputs, received);
      std::optional<BatchArguments> arguments = feeder.arguments(
          batch * microbatches + j, mesh, rank, context,
          [&](const std::string &name) -> void * {
            if (void *buffer = received.find(name))
              return buffer;
            return stateBuffer(name);
          },
          error);
      // create() checked every argument's source, so this cannot fail
      // short of memory; a rank that left the loop here would leave the
      // others waiting for its messages, so the job ends.
      if (!arguments) {
        std::fprintf(stderr, "tessel: rank %lld: evaluation: %s\n",
                     static_cast<long long>(rank), error.c_str());
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
      std::vector<void *> results(function->results.size(), nullptr);
      evaluate(context, arguments->data(), results.data());
      NamedBuffers sent(context);
      for (size_t i = 0; i < results.size(); ++i) {
        if (last && static_cast<int>(i) == lossResult)
          lossSum += runtime::readScalar(
              *context, function->results[i].local.type, results[i]);
        if (last && static_cast<int>(i) == correctResult)
          correct += runtime::readScalar(
              *context, function->results[i].local.type, results[i]);
        sent.put(function->results[i].name, results[i]);
      }
      if (!last)
        links.send(StageLinks::Activations, j, outputs, sent);
    }
    // A micro-batch's tag is its place in the batch: the next batch's
    // messages reuse the tags once these have gone.
    links.waitForSends();
  }
  EvaluationResult result;
  result.examples = runBatches * examplesPerBatch();
  // The last stage's figures, for every stage.
  double figures[4] = {
      lossSum /
          static_cast<double>(std::max<int64_t>(1, runBatches) * microbatches),
      correct,
      static_cast<double>(runBatches * microbatches * predictionsPerMicrobatch),
      languageModel ? 1.0 : 0.0};
  int stages = 1;
  MPI_Comm_size(pipelineComm, &stages);
  MPI_Bcast(figures, 4, MPI_DOUBLE, stages - 1, pipelineComm);
  // Timed to the last stage's figures: the whole pipeline's forwards.
  result.forwardSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  result.meanLoss = figures[0];
  result.correct = figures[1];
  result.predictions = static_cast<int64_t>(figures[2]);
  result.languageModel = figures[3] != 0;
  return result;
}

} // namespace tessel::driver
