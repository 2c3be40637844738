//===- MicrobatchDims.h - the dimensions micro-batches cut ------*- C++ -*-===//
//
// Cutting a batch into micro-batches resizes its dimension, and with it
// every dimension that holds the batch's elements under another name: a
// rename or a reshape may give the batch a new name (a mixture of experts
// calls it `group` on the experts' side), or merge it with the dimensions
// inside it (`[batch, seq]` flattened into `tokens`), and that dimension
// must shrink with it or the reshape back no longer holds the same
// elements. A new batch size for the whole step (tessel-resize-dims'
// batch-size) resizes the same dimensions.
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
  /// What else the model's author may do where a reshape cannot be
  /// followed, after "reshape the other dimensions only, or ".
  llvm::StringRef otherwise;
};

/// A dimension that holds the batch's elements: its size is always
/// `factor` times the batch's (1 for the batch and its renamings; seq's
/// size for `tokens`, the batch merged with `seq` inside it).
struct BatchCarrier {
  std::string name;
  int64_t factor;
};

/// The dimensions that hold the elements of batch dimension `batchDim` (of
/// size `batchSize`) in `module`, each with its factor: `batchDim` itself
/// (factor 1) and, to a fixed point, every dimension that a `tessel.rename`
/// gives its position (same factor), or that a `tessel.reshape` makes the
/// outermost dimension of the other side of the reshape group where a
/// carried dimension is the outermost of its side (dimensions of size 1
/// aside), in either direction: the dimensions inside it keep their sizes,
/// so its size scales with the batch, by the carried dimension's factor
/// times their product over the other side's (`[batch:8, seq:16]` ->
/// `[tokens:128]` gives `tokens` factor 16, and the reshape back gives
/// `batch` factor 1 again). Fails, after an error at the op, where a carried
/// dimension is not the outermost of its group (`[seq, batch]` -> `tokens`
/// would interleave the batch), where the other side's outermost dimension
/// would hold a fraction of an example (a split of the batch itself, `group:8`
/// -> `[pairs:4, pair:2]`), or where a dimension found so has a size other
/// than its factor times the batch's (one name, two factors); the errors
/// speak as `resizer` says.
FailureOr<SmallVector<BatchCarrier>>
dimsCarryingBatch(ModuleOp module, llvm::StringRef batchDim, int64_t batchSize,
                  const BatchResizer &resizer);

} // namespace mlir::tessel

#endif // TESSEL_PASSES_MICROBATCHDIMS_H
