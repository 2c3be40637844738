//===- CollectivesTest.cpp - Tests of the simulated mesh collectives ------===//

#include "reference/Collectives.h"
#include "TensorTestUtils.h"

using namespace tessel::ref;
using namespace tessel::ref::testing;
using tessel::layout::Mesh;

namespace {

// rank = 2 * x + y.
Mesh mesh2x2() { return Mesh({"x", "y"}, {2, 2}); }
// rank = 3 * x + y.
Mesh mesh2x3() { return Mesh({"x", "y"}, {2, 3}); }

/// One shard per rank with the given dims and shape, filled by `valueOf`.
template <typename ValueOf>
PerRank shards(const Mesh &mesh, std::vector<std::string> dims,
               std::vector<int64_t> shape, ValueOf valueOf) {
  PerRank result;
  for (int64_t rank = 0; rank < mesh.numRanks(); ++rank) {
    Tensor t(spec(dims, shape));
    for (int64_t i = 0; i < t.numElements(); ++i)
      t.data[i] = valueOf(rank, i);
    result.push_back(t);
  }
  return result;
}

TEST(AllReduceTest, SumOverEitherAxisOf2x3) {
  Mesh mesh = mesh2x3();
  // Rank r holds [r, 10 r].
  PerRank in = shards(mesh, {"i"}, {2},
                      [](int64_t r, int64_t i) { return i == 0 ? r : 10 * r; });
  PerRank overY = allReduce(in, mesh, ReductionKind::Sum, {"y"});
  for (int64_t r : {0, 1, 2})
    EXPECT_TRUE(hasValues(overY[r], {"i"}, {2}, {3, 30})) << r;
  for (int64_t r : {3, 4, 5})
    EXPECT_TRUE(hasValues(overY[r], {"i"}, {2}, {12, 120})) << r;

  PerRank overX = allReduce(in, mesh, ReductionKind::Sum, {"x"});
  EXPECT_TRUE(hasValues(overX[0], {"i"}, {2}, {3, 30}));
  EXPECT_TRUE(hasValues(overX[3], {"i"}, {2}, {3, 30}));
  EXPECT_TRUE(hasValues(overX[1], {"i"}, {2}, {5, 50}));
  EXPECT_TRUE(hasValues(overX[5], {"i"}, {2}, {7, 70}));
}

TEST(AllReduceTest, MaxAndMinOn2x2) {
  Mesh mesh = mesh2x2();
  PerRank in = shards(mesh, {"i"}, {2},
                      [](int64_t r, int64_t i) { return i == 0 ? r : -r; });
  PerRank maxAll = allReduce(in, mesh, ReductionKind::Max, {"x", "y"});
  for (int64_t r = 0; r < 4; ++r)
    EXPECT_TRUE(hasValues(maxAll[r], {"i"}, {2}, {3, 0})) << r;
  PerRank minY = allReduce(in, mesh, ReductionKind::Min, {"y"});
  EXPECT_TRUE(hasValues(minY[1], {"i"}, {2}, {0, -1}));
  EXPECT_TRUE(hasValues(minY[2], {"i"}, {2}, {2, -3}));
}

TEST(AllGatherTest, ConcatenatesInGroupPositionOrder) {
  Mesh mesh = mesh2x2();
  // Rank r holds [[r, r + 0.5]] with dims (i: 1, j: 2).
  PerRank in = shards(mesh, {"i", "j"}, {1, 2},
                      [](int64_t r, int64_t j) { return r + 0.5 * j; });
  PerRank overX = allGather(in, mesh, "i", {"x"});
  EXPECT_TRUE(hasValues(overX[0], {"i", "j"}, {2, 2}, {0, 0.5, 2, 2.5}));
  EXPECT_TRUE(hasValues(overX[2], {"i", "j"}, {2, 2}, {0, 0.5, 2, 2.5}));
  EXPECT_TRUE(hasValues(overX[3], {"i", "j"}, {2, 2}, {1, 1.5, 3, 3.5}));
  // Over (y, x) the positions are 0 -> rank 0, 1 -> rank 2, 2 -> rank 1,
  // 3 -> rank 3.
  PerRank overYX = allGather(in, mesh, "j", {"y", "x"});
  for (int64_t r = 0; r < 4; ++r)
    EXPECT_TRUE(hasValues(overYX[r], {"i", "j"}, {1, 8},
                          {0, 0.5, 2, 2.5, 1, 1.5, 3, 3.5}))
        << r;
}

TEST(ReduceScatterTest, EachPositionKeepsItsChunk) {
  Mesh mesh = mesh2x3();
  // Rank r holds [r, 2r, 3r].
  PerRank in = shards(mesh, {"i"}, {3},
                      [](int64_t r, int64_t i) { return (i + 1) * r; });
  PerRank out = reduceScatter(in, mesh, ReductionKind::Sum, "i", {"y"});
  std::vector<double> expected = {3, 6, 9, 12, 24, 36};
  for (int64_t r = 0; r < 6; ++r)
    EXPECT_TRUE(hasValues(out[r], {"i"}, {1}, {expected[r]})) << r;
}

TEST(ReduceScatterTest, TwoDimShardOver2x2) {
  Mesh mesh = mesh2x2();
  // Rank r holds (j: 1, i: 2) = [[r, 1]]; group over x is {r, r + 2}.
  PerRank in = shards(mesh, {"j", "i"}, {1, 2},
                      [](int64_t r, int64_t i) { return i == 0 ? r : 1; });
  PerRank out = reduceScatter(in, mesh, ReductionKind::Sum, "i", {"x"});
  EXPECT_TRUE(hasValues(out[0], {"j", "i"}, {1, 1}, {2}));
  EXPECT_TRUE(hasValues(out[2], {"j", "i"}, {1, 1}, {2}));
  EXPECT_TRUE(hasValues(out[1], {"j", "i"}, {1, 1}, {4}));
  EXPECT_TRUE(hasValues(out[3], {"j", "i"}, {1, 1}, {2}));
}

TEST(AllToAllTest, SplitOneDimConcatAnother) {
  Mesh mesh = mesh2x2();
  // Rank r holds (i: 2, j: 1) = [10 r, 10 r + 1]; groups over x: {0, 2} and
  // {1, 3}.
  PerRank in = shards(mesh, {"i", "j"}, {2, 1},
                      [](int64_t r, int64_t i) { return 10 * r + i; });
  PerRank out = allToAll(in, mesh, "i", "j", {"x"});
  EXPECT_TRUE(hasValues(out[0], {"i", "j"}, {1, 2}, {0, 20}));
  EXPECT_TRUE(hasValues(out[2], {"i", "j"}, {1, 2}, {1, 21}));
  EXPECT_TRUE(hasValues(out[1], {"i", "j"}, {1, 2}, {10, 30}));
  EXPECT_TRUE(hasValues(out[3], {"i", "j"}, {1, 2}, {11, 31}));
}

TEST(AllToAllTest, SameSplitAndConcatDimOn2x3) {
  Mesh mesh = mesh2x3();
  // Rank r holds [100 r, 100 r + 1, 100 r + 2].
  PerRank in = shards(mesh, {"i"}, {3},
                      [](int64_t r, int64_t i) { return 100 * r + i; });
  PerRank out = allToAll(in, mesh, "i", "i", {"y"});
  EXPECT_TRUE(hasValues(out[0], {"i"}, {3}, {0, 100, 200}));
  EXPECT_TRUE(hasValues(out[1], {"i"}, {3}, {1, 101, 201}));
  EXPECT_TRUE(hasValues(out[5], {"i"}, {3}, {302, 402, 502}));
}

TEST(HaloExchangeTest, NeighboursAndEdgesOn2x3) {
  Mesh mesh = mesh2x3();
  // Rank r holds [10 r, 10 r + 1, 10 r + 2].
  PerRank in =
      shards(mesh, {"i"}, {3}, [](int64_t r, int64_t i) { return 10 * r + i; });
  PerRank out = haloExchange(in, mesh, "i", "y", /*low=*/1, /*high=*/2, -1);
  EXPECT_TRUE(hasValues(out[0], {"i"}, {6}, {-1, 0, 1, 2, 10, 11}));
  EXPECT_TRUE(hasValues(out[1], {"i"}, {6}, {2, 10, 11, 12, 20, 21}));
  EXPECT_TRUE(hasValues(out[2], {"i"}, {6}, {12, 20, 21, 22, -1, -1}));
  // The second row of the mesh does not see the first.
  EXPECT_TRUE(hasValues(out[3], {"i"}, {6}, {-1, 30, 31, 32, 40, 41}));
  EXPECT_TRUE(hasValues(out[5], {"i"}, {6}, {42, 50, 51, 52, -1, -1}));
}

TEST(HaloExchangeTest, LowOnlyAlongXOfA2DShard) {
  Mesh mesh = mesh2x2();
  // Rank r holds (j: 2, i: 2) with value 10 r + 2 j + i; the halo is on i.
  PerRank in = shards(mesh, {"j", "i"}, {2, 2},
                      [](int64_t r, int64_t flat) { return 10 * r + flat; });
  PerRank out = haloExchange(in, mesh, "i", "x", /*low=*/1, /*high=*/0, 0);
  EXPECT_TRUE(hasValues(out[1], {"j", "i"}, {2, 3}, {0, 10, 11, 0, 12, 13}));
  // Rank 3 (x = 1) gets the last column of rank 1.
  EXPECT_TRUE(hasValues(out[3], {"j", "i"}, {2, 3}, {11, 30, 31, 13, 32, 33}));
}

TEST(CollectivePermuteTest, CyclicShiftOn2x3) {
  Mesh mesh = mesh2x3();
  PerRank in =
      shards(mesh, {"i"}, {1}, [](int64_t r, int64_t) { return r + 1; });
  PerRank out = collectivePermute(in, mesh, {"y"}, {{0, 1}, {1, 2}, {2, 0}});
  std::vector<double> expected = {3, 1, 2, 6, 4, 5};
  for (int64_t r = 0; r < 6; ++r)
    EXPECT_TRUE(hasValues(out[r], {"i"}, {1}, {expected[r]})) << r;
}

TEST(CollectivePermuteTest, MembersReceivingNothingGetZeros) {
  Mesh mesh = mesh2x3();
  PerRank in =
      shards(mesh, {"i"}, {1}, [](int64_t r, int64_t) { return r + 1; });
  PerRank out = collectivePermute(in, mesh, {"y"}, {{0, 1}});
  std::vector<double> expected = {0, 1, 0, 0, 4, 0};
  for (int64_t r = 0; r < 6; ++r)
    EXPECT_TRUE(hasValues(out[r], {"i"}, {1}, {expected[r]})) << r;
}

TEST(CollectivePermuteTest, PositionsFollowListedAxisOrderOn2x2) {
  Mesh mesh = mesh2x2();
  PerRank in =
      shards(mesh, {"i"}, {1}, [](int64_t r, int64_t) { return r + 1; });
  // Over (y, x), position 1 is rank 2 and position 2 is rank 1.
  PerRank out = collectivePermute(in, mesh, {"y", "x"}, {{1, 2}, {0, 3}});
  std::vector<double> expected = {0, 3, 0, 1};
  for (int64_t r = 0; r < 4; ++r)
    EXPECT_TRUE(hasValues(out[r], {"i"}, {1}, {expected[r]})) << r;
}

TEST(ShardSliceTest, ChunkByGroupPosition) {
  Mesh mesh = mesh2x3();
  PerRank in = shards(mesh, {"i"}, {6}, [](int64_t, int64_t i) {
    return static_cast<double>(i);
  });
  PerRank xy = shardSlice(in, mesh, "i", {"x", "y"});
  for (int64_t r = 0; r < 6; ++r)
    EXPECT_TRUE(hasValues(xy[r], {"i"}, {1}, {static_cast<double>(r)})) << r;
  // Over (y, x) the position of rank (x, y) is 2 y + x.
  PerRank yx = shardSlice(in, mesh, "i", {"y", "x"});
  std::vector<double> expected = {0, 2, 4, 1, 3, 5};
  for (int64_t r = 0; r < 6; ++r)
    EXPECT_TRUE(hasValues(yx[r], {"i"}, {1}, {expected[r]})) << r;
  // Over x only, chunks are halves.
  PerRank halves = shardSlice(in, mesh, "i", {"x"});
  EXPECT_TRUE(hasValues(halves[1], {"i"}, {3}, {0, 1, 2}));
  EXPECT_TRUE(hasValues(halves[4], {"i"}, {3}, {3, 4, 5}));
}

} // namespace
