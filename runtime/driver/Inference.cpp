//===- Inference.cpp - Running a forward-only program ---------------------===//

#include "driver/Inference.h"

#include "driver/Agreement.h"
#include "driver/BatchFeeder.h"
#include "driver/Batches.h"
#include "driver/Blocks.h"
#include "driver/Checkpoint.h"
#include "driver/HostCopies.h"
#include "driver/MetricsFile.h"
#include "driver/NpyData.h"
#include "driver/NpyWriter.h"
#include "driver/TextCorpus.h"
#include "executor/Backend.h"
#include "executor/Buffers.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <mpi.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>

namespace tessel::driver {

namespace {

namespace fs = std::filesystem;

struct Plan {
  std::string name;
  const FunctionSpec *function = nullptr;
  tessel_function_t compiled = nullptr;
  /// Where each argument comes from: a parameter or buffer (State) from
  /// the checkpoint, the rest from the data.
  std::vector<Feed> feeds;
  int64_t batchSize = 0;
  /// The elements of `labels` or `targets` in a batch: what a `correct`
  /// result counts out of (per example, or per position of a sequence).
  int64_t predictionsPerBatch = 0;
  bool takesTokens = false;
};

/// The function the options name (`evaluate` by default).
std::optional<std::string> pickFunction(const InferenceOptions &options,
                                        const ProgramMetadata &metadata,
                                        const tessel_function_t *functions,
                                        Plan &plan) {
  plan.name = options.function.empty() ? "evaluate" : options.function;
  std::vector<std::string> names;
  for (size_t i = 0; i < metadata.functions.size(); ++i) {
    names.push_back(metadata.functions[i].name);
    if (metadata.functions[i].name == plan.name) {
      plan.function = &metadata.functions[i];
      plan.compiled = functions[i];
    }
  }
  if (!plan.function)
    return fmt::format("the program has no function '{}' (it has {}); choose "
                       "one with --function",
                       plan.name, fmt::join(names, ", "));
  return std::nullopt;
}

/// Loads what the function's data arguments read: .npy arrays, a text
/// corpus (a function that takes tokens) or Fashion-MNIST.
std::optional<Dataset> loadData(const InferenceOptions &options,
                                const Plan &plan, std::string &error) {
  if (holdsNpyFiles(options.dataDir))
    return loadNpyData(options.dataDir, error);
  // Text is cut into windows that do not overlap, as for validation, so
  // that every byte is predicted once.
  if (const ValueSpec *tokens = plan.function->findArgument("tokens")) {
    std::string path =
        options.dataDir == kDefaultDataDir ? kDefaultTextDir : options.dataDir;
    std::optional<std::vector<uint8_t>> text = readText(path, error);
    if (!text)
      return std::nullopt;
    return heldOutWindows(std::move(*text),
                          tokens->global.numElements() / batchSizeOf(*tokens),
                          path, error);
  }
  return loadFashionMnist(options.dataDir,
                          options.split == "test" ? "t10k" : "train", error);
}

/// Decides where every argument comes from and checks that the data fit.
std::optional<std::string> planFeeds(const Dataset &dataset,
                                     const std::string &dataDir, Plan &plan) {
  const FunctionSpec &function = *plan.function;
  for (const ValueSpec &argument : function.arguments) {
    const std::string &name = argument.name;
    auto array = dataset.arrays.find(name);
    Feed feed;
    if (!argument.role.empty()) {
      feed = Feed::State;
    } else if (name == "dropout_step" && argument.global.numElements() == 1 &&
               !ref::isFloatType(argument.global.type)) {
      feed = Feed::DropoutStep;
    } else if (array != dataset.arrays.end()) {
      if (std::optional<std::string> misfit =
              checkArrayFits(array->second, argument))
        return misfit;
      feed = Feed::Array;
    } else if (!dataset.arrays.empty()) {
      return fmt::format("{}'s argument '{}' ({}) has no {}.npy in {}",
                         plan.name, name, argument.global.str(), name, dataDir);
    } else if (name == "images") {
      int64_t pixels = argument.global.numElements() / batchSizeOf(argument);
      if (!ref::isFloatType(argument.global.type) ||
          pixels != dataset.pixelsPerImage)
        return fmt::format("{}'s 'images' is {}; the data are {} pixels per "
                           "image, as floats",
                           plan.name, argument.global.str(),
                           dataset.pixelsPerImage);
      feed = Feed::Images;
    } else if (name == "labels") {
      if (ref::isFloatType(argument.global.type) ||
          argument.global.type == ref::ElementType::I1)
        return fmt::format("{}'s 'labels' is {}; it must be i32 or i64",
                           plan.name, argument.global.str());
      feed = Feed::Labels;
    } else if (name == "tokens" || name == "targets") {
      if (ref::isFloatType(argument.global.type) ||
          argument.global.type == ref::ElementType::I1 ||
          argument.global.rank() != 2)
        return fmt::format("{}'s '{}' is {}; it must be [batch, seq] of i32 "
                           "or i64 byte values",
                           plan.name, name, argument.global.str());
      feed = name == "tokens" ? Feed::Tokens : Feed::Targets;
    } else {
      return fmt::format(
          "{}'s argument '{}' ({}) is neither a parameter (read from the "
          "checkpoint) nor data ('images', 'labels', 'tokens', 'targets', or "
          "an array of a .npy directory)",
          plan.name, name, argument.global.str());
    }
    plan.feeds.push_back(feed);
    if (feed == Feed::State || feed == Feed::DropoutStep)
      continue;
    if (plan.batchSize && plan.batchSize != batchSizeOf(argument))
      return fmt::format("{}'s data arguments have different batch sizes "
                         "('{}' has {}, an earlier one {})",
                         plan.name, name, batchSizeOf(argument),
                         plan.batchSize);
    plan.batchSize = batchSizeOf(argument);
    if (name == "labels" || name == "targets")
      plan.predictionsPerBatch = argument.global.numElements();
    if (feed == Feed::Tokens)
      plan.takesTokens = true;
  }
  if (plan.batchSize == 0)
    return fmt::format("{} takes no data ('images', 'labels', 'tokens', "
                       "'targets', or arrays of a .npy directory) to run on",
                       plan.name);
  if (plan.predictionsPerBatch == 0)
    plan.predictionsPerBatch = plan.batchSize;
  return std::nullopt;
}

/// The parameters and buffers of the function: each rank's block, read from
/// the checkpoint by name, in buffers of tessel_rt_alloc.
class TrainedArguments {
public:
  explicit TrainedArguments(tessel_context_t *context) : context(context) {}
  ~TrainedArguments() {
    for (auto &[name, buffer] : buffers)
      tessel_rt_free(context, buffer);
  }

