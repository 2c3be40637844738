//===- Options.h - The command line of a compiled program -------*- C++ -*-===//

#ifndef TESSEL_RUNTIME_DRIVER_OPTIONS_H
#define TESSEL_RUNTIME_DRIVER_OPTIONS_H

#include <cstdint>
#include <optional>
#include <string>

namespace tessel::driver {

struct Options {
  int64_t steps = 100;
  /// Examples per step the user expects; 0 takes the compiled batch. The
  /// batch is part of the compiled program's types, so another size is an
  /// error that says how to compile for it.
  int64_t batch = 0;
  std::string dataDir;
  double learningRate = 0.1;
  std::string schedule = "constant";
  int64_t warmupSteps = 0;
  uint64_t seed = 0;
  std::string metricsFile;
  int64_t logEvery = 10;
  std::string checkpointDir;
  int64_t checkpointEvery = 0;
  bool resume = false;
  /// Report the test accuracy after training, when the model can.
  bool evaluate = true;
  /// Evaluate on the held-out split every N steps (0: never).
  int64_t evalEvery = 0;
  /// Held-out data in the training data's format instead of the default
  /// split (the test split, or the tail of a text corpus).
  std::string evalData;
  /// Batches per validation, the first ones of the held-out split (0: all);
  /// the test after training evaluates all of them.
  int64_t evalBatches = 0;
  /// The fraction of a text corpus, its tail, that a model with an
  /// evaluate function never trains on and is evaluated on.
  double holdout = 0.1;
  /// End this rank when a training step takes longer (seconds; 0: never).
  double stepTimeout = 0;
  /// Drop a step whose loss is NaN or infinite instead of stopping.
  bool skipNonFinite = false;
  /// Time every op during training and print where the time went.
  bool profile = false;
  /// How many of the costliest call sites the profile lists (0: all).
  int profileSites = 15;
};

/// Parses the command line. Returns the options, or the exit status when
/// the program should stop (0 after --help, 1 after a bad option); only
/// rank 0 prints, so that a job of many ranks says it once.
std::optional<Options> parseOptions(int argc, char **argv, bool print,
                                    int &exitStatus);

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_OPTIONS_H
