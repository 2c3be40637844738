//===- TrainingData.h - What feeds each argument of a training step -*- C++
//-*-===//
//
// A training function (train_step, or a pipeline stage's forward and
// backward) takes data by the argument's name: `images` and `labels`
// (Fashion-MNIST), `tokens` and `targets` (a text corpus), any name that a
// .npy array of --data is called, `learning_rate` and `dropout_step`; every
// other argument is trained state or, in a pipeline, a tensor of another
// stage. The trainers (Trainer.h, PipelineTrainer.h) share the checks and
// the filling of a step's data here.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_TRAININGDATA_H
#define TESSEL_RUNTIME_DRIVER_TRAININGDATA_H

#include "driver/Batches.h"
#include "driver/Metadata.h"
#include "tessel/runtime/program.h"

#include <optional>
#include <string>
#include <vector>

namespace tessel::driver {

enum class DataSource {
  Images,
  Labels,
  Tokens,
  Targets,
  Array,
  LearningRate,
  DropoutStep
};

struct DataFeed {
  DataSource source;
  /// The array of an Array feed.
  const NpyArray *array = nullptr;
  /// The examples the argument holds (its batch dim); 0 for a scalar.
  int64_t batchSize = 0;
};

/// What feeds `argument` of the training function `function`: data of
/// `dataset` (a .npy array of its name first), the learning rate or the
/// step number, by its name; nothing (and no error) for any other name,
/// which the caller takes as state when it is. An error names the argument
/// when its type cannot hold its data, or when the data are .npy arrays,
/// none is named after it and `isState` says it is not state either.
std::optional<std::string> planDataArgument(const std::string &function,
                                            const ValueSpec &argument,
                                            const Dataset &dataset,
                                            bool isState,
                                            std::optional<DataFeed> &feed);

/// Fills `buffer` (of the argument's local type, from tessel_rt_alloc) with
/// this rank's block of the argument for the examples `examples` of
/// training step `step` (from 0), whose learning rate is `learningRate`.
/// The block is made in `staging`, host memory kept between calls.
void fillDataArgument(BatchMaker &batches, const DataFeed &feed,
                      const ValueSpec &argument,
                      const std::vector<int64_t> &examples,
                      const layout::Mesh &mesh, int64_t rank, int64_t step,
                      double learningRate, tessel_context_t *context,
                      void *buffer, std::vector<unsigned char> &staging);

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_TRAININGDATA_H
