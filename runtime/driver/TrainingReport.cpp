//===- TrainingReport.cpp - What a training run tells its user ------------===//

#include "driver/TrainingReport.h"

#include "driver/Agreement.h"
#include "driver/PeakMemory.h"
#include "driver/Profile.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tessel::driver {

namespace {

double secondsBetween(TrainingReport::Clock::time_point from,
                      TrainingReport::Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

std::string formatDuration(double seconds) {
  if (seconds < 60)
    return fmt::format("{:.0f}s", seconds);
  if (seconds < 3600)
    return fmt::format("{:.0f}m{:02.0f}s", std::floor(seconds / 60),
                       std::fmod(seconds, 60));
  return fmt::format("{:.0f}h{:02.0f}m", std::floor(seconds / 3600),
                     std::fmod(seconds / 60, 60));
}

} // namespace

TrainingReport::TrainingReport(const Options &options, const layout::Mesh &mesh,
                               int64_t rank, int64_t batchSize,
                               int64_t firstStep)
    : options(options), mesh(mesh), rank(rank), batchSize(batchSize),
      firstStep(firstStep), start(Clock::now()), windowStart(start) {}

bool TrainingReport::openMetrics(bool append) {
  std::string error;
  if (rank == 0 && !options.metricsFile.empty())
    metrics = MetricsFile::open(options.metricsFile, append, error);
  bool failed = rank == 0 && !options.metricsFile.empty() && !metrics;
  if (anyRankFailed(rank,
                    failed ? std::optional<std::string>(error) : std::nullopt))
    return false;
  // The steps' time starts after the set-up.
  start = windowStart = Clock::now();
  return true;
}

void TrainingReport::record(const nlohmann::json &line) {
  std::string message;
  if (metrics && !metricsError && !metrics->write(line, message))
    metricsError = message;
}

bool TrainingReport::stopsAtNonFinite(int64_t step,
                                      const std::string &problem) {
  if (!options.skipNonFinite) {
    if (rank == 0)
      fmt::print(stderr,
                 "tessel: step {}: {}; stopping (the weights are those after "
                 "step {}; --skip-nonfinite skips such steps instead)\n",
                 step + 1, problem, step);
    return true;
  }
  ++skippedSteps;
  if (rank == 0)
    fmt::print(stderr, "tessel: step {}: {}; step skipped\n", step + 1,
               problem);
  return false;
}

void TrainingReport::lossScaleOverflowed(int64_t step,
                                         const std::string &problem,
                                         double scale, double nextScale) {
  ++skippedSteps;
  if (rank == 0)
    fmt::print(stderr,
               "tessel: step {}: {} at loss scale {:g}; step skipped, loss "
               "scale now {:g}\n",
               step + 1, problem, scale, nextScale);
}

void TrainingReport::stepFinished(int64_t step, double loss,
                                  double learningRate, double seconds,
                                  bool finite, const nlohmann::json &extra) {
  if (step == firstStep)
    firstLoss = loss;
  lastLoss = loss;
  ++windowSteps;
  if (!metrics)
    return;
  nlohmann::json line = {{"step", step + 1},
                         {"loss", loss},
                         {"samples_per_s", batchSize / seconds},
                         {"step_ms", seconds * 1e3},
                         {"lr", learningRate}};
  line.update(extra);
  if (!finite)
    line["skipped"] = true;
  record(line);
}

void TrainingReport::leaveOutSince(Clock::time_point since) {
  Clock::duration spent = Clock::now() - since;
  leftOutSeconds += std::chrono::duration<double>(spent).count();
  windowStart += spent;
}

bool TrainingReport::isProgressStep(int64_t step) const {
  return (step + 1) % options.logEvery == 0 || step + 1 == options.steps;
}

bool TrainingReport::metricsWritten() {
  return !anyRankFailed(rank, metricsError);
}

void TrainingReport::printProgress(int64_t step, double loss,
                                   const std::string &suffix) {
  if (rank != 0)
    return;
  Clock::time_point now = Clock::now();
  double window = secondsBetween(windowStart, now);
  // The ETA counts the validation to come, as the time so far does.
  double perStep =
      secondsBetween(start, now) / static_cast<double>(step + 1 - firstStep);
  fmt::print(
      "step {}/{}  loss {:.4f}  {:.0f} samples/s  ETA {}{}\n", step + 1,
      options.steps, loss,
      static_cast<double>(batchSize * windowSteps) / window,
      formatDuration(perStep * static_cast<double>(options.steps - step - 1)),
      suffix);
  std::fflush(stdout);
  windowStart = now;
  windowSteps = 0;
}

void TrainingReport::printSummary() {
  std::vector<double> peakMiB = gatherPeakMemoryMiB();
  std::vector<double> waitedPerRank;
  if (options.profile)
    waitedPerRank = gatherWaitedSeconds();
  if (rank != 0 || firstStep >= options.steps)
    return;
  // The training time, without the validation between steps.
  double seconds = secondsBetween(start, Clock::now()) - leftOutSeconds;
  int64_t trained = options.steps - firstStep;
  fmt::print("trained steps {}-{} on {} rank{} ({}) in {:.1f}s{}: {:.0f} "
             "samples/s, loss {:.4f} -> {:.4f}\n",
             firstStep + 1, options.steps, mesh.numRanks(),
             mesh.numRanks() == 1 ? "" : "s", describeMesh(mesh), seconds,
             leftOutSeconds > 0
                 ? fmt::format(" (and {:.1f}s of validation)", leftOutSeconds)
                 : "",
             static_cast<double>(batchSize * trained) / seconds, firstLoss,
             lastLoss);
  double largest = *std::max_element(peakMiB.begin(), peakMiB.end());
  fmt::print("peak memory per rank: {:.0f} MiB (largest), {:.0f} MiB on "
             "rank 0\n",
             largest, peakMiB[0]);
  std::fflush(stdout);
  if (options.profile)
    printOpProfile(stdout, options.steps - firstProfiledStep(),
                   options.profileSites, waitedPerRank);
  if (metrics) {
    nlohmann::json line = {
        {"trained_steps", trained},
        {"train_seconds", seconds},
        {"validation_seconds", leftOutSeconds},
        {"samples_per_s", static_cast<double>(batchSize * trained) / seconds},
        {"peak_rss_mib", peakMiB}};
    if (skippedSteps)
      line["skipped_steps"] = skippedSteps;
    record(line);
  }
}

bool TrainingReport::close() {
  std::string message;
  if (metrics && !metrics->close(message) && !metricsError)
    metricsError = message;
  return !anyRankFailed(rank, metricsError);
}

} // namespace tessel::driver
