//===- TesselDialect.h - the tessel dialect ---------------------*- C++ -*-===//
//
// Includes everything a user of the dialect needs: the dialect, its types,
// attributes, enumerations and ops.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSELDIALECT_H
#define TESSEL_DIALECT_TESSELDIALECT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialect/PartitionRule.h"
#include "dialect/TesselDialect.h.inc"
#include "dialect/TesselEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialect/TesselAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialect/TesselTypes.h.inc"

#include "dialect/TesselInterfaces.h.inc"

#define GET_OP_CLASSES
#include "dialect/TesselModelOps.h.inc"

#define GET_OP_CLASSES
#include "dialect/TesselMeshOps.h.inc"

#define GET_OP_CLASSES
#include "dialect/TesselFusedOps.h.inc"

namespace mlir::tessel {

/// Returns the mesh of the module that encloses `op`, or a null attribute.
MeshAttr getEnclosingMesh(Operation *op);

/// The role of a training step's argument, set by tessel-autodiff:
/// "parameter" or "optimizer_state" (other arguments are data). Tools read
/// it to tell the model's state from its inputs.
constexpr llvm::StringLiteral kRoleAttrName = "tessel.role";

/// Registers the tessel dialect's DialectInlinerInterface (every tessel op
/// may be inlined) with `dialect`; called by TesselDialect::initialize.
void addTesselInlinerInterface(TesselDialect &dialect);

/// Whether `op` may be part of a tessel.fused body: an element-wise op
/// (unary, binary, compare, select, cast) or a splat constant.
bool isFusibleElementwiseOp(Operation *op);

/// Whether a tessel.fused body may end in `reduce`: a sum or mean that
/// keeps a run of its input's dimensions in their order (none of them,
/// into a scalar, included).
bool isFusibleSum(ReduceOp reduce);

/// The sum (or mean) that `fused`'s body ends in (the reduce whose result
/// it yields), or null where it yields an element-wise value.
ReduceOp getFusedSum(FusedOp fused);

/// Whether both types have the same dimensions with the same sizes, in any
/// order (the element-wise ops of a fused body have their result's).
bool haveSameDimensionSet(NamedTensorType a, NamedTensorType b);

/// Returns true if `type` is an element type a tessel tensor may hold.
bool isSupportedElementType(Type type);

} // namespace mlir::tessel

#endif // TESSEL_DIALECT_TESSELDIALECT_H
