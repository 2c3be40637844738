//===- PipelineScheduleTest.cpp - GPipe and 1F1B, and the metadata --------===//
//
// The schedules of pipelined training (runtime/driver/PipelineSchedule):
// every micro-batch runs forward then backward once on every stage; 1F1B
// holds at most p-s micro-batches on stage s and GPipe all m; a simulated
// step of all stages (each action one time unit, a forward waiting for the
// stage before, a backward for the stage after) finishes, with the bubble
// (p-1)/(m+p-1). And the metadata's "pipeline" object
// (runtime/driver/Metadata), whose mistakes are errors naming them.
//
//===----------------------------------------------------------------------===//

#include "driver/PipelineSchedule.h"
#include "driver/Metadata.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <tuple>

using namespace tessel::driver;
using Kind = PipelineAction::Kind;

namespace {

constexpr PipelineScheduleKind kSchedules[] = {PipelineScheduleKind::GPipe,
                                               PipelineScheduleKind::OneFOneB};

struct Timeline {
  /// The time units from the first action's start to the last one's end.
  int64_t span = 0;
  /// The units a stage spent working (every stage alike here).
  int64_t busy = 0;
  bool deadlocked = false;
};

/// Runs every stage's actions in order, one time unit each; a stage's
/// forward j starts once the stage before finished its forward j, and its
/// backward j once the stage after finished its backward j (the messages
/// of the pipeline). A round in which no stage can start is a deadlock.
Timeline simulate(const std::vector<std::vector<PipelineAction>> &actions) {
  auto p = static_cast<int64_t>(actions.size());
  // When each (stage, kind, micro-batch) finished.
  std::map<std::tuple<int64_t, Kind, int64_t>, int64_t> finished;
  std::vector<size_t> next(p, 0);
  std::vector<int64_t> freeAt(p, 0);
  Timeline timeline;
  size_t left = 0;
  for (const auto &stage : actions)
    left += stage.size();
  while (left > 0) {
    bool progressed = false;
    for (int64_t s = 0; s < p; ++s) {
      if (next[s] == actions[s].size())
        continue;
      const PipelineAction &action = actions[s][next[s]];
      int64_t ready = freeAt[s];
      int64_t neighbour = action.kind == Kind::Forward ? s - 1 : s + 1;
      if (neighbour >= 0 && neighbour < p) {
        auto it = finished.find({neighbour, action.kind, action.microbatch});
        if (it == finished.end())
          continue;
        ready = std::max(ready, it->second);
      }
      finished[{s, action.kind, action.microbatch}] = ready + 1;
      freeAt[s] = ready + 1;
      timeline.span = std::max(timeline.span, ready + 1);
      ++next[s];
      --left;
      progressed = true;
    }
    if (!progressed) {
      timeline.deadlocked = true;
      return timeline;
    }
  }
  timeline.busy = static_cast<int64_t>(actions[0].size());
  return timeline;
}

Timeline simulate(PipelineScheduleKind kind, int64_t p, int64_t m) {
  std::vector<std::vector<PipelineAction>> actions;
  for (int64_t s = 0; s < p; ++s)
    actions.push_back(pipelineActions(kind, p, m, s));
  return simulate(actions);
}

TEST(PipelineSchedule, EveryMicrobatchRunsForwardThenBackwardOnce) {
  for (PipelineScheduleKind kind : kSchedules)
    for (int64_t p = 1; p <= 5; ++p)
      for (int64_t m = 1; m <= 9; ++m)
        for (int64_t s = 0; s < p; ++s) {
          std::vector<PipelineAction> actions = pipelineActions(kind, p, m, s);
          ASSERT_EQ(actions.size(), static_cast<size_t>(2 * m));
          std::vector<int> forwards(m, 0), backwards(m, 0);
          for (const PipelineAction &action : actions) {
            ASSERT_GE(action.microbatch, 0);
            ASSERT_LT(action.microbatch, m);
            if (action.kind == Kind::Forward) {
              ++forwards[action.microbatch];
            } else {
              EXPECT_EQ(forwards[action.microbatch], 1)
                  << "backward " << action.microbatch << " before its forward"
                  << " (p " << p << ", m " << m << ", stage " << s << ")";
              ++backwards[action.microbatch];
            }
          }
          EXPECT_EQ(forwards, std::vector<int>(m, 1));
          EXPECT_EQ(backwards, std::vector<int>(m, 1));
        }
}

TEST(PipelineSchedule,
     GPipeHoldsEveryMicrobatchAndOneFOneBAtMostTheStagesLeft) {
  for (int64_t p = 1; p <= 5; ++p)
    for (int64_t m = 1; m <= 9; ++m)
      for (int64_t s = 0; s < p; ++s) {
        EXPECT_EQ(maxMicrobatchesInFlight(
                      pipelineActions(PipelineScheduleKind::GPipe, p, m, s)),
                  m);
        int64_t held = maxMicrobatchesInFlight(
            pipelineActions(PipelineScheduleKind::OneFOneB, p, m, s));
        EXPECT_LE(held, p - s) << "p " << p << ", m " << m << ", stage " << s;
        // And no fewer than it needs to keep the pipeline full.
        EXPECT_EQ(held, std::min(p - s, m));
      }
}

TEST(PipelineSchedule, OneFOneBWarmsUpThenAlternates) {
  // Stage 0 of 4 with 6 micro-batches: 3 forwards ahead, then F/B pairs.
  std::vector<PipelineAction> expected = {
      {Kind::Forward, 0},  {Kind::Forward, 1},  {Kind::Forward, 2},
      {Kind::Forward, 3},  {Kind::Backward, 0}, {Kind::Forward, 4},
      {Kind::Backward, 1}, {Kind::Forward, 5},  {Kind::Backward, 2},
      {Kind::Backward, 3}, {Kind::Backward, 4}, {Kind::Backward, 5}};
  EXPECT_EQ(pipelineActions(PipelineScheduleKind::OneFOneB, 4, 6, 0), expected);
  // The last stage runs each micro-batch's backward right after its
  // forward.
  std::vector<PipelineAction> last =
      pipelineActions(PipelineScheduleKind::OneFOneB, 4, 3, 3);
  EXPECT_EQ(last, (std::vector<PipelineAction>{{Kind::Forward, 0},
                                               {Kind::Backward, 0},
                                               {Kind::Forward, 1},
                                               {Kind::Backward, 1},
                                               {Kind::Forward, 2},
                                               {Kind::Backward, 2}}));
}

TEST(PipelineSchedule, SimulatedStepFinishesWithTheBubbleOfThePaper) {
  for (PipelineScheduleKind kind : kSchedules)
    for (int64_t p = 1; p <= 6; ++p)
      for (int64_t m = 1; m <= 12; ++m) {
        Timeline timeline = simulate(kind, p, m);
        ASSERT_FALSE(timeline.deadlocked) << "p " << p << ", m " << m;
        // Every stage idles (p-1)/(m+p-1) of the step.
        double bubble = 1.0 - static_cast<double>(timeline.busy) /
                                  static_cast<double>(timeline.span);
        EXPECT_DOUBLE_EQ(bubble, static_cast<double>(p - 1) / (m + p - 1))
            << (kind == PipelineScheduleKind::GPipe ? "gpipe" : "1f1b")
            << ", p " << p << ", m " << m;
      }
}

TEST(PipelineSchedule, AnOrderThatWaitsOnItselfIsCaughtAsADeadlock) {
  // The simulation can fail: a first stage that wants micro-batch 1's
  // gradient before sending micro-batch 1 forward never gets it.
  std::vector<std::vector<PipelineAction>> actions = {
      {{Kind::Forward, 0},
       {Kind::Backward, 1},
       {Kind::Forward, 1},
       {Kind::Backward, 0}},
      pipelineActions(PipelineScheduleKind::GPipe, 2, 2, 1)};
  EXPECT_TRUE(simulate(actions).deadlocked);
  std::swap(actions[0][1], actions[0][2]);
  EXPECT_FALSE(simulate(actions).deadlocked);
}

TEST(PipelineSchedule, NamesAreTheMetadatas) {
  EXPECT_EQ(parsePipelineSchedule("gpipe"), PipelineScheduleKind::GPipe);
  EXPECT_EQ(parsePipelineSchedule("1f1b"), PipelineScheduleKind::OneFOneB);
  EXPECT_EQ(parsePipelineSchedule("1F1B"), std::nullopt);
}

// The metadata of a two-stage program on a mesh data:2 x stage:2; `edit`
// changes its "pipeline" object.
std::string
metadataText(const std::function<void(nlohmann::json &)> &edit = nullptr) {
  nlohmann::json scalar = {{"dims", nlohmann::json::array()},
                           {"shape", nlohmann::json::array()},
                           {"type", "f32"}};
  nlohmann::json functions = nlohmann::json::array();
  nlohmann::json stages = nlohmann::json::array();
  for (int s = 0; s < 2; ++s) {
    nlohmann::json stage;
    for (const char *role : {"init", "forward", "backward", "apply"}) {
      std::string name = "stage" + std::to_string(s) + "_" + role;
      stage[role] = name;
      functions.push_back(
          {{"name", name},
           {"symbol", "tessel_fn_" + name},
           {"arguments", nlohmann::json::array()},
           {"results",
            {{{"name", "x"}, {"global", scalar}, {"local", scalar}}}}});
    }
    stages.push_back(stage);
  }
  nlohmann::json root = {
      {"mesh", {{"axes", {"data", "stage"}}, {"sizes", {2, 2}}}},
      {"functions", functions},
      {"pipeline",
       {{"axis", "stage"},
        {"microbatches", 4},
        {"schedule", "1f1b"},
        {"remat", false},
        {"batch_dim", "batch"},
        {"stages", stages}}}};
  if (edit)
    edit(root["pipeline"]);
  return root.dump();
}

std::string metadataError(const std::function<void(nlohmann::json &)> &edit) {
  std::string error;
  std::string text = metadataText(edit);
  EXPECT_FALSE(parseMetadata(text.c_str(), error).has_value());
  return error;
}

TEST(PipelineMetadata, IsParsed) {
  std::string error;
  std::string text = metadataText();
  std::optional<ProgramMetadata> metadata = parseMetadata(text.c_str(), error);
  ASSERT_TRUE(metadata) << error;
  ASSERT_TRUE(metadata->pipeline);
  const PipelineSpec &pipeline = *metadata->pipeline;
  EXPECT_EQ(pipeline.axis, "stage");
  EXPECT_EQ(pipeline.microbatches, 4);
  EXPECT_EQ(pipeline.schedule, "1f1b");
  EXPECT_FALSE(pipeline.remat);
  EXPECT_EQ(pipeline.batchDim, "batch");
  ASSERT_EQ(pipeline.stages.size(), 2u);
  EXPECT_EQ(pipeline.stages[1].init, "stage1_init");
  EXPECT_EQ(pipeline.stages[1].forward, "stage1_forward");
  EXPECT_EQ(pipeline.stages[1].backward, "stage1_backward");
  EXPECT_EQ(pipeline.stages[0].apply, "stage0_apply");
}

TEST(PipelineMetadata, MistakesAreErrorsNamingThem) {
  EXPECT_NE(metadataError([](nlohmann::json &p) { p["axis"] = "pipe"; })
                .find("the axis 'pipe' is not an axis of the mesh data:2 x "
                      "stage:2"),
            std::string::npos);
  EXPECT_NE(metadataError([](nlohmann::json &p) {
              p["stages"].erase(1);
            }).find("has 1 stages, but the axis 'stage' has size 2"),
            std::string::npos);
  EXPECT_NE(metadataError([](nlohmann::json &p) {
              p["stages"][1]["backward"] = "stage1_bwd";
            }).find("stage 1: the function 'stage1_bwd' is not among"),
            std::string::npos);
  EXPECT_NE(metadataError([](nlohmann::json &p) {
              p["schedule"] = "zigzag";
            }).find("the schedule 'zigzag' is neither 'gpipe' nor '1f1b'"),
            std::string::npos);
  EXPECT_NE(metadataError([](nlohmann::json &p) {
              p["microbatches"] = 0;
            }).find("\"microbatches\" is 0"),
            std::string::npos);
  EXPECT_NE(metadataError([](nlohmann::json &p) {
              p.erase("batch_dim");
            }).find("has no \"batch_dim\""),
            std::string::npos);
  EXPECT_NE(metadataError([](nlohmann::json &p) {
              p = 3;
            }).find("\"pipeline\" is not an object"),
            std::string::npos);
}

// nlohmann::json casts a float to an integer: undefined behaviour past
// int64_t (a fuzzer's 2.9e98 mesh size, which UBSan caught) and a silent
// truncation within it.
TEST(PipelineMetadata, SizesAndCountsMustBeWholeNumbers) {
  EXPECT_NE(metadataError([](nlohmann::json &p) {
              p["microbatches"] = 1.5;
            }).find("\"microbatches\" holds 1.5, not a whole number"),
            std::string::npos);
  std::string text = metadataText();
  const std::string sizes = "\"sizes\":[2,2]";
  size_t at = text.find(sizes);
  ASSERT_NE(at, std::string::npos) << text;
  for (const char *size : {"2.9e98", "18446744073709551615", "2.0"}) {
    std::string edited = text;
    edited.replace(at, sizes.size(),
                   std::string("\"sizes\":[") + size + ",2]");
    std::string error;
    EXPECT_FALSE(parseMetadata(edited.c_str(), error).has_value()) << size;
    EXPECT_NE(error.find("the mesh: \"sizes\" holds"), std::string::npos)
        << error;
  }
}

} // namespace
