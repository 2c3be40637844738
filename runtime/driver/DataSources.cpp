//===- DataSources.cpp - What a program trains and evaluates on -----------===//

#include "driver/DataSources.h"

#include "driver/Batches.h"
#include "driver/NpyData.h"
#include "driver/TextCorpus.h"

#include <fmt/format.h>

#include <filesystem>
#include <system_error>

namespace tessel::driver {

namespace {

/// Refuses held-out data that are the training data (the same file or
/// directory, however spelt): "test accuracy" would be measured on what the
/// model trained on.
bool heldOutIsTheTrainingData(const std::string &heldOut,
                              const std::string &training,
                              std::string &error) {
  std::error_code code;
  if (!std::filesystem::equivalent(heldOut, training, code) || code)
    return false;
  error = fmt::format("--eval-data {} is the training data ({}): the model "
                      "would be evaluated on what it trained on; give other "
                      "data",
                      heldOut, training);
  return true;
}

/// The argument `name` of function `function`, or null.
const ValueSpec *argumentOf(const ProgramMetadata &metadata,
                            const char *function, const char *name) {
  if (const FunctionSpec *spec = metadata.findFunction(function))
    for (const ValueSpec &argument : spec->arguments)
      if (argument.name == name)
        return &argument;
  return nullptr;
}

/// The `tokens` of a training step: train_step's, or in a pipelined program
/// (which has none) those of the first stage whose forward takes them.
const ValueSpec *trainingTokens(const ProgramMetadata &metadata) {
  if (metadata.pipeline)
    for (const PipelineStageSpec &stage : metadata.pipeline->stages)
      if (const ValueSpec *tokens =
              argumentOf(metadata, stage.forward.c_str(), "tokens"))
        return tokens;
  return argumentOf(metadata, "train_step", "tokens");
}

/// Whether the program evaluates: it has `evaluate`, or, pipelined, every
/// stage has its part of it.
bool hasEvaluation(const ProgramMetadata &metadata) {
  return metadata.pipeline ? metadata.pipeline->evaluates()
                           : metadata.findFunction("evaluate") != nullptr;
}

/// The `tokens` of the evaluation: evaluate's, or in a pipelined program
/// those of the first stage whose part of it takes them.
const ValueSpec *evaluationTokens(const ProgramMetadata &metadata) {
  if (metadata.pipeline)
    for (const PipelineStageSpec &stage : metadata.pipeline->stages)
      if (const ValueSpec *tokens =
              argumentOf(metadata, stage.evaluate.c_str(), "tokens"))
        return tokens;
  return argumentOf(metadata, "evaluate", "tokens");
}

/// The bytes per window of a `tokens` argument.
int64_t windowOf(const ValueSpec &tokens) {
  return tokens.global.numElements() / batchSizeOf(tokens);
}

std::optional<RunData> loadText(const Options &options,
                                const ValueSpec &trainTokens,
                                const ValueSpec *evalTokens, bool evaluates,
                                std::string &error) {
  std::string corpus =
      options.dataDir.empty() || options.dataDir == kDefaultDataDir
          ? kDefaultTextDir
          : options.dataDir;
  std::optional<std::vector<uint8_t>> text = readText(corpus, error);
  if (!text)
    return std::nullopt;
  // Held-out windows are evaluate's (the same as train_step's unless the
  // two functions were written with different shapes).
  int64_t window = windowOf(evalTokens ? *evalTokens : trainTokens);
  RunData data;
  std::vector<uint8_t> heldOut;
  if (evaluates && !options.evalData.empty()) {
    if (heldOutIsTheTrainingData(options.evalData, corpus, error))
      return std::nullopt;
    std::optional<std::vector<uint8_t>> other =
        readText(options.evalData, error);
    if (!other)
      return std::nullopt;
    heldOut = std::move(*other);
    data.heldOutSource = options.evalData;
  } else if (evaluates && options.holdout > 0) {
    size_t bytes = text->size();
    std::tie(*text, heldOut) = splitTail(*text, options.holdout);
    data.heldOutSource =
        fmt::format("the last {} of {} bytes of {} (--holdout {})",
                    heldOut.size(), bytes, corpus, options.holdout);
  } else if (evaluates) {
    data.noHeldOut = "--holdout 0 holds out no text and there is no "
                     "--eval-data";
  }
  std::optional<Dataset> training =
      trainingWindows(std::move(*text), windowOf(trainTokens),
                      heldOut.empty() ? corpus
                                      : fmt::format("{} without its tail "
                                                    "(--holdout {})",
                                                    corpus, options.holdout),
                      error);
  if (!training)
    return std::nullopt;
  data.training = std::move(*training);
  if (!data.heldOutSource.empty()) {
    data.heldOut =
        heldOutWindows(std::move(heldOut), window, data.heldOutSource, error);
    if (!data.heldOut)
      return std::nullopt;
  }
  return data;
}

} // namespace

std::optional<RunData> loadRunData(const Options &options,
                                   const ProgramMetadata &metadata,
                                   std::string &error) {
  bool evaluates = hasEvaluation(metadata);
  if (const ValueSpec *tokens = trainingTokens(metadata);
      tokens && !holdsNpyFiles(options.dataDir))
    return loadText(options, *tokens, evaluationTokens(metadata), evaluates,
                    error);

  RunData data;
  bool npy = holdsNpyFiles(options.dataDir);
  std::optional<Dataset> training =
      npy ? loadNpyData(options.dataDir, error)
          : loadFashionMnist(options.dataDir, "train", error);
  if (!training)
    return std::nullopt;
  data.training = std::move(*training);
  // The test split is read only when it will be used (a text corpus's tail
  // is held out whenever the program has evaluate, so that the training
  // data do not depend on --no-evaluate).
  if (!evaluates || (!options.evaluate && options.evalEvery == 0))
    return data;
  // A .npy dataset keeps its test split in test/; without one there is
  // nothing to evaluate on.
  std::string heldOutDir =
      options.evalData.empty()
          ? (npy ? options.dataDir + "/test" : options.dataDir)
          : options.evalData;
  // Fashion-MNIST's directory holds both splits; a .npy directory one.
  if (npy && !options.evalData.empty() &&
      heldOutIsTheTrainingData(heldOutDir, options.dataDir, error))
    return std::nullopt;
  if (npy && !holdsNpyFiles(heldOutDir)) {
    if (!options.evalData.empty()) {
      error = fmt::format("--eval-data {}: no .npy arrays", heldOutDir);
      return std::nullopt;
    }
    data.noHeldOut = fmt::format("no test arrays in {}", heldOutDir);
    return data;
  }
  data.heldOut = npy ? loadNpyData(heldOutDir, error)
                     : loadFashionMnist(heldOutDir, "t10k", error);
  if (!data.heldOut)
    return std::nullopt;
  data.heldOutSource =
      npy ? heldOutDir : fmt::format("the t10k split of {}", heldOutDir);
  return data;
}

} // namespace tessel::driver
