//===- InferenceOptions.h - A forward-only program's options -*- C++ -*-===//
//
// A program compiled with `tessel compile --mode infer` has no training
// step; its command line names the checkpoint to load, the function to run
// and the data to run it on (runtime/driver/Inference.h).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_INFERENCEOPTIONS_H
#define TESSEL_RUNTIME_DRIVER_INFERENCEOPTIONS_H

#include <cstdint>
#include <optional>
#include <string>

namespace tessel::driver {

struct InferenceOptions {
  /// A checkpoint file, or a directory whose latest checkpoint is read.
  std::string checkpoint;
  /// The function to run; empty picks `evaluate`.
  std::string function;
  /// Fashion-MNIST's directory, a directory of .npy arrays, or text.
  std::string dataDir;
  /// Fashion-MNIST's split: "test" (t10k) or "train".
  std::string split = "test";
  /// Where the function's tensor results go as <name>.npy (empty: nowhere).
  std::string outDir;
  std::string metricsFile;
  /// Batches to run at most (0: every full batch of the data).
  int64_t maxBatches = 0;
};

/// Parses the command line. Returns the options, or the exit status when
/// the program should stop (0 after --help, 1 after a bad option); only
/// rank 0 prints.
std::optional<InferenceOptions>
parseInferenceOptions(int argc, char **argv, bool print, int &exitStatus);

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_INFERENCEOPTIONS_H
