//===- ReshapeSplitsTest.cpp - which splits a reshape carries over --------===//

#include "layouts/Reshape.h"

#include <gtest/gtest.h>

using namespace tessel::layout;
using Sizes = std::vector<int64_t>;

namespace {

/// Returns the groups as {inputBegin, inputEnd, resultBegin, resultEnd}
/// rows, for comparing with EXPECT_EQ.
std::vector<Sizes> groupsOf(const Sizes &from, const Sizes &to) {
  std::optional<std::vector<ReshapeGroup>> groups = reshapeGroups(from, to);
  std::vector<Sizes> rows;
  if (!groups)
    return rows;
  for (const ReshapeGroup &g : *groups)
    rows.push_back({static_cast<int64_t>(g.inputBegin),
                    static_cast<int64_t>(g.inputEnd),
                    static_cast<int64_t>(g.resultBegin),
                    static_cast<int64_t>(g.resultEnd)});
  return rows;
}

TEST(ReshapeSplitsTest, GroupsAreTheSmallestRunsHoldingTheSameElements) {
  // Splitting hidden into heads and head_dim, the batch carried over.
  EXPECT_EQ(groupsOf({4, 512}, {4, 8, 64}),
            (std::vector<Sizes>{{0, 1, 0, 1}, {1, 2, 1, 3}}));
  // Merging them back.
  EXPECT_EQ(groupsOf({4, 8, 64}, {4, 512}),
            (std::vector<Sizes>{{0, 1, 0, 1}, {1, 3, 1, 2}}));
  // Neither side a single dimension: [2, 3] and [6] hold the same elements
  // as [6], then [4] as [2, 2].
  EXPECT_EQ(groupsOf({2, 3, 4}, {6, 2, 2}),
            (std::vector<Sizes>{{0, 2, 0, 1}, {2, 3, 1, 3}}));
  EXPECT_EQ(groupsOf({6, 4}, {4, 6}), (std::vector<Sizes>{{0, 2, 0, 2}}));
}

TEST(ReshapeSplitsTest, DimensionsOfSizeOneJoinTheNextGroupOrTrailAlone) {
  EXPECT_EQ(groupsOf({4, 1, 8}, {4, 8}),
            (std::vector<Sizes>{{0, 1, 0, 1}, {1, 3, 1, 2}}));
  EXPECT_EQ(groupsOf({4, 1}, {4}),
            (std::vector<Sizes>{{0, 1, 0, 1}, {1, 2, 1, 1}}));
  EXPECT_EQ(groupsOf({}, {1}), (std::vector<Sizes>{{0, 0, 0, 1}}));
  EXPECT_EQ(groupsOf({}, {}), (std::vector<Sizes>{}));
}

TEST(ReshapeSplitsTest, GroupsNeedEqualCountsAndPositiveSizes) {
  EXPECT_FALSE(reshapeGroups({4, 4}, {15}));
  EXPECT_FALSE(reshapeGroups({0, 4}, {0}));
  EXPECT_FALSE(reshapeGroups({-2, 2}, {4}));
  // Element counts past int64_t are refused, not compared after wrapping
  // (2^64 wraps to 0 on both sides; the groups' walk then ran past the
  // ends of the shapes).
  int64_t big = int64_t(1) << 32;
  EXPECT_FALSE(reshapeGroups({big, big}, {big * 2, big / 2}));
  EXPECT_FALSE(splitSourceOfReshape({big, big}, {big * 2, big / 2}, 0, 2));
}

TEST(ReshapeSplitsTest, ACarriedOverDimensionKeepsItsSplitEvenWhenItPads) {
  // batch:4 over 2 stays with the batch.
  EXPECT_EQ(splitSourceOfReshape({4, 512}, {4, 8, 64}, 0, 2), 0u);
  // A dimension of 10 over 3 pads its blocks to 4 on both sides alike.
  EXPECT_EQ(splitSourceOfReshape({10, 6}, {10, 2, 3}, 0, 3), 0u);
  // Leading dimensions of size 1 do not move the elements.
  EXPECT_EQ(splitSourceOfReshape({1, 10}, {10}, 0, 3), 1u);
}

TEST(ReshapeSplitsTest, AMergedOrSplitDimensionKeepsTheSplitOfItsMajorPart) {
  // hidden:512 -> [heads:8, head_dim:64] over 4: hidden's blocks of 128 are
  // heads' blocks of 2.
  EXPECT_EQ(splitSourceOfReshape({4, 512}, {4, 8, 64}, 1, 4), 1u);
  // [heads:8, head_dim:64] -> hidden:512: heads' split moves to hidden.
  EXPECT_EQ(splitSourceOfReshape({4, 8, 64}, {4, 512}, 1, 4), 1u);
  // Neither side one dimension: [6, 4] -> [4, 6] over 2: rows 0-2 of the
  // first are rows 0-1 of the second.
  EXPECT_EQ(splitSourceOfReshape({6, 4}, {4, 6}, 0, 2), 0u);
}

TEST(ReshapeSplitsTest, OtherSplitsNeedTheGroupMoved) {
  // The minor part of a split dimension.
  EXPECT_EQ(splitSourceOfReshape({4, 512}, {4, 8, 64}, 2, 4), std::nullopt);
  // A merge whose blocks would cut rows of the minor part: [a:2, b:8] ->
  // [c:16] over 4.
  EXPECT_EQ(splitSourceOfReshape({2, 8}, {16}, 0, 4), std::nullopt);
  // A split that pads on one side only: [a:6, b:4] -> [c:24] over 4 gives
  // a blocks of 2 rows (8 elements) but c blocks of 6.
  EXPECT_EQ(splitSourceOfReshape({6, 4}, {24}, 0, 4), std::nullopt);
  // [6, 4] -> [4, 6] over 4: 6 does not divide.
  EXPECT_EQ(splitSourceOfReshape({6, 4}, {4, 6}, 0, 4), std::nullopt);
  // A result dimension of size 1 is nobody's major part.
  EXPECT_EQ(splitSourceOfReshape({4}, {1, 4}, 0, 2), std::nullopt);
  EXPECT_EQ(splitSourceOfReshape({4}, {1, 4}, 1, 2), 0u);
  // Out of range, or no reshape at all.
  EXPECT_EQ(splitSourceOfReshape({4}, {4}, 1, 2), std::nullopt);
  EXPECT_EQ(splitSourceOfReshape({4}, {5}, 0, 2), std::nullopt);
}

} // namespace
