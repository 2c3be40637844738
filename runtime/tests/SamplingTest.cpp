//===- SamplingTest.cpp - Picking the next token from logits --------------===//
//
// Greedy decoding takes the first largest logit; sampling draws in
// proportion to softmax(logits / T) among the top k only, and a seed gives
// the same draws every time.
//
//===----------------------------------------------------------------------===//

#include "driver/Sampling.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace tessel::driver;

namespace {

TEST(Sampling, GreedyTakesTheFirstLargestLogit) {
  std::mt19937_64 random(0);
  std::vector<float> logits{0.5f, 2.0f, -1.0f, 2.0f};
  EXPECT_EQ(sampleToken(logits.data(), 4, {}, random), 1);
  // Greedy draws nothing from the generator.
  std::mt19937_64 fresh(0);
  EXPECT_EQ(random(), fresh());
}

TEST(Sampling, TopKNeverLeavesTheKLargest) {
  std::mt19937_64 random(7);
  std::vector<float> logits{3.0f, 0.0f, 2.9f, 2.8f, -5.0f, 1.0f};
  SamplingOptions options{/*temperature=*/100.0, /*topK=*/2};
  for (int i = 0; i < 500; ++i) {
    int64_t token = sampleToken(logits.data(), 6, options, random);
    EXPECT_TRUE(token == 0 || token == 2) << token;
  }
}

TEST(Sampling, DrawsFollowTheTemperedSoftmax) {
  std::vector<float> logits{1.0f, 0.0f, -1.0f};
  SamplingOptions options{/*temperature=*/2.0, /*topK=*/0};
  std::mt19937_64 random(11);
  std::vector<int> counts(3, 0);
  const int draws = 20000;
  for (int i = 0; i < draws; ++i)
    ++counts[sampleToken(logits.data(), 3, options, random)];
  double total = std::exp(0.5) + 1.0 + std::exp(-0.5);
  std::vector<double> expected{std::exp(0.5) / total, 1.0 / total,
                               std::exp(-0.5) / total};
  for (int t = 0; t < 3; ++t)
    EXPECT_NEAR(counts[t] / static_cast<double>(draws), expected[t], 0.015)
        << t;
  // A low temperature is nearly greedy.
  options.temperature = 0.01;
  for (int i = 0; i < 100; ++i)
    EXPECT_EQ(sampleToken(logits.data(), 3, options, random), 0);
}

TEST(Sampling, ASeedGivesTheSameDraws) {
  std::vector<float> logits(50);
  for (size_t i = 0; i < logits.size(); ++i)
    logits[i] = std::sin(static_cast<float>(i));
  SamplingOptions options{/*temperature=*/1.0, /*topK=*/20};
  std::mt19937_64 a(42), b(42), c(43);
  std::vector<int64_t> first, second, other;
  for (int i = 0; i < 64; ++i) {
    first.push_back(sampleToken(logits.data(), 50, options, a));
    second.push_back(sampleToken(logits.data(), 50, options, b));
    other.push_back(sampleToken(logits.data(), 50, options, c));
  }
  EXPECT_EQ(first, second);
  EXPECT_NE(first, other);
}

TEST(Sampling, LogitsWithoutAFiniteLargestPickNoToken) {
  const float nan = std::nanf(""), inf = HUGE_VALF;
  SamplingOptions greedy, sampled{/*temperature=*/1.0, /*topK=*/0};
  for (const std::vector<float> &logits :
       {std::vector<float>{0.5f, nan, 2.0f}, std::vector<float>{nan, 1.0f},
        std::vector<float>{1.0f, inf}, std::vector<float>{-inf, -inf}}) {
    std::mt19937_64 random(3), fresh(3);
    auto vocab = static_cast<int64_t>(logits.size());
    EXPECT_EQ(sampleToken(logits.data(), vocab, greedy, random), kNoToken);
    EXPECT_EQ(sampleToken(logits.data(), vocab, sampled, random), kNoToken);
    EXPECT_EQ(random(), fresh());
  }
  // -inf rules a token out; the others are picked as ever.
  std::vector<float> masked{-inf, 1.0f, -inf};
  std::mt19937_64 random(5);
  EXPECT_EQ(sampleToken(masked.data(), 3, greedy, random), 1);
  for (int i = 0; i < 20; ++i)
    EXPECT_EQ(sampleToken(masked.data(), 3, sampled, random), 1);
}

} // namespace
