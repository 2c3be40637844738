//===- Inference.h - Running a forward-only program -------------*- C++ -*-===//
//
// A program compiled with `tessel compile --mode infer` holds the model's
// functions, each taking its parameters and buffers as leading arguments
// with a role (tessel-lift-parameters), and no training step. The driver
// reads those arguments from a checkpoint, written under any layout (each
// rank takes its block of the global tensors), feeds the data arguments
// batch after batch, and reports the function's scalar results as metrics
// (`loss` averaged over the batches, `correct` summed into an accuracy);
// its tensor results are gathered from the ranks' blocks into whole tensors
// and written as <out>/<result>.npy, one row per example.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_INFERENCE_H
#define TESSEL_RUNTIME_DRIVER_INFERENCE_H

#include "driver/InferenceOptions.h"
#include "driver/Metadata.h"
#include "tessel/runtime/program.h"

namespace tessel::driver {

/// Runs the function the options choose; collective over MPI_COMM_WORLD.
/// `functions` are the compiled functions in the metadata's order. Returns
/// the exit status: 0, or 1 after an error every rank agreed on (printed).
int infer(const InferenceOptions &options, const ProgramMetadata &metadata,
          const tessel_function_t *functions, tessel_context_t *context,
          int64_t rank);

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_INFERENCE_H
