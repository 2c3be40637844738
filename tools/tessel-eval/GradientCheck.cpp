//===- GradientCheck.cpp - gradients against finite differences -----------===//

#include "tools/tessel-eval/GradientCheck.h"

#include "evaluator/Inputs.h"
#include "evaluator/Interpreter.h"
#include "passes/Differentiate.h"
#include "passes/ElementTypes.h"
#include "passes/InlineLayers.h"

#include "llvm/Support/Format.h"

using namespace mlir;
using namespace mlir::tessel;
namespace ref = ::tessel::ref;
using ::tessel::eval::PerRank;

namespace {

/// Evaluates the loss (result 0 of `func`) on `inputs`.
FailureOr<double> lossOn(func::FuncOp func,
                         const std::vector<PerRank> &inputs) {
  FailureOr<std::vector<PerRank>> results =
      ::tessel::eval::interpret(func, inputs);
  if (failed(results))
    return failure();
  return (*results)[0][0].data[0];
}

} // namespace

void mlir::tessel::promoteToF64(ModuleOp module) {
  Builder builder(module.getContext());
  retypeFloats(module, builder.getF32Type(), builder.getF64Type());
}

LogicalResult
mlir::tessel::checkGradients(func::FuncOp lossFunction,
                             const GradientCheckOptions &options) {
  // Parameters declared twice under one name are one weight, checked once.
  if (failed(mergeSharedParameters(lossFunction)))
    return failure();
  FailureOr<func::FuncOp> gradientFunction = createGradientFunction(
      lossFunction, (lossFunction.getSymName() + "_gradients").str());
  if (failed(gradientFunction))
    return failure();
  FailureOr<func::FuncOp> lossOnly = createGradientFunction(
      lossFunction, (lossFunction.getSymName() + "_loss").str(),
      /*withGradients=*/false);
  if (failed(lossOnly))
    return failure();

  FailureOr<std::vector<PerRank>> inputs = ::tessel::eval::buildInputs(
      *gradientFunction, options.files, options.seed);
  if (failed(inputs))
    return failure();
  FailureOr<std::vector<PerRank>> results =
      ::tessel::eval::interpret(*gradientFunction, *inputs);
  if (failed(results))
    return failure();

  // Results: the loss, then one gradient per float argument in order.
  unsigned resultIndex = 1;
  bool allPassed = true;
  for (unsigned index = 0; index < gradientFunction->getNumArguments();
       ++index) {
    ref::Tensor &input = (*inputs)[index][0];
    if (!ref::isFloatType(input.spec.type))
      continue;
    const ref::Tensor &gradient = (*results)[resultIndex++][0];
    std::string name = ::tessel::eval::argumentName(*gradientFunction, index);
    int64_t count = input.numElements();
    int64_t checked = std::min<int64_t>(count, options.samples);
    double worst = 0;
    for (int64_t sample = 0; sample < checked; ++sample) {
      // Spread the samples over the whole tensor.
      int64_t element = sample * count / checked;
      double original = input.data[element];
      input.data[element] = original + options.step;
      FailureOr<double> above = lossOn(*lossOnly, *inputs);
      input.data[element] = original - options.step;
      FailureOr<double> below = lossOn(*lossOnly, *inputs);
      input.data[element] = original;
      if (failed(above) || failed(below))
        return failure();
      double numeric = (*above - *below) / (2 * options.step);
      double analytic = gradient.data[element];
      double error = std::abs(numeric - analytic) /
                     std::max({1.0, std::abs(numeric), std::abs(analytic)});
      worst = std::max(worst, error);
      if (!(error <= options.tolerance)) {
        llvm::errs() << "gradient of '" << name << "' at element " << element
                     << ": autodiff gives " << llvm::format("%.10g", analytic)
                     << ", finite differences "
                     << llvm::format("%.10g", numeric) << "\n";
        allPassed = false;
        break;
      }
    }
    llvm::outs() << "gradient " << name << ": " << checked << " of " << count
                 << " elements checked, largest error "
                 << llvm::format("%.3g", worst) << "\n";
  }
  (*gradientFunction).erase();
  (*lossOnly).erase();
  if (!allPassed)
    return failure();
  llvm::outs() << "gradient check passed (tolerance "
               << llvm::format("%g", options.tolerance) << ")\n";
  return success();
}
