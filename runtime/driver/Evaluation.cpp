//===- Evaluation.cpp - Test accuracy of the trained model ----------------===//

#include "driver/Evaluation.h"

#include "driver/Batches.h"
#include "executor/Backend.h"
#include "executor/Buffers.h"

#include <fmt/format.h>

#include <chrono>
#include <numeric>

namespace tessel::driver {

std::optional<EvaluationResult>
evaluateModel(const FunctionSpec &function, tessel_function_t evaluate,
              const Dataset &dataset, const layout::Mesh &mesh, int64_t rank,
              tessel_context_t *context,
              const std::function<void *(const std::string &)> &stateBuffer,
              std::string &error) {
  int lossResult = -1, correctResult = -1;
  for (size_t i = 0; i < function.results.size(); ++i) {
    if (function.results[i].name == "loss")
      lossResult = static_cast<int>(i);
    if (function.results[i].name == "correct")
      correctResult = static_cast<int>(i);
  }
  if (lossResult < 0 || correctResult < 0) {
    error = "evaluate must return scalars named 'loss' and 'correct'";
    return std::nullopt;
  }
  // The data arguments: those named after an array of a .npy dataset, or
  // else Fashion-MNIST's images and labels.
  auto isData = [&](const ValueSpec &argument) {
    if (!dataset.arrays.empty())
      return dataset.arrays.count(argument.name) > 0;
    return argument.name == "images" || argument.name == "labels";
  };
  const ValueSpec *firstData = nullptr;
  for (const ValueSpec &argument : function.arguments) {
    if (!isData(argument))
      continue;
    if (!firstData)
      firstData = &argument;
    if (!dataset.arrays.empty())
      if (std::optional<std::string> misfit =
              checkArrayFits(dataset.arrays.at(argument.name), argument)) {
        error = *misfit;
        return std::nullopt;
      }
  }
  if (!firstData) {
    error = dataset.arrays.empty()
                ? "evaluate has no 'images' argument"
                : "evaluate has no argument named after a test array";
    return std::nullopt;
  }
  int64_t batchSize = batchSizeOf(*firstData);
  // The test examples in their order; the last partial batch is left out
  // because the compiled program has one batch size.
  BatchMaker batches(dataset, /*seed=*/0);
  EvaluationResult result;
  for (int64_t first = 0; first + batchSize <= dataset.count;
       first += batchSize) {
    std::vector<int64_t> examples(batchSize);
    std::iota(examples.begin(), examples.end(), first);
    std::vector<void *> arguments, data;
    for (const ValueSpec &argument : function.arguments) {
      if (!isData(argument)) {
        void *buffer = stateBuffer(argument.name);
        if (!buffer) {
          error = fmt::format("evaluate's argument '{}' is neither data nor a "
                              "trained tensor",
                              argument.name);
          for (void *owned : data)
            tessel_rt_free(context, owned);
          return std::nullopt;
        }
        arguments.push_back(buffer);
        continue;
      }
      void *buffer = tessel_rt_alloc(context, argument.local.numBytes());
      data.push_back(buffer);
      arguments.push_back(buffer);
      // Made in host memory, then copied into the (maybe device) buffer.
      std::vector<unsigned char> host(
          static_cast<size_t>(argument.local.numBytes()));
      if (!dataset.arrays.empty())
        batches.fillArray(argument, examples, mesh, rank, host.data(),
                          dataset.arrays.at(argument.name));
      else if (argument.name == "images")
        batches.fillImages(argument, examples, mesh, rank, host.data());
      else
        batches.fillLabels(argument, examples, mesh, rank, host.data());
      runtime::activeBackend().copyToBuffer(*context, buffer, host.data(),
                                            host.size());
    }
    std::vector<void *> results(function.results.size(), nullptr);
    auto forwardStart = std::chrono::steady_clock::now();
    evaluate(context, arguments.data(), results.data());
    result.meanLoss += runtime::readScalar(
        *context, function.results[lossResult].local.type, results[lossResult]);
    result.correct +=
        runtime::readScalar(*context, function.results[correctResult].local.type,
                            results[correctResult]);
    // Reading the loss waits for the device, so the time covers the work.
    result.forwardSeconds += std::chrono::duration<double>(
                                 std::chrono::steady_clock::now() - forwardStart)
                                 .count();
    result.examples += batchSize;
    for (void *buffer : results)
      tessel_rt_free(context, buffer);
    for (void *buffer : data)
      tessel_rt_free(context, buffer);
  }
  if (result.examples > 0)
    result.meanLoss /= static_cast<double>(result.examples / batchSize);
  return result;
}

} // namespace tessel::driver
