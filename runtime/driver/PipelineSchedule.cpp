//===- PipelineSchedule.cpp - The order of a stage's micro-batches --------===//

#include "driver/PipelineSchedule.h"

#include <algorithm>

namespace tessel::driver {

std::optional<PipelineScheduleKind>
parsePipelineSchedule(const std::string &name) {
  if (name == "gpipe")
    return PipelineScheduleKind::GPipe;
  if (name == "1f1b")
    return PipelineScheduleKind::OneFOneB;
  return std::nullopt;
}

std::vector<PipelineAction> pipelineActions(PipelineScheduleKind kind,
                                            int64_t stages,
                                            int64_t microbatches,
                                            int64_t stage) {
  using Kind = PipelineAction::Kind;
  std::vector<PipelineAction> actions;
  actions.reserve(static_cast<size_t>(2 * microbatches));
  if (kind == PipelineScheduleKind::GPipe) {
    for (int64_t j = 0; j < microbatches; ++j)
      actions.push_back({Kind::Forward, j});
    for (int64_t j = 0; j < microbatches; ++j)
      actions.push_back({Kind::Backward, j});
    return actions;
  }
  // 1F1B: the warm-up fills the stages after this one, so that the last
  // stage's first backward can start as soon as its forward is done; from
  // then on each backward frees a micro-batch's residuals before the next
  // forward makes more.
  int64_t warmup = std::min(stages - 1 - stage, microbatches);
  int64_t forward = 0, backward = 0;
  for (; forward < warmup; ++forward)
    actions.push_back({Kind::Forward, forward});
  while (forward < microbatches) {
    actions.push_back({Kind::Forward, forward++});
    actions.push_back({Kind::Backward, backward++});
  }
  while (backward < microbatches)
    actions.push_back({Kind::Backward, backward++});
  return actions;
}

int64_t maxMicrobatchesInFlight(const std::vector<PipelineAction> &actions) {
  int64_t inFlight = 0, most = 0;
  for (const PipelineAction &action : actions) {
    inFlight += action.kind == PipelineAction::Kind::Forward ? 1 : -1;
    most = std::max(most, inFlight);
  }
  return most;
}

} // namespace tessel::driver
