//===- InitializersTest.cpp - Tests of deterministic initialization -------===//

#include "reference/Initializers.h"
#include "TensorTestUtils.h"
#include "reference/ParameterInit.h"

#include <cmath>

using namespace tessel::ref;
using namespace tessel::ref::testing;

namespace {

TEST(InitializersTest, GeneratorIsSplitMix64) {
  // The first outputs of SplitMix64 from state 0 (mix64(0) == 0).
  EXPECT_EQ(mix64(0), 0u);
  EXPECT_EQ(randomBits(0, 0), 0xE220A8397B1DCDAFull);
  EXPECT_EQ(randomBits(0, 1), 0x6E789E6AA1B965F4ull);
  EXPECT_EQ(randomBits(0, 2), 0x06C45D188009454Full);
}

TEST(InitializersTest, DocumentedValues) {
  EXPECT_EQ(initialValue(InitKind::Zeros, 3.0, 1, 5), 0.0);
  EXPECT_EQ(initialValue(InitKind::Ones, 3.0, 1, 5), 1.0);
  // Computed independently from the formula in Initializers.h.
  EXPECT_DOUBLE_EQ(initialValue(InitKind::Uniform, 0.5, 7, 5),
                   0.41241292241315364);
  EXPECT_NEAR(initialValue(InitKind::Normal, 2.0, 7, 3), -1.5957043157690185,
              1e-12);
}

TEST(InitializersTest, PureFunctionOfSeedAndIndex) {
  for (uint64_t index : {0ull, 1ull, 12345ull}) {
    EXPECT_EQ(initialValue(InitKind::Normal, 1.0, 9, index),
              initialValue(InitKind::Normal, 1.0, 9, index));
  }
  EXPECT_NE(initialValue(InitKind::Uniform, 1.0, 9, 0),
            initialValue(InitKind::Uniform, 1.0, 9, 1));
  EXPECT_NE(initialValue(InitKind::Uniform, 1.0, 9, 0),
            initialValue(InitKind::Uniform, 1.0, 10, 0));
}

TEST(InitializersTest, UniformRangeAndNormalMoments) {
  constexpr int count = 20000;
  double uniformSum = 0, normalSum = 0, normalSquares = 0;
  for (uint64_t i = 0; i < count; ++i) {
    double u = initialValue(InitKind::Uniform, 0.25, 3, i);
    EXPECT_GE(u, -0.25);
    EXPECT_LT(u, 0.25);
    uniformSum += u;
    double n = initialValue(InitKind::Normal, 2.0, 3, i);
    normalSum += n;
    normalSquares += n * n;
  }
  EXPECT_NEAR(uniformSum / count, 0.0, 0.01);
  double mean = normalSum / count;
  EXPECT_NEAR(mean, 0.0, 0.05);
  EXPECT_NEAR(std::sqrt(normalSquares / count - mean * mean), 2.0, 0.05);
}

TEST(ParameterInitTest, FullParameterUsesRowMajorIndices) {
  Tensor full = initializeParameter(spec({"i", "j"}, {4, 6}, ElementType::F32),
                                    InitKind::Normal, 0.02, 42);
  EXPECT_EQ(full.at({{"i", 1}, {"j", 2}}),
            static_cast<double>(static_cast<float>(
                initialValue(InitKind::Normal, 0.02, 42, 1 * 6 + 2))));
  EXPECT_EQ(full.at({{"i", 3}, {"j", 5}}),
            static_cast<double>(static_cast<float>(
                initialValue(InitKind::Normal, 0.02, 42, 23))));
}

TEST(ParameterInitTest, EveryShardAgreesWithTheFullParameter) {
  TensorSpec fullSpec = spec({"i", "j"}, {4, 6});
  Tensor full = initializeParameter(fullSpec, InitKind::Uniform, 1.0, 42);
  // A row-sharded block, a column-sharded block and a transposed block all
  // hold the values of the elements they cover.
  Tensor rows = initializeParameterBlock(
      fullSpec, {2, 0}, spec({"i", "j"}, {2, 6}), InitKind::Uniform, 1.0, 42);
  Tensor columns = initializeParameterBlock(
      fullSpec, {0, 3}, spec({"i", "j"}, {4, 3}), InitKind::Uniform, 1.0, 42);
  Tensor transposed = initializeParameterBlock(
      fullSpec, {1, 2}, spec({"j", "i"}, {3, 2}), InitKind::Uniform, 1.0, 42);
  for (int64_t i = 0; i < 4; ++i) {
    for (int64_t j = 0; j < 6; ++j) {
      double expected = full.at({{"i", i}, {"j", j}});
      if (i >= 2) {
        EXPECT_EQ(rows.at({{"i", i - 2}, {"j", j}}), expected);
      }
      if (j >= 3) {
        EXPECT_EQ(columns.at({{"i", i}, {"j", j - 3}}), expected);
      }
      if (i >= 1 && i < 3 && j >= 2 && j < 5) {
        EXPECT_EQ(transposed.at({{"j", j - 2}, {"i", i - 1}}), expected);
      }
    }
  }
  // The block's own shape does not change its values: element (3, 4) has
  // flat index 22 whichever block asks for it.
  EXPECT_EQ(rows.at({{"i", 1}, {"j", 4}}),
            initialValue(InitKind::Uniform, 1.0, 42, 22));
}

// Every rank's shard of a parameter split unevenly over a 2 x 3 mesh (i:5
// over "a", blocks of 3; j:7 over "b", blocks of 3) holds the full
// parameter's values where it covers it and zeros past the end.
TEST(ParameterInitTest, ShardsOfAnUnevenSplitArePaddedWithZeros) {
  tessel::layout::Mesh mesh({"a", "b"}, {2, 3});
  tessel::layout::TensorLayout layout{{"i", "j"}, {5, 7}, {{"a"}, {"b"}}};
  Tensor full = initializeParameter(spec({"i", "j"}, {5, 7}, ElementType::F32),
                                    InitKind::Normal, 0.5, 9);
  int64_t covered = 0;
  for (int64_t rank = 0; rank < mesh.numRanks(); ++rank) {
    Tensor shard = initializeParameterShard(
        mesh, layout, rank, ElementType::F32, InitKind::Normal, 0.5, 9);
    ASSERT_EQ(shard.spec.shape, (std::vector<int64_t>{3, 3}));
    std::vector<int64_t> coords = mesh.coordinatesOf(rank);
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t j = 0; j < 3; ++j) {
        int64_t gi = 3 * coords[0] + i, gj = 3 * coords[1] + j;
        bool inside = gi < 5 && gj < 7;
        covered += inside;
        EXPECT_EQ(shard.at({{"i", i}, {"j", j}}),
                  inside ? full.at({{"i", gi}, {"j", gj}}) : 0.0)
            << "rank " << rank << " at (" << i << ", " << j << ")";
      }
  }
  // The blocks tile the parameter once.
  EXPECT_EQ(covered, 5 * 7);
}

} // namespace
