//===- TensorTest.cpp - Tests of tensors, element types and rounding ------===//

#include "reference/Tensor.h"
#include "TensorTestUtils.h"

#include <cmath>
#include <limits>

using namespace tessel::ref;
using namespace tessel::ref::testing;

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

TEST(RoundingTest, F32RoundsToNearestFloat) {
  EXPECT_EQ(roundToType(0.1, ElementType::F32), 0.100000001490116119384765625);
  EXPECT_EQ(roundToType(0.1, ElementType::F64), 0.1);
  EXPECT_EQ(roundToType(1e39, ElementType::F32), inf);
}

TEST(RoundingTest, F16RoundsToNearestEven) {
  EXPECT_EQ(roundToType(0.1, ElementType::F16), 0.0999755859375);
  // 1 + 2^-11 lies halfway between 1 and 1 + 2^-10: ties go to even (1).
  EXPECT_EQ(roundToType(1.0 + std::ldexp(1.0, -11), ElementType::F16), 1.0);
  // 1 + 3 * 2^-11 lies halfway between 1 + 2^-10 and 1 + 2^-9 (even).
  EXPECT_EQ(roundToType(1.0 + 3 * std::ldexp(1.0, -11), ElementType::F16),
            1.001953125);
  EXPECT_EQ(roundToType(65519.0, ElementType::F16), 65504.0);
  EXPECT_EQ(roundToType(65520.0, ElementType::F16), inf);
  // Subnormals: 2^-25 is half the smallest subnormal and ties to 0.
  EXPECT_EQ(roundToType(std::ldexp(1.0, -25), ElementType::F16), 0.0);
  EXPECT_EQ(roundToType(1.5 * std::ldexp(1.0, -25), ElementType::F16),
            std::ldexp(1.0, -24));
}

TEST(RoundingTest, BF16RoundsTheF32BitPattern) {
  EXPECT_EQ(roundToType(3.14159, ElementType::BF16), 3.140625);
  // Halfway between 1 and 1 + 2^-7: ties go to even (1).
  EXPECT_EQ(roundToType(1.0 + std::ldexp(1.0, -8), ElementType::BF16), 1.0);
  EXPECT_EQ(roundToType(1.0 + 3 * std::ldexp(1.0, -8), ElementType::BF16),
            1.015625);
  // Just above the tie in double, but f32 rounding comes first and lands
  // exactly on the tie, which then goes to even.
  EXPECT_EQ(roundToType(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -30),
                        ElementType::BF16),
            1.0);
  EXPECT_EQ(roundToType(-2.0 - 3 * std::ldexp(1.0, -7), ElementType::BF16),
            -2.03125);
  EXPECT_TRUE(std::isnan(roundToType(std::nan(""), ElementType::BF16)));
  EXPECT_EQ(roundToType(1e39, ElementType::BF16), inf);
  // The largest bf16 is 0x1.FEp127 (about 3.3895e38); values from halfway
  // to 2^128 (about 3.3961e38) up round to infinity.
  EXPECT_EQ(roundToType(3.39e38, ElementType::BF16), 0x1.FEp127);
  EXPECT_EQ(roundToType(3.397e38, ElementType::BF16), inf);
}

TEST(RoundingTest, IntegersTruncateAndWrap) {
  EXPECT_EQ(roundToType(3.7, ElementType::I32), 3.0);
  EXPECT_EQ(roundToType(-3.7, ElementType::I32), -3.0);
  EXPECT_EQ(roundToType(2147483648.0, ElementType::I32), -2147483648.0);
  EXPECT_EQ(roundToType(4294967297.0, ElementType::I32), 1.0);
  EXPECT_EQ(roundToType(-2147483649.0, ElementType::I32), 2147483647.0);
  EXPECT_EQ(roundToType(std::nan(""), ElementType::I32), 0.0);
  EXPECT_EQ(roundToType(-2.5, ElementType::I64), -2.0);
  EXPECT_EQ(roundToType(1e30, ElementType::I64), 9223372036854774784.0);
  EXPECT_EQ(roundToType(0.5, ElementType::I1), 1.0);
  EXPECT_EQ(roundToType(-2.0, ElementType::I1), 1.0);
  EXPECT_EQ(roundToType(0.0, ElementType::I1), 0.0);
}

TEST(ElementTypeTest, NamesRoundTrip) {
  EXPECT_STREQ(elementTypeName(ElementType::BF16), "bf16");
  EXPECT_EQ(parseElementType("i32"), ElementType::I32);
  EXPECT_FALSE(parseElementType("f8").has_value());
  EXPECT_TRUE(isFloatType(ElementType::F16));
  EXPECT_TRUE(isIntegerType(ElementType::I1));
}

TEST(TensorTest, ConstructorsRoundValues) {
  Tensor halves = tensor({"i"}, {2}, {0.1, 1.0}, ElementType::F16);
  EXPECT_EQ(halves.data[0], 0.0999755859375);
  Tensor filled(spec({"i", "j"}, {2, 2}, ElementType::I32), 2.9);
  EXPECT_EQ(filled.data, (std::vector<double>{2, 2, 2, 2}));
  Tensor scalar = tensor({}, {}, {7});
  EXPECT_EQ(scalar.numElements(), 1);
  EXPECT_EQ(scalar.at(std::vector<int64_t>{}), 7.0);
}

TEST(TensorTest, NamedIndexingIgnoresArgumentOrder) {
  Tensor t = tensor({"i", "j"}, {2, 3}, {0, 1, 2, 3, 4, 5});
  EXPECT_EQ(t.at({{"j", 2}, {"i", 1}}), 5.0);
  EXPECT_EQ(t.at({{"i", 0}, {"j", 1}}), 1.0);
  EXPECT_EQ(t.at(std::vector<int64_t>{1, 0}), 3.0);
  EXPECT_EQ(t.dimIndex("j"), 1);
  EXPECT_EQ(t.dimIndex("k"), -1);
  EXPECT_EQ(t.dimSize("j"), 3);
}

TEST(TensorTest, IndexIteration) {
  std::vector<std::vector<int64_t>> visited;
  forEachIndex({2, 2}, [&](const std::vector<int64_t> &index) {
    visited.push_back(index);
  });
  EXPECT_EQ(visited, (std::vector<std::vector<int64_t>>{
                         {0, 0}, {0, 1}, {1, 0}, {1, 1}}));
  int scalarVisits = 0;
  forEachIndex({}, [&](const std::vector<int64_t> &) { ++scalarVisits; });
  EXPECT_EQ(scalarVisits, 1);
  int emptyVisits = 0;
  forEachIndex({3, 0}, [&](const std::vector<int64_t> &) { ++emptyVisits; });
  EXPECT_EQ(emptyVisits, 0);
  EXPECT_EQ(rowMajorStrides({2, 3, 4}), (std::vector<int64_t>{12, 4, 1}));
}

TEST(TensorTest, NamedIndexMapMatchesDimsByName) {
  // Driver (j, i, k) over an operand laid out as (i, j); k is broadcast.
  NamedIndexMap map({"j", "i", "k"}, {3, 2, 5}, spec({"i", "j"}, {2, 3}));
  EXPECT_EQ(map.offset({2, 1, 4}), 1 * 3 + 2);
  EXPECT_EQ(map.offset({0, 1, 0}), 3);
  EXPECT_EQ(map.offset({1, 0, 3}), 1);
}

TEST(TensorTest, DescribeIndexForErrors) {
  EXPECT_EQ(describeIndex(spec({"b", "t"}, {2, 2}), {1, 0}), "(b=1, t=0)");
}

} // namespace
