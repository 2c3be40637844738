//===- Options.cpp - The command line of a compiled program ---------------===//

#include "driver/Options.h"

#include "driver/CommandLine.h"
#include "driver/FashionMnist.h"

#include <filesystem>
#include <string>

namespace tessel::driver {

std::optional<Options> parseOptions(int argc, char **argv, bool print,
                                    int &exitStatus) {
  Options options;
  options.dataDir = kDefaultDataDir;
  CLI::App app{"Trains the model compiled into this program, one process per "
               "rank of its mesh (mpirun -n RANKS PROGRAM ...)."};
  app.add_option("--steps", options.steps, "Steps to train for, in all")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--batch", options.batch,
                 "Examples per step; must be the batch the program was "
                 "compiled for (tessel compile --batch N sets it)")
      ->check(CLI::PositiveNumber);
  app.add_option("--data", options.dataDir,
                 "Directory of the Fashion-MNIST idx files (plain or .gz)")
      ->capture_default_str();
  app.add_option("--lr", options.learningRate, "Peak learning rate")
      ->check(kFinite & CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--schedule", options.schedule,
                 "Learning rate schedule: constant, warmup (linear warm-up, "
                 "then constant) or cosine (linear warm-up, then cosine decay "
                 "to 0 at the last step)")
      ->check(CLI::IsMember({"constant", "warmup", "cosine"}))
      ->capture_default_str();
  app.add_option("--warmup-steps", options.warmupSteps,
                 "Steps of linear warm-up for warmup and cosine")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--seed", options.seed,
                 "Seed of the order of the examples (0 to 2^64 - 1)")
      ->check(kSeed)
      ->capture_default_str();
  app.add_option("--metrics", options.metricsFile,
                 "Write one JSON line per step (step, loss, samples_per_s, "
                 "step_ms, lr) and one per evaluation (split, trained_steps, "
                 "loss, accuracy, perplexity) to this file")
      ->check(kNonEmptyPath);
  app.add_option("--log-every", options.logEvery,
                 "Print progress every N steps")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--checkpoint-dir", options.checkpointDir,
                 "Write safetensors checkpoints to this directory")
      ->check(kNonEmptyPath);
  app.add_option("--checkpoint-every", options.checkpointEvery,
                 "Write a checkpoint every N steps (0: only at the end)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--step-timeout", options.stepTimeout,
                 "End the job when a training step takes longer than this "
                 "many seconds (a hung rank); 0 waits forever")
      ->check(kFinite & CLI::NonNegativeNumber);
  app.add_flag("--skip-nonfinite", options.skipNonFinite,
               "Skip a step whose loss is NaN or infinite (its update is "
               "dropped) instead of stopping with an error");
  app.add_flag("--profile", options.profile,
               "Time every op during training (from the second step: the "
               "first loads kernels) and print, on rank 0, the time per step "
               "of each kind of op and of the costliest call sites");
  app.add_option("--profile-sites", options.profileSites,
                 "Call sites --profile lists, the costliest first (0: every "
                 "one)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_flag("!--no-evaluate", options.evaluate,
               "skip the test-split accuracy after training");
  app.add_option("--eval-every", options.evalEvery,
                 "Evaluate on the held-out split every N steps (loss, "
                 "accuracy and, for a language model, perplexity; 0: only "
                 "after training)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--eval-data", options.evalData,
                 "Held-out data for evaluation, in the training data's "
                 "format (a text file or directory, a directory of .npy "
                 "arrays, or of Fashion-MNIST's t10k files); by default the "
                 "test split, or for text the corpus's tail (--holdout)");
  app.add_option("--eval-batches", options.evalBatches,
                 "Batches per validation (--eval-every), the first ones of "
                 "the held-out split (0: all of it); the test after "
                 "training runs on all of it")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--holdout", options.holdout,
                 "The fraction of a text corpus, its tail, that a language "
                 "model with an evaluate function is evaluated on and never "
                 "trained on (without --eval-data)")
      ->check(kFinite & CLI::Range(0.0, 1.0))
      ->capture_default_str();
  app.add_flag("--resume", options.resume,
               "Start from the latest checkpoint in --checkpoint-dir, under "
               "any layout or rank count");
  if (!checkNoEmptyPathAfterEquals(
          argc, argv, {"--metrics", "--checkpoint-dir"}, print, exitStatus))
    return std::nullopt;
  if (!parseCommandLine(app, argc, argv, print, exitStatus))
    return std::nullopt;
  if (options.resume && options.checkpointDir.empty()) {
    if (print)
      std::fprintf(stderr, "tessel: --resume needs --checkpoint-dir\n");
    exitStatus = 1;
    return std::nullopt;
  }
  // Options that would be ignored without the one they qualify, and a
  // checkpoint directory that cannot be one: refused before any training,
  // not found out at the first checkpoint or never.
  std::string refusal;
  if (app.count("--checkpoint-every") && options.checkpointDir.empty())
    refusal = "--checkpoint-every needs --checkpoint-dir (without it no "
              "checkpoint is written)";
  else if (app.count("--warmup-steps") && options.schedule == "constant")
    refusal = "--warmup-steps applies to --schedule warmup or cosine; the "
              "constant schedule has no warm-up";
  else if (std::error_code code;
           !options.checkpointDir.empty() &&
           std::filesystem::exists(options.checkpointDir, code) &&
           !std::filesystem::is_directory(options.checkpointDir, code))
    refusal = "--checkpoint-dir " + options.checkpointDir +
              " exists and is not a directory";
  if (!refusal.empty()) {
    if (print)
      std::fprintf(stderr, "tessel: %s\n", refusal.c_str());
    exitStatus = 1;
    return std::nullopt;
  }
  return options;
}

} // namespace tessel::driver
