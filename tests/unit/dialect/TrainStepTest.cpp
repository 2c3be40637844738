//===- TrainStepTest.cpp - a training step against one computed by hand ---===//
//
// Runs tessel-autodiff on a small two-layer perceptron, evaluates @init and
// @train_step with the reference evaluator, and compares the new
// parameters with an SGD and an Adam step written out here in plain loops:
// the forward pass, the backward pass by its textbook formulas, and the
// update. Nothing here shares code with the gradients under test.
//
//===----------------------------------------------------------------------===//

#include "dialect/TesselDialect.h"
#include "evaluator/Interpreter.h"
#include "passes/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace mlir;
using namespace mlir::tessel;
namespace ref = ::tessel::ref;
using ::tessel::eval::PerRank;

namespace {

constexpr int kBatch = 4, kPixels = 5, kHidden = 3, kClasses = 3;

// f64 throughout, so that the evaluator's rounding to the element type
// cannot hide a wrong gradient.
constexpr const char *kModel = R"mlir(
func.func @forward(%x: !tessel.tensor<[batch:4, pixels:5], f64> {tessel.name = "images"},
                   %labels: !tessel.tensor<[batch:4], i32> {tessel.name = "labels"})
    -> !tessel.tensor<[], f64> {
  %w1 = tessel.parameter "w1" normal scale 0.5 seed 1 : !tessel.tensor<[pixels:5, hidden:3], f64>
  %b1 = tessel.parameter "b1" uniform scale 0.1 seed 2 : !tessel.tensor<[hidden:3], f64>
  %w2 = tessel.parameter "w2" normal scale 0.5 seed 3 : !tessel.tensor<[hidden:3, classes:3], f64>
  %b2 = tessel.parameter "b2" uniform scale 0.1 seed 4 : !tessel.tensor<[classes:3], f64>
  %xw = tessel.einsum %x, %w1 : (!tessel.tensor<[batch:4, pixels:5], f64>,
      !tessel.tensor<[pixels:5, hidden:3], f64>) -> !tessel.tensor<[batch:4, hidden:3], f64>
  %pre = tessel.add %xw, %b1 : !tessel.tensor<[batch:4, hidden:3], f64>,
      !tessel.tensor<[hidden:3], f64> -> !tessel.tensor<[batch:4, hidden:3], f64>
  %h = tessel.relu %pre : !tessel.tensor<[batch:4, hidden:3], f64>
  %hw = tessel.einsum %h, %w2 : (!tessel.tensor<[batch:4, hidden:3], f64>,
      !tessel.tensor<[hidden:3, classes:3], f64>) -> !tessel.tensor<[batch:4, classes:3], f64>
  %logits = tessel.add %hw, %b2 : !tessel.tensor<[batch:4, classes:3], f64>,
      !tessel.tensor<[classes:3], f64> -> !tessel.tensor<[batch:4, classes:3], f64>
  %losses = tessel.softmax_cross_entropy %logits, %labels over "classes"
      : !tessel.tensor<[batch:4, classes:3], f64>, !tessel.tensor<[batch:4], i32>
      -> !tessel.tensor<[batch:4], f64>
  %loss = tessel.reduce mean %losses : !tessel.tensor<[batch:4], f64> -> !tessel.tensor<[], f64>
  return %loss : !tessel.tensor<[], f64>
}
)mlir";

using Matrix = std::vector<std::vector<double>>;

Matrix toMatrix(const ref::Tensor &t, int rows, int cols) {
  Matrix m(rows, std::vector<double>(cols));
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      m[i][j] = t.data[i * cols + j];
  return m;
}

/// The perceptron's parameters and their gradients, as plain arrays.
struct Parameters {
  Matrix w1, w2;
  std::vector<double> b1, b2;
};

