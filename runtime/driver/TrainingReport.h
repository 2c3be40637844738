//===- TrainingReport.h - What a training run tells its user ----*- C++ -*-===//
//
// The progress line every --log-every steps ("step 20/100  loss 1.2345
// 512 samples/s  ETA 3s"), one --metrics JSON line per step, the NaN
// policy's messages, and the summary after the last step (samples/s, the
// loss from first to last step, each rank's peak memory, --profile's op
// times). The trainers (Trainer.h, PipelineTrainer.h) report through this
// one class, so a pipelined run reads like any other.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_TRAININGREPORT_H
#define TESSEL_RUNTIME_DRIVER_TRAININGREPORT_H

#include "driver/Metadata.h"
#include "driver/MetricsFile.h"
#include "driver/Options.h"
#include "layouts/Mesh.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <optional>
#include <string>

namespace tessel::driver {

class TrainingReport {
public:
  using Clock = std::chrono::steady_clock;

  /// A run of steps `firstStep` to options.steps - 1 (from 0), each of
  /// `batchSize` examples.
  TrainingReport(const Options &options, const layout::Mesh &mesh, int64_t rank,
                 int64_t batchSize, int64_t firstStep);

  /// Opens --metrics on rank 0, appending when `append` (a resumed run).
  /// Collective: false on every rank, with the error printed, when it could
  /// not.
  bool openMetrics(bool append);
  /// Writes a line to --metrics on rank 0; a failed write (a full disk) is
  /// remembered and ends the job at the next progress step.
  void record(const nlohmann::json &line);

  /// The NaN policy: step `step` (from 0) is not finite (`problem` says
  /// why: "the loss is nan"). Returns true when training stops (without
  /// --skip-nonfinite); false when the step is skipped. Rank 0 says which.
  bool stopsAtNonFinite(int64_t step, const std::string &problem);
  /// Dynamic loss scaling: step `step`'s gradients were not finite
  /// (`problem`) at loss scale `scale`, so it is skipped and the scale is
  /// now `nextScale`. Counted with the skipped steps; rank 0 says so.
  void lossScaleOverflowed(int64_t step, const std::string &problem,
                           double scale, double nextScale);

  /// Step `step` (from 0) took `seconds`: writes its metrics line (with
  /// the fields of `extra`) and keeps its loss for the summary.
  void stepFinished(int64_t step, double loss, double learningRate,
                    double seconds, bool finite,
                    const nlohmann::json &extra = nlohmann::json::object());
  /// Leaves the time since `since` (validation between steps) out of the
  /// training time.
  void leaveOutSince(Clock::time_point since);

  /// Whether step `step` (from 0) prints a progress line: every
  /// --log-every steps, and the last.
  bool isProgressStep(int64_t step) const;
  /// At a progress step: collective; false on every rank when --metrics
  /// could not be written (the error printed).
  bool metricsWritten();
  /// On rank 0, prints the progress line of step `step` with `suffix`.
  void printProgress(int64_t step, double loss, const std::string &suffix);

  /// The first step --profile times: the run's second, since its first
  /// also loads kernels, makes oneDNN primitives and chooses cuDNN
  /// algorithms, once (about 100 ms of one einsum's first call on a GPU,
  /// which spread over the steps hid where a step's time goes); the first
  /// when the run trains one step.
  int64_t firstProfiledStep() const {
    return options.steps - firstStep > 1 ? firstStep + 1 : firstStep;
  }

  /// After the last step: on rank 0 the steps' time, samples/s and loss,
  /// each rank's peak memory (collective) and the op profile, and their
  /// metrics line.
  void printSummary();
  /// Closes --metrics. Collective: false on every rank when a write
  /// failed (printed).
  bool close();

private:
  const Options &options;
  const layout::Mesh &mesh;
  int64_t rank;
  int64_t batchSize;
  int64_t firstStep;
  std::optional<MetricsFile> metrics;
  std::optional<std::string> metricsError;
  Clock::time_point start, windowStart;
  double leftOutSeconds = 0;
  int64_t windowSteps = 0, skippedSteps = 0;
  double firstLoss = 0, lastLoss = 0;
};

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_TRAININGREPORT_H
