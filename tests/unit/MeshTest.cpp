//===- MeshTest.cpp - Tests of the logical device mesh --------------------===//

#include "layouts/Mesh.h"

#include <gtest/gtest.h>

using tessel::layout::Mesh;
using tessel::layout::validateMesh;
using Ranks = std::vector<int64_t>;

namespace {

// A 2x3 mesh: rank = 3 * x + y.
Mesh mesh2x3() { return Mesh({"x", "y"}, {2, 3}); }

TEST(MeshTest, RanksAreRowMajorWithLastAxisFastest) {
  Mesh mesh = mesh2x3();
  EXPECT_EQ(mesh.numRanks(), 6);
  EXPECT_EQ(mesh.coordinatesOf(0), (Ranks{0, 0}));
  EXPECT_EQ(mesh.coordinatesOf(1), (Ranks{0, 1}));
  EXPECT_EQ(mesh.coordinatesOf(4), (Ranks{1, 1}));
  EXPECT_EQ(mesh.coordinatesOf(5), (Ranks{1, 2}));
  EXPECT_EQ(mesh.rankAt({1, 2}), 5);
  EXPECT_EQ(mesh.rankAt({1, 0}), 3);
  for (int64_t rank = 0; rank < mesh.numRanks(); ++rank)
    EXPECT_EQ(mesh.rankAt(mesh.coordinatesOf(rank)), rank);
}

TEST(MeshTest, AxisLookup) {
  Mesh mesh = mesh2x3();
  EXPECT_EQ(mesh.axisIndex("y"), 1u);
  EXPECT_FALSE(mesh.axisIndex("z").has_value());
  EXPECT_EQ(mesh.axisSize("x"), 2);
  EXPECT_EQ(mesh.axisSize("y"), 3);
}

TEST(MeshTest, ZeroDimensionalMeshHasOneRank) {
  Mesh mesh({}, {});
  EXPECT_EQ(mesh.numRanks(), 1);
  EXPECT_TRUE(mesh.coordinatesOf(0).empty());
  EXPECT_EQ(mesh.groups({}), (std::vector<Ranks>{{0}}));
}

TEST(MeshTest, GroupSize) {
  Mesh mesh = mesh2x3();
  EXPECT_EQ(mesh.groupSize({}), 1);
  EXPECT_EQ(mesh.groupSize({"y"}), 3);
  EXPECT_EQ(mesh.groupSize({"y", "x"}), 6);
}

TEST(MeshTest, PositionFollowsTheListedAxisOrder) {
  Mesh mesh = mesh2x3();
  // Rank 4 is at (x=1, y=1); rank 5 at (x=1, y=2).
  EXPECT_EQ(mesh.positionInGroup(4, {"y"}), 1);
  EXPECT_EQ(mesh.positionInGroup(4, {"x"}), 1);
  EXPECT_EQ(mesh.positionInGroup(5, {"x", "y"}), 1 * 3 + 2);
  EXPECT_EQ(mesh.positionInGroup(5, {"y", "x"}), 2 * 2 + 1);
  EXPECT_EQ(mesh.positionInGroup(5, {}), 0);
}

TEST(MeshTest, GroupOfOrdersMembersByPosition) {
  Mesh mesh = mesh2x3();
  EXPECT_EQ(mesh.groupOf(4, {"x"}), (Ranks{1, 4}));
  EXPECT_EQ(mesh.groupOf(4, {"y"}), (Ranks{3, 4, 5}));
  EXPECT_EQ(mesh.groupOf(2, {"x", "y"}), (Ranks{0, 1, 2, 3, 4, 5}));
  // With y listed first, x varies fastest.
  EXPECT_EQ(mesh.groupOf(2, {"y", "x"}), (Ranks{0, 3, 1, 4, 2, 5}));
  EXPECT_EQ(mesh.groupOf(3, {}), (Ranks{3}));
  for (int64_t rank = 0; rank < 6; ++rank) {
    Ranks group = mesh.groupOf(rank, {"y", "x"});
    EXPECT_EQ(group[mesh.positionInGroup(rank, {"y", "x"})], rank);
  }
}

TEST(MeshTest, GroupsPartitionTheMesh) {
  Mesh mesh = mesh2x3();
  EXPECT_EQ(mesh.groups({"x"}), (std::vector<Ranks>{{0, 3}, {1, 4}, {2, 5}}));
  EXPECT_EQ(mesh.groups({"y"}), (std::vector<Ranks>{{0, 1, 2}, {3, 4, 5}}));
  EXPECT_EQ(mesh.groups({}),
            (std::vector<Ranks>{{0}, {1}, {2}, {3}, {4}, {5}}));
}

TEST(MeshTest, GroupsOverNonAdjacentAxesOfA3DMesh) {
  // rank = 4 * a + 2 * b + c.
  Mesh mesh({"a", "b", "c"}, {2, 2, 2});
  EXPECT_EQ(mesh.groups({"a", "c"}),
            (std::vector<Ranks>{{0, 1, 4, 5}, {2, 3, 6, 7}}));
  EXPECT_EQ(mesh.groupOf(7, {"c", "a"}), (Ranks{2, 6, 3, 7}));
  EXPECT_EQ(mesh.positionInGroup(6, {"c", "a"}), 1);
}

TEST(MeshTest, ValidationNamesTheBadAxis) {
  std::string error;
  EXPECT_TRUE(validateMesh({"x", "y"}, {2, 1}, error));
  EXPECT_TRUE(validateMesh({}, {}, error));

  EXPECT_FALSE(validateMesh({"x", "x"}, {2, 2}, error));
  EXPECT_NE(error.find("'x'"), std::string::npos) << error;

  EXPECT_FALSE(validateMesh({"x", "data"}, {2, 0}, error));
  EXPECT_NE(error.find("'data'"), std::string::npos) << error;

  EXPECT_FALSE(validateMesh({"x", ""}, {2, 2}, error));
  EXPECT_NE(error.find("#1"), std::string::npos) << error;

  EXPECT_FALSE(validateMesh({"x"}, {2, 2}, error));
}

// A mesh's rank count is a product of its sizes in int64_t: past 2^31
// ranks (and long before the product could wrap, as 2^32 x 2^32 would, to
// 0 ranks) the mesh is refused, naming it (issue 24, overflow).
TEST(MeshTest, MeshesOfMoreThan2To31RanksAreRefused) {
  std::string error;
  EXPECT_TRUE(validateMesh({"a", "b"}, {65536, 32768}, error)) << error;
  EXPECT_FALSE(validateMesh({"a", "b"}, {65536, 65536}, error));
  EXPECT_EQ(error, "the mesh a:65536;b:65536 has more than 2147483648 ranks");
  int64_t huge = int64_t(1) << 32;
  EXPECT_FALSE(Mesh::create({"a", "b"}, {huge, huge}, error).has_value());
  EXPECT_NE(error.find("has more than 2147483648 ranks"), std::string::npos)
      << error;
  EXPECT_FALSE(
      Mesh::create({"a", "b", "c"}, {3, INT64_MAX / 2, 5}, error).has_value());
}

TEST(MeshTest, CreateRejectsInvalidInput) {
  std::string error;
  EXPECT_FALSE(Mesh::create({"x"}, {-1}, error).has_value());
  EXPECT_NE(error.find("'x'"), std::string::npos) << error;
  std::optional<Mesh> mesh = Mesh::create({"x"}, {4}, error);
  ASSERT_TRUE(mesh.has_value());
  EXPECT_EQ(mesh->numRanks(), 4);
}

} // namespace
