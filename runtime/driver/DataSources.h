//===- DataSources.h - What a program trains and evaluates on ---*- C++ -*-===//
//
// The data follow from the program and --data. A directory of .npy arrays
// feeds the arguments named after them, and its test/ subdirectory is the
// held-out split. Otherwise a language model (a train_step that takes
// `tokens`) reads a text corpus; when the program can evaluate itself, the
// corpus's tail (--holdout, a tenth by default) is held out and never
// trained on. Any other model reads Fashion-MNIST, held out: its t10k split.
// --eval-data names held-out data of the training data's kind instead (a
// language model then trains on the whole corpus).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_DATASOURCES_H
#define TESSEL_RUNTIME_DRIVER_DATASOURCES_H

#include "driver/FashionMnist.h"
#include "driver/Metadata.h"
#include "driver/Options.h"

#include <optional>
#include <string>

namespace tessel::driver {

struct RunData {
  Dataset training;
  /// The examples evaluate runs on; empty when the program has no evaluate
  /// or there are no held-out data (`noHeldOut` says why).
  std::optional<Dataset> heldOut;
  /// Where the held-out examples come from, for the log.
  std::string heldOutSource;
  std::string noHeldOut;
};

/// Loads the training data and, when `metadata` has an evaluate function
/// that the options run, the held-out data. Says which file and what is
/// wrong in `error` otherwise.
std::optional<RunData> loadRunData(const Options &options,
                                   const ProgramMetadata &metadata,
                                   std::string &error);

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_DATASOURCES_H
