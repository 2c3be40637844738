//===- MicrobatchDims.h - the dimensions micro-batches cut ------*- C++ -*-===//
//
// Cutting a batch into micro-batches resizes its dimension, and with it
// every dimension that holds the batch's elements under another name: a
// rename or a reshape may give the batch a new name (a mixture of experts
// calls it `group` on the experts' side), and that dimension must shrink
// with it or the reshape back no longer holds the same elements. A new
// batch size for the whole step (tessel-resize-dims' batch-size) resizes
// the same dimensions.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_PASSES_MICROBATCHDIMS_H
#define TESSEL_PASSES_MICROBATCHDIMS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::tessel {

/// How the errors of dimsCarryingBatch name what resizes the batch.
struct BatchResizer {
  /// Starts each error: "pipeline", "tessel-resize-dims".
  llvm::StringRef errorPrefix;
  /// What resizes the batch: "micro-batches", "the new batch size".
  llvm::StringRef resizer;
  /// What it does to the batch: "cut", "resize".
  llvm::StringRef verb;
  /// What else the model's author may do where a reshape merges or splits
  /// the batch, after "reshape the other dimensions only, or ".
  llvm::StringRef otherwise;
};

/// The names of the dimensions that hold the elements of batch dimension
/// `batchDim` (of size `batchSize`) in `module`: `batchDim` itself and, to a
/// fixed point, every dimension that a `tessel.rename` gives its position or
/// that a `tessel.reshape` keeps as a dimension of its own (the only
/// dimension other than size-1 ones on both sides of its reshape group), in
/// either direction. Fails, after an error at the op, where a reshape
/// merges or splits such a dimension with others (its micro-batch would
/// not be a dimension of its own), or where a dimension found so has a size
/// other than the batch's; the errors speak as `resizer` says.
FailureOr<SmallVector<std::string>>
dimsCarryingBatch(ModuleOp module, llvm::StringRef batchDim, int64_t batchSize,
                  const BatchResizer &resizer);

} // namespace mlir::tessel

#endif // TESSEL_PASSES_MICROBATCHDIMS_H
