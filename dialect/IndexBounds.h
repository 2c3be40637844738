//===- IndexBounds.h - the range an integer tensor indexes ------*- C++ -*-===//
//
// Integer inputs of a model are usually indices: class labels, token ids.
// The ops that read them say what they index, so the valid range of an
// input follows from the program. A partitioned program records it on its
// arguments (`tessel.index_bound`), because its ops index blocks.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_INDEXBOUNDS_H
#define TESSEL_DIALECT_INDEXBOUNDS_H

#include "dialect/TesselDialect.h"

namespace mlir::tessel {

/// The name of the argument attribute that records an index bound.
constexpr StringLiteral kIndexBoundAttrName = "tessel.index_bound";

/// Returns the exclusive upper bound of the values of `value`: the smallest
/// size of the dimension that a cross-entropy, gather or one_hot indexes
/// with it, or std::nullopt if none does.
std::optional<int64_t> getIndexBound(Value value);

} // namespace mlir::tessel

#endif // TESSEL_DIALECT_INDEXBOUNDS_H
