//===- InferenceOptions.cpp - The command line of a forward-only program --===//

#include "driver/InferenceOptions.h"

#include "driver/CommandLine.h"
#include "driver/FashionMnist.h"

namespace tessel::driver {

std::optional<InferenceOptions>
parseInferenceOptions(int argc, char **argv, bool print, int &exitStatus) {
  InferenceOptions options;
  options.dataDir = kDefaultDataDir;
  CLI::App app{
      "Runs a function of the model compiled into this forward-only program "
      "(tessel compile --mode infer) on data, with the parameters of a "
      "checkpoint written under any layout, one process per rank of its "
      "mesh (mpirun -n RANKS PROGRAM --checkpoint ...). Scalar results (loss, "
      "correct) are reported as metrics; tensor results are written to "
      "--out as <result>.npy, one row per example."};
  app.add_option("--checkpoint", options.checkpoint,
                 "A checkpoint (.safetensors) or a directory of them, whose "
                 "latest is read")
      ->check(kNonEmptyPath)
      ->required();
  app.add_option("--function", options.function,
                 "The function to run (default: evaluate)");
  app.add_option("--data", options.dataDir,
                 "Fashion-MNIST's directory (idx files), a directory of .npy "
                 "arrays named after the function's data arguments, or for a "
                 "function that takes tokens a text file or directory")
      ->capture_default_str();
  app.add_option("--split", options.split,
                 "Fashion-MNIST's split: test (t10k) or train")
      ->check(CLI::IsMember({"test", "train"}))
      ->capture_default_str();
  app.add_option("--out", options.outDir,
                 "Write each tensor result as DIR/<result>.npy, the batches "
                 "concatenated (created if need be)")
      ->check(kNonEmptyPath);
  app.add_option("--metrics", options.metricsFile,
                 "Write the metrics as one JSON line to this file")
      ->check(kNonEmptyPath);
  app.add_option("--max-batches", options.maxBatches,
                 "Run at most this many batches (0: all full batches)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  if (!checkNoEmptyPathAfterEquals(argc, argv,
                                   {"--checkpoint", "--out", "--metrics"},
                                   print, exitStatus))
    return std::nullopt;
  if (!parseCommandLine(app, argc, argv, print, exitStatus))
    return std::nullopt;
  return options;
}

} // namespace tessel::driver
