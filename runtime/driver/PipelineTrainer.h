//===- PipelineTrainer.h - The training loop of a pipelined program -*- C++
//-*-===//
//
// A program compiled with a layout that has a `pipeline:` section has no
// train_step: each stage s (the rank's coordinate on the pipeline axis) has
// stage{s}_init, stage{s}_forward and stage{s}_backward, run once per
// micro-batch in the schedule's order (PipelineSchedule.h), and
// stage{s}_apply, run once per step on the gradients summed over the
// micro-batches. Activations go to the next stage and their gradients come
// back by non-blocking MPI point-to-point messages (docs/pipeline.md has
// the contract with the compiler).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_PIPELINETRAINER_H
#define TESSEL_RUNTIME_DRIVER_PIPELINETRAINER_H

#include "driver/Metadata.h"
#include "driver/Options.h"
#include "tessel/runtime/program.h"

#include <functional>
#include <string>

namespace tessel::driver {

/// Trains the pipelined program `metadata` (which has a pipeline) as the
/// options say, calling the compiled function that `function` returns for
/// a name of the metadata; collective over MPI_COMM_WORLD. Returns the exit
/// status: 0, or 1 after an error that every rank agreed on (printed).
int trainPipelined(
    const Options &options, const ProgramMetadata &metadata,
    const std::function<tessel_function_t(const std::string &)> &function,
    tessel_context_t *context, int64_t rank);

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_PIPELINETRAINER_H
