//===- FastKernelsTest.cpp - oneDNN fast paths against the reference ------===//
//
// Each case builds an op's oneDNN kernel the way the executor does (the
// Fast*.h builders), checks that the fast path was taken (or, for shapes it
// must leave to the reference kernel, that it was not), runs it on
// pseudo-random inputs and compares every element with the reference
// kernel of reference/, which defines the op. The shapes cover
// padding, strides, dilation, odd sizes, dims in unusual orders, several
// pass-through dims, every kind of broadcasting and max-pooling ties.
//
//===----------------------------------------------------------------------===//

#include "reference/Kernels.h"
#include "executor/Buffers.h"
#include "executor/Context.h"
#include "executor/FastConvolution.h"
#include "executor/FastCopy.h"
#include "executor/FastCrossEntropy.h"
#include "executor/FastEinsum.h"
#include "executor/FastElementwise.h"
#include "executor/FastGather.h"
#include "executor/FastKernel.h"
#include "executor/FastOneHot.h"
#include "executor/FastNormalization.h"
#include "executor/FastPooling.h"
#include "executor/FastReduction.h"
#include "executor/FastReorder.h"
#include "executor/FastSoftmax.h"
#include "executor/TypedElementwise.h"
#include "executor/VectorMath.h"
#include "tessel/runtime/kernels.h"

#include <gtest/gtest.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <random>

using namespace tessel;
using namespace tessel::runtime;

/// Why the bf16 tests of the fast kernels skip on CPUs without AVX-512.
constexpr const char *kNoBf16Kernels =
    "oneDNN has no bf16 kernels on this CPU (no AVX-512); the builders "
    "decline bf16 and the reference kernels run it";

namespace {

/// A context with the oneDNN kernels and no communicator.
tessel_context_t &context() {
  static tessel_context_t *shared = [] {
    auto *made = new tessel_context_t;
    EXPECT_EQ(tessel_kernels_create(&made->kernels), TESSEL_STATUS_OK);
    return made;
  }();
  return *shared;
}

TensorType tensor(std::vector<std::string> dims, std::vector<int64_t> shape,
                  ref::ElementType type = ref::ElementType::F32) {
  return {std::move(dims), std::move(shape), type};
}

OpDescriptor op(std::vector<TensorType> operands, TensorType result) {
  OpDescriptor desc;
  desc.op = "test";
  desc.loc = "test.mlir:1:1";
  desc.operands = std::move(operands);
  desc.result = std::move(result);
  return desc;
}

/// A kernel that must not run: the fast path has a context with oneDNN.
Kernel unreachable() {
  return [](tessel_context_t &, void *const *, void *) {
    ADD_FAILURE() << "the fallback ran in a context with oneDNN";
  };
}

/// How operand values are drawn.
enum class Values {
  Signed,   // uniform in [-1, 1]
  Positive, // uniform in [0.5, 2]
  Ties,     // from {0, 1, 2}: many equal maxima
  Large,    // uniform in [-30, 30]
};

/// An operand's buffer, filled by `values` and rounded to its type.
struct Buffer {
  TensorType type;
  std::vector<unsigned char> bytes;

  Buffer(const TensorType &t, Values values, unsigned seed) : type(t) {
    bytes.resize(t.numBytes() + 1);
    std::mt19937 generator(seed);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    for (int64_t i = 0; i < t.numElements(); ++i) {
      double u = uniform(generator);
      double value = values == Values::Signed     ? 2 * u - 1
                     : values == Values::Positive ? 0.5 + 1.5 * u
                     : values == Values::Ties     ? std::floor(3 * u)
                                                  : 60 * u - 30;
      storeElement(t.type, bytes.data(), i, value);
    }
  }
  explicit Buffer(const TensorType &t) : type(t), bytes(t.numBytes() + 1) {}

