//===- PipelineTrainer.cpp - The training loop of a pipelined program -----===//

#include "driver/PipelineTrainer.h"

#include "driver/Agreement.h"
#include "driver/Batches.h"
#include "driver/DataSources.h"
#include "driver/Evaluation.h"
#include "driver/FiniteState.h"
#include "driver/HostCopies.h"
#include "driver/LossScaling.h"
#include "driver/PipelineCheckpoint.h"
#include "driver/PipelineEvaluation.h"
#include "driver/PipelineSchedule.h"
#include "driver/Schedule.h"
#include "driver/StageLinks.h"
#include "driver/TrainingData.h"
#include "driver/TrainingReport.h"
#include "driver/Watchdog.h"
#include "executor/Backend.h"
#include "executor/Buffers.h"
#include "executor/Execute.h"

#include <fmt/format.h>
#include <mpi.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>

namespace tessel::driver {

namespace {

using Clock = std::chrono::steady_clock;
using Kind = PipelineAction::Kind;

bool startsWith(const std::string &text, const std::string &prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

bool endsWith(const std::string &text, const std::string &suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

constexpr const char *kGradient = ".gradient";

/// `stage{s}.input`: the prefix of the activations stage s receives.
std::string inputPrefix(int64_t stage) {
  return fmt::format("stage{}.input", stage);
}

/// The activations stage s receives (s >= 1), in the order its forward
/// takes them: the contents of the message from stage s-1.
std::vector<const ValueSpec *> boundaryInputs(const FunctionSpec &forward,
                                              int64_t stage) {
  std::vector<const ValueSpec *> inputs;
  for (const ValueSpec &argument : forward.arguments)
    if (startsWith(argument.name, inputPrefix(stage)) &&
        !endsWith(argument.name, kGradient))
      inputs.push_back(&argument);
  return inputs;
}

/// The cotangents of stage s+1's activations that stage s's backward
/// takes, in its order: the contents of the message from stage s+1.
std::vector<const ValueSpec *> cotangentInputs(const FunctionSpec &backward,
                                               int64_t stage) {
  std::vector<const ValueSpec *> inputs;
  for (const ValueSpec &argument : backward.arguments)
    if (startsWith(argument.name, inputPrefix(stage + 1)) &&
        endsWith(argument.name, kGradient))
      inputs.push_back(&argument);
  return inputs;
}

const ValueSpec *resultNamed(const FunctionSpec &function,
                             const std::string &name) {
  for (const ValueSpec &result : function.results)
    if (result.name == name)
      return &result;
  return nullptr;
}

/// What one rank runs: its stage's functions, checked against each other
/// and against the neighbouring stages' (the messages' contents).
struct StagePlan {
  int64_t stage = 0;
  int64_t stages = 1;
  const FunctionSpec *init = nullptr;
  const FunctionSpec *forward = nullptr;
  const FunctionSpec *backward = nullptr;
  const FunctionSpec *apply = nullptr;
  tessel_function_t initFunction = nullptr;
  tessel_function_t forwardFunction = nullptr;
  tessel_function_t backwardFunction = nullptr;
  tessel_function_t applyFunction = nullptr;
  /// The data arguments of forward and backward by name.
  std::map<std::string, DataFeed> feeds;
  /// The examples of one micro-batch, and of a step.
  int64_t microbatchSize = 0;
  int64_t batchSize = 0;
  /// The messages: activations from the stage before and to the stage
  /// after, cotangents from the stage after and to the stage before (each
  /// list in the receiver's argument order).
  std::vector<const ValueSpec *> inputsFromBefore, outputsToAfter;
  std::vector<const ValueSpec *> cotangentsFromAfter, cotangentsToBefore;
  /// The last stage's `loss` result.
  int lossResult = -1;
  /// Apply's `gradient_norm` result, the norm of every stage's gradients
  /// (tessel-sum-gradient-norm-over-stages); -1 in a program compiled
  /// before apply returned it.
  int gradientNormResult = -1;
  /// The loss scale the stage keeps, where the step scales its loss
  /// (LossScaling.h): every stage's apply returns the next one.
  std::optional<LossScaling> lossScaling;
  /// The gradients apply takes, `<parameter>.gradient`.
  std::set<std::string> gradients;
};

std::optional<std::string> checkSameBlock(const ValueSpec &sent,
                                          const ValueSpec &received,
                                          const std::string &sender,
                                          const std::string &receiver) {
  if (sent.local.shape != received.local.shape ||
      sent.local.type != received.local.type ||
      sent.global.shape != received.global.shape || sent.axes != received.axes)
    return fmt::format("{} returns '{}' as {} (on this rank {}), but {} takes "
                       "it as {} (on this rank {}) under another layout",
                       sender, sent.name, sent.global.str(), sent.local.str(),
                       receiver, received.global.str(), received.local.str());
  return std::nullopt;
}

/// Checks a message: `sender` returns every tensor of `tensors` (what
/// `receiver` takes from it) in the block the receiver takes it in, as a
/// message copies the receiver's blocks out of the sender's buffers.
std::optional<std::string>
checkMessage(const FunctionSpec &sender, const FunctionSpec &receiver,
             const std::vector<const ValueSpec *> &tensors) {
  for (const ValueSpec *tensor : tensors) {
    const ValueSpec *sent = resultNamed(sender, tensor->name);
    if (!sent)
      return fmt::format("{} takes '{}', which {} does not return",
                         receiver.name, tensor->name, sender.name);
    if (auto error = checkSameBlock(*sent, *tensor, sender.name, receiver.name))
      return error;
  }
  return std::nullopt;
}

std::optional<std::string>
planStage(const ProgramMetadata &metadata, const Dataset &dataset,
          int64_t stage,
          const std::function<tessel_function_t(const std::string &)> &function,
          StagePlan &plan) {
  const PipelineSpec &pipeline = *metadata.pipeline;
  plan.stage = stage;
  plan.stages = static_cast<int64_t>(pipeline.stages.size());
  const PipelineStageSpec &names = pipeline.stages[stage];
  plan.init = metadata.findFunction(names.init);
  plan.forward = metadata.findFunction(names.forward);
  plan.backward = metadata.findFunction(names.backward);
  plan.apply = metadata.findFunction(names.apply);
  plan.initFunction = function(names.init);
  plan.forwardFunction = function(names.forward);
  plan.backwardFunction = function(names.backward);
  plan.applyFunction = function(names.apply);
  if (!plan.initFunction || !plan.forwardFunction || !plan.backwardFunction ||
      !plan.applyFunction)
    return fmt::format("stage {}'s functions are not all compiled into the "
                       "program",
                       stage);
  if (!plan.init->arguments.empty())
    return fmt::format("{} takes arguments; it must take none",
                       plan.init->name);
  auto isState = [&](const ValueSpec &argument) {
    const ValueSpec *state = resultNamed(*plan.init, argument.name);
    return state && state->local.shape == argument.local.shape &&
           state->local.type == argument.local.type;
  };
  bool first = stage == 0, last = stage + 1 == plan.stages;
  if (!first)
    plan.inputsFromBefore = boundaryInputs(*plan.forward, stage);
  if (!last) {
    const FunctionSpec *next =
        metadata.findFunction(pipeline.stages[stage + 1].forward);
    plan.outputsToAfter = boundaryInputs(*next, stage + 1);
    plan.cotangentsFromAfter = cotangentInputs(*plan.backward, stage);
    const FunctionSpec *nextBackward =
        metadata.findFunction(pipeline.stages[stage + 1].backward);
    if (auto error = checkMessage(*nextBackward, *plan.backward,
                                  plan.cotangentsFromAfter))
      return error;
    if (auto error = checkMessage(*plan.forward, *next, plan.outputsToAfter))
      return error;
  }
  if (!first) {
    const FunctionSpec *before =
        metadata.findFunction(pipeline.stages[stage - 1].backward);
    plan.cotangentsToBefore = cotangentInputs(*before, stage - 1);
    for (const ValueSpec *cotangent : plan.cotangentsToBefore)
      if (!resultNamed(*plan.backward, cotangent->name))
        return fmt::format("{} takes '{}', which {} does not return",
                           before->name, cotangent->name, plan.backward->name);
  }
  // The data: each argument that is no state and no other stage's tensor.
  auto isBoundary = [&](const std::string &name) {
    return startsWith(name, inputPrefix(stage)) ||
           startsWith(name, inputPrefix(stage + 1)) ||
           startsWith(name, fmt::format("stage{}.residual", stage));
  };
  for (const FunctionSpec *spec : {plan.forward, plan.backward}) {
    for (const ValueSpec &argument : spec->arguments) {
      std::optional<DataFeed> feed;
      bool notData = isState(argument) || isBoundary(argument.name);
      if (auto error =
              planDataArgument(spec->name, argument, dataset, notData, feed))
        return error;
      if (notData)
        continue;
      if (!feed || feed->source == DataSource::LearningRate)
        return fmt::format("{}'s argument '{}' ({}) is neither data ('images', "
                           "'labels', 'tokens', 'targets', a .npy array), "
                           "'dropout_step', a result of {} of the same local "
                           "type, nor a tensor of a neighbouring stage",
                           spec->name, argument.name, argument.local.str(),
                           plan.init->name);
      if (feed->batchSize > 0 && feed->source != DataSource::DropoutStep) {
        if (plan.microbatchSize && plan.microbatchSize != feed->batchSize)
          return fmt::format("{}'s data arguments have different batch sizes "
                             "('{}' has {}, an earlier one {})",
                             spec->name, argument.name, feed->batchSize,
                             plan.microbatchSize);
        plan.microbatchSize = feed->batchSize;
      }
      plan.feeds[argument.name] = *feed;
    }
  }
  // Every argument of the backward must be found at its call.
  for (const ValueSpec &argument : plan.backward->arguments) {
    const std::string &name = argument.name;
    if (isState(argument) || plan.feeds.count(name) ||
        resultNamed(*plan.forward, name))
      continue;
    bool received = false;
    for (const auto *list : {&plan.inputsFromBefore, &plan.cotangentsFromAfter})
      for (const ValueSpec *value : *list)
        received = received || value->name == name;
    if (!received)
      return fmt::format("{}'s argument '{}' is neither state, data, an input "
                         "of {}, a result of it, nor a cotangent from the "
                         "next stage",
                         plan.backward->name, name, plan.forward->name);
  }
  if (last) {
    for (size_t i = 0; i < plan.forward->results.size(); ++i)
      if (plan.forward->results[i].name == "loss")
        plan.lossResult = static_cast<int>(i);
    if (plan.lossResult < 0)
      return fmt::format("{} (the last stage) has no result named 'loss'",
                         plan.forward->name);
    if (plan.forward->results[plan.lossResult].local.numElements() != 1)
      return fmt::format("{}'s 'loss' is not a scalar", plan.forward->name);
  }
  for (const ValueSpec &argument : plan.apply->arguments) {
    if (isState(argument))
      continue;
    if (argument.name == "learning_rate") {
      if (argument.global.numElements() != 1 ||
          !ref::isFloatType(argument.global.type))
        return fmt::format("{}'s 'learning_rate' is {}; it must be a float "
                           "scalar",
                           plan.apply->name, argument.global.str());
      continue;
    }
    const ValueSpec *gradient = resultNamed(*plan.backward, argument.name);
    if (!endsWith(argument.name, kGradient) || !gradient)
      return fmt::format("{}'s argument '{}' is neither state, "
                         "'learning_rate', nor a gradient that {} returns",
                         plan.apply->name, argument.name, plan.backward->name);
    if (gradient->local.shape != argument.local.shape ||
        gradient->local.type != argument.local.type)
      return fmt::format("{} returns '{}' as {} but {} takes it as {}",
                         plan.backward->name, argument.name,
                         gradient->local.str(), plan.apply->name,
                         argument.local.str());
    plan.gradients.insert(argument.name);
  }
  plan.lossScaling = LossScaling::find(*plan.apply, *plan.init);
  for (size_t i = 0; i < plan.apply->results.size(); ++i) {
    const ValueSpec &result = plan.apply->results[i];
    if (result.name == "gradient_norm" && result.local.numElements() == 1) {
      plan.gradientNormResult = static_cast<int>(i);
      continue;
    }
    if (!resultNamed(*plan.init, result.name))
      return fmt::format("{} returns '{}', which {} does not", plan.apply->name,
                         result.name, plan.init->name);
  }
  // A middle stage may take no data; the first stage's tell the size.
  for (const PipelineStageSpec &other : pipeline.stages) {
    if (plan.microbatchSize)
      break;
    for (const ValueSpec &argument :
         metadata.findFunction(other.forward)->arguments)
      if (argument.name == "images" || argument.name == "tokens" ||
          dataset.arrays.count(argument.name))
        plan.microbatchSize = batchSizeOf(argument);
  }
  if (plan.microbatchSize == 0)
    return std::string("no stage's forward has a data argument: 'images' "
                       "(with 'labels'), 'tokens' (with 'targets') or a .npy "
                       "array");
  plan.batchSize = plan.microbatchSize * metadata.pipeline->microbatches;
  return std::nullopt;
}

/// The sums of the gradients over a step's micro-batches, added by the
/// executor's tessel.add (on the backend that holds them).
class GradientSums {
public:
  explicit GradientSums(tessel_context_t *context)
      : context(context), sums(context) {}

  /// Adds `buffer` (which it takes) to the sum of `gradient`.
  void add(const ValueSpec &gradient, void *buffer) {
    void *sum = sums.find(gradient.name);
    if (!sum) {
      sums.put(gradient.name, buffer);
      return;
    }
    Adder &adder = adders[gradient.name];
    if (adder.descriptor.empty()) {
      nlohmann::json type = {
          {"dims", gradient.local.dims},
          {"shape", gradient.local.shape},
          {"type", ref::elementTypeName(gradient.local.type)}};
      adder.descriptor =
          nlohmann::json{
              {"op", "tessel.add"},
              {"loc", fmt::format("the sum of '{}' over the micro-batches",
                                  gradient.name)},
              {"operands", {type, type}},
              {"result", type},
              {"attrs", nlohmann::json::object()}}
              .dump();
    }
    void *result = tessel_rt_alloc(context, gradient.local.numBytes());
    void *operands[] = {sum, buffer};
    tessel_rt_execute(context, &adder.site, adder.descriptor.c_str(), operands,
                      2, result);
    tessel_rt_free(context, buffer);
    sums.put(gradient.name, result);
  }

  void *find(const std::string &name) const { return sums.find(name); }
  void clear() { sums.clear(); }

private:
  struct Adder {
    std::string descriptor;
    void *site = nullptr;
  };
  tessel_context_t *context;
  NamedBuffers sums;
  std::map<std::string, Adder> adders;
};

/// The parameters that several stages hold (a tied embedding): the sums of
/// their gradients are summed over those stages' ranks (with the same
/// coordinates on the other axes) before apply, so every copy takes the
/// same update.
class SharedGradients {
public:
  SharedGradients(const ProgramMetadata &metadata, int64_t rank,
                  int64_t otherCoordinates, const StagePlan &plan) {
    const PipelineSpec &pipeline = *metadata.pipeline;
    // Which stages apply each gradient; the same on every rank.
    std::map<std::string, std::vector<int>> holders;
    for (size_t s = 0; s < pipeline.stages.size(); ++s)
      for (const ValueSpec &argument :
           metadata.findFunction(pipeline.stages[s].apply)->arguments)
        if (endsWith(argument.name, kGradient))
          holders[argument.name].push_back(static_cast<int>(s));
    std::map<std::vector<int>, MPI_Comm> groups;
    for (const auto &[name, stages] : holders) {
      if (stages.size() < 2)
        continue;
      auto [it, added] = groups.try_emplace(stages, MPI_COMM_NULL);
      if (added) {
        bool member =
            std::find(stages.begin(), stages.end(), plan.stage) != stages.end();
        MPI_Comm_split(MPI_COMM_WORLD,
                       member ? static_cast<int>(otherCoordinates)
                              : MPI_UNDEFINED,
                       static_cast<int>(rank), &it->second);
      }
      if (it->second != MPI_COMM_NULL)
        shared.push_back({name, it->second});
    }
    for (auto &[stages, comm] : groups)
      if (comm != MPI_COMM_NULL)
        comms.push_back(comm);
  }
  ~SharedGradients() {
    for (MPI_Comm &comm : comms)
      MPI_Comm_free(&comm);
  }
  SharedGradients(const SharedGradients &) = delete;
  SharedGradients &operator=(const SharedGradients &) = delete;

  /// Sums this rank's shared gradients over their holders, in place.
  void sum(tessel_context_t *context, const FunctionSpec &apply,
           const GradientSums &sums) {
    for (const auto &[name, comm] : shared) {
      const ValueSpec *spec = apply.findArgument(name);
      void *buffer = sums.find(name);
      int64_t count = spec->local.numElements();
      std::vector<unsigned char> bytes(
          static_cast<size_t>(spec->local.numBytes()));
      runtime::activeBackend().copyFromBuffer(*context, bytes.data(), buffer,
                                              bytes.size());
      // In double, so that any element type sums the same on every holder.
      std::vector<double> values(static_cast<size_t>(count));
      for (int64_t i = 0; i < count; ++i)
        values[i] = runtime::loadElement(spec->local.type, bytes.data(), i);
      MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(count),
                    MPI_DOUBLE, MPI_SUM, comm);
      for (int64_t i = 0; i < count; ++i)
        runtime::storeElement(spec->local.type, bytes.data(), i, values[i]);
      runtime::activeBackend().copyToBuffer(*context, buffer, bytes.data(),
                                            bytes.size());
    }
  }

private:
  std::vector<std::pair<std::string, MPI_Comm>> shared;
  std::vector<MPI_Comm> comms;
};

/// The evaluation of this rank's stage (PipelineEvaluation.h), when the
/// options ask for one and there are held-out data; nothing otherwise, or
/// after an error (`failed`), which every rank agrees on.
std::optional<PipelineEvaluator> setUpEvaluation(
    const Options &options, const ProgramMetadata &metadata,
    const RunData &data, const StagePlan &plan,
    const std::function<tessel_function_t(const std::string &)> &function,
    int64_t rank, bool &failed) {
  const PipelineSpec &pipeline = *metadata.pipeline;
  failed = false;
  bool evaluates = options.evaluate || options.evalEvery > 0;
  bool cut = pipeline.evaluates();
  std::optional<std::string> problem;
  if (evaluates && !cut && (options.evalEvery > 0 || !options.evalData.empty()))
    problem = fmt::format(
        "{}: the program has no evaluate function (tessel compile leaves "
        "out, with a warning, a model's evaluate that it cannot cut into "
        "the pipeline's stages)",
        options.evalEvery > 0 ? "--eval-every" : "--eval-data");
  else if (evaluates && cut && !data.heldOut && options.evalEvery > 0)
    problem =
        fmt::format("--eval-every: no held-out data ({})", data.noHeldOut);
  if (anyRankFailed(rank, problem)) {
    failed = true;
    return std::nullopt;
  }
  if (!evaluates || !cut)
    return std::nullopt;
  if (!data.heldOut) {
    if (rank == 0 && options.evaluate)
      fmt::print("{}: not evaluating\n", data.noHeldOut);
    return std::nullopt;
  }
  auto spec = [&](int64_t s) {
    return metadata.findFunction(pipeline.stages[s].evaluate);
  };
  bool first = plan.stage == 0, last = plan.stage + 1 == plan.stages;
  const FunctionSpec &mine = *spec(plan.stage);
  // The activations: what the stage before sends this one, what this one
  // sends the next, by their boundary names, as the training step's.
  std::vector<const ValueSpec *> inputs, outputs;
  std::optional<std::string> misfit;
  if (!first) {
    inputs = boundaryInputs(mine, plan.stage);
    misfit = checkMessage(*spec(plan.stage - 1), mine, inputs);
  }
  if (!last && !misfit) {
    outputs = boundaryInputs(*spec(plan.stage + 1), plan.stage + 1);
    misfit = checkMessage(mine, *spec(plan.stage + 1), outputs);
  }
  std::string error = misfit.value_or("");
  tessel_function_t compiled = function(mine.name);
  if (!compiled)
    error = fmt::format("the program has no compiled {}", mine.name);
  std::optional<PipelineEvaluator> evaluator;
  if (error.empty())
    evaluator = PipelineEvaluator::create(
        mine, compiled, *plan.init, *data.heldOut, first, last, inputs, outputs,
        pipeline.microbatches, plan.microbatchSize, error);
  if (anyRankFailed(rank, evaluator
                              ? std::nullopt
                              : std::optional<std::string>(fmt::format(
                                    "{} ({})", error, data.heldOutSource)))) {
    failed = true;
    return std::nullopt;
  }
  int64_t validated = options.evalBatches > 0
                          ? std::min(options.evalBatches, evaluator->batches())
                          : evaluator->batches();
  if (rank == 0)
    fmt::print("evaluating on {}: {} batches of {}{}\n", data.heldOutSource,
               evaluator->batches(), evaluator->examplesPerBatch(),
               options.evalEvery > 0 && validated < evaluator->batches()
                   ? fmt::format(" (validation: the first {})", validated)
                   : "");
  return evaluator;
}

/// Calls `function` with its arguments found by name by `lookup` (each
/// must be found: the plan checked it) and returns its results.
std::vector<void *>
call(tessel_context_t *context, tessel_function_t compiled,
     const FunctionSpec &spec,
     const std::function<void *(const ValueSpec &)> &lookup) {
  std::vector<void *> arguments;
  arguments.reserve(spec.arguments.size());
  for (const ValueSpec &argument : spec.arguments)
    arguments.push_back(lookup(argument));
  std::vector<void *> results(spec.results.size(), nullptr);
  compiled(context, arguments.data(), results.data());
  return results;
}

/// Collective over MPI_COMM_WORLD: whether this stage's trained `state`
/// (the results of its init function) holds an element that is not finite
/// on some rank, printed as FiniteState.h says.
bool stateIsNotFinite(tessel_context_t &context, const StagePlan &plan,
                      const NamedBuffers &state, int64_t rank,
                      const std::string &when, const std::string &then) {
  std::vector<StateTensor> tensors;
  for (const ValueSpec &spec : plan.init->results)
    tensors.push_back({&spec, state.find(spec.name)});
  HostCopies copies(context, std::move(tensors));
  copies.fetch();
  return driver::stateIsNotFinite(copies.tensors(), rank, when, then);
}

} // namespace

int trainPipelined(
    const Options &options, const ProgramMetadata &metadata,
    const std::function<tessel_function_t(const std::string &)> &function,
    tessel_context_t *context, int64_t rank) {
  const layout::Mesh &mesh = metadata.mesh;
  const PipelineSpec &pipeline = *metadata.pipeline;
  std::string error;
  std::optional<RunData> data = loadRunData(options, metadata, error);
  if (anyRankFailed(rank,
                    data ? std::nullopt : std::optional<std::string>(error)))
    return 1;
  const Dataset &dataset = data->training;

  // The rank's stage is its coordinate on the pipeline axis; its
  // neighbours have the same coordinates on the other axes.
  unsigned axis = *mesh.axisIndex(pipeline.axis);
  std::vector<int64_t> coordinates = mesh.coordinatesOf(rank);
  int64_t stage = coordinates[axis];
  auto rankOfStage = [&](int64_t s) {
    std::vector<int64_t> at = coordinates;
    at[axis] = s;
    return mesh.rankAt(at);
  };
  StagePlan plan;
  if (anyRankFailed(rank, planStage(metadata, dataset, stage, function, plan)))
    return 1;
  if (options.batch && options.batch != plan.batchSize) {
    if (rank == 0)
      fmt::print(stderr,
                 "error: --batch {}: this program was compiled for a batch "
                 "of {} ({} micro-batches of {}); compile the model with "
                 "`tessel compile --batch {}` (or `tessel run --batch {}`)\n",
                 options.batch, plan.batchSize, pipeline.microbatches,
                 plan.microbatchSize, options.batch, options.batch);
    return 1;
  }
  // A message's tag is 2 * micro-batch + direction.
  int *tagBound = nullptr, found = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tagBound, &found);
  if (anyRankFailed(rank, found && 2 * pipeline.microbatches - 1 > *tagBound
                              ? std::optional<std::string>(fmt::format(
                                    "{} micro-batches are more than MPI's tags "
                                    "(up to {}) can number",
                                    pipeline.microbatches, *tagBound))
                              : std::nullopt))
    return 1;

