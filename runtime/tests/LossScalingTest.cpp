//===- LossScalingTest.cpp - Dynamic loss scaling in the training loop ----===//
//
// The driver finds a step's loss scaling by its state's names, keeps only
// that state from a skipped step, and stops when the scale falls below
// 2^-24, naming the step (runtime/driver/LossScaling.h). The training
// loop's use of it is checked end to end by e2e-loss-scaling.
//
//===----------------------------------------------------------------------===//

#include "driver/LossScaling.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace tessel::driver;

namespace {

ValueSpec scalar(const std::string &name) {
  ValueSpec value;
  value.name = name;
  value.global.shape = {};
  value.local = value.global;
  return value;
}

FunctionSpec function(std::vector<std::string> results) {
  FunctionSpec spec;
  for (const std::string &name : results)
    spec.results.push_back(scalar(name));
  return spec;
}

TEST(LossScaling, FoundByTheStateNames) {
  FunctionSpec init = function({"w", "loss_scale", "loss_scale.good_steps"});
  FunctionSpec step = function(
      {"w", "loss_scale", "loss_scale.good_steps", "loss", "gradient_norm"});
  std::optional<LossScaling> scaling = LossScaling::find(step, init);
  ASSERT_TRUE(scaling.has_value());
  EXPECT_EQ(scaling->nextScaleResult, 1);
}

TEST(LossScaling, NoneWithoutTheState) {
  FunctionSpec step = function({"w", "loss", "gradient_norm"});
  EXPECT_EQ(LossScaling::find(step, function({"w"})), std::nullopt);
  // A result of that name that init does not start is not carried state.
  FunctionSpec named = function({"w", "loss_scale", "loss"});
  EXPECT_EQ(LossScaling::find(named, function({"w"})), std::nullopt);
}

TEST(LossScaling, OnlyTheScaleIsKeptFromASkippedStep) {
  EXPECT_TRUE(LossScaling::isScaleState("loss_scale"));
  EXPECT_TRUE(LossScaling::isScaleState("loss_scale.good_steps"));
  EXPECT_FALSE(LossScaling::isScaleState("w"));
  EXPECT_FALSE(LossScaling::isScaleState("w.adam_m"));
  EXPECT_FALSE(LossScaling::isScaleState("step"));
}

TEST(LossScaling, AScaleBelowTwoToTheMinus24StopsNamingTheStep) {
  EXPECT_EQ(LossScaling::checkScale(3, 0x1p-24), std::nullopt);
  EXPECT_EQ(LossScaling::checkScale(3, 32768), std::nullopt);
  std::optional<std::string> error = LossScaling::checkScale(4, 0x1p-25);
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("step 5: the loss scale fell to 2.98023e-08, below "
                        "2^-24"),
            std::string::npos)
      << *error;
  EXPECT_TRUE(LossScaling::checkScale(0, 0).has_value());
}

TEST(LossScaling, AnInfiniteScaleStopsNamingTheStep) {
  // inf halves to inf: without the error every later step would be skipped.
  std::optional<std::string> error =
      LossScaling::checkScale(6, std::numeric_limits<double>::infinity());
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("step 7: the loss scale is inf"), std::string::npos)
      << *error;
  EXPECT_EQ(LossScaling::checkScale(6, 0x1p127), std::nullopt);
  error = LossScaling::checkScale(6, std::nan(""));
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("step 7: the loss scale is nan"), std::string::npos)
      << *error;
}

} // namespace
