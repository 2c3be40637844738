//===- BatchFeeder.cpp - A function's arguments for a batch of data -------===//

#include "driver/BatchFeeder.h"

#include "executor/Backend.h"
#include "executor/Buffers.h"

#include <fmt/format.h>

#include <numeric>

namespace tessel::driver {

BatchArguments::BatchArguments(BatchArguments &&other) noexcept
    : context(other.context), arguments(std::move(other.arguments)),
      owned(std::move(other.owned)) {
  other.owned.clear();
}

BatchArguments::~BatchArguments() {
  for (void *buffer : owned)
    tessel_rt_free(context, buffer);
}

std::optional<BatchArguments> BatchFeeder::arguments(
    int64_t batch, const layout::Mesh &mesh, int64_t rank,
    tessel_context_t *context,
    const std::function<void *(const std::string &)> &stateBuffer,
    std::string &error) {
  std::vector<int64_t> examples(batchSize);
  std::iota(examples.begin(), examples.end(), batch * batchSize);
  BatchArguments result(context);
  for (size_t i = 0; i < feeds.size(); ++i) {
    const ValueSpec &argument = function->arguments[i];
    if (feeds[i] == Feed::State) {
      void *buffer = stateBuffer(argument.name);
      if (!buffer) {
        error = fmt::format("{}'s argument '{}' is neither data nor a "
                            "trained tensor",
                            function->name, argument.name);
        return std::nullopt;
      }
      result.arguments.push_back(buffer);
      continue;
    }
    void *buffer = tessel_rt_alloc(context, argument.local.numBytes());
    result.owned.push_back(buffer);
    result.arguments.push_back(buffer);
    if (feeds[i] == Feed::DropoutStep) {
      runtime::writeScalar(*context, argument.local.type, buffer, 0.0);
      continue;
    }
    // Made in host memory, then copied into the (maybe device) buffer.
    std::vector<unsigned char> &host = staging[i];
    host.resize(static_cast<size_t>(argument.local.numBytes()));
    switch (feeds[i]) {
    case Feed::Images:
      batches.fillImages(argument, examples, mesh, rank, host.data());
      break;
    case Feed::Labels:
      batches.fillLabels(argument, examples, mesh, rank, host.data());
      break;
    case Feed::Tokens:
    case Feed::Targets:
      batches.fillTokens(argument, examples, mesh, rank, host.data(),
                         feeds[i] == Feed::Targets ? 1 : 0);
      break;
    case Feed::Array:
      batches.fillArray(argument, examples, mesh, rank, host.data(),
                        dataset->arrays.at(argument.name));
      break;
    case Feed::DropoutStep:
    case Feed::State:
      break;
    }
    runtime::activeBackend().copyToBuffer(*context, buffer, host.data(),
                                          host.size());
  }
  return result;
}

} // namespace tessel::driver
