//===- Generation.cpp - Text generation with a decode function ------------===//

#include "driver/Generation.h"

#include "driver/Agreement.h"
#include "driver/Blocks.h"
#include "driver/CarriedState.h"
#include "driver/Checkpoint.h"
#include "driver/CommandLine.h"
#include "driver/HostCopies.h"
#include "driver/MetricsFile.h"
#include "executor/Backend.h"
#include "executor/Buffers.h"
#include "safetensors/CheckpointFile.h"

#include <fmt/format.h>
#include <mpi.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <climits>
#include <cmath>
#include <fstream>
#include <map>

namespace tessel::driver {

namespace {

/// CLI11's range check lets NaN through (it compares false with 0), and a
/// NaN temperature would pick the least likely token every time.
const CLI::Validator kNotNaNTemperature(
    [](std::string &input) {
      double value = 0;
      if (CLI::detail::lexical_cast(input, value) && std::isnan(value))
        return std::string("NaN is not a temperature");
      return std::string();
    },
    "NOT NAN");

} // namespace

std::optional<GenerationOptions>
parseGenerationOptions(int argc, char **argv, bool print, int &exitStatus) {
  GenerationOptions options;
  CLI::App app{"Continues prompts with the language model compiled into this "
               "program (its decode function), reading its weights from a "
               "checkpoint: PROGRAM generate --checkpoint-dir DIR --prompt "
               "TEXT"};
  app.add_option("--prompt", options.prompts,
                 "A prompt to continue (repeatable; the prompts are "
                 "decoded together, the program's batch at a time)");
  // Not checked here, on every rank: rank 0 alone reads it (a pipe that
  // mpirun gives rank 0 only, a file on rank 0's node only).
  app.add_option("--prompts", options.promptFile,
                 "A file of prompts, one per line (read by rank 0)")
      ->check(kNonEmptyPath);
  app.add_option("--checkpoint,--checkpoint-dir", options.checkpoint,
                 "A checkpoint, or a directory whose latest checkpoint is "
                 "read (written under any layout and rank count)")
      ->check(kNonEmptyPath)
      ->required();
  app.add_option("--max-tokens", options.maxTokens,
                 "Tokens to generate per prompt (fewer when the model's "
                 "context ends first)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--temperature", options.sampling.temperature,
                 "Sample from softmax(logits / T); 0 picks the most likely "
                 "token (greedy)")
      ->check(kNotNaNTemperature & CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--top-k", options.sampling.topK,
                 "Sample among the k most likely tokens only (0: all)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--seed", options.seed, "Seed of the sampling (0 to 2^64 - 1)")
      ->check(kSeed)
      ->capture_default_str();
  app.add_option("--output,--metrics", options.outputFile,
                 "Write one JSON line per prompt (prompt, text, tokens, "
                 "context_full) and one of the totals (generated_tokens, "
                 "decode_calls, seconds, tokens_per_s) to this file")
      ->check(kNonEmptyPath);
  app.add_flag("--quiet", options.quiet,
               "Print only the generated text, one line per prompt");
  if (!checkNoEmptyPathAfterEquals(argc, argv,
                                   {"--prompts", "--checkpoint",
                                    "--checkpoint-dir", "--output",
                                    "--metrics"},
                                   print, exitStatus))
    return std::nullopt;
  if (!parseCommandLine(app, argc, argv, print, exitStatus))
    return std::nullopt;
  return options;
}

namespace {

using Clock = std::chrono::steady_clock;

/// What each argument and result of decode is.
struct DecodePlan {
  const FunctionSpec *decode = nullptr;
  int token = -1, position = -1, logits = -1;
  /// Arguments read from the checkpoint.
  std::vector<int> parameters;
  /// Arguments that decode also returns (by name): carried between calls.
  std::map<std::string, int> carried;
  int64_t batch = 0, vocab = 0, context = 0;
};

bool isInteger(ref::ElementType type) {
  return type == ref::ElementType::I32 || type == ref::ElementType::I64;
}

std::optional<std::string> planDecode(const ProgramMetadata &metadata,
                                      DecodePlan &plan) {
  plan.decode = metadata.findFunction("decode");
  if (!plan.decode)
    return std::string("the program has no 'decode' function to generate "
                       "text with (a language model that defines one, as "
                       "examples/gpt does)");
  const FunctionSpec &decode = *plan.decode;
  for (size_t i = 0; i < decode.results.size(); ++i)
    if (decode.results[i].name == "logits")
      plan.logits = static_cast<int>(i);
  if (plan.logits < 0)
    return std::string("decode has no result named 'logits'");
  const TensorType &logits = decode.results[plan.logits].global;
  if (logits.rank() != 2 || !ref::isFloatType(logits.type))
    return fmt::format("decode's 'logits' is {}; it must be [batch, vocab] "
                       "floats",
                       logits.str());
  plan.batch = logits.shape[0];
  plan.vocab = logits.shape[1];
  for (size_t i = 0; i < decode.arguments.size(); ++i) {
    const ValueSpec &argument = decode.arguments[i];
    int index = static_cast<int>(i);
    const ValueSpec *returned = nullptr;
    for (const ValueSpec &result : decode.results)
      if (result.name == argument.name)
        returned = &result;
    if (!argument.role.empty()) {
      plan.parameters.push_back(index);
    } else if (argument.name == "token") {
      // The logits' rows are the tokens' sequences: the same first dim.
      if (argument.global.rank() != 1 || !isInteger(argument.global.type) ||
          argument.global.dims[0] != logits.dims[0] ||
          argument.global.shape[0] != plan.batch)
        return fmt::format("decode's 'token' is {}; it must be [{}:{}] of "
                           "i32 or i64, as the logits' first dim",
                           argument.global.str(), logits.dims[0], plan.batch);
      plan.token = index;
    } else if (argument.name == "position") {
      if (argument.global.rank() != 0 || !isInteger(argument.global.type))
        return fmt::format("decode's 'position' is {}; it must be an i32 or "
                           "i64 scalar",
                           argument.global.str());
      plan.position = index;
    } else if (returned) {
      if (auto error = checkCarriedState(argument, *returned))
        return error;
      plan.carried[argument.name] = index;
      for (size_t d = 0; d < argument.global.dims.size(); ++d)
        if (argument.global.dims[d] == "key" &&
            (plan.context == 0 || argument.global.shape[d] < plan.context))
          plan.context = argument.global.shape[d];
    } else {
      return fmt::format("decode's argument '{}' ({}) is neither 'token', "
                         "'position', a parameter, nor state that decode "
                         "returns",
                         argument.name, argument.global.str());
    }
  }
  if (plan.token < 0 || plan.position < 0)
    return std::string("decode must take 'token' ([batch] integers) and "
                       "'position' (an integer scalar)");
  if (plan.context == 0)
    return std::string("decode carries no state with a 'key' dimension (a "
                       "key/value cache), whose size is the context length");
  return std::nullopt;
}

/// The prompts of the options, as bytes, each at least one byte and
/// shorter than the context.
std::optional<std::string> readPrompts(const GenerationOptions &options,
                                       int64_t context, int64_t vocab,
                                       std::vector<std::string> &prompts) {
  prompts = options.prompts;
  if (!options.promptFile.empty()) {
    std::ifstream file(options.promptFile, std::ios::binary);
    if (!file)
      return fmt::format("cannot read the prompts in {}", options.promptFile);
    std::string line;
    while (std::getline(file, line)) {
      if (!line.empty() && line.back() == '\r')
        line.pop_back();
      prompts.push_back(line);
    }
  }
  if (prompts.empty())
    return std::string("no prompt: give --prompt TEXT or --prompts FILE");
  for (size_t i = 0; i < prompts.size(); ++i) {
    if (prompts[i].empty())
      return fmt::format("prompt {} is empty; a prompt needs at least one "
                         "byte to continue",
                         i + 1);
    for (char byte : prompts[i])
      if (static_cast<unsigned char>(byte) >= vocab)
        return fmt::format("prompt {} has the byte {}, beyond the model's "
                           "vocabulary of {} tokens",
                           i + 1, static_cast<unsigned char>(byte), vocab);
    if (static_cast<int64_t>(prompts[i].size()) >= context)
      return fmt::format("prompt {} has {} bytes; the model's context holds "
                         "{} positions, so a prompt may have at most {}",
                         i + 1, prompts[i].size(), context, context - 1);
  }
  return std::nullopt;
}

/// Broadcasts rank 0's `prompts` to every rank. An error (on rank 0) when
/// they are more bytes than one MPI message holds.
std::optional<std::string> sharePrompts(int64_t rank,
                                        std::vector<std::string> &prompts) {
  std::vector<uint64_t> lengths;
  std::string joined;
  for (const std::string &prompt : prompts) {
    lengths.push_back(prompt.size());
    joined += prompt;
  }
  uint64_t sizes[2] = {lengths.size(), joined.size()};
  MPI_Bcast(sizes, 2, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  if (sizes[0] > INT_MAX || sizes[1] > INT_MAX)
    return rank == 0 ? std::optional<std::string>(fmt::format(
                           "the {} prompts hold {} bytes, more than one MPI "
                           "message holds",
                           sizes[0], sizes[1]))
                     : std::nullopt;
  lengths.resize(sizes[0]);
  joined.resize(sizes[1]);
  MPI_Bcast(lengths.data(), static_cast<int>(sizes[0]), MPI_UINT64_T, 0,
            MPI_COMM_WORLD);
  MPI_Bcast(joined.data(), static_cast<int>(sizes[1]), MPI_CHAR, 0,
            MPI_COMM_WORLD);
  prompts.clear();
  size_t at = 0;
  for (uint64_t length : lengths) {
    prompts.push_back(joined.substr(at, length));
    at += length;
  }
  return std::nullopt;
}

/// Buffers of decode's arguments that live across calls: the parameters
/// (read once) and the carried state (replaced by each call's results).
class DecodeState {
public:
  DecodeState(tessel_context_t *context, const DecodePlan &plan)
      : context(context), plan(plan) {}
  ~DecodeState() {
    for (auto &[index, buffer] : buffers)
      tessel_rt_free(context, buffer);
  }

  /// Reads every parameter's block from the checkpoint at `path`.
  bool loadParameters(const std::string &path, const layout::Mesh &mesh,
                      int64_t rank, std::string &error) {
    safetensors::CheckpointFile file;
    if (!file.open(path, error))
      return false;
    std::vector<StateTensor> tensors;
    for (int index : plan.parameters) {
      const ValueSpec &spec = plan.decode->arguments[index];
      buffers[index] = tessel_rt_alloc(context, spec.local.numBytes());
      tensors.push_back({&spec, buffers[index]});
    }
    HostCopies copies(*context, tensors);
    if (!readBlocks(file, copies.tensors(), mesh, rank, error))
      return false;
    copies.store();
    return true;
  }

  /// Sets the carried state to zeros (an empty cache).
  void clearCarried() {
    for (const auto &[name, index] : plan.carried) {
      const ValueSpec &spec = plan.decode->arguments[index];
      std::vector<unsigned char> zeros(
          static_cast<size_t>(spec.local.numBytes()), 0);
      if (!buffers.count(index))
        buffers[index] = tessel_rt_alloc(context, zeros.size());
      runtime::activeBackend().copyToBuffer(*context, buffers[index],
                                            zeros.data(), zeros.size());
    }
  }

  void *operator[](int index) const {
    auto it = buffers.find(index);
    return it == buffers.end() ? nullptr : it->second;
  }

  /// Takes a call's results: carried state replaces its arguments, the
  /// logits are returned, the rest are freed.
  void *absorb(std::vector<void *> &results) {
    void *logits = nullptr;
    for (size_t i = 0; i < results.size(); ++i) {
      const std::string &name = plan.decode->results[i].name;
      auto carried = plan.carried.find(name);
      if (static_cast<int>(i) == plan.logits) {
        logits = results[i];
      } else if (carried != plan.carried.end()) {
        tessel_rt_free(context, buffers[carried->second]);
        buffers[carried->second] = results[i];
      } else {
        tessel_rt_free(context, results[i]);
      }
    }
    return logits;
  }

private:
  tessel_context_t *context;
  const DecodePlan &plan;
  std::map<int, void *> buffers;
};

/// Writes this rank's block of the global [batch] `tokens` into `buffer`.
void feedTokens(tessel_context_t *context, const ValueSpec &spec,
                const std::vector<int64_t> &tokens, const layout::Mesh &mesh,
                int64_t rank, void *buffer) {
  std::vector<unsigned char> global(
      static_cast<size_t>(spec.global.numBytes()));
  for (size_t i = 0; i < tokens.size(); ++i)
    runtime::storeElement(spec.global.type, global.data(),
                          static_cast<int64_t>(i),
                          static_cast<double>(tokens[i]));
  std::vector<unsigned char> block(static_cast<size_t>(spec.local.numBytes()));
  extractBlock(global.data(), spec.global.shape,
               layout::shardOffset(mesh, spec.tensorLayout(), rank),
               spec.local.shape, runtime::elementBytes(spec.global.type),
               block.data());
  runtime::activeBackend().copyToBuffer(*context, buffer, block.data(),
                                        block.size());
}

/// A prompt and what the model made of it.
struct Continuation {
  Continuation(std::string prompt, uint64_t seed, size_t index)
      : prompt(std::move(prompt)), index(index) {
    // std::seed_seq's mixing is fixed by the standard, as the generator is.
    std::seed_seq mixed{static_cast<uint32_t>(seed),
                        static_cast<uint32_t>(seed >> 32),
                        static_cast<uint32_t>(index)};
    random.seed(mixed);
  }

  std::string prompt;
  /// Its place among the prompts, from 0.
  size_t index;
  std::vector<int64_t> tokens;
  /// Whether the context ended before --max-tokens.
  bool contextFull = false;
  /// This prompt's own draws, so that its text depends on the seed and its
  /// place among the prompts, not on which others share its batch.
  std::mt19937_64 random;
};

/// Decodes up to plan.batch prompts together (the rest of the rows repeat
/// the first prompt and are dropped). Every rank returns the same tokens.
bool decodeBatch(const GenerationOptions &options, const DecodePlan &plan,
                 const layout::Mesh &mesh, tessel_function_t decode,
                 tessel_context_t *context, int64_t rank, DecodeState &state,
                 std::vector<Continuation> &batch, int64_t &calls,
                 std::string &error) {
  const FunctionSpec &function = *plan.decode;
  const ValueSpec &logitsSpec = function.results[plan.logits];
  state.clearCarried();
  std::vector<int64_t> fed(plan.batch);
  std::vector<bool> done(batch.size(), false);
  int64_t rowsLeft = static_cast<int64_t>(batch.size());
  for (int64_t position = 0; position < plan.context && rowsLeft > 0;
       ++position) {
    // Each row feeds its prompt, then what it generated; rows past the
    // prompts' number repeat row 0.
    for (int64_t b = 0; b < plan.batch; ++b) {
      const Continuation &row =
          batch[b < static_cast<int64_t>(batch.size()) ? b : 0];
      int64_t length = static_cast<int64_t>(row.prompt.size());
      fed[b] = position < length
                   ? static_cast<unsigned char>(row.prompt[position])
               : position - length < static_cast<int64_t>(row.tokens.size())
                   ? row.tokens[position - length]
                   : 0;
    }
    std::vector<void *> arguments(function.arguments.size(), nullptr);
    std::vector<void *> scratch;
    for (size_t i = 0; i < function.arguments.size(); ++i) {
      int index = static_cast<int>(i);
      if (index == plan.token || index == plan.position) {
        const ValueSpec &spec = function.arguments[i];
        arguments[i] = tessel_rt_alloc(context, spec.local.numBytes());
        scratch.push_back(arguments[i]);
        if (index == plan.token)
          feedTokens(context, spec, fed, mesh, rank, arguments[i]);
        else
          runtime::writeScalar(*context, spec.local.type, arguments[i],
                               static_cast<double>(position));
      } else {
        arguments[i] = state[index];
      }
    }
    std::vector<void *> results(function.results.size(), nullptr);
    decode(context, arguments.data(), results.data());
    ++calls;
    void *logits = state.absorb(results);
    for (void *buffer : scratch)
      tessel_rt_free(context, buffer);

    // Rank 0 assembles the logits and picks every row's next token.
    std::vector<unsigned char> host(
        static_cast<size_t>(logitsSpec.local.numBytes()));
    runtime::activeBackend().copyFromBuffer(*context, host.data(), logits,
                                            host.size());
    tessel_rt_free(context, logits);
    std::vector<unsigned char> global;
    if (!gatherGlobal({&logitsSpec, host.data()}, mesh, rank, global, error))
      return false;
    // Rows that pick nothing at this position (still in their prompt, or
    // done) stay kNotPicked.
    constexpr int64_t kNotPicked = -2;
    std::vector<int64_t> picked(batch.size(), kNotPicked);
    if (rank == 0) {
      std::vector<float> row(static_cast<size_t>(plan.vocab));
      for (size_t b = 0; b < batch.size(); ++b) {
        int64_t length = static_cast<int64_t>(batch[b].prompt.size());
        if (done[b] || position < length - 1)
          continue;
        for (int64_t v = 0; v < plan.vocab; ++v)
          row[v] = static_cast<float>(
              runtime::loadElement(logitsSpec.global.type, global.data(),
                                   static_cast<int64_t>(b) * plan.vocab + v));
        picked[b] = sampleToken(row.data(), plan.vocab, options.sampling,
                                batch[b].random);
      }
    }
    MPI_Bcast(picked.data(), static_cast<int>(picked.size()), MPI_INT64_T, 0,
              MPI_COMM_WORLD);
    for (size_t b = 0; b < batch.size(); ++b) {
      if (picked[b] == kNoToken) {
        error = fmt::format("decode's logits for prompt {} at position {} "
                            "hold a NaN or +inf, or nothing above -inf, so "
                            "they pick no token (are the weights finite?)",
                            batch[b].index + 1, position);
        return false;
      }
      if (picked[b] == kNotPicked)
        continue;
      batch[b].tokens.push_back(picked[b]);
      if (static_cast<int64_t>(batch[b].tokens.size()) == options.maxTokens) {
        done[b] = true;
        --rowsLeft;
      }
    }
  }
  for (size_t b = 0; b < batch.size(); ++b)
    batch[b].contextFull = !done[b];
  return true;
}

/// The tokens as bytes (a byte-level model's text; a token past 255 keeps
/// its low byte here, and whole in the JSON's `tokens`).
std::string textOf(const std::vector<int64_t> &tokens) {
  std::string text;
  for (int64_t token : tokens)
    text.push_back(static_cast<char>(token));
  return text;
}

} // namespace

int generate(const GenerationOptions &options, const ProgramMetadata &metadata,
             tessel_function_t decode, tessel_context_t *context,
             int64_t rank) {
  const layout::Mesh &mesh = metadata.mesh;
  DecodePlan plan;
  if (anyRankFailed(rank, planDecode(metadata, plan)))
    return 1;
  if (!decode) {
    anyRankFailed(rank, std::string("the program lists 'decode' but has no "
                                    "compiled function for it"));
    return 1;
  }
  // Rank 0 reads the prompts and every rank takes its copy: ranks that read
  // a --prompts file of their own (a pipe only rank 0 is given, a file that
  // differs between nodes) would decode different numbers of batches and
  // wait in each other's collectives.
  std::vector<std::string> prompts;
  if (anyRankFailed(rank, rank == 0 ? readPrompts(options, plan.context,
                                                  plan.vocab, prompts)
                                    : std::nullopt))
    return 1;
  if (anyRankFailed(rank, sharePrompts(rank, prompts)))
    return 1;

  std::string error;
  std::optional<std::string> path =
      agreedCheckpoint(options.checkpoint, rank, error);
  if (anyRankFailed(rank,
                    path ? std::nullopt
                         : std::optional<std::string>("--checkpoint " + error)))
    return 1;
  DecodeState state(context, plan);
  bool loaded = state.loadParameters(*path, mesh, rank, error);
  if (anyRankFailed(rank,
                    loaded ? std::nullopt : std::optional<std::string>(error)))
    return 1;

  // Opened only over nothing or a metrics file (a checkpoint or the prompts
  // given by mistake are kept), every write checked.
  std::optional<MetricsFile> output;
  if (rank == 0 && !options.outputFile.empty())
    output = MetricsFile::open(options.outputFile, /*append=*/false, error);
  if (anyRankFailed(rank, rank == 0 && !options.outputFile.empty() && !output
                              ? std::optional<std::string>(error)
                              : std::nullopt))
    return 1;

  int64_t calls = 0, generated = 0;
  // Rank 0's first failed write, agreed on with the next batch.
  std::optional<std::string> writeFailure;
  Clock::time_point start = Clock::now();
  for (size_t first = 0; first < prompts.size();
       first += static_cast<size_t>(plan.batch)) {
    std::vector<Continuation> batch;
    for (size_t i = first;
         i < prompts.size() && i < first + static_cast<size_t>(plan.batch); ++i)
      batch.emplace_back(prompts[i], options.seed, i);
    bool ok = decodeBatch(options, plan, mesh, decode, context, rank, state,
                          batch, calls, error);
    if (anyRankFailed(rank,
                      ok ? writeFailure : std::optional<std::string>(error)))
      return 1;
    if (rank != 0)
      continue;
    for (const Continuation &row : batch) {
      generated += static_cast<int64_t>(row.tokens.size());
      std::string text = textOf(row.tokens);
      if (options.quiet)
        fmt::print("{}\n", text);
      else
        fmt::print("{}{}{}\n", row.prompt, text,
                   row.contextFull ? " [context full]" : "");
      nlohmann::json line = {{"prompt", row.prompt},
                             {"text", text},
                             {"tokens", row.tokens},
                             {"context_full", row.contextFull}};
      if (output && !writeFailure && !output->write(line, error))
        writeFailure = error;
    }
  }
  if (anyRankFailed(rank, writeFailure))
    return 1;
  if (rank != 0)
    return 0;
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  fmt::print(stderr,
             "generated {} tokens for {} prompt{} in {:.2f}s: {} decode "
             "calls of batch {} ({:.2f} ms each, {:.0f} tokens/s) on {} "
             "rank{} ({})\n",
             generated, prompts.size(), prompts.size() == 1 ? "" : "s", seconds,
             calls, plan.batch, 1e3 * seconds / std::max<int64_t>(calls, 1),
             generated / seconds, mesh.numRanks(),
             mesh.numRanks() == 1 ? "" : "s", describeMesh(mesh));
  if (output) {
    nlohmann::json line = {{"generated_tokens", generated},
                           {"prompts", prompts.size()},
                           {"decode_calls", calls},
                           {"seconds", seconds},
                           {"tokens_per_s", generated / seconds}};
    // Every rank is done with collectives: rank 0 alone can fail here.
    if (!output->write(line, error) || !output->close(error)) {
      fmt::print(stderr, "tessel: {}\n", error);
      return 1;
    }
  }
  return 0;
}

} // namespace tessel::driver
