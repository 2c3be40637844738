//===- Trainer.h - The training loop ----------------------------*- C++ -*-===//
//
// Calls the program's init once (or reads a checkpoint), then train_step for
// each batch, feeding each step's results back as the next step's arguments
// by their names (docs/training.md describes the contract).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_TRAINER_H
#define TESSEL_RUNTIME_DRIVER_TRAINER_H

#include "driver/Metadata.h"
#include "driver/Options.h"
#include "tessel/runtime/program.h"

namespace tessel::driver {

struct Program {
  const ProgramMetadata *metadata;
  tessel_function_t init;
  tessel_function_t trainStep;
  /// The model's evaluation on the test split, or null if it has none.
  tessel_function_t evaluate = nullptr;
};

/// Trains as the options say; collective over MPI_COMM_WORLD. Returns the
/// exit status: 0, or 1 after an error that every rank agreed on (already
/// printed).
int train(const Options &options, const Program &program,
          tessel_context_t *context, int64_t rank);

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_TRAINER_H
