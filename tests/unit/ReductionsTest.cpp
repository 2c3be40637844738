//===- ReductionsTest.cpp - Tests of reductions and normalizations --------===//

#include "reference/Reductions.h"
#include "TensorTestUtils.h"

using namespace tessel::ref;
using namespace tessel::ref::testing;

namespace {

// softmax([1, 2, 3]) and log(sum(exp([1, 2, 3] - 3))).
constexpr double softmax0 = 0.09003057317038046;
constexpr double softmax1 = 0.24472847105479764;
constexpr double softmax2 = 0.6652409557748218;
constexpr double logSumShifted = 0.4076059644443804;
constexpr double log3 = 1.0986122886681098;

Tensor matrix2x3() { return tensor({"i", "j"}, {2, 3}, {1, 2, 3, 4, 5, 6}); }

TEST(ReduceTest, AllKindsOverOneDim) {
  Tensor x = matrix2x3();
  EXPECT_TRUE(hasValues(reduce(ReductionKind::Sum, x, spec({"i"}, {2})), {"i"},
                        {2}, {6, 15}));
  EXPECT_TRUE(hasValues(reduce(ReductionKind::Sum, x, spec({"j"}, {3})), {"j"},
                        {3}, {5, 7, 9}));
  EXPECT_TRUE(hasValues(reduce(ReductionKind::Mean, x, spec({"i"}, {2})), {"i"},
                        {2}, {2, 5}));
  EXPECT_TRUE(hasValues(reduce(ReductionKind::Max, x, spec({"j"}, {3})), {"j"},
                        {3}, {4, 5, 6}));
  EXPECT_TRUE(hasValues(reduce(ReductionKind::Min, x, spec({"i"}, {2})), {"i"},
                        {2}, {1, 4}));
  EXPECT_TRUE(hasValues(reduce(ReductionKind::Prod, x, spec({"i"}, {2})), {"i"},
                        {2}, {6, 120}));
  EXPECT_TRUE(
      hasValues(reduce(ReductionKind::Sum, x, spec({}, {})), {}, {}, {21}));
}

TEST(CumsumTest, ForwardAndReverseAlongEitherDim) {
  Tensor x = matrix2x3();
  EXPECT_TRUE(hasValues(cumsum(x, "j", false), {"i", "j"}, {2, 3},
                        {1, 3, 6, 4, 9, 15}));
  EXPECT_TRUE(hasValues(cumsum(x, "j", true), {"i", "j"}, {2, 3},
                        {6, 5, 3, 15, 11, 6}));
  EXPECT_TRUE(
      hasValues(cumsum(x, "i", false), {"i", "j"}, {2, 3}, {1, 2, 3, 5, 7, 9}));
  EXPECT_TRUE(
      hasValues(cumsum(x, "i", true), {"i", "j"}, {2, 3}, {5, 7, 9, 4, 5, 6}));
}

TEST(ArgmaxTest, FirstMaximumAndNaN) {
  Tensor x = tensor({"i", "j"}, {2, 3}, {1, 3, 3, 2, NAN, NAN});
  EXPECT_TRUE(hasValues(argmax(x, "j", spec({"i"}, {2}, ElementType::I32)),
                        {"i"}, {2}, {1, 1}));
  EXPECT_TRUE(hasValues(argmax(x, "i", spec({"j"}, {3}, ElementType::I64)),
                        {"j"}, {3}, {1, 1, 1}));
  // A result that lists the other dims in another order.
  Tensor y = tensor({"i", "j", "k"}, {2, 2, 2}, {0, 5, 1, 4, 7, 2, 6, 3});
  EXPECT_TRUE(
      hasValues(argmax(y, "j", spec({"k", "i"}, {2, 2}, ElementType::I32)),
                {"k", "i"}, {2, 2}, {1, 0, 0, 1}));
}

TEST(TopKTest, LargestFirstTiesAndNaN) {
  Tensor x = tensor({"i", "j"}, {2, 4}, {1, 3, 2, 3, 2, NAN, -1, NAN});
  // Equal elements by index, NaN above everything.
  EXPECT_TRUE(hasValues(
      topK(x, "j", 3, "c", true, spec({"i", "c"}, {2, 3}, ElementType::I32)),
      {"i", "c"}, {2, 3}, {1, 3, 2, 1, 3, 0}));
  Tensor first = topK(x, "j", 3, "c", false, spec({"i", "c"}, {2, 3}));
  EXPECT_TRUE(hasValues(first, {"i", "c"}, {2, 3},
                        {3, 3, 2, first.data[3], first.data[4], 2}));
  EXPECT_TRUE(std::isnan(first.data[3]) && std::isnan(first.data[4]));
  // Along the first dim, into a result that lists the dims in another
  // order: y[i][j][k], the two largest over j of each (i, k).
  Tensor y =
      tensor({"i", "j", "k"}, {2, 3, 2}, {0, 5, 1, 4, 7, 2, 6, 3, 6, 9, 2, 9});
  EXPECT_TRUE(
      hasValues(topK(y, "j", 2, "c", false, spec({"k", "c", "i"}, {2, 2, 2})),
                {"k", "c", "i"}, {2, 2, 2}, {7, 6, 1, 6, 5, 9, 4, 9}));
  EXPECT_TRUE(
      hasValues(topK(y, "j", 2, "c", true,
                     spec({"k", "c", "i"}, {2, 2, 2}, ElementType::I64)),
                {"k", "c", "i"}, {2, 2, 2}, {2, 0, 1, 1, 0, 1, 1, 2}));
}

TEST(ReduceTest, KeptDimsInAnotherOrder) {
  // x[i][j][k] = 1 + 4i + 2j + k; summing j gives 4 + 8i + 2k.
  Tensor x = tensor({"i", "j", "k"}, {2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  EXPECT_TRUE(hasValues(reduce(ReductionKind::Sum, x, spec({"k", "i"}, {2, 2})),
                        {"k", "i"}, {2, 2}, {4, 12, 6, 14}));
}

TEST(ReduceTest, IntegerMeanIsTruncated) {
  Tensor x = tensor({"i"}, {2}, {1, 2}, ElementType::I32);
  EXPECT_TRUE(
      hasValues(reduce(ReductionKind::Mean, x, spec({}, {}, ElementType::I32)),
                {}, {}, {1}));
}

TEST(SoftmaxTest, SmallValues) {
  Tensor x = tensor({"c"}, {3}, {1, 2, 3});
  EXPECT_TRUE(
      hasValues(softmax(x, "c"), {"c"}, {3}, {softmax0, softmax1, softmax2}));
}

TEST(SoftmaxTest, LargeValuesStayFinite) {
  Tensor x = tensor({"c"}, {3}, {1000, 1001, 1002});
  EXPECT_TRUE(
      hasValues(softmax(x, "c"), {"c"}, {3}, {softmax0, softmax1, softmax2}));
  Tensor negative = tensor({"c"}, {3}, {-1000, -999, -998});
  EXPECT_TRUE(hasValues(softmax(negative, "c"), {"c"}, {3},
                        {softmax0, softmax1, softmax2}));
}

TEST(SoftmaxTest, AlongANamedLeadingDim) {
  // Column b=0 is [1, 2, 3]; column b=1 is constant, so uniform.
  Tensor x = tensor({"c", "b"}, {3, 2}, {1, 1000, 2, 1000, 3, 1000});
  EXPECT_TRUE(
      hasValues(softmax(x, "c"), {"c", "b"}, {3, 2},
                {softmax0, 1.0 / 3, softmax1, 1.0 / 3, softmax2, 1.0 / 3}));
}

TEST(SoftmaxTest, RoundsToF32) {
  Tensor x = tensor({"c"}, {2}, {0, 0}, ElementType::F32);
  Tensor y = softmax(x, "c");
  EXPECT_EQ(y.spec.type, ElementType::F32);
  EXPECT_TRUE(hasValues(y, {"c"}, {2}, {0.5, 0.5}));
}

TEST(LogSoftmaxTest, StableForLargeAndSpreadValues) {
  Tensor x = tensor({"c"}, {3}, {1000, 1001, 1002});
  EXPECT_TRUE(
      hasValues(logSoftmax(x, "c"), {"c"}, {3},
                {-2 - logSumShifted, -1 - logSumShifted, -logSumShifted}));
  // exp(-1000) underflows; a naive log(softmax) would give -inf.
  Tensor spread = tensor({"c"}, {2}, {0, -1000});
  EXPECT_TRUE(hasValues(logSoftmax(spread, "c"), {"c"}, {2}, {0, -1000}));
}

TEST(CrossEntropyTest, LossPerExample) {
  Tensor logits = tensor({"b", "c"}, {2, 3}, {1, 2, 3, 1000, 1000, 1000});
  Tensor labels = tensor({"b"}, {2}, {2, 0}, ElementType::I32);
  Tensor loss;
  std::string error;
  ASSERT_TRUE(
      softmaxCrossEntropy(logits, labels, "c", spec({"b"}, {2}), loss, error))
      << error;
  EXPECT_TRUE(hasValues(loss, {"b"}, {2}, {logSumShifted, log3}));
}

TEST(CrossEntropyTest, ClassDimFirst) {
  Tensor logits = tensor({"c", "b"}, {3, 2}, {1, 1000, 2, 1000, 3, 1000});
  Tensor labels = tensor({"b"}, {2}, {0, 1}, ElementType::I32);
  Tensor loss;
  std::string error;
  ASSERT_TRUE(
      softmaxCrossEntropy(logits, labels, "c", spec({"b"}, {2}), loss, error))
      << error;
  EXPECT_TRUE(hasValues(loss, {"b"}, {2}, {2 + logSumShifted, log3}));
}

TEST(CrossEntropyTest, OutOfRangeLabelIsReported) {
  Tensor logits = tensor({"b", "c"}, {2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor loss;
  std::string error;
  Tensor tooLarge = tensor({"b"}, {2}, {3, 0}, ElementType::I32);
  EXPECT_FALSE(softmaxCrossEntropy(logits, tooLarge, "c", spec({"b"}, {2}),
                                   loss, error));
  EXPECT_NE(error.find("label 3"), std::string::npos) << error;
  EXPECT_NE(error.find("b=0"), std::string::npos) << error;

  Tensor negative = tensor({"b"}, {2}, {0, -1}, ElementType::I32);
  EXPECT_FALSE(softmaxCrossEntropy(logits, negative, "c", spec({"b"}, {2}),
                                   loss, error));
  EXPECT_NE(error.find("label -1"), std::string::npos) << error;
  EXPECT_NE(error.find("b=1"), std::string::npos) << error;
}

TEST(LayerNormTest, OverOneDim) {
  // Row 0: mean 2.5, variance 1.25, plus epsilon 0.75 gives 2.
  Tensor x = tensor({"b", "f"}, {2, 4}, {1, 2, 3, 4, 5, 5, 5, 5});
  constexpr double outer = 1.0606601717798212, inner = 0.35355339059327373;
  EXPECT_TRUE(hasValues(layerNorm(x, {"f"}, 0.75), {"b", "f"}, {2, 4},
                        {-outer, -inner, inner, outer, 0, 0, 0, 0}));
}

TEST(LayerNormTest, OverTwoNonAdjacentDims) {
  // Values over (h, w) are [1, 3, 5, 7]: mean 4, variance 5.
  Tensor x = tensor({"h", "b", "w"}, {2, 1, 2}, {1, 3, 5, 7});
  constexpr double outer = 1.3416407864998738, inner = 0.4472135954999579;
  EXPECT_TRUE(hasValues(layerNorm(x, {"w", "h"}, 0.0), {"h", "b", "w"},
                        {2, 1, 2}, {-outer, -inner, inner, outer}));
}

} // namespace
