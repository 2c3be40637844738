//===- GradientCheck.h - gradients against finite differences ---*- C++ -*-===//
//
// Checks the gradients tessel-autodiff builds for a loss function against
// central finite differences of the loss, both run by the reference
// evaluator.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TOOLS_TESSEL_EVAL_GRADIENTCHECK_H
#define TESSEL_TOOLS_TESSEL_EVAL_GRADIENTCHECK_H

#include "dialect/TesselDialect.h"

#include "mlir/IR/BuiltinOps.h"

#include <map>

namespace mlir::tessel {

struct GradientCheckOptions {
  /// Elements checked per input; an input with more is sampled evenly.
  unsigned samples = 16;
  /// The finite-difference step.
  double step = 1e-6;
  /// |fd - ad| <= tolerance * max(1, |fd|, |ad|) for every checked element.
  double tolerance = 1e-6;
  /// Inputs from these .npy files; the others random with this seed.
  std::map<std::string, std::string> files;
  uint64_t seed = 0;
};

/// Converts every f32 tensor in `module` to f64 (types, constants), so that
/// finite differences of an f32 model are not drowned in rounding.
void promoteToF64(ModuleOp module);

/// Differentiates `lossFunction` with respect to its parameters and float
/// arguments, compares every gradient with central differences of the loss,
/// and prints one line per input. Returns failure, after printing the
/// element that disagrees, if a gradient is wrong or the function cannot be
/// differentiated.
LogicalResult checkGradients(func::FuncOp lossFunction,
                             const GradientCheckOptions &options);

} // namespace mlir::tessel

#endif // TESSEL_TOOLS_TESSEL_EVAL_GRADIENTCHECK_H