/// Computes the mean cross-entropy and its gradients by hand.
double lossAndGradients(const Parameters &p, const Matrix &x,
                        const std::vector<int> &labels, Parameters &grad) {
  grad.w1.assign(kPixels, std::vector<double>(kHidden, 0.0));
  grad.w2.assign(kHidden, std::vector<double>(kClasses, 0.0));
  grad.b1.assign(kHidden, 0.0);
  grad.b2.assign(kClasses, 0.0);
  double loss = 0;
  for (int n = 0; n < kBatch; ++n) {
    std::vector<double> pre(kHidden), h(kHidden), logits(kClasses);
    for (int j = 0; j < kHidden; ++j) {
      pre[j] = p.b1[j];
      for (int i = 0; i < kPixels; ++i)
        pre[j] += x[n][i] * p.w1[i][j];
      h[j] = std::max(pre[j], 0.0);
    }
    double largest = -1e300;
    for (int c = 0; c < kClasses; ++c) {
      logits[c] = p.b2[c];
      for (int j = 0; j < kHidden; ++j)
        logits[c] += h[j] * p.w2[j][c];
      largest = std::max(largest, logits[c]);
    }
    double total = 0;
    for (int c = 0; c < kClasses; ++c)
      total += std::exp(logits[c] - largest);
    loss += (std::log(total) + largest - logits[labels[n]]) / kBatch;
    // d loss / d logits = (softmax - one_hot) / batch.
    std::vector<double> dlogits(kClasses), dh(kHidden, 0.0);
    for (int c = 0; c < kClasses; ++c)
      dlogits[c] = (std::exp(logits[c] - largest) / total -
                    (c == labels[n] ? 1.0 : 0.0)) /
                   kBatch;
    for (int c = 0; c < kClasses; ++c) {
      grad.b2[c] += dlogits[c];
      for (int j = 0; j < kHidden; ++j) {
        grad.w2[j][c] += h[j] * dlogits[c];
        dh[j] += p.w2[j][c] * dlogits[c];
      }
    }
    for (int j = 0; j < kHidden; ++j) {
      double dpre = pre[j] > 0 ? dh[j] : 0.0;
      grad.b1[j] += dpre;
      for (int i = 0; i < kPixels; ++i)
        grad.w1[i][j] += x[n][i] * dpre;
    }
  }
  return loss;
}

class TrainStepTest : public ::testing::Test {
protected:
  TrainStepTest() { context.loadDialect<TesselDialect, func::FuncDialect>(); }

  /// Runs tessel-autodiff with `options`, @init, then @train_step on the
  /// fixed batch; returns the step's results.
  std::vector<PerRank> step(const TesselAutodiffOptions &options,
                            Parameters &initial) {
    module = parseSourceString<ModuleOp>(kModel, &context);
    EXPECT_TRUE(module);
    PassManager pm(&context);
    pm.addPass(createTesselAutodiff(options));
    EXPECT_TRUE(succeeded(pm.run(*module)));
    auto init = module->lookupSymbol<func::FuncOp>("init");
    auto train = module->lookupSymbol<func::FuncOp>("train_step");
    FailureOr<std::vector<PerRank>> state = ::tessel::eval::interpret(init, {});
    EXPECT_TRUE(succeeded(state));
    initial.w1 = toMatrix((*state)[0][0], kPixels, kHidden);
    initial.b1 = (*state)[1][0].data;
    initial.w2 = toMatrix((*state)[2][0], kHidden, kClasses);
    initial.b2 = (*state)[3][0].data;

    std::vector<PerRank> inputs = *state;
    ref::TensorSpec imageSpec{
        {"batch", "pixels"}, {kBatch, kPixels}, ref::ElementType::F64};
    inputs.push_back({ref::Tensor(imageSpec, flat(images))});
    ref::TensorSpec labelSpec{{"batch"}, {kBatch}, ref::ElementType::I32};
    inputs.push_back({ref::Tensor(
        labelSpec, std::vector<double>(labels.begin(), labels.end()))});
    ref::TensorSpec scalar{{}, {}, ref::ElementType::F64};
    inputs.push_back({ref::Tensor(scalar, learningRate)});
    FailureOr<std::vector<PerRank>> results =
        ::tessel::eval::interpret(train, inputs);
    EXPECT_TRUE(succeeded(results));
    return *results;
  }

  /// The L2 norm of all gradients together.
  static double globalNorm(const Parameters &grad) {
    double squares = 0;
    for (const std::vector<double> &values :
         {flat(grad.w1), grad.b1, flat(grad.w2), grad.b2})
      for (double g : values)
        squares += g * g;
    return std::sqrt(squares);
  }

  static std::vector<double> flat(const Matrix &m) {
    std::vector<double> values;
    for (const auto &row : m)
      values.insert(values.end(), row.begin(), row.end());
    return values;
  }

