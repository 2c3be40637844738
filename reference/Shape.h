//===- Shape.h - Reference data-movement and indexing kernels ---*- C++ -*-===//
//
// Ops that move, select or generate values rather than compute them. Dims are
// matched by name: an operand may list its dims in a different order from
// the result.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_REFERENCE_SHAPE_H
#define TESSEL_REFERENCE_SHAPE_H

#include "reference/Tensor.h"

#include <string>

namespace tessel::ref {

/// The same data with the dims renamed positionally: `resultSpec` has x's
/// shape and type in the same order, only the names differ.
Tensor rename(const Tensor &x, const TensorSpec &resultSpec);

/// The same values in the same row-major order under new dims and shape with
/// the same element count.
Tensor reshape(const Tensor &x, const TensorSpec &resultSpec);

/// Reorders x's dims into `resultSpec`'s order, matching them by name.
Tensor transpose(const Tensor &x, const TensorSpec &resultSpec);

/// Copies x to every index of the result dims it lacks, matching the others
/// by name (a transpose is the case of no new dims).
Tensor broadcast(const Tensor &x, const TensorSpec &resultSpec);

/// For each listed dim, the `resultSpec`-sized window starting at the
/// matching entry of `starts` (stride 1); unlisted dims are kept whole.
Tensor slice(const Tensor &x, const std::vector<std::string> &dims,
             const std::vector<int64_t> &starts, const TensorSpec &resultSpec);

/// Joins the inputs along the named dim, in order; every other dim is the
/// same in all inputs and the result.
Tensor concat(const std::vector<Tensor> &inputs, std::string_view dim,
              const TensorSpec &resultSpec);

/// Surrounds x with `value`: `low[i]` elements before and `high[i]` after
/// along `dims[i]` (all non-negative).
Tensor pad(const Tensor &x, const std::vector<std::string> &dims,
           const std::vector<int64_t> &low, const std::vector<int64_t> &high,
           double value, const TensorSpec &resultSpec);

/// Converts every element to `type` with roundToType (floats to integers
/// truncate toward zero; anything to i1 tests for non-zero).
Tensor cast(const Tensor &x, ElementType type);

/// Looks rows up in `table`: the result has ids' dims plus the table's dims
/// other than `vocabDim`, and result[i, rest] = table[vocabDim = ids[i],
/// rest]. An id outside [0, vocab size) is bad input: returns false and names
/// the id and its position in `error`.
bool gather(const Tensor &table, const Tensor &ids, std::string_view vocabDim,
            const TensorSpec &resultSpec, Tensor &out, std::string &error);

/// result[i, k] = ids[i] == k ? onValue : offValue, where k runs along
/// `newDim` (the one result dim ids lack). Ids outside the range of `newDim`
/// give a row of offValue, as in TensorFlow.
Tensor oneHot(const Tensor &ids, std::string_view newDim,
              const TensorSpec &resultSpec, double onValue = 1.0,
              double offValue = 0.0);

/// Each element holds its index along the named dim.
Tensor iota(const TensorSpec &resultSpec, std::string_view dim);

} // namespace tessel::ref

#endif // TESSEL_REFERENCE_SHAPE_H
