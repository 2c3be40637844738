//===- ShardingTest.cpp - layout maths of one tensor on a mesh ------------===//

#include "layouts/Sharding.h"

#include <gtest/gtest.h>

#include <map>

using namespace tessel::layout;

namespace {

Mesh mesh2x4() { return Mesh({"data", "model"}, {2, 4}); }

TensorLayout matrix(AxisList rowAxes, AxisList columnAxes) {
  return {{"batch", "hidden"}, {8, 16}, {rowAxes, columnAxes}};
}

TEST(ShardingTest, LocalShapesOfDataModelHybridAndMultiAxisLayouts) {
  Mesh mesh = mesh2x4();
  EXPECT_EQ(localShape(mesh, matrix({"data"}, {})),
            (std::vector<int64_t>{4, 16}));
  EXPECT_EQ(localShape(mesh, matrix({}, {"model"})),
            (std::vector<int64_t>{8, 4}));
  EXPECT_EQ(localShape(mesh, matrix({"data"}, {"model"})),
            (std::vector<int64_t>{4, 4}));
  EXPECT_EQ(localShape(mesh, matrix({"data", "model"}, {})),
            (std::vector<int64_t>{1, 16}));
  EXPECT_EQ(splitCount(mesh, {"model", "data"}), 8);
  EXPECT_EQ(splitCount(mesh, {}), 1);
}

TEST(ShardingTest, OffsetsFollowRowMajorRanksAndListedAxisOrder) {
  Mesh mesh = mesh2x4();
  // Rank 6 sits at (data 1, model 2).
  EXPECT_EQ(shardOffset(mesh, matrix({"data"}, {"model"}), 6),
            (std::vector<int64_t>{4, 8}));
  // batch over [data, model]: block index 1 * 4 + 2 = 6, one row each.
  EXPECT_EQ(shardOffset(mesh, matrix({"data", "model"}, {}), 6),
            (std::vector<int64_t>{6, 0}));
  // batch over [model, data]: block index 2 * 2 + 1 = 5.
  EXPECT_EQ(shardOffset(mesh, matrix({"model", "data"}, {}), 6),
            (std::vector<int64_t>{5, 0}));
}

// Every element of the global tensor is held by exactly as many ranks as
// there are copies of each block.
TEST(ShardingTest, BlocksTileTheTensorOncePerReplica) {
  Mesh mesh = mesh2x4();
  for (const TensorLayout &layout :
       {matrix({"data"}, {}), matrix({}, {"model"}),
        matrix({"data"}, {"model"}), matrix({"model", "data"}, {}),
        matrix({}, {})}) {
    std::vector<int64_t> local = localShape(mesh, layout);
    std::map<std::pair<int64_t, int64_t>, int> holders;
    for (int64_t rank = 0; rank < mesh.numRanks(); ++rank) {
      std::vector<int64_t> offset = shardOffset(mesh, layout, rank);
      for (int64_t i = 0; i < local[0]; ++i)
        for (int64_t j = 0; j < local[1]; ++j)
          ++holders[{offset[0] + i, offset[1] + j}];
    }
    int copies = static_cast<int>(replicaGroup(mesh, layout, 0).size());
    EXPECT_EQ(holders.size(), 8u * 16u);
    for (const auto &[element, count] : holders)
      EXPECT_EQ(count, copies);
  }
}

TEST(ShardingTest, ReplicaGroupsSpanTheUnusedAxes) {
  Mesh mesh = mesh2x4();
  EXPECT_EQ(replicaGroup(mesh, matrix({"data"}, {}), 5),
            (std::vector<int64_t>{4, 5, 6, 7}));
  EXPECT_EQ(replicaGroup(mesh, matrix({}, {"model"}), 5),
            (std::vector<int64_t>{1, 5}));
  EXPECT_EQ(replicaGroup(mesh, matrix({"data"}, {"model"}), 5),
            (std::vector<int64_t>{5}));
}

TEST(ShardingTest, BytesPerRankCountTheLocalBlock) {
  Mesh mesh = mesh2x4();
  EXPECT_EQ(bytesPerRank(mesh, matrix({"data"}, {"model"}), 4), 4 * 4 * 4);
  EXPECT_EQ(bytesPerRank(mesh, matrix({}, {}), 2), 8 * 16 * 2);
}

TEST(ShardingTest, IllegalLayoutsNameTheDimensionAndAxis) {
  Mesh mesh = mesh2x4();
  std::string error;
  EXPECT_TRUE(checkLayout(mesh, matrix({"data"}, {"model"}), error));
  EXPECT_FALSE(checkLayout(mesh, matrix({"model"}, {"model"}), error));
  EXPECT_EQ(error, "mesh axis 'model' splits both 'batch' and 'hidden'");
  EXPECT_FALSE(checkLayout(mesh, matrix({"data", "data"}, {}), error));
  EXPECT_EQ(error, "mesh axis 'data' splits dimension 'batch' twice");
  EXPECT_FALSE(checkLayout(mesh, matrix({"pipe"}, {}), error));
  EXPECT_EQ(error, "dimension 'batch' is split over 'pipe', which is not an "
                   "axis of the mesh");
  TensorLayout uneven = {{"hidden"}, {10}, {{"model"}}};
  EXPECT_FALSE(checkLayout(mesh, uneven, error));
  EXPECT_EQ(error, "dimension 'hidden' of size 10 does not divide over "
                   "'model' (4 blocks)");
}

} // namespace