  static void expectNear(const ref::Tensor &actual,
                         const std::vector<double> &expected) {
    ASSERT_EQ(actual.data.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i)
      EXPECT_NEAR(actual.data[i], expected[i], 1e-12) << "element " << i;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  Matrix images = {{0.5, -1.0, 0.25, 2.0, -0.5},
                   {1.5, 0.0, -0.75, 0.5, 1.0},
                   {-0.25, 0.5, 1.0, -1.5, 0.75},
                   {2.0, -0.5, 0.5, 0.0, -1.0}};
  std::vector<int> labels = {2, 0, 1, 2};
  double learningRate = 0.125;
};

TEST_F(TrainStepTest, SgdStepMatchesTheStepWorkedByHand) {
  TesselAutodiffOptions options;
  Parameters p, grad;
  std::vector<PerRank> results = step(options, p);
  ASSERT_EQ(results.size(), 6u); // w1, b1, w2, b2, loss, gradient_norm
  double loss = lossAndGradients(p, images, labels, grad);
  EXPECT_NEAR(results[4][0].data[0], loss, 1e-12);
  EXPECT_NEAR(results[5][0].data[0], globalNorm(grad), 1e-12);
  auto updated = [&](const std::vector<double> &value,
                     const std::vector<double> &gradient) {
    std::vector<double> result;
    for (size_t i = 0; i < value.size(); ++i)
      result.push_back(value[i] - learningRate * gradient[i]);
    return result;
  };
  expectNear(results[0][0], updated(flat(p.w1), flat(grad.w1)));
  expectNear(results[1][0], updated(p.b1, grad.b1));
  expectNear(results[2][0], updated(flat(p.w2), flat(grad.w2)));
  expectNear(results[3][0], updated(p.b2, grad.b2));
}

// Clipping scales every gradient by clip / norm when the global norm is
// larger; the step returns the norm before clipping, which the driver checks
// for NaN and infinity.
TEST_F(TrainStepTest, ClippedStepScalesByTheNormItReturns) {
  Parameters p, grad;
  TesselAutodiffOptions plain;
  step(plain, p);
  lossAndGradients(p, images, labels, grad);
  double norm = globalNorm(grad);
  TesselAutodiffOptions options;
  options.clipNorm = norm / 4;
  std::vector<PerRank> results = step(options, p);
  ASSERT_EQ(results.size(), 6u);
  EXPECT_NEAR(results[5][0].data[0], norm, 1e-12);
  std::vector<double> clipped;
  for (size_t i = 0; i < p.b2.size(); ++i)
    clipped.push_back(p.b2[i] - learningRate * grad.b2[i] / 4);
  expectNear(results[3][0], clipped);
}

// On the first step from zero state, Adam's bias-corrected moments are g and
// g^2, so each element moves by lr * g / (|g| + epsilon).
TEST_F(TrainStepTest, FirstAdamStepMovesEachWeightByTheLearningRate) {
  TesselAutodiffOptions options;
  options.optimizer = "adam";
  Parameters p, grad;
  std::vector<PerRank> results = step(options, p);
  // w1, b1, w2, b2, (m, v) per parameter, step, loss, gradient_norm.
  ASSERT_EQ(results.size(), 4u + 8u + 3u);
  lossAndGradients(p, images, labels, grad);
  auto updated = [&](const std::vector<double> &value,
                     const std::vector<double> &gradient) {
    std::vector<double> result;
    for (size_t i = 0; i < value.size(); ++i)
      result.push_back(value[i] - learningRate * gradient[i] /
                                      (std::abs(gradient[i]) + 1e-8));
    return result;
  };
  expectNear(results[0][0], updated(flat(p.w1), flat(grad.w1)));
  expectNear(results[1][0], updated(p.b1, grad.b1));
  expectNear(results[2][0], updated(flat(p.w2), flat(grad.w2)));
  expectNear(results[3][0], updated(p.b2, grad.b2));
  // The first moment of w1 is (1 - beta1) g; the step count is 1.
  std::vector<double> firstMoment;
  for (double g : flat(grad.w1))
    firstMoment.push_back(0.1 * g);
  expectNear(results[4][0], firstMoment);
  EXPECT_EQ(results[12][0].data[0], 1.0);
}

} // namespace
