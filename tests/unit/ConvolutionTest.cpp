//===- ConvolutionTest.cpp - Tests of convolution and pooling -------------===//

#include "reference/Convolution.h"
#include "TensorTestUtils.h"

using namespace tessel::ref;
using namespace tessel::ref::testing;

namespace {

// The 3x3 image [[1, 2, 3], [4, 5, 6], [7, 8, 9]] with batch and channel 1.
Tensor image3x3() {
  return tensor({"n", "c", "h", "w"}, {1, 1, 3, 3},
                {1, 2, 3, 4, 5, 6, 7, 8, 9});
}

Tensor onesFilter(int64_t size) {
  return Tensor(spec({"c", "f", "kh", "kw"}, {1, 1, size, size}), 1.0);
}

ConvParams nchwParams() {
  ConvParams params;
  params.inputChannel = "c";
  params.outputChannel = "f";
  params.spatial = {"h", "w"};
  params.kernel = {"kh", "kw"};
  return params;
}

TensorSpec nfhw(int64_t h, int64_t w) {
  return spec({"n", "f", "h", "w"}, {1, 1, h, w});
}

TEST(ConvolutionTest, OutputSizes) {
  EXPECT_EQ(convOutputSize(5, 3, 1, 1, 0, 0), 3);
  EXPECT_EQ(convOutputSize(5, 3, 2, 1, 1, 1), 3);
  EXPECT_EQ(convOutputSize(7, 3, 1, 2, 0, 0), 3);
  EXPECT_EQ(convOutputSize(3, 3, 2, 1, 1, 1), 2);
  EXPECT_EQ(poolOutputSize(4, 2, 2, 0, 0), 2);
  EXPECT_EQ(poolOutputSize(5, 3, 2, 1, 1), 3);
}

TEST(ConvolutionTest, IsCrossCorrelationNotConvolution) {
  // The filter [[1, 0], [0, 2]] is not symmetric, so a flipped kernel would
  // give different sums.
  Tensor filter = tensor({"c", "f", "kh", "kw"}, {1, 1, 2, 2}, {1, 0, 0, 2});
  Tensor y = conv2d(image3x3(), filter, nchwParams(), nfhw(2, 2));
  EXPECT_TRUE(hasValues(y, {"n", "f", "h", "w"}, {1, 1, 2, 2},
                        {1 + 10, 2 + 12, 4 + 16, 5 + 18}));
}

TEST(ConvolutionTest, ZeroPaddingOnAllSides) {
  ConvParams params = nchwParams();
  params.padding = {1, 1, 1, 1};
  Tensor y = conv2d(image3x3(), onesFilter(3), params, nfhw(3, 3));
  EXPECT_TRUE(hasValues(y, {"n", "f", "h", "w"}, {1, 1, 3, 3},
                        {12, 21, 16, 27, 45, 33, 24, 39, 28}));
}

TEST(ConvolutionTest, StrideTwoWithPadding) {
  ConvParams params = nchwParams();
  params.padding = {1, 1, 1, 1};
  params.strides = {2, 2};
  // Windows start at -1 and 1 on both axes: the four corners.
  Tensor y = conv2d(image3x3(), onesFilter(3), params, nfhw(2, 2));
  EXPECT_TRUE(
      hasValues(y, {"n", "f", "h", "w"}, {1, 1, 2, 2}, {12, 16, 24, 28}));
}

TEST(ConvolutionTest, AsymmetricPadding) {
  ConvParams params = nchwParams();
  params.padding = {0, 1, 1, 0}; // lowH, highH, lowW, highW.
  Tensor y = conv2d(image3x3(), onesFilter(2), params, nfhw(3, 3));
  // y[oh][ow] sums rows oh..oh+1 and columns ow-1..ow.
  EXPECT_TRUE(hasValues(y, {"n", "f", "h", "w"}, {1, 1, 3, 3},
                        {5, 12, 16, 11, 24, 28, 7, 15, 17}));
}

TEST(ConvolutionTest, DilationTwo) {
  std::vector<double> values;
  for (int i = 1; i <= 25; ++i)
    values.push_back(i);
  Tensor x = tensor({"n", "c", "h", "w"}, {1, 1, 5, 5}, values);
  ConvParams params = nchwParams();
  params.dilations = {2, 2};
  // Taps at (0,0), (0,2), (2,0), (2,2): y = 4 * x[oh][ow] + 24.
  Tensor y = conv2d(x, onesFilter(2), params, nfhw(3, 3));
  EXPECT_TRUE(hasValues(y, {"n", "f", "h", "w"}, {1, 1, 3, 3},
                        {28, 32, 36, 48, 52, 56, 68, 72, 76}));
}

TEST(ConvolutionTest, DilationStrideAndPaddingTogether) {
  // Padded by 1 with dilation 2 and stride 2, the 3x3 image gives
  // (3 + 2 - 2 - 1) / 2 + 1 = 2 outputs per axis.
  ConvParams params = nchwParams();
  params.padding = {1, 1, 1, 1};
  params.dilations = {2, 2};
  params.strides = {2, 2};
  // Windows start at -1 or 1 and tap every second position, so rows and
  // columns {-1, 1} or {1, 3}: only the centre pixel x[1][1] = 5 is ever in
  // range.
  Tensor y = conv2d(image3x3(), onesFilter(2), params, nfhw(2, 2));
  EXPECT_TRUE(hasValues(y, {"n", "f", "h", "w"}, {1, 1, 2, 2}, {5, 5, 5, 5}));
}

TEST(ConvolutionTest, ChannelsBatchAndDimsInAnyOrder) {
  // x[c][n]: (c0, n0) = 1, (c0, n1) = 2, (c1, n0) = 3, (c1, n1) = 4.
  Tensor x = tensor({"c", "n", "h", "w"}, {2, 2, 1, 1}, {1, 2, 3, 4});
  // k[c][f]: (c0, f0) = 1, (c1, f0) = 10, (c0, f1) = 100, (c1, f1) = 1000.
  Tensor filter =
      tensor({"f", "kw", "c", "kh"}, {2, 1, 2, 1}, {1, 10, 100, 1000});
  Tensor y =
      conv2d(x, filter, nchwParams(), spec({"h", "f", "w", "n"}, {1, 2, 1, 2}));
  EXPECT_TRUE(
      hasValues(y, {"h", "f", "w", "n"}, {1, 2, 1, 2}, {31, 42, 3100, 4200}));
}

PoolParams poolParams(int64_t window, int64_t stride, int64_t pad) {
  PoolParams params;
  params.spatial = {"h", "w"};
  params.window = {window, window};
  params.strides = {stride, stride};
  params.padding = {pad, pad, pad, pad};
  return params;
}

TEST(PoolTest, MaxIgnoresPadding) {
  // All values are negative, so a zero from padding would win if counted.
  Tensor x = tensor({"h", "w"}, {3, 3}, {-1, -2, -3, -4, -5, -6, -7, -8, -9});
  Tensor y =
      pool(PoolKind::Max, x, poolParams(2, 2, 1), spec({"h", "w"}, {2, 2}));
  EXPECT_TRUE(hasValues(y, {"h", "w"}, {2, 2}, {-1, -2, -4, -5}));
}

TEST(PoolTest, AvgDividesByInRangePositions) {
  Tensor x = tensor({"h", "w"}, {3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  Tensor y =
      pool(PoolKind::Avg, x, poolParams(3, 1, 1), spec({"h", "w"}, {3, 3}));
  EXPECT_TRUE(
      hasValues(y, {"h", "w"}, {3, 3}, {3, 3.5, 4, 4.5, 5, 5.5, 6, 6.5, 7}));
}

TEST(PoolTest, AvgWithStrideAndNoPadding) {
  Tensor x = tensor({"h", "w"}, {4, 4},
                    {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
  Tensor y =
      pool(PoolKind::Avg, x, poolParams(2, 2, 0), spec({"h", "w"}, {2, 2}));
  EXPECT_TRUE(hasValues(y, {"h", "w"}, {2, 2}, {3.5, 5.5, 11.5, 13.5}));
}

TEST(PoolTest, PassThroughDimsInAnotherOrder) {
  Tensor x =
      tensor({"n", "h", "w"}, {2, 3, 3},
             {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20, 30, 40, 50, 60, 70, 80, 90});
  Tensor y = pool(PoolKind::Max, x, poolParams(2, 1, 0),
                  spec({"h", "w", "n"}, {2, 2, 2}));
  EXPECT_TRUE(
      hasValues(y, {"h", "w", "n"}, {2, 2, 2}, {5, 50, 6, 60, 8, 80, 9, 90}));
}

} // namespace
