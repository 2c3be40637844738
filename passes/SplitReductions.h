//===- SplitReductions.h - softmax and cross-entropy on split classes -*- C++
//-*-===//
//
// Softmax, log_softmax, softmax cross-entropy and layer_norm along
// dimensions that are split over mesh axes, computed on the ranks' blocks
// without gathering them: local maxima and sums, combined by all_reduce.
// Only the reduced values travel (and for top_k, each block's top k).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_PASSES_SPLITREDUCTIONS_H
#define TESSEL_PASSES_SPLITREDUCTIONS_H

#include "dialect/TesselDialect.h"

#include "mlir/IR/Builders.h"

namespace mlir::tessel {

/// Builds softmax (or log_softmax) of the block `x` along `dim`, which is
/// split over `axes`; returns a block of x's type.
Value buildSplitSoftmax(OpBuilder &builder, Location loc, Value x,
                        StringRef dim, ArrayRef<StringAttr> axes,
                        bool logarithm);

/// Builds softmax cross-entropy of the block `logits` against the block
/// `labels`, along the class dimension `dim` of global size `classes`,
/// split over `axes`. Each rank picks the logit of a label from its own
/// classes: it compares the labels with the global indices of its classes
/// (an iota over all classes, sliced to the rank's block).
Value buildSplitCrossEntropy(OpBuilder &builder, Location loc, Value logits,
                             Value labels, StringRef dim, int64_t classes,
                             ArrayRef<StringAttr> axes);

/// Builds layer_norm of the block `x` over `dims`, some of them split over
/// `axes`, where `count` is the number of elements normalised together in
/// the global tensor: the mean and the variance are sums across the ranks.
Value buildSplitLayerNorm(OpBuilder &builder, Location loc, Value x,
                          ArrayRef<StringRef> dims, ArrayRef<StringAttr> axes,
                          int64_t count, double epsilon);

/// Builds an embedding lookup from the block `table`, whose lookup
/// dimension `dim` (global size `rows`) is split over `axes`: each rank
/// looks up the ids that fall in its rows and contributes zeros for the
/// others, and an all_reduce sum assembles the rows.
Value buildSplitGather(OpBuilder &builder, Location loc, Value table, Value ids,
                       StringRef dim, int64_t rows, ArrayRef<StringAttr> axes,
                       Type resultType);

/// Builds top_k (values, or with `indices` the global indices) of the block
/// `x` along `dim` (global size `size`, split over `axes`, no padding) into
/// a block of `resultType`, in two rounds: each rank takes the top
/// min(k, block) of its block along `outDim`, the candidates of all blocks
/// are gathered along it, and the top k of them taken again. The global top
/// k are among the candidates, since no block holds more than its own top
/// min(k, block) of them; the gathered candidates are in block order and
/// each block's equal values in index order, so the second round breaks
/// ties by global index as one rank does. The indices travel with the
/// values (each block's offset added) and are picked by the positions the
/// second round chooses.
Value buildSplitTopK(OpBuilder &builder, Location loc, Value x, StringRef dim,
                     int64_t size, int64_t k, StringRef outDim, bool indices,
                     ArrayRef<StringAttr> axes, NamedTensorType resultType);

} // namespace mlir::tessel

#endif // TESSEL_PASSES_SPLITREDUCTIONS_H