  bool first = stage == 0, last = stage + 1 == plan.stages;
  StageLinks links(context, first ? -1 : rankOfStage(stage - 1),
                   last ? -1 : rankOfStage(stage + 1));
  // The ranks of one pipeline (one per stage), for the step's loss, which
  // the last stage knows.
  MPI_Comm pipelineComm = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, static_cast<int>(rankOfStage(0)),
                 static_cast<int>(stage), &pipelineComm);
  SharedGradients shared(metadata, rank, rankOfStage(0), plan);

  NamedBuffers state(context);
  {
    std::vector<void *> results(plan.init->results.size(), nullptr);
    plan.initFunction(context, nullptr, results.data());
    for (size_t i = 0; i < results.size(); ++i)
      state.put(plan.init->results[i].name, results[i]);
  }
  auto stateOf = [&](const ValueSpec &argument) -> void * {
    return state.find(argument.name);
  };
  bool evaluationFailed = false;
  std::optional<PipelineEvaluator> evaluator = setUpEvaluation(
      options, metadata, *data, plan, function, rank, evaluationFailed);
  if (evaluationFailed) {
    MPI_Comm_free(&pipelineComm);
    return 1;
  }
  auto evaluate = [&](int64_t maxBatches) {
    return evaluator->run(
        mesh, rank, context, links, pipelineComm,
        [&](const std::string &name) { return state.find(name); }, maxBatches,
        error);
  };
  // Checkpoints hold every stage's state, each tensor once, as an
  // unpipelined program's do (PipelineCheckpoint.h).
  std::optional<PipelineState> checkpoints;
  if (!options.checkpointDir.empty()) {
    checkpoints = PipelineState::build(metadata, stage, rank, error);
    if (anyRankFailed(rank, checkpoints ? std::nullopt
                                        : std::optional<std::string>(error)))
      return 1;
  }
  auto bufferOf = [&](const std::string &name) { return state.find(name); };
  int64_t firstStep = 0;
  std::optional<std::string> resumeFrom;
  if (options.resume)
    resumeFrom = agreedLatestCheckpoint(options.checkpointDir, rank);
  if (resumeFrom) {
    bool ok =
        checkpoints->read(*context, *resumeFrom, bufferOf, firstStep, error);
    if (anyRankFailed(rank,
                      ok ? std::nullopt : std::optional<std::string>(error)))
      return 1;
    if (rank == 0)
      fmt::print("resumed from {} after step {}\n", *resumeFrom, firstStep);
  } else if (options.resume && rank == 0) {
    fmt::print("no checkpoint in {}: starting from step 0\n",
               options.checkpointDir);
  }
  auto writeCheckpointAfter = [&](int64_t steps) {
    bool ok = checkpoints->write(*context, options.checkpointDir, steps,
                                 bufferOf, error);
    return !anyRankFailed(rank, ok ? std::nullopt
                                   : std::optional<std::string>(error));
  };

