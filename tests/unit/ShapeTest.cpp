//===- ShapeTest.cpp - Tests of data-movement and indexing kernels --------===//

#include "reference/Shape.h"
#include "TensorTestUtils.h"

using namespace tessel::ref;
using namespace tessel::ref::testing;

namespace {

TEST(RenameTest, KeepsDataAndRenamesPositionally) {
  Tensor x = tensor({"i", "j"}, {2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_TRUE(hasValues(rename(x, spec({"a", "b"}, {2, 3})), {"a", "b"}, {2, 3},
                        {1, 2, 3, 4, 5, 6}));
}

TEST(ReshapeTest, KeepsRowMajorOrder) {
  Tensor x = tensor({"i", "j"}, {2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_TRUE(hasValues(reshape(x, spec({"k", "l"}, {3, 2})), {"k", "l"},
                        {3, 2}, {1, 2, 3, 4, 5, 6}));
  EXPECT_TRUE(hasValues(reshape(x, spec({"flat"}, {6})), {"flat"}, {6},
                        {1, 2, 3, 4, 5, 6}));
}

TEST(TransposeTest, PermutesByName) {
  Tensor x = tensor({"i", "j"}, {2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_TRUE(hasValues(transpose(x, spec({"j", "i"}, {3, 2})), {"j", "i"},
                        {3, 2}, {1, 4, 2, 5, 3, 6}));
  Tensor cube = tensor({"a", "b", "c"}, {2, 1, 2}, {1, 2, 3, 4});
  EXPECT_TRUE(hasValues(transpose(cube, spec({"c", "a", "b"}, {2, 2, 1})),
                        {"c", "a", "b"}, {2, 2, 1}, {1, 3, 2, 4}));
}

// x[i][j] = 4i + j over a 3x4 grid.
Tensor grid3x4() {
  return tensor({"i", "j"}, {3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
}

TEST(SliceTest, OneDimKeepsTheOthersWhole) {
  EXPECT_TRUE(hasValues(slice(grid3x4(), {"j"}, {1}, spec({"i", "j"}, {3, 2})),
                        {"i", "j"}, {3, 2}, {1, 2, 5, 6, 9, 10}));
}

TEST(SliceTest, TwoDimsListedInAnotherOrder) {
  EXPECT_TRUE(
      hasValues(slice(grid3x4(), {"j", "i"}, {2, 1}, spec({"i", "j"}, {2, 2})),
                {"i", "j"}, {2, 2}, {6, 7, 10, 11}));
}

TEST(ConcatTest, AlongTheLeadingDim) {
  Tensor a = tensor({"i", "j"}, {1, 2}, {1, 2});
  Tensor b = tensor({"i", "j"}, {2, 2}, {3, 4, 5, 6});
  EXPECT_TRUE(hasValues(concat({a, b}, "i", spec({"i", "j"}, {3, 2})),
                        {"i", "j"}, {3, 2}, {1, 2, 3, 4, 5, 6}));
}

TEST(ConcatTest, AlongTheTrailingDimWithATransposedOperand) {
  Tensor a = tensor({"i", "j"}, {2, 1}, {1, 2});
  Tensor b = tensor({"i", "j"}, {2, 2}, {3, 4, 5, 6});
  Tensor bTransposed = tensor({"j", "i"}, {2, 2}, {3, 5, 4, 6});
  TensorSpec result = spec({"i", "j"}, {2, 3});
  EXPECT_TRUE(hasValues(concat({a, b}, "j", result), {"i", "j"}, {2, 3},
                        {1, 3, 4, 2, 5, 6}));
  EXPECT_TRUE(hasValues(concat({a, bTransposed}, "j", result), {"i", "j"},
                        {2, 3}, {1, 3, 4, 2, 5, 6}));
}

TEST(PadTest, OneDim) {
  Tensor x = tensor({"i", "j"}, {2, 2}, {1, 2, 3, 4});
  EXPECT_TRUE(hasValues(pad(x, {"j"}, {1}, {2}, 0, spec({"i", "j"}, {2, 5})),
                        {"i", "j"}, {2, 5}, {0, 1, 2, 0, 0, 0, 3, 4, 0, 0}));
}

TEST(PadTest, TwoDimsWithAValue) {
  Tensor x = tensor({"i", "j"}, {2, 2}, {1, 2, 3, 4});
  EXPECT_TRUE(hasValues(
      pad(x, {"i", "j"}, {1, 0}, {0, 1}, -1, spec({"i", "j"}, {3, 3})),
      {"i", "j"}, {3, 3}, {-1, -1, -1, 1, 2, -1, 3, 4, -1}));
}

TEST(CastTest, TruncatesAndTests) {
  Tensor x = tensor({"i"}, {4}, {1.7, -1.7, 0, 0.1});
  Tensor asInt = cast(x, ElementType::I32);
  EXPECT_EQ(asInt.spec.type, ElementType::I32);
  EXPECT_TRUE(hasValues(asInt, {"i"}, {4}, {1, -1, 0, 0}));
  EXPECT_TRUE(hasValues(cast(x, ElementType::I1), {"i"}, {4}, {1, 1, 0, 1}));
  EXPECT_TRUE(hasValues(cast(x, ElementType::F16), {"i"}, {4},
                        {1.7001953125, -1.7001953125, 0, 0.0999755859375}));
}

TEST(GatherTest, LooksUpRowsById) {
  Tensor table = tensor({"v", "d"}, {3, 2}, {1, 2, 3, 4, 5, 6});
  Tensor ids = tensor({"b", "s"}, {2, 2}, {2, 0, 1, 2}, ElementType::I32);
  Tensor out;
  std::string error;
  ASSERT_TRUE(
      gather(table, ids, "v", spec({"b", "s", "d"}, {2, 2, 2}), out, error))
      << error;
  EXPECT_TRUE(
      hasValues(out, {"b", "s", "d"}, {2, 2, 2}, {5, 6, 1, 2, 3, 4, 5, 6}));
}

TEST(GatherTest, TransposedTableAndResultOrder) {
  Tensor table = tensor({"d", "v"}, {2, 3}, {1, 3, 5, 2, 4, 6});
  Tensor ids = tensor({"b", "s"}, {2, 2}, {2, 0, 1, 2}, ElementType::I32);
  Tensor out;
  std::string error;
  ASSERT_TRUE(
      gather(table, ids, "v", spec({"d", "b", "s"}, {2, 2, 2}), out, error))
      << error;
  EXPECT_TRUE(
      hasValues(out, {"d", "b", "s"}, {2, 2, 2}, {5, 1, 3, 5, 6, 2, 4, 6}));
}

TEST(GatherTest, OutOfRangeIdIsReported) {
  Tensor table = tensor({"v", "d"}, {3, 2}, {1, 2, 3, 4, 5, 6});
  Tensor out;
  std::string error;
  Tensor tooLarge = tensor({"s"}, {2}, {0, 3}, ElementType::I32);
  EXPECT_FALSE(
      gather(table, tooLarge, "v", spec({"s", "d"}, {2, 2}), out, error));
  EXPECT_NE(error.find("id 3"), std::string::npos) << error;
  EXPECT_NE(error.find("s=1"), std::string::npos) << error;
  Tensor negative = tensor({"s"}, {2}, {-2, 0}, ElementType::I32);
  EXPECT_FALSE(
      gather(table, negative, "v", spec({"s", "d"}, {2, 2}), out, error));
  EXPECT_NE(error.find("id -2"), std::string::npos) << error;
  EXPECT_NE(error.find("s=0"), std::string::npos) << error;
}

TEST(OneHotTest, DefaultValues) {
  Tensor ids = tensor({"b"}, {3}, {0, 2, 5}, ElementType::I32);
  EXPECT_TRUE(hasValues(oneHot(ids, "c", spec({"b", "c"}, {3, 3})), {"b", "c"},
                        {3, 3}, {1, 0, 0, 0, 0, 1, 0, 0, 0}));
}

TEST(OneHotTest, CustomValuesAndNewDimFirst) {
  Tensor ids = tensor({"b"}, {3}, {0, 2, 1}, ElementType::I32);
  EXPECT_TRUE(hasValues(oneHot(ids, "c", spec({"c", "b"}, {3, 3}), 5, -1),
                        {"c", "b"}, {3, 3}, {5, -1, -1, -1, -1, 5, -1, 5, -1}));
}

TEST(IotaTest, CountsAlongTheNamedDim) {
  EXPECT_TRUE(hasValues(iota(spec({"i", "j"}, {2, 3}), "j"), {"i", "j"}, {2, 3},
                        {0, 1, 2, 0, 1, 2}));
  EXPECT_TRUE(hasValues(iota(spec({"i", "j"}, {2, 3}), "i"), {"i", "j"}, {2, 3},
                        {0, 0, 0, 1, 1, 1}));
}

} // namespace
