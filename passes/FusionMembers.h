//===- FusionMembers.h - What the runtime's fused kernel computes -*- C++
//-*-===//
//
// The ops and values that tessel-fuse-elementwise groups into tessel.fused
// bodies and that tessel-merge-fused-outputs merges: the element-wise ops
// the runtime's fused kernel computes, in f32 registers, on f32, bf16 and
// f16 values with i1 conditions; and the building of a fused op of them,
// which both passes do.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_PASSES_FUSIONMEMBERS_H
#define TESSEL_PASSES_FUSIONMEMBERS_H

#include "dialect/TesselDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

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

/// Whether the runtime's fused kernel can end a body in `reduce`: a sum or
/// mean of a float value (f32, bf16 or f16) into its own type that keeps
/// a run of its dims in order.
bool isKernelSum(ReduceOp reduce);

/// Whether `value` is a splat constant's, which a fused body holds as a
/// constant of its own rather than reading it as an input.
bool isSplatConstant(Value value);

/// A tessel.fused op of `types` on `inputs` in `at`'s place, with `at`'s
/// tessel.name; `builder` is left at the start of its body, whose
/// arguments `inputs` map to in `mapping`.
FusedOp startFusedOp(OpBuilder &builder, Operation *at, TypeRange types,
                     ArrayRef<Value> inputs, IRMapping &mapping);

/// Replaces `members`, fusion members in program order whose values are
/// used only by later members but the last's, and `sum` (null, or a sum of
/// the last member's value) by one fused op where the last of them stood.
/// Its inputs are the members' operands from outside, splat constants
/// aside, which the body holds as copies.
FusedOp fuseOps(ArrayRef<Operation *> members, Operation *sum);

} // namespace mlir::tessel

#endif // TESSEL_PASSES_FUSIONMEMBERS_H
