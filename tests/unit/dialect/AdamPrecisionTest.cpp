//===- AdamPrecisionTest.cpp - tessel's Adam steps against PyTorch's ------===//
//
// Runs several Adam and AdamW steps of an f32 model through tessel-autodiff's
// @train_step (with the reference evaluator, whose kernels round every result
// to f32 as the runtime's do) and checks each step against PyTorch's update
// (torch.optim.Adam / AdamW, single-tensor path), written out here in f64.
// PyTorch computes the bias corrections 1 - beta^t on the host in double;
// computing them from f32(beta2) = 0.99900001287 instead would put every
// step about 6e-6 off, which the tolerance here (1e-6 of the learning rate)
// catches.
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

constexpr int kSize = 8;

// loss = sum(0.5 * x * w^2): the gradient x * w changes every step, so the
// moments are not simply multiples of one gradient.
constexpr const char *kModel = R"mlir(
func.func @forward(%x: !tessel.tensor<[k:8], f32> {tessel.name = "x"})
    -> !tessel.tensor<[], f32> {
  %w = tessel.parameter "w" normal scale 1.0 seed 11 : !tessel.tensor<[k:8], f32>
  %half = tessel.constant 5.000000e-01 : f32 -> !tessel.tensor<[], f32>
  %ww = tessel.mul %w, %w : !tessel.tensor<[k:8], f32>, !tessel.tensor<[k:8], f32>
      -> !tessel.tensor<[k:8], f32>
  %xww = tessel.mul %x, %ww : !tessel.tensor<[k:8], f32>, !tessel.tensor<[k:8], f32>
      -> !tessel.tensor<[k:8], f32>
  %scaled = tessel.mul %xww, %half : !tessel.tensor<[k:8], f32>, !tessel.tensor<[], f32>
      -> !tessel.tensor<[k:8], f32>
  %loss = tessel.reduce sum %scaled : !tessel.tensor<[k:8], f32> -> !tessel.tensor<[], f32>
  return %loss : !tessel.tensor<[], f32>
}
)mlir";

/// One parameter's state, in f64.
struct AdamState {
  std::vector<double> w, m, v;
};

/// One step of torch.optim.Adam (`decoupled` false) or AdamW (true) from
/// `state` at step count `t` (from 1), as PyTorch's _single_tensor_adam
/// computes it: the gradient, (Adam) plus weight_decay * w; (AdamW) w *= 1 -
/// lr * weight_decay; the moments; then w -= lr / (1 - beta1^t) * m /
/// (sqrt(v) / sqrt(1 - beta2^t) + eps).
AdamState torchAdamStep(const AdamState &state, const std::vector<double> &x,
                        int t, double lr, double beta1, double beta2,
                        double eps, double weightDecay, bool decoupled) {
  AdamState next = state;
  double correction1 = 1 - std::pow(beta1, t);
  double correction2 = 1 - std::pow(beta2, t);
  for (int i = 0; i < kSize; ++i) {
    double w = state.w[i];
    double g = x[i] * w;
    if (decoupled)
      w *= 1 - lr * weightDecay;
    else
      g += weightDecay * w;
    next.m[i] = beta1 * state.m[i] + (1 - beta1) * g;
    next.v[i] = beta2 * state.v[i] + (1 - beta2) * g * g;
    double denominator = std::sqrt(next.v[i]) / std::sqrt(correction2) + eps;
    next.w[i] = w - lr / correction1 * next.m[i] / denominator;
  }
  return next;
}

class AdamPrecisionTest : public ::testing::Test {
protected:
  AdamPrecisionTest() {
    context.loadDialect<TesselDialect, func::FuncDialect>();
  }

  /// Trains `steps` steps with tessel's step and, from the same f32 state
  /// before each step, PyTorch's step in f64; returns the largest
  /// difference of the new weights, in units of the learning rate.
  double largestDeviation(const char *optimizer, double weightDecay,
                          int steps) {
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(kModel, &context);
    EXPECT_TRUE(module);
    TesselAutodiffOptions options;
    options.optimizer = optimizer;
    options.weightDecay = weightDecay;
    PassManager pm(&context);
    pm.addPass(createTesselAutodiff(options));
    EXPECT_TRUE(succeeded(pm.run(*module)));
    auto init = module->lookupSymbol<func::FuncOp>("init");
    auto train = module->lookupSymbol<func::FuncOp>("train_step");
    // init: w, w.adam_m, w.adam_v, step.
    FailureOr<std::vector<PerRank>> state = ::tessel::eval::interpret(init, {});
    EXPECT_TRUE(succeeded(state));
    if (failed(state) || state->size() != 4u)
      return INFINITY;
    std::vector<double> x = {0.75, -1.5, 2.0, 0.5, -0.25, 1.25, 3.0, -2.5};
    ref::TensorSpec vector{{"k"}, {kSize}, ref::ElementType::F32};
    ref::TensorSpec scalar{{}, {}, ref::ElementType::F32};
    double worst = 0;
    for (int t = 1; t <= steps; ++t) {
      std::vector<PerRank> inputs = *state;
      inputs.push_back({ref::Tensor(vector, x)});
      inputs.push_back({ref::Tensor(scalar, kLearningRate)});
      FailureOr<std::vector<PerRank>> results =
          ::tessel::eval::interpret(train, inputs);
      EXPECT_TRUE(succeeded(results));
      if (failed(results))
        return INFINITY;
      EXPECT_EQ((*results)[3][0].data[0], t) << "the step count";
      AdamState before{(*state)[0][0].data, (*state)[1][0].data,
                       (*state)[2][0].data};
      AdamState expected =
          torchAdamStep(before, x, t, kLearningRate, 0.9, 0.999, 1e-8,
                        weightDecay, std::string(optimizer) == "adamw");
      const std::vector<double> &actual = (*results)[0][0].data;
      for (int i = 0; i < kSize; ++i)
        worst = std::max(worst,
                         std::abs(actual[i] - expected.w[i]) / kLearningRate);
      // The next step starts from tessel's own f32 state (w, m, v, step).
      state->assign(results->begin(), results->begin() + 4);
    }
    return worst;
  }

  // Large enough that a weight moves by about its own size each step, so
  // the f32 rounding of the new weight stays far below the tolerance.
  static constexpr double kLearningRate = 0.5;
  MLIRContext context;
};

// f32 arithmetic puts a step a few 1e-8 of the learning rate off PyTorch's
// f64 step; a bias correction computed from f32(0.999) puts it about 6e-6
// off.
TEST_F(AdamPrecisionTest, AdamStepsMatchPyTorchsFormulas) {
  EXPECT_LT(largestDeviation("adam", 0.0, 6), 1e-6);
}

TEST_F(AdamPrecisionTest, AdamWithL2PenaltyStepsMatchPyTorchsFormulas) {
  EXPECT_LT(largestDeviation("adam", 0.01, 6), 1e-6);
}

TEST_F(AdamPrecisionTest, AdamWStepsMatchPyTorchsFormulas) {
  EXPECT_LT(largestDeviation("adamw", 0.1, 6), 1e-6);
}

} // namespace
