//===- TrainingData.cpp - What feeds each argument of a training step -----===//

#include "driver/TrainingData.h"

#include "executor/Backend.h"
#include "executor/Buffers.h"

#include <fmt/format.h>

namespace tessel::driver {

std::optional<std::string> planDataArgument(const std::string &function,
                                            const ValueSpec &argument,
                                            const Dataset &dataset,
                                            bool isState,
                                            std::optional<DataFeed> &feed) {
  feed.reset();
  const std::string &name = argument.name;
  auto array = dataset.arrays.find(name);
  if (array != dataset.arrays.end()) {
    if (std::optional<std::string> error =
            checkArrayFits(array->second, argument))
      return error;
    feed = DataFeed{DataSource::Array, &array->second, batchSizeOf(argument)};
  } else if (!dataset.arrays.empty() && name != "learning_rate" &&
             name != "dropout_step" && !isState) {
    return fmt::format("{}'s argument '{}' ({}) has no {}.npy in the data "
                       "directory",
                       function, name, argument.global.str(), name);
  } else if (name == "images") {
    int64_t pixels = argument.global.numElements() / batchSizeOf(argument);
    if (!ref::isFloatType(argument.global.type) ||
        pixels != dataset.pixelsPerImage)
      return fmt::format("{}'s 'images' is {}; the data are {} pixels per "
                         "image, as floats",
                         function, argument.global.str(),
                         dataset.pixelsPerImage);
    feed = DataFeed{DataSource::Images, nullptr, batchSizeOf(argument)};
  } else if (name == "tokens" || name == "targets") {
    if (ref::isFloatType(argument.global.type) ||
        argument.global.type == ref::ElementType::I1 ||
        argument.global.rank() != 2)
      return fmt::format("{}'s '{}' is {}; it must be [batch, seq] of i32 or "
                         "i64 byte values",
                         function, name, argument.global.str());
    feed = DataFeed{name == "tokens" ? DataSource::Tokens : DataSource::Targets,
                    nullptr, batchSizeOf(argument)};
  } else if (name == "labels") {
    if (ref::isFloatType(argument.global.type) ||
        argument.global.type == ref::ElementType::I1)
      return fmt::format("{}'s 'labels' is {}; it must be i32 or i64", function,
                         argument.global.str());
    feed = DataFeed{DataSource::Labels, nullptr, batchSizeOf(argument)};
  } else if (name == "learning_rate") {
    if (argument.global.numElements() != 1 ||
        !ref::isFloatType(argument.global.type))
      return fmt::format("{}'s 'learning_rate' is {}; it must be a float "
                         "scalar",
                         function, argument.global.str());
    feed = DataFeed{DataSource::LearningRate};
  } else if (name == "dropout_step") {
    // The number of the step (from 0), which tessel.dropout mixes into its
    // mask so that every step drops different elements.
    if (argument.global.numElements() != 1 ||
        (argument.global.type != ref::ElementType::I32 &&
         argument.global.type != ref::ElementType::I64))
      return fmt::format("{}'s 'dropout_step' is {}; it must be an i32 or "
                         "i64 scalar",
                         function, argument.global.str());
    feed = DataFeed{DataSource::DropoutStep};
  }
  return std::nullopt;
}

void fillDataArgument(BatchMaker &batches, const DataFeed &feed,
                      const ValueSpec &argument,
                      const std::vector<int64_t> &examples,
                      const layout::Mesh &mesh, int64_t rank, int64_t step,
                      double learningRate, tessel_context_t *context,
                      void *buffer, std::vector<unsigned char> &staging) {
  if (feed.source == DataSource::LearningRate) {
    runtime::writeScalar(*context, argument.local.type, buffer, learningRate);
    return;
  }
  if (feed.source == DataSource::DropoutStep) {
    runtime::writeScalar(*context, argument.local.type, buffer,
                         static_cast<double>(step));
    return;
  }
  // The batch is made in host memory and then copied into the buffer,
  // which a device backend keeps in device memory.
  staging.resize(static_cast<size_t>(argument.local.numBytes()));
  switch (feed.source) {
  case DataSource::Images:
    batches.fillImages(argument, examples, mesh, rank, staging.data());
    break;
  case DataSource::Labels:
    batches.fillLabels(argument, examples, mesh, rank, staging.data());
    break;
  case DataSource::Array:
    batches.fillArray(argument, examples, mesh, rank, staging.data(),
                      *feed.array);
    break;
  case DataSource::Tokens:
  case DataSource::Targets:
    batches.fillTokens(argument, examples, mesh, rank, staging.data(),
                       feed.source == DataSource::Targets ? 1 : 0);
    break;
  case DataSource::LearningRate:
  case DataSource::DropoutStep:
    break;
  }
  runtime::activeBackend().copyToBuffer(*context, buffer, staging.data(),
                                        staging.size());
}

} // namespace tessel::driver
