//===- ShardingTest.cpp - layout maths of one tensor on a mesh ------------===//

#include "layouts/Sharding.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>

using namespace tessel::layout;
using Sizes = std::vector<int64_t>;

namespace {

// A 2x4 mesh: rank = 4 * data + model.
Mesh mesh2x4() { return Mesh({"data", "model"}, {2, 4}); }

TensorLayout matrix(AxisList rowAxes, AxisList columnAxes) {
  return {{"batch", "hidden"}, {8, 16}, {rowAxes, columnAxes}};
}

TensorLayout cube(AxisList batchAxes, AxisList seqAxes, AxisList hiddenAxes) {
  return {
      {"batch", "seq", "hidden"}, {4, 8, 16}, {batchAxes, seqAxes, hiddenAxes}};
}

TEST(ShardingTest, LocalShapesOfDataModelHybridAndMultiAxisLayouts) {
  Mesh mesh = mesh2x4();
  EXPECT_EQ(localShape(mesh, matrix({}, {})), (Sizes{8, 16}));
  EXPECT_EQ(localShape(mesh, matrix({"data"}, {})), (Sizes{4, 16}));
  EXPECT_EQ(localShape(mesh, matrix({}, {"model"})), (Sizes{8, 4}));
  EXPECT_EQ(localShape(mesh, matrix({"data"}, {"model"})), (Sizes{4, 4}));
  EXPECT_EQ(localShape(mesh, matrix({"data", "model"}, {})), (Sizes{1, 16}));
  EXPECT_EQ(localShape(mesh, matrix({}, {"model", "data"})), (Sizes{8, 2}));
  EXPECT_EQ(splitCount(mesh, {"model", "data"}), 8);
  EXPECT_EQ(splitCount(mesh, {"model"}), 4);
  EXPECT_EQ(splitCount(mesh, {}), 1);
}

TEST(ShardingTest, OffsetsFollowRowMajorRanksAndListedAxisOrder) {
  Mesh mesh = mesh2x4();
  // Rank 6 sits at (data 1, model 2).
  EXPECT_EQ(shardOffset(mesh, matrix({}, {}), 6), (Sizes{0, 0}));
  EXPECT_EQ(shardOffset(mesh, matrix({"data"}, {}), 6), (Sizes{4, 0}));
  EXPECT_EQ(shardOffset(mesh, matrix({}, {"model"}), 6), (Sizes{0, 8}));
  EXPECT_EQ(shardOffset(mesh, matrix({"data"}, {"model"}), 6), (Sizes{4, 8}));
  // batch over [data, model]: block index 1 * 4 + 2 = 6, one row each.
  EXPECT_EQ(shardOffset(mesh, matrix({"data", "model"}, {}), 6), (Sizes{6, 0}));
  // batch over [model, data]: block index 2 * 2 + 1 = 5.
  EXPECT_EQ(shardOffset(mesh, matrix({"model", "data"}, {}), 6), (Sizes{5, 0}));
  // hidden over [model, data] in blocks of 2 columns.
  EXPECT_EQ(shardOffset(mesh, cube({}, {}, {"model", "data"}), 6),
            (Sizes{0, 0, 10}));
}

/// Counts, for every element of the global tensor, how many ranks hold it.
std::map<Sizes, int> holdersPerElement(const Mesh &mesh,
                                       const TensorLayout &layout) {
  Sizes local = localShape(mesh, layout);
  std::map<Sizes, int> holders;
  for (int64_t rank = 0; rank < mesh.numRanks(); ++rank) {
    Sizes offset = shardOffset(mesh, layout, rank);
    // Walk the block's elements as an odometer over its local shape.
    Sizes index(local.size(), 0);
    bool empty = std::find(local.begin(), local.end(), 0) != local.end();
    while (!empty) {
      Sizes element(local.size());
      for (size_t i = 0; i < local.size(); ++i)
        element[i] = offset[i] + index[i];
      ++holders[element];
      size_t dim = local.size();
      while (dim > 0 && ++index[dim - 1] == local[dim - 1])
        index[--dim] = 0;
      if (dim == 0)
        break;
    }
  }
  return holders;
}

// Every element of the global tensor is held by exactly as many ranks as
// there are copies of each block, and those ranks are one replica group.
TEST(ShardingTest, BlocksTileTheTensorOncePerReplica) {
  Mesh mesh = mesh2x4();
  const TensorLayout layouts[] = {
      matrix({}, {}),
      matrix({"data"}, {}),
      matrix({}, {"model"}),
      matrix({"data"}, {"model"}),
      matrix({"model"}, {"data"}),
      matrix({"data", "model"}, {}),
      matrix({"model", "data"}, {}),
      cube({"data"}, {}, {"model"}),
      cube({}, {"model", "data"}, {}),
      cube({"model"}, {}, {}),
  };
  for (const TensorLayout &layout : layouts) {
    std::string error;
    ASSERT_TRUE(checkLayout(mesh, layout, error)) << error;
    int64_t elements = 1;
    for (int64_t size : layout.shape)
      elements *= size;
    std::map<Sizes, int> holders = holdersPerElement(mesh, layout);
    int64_t copies = static_cast<int64_t>(replicaGroup(mesh, layout, 0).size());
    EXPECT_EQ(static_cast<int64_t>(holders.size()), elements);
    for (const auto &[element, count] : holders)
      EXPECT_EQ(count, copies);
    // The blocks together hold each element once per copy.
    EXPECT_EQ(mesh.numRanks() * bytesPerRank(mesh, layout, 1).value(),
              elements * copies);
    // Replicas hold the same block.
    for (int64_t rank = 0; rank < mesh.numRanks(); ++rank)
      for (int64_t replica : replicaGroup(mesh, layout, rank))
        EXPECT_EQ(shardOffset(mesh, layout, replica),
                  shardOffset(mesh, layout, rank));
  }
}

TEST(ShardingTest, ReplicaGroupsSpanTheUnusedAxes) {
  Mesh mesh = mesh2x4();
  EXPECT_EQ(replicaGroup(mesh, matrix({}, {}), 5),
            (Sizes{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(replicaGroup(mesh, matrix({"data"}, {}), 5), (Sizes{4, 5, 6, 7}));
  EXPECT_EQ(replicaGroup(mesh, matrix({}, {"model"}), 5), (Sizes{1, 5}));
  EXPECT_EQ(replicaGroup(mesh, matrix({"data"}, {"model"}), 5), (Sizes{5}));
  EXPECT_EQ(replicaGroup(mesh, matrix({"model", "data"}, {}), 5), (Sizes{5}));
  EXPECT_EQ(replicaGroup(mesh, cube({}, {"model"}, {}), 2), (Sizes{2, 6}));
}

TEST(ShardingTest, BytesPerRankCountTheLocalBlock) {
  Mesh mesh = mesh2x4();
  EXPECT_EQ(bytesPerRank(mesh, matrix({}, {}), 2), 8 * 16 * 2);
  EXPECT_EQ(bytesPerRank(mesh, matrix({"data"}, {}), 4), 4 * 16 * 4);
  EXPECT_EQ(bytesPerRank(mesh, matrix({"data"}, {"model"}), 4), 4 * 4 * 4);
  EXPECT_EQ(bytesPerRank(mesh, matrix({"data", "model"}, {}), 8), 1 * 16 * 8);
  EXPECT_EQ(bytesPerRank(mesh, cube({"data"}, {}, {"model"}), 4),
            2 * 8 * 4 * 4);
}

// A block whose bytes pass int64_t is no count at all, not a wrapped one
// (issue 24, overflow).
TEST(ShardingTest, BytesPerRankPastInt64AreNone) {
  Mesh mesh = mesh2x4();
  int64_t big = int64_t(1) << 31;
  TensorLayout huge = {{"a", "b"}, {big, big}, {{}, {}}};
  EXPECT_EQ(bytesPerRank(mesh, huge, 1), big * big);
  EXPECT_FALSE(bytesPerRank(mesh, huge, 4).has_value());
  huge.shape = {big * 4, big * 2};
  EXPECT_FALSE(bytesPerRank(mesh, huge, 1).has_value());
  // Split over both axes, the same tensor's block fits.
  huge.axes = {{"data"}, {"model"}};
  EXPECT_EQ(bytesPerRank(mesh, huge, 1), big * big);
}

TEST(ShardingTest, BlocksOfTheLargestDimensionDoNotOverflow) {
  // ceil((2^63 - 1) / 4) is 2^61; computed as (size + 3) / 4 it passed
  // int64_t (found by ModelFuzzer under UBSan, in tessel-partition).
  int64_t largest = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(blockSize(largest, 4), int64_t(1) << 61);
  EXPECT_EQ(blockSize(largest, 1), largest);
  EXPECT_EQ(blockSize(largest, 2), (int64_t(1) << 62));
  EXPECT_EQ(blockSize(9, 4), 3);
  EXPECT_EQ(blockSize(8, 4), 2);
  EXPECT_EQ(blockSize(0, 4), 0);
  TensorLayout vector = {{"n"}, {largest}, {{"model"}}};
  EXPECT_EQ(localShape(mesh2x4(), vector), (Sizes{int64_t(1) << 61}));
}

TEST(ShardingTest, IllegalLayoutsNameTheDimensionAndAxis) {
  Mesh mesh = mesh2x4();
  std::string error;
  EXPECT_TRUE(checkLayout(mesh, matrix({"data"}, {"model"}), error));
  EXPECT_TRUE(checkLayout(mesh, matrix({"model", "data"}, {}), error));

  EXPECT_FALSE(checkLayout(mesh, matrix({"model"}, {"model"}), error));
  EXPECT_EQ(error, "mesh axis 'model' splits both 'batch' and 'hidden'");
  EXPECT_FALSE(checkLayout(mesh, matrix({"data", "model"}, {"model"}), error));
  EXPECT_EQ(error, "mesh axis 'model' splits both 'batch' and 'hidden'");
  EXPECT_FALSE(checkLayout(mesh, matrix({"data", "data"}, {}), error));
  EXPECT_EQ(error, "mesh axis 'data' splits dimension 'batch' twice");
  EXPECT_FALSE(checkLayout(mesh, matrix({}, {"pipe"}), error));
  EXPECT_EQ(error, "dimension 'hidden' is split over 'pipe', which is not an "
                   "axis of the mesh");

  TensorLayout uneven = {{"hidden"}, {10}, {{"model"}}};
  EXPECT_FALSE(checkLayout(mesh, uneven, error));
  EXPECT_EQ(error, "dimension 'hidden' of size 10 does not divide over "
                   "'model' (4 blocks)");
  TensorLayout unevenOverTwo = {{"d_ff"}, {12}, {{"data", "model"}}};
  EXPECT_FALSE(checkLayout(mesh, unevenOverTwo, error));
  EXPECT_EQ(error, "dimension 'd_ff' of size 12 does not divide over "
                   "'data', 'model' (8 blocks)");

  TensorLayout negative = {{"batch"}, {-4}, {{}}};
  EXPECT_FALSE(checkLayout(mesh, negative, error));
  EXPECT_EQ(error, "dimension 'batch' has size -4; sizes must be >= 0");
  TensorLayout ragged = {{"batch", "hidden"}, {8}, {{}, {}}};
  EXPECT_FALSE(checkLayout(mesh, ragged, error));
  EXPECT_EQ(error, "tensor layout has 2 dimension names, 1 sizes and 2 axis "
                   "lists");
}

} // namespace
