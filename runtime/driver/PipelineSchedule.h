//===- PipelineSchedule.h - The order of a stage's micro-batches -*- C++
//-*-===//
//
// A pipelined step runs every micro-batch's forward and backward on every
// stage; the schedule is the order one stage runs them in. GPipe
// (fill-drain) runs all m forwards, then all m backwards, and so holds the
// residuals of all m micro-batches at once. 1F1B starts p-1-s forwards
// ahead (stage s of p), then alternates one forward and one backward, and
// ends with the backwards left: stage s holds at most p-s micro-batches.
// Both leave the same bubble, (p-1)/(m+p-1) of the step when forward and
// backward cost the same (docs/pipeline.md).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_PIPELINESCHEDULE_H
#define TESSEL_RUNTIME_DRIVER_PIPELINESCHEDULE_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessel::driver {

enum class PipelineScheduleKind { GPipe, OneFOneB };

/// "gpipe" or "1f1b" (the metadata's spelling), or nothing.
std::optional<PipelineScheduleKind>
parsePipelineSchedule(const std::string &name);

struct PipelineAction {
  enum class Kind { Forward, Backward };
  Kind kind;
  /// The micro-batch, from 0.
  int64_t microbatch;

  bool operator==(const PipelineAction &other) const {
    return kind == other.kind && microbatch == other.microbatch;
  }
};

/// What stage `stage` of `stages` runs in one step of `microbatches`
/// micro-batches, in order: each micro-batch's forward once and its
/// backward once, after its forward.
std::vector<PipelineAction> pipelineActions(PipelineScheduleKind kind,
                                            int64_t stages,
                                            int64_t microbatches,
                                            int64_t stage);

/// The most micro-batches whose forward has run and whose backward has not,
/// at any point of `actions`: the residuals the stage holds at its peak.
int64_t maxMicrobatchesInFlight(const std::vector<PipelineAction> &actions);

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_PIPELINESCHEDULE_H