  PipelineScheduleKind scheduleKind = *parsePipelineSchedule(pipeline.schedule);
  std::vector<PipelineAction> actions =
      pipelineActions(scheduleKind, plan.stages, pipeline.microbatches, stage);
  if (rank == 0)
    fmt::print("pipeline: {} stages over '{}', {} micro-batches of {} "
               "({}{})\n",
               plan.stages, pipeline.axis, pipeline.microbatches,
               plan.microbatchSize, pipeline.schedule,
               pipeline.remat ? ", recomputing the forward" : "");

  TrainingReport report(options, mesh, rank, plan.batchSize, firstStep);
  if (!report.openMetrics(/*append=*/resumeFrom.has_value()))
    return 1;
  BatchMaker batches(dataset, options.seed);
  std::map<std::string, std::vector<unsigned char>> staging;
  GradientSums sums(context);
  StepWatchdog watchdog(options.stepTimeout, static_cast<int>(rank));
  int status = 0;
  int64_t lastCheckpoint = firstStep;
  for (int64_t s = firstStep; s < options.steps; ++s) {
    if (options.profile && s == report.firstProfiledStep())
      runtime::enableOpProfiling();
    watchdog.stepStarted(s + 1);
    Clock::time_point stepStart = Clock::now();
    double lr = learningRate(options.schedule, options.learningRate,
                             options.warmupSteps, s, options.steps);
    // The unpipelined step's examples, cut into consecutive micro-batches.
    std::vector<int64_t> examples = batches.examplesOfStep(s, plan.batchSize);
    // What each micro-batch's backward needs from its forward: the data,
    // the activations received and the residuals, freed after it.
    std::map<int64_t, NamedBuffers> held;
    double lossSum = 0;
    auto dataOf = [&](const ValueSpec &argument, int64_t j) -> void * {
      NamedBuffers &mine = held.try_emplace(j, context).first->second;
      if (void *buffer = mine.find(argument.name))
        return buffer;
      void *buffer = tessel_rt_alloc(context, argument.local.numBytes());
      std::vector<int64_t> microbatch(
          examples.begin() + j * plan.microbatchSize,
          examples.begin() + (j + 1) * plan.microbatchSize);
      fillDataArgument(batches, plan.feeds.at(argument.name), argument,
                       microbatch, mesh, rank, s, lr, context, buffer,
                       staging[argument.name]);
      mine.put(argument.name, buffer);
      return buffer;
    };
    // Receives start one action ahead, so a message can arrive while the
    // action before it runs.
    auto expectFor = [&](size_t index) {
      if (index >= actions.size())
        return;
      const PipelineAction &action = actions[index];
      if (action.kind == Kind::Forward && !first)
        links.expect(StageLinks::Activations, action.microbatch,
                     plan.inputsFromBefore);
      if (action.kind == Kind::Backward && !last)
        links.expect(StageLinks::Cotangents, action.microbatch,
                     plan.cotangentsFromAfter);
    };
    expectFor(0);
    for (size_t a = 0; a < actions.size(); ++a) {
      expectFor(a + 1);
      int64_t j = actions[a].microbatch;
      NamedBuffers &mine = held.try_emplace(j, context).first->second;
      if (actions[a].kind == Kind::Forward) {
        if (!first)
          links.receive(StageLinks::Activations, j, plan.inputsFromBefore,
                        mine);
        std::vector<void *> results =
            call(context, plan.forwardFunction, *plan.forward,
                 [&](const ValueSpec &argument) -> void * {
                   if (void *buffer = stateOf(argument))
                     return buffer;
                   if (void *buffer = mine.find(argument.name))
                     return buffer;
                   return dataOf(argument, j);
                 });
        // The results stay with the micro-batch until its backward (the
        // residuals); the outputs go to the next stage, the loss into the
        // step's.
        for (size_t i = 0; i < results.size(); ++i) {
          if (static_cast<int>(i) == plan.lossResult) {
            lossSum += runtime::readScalar(
                *context, plan.forward->results[i].local.type, results[i]);
            tessel_rt_free(context, results[i]);
          } else {
            mine.put(plan.forward->results[i].name, results[i]);
          }
        }
        if (!last)
          links.send(StageLinks::Activations, j, plan.outputsToAfter, mine);
        for (const ValueSpec &result : plan.forward->results)
          if (!plan.backward->findArgument(result.name))
            mine.erase(result.name);
      } else {
        NamedBuffers cotangents(context);
        if (!last)
          links.receive(StageLinks::Cotangents, j, plan.cotangentsFromAfter,
                        cotangents);
        std::vector<void *> results =
            call(context, plan.backwardFunction, *plan.backward,
                 [&](const ValueSpec &argument) -> void * {
                   if (void *buffer = stateOf(argument))
                     return buffer;
                   if (void *buffer = mine.find(argument.name))
                     return buffer;
                   if (void *buffer = cotangents.find(argument.name))
                     return buffer;
                   return dataOf(argument, j);
                 });
        held.erase(j);
        NamedBuffers toBefore(context);
        for (size_t i = 0; i < results.size(); ++i) {
          const ValueSpec &result = plan.backward->results[i];
          if (plan.gradients.count(result.name))
            sums.add(result, results[i]);
          else
            toBefore.put(result.name, results[i]);
        }
        if (!first)
          links.send(StageLinks::Cotangents, j, plan.cotangentsToBefore,
                     toBefore);
      }
    }
    links.waitForSends();
    // The step's loss, the mean of the last stage's micro-batch losses,
    // made known to the whole pipeline; the NaN policy then takes the
    // same branch on every rank.
    double loss = lossSum / static_cast<double>(pipeline.microbatches);
    MPI_Bcast(&loss, 1, MPI_DOUBLE, static_cast<int>(plan.stages - 1),
              pipelineComm);
    // The NaN policy, as the unpipelined trainer's: a step whose loss or
    // gradient norm is not finite stops training, or with --skip-nonfinite
    // is dropped. The loss is broadcast and the norm all-reduced over the
    // stages (and replicated over the other axes), so every rank takes the
    // same branch.
    bool finite = std::isfinite(loss);
    std::optional<double> gradientNorm, lossScale, nextLossScale;
    if (plan.lossScaling)
      lossScale = runtime::readScalar(
          *context,
          resultNamed(*plan.init, LossScaling::scaleName())->local.type,
          state.find(LossScaling::scaleName()));
    if (finite) {
      shared.sum(context, *plan.apply, sums);
      std::vector<void *> learningRate;
      std::vector<void *> results = call(
          context, plan.applyFunction, *plan.apply,
          [&](const ValueSpec &argument) -> void * {
            if (void *buffer = stateOf(argument))
              return buffer;
            if (argument.name == "learning_rate") {
              void *buffer =
                  tessel_rt_alloc(context, argument.local.numBytes());
              runtime::writeScalar(*context, argument.local.type, buffer, lr);
              learningRate.push_back(buffer);
              return buffer;
            }
            return sums.find(argument.name);
          });
      for (void *buffer : learningRate)
        tessel_rt_free(context, buffer);
      if (plan.gradientNormResult >= 0) {
        gradientNorm = runtime::readScalar(
            *context, plan.apply->results[plan.gradientNormResult].local.type,
            results[plan.gradientNormResult]);
        finite = std::isfinite(*gradientNorm);
      }
      if (plan.lossScaling)
        nextLossScale = runtime::readScalar(
            *context,
            plan.apply->results[plan.lossScaling->nextScaleResult].local.type,
            results[plan.lossScaling->nextScaleResult]);
      // A step whose gradients are not finite keeps the state it started
      // from; under loss scaling, with its next (halved) scale.
      for (size_t i = 0; i < results.size(); ++i) {
        const std::string &name = plan.apply->results[i].name;
        bool kept =
            static_cast<int>(i) != plan.gradientNormResult &&
            (finite || (plan.lossScaling && LossScaling::isScaleState(name)));
        if (kept)
          state.put(name, results[i]);
        else
          tessel_rt_free(context, results[i]);
      }
    }
    sums.clear();
    // Gradients that are not finite under a finite loss, with the loss
    // scaled, are the scale overflowing: the step is dropped, its scale
    // halved, and training goes on (LossScaling.h).
    bool overflowed = plan.lossScaling && std::isfinite(loss) && !finite;
    if (overflowed)
      report.lossScaleOverflowed(s, nonFiniteStep(loss, gradientNorm),
                                 *lossScale, *nextLossScale);
    if (!finite && !overflowed) {
      std::string nonFinite = nonFiniteStep(loss, gradientNorm);
      // The state the step started from may be what is not finite (the
      // update before it overflowed): then there are no weights to keep,
      // and skipping steps cannot mend it.
      if (stateIsNotFinite(*context, plan, state, rank,
                           fmt::format("step {}: {}", s + 1, nonFinite),
                           "stopping") ||
          report.stopsAtNonFinite(s, nonFinite)) {
        status = 1;
        break;
      }
    }
    Clock::time_point stepEnd = Clock::now();
    watchdog.stepFinished();
    nlohmann::json extra = nlohmann::json::object();
    if (gradientNorm)
      extra["gradient_norm"] = *gradientNorm;
    if (lossScale)
      extra["loss_scale"] = *lossScale;
    report.stepFinished(
        s, loss, lr, std::chrono::duration<double>(stepEnd - stepStart).count(),
        finite, extra);
    // Every rank holds the same scale: all of them stop here together.
    if (std::optional<std::string> tooSmall =
            nextLossScale ? LossScaling::checkScale(s, *nextLossScale)
                          : std::nullopt) {
      if (rank == 0)
        fmt::print(stderr, "error: {}\n", *tooSmall);
      status = 1;
      break;
    }
    // Validation: the held-out split every --eval-every steps, between
    // steps (its time is left out of the samples/s).
    std::optional<EvaluationResult> validation;
    if (evaluator && options.evalEvery > 0 &&
        (s + 1) % options.evalEvery == 0) {
      Clock::time_point validationStart = Clock::now();
      // The profile is of the training steps.
      bool profiled = options.profile && s >= report.firstProfiledStep();
      if (profiled)
        runtime::disableOpProfiling();
      validation = evaluate(options.evalBatches);
      if (profiled)
        runtime::enableOpProfiling();
      if (anyRankFailed(rank, validation ? std::nullopt
                                         : std::optional<std::string>(error))) {
        status = 1;
        break;
      }
      report.leaveOutSince(validationStart);
      report.record(evaluationRecord("validation", s + 1, *validation));
    }
    if (report.isProgressStep(s) && !report.metricsWritten()) {
      status = 1;
      break;
    }
    if (report.isProgressStep(s) || validation)
      report.printProgress(s, loss,
                           validation ? "  |  validation " +
                                            describeEvaluation(*validation)
                                      : "");
    if (checkpoints && options.checkpointEvery > 0 &&
        (s + 1) % options.checkpointEvery == 0) {
      if (stateIsNotFinite(*context, plan, state, rank,
                           fmt::format("after step {}", s + 1),
                           "no checkpoint written") ||
          !writeCheckpointAfter(s + 1)) {
        status = 1;
        break;
      }
      lastCheckpoint = s + 1;
    }
  }
  // The last step's update is checked by no later step: a state it made
  // infinite would end a job that exits 0, or be checkpointed.
  if (status == 0 && firstStep < options.steps &&
      stateIsNotFinite(*context, plan, state, rank,
                       fmt::format("after step {}", options.steps),
                       "training failed"))
    status = 1;
  if (status == 0 && checkpoints && lastCheckpoint != options.steps &&
      firstStep < options.steps && !writeCheckpointAfter(options.steps))
    status = 1;
  if (status == 0)
    report.printSummary();
  // The test evaluation: the same as validation, on every full batch of
  // the held-out split.
  if (status == 0 && evaluator && options.evaluate) {
    std::optional<EvaluationResult> test = evaluate(/*maxBatches=*/0);
    if (anyRankFailed(rank,
                      test ? std::nullopt : std::optional<std::string>(error)))
      status = 1;
    else if (rank == 0) {
      printTestEvaluation(*test);
      report.record(evaluationRecord("test", options.steps, *test));
    }
  }
  MPI_Comm_free(&pipelineComm);
  if (status == 0 && !report.close())
    status = 1;
  return status;
}

} // namespace tessel::driver
