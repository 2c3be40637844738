//===- ElementTypes.h - change the precision of a program --------*- C++
//-*-===//
//
// Rewrites the float element type of every tessel tensor under an op:
// results, block arguments, constants and function signatures. The gradient
// checker widens f32 models to f64 with it, and mixed precision narrows a
// model's computation to bf16 or f16.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_PASSES_ELEMENTTYPES_H
#define TESSEL_PASSES_ELEMENTTYPES_H

#include "dialect/TesselDialect.h"

namespace mlir::tessel {

/// Changes every tensor of element type `from` under `root` (itself
/// included) to element type `to`, constants' values included.
void retypeFloats(Operation *root, FloatType from, FloatType to);

/// Creates, after `lossFunction`, a copy named `name` that computes in
/// `computeType`: its arguments and parameters keep their f32 type and are
/// cast to `computeType` where they are used, every op computes in
/// `computeType`, and the loss is cast back to f32. Differentiating the copy
/// gives f32 gradients of f32 (master) parameters through those casts.
func::FuncOp createMixedPrecisionCopy(func::FuncOp lossFunction,
                                      FloatType computeType, StringRef name);

} // namespace mlir::tessel

#endif // TESSEL_PASSES_ELEMENTTYPES_H