  /// Reads every State argument of `plan` from `path`; the step count
  /// the checkpoint was written after goes to `step`.
  bool read(const std::string &path, const Plan &plan, const layout::Mesh &mesh,
            int64_t rank, int64_t &step, std::string &error) {
    safetensors::CheckpointFile file;
    if (!file.open(path, error))
      return false;
    step = file.step();
    std::vector<StateTensor> tensors;
    for (size_t i = 0; i < plan.feeds.size(); ++i) {
      if (plan.feeds[i] != Feed::State)
        continue;
      const ValueSpec &spec = plan.function->arguments[i];
      void *&buffer = buffers[spec.name];
      buffer = tessel_rt_alloc(context, spec.local.numBytes());
      tensors.push_back({&spec, buffer});
    }
    HostCopies copies(*context, tensors);
    if (!readBlocks(file, copies.tensors(), mesh, rank, error))
      return false;
    copies.store();
    return true;
  }

  /// The buffer of a parameter or buffer, or null if there is none.
  void *find(const std::string &name) const {
    auto it = buffers.find(name);
    return it == buffers.end() ? nullptr : it->second;
  }

private:
  tessel_context_t *context;
  std::map<std::string, void *> buffers;
};

/// A result's name in the metrics and files: its tessel.name, or
/// "result<i>" when it has none (a loss function's one result).
std::string resultName(const FunctionSpec &function, size_t index) {
  const std::string &name = function.results[index].name;
  return name.empty() ? fmt::format("result{}", index) : name;
}

/// Where a tensor result goes: rank 0 writes it to a .npy file.
struct TensorOutput {
  int result;
  /// The dim that holds the examples, which becomes the rows of the file;
  /// -1 when the result has no `batch` dim (then each batch is one row).
  int batchDim;
  NpyWriter writer;
};

/// Copies a row-major tensor of `shape` with dim `dim` moved to the front.
std::vector<unsigned char> moveDimToFront(const std::vector<unsigned char> &in,
                                          const std::vector<int64_t> &shape,
                                          int dim, size_t elementBytes) {
  int64_t outer = 1, inner = 1, size = shape[dim];
  for (int d = 0; d < dim; ++d)
    outer *= shape[d];
  for (size_t d = dim + 1; d < shape.size(); ++d)
    inner *= shape[d];
  size_t chunk = static_cast<size_t>(inner) * elementBytes;
  std::vector<unsigned char> out(in.size());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < size; ++j)
      std::memcpy(out.data() + (j * outer + o) * chunk,
                  in.data() + (o * size + j) * chunk, chunk);
  return out;
}

/// Opens rank 0's .npy file for each tensor result of the function.
std::optional<std::string>
openOutputs(const InferenceOptions &options, const Plan &plan, int64_t rank,
            std::vector<std::unique_ptr<TensorOutput>> &outputs) {
  std::vector<std::string> names;
  for (size_t i = 0; i < plan.function->results.size(); ++i) {
    const ValueSpec &result = plan.function->results[i];
    if (result.global.rank() == 0)
      continue;
    names.push_back(resultName(*plan.function, i));
    auto output = std::make_unique<TensorOutput>();
    output->result = static_cast<int>(i);
    output->batchDim = result.global.spec().dimIndex("batch");
    outputs.push_back(std::move(output));
  }
  if (outputs.empty())
    return std::nullopt;
  if (options.outDir.empty())
    return fmt::format("{} returns tensors ('{}'); give --out DIR to write "
                       "them as .npy files",
                       plan.name, fmt::join(names, "', '"));
  for (size_t i = 0; i < names.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (names[i] == names[j])
        return fmt::format("{} returns two tensors named '{}'; each needs "
                           "its own tessel.name to be written as a file",
                           plan.name, names[i]);
  // Results written among the data would replace an input array of the
  // same name, or join the data the next run reads.
  std::error_code same;
  if (!options.dataDir.empty() &&
      fs::equivalent(options.outDir, options.dataDir, same))
    return fmt::format("--out {} is the --data directory; write the results "
                       "elsewhere",
                       options.outDir);
  if (rank != 0)
    return std::nullopt;
  std::error_code failure;
  fs::create_directories(options.outDir, failure);
  if (failure)
    return fmt::format("--out {}: {}", options.outDir, failure.message());
  for (auto &output : outputs) {
    const TensorType &global = plan.function->results[output->result].global;
    std::vector<int64_t> rowShape;
    for (int d = 0; d < global.rank(); ++d)
      if (d != output->batchDim)
        rowShape.push_back(global.shape[d]);
    if (output->batchDim < 0)
      rowShape = global.shape;
    std::string error;
    std::string path = (fs::path(options.outDir) /
                        (resultName(*plan.function, output->result) + ".npy"))
                           .string();
    if (!output->writer.open(path, global.type, rowShape, error))
      return error;
  }
  return std::nullopt;
}

/// "[examples, classes] f32" for a written file.
std::string describeOutput(const TensorOutput &output, const ValueSpec &spec) {
  std::vector<std::string> dims = {output.batchDim < 0 ? "batches"
                                                       : "examples"};
  for (int d = 0; d < spec.global.rank(); ++d)
    if (d != output.batchDim)
      dims.push_back(spec.global.dims[d]);
  return fmt::format(
      "{} rows of [{}] {}", output.writer.rows(), fmt::join(dims, ", "),
      ref::elementTypeName(spec.global.type == ref::ElementType::BF16
                               ? ref::ElementType::F32
                               : spec.global.type));
}

} // namespace

int infer(const InferenceOptions &options, const ProgramMetadata &metadata,
          const tessel_function_t *functions, tessel_context_t *context,
          int64_t rank) {
  const layout::Mesh &mesh = metadata.mesh;
  std::string error;
  Plan plan;
  if (anyRankFailed(rank, pickFunction(options, metadata, functions, plan)))
    return 1;
  std::optional<Dataset> dataset = loadData(options, plan, error);
  if (anyRankFailed(rank,
                    dataset ? std::nullopt : std::optional<std::string>(error)))
    return 1;
  if (anyRankFailed(rank, planFeeds(*dataset, options.dataDir, plan)))
    return 1;
  std::optional<std::string> checkpoint =
      agreedCheckpoint(options.checkpoint, rank, error);
  if (anyRankFailed(rank, checkpoint ? std::nullopt
                                     : std::optional<std::string>(
                                           "--checkpoint " + error)))
    return 1;
  TrainedArguments trained(context);
  int64_t step = 0;
  bool read = trained.read(*checkpoint, plan, mesh, rank, step, error);
  if (anyRankFailed(rank,
                    read ? std::nullopt : std::optional<std::string>(error)))
    return 1;

  // Every rank reads the data itself; copies that differ (a truncated file
  // on one node) would run different numbers of batches, and the ranks
  // would wait in each other's collectives.
  int64_t examples = dataset->count, fewest = examples, most = examples;
  MPI_Allreduce(MPI_IN_PLACE, &fewest, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &most, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  if (anyRankFailed(rank, fewest == most
                              ? std::nullopt
                              : std::optional<std::string>(fmt::format(
                                    "the ranks' copies of {} hold different "
                                    "numbers of examples ({} to {}); every "
                                    "rank needs the same data",
                                    options.dataDir, fewest, most))))
    return 1;
  int64_t batches = examples / plan.batchSize;
  if (options.maxBatches > 0)
    batches = std::min(batches, options.maxBatches);
  if (batches == 0) {
    if (rank == 0)
      fmt::print(stderr,
                 "tessel: {} holds {} examples, fewer than one batch of {} "
                 "(the batch is compiled in: tessel compile --batch N)\n",
                 options.dataDir, examples, plan.batchSize);
    return 1;
  }
  std::vector<std::unique_ptr<TensorOutput>> outputs;
  if (anyRankFailed(rank, openOutputs(options, plan, rank, outputs)))
    return 1;
  // Opened only over nothing or a metrics file (the data or checkpoint
  // given by mistake are kept), every write checked.
  std::optional<MetricsFile> metrics;
  if (rank == 0 && !options.metricsFile.empty())
    metrics = MetricsFile::open(options.metricsFile, /*append=*/false, error);
  if (anyRankFailed(rank, rank == 0 && !options.metricsFile.empty() && !metrics
                              ? std::optional<std::string>(error)
                              : std::nullopt))
    return 1;
  if (rank == 0) {
    fmt::print("read {} (after step {}); running {} on {} batches of {}\n",
               *checkpoint, step, plan.name, batches, plan.batchSize);
    std::fflush(stdout);
  }

  const FunctionSpec &function = *plan.function;
  BatchFeeder feeder(function, *dataset, plan.feeds, plan.batchSize);
  std::map<std::string, double> sums;
  double forwardSeconds = 0;
  std::vector<unsigned char> global;
  for (int64_t b = 0; b < batches; ++b) {
    std::optional<BatchArguments> arguments = feeder.arguments(
        b, mesh, rank, context,
        [&](const std::string &name) { return trained.find(name); }, error);
    if (anyRankFailed(rank, arguments ? std::nullopt
                                      : std::optional<std::string>(error)))
      return 1;
    std::vector<void *> results(function.results.size(), nullptr);
    auto start = std::chrono::steady_clock::now();
    plan.compiled(context, arguments->data(), results.data());
    // Scalars are whole on every rank; reading one waits for the device.
    for (size_t r = 0; r < function.results.size(); ++r)
      if (function.results[r].global.rank() == 0)
        sums[resultName(function, r)] += runtime::readScalar(
            *context, function.results[r].local.type, results[r]);
    forwardSeconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    bool ok = true;
    for (auto &output : outputs) {
      const ValueSpec &spec = function.results[output->result];
      HostCopies copies(*context, {{&spec, results[output->result]}});
      copies.fetch();
      ok = gatherGlobal(copies.tensors()[0], mesh, rank, global, error);
      if (!ok)
        break;
      if (rank != 0)
        continue;
      size_t elementBytes = runtime::elementBytes(spec.global.type);
      if (output->batchDim > 0)
        global = moveDimToFront(global, spec.global.shape, output->batchDim,
                                elementBytes);
      ok = output->writer.append(
          global.data(), output->batchDim < 0 ? 1 : plan.batchSize, error);
      if (!ok)
        break;
    }
    for (void *buffer : results)
      tessel_rt_free(context, buffer);
    if (anyRankFailed(rank,
                      ok ? std::nullopt : std::optional<std::string>(error)))
      return 1;
  }

  bool closed = true;
  for (auto &output : outputs)
    if (rank == 0)
      closed = output->writer.close(error) && closed;
  if (anyRankFailed(rank,
                    closed ? std::nullopt : std::optional<std::string>(error)))
    return 1;
  if (rank != 0)
    return 0;

  int64_t ran = batches * plan.batchSize;
  nlohmann::json line = {{"function", plan.name},
                         {"checkpoint", *checkpoint},
                         {"checkpoint_step", step},
                         {"examples", ran},
                         {"batches", batches},
                         {"forward_seconds", forwardSeconds},
                         {"examples_per_s", ran / forwardSeconds}};
  std::string summary;
  for (const auto &[name, sum] : sums) {
    // A count (correct) adds up over the batches; anything else (a mean
    // loss) is averaged.
    double value = name == "correct" ? sum : sum / static_cast<double>(batches);
    line[name] = value;
    summary += fmt::format(", {} {:.6g}", name, value);
  }
  if (sums.count("correct")) {
    int64_t predictions = plan.predictionsPerBatch * batches;
    double accuracy = sums["correct"] / static_cast<double>(predictions);
    line["accuracy"] = accuracy;
    line["predictions"] = predictions;
    summary += fmt::format(", accuracy {:.2f}% ({:.0f} of {} {})",
                           100 * accuracy, sums["correct"], predictions,
                           plan.takesTokens ? "positions" : "examples");
  }
  if (plan.takesTokens && sums.count("loss")) {
    double perplexity = std::exp(sums["loss"] / static_cast<double>(batches));
    line["perplexity"] = perplexity;
    summary += fmt::format(", perplexity {:.4g}", perplexity);
  }
  fmt::print("{}: {} examples{}; forward passes {:.3f}s ({:.0f} "
             "examples/s)\n",
             plan.name, ran, summary, forwardSeconds, ran / forwardSeconds);
  nlohmann::json written = nlohmann::json::object();
  for (auto &output : outputs) {
    const ValueSpec &spec = function.results[output->result];
    fmt::print("wrote {}: {}\n", output->writer.path(),
               describeOutput(*output, spec));
    written[resultName(function, output->result)] = output->writer.path();
  }
  if (!outputs.empty())
    line["outputs"] = written;
  std::fflush(stdout);
  // Every rank is done with collectives: rank 0 alone can fail here.
  if (metrics && (!metrics->write(line, error) || !metrics->close(error))) {
    fmt::print(stderr, "tessel: {}\n", error);
    return 1;
  }
  return 0;
}

} // namespace tessel::driver
