//===- InlineLayers.h - layers as functions ---------------------*- C++ -*-===//
//
// What tessel-inline-layers shares with the passes and tools that meet
// parameters: one name is one weight.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_PASSES_INLINELAYERS_H
#define TESSEL_PASSES_INLINELAYERS_H

#include "dialect/TesselDialect.h"

namespace mlir::tessel {

/// Makes the `tessel.parameter` ops of `func` that have the same name one
/// shared weight: every later one is replaced by the first and erased. They
/// must agree on type, initializer, scale, seed (and `block of` type) and
/// sit in the same block; otherwise an error at the later op names the
/// parameter and what differs, with a note at the first, and both stay.
LogicalResult mergeSharedParameters(func::FuncOp func);

/// Whether `func` (or, for the second, any function of `module`) calls a
/// function, i.e. has a `func.call` that tessel-inline-layers would inline.
bool hasCalls(Operation *root);

} // namespace mlir::tessel

#endif // TESSEL_PASSES_INLINELAYERS_H
