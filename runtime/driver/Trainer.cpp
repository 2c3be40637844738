//===- Trainer.cpp - The training loop ------------------------------------===//

#include "driver/Trainer.h"

#include "driver/Agreement.h"
#include "driver/Batches.h"
#include "driver/Checkpoint.h"
#include "driver/DataSources.h"
#include "driver/Evaluation.h"
#include "driver/FiniteState.h"
#include "driver/HostCopies.h"
#include "driver/LossScaling.h"
#include "driver/Schedule.h"
#include "driver/TrainingData.h"
#include "driver/TrainingReport.h"
#include "driver/Watchdog.h"
#include "executor/Backend.h"
#include "executor/Buffers.h"
#include "executor/Execute.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>

namespace tessel::driver {

namespace {

using Clock = std::chrono::steady_clock;

double secondsBetween(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

/// The checks that make a program one the driver can train, and what it
/// learns from them.
struct StepPlan {
  const FunctionSpec *init = nullptr;
  const FunctionSpec *step = nullptr;
  /// What feeds each argument of train_step (TrainingData.h); nothing for
  /// the state carried between steps.
  std::vector<std::optional<DataFeed>> feeds;
  int64_t batchSize = 0;
  int lossResult = -1;
  /// The gradients' global norm (tessel-autodiff's `gradient_norm`); -1
  /// for a step that returns none.
  int gradientNormResult = -1;
  /// Dynamic loss scaling, for a step compiled with it.
  std::optional<LossScaling> lossScaling;
};

/// Whether init returns `argument` (same name and local type), which makes
/// it state carried between steps.
bool producedByInit(const StepPlan &plan, const ValueSpec &argument) {
  for (const ValueSpec &result : plan.init->results)
    if (result.name == argument.name &&
        result.local.shape == argument.local.shape &&
        result.local.type == argument.local.type)
      return true;
  return false;
}

std::optional<std::string> planStep(const ProgramMetadata &metadata,
                                    const Dataset &dataset, StepPlan &plan) {
  plan.init = metadata.findFunction("init");
  plan.step = metadata.findFunction("train_step");
  if (!plan.init || !plan.step)
    return std::string("the program has no 'init' or no 'train_step' function "
                       "in its metadata; compile a model with tessel-autodiff");
  if (!plan.init->arguments.empty())
    return std::string("the program's init takes arguments; it must take none");
  if (std::optional<std::string> why =
          uncheckpointableState(plan.init->results))
    return why;
  for (const ValueSpec &argument : plan.step->arguments) {
    std::optional<DataFeed> feed;
    bool state = producedByInit(plan, argument);
    if (std::optional<std::string> error =
            planDataArgument("train_step", argument, dataset, state, feed))
      return error;
    if (!feed && !state)
      return fmt::format("train_step's argument '{}' ({}) is neither data "
                         "('images', 'labels'), 'learning_rate', "
                         "'dropout_step', nor a "
                         "result of init of the same local type",
                         argument.name, argument.local.str());
    if (feed && feed->source == DataSource::Array && plan.batchSize &&
        plan.batchSize != feed->batchSize)
      return fmt::format("train_step's data arguments have different "
                         "batch sizes ('{}' has {}, an earlier one {})",
                         argument.name, feed->batchSize, plan.batchSize);
    if (feed && (feed->source == DataSource::Array ||
                 feed->source == DataSource::Images ||
                 feed->source == DataSource::Tokens ||
                 feed->source == DataSource::Targets))
      plan.batchSize = feed->batchSize;
    plan.feeds.push_back(feed);
  }
  // A step's results replace the arguments of the same name, so they must
  // be the same blocks (a layout that splits a parameter but not its new
  // value would feed the next step the wrong block).
  for (size_t i = 0; i < plan.step->arguments.size(); ++i) {
    if (plan.feeds[i])
      continue;
    const ValueSpec &argument = plan.step->arguments[i];
    for (const ValueSpec &result : plan.step->results)
      if (result.name == argument.name &&
          (result.local.shape != argument.local.shape ||
           result.local.type != argument.local.type))
        return fmt::format("train_step returns '{}' as {} but takes it as {}",
                           argument.name, result.local.str(),
                           argument.local.str());
  }
  for (const ValueSpec &argument : plan.step->arguments)
    if (argument.name == "labels" && plan.batchSize &&
        batchSizeOf(argument) != plan.batchSize)
      return std::string("train_step's 'images' and 'labels' have different "
                         "batch sizes");
  if (plan.batchSize == 0)
    return std::string("train_step has no data argument: 'images' (with "
                       "'labels') or 'tokens' (with 'targets')");
  for (size_t i = 0; i < plan.step->results.size(); ++i)
    if (plan.step->results[i].name == "loss")
      plan.lossResult = static_cast<int>(i);
  if (plan.lossResult < 0)
    return std::string("train_step has no result named 'loss'");
  if (plan.step->results[plan.lossResult].local.numElements() != 1)
    return std::string("train_step's 'loss' is not a scalar");
  for (size_t i = 0; i < plan.step->results.size(); ++i)
    if (plan.step->results[i].name == "gradient_norm")
      plan.gradientNormResult = static_cast<int>(i);
  if (plan.gradientNormResult >= 0 &&
      plan.step->results[plan.gradientNormResult].local.numElements() != 1)
    return std::string("train_step's 'gradient_norm' is not a scalar");
  plan.lossScaling = LossScaling::find(*plan.step, *plan.init);
  if (plan.lossScaling && plan.gradientNormResult < 0)
    return std::string("train_step scales its loss but returns no "
                       "'gradient_norm' to tell an overflow by");
  return std::nullopt;
}

/// The state that carries over between steps: init's results by name, each
/// this rank's block in a buffer of tessel_rt_alloc.
class State {
public:
  State(tessel_context_t *context, const FunctionSpec &init)
      : context(context), init(init) {}
  ~State() {
    for (auto &[name, buffer] : buffers)
      tessel_rt_free(context, buffer);
  }

  /// Takes ownership of a function's results: those named like state (and
  /// accepted by `only`, when given) replace it; the rest are freed, except
  /// `keep`, which is returned.
  void *absorb(const FunctionSpec &function, std::vector<void *> &results,
               int keep, bool (*only)(const std::string &) = nullptr) {
    void *kept = nullptr;
    for (size_t i = 0; i < results.size(); ++i) {
      const std::string &name = function.results[i].name;
      if (static_cast<int>(i) == keep) {
        kept = results[i];
      } else if (isState(name) && (!only || only(name))) {
        tessel_rt_free(context, buffers[name]);
        buffers[name] = results[i];
      } else {
        tessel_rt_free(context, results[i]);
      }
    }
    return kept;
  }

  /// Allocates a buffer for every tensor, for a checkpoint to fill.
  void allocate() {
    for (const ValueSpec &spec : init.results) {
      tessel_rt_free(context, buffers[spec.name]);
      buffers[spec.name] = tessel_rt_alloc(context, spec.local.numBytes());
    }
  }

  void *operator[](const std::string &name) { return buffers.at(name); }
  /// The buffer of a state tensor, or null if there is none of that name.
  void *find(const std::string &name) {
    auto it = buffers.find(name);
    return it == buffers.end() ? nullptr : it->second;
  }

  std::vector<StateTensor> tensors() {
    std::vector<StateTensor> result;
    for (const ValueSpec &spec : init.results)
      result.push_back({&spec, buffers.at(spec.name)});
    return result;
  }

private:
  bool isState(const std::string &name) const {
    for (const ValueSpec &spec : init.results)
      if (spec.name == name)
        return true;
    return false;
  }

  tessel_context_t *context;
  const FunctionSpec &init;
  std::map<std::string, void *> buffers;
};

} // namespace

int train(const Options &options, const Program &program,
          tessel_context_t *context, int64_t rank) {
  const ProgramMetadata &metadata = *program.metadata;
  const layout::Mesh &mesh = metadata.mesh;
  std::string error;

  // A directory of .npy arrays, a text corpus or Fashion-MNIST, and the
  // held-out examples of the same kind (DataSources.h).
  std::optional<RunData> data = loadRunData(options, metadata, error);
  if (anyRankFailed(rank,
                    data ? std::nullopt : std::optional<std::string>(error)))
    return 1;
  const Dataset *dataset = &data->training;
  StepPlan plan;
  if (anyRankFailed(rank, planStep(metadata, *dataset, plan)))
    return 1;
  // Evaluation is checked against the held-out data before training, so
  // that a model whose evaluate does not fit them fails now, not after
  // the last step.
  const FunctionSpec *evaluateSpec = metadata.findFunction("evaluate");
  std::optional<Evaluator> evaluator;
  bool evaluates = options.evaluate || options.evalEvery > 0;
  if (evaluates && (!evaluateSpec || !program.evaluate) &&
      (options.evalEvery > 0 || !options.evalData.empty())) {
    if (rank == 0)
      fmt::print(stderr, "error: {}: the program has no evaluate function\n",
                 options.evalEvery > 0 ? "--eval-every" : "--eval-data");
    return 1;
  }
  if (evaluates && evaluateSpec && program.evaluate) {
    if (!data->heldOut && options.evalEvery > 0) {
      if (rank == 0)
        fmt::print(stderr, "error: --eval-every: no held-out data ({})\n",
                   data->noHeldOut);
      return 1;
    }
    if (data->heldOut) {
      evaluator = Evaluator::create(*evaluateSpec, program.evaluate,
                                    *data->heldOut, error);
      if (std::optional<std::string> misfit =
              evaluator ? checkTrainedArguments(*evaluateSpec, *plan.init)
                        : std::nullopt) {
        evaluator.reset();
        error = *misfit;
      }
      if (anyRankFailed(
              rank, evaluator ? std::nullopt
                              : std::optional<std::string>(fmt::format(
                                    "{} ({})", error, data->heldOutSource))))
        return 1;
      int64_t validated = options.evalBatches > 0
                              ? std::min(options.evalBatches,
                                         evaluator->batches())
                              : evaluator->batches();
      if (rank == 0)
        fmt::print("evaluating on {}: {} batches of {}{}\n",
                   data->heldOutSource, evaluator->batches(),
                   evaluator->examplesPerBatch(),
                   options.evalEvery > 0 && validated < evaluator->batches()
                       ? fmt::format(" (validation: the first {})", validated)
                       : "");
    } else if (rank == 0 && options.evaluate) {
      fmt::print("{}: not evaluating\n", data->noHeldOut);
    }
  }
  if (options.batch && options.batch != plan.batchSize) {
    if (rank == 0)
      fmt::print(stderr,
                 "error: --batch {}: this program was compiled for a batch "
                 "of {}; compile the model with `tessel compile --batch {}` "
                 "(or `tessel run --batch {}`)\n",
                 options.batch, plan.batchSize, options.batch, options.batch);
    return 1;
  }

  State state(context, *plan.init);
  int64_t firstStep = 0;
  std::optional<std::string> resumeFrom;
  if (options.resume)
    resumeFrom = agreedLatestCheckpoint(options.checkpointDir, rank);
  if (resumeFrom) {
    state.allocate();
    HostCopies copies(*context, state.tensors());
    bool ok = readCheckpoint(*resumeFrom, copies.tensors(), mesh, rank,
                             firstStep, error);
    if (ok)
      copies.store();
    if (anyRankFailed(rank,
                      ok ? std::nullopt : std::optional<std::string>(error)))
      return 1;
    if (rank == 0)
      fmt::print("resumed from {} after step {}\n", *resumeFrom, firstStep);
  } else {
    if (options.resume && rank == 0)
      fmt::print("no checkpoint in {}: starting from step 0\n",
                 options.checkpointDir);
    std::vector<void *> results(plan.init->results.size(), nullptr);
    program.init(context, nullptr, results.data());
    state.absorb(*plan.init, results, -1);
  }

  TrainingReport report(options, mesh, rank, plan.batchSize, firstStep);
  if (!report.openMetrics(/*append=*/resumeFrom.has_value()))
    return 1;

  BatchMaker batches(*dataset, options.seed);
  const FunctionSpec &step = *plan.step;
  int64_t lastCheckpoint = firstStep;
  std::vector<std::vector<unsigned char>> staging(step.arguments.size());
  StepWatchdog watchdog(options.stepTimeout, rank);
  for (int64_t s = firstStep; s < options.steps; ++s) {
    bool profiled = options.profile && s >= report.firstProfiledStep();
    if (profiled && s == report.firstProfiledStep())
      runtime::enableOpProfiling();
    watchdog.stepStarted(s + 1);
    Clock::time_point stepStart = Clock::now();
    double lr = learningRate(options.schedule, options.learningRate,
                             options.warmupSteps, s, options.steps);
    std::vector<int64_t> examples = batches.examplesOfStep(s, plan.batchSize);
    std::vector<void *> arguments, data;
    for (size_t i = 0; i < step.arguments.size(); ++i) {
      const ValueSpec &argument = step.arguments[i];
      if (!plan.feeds[i]) {
        arguments.push_back(state[argument.name]);
        continue;
      }
      void *buffer = tessel_rt_alloc(context, argument.local.numBytes());
      data.push_back(buffer);
      arguments.push_back(buffer);
      fillDataArgument(batches, *plan.feeds[i], argument, examples, mesh, rank,
                       s, lr, context, buffer, staging[i]);
    }
    // The scale this step's backward pass starts from.
    std::optional<double> lossScale;
    if (plan.lossScaling)
      lossScale = runtime::readScalar(
          *context, step.results[plan.lossScaling->nextScaleResult].local.type,
          state[LossScaling::scaleName()]);
    std::vector<void *> results(step.results.size(), nullptr);
    program.trainStep(context, arguments.data(), results.data());
    for (void *buffer : data)
      tessel_rt_free(context, buffer);
    double loss =
        runtime::readScalar(*context, step.results[plan.lossResult].local.type,
                            results[plan.lossResult]);
    std::optional<double> gradientNorm;
    if (plan.gradientNormResult >= 0)
      gradientNorm = runtime::readScalar(
          *context, step.results[plan.gradientNormResult].local.type,
          results[plan.gradientNormResult]);
    // The NaN policy: a step whose loss or gradient norm is not finite (NaN
    // data, a learning rate too large, gradients that overflowed) stops
    // training, or with --skip-nonfinite is dropped and the state of the
    // step before kept, as mixed-precision trainers skip a step whose
    // gradients overflowed. The loss and the norm are reduced over the
    // ranks, so all of them see the same values and take the same branch.
    // With dynamic loss scaling, gradients that are not finite under a
    // finite loss are the scale overflowing: the step is dropped but for
    // its new (halved) scale, and training goes on (LossScaling.h).
    bool finite =
        std::isfinite(loss) && (!gradientNorm || std::isfinite(*gradientNorm));
    bool overflowed = plan.lossScaling && std::isfinite(loss) && !finite;
    std::string nonFinite = nonFiniteStep(loss, gradientNorm);
    std::optional<double> nextLossScale;
    if (plan.lossScaling)
      nextLossScale = runtime::readScalar(
          *context, step.results[plan.lossScaling->nextScaleResult].local.type,
          results[plan.lossScaling->nextScaleResult]);
    if (finite) {
      tessel_rt_free(context, state.absorb(step, results, plan.lossResult));
    } else if (overflowed) {
      tessel_rt_free(context, state.absorb(step, results, plan.lossResult,
                                           &LossScaling::isScaleState));
      report.lossScaleOverflowed(s, nonFinite, *lossScale, *nextLossScale);
    } else {
      for (void *result : results)
        tessel_rt_free(context, result);
      nextLossScale.reset(); // dropped with the rest of the step
      // The state the step started from may be what is not finite (the
      // update before it overflowed): then there are no weights to keep,
      // and skipping steps cannot mend it.
      HostCopies copies(*context, state.tensors());
      copies.fetch();
      if (stateIsNotFinite(copies.tensors(), rank,
                           fmt::format("step {}: {}", s + 1, nonFinite),
                           "stopping"))
        return 1;
      if (report.stopsAtNonFinite(s, nonFinite))
        return 1;
    }
    Clock::time_point stepEnd = Clock::now();
    watchdog.stepFinished();

    nlohmann::json extra = nlohmann::json::object();
    if (gradientNorm)
      extra["gradient_norm"] = *gradientNorm;
    if (lossScale)
      extra["loss_scale"] = *lossScale;
    report.stepFinished(s, loss, lr, secondsBetween(stepStart, stepEnd), finite,
                        extra);
    // Every rank holds the same scale: all of them stop here together.
    if (std::optional<std::string> tooSmall =
            nextLossScale ? LossScaling::checkScale(s, *nextLossScale)
                          : std::nullopt) {
      if (rank == 0)
        fmt::print(stderr, "error: {}\n", *tooSmall);
      report.close();
      return 1;
    }
    // Validation: the held-out split every --eval-every steps, between
    // steps (its time is left out of the samples/s).
    std::optional<EvaluationResult> validation;
    if (evaluator && options.evalEvery > 0 &&
        (s + 1) % options.evalEvery == 0) {
      Clock::time_point validationStart = Clock::now();
      // The profile is of the training steps.
      if (profiled)
        runtime::disableOpProfiling();
      validation = evaluator->run(
          mesh, rank, context,
          [&](const std::string &name) { return state.find(name); },
          options.evalBatches, error);
      if (profiled)
        runtime::enableOpProfiling();
      if (anyRankFailed(rank, validation ? std::nullopt
                                         : std::optional<std::string>(error)))
        return 1;
      report.leaveOutSince(validationStart);
      report.record(evaluationRecord("validation", s + 1, *validation));
    }
    if (report.isProgressStep(s) && !report.metricsWritten())
      return 1;
    if (report.isProgressStep(s) || validation)
      report.printProgress(s, loss,
                           validation ? "  |  validation " +
                                            describeEvaluation(*validation)
                                      : "");
    if (!options.checkpointDir.empty() && options.checkpointEvery > 0 &&
        (s + 1) % options.checkpointEvery == 0) {
      HostCopies copies(*context, state.tensors());
      copies.fetch();
      if (stateIsNotFinite(copies.tensors(), rank,
                           fmt::format("after step {}", s + 1),
                           "no checkpoint written"))
        return 1;
      bool ok = writeCheckpoint(options.checkpointDir, s + 1, copies.tensors(),
                                mesh, rank, error);
      if (anyRankFailed(rank,
                        ok ? std::nullopt : std::optional<std::string>(error)))
        return 1;
      lastCheckpoint = s + 1;
    }
  }
  // The last step's update is checked by no later step: a state it made
  // infinite would be checkpointed and evaluated, and the job exit 0.
  if (firstStep < options.steps) {
    HostCopies copies(*context, state.tensors());
    copies.fetch();
    if (stateIsNotFinite(copies.tensors(), rank,
                         fmt::format("after step {}", options.steps),
                         "no checkpoint written"))
      return 1;
  }
  if (!options.checkpointDir.empty() && lastCheckpoint != options.steps &&
      firstStep < options.steps) {
    HostCopies copies(*context, state.tensors());
    copies.fetch();
    bool ok = writeCheckpoint(options.checkpointDir, options.steps,
                              copies.tensors(), mesh, rank, error);
    if (anyRankFailed(rank,
                      ok ? std::nullopt : std::optional<std::string>(error)))
      return 1;
  }
  report.printSummary();
  // The test evaluation: the same code as validation, on every full batch
  // of the held-out split.
  if (evaluator && options.evaluate) {
    std::optional<EvaluationResult> test = evaluator->run(
        mesh, rank, context,
        [&](const std::string &name) { return state.find(name); },
        /*maxBatches=*/0, error);
    if (anyRankFailed(rank,
                      test ? std::nullopt : std::optional<std::string>(error)))
      return 1;
    if (rank == 0) {
      printTestEvaluation(*test);
      report.record(evaluationRecord("test", options.steps, *test));
    }
  }
  return report.close() ? 0 : 1;
}

} // namespace tessel::driver
