//===- ContractionTest.cpp - Tests of the einsum kernel -------------------===//

#include "reference/Contraction.h"
#include "TensorTestUtils.h"

#include <cmath>

using namespace tessel::ref;
using namespace tessel::ref::testing;

namespace {

// A = [[1, 2, 3], [4, 5, 6]] (m x k), B = [[7, 8], [9, 10], [11, 12]] (k x n);
// A B = [[58, 64], [139, 154]].

TEST(EinsumTest, Matmul) {
  Tensor a = tensor({"m", "k"}, {2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor b = tensor({"k", "n"}, {3, 2}, {7, 8, 9, 10, 11, 12});
  EXPECT_TRUE(hasValues(einsum({a, b}, spec({"m", "n"}, {2, 2})), {"m", "n"},
                        {2, 2}, {58, 64, 139, 154}));
}

TEST(EinsumTest, MatmulWithTransposedOperandsAndResult) {
  Tensor aTransposed = tensor({"k", "m"}, {3, 2}, {1, 4, 2, 5, 3, 6});
  Tensor bTransposed = tensor({"n", "k"}, {2, 3}, {7, 9, 11, 8, 10, 12});
  // Operand order does not matter either.
  Tensor c = einsum({bTransposed, aTransposed}, spec({"n", "m"}, {2, 2}));
  EXPECT_TRUE(hasValues(c, {"n", "m"}, {2, 2}, {58, 139, 64, 154}));
}

TEST(EinsumTest, BatchedMatmulWithBatchInTheMiddle) {
  // a[b][m][k]: batch 0 = [[1, 2]], batch 1 = [[3, 4]].
  Tensor a = tensor({"b", "m", "k"}, {2, 1, 2}, {1, 2, 3, 4});
  // w laid out as [k][b][n]: batch 0 is the identity, batch 1 is
  // [[2, 1], [1, 2]].
  Tensor w = tensor({"k", "b", "n"}, {2, 2, 2}, {1, 0, 2, 1, 0, 1, 1, 2});
  // Batch 0: [1, 2]; batch 1: [3*2 + 4*1, 3*1 + 4*2] = [10, 11].
  Tensor c = einsum({a, w}, spec({"n", "b", "m"}, {2, 2, 1}));
  EXPECT_TRUE(hasValues(c, {"n", "b", "m"}, {2, 2, 1}, {1, 10, 2, 11}));
}

TEST(EinsumTest, SingleInputSumsAndTransposes) {
  Tensor a = tensor({"m", "k"}, {2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_TRUE(hasValues(einsum({a}, spec({}, {})), {}, {}, {21}));
  EXPECT_TRUE(hasValues(einsum({a}, spec({"k"}, {3})), {"k"}, {3}, {5, 7, 9}));
  EXPECT_TRUE(hasValues(einsum({a}, spec({"k", "m"}, {3, 2})), {"k", "m"},
                        {3, 2}, {1, 4, 2, 5, 3, 6}));
}

TEST(EinsumTest, ThreeInputsShareOneIndex) {
  Tensor x = tensor({"i"}, {2}, {1, 2});
  Tensor y = tensor({"i"}, {2}, {3, 4});
  Tensor z = tensor({"i"}, {2}, {5, 6});
  EXPECT_TRUE(hasValues(einsum({x, y, z}, spec({}, {})), {}, {}, {63}));
  // Keeping i gives the elementwise product.
  EXPECT_TRUE(
      hasValues(einsum({x, y, z}, spec({"i"}, {2})), {"i"}, {2}, {15, 48}));
}

TEST(EinsumTest, ResultDimAbsentFromInputsIsBroadcast) {
  Tensor x = tensor({"i"}, {2}, {1, 2});
  EXPECT_TRUE(hasValues(einsum({x}, spec({"r", "i"}, {2, 2})), {"r", "i"},
                        {2, 2}, {1, 2, 1, 2}));
}

TEST(EinsumTest, AccumulatesInDoubleAndRoundsOnce) {
  // In bf16 (spacing 2^-7 above 1) every partial sum 1 + 2^-9 would round
  // back to 1; the exact sum 1 + 3 * 2^-9 rounds up to 1 + 2^-7.
  double tiny = std::ldexp(1.0, -9);
  Tensor x = tensor({"i"}, {4}, {1, tiny, tiny, tiny}, ElementType::BF16);
  Tensor ones = tensor({"i"}, {4}, {1, 1, 1, 1}, ElementType::BF16);
  Tensor dot = einsum({x, ones}, spec({}, {}, ElementType::BF16));
  EXPECT_TRUE(hasValues(dot, {}, {}, {1.0078125}));
}

} // namespace
