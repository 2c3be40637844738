//===- Reductions.h - Reference reduction and normalization kernels -*- C++
//-*-===//

#ifndef TESSEL_REFERENCE_REDUCTIONS_H
#define TESSEL_REFERENCE_REDUCTIONS_H

#include "reference/Tensor.h"

#include <cmath>
#include <string>

namespace tessel::ref {

enum class ReductionKind { Sum, Mean, Max, Min, Prod };

/// The value a reduction starts from (0 for Sum/Mean, -inf for Max, ...).
double reductionIdentity(ReductionKind kind);
/// Folds `value` into `accumulator`; Mean accumulates a sum (divide by the
/// count afterwards). Max and Min propagate NaN.
double reductionCombine(ReductionKind kind, double accumulator, double value);

/// Reduces the dimensions of x that `resultSpec` lacks.
Tensor reduce(ReductionKind kind, const Tensor &x,
              const TensorSpec &resultSpec);

/// exp(x - max) / sum(exp(x - max)) along the named dimension; the result has
/// x's spec. Subtracting the maximum keeps large inputs finite.
Tensor softmax(const Tensor &x, std::string_view dim);
/// x - max - log(sum(exp(x - max))) along the named dimension.
Tensor logSoftmax(const Tensor &x, std::string_view dim);

/// The inclusive prefix sum along the named dimension (the suffix sum with
/// `reverse`), accumulated in double; the result has x's spec.
Tensor cumsum(const Tensor &x, std::string_view dim, bool reverse);

/// The index along the named dimension of the largest element, for every
/// index of the other dims: the first of equal maxima, the first NaN if
/// there is one. The result has `resultSpec` (x's dims without `dim`, an
/// integer type).
Tensor argmax(const Tensor &x, std::string_view dim,
              const TensorSpec &resultSpec);

/// Whether element i (value a) comes before element j (value b) in the
/// order of argmax and top_k: larger first, NaN above every number, equal
/// elements (two NaNs too) by the smaller index.
inline bool ranksBefore(double a, int64_t i, double b, int64_t j) {
  bool aAbove = std::isnan(a) ? !std::isnan(b) : !std::isnan(b) && a > b;
  bool bAbove = std::isnan(b) ? !std::isnan(a) : !std::isnan(a) && b > a;
  return aAbove || (!bAbove && i < j);
}

/// The `k` largest elements along `dim` (with `indices`, their indices
/// along it), for every index of the other dims, largest first; ties go to
/// the smaller index, NaN ranks above everything. The result has
/// `resultSpec`: x's dims with `dim` replaced by `outDim` of size k, in
/// any order, x's element type or (indices) an integer type.
Tensor topK(const Tensor &x, std::string_view dim, int64_t k,
            std::string_view outDim, bool indices,
            const TensorSpec &resultSpec);

/// Per-example loss logsumexp(logits over classDim) - logits[label]. `labels`
/// holds integers and has exactly the result's dims (the logits' dims minus
/// classDim). A label outside [0, classes) is bad input, not a broken
/// invariant: returns false and names the label and its position in `error`.
bool softmaxCrossEntropy(const Tensor &logits, const Tensor &labels,
                         std::string_view classDim,
                         const TensorSpec &resultSpec, Tensor &out,
                         std::string &error);

/// (x - mean) / sqrt(var + epsilon) with the mean and population variance
/// taken over the named dims, separately for every index of the other dims.
/// The result has x's spec; scale and bias are separate broadcast ops.
Tensor layerNorm(const Tensor &x, const std::vector<std::string> &dims,
                 double epsilon);

} // namespace tessel::ref

#endif // TESSEL_REFERENCE_REDUCTIONS_H
