//===- Differentiate.h - reverse-mode differentiation of a loss -*- C++ -*-===//
//
// Builds the gradient of a function that returns a scalar loss. tessel's
// models declare their trainable parameters with `tessel.parameter`; the
// function's arguments are the data. The functions built here take the
// parameters as arguments instead, so that a training step can feed them
// and a gradient check can perturb them.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_PASSES_DIFFERENTIATE_H
#define TESSEL_PASSES_DIFFERENTIATE_H

#include "dialect/TesselDialect.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::tessel {

/// The parameters of a loss function, in the order of their ops.
SmallVector<ParameterOp> parametersOf(func::FuncOp lossFunction);

/// Checks that `lossFunction` can be differentiated: it returns one rank-0
/// float tensor and has no layouts yet.
/// Emits an error at the function otherwise.
LogicalResult verifyLossFunction(func::FuncOp lossFunction);

/// Replaces every tessel.parameter of `func` by a new leading argument named
/// after the parameter, in the order of the ops, so that the function runs
/// on the values a training loop holds rather than on fresh initial ones.
void moveParametersToArguments(func::FuncOp func);

/// Replaces every tessel.update_buffer of `func` by the value it yields (a
/// buffer's update only matters in a training step), and erases what only
/// computed those values.
void eraseBufferUpdates(func::FuncOp func);

/// Erases the ops of `func` whose results nobody uses, last first, so that
/// chains of dead gradient ops go in one sweep.
void eraseDeadOps(func::FuncOp func);

/// Creates, after `lossFunction` in its module, the function `name` with
/// arguments (parameters..., lossFunction's arguments...) that returns the
/// loss and then, when `withGradients` is set, d loss / d each parameter
/// followed by d loss / d each float argument. Parameters that the loss does
/// not depend on get a zero gradient. Argument and result names
/// (`tessel.name`) are the parameters' names, the original arguments' names,
/// "loss" and "<name>.gradient". Emits an error at the first op that cannot
/// be differentiated. With `seedName`, the function takes one more argument,
/// last, of the loss's type and named `seedName`, from which the backward
/// pass starts instead of 1: the gradients are those of loss * seed (a
/// loss scale), the loss returned is the loss.
FailureOr<func::FuncOp> createGradientFunction(func::FuncOp lossFunction,
                                               StringRef name,
                                               bool withGradients = true,
                                               StringRef seedName = {});

} // namespace mlir::tessel

#endif // TESSEL_PASSES_DIFFERENTIATE_H