  ref::Tensor load() const { return loadTensor(type, bytes.data()); }
  double at(int64_t i) const { return loadElement(type.type, bytes.data(), i); }
};

/// Runs `kernel` on `operands` and compares its result, element by element,
/// with `expected` (stored in the result's type and dim order first):
/// |got - expected| <= tolerance * (1 + |expected|).
void expectMatches(const Kernel &kernel, std::vector<Buffer> &operands,
                   const TensorType &resultType, const ref::Tensor &expected,
                   double tolerance) {
  std::vector<void *> pointers;
  for (Buffer &operand : operands)
    pointers.push_back(operand.bytes.data());
  Buffer got(resultType), want(resultType);
  kernel(context(), pointers.data(), got.bytes.data());
  storeTensor(expected, resultType, want.bytes.data());
  int mismatches = 0;
  for (int64_t i = 0; i < resultType.numElements(); ++i) {
    double g = got.at(i), w = want.at(i);
    bool close = std::fabs(g - w) <= tolerance * (1 + std::fabs(w)) ||
                 (std::isinf(w) && g == w) || (std::isnan(w) && std::isnan(g));
    if (!close && ++mismatches <= 5)
      ADD_FAILURE() << "element " << i << " of " << resultType.str() << ": got "
                    << g << ", the reference gives " << w;
  }
  EXPECT_EQ(mismatches, 0);
}

double toleranceFor(ref::ElementType type) {
  return type == ref::ElementType::BF16 ? 2e-2 : 2e-5;
}

//===----------------------------------------------------------------------===//
// Convolution
//===----------------------------------------------------------------------===//

struct ConvCase {
  std::vector<std::string> xDims, filterDims, yDims;
  std::map<std::string, int64_t> sizes; // Of every dim but the outputs'.
  ref::ConvParams params;
  ref::ElementType type = ref::ElementType::F32;
};

TensorType typeOf(const std::vector<std::string> &dims,
                  const std::map<std::string, int64_t> &sizes,
                  ref::ElementType type) {
  std::vector<int64_t> shape;
  for (const std::string &dim : dims)
    shape.push_back(sizes.at(dim));
  return tensor(dims, shape, type);
}

/// The sizes of the result's spatial dims, which the convolution decides.
std::map<std::string, int64_t> withOutputSizes(const ConvCase &c) {
  std::map<std::string, int64_t> x = c.sizes, y = c.sizes;
  for (int s = 0; s < 2; ++s)
    y[c.params.spatial[s]] = ref::convOutputSize(
        x.at(c.params.spatial[s]), x.at(c.params.kernel[s]),
        c.params.strides[s], c.params.dilations[s], c.params.padding[2 * s],
        c.params.padding[2 * s + 1]);
  return y;
}

/// Runs conv2d and both of its gradients on oneDNN and on the reference.
void checkConvolution(const ConvCase &c) {
  TensorType x = typeOf(c.xDims, c.sizes, c.type);
  TensorType filter = typeOf(c.filterDims, c.sizes, c.type);
  TensorType y = typeOf(c.yDims, withOutputSizes(c), c.type);
  double tolerance = toleranceFor(c.type);
  {
    SCOPED_TRACE("conv2d");
    OpDescriptor desc = op({x, filter}, y);
    std::optional<Kernel> fast = buildFastConvolution(
        ConvolutionOp::Forward, desc, c.params, unreachable());
    ASSERT_TRUE(fast) << "conv2d did not take the oneDNN path";
    std::vector<Buffer> in = {Buffer(x, Values::Signed, 1),
                              Buffer(filter, Values::Signed, 2)};
    expectMatches(*fast, in, y,
                  ref::conv2d(in[0].load(), in[1].load(), c.params, y.spec()),
                  tolerance);
  }
  {
    SCOPED_TRACE("conv2d_backward_input");
    OpDescriptor desc = op({y, filter}, x);
    std::optional<Kernel> fast = buildFastConvolution(
        ConvolutionOp::BackwardInput, desc, c.params, unreachable());
    ASSERT_TRUE(fast) << "conv2d_backward_input did not take the oneDNN path";
    std::vector<Buffer> in = {Buffer(y, Values::Signed, 3),
                              Buffer(filter, Values::Signed, 4)};
    expectMatches(*fast, in, x,
                  ref::conv2dBackwardInput(in[0].load(), in[1].load(), c.params,
                                           x.spec()),
                  tolerance);
  }
  {
    SCOPED_TRACE("conv2d_backward_filter");
    OpDescriptor desc = op({x, y}, filter);
    std::optional<Kernel> fast = buildFastConvolution(
        ConvolutionOp::BackwardFilter, desc, c.params, unreachable());
    ASSERT_TRUE(fast) << "conv2d_backward_filter did not take the oneDNN path";
    std::vector<Buffer> in = {Buffer(x, Values::Signed, 5),
                              Buffer(y, Values::Signed, 6)};
    expectMatches(*fast, in, filter,
                  ref::conv2dBackwardFilter(in[0].load(), in[1].load(),
                                            c.params, filter.spec()),
                  tolerance);
  }
}

ref::ConvParams convParams(std::array<int64_t, 2> strides = {1, 1},
                           std::array<int64_t, 2> dilations = {1, 1},
                           std::array<int64_t, 4> padding = {0, 0, 0, 0}) {
  ref::ConvParams params;
  params.inputChannel = "c";
  params.outputChannel = "f";
  params.spatial = {"h", "w"};
  params.kernel = {"kh", "kw"};
  params.strides = strides;
  params.dilations = dilations;
  params.padding = padding;
  return params;
}

TEST(FastConvolution, SamePaddingAsInTheCnn) {
  checkConvolution({{"batch", "c", "h", "w"},
                    {"c", "f", "kh", "kw"},
                    {"batch", "f", "h", "w"},
                    {{"batch", 2},
                     {"c", 3},
                     {"f", 4},
                     {"h", 7},
                     {"w", 6},
                     {"kh", 3},
                     {"kw", 3}},
                    convParams({1, 1}, {1, 1}, {1, 1, 1, 1})});
}

TEST(FastConvolution, StridesDilationsUnevenPaddingOddSizes) {
  checkConvolution({{"batch", "c", "h", "w"},
                    {"c", "f", "kh", "kw"},
                    {"batch", "f", "h", "w"},
                    {{"batch", 3},
                     {"c", 5},
                     {"f", 7},
                     {"h", 11},
                     {"w", 9},
                     {"kh", 3},
                     {"kw", 2}},
                    convParams({2, 3}, {2, 1}, {0, 2, 1, 0})});
}

TEST(FastConvolution, DimsInUnusualOrders) {
  // Channels last in x, the filter's dims shuffled, the result's too.
  checkConvolution({{"h", "batch", "w", "c"},
                    {"kw", "f", "kh", "c"},
                    {"w", "f", "batch", "h"},
                    {{"batch", 2},
                     {"c", 3},
                     {"f", 5},
                     {"h", 8},
                     {"w", 7},
                     {"kh", 3},
                     {"kw", 3}},
                    convParams({2, 1}, {1, 2}, {1, 1, 2, 0})});
}

TEST(FastConvolution, SeveralPassThroughDimsMergeIntoTheBatch) {
  checkConvolution({{"batch", "time", "c", "h", "w"},
                    {"c", "f", "kh", "kw"},
                    {"batch", "time", "f", "h", "w"},
                    {{"batch", 2},
                     {"time", 3},
                     {"c", 2},
                     {"f", 3},
                     {"h", 5},
                     {"w", 6},
                     {"kh", 2},
                     {"kw", 3}},
                    convParams({1, 2}, {1, 1}, {1, 0, 0, 1})});
}

TEST(FastConvolution, KernelAsLargeAsThePaddedInput) {
  checkConvolution({{"batch", "c", "h", "w"},
                    {"c", "f", "kh", "kw"},
                    {"batch", "f", "h", "w"},
                    {{"batch", 1},
                     {"c", 1},
                     {"f", 2},
                     {"h", 3},
                     {"w", 4},
                     {"kh", 5},
                     {"kw", 4}},
                    convParams({1, 1}, {1, 1}, {1, 1, 0, 0})});
}

TEST(FastConvolution, Bf16) {
  if (!kernelsComputeBf16())
    GTEST_SKIP() << kNoBf16Kernels;
  checkConvolution({{"batch", "c", "h", "w"},
                    {"c", "f", "kh", "kw"},
                    {"batch", "f", "h", "w"},
                    {{"batch", 2},
                     {"c", 4},
                     {"f", 8},
                     {"h", 6},
                     {"w", 6},
                     {"kh", 3},
                     {"kw", 3}},
                    convParams({1, 1}, {1, 1}, {1, 1, 1, 1}),
                    ref::ElementType::BF16});
}

TEST(FastConvolution, LeavesTheRestToTheReference) {
  ref::ConvParams params = convParams();
  std::map<std::string, int64_t> sizes = {{"batch", 2}, {"time", 2}, {"c", 2},
                                          {"f", 2},     {"h", 4},    {"w", 4},
                                          {"kh", 3},    {"kw", 3}};
  ConvCase c{{}, {"c", "f", "kh", "kw"}, {}, sizes, params};
  auto declines = [&](std::vector<std::string> xDims,
                      std::vector<std::string> yDims, ref::ElementType type) {
    TensorType x = typeOf(xDims, sizes, type);
    TensorType filter = typeOf(c.filterDims, sizes, type);
    c.xDims = xDims;
    TensorType y = typeOf(yDims, withOutputSizes(c), type);
    return !buildFastConvolution(ConvolutionOp::Forward, op({x, filter}, y),
                                 params, unreachable());
  };
  // batch and time are not one run of memory in x.
  EXPECT_TRUE(declines({"batch", "c", "time", "h", "w"},
                       {"batch", "time", "f", "h", "w"},
                       ref::ElementType::F32));
  // Nor in the result, which holds them in the other order.
  EXPECT_TRUE(declines({"batch", "time", "c", "h", "w"},
                       {"time", "batch", "f", "h", "w"},
                       ref::ElementType::F32));
  EXPECT_TRUE(declines({"batch", "c", "h", "w"}, {"batch", "f", "h", "w"},
                       ref::ElementType::F64));
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

struct PoolCase {
  ref::PoolKind kind;
  std::vector<std::string> dims;
  std::map<std::string, int64_t> sizes;
  ref::PoolParams params;
  Values values = Values::Signed;
  ref::ElementType type = ref::ElementType::F32;
};

ref::PoolParams poolParams(std::array<int64_t, 2> window,
                           std::array<int64_t, 2> strides,
                           std::array<int64_t, 4> padding = {0, 0, 0, 0}) {
  ref::PoolParams params;
  params.spatial = {"h", "w"};
  params.window = window;
  params.strides = strides;
  params.padding = padding;
  return params;
}

std::map<std::string, int64_t> pooledSizes(const PoolCase &c) {
  std::map<std::string, int64_t> y = c.sizes;
  for (int s = 0; s < 2; ++s)
    y[c.params.spatial[s]] =
        ref::poolOutputSize(c.sizes.at(c.params.spatial[s]), c.params.window[s],
                            c.params.strides[s], c.params.padding[2 * s],
                            c.params.padding[2 * s + 1]);
  return y;
}

/// Runs pool and pool_backward on oneDNN and on the reference.
void checkPooling(const PoolCase &c) {
  TensorType x = typeOf(c.dims, c.sizes, c.type);
  TensorType y = typeOf(c.dims, pooledSizes(c), c.type);
  double tolerance = toleranceFor(c.type);
  {
    SCOPED_TRACE("pool");
    std::optional<Kernel> fast =
        buildFastPool(c.kind, op({x}, y), c.params, unreachable());
    ASSERT_TRUE(fast) << "pool did not take the oneDNN path";
    std::vector<Buffer> in = {Buffer(x, c.values, 7)};
    expectMatches(*fast, in, y,
                  ref::pool(c.kind, in[0].load(), c.params, y.spec()),
                  tolerance);
  }
  {
    SCOPED_TRACE("pool_backward");
    std::optional<Kernel> fast =
        buildFastPoolBackward(c.kind, op({x, y}, x), c.params, unreachable());
    ASSERT_TRUE(fast) << "pool_backward did not take the oneDNN path";
    std::vector<Buffer> in = {Buffer(x, c.values, 8),
                              Buffer(y, Values::Signed, 9)};
    expectMatches(
        *fast, in, x,
        ref::poolBackward(c.kind, in[0].load(), in[1].load(), c.params),
        tolerance);
  }
}

TEST(FastPooling, MaxTwoByTwoAsInTheCnn) {
  checkPooling({ref::PoolKind::Max,
                {"batch", "f", "h", "w"},
                {{"batch", 2}, {"f", 3}, {"h", 6}, {"w", 6}},
                poolParams({2, 2}, {2, 2})});
}

TEST(FastPooling, FewChannelsPoolAsOneRunOfImages) {
  // Three channels or fewer after the batch pool as one run of batch x
  // channel planes; more stay [N, C]; a layout where they do not lie
  // contiguously keeps two runs.
  auto dimsOf = [](std::vector<std::string> dims, int64_t channels) {
    std::map<std::string, int64_t> sizes = {
        {"batch", 4}, {"f", channels}, {"h", 8}, {"w", 6}};
    std::map<std::string, int64_t> pooled = sizes;
    pooled["h"] = 4;
    pooled["w"] = 3;
    return fastPoolingDims(typeOf(dims, sizes, ref::ElementType::F32),
                           typeOf(dims, pooled, ref::ElementType::F32),
                           poolParams({2, 2}, {2, 2}));
  };
  using Dims = std::optional<std::array<int64_t, 4>>;
  EXPECT_EQ(dimsOf({"batch", "f", "h", "w"}, 2), (Dims{{1, 8, 8, 6}}));
  EXPECT_EQ(dimsOf({"batch", "f", "h", "w"}, 3), (Dims{{1, 12, 8, 6}}));
  EXPECT_EQ(dimsOf({"batch", "f", "h", "w"}, 4), (Dims{{4, 4, 8, 6}}));
  EXPECT_EQ(dimsOf({"batch", "h", "f", "w"}, 2), (Dims{{4, 2, 8, 6}}));
  // Their results, padded max and average windows included, are the
  // reference's.
  checkPooling({ref::PoolKind::Avg,
                {"batch", "f", "h", "w"},
                {{"batch", 5}, {"f", 3}, {"h", 7}, {"w", 6}},
                poolParams({3, 3}, {2, 2}, {1, 1, 1, 1})});
  checkPooling({ref::PoolKind::Max,
                {"batch", "f", "h", "w"},
                {{"batch", 4}, {"f", 2}, {"h", 7}, {"w", 6}},
                poolParams({3, 3}, {2, 2}, {1, 1, 1, 1})});
}

TEST(FastPooling, MaxTiesGoToTheFirstMaximum) {
  // Values from {0, 1, 2}: many windows hold several maxima, and the
  // gradient must reach the first in row-major window order.
  PoolCase c{ref::PoolKind::Max,
             {"batch", "f", "h", "w"},
             {{"batch", 2}, {"f", 3}, {"h", 8}, {"w", 8}},
             poolParams({2, 2}, {2, 2}),
             Values::Ties};
  checkPooling(c);
  // The input pool_backward saw (checkPooling's seed) has such windows, so
  // a gradient sent to another maximum would have been caught.
  Buffer x(typeOf(c.dims, c.sizes, c.type), Values::Ties, 8);
  int tiedWindows = 0;
  for (int64_t image = 0; image < 2 * 3; ++image)
    for (int64_t h = 0; h < 8; h += 2)
      for (int64_t w = 0; w < 8; w += 2) {
        int64_t corner = image * 64 + h * 8 + w;
        std::vector<double> window = {x.at(corner), x.at(corner + 1),
                                      x.at(corner + 8), x.at(corner + 9)};
        double maximum = *std::max_element(window.begin(), window.end());
        tiedWindows += std::count(window.begin(), window.end(), maximum) > 1;
      }
  EXPECT_GT(tiedWindows, 20);
}

TEST(FastPooling, MaxGradientOverTilingWindows) {
  // Windows of stride equal to their size take the runtime's own loop: 7 x
  // 9 images leave a last row and column in no window, whose gradient is 0;
  // dims in an unusual order move the pass-through dims between the
  // spatial ones.
  checkPooling({ref::PoolKind::Max,
                {"batch", "f", "h", "w"},
                {{"batch", 2}, {"f", 3}, {"h", 7}, {"w", 9}},
                poolParams({2, 2}, {2, 2}),
                Values::Ties});
  checkPooling({ref::PoolKind::Max,
                {"w", "f", "h", "batch"},
                {{"batch", 3}, {"f", 2}, {"h", 6}, {"w", 4}},
                poolParams({2, 2}, {2, 2}),
                Values::Ties});
  checkPooling({ref::PoolKind::Max,
                {"batch", "f", "h", "w"},
                {{"batch", 2}, {"f", 2}, {"h", 9}, {"w", 6}},
                poolParams({3, 2}, {3, 2})});
}

TEST(FastPooling, MaxGradientOf2x2WindowsSixteenAtATime) {
  // 20 windows a row: one step of 16 and one of 4 under masks; ties, and
  // NaNs at every seventh element. Each window's four elements are
  // written, the gradient and three zeros, so the output is not cleared
  // first: it starts as garbage here.
  PoolCase c{ref::PoolKind::Max,
             {"batch", "f", "h", "w"},
             {{"batch", 2}, {"f", 3}, {"h", 4}, {"w", 40}},
             poolParams({2, 2}, {2, 2}),
             Values::Ties};
  TensorType x = typeOf(c.dims, c.sizes, c.type);
  TensorType y = typeOf(c.dims, pooledSizes(c), c.type);
  std::vector<Buffer> in = {Buffer(x, c.values, 5),
                            Buffer(y, Values::Signed, 6)};
  for (int64_t i = 0; i < x.numElements(); i += 7)
    storeElement(x.type, in[0].bytes.data(), i, std::nan(""));
  std::optional<Kernel> fast =
      buildFastPoolBackward(c.kind, op({x, y}, x), c.params, unreachable());
  ASSERT_TRUE(fast);
  ref::Tensor expected =
      ref::poolBackward(c.kind, in[0].load(), in[1].load(), c.params);
  Buffer got(x);
  for (int64_t i = 0; i < x.numElements(); ++i)
    storeElement(x.type, got.bytes.data(), i, 7.0);
  std::vector<void *> pointers = {in[0].bytes.data(), in[1].bytes.data()};
  (*fast)(context(), pointers.data(), got.bytes.data());
  int mismatches = 0;
  for (int64_t i = 0; i < x.numElements(); ++i)
    if (got.at(i) != expected.data[i] && ++mismatches <= 5)
      ADD_FAILURE() << "element " << i << ": got " << got.at(i)
                    << ", the reference gives " << expected.data[i];
  EXPECT_EQ(mismatches, 0);
}

TEST(FastPooling, MaxGradientOverTilingWindowsGoesToTheFirstNaN) {
  // As in the reference, a NaN is the maximum of its window, the first in
  // row-major window order. Rows [1, nan, nan, 2] and [nan, 5, 7, 9] in two
  // 2 x 2 windows: their gradients reach elements 1 and 2.
  PoolCase c{ref::PoolKind::Max,
             {"batch", "f", "h", "w"},
             {{"batch", 1}, {"f", 1}, {"h", 2}, {"w", 4}},
             poolParams({2, 2}, {2, 2})};
  TensorType x = typeOf(c.dims, c.sizes, c.type);
  TensorType y = typeOf(c.dims, pooledSizes(c), c.type);
  double nan = std::nan("");
  std::vector<Buffer> in = {Buffer(x, Values::Signed, 1),
                            Buffer(y, Values::Signed, 2)};
  std::vector<double> values = {1, nan, nan, 2, nan, 5, 7, 9};
  for (size_t i = 0; i < values.size(); ++i)
    storeElement(x.type, in[0].bytes.data(), i, values[i]);
  storeElement(y.type, in[1].bytes.data(), 0, 10);
  storeElement(y.type, in[1].bytes.data(), 1, 20);
  std::optional<Kernel> fast =
      buildFastPoolBackward(c.kind, op({x, y}, x), c.params, unreachable());
  ASSERT_TRUE(fast);
  ref::Tensor expected =
      ref::poolBackward(c.kind, in[0].load(), in[1].load(), c.params);
  EXPECT_EQ(expected.data,
            (std::vector<double>{0, 10, 20, 0, 0, 0, 0, 0}));
  expectMatches(*fast, in, x, expected, 0);
}

TEST(FastPooling, MaxTiesInOverlappingPaddedWindows) {
  checkPooling({ref::PoolKind::Max,
                {"batch", "f", "h", "w"},
                {{"batch", 2}, {"f", 2}, {"h", 7}, {"w", 5}},
                poolParams({3, 3}, {1, 2}, {1, 1, 1, 1}),
                Values::Ties});
}

TEST(FastPooling, MaxNegativeValuesBesideThePadding) {
  // Padding never wins a max, even over negative values.
  checkPooling({ref::PoolKind::Max,
                {"batch", "f", "h", "w"},
                {{"batch", 1}, {"f", 2}, {"h", 5}, {"w", 6}},
                poolParams({3, 2}, {2, 2}, {1, 1, 0, 1})});
}

TEST(FastPooling, AverageExcludesThePadding) {
  checkPooling({ref::PoolKind::Avg,
                {"batch", "f", "h", "w"},
                {{"batch", 2}, {"f", 3}, {"h", 7}, {"w", 6}},
                poolParams({3, 2}, {2, 1}, {1, 0, 0, 1})});
}

TEST(FastPooling, AverageWithGapsBetweenWindows) {
  checkPooling({ref::PoolKind::Avg,
                {"batch", "f", "h", "w"},
                {{"batch", 1}, {"f", 2}, {"h", 9}, {"w", 8}},
                poolParams({2, 1}, {3, 3})});
}

TEST(FastPooling, DimsInUnusualOrdersAndMorePassThroughDims) {
  checkPooling({ref::PoolKind::Max,
                {"w", "f", "h", "batch"},
                {{"batch", 3}, {"f", 2}, {"h", 6}, {"w", 5}},
                poolParams({2, 2}, {2, 1}, {0, 1, 1, 0}),
                Values::Ties});
  checkPooling({ref::PoolKind::Avg,
                {"batch", "time", "f", "h", "w"},
                {{"batch", 2}, {"time", 2}, {"f", 3}, {"h", 4}, {"w", 5}},
                poolParams({2, 3}, {1, 1}, {1, 1, 1, 1})});
}

TEST(FastPooling, Bf16) {
  if (!kernelsComputeBf16())
    GTEST_SKIP() << kNoBf16Kernels;
  checkPooling({ref::PoolKind::Max,
                {"batch", "f", "h", "w"},
                {{"batch", 2}, {"f", 16}, {"h", 6}, {"w", 6}},
                poolParams({2, 2}, {2, 2}),
                Values::Ties,
                ref::ElementType::BF16});
  checkPooling({ref::PoolKind::Avg,
                {"batch", "f", "h", "w"},
                {{"batch", 2}, {"f", 16}, {"h", 6}, {"w", 6}},
                poolParams({2, 2}, {2, 2}, {1, 0, 1, 0}),
                Values::Signed,
                ref::ElementType::BF16});
}

TEST(FastPooling, WindowsWhollyInThePaddingAreLeftToTheReference) {
  // The reference gives such windows -inf (max) or 0 (average).
  std::map<std::string, int64_t> sizes = {
      {"batch", 1}, {"f", 1}, {"h", 4}, {"w", 4}};
  for (ref::PoolKind kind : {ref::PoolKind::Max, ref::PoolKind::Avg}) {
    PoolCase c{kind,
               {"batch", "f", "h", "w"},
               sizes,
               poolParams({2, 2}, {1, 1}, {2, 0, 0, 0})};
    TensorType x = typeOf(c.dims, c.sizes, c.type);
    TensorType y = typeOf(c.dims, pooledSizes(c), c.type);
    EXPECT_FALSE(buildFastPool(kind, op({x}, y), c.params, unreachable()));
    EXPECT_FALSE(
        buildFastPoolBackward(kind, op({x, y}, x), c.params, unreachable()));
  }
}

//===----------------------------------------------------------------------===//
// Softmax, layer norm, reductions
//===----------------------------------------------------------------------===//

TEST(FastSoftmax, EveryDim) {
  TensorType x = tensor({"a", "b", "c"}, {3, 17, 5});
  for (const char *dim : {"a", "b", "c"}) {
    SCOPED_TRACE(std::string("softmax over ") + dim);
    std::optional<Kernel> fast =
        buildFastSoftmax(op({x}, x), dim, unreachable());
    ASSERT_TRUE(fast);
    // Large values: only the subtraction of the maximum keeps exp finite.
    std::vector<Buffer> in = {Buffer(x, Values::Large, 10)};
    expectMatches(*fast, in, x, ref::softmax(in[0].load(), dim), 1e-6);
  }
}

TEST(FastSoftmax, DeclinesAResultInAnotherDimOrder) {
  TensorType f = tensor({"batch", "classes"}, {4, 10});
  EXPECT_FALSE(buildFastSoftmax(op({f}, tensor({"classes", "batch"}, {10, 4})),
                                "classes", unreachable()));
}

TEST(FastSoftmax, Bf16) {
  if (!kernelsComputeBf16())
    GTEST_SKIP() << kNoBf16Kernels;
  TensorType x = tensor({"batch", "classes"}, {4, 10}, ref::ElementType::BF16);
  std::optional<Kernel> fast =
      buildFastSoftmax(op({x}, x), "classes", unreachable());
  ASSERT_TRUE(fast);
  std::vector<Buffer> in = {Buffer(x, Values::Signed, 11)};
  expectMatches(*fast, in, x, ref::softmax(in[0].load(), "classes"), 2e-2);
}

TEST(FastKernels, DeclineBf16WhereOneDnnHasNoBf16Kernels) {
  if (kernelsComputeBf16())
    GTEST_SKIP() << "this CPU has oneDNN's bf16 kernels";
  using ET = ref::ElementType;
  TensorType x = tensor({"batch", "classes"}, {4, 10}, ET::BF16);
  EXPECT_FALSE(buildFastSoftmax(op({x}, x), "classes", unreachable()));
  TensorType lhs = tensor({"m", "k"}, {3, 4}, ET::BF16);
  TensorType rhs = tensor({"k", "n"}, {4, 5}, ET::BF16);
  EXPECT_FALSE(
      buildFastEinsum(op({lhs, rhs}, tensor({"m", "n"}, {3, 5}, ET::BF16))));
  // Casts still run on oneDNN's reorders.
  EXPECT_TRUE(buildFastCast(op({tensor({"a"}, {8})}, tensor({"a"}, {8}, ET::BF16)),
                            unreachable()));
}

TEST(FastLayerNorm, TrailingDimsInAnyOrder) {
  TensorType x = tensor({"a", "b", "c"}, {4, 3, 33});
  for (std::vector<std::string> dims :
       {std::vector<std::string>{"c"}, {"b", "c"}, {"c", "b"}}) {
    std::optional<Kernel> fast =
        buildFastLayerNorm(op({x}, x), dims, 1e-3, unreachable());
    ASSERT_TRUE(fast);
    std::vector<Buffer> in = {Buffer(x, Values::Large, 12)};
    expectMatches(*fast, in, x, ref::layerNorm(in[0].load(), dims, 1e-3), 1e-4);
  }
  // Dims that are not innermost stay on the reference.
  EXPECT_FALSE(buildFastLayerNorm(op({x}, x), {"a"}, 1e-5, unreachable()));
  EXPECT_FALSE(buildFastLayerNorm(op({x}, x), {"a", "c"}, 1e-5, unreachable()));
}

TEST(FastReduce, EveryKindOverEverySubsetOfDims) {
  TensorType x = tensor({"a", "b", "c"}, {4, 5, 6});
  std::vector<TensorType> results = {tensor({"b"}, {5}),
                                     tensor({"a", "c"}, {4, 6}),
                                     tensor({"c", "a"}, {6, 4}),
                                     tensor({}, {}),
                                     tensor({"c", "b"}, {6, 5}),
                                     tensor({"a", "b"}, {4, 5}),
                                     tensor({"b", "c", "a"}, {5, 6, 4})};
  for (ref::ReductionKind kind :
       {ref::ReductionKind::Sum, ref::ReductionKind::Mean,
        ref::ReductionKind::Max, ref::ReductionKind::Min,
        ref::ReductionKind::Prod}) {
    for (const TensorType &y : results) {
      SCOPED_TRACE(std::to_string(static_cast<int>(kind)) + " into " + y.str());
      std::optional<Kernel> fast =
          buildFastReduce(kind, op({x}, y), unreachable());
      if (y.rank() == x.rank() && !fast)
        continue; // Nothing to reduce: the reference transposes.
      ASSERT_TRUE(fast);
      // Positive values near 1 keep products of 120 elements in range.
      std::vector<Buffer> in = {Buffer(
          x,
          kind == ref::ReductionKind::Prod ? Values::Positive : Values::Signed,
          13)};
      if (kind == ref::ReductionKind::Prod)
        for (int64_t i = 0; i < x.numElements(); ++i)
          storeElement(x.type, in[0].bytes.data(), i,
                       std::pow(in[0].at(i), 0.1));
      expectMatches(*fast, in, y, ref::reduce(kind, in[0].load(), y.spec()),
                    1e-5);
    }
  }
}

TEST(FastReduce, BiasGradientsReduceInnerDimsFirst) {
  // [batch, f, h, w] -> [f] runs as two reductions, h and w first.
  TensorType x = tensor({"batch", "f", "h", "w"}, {3, 4, 5, 6});
  for (ref::ReductionKind kind :
       {ref::ReductionKind::Sum, ref::ReductionKind::Mean,
        ref::ReductionKind::Max, ref::ReductionKind::Min}) {
    for (const TensorType &y : {tensor({"f"}, {4}), tensor({"f", "h"}, {4, 5}),
                                tensor({"w", "batch"}, {6, 3})}) {
      SCOPED_TRACE(std::to_string(static_cast<int>(kind)) + " into " + y.str());
      std::optional<Kernel> fast =
          buildFastReduce(kind, op({x}, y), unreachable());
      ASSERT_TRUE(fast);
      std::vector<Buffer> in = {Buffer(x, Values::Signed, 22)};
      expectMatches(*fast, in, y, ref::reduce(kind, in[0].load(), y.spec()),
                    1e-5);
    }
  }
}

// Reductions of 64K elements or more are shared out across threads: a
// kept inner run by columns, a reduced one by rows where every outer dim is
// kept. Every result element combines the same elements in the same order
// on any number of threads, so the bits are the one-thread result's.
TEST(FastReduce, LargeReductionsGiveTheSameBitsOnAnyNumberOfThreads) {
#ifndef _OPENMP
  GTEST_SKIP() << "built without OpenMP: reductions run on one thread";
#else
  struct Case {
    TensorType x, y;
  };
  std::vector<Case> cases = {
      // Columns: a bias's gradient over the batch dims.
      {tensor({"a", "c"}, {300, 1030}), tensor({"c"}, {1030})},
      {tensor({"a", "b", "c"}, {40, 30, 70}), tensor({"b", "c"}, {30, 70})},
      // Columns into a result in another dim order (a strided run).
      {tensor({"a", "b", "c"}, {40, 30, 70}), tensor({"c", "b"}, {70, 30})},
      // Rows: a row mean, every outer dim kept.
      {tensor({"a", "c"}, {300, 1030}), tensor({"a"}, {300})},
      {tensor({"a", "b", "c"}, {40, 30, 70}), tensor({"a", "b"}, {40, 30})},
      // Neither: one thread.
      {tensor({"a", "b", "c"}, {40, 30, 70}), tensor({"b"}, {30})},
      {tensor({"a", "c"}, {300, 1030}), tensor({}, {})},
  };
  int threads = omp_get_max_threads();
  for (ref::ReductionKind kind :
       {ref::ReductionKind::Sum, ref::ReductionKind::Mean,
        ref::ReductionKind::Max}) {
    for (const Case &c : cases) {
      SCOPED_TRACE(std::to_string(static_cast<int>(kind)) + ": " + c.x.str() +
                   " into " + c.y.str());
      std::optional<Kernel> fast =
          buildFastReduce(kind, op({c.x}, c.y), unreachable());
      ASSERT_TRUE(fast);
      std::vector<Buffer> in = {Buffer(c.x, Values::Signed, 31)};
      void *operand = in[0].bytes.data();
      std::vector<std::vector<unsigned char>> results;
      for (int count : {1, 2, 3}) {
        omp_set_num_threads(count);
        Buffer got(c.y);
        (*fast)(context(), &operand, got.bytes.data());
        results.push_back(got.bytes);
      }
      omp_set_num_threads(threads);
      EXPECT_EQ(results[0], results[1]) << "2 threads";
      EXPECT_EQ(results[0], results[2]) << "3 threads";
      expectMatches(*fast, in, c.y, ref::reduce(kind, in[0].load(), c.y.spec()),
                    1e-4);
    }
  }
#endif
}

TEST(FastReduce, MaxAndMinLetANaNWinAsTheReferenceDoes) {
  TensorType x = tensor({"a", "b"}, {3, 40});
  for (ref::ReductionKind kind :
       {ref::ReductionKind::Max, ref::ReductionKind::Min}) {
    for (const TensorType &y : {tensor({"a"}, {3}), tensor({"b"}, {40})}) {
      SCOPED_TRACE(std::to_string(static_cast<int>(kind)) + " into " + y.str());
      std::optional<Kernel> fast =
          buildFastReduce(kind, op({x}, y), unreachable());
      ASSERT_TRUE(fast);
      std::vector<Buffer> in = {Buffer(x, Values::Signed, 5)};
      // Row 1, column 7: in a run summed as one (into [a]) and in a row
      // combined with others (into [b]).
      storeElement(x.type, in[0].bytes.data(), 47,
                   std::numeric_limits<double>::quiet_NaN());
      expectMatches(*fast, in, y, ref::reduce(kind, in[0].load(), y.spec()),
                    1e-6);
    }
  }
}

//===----------------------------------------------------------------------===//
// Einsum in bf16 (f32 is tested against loops in KernelsTest.cpp)
//===----------------------------------------------------------------------===//

TEST(FastEinsum, Bf16WithOperandsAndResultOutOfMatmulOrder) {
  if (!kernelsComputeBf16())
    GTEST_SKIP() << kNoBf16Kernels;
  using ET = ref::ElementType;
  TensorType lhs = tensor({"k", "b", "m"}, {17, 2, 5}, ET::BF16);
  TensorType rhs = tensor({"n", "k", "b"}, {6, 17, 2}, ET::BF16);
  TensorType result = tensor({"n", "b", "m"}, {6, 2, 5}, ET::BF16);
  std::optional<Kernel> fast = buildFastEinsum(op({lhs, rhs}, result));
  ASSERT_TRUE(fast);
  std::vector<Buffer> in = {Buffer(lhs, Values::Signed, 28),
                            Buffer(rhs, Values::Signed, 29)};
  expectMatches(*fast, in, result,
                ref::einsum({in[0].load(), in[1].load()}, result.spec()), 2e-2);
}

//===----------------------------------------------------------------------===//
// Casts and transposes
//===----------------------------------------------------------------------===//

TEST(FastReorder, CastsBetweenF32AndBf16RoundOnceToNearestEven) {
  using ET = ref::ElementType;
  for (auto [from, to] : {std::pair{ET::F32, ET::BF16},
                          {ET::BF16, ET::F32},
                          {ET::F32, ET::F32}}) {
    TensorType x = tensor({"a", "b"}, {33, 7}, from);
    TensorType y = tensor({"a", "b"}, {33, 7}, to);
    std::optional<Kernel> fast = buildFastCast(op({x}, y), unreachable());
    ASSERT_TRUE(fast);
    std::vector<Buffer> in = {Buffer(x, Values::Large, 23)};
    // Ties between two bf16 values, which go to the even one.
    if (from == ET::F32)
      for (int64_t i = 0; i < 8; ++i)
        storeElement(from, in[0].bytes.data(), i, 1.0 + (2 * i + 1) / 256.0);
    // Exact: both round once, to nearest with ties to even.
    expectMatches(*fast, in, y, ref::cast(in[0].load(), to), 0);
  }
  // Integer casts stay on the reference.
  EXPECT_FALSE(buildFastCast(
      op({tensor({"a"}, {3})}, tensor({"a"}, {3}, ref::ElementType::I32)),
      unreachable()));
}

TEST(FastReorder, TransposesEveryPermutationOfThreeDims) {
  TensorType x = tensor({"a", "b", "c"}, {3, 4, 5});
  std::vector<std::string> dims = {"a", "b", "c"};
  std::map<std::string, int64_t> sizes = {{"a", 3}, {"b", 4}, {"c", 5}};
  do {
    TensorType y = typeOf(dims, sizes, ref::ElementType::F32);
    std::optional<Kernel> fast = buildFastTranspose(op({x}, y), unreachable());
    ASSERT_TRUE(fast);
    std::vector<Buffer> in = {Buffer(x, Values::Signed, 24)};
    expectMatches(*fast, in, y, ref::transpose(in[0].load(), y.spec()), 0);
  } while (std::next_permutation(dims.begin(), dims.end()));
}

//===----------------------------------------------------------------------===//
// Element-wise
//===----------------------------------------------------------------------===//

TEST(FastElementwise, UnaryOpsOneDnnComputesWithinAFewUlp) {
  using UK = ref::UnaryKind;
  TensorType x = tensor({"a", "b"}, {7, 13});
  for (UK kind : {UK::Neg, UK::Abs, UK::Exp, UK::Sqrt, UK::Rsqrt, UK::Tanh,
                  UK::Sigmoid, UK::Relu}) {
    SCOPED_TRACE(static_cast<int>(kind));
    std::optional<Kernel> fast =
        buildOneDnnUnary(kind, op({x}, x), unreachable());
    ASSERT_TRUE(fast);
    bool positive = kind == UK::Sqrt || kind == UK::Rsqrt;
    std::vector<Buffer> in = {
        Buffer(x, positive ? Values::Positive : Values::Signed, 14)};
    // Four ulp: oneDNN's exp and sigmoid are some three off.
    expectMatches(*fast, in, x, ref::unary(kind, in[0].load()), 5e-7);
  }
  // Its log and gelu are far off (near 1, and below -6), and it has no erf:
  // those stay on the exact loops.
  for (UK kind : {UK::Log, UK::Gelu, UK::Erf})
    EXPECT_FALSE(buildOneDnnUnary(kind, op({x}, x), unreachable()));
}

TEST(FastElementwise, LogErfAndGeluOnVectorMath) {
  using UK = ref::UnaryKind;
  TensorType x = tensor({"a", "b"}, {7, 37}); // Tails of 16 and 8 lanes.
  for (UK kind : {UK::Log, UK::Erf, UK::Gelu}) {
    SCOPED_TRACE(static_cast<int>(kind));
    std::optional<Kernel> fast = buildFastUnary(kind, op({x}, x));
    ASSERT_TRUE(fast);
    std::vector<Buffer> in = {Buffer(
        x, kind == UK::Log ? Values::Positive : Values::Large, 17)};
    expectMatches(*fast, in, x, ref::unary(kind, in[0].load()), 1e-6);
  }
  // GELU keeps its relative accuracy far into the negative tail, where
  // 1 + erf(x / sqrt 2) cancels to nothing in f32 (and, from -8 on, in the
  // reference's double): against x * erfc(-x / sqrt 2) / 2 in double.
  TensorType tail = tensor({"a"}, {6});
  std::vector<Buffer> in = {Buffer(tail)};
  for (int i = 0; i < 6; ++i)
    storeElement(tail.type, in[0].bytes.data(), i, -4.0 - i);
  Buffer got(tail);
  void *operands[] = {in[0].bytes.data()};
  (*buildFastUnary(UK::Gelu, op({tail}, tail)))(context(), operands,
                                                got.bytes.data());
  for (int i = 0; i < 6; ++i) {
    double x = -4.0 - i;
    double exact = 0.5 * x * std::erfc(-x / std::sqrt(2.0));
    EXPECT_NEAR(got.at(i), exact, 1e-5 * std::fabs(exact)) << "x = " << -4 - i;
  }
}

/// |got - want| in units of f32's last place at `want`.
double ulpsOff(float got, double want) {
  float rounded = static_cast<float>(want);
  double ulp = std::nextafter(std::fabs(rounded),
                              std::numeric_limits<float>::infinity()) -
               std::fabs(rounded);
  return std::fabs(static_cast<double>(got) - want) / ulp;
}

TEST(VectorMath, ErfErfcAndGeluWithinAFewUlpEverywhere) {
  // Every 997th float in [-12, 12], both signs: erf within 3 ulp and erfc
  // within 6 (VectorMathAvx512.cpp's own, 2.6 and 5.6 at worst; SLEEF's
  // elsewhere are within 1.5), GELU within 6.5 of its erfc's (5.8), where
  // the exact result is a normal float.
  std::vector<float> x;
  for (uint32_t bits = 0; bits < 0x41400000u; bits += 997) { // 12.0f
    float value;
    std::memcpy(&value, &bits, sizeof value);
    x.push_back(value);
    x.push_back(-value);
  }
  std::vector<float> erf(x.size()), erfc(x.size()), gelu(x.size());
  applyVectorFunction(VectorFunction::Erf, x.data(), erf.data(), x.size());
  applyVectorFunction(VectorFunction::Erfc, x.data(), erfc.data(), x.size());
  applyGelu(x.data(), gelu.data(), x.size());
  double worstErf = 0, worstErfc = 0, worstGelu = 0;
  constexpr double kSmallestNormal = std::numeric_limits<float>::min();
  for (size_t i = 0; i < x.size(); ++i) {
    double v = x[i];
    worstErf = std::max(worstErf, ulpsOff(erf[i], std::erf(v)));
    if (std::erfc(v) >= kSmallestNormal)
      worstErfc = std::max(worstErfc, ulpsOff(erfc[i], std::erfc(v)));
    // GELU of x is erfc's of the f32 product x * (-1 / sqrt 2), whose
    // rounding (the same in every implementation) is not counted here: in
    // the tail it moves erfc by up to a few hundred ulp.
    double argument = x[i] * -0.70710678118654752f;
    double exactGelu = 0.5 * v * std::erfc(argument);
    if (std::fabs(exactGelu) >= kSmallestNormal)
      worstGelu = std::max(worstGelu, ulpsOff(gelu[i], exactGelu));
  }
  EXPECT_LE(worstErf, 3.5);
  EXPECT_LE(worstErfc, 6.0);
  EXPECT_LE(worstGelu, 6.5);

  // Exact at the ends and at zero; NaN stays NaN; a tail that underflows
  // gives 0 and its complement 2.
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> special = {0.0f, -0.0f, inf, -inf, 11.0f, -11.0f, nan};
  std::vector<float> e(special.size()), c(special.size());
  applyVectorFunction(VectorFunction::Erf, special.data(), e.data(),
                      special.size());
  applyVectorFunction(VectorFunction::Erfc, special.data(), c.data(),
                      special.size());
  EXPECT_EQ(e[0], 0.0f);
  EXPECT_TRUE(std::signbit(e[1]));
  EXPECT_EQ(e[2], 1.0f);
  EXPECT_EQ(e[3], -1.0f);
  EXPECT_EQ(c[2], 0.0f);
  EXPECT_EQ(c[3], 2.0f);
  EXPECT_EQ(c[4], 0.0f);
  EXPECT_EQ(c[5], 2.0f);
  EXPECT_EQ(c[0], 1.0f);
  EXPECT_TRUE(std::isnan(e[6]));
  EXPECT_TRUE(std::isnan(c[6]));
}

TEST(FastElementwise, VectorMathSplitsLargeArraysIntoChunksAcrossThreads) {
  // Past 2^16 elements the walk is cut into chunks of 4096 handed to the
  // OpenMP threads; 3 x 2^16 + 37 elements end in a partial chunk, and
  // every element, in every chunk, must be the op's.
  using UK = ref::UnaryKind;
  TensorType x = tensor({"a", "b"}, {3 * 1024 + 1, 64 + 1});
  for (UK kind : {UK::Log, UK::Erf, UK::Gelu}) {
    SCOPED_TRACE(static_cast<int>(kind));
    std::optional<Kernel> fast = buildFastUnary(kind, op({x}, x));
    ASSERT_TRUE(fast);
    std::vector<Buffer> in = {Buffer(
        x, kind == UK::Log ? Values::Positive : Values::Large, 23)};
    expectMatches(*fast, in, x, ref::unary(kind, in[0].load()), 1e-6);
  }
}

TEST(FastCrossEntropy, RowsAlongAStridedClassDimAndLabelsInAnotherOrder) {
  TensorType logits = tensor({"b", "c", "s"}, {3, 11, 5});
  TensorType result = tensor({"b", "s"}, {3, 5});
  for (ref::ElementType labelType :
       {ref::ElementType::I32, ref::ElementType::I64}) {
    TensorType labels = tensor({"s", "b"}, {5, 3}, labelType);
    std::optional<Kernel> fast = buildFastSoftmaxCrossEntropy(
        op({logits, labels}, result), "c", unreachable());
    ASSERT_TRUE(fast);
    std::vector<Buffer> in = {Buffer(logits, Values::Large, 18),
                              Buffer(labels)};
    for (int64_t i = 0; i < labels.numElements(); ++i)
      storeElement(labelType, in[1].bytes.data(), i, (7 * i) % 11);
    ref::Tensor expected;
    std::string error;
    ASSERT_TRUE(ref::softmaxCrossEntropy(in[0].load(), in[1].load(), "c",
                                         result.spec(), expected, error))
        << error;
    expectMatches(*fast, in, result, expected, 1e-6);
  }
}

TEST(FastCrossEntropy, ALabelOutOfRangeIsTheReferencesError) {
  TensorType logits = tensor({"b", "c"}, {2, 4});
  TensorType labels = tensor({"b"}, {2}, ref::ElementType::I32);
  Kernel reference = [](tessel_context_t &, void *const *, void *) {
    throw OpError("the reference's message");
  };
  std::optional<Kernel> fast = buildFastSoftmaxCrossEntropy(
      op({logits, labels}, tensor({"b"}, {2})), "c", reference);
  ASSERT_TRUE(fast);
  std::vector<Buffer> in = {Buffer(logits, Values::Signed, 19),
                            Buffer(labels)};
  storeElement(labels.type, in[1].bytes.data(), 1, 4);
  Buffer out(tensor({"b"}, {2}));
  void *operands[] = {in[0].bytes.data(), in[1].bytes.data()};
  EXPECT_THROW((*fast)(context(), operands, out.bytes.data()), OpError);
}

TEST(FastGather, RowsOfATableForIdsInAnyOrder) {
  TensorType table = tensor({"v", "d"}, {7, 5});
  for (ref::ElementType idType :
       {ref::ElementType::I32, ref::ElementType::I64}) {
    TensorType ids = tensor({"s", "b"}, {3, 2}, idType);
    for (const TensorType &result :
         {tensor({"b", "s", "d"}, {2, 3, 5}), tensor({"d", "b", "s"}, {5, 2, 3}),
          tensor({"s", "d", "b"}, {3, 5, 2})}) {
      SCOPED_TRACE(result.str());
      std::optional<Kernel> fast =
          buildFastGather(op({table, ids}, result), "v", unreachable());
      ASSERT_TRUE(fast);
      std::vector<Buffer> in = {Buffer(table, Values::Signed, 20),
                                Buffer(ids)};
      for (int64_t i = 0; i < ids.numElements(); ++i)
        storeElement(idType, in[1].bytes.data(), i, (5 * i + 3) % 7);
      ref::Tensor expected;
      std::string error;
      ASSERT_TRUE(ref::gather(in[0].load(), in[1].load(), "v", result.spec(),
                              expected, error))
          << error;
      expectMatches(*fast, in, result, expected, 0);
    }
  }
}

TEST(FastGather, AnIdOutOfRangeIsTheReferencesError) {
  TensorType table = tensor({"v", "d"}, {4, 2});
  TensorType ids = tensor({"b"}, {3}, ref::ElementType::I32);
  Kernel reference = [](tessel_context_t &, void *const *, void *) {
    throw OpError("the reference's message");
  };
  TensorType result = tensor({"b", "d"}, {3, 2});
  std::optional<Kernel> fast =
      buildFastGather(op({table, ids}, result), "v", reference);
  ASSERT_TRUE(fast);
  std::vector<Buffer> in = {Buffer(table, Values::Signed, 21), Buffer(ids)};
  storeElement(ids.type, in[1].bytes.data(), 2, -1);
  Buffer out(result);
  void *operands[] = {in[0].bytes.data(), in[1].bytes.data()};
  EXPECT_THROW((*fast)(context(), operands, out.bytes.data()), OpError);
}

TEST(FastCopy, SliceIntoAResultOfAnyDimOrder) {
  TensorType x = tensor({"a", "b", "c"}, {4, 5, 6});
  std::vector<Buffer> in = {Buffer(x, Values::Signed, 23)};
  for (const TensorType &y :
       {tensor({"a", "b", "c"}, {4, 3, 6}), tensor({"c", "b", "a"}, {6, 3, 4}),
        tensor({"a", "b", "c"}, {2, 3, 6})}) {
    SCOPED_TRACE(y.str());
    std::vector<std::string> dims = {"b", "a"};
    std::vector<int64_t> starts = {2, y.shape[y.dimIndex("a", "")] == 2 ? 1 : 0};
    std::optional<Kernel> fast = buildFastSlice(op({x}, y), dims, starts);
    ASSERT_TRUE(fast);
    expectMatches(*fast, in, y,
                  ref::slice(in[0].load(), dims, starts, y.spec()), 0);
  }
  // Sizes that do not make a slice are errors, not copies past the end.
  EXPECT_THROW(buildFastSlice(op({x}, tensor({"a", "b", "c"}, {4, 3, 6})),
                              {"b"}, {3}),
               OpError);
  EXPECT_THROW(buildFastSlice(op({x}, tensor({"a", "b", "c"}, {4, 3, 7})),
                              {"b"}, {0}),
               OpError);
  EXPECT_THROW(buildFastConcat(op({tensor({"a", "b"}, {2, 3})},
                                  tensor({"a", "b"}, {3, 3})),
                               "a"),
               OpError);
}

TEST(FastCopy, ConcatOfThreeOperandsOneInAnotherDimOrder) {
  TensorType first = tensor({"a", "b"}, {2, 3});
  TensorType second = tensor({"b", "a"}, {3, 4});
  TensorType third = tensor({"a", "b"}, {1, 3});
  TensorType y = tensor({"a", "b"}, {7, 3});
  std::optional<Kernel> fast =
      buildFastConcat(op({first, second, third}, y), "a");
  ASSERT_TRUE(fast);
  std::vector<Buffer> in = {Buffer(first, Values::Signed, 24),
                            Buffer(second, Values::Signed, 25),
                            Buffer(third, Values::Signed, 26)};
  expectMatches(
      *fast, in, y,
      ref::concat({in[0].load(), in[1].load(), in[2].load()}, "a", y.spec()),
      0);
}

/// Runs a binary op on oneDNN and on the reference.
void checkBinary(ref::BinaryKind kind, const TensorType &lhs,
                 const TensorType &rhs, const TensorType &result) {
  SCOPED_TRACE(lhs.str() + " op " + rhs.str() + " -> " + result.str());
  std::optional<Kernel> fast =
      buildOneDnnBinary(kind, op({lhs, rhs}, result), unreachable());
  ASSERT_TRUE(fast) << "the op did not take the oneDNN path";
  bool divides = kind == ref::BinaryKind::Div;
  std::vector<Buffer> in = {
      Buffer(lhs, Values::Signed, 15),
      Buffer(rhs, divides ? Values::Positive : Values::Signed, 16)};
  expectMatches(*fast, in, result,
                ref::binary(kind, in[0].load(), in[1].load(), result.spec()),
                1e-6);
}

TEST(FastElementwise, BinaryOpsWithEveryKindOfBroadcast) {
  using BK = ref::BinaryKind;
  TensorType full = tensor({"a", "b", "c"}, {3, 4, 5});
  std::vector<TensorType> rhsShapes = {
      full,                               // none
      tensor({"c"}, {5}),                 // innermost
      tensor({"a"}, {3}),                 // outermost
      tensor({"b"}, {4}),                 // middle
      tensor({"a", "c"}, {3, 5}),         // two, with a gap
      tensor({"c", "a"}, {5, 3}),         // two, transposed
      tensor({}, {}),                     // a scalar
      tensor({"c", "b", "a"}, {5, 4, 3}), // none, transposed
  };
  for (BK kind : {BK::Add, BK::Sub, BK::Mul, BK::Div, BK::Max, BK::Min})
    for (const TensorType &rhs : rhsShapes)
      checkBinary(kind, full, rhs, full);
  // The lhs transposed, and the lhs broadcast where the op commutes.
  checkBinary(BK::Sub, tensor({"b", "c", "a"}, {4, 5, 3}), tensor({"b"}, {4}),
              full);
  for (BK kind : {BK::Add, BK::Mul, BK::Max, BK::Min})
    checkBinary(kind, tensor({"b"}, {4}), full, full);
}

TEST(FastElementwise, ComparisonsWithBroadcastsAndNaN) {
  using CK = ref::CompareKind;
  TensorType full = tensor({"a", "b", "c"}, {3, 4, 5});
  std::vector<std::pair<TensorType, TensorType>> operandPairs = {
      {full, full},
      {full, tensor({}, {})},
      {full, tensor({"c", "a"}, {5, 3})},
      {tensor({"b"}, {4}), full}, // Mirrored onto the right.
  };
  for (CK kind : {CK::Eq, CK::Ne, CK::Lt, CK::Le, CK::Gt, CK::Ge}) {
    for (const auto &[lhs, rhs] : operandPairs) {
      SCOPED_TRACE(std::to_string(static_cast<int>(kind)) + ": " + lhs.str() +
                   " vs " + rhs.str());
      TensorType result = full;
      result.type = ref::ElementType::I1;
      OpDescriptor desc = op({lhs, rhs}, result);
      // oneDNN's gt and ge hold for NaN: they run as lt and le with the
      // operands swapped, where the rhs is full, and on the loop otherwise;
      // lt and le with a broadcast lhs are left to the loop too.
      bool greater = kind == CK::Gt || kind == CK::Ge;
      bool less = kind == CK::Lt || kind == CK::Le;
      bool broadcastLhs = lhs.rank() != result.rank();
      bool broadcastRhs = rhs.rank() != result.rank();
      EXPECT_EQ(bool(buildOneDnnCompare(kind, desc, unreachable())),
                !(greater && broadcastRhs) && !(less && broadcastLhs));
      std::optional<Kernel> fast = buildFastCompare(kind, desc);
      ASSERT_TRUE(fast);
      // Ties: equal values are common; and a NaN in each operand.
      std::vector<Buffer> in = {Buffer(lhs, Values::Ties, 17),
                                Buffer(rhs, Values::Ties, 18)};
      storeElement(lhs.type, in[0].bytes.data(), 0, std::nan(""));
      storeElement(rhs.type, in[1].bytes.data(), rhs.numElements() - 1,
                   std::nan(""));
      expectMatches(
          *fast, in, result,
          ref::compare(kind, in[0].load(), in[1].load(), result.spec()), 0);
    }
  }
}

TEST(FastElementwise, SelectWithBroadcasts) {
  TensorType full = tensor({"a", "b", "c"}, {3, 4, 5});
  TensorType mask = full;
  mask.type = ref::ElementType::I1;
  TensorType rowMask = tensor({"c"}, {5}, ref::ElementType::I1);
  std::vector<std::array<TensorType, 3>> cases = {
      {mask, full, tensor({}, {})}, // A relu's gradient.
      {mask, tensor({"c", "a"}, {5, 3}), full},
      {rowMask, full, tensor({"b"}, {4})},
  };
  for (const auto &[condition, a, b] : cases) {
    SCOPED_TRACE(condition.str() + " ? " + a.str() + " : " + b.str());
    std::optional<Kernel> fast = buildFastSelect(op({condition, a, b}, full));
    ASSERT_TRUE(fast);
    std::vector<Buffer> in = {Buffer(condition, Values::Ties, 19),
                              Buffer(a, Values::Signed, 20),
                              Buffer(b, Values::Signed, 21)};
    expectMatches(
        *fast, in, full,
        ref::select(in[0].load(), in[1].load(), in[2].load(), full.spec()), 0);
  }
}

TEST(FastElementwise, Bf16UnaryAndBinaryOps) {
  if (!kernelsComputeBf16())
    GTEST_SKIP() << kNoBf16Kernels;
  using ET = ref::ElementType;
  TensorType full = tensor({"a", "b"}, {6, 10}, ET::BF16);
  TensorType row = tensor({"b"}, {10}, ET::BF16);
  for (ref::UnaryKind kind : {ref::UnaryKind::Exp, ref::UnaryKind::Relu}) {
    std::optional<Kernel> fast =
        buildOneDnnUnary(kind, op({full}, full), unreachable());
    ASSERT_TRUE(fast);
    std::vector<Buffer> in = {Buffer(full, Values::Signed, 25)};
    expectMatches(*fast, in, full, ref::unary(kind, in[0].load()), 1e-2);
  }
  for (ref::BinaryKind kind : {ref::BinaryKind::Add, ref::BinaryKind::Mul}) {
    std::optional<Kernel> fast =
        buildOneDnnBinary(kind, op({row, full}, full), unreachable());
    ASSERT_TRUE(fast);
    std::vector<Buffer> in = {Buffer(row, Values::Signed, 26),
                              Buffer(full, Values::Signed, 27)};
    expectMatches(*fast, in, full,
                  ref::binary(kind, in[0].load(), in[1].load(), full.spec()),
                  1e-2);
  }
  // Mixed types stay on the reference.
  EXPECT_FALSE(buildOneDnnBinary(ref::BinaryKind::Add,
                                 op({tensor({"a", "b"}, {6, 10}), row}, full),
                                 unreachable()));
}

TEST(FastElementwise, BinaryOpsOneDnnLeavesToTheLoops) {
  using BK = ref::BinaryKind;
  TensorType full = tensor({"a", "b"}, {3, 4});
  TensorType row = tensor({"b"}, {4}), column = tensor({"a"}, {3});
  // oneDNN broadcasts its second operand only.
  EXPECT_FALSE(
      buildOneDnnBinary(BK::Sub, op({row, full}, full), unreachable()));
  EXPECT_FALSE(
      buildOneDnnBinary(BK::Add, op({row, column}, full), unreachable()));
  EXPECT_FALSE(
      buildOneDnnBinary(BK::Pow, op({full, full}, full), unreachable()));
}

} // namespace

//===----------------------------------------------------------------------===//
// One-hot
//===----------------------------------------------------------------------===//

// The new dim in the middle and at the end; ids out of range (negative, and
// past the last class) are hot nowhere.
TEST(FastOneHot, MatchesTheReferenceWithIdsOutOfRange) {
  using ET = ref::ElementType;
  TensorType ids = tensor({"batch", "seq"}, {3, 4}, ET::I32);
  for (int position : {1, 2}) {
    std::vector<std::string> dims = {"batch", "seq"};
    std::vector<int64_t> shape = {3, 4};
    dims.insert(dims.begin() + position, "vocab");
    shape.insert(shape.begin() + position, 5);
    TensorType result = tensor(dims, shape);
    OpDescriptor desc = op({ids}, result);
    desc.attrs["dim"] = "vocab";
    std::optional<Kernel> fast = buildFastOneHot(desc);
    ASSERT_TRUE(fast);
    Buffer in(ids);
    for (int64_t i = 0; i < ids.numElements(); ++i)
      storeElement(ET::I32, in.bytes.data(), i, double(i % 7) - 1);
    std::vector<Buffer> operands = {in};
    expectMatches(*fast, operands, result,
                  ref::oneHot(in.load(), "vocab", result.spec()), 0);
  }
}

// Ids whose dims are not the result's in order take the reference path.
TEST(FastOneHot, DeclinesReorderedDims) {
  using ET = ref::ElementType;
  OpDescriptor desc = op({tensor({"seq", "batch"}, {4, 3}, ET::I32)},
                         tensor({"batch", "seq", "vocab"}, {3, 4, 5}));
  desc.attrs["dim"] = "vocab";
  EXPECT_FALSE(buildFastOneHot(desc));
}

//===----------------------------------------------------------------------===//
// Data movement and element-wise ops of other element types
//===----------------------------------------------------------------------===//

TEST(FastCopy, BroadcastAndTransposeOfEveryElementType) {
  using ET = ref::ElementType;
  for (ET type : {ET::F32, ET::F64, ET::BF16, ET::I1, ET::I32, ET::I64}) {
    // A batch norm's gradient ([c] over [a, c, b]), a scalar repeated, a
    // broadcast that also permutes, and a transpose.
    std::vector<std::pair<TensorType, TensorType>> cases = {
        {tensor({"c"}, {3}, type), tensor({"a", "c", "b"}, {2, 3, 5}, type)},
        {tensor({}, {}, type), tensor({"a"}, {7}, type)},
        {tensor({"a", "b"}, {2, 5}, type),
         tensor({"b", "c", "a"}, {5, 3, 2}, type)},
        {tensor({"a", "b", "c"}, {2, 5, 3}, type),
         tensor({"c", "a", "b"}, {3, 2, 5}, type)},
    };
    for (const auto &[x, y] : cases) {
      SCOPED_TRACE(x.str() + " -> " + y.str());
      std::optional<Kernel> fast = buildFastRearrange(op({x}, y));
      ASSERT_TRUE(fast);
      std::vector<Buffer> in = {Buffer(x, Values::Large, 41)};
      ref::Tensor expected = x.dims.size() == y.dims.size()
                                 ? ref::transpose(in[0].load(), y.spec())
                                 : ref::broadcast(in[0].load(), y.spec());
      expectMatches(*fast, in, y, expected, 0);
    }
  }
  // Element types or sizes that differ are left to the reference.
  EXPECT_FALSE(buildFastRearrange(
      op({tensor({"c"}, {3}, ET::I32)}, tensor({"a", "c"}, {2, 3}))));
  EXPECT_FALSE(
      buildFastRearrange(op({tensor({"c"}, {3})}, tensor({"a", "c"}, {2, 4}))));
}

/// Buffers of the values the loops must get exactly right: integers that
/// wrap or saturate, fractions that truncate, NaN and infinities.
static Buffer edgeValues(const TensorType &type, unsigned seed) {
  Buffer buffer(type, Values::Large, seed);
  const double infinity = std::numeric_limits<double>::infinity();
  const double edges[] = {3e9, -3e9, 2.5, -2.5, 1e19, std::nan(""), infinity,
                          0.0};
  for (int64_t i = 0; i < type.numElements() && i < 8; ++i)
    storeElement(type.type, buffer.bytes.data(), i * 3 % type.numElements(),
                 edges[i]);
  return buffer;
}

TEST(TypedElementwise, EveryOpOfOtherTypesIsTheReferenceExactly) {
  using ET = ref::ElementType;
  for (ET type : {ET::F64, ET::I1, ET::I32, ET::I64}) {
    TensorType full = tensor({"a", "b", "c"}, {3, 4, 5}, type);
    TensorType row = tensor({"c", "a"}, {5, 3}, type);
    TensorType scalar = tensor({}, {}, type);
    SCOPED_TRACE(full.str());
    for (ref::UnaryKind kind : {ref::UnaryKind::Neg, ref::UnaryKind::Abs,
                                ref::UnaryKind::Sqrt, ref::UnaryKind::Exp}) {
      std::optional<Kernel> fast = buildTypedUnary(kind, op({full}, full));
      ASSERT_TRUE(fast);
      std::vector<Buffer> in = {edgeValues(full, 51)};
      expectMatches(*fast, in, full, ref::unary(kind, in[0].load()), 0);
    }
    using BK = ref::BinaryKind;
    for (BK kind :
         {BK::Add, BK::Sub, BK::Mul, BK::Div, BK::Max, BK::Min, BK::Pow}) {
      for (const auto &[a, b] : std::vector<std::pair<TensorType, TensorType>>{
               {full, full}, {scalar, full}, {full, row}, {row, scalar}}) {
        // Division by zero too: integers give 0, as in the reference.
        std::vector<Buffer> in = {edgeValues(a, 52),
                                  Buffer(b, Values::Ties, 53)};
        TensorType y = a.rank() == 0 ? b : a;
        std::optional<Kernel> fast = buildTypedBinary(kind, op({a, b}, y));
        ASSERT_TRUE(fast);
        expectMatches(*fast, in, y,
                      ref::binary(kind, in[0].load(), in[1].load(), y.spec()),
                      0);
      }
    }
    TensorType mask = tensor({"a", "b", "c"}, {3, 4, 5}, ET::I1);
    using CK = ref::CompareKind;
    for (CK kind : {CK::Eq, CK::Ne, CK::Lt, CK::Le, CK::Gt, CK::Ge}) {
      std::optional<Kernel> fast =
          buildTypedCompare(kind, op({full, row}, mask));
      ASSERT_TRUE(fast);
      std::vector<Buffer> in = {Buffer(full, Values::Ties, 54),
                                edgeValues(row, 55)};
      expectMatches(*fast, in, mask,
                    ref::compare(kind, in[0].load(), in[1].load(), mask.spec()),
                    0);
    }
    std::optional<Kernel> select =
        buildTypedSelect(op({tensor({"c"}, {5}, ET::I1), full, scalar}, full));
    ASSERT_TRUE(select);
    std::vector<Buffer> in = {
        Buffer(tensor({"c"}, {5}, ET::I1), Values::Ties, 56),
        edgeValues(full, 57), edgeValues(scalar, 58)};
    expectMatches(
        *select, in, full,
        ref::select(in[0].load(), in[1].load(), in[2].load(), full.spec()), 0);
    using RK = ref::ReductionKind;
    for (RK kind : {RK::Sum, RK::Mean, RK::Max, RK::Min, RK::Prod}) {
      for (const TensorType &y :
           {tensor({}, {}, type), tensor({"c", "a"}, {5, 3}, type),
            tensor({"b"}, {4}, type)}) {
        std::optional<Kernel> fast = buildTypedReduce(kind, op({full}, y));
        ASSERT_TRUE(fast);
        std::vector<Buffer> in = {Buffer(full, Values::Large, 59)};
        expectMatches(*fast, in, y, ref::reduce(kind, in[0].load(), y.spec()),
                      0);
      }
    }
  }
}

TEST(TypedElementwise, CastsBetweenEveryPairAndIota) {
  using ET = ref::ElementType;
  const ET types[] = {ET::F32, ET::F64, ET::I1, ET::I32, ET::I64};
  for (ET from : types) {
    for (ET to : types) {
      TensorType x = tensor({"a", "b"}, {4, 6}, from);
      TensorType y = tensor({"a", "b"}, {4, 6}, to);
      SCOPED_TRACE(x.str() + " -> " + y.str());
      std::optional<Kernel> fast = buildTypedCast(op({x}, y));
      ASSERT_TRUE(fast);
      std::vector<Buffer> in = {edgeValues(x, 61)};
      expectMatches(*fast, in, y, ref::cast(in[0].load(), to), 0);
    }
    // Along the outermost, a middle and the innermost dim.
    TensorType y = tensor({"a", "b", "c"}, {3, 4, 2}, from);
    for (const char *dim : {"a", "b", "c"}) {
      SCOPED_TRACE(std::string("iota along ") + dim);
      std::optional<Kernel> fast = buildTypedIota(op({}, y), dim);
      ASSERT_TRUE(fast);
      std::vector<Buffer> none;
      expectMatches(*fast, none, y, ref::iota(y.spec(), dim), 0);
    }
  }
  // f16 and bf16 stay on the reference and oneDNN.
  EXPECT_FALSE(buildTypedCast(
      op({tensor({"a"}, {2}, ET::BF16)}, tensor({"a"}, {2}, ET::I32))));
}
