//===- ElementwiseTest.cpp - Tests of the elementwise kernels -------------===//

#include "reference/Elementwise.h"
#include "TensorTestUtils.h"

#include <cmath>

using namespace tessel::ref;
using namespace tessel::ref::testing;

namespace {

Tensor vector3(double a, double b, double c) {
  return tensor({"i"}, {3}, {a, b, c});
}

TEST(UnaryTest, SimpleKinds) {
  Tensor x = vector3(-1, 0, 2);
  EXPECT_TRUE(hasValues(unary(UnaryKind::Neg, x), {"i"}, {3}, {1, 0, -2}));
  EXPECT_TRUE(hasValues(unary(UnaryKind::Relu, x), {"i"}, {3}, {0, 0, 2}));
  EXPECT_TRUE(hasValues(unary(UnaryKind::Abs, x), {"i"}, {3}, {1, 0, 2}));
  EXPECT_TRUE(hasValues(unary(UnaryKind::Sqrt, vector3(4, 2.25, 0)), {"i"}, {3},
                        {2, 1.5, 0}));
  EXPECT_TRUE(hasValues(unary(UnaryKind::Rsqrt, vector3(4, 0.25, 1)), {"i"},
                        {3}, {0.5, 2, 1}));
}

TEST(UnaryTest, TranscendentalKinds) {
  EXPECT_TRUE(hasValues(unary(UnaryKind::Exp, vector3(0, 1, -1)), {"i"}, {3},
                        {1, 2.718281828459045, 0.36787944117144233}));
  EXPECT_TRUE(hasValues(unary(UnaryKind::Log, vector3(1, 2.718281828459045, 0)),
                        {"i"}, {3}, {0, 1, -INFINITY}, 1e-15));
  EXPECT_TRUE(hasValues(unary(UnaryKind::Tanh, vector3(0, 1, -1)), {"i"}, {3},
                        {0, 0.7615941559557649, -0.7615941559557649}));
  EXPECT_TRUE(hasValues(unary(UnaryKind::Sigmoid, vector3(0, 2, -2)), {"i"},
                        {3},
                        {0.5, 0.8807970779778823, 1 - 0.8807970779778823}));
  EXPECT_TRUE(hasValues(unary(UnaryKind::Gelu, vector3(0, 1, -1)), {"i"}, {3},
                        {0, 0.8413447460685429, -0.15865525393145707}));
}

TEST(UnaryTest, ResultIsRoundedToTheType) {
  Tensor x = tensor({"i"}, {1}, {1}, ElementType::F32);
  Tensor y = unary(UnaryKind::Exp, x);
  EXPECT_EQ(y.spec.type, ElementType::F32);
  EXPECT_EQ(y.data[0], 2.7182817459106445);
}

TEST(BinaryTest, BroadcastsByNameIntoTheResultOrder) {
  Tensor a = tensor({"i", "j"}, {2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor b = tensor({"j"}, {3}, {10, 20, 30});
  Tensor sum = binary(BinaryKind::Add, a, b, spec({"j", "i"}, {3, 2}));
  EXPECT_TRUE(hasValues(sum, {"j", "i"}, {3, 2}, {11, 14, 22, 25, 33, 36}));
}

TEST(BinaryTest, OperandsWithOppositeDimOrders) {
  Tensor a = tensor({"i", "j"}, {2, 2}, {1, 2, 3, 4});
  // b[j][i]: b(i=0, j=1) = 30, b(i=1, j=0) = 20.
  Tensor b = tensor({"j", "i"}, {2, 2}, {10, 20, 30, 40});
  Tensor difference = binary(BinaryKind::Sub, a, b, spec({"i", "j"}, {2, 2}));
  EXPECT_TRUE(hasValues(difference, {"i", "j"}, {2, 2}, {-9, -28, -17, -36}));
}

TEST(BinaryTest, OuterProductOfDisjointDims) {
  Tensor a = tensor({"i"}, {2}, {1, 2});
  Tensor b = tensor({"j"}, {3}, {3, 4, 5});
  EXPECT_TRUE(hasValues(binary(BinaryKind::Mul, a, b, spec({"i", "j"}, {2, 3})),
                        {"i", "j"}, {2, 3}, {3, 4, 5, 6, 8, 10}));
}

TEST(BinaryTest, DivMaxMinPow) {
  Tensor a = tensor({"i"}, {2}, {7, 9});
  Tensor b = tensor({"i"}, {2}, {2, 0.5});
  TensorSpec s = spec({"i"}, {2});
  EXPECT_TRUE(
      hasValues(binary(BinaryKind::Div, a, b, s), {"i"}, {2}, {3.5, 18}));
  EXPECT_TRUE(hasValues(binary(BinaryKind::Max, a, b, s), {"i"}, {2}, {7, 9}));
  EXPECT_TRUE(
      hasValues(binary(BinaryKind::Min, a, b, s), {"i"}, {2}, {2, 0.5}));
  EXPECT_TRUE(hasValues(binary(BinaryKind::Pow, a, b, s), {"i"}, {2}, {49, 3}));
  Tensor withNaN = tensor({"i"}, {2}, {NAN, 1});
  EXPECT_TRUE(
      hasValues(binary(BinaryKind::Max, withNaN, b, s), {"i"}, {2}, {NAN, 1}));
}

TEST(BinaryTest, IntegerDivisionTruncatesTowardZero) {
  Tensor a = tensor({"i"}, {4}, {7, -7, 7, 5}, ElementType::I32);
  Tensor b = tensor({"i"}, {4}, {2, 2, -2, 0}, ElementType::I32);
  Tensor q = binary(BinaryKind::Div, a, b, spec({"i"}, {4}, ElementType::I32));
  EXPECT_TRUE(hasValues(q, {"i"}, {4}, {3, -3, -3, 0}));
}

TEST(BinaryTest, ResultIsRoundedOnce) {
  Tensor a = tensor({"i"}, {2}, {1, 1}, ElementType::F16);
  Tensor b = tensor({"i"}, {2}, {std::ldexp(1.0, -11), std::ldexp(3.0, -11)},
                    ElementType::F16);
  Tensor sum =
      binary(BinaryKind::Add, a, b, spec({"i"}, {2}, ElementType::F16));
  EXPECT_TRUE(hasValues(sum, {"i"}, {2}, {1, 1.001953125}));
}

TEST(CompareTest, AllKindsAgainstABroadcastScalar) {
  Tensor a = vector3(1, 2, 3);
  Tensor two = tensor({}, {}, {2});
  TensorSpec s = spec({"i"}, {3});
  Tensor lt = compare(CompareKind::Lt, a, two, s);
  EXPECT_EQ(lt.spec.type, ElementType::I1);
  EXPECT_TRUE(hasValues(lt, {"i"}, {3}, {1, 0, 0}));
  EXPECT_TRUE(
      hasValues(compare(CompareKind::Le, a, two, s), {"i"}, {3}, {1, 1, 0}));
  EXPECT_TRUE(
      hasValues(compare(CompareKind::Eq, a, two, s), {"i"}, {3}, {0, 1, 0}));
  EXPECT_TRUE(
      hasValues(compare(CompareKind::Ne, a, two, s), {"i"}, {3}, {1, 0, 1}));
  EXPECT_TRUE(
      hasValues(compare(CompareKind::Gt, a, two, s), {"i"}, {3}, {0, 0, 1}));
  EXPECT_TRUE(
      hasValues(compare(CompareKind::Ge, a, two, s), {"i"}, {3}, {0, 1, 1}));
}

TEST(CompareTest, BroadcastsByName) {
  Tensor rows = tensor({"i"}, {2}, {1, 2});
  Tensor columns = tensor({"j"}, {3}, {0, 1, 2});
  // result(j, i) = rows[i] > columns[j].
  Tensor greater =
      compare(CompareKind::Gt, rows, columns, spec({"j", "i"}, {3, 2}));
  EXPECT_TRUE(hasValues(greater, {"j", "i"}, {3, 2}, {1, 1, 0, 1, 0, 0}));
}

TEST(SelectTest, BroadcastsAllThreeOperands) {
  Tensor cond = tensor({"i"}, {2}, {1, 0}, ElementType::I1);
  Tensor a = tensor({"i", "j"}, {2, 2}, {1, 2, 3, 4});
  Tensor b = tensor({}, {}, {-1});
  Tensor chosen = select(cond, a, b, spec({"j", "i"}, {2, 2}));
  EXPECT_TRUE(hasValues(chosen, {"j", "i"}, {2, 2}, {1, -1, 2, -1}));
}

} // namespace
