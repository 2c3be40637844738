//===- DimensionChecks.h - verifier helpers over named dims ------*- C++
//-*-===//
//
// Checks that several ops' verifiers share. Each emits an op error that
// names the offending dimension and returns failure.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_DIMENSIONCHECKS_H
#define TESSEL_DIALECT_DIMENSIONCHECKS_H

#include "dialect/TesselDialect.h"

namespace mlir::tessel {

/// Checks broadcasting by name: every operand dimension is a result
/// dimension of the same size, and every result dimension comes from some
/// operand.
LogicalResult verifyBroadcastByName(Operation *op,
                                    ArrayRef<NamedTensorType> operands,
                                    NamedTensorType result);

/// Checks that `result` has the dimensions and element type of `input`;
/// only their layouts may differ.
LogicalResult verifySameShape(Operation *op, NamedTensorType input,
                              NamedTensorType result);

/// Checks that all `types` have the element type of the first one.
LogicalResult verifySameElementType(Operation *op,
                                    ArrayRef<NamedTensorType> types);

/// Checks that `type` holds floats; `what` names the value in the message.
LogicalResult verifyFloatElements(Operation *op, NamedTensorType type,
                                  StringRef what);

/// Checks that `type` holds integers; `what` names the value in the message.
LogicalResult verifyIntegerElements(Operation *op, NamedTensorType type,
                                    StringRef what);

/// Checks that `type` has the dimension `dim`; `what` names the value.
LogicalResult verifyHasDim(Operation *op, NamedTensorType type, StringRef dim,
                           StringRef what);

/// Checks that `type` has exactly the dimensions (by name, any order) and
/// sizes in `expected`; `what` names the value in the message.
LogicalResult verifyDims(Operation *op, NamedTensorType type,
                         ArrayRef<std::pair<StringAttr, int64_t>> expected,
                         StringRef what);

/// Checks that `result` has exactly the dimensions (by name, any order) and
/// sizes in `expected`.
LogicalResult
verifyResultDims(Operation *op, NamedTensorType result,
                 ArrayRef<std::pair<StringAttr, int64_t>> expected);

/// Returns `type`'s (name, size) pairs with `dim` changed to `newSize`.
SmallVector<std::pair<StringAttr, int64_t>>
dimsWithSize(NamedTensorType type, StringRef dim, int64_t newSize);

} // namespace mlir::tessel

#endif // TESSEL_DIALECT_DIMENSIONCHECKS_H
