//===- FusionMembers.h - What the runtime's fused kernel computes -*- C++
//-*-===//
//
// The ops and values that tessel-fuse-elementwise groups into tessel.fused
// bodies and that tessel-merge-fused-outputs merges: the element-wise ops
// the runtime's fused kernel computes, in f32 registers, on f32, bf16 and
// f16 values with i1 conditions.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_PASSES_FUSIONMEMBERS_H
#define TESSEL_PASSES_FUSIONMEMBERS_H

#include "dialect/TesselDialect.h"

namespace mlir::tessel {

/// f32, bf16 or f16: the types the runtime's fused kernel computes.
bool isComputedFloat(Value value);

/// bf16 or f16.
bool isNarrowFloat(Value value);

/// Whether the runtime's fused kernel computes `op`: an element-wise op
/// or a cast on float values (a comparison of floats into i1, a select on
/// an i1 condition). Constants are not members: they are copied into
/// bodies.
bool isFusionMember(Operation *op);

/// Whether `value` is a splat constant's, which a fused body holds as a
/// constant of its own rather than reading it as an input.
bool isSplatConstant(Value value);

} // namespace mlir::tessel

#endif // TESSEL_PASSES_FUSIONMEMBERS_H
